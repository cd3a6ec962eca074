"""The metric properties beyond Table 5: families, rules, audit, plugin, reports, reference values.

Hand-derived expectations are in the comments next to each assertion; the probe corpus of user-written
score metrics is tests/test_property_probes.py.
"""

from __future__ import annotations

import hashlib
import json
import math
import shutil
import subprocess
import sys

import numpy as np
import pytest

import oipr_bench
from oipr_bench import scenarios, vocabulary as v
from oipr_bench._paths import data_dir
from oipr_bench.auditing.properties.run import DEFINITIONS
from oipr_bench.auditing.profile.property_reference import build_property_document, property_reference
from oipr_bench.auditing.properties.rules import Readings, Undetermined, check_chance_ordering, spearman, trend
from oipr_bench.auditing.profile.results import Profile
from oipr_bench.errors import FixtureError, UsageError
from oipr_bench.scenarios.family_files import build_family_documents, load_families

#: sha256 of the Table A1 files and their manifest as released in dataset 1.0.0: byte-identical since.
TABLE_A1_SHA256 = {
    "manifest.json": None,  # checked through the nine entries below, which it lists
    "overlap_proportion.json": "a02f8614b021f3e0f86ecd6cff0d03956549d368b9161a94271dd7b978c484c4",
    "fragmented_tps.json": "2d659a3e42b821e0d0d124318fa5b48e11497afeded9c7b58f6b4589ef00ccea",
    "fragmented_fps.json": "3ed63552f90ec27189f593b718e025b2c03e0db67a4043e1477118d8dc37fa05",
    "temporal_shifting.json": "b2dc80529e915f4d4c90f5ada03a1b356366991529ccb560eb7c17a254469f7c",
    "tp_positions.json": "f4c72676156d55457a898ce474606d14e3a8e3799b63764277216a3783c81845",
    "long_anomaly_effect.json": "5aaff7dd0979046313f008a5d205bc3733195168bc1aa98234dec3027ef211eb",
    "sparse_anomalies.json": "1e23a065bcebe99f78d42256f528e6f88d7960fee95973d185d4479bdf65d8c2",
    "constant_detector.json": "8eac2e7f66db39d6480b315b33800f88bc7ca9644563f4efea5c0f2d5ee7e937",
    "random_detector.json": "889ca71653e9ff5329c9b4ad0c4f6bc3724b3c768d0d71fa4ca27f8f56cebecc",
}


# -- families ----------------------------------------------------------------------------------------

def test_the_table_a1_files_are_byte_identical_to_dataset_1_0_0():
    folder = data_dir("scenarios")
    for name, digest in TABLE_A1_SHA256.items():
        if digest is not None:
            assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest, name
    assert json.loads((folder / "manifest.json").read_text())["dataset_version"] == scenarios.TABLE_A1_VERSION == "1.0.0"
    assert scenarios.DATASET_VERSION == "1.2.0" and len(scenarios.load()) == 25


def test_family_files_are_what_the_seeded_generator_builds():
    folder = data_dir("scenarios") / "properties"
    built = build_family_documents()
    assert sorted(built) == sorted(p.name for p in folder.glob("*.json"))
    for name, text in built.items():
        assert (folder / name).read_text(encoding="utf-8") == text, f"{name}: run `oipr-bench build-scenarios`"
    assert build_family_documents() == built  # deterministic


def test_every_property_has_a_family_with_explicit_float_scores():
    fams = load_families()
    assert tuple(fams) == v.METRIC_PROPERTIES
    score_families = [f for f in fams.values() if f.input == "scores"]
    assert len(score_families) >= 5
    for fam in fams.values():
        for case in fam.cases:
            assert case.scores.dtype == np.float64 and case.scores.shape == case.y_true.shape
            assert not case.scores.flags.writeable and not case.y_true.flags.writeable
    for fam in score_families:  # real scores: many distinct values, not a 0/1 series
        assert all(len(np.unique(c.scores)) > 2 for c in fam.cases if c.parameter != "constant"), fam.name
    # The scores of a stored file read back to the very same float64 the generator made.
    raw = json.loads((data_dir("scenarios") / "properties" / "transform_invariance.json").read_text())
    assert raw["cases"][1]["scores"][:3] == fams["transform_invariance"].cases[1].scores[:3].tolist()


