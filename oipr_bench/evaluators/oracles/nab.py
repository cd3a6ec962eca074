"""The NAB score of one series, row by row (Lavin & Ahmad, ICMLA 2015, Sec. IV; numenta/NAB ``nab/sweeper.py``).

A literal walk through the series, as NAB's scorer walks it: enter a window on its first row, give
every row its weight (inside a window by its position in the window, outside by its distance from the
window that ended last), leave the window after its last row; then score the detections of the rows
after the probationary period: each window keeps its best detection (or ``-fnWeight``), each detection
outside windows adds its weight. No NumPy, no vectorisation: the check of
:class:`oipr_bench.evaluators.nab.NAB`.
"""

from __future__ import annotations

import math
from typing import Sequence

__all__ = ["nab_oracle"]

_PROFILES = {
    "standard": (1.0, 0.11, 1.0),             # tpWeight, fpWeight, fnWeight (numenta/NAB config/profiles.json)
    "reward_low_FP_rate": (1.0, 0.22, 1.0),
    "reward_low_FN_rate": (1.0, 0.11, 2.0),
}


def _scaled_sigmoid(x: float) -> float:
    if x > 3.0:
        return -1.0
    return 2.0 * (1.0 / (1.0 + math.exp(-(-5.0 * x)))) - 1.0


def nab_oracle(y_true: Sequence[int], y_pred: Sequence[int], profile: str = "standard",
               probation_percent: float = 0.15, normalize: bool = True) -> float:
    """The NAB score of ``y_pred`` against the windows of ``y_true`` (normalised, or raw with ``normalize=False``)."""
    tp_weight, fp_weight, fn_weight = _PROFILES[profile]
    n = len(y_true)
    # the windows: maximal runs of 1s, (first row, last row)
    windows = []
    i = 0
    while i < n:
        if y_true[i] == 1:
            j = i
            while j + 1 < n and y_true[j + 1] == 1:
                j += 1
            windows.append((i, j))
            i = j + 1
        else:
            i += 1
    probation_bound = min(math.floor(probation_percent * n), probation_percent * 5000)
    max_tp = _scaled_sigmoid(-1.0)

    window_score = {}          # window number -> its best score so far (only windows with a scored row)
    fp_total = 0.0
    current = None             # the window the walk is in
    previous = None            # the window that ended last
    next_window = 0
    for row in range(n):
        if next_window < len(windows) and row == windows[next_window][0]:
            current = next_window
            next_window += 1
        if current is not None:
            first, last = windows[current]
            position = -(last - row + 1) / (last - first + 1)
            weight = _scaled_sigmoid(position) * tp_weight / max_tp
        elif previous is None:
            weight = -1.0 * fp_weight
        else:
            first, last = windows[previous]
            if last - first == 0:
                position = math.inf      # NAB divides by zero here; the formula's limit
            else:
                position = abs(last - row) / (last - first)
            weight = _scaled_sigmoid(position) * fp_weight
        if row >= probation_bound:
            if current is not None:
                if current not in window_score:
                    window_score[current] = -fn_weight
                if y_pred[row] == 1:
                    window_score[current] = max(window_score[current], weight)
            elif y_pred[row] == 1:
                fp_total += weight
        if current is not None and row == windows[current][1]:
            previous = current
            current = None
    raw = fp_total
    for k in sorted(window_score):
        raw += window_score[k]
    if not normalize:
        return raw
    null = -fn_weight * len(window_score)
    perfect = tp_weight * len(windows)
    if perfect - null == 0:
        return math.nan
    return 100.0 * (raw - null) / (perfect - null)
