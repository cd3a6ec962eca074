"""R-AUC-ROC and R-AUC-PR: range-AUC at one window (Paparrizos et al., VLDB 2022).

Four definitions, chosen by ``definition``:

``"tsb-ad"`` (default)
    The curve of window ``w = sliding_window`` on TSB-AD 1.5's VUS surface
    (``RangeAUC_volume_opt``, the function behind ``generate_curve``): VUS is the mean of
    these areas over ``w = 0 .. W``.  Trapezoid ROC area, step-wise PR area.  TSB-AD 1.5's
    standalone ``RangeAUC(labels, score, window=w)`` (``basic_metrics.py``; 250 thresholds)
    is another function: run in the atlas's pinned environment on 40 random series (100 to
    1,000 points, 1 to 11 events), its ROC and PR areas equal this definition's at windows 0
    and 1; at windows 2 and 3 they differ from all four definitions here on 31 of the 40 (its
    segments come from ``range_convers_new`` applied to the sloped labels, which is wrong
    there); from window 4 on it raised ``ZeroDivisionError`` on every one of them (that
    function finds no segment and divides by their count).  So it is matched at windows 0 and 1
    only, and is not a reference beyond.
``"vus"``
    vus 0.0.6's ``RangeAUC(labels, score, window=sliding_window)``: segments are the runs of
    non-zero extended labels, ``P_new`` counts the whole slope mass at every threshold,
    and the PR area uses trapezoids from precision 1.  vus fixes 250 thresholds;
    ``thresholds`` is kept as a parameter here.
``"timeeval-compat"``
    TimeEval 1.5's ``RangeRocAUC`` / ``RangePrAUC(buffer_size=sliding_window,
    compatibility_mode=True)`` (the authors' earlier ``RangeAUC``): as ``"vus"``, but the
    slope after an event reaches ``sliding_window // 2 - 1`` points instead of
    ``sliding_window // 2``.  TimeEval fixes 250 thresholds in this mode.
``"timeeval"``
    TimeEval 1.5's default, ``RangeRocAUC`` / ``RangePrAUC(buffer_size=sliding_window)``: linear
    slopes ``linspace(1/sqrt(2), 1, h + 1)`` over ``h = sliding_window // 2`` points each side,
    the maximum (not the sum) where slopes overlap, every event its own window for existence
    (one point past its slope), trapezoid PR area, ``min(thresholds, T)`` thresholds.

Both TimeEval definitions score a constant score 0.0, as TimeEval's public call
(``Metric.__call__``, which refuses a constant score before computing) and aeon 1.6.0 do;
the other two compute that input like any other, as TSB-AD and vus do.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._base import Evaluator
from .._params import check_choice
from .curves import pr_area, range_curves, roc_area
from .inputs import check_scores
from .window_params import check_window_params

__all__ = ["RangeAucRoc", "RangeAucPr", "range_auc", "DEFINITIONS"]

#: The definitions of range-AUC: TSB-AD's volume slice, vus's ``RangeAUC``, TimeEval's two modes.
DEFINITIONS = ("tsb-ad", "vus", "timeeval-compat", "timeeval")
#: The kernel convention of each definition (:data:`.curves.CONVENTIONS`).
CONVENTION_OF = {"tsb-ad": "volume", "vus": "runs", "timeeval-compat": "compat", "timeeval": "timeeval"}


def range_auc(y_true: np.ndarray, scores: np.ndarray, sliding_window: int = 100, thresholds: int = 250,
              definition: str = "tsb-ad") -> tuple[float, float]:
    """``(R-AUC-ROC, R-AUC-PR)`` of validated inputs (TimeEval's definitions: 0.0 for a constant score)."""
    if definition.startswith("timeeval") and scores.min() == scores.max():
        return 0.0, 0.0
    if definition == "timeeval":
        thresholds = min(thresholds, y_true.shape[0])
    tpr, fpr, precision = range_curves(y_true, scores, [sliding_window], thresholds, CONVENTION_OF[definition])
    return float(roc_area(tpr, fpr)[0]), float(pr_area(tpr, precision, trapezoid=definition != "tsb-ad")[0])


class _Range(Evaluator):
    """Shared parameters of R-AUC-ROC and R-AUC-PR."""

    input_kind = "scores"
    which = 0

    def __init__(self, sliding_window: int = 100, thresholds: int = 250, definition: str = "tsb-ad") -> None:
        self.sliding_window, self.thresholds = check_window_params(self.name, sliding_window, thresholds)
        self.definition = check_choice(self.name, "definition", definition, DEFINITIONS)

    def __call__(self, y_true: Any, scores: Any) -> float:
        t, s = check_scores(y_true, scores, evaluator=self.name)
        return range_auc(t, s, self.sliding_window, self.thresholds, self.definition)[self.which]


class RangeAucRoc(_Range):
    """Range-AUC of the ROC curve at one window (R-AUC-ROC).

    Parameters
    ----------
    sliding_window : int, default 100
        The window ``w`` in points; labels extend ``w // 2`` points each side.
    thresholds : int, default 250
        Number of sampled thresholds.
    definition : {"tsb-ad", "vus", "timeeval-compat", "timeeval"}, default "tsb-ad"
        See the module notes.
    """

    name = "R-AUC-ROC"
    which = 0


class RangeAucPr(_Range):
    """Range-AUC of the PR curve at one window (R-AUC-PR); parameters as :class:`RangeAucRoc`."""

    name = "R-AUC-PR"
    which = 1
