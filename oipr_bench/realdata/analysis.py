"""Rankings, bootstrap intervals and rank agreement over a metric x detector x series table.

Everything here works on plain data: ``values[m, d, s]`` is metric ``m``'s number for detector ``d``
on series ``s`` (NaN where the metric is undefined there, e.g. affiliation's F1 on an all-zero
prediction).  Per metric, each detector's aggregate is the mean over the series where the metric is
defined (``"mean"``), or the sum over them (``"sum"``, NAB's own corpus aggregation).

Intervals are percentile bootstrap intervals over series (Efron & Tibshirani, *An Introduction to the
Bootstrap*, 1993, ch. 13): ``resamples`` draws of the series with replacement, one seeded
:class:`numpy.random.Generator`; every metric and detector is aggregated on the *same* draws, so the
rank agreement between two metrics is a cluster bootstrap with the series as clusters (all the
detectors' values on a drawn series come along together).

Rank agreement is Kendall's tau-b over detectors (Kendall, *Biometrika* 33, 1945: ties in either
ranking shrink the denominator), computed from the signs of all detector pairs; a detector whose
aggregate is undefined ranks below every defined one (and ties with the other undefined ones).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

__all__ = ["AGGREGATIONS", "BASELINES", "Standing", "MetricRanking", "Analysis", "resample_counts", "aggregate",
           "goodness", "competition_ranks", "pair_signs", "kendall_tau", "tau_matrix", "analyse"]

#: How a metric's per-series values become one number per detector.
AGGREGATIONS: tuple[str, ...] = ("mean", "sum")
#: NAB's two baseline detectors: a constant score and uniform random scores.
BASELINES: tuple[str, ...] = ("random", "null")


@dataclass(frozen=True)
class Standing:
    """One detector under one metric.

    Attributes
    ----------
    detector : str
    value : float
        The aggregate over the table's series (NaN when the metric is defined on none).
    low, high : float
        The bootstrap interval of ``value`` (percentiles of the resampled aggregates).
    rank : int
        Competition rank, 1 = best; equal aggregates share a rank ("1, 2, 2, 4").
    defined : int
        Number of series where the metric gave a number.
    """

    detector: str
    value: float
    low: float
    high: float
    rank: int
    defined: int


@dataclass(frozen=True)
class MetricRanking:
    """One metric's ranking of the detectors, best first.

    Attributes
    ----------
    metric, aggregation : str
    higher_is_better : bool
    standings : tuple of Standing
        Best first (ties keep the detectors' given order).
    random_rank, null_rank : int or None
        Where the baselines land (None when the detector is not in the table).
    random_above : tuple of str
        The detectors other than the baselines that the metric rates strictly below ``random``.
    """

    metric: str
    aggregation: str
    higher_is_better: bool
    standings: tuple[Standing, ...]
    random_rank: int | None
    null_rank: int | None
    random_above: tuple[str, ...]

    def standing(self, detector: str) -> Standing:
        """The standing of ``detector``."""
        return next(s for s in self.standings if s.detector == detector)


@dataclass(frozen=True)
class Analysis:
    """Rankings per metric and Kendall's tau between every pair of metrics.

    Attributes
    ----------
    metrics, detectors, series : tuple of str
    rankings : tuple of MetricRanking
        One per metric, in ``metrics`` order.
    tau, tau_low, tau_high : ndarray of shape (M, M)
        Kendall's tau-b over detectors on the full table, and its bootstrap interval.
    resamples, seed : int
    level : float
        Coverage of the intervals (0.95).
    """

    metrics: tuple[str, ...]
    detectors: tuple[str, ...]
    series: tuple[str, ...]
    rankings: tuple[MetricRanking, ...]
    tau: np.ndarray
    tau_low: np.ndarray
    tau_high: np.ndarray
    resamples: int
    seed: int
    level: float

    def ranking(self, metric: str) -> MetricRanking:
        return self.rankings[self.metrics.index(metric)]

    def closest(self, metric: str) -> tuple[tuple[str, ...], float] | None:
        """The other metrics whose ranking agrees most with ``metric``'s (highest tau; all tied ones), and that tau."""
        i = self.metrics.index(metric)
        taus = {other: float(self.tau[i, j]) for j, other in enumerate(self.metrics) if j != i}
        finite = [t for t in taus.values() if t == t]
        if not finite:
            return None
        best = max(finite)
        return tuple(m for m, t in taus.items() if t == best), best


#: Resamples whose pair signs are held at once when computing tau (memory stays bounded).
_CHUNK = 500


def resample_counts(n_series: int, resamples: int, seed: int) -> np.ndarray:
    """How often each series is drawn in each bootstrap resample: int64 array of shape (resamples, n_series).

    Row ``b`` is a draw of ``n_series`` series with replacement from ``numpy.random.default_rng(seed)``;
    the same seed gives the same counts.
    """
    if n_series < 1 or resamples < 1:
        raise ValueError(f"need at least one series and one resample, got {n_series} and {resamples}")
    rng = np.random.default_rng(seed)
    drawn = rng.integers(0, n_series, size=(resamples, n_series))
    flat = (np.arange(resamples)[:, None] * n_series + drawn).ravel()
    return np.bincount(flat, minlength=resamples * n_series).reshape(resamples, n_series)


def aggregate(values: np.ndarray, counts: np.ndarray, how: str = "mean") -> np.ndarray:
    """Each detector's aggregate under each series weighting.

    Parameters
    ----------
    values : ndarray of shape (D, S)
        One metric's values, NaN where undefined.
    counts : ndarray of shape (B, S)
        Series weights: a row of ones is the table itself, a row of :func:`resample_counts` a resample.
    how : {"mean", "sum"}

    Returns
    -------
    ndarray of shape (B, D)
        The weighted mean (or sum) over the defined cells; NaN where no drawn series is defined.
    """
    if how not in AGGREGATIONS:
        raise ValueError(f"aggregation must be one of {', '.join(AGGREGATIONS)}, got {how!r}")
    values = np.asarray(values, dtype=np.float64)
    defined = np.isfinite(values)
    weights = np.asarray(counts, dtype=np.float64)
    sums = weights @ np.where(defined, values, 0.0).T
    n = weights @ defined.T.astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = sums / n if how == "mean" else sums
    return np.where(n > 0, out, np.nan)


def goodness(aggregates: np.ndarray, higher_is_better: bool) -> np.ndarray:
    """Aggregates oriented so that larger is better, an undefined one as ``-inf`` (below every number)."""
    g = np.asarray(aggregates, dtype=np.float64)
    g = g if higher_is_better else -g
    return np.where(np.isnan(g), -np.inf, g)


def competition_ranks(good: np.ndarray) -> np.ndarray:
    """Rank 1 = best along the last axis; equal values share the best rank of their group ("1, 2, 2, 4")."""
    g = np.asarray(good, dtype=np.float64)
    return 1 + (g[..., None, :] > g[..., :, None]).sum(axis=-1)


def pair_signs(good: np.ndarray) -> np.ndarray:
    """sign(g_i - g_j) for every detector pair i < j: int8 array of shape (..., D(D-1)/2); 0 for a tie."""
    g = np.asarray(good, dtype=np.float64)
    i, j = np.triu_indices(g.shape[-1], 1)
    a, b = g[..., i], g[..., j]
    return (a > b).astype(np.int8) - (a < b).astype(np.int8)


def kendall_tau(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's tau-b of two score vectors over the same items (larger = better in both); NaN when either is all tied.

    tau-b = (concordant - discordant) / sqrt(pairs untied in x * pairs untied in y).
    """
    sx, sy = pair_signs(np.asarray(x, dtype=np.float64)), pair_signs(np.asarray(y, dtype=np.float64))
    return float(tau_matrix(np.stack([sx, sy])[:, None, :])[0, 1, 0])


def tau_matrix(signs: np.ndarray) -> np.ndarray:
    """Kendall's tau-b between every pair of metrics, per resample.

    Parameters
    ----------
    signs : ndarray of shape (M, B, P)
        :func:`pair_signs` of each metric's goodness in each of B resamples.

    Returns
    -------
    ndarray of shape (M, M, B)
    """
    s = np.asarray(signs, dtype=np.float64)
    num = np.einsum("mbp,nbp->mnb", s, s)
    untied = np.abs(s).sum(axis=-1)                    # (M, B)
    den = np.sqrt(untied[:, None, :] * untied[None, :, :])
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


def _interval(samples: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval along axis 0, ignoring NaN resamples (all-NaN gives NaN)."""
    tail = 100.0 * (1.0 - level) / 2.0
    finite = np.isfinite(samples)
    lo = np.full(samples.shape[1:], np.nan)
    hi = np.full(samples.shape[1:], np.nan)
    some = finite.any(axis=0)
    if some.any():
        picked = samples[:, some]
        lo[some] = np.nanpercentile(picked, tail, axis=0)
        hi[some] = np.nanpercentile(picked, 100.0 - tail, axis=0)
    return lo, hi


def analyse(values: np.ndarray, metrics: Sequence[str], detectors: Sequence[str], series: Sequence[str], *,
            higher_is_better: Sequence[bool], aggregation: Sequence[str], resamples: int = 1000, seed: int = 0,
            level: float = 0.95) -> Analysis:
    """Rank the detectors under every metric and measure how far the metrics' rankings agree.

    Parameters
    ----------
    values : ndarray of shape (M, D, S)
        ``values[m, d, s]``: metric ``m`` on detector ``d``, series ``s`` (NaN: undefined there).
    metrics, detectors, series : sequences of str
        The names along the three axes.
    higher_is_better, aggregation : sequences of length M
        Each metric's orientation and its aggregation over series (:data:`AGGREGATIONS`).
    resamples : int
        Bootstrap resamples of the series (1,000 by default).
    seed : int
        Seed of the resampling: the same seed gives the same intervals.
    level : float
        Coverage of the percentile intervals.

    Returns
    -------
    Analysis
    """
    v = np.asarray(values, dtype=np.float64)
    m_count, d_count, s_count = len(metrics), len(detectors), len(series)
    if v.shape != (m_count, d_count, s_count):
        raise ValueError(f"values have shape {v.shape}, expected (metrics, detectors, series) = "
                         f"({m_count}, {d_count}, {s_count})")
    if len(higher_is_better) != m_count or len(aggregation) != m_count:
        raise ValueError("higher_is_better and aggregation need one entry per metric")
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must lie strictly between 0 and 1, got {level}")
    counts = resample_counts(s_count, resamples, seed)
    ones = np.ones((1, s_count))
    rankings = []
    point_signs, boot_good = [], []
    for m, name in enumerate(metrics):
        full = aggregate(v[m], ones, aggregation[m])[0]
        boot = aggregate(v[m], counts, aggregation[m])
        low, high = _interval(boot, level)
        good = goodness(full, higher_is_better[m])
        ranks = competition_ranks(good)
        defined = np.isfinite(v[m]).sum(axis=1)
        order = np.argsort(-good, kind="stable")
        standings = tuple(Standing(detectors[d], float(full[d]), float(low[d]), float(high[d]), int(ranks[d]),
                                   int(defined[d])) for d in order)
        index = {d: k for k, d in enumerate(detectors)}
        random_rank = int(ranks[index["random"]]) if "random" in index else None
        null_rank = int(ranks[index["null"]]) if "null" in index else None
        above: tuple[str, ...] = ()
        if "random" in index:
            r = good[index["random"]]
            above = tuple(detectors[d] for d in order if detectors[d] not in BASELINES and good[d] < r)
        rankings.append(MetricRanking(name, aggregation[m], bool(higher_is_better[m]), standings, random_rank,
                                      null_rank, above))
        point_signs.append(pair_signs(good[None, :]))
        boot_good.append(goodness(boot, higher_is_better[m]))
    tau = tau_matrix(np.stack(point_signs))[:, :, 0]
    tau_boot = np.concatenate([tau_matrix(np.stack([pair_signs(g[start:start + _CHUNK]) for g in boot_good]))
                               for start in range(0, int(resamples), _CHUNK)], axis=-1)   # (M, M, B)
    tau_low, tau_high = _interval(np.moveaxis(tau_boot, -1, 0), level)
    return Analysis(tuple(metrics), tuple(detectors), tuple(series), tuple(rankings), tau, tau_low, tau_high,
                    int(resamples), int(seed), float(level))
