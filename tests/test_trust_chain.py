"""The trust chain from a run to its report to ``verify``, and declarations used or refused.

A report is evidence: a partial or interrupted run says so and is never ``ok``; ``verify`` checks
the stored ``signature`` and ``ok``, names missing items, reproduces property expectations and
runs only code the user has at hand.  A declaration is used or refused: an expectation the suite
never checks, an option that does not apply to the evaluator's kind, ``--tolerance`` with
``--against paper``, oipr options without ``--evaluator``: each a one-line error, in every front end.
"""

from __future__ import annotations

import functools
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import oipr_bench
from oipr_bench.auditing.calling.resolve import resolve
from oipr_bench.auditing.options import AuditOptions, OptionError
from oipr_bench.auditing.profile.results import Profile
from oipr_bench.auditing.profile.verify import options_of, verify
from oipr_bench.errors import UsageError
from oipr_bench.jsondata import schema_problem

pytest_plugins = ["pytester"]

PR = textwrap.dedent("""
    def f(t, p):
        tp = int(((t == 1) & (p == 1)).sum())
        return (tp / p.sum() if p.sum() else 0.0), (tp / t.sum() if t.sum() else 0.0)
""")

#: PW's failing characteristics under OIPR's row (Table 5): a point-wise P/R fails these five.
PR_FAILS = 5


def cli(folder: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "oipr_bench", *args], cwd=folder, capture_output=True, text=True,
                          timeout=timeout)


def run_pytest(folder: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args], cwd=folder,
                          capture_output=True, text=True, timeout=timeout)


def one_line_error(proc: subprocess.CompletedProcess, code: int = 2) -> str:
    assert proc.returncode == code, proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    return lines[0]


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``pr.py:f``'s JSON report (the CLI), in a folder of its own."""
    folder = tmp_path_factory.mktemp("trust")
    (folder / "pr.py").write_text(PR)
    proc = cli(folder, "audit", "pr.py:f", "--format", "json", "-o", "base.json")
    assert proc.returncode == 1 and (folder / "base.json").exists(), proc.stderr
    return folder


def tampered(folder: Path, name: str, edit: Any) -> str:
    d = json.loads((folder / "base.json").read_text())
    edit(d)
    (folder / name).write_text(json.dumps(d))
    return name


def not_reproduced(folder: Path, name: str) -> str:
    proc = cli(folder, "verify", name)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "NOT reproduced" in proc.stdout
    return proc.stdout


# -- H1: property expectations are reproduced ----------------------------------------------------


@pytest.mark.parametrize("value,status", [("symmetric_decay", "passed"), ("favours_early", "failed")])
def test_verify_reproduces_a_declared_property_expectation(value: str, status: str) -> None:
    profile = oipr_bench.audit("PW", suite="properties", expect={"lag_tolerance": value})
    assert profile.property_results["lag_tolerance"].status == status
    report = Profile.from_dict(json.loads(profile.to_json()))
    assert options_of(report).expectations["lag_tolerance"].values == (value,)
    result = verify(report)
    assert result.ok, result.problems


# -- H2: a partial or interrupted run says so and is never ok -------------------------------------


def test_a_deselected_run_says_so_is_not_ok_and_verifies_as_partial(base: Path) -> None:
    proc = run_pytest(base, "--evaluator=pr.py:f", "-k", "case", "--oipr-report=k.json", "--oipr-html=k.html")
    assert proc.returncode == 0, proc.stdout + proc.stderr  # the selected items passed
    d = json.loads((base / "k.json").read_text())
    assert schema_problem(d, "report.schema.json") is None
    run = d["run"]
    assert d["ok"] is False and run["complete"] is False and run["interrupted"] is False
    assert run["selection"] == {"keyword": "case"} and run["planned"] == 42 and len(d["cases"]) == 25
    assert "characteristic[fragments_merging]" in run["deselected"] and len(run["deselected"]) == 17
    assert "partial run: 25 of 42 planned items; 17 deselected (-k 'case') (never ok)" in proc.stdout
    assert "partial run: 25 of 42 planned items" in (base / "k.html").read_text()
    verified = cli(base, "verify", "k.json")
    assert verified.returncode == 0, verified.stdout
    assert "note: partial run: 25 of 42 planned items; 17 deselected (-k 'case') (the report says so: ok false)" \
        in verified.stdout


