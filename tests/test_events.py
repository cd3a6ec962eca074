"""Events as half-open [start, end) runs of 1s (oipr_bench.scenarios.events)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oipr_bench.scenarios.events import count_at_most, events_list, from_events, to_events


def _runs_by_loop(y: list[int]) -> list[list[int]]:
    out, i = [], 0
    while i < len(y):
        if y[i]:
            j = i
            while j < len(y) and y[j]:
                j += 1
            out.append([i, j])
            i = j
        else:
            i += 1
    return out


@pytest.mark.parametrize(
    "y, expected",
    [
        ([], []),
        ([0, 0, 0], []),
        ([1], [[0, 1]]),
        ([1, 1, 0, 1], [[0, 2], [3, 4]]),
        ([0, 1, 1, 0, 0, 1, 1], [[1, 3], [5, 7]]),
    ],
)
def test_known_layouts(y: list[int], expected: list[list[int]]) -> None:
    assert events_list(np.array(y, dtype=np.int8)) == expected
    starts, ends = to_events(np.array(y, dtype=np.int8))
    assert starts.dtype == np.int64 and ends.dtype == np.int64


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 1), max_size=60))
def test_matches_a_plain_loop_and_round_trips(y: list[int]) -> None:
    arr = np.array(y, dtype=np.int8)
    assert events_list(arr) == _runs_by_loop(y)
    assert np.array_equal(from_events(events_list(arr), len(y)), arr)


def test_non_zero_values_count_as_one_and_bools_work() -> None:
    assert events_list(np.array([0, 2, 5, 0])) == [[1, 3]]
    assert events_list(np.array([True, False, True])) == [[0, 1], [2, 3]]


@pytest.mark.parametrize("event", [(-1, 2), (3, 3), (5, 4), (8, 11)])
def test_from_events_rejects_intervals_outside_the_series(event: tuple[int, int]) -> None:
    with pytest.raises(ValueError, match=r"does not lie inside a series of length 10"):
        from_events([event], 10)


# --------------------------------------------------------------------------- count_at_most
@settings(max_examples=200, deadline=None)
@given(st.integers(1, 300).flatmap(lambda n: st.tuples(
    st.just(n),
    st.sets(st.integers(0, n)),  # an exclusive end may equal the length
    st.lists(st.integers(0, n - 1), max_size=400),
)))
def test_count_at_most_equals_searchsorted_right(data):
    # Both branches (binary search for few queries, a dense running count for many)
    # must equal np.searchsorted(bounds, queries, "right").
    n, bounds, queries = data
    b = np.array(sorted(bounds), dtype=np.int64)
    q = np.array(queries, dtype=np.int64)
    got = count_at_most(b, q, n)
    np.testing.assert_array_equal(got, np.searchsorted(b, q, side="right"))


def test_count_at_most_uses_both_branches_correctly():
    b = np.array([0, 3, 4, 9], dtype=np.int64)
    few = np.array([5], dtype=np.int64)  # 1 query, 10 points: binary search
    many = np.arange(10, dtype=np.int64)  # 10 queries: dense running count
    assert count_at_most(b, few, 10).tolist() == [3]
    assert count_at_most(b, many, 10).tolist() == [1, 1, 1, 2, 3, 3, 3, 3, 3, 4]
    assert count_at_most(np.zeros(0, dtype=np.int64), many, 10).tolist() == [0] * 10
    ends = np.array([2, 10], dtype=np.int64)  # the last event ends at the series end
    assert count_at_most(ends, many, 10).tolist() == [0, 0, 1, 1, 1, 1, 1, 1, 1, 1]
