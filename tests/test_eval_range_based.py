"""RP/RR, range-based precision/recall (Tatbul et al., NeurIPS 2018).

Hand-worked values from the definition, the degenerate-input policy, parameter
validation, bad-input errors, and hypothesis differential tests of the
vectorised evaluator against the literal oracle.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from _helpers import assert_score, series
from hypothesis import example, given, settings
from hypothesis import strategies as st

from oipr_bench import evaluators
from oipr_bench.evaluators import Score
from oipr_bench.evaluators.range_based import BIASES, CARDINALITIES, RangeBased
from oipr_bench.evaluators.oracles.range_based import range_based as oracle

EXACT = 1e-12






# --------------------------------------------------------------------------
# Hand-worked examples (default = the OIPR paper's Table 3 setting:
# alpha_r 0.5, front recall bias, alpha_p 0, flat precision bias, gamma = 1/x)
# --------------------------------------------------------------------------


def test_single_point_at_start_of_range() -> None:
    # GT [1,5), L = 4, front weights 4,3,2,1 (sum 10); prediction covers index 1 (weight 4).
    # RR = 0.5 * 1 + 0.5 * 4/10 = 0.7.  The predicted range [1,2) lies inside GT: RP = 1.
    y_true = series(6, (1, 5))
    y_pred = series(6, (1, 2))
    assert_score(RangeBased()(y_true, y_pred), 1.0, 0.7)


def test_partial_overlap_both_sides() -> None:
    # GT [5,10), L = 5, front weights 5,4,3,2,1 (sum 15); prediction [3,7) covers 5,6 -> 9/15.
    # RR = 0.5 + 0.5 * 0.6 = 0.8.
    # Predicted range L = 4, flat: 2 of its 4 points overlap -> RP = 0.5.
    y_true = series(12, (5, 10))
    y_pred = series(12, (3, 7))
    assert_score(RangeBased()(y_true, y_pred), 0.5, 0.8)
    # With alpha_p = 0.5 the existence term enters precision: 0.5 * 1 + 0.5 * 0.5 = 0.75.
    assert_score(RangeBased(alpha_p=0.5)(y_true, y_pred), 0.75, 0.8)


def test_cardinality_on_recall() -> None:
    # GT [0,10), L = 10, front weights 10..1 (sum 55).  Predictions [0,2) and [5,7):
    # covered weights 10+9 = 19 and 5+4 = 9 -> sum omega = 28/55; two overlapping ranges.
    # reciprocal: RR = 0.5 + 0.5 * (1/2) * 28/55 = 0.5 + 7/55;  one: RR = 0.5 + 14/55.
    # Each predicted range lies inside GT: RP = 1.
    y_true = series(12, (0, 10))
    y_pred = series(12, (0, 2), (5, 7))
    assert_score(RangeBased()(y_true, y_pred), 1.0, 0.5 + 7 / 55)
    assert_score(RangeBased(cardinality="one")(y_true, y_pred), 1.0, 0.5 + 14 / 55)


def test_cardinality_on_precision() -> None:
    # GT [0,2) and [4,6); prediction [1,5), L = 4, flat: it overlaps {1} and {4},
    # omega 1/4 + 1/4 = 1/2, two overlapping GT ranges -> RP = (1/2) * (1/2) = 0.25.
    # GT [0,2), front weights 2,1, covered index 1 (weight 1) -> 1/3: RR_1 = 0.5 + 0.5/3 = 2/3.
    # GT [4,6), covered index 4 (weight 2) -> 2/3: RR_2 = 0.5 + 1/3 = 5/6.  RR = 3/4.
    y_true = series(8, (0, 2), (4, 6))
    y_pred = series(8, (1, 5))
    assert_score(RangeBased()(y_true, y_pred), 0.25, 0.75)
    assert_score(RangeBased(cardinality="one")(y_true, y_pred), 0.5, 0.75)


@pytest.mark.parametrize(
    ("bias", "pred", "expected"),
    [
        # GT [0,5), L = 5, alpha_r = 0 so RR = omega.
        ("flat", (0, 1), 1 / 5),  # weights 1,1,1,1,1
        ("front", (0, 1), 5 / 15),  # weights 5,4,3,2,1
        ("back", (0, 1), 1 / 15),  # weights 1,2,3,4,5
        ("back", (4, 5), 5 / 15),
        ("middle", (0, 1), 1 / 9),  # weights 1,2,3,2,1 (i <= 2.5 -> i, else 6 - i)
        ("middle", (2, 3), 3 / 9),
        ("middle", (1, 4), 7 / 9),
    ],
)
def test_positional_bias_odd_length(bias: str, pred: tuple[int, int], expected: float) -> None:
    y_true = series(7, (0, 5))
    y_pred = series(7, pred)
    score = RangeBased(alpha_r=0.0, bias_r=bias)(y_true, y_pred)
    assert score.recall == pytest.approx(expected, abs=EXACT)


def test_middle_bias_even_length_and_precision_bias() -> None:
    # GT [0,4), L = 4, middle weights 1,2,2,1 (sum 6); prediction [1,3) covers 2+2 -> 4/6.
    y_true = series(6, (0, 4))
    y_pred = series(6, (1, 3))
    assert RangeBased(alpha_r=0.0, bias_r="middle")(y_true, y_pred).recall == pytest.approx(4 / 6, abs=EXACT)
    # Precision bias acts over the predicted range: prediction [2,6) (L = 4), GT [0,4) covers its
    # first two points.  front 4,3 of 10 -> 0.7; back 1,2 of 10 -> 0.3; middle 1,2 of 6 -> 0.5.
    y_pred = series(6, (2, 6))
    for bias, expected in [("front", 0.7), ("back", 0.3), ("middle", 0.5), ("flat", 0.5)]:
        assert RangeBased(bias_p=bias)(y_true, y_pred).precision == pytest.approx(expected, abs=EXACT)


@pytest.mark.parametrize(("case", "offset"), [("c1", 0), ("c2", 5), ("c3", 24), ("c4", 29)])
def test_tp_positions_match_paper(case: str, offset: int) -> None:
    # Table A1, TP positions: GT [100,130) in 200 points, one predicted point at 100 + offset.
    # Front weights 30..1 (sum 465); the point has weight 30 - offset:
    # RR = 0.5 + 0.5 * (30 - offset) / 465; RP = 1 (the point lies inside GT).
    paper = pytest.importorskip("oipr_bench.reference.paper")
    y_true = series(200, (100, 130))
    y_pred = series(200, (100 + offset, 101 + offset))
    score = RangeBased()(y_true, y_pred)
    assert_score(score, 1.0, 0.5 + 0.5 * (30 - offset) / 465)
    printed = paper.table_a1()[f"tp_positions/{case}"]["RP/RR"]
    assert np.allclose(tuple(score), tuple(printed), rtol=0, atol=paper.PRINTED_4DP_TOLERANCE)


# --------------------------------------------------------------------------
# Degenerate inputs: the documented policy
# --------------------------------------------------------------------------


def test_all_zero_prediction_is_zero() -> None:
    score = RangeBased()(series(10, (2, 5)), np.zeros(10, dtype=int))
    assert score == Score(0.0, 0.0, 0.0)


def test_no_ground_truth_anomaly_is_zero() -> None:
    score = RangeBased()(np.zeros(10, dtype=int), series(10, (2, 5), (7, 8)))
    assert score == Score(0.0, 0.0, 0.0)
    # the existence term does not rescue precision either: nothing to overlap
    assert RangeBased(alpha_p=1.0)(np.zeros(10, dtype=int), series(10, (2, 5))) == Score(0.0, 0.0, 0.0)


def test_both_empty_is_zero() -> None:
    score = RangeBased()(np.zeros(10, dtype=int), np.zeros(10, dtype=int))
    assert score == Score(0.0, 0.0, 0.0)
    assert not any(math.isnan(v) for v in score)


def test_perfect_and_all_one() -> None:
    y = series(20, (0, 3), (10, 11), (17, 20))
    assert_score(RangeBased()(y, y), 1.0, 1.0)
    ones = np.ones(20, dtype=int)
    assert_score(RangeBased()(ones, ones), 1.0, 1.0)
    # all-one prediction over 3 GT ranges: one predicted range, flat omega 7/20, gamma 1/3
    # -> RP = 7/60; every GT range fully covered -> RR = 1.
    assert_score(RangeBased()(y, ones), 7 / 60, 1.0)


# --------------------------------------------------------------------------
# Parameters, registry, input policy
# --------------------------------------------------------------------------


def test_defaults_and_registry() -> None:
    ev = evaluators.get("RP/RR")
    assert isinstance(ev, RangeBased)
    assert ev.name == "RP/RR"
    assert ev.params == {
        "alpha_r": 0.5,
        "alpha_p": 0.0,
        "cardinality": "reciprocal",
        "bias_r": "front",
        "bias_p": "flat",
    }
    assert evaluators.info("RP/RR").n_custom_params == 4
    custom = evaluators.get("RP/RR", alpha_r=0.2, cardinality="one", bias_r="middle", bias_p="back", alpha_p=1)
    assert custom.params == {"alpha_r": 0.2, "alpha_p": 1.0, "cardinality": "one", "bias_r": "middle", "bias_p": "back"}
    assert "RangeBased(" in repr(custom)


@pytest.mark.parametrize(
    ("kwargs", "exc", "fragment"),
    [
        ({"alpha_r": 1.5}, ValueError, "alpha_r"),
        ({"alpha_r": -0.1}, ValueError, "alpha_r"),
        ({"alpha_p": float("nan")}, ValueError, "alpha_p"),
        ({"alpha_p": "0.5"}, TypeError, "alpha_p"),
        ({"alpha_r": True}, TypeError, "alpha_r"),
        ({"alpha_r": None}, TypeError, "alpha_r"),
        ({"cardinality": "udf_gamma"}, ValueError, "cardinality"),
        ({"cardinality": 1}, TypeError, "cardinality"),
        ({"bias_r": "rear"}, ValueError, "bias_r"),
        ({"bias_p": "Flat"}, ValueError, "bias_p"),
        ({"bias_p": None}, TypeError, "bias_p"),
    ],
)
def test_invalid_parameters(kwargs: dict, exc: type, fragment: str) -> None:
    with pytest.raises(exc) as info:
        RangeBased(**kwargs)
    assert "RP/RR" in str(info.value)
    assert fragment in str(info.value)


def test_unknown_parameter() -> None:
    with pytest.raises(TypeError, match="beta"):
        evaluators.get("RP/RR", beta=1.0)


@pytest.mark.parametrize(
    ("y_true", "y_pred", "fragment"),
    [
        ([0, 1, 2], [0, 1, 0], "binary"),
        ([0, 1, 1], [0, 0.5, 0], "binary"),
        ([0, 1, float("nan")], [0, 1, 0], "NaN"),
        ([0, 1, 0], [0, 1], "length"),
        ([[0, 1], [1, 0]], [[0, 1], [1, 0]], "1-D"),
        ([], [], "empty"),
        (["a", "b"], [0, 1], "numeric"),
        ([0, 1, 0], [None, 1, 0], "numeric"),
    ],
)
def test_bad_input_raises_value_error(y_true: object, y_pred: object, fragment: str) -> None:
    with pytest.raises(ValueError) as info:
        RangeBased()(y_true, y_pred)
    assert "RP/RR" in str(info.value)
    assert fragment in str(info.value)


def test_accepts_bools_and_lists_and_does_not_mutate() -> None:
    y_true = np.array([False, True, True, True, True, False])
    y_pred = np.array([0, 1, 0, 0, 0, 0], dtype=np.int64)
    before_t, before_p = y_true.copy(), y_pred.copy()
    score = RangeBased()(y_true, y_pred)
    assert_score(score, 1.0, 0.7)
    assert np.array_equal(y_true, before_t) and np.array_equal(y_pred, before_p)
    assert RangeBased()(y_true.tolist(), y_pred.tolist()) == score
    assert all(type(v) is float for v in score)


# --------------------------------------------------------------------------
# Differential tests: vectorised evaluator == literal oracle
# --------------------------------------------------------------------------


@st.composite
def binary_series(draw: st.DrawFn, length: int | None = None) -> np.ndarray:
    """0/1 series built from runs, so single points and events at both ends are common."""
    if length is None:
        runs = draw(st.lists(st.tuples(st.booleans(), st.integers(1, 7)), min_size=1, max_size=25))
        return np.concatenate([np.full(n, int(v), dtype=np.int8) for v, n in runs])
    density = draw(st.sampled_from([0.05, 0.3, 0.5, 0.8]))
    seed = draw(st.integers(0, 2**32 - 1))
    return (np.random.default_rng(seed).random(length) < density).astype(np.int8)


params_strategy = st.fixed_dictionaries(
    {
        "alpha_r": st.floats(0.0, 1.0),
        "alpha_p": st.floats(0.0, 1.0),
        "cardinality": st.sampled_from(CARDINALITIES),
        "bias_r": st.sampled_from(BIASES),
        "bias_p": st.sampled_from(BIASES),
    }
)


@st.composite
def pair(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    y_true = draw(binary_series())
    kind = draw(st.sampled_from(["random", "runs", "zeros", "ones", "same"]))
    if kind == "random":
        y_pred = draw(binary_series(length=y_true.shape[0]))
    elif kind == "runs":
        y_pred = np.resize(draw(binary_series()), y_true.shape[0])
    elif kind == "zeros":
        y_pred = np.zeros_like(y_true)
    elif kind == "ones":
        y_pred = np.ones_like(y_true)
    else:
        y_pred = y_true.copy()
    return y_true, y_pred


def assert_same(fast: Score, slow: Score) -> None:
    for a, b in zip(fast, slow):
        assert abs(a - b) <= EXACT, (fast, slow)


@settings(max_examples=400, deadline=None)
@given(pair(), params_strategy)
@example((np.array([1], dtype=np.int8), np.array([1], dtype=np.int8)), {})
@example((np.array([1, 0, 1], dtype=np.int8), np.array([0, 1, 0], dtype=np.int8)), {})
@example((np.array([1, 1, 1], dtype=np.int8), np.array([1, 0, 1], dtype=np.int8)), {"bias_r": "middle"})
def test_matches_oracle(data: tuple[np.ndarray, np.ndarray], params: dict) -> None:
    y_true, y_pred = data
    assert_same(RangeBased(**params)(y_true, y_pred), oracle(y_true.tolist(), y_pred.tolist(), **params))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), params_strategy)
def test_matches_oracle_on_longer_series(seed: int, params: dict) -> None:
    # a few thousand points, events of length 1..40, noisy prediction
    rng = np.random.default_rng(seed)
    n = 3000
    y_true = np.zeros(n, dtype=np.int8)
    for start in rng.choice(n, 30, replace=False):
        y_true[start : start + rng.integers(1, 41)] = 1
    y_pred = y_true.copy()
    y_pred[rng.random(n) < rng.choice([0.005, 0.05, 0.3])] ^= 1
    assert_same(RangeBased(**params)(y_true, y_pred), oracle(y_true.tolist(), y_pred.tolist(), **params))


@settings(max_examples=150, deadline=None)
@given(pair(), params_strategy)
def test_time_reversal_swaps_front_and_back(data: tuple[np.ndarray, np.ndarray], params: dict) -> None:
    # Reversing time maps position i of a range of length L to L - i + 1, so front <-> back
    # while flat and middle are unchanged (delta_middle(i) = min(i, L - i + 1)).
    y_true, y_pred = data
    mirror = {"front": "back", "back": "front", "flat": "flat", "middle": "middle"}
    reversed_params = dict(params, bias_r=mirror[params["bias_r"]], bias_p=mirror[params["bias_p"]])
    forward = RangeBased(**params)(y_true, y_pred)
    backward = RangeBased(**reversed_params)(y_true[::-1], y_pred[::-1])
    assert_same(forward, backward)






# --------------------------------------------------------------------------
# The paper's Table A1, RP/RR column, on the packaged scenario cases
# --------------------------------------------------------------------------


def test_table_a1_rprr_column() -> None:
    from oipr_bench.reference import paper
    from oipr_bench import scenarios
    printed = paper.table_a1()
    cases = scenarios.load()
    assert len(cases) == 25
    ev = RangeBased()
    for case in cases:
        expected = np.array(tuple(printed[case.id]["RP/RR"]))
        runs = np.array([tuple(ev(case.y_true, y_pred)) for y_pred in case.predictions])
        if case.n_runs == 1:
            # 23 deterministic rows at the paper's 4 printed decimals (|ours - paper| <= 5e-5).
            assert np.all(np.abs(runs[0] - expected) <= paper.PRINTED_4DP_TOLERANCE), (case.id, runs[0], expected)
        else:
            # Random detector: means of per-run P, R, F1 over 100 runs, within 3 standard errors.
            # (c2's recall mean is 0.27135..., printed 0.2713: 5.1e-5 off, 0.002 standard errors.)
            mean = runs.mean(axis=0)
            se = runs.std(axis=0, ddof=1) / math.sqrt(len(runs))
            assert np.all(np.abs(mean - expected) <= 3 * se), (case.id, mean, expected, se)


def blocked(
    params: dict, y_true: np.ndarray, y_pred: np.ndarray, block: int, max_block: int, route: float | None = None,
) -> Score:
    """RP/RR with forced block sizes and routes (module constants patched for one call).

    ``route=0`` forces the sparse routes (owners of overlaps by binary search,
    overlap bounds from the merged bounds of both series), a huge value the
    dense ones (running count and neighbour differences over the block's points).
    """
    import oipr_bench.evaluators.kernels.range_based as blocks

    saved = blocks.BLOCK, blocks.MAX_BLOCK, blocks.DENSE_FACTOR, blocks.SPARSE_FACTOR
    blocks.BLOCK, blocks.MAX_BLOCK = block, max_block
    if route is not None:
        blocks.DENSE_FACTOR = blocks.SPARSE_FACTOR = route
    try:
        return RangeBased(**params)(y_true, y_pred)
    finally:
        blocks.BLOCK, blocks.MAX_BLOCK, blocks.DENSE_FACTOR, blocks.SPARSE_FACTOR = saved


@settings(max_examples=200, deadline=None)
@given(pair(), params_strategy, st.integers(1, 4), st.integers(1, 9))
def test_tiny_blocks_match_one_block_and_oracle(
    data: tuple[np.ndarray, np.ndarray], params: dict, block: int, max_block: int,
) -> None:
    # The series is scored block by block; tiny blocks put block borders next to
    # (and, before a border is moved to a common 0, inside) ranges of both series.
    y_true, y_pred = data
    whole = blocked(params, y_true, y_pred, 1 << 30, 1 << 30)
    tiny = blocked(params, y_true, y_pred, block, max_block)
    assert_same(tiny, whole)
    assert_same(tiny, oracle(y_true.tolist(), y_pred.tolist(), **params))


@settings(max_examples=150, deadline=None)
@given(pair(), params_strategy, st.sampled_from([2, 7, 1 << 30]))
def test_sparse_and_dense_routes_agree(data: tuple[np.ndarray, np.ndarray], params: dict, block: int) -> None:
    # Overlap bounds and the ranges owning each overlap come from the merged
    # bounds and binary search (sparse blocks) or from the block's points
    # (dense blocks): both routes give the oracle's scores.
    y_true, y_pred = data
    expected = oracle(y_true.tolist(), y_pred.tolist(), **params)
    for route in (0.0, 1e18):
        assert_same(blocked(params, y_true, y_pred, block, block, route=route), expected)


@pytest.mark.parametrize("density", [0.02, 0.5, 0.97])
def test_default_blocks_match_one_block_on_long_series(density: float) -> None:
    # 2 * 10**5 points: many default-sized blocks (sized from their bounds),
    # against one block and against blocks of 64 points, for every bias.
    rng = np.random.default_rng(int(density * 100))
    n = 200_000
    y_true = (rng.random(n) < density).astype(np.int8)
    y_true[50_000:90_000] = 1
    y_pred = y_true.copy()
    y_pred[rng.random(n) < 0.2] ^= 1
    for bias in BIASES:
        params = {"bias_r": bias, "bias_p": bias, "alpha_p": 0.25}
        default = RangeBased(**params)(y_true, y_pred)
        assert_same(default, blocked(params, y_true, y_pred, 1 << 30, 1 << 30))
        assert_same(default, blocked(params, y_true, y_pred, 64, 64))


def test_block_borders_split_no_overlap() -> None:
    from oipr_bench.evaluators.kernels.range_based import block_end

    rng = np.random.default_rng(7)
    t = rng.random(5000) < 0.7
    p = rng.random(5000) < 0.6
    t[1000:1900] = p[1200:1700] = True  # long ranges over many nominal borders
    for s1 in range(0, 5000, 3):
        end = block_end(t, p, s1)
        assert end >= s1
        assert end == 5000 or not (t[end] and p[end])
        assert np.all(t[s1:end] & p[s1:end])


@pytest.mark.parametrize("block", [1, 2, 5, 64])
@pytest.mark.parametrize(
    "params",
    [{}, {"cardinality": "one"}, {"bias_r": "middle", "bias_p": "back", "alpha_p": 0.4}, {"bias_r": "back", "bias_p": "middle"}],
)
def test_ranges_crossing_many_blocks(block: int, params: dict) -> None:
    # A real range over the whole series against many predicted ranges (and the
    # mirror case): the range crosses every block border, its overlaps are
    # summed across blocks before its one term is formed.
    n = 400
    alternating = np.tile(np.array([1, 0], dtype=np.int8), n // 2)
    ones = np.ones(n, dtype=np.int8)
    mixed = ones.copy()
    mixed[[50, 51, 200, 330]] = 0
    for y_true, y_pred in [(ones, alternating), (alternating, ones), (mixed, alternating), (alternating, mixed)]:
        expected = oracle(y_true.tolist(), y_pred.tolist(), **params)
        assert_same(blocked(params, y_true, y_pred, block, block), expected)


@pytest.mark.parametrize("family", ["typical", "all-ones", "alternating", "one-event", "tiny-events"])
@pytest.mark.parametrize("block", [3, 64, 1 << 30])
def test_benchmark_families_match_oracle(family: str, block: int) -> None:
    # The worst-case families of benchmarks/run.py, built here
    # at a small size, scored with several block sizes, against the oracle.
    n = 1500
    rng = np.random.default_rng(11)
    typical_t = np.zeros(n, dtype=np.int8)
    typical_p = np.zeros(n, dtype=np.int8)
    for s in range(5, n - 60, 97):
        length = int(rng.integers(1, 60))
        typical_t[s : s + length] = 1
        shift = int(rng.integers(-3, 6))
        typical_p[max(0, s + shift) : s + shift + max(1, length // 2)] = 1
    typical_p[rng.random(n) < 0.01] = 1
    tiny_t = np.zeros(n, dtype=np.int8)
    tiny_t[np.arange(0, n, 20) + rng.integers(0, 10, n // 20)] = 1
    tiny_p = np.roll(tiny_t, 1) | (rng.random(n) < 0.01).astype(np.int8)
    alternating = np.tile(np.array([1, 0], dtype=np.int8), n // 2)
    y_true, y_pred = {
        "typical": (typical_t, typical_p),
        "all-ones": (typical_t, np.ones(n, dtype=np.int8)),
        "alternating": (alternating, alternating.copy()),
        "one-event": (np.ones(n, dtype=np.int8), typical_p),
        "tiny-events": (tiny_t, tiny_p),
    }[family]
    for params in [{}, {"cardinality": "one", "bias_r": "middle", "bias_p": "back", "alpha_p": 0.3}]:
        expected = oracle(y_true.tolist(), y_pred.tolist(), **params)
        assert_same(blocked(params, y_true, y_pred, block, 4 * block), expected)


def test_long_ranges_use_int64_weights() -> None:
    # Events are held as int32; the triangular weights of a 10^5-point range
    # overflow int32 and must be computed in int64 (front bias, partial cover).
    n = 100_000
    y_true = np.ones(n, dtype=np.int8)
    y_pred = np.zeros(n, dtype=np.int8)
    y_pred[: n // 2] = 1
    score = RangeBased(bias_r="front")(y_true, y_pred)
    # front bias: W(n/2, n) / W(n, n) = (T(n) - T(n/2)) / T(n), existence 1, gamma 1
    tri = lambda k: k * (k + 1) // 2  # noqa: E731
    expected_recall = 0.5 + 0.5 * (tri(n) - tri(n - n // 2)) / tri(n)
    assert abs(score.recall - expected_recall) <= 1e-12
    assert score.precision == 1.0
