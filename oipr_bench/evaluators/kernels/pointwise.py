"""PA / PA%K adjustment counted on bit-packed series.

Point adjustment (PA, and PA%K of Kim et al., AAAI 2022) fills every
ground-truth event whose predicted share is strictly above ``K`` percent;
the evaluators only need how many missed points that fills.  A per-event
NumPy pipeline costs several element operations per event, and an
alternating series has ``T / 2`` events, so here the two series are packed
eight points to a byte (``np.packbits``, bit ``b`` of byte ``j`` is point
``8 j + b``) and every array holds at most one element per byte:

* an event lying wholly inside one byte is decided by a lookup table indexed
  by the byte of ``y_true``, the byte of ``y_true & y_pred`` and whether the
  byte's lowest and highest runs continue into the neighbouring bytes
  (2**18 entries, built once per ``K``);
* an event crossing a byte border (at most one per border) is found from the
  crossed borders, and its length and hits are read from two 16-bit tables
  (the run touching the byte's high or low end) plus a running count of the
  hits per byte.

The bytes are visited in blocks of :data:`BLOCK_BYTES` (so the arrays stay in
the CPU cache and the memory stays a few MB whatever ``T``); an event that
crosses a block's end is carried into the next block as its length and hits
so far.  Each event is counted exactly once, by the table when it lies in
one byte, else as a crossing event, and both decide it with the PA%K rule
``100 * hits > k * length`` (strictly more than ``K`` percent, exact for
integer ``K``).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

__all__ = ["adjusted_fill"]

#: Code of an event inside one byte: ``length * _CODE_BASE + hits`` (both in 0..8).
_CODE_BASE = 9
#: Lengths and hits travel packed in one int64, ``length + hits * _HITS``
#: (a window's lengths stay far below 2**32; a carried event is kept in Python ints).
_HITS = 1 << 32
_POPCOUNT8 = np.array([bin(v).count("1") for v in range(256)], dtype=np.uint8)


def _popcount(values: np.ndarray) -> np.ndarray:
    """Number of set bits of each uint8 (``np.bitwise_count`` where NumPy has it)."""
    count = getattr(np, "bitwise_count", None)
    return count(values) if count is not None else _POPCOUNT8[values]


def _runs_of_byte(value: int) -> list[tuple[int, int]]:
    """Maximal runs of set bits of an 8-bit value, as half-open ``(first, end)`` bit ranges."""
    runs: list[tuple[int, int]] = []
    bit = 0
    while bit < 8:
        if value >> bit & 1:
            first = bit
            while bit < 8 and value >> bit & 1:
                bit += 1
            runs.append((first, bit))
        bit += 1
    return runs


@lru_cache(maxsize=1)
def _inner_event_codes() -> np.ndarray:
    """Codes of the events lying wholly inside one byte, per byte key.

    Returns
    -------
    ndarray of uint8, shape (2**18, 4)
        Row ``key = t | x << 8 | left << 16 | right << 17`` (``t`` the byte of
        ``y_true``, ``x`` that of ``y_true & y_pred``, ``left``/``right``
        whether the neighbouring point below bit 0 / above bit 7 is an
        anomaly) lists ``length * 9 + hits`` of each run of ``t`` that does
        not continue into a neighbouring byte; unused slots hold 0.
    """
    xs = np.arange(256, dtype=np.uint8)
    codes = np.zeros((4, 256, 256, 4), dtype=np.uint8)  # [left | right << 1, x, t, slot]
    for t in range(256):
        for slot, (first, end) in enumerate(_runs_of_byte(t)):
            code = (end - first) * _CODE_BASE + _popcount(xs & ((1 << end) - (1 << first)))
            for flags in range(4):
                if not (first == 0 and flags & 1) and not (end == 8 and flags & 2):
                    codes[flags, :, t, slot] = code
    return codes.reshape(1 << 18, 4)


@lru_cache(maxsize=32)
def _inner_event_fill(k: float) -> np.ndarray:
    """Missed points filled by PA%K in the events inside one byte, per byte key (uint8, 2**18)."""
    fill = np.zeros(_CODE_BASE * _CODE_BASE, dtype=np.uint8)
    for length in range(1, 9):
        for hits in range(length + 1):
            if 100 * hits > k * length:  # the PA%K rule, as for crossing events
                fill[length * _CODE_BASE + hits] = length - hits
    return fill[_inner_event_codes()].sum(axis=1, dtype=np.uint8)


@lru_cache(maxsize=1)
def _edge_runs() -> tuple[np.ndarray, np.ndarray]:
    """The runs touching a byte's high and low end, per 16-bit key ``t | x << 8``.

    Returns
    -------
    high, low : ndarray of int64, shape (2**16,)
        ``length + hits * 2**32`` (see :data:`_HITS`) of the run of ``t``
        that contains bit 7 (``high``) or bit 0 (``low``); 0 when that bit
        is clear.
    """
    t = np.arange(1 << 16) & 0xFF
    x = (np.arange(1 << 16) >> 8) & t
    lead = np.zeros(256, dtype=np.int64)  # length of the run ending at bit 7
    trail = np.zeros(256, dtype=np.int64)  # length of the run starting at bit 0
    for value in range(256):
        for first, end in _runs_of_byte(value):
            lead[value] = 8 - first if end == 8 else lead[value]
            trail[value] = end if first == 0 else trail[value]
    high_mask = 0xFF - ((1 << (8 - lead[t])) - 1)
    low_mask = (1 << trail[t]) - 1
    high = lead[t] + _popcount((x & high_mask).astype(np.uint8)).astype(np.int64) * _HITS
    low = trail[t] + _popcount((x & low_mask).astype(np.uint8)).astype(np.int64) * _HITS
    return high, low


def _byte_keys(key16: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Per byte ``t | x << 8 | left << 16 | right << 17`` (see :func:`_inner_event_codes`), uint32.

    ``left``/``right`` (the point below bit 0 / above bit 7 is an anomaly)
    are 0 at the ends of ``t``: the caller's window reaches past its block.
    """
    keys = key16.astype(np.uint32)
    keys[1:] |= np.left_shift(t[:-1] >> 7, 16, dtype=np.uint32)
    keys[:-1] |= np.left_shift(t[1:] & 1, 17, dtype=np.uint32)
    return keys


