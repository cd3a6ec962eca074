"""Block-streamed sums behind RP/RR (Tatbul et al., NeurIPS 2018), see :mod:`.range_based`.

The pair of series is cut into blocks of about :data:`BOUNDS_PER_BLOCK` range
bounds.  A block border is a point where ``y_true & y_pred`` is 0, so no
*overlap* (event of ``y_true & y_pred``, the one intersection ``R_i & P_j`` of
an overlapping real and predicted range) is ever cut.  Inside a block:

* the bounds of the real ranges, the predicted ranges and the overlaps are
  read from the block's points (``flatnonzero`` of neighbour differences);
* the owner of an overlap in each series (the range containing its first
  point) is the rank of its start among that series' bounds: one running count
  over the block's points of both series' bounds packed in one int64 when
  bounds are dense, binary search when sparse;
* the positional-bias weights of the overlaps (closed forms, exact integers)
  are summed per owning range with the number of its overlaps (the
  cardinality ``x``), giving the range's term ``alpha * existence + (1 -
  alpha) * gamma * omega`` of recall or precision (Tatbul et al., eqs. 3-10);
  ranges without overlap add 0.

A range crossing a block border keeps its true bounds (its end is looked up
once when it first crosses), and its overlaps are summed across blocks before
its one term is formed (:class:`Side`).  Per-event steps write into scratch
buffers reused from block to block (``out=``), so a block's work stays in
cache, memory is bounded by the block size and no array grows with the number
of events.  Weights are exact while ``L (L + 1) < 2**53`` (ranges shorter than
about 9e7 points); longer ranges get correctly rounded floating-point sums.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

__all__ = [
    "BLOCK", "MAX_BLOCK", "BOUNDS_PER_BLOCK", "DENSE_FACTOR", "SPARSE_FACTOR",
    "triangular", "prefix_weight", "side_sum", "Side", "BlockScorer", "block_end",
]

#: Smallest nominal points per block.
BLOCK = 1 << 12
#: Largest nominal points per block (sparse series).
MAX_BLOCK = 1 << 21
#: Bounds (range starts and ends of both series) a block is sized to hold.
BOUNDS_PER_BLOCK = 1 << 17
#: Owners come from a running count over the block's points when
#: ``overlaps * log2(bounds) * DENSE_FACTOR >= points``, else from binary search.
DENSE_FACTOR = 4.0
#: Overlap bounds come from the block's points when ``bounds * SPARSE_FACTOR >=
#: points``, else from the merged bounds of both series.
SPARSE_FACTOR = 10.0
#: ``buffer(name, n, dtype)``: a scratch array of at least ``n`` elements, reused between blocks.
Buffer = Callable[[str, int, type], np.ndarray]


def triangular(n: np.ndarray) -> np.ndarray:
    """Triangular numbers ``n (n + 1) / 2`` in exact integer arithmetic."""
    return (n * (n + 1)) >> 1


def prefix_weight(n: np.ndarray, length: np.ndarray, bias: str) -> np.ndarray:
    """``W(n, L) = sum_{i=1}^{n} delta(i, L)`` for ``0 <= n <= L`` (exact integers).

    Positional bias ``delta`` of Tatbul et al. (Fig. 2).  flat: ``n``; back:
    ``T(n)``; front: ``T(L) - T(L - n)``; middle with ``h = L // 2``: ``T(n)``
    for ``n <= h``, else ``T(h) + T(L - h) - T(L - n)``, where ``T`` are the
    triangular numbers.
    """
    if bias == "flat":
        return n
    if bias == "back":
        return triangular(n)
    if bias == "front":
        return triangular(length) - triangular(length - n)
    half = length >> 1
    return np.where(n <= half, triangular(n), triangular(half) + triangular(length - half) - triangular(length - n))


def _edges(y: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``out[x] = y[x] != y[x - 1]`` for ``0 <= x <= n``, ``y`` padded by 0 (a view of ``out``)."""
    n = y.shape[0]
    edges = out[: n + 1]
    edges[0] = y[0]
    edges[n] = y[n - 1]
    np.not_equal(y[1:], y[:-1], out=edges[1:n])
    return edges


