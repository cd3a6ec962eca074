"""VUS-ROC and VUS-PR: the volume under the range-AUC surface (Paparrizos et al., VLDB 2022).

The surface holds one range-AUC curve for every window ``w = 0, 1, ..., W``
(``W = sliding_window``); VUS is the mean of the ``W + 1`` areas.  The definition is
TSB-AD 1.5's ``generate_curve(y_true, scores, W, 'opt', thresholds)`` (VUS-ROC is its
output 6, VUS-PR its output 7), which is also vus 0.0.6's ``RangeAUC_volume_opt``:
sloped labels around each event (:mod:`.slopes`), ``thresholds`` sampled score values
(:mod:`.bins`), existence over the merged segments of each window (:mod:`.segments`),
trapezoid ROC areas and step-wise PR areas (:mod:`.curves`, convention ``"volume"``).
That is ``definition="tsb-ad"``, the default.  ``definition="timeeval-compat"`` is TimeEval
1.5's ``RangeRocVUS`` / ``RangePrVUS(max_buffer_size=sliding_window, compatibility_mode=True)``:
the mean over the windows of the authors' earlier ``RangeAUC`` (segments are runs of non-zero
sloped labels, ``P_new`` counts the whole slope mass, trapezoid PR areas, and the slope after
an event is one point shorter), with 250 thresholds in TimeEval.  ``definition="timeeval"`` is
TimeEval's default mode, ``RangeRocVUS`` / ``RangePrVUS(max_buffer_size=sliding_window)``: the mean
of the ``"timeeval"`` range-AUCs of :mod:`.range_auc` (TimeEval's own default window is 500).
aeon 1.6.0's ``range_roc_vus_score`` / ``range_pr_vus_score`` are ``"timeeval-compat"`` at
``sliding_window=500`` (its ``max_buffer_size``).  Both TimeEval definitions score a constant
score 0.0, as TimeEval's ``Metric.__call__`` and aeon do.

The kernel is exact to floating-point rounding and takes O(T log T + W * (W / 2) *
thresholds) time and O(T + W * thresholds) memory, against TSB-AD's
O(W * thresholds * T).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._base import Evaluator
from .._params import check_choice
from .curves import pr_area, range_curves, roc_area
from .inputs import check_scores
from .window_params import check_window_params

__all__ = ["VusRoc", "VusPr", "vus", "DEFINITIONS"]

#: The definitions of VUS: TSB-AD's (and vus's) volume, TimeEval's compatibility mode and default.
DEFINITIONS = ("tsb-ad", "timeeval-compat", "timeeval")


def vus(y_true: np.ndarray, scores: np.ndarray, sliding_window: int = 100, thresholds: int = 250,
        definition: str = "tsb-ad") -> tuple[float, float]:
    """``(VUS-ROC, VUS-PR)`` of validated inputs (TimeEval's definitions: 0.0 for a constant score)."""
    if definition.startswith("timeeval") and scores.min() == scores.max():
        return 0.0, 0.0
    if definition == "timeeval":
        thresholds = min(thresholds, y_true.shape[0])
    convention = {"tsb-ad": "volume", "timeeval-compat": "compat", "timeeval": "timeeval"}[definition]
    tpr, fpr, precision = range_curves(y_true, scores, range(sliding_window + 1), thresholds, convention)
    windows = sliding_window + 1
    trapezoid = definition != "tsb-ad"
    return float(np.sum(roc_area(tpr, fpr)) / windows), float(np.sum(pr_area(tpr, precision, trapezoid)) / windows)


class _Volume(Evaluator):
    """Shared parameters of VUS-ROC and VUS-PR."""

    input_kind = "scores"
    which = 0

    def __init__(self, sliding_window: int = 100, thresholds: int = 250, definition: str = "tsb-ad") -> None:
        self.sliding_window, self.thresholds = check_window_params(self.name, sliding_window, thresholds)
        self.definition = check_choice(self.name, "definition", definition, DEFINITIONS)

    def __call__(self, y_true: Any, scores: Any) -> float:
        t, s = check_scores(y_true, scores, evaluator=self.name)
        return vus(t, s, self.sliding_window, self.thresholds, self.definition)[self.which]


class VusRoc(_Volume):
    """Volume under the range-ROC surface (VUS-ROC).

    Parameters
    ----------
    sliding_window : int, default 100
        Largest window ``W`` (TSB-AD's ``slidingWindow``); windows ``0 .. W`` are averaged.
    thresholds : int, default 250
        Number of sampled thresholds (TSB-AD's ``thre``).
    definition : {"tsb-ad", "timeeval-compat", "timeeval"}, default "tsb-ad"
        See the module notes.
    """

    name = "VUS-ROC"
    which = 0


class VusPr(_Volume):
    """Volume under the range-PR surface (VUS-PR); parameters as :class:`VusRoc`.

    Examples
    --------
    >>> round(VusPr(sliding_window=2, thresholds=4)([0, 1, 1, 0, 0, 0], [0.1, 0.9, 0.3, 0.4, 0.2, 0.0]), 6)
    0.792741
    """

    name = "VUS-PR"
    which = 1
