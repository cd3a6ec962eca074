"""The rules of the metric properties: a family's scores in, a value with evidence out.

Every rule reads :class:`Readings` (the metric's result on each case of the
property's family, on the common higher-is-better scale of
:mod:`oipr_bench.auditing.table5.readings`) and returns a
:class:`~oipr_bench.auditing.properties.results.PropertyFinding`.  A number the
rule needs that is NaN makes the property undetermined (:class:`Undetermined`),
never a value.  Two scores closer than
:data:`~oipr_bench.auditing.table5.findings.SCORE_TOLERANCE` are equal; every other
threshold is a named constant below, justified where it is used.
"""

from __future__ import annotations

import math
from typing import Callable, Mapping

import numpy as np

from ..table5.chance import CHANCE_MARGIN
from ..table5.findings import OVERESTIMATION_F1, SCORE_TOLERANCE, fmt
from ..table5.scale_guard import SPAN_STANDARD_ERRORS
from .readings import DOWN, UP, Readings, Undetermined, spearman, trend
from .readings import make_finding as _finding, score_numbers as _numbers
from .results import PropertyFinding
from ... import vocabulary as v

__all__ = ["Readings", "Undetermined", "RULES", "against_chance_doubt", "RANK_RHO", "NOISE_TOLERANCE", "CHANCE_TOLERANCE", "INFLATION_LEVEL", "trend",
           "spearman"]

#: Ranking consistency is ``consistent`` from this Spearman rho on (a near-monotone response to 10 grades);
#: calibrated on the controls of tests/test_rule_controls.py (consistent: 0.976, 0.939; weak: 0.806).
RANK_RHO = 0.9
#: Noise robustness: the largest change that Gaussian noise of sigma <= 0.1 may cause, on the anchored
#: scale: a tenth of the way from detecting nothing to a perfect detection.
NOISE_TOLERANCE = 0.1
#: Chance ordering: a constant score may exceed the random scores' mean by this much, or by three
#: standard errors of that mean if more, before it counts as overrated (random draws scatter); the
#: same margin as the Table 5 rule of a score metric's all-ones input.
CHANCE_TOLERANCE = CHANCE_MARGIN
#: Chance ordering: random scores whose mean lies more than this share of the half-range above the
#: middle of inverted .. perfect are inflated (the Table 5 level OVERESTIMATION_F1, read from the middle).
INFLATION_LEVEL = OVERESTIMATION_F1



# -- binary (or both) families -------------------------------------------------------------------------

def check_lag_tolerance(r: Readings) -> PropertyFinding:
    """Non-increasing in |l| on both sides (flat allowed), then early vs late by the sides' mean score."""
    by_lag = {int(r.parameter[c]): r.s(c) for c in r.cases}
    lags = sorted(by_lag)
    early = [by_lag[-k] for k in range(0, -min(lags) + 1)]
    late = [by_lag[k] for k in range(0, max(lags) + 1)]
    sides = (trend(early), trend(late))
    mean_early, mean_late = float(np.mean(early[1:])), float(np.mean(late[1:]))
    numbers = {"score at lag 0": by_lag[0], "mean score early (l < 0)": mean_early,
               "mean score late (l > 0)": mean_late, f"score at lag {min(lags)}": by_lag[min(lags)],
               f"score at lag {max(lags)}": by_lag[max(lags)]}
    if sides == (v.FLAT, v.FLAT):
        value, why = v.FLAT, "the same score at every lag"
    elif not set(sides) <= {v.FLAT, DOWN}:
        value, why = v.IRREGULAR, f"the score does not fall steadily with |l| (early side {sides[0]}, late side {sides[1]})"
    elif mean_early - mean_late > SCORE_TOLERANCE:
        value, why = v.FAVOURS_EARLY, f"falls with |l|; early shifts score higher (mean {fmt(mean_early)} vs {fmt(mean_late)})"
    elif mean_late - mean_early > SCORE_TOLERANCE:
        value, why = v.FAVOURS_LATE, f"falls with |l|; late shifts score higher (mean {fmt(mean_late)} vs {fmt(mean_early)})"
    else:
        value, why = v.SYMMETRIC_DECAY, f"falls with |l|, the same on both sides (mean {fmt(mean_early)})"
    return _finding(v.LAG_TOLERANCE, value, numbers, why, r.curve(r.cases))


