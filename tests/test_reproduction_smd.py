"""The SMD rows of the paper's Tables 6, 7 and 8 (and Table 2, Table 9's SMD column) from the authors' slice.

Every expected value is the paper's printed one (``reference_results/paper/table_{6,7,8}_smd.json``,
``table_2.json``, read through :mod:`oipr_bench.reference.paper`), compared within half a unit of
its 3rd printed decimal (5e-4). Tests that read the authors' CSVs skip with the reason
``shared material not available`` when ``../shared`` is absent; the error paths and the
rendering are tested on synthetic slices written here.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from oipr_bench import evaluators
from oipr_bench.cli import main
from oipr_bench.reference import paper
from oipr_bench.reference.smd import (DETECTORS, SMD_LENGTH, detector, SMD_PARAMS, SOURCE_REPOSITORY, TABLE_DETECTORS,
                                      load_smd, slice_statistics)
from oipr_bench.reports.smd_render import render_smd
from oipr_bench.reports.smd_tables import rank, reproduce_smd, run_user_evaluator
from oipr_bench.vocabulary import CHARACTERISTICS

TOL3 = paper.PRINTED_3DP_TOLERANCE
METRICS = ("precision", "recall", "f1")
CELLS = [(t, row.detector, name) for t in paper.SMD_TABLES for row in paper.smd_table(t) for name in evaluators.NAMES]


@pytest.fixture(scope="module")
def smd(authors_smd_dir):
    return load_smd(authors_smd_dir)


# --------------------------------------------------------------------------- the paper's values


def test_stored_tables_have_every_smd_cell():
    assert [len(paper.smd_table(t)) for t in paper.SMD_TABLES] == [3, 2, 3]
    assert [r.detector for t in paper.SMD_TABLES for r in paper.smd_table(t)] == [d.id for d in DETECTORS]
    for t in paper.SMD_TABLES:
        for row in paper.smd_table(t):
            assert list(row.values) == list(evaluators.NAMES)
            assert all(0 <= v <= 1 for score in row.values.values() for v in score)
            assert set(row.marks) <= set(evaluators.NAMES) and set(row.marks.values()) <= set(CHARACTERISTICS)
    assert "Table 6" in paper.source("6_smd") and "SMD" in paper.source("6_smd")


def test_a_few_transcribed_values_as_printed():
    """Spot checks against the paper's text: Table 7's SMD rows and Table 6's AM marker."""
    t7 = {r.detector: r for r in paper.smd_table("7")}
    assert tuple(t7["d_fp"].values["OIPR"]) == (0.993, 0.91, 0.95)
    assert tuple(t7["d_l"].values["TaPR"]) == (1.0, 0.216, 0.355)
    assert t7["d_fp"].marks == {"PW": "existence_detection_reward", "PA": "overlap_proportion_awareness",
                                "PA%K": "existence_detection_reward"}
    t6 = {r.detector: r for r in paper.smd_table("6")}
    assert t6["TimesNet"].marks == {"AM": "sparse_anomaly_misleading"} and t6["TimesNet"].bold == ("AM",)
    with pytest.raises(ValueError, match="no stored SMD rows"):
        paper.smd_table("5")


def test_smd_parameters_are_table_3s_and_the_builtins_defaults():
    assert SMD_PARAMS["OIPR"] == {"l_dis": 5, "l_obs": 20, "b_dur": 0.5}
    assert SMD_PARAMS["TaPR"]["delta"] == 5 and SMD_PARAMS["PA%K"] == {"k": 50}
    for name in evaluators.NAMES:
        assert evaluators.get(name, **SMD_PARAMS[name]).params == evaluators.get(name).params


# --------------------------------------------------------------------------- every value against the paper


@pytest.mark.parametrize("table, det, name", CELLS, ids=[f"{t}-{d}-{n}" for t, d, n in CELLS])
def test_every_smd_value_matches_the_paper(smd, table, det, name):
    got = evaluators.get(name, **SMD_PARAMS[name])(smd.y_true, smd.predictions[det])
    printed = next(r for r in paper.smd_table(table) if r.detector == det).values[name]
    for metric, g, p in zip(METRICS, got, printed):
        assert abs(g - p) <= TOL3, f"Table {table} SMD {det} {name} {metric}: ours {g!r}, paper {p!r} (tolerance {TOL3})"


