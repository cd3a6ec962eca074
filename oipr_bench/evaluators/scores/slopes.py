"""The sloped labels around each event, as counts per (distance, second distance, bin).

TSB-AD's ``sequencing`` (and vus's ``extend_postive_range``) extend the labels of
window ``w`` past each event ``[s, e]`` (inclusive ``e``): a normal point at distance
``d = 1 .. w // 2`` after ``e`` or before ``s`` gains ``sqrt(1 - d / w)``; the gains
of all events add up and the sum is capped at 1.

Every gain is at least ``sqrt(1 - (w // 2) / w) >= sqrt(1/2)``, so two gains already
pass the cap.  A normal point's label at window ``w`` (``h = w // 2``) is therefore
fixed by its two smallest event distances ``d1 <= d2``:

- 0 when ``h < d1``;
- ``sqrt(1 - d1 / w)`` when ``d1 <= h < d2`` (one event reaches it);
- 1 when ``d2 <= h`` (two or more reach it).

The authors' earlier ``extend_postive_range`` (kept by TimeEval's ``compatibility_mode``)
starts the slope after an event at the event's last point, so it reaches only
``d = 1 .. w // 2 - 1`` points after an event (``right_short``): a distance after an event
then counts as ``d + 1`` for reach, while the gain still uses ``d``.

:func:`slope_counts` counts the normal points by ``(d1, min(d2, H + 1), bin)`` in
blocks of points, so memory stays proportional to the block and to the number of
distinct triples, not to ``T * windows``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["slope_counts", "SlopeCounts", "BLOCK"]

#: Points handled at once when measuring distances.
BLOCK = 1 << 16


class SlopeCounts:
    """Normal points within ``H`` of an event, grouped by ``(d1, d2c, bin)``.

    Attributes
    ----------
    d1, d2c, bins, count : ndarray of int64
        One entry per distinct triple: the nearest event distance (as counted for
        reach), the second nearest capped at ``H + 1``, the threshold bin, and how
        many points share them; sorted by ``d1``.
    gain_d : ndarray of int64
        The distance the gain ``sqrt(1 - d / w)`` uses: ``d1``, or ``d1 - 1`` when the
        nearest event lies before the point and ``right_short`` is set.
    """

    def __init__(self, d1: np.ndarray, d2c: np.ndarray, gain_d: np.ndarray, bins: np.ndarray, count: np.ndarray) -> None:
        self.d1, self.d2c, self.gain_d, self.bins, self.count = d1, d2c, gain_d, bins, count


def _block_keys(t: np.ndarray, starts_pad: np.ndarray, last_pad: np.ndarray, bins: np.ndarray, reach: int, n_bins: int,
                right_short: int) -> np.ndarray:
    """Keys ``((d1 * (reach + 2) + d2c) * 2 + after) * n_bins + bin`` of the normal points of block ``t`` within ``reach``.

    ``after`` is 1 when the nearest event lies before the point.
    """
    k = np.searchsorted(starts_pad[:-2], t, side="right")  # events starting at or before t
    d_after_prev = t - last_pad[k + 1]      # distance to the end of the event before t
    normal = d_after_prev > 0               # t lies after the previous event, not inside it
    d_after_prev += right_short
    d_after_prev2 = t - last_pad[k] + right_short  # ... to the end of the one before that
    d_before_next = starts_pad[k] - t       # distance to the start of the next event
    d_before_next2 = starts_pad[k + 1] - t
    d1 = np.minimum(d_after_prev, d_before_next)
    d2 = np.minimum(np.maximum(d_after_prev, d_before_next), np.minimum(d_after_prev2, d_before_next2))
    keep = normal & (d1 <= reach)
    d2c = np.minimum(d2[keep], reach + 1)
    after = (d_after_prev[keep] < d_before_next[keep]).astype(np.int64)
    return ((d1[keep] * (reach + 2) + d2c) * 2 + after) * n_bins + bins[t[keep]]


def slope_counts(starts: np.ndarray, last: np.ndarray, bins: np.ndarray, reach: int, n_bins: int,
                 right_short: bool = False) -> SlopeCounts:
    """Count the normal points within ``reach`` (``H``) of an event by ``(d1, d2c, bin)``.

    Parameters
    ----------
    starts, last : ndarray of int64
        First and last (inclusive) index of each event, increasing; at least one event.
    bins : ndarray of int64, shape (T,)
        Threshold bin of each point (:func:`.bins.threshold_bins`).
    reach : int
        Largest half-window ``H = W // 2`` that will be asked for.
    n_bins : int
        Number of bins (thresholds + 1).
    right_short : bool, default False
        The slope after an event reaches one point less (see the module notes).
    """
    size = bins.shape[0]
    far = 4 * (size + reach + 2)
    starts_pad = np.concatenate((starts, [far, far]))
    last_pad = np.concatenate(([-far, -far], last))
    keys, counts = [], []
    if reach > 0:
        for b0 in range(0, size, BLOCK):
            t = np.arange(b0, min(b0 + BLOCK, size), dtype=np.int64)
            k, c = np.unique(_block_keys(t, starts_pad, last_pad, bins, reach, n_bins, int(right_short)), return_counts=True)
            keys.append(k)
            counts.append(c)
    if not keys:
        keys, counts = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)]
    unique, where = np.unique(np.concatenate(keys), return_inverse=True)
    count = np.bincount(where.ravel(), weights=np.concatenate(counts), minlength=unique.size).astype(np.int64)
    rest, b = np.divmod(unique, n_bins)
    pair, after = np.divmod(rest, 2)
    d1, d2c = np.divmod(pair, reach + 2)
    return SlopeCounts(d1, d2c, d1 - after * int(right_short), b, count)
