"""The Numenta Anomaly Benchmark (NAB) in its own layout: a checkout of numenta/NAB, or a copy of it.

NAB (Lavin & Ahmad, ICMLA 2015; Ahmad et al., Neurocomputing 262, 2017; MIT licence) ships 58 real
series, their anomaly windows, three application profiles, the per-point scores of its detectors,
each detector's optimised thresholds and the official scoreboard. oipr-bench never ships them: the
user points ``--data DIR`` at a NAB checkout (plain ``.csv``) or a copy whose CSVs are
gzip-compressed (``.csv.gz``); both are read.

:func:`open_corpus` checks the layout and reads only the small JSON files (windows, profiles,
thresholds); :func:`read_result` reads one detector's output on one series and :func:`iter_results`
streams them one file at a time, so the whole corpus (about 300 MB of CSV) is never held at once:
peak memory is one results file (at most 22,695 rows here, a few MB parsed). :func:`read_score_table`
and :func:`read_final_results` read NAB's published per-file score tables and scoreboard.

Every problem is one :class:`NabDataError` line, ``"<path relative to the data root>: <reason>"``:
a missing file, wrong columns, timestamps out of order, a window outside its series, a NaN score.

Conventions taken from NAB's code (``nab/labeler.py``, ``nab/sweeper.py``, ``nab/util.py``):
a window ``[start, end]`` is inclusive at both ends and its two timestamps must be timestamps of the
series; the probationary period is ``min(floor(p * n), p * 5000)`` rows with ``p = 0.15``.
"""

from __future__ import annotations

import gzip
import io
import json
import math
import os
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

import numpy as np

from ..errors import UsageError
from ..evaluators.kernels.nab import probation_rows as _probation_rows
from ..guards import MAX_TEXT_BYTES, UnreadableFile, clip, loads_json, printable, read_regular_bytes

__all__ = ["NabDataError", "NabCorpus", "NabResult", "NabScoreRow", "PROBATION_PERCENT", "COST_KEYS",
           "open_corpus", "read_result", "iter_results", "window_labels", "window_indices", "probation_rows",
           "read_score_table", "read_final_results", "result_path", "score_table_path"]

#: NAB's probationary share of each series (``Runner.probationaryPercent``).
PROBATION_PERCENT = 0.15
#: The weights of a profile's cost matrix that NAB's scorer uses.
COST_KEYS: tuple[str, ...] = ("tpWeight", "fpWeight", "fnWeight")
#: Largest decompressed CSV read (the biggest NAB results file is about 1.6 MB).
MAX_CSV_BYTES = MAX_TEXT_BYTES
_WINDOWS = "labels/combined_windows.json"
_PROFILES = "config/profiles.json"
_THRESHOLDS = "config/thresholds.json"
_FINAL = "results/final_results.json"
_REQUIRED_COLUMNS = ("timestamp", "anomaly_score", "label")
_SCORE_COLUMNS = ("Detector", "Profile", "File", "Threshold", "Score", "TP", "TN", "FP", "FN", "Total_Count")
_TEXT_COLUMNS = ("timestamp", "Detector", "Profile", "File")
_TIME_FORMATS = ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M:%S.%f")


class NabDataError(UsageError):
    """A NAB file is missing or invalid; ``str()`` reads ``"<path relative to the data root>: <reason>"``."""

    def __init__(self, where: str, reason: str) -> None:
        self.where = where
        self.reason = reason
        super().__init__(printable(f"{clip(where)}: {clip(reason, 400)}"))


