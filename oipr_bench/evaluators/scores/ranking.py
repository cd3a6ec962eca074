"""Counts at every distinct score value, the shared kernel of AUC-ROC and AUC-PR.

Thresholding the scores at a value ``theta`` predicts every point with
``score >= theta``.  Taking ``theta`` over the distinct score values in decreasing
order gives the points of the ROC and precision-recall curves (scikit-learn's
``_binary_clf_curve``): one point per distinct value, ties entering together.
"""

from __future__ import annotations

import numpy as np

__all__ = ["distinct_counts"]


def distinct_counts(y_true: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """True and false positives when thresholding at each distinct score, highest first.

    Parameters
    ----------
    y_true : ndarray of int8, shape (T,)
        0/1 labels.
    scores : ndarray of float64, shape (T,)
        Finite scores.

    Returns
    -------
    tps, fps : ndarray of int64, shape (K,)
        For the ``k``-th largest distinct value ``theta_k``: the number of
        anomalous and of normal points with ``score >= theta_k``.  Both are
        non-decreasing and end at ``(P, N)``.
    """
    order = np.argsort(scores, kind="stable")[::-1]
    ranked = scores[order]
    hits = y_true[order].astype(np.int64)
    last_of_value = np.flatnonzero(np.diff(ranked)) if ranked.size > 1 else np.zeros(0, dtype=np.int64)
    ends = np.append(last_of_value, ranked.size - 1)
    tps = np.cumsum(hits)[ends]
    fps = ends + 1 - tps
    return tps, fps
