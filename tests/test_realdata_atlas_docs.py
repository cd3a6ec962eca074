"""The committed real-data atlas and the docs that describe it: every figure generated, none typed.

docs/benchmarks.md's cost block and ``atlas/realdata/COSTS.md`` are renderings of the committed
``atlas/realdata/summary.json`` and ``runs.json``; docs/atlas.md's counts of series and detectors are
the summary's; every atlas row has its real-data file.  ``python tests/test_realdata_atlas_docs.py
--write`` regenerates the docs block after ``atlas --realdata``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from oipr_bench.atlas.adapters.base import slug
from oipr_bench.atlas.adapters.registry import adapters
from oipr_bench.atlas.realdata.render import cost_lines, costs_markdown, markdown_section
from oipr_bench.atlas.realdata.rowfiles import read_row_file, read_runs, read_summary, row_path

REPO_ROOT = Path(__file__).resolve().parent.parent
ATLAS = REPO_ROOT / "atlas"
BENCHMARKS = REPO_ROOT / "docs" / "benchmarks.md"
START = "<!-- real-data atlas costs: generated from atlas/realdata/summary.json and runs.json -->"
END = "<!-- end real-data atlas costs -->"


def _summary() -> dict:
    summary = read_summary(ATLAS)
    assert summary is not None, "atlas/realdata/summary.json is missing: run `oipr-bench atlas --realdata DATA`"
    return summary


def _block(text: str) -> str:
    assert START in text and END in text, f"docs/benchmarks.md lacks the markers {START} ... {END}"
    return text.split(START, 1)[1].split(END, 1)[0]


def expected_block() -> str:
    return "\n" + "\n".join(cost_lines(_summary(), read_runs(ATLAS))) + "\n"


def test_the_benchmarks_cost_block_is_the_committed_summary():
    assert _block(BENCHMARKS.read_text(encoding="utf-8")) == expected_block(), \
        "regenerate with: python tests/test_realdata_atlas_docs.py --write"


def test_costs_md_and_the_atlas_section_are_renderings_of_the_summary():
    summary = _summary()
    assert (ATLAS / "realdata" / "COSTS.md").read_text(encoding="utf-8") == costs_markdown(summary)
    section = "\n".join(markdown_section(summary))
    assert section in (ATLAS / "ATLAS.md").read_text(encoding="utf-8")


def test_the_counts_in_docs_atlas_md_are_the_summary_s():
    summary = _summary()
    text = (REPO_ROOT / "docs" / "atlas.md").read_text(encoding="utf-8")
    kept = len(summary["nab"][summary["detectors"][0]])
    left = len(summary["left_out"])
    assert f"{left} of {kept + left})" in text
    assert f"Every row runs on all {len(summary['detectors'])} detectors" in text


def test_every_atlas_row_has_its_real_data_file_and_summary_row():
    summary = _summary()
    listed = {r["id"] for r in summary["rows"]}
    for a in adapters():
        path = row_path(ATLAS, a.id)
        assert path.name == f"{slug(a.id)}.json"
        doc, problem = read_row_file(path, a.id)
        assert doc is not None, f"{a.id}: {problem}"
        assert a.id in listed


def test_every_subset_row_states_its_rule_and_estimate():
    for r in _summary()["rows"]:
        if r.get("reading") is not None and not r["full"]:
            doc, _ = read_row_file(row_path(ATLAS, r["id"]), r["id"])
            plan = doc["plan"]
            assert plan["rule"] and plan["estimated_full_cpu_seconds"] > plan["budget_cpu_minutes"] * 60, r["id"]
            assert len(plan["series"]) == r["reading"]["series"] or doc["status"] != "ok", r["id"]


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_realdata_atlas_docs.py --write")
    text = BENCHMARKS.read_text(encoding="utf-8")
    head, rest = text.split(START, 1)
    BENCHMARKS.write_text(head + START + expected_block() + END + rest.split(END, 1)[1], encoding="utf-8")
    print("docs/benchmarks.md: real-data atlas costs regenerated")


#: The fields of a pair traced from NAB's arrays (constant outputs): only rebuilt where NAB is beside the project.
TRACED = ("cells_differ_constant", "constant_detectors", "largest_varying", "cause")


def test_the_summary_is_computed_from_the_committed_row_files():
    """Every field of summary.json is rebuilt from the row files and the stored profiles; the pairs' causes
    also need which NAB outputs are constant, so with NAB absent those four fields are left out of the check."""
    import json

    from oipr_bench.atlas.realdata.inputs import constant_outputs, read_inputs
    from oipr_bench.atlas.realdata.rowfiles import read_row_files, read_stored_report
    from oipr_bench.atlas.realdata.summary import build_summary, constructed_values

    summary = _summary()
    docs, refused = read_row_files(ATLAS)
    assert refused == []
    from conftest import SHARED_DIR

    nab = SHARED_DIR / "reference-data" / "nab"
    constant = constant_outputs(read_inputs(str(nab))) if nab.is_dir() else None
    again = build_summary(docs, summary["nab"], data_digest=summary["data_digest"], detectors=summary["detectors"],
                          left_out=summary["left_out"], protocol=summary["protocol"],
                          budget_minutes=summary["budget_cpu_minutes"], constant=constant,
                          constructed={rid: constructed_values(read_stored_report(ATLAS, rid)) for rid in docs})
    rebuilt = json.loads(json.dumps({"format": summary["format"], **again}))
    if constant is None:
        for pairs in (rebuilt["group_pairs"], summary["group_pairs"]):
            for p in pairs:
                for name in TRACED:
                    p.pop(name, None)
    assert rebuilt == summary