def _inner_fill(key16: np.ndarray, t: np.ndarray, start: int, stop: int, k: float) -> int:
    """Missed points PA%K fills in the events lying inside one byte, over the window's bytes ``start:stop``.

    A byte of zeros holds no event, so a block whose bytes are mostly zeros
    looks up only the bytes holding an anomaly (at most 1 in 8 of them).
    """
    table = _inner_event_fill(k)
    if np.count_nonzero(t[start:stop]) * 8 > stop - start:
        return int(np.add.reduce(np.take(table, _byte_keys(key16, t)[start:stop]), dtype=np.int64))
    held = np.flatnonzero(t[start:stop] != 0) + start  # (nonzero of a bool array is the fast one)
    if held.size == 0:
        return 0
    below = t[held - 1] >> 7  # the first byte of the series has no byte below
    below[0] = below[0] if held[0] > 0 else 0
    above = t[np.minimum(held + 1, t.shape[0] - 1)] & 1
    above[-1] = above[-1] if held[-1] + 1 < t.shape[0] else 0
    keys = key16[held].astype(np.uint32)
    keys |= np.left_shift(below, 16, dtype=np.uint32)
    keys |= np.left_shift(above, 17, dtype=np.uint32)
    return int(np.add.reduce(np.take(table, keys), dtype=np.int64))


