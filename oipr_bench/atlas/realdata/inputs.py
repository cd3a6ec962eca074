"""NAB read once into what every atlas row takes on real data (the protocol of ``oipr-bench realdata``).

For each series with an anomalous row after NAB's probationary rows (:func:`oipr_bench.reference.nab.probation_rows`):

- ``y_true``: 1 inside NAB's anomaly windows (:func:`~oipr_bench.reference.nab.window_labels`), the
  probationary rows left out;
- per detector, ``scores``: its ``anomaly_score`` on the same rows, as it is (what a score row takes);
- per detector, ``y_pred``: ``anomaly_score >= threshold`` at the detector's own NAB threshold
  (``config/thresholds.json``, standard profile; what a binary row takes);
- per detector, NAB's own raw score of the whole series (the built-in ``NAB`` evaluator, standard
  profile, its probationary rows left out by itself): the NAB column every row's ranking is compared with.

A series' *digest* is the SHA-256 of exactly the arrays a row is given (``y_true``, then each detector's
name, scores and ``y_pred``): a real-data cell's cache key holds it, so a changed file, window,
threshold or probation rule changes the key.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

import numpy as np

from ...errors import UsageError
from ...reference import nab

__all__ = ["constant_outputs", "SeriesInputs", "RealInputs", "read_inputs", "declared_order"]

#: The NAB profile of the thresholds and of the NAB column.
PROFILE = "standard"


@dataclass(frozen=True)
class SeriesInputs:
    """One series after its probationary rows: ``y_true`` and, per detector, its scores and ``y_pred``."""

    name: str
    y_true: np.ndarray
    scores: Mapping[str, np.ndarray] = field(repr=False)
    y_pred: Mapping[str, np.ndarray] = field(repr=False)
    digest: str = ""

    @property
    def length(self) -> int:
        return int(self.y_true.size)


@dataclass(frozen=True)
class RealInputs:
    """What every row takes: the kept series, the detectors, their thresholds and NAB's own column.

    Attributes
    ----------
    series : tuple of SeriesInputs
        The kept series, in NAB's order.
    detectors : tuple of str
    thresholds : mapping of str to float
    nab_raw : mapping of (detector, series) to float
        NAB's raw score of each detector on each kept series (standard profile).
    left_out : tuple of (str, str)
        The series left out for every row, with the reason.
    digest : str
        SHA-256 over every kept series' digest, by name: the data a run read.
    """

    series: tuple[SeriesInputs, ...]
    detectors: tuple[str, ...]
    thresholds: Mapping[str, float]
    nab_raw: Mapping[tuple[str, str], float]
    left_out: tuple[tuple[str, str], ...]
    digest: str

    def by_name(self) -> dict[str, SeriesInputs]:
        return {s.name: s for s in self.series}


def _series_digest(y_true: np.ndarray, detectors: Sequence[str], scores: Mapping[str, np.ndarray],
                   y_pred: Mapping[str, np.ndarray]) -> str:
    h = hashlib.sha256()
    h.update(b"y_true" + y_true.astype(np.int8).tobytes())
    for det in detectors:
        h.update(det.encode() + b"\0" + scores[det].astype(np.float64).tobytes() + y_pred[det].astype(np.int8).tobytes())
    return h.hexdigest()


def declared_order(names: Sequence[str]) -> list[str]:
    """The series in the order a declared subset takes them: by the SHA-256 of their names.

    Fixed before any result is seen (it depends on the names only), and unrelated to the categories,
    lengths or detectors, so a subset's first series are a spread of NAB's categories.
    """
    return sorted(names, key=lambda n: hashlib.sha256(n.encode()).hexdigest())


def read_inputs(data: str, *, progress: Callable[[str], None] | None = None) -> RealInputs:
    """:func:`_read_inputs`, its refusals naming the folder: ``--realdata DATA: <file>: <what is wrong>``."""
    try:
        return _read_inputs(data, progress=progress)
    except UsageError as exc:
        raise UsageError(f"--realdata {data}: {exc}") from None


def _read_inputs(data: str, *, progress: Callable[[str], None] | None = None) -> RealInputs:
    """Read the NAB corpus at ``data`` into :class:`RealInputs`, one results file at a time.

    Raises
    ------
    UsageError
        ``data`` is not NAB's layout, a file is bad (one line naming it), or no series is left.
    """
    from ... import evaluators

    corpus = nab.open_corpus(data)
    detectors = tuple(corpus.detectors)
    if not detectors:
        raise UsageError(f"{data}: no detector under results/ (NAB's layout: results/<detector>/<category>/<detector>_<series>.csv)")
    thresholds: dict[str, float] = {}
    for det in detectors:
        try:
            thresholds[det] = float(corpus.thresholds[det][PROFILE]["threshold"])
        except (KeyError, TypeError, ValueError):
            raise UsageError(f"{data}: config/thresholds.json has no {PROFILE} threshold for detector {det!r}") from None
    nab_fn = evaluators.get("NAB", profile=PROFILE, normalize=False)
    kept: list[SeriesInputs] = []
    nab_raw: dict[tuple[str, str], float] = {}
    left_out: list[tuple[str, str]] = []
    for k, name in enumerate(corpus.series):
        scores: dict[str, np.ndarray] = {}
        preds: dict[str, np.ndarray] = {}
        y_true = None
        for det in detectors:
            result = nab.read_result(corpus, det, name)
            y_full = nab.window_labels(corpus, name, result.timestamps)
            start = nab.probation_rows(len(y_full))
            y = np.ascontiguousarray(y_full[start:], dtype=np.int8)
            if y_true is None:
                y_true = y
            elif y.size != y_true.size or not np.array_equal(y, y_true):
                raise UsageError(f"{data}: {nab.result_path(corpus, det, name)}: its rows differ from "
                                 f"{nab.result_path(corpus, detectors[0], name)}'s (every detector must score the same rows)")
            s = np.ascontiguousarray(result.anomaly_score, dtype=np.float64)
            scores[det] = np.ascontiguousarray(s[start:])
            preds[det] = (scores[det] >= thresholds[det]).astype(np.int8)
            nab_raw[(det, name)] = float(nab_fn(np.ascontiguousarray(y_full, dtype=np.int8),
                                                (s >= thresholds[det]).astype(np.int8)))
        assert y_true is not None
        if not y_true.any():
            left_out.append((name, "no anomalous row after the probationary period"))
            for det in detectors:
                nab_raw.pop((det, name), None)
        else:
            kept.append(SeriesInputs(name, y_true, scores, preds, _series_digest(y_true, detectors, scores, preds)))
        if progress is not None:
            progress(f"read {k + 1}/{len(corpus.series)} series")
    if not kept:
        raise UsageError(f"{data}: no series with an anomalous row after the probationary period")
    h = hashlib.sha256()
    for s in kept:
        h.update(f"{s.name}:{s.digest}\n".encode())
    return RealInputs(tuple(kept), detectors, thresholds, nab_raw, tuple(left_out), h.hexdigest())


def constant_outputs(inputs: RealInputs) -> dict[str, set[tuple[str, str]]]:
    """The (detector, series) pairs whose output is constant on the series, per input kind.

    ``"scores"``: the raw anomaly score takes one value on the scored rows; ``"binary"``: the
    prediction at NAB's threshold is all 0 or all 1.  These are the degenerate inputs on which
    packages follow different conventions (a constant score, an empty prediction).
    """
    out: dict[str, set[tuple[str, str]]] = {"scores": set(), "binary": set()}
    for s in inputs.series:
        for det in inputs.detectors:
            if np.ptp(s.scores[det]) == 0:
                out["scores"].add((det, s.name))
            if np.ptp(s.y_pred[det]) == 0:
                out["binary"].add((det, s.name))
    return out

