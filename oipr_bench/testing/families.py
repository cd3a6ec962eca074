"""Named families of generated series pairs, for differential runs (docs/regression-testing.md).

A differential run (:mod:`oipr_bench.auditing.regression.differential`) calls a user's
evaluator and a reference on the same generated pairs ``(y_true, y_pred)``.
Bugs that matter live off the paper's 25 cases, so the pairs come in named
families, each aimed at one kind of input (:data:`oipr_bench.vocabulary.FAMILIES`):

``random_density``
    1 to 200 points; events of random lengths at a random density in each series.
``close_events``
    Ground-truth events separated by gaps of 1, 2 and just below, at and above
    each evaluator's distance parameters (TaPR's ``delta``, OIPR's ``l_dis`` and
    ``l_obs``); the prediction shifts them, fills gaps, or has close events of its own.
``k_boundary``
    Events predicted on ``floor(len * K / 100) - 1`` to ``+ 2`` of their points,
    so the share crosses PA%K's threshold ``K`` (strictly greater than, Kim et al. 2022).
``boundary_events``
    Events touching index 0 and the last index, in either or both series.
``one_point_events``
    Every event is one point long, in both series.
``no_anomaly``
    ``y_true`` all zero; the prediction empty, all one, or random.
``constant_predictions``
    ``y_pred`` all zero or all one; ``y_true`` random, empty or all one.
``long_series``
    Lengths just below, at and above every point-block size of the built-in
    evaluators (:data:`BLOCK_SIZES`), then lengths log-uniform in
    ``[4097, 65537]``; a few events each, some straddling block edges and the ends.
``cardinality``
    One predicted event over hundreds of true events, and one true event under as
    many predicted events, in at most 4,096 points (:mod:`oipr_bench.testing.sweeps`).
``many_events``
    The same with tens of thousands of events, in long series.
``percent_boundary``
    Every event length 1 to 200 at the hit counts just below, at and above ``K %`` of
    it, for the reference's ``K``, 0, 100 and 7 (:mod:`oipr_bench.testing.sweeps`).

Every pair is derandomized: pair ``i`` of family ``f`` comes from
``numpy.random.default_rng([seed, SEED_NUMBERS[f], i])`` (a family's number is fixed
when it is added, whatever its place in the report), so two runs with the same seed
try the same inputs and any one pair can be rebuilt alone.
Events are half-open ``[start, end)`` lists (paper, Sec. III-A).
"""

from __future__ import annotations

import math
from typing import Any, Callable, Iterator, Mapping, NamedTuple

import numpy as np

from ..evaluators.kernels.affiliation import BLOCK_POINTS as AM_BLOCK
from ..evaluators.kernels.oipr import BLOCK as OIPR_BLOCK
from ..evaluators.kernels.pointwise import BLOCK_BYTES as PW_BLOCK_BYTES
from ..evaluators.kernels.range_based import BLOCK as RB_BLOCK
from ..evaluators.kernels.range_based import MAX_BLOCK as RB_MAX_BLOCK
from ..evaluators.kernels.tapr import BLOCK as TAPR_BLOCK
from ..evaluators.kernels.tapr import MAX_BLOCK as TAPR_MAX_BLOCK
from ..scenarios.events import to_events
from ..vocabulary import (
    BOUNDARY_EVENTS, CARDINALITY, CLOSE_EVENTS, CONSTANT_PREDICTIONS, FAMILIES, K_BOUNDARY, LONG_SERIES, NO_ANOMALY,
    MANY_EVENTS, ONE_POINT_EVENTS, PERCENT_BOUNDARY, RANDOM_DENSITY,
)
from .sweeps import MANY_EVENTS_COUNTS, MANY_EVENTS_RANGE, cardinality_layout, percent_layout

__all__ = ["SeriesPair", "BLOCK_SIZES", "DEFAULT_SCALES", "LONG_RANDOM_LENGTHS", "MAX_EVENTS", "SEED_NUMBERS", "scales_of",
           "boundary_lengths", "family_pairs", "make_pair"]

Events = list[list[int]]

#: Point-block sizes of the built-in evaluators: RP/RR's smallest and largest block, TaPR's block,
#: its first block (four blocks) and its largest, OIPR's block, AM's point block, and PW's
#: bit-packed block (bytes * 8 points).  Blocks counted in events (AM's zones and pieces, TaPR's
#: bounds) are not crossed here: that needs tens of thousands of events per series.
BLOCK_SIZES: tuple[int, ...] = tuple(sorted({RB_BLOCK, TAPR_BLOCK, 4 * TAPR_BLOCK, OIPR_BLOCK, AM_BLOCK,
                                             8 * PW_BLOCK_BYTES, TAPR_MAX_BLOCK, RB_MAX_BLOCK}))
