"""PA / PA%K adjustment counted on bit-packed series (issue 11, part 4).

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

Each event is counted exactly once, by the table when it lies in one byte,
else as a crossing event, and both decide it with the PA%K rule
``100 * hits > k * length`` (strictly more than ``K`` percent, exact for
integer ``K``).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

__all__ = ["adjusted_fill"]

#: Code of an event inside one byte: ``length * _CODE_BASE + hits`` (both in 0..8).
_CODE_BASE = 9
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
    high, low : ndarray of uint16, shape (2**16,)
        ``length | hits << 4`` of the run of ``t`` that contains bit 7
        (``high``) or bit 0 (``low``); 0 when that bit is clear.
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
    high = lead[t] | _popcount((x & high_mask).astype(np.uint8)).astype(np.int64) << 4
    low = trail[t] | _popcount((x & low_mask).astype(np.uint8)).astype(np.int64) << 4
    return high.astype(np.uint16), low.astype(np.uint16)


def _byte_keys(t: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Per byte ``t | x << 8 | left << 16 | right << 17`` (see :func:`_inner_event_codes`), uint32.

    ``left``/``right`` are 0 for the first/last byte: the caller's block ends
    at borders that no event crosses.
    """
    keys = np.left_shift(x, 8, dtype=np.uint32)
    keys |= t
    keys[1:] |= np.left_shift(t[:-1] >> 7, 16, dtype=np.uint32)  # the point below bit 0 is an anomaly
    keys[:-1] |= np.left_shift(t[1:] & 1, 17, dtype=np.uint32)  # the point above bit 7 is an anomaly
    return keys


def _crossing_events(t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """First and last byte of every event that crosses a byte border.

    Border ``c`` (between bytes ``c`` and ``c + 1``) is crossed when bit 7 of
    byte ``c`` and bit 0 of byte ``c + 1`` are both set; consecutive crossed
    borders belong to one event when the byte between them is all ones.
    """
    crossed = ((t[:-1] >> 7) & t[1:]).view(np.bool_)
    joined = crossed[:-1] & (t[1:-1] == 0xFF) & crossed[1:]
    first = crossed.copy()
    first[1:] &= ~joined
    last = crossed
    last[:-1] &= ~joined
    return np.flatnonzero(first), np.flatnonzero(last) + 1


def _crossing_fill(keys: np.ndarray, hits_before: np.ndarray, first: np.ndarray, last: np.ndarray, k: float) -> int:
    """Missed points PA%K fills in the events spanning bytes ``first[i]..last[i]``."""
    high, low = _edge_runs()
    head = high[keys[first] & 0xFFFF]
    tail = low[keys[last] & 0xFFFF]
    lengths = 8 * (last - first - 1) + (head & 15) + (tail & 15)
    middle = hits_before[last] - hits_before[first + 1]
    hits = middle + (head >> 4) + (tail >> 4)
    chosen = 100 * hits > k * lengths  # the PA%K rule (Kim et al., AAAI 2022)
    return int((lengths - hits)[chosen].sum())


def _block_ends(t: np.ndarray, size: int) -> list[int]:
    """Ends of byte blocks of about ``size`` bytes, each ending at a border no event crosses.

    No event then spans two blocks, so every block is counted on its own
    (its first byte's left flag and last byte's right flag are rightly 0).
    A block grows past ``size`` only while a long event covers its end.
    """
    ends, n_bytes, end = [], t.shape[0], min(size, t.shape[0])
    while end < n_bytes:
        window = t[end - 1 : end + size]
        crossed = ((window[:-1] >> 7) & window[1:]).view(np.bool_)
        free = int(np.argmin(crossed))
        if crossed[free]:
            end += crossed.shape[0]
            continue
        ends.append(end + free)
        end = min(end + free + size, n_bytes)
    ends.append(n_bytes)
    return ends


def _block_fill(t: np.ndarray, x: np.ndarray, k: float) -> tuple[int, int]:
    """``(hits, filled)`` of one block of packed bytes that no event crosses out of."""
    keys = _byte_keys(t, x)
    inner = int(np.add.reduce(np.take(_inner_event_fill(k), keys), dtype=np.int64))
    hits_before = np.zeros(t.shape[0] + 1, dtype=np.int64)
    np.cumsum(_popcount(x), out=hits_before[1:])
    first, last = _crossing_events(t)
    return int(hits_before[-1]), inner + _crossing_fill(keys, hits_before, first, last, k)


#: Bytes per block (8 points each): the block's arrays stay in the CPU cache.
BLOCK_BYTES = 1 << 16


def adjusted_fill(y_true: np.ndarray, y_pred: np.ndarray, k: float, block_bytes: int = BLOCK_BYTES) -> tuple[int, int]:
    """True positives and missed points filled by PA%K, from the bit-packed series.

    Parameters
    ----------
    y_true, y_pred : ndarray of int8, shape (T,)
        Validated 0/1 series (see :func:`oipr_bench.inputs.check_pair`).
    k : float
        Percentage threshold in ``[0, 100]``; ``k = 0`` is PA.
    block_bytes : int, default :data:`BLOCK_BYTES`
        Target block size in bytes of packed points (tests force tiny blocks).

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
    tp = filled = start = 0
    for end in _block_ends(t, max(1, int(block_bytes))):
        hits, fill = _block_fill(t[start:end], x[start:end], k)
        tp, filled, start = tp + hits, filled + fill, end
    return tp, filled