INTERRUPT_CONFTEST = textwrap.dedent("""
    import pytest

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(item):
        if item.name == "case[random_detector/c1]":
            raise KeyboardInterrupt   # what Ctrl-C does in the middle of the run
""")


def test_an_interrupted_run_says_so_is_not_ok_and_does_not_verify(tmp_path: Path) -> None:
    (tmp_path / "pr.py").write_text(PR)
    (tmp_path / "conftest.py").write_text(INTERRUPT_CONFTEST)
    proc = run_pytest(tmp_path, "--evaluator=pr.py:f", "--oipr-report=rep.json", "--oipr-html=rep.html")
    assert proc.returncode == 2, proc.stdout + proc.stderr  # pytest's "interrupted"
    d = json.loads((tmp_path / "rep.json").read_text())
    assert d["ok"] is False and d["run"]["interrupted"] is True and d["run"]["complete"] is False
    assert "characteristic[fragments_merging]" in d["run"]["never_run"]
    assert "interrupted (Ctrl-C)" in (tmp_path / "rep.html").read_text()
    out = not_reproduced(tmp_path, "rep.json")
    assert "  run: the run was interrupted (Ctrl-C) after " in out


def test_a_real_ctrl_c_leaves_a_report_that_is_not_ok(tmp_path: Path) -> None:
    """The issue's reproduction: SIGINT to a pytest run with a slow evaluator, as a terminal sends it."""
    (tmp_path / "slow.py").write_text("import time\n" + PR.replace("def f(t, p):\n", "def f(t, p):\n    time.sleep(0.05)\n"))
    proc = subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--evaluator=slow.py:f",
                             "--oipr-report=rep.json"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stdout is not None
    while b"." not in proc.stdout.read(1):  # the first item has passed: the run is under way (~230 calls of 0.05 s)
        assert proc.poll() is None
    time.sleep(1.0)
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole process group
    proc.communicate(timeout=120)
    d = json.loads((tmp_path / "rep.json").read_text())
    assert d["ok"] is False and d["run"]["interrupted"] is True and d["run"]["never_run"]


# -- M4: verify checks the stored signature and ok, and the items ---------------------------------


def test_verify_catches_an_edited_stored_signature(base: Path) -> None:
    name = tampered(base, "sig.json", lambda d: d.update(signature="oipr-bench:0.3.0|dataset:1.1.0|evaluator:PA{}|kind:pr"))
    assert "  signature: the report stores 'oipr-bench:0.3.0|dataset:1.1.0|evaluator:PA{}|kind:pr', but its fields " \
           "sign 'oipr-bench:" in not_reproduced(base, name)


def test_verify_catches_an_edited_ok(base: Path) -> None:
    out = not_reproduced(base, tampered(base, "ok.json", lambda d: d.update(ok=True)))
    assert "  ok: the report stores True, but its items give False" in out


def test_verify_catches_a_stripped_report(base: Path) -> None:
    def strip(d: dict) -> None:
        d["characteristics"] = [c for c in d["characteristics"] if c["status"] != "failed"]
        d["ok"] = True

    out = not_reproduced(base, tampered(base, "stripped.json", strip))
    assert "  ok: report True, recomputed False" in out
    assert f"  run: {PR_FAILS} item(s) of the report's suite are missing from it, neither deselected nor recorded " \
           "as not run: characteristic[" in out


def test_verify_catches_a_stripped_report_with_its_run_record_stripped_too(base: Path) -> None:
    def strip(d: dict) -> None:
        gone = [c["name"] for c in d["characteristics"] if c["status"] == "failed"]
        d["characteristics"] = [c for c in d["characteristics"] if c["name"] not in gone]
        d["run"]["planned"] -= len(gone)
        d["ok"] = True

    out = not_reproduced(base, tampered(base, "stripped2.json", strip))
    assert "missing from it" in out and "  run.planned: report 37, recomputed 42" in out


