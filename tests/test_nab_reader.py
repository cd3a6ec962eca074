"""The NAB reader: a NAB checkout (``.csv``) or the shared copy (``.csv.gz``), and its one-line refusals."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from oipr_bench.errors import UsageError
from oipr_bench.reference import nab

from _nab_corpus import DETECTORS, N_ROWS, SERIES, labels, result_file, scores, write_corpus
from conftest import SHARED_DIR

NAB_DIR = SHARED_DIR / "reference-data" / "nab"


@pytest.fixture(params=[False, True], ids=["csv", "csv.gz"])
def corpus_root(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    return write_corpus(tmp_path / "nab", gz=request.param)


def test_reads_the_layout_and_one_result(corpus_root: Path) -> None:
    corpus = nab.open_corpus(corpus_root)
    assert corpus.series == SERIES
    assert corpus.detectors == DETECTORS
    assert set(corpus.profiles) == {"standard", "reward_low_FP_rate", "reward_low_FN_rate"}
    assert corpus.profiles["reward_low_FN_rate"]["fnWeight"] == 2.0
    assert corpus.thresholds["spiky"]["standard"] == {"threshold": 0.7, "score": 0.0}
    res = nab.read_result(corpus, "spiky", SERIES[0])
    assert res.timestamps.dtype == np.dtype("datetime64[s]") and res.timestamps.size == N_ROWS
    assert str(res.timestamps[1]) == "2020-01-01T00:05:00"
    assert res.anomaly_score.tolist() == scores("spiky", SERIES[0])
    assert res.label.dtype == np.int8 and res.label.tolist() == labels(SERIES[0])
    assert set(res.row_scores) == {"standard"} and res.row_scores["standard"].tolist() == [0.0] * N_ROWS
    assert nab.window_labels(corpus, SERIES[0], res.timestamps).tolist() == labels(SERIES[0])
    assert nab.window_indices(corpus, SERIES[0], res.timestamps).tolist() == [[20, 24]]
    assert nab.window_labels(corpus, SERIES[1], res.timestamps).tolist() == [0] * N_ROWS


def test_probation_rows_follow_nabs_formula() -> None:
    # min(floor(0.15 n), 0.15 * 5000): 4032 rows -> 604, 1000 -> 150, anything from 5000 rows on -> 750
    assert [nab.probation_rows(n) for n in (0, 1, 6, 7, 1000, 4032, 5000, 22695)] == [0, 0, 0, 1, 150, 604, 750, 750]
    # a bound that is not a whole number: rows i < 0.1 * 5000 ... rounded up
    assert nab.probation_rows(100_000, 0.10001) == 501
    with pytest.raises(ValueError):
        nab.probation_rows(10, 1.5)


def test_iter_results_streams_one_file_at_a_time(tmp_path: Path) -> None:
    root = write_corpus(tmp_path / "nab")
    result_file(root, "spiky", SERIES[1]).write_text("timestamp,anomaly_score,label\nnot a time,0.1,0\n")
    stream = nab.iter_results(nab.open_corpus(root))
    got = [next(stream) for _ in range(3)]   # null x 2, spiky on the first series: read before the bad file
    assert [(r.detector, r.series) for r in got] == [("null", SERIES[0]), ("null", SERIES[1]), ("spiky", SERIES[0])]
    with pytest.raises(nab.NabDataError, match="spiky_b_none.csv: line 2: timestamp 'not a time' does not parse"):
        next(stream)


def _refusal(root: Path, detector: str = "spiky", series: str = SERIES[0]) -> str:
    with pytest.raises(nab.NabDataError) as info:
        corpus = nab.open_corpus(root)
        nab.read_result(corpus, detector, series)
    assert isinstance(info.value, UsageError)
    text = str(info.value)
    assert "\n" not in text
    return text


def _rewrite(path: Path, edit) -> None:
    lines = path.read_text().splitlines()
    path.write_text("\n".join(edit(lines)) + "\n")


def test_refuses_a_missing_results_file(tmp_path: Path) -> None:
    root = write_corpus(tmp_path / "nab")
    result_file(root, "spiky", SERIES[0]).unlink()
    assert _refusal(root) == ("results/spiky/artificialWithAnomaly/spiky_a_one.csv: missing file "
                              "(looked for .csv and .csv.gz)")


@pytest.mark.parametrize("rel", ["labels/combined_windows.json", "config/profiles.json", "config/thresholds.json"])
def test_refuses_a_missing_json_file(tmp_path: Path, rel: str) -> None:
    root = write_corpus(tmp_path / "nab")
    (root / rel).unlink()
    assert _refusal(root) == f"{rel}: missing file"


def test_refuses_a_folder_that_is_not_there(tmp_path: Path) -> None:
    assert _refusal(tmp_path / "absent").startswith(f"{tmp_path / 'absent'}: no such folder")


def test_refuses_wrong_columns(tmp_path: Path) -> None:
    root = write_corpus(tmp_path / "nab")
    _rewrite(result_file(root, "spiky", SERIES[0]), lambda ls: [ls[0].replace("anomaly_score", "score"), *ls[1:]])
    assert _refusal(root) == ("results/spiky/artificialWithAnomaly/spiky_a_one.csv: line 1: columns "
                              "timestamp,value,score,label,S(t)_standard; missing anomaly_score "
                              "(NAB results need timestamp, anomaly_score, label)")


def test_refuses_timestamps_out_of_order_around_a_window(tmp_path: Path) -> None:
    root = write_corpus(tmp_path / "nab")
    # row 26 (line 28) stamped 01:45, inside the window 01:40-02:00 by its time, after the window's last row
    _rewrite(result_file(root, "spiky", SERIES[0]),
             lambda ls: [*ls[:27], ls[27].replace("02:10:00", "01:45:00", 1), *ls[28:]])
    text = _refusal(root)
    assert text.startswith("results/spiky/artificialWithAnomaly/spiky_a_one.csv: line 28: timestamps out of order")
    assert "2020-01-01T01:45:00 is inside a window by its time but outside it by its row" in text


def test_reads_a_repeated_timestamp_or_a_step_back_away_from_windows_as_nab_does(tmp_path: Path) -> None:
    # NAB's own corpus repeats timestamps in seven series and steps back once, far from any window
    root = write_corpus(tmp_path / "nab")
    _rewrite(result_file(root, "spiky", SERIES[0]),
             lambda ls: [*ls[:4], ls[4].replace("00:15:00", "00:10:00", 1), ls[5].replace("00:20:00", "00:01:00", 1), *ls[6:]])
    res = nab.read_result(nab.open_corpus(root), "spiky", SERIES[0])
    assert str(res.timestamps[3]) == str(res.timestamps[2]) == "2020-01-01T00:10:00"
    assert str(res.timestamps[4]) == "2020-01-01T00:01:00"


def test_refuses_a_window_outside_its_series(tmp_path: Path) -> None:
    root = write_corpus(tmp_path / "nab")
    windows = json.loads((root / "labels/combined_windows.json").read_text())
    windows[SERIES[0]] = [["2020-01-01 01:40:00.000000", "2020-01-02 02:00:00.000000"]]
    (root / "labels/combined_windows.json").write_text(json.dumps(windows))
    assert _refusal(root) == (
        "results/spiky/artificialWithAnomaly/spiky_a_one.csv: window 0 [2020-01-01 01:40:00.000000, "
        f"2020-01-02 02:00:00.000000] of {SERIES[0]} lies outside its series (2020-01-02 02:00:00.000000 is not "
        "one of its timestamps, 2020-01-01T00:00:00 .. 2020-01-01T03:15:00)")


def test_refuses_a_window_that_ends_before_it_starts(tmp_path: Path) -> None:
    root = write_corpus(tmp_path / "nab")
    windows = json.loads((root / "labels/combined_windows.json").read_text())
    windows[SERIES[0]] = [["2020-01-01 02:00:00.000000", "2020-01-01 01:40:00.000000"]]
    (root / "labels/combined_windows.json").write_text(json.dumps(windows))
    assert _refusal(root) == (f"labels/combined_windows.json: {SERIES[0]}: window 0 ends (2020-01-01 01:40:00.000000) "
                              "before it starts (2020-01-01 02:00:00.000000)")


@pytest.mark.parametrize(("cell", "reason"), [
    ("nan", "anomaly_score is NaN"),
    ("", "anomaly_score is empty"),
    ("high", "anomaly_score 'high' is not a number"),
])
def test_refuses_a_score_that_is_not_a_number(tmp_path: Path, cell: str, reason: str) -> None:
    root = write_corpus(tmp_path / "nab")
    _rewrite(result_file(root, "spiky", SERIES[0]),
             lambda ls: [*ls[:11], ",".join([*ls[11].split(",")[:2], cell, *ls[11].split(",")[3:]]), *ls[12:]])
    assert _refusal(root) == f"results/spiky/artificialWithAnomaly/spiky_a_one.csv: line 12: {reason}"


def test_refuses_a_label_that_is_not_0_or_1(tmp_path: Path) -> None:
    root = write_corpus(tmp_path / "nab")
    _rewrite(result_file(root, "spiky", SERIES[0]), lambda ls: [*ls[:3], ls[3].replace(",0,0.0", ",2,0.0"), *ls[4:]])
    assert _refusal(root) == "results/spiky/artificialWithAnomaly/spiky_a_one.csv: line 4: label 2 is not 0 or 1"


def test_refuses_a_gz_file_that_is_not_gzip(tmp_path: Path) -> None:
    root = write_corpus(tmp_path / "nab", gz=True)
    result_file(root, "spiky", SERIES[0]).write_bytes(b"timestamp,anomaly_score,label\n")
    text = _refusal(root)
    assert text.startswith("results/spiky/artificialWithAnomaly/spiky_a_one.csv.gz: not a readable gzip file")


def test_refuses_a_profile_without_weights(tmp_path: Path) -> None:
    root = write_corpus(tmp_path / "nab")
    (root / "config/profiles.json").write_text(json.dumps({"standard": {"CostMatrix": {"tpWeight": 1.0}}}))
    assert _refusal(root) == "config/profiles.json: standard: CostMatrix.fpWeight must be a finite number"


def test_the_shared_copy_reads_as_nab_lays_it_out() -> None:
    if not NAB_DIR.is_dir():
        pytest.skip("shared material not available (reference-data/nab is absent beside the repository)")
    corpus = nab.open_corpus(NAB_DIR)
    assert len(corpus.series) == 58 and len(corpus.detectors) == 16
    assert sum(len(w) for w in corpus.windows.values()) == 116
    total = 0
    for res in nab.iter_results(corpus, detectors=["null"]):
        assert np.array_equal(nab.window_labels(corpus, res.series, res.timestamps), res.label), res.series
        assert set(res.row_scores) == set(corpus.profiles)
        total += res.timestamps.size
    rows = nab.read_score_table(corpus, "numenta", "standard")
    assert total == rows[-1].total_count == 365_558  # NAB's Totals row counts every row of the 58 series
    assert len(nab.read_final_results(corpus)) == 15
    assert len(rows) == 59 and rows[-1].file == "Totals" and rows[-1].score == 46.6344501971
