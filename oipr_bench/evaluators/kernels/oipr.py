"""OIPR's areas streamed block by block over the positions.

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
each block it reads the runs of 1s that start there (where the series
differs from the point before), builds ``d`` and ``a`` as running sums of
their increments (1 per point, 0 for ``d`` inside a run, a reset written at
each run start or event opener of the block, the state of an event crossing
the block border carried over), and reads the curve from two small lookup
tables, ``omega(a)`` (constant ``b_dur`` from ``a = S`` on) and ``gamma(d)``
(0 beyond ``l_obs``).  A block where a curve is 0 throughout (no run, gap
longer than ``l_obs``), or constant (inside one settled event), is never
expanded.  Only the block's buffers (reused) are held: memory grows neither
with the number of covered points nor with the number of events.

The values are the very products Algorithm 1 computes (``omega(a)`` and
``gamma(d)`` multiplied once), so ``TP_oi = AUC(min(I, I_hat))`` and the two
AUCs (eqs. 5-9) are sums of the same numbers, taken per block and added with
:func:`math.fsum`.
"""

from __future__ import annotations

import math
from typing import NamedTuple, Union

import numpy as np

__all__ = ["BLOCK", "CurveTables", "make_tables", "streamed_areas", "streamed_areas_with_sparse"]

#: Positions per block (small enough for the block's buffers to stay in cache).
BLOCK = 1 << 17

#: A curve over one block: ``None`` (0 throughout), a float (constant) or the values.
BlockCurve = Union[None, float, np.ndarray]


class CurveTables(NamedTuple):
    """Lookup tables of one parameter set.

    ``omega[a]`` for ``a = 0 .. S`` (``omega[S] = b_dur = omega(a)`` for every
    ``a >= S``); ``gamma[d]`` for ``d = 0 .. l_obs + 1`` (``gamma[l_obs + 1] = 0``,
    as for every ``d > l_obs``); ``settled[d] = b_dur * gamma[d]``.  Both ends
    repeat for ever, so the tables are read with ``mode="clip"``: no distance
    is ever clipped by hand.
    """

    omega: np.ndarray
    gamma: np.ndarray
    settled: np.ndarray
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
    gamma_ext = np.append(np.asarray(gamma_tab, dtype=np.float64), 0.0)
    return CurveTables(omega_tab, gamma_ext, b_dur * gamma_ext, int(gamma_tab.shape[0]) - 1)


class _Series:
    """One series and the state carried from block to block."""

    def __init__(self, y: np.ndarray, tables: CurveTables) -> None:
        self.y = y
        self.in_run = False  # whether the point before the block is a 1
        self.last_one = -(tables.l_obs + 2)  # p_end: no 1 yet, so d > l_obs
        self.event_start = -(tables.settle + 1)  # p_start: none yet (a irrelevant while d > l_obs)


class _Buffers:
    """Reused per-block buffers."""

    def __init__(self, block: int) -> None:
        self.d = np.empty(block, dtype=np.intp)
        self.a = np.empty(block, dtype=np.intp)
        self.changes = np.empty(block, dtype=np.bool_)
        self.values = (np.empty(block), np.empty(block))
        self.scratch = np.empty(block)


_NONE = np.zeros(0, dtype=np.intp)


