"""Streaming kernels of the AM evaluator (affiliation metrics, Huet et al., KDD 2022, Sec. 3).

The evaluator works on events, never on points, and visits them in blocks
small enough to stay in the processor's cache, so that series with millions
of events (an alternating series has ``T / 2``) cost bounded memory and few
passes over memory:

1. :func:`series_events` finds the event bounds of a series
   ``BLOCK_POINTS`` points at a time, in one reused buffer.
2. :func:`stream_zones` walks the affiliation zones ``ZONE_BLOCK`` at a time.
   :func:`piece_ranges` counts, for each zone ``j``, the predicted events
   that end at or before its left border and those that start before its
   right border (:func:`ends_at_most`: binary search, or one running count
   over the points of the block's span, whichever is cheaper), so zone ``j``
   holds the predicted events ``f_j .. l_j - 1`` clipped to the zone: its
   *pieces* ``Y_j``.
3. The zones of a block are cut into groups of at most ``PIECE_BLOCK``
   pieces; a zone with more pieces than that is visited alone, in runs of
   pieces that each know their neighbours.  :func:`piece_sums` applies the
   closed forms of Sec. 3 (:func:`precision_outside`,
   :func:`anchored_deficit`) to the pieces that need them (a piece inside
   ``J_j`` has precision integrand 1; a stretch of ``J_j`` covered by a piece
   has recall integrand 1) and sums them per zone.

Every coordinate is a multiple of 1/2, and every closed form is a product
of a difference and a sum of clipped bounds (never a difference of large
squares), so long series suffer no cancellation.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

__all__ = [
    "BLOCK_POINTS",
    "COMPACT_BELOW",
    "DENSE_SPAN_FACTOR",
    "PIECE_BLOCK",
    "ZONE_BLOCK",
    "anchored_deficit",
    "ends_at_most",
    "index_dtype",
    "mirrored_deficit",
    "piece_ranges",
    "piece_sums",
    "precision_outside",
    "series_events",
    "stream_zones",
    "zone_borders",
]

#: Points per block when extracting event bounds.
BLOCK_POINTS = 1 << 18
#: Affiliation zones per block (cut counting).
ZONE_BLOCK = 1 << 15
#: Predicted pieces per group (closed forms); bounds the temporaries of one call.
PIECE_BLOCK = 1 << 15

#: A block's cut counting uses one running count over the points of its span
#: when the span is at most this many times (number of cuts x log2 of predicted events).
DENSE_SPAN_FACTOR = 2

#: Closed forms run on the selected pieces only when fewer than one in this many is selected.
COMPACT_BELOW = 4

#: ``sink(zones, width, event_length, precision_integral, piece_length, recall_deficit)``: per-zone
#: results of one group (see :func:`stream_zones`; ``recall_deficit`` ``None`` means all 0).
Sink = Callable[..., None]


def index_dtype(length: int) -> type:
    """int32 while doubled coordinates ``2 * T`` fit in it, else int64."""
    return np.int32 if 2 * length < 2**31 - 1 else np.int64


def series_events(y: np.ndarray, dtype: type) -> tuple[np.ndarray, np.ndarray]:
    """Events ``[start, end)`` of a 0/1 int8 or bool series, as two ``dtype`` arrays (strided views).

    A bound sits where a point differs from its left neighbour (the series
    padded with 0).  They are found ``BLOCK_POINTS`` points at a time in one
    reused buffer and written as ``dtype`` straight into one array, sized
    for ``T / 16`` bounds at first and, once, for the most possible
    (``T + 1``) if the series has more; copied down if mostly unused.
    """
    b = y.view(np.bool_)
    n = b.shape[0]
    buf = np.empty(min(BLOCK_POINTS, n), dtype=np.bool_)
    bounds = np.empty(min(n + 1, max(BLOCK_POINTS, n // 16)), dtype=dtype)
    bounds[0] = 0
    k = int(b[0])
    for s in range(1, n, BLOCK_POINTS):
        e = min(s + BLOCK_POINTS, n)
        idx = np.flatnonzero(np.not_equal(b[s:e], b[s - 1 : e - 1], out=buf[: e - s]))
        if k + idx.shape[0] >= bounds.shape[0]:
            bounds = _grown(bounds, k, n + 1)
        np.add(idx, s, out=bounds[k : k + idx.shape[0]], casting="unsafe")
        k += idx.shape[0]
    if k >= bounds.shape[0]:
        bounds = _grown(bounds, k, n + 1)
    bounds[k] = n
    k += int(b[-1])
    bounds = bounds[:k].copy() if 4 * k < bounds.shape[0] else bounds[:k]
    return bounds[0::2], bounds[1::2]


def _grown(bounds: np.ndarray, k: int, size: int) -> np.ndarray:
    """A ``size``-long copy of ``bounds`` holding its first ``k`` values."""
    wider = np.empty(size, dtype=bounds.dtype)
    wider[:k] = bounds[:k]
    return wider


def ends_at_most(pe: np.ndarray, predicted: np.ndarray, queries: np.ndarray) -> np.ndarray:
    """Number of predicted events ending at or before each of the increasing ``queries``.

    ``searchsorted(pe, queries, "right")``, looking only at the ends between
    the first and the last query: when they are dense relative to the
    queries, one running count over the points of that span replaces the
    binary searches (an event ends at ``x`` when point ``x - 1`` is
    predicted and point ``x`` is not, read from ``predicted``).
    """
    kind = pe.dtype.type
    k0 = int(np.searchsorted(pe, kind(queries[0]), side="right"))
    k1 = int(np.searchsorted(pe, kind(queries[-1]), side="right"))
    if k1 == k0:
        return np.full(queries.shape[0], k0, dtype=np.int64)
    first = int(queries[0])
    last = int(queries[-1])
    if last - first > DENSE_SPAN_FACTOR * queries.shape[0] * max(1, (k1 - k0).bit_length()):
        inner = pe[k0:k1]
        return np.searchsorted(inner, queries.astype(inner.dtype), side="right") + k0
    # running[i] = ends in (first, first + i]; an end at x <= last < T is a 1 -> 0 step.
    running = np.empty(last - first + 1, dtype=np.int32)
    running[0] = 0
    np.cumsum(np.greater(predicted[first:last], predicted[first + 1 : last + 1]), dtype=np.int32, out=running[1:])
    return np.add(np.take(running, queries - first), k0, dtype=np.int64)


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


def piece_ranges(
    pe: np.ndarray, predicted: np.ndarray, cuts: np.ndarray, j0: int, n: int
) -> tuple[np.ndarray, np.ndarray]:
    """First and one-past-last predicted event of each zone of a block (``f_j``, ``l_j``).

    ``f_j`` counts the predicted events ending at or before ``lo_j``
    (``2 end <= cut``), ``l_j`` those starting before ``hi_j``: one more
    exactly when the cut falls strictly inside a predicted event, i.e. when
    the points on both sides of it are predicted (``predicted``, bool; a cut
    at a half-integer ``x + 1/2`` has point ``x`` on both sides).
    """
    m = pe.shape[0]
    inner = slice(1 if j0 == 0 else 0, cuts.shape[0] - (1 if j0 + cuts.shape[0] - 1 == n else 0))
    ended = np.zeros(cuts.shape[0], dtype=np.int64)
    if j0 + cuts.shape[0] - 1 == n:
        ended[-1] = m
    started = ended.copy()
    inside = cuts[inner]
    if inside.shape[0] and m:
        half = inside >> 1
        count = ended[inner]
        count[:] = ends_at_most(pe, predicted, half)
        spans = np.take(predicted, half)
        spans &= np.take(predicted, np.subtract(inside, 1, out=half) >> 1)
        np.add(count, spans, out=started[inner])
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
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Per zone (``owner`` indexes ``width``): ``∫_{Y_j} S_j``, ``|Y_j|`` and the recall deficit (``None``: 0).

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
    beyond = _masked_sum(outside, owner, k, precision_outside, u, v, a, b, lo, hi)
    if beyond is not None:
        beyond /= width
        precision += beyond
    x1 = np.maximum(v, a)
    x2 = np.minimum(right_end, b)
    deficit = _masked_sum(np.less(x1, x2, out=outside), owner, k, anchored_deficit, x1, x2, v, hi)
    np.maximum(left_start, a, out=x1)
    np.minimum(u, b, out=x2)
    deficit = _plus(deficit, _masked_sum(np.less(x1, x2, out=outside), owner, k, mirrored_deficit, x1, x2, u, lo))
    return precision, _per_zone(owner, length, k), deficit


def _plus(total: np.ndarray | None, part: np.ndarray | None) -> np.ndarray | None:
    """``total + part`` in place, where ``None`` stands for all zeros."""
    if total is None or part is None:
        return part if total is None else total
    total += part
    return total


def _per_zone(owner: np.ndarray | None, values: np.ndarray, k: int) -> np.ndarray:
    """Sums of ``values`` per zone ``owner`` (``None``: piece ``i`` is zone ``i``'s only piece)."""
    return values if owner is None else np.bincount(owner, values, k)


def _masked_sum(
    mask: np.ndarray, owner: np.ndarray | None, k: int, kernel: Callable[..., np.ndarray], *arrays: np.ndarray
) -> np.ndarray | None:
    """Per-zone sums of ``kernel`` over the pieces where ``mask`` holds (``None`` if it never holds).

    ``kernel`` gives 0 where ``mask`` fails, so when ``mask`` holds for more
    than ``1 / COMPACT_BELOW`` of the pieces it runs on all of them; below
    that, on the selected pieces only.
    """
    hits = int(np.count_nonzero(mask))
    if hits == 0:
        return None
    if hits * COMPACT_BELOW > mask.shape[0]:
        return _per_zone(owner, kernel(*arrays), k)
    idx = np.flatnonzero(mask)
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
    """``∫_{x1}^{x2} (d + min(d, far - x)) dx`` with ``d = x - p``, for ``p <= x1`` and ``x2 <= far`` (0 if ``x2 <= x1``).

    ``min(d, far - x) = d - 2 (x - c)_+`` with the kink ``c = (p + far) / 2``,
    so the integral is ``(x2 - x1)(x1 + x2 - 2p) - (e2^2 - e1^2)`` with
    ``e = (x - c)_+``.  The stretch before a piece is the mirror image
    ``x -> -x`` (:func:`mirrored_deficit`).
    """
    x2 = np.maximum(x2, x1)  # an empty stretch gives 0
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


def stream_zones(
    gs: np.ndarray, ge: np.ndarray, ps: np.ndarray, pe: np.ndarray, predicted: np.ndarray, sink: Sink
) -> None:
    """Per-zone integrals of Sec. 3 for every zone holding a prediction, ``ZONE_BLOCK`` zones at a time.

    ``sink(zones, width, event_length, precision_integral, piece_length, recall_deficit)``
    receives, for the zones ``zones`` (increasing, each once) with
    ``|Y_j| > 0``: ``|I_j|``, ``|J_j|``, ``∫_{Y_j} S_j``, ``|Y_j|`` and the
    recall deficit of :func:`piece_sums` summed over ``Y_j``.  ``predicted``
    is ``y_pred`` as bool, ``(ps, pe)`` its events and ``(gs, ge)`` those of ``y_true``.
    """
    n = gs.shape[0]
    length = predicted.shape[0]
    for j0 in range(0, n, ZONE_BLOCK):
        j1 = min(j0 + ZONE_BLOCK, n)
        cuts = zone_borders(gs, ge, j0, j1, length)
        first, stop = piece_ranges(pe, predicted, cuts, j0, n)
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
    e0 = int(first[0])
    if counts.min() == 1 and counts.max() == 1 and int(first[-1]) - e0 == k - 1:
        # Each zone holds exactly one piece, of its own predicted event: pieces and zones coincide.
        u = np.maximum(ps[e0 : e0 + k], lo)
        v = np.minimum(pe[e0 : e0 + k], hi)
        sums = piece_sums(u, v, None, width, (a, b, lo, hi), lo, hi)
        b -= a
        sink(np.arange(j0, j0 + k), width, b, *sums)
        return
    has = counts > 0
    if not has.any():
        return
    owner, event, e0 = _expand(first, counts)
    pa, pb, plo, phi = (np.take(x, owner) for x in (a, b, lo, hi))
    e1 = e0 + int(event[-1]) + 1
    u = np.maximum(np.take(ps[e0:e1], event), plo)
    v = np.minimum(np.take(pe[e0:e1], event), phi)
    left_start, right_end = _neighbour_bounds(u, v, owner[1:] == owner[:-1], plo, phi)
    sums = piece_sums(u, v, owner, width, (pa, pb, plo, phi), left_start, right_end)
    zones = np.flatnonzero(has)
    b -= a
    sink(zones + j0, width[zones], b[zones], *(None if x is None else x[zones] for x in sums))


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
    left_start = np.empty_like(lo)
    right_end = np.empty_like(hi)
    left_start[0] = lo[0]
    right_end[-1] = hi[-1]
    np.copyto(left_start[1:], np.where(same, mid, lo[1:]))
    np.copyto(right_end[:-1], np.where(same, mid, hi[:-1]))
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
            total += 0.0 if part is None else part
    sink(np.array([j]), width, np.array([b - a]), *sums)
