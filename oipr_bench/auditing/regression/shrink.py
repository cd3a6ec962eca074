"""Shrinking a counterexample of a differential run, within a time budget.

A differential run (:mod:`oipr_bench.auditing.regression.differential`) finds a pair
``(y_true, y_pred)`` on which two evaluators disagree; :func:`shrink` makes it
smaller while they still disagree: fewer points, fewer events, shorter events.
It works on event lists (half-open ``[start, end)``, paper Sec. III-A), greedily:
the first smaller candidate that still fails (twice: it is called again before it is
kept, so a non-deterministic evaluator misleads it less) replaces the pair, and the
search goes on from it (from the move that succeeded if it shortened the series, else
from the first); it stops when no candidate fails (``finished``) or when
the budget runs out (then it returns the smallest pair reached).

The budget bounds wall time, up to :data:`BUDGET_SLACK`: every call of ``fails`` runs in a daemon
thread and is waited for only as long as the budget has left (:func:`~oipr_bench.auditing.calling.deadline.call_within`);
a call still running then is abandoned (``abandoned`` in the outcome) and the caller must not call
the evaluator again (its state after an abandoned call is not trusted).  A candidate whose expected
cost (the slowest seconds per point seen, times its length) does not fit in what is left is not
started (:func:`fits_in_budget`): the budget then ends with no abandoned call.

Every candidate is strictly smaller in ``(length, events, event points)``, compared in
that order (:meth:`Pair.key`), so the search ends.  The candidates, most reducing first:

1. whole-series moves: every event of one series shortened to its first point; every
   event of one series merged into one block (filled, or packed: the same number of
   points from the first start); every gap between event bounds cut to one point, and the
   points before the first bound and after the last cut, all at once;
2. drop a chunk of events of one series (half of them, a quarter, ... at most
   :data:`POSITIONS` chunks per size), then every single event (in a series of more than
   :data:`MANY` events, the single-event moves here and below take :data:`SPREAD` evenly
   spread events: one pass stays short, and the chunks and whole-series moves do the bulk);
3. merge two adjacent events of one series: fill the gap between them, or pack them
   into one event of their summed length (the points stay, the pieces go);
4. cut the points before the first event and after the last one, and each gap
   between event bounds (to one point, to half);
5. shorten two stretches between event bounds together, by one point or by half the
   shorter (a ratio, or a position relative to a midpoint, survives only when two
   gaps shrink together); every pair when there are at most :data:`JOINT_ALL`
   stretches, else neighbours up to :data:`JOINT_REACH` apart;
6. shorten each event (to its first or last point, to either half, by one point at either end);
7. delete a block of points (half the series, a quarter, ... one point;
   at most :data:`POSITIONS` positions per block size).
"""

from __future__ import annotations

import time
from typing import Callable, Iterator, NamedTuple

from ..calling.deadline import call_within

__all__ = ["Pair", "ShrinkOutcome", "shrink", "fits_in_budget", "delete_points", "normal", "candidates", "MAKERS", "POSITIONS", "JOINT_ALL",
           "JOINT_REACH", "MANY", "SPREAD", "BUDGET_SLACK", "Budget"]

#: Seconds a shrink may run past its budget: making the next candidate after the last look at the clock,
#: and the wake-up of the wait for an abandoned call.
BUDGET_SLACK = 0.5

Events = list[list[int]]

#: Most positions tried for one block size in the point deletions (evenly spread), and most chunks per size.
POSITIONS = 16
#: Up to this many stretches between event bounds, every two of them are shortened together.
JOINT_ALL = 40
#: Beyond :data:`JOINT_ALL` stretches, only stretches at most this far apart are shortened together.
JOINT_REACH = 2
#: A series with more events than this gets its single-event moves (drop, merge, shorten, joint) at
#: :data:`SPREAD` evenly spread events only, so that one pass over the candidates stays short.
MANY = 64
SPREAD = 32


class Pair(NamedTuple):
    """A series pair as event lists: ``length`` points, ``y_true_events``, ``y_pred_events``."""

    length: int
    y_true_events: Events
    y_pred_events: Events

    def size(self) -> int:
        """``length + events + event points``: how big a counterexample is, as one number."""
        return self.length + sum(len(ev) + sum(e - s for s, e in ev) for ev in (self.y_true_events, self.y_pred_events))

    def key(self) -> tuple[int, int, int]:
        """``(length, events, event points)``: every shrinking step makes it smaller (compared in order)."""
        evs = (self.y_true_events, self.y_pred_events)
        return self.length, sum(map(len, evs)), sum(e - s for ev in evs for s, e in ev)


