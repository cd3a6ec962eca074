"""Streaming kernels of the AM evaluator (affiliation metrics, Huet et al., KDD 2022, Sec. 3).

The evaluator works on events, never on points, and visits them in blocks
small enough to stay in the processor's cache, so that series with millions
of events (an alternating series has ``T / 2``) cost a bounded amount of
memory and few passes over memory:

1. :func:`series_events` finds the event bounds of a series block by block
   (``BLOCK_POINTS`` points at a time, one reused buffer).
2. :func:`stream_zones` walks the affiliation zones ``ZONE_BLOCK`` at a time.
   For each zone ``j`` it counts the predicted events that end at or before
   its left border and start before its right border (a merge of sorted
   positions, by binary search or by one dense running count over the
   block, whichever is cheaper), so zone ``j`` holds the predicted events
   ``f_j .. l_j - 1``, clipped to the zone: its *pieces* ``Y_j``.
3. The zones of a block are cut into groups of at most ``PIECE_BLOCK``
   pieces; a zone with more pieces than that is visited alone, in runs of
   pieces that each know their neighbours.  Per piece, the closed forms of
   :func:`precision_integrals` and :func:`recall_gap_integrals` give the
   integrals of Sec. 3, summed per zone with ``np.add.reduceat``.

Every coordinate is a multiple of 1/2 and every closed form is a product of
differences, so the integrals are exact (or correctly rounded) while
``T`` stays below about ``2**24``; the per-zone sums do not depend on the
block sizes beyond the order of additions.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

__all__ = [
    "BLOCK_POINTS",
    "DENSE_SPAN_FACTOR",
    "PIECE_BLOCK",
    "ZONE_BLOCK",
    "index_dtype",
    "anchored_deficit",
    "mirrored_deficit",
    "piece_sums",
    "precision_outside",
    "series_events",
    "stream_zones",
]

#: Points per block when extracting event bounds.
BLOCK_POINTS = 1 << 16
#: Affiliation zones per block (cut counting).
ZONE_BLOCK = 1 << 14
#: Predicted pieces per group (closed forms); bounds the temporaries of one call.
PIECE_BLOCK = 1 << 14

#: A block's cut counting uses one dense running count when the span of its
#: cuts is at most this many times (number of cuts x log2 of predicted events).
DENSE_SPAN_FACTOR = 4

#: ``sink(first_zone, precision_sum, piece_length, recall_deficit)``: per-zone results of one group.
Sink = Callable[[int, np.ndarray, np.ndarray, np.ndarray], None]


def index_dtype(length: int) -> type:
    """int32 while doubled coordinates ``2 * T`` fit in it, else int64."""
    return np.int32 if 2 * length < 2**31 - 1 else np.int64


def series_events(y: np.ndarray, dtype: type) -> tuple[np.ndarray, np.ndarray]:
    """Events ``[start, end)`` of a 0/1 int8 or bool series, as two ``dtype`` arrays (views).

    Two passes of ``BLOCK_POINTS`` points: the first counts the bounds (a
    bound sits where a point differs from its left neighbour, the series
    padded with 0), the second writes them into one preallocated array.
    """
    b = y.view(np.bool_)
    n = b.shape[0]
    buf = np.empty(min(BLOCK_POINTS, n), dtype=np.bool_)
    total = int(b[0]) + int(b[-1])
    for s in range(1, n, BLOCK_POINTS):
        e = min(s + BLOCK_POINTS, n)
        total += int(np.count_nonzero(np.not_equal(b[s:e], b[s - 1 : e - 1], out=buf[: e - s])))
    bounds = np.empty(total, dtype=dtype)
    k = 0
    if b[0]:
        bounds[0] = 0
        k = 1
    for s in range(1, n, BLOCK_POINTS):
        e = min(s + BLOCK_POINTS, n)
        idx = np.flatnonzero(np.not_equal(b[s:e], b[s - 1 : e - 1], out=buf[: e - s]))
        part = bounds[k : k + idx.shape[0]]
        np.add(idx, s, out=part, casting="unsafe")
        k += idx.shape[0]
    if b[-1]:
        bounds[k] = n
    return bounds[0::2], bounds[1::2]


def count_at_most(sorted_values: np.ndarray, queries: np.ndarray) -> np.ndarray:
    """``searchsorted(sorted_values, queries, "right")`` for increasing integer ``queries``.

    Only the values between the first and the last query are looked at;
    when they are dense relative to the queries' span, one running count
    over the span (a cumulative sum of marks) replaces the binary searches.
    """
    kind = sorted_values.dtype.type
    k0 = int(np.searchsorted(sorted_values, kind(queries[0]), side="right"))
    k1 = int(np.searchsorted(sorted_values, kind(queries[-1]), side="right"))
    if k1 == k0:
        return np.full(queries.shape[0], k0, dtype=np.int64)
    inner = sorted_values[k0:k1]
    first = int(queries[0])
    span = int(queries[-1]) - first
    if span > DENSE_SPAN_FACTOR * queries.shape[0] * max(1, int(k1 - k0).bit_length()):
        return np.searchsorted(inner, queries.astype(inner.dtype), side="right") + k0
    marks = np.bincount(inner - first, minlength=span + 1)
    np.cumsum(marks, out=marks)
    counts = np.take(marks, queries - first)
    counts += k0
    return counts


def zone_borders(gs: np.ndarray, ge: np.ndarray, j0: int, j1: int, length: int) -> np.ndarray:
    """Doubled zone borders ``2 lo_j0, 2 lo_{j0+1} = 2 hi_j0, ..., 2 hi_{j1-1}`` (int64, ``j1 - j0 + 1`` values).

    The border between zones ``i`` and ``i + 1`` is the midpoint
    ``(ge[i] + gs[i + 1]) / 2`` of the gap between their events; the first
    zone starts at 0 and the last ends at ``T``.
    """
    n = gs.shape[0]
    c0, c1 = max(j0 - 1, 0), min(j1, n - 1)
    cuts = np.empty(j1 - j0 + 1, dtype=np.int64)
    head = 1 if j0 == 0 else 0
    inner = cuts[head : head + (c1 - c0)]
    np.add(ge[c0:c1], gs[c0 + 1 : c1 + 1], out=inner, dtype=np.int64)
    if head:
        cuts[0] = 0
    if j1 == n:
        cuts[-1] = 2 * length
    return cuts


def piece_ranges(ps: np.ndarray, pe: np.ndarray, cuts: np.ndarray, j0: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """First and one-past-last predicted event of each zone of a block (``f_j``, ``l_j``).

    ``f_j`` counts the predicted events ending at or before ``lo_j``
    (``2 end <= cut``), ``l_j`` those starting before ``hi_j``
    (``2 start < cut``): the second count exceeds the first by one exactly
    when the cut falls strictly inside a predicted event.
    """
    m = ps.shape[0]
    inner = slice(1 if j0 == 0 else 0, cuts.shape[0] - (1 if j0 + cuts.shape[0] - 1 == n else 0))
    ended = np.zeros(cuts.shape[0], dtype=np.int64)
    started = np.zeros(cuts.shape[0], dtype=np.int64)
    if j0 + cuts.shape[0] - 1 == n:
        ended[-1] = started[-1] = m
    inside = cuts[inner]
    if inside.shape[0] and m:
        count = count_at_most(pe, inside >> 1)
        ended[inner] = count
        clipped = np.minimum(count, m - 1)
        k0 = int(clipped[0])
        nxt = np.take(ps[k0 : int(clipped[-1]) + 1], clipped - k0).astype(np.int64)
        nxt *= 2
        started[inner] = count + ((count < m) & (nxt < inside))
    return ended[:-1], started[1:]


def precision_outside(
    u: np.ndarray, v: np.ndarray, a: np.ndarray, b: np.ndarray, lo: np.ndarray, hi: np.ndarray
) -> np.ndarray:
    """``|I_j| * ∫_{[u, v] \\ J_j} S_j(dist(y, J_j)) dy`` for pieces ``[u, v]`` of zones ``[lo, hi]`` around ``J_j = [a, b]``.

    With ``L = a - lo`` and ``R = hi - b``, the integrand times ``W = hi - lo``
    is ``(y - lo) + (y - (a - R))_+`` left of ``J`` and
    ``(hi - y) + ((b + L) - y)_+`` right of it (Huet et al., Sec. 3: the
    zone's instants at least as far from ``J`` as ``y``); inside ``J`` it is
    ``W`` (added by the caller).  Each linear or ramp term integrates to a
    product of a difference and a sum of clipped bounds,
    ``∫_{x1}^{x2} (y - c) dy = (x2 - x1)(x1 + x2 - 2c) / 2``.
    """
    total = np.zeros(u.shape[0])
    s = np.empty(u.shape[0])
    t = np.empty(u.shape[0])
    x1 = np.minimum(u, a)
    x2 = np.minimum(v, a)
    _add_linear(total, x1, x2, lo, 1.0, s)
    np.subtract(a, hi, out=t)
    t += b  # a - R
    _add_ramp(total, x1, x2, t, 1.0, s)
    np.maximum(u, b, out=x1)
    np.maximum(v, b, out=x2)
    _add_linear(total, x1, x2, hi, -1.0, s)
    np.add(b, a, out=t)
    t -= lo  # b + L
    _add_ramp(total, x1, x2, t, -1.0, s)
    return total


def _add_linear(total: np.ndarray, x1: np.ndarray, x2: np.ndarray, c: np.ndarray, sign: float, work: np.ndarray) -> None:
    """``total += sign * ∫_{x1}^{x2} (y - c) dy``, as ``(x2 - x1)(x1 + x2 - 2c) / 2`` (``work`` is scratch)."""
    np.add(x1, x2, out=work)
    work -= c
    work -= c
    work *= 0.5 * sign
    d = x2 - x1
    d *= work
    total += d


def _add_ramp(total: np.ndarray, x1: np.ndarray, x2: np.ndarray, c: np.ndarray, sign: float, work: np.ndarray) -> None:
    """``total += ∫_{x1}^{x2} (sign (y - c))_+ dy``: ``sign (e2^2 - e1^2) / 2`` with ``e = (sign (x - c))_+``."""
    e1 = np.subtract(x1, c) if sign > 0 else np.subtract(c, x1)
    np.subtract(x2, c, out=work) if sign > 0 else np.subtract(c, x2, out=work)
    np.maximum(e1, 0.0, out=e1)
    np.maximum(work, 0.0, out=work)
    d = work - e1
    work += e1
    d *= work
    d *= 0.5 * sign
    total += d


def piece_sums(
    u: np.ndarray, v: np.ndarray, owner: np.ndarray, width: np.ndarray,
    geometry: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    left_start: np.ndarray, right_end: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per zone (``owner`` indexes ``width``): ``|I_j| ∫_{Y_j} S_j``, ``|Y_j|`` and the recall deficit.

    ``geometry`` holds each piece's ``a, b, lo, hi``.  Inside ``J_j`` the
    precision integrand is 1, so only pieces reaching outside ``J_j`` enter
    :func:`precision_outside`.  Recall (Sec. 3): ``J_j`` splits into the
    stretches nearest to each piece, ``[left_start, right_end]``; inside the
    piece ``d = 0``, and only the non-empty stretches after it
    (``[max(v, a), min(right_end, b)]``, ``d = x - v``) and before it (the
    mirror image) enter :func:`anchored_deficit`, the integral of
    ``min(d, hi - x) + min(d, x - lo)``.  Then
    ``R_j = 1 - deficit / (|I_j| |J_j|)``.
    """
    a, b, lo, hi = geometry
    k = width.shape[0]
    inside = np.minimum(v, b)
    inside -= np.maximum(u, a)
    np.maximum(inside, 0.0, out=inside)
    length = v - u
    outside = inside < length
    precision = _per_zone(owner, inside, k)
    precision *= width
    precision += _masked_sum(outside, owner, k, precision_outside, u, v, a, b, lo, hi)
    x1 = np.maximum(v, a)
    x2 = np.minimum(right_end, b)
    deficit = _masked_sum(np.less(x1, x2, out=outside), owner, k, anchored_deficit, x1, x2, v, hi)
    np.maximum(left_start, a, out=x1)
    np.minimum(u, b, out=x2)
    deficit += _masked_sum(np.less(x1, x2, out=outside), owner, k, mirrored_deficit, x1, x2, u, lo)
    return precision, _per_zone(owner, length, k), deficit


def _per_zone(owner: np.ndarray | None, values: np.ndarray, k: int) -> np.ndarray:
    """Sums of ``values`` per zone ``owner`` (``None``: piece ``i`` is zone ``i``'s only piece)."""
    return values if owner is None else np.bincount(owner, values, k)


def _masked_sum(
    mask: np.ndarray, owner: np.ndarray | None, k: int, kernel: Callable[..., np.ndarray], *arrays: np.ndarray
) -> np.ndarray:
    """Per-zone sums of ``kernel`` over the pieces where ``mask`` holds (the others contribute 0)."""
    idx = np.flatnonzero(mask)
    if idx.shape[0] == 0:
        return np.zeros(k)
    if idx.shape[0] == mask.shape[0]:
        return _per_zone(owner, kernel(*arrays), k)
    values = kernel(*(np.take(x, idx) for x in arrays))
    if owner is None:
        out = np.zeros(k)
        out[idx] = values
        return out
    return np.bincount(np.take(owner, idx), values, k)


def mirrored_deficit(x1: np.ndarray, x2: np.ndarray, q: np.ndarray, near: np.ndarray) -> np.ndarray:
    """:func:`anchored_deficit` of a stretch ``[x1, x2]`` before its piece ``[q, ..]`` (``near <= x1``): ``x -> -x``."""
    return anchored_deficit(-x2, -x1, -q, -near)


def anchored_deficit(x1: np.ndarray, x2: np.ndarray, p: np.ndarray, far: np.ndarray) -> np.ndarray:
    """``∫_{x1}^{x2} (d + min(d, far - x)) dx`` with ``d = x - p``, for ``p <= x1 < x2 <= far``.

    ``min(d, far - x) = d - 2 (x - c)_+`` with the kink ``c = (p + far) / 2``,
    so the integral is ``(x2 - x1)(x1 + x2 - 2p) - (e2^2 - e1^2)`` with
    ``e = (x - c)_+``.  The stretch before a piece is the mirror image
    ``x -> -x`` (:func:`mirrored_deficit`).
    """
    d = x2 - x1
    w = x1 + x2
    w -= p
    w -= p
    d *= w  # 2 ∫ d(x) dx
    np.add(p, far, out=w)
    w *= 0.5  # the kink c
    e1 = np.subtract(x1, w)
    np.subtract(x2, w, out=w)
    np.maximum(e1, 0.0, out=e1)
    np.maximum(w, 0.0, out=w)
    diff = w - e1
    w += e1
    diff *= w
    d -= diff
    return d


def stream_zones(gs: np.ndarray, ge: np.ndarray, ps: np.ndarray, pe: np.ndarray, length: int, sink: Sink) -> None:
    """Per-zone integrals of Sec. 3 for every zone holding a prediction, ``ZONE_BLOCK`` zones at a time.

    ``sink(zones, width, event_length, precision_w, piece_length, recall_deficit)``
    receives, for the zones ``zones`` (increasing, each once) with
    ``|Y_j| > 0``: ``|I_j|``, ``|J_j|``, ``|I_j| ∫_{Y_j} S_j``, ``|Y_j|`` and the
    recall deficit of :func:`recall_gap_integrals` summed over ``Y_j``.
    """
    n = gs.shape[0]
    for j0 in range(0, n, ZONE_BLOCK):
        j1 = min(j0 + ZONE_BLOCK, n)
        cuts = zone_borders(gs, ge, j0, j1, length)
        first, stop = piece_ranges(ps, pe, cuts, j0, n)
        counts = stop - first
        borders = cuts * 0.5
        total = np.cumsum(counts)
        lo_zone = 0
        while lo_zone < j1 - j0:
            base = int(total[lo_zone - 1]) if lo_zone else 0
            hi_zone = int(np.searchsorted(total, base + PIECE_BLOCK, side="right"))
            if hi_zone == lo_zone:
                _big_zone(gs, ge, ps, pe, j0 + lo_zone, int(first[lo_zone]), int(stop[lo_zone]), borders[lo_zone:lo_zone + 2], sink)
                hi_zone = lo_zone + 1
            else:
                zones = slice(lo_zone, hi_zone)
                _zone_group(gs, ge, ps, pe, j0 + lo_zone, first[zones], counts[zones], borders[lo_zone:hi_zone + 1], sink)
            lo_zone = hi_zone


def _zone_group(
    gs: np.ndarray, ge: np.ndarray, ps: np.ndarray, pe: np.ndarray, j0: int,
    first: np.ndarray, counts: np.ndarray, borders: np.ndarray, sink: Sink,
) -> None:
    """Zones ``j0 ..`` (all their pieces, at most ``PIECE_BLOCK``) into ``sink``."""
    k = counts.shape[0]
    a = gs[j0 : j0 + k].astype(np.float64)
    b = ge[j0 : j0 + k].astype(np.float64)
    lo, hi = borders[:-1], borders[1:]
    width = hi - lo
    b -= a  # |J_j| from here on; the pieces need a + |J_j|
    e0 = int(first[0])
    if counts.min() == 1 and counts.max() == 1 and int(first[-1]) - e0 == k - 1:
        # Each zone holds exactly one piece, of its own predicted event: pieces and zones coincide.
        u = np.maximum(ps[e0 : e0 + k], lo)
        v = np.minimum(pe[e0 : e0 + k], hi)
        sums = piece_sums(u, v, None, width, (a, a + b, lo, hi), lo, hi)
        sink(np.arange(j0, j0 + k), width, b, *sums)
        return
    has = counts > 0
    if not has.any():
        return
    owner, event, e0 = _expand(first, counts)
    pa, pb, plo, phi = (np.take(x, owner) for x in (a, a + b, lo, hi))
    e1 = e0 + int(event[-1]) + 1
    u = np.maximum(np.take(ps[e0:e1], event), plo)
    v = np.minimum(np.take(pe[e0:e1], event), phi)
    left_start, right_end = _neighbour_bounds(u, v, owner[1:] == owner[:-1], plo, phi)
    sums = piece_sums(u, v, owner, width, (pa, pb, plo, phi), left_start, right_end)
    zones = np.flatnonzero(has)
    sink(zones + j0, width[zones], b[zones], *(x[zones] for x in sums))


def _expand(first: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Zone (local) and predicted event (relative to the returned first event) of every piece."""
    offsets = np.cumsum(counts)
    offsets -= counts
    owner = np.repeat(np.arange(counts.shape[0]), counts)
    e0 = int(first[0])
    event = np.repeat(first - (offsets + e0), counts)
    event += np.arange(event.shape[0])
    return owner, event, e0


def _neighbour_bounds(
    u: np.ndarray, v: np.ndarray, same: np.ndarray, lo: np.ndarray, hi: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Stretch ``[left_start, right_end]`` where each piece is the nearest one of its zone.

    ``same[i]``: pieces ``i`` and ``i + 1`` share a zone; the stretch between
    them splits at its midpoint, otherwise it ends at the zone border.
    """
    mid = v[:-1] + u[1:]
    mid *= 0.5
    left_start = lo.copy()
    right_end = hi.copy()
    np.copyto(left_start[1:], mid, where=same)
    np.copyto(right_end[:-1], mid, where=same)
    return left_start, right_end


def _big_zone(
    gs: np.ndarray, ge: np.ndarray, ps: np.ndarray, pe: np.ndarray, j: int,
    first: int, stop: int, borders: np.ndarray, sink: Sink,
) -> None:
    """Zone ``j`` with more than ``PIECE_BLOCK`` pieces, in runs that each see their neighbours."""
    a, b = float(gs[j]), float(ge[j])
    lo, hi = float(borders[0]), float(borders[1])
    width = np.array([hi - lo])
    sums = [np.zeros(1), np.zeros(1), np.zeros(1)]
    for k0 in range(first, stop, PIECE_BLOCK):
        k1 = min(k0 + PIECE_BLOCK, stop)
        e0, e1 = max(k0 - 1, first), min(k1 + 1, stop)  # one neighbour on each side
        u = np.maximum(ps[e0:e1], lo)
        v = np.minimum(pe[e0:e1], hi)
        full = np.ones(e1 - e0)
        left_start, right_end = _neighbour_bounds(u, v, full[1:] > 0, full * lo, full * hi)
        keep = slice(k0 - e0, k1 - e0)
        geometry = tuple(full[keep] * x for x in (a, b, lo, hi))
        owner = np.zeros(k1 - k0, dtype=np.intp)
        run = piece_sums(u[keep], v[keep], owner, width, geometry, left_start[keep], right_end[keep])  # type: ignore[arg-type]
        for total, part in zip(sums, run):
            total += part
    sink(np.array([j]), width, np.array([b - a]), *sums)
