"""The atlas's pages and badges (``atlas/pages/``, ``atlas/badges/``) and atlas.html's filter data.

Every badge's claim is recomputed here from the row as ``atlas.json`` holds it (and, for a score row
paired with a built-in, from our evaluators run on the 25 cases by this file's own loop); the pages
are checked for what they must hold; ``site_problems`` is shown to name an edited, missing or stray
file.  The committed atlas is read from the source checkout's ``atlas/``.
"""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from oipr_bench import evaluators
from oipr_bench.atlas.nearest import nearest
from oipr_bench.atlas.render import render_html
from oipr_bench.atlas.select import where
from oipr_bench.atlas.site.badges import LABEL
from oipr_bench.atlas.site.files import site_problems
from oipr_bench.atlas.site.pages import anchor, disagreement_entries
from oipr_bench.atlas.site.references import BUILTIN_EQUIVALENTS
from oipr_bench.atlas.site.thumbnails import case_svg, pixel_runs
from oipr_bench.atlas.store import read_atlas, slug
from oipr_bench.reference.paper import table_5
from oipr_bench.scenarios.loader import load

ATLAS = Path(__file__).resolve().parents[1] / "atlas"
pytestmark = pytest.mark.skipif(not (ATLAS / "atlas.json").exists(), reason="the source checkout's atlas/ is not available")


@pytest.fixture(scope="module")
def doc() -> dict:
    return read_atlas(ATLAS)


def _ours(name: str, params: dict, runs: int | None) -> dict[str, float]:
    """Our evaluator on each case as the audit feeds a score row: 0/1 as 0.0/1.0, random cases averaged over ``runs``."""
    ev = evaluators.get(name, **params)
    out = {}
    for case in load():
        preds = case.predictions[:runs] if case.is_random and runs else case.predictions
        out[case.id] = float(np.mean([ev(case.y_true, p.astype(float)) for p in preds]))
    return out


def _expected_claim(row: dict, doc: dict, cache: dict) -> str:
    if row["status"] != "ok":
        return "not profiled"
    if row["id"] in BUILTIN_EQUIVALENTS:
        name, params = BUILTIN_EQUIVALENTS[row["id"]]
        key = (name, json.dumps(params, sort_keys=True), row["random_runs"])
        if key not in cache:
            cache[key] = _ours(name, params, row["random_runs"])
        ref = cache[key]
        both = [cid for cid in ref if row["cases"][cid] is not None]
        one = [cid for cid in ref if row["cases"][cid] is None]
        biggest = max(abs(row["cases"][cid] - ref[cid]) for cid in both)
        shown = f"oipr-bench {name}" + (f"({', '.join(f'{k}={v}' for k, v in params.items())})" if params else "")
        if biggest <= 1e-9 and not one:
            return f"exact to {shown}"
        return f"differs from {shown}: {biggest:.2g}" + (f"; {len(one)} cases scored by one side only" if one else "")
    oipr = next(r for r in doc["rows"] if r["id"] == "oipr-bench:OIPR")
    same = sum(row["characteristics"][n] == oipr["characteristics"][n] for n in doc["characteristics"])
    props = [v for v in row["properties"].values() if v != "n/a"]
    determined = sum(v not in ("?", "-") for v in props)
    return f"Table 5: {same}/{len(doc['characteristics'])} as OIPR; properties: {determined}/{len(props)} determined"


def test_every_row_has_a_page_and_a_badge_and_nothing_else(doc: dict):
    slugs = {slug(r["id"]) for r in doc["rows"]}
    assert len(slugs) == len(doc["rows"]) == 182
    assert {p.stem for p in (ATLAS / "pages").glob("*.html")} == slugs
    assert {p.stem for p in (ATLAS / "badges").glob("*.svg")} == slugs


def test_every_badge_states_its_claim_recomputed_from_the_row(doc: dict):
    cache: dict = {}
    for row in doc["rows"]:
        claim = _expected_claim(row, doc, cache)
        svg = (ATLAS / "badges" / f"{slug(row['id'])}.svg").read_text(encoding="utf-8")
        assert f">{html.escape(claim)}</text>" in svg, (row["id"], claim)
        assert f"aria-label='{html.escape(LABEL)}: {html.escape(claim)}'" in svg, row["id"]
        page = (ATLAS / "pages" / f"{slug(row['id'])}.html").read_text(encoding="utf-8")
        assert html.escape(f"[![{LABEL}: {claim}](atlas/badges/{slug(row['id'])}.svg)](atlas/pages/{slug(row['id'])}.html)") in page