class ShrinkOutcome(NamedTuple):
    """What :func:`shrink` reached: the pair, steps taken, candidates tried, seconds, whether it finished,
    the pairs it kept on the way (the starting pair first, the reached pair last), and whether the budget
    ran out during a call, which was abandoned."""

    pair: Pair
    steps: int
    tried: int
    seconds: float
    finished: bool
    path: tuple[Pair, ...] = ()
    abandoned: bool = False


class Budget:
    """A shrink's clock: ``seconds`` from now, and the slowest cost per point seen by its calls.

    :meth:`call` runs one call of ``fails`` under what is left (:func:`call_within`); after a call
    was abandoned, ``abandoned`` is True and no further call is made.
    """

    def __init__(self, seconds: float, seconds_per_point: float | None = None) -> None:
        self.start, self.seconds = time.perf_counter(), float(seconds)
        self.rate = seconds_per_point or 0.0
        self.abandoned = False

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def fits(self, length: int) -> bool:
        """Whether a call on ``length`` points may start (:func:`fits_in_budget`, nothing after an abandoned call)."""
        return not self.abandoned and fits_in_budget(self.elapsed(), self.rate * length, self.seconds)

    def call(self, fails: Callable, cand: object, length: int) -> bool | None:
        """``fails(cand)`` under the budget left; None when it was abandoned."""
        if self.abandoned:
            return None
        called = time.perf_counter()
        done, failed = call_within(fails, cand, self.seconds - self.elapsed())
        if not done:
            self.abandoned = True
            return None
        self.rate = max(self.rate, (time.perf_counter() - called) / max(length, 1))
        return bool(failed)


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
    return delete_spans(pair, [(a, b)])


def delete_spans(pair: Pair, spans: list[tuple[int, int]]) -> Pair:
    """``pair`` with every span ``[a, b)`` of ``spans`` (disjoint) removed from both series at once."""
    spans = sorted((a, b) for a, b in spans if b > a)

    def moved(x: int) -> int:
        shift = 0
        for a, b in spans:
            if x <= a:
                break
            shift += min(x, b) - a
        return x - shift

    length = pair.length - sum(b - a for a, b in spans)
    return Pair(length, *(normal([[moved(s), moved(e)] for s, e in ev], length)
                          for ev in (pair.y_true_events, pair.y_pred_events)))


def _with(pair: Pair, which: int, events: Events) -> Pair:
    t, p = pair.y_true_events, pair.y_pred_events
    return Pair(pair.length, *((normal(events, pair.length), p) if which == 0 else (t, normal(events, pair.length))))


def _spread(n: int) -> list[int]:
    """``range(n)``, or :data:`SPREAD` evenly spread indices of it when ``n`` exceeds :data:`MANY`."""
    if n <= MANY:
        return list(range(n))
    return sorted({round(k * (n - 1) / (SPREAD - 1)) for k in range(SPREAD)})


def _series(pair: Pair) -> Iterator[tuple[int, Events]]:
    yield 0, pair.y_true_events
    yield 1, pair.y_pred_events


