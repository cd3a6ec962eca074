"""Every pytest test that an attack replay script names as covering a finding exists.

``tests/attacks_reports_outputs_scores.py`` prints, beside each attack, the tests that cover its
finding (``covered by tests/file.py::test_name, other_test_in_the_same_file``).  Each name must be
a test function of that file: the file exists and holds ``def <name>(``.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent


def _script():
    spec = importlib.util.spec_from_file_location("attacks_reports_outputs_scores",
                                                  TESTS / "attacks_reports_outputs_scores.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SCRIPT = _script()
NAMED = [(attack, file, name) for attack, _, covered in SCRIPT.ATTACKS for file, name in SCRIPT.named_tests(covered)]


def test_every_attack_names_its_covering_tests_or_says_it_has_none() -> None:
    for attack, _, covered in SCRIPT.ATTACKS:
        assert SCRIPT.named_tests(covered) or covered == SCRIPT.ONLY_HERE, attack
    assert len({attack for attack, _, _ in NAMED}) == len(SCRIPT.ATTACKS) - 1  # the RangeAUC docs check only


@pytest.mark.parametrize("attack, file, name", NAMED, ids=[f"{f}::{n}" for _, f, n in NAMED])
def test_a_named_covering_test_exists(attack: str, file: str, name: str) -> None:
    path = REPO / file
    assert file.startswith("tests/test_") and path.is_file(), f"{attack}: no file {file}"
    assert re.search(rf"^def {re.escape(name)}\(", path.read_text(encoding="utf-8"), re.M), f"{attack}: no def {name} in {file}"


def test_the_check_catches_a_name_that_does_not_exist() -> None:
    named = SCRIPT.named_tests("tests/test_verify.py::test_verify_of_an_html_report_says_it_is_not_verifiable, no_such_test")
    assert named == [("tests/test_verify.py", "test_verify_of_an_html_report_says_it_is_not_verifiable"),
                     ("tests/test_verify.py", "no_such_test")]
    text = (REPO / "tests/test_verify.py").read_text(encoding="utf-8")
    assert re.search(rf"^def {named[0][1]}\(", text, re.M) and not re.search(rf"^def {named[1][1]}\(", text, re.M)