def test_verify_catches_an_edited_suite(base: Path) -> None:
    out = not_reproduced(base, tampered(base, "suite.json", lambda d: d["options"].update(suite="properties")))
    assert "suite:table5" in out and "but its fields sign" in out
    assert "  run: the report holds 10 item(s) its options do not run (suite properties): " \
           "characteristic[existence_detection_reward]" in out


@pytest.mark.parametrize("edit,expected", [
    (lambda d: d["cases"][0].update(n_runs=3), "  case[overlap_proportion/c1].n_runs: report 3, recomputed 1"),
    (lambda d: d["cases"][0].update(returned_f1=True),
     "  case[overlap_proportion/c1].returned_f1: report True, recomputed False"),
    (lambda d: d["fixtures"].update(user_cases=["mine/c1"]), "  fixtures.user_cases: report ['mine/c1'], recomputed []"),
])
def test_verify_names_each_edited_field(base: Path, edit: Any, expected: str) -> None:
    assert expected in not_reproduced(base, tampered(base, f"f{abs(hash(expected)) % 1000}.json", edit))


def test_a_report_holding_one_case_twice_is_refused(base: Path) -> None:
    line = one_line_error(cli(base, "verify", tampered(base, "dup.json", lambda d: d["cases"].append(d["cases"][0]))))
    assert "dup.json" in line and "$.cases[25]" in line and "case_id 'overlap_proportion/c1' appears twice" in line


def test_verify_says_what_it_does_not_compare(base: Path) -> None:
    assert "  not compared: wall times (seconds) and message texts" in not_reproduced(
        base, tampered(base, "msg.json", lambda d: d.update(ok=True)))


# -- M5: verify says what it imports and refuses code from elsewhere -------------------------------


def test_verify_refuses_code_outside_the_reports_folder_and_the_working_directory(base: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "evil.py").write_text('open("PWNED", "w").write("imported by verify")\n'
                                       "def f(t, p):\n    return 1.0, 1.0\n")
    work = tmp_path / "work"
    work.mkdir()
    d = json.loads((base / "base.json").read_text())
    d["evaluator"]["name"] = f"{elsewhere / 'evil.py'}:f"
    (work / "evil_report.json").write_text(json.dumps(d))
    line = one_line_error(cli(work, "verify", "evil_report.json"))
    assert not (work / "PWNED").exists() and not (elsewhere / "PWNED").exists()
    assert f"whose code is at {elsewhere / 'evil.py'}, outside the report's folder and the working directory" in line
    assert f"--evaluator {elsewhere / 'evil.py'}:f" in line
    named = cli(work, "verify", "evil_report.json", "--evaluator", f"{elsewhere / 'evil.py'}:f")
    assert named.returncode == 1 and (work / "PWNED").exists()  # named, so run (and it differs)
    assert f"verify: importing evaluator '{elsewhere / 'evil.py'}:f' from {elsewhere / 'evil.py'}" in named.stderr


def test_verify_names_the_file_it_imports(base: Path) -> None:
    proc = cli(base, "verify", "base.json")
    assert proc.returncode == 0, proc.stdout
    assert proc.stderr.strip() == f"verify: importing evaluator 'pr.py:f' from {(base / 'pr.py').resolve()}"


def test_verify_refuses_an_installed_module_the_report_names(base: Path) -> None:
    d = json.loads((base / "base.json").read_text())
    d["evaluator"]["name"] = "json:loads"  # anything importable from outside: the standard library here
    (base / "stdlib.json").write_text(json.dumps(d))
    line = one_line_error(cli(base, "verify", "stdlib.json"))
    assert "the report names evaluator 'json:loads', whose code is at " in line and "--evaluator json:loads" in line


# -- L9: verify's wording -------------------------------------------------------------------------


def test_verify_of_an_evaluator_that_now_raises_counts_problems_not_numbers(base: Path) -> None:
    (base / "broken.py").write_text("def f(t, p):\n    raise RuntimeError('now broken')\n")
    proc = cli(base, "verify", "base.json", "--evaluator", "broken.py:f")
    assert proc.returncode == 1
    head = proc.stdout.splitlines()[0]
    assert " problem(s) among " in head and " of 0 numbers" not in head
    assert "  note: evaluator 'broken.py:f' run in place of the report's 'pr.py:f' (--evaluator)" in proc.stdout


