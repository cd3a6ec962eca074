"""Your metric among the atlas rows: its row inside the grid and the three nearest rows by behaviour.

Used by ``oipr-bench atlas --evaluator X`` and the plugin's ``--oipr-atlas``;
both audit only X with the same options (:func:`placement_options`: the suite ``all`` unless one
is given, since the rows carry characteristics and properties) and read the committed rows
(``atlas.json``), so both place a metric on the same nearest rows.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, Mapping

from .adapters.base import Adapter
from .build import row_from_report
from .nearest import MIN_SHARED_CELLS, defined, nearest
from .render import SHORT, grid_lines

__all__ = ["user_row", "placement_lines", "unplaceable", "placement_options"]


def placement_options(options: Any) -> Any:
    """The audit options a placement runs with (both front ends): ``options`` with the suite ``all`` unless one is given.

    The atlas rows carry characteristics and metric properties; a metric audited on Table 5 alone would be
    compared on its characteristics only and land elsewhere.
    """
    from ..vocabulary import SUITE_ALL

    return options if options.suite is not None else dataclasses.replace(options, suite=SUITE_ALL)


def unplaceable(report: Mapping[str, Any]) -> str:
    """Why ``report``'s evaluator cannot be placed among the metrics ("" when it can).

    An evaluator none of whose calls gave a usable result (every one raised, timed out, or returned
    NaN where the value is defined) has a row of ``?``: placing it would be noise, not a finding.
    """
    cases = list(report.get("cases") or [])
    if any(c.get("status") == "ok" for c in cases):
        return ""
    first = next(iter(cases), {})
    detail = f" (first: {first.get('case_id')}: {first.get('status')}: {first.get('message')})" if first else ""
    return f"no call gave a usable result on any of the {len(cases)} cases{detail}; nothing to place"


def user_row(name: str, report: Mapping[str, Any], declarations: Any = None) -> dict[str, Any]:
    """An atlas row for the audited evaluator ``name`` from its report.

    ``declarations``: what declares its input kind, orientation and bounds (the audit's
    :class:`~oipr_bench.auditing.calling.declarations.Declarations`, or the evaluator object).
    """
    adapter = Adapter(
        package="(yours)",
        metric=name,
        family="your metric",
        build=lambda params: declarations,
        params=dict(report["evaluator"]["params"]),
        input_kind=str(getattr(declarations, "input_kind", "binary")),
        kind=str(report.get("kind") or "pr"),
        higher_is_better=bool(getattr(declarations, "higher_is_better", True)),
        bounds=tuple(None if b is None or math.isinf(b) else b for b in getattr(declarations, "bounds", (0.0, 1.0))),  # type: ignore[arg-type]
    )
    row = row_from_report(adapter, dict(report))
    row["version"] = "-"
    return row


def placement_lines(row: Mapping[str, Any], doc: Mapping[str, Any], k: int = 3) -> list[str]:
    """The grid with ``row`` marked ``>>`` on top, then its ``k`` nearest rows by behaviour (:mod:`.nearest`).

    Each nearest row says how many cells (characteristics and properties both rows define) were
    compared, which of them differ, and the mean case difference on each row's own scale.
    """
    names = list(doc["characteristics"])
    lines = grid_lines([row, *doc["rows"]], names, mark=row["id"])
    mine = len(defined(row))
    lines += ["", f"nearest rows to {row['metric']} by behaviour (of {sum(r['status'] == 'ok' for r in doc['rows'])} profiled; "
                  f"compared on the characteristics and properties both define, {mine} defined here):"]
    if mine < MIN_SHARED_CELLS:
        return lines + [f"  not placed: {mine} defined cells, fewer than the {MIN_SHARED_CELLS} a placement compares "
                        "(with so few, unrelated rows agree by chance)"]
    for n in nearest(row, list(doc["rows"]), k=k):
        where = ", ".join(SHORT.get(c, c) for c in n.differs) or "none: same behaviour"
        cases = (f"mean |case difference| {n.case_distance:.3f} on each row's own scale" if math.isfinite(n.case_distance)
                 else "no case where both gave a number")
        lines.append(f"  {n.row_id}: {len(n.differs)} of {n.compared} cells differ ({where}); {cases}")
    return lines
