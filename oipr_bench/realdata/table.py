"""Walk a NAB corpus into the metric x detector x series table, one result file at a time.

Each ``results/<detector>/<category>/<detector>_<series>.csv[.gz]`` is read once
(:func:`oipr_bench.reference.nab.iter_results`), labelled by NAB's windows, cut after the
probationary rows and scored by every metric (:mod:`.protocol`); only the table of numbers stays in
memory.  The user's evaluator is called through the audit's :class:`~oipr_bench.auditing.calling.runner.Caller`
(timeout, isolation, results checked: an exception, a NaN or a value out of its declared bounds is a
failed cell, named by detector and series), so one failing file never loses the others.

:func:`realdata` is the one implementation behind ``oipr-bench realdata``, the HTML report's real-data
section and the pytest plugin's.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from ..errors import UsageError
from ..evaluators.score import Score
from ..reference import nab
from .analysis import Analysis, analyse
from .protocol import THRESHOLD_MODES, Metric, Protocol, builtin_metrics, candidate_thresholds

__all__ = ["UserMetric", "RealdataTable", "RealdataResult", "user_metric", "user_from_resolved", "compute_table", "realdata",
           "MAX_RESAMPLES"]

#: Most bootstrap resamples accepted (the resampled aggregates are held in memory).
MAX_RESAMPLES = 20_000


@dataclass(frozen=True)
class UserMetric:
    """The user's evaluator, resolved and declared, with how it is to be called."""

    metric: Metric
    fn: Callable[..., Any] = field(repr=False)
    bounds: tuple[float, float] = (0.0, 1.0)
    timeout: float | None = None
    isolate: bool = False


@dataclass(frozen=True)
class RealdataTable:
    """The numbers: ``values[m, d, s]`` for the kept series, and what was left out or failed.

    Attributes
    ----------
    metrics : tuple of Metric
    detectors, series : tuple of str
    values : ndarray of shape (M, D, S)
    left_out : tuple of (str, str)
        Series left out for every metric, with the reason.
    problems : tuple of str
        The user's evaluator's failed cells, one line each ("<detector> on <series>: <what happened>").
    thresholds : dict of str to float
        The detector's NAB threshold (standard profile) used to binarise its scores.
    protocol : Protocol
    """

    metrics: tuple[Metric, ...]
    detectors: tuple[str, ...]
    series: tuple[str, ...]
    values: np.ndarray
    left_out: tuple[tuple[str, str], ...]
    problems: tuple[str, ...]
    thresholds: Mapping[str, float]
    protocol: Protocol


@dataclass(frozen=True)
class RealdataResult:
    """The table and its analysis (rankings, intervals, agreement)."""

    table: RealdataTable
    analysis: Analysis
    data: str = ""

    @property
    def user(self) -> Metric | None:
        return next((m for m in self.table.metrics if m.user), None)


def user_metric(spec: Any, params: Mapping[str, Any] | None = None, *, input_kind: str | None = None,
                higher_is_better: bool | None = None, bounds: Any = None, timeout: float | None = None,
                isolate: bool = False, source: str = "--evaluator") -> UserMetric:
    """Resolve the user's evaluator as ``oipr-bench audit`` does (any shape it takes).

    Raises
    ------
    UsageError
        ``spec`` does not resolve, or a parameter or declaration is refused.
    """
    from ..auditing.calling.declarations import declarations_of
    from ..auditing.calling.resolve import resolve

    resolved = resolve(spec, dict(params or {}))
    decl = declarations_of(resolved, input_kind=input_kind, higher_is_better=higher_is_better, bounds=bounds,
                           source=source)
    return user_from_resolved(resolved, decl, timeout=timeout, isolate=isolate)


def user_from_resolved(resolved: Any, decl: Any, *, timeout: float | None = None, isolate: bool = False) -> UserMetric:
    """The user's column from an evaluator already resolved and declared (an audit session's).

    Parameters
    ----------
    resolved : oipr_bench.auditing.calling.resolve.Resolved
    decl : oipr_bench.auditing.calling.declarations.Declarations
    """
    metric = Metric(f"{resolved.name} (yours)", decl.input_kind, decl.higher_is_better, "mean",
                    dict(resolved.params), user=True, ranks_by="F1 or its one number")
    return UserMetric(metric, resolved.fn, decl.bounds, timeout, isolate)


def _number(result: Any) -> float:
    """The ranked number of a built-in's result: F1 of a Score, else the float."""
    return float(result.f1) if isinstance(result, Score) else float(result)