def check_fp_distance(r: Readings) -> PropertyFinding:
    """A near FP above the clean detection rewards proximity; else the trend over the distance."""
    clean = r.ids("clean")[0]
    far = [c for c in r.cases if c != clean]
    ys = [r.s(c) for c in far]
    numbers = {"score clean": r.s(clean), **_numbers(r, far)}
    t = trend(ys)
    if ys[0] - r.s(clean) > SCORE_TOLERANCE:
        value, why = v.PROXIMITY_REWARDING, f"an FP next to the event scores above no FP at all ({fmt(ys[0])} > {fmt(r.s(clean))})"
    else:
        value = {v.FLAT: v.DISTANCE_BLIND, DOWN: v.PROXIMITY_AWARE, UP: v.FAR_PREFERRED}.get(t, v.IRREGULAR)
        why = {v.DISTANCE_BLIND: "the FP costs the same at every distance",
               v.PROXIMITY_AWARE: f"a near FP costs less than a far one ({fmt(ys[0])} at d = 1, {fmt(ys[-1])} at the farthest)",
               v.FAR_PREFERRED: f"a far FP costs less than a near one ({fmt(ys[-1])} vs {fmt(ys[0])})",
               v.IRREGULAR: "the score moves up and down with the distance"}[value]
    return _finding(v.FP_DISTANCE, value, numbers, why, r.curve(far))


def _trend_property(name: str, r: Readings, words: Mapping[str, tuple[str, str]]) -> PropertyFinding:
    ys = [r.s(c) for c in r.cases]
    value, why = words[trend(ys)]
    numbers = _numbers(r, r.cases)
    tolerated = 0
    for c in r.cases:
        if abs(r.s(c) - ys[0]) > SCORE_TOLERANCE:
            break
        tolerated = r.parameter[c]
    numbers["largest parameter with the first case's score"] = float(tolerated)
    return _finding(name, value, numbers, f"{why} ({fmt(ys[0])} at {r.parameter[r.cases[0]]}, "
                                          f"{fmt(ys[-1])} at {r.parameter[r.cases[-1]]})", r.curve(r.cases))


def check_spill_over(r: Readings) -> PropertyFinding:
    """The trend of the score over the spill-over k."""
    return _trend_property(v.SPILL_OVER, r, {
        v.FLAT: (v.FREE, "points past the event cost nothing"), DOWN: (v.PENALISED, "points past the event cost score"),
        UP: (v.REWARDED, "points past the event raise the score"), v.IRREGULAR: (v.IRREGULAR, "the score moves up and down")})


def check_redundancy(r: Readings) -> PropertyFinding:
    """The trend of the score over the number of alarms (same total length)."""
    return _trend_property(v.REDUNDANCY, r, {
        v.FLAT: (v.NEUTRAL, "splitting the alarm changes nothing"), DOWN: (v.PENALISED, "more alarms score lower"),
        UP: (v.REWARDED, "more alarms score higher"), v.IRREGULAR: (v.IRREGULAR, "the score moves up and down")})


def check_normal_padding(r: Readings) -> PropertyFinding:
    """Invariant when every padded series gets the unpadded one's value (raw: the anchors move with the length)."""
    base = r.value(r.cases[0])
    shift = max(abs(r.value(c) - base) for c in r.cases)
    numbers = {**{f"value {c}": r.raw[c] for c in r.cases}, "largest change": shift}
    curve = r.curve(r.cases, raw=True)
    if shift <= SCORE_TOLERANCE:
        return _finding(v.NORMAL_PADDING, v.INVARIANT, numbers, "appended normal points change nothing", curve)
    return _finding(v.NORMAL_PADDING, v.SENSITIVE, numbers,
                    f"appended normal points move the value by up to {fmt(shift)}", curve)


