"""The generator and ``oipr-bench build-scenarios``: data and definitions cannot drift."""

from __future__ import annotations

import json

import numpy as np

from oipr_bench import scenarios
from oipr_bench._paths import data_dir
from oipr_bench.cli import main
from oipr_bench.scenarios import definitions
from oipr_bench.scenarios.definitions import RandomSpec
from oipr_bench.scenarios.generator import build_documents, random_runs, sha256_hex, write_dataset

EXPECTED_FILES = [f"{name}.json" for name in definitions.SCENARIO_NAMES] + ["manifest.json"]


def test_build_is_deterministic():
    first, second = build_documents(), build_documents()
    assert list(first) == EXPECTED_FILES
    assert first == second


def test_regenerated_files_equal_the_committed_ones_byte_for_byte(tmp_path):
    written = write_dataset(tmp_path)
    assert [p.name for p in written] == EXPECTED_FILES
    shipped = data_dir("scenarios")
    assert sorted(p.name for p in shipped.glob("*.json")) == sorted(EXPECTED_FILES)
    for name in EXPECTED_FILES:
        assert (tmp_path / name).read_bytes() == (shipped / name).read_bytes(), (
            f"{name} differs from the definitions: run `oipr-bench build-scenarios` and commit the result"
        )


def test_manifest_hashes_match_the_committed_files():
    """A file whose content changes without a new hash in the manifest fails here."""
    folder = data_dir("scenarios")
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["dataset_version"] == scenarios.TABLE_A1_VERSION
    assert manifest["n_cases"] == 25
    assert [e["path"] for e in manifest["files"]] == EXPECTED_FILES[:-1]
    for entry in manifest["files"]:
        assert sha256_hex((folder / entry["path"]).read_bytes()) == entry["sha256"], entry["path"]


def test_files_are_canonical_json():
    from oipr_bench.io import dumps_json

    folder = data_dir("scenarios")
    for name in EXPECTED_FILES:
        text = (folder / name).read_text(encoding="utf-8")
        assert dumps_json(json.loads(text)) == text, name


def test_random_runs_follow_the_spec():
    draws = np.random.RandomState(3)
    expected = [(draws.rand(50) > 1 - 0.3).astype(np.int8) for _ in range(7)]
    runs = random_runs(RandomSpec(p=0.3, length=50, n_runs=4, seed=3, first_draw=4))
    assert len(runs) == 4
    for got, want in zip(runs, expected[3:]):
        np.testing.assert_array_equal(got, want)


def test_written_files_load(tmp_path):
    write_dataset(tmp_path)
    assert [c.id for c in scenarios.load(tmp_path)] == [c.id for c in scenarios.load()]


def test_cli_build_scenarios_out(tmp_path, capsys):
    out = tmp_path / "nested" / "fixtures"
    assert main(["build-scenarios", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "wrote 10 files" in printed and "wrote 14 property family files" in printed
    assert sorted(p.name for p in out.iterdir() if p.is_file()) == sorted(EXPECTED_FILES)
    assert (out / "properties" / "manifest.json").read_bytes() == (data_dir("scenarios") / "properties" / "manifest.json").read_bytes()
    assert (out / "manifest.json").read_bytes() == (data_dir("scenarios") / "manifest.json").read_bytes()


def test_cli_requires_out_when_installed(monkeypatch, capsys):
    import oipr_bench.cli.build_scenarios as cmd

    monkeypatch.setattr(cmd, "source_root", lambda: None)
    assert main(["build-scenarios"]) == 2
    err = capsys.readouterr().err
    assert "--out DIR is required" in err and "Traceback" not in err


def test_cli_out_is_a_file(tmp_path, capsys):
    target = tmp_path / "file.txt"
    target.write_text("x")
    assert main(["build-scenarios", "--out", str(target)]) == 2
    assert "not a directory" in capsys.readouterr().err


def test_cli_default_out_is_the_source_checkout(monkeypatch, tmp_path, capsys):
    import oipr_bench.cli.build_scenarios as cmd

    monkeypatch.setattr(cmd, "source_root", lambda: tmp_path)
    assert main(["build-scenarios"]) == 0
    assert (tmp_path / "scenarios" / "manifest.json").is_file()


def test_definitions_are_consistent():
    assert len(definitions.SCENARIOS) == 9
    assert sum(len(s.cases) for s in definitions.SCENARIOS) == 25
    for s in definitions.SCENARIOS:
        assert set(s.characteristics) <= set(definitions.CHARACTERISTICS)
        for c in s.cases:
            assert (c.y_pred is None) == (c.random is not None), (s.name, c.case)
            assert c.source in {"authors_csv", "paper_text", "reconstructed"}
            assert c.source != "authors_csv" or c.authors_csv is not None