#: Parameter values the ``close_events`` and ``k_boundary`` families aim at when the reference has none
#: (the Table 3 values of TaPR's delta, OIPR's l_dis and l_obs, PA%K's K).
DEFAULT_SCALES: dict[str, float] = {"delta": 5, "l_dis": 5, "l_obs": 20, "k": 50}
#: Range of the log-uniform lengths of ``long_series`` after the block-edge lengths.
LONG_RANDOM_LENGTHS: tuple[int, int] = (4097, 65537)
#: The number of each family in the seed of its pairs: the order the families were added in.
SEED_NUMBERS: dict[str, int] = {f: i for i, f in enumerate((
    RANDOM_DENSITY, CLOSE_EVENTS, K_BOUNDARY, BOUNDARY_EVENTS, ONE_POINT_EVENTS, NO_ANOMALY, CONSTANT_PREDICTIONS,
    LONG_SERIES, CARDINALITY, PERCENT_BOUNDARY, MANY_EVENTS))}
#: Default most events in one series of ``cardinality`` and ``many_events`` (the largest fixed count).
MAX_EVENTS: int = max(*MANY_EVENTS_COUNTS, MANY_EVENTS_RANGE[1])


class SeriesPair(NamedTuple):
    """One generated input: ``length`` points, both series as event lists.

    Attributes
    ----------
    family : str
    index : int
        Position in the family (rebuild it alone with :func:`make_pair`).
    length : int
    y_true_events, y_pred_events : list of [start, end]
        Maximal runs of 1s, sorted, half-open.
    """

    family: str
    index: int
    length: int
    y_true_events: Events
    y_pred_events: Events

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """``(y_true, y_pred)`` as int8 0/1 arrays."""
        return series_of(self.y_true_events, self.length), series_of(self.y_pred_events, self.length)


def series_of(events: Events, length: int) -> np.ndarray:
    """An int8 series of ``length`` points with ``events`` (clipped to the series) set to 1."""
    y = np.zeros(length, dtype=np.int8)
    if len(events) > 64:  # many events (``cardinality``): one pass over a difference array
        bounds = np.clip(np.asarray(events, dtype=np.int64).reshape(-1, 2), 0, length)
        bounds = bounds[bounds[:, 0] < bounds[:, 1]]
        diff = np.zeros(length + 1, dtype=np.int64)
        np.add.at(diff, bounds[:, 0], 1)
        np.add.at(diff, bounds[:, 1], -1)
        return (np.cumsum(diff[:-1]) > 0).astype(np.int8)
    for start, end in events:
        y[max(0, start):max(0, min(end, length))] = 1
    return y


def _events_of(y: np.ndarray) -> Events:
    """The events of ``y`` as ``[[start, end], ...]`` (Python ints)."""
    starts, ends = to_events(y)
    return np.column_stack([starts, ends]).astype(np.int64).tolist() if len(starts) else []


def scales_of(params: Mapping[str, Any] | None) -> dict[str, float]:
    """:data:`DEFAULT_SCALES` updated with the reference's own numeric ``delta``, ``l_dis``, ``l_obs``, ``k``."""
    scales = dict(DEFAULT_SCALES)
    for name, value in (params or {}).items():
        if name in scales and isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0:
            scales[name] = float(value)
    return scales


def boundary_lengths(max_length: int) -> list[int]:
    """``B - 1, B, B + 1`` for every block size ``B`` of :data:`BLOCK_SIZES`, up to ``max_length``."""
    return sorted({n for b in BLOCK_SIZES for n in (b - 1, b, b + 1) if n <= max_length})


# -- event layouts -------------------------------------------------------------------------------


def _walk(rng: np.random.Generator, length: int, mean_len: float, mean_gap: float) -> Events:
    """Events of geometric lengths and gaps (every gap at least one point) across ``length`` points."""
    events: Events = []
    t = int(rng.geometric(1.0 / (mean_gap + 1.0))) - 1
    while t < length:
        end = min(t + int(rng.geometric(1.0 / mean_len)), length)
        events.append([t, end])
        t = end + int(rng.geometric(1.0 / mean_gap))
    return events


