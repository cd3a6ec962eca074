"""Outputs never replace inputs.

One rule (``oipr_bench.io.check_output`` and the writer behind it): no command writes over a file
it reads in the same run, whatever the spelling of the path, and every ``-o`` means the same.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from oipr_bench.cli import main
from oipr_bench.errors import OverwriteRefused
from oipr_bench.io import atomic_write_text, note_input, run_scope

REPO = Path(__file__).resolve().parents[1]

PR = textwrap.dedent(
    """
    import numpy as np

    def f(y_true, y_pred):
        tp = int(np.sum((y_true == 1) & (y_pred == 1)))
        return (tp / y_pred.sum() if y_pred.sum() else 0.0), (tp / y_true.sum() if y_true.sum() else 0.0)
    """
)
SERIES = "gt,pred\n0,0\n1,1\n1,0\n0,1\n0,0\n"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pr.py").write_text(PR)
    (tmp_path / "data.csv").write_text(SERIES)
    return tmp_path


def test_sweep_never_writes_its_csv_over_the_input_series(folder, capsys):
    assert main(["sweep", "--input", "data.csv", "-o", "data", "--format", "csv"]) == 2
    err = capsys.readouterr().err
    assert "refusing to write over the input series" in err and "data.csv" in err
    assert (folder / "data.csv").read_text() == SERIES


def test_sweep_prefix_with_a_trailing_slash_is_refused_like_audit_output(folder, capsys):
    (folder / "victimdir").mkdir()
    (folder / "victimdir.csv").write_text("precious")
    assert main(["sweep", "--input", "data.csv", "-o", "victimdir/", "--format", "csv"]) == 2
    assert "give a file name, not a folder" in capsys.readouterr().err
    assert (folder / "victimdir.csv").read_text() == "precious"
    assert main(["sweep", "--input", "data.csv", "-o", "victimdir", "--format", "csv"]) == 2
    assert "is a folder" in capsys.readouterr().err


@pytest.mark.parametrize("spelling", ["pr.py", "./pr.py", "link.py", "hard.py", "{abs}"])
def test_audit_never_writes_over_the_evaluator_source(folder, capsys, spelling):
    (folder / "link.py").symlink_to("pr.py")
    os.link(folder / "pr.py", folder / "hard.py")
    target = spelling.format(abs=folder / "pr.py")
    assert main(["audit", "pr.py:f", "-o", target]) == 2
    err = capsys.readouterr().err
    assert "refusing to write over the evaluator source" in err and err.count("\n") == 1
    assert (folder / "pr.py").read_text() == PR


def test_audit_never_writes_over_the_expectation_file(folder, capsys):
    (folder / "exp.toml").write_text('fragments_merging = "no"\n')
    assert main(["audit", "pr.py:f", "--expect-file", "exp.toml", "-o", "exp.toml"]) == 2
    assert "refusing to write over the expectation file" in capsys.readouterr().err
    assert (folder / "exp.toml").read_text() == 'fragments_merging = "no"\n'


def test_report_never_writes_over_a_module_evaluator_source(folder, capsys):
    (folder / "mymod.py").write_text(PR)
    (folder / "page.html").symlink_to("mymod.py")
    assert main(["report", "mymod:f", "-o", "page.html"]) == 2
    assert "refusing to write over the evaluator source" in capsys.readouterr().err
    assert (folder / "mymod.py").read_text() == PR


def test_the_writer_itself_refuses_an_input_of_the_run(tmp_path):
    src = tmp_path / "in.json"
    src.write_text("{}")
    with run_scope():
        note_input(src, "a case file")
        with pytest.raises(OverwriteRefused, match="a case file"):
            atomic_write_text(tmp_path / "." / "in.json", "{}\n")
    atomic_write_text(src, "[]\n")  # outside the run the file is an ordinary file again
    assert src.read_text() == "[]\n"


def test_pytest_report_never_replaces_the_evaluator_source(tmp_path):
    (tmp_path / "pr.py").write_text(PR)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--evaluator=pr.py:f",
                           "--oipr-report=pr.py", "-q"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 4, proc.stdout + proc.stderr
    assert "refusing to write over the evaluator source" in proc.stderr
    assert (tmp_path / "pr.py").read_text() == PR


def _disk_full_after(monkeypatch, good: int) -> list[int]:
    """Let ``good`` staged writes succeed, then fail every later one like a full disk."""
    import errno

    import oipr_bench.io as io_module
    from _faults import HalfWriter, OsProxy

    attempts: list[int] = []

    def fdopen(fd, mode="r", *args, **kwargs):
        attempts.append(fd)
        if len(attempts) <= good:
            return os.fdopen(fd, mode, *args, **kwargs)
        return HalfWriter(fd, mode, OSError(errno.ENOSPC, "No space left on device"))

    monkeypatch.setattr(io_module, "os", OsProxy(fdopen=fdopen))
    return attempts


def test_build_scenarios_on_a_full_disk_writes_the_whole_set_or_nothing(tmp_path, monkeypatch, capsys):
    out = tmp_path / "out"
    assert main(["build-scenarios", "--out", str(out)]) == 0
    capsys.readouterr()
    before = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    assert len(before) > 9
    for name in before:  # every file "old", so a half-replaced set would show
        (out / name).write_bytes(b"OLD " + name.encode())
    attempts = _disk_full_after(monkeypatch, good=8)
    assert main(["build-scenarios", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert len(attempts) == 9 and "No space left on device" in err and str(out) in err  # names the file
    after = {str(p.relative_to(out)): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == {n: b"OLD " + n.encode() for n in before}  # no new file, no temporary file left


def test_a_write_error_names_the_file(tmp_path, monkeypatch, capsys):
    _disk_full_after(monkeypatch, good=0)
    target = tmp_path / "r.json"
    assert main(["audit", "OIPR", "-o", str(target)]) == 2
    err = capsys.readouterr().err
    assert "No space left on device" in err and "r.json" in err
