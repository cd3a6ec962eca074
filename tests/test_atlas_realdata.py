"""The atlas on real data (``oipr-bench atlas --realdata DATA``) on a small corpus in NAB's layout.

The built-in rows' cells must equal ``oipr-bench realdata``'s table (one protocol); a second run
computes nothing; the committed row files are the cache (a new budget reads them); an edited row file
is refused and recomputed; ``--check --realdata`` finds a drifted cell; the declared subset depends on
the cost probe and the names only; bad input is one line and exit 2, with nothing already written lost.
Runs in the atlas environment (Dask).
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("distributed", reason="dask.distributed is not installed (pip install 'oipr-bench[atlas]')")

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _nab_corpus import write_sized_corpus  # noqa: E402

from oipr_bench.atlas.realdata import plan as planning  # noqa: E402
from oipr_bench.atlas.realdata.inputs import SeriesInputs, RealInputs, declared_order, read_inputs  # noqa: E402
from oipr_bench.atlas.realdata.rowfiles import read_row_file, row_path, write_row_file  # noqa: E402
from oipr_bench.atlas.realdata.summary import row_analysis  # noqa: E402
from oipr_bench.atlas.realdata.work import cell_value  # noqa: E402
from oipr_bench.cli import main  # noqa: E402

pytest_plugins = ["pytester"]

ROWS = ("oipr-bench:PW", "oipr-bench:AUC-ROC", "oipr-bench:PA")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    return write_sized_corpus(tmp_path_factory.mktemp("nab") / "nab")


def _run(capsys, data: Path, atlas: Path, cache: Path, *extra: str) -> tuple[int, str, str]:
    argv = ["atlas", "--realdata", str(data), "--dir", str(atlas), "--cache", str(cache), "--jobs", "1", "--quiet"]
    for rid in ROWS:
        argv += ["--only", rid]
    code = main(argv + list(extra))
    out, err = capsys.readouterr()
    return code, out, err


def _cells(atlas: Path, rid: str) -> dict[str, list]:
    doc, problem = read_row_file(row_path(atlas, rid), rid)
    assert doc is not None, problem
    return {name: entry["result"]["values"] for name, entry in doc["cells"].items()}


@pytest.fixture(scope="module")
def computed(corpus, tmp_path_factory):
    atlas = tmp_path_factory.mktemp("atlas")
    cache = tmp_path_factory.mktemp("cache")
    code = main(["atlas", "--realdata", str(corpus), "--dir", str(atlas), "--cache", str(cache), "--jobs", "1", "--quiet",
                 *[x for rid in ROWS for x in ("--only", rid)]])
    assert code == 0
    return atlas, cache


def test_builtin_rows_equal_the_realdata_table(corpus, computed):
    from oipr_bench.realdata.table import realdata

    atlas, _ = computed
    table = realdata(str(corpus), resamples=10).table
    names = [m.name for m in table.metrics]
    for rid, metric in (("oipr-bench:PW", "PW"), ("oipr-bench:AUC-ROC", "AUC-ROC"), ("oipr-bench:PA", "PA")):
        cells = _cells(atlas, rid)
        m = names.index(metric)
        for s, series in enumerate(table.series):
            for d, det in enumerate(table.detectors):
                ours, theirs = cells[series][d], table.values[m, d, s]
                if math.isnan(theirs):
                    assert ours is None, (rid, series, det)
                else:
                    assert ours == pytest.approx(theirs, abs=1e-12), (rid, series, det)


def test_a_second_run_computes_nothing(corpus, computed, capsys):
    atlas, cache = computed
    before = {rid: row_path(atlas, rid).read_bytes() for rid in ROWS}
    code, out, _ = _run(capsys, corpus, atlas, cache)
    assert code == 0
    assert f"{len(ROWS)} rows: {len(ROWS)} up to date, 0 written; 0 (row, series) pairs computed" in out
    assert {rid: row_path(atlas, rid).read_bytes() for rid in ROWS} == before


def test_the_committed_row_files_are_the_cache(corpus, computed, tmp_path, capsys):
    atlas, _ = computed
    copy = tmp_path / "atlas"
    (copy / "realdata").mkdir(parents=True)
    import shutil

    shutil.copytree(atlas / "realdata" / "rows", copy / "realdata" / "rows")
    # an empty cache and another budget: every row is run again, every (row, series) pair read from its file
    code, out, _ = _run(capsys, corpus, copy, tmp_path / "empty-cache", "--row-budget", "30")
    assert code == 0
    assert f"0 up to date, {len(ROWS)} written; 0 (row, series) pairs computed, {len(ROWS) * 3} read" in out
    for rid in ROWS:
        assert _cells(copy, rid) == _cells(atlas, rid)


def test_an_edited_row_file_is_refused_and_recomputed(corpus, computed, tmp_path, capsys):
    atlas, _ = computed
    import shutil

    copy = tmp_path / "atlas"
    shutil.copytree(atlas / "realdata", copy / "realdata")
    path = row_path(copy, "oipr-bench:PW")
    doc = json.loads(path.read_text())
    first = next(iter(doc["cells"]))
    doc["cells"][first]["result"]["values"][2] = 0.123
    path.write_text(json.dumps(doc))
    code, out, err = _run(capsys, corpus, copy, tmp_path / "empty-cache")
    assert code == 0
    assert "oipr-bench__PW.json not read as a cache (its cells do not match their checksum (edited or truncated))" in err
    assert "1 written; 3 (row, series) pairs computed" in out
    assert _cells(copy, "oipr-bench:PW") == _cells(atlas, "oipr-bench:PW")


def test_check_finds_a_drifted_cell_and_passes_an_untouched_atlas(corpus, computed, tmp_path, capsys):
    atlas, _ = computed
    import shutil

    copy = tmp_path / "atlas"
    shutil.copytree(atlas / "realdata", copy / "realdata")
    argv = ["atlas", "--check", str(copy), "--realdata", str(corpus), "--jobs", "1"]
    for rid in ROWS:
        argv += ["--only", rid]
    assert main(argv) == 0
    assert "3 rows sampled (one series each, every detector), 0 problem(s)" in capsys.readouterr().out
    doc, _ = read_row_file(row_path(copy, "oipr-bench:AUC-ROC"), "oipr-bench:AUC-ROC")
    lengths = {s.name: s.length for s in read_inputs(str(corpus)).series}
    sampled = min(doc["plan"]["series"], key=lambda n: (lengths[n], n))
    doc["cells"][sampled]["result"]["values"][1] += 0.25   # a "new release" moved one value (checksum made anew)
    write_row_file(copy, doc)
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert f"atlas drift: oipr-bench:AUC-ROC on {sampled}, detector random: committed" in out


def _inputs(lengths: dict[str, int]) -> RealInputs:
    series = tuple(SeriesInputs(n, np.zeros(k, dtype=np.int8), {}, {}) for n, k in lengths.items())
    return RealInputs(series, ("numenta", "null"), {}, {}, (), "d")


def test_the_declared_subset_depends_on_the_probe_and_the_names_only():
    lengths = {f"cat/s{k}.csv": 1000 * (k + 1) for k in range(8)}
    inputs = _inputs(lengths)
    probe_rows = max(lengths.values())  # no PROBE_SERIES: the longest series is the probe's
    # 1 s a call on the probe series -> 2 detectors x (36,000 / 8,000) s = 9 s in all
    full = planning.plan_row(inputs, {"cpu_seconds": 1.0}, budget_minutes=1.0)
    assert full.full and full.series == tuple(lengths) and full.estimated_full_cpu_seconds == pytest.approx(9.0)
    sub = planning.plan_row(inputs, {"cpu_seconds": 1.0}, budget_minutes=4.0 / 60)
    order = declared_order(list(lengths))
    taken, spent = [], 0.0
    for name in order:
        cost = 2 * lengths[name] / probe_rows
        if spent + cost <= 4.0:
            taken.append(name)
            spent += cost
    assert not sub.full and set(sub.series) == set(taken) and len(taken) >= planning.MIN_SERIES
    assert sub.estimated_cpu_seconds == pytest.approx(spent)
    tiny = planning.plan_row(inputs, {"cpu_seconds": 100.0}, budget_minutes=0.01)
    assert set(tiny.series) == {"cat/s0.csv", "cat/s1.csv", "cat/s2.csv"}  # too costly: the three shortest
    assert planning.plan_row(inputs, {"cpu_seconds": 1.0}, 4.0 / 60).series == sub.series  # the same plan again


class _Ev:
    bounds = (0.0, 1.0)

    def __init__(self, value):
        self.value = value

    def __call__(self, y_true, y_pred):
        if isinstance(self.value, Exception):
            raise self.value
        return self.value


@pytest.mark.parametrize("value, failure", [
    (ValueError("no positive label\nmore"), "ValueError: no positive label"),
    (float("nan"), "not a finite number: nan"),
    (1.5, "1.5 outside its declared bounds [0, 1]"),
    ("text", "TypeError: returned a string ('text'), expected (precision, recall[, f1]), a mapping or object with "
             "precision/recall, or one number"),
])
def test_a_cell_without_a_number_is_a_failed_cell_with_its_reason(value, failure):
    y = np.array([0, 1, 1, 0], dtype=np.int8)
    assert cell_value(_Ev(value), y, y) == {"value": None, "failure": failure}


def test_a_pr_result_ranks_by_its_f1():
    y = np.array([0, 1, 1, 0], dtype=np.int8)
    assert cell_value(_Ev((0.5, 1.0)), y, y) == {"value": pytest.approx(2 / 3), "failure": ""}


def test_the_reading_ranks_by_the_mean_and_compares_with_nab_and_the_reference():
    dets = ["a", "random", "null"]
    series = ["s1", "s2"]

    def doc(rid, values, group="G"):
        return {"row": {"id": rid, "higher_is_better": True, "group": group}, "detectors": dets,
                "plan": {"series": series},
                "cells": {s: {"result": {"values": [values[d][j] for d in range(3)]}} for j, s in enumerate(series)}}

    mine = doc("pkg:x", [[0.9, 0.7], [0.5, 0.6], [None, 0.1]])
    ref = doc("oipr-bench:x", [[0.8, 0.8], [0.4, 0.4], [0.2, 0.2]])
    nab = {"a": {"s1": 5.0, "s2": 3.0}, "random": {"s1": -1.0, "s2": -2.0}, "null": {"s1": 0.0, "s2": 0.0}}
    r = row_analysis(mine, ref, nab)
    assert [s["detector"] for s in r["ranking"]] == ["a", "random", "null"]
    assert r["ranking"][0]["value"] == pytest.approx(0.8) and r["ranking"][2]["defined"] == 1
    assert r["random_rank"] == 2 and r["null_rank"] == 3 and r["failed_cells"] == 1
    assert r["reference"] == "oipr-bench:x" and r["tau_reference"]["tau"] == pytest.approx(1.0)
    # NAB ranks a > null > random: one discordant pair of three -> tau = 1/3
    assert r["tau_nab"]["tau"] == pytest.approx(1 / 3)


@pytest.mark.parametrize("argv, expected", [
    (["--realdata", "{tmp}/nothing"], "oipr-bench atlas: error: "),
    (["--realdata", "{data}", "--cache", "{file}"], "--cache {file}: is a file, not a folder"),
    (["--realdata", "{data}", "--scheduler", "tcp://127.0.0.1:9"], "--scheduler tcp://127.0.0.1:9: no Dask scheduler answers there"),
    (["--realdata", "{data}", "--row-budget", "0"], "--row-budget must be a positive number of CPU minutes, got 0.0"),
    (["--realdata", "{data}", "--write"], "--realdata does not combine with --write"),
    (["--row-budget", "3"], "--row-budget applies to --realdata; give --realdata DATA"),
])
def test_bad_input_is_one_line_and_exit_2_and_keeps_what_was_written(argv, expected, corpus, computed, tmp_path, capsys):
    atlas, _ = computed
    before = {p.name: p.read_bytes() for p in (atlas / "realdata" / "rows").glob("*.json")}
    (tmp_path / "afile").write_text("x")
    fill = {"tmp": str(tmp_path), "data": str(corpus), "file": str(tmp_path / "afile")}
    code = main(["atlas", *[a.format(**fill) for a in argv], "--dir", str(atlas)])
    err = capsys.readouterr().err
    assert code == 2
    assert expected.format(**fill) in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert {p.name: p.read_bytes() for p in (atlas / "realdata" / "rows").glob("*.json")} == before


def test_a_folder_that_is_not_nab_is_named(tmp_path, capsys):
    (tmp_path / "data").mkdir()
    code = main(["atlas", "--realdata", str(tmp_path / "data"), "--dir", str(tmp_path / "atlas"), "--only", "oipr-bench:PW"])
    err = capsys.readouterr().err
    assert code == 2 and str(tmp_path / "data") in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "atlas" / "realdata").exists()


def test_inputs_leave_out_the_probation_and_binarise_at_the_threshold(corpus):
    inputs = read_inputs(str(corpus))
    s = inputs.series[0]
    from oipr_bench.reference import nab

    n = 400
    start = nab.probation_rows(n)
    assert s.length == n - start and s.y_true.sum() == 21
    assert np.array_equal(s.y_pred["spiky"], (s.scores["spiky"] >= 0.8).astype(np.int8))
    assert s.y_pred["null"].all()  # a constant 0.5 at its threshold 0.5: NAB's rule is score >= threshold


def test_a_timed_out_series_is_not_kept_and_the_next_run_computes_it(corpus, tmp_path, capsys, monkeypatch):
    import dask
    from _slow_rows import ROWS

    from oipr_bench.atlas.adapters import builtins

    tests = Path(__file__).resolve().parent
    monkeypatch.setattr(builtins, "ADAPTERS", [*builtins.ADAPTERS, *ROWS])  # the slow rows in this process, for this test only

    argv = ["atlas", "--realdata", str(corpus), "--dir", str(tmp_path), "--cache", str(tmp_path / "cache"), "--jobs", "1",
            "--quiet", "--only", "oipr-bench:PW[slow]", "--only", "oipr-bench:PW"]
    with dask.config.set({"distributed.worker.preload": [str(tests / "_slow_rows.py")]}):
        code = main(argv + ["--task-timeout", "0.1"])   # a series of the slow row: 3 calls of 0.4 s
        out, _ = capsys.readouterr()
        assert code == 1 and "3 (row, series) pairs computed" in out and "3 failed" in out
        doc, _ = read_row_file(row_path(tmp_path, "oipr-bench:PW[slow]"), "oipr-bench:PW[slow]")
        assert doc["status"] == "incomplete" and "3 series not computed" in doc["reason"] and "timed out" in doc["reason"]
        assert doc["cells"] == {}
        assert main(argv) == 0   # no timeout: the slow row's three series are computed, the other row is up to date
        out, _ = capsys.readouterr()
    assert "2 rows: 1 up to date, 1 written; 3 (row, series) pairs computed, 0 read" in out
    assert read_row_file(row_path(tmp_path, "oipr-bench:PW[slow]"), "oipr-bench:PW[slow]")[0]["status"] == "ok"


def test_a_row_whose_probe_fails_is_a_failed_row_tried_again_next_time(corpus, tmp_path):
    import dataclasses

    from oipr_bench.atlas.adapters.registry import by_id
    from oipr_bench.atlas.realdata.run import RunCounts, run_rows
    from oipr_bench.atlas.running.tasks import connect

    class NoBar:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return None

        def update(self, n):
            return None

    ghost = dataclasses.replace(by_id()["oipr-bench:PW"], metric="PW[not on the workers]")  # the workers cannot build it
    counts = RunCounts()
    status = run_rows(read_inputs(str(corpus)), tmp_path, [ghost, by_id()["oipr-bench:AUC-ROC"]],
                      client_factory=lambda n: connect(1), cache=None, timeout=None, budget_minutes=15.0,
                      progress=lambda total, unit: NoBar(), counts=counts)
    assert status == {ghost.id: "failed", "oipr-bench:AUC-ROC": "ok"} and counts.rows_failed == 1
    doc, _ = read_row_file(row_path(tmp_path, ghost.id), ghost.id)
    assert doc["key"] == "" and doc["status"] == "failed" and "cost probe failed (KeyError" in doc["reason"]


def test_a_new_audit_reading_keeps_every_real_data_key(monkeypatch):
    from oipr_bench.atlas.adapters.registry import by_id
    from oipr_bench.atlas.realdata.run import CELL_READING_VERSION, PROTOCOL, row_fields
    from oipr_bench.atlas.running import cache

    a = by_id()["oipr-bench:PW"]
    before = planning.row_key(row_fields(a), "d", ["x"], PROTOCOL, 15.0)
    monkeypatch.setattr(cache, "READING_VERSION", cache.READING_VERSION + 7)
    assert cache.profile_fields({}, "a", "i", "forward")["reading_version"] != row_fields(a)["reading_version"]
    assert row_fields(a)["reading_version"] == CELL_READING_VERSION
    assert planning.row_key(row_fields(a), "d", ["x"], PROTOCOL, 15.0) == before


def test_your_metric_is_placed_by_its_ranking_of_the_real_detectors(corpus, computed, tmp_path, capsys):
    import shutil

    atlas, _ = computed
    folder = tmp_path / "atlas"
    shutil.copytree(atlas / "realdata", folder / "realdata")
    shutil.copy(Path(__file__).resolve().parent.parent / "atlas" / "atlas.json", folder / "atlas.json")
    code = main(["atlas", "--evaluator", "PW", "--profile-only", "--realdata", str(corpus), "--dir", str(folder)])
    out = capsys.readouterr().out
    assert code == 0
    assert "On real data (NAB, 3 series, 3 detectors): PW ranks " in out and "(0 failed cells of 9)" in out
    # the built-in PW row ranks the three detectors exactly as PW does
    assert "  nearest on real data: oipr-bench:PW (Kendall's tau 1.00 over the detectors, on 3 series)" in out.splitlines()


def test_the_cost_probe_times_the_metric_not_a_partner_s_kept_result(corpus):
    from oipr_bench.atlas.adapters import shared
    from oipr_bench.atlas.realdata.work import probe_cost

    s = read_inputs(str(corpus)).series[0]
    calls = []
    shared.shared_result("a call", {}, s.y_true, s.scores["spiky"], lambda: calls.append(1) or 0.5, "store")
    assert len(shared._KEPT) == 1
    probe_cost("oipr-bench:PW", s.y_true, s.scores["spiky"], s.y_pred["spiky"])
    assert len(shared._KEPT) == 0   # cleared before the timed call


def test_importing_the_slow_rows_leaves_the_built_in_rows_alone():
    from _slow_rows import IDS, register  # noqa: F401 - the import alone must not register them

    from oipr_bench.atlas.adapters import builtins

    assert len(builtins.ADAPTERS) == 13 and not any(a.id in IDS for a in builtins.ADAPTERS)


def _pair_doc(rid: str, values: list[list[float]], params: dict | None = None) -> dict:
    series = ["s1", "s2", "s3"]
    return {"row": {"id": rid, "higher_is_better": True, "group": "G", "params": params or {}, "input_kind": "scores"},
            "detectors": ["a", "b", "null"], "plan": {"series": series},
            "cells": {s: {"result": {"values": [row[j] for row in values]}} for j, s in enumerate(series)}}


X_CELLS = [[0.9, 0.8, 0.7], [0.5, 0.5, 0.5], [0.3, 0.3, 0.3]]           # a > b > null
NULL_MOVED = [[0.9, 0.8, 0.7], [0.5, 0.5, 0.5], [0.6, 0.6, 0.6]]        # the same, but null scored 0.6
A_MOVED = [[0.1, 0.2, 0.1], [0.5, 0.5, 0.5], [0.3, 0.3, 0.3]]           # the same, but a scored low
NULL_FLAT = {"scores": {("null", s) for s in ("s1", "s2", "s3")}, "binary": set()}


@pytest.mark.parametrize("y_cells, y_params, constant, constructed_y, cause", [
    (NULL_MOVED, None, NULL_FLAT, {"c": 0.5}, "constant_output"),    # must show: only the constant output differs
    (NULL_MOVED, None, {"scores": set(), "binary": set()}, {"c": 0.5}, "real_data_only"),  # control: null's output varies
    (A_MOVED, None, NULL_FLAT, {"c": 0.5}, "real_data_only"),        # a varying output differs, the constructed case agrees
    (A_MOVED, None, NULL_FLAT, {"c": 0.25}, "definition"),           # ... and the constructed case separates them too
    (A_MOVED, {"window": 2}, NULL_FLAT, {"c": 0.25}, "declared"),    # declared parameters explain it before anything else
])
def test_a_pair_s_cause_is_read_from_where_its_cells_differ(y_cells, y_params, constant, constructed_y, cause):
    from oipr_bench.atlas.realdata.render import cause_text
    from oipr_bench.atlas.realdata.summary import group_pairs

    docs = {"p:x": _pair_doc("p:x", X_CELLS), "q:x": _pair_doc("q:x", y_cells, y_params)}
    [pair] = group_pairs(docs, constant, {"p:x": {"c": 0.5}, "q:x": constructed_y})
    assert pair["cause"] == cause and pair["tau"] < 1
    assert pair["cells_differ"] == 3 and pair["cells_differ_constant"] == (3 if cause == "constant_output" else 0)
    text = cause_text(pair)
    assert {"constant_output": "all 3 differing cells are constant outputs (null)", "real_data_only": "seen on real data only: 3 cells",
            "definition": "the definitions differ: 3 cells where the output varies", "declared": "declared"}[cause] in text
    # without the input facts, or without a constructed case both rows ran, the pair is not traced, and says so
    [bare] = group_pairs(docs)
    assert bare["cause"] == ("declared" if y_params else "untraced")
    [unprofiled] = group_pairs(docs, constant, {"p:x": {"c": 0.5}, "q:x": {}})
    assert unprofiled["cause"] == {"real_data_only": "untraced", "definition": "untraced"}.get(cause, cause)


def test_the_committed_real_data_causes_match_the_constructed_verdicts():
    """AUC-PR's verdict (DISAGREEMENTS.md): average precision vs the trapezoid differ on almost every
    input; TimeEval's AveragePrecision differs from average precision only on a constant score."""
    summary = json.loads((Path(__file__).resolve().parents[1] / "atlas" / "realdata" / "summary.json").read_text(encoding="utf-8"))
    causes = {tuple(p["rows"]): p for p in summary["group_pairs"]}
    convention = causes[("TSADmetrics:pw_auc_pr", "TimeEval:AveragePrecision")]
    assert convention["cause"] == "constant_output" and "null" in convention["constant_detectors"]
    estimators = causes[("TSB-AD:AUC-PR", "TSB-UAD:AUC-PR")]
    assert estimators["cause"] == "definition" and estimators["constructed_differ"] > 0
    assert estimators["cells_differ"] - estimators["cells_differ_constant"] > 0
    assert {p["cause"] for p in summary["group_pairs"]} <= {"one_fails", "declared", "constant_output", "definition", "real_data_only"}


