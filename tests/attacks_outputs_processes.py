"""Re-run the hostile-input findings on outputs, processes and messages (M1, M2, M6, M7, L2-L7, L11-L13).

Usage (from the repository root)::

    python tests/attacks_outputs_processes.py            # every attack, one line each, exit 1 on a finding
    python tests/attacks_outputs_processes.py -k pytest  # only the attacks whose name contains "pytest"

Each attack is the issue's reproduction, run as a user would in a fresh temporary folder (the
helpers of ``tests/attacks_cli_plugin.py``), and prints ``held`` or ``FINDING`` with the pytest test
that covers it.  No attack has a fixed time limit: the one that waits (M6) measures how many
processes exist, not how long anything takes, and the thread attack (M7) waits for the run to end
with a generous timeout (a hang is a finding, a loaded machine is not).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
from attacks_cli_plugin import PR, REPO, Run, one_line  # noqa: E402

T = "test_hostile_outputs_processes::"


def _kept(path: Path, before: str) -> str:
    return "" if path.read_text() == before else f"{path.name} was replaced"


def _refused_by_pytest(proc: subprocess.CompletedProcess, target: Path, before: str) -> str:
    if proc.returncode != 4 or "Traceback" in proc.stderr:
        return f"exit {proc.returncode}: {(proc.stdout + proc.stderr)[-300:]}"
    return _kept(target, before)


def m1_pytest_inputs(r: Run) -> str:
    files = {"test_a.py": "def test_x():\n    assert 1\n", "conftest.py": "import pytest\n",
             "pytest.ini": "[pytest]\naddopts = -p no:cacheprovider\n", "pkg/__init__.py": "", "pkg/mod.py": PR,
             "helper.py": PR.replace("def f", "def g"), "ev2.py": "from helper import g\ndef f(t,p):\n    return g(t,p)\n"}
    (r.folder / "pkg").mkdir()
    for name, text in files.items():
        (r.folder / name).write_text(text)
    problems = []
    for ev, flag, target in (("pr.py:f", "--oipr-report", "test_a.py"), ("pr.py:f", "--oipr-html", "conftest.py"),
                             ("pr.py:f", "--oipr-report", "pytest.ini"), ("pkg.mod:f", "--oipr-report", "pkg/__init__.py"),
                             ("ev2.py:f", "--oipr-report", "helper.py")):
        problems.append(_refused_by_pytest(r.pytest(f"--evaluator={ev}", f"{flag}={target}"), r.folder / target,
                                           files[target]))
    os.symlink("test_a.py", r.folder / "r.json")  # passes the name check: only the input rule stands
    proc = r.pytest("--evaluator=pr.py:f", "--oipr-report=r.json")
    problems.append(_refused_by_pytest(proc, r.folder / "test_a.py", files["test_a.py"])
                    or ("" if "test file" in proc.stderr else "message does not name the test file"))
    problems.append(one_line(r.cli("audit", "pkg.mod:f", "-o", "pkg/__init__.py"), "__init__.py")
                    or _kept(r.folder / "pkg/__init__.py", ""))
    return "; ".join(p for p in problems if p)


def m2_two_outputs(r: Run) -> str:
    problems = []
    for args in (("--oipr-report=same.json", "--oipr-html=same.json"), ("--oipr-report=r.json", "--junitxml=r.json"),
                 ("--oipr-html=x.json",), ("--oipr-report=x.html",)):
        proc = r.pytest("--evaluator=pr.py:f", *args)
        if proc.returncode != 4 or "Traceback" in proc.stderr:
            problems.append(f"{args}: exit {proc.returncode}")
    leftovers = [p.name for p in r.folder.iterdir() if p.suffix in (".json", ".html")]
    return "; ".join(problems + ([f"written: {leftovers}"] if leftovers else []))


def l2_missing_folder(r: Run) -> str:
    os.symlink(r.folder / "nowhere" / "zz", r.folder / "dangling")
    problems = [one_line(r.cli("audit", "PW", "-o", "dangling"), "does not exist"),
                one_line(r.cli("audit", "PW", "-o", "nodir/x.json"), "nodir")]
    created = [n for n in ("nowhere", "nodir") if (r.folder / n).exists()]
    return "; ".join([p for p in problems if p] + ([f"created {created}"] if created else []))


def l3_empty_and_dash(r: Run) -> str:
    problems = [one_line(r.cli("audit", "PW", "-o", ""), "empty"), one_line(r.cli("audit", "PW", "-o", "-"), "'-'")]
    proc = r.pytest("--evaluator=PW", "--oipr-report=-")
    if proc.returncode != 4:
        problems.append(f"plugin --oipr-report=-: exit {proc.returncode}")
    if (r.folder / "-").exists():
        problems.append("a file named '-' was written")
    return "; ".join(p for p in problems if p)


def l4_json_stderr(r: Run) -> str:
    proc = r.cli("audit", "pr.py:f", "--format", "json", "-o", "r.json")
    if proc.returncode != 1:
        return f"exit {proc.returncode}"
    return "" if "oipr-bench audit: characteristic" in proc.stderr else f"stderr lacks the problems: {proc.stderr[:200]}"


SLOW_WRITE = textwrap.dedent("""
    import os, sys, time
    real = os.fsync
    def slow(fd):
        open("staging", "w").close()
        time.sleep(30)
        real(fd)
    os.fsync = slow
    from oipr_bench.cli import main
    sys.exit(main(["audit", "pr.py:f", "--format", "json", "-o", "r.json"]))