def _copy_families(tmp_path):
    target = tmp_path / "scenarios"
    shutil.copytree(data_dir("scenarios"), target)
    return target


@pytest.mark.parametrize("edit, where", [
    (lambda d: d["cases"][0].update(scores=d["cases"][0]["scores"][:-1]), "case lag_tolerance/l-12: $.cases"),
    (lambda d: d["cases"][0].update(y_pred=[[5, 3]]), "case lag_tolerance/l-12: $.cases[0].y_pred[0]"),
    (lambda d: d["cases"][0].update(y_true=[[0, 5], [5, 9]]), "case lag_tolerance/l-12: $.cases[0].y_true[1]"),
    (lambda d: d.update(input="fast"), "lag_tolerance.json: $.input"),
    (lambda d: d["cases"][0]["scores"].__setitem__(0, "high"), "lag_tolerance.json: $.cases[0].scores[0]"),
])
def test_a_broken_family_file_is_named_with_its_place(tmp_path, edit, where):
    from oipr_bench.io import dumps_json

    folder = _copy_families(tmp_path)
    path = folder / "properties" / "lag_tolerance.json"
    doc = json.loads(path.read_text())
    edit(doc)
    text = dumps_json(doc)
    path.write_text(text)
    manifest = json.loads((folder / "properties" / "manifest.json").read_text())
    manifest["families"][0]["sha256"] = hashlib.sha256(text.encode()).hexdigest()
    (folder / "properties" / "manifest.json").write_text(dumps_json(manifest))
    with pytest.raises(FixtureError) as err:
        load_families(folder)
    assert where in str(err.value) and "Traceback" not in str(err.value)


def test_a_changed_or_unlisted_family_file_is_refused(tmp_path):
    folder = _copy_families(tmp_path)
    (folder / "properties" / "extra.json").write_text("{}")
    with pytest.raises(FixtureError, match="'extra.json' is in the families folder but not listed"):
        load_families(folder)
    (folder / "properties" / "extra.json").unlink()
    path = folder / "properties" / "ties.json"
    path.write_text(path.read_text().replace("0.125", "0.126", 1))
    with pytest.raises(FixtureError, match=r"ties.json: \$: content hash does not match"):
        load_families(folder)


# -- rules -------------------------------------------------------------------------------------------

def test_trend_and_spearman():
    assert trend([1, 1, 1]) == v.FLAT
    assert trend([1, 1, 0.5]) == "down" and trend([0.5, 0.5, 1]) == "up"
    assert trend([1, 0.5, 1]) == v.IRREGULAR
    assert spearman([3, 2, 1], [1, 2, 3]) == pytest.approx(-1.0)
    assert math.isnan(spearman([1, 1, 1], [1, 2, 3]))


def _readings(scores: dict[str, float], params: dict[str, object], fam: str = "chance_ordering") -> Readings:
    ids = tuple(f"{fam}/{c}" for c in scores)
    nan = {i: math.nan for i in ids}
    return Readings("x", ids, {f"{fam}/{c}": p for c, p in params.items()},
                    {f"{fam}/{c}": s for c, s in scores.items()}, nan, nan, True,
                    raw={f"{fam}/{c}": s for c, s in scores.items()})


