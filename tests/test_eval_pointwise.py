"""PW, PA and PA%K: hand-worked values, the strict PA%K rule, the degenerate
policy, parameter validation, bad-input errors, hypothesis differential tests
against the literal oracles, the paper's Table A1 columns and speed.
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
from oipr_bench.evaluators.kernels.pointwise import adjusted_fill
from oipr_bench.evaluators.pointwise import (
    PointAdjust,
    PointAdjustK,
    PointWise,
    adjust_predictions,
)
from oipr_bench.evaluators.oracles.pointwise import (
    pa_oracle,
    pak_adjust_oracle,
    pak_oracle,
    pw_oracle,
)

POINT_EVALUATORS = ["PW", "PA", "PA%K"]






# --------------------------------------------------------------------------
# Hand-worked values
# --------------------------------------------------------------------------

# GT events [2,6) (4 points) and [10,12) (2 points); prediction hits 1 point
# of the first event, 2 of the second, plus 2 false positives.
Y_TRUE = series(16, (2, 6), (10, 12))
Y_PRED = series(16, (3, 4), (10, 12), (14, 16))


def test_pw_by_hand() -> None:
    # TP = 3, FP = 2, FN = 3.
    assert_score(PointWise()(Y_TRUE, Y_PRED), 3 / 5, 3 / 6)


def test_pa_by_hand() -> None:
    # Both events are hit -> all 6 GT points count: TP = 6, FP = 2, FN = 0.
    assert_score(PointAdjust()(Y_TRUE, Y_PRED), 6 / 8, 1.0)


def test_pak_by_hand() -> None:
    # K = 50: event 1 has 1/4 = 25 % (not adjusted), event 2 has 2/2 = 100 % (already full).
    assert_score(PointAdjustK()(Y_TRUE, Y_PRED), 3 / 5, 3 / 6)
    # K = 20: 25 % > 20 % -> event 1 adjusted as well: TP = 6, FP = 2.
    assert_score(PointAdjustK(k=20)(Y_TRUE, Y_PRED), 6 / 8, 1.0)


def test_pak_strict_greater_at_exactly_k() -> None:
    y_true = series(10, (0, 4))
    half = series(10, (0, 2))  # exactly 50 %
    assert_score(PointAdjustK(k=50)(y_true, half), 1.0, 0.5)  # not adjusted: 50 % is not > 50 %
    assert_score(PointAdjustK(k=49)(y_true, half), 1.0, 1.0)
    assert_score(PointAdjustK(k=50)(y_true, series(10, (0, 3))), 1.0, 1.0)  # 75 % > 50 %


def test_pak_threshold_is_exact_not_floating_point() -> None:
    # 0.29 * 100 is 28.999999999999996 in floating point: 29 hits out of 100 must NOT
    # be "more than 29 %".
    y_true = series(120, (0, 100))
    y_pred = series(120, (0, 29))
    assert_score(PointAdjustK(k=29)(y_true, y_pred), 1.0, 0.29)
    assert_score(PointAdjustK(k=28)(y_true, y_pred), 1.0, 1.0)


def test_pak_k0_is_pa_and_k100_is_pw() -> None:
    assert PointAdjustK(k=0)(Y_TRUE, Y_PRED) == PointAdjust()(Y_TRUE, Y_PRED)
    assert PointAdjustK(k=100)(Y_TRUE, Y_PRED) == PointWise()(Y_TRUE, Y_PRED)
    # even a fully predicted event is "not more than 100 %": nothing changes, as PW
    full = series(8, (2, 5))
    assert PointAdjustK(k=100)(full, full) == Score(1.0, 1.0, 1.0)


def test_adjust_predictions_fills_events_and_leaves_input_alone() -> None:
    before = Y_PRED.copy()
    adjusted = adjust_predictions(Y_TRUE, Y_PRED, 0)
    assert adjusted.tolist() == series(16, (2, 6), (10, 12), (14, 16)).tolist()
    assert adjusted.dtype == np.int8
    assert Y_PRED.tolist() == before.tolist()
    assert adjust_predictions(Y_TRUE, Y_PRED, 50).tolist() == Y_PRED.tolist()


def test_events_touching_both_ends() -> None:
    y_true = series(10, (0, 3), (7, 10))
    y_pred = series(10, (2, 3), (9, 10))
    assert_score(PointWise()(y_true, y_pred), 1.0, 2 / 6)
    assert_score(PointAdjust()(y_true, y_pred), 1.0, 1.0)
    assert_score(PointAdjustK()(y_true, y_pred), 1.0, 2 / 6)


def test_bool_inputs_and_lists_accepted() -> None:
    assert PointWise()(Y_TRUE.astype(bool), Y_PRED.tolist()) == PointWise()(Y_TRUE, Y_PRED)


# --------------------------------------------------------------------------
# Degenerate policy (zero_division = 0)
# --------------------------------------------------------------------------


@pytest.mark.parametrize("name", POINT_EVALUATORS)
def test_all_zero_prediction(name: str) -> None:
    # Table A1, constant detector c1: 0 / 0 / 0.
    assert evaluators.get(name)(Y_TRUE, np.zeros(16, dtype=int)) == Score(0.0, 0.0, 0.0)


@pytest.mark.parametrize("name", POINT_EVALUATORS)
def test_no_ground_truth_anomaly(name: str) -> None:
    ev = evaluators.get(name)
    assert ev(np.zeros(16, dtype=int), Y_PRED) == Score(0.0, 0.0, 0.0)
    assert ev(np.zeros(16, dtype=int), np.zeros(16, dtype=int)) == Score(0.0, 0.0, 0.0)


@pytest.mark.parametrize("name", POINT_EVALUATORS)
def test_all_one_prediction(name: str) -> None:
    # Table A1, constant detector c2 (PW = PA = PA%K = 0.1 / 1.0 / 0.1818).
    y_true = series(1000, (200, 210), (400, 420), (600, 630), (800, 840))
    assert_score(evaluators.get(name)(y_true, np.ones(1000, dtype=int)), 0.1, 1.0)


# --------------------------------------------------------------------------
# Registry, parameters and validation
# --------------------------------------------------------------------------


def test_registry_and_params() -> None:
    assert isinstance(evaluators.get("PW"), PointWise) and evaluators.get("PW").params == {}
    assert isinstance(evaluators.get("PA"), PointAdjust) and evaluators.get("PA").params == {}
    pak = evaluators.get("PA%K")
    assert isinstance(pak, PointAdjustK) and pak.params == {"k": 50}
    assert evaluators.get("PA%K", k=30).params == {"k": 30}
    assert evaluators.info("PA%K").n_custom_params == 1
    assert evaluators.info("PW").default_params == {}


@pytest.mark.parametrize("k", [-1, 100.5, math.nan, math.inf, -math.inf])
def test_pak_rejects_out_of_range_k(k: float) -> None:
    with pytest.raises(ValueError, match=r"PA%K.*\bk\b"):
        PointAdjustK(k=k)


@pytest.mark.parametrize("k", ["50", None, True, [50], 1j])
def test_pak_rejects_non_numeric_k(k: object) -> None:
    with pytest.raises(TypeError, match=r"PA%K.*\bk\b"):
        PointAdjustK(k=k)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["PW", "PA"])
def test_parameterless_evaluators_reject_parameters(name: str) -> None:
    with pytest.raises(TypeError):
        evaluators.get(name, k=50)


def test_pak_accepts_numpy_and_float_k() -> None:
    assert PointAdjustK(k=np.int64(20))(Y_TRUE, Y_PRED) == PointAdjustK(k=20)(Y_TRUE, Y_PRED)
    assert PointAdjustK(k=20.0)(Y_TRUE, Y_PRED) == PointAdjustK(k=20)(Y_TRUE, Y_PRED)
    assert type(PointAdjustK(k=np.int64(20)).params["k"]) is int


BAD_PAIRS = {
    "non-binary": ([0, 1, 2, 0], [0, 1, 0, 0], "binary"),
    "NaN": ([0, 1, 1, 0], [0.0, math.nan, 1.0, 0.0], "NaN"),
    "length mismatch": ([0, 1, 1, 0], [0, 1, 0], "length"),
    "2-D": ([[0, 1], [1, 0]], [[0, 1], [1, 0]], "1-D"),
    "empty": ([], [], "empty"),
    "non-numeric": (["a", "b"], [0, 1], "numeric"),
}


@pytest.mark.parametrize("name", POINT_EVALUATORS)
@pytest.mark.parametrize("problem", list(BAD_PAIRS))
def test_bad_inputs_raise_value_error_naming_the_evaluator(name: str, problem: str) -> None:
    y_true, y_pred, words = BAD_PAIRS[problem]
    with pytest.raises(ValueError, match=words) as info:
        evaluators.get(name)(y_true, y_pred)
    assert name in str(info.value)


@pytest.mark.parametrize("name", POINT_EVALUATORS)
def test_inputs_are_not_mutated(name: str) -> None:
    y_true, y_pred = Y_TRUE.copy(), Y_PRED.astype(np.int64)
    evaluators.get(name)(y_true, y_pred)
    assert y_true.tolist() == Y_TRUE.tolist() and y_pred.tolist() == Y_PRED.tolist()


# --------------------------------------------------------------------------
# Differential tests against the literal oracles
# --------------------------------------------------------------------------


@st.composite
def pairs(draw: st.DrawFn) -> tuple[list[int], list[int]]:
    n = draw(st.integers(min_value=1, max_value=60))
    bit = st.integers(min_value=0, max_value=1)
    return draw(st.lists(bit, min_size=n, max_size=n)), draw(st.lists(bit, min_size=n, max_size=n))


@settings(max_examples=300, deadline=None)
@given(pair=pairs(), k=st.one_of(st.integers(0, 100), st.sampled_from([0.5, 12.5, 33.3, 66.7, 99.9])))
@example(pair=([1, 1, 0, 1, 1], [1, 0, 0, 0, 1]), k=50)
@example(pair=([1] * 7, [0, 1, 1, 1, 0, 0, 0]), k=42)
def test_matches_oracles(pair: tuple[list[int], list[int]], k: float) -> None:
    y_true, y_pred = pair
    assert PointWise()(y_true, y_pred)[:2] == pw_oracle(y_true, y_pred)
    assert PointAdjust()(y_true, y_pred)[:2] == pa_oracle(y_true, y_pred)
    assert PointAdjustK(k=k)(y_true, y_pred)[:2] == pak_oracle(y_true, y_pred, k)
    t, p = np.array(y_true, dtype=np.int8), np.array(y_pred, dtype=np.int8)
    assert adjust_predictions(t, p, k).tolist() == pak_adjust_oracle(y_true, y_pred, k)


# --------------------------------------------------------------------------
# The paper's Table A1, PW / PA / PA%K columns (the packaged scenario cases)
# --------------------------------------------------------------------------


@pytest.mark.parametrize("name", POINT_EVALUATORS)
def test_table_a1_columns(name: str) -> None:
    from oipr_bench.reference import paper
    from oipr_bench import scenarios
    expected = paper.table_a1()
    ev = evaluators.get(name)
    cases = scenarios.load()
    assert len(cases) == 25
    for case in cases:
        want = np.array(expected[case.id][name])
        runs = np.array([ev(case.y_true, y_pred) for y_pred in case.predictions])
        mean = runs.mean(axis=0)
        if case.n_runs == 1:
            assert np.all(np.abs(mean - want) <= 5e-5), (case.id, mean, want)
        else:
            # Random rows: the seed convention of docs/evaluators.md reproduces the printed means to 4 decimals.
            assert np.all(np.abs(mean - want) <= 5e-5), (case.id, mean, want)




# --------------------------------------------------------------------------
# The bit-packed PA%K count: events inside one byte, events
# crossing byte and block borders, tiny forced blocks, the benchmark families
# --------------------------------------------------------------------------


BLOCK_SIZES = [1, 2, 3, 5, None]  # bytes of 8 points; None is the default block


def _fill_oracle(y_true: np.ndarray, y_pred: np.ndarray, k: float) -> tuple[int, int]:
    """``(tp, filled)`` from the literal adjusted series of the oracle."""
    adjusted = np.array(pak_adjust_oracle(y_true.tolist(), y_pred.tolist(), k), dtype=np.int8)
    tp = int(np.count_nonzero(y_true & y_pred))
    return tp, int(np.count_nonzero(y_true & adjusted)) - tp


def _fill(y_true: np.ndarray, y_pred: np.ndarray, k: float, block: int | None) -> tuple[int, int]:
    if block is None:
        return adjusted_fill(y_true, y_pred, k)
    return adjusted_fill(y_true, y_pred, k, block_bytes=block)


@settings(max_examples=300, deadline=None)
@given(pair=pairs(), k=st.sampled_from([0, 1, 29, 50, 99, 100, 12.5, 33.3, 99.9]), block=st.sampled_from(BLOCK_SIZES))
@example(pair=([1] * 17, [0, 1] * 8 + [1]), k=50, block=1)
@example(pair=([0] * 7 + [1] * 2 + [0] * 7, [0] * 7 + [1, 0] + [0] * 7), k=0, block=1)
def test_adjusted_fill_matches_the_oracle(pair: tuple[list[int], list[int]], k: float, block: int | None) -> None:
    t, p = np.array(pair[0], dtype=np.int8), np.array(pair[1], dtype=np.int8)
    assert _fill(t, p, k, block) == _fill_oracle(t, p, k)


@pytest.mark.parametrize("density", [0.05, 0.5, 0.9, 0.99])
@pytest.mark.parametrize("block", BLOCK_SIZES)
def test_adjusted_fill_on_random_series_with_events_crossing_blocks(density: float, block: int | None) -> None:
    rng = np.random.default_rng(int(density * 100))
    for n in (1, 7, 8, 9, 64, 1001, 4099):
        # runs of random length, so events cross byte and block borders at every offset
        lengths = rng.integers(1, 40, n)
        values = (rng.random(n) < density).astype(np.int8)
        t = np.repeat(values, lengths)[:n].astype(np.int8)
        p = (rng.random(n) < rng.random()).astype(np.int8)
        for k in (0, 50, 12.5):
            want = _fill_oracle(t, p, k)
            assert _fill(t, p, k, block) == want, (n, k)
            assert adjusted_fill(t, p, k, block_bytes=1) == adjusted_fill(t, p, k)


def test_adjusted_fill_one_event_over_everything() -> None:
    n = 8 * 40 + 3
    t = np.ones(n, dtype=np.int8)
    for p_share in (0.0, 0.3, 0.5, 0.51, 1.0):
        p = np.zeros(n, dtype=np.int8)
        p[: int(round(p_share * n))] = 1
        for block in BLOCK_SIZES:
            assert _fill(t, p, 50, block) == _fill_oracle(t, p, 50)


@pytest.mark.parametrize("block", BLOCK_SIZES)
def test_adjusted_fill_when_every_byte_border_is_crossed(block: int | None) -> None:
    # Events of 3 points straddle every byte border (bits 6, 7 and the next byte's bit 0):
    # no border is free, so blocks end inside events and carry them over.
    n = 8 * 50 + 5
    t = np.tile(np.array([1, 0, 0, 0, 0, 0, 1, 1], dtype=np.int8), 51)[:n]
    for p_bits in ([0, 0, 0, 0, 0, 0, 1, 0], [1, 0, 0, 0, 0, 0, 1, 1], [1, 0, 0, 0, 0, 0, 0, 1]):
        p = np.tile(np.array(p_bits, dtype=np.int8), 51)[:n]
        for k in (0, 50, 66.7):
            assert _fill(t, p, k, block) == _fill_oracle(t, p, k)


def _benchmark_module():  # type: ignore[no-untyped-def]
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "run.py"
    if not path.exists():
        pytest.skip("benchmarks/run.py is not beside the tests")
    spec = importlib.util.spec_from_file_location("oipr_benchmarks_run", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


@pytest.mark.parametrize("family", ["typical", "all-ones", "alternating", "one-event", "tiny-events"])
def test_benchmark_families_match_the_oracles(family: str) -> None:
    bench = _benchmark_module()
    y_true, y_pred = bench.family_pair(family, *bench.make_pair(20_003))
    t, p = y_true.tolist(), y_pred.tolist()
    assert PointAdjust()(y_true, y_pred)[:2] == pa_oracle(t, p)
    assert PointAdjustK()(y_true, y_pred)[:2] == pak_oracle(t, p, 50)
    assert adjust_predictions(y_true, y_pred, 50).tolist() == pak_adjust_oracle(t, p, 50)
    for block in (1, 3):
        assert adjusted_fill(y_true, y_pred, 50, block_bytes=block) == adjusted_fill(y_true, y_pred, 50)