def _density_events(rng: np.random.Generator, length: int) -> Events:
    density = float(rng.uniform(0.02, 0.98))
    mean_len = float(rng.choice([1, 2, 3, 5, 8, 13, 21]))
    return _walk(rng, length, mean_len, max(1.0, mean_len * (1.0 - density) / density))


def _critical_gaps(scales: Mapping[str, float]) -> list[int]:
    """Gaps of 1 and 2 points and just below, at and above each distance parameter."""
    gaps = {1, 2}
    for name in ("delta", "l_dis", "l_obs"):
        s = int(scales[name])
        gaps.update(g for g in (s - 1, s, s + 1, s + 2) if g >= 1)
    return sorted(gaps)


# -- the families --------------------------------------------------------------------------------


def _random_density(rng: np.random.Generator, scales: Mapping[str, float], index: int) -> tuple[int, Events, Events]:
    length = int(rng.integers(1, 201))
    return length, _density_events(rng, length), _density_events(rng, length)


def _close_events(rng: np.random.Generator, scales: Mapping[str, float], index: int) -> tuple[int, Events, Events]:
    gaps = _critical_gaps(scales)
    true: Events = []
    t = int(rng.integers(0, 4))
    for _ in range(int(rng.integers(2, 5))):
        n = int(rng.choice([1, 2, 3, 5, 8]))
        true.append([t, t + n])
        t += n + int(rng.choice(gaps))
    length = true[-1][1] + int(rng.integers(0, max(gaps) + 3))
    how = int(rng.integers(0, 3))
    if how == 0:  # shifted copies of the true events
        pred = [[s + int(rng.integers(-2, 3)), e + int(rng.integers(-2, 3))] for s, e in true]
    elif how == 1:  # a prediction inside the gaps between true events
        pred = [[e, e + int(rng.integers(1, max(2, s2 - e) + 1))] for (_, e), (s2, _) in zip(true, true[1:])]
    else:  # close events of its own
        pred, t = [], int(rng.integers(0, 4))
        while t < length:
            n = int(rng.integers(1, 4))
            pred.append([t, t + n])
            t += n + int(rng.choice(gaps))
    return length, true, pred


def _k_boundary(rng: np.random.Generator, scales: Mapping[str, float], index: int) -> tuple[int, Events, Events]:
    k = scales["k"]
    true: Events = []
    pred: Events = []
    t = int(rng.integers(0, 4))
    for _ in range(int(rng.integers(1, 4))):
        n = int(rng.integers(1, 41))
        hit = min(n, max(0, math.floor(n * k / 100.0) + int(rng.integers(-1, 3))))
        true.append([t, t + n])
        where = int(rng.integers(0, 3))
        if hit and where == 0:
            pred.append([t, t + hit])
        elif hit and (where == 1 or hit < 2 or n - hit < 2):
            pred.append([t + n - hit, t + n])
        elif hit:  # two pieces with a gap: the share, not the run, is what counts
            first = int(rng.integers(1, hit))
            pred += [[t, t + first], [t + n - (hit - first), t + n]]
        t += n + int(rng.integers(1, 6))
    return t + int(rng.integers(0, 4)), true, pred


def _boundary_events(rng: np.random.Generator, scales: Mapping[str, float], index: int) -> tuple[int, Events, Events]:
    length = int(rng.integers(1, 61))
    out = []
    for _ in range(2):
        events = _density_events(rng, length) if rng.random() < 0.6 else []
        if rng.random() < 0.7:
            events.append([0, int(rng.integers(1, 4))])
        if rng.random() < 0.7:
            events.append([length - int(rng.integers(1, 4)), length])
        out.append(events)
    return length, out[0], out[1]


def _one_point(rng: np.random.Generator, length: int) -> Events:
    gap = float(rng.integers(1, 7))
    return [[s, s + 1] for s, _ in _walk(rng, length, 1.0, gap)]


def _one_point_events(rng: np.random.Generator, scales: Mapping[str, float], index: int) -> tuple[int, Events, Events]:
    length = int(rng.integers(1, 81))
    return length, _one_point(rng, length), _one_point(rng, length)


def _no_anomaly(rng: np.random.Generator, scales: Mapping[str, float], index: int) -> tuple[int, Events, Events]:
    length = int(rng.integers(1, 101))
    pred = ([], [[0, length]], _density_events(rng, length), _one_point(rng, length))[index % 4]
    return length, [], pred


