"""Every ``oipr-bench`` command meets user errors with exit code 2 and one line on stderr.

User errors: a bad module path, a bad ``--param``, an unknown evaluator,
case or characteristic name, a malformed user file (CSV with gt,pred columns
as the paper's authors publish them, or ``.npy``), a bad option value.  No
traceback unless ``--debug`` is given.

Second part: files the commands write (reports, regenerated fixtures and
reference results, sweep tables, pictures) are written atomically.  A failure
in the middle of a write (simulated by a file object that writes half its
data and then raises, as a full disk would) leaves an existing file intact
and no temporary file behind.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from _faults import HalfWriter, OsProxy

import oipr_bench.io as io_module
from oipr_bench.cli import build_parser, main
from oipr_bench.errors import UsageError


def run_cli(argv: list[str], capsys) -> tuple[int, str, str]:
    """Run ``oipr-bench argv`` in this process; return (exit code, stdout, stderr)."""
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse usage errors
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(code: int, err: str, *needles: str) -> None:
    assert code == 2, err
    lines = err.strip("\n").split("\n")
    assert len(lines) == 1, f"expected one line on stderr, got:\n{err}"
    assert "Traceback" not in err
    assert "error" in lines[0]
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


def commands() -> set[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return set(sub.choices)


def needs(command: str) -> None:
    if command not in commands():
        pytest.skip(f"the {command!r} sub-command is not part of this build")


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """An empty current folder holding user files; restores sys.modules/sys.path after the test."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    before = set(sys.modules)
    yield tmp_path
    for name in set(sys.modules) - before:
        if name.startswith("usr_"):
            del sys.modules[name]


# --------------------------------------------------------------------------- user files
def write_user_files(folder: Path) -> dict[str, Path]:
    """Malformed series files of every kind the readers meet, plus a good one."""
    files = {
        "ragged.csv": b"gt,pred\n0,1\n1\n",
        "nonbinary.csv": b"gt,pred\n0,1\n1,2\n",
        "nan.csv": b"gt,pred\n0,1\nnan,1\n",
        "no_gt.csv": b"a,b\n0,1\n1,1\n",
        "header_only.csv": b"gt,pred\n",
        "empty.csv": b"",
        "latin1.csv": b"gt,pred\n0,1\n\xff,\xfe\n",
        "garbage.npy": b"\x00\x01 not a numpy file",
        "truncated.npy": None,
        "3d.npy": None,
        "nonbinary.npy": None,
        "objects.npy": None,
        "good.csv": b"gt,pred\n0,0\n1,1\n1,0\n0,0\n",
    }
    out = {}
    for name, data in files.items():
        path = folder / name
        if data is not None:
            path.write_bytes(data)
        out[name] = path
    np.save(folder / "3d.npy", np.zeros((2, 3, 4)))
    np.save(folder / "nonbinary.npy", np.array([[0, 1, 1], [0, 3, 0]]))
    np.save(folder / "objects.npy", np.array([[0, 1], [1, "x"]], dtype=object), allow_pickle=True)
    good = folder / "good.npy"
    np.save(good, np.array([[0, 1, 1, 0], [0, 1, 0, 0]]))
    (folder / "truncated.npy").write_bytes(good.read_bytes()[:-3])
    return out


