"""The six score evaluators' reference values on the dataset's cases (``reference_results/values_*.json``).

Each file (kind ``score_values`` of ``schema/reference.schema.json``) holds one score evaluator's
number on every Table A1 case with its default parameters, the case's 0/1 predictions handed over
as float64 scores (as the audit does), random-detector cases averaged over their 100 runs.  Every
stored number is re-checked here against a computation that is not ours: AUC-ROC and AUC-PR
against their closed forms for two-valued scores, R-AUC against the loop-by-loop oracle, VUS
against the oracle on a few cases (tests/test_score_packages.py checks every VUS value against
TSB-AD in the atlas environment); ``test_reference.py`` re-computes all of them with our code.
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import numpy as np
import pytest

from oipr_bench import evaluators, reference, scenarios
from oipr_bench._paths import data_dir
from oipr_bench._version import __version__
from oipr_bench.cli import main
from oipr_bench.evaluators.oracles.scores import score_oracle

TOL = 1e-12


@pytest.fixture(scope="module")
def stored() -> dict[str, dict]:
    folder = data_dir("reference_results")
    return {name: json.loads((folder / file).read_text(encoding="utf-8"))
            for name, file in reference.SCORE_VALUE_FILES.items()}


@pytest.fixture(scope="module")
def cases() -> dict:
    return {c.id: c for c in scenarios.load()}


def _rows(doc: dict) -> dict[str, dict]:
    return {row["case_id"]: row for row in doc["cases"]}


def _per_run(row: dict) -> list[float]:
    return [row["value"]] if row["runs"] is None else row["runs"]


# --------------------------------------------------------------------------- files and provenance


def test_one_file_per_score_evaluator_with_provenance(stored, cases) -> None:
    assert list(reference.SCORE_VALUE_FILES) == list(evaluators.SCORE_NAMES)
    for name, doc in stored.items():
        reference.validate_document(doc, reference.SCORE_VALUE_FILES[name])
        assert doc["kind"] == "score_values" and doc["evaluator"] == name
        assert doc["params"] == json.loads(json.dumps(evaluators.get(name).params))  # the defaults
        assert doc["dataset_version"] == scenarios.TABLE_A1_VERSION
        assert doc["package_version"] == __version__
        assert "float64" in doc["input"] and "ddof=1" in doc["aggregation"]
        assert [row["case_id"] for row in doc["cases"]] == list(cases)
        for row in doc["cases"]:
            assert row["n_runs"] == cases[row["case_id"]].n_runs
            assert isinstance(row["value"], float) and math.isfinite(row["value"]), (name, row["case_id"])


def test_random_cases_store_runs_mean_and_standard_error(stored) -> None:
    for name, doc in stored.items():
        multi = [row for row in doc["cases"] if row["n_runs"] > 1]
        assert [row["case_id"] for row in multi] == ["random_detector/c1", "random_detector/c2"]
        for row in multi:
            runs = np.array(row["runs"])
            assert runs.size == 100 and np.ptp(runs) > 0, name
            assert row["value"] == pytest.approx(runs.mean(), abs=TOL)
            assert row["stderr"] == pytest.approx(runs.std(ddof=1) / 10, abs=TOL)
        single = [row for row in doc["cases"] if row["n_runs"] == 1]
        assert all(row["runs"] is None and row["stderr"] is None for row in single)


# --------------------------------------------------------------------------- the values, computed otherwise


def _two_valued(case, pred) -> tuple[int, int, int, int]:
    y = np.asarray(case.y_true) == 1
    p = np.asarray(pred) == 1
    return int((y & p).sum()), int((~y & p).sum()), int(y.sum()), int((~y).sum())


def test_auc_roc_values_equal_the_closed_form(stored, cases) -> None:
    # Two score values: the ROC curve is (0,0) -> (FPR, TPR) -> (1,1), area (1 + TPR - FPR) / 2.
    for case_id, row in _rows(stored["AUC-ROC"]).items():
        for pred, value in zip(cases[case_id].predictions, _per_run(row)):
            tp, fp, pos, neg = _two_valued(cases[case_id], pred)
            assert value == pytest.approx((1 + tp / pos - fp / neg) / 2, abs=TOL), case_id


def test_auc_pr_values_equal_the_closed_form(stored, cases) -> None:
    # Average precision over the thresholds 1 and 0: recall TP/P at precision TP/(TP+FP), then recall 1 at P/n.
    for case_id, row in _rows(stored["AUC-PR"]).items():
        for pred, value in zip(cases[case_id].predictions, _per_run(row)):
            tp, fp, pos, neg = _two_valued(cases[case_id], pred)
            first = (tp / pos) * (tp / (tp + fp)) if tp + fp else 0.0
            assert value == pytest.approx(first + (1 - tp / pos) * pos / (pos + neg), abs=TOL), case_id


@pytest.mark.parametrize("name", ["R-AUC-ROC", "R-AUC-PR"])
def test_range_auc_values_equal_the_oracle_on_every_case(stored, cases, name: str) -> None:
    oracle = score_oracle(name, **evaluators.get(name).params)
    for case_id, row in _rows(stored[name]).items():
        case = cases[case_id]
        preds = case.predictions if case.n_runs == 1 else case.predictions[::10]  # every tenth run of a random case
        runs = _per_run(row) if case.n_runs == 1 else _per_run(row)[::10]
        for pred, value in zip(preds, runs):
            assert value == pytest.approx(oracle(case.y_true, np.asarray(pred, dtype=float)), abs=1e-9), case_id


#: VUS's loop-by-loop oracle takes about a second per 500 points: cases of every length, sparse events, both constants.
VUS_ORACLE_CASES = ["overlap_proportion/c2", "fragmented_tps/c1", "tp_positions/c1", "sparse_anomalies/c1",
                    "constant_detector/c1", "constant_detector/c2"]


@pytest.mark.parametrize("name", ["VUS-ROC", "VUS-PR"])
def test_vus_values_equal_the_oracle_on_some_cases(stored, cases, name: str) -> None:
    oracle = score_oracle(name, **evaluators.get(name).params)
    rows = _rows(stored[name])
    for case_id in VUS_ORACLE_CASES:
        case = cases[case_id]
        assert rows[case_id]["value"] == pytest.approx(
            oracle(case.y_true, np.asarray(case.predictions[0], dtype=float)), abs=1e-9), case_id


# --------------------------------------------------------------------------- reading and checking


def test_reference_values_read_the_stored_numbers(stored) -> None:
    for name, doc in stored.items():
        values = reference.reference_values(name)
        assert list(values) == [row["case_id"] for row in doc["cases"]]
        for row in doc["cases"]:
            ref = values[row["case_id"]]
            assert math.isnan(ref.score.precision) and math.isnan(ref.score.recall)
            assert ref.score.f1 == row["value"]
            if row["runs"] is not None:
                assert [r.f1 for r in ref.runs] == row["runs"] and ref.stderr.f1 == row["stderr"]
        # explicit defaults read the file too; other parameters are computed on the fly
        assert reference.reference_values(name, **evaluators.get(name).params) == values


def test_reference_values_with_other_parameters_are_computed(stored, cases) -> None:
    wide = reference.reference_values("VUS-PR", sliding_window=20)
    case = cases["overlap_proportion/c2"]
    mine = evaluators.get("VUS-PR", sliding_window=20)(case.y_true, np.asarray(case.predictions[0], dtype=float))
    assert wide["overlap_proportion/c2"].score.f1 == pytest.approx(mine, abs=TOL)
    assert wide["overlap_proportion/c2"].score.f1 != pytest.approx(
        _rows(stored["VUS-PR"])["overlap_proportion/c2"]["value"], abs=1e-6)


def test_check_detects_a_tampered_score_value(tmp_path: Path, capsys) -> None:
    folder = data_dir("reference_results")
    for file in folder.glob("*.json"):
        shutil.copy(file, tmp_path / file.name)
    path = tmp_path / reference.SCORE_VALUE_FILES["VUS-PR"]
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["cases"][3]["value"] += 1e-9
    doc["cases"][-1]["runs"][42] += 1e-9
    doc["params"]["thresholds"] = 100
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["reference", "--check", "--dir", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "values_vus_pr.json: $.cases[3].value: stored" in out
    assert f"values_vus_pr.json: $.cases[{len(doc['cases']) - 1}].runs[42]: stored" in out
    assert "values_vus_pr.json: $.params.thresholds: stored 100, computed 250" in out


# --------------------------------------------------------------------------- their Table 5 rows


def test_the_stored_table5_rows_are_the_audit_s_readings() -> None:
    """``table5_score_evaluators.json`` equals a fresh audit of each score evaluator (values, numbers, messages)."""
    from oipr_bench.reports.score_table5 import check_score_table5

    assert check_score_table5() == []


def test_the_table5_rows_file_has_every_score_evaluator_and_characteristic() -> None:
    from oipr_bench.reports.score_table5 import TABLE5_FILE
    from oipr_bench.vocabulary import CHARACTERISTICS

    doc = reference.load_document(TABLE5_FILE)
    assert doc["kind"] == "table5_rows" and doc["package_version"] == __version__
    assert doc["dataset_version"] == scenarios.TABLE_A1_VERSION and "suite='table5'" in doc["provenance"]
    assert [r["evaluator"] for r in doc["evaluators"]] == list(evaluators.SCORE_NAMES + evaluators.NUMBER_NAMES)
    for row in doc["evaluators"]:
        assert row["params"] == json.loads(json.dumps(evaluators.get(row["evaluator"]).params))
        assert [c["name"] for c in row["characteristics"]] == list(CHARACTERISTICS)
        # a score evaluator's reading is chance-anchored; NAB's (0/1 predictions, bounds (None, 100)) is
        # anchored on the empty prediction and y_pred = y_true: every determined value names its anchors
        anchor = "chance" if row["evaluator"] in evaluators.SCORE_NAMES else "empty prediction"
        for c in row["characteristics"]:
            if c["value"] not in (None, "not_applicable"):
                assert anchor in c["message"] or anchor in " ".join(c["numbers"]), (row["evaluator"], c)


def test_overlap_awareness_of_auc_roc_follows_from_its_stored_numbers(stored) -> None:
    # (1 + TPR) / 2 on overlap_proportion c1-c4 (no false positive): 0.51, 0.6, 0.76, 1.0, strictly rising
    rows = _rows(stored["AUC-ROC"])
    values = [rows[f"overlap_proportion/c{i}"]["value"] for i in range(1, 5)]
    assert values == pytest.approx([0.51, 0.6, 0.76, 1.0], abs=TOL)
    from oipr_bench.reports.score_table5 import TABLE5_FILE

    doc = reference.load_document(TABLE5_FILE)
    auc = next(r for r in doc["evaluators"] if r["evaluator"] == "AUC-ROC")
    overlap = next(c for c in auc["characteristics"] if c["name"] == "overlap_proportion_awareness")
    assert overlap["value"] == "yes"
    assert overlap["numbers"]["raw overlap_proportion/c1"] == pytest.approx(0.51, abs=TOL)


def test_check_detects_a_tampered_table5_row(tmp_path: Path) -> None:
    from oipr_bench.reports.score_table5 import TABLE5_FILE, check_score_table5

    doc = reference.load_document(TABLE5_FILE)
    doc["evaluators"][5]["characteristics"][1]["value"] = "no"
    (tmp_path / TABLE5_FILE).write_text(json.dumps(doc), encoding="utf-8")
    problems = check_score_table5(tmp_path)
    assert problems == [f"{TABLE5_FILE}: $.evaluators[5].characteristics[1].value: stored 'no', computed 'yes'"]


def test_every_raw_case_value_of_the_table5_rows_is_the_stored_case_value(stored) -> None:
    """The two files agree: each ``raw <case>`` number a rule read is that case's stored number."""
    from oipr_bench.reports.score_table5 import TABLE5_FILE

    doc = reference.load_document(TABLE5_FILE)
    seen = 0
    for row in doc["evaluators"]:
        rows = _rows(stored[row["evaluator"]])
        for c in row["characteristics"]:
            for key, value in c["numbers"].items():
                if key.startswith("raw ") and key[4:] in rows:
                    assert value == pytest.approx(rows[key[4:]]["value"], abs=TOL), (row["evaluator"], c["name"], key)
                    seen += 1
    assert seen > 100
