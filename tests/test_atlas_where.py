"""``oipr-bench atlas --where NAME=VALUE ...`` and ``oipr_bench.atlas.where``: rows selected by cell values."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oipr_bench.atlas import where
from oipr_bench.atlas.select import parse_conditions
from oipr_bench.cli import main
from oipr_bench.errors import UsageError


def _row(rid, chars, props, status="ok"):
    package, metric = rid.split(":")
    return {"id": rid, "package": package, "version": "1", "metric": metric, "family": "f", "params": {"k": 1},
            "input_kind": "binary", "kind": "score", "higher_is_better": True, "bounds": [0.0, 1.0], "note": "",
            "status": status, "reason": "", "characteristics": chars, "properties": props, "cases": {}}


DOC = {
    "format": "oipr-bench-atlas", "format_version": 1,
    "characteristics": ["early_detection_reward", "random_overestimation"], "properties": ["fp_distance", "ties"],
    "rows": [
        _row("p:complete", {"early_detection_reward": "yes", "random_overestimation": "absent"}, {"fp_distance": "proximity_aware", "ties": "n/a"}),
        _row("p:gaps", {"early_detection_reward": "yes", "random_overestimation": "absent"}, {"fp_distance": "proximity_aware", "ties": "?"}),
        _row("p:late", {"early_detection_reward": "no", "random_overestimation": "absent"}, {"fp_distance": "proximity_aware", "ties": "?"}),
        _row("p:unknown", {"early_detection_reward": "?", "random_overestimation": "absent"}, {"fp_distance": "proximity_aware", "ties": "?"}),
        _row("p:off", {"early_detection_reward": "yes", "random_overestimation": "absent"}, {"fp_distance": "proximity_aware", "ties": "?"}, status="unavailable"),
    ],
}
QUESTION = {"early_detection_reward": "yes", "fp_distance": "proximity_aware", "random_overestimation": "absent"}


def test_all_values_must_hold_and_fewest_undetermined_come_first():
    got = where(QUESTION, DOC)
    assert [(s.row["id"], s.undetermined) for s in got] == [("p:complete", 0), ("p:gaps", 1)]
    # "?" never matches, and rows not profiled are not listed
    assert [s.row["id"] for s in where({"early_detection_reward": "yes"}, DOC)] == ["p:complete", "p:gaps"]


def test_conditions_are_checked_against_the_atlas():
    assert parse_conditions(["early=yes", "ties=?"], DOC) == {"early_detection_reward": "yes", "ties": "?"}
    for bad, says in (("early_detection_reward", "expected NAME=VALUE"), ("nope=yes", "unknown name 'nope'"),
                      ("early_detection_reward=maybe", "values in the atlas: ?, no, yes")):
        with pytest.raises(UsageError, match=says.replace("?", r"\?")):
            parse_conditions([bad], DOC)
    with pytest.raises(UsageError, match="given twice"):
        parse_conditions(["early=yes", "early_detection_reward=no"], DOC)


def test_the_command_lists_rows_with_package_and_parameters(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    (tmp_path / "atlas.json").write_text(json.dumps(DOC), encoding="utf-8")
    argv = ["atlas", "--dir", str(tmp_path), "--where", *(f"{k}={v}" for k, v in QUESTION.items())]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == ("rows with early_detection_reward=yes, fp_distance=proximity_aware, random_overestimation=absent: "
                        "2 of 4 profiled (fewest undetermined cells first)")
    assert lines[1:] == ["  p 1: complete [f]: 0 undetermined; k=1", "  p 1: gaps [f]: 1 undetermined; k=1"]
    assert main(["atlas", "--dir", str(tmp_path), "--where", "early_detection_reward=maybe"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no row has early_detection_reward=maybe" in err[0]


def test_the_shipped_atlas_answers_the_worked_question():
    # docs/atlas.md's question: early detection rewarded, proximity aware, random not overestimated.
    got = where(QUESTION)
    assert got, "no row of the shipped atlas answers the worked question"
    for s in got:
        cells = {**s.row["characteristics"], **s.row["properties"]}
        assert all(cells[k] == v for k, v in QUESTION.items()), s.row["id"]
    assert [s.undetermined for s in got] == sorted(s.undetermined for s in got)
    assert "oipr-bench:OIPR" in {s.row["id"] for s in got}


def _reading(below_random, tau_ref, tau_nab):
    return {"below_random": below_random, "tau_reference": tau_ref, "tau_nab": tau_nab}


REAL = {"rows": [
    {"id": "p:complete", "reading": _reading(["numenta"], {"tau": 1.0, "low": 1.0, "high": 1.0}, {"tau": 0.2, "low": 0.1, "high": 0.4})},
    {"id": "p:gaps", "reading": _reading([], {"tau": 0.9, "low": 0.7, "high": 1.0}, {"tau": 0.5, "low": 0.3, "high": 1.0})},
    {"id": "p:late", "reading": None},
]}


def test_the_real_data_columns_select_like_the_others_when_the_atlas_has_them():
    doc = {**DOC, "realdata": REAL}
    assert [s.row["id"] for s in where({"real_random_beats_detectors": "yes"}, doc)] == ["p:complete"]
    assert [s.row["id"] for s in where({"real_ranks_like_reference": "close"}, doc)] == ["p:gaps"]
    assert [s.row["id"] for s in where({"real_ranks_like_nab": "differs", "early_detection_reward": "yes"}, doc)] == ["p:complete"]
    # a row without a reading holds "?" there (never selected, counted as undetermined); p:unknown has no summary row
    assert [s.row["id"] for s in where({"real_random_beats_detectors": "no"}, doc)] == ["p:gaps"]
    assert parse_conditions(["real_ranks_like_nab=same"], {**doc, "realdata": {"rows": [
        {"id": "p:complete", "reading": _reading([], None, {"tau": 1.0, "low": 1.0, "high": 1.0})}]}}) == {"real_ranks_like_nab": "same"}
    with pytest.raises(UsageError, match="unknown name 'real_ranks_like_nab'"):
        parse_conditions(["real_ranks_like_nab=same"], DOC)   # an atlas without its real-data summary has no such column