MALFORMED = {
    "ragged.csv": "ragged row",
    "nonbinary.csv": "not binary",
    "nan.csv": "NaN",
    "no_gt.csv": "no ground-truth column",
    "header_only.csv": "no data rows",
    "empty.csv": "empty",
    "latin1.csv": "UTF-8",
    "garbage.npy": ".npy",
    "truncated.npy": "truncated.npy",
    "3d.npy": "2-D",
    "nonbinary.npy": "not binary",
    "objects.npy": "pickled data is never loaded",
    "missing.csv": "no such file",
    "series.txt": "unsupported file type",
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_plot_interest_rejects_malformed_user_files_in_one_line(name, workdir, capsys):
    needs("plot")
    write_user_files(workdir)
    code, _, err = run_cli(["plot", "interest", "--input", name, "-o", "x.png"], capsys)
    assert_one_line_error(code, err, name, MALFORMED[name])
    assert not (workdir / "x.png").exists()


@pytest.mark.parametrize("name", ["ragged.csv", "nonbinary.npy", "garbage.npy", "latin1.csv"])
def test_sweep_rejects_malformed_user_files_in_one_line(name, workdir, capsys):
    needs("sweep")
    write_user_files(workdir)
    code, _, err = run_cli(["sweep", "--input", "good.csv", name, "-o", "sw", "--format", "csv"], capsys)
    assert_one_line_error(code, err, name, MALFORMED[name])
    assert not (workdir / "sw.csv").exists()


# --------------------------------------------------------------------------- evaluators, parameters, names
def write_user_modules(folder: Path) -> None:
    (folder / "usr_good.py").write_text("def pw(y_true, y_pred):\n    return 1.0, 1.0\nnumber = 3\n")
    (folder / "usr_syntax.py").write_text("def f(:\n    pass\n")
    (folder / "usr_boom.py").write_text("raise RuntimeError('boom at import')\n")
    (folder / "usr_dep.py").write_text("import usr_no_such_dependency\n")
    (folder / "usr_ctor.py").write_text(
        "class NeedsArg:\n    def __init__(self, x):\n        pass\n    def __call__(self, a, b):\n        return 1, 1\n"
        "class Raises:\n    def __init__(self):\n        raise RuntimeError('ctor boom')\n"
    )


BAD_EVALUATORS = {
    "usr_missing_module:Eval": "no module named 'usr_missing_module'",
    "usr_good:missing": "has no attribute 'missing'",
    "usr_good:number": "not callable",
    "usr_syntax:f": "SyntaxError",
    "usr_boom:f": "RuntimeError: boom at import",
    "usr_dep:f": "usr_no_such_dependency",
    "usr_ctor:NeedsArg": "cannot instantiate",
    "usr_ctor:Raises": "ctor boom",
    "usr_nofile.py:f": "no such file",
    "OIPRX": "not a built-in evaluator",
    "": "empty",
}


@pytest.mark.parametrize("command", ["audit", "report"])
@pytest.mark.parametrize("spec", sorted(BAD_EVALUATORS))
def test_bad_evaluator_paths_end_in_one_line(command, spec, workdir, capsys):
    needs(command)
    write_user_modules(workdir)
    extra = ["-o", "r.html"] if command == "report" else []
    code, _, err = run_cli([command, spec, *extra], capsys)
    assert_one_line_error(code, err, BAD_EVALUATORS[spec])
    assert not (workdir / "r.html").exists()


BAD_PARAMS = {
    "l_obs": "expected key=value",
    "l_obs=-1": "l_obs must be non-negative",
    "l_obs=abc": "l_obs",
    "b_dur=2": "b_dur must lie in [0, 1]",
    "nope=1": "unknown parameter",
    "=3": "--param",
}


@pytest.mark.parametrize("command", ["audit", "report"])
@pytest.mark.parametrize("param", sorted(BAD_PARAMS))
def test_bad_param_ends_in_one_line(command, param, workdir, capsys):
    needs(command)
    extra = ["-o", "r.html"] if command == "report" else []
    code, _, err = run_cli([command, "OIPR", "--param", param, *extra], capsys)
    assert_one_line_error(code, err, BAD_PARAMS[param])


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["audit", "OIPR", "--expect", "bogus=yes"], "unknown characteristic 'bogus'"),
        (["audit", "OIPR", "--expect", "fragments_merging=maybe"], "'maybe'"),
        (["audit", "OIPR", "--expect", "fragments_merging"], "--expect"),
        (["audit", "OIPR", "--expect-file", "missing.toml"], "missing.toml"),
        (["audit", "OIPR", "--expect-file", "ragged.csv"], "ragged.csv"),
        (["audit", "OIPR", "--reference", "NOPE"], "unknown evaluator 'NOPE'"),
        (["audit", "OIPR", "--reference", "PW", "--reference-param", "k=1"], "unknown parameter"),
        (["audit", "OIPR", "--timeout", "-1"], "positive number of seconds"),
        (["audit", "OIPR", "--tolerance", "abc"], "invalid float value"),
        (["audit", "OIPR", "--format", "xml"], "invalid choice"),
        (["report", "OIPR", "--expect", "bogus=yes", "-o", "r.html"], "unknown characteristic 'bogus'"),
        (["report", "OIPR", "-o", "r.txt"], "r.txt"),
        (["profile", "--format", "xml"], "invalid choice"),
        (["reproduce", "--table", "Z"], "invalid table 'Z'"),
        (["reference", "--write", "--check"], "not both"),
        (["build-scenarios", "--out", "good.csv"], "good.csv"),
        (["plot", "interest", "--case", "nope/c1", "-o", "x.png"], "unknown case 'nope/c1'"),
        (["plot", "interest", "--case", "overlap_proportion/c1", "-o", "x.txt"], "x.txt"),
        (["plot", "interest", "--case", "overlap_proportion/c1", "-o", "x.png", "--l-dis", "-2"], "--l-dis"),
        (["plot", "interest", "--case", "overlap_proportion/c1", "-o", "x.png", "--b-dur", "7"], "--b-dur"),
        (["plot", "interest", "--case", "random_detector/c1", "-o", "x.png", "--run", "101"], "101"),
        (["plot", "scenarios", "-o", "good.csv"], "good.csv"),
        (["sweep", "--case", "nope", "-o", "sw", "--format", "csv"], "unknown case 'nope'"),
        (["sweep", "--case", "overlap_proportion", "-o", "sw", "--l-dis-grid", "5:1", "--format", "csv"], "--l-dis-grid"),
        (["sweep", "--case", "overlap_proportion", "-o", "sw", "--format", "gif"], "gif"),
        (["sweep", "--case", "random_detector/c1", "-o", "sw", "--run", "0", "--format", "csv"], "--run"),
        (["no-such-command"], "invalid choice"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else None,
)
def test_usage_errors_end_in_one_line(argv, needle, workdir, capsys):
    if argv[0] != "no-such-command":
        needs(argv[0])
    write_user_files(workdir)
    code, out, err = run_cli(argv, capsys)
    assert_one_line_error(code, err, needle)


