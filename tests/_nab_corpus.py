"""A small corpus in NAB's layout, written into a temporary folder, for the NAB reader's and commands' tests.

Two series of 40 rows at a 5-minute step, one with a window, one without; two detectors (``null``
and ``spiky``) whose results files carry NAB's columns; profiles as NAB's ``config/profiles.json``.
Each test changes one thing (a file removed, a column renamed, a timestamp moved...) and checks the
refusal names that file and the reason.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np

PROFILES = {
    "standard": {"CostMatrix": {"tpWeight": 1.0, "fnWeight": 1.0, "fpWeight": 0.11, "tnWeight": 1.0}},
    "reward_low_FP_rate": {"CostMatrix": {"tpWeight": 1.0, "fnWeight": 1.0, "fpWeight": 0.22, "tnWeight": 1.0}},
    "reward_low_FN_rate": {"CostMatrix": {"tpWeight": 1.0, "fnWeight": 2.0, "fpWeight": 0.11, "tnWeight": 1.0}},
}
N_ROWS = 40
SERIES = ("artificialWithAnomaly/a_one.csv", "realKnownCause/b_none.csv")
WINDOWS = {SERIES[0]: [["2020-01-01 01:40:00.000000", "2020-01-01 02:00:00.000000"]], SERIES[1]: []}
DETECTORS = ("null", "spiky")


def stamps(n: int = N_ROWS) -> list[str]:
    base = np.datetime64("2020-01-01T00:00:00", "s")
    return [str(base + np.timedelta64(300 * i, "s")).replace("T", " ") for i in range(n)]


def scores(detector: str, series: str, n: int = N_ROWS) -> list[float]:
    if detector == "null":
        return [0.5] * n
    rng = np.random.default_rng(len(series))
    out = [round(float(v), 6) for v in rng.uniform(0.0, 0.5, n)]
    out[22] = 0.9      # inside the window (rows 20..24)
    out[30] = 0.8      # after it
    return out


def labels(series: str, n: int = N_ROWS) -> list[int]:
    return [1 if series == SERIES[0] and 20 <= i <= 24 else 0 for i in range(n)]


def write_text(path: Path, text: str, gz: bool) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if gz:
        path.with_name(path.name + ".gz").write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text)


def result_text(detector: str, series: str) -> str:
    lines = ["timestamp,value,anomaly_score,label,S(t)_standard"]
    for t, s, y in zip(stamps(), scores(detector, series), labels(series)):
        lines.append(f"{t},1.0,{s!r},{y},0.0")
    return "\n".join(lines) + "\n"


def write_corpus(root: Path, *, gz: bool = False) -> Path:
    """Write the small corpus under ``root`` (``.csv``, or ``.csv.gz`` with ``gz``); returns ``root``."""
    (root / "labels").mkdir(parents=True)
    (root / "config").mkdir()
    (root / "labels" / "combined_windows.json").write_text(json.dumps(WINDOWS))
    (root / "config" / "profiles.json").write_text(json.dumps(PROFILES))
    thresholds = {d: {p: {"threshold": 0.5 if d == "null" else 0.7, "score": 0.0} for p in PROFILES} for d in DETECTORS}
    (root / "config" / "thresholds.json").write_text(json.dumps(thresholds))
    for series in SERIES:
        write_text(root / "data" / series, "timestamp,value\n" + "".join(f"{t},1.0\n" for t in stamps()), gz)
        category, name = series.split("/")
        for det in DETECTORS:
            write_text(root / "results" / det / category / f"{det}_{name}", result_text(det, series), gz)
    return root


def result_file(root: Path, detector: str, series: str) -> Path:
    """The path of one results file of a corpus written by :func:`write_corpus` (``.csv`` or ``.csv.gz``)."""
    category, name = series.split("/")
    plain = root / "results" / detector / category / f"{detector}_{name}"
    return plain if plain.exists() else plain.with_name(plain.name + ".gz")


def write_published(root: Path) -> None:
    """NAB's published files for the small corpus (score tables and final_results.json), as NAB's current
    code would write them, computed by our scorer: the plumbing's tests then plant one difference."""
    from oipr_bench.reference import nab
    from oipr_bench.reference.nab_scoring import normalised, perfect_score, score_detector

    corpus = nab.open_corpus(root)
    totals = {}
    for det in corpus.detectors:
        scores = score_detector(corpus, det, {p: corpus.thresholds[det][p]["threshold"] for p in corpus.profiles})
        totals[det] = {}
        for prof, acc in scores.items():
            lines = ["Detector,Profile,File,Threshold,Score,TP,TN,FP,FN,Total_Count"]
            for f in acc.files:
                lines.append(f"{det},{prof},{f.series},{f.threshold!r},{f.score!r},{f.tp},{f.tn},{f.fp},{f.fn},{f.scored_rows}")
            lines.append(f"Totals,,,,{acc.total!r},{sum(f.tp for f in acc.files)},{sum(f.tn for f in acc.files)},"
                         f"{sum(f.fp for f in acc.files)},{sum(f.fn for f in acc.files)},{sum(f.scored_rows for f in acc.files)}")
            (root / "results" / det / f"{det}_{prof}_scores.csv").write_text("\n".join(lines) + "\n")
            totals[det][prof] = acc.total
    board = {det: {p: normalised(totals[det][p], totals["null"][p], perfect_score(corpus, p)) for p in corpus.profiles}
             for det in corpus.detectors}
    (root / "results" / "final_results.json").write_text(json.dumps(board, indent=4))


