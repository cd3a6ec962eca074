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
and predicted, per anomaly and per prediction event (``np.bincount``).  The
ambiguous regions are disjoint too and hold at most ``delta`` points: offset
``k`` of every region is handled at once, for ``k = 0 .. delta - 1`` (offsets
past 64, only with a larger ``delta``, are laid out flat), and the weights of
the predicted points are credited to their anomaly and to the prediction
event holding them.  Which event holds a point comes from
:func:`oipr_bench.events.count_at_most` (binary search, or one dense running
count for dense series).  No Python loop runs over points or events, except
to settle a ratio that ties with ``theta`` (see ``_settle_ties``).

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

from ..events import count_at_most, prefers_running_count, running_count, to_events
from ..inputs import check_pair
from ._params import check_choice, check_non_negative_int, check_real
from ._base import Evaluator, Score, make_score

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
    anomalies + number of events); memory O(number of events).

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
            On invalid input (see :func:`oipr_bench.inputs.check_pair`).
        """
        t, p = check_pair(y_true, y_pred, evaluator=self.name)
        return self._parts(t, p)

    def __call__(self, y_true: Any, y_pred: Any) -> Score:
        """Return TaP, TaR and their F1 for one pair of 0/1 series.

        Raises
        ------
        ValueError
            On invalid input (see :func:`oipr_bench.inputs.check_pair`).
        """
        t, p = check_pair(y_true, y_pred, evaluator=self.name)
        tar_d, tar_p, tap_d, tap_p = self._parts(t, p)
        a = self.alpha
        return make_score(a * tap_d + (1.0 - a) * tap_p, a * tar_d + (1.0 - a) * tar_p)

    # ------------------------------------------------------------------ core
    def _parts(self, t: np.ndarray, p: np.ndarray) -> TaPRParts:
        n_points = t.shape[0]
        a_s, a_e = to_events(t.view(np.bool_))  # half-open anomalies [a_s, a_e)
        p_s, p_e = to_events(p.view(np.bool_))  # half-open prediction events
        n_a, n_p = a_s.shape[0], p_s.shape[0]
        if n_a == 0 or n_p == 0:
            return TaPRParts(0.0, 0.0, 0.0, 0.0)  # nothing scores (module docstring)
        first, last = self._regions(a_s, a_e)

        # Exact integer overlaps: predicted points inside each anomaly and
        # anomalous points inside each prediction event, counted over the points
        # that are both (each lies in exactly one anomaly and one prediction event).
        both = np.flatnonzero(np.logical_and(t.view(np.bool_), p.view(np.bool_)))
        hit_a = np.bincount(count_at_most(a_s, both, n_points) - 1, minlength=n_a).astype(np.float64)
        hit_p = np.bincount(count_at_most(p_s, both, n_points) - 1, minlength=n_p).astype(np.float64)
        del both

        amb_a, amb_p = self._ambiguous_credit(p, first, last, p_s, n_points)
        ratio_a = np.minimum(1.0, (hit_a + amb_a) / (a_e - a_s))
        ratio_p = (hit_p + amb_p) / (p_e - p_s)
        if self.theta > 0.0:
            # theta = 0: "score > 0" is exact (a sum of positive weights); otherwise a
            # ratio that ties with theta is settled in TaPR.py's own summation order.
            events = _Events(a_s, a_e, first, last, p_s, p_e)
            _settle_ties(ratio_a, self.theta, lambda i: min(1.0, _anomaly_ratio(events, i)))
            _settle_ties(ratio_p, self.theta, lambda j: _prediction_ratio(events, j))
        tar_d = float(np.count_nonzero(ratio_a > self.theta)) / n_a
        tap_d = float(np.count_nonzero(ratio_p > self.theta)) / n_p
        return TaPRParts(tar_d, float(ratio_a.sum()) / n_a, tap_d, float(ratio_p.sum()) / n_p)

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

    def _ambiguous_credit(
        self,
        p: np.ndarray,
        first: np.ndarray,
        last: np.ndarray,
        p_s: np.ndarray,
        n_points: int,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Weight of the predicted ambiguous points, per anomaly and per prediction event.

        Offset ``k`` of every region at once, for ``k = 0, 1, ...`` (a region
        holds at most ``delta`` points, so this loop is short and each anomaly's
        weights are added in point order, as ``TaPR.py`` does); offsets from
        :data:`_LOOP_OFFSETS` on (only with a large ``delta``) are laid out flat.
        """
        amb_a, amb_p = np.zeros(first.shape[0]), np.zeros(p_s.shape[0])
        if self.delta == 0:
            return amb_a, amb_p
        span = last - first  # region size - 1, >= 0: events are separated by a normal point
        inside = np.minimum(last, n_points - 1) - first + 1  # region points inside the series
        owners = np.flatnonzero(inside > 0)
        pred_of = _PredictionOf(p_s, n_points, int(inside.sum(dtype=np.int64)))
        table = _weight_table(min(self.delta, _LOOP_OFFSETS))
        for k in range(min(int(inside.max()), _LOOP_OFFSETS)):
            owners = owners[inside[owners] > k]
            point = first[owners] + k
            hit = p[point] != 0
            owner = owners[hit]
            sp = span[owner]
            weight = table[sp, k] if self.delta <= _LOOP_OFFSETS else _weights(k, sp)
            amb_a[owner] += weight  # one point per anomaly: each anomaly's weights in point order
            amb_p += np.bincount(pred_of(point[hit]), weights=weight, minlength=amb_p.shape[0])
        long_ = owners[inside[owners] > _LOOP_OFFSETS]
        if long_.size:  # the rest of regions longer than _LOOP_OFFSETS points, flat
            rest = inside[long_] - _LOOP_OFFSETS
            owner = np.repeat(long_, rest)
            offset = np.arange(owner.shape[0], dtype=np.int64) - np.repeat(np.cumsum(rest) - rest, rest) + _LOOP_OFFSETS
            point = first[owner] + offset
            hit = p[point] != 0
            owner, offset, point = owner[hit], offset[hit], point[hit]
            weight = _weights(offset, span[owner])
            amb_a += np.bincount(owner, weights=weight, minlength=amb_a.shape[0])
            amb_p += np.bincount(pred_of(point), weights=weight, minlength=amb_p.shape[0])
        return amb_a, amb_p


