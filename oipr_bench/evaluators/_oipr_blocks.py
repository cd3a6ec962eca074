"""OIPR's areas streamed block by block over the positions (issue 11, part 4).

The interest curve of Algorithm 1 (the OIPR paper) is, at every position
``t``, ``omega(a) * gamma(d)`` with ``a = t - p_start`` (distance from the
first point of the merged event) and ``d = t - p_end`` (distance from the
last 1, 0 inside an event); ``gamma(d) = 0`` once ``d > l_obs``.  Both
distances grow by one per point and are reset at event bounds:

* ``d`` restarts at 0 on every 1 (it stays 0 inside a run of 1s);
* ``a`` restarts at 0 on every run that opens a new event, i.e. whose gap of
  0s since the previous 1 is at least ``l_obs`` (``t - p_end > l_obs``).

This module walks the positions ``0 .. T + l_obs - 1`` (the curve runs
``l_obs`` points past the series end) in blocks of :data:`BLOCK` points.  In
each block it builds ``d`` and ``a`` as running sums of their increments (1
per point, a reset written at each run start or event opener of the block),
clips them where the curve no longer changes (``d`` at ``l_obs + 1``, where
``gamma`` is 0; ``a`` at ``S``, from where ``omega`` equals ``b_dur``) and
reads the curve from a small lookup table of ``omega(a) * gamma(d)``.  A
block where a curve is 0 throughout (no run, gap longer than ``l_obs``), or
constant (inside one settled event), is never expanded.  Only the block's
buffers (reused) and the run bounds of the two series are held: memory does
not grow with the number of covered points.

The values are the very products Algorithm 1 computes (``omega(a)`` and
``gamma(d)`` multiplied once), so ``TP_oi = AUC(min(I, I_hat))`` and the two
AUCs (eqs. 5-9) are sums of the same numbers, taken per block and added with
:func:`math.fsum`.
"""

from __future__ import annotations

import math
from typing import NamedTuple, Optional, Union

import numpy as np

__all__ = ["BLOCK", "CurveTables", "make_tables", "streamed_areas", "streamed_areas_with_sparse"]

#: Positions per block (small enough for the block's buffers to stay in cache).
BLOCK = 1 << 14

#: Largest product table ``(S + 1) x (l_obs + 2)``; beyond it two lookups are multiplied per point.
_MAX_PRODUCT = 1 << 16

#: A curve over one block: ``None`` (0 throughout), a float (constant) or the values.
BlockCurve = Union[None, float, np.ndarray]


class CurveTables(NamedTuple):
    """Lookup tables of one parameter set.

    ``omega[a]`` for ``a = 0 .. S`` (``omega[S] = b_dur = omega(a)`` for every
    ``a >= S``); ``gamma[d]`` for ``d = 0 .. l_obs + 1`` (``gamma[l_obs + 1] = 0``);
    ``settled[d] = b_dur * gamma[d]``; ``product`` the flat table
    ``omega[a] * gamma[d]`` at ``a * (l_obs + 2) + d``, or ``None`` when too large.
    """

    omega: np.ndarray
    gamma: np.ndarray
    settled: np.ndarray
    product: Optional[np.ndarray]
    l_obs: int

    @property
    def settle(self) -> int:
        """``S``: the distance from which ``omega`` equals ``b_dur``."""
        return int(self.omega.shape[0]) - 1


def make_tables(omega_tab: np.ndarray, gamma_tab: np.ndarray, b_dur: float) -> CurveTables:
    """Tables from ``omega(0 .. n)`` (whose last entry ``b_dur`` repeats for ever) and ``gamma(0 .. l_obs)``.

    The omega table is cut after its last value that differs from ``b_dur``.
    """
    unsettled = np.flatnonzero(omega_tab != b_dur)
    settle = int(unsettled[-1]) + 1 if unsettled.size else 0
    omega_tab = np.ascontiguousarray(omega_tab[: settle + 1], dtype=np.float64)
    if omega_tab.shape[0] == settle:  # the table ended before settling: extend by b_dur
        omega_tab = np.append(omega_tab, b_dur)
    l_obs = int(gamma_tab.shape[0]) - 1
    gamma_ext = np.append(np.asarray(gamma_tab, dtype=np.float64), 0.0)
    product = None
    if omega_tab.shape[0] * gamma_ext.shape[0] <= _MAX_PRODUCT:
        product = (omega_tab[:, None] * gamma_ext[None, :]).ravel()
    return CurveTables(omega_tab, gamma_ext, b_dur * gamma_ext, product, l_obs)


