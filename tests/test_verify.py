"""Signatures and ``oipr-bench verify``: a report written by the plugin is reproduced; an edited number is named."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import oipr_bench
from oipr_bench.auditing.profile.results import Profile
from oipr_bench.auditing.regression.signature import fixture_hash, signature
from oipr_bench.auditing.profile.verify import verify
from oipr_bench.jsondata import schema_problem

from test_user_cases import CASES, write

pytest_plugins = ["pytester"]

MY_PW = textwrap.dedent("""
    import numpy as np

    def pw(y_true, y_pred):
        tp = float(np.sum(y_true * y_pred))
        return tp / max(float(y_pred.sum()), 1.0), tp / max(float(y_true.sum()), 1.0)
""")


def cli(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "oipr_bench", *args], cwd=folder, capture_output=True, text=True,
                          timeout=600)


@pytest.fixture(scope="module")
def plugin_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A report written by the plugin: a user's PW, compared with PW, a differential run, the user's own cases."""
    folder = tmp_path_factory.mktemp("verify")
    (folder / "my_pw.py").write_text(MY_PW)
    write(folder, CASES)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--evaluator=my_pw:pw",
                           "--reference=PW", "--oipr-differential=30", "--oipr-seed=2", "--oipr-cases=my_cases.json",
                           "--oipr-report=report.json"], cwd=folder, capture_output=True, text=True, timeout=600)
    assert (folder / "report.json").exists(), proc.stdout + proc.stderr
    assert "signature: oipr-bench:" in proc.stdout  # the printed profile carries it too
    return folder


def test_the_signature_names_everything_that_was_run(plugin_report: Path) -> None:
    d = json.loads((plugin_report / "report.json").read_text())
    assert schema_problem(d, "report.schema.json") is None
    sig = d["signature"]
    fields = sig.split("|")
    assert fields[0] == f"oipr-bench:{oipr_bench.__version__}" and fields[1] == f"dataset:{d['dataset']['version']}"
    assert fields[2:6] == ["evaluator:my_pw:pw{}", "kind:pr", "input:binary", "suite:table5"]
    assert fields[6:9] == ["reference:PW{}", "against:reference", "tol:1e-09"]
    assert fields[9] == "differential:n=30,seed=2,budget=30"
    assert fields[10] == f"fixtures:sha256.{d['fixtures']['sha256'][:12]}"
    assert d["fixtures"]["user_cases"] == ["my_edge_cases/c1", "my_edge_cases/c2"]


def test_signature_parts() -> None:
    kw = dict(package_version="9.9", dataset_version="1.0.0", evaluator="OIPR", params={"l_obs": 20, "l_dis": 5},
              kind="score", declarations={"input": "scores", "higher_is_better": False, "bounds": [0.0, None]},
              reference={"name": "OIPR", "params": {"b_dur": 0.5}, "against": "paper", "tolerance": 5e-5},
              options={}, fixtures="ab" * 32)
    assert signature(**kw) == ("oipr-bench:9.9|dataset:1.0.0|evaluator:OIPR{l_dis=5,l_obs=20}|kind:score|input:scores|"
                               "scalar:lower,0.0:None|reference:OIPR{b_dur=0.5}|against:paper|tol:5e-05|"
                               "fixtures:sha256.abababababab")
    assert fixture_hash(oipr_bench.scenarios.load()) == fixture_hash(oipr_bench.scenarios.load())


def test_verify_reproduces_a_plugin_report(plugin_report: Path) -> None:
    proc = cli(plugin_report, "verify", "report.json")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.startswith("verify: report.json: reproduced: all ")
    assert "(27 cases, 10 characteristics, 7 sanity checks, 27 reference comparisons, 11 differential families)" in proc.stdout


def test_verify_names_an_edited_number_and_verdict(plugin_report: Path) -> None:
    d = json.loads((plugin_report / "report.json").read_text())
    d["cases"][3]["recall"] = 0.5
    d["characteristics"][1]["observed"] = "no"
    d["differential"][0]["checked"] = 7
    (plugin_report / "edited.json").write_text(json.dumps(d))
    proc = cli(plugin_report, "verify", "edited.json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "NOT reproduced: 3 problem(s) among " in proc.stdout
    assert f"  case[{d['cases'][3]['case_id']}].recall: report 0.5, recomputed 1.0" in proc.stdout
    assert f"  characteristic[{d['characteristics'][1]['name']}].observed: report 'no', recomputed " in proc.stdout
    assert "  differential[random_density].checked: report 7, recomputed 30" in proc.stdout


def test_verify_catches_a_changed_evaluator(plugin_report: Path, tmp_path: Path) -> None:
    report = Profile.from_dict(json.loads((plugin_report / "report.json").read_text()))
    (tmp_path / "my_pw_v2.py").write_text(MY_PW.replace("tp / max(float(y_true.sum()), 1.0)", "0.5 * tp / max(float(y_true.sum()), 1.0)"))
    sys.path.insert(0, str(tmp_path))
    try:
        result = verify(report, evaluator="my_pw_v2:pw")
    finally:
        sys.path.remove(str(tmp_path))
    assert not result.ok
    assert any(p.startswith("case[sparse_anomalies/c1].recall: report 0.5, recomputed 0.25") for p in result.problems)


def test_verify_usage_errors(tmp_path: Path) -> None:
    proc = cli(tmp_path, "verify", "missing.json")
    assert proc.returncode == 2 and "missing.json" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    (tmp_path / "x.json").write_text('{"format": "oipr-bench-report"}')
    proc = cli(tmp_path, "verify", "x.json")
    assert proc.returncode == 2 and "x.json" in proc.stderr and "not an oipr-bench report" in proc.stderr


def test_a_cli_table_carries_the_signature(tmp_path: Path) -> None:
    proc = cli(tmp_path, "audit", "PA", "--format", "markdown")
    assert "\nsignature: oipr-bench:" in proc.stdout and "|evaluator:PA{}|kind:pr|" in proc.stdout


def test_the_reproduced_tables_carry_a_signature() -> None:
    from oipr_bench.reports.reproduce import render, reproduce

    result = reproduce("C2")
    text = render(result, "table").splitlines()
    assert text[-1].startswith("Table C2: ") and text[-2].startswith("signature: oipr-bench:")
    sig = text[-2].removeprefix("signature: ")
    fields = sig.split("|")
    assert fields[2] == "table:C2" and fields[4:6] == ["against:paper", "tol:5e-05"]
    assert fields[3].startswith('columns:OIPR{attenuation="linear",auto_rule="paper",b_dur=0.5,l_dis=5,l_obs=20};')
    assert json.loads(render(result, "json"))["signature"] == sig
    assert f"signature: `{sig}`" in render(result, "markdown")


def test_verify_of_an_html_report_says_it_is_not_verifiable(tmp_path: Path) -> None:
    (tmp_path / "report.html").write_text("<!DOCTYPE html><html><body>profile</body></html>")
    proc = cli(tmp_path, "verify", "report.html")
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert "report.html" in proc.stderr and "an HTML report, which verify cannot recompute" in proc.stderr
    assert "--format json" in proc.stderr
