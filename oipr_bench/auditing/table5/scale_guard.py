"""Is a verdict's scale usable on every case it read?  The last check of every Table 5 rule.

A rule reads its cases on the metric's anchored scale (:mod:`oipr_bench.auditing.table5.readings`):
0 = the uninformative input (chance, the mean over seeded uniform-random scores, for a metric taking
scores; the empty prediction for one taking 0/1 predictions), 1 = ``y_pred = y_true``.  Two ways a
verdict can still come from a scale that does not exist:

- **the uninformative input beats the perfect one** on a case the rule read (TimeEval's RangeRocVUS on
  ``fragmented_fps``: uniform-random scores 0.7746, ``y_pred = y_true`` 0.7239).  The scale is then
  undefined, and the order-only rules used to fall back on the raw values; but a metric that rates
  detecting nothing (or noise) above the perfect detection has no usable scale there, so nothing it
  orders there is a verdict;
- **a level compared with chance on a span the chance anchor's own noise can move**.  The chance
  anchor is a mean over a few draws, with a standard error ``se``; a reading ``(v - chance) / span``
  then carries ``se / span`` of noise, and the rules take three of them as the smallest effect that is
  not noise (:attr:`~oipr_bench.auditing.table5.findings.Reading.noise`).  A rule that reads a *level*
  against chance (:data:`LEVEL_RULES`: a gain over PW, a credit above 0, a ratio to the anchored
  scores, a constant against chance) needs ``span >= SPAN_STANDARD_ERRORS x se``.
  :data:`SPAN_STANDARD_ERRORS` = 3 / :data:`~oipr_bench.auditing.table5.findings.OVERESTIMATION_F1` = 10:
  below it the three-standard-error noise exceeds 0.3 of the scale, the highest level a rule compares
  with chance, so the verdict would only say that the reading lies within the anchor's noise, not on
  which side of its level.  ``random_overestimation`` of a score metric reads the random detector
  against chance too (above 0.3 of the chance-anchored scale, the paper's rule with chance as its 0):
  its ``absent`` needs that reading on every case, its ``present`` on one, so each such case needs the
  span as well (:func:`random_doubt`); a ``present`` read on the metric's own range (0 = ``y_pred =
  1 - y_true``), whose anchors are not the chance mean, stands on any chance span.  A stored finding
  without the chance standard error of a case it read against chance (a report written before the
  evidence recorded it) gets no verdict either: the span cannot be checked.  Order-only rules
  (overlap, early detection, long anomaly, sparse anomalies) compare the cases with each other, not
  with chance, and are not affected.

Both checks read only the finding's own evidence (the anchors of the cases it read, as
:func:`~oipr_bench.auditing.table5.findings.evidence_numbers` records them), so a stored report is
re-read to the same verdicts as a fresh audit (:func:`guarded` is the one function both call).
"""

from __future__ import annotations

import math
from typing import Mapping, NamedTuple

from .findings import OVERESTIMATION_F1, RANDOM_RANGE_LEVEL, Finding, fmt
from .readings import ANCHOR_TOLERANCE
from .score_rules import AGAINST_CHANCE
from ...vocabulary import (
    ABSENT,
    ADDRESSING_AMBIGUOUS_LABELS,
    ALL_ONE_OVERESTIMATION,
    EXISTENCE_DETECTION_REWARD,
    FRAGMENTS_MERGING,
    NOT_APPLICABLE,
    PRESENT,
    RANDOM_OVERESTIMATION,
    UNDETERMINED,
)

__all__ = ["SPAN_STANDARD_ERRORS", "LEVEL_RULES", "CaseAnchors", "case_anchors", "span_doubt", "random_doubt",
           "scale_doubt", "guarded"]

#: A level read against chance needs the chance-anchored span to be at least this many standard errors of
#: the chance mean (three standard errors, the rules' noise margin, within OVERESTIMATION_F1 of the scale).
SPAN_STANDARD_ERRORS = 3 / OVERESTIMATION_F1

#: The rules whose verdict places a level relative to the scale's 0 (chance, for a score metric) on every
#: case they read.  ``random_overestimation`` of a score metric reads some of its verdicts against chance and
#: some on the metric's own range: :func:`random_doubt` checks it.
LEVEL_RULES = (EXISTENCE_DETECTION_REWARD, FRAGMENTS_MERGING, ADDRESSING_AMBIGUOUS_LABELS, ALL_ONE_OVERESTIMATION)

#: How the re-reading of an old report names a chance standard error its evidence does not hold.
_NOT_RECORDED = ("the chance standard error was not recorded in this finding's evidence (a report written before "
                 "the evidence kept it), so the span of a level read against chance cannot be checked; re-profile "
                 "the evaluator to read it (a slow atlas row: atlas --write --include-slow)")

_CHANCE = "anchor 0: chance (mean over uninformative scores)"
_SE = "chance standard error"
_ONE = "anchor 1: y_pred = y_true"
_EMPTY = "anchor 0: empty prediction"


class CaseAnchors(NamedTuple):
    """The anchors of one case as a finding's evidence records them.

    ``zero``: chance (a score metric) or the empty prediction; ``one``: ``y_pred = y_true``;
    ``se``: the chance mean's standard error (NaN on an empty-prediction scale); ``chance``: which zero.
    """

    zero: float
    one: float
    se: float
    chance: bool


def _num(numbers: Mapping[str, float], key: str) -> float:
    x = numbers.get(key)
    return math.nan if x is None else float(x)