def test_badges_agree_with_the_paper_and_with_the_documented_equalities():
    def message(row_id: str) -> str:
        svg = (ATLAS / "badges" / f"{slug(row_id)}.svg").read_text(encoding="utf-8")
        return html.unescape(re.findall(r">([^<]*)</text>", svg)[1])

    paper = table_5()
    same = sum(v["PW"] == v["OIPR"] for v in paper.values())
    assert message("oipr-bench:PW").startswith(f"Table 5: {same}/10 as OIPR;")
    assert message("oipr-bench:OIPR").startswith("Table 5: 10/10 as OIPR;")
    # docs/evaluators.md: each of these package calls is one of our score evaluators
    for row_id, builtin in (("TSB-AD:VUS-PR", "VUS-PR"), ("vus:VUS-ROC", "VUS-ROC"), ("TSB-AD:AUC-ROC", "AUC-ROC"),
                            ("aeon:range_pr_vus_score", "VUS-PR(sliding_window=500, definition=timeeval-compat)")):
        assert message(row_id) == f"exact to oipr-bench {builtin}", row_id
    # dtaianomaly scores a constant score where TimeEval's definition returns 0.0 (DISAGREEMENTS.md, cross-env entries)
    assert message("dtaianomaly:VolumeUnderPR").startswith("differs from oipr-bench VUS-PR(sliding_window=500, definition=timeeval): ")


def test_a_page_holds_the_row_its_evidence_cases_neighbours_and_disagreements(doc: dict):
    rows = {r["id"]: r for r in doc["rows"]}
    row = rows["TSADmetrics:dicec"]
    page = (ATLAS / "pages" / "TSADmetrics__dicec.html").read_text(encoding="utf-8")
    report = json.loads((ATLAS / "profiles" / "TSADmetrics__dicec.json").read_text(encoding="utf-8"))["report"]
    assert "TSADmetrics 1.0.16: dicec" in page and "Registry.get_metric(name, **params).compute(y_true, y_pred)" in page
    assert "bash atlas/make-env.sh VENV &amp;&amp; VENV/bin/oipr-bench atlas --check --only TSADmetrics:dicec</pre>" in page
    for entry in report["characteristics"] + report["properties"]:
        assert html.escape(entry["message"]) in page, entry["name"]
    for case in load():
        value = row["cases"][case.id]
        assert f"<td>{html.escape(case.id)}</td><td>{case_svg(case)}</td>" in page
        assert f"<td class='n'>{value:.4g}</td>" in page, case.id
    for n in nearest(row, list(doc["rows"])):
        assert f"<a href='{slug(n.row_id)}.html'>" in page
    assert "<a href='../DISAGREEMENTS.md#point-wise-f1'>point-wise F1</a>" in page
    assert "real-data" not in page.lower()


def test_disagreement_links_point_at_headings_of_the_report_and_pages_carry_no_date():
    report = (ATLAS / "DISAGREEMENTS.md").read_text(encoding="utf-8")
    anchors = {anchor(line.lstrip("#").strip()) for line in report.splitlines() if line.startswith("#")}
    linked = 0
    for path in (ATLAS / "pages").glob("*.html"):
        text = path.read_text(encoding="utf-8")
        for target in re.findall(r"DISAGREEMENTS\.md#([^']+)'", text):
            assert target in anchors, (path.name, target)
            linked += 1
        assert not re.search(r"20\d\d-\d\d-\d\d", text), path.name
    assert linked >= 60
    assert [t for t, _ in disagreement_entries("aeon:range_pr_auc_score")] == [
        "aeon's range_pr_auc_score is TimeEval's RangePrAUC in compatibility mode",
        "dtaianomaly's range AUC scores a constant score where TimeEval and aeon return 0.0"]


def test_thumbnails_draw_the_events_as_pixel_runs():
    assert pixel_runs([[30, 60]], 200) == [(24, 48)]
    assert pixel_runs([[999, 1000]], 1000) == [(159, 160)]  # a one-point event keeps one column
    assert pixel_runs([[0, 10], [11, 20]], 1000) == [(0, 4)]  # neighbouring columns merge
    case = next(c for c in load() if c.id == "fragmented_tps/c1")
    svg = case_svg(case)
    truth = "".join(f"M{a} 1h{b - a}v8h-{b - a}z" for a, b in pixel_runs(case.y_true_events, case.length))
    assert f"<path fill='#c0392b' d='{truth}'/>" in svg and svg.count("<path") == 2
    assert "run 1 of 100" in case_svg(next(c for c in load() if c.is_random))


