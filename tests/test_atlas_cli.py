"""``oipr-bench atlas``: --write, --check and --evaluator with the seven built-ins (no extra package needed).

The write test profiles whichever rows are importable here; rows of packages
that are not installed must still be written, with the reason.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oipr_bench.atlas.adapters import registry
from oipr_bench.atlas.adapters.registry import adapters
from oipr_bench.atlas.store import validate_report
from oipr_bench.cli import main
from oipr_bench.reference.paper import table_5

BUILTINS = ("PW", "PA", "PA%K", "RP/RR", "TaPR", "AM", "OIPR")
pytest_plugins = ["pytester"]


@pytest.fixture(scope="module", autouse=True)
def small_registry():
    """Only the 13 built-ins and tadpak's five rows (unavailable unless the atlas env is installed): fast."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(registry, "PACKAGE_MODULES", ("builtins", "main.tadpak"))
        yield


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory, small_registry: None) -> Path:
    """An atlas of the small registry."""
    directory = tmp_path_factory.mktemp("atlas") / "small"
    assert main(["atlas", "--write", str(directory), "--no-cache", "--jobs", "1"]) == 0
    return directory


def _doc(directory: Path) -> dict:
    return json.loads((directory / "atlas.json").read_text(encoding="utf-8"))


def test_write_keeps_every_row_with_version_and_parameters(written: Path):
    doc = _doc(written)
    assert [r["id"] for r in doc["rows"]] == [a.id for a in adapters()]
    assert len(doc["rows"]) == 18  # 13 built-ins (7 binary, 6 score) and tadpak's 5
    for row in doc["rows"]:
        assert row["status"] in ("ok", "unavailable", "error", "not_run"), row["id"]
        assert isinstance(row["params"], dict)
        if row["status"] != "ok":
            assert row["reason"], row["id"]
        if row["status"] != "unavailable":
            assert row["version"], row["id"]


def test_builtin_rows_reproduce_table_5(written: Path):
    rows = {r["id"]: r for r in _doc(written)["rows"]}
    paper = table_5()
    for name in BUILTINS:
        row = rows[f"oipr-bench:{name}"]
        assert row["status"] == "ok" and row["kind"] == "pr"
        for characteristic, by_evaluator in paper.items():
            assert row["characteristics"][characteristic] == by_evaluator[name], (name, characteristic)


def test_profiles_follow_the_report_schema(written: Path):
    files = sorted((written / "profiles").glob("*.json"))
    assert len(files) == len(adapters())
    for path in files:
        stored = json.loads(path.read_text(encoding="utf-8"))
        assert stored["format"] == "oipr-bench-atlas-row"
        if stored["report"] is not None:
            validate_report(stored["report"])
            assert stored["report"]["evaluator"]["name"] == stored["row"]["id"]
            assert stored["report"]["evaluator"]["params"] == stored["row"]["params"]


def test_markdown_and_html_show_the_grid(written: Path):
    md = (written / "ATLAS.md").read_text(encoding="utf-8")
    assert "## The grid" in md and "### point-adjusted" in md and "| oipr-bench" in md
    assert "## Per-case numbers" in md
    page = (written / "atlas.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "src=" not in page and "<link" not in page


def test_check_passes_then_reports_drift(written: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    assert main(["atlas", "--check", str(written), "--jobs", "1", "--only", "oipr-bench:PW", "--only", "oipr-bench:AM"]) == 0
    assert "0 drifted" in capsys.readouterr().out
    tampered = tmp_path / "tampered"
    tampered.mkdir()
    doc = _doc(written)
    for row in doc["rows"]:
        if row["id"] == "oipr-bench:PW":
            row["cases"]["overlap_proportion/c2"] = 0.123
            row["characteristics"]["fragments_merging"] = "yes"
    (tampered / "atlas.json").write_text(json.dumps(doc), encoding="utf-8")
    assert main(["atlas", "--check", str(tampered), "--jobs", "1", "--only", "oipr-bench:PW"]) == 1
    out = capsys.readouterr().out
    assert "oipr-bench:PW: case overlap_proportion/c2 0.123 ->" in out
    assert "oipr-bench:PW: characteristic fragments_merging 'yes' -> 'no'" in out


def test_evaluator_is_placed_among_the_rows(written: Path, capsys: pytest.CaptureFixture[str]):
    # exit 1 like `audit`: PA's row fails the default (OIPR's) expectations
    assert main(["atlas", "--evaluator", "PA", "--dir", str(written)]) == 1
    out = capsys.readouterr().out
    marked = [line for line in out.splitlines() if line.startswith(">>")]
    assert len(marked) == 1 and "(yours) -: PA" in marked[0]
    nearest = out.split("nearest rows to PA by behaviour", 1)[1].splitlines()[1:4]
    assert nearest[0].strip().startswith("oipr-bench:PA: 0 of ")
    assert "cells differ (none: same behaviour); mean |case difference| 0.000 on each row's own scale" in nearest[0]


def test_missing_atlas_and_bad_options_are_one_line_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    assert main(["atlas", "--dir", str(tmp_path)]) == 2
    assert "atlas.json not found" in capsys.readouterr().err
    assert main(["atlas", "--evaluator-param", "k=1"]) == 2
    assert "--param needs --evaluator" in capsys.readouterr().err
    assert main(["atlas", "--check", str(tmp_path), "--only", "nope:nope"]) == 2


def test_plugin_option_prints_the_placement(pytester: pytest.Pytester):
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--evaluator=PA", "--oipr-atlas", timeout=300)
    out = result.stdout.str()
    assert "oipr-bench atlas: PA among the metrics" in out
    assert "nearest rows to PA by behaviour" in out


def _nearest_block(text: str, metric: str) -> list[str]:
    lines = text.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith(f"nearest rows to {metric} by behaviour"))
    return [lines[i]] + [line.strip() for line in lines[i + 1:i + 4]]


def test_both_front_ends_place_a_metric_on_the_same_nearest_rows(pytester: pytest.Pytester, capsys: pytest.CaptureFixture[str]):
    # one default (oipr_bench.atlas.place.placement_options: the suite all) for `atlas --evaluator` and --oipr-atlas
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--evaluator=PA", "--oipr-atlas", timeout=300)
    capsys.readouterr()  # pytester echoes the subprocess's output: read the CLI's alone
    main(["atlas", "--evaluator", "PA"])
    cli = _nearest_block(capsys.readouterr().out, "PA")
    assert _nearest_block(result.stdout.str(), "PA") == cli
    assert len(cli) == 4 and ": 0 of 18 cells differ (none: same behaviour)" in cli[1]


def test_check_catches_an_edited_number_inside_a_stored_report(written: Path, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]):
    import shutil

    tampered = tmp_path / "report-edited"
    shutil.copytree(written, tampered)
    path = tampered / "profiles" / "oipr-bench__PW.json"
    stored = json.loads(path.read_text(encoding="utf-8"))
    case = stored["report"]["cases"][1]
    case["recall"] = 0.123
    path.write_text(json.dumps(stored), encoding="utf-8")
    assert main(["atlas", "--check", str(tampered), "--jobs", "1", "--only", "oipr-bench:PW"]) == 1
    out = capsys.readouterr().out
    assert f"atlas drift: oipr-bench:PW: report case[{case['case_id']}].recall: report 0.123, recomputed " in out
