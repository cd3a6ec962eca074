"""Hostile evaluators: output, interrupts, closed streams, deep tracebacks, orphan workers."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from oipr_bench.auditing.calling.runner import OK, RAISED, Caller, call_evaluator

Y_TRUE = np.array([0, 1, 1, 0, 0, 1, 0], dtype=np.int8)
Y_PRED = np.array([0, 1, 0, 0, 1, 1, 0], dtype=np.int8)
REPO = Path(__file__).resolve().parents[1]

PW = """
import numpy as np

def _pw(y_true, y_pred):
    tp = int(np.sum((y_true == 1) & (y_pred == 1)))
    return (tp / y_pred.sum() if y_pred.sum() else 0.0), (tp / y_true.sum() if y_true.sum() else 0.0)
"""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    return env


def _cli(argv: list[str], cwd: Path, timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "oipr_bench", *argv], cwd=cwd, env=_env(),
                          capture_output=True, text=True, timeout=timeout)


def _noisy(y_true, y_pred):
    print("hello from the evaluator")
    os.write(1, b"raw fd-1 bytes\n")
    return 0.5, 0.5


# --------------------------------------------------------------------------- item 4: stdout stays ours
@pytest.mark.parametrize("isolate", [False, True])
def test_evaluator_output_goes_to_stderr_not_stdout(capfd, isolate):
    with Caller(_noisy, isolate=isolate) as caller:
        outcome = caller(Y_TRUE, Y_PRED)
    assert outcome.kind == OK
    out, err = capfd.readouterr()
    assert out == ""
    assert "hello from the evaluator" in err and "raw fd-1 bytes" in err


@pytest.mark.parametrize("isolate", [[], ["--isolate"]], ids=["in_process", "isolated"])
def test_audit_json_on_stdout_stays_valid_json_when_the_evaluator_prints(tmp_path, isolate):
    (tmp_path / "noisy.py").write_text(PW + textwrap.dedent("""
        import os
        def ev(y_true, y_pred):
            print("{not json")
            os.write(1, b"]]]\\n")
            return _pw(y_true, y_pred)
    """))
    proc = _cli(["audit", "noisy.py:ev", "--format", "json", *isolate], tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["evaluator"]["name"] == "noisy.py:ev"
    assert "{not json" in proc.stderr


# --------------------------------------------------------------------------- item 16: closed stdout
def test_an_evaluator_closing_sys_stdout_does_not_break_the_caller(capsys):
    def closer(y_true, y_pred):
        sys.stdout.close()
        sys.stderr.close()
        return 0.5, 0.5

    before = sys.stdout
    assert call_evaluator(closer, Y_TRUE, Y_PRED).kind == OK
    assert sys.stdout is before and not sys.stdout.closed
    print("still printing")
    assert "still printing" in capsys.readouterr().out


def test_cli_survives_an_evaluator_closing_stdout(tmp_path):
    (tmp_path / "closer.py").write_text(PW + textwrap.dedent("""
        import sys
        def ev(y_true, y_pred):
            sys.stdout.close()
            return _pw(y_true, y_pred)
    """))
    proc = _cli(["audit", "closer.py:ev", "--format", "json"], tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    assert json.loads(proc.stdout)["evaluator"]["name"] == "closer.py:ev"
    assert "I/O operation on closed file" not in proc.stderr


def test_plugin_survives_an_evaluator_closing_stdout(tmp_path):
    (tmp_path / "closer.py").write_text(PW + textwrap.dedent("""
        import sys
        def ev(y_true, y_pred):
            sys.stdout.close()
            return _pw(y_true, y_pred)
    """))
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--evaluator",
                           "closer.py:ev"], cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=300)
    assert proc.returncode in (0, 1), proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "I/O operation on closed file" not in proc.stdout + proc.stderr
    assert "oipr-bench profile" in proc.stdout


# --------------------------------------------------------------------------- item 9: KeyboardInterrupt
def test_an_evaluators_own_keyboard_interrupt_is_a_raised_outcome():
    def interrupting(y_true, y_pred):
        raise KeyboardInterrupt("from the evaluator")

    outcome = call_evaluator(interrupting, Y_TRUE, Y_PRED)
    assert outcome.kind == RAISED
    assert "KeyboardInterrupt" in outcome.message


def test_an_evaluators_own_keyboard_interrupt_in_a_worker_is_a_raised_outcome():
    def interrupting(y_true, y_pred):
        raise KeyboardInterrupt

    with Caller(interrupting, isolate=True) as caller:
        assert caller(Y_TRUE, Y_PRED).kind == RAISED
        assert caller(Y_TRUE, Y_PRED).kind == RAISED


def _sigint_as_in_a_terminal() -> None:
    """A program started from a terminal gets SIGINT's default action; one started in the background of a
    non-interactive shell (a CI runner's ``cmd &``) inherits it ignored, which no Ctrl-C test can exercise."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("isolate", [[], ["--isolate"]], ids=["in_process", "isolated"])
def test_a_real_ctrl_c_still_stops_the_audit(tmp_path, isolate):
    marker = tmp_path / "started"
    (tmp_path / "slow.py").write_text(textwrap.dedent(f"""
        import time
        def ev(y_true, y_pred):
            open({str(marker)!r}, "w").close()
            time.sleep(600)
            return 0.5, 0.5
    """))
    proc = subprocess.Popen([sys.executable, "-m", "oipr_bench", "audit", "slow.py:ev", *isolate], cwd=tmp_path,
                            env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=_sigint_as_in_a_terminal)
    try:
        _wait_for(marker.exists, 60)
        os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole process group
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err
    assert "interrupted" in err


# --------------------------------------------------------------------------- item 18: deep tracebacks
def test_unbounded_recursion_gives_a_short_detail_quickly():
    def recursing(y_true, y_pred):
        def down(n):  # two alternating frames: nothing for the traceback module to fold
            return up(n + 1) + 1

        def up(n):
            return down(n + 1) + 1
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(60_000)
        try:
            return down(0)
        finally:
            sys.setrecursionlimit(old)

    t0 = time.perf_counter()
    outcome = call_evaluator(recursing, Y_TRUE, Y_PRED)
    assert time.perf_counter() - t0 < 30
    assert outcome.kind == RAISED and "RecursionError" in outcome.message
    assert outcome.detail.count("\n") < 200
    assert "down" in outcome.detail and "up" in outcome.detail


# --------------------------------------------------------------------------- item 19: terminal escapes
def test_escape_sequences_in_an_exception_are_neutralised():
    def painting(y_true, y_pred):
        raise ValueError("\x1b[2J\x1b[31mall good\x1b[0m" + "x" * 5000)

    outcome = call_evaluator(painting, Y_TRUE, Y_PRED)
    assert "\x1b" not in outcome.message and "\x1b" not in outcome.detail
    assert "\\x1b[31mall good" in outcome.message
    assert len(outcome.message) < 600


# --------------------------------------------------------------------------- item 17: orphaned workers
def _wait_for(condition, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {seconds} s")
        time.sleep(0.05)


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as fh:
            return any(line.startswith("State:") and "Z" in line.split()[1] for line in fh)
    except FileNotFoundError:
        return True


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
@pytest.mark.parametrize("how", ["caller", "cli"])
def test_isolated_workers_die_with_their_parent(tmp_path, sig, how):
    pidfile = tmp_path / "worker.pid"
    (tmp_path / "spin.py").write_text(textwrap.dedent(f"""
        import os
        def ev(y_true, y_pred):
            with open({str(pidfile)!r} + ".tmp", "w") as fh:
                fh.write(str(os.getpid()))
            os.replace({str(pidfile)!r} + ".tmp", {str(pidfile)!r})
            while True:
                pass
    """))
    if how == "cli":
        argv = [sys.executable, "-m", "oipr_bench", "audit", "spin.py:ev", "--timeout", "600"]
    else:
        argv = [sys.executable, "-c", "import numpy as np, spin; from oipr_bench.auditing.calling.runner import Caller; "
                "Caller(spin.ev, isolate=True)(np.zeros(3), np.zeros(3))"]
    env = _env()
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env["PYTHONPATH"]])
    parent = subprocess.Popen(argv, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = None
    try:
        _wait_for(pidfile.exists, 60)
        worker = int(pidfile.read_text())
        assert worker != parent.pid and not _gone(worker)
        parent.send_signal(sig)
        parent.wait(timeout=30)
        _wait_for(lambda: _gone(worker), 10)
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        if worker is not None and not _gone(worker):
            os.kill(worker, signal.SIGKILL)
