"""A probe corpus: metrics whose characteristic profiles can be derived by hand.

Each probe is audited on the special-scenario dataset and its whole row (the
ten characteristics of Table 5 + Table A1's markers) is compared with the row
derived in the comment next to it.  The probes test the rules themselves:
degenerate metrics must not earn beneficial verdicts, a scalar metric must
get the verdicts of the built-in it wraps on every rule a scalar can answer
(``not_applicable`` elsewhere), and orientation, bounds and score input must
not change a verdict that does not depend on them.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import oipr_bench
from oipr_bench.auditing.table5 import characteristics as ch
from oipr_bench.reference import paper
from oipr_bench.scenarios.events import events_list
from oipr_bench.evaluators import NAMES, get

NA = "not_applicable"
BENEFICIAL_NO = {n: "no" for n in ch.BENEFICIAL}


def _row(profile) -> dict[str, str | None]:
    return {n: profile.characteristics[n] for n in ch.CHARACTERISTICS}


def _table5_row(name: str) -> dict[str, str]:
    return {n: paper.table_5()[n][name] for n in ch.CHARACTERISTICS}


def _scalar_row(name: str) -> dict[str, str]:
    """The built-in's Table 5 row as a (bounded) scalar metric can answer it.

    Precision is not available -> fragmentation misleading is not applicable.
    Long anomaly misleading: ``present`` is read from the score alone; when the
    short anomalies win, absent vs mitigated needs the recall share -> not applicable.
    """
    row = _table5_row(name)
    row["fragmentation_misleading_in_precision"] = NA
    if row["long_anomaly_misleading"] != "present":
        row["long_anomaly_misleading"] = NA
    return row


def _sanity(profile) -> dict[str, str]:
    return {n: r.status for n, r in profile.sanity_results.items()}


# -- degenerate metrics: no beneficial "yes", sanity[discriminates] fails ----------------------------


UNDETERMINED_MARKERS = {"all_one_overestimation": None, "random_overestimation": None}
#: A metric without a scale: credit (measured from the empty prediction) cannot be read.
NO_SCALE_BENEFICIAL = {**BENEFICIAL_NO, "existence_detection_reward": None, "addressing_ambiguous_labels": None}


@pytest.mark.parametrize(
    "value, misleading",
    [
        # (0, 0): F1 = 0 everywhere, also for the empty and the perfect prediction, so the anchored scale
        # (0 = empty, 1 = perfect) is undefined on every ground truth.  The rules that compare scores with
        # each other read the raw order: every comparison is a tie -> overlap, early detection "no"; fragments
        # merging: c1 is not below c2, c3 -> "no"; precision 0 everywhere -> fragmentation "absent"; sparse
        # "absent".  Existence reward and ambiguous labels measure credit from the empty prediction, the
        # recall share is (0 - 0) / (0 - 0) and the overestimation markers need the scale -> undetermined
        # (None) with the reason, never a verdict read from a degenerate anchor.
        ((0.0, 0.0), {"fragmentation_misleading_in_precision": "absent", "long_anomaly_misleading": None,
                      "sparse_anomaly_misleading": "absent", **UNDETERMINED_MARKERS}),
        # (1, 1): the same reasoning at F1 1 (the empty prediction scores 1 too: no scale; precision 1 everywhere).
        ((1.0, 1.0), {"fragmentation_misleading_in_precision": "absent", "long_anomaly_misleading": None,
                      "sparse_anomaly_misleading": "absent", **UNDETERMINED_MARKERS}),
        # (0.5, 0.5): the same at F1 0.5.
        ((0.5, 0.5), {"fragmentation_misleading_in_precision": "absent", "long_anomaly_misleading": None,
                      "sparse_anomaly_misleading": "absent", **UNDETERMINED_MARKERS}),
        # One constant number 0.5: a scalar, so precision-based rules are not applicable, and with every
        # score equal the long anomaly never wins -> not applicable; otherwise as (0.5, 0.5).
        (0.5, {"fragmentation_misleading_in_precision": NA, "long_anomaly_misleading": NA,
               "sparse_anomaly_misleading": "absent", **UNDETERMINED_MARKERS}),
    ],
    ids=["constant-0-0", "constant-1-1", "constant-half", "constant-scalar"],
)
def test_constant_metrics_get_no_beneficial_yes_and_fail_discrimination(value, misleading):
    prof = oipr_bench.audit(lambda t, p: value)
    assert _row(prof) == {**NO_SCALE_BENEFICIAL, **misleading}
    sanity = prof.sanity_results["discriminates"]
    assert sanity.status == "failed"
    # the message gives the numbers: perfect, no detection and all ones all score the constant
    f1 = value if isinstance(value, float) else (0.0 if value[0] == 0 else 2 * value[0] * value[1] / (value[0] + value[1]))
    assert f"y_pred = y_true {f1:.6g}, no detection {f1:.6g}, all ones {f1:.6g}" in sanity.message
    assert "degenerate" in sanity.message
    assert not prof.ok
    # an undetermined marker says why: the metric has no scale
    marker = prof.characteristic_results["all_one_overestimation"]
    assert marker.status == "undetermined"
    assert f"the empty prediction and y_pred = y_true both score {f1:.6g}" in marker.message


def test_the_three_false_verdicts_of_the_issue_are_gone():
    zero = oipr_bench.audit(lambda t, p: (0.0, 0.0), sanity=False)
    assert zero.characteristics["fragments_merging"] == "no"  # was "yes" on c1 0 vs c2 0, c3 0
    for const in ((1.0, 1.0), (0.5, 0.5)):
        prof = oipr_bench.audit(lambda t, p, c=const: c, sanity=False)
        # was "yes": now never a beneficial value; without a scale, undetermined (the metric gives the empty
        # prediction what it gives every detection)
        assert prof.characteristics["existence_detection_reward"] is None
        assert prof.characteristics["addressing_ambiguous_labels"] is None
        assert "both score" in prof.characteristic_results["existence_detection_reward"].message
        # was "mitigated", then "absent" from a NaN share; the share is undefined: undetermined
        assert prof.characteristics["long_anomaly_misleading"] is None


# -- scalar F1 of each built-in: the built-in's verdict wherever a scalar can answer -------------------


@pytest.mark.parametrize("name", NAMES)
def test_scalar_f1_of_each_builtin_gives_its_row(name):
    ev = get(name)
    prof = oipr_bench.audit(lambda t, p: ev(t, p).f1)
    assert prof.kind == "score"
    assert _row(prof) == _scalar_row(name)
    # a real metric separates the perfect detection from none and from all ones
    assert prof.sanity_results["discriminates"].status == "passed"
    assert prof.sanity_results["perfect"].status == "passed"
    statuses = {n: r.status for n, r in prof.characteristic_results.items()}
    assert statuses["fragmentation_misleading_in_precision"] == "not_applicable"
    assert "precision" in prof.characteristic_results["fragmentation_misleading_in_precision"].message


def test_done_criterion_scalar_pw():
    # The issue's acceptance example: a lambda returning PW's F1 gives PW's Table 5 verdict on every
    # characteristic a scalar can answer (PW: long anomaly misleading "present", read from the score).
    pw = get("PW")
    prof = oipr_bench.audit(lambda y_true, y_pred: pw(y_true, y_pred).f1)
    row = _row(prof)
    assert row == {**_table5_row("PW"), "fragmentation_misleading_in_precision": NA}
    failing = {r.name for r in prof.characteristic_results.values() if r.status == "failed"}
    assert failing == {"existence_detection_reward", "fragments_merging", "addressing_ambiguous_labels",
                       "early_detection_reward", "long_anomaly_misleading"}


# -- orientation, bounds, score input ----------------------------------------------------------------


def test_one_minus_pw_f1_lower_is_better_equals_pw():
    # 1 - F1 in [0, 1], lower is better: the oriented score (1 - v) / 1 is PW's F1 on every case,
    # so every rule reads exactly PW's numbers and gives PW's verdicts.
    pw = get("PW")
    prof = oipr_bench.audit(lambda t, p: 1.0 - pw(t, p).f1, higher_is_better=False)
    assert _row(prof) == _scalar_row("PW")
    assert prof.sanity_results["perfect"].status == "passed"  # perfect = 0, the lower bound
    assert prof.sanity_results["discriminates"].status == "passed"
    # declared the wrong way round, the same metric is degenerate-looking: perfect is the worst
    wrong = oipr_bench.audit(lambda t, p: 1.0 - pw(t, p).f1)
    assert wrong.sanity_results["discriminates"].status == "failed"
    assert wrong.sanity_results["perfect"].status == "failed"


def test_unbounded_lower_is_better_is_anchored_on_its_own_scale():
    # 10 (1 - F1_OIPR), lower is better, declared bounds [0, inf): read per ground truth as
    # (v - v_none) / (v_perfect - v_none) = ((10 - 10 F1) - 10) / (0 - 10) = F1 (OIPR gives the empty
    # prediction F1 0 and the perfect one 1).  Every rule, also those that compare with a fixed level
    # (existence: PW's F1; overestimation: 0.3), reads exactly OIPR's numbers -> OIPR's row.
    oipr = get("OIPR")
    prof = oipr_bench.audit(lambda t, p: 10.0 * (1.0 - oipr(t, p).f1), higher_is_better=False, bounds=(0, None))
    assert _row(prof) == _scalar_row("OIPR")
    evidence = prof.evidence["fragments_merging"].numbers
    assert evidence["score fragmented_fps/c1"] == pytest.approx(oipr(*_case("fragmented_fps/c1")).f1)
    assert evidence["anchor 0: empty prediction"] == pytest.approx(10.0)
    assert evidence["anchor 1: y_pred = y_true"] == pytest.approx(0.0)
    assert "0 = empty prediction 10, 1 = y_pred = y_true 0" in prof.evidence["all_one_overestimation"].explanation


def _case(case_id):
    from oipr_bench import scenarios

    case = {c.id: c for c in scenarios.load()}[case_id]
    return case.y_true, case.predictions[0]


def test_point_adjusted_f1_on_scores_gives_pa_row():
    # A score-based metric: thresholds the anomaly scores at 0.5, then point-adjusted F1.  On the special
    # scenarios the scores are the 0/1 prediction as 0.0/1.0, so it is PA's F1 and gets PA's row.
    pa = get("PA")
    seen = set()

    def pa_on_scores(y_true, scores):
        seen.add((y_true.dtype.name, scores.dtype.name))
        return pa(y_true, (scores >= 0.5).astype(np.int8)).f1

    prof = oipr_bench.audit(pa_on_scores, input="scores")
    assert _row(prof) == _scalar_row("PA")
    assert prof.declarations.input_kind == "scores"
    # y_pred always arrives as float64 scores; y_true stays labels (int8; sanity[bool_int] also tries int64, bool)
    assert {s for _, s in seen} == {"float64"}
    assert ("int8", "float64") in seen
    # the attribute declares it the same way
    pa_on_scores.input_kind = "scores"
    seen.clear()
    assert _row(oipr_bench.audit(pa_on_scores, sanity=False)) == _scalar_row("PA")
    assert seen == {("int8", "float64")}


def test_event_wise_recall_only():
    # Share of ground-truth events with at least one predicted point (a scalar in [0, 1]).
    # - existence: one point of the 50-point event -> 1.0 > PW's 0.0392 and > 0 (no detection) -> yes.
    # - overlap: 1.0 on c1..c4 -> no.   fragments merging: no true event is hit... all three 0 (ties) -> no.
    # - ambiguous labels: shifted detections miss every event -> 0 = no-detection level -> no.
    # - early detection: 1.0 at every position -> no.
    # - long anomaly: c1 finds 1 of 7 events (0.1429) < c2 6 of 7 -> not present; absent vs mitigated
    #   needs recall -> not applicable.  sparse: extra FP changes nothing -> absent.
    # - all-1 detector finds every event: 1.0 > 0.3 -> present; the random detector hits most events -> present.
    # It cannot tell the perfect detection from the all-ones detector: sanity[discriminates] fails.
    def event_recall(y_true, y_pred):
        evs = events_list(y_true)
        return sum(bool(y_pred[s:e].any()) for s, e in evs) / len(evs) if evs else math.nan

    prof = oipr_bench.audit(event_recall)
    assert _row(prof) == {
        "existence_detection_reward": "yes", "overlap_proportion_awareness": "no", "fragments_merging": "no",
        "addressing_ambiguous_labels": "no", "early_detection_reward": "no",
        "fragmentation_misleading_in_precision": NA, "long_anomaly_misleading": NA,
        "sparse_anomaly_misleading": "absent", "all_one_overestimation": "present", "random_overestimation": "present",
    }
    assert prof.sanity_results["discriminates"].status == "failed"
    assert "all ones" in prof.sanity_results["discriminates"].message


@pytest.mark.parametrize(
    "k, changed",
    [
        # K = 20: an event is adjusted when more than 20 % of it is predicted.  Overlap c1 (2 %) and
        # c2 (exactly 20 %, not more) stay at PW's F1, c3 (52 %) becomes 1.0 -> existence "piecewise";
        # F1 rises c1 < c2 < c3 and then stays 1.0 at c4 -> overlap "piecewise" (same as K = 50).
        (20, {"existence_detection_reward": "piecewise", "overlap_proportion_awareness": "piecewise"}),
        # K = 80: 52 % is not enough, so c1..c3 equal PW -> existence "no"; c4 (100 %) is 1.0 under PW
        # too, so F1 is PW's and rises strictly -> overlap "yes".
        (80, {"existence_detection_reward": "no", "overlap_proportion_awareness": "yes"}),
    ],
)
def test_pa_percent_k_at_20_and_80(k, changed):
    # Everything else is PA%K's (K = 50) row: the long event (10 points) is fully detected in
    # long_anomaly_effect/c1, so point adjustment changes nothing there and PW's "present" stays; the
    # fragmented/shifted cases have no event above K % that PW would not count -> as K = 50.
    prof = oipr_bench.audit("PA%K", k=k, sanity=False)
    assert _row(prof) == {**_table5_row("PA%K"), **changed}


def test_a_metric_that_ignores_y_pred():
    # The anomaly ratio of y_true: a scalar that never looks at the prediction.  Within a scenario every
    # case shares y_true, so every comparison is a tie and the empty prediction scores the same -> every
    # overlap, early detection, fragments merging "no" (read in raw order: ties); sparse: tie -> absent; long
    # anomaly: tie, not present -> not applicable.  The empty and the perfect prediction score the same anomaly
    # ratio, so the metric has no scale: existence reward, ambiguous labels and the overestimation markers are
    # undetermined (the raw ratios 0.02-0.1 are not a verdict).
    # y_pred = y_true scores 0.016, not 1: perfect fails, and discriminates fails (perfect = none = all ones).
    prof = oipr_bench.audit(lambda t, p: float(t.mean()))
    assert _row(prof) == {**NO_SCALE_BENEFICIAL, "fragmentation_misleading_in_precision": NA,
                          "long_anomaly_misleading": NA, "sparse_anomaly_misleading": "absent", **UNDETERMINED_MARKERS}
    assert _sanity(prof)["discriminates"] == "failed"
    assert _sanity(prof)["perfect"] == "failed"


def test_scalar_answers_lists_the_applicable_rules():
    bounded = ch.scalar_answers(bounded=True)
    assert "fragmentation_misleading_in_precision" not in bounded
    assert set(bounded) == set(ch.CHARACTERISTICS) - {"fragmentation_misleading_in_precision"}
    # every score is read on its anchored scale, so an unbounded score answers the same rules
    assert ch.scalar_answers(bounded=False) == bounded


# -- metrics that are not F1-shaped: each read on its own anchored scale ------------------


def _auc_roc(y_true, scores):
    """ROC AUC as the Mann-Whitney statistic (ties count half), as a user would write it."""
    y = np.asarray(y_true).astype(bool)
    s = np.asarray(scores, dtype=float)
    pos, neg = s[y], np.sort(s[~y])
    if len(pos) == 0 or len(neg) == 0:
        return math.nan
    below = np.searchsorted(neg, pos, side="left")
    ties = np.searchsorted(neg, pos, side="right") - below
    return float((below.sum() + 0.5 * ties.sum()) / (len(pos) * len(neg)))


def _average_precision(y_true, scores):
    """Average precision: sum over score thresholds of (R_n - R_{n-1}) P_n."""
    y = np.asarray(y_true).astype(bool)
    s = np.asarray(scores, dtype=float)
    if not y.any():
        return math.nan
    ap, last_recall = 0.0, 0.0
    for t in np.unique(s)[::-1]:
        flagged = s >= t
        tp = float((flagged & y).sum())
        recall = tp / y.sum()
        ap += (recall - last_recall) * tp / flagged.sum()
        last_recall = recall
    return ap


# Both on 0/1 predictions (TPR, FPR, precision P, prevalence q of the case):
#   AUC = (1 + TPR - FPR) / 2: empty prediction 0.5, perfect 1 -> anchored AUC = TPR - FPR;
#   AP = TPR P + (1 - TPR) q: empty prediction q, perfect 1   -> anchored AP = TPR (P - q) / (1 - q).
# - existence: overlap c1..c3 flag 1, 10, 26 of 50 event points and nothing else (FPR 0, P 1): anchored
#   0.02, 0.2, 0.52, each below PW's F1 (0.0392, 0.3333, 0.6842) -> no (AUC's raw 0.51 is 2 % of its range).
# - overlap: 0.02 < 0.2 < 0.52 < 1 -> yes.   fragments merging: c1 and c2 flag the same 10 FP points and
#   the same TPs -> equal -> no.   ambiguous labels: shifted detections have TPR 0 -> at or below 0 -> no.
# - early detection: one TP point at four positions -> equal -> no.   fragmentation: needs precision -> n/a.
# - long anomaly: c1 finds 10 of 16 anomaly points (0.625), c2 6 of 16 (0.375), no FPs -> present.
# - sparse: c2 adds an FP: AUC's FPR rises and AP's P falls -> lower -> absent.
# - all-1 detector: TPR = FPR = 1 and P = q -> 0 on both scales -> absent; the random detector flags 2 % at
#   random: TPR ~ FPR and P ~ q in expectation -> ~0 -> absent (no overestimation at chance).
# Since 0.4 anchor 0 of a score metric is chance, its mean over 10 seeded uniform-random score series
# (AUC 0.5, AP about q): the readings above hold up to the draws' scatter, and the all-1 detector (a
# constant score) is read against chance within its margin (0.02 or three standard errors) -> absent; the
# random detector sits near the middle of the range from 1 - y_true (AUC 0) to y_true (AUC 1) -> absent.
THRESHOLD_FREE_ROW = {
    "existence_detection_reward": "no", "overlap_proportion_awareness": "yes", "fragments_merging": "no",
    "addressing_ambiguous_labels": "no", "early_detection_reward": "no", "fragmentation_misleading_in_precision": NA,
    "long_anomaly_misleading": "present", "sparse_anomaly_misleading": "absent", "all_one_overestimation": "absent",
    "random_overestimation": "absent",
}


@pytest.mark.parametrize("fn, empty", [(_auc_roc, 0.5), (_average_precision, 0.1)], ids=["auc_roc", "average_precision"])
def test_threshold_free_metrics_are_read_on_their_own_scale(fn, empty):
    # Since 0.4 a score metric's anchor 0 is chance: its mean over 10 seeded uniform-random score
    # series on the ground truth (AUC 0.5, AP about the prevalence 0.1, each up to the draws' scatter).
    # The empty prediction (AUC 0.5, AP 0.1 by these implementations' conventions) is evidence only.
    prof = oipr_bench.audit(fn, input="scores")
    # AUC-ROC's chance spread on temporal_shifting (standard error 0.053 over 10 draws) leaves its span
    # 1 - chance below 10 standard errors: the level-vs-chance reading of ambiguous labels is undetermined
    # there (the span rule of docs/properties.md); AP's chance sits near the prevalence, far from 1.
    expected = {**THRESHOLD_FREE_ROW, "addressing_ambiguous_labels": None} if fn is _auc_roc else THRESHOLD_FREE_ROW
    assert _row(prof) == expected
    existence = prof.evidence["existence_detection_reward"]
    n = existence.numbers
    chance, se = n["anchor 0: chance (mean over uninformative scores)"], n["chance standard error"]
    assert abs(chance - empty) <= 3 * se + 0.01 and 0 < se < 0.03
    assert n["empty prediction (evidence only)"] == pytest.approx(empty)
    assert n["score overlap_proportion/c1"] == pytest.approx((n["raw overlap_proportion/c1"] - chance) / (1 - chance))
    assert "chance-anchored scale (0 = mean over 10 uniform-random scores" in existence.explanation
    marker = prof.evidence["all_one_overestimation"]
    assert marker.numbers["raw constant_detector/c2"] == pytest.approx(empty)
    assert marker.numbers["score constant_detector/c2"] <= marker.numbers["allowed margin over chance"]
    assert prof.sanity_results["discriminates"].status == "passed"


def _mttd(y_true, y_pred):
    """Mean time to detect: mean over detected events of the first detected point's offset (NaN: none detected)."""
    delays = [float(np.flatnonzero(y_pred[s:e])[0]) for s, e in events_list(y_true) if y_pred[s:e].any()]
    return float(np.mean(delays)) if delays else math.nan


