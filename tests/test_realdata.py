"""``oipr-bench realdata``: the table on a small NAB-layout corpus written here (values checked by hand), the
user's column through the audit's guards, every refusal (one line, exit 2, nothing written over an
input), and the run on NAB itself (skipped with ``shared material not available`` when ``../shared``
is absent)."""

from __future__ import annotations

import gzip
import json
import math
import os
from pathlib import Path

import numpy as np
import pytest

from oipr_bench.cli import main
from oipr_bench.realdata.protocol import BEST_QUANTILES, candidate_thresholds
from oipr_bench.realdata.table import realdata, user_metric

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_NAB = REPO_ROOT.parent / "shared" / "reference-data" / "nab"

START = np.datetime64("2020-01-01T00:00:00", "s")
STEP = np.timedelta64(300, "s")
#: series -> (rows, windows as half-open row ranges); quiet's window lies inside the probationary rows.
SERIES = {"realTest/a.csv": (100, [(50, 60)]), "realTest/b.csv": (120, [(30, 40), (80, 90)]),
          "realTest/quiet.csv": (100, [(5, 10)])}
THRESHOLDS = {"good": 0.5, "fair": 0.5, "random": 0.99, "null": 0.625}
PROFILES = {"standard": {"tpWeight": 1.0, "fpWeight": 0.11, "fnWeight": 1.0, "tnWeight": 1.0},
            "reward_low_FP_rate": {"tpWeight": 1.0, "fpWeight": 0.22, "fnWeight": 1.0, "tnWeight": 1.0},
            "reward_low_FN_rate": {"tpWeight": 1.0, "fpWeight": 0.11, "fnWeight": 2.0, "tnWeight": 1.0}}


def _stamp(row: int) -> str:
    return str(START + row * STEP).replace("T", " ")


