"""What a new user trips on first: each friction point, checked.

- ``oipr-bench --help`` imports neither pandas nor matplotlib, and works with a broken pandas;
  a dependency that does not import is one line naming the package and the fix.
- ``--evaluator=my_eval.py`` / ``./my_eval.py`` suggest ``my_eval.py:NAME`` with the file's callables.
- ``--evaluator=OIPRX`` / ``oipr`` list the built-ins and suggest the closest.
- ``oipr-bench reference --write`` in an installed package refuses without ``--dir``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from oipr_bench import cli
from oipr_bench.cli import COMMANDS, build_parser, dependency_failure, main
from oipr_bench.errors import UsageError
from oipr_bench.evaluators import NAMES, SCORE_NAMES
from oipr_bench.auditing.calling.resolve import public_callables, resolve

REPO_ROOT = Path(__file__).resolve().parents[1]


def _python(code: str, *, env_path: Path | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    paths = [str(env_path)] if env_path else []
    env["PYTHONPATH"] = os.pathsep.join([*paths, str(REPO_ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=cwd, timeout=120)


def _broken_pandas(tmp_path: Path) -> Path:
    """A folder whose ``pandas`` fails to import the way a pandas built for another numpy does."""
    folder = tmp_path / "broken"
    (folder / "pandas").mkdir(parents=True)
    (folder / "pandas" / "__init__.py").write_text('raise ImportError("numpy.core.multiarray failed to import")\n')
    return folder


# --------------------------------------------------------------------------- lazy imports
def test_help_imports_neither_pandas_nor_matplotlib(tmp_path):
    code = (
        "import sys\n"
        "from oipr_bench.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit as exc:\n    assert exc.code == 0, exc.code\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('pandas', 'matplotlib'))\n"
        "print('HEAVY', heavy)\n"
    )
    result = _python(code, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "HEAVY []" in result.stdout
    for command in COMMANDS:
        assert command.name in result.stdout


def test_help_and_light_commands_work_with_a_broken_pandas(tmp_path):
    broken = _broken_pandas(tmp_path)
    check = _python("import pandas", env_path=broken, cwd=tmp_path)
    assert check.returncode == 1 and "numpy.core.multiarray failed to import" in check.stderr
    code = (
        "import sys\n"
        "from oipr_bench.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit as exc:\n    assert exc.code == 0, exc.code\n"
        "print('REPRODUCE', main(['reproduce', '--table', 'C1']))\n"
        "print('SWEEP', main(['sweep', '--case', 'fragmented_fps', '-o', 'x', '--format', 'csv']))\n"
    )
    result = _python(code, env_path=broken, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "REPRODUCE 0" in result.stdout and "SWEEP 2" in result.stdout
    assert result.stderr.strip().splitlines() == [
        "oipr-bench sweep: error: the installed pandas cannot be imported (ImportError: numpy.core.multiarray "
        "failed to import); fix: pip install --force-reinstall pandas (pip check lists the packages it conflicts with)"
    ]
    assert not (tmp_path / "x.csv").exists()


def test_dependency_failure_names_the_package_and_the_fix():
    missing = ModuleNotFoundError("No module named 'jsonschema'", name="jsonschema")
    assert dependency_failure(missing) == (
        "the installed jsonschema cannot be imported (ModuleNotFoundError: No module named 'jsonschema'); "
        "fix: pip install --force-reinstall jsonschema (pip check lists the packages it conflicts with)"
    )
    plot = ModuleNotFoundError("No module named 'matplotlib'", name="matplotlib.pyplot")
    assert dependency_failure(plot).endswith("fix: pip install 'oipr-bench[plot]'")
    # A module of the user's (or ours) is not a dependency problem: the caller keeps its own message.
    assert dependency_failure(ModuleNotFoundError("No module named 'my_eval'", name="my_eval")) is None
    assert dependency_failure(ImportError("cannot import name 'x'")) is None


def test_the_help_table_matches_the_registered_commands():
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    registered = {action.dest: action.help for action in sub._choices_actions}
    assert registered == {command.name: command.help for command in COMMANDS}
    modules = {p.stem for p in Path(cli.__file__).parent.glob("*.py") if p.stem != "__init__"}
    assert modules == {command.module for command in COMMANDS}


def test_a_command_line_imports_only_its_own_command_module():
    code = (
        "import sys\n"
        "from oipr_bench.cli import main\n"
        "main(['reproduce', '--table', 'C1'])\n"
        "print('LOADED', sorted(m for m in sys.modules if m.startswith('oipr_bench.cli.')))\n"
    )
    result = _python(code)
    assert result.returncode == 0, result.stderr
    assert "LOADED ['oipr_bench.cli.reproduce']" in result.stdout


# --------------------------------------------------------------------------- evaluator names
@pytest.fixture
def user_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    (tmp_path / "my_eval.py").write_text(
        "import numpy as np\n"
        "from math import sqrt\n\n"
        "def pointwise(y_true, y_pred):\n    return 1.0, 1.0\n\n"
        "class Scorer:\n    def __call__(self, y_true, y_pred):\n        return 1.0, 1.0\n\n"
        "def _helper():\n    pass\n"
    )
    return tmp_path


@pytest.mark.parametrize("spec", ["my_eval.py", "./my_eval.py"])
def test_a_file_without_a_name_suggests_file_colon_name(user_folder, spec):
    with pytest.raises(UsageError) as info:
        resolve(spec)
    assert str(info.value) == (
        f"evaluator '{spec}': name the evaluator in the file: did you mean {spec}:pointwise? "
        f"(public callables in {spec}: pointwise, Scorer)"
    )


def test_public_callables_are_the_module_s_own_functions_and_classes(user_folder):
    import importlib.util

    spec = importlib.util.spec_from_file_location("newcomer_my_eval", user_folder / "my_eval.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert public_callables(module) == ["pointwise", "Scorer"]


def test_a_missing_file_says_so(user_folder):
    with pytest.raises(UsageError, match=r"no such file 'nope\.py' \(a file is given as path/to/file\.py:NAME\)"):
        resolve("nope.py")


@pytest.mark.parametrize(("spec", "suggestion"), [("OIPRX", "OIPR"), ("oipr", "OIPR"), ("tapr", "TaPR"),
                                                  ("pak", "PA%K"), ("rp/rr", "RP/RR")])
def test_a_misspelt_builtin_lists_the_builtins_and_suggests_the_closest(user_folder, spec, suggestion):
    with pytest.raises(UsageError) as info:
        resolve(spec)
    message = str(info.value)
    assert f"did you mean {suggestion}?" in message
    assert f"built-in evaluators are {', '.join(NAMES)}" in message
    assert "\n" not in message


def test_a_word_far_from_every_builtin_lists_them_without_a_guess(user_folder):
    with pytest.raises(UsageError) as info:
        resolve("xyz")
    assert "did you mean" not in str(info.value)
    assert f"built-in evaluators are {', '.join(NAMES)}" in str(info.value)


@pytest.mark.parametrize(("spec", "suggestion"), [("vus-pr", "VUS-PR"), ("AUCROC", "AUC-ROC"), ("r-auc-pr", "R-AUC-PR"),
                                                  ("VUS_ROC", "VUS-ROC")])
def test_a_misspelt_score_builtin_is_suggested_and_every_builtin_listed(user_folder, spec, suggestion):
    with pytest.raises(UsageError) as info:
        resolve(spec)
    message = str(info.value)
    assert f"did you mean {suggestion}?" in message
    assert (f"built-in evaluators are {', '.join(NAMES)} (0/1 predictions), {', '.join(SCORE_NAMES)} (scores) and "
            "NAB (0/1 predictions, one number);" in message), message
    assert "\n" not in message


def test_an_unknown_word_lists_the_score_builtins_too(user_folder):
    with pytest.raises(UsageError) as info:
        resolve("xyz")
    message = str(info.value)
    assert len(SCORE_NAMES) == 6 and all(name in message for name in NAMES + SCORE_NAMES), message


def test_cli_and_plugin_print_the_hint_in_one_line(user_folder, capsys, pytester_free_run):
    assert main(["audit", "OIPRX"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "did you mean OIPR?" in err[0]
    result = pytester_free_run("--evaluator=./my_eval.py")
    assert result.returncode == 4
    assert "did you mean ./my_eval.py:pointwise?" in result.stderr + result.stdout


@pytest.fixture
def pytester_free_run(user_folder):
    """Run pytest with the plugin in a subprocess from the user's folder."""

    def run(*args: str) -> subprocess.CompletedProcess:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(REPO_ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
        return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
                              capture_output=True, text=True, env=env, cwd=user_folder, timeout=120)

    return run


