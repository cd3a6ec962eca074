"""Profile atlas rows: run :func:`oipr_bench.audit` on each adapter's metric.

A row is plain data (a dict, stored in ``atlas.json``): the adapter's
declarations, the package version, the status (``ok``, ``unavailable``,
``error``, ``not_run``) with its reason, the characteristic cells, the metric
property cells (suite ``all``: score metrics run the score properties on the
families' real scores; docs/properties.md), the per-case headline numbers
(F1 for a P/R metric, the score for a scalar one; ``None`` for NaN and for a
failed case, the latter listed in ``failed_cases``) and the sanity checks that
did not pass (``sanity_failed``) and the undetermined cells that read a saturated
case, with the reason (``saturated``).
The audit's JSON report is kept beside it (one file per row).
"""

from __future__ import annotations

import math
import os
import time
from typing import Any, Iterable

from ..vocabulary import NOT_APPLICABLE, NOT_RUN, SUITE_ALL
from .adapters.base import Adapter, Unavailable
from .running.cache import ResultCache
from .running.tasks import THREAD_VARIABLES, one_thread, worker_count  # noqa: F401 - the worker setup lives with the tasks

__all__ = ["ROW_STATUSES", "batches", "profile_adapter", "profile_all", "one_thread", "worker_count", "row_from_report", "derived_cells", "headline", "cell", "saturated_cells"]

ROW_STATUSES = ("ok", "unavailable", "error", NOT_RUN)


def _base_row(adapter: Adapter) -> dict[str, Any]:
    lo, hi = adapter.bounds
    return {
        "id": adapter.id,
        "package": adapter.package,
        "version": adapter.version,
        "metric": adapter.metric,
        "family": adapter.family,
        "group": adapter.group,
        "params": dict(adapter.params),
        "input_kind": adapter.input_kind,
        "kind": adapter.kind,
        "higher_is_better": adapter.higher_is_better,
        "bounds": [lo, hi],
        "note": adapter.note,
        "slow": adapter.slow,
        "random_runs": adapter.random_runs,
        "chance_draws": adapter.chance_draws,
        "env": adapter.env,
        "status": NOT_RUN,
        "reason": "",
        "characteristics": {},
        "properties": {},
        "cases": {},
        "failed_cases": [],
        "sanity_failed": [],
        "saturated": {},
    }


def headline(case: dict[str, Any]) -> float | None:
    """The case's headline number from a report's case entry: the score, else F1 (None when it failed)."""
    if case.get("status") != "ok":
        return None
    for key in ("score", "value", "f1"):
        value = case.get(key)
        if value is not None:
            return float(value)
    return None


def cell(characteristic: dict[str, Any]) -> str:
    """A report characteristic (or metric property) as a grid cell: its value, ``n/a`` or ``?`` (undetermined)."""
    observed = characteristic.get("observed")
    if observed == NOT_APPLICABLE or characteristic.get("status") == NOT_APPLICABLE:
        return "n/a"
    return "?" if observed is None else str(observed)


def saturated_cells(report: dict[str, Any]) -> dict[str, str]:
    """``{name: the audit's reason}`` for each undetermined characteristic or property that reads a saturated case.

    A case is saturated when the metric's perfect and uninformative values lie within
    :data:`~oipr_bench.auditing.table5.chance.SATURATION_BAND` of its range there: the
    grid marks the cell (:data:`~oipr_bench.atlas.property_grid.SATURATED_MARK`) and shows the reason.
    """
    out = {}
    for entry in [*report["characteristics"], *report.get("properties", [])]:
        message = entry.get("message") or ""
        if cell(entry) == "?" and "saturated" in message:
            out[entry["name"]] = message
    return out


def _strip_timings(obj: Any) -> Any:
    """The report without wall times (so that the committed atlas is reproducible)."""
    if isinstance(obj, dict):
        return {k: (0.0 if k == "seconds" else _strip_timings(v)) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_strip_timings(v) for v in obj]
    return obj


def derived_cells(report: dict[str, Any]) -> dict[str, Any]:
    """The row fields read from the verdicts of ``report``: characteristics, properties, sanity failures, saturated cells."""
    return {
        "characteristics": {c["name"]: cell(c) for c in report["characteristics"]},
        "properties": {p["name"]: cell(p) for p in report.get("properties", [])},
        "sanity_failed": [s["name"] for s in report.get("sanity", []) if s["status"] != "passed"],
        "saturated": saturated_cells(report),
    }