def _builtin_cell(metric: Metric, y: np.ndarray, scores: np.ndarray, pred: np.ndarray,
                  candidates: np.ndarray | None) -> float:
    """One built-in on one (detector, series) pair: ``y``, ``scores`` and ``pred`` are the rows it takes."""
    fn = metric.fn
    assert fn is not None
    if metric.kind == "scores":
        return _number(fn(y, scores))
    if candidates is None:
        return _number(fn(y, pred))
    found = [_number(fn(y, (scores >= c).astype(np.int8))) for c in candidates]
    return _best(found, metric.higher_is_better)


def _best(values: Sequence[float], higher_is_better: bool) -> float:
    arr = np.asarray(values, dtype=np.float64)
    if not np.isfinite(arr).any():
        return float("nan")
    return float(np.nanmax(arr) if higher_is_better else np.nanmin(arr))


class _UserCells:
    """Calls the user's evaluator cell by cell through one Caller; records what failed."""

    def __init__(self, user: UserMetric) -> None:
        from ..auditing.calling.runner import Caller

        self.user = user
        self.caller = Caller(user.fn, timeout=user.timeout, isolate=user.isolate, input_kind=user.metric.kind,
                             bounds=user.bounds)
        self.problems: list[str] = []
        self.kinds: set[str] = set()

    def cell(self, where: str, y: np.ndarray, scores: np.ndarray, pred: np.ndarray,
             candidates: np.ndarray | None) -> float:
        if self.user.metric.kind == "scores":
            return self._call(where, y, scores)
        if candidates is None:
            return self._call(where, y, pred)
        found = [self._call(f"{where} at threshold {c:.6g}", y, (scores >= c).astype(np.int8)) for c in candidates]
        return _best(found, self.user.metric.higher_is_better)

    def _call(self, where: str, y: np.ndarray, y_pred: np.ndarray) -> float:
        from ..vocabulary import OK

        outcome = self.caller(y, y_pred)
        if outcome.kind != OK or outcome.score is None:
            self.problems.append(f"{where}: {outcome.message or outcome.kind}")
            return float("nan")
        self.kinds.add(outcome.result_kind)
        return float(outcome.score.f1)

    def ranked(self, metric: Metric) -> Metric:
        """``metric`` saying what ranks, from what the evaluator returned: P/R (its F1) or one number."""
        from dataclasses import replace

        from ..auditing.calling.coerce import KIND_PR

        return replace(metric, ranks_by="F1" if next(iter(self.kinds)) == KIND_PR else "its one number")

    def close(self) -> None:
        self.caller.close()
        if len(self.kinds) > 1:
            self.problems.append("returned precision/recall on some files and one number on others")


def _thresholds(corpus: "nab.NabCorpus", detectors: Sequence[str], profile: str) -> dict[str, float]:
    """Each detector's NAB threshold (``config/thresholds.json``) under ``profile``; a missing one is refused."""
    out: dict[str, float] = {}
    for det in detectors:
        try:
            out[det] = float(corpus.thresholds[det][profile]["threshold"])
        except (KeyError, TypeError, ValueError):
            raise UsageError(f"config/thresholds.json: no {profile} threshold for detector {det!r}") from None
    return out


def _score_pair(metrics: Sequence[Metric], cells: "_UserCells | None", result: "nab.NabResult", y_full: np.ndarray,
                start: int, threshold: float, oracle: bool) -> list[float]:
    """Every metric on one (detector, series) pair: the rows after ``start`` (the probationary rows), or
    the whole series for a metric that leaves them out itself (NAB)."""
    y = np.ascontiguousarray(y_full[start:], dtype=np.int8)
    scores = np.ascontiguousarray(result.anomaly_score[start:], dtype=np.float64)
    pred = (scores >= threshold).astype(np.int8)
    candidates = candidate_thresholds(scores, threshold) if oracle else None
    whole_y = np.ascontiguousarray(y_full, dtype=np.int8)
    whole_scores = np.ascontiguousarray(result.anomaly_score, dtype=np.float64)
    out = []
    for metric in metrics:
        if metric.user:
            assert cells is not None
            out.append(cells.cell(f"{result.detector} on {result.series}", y, scores, pred, candidates))
        elif metric.whole_series:
            whole_pred = (whole_scores >= threshold).astype(np.int8)
            out.append(_builtin_cell(metric, whole_y, whole_scores, whole_pred, candidates))
        else:
            out.append(_builtin_cell(metric, y, scores, pred, candidates))
    return out


