"""Scalar results end to end: declarations through every front end, and every report shows the kind.

The rules themselves are tested by ``tests/test_probe_corpus.py``; here the
same metric (1 - PW's F1, lower is better) goes through ``oipr-bench audit``,
the pytest plugin, the JSON report (schema version 2, old reports) and the
HTML page.
"""

from __future__ import annotations

import json
import math

import pytest

import oipr_bench
from oipr_bench.cli import main
from oipr_bench.errors import FixtureError, UsageError
from oipr_bench.reports.html_report import render_report
from oipr_bench.auditing.profile.results import REPORT_FORMAT, Profile

pytest_plugins = ["pytester"]

ONE_MINUS_F1 = """
import numpy as np

def loss(y_true, y_pred):
    tp = float(np.sum(y_true * y_pred))
    p, r = tp / max(float(y_pred.sum()), 1.0), tp / max(float(y_true.sum()), 1.0)
    return 1.0 - (0.0 if p + r == 0 else 2 * p * r / (p + r))
"""

#: PW's failing characteristics (Table 5), the same for 1 - F1 read lower-is-better.
PW_FAILING = {"existence_detection_reward", "fragments_merging", "addressing_ambiguous_labels",
              "early_detection_reward", "long_anomaly_misleading"}


@pytest.fixture(scope="module")
def scalar_profile() -> Profile:
    from oipr_bench.evaluators import get

    pw = get("PW")
    return oipr_bench.audit(lambda t, p: 1.0 - pw(t, p).f1, higher_is_better=False)


def test_cli_declarations_and_json(tmp_path, monkeypatch):
    tmp_path.joinpath("my_loss.py").write_text(ONE_MINUS_F1)
    monkeypatch.syspath_prepend(str(tmp_path))
    out = tmp_path / "r.json"
    code = main(["audit", "my_loss:loss", "--lower-is-better", "--bounds", "0:1", "--format", "json", "-o", str(out)])
    assert code == 1
    report = json.loads(out.read_text())
    assert report["format_version"] == REPORT_FORMAT[1] == 4
    assert report["evaluator"]["kind"] == "score"
    assert report["evaluator"]["higher_is_better"] is False and report["evaluator"]["bounds"] == [0.0, 1.0]
    case = next(c for c in report["cases"] if c["case_id"] == "overlap_proportion/c1")
    assert case["precision"] is None and case["f1"] is None
    assert case["score"] == pytest.approx(1 - 0.0392157, abs=1e-6)
    chars = {c["name"]: c for c in report["characteristics"]}
    assert chars["fragmentation_misleading_in_precision"]["status"] == "not_applicable"
    assert {n for n, c in chars.items() if c["status"] == "failed"} == PW_FAILING


def test_cli_bad_bounds_is_a_usage_error(tmp_path, monkeypatch, capsys):
    tmp_path.joinpath("my_loss.py").write_text(ONE_MINUS_F1)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["audit", "my_loss:loss", "--bounds", "1:0"]) == 2
    assert "oipr-bench audit: error: --bounds: bounds need lo < hi, got (1, 0)" in capsys.readouterr().err
    assert main(["audit", "my_loss:loss", "--bounds", "x:1"]) == 2
    assert "--bounds: 'x' is not a number" in capsys.readouterr().err


def test_audit_argument_errors_name_the_argument():
    with pytest.raises(UsageError, match="bounds: expected LO:HI"):
        oipr_bench.audit("PW", bounds="01")
    with pytest.raises(UsageError, match="input_kind must be one of binary, scores"):
        oipr_bench.audit("PW", input="float")
    with pytest.raises(UsageError, match="higher_is_better must be True or False"):
        oipr_bench.audit("PW", higher_is_better="no")


def test_attribute_declarations_and_a_bad_attribute():
    def loss(t, p):
        return 0.25

    loss.bounds = (0, "one")
    with pytest.raises(UsageError, match="the evaluator's bounds attribute: bounds must be numbers or None"):
        oipr_bench.audit(loss, sanity=False)
    loss.bounds = (0, None)
    loss.higher_is_better = False
    prof = oipr_bench.audit(loss, sanity=False)
    assert prof.declarations.bounds == (0.0, math.inf) and prof.declarations.higher_is_better is False


def test_a_result_kind_that_changes_is_a_bad_result():
    def flip(t, p):
        return 0.5 if t.size == 500 else (0.5, 0.5)

    prof = oipr_bench.audit(flip, sanity=False)
    statuses = {r.status for r in prof.case_results.values()}
    assert statuses == {"ok", "bad_result"}
    bad = [r for r in prof.case_results.values() if r.status == "bad_result"]
    assert all("here but" in r.message for r in bad)


def test_plugin_options(pytester: pytest.Pytester, repo_root):
    import jsonschema

    pytester.makepyfile(my_loss=ONE_MINUS_F1)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--evaluator=my_loss:loss", "--oipr-lower-is-better",
                                           "--oipr-bounds=0:1", "--oipr-report=r.json", "-rs", timeout=300)
    assert result.ret == 1
    result.assert_outcomes(failed=5, passed=36, skipped=1)
    out = result.stdout.str()
    assert "fragmentation_misleading_in_precision is not applicable: needs the precision" in out
    assert "evaluator kind score: takes 0/1 predictions, returns one number (a score; lower is better; bounds 0 to 1)" in out
    report = json.loads(pytester.path.joinpath("r.json").read_text())
    jsonschema.validate(report, json.loads((repo_root / "schema" / "report.schema.json").read_text()))
    assert report["evaluator"]["kind"] == "score"
    bad = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--evaluator=my_loss:loss", "--oipr-bounds=zero")
    assert bad.ret == 4
    assert "--oipr-bounds: expected LO:HI" in bad.stderr.str()


