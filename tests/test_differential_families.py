"""The ``cardinality`` and ``percent_boundary`` families hold what they are named for."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from oipr_bench.testing.families import MAX_EVENTS, SEED_NUMBERS, family_pairs, make_pair
from oipr_bench.testing.sweeps import (
    CARDINALITY_COUNTS, CARDINALITY_LENGTH, CARDINALITY_RANGE, EVENTS_PER_PAIR, MANY_EVENTS_COUNTS, MANY_EVENTS_RANGE,
    PERCENT_EXTRA_K, PERCENT_MAX_LENGTH, percent_sweep,
)
from oipr_bench.vocabulary import CARDINALITY, FAMILIES, MANY_EVENTS, PERCENT_BOUNDARY


def _hits(pair, s: int, e: int) -> int:
    return sum(max(0, min(e, pe) - max(s, ps)) for ps, pe in pair.y_pred_events)


def test_seed_numbers_are_fixed_whatever_the_report_order() -> None:
    assert set(SEED_NUMBERS) == set(FAMILIES) and sorted(SEED_NUMBERS.values()) == list(range(len(FAMILIES)))
    # the eight families of 0.3.0 keep their numbers (their pairs did not change when two were added)
    assert [SEED_NUMBERS[f] for f in ("random_density", "long_series", "cardinality", "percent_boundary",
                                      "many_events")] == [0, 7, 8, 9, 10]
    assert FAMILIES[-3:] == ("cardinality", "long_series", "many_events")


@pytest.mark.parametrize("family, counts, span", [(CARDINALITY, CARDINALITY_COUNTS, CARDINALITY_RANGE),
                                                   (MANY_EVENTS, MANY_EVENTS_COUNTS, MANY_EVENTS_RANGE)])
def test_one_event_over_hundreds_to_tens_of_thousands(family: str, counts: tuple, span: tuple) -> None:
    pairs = list(family_pairs(family, 60))
    many = [(len(p.y_true_events), len(p.y_pred_events)) for p in pairs]
    fixed = [c for c in counts for _ in range(2)]
    assert [max(m) for m in many[:len(fixed)]] == fixed
    for i, (p, (t, q)) in enumerate(zip(pairs, many)):
        assert (q == 1) if i % 2 == 0 else (t == 1), (i, t, q)  # even: one prediction; odd: one true event
    for p in pairs[:len(fixed)]:  # the fixed counts are covered whole: every small event overlaps the one event
        (s, e), = p.y_pred_events if len(p.y_pred_events) == 1 else p.y_true_events
        small = p.y_true_events if len(p.y_pred_events) == 1 else p.y_pred_events
        assert s <= small[0][0] and small[-1][1] <= e
    drawn = [max(m) for m in many[len(fixed):]]
    assert span[0] <= min(drawn) and max(drawn) <= span[1]
    assert max(drawn) > span[1] / 3 and min(drawn) < 3 * span[0]  # log-uniform over the range
    if family == CARDINALITY:
        assert max(p.length for p in pairs) <= CARDINALITY_LENGTH
    assert MAX_EVENTS == 32769


def test_the_event_count_honours_max_events() -> None:
    counts = [max(len(p.y_true_events), len(p.y_pred_events)) for p in family_pairs(CARDINALITY, 40, max_events=300)]
    assert counts[:6] == [255, 255, 256, 256, 257, 257] and max(counts) <= 300
    counts = [max(len(p.y_true_events), len(p.y_pred_events)) for p in family_pairs(MANY_EVENTS, 10, max_events=300)]
    assert max(counts) <= 300


@pytest.mark.parametrize("k", [50, 0, 100, 7, 33.3])
def test_the_percent_sweep_has_every_length_at_the_boundary(k: float) -> None:
    sweep = percent_sweep(k)
    assert len(sweep) == len(set(sweep))
    for kk in (k, *PERCENT_EXTRA_K):
        for n in range(1, PERCENT_MAX_LENGTH + 1):
            x = Fraction(kk) * n / 100
            for h in {math.floor(x) - 1, math.floor(x), math.ceil(x), math.ceil(x) + 1}:
                if 0 <= h <= n:
                    assert (n, h) in sweep, (kk, n, h)
    assert (100, 6) in sweep and (100, 7) in sweep and (100, 8) in sweep  # K = 7 at n = 100: 7 and either side
    if k == 50:
        assert (51, 26) in sweep and (2, 1) in sweep and sweep[:4] == ((1, 0), (1, 1), (2, 0), (2, 1))


def test_percent_boundary_pairs_walk_the_sweep_in_order() -> None:
    sweep = percent_sweep(50.0)
    count = len(sweep) // EVENTS_PER_PAIR
    got = []
    for p in family_pairs(PERCENT_BOUNDARY, count):
        assert len(p.y_true_events) == EVENTS_PER_PAIR
        got += [(e - s, _hits(p, s, e)) for s, e in p.y_true_events]
    assert got == list(sweep[:count * EVENTS_PER_PAIR])
    # the reference's K moves the sweep
    p = make_pair(PERCENT_BOUNDARY, 0, scales={"k": 30})
    assert [(e - s, _hits(p, s, e)) for s, e in p.y_true_events] == list(percent_sweep(30.0)[:EVENTS_PER_PAIR])


def test_percent_boundary_places_hits_at_the_start_the_end_and_scattered() -> None:
    starts = ends = scattered = 0
    for p in family_pairs(PERCENT_BOUNDARY, 200):
        for s, e in p.y_true_events:
            inside = [[max(s, a), min(e, b)] for a, b in p.y_pred_events if a < e and b > s]
            if len(inside) > 1:
                scattered += 1
            elif inside and inside[0][0] == s and inside[0][1] < e:
                starts += 1
            elif inside and inside[0][1] == e and inside[0][0] > s:
                ends += 1
    assert min(starts, ends, scattered) > 50, (starts, ends, scattered)
