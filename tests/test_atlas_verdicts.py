"""The committed atlas keeps the promises of issues 27 and 30 on every row.

- Rows whose per-case numbers agree everywhere off the two constant-detector cases get the same
  characteristic verdicts (all_one_overestimation aside, the one rule that reads the all-ones input).
- No score row reads ``all_one_overestimation = absent`` while its chance_ordering says the constant is
  overrated.
- Every row is profiled (characteristics and properties), slow rows included; a saturated cell is
  listed with its reason and the grid shows it.
"""

from __future__ import annotations

import itertools

import pytest

from oipr_bench.atlas.property_grid import SATURATED_MARK
from oipr_bench.atlas.store import default_dir, read_atlas
from oipr_bench.vocabulary import METRIC_PROPERTIES

DOC = read_atlas(default_dir())
OK = [r for r in DOC["rows"] if r["status"] == "ok"]
SCORE_ROWS = [r for r in OK if r["input_kind"] == "scores"]


def _agree_off_constant_cases(x: dict, y: dict) -> bool:
    for case_id, a in x["cases"].items():
        if case_id.startswith("constant_detector/"):
            continue
        b = y["cases"].get(case_id)
        if (a is None) != (b is None) or (a is not None and abs(a - b) > 1e-9):
            return False
    return True


def test_rows_agreeing_off_the_constant_cases_get_the_same_verdicts():
    pairs = [(x, y) for x, y in itertools.combinations(SCORE_ROWS, 2) if _agree_off_constant_cases(x, y)]
    # TimeEval's 0.0 for a constant score vs 0.5 elsewhere: the pairs the issue names are among them
    ids = {frozenset((x["id"], y["id"])) for x, y in pairs}
    assert frozenset(("TimeEval:RocAUC", "TSB-AD:AUC-ROC")) in ids
    assert frozenset(("TimeEval:AveragePrecision", "TSB-AD:AUC-PR")) in ids
    for name in ("AUC-ROC", "AUC-PR", "VUS-ROC", "VUS-PR"):  # our score built-ins give TSB-AD's numbers
        assert frozenset((f"oipr-bench:{name}", f"TSB-AD:{name}")) in ids, name
    assert len(pairs) >= 40
    for x, y in pairs:
        vx = {k: v for k, v in x["characteristics"].items() if k != "all_one_overestimation"}
        vy = {k: v for k, v in y["characteristics"].items() if k != "all_one_overestimation"}
        assert vx == vy, (x["id"], y["id"])


def test_no_score_row_reads_all_ones_absent_while_the_constant_is_overrated():
    bad = [r["id"] for r in SCORE_ROWS
           if r["characteristics"].get("all_one_overestimation") == "absent"
           and r["properties"].get("chance_ordering") == "constant_overrated"]
    assert not bad


#: The modern environment's slow rows whose `--write --include-slow` has not completed yet (issue 30,
#: stated in docs/atlas.md): this list may only shrink.
NOT_PROFILED_YET = {
    "aeon:range_roc_vus_score", "aeon:range_pr_vus_score", "dtaianomaly:VolumeUnderROC", "dtaianomaly:VolumeUnderPR",
    "dtaianomaly:VolumeUnderROC[compatibility_mode]", "dtaianomaly:VolumeUnderPR[compatibility_mode]",
    "dtaianomaly:BestThresholdMetric(FBeta)",
}


def test_every_row_is_profiled_on_characteristics_and_properties():
    assert len(DOC["rows"]) >= 140 and len({r["package"] for r in DOC["rows"]} - {"oipr-bench"}) >= 12
    not_profiled = {r["id"] for r in DOC["rows"] if r["status"] != "ok"}
    assert not_profiled <= NOT_PROFILED_YET  # every main-environment row, slow ones included, is profiled
    assert all(r["status"] == "not_run" and r["slow"] and r["env"] == "modern" for r in DOC["rows"] if r["id"] in not_profiled)
    for row in OK:
        assert set(row["characteristics"]) == set(DOC["characteristics"]), row["id"]
        assert set(row["properties"]) == set(METRIC_PROPERTIES), row["id"]


@pytest.mark.parametrize("row", [r for r in OK if r.get("saturated")], ids=lambda r: r["id"])
def test_a_saturated_cell_is_undetermined_and_says_why(row: dict):
    for name, why in row["saturated"].items():
        cells = {**row["characteristics"], **row["properties"]}
        assert cells[name] == "?" and "saturated" in why


def test_the_grid_shows_the_saturated_cells():
    md = (default_dir() / "ATLAS.md").read_text(encoding="utf-8")
    saturated = [(r["id"], n) for r in OK for n in r.get("saturated", {})]
    assert saturated, "the score rows read saturated cases (e.g. vus R-AUC on random_detector/c1)"
    assert SATURATED_MARK in md and "## Saturated cells" in md
    for row_id, name in saturated:
        assert f"| {row_id} | {name} |" in md
