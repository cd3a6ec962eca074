"""Existence per event, TimeEval's default: each event keeps its own window, no merging.

TimeEval 1.5's ``RangePrAUC``/``RangePrVUS`` without ``compatibility_mode`` count an event
as found when a predicted point with a non-zero extended label lies in
``[max(0, s - h), min(T, e + h)]`` (``e`` the exclusive end, ``h = buffer_size // 2``).
That window overlaps its neighbours' and ends one point past the slope: its last point
``e + h`` carries a label only when the next event (or its slope) reaches it, i.e. when
``s_next - (e + h) <= h``.

:class:`EventMinima` grows every event's window one point per side as ``h`` increases and
keeps the running minimum of the threshold bins, so ``h`` costs O(number of events).
"""

from __future__ import annotations

import numpy as np

__all__ = ["EventMinima"]


class EventMinima:
    """First threshold index hitting each event's own window, for ``h = 0, 1, 2, ...`` in turn."""

    def __init__(self, starts: np.ndarray, last: np.ndarray, bins: np.ndarray, never: int) -> None:
        bounds = np.empty(2 * starts.size, dtype=np.int64)
        bounds[0::2], bounds[1::2] = starts, last + 1
        self.running = np.minimum.reduceat(np.append(bins, never), bounds)[0::2]
        self.starts, self.last, self.bins, self.never = starts, last, bins, never
        self.next_start = np.append(starts[1:], np.iinfo(np.int64).max // 4)
        self.h = 0

    def advance(self) -> None:
        """Widen every window by one point on each side (inside the series)."""
        self.h += 1
        size = self.bins.shape[0]
        left = self.starts - self.h
        ok = left >= 0
        self.running[ok] = np.minimum(self.running[ok], self.bins[left[ok]])
        right = self.last + self.h
        ok = right < size
        self.running[ok] = np.minimum(self.running[ok], self.bins[right[ok]])

    def first_hits(self) -> np.ndarray:
        """Each event's first hitting threshold at the current ``h``, the extra last point included."""
        beyond = self.last + self.h + 1
        counted = (beyond < self.bins.shape[0]) & (self.next_start - beyond <= self.h)
        hits = self.running.copy()
        hits[counted] = np.minimum(hits[counted], self.bins[beyond[counted]])
        return hits