def test_verify_names_an_unknown_case_id_in_one_line(base: Path) -> None:
    out = not_reproduced(base, tampered(base, "unk.json", lambda d: d["cases"][0].update(case_id="nonexistent/c9")))
    assert "  case[nonexistent/c9]: in the report, but not an item of its suite here (unknown case 'nonexistent/c9'" in out


def test_verify_says_when_another_evaluator_was_substituted(base: Path) -> None:
    (base / "pr_copy.py").write_text(PR)
    proc = cli(base, "verify", "base.json", "--evaluator", "pr_copy.py:f")
    assert proc.returncode == 0, proc.stdout
    assert "  note: evaluator 'pr_copy.py:f' run in place of the report's 'pr.py:f' (--evaluator)" in proc.stdout


# -- L10: the signature names an instance's or partial's state -------------------------------------


class Params:
    def __init__(self, k: int) -> None:
        self.k = k

    def __call__(self, t: Any, p: Any) -> tuple[float, float]:
        return 1.0, 1.0


def _pw(t: Any, p: Any, z: int = 0) -> tuple[float, float]:
    return 1.0, 1.0


def test_differently_configured_objects_sign_differently() -> None:
    states = [resolve(Params(3)).state, resolve(Params(5)).state, resolve(functools.partial(_pw, z=1)).state,
              resolve(functools.partial(_pw, z=2)).state]
    assert all(s and len(s) == 12 for s in states) and len(set(states)) == 4
    assert resolve(Params(3)).state == states[0]  # the same configuration, the same digest
    assert resolve(_pw).state is None and resolve("PW").state is None
    arrays = [resolve(Params(np.arange(5))).state, resolve(Params(np.arange(5) + 1)).state]
    assert arrays[0] != arrays[1]


def _closure(k: int) -> Any:
    def scale(x: Any) -> Any:
        return x * k
    return scale


def test_objects_differing_in_a_lambda_a_closure_a_generator_or_a_nested_object_sign_differently() -> None:
    pairs = [
        (Params(lambda x: x), Params(lambda x: x * 2)),
        (Params(_closure(2)), Params(_closure(3))),
        (Params(np.random.default_rng(1)), Params(np.random.default_rng(2))),
        (Params({"a": [1, {"b": Params(1)}]}), Params({"a": [1, {"b": Params(2)}]})),
        (Params([[[[[[[[1]]]]]]]]), Params([[[[[[[[2]]]]]]]])),
    ]
    for one, other in pairs:
        assert resolve(one).state != resolve(other).state, (one.k, other.k)
    assert resolve(Params(_closure(2))).state == resolve(Params(_closure(2))).state  # the same closure, the same digest
    assert resolve(Params(np.random.default_rng(1))).state == resolve(Params(np.random.default_rng(1))).state
    looped = Params(None)
    looped.k = looped  # a cycle ends, as a cycle
    assert len(resolve(looped).state) == 12


def test_the_state_enters_the_report_and_its_signature(tmp_path: Path) -> None:
    (tmp_path / "ce.py").write_text(textwrap.dedent("""
        class Params:
            def __init__(self, k):
                self.k = k
            def __call__(self, t, p):
                tp = int(((t == 1) & (p == 1)).sum())
                return (tp / p.sum() if p.sum() else 0.0), (tp / t.sum() if t.sum() else 0.0)
        inst = Params(3)
        other = Params(5)
    """))
    sigs = []
    for name in ("inst", "other"):
        proc = cli(tmp_path, "audit", f"ce.py:{name}", "--format", "json", "-o", f"{name}.json")
        d = json.loads((tmp_path / f"{name}.json").read_text())
        assert schema_problem(d, "report.schema.json") is None and len(d["evaluator"]["state"]) == 12, proc.stderr
        assert f"|evaluator:ce.py:{name}{{}}|state:{d['evaluator']['state']}|kind:pr|" in d["signature"]
        sigs.append(d["signature"].replace(f"ce.py:{name}", "ce.py:X"))
    assert sigs[0] != sigs[1]
    assert cli(tmp_path, "verify", "inst.json").returncode == 0
    (tmp_path / "ce.py").write_text((tmp_path / "ce.py").read_text().replace("Params(3)", "Params(4)"))
    out = not_reproduced(tmp_path, "inst.json")
    assert "|state:" in out and "  signature: report " in out


