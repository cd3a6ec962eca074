"""Existence per segment: after how many thresholds each extended segment is first hit.

Range-AUC's TPR multiplies recall by the share of *segments* that hold at least
one predicted point.  At half-window ``h`` a segment is a run of events merged
with their ``h``-point margins, ``[max(s_a - h, 0), min(e_b + h, T - 1)]``:

- TSB-AD's (and vus's) ``new_sequence`` keeps two neighbouring events apart when
  ``e_i + h < s_{i+1} - h``, i.e. ``s_{i+1} - e_i > 2h`` (convention ``"volume"``);
- vus's ``RangeAUC`` takes the runs of non-zero extended labels, which touch and
  merge one point sooner: apart when ``s_{i+1} - e_i > 2h + 1`` (convention ``"runs"``).

A segment is hit from threshold ``min(bin)`` over its points on.  The minimum is
assembled from per-event and per-gap minima and from the running minima of the
first/last ``H`` points of every gap, so each ``h`` costs O(number of events).
"""

from __future__ import annotations

import numpy as np

__all__ = ["SegmentMinima", "segment_minima"]


def _ragged_running_min(bins: np.ndarray, first: np.ndarray, step: int, length: np.ndarray, never: int) -> tuple[np.ndarray, np.ndarray]:
    """Running minima of ``bins`` along ``first[i], first[i] + step, ...`` for ``length[i]`` points each.

    Returns the flat running minima (with one ``never`` appended, so that an empty
    run's offset is still a valid index) and each run's offset into them.
    """
    offsets = np.concatenate(([0], np.cumsum(length)))
    total = int(offsets[-1])
    if total == 0:
        return np.full(1, never, dtype=np.int64), offsets[:-1]
    run = np.repeat(np.arange(length.size, dtype=np.int64), length)
    position = np.arange(total, dtype=np.int64) - offsets[run]
    values = bins[first[run] + step * position]
    # One accumulate over all runs: shifting run i down by i * (never + 1) makes every
    # earlier run's values larger than this run's, so no minimum crosses a run boundary.
    shift = run * (never + 1)
    running = np.minimum.accumulate(values - shift) + shift
    return np.append(running, never), offsets[:-1]


class SegmentMinima:
    """What :meth:`first_hits` needs to find each segment's first threshold at any ``h``."""

    def __init__(self, starts: np.ndarray, last: np.ndarray, bins: np.ndarray, reach: int, never: int) -> None:
        size = bins.shape[0]
        self.starts, self.last, self.never = starts, last, never
        # bins[s_0..e_0], gap 0, bins[s_1..e_1], gap 1, ..., bins[s_{n-1}..e_{n-1}]: min of each piece.
        bounds = np.empty(2 * starts.size, dtype=np.int64)
        bounds[0::2], bounds[1::2] = starts, last + 1
        pieces = np.minimum.reduceat(np.append(bins, never), bounds)[:-1]
        self.pieces = np.append(pieces, never)  # sentinel for reduceat's last index
        before = np.minimum(np.concatenate(([starts[0]], starts[1:] - last[:-1] - 1)), reach)
        after = np.minimum(np.concatenate((starts[1:] - last[:-1] - 1, [size - 1 - last[-1]])), reach)
        self.before_min, self.before_at = _ragged_running_min(bins, starts - 1, -1, before, never)
        self.after_min, self.after_at = _ragged_running_min(bins, last + 1, 1, after, never)
        self.before_len, self.after_len = before, after

    def first_hits(self, h: int, split_gap: int, h_after: int | None = None) -> np.ndarray:
        """First threshold index hitting each segment at half-window ``h``.

        ``split_gap`` is ``2h`` (``"volume"``) or ``2h + 1`` (``"runs"``): events with
        ``s_{i+1} - e_i > split_gap`` start a new segment.  ``h_after`` is the margin
        after a segment's last event when it differs from ``h`` (TimeEval's compatibility mode).
        """
        h_after = h if h_after is None else h_after
        apart = np.flatnonzero(self.starts[1:] - self.last[:-1] > split_gap)
        first = np.concatenate(([0], apart + 1))
        final = np.concatenate((apart, [self.starts.size - 1]))
        bounds = np.empty(2 * first.size, dtype=np.int64)
        bounds[0::2], bounds[1::2] = 2 * first, 2 * final + 1
        inner = np.minimum.reduceat(self.pieces, bounds)[0::2]
        hits = inner
        if h > 0:
            m = np.minimum(self.before_len[first], h)
            left = np.where(m > 0, self.before_min[self.before_at[first] + np.maximum(m - 1, 0)], self.never)
            m = np.minimum(self.after_len[final], h_after)
            right = np.where(m > 0, self.after_min[self.after_at[final] + np.maximum(m - 1, 0)], self.never)
            hits = np.minimum(np.minimum(inner, left), right)
        return hits


def segment_minima(starts: np.ndarray, last: np.ndarray, bins: np.ndarray, reach: int, never: int) -> SegmentMinima:
    """Build the :class:`SegmentMinima` of the events ``[starts, last]`` for half-windows up to ``reach``."""
    return SegmentMinima(starts, last, bins, reach, never)
