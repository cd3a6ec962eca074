"""Differential mode: the families of generated pairs, the shrinker, the options and the three front ends."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import oipr_bench
from oipr_bench import scenarios
from oipr_bench.auditing.options import AuditOptions, OptionError
from oipr_bench.auditing.profile.results import Profile
from oipr_bench.auditing.regression.shrink import Pair, delete_points, normal, shrink
from oipr_bench.errors import UsageError
from oipr_bench.jsondata import schema_problem
from oipr_bench.testing.families import BLOCK_SIZES, boundary_lengths, family_pairs, make_pair
from oipr_bench.vocabulary import FAILED, FAMILIES, PASSED

pytest_plugins = ["pytester"]


# -- families ------------------------------------------------------------------------------------


@pytest.mark.parametrize("family", FAMILIES)
def test_a_seed_fixes_the_pairs(family: str) -> None:
    first = list(family_pairs(family, 30, seed=3))
    assert first == list(family_pairs(family, 30, seed=3))
    assert first != list(family_pairs(family, 30, seed=4))
    assert make_pair(family, 17, seed=3) == first[17]  # any pair rebuilds alone
    for p in first:
        for events in (p.y_true_events, p.y_pred_events):
            assert events == normal(events, p.length) and all(0 <= s < e <= p.length for s, e in events)


def _gaps(events: list[list[int]]) -> list[int]:
    return [b[0] - a[1] for a, b in zip(events, events[1:])]


def test_each_family_holds_what_it_is_named_for() -> None:
    pairs = {f: list(family_pairs(f, 400)) for f in FAMILIES if f != "long_series"}
    assert all(p.y_true_events == [] for p in pairs["no_anomaly"])
    assert {len(p.y_pred_events) for p in pairs["no_anomaly"]} >= {0, 1, 5}
    preds = [p.y_pred_events for p in pairs["constant_predictions"]]
    assert all(ev in ([], [[0, p.length]]) for ev, p in zip(preds, pairs["constant_predictions"]))
    assert [] in preds and any(ev for ev in preds)
    assert all(e - s == 1 for p in pairs["one_point_events"] for ev in (p.y_true_events, p.y_pred_events) for s, e in ev)
    touching = [p for p in pairs["boundary_events"] if any(ev and ev[0][0] == 0 for ev in (p.y_true_events, p.y_pred_events))
                and any(ev and ev[-1][1] == p.length for ev in (p.y_true_events, p.y_pred_events))]
    assert len(touching) > 100
    gaps = {g for p in pairs["close_events"] for g in _gaps(p.y_true_events)}
    assert {1, 2, 4, 5, 6, 19, 20, 21} <= gaps  # around delta = l_dis = 5 and l_obs = 20
    assert sum(map(len, (p.y_true_events for p in pairs["random_density"]))) > 1000


def test_k_boundary_straddles_the_threshold() -> None:
    shares = {-1: 0, 0: 0, 1: 0}
    for p in family_pairs("k_boundary", 300, scales={"k": 50}):
        for s, e in p.y_true_events:
            hits = sum(min(e, pe) - max(s, ps) for ps, pe in p.y_pred_events if ps < e and pe > s)
            shares[(100 * hits > 50 * (e - s)) - (100 * hits < 50 * (e - s))] += 1
    assert min(shares.values()) > 30, shares  # below, exactly at and above K = 50 %


def test_long_series_cross_every_block_size() -> None:
    lengths = [p.length for p in family_pairs("long_series", 40)]
    for b in BLOCK_SIZES:
        assert {b - 1, b, b + 1} <= set(lengths)
    assert max(lengths) >= 1 << 16 and min(lengths) >= 4095
    assert boundary_lengths(5000) == [4095, 4096, 4097]
    assert all(4097 <= n <= 65537 for n in lengths[len(boundary_lengths(1 << 30)):])


# -- the shrinker --------------------------------------------------------------------------------


def test_delete_points_moves_and_merges_events() -> None:
    pair = Pair(10, [[1, 3], [5, 7]], [[0, 10]])
    assert delete_points(pair, 3, 5) == Pair(8, [[1, 5]], [[0, 8]])
    assert delete_points(pair, 2, 6) == Pair(6, [[1, 3]], [[0, 6]])


def test_shrink_reaches_the_smallest_failing_pair() -> None:
    # "fails" when some true event of at least 2 points is not predicted at all
    def fails(p: Pair) -> bool:
        return any(e - s >= 2 and not any(ps < e and pe > s for ps, pe in p.y_pred_events) for s, e in p.y_true_events)

    start = Pair(60, [[3, 9], [20, 31], [40, 41]], [[3, 4], [33, 38], [50, 60]])
    out = shrink(start, fails, budget=10)
    assert out.finished and out.pair == Pair(2, [[0, 2]], []) and out.steps > 0


def test_shrink_stops_at_the_budget() -> None:
    out = shrink(Pair(50, [[3, 9]], []), lambda p: True, budget=0.0)
    assert not out.finished and out.pair == Pair(50, [[3, 9]], []) and out.tried == 0


# -- options -------------------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs, message", [
    ({"differential": 10}, "differential needs reference"),
    ({"reference": "PA", "seed": 1}, "seed needs differential"),
    ({"reference": "PA", "shrink_budget": 1.0}, "shrink_budget needs differential"),
    ({"reference": "PA", "differential": -1}, "differential must be 0 (off) or a positive number"),
    ({"reference": "PA", "differential": True}, "differential must be 0 (off) or a positive number"),
    ({"reference": "PA", "differential": 5, "seed": -2}, "seed must be a non-negative integer"),
    ({"reference": "PA", "differential": 5, "shrink_budget": math.inf}, "shrink_budget must be a non-negative number"),
])
def test_bad_differential_options(kwargs: dict, message: str) -> None:
    with pytest.raises(OptionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        AuditOptions(**kwargs)


def test_differential_off_and_defaults() -> None:
    o = AuditOptions(reference="PA", differential=0)
    assert o.differential is None and "differential" not in o.recorded()
    o = AuditOptions(reference="PA", differential=7)
    assert o.recorded() == {"timeout": None, "isolate": False, "hypothesis_examples": None, "suite": "table5", "differential": 7,
                                 "seed": 0, "shrink_budget": 30.0}


# -- front ends ----------------------------------------------------------------------------------

BUGGY = textwrap.dedent("""
    from oipr_bench.evaluators import get
    _pa = get("PA")

    def evaluate(y_true, y_pred):
        # a planted bug: the last point of the series is never predicted
        y_pred = y_pred.copy()
        y_pred[-1] = 0
        return tuple(_pa(y_true, y_pred))[:2]