@pytest.mark.parametrize("table, n", [("6", 63), ("7", 42), ("8", 63)])
def test_reproduce_smd_counts_every_value(authors_smd_dir, table, n):
    result = reproduce_smd(table, authors_smd_dir)
    assert (result.result.n_match, result.result.n_total) == (n, n), result.result.mismatches
    assert result.result.summary().startswith(f"Table {table} (SMD): {n}/{n} values match the paper (")


def test_rankings_of_table_6(authors_smd_dir):
    """Only AM orders the three detectors differently from OIPR; the paper blames sparse anomaly misleading."""
    rankings = {r.evaluator: r for r in reproduce_smd("6", authors_smd_dir).rankings}
    assert rankings["OIPR"].order == (("DLinear",), ("TimesNet",), ("Autoformer",))
    assert [n for n, r in rankings.items() if r.differs_from_oipr] == ["AM"]
    assert rankings["AM"].order == (("TimesNet",), ("DLinear",), ("Autoformer",))
    assert rankings["AM"].marks == {"TimesNet": "sparse_anomaly_misleading"}
    assert all(r.agrees_with_paper for r in rankings.values())


@pytest.mark.parametrize("table", paper.SMD_TABLES)
def test_our_best_and_second_are_the_papers_bold_and_underline(authors_smd_dir, table):
    for r in reproduce_smd(table, authors_smd_dir).rankings:
        assert r.agrees_with_paper, (table, r.evaluator, r.order, r.paper_best, r.paper_second)


def test_tables_7_and_8_rankings_say_what_the_paper_says(authors_smd_dir):
    r7 = {r.evaluator: r for r in reproduce_smd("7", authors_smd_dir).rankings}
    assert [n for n, r in r7.items() if r.order == (("d_l",), ("d_fp",))] == ["PW", "PA%K"]  # favour d_l
    assert reproduce_smd("7", authors_smd_dir).ours["PA"]["d_fp"] == (1.0, 1.0, 1.0)  # PA: d_fp is "ideal"
    r8 = {r.evaluator: r for r in reproduce_smd("8", authors_smd_dir).rankings}
    assert r8["OIPR"].order == (("d_aggr",), ("d_cont",), ("d_disp",))
    assert r8["PW"].order[0] == ("d_disp", "d_aggr")  # a tie: the paper prints both bold
    assert r8["AM"].order[0] == ("d_aggr", "d_cont")  # 0.99503 and 0.99475, both printed 0.995 and bold
    assert r8["RP/RR"].order[0] == ("d_cont",) and r8["TaPR"].order[0] == ("d_cont",)


def test_rank_ties_at_printed_precision_and_orientation():
    assert rank({"a": 0.8951, "b": 0.8949, "c": 0.5}) == (("a", "b"), ("c",))
    assert rank({"a": 0.8944, "b": 0.8949}) == (("b",), ("a",))
    assert rank({"a": 0.1, "b": 0.2}, higher_is_better=False) == (("a",), ("b",))
    assert rank({"a": float("nan"), "b": 0.2}) == (("b",), ("a",))


# --------------------------------------------------------------------------- Table 9 and Table 2


def test_table_9_smd_column(smd):
    stats = slice_statistics(smd)
    assert (stats.n_points, stats.n_events, round(stats.mean_length), stats.long_threshold) == (7084, 118, 3, 4)
    assert round(stats.event_ratio, 3) == 0.203 and round(stats.point_ratio, 3) == 0.572
    # Table 9 prints R_N 0.345 / 0.017 / 0.017: the stretches before the first and after the last
    # event count as normal intervals (41 of 119 for d_disp) ...
    assert {d: round(stats.normal_ratio[d], 3) for d in ("d_disp", "d_aggr", "d_cont")} == \
        {"d_disp": 0.345, "d_aggr": 0.017, "d_cont": 0.017}
    # ... while the paper's words ("between two adjacent anomaly events") give 40/117 and 1/117.
    assert {d: round(stats.normal_ratio_between[d], 3) for d in ("d_disp", "d_aggr", "d_cont")} == \
        {"d_disp": 0.342, "d_aggr": 0.009, "d_cont": 0.009}


