"""Reading an evaluator's return value: :func:`coerce_result` and :func:`check_range`.

An evaluator returns precision and recall (``(P, R)``, ``(P, R, F1)``, a
mapping or an object with those names) or one real number, a score
(scalar scores; :mod:`oipr_bench.auditing.table5.readings`).  :func:`coerce_result` turns any of
them into a :class:`~oipr_bench.evaluators.score.Score` (a score as ``Score(nan, nan,
value)``), :func:`result_kind` says which it was, and :func:`check_range`
judges the values: P, R and F1 in [0, 1], a score finite and within the
declared bounds, both within :data:`RANGE_TOLERANCE`.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from typing import Any

import numpy as np

from ...evaluators.tapr import above_one_note
from ...evaluators.score import Score, f1_from


__all__ = ["coerce_result", "coerce_with_flag", "result_kind", "check_range", "bounds_hint", "RANGE_TOLERANCE",
           "OUT_OF_BOUNDS", "NAN_WHERE_DEFINED", "KIND_PR", "KIND_SCORE", "KINDS", "Bounds", "normalise_bounds", "is_bounded"]

#: Result kinds: precision and recall (and F1), or one number.
KIND_PR = "pr"
KIND_SCORE = "score"
KINDS: tuple[str, ...] = (KIND_PR, KIND_SCORE)

Bounds = tuple[float, float]


def normalise_bounds(bounds: object) -> Bounds:
    """``(lo, hi)`` as floats with ``None`` read as an open end (-inf / +inf).

    Raises
    ------
    ValueError
        Not a pair of numbers (or None), NaN, or ``lo >= hi``.
    """
    if isinstance(bounds, (str, bytes)) or not hasattr(bounds, "__len__") or len(bounds) != 2:  # type: ignore[arg-type]
        raise ValueError(f"bounds must be a pair (lo, hi), got {bounds!r}")
    out = []
    for end, default in zip(bounds, (-math.inf, math.inf)):  # type: ignore[call-overload]
        if end is None:
            out.append(default)
            continue
        if isinstance(end, bool):
            raise ValueError(f"bounds must be numbers or None, got {end!r}")
        try:
            x = float(end)
        except (TypeError, ValueError):
            raise ValueError(f"bounds must be numbers or None, got {end!r}") from None
        if math.isnan(x):
            raise ValueError("bounds must not be NaN")
        out.append(x)
    lo, hi = out
    if not lo < hi:
        raise ValueError(f"bounds need lo < hi, got ({lo:g}, {hi:g})")
    return (lo, hi)


def is_bounded(bounds: Bounds) -> bool:
    """True when both ends of ``bounds`` are finite."""
    return math.isfinite(bounds[0]) and math.isfinite(bounds[1])


#: How an out-of-bounds scalar is named in a case's message (the audit then gives no verdict at all).
OUT_OF_BOUNDS = "lies outside the declared bounds"


def _as_float(name: str, value: Any) -> float:
    """Convert a P/R/F1 component to float, accepting numpy scalars and 0-d arrays."""
    if isinstance(value, np.ndarray):
        if value.ndim != 0:
            raise TypeError(f"{name} is an array of shape {value.shape}, expected a number")
        value = value[()]
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} is a boolean ({value!r}), expected a number")
    if not isinstance(value, numbers.Real):
        raise TypeError(f"{name} is {type(value).__name__} ({value!r:.60}), expected a number")
    return float(value)


#: What an evaluator may return, for messages.
_EXPECTED = "expected (precision, recall[, f1]), a mapping or object with precision/recall, or one number"


def coerce_result(result: Any) -> Score:
    """Turn an evaluator's return value into a :class:`Score`.

    Accepted: ``(P, R, F1)``, ``(P, R)`` (F1 computed by eq. 1), a mapping with
    keys ``precision``/``recall``/``f1`` (``f1`` optional), an object with
    those attributes, or one real number (a scalar score; Python or numpy
    scalar, or a 0-d array), stored as ``Score(nan, nan, value)``.
    Components may be Python or numpy numbers or 0-d arrays.

    Raises
    ------
    TypeError
        The result has the wrong type or arity; the message says what it got.
    """
    return coerce_with_flag(result)[0]


def result_kind(result: Any) -> str:
    """``"score"`` when ``result`` is one number, else ``"pr"`` (no validation)."""
    if isinstance(result, np.ndarray):
        return KIND_SCORE if result.ndim == 0 else KIND_PR
    if isinstance(result, (bool, np.bool_)):
        return KIND_PR
    return KIND_SCORE if isinstance(result, numbers.Real) else KIND_PR


def coerce_with_flag(result: Any) -> tuple[Score, bool]:
    """:func:`coerce_result`, also saying whether the evaluator returned F1 (or a score) itself."""
    if result is None:
        raise TypeError(f"returned None, {_EXPECTED}")
    if isinstance(result, (str, bytes)):
        raise TypeError(f"returned a string ({result!r:.60}), {_EXPECTED}")
    if isinstance(result, (bool, np.bool_)):
        raise TypeError(f"returned a boolean ({result!r}), {_EXPECTED}")
    if result_kind(result) == KIND_SCORE:
        return Score(math.nan, math.nan, _as_float("score", result)), True
    if isinstance(result, Mapping):
        missing = [k for k in ("precision", "recall") if k not in result]
        if missing:
            raise TypeError(f"returned a mapping without key(s) {', '.join(missing)}")
        p = _as_float("precision", result["precision"])
        r = _as_float("recall", result["recall"])
        if "f1" in result:
            return Score(p, r, _as_float("f1", result["f1"])), True
        return Score(p, r, f1_from(p, r)), False
    if isinstance(result, (tuple, list, np.ndarray)):
        if isinstance(result, np.ndarray) and result.ndim != 1:
            raise TypeError(f"returned an array of shape {result.shape}, {_EXPECTED}")
        items = list(result)
        if len(items) not in (2, 3):
            raise TypeError(f"returned {len(items)} values, expected 2 (precision, recall) or 3 (precision, recall, f1)"
                            " or one number")
        p = _as_float("precision", items[0])
        r = _as_float("recall", items[1])
        if len(items) == 3:
            return Score(p, r, _as_float("f1", items[2])), True
        return Score(p, r, f1_from(p, r)), False
    if hasattr(result, "precision") and hasattr(result, "recall"):
        p = _as_float("precision", result.precision)
        r = _as_float("recall", result.recall)
        if hasattr(result, "f1"):
            return Score(p, r, _as_float("f1", result.f1)), True
        return Score(p, r, f1_from(p, r)), False
    raise TypeError(f"returned {type(result).__name__}, {_EXPECTED}")


#: Results may overshoot their range by this much (floating-point noise: a range-based
#: recall of 1.0000000000000002 is 1).
RANGE_TOLERANCE = 1e-9

#: How a result's problem names a NaN where the value is defined (the ``no_nan`` sanity check finds it).
NAN_WHERE_DEFINED = "is NaN although it is well defined here"


def _range_text(bounds: tuple[float, float]) -> str:
    lo, hi = bounds
    left = "(-inf" if lo == -math.inf else f"[{lo:g}"
    right = "inf)" if hi == math.inf else f"{hi:g}]"
    return f"{left}, {right}"


def bounds_hint(value: float, bounds: tuple[float, float]) -> str:
    """The declaration that would fit ``value``: the bounds with the exceeded end open, and the orientation.

    Above an upper bound of 1 a score is often a count, a delay or a distance, which is better when
    lower: the hint names ``--lower-is-better`` too.
    """
    lo, hi = bounds
    if value > hi:
        end = "" if math.isinf(lo) else f"{lo:g}"
        fit = f"--bounds {end}: (bounds=({end or 'None'}, None))"
        also = " and, if smaller is better (a delay, a distance, a count of false alarms), --lower-is-better" \
            if value >= 0 else ""
        return f"if the score is open above, declare {fit}{also}"
    end = "" if math.isinf(hi) else f"{hi:g}"
    return f"if the score is open below, declare --bounds :{end} (bounds=(None, {end or 'None'}))"


def check_range(
    score: Score,
    y_true: np.ndarray,
    y_pred: np.ndarray,
    *,
    kind: str = KIND_PR,
    bounds: tuple[float, float] = (0.0, 1.0),
) -> str:
    """Return a problem description if ``score`` is out of range, else ``""``.

    For precision and recall (``kind="pr"``) every component must lie in
    [0, 1]; a scalar score (``kind="score"``) must be finite and lie within
    the declared ``bounds`` (an open end is +-inf).  Both within
    :data:`RANGE_TOLERANCE`.  NaN is the documented value only for a 0/0
    quantity: precision (and F1, and a scalar score) when ``y_pred`` has no
    positive point, recall (and F1, and a scalar score) when ``y_true`` has none.
    """
    nan_ok = {
        "precision": not np.any(y_pred),
        "recall": not np.any(y_true),
    }
    nan_ok["f1"] = nan_ok["precision"] or nan_ok["recall"]
    if kind == KIND_SCORE:
        value = score.f1
        if math.isnan(value):
            return "" if nan_ok["f1"] else f"score {NAN_WHERE_DEFINED}"
        if math.isinf(value):
            return f"score = {value!r} is not a finite number"
        lo, hi = bounds
        if not lo - RANGE_TOLERANCE <= value <= hi + RANGE_TOLERANCE:
            return f"score = {value!r} {OUT_OF_BOUNDS} {_range_text(bounds)}; {bounds_hint(value, bounds)}"
        return ""
    for name, value in zip(Score._fields, score):
        if math.isnan(value):
            if not nan_ok[name]:
                return f"{name} {NAN_WHERE_DEFINED}"
        elif not -RANGE_TOLERANCE <= value <= 1.0 + RANGE_TOLERANCE:
            return f"{name} = {value!r} lies outside [0, 1]" + above_one_note(name, value)
    return ""
