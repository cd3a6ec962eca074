"""Replay the hostile-input findings on reports, outputs and score evaluators as an attacker would.

Usage (from the repository root)::

    python tests/attacks_reports_outputs_scores.py             # every attack, one line each, exit 1 on a finding
    python tests/attacks_reports_outputs_scores.py -k verify   # only the attacks whose name contains "verify"

One attack per finding: N1 (``verify`` of a report naming a constructor built into the interpreter
truncates or creates files), N12 (``-o`` and ``--oipr-report`` over oipr-bench's own modules and data,
numpy's, the report schema), N2-N11 and N13-N18 (score-differential, reproduce, verify, signatures,
the plugin's repeated options, messages), and the leftovers: an edited ``expectation_source`` /
``expectation_reason`` that still verifies, an edited number in a stored atlas profile that passes
``atlas --check``, and a shrink that overruns its budget.  Each runs the issue's reproduction in a
fresh temporary folder as a user would (``python -m oipr_bench ...``, ``python -m pytest
--evaluator=...``; the helpers of ``attacks_cli_plugin.py``) and checks what the issue's "Expected"
asks for; it prints ``held``, ``FINDING`` or ``skipped`` (with the reason: shared data or an atlas
environment not available) and the pytest test that covers it.  A file of the checkout or the
environment that an attack aims at is put back if a write got through (and that is a finding).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent))
from attacks_cli_plugin import REPO, Run, one_line  # noqa: E402

#: The issue's ``pr.py``.
HALF = "def f(t, p): return (0.5, 0.5)\n"
#: The score evaluators of the issue's reproductions.
SEVS = """\
import os, random, time
import numpy as np
from oipr_bench import evaluators
_v = evaluators.get("AUC-ROC")

def sysexit(t, s):
    raise SystemExit(0)

def osexit(t, s):
    os._exit(3)

def nondet(t, s):
    return float(_v(t, s)) + (1e-3 if random.random() < 0.3 else 0.0)

def zeroes(t, s):
    value = float(_v(t, s))
    s[...] = 0.0
    return value

def sleeps(t, s):
    time.sleep(600)
    return 0.5

_long_calls = [0]

def slow_candidates(t, s):
    # wrong on long series; every long call after the first is slow (0.5 s per 1,000 points): a shrink candidate
    value = float(_v(t, s))
    if len(t) <= 1000:
        return value
    _long_calls[0] += 1
    if _long_calls[0] > 1:
        time.sleep(len(t) / 2000)
    return value + 0.01
