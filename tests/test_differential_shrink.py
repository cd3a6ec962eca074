"""The shrinker merges events, shortens two gaps together, and re-confirms its pair.

The planted bugs of :mod:`oipr_bench.testing.planted` must shrink to at most a few points more
than the smallest pair that shows them (the smallest sizes are derived in each test), and a
non-deterministic evaluator never gets a "counterexample" on which both sides agree (finding M8).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from oipr_bench import evaluators
from oipr_bench.auditing.calling.resolve import resolve
from oipr_bench.auditing.calling.runner import call_evaluator
from oipr_bench.auditing.regression.differential import RECONFIRM, disagreement, run_family
from oipr_bench.auditing.regression.shrink import Pair, candidates, delete_spans, shrink
from oipr_bench.testing.planted import write_planted
from oipr_bench.vocabulary import FAILED


def _planted(tmp_path: Path, kind: str):
    return resolve(write_planted(kind, tmp_path), {}).fn


def _fails_against(fn, reference: str):
    ref = evaluators.get(reference)
    call = lambda t, y: call_evaluator(fn, t, y)  # noqa: E731
    return lambda p: bool(disagreement(call, ref, p, 1e-9).problem)


def test_two_stretches_shrink_together() -> None:
    pair = Pair(20, [[0, 10]], [[0, 5]])
    assert delete_spans(pair, [(4, 5), (9, 10)]) == Pair(18, [[0, 8]], [[0, 4]])
    # 5 of 10 hits stays one half only when a hit and a miss go together
    half = lambda p: len(p.y_true_events) == 1 and 2 * sum(e - s for s, e in p.y_pred_events) == sum(  # noqa: E731
        e - s for s, e in p.y_true_events) and p.y_pred_events[0][0] == p.y_true_events[0][0]
    out = shrink(pair, half, budget=10)
    assert out.finished and out.pair == Pair(2, [[0, 2]], [[0, 1]]), out.pair


def test_pieces_merge_into_one_block() -> None:
    # 31 one-point pieces; what fails is "at least 26 predicted points inside the true event"
    pair = Pair(70, [[5, 65]], [[6 + 2 * i, 7 + 2 * i] for i in range(31)])

    def fails(p: Pair) -> bool:
        (s, e), = p.y_true_events or [[0, 0]]
        return sum(max(0, min(e, pe) - max(s, ps)) for ps, pe in p.y_pred_events) >= 26

    out = shrink(pair, fails, budget=20)
    assert out.finished and out.pair == Pair(26, [[0, 26]], [[0, 26]]), out.pair
    assert Pair(70, [[5, 65]], [[6, 37]]) in [c for _, c in candidates(pair)]  # all 31 pieces packed in one move


def test_k_inclusive_shrinks_to_two_points(tmp_path: Path) -> None:
    # smallest: an event of 2 points with 1 hit (exactly 50 %): length 2
    fails = _fails_against(_planted(tmp_path, "k_inclusive"), "PA%K")
    start = Pair(60, [[3, 27], [40, 52]], [[3, 9], [15, 21], [46, 50]])  # 12 of 24 hits: the 12-point stall
    assert fails(start)
    out = shrink(start, fails, budget=20)
    assert out.finished and out.pair.length == 2 and out.pair.size() <= 8, out.pair


def test_integer_percent_shrinks_to_the_shortest_event(tmp_path: Path) -> None:
    # 100 * h // n > 50 misses 50 < 100 h / n < 51: the shortest such event is n = 51, h = 26
    assert min(n for n in range(1, 200) for h in range(n + 1) if 50 * n < 100 * h < 51 * n) == 51
    fails = _fails_against(_planted(tmp_path, "integer_percent"), "PA%K")
    hits = sorted(np.random.default_rng(4).choice(201, size=101, replace=False).tolist())
    start = Pair(210, [[4, 205]], [[4 + h, 5 + h] for h in hits])  # 101 of 201 scattered hits
    assert fails(start) and len(start.y_pred_events) > 30
    out = shrink(start, fails, budget=30)
    assert out.pair.length <= 51 + 3 and len(out.pair.y_pred_events) == 1, out.pair


def test_zone_crossing_needs_two_gaps_to_shrink_together(tmp_path: Path) -> None:
    # a prediction crossing the midpoint between two true events; smallest: length 3
    fails = _fails_against(_planted(tmp_path, "zone_crossing"), "AM")
    start = Pair(969, [[0, 1], [968, 969]], [[480, 489]])  # midpoint 484.5 crossed close to its centre
    assert fails(start)
    out = shrink(start, fails, budget=30)
    assert out.finished and out.pair.length <= 3 + 2, out.pair


class _EverySeventh:
    """PW, except that every 7th call halves the precision (finding M8)."""

    def __init__(self) -> None:
        self.calls = 0
        self.pw = evaluators.get("PW")

    def __call__(self, y_true, y_pred):
        self.calls += 1
        p, r, _ = self.pw(y_true, y_pred)
        return (p * 0.5 if self.calls % 7 == 0 else p), r


def test_a_flaky_evaluator_gets_no_agreeing_counterexample() -> None:
    flaky = _EverySeventh()
    res = run_family(lambda t, y: call_evaluator(flaky, t, y), evaluators.get("PW"), "random_density", name="PW",
                     n=50, shrink_budget=5)
    assert res.status == FAILED
    assert "did not reproduce" in res.message.splitlines()[0], res.message
    assert f"0 of {RECONFIRM}" in res.message or f"1 of {RECONFIRM}" in res.message, res.message
    # no line shows an agreeing pair as the shrunk counterexample
    assert "shrunk in" not in res.message or "to:" not in res.message, res.message
    assert res.shrunk is not None and res.shrunk.pair == res.found.pair


def test_a_deterministic_counterexample_is_confirmed(tmp_path: Path) -> None:
    fn = _planted(tmp_path, "k_inclusive")
    res = run_family(lambda t, y: call_evaluator(fn, t, y), evaluators.get("PA%K"), "percent_boundary", name="PA%K",
                     n=50, shrink_budget=10)
    assert res.status == FAILED and f"confirmed by {RECONFIRM} more calls of both" in res.message, res.message
    assert res.shrunk.problem and not math.isnan(res.shrunk.reference.f1)


def test_the_shrink_budget_bounds_wall_time_even_when_one_call_is_slow():
    # each call costs time in proportion to the series: a candidate that cannot finish within the
    # budget is not started (it used to be, and one slow candidate overran a 30 s budget six times)
    import time

    from oipr_bench.auditing.regression.shrink import Pair, shrink

    pair = Pair(200_000, [[10, 20], [100_000, 100_010], [150_000, 150_005]], [[10, 20], [150_000, 150_001]])

    def fails(p):
        time.sleep(p.length * 1e-5)  # 2 s for the whole pair, 1 s for a half
        return True

    start = time.perf_counter()
    outcome = shrink(pair, fails, budget=0.5, seconds_per_point=1e-5)
    elapsed = time.perf_counter() - start
    assert not outcome.finished and elapsed < 0.9, elapsed