def write_sized_corpus(root: Path, *, n_series: int = 3, detectors: tuple[str, ...] = ("null", "random", "spiky"),
                       n_rows: int = 400, seed: int = 0) -> Path:
    """A corpus in NAB's layout with ``n_series`` series of ``n_rows`` rows, each with one window after the
    probationary rows, and ``detectors`` (``null``: a constant 0.5; ``random``: uniform; any other: noise
    with a spike inside the window and one after it).  For the real-data atlas's tests."""
    (root / "labels").mkdir(parents=True)
    (root / "config").mkdir()
    times = stamps(n_rows)
    names = [f"realKnownCause/s{k}.csv" for k in range(n_series)]
    windows = {}
    for k, name in enumerate(names):
        first = n_rows // 2 + 7 * k
        windows[name] = [[times[first] + ".000000", times[first + n_rows // 20] + ".000000"]]
    (root / "labels" / "combined_windows.json").write_text(json.dumps(windows))
    (root / "config" / "profiles.json").write_text(json.dumps(PROFILES))
    thresholds = {d: {p: {"threshold": 0.5 if d == "null" else 0.8, "score": 0.0} for p in PROFILES} for d in detectors}
    (root / "config" / "thresholds.json").write_text(json.dumps(thresholds))
    for k, name in enumerate(names):
        first = n_rows // 2 + 7 * k
        inside = set(range(first, first + n_rows // 20 + 1))
        write_text(root / "data" / name, "timestamp,value\n" + "".join(f"{t},1.0\n" for t in times), False)
        for j, det in enumerate(detectors):
            rng = np.random.default_rng(seed + 100 * k + j)
            if det == "null":
                s = np.full(n_rows, 0.5)
            elif det == "random":
                s = rng.uniform(0.0, 1.0, n_rows)
            else:
                s = rng.uniform(0.0, 0.6, n_rows)
                s[first + 2 + j] = 0.95
                s[min(n_rows - 1, first + n_rows // 10 + j)] = 0.9
            lines = ["timestamp,value,anomaly_score,label"]
            lines += [f"{t},1.0,{round(float(v), 6)!r},{int(i in inside)}" for i, (t, v) in enumerate(zip(times, s))]
            category, base = name.split("/")
            write_text(root / "results" / det / category / f"{det}_{base}", "\n".join(lines) + "\n", False)
    return root
