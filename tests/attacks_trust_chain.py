"""Re-run the trust-chain findings (reports, signatures, verify) as an attacker would, from the CLI and the plugin.

Usage (from the repository root)::

    python tests/attacks_trust_chain.py            # every attack, one line each, exit 1 on a finding
    python tests/attacks_trust_chain.py -k verify  # only the attacks whose name contains "verify"

The findings replayed here: H1 (verify of a property expectation), H2 (a Ctrl-C'd or ``-k`` run's
report), H3 (an expectation the suite never checks), M3 (oipr options without ``--evaluator``), M4
(tampered reports), M5 (verify importing code from elsewhere), M10 (``--tolerance`` with
``--against paper``), L1 (a tampered atlas), L8 (declarations that do not apply to the kind), L9
(verify's wording) and L10 (an instance's state in the signature).  Each attack is the issue's
reproduction run in a fresh temporary folder (``pr.py`` a plain point-wise P/R evaluator, the helpers
of ``attacks_cli_plugin.py``); it prints ``held`` or ``FINDING`` and the pytest test that covers it
(tests/test_trust_chain.py: the tests are what CI runs, this script the attacker's view).  No attack
has a time limit of its own: a loaded machine makes it slower, never a finding.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
from attacks_cli_plugin import PR, REPO, Run, one_line  # noqa: E402

T = "tests/test_trust_chain.py::"


def base_report(r: Run) -> dict:
    r.cli("audit", "pr.py:f", "--format", "json", "-o", "base.json")
    return json.loads((r.folder / "base.json").read_text())


def verify_fails(r: Run, doc: dict, *words: str) -> str:
    (r.folder / "x.json").write_text(json.dumps(doc))
    proc = r.cli("verify", "x.json")
    if proc.returncode != 1:
        return f"verify exit {proc.returncode}: {proc.stdout[:200]}"
    missing = [w for w in words if w not in proc.stdout]
    return f"verify output lacks {missing}" if missing else ""


# --------------------------------------------------------------------------- H1, H2: report and verify
def property_expectation_verifies(r: Run) -> str:
    problems = []
    for value, code in (("symmetric_decay", 0), ("favours_early", 1)):
        proc = r.cli("audit", "PW", "--suite", "properties", "--expect", f"lag_tolerance={value}", "--format", "json",
                     "-o", "pe.json")
        if proc.returncode != code:
            problems.append(f"audit --expect lag_tolerance={value}: exit {proc.returncode}")
        v = r.cli("verify", "pe.json")
        if v.returncode != 0:
            problems.append(f"verify of lag_tolerance={value}: {v.stdout[:200]}")
    return "; ".join(problems)


def ctrl_c_report(r: Run) -> str:
    r.write("slow.py", "import time\n" + PR.replace("def f(t, p):\n", "def f(t, p):\n    time.sleep(0.05)\n"))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--evaluator=slow.py:f",
                             "--oipr-report=rep.json", "--oipr-html=rep.html"], cwd=r.folder, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stdout is not None
    while b"." not in proc.stdout.read(1):
        if proc.poll() is not None:
            return "pytest ended before its first item"
    time.sleep(1.0)
    os.killpg(proc.pid, signal.SIGINT)
    proc.communicate(timeout=300)
    d = json.loads((r.folder / "rep.json").read_text())
    if d["ok"] or not d["run"]["interrupted"]:
        return f"report of a Ctrl-C'd run: ok {d['ok']}, run {d['run']}"
    if "interrupted (Ctrl-C)" not in (r.folder / "rep.html").read_text():
        return "the HTML report does not say the run was interrupted"
    v = r.cli("verify", "rep.json")
    return "" if v.returncode == 1 and "interrupted" in v.stdout else f"verify exit {v.returncode}: {v.stdout[:200]}"


def deselected_report(r: Run) -> str:
    r.pytest("--evaluator=pr.py:f", "-k", "case", "--oipr-report=k.json")
    d = json.loads((r.folder / "k.json").read_text())
    if d["ok"] or d["run"]["selection"] != {"keyword": "case"} or len(d["run"]["deselected"]) != 16:
        return f"a -k report: ok {d['ok']}, run {d['run']}"
    return ""


# --------------------------------------------------------------------------- M4: tampered reports
def tampered_signature(r: Run) -> str:
    d = base_report(r)
    d["signature"] = "oipr-bench:0.3.0|dataset:1.1.0|evaluator:PA{}|kind:pr"
    return verify_fails(r, d, "signature: the report stores")


def tampered_ok(r: Run) -> str:
    d = base_report(r)
    d["ok"] = True
    return verify_fails(r, d, "ok: the report stores True, but its items give False")


def stripped_report(r: Run) -> str:
    d = base_report(r)
    d["characteristics"] = [c for c in d["characteristics"] if c["status"] != "failed"]
    d["ok"] = True
    return verify_fails(r, d, "missing from it", "ok: report True, recomputed False")


def tampered_suite(r: Run) -> str:
    d = base_report(r)
    d["options"]["suite"] = "properties"
    return verify_fails(r, d, "its options do not run (suite properties)")


def tampered_fields(r: Run) -> str:
    problems = []
    edits = {"n_runs": lambda d: d["cases"][0].update(n_runs=3),
             "returned_f1": lambda d: d["cases"][0].update(returned_f1=True),
             "user_cases": lambda d: d["fixtures"].update(user_cases=["mine/c1"])}
    for name, edit in edits.items():
        d = json.loads((r.folder / "base.json").read_text()) if (r.folder / "base.json").exists() else base_report(r)
        edit(d)
        problem = verify_fails(r, d, name)
        if problem:
            problems.append(f"{name}: {problem}")
    d = json.loads((r.folder / "base.json").read_text())
    d["cases"].append(d["cases"][0])
    (r.folder / "dup.json").write_text(json.dumps(d))
    problem = one_line(r.cli("verify", "dup.json"), "appears twice")
    return "; ".join(problems + ([f"duplicate case: {problem}"] if problem else []))


# --------------------------------------------------------------------------- M5, L9: verify runs what it names
def verify_imports_elsewhere(r: Run) -> str:
    (r.folder / "elsewhere").mkdir()
    evil = r.write("elsewhere/evil.py", 'open("PWNED", "w").write("imported by verify")\ndef f(t, p):\n    return 1.0, 1.0\n')
    d = base_report(r)
    d["evaluator"]["name"] = f"{evil}:f"
    (r.folder / "work").mkdir()
    (r.folder / "work" / "evil_report.json").write_text(json.dumps(d))
    inner = Run(r.folder / "work")
    problem = one_line(inner.cli("verify", "evil_report.json"), "outside the report's folder", "--evaluator")
    pwned = [p for p in (r.folder / "PWNED", r.folder / "work" / "PWNED") if p.exists()]
    return problem or (f"imported: {pwned}" if pwned else "")


def verify_wording(r: Run) -> str:
    base_report(r)
    r.write("broken.py", "def f(t, p):\n    raise RuntimeError('now broken')\n")
    proc = r.cli("verify", "base.json", "--evaluator", "broken.py:f")
    head = proc.stdout.splitlines()[0] if proc.stdout else ""
    if " of 0 numbers" in head or "problem(s) among" not in head:
        return f"headline: {head[:200]}"
    if "run in place of the report's 'pr.py:f' (--evaluator)" not in proc.stdout:
        return "no word that --evaluator replaced the report's evaluator"
    d = json.loads((r.folder / "base.json").read_text())
    d["cases"][0]["case_id"] = "nonexistent/c9"
    return verify_fails(r, d, "case[nonexistent/c9]: in the report, but not an item of its suite here")


# --------------------------------------------------------------------------- H3, M3, M10, L8: declarations
def unchecked_expectations(r: Run) -> str:
    problems = [one_line(r.cli("audit", "OIPR", "--expect", "lag_tolerance=flat"), "metric property",
                         "--suite properties or all"),
                one_line(r.cli("audit", "OIPR", "--suite", "properties", "--expect", "fragments_merging=no"),
                         "characteristic of Table 5", "--suite table5 or all")]
    proc = r.pytest("--evaluator=OIPR", "--expect", "lag_tolerance=flat")
    if proc.returncode != 4 or "--oipr-suite properties or all" not in proc.stderr:
        problems.append(f"plugin: exit {proc.returncode}: {proc.stderr[-200:]}")
    return "; ".join(p for p in problems if p)


def options_without_evaluator(r: Run) -> str:
    r.write("test_a.py", "def test_a():\n    pass\n")
    proc = r.pytest("test_a.py", "--oipr-report=r.json")
    if proc.returncode != 4 or "--oipr-report needs --evaluator" not in proc.stderr:
        return f"exit {proc.returncode}: {proc.stderr[-200:]}"
    return "" if not (r.folder / "r.json").exists() else "r.json written"


def tolerance_with_paper(r: Run) -> str:
    return one_line(r.cli("audit", "OIPR", "--reference", "OIPR", "--against", "paper", "--tolerance", "0.5"),
                    "--tolerance does not apply with --against paper")


def scalar_options_for_pr(r: Run) -> str:
    r.write("sev.py", "import numpy as np\ndef auc(t, s):\n    return float(np.mean(s[t == 1])) if t.any() else 0.0\n")
    problems = [one_line(r.cli("audit", "pr.py:f", "--lower-is-better"), "--lower-is-better applies to a one-number"),
                one_line(r.cli("audit", "pr.py:f", "--bounds", "0:2"), "--bounds applies to a one-number"),
                one_line(r.cli("audit", "sev.py:auc", "--input", "scores", "--reference", "PW"),
                         "--reference PW returns precision and recall")]
    return "; ".join(p for p in problems if p)


# --------------------------------------------------------------------------- L10: state in the signature
def instance_state_signature(r: Run) -> str:
    r.write("ce.py", "class Params:\n    def __init__(self, k):\n        self.k = k\n"
                     "    def __call__(self, t, p):\n        return 1.0, 1.0\n"
                     "inst = Params(3)\nother = Params(5)\n")
    sigs = []
    for name in ("inst", "other"):
        r.cli("audit", f"ce.py:{name}", "--format", "json", "-o", f"{name}.json")
        sigs.append(json.loads((r.folder / f"{name}.json").read_text())["signature"].replace(name, "X"))
    return "" if sigs[0] != sigs[1] else f"equal signatures: {sigs[0]}"


# --------------------------------------------------------------------------- L1: a tampered atlas
def tampered_atlas(r: Run) -> str:
    shutil.copytree(REPO / "atlas", r.folder / "A")
    doc = json.loads((r.folder / "A" / "atlas.json").read_text())
    row = next(x for x in doc["rows"] if x["id"] == "oipr-bench:PW")
    row["sanity_failed"] = ["deterministic"]
    (r.folder / "A" / "atlas.json").write_text(json.dumps(doc, indent=1))
    (r.folder / "A" / "atlas.html").write_text("<html>replaced</html>")
    (r.folder / "A" / "timings.json").write_text('{"write": {"wall_seconds": NaN}}')
    proc = r.cli("atlas", "--check", "A", "--only", "oipr-bench:PW")
    wanted = ("sanity_failed", "atlas.html: differs", "timings.json: cannot read")
    missing = [w for w in wanted if w not in proc.stdout]
    if proc.returncode != 1 or missing:
        return f"exit {proc.returncode}, output lacks {missing}"
    doc["rows"].insert(0, dict(row))
    (r.folder / "A" / "atlas.json").write_text(json.dumps(doc, indent=1))
    return one_line(r.cli("atlas", "--dir", "A"), "appears more than once")


ATTACKS: list[tuple[str, Callable[[Run], str], str]] = [
    ("H1 verify of a declared property expectation", property_expectation_verifies,
     T + "test_verify_reproduces_a_declared_property_expectation"),
    ("H2 Ctrl-C'd pytest run: report not ok, verify exit 1", ctrl_c_report,
     T + "test_a_real_ctrl_c_leaves_a_report_that_is_not_ok"),
    ("H2 -k run: report records the selection, not ok", deselected_report,
     T + "test_a_deselected_run_says_so_is_not_ok_and_verifies_as_partial"),
    ("H3 expectation the suite never checks", unchecked_expectations,
     T + "test_the_cli_refuses_an_expectation_its_suite_does_not_check"),
    ("M3 oipr options without --evaluator", options_without_evaluator,
     T + "test_oipr_options_without_an_evaluator_are_a_usage_error"),
    ("M4 verify: edited stored signature", tampered_signature, T + "test_verify_catches_an_edited_stored_signature"),
    ("M4 verify: edited ok", tampered_ok, T + "test_verify_catches_an_edited_ok"),
    ("M4 verify: stripped report", stripped_report, T + "test_verify_catches_a_stripped_report"),
    ("M4 verify: edited options.suite", tampered_suite, T + "test_verify_catches_an_edited_suite"),
    ("M4 verify: n_runs, returned_f1, user_cases, duplicate", tampered_fields,
     T + "test_verify_names_each_edited_field"),
    ("M5 verify: code outside the report's folder", verify_imports_elsewhere,
     T + "test_verify_refuses_code_outside_the_reports_folder_and_the_working_directory"),
    ("M10 --tolerance with --against paper", tolerance_with_paper, T + "test_a_tolerance_with_against_paper_is_refused"),
    ("L1 atlas --check of a tampered atlas", tampered_atlas, T + "test_atlas_check_names_every_tampered_file"),
    ("L8 scalar options for P/R, score vs P/R reference", scalar_options_for_pr,
     T + "test_scalar_declarations_for_a_precision_recall_evaluator_are_refused"),
    ("L9 verify wording", verify_wording, T + "test_verify_of_an_evaluator_that_now_raises_counts_problems_not_numbers"),
    ("L10 an instance's state in the signature", instance_state_signature,
     T + "test_the_state_enters_the_report_and_its_signature"),
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", default="", help="run only attacks whose name contains this text")
    args = parser.parse_args(argv)
    findings = 0
    for name, attack, covered_by in ATTACKS:
        if args.k.lower() not in name.lower():
            continue
        with tempfile.TemporaryDirectory() as folder:
            t0 = time.monotonic()
            try:
                problem = attack(Run(Path(folder)))
            except Exception as exc:  # noqa: BLE001 - an attack that cannot even run is a finding
                problem = f"{type(exc).__name__}: {exc}"
        findings += bool(problem)
        status = f"FINDING: {problem}" if problem else "held"
        print(f"{name:58s} {time.monotonic() - t0:6.1f} s  {status}\n{'':60s}covered by {covered_by}", flush=True)
    print(f"{findings} finding(s)")
    return 1 if findings else 0


if __name__ == "__main__":
    raise SystemExit(main())
