"""Evaluators that fail while being set up: one line naming the evaluator, everywhere."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from oipr_bench import audit
from oipr_bench.errors import UsageError

REPO = Path(__file__).resolve().parents[1]

SOURCES = {
    "init_exit": """
        class Ev:
            def __init__(self):
                raise SystemExit(4)
            def __call__(self, y_true, y_pred):
                return 0.5, 0.5
        """,
    "params_property": """
        class Ev:
            @property
            def params(self):
                raise RuntimeError("params exploded")
            def __call__(self, y_true, y_pred):
                return 0.5, 0.5
        """,
    "profile_property": """
        class Ev:
            @property
            def oipr_profile(self):
                raise RuntimeError("profile exploded")
            def __call__(self, y_true, y_pred):
                return 0.5, 0.5
        """,
    "module_getattr": """
        def __getattr__(name):
            raise KeyError(name)
        """,
}
SPEC = {"init_exit": "Ev", "params_property": "Ev", "profile_property": "Ev", "module_getattr": "f"}


def _write(folder: Path, kind: str) -> str:
    name = f"setup_{kind}"
    (folder / f"{name}.py").write_text(textwrap.dedent(SOURCES[kind]))
    return f"{name}:{SPEC[kind]}"


def _env(folder: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(folder), str(REPO), env.get("PYTHONPATH", "")])
    return env


@pytest.mark.parametrize("kind", sorted(SOURCES))
def test_audit_function_gives_a_usage_error_naming_the_evaluator(tmp_path, monkeypatch, kind):
    spec = _write(tmp_path, kind)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(UsageError) as info:
        audit(spec)
    message = str(info.value)
    assert spec in message and "\n" not in message


@pytest.mark.parametrize("kind", sorted(SOURCES))
def test_cli_gives_one_line_and_exit_code_2(tmp_path, kind):
    spec = _write(tmp_path, kind)
    proc = subprocess.run([sys.executable, "-m", "oipr_bench", "audit", spec], cwd=tmp_path, env=_env(tmp_path),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and spec in lines[0] and "Traceback" not in proc.stderr


@pytest.mark.parametrize("kind", sorted(SOURCES))
def test_plugin_gives_a_usage_error_not_an_internal_error(tmp_path, kind):
    spec = _write(tmp_path, kind)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--evaluator", spec],
                          cwd=tmp_path, env=_env(tmp_path), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 4, proc.stdout + proc.stderr  # pytest's usage-error exit code
    assert "INTERNALERROR" not in proc.stdout + proc.stderr
    assert spec in proc.stderr and "Traceback" not in proc.stderr
