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
    b = np.asarray(y) != 0
    if b.shape[0] == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty.copy()
    # A start is a 1 preceded by a 0 (or the series start); an end follows a 1
    # succeeded by a 0 (or the series end).  Boolean neighbour comparisons are
    # several times faster than np.diff on a padded integer copy.
    rising = b[1:] & ~b[:-1]
    falling = b[:-1] & ~b[1:]
    starts = np.flatnonzero(rising) + 1
    ends = np.flatnonzero(falling) + 1
    if b[0]:
        starts = np.concatenate(([0], starts))
    if b[-1]:
        ends = np.concatenate((ends, [b.shape[0]]))
    starts = starts.astype(np.int64, copy=False)
    ends = ends.astype(np.int64, copy=False)
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
