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
``a'_i = [e_i + 1, e_i + delta]`` cut short before the next anomaly
``a_{i+1}`` (see ``ambiguous_end`` below); it is not cut at the end of the
series.  A point ``t`` of ``a'_i`` weighs::

    w_i(t) = 1 / (1 + exp(x)),  x = -6 + 12 (t - first(a'_i)) / (|a'_i| - 1)

(a sigmoid decaying from about 0.9975 just after the anomaly to about 0.0025
at the end of the region; a one-point region, where the min-max normalisation
would divide by zero, uses ``x = -6``).  The score of a pair is::

    S(a_i, p_j) = |a_i & p_j| + sum_{t in a'_i & p_j} w_i(t)

and, with ``theta`` the detection threshold (strict test) and ``alpha`` the
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
points of ``p_j``: both come from integer prefix sums (exact).  The ambiguous
regions are disjoint too; their in-series points (at most ``min(T, n delta)``)
are laid out in one flat array with their weights, and the predicted ones are
credited to their anomaly (recall) and, through ``np.searchsorted``, to the
prediction event holding them (precision) with ``np.bincount``.  No Python
loop runs over points or events.

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

from typing import Any, NamedTuple

import numpy as np

from ..events import to_events
from ..inputs import check_pair
from ._params import check_choice, check_non_negative_int, check_real
from ._base import Score, make_score

__all__ = ["TaPR", "TaPRParts", "AMBIGUOUS_ENDS"]

#: Where an ambiguous region stops when the next anomaly starts inside it:
#: "before_next" ends it on the last normal point before the next anomaly;
#: "at_next" ends it on the next anomaly's first point, as ``TaPR.py`` does.
AMBIGUOUS_ENDS: tuple[str, ...] = ("before_next", "at_next")


class TaPRParts(NamedTuple):
    """The four scores TaPR combines (Hwang et al., CIKM 2019, Sec. 4)."""

    tar_d: float
    tar_p: float
    tap_d: float
    tap_p: float


class TaPR:
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
    ambiguous_end : {"before_next", "at_next"}, default "before_next"
        Where an ambiguous region stops when the next anomaly starts less than
        ``delta`` points after the end of the current one.  ``TaPR.py`` sets
        the region's last point to the next anomaly's first point
        ("at_next"); that point is then counted twice, as anomalous and as
        ambiguous, so a prediction can score above 1 (the perfect prediction of
        ``[1, 0, 1]`` gets TaP = 1.0006).  The default stops the region on the
        last normal point before the next anomaly, so that TaP, TaR lie in
        [0, 1] and the perfect prediction scores 1.  The two differ only when
        two anomalies are separated by fewer than ``delta`` normal points, which
        no case of the paper's Table A1 has.

    Notes
    -----
    Degenerate inputs: an all-zero prediction and a series without
    ground-truth anomaly both give ``P = R = F1 = 0`` (see the module
    docstring).  Cost: O(T) to find the events, then O(number of events +
    number of ambiguous points inside the series).

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
        ambiguous_end: str = "before_next",
    ) -> None:
        self.alpha = check_real(self.name, "alpha", alpha)
        self.delta = check_non_negative_int(self.name, "delta", delta)
        self.theta = check_real(self.name, "theta", theta)
        self.ambiguous_end = check_choice(self.name, "ambiguous_end", ambiguous_end, AMBIGUOUS_ENDS)

    @property
    def params(self) -> dict[str, Any]:
        """The parameters in force."""
        return {
            "alpha": self.alpha,
            "delta": self.delta,
            "theta": self.theta,
            "ambiguous_end": self.ambiguous_end,
        }

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"TaPR({args})"

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

        # Exact integer overlaps: predicted points inside each anomaly and
        # anomalous points inside each prediction event.
        cum_p = np.zeros(n_points + 1, dtype=np.int64)
        np.cumsum(p, out=cum_p[1:])
        cum_t = np.zeros(n_points + 1, dtype=np.int64)
        np.cumsum(t, out=cum_t[1:])
        hit_a = (cum_p[a_e] - cum_p[a_s]).astype(np.float64)
        hit_p = (cum_t[p_e] - cum_t[p_s]).astype(np.float64)

        amb_a, amb_p = self._ambiguous_credit(p, a_s, a_e, p_s, n_points)

        if n_a:
            ratio_a = np.minimum(1.0, (hit_a + amb_a) / (a_e - a_s))
            tar_d = float(np.count_nonzero(ratio_a > self.theta)) / n_a
            tar_p = float(ratio_a.sum()) / n_a
        else:
            tar_d = tar_p = 0.0
        if n_p:
            ratio_p = (hit_p + amb_p) / (p_e - p_s)
            tap_d = float(np.count_nonzero(ratio_p > self.theta)) / n_p
            tap_p = float(ratio_p.sum()) / n_p
        else:
            tap_d = tap_p = 0.0
        return TaPRParts(tar_d, tar_p, tap_d, tap_p)

    def _ambiguous_credit(
        self,
        p: np.ndarray,
        a_s: np.ndarray,
        a_e: np.ndarray,
        p_s: np.ndarray,
        n_points: int,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Weight of the predicted ambiguous points, per anomaly and per prediction event."""
        n_a, n_p = a_s.shape[0], p_s.shape[0]
        if n_a == 0 or n_p == 0 or self.delta == 0:
            return np.zeros(n_a), np.zeros(n_p)
        # Ambiguous region i: inclusive [first, last]; first is the point after
        # the anomaly (a_e is exclusive), last = e_i + delta with e_i = a_e - 1.
        first = a_e
        last = a_e - 1 + self.delta
        if n_a > 1:
            limit = a_s[1:] - 1 if self.ambiguous_end == "before_next" else a_s[1:]
            last[:-1] = np.minimum(last[:-1], limit)
        size = last - first + 1  # >= 1: events are separated by at least one normal point
        # Points of each region that lie inside the series.
        inside = np.clip(np.minimum(last, n_points - 1) - first + 1, 0, None)
        total = int(inside.sum())
        owner = np.repeat(np.arange(n_a), inside)
        offset = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(inside) - inside, inside)
        point = first[owner] + offset
        hit = p[point] != 0
        owner, offset, point = owner[hit], offset[hit], point[hit]
        # Min-max normalisation of the position to [-6, 6]; a one-point region
        # (min == max) takes the new minimum.
        span = size[owner] - 1
        x = np.full(offset.shape[0], -6.0)
        long_ = span > 0
        x[long_] = -6.0 + offset[long_].astype(np.float64) * 12.0 / span[long_]
        weight = 1.0 / (1.0 + np.exp(x))
        amb_a = np.bincount(owner, weights=weight, minlength=n_a)
        pred_of = np.searchsorted(p_s, point, side="right") - 1
        amb_p = np.bincount(pred_of, weights=weight, minlength=n_p)
        return amb_a, amb_p

