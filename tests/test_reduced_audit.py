"""Reduced audits (``random_runs``, ``chance_draws``) and how the atlas profiles and checks its slow rows (issues 19 and 30)."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from oipr_bench import audit
from oipr_bench.atlas import build
from oipr_bench.atlas.adapters.builtins import ADAPTERS as BUILTIN_ROWS
from oipr_bench.atlas.render import grid_lines, row_label
from oipr_bench.atlas.disagreements.sample import SAMPLE_CASES, sample_cases, sample_drift
from oipr_bench.atlas.store import validate_report
from oipr_bench.atlas.timings import minutes_text, read_timings, record_timing
from oipr_bench.auditing.options import AuditOptions, OptionError
from oipr_bench.auditing.profile.verify import options_of
from oipr_bench.evaluators import get
from oipr_bench import scenarios


def _oipr_row(**changes):
    row = next(a for a in BUILTIN_ROWS if a.metric == "OIPR")
    return dataclasses.replace(row, **changes)


# -- the option -------------------------------------------------------------------------------------

@pytest.mark.parametrize("value", [0, -1, 101, 2.5, True, "10"])
def test_random_runs_out_of_range_is_an_option_error(value):
    with pytest.raises(OptionError, match="random_runs must be a whole number of runs from 1 to 100"):
        AuditOptions(random_runs=value)


def test_random_runs_with_a_reference_is_refused():
    with pytest.raises(OptionError, match="cannot be combined with reference"):
        audit("PW", random_runs=10, reference="PW")


def test_a_reduced_audit_scores_the_first_runs_and_says_so():
    profile = audit("OIPR", random_runs=10)
    results = profile.case_results
    assert results["random_detector/c1"].n_runs == 10 and results["random_detector/c2"].n_runs == 10
    assert results["sparse_anomalies/c1"].n_runs == 1
    # the mean over the first ten runs, computed here from the fixture
    case = {c.id: c for c in scenarios.load()}["random_detector/c1"]
    oipr = get("OIPR")
    expected = np.mean([oipr(case.y_true, pred).f1 for pred in case.predictions[:10]])
    assert results["random_detector/c1"].score.f1 == pytest.approx(expected, abs=1e-12)
    # ... which is not the full audit's 100-run mean
    full = audit("OIPR").case_results["random_detector/c1"].score.f1
    assert abs(full - expected) > 1e-6
    report = profile.to_dict()
    validate_report(report)
    assert report["options"]["random_runs"] == 10
    assert "|random_runs:10|" in profile.signature
    assert "random_runs" not in audit("OIPR", sanity=False).signature
    assert "means over their first 10 runs only (a reduced audit)" in str(profile)
    assert options_of(profile).random_runs == 10  # `oipr-bench verify` re-runs it reduced alike


# -- chance_draws: the chance anchors on fewer draws --------------------------------------

class _CountingScore:
    """A deterministic metric taking scores (mean score inside the events) that counts its calls."""

    input_kind = "scores"

    def __init__(self) -> None:
        self.calls = 0
        self.inputs: list[np.ndarray] = []

    def __call__(self, y_true, y_pred):
        self.calls += 1
        self.inputs.append(np.asarray(y_pred, dtype=float).copy())
        return float(np.mean(y_pred[y_true == 1])) if np.any(y_true == 1) else 0.0


@pytest.mark.parametrize("value", [0, 1, 11, 2.5, True, "4"])
def test_chance_draws_out_of_range_is_an_option_error(value):
    with pytest.raises(OptionError, match="chance_draws must be a whole number of draws from 2 to 10"):
        AuditOptions(chance_draws=value)


def test_chance_draws_is_refused_with_a_reference_and_for_a_binary_metric():
    with pytest.raises(OptionError, match="cannot be combined with reference"):
        audit("VUS-ROC", input="scores", chance_draws=4, reference="VUS-ROC")
    with pytest.raises(OptionError, match="applies to a metric taking scores"):
        audit("OIPR", chance_draws=4)  # a 0/1 metric has no chance anchor: refused, never ignored


def test_a_reduced_chance_anchor_is_the_mean_of_the_first_draws_and_says_so():
    from oipr_bench.auditing.table5.chance import chance_series

    full_metric, reduced_metric = _CountingScore(), _CountingScore()
    full = audit(full_metric)
    reduced = audit(reduced_metric, chance_draws=4)
    # the calls docs/atlas.md quotes: 706 for a full score audit, 346 reduced to 10 runs and 4 draws,
    # 300 of the 706 being chance draws (30 ground truths, 10 draws each), each made once per ground truth
    drawn = {s.tobytes() for n in {x.size for x in full_metric.inputs} for s in chance_series(n)}
    chance_calls = sum(x.tobytes() in drawn for x in full_metric.inputs)
    both = _CountingScore()
    audit(both, random_runs=10, chance_draws=4)
    doc = (Path(__file__).resolve().parents[1] / "docs" / "atlas.md").read_text(encoding="utf-8")
    flat = " ".join(doc.split())
    assert f"makes {full_metric.calls} calls ({both.calls} when reduced as below)" in flat
    assert f"({chance_calls} of the {full_metric.calls})" in flat
    assert full_metric.calls - reduced_metric.calls == chance_calls * 6 // 10  # 6 of every 10 draws not made
    # the report states the reduction, the signature and verify carry it, the evidence names 4 draws
    report = reduced.to_dict()
    validate_report(report)
    assert report["options"]["chance_draws"] == 4 and "chance_draws" not in full.to_dict()["options"]
    assert "|chance_draws:4|" in reduced.signature and "chance_draws" not in full.signature
    assert options_of(reduced).chance_draws == 4
    assert "chance anchors: means over the first 4 of 10 uniform-random score series only" in str(reduced)
    evidence = " ".join(str(e) for e in reduced.evidence.values())
    assert "mean over 4 uniform-random scores" in evidence and "mean over 10 uniform-random" not in evidence
    # the 4-draw anchor is the mean of the first 4 of the 10 draws: the full audit's draws are a superset
    first4 = {s.tobytes() for n in {x.size for x in full_metric.inputs} for s in chance_series(n, 4)}
    assert first4 <= drawn and all(x.tobytes() not in drawn - first4 for x in reduced_metric.inputs)


# -- the atlas: rows, sample, timings ---------------------------------------------------------------

def test_a_reduced_row_is_recorded_and_labelled():
    adapter = _oipr_row(slow=True, random_runs=5)
    row, report, _ = build.profile_adapter(adapter)
    assert row["status"] == "ok" and row["random_runs"] == 5 and row["slow"] is True
    assert report["options"]["random_runs"] == 5
    assert [c["n_runs"] for c in report["cases"] if c["case_id"].startswith("random_detector/")] == [5, 5]
    assert row_label(row).endswith("OIPR [random: 5 of 100 runs]")
    assert any("[random: 5 of 100 runs]" in line for line in grid_lines([row], list(row["characteristics"])))


def test_the_sample_reproduces_the_committed_numbers_and_catches_a_drift():
    adapter = _oipr_row(slow=True)
    row, _, _ = build.profile_adapter(adapter)
    fresh = sample_cases(adapter)
    assert list(fresh) == list(SAMPLE_CASES)
    assert all(fresh[c] == pytest.approx(row["cases"][c], abs=1e-12) for c in SAMPLE_CASES)
    assert sample_drift(row, adapter, 1e-9) == []
    tampered = json.loads(json.dumps(row))
    tampered["cases"][SAMPLE_CASES[1]] += 0.01
    assert sample_drift(tampered, adapter, 1e-9) == [
        f"oipr-bench:OIPR: sampled case {SAMPLE_CASES[1]} {tampered['cases'][SAMPLE_CASES[1]]!r} -> {fresh[SAMPLE_CASES[1]]!r}"]
    assert sample_drift({**row, "status": "not_run"}, adapter, 1e-9) == []


class FirstLength:
    """A metric keeping state: it scores only the first n points, n fixed by its first call."""

    def __init__(self):
        self.n = None

    def __call__(self, y_true, y_pred):
        self.n = self.n or len(y_true)
        return float(np.mean(np.asarray(y_pred)[: self.n] == np.asarray(y_true)[: self.n]))


def test_the_sample_exposes_a_metric_that_keeps_state():
    one_object = FirstLength()
    adapter = dataclasses.replace(_oipr_row(slow=True), metric="first-length", build=lambda params: one_object,
                                  params={}, kind="score")
    row, _, _ = build.profile_adapter(adapter)  # forward order: the first call is a 500-point case
    assert row["status"] == "ok"
    one_object.n = None  # a new process would build the object afresh
    lines = sample_drift(row, adapter, 1e-9)  # the sample starts with the 1000-point case
    assert lines and all("sampled case" in line for line in lines)
    assert any(SAMPLE_CASES[0] in line for line in lines)


def test_timings_are_recorded_per_mode(tmp_path: Path):
    assert read_timings(tmp_path) == {}
    record_timing(tmp_path, "write", wall=83.2, cpu=160.0, jobs=2, rows={"a": 1.0, "b": 3.0})
    entry = record_timing(tmp_path, "write_include_slow", wall=1234.5, cpu=2400.0, jobs=2, rows={"a": 1.0})
    doc = read_timings(tmp_path)
    assert set(doc) == {"write", "write_include_slow"} and doc["write"]["wall_seconds"] == 83.2
    assert list(doc["write"]["rows"]) == ["b", "a"]  # longest first
    assert entry["jobs"] == 2 and entry["cpu_seconds"] == 2400.0
    assert minutes_text(1234.5) == "20 min 34 s" and minutes_text(59.4) == "0 min 59 s"
    with pytest.raises(ValueError, match="mode must be one of"):
        record_timing(tmp_path, "check", wall=1, cpu=1, jobs=1, rows={})


def test_write_include_slow_then_check_samples_the_slow_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys):
    from oipr_bench.atlas.adapters import builtins, registry
    from oipr_bench.cli import main

    pw = next(a for a in BUILTIN_ROWS if a.metric == "PW")
    monkeypatch.setattr(registry, "PACKAGE_MODULES", ("builtins",))
    monkeypatch.setattr(builtins, "ADAPTERS", [pw, _oipr_row(slow=True, random_runs=5)])
    atlas = tmp_path / "atlas"
    assert main(["atlas", "--write", str(atlas), "--no-cache", "--jobs", "1"]) == 0
    rows = {r["id"]: r for r in json.loads((atlas / "atlas.json").read_text())["rows"]}
    assert rows["oipr-bench:OIPR"]["status"] == "not_run" and rows["oipr-bench:PW"]["status"] == "ok"
    assert main(["atlas", "--write", str(atlas), "--no-cache", "--jobs", "2", "--include-slow"]) == 0
    rows = {r["id"]: r for r in json.loads((atlas / "atlas.json").read_text())["rows"]}
    assert rows["oipr-bench:OIPR"]["status"] == "ok" and rows["oipr-bench:OIPR"]["random_runs"] == 5
    assert "[random: 5 of 100 runs]" in (atlas / "ATLAS.md").read_text()
    timings = read_timings(atlas)
    assert set(timings["write"]["rows"]) == {"oipr-bench:PW"}
    assert set(timings["write_include_slow"]["rows"]) == {"oipr-bench:PW", "oipr-bench:OIPR"}
    capsys.readouterr()
    assert main(["atlas", "--check", str(atlas), "--jobs", "1"]) == 0
    assert "1 rows recomputed, 1 slow rows sampled (3 cases each), 0 drifted" in capsys.readouterr().out
    # a committed number of a sampled case that no longer holds is a drift
    doc = json.loads((atlas / "atlas.json").read_text())
    row = next(r for r in doc["rows"] if r["id"] == "oipr-bench:OIPR")
    row["cases"][SAMPLE_CASES[2]] = 0.123
    (atlas / "atlas.json").write_text(json.dumps(doc))
    assert main(["atlas", "--check", str(atlas), "--jobs", "1"]) == 1
    out = capsys.readouterr().out
    assert f"atlas drift: oipr-bench:OIPR: sampled case {SAMPLE_CASES[2]} 0.123 ->" in out
    assert "1 drifted" in out


def test_benchmarks_page_quotes_the_recorded_atlas_timings():
    from oipr_bench.atlas.store import default_dir
    from oipr_bench.atlas.timings import BUDGET_SECONDS, timings_markdown

    from oipr_bench.atlas.timings import MODES

    timings = read_timings(default_dir())
    # both environments' plain --write, and the main one's --include-slow (the modern one's once it has run)
    assert {"write", "write_include_slow", "write_modern"} <= set(timings) <= set(MODES), \
        "run `oipr-bench atlas --write --include-slow` and `--write` in each environment"
    page = (Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    start = page.index("<!-- atlas timings: generated from atlas/timings.json -->\n") + len(
        "<!-- atlas timings: generated from atlas/timings.json -->\n")
    block = page[start:page.index("<!-- end atlas timings -->")]
    assert block == "\n".join(timings_markdown(timings)) + "\n", "refresh with `python tests/test_reduced_audit.py`"
    # the atlas budget (every row, 2 workers, at most 30 minutes) is judged in the quoted text
    full = timings["write_include_slow"]
    verdict = "met" if full["wall_seconds"] <= BUDGET_SECONDS["write_include_slow"] else "missed"
    assert full["jobs"] == 2 and f"at most 30 min wall: {verdict})" in block


def _refresh_benchmarks_page() -> None:
    """Rewrite the generated block of docs/benchmarks.md from atlas/timings.json."""
    from oipr_bench.atlas.store import default_dir
    from oipr_bench.atlas.timings import timings_markdown

    page_path = Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md"
    page = page_path.read_text(encoding="utf-8")
    head, rest = page.split("<!-- atlas timings: generated from atlas/timings.json -->\n", 1)
    _, tail = rest.split("<!-- end atlas timings -->", 1)
    block = "\n".join(timings_markdown(read_timings(default_dir()))) + "\n"
    page_path.write_text(head + "<!-- atlas timings: generated from atlas/timings.json -->\n" + block
                         + "<!-- end atlas timings -->" + tail, encoding="utf-8")


if __name__ == "__main__":
    _refresh_benchmarks_page()


def test_a_bad_timings_file_is_one_line_naming_it(tmp_path: Path):
    from oipr_bench.errors import UsageError

    (tmp_path / "timings.json").write_text("[1, 2]")
    with pytest.raises(UsageError, match="timings.json is not a timings file"):
        read_timings(tmp_path)
    (tmp_path / "timings.json").write_text('{"write": NaN}')
    with pytest.raises(UsageError, match="cannot read .*timings.json"):
        read_timings(tmp_path)


def test_a_row_with_fewer_chance_draws_is_recorded_and_labelled():
    row_def = next(a for a in BUILTIN_ROWS if a.metric == "AUC-ROC")
    adapter = dataclasses.replace(row_def, slow=True, random_runs=10, chance_draws=4)
    row, report, _ = build.profile_adapter(adapter)
    assert row["status"] == "ok" and row["chance_draws"] == 4 and report["options"]["chance_draws"] == 4
    assert row_label(row).endswith("AUC-ROC [random: 10 of 100 runs; chance: 4 of 10 draws]")
    assert build._base_row(row_def)["chance_draws"] is None  # a full audit says so too


def test_the_slowest_rows_share_one_reduction_stated_in_the_row():
    from oipr_bench.atlas.adapters.base import SLOW_CHANCE_DRAWS, SLOW_RANDOM_RUNS
    from oipr_bench.atlas.adapters.registry import adapters

    every = adapters()
    for a in every:
        if a.chance_draws is not None:  # only score metrics have chance anchors, only slow rows are reduced
            assert a.input_kind == "scores" and a.slow and (a.random_runs, a.chance_draws) == (SLOW_RANDOM_RUNS, SLOW_CHANCE_DRAWS), a.id
    reduced = {a.id for a in every if a.chance_draws is not None}
    assert {"TimeEval:RangePrVUS", "TimeEval:RangeRocVUS[compatibility_mode]", "TSB-AD:VUS-ROC", "vus:VUS-PR",
            "aeon:range_roc_vus_score", "dtaianomaly:VolumeUnderPR", "PATE:PATE[buffer=100]", "TSADmetrics:pate"} <= reduced
    assert not any(a.chance_draws for a in every if not a.slow)


def test_an_atlas_worker_runs_one_native_thread(monkeypatch):
    for name in build.THREAD_VARIABLES:
        monkeypatch.setenv(name, "8")
    build.one_thread()
    assert all(os.environ[name] == "1" for name in build.THREAD_VARIABLES)


def test_verify_reruns_a_reduced_chance_anchor_and_fails_when_it_is_stripped_or_edited(tmp_path: Path):
    report = json.loads(audit("VUS-ROC", input="scores", random_runs=10, chance_draws=4).to_json())

    def verify(name: str, doc: dict) -> subprocess.CompletedProcess:
        (tmp_path / name).write_text(json.dumps(doc), encoding="utf-8")
        return subprocess.run([sys.executable, "-m", "oipr_bench", "verify", name], cwd=tmp_path,
                              capture_output=True, text=True, timeout=300)

    same = verify("same.json", report)
    assert same.returncode == 0 and "chance_draws:4" in same.stdout + same.stderr
    stripped = json.loads(json.dumps(report))
    del stripped["options"]["chance_draws"]  # re-run with all 10 draws: other anchors, other readings
    edited = json.loads(json.dumps(report))
    edited["options"]["chance_draws"] = 5
    resigned = json.loads(json.dumps(report))
    resigned["signature"] = resigned["signature"].replace("|chance_draws:4", "")
    for name, doc in (("stripped.json", stripped), ("edited.json", edited), ("resigned.json", resigned)):
        out = verify(name, doc)
        assert out.returncode == 1 and "NOT reproduced" in out.stdout + out.stderr, name