def test_json_round_trip_keeps_the_kind(scalar_profile):
    again = Profile.from_dict(json.loads(scalar_profile.to_json()))
    assert again.kind == "score" and again.declarations == scalar_profile.declarations
    assert again.characteristics == scalar_profile.characteristics
    c1 = again.case_results["overlap_proportion/c1"]
    assert c1.kind == "score" and math.isnan(c1.score.precision)
    assert c1.score.f1 == pytest.approx(scalar_profile.case_results["overlap_proportion/c1"].score.f1)


def test_a_version_1_report_is_read_and_a_newer_one_refused():
    prof = oipr_bench.audit("PW", sanity=False)
    v1 = json.loads(prof.to_json())
    v1["format_version"] = 1
    for key in ("kind", "input", "higher_is_better", "bounds"):
        del v1["evaluator"][key]
    for case in v1["cases"]:
        del case["score"]
    del v1["properties"], v1["options"]["suite"], v1["run"]  # layouts 3 and 4 added them
    old = Profile.from_dict(v1, source="old.json")
    assert old.kind == "pr" and old.characteristics == prof.characteristics
    assert old.property_results == {} and old.options["suite"] == "table5"
    v2 = json.loads(prof.to_json())
    v2["format_version"] = 2
    del v2["properties"], v2["options"]["suite"], v2["run"]
    assert Profile.from_dict(v2, source="old2.json").characteristics == prof.characteristics
    v3 = json.loads(prof.to_json())
    v3["format_version"] = 3
    del v3["run"]
    assert Profile.from_dict(v3, source="old3.json").complete  # layout 3: a complete run of the items it holds
    v5 = {**json.loads(prof.to_json()), "format_version": 5}
    with pytest.raises(FixtureError, match=r"old5.json: \$.format_version: report layout version 5 is newer"):
        Profile.from_dict(v5, source="old5.json")


def test_text_and_html_show_the_kind_and_not_applicable(scalar_profile):
    text = scalar_profile.format("table")
    # the scalar is a score with its orientation, never an F1
    assert "cases (score, lower is better; random-detector cases: means over the runs)" in text
    assert "F1" not in text.split("cases (", 1)[1]
    assert "fragmentation_misleading_in_precision  not_applicable" in text
    page = render_report(scalar_profile)
    assert "kind score: takes 0/1 predictions, returns one number (a score; lower is better; bounds 0 to 1)" in page
    assert '<span class="val neutral">not applicable</span>' in page
    assert "<small>score</small>" in page


def test_property_search_accepts_a_scalar_f1():
    # y_pred = y_true must score the best value: for one number, its value alone (precision/recall are NaN).
    from oipr_bench.evaluators import get

    pw = get("PW")
    prof = oipr_bench.audit(lambda t, p: pw(t, p).f1, hypothesis_examples=20, expect=None)
    assert prof.sanity_results["property-search"].status == "passed"
    broken = oipr_bench.audit(lambda t, p: 0.5 * pw(t, p).f1, hypothesis_examples=20)
    assert broken.sanity_results["property-search"].status == "failed"
    assert "perfect_prediction" in broken.sanity_results["property-search"].message


def test_report_command_takes_the_declarations(tmp_path, monkeypatch):
    # The HTML command audits too, so it reads the same declarations as `oipr-bench audit`.
    tmp_path.joinpath("my_loss.py").write_text(ONE_MINUS_F1)
    monkeypatch.syspath_prepend(str(tmp_path))
    out = tmp_path / "r.html"
    # exit 1 like `audit`: the loss has PW's row, which fails the default expectations
    assert main(["report", "my_loss:loss", "--lower-is-better", "--bounds", "0:1", "-o", str(out)]) == 1
    page = out.read_text()
    assert "not applicable" in page
    assert "a score; lower is better; bounds 0 to 1" in page
    # Without the declaration the same loss is recorded (and judged) as higher-is-better.
    plain = tmp_path / "plain.html"
    assert main(["report", "my_loss:loss", "-o", str(plain)]) == 1
    assert "a score; higher is better; bounds 0 to 1" in plain.read_text()


def test_a_bounds_violation_suggests_the_declaration_and_gives_no_verdict(tmp_path, monkeypatch, capsys):
    # A delay in points, declared with the default bounds [0, 1]: the cases above 1 are bad results whose
    # message names the declaration that fits, and no characteristic is read from the surviving cases.
    import numpy as np

    from oipr_bench.scenarios.events import events_list

    def delay(y_true, y_pred):
        d = [float(np.flatnonzero(y_pred[s:e])[0]) for s, e in events_list(y_true) if y_pred[s:e].any()]
        return float(np.mean(d)) if d else 0.0

    prof = oipr_bench.audit(delay, sanity=False)
    bad = prof.case_results["tp_positions/c2"]
    assert bad.status == "bad_result"
    assert ("score = 5.0 lies outside the declared bounds [0, 1]; if the score is open above, declare --bounds 0: "
            "(bounds=(0, None)) and, if smaller is better (a delay, a distance, a count of false alarms), "
            "--lower-is-better") in bad.message
    assert prof.case_results["overlap_proportion/c1"].ok  # delay 0 stays inside [0, 1] ...
    assert set(prof.characteristics.values()) == {None}  # ... but gives no verdict
    msg = prof.characteristic_results["sparse_anomaly_misleading"].message
    assert msg.startswith("no verdict while a score lies outside the declared bounds: case ")
    fitted = oipr_bench.audit(delay, sanity=False, higher_is_better=False, bounds=(0, None))
    assert fitted.characteristics["early_detection_reward"] == "yes"
