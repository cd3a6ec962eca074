"""No silent conflict: a declaration given twice is refused, never "the last one wins"."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from oipr_bench.auditing.calling.resolve import parse_params
from oipr_bench.auditing.calling.runner import Caller
from oipr_bench.cli import main
from oipr_bench.errors import UsageError

PR = textwrap.dedent(
    """
    def f(y_true, y_pred):
        return 0.5, 0.5
    """
)


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pr.py").write_text(PR)
    return tmp_path


def _error(argv: list[str], capsys) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


@pytest.mark.parametrize("first, second", [("no", "yes"), ("yes", "no"), ("no", "no")])
def test_expect_given_twice_is_refused_in_either_order(folder, capsys, first, second):
    err = _error(["audit", "pr.py:f", f"--expect=fragments_merging={first}", f"--expect=fragments_merging={second}"], capsys)
    assert "fragments_merging is declared twice" in err


def test_expect_file_keys_differing_only_in_case_are_a_duplicate(folder, capsys):
    (folder / "e.toml").write_text('fragments_merging = "no"\nFRAGMENTS_MERGING = "yes"\n')
    assert "FRAGMENTS_MERGING is declared twice" in _error(["audit", "pr.py:f", "--expect-file", "e.toml"], capsys)


def test_expect_contradicting_the_expect_file_is_refused(folder, capsys):
    (folder / "e.toml").write_text('fragments_merging = "no"\n')
    err = _error(["audit", "pr.py:f", "--expect-file", "e.toml", "--expect", "fragments_merging=yes"], capsys)
    assert "contradicts e.toml" in err


def test_param_json_with_a_duplicate_key_is_refused():
    with pytest.raises(UsageError, match="--param k: key 'a' given twice"):
        parse_params(['k={"a": 1, "a": 2}'], option="--param")
    assert parse_params(['k={"a": 1, "b": 2}'], option="--param") == {"k": {"a": 1, "b": 2}}


@pytest.mark.parametrize("argv", [
    ["audit", "pr.py:f", "--param"],
    ["atlas", "--evaluator", "pr.py:f", "--evaluator-param"],
])
def test_absurdly_nested_param_is_one_line_not_a_recursion_error(folder, capsys, argv):
    err = _error([*argv, "k=" + "[" * 100_000], capsys)
    assert "nested more than 64 levels deep" in err


def test_huge_timeout_is_refused_not_an_overflow(folder, capsys):
    assert "at most 604800 seconds" in _error(["audit", "pr.py:f", "--timeout", "1e300"], capsys)
    with pytest.raises(ValueError, match="at most 604800"):
        Caller(lambda a, b: (1, 1), timeout=1e300)


def test_hypothesis_examples_are_bounded(folder, capsys):
    err = _error(["audit", "pr.py:f", "--hypothesis-examples", str(10**20)], capsys)
    assert "--hypothesis-examples must be at most 100000" in err


@pytest.mark.parametrize("flags, words", [
    (["--differential", str(10**20)], "--differential must be at most 100000 pairs per family"),
    (["--differential", "5", "--shrink-budget", "1e300"], "--shrink-budget must be at most 604800 seconds"),
])
def test_differential_pairs_and_shrink_budget_are_bounded(folder, capsys, flags, words):
    """Neighbours of ``--hypothesis-examples 1e20``: ``--differential 1e20`` ran without end."""
    assert words in _error(["audit", "pr.py:f", "--reference", "PW", *flags], capsys)


def test_the_plugin_bounds_differential_pairs_too(folder):
    from oipr_bench.auditing.options import AuditOptions, OptionError

    with pytest.raises(OptionError, match="at most 100000"):
        AuditOptions(reference="PW", differential=10**20)


@pytest.mark.parametrize("argv, flag", [
    (["audit", "pr.py:f", "--bounds", "0:1", "--bounds", "0:2"], "--bounds"),
    (["audit", "pr.py:f", "--input", "binary", "--input", "scores"], "--input"),
    (["audit", "pr.py:f", "--bounds", "0:1", "--bounds", "0:1"], "--bounds"),
    (["audit", "pr.py:f", "-o", "a.json", "--output", "b.json"], "--output"),
    (["audit", "pr.py:f", "--timeout", "5", "--timeout", "6"], "--timeout"),
    (["sweep", "--case", "overlap_proportion/c1", "-o", "x", "-o", "y"], "-o"),
    (["atlas", "--evaluator", "pr.py:f", "--evaluator", "PW"], "--evaluator"),
])
def test_a_single_valued_option_given_twice_is_refused(folder, capsys, argv, flag):
    """The no-conflict rule for --expect, at the shared mechanism (the CLI's parser): ``--bounds 0:1
    --bounds 0:2`` audited with the last range without a word."""
    with pytest.raises(SystemExit) as info:  # argparse's own usage errors leave through SystemExit(2)
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{flag} given twice" in err and "give it once" in err
    assert not list(folder.glob("*.json")) and not list(folder.glob("x*")) and not list(folder.glob("y*"))


def test_the_plugin_refuses_a_declaration_given_twice(folder):
    import os
    import subprocess
    import sys

    repo = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(repo), os.environ.get("PYTHONPATH", "")]))
    for flags in (["--oipr-bounds", "0:1", "--oipr-bounds", "0:2"], ["--oipr-input=binary", "--oipr-input=scores"]):
        proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--evaluator=pr.py:f", *flags],
                              cwd=folder, env=env, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 4, proc.stdout[-500:] + proc.stderr[-500:]
        assert f"{flags[0].split('=')[0]} given twice" in proc.stderr


def _plugin_run(folder: Path, *flags: str, ini: str = ""):
    import os
    import subprocess
    import sys

    repo = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(repo), os.environ.get("PYTHONPATH", "")]))
    if ini:
        (folder / "pytest.ini").write_text(f"[pytest]\naddopts = {ini}\n", encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *flags],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("flags, named", [
    (["--evaluator=pr.py:f", "--oipr-report=a.json", "--oipr-report=b.json"], "--oipr-report"),
    (["--evaluator=PW", "--evaluator=OIPR"], "--evaluator"),
    (["--evaluator=PW", "--oipr-evaluator=OIPR"], "--oipr-evaluator"),
    (["--evaluator=pr.py:f", "--oipr-timeout", "5", "--oipr-timeout=6"], "--oipr-timeout"),
])
def test_the_plugin_refuses_any_single_valued_option_given_twice(folder, flags, named):
    proc = _plugin_run(folder, *flags)
    assert proc.returncode == 4, proc.stdout[-500:] + proc.stderr[-500:]
    assert f"{named} given twice" in proc.stderr and "give it once" in proc.stderr
    assert not list(folder.glob("*.json"))


def test_the_plugin_lets_the_command_line_override_addopts(folder):
    # pytest's rule for addopts stays: one value in the ini file, one on the command line, the latter wins
    proc = _plugin_run(folder, "--evaluator=pr.py:f", "--oipr-report=b.json", "-k", "case and overlap_proportion",
                       ini="--oipr-report=a.json")
    assert proc.returncode in (0, 1), proc.stdout[-500:] + proc.stderr[-500:]
    assert (folder / "b.json").exists() and not (folder / "a.json").exists()
