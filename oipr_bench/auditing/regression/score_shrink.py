"""Shrinking a counterexample of a score evaluator's differential run, within a time budget.

A case is ``(y_true, scores)`` (:class:`oipr_bench.testing.score_families.ScoreCase`).
:func:`shrink_case` greedily replaces it with the first smaller candidate on which the two
evaluators still disagree, and starts again from there, until no candidate fails
(``finished``) or the budget runs out.  The candidates, most reducing first:

1. fewer distinct score values: every value rounded down to every other distinct value,
   then two neighbouring distinct values merged;
2. one anomalous event fewer (its points become normal; one event always stays);
3. the points before the first event and after the last one cut (one normal point stays);
4. a block of points deleted (half the series, a quarter, ... one point; at most
   :data:`POSITIONS` positions per size);
5. an event shortened by one point at either end;
6. the scores replaced by their ranks ``0, 1, 2, ...`` (same order, simpler numbers).

Every candidate is strictly smaller in ``length + events + event points + distinct values``
(or equal there and integer-valued where the case was not), so the search ends.
"""

from __future__ import annotations

from typing import Callable, Iterator, NamedTuple

import numpy as np

from ...scenarios.events import events_list, from_events
from ...testing.score_families import ScoreCase
from .shrink import Budget

__all__ = ["ScoreShrinkOutcome", "shrink_case", "case_size", "POSITIONS"]

#: Most positions tried for one block size, and most value merges tried per round.
POSITIONS = 16


class ScoreShrinkOutcome(NamedTuple):
    """What :func:`shrink_case` reached: the case, steps taken, candidates tried, seconds, whether it finished,
    and whether the budget ran out during a call, which was abandoned."""

    case: ScoreCase
    steps: int
    tried: int
    seconds: float
    finished: bool
    abandoned: bool = False


def case_size(case: ScoreCase) -> tuple[int, int]:
    """``(length + events + event points + distinct values, 1 if any score is not a whole number)``."""
    scores = np.asarray(case.scores)
    points = sum(e - s for s, e in case.y_true_events)
    whole = bool(np.all(scores == np.round(scores)))
    return case.length + len(case.y_true_events) + points + np.unique(scores).size, 0 if whole else 1


def _make(case: ScoreCase, y: np.ndarray, scores: np.ndarray) -> ScoreCase | None:
    """A candidate from arrays, or None when it lost a class."""
    if y.size == 0 or not y.any() or y.all():
        return None
    return ScoreCase(case.family, case.index, int(y.size), events_list(y), tuple(float(v) for v in scores))


def _fewer_values(case: ScoreCase, y: np.ndarray, s: np.ndarray) -> Iterator[ScoreCase | None]:
    values = np.unique(s)
    if values.size < 2:
        return
    rank = np.searchsorted(values, s)
    yield _make(case, y, values[rank - rank % 2])  # every other distinct value
    step = max(1, (values.size - 1) // POSITIONS)
    for k in range(0, values.size - 1, step):
        merged = s.copy()
        merged[s == values[k + 1]] = values[k]
        yield _make(case, y, merged)


def _fewer_events(case: ScoreCase, y: np.ndarray, s: np.ndarray) -> Iterator[ScoreCase | None]:
    if len(case.y_true_events) < 2:
        return
    for start, end in case.y_true_events:
        fewer = y.copy()
        fewer[start:end] = 0
        yield _make(case, fewer, s)


def _cuts(case: ScoreCase, y: np.ndarray, s: np.ndarray) -> Iterator[ScoreCase | None]:
    first, last = case.y_true_events[0][0], case.y_true_events[-1][1]
    if first > 1:
        yield _make(case, y[first - 1:], s[first - 1:])
    if last < case.length - 1:
        yield _make(case, y[:last + 1], s[:last + 1])
    width = case.length // 2
    while width >= 1:
        slots = (case.length - width) // width + 1
        for k in range(0, slots, max(1, slots // POSITIONS)):
            keep = np.r_[0:k * width, k * width + width:case.length]
            yield _make(case, y[keep], s[keep])
        width //= 2


def _small_steps(case: ScoreCase, y: np.ndarray, s: np.ndarray) -> Iterator[ScoreCase | None]:
    for start, end in case.y_true_events:
        if end - start >= 2:
            for point in (start, end - 1):
                shorter = y.copy()
                shorter[point] = 0
                yield _make(case, shorter, s)
    yield _make(case, y, np.searchsorted(np.unique(s), s).astype(np.float64))


def candidates(case: ScoreCase) -> Iterator[ScoreCase]:
    """Smaller cases to try, most reducing first (see the module docstring)."""
    size = case_size(case)
    y, s = from_events(case.y_true_events, case.length), np.asarray(case.scores, dtype=np.float64)
    for maker in (_fewer_values, _fewer_events, _cuts, _small_steps):
        for cand in maker(case, y, s):
            if cand is not None and case_size(cand) < size:
                yield cand


def shrink_case(case: ScoreCase, fails: Callable[[ScoreCase], bool], budget: float,
                seconds_per_point: float | None = None) -> ScoreShrinkOutcome:
    """The smallest case reached from ``case`` on which ``fails`` stays true, within ``budget`` seconds.

    ``budget`` bounds wall time as in :func:`oipr_bench.auditing.regression.shrink.shrink`: a
    candidate starts only when its expected cost (``seconds_per_point``, then the slowest rate
    seen, times its length) fits in what is left, and each call of ``fails`` runs in a daemon thread
    under what is left; a call still running when the budget runs out is abandoned (``abandoned``:
    ``fails`` must not be called again) and the case reached is returned.
    """
    clock = Budget(budget, seconds_per_point)
    steps = tried = 0
    while True:
        for cand in candidates(case):
            if not clock.fits(cand.length):
                return ScoreShrinkOutcome(case, steps, tried, clock.elapsed(), False, clock.abandoned)
            tried += 1
            failed = clock.call(fails, cand, cand.length)
            if clock.abandoned:
                return ScoreShrinkOutcome(case, steps, tried, clock.elapsed(), False, True)
            if failed:
                case, steps = cand, steps + 1
                break
        else:
            return ScoreShrinkOutcome(case, steps, tried, clock.elapsed(), True)
