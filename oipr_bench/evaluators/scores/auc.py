"""AUC-ROC and AUC-PR: the point-wise threshold-free score metrics.

AUC-ROC
    Area under the ROC curve over every distinct threshold, ties counting
    half (the Mann-Whitney statistic); equals scikit-learn's ``roc_auc_score``.
AUC-PR
    Area under the precision-recall curve, by one of two estimators:
    ``"average_precision"`` (step-wise, ``sum_k (R_k - R_{k-1}) P_k``; scikit-learn's
    ``average_precision_score``, TSB-AD's ``metric_PR``) or ``"trapezoid"`` (straight
    lines between the curve's points, starting from ``(R, P) = (0, 1)``; scikit-learn's
    ``auc(recall, precision)`` over ``precision_recall_curve``, vus's ``metric_PR``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._base import Evaluator
from .._params import check_choice
from .inputs import check_scores
from .ranking import distinct_counts

__all__ = ["AucRoc", "AucPr", "auc_roc", "auc_pr", "PR_ESTIMATORS"]

#: The estimators of the area under the precision-recall curve.
PR_ESTIMATORS = ("average_precision", "trapezoid")


def auc_roc(y_true: np.ndarray, scores: np.ndarray) -> float:
    """AUC-ROC of validated inputs (both classes present).

    The trapezoid area over the distinct thresholds is summed in integers,
    ``sum_k (FP_k - FP_{k-1}) (TP_k + TP_{k-1}) / (2 P N)``, so the result is
    the correctly rounded Mann-Whitney statistic.
    """
    tps, fps = distinct_counts(y_true, scores)
    tp = np.concatenate(([0], tps))
    fp = np.concatenate(([0], fps))
    twice_area = int(np.sum(np.diff(fp) * (tp[1:] + tp[:-1])))
    return twice_area / (2.0 * int(tps[-1]) * int(fps[-1]))


def auc_pr(y_true: np.ndarray, scores: np.ndarray, estimator: str = "average_precision") -> float:
    """AUC-PR of validated inputs by ``estimator`` (one of :data:`PR_ESTIMATORS`)."""
    tps, fps = distinct_counts(y_true, scores)
    precision = tps / (tps + fps)
    recall = tps / tps[-1]
    if estimator == "average_precision":
        return float(np.sum(np.diff(np.concatenate(([0.0], recall))) * precision))
    r = np.concatenate(([0.0], recall))
    p = np.concatenate(([1.0], precision))
    return float(np.sum(np.diff(r) * (p[1:] + p[:-1]) / 2.0))


class AucRoc(Evaluator):
    """Area under the point-wise ROC curve (AUC-ROC); no parameters.

    Examples
    --------
    >>> AucRoc()([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    """

    name = "AUC-ROC"
    input_kind = "scores"

    def __call__(self, y_true: Any, scores: Any) -> float:
        t, s = check_scores(y_true, scores, evaluator=self.name)
        return auc_roc(t, s)


class AucPr(Evaluator):
    """Area under the point-wise precision-recall curve (AUC-PR).

    Parameters
    ----------
    estimator : {"average_precision", "trapezoid"}, default "average_precision"
        Step-wise average precision (scikit-learn's ``average_precision_score``)
        or the trapezoid rule from ``(0, 1)`` (``auc(recall, precision)``).

    Examples
    --------
    >>> round(AucPr()([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 6)
    0.833333
    """

    name = "AUC-PR"
    input_kind = "scores"

    def __init__(self, estimator: str = "average_precision") -> None:
        self.estimator = check_choice(self.name, "estimator", estimator, PR_ESTIMATORS)

    def __call__(self, y_true: Any, scores: Any) -> float:
        t, s = check_scores(y_true, scores, evaluator=self.name)
        return auc_pr(t, s, self.estimator)
