"""Differential runs of score evaluators: the families, the shrinker, and the planted bugs.

Every planted bug of :data:`oipr_bench.testing.planted.SCORE_PLANTED` (a loop-by-loop oracle
with one line changed) is caught on some family and shrunk to a case that still differs;
the faithful copies and the built-ins agree with their references on every family.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from oipr_bench import evaluators
from oipr_bench.auditing.regression.score_differential import case_reproduction, run_score_differential
from oipr_bench.auditing.regression.score_shrink import case_size, shrink_case
from oipr_bench.testing.planted import SCORE_PLANTED, write_planted
from oipr_bench.testing.score_families import BLOCK, SCORE_FAMILIES, make_score_case, score_cases

#: The oracle copies are plain Python loops: the long series family is for fast implementations.
SHORT_FAMILIES = [f for f in SCORE_FAMILIES if f != "long_series"]


def _load(spec: str):
    path, _, name = spec.rpartition(":")
    module_spec = importlib.util.spec_from_file_location(Path(path).stem, path)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return getattr(module, name)


@pytest.mark.parametrize("family", SCORE_FAMILIES)
def test_families_hold_both_classes_and_are_derandomized(family: str) -> None:
    n = 6 if family == "long_series" else 40
    for case in score_cases(family, n, seed=3, window=10):
        y, s = case.arrays()
        assert y.any() and not y.all() and s.shape == y.shape
        assert make_score_case(family, case.index, 3, 10) == case


def test_families_aim_at_what_they_name() -> None:
    assert all(len(set(c.scores)) == 1 for c in score_cases("one_value", 20))
    assert all(len(set(c.scores)) <= 7 for c in score_cases("rank_ties", 20))
    near = [c for c in score_cases("near_ties", 20) if len(set(c.scores)) > 1]
    assert near and all(len(set(np.float32(c.scores))) == 1 for c in near)  # equal in float32
    assert any(c.y_true_events[0][0] == 0 or c.y_true_events[-1][1] == c.length for c in score_cases("boundary_events", 5))
    lengths = [c.length for c in score_cases("long_series", 3)]
    assert lengths == [BLOCK - 1, BLOCK, BLOCK + 1]
    gaps = {b[0] - a[1] + 1 for c in score_cases("window_edges", 60, window=10) for a, b in zip(c.y_true_events, c.y_true_events[1:])}
    assert {9, 10, 11, 12} <= gaps  # s_next - e_last around 2h = 10


@pytest.mark.parametrize("name", evaluators.SCORE_NAMES)
def test_builtins_agree_with_themselves_on_every_family(name: str) -> None:
    params = {} if name.startswith("AUC") else {"sliding_window": 10, "thresholds": 20}
    results = run_score_differential(evaluators.get(name, **params), name, params, n=4)
    assert [r.status for r in results] == ["passed"] * len(SCORE_FAMILIES), [r.message for r in results]


@pytest.mark.parametrize("oracle_kind", ["pr_trapezoid", "ap_trapezoid"])  # one per oracle file
def test_faithful_copies_agree(tmp_path, oracle_kind: str) -> None:
    bug = SCORE_PLANTED[oracle_kind]
    evaluate = _load(write_planted(oracle_kind, tmp_path, planted=False))
    results = run_score_differential(evaluate, bug.reference, dict(bug.reference_params), n=6, families=SHORT_FAMILIES)
    assert [r.status for r in results] == ["passed"] * len(SHORT_FAMILIES), [r.message for r in results]


@pytest.mark.parametrize("kind", sorted(SCORE_PLANTED))
def test_planted_bug_is_caught_and_shrunk(tmp_path, kind: str) -> None:
    bug = SCORE_PLANTED[kind]
    evaluate = _load(write_planted(kind, tmp_path))
    results = run_score_differential(evaluate, bug.reference, dict(bug.reference_params), n=10,
                                     families=SHORT_FAMILIES, shrink_budget=10.0)
    failed = [r for r in results if r.status == "failed"]
    assert failed, f"{kind} was not caught"
    first = failed[0]
    assert first.problem and case_size(first.shrunk) <= case_size(first.found)
    # the reproduction rebuilds the shrunk case, on which the two still differ
    scope: dict = {}
    exec(first.reproduction, scope)
    reference = evaluators.get(bug.reference, **dict(bug.reference_params))
    assert abs(evaluate(scope["y_true"], scope["scores"]) - reference(scope["y_true"], scope["scores"])) > 1e-9


def test_roc_ties_is_caught_only_where_scores_tie(tmp_path) -> None:
    evaluate = _load(write_planted("roc_ties", tmp_path))
    results = {r.family: r.status for r in run_score_differential(evaluate, "AUC-ROC", n=10, families=SHORT_FAMILIES)}
    assert results["rank_ties"] == results["one_value"] == results["plateaus"] == "failed"
    assert results["random_scores"] == "passed"  # continuous scores never tie


def test_shrinking_reaches_a_minimal_case() -> None:
    # A "bug" that shows whenever two distinct scores exist and an event is longer than one point.
    case = make_score_case("random_scores", 0)

    def fails(c) -> bool:
        return len(set(c.scores)) >= 2 and any(e - s >= 2 for s, e in c.y_true_events)

    assert fails(case)
    outcome = shrink_case(case, fails, budget=30.0)
    assert outcome.finished
    small = outcome.case
    assert len(set(small.scores)) == 2 and len(small.y_true_events) == 1 and small.length == 3
    assert all(float(v).is_integer() for v in small.scores)
    scope: dict = {}
    exec(case_reproduction(small), scope)
    assert scope["y_true"].tolist() == small.arrays()[0].tolist()


def test_bad_arguments_are_one_line_errors() -> None:
    ev = evaluators.get("AUC-ROC")
    with pytest.raises(ValueError, match="reference 'OIPR' is not a score evaluator; score evaluators are AUC-ROC"):
        run_score_differential(ev, "OIPR")
    with pytest.raises(ValueError, match="unknown score family 'nope'"):
        run_score_differential(ev, "AUC-ROC", families=["nope"])
    with pytest.raises(ValueError, match="n must be a positive number"):
        run_score_differential(ev, "AUC-ROC", n=0)


def test_a_failing_or_non_numeric_evaluator_is_a_difference() -> None:
    def broken(y_true, scores):
        raise RuntimeError("boom")

    result = run_score_differential(broken, "AUC-ROC", n=2, families=["random_scores"])[0]
    assert result.status == "failed" and "the evaluator raised RuntimeError: boom" in result.problem
    result = run_score_differential(lambda y, s: "0.5", "AUC-ROC", n=2, families=["random_scores"])[0]
    assert result.status == "failed" and "returned '0.5', not a number" in result.problem


def test_the_docs_example_runs() -> None:
    import doctest

    text = (Path(__file__).resolve().parents[1] / "docs" / "regression-testing.md").read_text(encoding="utf-8")
    section = text[text.index("## Score evaluators"):]
    block = section.split("```python\n", 1)[1].split("```", 1)[0]
    test = doctest.DocTestParser().get_doctest(block, {}, "regression-testing.md", "regression-testing.md", 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 8


def test_the_command_reports_a_planted_bug_and_exits_1(tmp_path, capsys) -> None:
    from oipr_bench.cli import main

    spec = write_planted("ap_trapezoid", tmp_path)
    assert main(["score-differential", spec, "--reference", "AUC-PR", "-n", "5", "--family", "one_value"]) == 1
    out = capsys.readouterr().out
    assert "one_value: FAILED: differs from AUC-PR on case 1 of 5 of family one_value (seed 0)" in out
    assert "reproduce: import numpy as np; from oipr_bench.scenarios.events import from_events;" in out
    assert out.rstrip().endswith("0 families agree, 1 differ")


def test_the_command_passes_a_builtin_against_itself(capsys) -> None:
    from oipr_bench.cli import main

    argv = ["score-differential", "R-AUC-PR", "--param", "sliding_window=6", "--reference", "R-AUC-PR",
            "--reference-param", "sliding_window=6", "-n", "3"]
    assert main(argv) == 0
    assert f"{len(SCORE_FAMILIES)} families agree, 0 differ" in capsys.readouterr().out


@pytest.mark.parametrize("argv, text", [
    (["VUS-PR", "--reference", "OIPR"], "reference 'OIPR' is not a score evaluator"),
    (["VUS-PR", "--param", "window=3", "--reference", "VUS-PR"], "VUS-PR: unknown parameter(s) window"),
    (["VUS-PR", "--reference", "VUS-PR", "--family", "nope"], "unknown score family 'nope'"),
    (["VUS-PR", "--reference", "VUS-PR", "-n", "0"], "n must be a positive number of cases per family"),
    (["VUS-PR", "--reference", "VUS-PR", "-n", "1000000000"], "-n must be at most 100000 cases per family, got 1000000000"),
    (["VUS-PR", "--reference", "VUS-PR", "--tolerance", "inf"], "--tolerance must be a finite non-negative number, got inf"),
    (["VUS-PR", "--reference", "VUS-PR", "--tolerance", "nan"], "--tolerance must be a finite non-negative number, got nan"),
    (["VUS-PR", "--reference", "VUS-PR", "--family", "one_value", "--family", "one_value"],
     "--family one_value given twice: each family runs once"),
])
def test_the_command_usage_errors_are_one_line(argv, text, capsys) -> None:
    from oipr_bench.cli import main

    assert main(["score-differential", *argv]) == 2
    err = capsys.readouterr().err
    assert text in err and len(err.strip().splitlines()) == 1


def _user_module(tmp_path, body: str) -> str:
    (tmp_path / "sevs.py").write_text("import os, time\nimport numpy as np\n" + body, encoding="utf-8")
    return str(tmp_path / "sevs.py")


def test_the_command_names_an_evaluator_that_calls_exit(tmp_path, capsys) -> None:
    from oipr_bench.cli import main

    path = _user_module(tmp_path, "def sysexit(t, s):\n    raise SystemExit(0)\n")
    code = main(["score-differential", f"{path}:sysexit", "--reference", "AUC-ROC", "-n", "2", "--family", "one_value"])
    out = capsys.readouterr().out
    assert code == 1
    assert "one_value: FAILED: the evaluator raised SystemExit (called exit(0)) on case 1 of 2 of family one_value" in out


def test_the_command_names_an_evaluator_that_mutates_its_input(tmp_path, capsys) -> None:
    from oipr_bench.cli import main

    path = _user_module(tmp_path, "from oipr_bench.evaluators import get\n_v = get('AUC-ROC')\n"
                                  "def mut(t, s):\n    v = float(_v(t, s))\n    s[:] = 0\n    return v\n")
    code = main(["score-differential", f"{path}:mut", "--reference", "AUC-ROC", "-n", "2", "--family", "random_scores"])
    out = capsys.readouterr().out
    assert code == 1 and "the evaluator mutated its input y_pred" in out


def test_the_command_ends_a_call_after_its_timeout(tmp_path, capsys) -> None:
    from oipr_bench.cli import main

    path = _user_module(tmp_path, "def slow(t, s):\n    time.sleep(30)\n    return 0.5\n")
    start = __import__("time").perf_counter()
    code = main(["score-differential", f"{path}:slow", "--reference", "AUC-ROC", "-n", "1", "--family", "one_value",
                 "--timeout", "0.5", "--shrink-budget", "2"])
    out = capsys.readouterr().out
    assert code == 1 and "the evaluator timed out after 0.5 s" in out
    assert __import__("time").perf_counter() - start < 20


def test_a_non_deterministic_evaluator_is_named_not_shrunk(capsys) -> None:
    # differs on 30 % of calls: the first difference is found, but it does not come back on every new call
    rng = np.random.default_rng(7)
    reference = evaluators.get("AUC-ROC")

    def nondet(y_true, scores):
        return float(reference(y_true, scores)) + (1e-3 if rng.random() < 0.3 else 0.0)

    result = run_score_differential(nondet, "AUC-ROC", n=20, families=["random_scores"])[0]
    assert result.status == "failed"
    assert "not deterministic" in result.message and "no counterexample" in result.message
    assert "reproduce (not reliably):" in result.message and "shrunk in" not in result.message


def test_a_deterministic_difference_is_confirmed_before_it_is_printed() -> None:
    reference = evaluators.get("AUC-ROC")
    result = run_score_differential(lambda t, s: float(reference(t, s)) + 1e-3, "AUC-ROC", n=2,
                                    families=["random_scores"])[0]
    assert result.status == "failed" and "confirmed by 5 more calls of both" in result.message


def test_a_threshold_grid_one_short_is_caught_by_every_family_that_can_show_it_and_shrinks_small() -> None:
    # 249 sampled thresholds instead of 250: the curves differ only on series longer than the grid,
    # which every fourth case of each family is; a family of at most 6 distinct values samples them all either way.
    mine = evaluators.get("VUS-PR", thresholds=249, sliding_window=10)
    results = run_score_differential(mine, "VUS-PR", {"sliding_window": 10}, n=8, families=SHORT_FAMILIES)
    caught = {r.family for r in results if r.status == "failed"}
    assert caught == {"random_scores", "plateaus", "boundary_events", "window_edges"}
    assert {r.family for r in results if r.status == "passed"} == {"rank_ties", "near_ties", "one_value"}
    for r in results:
        if r.status == "failed":
            assert r.checked == 4 and r.found.length > 250  # the first case longer than the grid
            small = r.shrunk
            assert r.shrink_finished and 250 < small.length <= 500, (r.family, small.length)
            assert len(small.y_true_events) == 1 and len(set(small.scores)) <= 3, (r.family, small.y_true_events)


def test_the_command_stops_at_the_first_family_that_differs_with_x(tmp_path, capsys) -> None:
    from oipr_bench.cli import main

    spec = write_planted("roc_ties", tmp_path)
    code = main(["score-differential", spec, "--reference", "AUC-ROC", "-n", "5", "-x",
                 "--family", "random_scores", "--family", "rank_ties", "--family", "one_value"])
    out = capsys.readouterr().out
    assert code == 1
    assert "random_scores: passed" in out and "rank_ties: FAILED" in out and "one_value" not in out.split("\n", 2)[2]
    assert out.rstrip().endswith("1 families agree, 1 differ; stopped at the first that differs (-x): 1 not run")
