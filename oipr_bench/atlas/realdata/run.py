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

import sys
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
            "series": name, "series_sha256": digest, "detector": planning.probe_detector(inputs)}


def run_rows(inputs: RealInputs, directory: Path, adapters: list[Adapter], *,
             client_factory: Callable[[int], Any], cache: ResultCache | None, timeout: float | None,
             budget_minutes: float, progress: Callable[[int, str], Any], counts: RunCounts) -> dict[str, str]:
    """Run ``adapters`` (one environment's rows) on ``inputs``; write a row file per finished row.

    Returns each run row's status (``ok``, ``incomplete``, ``unavailable``, ``skipped``).
    """
    detectors = list(inputs.detectors)
    committed, refused = read_row_files(directory)
    for path, why in refused:
        counts.notes.append(f"{path} not read as a cache ({why})")
    status: dict[str, str] = {}
    todo: list[tuple[Adapter, dict[str, Any], str]] = []
    for a in adapters:
        fields = row_fields(a)
        key = planning.row_key(fields, inputs.digest, detectors, PROTOCOL, budget_minutes)
        if committed.get(a.id, {}).get("key") == key:
            status[a.id] = "skipped"
            counts.rows_skipped += 1
            continue
        if a.version is None:
            write_row_file(directory, _document(a, key, inputs, None, {}, "unavailable",
                                                f"{a.package} is not installed in this environment"))
            status[a.id] = "unavailable"
            counts.rows_written += 1
            continue
        todo.append((a, fields, key))
    counts.rows_run = len(todo)
    if not todo:
        return status
    plans, failures = _plans(inputs, todo, client_factory, cache, timeout, budget_minutes, counts, progress)
    for a, _, _ in todo:
        if plans[a.id] is None:  # written without its key, so the next run tries it again
            write_row_file(directory, _document(a, "", inputs, None, {}, "failed", failures.get(a.id, "not planned")))
            status[a.id] = "failed"
            counts.rows_written += 1
            counts.rows_failed += 1
    by_name = inputs.by_name()
    results: dict[str, dict[str, Any]] = {a.id: {} for a, _, _ in todo}
    left: dict[str, int] = {}
    failed: dict[str, list[str]] = {a.id: [] for a, _, _ in todo}
    tasks: list[Task] = []
    task_of: list[tuple[Adapter, str, dict[str, Any]]] = []
    for a, fields, key in todo:
        p = plans[a.id]
        if p is None:
            continue
        known = committed_cells(committed.get(a.id))
        left[a.id] = 0
        for name in p.series:
            s = by_name[name]
            sfields = series_fields(fields, name, s.digest, detectors, PROTOCOL)
            skey = key_of(sfields)
            hit = known.get(skey)
            if hit is None and cache is not None:
                hit = cache.get(sfields)
            if hit is not None:
                results[a.id][name] = {"key": skey, "result": hit}
                counts.pairs_read += 1
                continue
            left[a.id] += 1
            tasks.append(Task(f"realdata-{a.id}", score_series, (a.id, s.y_true, s.scores, s.y_pred, tuple(detectors))))
            task_of.append((a, name, sfields))
    keys = {a.id: key for a, _, key in todo}
    adapters_by_id = {a.id: a for a, _, _ in todo}

    def finish_row(rid: str) -> None:
        a = adapters_by_id[rid]
        p = plans[rid]
        cells = {name: results[rid][name] for name in p.series if name in results[rid]}
        state = "ok" if not failed[rid] else "incomplete"
        reason = "" if not failed[rid] else f"{len(failed[rid])} series not computed: " + "; ".join(failed[rid][:3])
        # an incomplete row is written without its key: the next run is not done with it (it reads the series kept here)
        write_row_file(directory, _document(a, keys[rid] if state == "ok" else "", inputs, p, cells, state, reason))
        status[rid] = state
        counts.rows_written += 1

    for rid, n in list(left.items()):
        if n == 0:
            finish_row(rid)
    bar = progress(len(tasks), "pair")

    def done(k: int, outcome: Outcome) -> None:
        a, name, sfields = task_of[k]
        if outcome.ok:
            results[a.id][name] = {"key": key_of(sfields), "result": outcome.value}
            if cache is not None:
                cache.put(sfields, outcome.value)
            counts.pairs_computed += 1
            counts.worker_cpu_seconds += float(outcome.value.get("cpu_seconds") or 0.0)
        else:
            failed[a.id].append(f"{name}: {outcome.failure}")
            counts.pairs_failed += 1
        left[a.id] -= 1
        bar.update(1)
        if left[a.id] == 0:
            finish_row(a.id)

    if tasks:
        with bar, client_factory(len(tasks)) as client:
            run_tasks(tasks, client, timeout=timeout, on_done=done)
    return status


def _plans(inputs: RealInputs, todo: list[tuple[Adapter, dict[str, Any], str]], client_factory: Callable[[int], Any],
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

        with bar, client_factory(len(tasks)) as client:
            run_tasks(tasks, client, timeout=timeout, on_done=done)
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
