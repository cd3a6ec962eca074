"""Block-streamed core of TaPR (Hwang et al., CIKM 2019; see :mod:`oipr_bench.evaluators.tapr`).

The series is read in blocks of consecutive points (:data:`BLOCK` to
:data:`MAX_BLOCK` points, sized so that a block holds some ten thousand event
bounds).  Each block yields the
anomalies, ambiguous regions and prediction events that lie in it, scores
those that end in it and adds their ratios to running totals
(:class:`Totals`); an anomaly, an ambiguous region or a prediction event that
crosses the block's right border is carried into the next block with its
partial score.  No array of the series' length and no per-event array of the
whole series is built: every temporary has the size of one block, and the
costs are a few element operations per point and per event.

Per block:

* event bounds: where a point differs from its left neighbour
  (``np.not_equal`` into a reused buffer, then ``np.flatnonzero``);
* integer overlaps ``|a_i & p_j|`` summed per anomaly and per prediction event:
  differences of the running count of the points that are anomalous and
  predicted, read at the events' bounds, or, when such points are few, each
  placed among the events' starts by binary search;
* the ambiguous region of every anomaly that ends in the block, cut on the
  next anomaly's first point ("at_next", ``TaPR.py``) or before it
  ("before_next"); when the next anomaly starts after the block, the series
  is read ahead at most ``delta`` points to find it;
* the weights of the predicted region points, offset ``k`` of every region
  at once (in point order per anomaly, as ``TaPR.py`` adds them), credited to
  their anomaly and to the prediction event that holds them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["BLOCK", "MAX_BLOCK", "BLOCK_BOUNDS", "LOOP_OFFSETS", "TIE_WINDOW", "Totals", "stream_totals", "region_weights", "weight_table"]

#: Smallest block (points); the first block has four times as many.  A block holding
#: fewer than :data:`BLOCK_BOUNDS` event bounds (of both series) doubles the next one's
#: size, up to :data:`MAX_BLOCK`; one holding twice as many halves it: blocks of a few
#: ten thousand events, little per-block overhead.
BLOCK = 1 << 16
#: Largest block (points).
MAX_BLOCK = 1 << 20
#: Event bounds (of both series) that make a block full.
BLOCK_BOUNDS = 1 << 15
#: Region offsets handled one at a time; later ones (only with delta > 64) are laid out flat.
LOOP_OFFSETS = 64
#: Half-width of the band around theta in which a ratio is recomputed in TaPR.py's order
#: (both sums round at most ~n * 2**-53 relative for n terms: 1e-8 covers 10**7 points).
TIE_WINDOW = 1e-8


def region_weights(offset: Any, span: np.ndarray) -> np.ndarray:
    """Sigmoid weight ``1 / (1 + e^x)`` of region points at ``offset`` in regions of ``span + 1`` points.

    ``x`` is the offset min-max normalised to [-6, 6]; a one-point region
    (``span = 0``, where the normalisation would divide by zero) takes -6.
    """
    x = np.full(span.shape[0], -6.0)
    long_ = span > 0
    k = offset[long_] if isinstance(offset, np.ndarray) else offset
    x[long_] = -6.0 + np.multiply(k, 12.0) / span[long_]
    return 1.0 / (1.0 + np.exp(x))


def weight_table(max_size: int) -> np.ndarray:
    """``table[k, span]``: weight of offset ``k`` in a region of ``span + 1 <= max_size`` points."""
    spans = np.repeat(np.arange(max_size, dtype=np.int64), max_size)
    offsets = np.minimum(np.tile(np.arange(max_size, dtype=np.int64), max_size), spans)  # k > span: never read
    return np.ascontiguousarray(region_weights(offsets, spans).reshape(max_size, max_size).T)


class Totals:
    """Running sums of one kind of event's ratios (anomalies or prediction events).

    ``total`` is the sum of the ratios, ``detected`` the number above
    ``theta`` and ``count`` the number of events; ``ties`` lists ``(start,
    ratio)`` for every ratio within :data:`TIE_WINDOW` of ``theta > 0``, to be
    settled in ``TaPR.py``'s summation order by the caller.
    """

    def __init__(self, theta: float) -> None:
        self.theta = theta
        self.total = 0.0
        self.detected = 0
        self.count = 0
        self.ties: list[tuple[int, float]] = []

    def add_one(self, ratio: float, start: int) -> None:
        """Add the ratio of one event starting at global position ``start``."""
        self.total += ratio
        self.detected += ratio > self.theta
        self.count += 1
        if self.theta > 0.0 and abs(ratio - self.theta) <= TIE_WINDOW:
            self.ties.append((start, ratio))

    def add(self, ratio: np.ndarray, starts: np.ndarray, offset: int = 0) -> None:
        """Add the ratios of events starting at the global positions ``starts + offset``."""
        if ratio.shape[0] == 0:
            return
        self.total += float(ratio.sum())
        self.detected += int(np.count_nonzero(ratio > self.theta))
        self.count += ratio.shape[0]
        if self.theta > 0.0:
            near = np.flatnonzero(np.abs(ratio - self.theta) <= TIE_WINDOW)
            self.ties.extend(zip((starts[near] + offset).tolist(), ratio[near].tolist()))


def stream_totals(t: np.ndarray, p: np.ndarray, delta: int, at_next: bool, theta: float) -> tuple[Totals, Totals]:
    """Ratio totals ``(anomalies, predictions)`` of TaPR for 0/1 int8 series ``t`` (truth), ``p`` (prediction)."""
    stream = _Stream(t.view(np.bool_), p.view(np.bool_), delta, at_next, theta)
    b0, size, n = 0, min(4 * BLOCK, MAX_BLOCK), t.shape[0]
    while b0 < n:
        b1 = min(n, b0 + size)
        n_bounds = stream.block(b0, b1)
        if n_bounds < BLOCK_BOUNDS:
            size = min(2 * size, MAX_BLOCK)
        elif n_bounds >= 2 * BLOCK_BOUNDS:
            size = max(size // 2, BLOCK)
        b0 = b1
    return stream.anomalies, stream.predictions


class _Labels:
    """Label of block points: how many prediction events start in the block at or before each point.

    Label 0 is the prediction event open at the block's left border (or no
    event); the ``q``-th start of the block (from 0) opens label ``q + 1``.
    Few queries search the starts; many build one running count of the
    block's start marks (a point is predicted, ``pb``, and differs from its
    left neighbour, ``edges``), written into the buffers ``marks`` and ``counts``.
    """

    def __init__(self, starts: np.ndarray, pb: np.ndarray, edges: np.ndarray, buffers: Any) -> None:
        self.starts = starts
        self.pb, self.edges = pb, edges
        self.buffers = buffers  # () -> (marks, counts): scratch arrays of the block's size
        self.counts = np.zeros(0, dtype=np.int32)
        self.dense = False
        self.asked = 0  # points labelled so far by binary search

    def __call__(self, x: np.ndarray) -> np.ndarray:
        self.asked += x.shape[0]
        if not self.dense and self.asked * max(1, self.starts.shape[0].bit_length()) * 4 > self.pb.shape[0]:
            marks, self.counts = self.buffers()
            np.logical_and(self.edges, self.pb, out=marks)
            np.cumsum(marks.view(np.int8), dtype=np.int32, out=self.counts)
            self.dense = True
        if self.dense:
            return self.counts.take(x)
        return np.searchsorted(self.starts, x, side="right")

    def one(self, x: int) -> int:
        """Label of the one block point ``x``."""
        if self.dense:
            return int(self.counts[x])
        return int(np.searchsorted(self.starts, x, side="right"))


class _Pending:
    """An anomaly whose ambiguous region crosses a block border, with its partial score."""

    def __init__(self, start: int, length: int, hits: int, first: int, span: int, last_in: int) -> None:
        self.start, self.length, self.hits = start, length, hits
        self.first, self.span, self.last_in = first, span, last_in
        self.amb = 0.0


class _Stream:
    """State of the block-by-block pass: buffers, running totals and the events crossing the current border.

    Within a block, positions are block positions ``x - b0``; the anomaly and
    the prediction event open at the left border are kept with their global
    start and the count of anomalous predicted points before it.
    """

    def __init__(self, t: np.ndarray, p: np.ndarray, delta: int, at_next: bool, theta: float) -> None:
        self.t, self.p, self.n = t, p, t.shape[0]
        self.delta, self.cut = delta, 0 if at_next else 1  # a region ends by s_{i+1} - cut
        self.table = weight_table(min(delta, LOOP_OFFSETS)) if delta > 0 else None
        self.anomalies, self.predictions = Totals(theta), Totals(theta)
        size = min(self.n, MAX_BLOCK)
        self.edges = np.empty(size, dtype=np.bool_)
        self.p_edges = np.empty(size, dtype=np.bool_)
        self.both = np.empty(size, dtype=np.bool_)
        self.counts: np.ndarray | None = None  # running counts, made at the first dense block
        self.labels: np.ndarray | None = None
        self.a_open: tuple[int, int] | None = None  # (start, hits so far) of the anomaly open at b0
        self.p_open: tuple[int, int, float] | None = None  # (start, hits, ambiguous weight so far) likewise
        self.pending: _Pending | None = None  # anomaly whose region crosses b0

    def block(self, b0: int, b1: int) -> int:
        """Score the events of points ``[b0, b1)``; return how many event bounds the block held."""
        ta, a_close = self._split(self._bounds(self.t, b0, b1, self.edges), self.a_open is not None)
        pa, p_close = self._split(self._bounds(self.p, b0, b1, self.p_edges), self.p_open is not None)
        hits_a, hits_p = self._hits(b0, b1, (ta, a_close), (pa, p_close))
        p_starts = pa[0::2]
        pb = self.p[b0:b1]
        size = b1 - b0
        labels = _Labels(p_starts, pb, self.p_edges[:size], lambda: (self.both[:size], self._label_buffer()[:size]))
        amb_lab = np.zeros(p_starts.shape[0] + 1)
        if self.pending is not None:
            self._pending_region(b0, b1, pb, labels, amb_lab)
        self._anomalies(b0, b1, (ta, a_close), hits_a, pb, labels, amb_lab)
        self._finish_predictions(b0, (pa, p_close), hits_p, amb_lab)
        return ta.shape[0] + pa.shape[0]

    def _label_buffer(self) -> np.ndarray:
        """Scratch int32 array for the running count of prediction starts (the block's ``both`` mask is free then)."""
        if self.labels is None:
            self.labels = np.empty(self.both.shape[0], dtype=np.int32)
        return self.labels

    def _bounds(self, y: np.ndarray, b0: int, b1: int, buffer: np.ndarray) -> np.ndarray:
        """Block positions ``x - b0`` where ``y`` differs from its left neighbour (``y[-1] = y[T] = 0``).

        The edges (``y[x] != y[x - 1]``) stay in ``buffer``.
        """
        edges = buffer[: b1 - b0]
        if b0 == 0:
            edges[0] = y[0]
            np.not_equal(y[1:b1], y[: b1 - 1], out=edges[1:])
        else:
            np.not_equal(y[b0:b1], y[b0 - 1 : b1 - 1], out=edges)
        bounds = np.flatnonzero(edges)
        if b1 == self.n and y[b1 - 1]:
            bounds = np.append(bounds, b1 - b0)  # the last event ends with the series
        return bounds

    def _hits(self, b0: int, b1: int, t_events: tuple[np.ndarray, int], p_events: tuple[np.ndarray, int]) -> tuple[np.ndarray, ...]:
        """Points anomalous and predicted in each anomaly and each prediction event, within the block.

        Entry 0 is the event open at the left border, entry ``q + 1`` the
        ``q``-th event starting in the block (see :meth:`_split`).  Few such
        points are each placed among the events' starts (binary search); many
        are counted by one running count of the block read at the bounds.
        """
        both = np.logical_and(self.t[b0:b1], self.p[b0:b1], out=self.both[: b1 - b0])
        (ta, _), (pa, _) = t_events, p_events
        few_bounds = (ta.shape[0] + pa.shape[0]) * 8 < b1 - b0
        where = np.flatnonzero(both) if few_bounds else None  # else: likely many such points, count first
        n_both = where.shape[0] if few_bounds else int(np.count_nonzero(both))
        search = n_both * (ta.shape[0].bit_length() + pa.shape[0].bit_length() + 4) * 3
        if search < b1 - b0 + ta.shape[0] + pa.shape[0]:
            where = np.flatnonzero(both) if where is None else where
            return tuple(
                np.bincount(np.searchsorted(bounds[0::2], where, side="right"), minlength=(bounds.shape[0] + 3) // 2)
                for bounds, _ in (t_events, p_events)
            )
        if self.counts is None:
            self.counts = np.empty(self.both.shape[0] + 1, dtype=np.int32)
            self.counts[0] = 0  # no point before the block
        counts = self.counts[: b1 - b0 + 1]
        np.cumsum(both.view(np.int8), dtype=np.int32, out=counts[1:])
        return self._event_counts(counts, *t_events), self._event_counts(counts, *p_events)

    @staticmethod
    def _event_counts(counts: np.ndarray, bounds: np.ndarray, close: int) -> np.ndarray:
        """Per-event differences of the running ``counts`` (entry 0: the event open at the left border)."""
        size = counts.shape[0] - 1
        out = np.empty((bounds.shape[0] + 3) // 2, dtype=counts.dtype)
        out[0] = counts[close] if close >= 0 else (counts[size] if close == -2 else 0)
        at = counts.take(bounds)
        m = bounds.shape[0] // 2
        np.subtract(at[1::2], at[0 : 2 * m : 2], out=out[1 : m + 1])
        if bounds.shape[0] % 2:
            out[-1] = counts[size] - at[-1]
        return out

    @staticmethod
    def _split(bounds: np.ndarray, open_in: bool) -> tuple[np.ndarray, int]:
        """``(bounds, close)``: bounds of the events starting in the block and where the open one closes.

        ``close`` is the block position ending the event open at the left
        border, -1 when no event is open there and -2 when it stays open
        through the whole block.  The bounds returned alternate start, end,
        start, ...; an odd number of them leaves the last event open at the
        right border.
        """
        close = -1
        if open_in and bounds.shape[0]:
            close, bounds = int(bounds[0]), bounds[1:]
        elif open_in:
            close = -2
        return bounds, close

    def _anomalies(
        self,
        b0: int,
        b1: int,
        events: tuple[np.ndarray, int],
        hits: np.ndarray,
        pb: np.ndarray,
        labels: _Labels,
        amb_lab: np.ndarray,
    ) -> None:
        """Score the anomalies that end in the block (the last one may wait for its region)."""
        bounds, close = events
        starts, ends = bounds[0::2], bounds[1::2]
        if close >= 0:  # the anomaly open at the left border ends here
            s0, h0 = self.a_open
            nxt = b0 + int(starts[0]) if starts.shape[0] else -1
            self._one_anomaly(b0, b1, (s0, b0 + close, h0 + int(hits[0]), nxt), pb, labels, amb_lab)
        m = ends.shape[0]
        if starts.shape[0] > m:
            self.a_open = (b0 + int(starts[-1]), int(hits[-1]))
        elif close == -2:
            self.a_open = (self.a_open[0], self.a_open[1] + int(hits[0]))
        else:
            self.a_open = None
        v = min(m, starts.shape[0] - 1)  # anomalies whose next anomaly starts in the block
        if v > 0:
            self._anomaly_ratios(b0, bounds[: 2 * v + 1], hits[1 : v + 1], pb, labels, amb_lab)
        if m > max(v, 0):
            last = (b0 + int(starts[m - 1]), b0 + int(ends[m - 1]), int(hits[m]), -1)
            self._one_anomaly(b0, b1, last, pb, labels, amb_lab)

    def _anomaly_ratios(
        self,
        b0: int,
        bounds: np.ndarray,
        hits: np.ndarray,
        pb: np.ndarray,
        labels: _Labels,
        amb_lab: np.ndarray,
    ) -> None:
        """``min(1, (hits + ambiguous weight) / |a|)`` of anomalies whose region ends inside the block.

        ``bounds`` alternate start, end, ..., start: the last start is the
        next anomaly's, which cuts the last region.
        """
        sizes = np.diff(bounds)  # anomaly lengths and the gaps after them, interleaved
        span = sizes[1::2]  # region size - 1: delta points, or up to the next anomaly
        if self.cut:
            span -= self.cut
        np.minimum(span, self.delta - 1, out=span)
        ratio = self._credit(pb, bounds[1::2], span, labels, amb_lab)
        ratio += hits
        ratio /= sizes[0::2]
        np.minimum(ratio, 1.0, out=ratio)
        self.anomalies.add(ratio, bounds[0:-1:2], b0)

    def _one_anomaly(
        self, b0: int, b1: int, anomaly: tuple[int, int, int, int], pb: np.ndarray, labels: _Labels, amb_lab: np.ndarray
    ) -> None:
        """Score one anomaly ``(start, end, hits, next start or -1 if after the block)``, global positions.

        Its region is credited from this block on; the anomaly waits as
        :attr:`pending` while its region crosses the block's right border.
        """
        start, end, hits, nxt = anomaly
        last = end - 1 + self.delta
        last = self._cut_ahead(b1, end, last) if nxt < 0 else min(last, nxt - self.cut)
        self.pending = _Pending(start, end - start, hits, end, last - end, min(last, self.n - 1))
        self._pending_region(b0, b1, pb, labels, amb_lab)

    def _cut_ahead(self, b1: int, end: int, last: int) -> int:
        """Last point of the region of an anomaly ending at ``end`` (exclusive) whose next anomaly starts at or after ``b1``."""
        stop = min(self.n, end + self.delta)
        if stop <= b1:
            return last
        ahead = self.t[b1:stop]
        j = int(np.argmax(ahead))
        if not ahead[j]:
            return last
        return min(last, b1 + j - self.cut)

    def _pending_region(self, b0: int, b1: int, pb: np.ndarray, labels: _Labels, amb_lab: np.ndarray) -> None:
        """Credit the block's points of the pending anomaly's region; score the anomaly when its region ends."""
        pend = self.pending
        lo, hi = max(pend.first, b0), min(pend.last_in, b1 - 1)
        if 0 <= hi - lo < LOOP_OFFSETS and self.delta <= LOOP_OFFSETS:
            for x in range(lo - b0, hi - b0 + 1):  # a few points: one at a time, in point order
                if pb[x]:
                    weight = float(self.table[x + b0 - pend.first, pend.span])
                    pend.amb += weight
                    amb_lab[labels.one(x)] += weight
        elif hi >= lo:
            offset = np.arange(lo - pend.first, hi - pend.first + 1, dtype=np.int64)
            x = offset + (pend.first - b0)
            weight = region_weights(offset, np.full(offset.shape[0], pend.span, dtype=np.int64))
            weight *= pb[x]
            # Sequential sum from the partial score on: each weight added in point order, as TaPR.py does.
            pend.amb = float(np.cumsum(np.concatenate(([pend.amb], weight)))[-1])
            np.add.at(amb_lab, labels(x), weight)
        if pend.last_in < b1:
            self.anomalies.add_one(min(1.0, (pend.amb + pend.hits) / pend.length), pend.start)
            self.pending = None

    def _credit(self, pb: np.ndarray, first: np.ndarray, span: np.ndarray, labels: _Labels, amb_lab: np.ndarray) -> np.ndarray:
        """Ambiguous weight of the predicted points ``first + k``, ``k <= span``, of regions inside the block.

        Offset ``k`` of every region at once, so that each region's weights are
        added in point order; each weight is also credited to ``amb_lab`` at
        the label of the prediction event holding the point.  Offsets from
        :data:`LOOP_OFFSETS` on (only with a larger ``delta``) are laid out flat.
        """
        amb = np.zeros(first.shape[0])
        if self.delta == 0:
            return amb
        owner = None
        top, low = int(span.max()), int(span.min())  # low == top: one weight per offset
        for k in range(min(top + 1, LOOP_OFFSETS)):
            if k > low:  # some regions end before offset k
                low = k
                active = span >= k
                if np.count_nonzero(active) < span.shape[0]:
                    owner = np.flatnonzero(active) if owner is None else owner[active]
                    first, span = first[active], span[active]
            x = first + k
            hit = pb.take(x)
            n_hit = int(np.count_nonzero(hit))
            if 2 * n_hit < hit.shape[0]:  # few predicted points: only those
                if n_hit == 0:
                    continue
                sel = np.flatnonzero(hit)
                x, span_k = x[sel], span[sel]
                weight = self._weights(k, span_k, top == low)
                amb[sel if owner is None else owner[sel]] += weight
            else:
                weight = self._weights(k, span, top == low)
                if n_hit < hit.shape[0]:
                    weight *= hit
                if owner is None:
                    amb += weight
                else:
                    amb[owner] += weight
            np.add.at(amb_lab, labels(x), weight)
        if top >= LOOP_OFFSETS:
            self._credit_flat(pb, first, span, owner, labels, amb, amb_lab)
        return amb

    def _weights(self, k: int, span: np.ndarray, uniform: bool) -> np.ndarray:
        """Weights of offset ``k < LOOP_OFFSETS`` in regions of ``span + 1`` points (all the same if ``uniform``)."""
        if uniform and span.shape[0] > 1:
            return np.full(span.shape[0], self._weights(k, span[:1], False)[0])
        return self.table[k].take(span) if span.shape[0] == 0 or self.delta <= LOOP_OFFSETS else region_weights(k, span)

    def _credit_flat(
        self,
        pb: np.ndarray,
        first: np.ndarray,
        span: np.ndarray,
        owner: np.ndarray | None,
        labels: _Labels,
        amb: np.ndarray,
        amb_lab: np.ndarray,
    ) -> None:
        """Offsets from :data:`LOOP_OFFSETS` on of the regions still open after the per-offset loop, laid out flat."""
        long_ = np.flatnonzero(span >= LOOP_OFFSETS)
        if long_.shape[0] == 0:
            return
        rest = span[long_] - (LOOP_OFFSETS - 1)
        which = np.repeat(long_, rest)
        offset = np.arange(which.shape[0], dtype=np.int64) - np.repeat(np.cumsum(rest) - rest, rest) + LOOP_OFFSETS
        x = first[which] + offset
        weight = region_weights(offset, span[which])
        weight *= pb[x]
        ids = which if owner is None else owner[which]
        amb += np.bincount(ids, weights=weight, minlength=amb.shape[0])
        np.add.at(amb_lab, labels(x), weight)

    def _finish_predictions(self, b0: int, events: tuple[np.ndarray, int], hits: np.ndarray, amb_lab: np.ndarray) -> None:
        """Score the prediction events ending in the block (ratio ``(hits + ambiguous weight) / |p|``)."""
        bounds, close = events
        starts, ends = bounds[0::2], bounds[1::2]
        m = ends.shape[0]
        if close >= 0:  # the event open at the left border ends here
            s0, h0, amb0 = self.p_open
            score = (amb0 + float(amb_lab[0])) + (h0 + int(hits[0]))
            self.predictions.add_one(score / (b0 + close - s0), s0)
        elif close == -2:
            s0, h0, amb0 = self.p_open
            self.p_open = (s0, h0 + int(hits[0]), amb0 + float(amb_lab[0]))
        if starts.shape[0] > m:
            self.p_open = (b0 + int(starts[-1]), int(hits[-1]), float(amb_lab[starts.shape[0]]))
        elif close != -2:
            self.p_open = None
        if m:
            ratio = amb_lab[1 : m + 1]  # label q + 1: the q-th event starting in the block (amb_lab is not read again)
            ratio += hits[1 : m + 1]
            ratio /= ends - starts[:m]
            self.predictions.add(ratio, starts[:m], b0)