""")


def l5_sigterm_during_write(r: Run) -> str:
    (r.folder / "r.json").write_text("OLD")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.Popen([sys.executable, "-c", SLOW_WRITE], cwd=r.folder, env=env, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 600
    while not (r.folder / "staging").exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            return "the write never started"
        time.sleep(0.1)
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=120)
    left = [p.name for p in r.folder.iterdir() if p.name.endswith(".tmp")]
    return (f"temporary file left: {left}" if left else "") or _kept(r.folder / "r.json", "OLD")


def m6_jobs_clamped(r: Run) -> str:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.Popen([sys.executable, "-m", "oipr_bench", "atlas", "--check", "--only", "oipr-bench:PW",
                             "--only", "oipr-bench:PA", "--jobs", "40"], cwd=REPO, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    most = 0
    while proc.poll() is None:
        kids = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
        most = max(most, len(kids))
        time.sleep(0.2)
    err = proc.stderr.read() if proc.stderr else ""
    limit = min(2, os.cpu_count() or 1)
    if most > limit + 1:  # the pool's workers (+ one resource tracker at most)
        return f"{most} child processes for 2 rows"
    return "" if "clamped" in err or limit >= 40 else "no message saying --jobs was clamped"


def m7_user_thread(r: Run) -> str:
    r.write("test_thr.py", """
        import threading, time
        def test_thread():
            def work():
                time.sleep(6); open("thread_done.txt", "w").write("ok")  # outlives the rest of the run
            threading.Thread(target=work).start()
    """)
    proc = r.pytest("test_thr.py", "--evaluator=pr.py:f", timeout=600)
    if "non-daemon thread" in proc.stderr:
        return "the user's thread was blamed on the evaluator"
    return "" if (r.folder / "thread_done.txt").exists() else "the user's thread was killed"


def l6_scenario_name(r: Run) -> str:
    doc = json.loads((REPO / "scenarios" / "overlap_proportion.json").read_text())
    doc["cases"] = doc["cases"][:1]
    doc["cases"][0]["case"], doc["cases"][0]["id"] = "c9", "overlap_proportion/c9"
    (r.folder / "c07.json").write_text(json.dumps(doc))
    return one_line(r.cli("audit", "pr.py:f", "--cases", "c07.json"), "overlap_proportion", "built-in dataset")


def _random_doc() -> dict:
    doc = json.loads((REPO / "scenarios" / "random_detector.json").read_text())
    doc["scenario"], doc["cases"] = "my_random", doc["cases"][:1]
    doc["cases"][0]["id"] = "my_random/" + doc["cases"][0]["case"]
    return doc


def l7_reason_first(r: Run) -> str:
    doc = _random_doc()
    doc["cases"][0]["y_pred"] = [[0, 1]]
    (r.folder / "c23.json").write_text(json.dumps(doc))
    return one_line(r.cli("audit", "pr.py:f", "--cases", "c23.json"), "must not have 'y_pred'")


def l11_runs_vs_generator(r: Run) -> str:
    doc = _random_doc()
    doc["cases"][0]["runs"][0] = [[0, 500]]
    (r.folder / "c11.json").write_text(json.dumps(doc))
    return one_line(r.cli("audit", "pr.py:f", "--cases", "c11.json"), "runs[0]", "generator")


def l12_recursion_limit(r: Run) -> str:
    r.write("g3.py", "import sys\n" + PR.replace("def f(t, p):\n", "def f(t, p):\n    sys.setrecursionlimit(60)\n"))
    proc = r.cli("audit", "g3.py:f", "--suite", "all", "-o", "x.json")
    if "Traceback" in proc.stderr or proc.returncode not in (0, 1):
        return f"exit {proc.returncode}: {proc.stderr[-300:]}"
    return "" if (r.folder / "x.json").exists() else "no report"


def l13_sibling_import(r: Run) -> str:
    (r.folder / "imp").mkdir()
    r.write("imp/helper.py", PR.replace("def f", "def g"))
    r.write("imp/ev.py", "from helper import g\ndef f(t, p):\n    return g(t, p)\n")
    problems = []
    for proc in (r.cli("audit", "imp/ev.py:f"), r.pytest("--evaluator=imp/ev.py:f", "-k", "perfect")):
        if "ModuleNotFoundError" in proc.stdout + proc.stderr or proc.returncode not in (0, 1):
            problems.append(f"exit {proc.returncode}: {(proc.stdout + proc.stderr)[-200:]}")
    return "; ".join(problems)


ATTACKS: list[tuple[str, Callable[[Run], str], str]] = [
    ("M1 outputs onto pytest/evaluator inputs", m1_pytest_inputs,
     T + "test_pytest_report_never_replaces_a_collected_test_file (and the 5 tests after it)"),
    ("M2 two outputs on one path, misnamed reports", m2_two_outputs,
     T + "test_plugin_refuses_one_path_for_the_json_and_the_html_report, ..._junitxml_path, ..._says_otherwise"),
    ("L2 -o into a missing folder / dangling symlink", l2_missing_folder,
     T + "test_a_missing_parent_folder_is_an_error_not_created, test_a_dangling_symlink_into_a_missing_folder_is_an_error"),
    ("L3 -o '' and -o -", l3_empty_and_dash, T + "test_cli_refuses_an_empty_or_dash_output, test_plugin_refuses_an_empty_or_dash_report"),
    ("L4 audit --format json exit 1 names problems", l4_json_stderr, T + "test_audit_json_exit_1_names_the_problems_on_stderr"),
    ("L5 SIGTERM during the atomic write", l5_sigterm_during_write, T + "test_sigterm_during_the_write_leaves_no_temporary_file"),
    ("M6 atlas --jobs 40 for 2 rows", m6_jobs_clamped, T + "test_profile_all_never_starts_more_workers_than_rows"),
    ("M7 the user's own thread", m7_user_thread, T + "test_the_users_own_thread_is_neither_blamed_nor_killed"),
    ("L6 cases file reusing a scenario name", l6_scenario_name, T + "test_a_user_case_may_not_reuse_a_dataset_scenario_name"),
    ("L7 schema message reason first", l7_reason_first, T + "test_a_schema_message_gives_the_reason_before_the_instance"),
    ("L11 random runs contradicting the generator", l11_runs_vs_generator,
     T + "test_a_random_case_whose_runs_contradict_its_generator_is_refused"),
    ("L12 evaluator lowering the recursion limit", l12_recursion_limit,
     T + "test_an_evaluator_lowering_the_recursion_limit_does_not_break_the_run"),
    ("L13 file.py:name importing a sibling", l13_sibling_import, T + "test_a_file_evaluator_imports_a_module_beside_it"),
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
            problem = attack(Run(Path(folder)))
        findings += bool(problem)
        status = f"FINDING: {problem}" if problem else "held"
        print(f"{name:50s} {time.monotonic() - t0:6.1f} s  {status}\n{'':52s}covered by {covered_by}", flush=True)
    print(f"{findings} finding(s)")
    return 1 if findings else 0


if __name__ == "__main__":
    raise SystemExit(main())