def row_from_report(adapter: Adapter, report: dict[str, Any]) -> dict[str, Any]:
    """The atlas row of ``adapter`` from its audit report."""
    row = _base_row(adapter)
    row["status"] = "ok"
    row.update(derived_cells(report))
    row["cases"] = {c["case_id"]: headline(c) for c in report["cases"]}
    failed = [c for c in report["cases"] if c["status"] != "ok"]
    row["failed_cases"] = [c["case_id"] for c in failed]
    if failed:
        row["reason"] = f"{len(failed)} of {len(report['cases'])} cases failed; first: {failed[0]['case_id']}: {failed[0]['message']}"
    return row


def profile_adapter(adapter: Adapter, reverse: bool = False) -> tuple[dict[str, Any], dict[str, Any] | None, float]:
    """Audit one adapter: ``(row, report or None, seconds)``.

    With ``reverse`` the cases are run in reverse order (``atlas --check``): a metric object
    that keeps state between calls then sees a different first call, and its numbers drift
    from the committed ones instead of being reproduced.
    """
    t0 = time.perf_counter()
    try:
        evaluator = adapter.load()
    except Unavailable as exc:
        row = _base_row(adapter)
        row["status"], row["reason"] = "unavailable", str(exc)
        return row, None, time.perf_counter() - t0
    try:
        report = _strip_timings(_audit(evaluator, reverse, adapter.random_runs, adapter.chance_draws).to_dict())
    except Exception as exc:  # noqa: BLE001 - any failure of the audit itself is the row's reason
        row = _base_row(adapter)
        row["status"], row["reason"] = "error", f"audit failed: {type(exc).__name__}: {exc}".splitlines()[0]
        return row, None, time.perf_counter() - t0
    row = row_from_report(adapter, report)
    problem = schema_problem(report)
    if problem:
        row["reason"] = "; ".join(x for x in (row["reason"], f"its report does not follow the report schema: {problem}") if x)
    return row, report, time.perf_counter() - t0


def _audit(evaluator: Any, reverse: bool, random_runs: int | None = None, chance_draws: int | None = None) -> Any:
    """The audit profile of ``evaluator`` (suite ``all``, reduced to ``random_runs`` and ``chance_draws``), its cases
    run first to last or last to first."""
    from ..auditing.options import AuditOptions
    from ..auditing.profile.profiles import AuditSession
    from ..auditing.calling.resolve import resolve

    with AuditSession(resolve(evaluator), AuditOptions(suite=SUITE_ALL, random_runs=random_runs,
                                                          chance_draws=chance_draws)) as session:
        order = list(session.cases)
        for case_id in reversed(order) if reverse else order:
            session.case_result(case_id)
        return session.run_all()


def schema_problem(report: dict[str, Any]) -> str:
    """One line saying how ``report`` breaks ``schema/report.schema.json`` ("" when it follows it)."""
    import jsonschema

    from .store import validate_report

    try:
        validate_report(report)
    except jsonschema.ValidationError as exc:
        where = "/".join(str(p) for p in exc.absolute_path)
        return f"{where}: {exc.message}"
    return ""


def _profile_one(adapter: Adapter, reverse: bool = False) -> tuple[dict[str, Any], dict[str, Any] | None, float]:
    import warnings

    warnings.simplefilter("ignore")
    return profile_adapter(adapter, reverse)


def _profile_batch(batch: list[Adapter], reverse: bool = False) -> list[tuple[dict[str, Any], dict[str, Any] | None, float]]:
    """Profile rows one after the other on one worker: a shared pair (:mod:`.adapters.shared`), storing row first.

    The adapters travel with the task (Dask pickles them), so a worker profiles the rows as the
    submitting process declares them; the package versions are the worker's own (stated in each row).
    """
    from .adapters.shared import clear

    try:
        return [_profile_one(a, reverse) for a in batch]
    finally:
        clear()


def batches(adapters: list[Adapter]) -> list[list[int]]:
    """Indices of ``adapters`` in the batches one worker profiles: each shared pair together, the rest alone.

    Longest first (slow rows by their seconds in the last ``--include-slow`` run, then the rest), so that a run's wall time
    is about its longest batch, not a slow row queued behind the fast ones.
    """
    out: list[list[int]] = []
    by_call: dict[tuple[str, str], list[int]] = {}
    for i, a in enumerate(adapters):
        if a.shared:
            key = (a.shared, repr(sorted(a.params.items())))
            if key not in by_call:
                by_call[key] = []
                out.append(by_call[key])
            by_call[key].append(i)
        else:
            out.append([i])
    seconds = last_row_seconds()
    return sorted(out, key=lambda b: (not adapters[b[0]].slow, -sum(seconds.get(adapters[i].id, 0.0) for i in b),
                                      adapters[b[0]].random_runs is None))