def test_mttd_lower_is_better_and_unbounded():
    # Lower is better, bounds [0, inf).  The empty prediction detects nothing: nan, so the metric has no
    # anchored scale on any ground truth.
    # - early detection: delays 0, 5, 24, 29 on tp_positions c1..c4, strictly better in raw order, and the
    #   drop (29) is far above 1 % of the largest delay -> yes, read from the raw order (the evidence says so).
    # - overlap: every overlap starts at the event start: delay 0 everywhere -> no rise -> no.  fragments
    #   merging: delay 0 in c1..c3 (the event is found at its start) -> c1 not below -> no.  sparse: delay 0
    #   in both -> absent.  long anomaly: 0 vs 0 -> not present; a scalar cannot go further -> n/a.
    # - existence and the all-1 marker compare with a level on the scale: undetermined (the empty prediction
    #   scores nan).  Ambiguous labels and the random marker: the shifted detections and some random runs
    #   detect no event and return nan with a prediction present, which the runner refuses -> undetermined.
    # Never a "no" derived from NaN.
    prof = oipr_bench.audit(_mttd, higher_is_better=False, bounds=(0, None))
    assert _row(prof) == {
        "existence_detection_reward": None, "overlap_proportion_awareness": "no", "fragments_merging": "no",
        "addressing_ambiguous_labels": None, "early_detection_reward": "yes", "fragmentation_misleading_in_precision": NA,
        "long_anomaly_misleading": NA, "sparse_anomaly_misleading": "absent", "all_one_overestimation": None,
        "random_overestimation": None,
    }
    early = prof.characteristic_results["early_detection_reward"]
    assert "0.0000 / 5.0000 / 24.0000 / 29.0000" in early.message
    assert "raw values, lower is better (the empty prediction scores nan" in early.message
    for name in ("existence_detection_reward", "all_one_overestimation"):
        r = prof.characteristic_results[name]
        assert r.status == "undetermined"
        assert "the empty prediction scores nan on the ground truth of" in r.message
    assert "temporal_shifting/c1, which failed" in prof.characteristic_results["addressing_ambiguous_labels"].message


