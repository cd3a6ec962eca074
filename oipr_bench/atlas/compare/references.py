"""What a cell of an atlas row is judged against in ``atlas --diff``.

A row's **reference** is oipr-bench's built-in evaluator of the same metric: the built-in row
(package ``oipr-bench``) whose ``group`` is the row's (``point-wise F1``, ``VUS-PR``, ...; a row
without a group, and a row whose group has no built-in, has none).  Its per-case reference
values are the built-in's stored reference values (``reference_results/``, read by
:func:`oipr_bench.reference.values.reference_values`: the F1 of a binary built-in, the number of a
score built-in), its reference verdicts the built-in row's characteristic and property cells.  A
built-in row is judged on its own stored reference values; its verdicts have no reference (they
are what the others are judged against).
"""

from __future__ import annotations

import functools
import math
from typing import Any, Mapping

__all__ = ["BUILTIN_PACKAGE", "builtin_rows", "reference_row", "reference_values"]

#: The package name of oipr-bench's own rows in the atlas.
BUILTIN_PACKAGE = "oipr-bench"


def builtin_rows(*docs: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """The built-in row of each group, from the first of ``docs`` that has one (NEW before OLD)."""
    out: dict[str, Mapping[str, Any]] = {}
    for doc in docs:
        for row in doc["rows"]:
            group = row.get("group")
            if row.get("package") == BUILTIN_PACKAGE and group and group not in out:
                out[group] = row
    return out


def reference_row(row: Mapping[str, Any], builtins: Mapping[str, Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The built-in row ``row`` is judged against (None: no reference; ``row`` itself when it is one)."""
    if row.get("package") == BUILTIN_PACKAGE:
        return row
    group = row.get("group")
    return builtins.get(group) if group else None


@functools.lru_cache(maxsize=None)
def _stored_values(metric: str) -> tuple[tuple[str, float | None], ...]:
    from ...reference.values import reference_values as stored

    try:
        values = stored(metric)
    except KeyError:  # not one of this oipr-bench's evaluators (an atlas of another version): no stored values
        return ()
    out = []
    for case_id, value in values.items():
        number = value.score.f1
        out.append((case_id, None if number is None or math.isnan(number) else float(number)))
    return tuple(out)


def reference_values(builtin: Mapping[str, Any] | None) -> dict[str, float | None]:
    """``{case_id: value}`` of the built-in row ``builtin``'s stored reference values ({} when None).

    The stored file holds the built-in with its default parameters, which are the ones its atlas
    row declares (``params`` empty); a built-in row with other parameters has no stored values.
    """
    if builtin is None or builtin.get("params"):
        return {}
    return dict(_stored_values(str(builtin["metric"])))