def last_row_seconds() -> dict[str, float]:
    """Each row's seconds in the last recorded ``--include-slow`` run of the source checkout's atlas ({} when none).

    Only an order hint for :func:`batches`: a file that cannot be read gives no hint, never an error.
    """
    from .store import default_dir
    from .timings import read_timings

    try:
        doc = read_timings(default_dir())
    except Exception:  # noqa: BLE001 - a missing or broken timings file only loses the hint
        return {}
    out: dict[str, float] = {}
    for mode in ("write_include_slow", "write_include_slow_modern"):
        rows = doc.get(mode, {}).get("rows", {}) if isinstance(doc.get(mode), dict) else {}
        out.update({k: float(v) for k, v in rows.items() if isinstance(v, (int, float)) and not isinstance(v, bool)})
    return out


def profile_all(adapters: Iterable[Adapter], jobs: int = 1, reverse: bool = False, *, scheduler: str | None = None,
                cache: ResultCache | None = None, timeout: float | None = None, quiet: bool = True,
                counts: dict[str, int] | None = None) -> list[tuple[dict[str, Any], dict[str, Any] | None, float]]:
    """Audit every adapter as Dask tasks (:mod:`.running.tasks`), in the given order; ``reverse``: see :func:`profile_adapter`.

    ``jobs`` local worker processes, or the workers of ``scheduler``; each batch of :func:`batches` is
    one task.  With ``cache`` (:mod:`.running.cache`), a row whose entry is there is read from it and
    every row computed is stored as soon as its task finishes; ``counts`` receives ``computed`` and
    ``cached``.  A task that fails (``timeout`` seconds passed, its workers kept dying) gives its rows
    status ``error`` with the reason; such rows are not cached.
    """
    from ..auditing.progress import progress_bar
    from .running.profile_keys import profile_key_fields
    from .running.tasks import Task, connect, run_tasks

    listed = list(adapters)
    ids = [a.id for a in listed]
    results: dict[int, tuple[dict[str, Any], dict[str, Any] | None, float]] = {}
    fields = [profile_key_fields(a, reverse) for a in listed] if cache is not None else []
    for i, key_fields in enumerate(fields):
        hit = cache.get(key_fields) if cache is not None else None
        if hit is not None:
            results[i] = (hit["row"], hit["report"], float(hit["seconds"]))
    todo = [g for g in ([i for i in group if i not in results] for group in batches(listed)) if g]
    if counts is not None:
        counts.update(cached=len(results), computed=sum(len(g) for g in todo))
    if not todo:
        return [results[i] for i in range(len(ids))]
    tasks = [Task(f"atlas-{ids[g[0]]}", _profile_batch, ([listed[i] for i in g], reverse)) for g in todo]
    with progress_bar(total=len(listed), unit="row", desc="atlas", quiet=quiet) as bar, \
            connect(worker_count(jobs, len(tasks)), scheduler) as client:
        bar.update(len(results))

        def done(k: int, outcome: Any) -> None:
            group = todo[k]
            if outcome.ok:
                for i, result in zip(group, outcome.value):
                    results[i] = result
                    if cache is not None and result[0]["version"] != fields[i]["row"]["version"]:
                        results[i] = (not_run_row(listed[i], f"the worker has {listed[i].package} {result[0]['version']}, "
                                                             f"this environment {fields[i]['row']['version']}: start the "
                                                             "workers from this environment", "error"), None, result[2])
                    elif cache is not None and result[0]["status"] in ("ok", "error"):
                        cache.put(fields[i], {"row": result[0], "report": result[1], "seconds": result[2]})
            else:
                for i in group:
                    results[i] = (not_run_row(listed[i], f"the atlas task failed: {outcome.failure}", "error"), None, 0.0)
            bar.update(len(group))

        run_tasks(tasks, client, timeout=timeout, on_done=done)
    return [results[i] for i in range(len(ids))]


def not_run_row(adapter: Adapter, reason: str, status: str = NOT_RUN) -> dict[str, Any]:
    """A row that was not profiled (``not_run`` or ``unavailable``), with the reason."""
    row = _base_row(adapter)
    row["status"], row["reason"] = status, reason
    return row


def same_number(a: float | None, b: float | None, tol: float = 1e-9) -> bool:
    """Equal within ``tol`` (None equals None; NaN is stored as None)."""
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=0.0, abs_tol=tol)
