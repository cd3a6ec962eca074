"""Named families of generated ``(y_true, scores)`` cases, for differential runs of score evaluators.

The score evaluators (AUC-ROC, AUC-PR, R-AUC, VUS; :data:`oipr_bench.evaluators.SCORE_NAMES`)
take real scores, so their bugs hide in other places than the binary evaluators': ties
between scores, plateaus, values closer than float32 resolves, a single distinct value,
the sampled threshold grid, events at the series ends and the window's edges.  Each family
aims at one of them (:data:`SCORE_FAMILIES`):

``random_scores``
    2 to 200 points, events of random lengths and density, noise scores with a bump on events.
``rank_ties``
    Scores drawn from 2 to 6 distinct values: many ties, across and within events.
``plateaus``
    Scores constant over runs of 1 to 12 points (in half the cases also across event bounds).
``near_ties``
    Scores ``c + k * 1e-12`` for small integers ``k``: distinct in float64, equal in float32.
``one_value``
    Every score the same.
``boundary_events``
    Events touching index 0, the last index, or both.
``window_edges``
    Events shorter and longer than the window ``W`` of the reference, and neighbours whose
    gap (``s_next - e_last``) is ``2h - 1`` to ``2h + 2`` for half-windows ``h`` up to ``W // 2``,
    where slopes meet, overlap and segments merge.
``long_series``
    Lengths just below, at and above the range kernel's point block (:data:`BLOCK`) and twice
    it, then log-uniform up to four blocks; a few events, some straddling a block edge.

Every fourth case (``i % 4 == 3``) of every family but ``long_series`` is longer than the
reference's threshold count ``n`` (``thresholds``, 250 by default): ``n + 1`` to ``2 n`` points
(``window_edges``: normal points after its events up to that length), so that every family meets a
sampled threshold grid that skips ranks (a grid of 249 instead of 250 thresholds differs only
there), and a difference found there shrinks to a few hundred points, not thousands.

Every case is derandomized: case ``i`` of family ``f`` comes from
``numpy.random.default_rng([seed, SCORE_FAMILIES.index(f), i])``.  Every case holds at
least one anomalous and one normal point (the score evaluators reject anything else).
"""

from __future__ import annotations

import math
from typing import Iterator, NamedTuple

import numpy as np

from ..evaluators.scores.slopes import BLOCK
from ..scenarios.events import events_list, from_events

__all__ = ["SCORE_FAMILIES", "ScoreCase", "score_cases", "make_score_case", "BLOCK", "LONGER_EVERY",
           "DEFAULT_THRESHOLDS"]

#: Every ``LONGER_EVERY``-th case of a short family is longer than the threshold count.
LONGER_EVERY = 4
#: The threshold count the families aim at when the reference samples none (AUC-ROC, AUC-PR): VUS's default.
DEFAULT_THRESHOLDS = 250

SCORE_FAMILIES: tuple[str, ...] = ("random_scores", "rank_ties", "plateaus", "near_ties", "one_value",
                                   "boundary_events", "window_edges", "long_series")

Events = list[list[int]]


class ScoreCase(NamedTuple):
    """One generated input: ``length`` points, the anomalous events, the scores.

    Attributes
    ----------
    family : str
    index : int
        Position in the family (rebuild it alone with :func:`make_score_case`).
    length : int
    y_true_events : list of [start, end]
        Half-open, sorted, separated by at least one normal point.
    scores : tuple of float
    """

    family: str
    index: int
    length: int
    y_true_events: Events
    scores: tuple[float, ...]

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """``(y_true, scores)`` as an int8 and a float64 array."""
        return from_events(self.y_true_events, self.length), np.array(self.scores, dtype=np.float64)


def _walk_events(rng: np.random.Generator, length: int) -> Events:
    density = float(rng.uniform(0.05, 0.6))
    mean_len = float(rng.choice([1, 2, 3, 5, 8, 13]))
    mean_gap = max(1.0, mean_len * (1 - density) / density)
    events: Events = []
    t = int(rng.integers(0, 3)) * int(rng.geometric(1.0 / (mean_gap + 1.0)))
    while t < length:
        end = min(t + int(rng.geometric(1.0 / mean_len)), length)
        events.append([t, end])
        t = end + int(rng.geometric(1.0 / mean_gap))
    return events


def _both_classes(events: Events, length: int, rng: np.random.Generator) -> Events:
    """``events`` with at least one event and one normal point."""
    y = from_events(events, length)
    if not y.any():
        y[int(rng.integers(0, length))] = 1
    if y.all():
        y[int(rng.integers(0, length))] = 0
    return events_list(y)


