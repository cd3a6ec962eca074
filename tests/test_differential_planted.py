"""Planted bugs in copies of a built-in, written in a user's folder, caught by a differential run.

Each test writes a copy of one of the loop-by-loop transcriptions of a built-in
with one planted bug (:mod:`oipr_bench.testing.planted`) into ``tmp_path`` and audits the copy with ``reference=NAME, differential=N``.  The run
must fail with a counterexample of at most a few dozen points (the shortest
length that shows it, for the long-series bug) within 60 s, and its
reproduction line must rebuild a pair on which the copy and the reference differ.
"""

from __future__ import annotations

import math
import time
from pathlib import Path

import pytest

from oipr_bench import evaluators
from oipr_bench.auditing.options import AuditOptions
from oipr_bench.auditing.profile.profiles import AuditSession
from oipr_bench.auditing.calling.resolve import resolve
from oipr_bench.testing.planted import PLANTED, write_planted
from oipr_bench.vocabulary import FAILED, FAMILIES, PASSED

N = 200  # pairs per family: the bugs below are caught long before


def plant(tmp_path: Path, kind: str, planted: bool = True) -> str:
    return write_planted(kind, tmp_path, planted=planted)


def first_failure(spec: str, reference: str) -> tuple[object, float]:
    """Run the families in order until one fails; return its result and the seconds taken."""
    start = time.perf_counter()
    with AuditSession(resolve(spec, {}), AuditOptions(reference=reference, differential=N, sanity=False)) as session:
        for family in FAMILIES:
            res = session.differential_result(family)
            if res.status == FAILED:
                return res, time.perf_counter() - start
    raise AssertionError(f"no family caught the bug planted in {spec}")


def check_reproduction(spec: str, reference: str, res: object) -> dict:
    """The reproduction line rebuilds a pair on which the copy and the reference differ."""
    namespace: dict = {}
    exec(res.reproduction, namespace)  # type: ignore[attr-defined]
    y_true, y_pred = namespace["y_true"], namespace["y_pred"]
    mine = resolve(spec, {}).fn(y_true, y_pred)
    ref = evaluators.get(reference)(y_true, y_pred)
    assert any(not math.isclose(a, b, abs_tol=1e-9) for a, b in zip(mine, ref[:2])), (mine, ref)
    return namespace


def test_off_by_one_at_an_event_end(tmp_path: Path) -> None:
    # PA counts the hits of an event without its last point.
    spec = plant(tmp_path, "event_end")
    res, seconds = first_failure(spec, "PA")
    shrunk = res.shrunk.pair
    assert seconds < 60 and res.shrink_finished
    assert shrunk.length <= 3 and shrunk.size() <= 8, shrunk
    # the only hit sits on the last point of a true event
    (s, e), = shrunk.y_true_events
    assert [e - 1, e] in shrunk.y_pred_events
    check_reproduction(spec, "PA", res)
    assert "reproduce: from oipr_bench.scenarios.events import from_events; y_true, y_pred = " in res.message


def test_a_bug_only_on_series_longer_than_4096_points(tmp_path: Path) -> None:
    # OIPR sums the interest curves over a fixed buffer of 4096 + l_obs points.
    spec = plant(tmp_path, "long_series")
    res, seconds = first_failure(spec, "OIPR")
    assert res.family == "long_series" and seconds < 60
    assert res.shrunk.pair.length == 4097  # the shortest length that shows it
    assert len(res.shrunk.pair.y_true_events) + len(res.shrunk.pair.y_pred_events) <= 2
    check_reproduction(spec, "OIPR", res)


def test_a_bug_only_when_two_events_are_closer_than_delta(tmp_path: Path) -> None:
    # TaPR's ambiguous region is not cut at the next anomaly.
    spec = plant(tmp_path, "close_events")
    res, seconds = first_failure(spec, "TaPR")
    shrunk = res.shrunk.pair
    assert seconds < 60 and shrunk.length <= 36, shrunk
    gaps = [b[0] - a[1] for a, b in zip(shrunk.y_true_events, shrunk.y_true_events[1:])]
    assert gaps and min(gaps) < 5  # two true events closer than delta = 5
    check_reproduction(spec, "TaPR", res)


def test_a_bug_only_when_an_event_touches_the_last_index(tmp_path: Path) -> None:
    # RP/RR forgets the run of 1s still open at the end of the series.
    spec = plant(tmp_path, "series_end")
    res, seconds = first_failure(spec, "RP/RR")
    shrunk = res.shrunk.pair
    assert seconds < 60 and shrunk.length <= 3, shrunk
    ends = [e for ev in (shrunk.y_true_events, shrunk.y_pred_events) for _, e in ev]
    assert shrunk.length in ends
    check_reproduction(spec, "RP/RR", res)


def test_a_bug_only_on_a_series_with_no_anomaly(tmp_path: Path) -> None:
    # RP/RR's recall is 1 instead of 0 when there is no real range.
    spec = plant(tmp_path, "no_anomaly")
    res, seconds = first_failure(spec, "RP/RR")
    shrunk = res.shrunk.pair
    assert seconds < 60 and shrunk.length == 1 and shrunk.y_true_events == [], shrunk
    check_reproduction(spec, "RP/RR", res)