@dataclass(frozen=True)
class NabCorpus:
    """A NAB folder, checked, with its small JSON files read.

    Attributes
    ----------
    root : Path
        The data root (a NAB checkout, or a copy in NAB's layout).
    series : tuple of str
        NAB's relative series names (``"realKnownCause/nyc_taxi.csv"``), sorted: the keys of
        ``labels/combined_windows.json``.
    windows : mapping of str to tuple of (str, str)
        Series -> its anomaly windows ``(start, end)``, inclusive, as the strings of the JSON file.
    profiles : mapping of str to mapping of str to float
        ``config/profiles.json``: profile -> its cost matrix (``tpWeight``, ``fpWeight``, ``fnWeight``, ...).
    thresholds : mapping
        ``config/thresholds.json``: detector -> profile -> ``{"threshold": t, "score": s}``.
    detectors : tuple of str
        The detectors with a ``results/<detector>/`` folder, sorted.
    """

    root: Path
    series: tuple[str, ...]
    windows: Mapping[str, tuple[tuple[str, str], ...]]
    profiles: Mapping[str, Mapping[str, float]]
    thresholds: Mapping[str, Mapping[str, Mapping[str, float]]]
    detectors: tuple[str, ...]


@dataclass(frozen=True)
class NabResult:
    """One detector's output on one series: ``results/<detector>/<category>/<detector>_<name>.csv[.gz]``.

    Attributes
    ----------
    detector, series : str
    timestamps : ndarray of datetime64[s]
        Strictly increasing.
    anomaly_score : ndarray of float64
        The detector's score per row (no NaN).
    label : ndarray of int8
        NAB's own ``label`` column (1 inside a window).
    row_scores : mapping of str to ndarray of float64
        Profile -> NAB's per-row score column ``S(t)_<profile>``, for the profiles the file holds.
    """

    detector: str
    series: str
    timestamps: np.ndarray
    anomaly_score: np.ndarray
    label: np.ndarray
    row_scores: Mapping[str, np.ndarray]


@dataclass(frozen=True)
class NabScoreRow:
    """One row of NAB's per-file score table ``<detector>_<profile>_scores.csv`` (``nab/scorer.py``).

    ``file`` is the series name, or ``"Totals"`` for the last row (whose threshold is NaN).
    """

    file: str
    threshold: float
    score: float
    tp: int
    tn: int
    fp: int
    fn: int
    total_count: int


# --------------------------------------------------------------------------- paths and raw reads

def _rel(corpus_root: Path, path: Path) -> str:
    try:
        return path.relative_to(corpus_root).as_posix()
    except ValueError:
        return os.fspath(path)


def _find_csv(root: Path, rel: str) -> Path:
    """``root/rel`` or ``root/rel.gz``, whichever exists (plain first); refuses when neither does."""
    plain = root / rel
    for candidate in (plain, plain.with_name(plain.name + ".gz")):
        if candidate.exists():
            return candidate
    raise NabDataError(rel, "missing file (looked for .csv and .csv.gz)")


def _read_bytes(root: Path, path: Path) -> bytes:
    """A file's bytes, decompressed when it ends in ``.gz``; every problem names the file."""
    where = _rel(root, path)
    try:
        raw = read_regular_bytes(path, MAX_TEXT_BYTES, what="a NAB data file")
    except UnreadableFile as exc:
        raise NabDataError(where, str(exc)) from None
    if path.name.endswith(".gz"):
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(raw)) as fh:
                raw = fh.read(MAX_CSV_BYTES + 1)
        except (OSError, EOFError, zlib.error) as exc:
            raise NabDataError(where, f"not a readable gzip file ({exc})") from None
        if len(raw) > MAX_CSV_BYTES:
            raise NabDataError(where, f"decompresses to more than the {MAX_CSV_BYTES}-byte limit")
    return raw


