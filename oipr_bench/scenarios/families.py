"""The scenario families of the metric properties, built by our own seeded generator.

Each metric property of :mod:`oipr_bench.auditing.properties.run` reads one family
of cases, named like the property.  This module is the single source of the
families: :mod:`oipr_bench.scenarios.family_files` turns them into the JSON
fixtures of ``scenarios/properties/`` and a test checks the committed files
are exactly what it builds.

Every case has a ground truth (events, half-open ``[start, end)``), a length,
the value of the family's parameter, and explicit anomaly scores
(``scores``, float64).  A *binary* family (the detection geometry: lag,
false-positive distance, spill-over, ...) also has the 0/1 prediction as
events; its scores encode that prediction as 0.95 at predicted points and
0.05 elsewhere (0.0 on appended quiet padding), so a score metric sees the
same detection.  A *score* family has scores only: an oracle score (normal
points uniform in [0, 0.5), anomalous points uniform in [0.5, 1)) degraded,
perturbed or transformed as the family says.

Random numbers come from :class:`numpy.random.RandomState` (its stream is
frozen across numpy versions) with the seed written in each family.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import vocabulary as v
from .events import events_list

Events = tuple[tuple[int, int], ...]

#: Input of a family: the 0/1 prediction (and the scores encoding it), or real scores only.
BINARY, SCORES = "binary", "scores"

#: Score of a predicted / unpredicted point / appended quiet point in a binary family.
HIGH, LOW, QUIET = 0.95, 0.05, 0.0

#: Length and events of the score families' ground truth (55 anomalous points of 500).
SCORE_LENGTH = 500
SCORE_EVENTS: Events = ((50, 65), (200, 210), (350, 380))


@dataclass(frozen=True)
class FamilyCase:
    """One case of a family (plain data: events and floats).

    ``y_pred`` is None in a score family.  ``parameter`` is the value the
    property's curve is drawn over (a number), or a role (``"forward"``, ``"A"``).
    """

    case: str
    parameter: float | str
    length: int
    y_true: Events
    scores: tuple[float, ...]
    y_pred: Events | None = None


@dataclass(frozen=True)
class FamilyDef:
    """A scenario family: its name (= the property's), input, parameter and cases."""

    name: str
    input: str
    title: str
    description: str
    parameter: str
    seed: int | None
    cases: tuple[FamilyCase, ...]


def dense(events: Events, length: int) -> np.ndarray:
    """The 0/1 int8 series of ``events``."""
    y = np.zeros(length, dtype=np.int8)
    for s, e in events:
        y[s:e] = 1
    return y


def _binary_case(case: str, parameter: float | str, length: int, y_true: Events, y_pred: Events,
                 quiet_from: int | None = None) -> FamilyCase:
    pred = dense(y_pred, length)
    y_pred = tuple((s, e) for s, e in events_list(pred))  # maximal runs: an adjacent point joins the event
    scores = np.where(pred == 1, HIGH, LOW)
    if quiet_from is not None:
        scores[quiet_from:] = QUIET
    return FamilyCase(case, parameter, length, y_true, tuple(float(x) for x in scores), y_pred)


# -- binary families: the detection geometry ---------------------------------------------------------

def lag_tolerance() -> FamilyDef:
    """One 20-point event [90, 110); the detection is the event shifted by l = -12 .. 12 points."""
    cases = tuple(_binary_case(f"l{lag:+d}", lag, 200, ((90, 110),), ((90 + lag, 110 + lag),))
                  for lag in range(-12, 13))
    return FamilyDef(v.LAG_TOLERANCE, BINARY, "Lag tolerance",
                     "A 20-point event [90, 110) detected exactly, but shifted by l points (l < 0: early).",
                     "lag (points; negative = early)", None, cases)


FP_DISTANCES = (1, 2, 4, 8, 16, 32, 64)


def fp_distance() -> FamilyDef:
    """Event [80, 100) detected exactly, plus one false-positive point with d = 1 .. 64 normal points between.

    The false positive of case dK is point ``99 + K + 1``: K normal points separate it from the event's last
    point (99), so at every distance it is a separate alarm, never a spill-over joining the detection
    (before dataset 1.2.0 case d1 put it at 100, right after the event).
    """
    clean = _binary_case("clean", 0, 200, ((80, 100),), ((80, 100),))
    cases = tuple(_binary_case(f"d{d}", d, 200, ((80, 100),), ((80, 100), (100 + d, 101 + d))) for d in FP_DISTANCES)
    return FamilyDef(v.FP_DISTANCE, BINARY, "False-positive distance",
                     "Event [80, 100) detected exactly; case dK adds one false-positive point with K normal points "
                     "between it and the event's last point (always a separate alarm); case clean has none.",
                     "normal points between the event and the false positive", None, (clean,) + cases)


SPILLS = (0, 1, 2, 3, 5, 8, 12, 16, 20)


def spill_over() -> FamilyDef:
    """Event [80, 100); the detection [80, 100 + k) runs k = 0 .. 20 points past its end."""
    cases = tuple(_binary_case(f"k{k}", k, 200, ((80, 100),), ((80, 100 + k),)) for k in SPILLS)
    return FamilyDef(v.SPILL_OVER, BINARY, "Spill-over",
                     "Event [80, 100); the detection starts with it and runs k points past its end.",
                     "spill-over k (points)", None, cases)


ALARM_COUNTS = (1, 2, 5, 10)


#: Where every case's first alarm starts (3 points into the event [60, 140)).
REDUNDANCY_FIRST = 63


def redundancy_alarms(k: int, first: int = REDUNDANCY_FIRST, end: int = 140, total: int = 20) -> Events:
    """``k`` alarms of ``total / k`` points each, the first at ``first``, then every ``(end - first) // k`` points.

    Every case shares the first alarm's start and the number of predicted points (all inside the event),
    so the detected share and the earliest detection stay fixed while the number of alarms varies.
    """
    stride, alarm = (end - first) // k, total // k
    return tuple((first + i * stride, first + i * stride + alarm) for i in range(k))


def redundancy() -> FamilyDef:
    """Event [60, 140); k = 1, 2, 5, 10 alarms inside it, 20 predicted points in total, the first at 63."""
    cases = tuple(_binary_case(f"k{k}", k, 200, ((60, 140),), redundancy_alarms(k)) for k in ALARM_COUNTS)
    return FamilyDef(v.REDUNDANCY, BINARY, "Redundancy",
                     "An 80-point event [60, 140) covered by k alarms of 20 points in total, spread evenly from "
                     f"point {REDUNDANCY_FIRST} on: the first alarm and the detected share (20 of 80 points) are the "
                     "same in every case.", "alarms k inside the event", None, cases)


PADDINGS = (0, 1, 2, 4, 8)


def normal_padding() -> FamilyDef:
    """Event [40, 60) in 100 points, detected as [45, 65); k * 100 normal points appended (k = 0 .. 8)."""
    cases = tuple(_binary_case(f"k{k}", k, 100 * (k + 1), ((40, 60),), ((45, 65),), quiet_from=100)
                  for k in PADDINGS)
    return FamilyDef(v.NORMAL_PADDING, BINARY, "Normal padding",
                     "A 100-point series (event [40, 60), detection [45, 65)) with k x 100 normal points appended "
                     "(scored 0.0: a quiet stretch).", "appended normal points (multiples of T = 100)", None, cases)


REVERSAL_LAYOUTS: tuple[tuple[str, int, Events, Events], ...] = (
    ("a", 200, ((60, 90),), ((75, 95),)),
    ("b", 200, ((50, 60), (120, 160)), ((52, 54), (150, 170))),
    ("c", 200, ((100, 140),), ((90, 100), (130, 131))),
)


def reversed_events(events: Events, length: int) -> Events:
    """The events of the time-reversed series (point i becomes point length - 1 - i)."""
    return tuple((length - e, length - s) for s, e in reversed(events))


def time_reversal() -> FamilyDef:
    """Three asymmetric layouts, forward and with both series reversed in time."""
    cases: list[FamilyCase] = []
    for name, length, y, p in REVERSAL_LAYOUTS:
        cases.append(_binary_case(f"{name}_forward", "forward", length, y, p))
        cases.append(_binary_case(f"{name}_reversed", "reversed", length, reversed_events(y, length),
                                  reversed_events(p, length)))
    return FamilyDef(v.TIME_REVERSAL, BINARY, "Time reversal",
                     "Three layouts with an asymmetric detection, each as given and with both series reversed.",
                     "direction", None, tuple(cases))


SWAP_LAYOUTS: tuple[tuple[str, int, Events, Events], ...] = (
    ("a", 200, ((60, 90),), ((75, 95),)),
    ("b", 200, ((50, 60), (120, 160)), ((52, 54), (150, 170), (180, 185))),
    ("c", 200, ((20, 30), (100, 140)), ((25, 28), (110, 112), (120, 122))),
)


def label_swap_duality() -> FamilyDef:
    """Three layouts, and each with ground truth and prediction swapped."""
    cases: list[FamilyCase] = []
    for name, length, y, p in SWAP_LAYOUTS:
        cases.append(_binary_case(f"{name}_given", "given", length, y, p))
        cases.append(_binary_case(f"{name}_swapped", "swapped", length, p, y))
    return FamilyDef(v.LABEL_SWAP_DUALITY, BINARY, "Label-swap duality",
                     "Three layouts (y, p) and their swaps (p, y): precision of one should be recall of the other.",
                     "roles", None, tuple(cases))


CONCAT_PARTS: tuple[tuple[str, int, Events, Events], ...] = (
    ("A", 150, ((50, 70),), ((55, 75),)),
    ("B", 250, ((40, 50), (150, 200)), ((40, 45), (160, 170), (220, 225))),
    ("C", 120, ((30, 60),), ((30, 60),)),
    ("D", 180, ((80, 90),), ((20, 25),)),
)


def _shift(events: Events, by: int) -> Events:
    return tuple((s + by, e + by) for s, e in events)


def concatenation() -> FamilyDef:
    """Two pairs of series (A, B) and (C, D), each scored apart and joined end to end."""
    parts = {name: (length, y, p) for name, length, y, p in CONCAT_PARTS}
    cases = [_binary_case(name, name, length, y, p) for name, length, y, p in CONCAT_PARTS]
    for first, second in (("A", "B"), ("C", "D")):
        (la, ya, pa), (lb, yb, pb) = parts[first], parts[second]
        cases.append(_binary_case(first + second, first + second, la + lb, ya + _shift(yb, la), pa + _shift(pb, la)))
    return FamilyDef(v.CONCATENATION, BINARY, "Concatenation",
                     "Series A, B, C, D scored apart, and A+B and C+D scored joined end to end.",
                     "series", None, tuple(cases))


# -- score families ----------------------------------------------------------------------------------

def oracle_scores(rng: np.random.RandomState) -> np.ndarray:
    """Normal points uniform in [0, 0.5), anomalous points uniform in [0.5, 1): a perfect ranking."""
    y = dense(SCORE_EVENTS, SCORE_LENGTH)
    u = rng.uniform(0.0, 0.5, SCORE_LENGTH)
    return np.where(y == 1, u + 0.5, u)


def swapped(scores: np.ndarray, q: float, rng: np.random.RandomState) -> np.ndarray:
    """``scores`` with ``q`` % of the points chosen at random and their scores permuted among them."""
    out = scores.copy()
    idx = rng.choice(scores.size, int(round(q / 100 * scores.size)), replace=False)
    out[idx] = scores[rng.permutation(idx)]
    return out


def _score_case(case: str, parameter: float | str, scores: np.ndarray) -> FamilyCase:
    return FamilyCase(case, parameter, SCORE_LENGTH, SCORE_EVENTS, tuple(float(x) for x in scores))


def _graded(seed: int) -> tuple[np.random.RandomState, np.ndarray]:
    """A generator seeded with ``seed`` and the oracle with 20 % of its points swapped (the base score)."""
    rng = np.random.RandomState(seed)
    return rng, swapped(oracle_scores(rng), 20, rng)


SWAP_PERCENTS = tuple(range(0, 100, 10))


def ranking_consistency(seed: int = 19001) -> FamilyDef:
    """Graded detectors: the oracle score with q = 0, 10, ..., 90 % of its points swapped."""
    rng = np.random.RandomState(seed)
    oracle = oracle_scores(rng)
    cases = tuple(_score_case(f"q{q}", q, swapped(oracle, q, rng)) for q in SWAP_PERCENTS)
    return FamilyDef(v.RANKING_CONSISTENCY, SCORES, "Ranking consistency",
                     "An oracle score degraded by swapping q % of its points: a better detector for smaller q.",
                     "swapped points q (%)", seed, cases)


NOISE_SIGMAS = (0.0, 0.01, 0.02, 0.05, 0.1)


def noise_robustness(seed: int = 19002) -> FamilyDef:
    """The base score plus Gaussian noise of sigma = 0 .. 0.1."""
    rng, base = _graded(seed)
    cases = tuple(_score_case(f"s{sigma:g}", sigma, base + rng.normal(0.0, sigma, base.size) if sigma else base)
                  for sigma in NOISE_SIGMAS)
    return FamilyDef(v.NOISE_ROBUSTNESS, SCORES, "Noise robustness",
                     "One imperfect score (20 % of the oracle's points swapped) plus Gaussian noise of sigma.",
                     "noise sigma", seed, cases)


def ranks(x: np.ndarray) -> np.ndarray:
    """Ranks 1 .. n of ``x`` as floats (ties get their mean rank)."""
    order = np.argsort(x, kind="stable")
    r = np.empty(x.size)
    r[order] = np.arange(1, x.size + 1, dtype=float)
    values, inverse = np.unique(x, return_inverse=True)
    if values.size < x.size:
        r = np.bincount(inverse, weights=r)[inverse] / np.bincount(inverse)[inverse]
    return r


def transform_invariance(seed: int = 19003) -> FamilyDef:
    """The base score, its cube, 10x + 5, and its ranks: strictly increasing transforms."""
    _, base = _graded(seed)
    cases = (_score_case("identity", "x", base), _score_case("cube", "x^3", base ** 3),
             _score_case("affine", "10x+5", 10 * base + 5), _score_case("ranks", "ranks", ranks(base)))
    return FamilyDef(v.TRANSFORM_INVARIANCE, SCORES, "Monotone-transform invariance",
                     "One imperfect score and three strictly increasing transforms of it.", "transform", seed, cases)


JITTERS = 8


def ties(seed: int = 19004) -> FamilyDef:
    """The base score on four plateaus (0.125, 0.375, 0.625, 0.875), and 8 copies with the ties jittered."""
    rng, base = _graded(seed)
    plateau = np.floor(base * 4) / 4 + 0.125
    cases = [_score_case("plateau", "plateau", plateau)]
    cases += [_score_case(f"jitter{j}", "jitter", plateau + rng.uniform(-1e-4, 1e-4, plateau.size))
              for j in range(1, JITTERS + 1)]
    return FamilyDef(v.TIES, SCORES, "Ties",
                     "A score with four plateaus of tied values, and 8 copies with every tie broken by a jitter of "
                     "at most 1e-4 (the plateaus stay 0.25 apart).", "ties", seed, tuple(cases))


RANDOM_DRAWS = 10


def chance_ordering(seed: int = 19005) -> FamilyDef:
    """Perfect scores, 10 uniform random scores, a constant score (0.5) and the inverted perfect scores."""
    rng = np.random.RandomState(seed)
    perfect = oracle_scores(rng)
    cases = [_score_case("oracle", "oracle", perfect)]
    cases += [_score_case(f"random{j}", "random", rng.uniform(0.0, 1.0, SCORE_LENGTH)) for j in range(1, RANDOM_DRAWS + 1)]
    cases += [_score_case("constant", "constant", np.full(SCORE_LENGTH, 0.5)),
              _score_case("inverted", "inverted", 1.0 - perfect)]
    return FamilyDef(v.CHANCE_ORDERING, SCORES, "Chance ordering",
                     "A perfect ranking, 10 uniform random scores, a constant 0.5 and the perfect ranking inverted.",
                     "detector", seed, tuple(cases))


def all_families() -> tuple[FamilyDef, ...]:
    """Every family, in the order of :data:`oipr_bench.vocabulary.METRIC_PROPERTIES`."""
    built = (lag_tolerance(), fp_distance(), spill_over(), redundancy(), normal_padding(), time_reversal(),
             label_swap_duality(), concatenation(), ranking_consistency(), noise_robustness(),
             transform_invariance(), ties(), chance_ordering())
    assert tuple(f.name for f in built) == v.METRIC_PROPERTIES
    return built
