"""Sanity checks of a result's meaning: the perfect score and discrimination.

- :func:`perfect_problem`: ``y_pred = y_true`` must get the best value: (1, 1, 1)
  for precision/recall, the best end of the declared bounds for a scalar (not
  checkable when that end is open).
- :func:`discrimination_problem` (``sanity[discriminates]``): the perfect
  detection must score strictly better than no detection and than the all-ones
  detector on the same ground truth.  A metric that does not separate them is
  degenerate (a constant, or one that ignores ``y_pred``): its characteristic
  profile says nothing, whatever the rules find.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from ..calling.declarations import Declarations
from ...evaluators.score import Score
from .readings import KIND_SCORE
from ..calling.coerce import RANGE_TOLERANCE
from ..calling.runner import CallOutcome

#: How the perfect detection (y_pred = y_true) is labelled in messages.
BEST = "y_pred = y_true"

__all__ = ["perfect_problem", "discrimination_problem", "oriented", "DISCRIMINATION_GAP", "DISCRIMINATION_HEAD"]

#: How a discrimination failure (as opposed to a failed call) begins.
DISCRIMINATION_HEAD = "the perfect detection (y_pred = y_true) does not score better than"

#: The perfect detection must beat no detection and the all-ones detector by more than this.
DISCRIMINATION_GAP = 1e-6


def oriented(score: Score, kind: str, decl: Declarations) -> float:
    """The value a result is ranked by, higher is better: F1, or the scalar (negated when lower is better)."""
    v = float(score.f1)
    return -v if kind == KIND_SCORE and not decl.higher_is_better else v


def perfect_problem(score: Score, kind: str, decl: Declarations, where: str) -> str:
    """Why ``score`` (the result of ``y_pred = y_true``) is not perfect, or ``""``.

    Tolerance :data:`oipr_bench.auditing.calling.runner.RANGE_TOLERANCE` (a recall of 1.0000000000000002 is 1).
    """
    if kind != KIND_SCORE:
        if all(not math.isnan(v) and abs(v - 1.0) <= RANGE_TOLERANCE for v in score):
            return ""
        return f"{where} scores P={score.precision!r}, R={score.recall!r}, F1={score.f1!r}, expected (1, 1, 1)"
    best = decl.bounds[1] if decl.higher_is_better else decl.bounds[0]
    if math.isinf(best):
        return ""
    v = float(score.f1)
    if not math.isnan(v) and abs(v - best) <= RANGE_TOLERANCE:
        return ""
    side = "upper" if decl.higher_is_better else "lower"
    return f"{where} scores {v!r}, expected the best value {best:g} (the {side} bound)"


def _fmt(x: float) -> str:
    return "nan" if math.isnan(x) else f"{x:.6g}"


def discrimination_problem(
    call: Callable[[np.ndarray, np.ndarray], CallOutcome],
    y_true: np.ndarray,
    kind: str | None,
    decl: Declarations,
    where: str,
) -> str:
    """Why the metric does not separate perfect from none and all-ones on ``y_true``, or ``""``.

    ``call(y_true, y_pred)`` runs the evaluator.  NaN (a 0/0 score of the empty
    prediction) ranks as the worst value.
    """
    preds = {BEST: y_true, "no detection": np.zeros_like(y_true), "all ones": np.ones_like(y_true)}
    raw: dict[str, float] = {}
    for label, pred in preds.items():
        out = call(y_true, pred)
        if not out.ok or out.score is None:
            return f"{label} on {where}: {out.message}"
        kind = kind or out.result_kind
        raw[label] = oriented(out.score, kind, decl)
    rank = {k: (-math.inf if math.isnan(v) else v) for k, v in raw.items()}
    losers = [k for k in ("no detection", "all ones") if not rank[BEST] - rank[k] > DISCRIMINATION_GAP]
    if not losers:
        return ""
    what = "score" if kind == KIND_SCORE else "F1"
    shown = ", ".join(f"{k} {_fmt(v if kind != KIND_SCORE or decl.higher_is_better else -v)}" for k, v in raw.items())
    return (f"{DISCRIMINATION_HEAD} {' or '.join(losers)} on {where} ({what}: {shown}): "
            "the metric is degenerate")
