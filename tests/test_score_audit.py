"""The audit front ends with a score reference: ``--input scores --reference VUS-PR --differential N``.

A score evaluator audited with a built-in score evaluator as its reference runs the score
families (:mod:`oipr_bench.testing.score_families`) through
:func:`oipr_bench.auditing.regression.score_differential.run_score_family`: one
``differential[<family>]`` item per family in all three front ends, stored in the report
(schema-valid) and reproduced by ``verify``.  A precision/recall evaluator with a score
reference, and a score evaluator with a precision/recall reference, are refused in one line.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import oipr_bench
from oipr_bench import evaluators
from oipr_bench.auditing.calling.resolve import resolve
from oipr_bench.auditing.options import AuditOptions, OptionError
from oipr_bench.auditing.profile.profiles import AuditSession
from oipr_bench.auditing.regression.differential import DifferentialResult
from oipr_bench.auditing.profile.results import Profile
from oipr_bench.errors import UsageError
from oipr_bench.jsondata import schema_problem
from oipr_bench.testing.planted import SCORE_PLANTED, write_planted
from oipr_bench.testing.score_families import SCORE_FAMILIES
from oipr_bench.vocabulary import FAILED, PASSED

pytest_plugins = ["pytester"]

#: A user's AUC-ROC written without scikit-learn: the Mann-Whitney statistic from average ranks (a tie
#: between an anomalous and a normal point is half a win).  ``TIE_RANK = "min"`` plants a bug: ties lose.
OWN_AUC = textwrap.dedent("""
    import numpy as np

    TIE_RANK = "average"

    def auc(y_true, scores):
        y = np.asarray(y_true) == 1
        s = np.asarray(scores, dtype=float)
        n_pos, n_neg = int(y.sum()), int((~y).sum())
        if n_pos == 0 or n_neg == 0:
            raise ValueError("AUC-ROC needs both classes")
        values, inverse, counts = np.unique(s, return_inverse=True, return_counts=True)
        first = np.cumsum(counts) - counts + 1  # the lowest rank of each distinct value
        rank = first + (counts - 1) / 2 if TIE_RANK == "average" else first.astype(float)
        ranks = rank[inverse.ravel()]
        return float((ranks[y].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))