def test_chance_ordering_reads_the_metric_scale():
    roles = {"oracle": "oracle", "random1": "random", "random2": "random", "constant": "constant", "inverted": "inverted"}
    # AUC-ROC-like: 1 > 0.5 ~ 0.5 > 0: ordered (the constant may tie with chance).
    auc = check_chance_ordering(_readings({"oracle": 1, "random1": 0.49, "random2": 0.51, "constant": 0.5, "inverted": 0}, roles))
    assert auc.value == v.ORDERED
    # An all-ones F1: the constant score beats random scores by more than CHANCE_TOLERANCE.
    f1 = check_chance_ordering(_readings({"oracle": 1, "random1": 0.18, "random2": 0.18, "constant": 0.25, "inverted": 0}, roles))
    assert f1.value == v.CONSTANT_OVERRATED
    # A constant scored at the floor (TimeEval answers any constant score 0.0) is that package's
    # convention for a degenerate input, evidence only since 0.4: still ordered, and the
    # explanation says random > constant (no "~": they are 0.2 apart, beyond the margin 0.02).
    floor = check_chance_ordering(_readings({"oracle": 1, "random1": 0.2, "random2": 0.2, "constant": 0, "inverted": 0}, roles))
    assert floor.value == v.ORDERED and "random 0.2000 > constant 0.0000" in floor.explanation
    assert "random 0.5000 ~ constant 0.5000" in auc.explanation
    # Random above perfect and inverted's middle by 0.8 of the half-range (point-adjusted AUC-ROC): inflated.
    pa = check_chance_ordering(_readings({"oracle": 1, "random1": 0.89, "random2": 0.91, "constant": 0.5, "inverted": 0}, roles))
    assert pa.value == v.RANDOM_INFLATED and pa.numbers["random on the half-range above its middle (raw)"] == pytest.approx(0.8)
    # Perfect not above random: disordered.
    flat = check_chance_ordering(_readings({"oracle": 0.3, "random1": 0.3, "random2": 0.3, "constant": 0.3, "inverted": 0}, roles))
    assert flat.value == v.DISORDERED and "not perfect > random" in flat.explanation
    with pytest.raises(Undetermined, match="cannot be read"):
        check_chance_ordering(_readings({"oracle": math.nan, "random1": 0.2, "random2": 0.2, "constant": 0, "inverted": 0}, roles))


def test_every_property_is_defined_with_a_source_and_an_input():
    assert tuple(DEFINITIONS) == v.METRIC_PROPERTIES and len(v.METRIC_PROPERTIES) >= 12
    for d in DEFINITIONS.values():
        assert d.input in ("binary", "scores", "both") and d.citation and d.source.endswith(".")
    assert sum(d.input == "scores" for d in DEFINITIONS.values()) >= 5


# -- the audit ---------------------------------------------------------------------------------------

def test_pw_row_derived_by_hand():
    prof = oipr_bench.audit("PW", suite="properties", sanity=False)
    got = prof.properties
    # PW counts points: an FP costs 1 point of precision wherever it is; appended normals and reversal
    # change no count; P(y, p) = |y & p| / |p| = R(p, y); joined counts pool (micro).
    assert got[v.FP_DISTANCE] == v.DISTANCE_BLIND
    assert got[v.NORMAL_PADDING] == v.INVARIANT and got[v.TIME_REVERSAL] == v.NEUTRAL
    assert got[v.LABEL_SWAP_DUALITY] == v.DUAL and got[v.CONCATENATION] == v.MICRO
    # fp_distance: 20 TP points + 1 FP: P = 20/21, R = 1, F1 = 40/41 at every distance.
    numbers = prof.property_results[v.FP_DISTANCE].finding.numbers
    assert numbers["score fp_distance/d64"] == pytest.approx(40 / 41, abs=1e-12)
    # Spill-over k: P = 20 / (20 + k), R = 1: F1 = 40 / (40 + k), 1 at k = 0 and 2/3 at k = 20.
    curve = prof.property_results[v.SPILL_OVER].finding.curve
    assert curve.y[0] == 1.0 and curve.y[-1] == pytest.approx(40 / 60, abs=1e-12)
    # A metric taking 0/1 predictions has no score properties: not applicable, never a value.
    for name in (v.RANKING_CONSISTENCY, v.TIES, v.CHANCE_ORDERING):
        assert got[name] == v.NOT_APPLICABLE and "needs real anomaly scores" in prof.property_results[name].message
    assert prof.ok and prof.case_results == {} and prof.characteristic_results == {}


