"""Tests of the AM evaluator (affiliation metrics, Huet et al., KDD 2022).

Hand-worked examples derive their values from the definition (arithmetic in
the comments); differential tests compare the vectorised closed forms with
the literal oracle (exact piecewise-linear integration) to 1e-12.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from oipr_bench import evaluators
from oipr_bench.evaluators.affiliation import Affiliation
from oipr_bench.scenarios.events import from_events
from oipr_bench.evaluators.oracles.affiliation import affiliation as oracle

AM = Affiliation()


def assert_same(fast, slow, tol=1e-12):
    for name, x, y in zip(("precision", "recall", "f1"), fast, slow):
        if math.isnan(y):
            assert math.isnan(x), f"{name}: fast {x} but oracle NaN"
        else:
            assert abs(x - y) <= tol, f"{name}: fast {x!r} vs oracle {y!r}"


# --------------------------------------------------------------------------
# Hand-worked examples
# --------------------------------------------------------------------------


def test_perfect_prediction_scores_one():
    y = from_events([(0, 3), (10, 12), (19, 20)], 20)
    assert AM(y, y) == (1.0, 1.0, 1.0)


def test_single_far_point_one_zone():
    # T = 10, J = [2, 4), prediction [6, 7).  One zone I = [0, 10]: L = 2, R = 6, W = 10.
    # Precision: y in [6, 7] has d = y - 4 in [2, 3], S(d) = (max(2-d,0) + (6-d)) / 10,
    #   so P = ∫_2^3 (6 - d)/10 dd / 1 = (6 - 2.5)/10 = 0.35.
    # Recall: x in [2, 4] has d = 6 - x; S_x = 1 - (min(d, 10-x) + min(d, x)) / 10.
    #   x in [2, 3]: min(d, x) = x -> S = 1 - 6/10 = 0.4, integral 0.4;
    #   x in [3, 4]: min(d, x) = 6-x -> S = 1 - (12-2x)/10, integral 1 - (12-7)/10 = 0.5;
    #   R = (0.4 + 0.5) / 2 = 0.45.  F1 = 2 * 0.35 * 0.45 / 0.8 = 0.39375.
    score = AM(from_events([(2, 4)], 10), from_events([(6, 7)], 10))
    assert score.precision == pytest.approx(0.35, abs=1e-15)
    assert score.recall == pytest.approx(0.45, abs=1e-15)
    assert score.f1 == pytest.approx(0.39375, abs=1e-15)


def test_prediction_split_across_two_zones():
    # T = 10, J1 = [1, 2), J2 = [7, 8): zones [0, 4.5] and [4.5, 10].
    # Prediction [3, 6) is cut into [3, 4.5] (zone 1) and [4.5, 6] (zone 2).
    # Zone 1: L = 1, R = 2.5, W = 4.5; d = y - 2 in [1, 2.5]:
    #   ∫_1^2.5 (2.5 - d) dd / 4.5 = 1.125 / 4.5 = 0.25, P1 = 0.25 / 1.5 = 1/6.
    # Zone 2: L = 2.5, R = 2, W = 5.5; d = 7 - y in [1, 2.5]:
    #   ∫_1^2.5 (2.5 - d) + ∫_1^2 (2 - d) = 1.125 + 0.5 = 1.625, P2 = 1.625 / 5.5 / 1.5 = 13/66.
    #   P = (1/6 + 13/66) / 2 = 2/11.
    # Recall zone 1: x in [1, 2], d = 3 - x, kink of min(d, x) at 1.5:
    #   ∫_1^1.5 (1 - 3/4.5) = 1/6, ∫_1.5^2 (1 - 2(3-x)/4.5) = 0.5 - 1.25/4.5 = 2/9; R1 = 7/18.
    # Recall zone 2: x in [7, 8], d = x - 6 <= 10 - x: ∫ (1 - 2(x-6)/5.5) = 1 - 3/5.5 = 5/11.
    #   R = (7/18 + 5/11) / 2 = 167/396.
    score = AM(from_events([(1, 2), (7, 8)], 10), from_events([(3, 6)], 10))
    assert score.precision == pytest.approx(2 / 11, abs=1e-15)
    assert score.recall == pytest.approx(167 / 396, abs=1e-15)
    p, r = 2 / 11, 167 / 396
    assert score.f1 == pytest.approx(2 * p * r / (p + r), abs=1e-15)


def test_kdd_paper_example_zone_values():
    # The worked example of Huet et al. (KDD 2022), in minutes: events [0,10), [50,70),
    # [170,175) over (0, 180).  Zone 2 is I = [30, 120] around J = [50, 70]
    # (L = 20, R = 50, W = 90); its prediction is [40, 60] and [115, 120].
    # Precision: [40, 50]: ∫_0^10 (70 - 2d)/90 = 20/3; [50, 60]: 10;
    #   [115, 120]: ∫_45^50 (50 - d)/90 = 5/36; (20/3 + 10 + 5/36) / 25 = 121/180 ≈ 0.6722.
    # Recall: [50, 60] covered -> 10; [60, 70]: d = x - 60, S = 1 - 2d/90 -> 10 - 10/9;
    #   (20 - 10/9) / 20 = 17/18 ≈ 0.9444.  (The KDD paper prints 0.672 and 0.944.)
    y_true = from_events([(0, 10), (50, 70), (170, 175)], 180)
    y_pred = from_events([(5, 6), (7, 10), (11, 12), (40, 60), (115, 130), (135, 140), (165, 170)], 180)
    zones = AM.zones(y_true, y_pred)
    assert zones.zone_start.tolist() == [0.0, 30.0, 120.0]
    assert zones.zone_end.tolist() == [30.0, 120.0, 180.0]
    assert zones.precision[1] == pytest.approx(121 / 180, abs=1e-15)
    assert zones.recall[1] == pytest.approx(17 / 18, abs=1e-15)
    score = AM(y_true, y_pred)
    assert score.precision == pytest.approx(float(np.mean(zones.precision)), abs=1e-15)
    assert score.recall == pytest.approx(float(np.mean(zones.recall)), abs=1e-15)


def test_zone_without_prediction_has_recall_zero_and_no_precision():
    # Two events; only the first zone holds a prediction (inside J1): P1 = 1, R1 = 1 (J1 fully
    # covered), zone 2: precision undefined (left out of the mean), recall 0.  P = 1, R = 0.5.
    y_true = from_events([(2, 4), (20, 22)], 30)
    y_pred = from_events([(2, 4)], 30)
    zones = AM.zones(y_true, y_pred)
    assert zones.precision[0] == 1.0 and math.isnan(zones.precision[1])
    assert zones.recall.tolist() == [1.0, 0.0]
    assert AM(y_true, y_pred) == pytest.approx((1.0, 0.5, 2 / 3), abs=1e-15)


def test_time_range_is_the_whole_series():
    # Appending zeros widens the last zone, so AM changes (by design, unlike PW or OIPR):
    # J = [2, 4), prediction [6, 7): T = 10 gives P = 0.35 (above); T = 20 gives
    # R = 16, W = 20, P = ∫_2^3 (16 - d)/20 dd = (16 - 2.5)/20 = 0.675.
    short = AM(from_events([(2, 4)], 10), from_events([(6, 7)], 10))
    long = AM(from_events([(2, 4)], 20), from_events([(6, 7)], 20))
    assert short.precision == pytest.approx(0.35, abs=1e-15)
    assert long.precision == pytest.approx(0.675, abs=1e-15)


# --------------------------------------------------------------------------
# Degenerate inputs (documented policy)
# --------------------------------------------------------------------------


def test_all_zero_prediction_is_nan_precision_zero_recall():
    # As the OIPR paper prints for constant detector c1 (Table A1): nan, 0, nan.
    score = AM(from_events([(3, 6)], 20), np.zeros(20, dtype=int))
    assert math.isnan(score.precision) and score.recall == 0.0 and math.isnan(score.f1)
    assert oracle(from_events([(3, 6)], 20), np.zeros(20, dtype=int))[1] == 0.0


def test_no_ground_truth_with_prediction():
    score = AM(np.zeros(12, dtype=int), from_events([(4, 5)], 12))
    assert score.precision == 0.0 and math.isnan(score.recall) and math.isnan(score.f1)


def test_no_ground_truth_and_no_prediction():
    score = AM(np.zeros(12, dtype=int), np.zeros(12, dtype=int))
    assert all(math.isnan(v) for v in score)


def test_zones_refuses_series_without_anomaly():
    with pytest.raises(ValueError, match="AM: y_true has no anomaly"):
        AM.zones(np.zeros(5, dtype=int), np.ones(5, dtype=int))


def test_all_ones_prediction():
    # y_pred covers the whole series: recall 1, precision < 1 unless y_true is all ones.
    y_true = from_events([(5, 10)], 40)
    score = AM(y_true, np.ones(40, dtype=int))
    assert score.recall == 1.0 and 0.0 < score.precision < 1.0
    assert AM(np.ones(7, dtype=int), np.ones(7, dtype=int)) == (1.0, 1.0, 1.0)


# --------------------------------------------------------------------------
# Parameters, registry, input policy
# --------------------------------------------------------------------------


def test_registry_and_params():
    am = evaluators.get("AM")
    assert isinstance(am, Affiliation) and am.name == "AM" and am.params == {}
    assert evaluators.info("AM").n_custom_params == 0
    assert evaluators.info("AM").default_params == {}


def test_unknown_parameter_is_rejected():
    with pytest.raises(TypeError, match=r"AM: unknown parameter\(s\) l_dis"):
        Affiliation(l_dis=5)
    with pytest.raises(TypeError, match="AM"):
        evaluators.get("AM", alpha=0.5)


@pytest.mark.parametrize(
    ("y_true", "y_pred", "match"),
    [
        ([0, 2, 1], [0, 1, 1], "AM: y_true must be binary"),
        ([0, 1, 1], [0, 1, 0.5], "AM: y_pred must be binary"),
        ([0.0, float("nan"), 1.0], [0, 1, 1], "AM: y_true contains NaN"),
        ([0, 1, 1], [0, 1], "AM: y_true and y_pred differ in length"),
        ([[0, 1], [1, 0]], [[0, 1], [1, 0]], "AM: y_true must be 1-D"),
        ([], [], "AM: y_true is empty"),
        (["0", "1"], [0, 1], "AM: y_true must be numeric"),
    ],
    ids=["non-binary", "fractional", "nan", "length", "2-D", "empty", "strings"],
)
def test_bad_input_raises_value_error(y_true, y_pred, match):
    with pytest.raises(ValueError, match=match):
        AM(y_true, y_pred)


def test_bool_and_int_inputs_agree_and_are_not_mutated():
    y_true = np.array([0, 1, 1, 0, 0, 0, 1, 0, 0, 0], dtype=np.int64)
    y_pred = np.array([0, 0, 1, 1, 0, 0, 0, 0, 1, 0], dtype=np.int64)
    before = (y_true.copy(), y_pred.copy())
    assert AM(y_true, y_pred) == AM(y_true.astype(bool), y_pred.astype(bool))
    assert AM(y_true, y_pred) == AM(y_true.tolist(), y_pred.tolist())
    np.testing.assert_array_equal(y_true, before[0])
    np.testing.assert_array_equal(y_pred, before[1])


# --------------------------------------------------------------------------
# Differential tests: vectorised closed forms vs literal oracle
# --------------------------------------------------------------------------


@st.composite
def series_pairs(draw):
    length = draw(st.integers(min_value=1, max_value=60))
    density_true = draw(st.sampled_from([0.05, 0.2, 0.5, 0.9]))
    density_pred = draw(st.sampled_from([0.0, 0.05, 0.2, 0.5, 0.9, 1.0]))
    y_true = draw(st.lists(st.booleans().map(int), min_size=length, max_size=length))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    if draw(st.booleans()):
        # density-controlled series, so long runs and sparse single points both occur
        y_true = (rng.random(length) < density_true).astype(int).tolist()
    y_pred = (rng.random(length) < density_pred).astype(int).tolist()
    return y_true, y_pred


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(series_pairs())
@example(([1, 0, 0, 0, 1], [1, 0, 0, 0, 1]))  # events touching both ends
@example(([1, 0, 0, 0, 1], [0, 1, 1, 1, 0]))  # prediction only in the gaps
@example(([0, 0, 1, 0, 0], [1, 0, 0, 0, 1]))  # single-point event, predictions at both ends
@example(([0, 1, 0, 1, 0, 1], [0, 0, 0, 0, 0, 0]))  # empty prediction
@example(([1], [1]))
@example(([1], [0]))
@example(([0], [1]))
@example(([0, 0, 0], [0, 0, 0]))
@example(([1, 0, 1, 0, 1, 0, 1], [1, 1, 1, 1, 1, 1, 1]))  # one prediction crossing every zone
@example(([0, 1, 0, 0, 1, 0], [0, 0, 1, 0, 0, 0]))  # zones cut at (2 + 4)/2 = 3: prediction ends on the cut
@example(([0, 1, 0, 0, 1, 0], [0, 0, 0, 1, 0, 0]))  # ... and starts on it
@example(([0, 1, 0, 0, 0, 1, 0], [0, 0, 0, 1, 1, 1, 1]))  # prediction crossing the cut at 3.5
def test_fast_matches_oracle(pair):
    y_true, y_pred = pair
    assert_same(AM(y_true, y_pred), oracle(y_true, y_pred))


@pytest.mark.parametrize("seed", [0, 1])
def test_fast_matches_oracle_on_a_long_noisy_series(seed):
    # 2*10^4 points, ~1 % anomalies in events, prediction = ground truth with 1 % flips:
    # exercises many zones, pieces cut at zone borders and long zones (cancellation).
    rng = np.random.default_rng(seed)
    n = 20_000
    y_true = np.zeros(n, dtype=np.int8)
    for start in np.sort(rng.choice(n // 20, n // 1000, replace=False)) * 20:
        y_true[start : start + rng.integers(1, 16)] = 1
    y_pred = y_true ^ (rng.random(n) < 0.01).astype(np.int8)
    assert_same(AM(y_true, y_pred), oracle(y_true, y_pred))


def test_values_lie_in_unit_interval_on_random_series():
    rng = np.random.default_rng(7)
    for _ in range(200):
        n = int(rng.integers(1, 80))
        y_true = (rng.random(n) < 0.3).astype(int)
        y_pred = (rng.random(n) < 0.3).astype(int)
        for v in AM(y_true, y_pred):
            assert math.isnan(v) or 0.0 <= v <= 1.0


# --------------------------------------------------------------------------
# The paper's Table A1, AM column, on the packaged scenario cases
# --------------------------------------------------------------------------


def test_table_a1_am_column():
    from oipr_bench.reference import paper
    from oipr_bench import scenarios
    printed = paper.table_a1()
    cases = scenarios.load()
    assert len(cases) == 25
    for case in cases:
        expected = printed[case.id]["AM"]
        runs = np.array([AM(case.y_true, y_pred) for y_pred in case.predictions])
        if case.n_runs == 1:
            # 23 deterministic rows: the paper's 4 printed decimals (|ours - paper| <= 5e-5).
            for ours, theirs in zip(runs[0], expected):
                if math.isnan(theirs):
                    assert math.isnan(ours), case.id
                else:
                    assert abs(ours - theirs) <= paper.PRINTED_4DP_TOLERANCE, (case.id, ours, theirs)
        else:
            # Random detector: means of the per-run P, R, F1 over 100 runs, within 3 standard errors.
            mean = runs.mean(axis=0)
            se = runs.std(axis=0, ddof=1) / math.sqrt(len(runs))
            assert np.all(np.abs(mean - np.array(expected)) <= 3 * se), (case.id, mean, expected, se)


def _with_blocks(monkeypatch, points, zones, pieces, dense, compact=4):
    from oipr_bench.evaluators.kernels import affiliation as blocks

    monkeypatch.setattr(blocks, "COMPACT_BELOW", compact)
    monkeypatch.setattr(blocks, "BLOCK_POINTS", points)
    monkeypatch.setattr(blocks, "ZONE_BLOCK", zones)
    monkeypatch.setattr(blocks, "PIECE_BLOCK", pieces)
    monkeypatch.setattr(blocks, "DENSE_SPAN_FACTOR", dense)


def assert_close(got, want, tol=1e-12):
    for x, y in zip(got, want):
        assert (math.isnan(x) and math.isnan(y)) or abs(x - y) <= tol, (got, want)


BLOCK_SETTINGS = st.tuples(
    st.integers(1, 5), st.integers(1, 4), st.integers(1, 4), st.sampled_from([0, 10**9]), st.sampled_from([1, 10**9])
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(series_pairs(), BLOCK_SETTINGS)
def test_tiny_blocks_match_one_block_and_oracle(monkeypatch, pair, sizes):
    # Tiny blocks put block borders inside events, between the pieces of one
    # zone (a zone with more pieces than PIECE_BLOCK is visited in runs) and
    # between a piece and its recall neighbours; DENSE_SPAN_FACTOR 0 / 1e9
    # forces binary search / the dense running count when counting cuts, and
    # COMPACT_BELOW 1 / 1e9 runs the closed forms on the selected pieces only / on all.
    y_true, y_pred = pair
    whole = AM(y_true, y_pred)
    zones_whole = AM.zones(y_true, y_pred) if any(y_true) else None
    with monkeypatch.context() as m:
        _with_blocks(m, *sizes)
        blocked = AM(y_true, y_pred)
        zones = AM.zones(y_true, y_pred) if any(y_true) else None
    assert_close(blocked, whole)
    assert_same(blocked, oracle(y_true, y_pred))
    if zones is not None:
        for got, want in zip(zones, zones_whole):
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


@pytest.mark.parametrize("family", ["typical", "all-ones", "alternating", "one-event", "tiny-events"])
@pytest.mark.parametrize("sizes", [(7, 3, 2, 0, 1), (16, 5, 3, 10**9, 10**9), (1 << 16, 1 << 14, 1 << 14, 4, 4)])
def test_benchmark_families_small_n_match_oracle(monkeypatch, family, sizes):
    # The worst-case families of benchmarks/run.py at N = 3000, with block
    # sizes that cut events, zones and piece runs, against the literal oracle.
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "run.py"
    spec = importlib.util.spec_from_file_location("bench_run", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    y_true, y_pred = bench.family_pair(family, *bench.make_pair(3000))
    with monkeypatch.context() as m:
        _with_blocks(m, *sizes)
        got = AM(y_true, y_pred)
    assert_same(got, oracle(y_true, y_pred))


@pytest.mark.parametrize("seed", [3, 4])
def test_blocks_on_long_random_series_match_oracle(monkeypatch, seed):
    # Dense random series (many short events, pieces cut at zone borders) with small blocks.
    rng = np.random.default_rng(seed)
    n = 4000
    y_true = (rng.random(n) < 0.3).astype(np.int8)
    y_pred = (rng.random(n) < 0.4).astype(np.int8)
    want = oracle(y_true, y_pred)
    for sizes in [(64, 16, 8, 0, 1), (64, 16, 8, 10**9, 10**9), (5, 2, 1, 4, 4)]:
        with monkeypatch.context() as m:
            _with_blocks(m, *sizes)
            assert_same(AM(y_true, y_pred), want)


def test_long_zone_with_many_pieces_has_no_cancellation():
    # One event J = [0, T) (one zone, W = |J| = T) against the alternating prediction
    # [0, 1), [2, 3), ...: every piece lies inside J, so P = 1.  Recall deficit: each of
    # the T/2 - 1 inner gaps of length 1 splits at its midpoint into two halves with
    # integrand 2d, ∫_0^{1/2} 2d = 1/4 each; the last gap [T - 1, T] (anchored at T - 1,
    # kink at T - 1/2) gives 1/2 + 1/4.  Deficit = T/4 + 1/4, R = 1 - 1/(4T) - 1/(4T^2).
    # A per-piece "length minus deficit" sum loses ~1e-11 here at T = 1e7.
    n = 10**6
    y_pred = np.zeros(n, dtype=np.int8)
    y_pred[0::2] = 1
    score = AM(np.ones(n, dtype=np.int8), y_pred)
    assert score.precision == 1.0
    assert abs(score.recall - (1 - 1 / (4 * n) - 1 / (4 * n * n))) <= 1e-15


@pytest.mark.parametrize("block", [1, 2, 3, 7, 64, 1 << 18])
def test_series_events_in_blocks_match_to_events(monkeypatch, block):
    from oipr_bench.evaluators.kernels import affiliation as blocks
    from oipr_bench.scenarios.events import to_events

    monkeypatch.setattr(blocks, "BLOCK_POINTS", block)
    rng = np.random.default_rng(block)
    for n in (1, 2, 5, 33, 1000):
        for density in (0.0, 0.1, 0.5, 0.9, 1.0):
            y = (rng.random(n) < density).astype(np.int8)
            starts, ends = blocks.series_events(y, np.int32)
            want_starts, want_ends = to_events(y)
            np.testing.assert_array_equal(starts, want_starts)
            np.testing.assert_array_equal(ends, want_ends)