def test_site_problems_name_an_edited_a_missing_and_a_stray_file(tmp_path: Path, doc: dict):
    folder = tmp_path / "A"
    shutil.copytree(ATLAS, folder)
    assert site_problems(folder, doc) == []
    page = folder / "pages" / "oipr-bench__PW.html"
    page.write_text(page.read_text(encoding="utf-8").replace("0.3333", "0.9999"), encoding="utf-8")
    (folder / "badges" / "TSB-AD__VUS-PR.svg").unlink()
    (folder / "pages" / "gone.html").write_text("<html></html>", encoding="utf-8")
    assert site_problems(folder, doc) == [
        "pages/oipr-bench__PW.html: differs from a rendering of atlas.json (edited by hand? regenerate with atlas --write)",
        "badges/TSB-AD__VUS-PR.svg: missing (regenerate with atlas --write)",
        "pages/gone.html: no row of atlas.json has it",
    ]


def test_atlas_html_filter_data_selects_what_where_selects(doc: dict):
    from oipr_bench.atlas.realdata.rowfiles import read_summary

    page = render_html(doc, read_summary(ATLAS))   # the committed page carries the real-data section
    assert (ATLAS / "atlas.html").read_text(encoding="utf-8") == page
    assert "<form id='where' hidden>" in page  # shown by the script only: without it the page is the plain grid
    assert "position:sticky;left:0" in page
    blob = json.loads(re.search(r"<script type='application/json' id='atlas-cells'>(.*?)</script>", page).group(1))
    cols = blob["columns"]
    for conds in ({"early_detection_reward": "yes"}, {"early_detection_reward": "yes", "fp_distance": "proximity_aware"},
                  {"random_overestimation": "present", "ties": "optimistic"}):
        picked = {rid for rid, cells in blob["rows"].items() if all(cells[cols.index(k)] == v for k, v in conds.items())}
        assert picked == {s.row["id"] for s in where(conds, doc)}, conds
    for row in doc["rows"]:
        assert f"<tr data-id='{html.escape(row['id'])}'><td title=" in page
        if row["sanity_failed"]:
            assert f"title='{html.escape('+'.join(row['sanity_failed']))}'>x{len(row['sanity_failed'])}</td>" in page


def test_the_counts_docs_atlas_gives_for_badges_and_the_filter_are_the_atlas_s(doc: dict):
    text = " ".join((ATLAS.parent / "docs" / "atlas.md").read_text(encoding="utf-8").split())
    said = re.search(r"Of the (\d+) paired rows, (\d+) are exact; the (\d+) that differ do so only on the two "
                     r"constant-detector cases", text)
    assert said, "docs/atlas.md: the badge counts sentence"
    messages = {}
    for row_id in BUILTIN_EQUIVALENTS:
        svg = (ATLAS / "badges" / f"{slug(row_id)}.svg").read_text(encoding="utf-8")
        messages[row_id] = html.unescape(re.findall(r">([^<]*)</text>", svg)[1])
    exact = [r for r, m in messages.items() if m.startswith("exact to ")]
    assert [int(x) for x in said.groups()] == [len(messages), len(exact), len(messages) - len(exact)]
    rows = {r["id"]: r for r in doc["rows"]}
    for row_id in set(messages) - set(exact):  # the constant detector's two cases only
        name, params = BUILTIN_EQUIVALENTS[row_id]
        ref = _ours(name, params, rows[row_id]["random_runs"])
        apart = [cid for cid in ref if abs(rows[row_id]["cases"][cid] - ref[cid]) > 1e-9]
        assert apart == ["constant_detector/c1", "constant_detector/c2"], row_id
    dtai = [float(m.rsplit(": ", 1)[1]) for r, m in messages.items() if r.startswith("dtaianomaly:")]
    assert f"compute a value ({min(dtai):.2f} to {max(dtai):.2f} above ours)" in text
    found = where({"early_detection_reward": "yes", "fp_distance": "proximity_aware"}, doc)
    assert f"({len(found)} of {len(doc['rows'])} rows, as" in text