def compute_table(corpus: "nab.NabCorpus", *, protocol: Protocol = Protocol(), user: UserMetric | None = None,
                  detectors: Sequence[str] | None = None, series: Sequence[str] | None = None,
                  progress: Callable[[str], None] | None = None,
                  bar: Callable[[int, str], Any] | None = None) -> RealdataTable:
    """Score every (detector, series) pair of ``corpus`` with every metric.

    Parameters
    ----------
    corpus : oipr_bench.reference.nab.NabCorpus
    protocol : Protocol
    user : UserMetric, optional
        The user's evaluator: one more column, called through the audit's guards.
    detectors, series : sequences of str, optional
        A subset (default: all of the corpus).
    progress : callable, optional
        Called with one line after each detector.
    bar : callable, optional
        ``bar(total, "file")`` makes a progress bar over the (detector, series) result files, as
        :func:`oipr_bench.auditing.progress.progress_bar` does; it advances by one per file scored. A
        front end gives ``bar`` where a terminal shows it, ``progress`` elsewhere.
    """
    if protocol.threshold not in THRESHOLD_MODES:
        raise UsageError(f"--threshold must be one of {', '.join(THRESHOLD_MODES)}, got {protocol.threshold!r}")
    dets = tuple(detectors) if detectors is not None else tuple(corpus.detectors)
    names = tuple(series) if series is not None else tuple(corpus.series)
    thresholds = _thresholds(corpus, dets, protocol.profile)
    metrics = builtin_metrics(protocol.profile)
    if user is not None:
        metrics.append(user.metric)
    values = np.full((len(metrics), len(dets), len(names)), np.nan)
    empty: dict[str, str] = {}
    cells = _UserCells(user) if user is not None else None
    d_index = {d: i for i, d in enumerate(dets)}
    s_index = {s: i for i, s in enumerate(names)}
    done: dict[str, int] = {d: 0 for d in dets}
    try:
        with bar(len(dets) * len(names), "file") if bar is not None else contextlib.nullcontext() as files:
            for result in nab.iter_results(corpus, detectors=dets, series=names):
                d, s = d_index[result.detector], s_index[result.series]
                y_full = nab.window_labels(corpus, result.series, result.timestamps)
                start = nab.probation_rows(len(y_full))
                if not y_full[start:].any():
                    empty[result.series] = "no anomalous row after the probationary period"
                else:
                    values[:, d, s] = _score_pair(metrics, cells, result, y_full, start, thresholds[result.detector],
                                                  protocol.oracle)
                done[result.detector] += 1
                if files is not None:
                    files.update(1)
                if progress is not None and done[result.detector] == len(names):
                    finished = sum(1 for v in done.values() if v == len(names))
                    progress(f"realdata: {result.detector} scored on {len(names)} series ({finished}/{len(dets)} detectors)")
    finally:
        if cells is not None:
            cells.close()
    if cells is not None and len(cells.kinds) == 1:
        metrics[-1] = cells.ranked(metrics[-1])
    keep = [i for i, s in enumerate(names) if s not in empty]
    return RealdataTable(tuple(metrics), dets, tuple(names[i] for i in keep), values[:, :, keep],
                         tuple(sorted(empty.items())), tuple(cells.problems) if cells is not None else (),
                         thresholds, protocol)


def realdata(data: str | os.PathLike[str], *, threshold: str = "nab", resamples: int = 1000, seed: int = 0,
             user: UserMetric | None = None, detectors: Sequence[str] | None = None,
             series: Sequence[str] | None = None, progress: Callable[[str], None] | None = None,
             bar: Callable[[int, str], Any] | None = None) -> RealdataResult:
    """Read the NAB corpus at ``data``, compute the table and analyse it (the front ends' one entry point).

    ``progress`` (one line per detector) and ``bar`` (a bar over the result files) are those of
    :func:`compute_table`.

    Raises
    ------
    UsageError
        A bad folder or file (one line naming it), a bad threshold mode or resample count.
    """
    if threshold not in THRESHOLD_MODES:
        raise UsageError(f"--threshold must be one of {', '.join(THRESHOLD_MODES)}, got {threshold!r}")
    if isinstance(resamples, bool) or not isinstance(resamples, (int, np.integer)) or not 1 <= resamples <= MAX_RESAMPLES:
        raise UsageError(f"--resamples must be a whole number from 1 to {MAX_RESAMPLES:,}, got {resamples!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise UsageError(f"--seed must be a whole number >= 0, got {seed!r}")
    corpus = nab.open_corpus(data)
    protocol = Protocol(threshold=threshold, resamples=int(resamples), seed=int(seed))
    table = compute_table(corpus, protocol=protocol, user=user, detectors=detectors, series=series, progress=progress,
                          bar=bar)
    if not table.series:
        raise UsageError(f"{data}: no series with an anomalous row after the probationary period")
    analysis = analyse(table.values, [m.name for m in table.metrics], table.detectors, table.series,
                       higher_is_better=[m.higher_is_better for m in table.metrics],
                       aggregation=[m.aggregation for m in table.metrics], resamples=int(resamples), seed=int(seed))
    return RealdataResult(table, analysis, os.fspath(data))