"""
SMD = REPO.parent / "shared" / "reference-data" / "authors-smd"
PRECIOUS = "precious data\n"
#: Said for a finding that no pytest test covers: this script's check is its only test.
ONLY_HERE = "this script's check only (no pytest test)"


class Skipped(Exception):
    """The attack cannot run here (the reason says why); neither held nor a finding."""


def joined(*problems: str) -> str:
    return "; ".join(p for p in problems if p)


def base_report(r: Run, evaluator: str = "pr.py:f", *more: str) -> dict:
    proc = r.cli("audit", evaluator, *more, "--format", "json", "-o", "base.json")
    if not (r.folder / "base.json").is_file():
        raise RuntimeError(f"audit wrote no report: {proc.stderr[-300:]}")
    return json.loads((r.folder / "base.json").read_text())


def verify_of(r: Run, doc: dict, *argv: str, name: str = "x.json") -> subprocess.CompletedProcess:
    (r.folder / name).write_text(json.dumps(doc))
    return r.cli("verify", name, *argv)


def smd_folder() -> Path:
    if not SMD.is_dir():
        raise Skipped("shared material not available")
    return SMD


@contextmanager
def kept(path: Path, problems: list[str]) -> Iterator[None]:
    """Put ``path`` back if an attack changed it (appending the finding to ``problems``)."""
    before = path.read_bytes() if path.exists() else None
    try:
        yield
    finally:
        after = path.read_bytes() if path.exists() else None
        if after != before:
            if before is None:
                path.unlink()
            else:
                path.write_bytes(before)
            problems.append(f"{path} {'created' if before is None else 'overwritten'} (put back)")


# --------------------------------------------------------------------------- high: data loss
def n1_verify_constructs_what_a_report_names(r: Run) -> str:
    r.write("pr.py", HALF)
    d = base_report(r)
    problems = []
    for name, params, victim in (("io:FileIO", {"file": "victim.txt", "mode": "w"}, "victim.txt"),
                                 ("_io:FileIO", {"file": "victim.txt", "mode": "w"}, "victim.txt"),
                                 ("io:FileIO", {"file": "created.txt", "mode": "x"}, "created.txt")):
        (r.folder / "victim.txt").write_text(PRECIOUS)
        d["evaluator"]["name"], d["evaluator"]["params"] = name, params
        proc = verify_of(r, d, name="evil.json")
        if proc.returncode != 2 or "outside the report's folder" not in proc.stderr:
            problems.append(f"{name}: exit {proc.returncode}: {proc.stderr.strip()[-200:]}")
        if (r.folder / "victim.txt").read_text() != PRECIOUS:
            problems.append(f"{name}: victim.txt truncated")
        if (r.folder / "created.txt").exists():
            problems.append(f"{name} mode x: created.txt created")
            (r.folder / "created.txt").unlink()
    return joined(*problems)


def n12_outputs_over_oipr_bench_and_its_environment(r: Run) -> str:
    import numpy

    r.write("pr.py", HALF)
    schema = REPO / "schema" / "report.schema.json"
    problems: list[str] = []
    for target, why in ((REPO / "oipr_bench" / "__init__.py", "the Python module oipr_bench"),
                        (Path(numpy.__file__), "the Python module numpy"), (schema, "schema")):
        if not target.is_file():
            continue
        with kept(target, problems):
            problems.append(one_line(r.cli("audit", "pr.py:f", "-o", str(target)), str(target), why))
    if schema.is_file():
        with kept(schema, problems):
            proc = r.pytest("--evaluator=pr.py:f", f"--oipr-report={schema}")
            if proc.returncode != 4 or "refusing to write" not in proc.stderr:
                problems.append(f"plugin: exit {proc.returncode}: {proc.stderr.strip()[-200:]}")
    return joined(*problems)


# --------------------------------------------------------------------------- medium: a wrong result reported as fine
def n3_system_exit_in_a_score_evaluator(r: Run) -> str:
    r.write("sevs.py", SEVS)
    problems = []
    proc = r.cli("score-differential", "sevs.py:sysexit", "--reference", "AUC-ROC", "-n", "5")
    if proc.returncode == 0 or "SystemExit" not in proc.stdout + proc.stderr:
        problems.append(f"score-differential: exit {proc.returncode}, SystemExit not named")
    for argv in (("audit", "sevs.py:osexit", "--input", "scores"),
                 ("score-differential", "sevs.py:osexit", "--reference", "AUC-ROC", "-n", "5")):
        proc = r.cli(*argv)
        if proc.returncode == 0 or "os._exit" not in proc.stdout + proc.stderr:
            problems.append(f"{argv[0]} with os._exit(3): exit {proc.returncode} and os._exit not named")
    return joined(*problems)


def n9_reproduce_scalar_options_for_a_pr_evaluator(r: Run) -> str:
    data = str(smd_folder())
    return joined(*(one_line(r.cli("reproduce", "--table", "6", "--data", data, "--evaluator", "pr.py:f", *option),
                             option[0]) for option in (("--lower-is-better",), ("--bounds", "0:2"))))


def n2_score_differential_non_deterministic(r: Run) -> str:
    r.write("sevs.py", SEVS)
    proc = r.cli("score-differential", "sevs.py:nondet", "--reference", "AUC-ROC", "-n", "5")
    out = proc.stdout + proc.stderr
    if "not deterministic" not in out and "non-deterministic" not in out:
        return f"exit {proc.returncode}, no 'not deterministic': {out.strip()[-200:]}"
    return "shrunk a counterexample of a non-deterministic evaluator" if "shrunk" in out else ""


# --------------------------------------------------------------------------- low
def python_code(r: Run, code: str) -> subprocess.CompletedProcess:
    """``python -c code`` in the attack's folder, with this checkout first on the path (as ``Run.cli``)."""
    return r._run(["-c", code], 120)


def _score_call(r: Run, expression: str) -> subprocess.CompletedProcess:
    code = ("import numpy as np\nfrom oipr_bench import evaluators\n"
            "t = np.array([0, 1, 1, 0, 0, 1, 0, 0])\ns = np.array([0.1, 0.9, 0.8, 0.2, 0.3, 0.7, 0.4, 0.1])\n"
            f"print(evaluators.get('AUC-ROC')(t, {expression}))\n")
    return python_code(r, code)