def _paired(r: Readings, first: str, second: str, swap: bool) -> tuple[dict[str, float], list[str]]:
    """Numbers and differing quantities of each layout's two cases (P of one vs R of the other if ``swap``)."""
    numbers: dict[str, float] = {}
    differ: list[str] = []
    for a in r.ids(role=first):
        b = a.replace(first, second)
        qa, qb = r.quantities(a), r.quantities(b)
        pairs = [("P", "R"), ("R", "P")] if swap else [(k, k) for k in qa]
        for ka, kb in pairs:
            numbers[f"{ka} {a}"], numbers[f"{kb} {b}"] = qa[ka], qb[kb]
            if abs(qa[ka] - qb[kb]) > SCORE_TOLERANCE:
                differ.append(f"{ka} {a} = {fmt(qa[ka])} vs {kb} {b} = {fmt(qb[kb])}")
    return numbers, differ


def check_time_reversal(r: Readings) -> PropertyFinding:
    """Neutral when every quantity of each layout equals that of the reversed layout."""
    numbers, differ = _paired(r, "forward", "reversed", swap=False)
    if not differ:
        return _finding(v.TIME_REVERSAL, v.NEUTRAL, numbers, "reversing both series changes nothing",
                        r.curve(r.cases, raw=True))
    return _finding(v.TIME_REVERSAL, v.DIRECTION_SENSITIVE, numbers, f"reversal changes the result: {differ[0]}",
                    r.curve(r.cases, raw=True))


def check_label_swap_duality(r: Readings) -> PropertyFinding:
    """Dual when P(y, p) = R(p, y) and R(y, p) = P(p, y) on every layout (P/R metrics only)."""
    numbers, differ = _paired(r, "given", "swapped", swap=True)
    if not differ:
        return _finding(v.LABEL_SWAP_DUALITY, v.DUAL, numbers, "precision and recall trade places when labels swap",
                        r.curve(r.cases, raw=True))
    return _finding(v.LABEL_SWAP_DUALITY, v.NOT_DUAL, numbers, f"not dual: {differ[0]}", r.curve(r.cases, raw=True))


def check_concatenation(r: Readings) -> PropertyFinding:
    """Macro: joined = mean of apart for every quantity; micro: between them (pooled); else neither."""
    numbers: dict[str, float] = {}
    macro, within = True, True
    for joined in ("AB", "CD"):
        q = [r.quantities(r.ids(part)[0]) for part in (joined[0], joined[1])]
        qj = r.quantities(r.ids(joined)[0])
        for k in (("P", "R") if not r.scalar else ("value",)):
            a, b, j = q[0][k], q[1][k], qj[k]
            numbers[f"{k} {joined[0]}"], numbers[f"{k} {joined[1]}"], numbers[f"{k} {joined}"] = a, b, j
            macro = macro and abs(j - (a + b) / 2) <= SCORE_TOLERANCE
            within = within and min(a, b) - SCORE_TOLERANCE <= j <= max(a, b) + SCORE_TOLERANCE
    keys, s = ("precision and recall", "") if not r.scalar else ("the value", "s")
    if macro:
        value, why = v.MACRO, f"joined, {keys} {'is' if s else 'are'} the plain mean of the parts'"
    elif within:
        value, why = v.MICRO, f"joined, {keys} lie{s} between the parts' but {'is' if s else 'are'} not their mean (pooled)"
    else:
        value, why = v.NEITHER, f"joined, {keys} fall{s} outside the parts' range"
    return _finding(v.CONCATENATION, value, numbers, why, r.curve(r.cases, raw=True))


# -- score families ----------------------------------------------------------------------------------