""")

BUGGY_AUC = OWN_AUC.replace('TIE_RANK = "average"', 'TIE_RANK = "min"')

PR = "def f(y_true, y_pred):\n    return 0.5, 0.5\n"


def _cli(folder: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "oipr_bench", *args], cwd=folder, capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture()
def own_auc(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "own_auc.py").write_text(OWN_AUC)
    monkeypatch.syspath_prepend(str(tmp_path))
    return "own_auc:auc"


def test_own_auc_agrees_with_the_builtin_on_a_tied_series() -> None:
    namespace: dict = {}
    exec(OWN_AUC, namespace)
    y = np.array([0, 1, 1, 0, 0, 1, 0, 0])
    s = np.array([0.1, 0.4, 0.4, 0.4, 0.2, 0.9, 0.9, 0.0])
    # 3 anomalous x 5 normal: 0.4 beats 0.1, 0.2, 0.0 and ties 0.4 (twice: 2 x 3.5), 0.9 beats 4 and ties 1
    assert namespace["auc"](y, s) == pytest.approx((3.5 + 3.5 + 4.5) / 15, abs=1e-15)
    assert evaluators.get("AUC-ROC")(y, s) == pytest.approx((3.5 + 3.5 + 4.5) / 15, abs=1e-12)


def test_a_correct_score_evaluator_passes_against_auc_roc(own_auc: str) -> None:
    profile = oipr_bench.audit(own_auc, input="scores", reference="AUC-ROC", differential=15, seed=2, sanity=False,
                               suite="properties")
    res = profile.differential_results
    assert list(res) == list(SCORE_FAMILIES)
    assert [r.status for r in res.values()] == [PASSED] * len(SCORE_FAMILIES), [r.message for r in res.values()]
    assert all(r.checked == 15 and r.seed == 2 for r in res.values())
    assert not [line for line in profile.failures() if line.startswith(("differential", "reference"))]
    d = json.loads(profile.to_json())
    assert schema_problem(d, "report.schema.json") is None
    assert d["reference"]["name"] == "AUC-ROC" and d["reference"]["results"] == []
    assert Profile.from_dict(d).differential_results == res
    text = profile.format()
    assert "differential against AUC-ROC (seed 2, 15 cases per family):" in text
    assert "reference AUC-ROC: a score evaluator, compared on generated cases only" in text


def _first_failure(spec: str, bug) -> object:
    """The audit session every front end drives, its differential items in order until one fails."""
    options = AuditOptions(input_kind="scores", reference=bug.reference, reference_params=dict(bug.reference_params),
                           differential=20, sanity=False, suite="properties", shrink_budget=10.0)
    with AuditSession(resolve(spec, {}), options) as session:
        assert session.families == SCORE_FAMILIES
        for family in session.families:
            res = session.differential_result(family)
            if res.status == FAILED:
                return res
    raise AssertionError(f"no score family caught the bug planted in {spec}")


@pytest.mark.parametrize("kind", sorted(SCORE_PLANTED))
def test_a_planted_score_bug_is_caught_through_the_audit_session(tmp_path: Path, kind: str) -> None:
    bug = SCORE_PLANTED[kind]
    spec = write_planted(kind, tmp_path)
    first = _first_failure(spec, bug)
    assert first.found is not None and first.shrunk is not None and first.shrunk.problem
    assert len(first.shrunk.pair.scores) <= len(first.found.pair.scores)
    assert first.failure_line.startswith(f"differential[{first.family}]: ") and "reproduce: " in first.failure_line
    # the reproduction rebuilds a case on which the copy and the reference differ
    namespace: dict = {}
    exec(first.reproduction, namespace)
    mine = resolve(spec, {}).fn(namespace["y_true"], namespace["scores"])
    ref = evaluators.get(bug.reference, **dict(bug.reference_params))(namespace["y_true"], namespace["scores"])
    assert not math.isclose(mine, ref, abs_tol=1e-9), (mine, ref)
    assert first.shrunk.mine == pytest.approx(mine, abs=1e-12) and first.shrunk.reference == pytest.approx(ref, abs=1e-12)
    assert DifferentialResult.from_dict(json.loads(json.dumps(first.to_dict()))) == first


def test_a_buggy_score_evaluator_fails_through_audit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "buggy_auc.py").write_text(BUGGY_AUC)
    monkeypatch.syspath_prepend(str(tmp_path))
    profile = oipr_bench.audit("buggy_auc:auc", input="scores", reference="AUC-ROC", differential=10, sanity=False,
                               suite="properties", shrink_budget=5.0)
    bad = [r for r in profile.differential_results.values() if r.status == FAILED]
    assert bad and not profile.ok
    assert "rank_ties" in [r.family for r in bad] and "random_scores" not in [r.family for r in bad]
    assert any(line.startswith("differential[rank_ties]: ") and "np.array(" in line for line in profile.failures())
    d = json.loads(profile.to_json())
    assert schema_problem(d, "report.schema.json") is None
    assert Profile.from_dict(d).differential_results == profile.differential_results


def test_a_precision_recall_evaluator_with_a_score_reference_is_refused(tmp_path: Path) -> None:
    (tmp_path / "pr.py").write_text(PR)
    proc = _cli(tmp_path, "audit", "pr.py:f", "--reference", "VUS-PR", "--differential", "3")
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert "--reference VUS-PR takes scores, but pr.py:f takes binary predictions" in lines[0]
    with pytest.raises(UsageError, match="reference VUS-PR takes scores, but PW takes binary predictions"):
        oipr_bench.audit("PW", reference="VUS-PR")
    # declared to take scores, but returns precision and recall: refused once that is known
    (tmp_path / "pr_scores.py").write_text(PR)
    proc = _cli(tmp_path, "audit", "pr_scores.py:f", "--input", "scores", "--reference", "AUC-ROC", "--suite", "properties")
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1, proc.stderr
    assert "--reference AUC-ROC returns one number, but pr_scores.py:f returns precision and recall" in lines[0]


def test_a_score_evaluator_with_a_binary_reference_is_refused(own_auc: str) -> None:
    with pytest.raises(UsageError, match="reference PA returns precision and recall, but own_auc:auc returns one number"):
        oipr_bench.audit(own_auc, input="scores", reference="PA", differential=2, sanity=False)


def test_against_paper_with_a_score_reference_is_refused() -> None:
    with pytest.raises(OptionError, match="VUS-PR has no row in Table A1"):
        oipr_bench.auditing.options.AuditOptions(reference="VUS-PR", against="paper")


@pytest.mark.parametrize("against", [None, "reference"])
def test_a_score_reference_compares_every_case_with_its_stored_values(own_auc: str, against) -> None:
    profile = oipr_bench.audit(own_auc, input="scores", reference="AUC-ROC", against=against, sanity=False,
                               suite="table5")
    stored = oipr_bench.reference.reference_values("AUC-ROC")
    res = profile.reference_results
    assert list(res) == list(stored) and len(res) == 25
    assert [r.status for r in res.values()] == [PASSED] * 25, [r.message for r in res.values() if r.status != PASSED]
    for case_id, r in res.items():
        assert r.reference.f1 == stored[case_id].score.f1 and r.observed.f1 == pytest.approx(r.reference.f1, abs=1e-9)
    assert res["random_detector/c1"].message == "matches the AUC-ROC reference"
    d = json.loads(profile.to_json())
    assert schema_problem(d, "report.schema.json") is None
    assert (d["reference"]["name"], d["reference"]["against"]) == ("AUC-ROC", "reference")
    assert [r["reference"] for r in d["reference"]["results"]][0] == [None, None, 0.51]  # (1 + 0.02 - 0) / 2
    assert len(d["reference"]["results"]) == 25
    back = Profile.from_dict(d).reference_results  # NaN precision and recall: compared as JSON
    assert {k: r.to_dict() for k, r in back.items()} == {k: r.to_dict() for k, r in res.items()}
    assert "reference AUC-ROC (against reference): 25 of 25 cases match" in profile.format()


#: A bug that stays in [0, 1]: a tie between an anomalous and a normal point counts as a loss, not half a win.
STRICT_AUC = textwrap.dedent("""
    import numpy as np

    def auc(y_true, scores):
        y = np.asarray(y_true) == 1
        s = np.asarray(scores, dtype=float)
        below = np.searchsorted(np.sort(s[~y]), s[y], side="left")  # normal points strictly below each anomalous one
        return float(below.sum() / (y.sum() * (~y).sum()))
