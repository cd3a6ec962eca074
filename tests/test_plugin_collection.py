"""The plugin's items are collected by pytest's own collection.

Each test runs pytest in a subprocess from a folder holding a point-wise
evaluator that appends a line to ``calls.log`` whenever it is called, so a
test can tell whether anything of the evaluator's ran.
"""

from __future__ import annotations

import json
import textwrap

import pytest

pytest_plugins = ["pytester"]

N_SANITY = 7  # the sanity checks of oipr_bench.auditing.profile.sanity
N_ITEMS = 25 + N_SANITY + 10  # cases, sanity checks, characteristics

COUNTING_PW = textwrap.dedent(
    """
    import numpy as np

    def pw(y_true, y_pred):
        with open("calls.log", "a") as fh:
            fh.write("call\\n")
        tp = int(np.sum((y_true == 1) & (y_pred == 1)))
        p = tp / y_pred.sum() if y_pred.sum() else 0.0
        r = tp / y_true.sum() if y_true.sum() else 0.0
        return p, r
    """
)

# PW lacks five of OIPR's characteristics, so these five items fail.
PW_FAILING = [
    "oipr-bench::characteristic[existence_detection_reward]",
    "oipr-bench::characteristic[fragments_merging]",
    "oipr-bench::characteristic[addressing_ambiguous_labels]",
    "oipr-bench::characteristic[early_detection_reward]",
    "oipr-bench::characteristic[long_anomaly_misleading]",
]


@pytest.fixture
def folder(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makepyfile(mypw=COUNTING_PW)
    return pytester


@pytest.fixture(autouse=True)
def _wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "400")


def run(pytester: pytest.Pytester, *args: str, cache: bool = False) -> pytest.RunResult:
    extra = () if cache else ("-p", "no:cacheprovider")
    return pytester.runpytest_subprocess(*extra, "--evaluator=mypw:pw", *args, timeout=300)


def calls(pytester: pytest.Pytester) -> int:
    log = pytester.path / "calls.log"
    return len(log.read_text().splitlines()) if log.exists() else 0


def test_collect_only_lists_and_counts_without_running_anything(folder):
    result = run(folder, "--co", "-q")
    assert result.ret == 0
    lines = [line for line in result.stdout.lines if line.startswith("oipr-bench::")]
    assert len(lines) == N_ITEMS
    assert lines[0] == "oipr-bench::case[overlap_proportion/c1]" and lines[-1] == "oipr-bench::characteristic[random_overestimation]"
    result.stdout.re_match_lines([rf"^{N_ITEMS} tests collected in "])
    out = result.stdout.str()
    assert "oipr-bench profile" not in out and "not run" not in out
    assert calls(folder) == 0


def test_the_header_counts_the_items_as_collected(folder):
    folder.makepyfile(test_user="def test_one():\n    assert True\n")
    result = run(folder, "-k", "sanity or test_one")
    result.stdout.re_match_lines([rf"^collected {N_ITEMS + 1} items / {N_ITEMS - N_SANITY} deselected / {N_SANITY + 1} selected$"])
    result.assert_outcomes(passed=N_SANITY + 1)
    # The user's own test is collected first, the audit after it.
    verbose = run(folder, "--co", "-q")
    assert verbose.stdout.lines[0] == "test_user.py::test_one"


def test_keyword_and_marker_selection(folder):
    by_k = run(folder, "-q", "-k", "characteristic and overestimation")
    by_k.assert_outcomes(passed=2, deselected=N_ITEMS - 2)
    by_m = run(folder, "-q", "-m", "oipr_sanity")
    by_m.assert_outcomes(passed=N_SANITY, deselected=N_ITEMS - N_SANITY)
    not_cases = run(folder, "--co", "-q", "-m", "not oipr_case")
    not_cases.stdout.re_match_lines([rf"^{N_SANITY + 10}/{N_ITEMS} tests collected \(25 deselected\) in "])


def test_deselect_by_node_id(folder):
    result = run(folder, "-q", "--deselect", "oipr-bench::sanity[perfect]", "--deselect",
                 "oipr-bench::case[random_detector/c1]", "-m", "not oipr_characteristic")
    result.assert_outcomes(passed=25 + N_SANITY - 2, deselected=12)
    assert "sanity[perfect]" not in result.stdout.str().split("oipr-bench profile")[0]


def test_last_failed_reruns_only_the_failures(folder):
    first = run(folder, "-q", cache=True)
    first.assert_outcomes(failed=5, passed=N_ITEMS - 5)
    again = run(folder, "-q", "--lf", "-rf", cache=True)
    again.assert_outcomes(failed=5, deselected=N_ITEMS - 5)
    failed = sorted(line.split(" ")[1] for line in again.stdout.lines if line.startswith("FAILED "))
    assert failed == sorted(PW_FAILING)


def test_stepwise_stops_at_the_first_failure_and_resumes_there(folder):
    selection = ["-m", "oipr_sanity or oipr_characteristic"]
    first = run(folder, "-q", "--sw", *selection, cache=True)
    first.assert_outcomes(passed=N_SANITY, failed=1)
    assert f"FAILED {PW_FAILING[0]}" in first.stdout.str()
    second = run(folder, "--sw", *selection, cache=True)
    # Resumes at the failing item (still failing): the sanity items before it do not run again.
    second.assert_outcomes(failed=1, passed=0)
    second.stdout.re_match_lines([r"^stepwise: skipping \d+ already passed items"])
    assert "sanity[" not in "".join(line for line in second.stdout.lines if line.startswith("PASSED"))


def test_reordering_plugins_and_no_randomly(folder):
    # A plugin that reorders items (as pytest-randomly does) reorders the audit's items too;
    # the lazily computed results do not depend on the order.
    folder.makepyfile(reverser=textwrap.dedent("""
        def pytest_collection_modifyitems(items):
            items.reverse()
    """))
    reversed_run = run(folder, "-p", "reverser", "-v", "--oipr-report=r.json")
    ids = [line.split(" ")[0] for line in reversed_run.stdout.lines if line.startswith("oipr-bench::")]
    assert ids[0] == "oipr-bench::characteristic[random_overestimation]"
    plain = run(folder, "-p", "no:randomly", "-v", "--oipr-report=p.json")
    ids = [line.split(" ")[0] for line in plain.stdout.lines if line.startswith("oipr-bench::")]
    assert ids[0] == "oipr-bench::case[overlap_proportion/c1]"
    r, p = (json.loads((folder.path / f).read_text()) for f in ("r.json", "p.json"))
    assert r["characteristics"] == p["characteristics"] and r["sanity"] == p["sanity"]


def test_xdist_collects_the_same_items_on_every_worker(folder):
    pytest.importorskip("xdist")
    result = run(folder, "-n", "2", "--oipr-report=x.json")
    result.assert_outcomes(failed=5, passed=N_ITEMS - 5)
    result.stdout.re_match_lines([rf"^\[gw[01]\] \[.*|^2 workers \[{N_ITEMS} items\]$"])
    assert f"2 workers [{N_ITEMS} items]" in result.stdout.str()
    report = json.loads((folder.path / "x.json").read_text())
    assert len(report["cases"]) == 25 and len(report["characteristics"]) == 10
