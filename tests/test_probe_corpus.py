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
from oipr_bench.auditing import characteristics as ch
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


@pytest.mark.parametrize(
    "value, misleading",
    [
        # (0, 0): F1 = 0 everywhere.  Every comparison is a tie: no rise, no drop, nothing above the
        # no-detection level (0) -> every beneficial "no"; nothing exceeds 0.3 and the recall share
        # (0 - 0) / (0 - 0) is undefined -> every misleading "absent".
        ((0.0, 0.0), {"fragmentation_misleading_in_precision": "absent", "long_anomaly_misleading": "absent",
                      "sparse_anomaly_misleading": "absent", "all_one_overestimation": "absent",
                      "random_overestimation": "absent"}),
        # (1, 1): F1 = 1 everywhere, and also for the empty prediction, so no detection ever scores above
        # the no-detection level -> no existence reward, no credit for shifted detections; the recall share
        # (1 - 1) / (1 - 1) is undefined -> long anomaly "absent" (not "mitigated").  The all-1 and the
        # random detector score F1 1 > 0.3 -> both overestimation markers "present" (true: it overestimates).
        ((1.0, 1.0), {"fragmentation_misleading_in_precision": "absent", "long_anomaly_misleading": "absent",
                      "sparse_anomaly_misleading": "absent", "all_one_overestimation": "present",
                      "random_overestimation": "present"}),
        # (0.5, 0.5): the same reasoning at F1 0.5 (still > 0.3 for the overestimation markers).
        ((0.5, 0.5), {"fragmentation_misleading_in_precision": "absent", "long_anomaly_misleading": "absent",
                      "sparse_anomaly_misleading": "absent", "all_one_overestimation": "present",
                      "random_overestimation": "present"}),
        # One constant number 0.5: a scalar, so precision-based rules are not applicable, and with every
        # score equal the long anomaly never wins -> not applicable; otherwise as (0.5, 0.5).
        (0.5, {"fragmentation_misleading_in_precision": NA, "long_anomaly_misleading": NA,
               "sparse_anomaly_misleading": "absent", "all_one_overestimation": "present",
               "random_overestimation": "present"}),
    ],
    ids=["constant-0-0", "constant-1-1", "constant-half", "constant-scalar"],
)
def test_constant_metrics_get_no_beneficial_yes_and_fail_discrimination(value, misleading):
    prof = oipr_bench.audit(lambda t, p: value)
    assert _row(prof) == {**BENEFICIAL_NO, **misleading}
    sanity = prof.sanity_results["discriminates"]
    assert sanity.status == "failed"
    # the message gives the numbers: perfect, no detection and all ones all score the constant
    f1 = value if isinstance(value, float) else (0.0 if value[0] == 0 else 2 * value[0] * value[1] / (value[0] + value[1]))
    assert f"y_pred = y_true {f1:.6g}, no detection {f1:.6g}, all ones {f1:.6g}" in sanity.message
    assert "degenerate" in sanity.message
    assert not prof.ok


def test_the_three_false_verdicts_of_the_issue_are_gone():
    zero = oipr_bench.audit(lambda t, p: (0.0, 0.0), sanity=False)
    assert zero.characteristics["fragments_merging"] == "no"  # was "yes" on c1 0 vs c2 0, c3 0
    for const in ((1.0, 1.0), (0.5, 0.5)):
        prof = oipr_bench.audit(lambda t, p, c=const: c, sanity=False)
        assert prof.characteristics["existence_detection_reward"] == "no"
        assert prof.characteristics["addressing_ambiguous_labels"] == "no"
        assert prof.characteristics["long_anomaly_misleading"] == "absent"  # was "mitigated"


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
    # 10 (1 - F1_OIPR), lower is better, declared bounds [0, inf): unbounded, so each case is read as
    # (v - v_none) / (v_perfect - v_none) = ((10 - 10 F1) - 10) / (0 - 10) = F1 (OIPR gives the empty
    # prediction F1 0 and the perfect one 1).  The rules that compare the score with itself give OIPR's
    # verdicts; those that need F1's scale (existence: PW's F1; overestimation: 0.3) are not applicable.
    oipr = get("OIPR")
    prof = oipr_bench.audit(lambda t, p: 10.0 * (1.0 - oipr(t, p).f1), higher_is_better=False, bounds=(0, None))
    row = _scalar_row("OIPR")
    for name in ("existence_detection_reward", "all_one_overestimation", "random_overestimation"):
        row[name] = NA
    assert _row(prof) == row
    assert "unbounded" in prof.characteristic_results["all_one_overestimation"].message
    evidence = prof.evidence["fragments_merging"].numbers
    assert evidence["score fragmented_fps/c1"] == pytest.approx(oipr(*_case("fragmented_fps/c1")).f1)


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
    # beneficial "no"; the anomaly ratios are 0.02-0.1 <= 0.3 -> no overestimation; sparse: tie -> absent;
    # long anomaly: tie, not present -> not applicable.  y_pred = y_true scores 0.016, not 1: perfect fails,
    # and discriminates fails (perfect = none = all ones).
    prof = oipr_bench.audit(lambda t, p: float(t.mean()))
    assert _row(prof) == {**BENEFICIAL_NO, "fragmentation_misleading_in_precision": NA, "long_anomaly_misleading": NA,
                          "sparse_anomaly_misleading": "absent", "all_one_overestimation": "absent",
                          "random_overestimation": "absent"}
    assert _sanity(prof)["discriminates"] == "failed"
    assert _sanity(prof)["perfect"] == "failed"


def test_scalar_answers_lists_the_applicable_rules():
    bounded = ch.scalar_answers(bounded=True)
    assert "fragmentation_misleading_in_precision" not in bounded
    assert set(bounded) == set(ch.CHARACTERISTICS) - {"fragmentation_misleading_in_precision"}
    unbounded = ch.scalar_answers(bounded=False)
    assert set(bounded) - set(unbounded) == {"existence_detection_reward", "all_one_overestimation", "random_overestimation"}
