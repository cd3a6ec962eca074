"""Conversion between 0/1 series and events.

An *event* is a maximal run of 1s, written as the half-open interval
``[start, end)`` (paper, Sec. III-A: anomaly events are contiguous runs of
anomalous points).  Events are returned as two int64 arrays ``starts`` and
``ends`` so that downstream code can stay vectorised.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np


def to_events(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return the events of a 0/1 series as ``(starts, ends)``.

    Parameters
    ----------
    y : ndarray of shape (T,)
        Binary series (any integer or bool dtype; non-zero counts as 1).

    Returns
    -------
    starts, ends : ndarray of int64
        Half-open bounds of each maximal run of 1s, in increasing order.

    Examples
    --------
    >>> to_events(np.array([0, 1, 1, 0, 1]))
    (array([1, 4]), array([3, 5]))
    """
    y = np.asarray(y)
    b = y if y.dtype == np.bool_ else y != 0
    if b.shape[0] == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty.copy()
    # A bound sits wherever a point differs from its left neighbour, with the
    # series padded by 0 on both sides; bounds alternate start, end, start, ...
    # (boolean neighbour comparison: well under a millisecond per 10^6 points).
    edges = np.empty(b.shape[0] + 1, dtype=np.bool_)
    edges[0] = b[0]
    edges[-1] = b[-1]
    np.not_equal(b[1:], b[:-1], out=edges[1:-1])
    bounds = np.flatnonzero(edges).astype(np.int64, copy=False)
    starts, ends = bounds[0::2], bounds[1::2]
    return starts, ends


def from_events(events: Iterable[Sequence[int]], length: int) -> np.ndarray:
    """Build an int8 0/1 series of ``length`` points from ``[start, end)`` events.

    Parameters
    ----------
    events : iterable of (start, end)
        Half-open intervals; they may touch but must lie inside ``[0, length)``.
    length : int
        Series length ``T``.

    Returns
    -------
    ndarray of int8, shape (length,)
    """
    y = np.zeros(int(length), dtype=np.int8)
    for start, end in events:
        start, end = int(start), int(end)
        if not 0 <= start < end <= length:
            raise ValueError(f"event [{start}, {end}) does not lie inside a series of length {length}")
        y[start:end] = 1
    return y


def events_list(y: np.ndarray) -> list[list[int]]:
    """Return the events of ``y`` as a JSON-friendly list of ``[start, end]`` pairs."""
    starts, ends = to_events(y)
    return [[int(s), int(e)] for s, e in zip(starts, ends)]