# --------------------------------------------------------------------------- reference --write
def test_reference_write_refuses_without_dir_when_installed(monkeypatch, capsys, tmp_path):
    from oipr_bench import reference
    from oipr_bench.cli import reference as cmd

    monkeypatch.setattr(cmd, "source_root", lambda: None)
    shipped = reference.reference_dir(None)
    before = {p.name: p.read_bytes() for p in Path(shipped).glob("*.json")}
    assert main(["reference", "--write"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "oipr-bench reference: error: --write needs --dir DIR: oipr-bench is installed as a package, so there "
        "is no source checkout whose reference_results/ folder could be rewritten"
    ]
    assert {p.name: p.read_bytes() for p in Path(shipped).glob("*.json")} == before
    # An explicit folder is fine.
    assert main(["reference", "--write", "--dir", str(tmp_path / "ref")]) == 0
    assert len(list((tmp_path / "ref").glob("*.json"))) == len(before)


# --------------------------------------------------------------------------- interest plot layout
def test_interest_title_names_the_case_once():
    from oipr_bench.plots.interest import interest_title

    assert interest_title("random_detector/c1", "random_detector/c1 (run 1 of 100)") == "random_detector/c1 (run 1 of 100)"
    assert interest_title("tp_positions/c2", "tp_positions/c2") == "tp_positions/c2"
    assert interest_title("mine.csv", "pred") == "mine.csv: pred"


def test_random_detector_interest_plot_title_and_legend_do_not_collide():
    pytest.importorskip("matplotlib")
    from oipr_bench.plots import sources
    from oipr_bench.plots._mpl import pyplot
    from oipr_bench.plots.interest import compute_interest, interest_figure, interest_title

    plt = pyplot()
    source = sources.from_case("random_detector/c1")
    label, y_pred = source.single(1)
    data = compute_interest(source.y_true, y_pred)
    fig = interest_figure(data, title=interest_title(source.title, label))
    try:
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        ax_ev, ax = fig.axes
        title = ax_ev.get_title(loc="left")
        assert title.splitlines()[0] == "random_detector/c1 (run 1 of 100)"
        assert title.count("random_detector/c1") == 1
        legend = ax.get_legend().get_window_extent(renderer)
        end_label = next(t for t in ax.texts if t.get_text() == "series end T").get_window_extent(renderer)
        assert not legend.overlaps(end_label)
        # The legend sits below the time axis, clear of the curves.
        assert legend.y1 < ax.get_window_extent(renderer).y0
    finally:
        plt.close(fig)


PW_LIKE = """
def f(t, p):
    tp = int(((t == 1) & (p == 1)).sum())
    return (tp / p.sum() if p.sum() else 0.0), (tp / t.sum() if t.sum() else 0.0)
"""


def test_audit_profile_only_reports_observed_values_and_exits_0(tmp_path, monkeypatch, capsys):
    # a researcher's own metric is not OIPR: without an expected row nothing "fails" for being different
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.py").write_text(PW_LIKE)
    assert main(["audit", "mine.py:f"]) == 1
    assert "differs from OIPR's row" in capsys.readouterr().out
    assert main(["audit", "mine.py:f", "--profile-only"]) == 0
    out = capsys.readouterr().out
    assert "profile only (no expected row)" in out and "FAILED" not in out and "differs from" not in out
    assert "fragments_merging" in out and " no " in out


def test_audit_profile_only_still_fails_a_sanity_check(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "half.py").write_text("def f(t, p):\n    return (0.5, 0.5)\n")
    assert main(["audit", "half.py:f", "--profile-only"]) == 1
    assert "sanity[perfect]" in capsys.readouterr().err


def test_profile_only_refuses_an_expected_row(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.py").write_text(PW_LIKE)
    for extra in (["--expect", "fragments_merging=no"], ["--reference", "PW"]):
        assert main(["audit", "mine.py:f", "--profile-only", *extra]) == 2
        err = capsys.readouterr().err
        assert "--profile-only" in err and extra[0] in err and len(err.strip().splitlines()) == 1


def test_the_plugin_has_a_profile_only_switch(tmp_path):
    (tmp_path / "mine.py").write_text(PW_LIKE)
    repo = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(repo), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--evaluator=mine.py:f",
                           "--oipr-profile-only", "--oipr-report=r.json"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-800:] + proc.stderr[-800:]
    import json

    d = json.loads((tmp_path / "r.json").read_text())
    assert d["options"]["profile_only"] is True and "|profile-only|" in d["signature"]
    verified = subprocess.run([sys.executable, "-m", "oipr_bench", "verify", "r.json"], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=600)
    assert verified.returncode == 0, verified.stdout + verified.stderr


def test_a_score_reference_without_generated_cases_warns_that_the_cases_hold_only_0_1_scores(capsys):
    # the dataset's cases hand 0/1 predictions over as 0.0/1.0: a threshold-grid bug cannot show on them
    argv = ["audit", "VUS-PR", "--param", "sliding_window=4", "--input", "scores", "--reference", "VUS-PR",
            "--reference-param", "sliding_window=4", "--suite", "table5"]
    main(argv)
    out = capsys.readouterr().out
    assert "warning: these cases hold only 0/1 scores" in out and "--differential" in out
    main([*argv, "--differential", "1"])
    assert "warning: these cases hold only 0/1 scores" not in capsys.readouterr().out

# -- the README's word on the test command: measured, and the opt-in runs named -----------------------

def test_readme_quotes_the_measured_suite_time():
    """The README's time of its test command is the one ``benchmarks/suite_time.py`` measured and stored."""
    import json

    sys.path.insert(0, str(REPO_ROOT / "benchmarks"))
    try:
        import suite_time
    finally:
        sys.path.pop(0)
    store = json.loads((REPO_ROOT / "benchmarks" / "suite-time.json").read_text(encoding="utf-8"))
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    assert " ".join(suite_time.readme_sentence(store).split()) in " ".join(readme.split()), \
        "refresh the README's sentence with `python benchmarks/suite_time.py`"
    assert store["command"] == "python -m pytest -n 2"
    assert "pip install -e '.[dev]' && python -m pytest -n 2\n" in readme  # the command measured is the README's


def test_readme_names_every_opt_in_test_run():
    """Every test file gated on an ``OIPR_*`` environment variable is named in the README with its variable."""
    readme = " ".join((REPO_ROOT / "README.md").read_text(encoding="utf-8").split())
    import re

    gate = re.compile(r"environ(?:\.get)?[(\[]\s*[\"'](OIPR_[A-Z_]+)")
    gated = {}
    for path in sorted((REPO_ROOT / "tests").glob("test_*.py")):
        for var in gate.findall(path.read_text(encoding="utf-8")):
            gated[path.name] = var
    assert gated == {"test_differential_builtins.py": "OIPR_FULL_DIFFERENTIAL", "test_score_large.py": "OIPR_LARGE"}
    for name, var in gated.items():
        assert f"{var}=1 python -m pytest tests/{name}" in readme, name
