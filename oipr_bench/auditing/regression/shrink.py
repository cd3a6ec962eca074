"""Shrinking a counterexample of a differential run, within a time budget.

A differential run (:mod:`oipr_bench.auditing.regression.differential`) finds a pair
``(y_true, y_pred)`` on which two evaluators disagree; :func:`shrink` makes it
smaller while they still disagree: fewer events, fewer points, shorter events.
It works on event lists (half-open ``[start, end)``, paper Sec. III-A), greedily:
the first smaller candidate that still fails replaces the pair, and the search
starts again from it; it stops when no candidate fails (``finished``) or when
the budget runs out (then it returns the smallest pair reached).

Every candidate is strictly smaller in ``length + events + event points``, so
the search ends.  The candidates, most reducing first:

1. drop one event of ``y_true`` or ``y_pred``;
2. cut the points before the first event and after the last one;
3. shorten each gap between events (to half, to one point);
4. shorten each event (to its first or last point, to either half, by one point at either end);
5. delete a block of points (half the series, a quarter, ... one point;
   at most :data:`POSITIONS` positions per block size).
"""

from __future__ import annotations

import time
from typing import Callable, Iterator, NamedTuple

__all__ = ["Pair", "ShrinkOutcome", "shrink", "delete_points", "normal", "POSITIONS"]

Events = list[list[int]]

#: Most positions tried for one block size in the point deletions (evenly spread).
POSITIONS = 16


class Pair(NamedTuple):
    """A series pair as event lists: ``length`` points, ``y_true_events``, ``y_pred_events``."""

    length: int
    y_true_events: Events
    y_pred_events: Events

    def size(self) -> int:
        """``length + events + event points``: every shrinking step makes it smaller."""
        return self.length + sum(len(ev) + sum(e - s for s, e in ev) for ev in (self.y_true_events, self.y_pred_events))


class ShrinkOutcome(NamedTuple):
    """What :func:`shrink` reached: the pair, steps taken, candidates tried, seconds, and whether it finished."""

    pair: Pair
    steps: int
    tried: int
    seconds: float
    finished: bool


def normal(events: Events, length: int) -> Events:
    """Events clipped to ``[0, length)``, empty ones dropped, touching or overlapping ones merged."""
    out: Events = []
    for s, e in sorted([max(0, s), min(e, length)] for s, e in events):
        if s >= e:
            continue
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def delete_points(pair: Pair, a: int, b: int) -> Pair:
    """``pair`` with the points ``[a, b)`` removed from both series (later points move left)."""
    width = b - a

    def moved(x: int) -> int:
        return x if x <= a else (a if x <= b else x - width)

    length = pair.length - width
    return Pair(length, *(normal([[moved(s), moved(e)] for s, e in ev], length)
                          for ev in (pair.y_true_events, pair.y_pred_events)))


def _with(pair: Pair, which: int, events: Events) -> Pair:
    t, p = pair.y_true_events, pair.y_pred_events
    return Pair(pair.length, *( (normal(events, pair.length), p) if which == 0 else (t, normal(events, pair.length)) ))


def _drops(pair: Pair) -> Iterator[Pair]:
    for which, ev in enumerate((pair.y_true_events, pair.y_pred_events)):
        for i in range(len(ev)):
            yield _with(pair, which, ev[:i] + ev[i + 1:])


def _bounds(pair: Pair) -> list[int]:
    """Every event bound of both series, sorted."""
    return sorted({x for ev in (pair.y_true_events, pair.y_pred_events) for s, e in ev for x in (s, e)})


def _gap_cuts(pair: Pair) -> Iterator[Pair]:
    bounds = _bounds(pair)
    if not bounds:
        if pair.length > 1:
            yield Pair(1, [], [])
        return
    if bounds[0] > 0:
        yield delete_points(pair, 0, bounds[0])
    if bounds[-1] < pair.length:
        yield delete_points(pair, bounds[-1], pair.length)
    for a, b in zip(bounds, bounds[1:]):
        if b - a > 1:
            yield delete_points(pair, a + 1, b)
            if b - a > 3:
                yield delete_points(pair, a + (b - a) // 2, b)


def _block_cuts(pair: Pair) -> Iterator[Pair]:
    width = pair.length // 2
    while width >= 1:
        slots = (pair.length - width) // width + 1
        step = max(1, slots // POSITIONS)
        for k in range(0, slots, step):
            if pair.length - width >= 1:
                yield delete_points(pair, k * width, k * width + width)
        width //= 2


def _shortenings(pair: Pair) -> Iterator[Pair]:
    for which, ev in enumerate((pair.y_true_events, pair.y_pred_events)):
        for i, (s, e) in enumerate(ev):
            if e - s < 2:
                continue
            for short in ([s, s + 1], [e - 1, e], [s, s + (e - s) // 2], [s + (e - s) // 2, e], [s + 1, e], [s, e - 1]):
                yield _with(pair, which, ev[:i] + [short] + ev[i + 1:])


def candidates(pair: Pair) -> Iterator[Pair]:
    """Smaller pairs to try, most reducing first (see the module docstring)."""
    size = pair.size()
    for maker in (_drops, _gap_cuts, _shortenings, _block_cuts):
        for cand in maker(pair):
            if cand.length >= 1 and cand.size() < size:
                yield cand


def shrink(pair: Pair, fails: Callable[[Pair], bool], budget: float) -> ShrinkOutcome:
    """The smallest pair reached from ``pair`` on which ``fails`` stays true, within ``budget`` seconds.

    Parameters
    ----------
    pair : Pair
        A failing pair (``fails(pair)`` is true).
    fails : callable
        ``fails(candidate) -> bool``: do the two evaluators still disagree?
    budget : float
        Seconds; checked before every candidate (a single slow call is not interrupted).

    Returns
    -------
    ShrinkOutcome
        ``finished`` is False when the budget ran out before no smaller candidate failed.
    """
    start = time.perf_counter()
    steps = tried = 0
    while True:
        for cand in candidates(pair):
            if time.perf_counter() - start > budget:
                return ShrinkOutcome(pair, steps, tried, time.perf_counter() - start, False)
            tried += 1
            if fails(cand):
                pair, steps = cand, steps + 1
                break
        else:
            return ShrinkOutcome(pair, steps, tried, time.perf_counter() - start, True)
