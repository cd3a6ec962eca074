"""The NAB score's NumPy kernel: the per-row weights of one series and the score of a set of detections.

The Numenta Anomaly Benchmark's scorer (Lavin & Ahmad, ICMLA 2015, Sec. IV; numenta/NAB
``nab/sweeper.py``) gives every row of a series a weight, as if the row were a detection:

* inside a window ``[first, last]`` (rows, both ends included, ``width = last - first + 1``), the
  scaled sigmoid of the row's relative position ``-(last - i + 1) / width``, scaled so that the
  window's first row is worth ``tpWeight``: ``sigma(pos) * tpWeight / sigma(-1)``;
* outside every window, before the first window ends: ``-fpWeight``;
* after a window (the last one that ended before the row): ``sigma((i - last) / (width - 1)) * fpWeight``,
  which is ``-fpWeight`` from three widths past the window on;

with ``sigma(x) = 2 / (1 + exp(5 x)) - 1`` (``-1`` for ``x > 3``). The rows of the probationary
period (``i < min(floor(p n), 5000 p)``) are not scored. A set of detections then scores
``sum over windows of max(-fnWeight, the best detected weight in the window)`` (the first
detection in a window is its best: the weights fall along a window) plus the weights of the
detections outside windows. A window with no scored row does not count.

One case NAB's code does not reach: a false positive after a one-row window divides by
``width - 1 = 0`` there (Python raises ``ZeroDivisionError``); here the position is ``+inf``, so the
weight is ``-fpWeight``, the limit of the formula.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["SeriesWeights", "scaled_sigmoid", "series_weights", "score_detections", "row_attribution", "probation_rows", "MAX_TP"]


def scaled_sigmoid(position: np.ndarray) -> np.ndarray:
    """NAB's ``scaledSigmoid``: ``2 * sigmoid(-5 x) - 1`` for ``x <= 3``, ``-1`` beyond (element-wise)."""
    x = np.asarray(position, dtype=np.float64)
    with np.errstate(over="ignore"):
        val = 2.0 * (1.0 / (1.0 + np.exp(-(-5.0 * x)))) - 1.0
    return np.where(x > 3.0, -1.0, val)


#: ``scaledSigmoid(-1)``: the weight of a detection on a window's first row, before scaling.
MAX_TP = float(scaled_sigmoid(np.array(-1.0)))


@dataclass(frozen=True)
class SeriesWeights:
    """What the scorer needs of one series, whatever the detections.

    Attributes
    ----------
    weight : ndarray of float64, shape (n,)
        Each row's weight as a detection (NAB's per-row ``sweepScore``).
    window : ndarray of int64, shape (n,)
        The window a row lies in (0, 1, ...), -1 outside every window.
    scored : ndarray of bool, shape (n,)
        False on the probationary rows.
    n_windows : int
        Windows of the series; ``counted`` of them have at least one scored row.
    counted : ndarray of bool, shape (n_windows,)
    """

    weight: np.ndarray
    window: np.ndarray
    scored: np.ndarray
    n_windows: int
    counted: np.ndarray


