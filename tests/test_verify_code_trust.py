"""``verify`` runs only code the user has at hand: a report naming anything else is refused before it runs.

A report is data, possibly from someone else.  Its evaluator may be a built-in evaluator or code in the
report's folder, the working directory or oipr-bench's own package, nothing else.  A module built into
the interpreter or frozen into it (``io``, ``_io``, ``os``, ``posix``, ``codecs``, ...) is "elsewhere"
too, and so is an object reached through an allowed module's attributes (``uses.py:io.FileIO``: the
module is the user's, the class is not).  Nothing the report names is constructed or called before
that check passes: each attack below would truncate, create or delete a file if it ran.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

#: How a refusal says that code has no file: a module built or frozen into the interpreter.
INTERPRETER = "built into the Python interpreter"

PR = "def f(t, p):\n    return (0.5, 0.5)\n"
#: A user's module that imports what the attacks reach through its attributes.
USES = "import io, os, shutil, pathlib, builtins\nfrom functools import partial\nfrom io import FileIO\nfrom shutil import rmtree\n\n" \
       "def f(t, p):\n    return (0.5, 0.5)\n\n\ng = partial(f)\n"
PRECIOUS = "precious data\n"


def cli(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "oipr_bench", *args], cwd=folder, capture_output=True, text=True,
                          timeout=600)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("trust")
    (folder / "pr.py").write_text(PR)
    (folder / "uses.py").write_text(USES)
    proc = cli(folder, "audit", "pr.py:f", "--format", "json", "-o", "base.json")
    assert proc.returncode == 1 and (folder / "base.json").is_file(), proc.stderr
    return folder


def evil_report(folder: Path, name: str, params: dict[str, Any]) -> str:
    d = json.loads((folder / "base.json").read_text())
    d["evaluator"]["name"] = name
    d["evaluator"]["params"] = params
    (folder / "evil.json").write_text(json.dumps(d))
    return "evil.json"


#: (evaluator named by the report, its params, what would appear or change if it ran, words of the refusal)
ATTACKS = [
    ("io:FileIO", {"file": "victim.txt", "mode": "w"}, INTERPRETER),  # the reproduction: truncates
    ("_io:FileIO", {"file": "victim.txt", "mode": "w"}, INTERPRETER),
    ("io:FileIO", {"file": "created.txt", "mode": "x"}, INTERPRETER),  # creates a file
    ("io:open", {"file": "victim.txt", "mode": "w"}, INTERPRETER),
    ("builtins:open", {"file": "victim.txt", "mode": "w"}, INTERPRETER),
    ("os:makedirs", {"name": "made"}, INTERPRETER),
    ("posix:mkdir", {}, INTERPRETER),
    ("codecs:open", {"filename": "victim.txt", "mode": "w"}, INTERPRETER),
    ("shutil:rmtree", {"path": "keep"}, "whose code is at "),
    ("pathlib:Path.write_text", {"data": ""}, "whose code is at "),
    ("logging:FileHandler", {"filename": "victim.txt", "mode": "w"}, "whose code is at "),
    # through the attributes of a module in the working directory: the module is allowed, the object not
    ("uses.py:io.FileIO", {"file": "victim.txt", "mode": "w"}, "which is the module io, " + INTERPRETER),
    ("uses:io.FileIO", {"file": "victim.txt", "mode": "w"}, "which is the module io, " + INTERPRETER),
    ("uses.io.FileIO", {"file": "victim.txt", "mode": "x"}, INTERPRETER),
    ("uses.py:FileIO", {"file": "victim.txt", "mode": "w"}, INTERPRETER),
    ("uses.py:rmtree", {"path": "keep"}, "which is shutil.rmtree, whose code is at "),
    ("uses.py:os.makedirs", {"name": "made"}, "which is the module os, " + INTERPRETER),
    ("uses.py:builtins.open", {"file": "victim.txt", "mode": "w"}, "which is the module builtins, " + INTERPRETER),
    ("uses.py:shutil.rmtree", {"path": "keep"}, "which is the module shutil, whose code is at "),
    ("uses.py:pathlib.Path.write_text", {"data": ""}, "which is the module pathlib, whose code is at "),
    # oipr-bench's own package is allowed, what it imports is not
    ("oipr_bench.io:os.replace", {}, "which is the module os, " + INTERPRETER),
    ("oipr_bench.io:Path", {}, "which is pathlib.Path, whose code is at "),
]


@pytest.mark.parametrize("name,params,words", ATTACKS, ids=[a[0] for a in ATTACKS])
def test_verify_refuses_code_the_report_names_from_elsewhere_before_running_it(base: Path, name: str,
                                                                                params: dict[str, Any],
                                                                                words: str) -> None:
    (base / "victim.txt").write_text(PRECIOUS)
    (base / "keep").mkdir(exist_ok=True)
    (base / "keep" / "inside.txt").write_text(PRECIOUS)
    proc = cli(base, "verify", evil_report(base, name, params))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    *before, line = proc.stderr.strip().splitlines()  # an allowed module is named as it is imported
    assert "Traceback" not in proc.stderr and all(b.startswith("verify: importing evaluator") for b in before), proc.stderr
    assert f"evil.json: the report names evaluator {name!r}, " in line and words in line, line
    assert "outside the report's folder and the working directory" in line, line
    assert f"--evaluator {name}" in line, line
    assert (base / "victim.txt").read_text() == PRECIOUS
    assert (base / "keep" / "inside.txt").read_text() == PRECIOUS
    assert not (base / "created.txt").exists() and not (base / "made").exists()


def test_the_users_own_evaluator_and_a_partial_of_it_still_verify(base: Path) -> None:
    assert cli(base, "verify", "base.json").returncode == 0
    proc = cli(base, "verify", evil_report(base, "uses.py:g", {}))
    assert proc.returncode == 1, proc.stdout + proc.stderr  # runs (signature differs), not refused
    assert "NOT reproduced" in proc.stdout


def test_a_built_in_evaluator_named_by_a_report_still_verifies(base: Path) -> None:
    proc = cli(base, "audit", "PW", "--suite", "table5", "--format", "json", "-o", "pw.json")
    assert proc.returncode == 1, proc.stderr
    assert cli(base, "verify", "pw.json").returncode == 0


def test_where_code_lives() -> None:
    from oipr_bench.auditing.calling import trust
    from oipr_bench.auditing.calling.trust import code_file, spec_location

    assert trust.INTERPRETER == INTERPRETER
    import io
    import os
    import shutil

    assert spec_location("io:FileIO") == INTERPRETER and spec_location("_io:FileIO") == INTERPRETER
    assert spec_location("posix:mkdir") == INTERPRETER and spec_location("OIPR") is None
    assert spec_location("shutil:rmtree") == Path(shutil.__file__).resolve()
    assert code_file(io.FileIO) is None and code_file(os.makedirs) is None and code_file(open) is None
    assert code_file(shutil.rmtree) == Path(shutil.__file__).resolve()
    import functools

    assert code_file(functools.partial(shutil.rmtree)) == Path(shutil.__file__).resolve()
    assert code_file(functools.partial(os.makedirs)) is None
    assert code_file(test_where_code_lives) == Path(__file__).resolve()