def check_ranking_consistency(r: Readings) -> PropertyFinding:
    """Spearman rho between the score and -q over the graded detectors: ``consistent`` from rho >= 0.9, ``weak``
    for 0 < rho < 0.9, ``inconsistent`` at rho <= 0, ``insensitive`` when every grade scores the same.

    The cut-off :data:`RANK_RHO` = 0.9 is calibrated on the controls of ``tests/test_rule_controls.py``:
    AUC-ROC (rho 0.976) and point-adjusted AUC-ROC (0.939, anchored on its own chance it does fall
    from perfect to chance) are consistent; 1 - |AUC-ROC - 0.9|, which rises and then falls, is
    weak (0.806).
    """
    ys = [r.s(c) for c in r.cases]
    rho = spearman(ys, [-float(r.parameter[c]) for c in r.cases])
    numbers = {**_numbers(r, r.cases), "spearman rho": rho}
    if math.isnan(rho):
        value, why = v.INSENSITIVE, "the same score for every grade of detector"
    elif rho >= RANK_RHO:
        value, why = v.CONSISTENT, f"better detectors score higher (rho = {rho:.3f} >= {RANK_RHO})"
    elif rho > 0:
        value, why = v.WEAK, f"better detectors score higher only loosely (rho = {rho:.3f} < {RANK_RHO})"
    else:
        value, why = v.INCONSISTENT, f"better detectors do not score higher (rho = {rho:.3f})"
    return _finding(v.RANKING_CONSISTENCY, value, numbers, why, r.curve(r.cases))


def check_noise_robustness(r: Readings) -> PropertyFinding:
    """``robust`` when no noise level (sigma up to 0.1) moves the score by more than 0.1 of the way from chance to
    perfect, else ``sensitive``.

    The limit :data:`NOISE_TOLERANCE` = 0.1 lies between the controls of ``tests/test_rule_controls.py``:
    AUC-ROC moves 0.049, R-precision (top-k precision) 0.224.
    """
    base = r.s(r.cases[0])
    shift = max(abs(r.s(c) - base) for c in r.cases)
    numbers = {**_numbers(r, r.cases), "largest change": shift}
    value = v.ROBUST if shift <= NOISE_TOLERANCE else v.SENSITIVE
    return _finding(v.NOISE_ROBUSTNESS, value, numbers,
                    f"noise up to sigma 0.1 moves the score by at most {fmt(shift)} (limit {NOISE_TOLERANCE})",
                    r.curve(r.cases))


def check_transform_invariance(r: Readings) -> PropertyFinding:
    """Invariant when x^3, 10x + 5 and the ranks all score as x."""
    base = r.s(r.cases[0])
    differ = [c for c in r.cases if abs(r.s(c) - base) > SCORE_TOLERANCE]
    numbers = _numbers(r, r.cases)
    if not differ:
        return _finding(v.TRANSFORM_INVARIANCE, v.INVARIANT, numbers, "every increasing transform scores the same",
                        r.curve(r.cases))
    return _finding(v.TRANSFORM_INVARIANCE, v.NOT_INVARIANT, numbers,
                    f"{differ[0]} scores {fmt(r.s(differ[0]))}, the untransformed score {fmt(base)}", r.curve(r.cases))


def check_ties(r: Readings) -> PropertyFinding:
    """The plateau score against the range of the jittered ones."""
    plateau = r.s(r.ids("plateau")[0])
    jit = [r.s(c) for c in r.ids("jitter")]
    lo, hi = min(jit), max(jit)
    numbers = {"score plateau": plateau, "lowest jittered": lo, "mean jittered": float(np.mean(jit)), "highest jittered": hi}
    if plateau - hi > SCORE_TOLERANCE:
        value, why = v.OPTIMISTIC, f"ties score {fmt(plateau)}, above every way of breaking them (at most {fmt(hi)})"
    elif lo - plateau > SCORE_TOLERANCE:
        value, why = v.PESSIMISTIC, f"ties score {fmt(plateau)}, below every way of breaking them (at least {fmt(lo)})"
    else:
        value, why = v.TIE_NEUTRAL, f"ties score {fmt(plateau)}, within the jittered range [{fmt(lo)}, {fmt(hi)}]"
    return _finding(v.TIES, value, numbers, why, r.curve(r.cases))


