"""Synthetic detectors of the paper (Sec. III-B and Appendix A)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oipr_bench.scenarios import detectors
from oipr_bench import scenarios
from oipr_bench.scenarios.events import events_list, from_events, to_events

binary = st.lists(st.integers(0, 1), min_size=1, max_size=300).map(lambda v: np.array(v, dtype=np.int8))
GT = from_events([[100, 130], [400, 401], [600, 610]], 1000)


# --------------------------------------------------------------------------- first point
def test_first_point_example():
    assert events_list(detectors.first_point(GT)) == [[100, 101], [400, 401], [600, 601]]


def test_first_point_reproduces_scenario_cases():
    np.testing.assert_array_equal(
        detectors.first_point(scenarios.get("overlap_proportion/c1").y_true),
        scenarios.get("overlap_proportion/c1").y_pred,
    )
    np.testing.assert_array_equal(
        detectors.first_point(scenarios.get("tp_positions/c1").y_true), scenarios.get("tp_positions/c1").y_pred
    )


@settings(max_examples=60, deadline=None)
@given(binary)
def test_first_point_properties(y):
    out = detectors.first_point(y)
    starts, _ = to_events(y)
    assert out.dtype == np.int8 and out.shape == y.shape
    assert np.flatnonzero(out).tolist() == starts.tolist()
    assert np.all(out <= y)


# --------------------------------------------------------------------------- long anomaly
def test_long_anomaly_reproduces_long_anomaly_effect_c1():
    case = scenarios.get("long_anomaly_effect/c1")
    np.testing.assert_array_equal(detectors.long_anomaly(case.y_true, min_length=10), case.y_pred)
    assert events_list(detectors.long_anomaly(case.y_true, 11)) == []
    np.testing.assert_array_equal(detectors.long_anomaly(case.y_true, 1), case.y_true)


@settings(max_examples=60, deadline=None)
@given(binary, st.integers(1, 20))
def test_long_anomaly_keeps_exactly_the_long_events(y, min_length):
    out = detectors.long_anomaly(y, min_length)
    assert out.dtype == np.int8 and out.shape == y.shape
    expected = [[s, e] for s, e in events_list(y) if e - s >= min_length]
    assert events_list(out) == expected


@pytest.mark.parametrize("bad, exc", [(0, ValueError), (-3, ValueError), (2.5, TypeError), (True, TypeError)])
def test_long_anomaly_rejects_bad_min_length(bad, exc):
    with pytest.raises(exc, match="long_anomaly: min_length"):
        detectors.long_anomaly(GT, bad)


# --------------------------------------------------------------------------- disturbances
def test_dispersed_disturbance_adds_one_percent_fp_points_anywhere():
    out = detectors.dispersed_disturbance(GT, seed=7)
    assert out.dtype == np.int8
    assert np.all(out[GT == 1] == 1)  # the ideal detector is kept
    fp = np.flatnonzero((out == 1) & (GT == 0))
    assert fp.size == 10  # 1 % of 1000
    np.testing.assert_array_equal(out, detectors.dispersed_disturbance(GT, seed=7))  # seeded
    assert not np.array_equal(out, detectors.dispersed_disturbance(GT, seed=8))
    assert detectors.dispersed_disturbance(GT, fraction=0.0, seed=1).tolist() == GT.tolist()


def test_aggregated_disturbance_puts_fp_points_in_the_first_three_percent():
    out = detectors.aggregated_disturbance(GT, seed=3)
    fp = np.flatnonzero((out == 1) & (GT == 0))
    assert fp.size == 10 and fp.max() < 30
    assert np.all(out[GT == 1] == 1)
    np.testing.assert_array_equal(out, detectors.aggregated_disturbance(GT, seed=3))
    # the window must hold enough normal points
    with pytest.raises(ValueError, match="aggregated_disturbance: fraction=0.05 asks for 50 FP points"):
        detectors.aggregated_disturbance(GT, fraction=0.05, seed=0)


def test_continuous_disturbance_sets_the_first_three_percent():
    out = detectors.continuous_disturbance(GT)
    assert events_list(out) == [[0, 30], [100, 130], [400, 401], [600, 610]]
    assert events_list(detectors.continuous_disturbance(np.zeros(200, dtype=np.int8), window=0.1)) == [[0, 20]]


def test_disturbance_detectors_accept_a_random_state():
    rng = np.random.RandomState(5)
    a = detectors.dispersed_disturbance(GT, seed=rng)
    b = detectors.dispersed_disturbance(GT, seed=rng)
    assert not np.array_equal(a, b)  # the stream advanced
    np.testing.assert_array_equal(a, detectors.dispersed_disturbance(GT, seed=np.random.RandomState(5)))


def test_dispersed_disturbance_needs_enough_normal_points():
    with pytest.raises(ValueError, match="only 0 normal points"):
        detectors.dispersed_disturbance(np.ones(100, dtype=np.int8), seed=0)


@pytest.mark.parametrize("fraction", [-0.1, 1.5, float("nan")])
def test_fraction_must_be_in_unit_interval(fraction):
    with pytest.raises(ValueError, match=r"dispersed_disturbance: fraction must lie in \[0, 1\]"):
        detectors.dispersed_disturbance(GT, fraction=fraction, seed=0)


def test_window_must_be_a_number():
    with pytest.raises(TypeError, match="continuous_disturbance: window must be a number"):
        detectors.continuous_disturbance(GT, window="3%")


@pytest.mark.parametrize("seed, exc", [("1", TypeError), (-1, ValueError), (2**32, ValueError), (None, TypeError)])
def test_bad_seed(seed, exc):
    with pytest.raises(exc, match="aggregated_disturbance: seed"):
        detectors.aggregated_disturbance(GT, seed=seed)


# --------------------------------------------------------------------------- random and constant
def test_random_detector_matches_the_dataset_stream():
    rng = np.random.RandomState(1)
    c1 = scenarios.get("random_detector/c1")
    np.testing.assert_array_equal(detectors.random_detector(1000, 0.02, seed=1), c1.predictions[0])
    runs = [detectors.random_detector(1000, seed=rng) for _ in range(3)]
    for k in range(3):
        np.testing.assert_array_equal(runs[k], c1.predictions[k])


def test_random_detector_rate_and_edge_probabilities():
    out = detectors.random_detector(100_000, p=0.02, seed=11)
    assert out.dtype == np.int8
    assert abs(out.mean() - 0.02) < 0.003  # 0.02 +- ~7 standard errors
    assert detectors.random_detector(50, p=0.0, seed=0).sum() == 0
    assert detectors.random_detector(50, p=1.0, seed=0).sum() == 50


def test_constant_detectors_reproduce_the_constant_scenario():
    c1, c2 = scenarios.get("constant_detector/c1"), scenarios.get("constant_detector/c2")
    np.testing.assert_array_equal(detectors.all_zeros(c1.length), c1.y_pred)
    np.testing.assert_array_equal(detectors.all_ones(c2.length), c2.y_pred)
    assert detectors.all_zeros(3).dtype == np.int8 and detectors.all_ones(3).dtype == np.int8


@pytest.mark.parametrize("func", [detectors.all_zeros, detectors.all_ones, detectors.random_detector])
@pytest.mark.parametrize("length, exc", [(0, ValueError), (-5, ValueError), (3.0, TypeError), ("10", TypeError)])
def test_bad_length(func, length, exc):
    with pytest.raises(exc, match=f"{func.__name__}: length"):
        func(length)


# --------------------------------------------------------------------------- ground-truth validation
@pytest.mark.parametrize(
    "bad, message",
    [
        ([0, 2, 1], "must be binary"),
        ([[0, 1], [1, 0]], "must be 1-D"),
        ([], "is empty"),
        ([0.0, float("nan")], "contains NaN"),
        (["a", "b"], "must hold numeric or boolean"),
    ],
)
@pytest.mark.parametrize(
    "call",
    [
        lambda y: detectors.first_point(y),
        lambda y: detectors.long_anomaly(y, 2),
        lambda y: detectors.dispersed_disturbance(y, seed=0),
        lambda y: detectors.aggregated_disturbance(y, seed=0),
        lambda y: detectors.continuous_disturbance(y),
    ],
)
def test_bad_ground_truth_is_rejected_with_a_clear_message(call, bad, message):
    with pytest.raises(ValueError, match=f"y_true {message}"):
        call(bad)


def test_inputs_are_not_modified_and_bool_input_is_accepted():
    y = GT.copy()
    for out in (detectors.first_point(y), detectors.continuous_disturbance(y), detectors.dispersed_disturbance(y)):
        assert out is not y
    np.testing.assert_array_equal(y, GT)
    assert detectors.first_point(GT.astype(bool)).tolist() == detectors.first_point(GT).tolist()
    # read-only arrays from the dataset work too
    assert detectors.first_point(scenarios.get("fragmented_fps/c1").y_true).sum() == 1