def n4_masked_scores(r: Run) -> str:
    proc = _score_call(r, "np.ma.masked_array(s, mask=[0, 1, 0, 0, 0, 0, 0, 0])")
    if proc.returncode == 0:
        return f"a masked score array scored {proc.stdout.strip()} (the mask ignored)"
    return "" if "mask" in proc.stderr else f"refused without naming the mask: {proc.stderr.strip()[-200:]}"


def n5_datetime_scores(r: Run) -> str:
    problems = []
    for dtype in ("datetime64[ns]", "timedelta64[ns]"):
        proc = _score_call(r, f"(s * 1000).astype('int64').astype('{dtype}')")
        if proc.returncode == 0:
            problems.append(f"{dtype} scores scored {proc.stdout.strip()}")
    return joined(*problems)


def n13_verify_tolerance(r: Run) -> str:
    d = base_report(r)
    problems = [one_line(verify_of(r, d, "--tolerance", "inf"), "--tolerance")]
    case = next(c for c in d["cases"] if isinstance(c.get("f1"), (int, float)))
    case["f1"] = case["f1"] + 0.5
    proc = verify_of(r, d, "--tolerance", "1e9")
    head = proc.stdout.splitlines()[0] if proc.stdout else ""
    if proc.returncode == 0 and "tolerance" not in head and "within 1e+09" not in head:
        problems.append(f"an F1 raised by 0.5 verifies with --tolerance 1e9 and the verdict does not say so: {head[:160]}")
    return joined(*problems)


def _huge_n(proc: subprocess.CompletedProcess) -> str:
    """'' when ``-n 1000000000`` was refused in one line naming the option (``-n`` or ``--cases``)."""
    problem = one_line(proc)
    if problem:
        return f"-n 1000000000: {problem}"
    return "" if "-n" in proc.stderr or "--cases" in proc.stderr else f"-n 1000000000: {proc.stderr.strip()[:160]}"


def n17_score_differential_bounds(r: Run) -> str:
    problems = [one_line(r.cli("score-differential", "AUC-ROC", "--reference", "AUC-ROC", "--tolerance", "inf"),
                         "--tolerance"),
                _huge_n(r.cli("score-differential", "AUC-ROC", "--reference", "AUC-ROC", "-n", "1000000000",
                              timeout=60))]
    proc = r.cli("score-differential", "AUC-ROC", "--reference", "AUC-ROC", "-n", "2", "--family", "one_value",
                 "--family", "one_value")
    if proc.returncode == 0 and proc.stdout.count("one_value:") > 1:
        problems.append("a repeated --family runs twice")
    return joined(*problems)


def n14_cases_file_compared(r: Run) -> str:
    d = base_report(r)
    d["fixtures"]["cases_file"] = "anything.json"
    proc = verify_of(r, d)
    if proc.returncode != 1 or "cases_file" not in proc.stdout:
        return f"an edited fixtures.cases_file: exit {proc.returncode}: {proc.stdout.strip()[:160]}"
    return ""


def n16_state_digests(r: Run) -> str:
    r.write("states.py", """\
        import numpy as np

        class E:
            def __init__(self, **kw):
                self.__dict__.update(kw)
            def __call__(self, t, p):
                return 1.0, 1.0

        def closure(k):
            def g(x):
                return x * k
            return g

        pairs = {
            "lambda": (E(fn=lambda x: x), E(fn=lambda x: x * 2)),
            "closure": (E(fn=closure(2)), E(fn=closure(3))),
            "generator seed": (E(rng=np.random.default_rng(1)), E(rng=np.random.default_rng(2))),
            "nested object": (E(cfg={"a": [1, {"b": E(z=1)}]}), E(cfg={"a": [1, {"b": E(z=2)}]})),
        }
        """)
    code = ("import states\nfrom oipr_bench.auditing.calling.resolve import resolve\n"
            "for k, (a, b) in states.pairs.items():\n"
            "    print(k, '=' if resolve(a).state == resolve(b).state else '!=')\n")
    proc = python_code(r, code)
    if proc.returncode != 0:
        return f"exit {proc.returncode}: {proc.stderr.strip()[-200:]}"
    same = [line.rsplit(" ", 1)[0] for line in proc.stdout.splitlines() if line.endswith(" =")]
    return f"equal state digests: {', '.join(same)}" if same else ""


def n18_plugin_options_repeated(r: Run) -> str:
    problems = []
    for argv in (("--evaluator=pr.py:f", "--oipr-report=a.json", "--oipr-report=b.json"),
                 ("--evaluator=PW", "--evaluator=OIPR")):
        proc = r.pytest(*argv)
        if proc.returncode != 4:
            problems.append(f"{' '.join(argv)}: exit {proc.returncode}, not refused")
    return joined(*problems)