def test_the_correct_copy_passes(tmp_path: Path) -> None:
    """Without a planted bug the same copy agrees with the built-in (so the tests above can fail).

    ``long_series`` is left out here (the loop copy takes seconds on its 2^21-point pairs), and
    ``cardinality`` and ``many_events`` (the loop copy of RP/RR takes time in the square of their
    hundreds to tens of thousands of events);
    tests/test_differential_builtins.py runs every family against the oracles.
    """
    spec = plant(tmp_path, "no_anomaly", planted=False)
    with AuditSession(resolve(spec, {}), AuditOptions(reference="RP/RR", differential=100, sanity=False)) as session:
        short = [f for f in FAMILIES if f not in ("long_series", "cardinality", "many_events")]
        assert [session.differential_result(f).status for f in short] == [PASSED] * len(short)


@pytest.mark.parametrize("budget", [0.0])
def test_a_spent_budget_reports_what_it_reached(tmp_path: Path, budget: float) -> None:
    spec = plant(tmp_path, "long_series")
    options = AuditOptions(reference="OIPR", differential=5, shrink_budget=budget, sanity=False)
    with AuditSession(resolve(spec, {}), options) as session:
        res = session.differential_result("long_series")
    assert res.status == FAILED and not res.shrink_finished
    assert res.shrunk.pair == res.found.pair  # nothing tried: the pair as generated
    assert "budget ran out" in res.message


def family_failure(spec: str, reference: str, family: str, n: int = 1000, seed: int = 0) -> object:
    """The result of one family at ``n`` pairs and ``seed``; it must have failed."""
    with AuditSession(resolve(spec, {}), AuditOptions(reference=reference, differential=n, seed=seed,
                                                      sanity=False)) as session:
        res = session.differential_result(family)
    assert res.status == FAILED, res.message
    return res


def test_an_overlap_count_that_wraps_at_256(tmp_path: Path) -> None:
    # RP/RR counts the ranges overlapping one range in 8 bits: the cardinality family reaches it at
    # N = 1000, seed 0 (no other family puts more than 50 true events under one prediction).
    spec = plant(tmp_path, "cardinality")
    res = family_failure(spec, "RP/RR", "cardinality")
    assert res.index is not None and res.index < 10 and len(res.found.pair.y_true_events) == 256
    shrunk = res.shrunk.pair
    # smallest: 256 one-point true events one point apart under one prediction: 511 points
    assert len(shrunk.y_true_events) == 256 and len(shrunk.y_pred_events) == 1
    assert 511 <= shrunk.length <= 511 + 8, shrunk.length
    check_reproduction(spec, "RP/RR", res)


def test_an_integer_percent_pak(tmp_path: Path) -> None:
    # PA%K computing 100 * hits // n > K: caught by percent_boundary at N = 1000, seed 0 (before that family, only by luck).
    spec = plant(tmp_path, "integer_percent")
    res = family_failure(spec, "PA%K", "percent_boundary")
    shrunk = res.shrunk.pair
    # smallest: an event of 51 points with 26 hits (50 < 100 * 26 / 51 < 51)
    assert shrunk.y_true_events == [[0, 51]] and shrunk.length <= 51 + 3, shrunk
    assert sum(e - s for s, e in shrunk.y_pred_events) == 26 and len(shrunk.y_pred_events) == 1
    check_reproduction(spec, "PA%K", res)


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_the_integer_percent_pak_is_caught_whatever_the_seed(tmp_path: Path, seed: int) -> None:
    res = family_failure(plant(tmp_path, "integer_percent"), "PA%K", "percent_boundary", seed=seed)
    assert res.index is not None and res.index < 100


def test_k_inclusive_shrinks_to_two_points(tmp_path: Path) -> None:
    spec = plant(tmp_path, "k_inclusive")
    res = family_failure(spec, "PA%K", "k_boundary")
    assert res.shrunk.pair.length == 2 and res.shrunk.pair.y_true_events == [[0, 2]], res.shrunk.pair
    check_reproduction(spec, "PA%K", res)


def test_a_zone_crossing_bug_shrinks_to_three_points(tmp_path: Path) -> None:
    spec = plant(tmp_path, "zone_crossing")
    res, seconds = first_failure(spec, "AM")
    shrunk = res.shrunk.pair
    # smallest: true [[0, 1], [2, 3]] and a prediction on point 1, across the midpoint 1.5
    assert seconds < 60 and shrunk.length == 3 and len(shrunk.y_true_events) == 2, shrunk
    check_reproduction(spec, "AM", res)


def test_every_planted_bug_is_tested_and_none_overwrites(tmp_path: Path) -> None:
    assert set(PLANTED) == {"event_end", "long_series", "close_events", "series_end", "no_anomaly", "cardinality",
                            "integer_percent", "k_inclusive", "zone_crossing"}
    write_planted("event_end", tmp_path)
    with pytest.raises(ValueError, match="exists already; write the copy into another folder"):
        write_planted("event_end", tmp_path)