def _event_f1(y_true, y_pred):
    """Event-wise precision and recall: predicted events that touch a true event, true events touched."""
    true_ev, pred_ev = events_list(y_true), events_list(y_pred)
    touch = lambda a, b: a[0] < b[1] and b[0] < a[1]  # noqa: E731
    p = sum(any(touch(pe, te) for te in true_ev) for pe in pred_ev) / len(pred_ev) if pred_ev else math.nan
    r = sum(any(touch(te, pe) for pe in pred_ev) for te in true_ev) / len(true_ev) if true_ev else math.nan
    return p, r


def test_event_wise_f1():
    # P = predicted events touching a true event / predicted events, R = true events touched / true events.
    # The empty prediction has P = 0/0, R = 0: F1 read as 0 (the bottom of F1's scale); the perfect one 1.
    # - existence: one point finds the event: P = R = 1 on c1 > PW's 0.0392 -> yes.  overlap: 1 on c1..c4 -> no.
    # - fragments merging: c1 and c2 each add 10 one-point FP events to the detected event (P = 1/11... both
    #   give F1 0.1667) -> equal -> no.  ambiguous: shifted detections touch nothing -> F1 0 -> no.
    # - early: 1 at every position -> no.  fragmentation: 1, 3, 6 TP fragments + 1 FP event: P 1/2, 3/4, 6/7 ->
    #   rises -> present.  long anomaly: c1 finds 1 of 7 events (F1 0.25) < c2 6 of 7 (0.9231); recall share
    #   1/7 = the equal share -> absent.  sparse: the extra FP event lowers P -> absent.
    # - all-1 detector: one predicted event touching every true event: P = R = 1 -> present.  Random detector:
    #   many small predicted events, most touching nothing: low P (means 0.0405, 0.0752) -> absent.
    # The all-ones detector scores as high as the perfect one: sanity[discriminates] fails; declared, it passes.
    prof = oipr_bench.audit(_event_f1)
    assert _row(prof) == {
        "existence_detection_reward": "yes", "overlap_proportion_awareness": "no", "fragments_merging": "no",
        "addressing_ambiguous_labels": "no", "early_detection_reward": "no",
        "fragmentation_misleading_in_precision": "present", "long_anomaly_misleading": "absent",
        "sparse_anomaly_misleading": "absent", "all_one_overestimation": "present", "random_overestimation": "absent",
    }
    assert prof.sanity_results["discriminates"].status == "failed"
    assert "read as 0, the bottom of the scale" in prof.evidence["existence_detection_reward"].explanation


