"""What a Dask worker runs for the real-data atlas: a row's cost probe, and a row on one series.

Both are module-level functions of plain arguments (the row id, arrays), so they run on any worker
started from the same atlas environment, on this machine or another (docs/atlas.md).  The row's
evaluator is built anew in each task (:meth:`~oipr_bench.atlas.adapters.base.Adapter.load`): a
third-party metric object that keeps state between calls never carries it from one task to the next.
"""

from __future__ import annotations

import time
from typing import Any, Mapping

import numpy as np

from ...auditing.calling.coerce import coerce_with_flag, normalise_bounds
from ..adapters.base import Unavailable
from ..running.cache import cell_result

__all__ = ["probe_cost", "score_series", "cell_value"]


def _evaluator(row_id: str) -> Any:
    from ..adapters.registry import by_id

    return by_id()[row_id].load()


def cell_value(ev: Any, y_true: np.ndarray, y_input: np.ndarray) -> dict[str, Any]:
    """One cell: the row's number on one detector's output (F1 of a P/R result), or why there is none.

    A raise, a result that is not a number or (P, R[, F1]), a non-finite number, or a number outside
    the row's declared bounds is a failed cell with that reason; it never becomes a value.
    """
    try:
        score, _ = coerce_with_flag(ev(y_true.copy(), y_input.copy()))
    except Exception as exc:  # noqa: BLE001 - a package raising on one input is one failed cell
        text = str(exc).strip().splitlines()
        return cell_result(failure=f"{type(exc).__name__}: {text[0] if text else ''}".rstrip(": ")[:300])
    value = float(score.f1)
    if value != value or value in (float("inf"), float("-inf")):
        return cell_result(failure=f"not a finite number: {value!r}")
    lo, hi = normalise_bounds(ev.bounds)
    if value < lo - 1e-9 or value > hi + 1e-9:
        return cell_result(failure=f"{value!r} outside its declared bounds [{lo:g}, {hi:g}]")
    return cell_result(value)


def probe_cost(row_id: str, y_true: np.ndarray, scores: np.ndarray, y_pred: np.ndarray) -> dict[str, Any]:
    """Time one call of the row on one series (its CPU seconds); the value is not kept.

    The call is timed with no shared result kept (:mod:`oipr_bench.atlas.adapters.shared`): a row whose
    partner made the same package call in this worker would otherwise time a lookup, not its metric.

    Returns ``{"cpu_seconds": t, "wall_seconds": w, "failure": ""}``, or the failure when the row
    cannot be built (its package is missing in this environment).
    """
    from ..adapters import shared

    try:
        ev = _evaluator(row_id)
    except Unavailable as exc:
        return {"cpu_seconds": None, "wall_seconds": None, "failure": str(exc)}
    given = scores if ev.input_kind == "scores" else y_pred
    shared.clear()  # a row sharing its package call with a partner must not time the partner's kept result
    t0, c0 = time.perf_counter(), time.process_time()
    cell_value(ev, y_true, given)
    return {"cpu_seconds": time.process_time() - c0, "wall_seconds": time.perf_counter() - t0, "failure": ""}


def score_series(row_id: str, y_true: np.ndarray, scores: Mapping[str, np.ndarray], y_pred: Mapping[str, np.ndarray],
                 detectors: tuple[str, ...]) -> dict[str, Any]:
    """The row on one series: one cell per detector, and the CPU seconds they took.

    Returns ``{"values": [number or None per detector], "failures": {detector: reason}, "cpu_seconds": t}``
    (``detectors`` order); a row that cannot be built gives every detector that failure.
    """
    c0 = time.process_time()
    try:
        ev = _evaluator(row_id)
    except Unavailable as exc:
        return {"values": [None] * len(detectors), "failures": {d: f"unavailable: {exc}" for d in detectors},
                "cpu_seconds": 0.0}
    given = scores if ev.input_kind == "scores" else y_pred
    cells = [cell_value(ev, y_true, given[d]) for d in detectors]
    return {"values": [c["value"] for c in cells],
            "failures": {d: c["failure"] for d, c in zip(detectors, cells) if c["failure"]},
            "cpu_seconds": time.process_time() - c0}