def _crossing_marks(t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Whether each border is the first / the last border its event crosses.

    Border ``i`` (between bytes ``i`` and ``i + 1``) is crossed when bit 7 of
    byte ``i`` and bit 0 of byte ``i + 1`` are both set; consecutive crossed
    borders belong to one event when the byte between them is all ones.
    """
    crossed = ((t[:-1] >> 7) & t[1:]).view(np.bool_)
    joined = crossed[:-1] & (t[1:-1] == 0xFF) & crossed[1:]
    first = crossed.copy()
    first[1:] &= ~joined
    last = crossed
    last[:-1] &= ~joined
    return first, last


def _crossing_fill(key16: np.ndarray, hits_before: np.ndarray, first: np.ndarray, last: np.ndarray, k: float) -> int:
    """Missed points PA%K fills in the events spanning bytes ``first[i]..last[i]`` (window indices).

    The bytes strictly between are all ones: 8 points each, and their hits
    come from ``hits_before`` (the running hits per byte).
    """
    high, low = _edge_runs()
    edges = high[key16[first]] + low[key16[last]]
    lengths = (edges & (_HITS - 1)) + 8 * (last - first - 1)
    hits = (edges >> 32) + hits_before[last] - hits_before[first + 1]
    chosen = 100 * hits > k * lengths  # the PA%K rule (Kim et al., AAAI 2022)
    return int((lengths - hits)[chosen].sum())


#: An event crossing a block's end: its length and hits up to the block's start.
Carry = tuple[int, int]


def _carried(carry: Carry, packed: int, k: float) -> tuple[int, Carry]:
    """Add a packed ``length + hits * _HITS`` part to a carried event: ``(filled if it ends here, carry)``."""
    length, hits = carry[0] + (packed & (_HITS - 1)), carry[1] + (packed >> 32)
    return (length - hits if 100 * hits > k * length else 0), (length, hits)  # the PA%K rule


def _block_fill(t: np.ndarray, x: np.ndarray, start: int, stop: int, k: float, carry: Carry | None) -> tuple[int, int, Carry | None]:
    """``(hits, filled, carry)`` of the packed bytes ``start:stop``.

    Events inside one byte are counted where they lie; an event crossing
    byte borders is counted in the block of its last border, the part before
    the block coming in ``carry``.  The window reaches one byte below and two
    above the block, so the neighbour flags and the first/last marks of the
    block's borders are those of the whole series.
    """
    lo, hi = max(start - 1, 0), min(stop + 2, t.shape[0])
    key16 = np.left_shift(x[lo:hi], 8, dtype=np.uint16)
    key16 |= t[lo:hi]  # t | x << 8
    filled = _inner_fill(key16, t[lo:hi], start - lo, stop - lo, k)
    hits_before = np.zeros(hi - lo + 1, dtype=np.int64)  # running hits over the window's bytes
    np.cumsum(_popcount(x[lo:hi]), out=hits_before[1:])
    first, last = _crossing_marks(t[lo:hi])
    borders = slice(start - lo, max(start, min(stop, t.shape[0] - 1)) - lo)
    firsts = np.flatnonzero(first[borders]) + (start - lo)
    lasts = np.flatnonzero(last[borders]) + (start - lo + 1)  # the event's last byte
    def full_bytes(first: int, end: int) -> int:  # window bytes first:end, all ones, packed
        return 8 * (end - first) + int(hits_before[end] - hits_before[first]) * _HITS

    block_hits = int(hits_before[stop - lo] - hits_before[start - lo])
    if carry is not None:
        if lasts.size == 0:  # the block lies inside the carried event
            return block_hits, filled, _carried(carry, full_bytes(start - lo, stop - lo), k)[1]
        end = int(lasts[0])
        fill, _ = _carried(carry, full_bytes(start - lo, end) + int(_edge_runs()[1][key16[end]]), k)
        filled, lasts = filled + fill, lasts[1:]
    filled += _crossing_fill(key16, hits_before, firsts[: lasts.size], lasts, k)
    if firsts.size == lasts.size:
        return block_hits, filled, None
    opened = int(firsts[-1])
    head = int(_edge_runs()[0][key16[opened]]) + full_bytes(opened + 1, stop - lo)
    return block_hits, filled, _carried((0, 0), head, k)[1]


#: Bytes per block (8 points each): the block's arrays stay small.
BLOCK_BYTES = 1 << 16


def adjusted_fill(y_true: np.ndarray, y_pred: np.ndarray, k: float, block_bytes: int = BLOCK_BYTES) -> tuple[int, int]:
    """True positives and missed points filled by PA%K, from the bit-packed series.

    Parameters
    ----------
    y_true, y_pred : ndarray of int8, shape (T,)
        Validated 0/1 series (see :func:`oipr_bench.evaluators.inputs.check_pair`).
    k : float
        Percentage threshold in ``[0, 100]``; ``k = 0`` is PA.
    block_bytes : int, default :data:`BLOCK_BYTES`
        Block size in bytes of packed points (tests force tiny blocks).

    Returns
    -------
    tp, filled : int
        Point-wise true positives, and the missed points of the ground-truth
        events whose share of predicted points is strictly above ``k``
        percent (adjusted TP is ``tp + filled``).
    """
    t = np.packbits(y_true, bitorder="little")
    x = np.packbits(y_pred, bitorder="little")
    np.bitwise_and(x, t, out=x)
    size = max(1, int(block_bytes))
    tp = filled = 0
    carry: Carry | None = None
    for start in range(0, t.shape[0], size):
        hits, fill, carry = _block_fill(t, x, start, min(start + size, t.shape[0]), k, carry)
        tp, filled = tp + hits, filled + fill
    return tp, filled