def test_table5_is_the_default_and_unchanged():
    prof = oipr_bench.audit("OIPR", sanity=False)
    assert prof.property_results == {} and prof.options["suite"] == "table5"
    assert len(prof.characteristic_results) == 10 and prof.ok


def test_the_stored_reference_values_match_a_fresh_run():
    stored = property_reference()
    fresh = build_property_document()
    assert {row["evaluator"]: {p["name"]: p["value"] for p in row["properties"]} for row in fresh["evaluators"]} == stored
    # the seven binary built-ins and the six score evaluators and NAB, each with its default parameters
    assert list(stored) == list(oipr_bench.evaluators.NAMES + oipr_bench.evaluators.SCORE_NAMES
                                + oipr_bench.evaluators.NUMBER_NAMES)
    assert stored["VUS-PR"]["label_swap_duality"] == "not_applicable"  # it uses a 0/1 prediction as ground truth
    assert all(None not in row.values() for row in stored.values())  # every built-in gets a value on every property


def test_a_nan_makes_a_property_undetermined_never_a_value():
    from oipr_bench.evaluators import get

    pw = get("PW")

    def nan_on_padding(y_true, y_pred):
        return math.nan if len(y_true) > 100 and len(y_true) % 100 == 0 and len(y_true) != 200 else pw(y_true, y_pred).f1

    prof = oipr_bench.audit(nan_on_padding, suite="properties", sanity=False)
    r = prof.property_results[v.NORMAL_PADDING]
    assert r.observed is None and r.status == v.UNDETERMINED and "NaN" in r.message
    assert prof.ok  # reported, not judged: nothing was declared
    declared = oipr_bench.audit(nan_on_padding, suite="properties", sanity=False, expect={v.NORMAL_PADDING: "invariant"})
    assert not declared.ok and any("property[normal_padding]: undetermined" in f for f in declared.failures())


def test_a_failing_call_names_the_case():
    def raises_on_long(y_true, y_pred):
        if len(y_true) == 900:
            raise RuntimeError("too long")
        return float(np.mean(y_true == y_pred))

    prof = oipr_bench.audit(raises_on_long, suite="properties", sanity=False)
    r = prof.property_results[v.NORMAL_PADDING]
    assert r.status == v.UNDETERMINED and "normal_padding/k8" in r.message and "too long" in r.message


def test_declared_property_expectations_are_judged():
    ok = oipr_bench.audit("PW", suite="properties", sanity=False, expect=["normal_padding=invariant"])
    assert ok.property_results[v.NORMAL_PADDING].status == v.PASSED and ok.ok
    bad = oipr_bench.audit("PW", suite="properties", sanity=False, expect={"fp_distance": "proximity_aware"})
    assert bad.property_results[v.FP_DISTANCE].status == v.FAILED and not bad.ok
    assert "property[fp_distance]: observed distance_blind, expected proximity_aware" in bad.failures()[0]
    with pytest.raises(UsageError, match="normal_padding='flat' is not a value of normal_padding; use one of invariant"):
        oipr_bench.audit("PW", suite="properties", expect={"normal_padding": "flat"})
    with pytest.raises(UsageError, match="suite must be one of table5, properties, all"):
        oipr_bench.audit("PW", suite="everything")


def test_the_report_round_trips_with_curves(tmp_path):
    prof = oipr_bench.audit("AM", suite="all", sanity=False)
    doc = json.loads(prof.to_json())
    assert doc["format_version"] == 4 and [p["name"] for p in doc["properties"]] == list(v.METRIC_PROPERTIES)
    back = Profile.from_dict(doc)
    assert back.properties == prof.properties and back.characteristics == prof.characteristics
    curve = back.property_results[v.FP_DISTANCE].finding.curve
    assert curve.x == (1, 2, 4, 8, 16, 32, 64) and curve.y[0] > curve.y[-1]  # AM: a near FP costs less
    text = prof.format("table")
    assert "metric properties (reported, not judged" in text and "fp_distance" in text


