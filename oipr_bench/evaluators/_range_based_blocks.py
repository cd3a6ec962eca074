"""Block-streamed sums behind RP/RR (Tatbul et al., NeurIPS 2018), see :mod:`.range_based`.

The series is cut into blocks of about :data:`BLOCK` points at positions where
both series are 0, so that no real or predicted range crosses a block border
and every block is scored on its own.  Inside a block:

* the real ranges ``R``, predicted ranges ``P`` and their *overlaps* (the
  events of ``y_true & y_pred``) are read from the block's bounds; two ranges
  of one series never touch, so every overlap is exactly one intersection
  ``R_i & P_j`` and every overlapping pair has exactly one overlap;
* the owner of an overlap in each series (the range containing its first
  point) is the rank of its start among that series' bounds: one running count
  over the block's points when bounds are dense, binary search when sparse;
* for each owning range, the positional-bias weighted size of its overlaps and
  their number (the cardinality ``x``) give its recall (or precision) term
  ``alpha * existence + (1 - alpha) * gamma * sum omega`` (Tatbul et al.,
  eqs. 3-10).  Ranges without overlap score 0.

Block buffers are reused, positions are block-relative, and the work per block
is a few whole-block operations, so time and memory are O(T) with small
constants whatever the number of events.
"""

from __future__ import annotations

import numpy as np

__all__ = ["BLOCK", "prefix_weight", "overlap_weight", "range_weight", "side_sum", "BlockScorer"]

#: Nominal points per block (a block is extended to the next point that is 0
#: in both series, so ranges never cross a block border).
BLOCK = 1 << 15
#: Largest nominal points per block (sparse series).
MAX_BLOCK = 1 << 20
#: Bounds (range starts and ends of both series) a block is sized to hold.
BOUNDS_PER_BLOCK = 1 << 15


def triangular(n: np.ndarray) -> np.ndarray:
    """Triangular numbers ``n (n + 1) / 2`` in exact integer arithmetic."""
    return (n * (n + 1)) >> 1


def prefix_weight(n: np.ndarray, length: np.ndarray, bias: str) -> np.ndarray:
    """``W(n, L) = sum_{i=1}^{n} delta(i, L)`` for ``0 <= n <= L`` (int64, exact).

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
    half = length // 2
    return np.where(n <= half, triangular(n), triangular(half) + triangular(length - half) - triangular(length - n))


def overlap_weight(a: np.ndarray, b: np.ndarray, start: np.ndarray, end: np.ndarray, bias: str) -> np.ndarray:
    """Bias-weighted size ``W(b - s, L) - W(a - s, L)`` of overlaps ``[a, b)`` of ranges ``[s, e)`` (exact).

    Closed forms: flat ``b - a``; front ``T(e - a) - T(e - b) = (b - a)(2e + 1 - a - b) / 2``;
    back ``T(b - s) - T(a - s) = (b - a)(a + b + 1 - 2s) / 2`` (both products are even).
    """
    if bias == "flat":
        return b - a
    if bias == "front":
        return ((b - a) * (2 * end + 1 - a - b)) >> 1
    if bias == "back":
        return ((b - a) * (a + b + 1 - 2 * start)) >> 1
    length = end - start
    return prefix_weight(b - start, length, bias) - prefix_weight(a - start, length, bias)


def range_weight(length: np.ndarray, bias: str) -> np.ndarray:
    """``W(L, L)``, the positional-bias weight of whole ranges of ``length`` points."""
    if bias == "flat":
        return length
    if bias in ("front", "back"):
        return (length * (length + 1)) >> 1
    half = length >> 1
    return ((half * (half + 1)) >> 1) + (((length - half) * (length - half + 1)) >> 1)


def side_sum(
    own_s: np.ndarray, own_e: np.ndarray, z_s: np.ndarray, z_e: np.ndarray, owner: np.ndarray,
    alpha: float, cardinality: str, bias: str,
) -> float:
    """Sum over one series' ranges of ``alpha * existence + (1 - alpha) * gamma * sum omega``.

    Parameters
    ----------
    own_s, own_e : ndarray of int
        Bounds of the ranges of the scored series (real ranges for RR,
        predicted ranges for RP).
    z_s, z_e : ndarray of int
        Bounds of the overlaps ``R_i & P_j``, in increasing order.
    owner : ndarray of int
        Index of the range containing each overlap (non-decreasing).
    alpha, cardinality, bias : float, str, str
        Existence weight, cardinality function and positional bias.

    Returns
    -------
    float
        Sum of the per-range terms (ranges without overlap add 0).  A range's
        overlap weights are summed exactly (integers) before the one division
        by ``W(L, L)``, as in Tatbul et al.'s ``omega``.
    """
    if owner.shape[0] == 0:
        return 0.0
    start = own_s[owner]
    end = own_e[owner]
    covered = overlap_weight(z_s, z_e, start, end, bias)
    new = np.empty(owner.shape[0], dtype=np.bool_)
    new[0] = True
    np.not_equal(owner[1:], owner[:-1], out=new[1:])
    first = np.flatnonzero(new)
    count = None
    if first.shape[0] < owner.shape[0]:  # some range has several overlaps
        covered = np.add.reduceat(covered, first)
        count = np.diff(first, append=owner.shape[0])
        start, end = start[first], end[first]
    omega = covered / range_weight(end - start, bias)
    if cardinality == "reciprocal" and count is not None:
        omega /= count
    return float(np.sum(alpha + (1.0 - alpha) * omega))


def _edges(y: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``out[x] = y[x] != y[x - 1]`` for ``0 <= x <= n`` with ``y`` padded by 0 (view of ``out``)."""
    n = y.shape[0]
    edges = out[: n + 1]
    edges[0] = y[0]
    edges[n] = y[n - 1]
    np.not_equal(y[1:], y[:-1], out=edges[1:n])
    return edges


