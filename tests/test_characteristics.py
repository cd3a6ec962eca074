"""The characteristic rules reproduce the paper's Table 5 (+ Table A1's overestimation markers).

Two independent checks of the 70 cells: the rules applied to the paper's
printed Table A1 values, and the rules applied to the scores our seven
built-in evaluators compute (via :func:`oipr_bench.audit`).
"""

from __future__ import annotations

import math

import pytest

from oipr_bench.auditing.table5 import characteristics as ch
from oipr_bench.reference import paper
from oipr_bench.evaluators import NAMES, Score


def _paper_observations(evaluator: str) -> ch.Observations:
    t = paper.table_a1()
    return ch.Observations(
        scores={cid: row[evaluator] for cid, row in t.items()},
        baseline={cid: row["PW"] for cid, row in t.items()},
        # Appendix A: one long anomaly and six short ones.
        true_events={"long_anomaly_effect/c1": 7},
    )


def test_rules_cover_the_vocabulary_and_the_paper_tables():
    assert set(ch.CHARACTERISTICS) == set(paper.table_5())
    assert set(ch.RULES) == set(ch.VALUES) == set(ch.REQUIRED_CASES) == set(ch.CHARACTERISTICS)
    for name, values in paper.table_5().items():
        assert set(values.values()) <= set(ch.VALUES[name]), name


def test_seventy_of_seventy_cells_from_the_paper_values():
    expected = paper.table_5()
    got = {ev: ch.derive_all(_paper_observations(ev)) for ev in NAMES}
    mismatches = [(n, ev, got[ev][n].value, expected[n][ev]) for n in ch.CHARACTERISTICS for ev in NAMES
                  if got[ev][n].value != expected[n][ev]]
    assert mismatches == []
    assert len(ch.CHARACTERISTICS) * len(NAMES) == 70


@pytest.fixture(scope="module")
def builtin_profiles():
    from oipr_bench import audit

    return {ev: audit(ev, sanity=False) for ev in NAMES}


def test_seventy_of_seventy_cells_from_the_builtin_evaluators(builtin_profiles):
    expected = paper.table_5()
    cells = {(n, ev): builtin_profiles[ev].characteristics[n] for n in ch.CHARACTERISTICS for ev in NAMES}
    mismatches = {k: (v, expected[k[0]][k[1]]) for k, v in cells.items() if v != expected[k[0]][k[1]]}
    assert mismatches == {}
    assert len(cells) == 70


def test_oipr_matches_the_default_expected_profile(builtin_profiles):
    prof = builtin_profiles["OIPR"]
    assert prof.ok
    assert all(r.status == "passed" for r in prof.characteristic_results.values())


def test_evidence_names_the_cases_and_numbers(builtin_profiles):
    f = builtin_profiles["PA%K"].evidence["existence_detection_reward"]
    assert f.value == "piecewise"
    assert f.cases == ("overlap_proportion/c1", "overlap_proportion/c2", "overlap_proportion/c3")
    assert f.numbers["F1 overlap_proportion/c1"] == pytest.approx(0.0392, abs=5e-5)
    assert f.numbers["PW F1 overlap_proportion/c3"] == pytest.approx(0.6842, abs=5e-5)
    assert f.numbers["F1 overlap_proportion/c3"] == pytest.approx(1.0)
    long = builtin_profiles["OIPR"].evidence["long_anomaly_misleading"]
    assert long.value == "mitigated"
    assert long.numbers["R long_anomaly_effect/c1"] == pytest.approx(0.2172, abs=5e-5)
    assert long.numbers["equal-event share"] == pytest.approx(1 / 7)


def _obs(**f1: float) -> ch.Observations:
    return ch.Observations({k.replace("__", "/"): Score(1.0, 1.0, v) for k, v in f1.items()})


