"""Each metric-property family varies one factor and holds the others fixed.

Two kinds of test per family:

* its **design invariant**, asserted on the shipped fixtures (``scenarios/properties/``): what every
  case shares, and that the family's parameter is the only thing that moves;
* a **blind metric**: a small metric written here that cannot see the varied factor by construction
  must read the family's "blind"/"neutral" value.  Before dataset 1.2.0 two families failed this:
  fp_distance's case d1 put the false positive right after the event (it joined the detection, so a
  metric counting predicted segments read ``proximity_aware``), and redundancy's one-alarm case
  alarmed 30 points into the event while the ten-alarm case's first alarm was 3 points in (so a
  metric rewarding early detection read ``rewarded``).
"""

from __future__ import annotations

import numpy as np
import pytest

import oipr_bench
from oipr_bench import vocabulary as v
from oipr_bench.scenarios.events import events_list
from oipr_bench.scenarios.families import HIGH, LOW, QUIET
from oipr_bench.scenarios.family_files import load_families

FAMILIES = load_families()


def _runs(y: np.ndarray) -> list[tuple[int, int]]:
    return [(int(s), int(e)) for s, e in events_list(np.asarray(y))]


def _cases(name: str) -> dict[str, object]:
    return {c.id.split("/", 1)[1]: c for c in FAMILIES[name].cases}


def _same_ground_truth(name: str) -> None:
    cases = list(FAMILIES[name].cases)
    for c in cases[1:]:
        assert np.array_equal(c.y_true, cases[0].y_true), c.id


def test_binary_scores_encode_the_prediction():
    """Every binary family's scores are HIGH at predicted points, LOW elsewhere (QUIET only on padding)."""
    for fam in FAMILIES.values():
        if fam.input != "binary":
            continue
        for c in fam.cases:
            expected = np.where(c.y_pred == 1, HIGH, LOW)
            if fam.name == v.NORMAL_PADDING:
                expected[100:] = QUIET
            assert np.array_equal(c.scores, expected), c.id


# -- design invariants ---------------------------------------------------------------------------------

def test_lag_tolerance_moves_one_event_of_fixed_length():
    _same_ground_truth(v.LAG_TOLERANCE)
    for c in FAMILIES[v.LAG_TOLERANCE].cases:
        lag = int(c.parameter)
        assert _runs(c.y_true) == [(90, 110)]
        assert _runs(c.y_pred) == [(90 + lag, 110 + lag)], c.id


def test_fp_distance_false_positive_is_always_apart_from_the_event():
    """One event detected exactly plus one FP point separated from it by d >= 1 normal points."""
    _same_ground_truth(v.FP_DISTANCE)
    cases = _cases(v.FP_DISTANCE)
    assert _runs(cases["clean"].y_pred) == [(80, 100)]
    gaps = []
    for name, c in cases.items():
        if name == "clean":
            continue
        runs = _runs(c.y_pred)
        assert len(runs) == 2 and runs[0] == (80, 100) and runs[1][1] - runs[1][0] == 1, c.id
        gap = runs[1][0] - 100  # normal points between the event's end and the false positive
        assert gap >= 1 and gap == int(c.parameter), c.id
        assert c.y_true[runs[1][0]] == 0
        gaps.append(gap)
    assert gaps == sorted(gaps) and len(set(gaps)) == len(gaps) and gaps[0] == 1


def test_redundancy_keeps_first_alarm_and_detected_share():
    """k alarms inside the event; the first alarm's start and the detected share are the same in every case."""
    _same_ground_truth(v.REDUNDANCY)
    event = _runs(FAMILIES[v.REDUNDANCY].cases[0].y_true)
    assert len(event) == 1
    s, e = event[0]
    firsts, shares = set(), set()
    for c in FAMILIES[v.REDUNDANCY].cases:
        runs = _runs(c.y_pred)
        assert len(runs) == int(c.parameter), c.id
        assert all(s <= a and b <= e for a, b in runs), c.id
        assert len({b - a for a, b in runs}) == 1, f"{c.id}: alarms of unequal length"
        firsts.add(runs[0][0])
        shares.add(int((c.y_pred[s:e] == 1).sum()) / (e - s))
        assert int(c.y_pred.sum()) == int(c.y_pred[s:e].sum())  # nothing predicted outside the event
    assert len(firsts) == 1 and len(shares) == 1, (firsts, shares)


def test_spill_over_only_lengthens_the_tail():
    _same_ground_truth(v.SPILL_OVER)
    for c in FAMILIES[v.SPILL_OVER].cases:
        assert _runs(c.y_pred) == [(80, 100 + int(c.parameter))], c.id


