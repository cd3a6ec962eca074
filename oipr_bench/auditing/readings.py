"""What the characteristic rules read from an evaluator's results.

An evaluator returns precision and recall (kind ``"pr"``) or one number
(kind ``"score"``; see :func:`oipr_bench.auditing.runner.coerce_result`).  The rules of
:mod:`oipr_bench.auditing.characteristics` compare one *quantity* per case:

- ``score``: the oriented score on a common scale, higher is better.  For a
  P/R evaluator it is F1 (paper, eq. 1).  For a scalar with finite declared
  bounds ``(lo, hi)`` it is ``(v - lo) / (hi - lo)`` (``(hi - v) / (hi - lo)``
  when lower is better), so a bounded score reads on F1's [0, 1] scale.  For
  an unbounded scalar it is anchored per ground truth:
  ``(v - v_none) / (v_perfect - v_none)``, where ``v_none`` is what the
  evaluator gives the empty prediction and ``v_perfect`` what it gives
  ``y_pred = y_true`` on the same ground truth (NaN when the two are equal);
- ``precision`` and ``recall``: only a P/R evaluator has them;
- ``recall_share``: the recall of a case relative to the empty and the
  perfect prediction, ``(R - R_none) / (R_perfect - R_none)`` (Sec. III-B:
  the long event's share of the recall).

The *no-detection level* of a case is the score the evaluator gives the empty
prediction on that case's ground truth (0 for F1; NaN counts as the bottom of
the scale, as the paper reads AM's ``nan``).  A rule that asks whether a
detection "earns credit" asks whether it scores above that level, so a
metric that gives everything the same value never earns credit (a tie is not
a reward).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Mapping

from ..evaluators.score import Score

__all__ = [
    "KIND_PR",
    "KIND_SCORE",
    "KINDS",
    "SCORE",
    "PRECISION",
    "RECALL",
    "RECALL_SHARE",
    "Observations",
    "is_bounded",
    "normalise_bounds",
    "score_of",
    "level_of",
    "recall_share",
]

#: Result kinds: precision and recall (and F1), or one number.
KIND_PR = "pr"
KIND_SCORE = "score"
KINDS: tuple[str, ...] = (KIND_PR, KIND_SCORE)

#: Quantities a rule can read.
SCORE = "score"
PRECISION = "precision"
RECALL = "recall"
RECALL_SHARE = "recall_share"

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


@dataclass(frozen=True)
class Observations:
    """The numbers the rules read.

    Attributes
    ----------
    scores : mapping of str to Score
        The evaluator's result per case id (for the random-detector cases,
        the means over the 100 runs, as in Table A1).  A scalar result is
        stored as ``Score(nan, nan, value)``.
    baseline : mapping of str to Score
        The point-wise (PW) scores per case id; the existence reward is
        defined relative to PW (Sec. III-C, Appendix A).
    true_events : mapping of str to int
        Number of ground-truth events per case id.
    kind : {"pr", "score"}
        What the evaluator returns.
    higher_is_better : bool
        Orientation of a scalar score (P/R results are always higher-is-better).
    bounds : (float, float)
        Declared range of a scalar score; an open end is +-inf.
    empty, perfect : mapping of str to Score
        The evaluator's result on the empty prediction and on ``y_pred = y_true``
        for each case's ground truth.  Without them the no-detection level is
        0 and the recall share is the recall itself (the paper's reading).
    """

    scores: Mapping[str, Score]
    baseline: Mapping[str, Score] = field(default_factory=dict)
    true_events: Mapping[str, int] = field(default_factory=dict)
    kind: str = KIND_PR
    higher_is_better: bool = True
    bounds: Bounds = (0.0, 1.0)
    empty: Mapping[str, Score] = field(default_factory=dict)
    perfect: Mapping[str, Score] = field(default_factory=dict)

    @property
    def scalar(self) -> bool:
        """True for a scalar (``"score"``) evaluator."""
        return self.kind == KIND_SCORE

    @property
    def bounded(self) -> bool:
        """True unless a scalar score has an open end."""
        return not self.scalar or is_bounded(self.bounds)


def _orient(obs: Observations, value: float, case_id: str) -> float:
    """A raw result value on the common higher-is-better scale (see the module docstring)."""
    if not obs.scalar:
        return float(value)
    lo, hi = obs.bounds
    if is_bounded(obs.bounds):
        return (value - lo) / (hi - lo) if obs.higher_is_better else (hi - value) / (hi - lo)
    none, best = obs.empty.get(case_id), obs.perfect.get(case_id)
    if none is None or best is None:
        return math.nan
    span = float(best.f1) - float(none.f1)
    if not math.isfinite(span) or span == 0.0:
        return math.nan
    return (value - float(none.f1)) / span


def score_of(obs: Observations, case_id: str) -> float:
    """The oriented score of ``case_id``: F1, or the normalised scalar.

    Raises
    ------
    KeyError
        No result for ``case_id``.
    """
    try:
        s = obs.scores[case_id]
    except KeyError:
        raise KeyError(f"no score for case {case_id}") from None
    return _orient(obs, float(s.f1), case_id)


def level_of(obs: Observations, case_id: str) -> float:
    """The no-detection level of ``case_id``: the oriented score of the empty prediction there.

    0 (the bottom of the common scale) when the empty prediction was not run
    or scores NaN.
    """
    none = obs.empty.get(case_id)
    if none is None:
        return 0.0
    v = _orient(obs, float(none.f1), case_id)
    return 0.0 if math.isnan(v) else v


def recall_share(obs: Observations, case_id: str) -> float:
    """``(R - R_none) / (R_perfect - R_none)`` of ``case_id`` (NaN when undefined).

    Without anchors ``R_none = 0`` and ``R_perfect = 1``: the recall itself.
    """
    r = float(obs.scores[case_id].recall)
    none = obs.empty.get(case_id)
    best = obs.perfect.get(case_id)
    r0 = 0.0 if none is None else float(none.recall)
    r1 = 1.0 if best is None else float(best.recall)
    span = r1 - r0
    if math.isnan(span) or span <= 0.0:
        return math.nan
    return (r - r0) / span