""")


def test_a_wrong_score_evaluator_differs_from_the_stored_values(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "strict_auc.py").write_text(STRICT_AUC)  # on 0/1 scores: TPR (1 - FPR) instead of (1 + TPR - FPR) / 2
    monkeypatch.syspath_prepend(str(tmp_path))
    profile = oipr_bench.audit("strict_auc:auc", input="scores", reference="AUC-ROC", sanity=False, suite="table5")
    res = profile.reference_results
    bad = [r for r in res.values() if r.status == FAILED]
    assert bad and not profile.ok
    first = res["overlap_proportion/c1"]
    assert first.status == FAILED and first.message.startswith("differs from the AUC-ROC reference: score ")
    assert "score 0.02 vs 0.51 (|diff| 0.49 > 1e-09)" in first.message and "nan" not in first.message, first.message
    rnd = res["random_detector/c1"]
    assert rnd.status == FAILED and "first differing run 1: score " in rnd.message and "nan" not in rnd.message
    assert any(line.startswith("reference[overlap_proportion/c1]: ") for line in profile.failures())


def test_plugin_score_reference_items(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(own_auc=OWN_AUC)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--evaluator=own_auc:auc", "--oipr-input=scores",
                                           "--reference=VUS-PR", "--oipr-suite=table5", "-k", "reference",
                                           "--collect-only", "-q", timeout=300)
    out = result.stdout.str()
    assert "oipr-bench::reference[overlap_proportion/c1]" in out and "oipr-bench::reference[random_detector/c2]" in out


def test_cli_audit_score_differential_and_verify(tmp_path: Path) -> None:
    (tmp_path / "buggy_auc.py").write_text(BUGGY_AUC)
    proc = _cli(tmp_path, "audit", "buggy_auc.py:auc", "--input", "scores", "--reference", "AUC-ROC", "--differential", "10",
                "--suite", "properties", "--shrink-budget", "5", "--format", "json", "-o", "report.json")
    assert proc.returncode == 1, proc.stderr
    report = json.loads((tmp_path / "report.json").read_text())
    assert schema_problem(report, "report.schema.json") is None
    fams = [r["family"] for r in report["differential"]]
    assert fams == list(SCORE_FAMILIES)
    bad = [r for r in report["differential"] if r["status"] == FAILED]
    assert bad and "scores" in bad[0]["shrunk"] and "np.array(" in bad[0]["reproduction"]
    again = _cli(tmp_path, "verify", "report.json")
    assert again.returncode == 0, again.stdout + again.stderr


def test_plugin_score_differential_items(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(own_auc=OWN_AUC)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--evaluator=own_auc:auc", "--oipr-input=scores",
                                           "--reference=AUC-ROC", "--oipr-differential=5", "-k", "differential",
                                           timeout=300)
    counts = result.parseoutcomes()
    assert counts.get("passed") == len(SCORE_FAMILIES) and not counts.get("failed"), result.stdout.str()
    for family in SCORE_FAMILIES:
        result.stdout.no_fnmatch_line(f"*FAILED*differential[[]{family}[]]*")


def test_plugin_catches_a_planted_score_bug(pytester: pytest.Pytester) -> None:
    spec = write_planted("roc_ties", pytester.path)  # the loop-by-loop copy: the long series are left out
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", f"--evaluator={Path(spec).name}",
                                           "--oipr-input=scores", "--reference=AUC-ROC", "--oipr-differential=10",
                                           "-k", "differential and not long_series", "-rf", timeout=300)
    out = result.stdout.str()
    assert "FAILED oipr-bench::differential[rank_ties]" in out, out
    assert "reproduce: import numpy as np; from oipr_bench.scenarios.events import from_events" in out


def test_a_user_case_the_score_reference_cannot_score_is_a_failed_comparison(tmp_path: Path) -> None:
    """A user's case with one class: AUC-ROC has no value there; the comparison fails in one line, no traceback."""
    cases = {
        "schema": "urn:oipr-bench:schema:scenario:1.0.0", "dataset_version": "1.0.0", "scenario": "my_score_cases",
        "title": "My score cases", "description": "One case with both classes, one without an anomaly.",
        "characteristics": ["existence_detection_reward"],
        "cases": [
            {"id": f"my_score_cases/c{i}", "case": f"c{i}", "description": text, "length": 20,
             "characteristics": ["existence_detection_reward"],
             "provenance": {"paper_table": "A1", "row_label": f"c{i}", "source": "reconstructed", "authors_csv": None,
                            "note": "not in the paper: a user's own case"},
             "y_true": y_true, "y_pred": [[3, 6]]}
            for i, text, y_true in ((1, "An event at 4-9, detected at 3-5.", [[4, 10]]),
                                    (2, "No anomaly, a false alarm at 3-5.", []))
        ],
    }
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases))
    profile = oipr_bench.audit("AUC-ROC", reference="AUC-ROC", cases=str(path), sanity=False, suite="table5")
    res = profile.reference_results
    # c1: 20 points, 6 anomalous; 0/1 scores hit 2 of them and 1 normal point: (1 + 2/6 - 1/14) / 2
    assert res["my_score_cases/c1"].status == PASSED
    assert res["my_score_cases/c1"].reference.f1 == pytest.approx((1 + 2 / 6 - 1 / 14) / 2, abs=1e-12)
    c2 = res["my_score_cases/c2"]
    assert c2.status == FAILED and c2.reference is None
    assert c2.message == ("the AUC-ROC reference has no value on this case: AUC-ROC: y_true has no anomaly (all 0); "
                          "a score metric needs both classes"), c2.message
    assert json.loads(profile.to_json())["reference"]["results"][-1]["case_id"] == "my_score_cases/c2"
