"""The score evaluators (AUC-ROC, AUC-PR, R-AUC-ROC/PR, VUS-ROC/PR): hand-worked values,
parameter and input errors, the kernel's two shortcuts checked directly, and hypothesis
differential tests against the loop-by-loop oracles (ties, plateaus, one distinct value,
near ties, events at both ends).  Equality with the packages themselves is checked in the
atlas environment (tests/test_score_packages.py).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from _helpers import series
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from oipr_bench import evaluators
from oipr_bench.evaluators.oracles.range_auc import sloped_labels_oracle, thresholds_oracle
from oipr_bench.evaluators.oracles.scores import score_oracle
from oipr_bench.evaluators.scores.bins import threshold_bins
from oipr_bench.evaluators.scores.slopes import BLOCK
from oipr_bench.testing.strategies import event_lists
from oipr_bench.scenarios.events import from_events

TOL = 1e-9
RANGE_NAMES = ["R-AUC-ROC", "R-AUC-PR", "VUS-ROC", "VUS-PR"]


# --------------------------------------------------------------------------
# Strategies: labels with both classes, scores with ties, plateaus and near ties
# --------------------------------------------------------------------------

@st.composite
def labels(draw, max_size: int = 60) -> np.ndarray:
    length = draw(st.integers(2, max_size))
    events = draw(event_lists(length, min_events=1))
    y = from_events(events, length)
    if y.all():  # both classes: knock one point out
        y[draw(st.integers(0, length - 1))] = 0
    return y


@st.composite
def scores_for(draw, length: int) -> np.ndarray:
    kind = draw(st.sampled_from(["random", "few", "constant", "plateaus", "near_ties"]))
    if kind == "random":
        return np.array(draw(st.lists(st.floats(-1e3, 1e3), min_size=length, max_size=length)))
    if kind == "few":
        return np.array(draw(st.lists(st.integers(0, 3), min_size=length, max_size=length)), dtype=float)
    if kind == "constant":
        return np.full(length, draw(st.floats(-5, 5)))
    if kind == "near_ties":  # closer than float32 resolves, still distinct in float64
        return 0.5 + np.array(draw(st.lists(st.integers(0, 3), min_size=length, max_size=length))) * 1e-12
    values = []
    while len(values) < length:
        values += [draw(st.floats(0, 1))] * draw(st.integers(1, 8))
    return np.array(values[:length])


@st.composite
def cases(draw, max_size: int = 60) -> tuple[np.ndarray, np.ndarray]:
    y = draw(labels(max_size))
    return y, draw(scores_for(y.shape[0]))


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=0, abs_tol=TOL)


# --------------------------------------------------------------------------
# Hand-worked values
# --------------------------------------------------------------------------

def test_auc_roc_by_hand() -> None:
    # Pairs (anomalous, normal): 0.35 beats 0.1 only; 0.8 beats both -> 3 of 4.
    assert evaluators.get("AUC-ROC")([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]) == 0.75


def test_auc_roc_ties_count_half() -> None:
    assert evaluators.get("AUC-ROC")([0, 1], [0.5, 0.5]) == 0.5


def test_auc_pr_by_hand() -> None:
    # Thresholds 0.8, 0.4, 0.35, 0.1 -> (R, P) = (1/2, 1), (1/2, 1/2), (1, 2/3), (1, 1/2).
    y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    assert evaluators.get("AUC-PR")(y, s) == pytest.approx(0.5 * 1 + 0.5 * 2 / 3, abs=1e-15)
    trapezoid = 0.5 * (1 + 1) / 2 + 0 + 0.5 * (1 / 2 + 2 / 3) / 2 + 0
    assert evaluators.get("AUC-PR", estimator="trapezoid")(y, s) == pytest.approx(trapezoid, abs=1e-15)


def test_window_zero_is_point_wise_with_existence() -> None:
    # W = 0: no slopes, one segment per event; every score distinct and n = T, so the
    # thresholds are every score: one event -> TPR is recall once the event is hit.
    y = np.array([0, 1, 1, 0, 0])
    s = np.array([0.1, 0.9, 0.3, 0.4, 0.2])
    got = evaluators.get("VUS-PR", sliding_window=0, thresholds=5)(y, s)
    # (TPR, precision): 0.9 -> (1/2, 1); 0.4 -> (1/2, 1/2); 0.3 -> (1, 2/3); then TPR stays 1.
    assert got == pytest.approx(0.5 * 1 + 0 + 0.5 * 2 / 3, abs=1e-15)


def test_sloped_labels_by_hand() -> None:
    # Window 4: two points each side, sqrt(1 - 1/4) and sqrt(1 - 2/4); the gap point 4 is
    # one point from both events, 2 * sqrt(3/4) > 1, so it is capped at 1.
    labels = sloped_labels_oracle([0, 0, 0, 1, 0, 1, 0, 0, 0], 4)
    a, b = math.sqrt(0.75), math.sqrt(0.5)
    assert labels == pytest.approx([0, b, a, 1, 1, 1, a, b, 0], abs=1e-15)


def test_threshold_sampling_matches_linspace() -> None:
    scores = np.random.default_rng(1).random(997)
    for n in (1, 2, 250, 2000):
        expected = (-np.sort(-scores))[np.linspace(0, scores.size - 1, n).astype(int)]
        assert thresholds_oracle(scores.tolist(), n) == expected.tolist()
        bins = threshold_bins(scores, n)
        for j in (0, n // 2, n - 1):
            assert np.array_equal(bins <= j, scores >= expected[j])


# --------------------------------------------------------------------------
# Parameters and inputs
# --------------------------------------------------------------------------

@pytest.mark.parametrize("params, kind, text", [
    ({"sliding_window": -1}, ValueError, "sliding_window must be >= 0"),
    ({"sliding_window": 2.0}, TypeError, "sliding_window must be a non-negative integer"),
    ({"thresholds": 0}, ValueError, "thresholds must be >= 1"),
    ({"thresholds": True}, TypeError, "thresholds must be a non-negative integer"),
    ({"sliding_window": 100_000, "thresholds": 250}, ValueError, "slope table"),
])
@pytest.mark.parametrize("name", RANGE_NAMES)
def test_bad_window_params(name: str, params: dict, kind: type, text: str) -> None:
    with pytest.raises(kind, match=text) as info:
        evaluators.get(name, **params)
    assert str(info.value).startswith(f"{name}: ")


def test_bad_choice_params() -> None:
    with pytest.raises(ValueError, match="estimator must be one of average_precision, trapezoid"):
        evaluators.get("AUC-PR", estimator="step")
    with pytest.raises(ValueError, match="definition must be one of tsb-ad, vus, timeeval-compat, timeeval"):
        evaluators.get("R-AUC-PR", definition="volume")
    with pytest.raises(ValueError, match="definition must be one of tsb-ad, timeeval-compat, timeeval"):
        evaluators.get("VUS-PR", definition="vus")


@pytest.mark.parametrize("name", ["AUC-ROC", "AUC-PR", *RANGE_NAMES])
@pytest.mark.parametrize("y, s, text", [
    ([0, 0, 0], [0.1, 0.2, 0.3], "y_true has no anomaly"),
    ([1, 1], [0.1, 0.2], "y_true has no normal point"),
    ([0, 1, 2], [0.1, 0.2, 0.3], "must be binary"),
    ([0, 1, 0], [0.1, float("nan"), 0.3], r"scores must be finite; found nan at index 1"),
    ([0, 1, 0], [0.1, 0.2, float("inf")], "at index 2"),
    ([0, 1, 0], [0.1, 0.2], r"differ in length \(3 vs 2\)"),
    ([0, 1, 0], ["a", "b", "c"], "scores must be real numbers"),
    ([0, 1, 0], [[0.1, 0.2, 0.3]], "must be 1-D"),
])
def test_bad_inputs(name: str, y: list, s: list, text: str) -> None:
    with pytest.raises(ValueError, match=text) as info:
        evaluators.get(name)(y, s)
    assert str(info.value).startswith(f"{name}: ")


def test_inputs_are_not_modified() -> None:
    y = np.array([0, 1, 1, 0, 0, 1], dtype=np.int64)
    s = np.array([0.3, 0.2, 0.9, 0.9, 0.1, 0.5])
    y0, s0 = y.copy(), s.copy()
    for name in ["AUC-ROC", "AUC-PR", *RANGE_NAMES]:
        evaluators.get(name, **({} if name.startswith("AUC") else {"sliding_window": 4}))(y, s)
    assert np.array_equal(y, y0) and np.array_equal(s, s0)


def test_registry() -> None:
    assert evaluators.SCORE_NAMES == ("AUC-ROC", "AUC-PR", "R-AUC-ROC", "R-AUC-PR", "VUS-ROC", "VUS-PR")
    for name in evaluators.SCORE_NAMES:
        ev = evaluators.get(name)
        assert ev.name == name and ev.input_kind == "scores"
        assert isinstance(ev([0, 1, 0, 0], [0.2, 0.7, 0.1, 0.4]), float)
    assert evaluators.get("VUS-PR").params == {"sliding_window": 100, "thresholds": 250, "definition": "tsb-ad"}
    assert evaluators.get("R-AUC-ROC").params == {"sliding_window": 100, "thresholds": 250, "definition": "tsb-ad"}
    assert "VUS-PR" not in evaluators.NAMES  # NAMES stays the paper's seven binary evaluators


# --------------------------------------------------------------------------
# Differential tests against the oracles
# --------------------------------------------------------------------------

@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(max_size=80), st.sampled_from(["AUC-ROC", "AUC-PR", "AUC-PR/trapezoid"]))
@example((series(5, (0, 1), (4, 5)), np.array([0.5, 0.1, 0.5, 0.2, 0.5])), "AUC-PR")
@example((series(3, (0, 2)), np.array([1.0, 1.0, 1.0])), "AUC-ROC")
def test_auc_matches_oracle(case, which: str) -> None:
    y, s = case
    name, _, estimator = which.partition("/")
    params = {"estimator": estimator} if estimator else {}
    assert _close(evaluators.get(name, **params)(y, s), score_oracle(name, **params)(y, s))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(max_size=50), st.integers(0, 14), st.integers(1, 30), st.sampled_from(["tsb-ad", "vus", "timeeval-compat", "timeeval"]))
@example((series(12, (0, 2), (10, 12)), np.arange(12.0)), 9, 5, "tsb-ad")  # events at both ends
@example((series(12, (0, 2), (5, 6), (10, 12)), np.arange(12.0) % 3), 8, 5, "timeeval-compat")
@example((series(12, (0, 2), (5, 6), (10, 12)), np.arange(12.0) % 4), 6, 40, "timeeval")  # window's extra point
@example((series(12, (3, 4), (5, 6), (7, 8)), np.ones(12)), 10, 4, "vus")  # one value; slopes overlap
@example((series(9, (4, 5)), np.array([0, 1, 0, 1, 0, 1, 0, 1, 0.0])), 4, 9, "vus")
def test_range_auc_matches_oracle(case, window: int, n: int, definition: str) -> None:
    y, s = case
    params = {"sliding_window": window, "thresholds": n, "definition": definition}
    for name in ("R-AUC-ROC", "R-AUC-PR"):
        assert _close(evaluators.get(name, **params)(y, s), score_oracle(name, **params)(y, s)), name


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(max_size=40), st.integers(0, 12), st.integers(1, 25), st.sampled_from(["tsb-ad", "timeeval-compat", "timeeval"]))
@example((series(10, (0, 1), (2, 3), (9, 10)), np.array([3, 3, 1, 0, 2, 2, 2, 1, 0, 3.0])), 12, 7, "tsb-ad")
@example((series(6, (1, 5)), np.full(6, 0.25)), 5, 1, "tsb-ad")
@example((series(10, (0, 1), (3, 4), (9, 10)), np.array([3, 3, 1, 0, 2, 2, 2, 1, 0, 3.0])), 9, 7, "timeeval-compat")
def test_vus_matches_oracle(case, window: int, n: int, definition: str) -> None:
    y, s = case
    params = {"sliding_window": window, "thresholds": n, "definition": definition}
    for name in ("VUS-ROC", "VUS-PR"):
        assert _close(evaluators.get(name, **params)(y, s), score_oracle(name, **params)(y, s)), name


def test_vus_crosses_blocks_and_matches_oracle() -> None:
    # A series longer than the kernel's distance block, events at both ends and near a block edge.
    rng = np.random.default_rng(7)
    size = BLOCK + 300
    y = np.zeros(size, dtype=np.int8)
    for start in (0, 40, BLOCK - 3, BLOCK + 5, size - 2):
        y[start:start + 2] = 1
    s = np.round(rng.random(size), 2)
    for params in ({"sliding_window": 12, "thresholds": 6}, {"sliding_window": 7, "thresholds": 5, "definition": "timeeval-compat"},
                   {"sliding_window": 9, "thresholds": 4, "definition": "timeeval"}):
        for name in ("VUS-ROC", "VUS-PR"):
            assert _close(evaluators.get(name, **params)(y, s), score_oracle(name, **params)(y, s)), name


def test_timeeval_compat_slope_after_is_one_shorter() -> None:
    y = [0, 0, 0, 1, 0, 0, 0]
    a, b = math.sqrt(1 - 1 / 4), math.sqrt(1 - 2 / 4)
    assert sloped_labels_oracle(y, 4) == pytest.approx([0, b, a, 1, a, b, 0], abs=1e-15)
    assert sloped_labels_oracle(y, 4, short_after=True) == pytest.approx([0, b, a, 1, a, 0, 0], abs=1e-15)


def test_timeeval_linear_slopes_take_the_maximum() -> None:
    from oipr_bench.evaluators.oracles.range_auc import linear_labels_oracle

    ramp = np.linspace(1 / np.sqrt(2), 1, 3)  # h = 2: the point 1 away gets ramp[1], 2 away ramp[0]
    got = linear_labels_oracle([0, 0, 1, 0, 0, 1, 0, 0], 4)
    assert got == pytest.approx([ramp[0], ramp[1], 1, ramp[1], ramp[1], 1, ramp[1], ramp[0]], abs=1e-15)


def test_vus_is_mean_of_volume_range_aucs() -> None:
    rng = np.random.default_rng(3)
    y = series(300, (0, 4), (50, 80), (82, 83), (290, 300))
    s = rng.random(300) + 0.4 * y
    for kind in ("ROC", "PR"):
        per_window = [evaluators.get(f"R-AUC-{kind}", sliding_window=w, thresholds=40)(y, s) for w in range(21)]
        vus = evaluators.get(f"VUS-{kind}", sliding_window=20, thresholds=40)(y, s)
        assert vus == pytest.approx(sum(per_window) / 21, abs=1e-12)


@pytest.mark.parametrize("name", ["R-AUC-ROC", "R-AUC-PR", "VUS-ROC", "VUS-PR"])
def test_a_constant_score_is_0_under_timeevals_definitions_and_computed_under_the_others(name: str) -> None:
    # TimeEval's Metric.__call__ and aeon return 0.0 for a constant score before computing (their guard);
    # TSB-AD and vus compute it.  By hand, window 0, one threshold (0.5): every point is predicted, so
    # recall 1 and FPR 1: the ROC area is the triangle 1/2; precision = 2/6 over one step of recall 1.
    y, s = series(6, (1, 3)), np.full(6, 0.5)
    window = {"sliding_window": 0, "thresholds": 1}
    for definition in ("timeeval-compat", "timeeval"):
        assert evaluators.get(name, **window, definition=definition)(y, s) == 0.0
        assert score_oracle(name, **window, definition=definition)(y, s) == 0.0
    expected = 0.5 if name.endswith("ROC") else 2 / 6
    assert evaluators.get(name, **window)(y, s) == pytest.approx(expected, abs=1e-12)
    raised = s + np.array([0, 1e-9, 0, 0, 0, 0])  # one distinct value more (on an event point): computed
    for definition in ("timeeval-compat", "timeeval"):
        assert evaluators.get(name, **window, definition=definition)(y, raised) > 0.0
