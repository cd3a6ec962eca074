"""The metric properties beyond Table 5: what each is, where it is stated, how it runs.

Each property has a stable name (:data:`oipr_bench.vocabulary.METRIC_PROPERTIES`),
the source that states it, the input it needs, its scenario family (the
fixture of ``scenarios/properties/`` with the same name,
:mod:`oipr_bench.scenarios.family_files`) and a rule
(:mod:`oipr_bench.auditing.properties.rules`).  :func:`run_property` calls an
evaluator on the family's cases and returns a
:class:`~oipr_bench.auditing.properties.results.PropertyResult`.

Input
-----
``binary`` properties need a 0/1 prediction (label-swap duality uses it as a
ground truth); ``scores`` properties need real anomaly scores and are not
applicable to a metric that takes 0/1 predictions; ``both`` properties hand a
binary metric the 0/1 prediction and a score metric the family's explicit
scores, which encode the same detection (0.95 predicted, 0.05 not, 0.0 on
appended quiet padding).

Scale
-----
Scores are read as the Table 5 rules read them, on the metric's own anchored
scale (:func:`oipr_bench.auditing.table5.readings.scale_of`): 1 is what the metric
gives ``y_pred = y_true`` on that case's ground truth, 0 what it gives an
uninformative input there: chance (its mean over seeded uniform-random scores)
for a metric taking scores, the empty prediction for one taking 0/1
predictions.  A scale that is undefined or saturated there (NaN, equal anchors,
anchors within 0.02 of the range) makes the property undetermined, never a
value; so does an evaluator that is not deterministic (the audit session checks
that first, :func:`undetermined_property`), and a level read against chance on a
span the random scores' own noise can move (:func:`guarded_property`).  A property
without a declared expectation is reported, never failed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Callable


from ..expectations import Expectation, judge
from .results import PropertyResult
from .rules import RULES, Readings, Undetermined, against_chance_doubt
from ..table5.readings import KIND_SCORE, Observations, oriented_raw, scale_of
from ... import vocabulary as v
from ...evaluators.score import Score

__all__ = ["PropertyDef", "DEFINITIONS", "BOTH", "run_property", "guarded_property", "judge_property", "undetermined_property"]

BINARY, SCORES, BOTH = "binary", "scores", "both"


@dataclass(frozen=True)
class PropertyDef:
    """A metric property: name, title, input it needs, the source that states it (our words) and its citation."""

    name: str
    title: str
    input: str
    source: str
    citation: str
    needs_pr: bool = False


DEFINITIONS: dict[str, PropertyDef] = {d.name: d for d in (
    PropertyDef(v.LAG_TOLERANCE, "Lag tolerance", BOTH,
                "A detection that lags or leads the label by a few points should lose score gradually, not all at once; "
                "buffer-based metrics may weigh early and late sides differently.",
                "Paparrizos et al., VUS, PVLDB 15(11) 2022, Sec. 3 (lag), and its journal version Boniol et al., arXiv 2502.13318 (robustness under misalignment, abstract); Ghorbani et al., PATE, arXiv 2405.12096, Sec. 3 (buffers)"),
    PropertyDef(v.FP_DISTANCE, "False-positive distance", BOTH,
                "A false alarm just beside a true event may be judged differently from one far away: proximity-aware "
                "metrics charge the near one less.",
                "Huet et al., affiliation metrics, KDD 2022 (arXiv 2206.13167), Sec. 3; Sorbo & Ruocco, arXiv 2303.01272, Sec. 4"),
    PropertyDef(v.SPILL_OVER, "Spill-over", BOTH,
                "A detection that keeps firing after the event ends is common in practice; metrics differ in whether "
                "that tail costs precision.",
                "Hwang et al., eTaPR, ACM SAC 2022 (doi:10.1145/3477314.3507024), its detection criterion (a prediction lying mostly outside the anomaly is not a detection; the original TaPR is Hwang et al., CIKM 2019); Sorbo & Ruocco, arXiv 2303.01272, Sec. 4"),
    PropertyDef(v.REDUNDANCY, "Redundancy", BOTH,
                "Several separate alarms for one event (same total length) may be penalised as redundant, rewarded, or "
                "ignored; operators usually want one alarm per event.",
                "Kotowski et al., ESA-ADB, arXiv 2406.17826, its evaluation metrics (alarming precision: redundant alarms for one event); Wagner et al., arXiv 2510.17562 (verifiable properties of TSAD metrics); the one-factor family (first alarm and detected share fixed) is oipr-bench's own design"),
    PropertyDef(v.NORMAL_PADDING, "Normal padding", BOTH,
                "Appending a long quiet normal stretch changes the anomaly ratio; a metric may or may not move with it.",
                "Boniol et al., VUS journal version, arXiv 2502.13318 (robustness to the anomaly cardinality ratio, abstract and robustness experiments), extending Paparrizos et al., VUS, PVLDB 15(11) 2022; that appended normal points should change nothing is oipr-bench's own derivation (they only add true negatives)"),
    PropertyDef(v.TIME_REVERSAL, "Time reversal", BOTH,
                "A metric with a positional bias (front-end or back-end) scores a layout and its mirror image "
                "differently; a flat bias does not.",
                "Tatbul et al., Precision and Recall for Time Series, NeurIPS 2018, Sec. 3 (positional bias)"),
    PropertyDef(v.LABEL_SWAP_DUALITY, "Label-swap duality", BINARY,
                "Range-based precision is recall with the roles of labels and predictions swapped; a metric may keep "
                "or break that symmetry.",
                "Tatbul et al., Precision and Recall for Time Series, NeurIPS 2018, Sec. 3", needs_pr=True),
    PropertyDef(v.CONCATENATION, "Concatenation", BOTH,
                "Scores of several series are combined by pooling (micro) or averaging (macro); joining two series "
                "end to end shows which one a metric does.",
                "Sorbo & Ruocco, arXiv 2303.01272, Sec. 3 (aggregation over series)"),
    PropertyDef(v.RANKING_CONSISTENCY, "Ranking consistency", SCORES,
                "A detector made progressively worse should get progressively lower scores; the rank correlation "
                "measures how well a metric separates grades.",
                "Yang et al., CCE and RankEval, arXiv 2509.01098 (RankEval: rank correlation of a metric with graded detectors); Paparrizos et al., VUS, PVLDB 15(11) 2022 (separability)"),
    PropertyDef(v.NOISE_ROBUSTNESS, "Noise robustness", SCORES,
                "Small random noise on the anomaly scores should not move a metric much.",
                "Paparrizos et al., VUS, PVLDB 15(11) 2022, Sec. 5 (robustness to noise), and Boniol et al., arXiv 2502.13318 (robustness under noise, abstract); Yang et al., CCE, arXiv 2509.01098 (Lipschitz robustness against score perturbations)"),
    PropertyDef(v.TRANSFORM_INVARIANCE, "Monotone-transform invariance", SCORES,
                "A threshold-free metric depends only on the order of the scores, so a strictly increasing transform "
                "leaves it unchanged; a fixed threshold does not.",
                "Fawcett, An introduction to ROC analysis, Pattern Recognition Letters 27(8) 2006, Sec. 4"),
    PropertyDef(v.TIES, "Ties", SCORES,
                "Equal scores must be handled on purpose: averaging over tied points is neutral, breaking ties in the "
                "detector's favour is optimistic.",
                "Fawcett, An introduction to ROC analysis, Pattern Recognition Letters 27(8) 2006, Sec. 5 (equally scored instances)"),
    PropertyDef(v.CHANCE_ORDERING, "Chance ordering", SCORES,
                "A perfect score should beat random scores, which should not lose to a constant score, which should "
                "beat the inverted perfect score.",
                "Fawcett, An introduction to ROC analysis, Pattern Recognition Letters 27(8) 2006, Sec. 3.1 (random scores lie on the diagonal; a classifier below it is an inverted one); Kim et al., AAAI 2022 (arXiv 2109.05257: random scores overrated by point adjustment); Yang et al., arXiv 2511.18739 (dimension 5: robustness against random or inflated scores); the full order perfect > random ~ constant > inverted is oipr-bench's own derivation"),
)}
assert tuple(DEFINITIONS) == v.METRIC_PROPERTIES


def judge_property(observed: str | None, expectation: Expectation | None) -> str:
    """A property's status: ``reported`` without an expectation; with one, as :func:`~.expectations.judge`."""
    if expectation is None:
        if observed is None:
            return v.UNDETERMINED
        return v.NOT_APPLICABLE if observed == v.NOT_APPLICABLE else v.REPORTED
    return judge(observed, expectation)