def test_normal_padding_only_appends_quiet_normal_points():
    cases = list(FAMILIES[v.NORMAL_PADDING].cases)
    base = cases[0]
    assert base.y_true.size == 100
    for c in cases:
        k = int(c.parameter)
        assert c.y_true.size == 100 * (k + 1)
        for a, b in ((c.y_true, base.y_true), (c.y_pred, base.y_pred), (c.scores, base.scores)):
            assert np.array_equal(a[:100], b), c.id
        assert not c.y_true[100:].any() and not c.y_pred[100:].any() and np.all(c.scores[100:] == QUIET)


def test_time_reversal_pairs_are_exact_mirrors():
    cases = _cases(v.TIME_REVERSAL)
    for name, c in cases.items():
        if name.endswith("_forward"):
            r = cases[name.replace("_forward", "_reversed")]
            for a, b in ((c.y_true, r.y_true), (c.y_pred, r.y_pred), (c.scores, r.scores)):
                assert np.array_equal(a[::-1], b), name


def test_label_swap_pairs_exchange_the_two_series():
    cases = _cases(v.LABEL_SWAP_DUALITY)
    for name, c in cases.items():
        if name.endswith("_given"):
            s = cases[name.replace("_given", "_swapped")]
            assert np.array_equal(c.y_true, s.y_pred) and np.array_equal(c.y_pred, s.y_true), name


def test_concatenation_joins_the_parts_end_to_end():
    cases = _cases(v.CONCATENATION)
    for joined in ("AB", "CD"):
        a, b, j = cases[joined[0]], cases[joined[1]], cases[joined]
        for part in ("y_true", "y_pred", "scores"):
            assert np.array_equal(np.concatenate([getattr(a, part), getattr(b, part)]), getattr(j, part)), joined


def test_ranking_consistency_only_moves_scores_between_points():
    """Every grade holds the oracle's very scores (the same multiset); q % of the points at most moved."""
    _same_ground_truth(v.RANKING_CONSISTENCY)
    cases = list(FAMILIES[v.RANKING_CONSISTENCY].cases)
    oracle = cases[0].scores
    assert cases[0].parameter == 0
    assert np.all((oracle >= 0.5) == (cases[0].y_true == 1))
    for c in cases:
        assert np.array_equal(np.sort(c.scores), np.sort(oracle)), c.id
        assert int((c.scores != oracle).sum()) <= round(float(c.parameter) / 100 * oracle.size), c.id


def test_noise_robustness_adds_noise_of_the_stated_sigma_to_one_score():
    _same_ground_truth(v.NOISE_ROBUSTNESS)
    cases = list(FAMILIES[v.NOISE_ROBUSTNESS].cases)
    base = cases[0].scores
    assert cases[0].parameter == 0
    for c in cases[1:]:
        noise = c.scores - base
        sigma = float(c.parameter)
        # 500 draws: the sample standard deviation lies within 15 % of sigma (about 4.7 standard errors)
        assert abs(float(np.std(noise, ddof=1)) - sigma) < 0.15 * sigma, c.id
        assert abs(float(np.mean(noise))) < 4 * sigma / np.sqrt(noise.size), c.id


def test_transform_invariance_cases_rank_the_points_alike():
    _same_ground_truth(v.TRANSFORM_INVARIANCE)
    cases = list(FAMILIES[v.TRANSFORM_INVARIANCE].cases)
    order = np.argsort(cases[0].scores, kind="stable")
    for c in cases:
        assert np.all(np.diff(c.scores[order]) > 0), c.id  # strictly increasing along the base's order


def test_ties_jitter_breaks_ties_and_nothing_else():
    _same_ground_truth(v.TIES)
    cases = _cases(v.TIES)
    plateau = cases["plateau"].scores
    assert len(np.unique(plateau)) == 4
    for name, c in cases.items():
        if name != "plateau":
            assert np.max(np.abs(c.scores - plateau)) <= 1e-4, name
            # a jitter never reorders points of different plateaus: each plateau's highest jittered score
            # lies below the next plateau's lowest
            levels = np.unique(plateau)
            for lo, hi in zip(levels[:-1], levels[1:]):
                assert c.scores[plateau == lo].max() < c.scores[plateau == hi].min(), name
            assert len(np.unique(c.scores)) == c.scores.size, name  # every tie broken


def test_chance_ordering_detectors_share_the_ground_truth():
    _same_ground_truth(v.CHANCE_ORDERING)
    cases = _cases(v.CHANCE_ORDERING)
    oracle = cases["oracle"].scores
    assert np.all((oracle >= 0.5) == (cases["oracle"].y_true == 1))
    assert np.array_equal(cases["inverted"].scores, 1.0 - oracle)
    assert np.all(cases["constant"].scores == cases["constant"].scores[0])
    for name, c in cases.items():
        if name.startswith("random"):
            assert np.all((c.scores >= 0) & (c.scores < 1)), name