def n7_score_differential_timeout(r: Run) -> str:
    r.write("sevs.py", SEVS)
    t0 = time.monotonic()
    proc = r.cli("score-differential", "sevs.py:sleeps", "--reference", "AUC-ROC", "-n", "1", "--family", "one_value",
                 "--timeout", "2", timeout=300)
    if "unrecognized arguments" in proc.stderr:
        return "score-differential has no --timeout"
    out = (proc.stdout + proc.stderr).lower()
    if proc.returncode in (0, -999) or ("timed out" not in out and "timeout" not in out):
        return f"exit {proc.returncode} after {time.monotonic() - t0:.0f} s: {proc.stderr.strip()[-200:]}"
    return ""


def shrink_budget_bounds_wall_time(r: Run) -> str:
    r.write("sevs.py", SEVS)
    budget = 10.0
    t0 = time.monotonic()
    proc = r.cli("score-differential", "sevs.py:slow_candidates", "--reference", "AUC-ROC", "-n", "1", "--family",
                 "long_series", "--shrink-budget", str(budget), timeout=900)
    wall = time.monotonic() - t0
    found = re.search(r"shrunk in ([0-9.]+) s", proc.stdout)
    if found is None:
        return f"no shrink: exit {proc.returncode}: {proc.stdout.strip()[-200:]}"
    took = float(found.group(1))
    slack = 0.5  # oipr_bench.auditing.regression.shrink.BUDGET_SLACK, the slack the docs state
    if took > budget + slack:
        return f"shrink took {took:.1f} s with a budget of {budget:g} s (command {wall:.0f} s)"
    return "" if "budget ran out" in proc.stdout else f"the budget ran out unsaid: {proc.stdout.strip()[-200:]}"


def n6_threshold_messages(r: Run) -> str:
    bounds, said = [], []
    for value in ("0", "-5"):  # both below the least number of thresholds: the message names one bound
        proc = r.cli("audit", "VUS-PR", "--param", f"thresholds={value}")
        if proc.returncode != 2:
            return f"thresholds={value}: exit {proc.returncode}"
        bounds.append(set(re.findall(r"-?\d+(?:\.\d+)?", proc.stderr)) - {value})
        said.append(proc.stderr.strip()[-100:])
    return "" if bounds[0] == bounds[1] else f"thresholds=0 says {said[0]!r}, thresholds=-5 says {said[1]!r}"


def n8_score_differential_names_a_mutation(r: Run) -> str:
    r.write("sevs.py", SEVS)
    proc = r.cli("score-differential", "sevs.py:zeroes", "--reference", "AUC-ROC", "-n", "2", "--family", "one_value")
    return "" if "mutated its input" in proc.stdout + proc.stderr else f"exit {proc.returncode}, the mutation not named"


def n10_reproduce_data_not_a_file(r: Run) -> str:
    source = smd_folder()
    problems = []
    for k, (kind, words) in enumerate((("folder", "is a folder"), ("symlink loop", "loop"), ("FIFO", "FIFO"))):
        data = r.folder / f"d{k}"  # a neutral name: the message must say what the file is, not echo the folder
        data.mkdir()
        for csv in source.glob("SMD_*.csv"):
            (data / csv.name).symlink_to(csv)
        target = data / "SMD_DLinear.csv"
        target.unlink()
        if kind == "folder":
            target.mkdir()
        elif kind == "symlink loop":
            target.symlink_to(target)
        else:
            os.mkfifo(target)
        proc = r.cli("reproduce", "--table", "6", "--data", str(data), timeout=120)
        if proc.returncode != 2 or words not in proc.stderr or "missing SMD_DLinear.csv" in proc.stderr:
            problems.append(f"{kind}: exit {proc.returncode}: {proc.stderr.strip()[-160:]}")
    return joined(*problems)


def n11_atlas_where_long_argument(r: Run) -> str:
    proc = r.cli("atlas", "--where", "x" * 100_000 + "=yes")
    if proc.returncode != 2:
        return f"exit {proc.returncode}"
    return "" if len(proc.stderr) < 2_000 else f"the message is {len(proc.stderr)} characters long"


def n15_verify_an_html_report(r: Run) -> str:
    r.cli("report", "pr.py:f", "-o", "report.html")
    if not (r.folder / "report.html").is_file():
        raise RuntimeError("report wrote no report.html")
    return one_line(r.cli("verify", "report.html"), "report.html", "HTML")


