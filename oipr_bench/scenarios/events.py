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


def count_at_most(bounds: np.ndarray, queries: np.ndarray, length: int) -> np.ndarray:
    """Number of ``bounds`` that are ``<= q`` for every query ``q`` (``searchsorted(bounds, queries, "right")``).

    Parameters
    ----------
    bounds : ndarray of int
        Strictly increasing positions in ``[0, length]`` (event starts or
        exclusive ends of one series are; ``length`` itself is never ``<=`` a
        query).
    queries : ndarray of int
        Positions in ``[0, length)``, in any order.
    length : int
        Series length ``T``.

    Returns
    -------
    ndarray of int
        Same shape as ``queries``.

    Notes
    -----
    Many queries against many bounds (an alternating series has ``T / 2``
    events) make binary search cost ``O(q log b)`` scattered reads; then one
    pass over a dense running count of the bounds (int32 while ``T < 2**31``)
    is cheaper and reads the counts in the queries' order.  Few queries keep
    the binary search, so sparse series never pay for a dense array.
    """
    if not prefers_running_count(bounds.size, queries.size, length):
        return np.searchsorted(bounds, queries, side="right")
    return running_count(bounds, length)[queries]


def prefers_running_count(n_bounds: int, n_queries: int, length: int) -> bool:
    """Whether :func:`running_count` (one dense pass) beats binary search for these sizes."""
    return n_queries * max(1.0, float(np.log2(n_bounds + 1))) >= length / 2


def running_count(bounds: np.ndarray, length: int) -> np.ndarray:
    """``c[x]`` = number of the strictly increasing ``bounds`` (in ``[0, length]``) that are ``<= x``, ``0 <= x < length``.

    int32 while ``length < 2**31`` (4 bytes per point), else int64.
    """
    counts = np.zeros(length, dtype=np.int32 if length < 2**31 - 1 else np.int64)
    counts[bounds[: int(np.searchsorted(bounds, length))]] = 1  # an end at ``length`` counts for no query
    np.cumsum(counts, out=counts)
    return counts
