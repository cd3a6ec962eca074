"""The progress bars of the long commands (``realdata``, ``audit --differential``, ``score-differential``):
drawn on stderr when it is a terminal, never with ``--quiet`` or on a log file, and stdout the same either way."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

from oipr_bench.cli import main
from oipr_bench.reference import nab
from test_realdata import write_corpus


class _Stream(io.StringIO):
    """A stderr that says whether it is a terminal."""

    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def _run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str],
         tty: bool) -> tuple[int, str, str]:
    """``oipr-bench argv`` with stderr a terminal (``tty``) or a log file: exit code, stdout, stderr."""
    err = _Stream(tty)
    with monkeypatch.context() as patch:
        patch.setattr(sys, "stderr", err)
        try:
            code = main(argv)
        except SystemExit as exc:
            code = int(exc.code)
    out, _ = capsys.readouterr()
    return code, out, err.getvalue()


#: A family's wall time in a differential run's lines ("3 pairs, 0.01 s", "seed 0, 0.03 s"): the one part of
#: stdout that differs between two runs of the same command.
_SECONDS = re.compile(r"\b\d+\.\d\d s\)")


def _timeless(text: str) -> str:
    return _SECONDS.sub("N s)", text)


def _bar_drawn(err: str, unit: str, done: int, total: int) -> bool:
    """tqdm's line on ``err``: items done of the total, the rate in ``unit``s per second."""
    return f"{done}/{total}" in err and f"{unit}/s" in err


# -- realdata -------------------------------------------------------------------------------------

@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    return write_corpus(tmp_path / "nab")


def test_realdata_draws_a_bar_over_the_files_on_a_terminal(corpus, monkeypatch, capsys):
    argv = ["realdata", "--data", str(corpus), "--resamples", "20"]
    read = nab.open_corpus(corpus)
    files = len(read.detectors) * len(read.series)
    assert files == 12  # 4 detectors on 3 series
    code, shown_out, shown = _run(monkeypatch, capsys, argv, tty=True)
    assert code == 0 and _bar_drawn(shown, "file", files, files) and "realdata" in shown
    assert "scored on" not in shown  # the bar replaces the lines on a terminal
    code, log_out, log = _run(monkeypatch, capsys, argv, tty=False)
    assert code == 0 and "file/s" not in log
    lines = [line for line in log.splitlines() if "scored on" in line]
    assert lines == [f"realdata: {d} scored on 3 series ({i}/4 detectors)" for i, d in enumerate(read.detectors, 1)]
    code, quiet_out, quiet = _run(monkeypatch, capsys, argv + ["--quiet"], tty=True)
    assert code == 0 and quiet == ""
    assert shown_out == log_out == quiet_out and "Kendall's tau-b" in shown_out


def test_report_realdata_keeps_its_lines_on_a_terminal(corpus, tmp_path, monkeypatch, capsys):
    code, _, err = _run(monkeypatch, capsys, ["report", "PA", "-o", str(tmp_path / "r.html"), "--realdata", str(corpus)],
                        tty=True)
    assert code in (0, 1) and "realdata: random scored on 3 series" in err and "file/s" not in err


# -- audit --differential --------------------------------------------------------------------------

def test_audit_differential_draws_a_bar_over_the_pairs_on_a_terminal(monkeypatch, capsys):
    from oipr_bench.vocabulary import FAMILIES

    argv = ["audit", "PA", "--reference", "PA", "--differential", "3"]
    pairs = 3 * len(FAMILIES)
    code, shown_out, shown = _run(monkeypatch, capsys, argv, tty=True)
    assert code == 0 and _bar_drawn(shown, "pair", pairs, pairs) and "differential" in shown
    code, log_out, log = _run(monkeypatch, capsys, argv, tty=False)
    assert code == 0 and log == ""
    code, quiet_out, quiet = _run(monkeypatch, capsys, argv + ["--quiet"], tty=True)
    assert code == 0 and quiet == ""
    assert _timeless(shown_out) == _timeless(log_out) == _timeless(quiet_out)
    assert f"differential against PA (seed 0, 3 pairs per family):" in shown_out