def docs_range_auc_standalone(r: Run) -> str:
    text = (REPO / "oipr_bench" / "evaluators" / "scores" / "range_auc.py").read_text(encoding="utf-8")
    return "range_auc.py still says the standalone RangeAUC has no number to match" \
        if "has no number to match" in text else ""


# --------------------------------------------------------------------------- leftovers
def leftover_expectation_provenance_verified(r: Run) -> str:
    d = base_report(r)
    problems = []
    for field, value in (("expectation_source", "--expect"), ("expectation_reason", "edited by hand")):
        edited = json.loads(json.dumps(d))
        edited["characteristics"][0][field] = value
        proc = verify_of(r, edited)
        # refused (exit 1), naming the field or the signed declarations ("expect:") the edit broke
        if proc.returncode != 1 or (field not in proc.stdout and "expect:sha256" not in proc.stdout):
            problems.append(f"an edited {field} verifies: exit {proc.returncode}")
    return joined(*problems)


def leftover_atlas_profile_number(r: Run) -> str:
    import shutil

    shutil.copytree(REPO / "atlas", r.folder / "A")
    proc = r.cli("atlas", "--check", "A", "--only", "oipr-bench:PW", timeout=600)
    if proc.returncode != 0:
        raise Skipped(f"needs an atlas environment where `oipr-bench atlas --check` runs (exit {proc.returncode}: "
                      f"{(proc.stderr or proc.stdout).strip()[-120:]})")
    profile = next((r.folder / "A" / "profiles").glob("oipr-bench*PW*.json"))
    doc = json.loads(profile.read_text())
    case = next(c for c in doc["report"]["cases"] if isinstance(c.get("f1"), (int, float)))
    case["f1"] = case["f1"] + 0.25
    profile.write_text(json.dumps(doc, indent=1))
    proc = r.cli("atlas", "--check", "A", "--only", "oipr-bench:PW", timeout=600)
    if proc.returncode != 1 or not (profile.name in proc.stdout or "oipr-bench:PW: report case[" in proc.stdout):
        return f"an edited number in profiles/{profile.name} passes atlas --check (exit {proc.returncode})"
    return ""


