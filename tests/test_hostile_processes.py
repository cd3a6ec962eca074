"""Threads, forks, exit handlers, closed streams and process groups of a hostile evaluator.

Each test runs the real program (``python -m oipr_bench`` or pytest) in a subprocess, as a user would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from oipr_bench.auditing.calling.runner import TIMED_OUT, Caller

REPO = Path(__file__).resolve().parents[1]


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))


def _run(folder: Path, argv: list[str], timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *argv], cwd=folder, env=_env(), capture_output=True, text=True,
                          timeout=timeout)


def _audit(folder: Path, source: str, *flags: str) -> subprocess.CompletedProcess:
    (folder / "ev.py").write_text(textwrap.dedent(source))
    return _run(folder, ["-m", "oipr_bench", "audit", "ev.py:f", "--format", "json", *flags])


SPAMMER = """
    import sys, threading
    def _spam():
        while True:
            sys.stdout.write("x" * 100 + "\\n")
            print("spam from a thread")
    _started = []
    def f(t, p):
        if len(_started) < 4:
            _started.append(1)
            threading.Thread(target=_spam, daemon=True).start()
        return 0.5, 0.5
"""


@pytest.mark.parametrize("attempt", range(3))
def test_a_printing_daemon_thread_never_crashes_the_run_nor_reaches_json_stdout(tmp_path, attempt):
    proc = _audit(tmp_path, SPAMMER)
    assert proc.returncode == 1, proc.stderr[-500:]  # PW-like profile: a failing audit, not a signal
    assert json.loads(proc.stdout)["format"] == "oipr-bench-report"


@pytest.mark.parametrize("body", ["sys.__stdout__.close()", "sys.stdout.close()", "sys.stdout.detach()",
                                  "sys.stderr.detach()"])
def test_closing_or_detaching_the_streams_inside_a_call_harms_nothing(tmp_path, body):
    proc = _audit(tmp_path, f"""
        import sys
        def f(t, p):
            {body}
            return 0.5, 0.5
    """)
    assert proc.returncode == 1, proc.stderr[-500:]
    report = json.loads(proc.stdout)
    assert all(c["status"] == "ok" for c in report["cases"])


@pytest.mark.parametrize("isolate", [False, True])
def test_an_evaluator_that_forks_does_not_run_the_audit_twice(tmp_path, isolate):
    proc = _audit(tmp_path, """
        import os
        _done = []
        def f(t, p):
            if not _done:
                _done.append(1)
                os.fork()
            return 0.5, 0.5
    """, *(["--isolate"] if isolate else []))
    assert proc.returncode == 1
    json.loads(proc.stdout)  # one report, no "Extra data"
    assert "Traceback" not in proc.stderr and "UnpicklingError" not in proc.stderr


@pytest.mark.parametrize("isolate", [False, True])
def test_an_atexit_os_exit_cannot_turn_a_failing_audit_into_success(tmp_path, isolate):
    proc = _audit(tmp_path, """
        import atexit, os
        atexit.register(lambda: os._exit(0))
        def f(t, p):
            return 0.9, 0.1
    """, *(["--isolate"] if isolate else []))
    assert proc.returncode == 1


NON_DAEMON = """
    import threading, time
    _s = []
    def f(t, p):
        if not _s:
            _s.append(1)
            threading.Thread(target=time.sleep, args=(600,), name="sleeper").start()
        return 0.5, 0.5
"""


def test_a_non_daemon_thread_does_not_keep_audit_alive(tmp_path):
    t0 = time.monotonic()
    proc = _audit(tmp_path, NON_DAEMON)
    assert proc.returncode == 1 and time.monotonic() - t0 < 60
    json.loads(proc.stdout)


def test_a_non_daemon_thread_does_not_keep_pytest_alive(tmp_path):
    (tmp_path / "ev.py").write_text(textwrap.dedent(NON_DAEMON))
    t0 = time.monotonic()
    proc = _run(tmp_path, ["-m", "pytest", "-p", "no:cacheprovider", "-q", "--evaluator=ev.py:f"])
    assert time.monotonic() - t0 < 100
    assert proc.returncode == 1, proc.stdout[-2000:]
    assert "left 1 non-daemon thread(s) running (sleeper)" in proc.stderr


def _sleepers(tag: str) -> int:
    out = subprocess.run(["pgrep", "-f", tag], capture_output=True, text=True).stdout
    return len(out.split())


ORPHANS = textwrap.dedent("""
    import os, subprocess, time

    def spawns(t, p):
        subprocess.Popen(["sleep", "{tag}"])
        time.sleep(60)
        return 0.5, 0.5

    def forks(t, p):
        if os.fork() == 0:
            os.execvp("sleep", ["sleep", "{tag}"])
        time.sleep(60)
        return 0.5, 0.5
""")


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups are POSIX")
@pytest.mark.parametrize("name, tag", [("spawns", "911.5"), ("forks", "912.5")])
def test_a_timed_out_call_leaves_no_process_behind(tmp_path, name, tag):
    (tmp_path / "orph.py").write_text(ORPHANS.replace("{tag}", tag))
    sys.path.insert(0, str(tmp_path))
    try:
        import orph  # noqa: PLC0415 - a module written by this test
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("orph", None)
    with Caller(getattr(orph, name), timeout=1.0) as caller:
        assert caller(np.array([0, 1, 0]), np.array([0, 1, 1])).kind == TIMED_OUT
    deadline = time.monotonic() + 10
    while _sleepers(f"sleep {tag}") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _sleepers(f"sleep {tag}") == 0


def test_os_exit_in_process_is_named_not_a_silent_end(tmp_path, monkeypatch, capsys):
    # without --isolate, os._exit(3) used to end audit and score-differential with no message
    from oipr_bench.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "quits.py").write_text("import os\ndef f(t, p):\n    os._exit(3)\n")
    assert main(["audit", "quits.py:f"]) == 1
    captured = capsys.readouterr()
    assert "raised: called os._exit(3)" in captured.out + captured.err
    assert main(["score-differential", "quits.py:f", "--reference", "AUC-ROC", "-n", "1", "--family", "one_value"]) == 1
    assert "the evaluator called os._exit(3)" in capsys.readouterr().out
