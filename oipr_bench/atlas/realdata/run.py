"""``oipr-bench atlas --realdata DIR``: every row of this environment on NAB, as Dask tasks, row file by row file.

The steps (docs/atlas.md, "The atlas on real data"):

1. NAB is read once (:func:`~.inputs.read_inputs`);
2. a row whose committed file (``atlas/realdata/rows/``) carries its key is skipped: nothing to do;
3. every other row gets a cost probe (one call, a Dask task; kept in the result cache so a resumed
   run plans the same subset) and its plan (:func:`~.plan.plan_row`);
4. each planned (row, series) pair is one task computing the row's cell for every detector; a pair
   whose cells are in the committed file or in the result cache is read, not computed;
5. each row's file is written the moment its last pair arrives, so an interrupted run (Ctrl-C, a lost
   worker or machine) keeps every finished row and every finished pair;
6. the summary (:mod:`.summary`) is rebuilt from every row file, both environments'.

A pair that times out, or whose workers kept dying, is a failed pair: not cached, its row file
marked incomplete, computed again by the next run.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from ..adapters.base import Adapter
from ..running.cache import ResultCache, key_of, series_fields
from ..running.profile_keys import profile_key_fields
from ..running.tasks import Outcome, Task, run_tasks
from . import plan as planning
from .inputs import RealInputs
from .rowfiles import committed_cells, read_row_files, write_row_file
from .work import probe_cost, score_series

__all__ = ["PROTOCOL", "CELL_READING_VERSION", "RunCounts", "row_fields", "run_rows"]

#: The real-data protocol, as plain data: part of every cell's key (the same as ``oipr-bench realdata``'s).
PROTOCOL: dict[str, str] = {
    "labels": "NAB's anomaly windows (labels/combined_windows.json), both ends included",
    "probation": "NAB's probationary rows (the first 15 % of each series, at most 750) left out; a series with no "
                 "anomalous row after them left out",
    "score_rows": "the detector's anomaly_score as it is",
    "binary_rows": "anomaly_score >= the detector's own NAB threshold (config/thresholds.json, standard profile)",
    "cell": "a P/R result ranks by its F1 (eq. 1), one number as it is; a raise, a non-finite number or one outside "
            "the row's declared bounds is a failed cell",
}


#: The version of how a real-data cell is read (the protocol above, a result coerced to one number).  A real-data
#: key holds it as its ``reading_version`` in place of the audit's :data:`~oipr_bench._version.READING_VERSION`:
#: the audit's readings (verdicts on the constructed cases) never touch a cell, so a new reading keeps every
#: committed real-data file valid, while a change to this protocol's reading makes every cell computed again.
CELL_READING_VERSION = 1


def row_fields(a: Adapter) -> dict[str, Any]:
    """The key fields of a row on real data: its profile's (:func:`~..running.profile_keys.profile_key_fields`),
    with :data:`CELL_READING_VERSION` as its reading version."""
    return {**profile_key_fields(a), "reading_version": CELL_READING_VERSION}


@dataclass
class RunCounts:
    """What a run did (printed at its end)."""

    rows_skipped: int = 0
    rows_run: int = 0
    rows_written: int = 0
    pairs_read: int = 0
    pairs_computed: int = 0
    pairs_failed: int = 0
    rows_failed: int = 0
    probes_run: int = 0
    worker_cpu_seconds: float = 0.0
    notes: list[str] = field(default_factory=list)


def _row_head(a: Adapter) -> dict[str, Any]:
    return {"id": a.id, "package": a.package, "version": a.version, "metric": a.metric, "family": a.family,
            "group": a.group, "input_kind": a.input_kind, "kind": a.kind, "higher_is_better": a.higher_is_better,
            "bounds": [None if b is None else float(b) for b in a.bounds], "env": a.env,
            "params": {str(k): repr(v) for k, v in sorted(a.params.items())}}


def _probe_fields(fields: Mapping[str, Any], inputs: RealInputs) -> dict[str, Any]:
    name = planning.probe_series(inputs)
    digest = inputs.by_name()[name].digest
    return {**{k: v for k, v in fields.items() if k not in ("kind", "order", "inputs_sha256")}, "kind": "cost-probe",
            "series": name, "series_sha256": digest, "detector": planning.probe_detector(inputs),
            "timing": "one call, no shared result kept"}


def run_rows(inputs: RealInputs, directory: Path, adapters: list[Adapter], *,
             client_factory: Callable[[int], Any], cache: ResultCache | None, timeout: float | None,
             budget_minutes: float, progress: Callable[[int, str], Any], counts: RunCounts) -> dict[str, str]:
    """Run ``adapters`` (one environment's rows) on ``inputs``; write a row file per finished row.

    Returns each row's status (``ok``, ``incomplete``, ``failed``, ``unavailable``, ``skipped``).
    """
    run = _RowsRun(inputs, directory, cache, counts)
    todo = run.select(adapters, budget_minutes)
    if not todo:
        return run.status
    with contextlib.ExitStack() as stack:
        started: list[Any] = []

        def client() -> Any:  # one cluster for the probes and the pairs, started only when a task needs it
            if not started:
                started.append(stack.enter_context(client_factory(len(todo) * len(inputs.series))))
            return started[0]

        plans, failures = _plans(inputs, todo, client, cache, timeout, budget_minutes, counts, progress)
        tasks = run.pairs(todo, plans, failures)
        if tasks:
            with progress(len(tasks), "pair") as bar:
                run_tasks(tasks, client(), timeout=timeout, on_done=lambda k, outcome: run.done(k, outcome, bar))
    return run.status


class _RowsRun:
    """One run's rows: which to run, their (row, series) tasks, what came back, each row's file when it is complete."""

    def __init__(self, inputs: RealInputs, directory: Path, cache: ResultCache | None, counts: RunCounts) -> None:
        self.inputs, self.directory, self.cache, self.counts = inputs, directory, cache, counts
        self.detectors = list(inputs.detectors)
        self.committed, refused = read_row_files(directory)
        counts.notes += [f"{path} not read as a cache ({why})" for path, why in refused]
        self.status: dict[str, str] = {}
        self.keys: dict[str, str] = {}
        self.plans: dict[str, "planning.Plan | None"] = {}
        self.by_id: dict[str, Adapter] = {}
        self.results: dict[str, dict[str, Any]] = {}
        self.failed: dict[str, list[str]] = {}
        self.left: dict[str, int] = {}
        self.task_of: list[tuple[Adapter, str, dict[str, Any]]] = []

    def select(self, adapters: list[Adapter], budget_minutes: float) -> list[tuple[Adapter, dict[str, Any], str]]:
        """The rows to run: not those whose committed file carries their key; an unavailable row written as such."""
        todo = []
        for a in adapters:
            fields = row_fields(a)
            key = planning.row_key(fields, self.inputs.digest, self.detectors, PROTOCOL, budget_minutes)
            if self.committed.get(a.id, {}).get("key") == key:
                self.status[a.id] = "skipped"
                self.counts.rows_skipped += 1
            elif a.version is None:
                self._write(a, key, None, {}, "unavailable", f"{a.package} is not installed in this environment")
            else:
                todo.append((a, fields, key))
                self.keys[a.id], self.by_id[a.id] = key, a
        self.counts.rows_run = len(todo)
        return todo

    def pairs(self, todo: list[tuple[Adapter, dict[str, Any], str]], plans: dict[str, "planning.Plan | None"],
              failures: dict[str, str]) -> list[Task]:
        """The tasks of the (row, series) pairs neither committed nor cached; the rows already whole are written."""
        self.plans = plans
        by_name = self.inputs.by_name()
        tasks = []
        for a, fields, _ in todo:
            if plans[a.id] is None:  # written without its key, so the next run tries it again
                self._write(a, "", None, {}, "failed", failures.get(a.id, "not planned"))
                self.counts.rows_failed += 1
                continue
            known = committed_cells(self.committed.get(a.id))
            self.results[a.id], self.failed[a.id], self.left[a.id] = {}, [], 0
            for name in plans[a.id].series:
                s = by_name[name]
                sfields = series_fields(fields, name, s.digest, self.detectors, PROTOCOL)
                skey = key_of(sfields)
                hit = known.get(skey)
                if hit is None and self.cache is not None:
                    hit = self.cache.get(sfields)
                if hit is not None:
                    self.results[a.id][name] = {"key": skey, "result": hit}
                    self.counts.pairs_read += 1
                    continue
                self.left[a.id] += 1
                tasks.append(Task(f"realdata-{a.id}", score_series, (a.id, s.y_true, s.scores, s.y_pred, tuple(self.detectors))))
                self.task_of.append((a, name, sfields))
        for rid, n in list(self.left.items()):
            if n == 0:
                self._finish_row(rid)
        return tasks

    def done(self, k: int, outcome: Outcome, bar: Any) -> None:
        """A task's outcome: kept (and cached) or recorded as failed; the row's file written with its last series."""
        a, name, sfields = self.task_of[k]
        if outcome.ok:
            self.results[a.id][name] = {"key": key_of(sfields), "result": outcome.value}
            if self.cache is not None:
                self.cache.put(sfields, outcome.value)
            self.counts.pairs_computed += 1
            self.counts.worker_cpu_seconds += float(outcome.value.get("cpu_seconds") or 0.0)
        else:
            self.failed[a.id].append(f"{name}: {outcome.failure}")
            self.counts.pairs_failed += 1
        self.left[a.id] -= 1
        bar.update(1)
        if self.left[a.id] == 0:
            self._finish_row(a.id)

    def _finish_row(self, rid: str) -> None:
        p = self.plans[rid]
        assert p is not None
        cells = {name: self.results[rid][name] for name in p.series if name in self.results[rid]}
        failed = self.failed[rid]
        state = "ok" if not failed else "incomplete"
        reason = "" if not failed else f"{len(failed)} series not computed: " + "; ".join(failed[:3])
        # an incomplete row is written without its key: the next run is not done with it (it reads the series kept here)
        self._write(self.by_id[rid], self.keys[rid] if state == "ok" else "", p, cells, state, reason)

    def _write(self, a: Adapter, key: str, p: "planning.Plan | None", cells: Mapping[str, Any], state: str, reason: str) -> None:
        write_row_file(self.directory, _document(a, key, self.inputs, p, cells, state, reason))
        self.status[a.id] = state
        self.counts.rows_written += 1


def _plans(inputs: RealInputs, todo: list[tuple[Adapter, dict[str, Any], str]], client: Callable[[], Any],
           cache: ResultCache | None, timeout: float | None, budget_minutes: float, counts: RunCounts,
           progress: Callable[[int, str], Any]) -> tuple[dict[str, "planning.Plan | None"], dict[str, str]]:
    """Each row's plan from its cost probe (cached; a probe that fails leaves the row unplanned: None), and why a probe failed."""
    probes: dict[str, dict[str, Any]] = {}
    need: list[tuple[Adapter, dict[str, Any]]] = []
    failures: dict[str, str] = {}
    for a, fields, _ in todo:
        pfields = _probe_fields(fields, inputs)
        hit = cache.get(pfields) if cache is not None else None
        if hit is not None:
            probes[a.id] = hit
        else:
            need.append((a, pfields))
    if need:
        s = inputs.by_name()[planning.probe_series(inputs)]
        det = planning.probe_detector(inputs)
        tasks = [Task(f"probe-{a.id}", probe_cost, (a.id, s.y_true, s.scores[det], s.y_pred[det])) for a, _ in need]
        bar = progress(len(tasks), "probe")

        def done(k: int, outcome: Outcome) -> None:
            a, pfields = need[k]
            bar.update(1)
            if outcome.ok and not outcome.value.get("failure"):
                probes[a.id] = outcome.value
                counts.worker_cpu_seconds += float(outcome.value.get("cpu_seconds") or 0.0)
                if cache is not None:
                    cache.put(pfields, outcome.value)
            else:
                why = outcome.failure or outcome.value.get("failure", "")
                failures[a.id] = f"its cost probe failed ({why}); not run (tried again by the next run)"
                counts.notes.append(f"{a.id}: cost probe failed ({why}); row not run")

        with bar:
            run_tasks(tasks, client(), timeout=timeout, on_done=done)
        counts.probes_run += len(tasks)
    return ({a.id: (planning.plan_row(inputs, probes[a.id], budget_minutes) if a.id in probes else None)
             for a, _, _ in todo}, failures)


def _document(a: Adapter, key: str, inputs: RealInputs, p: "planning.Plan | None", cells: Mapping[str, Any],
              state: str, reason: str) -> dict[str, Any]:
    cpu = sum(float(c["result"].get("cpu_seconds") or 0.0) for c in cells.values())
    return {"key": key, "row": _row_head(a), "status": state, "reason": reason,
            "written": time.strftime("%Y-%m-%d", time.gmtime()),
            "data": {"digest": inputs.digest, "series_kept": len(inputs.series), "left_out": [list(x) for x in inputs.left_out]},
            "protocol": PROTOCOL, "detectors": list(inputs.detectors), "thresholds": dict(inputs.thresholds),
            "plan": p.to_dict() if p is not None else None, "cpu_seconds": round(cpu, 3), "cells": dict(cells)}
