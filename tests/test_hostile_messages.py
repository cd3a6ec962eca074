"""Unclear messages made clear (issue 21, "Unclear messages" and "Also").

Each attack ends in one line that names what is wrong and where.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from oipr_bench.cli import main

from _helpers import no_hang

REPO = Path(__file__).resolve().parents[1]


def _one_line(argv: list[str], capsys, code: int = 2) -> str:
    with no_hang(30):
        assert main(argv) == code
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_an_evaluator_path_that_is_a_fifo_is_named_as_such(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    os.mkfifo(tmp_path / "evfifo.py")
    assert "is a FIFO (named pipe), not a regular file" in _one_line(["audit", "evfifo.py:f"], capsys)


def test_an_evaluator_path_that_is_a_device_is_named_as_such(capsys):
    assert "is a device, not a regular file" in _one_line(["audit", "/dev/zero:f"], capsys)


@pytest.mark.parametrize("argv, words", [
    (["atlas", "--only", "oipr-bench:PW"], "--only selects rows for --check"),
    (["atlas", "--include-slow"], "--include-slow applies to --write and --check"),
])
def test_atlas_options_without_their_mode_are_refused(capsys, argv, words):
    assert words in _one_line(argv, capsys)


def test_reproduce_names_the_case_the_dataset_lacks(monkeypatch, capsys):
    from oipr_bench import scenarios

    full = scenarios.load()
    monkeypatch.setattr(scenarios, "load", lambda path=None: [c for c in full if c.id != "sparse_anomalies/c2"])
    err = _one_line(["reproduce"], capsys)
    assert "lacks 1 case(s) Table A1 has a row for: sparse_anomalies/c2" in err


def _pytest(folder: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=300)


def test_pytest_with_an_empty_evaluator_says_so(tmp_path):
    proc = _pytest(tmp_path, "--evaluator=")
    assert proc.returncode == 4
    assert "--evaluator is empty" in proc.stderr


def test_pytest_collect_only_says_why_no_report_is_written(tmp_path):
    proc = _pytest(tmp_path, "--evaluator=PW", "--collect-only", "-q", "--oipr-report=co.json")
    assert "no report written (--oipr-report): --collect-only runs nothing" in proc.stdout
    assert not (tmp_path / "co.json").exists()
