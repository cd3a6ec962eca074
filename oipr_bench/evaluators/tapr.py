"""Time-series aware precision and recall, TaPR (Hwang et al., CIKM 2019).

Hwang, Lee, Yoo, Kim and Park, *Time-Series Aware Precision and Recall for
Anomaly Detection: Considering Variety of Detection Result and Addressing
Ambiguous Labeling*, CIKM 2019, as implemented in the authors' original
``TaPR.py`` (repository saurf4ng/TaPR; not the later eTaPR package, which
uses ``>= theta`` and ``delta + 1`` ambiguous points and does not reproduce
the OIPR paper's Table A1).

Definition
----------
Write ground-truth anomalies ``a_i = [s_i, e_i]`` and prediction events
``p_j`` with *inclusive* ends.  Each anomaly has an ambiguous region
``a'_i = [e_i + 1, e_i + delta]``; when the next anomaly ``a_{i+1}`` starts
before ``e_i + delta``, the region ends *on* its first point ``s_{i+1}``, as
``TaPR.py`` does (``ambiguous_end="at_next"``, the default; see below for the
alternative).  The region is not cut at the end of the series.  A point ``t``
of ``a'_i`` weighs::

    w_i(t) = 1 / (1 + exp(x)),  x = -6 + 12 (t - first(a'_i)) / (|a'_i| - 1)

(a sigmoid decaying from about 0.9975 just after the anomaly to about 0.0025
at the end of the region; a one-point region, where the min-max normalisation
would divide by zero, uses ``x = -6``).  The score of a pair is::

    S(a_i, p_j) = |a_i & p_j| + sum_{t in a'_i & p_j} w_i(t)

(with the default cut, ``s_{i+1}`` is both a point of ``a_{i+1}`` and the last
point of ``a'_i``, weight ``1 / (1 + e^6) = 0.0024726``, so a prediction event
covering it scores up to that much above 1: TaP can exceed 1 by at most
:data:`AT_NEXT_EXCESS`; see docs/deviations.md) and, with ``theta`` the
detection threshold (strict test) and ``alpha`` the
weight of the detection scores::

    TaR_d = mean_i [min(1, sum_j S(a_i, p_j) / |a_i|) > theta]
    TaR_p = mean_i  min(1, sum_j S(a_i, p_j) / |a_i|)
    TaP_d = mean_j [sum_i S(a_i, p_j) / |p_j| > theta]
    TaP_p = mean_j  sum_i S(a_i, p_j) / |p_j|
    TaR = alpha TaR_d + (1 - alpha) TaR_p,   TaP = alpha TaP_d + (1 - alpha) TaP_p

The OIPR paper's Table 3 setting is the default: ``alpha = 0.5``,
``delta = 5``, ``theta = 0``.

How it is computed
------------------
Prediction events are disjoint, so ``sum_j |a_i & p_j|`` is the number of
predicted points of ``a_i`` and ``sum_i |a_i & p_j|`` the number of anomalous
points of ``p_j``: both are integer counts of the points that are anomalous
and predicted, read as differences of their running count at the events'
bounds.  The ambiguous regions are disjoint too and hold at most ``delta``
points: offset ``k`` of every region is handled at once, for ``k = 0 ..
delta - 1`` (offsets past 64, only with a larger ``delta``, are laid out
flat), and the weights of the predicted points are credited to their anomaly
and to the prediction event holding them.  The series is streamed in blocks
of consecutive points (:mod:`oipr_bench.evaluators.kernels.tapr`): every
temporary has the size of one block, the events crossing a block border
carry their partial scores, and only the sums of the ratios and the numbers
of detected events are kept.  No Python loop runs over points or events,
except to settle a ratio that ties with ``theta`` (see ``_settle_ties``).

Degenerate inputs (docs/evaluators.md, section TaPR; ``TaPR.py`` returns 0 for an
empty list of events)
------------------------------------------------------------------------------
* all-zero prediction: no prediction event, so TaP = 0; no anomaly is touched,
  so TaR = 0; F1 = 0 (the paper's Table A1, constant detector c1).
* no ground-truth anomaly: TaR = 0; no prediction scores anything, so TaP = 0;
  F1 = 0.
* both: P = R = F1 = 0.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from ..scenarios.events import to_events
from .inputs import check_pair
from ._params import MAX_LENGTH_PARAM, check_choice, check_non_negative_int, check_real
from ._base import Evaluator, Score, make_score
from .kernels.tapr import Totals, stream_totals

__all__ = ["TaPR", "TaPRParts", "AMBIGUOUS_ENDS", "AT_NEXT_EXCESS", "above_one_note"]

#: Where an ambiguous region stops when the next anomaly starts inside it:
#: "at_next" (the default) ends it on the next anomaly's first point, as
#: ``TaPR.py`` does; "before_next" ends it on the last normal point before the
#: next anomaly.
AMBIGUOUS_ENDS: tuple[str, ...] = ("at_next", "before_next")

#: The most by which the original TaPR's precision (and F1) can exceed 1: the
#: weight ``1 / (1 + e^6)`` of the last point of a cut ambiguous region, which
#: with ``ambiguous_end="at_next"`` is also the next anomaly's first point.
AT_NEXT_EXCESS: float = 1.0 / (1.0 + math.exp(6.0))


def above_one_note(name: str, value: float) -> str:
    """Explain a precision or F1 just above 1 that the published TaPR can return.

    Returns ``""`` unless ``name`` is "precision" or "f1" and ``1 < value <= 1 +``
    :data:`AT_NEXT_EXCESS`; then a sentence (starting with "; ") for an
    out-of-range message, pointing to docs/deviations.md.
    """
    if name in ("precision", "f1") and 1.0 < value <= 1.0 + AT_NEXT_EXCESS + 1e-12:
        what = "a precision" if name == "precision" else "an F1"
        return (
            f"; {what} at most {AT_NEXT_EXCESS:.5f} above 1 is what the published TaPR (TaPR.py) returns "
            "when an anomaly's ambiguous region ends on the next anomaly's first point "
            "(see docs/deviations.md; TaPR's ambiguous_end=\"before_next\" stays within [0, 1])"
        )
    return ""


class TaPRParts(NamedTuple):
    """The four scores TaPR combines (Hwang et al., CIKM 2019, Sec. 4)."""

    tar_d: float
    tar_p: float
    tap_d: float
    tap_p: float


class TaPR(Evaluator):
    """Time-series aware precision TaP and recall TaR (Hwang et al., CIKM 2019).

    Parameters
    ----------
    alpha : float, default 0.5
        Relative weight of the detection scores TaR_d / TaP_d against the
        portion scores TaR_p / TaP_p, in [0, 1] (OIPR paper, Table 3).
    delta : int, default 5
        Number of ambiguous points after each anomaly, >= 0 (Table 3).
    theta : float, default 0.0
        Detection threshold in [0, 1]; an anomaly or a prediction counts as
        detected when its score is strictly greater than ``theta`` (Table 3).
    ambiguous_end : {"at_next", "before_next"}, default "at_next"
        Where an ambiguous region stops when the next anomaly starts less than
        ``delta`` points after the end of the current one.  "at_next" is the
        published TaPR (``TaPR.py``): the region's last point is the next
        anomaly's first point, which then counts twice, as anomalous and as
        ambiguous, so TaP (and F1) can exceed 1 by up to
        :data:`AT_NEXT_EXCESS` (the perfect prediction of ``[1, 0, 1]`` gets
        TaP = 1.0006).  "before_next" stops the region on the last normal
        point before the next anomaly, so that TaP, TaR lie in [0, 1] and the
        perfect prediction scores 1.  The two differ only when two anomalies
        are separated by fewer than ``delta`` normal points, which no case of
        the paper's Table A1 has.

    Notes
    -----
    Degenerate inputs: an all-zero prediction and a series without
    ground-truth anomaly both give ``P = R = F1 = 0`` (see the module
    docstring).  Cost: O(T) to find the events, then O(delta x number of
    anomalies + number of events); memory O(1) beyond the checked input (one
    block's temporaries, at most 2**20 points).

    Examples
    --------
    >>> tapr = TaPR()
    >>> tapr([0, 1, 1, 1, 1, 0], [0, 1, 0, 0, 0, 0])
    Score(precision=1.0, recall=0.625, f1=0.7692307692307693)
    """

    name = "TaPR"

    def __init__(
        self,
        *,
        alpha: float = 0.5,
        delta: int = 5,
        theta: float = 0.0,
        ambiguous_end: str = "at_next",
    ) -> None:
        self.alpha = check_real(self.name, "alpha", alpha)
        self.delta = check_non_negative_int(self.name, "delta", delta)
        self.theta = check_real(self.name, "theta", theta)
        self.ambiguous_end = check_choice(self.name, "ambiguous_end", ambiguous_end, AMBIGUOUS_ENDS)

    def parts(self, y_true: Any, y_pred: Any) -> TaPRParts:
        """Return the detection and portion scores ``(TaR_d, TaR_p, TaP_d, TaP_p)``.

        Raises
        ------
        ValueError
            On invalid input (see :func:`oipr_bench.evaluators.inputs.check_pair`).
        """
        t, p = check_pair(y_true, y_pred, evaluator=self.name)
        return self._parts(t, p)

    def __call__(self, y_true: Any, y_pred: Any) -> Score:
        """Return TaP, TaR and their F1 for one pair of 0/1 series.

        Raises
        ------
        ValueError
            On invalid input (see :func:`oipr_bench.evaluators.inputs.check_pair`).
        """
        t, p = check_pair(y_true, y_pred, evaluator=self.name)
        tar_d, tar_p, tap_d, tap_p = self._parts(t, p)
        a = self.alpha
        return make_score(a * tap_d + (1.0 - a) * tap_p, a * tar_d + (1.0 - a) * tar_p)

    # ------------------------------------------------------------------ core
    def _parts(self, t: np.ndarray, p: np.ndarray) -> TaPRParts:
        at_next = self.ambiguous_end == "at_next"
        anomalies, predictions = stream_totals(t, p, self.delta, at_next, self.theta)
        n_a, n_p = anomalies.count, predictions.count
        if n_a == 0 or n_p == 0:
            return TaPRParts(0.0, 0.0, 0.0, 0.0)  # nothing scores (module docstring)
        if anomalies.ties or predictions.ties:
            # theta = 0: "score > 0" is exact (a sum of positive weights); otherwise a
            # ratio that ties with theta is settled in TaPR.py's own summation order.
            a_s, a_e = _compact_events(t)
            p_s, p_e = _compact_events(p)
            first, last = self._regions(a_s, a_e)
            events = _Events(a_s, a_e, first, last, p_s, p_e, np.maximum(a_e - 1, last))
            _settle_ties(anomalies, a_s, lambda i: min(1.0, _anomaly_ratio(events, i)))
            _settle_ties(predictions, p_s, lambda j: _prediction_ratio(events, j))
        return TaPRParts(
            float(anomalies.detected) / n_a,
            anomalies.total / n_a,
            float(predictions.detected) / n_p,
            predictions.total / n_p,
        )

    def _regions(self, a_s: np.ndarray, a_e: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Inclusive bounds ``(first, last)`` of every ambiguous region (not cut at the series end).

        Region ``i`` starts on the point after anomaly ``i`` (``a_e`` is exclusive)
        and ends on ``e_i + delta`` (``e_i = a_e - 1``), moved back onto the next
        anomaly's first point ("at_next", ``TaPR.py``) or onto the point before it
        ("before_next") when it reaches that far.  ``delta = 0`` gives empty
        regions (``last = first - 1``).
        """
        first = a_e
        last = a_e - 1 + self.delta
        if a_s.shape[0] > 1:
            limit = a_s[1:] - 1 if self.ambiguous_end == "before_next" else a_s[1:]
            last[:-1] = np.minimum(last[:-1], limit)
        return first, last


def _compact_events(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Events of ``y`` as contiguous int32 arrays when ``T + delta`` stays below ``2**31`` (else int64).

    ``delta`` is at most :data:`MAX_LENGTH_PARAM`, so region ends ``a_e - 1 + delta`` fit too.
    """
    starts, ends = to_events(y.view(np.bool_))
    dtype = np.int32 if y.shape[0] + MAX_LENGTH_PARAM < 2**31 - 1 else np.int64
    return starts.astype(dtype), ends.astype(dtype)


# ---------------------------------------------------------------------- ties with theta
#
# The vectorised sums above add the same terms as TaPR.py but in another order,
# so a ratio that is mathematically equal to theta can land one rounding step
# on either side of it, and the strict test "ratio > theta" can then disagree
# with the original.  Such near-ties (rare; none with theta = 0) are recomputed
# one event at a time in the original's order: per (anomaly, prediction) pair,
# the overlap count plus the ambiguous weights summed point by point, and the
# pairs summed in event order.

class _Events(NamedTuple):
    """Anomalies ``[a_s, a_e)``, their inclusive regions ``[first, last]``, predictions ``[p_s, p_e)``.

    ``reach`` is the last point of each anomaly or of its region, whichever
    is later (non-decreasing), built once for all the ties.
    """

    a_s: np.ndarray
    a_e: np.ndarray
    first: np.ndarray
    last: np.ndarray
    p_s: np.ndarray
    p_e: np.ndarray
    reach: np.ndarray


def _rank(values: np.ndarray, key: int, side: str = "left") -> int:
    """``np.searchsorted(values, key, side)`` for one key, given in ``values``' dtype (no copy of ``values``)."""
    return int(np.searchsorted(values, values.dtype.type(key), side=side))


def _settle_ties(totals: Totals, starts: np.ndarray, exact: Any) -> None:
    """Replace, in ``totals``, every ratio found within :data:`oipr_bench.evaluators.kernels.tapr.TIE_WINDOW` of theta by ``exact(index)``.

    ``totals.ties`` holds ``(start, ratio)`` of those events; ``index`` is the
    event's rank among ``starts``.
    """
    for start, ratio in totals.ties:
        value = exact(_rank(starts, start))
        totals.total += value - ratio
        totals.detected += int(value > totals.theta) - int(ratio > totals.theta)
    totals.ties = []


def _region_weight(k: int, span: int) -> float:
    """Weight of the ``k``-th point of a region of ``span + 1`` points, in TaPR.py's float steps."""
    x = -6.0 if span == 0 else -6.0 + float(k) * 12 / span
    return 1 / (1 + math.exp(x))


def _pair_score(ev: _Events, i: int, p0: int, p1: int) -> float:
    """Score of anomaly ``i`` (with its region) against the prediction with inclusive ends ``p0, p1``."""
    count = max(0, min(int(ev.a_e[i]) - 1, p1) - max(int(ev.a_s[i]), p0) + 1)
    r0, r1 = int(ev.first[i]), int(ev.last[i])
    weights = 0.0
    for t in range(max(r0, p0), min(r1, p1) + 1):
        weights += _region_weight(t - r0, r1 - r0)
    return float(count) + weights


def _prediction_ratio(ev: _Events, j: int) -> float:
    """``sum_i S(a_i, p_j) / |p_j|`` summed over the anomalies in order (TaP_d, TaP_p)."""
    p0, p1 = int(ev.p_s[j]), int(ev.p_e[j]) - 1
    lo = _rank(ev.reach, p0, "left")
    hi = _rank(ev.a_s, p1, "right")
    score = 0.0
    for i in range(lo, hi):
        score += _pair_score(ev, i, p0, p1)
    return score / (p1 - p0 + 1)


def _anomaly_ratio(ev: _Events, i: int) -> float:
    """``sum_j S(a_i, p_j) / |a_i|`` summed over the predictions in order (TaR_d, TaR_p, before min(1, .))."""
    start, reach = int(ev.a_s[i]), int(max(ev.a_e[i] - 1, ev.last[i]))
    lo = _rank(ev.p_e, start, "right")
    hi = _rank(ev.p_s, reach, "right")
    score = 0.0
    for j in range(lo, hi):
        score += _pair_score(ev, i, int(ev.p_s[j]), int(ev.p_e[j]) - 1)
    return score / float(ev.a_e[i] - ev.a_s[i])