def series_weights(n: int, windows: np.ndarray, probation: int, tp_weight: float, fp_weight: float) -> SeriesWeights:
    """The weights of the ``n`` rows of a series with ``windows`` (rows ``(first, last)``, inclusive, in order).

    Parameters
    ----------
    n : int
        Rows of the series.
    windows : ndarray of int, shape (k, 2)
        Each window's first and last row, increasing and not overlapping.
    probation : int
        The probationary rows (``rows < probation`` are not scored).
    tp_weight, fp_weight : float
        The profile's ``tpWeight`` and ``fpWeight``.
    """
    wins = np.asarray(windows, dtype=np.int64).reshape(-1, 2)
    rows = np.arange(n, dtype=np.int64)
    window = np.full(n, -1, dtype=np.int64)
    for k, (first, last) in enumerate(wins):
        window[first:last + 1] = k
    firsts, lasts = wins[:, 0], wins[:, 1]
    widths = (lasts - firsts + 1).astype(np.float64)
    weight = np.empty(n, dtype=np.float64)
    inside = window >= 0
    k_in = window[inside]
    weight[inside] = scaled_sigmoid(-(lasts[k_in] - rows[inside] + 1) / widths[k_in]) * tp_weight / MAX_TP
    outside = ~inside
    prev = np.searchsorted(lasts, rows[outside], side="left") - 1   # the last window ending before the row
    after = prev >= 0
    out_weight = np.full(prev.size, -1.0)
    if after.any():
        p = prev[after]
        gap = (rows[outside][after] - lasts[p]).astype(np.float64)
        denom = widths[p] - 1.0
        with np.errstate(divide="ignore"):
            position = np.where(denom > 0, gap / np.where(denom > 0, denom, 1.0), np.inf)
        out_weight[after] = scaled_sigmoid(position)
    weight[outside] = out_weight * fp_weight
    scored = rows >= probation
    counted = lasts >= probation
    return SeriesWeights(weight=weight, window=window, scored=scored, n_windows=int(wins.shape[0]), counted=counted)


def score_detections(w: SeriesWeights, detected: np.ndarray, fn_weight: float) -> tuple[float, int, int, int, int]:
    """``(raw score, TP, TN, FP, FN)`` of the detections ``detected`` (bool per row) on a series.

    The counts are over the scored rows (NAB's ``ThresholdScore``): TP and FN the detected and
    missed rows inside windows, FP and TN outside.
    """
    det = np.asarray(detected, dtype=bool) & w.scored
    in_win = w.window >= 0
    tp = int(np.count_nonzero(det & in_win))
    fp = int(np.count_nonzero(det & ~in_win))
    fn = int(np.count_nonzero(w.scored & in_win)) - tp
    tn = int(np.count_nonzero(w.scored & ~in_win)) - fp
    parts = np.full(w.n_windows, -float(fn_weight))
    hit = det & in_win
    np.maximum.at(parts, w.window[hit], w.weight[hit])
    fp_part = float(np.sum(w.weight[det & ~in_win]))
    raw = fp_part + float(np.sum(parts[w.counted]))
    return raw, tp, tn, fp, fn


def row_attribution(w: SeriesWeights, windows: np.ndarray, detected: np.ndarray, fn_weight: float) -> np.ndarray:
    """The score per row as NAB v1.0 wrote it in the results files (column ``S(t)_<profile>``).

    Each window's score (its first scored detection's weight, or ``-fnWeight`` when it has none)
    stands on the window's first row; each detection outside windows carries its own weight; every
    other row is 0. The column sums to the series' raw score.
    """
    det = np.asarray(detected, dtype=bool) & w.scored
    out = np.zeros(w.weight.size, dtype=np.float64)
    fp_rows = det & (w.window < 0)
    out[fp_rows] = w.weight[fp_rows]
    wins = np.asarray(windows, dtype=np.int64).reshape(-1, 2)
    parts = np.full(w.n_windows, -float(fn_weight))
    hit = det & (w.window >= 0)
    np.maximum.at(parts, w.window[hit], w.weight[hit])
    for k in np.flatnonzero(w.counted):
        out[wins[k, 0]] = parts[k]
    return out


def probation_rows(n_rows: int, probation_percent: float) -> int:
    """NAB's probationary period in rows: the rows ``i < min(floor(p * n), p * 5000)`` are not scored.

    ``nab/util.py`` ``getProbationPeriod`` and ``nab/sweeper.py``: a row is probationary when its index is
    below that bound, so the count is the bound rounded up.
    """
    if n_rows < 0:
        raise ValueError(f"n_rows must be >= 0, got {n_rows}")
    if not (0.0 <= probation_percent <= 1.0):
        raise ValueError(f"probation_percent must be in [0, 1], got {probation_percent}")
    bound = min(math.floor(probation_percent * n_rows), probation_percent * 5000)
    return int(math.ceil(bound))