def _owners(bounds: np.ndarray, edges: np.ndarray, z_s: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Index of the range (bounds ``s0, e0, s1, e1, ...``) containing each overlap start ``z_s``.

    The number of bounds ``<= a`` is odd, ``2 i + 1``, for a point ``a`` of
    range ``i``.  Dense bounds: one running count over the block's edges;
    sparse: binary search.
    """
    n = edges.shape[0] - 1
    if z_s.shape[0] * max(1.0, float(np.log2(bounds.shape[0] + 1))) * 4 < n:
        rank = np.searchsorted(bounds, z_s, side="right")
    else:
        running = np.cumsum(edges[:n], out=counts[:n])
        rank = running[z_s]
    return rank >> 1


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
        self.alpha_r, self.alpha_p, self.cardinality = alpha_r, alpha_p, cardinality
        self.bias_r, self.bias_p = bias_r, bias_p
        self.block = max(1, int(BLOCK if block is None else block))
        self.max_block = max(self.block, int(MAX_BLOCK if max_block is None else max_block))
        self.sum_r = self.sum_p = 0.0
        self.n_r = self.n_p = 0
        self._buffers: list[np.ndarray] = []

    def run(self, t: np.ndarray, p: np.ndarray) -> "BlockScorer":
        """Score every block of the bool series ``t`` (real) and ``p`` (predicted)."""
        n, s0, size = t.shape[0], 0, self.block
        while s0 < n:
            s1 = block_end(t, p, s0 + size)
            n_bounds = self._block(t[s0:s1], p[s0:s1])
            size = (s1 - s0) * BOUNDS_PER_BLOCK // max(n_bounds, 1)
            size = min(max(size, self.block), self.max_block)
            s0 = s1
        return self

    def _buffer(self, k: int, n: int, dtype: type) -> np.ndarray:
        """Reused scratch buffer number ``k`` of at least ``n`` elements."""
        while len(self._buffers) <= k:
            self._buffers.append(np.empty(0, dtype=dtype))
        if self._buffers[k].shape[0] < n:
            self._buffers[k] = np.empty(max(n, min(2 * n, self.max_block + 1)), dtype=dtype)
        return self._buffers[k]

    def _block(self, tb: np.ndarray, pb: np.ndarray) -> int:
        """Add one block's range terms and range counts; return its number of bounds.

        No range crosses the block's borders (see :func:`block_end`).
        """
        n = tb.shape[0] + 1
        edges_t = _edges(tb, self._buffer(0, n, np.bool_))
        edges_p = _edges(pb, self._buffer(1, n, np.bool_))
        b_t = np.flatnonzero(edges_t)
        b_p = np.flatnonzero(edges_p)
        self.n_r += b_t.shape[0] >> 1
        self.n_p += b_p.shape[0] >> 1
        if b_t.shape[0] == 0 or b_p.shape[0] == 0:
            return b_t.shape[0] + b_p.shape[0]
        z = np.logical_and(tb, pb, out=self._buffer(2, n, np.bool_)[: n - 1])
        b_z = np.flatnonzero(_edges(z, self._buffer(3, n, np.bool_)))
        if b_z.shape[0]:
            z_s, z_e = b_z[0::2], b_z[1::2]
            counts = self._buffer(4, n, np.int32)
            owner_r = _owners(b_t, edges_t, z_s, counts)
            owner_p = _owners(b_p, edges_p, z_s, counts)
            self.sum_r += side_sum(b_t[0::2], b_t[1::2], z_s, z_e, owner_r, self.alpha_r, self.cardinality, self.bias_r)
            self.sum_p += side_sum(b_p[0::2], b_p[1::2], z_s, z_e, owner_p, self.alpha_p, self.cardinality, self.bias_p)
        return b_t.shape[0] + b_p.shape[0]


def block_end(t: np.ndarray, p: np.ndarray, s1: int) -> int:
    """First point ``>= s1`` that is 0 in both series (a block border no range crosses), else ``T``.

    The search scans a window that doubles while no such point is found (a
    series of ones becomes one block).
    """
    n = t.shape[0]
    width = 64
    while s1 < n:
        window = t[s1 : s1 + width] | p[s1 : s1 + width]
        hit = int(np.argmin(window))
        if not window[hit]:
            return s1 + hit
        s1 += window.shape[0]
        width *= 2
    return n