def _read_json(root: Path, rel: str) -> Any:
    path = root / rel
    if not path.exists():
        raise NabDataError(rel, "missing file")
    raw = _read_bytes(root, path)
    try:
        return loads_json(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise NabDataError(rel, f"not valid JSON ({exc})") from None


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


# --------------------------------------------------------------------------- the corpus

def open_corpus(root: str | os.PathLike[str]) -> NabCorpus:
    """Check a NAB folder's layout and read its windows, profiles and thresholds.

    Raises
    ------
    NabDataError
        The folder or one of ``labels/combined_windows.json``, ``config/profiles.json``,
        ``config/thresholds.json``, ``results/`` is missing, or a JSON file does not have NAB's shape
        (a window that is not two timestamps, ends before it starts or overlaps the one before; a
        profile without a finite ``tpWeight``/``fpWeight``/``fnWeight``; a threshold that is not a number).
    """
    base = Path(root)
    if not base.is_dir():
        raise NabDataError(os.fspath(root), "no such folder; it must be a NAB checkout or a copy in NAB's layout "
                           "(labels/, config/, results/)")
    windows = _parse_windows(_read_json(base, _WINDOWS))
    profiles = _parse_profiles(_read_json(base, _PROFILES))
    thresholds = _parse_thresholds(_read_json(base, _THRESHOLDS))
    results = base / "results"
    if not results.is_dir():
        raise NabDataError("results", "missing folder (one sub-folder per detector)")
    detectors = tuple(sorted(p.name for p in results.iterdir() if p.is_dir() and not p.name.startswith(".")))
    return NabCorpus(root=base, series=tuple(sorted(windows)), windows=windows, profiles=profiles,
                     thresholds=thresholds, detectors=detectors)


def _parse_windows(doc: Any) -> dict[str, tuple[tuple[str, str], ...]]:
    if not isinstance(doc, dict):
        raise NabDataError(_WINDOWS, "expected an object: series name -> list of [start, end] windows")
    out: dict[str, tuple[tuple[str, str], ...]] = {}
    for name, wins in doc.items():
        if not isinstance(wins, list):
            raise NabDataError(_WINDOWS, f"{name}: expected a list of [start, end] windows")
        parsed: list[tuple[str, str]] = []
        previous_end: np.datetime64 | None = None
        for k, win in enumerate(wins):
            if not (isinstance(win, list) and len(win) == 2 and all(isinstance(t, str) for t in win)):
                raise NabDataError(_WINDOWS, f"{name}: window {k}: expected [start, end] as two timestamp strings")
            start, end = (_parse_time(_WINDOWS, f"{name}: window {k}", t) for t in win)
            if end < start:
                raise NabDataError(_WINDOWS, f"{name}: window {k} ends ({win[1]}) before it starts ({win[0]})")
            if previous_end is not None and start <= previous_end:
                raise NabDataError(_WINDOWS, f"{name}: window {k} starts ({win[0]}) before the previous window ends")
            previous_end = end
            parsed.append((win[0], win[1]))
        out[name] = tuple(parsed)
    return out


def _parse_time(where: str, what: str, text: str) -> np.datetime64:
    from datetime import datetime

    for fmt in _TIME_FORMATS:
        try:
            return np.datetime64(datetime.strptime(text, fmt), "s")
        except ValueError:
            continue
    raise NabDataError(where, f"{what}: {text!r} is not a timestamp (YYYY-MM-DD HH:MM:SS)")


def _parse_profiles(doc: Any) -> dict[str, dict[str, float]]:
    if not isinstance(doc, dict) or not doc:
        raise NabDataError(_PROFILES, "expected an object: profile name -> {\"CostMatrix\": {...}}")
    out: dict[str, dict[str, float]] = {}
    for name, body in doc.items():
        matrix = body.get("CostMatrix") if isinstance(body, dict) else None
        if not isinstance(matrix, dict):
            raise NabDataError(_PROFILES, f"{name}: no CostMatrix object")
        for key in COST_KEYS:
            if not _number(matrix.get(key)):
                raise NabDataError(_PROFILES, f"{name}: CostMatrix.{key} must be a finite number")
        out[name] = {k: float(v) for k, v in matrix.items() if _number(v)}
    return out


def _parse_thresholds(doc: Any) -> dict[str, dict[str, dict[str, float]]]:
    if not isinstance(doc, dict):
        raise NabDataError(_THRESHOLDS, "expected an object: detector -> profile -> {threshold, score}")
    out: dict[str, dict[str, dict[str, float]]] = {}
    for det, per_profile in doc.items():
        if not isinstance(per_profile, dict):
            raise NabDataError(_THRESHOLDS, f"{det}: expected an object: profile -> {{threshold, score}}")
        out[det] = {}
        for prof, entry in per_profile.items():
            if not (isinstance(entry, dict) and _number(entry.get("threshold")) and _number(entry.get("score"))):
                raise NabDataError(_THRESHOLDS, f"{det}: {prof}: expected {{\"threshold\": number, \"score\": number}}")
            out[det][prof] = {"threshold": float(entry["threshold"]), "score": float(entry["score"])}
    return out


# --------------------------------------------------------------------------- one results file

def result_path(corpus: NabCorpus, detector: str, series: str) -> str:
    """The relative path of ``detector``'s results on ``series`` (without ``.gz``), as NAB names it."""
    category, _, name = series.rpartition("/")
    return f"results/{detector}/{category}/{detector}_{name}" if category else f"results/{detector}/{detector}_{name}"


def read_result(corpus: NabCorpus, detector: str, series: str) -> NabResult:
    """Read and check one results file.

    Raises
    ------
    NabDataError
        The file is missing or unreadable; it lacks a ``timestamp``, ``anomaly_score`` or ``label``
        column; a timestamp does not parse or is not after the one before; a score is NaN or not a
        number; a label is not 0/1; an ``S(t)_<profile>`` cell is not a finite number.
    """
    if series not in corpus.windows:
        raise NabDataError(_WINDOWS, f"no windows for series {series!r}")
    path = _find_csv(corpus.root, result_path(corpus, detector, series))
    where = _rel(corpus.root, path)
    frame = _read_frame(where, _read_bytes(corpus.root, path))
    missing = [c for c in _REQUIRED_COLUMNS if c not in frame.columns]
    if missing:
        raise NabDataError(where, f"line 1: columns {clip(','.join(map(str, frame.columns)), 200)}; missing "
                           f"{', '.join(missing)} (NAB results need timestamp, anomaly_score, label)")
    timestamps = _timestamps(where, frame["timestamp"].to_numpy(dtype=object))
    _window_rows(where, corpus, series, timestamps)  # every window inside the series, in order
    scores = _floats(where, "anomaly_score", frame["anomaly_score"], finite=False)
    labels = _floats(where, "label", frame["label"], finite=True)
    bad = np.flatnonzero((labels != 0) & (labels != 1))
    if bad.size:
        raise NabDataError(where, f"line {int(bad[0]) + 2}: label {frame['label'].iloc[int(bad[0])]} is not 0 or 1")
    row_scores = {prof: _floats(where, f"S(t)_{prof}", frame[f"S(t)_{prof}"], finite=True)
                  for prof in corpus.profiles if f"S(t)_{prof}" in frame.columns}
    return NabResult(detector=detector, series=series, timestamps=timestamps, anomaly_score=scores,
                     label=labels.astype(np.int8), row_scores=row_scores)


def _read_frame(where: str, raw: bytes) -> Any:
    """The CSV as a frame: number columns parsed correctly rounded (as Python's ``float``), the rest as text.

    pandas before 3.0 parses with a fast routine that can miss the last bit (about 0.8 % of the values
    of NAB's results files); ``float_precision="round_trip"`` asks it for the exact one.
    """
    import pandas as pd

    exact = {"float_precision": "round_trip"} if int(pd.__version__.split(".")[0]) < 3 else {}
    try:
        frame = pd.read_csv(io.BytesIO(raw), dtype={c: str for c in _TEXT_COLUMNS}, keep_default_na=False,
                            na_filter=False, **exact)
    except Exception as exc:  # pandas' ParserError, EmptyDataError, UnicodeDecodeError...
        raise NabDataError(where, f"not a readable CSV ({clip(str(exc).strip(), 200)})") from None
    if frame.shape[0] == 0:
        raise NabDataError(where, "no data rows")
    dupes = [c for c in frame.columns if str(c).endswith(".1")]
    if dupes:
        raise NabDataError(where, f"line 1: a column appears twice ({dupes[0][:-2]})")
    return frame


def _floats(where: str, column: str, cells: Any, *, finite: bool) -> np.ndarray:
    """A column of text cells as float64, each parsed as Python's ``float`` parses it (correctly rounded);
    the first empty, non-number or NaN cell (or infinite one, when ``finite``) is refused by line."""
    if cells.dtype.kind in "fiu":
        values = cells.to_numpy(dtype=np.float64)
        text = values
    else:
        text = cells.to_numpy(dtype=object)
        values = np.array([_float_or_nan(c) for c in text], dtype=np.float64)
    bad = np.flatnonzero(~np.isfinite(values)) if finite else np.flatnonzero(np.isnan(values))
    if bad.size:
        k = int(bad[0])
        cell = clip(str(text[k]), 40)
        if not cell.strip():
            what = "is empty"
        elif cell.strip().lower() == "nan":
            what = "is NaN"
        elif math.isnan(_float_or_nan(cell)):
            what = f"{cell!r} is not a number"
        else:
            what = f"{cell!r} is not finite"
        raise NabDataError(where, f"line {k + 2}: {column} {what}")
    return values


def _float_or_nan(cell: str) -> float:
    try:
        return float(cell)
    except ValueError:
        return math.nan


def _timestamps(where: str, cells: np.ndarray) -> np.ndarray:
    try:
        stamps = np.array(cells, dtype="datetime64[s]")
    except ValueError:
        stamps = None
    if stamps is None or np.isnat(stamps).any():
        for k, cell in enumerate(cells):
            try:
                ok = not np.isnat(np.datetime64(cell, "s"))
            except ValueError:
                ok = False
            if not ok:
                raise NabDataError(where, f"line {k + 2}: timestamp {clip(str(cell), 40)!r} does not parse "
                                   "(YYYY-MM-DD HH:MM:SS)")
    assert stamps is not None
    return stamps


def iter_results(corpus: NabCorpus, detectors: Iterable[str] | None = None,
                 series: Iterable[str] | None = None) -> Iterator[NabResult]:
    """Every (detector, series) result, detector by detector, one file in memory at a time."""
    names = corpus.series if series is None else tuple(series)
    for det in (corpus.detectors if detectors is None else tuple(detectors)):
        for name in names:
            yield read_result(corpus, det, name)


# --------------------------------------------------------------------------- windows and probation

def window_indices(corpus: NabCorpus, series: str, timestamps: np.ndarray) -> np.ndarray:
    """Each window of ``series`` as the row indices ``(first, last)`` of its two timestamps, shape (k, 2).

    Raises
    ------
    NabDataError
        A window's start or end is not a timestamp of the series, or is one more than once (NAB's
        labeler refuses both), or the timestamps are out of order around a window (see :func:`window_labels`).
    """
    return _window_rows(_WINDOWS, corpus, series, timestamps)


def window_labels(corpus: NabCorpus, series: str, timestamps: np.ndarray) -> np.ndarray:
    """``y_true`` as NAB labels it: 1 on every row inside a window ``[start, end]`` (both ends included).

    NAB's labeler marks the rows whose timestamp lies in ``[start, end]``; its scorer walks the rows from
    the start's row to the end's row. The two agree when the timestamps are in order around every
    window; where they are not, the series is refused (timestamps out of order). A repeated timestamp,
    or a step back in time away from every window, changes neither and is read as NAB reads it (NAB's
    own corpus has both: seven series repeat a timestamp, ``machine_temperature_system_failure.csv``
    steps back once).
    """
    stamps = np.asarray(timestamps, dtype="datetime64[s]")
    y = np.zeros(stamps.size, dtype=np.int8)
    for first, last in _window_rows(_WINDOWS, corpus, series, stamps):
        y[first:last + 1] = 1
    return y


def _window_rows(where: str, corpus: NabCorpus, series: str, timestamps: np.ndarray) -> np.ndarray:
    if series not in corpus.windows:
        raise NabDataError(_WINDOWS, f"no windows for series {series!r}")
    stamps = np.asarray(timestamps, dtype="datetime64[s]")
    wins = corpus.windows[series]
    rows = np.empty((len(wins), 2), dtype=np.int64)
    by_time = np.zeros(stamps.size, dtype=bool)
    by_rows = np.zeros(stamps.size, dtype=bool)
    for k, win in enumerate(wins):
        bounds = [_parse_time(_WINDOWS, f"{series}: window {k}", text) for text in win]
        for j, (text, t) in enumerate(zip(win, bounds)):
            hits = np.flatnonzero(stamps == t)
            if hits.size != 1:
                span = f"{stamps.min()} .. {stamps.max()}" if stamps.size else "no rows"
                why = (f"{text} is not one of its timestamps, {span}" if hits.size == 0
                       else f"{text} is {hits.size} of its rows, lines {hits[0] + 2} and {hits[1] + 2}")
                raise NabDataError(where, f"window {k} [{win[0]}, {win[1]}] of {series} lies outside its series ({why})")
            rows[k, j] = int(hits[0])
        by_time |= (stamps >= bounds[0]) & (stamps <= bounds[1])
        by_rows[rows[k, 0]:rows[k, 1] + 1] = True
        if rows[k, 1] < rows[k, 0]:
            by_rows[rows[k, 1]] = True  # the end's row lies before the start's: reported below
    differ = np.flatnonzero(by_time != by_rows)
    if differ.size:
        i = int(differ[0])
        raise NabDataError(where, f"line {i + 2}: timestamps out of order around a window of {series}: "
                           f"{stamps[i]} is {'inside' if by_time[i] else 'outside'} a window by its time but "
                           f"{'inside' if by_rows[i] else 'outside'} it by its row")
    return rows


def probation_rows(n_rows: int, probation_percent: float = PROBATION_PERCENT) -> int:
    """NAB's probationary period in rows: the rows ``i < min(floor(p * n), p * 5000)`` are left out.

    ``nab/util.py`` ``getProbationPeriod`` and ``nab/sweeper.py``: a row is probationary when its index
    is below that bound, so the count is the bound rounded up (:func:`oipr_bench.evaluators.kernels.nab.probation_rows`).
    """
    return _probation_rows(n_rows, probation_percent)


# --------------------------------------------------------------------------- published tables

def score_table_path(detector: str, profile: str) -> str:
    """The relative path of NAB's per-file score table (without ``.gz``)."""
    return f"results/{detector}/{detector}_{profile}_scores.csv"


def read_score_table(corpus: NabCorpus, detector: str, profile: str) -> tuple[NabScoreRow, ...]:
    """NAB's per-file score table of ``detector`` under ``profile``, rows in file order (``Totals`` last).

    Raises
    ------
    NabDataError
        Missing file, columns other than NAB's, a cell that is not a number where one is expected.
    """
    path = _find_csv(corpus.root, score_table_path(detector, profile))
    where = _rel(corpus.root, path)
    frame = _read_frame(where, _read_bytes(corpus.root, path))
    if tuple(frame.columns) != _SCORE_COLUMNS:
        raise NabDataError(where, f"line 1: columns {clip(','.join(map(str, frame.columns)), 200)}; expected "
                           f"{','.join(_SCORE_COLUMNS)}")
    rows = []
    for k, rec in enumerate(frame.itertuples(index=False)):
        name = rec.File if rec.File else str(rec.Detector)
        try:
            threshold = float(rec.Threshold) if rec.Threshold != "" else math.nan
            counts = [int(float(v)) for v in (rec.TP, rec.TN, rec.FP, rec.FN, rec.Total_Count)]
            score = float(rec.Score)
        except ValueError:
            raise NabDataError(where, f"line {k + 2}: a threshold, score or count is not a number") from None
        if not math.isfinite(score):
            raise NabDataError(where, f"line {k + 2}: score {rec.Score!r} is not a finite number")
        rows.append(NabScoreRow(name, threshold, score, *counts))
    return tuple(rows)


def read_final_results(corpus: NabCorpus) -> dict[str, dict[str, float]]:
    """``results/final_results.json``: detector -> profile -> normalised NAB score."""
    doc = _read_json(corpus.root, _FINAL)
    if not isinstance(doc, dict):
        raise NabDataError(_FINAL, "expected an object: detector -> profile -> score")
    out: dict[str, dict[str, float]] = {}
    for det, per_profile in doc.items():
        if not isinstance(per_profile, dict) or not all(_number(v) for v in per_profile.values()):
            raise NabDataError(_FINAL, f"{det}: expected an object: profile -> number")
        out[det] = {p: float(v) for p, v in per_profile.items()}
    return out
