"""The NAB score (Numenta Anomaly Benchmark) of one series, as a built-in evaluator.

Lavin & Ahmad, "Evaluating Real-time Anomaly Detection Algorithms -- the Numenta Anomaly Benchmark",
ICMLA 2015, Sec. IV (the scoring function), and numenta/NAB's scorer (``nab/sweeper.py``: the scaled
sigmoid, the first detection per window, false positives weighted by their distance from the
preceding window, the probationary period; ``config/profiles.json``: the three profiles;
``nab/runner.py``: the normalisation against the null and perfect detectors).

Shape. The evaluator takes the paper's pair: ``y_true`` 0/1, whose events are NAB's anomaly windows
(an event ``[start, end)`` is the window of rows ``start .. end - 1``, both ends included, as NAB's
windows are), and ``y_pred`` 0/1, the detections (a detector's ``anomaly_score >= threshold``). It
returns one number, the series' NAB score normalised as NAB normalises the corpus:
``100 * (raw - null) / (perfect - null)`` with ``null = -fnWeight x`` the windows with a scored row
(what a detector that never fires scores) and ``perfect = tpWeight x`` the windows; 100 for a
detection on every window's first row and no false positive, 0 for no detection, unbounded below.
A series without a window has no normalised score (NaN), as AM has none without an event;
``normalize=False`` returns the raw score instead (``-fpWeight x`` the false positives' weights there).
A corpus's scoreboard sums the raw scores over the series before normalising
(:mod:`oipr_bench.reference.nab_scoring`), which is not the mean of the series' normalised scores.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..scenarios.events import to_events
from ._base import Evaluator
from ._params import check_choice, check_real
from .inputs import check_pair
from .kernels.nab import row_attribution, score_detections, series_weights, probation_rows

__all__ = ["NAB", "NabSeriesScore", "PROFILES", "PROBATION_PERCENT", "windows_of"]

#: NAB's application profiles (numenta/NAB ``config/profiles.json``): the cost matrix of each.
PROFILES: dict[str, dict[str, float]] = {
    "standard": {"tpWeight": 1.0, "fnWeight": 1.0, "fpWeight": 0.11, "tnWeight": 1.0},
    "reward_low_FP_rate": {"tpWeight": 1.0, "fnWeight": 1.0, "fpWeight": 0.22, "tnWeight": 1.0},
    "reward_low_FN_rate": {"tpWeight": 1.0, "fnWeight": 2.0, "fpWeight": 0.11, "tnWeight": 1.0},
}
#: NAB's probationary share of a series (``nab/runner.py``: ``probationaryPercent = 0.15``).
PROBATION_PERCENT = 0.15


@dataclass(frozen=True)
class NabSeriesScore:
    """The NAB score of one series, with its parts.

    Attributes
    ----------
    raw : float
        The sum of the windows' scores and the false positives' weights.
    normalised : float
        ``100 * (raw - null) / (perfect - null)``; NaN without a window.
    null, perfect : float
        The raw scores of a detector that never fires and of a perfect one.
    tp, tn, fp, fn : int
        Detected and missed rows inside windows, detected and quiet rows outside, after the probation.
    probation : int
        Rows of the probationary period.
    """

    raw: float
    normalised: float
    null: float
    perfect: float
    tp: int
    tn: int
    fp: int
    fn: int
    probation: int


def windows_of(y_true: np.ndarray) -> np.ndarray:
    """The events of a 0/1 series as NAB windows: rows ``(first, last)``, both included, shape (k, 2)."""
    starts, ends = to_events(np.asarray(y_true).view(np.bool_) if np.asarray(y_true).dtype == np.int8
                             else np.asarray(y_true) != 0)
    return np.stack([starts, ends - 1], axis=1) if starts.size else np.empty((0, 2), dtype=np.int64)


class NAB(Evaluator):
    """The NAB score of one series under one of NAB's profiles.

    Parameters
    ----------
    profile : {"standard", "reward_low_FP_rate", "reward_low_FN_rate"}, default "standard"
        NAB's cost matrix (:data:`PROFILES`): the weights of a true positive, a false positive and a
        missed window.
    probation_percent : float, default 0.15
        The probationary share: the first ``min(floor(p n), 5000 p)`` rows are not scored (NAB's
        default 0.15; 0 scores every row).
    normalize : bool, default True
        Return the normalised score (100 = perfect, 0 = no detection); False returns the raw score.

    Examples
    --------
    >>> y_true = [0] * 10 + [1] * 5 + [0] * 5
    >>> NAB(probation_percent=0)(y_true, [0] * 10 + [1] + [0] * 9)
    100.0
    >>> NAB(probation_percent=0)(y_true, [0] * 20)
    0.0
    """

    name = "NAB"
    input_kind = "binary"
    higher_is_better = True
    bounds = (None, 100.0)

    def __init__(self, profile: str = "standard", probation_percent: float = PROBATION_PERCENT,
                 normalize: bool = True) -> None:
        self.profile = check_choice(self.name, "profile", profile, tuple(PROFILES))
        check_real(self.name, "probation_percent", probation_percent, 0.0, 1.0)
        self.probation_percent = float(probation_percent)
        if not isinstance(normalize, (bool, np.bool_)):
            raise TypeError(f"{self.name}: normalize must be True or False, got {normalize!r}")
        self.normalize = bool(normalize)

    def details(self, y_true: Any, y_pred: Any) -> NabSeriesScore:
        """The score of ``(y_true, y_pred)`` with its parts (:class:`NabSeriesScore`)."""
        t, p = check_pair(y_true, y_pred, evaluator=self.name)
        cost = PROFILES[self.profile]
        windows = windows_of(t)
        n = int(t.shape[0])
        probation = probation_rows(n, self.probation_percent)
        weights = series_weights(n, windows, probation, cost["tpWeight"], cost["fpWeight"])
        raw, tp, tn, fp, fn = score_detections(weights, p.view(np.bool_), cost["fnWeight"])
        null = -cost["fnWeight"] * int(np.count_nonzero(weights.counted))
        perfect = cost["tpWeight"] * weights.n_windows
        norm = 100.0 * (raw - null) / (perfect - null) if perfect - null != 0 else math.nan
        return NabSeriesScore(raw, norm, null, perfect, tp, tn, fp, fn, probation)

    def row_scores(self, y_true: Any, y_pred: Any) -> np.ndarray:
        """The score per row as NAB v1.0 wrote it (``S(t)_<profile>``): each window's score on its first
        row, each false positive's weight on its row, 0 elsewhere; the column sums to the raw score."""
        t, p = check_pair(y_true, y_pred, evaluator=self.name)
        cost = PROFILES[self.profile]
        windows = windows_of(t)
        n = int(t.shape[0])
        weights = series_weights(n, windows, probation_rows(n, self.probation_percent), cost["tpWeight"],
                                 cost["fpWeight"])
        return row_attribution(weights, windows, p.view(np.bool_), cost["fnWeight"])

    def __call__(self, y_true: Any, y_pred: Any) -> float:
        res = self.details(y_true, y_pred)
        return res.normalised if self.normalize else res.raw
