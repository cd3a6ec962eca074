"""Every touch of user code is one guarded boundary.

Import, construction, attributes (``bounds``, ``higher_is_better``, ``input_kind``), the call, and
reading the result and its exception: whatever they raise (``SystemExit``, ``GeneratorExit``, a
custom ``BaseException``, a ``KeyboardInterrupt`` with no Ctrl-C) ends in a message naming the
evaluator and the step, never a traceback, a foreign exit code or an "interrupted".
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from oipr_bench.auditing.calling.runner import BAD_RESULT, RAISED, call_evaluator

REPO = Path(__file__).resolve().parents[1]
Y_TRUE = np.array([0, 1, 1, 0, 0, 1, 0], dtype=np.int8)
Y_PRED = np.array([0, 1, 0, 0, 1, 1, 0], dtype=np.int8)


def _cli(folder: Path, *argv: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "oipr_bench", *argv], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=300)


def _module(tmp_path: Path, source: str) -> Path:
    (tmp_path / "ev.py").write_text(textwrap.dedent(source))
    return tmp_path


class _Custom(BaseException):
    pass


def _raiser(exc: BaseException):
    def prop(self):
        raise exc
    return property(prop)


@pytest.mark.parametrize("exc", [SystemExit(3), GeneratorExit(), _Custom("mine"), KeyboardInterrupt()],
                         ids=["SystemExit", "GeneratorExit", "custom", "KeyboardInterrupt"])
def test_a_result_attribute_raising_anything_is_a_bad_result(exc):
    result_type = type("Result", (), {"precision": _raiser(exc), "recall": 0.5})
    outcome = call_evaluator(lambda t, p: result_type(), Y_TRUE, Y_PRED)
    assert outcome.kind == BAD_RESULT
    assert "result could not be read" in outcome.message and type(exc).__name__ in outcome.message


@pytest.mark.parametrize("method", ["__getitem__", "__repr__", "__len__", "__iter__"])
def test_a_result_raising_keyboard_interrupt_without_ctrl_c_is_a_bad_result(method):
    def boom(self, *args):
        raise KeyboardInterrupt

    result_type = type("Result", (), {method: boom})
    outcome = call_evaluator(lambda t, p: result_type(), Y_TRUE, Y_PRED)
    assert outcome.kind in (BAD_RESULT, RAISED)


def test_an_exception_whose_str_raises_keyboard_interrupt_is_an_outcome():
    class Nasty(Exception):
        def __str__(self):
            raise KeyboardInterrupt

    def ev(t, p):
        raise Nasty()

    outcome = call_evaluator(ev, Y_TRUE, Y_PRED)
    assert outcome.kind == RAISED and "Nasty" in outcome.message


def test_printing_while_reading_the_result_goes_to_stderr(capfd):
    class Loud:
        @property
        def precision(self):
            print("property output")
            return 0.5

        recall = 0.5

    assert call_evaluator(lambda t, p: Loud(), Y_TRUE, Y_PRED).ok
    out, err = capfd.readouterr()
    assert "property output" not in out and "property output" in err


SETUP_ATTACKS = {
    "bounds-raises": ("class E:\n    @property\n    def bounds(self):\n        raise ValueError('no bounds')\n"
                      "    def __call__(self, t, p):\n        return 0.5\nev = E()\n", "'bounds' attribute"),
    "higher-is-better-exits": ("class E:\n    @property\n    def higher_is_better(self):\n        raise SystemExit(7)\n"
                               "    def __call__(self, t, p):\n        return 0.5\nev = E()\n", "'higher_is_better' attribute"),
    "input-kind-raises": ("class E:\n    @property\n    def input_kind(self):\n        raise RuntimeError('kind boom')\n"
                          "    def __call__(self, t, p):\n        return 0.5, 0.5\nev = E()\n", "'input_kind' attribute"),
    "getattr-interrupt": ("class E:\n    def __getattr__(self, name):\n        raise KeyboardInterrupt\n"
                          "    def __call__(self, t, p):\n        return 0.5, 0.5\nev = E()\n", "not a Ctrl-C"),
    "import-interrupt": ("raise KeyboardInterrupt\n", "not a Ctrl-C"),
    "import-exit": ("import sys\nsys.exit(5)\n", "SystemExit"),
    "init-interrupt": ("class ev:\n    def __init__(self):\n        raise KeyboardInterrupt\n"
                       "    def __call__(self, t, p):\n        return 0.5, 0.5\n", "cannot instantiate"),
    "bounds-len-exits": ("class B:\n    def __len__(self):\n        raise SystemExit(9)\n"
                         "class E:\n    bounds = B()\n    def __call__(self, t, p):\n        return 0.5\nev = E()\n",
                         "'bounds' attribute"),
}


@pytest.mark.parametrize("name", sorted(SETUP_ATTACKS))
def test_user_code_during_setup_ends_in_one_line_naming_evaluator_and_step(tmp_path, name):
    source, words = SETUP_ATTACKS[name]
    proc = _cli(_module(tmp_path, source), "audit", "ev.py:ev")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr and "interrupted" not in proc.stderr
    assert "ev.py:ev" in lines[0] and words in lines[0]


def test_a_result_property_raising_system_exit_does_not_end_the_audit(tmp_path):
    source = ("class R:\n    @property\n    def precision(self):\n        raise SystemExit(3)\n    recall = 0.5\n"
              "def ev(t, p):\n    return R()\n")
    proc = _cli(_module(tmp_path, source), "audit", "ev.py:ev", "--format", "json")
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    assert all(c["status"] == "bad_result" and "SystemExit" in c["message"] for c in report["cases"])


@pytest.mark.parametrize("source", [
    "print('hello at import')\ndef ev(t, p):\n    return 0.5, 0.5\n",
    "import os\nos.write(1, b'raw at import\\n')\ndef ev(t, p):\n    return 0.5, 0.5\n",
    "class ev:\n    def __init__(self):\n        print('hello from __init__')\n    def __call__(self, t, p):\n        return 0.5, 0.5\n",
], ids=["print-at-import", "fd1-at-import", "print-in-init"])
def test_setup_output_never_corrupts_json_stdout(tmp_path, source):
    proc = _cli(_module(tmp_path, source), "audit", "ev.py:ev", "--format", "json")
    json.loads(proc.stdout)  # stdout holds the report and nothing else
    assert "hello" in proc.stderr or "raw at import" in proc.stderr
