"""Negative tests: every broken fixture raises FixtureError naming file, case and JSON path.

Each test copies the shipped dataset into a temporary folder, breaks one
thing, and (unless the hash itself is under test) re-hashes the manifest, so
that the error raised is the one the test is about.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any, Callable

import pytest

from oipr_bench import FixtureError, scenarios
from oipr_bench._paths import data_dir
from oipr_bench.io import dumps_json
from oipr_bench.scenarios.generator import sha256_hex


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    out = tmp_path / "scenarios"
    shutil.copytree(data_dir("scenarios"), out)
    return out


def rehash(folder: Path) -> None:
    manifest_path = folder / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    for entry in manifest["files"]:
        entry["sha256"] = sha256_hex((folder / entry["path"]).read_bytes())
    manifest_path.write_text(dumps_json(manifest))


def edit(folder: Path, name: str, change: Callable[[Any], None], *, keep_hash: bool = False) -> None:
    path = folder / name
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(dumps_json(doc))
    if not keep_hash:
        rehash(folder)


def load_error(folder: Path) -> FixtureError:
    with pytest.raises(FixtureError) as info:
        scenarios.load(folder)
    return info.value


def test_the_copy_loads(dataset):
    assert len(scenarios.load(dataset)) == 25


def test_unknown_field_in_a_case(dataset):
    edit(dataset, "fragmented_tps.json", lambda d: d["cases"][1].update(colour="red"))
    err = load_error(dataset)
    assert err.file.endswith("fragmented_tps.json")
    assert err.case_id == "fragmented_tps/c2"
    assert err.json_path == "$.cases[1].colour"
    assert str(err).startswith(f"{err.file}: case fragmented_tps/c2: $.cases[1].colour: schema violation: unknown field")


def test_unknown_top_level_field(dataset):
    edit(dataset, "tp_positions.json", lambda d: d.update(extra=1))
    err = load_error(dataset)
    assert err.file.endswith("tp_positions.json") and err.case_id is None and err.json_path == "$.extra"


def test_unknown_field_in_provenance(dataset):
    edit(dataset, "overlap_proportion.json", lambda d: d["cases"][3]["provenance"].update(author="x"))
    err = load_error(dataset)
    assert (err.case_id, err.json_path) == ("overlap_proportion/c4", "$.cases[3].provenance.author")


def test_overlapping_interval(dataset):
    def change(d):
        d["cases"][1]["y_pred"][1] = [35, 48]  # [30,38) then [35,48)

    edit(dataset, "fragmented_tps.json", change)
    err = load_error(dataset)
    assert err.file.endswith("fragmented_tps.json")
    assert (err.case_id, err.json_path) == ("fragmented_tps/c2", "$.cases[1].y_pred[1]")
    assert "overlaps" in err.message
    assert "fragmented_tps.json: case fragmented_tps/c2: $.cases[1].y_pred[1]: interval [35, 48)" in str(err)


def test_touching_intervals_are_not_maximal_events(dataset):
    edit(dataset, "fragmented_tps.json", lambda d: d["cases"][1]["y_pred"].__setitem__(1, [38, 48]))
    err = load_error(dataset)
    assert err.json_path == "$.cases[1].y_pred[1]" and "touches" in err.message


def test_unsorted_intervals(dataset):
    edit(dataset, "temporal_shifting.json", lambda d: d["cases"][0]["y_pred"].reverse())
    err = load_error(dataset)
    assert (err.case_id, err.json_path) == ("temporal_shifting/c1", "$.cases[0].y_pred[1]")


def test_out_of_range_interval(dataset):
    edit(dataset, "overlap_proportion.json", lambda d: d["cases"][2]["y_true"].__setitem__(0, [200, 501]))
    err = load_error(dataset)
    assert (err.case_id, err.json_path) == ("overlap_proportion/c3", "$.cases[2].y_true[0]")
    assert "length 500" in err.message


def test_negative_start_is_a_schema_violation(dataset):
    edit(dataset, "overlap_proportion.json", lambda d: d["cases"][0]["y_pred"].__setitem__(0, [-1, 1]))
    err = load_error(dataset)
    assert (err.case_id, err.json_path) == ("overlap_proportion/c1", "$.cases[0].y_pred[0][0]")


def test_reversed_interval(dataset):
    edit(dataset, "sparse_anomalies.json", lambda d: d["cases"][1]["y_pred"].__setitem__(1, [600, 600]))
    err = load_error(dataset)
    assert (err.case_id, err.json_path) == ("sparse_anomalies/c2", "$.cases[1].y_pred[1]")
    assert "start must be < end" in err.message


def test_out_of_range_interval_in_a_random_run(dataset):
    doc = json.loads((dataset / "random_detector.json").read_text())
    n_events = len(doc["cases"][1]["runs"][7])
    edit(dataset, "random_detector.json", lambda d: d["cases"][1]["runs"][7].append([999, 1001]))
    err = load_error(dataset)
    assert (err.case_id, err.json_path) == ("random_detector/c2", f"$.cases[1].runs[7][{n_events}]")


def test_float_bounds_are_rejected(dataset):
    edit(dataset, "overlap_proportion.json", lambda d: d["cases"][0]["y_pred"].__setitem__(0, [200.0, 201]))
    err = load_error(dataset)
    assert (err.case_id, err.json_path) == ("overlap_proportion/c1", "$.cases[0].y_pred[0]")


def test_unsupported_dataset_version(dataset):
    def change(d):
        d["dataset_version"] = "2.0.0"

    edit(dataset, "manifest.json", change, keep_hash=True)
    for entry in json.loads((dataset / "manifest.json").read_text())["files"]:
        edit(dataset, entry["path"], change, keep_hash=True)
    rehash(dataset)
    err = load_error(dataset)
    assert err.file.endswith("manifest.json") and err.json_path == "$.dataset_version"
    assert "'2.0.0' is not supported" in err.message


def test_malformed_version_is_a_schema_violation(dataset):
    edit(dataset, "manifest.json", lambda d: d.update(dataset_version="1.0"), keep_hash=True)
    err = load_error(dataset)
    assert err.file.endswith("manifest.json") and err.json_path == "$.dataset_version"


def test_file_version_must_match_the_manifest(dataset):
    edit(dataset, "long_anomaly_effect.json", lambda d: d.update(dataset_version="1.0.1"))
    err = load_error(dataset)
    assert err.file.endswith("long_anomaly_effect.json") and err.json_path == "$.dataset_version"


def test_hash_mismatch(dataset):
    def change(d):
        d["cases"][0]["description"] = "quietly changed"

    edit(dataset, "constant_detector.json", change, keep_hash=True)
    err = load_error(dataset)
    assert err.file.endswith("constant_detector.json")
    assert err.json_path == "$"
    assert "does not match" in err.message and "$.files[7].sha256" in err.message


def test_invalid_json_scenario_file(dataset):
    path = dataset / "fragmented_fps.json"
    path.write_text(path.read_text()[:-20])
    err = load_error(dataset)
    assert err.file.endswith("fragmented_fps.json") and err.message.startswith("invalid JSON")
    assert "line" in err.message


def test_invalid_json_manifest(dataset):
    (dataset / "manifest.json").write_text("{not json")
    err = load_error(dataset)
    assert err.file.endswith("manifest.json") and "invalid JSON" in err.message


def test_nan_and_duplicate_keys_are_invalid_json(dataset):
    path = dataset / "sparse_anomalies.json"
    text = path.read_text()
    path.write_text(text.replace('"length": 1000,', '"length": NaN,', 1))
    assert "NaN is not valid JSON" in load_error(dataset).message
    path.write_text(text.replace('"length": 1000,', '"length": 1000, "length": 1000,', 1))
    assert "duplicate key 'length'" in load_error(dataset).message


def test_missing_listed_file(dataset):
    (dataset / "tp_positions.json").unlink()
    err = load_error(dataset)
    assert err.file.endswith("tp_positions.json") and "not found" in err.message


def test_unlisted_file(dataset):
    (dataset / "stray.json").write_text("{}\n")
    err = load_error(dataset)
    assert err.file.endswith("manifest.json") and "'stray.json'" in err.message


def test_case_id_must_match_scenario_and_case(dataset):
    edit(dataset, "tp_positions.json", lambda d: d["cases"][2].update(id="tp_positions/c9"))
    err = load_error(dataset)
    assert (err.case_id, err.json_path) == ("tp_positions/c9", "$.cases[2].id")


def test_duplicate_case_ids(dataset):
    def change(d):
        d["cases"][1] = dict(d["cases"][0])

    edit(dataset, "temporal_shifting.json", change)
    err = load_error(dataset)
    assert err.case_id == "temporal_shifting/c1" and "duplicate case id" in err.message


def test_run_count_must_match_the_spec(dataset):
    edit(dataset, "random_detector.json", lambda d: d["cases"][0]["runs"].pop())
    err = load_error(dataset)
    assert (err.case_id, err.json_path) == ("random_detector/c1", "$.cases[0].runs")


def test_deterministic_case_cannot_also_hold_runs(dataset):
    edit(dataset, "sparse_anomalies.json", lambda d: d["cases"][0].update(runs=[[]]))
    err = load_error(dataset)
    assert (err.case_id, err.json_path) == ("sparse_anomalies/c1", "$.cases[0]")


def test_case_without_prediction(dataset):
    edit(dataset, "sparse_anomalies.json", lambda d: d["cases"][0].pop("y_pred"))
    err = load_error(dataset)
    assert err.case_id == "sparse_anomalies/c1" and "'y_pred' is a required property" in err.message


def test_unknown_characteristic(dataset):
    edit(dataset, "fragmented_fps.json", lambda d: d["cases"][2]["characteristics"].__setitem__(0, "speed"))
    err = load_error(dataset)
    assert (err.case_id, err.json_path) == ("fragmented_fps/c3", "$.cases[2].characteristics[0]")


def test_case_count_must_match_the_manifest(dataset):
    edit(dataset, "overlap_proportion.json", lambda d: d["cases"].pop())
    err = load_error(dataset)
    assert err.file.endswith("overlap_proportion.json") and "manifest says 4" in err.message


def test_missing_folder(tmp_path):
    err = load_error(tmp_path / "nowhere")
    assert "not found" in err.message


def test_nothing_is_half_loaded_and_the_cache_follows_the_files(dataset):
    assert len(scenarios.load(dataset)) == 25
    edit(dataset, "random_detector.json", lambda d: d["cases"][1]["y_true"].append([2000, 2001]))
    err = load_error(dataset)  # the earlier, valid content is not served from the cache
    assert err.case_id == "random_detector/c2"
    load_error(dataset)  # and a failed load caches nothing
    assert len(scenarios.load()) == 25  # the shipped dataset is unaffected
    shutil.rmtree(dataset)
    shutil.copytree(data_dir("scenarios"), dataset)
    assert len(scenarios.load(dataset)) == 25


# --------------------------------------------------------------------------- the schemas themselves
def _walk(node: Any, path: str = "$"):
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from _walk(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _walk(value, f"{path}[{i}]")


@pytest.mark.parametrize("name, kind", [("scenario.schema.json", "scenario"), ("manifest.schema.json", "manifest")])
def test_schemas_are_strict_documented_draft_2020_12(name, kind):
    from jsonschema import Draft202012Validator

    schema = json.loads((data_dir("schema") / name).read_text())
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"urn:oipr-bench:schema:{kind}:1.0.0"
    for path, node in _walk(schema):
        if node.get("type") == "object":
            assert node.get("additionalProperties") is False, path
            optional = {"y_pred", "generator", "runs"} if path == "$.$defs.case" else set()  # if/then/else
            assert set(node.get("required", [])) == set(node["properties"]) - optional, path
        for key, prop in node.get("properties", {}).items() if isinstance(node.get("properties"), dict) else []:
            assert prop.get("description"), f"{path}.properties.{key} has no description"


def test_every_fixture_validates_against_its_schema():
    from jsonschema import Draft202012Validator

    folder = data_dir("scenarios")
    scenario_schema = json.loads((data_dir("schema") / "scenario.schema.json").read_text())
    manifest_schema = json.loads((data_dir("schema") / "manifest.schema.json").read_text())
    manifest = json.loads((folder / "manifest.json").read_text())
    Draft202012Validator(manifest_schema).validate(manifest)
    assert len(manifest["files"]) == 9
    for entry in manifest["files"]:
        Draft202012Validator(scenario_schema).validate(json.loads((folder / entry["path"]).read_text()))


@pytest.mark.parametrize("length", [10**15, 2**70])
def test_absurd_length_is_rejected_before_any_allocation(dataset, length):
    edit(dataset, "overlap_proportion.json", lambda d: d["cases"][0].update(length=length))
    err = load_error(dataset)
    assert (err.case_id, err.json_path) == ("overlap_proportion/c1", "$.cases[0].length")


def test_loader_caps_length_even_without_the_schema(monkeypatch, dataset):
    from oipr_bench.scenarios import _validate, loader

    monkeypatch.setattr(_validate, "schema_problem", lambda doc, schema_file: None)  # no schema check at all
    edit(dataset, "overlap_proportion.json", lambda d: d["cases"][0].update(length=loader.MAX_LENGTH + 1))
    err = load_error(dataset)
    assert err.json_path == "$.cases[0].length" and "[1, 10000000]" in err.message