def _overlap_bounds(tb: np.ndarray, pb: np.ndarray, b_t: np.ndarray, b_p: np.ndarray, buf: Buffer) -> np.ndarray:
    """Bounds of the overlaps (events of ``tb & pb``) of a block, from the bounds ``b_t``, ``b_p`` of both series.

    A bound of ``t & p`` is a bound of ``t`` or of ``p``.  With many bounds the
    block's points are read (neighbour differences of ``t & p``); with few,
    only the merged bounds of both series are tested, comparing ``t & p`` at
    each bound and just before it.
    """
    n = tb.shape[0]
    if b_t.shape[0] == 0 or b_p.shape[0] == 0:
        return b_t[:0]
    if (b_t.shape[0] + b_p.shape[0]) * SPARSE_FACTOR >= n:
        z = np.logical_and(tb, pb, out=buf("z", n + 1, np.bool_)[:n])
        return _edges(z, buf("edges_z", n + 1, np.bool_)).nonzero()[0]
    bounds = np.concatenate((b_t, b_p))
    bounds.sort(kind="stable")  # a merge of two sorted runs
    distinct = np.empty(bounds.shape[0], dtype=np.bool_)
    distinct[0] = True
    np.not_equal(bounds[1:], bounds[:-1], out=distinct[1:])
    bounds = bounds[distinct]
    after, before = np.minimum(bounds, n - 1), np.maximum(bounds - 1, 0)
    z_after = tb[after] & pb[after] & (bounds < n)
    z_before = tb[before] & pb[before] & (bounds > 0)
    return bounds[z_after != z_before]


def _owners(
    b_t: np.ndarray, b_p: np.ndarray, edges_t: np.ndarray, edges_p: np.ndarray, z_s: np.ndarray, buf: Buffer,
) -> tuple[np.ndarray, np.ndarray]:
    """Index of the real and of the predicted range containing each overlap start ``z_s``.

    For a point ``a`` of range ``i`` the number of the series' bounds ``<= a``
    is ``2 i + 1``.  Dense bounds: one running count over the block's points
    of both series' bounds packed in int64 (real in the low 32 bits); sparse
    bounds: binary search.
    """
    n, n_z = edges_t.shape[0] - 1, z_s.shape[0]
    owner_r, owner_p = buf("owner_r", n_z, np.int64)[:n_z], buf("owner_p", n_z, np.int64)[:n_z]
    if n_z * max(1.0, float(np.log2(max(b_t.shape[0], b_p.shape[0]) + 1))) * DENSE_FACTOR < n:
        np.right_shift(b_t.searchsorted(z_s, side="right"), 1, out=owner_r)
        np.right_shift(b_p.searchsorted(z_s, side="right"), 1, out=owner_p)
        return owner_r, owner_p
    running = buf("running", n, np.int64)[:n]
    np.left_shift(edges_p[:n], 32, out=running, dtype=np.int64)
    np.add(running, edges_t[:n], out=running, casting="unsafe")
    np.cumsum(running, out=running)
    running.take(z_s, out=owner_p, mode="clip")
    np.bitwise_and(owner_p, 0xFFFFFFFF, out=owner_r)
    np.right_shift(owner_p, 33, out=owner_p)
    np.right_shift(owner_r, 1, out=owner_r)
    return owner_r, owner_p


def _doubled_weights(
    a: np.ndarray, b: np.ndarray, anchor: np.ndarray | None, length: np.ndarray, bias: str, buf: Buffer,
) -> tuple[np.ndarray, np.ndarray]:
    """``c (W(b - s, L) - W(a - s, L))`` and ``c W(L, L)`` of overlaps ``[a, b)`` of ranges ``[s, e)`` (int64, exact).

    ``anchor`` is the range's end ``e`` for the front bias, its start ``s``
    for back and middle, unused for flat; ``length`` is ``L = e - s`` (both
    are overwritten).  ``c = 2`` for front and back, whose closed forms
    ``T(e - a) - T(e - b) = (b - a)(2e + 1 - a - b) / 2``, ``T(b - s) - T(a -
    s) = (b - a)(a + b + 1 - 2s) / 2`` and ``T(L) = L (L + 1) / 2`` are then
    halving-free; ``c = 1`` for flat and middle.  Only their ratio (omega) is
    used, which the common factor leaves unchanged.
    """
    m = a.shape[0]
    covered = buf("covered", m, np.int64)[:m]
    if bias == "middle":
        covered[:] = prefix_weight(b - anchor, length, bias) - prefix_weight(a - anchor, length, bias)
        length[:] = prefix_weight(length, length, bias)
        return covered, length
    np.subtract(b, a, out=covered)
    if bias == "flat":
        return covered, length
    np.left_shift(anchor, 1, out=anchor)
    if bias == "front":
        np.subtract(anchor, a, out=anchor)
        np.subtract(anchor, b, out=anchor)
    else:
        np.subtract(a, anchor, out=anchor)
        np.add(anchor, b, out=anchor)
    np.add(anchor, 1, out=anchor)
    np.multiply(covered, anchor, out=covered)
    np.add(length, 1, out=anchor)
    np.multiply(length, anchor, out=length)
    return covered, length


