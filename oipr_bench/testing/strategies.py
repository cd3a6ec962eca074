"""Hypothesis strategies for property-testing time-series anomaly detection evaluators.

The built-in evaluators are tested with these strategies (``tests/test_properties.py``)
and they are exported so that you can property-test your own evaluator the
same way.  Series are 1-D NumPy arrays of 0/1; an *event* is a maximal run of
1s written as a half-open interval ``[start, end)`` (paper, Sec. III-A).

Series are built from event lists rather than from independent coin flips,
so short and long events, one-point gaps, events touching either end of the
series, the all-zero and the all-one series all turn up early, and
hypothesis shrinks a failing example to few, short events.

Examples
--------
Check that your evaluator never returns a value outside ``[0, 1]``::

    from hypothesis import given, settings
    from oipr_bench.testing.strategies import series_pairs

    @settings(max_examples=200, deadline=None)
    @given(series_pairs(max_size=100))
    def test_my_evaluator_in_range(pair):
        y_true, y_pred = pair
        p, r, f1 = my_evaluator(y_true, y_pred)
        assert 0 <= p <= 1 and 0 <= r <= 1 and 0 <= f1 <= 1

Check that a perfect prediction scores 1::

    @given(binary_series(max_size=100, min_events=1))
    def test_perfect(y):
        assert my_evaluator(y, y.copy())[2] == 1.0

For a ready-made search over the model-free properties every P/R/F1
evaluator should have, see :func:`oipr_bench.auditing.properties.search.run_property_search`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st

from ..scenarios.events import from_events

__all__ = ["event_lists", "binary_series", "series_pairs", "series_lengths"]

#: Default upper bound of generated series lengths: long enough for several
#: events with gaps, short enough for fast tests and readable failures.
DEFAULT_MAX_SIZE = 64


def _check_sizes(min_size: int, max_size: int) -> None:
    if not isinstance(min_size, int) or not isinstance(max_size, int):
        raise TypeError(f"min_size and max_size must be integers, got {min_size!r} and {max_size!r}")
    if min_size < 1:
        raise ValueError(f"min_size must be at least 1 (evaluators reject empty series), got {min_size}")
    if max_size < min_size:
        raise ValueError(f"max_size ({max_size}) must be >= min_size ({min_size})")


def _check_events(length: int, min_events: int, max_events: int | None) -> int:
    """Validate the event-count bounds for a series of ``length`` points; return the effective maximum."""
    most = (length + 1) // 2  # events need a point each and a gap between neighbours
    if min_events < 0:
        raise ValueError(f"min_events must be >= 0, got {min_events}")
    if min_events > most:
        raise ValueError(f"a series of {length} points holds at most {most} events, min_events = {min_events}")
    if max_events is None:
        return most
    if max_events < min_events:
        raise ValueError(f"max_events ({max_events}) must be >= min_events ({min_events})")
    return min(max_events, most)


@st.composite
def _event_lists(draw: Any, length: int, min_events: int, max_events: int) -> list[list[int]]:
    n = draw(st.integers(min_events, max_events))
    if n == 0:
        return []
    # 2n distinct sorted boundaries b0 < b1 < ... in [0, length] give the events
    # [b0, b1), [b2, b3), ...: each non-empty, consecutive ones separated by
    # b_{2k+1} < b_{2k+2}, i.e. at least one normal point.
    bounds = draw(
        st.lists(st.integers(0, length), min_size=2 * n, max_size=2 * n, unique=True).map(sorted)
    )
    return [[bounds[2 * k], bounds[2 * k + 1]] for k in range(n)]


def event_lists(length: int, *, min_events: int = 0, max_events: int | None = None) -> st.SearchStrategy[list[list[int]]]:
    """Lists of events ``[[start, end], ...]`` inside a series of ``length`` points.

    Every event is non-empty (``start < end``), lies inside ``[0, length]``,
    and consecutive events are sorted and separated by at least one normal
    point, so each event is a maximal run of 1s of the series it describes.

    Parameters
    ----------
    length : int
        Series length ``T`` (at least 1).
    min_events, max_events : int, optional
        Bounds on the number of events (``max_events`` defaults to the most
        that fit: ``ceil(T / 2)``).

    Returns
    -------
    SearchStrategy of list of [int, int]

    Examples
    --------
    >>> from oipr_bench.scenarios.events import from_events
    >>> events = event_lists(20, min_events=1).example()  # doctest: +SKIP
    >>> from_events(events, 20)                           # doctest: +SKIP
    """
    _check_sizes(length, length)
    most = _check_events(length, min_events, max_events)
    return _event_lists(length, min_events, most)


def series_lengths(min_size: int = 1, max_size: int = DEFAULT_MAX_SIZE) -> st.SearchStrategy[int]:
    """Series lengths in ``[min_size, max_size]`` (shrinking towards ``min_size``)."""
    _check_sizes(min_size, max_size)
    return st.integers(min_size, max_size)


def _to_dtype(y: np.ndarray, dtype: Any) -> np.ndarray:
    return y.astype(dtype)


@st.composite
def _binary_series(draw: Any, min_size: int, max_size: int, min_events: int, max_events: int | None, dtype: Any) -> np.ndarray:
    low = max(min_size, 2 * min_events - 1)
    length = draw(st.integers(low, max_size))
    most = _check_events(length, min_events, max_events)
    events = draw(_event_lists(length, min_events, most))
    return _to_dtype(from_events(events, length), dtype)


def binary_series(
    min_size: int = 1,
    max_size: int = DEFAULT_MAX_SIZE,
    *,
    min_events: int = 0,
    max_events: int | None = None,
    dtype: Any = np.int8,
) -> st.SearchStrategy[np.ndarray]:
    """One 0/1 series of a random length with random events.

    Parameters
    ----------
    min_size, max_size : int
        Bounds on the length ``T`` (``min_size >= 1``).
    min_events, max_events : int, optional
        Bounds on the number of events (maximal runs of 1s).  ``min_events=1``
        guarantees at least one anomaly; ``max_events=0`` gives all-zero series.
    dtype : numpy dtype, default int8
        dtype of the returned array (``bool``, ``np.int64``, ``float`` ...).

    Returns
    -------
    SearchStrategy of ndarray, shape (T,)

    Examples
    --------
    >>> from hypothesis import given
    >>> @given(binary_series(max_size=50, min_events=1))
    ... def test_has_anomaly(y):
    ...     assert y.any()
    >>> test_has_anomaly()
    """
    _check_sizes(min_size, max_size)
    if 2 * min_events - 1 > max_size:
        raise ValueError(f"max_size {max_size} is too short for min_events = {min_events}")
    return _binary_series(min_size, max_size, min_events, max_events, np.dtype(dtype))


@st.composite
def _series_pairs(
    draw: Any,
    min_size: int,
    max_size: int,
    true_anomaly: bool,
    pred_anomaly: bool,
    related: bool,
    dtype: Any,
) -> tuple[np.ndarray, np.ndarray]:
    length = draw(st.integers(min_size, max_size))
    t_min = 1 if true_anomaly else 0
    p_min = 1 if pred_anomaly else 0
    y_true = from_events(draw(_event_lists(length, t_min, _check_events(length, t_min, None))), length)
    if related and draw(st.booleans()):
        # A prediction made from the ground truth by flipping a few points:
        # near-misses (shifted edges, fragments, extra points) are where
        # evaluators differ, and independent draws rarely produce them.
        flips = draw(st.lists(st.integers(0, length - 1), max_size=min(length, 8), unique=True))
        y_pred = y_true.copy()
        y_pred[flips] = 1 - y_pred[flips]
        if pred_anomaly and not y_pred.any():
            y_pred[draw(st.integers(0, length - 1))] = 1
    else:
        y_pred = from_events(draw(_event_lists(length, p_min, _check_events(length, p_min, None))), length)
    return _to_dtype(y_true, dtype), _to_dtype(y_pred, dtype)


def series_pairs(
    min_size: int = 1,
    max_size: int = DEFAULT_MAX_SIZE,
    *,
    true_anomaly: bool = False,
    pred_anomaly: bool = False,
    related: bool = True,
    dtype: Any = np.int8,
) -> st.SearchStrategy[tuple[np.ndarray, np.ndarray]]:
    """Pairs ``(y_true, y_pred)`` of 0/1 series of the same random length.

    Parameters
    ----------
    min_size, max_size : int
        Bounds on the common length ``T``.
    true_anomaly, pred_anomaly : bool, default False
        Require at least one anomaly point in ``y_true`` / ``y_pred``
        (otherwise all-zero series turn up too: the degenerate inputs).
    related : bool, default True
        Half of the predictions are the ground truth with a few points
        flipped (edges shifted, events fragmented, isolated false alarms);
        the other half are drawn independently.  ``False``: all independent.
    dtype : numpy dtype, default int8
        dtype of both arrays.

    Returns
    -------
    SearchStrategy of (ndarray, ndarray)

    Examples
    --------
    >>> from hypothesis import given
    >>> @given(series_pairs(max_size=40))
    ... def test_same_length(pair):
    ...     y_true, y_pred = pair
    ...     assert y_true.shape == y_pred.shape
    >>> test_same_length()
    """
    _check_sizes(min_size, max_size)
    return _series_pairs(min_size, max_size, bool(true_anomaly), bool(pred_anomaly), bool(related), np.dtype(dtype))