def case_anchors(numbers: Mapping[str, float], cases: tuple[str, ...]) -> dict[str, CaseAnchors]:
    """``{case: CaseAnchors}`` for the cases whose anchors ``numbers`` records (shared labels or one per case)."""
    out = {}
    for c in cases:
        for chance, zero_key, one_key in ((True, _CHANCE, _ONE), (False, _EMPTY, _ONE), (False, "anchor 0", "anchor 1")):
            shared = zero_key != "anchor 0" and zero_key in numbers and one_key in numbers
            zk, ok, sk = (zero_key, one_key, _SE) if shared else (f"{zero_key} {c}", f"{one_key} {c}", f"{_SE} {c}")
            if zk in numbers and ok in numbers:
                out[c] = CaseAnchors(_num(numbers, zk), _num(numbers, ok), _num(numbers, sk) if chance else math.nan, chance)
                break
    return out


def scale_doubt(finding: Finding, higher_is_better: bool, scalar: bool) -> str:
    """Why ``finding``'s verdict has no usable scale on a case it read (``""`` when it has one).

    ``higher_is_better`` and ``scalar`` are the evaluator's declarations (a P/R result is read as F1,
    higher is better).
    """
    if finding.value in (UNDETERMINED, NOT_APPLICABLE):
        return ""
    anchors = case_anchors(finding.numbers, finding.cases)
    up = higher_is_better or not scalar
    for c in finding.cases:
        a = anchors.get(c)
        if a is None or math.isnan(a.zero) or math.isnan(a.one) or abs(a.one - a.zero) <= ANCHOR_TOLERANCE:
            continue
        if (a.one > a.zero) != up:
            what = "uninformative scores (mean)" if a.chance else "the empty prediction"
            return (f"on {c} the metric rates {what} ({a.zero:.6g}) {'above' if up else 'below'} y_pred = y_true "
                    f"({a.one:.6g}), against its declared orientation: no usable scale there")
    if finding.name in LEVEL_RULES:
        for c in finding.cases:
            a = anchors.get(c)
            why = "" if a is None or not a.chance else span_doubt(c, a)
            if why:
                return why
    if finding.name == RANDOM_OVERESTIMATION:
        return random_doubt(finding)
    return ""


def span_doubt(case: str, a: CaseAnchors) -> str:
    """Why a level read against chance on ``case`` (anchors ``a``) is no verdict (``""`` when the span holds it).

    The chance-anchored span must be at least :data:`SPAN_STANDARD_ERRORS` standard errors of the chance mean;
    a standard error the evidence does not hold leaves the span unchecked, hence no verdict.
    """
    if math.isnan(a.zero) or math.isnan(a.one):
        return ""  # no scale: the rule itself could not read the case
    if math.isnan(a.se):
        return f"on {case} {_NOT_RECORDED}"
    span = abs(a.one - a.zero)
    if span < SPAN_STANDARD_ERRORS * a.se:
        return (f"on {case} the chance-anchored span (y_pred = y_true {a.one:.6g} - chance {a.zero:.6g} = "
                f"{fmt(span)}) is less than {SPAN_STANDARD_ERRORS:g} standard errors of the chance mean "
                f"({a.se:.3g} each): the anchor's own noise can move a level read against chance there")
    return ""


def random_doubt(finding: Finding) -> str:
    """Why a score metric's ``random_overestimation`` verdict is no verdict (``""`` when it is one).

    Read from the evidence of :func:`~oipr_bench.auditing.table5.score_rules.random_on_range`: a ``present``
    read on the metric's own range (a random detector, or uniform-random scores, above
    :data:`~oipr_bench.auditing.table5.findings.RANDOM_RANGE_LEVEL` of ``1 - y_true`` .. ``y_true``) stands;
    otherwise the verdict was read against chance: ``absent`` on every case it read, ``present`` on a case
    whose reading lies above :data:`~oipr_bench.auditing.table5.findings.OVERESTIMATION_F1`, and each such
    case needs the span (:func:`span_doubt`).  The evidence of a binary metric's rule (no chance anchor) is
    not read here.
    """
    n = finding.numbers
    if finding.value not in (PRESENT, ABSENT) or not any(f"uniform-random scores (mean) {c}" in n for c in finding.cases):
        return ""
    anchors = {c: CaseAnchors(_num(n, f"uniform-random scores (mean) {c}"), _num(n, f"y_pred = y_true {c}"),
                              _num(n, f"chance standard error {c}"), True) for c in finding.cases}
    if finding.value == PRESENT:
        on_range = [_num(n, f"{what} on the range {c}") for c in finding.cases
                    for what in ("random detector", "uniform-random scores")]
        if any(x > RANDOM_RANGE_LEVEL for x in on_range):
            return ""
        if not any(f"{AGAINST_CHANCE} {c}" in n for c in finding.cases):  # written before the evidence kept it
            return f"on {', '.join(finding.cases)} {_NOT_RECORDED}"
        above = [c for c in finding.cases if _num(n, f"{AGAINST_CHANCE} {c}") > OVERESTIMATION_F1]
        doubts = [span_doubt(c, anchors[c]) for c in above]
        return doubts[0] if doubts and all(doubts) else ""
    return next((why for why in (span_doubt(c, anchors[c]) for c in finding.cases) if why), "")


def guarded(finding: Finding, higher_is_better: bool, scalar: bool) -> Finding:
    """``finding``, or the ``undetermined`` finding :func:`scale_doubt` gives it (its numbers kept as evidence)."""
    why = scale_doubt(finding, higher_is_better, scalar)
    if not why:
        return finding
    return Finding(finding.name, UNDETERMINED, finding.cases, dict(finding.numbers),
                   f"no verdict: {why} (read alone, the rule gives {finding.value}: {finding.explanation})")