# -- metrics blind to the varied factor -----------------------------------------------------------------
# Each reads the family's blind / neutral value because every case of the family gives it the same
# number (derived by hand in each comment); the anchors (empty prediction, y_pred = y_true) differ
# from that number, so the scale is defined.

def segment_count_match(y_true, y_pred):
    """1 / (1 + |predicted segments - true segments|): blind to where a false positive lies.

    fp_distance: clean has 1 segment (1.0); every dK case has 2 (0.5) when the false positive is apart
    from the event, whatever K; the empty prediction has 0 (0.5), y_pred = y_true 1 (1.0).
    """
    n_p, n_t = len(events_list(np.asarray(y_pred))), len(events_list(np.asarray(y_true)))
    return 1.0 / (1.0 + abs(n_p - n_t))


def earliness(y_true, y_pred):
    """1 - (first predicted point inside the first event - its start) / its length; 0 when none.

    Counts nothing but the first alarm.  redundancy: the first alarm starts at the same index in every
    case, so every case reads the same value; empty prediction 0, y_pred = y_true 1.
    """
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    s, e = events_list(y_true)[0]
    hit = np.flatnonzero(y_pred[s:e] == 1)
    return 0.0 if hit.size == 0 else 1.0 - hit[0] / (e - s)


def point_recall(y_true, y_pred):
    """Share of anomalous points predicted: blind to points predicted outside the events (spill-over) and
    to how the predicted points inside are split (redundancy: 20 of 80 in every case)."""
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    return float((y_pred[y_true == 1] == 1).mean())


def same_length(y_true, y_pred):
    """1 when the prediction has as many points as the ground truth, else 0: blind to a lag (lag_tolerance:
    20 predicted points for a 20-point event at every lag; empty prediction 0, y_pred = y_true 1)."""
    return float(int(np.sum(y_pred)) == int(np.sum(y_true)))


def event_recall(y_true, y_pred):
    """Share of true events touched by the prediction: blind to appended normal points (normal_padding:
    the one event is touched in every case) and to the direction of time (time_reversal)."""
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    events = events_list(y_true)
    return float(np.mean([y_pred[s:e].any() for s, e in events]))


def mean_score(y_true, y_pred):
    """The mean of the n_pos highest scores (n_pos = anomalous points of y_true): blind to which point holds
    which score (ranking_consistency's grades move the oracle's scores between points, the multiset stays).
    y_pred = y_true scores 1 (the n_pos ones); uniform random scores about 1 - pi/2 (0.94 at pi = 0.11),
    below 1 on the declared orientation, so the metric is readable on its chance-anchored scale (a plain
    mean of the scores would put y_pred = y_true (0.11) below chance (0.5), which reads undetermined)."""
    s = np.sort(np.asarray(y_pred, dtype=float))
    k = max(int(np.sum(np.asarray(y_true) == 1)), 1)
    return float(np.mean(s[-k:]))


def rank_auc(y_true, y_pred):
    """AUC-ROC from mean ranks (Mann-Whitney U / (n_pos n_neg)): blind to strictly increasing transforms
    (transform_invariance); constant scores give 0.5, y_pred = y_true 1."""
    y_true, s = np.asarray(y_true), np.asarray(y_pred, dtype=float)
    order = np.argsort(s, kind="stable")
    r = np.empty(s.size)
    r[order] = np.arange(1, s.size + 1)
    _, inv = np.unique(s, return_inverse=True)
    r = np.bincount(inv, weights=r)[inv] / np.bincount(inv)[inv]
    pos = y_true == 1
    n_p, n_n = int(pos.sum()), int((~pos).sum())
    return float((r[pos].sum() - n_p * (n_p + 1) / 2) / (n_p * n_n))


for _fn in (mean_score, rank_auc):
    _fn.input_kind = "scores"  # type: ignore[attr-defined]

BLIND = [
    (segment_count_match, v.FP_DISTANCE, v.DISTANCE_BLIND),
    (earliness, v.REDUNDANCY, v.NEUTRAL),
    (point_recall, v.REDUNDANCY, v.NEUTRAL),
    (point_recall, v.SPILL_OVER, v.FREE),
    (same_length, v.LAG_TOLERANCE, v.FLAT),
    (event_recall, v.NORMAL_PADDING, v.INVARIANT),
    (event_recall, v.TIME_REVERSAL, v.NEUTRAL),
    (mean_score, v.RANKING_CONSISTENCY, v.INSENSITIVE),
    (rank_auc, v.TRANSFORM_INVARIANCE, v.INVARIANT),
]


@pytest.mark.parametrize("fn, prop, blind", BLIND, ids=[f"{p}-{f.__name__}" for f, p, _ in BLIND])
def test_a_metric_blind_to_the_factor_reads_the_blind_value(fn, prop, blind):
    prof = oipr_bench.audit(fn, suite="properties", sanity=False)
    r = prof.property_results[prop]
    assert r.observed == blind, (r.observed, r.message)