def test_audit_timeout_error_names_the_cli_option(workdir, capsys):
    needs("audit")
    code, _, err = run_cli(["audit", "OIPR", "--timeout", "-1"], capsys)
    assert_one_line_error(code, err, "error: --timeout must be a positive number of seconds, got -1.0")
    assert "--oipr-timeout" not in err  # the plugin's name for it, not this command's


def test_audit_reference_param_without_reference_is_a_usage_error(workdir, capsys):
    # The plugin refuses --reference-param without --reference; the command does the same.
    needs("audit")
    code, _, err = run_cli(["audit", "PW", "--reference-param", "l_obs=10"], capsys)
    assert_one_line_error(code, err, "--reference-param needs --reference")


def test_reference_check_of_a_missing_folder_is_a_usage_error(workdir, capsys):
    needs("reference")
    missing = workdir / "no_such_folder"
    code, out, err = run_cli(["reference", "--check", "--dir", str(missing)], capsys)
    assert_one_line_error(code, err, f"--dir {missing}: no such folder")
    assert "difference" not in out + err
    (workdir / "plain.txt").write_text("x")
    code, _, err = run_cli(["reference", "--check", "--dir", "plain.txt"], capsys)
    assert_one_line_error(code, err, "--dir plain.txt: is not a folder")


def test_plot_scenarios_into_a_file_says_it_wants_a_folder(workdir, capsys):
    needs("plot")
    pytest.importorskip("matplotlib")
    (workdir / "taken.png").write_bytes(b"not a folder")
    code, _, err = run_cli(["plot", "scenarios", "-o", "taken.png"], capsys)
    assert_one_line_error(code, err, "-o taken.png: is a file, expected a folder")
    assert (workdir / "taken.png").read_bytes() == b"not a folder"
    code, _, err = run_cli(["plot", "scenarios", "-o", "taken.png/gallery"], capsys)
    assert_one_line_error(code, err, "-o taken.png/gallery: cannot create the folder")


def test_debug_reraises_in_process(workdir, capsys):
    needs("audit")
    with pytest.raises(UsageError, match="usr_missing_module"):
        main(["--debug", "audit", "usr_missing_module:Eval"])