V = "tests/test_verify_code_trust.py::"
P = "tests/test_protected_outputs.py::"
SD = "tests/test_score_differential.py::"
TC = "tests/test_trust_chain.py::"
SMD_T = "tests/test_reproduction_smd.py::"
W = "tests/test_shrink_wall_time.py::"
ATTACKS: list[tuple[str, Callable[[Run], str], str]] = [
    ("N1 verify: a report naming io:FileIO/_io:FileIO", n1_verify_constructs_what_a_report_names,
     V + "test_verify_refuses_code_the_report_names_from_elsewhere_before_running_it"),
    ("N12 -o/--oipr-report over oipr-bench, numpy, the schema", n12_outputs_over_oipr_bench_and_its_environment,
     P + "test_audit_refuses_to_write_over_oipr_benchs_own_init, test_audit_refuses_to_write_over_numpys_init_in_the_"
         "environment, test_audit_refuses_to_write_over_the_report_schema, test_the_plugin_refuses_the_report_schema_as"
         "_its_report, test_no_cli_output_option_writes_into_a_protected_place"),
    ("N3 score-differential: SystemExit(0), os._exit(3)", n3_system_exit_in_a_score_evaluator,
     SD + "test_the_command_names_an_evaluator_that_calls_exit, "
          "tests/test_hostile_processes.py::test_os_exit_in_process_is_named_not_a_silent_end"),
    ("N9 reproduce --table 6: --lower-is-better/--bounds for P/R", n9_reproduce_scalar_options_for_a_pr_evaluator,
     SMD_T + "test_a_scalar_declaration_for_a_precision_recall_evaluator_is_refused"),
    ("N2 score-differential: a non-deterministic evaluator", n2_score_differential_non_deterministic,
     SD + "test_a_non_deterministic_evaluator_is_named_not_shrunk, test_a_deterministic_difference_is_confirmed_before"
          "_it_is_printed"),
    ("N4 masked score arrays", n4_masked_scores, "tests/test_hostile_inputs.py::test_masked_scores_are_refused_like_nan"),
    ("N5 datetime64/timedelta64 scores", n5_datetime_scores,
     "tests/test_hostile_inputs.py::test_time_valued_scores_are_refused"),
    ("N13 verify --tolerance inf / 1e9", n13_verify_tolerance,
     TC + "test_verify_refuses_a_tolerance_that_is_not_a_finite_number, test_verify_states_a_tolerance_other_than_its"
          "_default"),
    ("N17 score-differential: --tolerance inf, -n 1e9, --family twice", n17_score_differential_bounds,
     SD + "test_the_command_usage_errors_are_one_line"),
    ("N14 verify: an edited fixtures.cases_file", n14_cases_file_compared, TC + "test_verify_catches_an_edited_cases_file"),
    ("N16 state digests: lambda, closure, seed, nested", n16_state_digests,
     TC + "test_objects_differing_in_a_lambda_a_closure_a_generator_or_a_nested_object_sign_differently"),
    ("N18 plugin: --oipr-report/--evaluator given twice", n18_plugin_options_repeated,
     "tests/test_hostile_conflicts.py::test_the_plugin_refuses_any_single_valued_option_given_twice"),
    ("N7 score-differential --timeout", n7_score_differential_timeout, SD + "test_the_command_ends_a_call_after_its_timeout"),
    ("N6 thresholds=0 / -5: one message", n6_threshold_messages,
     "tests/test_hostile_messages.py::test_a_threshold_count_below_one_gets_one_message"),
    ("N8 score-differential names a mutated input", n8_score_differential_names_a_mutation,
     SD + "test_the_command_names_an_evaluator_that_mutates_its_input"),
    ("N10 reproduce --data: a folder/loop/FIFO for a CSV", n10_reproduce_data_not_a_file,
     SMD_T + "test_a_data_file_that_is_not_a_regular_file_is_named_as_such"),
    ("N11 atlas --where: a 100,000-character argument", n11_atlas_where_long_argument,
     "tests/test_hostile_atlas.py::test_a_huge_where_argument_is_cut_in_the_message"),
    ("N15 verify report.html", n15_verify_an_html_report,
     "tests/test_verify.py::test_verify_of_an_html_report_says_it_is_not_verifiable"),
    ("docs: the standalone RangeAUC's numbers", docs_range_auc_standalone, ONLY_HERE),
    ("leftover M4: edited expectation_source/reason", leftover_expectation_provenance_verified,
     TC + "test_verify_catches_an_edited_expectation_reason, test_verify_catches_a_default_expectation_edited_into_a"
          "_declared_one, test_verify_catches_an_edited_reason_of_a_declared_expectation"),
    ("leftover L1: edited number in atlas/profiles (atlas env)", leftover_atlas_profile_number,
     "tests/test_atlas_cli.py::test_check_catches_an_edited_number_inside_a_stored_report"),
    ("leftover: a slow shrink candidate overruns the budget", shrink_budget_bounds_wall_time,
     W + "test_the_score_differential_command_prints_the_reached_case_within_its_budget, test_a_score_differential_run"
         "_stops_at_the_budget_and_prints_a_real_counterexample, test_the_binary_differential_stops_at_the_budget_and"
         "_prints_a_pair_that_differs, test_an_audit_runs_no_family_after_one_abandoned_a_call"),
]


def named_tests(covered_by: str) -> list[tuple[str, str]]:
    """The ``(file, test name)`` pairs a "covered by" entry names: ``file::name``, then bare names in the same file."""
    if covered_by == ONLY_HERE:
        return []
    named, file = [], ""
    for item in covered_by.split(", "):
        file, name = item.split("::") if "::" in item else (file, item)
        named.append((file, name))
    return named


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", default="", help="run only attacks whose name contains this text")
    args = parser.parse_args(argv)
    findings = skipped = 0
    for name, attack, covered_by in ATTACKS:
        if args.k.lower() not in name.lower():
            continue
        with tempfile.TemporaryDirectory() as folder:
            t0 = time.monotonic()
            try:
                problem = attack(Run(Path(folder)))
                status = f"FINDING: {problem}" if problem else "held"
            except Skipped as reason:
                problem, status = "", f"skipped: {reason}"
                skipped += 1
            except Exception as exc:  # noqa: BLE001 - an attack that cannot even run is a finding
                problem = f"{type(exc).__name__}: {exc}"
                status = f"FINDING: {problem}"
        findings += bool(problem)
        print(f"{name:58s} {time.monotonic() - t0:6.1f} s  {status}\n{'':60s}covered by {covered_by}", flush=True)
    print(f"{findings} finding(s), {skipped} skipped")
    return 1 if findings else 0


if __name__ == "__main__":
    raise SystemExit(main())
