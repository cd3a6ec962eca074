"""Rankings, bootstrap intervals and Kendall's tau of oipr_bench.realdata.analysis on hand-checkable tables."""

from __future__ import annotations

import math

import numpy as np
import pytest

from oipr_bench.realdata.analysis import (aggregate, analyse, competition_ranks, goodness, kendall_tau, pair_signs,
                                          resample_counts, tau_matrix)

DETECTORS = ("good", "fair", "random", "null")
SERIES = ("s1", "s2", "s3")


def _table() -> np.ndarray:
    # metric A: good > fair > random > null on every series; metric B rates random first; C lower is better.
    a = [[0.9, 0.8, 0.7], [0.5, 0.6, 0.4], [0.2, 0.1, 0.3], [0.0, 0.0, 0.0]]
    b = [[0.3, 0.2, 0.1], [0.2, 0.3, 0.1], [0.9, 0.9, 0.9], [0.0, np.nan, 0.0]]
    c = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]
    return np.array([a, b, c])


def _analyse(values=None, **kw):
    values = _table() if values is None else values
    m = values.shape[0]
    names = kw.pop("metrics", ("A", "B", "C")[:m])
    return analyse(values, names, DETECTORS, SERIES, higher_is_better=kw.pop("hib", (True, True, False)[:m]),
                   aggregation=kw.pop("agg", ("mean",) * m), **kw)


