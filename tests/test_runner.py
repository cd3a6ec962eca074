"""Calling misbehaving evaluators: every problem is a CallOutcome, never an escaping exception."""

from __future__ import annotations

import math
import os
import time

import numpy as np
import pytest

from oipr_bench.evaluators import Score
from oipr_bench.auditing.calling.runner import Caller, call_evaluator, check_range, coerce_result

Y_TRUE = np.array([0, 1, 1, 0, 0, 1, 0], dtype=np.int8)
Y_PRED = np.array([0, 1, 0, 0, 1, 1, 0], dtype=np.int8)


@pytest.mark.parametrize(
    "result, expected",
    [
        ((0.5, 0.25, 0.3), Score(0.5, 0.25, 0.3)),
        ([0.5, 0.5], Score(0.5, 0.5, 0.5)),
        ({"precision": 1.0, "recall": 0.0}, Score(1.0, 0.0, 0.0)),
        ((np.float32(0.5), np.float64(0.5), np.array(0.5)), Score(0.5, 0.5, 0.5)),
        (np.array([0.5, 1.0]), Score(0.5, 1.0, 2 / 3)),
        (Score(0.1, 0.2, 0.3), Score(0.1, 0.2, 0.3)),
    ],
)
def test_accepted_results(result, expected):
    got = coerce_result(result)
    assert got == pytest.approx(expected)
    assert all(type(v) is float for v in got)


@pytest.mark.parametrize(
    "result, match",
    [
        (None, "returned None"),
        ("0.5", "returned a string"),
        ((0.5,), "returned 1 values"),
        ((0.1, 0.2, 0.3, 0.4), "returned 4 values"),
        ({"precision": 1.0}, "without key"),
        ((True, 1.0), "boolean"),
        ((np.array([1.0, 2.0]), 1.0), "array of shape"),
        (object(), "expected"),
        (np.ones((2, 2)), "shape"),
    ],
)
def test_rejected_results(result, match):
    with pytest.raises(TypeError, match=match):
        coerce_result(result)


def test_check_range_nan_only_where_documented():
    zeros = np.zeros(5, dtype=np.int8)
    ones = np.ones(5, dtype=np.int8)
    assert check_range(Score(math.nan, 0.0, math.nan), ones, zeros) == ""
    assert "NaN" in check_range(Score(math.nan, 1.0, math.nan), ones, ones)
    assert "outside [0, 1]" in check_range(Score(1.5, 1.0, 1.0), ones, ones)
    assert "outside [0, 1]" in check_range(Score(-0.1, 1.0, 1.0), ones, ones)
    assert "outside [0, 1]" in check_range(Score(math.inf, 1.0, 1.0), ones, ones)


def _raises(t, p):
    raise ValueError("boom")


def _exits(t, p):
    raise SystemExit(0)


def _nan(t, p):
    return (math.nan, 0.5, 0.5)


def _mutates(t, p):
    p[:] = 1
    return (0.5, 0.5)


def _str(t, p):
    return "0.5"


def _hangs(t, p):
    time.sleep(60)


def _dies(t, p):
    os._exit(1)


def _segfaults(t, p):
    import ctypes

    ctypes.string_at(0)


def _nan_score(t, p):
    return math.nan


def _inf_score(t, p):
    return np.float64(math.inf)


def _big_score(t, p):
    return 1.5


def _good_score(t, p):
    return np.array(0.25)


def _good(t, p):
    return (float(t @ p) / max(int(p.sum()), 1), float(t @ p) / max(int(t.sum()), 1))


@pytest.mark.parametrize(
    "fn, kind, match",
    [
        (_raises, "raised", "raised ValueError: boom"),
        (_exits, "raised", "SystemExit"),
        (_nan, "bad_result", "precision is NaN"),
        (_mutates, "mutated", "mutated its input y_pred"),
        (_str, "bad_result", "string"),
        (_good, "ok", ""),
        # scalar results (one number): the same guarantees
        (_nan_score, "bad_result", "score is NaN although it is well defined here"),
        (_inf_score, "bad_result", "score = inf is not a finite number"),
        (_big_score, "bad_result", "score = 1.5 lies outside the declared bounds [0, 1]"),
        (_good_score, "ok", ""),
    ],
)
@pytest.mark.parametrize("isolate", [False, True])
def test_misbehaviour_in_process_and_isolated(fn, kind, match, isolate):
    original = Y_PRED.copy()
    with Caller(fn, isolate=isolate) as caller:
        out = caller(Y_TRUE, Y_PRED)
    assert out.kind == kind
    assert match in out.message
    np.testing.assert_array_equal(Y_PRED, original)