class _Series:
    """One series' run bounds and the state carried from block to block."""

    def __init__(self, y: np.ndarray, starts: np.ndarray, ends: np.ndarray, tables: CurveTables) -> None:
        self.y = y
        self.starts = starts
        self.ends = ends
        self.next_run = 0  # index of the first run not started yet
        self.last_one = -(tables.l_obs + 2)  # p_end: no 1 yet, so d > l_obs
        self.event_start = -(tables.settle + 1)  # p_start: none yet (a irrelevant while d > l_obs)


class _Buffers:
    """Reused per-block buffers."""

    def __init__(self, block: int, idx_dtype: type) -> None:
        self.d = np.empty(block, dtype=idx_dtype)
        self.a = np.empty(block, dtype=idx_dtype)
        self.values = (np.empty(block), np.empty(block))
        self.scratch = np.empty(block)


def _reset_distances(s: _Series, b0: int, i0: int, i1: int) -> tuple[np.ndarray, np.ndarray]:
    """Local starts of the runs ``i0 .. i1 - 1`` (all in the block at ``b0``) and the 0s before each.

    The gap before the very first run of the series is taken from the
    virtual ``p_end`` Algorithm 1 starts with (``-l_obs - 1``), so that run
    opens an event.
    """
    starts = s.starts[i0:i1]
    gaps = np.empty(i1 - i0, dtype=np.int64)
    if i0 > 0:
        np.subtract(starts, s.ends[i0 - 1 : i1 - 1], out=gaps)
    else:
        gaps[0] = int(starts[0]) - (s.last_one + 1)
        np.subtract(starts[1:], s.ends[: i1 - 1], out=gaps[1:])
    return starts - b0, gaps


def _distance_from_last_one(s: _Series, b0: int, n: int, loc: np.ndarray, gaps: np.ndarray, d0: int,
                            d: np.ndarray, l_obs: int) -> None:
    """``d = min(t - p_end, l_obs + 1)`` over the block, in place in ``d[:n]``.

    Increment 1 on every 0 and 0 inside a run; at a run start the increment
    cancels the running value (``d`` before the block is ``d0``, clipped, so
    the reset of the block's first run uses the clipped value too).
    """
    k = max(0, min(n, s.y.shape[0] - b0))  # points of the block inside the series
    np.subtract(1, s.y[b0 : b0 + k], out=d[:k])
    d[k:n] = 1
    d[loc] = -np.minimum(gaps, loc + d0)
    d[0] += d0
    np.cumsum(d[:n], out=d[:n])
    np.minimum(d[:n], l_obs + 1, out=d[:n])


def _distance_from_event_start(s: _Series, b0: int, n: int, openers: np.ndarray, a0: int,
                               a: np.ndarray, settle: int) -> None:
    """``a = min(t - p_start, S)`` over the block, in place in ``a[:n]`` (openers: local starts of new events)."""
    a[:n] = 1
    if openers.size:
        previous = np.empty(openers.size, dtype=np.int64)
        previous[0] = s.event_start - b0
        previous[1:] = openers[:-1]
        a[openers] = -np.minimum(openers - 1 - previous, openers + a0)
    a[0] += a0
    np.cumsum(a[:n], out=a[:n])
    np.minimum(a[:n], settle, out=a[:n])


def _block_curve(s: _Series, b0: int, b1: int, tab: CurveTables, buf: _Buffers, out: np.ndarray) -> BlockCurve:
    """The interest curve of series ``s`` over ``[b0, b1)``; advances ``s``'s carried state."""
    n = b1 - b0
    i0 = s.next_run
    i1 = i0 + int(np.searchsorted(s.starts[i0:], b1))
    d0 = min(b0 - 1 - s.last_one, tab.l_obs + 1)
    a0 = min(b0 - 1 - s.event_start, tab.settle)
    if i1 == i0:
        if d0 > tab.l_obs:  # no 1 in the block and the last one is more than l_obs back
            return None
        if i0 > 0 and int(s.ends[i0 - 1]) >= b1 and a0 >= tab.settle:  # inside one settled event
            s.last_one = b1 - 1
            return float(tab.omega[tab.settle])
    loc, gaps = _reset_distances(s, b0, i0, i1)
    _distance_from_last_one(s, b0, n, loc, gaps, d0, buf.d, tab.l_obs)
    openers = loc[gaps >= tab.l_obs]  # t - p_end > l_obs: a new event (Algorithm 1)
    d = buf.d[:n]
    values = out[:n]
    if openers.size == 0 and a0 >= tab.settle:  # omega = b_dur throughout
        np.take(tab.settled, d, out=values, mode="clip")
    else:
        _distance_from_event_start(s, b0, n, openers, a0, buf.a, tab.settle)
        a = buf.a[:n]
        if tab.product is not None:
            a *= tab.gamma.shape[0]
            a += d
            np.take(tab.product, a, out=values, mode="clip")
        else:
            np.take(tab.omega, a, out=values, mode="clip")
            values *= np.take(tab.gamma, d, out=buf.scratch[:n], mode="clip")
    if i1 > 0:
        s.last_one = min(int(s.ends[i1 - 1]), b1) - 1
    if openers.size:
        s.event_start = int(openers[-1]) + b0
    s.next_run = i1
    return values


