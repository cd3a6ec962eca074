"""Unclear messages made clear.

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


def test_npz_with_a_member_name_twice_is_refused(tmp_path, monkeypatch, capsys):
    import zipfile

    import numpy as np

    monkeypatch.chdir(tmp_path)
    with zipfile.ZipFile(tmp_path / "dup.npz", "w") as zf:
        for name, arr in (("gt.npy", [0, 1, 1, 0]), ("pred.npy", [0, 1, 0, 0]), ("pred.npy", [1, 1, 1, 1])):
            buf = __import__("io").BytesIO()
            np.save(buf, np.array(arr, dtype=np.int8))
            with __import__("warnings").catch_warnings():
                __import__("warnings").simplefilter("ignore")  # zipfile warns about the duplicate name
                zf.writestr(name, buf.getvalue())
    err = _one_line(["sweep", "--input", "dup.npz", "-o", "out", "--format", "csv"], capsys)
    assert "holds 1 member name(s) twice (pred.npy)" in err
    assert not (tmp_path / "out.csv").exists()


def test_a_square_npy_says_it_is_read_as_rows(tmp_path):
    import numpy as np

    from oipr_bench.scenarios.userdata import SquareArrayWarning, read_series

    np.save(tmp_path / "sq.npy", np.array([[0, 1], [1, 1]]))
    with pytest.warns(SquareArrayWarning, match="square 2 x 2 array is read as rows"):
        series = read_series(tmp_path / "sq.npy")
    assert series.y_true.tolist() == [0, 1]


def test_an_evaluator_failing_every_second_call_is_not_deterministic(tmp_path, monkeypatch):
    from oipr_bench.auditing.profile.profiles import audit

    calls = []

    def flaky(y_true, y_pred):
        calls.append(1)
        if len(calls) % 2 == 0:
            raise RuntimeError("every second call")
        return 0.5, 0.5

    result = audit(flaky).sanity_results["deterministic"]
    assert result.status == "failed", result
    assert "every call failed" not in result.message and "the other failed (raised" in result.message


def _dataset_with(tmp_path: Path, edit) -> Path:
    import json
    import shutil

    folder = tmp_path / "scenarios"
    shutil.copytree(REPO / "scenarios", folder, ignore=shutil.ignore_patterns("properties"))
    path = folder / "overlap_proportion.json"
    doc = json.loads(path.read_text())
    edit(doc["cases"][0])
    path.write_text(json.dumps(doc))
    return folder


def test_a_huge_unknown_key_in_a_case_is_clipped(tmp_path):
    from oipr_bench import scenarios
    from oipr_bench.errors import FixtureError

    folder = _dataset_with(tmp_path, lambda case: case.__setitem__("k" * 15_000, 1))
    with pytest.raises(FixtureError) as info:
        scenarios.load(folder)
    text = str(info.value)
    assert "unknown field" in text and len(text) < 2_000 and "more characters" in text


def test_ansi_escapes_in_a_case_id_never_reach_the_terminal(tmp_path):
    from oipr_bench import scenarios
    from oipr_bench.errors import FixtureError

    folder = _dataset_with(tmp_path, lambda case: case.__setitem__("id", "overlap_proportion/\x1b[31mc1\x1b[0m"))
    with pytest.raises(FixtureError) as info:
        scenarios.load(folder)
    text = str(info.value)
    assert "\x1b" not in text and "\\x1b[31m" in text


@pytest.mark.parametrize("value", [0, -5])
def test_a_threshold_count_below_one_gets_one_message(value):
    from oipr_bench import evaluators

    with pytest.raises(ValueError) as info:
        evaluators.get("VUS-PR", thresholds=value)
    assert str(info.value) == f"VUS-PR: parameter thresholds must be >= 1, got {value}"