def _drops(pair: Pair) -> Iterator[Pair]:
    for which, ev in _series(pair):
        width = len(ev) // 2
        while width >= 2:
            slots = len(ev) // width
            for k in range(0, slots, max(1, slots // POSITIONS)):
                yield _with(pair, which, ev[:k * width] + ev[k * width + width:])
            width //= 2
        for i in _spread(len(ev)):
            yield _with(pair, which, ev[:i] + ev[i + 1:])


def _packed(events: Events) -> list[int]:
    """One event of the summed length of ``events``, from the first start."""
    s = events[0][0]
    return [s, s + sum(e - b for b, e in events)]


def _whole(pair: Pair) -> Iterator[Pair]:
    for which, ev in _series(pair):
        if any(e - s > 1 for s, e in ev):
            yield _with(pair, which, [[s, s + 1] for s, _ in ev])
        if len(ev) > 1:
            yield _with(pair, which, [[ev[0][0], ev[-1][1]]])
            yield _with(pair, which, [_packed(ev)])
    bounds = _bounds(pair)
    spans = [(a + 1, b) for a, b in zip(bounds, bounds[1:]) if b - a > 1]
    if bounds:  # and the points before the first bound and after the last
        spans += [(0, bounds[0]), (bounds[-1], pair.length)]
    if len([a for a, b in spans if b > a]) > 1:
        yield delete_spans(pair, spans)


def _merges(pair: Pair) -> Iterator[Pair]:
    for which, ev in _series(pair):
        for i in _spread(len(ev) - 1):
            yield _with(pair, which, ev[:i] + [[ev[i][0], ev[i + 1][1]]] + ev[i + 2:])
            yield _with(pair, which, ev[:i] + [_packed(ev[i:i + 2])] + ev[i + 2:])


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


def _joint(pair: Pair) -> Iterator[Pair]:
    """Two stretches between consecutive bounds (``0``, every event bound, ``length``) shortened together."""
    cuts = sorted({0, pair.length, *_bounds(pair)})
    stretches = list(zip(cuts, cuts[1:]))
    reach = len(stretches) if len(stretches) <= JOINT_ALL else JOINT_REACH
    for i in _spread(len(stretches)) if len(stretches) > JOINT_ALL else range(len(stretches)):
        a1, b1 = stretches[i]
        for a2, b2 in stretches[i + 1:i + 1 + reach]:
            half = min(b1 - a1, b2 - a2) // 2
            for by in sorted({1, half} - {0}, reverse=True):
                yield delete_spans(pair, [(b1 - by, b1), (b2 - by, b2)])


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
    for which, ev in _series(pair):
        for i in _spread(len(ev)):
            s, e = ev[i]
            if e - s < 2:
                continue
            for short in ([s, s + 1], [e - 1, e], [s, s + (e - s) // 2], [s + (e - s) // 2, e], [s + 1, e], [s, e - 1]):
                yield _with(pair, which, ev[:i] + [short] + ev[i + 1:])


MAKERS = (_whole, _drops, _merges, _gap_cuts, _joint, _shortenings, _block_cuts)


def candidates(pair: Pair, first: int = 0) -> Iterator[tuple[int, Pair]]:
    """Smaller pairs to try, most reducing first (see the module docstring), each once, with the number
    of the move that made them; from move ``first`` on."""
    key = pair.key()
    seen: set[tuple] = set()
    for number, maker in enumerate(MAKERS[first:], start=first):
        for cand in maker(pair):
            if cand.length >= 1 and cand.key() < key:
                ident = (cand.length, tuple(map(tuple, cand.y_true_events)), tuple(map(tuple, cand.y_pred_events)))
                if ident not in seen:
                    seen.add(ident)
                    yield number, cand


def fits_in_budget(elapsed: float, expected: float, budget: float) -> bool:
    """Whether a call expected to take ``expected`` seconds may start after ``elapsed`` of ``budget`` seconds."""
    return elapsed + expected <= budget


def shrink(pair: Pair, fails: Callable[[Pair], bool], budget: float, *, confirm: int = 1,
           seconds_per_point: float | None = None) -> ShrinkOutcome:
    """The smallest pair reached from ``pair`` on which ``fails`` stays true, within ``budget`` seconds.

    After a move shortens the series the next pass starts at that move (the earlier ones failed
    on a longer pair a moment ago); after any other move it starts from the top.  Only a full pass
    in which no move succeeds ends the search.

    Parameters
    ----------
    pair : Pair
        A failing pair (``fails(pair)`` is true).
    fails : callable
        ``fails(candidate) -> bool``: do the two evaluators still disagree?  Called in a daemon thread.
    budget : float
        Seconds: a bound on wall time, up to :data:`BUDGET_SLACK`.  A candidate is started only when
        its expected cost fits in what is left (:func:`fits_in_budget`); a call still running when the
        budget runs out is abandoned (``abandoned`` in the outcome), and the pair reached is returned.
    confirm : int, default 1
        Further calls of ``fails`` a candidate must pass before it is kept.
    seconds_per_point : float, optional
        The cost of one call per point of the series, as measured on ``pair`` by the caller; the
        slowest rate seen since is used after the first call.

    Returns
    -------
    ShrinkOutcome
        ``finished`` is False when the budget ran out before no smaller candidate failed;
        ``path`` holds every pair kept, ``pair`` first; ``abandoned`` says a call was abandoned (then
        ``fails`` must not be called again: the evaluator's state is not trusted).
    """
    clock = Budget(budget, seconds_per_point)
    steps = tried = first = 0
    path = [pair]

    def stop(finished: bool) -> ShrinkOutcome:
        return ShrinkOutcome(pair, steps, tried, clock.elapsed(), finished, tuple(path), clock.abandoned)

    while True:
        for number, cand in candidates(pair, first):
            if not clock.fits(cand.length):
                return stop(False)
            tried += 1
            if clock.call(fails, cand, cand.length) and all(clock.call(fails, cand, cand.length) for _ in range(confirm)):
                # a shorter series: go on with the move that made it; else start again from the top
                pair, steps, first = cand, steps + 1, (number if cand.length < pair.length else 0)
                path.append(pair)
                break
            if clock.abandoned:
                return stop(False)
        else:
            if first == 0:
                return stop(True)
            first = 0