def _scores(detector: str, n: int, windows, rng) -> np.ndarray:
    s = np.full(n, 0.1)
    if detector == "good":
        for a, b in windows:
            s[a:b] = 0.9
    elif detector == "fair":
        for a, b in windows:
            s[a:a + (b - a) // 2] = 0.9
        s[[20, 70]] = 0.8
    elif detector == "random":
        s = rng.random(n)
    else:
        s = np.full(n, 0.5)
    return s


def write_corpus(root: Path, *, gz: bool = False, seed: int = 0) -> Path:
    """A NAB-layout folder: 4 detectors (good, fair, random, null) on 3 series."""
    rng = np.random.default_rng(seed)
    (root / "labels").mkdir(parents=True)
    (root / "config").mkdir()
    windows = {name: [[_stamp(a) + ".000000", _stamp(b - 1) + ".000000"] for a, b in wins]
               for name, (n, wins) in SERIES.items()}
    (root / "labels" / "combined_windows.json").write_text(json.dumps(windows), encoding="utf-8")
    (root / "config" / "profiles.json").write_text(json.dumps({k: {"CostMatrix": v} for k, v in PROFILES.items()}),
                                                   encoding="utf-8")
    (root / "config" / "thresholds.json").write_text(json.dumps(
        {d: {p: {"threshold": t, "score": 0.0} for p in PROFILES} for d, t in THRESHOLDS.items()}), encoding="utf-8")
    for det in THRESHOLDS:
        for name, (n, wins) in SERIES.items():
            category, file = name.split("/")
            folder = root / "results" / det / category
            folder.mkdir(parents=True, exist_ok=True)
            label = np.zeros(n, dtype=int)
            for a, b in wins:
                label[a:b] = 1
            s = _scores(det, n, wins, rng)
            lines = ["timestamp,value,anomaly_score,label"]
            lines += [f"{_stamp(i)},{i % 7},{float(s[i])!r},{label[i]}" for i in range(n)]
            text = "\n".join(lines) + "\n"
            path = folder / f"{det}_{file}"
            if gz:
                (folder / f"{det}_{file}.gz").write_bytes(gzip.compress(text.encode()))
            else:
                path.write_text(text, encoding="utf-8")
    return root


@pytest.fixture()
def corpus(tmp_path) -> Path:
    return write_corpus(tmp_path / "nab")


def _cli(capsys, argv) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own refusals
        code = int(exc.code)
    out, err = capsys.readouterr()
    return code, out, err


def _json(capsys, argv) -> dict:
    code, out, _ = _cli(capsys, [*argv, "--format", "json", "--quiet"])
    assert code == 0, out
    return json.loads(out)


# --------------------------------------------------------------------------- values by hand


def test_cells_equal_hand_counts(corpus):
    result = realdata(corpus, resamples=50)
    t = result.table
    assert t.series == ("realTest/a.csv", "realTest/b.csv")
    assert t.left_out == (("realTest/quiet.csv", "no anomalous row after the probationary period"),)
    names = [m.name for m in t.metrics]
    d, s = t.detectors.index("fair"), t.series.index("realTest/a.csv")
    # a: 100 rows, 15 probationary; fair predicts rows 50-54 of the window 50-59 and rows 20, 70: P 5/7, R 1/2
    assert t.values[names.index("PW"), d, s] == pytest.approx(10 / 17, abs=1e-12)
    # PA: the window is hit, so all 10 window rows count: P 10/12, R 1 -> F1 = 2 * (5/6) / (11/6)
    assert t.values[names.index("PA"), d, s] == pytest.approx(10 / 11, abs=1e-12)
    g = t.detectors.index("good")
    assert t.values[names.index("PW"), g, :].tolist() == [1.0, 1.0]
    assert t.values[names.index("AUC-ROC"), g, :].tolist() == [1.0, 1.0]
    n = t.detectors.index("null")  # 0.5 < its threshold 0.625: nothing detected
    assert t.values[names.index("PW"), n, :].tolist() == [0.0, 0.0]
    assert np.isnan(t.values[names.index("AM"), n, :]).all()          # affiliation F1 of an empty prediction
    assert t.values[names.index("AUC-ROC"), n, :].tolist() == [0.5, 0.5]


def test_nab_cells_are_nab_raw_scores_on_the_whole_series(corpus):
    """NAB scores the whole series and leaves its own probationary rows out (Lavin & Ahmad 2015, Sec. IV)."""
    t = realdata(corpus, resamples=20).table
    m = [x.name for x in t.metrics].index("NAB")
    assert t.metrics[m].aggregation == "sum" and t.metrics[m].params["normalize"] is False
    sig = lambda x: 1.0 / (1.0 + math.exp(-x))  # noqa: E731
    first_row = 1.0        # a detection on a window's first row: tpWeight (NAB divides by the sigmoid at -1)
    s = t.series.index("realTest/a.csv")
    assert t.values[m, t.detectors.index("good"), s] == pytest.approx(first_row, abs=1e-12)
    # fair: the window's first row, a false positive at row 20 before any window (-fpWeight), and one at row 70,
    # (70 - 59) / (10 - 1) window lengths after the window ending at row 59
    fair = first_row - 0.11 + 0.11 * (2 * sig(-5.0 * 11 / 9) - 1)
    assert t.values[m, t.detectors.index("fair"), s] == pytest.approx(fair, abs=1e-12)
    assert t.values[m, t.detectors.index("null"), s] == -1.0         # one missed window, fnWeight 1
    ranking = realdata(corpus, resamples=20).analysis.ranking("NAB")
    assert ranking.standing("good").value == pytest.approx(3 * first_row, abs=1e-12)  # 1 window on a, 2 on b


def test_rankings_and_baselines(corpus):
    result = realdata(corpus, resamples=100, seed=3)
    pw = result.analysis.ranking("PW")
    assert [s.detector for s in pw.standings][:2] == ["good", "fair"]
    # random (threshold 0.99) hits no window row on either series: it ties with null at F1 0, rank 3
    assert pw.standing("good").value == 1.0 and pw.standing("random").value == 0.0
    assert (pw.random_rank, pw.null_rank) == (3, 3)
    am = result.analysis.ranking("AM")
    assert am.standings[-1].detector == "null" and am.standing("null").defined == 0
    i, j = result.analysis.metrics.index("PW"), result.analysis.metrics.index("PA%K")
    assert result.analysis.tau[i, j] == 1.0   # on this corpus PA%K (K = 50) adjusts no window of fair's: same ranking


def test_same_seed_same_bootstrap_other_seed_other(corpus, capsys):
    first = _json(capsys, ["realdata", "--data", str(corpus), "--resamples", "200", "--seed", "4"])
    again = _json(capsys, ["realdata", "--data", str(corpus), "--resamples", "200", "--seed", "4"])
    other = _json(capsys, ["realdata", "--data", str(corpus), "--resamples", "200", "--seed", "5"])
    assert first == again
    assert first["agreement"]["seed"] == 4 and other["agreement"]["seed"] == 5 and first["protocol"]["seed"] == 4


def test_best_threshold_is_labelled_an_oracle_and_never_below_the_nab_threshold(corpus, capsys):
    nab_run = realdata(corpus, resamples=20)
    best = realdata(corpus, threshold="best", resamples=20)
    assert best.table.protocol.oracle and "ORACLE" in " ".join(best.table.protocol.lines())
    for m, metric in enumerate(best.table.metrics):
        if metric.kind == "binary":
            a, b = nab_run.table.values[m], best.table.values[m]
            both = np.isfinite(a) & np.isfinite(b)
            assert (b[both] >= a[both] - 1e-12).all(), metric.name
        else:
            assert np.array_equal(nab_run.table.values[m], best.table.values[m], equal_nan=True)
    code, out, _ = _cli(capsys, ["realdata", "--data", str(corpus), "--threshold", "best", "--resamples", "20"])
    assert code == 0 and "ORACLE protocol" in out


def test_candidate_thresholds_hold_the_nab_threshold_and_the_quantiles():
    s = np.arange(1001, dtype=float) / 1000
    c = candidate_thresholds(s, 0.4242)
    assert 0.4242 in c and len(c) == len(BEST_QUANTILES) + 1 and (np.diff(c) > 0).all()


def test_gzipped_corpus_reads_like_plain(tmp_path):
    plain = realdata(write_corpus(tmp_path / "plain"), resamples=30)
    packed = realdata(write_corpus(tmp_path / "packed", gz=True), resamples=30)
    assert np.array_equal(plain.table.values, packed.table.values, equal_nan=True)


def test_every_format_carries_the_protocol_and_the_agreement(corpus, capsys):
    for fmt, needle in (("text", "Kendall's tau-b"), ("markdown", "| detector |"), ("csv", "agreement,PW,PA,")):
        code, out, _ = _cli(capsys, ["realdata", "--data", str(corpus), "--format", fmt, "--resamples", "20", "--quiet"])
        assert code == 0 and needle in out, fmt
    data = _json(capsys, ["realdata", "--data", str(corpus), "--resamples", "20"])
    assert data["protocol"]["threshold"] == "nab" and len(data["protocol"]["lines"]) >= 5
    assert len(data["agreement"]["tau"]) == len(data["metrics"])
    assert data["left_out"] == [{"series": "realTest/quiet.csv", "reason": "no anomalous row after the probationary period"}]


def test_progress_lines_go_to_stderr(corpus, capsys):
    code, out, err = _cli(capsys, ["realdata", "--data", str(corpus), "--resamples", "10"])
    assert code == 0 and "realdata: null scored on 3 series" in err and "realdata: " not in out


def test_output_file_and_plot(corpus, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out_file, picture = tmp_path / "table.md", tmp_path / "ranks.png"
    code, out, _ = _cli(capsys, ["realdata", "--data", str(corpus), "--format", "markdown", "-o", str(out_file),
                                 "--plot", str(picture), "--resamples", "10", "--quiet"])
    assert code == 0 and out == ""
    assert out_file.read_text(encoding="utf-8").startswith("## Real detectors on real data")
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# --------------------------------------------------------------------------- the user's column


def test_user_builtin_evaluator_agrees_with_itself(corpus, capsys):
    data = _json(capsys, ["realdata", "--data", str(corpus), "--evaluator", "PW", "--resamples", "50"])
    user = data["user"]
    assert user["metric"] == "PW (yours)" and user["failed_cells"] == 0
    pw = next(a for a in user["agreement"] if a["metric"] == "PW")
    assert pw == {"metric": "PW", "tau": 1.0, "low": 1.0, "high": 1.0}
    assert user["closest"]["tau"] == 1.0 and "PW" in user["closest"]["metrics"]


def test_user_score_evaluator_lower_is_better(corpus, tmp_path, capsys, monkeypatch):
    (tmp_path / "mine.py").write_text(
        "import numpy as np\n"
        "def miss(y_true, scores):\n"
        "    return float(np.mean(scores[y_true == 1] < 0.5))\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    data = _json(capsys, ["realdata", "--data", str(corpus), "--evaluator", "mine.py:miss", "--input", "scores",
                          "--lower-is-better", "--resamples", "50"])
    ranking = next(r for r in data["rankings"] if r["metric"] == "mine.py:miss (yours)")
    assert ranking["higher_is_better"] is False
    assert ranking["standings"][0]["detector"] == "good" and ranking["standings"][0]["value"] == 0.0
    null = next(s for s in ranking["standings"] if s["detector"] == "null")
    assert null["value"] == 0.0                      # 0.5 is not below 0.5
    fair = next(s for s in ranking["standings"] if s["detector"] == "fair")
    assert fair["value"] == pytest.approx(0.5)     # half of every window is missed


def test_one_failing_file_keeps_the_others(corpus, tmp_path, capsys, monkeypatch):
    (tmp_path / "flaky.py").write_text(
        "import numpy as np\n"
        "def flaky(y_true, y_pred):\n"
        "    if len(y_true) == 102:\n"                      # series b after its 18 probationary rows
        "        raise RuntimeError('no b today')\n"
        "    if y_pred.sum() >= 10:\n"                      # good on a: NaN where the number is well defined
        "        return float('nan')\n"
        "    return 0.5\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, err = _cli(capsys, ["realdata", "--data", str(corpus), "--evaluator", "flaky.py:flaky", "--resamples",
                                   "20", "--format", "json", "--quiet"])
    assert code == 1
    data = json.loads(out)
    problems = data["problems"]
    assert any(p.startswith("good on realTest/b.csv:") and "no b today" in p for p in problems)
    assert any(p.startswith("good on realTest/a.csv:") and "NaN although it is well defined" in p for p in problems)
    assert len(problems) == 5                       # b for all 4 detectors, and good on a
    ranking = next(r for r in data["rankings"] if r["metric"] == "flaky.py:flaky (yours)")
    fair = next(s for s in ranking["standings"] if s["detector"] == "fair")
    assert fair["value"] == 0.5 and fair["defined"] == 1
    assert ranking["standings"][-1] == {"detector": "good", "rank": 4, "value": None, "low": None, "high": None,
                                        "defined": 0}
    assert "oipr-bench realdata: good on realTest/b.csv" in err
    pw = next(r for r in data["rankings"] if r["metric"] == "PW")     # the built-ins are all there
    assert all(s["defined"] == 2 for s in pw["standings"])


