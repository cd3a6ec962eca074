"""Calling a user's evaluator safely on one series pair.

The plugin and :func:`oipr_bench.audit` both go through :func:`call_evaluator`,
so every misbehaviour (an exception, a result of the wrong type or arity, a
value outside [0, 1], a mutated input) is reported the same way: as a
:class:`CallOutcome` naming the kind of problem, never as an escaping
exception.  Each call receives fresh copies of the series.
"""

from __future__ import annotations

import math
import numbers
import traceback
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from .evaluators._base import Score, f1_from

#: Kinds of outcome, in the words the reports use.
OK = "ok"
RAISED = "raised"
BAD_RESULT = "bad_result"
MUTATED = "mutated"
TIMED_OUT = "timed_out"
CRASHED = "crashed"


@dataclass(frozen=True)
class CallOutcome:
    """What happened when an evaluator was called on one series pair.

    Attributes
    ----------
    kind : str
        ``"ok"``, ``"raised"``, ``"bad_result"``, ``"mutated"``, ``"timed_out"`` or ``"crashed"``.
    score : Score or None
        The coerced result when ``kind == "ok"``.
    message : str
        Human-readable explanation when something went wrong (empty when ok).
    detail : str
        Extra detail such as a traceback (may be empty).
    """

    kind: str
    score: Score | None = None
    message: str = ""
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.kind == OK


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


def coerce_result(result: Any) -> Score:
    """Turn an evaluator's return value into a :class:`Score`.

    Accepted: ``(P, R, F1)``, ``(P, R)`` (F1 computed by eq. 1), a mapping with
    keys ``precision``/``recall``/``f1`` (``f1`` optional), or an object with
    those attributes.  Components may be Python or numpy numbers or 0-d arrays.

    Raises
    ------
    TypeError
        The result has the wrong type or arity; the message says what it got.
    """
    if result is None:
        raise TypeError("returned None, expected (precision, recall[, f1])")
    if isinstance(result, (str, bytes)):
        raise TypeError(f"returned a string ({result!r:.60}), expected (precision, recall[, f1])")
    if isinstance(result, Mapping):
        missing = [k for k in ("precision", "recall") if k not in result]
        if missing:
            raise TypeError(f"returned a mapping without key(s) {', '.join(missing)}")
        p = _as_float("precision", result["precision"])
        r = _as_float("recall", result["recall"])
        f = _as_float("f1", result["f1"]) if "f1" in result else f1_from(p, r)
        return Score(p, r, f)
    if isinstance(result, (tuple, list, np.ndarray)):
        items = list(np.asarray(result, dtype=object).ravel()) if isinstance(result, np.ndarray) else list(result)
        if len(items) not in (2, 3):
            raise TypeError(f"returned {len(items)} values, expected 2 (precision, recall) or 3 (precision, recall, f1)")
        p = _as_float("precision", items[0])
        r = _as_float("recall", items[1])
        f = _as_float("f1", items[2]) if len(items) == 3 else f1_from(p, r)
        return Score(p, r, f)
    if hasattr(result, "precision") and hasattr(result, "recall"):
        p = _as_float("precision", result.precision)
        r = _as_float("recall", result.recall)
        f = _as_float("f1", result.f1) if hasattr(result, "f1") else f1_from(p, r)
        return Score(p, r, f)
    raise TypeError(f"returned {type(result).__name__}, expected (precision, recall[, f1]), a mapping or an object with precision/recall")


def check_range(score: Score, y_true: np.ndarray, y_pred: np.ndarray) -> str:
    """Return a problem description if ``score`` is out of range, else ``""``.

    Every component must lie in [0, 1].  NaN is the documented value only for
    a 0/0 quantity: precision (and F1) when ``y_pred`` has no positive point,
    recall (and F1) when ``y_true`` has none.
    """
    nan_ok = {
        "precision": not y_pred.any(),
        "recall": not y_true.any(),
    }
    nan_ok["f1"] = nan_ok["precision"] or nan_ok["recall"]
    for name, value in zip(Score._fields, score):
        if math.isnan(value):
            if not nan_ok[name]:
                return f"{name} is NaN although it is well defined here"
        elif not 0.0 <= value <= 1.0:
            return f"{name} = {value!r} lies outside [0, 1]"
    return ""


def call_evaluator(fn: Callable[..., Any], y_true: np.ndarray, y_pred: np.ndarray) -> CallOutcome:
    """Call ``fn(y_true, y_pred)`` on fresh copies and judge the result.

    Parameters
    ----------
    fn : callable
        The user's evaluator (already resolved to a plain callable).
    y_true, y_pred : ndarray
        The series; ``fn`` receives fresh int8 copies, and those copies are
        compared with the originals afterwards to detect mutation.

    Returns
    -------
    CallOutcome
    """
    y_true = np.asarray(y_true, dtype=np.int8)
    y_pred = np.asarray(y_pred, dtype=np.int8)
    t_copy, p_copy = y_true.copy(), y_pred.copy()
    try:
        result = fn(t_copy, p_copy)
    except Exception as exc:  # the user's code may raise anything
        return CallOutcome(RAISED, message=f"raised {type(exc).__name__}: {exc}", detail=traceback.format_exc())
    mutated = [name for name, a, b in (("y_true", t_copy, y_true), ("y_pred", p_copy, y_pred)) if not np.array_equal(a, b)]
    if mutated:
        return CallOutcome(MUTATED, message=f"mutated its input {' and '.join(mutated)}")
    try:
        score = coerce_result(result)
    except TypeError as exc:
        return CallOutcome(BAD_RESULT, message=str(exc))
    problem = check_range(score, y_true, y_pred)
    if problem:
        return CallOutcome(BAD_RESULT, score=score, message=problem)
    return CallOutcome(OK, score=score)
