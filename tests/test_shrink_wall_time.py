"""The shrink budget bounds wall time even when the evaluator turns slow after its first calls.

Each shrink candidate runs in a daemon thread, waited for up to what is left of the budget; when the
budget runs out mid-call the call is abandoned (not waited for), the shrink stops and reports the
smallest counterexample it reached, and the evaluator is not called again (its state after an
abandoned call is not trusted).  The evaluators below answer correctly at first and then sleep
:data:`SLOW` seconds per call, far beyond the :data:`BUDGET`: a shrink that waits for them overruns.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import numpy as np

from oipr_bench import evaluators
from oipr_bench.auditing.calling.deadline import THREAD_NAME
from oipr_bench.auditing.calling.runner import Caller, call_evaluator
from oipr_bench.auditing.regression.differential import disagreement, run_family
from oipr_bench.auditing.regression.score_differential import (difference_of, one_number, run_score_differential,
                                                               run_score_family, value_of)
from oipr_bench.auditing.regression.score_shrink import case_size, shrink_case
from oipr_bench.auditing.regression.shrink import BUDGET_SLACK, Pair, shrink
from oipr_bench.testing.score_families import make_score_case
from oipr_bench.vocabulary import FAILED

#: Seconds the shrinking may take in these tests, and seconds each slow call sleeps.
BUDGET = 2.0
SLOW = 5.0


def _bounded_threads_are_daemons() -> bool:
    """The abandoned call still runs (it sleeps), in a daemon thread: the process may end without it."""
    running = [t for t in threading.enumerate() if t.name == THREAD_NAME]
    return bool(running) and all(t.daemon for t in running)


class _SlowAfter:
    """``fn`` called through; from call ``fast + 1`` on, each call first sleeps :data:`SLOW` seconds."""

    def __init__(self, fn, fast: int) -> None:
        self.fn, self.fast, self.calls = fn, fast, 0

    def __call__(self, *args):
        self.calls += 1
        if self.calls > self.fast:
            time.sleep(SLOW)
        return self.fn(*args)


def _long_event(p: Pair) -> bool:
    """The failure shrunk below: a ground-truth event of at least 3 points in a series of at least 10."""
    return p.length >= 10 and any(e - s >= 3 for s, e in p.y_true_events)


def test_a_shrink_whose_candidates_turn_slow_stops_at_its_budget() -> None:
    pair = Pair(400, [[10, 40], [100, 180], [300, 305]], [[12, 30], [310, 320]])
    fails = _SlowAfter(_long_event, fast=6)
    start = time.perf_counter()
    outcome = shrink(pair, fails, budget=BUDGET)
    wall = time.perf_counter() - start
    assert wall <= BUDGET + BUDGET_SLACK, wall
    assert not outcome.finished and outcome.abandoned
    assert outcome.seconds <= BUDGET + BUDGET_SLACK
    # the reached pair is one the shrinking kept, and it really fails; the fast calls made progress
    assert outcome.pair == outcome.path[-1] and _long_event(outcome.pair)
    assert outcome.steps >= 1 and outcome.pair.key() < pair.key()
    assert _bounded_threads_are_daemons()


def test_a_score_shrink_whose_candidates_turn_slow_stops_at_its_budget() -> None:
    case = make_score_case("random_scores", 0)

    def two_values_long_event(c) -> bool:
        return len(set(c.scores)) >= 2 and any(e - s >= 2 for s, e in c.y_true_events)

    fails = _SlowAfter(two_values_long_event, fast=3)
    start = time.perf_counter()
    outcome = shrink_case(case, fails, budget=BUDGET)
    wall = time.perf_counter() - start
    assert wall <= BUDGET + BUDGET_SLACK, wall
    assert not outcome.finished and outcome.abandoned and outcome.seconds <= BUDGET + BUDGET_SLACK
    assert two_values_long_event(outcome.case) and outcome.steps >= 1
    assert _bounded_threads_are_daemons()


def test_a_score_differential_run_stops_at_the_budget_and_prints_a_real_counterexample(capsys) -> None:
    reference = evaluators.get("AUC-ROC")

    def wrong_on_long_series(t, s):  # off by 0.01 on series of more than 40 points
        value = float(reference(t, s))
        return value + 0.01 if len(t) > 40 else value

    slow = _SlowAfter(wrong_on_long_series, fast=9)  # the found case, its 5 re-confirmations, 3 shrink calls
    with Caller(slow, input_kind="scores") as caller:  # in-process: the call the command line makes
        start = time.perf_counter()
        result = run_score_family(one_number(caller), reference, "random_scores", name="AUC-ROC", n=5,
                                  shrink_budget=BUDGET)
        wall = time.perf_counter() - start
    assert result.status == FAILED and not result.shrink_finished
    assert result.shrink_seconds <= BUDGET + BUDGET_SLACK and wall <= BUDGET + BUDGET_SLACK + 1.0, wall
    assert "budget ran out during a call" in result.message and "abandoned" in result.message
    assert "not called again" in result.message and "confirmed by 5 more calls" not in result.message
    # the printed counterexample is one on which the evaluator (called afresh, not slowed) really differs
    shrunk = result.shrunk
    assert shrunk is not None and shrunk.length > 40 and case_size(shrunk) < case_size(result.found)
    assert difference_of(value_of(wrong_on_long_series, shrunk), value_of(reference, shrunk), 1e-9)
    assert result.reproduction in result.message
    calls = slow.calls
    time.sleep(0.2)
    assert slow.calls == calls  # nothing calls the evaluator after the abandoned call
    # the main thread's stdout is stdout again (the abandoned call is still inside the evaluator's streams)
    print("after the run")
    assert "after the run" in capsys.readouterr().out
    assert _bounded_threads_are_daemons()


def test_the_score_differential_command_prints_the_reached_case_within_its_budget(tmp_path: Path, capsys) -> None:
    from oipr_bench.cli import main

    module = tmp_path / "slow_after.py"
    module.write_text("import time\nfrom oipr_bench import evaluators\n_v = evaluators.get('AUC-ROC')\n_calls = [0]\n"
                      "def f(t, s):\n    _calls[0] += 1\n    if _calls[0] > 9:\n        time.sleep(5)\n"
                      "    value = float(_v(t, s))\n    return value + 0.01 if len(t) > 40 else value\n")
    start = time.perf_counter()
    code = main(["score-differential", f"{module}:f", "--reference", "AUC-ROC", "-n", "5", "--family", "random_scores",
                 "--family", "one_value", "--shrink-budget", str(BUDGET)])
    wall = time.perf_counter() - start
    out = capsys.readouterr().out
    assert code == 1 and "random_scores: FAILED" in out and "budget ran out during a call" in out, out
    assert wall <= BUDGET + BUDGET_SLACK + 2.0, wall
    # the evaluator is not called for the next family: its state after the abandoned call is not trusted
    assert "one_value:" not in out and "is not called again after an abandoned call" in out and "1 not run" in out, out


def test_the_binary_differential_stops_at_the_budget_and_prints_a_pair_that_differs() -> None:
    pw = evaluators.get("PW")

    def wrong_on_long_series(t, p):  # precision halved on series of more than 64 points
        prec, rec, _ = pw(t, p)
        return (prec * 0.5 if len(t) > 64 else prec), rec

    slow = _SlowAfter(wrong_on_long_series, fast=4)
    start = time.perf_counter()
    result = run_family(lambda t, y: call_evaluator(slow, t, y), pw, "random_density", name="PW", n=20,
                        shrink_budget=BUDGET)
    wall = time.perf_counter() - start
    assert result.status == FAILED and not result.shrink_finished, result.message
    assert result.shrink_seconds <= BUDGET + BUDGET_SLACK and wall <= BUDGET + BUDGET_SLACK + 1.0, wall
    assert "budget ran out during a call" in result.message and "not called again" in result.message
    shrunk = result.shrunk.pair
    assert shrunk.length > 64 and shrunk.length <= result.found.pair.length
    fresh = lambda t, y: call_evaluator(wrong_on_long_series, t, y)  # noqa: E731
    assert disagreement(fresh, pw, shrunk, 1e-9).problem
    assert f"reproduce: {result.reproduction}" in result.message
    assert _bounded_threads_are_daemons()


def test_a_run_without_a_slow_call_still_reconfirms_its_counterexample() -> None:
    reference = evaluators.get("AUC-ROC")
    result = run_score_differential(lambda t, s: float(reference(t, s)) + 1e-3, "AUC-ROC", n=2,
                                    families=["random_scores"], shrink_budget=BUDGET)[0]
    assert result.status == FAILED and "confirmed by 5 more calls of both" in result.message
    assert "abandoned" not in result.message
    assert np.isfinite(result.shrink_seconds)


def test_an_audit_runs_no_family_after_one_abandoned_a_call(tmp_path: Path) -> None:
    from oipr_bench.auditing.calling.resolve import resolve
    from oipr_bench.auditing.options import AuditOptions
    from oipr_bench.auditing.profile.profiles import AuditSession

    module = tmp_path / "slow_pw.py"
    module.write_text("import time\nfrom oipr_bench import evaluators\n_pw = evaluators.get('PW')\ncalls = [0]\n"
                      "def f(t, p):\n    calls[0] += 1\n    if calls[0] > 4:\n        time.sleep(5)\n"
                      "    prec, rec, _ = _pw(t, p)\n    return (prec * 0.5 if len(t) > 64 else prec), rec\n")
    resolved = resolve(f"{module}:f", {})
    calls = resolved.fn.__globals__["calls"]
    options = AuditOptions(reference="PW", differential=20, shrink_budget=BUDGET, sanity=False)
    with AuditSession(resolved, options) as session:
        start = time.perf_counter()
        first = session.differential_result("random_density")
        assert time.perf_counter() - start <= BUDGET + BUDGET_SLACK + 1.0
        made = calls[0]
        later = session.differential_result("long_series")
    assert first.status == FAILED and first.shrink_abandoned and "not called again" in first.message
    assert later.status == FAILED and later.checked == 0 and later.message.startswith("not run:"), later.message
    assert "random_density abandoned a call" in later.message
    assert calls[0] == made  # the evaluator was not called for the later family
