"""Reference results in reference_results/: recomputation, schema, regeneration, --check, API."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import jsonschema
import numpy as np
import pytest

from oipr_bench import evaluators, reference, scenarios
from oipr_bench.reference import paper
from oipr_bench._paths import data_dir
from oipr_bench.cli import main
from oipr_bench.errors import FixtureError

ALL_FILES = [*reference.SCORE_FILES.values(), *reference.SCORE_VALUE_FILES.values(), reference.C2_FILE, reference.C1_FILE]


@pytest.fixture(scope="module")
def stored_dir() -> Path:
    return data_dir("reference_results")


@pytest.fixture(scope="module")
def fresh_docs() -> dict:
    return reference.build_documents()


@pytest.fixture()
def copy_dir(tmp_path, stored_dir) -> Path:
    out = tmp_path / "ref"
    out.mkdir()
    for name in ALL_FILES:
        shutil.copy(stored_dir / name, out / name)
    return out


# --------------------------------------------------------------------------- schema


def test_schema_is_valid_draft_2020_12_with_urn_id():
    schema = json.loads((data_dir("schema") / reference.SCHEMA_FILE).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == reference.SCHEMA_ID and schema["$id"].startswith("urn:oipr-bench:schema:reference:")
    for kind in ("scores", "oipr_attenuation", "oipr_long_short_threshold"):
        branch = schema["$defs"][kind]
        assert branch["additionalProperties"] is False and branch["description"]


@pytest.mark.parametrize("file_name", ALL_FILES)
def test_stored_file_validates_against_schema(stored_dir, file_name):
    doc = json.loads((stored_dir / file_name).read_text(encoding="utf-8"))
    reference.validate_document(doc, file_name)  # raises on error
    assert doc["schema"] == reference.SCHEMA_ID


def test_schema_rejects_an_extra_key_with_its_path(fresh_docs):
    doc = json.loads(json.dumps(fresh_docs["scores_pw.json"]))
    doc["cases"][3]["score"]["accuracy"] = 0.5
    with pytest.raises(FixtureError) as exc:
        reference.validate_document(doc, "scores_pw.json")
    # One schema layer (oipr_bench.jsondata) for fixtures and reference files: the unknown field is named.
    assert str(exc.value) == (
        "scores_pw.json: $.cases[3].score.accuracy: unknown field 'accuracy' (the schema allows only f1, precision, recall)"
    )
    assert "accuracy" in str(exc.value)


def test_schema_rejects_a_string_score(fresh_docs):
    doc = json.loads(json.dumps(fresh_docs["oipr_attenuation.json"]))
    doc["cases"][0]["score"]["recall"] = "0.2"
    with pytest.raises(FixtureError, match=r"\$\.cases\[0\]\.score\.recall"):
        reference.validate_document(doc, "oipr_attenuation.json")


# --------------------------------------------------------------------------- recomputation


def test_recomputation_matches_stored_files_to_1e_12(stored_dir):
    assert reference.check_reference(stored_dir) == []


def test_stored_files_cover_every_case_and_evaluator(stored_dir):
    case_ids = [c.id for c in scenarios.load()]
    for name, file_name in reference.SCORE_FILES.items():
        doc = json.loads((stored_dir / file_name).read_text(encoding="utf-8"))
        assert doc["evaluator"] == name
        assert doc["params"] == json.loads(json.dumps(evaluators.get(name).params))
        assert doc["dataset_version"] == scenarios.TABLE_A1_VERSION
        assert [row["case_id"] for row in doc["cases"]] == case_ids


def test_stored_files_carry_paper_values_with_provenance(stored_dir):
    doc = json.loads((stored_dir / reference.SCORE_FILES["AM"]).read_text(encoding="utf-8"))
    rows = {row["case_id"]: row for row in doc["cases"]}
    c1 = rows["constant_detector/c1"]
    assert c1["paper"] == {"table": "A1", "row": "constant detector c1", "precision": None, "recall": 0.0, "f1": None}
    assert c1["score"]["precision"] is None and c1["score"]["f1"] is None  # NaN stored as null
    assert rows["sparse_anomalies/c2"]["paper"]["row"] == "sparse anomalies c1"  # the paper's printed label
    c2 = json.loads((stored_dir / reference.C2_FILE).read_text(encoding="utf-8"))
    assert len(c2["cases"]) == 3 * len(paper.table_c2())
    assert c2["cases"][0]["paper"]["column"] == "OIPR (linear)"
    c1_doc = json.loads((stored_dir / reference.C1_FILE).read_text(encoding="utf-8"))
    assert len(c1_doc["rows"]) == 18
    sig = next(r for r in c1_doc["rows"] if r["attenuation"] == "sigmoid" and r["l_dis"] == 5)
    assert (sig["l_obs"], sig["paper"]["threshold"]) == (20, 12.59)
    assert abs(sig["threshold"] - 12.59) <= paper.PRINTED_2DP_TOLERANCE


def test_random_cases_store_runs_means_and_standard_errors(stored_dir):
    doc = json.loads((stored_dir / reference.SCORE_FILES["PA"]).read_text(encoding="utf-8"))
    rows = {row["case_id"]: row for row in doc["cases"]}
    for case_id in ("random_detector/c1", "random_detector/c2"):
        row = rows[case_id]
        assert row["n_runs"] == 100
        for metric in ("precision", "recall", "f1"):
            runs = np.array(row["runs"][metric], dtype=float)
            assert runs.shape == (100,)
            assert row["score"][metric] == pytest.approx(runs.mean(), abs=1e-15)
            assert row["stderr"][metric] == pytest.approx(runs.std(ddof=1) / 10.0, abs=1e-15)
    det = rows["overlap_proportion/c1"]
    assert det["n_runs"] == 1 and det["runs"] is None and det["stderr"] is None


def test_random_f1_is_mean_of_run_f1_not_f1_of_means():
    value = reference.compute_value("random_detector/c2", "PA")
    mean_f1 = float(np.mean([run.f1 for run in value.runs]))
    assert value.score.f1 == pytest.approx(mean_f1, abs=1e-15)
    p, r = value.score.precision, value.score.recall
    f1_of_means = 2 * p * r / (p + r)
    printed = paper.table_a1()["random_detector/c2"]["PA"].f1  # 0.4428
    assert abs(value.score.f1 - printed) <= paper.PRINTED_4DP_TOLERANCE
    assert abs(f1_of_means - printed) > 3 * paper.PRINTED_4DP_TOLERANCE  # the other reading would not match


# --------------------------------------------------------------------------- regeneration and --check


def test_regeneration_is_byte_identical(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    paths_a = reference.write_reference(first)
    paths_b = reference.write_reference(second)
    assert sorted(p.name for p in paths_a) == sorted(ALL_FILES)
    for pa, pb in zip(paths_a, paths_b):
        assert pa.read_bytes() == pb.read_bytes()
    assert not list(first.glob(".*.tmp"))  # atomic writes leave no temporary files
    assert reference.check_reference(first) == []


def test_cli_write_then_check(tmp_path, capsys):
    assert main(["reference", "--write", "--dir", str(tmp_path)]) == 0
    assert main(["reference", "--check", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "17 files up to date" in out


def test_check_detects_a_tampered_value(copy_dir, capsys):
    path = copy_dir / reference.SCORE_FILES["OIPR"]
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["cases"][0]["score"]["recall"] += 1e-9
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    assert main(["reference", "--check", "--dir", str(copy_dir)]) == 1
    out = capsys.readouterr().out
    assert "scores_oipr.json: $.cases[0].score.recall: stored" in out


def test_check_detects_tampered_runs_and_params(copy_dir):
    path = copy_dir / reference.SCORE_FILES["TaPR"]
    doc = json.loads(path.read_text(encoding="utf-8"))
    rows = {row["case_id"]: i for i, row in enumerate(doc["cases"])}
    i = rows["random_detector/c1"]
    doc["cases"][i]["runs"]["f1"][17] = 0.5
    doc["params"]["delta"] = 6 if doc["params"].get("delta") != 6 else 7
    path.write_text(json.dumps(doc), encoding="utf-8")
    problems = reference.check_reference(copy_dir)
    assert any(f"$.cases[{i}].runs.f1[17]" in p for p in problems)
    assert any("$.params.delta" in p for p in problems)


def test_check_reports_missing_and_invalid_files(copy_dir):
    (copy_dir / reference.C1_FILE).unlink()
    (copy_dir / reference.SCORE_FILES["PW"]).write_text("{not json", encoding="utf-8")
    problems = reference.check_reference(copy_dir)
    assert any(reference.C1_FILE in p and "missing" in p for p in problems)
    assert any("scores_pw.json" in p and "not valid JSON" in p for p in problems)


def test_check_ignores_package_version_only(copy_dir):
    path = copy_dir / reference.C2_FILE
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["package_version"] = "99.0.0"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert reference.check_reference(copy_dir) == []


def test_cli_reference_rejects_write_and_check_together(capsys):
    assert main(["reference", "--write", "--check"]) == 2
    assert "not both" in capsys.readouterr().err


# --------------------------------------------------------------------------- API


def test_reference_values_default_reads_the_stored_file(stored_dir):
    values = reference.reference_values("OIPR")
    doc = json.loads((stored_dir / reference.SCORE_FILES["OIPR"]).read_text(encoding="utf-8"))
    assert list(values) == [row["case_id"] for row in doc["cases"]]
    first = doc["cases"][0]["score"]
    assert values["overlap_proportion/c1"].score == (first["precision"], first["recall"], first["f1"])
    rnd = values["random_detector/c1"]
    assert len(rnd.runs) == 100 and isinstance(rnd.runs[0], evaluators.Score) and rnd.stderr.recall > 0
    # explicit default parameters also use the stored values
    assert reference.reference_values("OIPR", l_dis=5, l_obs=20, b_dur=0.5) == values


def test_reference_values_nan_round_trips():
    am = reference.reference_values("AM")["constant_detector/c1"].score
    assert math.isnan(am.precision) and am.recall == 0.0 and math.isnan(am.f1)


def test_reference_values_other_params_are_computed():
    values = reference.reference_values("OIPR", attenuation="exp")
    printed = paper.table_c2()["overlap_proportion/c1"]["exp"]
    assert values["overlap_proportion/c1"].score.recall == pytest.approx(printed.recall, abs=paper.PRINTED_4DP_TOLERANCE)
    pw = reference.reference_values("OIPR", l_obs=0)  # eq. 10: OIPR with l_obs = 0 equals PW
    stored_pw = reference.reference_values("PW")
    for case_id, value in pw.items():
        assert value.score == pytest.approx(stored_pw[case_id].score, abs=1e-12, nan_ok=True)


def test_reference_values_errors():
    with pytest.raises(KeyError, match="unknown evaluator"):
        reference.reference_values("F1")
    with pytest.raises((ValueError, TypeError), match="OIPR"):
        reference.reference_values("OIPR", l_dis=-1)


def test_reference_values_refuses_a_stale_dataset_version(monkeypatch):
    doc = reference.load_document(reference.SCORE_FILES["PW"])
    monkeypatch.setattr(reference.values, "_cached_document", lambda name: {**doc, "dataset_version": "0.9.0"})
    with pytest.raises(FixtureError, match=r"\$\.dataset_version: made for dataset version 0\.9\.0"):
        reference.reference_values("PW")


def test_compute_score_accepts_case_id_or_case():
    case = scenarios.get("overlap_proportion/c1")
    by_id = reference.compute_score("overlap_proportion/c1", "OIPR", attenuation="linear")
    by_case = reference.compute_score(case, "OIPR", attenuation="linear")
    assert by_id == by_case
    assert by_id.recall == pytest.approx(0.2128, abs=paper.PRINTED_4DP_TOLERANCE)


def test_load_document_missing_file_names_it(tmp_path):
    with pytest.raises(FixtureError, match="scores_pw.json: reference file is missing"):
        reference.load_document("scores_pw.json", tmp_path)
