"""The two overestimation rows for a metric that takes real scores.

A score metric is read on its chance-anchored scale (:mod:`oipr_bench.auditing.table5.chance`), so
its constant and its random inputs need their own readings: the all-ones input (a constant score)
against chance, the random detector on the metric's own range.  :mod:`oipr_bench.auditing.table5.rules`
calls these when the observations carry chance anchors; the rules' docstrings there give the thresholds.
"""

from __future__ import annotations

import math

from .chance import CHANCE_MARGIN, SATURATION_BAND
from .findings import ALL_ONE, OVERESTIMATION_F1, RANDOM, RANDOM_RANGE_LEVEL, Finding, fmt, read_scores, result_of, undetermined_finding
from .readings import ANCHOR_TOLERANCE, Observations, range_width
from ...vocabulary import ALL_ONE_OVERESTIMATION, RANDOM_OVERESTIMATION, UNDETERMINED

__all__ = ["AGAINST_CHANCE", "constant_against_chance", "random_on_range"]

#: How the evidence of ``random_on_range`` labels the random detector's reading on the chance-anchored scale
#: (one per case; with the case's chance mean, its standard error and ``y_pred = y_true``, it is what
#: :mod:`~oipr_bench.auditing.table5.scale_guard` reads to check the span of a verdict against chance).
AGAINST_CHANCE = "random detector above chance"


def constant_against_chance(obs: Observations) -> Finding:
    """A score metric's all-ones input (a constant score) against its chance anchor, as chance_ordering reads it."""
    name, cases = ALL_ONE_OVERESTIMATION, ALL_ONE
    r = read_scores(obs, cases)
    if r.problem:
        return undetermined_finding(name, cases, r, "the constant score against chance")
    c = cases[0]
    value = r.values[0]
    span = float(obs.perfect[c].f1) - obs.chance[c][0]
    margin = max(CHANCE_MARGIN, 3 * obs.chance[c][1] / abs(span))
    numbers = {**r.numbers, "allowed margin over chance": margin}
    if value > margin:
        out, why = "present", (f"the constant all-ones score reads {fmt(value)} above chance "
                               f"(more than the margin {fmt(margin)}): a constant is rated above uninformative scores")
    else:
        out, why = "absent", f"the constant all-ones score reads {fmt(value)}, not above chance by the margin {fmt(margin)}"
    return Finding(name, out, cases, numbers, why + f" [read on the {r.scale}]")


def random_on_range(obs: Observations) -> Finding:
    """A score metric's random detector and uniform-random scores on its own range: 0 = ``1 - y_true``, 1 = ``y_true``.

    Each case is read alone: one reading above the level suffices for ``present``; ``absent`` needs every
    case's range readable (a saturated range, where the metric tells nothing apart, leaves it ``undetermined``).
    """
    name, cases = RANDOM_OVERESTIMATION, RANDOM
    levels: dict[str, float] = {}
    problems: list[str] = []
    numbers: dict[str, float] = {}
    for c in cases:
        inv = float(obs.inverted[c].f1) if c in obs.inverted else math.nan
        best = float(obs.perfect[c].f1) if c in obs.perfect else math.nan
        detector, (chance, chance_se) = float(result_of(obs, c).f1), obs.chance.get(c, (math.nan, math.nan))
        numbers.update({f"score {c}": detector, f"uniform-random scores (mean) {c}": chance,
                        f"chance standard error {c}": chance_se,
                        f"inverted y_pred = 1 - y_true {c}": inv, f"y_pred = y_true {c}": best})
        width = range_width(obs, inv, best)
        if math.isnan(inv) or math.isnan(best) or abs(best - inv) <= max(ANCHOR_TOLERANCE, SATURATION_BAND * width) \
                or (best > inv) != obs.higher_is_better:
            problems.append(f"saturated or undefined range on {c}: y_pred = y_true scores {best:.6g} and the inverted "
                            f"input {inv:.6g} (within {SATURATION_BAND:g} of the metric's range, nan, or against the "
                            "declared orientation); the metric tells nothing apart there")
            continue
        for what, x in (("random detector", detector), ("uniform-random scores", chance)):
            if not math.isnan(x):
                levels[f"{what} {c}"] = (x - inv) / (best - inv)
                numbers[f"{what} on the range {c}"] = levels[f"{what} {c}"]
    on_chance = read_scores(obs, cases)  # the paper's rule with chance as its 0: the detector above 0.3
    numbers.update({f"{AGAINST_CHANCE} {c}": x for c, x in zip(cases, on_chance.values)})
    above = [(c, x) for c, x in zip(cases, on_chance.values) if x > max(OVERESTIMATION_F1, on_chance.noise)]
    if on_chance.problem:
        problems.append(on_chance.problem)
    shown = ", ".join(f"{k} {fmt(x)}" for k, x in levels.items())
    tail = " [read on the metric's own range: 0 = y_pred = 1 - y_true, 1 = y_pred = y_true]"
    if not on_chance.problem and above:
        numbers.update(on_chance.numbers)
        why = (f"the random detector (mean over runs) scores above {OVERESTIMATION_F1} on the chance-anchored scale "
               f"({', '.join(f'{c} {fmt(x)}' for c, x in above)}) [read on the {on_chance.scale}]")
        return Finding(name, "present", cases, numbers, why)
    if levels and max(levels.values()) > RANDOM_RANGE_LEVEL:
        why = (f"a random detector sits above {RANDOM_RANGE_LEVEL} of the metric's own range ({shown}): closer to "
               "perfect than the middle of the range, an inversion-symmetric metric's chance, allows")
        return Finding(name, "present", cases, numbers, why + tail)
    if problems:
        return Finding(name, UNDETERMINED, cases, numbers,
                       f"the random detector on the metric's own range cannot be read: {problems[0]}")
    why = (f"the random detector stays at or below {OVERESTIMATION_F1} above chance "
           f"({', '.join(f'{c} {fmt(x)}' for c, x in zip(cases, on_chance.values))}), and random detectors at or "
           f"below {RANDOM_RANGE_LEVEL} of the metric's own range ({shown})")
    return Finding(name, "absent", cases, numbers, why + tail)