def _noise_scores(rng: np.random.Generator, y: np.ndarray) -> np.ndarray:
    return rng.normal(0.0, 1.0, y.shape[0]) + float(rng.uniform(0, 2)) * y


def _window_events(rng: np.random.Generator, window: int) -> tuple[Events, int]:
    """Events around the window's edges: lengths and gaps near ``w // 2`` and ``2h`` for ``h <= W // 2``."""
    reach = max(1, window // 2)
    events: Events = []
    t = int(rng.integers(0, reach + 2))
    for _ in range(int(rng.integers(2, 6))):
        length = int(rng.choice([1, 2, max(1, window - 1), window, window + 1, 2 * window + 1]))
        events.append([t, t + length])
        h = int(rng.integers(0, reach + 1))
        t += length - 1 + max(2, 2 * h + int(rng.integers(-1, 3)))  # gap s_next - e_last in 2h - 1 .. 2h + 2
    size = t + int(rng.integers(0, reach + 2))
    return events, max(size, events[-1][1])


def _scores_for(family: str, rng: np.random.Generator, y: np.ndarray) -> np.ndarray:
    size = y.shape[0]
    if family == "rank_ties":
        k = int(rng.integers(2, 7))
        return np.minimum(rng.integers(0, k, size) + y * int(rng.integers(0, 2)), k - 1).astype(np.float64)
    if family == "plateaus":
        runs = np.repeat(_noise_scores(rng, np.zeros(size)), rng.integers(1, 13, size))[:size]
        return np.round(runs + 0.7 * y * int(rng.integers(0, 2)), 6)  # half the cases: plateaus across event bounds
    if family == "near_ties":
        return 0.5 + rng.integers(0, 4, size) * 1e-12 + y * rng.integers(0, 2, size) * 1e-12
    if family == "one_value":
        return np.full(size, float(np.round(rng.normal(), 3)))
    return _noise_scores(rng, y)


def _layout(family: str, rng: np.random.Generator, window: int, index: int,
            thresholds: int = DEFAULT_THRESHOLDS) -> tuple[Events, int]:
    if family == "window_edges":
        events, size = _window_events(rng, window)
        if index % LONGER_EVERY == LONGER_EVERY - 1:  # normal points after the events, past the threshold grid
            size = max(size, int(rng.integers(thresholds + 1, 2 * thresholds + 1)))
        return events, size
    if family == "long_series":
        edges = [BLOCK - 1, BLOCK, BLOCK + 1, 2 * BLOCK - 1, 2 * BLOCK, 2 * BLOCK + 1]
        size = edges[index] if index < len(edges) else int(math.exp(rng.uniform(math.log(BLOCK), math.log(4 * BLOCK))))
        starts = np.sort(rng.integers(0, size, 6))
        starts[: 2] = [0, max(0, BLOCK - 3)] if size > BLOCK else starts[:2]
        return [[int(s), int(min(s + rng.integers(1, 300), size))] for s in starts], size
    if index % LONGER_EVERY == LONGER_EVERY - 1:  # longer than the threshold grid: a grid that skips ranks shows
        size = int(rng.integers(thresholds + 1, 2 * thresholds + 1))
    else:
        size = int(rng.integers(2, 201))
    events = _walk_events(rng, size)
    if family == "boundary_events":
        first, last = [0, int(rng.integers(1, 4))], [size - int(rng.integers(1, 4)), size]
        events += [first] * int(rng.integers(0, 2) or 1) + ([last] if rng.integers(0, 3) else [])
    return events, size


def make_score_case(family: str, index: int, seed: int = 0, window: int = 100,
                    thresholds: int = DEFAULT_THRESHOLDS) -> ScoreCase:
    """Case ``index`` of ``family`` under ``seed``; ``window`` and ``thresholds`` are the reference's
    ``sliding_window`` and threshold count."""
    if family not in SCORE_FAMILIES:
        raise ValueError(f"unknown score family {family!r}; families are {', '.join(SCORE_FAMILIES)}")
    rng = np.random.default_rng([seed, SCORE_FAMILIES.index(family), index])
    events, size = _layout(family, rng, window, index, max(1, int(thresholds)))
    y = from_events([[max(0, s), min(e, size)] for s, e in events if min(e, size) > max(0, s)], size)
    events = _both_classes(events_list(y), size, rng)
    y = from_events(events, size)
    scores = _scores_for(family, rng, y)
    return ScoreCase(family, index, size, events, tuple(float(v) for v in scores))


def score_cases(family: str, n: int, seed: int = 0, window: int = 100,
                thresholds: int = DEFAULT_THRESHOLDS) -> Iterator[ScoreCase]:
    """The first ``n`` cases of ``family`` (see :func:`make_score_case`)."""
    for index in range(n):
        yield make_score_case(family, index, seed, window, thresholds)