# -- front ends --------------------------------------------------------------------------------------

AP = '''
import numpy as np
def ap(y_true, y_pred):
    y = np.asarray(y_true) == 1
    s = np.asarray(y_pred, dtype=float)
    out = 0.0
    for t in np.unique(s[y]):
        above = s >= t
        out += (y & (s == t)).sum() / y.sum() * (y & above).sum() / above.sum()
    return float(out)
'''


def _run(args, cwd):
    return subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=300)


def test_cli_audit_with_scores_exercises_scores(tmp_path):
    (tmp_path / "ap.py").write_text(AP)
    out = _run(["-m", "oipr_bench.cli", "audit", "ap:ap", "--input", "scores"], tmp_path)
    if "No module named oipr_bench.cli.__main__" in out.stderr:
        out = _run(["-c", "import sys; from oipr_bench.cli import main; sys.exit(main(sys.argv[1:]))",
                    "audit", "ap:ap", "--input", "scores"], tmp_path)
    assert "metric properties (reported, not judged" in out.stdout, out.stderr
    assert "transform_invariance  scores  invariant" in out.stdout
    assert "Table 5 (its 0/1 predictions handed over as 0.0/1.0 scores)" in out.stdout
    only = _run(["-c", "import sys; from oipr_bench.cli import main; sys.exit(main(sys.argv[1:]))",
                 "audit", "ap:ap", "--input", "scores", "--suite", "properties"], tmp_path)
    assert "characteristic" not in only.stdout and "cases (" not in only.stdout and only.returncode == 0


def _pytest(args, cwd):
    return _run(["-m", "pytest", "-q", "-p", "no:cacheprovider", *args], cwd)


def test_plugin_default_items_unchanged_and_properties_selectable(tmp_path):
    default = _pytest(["--evaluator=OIPR", "--collect-only"], tmp_path)
    assert "property[" not in default.stdout and "42 tests collected" in default.stdout  # 25 cases, 7 sanity checks, 10 characteristics
    every = _pytest(["--evaluator=OIPR", "--oipr-suite=all", "--collect-only"], tmp_path)
    assert "55 tests collected" in every.stdout  # 42 + 13 property items
    picked = _pytest(["--evaluator=PW", "--oipr-suite=properties", "-k", "fp_distance or normal_padding",
                      "--expect", "normal_padding=invariant", "--expect", "fp_distance=proximity_aware"], tmp_path)
    assert picked.returncode == 1, picked.stdout
    assert "FAILED oipr-bench::property[fp_distance]" in picked.stdout and "1 passed" in picked.stdout
    reported = _pytest(["--evaluator=PW", "--oipr-suite=properties", "-rs"], tmp_path)
    assert reported.returncode == 0 and "label_swap_duality" in reported.stdout
    assert "ranking_consistency is not applicable: needs real anomaly scores" in reported.stdout


def test_the_html_report_has_a_plot_per_property(tmp_path):
    from oipr_bench.plots.property_curves import curve_svg
    from oipr_bench.reports.html_report import write_report

    prof = oipr_bench.audit("OIPR", suite="properties", sanity=False)
    page = write_report(prof, tmp_path / "r.html").read_text()
    assert "Metric properties beyond Table 5" in page
    for name in v.METRIC_PROPERTIES:
        section = page.split(f'id="ev-property-{name.replace("_", "-")}"', 1)[1].split("</section>", 1)[0]
        if prof.property_results[name].finding is not None:
            assert "<svg" in section and "<polyline" in section, name
        assert "Source: " in section
    # NaN points are marked, not drawn; categorical x (roles) is spaced evenly.
    svg = curve_svg(["A", "B", "AB"], [0.5, math.nan, 1.0], "series")
    assert svg.count("<circle") == 2 and ">nan</text>" in svg and ">AB</text>" in svg