def check_chance_ordering(r: Readings) -> PropertyFinding:
    """``disordered`` unless perfect > random (mean); ``random_inflated`` when the random mean lies more than 0.3
    of the half-range above the middle of inverted .. perfect (and 3 standard errors); ``constant_overrated``
    when the constant beats the random mean by more than 0.02 (or 3 standard errors); ``disordered`` unless
    random > inverted; else ``ordered``.

    Read in this order (every threshold below is a named constant):

    0. ``disordered`` when perfect is not above random (beyond :data:`SCORE_TOLERANCE`);
    1. ``random_inflated``: the random draws' mean (raw values) lies above the middle of the range
       from the inverted to the perfect ranking by more than :data:`INFLATION_LEVEL` = 0.3 of the
       half-range, and by more than three standard errors of that mean.  The middle is an
       inversion-symmetric metric's chance (AUC-ROC: 0.5); point-adjusted AUC-ROC scores random
       scores about 0.9, 0.8 of the half-range above it.  Reads no constant score.
    2. ``constant_overrated``: the constant score exceeds the random scores' mean by more than
       :data:`CHANCE_TOLERANCE` on the anchored scale, or three standard errors of that mean if
       more (the Table 5 row all_one_overestimation of a score metric reads the same way).
    3. ``disordered``: not random > inverted (beyond :data:`SCORE_TOLERANCE`).
    4. ``ordered`` otherwise.  A constant at or below random is a package's convention for a
       degenerate input (0.0, 0.5): evidence, not a disorder.  The explanation prints ``~``
       between random and constant only when they lie within the margin.

    Every value but ``random_inflated`` places a level against the random scores' mean, so it needs a
    span from that mean to the perfect ranking of at least ten of its standard errors
    (:func:`against_chance_doubt`, applied by the audit after this rule).
    """
    perfect, inverted = (r.s(r.ids(k)[0]) for k in ("oracle", "inverted"))
    constant = r.score[r.ids("constant")[0]]  # NaN when the metric gave a constant score no value: evidence only
    ids = r.ids("random")
    draws = [r.s(c) for c in ids]
    rand = float(np.mean(draws))
    margin = max(CHANCE_TOLERANCE, 3 * float(np.std(draws, ddof=1)) / math.sqrt(len(draws)))
    raw_p, raw_i = r.value(r.ids("oracle")[0]), r.value(r.ids("inverted")[0])
    raw_draws = [r.value(c) for c in ids]
    raw_rand = float(np.mean(raw_draws))
    raw_se = float(np.std(raw_draws, ddof=1)) / math.sqrt(len(raw_draws))
    half = (raw_p - raw_i) / 2
    level = (raw_rand - (raw_p + raw_i) / 2) / half if half > SCORE_TOLERANCE else math.nan
    numbers = {"score oracle (perfect ranking)": perfect, "mean score random": rand, "score constant": constant,
               "score inverted": inverted, "allowed margin of constant over random": margin,
               "random on the half-range above its middle (raw)": level,
               "standard error of the random mean (raw)": raw_se}
    checks = (("perfect > random", perfect, rand), ("random > inverted", rand, inverted))
    broken = [f"not {label} ({fmt(a)} vs {fmt(b)})" for label, a, b in checks if not a - b > SCORE_TOLERANCE]
    if broken and broken[0].startswith("not perfect"):
        value, why = v.DISORDERED, "; ".join(broken)
    elif not math.isnan(level) and level > INFLATION_LEVEL and raw_rand - (raw_p + raw_i) / 2 > 3 * raw_se:
        value, why = v.RANDOM_INFLATED, (
            f"random scores are rated far above chance: their mean {fmt(raw_rand)} lies {fmt(level)} of the half-range "
            f"above the middle of inverted {fmt(raw_i)} .. perfect {fmt(raw_p)} (limit {INFLATION_LEVEL}, "
            f"standard error {fmt(raw_se)})")
    elif not math.isnan(constant) and constant - rand > margin:
        value, why = v.CONSTANT_OVERRATED, f"a constant score beats random scores ({fmt(constant)} vs {fmt(rand)})"
    elif broken:
        value, why = v.DISORDERED, "; ".join(broken)
    else:
        tail = ("the constant score has no value (nan or an error): evidence only" if math.isnan(constant) else
                f"random {fmt(rand)} {'~' if abs(constant - rand) <= margin else '>'} constant {fmt(constant)} "
                f"(margin {fmt(margin)})")
        value, why = v.ORDERED, f"perfect {fmt(perfect)} > random {fmt(rand)} > inverted {fmt(inverted)}; {tail}"
    return _finding(v.CHANCE_ORDERING, value, numbers, why, r.curve(r.cases))