class _PredictionOf:
    """Index of the prediction event holding each (predicted) point.

    A dense running count of the event starts is built once when many points
    will be asked (:func:`oipr_bench.events.prefers_running_count`), otherwise
    each call searches the starts.
    """

    def __init__(self, p_s: np.ndarray, n_points: int, n_queries: int) -> None:
        self.p_s = p_s
        self.counts = running_count(p_s, n_points) if prefers_running_count(p_s.size, n_queries, n_points) else None

    def __call__(self, point: np.ndarray) -> np.ndarray:
        if self.counts is not None:
            return self.counts[point] - 1
        return np.searchsorted(self.p_s, point, side="right") - 1


def _weight_table(max_size: int) -> np.ndarray:
    """``table[span, k]``: weight of offset ``k`` in a region of ``span + 1 <= max_size`` points."""
    spans = np.repeat(np.arange(max_size, dtype=np.int64), max_size)
    offsets = np.minimum(np.tile(np.arange(max_size, dtype=np.int64), max_size), spans)  # k > span: never read
    return _weights(offsets, spans).reshape(max_size, max_size)


#: Region offsets handled one at a time; later ones (only when delta is larger) are laid out flat.
_LOOP_OFFSETS = 64


def _weights(offset: Any, span: np.ndarray) -> np.ndarray:
    """Sigmoid weight ``1 / (1 + e^x)`` of region points at ``offset`` in regions of ``span + 1`` points.

    ``x`` is the offset min-max normalised to [-6, 6]; a one-point region
    (``span = 0``, where the normalisation would divide by zero) takes -6.
    """
    x = np.full(span.shape[0], -6.0)
    long_ = span > 0
    k = offset[long_] if isinstance(offset, np.ndarray) else offset
    x[long_] = -6.0 + np.multiply(k, 12.0) / span[long_]
    return 1.0 / (1.0 + np.exp(x))


# ---------------------------------------------------------------------- ties with theta
#
# The vectorised sums above add the same terms as TaPR.py but in another order,
# so a ratio that is mathematically equal to theta can land one rounding step
# on either side of it, and the strict test "ratio > theta" can then disagree
# with the original.  Such near-ties (rare; none with theta = 0) are recomputed
# one event at a time in the original's order: per (anomaly, prediction) pair,
# the overlap count plus the ambiguous weights summed point by point, and the
# pairs summed in event order.

#: Half-width of the band around theta in which a ratio is recomputed.  Both
#: sums round at most ~n * 2**-53 relative for n terms: 1e-8 covers 10**7 points.
TIE_WINDOW = 1e-8


class _Events(NamedTuple):
    """Anomalies ``[a_s, a_e)``, their inclusive regions ``[first, last]``, predictions ``[p_s, p_e)``."""

    a_s: np.ndarray
    a_e: np.ndarray
    first: np.ndarray
    last: np.ndarray
    p_s: np.ndarray
    p_e: np.ndarray


def _settle_ties(ratio: np.ndarray, theta: float, exact: Any) -> None:
    """Replace, in place, every ratio within :data:`TIE_WINDOW` of ``theta`` by ``exact(index)``."""
    for k in np.flatnonzero(np.abs(ratio - theta) <= TIE_WINDOW).tolist():
        ratio[k] = exact(k)


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


def _reach(ev: _Events) -> np.ndarray:
    """Last point of each anomaly or of its region, whichever is later (non-decreasing)."""
    return np.maximum(ev.a_e - 1, ev.last)


def _prediction_ratio(ev: _Events, j: int) -> float:
    """``sum_i S(a_i, p_j) / |p_j|`` summed over the anomalies in order (TaP_d, TaP_p)."""
    p0, p1 = int(ev.p_s[j]), int(ev.p_e[j]) - 1
    lo = int(np.searchsorted(_reach(ev), p0, side="left"))
    hi = int(np.searchsorted(ev.a_s, p1, side="right"))
    score = 0.0
    for i in range(lo, hi):
        score += _pair_score(ev, i, p0, p1)
    return score / (p1 - p0 + 1)


def _anomaly_ratio(ev: _Events, i: int) -> float:
    """``sum_j S(a_i, p_j) / |a_i|`` summed over the predictions in order (TaR_d, TaR_p, before min(1, .))."""
    start, reach = int(ev.a_s[i]), int(max(ev.a_e[i] - 1, ev.last[i]))
    lo = int(np.searchsorted(ev.p_e, start, side="right"))
    hi = int(np.searchsorted(ev.p_s, reach, side="right"))
    score = 0.0
    for j in range(lo, hi):
        score += _pair_score(ev, i, int(ev.p_s[j]), int(ev.p_e[j]) - 1)
    return score / float(ev.a_e[i] - ev.a_s[i])