# -- H3: an expectation the suite does not check is refused, in every front end ---------------------


def test_audit_refuses_a_property_expectation_without_the_properties_suite() -> None:
    with pytest.raises(UsageError, match=r"^expect lag_tolerance: lag_tolerance is a metric property, which the suite "
                                         r"table5 does not run; add suite properties or all$"):
        oipr_bench.audit("OIPR", expect={"lag_tolerance": "flat"})


def test_audit_refuses_a_characteristic_expectation_without_table5() -> None:
    with pytest.raises(UsageError, match="fragments_merging is a characteristic of Table 5, which the suite "
                                         "properties does not run; add suite table5 or all"):
        oipr_bench.audit("OIPR", suite="properties", expect={"fragments_merging": "no"})


def test_audit_refuses_a_sanity_expectation_when_the_sanity_checks_are_off() -> None:
    with pytest.raises(UsageError, match="discriminates is a sanity check, and the sanity checks are off"):
        oipr_bench.audit("OIPR", sanity=False, expect={"discriminates": "no"})
    with pytest.raises(UsageError, match="property-search runs only with hypothesis_examples"):
        oipr_bench.audit("OIPR", expect={"property-search": "no"})


@pytest.mark.parametrize("argv,expected", [
    (["OIPR", "--expect", "lag_tolerance=flat"],
     "oipr-bench audit: error: --expect lag_tolerance: lag_tolerance is a metric property, which the suite table5 "
     "does not run; add --suite properties or all"),
    (["OIPR", "--suite", "properties", "--expect", "fragments_merging=no"],
     "oipr-bench audit: error: --expect fragments_merging: fragments_merging is a characteristic of Table 5, which "
     "the suite properties does not run; add --suite table5 or all"),
])
def test_the_cli_refuses_an_expectation_its_suite_does_not_check(tmp_path: Path, argv: list[str], expected: str) -> None:
    assert one_line_error(cli(tmp_path, "audit", *argv)) == expected


def test_the_plugin_refuses_an_expectation_its_suite_does_not_check(tmp_path: Path) -> None:
    proc = run_pytest(tmp_path, "--evaluator=OIPR", "--expect", "lag_tolerance=flat")
    assert proc.returncode == 4, proc.stdout + proc.stderr
    assert "oipr-bench: --expect lag_tolerance: lag_tolerance is a metric property, which the suite table5 does not " \
           "run; add --oipr-suite properties or all" in proc.stderr
    assert "passed" not in proc.stdout


# -- M3: oipr options without --evaluator -----------------------------------------------------------


def test_oipr_options_without_an_evaluator_are_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "test_a.py").write_text("def test_a():\n    pass\n")
    proc = run_pytest(tmp_path, "test_a.py", "--oipr-report=r.json")
    assert proc.returncode == 4 and not (tmp_path / "r.json").exists(), proc.stdout + proc.stderr
    assert "oipr-bench: --oipr-report needs --evaluator (the evaluator to audit); nothing was audited" in proc.stderr
    proc = run_pytest(tmp_path, "test_a.py", "--oipr-html=r.html", "--oipr-cases=nofile.json", "--oipr-timeout=-1",
                      "--expect=bogus=1")
    assert proc.returncode == 4
    assert "oipr-bench: --oipr-cases, --expect, --oipr-html, --oipr-timeout need --evaluator" in proc.stderr
    assert run_pytest(tmp_path, "test_a.py").returncode == 0  # no oipr option: the plugin stays inert


# -- M10, L8: options that do not apply are refused --------------------------------------------------


def test_a_tolerance_with_against_paper_is_refused(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="^tolerance does not apply with against paper: Table A1 is compared within "
                                          "5e-05"):
        AuditOptions(reference="OIPR", against="paper", tolerance=0.5)
    line = one_line_error(cli(tmp_path, "audit", "OIPR", "--reference", "OIPR", "--against", "paper",
                              "--tolerance", "0"))
    assert "--tolerance does not apply with --against paper" in line