def test_a_hanging_evaluator_times_out_per_file(corpus, tmp_path, capsys, monkeypatch):
    (tmp_path / "slow.py").write_text("import time\ndef hang(y_true, y_pred):\n"
                                      "    if len(y_true) == 85:\n        time.sleep(60)\n    return 0.5\n",
                                      encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, _ = _cli(capsys, ["realdata", "--data", str(corpus), "--evaluator", "slow.py:hang", "--timeout", "1",
                                 "--resamples", "10", "--format", "json", "--quiet"])
    assert code == 1
    problems = json.loads(out)["problems"]
    assert len(problems) == 4 and all("realTest/a.csv" in p and "timed out" in p for p in problems)


def test_user_metric_resolves_like_audit():
    user = user_metric("OIPR", {"l_dis": 3}, input_kind=None)
    assert user.metric.params["l_dis"] == 3 and user.metric.kind == "binary" and user.metric.user


# --------------------------------------------------------------------------- refusals: one line, exit 2


def _refused(capsys, argv, expected: str) -> None:
    code, out, err = _cli(capsys, argv)
    assert code == 2, (out, err)
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and expected in lines[0], err
    assert "Traceback" not in err and out == ""


@pytest.mark.parametrize("extra, expected", [
    (["--resamples", "0"], "--resamples must be at least 1"),
    (["--resamples", "ten"], "--resamples must be a whole number"),
    (["--resamples", "20001"], "--resamples must be at most 20000"),
    (["--seed", "-1"], "--seed must be at least 0"),
    (["--threshold", "median"], "invalid choice: 'median'"),
    (["--format", "xml"], "invalid choice: 'xml'"),
    (["--param", "k=1"], "--param needs --evaluator"),
    (["--isolate"], "--isolate needs --evaluator"),
    (["--evaluator", "PW", "--timeout", "0"], "--timeout must be a positive number"),
    (["--evaluator", "PW", "--bounds", "1:0"], "--bounds"),
    (["--evaluator", "no_such_module_xyz:fn"], "no_such_module_xyz"),
    (["--evaluator", "PW", "--param", "nonsense=1"], "unknown parameter"),
    (["-o", ""], "-o '': empty path"),
    (["-o", "-"], "'-' is not taken to mean stdout"),
    (["--plot", "x.jpg"], "must be .png or .svg"),
    (["--resamples", "5", "--resamples", "6"], "--resamples"),
])
def test_bad_options_are_refused_in_one_line(corpus, capsys, extra, expected):
    _refused(capsys, ["realdata", "--data", str(corpus), *extra], expected)


def test_missing_data_option_and_folder(tmp_path, capsys):
    _refused(capsys, ["realdata"], "--data")
    _refused(capsys, ["realdata", "--data", str(tmp_path / "absent")], "not a folder")
    (tmp_path / "empty").mkdir()
    _refused(capsys, ["realdata", "--data", str(tmp_path / "empty")], "labels/combined_windows.json")


def test_output_into_a_missing_folder_is_refused(corpus, tmp_path, capsys):
    _refused(capsys, ["realdata", "--data", str(corpus), "-o", str(tmp_path / "no" / "t.txt")], "does not exist")


def test_output_that_is_a_folder_is_refused(corpus, tmp_path, capsys):
    _refused(capsys, ["realdata", "--data", str(corpus), "-o", str(tmp_path)], "is a folder")
    _refused(capsys, ["realdata", "--data", str(corpus), "-o", str(tmp_path) + "/"], "path separator")


def test_output_and_plot_on_one_file_are_refused(corpus, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    path = str(tmp_path / "x.svg")
    _refused(capsys, ["realdata", "--data", str(corpus), "-o", path, "--plot", path], "name the same file")


@pytest.mark.parametrize("victim", ["config/thresholds.json", "results/good/realTest/good_a.csv",
                                    "labels/combined_windows.json"])
def test_never_writes_over_a_file_of_the_data_folder(corpus, capsys, victim):
    target = corpus / victim
    before = target.read_bytes()
    _refused(capsys, ["realdata", "--data", str(corpus), "-o", str(target)], "refusing to write over")
    assert target.read_bytes() == before


def test_the_plot_never_writes_over_a_file_of_the_data_folder(corpus, capsys):
    pytest.importorskip("matplotlib")
    target = corpus / "results" / "picture.png"
    target.write_bytes(b"not mine to replace")
    _refused(capsys, ["realdata", "--data", str(corpus), "--plot", str(target)], "refusing to write over")
    assert target.read_bytes() == b"not mine to replace"


def test_never_writes_over_the_evaluator_source(corpus, tmp_path, capsys, monkeypatch):
    source = tmp_path / "mine.py"
    source.write_text("def f(y_true, y_pred):\n    return 0.5\n", encoding="utf-8")
    before = source.read_bytes()
    monkeypatch.chdir(tmp_path)
    code, out, err = _cli(capsys, ["realdata", "--data", str(corpus), "--evaluator", "mine.py:f", "-o", "mine.py",
                                   "--resamples", "5", "--quiet"])
    assert code == 2 and "refusing to write over" in err and source.read_bytes() == before


@pytest.mark.parametrize("edit, expected", [
    (lambda root: (root / "results" / "fair" / "realTest" / "fair_a.csv").unlink(), "fair_a.csv"),
    (lambda root: (root / "results" / "good" / "realTest" / "good_b.csv").write_text(
        "timestamp,value,anomaly_score,label\n2020-01-01 00:00:00,1,nan,0\n", encoding="utf-8"), "good_b.csv"),
    (lambda root: (root / "config" / "thresholds.json").write_text("{\"good\": 3}", encoding="utf-8"),
     "config/thresholds.json"),
    (lambda root: (root / "results" / "null" / "realTest" / "null_b.csv").write_text(
        "time,value,score\n2020-01-01 00:00:00,1,0.5\n", encoding="utf-8"), "null_b.csv: line 1: columns"),
    (lambda root: _swap_rows(root / "results" / "random" / "realTest" / "random_a.csv", 51, 30),
     "random_a.csv: line 32: timestamps out of order"),
    (lambda root: _truncate(root / "results" / "good" / "realTest" / "good_b.csv", 60), "lies outside its series"),
])
def test_bad_corpus_files_are_named_in_one_line(corpus, capsys, edit, expected):
    edit(corpus)
    _refused(capsys, ["realdata", "--data", str(corpus), "--quiet"], expected)


def _swap_rows(path: Path, i: int, j: int) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[i + 1], lines[j + 1] = lines[j + 1], lines[i + 1]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _truncate(path: Path, rows: int) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(lines[: rows + 1]) + "\n", encoding="utf-8")


def test_a_detector_without_a_threshold_is_named(corpus, capsys):
    path = corpus / "config" / "thresholds.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    del doc["fair"]
    path.write_text(json.dumps(doc), encoding="utf-8")
    _refused(capsys, ["realdata", "--data", str(corpus), "--quiet"], "no standard threshold for detector 'fair'")


# --------------------------------------------------------------------------- NAB itself


@pytest.fixture(scope="module")
def nab_result():
    if not SHARED_NAB.is_dir():
        pytest.skip("shared material not available")
    return realdata(SHARED_NAB, resamples=200, seed=0)


def test_nab_table_covers_every_detector_and_builtin(nab_result):
    t = nab_result.table
    assert len(t.detectors) == 16 and {"random", "null"} <= set(t.detectors)
    assert len(t.series) + len(t.left_out) == 58
    assert np.isfinite(t.values[[m.name for m in t.metrics].index("PW")]).all()
    names = [m.name for m in t.metrics]
    assert names == ["PW", "PA", "PA%K", "RP/RR", "TaPR", "AM", "OIPR", "AUC-ROC", "AUC-PR", "R-AUC-ROC",
                     "R-AUC-PR", "VUS-ROC", "VUS-PR", "NAB"]
    assert np.isfinite(t.values).all() or np.isnan(t.values[names.index("AM")]).any()


def test_nab_null_is_last_under_point_wise_f1_and_random_is_below_every_real_detector(nab_result):
    pw = nab_result.analysis.ranking("PW")
    assert pw.null_rank == 16 and pw.random_rank == 15 and pw.random_above == ()
    pa = nab_result.analysis.ranking("PA")
    assert pa.random_rank < 16 and pa.standing("random").value > 0.5     # point adjustment lifts random scores


def test_nab_facts_the_docs_state(nab_result):
    """docs/realdata.md: PA%K equals PW on every pair at NAB's thresholds; ARTime, earthgeckoSkyline and
    twitterADVec give one score value to nearly every row."""
    from oipr_bench.reference import nab

    t = nab_result.table
    names = [m.name for m in t.metrics]
    assert np.array_equal(t.values[names.index("PW")], t.values[names.index("PA%K")])
    corpus = nab.open_corpus(SHARED_NAB)
    for det in ("ARTime", "earthgeckoSkyline", "twitterADVec"):
        shares = [np.unique(r.anomaly_score, return_counts=True)[1].max() / r.anomaly_score.size
                  for r in nab.iter_results(corpus, detectors=[det])]
        assert np.median(shares) > 0.99, det
    for det in ("numenta", "htmjava"):
        shares = [np.unique(r.anomaly_score, return_counts=True)[1].max() / r.anomaly_score.size
                  for r in nab.iter_results(corpus, detectors=[det])]
        assert np.median(shares) < 0.5, det
    auc = nab_result.analysis.ranking("AUC-ROC")
    assert auc.standing("contextOSE").value < 0.5
    assert auc.standing("random").rank < auc.standing("ARTime").rank
