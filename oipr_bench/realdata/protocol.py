"""The protocol of the real-data table and the metrics it computes.

The protocol (printed with every result, and in docs/realdata.md):

* labels are NAB's anomaly windows: a row inside a window is anomalous (``y_true = 1``);
* NAB's probationary rows (the first 15 % of a series, as NAB's scorer sets them) are left out for
  every metric;
* a series with no anomalous row left after them is left out for every metric (the score metrics and
  every recall are undefined there), and named;
* score metrics take the detector's ``anomaly_score`` as it is;
* binary metrics take ``anomaly_score >= threshold`` (NAB's rule), at the detector's own NAB threshold
  (``config/thresholds.json``, standard profile), or with ``--threshold best`` at the candidate
  threshold that maximises each metric on each series: an *oracle* protocol (it looks at the labels).

A P/R evaluator ranks by its F1 (the paper's Tables 6-8 do the same, eq. 1); a score evaluator by its
number.  NAB ranks by the sum of its raw per-series scores, its own corpus aggregation (NAB's
normalised score is an increasing affine map of that sum, so the ranking is the same).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from .. import evaluators

__all__ = ["THRESHOLD_MODES", "PROFILE", "BEST_QUANTILES", "Metric", "Protocol", "builtin_metrics",
           "candidate_thresholds", "nab_available"]

#: ``nab``: the detector's own NAB threshold; ``best``: the per-metric best threshold (oracle).
THRESHOLD_MODES: tuple[str, ...] = ("nab", "best")
#: The NAB profile whose thresholds binarise the scores.
PROFILE = "standard"
#: Quantiles of a series' scores (rows after the probationary period) tried by ``--threshold best``,
#: beside the detector's NAB threshold.
BEST_QUANTILES: tuple[float, ...] = (0.5, 0.75, 0.9, 0.95, 0.98, 0.99, 0.995, 0.999, 1.0)


@dataclass(frozen=True)
class Metric:
    """One column of the table.

    Attributes
    ----------
    name : str
    kind : {"binary", "scores"}
        What it takes: thresholded 0/1 predictions or the anomaly scores.
    higher_is_better : bool
    aggregation : {"mean", "sum"}
    params : dict
        The parameters in force.
    user : bool
        The user's evaluator (``--evaluator``), called through the audit's guards.
    ranks_by : str
        What number ranks: "F1" for a P/R evaluator, "score" for one number, "raw score" for NAB.
    whole_series : bool
        The metric takes the whole series and leaves NAB's probationary rows out itself (NAB): the
        same rows are left out, and its windows and false-positive distances stay NAB's.
    fn : callable or None
        A built-in's evaluator; None for the user's (called through a Caller).
    """

    name: str
    kind: str
    higher_is_better: bool = True
    aggregation: str = "mean"
    params: dict[str, Any] = field(default_factory=dict)
    user: bool = False
    ranks_by: str = "F1"
    whole_series: bool = False
    fn: Callable[..., Any] | None = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "input": self.kind, "higher_is_better": self.higher_is_better,
                "aggregation": self.aggregation, "ranks_by": self.ranks_by, "user": self.user,
                "whole_series": self.whole_series,
                "params": {k: v for k, v in self.params.items()}}


@dataclass(frozen=True)
class Protocol:
    """How the table was computed.

    Attributes
    ----------
    threshold : {"nab", "best"}
    profile : str
        The NAB profile of the thresholds (and of the NAB metric).
    resamples, seed : int
        The bootstrap over series.
    """

    threshold: str = "nab"
    profile: str = PROFILE
    resamples: int = 1000
    seed: int = 0

    @property
    def oracle(self) -> bool:
        return self.threshold == "best"

    def lines(self) -> list[str]:
        """The protocol in words, one line each (printed with every result)."""
        binarised = (f"binary metrics: anomaly_score >= the detector's own NAB threshold (config/thresholds.json, "
                     f"{self.profile} profile)" if not self.oracle else
                     "binary metrics: ORACLE protocol: per metric and series, the best of the detector's NAB "
                     "threshold and the scores' quantiles " + ", ".join(f"{q:g}" for q in BEST_QUANTILES)
                     + " (it looks at the labels)")
        return [
            "labels: NAB's anomaly windows (labels/combined_windows.json); a row inside a window is anomalous",
            "NAB's probationary rows (first 15 % of each series) are left out for every metric; a series with "
            "no anomalous row after them is left out for every metric",
            "score metrics: the detector's anomaly_score as it is",
            binarised,
            "ranking: mean over series; NAB: the sum of its raw per-series scores (its own corpus aggregation; "
            "NAB's normalised score is an increasing affine map of it), scored on the whole series with its own "
            f"probationary rows left out ({self.profile} profile); a P/R metric ranks by F1; undefined cells (NaN) "
            "are left out of a mean",
            f"intervals: 95 % percentile bootstrap over series, {self.resamples} resamples, seed {self.seed}; "
            "Kendall's tau-b over detectors, the same resamples for every metric (cluster bootstrap)",
        ]

    def to_dict(self) -> dict[str, Any]:
        return {"threshold": self.threshold, "oracle": self.oracle, "profile": self.profile,
                "resamples": self.resamples, "seed": self.seed, "best_quantiles": list(BEST_QUANTILES),
                "lines": self.lines()}


def nab_available() -> bool:
    """True when the built-in NAB evaluator is registered (``evaluators.get("NAB", profile=...)``)."""
    try:
        evaluators.info("NAB")
    except KeyError:
        return False
    return True


def builtin_metrics(profile: str = PROFILE) -> list[Metric]:
    """The seven binary built-ins (ranked by F1), the six score built-ins and NAB (when registered)."""
    metrics = []
    for name in evaluators.NAMES:
        fn = evaluators.get(name)
        metrics.append(Metric(name, "binary", True, "mean", dict(fn.params), ranks_by="F1", fn=fn))
    for name in evaluators.SCORE_NAMES:
        fn = evaluators.get(name)
        metrics.append(Metric(name, "scores", True, "mean", dict(fn.params), ranks_by="score", fn=fn))
    if nab_available():
        fn = evaluators.get("NAB", profile=profile, normalize=False)
        metrics.append(Metric("NAB", "binary", True, "sum", dict(fn.params), ranks_by="raw score",
                              whole_series=True, fn=fn))
    return metrics


def candidate_thresholds(scores: np.ndarray, nab_threshold: float) -> np.ndarray:
    """The thresholds ``--threshold best`` tries on one series: the detector's NAB threshold and the
    scores' :data:`BEST_QUANTILES`, distinct and sorted."""
    qs = np.quantile(np.asarray(scores, dtype=np.float64), BEST_QUANTILES)
    return np.unique(np.append(qs, float(nab_threshold)))