@pytest.mark.parametrize(
    "shifts, value",
    [((0.0, 0.0), "no"), ((0.5, 0.0), "only_early"), ((0.0, 0.5), "only_delay"), ((0.2, 0.9), "yes")],
)
def test_ambiguous_labels_all_four_values(shifts, value):
    obs = _obs(temporal_shifting__c1=shifts[0], temporal_shifting__c2=shifts[1])
    assert ch.check_addressing_ambiguous_labels(obs).value == value


@pytest.mark.parametrize(
    "f1s, value",
    [((0.1, 0.2, 0.5, 1.0), "yes"), ((0.1, 0.2, 1.0, 1.0), "piecewise"), ((1, 1, 1, 1), "no"), ((0.1, 0.3, 0.2, 1.0), "no")],
)
def test_overlap_awareness(f1s, value):
    obs = _obs(**{f"overlap_proportion__c{i + 1}": v for i, v in enumerate(f1s)})
    assert ch.check_overlap_proportion_awareness(obs).value == value


def test_fragments_merging_threshold_is_relative():
    at = ch.MERGING_FACTOR * 0.8
    assert ch.check_fragments_merging(_obs(fragmented_fps__c1=at, fragmented_fps__c2=0.8, fragmented_fps__c3=0.9)).value == "yes"
    above = at + 0.01
    assert ch.check_fragments_merging(_obs(fragmented_fps__c1=above, fragmented_fps__c2=0.8, fragmented_fps__c3=0.9)).value == "no"


def test_overestimation_level_and_nan():
    obs = _obs(constant_detector__c2=ch.OVERESTIMATION_F1 + 0.01)
    assert ch.check_all_one_overestimation(obs).value == "present"
    # NaN is never read as a level: the cell is undetermined, with the reason
    nan = ch.check_all_one_overestimation(_obs(constant_detector__c2=math.nan))
    assert nan.value == "undetermined"
    assert "nan on constant_detector/c2" in nan.explanation
    obs = _obs(random_detector__c1=0.1, random_detector__c2=ch.OVERESTIMATION_F1)
    assert ch.check_random_overestimation(obs).value == "absent"


def test_missing_case_raises_keyerror():
    with pytest.raises(KeyError, match="fragmented_fps/c1"):
        ch.check_fragments_merging(ch.Observations({}))
    with pytest.raises(KeyError, match="unknown characteristic"):
        ch.derive("speed", ch.Observations({}))


def test_finding_round_trips_through_dict():
    f = ch.derive("random_overestimation", _paper_observations("AM"))
    again = ch.Finding.from_dict(f.to_dict())
    assert again == f
    assert f.value == "present"


# -- the anchored scale -------------------------------------------------------------------


def _scalar_obs(values: dict[str, float], empty: float, perfect: float, **kw) -> ch.Observations:
    ids = [k.replace("__", "/") for k in values]
    return ch.Observations(
        {i: Score(math.nan, math.nan, v) for i, v in zip(ids, values.values())},
        kind="score",
        empty={i: Score(math.nan, math.nan, empty) for i in ids},
        perfect={i: Score(math.nan, math.nan, perfect) for i in ids},
        **kw,
    )


def test_a_metric_at_its_own_chance_level_does_not_overestimate():
    # AUC-ROC: the empty prediction (a constant score) gets 0.5 and the all-1 detector too: 0 on its scale.
    obs = _scalar_obs({"constant_detector__c2": 0.5}, empty=0.5, perfect=1.0)
    f = ch.check_all_one_overestimation(obs)
    assert f.value == "absent"
    assert f.numbers["score constant_detector/c2"] == 0.0
    assert f.numbers["raw constant_detector/c2"] == 0.5
    assert f.numbers["anchor 0: empty prediction"] == 0.5 and f.numbers["anchor 1: y_pred = y_true"] == 1.0
    assert "0 = empty prediction 0.5, 1 = y_pred = y_true 1" in f.explanation
    # the same raw 0.5 on a metric whose empty prediction scores 0 is half-way to perfect: present
    assert ch.check_all_one_overestimation(_scalar_obs({"constant_detector__c2": 0.5}, 0.0, 1.0)).value == "present"


