"""Place a metric among the atlas rows: the nearest rows by behaviour.

Two rows are compared on the cells **both** define, over the characteristics
and the metric properties together: a cell that is ``n/a`` (a rule the
metric's result shape cannot answer), ``?`` (undetermined) or ``-`` in either
row is left out, so a metric returned as one number and the same metric
returned as (P, R) are compared on the same footing.  Every cell is already read
on its metric's own anchored scale (docs/scalar-metrics.md), so equal values
mean equal behaviour.

Distance: the share of compared cells whose values differ.  Ties are broken by
the mean absolute difference of the per-case headline numbers, each row's
numbers first put on its own scale: its declared bounds when both are finite,
else the span of its own case numbers, oriented so that 1 is its best end
(a lower-is-better delay and an F1 then compare like for like).  Rows that
share fewer than :data:`MIN_SHARED` of the placed row's defined cells, or fewer
than :data:`MIN_SHARED_CELLS` cells, are not candidates: a row with a handful of
defined cells would otherwise sit at distance 0 from rows whose case values
anti-correlate (a delay with 4 defined cells beside an F1).
"""

from __future__ import annotations

import math
from typing import Any, Mapping, NamedTuple

__all__ = ["Neighbour", "nearest", "differences", "compared_cells", "defined", "UNDEFINED", "MIN_SHARED", "MIN_SHARED_CELLS",
           "own_scale"]

#: Cell values that are not a value: not applicable, undetermined, not profiled.
UNDEFINED = frozenset({"n/a", "?", "-", ""})
#: A candidate must define at least this share of the cells the placed row defines.
MIN_SHARED = 0.5
#: A placement compares at least this many cells both rows define.  Most cells take one of two values
#: (yes/no, present/absent); two unrelated rows then agree on a cell about half the time, and on 8 cells
#: with probability 2**-8 = 1/256: among the atlas's ~180 rows, less than one row is expected at
#: distance 0 by chance.  With 4 cells it would be 11 rows.
MIN_SHARED_CELLS = 8


class Neighbour(NamedTuple):
    """One nearby row.

    ``distance``: share of the compared cells that differ; ``compared``: how many cells both rows
    define; ``differs``: the differing cell names (characteristics first, then properties);
    ``case_distance``: mean |difference| of the per-case numbers on each row's own scale.
    """

    row_id: str
    distance: float
    compared: int
    differs: tuple[str, ...]
    case_distance: float


def defined(row: Mapping[str, Any]) -> dict[str, str]:
    """The row's cells that hold a value: characteristics, then properties (names unique across both)."""
    cells = {**dict(row.get("characteristics") or {}), **dict(row.get("properties") or {})}
    return {k: v for k, v in cells.items() if v is not None and str(v) not in UNDEFINED}


def compared_cells(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    """Cell names both rows define, in ``a``'s column order."""
    da, db = defined(a), defined(b)
    return [name for name in da if name in db]


def differences(a: Mapping[str, Any], b: Mapping[str, Any]) -> tuple[str, ...]:
    """The cells both rows define and on which their values differ."""
    da, db = defined(a), defined(b)
    return tuple(name for name in compared_cells(a, b) if da[name] != db[name])


def own_scale(row: Mapping[str, Any]) -> dict[str, float]:
    """The row's per-case numbers on its own scale, 1 at its best end (finite numbers only)."""
    values = {cid: float(v) for cid, v in (row.get("cases") or {}).items() if v is not None and math.isfinite(float(v))}
    lo, hi = (list(row.get("bounds") or [None, None]) + [None, None])[:2]
    if lo is None or hi is None or not hi > lo:
        lo, hi = (min(values.values()), max(values.values())) if values else (0.0, 1.0)
    span = hi - lo
    if span <= 0:
        return {cid: 0.5 for cid in values}
    scaled = {cid: (v - lo) / span for cid, v in values.items()}
    if not row.get("higher_is_better", True):
        scaled = {cid: 1.0 - v for cid, v in scaled.items()}
    return scaled


def _case_distance(a: Mapping[str, Any], b: Mapping[str, Any]) -> float:
    sa, sb = own_scale(a), own_scale(b)
    diffs = [abs(x - sb[cid]) for cid, x in sa.items() if cid in sb]
    return sum(diffs) / len(diffs) if diffs else math.inf


def nearest(row: Mapping[str, Any], rows: list[Mapping[str, Any]], k: int = 3,
            min_cells: int = MIN_SHARED_CELLS) -> list[Neighbour]:
    """The ``k`` profiled rows nearest to ``row`` by behaviour (itself excluded).

    Ordered by the share of differing cells, ties broken by the case distance; a candidate shares
    at least ``min_cells`` (default :data:`MIN_SHARED_CELLS`) and :data:`MIN_SHARED` of ``row``'s cells.
    """
    mine = len(defined(row))
    out = []
    for other in rows:
        if other["status"] != "ok" or other["id"] == row["id"]:
            continue
        shared = compared_cells(row, other)
        if not shared or len(shared) < max(min_cells, MIN_SHARED * mine):
            continue
        d = differences(row, other)
        out.append(Neighbour(other["id"], len(d) / len(shared), len(shared), d, _case_distance(row, other)))
    out.sort(key=lambda n: (n.distance, n.case_distance, -n.compared, n.row_id))
    return out[:k]
