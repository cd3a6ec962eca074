"""The sweeping families of the differential mode: ``cardinality``, ``many_events``, ``percent_boundary``.

:mod:`oipr_bench.testing.families` registers them; this module only lays out the events.

``cardinality``
    One event of one series over many events of the other: even pairs put one
    predicted event over ``count`` true events, odd pairs one true event under
    ``count`` predicted events (the reciprocal cardinality factor of RP/RR,
    Tatbul et al. 2018 eq. 7).  The first counts are :data:`CARDINALITY_COUNTS`
    (a counter of 8 bits wraps at 256), fully covered; then ``count`` is
    log-uniform in :data:`CARDINALITY_RANGE` and the one event covers all of them
    or a part.  Series of at most :data:`CARDINALITY_LENGTH` points.
``many_events``
    The same layouts with tens of thousands of events: first :data:`MANY_EVENTS_COUNTS`
    (AM's zones and TaPR's bounds come in blocks of 2^15 events), then log-uniform in
    :data:`MANY_EVENTS_RANGE`; long series.
``percent_boundary``
    Every event length ``n`` in 1 .. :data:`PERCENT_MAX_LENGTH` at the hit counts
    around ``K * n / 100``: ``floor - 1``, ``floor``, ``ceil``, ``ceil + 1`` (so ``K % * n``
    and one either side when it is a whole number), for the reference's ``K`` first and
    then for :data:`PERCENT_EXTRA_K` (0, 100, and 7, whose ``7 * n / 100`` is not exact in
    binary floating point).  The boundaries are computed exactly (``fractions``).  Pair ``i``
    holds sweep entries ``3i .. 3i + 2`` (:data:`EVENTS_PER_PAIR`) while they last, then three
    drawn at random; the hits sit at the start, at the end, or at random points of the event.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

import numpy as np

__all__ = ["CARDINALITY_COUNTS", "CARDINALITY_RANGE", "CARDINALITY_LENGTH", "MANY_EVENTS_COUNTS", "MANY_EVENTS_RANGE",
           "PERCENT_EXTRA_K", "PERCENT_MAX_LENGTH", "EVENTS_PER_PAIR",
           "cardinality_layout", "percent_sweep", "percent_layout"]

Events = list[list[int]]

#: Event counts ``cardinality`` tries first, each in both orientations: an 8-bit counter's wrap.
CARDINALITY_COUNTS: tuple[int, ...] = (255, 256, 257)
#: Range of its log-uniform event counts after those; its series stay within :data:`CARDINALITY_LENGTH`.
CARDINALITY_RANGE: tuple[int, int] = (50, 1000)
CARDINALITY_LENGTH = 4096
#: Event counts ``many_events`` tries first: the 2^15-event blocks of AM's zones and TaPR's bounds.
MANY_EVENTS_COUNTS: tuple[int, ...] = (32767, 32768, 32769)
#: Range of its log-uniform event counts after those (series of any length).
MANY_EVENTS_RANGE: tuple[int, int] = (1000, 10000)
#: Thresholds swept after the reference's own ``K``.
PERCENT_EXTRA_K: tuple[float, ...] = (0, 100, 7)
#: Longest event of the percent sweep.
PERCENT_MAX_LENGTH = 200
#: Events of the sweep in one pair.
EVENTS_PER_PAIR = 3


def _count(rng: np.random.Generator, index: int, max_events: int, many: bool) -> tuple[int, bool]:
    """The event count of pair ``index`` and whether it is one of the fixed counts (always fully covered)."""
    counts, (lo, hi) = (MANY_EVENTS_COUNTS, MANY_EVENTS_RANGE) if many else (CARDINALITY_COUNTS, CARDINALITY_RANGE)
    fixed = [c for c in counts if c <= max_events]
    if index // 2 < len(fixed):
        return fixed[index // 2], True
    lo, hi = min(lo, max_events), min(hi, max_events)
    return int(round(math.exp(rng.uniform(math.log(lo), math.log(hi))))), False


def cardinality_layout(rng: np.random.Generator, index: int, max_events: int,
                       many: bool = False) -> tuple[int, Events, Events]:
    """``(length, y_true events, y_pred events)`` of pair ``index`` of ``cardinality`` (or ``many_events``).

    Parameters
    ----------
    max_events : int
        Most events in one series (at least 1); the fixed counts above it are skipped.
    many : bool
        ``many_events`` (tens of thousands, long series) instead of ``cardinality`` (hundreds,
        at most :data:`CARDINALITY_LENGTH` points).
    """
    count, fixed = _count(rng, index, max(1, max_events), many)
    longest, widest = int(rng.choice([1, 1, 2, 3])), int(rng.choice([1, 2, 4]))
    if not many and count * (longest + widest) + 8 > CARDINALITY_LENGTH:
        longest, widest = 1, max(1, min(widest, (CARDINALITY_LENGTH - 8) // count - 1))
    lengths = rng.integers(1, longest + 1, size=count)
    gaps = rng.integers(1, widest + 1, size=count)
    starts = int(rng.integers(0, 4)) + np.concatenate([[0], np.cumsum(lengths + gaps)[:-1]])
    small: Events = np.column_stack([starts, starts + lengths]).astype(np.int64).tolist()
    first, last = small[0][0] - int(rng.integers(0, 3)), small[-1][1] + int(rng.integers(0, 3))
    how = 0 if fixed else int(rng.integers(0, 4))
    if how == 1:  # starts inside the run of small events
        first = small[int(rng.integers(0, count))][0]
    elif how == 2:  # ends inside it
        last = small[int(rng.integers(0, count))][1]
    big = [[max(0, first), last]]
    length = max(last, small[-1][1]) + int(rng.integers(0, 4))
    return (length, small, big) if index % 2 == 0 else (length, big, small)


@lru_cache(maxsize=8)
def percent_sweep(k: float) -> tuple[tuple[int, int], ...]:
    """The ``(event length, hits)`` entries of ``percent_boundary`` for a reference threshold ``k`` (percent).

    In order: every length 1 .. :data:`PERCENT_MAX_LENGTH` for ``k``, then for each of
    :data:`PERCENT_EXTRA_K`; each length with the hit counts ``floor(x) - 1``, ``floor(x)``,
    ``ceil(x)``, ``ceil(x) + 1`` of ``x = K * n / 100`` (exact) that lie in ``[0, n]``; no entry twice.
    """
    seen: set[tuple[int, int]] = set()
    out: list[tuple[int, int]] = []
    for kk in (k, *(e for e in PERCENT_EXTRA_K if e != k)):
        frac = Fraction(kk)
        for n in range(1, PERCENT_MAX_LENGTH + 1):
            x = frac * n / 100
            for h in sorted({math.floor(x) - 1, math.floor(x), math.ceil(x), math.ceil(x) + 1}):
                if 0 <= h <= n and (n, h) not in seen:
                    seen.add((n, h))
                    out.append((n, h))
    return tuple(out)


def percent_layout(rng: np.random.Generator, index: int, k: float) -> tuple[int, Events, Events]:
    """``(length, y_true events, y_pred events)`` of pair ``index`` of ``percent_boundary``."""
    sweep = percent_sweep(float(k))
    lo = index * EVENTS_PER_PAIR
    if lo + EVENTS_PER_PAIR <= len(sweep):
        chosen = list(sweep[lo:lo + EVENTS_PER_PAIR])
    else:
        chosen = [sweep[int(i)] for i in rng.integers(0, len(sweep), size=EVENTS_PER_PAIR)]
    true: Events = []
    pred: Events = []
    t = int(rng.integers(0, 4))
    for n, hits in chosen:
        true.append([t, t + n])
        where = int(rng.integers(0, 3))
        out = int(rng.integers(0, 3)) if rng.random() < 0.3 else 0  # a prediction running past the event
        if hits and where == 0:
            pred.append([t - out, t + hits])
        elif hits and where == 1:
            pred.append([t + n - hits, t + n + out])
        elif hits:
            pred += [[t + int(p), t + int(p) + 1] for p in np.sort(rng.choice(n, size=hits, replace=False))]
        t += n + 3 + int(rng.integers(0, 4))
    return t + int(rng.integers(0, 4)), true, pred