def test_scalar_declarations_for_a_precision_recall_evaluator_are_refused(tmp_path: Path) -> None:
    (tmp_path / "pr.py").write_text(PR)
    for flags, name in ((["--lower-is-better"], "--lower-is-better"), (["--bounds", "0:2"], "--bounds")):
        proc = cli(tmp_path, "audit", "pr.py:f", *flags, "-o", "out.txt")
        line = one_line_error(proc)
        assert f"{name} applies to a one-number score, but pr.py:f returns precision and recall; drop {name}" in line
        assert not (tmp_path / "out.txt").exists()
    with pytest.raises(UsageError, match="higher_is_better applies to a one-number score"):
        oipr_bench.audit("PW", higher_is_better=False)


def test_a_one_number_score_with_a_precision_recall_reference_is_refused(tmp_path: Path) -> None:
    (tmp_path / "sev.py").write_text(textwrap.dedent("""
        import numpy as np
        def auc(t, s):
            return float(np.mean(s[t == 1])) if t.any() else 0.0
    """))
    line = one_line_error(cli(tmp_path, "audit", "sev.py:auc", "--input", "scores", "--reference", "PW"))
    assert "--reference PW returns precision and recall, but sev.py:auc returns one number" in line


# -- L1: atlas --check catches a tampered atlas folder ----------------------------------------------


REPO_ATLAS = Path(__file__).resolve().parents[1] / "atlas"


def _atlas_copy(tmp_path: Path) -> Path:
    import shutil

    if not (REPO_ATLAS / "atlas.json").exists():
        pytest.skip("the source checkout's atlas/ is not available")
    target = tmp_path / "A"
    shutil.copytree(REPO_ATLAS, target)
    return target


def _edit_atlas(folder: Path, edit: Any) -> None:
    doc = json.loads((folder / "atlas.json").read_text())
    edit(doc)
    (folder / "atlas.json").write_text(json.dumps(doc, indent=1))


def test_a_duplicated_atlas_row_is_refused_by_every_reader(tmp_path: Path) -> None:
    import copy

    folder = _atlas_copy(tmp_path)

    def duplicate(doc: dict) -> None:
        i = next(k for k, r in enumerate(doc["rows"]) if r["id"] == "oipr-bench:PW")
        row = copy.deepcopy(doc["rows"][i])
        row["characteristics"]["fragments_merging"] = "yes"
        doc["rows"].insert(i, row)

    _edit_atlas(folder, duplicate)
    for argv in (["atlas", "--check", str(folder), "--only", "oipr-bench:PW"], ["atlas", "--dir", str(folder)]):
        line = one_line_error(cli(tmp_path, *argv))
        assert line.endswith("atlas.json: row id oipr-bench:PW appears more than once"), line


def test_atlas_check_names_every_tampered_file(tmp_path: Path) -> None:
    folder = _atlas_copy(tmp_path)

    def edit(doc: dict) -> None:
        row = next(r for r in doc["rows"] if r["id"] == "oipr-bench:PW")
        row["sanity_failed"] = ["deterministic"]
        row["extra_field"] = 1
        doc["oipr_bench_version"] = "9.9.9"

    _edit_atlas(folder, edit)
    (folder / "ATLAS.md").write_text((folder / "ATLAS.md").read_text().replace("PW", "XX", 1))
    (folder / "atlas.html").write_text("<html>replaced</html>")
    pa = folder / "profiles" / "oipr-bench__PA.json"
    stored = json.loads(pa.read_text())
    stored["row"]["characteristics"]["fragments_merging"] = "yes"
    pa.write_text(json.dumps(stored))
    (folder / "profiles" / "oipr-bench__OIPR.json").unlink()
    (folder / "timings.json").write_text('{"write": {"wall_seconds": NaN}}')
    proc = cli(tmp_path, "atlas", "--check", str(folder), "--only", "oipr-bench:PW")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    out = proc.stdout
    for expected in (
        "atlas drift: oipr-bench:PW: sanity_failed ['deterministic'] -> []",
        "atlas drift: atlas.json: oipr_bench_version '9.9.9', but this is oipr-bench ",
        "atlas drift: atlas.json: row oipr-bench:PW: unknown field(s) extra_field",
        "atlas drift: ATLAS.md: differs from a rendering of atlas.json",
        "atlas drift: atlas.html: differs from a rendering of atlas.json",
        "atlas drift: profiles/oipr-bench__PA.json: its row differs from atlas.json's (characteristics)",
        "atlas drift: profiles/oipr-bench__OIPR.json: missing (row oipr-bench:OIPR)",
        "atlas drift: profiles/oipr-bench__PW.json: its row differs from atlas.json's (extra_field, sanity_failed)",
        "atlas drift: timings.json: cannot read ",
    ):
        assert expected in out, (expected, out)