def _constant_predictions(rng: np.random.Generator, scales: Mapping[str, float],
                          index: int) -> tuple[int, Events, Events]:
    length = int(rng.integers(1, 101))
    choice = int(rng.integers(0, 10))
    true = [] if choice == 0 else [[0, length]] if choice == 1 else _density_events(rng, length)
    return length, true, ([] if index % 2 == 0 else [[0, length]])


def _sparse_events(rng: np.random.Generator, length: int, near: Events) -> Events:
    """A few events: anywhere, at block edges, at the ends, or near ``near``'s events."""
    events: Events = []
    edges = [b for b in BLOCK_SIZES if b < length]
    for _ in range(int(rng.integers(0, 9))):
        n = int(rng.integers(1, 51))
        where = int(rng.integers(0, 4))
        if where == 0 and edges:
            b = int(rng.choice(edges))
            start = b * int(rng.integers(1, length // b + 1)) + int(rng.integers(-n, 4))
        elif where == 1:
            start = int(rng.choice([0, length - n]))
        elif where == 2 and near:
            s, _ = near[int(rng.integers(0, len(near)))]
            start = s + int(rng.integers(-5, 6))
        else:
            start = int(rng.integers(0, length))
        events.append([start, start + n])
    return events


def _long_series(rng: np.random.Generator, scales: Mapping[str, float], index: int,
                 max_length: int) -> tuple[int, Events, Events]:
    edges = boundary_lengths(max_length)
    if index < len(edges):
        length = edges[index]
    else:
        lo, hi = (math.log(n) for n in LONG_RANDOM_LENGTHS)
        length = int(round(math.exp(rng.uniform(lo, hi))))
    true = _sparse_events(rng, length, [])
    return length, true, _sparse_events(rng, length, true)


Maker = Callable[[np.random.Generator, Mapping[str, float], int], "tuple[int, Events, Events]"]
_MAKERS: dict[str, Maker] = {
    RANDOM_DENSITY: _random_density, CLOSE_EVENTS: _close_events, K_BOUNDARY: _k_boundary,
    BOUNDARY_EVENTS: _boundary_events, ONE_POINT_EVENTS: _one_point_events, NO_ANOMALY: _no_anomaly,
    CONSTANT_PREDICTIONS: _constant_predictions,
}


def make_pair(family: str, index: int, seed: int = 0, scales: Mapping[str, float] | None = None,
              max_length: int = RB_MAX_BLOCK + 1, max_events: int = MAX_EVENTS) -> SeriesPair:
    """Pair ``index`` of ``family`` (the same pair on every call with the same arguments).

    Parameters
    ----------
    family : str
        One of :data:`oipr_bench.vocabulary.FAMILIES`.
    index : int
        Position in the family.
    seed : int
        The run's seed.
    scales : mapping, optional
        Parameter values to aim at (:func:`scales_of`); default :data:`DEFAULT_SCALES`.
    max_length : int
        Longest block-edge length of ``long_series`` (default: just above the largest block size).
    max_events : int
        Most events in one series of ``cardinality`` and ``many_events`` (default :data:`MAX_EVENTS`); a loop-by-loop
        evaluator whose time grows with the square of the events may need fewer.
    """
    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r}; families are {', '.join(FAMILIES)}")
    rng = np.random.default_rng([seed, SEED_NUMBERS[family], index])
    sc = scales_of(None) if scales is None else {**DEFAULT_SCALES, **scales}
    if family == LONG_SERIES:
        length, true, pred = _long_series(rng, sc, index, max_length)
    elif family in (CARDINALITY, MANY_EVENTS):
        length, true, pred = cardinality_layout(rng, index, max_events, many=family == MANY_EVENTS)
    elif family == PERCENT_BOUNDARY:
        length, true, pred = percent_layout(rng, index, sc["k"])
    else:
        length, true, pred = _MAKERS[family](rng, sc, index)
    length = max(1, length)
    return SeriesPair(family, index, length, _events_of(series_of(true, length)), _events_of(series_of(pred, length)))


def family_pairs(family: str, n: int, seed: int = 0, scales: Mapping[str, float] | None = None,
                 max_length: int = RB_MAX_BLOCK + 1, max_events: int = MAX_EVENTS) -> Iterator[SeriesPair]:
    """The first ``n`` pairs of ``family`` (see :func:`make_pair`)."""
    for index in range(n):
        yield make_pair(family, index, seed, scales, max_length, max_events)