def side_sum(
    own: tuple[np.ndarray, np.ndarray], z_s: np.ndarray, z_e: np.ndarray, owner: np.ndarray,
    params: tuple[float, str, str], buf: Buffer,
) -> float:
    """Sum over one series' ranges of ``alpha * existence + (1 - alpha) * gamma * sum omega``.

    Parameters
    ----------
    own : (ndarray, ndarray)
        Starts and ends of the scored series' ranges (real ranges for RR,
        predicted ranges for RP).
    z_s, z_e : ndarray
        Bounds of the overlaps ``R_i & P_j``, in increasing order.
    owner : ndarray
        Index of the range containing each overlap (non-decreasing).
    params : (float, str, str)
        ``alpha``, cardinality function and positional bias.
    buf : callable
        Scratch buffers.

    Returns
    -------
    float
        Sum of the per-range terms; ranges without overlap add 0.  A range's
        overlap weights are summed exactly (integers) before the one division
        by ``W(L, L)``, as in Tatbul et al.'s ``omega``.
    """
    alpha, cardinality, bias = params
    m, n_own = owner.shape[0], own[0].shape[0]
    own_length = np.subtract(own[1], own[0], out=buf("own_length", n_own, np.int64)[:n_own])
    length = own_length.take(owner, out=buf("length", m, np.int64)[:m], mode="clip")
    anchor = None
    if bias != "flat":
        anchor = own[1 if bias == "front" else 0].take(owner, out=buf("anchor", m, np.int64)[:m], mode="clip")
    covered, total = _doubled_weights(z_s, z_e, anchor, length, bias, buf)
    new = buf("new", m, np.bool_)[:m]
    new[0] = True
    np.not_equal(owner[1:], owner[:-1], out=new[1:])
    if int(np.count_nonzero(new)) == m:  # no range has two overlaps: gamma = 1
        omega = np.divide(covered, total, out=buf("omega", m, np.float64)[:m])
        return alpha * m + (1.0 - alpha) * float(omega.sum())
    return _grouped_sum(covered, total, new.nonzero()[0], alpha, cardinality)


def _grouped_sum(covered: np.ndarray, total: np.ndarray, first: np.ndarray, alpha: float, cardinality: str) -> float:
    """:func:`side_sum` when some range has several overlaps (``first``: each range's first overlap)."""
    sums = np.add.reduceat(covered, first)
    omega = sums / total[first]
    if cardinality == "reciprocal":
        count = np.empty(first.shape[0], dtype=np.int64)
        count[-1] = covered.shape[0]
        count[:-1] = first[1:]
        omega /= count - first
    return alpha * first.shape[0] + (1.0 - alpha) * float(omega.sum())


def _covered_sum(z_s: np.ndarray, z_e: np.ndarray, start: int, end: int, bias: str, buf: Buffer) -> tuple[float, int]:
    """Summed (doubled) weight of overlaps ``[z_s, z_e)`` of the one range ``[start, end)``, and its (doubled) ``W(L, L)``."""
    m = z_s.shape[0] + 1
    a, b = buf("a", m, np.int64)[:m], buf("b", m, np.int64)[:m]
    a[0], b[0] = start, end
    a[1:], b[1:] = z_s, z_e
    anchor, length = buf("anchor", m, np.int64)[:m], buf("length", m, np.int64)[:m]
    anchor.fill(end if bias == "front" else start)
    length.fill(end - start)
    covered, total = _doubled_weights(a, b, anchor, length, bias, buf)
    return float(covered[1:].sum()), int(covered[0])