""")


def test_audit_records_the_run_in_the_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "buggy_pa.py").write_text(BUGGY)
    monkeypatch.syspath_prepend(str(tmp_path))
    profile = oipr_bench.audit("buggy_pa:evaluate", reference="PA", differential=40, seed=5, sanity=False)
    res = profile.differential_results
    assert list(res) == list(FAMILIES) and not profile.ok
    bad = [r for r in res.values() if r.status == FAILED]
    assert bad and all(r.seed == 5 and r.n == 40 for r in res.values())
    shrunk = bad[0].shrunk.pair
    assert shrunk.length <= 2 and shrunk.y_pred_events and shrunk.y_pred_events[-1][1] == shrunk.length
    assert any(line.startswith(f"differential[{bad[0].family}]: ") and "reproduce: " in line for line in profile.failures())
    d = json.loads(profile.to_json())
    assert schema_problem(d, "report.schema.json") is None
    assert d["options"]["differential"] == 40 and d["options"]["seed"] == 5
    again = Profile.from_dict(d)
    assert again.differential_results == res
    assert "differential against PA (seed 5, 40 pairs per family):" in profile.format()


def test_a_builtin_passes_against_itself() -> None:
    profile = oipr_bench.audit("PA%K", reference="PA%K", differential=30, sanity=False)
    assert [r.status for r in profile.differential_results.values()] == [PASSED] * len(FAMILIES)
    assert all(r.checked == 30 for r in profile.differential_results.values())
    assert not [line for line in profile.failures() if line.startswith(("differential", "reference"))]


def test_cli_audit_differential(tmp_path: Path) -> None:
    (tmp_path / "buggy_pa.py").write_text(BUGGY)
    proc = subprocess.run([sys.executable, "-m", "oipr_bench", "audit", "buggy_pa:evaluate", "--reference", "PA",
                           "--differential", "20"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stderr
    assert "oipr-bench audit: differential[" in proc.stderr and "reproduce: from oipr_bench.scenarios.events" in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "oipr_bench", "audit", "PA", "--differential", "20"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and "--differential needs --reference" in proc.stderr


def test_plugin_differential_items(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(buggy_pa=BUGGY)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--evaluator=buggy_pa:evaluate", "--reference=PA",
                                           "--oipr-differential=20", "-k", "differential", "-rf", timeout=300)
    out = result.stdout.str()
    assert "FAILED oipr-bench::differential[boundary_events]" in out
    assert "reproduce: from oipr_bench.scenarios.events import from_events; y_true, y_pred = " in out
    counts = result.parseoutcomes()
    assert counts["failed"] >= 1 and counts["failed"] + counts.get("passed", 0) == len(FAMILIES), counts
    bad = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--evaluator=PA", "--oipr-differential=5", timeout=120)
    assert "--oipr-differential needs --reference" in bad.stderr.str()


def test_a_random_case_names_the_first_differing_run() -> None:
    case = scenarios.get("random_detector/c1")
    odd = case.predictions[7].tobytes()
    pa = oipr_bench.evaluators.get("PA")

    def evaluate(y_true, y_pred):  # differs from PA on run 8 only
        p, r, _ = pa(y_true, y_pred)
        return (p * 0.5, r) if y_pred.astype("int8").tobytes() == odd else (p, r)

    profile = oipr_bench.audit(evaluate, reference="PA", sanity=False)
    msg = profile.reference_results["random_detector/c1"].message
    assert "first differing run 8: precision" in msg, msg
    assert msg.startswith("differs from the PA reference: precision")  # the mean differs too


def test_usage_error_is_one_line_in_python() -> None:
    with pytest.raises(UsageError) as exc:
        oipr_bench.audit("PA", differential=3)
    assert str(exc.value) == "differential needs reference (the evaluator to compare with)"


def test_a_reference_that_raises_is_reported_not_a_traceback() -> None:
    from oipr_bench.auditing.regression.differential import run_family
    from oipr_bench.auditing.calling.runner import call_evaluator

    pa = oipr_bench.evaluators.get("PA")

    def reference(y_true, y_pred):
        if len(y_true) > 50:
            raise ValueError("too long for me")
        return pa(y_true, y_pred)

    res = run_family(lambda t, y: call_evaluator(pa, t, y), reference, "random_density", name="R", n=50,
                     shrink_budget=5)
    assert res.status == FAILED and "the reference raised ValueError: too long for me" in res.message
    assert res.shrunk.pair.length == 51  # shrunk to the shortest pair the reference refuses


def test_the_docs_name_the_block_sizes_and_lengths_the_family_uses() -> None:
    from oipr_bench.testing.families import LONG_RANDOM_LENGTHS

    text = (Path(__file__).resolve().parent.parent / "docs" / "regression-testing.md").read_text()
    row = next(line for line in text.splitlines() if line.startswith("| `long_series` |"))
    sizes = ", ".join(f"2^{b.bit_length() - 1}" for b in BLOCK_SIZES)
    assert f"every point-block size of the built-ins ({sizes})" in row
    assert f"log-uniform in [{LONG_RANDOM_LENGTHS[0]}, {LONG_RANDOM_LENGTHS[1]}]" in row
    assert all(b == 1 << (b.bit_length() - 1) for b in BLOCK_SIZES)
