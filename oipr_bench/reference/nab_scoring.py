"""NAB's scoring of a whole corpus: per-file rows, the optimiser's threshold sweep, the normalised scoreboard.

What numenta/NAB's ``run.py --optimize --score --normalize`` computes (``nab/optimizer.py``,
``nab/scorer.py``, ``nab/runner.py``), on the per-series kernel of :mod:`oipr_bench.evaluators.kernels.nab`:

* **score** (:func:`score_file`): a detector's rows with ``anomaly_score >= threshold`` are its
  detections; per file the raw score and the TP/TN/FP/FN counts of the scored rows;
* **optimise** (:func:`optimise`): the threshold sweep over every distinct anomaly score of the
  corpus, highest first (the first candidate, ``1.1``, detects nothing); the threshold with the
  highest corpus score wins, the highest such threshold on a tie;
* **normalise** (:func:`normalised`): ``100 * (raw - null) / (perfect - null)``, ``null`` the raw corpus
  score of NAB's ``null`` detector at its own threshold and ``perfect = tpWeight x`` the number of
  windows in ``labels/combined_windows.json``.

The corpus is read one results file at a time (:func:`oipr_bench.reference.nab.iter_results`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable, Mapping

import numpy as np

from ..evaluators.kernels.nab import SeriesWeights, score_detections, series_weights
from .nab import PROBATION_PERCENT, NabCorpus, probation_rows, read_result, window_indices

__all__ = ["FileScore", "DetectorScores", "score_file", "score_detector", "optimise", "normalised",
           "perfect_score", "NULL_DETECTOR", "FIRST_THRESHOLD"]

#: NAB's baseline detector, whose corpus score is the normalisation's zero.
NULL_DETECTOR = "null"
#: The sweep's first threshold (``Sweeper.calcScoreByThreshold``): above every score, it detects nothing.
FIRST_THRESHOLD = 1.1


@dataclass(frozen=True)
class FileScore:
    """One row of a per-file score table: a detector on one series under one profile at one threshold."""

    series: str
    threshold: float
    score: float
    tp: int
    tn: int
    fp: int
    fn: int
    n_rows: int

    @property
    def scored_rows(self) -> int:
        """TP + TN + FP + FN: the rows after the probationary period (NAB's current ``Total_Count``)."""
        return self.tp + self.tn + self.fp + self.fn


@dataclass
class _SweepPart:
    """One file's scored rows, kept for the optimiser: anomaly score, weight, global window id (-1 outside)."""

    scores: np.ndarray
    weights: np.ndarray
    windows: np.ndarray


@dataclass
class DetectorScores:
    """A detector under one profile: its per-file rows at a threshold, and (optionally) its sweep material."""

    detector: str
    profile: str
    threshold: float
    files: list[FileScore] = field(default_factory=list)
    sweep: list[_SweepPart] = field(default_factory=list)
    n_counted_windows: int = 0
    #: Series -> its row at another threshold (``also_at``), where one was asked for.
    also: dict[str, FileScore] = field(default_factory=dict)

    @property
    def total(self) -> float:
        """The corpus raw score: the sum of the per-file scores (NAB's ``Totals`` row)."""
        return float(sum(f.score for f in self.files))


def _weights(rows: np.ndarray, n: int, profile: Mapping[str, float], probation_percent: float) -> SeriesWeights:
    return series_weights(n, rows, probation_rows(n, probation_percent), profile["tpWeight"], profile["fpWeight"])


def score_file(weights: SeriesWeights, series: str, anomaly_score: np.ndarray, threshold: float,
               fn_weight: float) -> FileScore:
    """The per-file row of one series: detections are the rows with ``anomaly_score >= threshold``."""
    raw, tp, tn, fp, fn = score_detections(weights, anomaly_score >= threshold, fn_weight)
    return FileScore(series, threshold, raw, tp, tn, fp, fn, int(anomaly_score.size))


def score_detector(corpus: NabCorpus, detector: str, thresholds: Mapping[str, float] | None, *,
                   sweep: bool = False, series: Iterable[str] | None = None,
                   also_at: Mapping[str, Mapping[str, float]] | None = None,
                   probation_percent: float = PROBATION_PERCENT) -> dict[str, DetectorScores]:
    """Score ``detector`` on every series under every profile, reading each results file once.

    Parameters
    ----------
    thresholds : mapping of profile to threshold, or None
        The thresholds to score at (NAB's ``config/thresholds.json``); None scores nothing (sweep only).
    sweep : bool
        Keep each file's scored rows for :func:`optimise`.
    also_at : mapping of profile to (series to threshold), optional
        Also score these series at these thresholds (``DetectorScores.also``): a published table's own
        threshold where it differs from ``thresholds``.
    """
    out = {p: DetectorScores(detector, p, math.nan if thresholds is None else float(thresholds[p]))
           for p in corpus.profiles}
    offset = 0
    for name in (corpus.series if series is None else tuple(series)):
        result = read_result(corpus, detector, name)
        rows = window_indices(corpus, name, result.timestamps)
        for prof, cost in corpus.profiles.items():
            weights = _weights(rows, result.timestamps.size, cost, probation_percent)
            acc = out[prof]
            acc.n_counted_windows += int(np.count_nonzero(weights.counted))
            if thresholds is not None:
                acc.files.append(score_file(weights, name, result.anomaly_score, acc.threshold, cost["fnWeight"]))
            other = (also_at or {}).get(prof, {}).get(name)
            if other is not None:
                acc.also[name] = score_file(weights, name, result.anomaly_score, other, cost["fnWeight"])
            if sweep:
                keep = weights.scored
                ids = np.where(weights.window[keep] >= 0, weights.window[keep] + offset, -1)
                acc.sweep.append(_SweepPart(result.anomaly_score[keep], weights.weight[keep], ids))
        offset += len(corpus.windows[name])
    return out


def optimise(scores: DetectorScores, fn_weight: float) -> tuple[float, float]:
    """The optimiser's ``(threshold, corpus score)``: NAB's ``optimizeThreshold`` as one vectorised sweep.

    At a threshold ``t`` the corpus score is ``-fnWeight x`` (counted windows) plus, for every row
    with ``anomaly_score >= t``, its weight if it lies outside windows, and for every window the rise of
    its best detected weight; so the rows are sorted by score, highest first, each row's change of the
    corpus score is computed once, and the score at every distinct threshold is a cumulative sum. The
    candidates are ``1.1`` (nothing detected) and every distinct score, highest first; the first
    candidate with the highest score wins (NAB sorts them by score with a stable sort).
    """
    if not scores.sweep:
        raise ValueError(f"{scores.detector}: no sweep material (score_detector(..., sweep=True))")
    s = np.concatenate([p.scores for p in scores.sweep])
    w = np.concatenate([p.weights for p in scores.sweep])
    win = np.concatenate([p.windows for p in scores.sweep])
    order = np.argsort(-s, kind="stable")
    s, w, win = s[order], w[order], win[order]
    delta = np.where(win < 0, w, 0.0)
    in_win = np.flatnonzero(win >= 0)
    if in_win.size:
        by_window = in_win[np.argsort(win[in_win], kind="stable")]   # each window's rows, highest score first
        ids = win[by_window]
        starts = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])
        ends = np.r_[starts[1:], ids.size]
        for a, b in zip(starts, ends):
            rows = by_window[a:b]
            best = np.maximum.accumulate(np.r_[-fn_weight, w[rows]])
            delta[rows] = np.diff(best)
    base = -fn_weight * scores.n_counted_windows
    running = base + np.cumsum(delta)
    last_of_group = np.flatnonzero(np.r_[s[1:] != s[:-1], True])
    thresholds = s[last_of_group]
    totals = running[last_of_group]
    if thresholds.size == 0 or thresholds[0] != FIRST_THRESHOLD:
        thresholds = np.r_[FIRST_THRESHOLD, thresholds]
        totals = np.r_[base, totals]
    best = int(np.argmax(totals))
    return float(thresholds[best]), float(totals[best])


def perfect_score(corpus: NabCorpus, profile: str) -> float:
    """``tpWeight x`` the windows of ``labels/combined_windows.json`` (``Runner.normalize``)."""
    return corpus.profiles[profile]["tpWeight"] * sum(len(w) for w in corpus.windows.values())


def normalised(raw: float, null_raw: float, perfect: float) -> float:
    """NAB's final score: ``100 * (raw - null) / (perfect - null)``."""
    return 100.0 * (raw - null_raw) / (perfect - null_raw)