def _not_applicable(defn: PropertyDef, input_kind: str, kind: str | None) -> str:
    if defn.input == SCORES and input_kind == BINARY:
        return "needs real anomaly scores; this metric takes 0/1 predictions (declare --input scores if it takes scores)"
    if defn.input == BINARY and input_kind == SCORES:
        return "needs 0/1 predictions (it uses a prediction as the ground truth); this metric takes scores"
    if defn.needs_pr and kind == KIND_SCORE:
        return "needs precision and recall separately; this metric returns one number"
    return ""


def run_property(name: str, family: Any, call: Callable[..., Any], decl: Any, kind: Callable[[], str | None],
                 expectation: Expectation | None, anchors: Any) -> PropertyResult:
    """Run property ``name`` on ``family`` through ``call`` (an audit session's, so every call is checked).

    Parameters
    ----------
    family : oipr_bench.scenarios.family_files.Family
    call : callable
        ``call(y_true, y_pred) -> CallOutcome``.
    decl : Declarations
        Input kind, orientation and bounds in force.
    kind : callable
        The evaluator's result kind so far (``"pr"``, ``"score"`` or None).
    expectation : Expectation or None
        A declared expectation, if any.
    anchors : AnchorCalls
        The session's anchor calls (:class:`oipr_bench.auditing.profile.anchor_calls.AnchorCalls`:
        ``anchors(y)``, ``chance(y)``, ``draws``), made once per ground truth for the whole audit,
        Table 5 included.
    """
    defn = DEFINITIONS[name]

    def result(observed: str | None, finding: Any = None, message: str = "") -> PropertyResult:
        return PropertyResult(name, defn.input, observed, judge_property(observed, expectation), expectation,
                              finding, message, defn.citation)

    reason = _not_applicable(defn, decl.input_kind, kind())
    if reason:
        return result(v.NOT_APPLICABLE, message=reason)
    raw: dict[str, Any] = {}
    for case in family.cases:
        out = call(case.y_true, case.prediction(decl.input_kind))
        if not out.ok and name == v.CHANCE_ORDERING and case.parameter == "constant":
            # a constant score is a degenerate input a package may answer with an error: evidence, not a need
            raw[case.id] = SimpleNamespace(score=Score(math.nan, math.nan, math.nan))
            continue
        if not out.ok:
            return result(None, message=f"needs case {case.id}, which failed ({out.kind}: {out.message})")
        raw[case.id] = out
    reason = _not_applicable(defn, decl.input_kind, kind())
    if reason:
        return result(v.NOT_APPLICABLE, message=reason)
    try:
        readings = _readings(family, raw, decl, anchors, kind())
        finding = RULES[name](readings)
    except Undetermined as exc:
        return result(None, message=f"undetermined: {exc}")
    return guarded_property(result(finding.value, finding, finding.explanation))


