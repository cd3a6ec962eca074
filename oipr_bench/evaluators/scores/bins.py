"""Threshold sampling of the range metrics: which thresholds predict each point.

TSB-AD's and vus's range AUCs (``RangeAUC``, ``RangeAUC_volume_opt``) do not use
every distinct score as a threshold.  They sort the scores in decreasing order
and take the values at the ``n`` positions ``floor(linspace(0, T - 1, n))``; the
``j``-th threshold ``theta_j`` predicts every point with ``score >= theta_j``.
The thresholds never increase with ``j``, so each point is predicted from one
index on: its *bin*.  Every count the metrics need is a cumulative sum over bins.
"""

from __future__ import annotations

import numpy as np

__all__ = ["threshold_bins", "cumulative"]


def threshold_bins(scores: np.ndarray, n_thresholds: int) -> np.ndarray:
    """The first threshold index that predicts each point.

    Parameters
    ----------
    scores : ndarray of float64, shape (T,)
        Finite scores.
    n_thresholds : int
        Number of sampled thresholds ``n`` (TSB-AD's ``thre``), at least 1.

    Returns
    -------
    ndarray of int64, shape (T,)
        ``J_t = min{j : theta_j <= scores[t]}``, and ``n`` for a point no
        sampled threshold predicts.
    """
    ranked = np.sort(scores)  # increasing; the k-th largest is ranked[T - 1 - k]
    picks = np.linspace(0, scores.size - 1, n_thresholds).astype(np.int64)
    theta_increasing = ranked[scores.size - 1 - picks[::-1]]
    del ranked
    return n_thresholds - np.searchsorted(theta_increasing, scores, side="right")


def cumulative(bins: np.ndarray, n_thresholds: int, weights: np.ndarray | None = None) -> np.ndarray:
    """``out[j]`` = number (or weight) of points with bin ``<= j``, for ``j < n_thresholds``."""
    counts = np.bincount(bins, weights=weights, minlength=n_thresholds + 1)
    return np.cumsum(counts[:n_thresholds])
