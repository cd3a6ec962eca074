"""The atlas on the metric properties: a property grid, and where "the same" metric disagrees."""

from __future__ import annotations

from oipr_bench.atlas.property_grid import property_cells, property_disagreements, property_markdown
from oipr_bench.atlas.store import default_dir, read_atlas
from oipr_bench.vocabulary import METRIC_PROPERTIES


def _row(rid, group, props, status="ok"):
    return {"id": rid, "package": rid.split(":")[0], "version": "1", "metric": rid.split(":")[1], "family": "f",
            "group": group, "status": status, "properties": props}


def test_disagreements_count_values_only():
    rows = [_row("a:x", "auc", {"ties": "tie_neutral", "lag_tolerance": "n/a"}),
            _row("b:x", "auc", {"ties": "optimistic", "lag_tolerance": "symmetric_decay"}),
            _row("c:x", "auc", {"ties": "?", "lag_tolerance": "?"}),
            _row("d:y", None, {"ties": "pessimistic"})]
    found = property_disagreements(rows, ["ties", "lag_tolerance"])
    # ties: two different values in group auc; lag: only one value (n/a and ? are not values).
    assert [(g, p) for g, p, _ in found] == [("auc", "ties")]
    assert "b 1: x = optimistic" in found[0][2]
    assert property_cells(_row("e:z", None, {}, status="not_run"), ["ties"]) == ["-"]


def test_the_committed_atlas_has_property_columns_for_every_profiled_fast_row():
    doc = read_atlas(default_dir())
    assert doc["properties"] == list(METRIC_PROPERTIES)
    for row in doc["rows"]:
        if row["status"] == "ok" and not row.get("slow"):
            assert set(row["properties"]) == set(METRIC_PROPERTIES), row["id"]
    md = (default_dir() / "ATLAS.md").read_text(encoding="utf-8")
    assert md.count("(properties)") >= 1 and "## Where \"the same\" metric disagrees on a property" in md
    assert "\n".join(property_markdown(doc)) in md
