"""Place a metric among the atlas rows: the nearest rows by profile.

Distance between two rows: the number of characteristics whose cells differ
(``n/a`` and ``?`` are cells like any other), then, to break ties, the mean
absolute difference of the per-case headline numbers over the cases both
computed (a number on a different scale simply counts as far).
"""

from __future__ import annotations

import math
from typing import Any, Mapping, NamedTuple

__all__ = ["Neighbour", "nearest", "differences"]


class Neighbour(NamedTuple):
    """One nearby row: its id, the characteristic distance, the case distance, the differing characteristics."""

    row_id: str
    distance: int
    case_distance: float
    differs: tuple[str, ...]


def differences(a: Mapping[str, Any], b: Mapping[str, Any], names: list[str]) -> tuple[str, ...]:
    """Characteristics where rows ``a`` and ``b`` have different cells."""
    ca, cb = a["characteristics"], b["characteristics"]
    return tuple(n for n in names if ca.get(n, "?") != cb.get(n, "?"))


def _case_distance(a: Mapping[str, Any], b: Mapping[str, Any]) -> float:
    diffs = [
        abs(x - y)
        for cid, x in a["cases"].items()
        if x is not None and (y := b["cases"].get(cid)) is not None and math.isfinite(x) and math.isfinite(y)
    ]
    return sum(diffs) / len(diffs) if diffs else math.inf


def nearest(row: Mapping[str, Any], rows: list[Mapping[str, Any]], names: list[str], k: int = 3) -> list[Neighbour]:
    """The ``k`` profiled rows nearest to ``row`` (itself excluded)."""
    out = []
    for other in rows:
        if other["status"] != "ok" or other["id"] == row["id"]:
            continue
        d = differences(row, other, names)
        out.append(Neighbour(other["id"], len(d), _case_distance(row, other), d))
    out.sort(key=lambda n: (n.distance, n.case_distance, n.row_id))
    return out[:k]