def test_kendall_tau_equals_a_hand_count():
    # 6 pairs, only (2nd, 3rd) discordant: (5 - 1) / 6
    assert kendall_tau([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(4 / 6, abs=1e-15)
    # one tie in x: 5 concordant, 0 discordant, 5 untied pairs in x, 6 in y -> 5 / sqrt(30)
    assert kendall_tau([1, 2, 2, 3], [1, 2, 3, 4]) == pytest.approx(5 / math.sqrt(30), abs=1e-15)
    assert kendall_tau([1, 2, 3, 4], [4, 3, 2, 1]) == -1.0
    assert math.isnan(kendall_tau([1, 1, 1], [1, 2, 3]))


def test_pair_signs_and_competition_ranks():
    g = np.array([3.0, 1.0, 3.0, -np.inf])
    assert pair_signs(g).tolist() == [1, 0, 1, -1, 1, 1]       # pairs (0,1) (0,2) (0,3) (1,2) (1,3) (2,3)
    assert competition_ranks(g).tolist() == [1, 3, 1, 4]
    assert goodness(np.array([1.0, np.nan]), False).tolist() == [-1.0, -np.inf]


def test_aggregate_is_the_weighted_mean_over_defined_cells():
    values = np.array([[1.0, np.nan, 3.0], [np.nan, np.nan, np.nan]])
    assert aggregate(values, np.ones((1, 3)))[0, 0] == 2.0
    assert np.isnan(aggregate(values, np.ones((1, 3)))[0, 1])
    assert aggregate(values, np.array([[2, 0, 1]]))[0, 0] == pytest.approx(5 / 3)
    assert aggregate(values, np.array([[2, 0, 1]]), "sum")[0, 0] == 5.0
    assert np.isnan(aggregate(values, np.array([[0, 3, 0]]))[0, 0])


def test_resample_counts_draw_every_row_with_replacement_and_repeat_for_a_seed():
    counts = resample_counts(5, 200, seed=3)
    assert counts.shape == (200, 5) and (counts.sum(axis=1) == 5).all()
    assert (counts == resample_counts(5, 200, seed=3)).all()
    assert not (counts == resample_counts(5, 200, seed=4)).all()
    assert (counts.max(axis=1) > 1).any()                       # with replacement


def test_rankings_means_and_baseline_placement_by_hand():
    result = _analyse(resamples=200, seed=1)
    a = result.ranking("A")
    assert [s.detector for s in a.standings] == ["good", "fair", "random", "null"]
    assert a.standing("good").value == pytest.approx(0.8) and a.standing("fair").value == pytest.approx(0.5)
    assert (a.random_rank, a.null_rank, a.random_above) == (3, 4, ())
    b = result.ranking("B")
    assert [s.detector for s in b.standings] == ["random", "good", "fair", "null"]
    assert b.standing("null").defined == 2 and b.standing("null").value == 0.0
    assert b.random_rank == 1 and b.random_above == ("good", "fair")
    assert b.standing("good").rank == 2 and b.standing("fair").rank == 2   # both 0.2: a tie
    c = result.ranking("C")                                                 # lower is better
    assert [s.detector for s in c.standings] == ["good", "fair", "random", "null"]
    assert c.standing("good").value == 2.0 and c.standing("good").rank == 1


def test_tau_between_metrics_by_hand():
    result = _analyse(resamples=100, seed=0)
    i, j, k = 0, 1, 2
    # A and C order the detectors alike (C lower-is-better): tau 1
    assert result.tau[i, k] == 1.0 and result.tau[k, i] == 1.0
    # A: good > fair > random > null; B: random > good = fair > null.
    # pairs: (good,fair) tied in B; (good,random) -1; (good,null) +1; (fair,random) -1; (fair,null) +1; (random,null) +1
    assert result.tau[i, j] == pytest.approx((3 - 2) / math.sqrt(6 * 5))
    assert result.closest("B") == (("A", "C"), pytest.approx(1 / math.sqrt(30)))


def test_a_metric_identical_to_another_has_tau_one_with_a_degenerate_interval():
    values = _table()
    twin = np.stack([values[0], values[0].copy()])
    result = _analyse(twin, metrics=("A", "A twin"), hib=(True, True), resamples=300, seed=7)
    assert result.tau[0, 1] == 1.0
    assert result.tau_low[0, 1] == 1.0 and result.tau_high[0, 1] == 1.0


def test_bootstrap_is_identical_for_the_same_seed_and_differs_for_another():
    rng = np.random.default_rng(11)
    values = rng.random((3, 4, 3))
    first = _analyse(values, resamples=250, seed=5)
    again = _analyse(values, resamples=250, seed=5)
    other = _analyse(values, resamples=250, seed=6)
    for x, y in ((first.tau_low, again.tau_low), (first.tau_high, again.tau_high)):
        assert np.array_equal(x, y, equal_nan=True)
    lows = [s.low for r in first.rankings for s in r.standings]
    assert lows == [s.low for r in again.rankings for s in r.standings]
    assert lows != [s.low for r in other.rankings for s in r.standings]


def test_intervals_contain_the_point_estimate():
    rng = np.random.default_rng(2)
    values = rng.random((3, 4, 3))
    values[1] = values[0] + 0.05 * rng.random((4, 3))
    series = tuple(f"s{i}" for i in range(3))
    result = analyse(values, ("A", "B", "C"), DETECTORS, series, higher_is_better=(True, True, True),
                     aggregation=("mean", "mean", "sum"), resamples=500, seed=0)
    for ranking in result.rankings:
        for s in ranking.standings:
            assert s.low <= s.value <= s.high
    finite = np.isfinite(result.tau)
    assert (result.tau_low[finite] <= result.tau[finite]).all() and (result.tau[finite] <= result.tau_high[finite]).all()


def test_a_detector_undefined_everywhere_ranks_last():
    values = _table()[:1].copy()
    values[0, 0] = np.nan
    result = _analyse(values, metrics=("A",), hib=(True,), resamples=50)
    a = result.ranking("A")
    assert a.standings[-1].detector == "good" and a.standings[-1].rank == 4 and math.isnan(a.standings[-1].value)


@pytest.mark.parametrize("kw, message", [
    ({"agg": ("median",)}, "aggregation must be one of mean, sum"),
    ({"level": 1.0}, "level must lie strictly between 0 and 1"),
    ({"resamples": 0}, "need at least one series and one resample"),
])
def test_bad_arguments_are_refused(kw, message):
    with pytest.raises(ValueError, match=message):
        _analyse(_table()[:1], metrics=("A",), hib=(True,), **kw)


def test_tau_interval_over_many_resamples_equals_the_unchunked_computation():
    """analyse computes the resampled taus in chunks of resamples; the interval is the one of all at once."""
    rng = np.random.default_rng(8)
    values = rng.random((3, 4, 3))
    result = _analyse(values, resamples=1234, seed=9)
    counts = resample_counts(3, 1234, seed=9)
    signs = np.stack([pair_signs(goodness(aggregate(values[m], counts), hib)) for m, hib in
                      enumerate((True, True, False))])
    taus = tau_matrix(signs)[0, 1]
    finite = taus[np.isfinite(taus)]
    assert result.tau_low[0, 1] == np.percentile(finite, 2.5) and result.tau_high[0, 1] == np.percentile(finite, 97.5)
