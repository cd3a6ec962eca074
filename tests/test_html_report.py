"""The self-contained HTML audit report (oipr_bench.reports.html_report and `oipr-bench report`)."""

from __future__ import annotations

import json
import math
from html.parser import HTMLParser
from pathlib import Path

import pytest

from oipr_bench.auditing.table5 import characteristics
from oipr_bench import evaluators, scenarios
from oipr_bench.reference import paper
from oipr_bench.cli import main
from oipr_bench.errors import FixtureError
from oipr_bench.reports.html_report import builtin_scores, report_data, thumbnail_svg, write_report
from oipr_bench.auditing.profile.profiles import audit

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
SVG_LEAVES = {"rect", "path", "line", "circle"}


class Checker(HTMLParser):
    """Collects tags, ids, attributes and text; checks that elements nest properly."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.tags: list[tuple[str, dict]] = []
        self.ids: set[str] = set()
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if "id" in attrs:
            if attrs["id"] in self.ids:
                self.errors.append(f"duplicate id {attrs['id']}")
            self.ids.add(attrs["id"])
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"unexpected </{tag}> with open {self.stack[-3:]}")
            return
        self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def parse(path: Path) -> Checker:
    checker = Checker()
    checker.feed(path.read_text(encoding="utf-8"))
    checker.close()
    assert not checker.errors, checker.errors[:5]
    assert not checker.stack, f"unclosed elements {checker.stack}"
    return checker


@pytest.fixture(scope="module")
def pa_report(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("report") / "pa.html"
    write_report(audit("PA"), path)
    return path


def test_report_parses_and_is_self_contained(pa_report):
    doc = parse(pa_report)
    size = pa_report.stat().st_size
    assert 20_000 < size < 1_500_000
    tags = [t for t, _ in doc.tags]
    assert "script" not in tags and "link" not in tags and "img" not in tags and "iframe" not in tags
    for tag, attrs in doc.tags:
        for key in ("src", "href"):
            value = attrs.get(key) or ""
            assert not value or value.startswith("#"), f"<{tag} {key}={value!r}> points outside the page"
    assert "url(" not in pa_report.read_text()


def test_report_has_every_characteristic_row_and_its_evidence(pa_report):
    doc = parse(pa_report)
    assert len(characteristics.CHARACTERISTICS) == 10
    for name in characteristics.CHARACTERISTICS:
        assert f"row-{name}" in doc.ids
        assert "ev-" + name.replace("_", "-") in doc.ids
    rows = [attrs for tag, attrs in doc.tags if tag == "tr" and attrs.get("id", "").startswith("row-")]
    assert len(rows) == 10


def test_report_profile_values_are_pa_s_table_5_row(pa_report):
    text = " ".join(parse(pa_report).text)
    profile = audit("PA")
    # PA's Table 5 row: existence yes, overlap no, merging no (paper Table 5); random overestimation present (A1).
    assert profile.characteristics["existence_detection_reward"] == "yes"
    assert profile.characteristics["overlap_proportion_awareness"] == "no"
    assert profile.characteristics["random_overestimation"] == "present"
    for r in profile.characteristic_results.values():
        assert r.finding.explanation in text


def test_report_thumbnails_cover_the_evidence_cases(pa_report):
    doc = parse(pa_report)
    svgs = [attrs for tag, attrs in doc.tags if tag == "svg"]
    needed = sum(len(characteristics.REQUIRED_CASES[n]) for n in characteristics.CHARACTERISTICS)
    assert len(svgs) == needed
    labels = {attrs.get("aria-label") for attrs in svgs}
    assert {c for cases in characteristics.REQUIRED_CASES.values() for c in cases} == labels


def test_report_score_table_has_the_seven_builtins_and_paper_values(pa_report):
    text = pa_report.read_text()
    headers = [h for h in evaluators.NAMES if f'<th class="num">{h}</th>' in text]
    assert headers == list(evaluators.NAMES)
    # Built-in scores: Table A1 within half a unit of the 4th printed decimal (random rows: means).
    table = paper.table_a1()
    got = builtin_scores()
    for case_id, expected in [("random_detector/c2", "PA"), ("fragmented_tps/c3", "OIPR"), ("overlap_proportion/c1", "AM")]:
        f1 = got[expected][case_id][2]
        assert f1 == pytest.approx(table[case_id][expected].f1, abs=5e-5)
        assert f"<b>{f1:.4f}</b>" in text
    assert len(got) == 7 and all(len(v) == 25 for v in got.values())


def test_report_from_dict_and_failed_cases(tmp_path):
    def fragile(y_true, y_pred):
        if len(y_true) == 1000:
            raise RuntimeError("cannot handle long series")
        return evaluators.get("PW")(y_true, y_pred)

    profile = audit(fragile, expect={"fragments_merging": "no"})
    (tmp_path / "sub").mkdir()  # the writer never creates folders
    path = write_report(profile.to_dict(), tmp_path / "sub" / "f.html", title="Fragile <test>")
    doc = parse(path)
    text = path.read_text()
    assert "Fragile &lt;test&gt;" in text
    assert "cannot handle long series" in text
    assert "undetermined" in " ".join(doc.text)
    data = report_data(profile)
    assert "long_anomaly_effect/c1" in data.errors
    assert "long_anomaly_effect/c1" not in data.scores
    row = {r.name: r for r in data.rows}["fragments_merging"]
    assert row.expected == ("no",) and row.status == "deviation"
    assert [r.name for r in data.rows] == list(characteristics.CHARACTERISTICS)


def test_report_data_reads_a_json_report_through_profile_from_dict():
    profile = audit("PW", sanity=False, expect={"fragments_merging": "no"})
    from_dict = report_data(json.loads(profile.to_json()))
    assert from_dict == report_data(profile)
    assert from_dict.evaluator == "PW" and from_dict.params == {}
    assert [r.kind for r in from_dict.rows] == ["beneficial"] * 5 + ["misleading"] * 5
    row = {r.name: r for r in from_dict.rows}["fragments_merging"]
    assert row.expected == ("no",) and row.status == "deviation" and row.reason == "declared by expect"
    assert row.numbers["F1 fragmented_fps/c1"] == pytest.approx(0.8)
    assert from_dict.scores["overlap_proportion/c1"] == pytest.approx((1.0, 0.02, 0.0392157), abs=1e-6)


def test_report_data_refuses_what_is_not_a_report():
    with pytest.raises(FixtureError, match=r"^\$: not an oipr-bench report: 'format' is a required property"):
        report_data({"evaluator": {"name": "X", "params": {}}, "cases": [], "characteristics": []})
    doc = json.loads(audit("PW", sanity=False).to_json())
    doc["cases"][0]["precision"] = "high"
    with pytest.raises(FixtureError, match=r"^\$\.cases\[0\]\.precision: not an oipr-bench report: 'high'"):
        report_data(doc)
    with pytest.raises(TypeError, match="Profile"):
        report_data(42)


def test_thumbnail_svg_draws_every_event():
    case = scenarios.get("fragmented_tps/c3")
    svg = thumbnail_svg(case.y_true, case.y_pred, label=case.id)
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg)
    rects = [r for r in root.iter("{http://www.w3.org/2000/svg}rect") if r.get("fill") in ("#d62728", "#1f5fbf")]
    # 1 ground-truth event + 7 predicted events (6 fragments and the false positive).
    assert sum(r.get("fill") == "#d62728" for r in rects) == 1
    assert sum(r.get("fill") == "#1f5fbf" for r in rects) == 7
    assert all(float(r.get("width")) >= 1.5 for r in rects)


def test_report_cli(tmp_path, capsys):
    out = tmp_path / "oipr.html"
    assert main(["report", "OIPR", "--param", "l_obs=20", "-o", str(out)]) == 0
    captured = capsys.readouterr()
    assert captured.out.strip() == str(out)
    doc = parse(out)
    assert "Evaluator audit: OIPR" in " ".join(doc.text)
    assert main(["report", "OIPR", "-o", str(tmp_path / "x.txt")]) == 2
    assert main(["report", "no_such_module_xyz:Eval", "-o", str(tmp_path / "y.html")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and "must" not in err[0] and ".html" in err[0] and "no_such_module_xyz" in err[1]
    assert not (tmp_path / "y.html").exists()


def test_summary_cards_show_not_applicable_undetermined_and_failing_sanity():
    # A constant scalar: fragmentation and long anomaly are not applicable, the rules needing a scale are
    # undetermined (no scale), and sanity[discriminates] and sanity[perfect] fail.  Each shows in a card.
    from oipr_bench.reports.html_report import render_report

    prof = audit(lambda t, p: 0.5)
    page = render_report(prof)
    summary = page[page.index('<div class="summary">'):page.index("<h2>Characteristic profile</h2>")]
    statuses = [r.status for r in prof.characteristic_results.values()]
    assert f'{statuses.count("not_applicable")}</div>not applicable' in summary
    assert f'{statuses.count("undetermined")}</div>undetermined' in summary
    failing = [n for n, r in prof.sanity_results.items() if r.status == "failed"]
    assert "discriminates" in failing
    assert f"{len(failing)}</div>sanity checks failing: {', '.join(failing)}" in summary
    # a clean audit says so
    clean = render_report(audit("OIPR"))
    assert "0</div>sanity checks failing" in clean


def test_a_scalar_metric_is_labelled_as_a_score_with_its_orientation():
    # A mean time to detect (lower is better, open above): its thumbnails must say "score", never P/R/F1.
    from oipr_bench.reports.html_report import render_report
    from oipr_bench.scenarios.events import events_list
    import numpy as np

    def mttd(y_true, y_pred):
        d = [float(np.flatnonzero(y_pred[s:e])[0]) for s, e in events_list(y_true) if y_pred[s:e].any()]
        return float(np.mean(d)) if d else math.nan

    page = render_report(audit(mttd, higher_is_better=False, bounds=(0, None), sanity=False))
    assert "P nan" not in page and "F1 24" not in page
    assert "score, lower is better: <b>24.0000</b>" in page  # tp_positions/c3: detected at its 25th point
    assert "audited: score, lower is better" in page and "not an F1" in page


def test_each_property_family_shows_its_cases_as_thumbnails(tmp_path):
    """Like Table 5's evidence, every property section draws each case of its family (binary
    families: ground truth over prediction; score families: ground truth over the scores), with the
    metric's value on that case."""
    import oipr_bench
    from oipr_bench.reports.html_report import write_report
    from oipr_bench.scenarios.family_files import load_families
    from oipr_bench.vocabulary import METRIC_PROPERTIES

    prof = oipr_bench.audit("PW", suite="properties", sanity=False)
    page = write_report(prof, tmp_path / "r.html").read_text(encoding="utf-8")
    families = load_families()
    for name in METRIC_PROPERTIES:
        section = page.split(f'id="ev-property-{name.replace("_", "-")}"', 1)[1].split("</section>", 1)[0]
        cases = families[name].cases
        assert section.count('class="thumbcase familycase"') == len(cases), name
        for c in cases:
            assert f'<div class="cid">{c.id}</div>' in section, c.id
        if families[name].input == "scores":
            assert 'aria-label="scores ' in section, name
    fp = page.split('id="ev-property-fp-distance"', 1)[1].split("</section>", 1)[0]
    assert "PW: <b>0.9756</b>" in fp  # the anchored score of a dK case (F1 40/41), as on the curve


def test_undetermined_has_its_own_neutral_colour_and_a_failure_says_whose_row_it_differs_from():
    from oipr_bench.reports.html_parts import CSS, STATUS_CLASS, status_chip
    from oipr_bench.reports.html_report import render_report

    assert STATUS_CLASS["undetermined"] not in (STATUS_CLASS["failed"], STATUS_CLASS["passed"])
    assert f".chip.{STATUS_CLASS['undetermined']}{{" in CSS
    assert "FAILED" not in status_chip("failed")
    page = render_report(audit("PW"))  # PW differs from OIPR's row on five characteristics
    assert page.count("differs from OIPR&#x27;s row") + page.count("differs from OIPR's row") >= 5


def test_a_profile_only_report_shows_observed_values_and_no_failure():
    from oipr_bench.reports.html_report import render_report

    prof = audit("PW", profile_only=True)
    assert prof.ok and {r.status for r in prof.characteristic_results.values()} <= {"reported", "not_applicable"}
    page = render_report(prof)
    assert "differs from" not in page and "profile only" in page