def against_chance_doubt(finding: PropertyFinding) -> str:
    """Why a property verdict read against chance is no verdict (``""`` when it is one, or reads no level against chance).

    Of the properties, only chance ordering places levels relative to chance: the perfect ranking, the
    constant and the inverted ranking against the random scores' mean (their differences from it, on the
    anchored scale).  Every other property compares the scores of one ground truth with each other (the
    chance anchor cancels in their differences) or raw values across ground truths.  A level read against
    the random mean needs the span from that mean to the perfect ranking to be at least
    :data:`~oipr_bench.auditing.table5.scale_guard.SPAN_STANDARD_ERRORS` standard errors of the mean, the
    rule the Table 5 rows read against chance follow (below it, three standard errors exceed 0.3 of the
    span).  ``random_inflated`` is read on the metric's own range (inverted .. perfect), with its own
    three-standard-error margin, not against chance, and stands.  The standard error comes from the
    anchored draws of the finding's curve, so a stored report is re-read to what a fresh audit gives.
    """
    if finding.name != v.CHANCE_ORDERING or finding.value == v.RANDOM_INFLATED or finding.curve is None:
        return ""
    draws = [y for x, y in zip(finding.curve.x, finding.curve.y) if x == "random"]
    perfect, rand = finding.numbers["score oracle (perfect ranking)"], finding.numbers["mean score random"]
    if len(draws) < 2 or any(math.isnan(y) for y in draws + [perfect, rand]):
        return ""
    se = float(np.std(draws, ddof=1)) / math.sqrt(len(draws))
    span = abs(perfect - rand)
    if span >= SPAN_STANDARD_ERRORS * se:
        return ""
    return (f"the span from the random scores' mean ({fmt(rand)}) to the perfect ranking ({fmt(perfect)}), "
            f"{fmt(span)} on the anchored scale, is less than {SPAN_STANDARD_ERRORS:g} standard errors of the random "
            f"scores' mean ({se:.3g} each): their own noise can move a level read against them (read alone, the rule "
            f"gives {finding.value}: {finding.explanation})")


RULES: dict[str, Callable[[Readings], PropertyFinding]] = {
    v.LAG_TOLERANCE: check_lag_tolerance, v.FP_DISTANCE: check_fp_distance, v.SPILL_OVER: check_spill_over,
    v.REDUNDANCY: check_redundancy, v.NORMAL_PADDING: check_normal_padding, v.TIME_REVERSAL: check_time_reversal,
    v.LABEL_SWAP_DUALITY: check_label_swap_duality, v.CONCATENATION: check_concatenation,
    v.RANKING_CONSISTENCY: check_ranking_consistency, v.NOISE_ROBUSTNESS: check_noise_robustness,
    v.TRANSFORM_INVARIANCE: check_transform_invariance, v.TIES: check_ties, v.CHANCE_ORDERING: check_chance_ordering,
}
