"""Events as half-open [start, end) runs of 1s (oipr_bench.events)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oipr_bench.events import events_list, from_events, to_events


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