class Side:
    """Running sums of one series' range terms: real ranges (recall) or predicted ranges (precision).

    Parameters
    ----------
    y : ndarray of bool
        The series whose ranges are scored.
    alpha, cardinality, bias : float, str, str
        Existence weight, cardinality function and positional bias.

    Attributes
    ----------
    parts : list of float
        Sums of the terms of the ranges closed so far, one per block (added
        with :func:`math.fsum`, so the result does not depend on the blocks).
    ranges : int
        Number of ranges seen.
    open : list
        ``[start, end, covered, count]`` of the range crossing the current
        block's end (absolute bounds, summed overlap weight and number of
        overlaps so far), or ``None``.
    """

    def __init__(self, y: np.ndarray, alpha: float, cardinality: str, bias: str) -> None:
        self.y, self.params = y, (alpha, cardinality, bias)
        self.parts: list[float] = []
        self.ranges = 0
        self.open: list | None = None

    def add_block(
        self, s0: int, s1: int, bounds: np.ndarray, z_s: np.ndarray, z_e: np.ndarray, owner: np.ndarray, buf: Buffer,
    ) -> None:
        """Add the terms of the ranges of block ``[s0, s1)`` (block-relative ``bounds``, overwritten).

        A range crossing the block's start (end) has a false bound at 0 (at
        the block's length) in ``bounds``; it is replaced by the true one so
        that overlap weights are right, and the overlaps of such a range are
        summed into :attr:`open` until the range ends.
        """
        n_ranges = bounds.shape[0] >> 1
        was_open = self.open
        cont_out = s1 < self.y.shape[0] and bool(self.y[s1 - 1]) and bool(self.y[s1])
        self.ranges += n_ranges - (was_open is not None)
        if n_ranges == 0:
            return
        if was_open is not None:
            bounds[0] = was_open[0] - s0
        if cont_out:
            end = was_open[1] if (was_open is not None and n_ranges == 1) else _next_zero(self.y, s1)
            bounds[-1] = end - s0
        m = owner.shape[0]
        k0 = int(owner.searchsorted(1)) if was_open is not None else 0
        k1 = int(owner.searchsorted(n_ranges - 1)) if cont_out else m
        if was_open is not None:
            k0 = m if (cont_out and n_ranges == 1) else k0
            covered, _ = _covered_sum(z_s[:k0], z_e[:k0], was_open[0] - s0, was_open[1] - s0, self.params[2], buf)
            was_open[2] += covered
            was_open[3] += k0
            self.open = None
            if not (cont_out and n_ranges == 1):
                self.parts.append(self._term(was_open))
            else:
                self.open = was_open
                return
        if k1 > k0:
            own = (bounds[0::2], bounds[1::2])
            self.parts.append(side_sum(own, z_s[k0:k1], z_e[k0:k1], owner[k0:k1], self.params, buf))
        if cont_out:
            start, end = int(bounds[-2]), int(bounds[-1])
            covered, _ = _covered_sum(z_s[k1:], z_e[k1:], start, end, self.params[2], buf)
            self.open = [s0 + start, s0 + end, covered, m - k1]

    def close(self) -> None:
        """Add the term of a range still open at the end of the series (none: its end was found)."""
        if self.open is not None:
            self.parts.append(self._term(self.open))
            self.open = None

    def _term(self, range_: list) -> float:
        """``alpha * existence + (1 - alpha) * gamma * omega`` of one range ``[start, end, covered, count]``."""
        alpha, cardinality, bias = self.params
        start, end, covered, count = range_
        if count == 0:
            return 0.0
        empty = np.zeros(0, dtype=np.int64)
        _, total = _covered_sum(empty, empty, start, end, bias, lambda _name, n, dtype: np.empty(n, dtype=dtype))
        omega = covered / total
        if cardinality == "reciprocal":
            omega /= count
        return alpha + (1.0 - alpha) * omega


def _next_zero(y: np.ndarray, x: int) -> int:
    """First point ``>= x`` where ``y`` is 0, else ``T`` (windows that double)."""
    n, width = y.shape[0], 64
    while x < n:
        window = y[x : x + width]
        hit = int(np.argmin(window))
        if not window[hit]:
            return x + hit
        x += window.shape[0]
        width *= 2
    return n