#: Table 2's thirteen-event slice of Fig. 2: one window of the published slice that holds exactly those events.
TABLE_2_WINDOW = (3400, 4500)


def test_table_2_first_two_rows_are_a_window_of_the_slice(smd):
    start, end = TABLE_2_WINDOW
    y_true = smd.y_true[start:end]
    starts = np.flatnonzero(np.diff(np.r_[0, y_true]) == 1)
    assert len(starts) == 13
    printed = paper.table_2()
    for det in ("d_fp", "d_l"):
        for name in evaluators.NAMES:
            f1 = evaluators.get(name, **SMD_PARAMS[name])(y_true, smd.predictions[det][start:end]).f1
            assert abs(f1 - printed[det][name]) <= TOL3, (det, name, f1, printed[det][name])


def test_table_2_disturbance_rows_are_not_from_the_published_slice(smd):
    """The published d_aggr puts its 70 false positives in the first 3 % of all 7,084 points: none in the window."""
    start, end = TABLE_2_WINDOW
    fp = (smd.predictions["d_aggr"] == 1) & (smd.y_true == 0)
    assert fp.sum() == 70 and np.flatnonzero(fp).max() < 0.05 * SMD_LENGTH and not fp[start:end].any()
    f1 = evaluators.get("PW")(smd.y_true[start:end], smd.predictions["d_aggr"][start:end]).f1
    assert f1 == 1.0 and paper.table_2()["d_aggr"]["PW"] == 0.919


# --------------------------------------------------------------------------- the command


def test_cli_tables_6_7_8_print_values_rankings_and_summaries(authors_smd_dir, capsys):
    for table, n in (("6", 63), ("7", 42), ("8", 63)):
        assert main(["reproduce", "--table", table, "--data", str(authors_smd_dir)]) == 0
        out = capsys.readouterr().out
        assert out.rstrip().splitlines()[-1].startswith(f"Table {table} (SMD): {n}/{n} values match the paper")
    assert main(["reproduce", "--table", "6", "--data", str(authors_smd_dir)]) == 0
    out = capsys.readouterr().out
    assert "TimesNet    AM         0.946 (0.946)      0.766 (0.766)   0.847 (0.847)" in out
    am = next(line for line in out.splitlines() if line.lstrip().startswith("AM "))
    assert "*" in am and "TimesNet > DLinear > Autoformer" in am and "blames sparse anomaly misleading (TimesNet)" in am


def test_cli_user_evaluator_column_and_ranking(authors_smd_dir, capsys):
    assert main(["reproduce", "--table", "7", "--data", str(authors_smd_dir), "--evaluator", "PA%K", "--param", "k=0"]) == 0
    out = capsys.readouterr().out
    assert "d_fp      PA%K (yours)  1.000 (-)          1.000 (-)       1.000 (-)" in out  # K = 0 is PA
    assert any(line.lstrip().startswith("PA%K (yours)") and "d_fp > d_l" in line for line in out.splitlines())
    assert "|user:PA%K{k=0}" in out