def test_an_untampered_atlas_copy_checks_clean(tmp_path: Path) -> None:
    folder = _atlas_copy(tmp_path)
    proc = cli(tmp_path, "atlas", "--check", str(folder), "--only", "oipr-bench:PW")
    assert proc.returncode == 0 and "0 drifted, 0 problem(s) in the atlas files" in proc.stdout, proc.stdout


def test_atlas_write_does_not_keep_an_edited_profile(tmp_path: Path) -> None:
    from oipr_bench.atlas.integrity import kept_profile_problem

    folder = _atlas_copy(tmp_path)
    doc = json.loads((folder / "atlas.json").read_text())
    row = next(r for r in doc["rows"] if r["id"] == "oipr-bench:PW")
    stored = json.loads((folder / "profiles" / "oipr-bench__PW.json").read_text())
    assert kept_profile_problem(stored, row) == ""
    edited = json.loads(json.dumps(stored))
    edited["row"]["cases"]["overlap_proportion/c1"] = 0.123
    assert kept_profile_problem(edited, row) == "its row differs from atlas.json's (cases)"
    edited = json.loads(json.dumps(stored))
    edited["report"]["ok"] = not edited["report"]["ok"]
    assert kept_profile_problem(edited, row) == "its report's stored ok is not the one its items give"
    edited = json.loads(json.dumps(stored))
    edited["report"]["signature"] += "x"
    assert kept_profile_problem(edited, row) == "its report's stored signature is not the one its fields give"
    assert kept_profile_problem(stored, None) == "atlas.json holds no row of this id"


def test_a_differential_summary_says_raised_when_the_evaluator_raised(tmp_path: Path) -> None:
    (tmp_path / "rz.py").write_text(PR.replace("def f(t, p):\n", "def f(t, p):\n    if len(t) > 30:\n"
                                                                  "        raise RuntimeError('boom')\n"))
    proc = cli(tmp_path, "audit", "rz.py:f", "--reference", "PW", "--differential", "5", "--shrink-budget", "1")
    lines = [line for line in proc.stderr.splitlines() if "differential[random_density]" in line]
    assert lines and lines[0].startswith("oipr-bench audit: differential[random_density]: the evaluator raised on "
                                         "pair 1 of 5 of family random_density (seed 0): reproduce: "), proc.stderr


def test_the_plugin_refuses_scalar_declarations_for_precision_recall_once_the_kind_is_known(tmp_path: Path) -> None:
    (tmp_path / "pr.py").write_text(PR)
    proc = run_pytest(tmp_path, "--evaluator=pr.py:f", "--oipr-lower-is-better", "--oipr-report=r.json")
    assert proc.returncode == 4 and not (tmp_path / "r.json").exists(), proc.stdout[-500:]
    assert "oipr-bench: ERROR: --oipr-lower-is-better applies to a one-number score, but pr.py:f returns precision " \
           "and recall; drop --oipr-lower-is-better (no report written)" in proc.stdout


@pytest.mark.parametrize("argv,flag", [(["report", "OIPR", "--expect", "lag_tolerance=flat", "-o", "x.html"], "--suite"),
                                       (["atlas", "--evaluator", "PW", "--lower-is-better"], "--lower-is-better")])
