"""Point-based evaluators: PW, PA and PA%K.

PW
    Classical point-wise precision and recall (OIPR paper, Sec. II-B).
PA
    Point adjustment (Xu et al., "Unsupervised Anomaly Detection via
    Variational Auto-Encoder for Seasonal KPIs in Web Applications", WWW 2018):
    if any point of a ground-truth event is predicted, the whole event counts
    as predicted, then PW is applied.
PA%K
    Kim et al., "Towards a Rigorous Evaluation of Time-series Anomaly
    Detection", AAAI 2022: a ground-truth event is adjusted only when strictly
    more than ``K`` percent of its points are predicted (the rule of the
    authors' ``tadpak`` package; ``K = 50`` in the OIPR paper's Table 3).

Degenerate inputs follow scikit-learn's ``zero_division=0``: precision is 0
when nothing is predicted and recall is 0 when there is no ground-truth
anomaly (Table A1, constant detector c1 prints 0/0/0 for all three).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..scenarios.events import count_at_most, to_events
from .inputs import check_pair
from ._params import check_real
from ._base import Evaluator, Score, make_score
from .kernels.pointwise import adjusted_fill

__all__ = ["PointWise", "PointAdjust", "PointAdjustK", "pointwise_counts", "adjust_predictions"]


def pointwise_counts(y_true: np.ndarray, y_pred: np.ndarray) -> tuple[int, int, int]:
    """Return ``(TP, FP, FN)`` point counts of two validated 0/1 int8 arrays."""
    n_true = int(np.count_nonzero(y_true))
    n_pred = int(np.count_nonzero(y_pred))
    tp = int(np.count_nonzero(y_true & y_pred))
    return tp, n_pred - tp, n_true - tp


def _ratio(num: int, den: int) -> float:
    return num / den if den > 0 else 0.0


def _adjusted_counts(y_true: np.ndarray, y_pred: np.ndarray, k: float) -> tuple[int, int, int]:
    """``(TP, FP, FN)`` after PA%K adjustment, without building the adjusted series.

    Adjusting fills the missed points of each chosen event: TP grows by those
    points, FP is unchanged, FN shrinks by the same amount.  The filled
    points are counted on the bit-packed series
    (:func:`oipr_bench.evaluators.kernels.pointwise.adjusted_fill`), so the
    work and memory stay proportional to ``T / 8`` however many events there
    are.
    """
    tp, filled = adjusted_fill(y_true, y_pred, k)
    n_true = int(np.count_nonzero(y_true))
    n_pred = int(np.count_nonzero(y_pred))
    return tp + filled, n_pred - tp, n_true - tp - filled


def _event_hits(starts: np.ndarray, y_true: np.ndarray, y_pred: np.ndarray) -> np.ndarray:
    """Number of predicted points inside each ground-truth event (used by :func:`adjust_predictions`)."""
    both = np.flatnonzero((y_true & y_pred).view(np.bool_))
    event_of = count_at_most(starts, both, y_true.shape[0]) - 1
    return np.bincount(event_of, minlength=starts.size).astype(np.int64)


def _pw_score(y_true: np.ndarray, y_pred: np.ndarray) -> Score:
    tp, fp, fn = pointwise_counts(y_true, y_pred)
    return make_score(_ratio(tp, tp + fp), _ratio(tp, tp + fn))


def _pak_score(y_true: np.ndarray, y_pred: np.ndarray, k: float) -> Score:
    tp, fp, fn = _adjusted_counts(y_true, y_pred, k)
    return make_score(_ratio(tp, tp + fp), _ratio(tp, tp + fn))


def adjust_predictions(y_true: np.ndarray, y_pred: np.ndarray, k: float = 0) -> np.ndarray:
    """Fill every ground-truth event whose predicted share is strictly above ``k`` percent.

    Parameters
    ----------
    y_true, y_pred : ndarray of int8, shape (T,)
        Validated 0/1 series (see :func:`oipr_bench.evaluators.inputs.check_pair`).
    k : float, default 0
        Percentage threshold in ``[0, 100]``.  ``k = 0`` is PA (one hit
        suffices); ``k = 100`` never adjusts (PW).

    Returns
    -------
    ndarray of int8, shape (T,)
        A new adjusted prediction; ``y_pred`` is not modified.

    Notes
    -----
    The test ``hits > k / 100 * length`` is evaluated as
    ``100 * hits > k * length`` so that integer ``k`` is decided exactly
    (``0.29 * 100`` is 28.999... in floating point).
    """
    adjusted = np.array(y_pred, dtype=np.int8)
    starts, ends = to_events(y_true.view(np.bool_))
    if starts.size == 0:
        return adjusted
    hits = _event_hits(starts, y_true, y_pred)
    chosen = 100 * hits > k * (ends - starts)
    true_points = np.flatnonzero(y_true.view(np.bool_))
    adjusted[true_points[np.repeat(chosen, ends - starts)]] = 1
    return adjusted


class PointWise(Evaluator):
    """Point-wise precision/recall (PW).

    ``P = TP / (TP + FP)``, ``R = TP / (TP + FN)`` over individual points;
    each is 0 when its denominator is 0.  No parameters.

    Examples
    --------
    >>> PointWise()([0, 1, 1, 0], [0, 1, 0, 1])
    Score(precision=0.5, recall=0.5, f1=0.5)
    """

    name = "PW"

    def __call__(self, y_true: Any, y_pred: Any) -> Score:
        t, p = check_pair(y_true, y_pred, evaluator=self.name)
        return _pw_score(t, p)


class PointAdjust(Evaluator):
    """Point adjustment (PA, Xu et al., WWW 2018).

    Every ground-truth event with at least one predicted point is treated as
    fully predicted, then PW is computed.  No parameters.

    Examples
    --------
    >>> PointAdjust()([0, 1, 1, 1, 0], [0, 1, 0, 0, 1])
    Score(precision=0.75, recall=1.0, f1=0.8571428571428571)
    """

    name = "PA"

    def __call__(self, y_true: Any, y_pred: Any) -> Score:
        t, p = check_pair(y_true, y_pred, evaluator=self.name)
        return _pak_score(t, p, 0)


class PointAdjustK(Evaluator):
    """PA%K (Kim et al., AAAI 2022).

    A ground-truth event is treated as fully predicted only when strictly more
    than ``k`` percent of its points are predicted, then PW is computed.

    Parameters
    ----------
    k : int or float, default 50
        Percentage threshold ``K`` in ``[0, 100]`` (OIPR paper, Table 3:
        ``K = 50``).  ``k = 0`` equals PA, ``k = 100`` equals PW.

    Raises
    ------
    TypeError
        ``k`` is not a real number (bools are rejected).
    ValueError
        ``k`` is NaN, infinite or outside ``[0, 100]``.

    Notes
    -----
    The comparison is strict, ``>``, as in the authors' ``tadpak`` package;
    no Table A1 case sits exactly at 50 %, so the table cannot tell ``>`` from
    ``>=``.
    """

    name = "PA%K"

    def __init__(self, k: float = 50) -> None:
        check_real(self.name, "k", k, 0.0, 100.0)
        self.k = k.item() if isinstance(k, np.generic) else k

    def __call__(self, y_true: Any, y_pred: Any) -> Score:
        t, p = check_pair(y_true, y_pred, evaluator=self.name)
        return _pak_score(t, p, self.k)