def _area(curve: BlockCurve, n: int) -> float:
    if curve is None:
        return 0.0
    if isinstance(curve, float):
        return curve * n
    return float(curve.sum())


def _overlap(true: BlockCurve, pred: BlockCurve, n: int, scratch: np.ndarray) -> float:
    """``sum(min(I, I_hat))`` over one block (eq. 5)."""
    if true is None or pred is None:
        return 0.0
    if isinstance(true, float) and isinstance(pred, float):
        return min(true, pred) * n
    if isinstance(true, float):
        true, pred = pred, true
    return float(np.minimum(true, pred, out=scratch[:n]).sum())


def streamed_areas(
    y_true: np.ndarray,
    y_pred: np.ndarray,
    events_true: tuple[np.ndarray, np.ndarray],
    events_pred: tuple[np.ndarray, np.ndarray],
    tables: CurveTables,
    block: int = 0,
) -> tuple[float, float, float]:
    """``(TP_oi, AUC(I), AUC(I_hat))`` (eqs. 5-9) of two validated 0/1 int8 series, block by block.

    Parameters
    ----------
    y_true, y_pred : ndarray of int8, shape (T,)
    events_true, events_pred : (starts, ends)
        The series' runs of 1s (:func:`oipr_bench.events.to_events`).
    tables : CurveTables
        From :func:`make_tables` (``l_obs >= 1``).
    block : int, optional
        Positions per block (default :data:`BLOCK`).
    """
    block = block or BLOCK
    total = y_true.shape[0] + tables.l_obs
    big = total + 2 * block + tables.settle + tables.l_obs >= 2**31 - 1
    buf = _Buffers(block, np.int64 if big else np.int32)
    series = [_Series(y, *events, tables) for y, events in ((y_true, events_true), (y_pred, events_pred))]
    tp, auc_true, auc_pred = [], [], []
    for b0 in range(0, total, block):
        b1 = min(b0 + block, total)
        true = _block_curve(series[0], b0, b1, tables, buf, buf.values[0])
        pred = _block_curve(series[1], b0, b1, tables, buf, buf.values[1])
        auc_true.append(_area(true, b1 - b0))
        auc_pred.append(_area(pred, b1 - b0))
        tp.append(_overlap(true, pred, b1 - b0, buf.scratch))
    return math.fsum(tp), math.fsum(auc_true), math.fsum(auc_pred)


def streamed_areas_with_sparse(
    y_large: np.ndarray,
    events_large: tuple[np.ndarray, np.ndarray],
    positions: np.ndarray,
    values: np.ndarray,
    tables: CurveTables,
    block: int = 0,
) -> tuple[float, float]:
    """``(TP_oi, AUC)`` of a curve streamed block by block against one given on its support.

    The small curve is its sorted non-zero ``positions`` and their
    ``values``; it is 0 elsewhere, so ``min(I, I_hat)`` needs the large
    curve only there (eq. 5).  ``AUC`` is the large curve's.
    """
    block = block or BLOCK
    total = y_large.shape[0] + tables.l_obs
    big = total + 2 * block + tables.settle + tables.l_obs >= 2**31 - 1
    buf = _Buffers(block, np.int64 if big else np.int32)
    large = _Series(y_large, *events_large, tables)
    tp, auc = [], []
    lo = 0
    for b0 in range(0, total, block):
        b1 = min(b0 + block, total)
        curve = _block_curve(large, b0, b1, tables, buf, buf.values[0])
        auc.append(_area(curve, b1 - b0))
        hi = lo + int(np.searchsorted(positions[lo:], b1))
        if hi > lo and curve is not None:
            small = values[lo:hi]
            if isinstance(curve, float):
                tp.append(float(np.minimum(small, curve, out=buf.scratch[: hi - lo]).sum()))
            else:
                at = np.take(curve, positions[lo:hi] - b0, out=buf.values[1][: hi - lo], mode="clip")
                tp.append(float(np.minimum(small, at, out=at).sum()))
        lo = hi
    return math.fsum(tp), math.fsum(auc)