def test_report_and_atlas_refuse_with_their_own_flags(tmp_path: Path, argv: list[str], flag: str) -> None:
    line = one_line_error(cli(tmp_path, *argv))
    assert line.startswith(f"oipr-bench {argv[0]}: error: ") and flag in line
    assert not (tmp_path / "x.html").exists()


def test_verify_names_an_edited_differential_seed_and_n() -> None:
    doc = json.loads(oipr_bench.audit("PW", reference="PW", differential=5, sanity=False).to_json())
    doc["differential"][0]["seed"] = 7
    doc["differential"][1]["n"] = 50
    result = verify(Profile.from_dict(doc))
    fams = [d["family"] for d in doc["differential"]]
    assert f"differential[{fams[0]}].seed: report 7, recomputed 0" in result.problems
    assert f"differential[{fams[1]}].n: report 50, recomputed 5" in result.problems


# -- the provenance of a verdict and the cases file are verified; verify's tolerance is bounded -----


def _first_characteristic(d: dict) -> dict:
    return d["characteristics"][0]


def test_verify_catches_an_edited_expectation_reason(base: Path) -> None:
    out = not_reproduced(base, tampered(base, "reason.json",
                                        lambda d: _first_characteristic(d).update(expectation_reason="the paper says so")))
    assert "  characteristic[existence_detection_reward].expectation_reason: report 'the paper says so', recomputed ''" \
           in out


def test_verify_catches_a_default_expectation_edited_into_a_declared_one(base: Path) -> None:
    out = not_reproduced(base, tampered(base, "source.json",
                                        lambda d: _first_characteristic(d).update(expectation_source="--expect")))
    assert "  signature: the report stores " in out and "but its fields sign " in out


def test_verify_catches_an_edited_reason_of_a_declared_expectation(tmp_path: Path) -> None:
    (tmp_path / "pr.py").write_text(PR)
    (tmp_path / "expect.json").write_text(json.dumps({"fragments_merging": {"value": "no", "reason": "mine counts points"}}))
    proc = cli(tmp_path, "audit", "pr.py:f", "--expect-file", "expect.json", "--format", "json", "-o", "decl.json")
    assert (tmp_path / "decl.json").exists(), proc.stderr
    d = json.loads((tmp_path / "decl.json").read_text())
    row = next(c for c in d["characteristics"] if c["name"] == "fragments_merging")
    assert row["expectation_reason"] == "mine counts points"
    clean = cli(tmp_path, "verify", "decl.json")
    assert clean.returncode == 0 and "reproduced: all " in clean.stdout, clean.stdout + clean.stderr
    row["expectation_reason"] = "the authors agreed"
    (tmp_path / "decl2.json").write_text(json.dumps(d))
    out = not_reproduced(tmp_path, "decl2.json")
    assert "  signature: the report stores " in out and "but its fields sign " in out


def test_verify_catches_an_edited_cases_file(base: Path) -> None:
    out = not_reproduced(base, tampered(base, "casesfile.json", lambda d: d["fixtures"].update(cases_file="other.json")))
    assert "  fixtures.cases_file: report 'other.json', recomputed None" in out


@pytest.mark.parametrize("value", ["inf", "nan", "-1"])
def test_verify_refuses_a_tolerance_that_is_not_a_finite_number(base: Path, value: str) -> None:
    line = one_line_error(cli(base, "verify", "base.json", "--tolerance", value))
    assert f"--tolerance must be a finite non-negative number, got {value}" in line


@pytest.mark.parametrize("value, shown", [("1e-6", "1e-06"), ("1e9", "1e+09")])
def test_verify_states_a_tolerance_other_than_its_default(base: Path, value: str, shown: str) -> None:
    proc = cli(base, "verify", "base.json", "--tolerance", value)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.startswith(f"verify: base.json: reproduced within {shown} (default 1e-12): all ")
    edited = tampered(base, "raised.json", lambda d: d["cases"][0].update(f1=d["cases"][0]["f1"] + 0.5))
    again = cli(base, "verify", edited, "--tolerance", value)
    assert f"verify: {edited}: " + ("NOT reproduced within" if value == "1e-6" else "reproduced within") in again.stdout