def test_user_evaluator_scalar_and_lower_is_better(authors_smd_dir, tmp_path, monkeypatch):
    (tmp_path / "mine.py").write_text(
        "import numpy as np\n"
        "def misses(y_true, y_pred):\n"
        "    d = np.diff(np.r_[0, y_true, 0]); s = np.flatnonzero(d == 1); e = np.flatnonzero(d == -1)\n"
        "    return float(sum(not y_pred[a:b].any() for a, b in zip(s, e)))\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    data = load_smd(authors_smd_dir, TABLE_DETECTORS["6"])
    user = run_user_evaluator("mine.py:misses", {}, data, TABLE_DETECTORS["6"], higher_is_better=False, bounds="0:")
    assert user.kind == "score" and not user.problems
    missed = {d: user.scores[d].f1 for d in TABLE_DETECTORS["6"]}
    assert all(float(v).is_integer() and 0 <= v <= 118 for v in missed.values())
    result = reproduce_smd("6", authors_smd_dir, user=user, data=data)
    mine = result.rankings[-1]
    assert mine.evaluator == "mine.py:misses (yours)" and mine.order == rank(missed, higher_is_better=False)
    assert "score " in render_smd(result) and json.loads(render_smd(result, "json"))["user"]["kind"] == "score"


# --------------------------------------------------------------------------- synthetic slices: errors and rendering


def _write_slice(folder: Path, detectors=None, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    y_true = np.zeros(SMD_LENGTH, dtype=np.int8)
    for start in rng.choice(SMD_LENGTH - 10, size=60, replace=False):
        y_true[start:start + int(rng.integers(1, 6))] = 1
    folder.mkdir(parents=True, exist_ok=True)
    for det in DETECTORS:
        if detectors is None or det.id in detectors:
            pred = np.where(rng.random(SMD_LENGTH) < 0.02, 1 - y_true, y_true)
            lines = ["gt,pred", *(f"{g},{p}" for g, p in zip(y_true, pred))]
            (folder / det.csv).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return y_true


def _error(capsys, argv) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    return err


def test_missing_data_says_where_to_get_it(tmp_path, capsys):
    err = _error(capsys, ["reproduce", "--table", "6"])
    assert "needs --data DIR" in err and SOURCE_REPOSITORY in err
    err = _error(capsys, ["reproduce", "--table", "7", "--data", str(tmp_path / "nope")])
    assert "no such folder" in err and "SMD_first_point_detector.csv" in err and SOURCE_REPOSITORY in err
    _write_slice(tmp_path / "part", detectors={"Autoformer"})
    err = _error(capsys, ["reproduce", "--table", "6", "--data", str(tmp_path / "part")])
    assert "missing SMD_DLinear.csv, SMD_TimesNet.csv;" in err and "datasets/real_world_dataset/SMD" in err


@pytest.mark.parametrize("edit, expected", [
    (lambda lines: ["gt,prediction", *lines[1:]], "columns gt,prediction; expected exactly gt,pred"),
    (lambda lines: [*lines[:41], "0,2", *lines[42:]], "column 'pred', line 42: value '2' is not binary"),
    (lambda lines: lines[:-1], f"{SMD_LENGTH - 1} data rows; the authors' SMD slice has {SMD_LENGTH}"),
    (lambda lines: [*lines, "0,0"], f"{SMD_LENGTH + 1} data rows"),
    (lambda lines: [*lines[:9], "1,1" if lines[9].startswith("0") else "0,0", *lines[10:]],
     "column 'gt', line 10: ground truth"),
], ids=["columns", "non-binary", "short", "long", "other-gt"])
def test_bad_csv_is_one_line_naming_file_and_line(tmp_path, capsys, edit, expected):
    _write_slice(tmp_path, detectors=set(TABLE_DETECTORS["6"]))
    path = tmp_path / "SMD_TimesNet.csv"
    path.write_text("\n".join(edit(path.read_text(encoding="utf-8").splitlines())) + "\n", encoding="utf-8")
    err = _error(capsys, ["reproduce", "--table", "6", "--data", str(tmp_path)])
    assert "SMD_TimesNet.csv" in err and expected in err


def test_smd_options_need_their_table_and_evaluator(tmp_path, capsys):
    assert "only with --table 6, 7 or 8" in _error(capsys, ["reproduce", "--data", str(tmp_path)])
    _write_slice(tmp_path)
    assert "--param needs --evaluator" in _error(capsys, ["reproduce", "--table", "6", "--data", str(tmp_path),
                                                          "--param", "k=1"])
    assert "nosuch" in _error(capsys, ["reproduce", "--table", "6", "--data", str(tmp_path), "--evaluator", "nosuch.mod:f"])
    base = ["reproduce", "--table", "6", "--data", str(tmp_path), "--evaluator", "PW"]
    assert "--bounds: bounds need lo < hi" in _error(capsys, [*base, "--bounds", "1:0"])
    assert "--timeout must be a positive number" in _error(capsys, [*base, "--timeout", "-1"])
    assert "evaluator PW: bad parameter" in _error(capsys, [*base, "--param", "x=1"])


def test_a_hanging_user_evaluator_times_out(tmp_path, capsys, monkeypatch):
    _write_slice(tmp_path, detectors=set(TABLE_DETECTORS["7"]))
    (tmp_path / "slow.py").write_text("import time\ndef hang(y_true, y_pred):\n    time.sleep(60)\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["reproduce", "--table", "7", "--data", ".", "--evaluator", "slow.py:hang", "--timeout", "0.5"]) == 1
    assert "your evaluator slow.py:hang on d_l: timed out after 0.5 s" in capsys.readouterr().out


def test_mismatches_are_marked_and_exit_1(tmp_path, capsys):
    _write_slice(tmp_path)
    assert main(["reproduce", "--table", "8", "--data", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    summary = out.rstrip().splitlines()[-1]
    assert summary.startswith("Table 8 (SMD): ") and "/63 values match the paper" in summary
    assert "!" in out and "  differs: d_disp PW precision: ours " in out


def test_failing_user_evaluator_is_reported_and_exit_1(tmp_path, capsys, monkeypatch):
    _write_slice(tmp_path)
    (tmp_path / "bad.py").write_text("def boom(y_true, y_pred):\n    raise RuntimeError('no SMD today')\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["reproduce", "--table", "7", "--data", ".", "--evaluator", "bad.py:boom"]) == 1
    out = capsys.readouterr().out
    assert "your evaluator bad.py:boom on d_fp: raised RuntimeError: no SMD today" in out
    assert "bad.py:boom: no ranking (it failed on d_fp, d_l)" in out


def test_json_and_csv_forms(tmp_path, capsys):
    _write_slice(tmp_path)
    main(["reproduce", "--table", "7", "--data", str(tmp_path), "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert doc["n_total"] == 42 and doc["table"] == "7" and len(doc["rankings"]) == 7
    assert doc["values"][0]["provenance"] == "Table 7, dataset SMD, row 'd_{fp}', column PW"
    main(["reproduce", "--table", "7", "--data", str(tmp_path), "--format", "csv"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("table,row,column,metric,ours,paper") and len(lines) == 43
    main(["reproduce", "--table", "7", "--data", str(tmp_path), "--format", "markdown"])
    out = capsys.readouterr().out
    assert out.startswith("| detector | evaluator | precision (paper) | recall (paper) | f1 (paper) |\n|---|")
    assert "| evaluator | vs OIPR | ranking | paper |" in out and "| OIPR | same |" in out
    assert out.rstrip().splitlines()[-1].startswith("**Table 7 (SMD): ") and out.rstrip().endswith("**")


def test_plot_smd_writes_a_picture(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    _write_slice(tmp_path / "data")
    assert main(["plot", "smd", "--data", str(tmp_path / "data"), "-o", str(tmp_path / "smd.png")]) == 0
    assert (tmp_path / "smd.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["plot", "smd", "--data", str(tmp_path / "data"), "-o", str(tmp_path / "w.svg"), "--table", "7",
                 "--window", "100:600"]) == 0
    assert "<svg" in (tmp_path / "w.svg").read_text(encoding="utf-8")[:400]
    capsys.readouterr()
    assert "the slice has 7084 points" in _error(capsys, ["plot", "smd", "--data", str(tmp_path / "data"), "-o",
                                                          str(tmp_path / "x.png"), "--window", "0:9000"])


def test_report_with_data_has_the_smd_section(tmp_path, capsys):
    from tests.test_html_report import parse

    _write_slice(tmp_path / "data")
    out = tmp_path / "r.html"
    assert main(["report", "PW", "-o", str(out), "--data", str(tmp_path / "data")]) == 1  # PW is not OIPR's profile
    capsys.readouterr()
    doc = parse(out)
    text = "".join(doc.text)
    assert "On the paper's real data: the authors' SMD slice (Tables 6-8)" in text
    assert "PW (yours)" in text and all(f"Table {t} (SMD rows)" in text for t in "678")
    assert sum(1 for tag, _ in doc.tags if tag == "svg") >= 1
    bad = tmp_path / "nope"
    err = _error(capsys, ["report", "PW", "-o", str(tmp_path / "r2.html"), "--data", str(bad)])
    assert "no such folder" in err and not (tmp_path / "r2.html").exists()


def test_largest_difference_is_oipr_precision_of_d_fp(authors_smd_dir):
    """docs/reproduction.md names the largest |ours - paper| of the 168 values; keep it true."""
    comps = [c for t in paper.SMD_TABLES for c in reproduce_smd(t, authors_smd_dir).result.comparisons]
    assert len(comps) == 168
    worst = max(comps, key=lambda c: abs(c.ours - c.paper))
    assert (worst.table, worst.row, worst.column, worst.metric) == ("7 (SMD)", "d_fp", "OIPR", "precision")
    assert round(worst.ours, 6) == 0.993495 and abs(worst.ours - worst.paper) == pytest.approx(4.95e-4, abs=5e-7)


def test_table_9_long_threshold_is_not_two_and_a_half_mean_lengths(smd):
    stats = slice_statistics(smd)
    assert int(np.ceil(2.5 * stats.mean_length)) == 7 and stats.long_threshold == 4
    lengths = np.diff(np.flatnonzero(np.diff(np.r_[0, smd.y_true, 0])))[::2]
    assert int((lengths >= 4).sum()) == 24


def test_declaration_options_are_spelled_as_audits():
    """reproduce spells --input/--lower-is-better/--bounds itself (one command module per command line)."""
    import argparse

    from oipr_bench.cli import audit, reproduce as reproduce_cli

    def options(add) -> dict:
        parser = argparse.ArgumentParser()
        add(parser)
        return {a.dest: (a.option_strings, a.choices, a.default, type(a).__name__, a.metavar)
                for a in parser._actions if a.dest in ("input", "lower_is_better", "bounds")}

    ours = options(reproduce_cli._add_declaration_options)
    assert ours == options(audit.add_declaration_options) and len(ours) == 3


@pytest.mark.parametrize("flags, flag", [(["--lower-is-better"], "--lower-is-better"), (["--bounds", "0:2"], "--bounds")])
def test_a_scalar_declaration_for_a_precision_recall_evaluator_is_refused(tmp_path, capsys, flags, flag):
    # as audit refuses it: an orientation or bounds of one number mean nothing for precision and recall
    _write_slice(tmp_path, detectors=set(TABLE_DETECTORS["7"]))
    err = _error(capsys, ["reproduce", "--table", "7", "--data", str(tmp_path), "--evaluator", "PW", *flags])
    assert f"{flag} applies to a one-number score, but PW returns precision and recall; drop {flag}" in err


@pytest.mark.parametrize("kind, words", [("folder", "is a folder, not a file"), ("fifo", "is a FIFO, not a file"),
                                         ("loop", "is a symbolic link that leads nowhere (a loop or a missing target)")])
def test_a_data_file_that_is_not_a_regular_file_is_named_as_such(tmp_path, capsys, kind, words):
    import os

    _write_slice(tmp_path, detectors=set(TABLE_DETECTORS["7"]))
    name = detector(TABLE_DETECTORS["7"][0]).csv
    target = tmp_path / name
    target.unlink()
    if kind == "folder":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)
    else:
        os.symlink(target, target)  # a link to itself: a loop
    err = _error(capsys, ["reproduce", "--table", "7", "--data", str(tmp_path)])
    assert f"{name} {words}" in err and f"missing {name}" not in err