def _block_runs(s: _Series, b0: int, n: int, d0: int, changes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Local starts of the runs that begin in the block at ``b0`` and ``d`` just before each.

    The runs are read from the block alone (where the series differs from
    the point before).  ``d`` before a run start is its gap of 0s; only the
    block's first run may have its previous 1 before the block, where ``d``
    enters clipped at ``d0`` (the very first run of the series measures its
    gap from the virtual ``p_end = -l_obs - 1`` Algorithm 1 starts with, so
    it opens an event).  Advances ``s.in_run`` and ``s.last_one``.
    """
    k = max(0, min(n, s.y.shape[0] - b0))  # points of the block inside the series
    if k == 0:
        return _NONE, _NONE
    seg = s.y[b0 : b0 + k]
    if b0 == 0:
        changes[0] = seg[0] != 0
        np.not_equal(seg[1:], seg[:-1], out=changes[1:k])
    else:
        np.not_equal(seg, s.y[b0 - 1 : b0 + k - 1], out=changes[:k])
    bounds = np.flatnonzero(changes[:k])
    starts, ends = (bounds[1::2], bounds[0::2]) if s.in_run else (bounds[0::2], bounds[1::2])
    starts = np.ascontiguousarray(starts)  # scattering through a strided index costs twice as much
    before = np.empty(starts.shape[0], dtype=np.intp)
    if s.in_run:
        np.subtract(starts, ends[: starts.shape[0]], out=before)
    elif starts.shape[0]:
        before[0] = int(starts[0]) - (s.last_one + 1 - b0)
        np.subtract(starts[1:], ends[: starts.shape[0] - 1], out=before[1:])
    if starts.shape[0]:
        before[0] = min(int(before[0]), int(starts[0]) + d0)
    s.in_run = bool(seg[k - 1])
    if s.in_run:
        s.last_one = b0 + k - 1
    elif ends.shape[0]:
        s.last_one = b0 + int(ends[-1]) - 1
    return starts, before


def _distance_from_last_one(s: _Series, b0: int, n: int, loc: np.ndarray, before: np.ndarray, d0: int,
                            d: np.ndarray) -> None:
    """``d = t - p_end`` over the block (exact up to ``l_obs + 1``), in place in ``d[:n]``.

    Increment 1 on every 0 and 0 inside a run; at a run start the increment
    cancels the running value ``before`` (``before`` is negated in place).
    """
    k = max(0, min(n, s.y.shape[0] - b0))  # points of the block inside the series
    np.subtract(1, s.y[b0 : b0 + k], out=d[:k])
    d[k:n] = 1
    d[loc] = np.negative(before, out=before)
    d[0] += d0
    np.cumsum(d[:n], out=d[:n])


def _distance_from_event_start(s: _Series, b0: int, n: int, openers: np.ndarray, a0: int, a: np.ndarray) -> None:
    """``a = t - p_start`` over the block (exact up to ``S``), in place in ``a[:n]``.

    ``openers`` are the local starts of the runs that open a new event; ``a``
    enters the block clipped at ``a0``.
    """
    a[:n] = 1
    if openers.size:
        before = np.empty(openers.size, dtype=np.intp)
        before[0] = min(int(openers[0]) + a0, int(openers[0]) - 1 - (s.event_start - b0))
        np.subtract(openers[1:], openers[:-1], out=before[1:])
        before[1:] -= 1
        a[openers] = np.negative(before, out=before)
    a[0] += a0
    np.cumsum(a[:n], out=a[:n])


def _block_curve(s: _Series, b0: int, b1: int, tab: CurveTables, buf: _Buffers, out: np.ndarray) -> BlockCurve:
    """The interest curve of series ``s`` over ``[b0, b1)``; advances ``s``'s carried state."""
    n = b1 - b0
    d0 = min(b0 - 1 - s.last_one, tab.l_obs + 1)
    a0 = min(b0 - 1 - s.event_start, tab.settle)
    in_run = s.in_run
    loc, before = _block_runs(s, b0, n, d0, buf.changes)
    if loc.shape[0] == 0:
        if d0 > tab.l_obs and not s.in_run:  # no 1 in the block and the last one is more than l_obs back
            return None
        if in_run and s.last_one == b1 - 1 and a0 >= tab.settle:  # inside one settled event throughout
            return float(tab.omega[tab.settle])
    openers = loc[before >= tab.l_obs]  # t - p_end > l_obs: a new event (Algorithm 1)
    _distance_from_last_one(s, b0, n, loc, before, d0, buf.d)
    d, values = buf.d[:n], out[:n]
    if openers.shape[0] == 0 and a0 >= tab.settle:  # omega = b_dur throughout
        np.take(tab.settled, d, out=values, mode="clip")
    else:
        _distance_from_event_start(s, b0, n, openers, a0, buf.a)
        np.take(tab.omega, buf.a[:n], out=values, mode="clip")
        values *= np.take(tab.gamma, d, out=buf.scratch[:n], mode="clip")
    if openers.shape[0]:
        s.event_start = int(openers[-1]) + b0
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
    tables: CurveTables,
    block: int = 0,
) -> tuple[float, float, float]:
    """``(TP_oi, AUC(I), AUC(I_hat))`` (eqs. 5-9) of two validated 0/1 int8 series, block by block.

    Parameters
    ----------
    y_true, y_pred : ndarray of int8, shape (T,)
    tables : CurveTables
        From :func:`make_tables` (``l_obs >= 1``).
    block : int, optional
        Positions per block (default :data:`BLOCK`).
    """
    block = block or BLOCK
    total = y_true.shape[0] + tables.l_obs
    buf = _Buffers(block)
    series = [_Series(y_true, tables), _Series(y_pred, tables)]
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
    buf = _Buffers(block)
    large = _Series(y_large, tables)
    tp, auc = [], []
    lo = 0
    bound = np.empty(1, dtype=positions.dtype)  # searchsorted in the positions' own dtype: no cast of the array
    for b0 in range(0, total, block):
        b1 = min(b0 + block, total)
        curve = _block_curve(large, b0, b1, tables, buf, buf.values[0])
        auc.append(_area(curve, b1 - b0))
        bound[0] = b1
        hi = lo + int(np.searchsorted(positions[lo:], bound)[0])
        if hi > lo and curve is not None:
            small = values[lo:hi]
            if isinstance(curve, float):
                tp.append(float(np.minimum(small, curve, out=buf.scratch[: hi - lo]).sum()))
            else:
                at = np.take(curve, positions[lo:hi] - b0, out=buf.values[1][: hi - lo], mode="clip")
                tp.append(float(np.minimum(small, at, out=at).sum()))
        lo = hi
    return math.fsum(tp), math.fsum(auc)