def test_audit_score_differential_counts_cases(monkeypatch, capsys):
    from oipr_bench.testing.score_families import SCORE_FAMILIES

    argv = ["audit", "AUC-ROC", "--input", "scores", "--reference", "AUC-ROC", "--differential", "2"]
    cases = 2 * len(SCORE_FAMILIES)
    code, shown_out, shown = _run(monkeypatch, capsys, argv, tty=True)
    assert _bar_drawn(shown, "case", cases, cases)
    log_code, log_out, log = _run(monkeypatch, capsys, argv, tty=False)
    # the audit's own problem lines (an undetermined characteristic of AUC-ROC) come after the bar, unchanged
    assert log_code == code and "case/s" not in log and shown.endswith(log)
    assert _timeless(shown_out) == _timeless(log_out)


def test_audit_without_differential_draws_nothing(monkeypatch, capsys):
    code, _, err = _run(monkeypatch, capsys, ["audit", "PA", "--reference", "PA"], tty=True)
    assert code == 0 and err == ""


def test_report_differential_draws_nothing(tmp_path, monkeypatch, capsys):
    code, _, err = _run(monkeypatch, capsys, ["report", "PA", "--reference", "PA", "--differential", "2",
                                              "-o", str(tmp_path / "r.html")], tty=True)
    assert code == 0 and "pair/s" not in err


# -- score-differential ----------------------------------------------------------------------------

def test_score_differential_draws_a_bar_over_the_cases_on_a_terminal(monkeypatch, capsys):
    from oipr_bench.testing.score_families import SCORE_FAMILIES

    argv = ["score-differential", "AUC-ROC", "--reference", "AUC-ROC", "-n", "2"]
    cases = 2 * len(SCORE_FAMILIES)
    code, shown_out, shown = _run(monkeypatch, capsys, argv, tty=True)
    assert code == 0 and _bar_drawn(shown, "case", cases, cases) and "score-differential" in shown
    code, log_out, log = _run(monkeypatch, capsys, argv, tty=False)
    assert code == 0 and log == ""
    code, quiet_out, quiet = _run(monkeypatch, capsys, argv + ["--quiet"], tty=True)
    assert code == 0 and quiet == ""
    assert _timeless(shown_out) == _timeless(log_out) == _timeless(quiet_out)
    assert f"{len(SCORE_FAMILIES)} families agree, 0 differ" in shown_out


def test_a_family_that_differs_takes_its_cases_left_off_the_total(tmp_path, monkeypatch, capsys):
    """The first case of ``one_value`` differs: the 4 cases after it never run, so the bar ends at 1/1."""
    path = tmp_path / "constant.py"
    path.write_text("def constant(y_true, scores):\n    return 0.123\n", encoding="utf-8")
    argv = ["score-differential", f"{path}:constant", "--reference", "AUC-ROC", "-n", "5", "--family", "one_value",
            "--shrink-budget", "1"]
    code, out, err = _run(monkeypatch, capsys, argv, tty=True)
    assert code == 1 and "one_value: FAILED" in out
    assert _bar_drawn(err, "case", 1, 1) and "/5" not in err.split("\r")[-1]


def test_audit_pairs_after_a_difference_leave_the_total(tmp_path, monkeypatch, capsys):
    """A constant evaluator differs from PA early in most families: the bar's total is the pairs compared."""
    import json

    path = tmp_path / "constant.py"
    path.write_text("def constant(y_true, y_pred):\n    return 0.5, 0.5, 0.5\n", encoding="utf-8")
    argv = ["audit", f"{path}:constant", "--reference", "PA", "--differential", "4", "--shrink-budget", "0",
            "--format", "json"]
    code, out, err = _run(monkeypatch, capsys, argv, tty=True)
    families = json.loads(out)["differential"]
    compared = sum(f["checked"] for f in families)
    assert code == 1 and any(f["status"] == "failed" and f["checked"] < 4 for f in families)
    assert compared < 4 * len(families) and _bar_drawn(err, "pair", compared, compared)