class BlockScorer:
    """Stream a pair of 0/1 series block by block and accumulate RP/RR's sums.

    Parameters
    ----------
    alpha_r, alpha_p, cardinality, bias_r, bias_p
        The evaluator's parameters (see :class:`.range_based.RangeBased`).
    block, max_block : int, optional
        Smallest and largest nominal points per block (default :data:`BLOCK`
        and :data:`MAX_BLOCK`, read at construction): a block is sized from
        the previous block's number of bounds so that it holds about
        :data:`BOUNDS_PER_BLOCK` of them (tests force tiny blocks).
    """

    def __init__(
        self, alpha_r: float, alpha_p: float, cardinality: str, bias_r: str, bias_p: str,
        block: int | None = None, max_block: int | None = None,
    ) -> None:
        self.params = ((alpha_r, cardinality, bias_r), (alpha_p, cardinality, bias_p))
        self.block = max(1, int(BLOCK if block is None else block))
        self.max_block = max(self.block, int(MAX_BLOCK if max_block is None else max_block))
        self._buffers: dict[str, np.ndarray] = {}

    def run(self, t: np.ndarray, p: np.ndarray) -> tuple[float, float]:
        """Return ``(RR, RP)`` of the bool series ``t`` (real) and ``p`` (predicted).

        Degenerate policy of :mod:`.range_based`: no range scores 0.
        """
        recall, precision = Side(t, *self.params[0]), Side(p, *self.params[1])
        n, s0, size = t.shape[0], 0, self.block
        while s0 < n:
            s1 = block_end(t, p, s0 + size)
            n_bounds = self._block(s0, s1, recall, precision)
            size = (s1 - s0) * BOUNDS_PER_BLOCK // max(n_bounds, 1)
            size = min(max(size, self.block), self.max_block)
            s0 = s1
        self._buffers.clear()
        recall.close()
        precision.close()
        return tuple(math.fsum(side.parts) / side.ranges if side.ranges else 0.0 for side in (recall, precision))

    def buffer(self, name: str, n: int, dtype: type) -> np.ndarray:
        """Scratch buffer ``name`` of at least ``n`` elements, reused from block to block."""
        have = self._buffers.get(name)
        if have is None or have.shape[0] < n:
            have = self._buffers[name] = np.empty(max(n + (n >> 3), 16), dtype=dtype)  # headroom: block sizes vary
        return have

    def _block(self, s0: int, s1: int, recall: Side, precision: Side) -> int:
        """Add the terms of block ``[s0, s1)`` to both sides; return its number of bounds.

        No overlap crosses the block's borders (see :func:`block_end`); ranges
        may, and :class:`Side` carries them.
        """
        tb, pb = recall.y[s0:s1], precision.y[s0:s1]
        n, buf = s1 - s0 + 1, self.buffer
        edges_t, edges_p = _edges(tb, buf("edges_t", n, np.bool_)), _edges(pb, buf("edges_p", n, np.bool_))
        b_t, b_p = edges_t.nonzero()[0], edges_p.nonzero()[0]
        b_z = _overlap_bounds(tb, pb, b_t, b_p, buf)
        z_s, z_e = b_z[0::2], b_z[1::2]
        if b_z.shape[0]:
            owner_r, owner_p = _owners(b_t, b_p, edges_t, edges_p, z_s, buf)
        else:
            owner_r = owner_p = np.zeros(0, dtype=np.int64)
        recall.add_block(s0, s1, b_t, z_s, z_e, owner_r, buf)
        precision.add_block(s0, s1, b_p, z_s, z_e, owner_p, buf)
        return b_t.shape[0] + b_p.shape[0]


def block_end(t: np.ndarray, p: np.ndarray, s1: int) -> int:
    """First point ``>= s1`` that is 0 in ``t & p`` (a block border no overlap crosses), else ``T``.

    The search scans a window that doubles while no such point is found (a
    stretch where both series are 1 becomes one block; it holds one overlap).
    """
    n = t.shape[0]
    width = 64
    while s1 < n:
        window = t[s1 : s1 + width] & p[s1 : s1 + width]
        hit = int(np.argmin(window))
        if not window[hit]:
            return s1 + hit
        s1 += window.shape[0]
        width *= 2
    return n