def test_each_call_gets_fresh_arrays():
    seen = []

    def fn(t, p):
        seen.append(p)
        p[:] = 1
        return (1.0, 1.0)

    first = call_evaluator(fn, Y_TRUE, Y_PRED)
    second = call_evaluator(fn, Y_TRUE, Y_PRED)
    assert first.kind == second.kind == "mutated"
    assert seen[0] is not seen[1] and seen[0] is not Y_PRED
    assert Y_PRED.sum() == 3


def test_dtype_is_passed_through():
    got = []
    call_evaluator(lambda t, p: got.append((t.dtype, p.dtype)) or (1.0, 1.0), Y_TRUE, Y_PRED, dtype=bool)
    assert got == [(np.dtype(bool), np.dtype(bool))]


def test_returned_f1_flag():
    assert call_evaluator(lambda t, p: (1.0, 1.0), Y_TRUE, Y_PRED).returned_f1 is False
    assert call_evaluator(lambda t, p: (1.0, 1.0, 1.0), Y_TRUE, Y_PRED).returned_f1 is True


def test_timeout_ends_the_call_and_the_next_call_works():
    def sometimes_hangs(t, p):
        if p[4] == 1:
            time.sleep(60)
        return (0.5, 0.5)

    with Caller(sometimes_hangs, timeout=0.5) as caller:
        t0 = time.perf_counter()
        out = caller(Y_TRUE, Y_PRED)
        elapsed = time.perf_counter() - t0
        assert out.kind == "timed_out" and out.message == "timed out after 0.5 s"
        assert elapsed < 5
        again = caller(Y_TRUE, Y_TRUE)
        assert again.kind == "ok" and again.score == pytest.approx((0.5, 0.5, 0.5))


@pytest.mark.parametrize("fn, match", [(_dies, "exit code 1"), (_segfaults, "SIGSEGV")])
def test_dead_worker_is_a_crash_and_the_next_call_works(fn, match):
    calls = {"n": 0}

    def first_dies(t, p):
        calls["n"] += 1
        if p[4] == 1:
            fn(t, p)
        return (1.0, 1.0, 1.0)

    with Caller(first_dies, isolate=True) as caller:
        out = caller(Y_TRUE, Y_PRED)
        assert out.kind == "crashed" and match in out.message
        assert caller(Y_TRUE, Y_TRUE).kind == "ok"


def test_hang_with_timeout_in_process_mode_is_refused():
    with pytest.raises(ValueError, match="positive"):
        Caller(_good, timeout=0)
    with pytest.raises(ValueError, match="positive"):
        Caller(_good, timeout=-1)


def test_scalar_results_and_declared_bounds():
    assert coerce_result(0.25) == (pytest.approx(math.nan, nan_ok=True), pytest.approx(math.nan, nan_ok=True), 0.25)
    assert math.isnan(coerce_result(np.float32(0.5)).precision) and coerce_result(np.float32(0.5)).f1 == 0.5
    ones = np.ones(5, dtype=np.int8)
    score = Score(math.nan, math.nan, 7.0)
    assert "outside the declared bounds [0, 1]" in check_range(score, ones, ones, kind="score")
    assert check_range(score, ones, ones, kind="score", bounds=(0.0, math.inf)) == ""
    assert check_range(Score(math.nan, math.nan, 1.0 + 1e-12), ones, ones, kind="score") == ""  # tolerance 1e-9
    assert check_range(Score(1.0 + 1e-12, 1.0, 1.0), ones, ones) == ""  # P/R get the same tolerance
    assert "outside" in check_range(Score(1.0 + 1e-6, 1.0, 1.0), ones, ones)
    with Caller(_big_score, bounds=(0.0, 2.0)) as caller:
        out = caller(Y_TRUE, Y_PRED)
    assert out.ok and out.result_kind == "score" and out.score.f1 == 1.5
    seen = []
    with Caller(lambda t, p: seen.append((t.dtype, p.dtype)) or 0.5, input_kind="scores") as caller:
        assert caller(Y_TRUE, Y_PRED).ok
    assert seen == [(np.dtype(np.int8), np.dtype(np.float64))]
    with pytest.raises(ValueError, match="input kind must be one of binary, scores"):
        Caller(_good, input_kind="probabilities")