def guarded_property(res: PropertyResult) -> PropertyResult:
    """``res``, or the undetermined result a verdict read against chance on too short a span gets.

    :func:`~oipr_bench.auditing.properties.rules.against_chance_doubt` reads only the finding's own
    evidence, so a fresh audit and the re-reading of a stored report call this one function.
    """
    why = "" if res.finding is None or res.observed is None else against_chance_doubt(res.finding)
    if not why:
        return res
    return PropertyResult(res.name, res.input, None, judge_property(None, res.expectation), res.expectation, None,
                          f"undetermined: no verdict: {why}", res.source)


def undetermined_property(name: str, decl: Any, kind: Callable[[], str | None], expectation: Expectation | None,
                          why: str) -> PropertyResult:
    """Property ``name`` left undetermined for ``why`` (a non-deterministic evaluator), unless it does not apply."""
    defn = DEFINITIONS[name]
    reason = _not_applicable(defn, decl.input_kind, kind())
    observed, message = (v.NOT_APPLICABLE, reason) if reason else (None, f"undetermined: {why}")
    return PropertyResult(name, defn.input, observed, judge_property(observed, expectation), expectation, None,
                          message, defn.citation)


def _readings(family: Any, raw: dict[str, Any], decl: Any, calls: Any, kind: str | None) -> Readings:
    """The family's results read on the metric's anchored scale (``calls``: the anchor calls, once per ground truth).

    A metric that takes real scores is anchored on chance (its mean over seeded uniform-random scores,
    :mod:`~oipr_bench.auditing.table5.chance`); one that takes 0/1 predictions on the empty prediction.
    """
    empty, perfect, problems, chance = {}, {}, {}, {}
    for case in family.cases:
        y = case.y_true
        drawn = calls.chance(y) if decl.input_kind == SCORES else None
        none, best = calls.anchors(y)
        if none.ok and best.ok:
            empty[case.id], perfect[case.id] = none.score, best.score
        elif drawn is not None and best.ok:  # a score metric's empty prediction is evidence only
            perfect[case.id] = best.score
        else:
            bad = none if not none.ok else best
            problems[case.id] = f"the anchors of {case.id} failed ({bad.kind}: {bad.message})"
        if drawn is not None and drawn[2]:
            problems.setdefault(case.id, f"the chance anchor of {case.id} cannot be read: {drawn[2]}")
        elif drawn is not None:
            chance[case.id] = drawn[:2]
    obs = Observations({c.id: raw[c.id].score for c in family.cases}, kind=kind or "pr",
                       higher_is_better=decl.higher_is_better, bounds=decl.bounds, empty=empty, perfect=perfect,
                       anchor_problems=problems, chance=chance, chance_draws=calls.draws)
    scales = {c.id: scale_of(obs, c.id) for c in family.cases}
    return Readings(family.parameter, tuple(c.id for c in family.cases), {c.id: c.parameter for c in family.cases},
                    {c: scales[c].read(float(obs.scores[c].f1)) for c in scales},
                    {c: float(obs.scores[c].precision) for c in scales}, {c: float(obs.scores[c].recall) for c in scales},
                    kind == KIND_SCORE, {c: s.problem for c, s in scales.items() if s.problem},
                    {c: oriented_raw(obs, c) for c in scales})
