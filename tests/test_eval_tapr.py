"""TaPR, time-series aware precision/recall (Hwang et al., CIKM 2019; original TaPR.py).

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
from oipr_bench.evaluators.tapr import AMBIGUOUS_ENDS, AT_NEXT_EXCESS, TaPR
from oipr_bench.evaluators.oracles.tapr import ambiguous_ranges
from oipr_bench.evaluators.oracles.tapr import tapr as oracle
from oipr_bench.evaluators.oracles.tapr import tapr_parts as oracle_parts

EXACT = 1e-12


def dec(x: float) -> float:
    """The decaying sigmoid of the ambiguous region, 1 / (1 + e^x)."""
    return 1.0 / (1.0 + math.exp(x))






# --------------------------------------------------------------------------
# Hand-worked examples (default = the OIPR paper's Table 3 setting:
# alpha 0.5, delta 5, theta 0).  Ambiguous weights for a 5-point region:
# x = -6 + 3k for k = 0..4, w = dec(x) = 0.99753, 0.95257, 0.5, 0.04743, 0.00247.
# --------------------------------------------------------------------------


def test_single_point_inside_anomaly() -> None:
    # GT [1,5) (4 points), prediction [1,2).  Recall: score 1/4 > 0 -> TaR_d = 1,
    # TaR_p = 0.25, TaR = 0.5 + 0.125 = 0.625.  Precision: the prediction is fully
    # anomalous, 1/1 -> TaP_d = TaP_p = 1, TaP = 1.
    assert_score(TaPR()(series(8, (1, 5)), series(8, (1, 2))), 1.0, 0.625)


def test_prediction_in_ambiguous_region() -> None:
    # GT [2,4) (inclusive 2..3); ambiguous region 4..8 (5 points).  Prediction [5,7)
    # covers offsets 1 and 2: weight dec(-3) + dec(0) = 0.952574 + 0.5 = 1.452574.
    # Precision: 1.452574 / 2 = 0.726287 > 0 -> TaP = 0.5 + 0.5 * 0.726287.
    # Recall (TaPR.py adds ambiguous credit to recall too): min(1, 1.452574 / 2) -> same value.
    value = 0.5 + 0.5 * (dec(-3) + dec(0)) / 2
    assert value == pytest.approx(0.8631436, abs=1e-7)
    assert_score(TaPR()(series(12, (2, 4)), series(12, (5, 7))), value, value)


def test_temporal_shifting_c2_by_hand() -> None:
    # The paper's temporal shifting c2: GT events of 2 points, each prediction the 2
    # points right after.  Every pair: dec(-6) + dec(-3) = 1.950101, / 2 = 0.9750506;
    # TaP = TaR = 0.5 + 0.5 * 0.9750506 = 0.9875253 (Table A1 prints 0.9875).
    y_true = series(500, (200, 202), (300, 302), (400, 402))
    y_pred = series(500, (202, 204), (302, 304), (402, 404))
    value = 0.5 + 0.5 * (dec(-6) + dec(-3)) / 2
    assert abs(value - 0.9875) <= 5e-5
    assert_score(TaPR()(y_true, y_pred), value, value)
    # Shifted before the events instead (c1): no credit at all (ambiguity is only after).
    y_early = series(500, (198, 200), (298, 300), (398, 400))
    assert_score(TaPR()(y_true, y_early), 0.0, 0.0)


def test_one_point_ambiguous_region_takes_new_minimum() -> None:
    # delta = 1: GT [0,1), ambiguous region {1}; min == max, normalised value -6,
    # weight dec(-6) = 0.9975274.  Prediction {1}: TaP = TaR = 0.5 + 0.5 * dec(-6).
    value = 0.5 + 0.5 * dec(-6)
    assert_score(TaPR(delta=1)(series(3, (0, 1)), series(3, (1, 2))), value, value)


def test_region_cut_before_next_anomaly() -> None:
    # GT [1,0,1]: anomaly 0 at 0, its region 1..5 is cut before anomaly 1 -> {1} (one
    # point, weight dec(-6)).  Prediction {1}: precision 0.5 + 0.5 * dec(-6) = 0.9987637.
    # Recall: anomaly 0 scores dec(-6) (detected), anomaly 1 scores 0:
    # TaR_d = 1/2, TaR_p = dec(-6)/2, TaR = 0.25 + 0.25 * dec(-6) = 0.4993818.
    # The default cut ("at_next") gives region {1, 2}: point 1 is its first point,
    # weight dec(-6) as well, so the default agrees on this prediction.
    ev = TaPR(ambiguous_end="before_next")
    assert TaPR()([1, 0, 1], [0, 1, 0]) == ev([1, 0, 1], [0, 1, 0])
    y_true = np.array([1, 0, 1])
    assert_score(ev(y_true, [0, 1, 0]), 0.5 + 0.5 * dec(-6), 0.25 + 0.25 * dec(-6))
    assert ev.parts(y_true, [0, 1, 0]) == pytest.approx((0.5, dec(-6) / 2, 1.0, dec(-6)), abs=EXACT)


def test_region_at_next_counts_next_start_twice() -> None:
    # TaPR.py's literal cut ("at_next"): region of anomaly 0 is {1, 2} (2 points, weights
    # dec(-6), dec(6)); point 2 is also anomaly 1.  Perfect prediction [1,0,1]: event {0}
    # scores 1, event {2} scores 1 + dec(6) = 1.0024726 -> TaP_p = 1.0012363,
    # TaP = 0.5 + 0.5 * 1.0012363 = 1.0006182 > 1.  "before_next" stops the region
    # before anomaly 1, and the perfect prediction scores exactly 1.
    y = [1, 0, 1]
    over = 0.5 + 0.5 * (1.0 + 1.0 + dec(6)) / 2
    assert over > 1.0
    assert_score(TaPR(ambiguous_end="at_next")(y, y), over, 1.0)
    assert TaPR()(y, y) == TaPR(ambiguous_end="at_next")(y, y)
    assert_score(TaPR(ambiguous_end="before_next")(y, y), 1.0, 1.0)
    assert dec(6) == pytest.approx(AT_NEXT_EXCESS, abs=EXACT)


# --------------------------------------------------------------------------
# The published TaPR (TaPR.py) against this package's former default, on the
# smallest inputs where they differ.
# --------------------------------------------------------------------------


def test_issue_example_adjacent_region_sums_to_one() -> None:
    # Length 4, GT [0,1) [2,4), prediction [0,4).  TaPR.py: region of anomaly 0 is
    # {1, 2} (cut on anomaly 1's first point), weights dec(-6) + dec(6) = 1 exactly
    # (odd-symmetric sigmoid), so the one prediction event scores (1 + 1 + 2) / 4 = 1:
    # (1.0, 1.0, 1.0).  "before_next": region {1}, (1 + dec(-6) + 2) / 4 -> 0.99969.
    y_true, y_pred = series(4, (0, 1), (2, 4)), series(4, (0, 4))
    assert TaPR()(y_true, y_pred) == pytest.approx((1.0, 1.0, 1.0), abs=EXACT)
    old = TaPR(ambiguous_end="before_next")(y_true, y_pred)
    assert_score(old, 0.5 + 0.5 * (3.0 + dec(-6)) / 4, 1.0)
    assert round(old.precision, 5) == 0.99969 and round(old.f1, 5) == 0.99985


def test_issue_example_three_point_region() -> None:
    # Length 4, GT [0,1) [3,4), prediction [0,4).  TaPR.py: region {1, 2, 3}, weights
    # dec(-6) + dec(0) + dec(6) = 1.5; the prediction scores (1 + 1.5 + 1) / 4 = 0.875,
    # TaP = 0.5 + 0.5 * 0.875 = 0.9375.  "before_next": region {1, 2} = 1.0 -> 0.875.
    y_true, y_pred = series(4, (0, 1), (3, 4)), series(4, (0, 4))
    assert_score(TaPR()(y_true, y_pred), 0.9375, 1.0)
    assert_score(TaPR(ambiguous_end="before_next")(y_true, y_pred), 0.875, 1.0)


def test_issue_example_precision_above_one() -> None:
    # Length 5, GT = prediction = [0,1) [4,5).  TaPR.py: region of anomaly 0 is
    # {1, 2, 3, 4}, x = -6, -2, 2, 6; point 4 is anomaly 1's only point, so event {4}
    # scores 1 + dec(6): TaP = 0.5 + 0.5 * (2 + dec(6)) / 2 = 1.000618 (above 1).
    y = series(5, (0, 1), (4, 5))
    want = 0.5 + 0.5 * (2.0 + dec(6)) / 2
    assert round(want, 6) == 1.000618
    assert_score(TaPR()(y, y), want, 1.0)
    assert_score(TaPR(ambiguous_end="before_next")(y, y), 1.0, 1.0)
    assert oracle(y, y) == pytest.approx(tuple(TaPR()(y, y)), abs=EXACT)


def test_oracle_ambiguous_ranges_follow_tapr_py() -> None:
    # TaPR.py: end = last + delta; moved onto the next anomaly's first point only when
    # it lies strictly after it; an end exactly on it stays (inclusive ranges).
    anomalies = [(0, 0), (2, 3), (9, 9), (14, 14)]
    assert ambiguous_ranges(anomalies, 5) == [(1, 2), (4, 8), (10, 14), (15, 19)]
    assert ambiguous_ranges(anomalies, 5, "before_next") == [(1, 1), (4, 8), (10, 13), (15, 19)]
    assert ambiguous_ranges(anomalies, 0) == [(1, 0), (4, 3), (10, 9), (15, 14)]
    with pytest.raises(ValueError, match="ambiguous_end"):
        ambiguous_ranges(anomalies, 5, "after")


def test_region_not_cut_at_series_end() -> None:
    # GT [5,7) in 9 points: region 7..11 runs past the end and keeps its 5-point
    # normalisation; prediction {8} is offset 1: weight dec(-3) = 0.9525741.
    value = 0.5 + 0.5 * dec(-3)
    assert_score(TaPR()(series(9, (5, 7)), series(9, (8, 9))), value, 0.5 + 0.5 * dec(-3) / 2)


def test_theta_is_strict() -> None:
    # GT [0,4), prediction [0,2): recall portion 2/4 = 0.5.  theta = 0.5: not detected
    # (0.5 > 0.5 is false) -> TaR = 0.5 * 0 + 0.5 * 0.5 = 0.25.  theta = 0.49 -> 0.75.
    # The prediction is fully anomalous (ratio 1 > theta) -> TaP = 1 in both.
    y_true, y_pred = series(10, (0, 4)), series(10, (0, 2))
    assert_score(TaPR(theta=0.5)(y_true, y_pred), 1.0, 0.25)
    assert_score(TaPR(theta=0.49)(y_true, y_pred), 1.0, 0.75)
    # theta = 1 can never be exceeded: only the portion scores remain.
    assert_score(TaPR(theta=1.0)(y_true, y_pred), 0.5, 0.25)


def test_alpha_weights_detection_against_portion() -> None:
    # GT [0,10), prediction [0,1) and a false positive [15,17).
    # TaR_d = 1, TaR_p = 0.1; TaP_d = 1/2 (only the first event scores),
    # TaP_p = (1 + 0) / 2 = 0.5.
    y_true, y_pred = series(20, (0, 10)), series(20, (0, 1), (15, 17))
    assert TaPR().parts(y_true, y_pred) == pytest.approx((1.0, 0.1, 0.5, 0.5), abs=EXACT)
    assert_score(TaPR(alpha=1.0)(y_true, y_pred), 0.5, 1.0)
    assert_score(TaPR(alpha=0.0)(y_true, y_pred), 0.5, 0.1)
    assert_score(TaPR(alpha=0.2)(y_true, y_pred), 0.5, 0.2 + 0.8 * 0.1)


def test_delta_zero_has_no_ambiguous_credit() -> None:
    y_true, y_pred = series(12, (2, 4)), series(12, (4, 6))
    assert_score(TaPR(delta=0)(y_true, y_pred), 0.0, 0.0)
    assert TaPR(delta=1)(y_true, y_pred).precision > 0


# --------------------------------------------------------------------------
# Degenerate inputs (policy: docs/evaluators.md, section TaPR)
# --------------------------------------------------------------------------


def test_all_zero_prediction_is_zero() -> None:
    # TaP = 0 with no prediction event (Table A1, constant detector c1: 0/0/0).
    assert TaPR()(series(50, (10, 20)), np.zeros(50, dtype=int)) == Score(0.0, 0.0, 0.0)


def test_no_ground_truth_anomaly_is_zero() -> None:
    assert TaPR()(np.zeros(50, dtype=int), series(50, (10, 20), (30, 31))) == Score(0.0, 0.0, 0.0)


def test_both_empty_is_zero() -> None:
    assert TaPR()(np.zeros(7, dtype=int), np.zeros(7, dtype=int)) == Score(0.0, 0.0, 0.0)


def test_perfect_and_all_one() -> None:
    y = series(30, (0, 3), (4, 5), (7, 12), (29, 30))  # gaps shorter than delta, both ends
    assert TaPR(ambiguous_end="before_next")(y, y) == Score(1.0, 1.0, 1.0)
    # TaPR.py's cut: regions {3, 4} and {5, 6, 7} end on the next anomalies' first
    # points (weight dec(6) each), so event {4} scores 1 + dec(6) and event [7,12)
    # scores 1 + dec(6) / 5: TaP = 0.5 + 0.5 * (4 + 1.2 dec(6)) / 4.
    assert_score(TaPR()(y, y), 0.5 + 0.5 * (4.0 + 1.2 * dec(6)) / 4, 1.0)
    ones = np.ones(30, dtype=int)
    assert TaPR()(ones, ones) == Score(1.0, 1.0, 1.0)
    # All-one prediction against GT [10,20): one prediction event, 10 anomalous points plus
    # the region 20..24 fully predicted: sum of the five weights = 2.5 (odd-symmetric
    # sigmoid) -> ratio 12.5 / 30; TaP = 0.5 + 0.5 * 12.5 / 30.  Recall min(1, ...) = 1.
    assert_score(TaPR()(series(30, (10, 20)), ones), 0.5 + 0.5 * 12.5 / 30, 1.0)


# --------------------------------------------------------------------------
# Parameters
# --------------------------------------------------------------------------


def test_defaults_and_registry() -> None:
    ev = evaluators.get("TaPR")
    assert isinstance(ev, TaPR)
    assert ev.name == "TaPR"
    assert ev.params == {"alpha": 0.5, "delta": 5, "theta": 0.0, "ambiguous_end": "at_next"}
    assert evaluators.info("TaPR").default_params == ev.params
    custom = evaluators.get("TaPR", alpha=np.float64(0.25), delta=np.int64(3), theta=1, ambiguous_end="before_next")
    assert custom.params == {"alpha": 0.25, "delta": 3, "theta": 1.0, "ambiguous_end": "before_next"}
    assert type(custom.params["delta"]) is int
    assert "delta=3" in repr(custom)
    assert AMBIGUOUS_ENDS == ("at_next", "before_next")


@pytest.mark.parametrize(
    "kwargs, exc, fragment",
    [
        ({"alpha": -0.1}, ValueError, "alpha"),
        ({"alpha": 1.5}, ValueError, "alpha"),
        ({"alpha": float("nan")}, ValueError, "alpha"),
        ({"alpha": "0.5"}, TypeError, "alpha"),
        ({"alpha": True}, TypeError, "alpha"),
        ({"theta": -1e-9}, ValueError, "theta"),
        ({"theta": 2}, ValueError, "theta"),
        ({"theta": None}, TypeError, "theta"),
        ({"delta": -1}, ValueError, "delta"),
        ({"delta": 2.5}, TypeError, "delta"),
        ({"delta": 5.0}, TypeError, "delta"),
        ({"delta": False}, TypeError, "delta"),
        ({"ambiguous_end": "after"}, ValueError, "ambiguous_end"),
        ({"ambiguous_end": "At_Next"}, ValueError, "ambiguous_end"),
        ({"ambiguous_end": ""}, ValueError, "ambiguous_end"),
        ({"ambiguous_end": None}, TypeError, "ambiguous_end"),
        ({"ambiguous_end": 1}, TypeError, "ambiguous_end"),
    ],
)
def test_invalid_parameters(kwargs: dict, exc: type, fragment: str) -> None:
    with pytest.raises(exc, match=fragment) as info:
        TaPR(**kwargs)
    assert "TaPR" in str(info.value)


def test_unknown_parameter() -> None:
    with pytest.raises(TypeError, match="TaPR"):
        evaluators.get("TaPR", beta=1)


# --------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "y_true, y_pred, fragment",
    [
        ([0, 2, 1], [0, 1, 1], "y_true.*binary"),
        ([0, 1, 1], [0, 1, -1], "y_pred.*binary"),
        ([0.0, np.nan, 1.0], [0, 1, 1], "y_true.*NaN"),
        ([0, 1, 1], [0, 1], "length"),
        ([[0, 1], [1, 0]], [[0, 1], [1, 0]], "y_true.*1-D"),
        ([], [], "y_true.*empty"),
        (["a", "b"], [0, 1], "y_true.*numeric"),
        ([0, 1], [None, 1], "y_pred.*numeric"),
    ],
)
def test_bad_input_raises_value_error(y_true: object, y_pred: object, fragment: str) -> None:
    ev = TaPR()
    with pytest.raises(ValueError, match=fragment) as info:
        ev(y_true, y_pred)
    assert "TaPR" in str(info.value)
    with pytest.raises(ValueError, match=fragment):
        ev.parts(y_true, y_pred)


def test_accepts_bools_and_lists_and_does_not_mutate() -> None:
    y_true = np.array([0, 1, 1, 0, 0, 1], dtype=np.int64)
    y_pred = np.array([0, 0, 1, 1, 0, 0], dtype=np.int64)
    before = (y_true.copy(), y_pred.copy())
    expected = TaPR()(y_true, y_pred)
    assert TaPR()(y_true.astype(bool), y_pred.astype(bool)) == expected
    assert TaPR()(y_true.tolist(), y_pred.tolist()) == expected
    assert TaPR()(y_true.astype(float), y_pred.astype(np.uint8)) == expected
    np.testing.assert_array_equal(y_true, before[0])
    np.testing.assert_array_equal(y_pred, before[1])


# --------------------------------------------------------------------------
# Differential tests: vectorised vs literal oracle
# --------------------------------------------------------------------------


@st.composite
def pairs(draw: st.DrawFn, max_len: int = 60) -> tuple[np.ndarray, np.ndarray]:
    """Two 0/1 series of equal length built from runs: single points, short gaps, both ends."""
    n = draw(st.integers(1, max_len))

    def one() -> np.ndarray:
        runs = draw(st.lists(st.tuples(st.booleans(), st.integers(1, 9)), min_size=1, max_size=14))
        y = np.concatenate([np.full(length, int(v), dtype=np.int8) for v, length in runs])
        y = np.resize(y, n) if y.shape[0] < n else y[:n]
        return y

    return one(), one()


params_st = st.fixed_dictionaries(
    {
        "alpha": st.one_of(st.sampled_from([0.0, 0.5, 1.0]), st.floats(0.0, 1.0)),
        "delta": st.integers(0, 12),
        "theta": st.one_of(st.sampled_from([0.0, 0.25, 0.5, 1.0]), st.floats(0.0, 1.0)),
        "ambiguous_end": st.sampled_from(AMBIGUOUS_ENDS),
    }
)


def assert_matches_oracle(y_true: np.ndarray, y_pred: np.ndarray, params: dict) -> None:
    ev = TaPR(**params)
    fast = ev(y_true, y_pred)
    slow = oracle(y_true, y_pred, **params)
    for a, b in zip(fast, slow):
        assert abs(a - b) <= EXACT, (fast, slow)
    parts_fast = ev.parts(y_true, y_pred)
    parts_slow = oracle_parts(y_true, y_pred, params["delta"], params["theta"], params["ambiguous_end"])
    for a, b in zip(parts_fast, parts_slow):
        assert abs(a - b) <= EXACT, (parts_fast, parts_slow)


@settings(max_examples=400, deadline=None)
@given(pairs(), params_st)
@example((np.array([1, 0, 1], dtype=np.int8), np.array([1, 0, 1], dtype=np.int8)),
         {"alpha": 0.5, "delta": 5, "theta": 0.0, "ambiguous_end": "at_next"})
@example((np.array([1], dtype=np.int8), np.array([0], dtype=np.int8)),
         {"alpha": 0.5, "delta": 1, "theta": 0.0, "ambiguous_end": "before_next"})
def test_matches_oracle(data: tuple[np.ndarray, np.ndarray], params: dict) -> None:
    assert_matches_oracle(*data, params)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), params_st)
def test_matches_oracle_on_longer_series(seed: int, params: dict) -> None:
    # Dense random series of 600 points: many events, many gaps shorter than delta.
    rng = np.random.default_rng(seed)
    y_true = (rng.random(600) < rng.uniform(0.05, 0.6)).astype(np.int8)
    y_pred = (rng.random(600) < rng.uniform(0.05, 0.6)).astype(np.int8)
    assert_matches_oracle(y_true, y_pred, params)


@st.composite
def close_events(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, int]:
    """``(y_true, y_pred, delta)``: ground-truth events 1 to ``delta + 1`` points apart.

    These gaps are where the ambiguous region of one anomaly reaches the next
    anomaly (gap < delta), ends exactly on it (gap = delta - 1, delta) or just
    misses it (gap = delta + 1), the inputs on which the two cuts differ.  The
    prediction is the ground truth itself, a shifted copy, random runs, or all ones.
    """
    delta = draw(st.integers(1, 8))
    lead = draw(st.integers(0, 3))
    parts = [np.zeros(lead, dtype=np.int8)]
    for _ in range(draw(st.integers(1, 6))):
        parts.append(np.ones(draw(st.integers(1, 5)), dtype=np.int8))
        parts.append(np.zeros(draw(st.integers(1, delta + 1)), dtype=np.int8))
    y_true = np.concatenate(parts)
    tail = draw(st.integers(-1, delta + 2))  # -1: the last event touches the series end
    y_true = y_true[:-1] if tail < 0 else np.concatenate([y_true, np.zeros(tail, dtype=np.int8)])
    n = y_true.shape[0]
    kind = draw(st.sampled_from(["same", "shifted", "runs", "ones"]))
    if kind == "same":
        y_pred = y_true.copy()
    elif kind == "shifted":
        y_pred = np.roll(y_true, draw(st.integers(-delta - 1, delta + 1)))
    elif kind == "ones":
        y_pred = np.ones(n, dtype=np.int8)
    else:
        y_pred = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)), dtype=np.int8)
    return y_true, y_pred, delta


@settings(max_examples=500, deadline=None)
@given(close_events(), st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]), st.floats(0.0, 1.0))
@example((np.array([1, 0, 1], dtype=np.int8), np.array([1, 0, 1], dtype=np.int8), 5), 0.0, 0.5)
@example((np.array([1, 0, 0, 1, 0, 0, 0, 1, 0], dtype=np.int8),
          np.array([0, 1, 1, 1, 1, 1, 1, 0, 0], dtype=np.int8), 2), 0.5, 0.5)
def test_published_cut_matches_literal_tapr_py_on_close_events(
    data: tuple[np.ndarray, np.ndarray, int], theta: float, alpha: float
) -> None:
    # The default (TaPR.py's cut) against the literal loop-by-loop oracle, to 1e-12,
    # on the inputs the other strategies rarely produce: anomalies closer than delta.
    y_true, y_pred, delta = data
    params = {"alpha": alpha, "delta": delta, "theta": theta}
    assert TaPR(**params).params["ambiguous_end"] == "at_next"
    assert_matches_oracle(y_true, y_pred, {**params, "ambiguous_end": "at_next"})
    fast = TaPR(**params)(y_true, y_pred)
    slow = oracle(y_true, y_pred, alpha, delta, theta)  # the oracle's default cut, too
    assert all(abs(a - b) <= EXACT for a, b in zip(fast, slow)), (fast, slow)
    # The original's precision exceeds 1 by at most one region end's weight.
    assert fast.precision <= 1.0 + AT_NEXT_EXCESS + EXACT
    assert 0.0 <= fast.recall <= 1.0


def test_tie_with_theta_follows_tapr_py_summation_order() -> None:
    # GT {0}, {3}, {7} with delta = 2 (regions {1,2} and {4,5}, weights dec(-6), dec(6)
    # each, summing to 1 in exact arithmetic), prediction [1,7): score 1 + 1 + 1 = 3 of
    # 6 points, ratio exactly theta = 0.5 in exact arithmetic.  TaPR.py sums pair by
    # pair and its float ratio is not above 0.5: TaP_d = 0.  A sum in another order
    # lands one rounding step above 0.5; the evaluator must settle the tie as TaPR.py.
    y_true = np.array([1, 0, 0, 1, 0, 0, 0, 1, 0])
    y_pred = np.array([0, 1, 1, 1, 1, 1, 1, 0, 0])
    ev = TaPR(delta=2, theta=0.5)
    want = oracle_parts(y_true, y_pred, 2, 0.5)
    assert want[2] == 0.0
    assert ev.parts(y_true, y_pred) == pytest.approx(want, abs=EXACT)
    assert ev.parts(y_true, y_pred)[2] == 0.0


@settings(max_examples=150, deadline=None)
@given(pairs(), params_st, st.integers(1, 20))
def test_appending_zeros_changes_nothing(data: tuple[np.ndarray, np.ndarray], params: dict, k: int) -> None:
    # Ambiguous regions are not cut at the series end, so padding with normal points
    # cannot change any score.
    y_true, y_pred = data
    pad = np.zeros(k, dtype=np.int8)
    ev = TaPR(**params)
    assert ev(np.concatenate([y_true, pad]), np.concatenate([y_pred, pad])) == ev(y_true, y_pred)


@settings(max_examples=150, deadline=None)
@given(pairs(), params_st.filter(lambda p: p["ambiguous_end"] == "before_next"))
def test_before_next_cut_keeps_scores_in_unit_interval(data: tuple[np.ndarray, np.ndarray], params: dict) -> None:
    y_true, y_pred = data
    ev = TaPR(**params)
    for value in ev(y_true, y_pred):
        assert 0.0 <= value <= 1.0
    if y_true.any() and params["theta"] < 1.0:
        # The perfect prediction scores 1 (with theta = 1 nothing is ever "detected").
        assert ev(y_true, y_true) == Score(1.0, 1.0, 1.0)




# --------------------------------------------------------------------------
# The paper's Table A1, TaPR column (the packaged scenario cases)
# --------------------------------------------------------------------------


@pytest.mark.parametrize("ambiguous_end", AMBIGUOUS_ENDS)
def test_table_a1_tapr_column(ambiguous_end: str) -> None:
    from oipr_bench.reference import paper
    from oipr_bench import scenarios
    expected = paper.table_a1()
    ev = TaPR(ambiguous_end=ambiguous_end)
    cases = scenarios.load()
    assert len(cases) == 25
    for case in cases:
        want = expected[case.id]["TaPR"]
        runs = np.array([ev(case.y_true, y_pred) for y_pred in case.predictions])
        mean = runs.mean(axis=0)
        if case.n_runs == 1:
            # Deterministic rows: the paper's 4 decimals, |ours - paper| <= 5e-5.
            assert np.all(np.abs(mean - np.array(want)) <= 5e-5), (case.id, mean, want)
        else:
            # Random rows: mean of 100 runs within 3 standard errors of the paper.
            sem = runs.std(axis=0, ddof=1) / math.sqrt(case.n_runs)
            assert np.all(np.abs(mean - np.array(want)) <= 3 * sem), (case.id, mean, want, sem)


# --------------------------------------------------------------------------
# The range check names the published TaPR's quirk
# --------------------------------------------------------------------------


def test_range_check_explains_published_precision_above_one() -> None:
    from oipr_bench.auditing.calling.runner import BAD_RESULT, call_evaluator

    y = np.array([1, 0, 1], dtype=np.int8)  # perfect prediction: TaP = 1.0006182
    out = call_evaluator(TaPR(), y, y)
    assert out.kind == BAD_RESULT
    assert out.message.startswith("precision = 1.000618")
    assert "lies outside [0, 1]; a precision at most 0.00247 above 1 is what the published TaPR" in out.message
    assert "docs/deviations.md" in out.message and 'ambiguous_end="before_next"' in out.message
    assert call_evaluator(TaPR(ambiguous_end="before_next"), y, y).kind != BAD_RESULT


def test_range_check_note_only_for_a_small_excess() -> None:
    from oipr_bench.evaluators.tapr import above_one_note

    assert above_one_note("precision", 1.0 + AT_NEXT_EXCESS).startswith("; a precision at most")
    assert above_one_note("f1", 1.001).startswith("; an F1 at most")
    for name, value in [("precision", 1.0), ("precision", 1.0 + 2 * AT_NEXT_EXCESS), ("precision", 1.5),
                        ("recall", 1.001), ("precision", -0.001)]:
        assert above_one_note(name, value) == ""


# --------------------------------------------------------------------------
# Code paths for large inputs: regions longer than the per-offset loop, dense series
# --------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(65, 160), st.sampled_from(AMBIGUOUS_ENDS), st.floats(0.0, 1.0))
def test_long_regions_match_oracle(seed: int, delta: int, ambiguous_end: str, theta: float) -> None:
    # delta > 64: region offsets past the per-offset loop are laid out flat.  Gaps of
    # 1..2 delta points cut some regions and leave others whole; predictions are random runs.
    rng = np.random.default_rng(seed)
    parts = []
    for _ in range(int(rng.integers(1, 5))):
        parts.append(np.ones(int(rng.integers(1, 6)), dtype=np.int8))
        parts.append(np.zeros(int(rng.integers(1, 2 * delta)), dtype=np.int8))
    y_true = np.concatenate(parts)
    y_pred = (np.repeat(rng.random(y_true.shape[0] // 4 + 1), 4)[: y_true.shape[0]] < 0.5).astype(np.int8)
    assert_matches_oracle(y_true, y_pred, {"alpha": 0.5, "delta": delta, "theta": theta, "ambiguous_end": ambiguous_end})


def test_alternating_series_matches_oracle() -> None:
    # The densest input (every other point an anomaly, regions of 2 points ending on
    # the next anomaly): the counts go through the dense running-count path.
    alt = np.zeros(200, dtype=np.int8)
    alt[0::2] = 1
    for y_pred in (alt, 1 - alt, np.ones(200, dtype=np.int8), np.roll(alt, 1) | alt):
        assert_matches_oracle(alt, y_pred, {"alpha": 0.5, "delta": 5, "theta": 0.0, "ambiguous_end": "at_next"})
    # Perfect prediction: each event {2i} (i >= 1) also holds the last point of the
    # previous anomaly's region {2i-1, 2i}, weight dec(6): TaP_p = (1 + 99 (1 + dec(6))) / 100.
    assert_score(TaPR()(alt, alt), 0.5 + 0.5 * (100 + 99 * dec(6)) / 100, 1.0)


def parts_with_blocks(y_true: np.ndarray, y_pred: np.ndarray, params: dict, block: int, max_block: int) -> tuple:
    """``TaPR(**params).parts`` with the block-streamed pass forced to blocks of ``block`` to ``max_block`` points."""
    import oipr_bench.evaluators.kernels.tapr as blocks

    saved = blocks.BLOCK, blocks.MAX_BLOCK, blocks.BLOCK_BOUNDS
    # A block holding 4 event bounds is full: dense stretches keep blocks of ``block`` points.
    blocks.BLOCK, blocks.MAX_BLOCK, blocks.BLOCK_BOUNDS = block, max_block, 4
    try:
        return TaPR(**params).parts(y_true, y_pred)
    finally:
        blocks.BLOCK, blocks.MAX_BLOCK, blocks.BLOCK_BOUNDS = saved


def assert_blocks_match(y_true: np.ndarray, y_pred: np.ndarray, params: dict, block: int, max_block: int) -> None:
    """Tiny blocks (events, regions and prediction events crossing block borders) agree with one block and the oracle."""
    whole = TaPR(**params).parts(y_true, y_pred)
    assert len(y_true) <= 1 << 16  # the default: one block
    small = parts_with_blocks(y_true, y_pred, params, block, max_block)
    want = oracle_parts(y_true, y_pred, params["delta"], params["theta"], params["ambiguous_end"])
    for a, b, c in zip(small, whole, want):
        assert abs(a - b) <= EXACT and abs(a - c) <= EXACT, (small, whole, want)


@settings(max_examples=300, deadline=None)
@given(pairs(), params_st, st.integers(1, 5), st.integers(0, 3))
def test_tiny_blocks_match_one_block_and_oracle(data: tuple[np.ndarray, np.ndarray], params: dict, block: int, grow: int) -> None:
    # Blocks of 1-5 points (sparse blocks may double up to 8x): every event, ambiguous
    # region and prediction event can cross a block border and carry its partial score.
    assert_blocks_match(*data, params, block, block << grow)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1), params_st, st.integers(1, 40), st.sampled_from([0.02, 0.2, 0.5, 0.8]))
def test_small_blocks_on_longer_series(seed: int, params: dict, block: int, density: float) -> None:
    # 900 points in blocks of 1-40: dense blocks (running counts) and sparse ones
    # (binary search), regions cut by the next anomaly inside or after a block.
    rng = np.random.default_rng(seed)
    y_true = (np.repeat(rng.random(300), 3) < density).astype(np.int8)
    y_pred = (rng.random(900) < density).astype(np.int8)
    assert_blocks_match(y_true, y_pred, params, block, 16 * block)
    assert_matches_oracle(y_true, y_pred, params)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(65, 160), st.sampled_from(AMBIGUOUS_ENDS), st.integers(1, 50))
def test_long_regions_across_blocks(seed: int, delta: int, ambiguous_end: str, block: int) -> None:
    # delta > 64 (offsets past the per-offset loop laid out flat) with regions spanning
    # several blocks, and the next anomaly found by reading ahead of the block.
    rng = np.random.default_rng(seed)
    parts = []
    for _ in range(int(rng.integers(1, 6))):
        parts.append(np.ones(int(rng.integers(1, 6)), dtype=np.int8))
        parts.append(np.zeros(int(rng.integers(1, 2 * delta)), dtype=np.int8))
    y_true = np.concatenate(parts)
    y_pred = (np.repeat(rng.random(y_true.shape[0] // 4 + 1), 4)[: y_true.shape[0]] < 0.5).astype(np.int8)
    params = {"alpha": 0.5, "delta": delta, "theta": 0.0, "ambiguous_end": ambiguous_end}
    assert_blocks_match(y_true, y_pred, params, block, 4 * block)


def benchmark_module() -> object:
    """benchmarks/run.py, imported from its path (it is not part of the package)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "run.py"
    spec = importlib.util.spec_from_file_location("bench_run", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench


FAMILY_PARAMS = ({"alpha": 0.5, "delta": 5, "theta": 0.0}, {"alpha": 0.3, "delta": 70, "theta": 0.4})


@pytest.mark.parametrize("family", ["typical", "all-ones", "alternating", "one-event", "tiny-events"])
@pytest.mark.parametrize("ambiguous_end", AMBIGUOUS_ENDS)
def test_benchmark_families_match_oracle(family: str, ambiguous_end: str) -> None:
    # The worst-case families of benchmarks/run.py: at 400 points against the literal
    # oracle (in one block and in blocks of 16-128 points); at 40000 points, blocks of
    # 256-4096 points against one block.
    bench = benchmark_module()
    y_true, y_pred = bench.family_pair(family, *bench.make_pair(400))
    large = bench.family_pair(family, *bench.make_pair(40_000))
    for params in FAMILY_PARAMS:
        params = {**params, "ambiguous_end": ambiguous_end}
        assert_matches_oracle(y_true, y_pred, params)
        assert_blocks_match(y_true, y_pred, params, 16, 128)
        whole = TaPR(**params).parts(*large)
        small = parts_with_blocks(*large, params, 256, 4096)
        assert all(abs(a - b) <= EXACT for a, b in zip(small, whole)), (small, whole)
