"""Differential runs with the NAB score as the reference: one number against one number on generated 0/1 pairs.

``reference="NAB"`` compares the evaluator's one number with ``evaluators.get("NAB", ...)`` on the
binary families (:mod:`oipr_bench.testing.families`), within the tolerance up to magnitude 1 and
relative beyond; a series without a window is NaN on both sides. Copies of NAB's loop-by-loop
oracle with one planted bug (:data:`oipr_bench.testing.planted.NUMBER_PLANTED`) are caught and
shrunk to two points; the faithful copy passes every family.
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from oipr_bench import evaluators
from oipr_bench.auditing.calling.resolve import resolve
from oipr_bench.auditing.calling.runner import CallOutcome
from oipr_bench.auditing.options import AuditOptions, OptionError
from oipr_bench.auditing.profile.profiles import AuditSession
from oipr_bench.auditing.regression.differential import (DifferentialResult, compare, one_number_tolerance,
                                                         run_family)
from oipr_bench.auditing.table5.readings import KIND_SCORE
from oipr_bench.evaluators.score import Score
from oipr_bench.testing.families import family_pairs, series_of
from oipr_bench.testing.planted import NUMBER_PLANTED, write_planted
from oipr_bench.vocabulary import FAILED, FAMILIES, OK, PASSED

pytest_plugins = ["pytester"]

NAB_BOUNDS = (None, 100)  # a copy of NAB declares NAB's range, as the built-in does


def session(spec: str, n: int, **kw: object) -> AuditSession:
    return AuditSession(resolve(spec, {}), AuditOptions(reference="NAB", differential=n, sanity=False,
                                                        bounds=NAB_BOUNDS, **kw))


def test_the_faithful_copy_of_the_oracle_passes_every_family(tmp_path: Path) -> None:
    spec = write_planted("last_detection", tmp_path, planted=False)
    with session(spec, 200) as s:
        results = {f: s.differential_result(f) for f in FAMILIES}
    assert {f: r.status for f, r in results.items()} == {f: PASSED for f in FAMILIES}, \
        {f: r.message for f, r in results.items() if r.status != PASSED}
    assert all(r.checked == 200 for r in results.values())


@pytest.mark.parametrize("kind, pair", [
    # a window [0, 2) detected on both rows: the last detection (row 1) is worth less than the first
    ("last_detection", (2, [[0, 2]], [[0, 2]])),
    # a false positive on row 0 before the only window [1, 2): -0.11 turned into +0.11
    ("fp_sign", (2, [[1, 2]], [[0, 1]])),
])
def test_a_planted_nab_bug_is_caught_and_shrunk_to_two_points(tmp_path: Path, kind: str, pair: tuple) -> None:
    spec = write_planted(kind, tmp_path)
    with session(spec, 200) as s:
        res = s.differential_result("random_density")
    assert res.status == FAILED and res.shrink_finished, res.message
    shrunk = res.shrunk.pair
    assert (shrunk.length, shrunk.y_true_events, shrunk.y_pred_events) == pair
    # the reproduction rebuilds a pair on which the copy and the built-in differ
    namespace: dict = {}
    exec(res.reproduction, namespace)
    mine = resolve(spec, {}).fn(namespace["y_true"], namespace["y_pred"])
    ref = evaluators.get("NAB")(namespace["y_true"], namespace["y_pred"])
    assert abs(mine - ref) > 1.0, (mine, ref)
    # the message shows the two numbers, not a (P, R, F1) triple
    assert f"NAB {ref:.10g}; score {mine:.10g} vs {ref:.10g}" in res.message
    assert "(nan, nan" not in res.message
    # and survives the report's round trip
    again = DifferentialResult.from_dict(res.to_dict())
    assert again.shrunk.one_number and again.shrunk.lines("NAB") == res.shrunk.lines("NAB")


def test_the_last_detection_bug_shrinks_to_the_values_of_the_sigmoid(tmp_path: Path) -> None:
    # window [0, 2), detections on both rows: the first is worth 1, the last sigma(-1/2) / sigma(-1)
    spec = write_planted("last_detection", tmp_path)
    with session(spec, 50) as s:
        res = s.differential_result("close_events")
    sigma = lambda x: 2 / (1 + math.exp(5 * x)) - 1  # noqa: E731
    last = sigma(-0.5) / sigma(-1.0)
    normalised = 100 * (last + 1) / 2  # null -1, perfect 1
    assert res.shrunk.mine.f1 == pytest.approx(normalised, abs=1e-12)
    assert res.shrunk.reference.f1 == 100.0


def test_every_number_planted_bug_is_tested() -> None:
    assert set(NUMBER_PLANTED) == {"last_detection", "fp_sign"}


def test_a_series_without_a_window_is_nan_on_both_sides_and_agrees() -> None:
    ref = evaluators.get("NAB")
    nab = lambda t, p: CallOutcome(OK, Score(math.nan, math.nan, ref(t, p)), result_kind=KIND_SCORE)  # noqa: E731
    res = run_family(nab, ref, "no_anomaly", name="NAB", n=50)
    assert res.status == PASSED
    assert all(math.isnan(ref(*pair.arrays())) for pair in family_pairs("no_anomaly", 50))


def test_a_number_where_nab_has_none_is_a_difference() -> None:
    # an evaluator scoring a series without a window 0 instead of NaN
    ref = evaluators.get("NAB")

    def zero_without_window(t: np.ndarray, p: np.ndarray) -> CallOutcome:
        v = ref(t, p)
        return CallOutcome(OK, Score(math.nan, math.nan, 0.0 if math.isnan(v) else v), result_kind=KIND_SCORE)

    res = run_family(zero_without_window, ref, "no_anomaly", name="NAB", n=20)
    assert res.status == FAILED
    assert res.shrunk.pair.y_true_events == [] and res.shrunk.pair.length == 1
    assert "score 0.0 vs nan" in res.message


def test_the_tolerance_is_relative_beyond_magnitude_one() -> None:
    assert one_number_tolerance(0.5, 1e-9) == 1e-9
    assert one_number_tolerance(-21406.0, 1e-9) == pytest.approx(2.1406e-5)
    assert one_number_tolerance(math.nan, 1e-9) == 1e-9
    big = Score(math.nan, math.nan, -21406.0)
    close = CallOutcome(OK, Score(math.nan, math.nan, -21406.0 + 1e-9), result_kind=KIND_SCORE)
    far = CallOutcome(OK, Score(math.nan, math.nan, -21406.0 + 1e-4), result_kind=KIND_SCORE)
    assert compare(close, big, 1e-9, one_number=True) == ""
    assert compare(far, big, 1e-9, one_number=True).startswith("score -21405.9999 vs -21406")
    # a P/R reference keeps its absolute tolerance
    assert compare(close, big, 1e-9) != ""


def test_summation_order_alone_moves_nab_by_more_than_an_absolute_1e9() -> None:
    """Why the tolerance is relative: a loop and NumPy add the same 1,946 weights to values 1e-9 apart."""
    from oipr_bench.evaluators.oracles.nab import nab_oracle

    y_true, y_pred = series_of([[0, 1]], 2289), series_of([[343, 2289]], 2289)
    loop, vectorised = nab_oracle(y_true.tolist(), y_pred.tolist()), evaluators.get("NAB")(y_true, y_pred)
    assert loop == pytest.approx(-21406.0, abs=1e-6) and vectorised == pytest.approx(-21406.0, abs=1e-6)
    assert 0 < abs(loop - vectorised) <= one_number_tolerance(vectorised, 1e-9)


def _cli(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "oipr_bench", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=600)


def test_a_pr_evaluator_against_nab_is_refused_in_one_line(tmp_path: Path) -> None:
    write_planted("event_end", tmp_path, planted=False)  # returns (P, R)
    proc = _cli(tmp_path, "audit", "my_pointwise_event_end.py:evaluate", "--reference", "NAB", "--suite", "properties")
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert ("--reference NAB returns one number, but my_pointwise_event_end.py:evaluate returns precision and recall"
            in lines[0])


def test_a_score_evaluator_against_nab_is_refused_in_one_line(tmp_path: Path) -> None:
    proc = _cli(tmp_path, "audit", "AUC-ROC", "--reference", "NAB")
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert "--reference NAB takes 0/1 predictions, but AUC-ROC takes scores" in lines[0]


def test_nab_against_the_paper_is_refused() -> None:
    with pytest.raises(OptionError, match="NAB has no row in Table A1"):
        AuditOptions(reference="NAB", against="paper")


def test_the_cli_runs_nab_against_itself(tmp_path: Path) -> None:
    proc = _cli(tmp_path, "audit", "NAB", "--reference", "NAB", "--differential", "20")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "differential against NAB (seed 0, 20 pairs per family):" in proc.stdout
    assert all(f"  {family}: ok (20 pairs," in proc.stdout for family in FAMILIES)
    assert "reference NAB (against reference): 25 of 25 cases match" in proc.stdout


def test_the_plugin_runs_nab_against_itself(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--evaluator=NAB", "--reference=NAB",
                                           "--oipr-differential=200", timeout=600)
    assert result.ret == 0, result.stdout.str()[-3000:]
    out = result.stdout.str()
    for family in FAMILIES:
        assert f"  {family}: ok (200 pairs," in out, family


def test_the_plugin_catches_a_planted_nab_bug(pytester: pytest.Pytester) -> None:
    spec = write_planted("last_detection", pytester.path)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", f"--evaluator={Path(spec).name}",
                                           "--oipr-bounds=:100", "--reference=NAB", "--oipr-differential=50",
                                           "-k", "differential and not long_series and not many_events", "-rf",
                                           timeout=600)
    out = result.stdout.str()
    assert "FAILED oipr-bench::differential[random_density]" in out, out[-3000:]
    assert ("reproduce: from oipr_bench.scenarios.events import from_events; y_true, y_pred = "
            "from_events([[0, 2]], 2), from_events([[0, 2]], 2)") in out


def test_a_report_with_a_nab_counterexample_follows_the_schema(tmp_path: Path) -> None:
    import json

    import oipr_bench
    from oipr_bench.jsondata import schema_problem

    spec = write_planted("fp_sign", tmp_path)
    profile = oipr_bench.audit(spec, reference="NAB", differential=20, bounds=NAB_BOUNDS, sanity=False)
    d = json.loads(profile.to_json())
    assert schema_problem(d, "report.schema.json") is None
    failed = [r for r in d["differential"] if r["status"] == FAILED]
    assert failed and failed[0]["shrunk"]["one_number"] is True
    assert failed[0]["shrunk"]["reference"][:2] == [None, None]


def test_verify_reproduces_a_report_with_a_nab_counterexample(tmp_path: Path) -> None:
    write_planted("fp_sign", tmp_path)
    report = tmp_path / "report.json"
    audit = _cli(tmp_path, "audit", "my_nab_fp_sign.py:evaluate", "--bounds", ":100", "--reference", "NAB",
                 "--differential", "10", "--format", "json", "-o", str(report))
    assert audit.returncode == 1, audit.stderr[-2000:]  # the planted bug: differential items fail
    proc = _cli(tmp_path, "verify", str(report))
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "reproduced: all" in proc.stdout and "11 differential families" in proc.stdout