def test_existence_reward_is_a_gain_over_pw_on_the_anchored_scale():
    # c1 0.51 against an empty prediction of 0.5 reads 0.02 < PW's 0.0392: no reward
    cases = {"overlap_proportion__c1": 0.51, "overlap_proportion__c2": 0.6, "overlap_proportion__c3": 0.76}
    pw = {f"overlap_proportion/c{i}": Score(1.0, 1.0, v) for i, v in ((1, 0.0392), (2, 0.3333), (3, 0.6842))}
    obs = _scalar_obs(cases, 0.5, 1.0, baseline=pw)
    f = ch.check_existence_detection_reward(obs)
    assert f.value == "no"
    assert f.numbers["score overlap_proportion/c1"] == pytest.approx(0.02)
    # the same numbers on a metric whose floor is 0 are a reward (0.51 > 0.0392 by more than MIN_EFFECT)
    assert ch.check_existence_detection_reward(_scalar_obs(cases, 0.0, 1.0, baseline=pw)).value == "yes"


def test_beneficial_verdicts_need_the_minimum_effect():
    # a strictly falling score whose whole drop is 3e-4 (PATE-F1 on tp_positions) is not an early reward
    tiny = {f"tp_positions__c{i + 1}": v for i, v in enumerate((0.068802, 0.068753, 0.068547, 0.068493))}
    f = ch.check_early_detection_reward(_scalar_obs(tiny, 0.0, 1.0))
    assert f.value == "no" and "minimum effect" in f.explanation
    ok = {f"tp_positions__c{i + 1}": v for i, v in enumerate((0.4833, 0.3798, 0.3795, 0.3764))}  # OIPR
    assert ch.check_early_detection_reward(_scalar_obs(ok, 0.0, 1.0)).value == "yes"
    assert ch.MIN_EFFECT == 0.01
    # credit for a shifted detection must reach MIN_EFFECT on the scale too
    small = _scalar_obs({"temporal_shifting__c1": 0.005, "temporal_shifting__c2": 0.5}, 0.0, 1.0)
    assert ch.check_addressing_ambiguous_labels(small).value == "only_delay"


def test_nan_anchors_give_undetermined_or_the_raw_order():
    # a detection delay (lower is better, unbounded) whose empty prediction is nan: no scale.
    delays = {f"tp_positions__c{i + 1}": v for i, v in enumerate((0.0, 5.0, 24.0, 29.0))}
    obs = _scalar_obs(delays, math.nan, 0.0, higher_is_better=False, bounds=(0.0, math.inf))
    early = ch.check_early_detection_reward(obs)
    assert early.value == "yes"  # read from the raw order, which needs no scale
    assert "raw values, lower is better" in early.explanation and "nan" in early.explanation
    over = ch.check_all_one_overestimation(_scalar_obs({"constant_detector__c2": 3.0}, math.nan, 0.0,
                                                       higher_is_better=False, bounds=(0.0, math.inf)))
    assert over.value == "undetermined"
    assert "the empty prediction scores nan on the ground truth of constant_detector/c2" in over.explanation
    # equal anchors: no scale either
    flat = ch.check_random_overestimation(_scalar_obs({"random_detector__c1": 0.5, "random_detector__c2": 0.5}, 0.5, 0.5))
    assert flat.value == "undetermined" and "both score 0.5" in flat.explanation


def test_bounded_empty_nan_is_the_bottom_of_the_scale():
    # AM's empty prediction is 0/0 (nan); the paper reads it as 0, the bottom of F1's scale
    obs = _scalar_obs({"constant_detector__c2": 0.6724}, math.nan, 1.0)
    f = ch.check_all_one_overestimation(obs)
    assert f.value == "present"
    assert "read as 0, the bottom of the scale" in f.explanation