def test_the_null_detector_s_output_is_constant_on_every_series(corpus):
    from oipr_bench.atlas.realdata.inputs import constant_outputs

    inputs = read_inputs(str(corpus))
    flat = constant_outputs(inputs)
    assert {("null", s.name) for s in inputs.series} <= flat["scores"]
    assert not any(det == "spiky" for det, _ in flat["scores"])  # a detector whose score varies is never flat


def test_the_plugin_places_the_evaluator_on_real_data_as_the_cli_does(corpus, computed, tmp_path, pytester, capsys):
    import shutil

    atlas, _ = computed
    folder = tmp_path / "atlas"
    shutil.copytree(atlas / "realdata", folder / "realdata")
    shutil.copy(Path(__file__).resolve().parent.parent / "atlas" / "atlas.json", folder / "atlas.json")
    # the plugin reads the shipped atlas: this run's conftest points it at the folder computed on the small corpus
    pytester.makeconftest(f"import oipr_bench.atlas.store as s, pathlib\ns.default_dir = lambda: pathlib.Path({str(folder)!r})\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--evaluator=PW", "--oipr-atlas", "--oipr-realdata",
                                           str(corpus), timeout=300)
    plugin = [line for line in result.stdout.str().splitlines() if line.startswith(("On real data", "  nearest on real data"))]
    capsys.readouterr()
    assert main(["atlas", "--evaluator", "PW", "--profile-only", "--realdata", str(corpus), "--dir", str(folder)]) == 0
    cli = [line for line in capsys.readouterr().out.splitlines() if line.startswith(("On real data", "  nearest on real data"))]
    assert plugin == cli and "  nearest on real data: oipr-bench:PW (Kendall's tau 1.00 over the detectors, on 3 series)" in cli


def test_rows_computed_on_other_data_are_counted_and_not_compared(corpus):
    from oipr_bench.atlas.realdata.place import real_placement_lines
    from oipr_bench.atlas.realdata.rowfiles import read_row_files

    inputs = read_inputs(str(corpus))
    docs, _ = read_row_files(Path(__file__).resolve().parents[1] / "atlas")   # the committed rows: computed on NAB itself
    values = np.arange(len(inputs.detectors) * len(inputs.series), dtype=float).reshape(len(inputs.detectors), -1)
    lines = real_placement_lines("mine", values, True, inputs, docs, [])
    assert f"  {len(docs)} committed real-data rows were computed on other data than {inputs.digest[:12]} and are not compared" in lines
    assert not any(line.startswith("  nearest on real data") for line in lines)