def _chance_f1(y_true, y_pred):
    """The expected PW F1 of a detector flagging as many points as y_pred, at random: 2 m k / (n (m + k))."""
    n, m, k = len(y_true), float(np.sum(y_true)), float(np.sum(y_pred))
    return 0.0 if m + k == 0 else 2 * m * k / (n * (m + k))


def test_a_metric_at_chance_everywhere():
    # It sees only how many points are flagged (k; m anomalies of n points).  Empty prediction 0, perfect
    # (k = m) m / n, so on its anchored scale it reads 2k / (m + k): PW's F1 of k flagged points all hits.
    # - existence: overlap c1..c3 flag exactly their TPs -> equal to PW's F1 -> no.  overlap: k rises -> yes.
    # - fragments merging: c1 and c2 flag the same number of points -> equal -> no.
    # - ambiguous labels: the shifted detections flag points -> above 0 -> yes (it rewards any flag).
    # - early: one point each -> equal -> no.   fragmentation: n/a (scalar).
    # - long anomaly: c1 flags 10 points, c2 6 (m = 16): 20/26 = 0.769 > 12/22 = 0.545 -> present.
    # - sparse: the extra FP adds a flagged point -> higher -> present.
    # - all-1: k = n, 2 / (q + 1) = 1.818 for q = 0.1 -> present; random: k = 0.02 n, q = 0.045:
    #   0.04 / 0.065 = 0.615 in expectation -> present.  Its perfect score (0.1) is not 1 and the all-ones
    #   detector beats it: sanity[perfect] and sanity[discriminates] fail.
    # Since 0.4 a case whose perfect and empty anchors lie within 0.02 of the declared range (0, 1) is
    # saturated, and every verdict reading it is undetermined: the perfect score m/n is 0.012 on temporal
    # shifting (m = 6, n = 500), 0.016 on long anomaly (16 of 1000) and 0.002 on sparse anomalies (2 of 1000),
    # so ambiguous labels, long and sparse anomaly are undetermined, with that reason.  The other ground
    # truths give 0.1 (overlap), 0.04 (fragmented FPs), 0.15 (TP positions), 0.1 (constant), 0.045 (random).
    prof = oipr_bench.audit(_chance_f1)
    assert _row(prof) == {
        "existence_detection_reward": "no", "overlap_proportion_awareness": "yes", "fragments_merging": "no",
        "addressing_ambiguous_labels": None, "early_detection_reward": "no", "fragmentation_misleading_in_precision": NA,
        "long_anomaly_misleading": None, "sparse_anomaly_misleading": None, "all_one_overestimation": "present",
        "random_overestimation": "present",
    }
    for name in ("addressing_ambiguous_labels", "long_anomaly_misleading", "sparse_anomaly_misleading"):
        assert "saturated" in prof.characteristic_results[name].message
    assert prof.evidence["all_one_overestimation"].numbers["score constant_detector/c2"] == pytest.approx(2 / 1.1)
    assert {n: r.status for n, r in prof.sanity_results.items() if r.status != "passed"} == {
        "perfect": "failed", "discriminates": "failed"}