def _subprocess(argv: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).resolve().parents[1]), env.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-m", "oipr_bench", *argv], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def test_real_process_exit_code_and_debug_traceback(tmp_path):
    """The installed entry point: exit 2 and one line; with --debug the traceback."""
    needs("audit")
    quiet = _subprocess(["audit", "usr_missing_module:Eval"], tmp_path)
    assert quiet.returncode == 2
    assert quiet.stderr.strip().count("\n") == 0 and "Traceback" not in quiet.stderr
    assert "no module named 'usr_missing_module'" in quiet.stderr
    loud = _subprocess(["--debug", "audit", "usr_missing_module:Eval"], tmp_path)
    assert loud.returncode != 0
    assert "Traceback (most recent call last)" in loud.stderr
    assert "UsageError" in loud.stderr and "usr_missing_module" in loud.stderr


# --------------------------------------------------------------------------- atomic writes




def fail_mid_write(monkeypatch, exc: BaseException | None = None) -> list[int]:
    """Make every atomic write fail halfway; return a list counting the attempts."""
    attempts: list[int] = []
    exc = exc or OSError(errno.ENOSPC, "No space left on device")

    def fdopen(fd, mode="r", *args, **kwargs):
        attempts.append(fd)
        return HalfWriter(fd, mode, exc)

    monkeypatch.setattr(io_module, "os", OsProxy(fdopen=fdopen))
    return attempts


OLD = b"OLD CONTENT - must survive\n"


def _prefill(paths: list[Path]) -> None:
    for p in paths:
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(OLD)


def _leftover_temps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob(".*.tmp"))


WRITERS = [
    ("audit", ["audit", "PW", "--format", "json", "-o", "{d}/profile.json"], ["profile.json"]),
    ("report", ["report", "PW", "-o", "{d}/report.html"], ["report.html"]),
    ("build-scenarios", ["build-scenarios", "--out", "{d}"], ["manifest.json", "overlap_proportion.json"]),
    ("reference", ["reference", "--write", "--dir", "{d}"], ["scores_pw.json", "scores_oipr.json"]),
    ("sweep", ["sweep", "--case", "fragmented_fps", "-o", "{d}/sw", "--format", "csv",
               "--l-dis-grid", "0:2", "--l-obs-grid", "0:5:5"], ["sw.csv", "sw-ranking.csv"]),
    ("plot", ["plot", "interest", "--case", "overlap_proportion/c1", "-o", "{d}/curve.png"], ["curve.png"]),
]


@pytest.mark.parametrize("command, argv, targets", WRITERS, ids=[w[0] for w in WRITERS])
def test_interrupted_write_keeps_the_old_file_and_leaves_no_temp(command, argv, targets, tmp_path, monkeypatch, capsys):
    needs(command)
    out_dir = tmp_path / "out"
    paths = [out_dir / t for t in targets]
    _prefill(paths)
    attempts = fail_mid_write(monkeypatch)
    code, _, err = run_cli([a.format(d=out_dir) for a in argv], capsys)
    assert attempts, f"{command} did not write through oipr_bench.io"
    assert_one_line_error(code, err, "No space left on device")
    for p in paths:
        assert p.read_bytes() == OLD, f"{p.name} was damaged"
    assert _leftover_temps(tmp_path) == []


@pytest.mark.parametrize("command, argv, targets", WRITERS[:3], ids=[w[0] for w in WRITERS[:3]])
def test_ctrl_c_during_a_write_keeps_the_old_file(command, argv, targets, tmp_path, monkeypatch, capsys):
    needs(command)
    out_dir = tmp_path / "out"
    paths = [out_dir / t for t in targets]
    _prefill(paths)
    fail_mid_write(monkeypatch, KeyboardInterrupt())
    code, _, err = run_cli([a.format(d=out_dir) for a in argv], capsys)
    assert code == 130 and err.strip() == "oipr-bench: interrupted"
    for p in paths:
        assert p.read_bytes() == OLD
    assert _leftover_temps(tmp_path) == []


@pytest.mark.parametrize("command, argv, targets", WRITERS[:2], ids=[w[0] for w in WRITERS[:2]])
def test_successful_write_replaces_the_old_file_completely(command, argv, targets, tmp_path, capsys):
    needs(command)
    out_dir = tmp_path / "out"
    paths = [out_dir / t for t in targets]
    _prefill(paths)
    code, _, err = run_cli([a.format(d=out_dir) for a in argv], capsys)
    assert code in (0, 1), err  # 1: PW's profile differs from the default (OIPR) expectations
    for p in paths:
        data = p.read_bytes()
        assert data != OLD and OLD not in data
    assert _leftover_temps(tmp_path) == []
