"""Range-AUC curves for any set of windows, and the areas under them.

For window ``w`` (``h = w // 2``) and sampled threshold ``j`` (see :mod:`.bins`),
TSB-AD 1.5's ``RangeAUC_volume_opt`` and vus 0.0.6's ``RangeAUC`` compute, with
``P`` the number of anomalous points, ``T`` the length, ``N_j`` the predicted points,
``E_j`` the predicted anomalous points and ``A_j`` the sloped-label mass of the
predicted normal points (:mod:`.slopes`):

- ``TP = E_j + A_j``;
- ``P_new = (P + P + A_j) / 2`` (convention ``"volume"``: only predicted slope points
  count) or ``(P + P + A) / 2`` with ``A`` the whole slope mass (``"runs"``, vus's ``RangeAUC``;
  ``"compat"``, TimeEval's compatibility mode, whose slope after an event is one point shorter;
  ``"timeeval"``, TimeEval's default, whose slopes are linear);
- ``TPR = min(TP / P_new, 1) * hit segments / segments`` (:mod:`.segments`; for ``"timeeval"``
  every event is its own segment, :mod:`.event_windows`);
- ``FPR = (N_j - TP) / (T - P_new)``; precision ``TP / N_j``.

The ROC curve runs from ``(0, 0)`` through the ``n`` points to ``(1, 1)`` and is
integrated by trapezoids; the PR area is ``sum_j (TPR_j - TPR_{j-1}) * height`` with
``TPR_0 = 0`` and height ``precision_j`` (step, TSB-AD's volume) or the mean of
``precision_j`` and ``precision_{j-1}`` with ``precision_0 = 1`` (trapezoid, vus's ``RangeAUC``).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ...scenarios.events import to_events
from .bins import cumulative, threshold_bins
from .event_windows import EventMinima
from .segments import SegmentMinima, segment_minima
from .slopes import slope_counts

__all__ = ["CONVENTIONS", "range_curves", "roc_area", "pr_area"]

#: ``"volume"``: TSB-AD/vus ``RangeAUC_volume_opt``; ``"runs"``: vus 0.0.6 ``RangeAUC``;
#: ``"compat"``: TimeEval 1.5 with ``compatibility_mode=True``; ``"timeeval"``: TimeEval 1.5's default.
CONVENTIONS = ("volume", "runs", "compat", "timeeval")


class _SlopeMass:
    """The slope mass per bin at each half-window ``h``, updated as ``h`` grows."""

    def __init__(self, y_true: np.ndarray, bins: np.ndarray, reach: int, n_bins: int, right_short: bool, linear: bool) -> None:
        starts, ends = to_events(y_true)
        self.counts = slope_counts(starts, ends - 1, bins, reach, n_bins, right_short)
        if linear:  # overlapping slopes take their maximum: the nearest event's, never capped
            self.counts.d2c = np.full_like(self.counts.d2c, reach + 1)
        self.linear = linear
        self.single = np.zeros((reach + 1, n_bins))  # points one event reaches, by (d1, bin)
        self.capped = np.zeros(n_bins)               # points two or more events reach, by bin
        c = self.counts
        self.by_d1 = np.searchsorted(c.d1, np.arange(reach + 2))  # the counts are sorted by d1
        self.end_order = np.argsort(c.d2c, kind="stable")
        self.by_d2 = np.searchsorted(c.d2c[self.end_order], np.arange(reach + 2))

    def grow_to(self, h: int) -> None:
        """Apply the points whose label changes at half-window ``h``."""
        c = self.counts
        new = slice(self.by_d1[h], self.by_d1[h + 1])
        np.add.at(self.single, (c.gain_d[new], c.bins[new]), c.count[new])
        full = self.end_order[self.by_d2[h]:self.by_d2[h + 1]]
        np.add.at(self.single, (c.gain_d[full], c.bins[full]), -c.count[full])
        np.add.at(self.capped, c.bins[full], c.count[full])

    def at(self, w: int) -> np.ndarray:
        """Slope mass per bin at window ``w`` (after :meth:`grow_to` ``(w // 2)``)."""
        h = w // 2
        if h == 0:
            return self.capped.copy()
        if self.linear:  # TimeEval: linspace(1/sqrt(2), 1, h + 1), the point d away gets entry h - d
            gains = np.linspace(1 / np.sqrt(2), 1, h + 1)[h - np.arange(1, h + 1)]
        else:
            gains = np.sqrt(1 - np.arange(1, h + 1) / w)
        return gains @ self.single[1:h + 1] + self.capped


def _first_hits(segments: SegmentMinima, events: EventMinima, convention: str, h: int) -> np.ndarray:
    """Each segment's first hitting threshold at half-window ``h``."""
    if convention == "timeeval":
        while events.h < h:
            events.advance()
        return events.first_hits()
    h_after = max(h - 1, 0) if convention == "compat" else h
    return segments.first_hits(h, h + h_after + (convention != "volume"), h_after)


def range_curves(y_true: np.ndarray, scores: np.ndarray, windows: Sequence[int], n_thresholds: int,
                 convention: str = "volume") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """TPR, FPR and precision at each sampled threshold, one row per window.

    Parameters
    ----------
    y_true, scores : ndarray, shape (T,)
        Validated 0/1 labels with both classes, finite scores.
    windows : sequence of int
        Increasing windows ``w >= 0``.
    n_thresholds : int
        Number of sampled thresholds.
    convention : {"volume", "runs", "compat", "timeeval"}
        See the module notes and :data:`CONVENTIONS`.

    Returns
    -------
    tpr, fpr, precision : ndarray of shape (len(windows), n_thresholds)
    """
    size, n = y_true.shape[0], n_thresholds
    bins = threshold_bins(scores, n)
    positives = float(np.count_nonzero(y_true))
    predicted = cumulative(bins, n).astype(np.float64)
    hit_events = cumulative(bins[y_true.view(np.bool_)], n).astype(np.float64)
    reach = max(windows) // 2
    mass = _SlopeMass(y_true, bins, reach, n + 1, convention == "compat", convention == "timeeval")
    starts, ends = to_events(y_true)
    segments = segment_minima(starts, ends - 1, bins, reach, n)
    events = EventMinima(starts, ends - 1, bins, n)
    out = np.empty((3, len(windows), n))
    row, h_done = 0, -1
    for w in windows:
        while h_done < w // 2:
            h_done += 1
            mass.grow_to(h_done)
        by_bin = mass.at(w)
        slope = np.cumsum(by_bin[:n])
        extra = slope if convention == "volume" else np.full(n, by_bin.sum())
        p_new = (positives + (positives + extra)) / 2
        tp = hit_events + slope
        first = _first_hits(segments, events, convention, w // 2)
        out[0, row] = np.minimum(tp / p_new, 1) * (cumulative(first, n) / first.size)
        out[1, row] = (predicted - tp) / (size - p_new)
        out[2, row] = tp / predicted
        row += 1
    return out[0], out[1], out[2]


def roc_area(tpr: np.ndarray, fpr: np.ndarray) -> np.ndarray:
    """Trapezoid area of each row's ROC curve from ``(0, 0)`` to ``(1, 1)``."""
    rows = tpr.shape[0]
    x = np.hstack((np.zeros((rows, 1)), fpr, np.ones((rows, 1))))
    y = np.hstack((np.zeros((rows, 1)), tpr, np.ones((rows, 1))))
    return np.sum(np.diff(x, axis=1) * (y[:, 1:] + y[:, :-1]) / 2, axis=1)


def pr_area(tpr: np.ndarray, precision: np.ndarray, trapezoid: bool = False) -> np.ndarray:
    """Area of each row's PR curve: step heights (``trapezoid=False``) or trapezoids from precision 1."""
    rows = tpr.shape[0]
    width = np.diff(np.hstack((np.zeros((rows, 1)), tpr)), axis=1)
    if not trapezoid:
        return np.sum(width * precision, axis=1)
    p = np.hstack((np.ones((rows, 1)), precision))
    return np.sum(width * (p[:, 1:] + p[:, :-1]) / 2, axis=1)
