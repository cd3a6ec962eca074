"""Never overwrite what is not ours."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from oipr_bench.cli import main
from oipr_bench.io import atomic_write_text

REPO = Path(__file__).resolve().parents[1]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    return env


def _device(path: Path, minor: int) -> Path:
    """A copy of /dev/null (minor 3) or /dev/full (minor 7) made with mknod; skip where not allowed."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))
    except (PermissionError, AttributeError, OSError) as exc:
        pytest.skip(f"cannot mknod here: {exc}")
    return path


def test_a_symlink_is_written_through_to_its_target(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    target = elsewhere / "report.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    atomic_write_text(link, "new")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == "new"
    assert sorted(p.name for p in elsewhere.iterdir()) == ["report.json"]  # no temp file left beside it


def test_a_relative_symlink_to_a_missing_target_creates_the_target(tmp_path):
    link = tmp_path / "link.json"
    link.symlink_to("made.json")
    atomic_write_text(link, "x")
    assert link.is_symlink() and (tmp_path / "made.json").read_text() == "x"


def test_a_character_device_is_written_in_place(tmp_path):
    dev = _device(tmp_path / "null", 3)
    atomic_write_text(dev, "into the void")
    assert stat.S_ISCHR(os.lstat(dev).st_mode)


def test_a_full_device_reports_no_space(tmp_path):
    dev = _device(tmp_path / "full", 7)
    with pytest.raises(OSError) as info:
        atomic_write_text(dev, "x" * 10)
    assert info.value.errno == errno.ENOSPC
    assert stat.S_ISCHR(os.lstat(dev).st_mode)


def test_cli_reports_no_space_on_a_full_device(tmp_path, capsys):
    dev = _device(tmp_path / "full", 7)
    code = main(["audit", "OIPR", "-o", str(dev)])
    err = capsys.readouterr().err
    assert code == 2 and "No space left on device" in err
    assert stat.S_ISCHR(os.lstat(dev).st_mode)


def test_a_fifo_is_written_directly(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    atomic_write_text(fifo, "through the pipe")
    reader.join(20)
    assert got == [b"through the pipe"]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.parametrize("name", ["out/", "folder"])
def test_a_folder_or_trailing_slash_is_refused(tmp_path, name):
    (tmp_path / "folder").mkdir()
    with pytest.raises(IsADirectoryError):
        atomic_write_text(f"{tmp_path}/{name}", "x")
    assert not (tmp_path / "out").exists()


def test_cli_trailing_slash_is_a_one_line_error(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code = main(["audit", "OIPR", "-o", "out/"])
    err = capsys.readouterr().err
    assert code == 2 and "out/" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("command, output", [(["audit", "wander.py:ev", "--format", "json"], "rel.json"),
                                             (["report", "wander.py:ev"], "rel.html")])
def test_output_path_is_resolved_before_the_evaluator_runs(tmp_path, command, output):
    # Every command that runs user code (audit, report) fixes its -o path first.
    away = tmp_path / "away"
    away.mkdir()
    (tmp_path / "wander.py").write_text(textwrap.dedent(f"""
        import os
        def ev(y_true, y_pred):
            os.chdir({str(away)!r})
            tp = int(((y_true == 1) & (y_pred == 1)).sum())
            return (tp / y_pred.sum() if y_pred.sum() else 0.0), (tp / y_true.sum() if y_true.sum() else 0.0)
    """))
    proc = subprocess.run([sys.executable, "-m", "oipr_bench", *command, "-o", output],
                          cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=180)
    assert proc.returncode in (0, 1), proc.stderr
    assert (tmp_path / output).is_file()
    assert not (away / output).exists()


@pytest.mark.parametrize("option", ["--oipr-report", "--oipr-html"])
def test_plugin_fails_the_run_when_a_report_cannot_be_written(tmp_path, option):
    (tmp_path / "blocker").write_text("a file where a folder should be")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--evaluator", "OIPR",
                           f"{option}={tmp_path / 'blocker' / ('r.json' if option == '--oipr-report' else 'r.html')}"],
                          cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stdout[-3000:]  # OIPR passes everything: only the report failed
    assert f"oipr-bench: ERROR: {option}" in proc.stdout


def test_plugin_report_to_a_folder_fails_the_run(tmp_path):
    (tmp_path / "out").mkdir()
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--evaluator", "OIPR",
                           "--oipr-report=out/"], cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stdout[-3000:]
    assert "--oipr-report" in proc.stdout
    assert list((tmp_path / "out").iterdir()) == []

