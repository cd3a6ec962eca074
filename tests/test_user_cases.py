"""Your own cases: ``--oipr-cases FILE`` (plugin), ``oipr-bench audit --cases FILE``, ``audit(cases=FILE)``.

A user's file in the dataset's scenario format adds cases that are run, and compared with
``--reference``, like the built-in ones; a malformed case is a one-line error naming the
file, the case and the field.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import oipr_bench
from oipr_bench.errors import FixtureError
from oipr_bench.scenarios.loader import load_cases_file
from oipr_bench.vocabulary import FAILED, PASSED

pytest_plugins = ["pytester"]

CASES: dict[str, Any] = {
    "schema": "urn:oipr-bench:schema:scenario:1.0.0",
    "dataset_version": "1.0.0",
    "scenario": "my_edge_cases",
    "title": "My edge cases",
    "description": "Events at both ends of the series.",
    "characteristics": ["existence_detection_reward"],
    "cases": [
        {"id": "my_edge_cases/c1", "case": "c1", "description": "An event touching the last index, hit on its last point.",
         "length": 20, "characteristics": ["existence_detection_reward"],
         "provenance": {"paper_table": "A1", "row_label": "c1", "source": "reconstructed", "authors_csv": None,
                        "note": "not in the paper: a user's own case"},
         "y_true": [[0, 2], [15, 20]], "y_pred": [[19, 20]]},
        {"id": "my_edge_cases/c2", "case": "c2", "description": "No anomaly, one false alarm at index 0.",
         "length": 9, "characteristics": ["existence_detection_reward"],
         "provenance": {"paper_table": "A1", "row_label": "c2", "source": "reconstructed", "authors_csv": None,
                        "note": "not in the paper: a user's own case"},
         "y_true": [], "y_pred": [[0, 1]]},
    ],
}

#: PA with a planted bug: the last point of the series is never counted as predicted.
BUGGY = """
from oipr_bench.evaluators import get
_pa = get("PA")

def evaluate(y_true, y_pred):
    y_pred = y_pred.copy()
    y_pred[-1] = 0
    return tuple(_pa(y_true, y_pred))[:2]
"""


def write(folder: Path, doc: dict[str, Any], name: str = "my_cases.json") -> Path:
    path = folder / name
    path.write_text(json.dumps(doc))
    return path


def test_a_user_case_file_loads_like_the_dataset(tmp_path: Path) -> None:
    cases = load_cases_file(write(tmp_path, CASES))
    assert [c.id for c in cases] == ["my_edge_cases/c1", "my_edge_cases/c2"]
    assert cases[0].y_true.tolist() == [1, 1] + [0] * 13 + [1] * 5 and not cases[0].y_true.flags.writeable


def test_user_cases_are_run_and_compared_with_the_reference(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, CASES)
    profile = oipr_bench.audit("PA", reference="PA", cases=str(path), sanity=False)
    assert profile.case_results["my_edge_cases/c1"].score == (1.0, 5 / 7, 2 * (5 / 7) / (1 + 5 / 7))
    assert profile.reference_results["my_edge_cases/c1"].status == PASSED
    assert profile.fixtures["user_cases"] == ["my_edge_cases/c1", "my_edge_cases/c2"]
    assert profile.fixtures["cases_file"] == str(path)
    plain = oipr_bench.audit("PA", reference="PA", sanity=False)
    assert plain.fixtures["sha256"] != profile.fixtures["sha256"] and plain.signature != profile.signature
    (tmp_path / "buggy_pa.py").write_text(BUGGY)
    monkeypatch.syspath_prepend(str(tmp_path))
    buggy = oipr_bench.audit("buggy_pa:evaluate", reference="PA", cases=str(path), sanity=False)
    bad = buggy.reference_results["my_edge_cases/c1"]
    assert bad.status == FAILED and "recall 0.0 vs 0.7142857142857143" in bad.message


def _broken(mutate: Any) -> dict[str, Any]:
    doc = copy.deepcopy(CASES)
    mutate(doc)
    return doc


@pytest.mark.parametrize("mutate, expected", [
    (lambda d: d["cases"][1].pop("length"), "case my_edge_cases/c2: $.cases[1]: schema violation: 'length' is a required property"),
    (lambda d: d["cases"][0].__setitem__("y_pred", [[5, 3]]),
     "case my_edge_cases/c1: $.cases[0].y_pred[0]: empty or reversed interval [5, 3)"),
    (lambda d: d["cases"][0].__setitem__("y_true", [[0, 2], [15, 21]]),
     "case my_edge_cases/c1: $.cases[0].y_true[1]: interval [15, 21) ends past the series length 20"),
    (lambda d: d["cases"][1].__setitem__("id", "my_edge_cases/c1"),
     "case my_edge_cases/c1: $.cases[1].id: id must be 'my_edge_cases/c2'"),
    (lambda d: d["cases"][0].__setitem__("length", "20"), "case my_edge_cases/c1: $.cases[0].length: schema violation"),
])
def test_a_malformed_case_is_one_line_naming_file_case_and_field(tmp_path: Path, mutate: Any, expected: str) -> None:
    path = write(tmp_path, _broken(mutate))
    with pytest.raises(FixtureError) as exc:
        oipr_bench.audit("PA", cases=str(path))
    assert str(exc.value).startswith(f"{path}: {expected}"), str(exc.value)
    assert "\n" not in str(exc.value)


def test_a_user_case_may_not_reuse_a_builtin_id(tmp_path: Path) -> None:
    doc = _broken(lambda d: (d.__setitem__("scenario", "sparse_anomalies"),
                             [c.__setitem__("id", "sparse_anomalies/" + c["case"]) for c in d["cases"]]))
    path = write(tmp_path, doc)
    with pytest.raises(FixtureError, match=r"case sparse_anomalies/c1: \$\.cases\[0\]\.id: this id is a case of the built-in"):
        oipr_bench.audit("PA", cases=str(path))


def test_cli_names_the_file_case_and_field(tmp_path: Path) -> None:
    path = write(tmp_path, _broken(lambda d: d["cases"][0].__setitem__("y_pred", [[5, 3]])))
    proc = subprocess.run([sys.executable, "-m", "oipr_bench", "audit", "PA", "--cases", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and f"{path}: case my_edge_cases/c1: $.cases[0].y_pred[0]: empty or reversed" in lines[0]


def test_plugin_adds_case_and_reference_items(pytester: pytest.Pytester) -> None:
    write(pytester.path, CASES)
    pytester.makepyfile(buggy_pa=BUGGY)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--evaluator=buggy_pa:evaluate", "--reference=PA",
                                           "--oipr-cases=my_cases.json", "-k", "my_edge_cases", "-rf", timeout=300)
    out = result.stdout.str()
    assert "FAILED oipr-bench::reference[my_edge_cases/c1]" in out
    result.assert_outcomes(passed=3, failed=1)  # two case items, reference c2 passes, reference c1 fails
    write(pytester.path, _broken(lambda d: d["cases"][1].pop("y_pred")), "bad.json")
    bad = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--evaluator=PA", "--oipr-cases=bad.json", timeout=120)
    err = bad.stderr.str()
    assert "bad.json: case my_edge_cases/c2: $.cases[1]: schema violation" in err and "Traceback" not in err
