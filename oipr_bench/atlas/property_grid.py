"""The atlas on the metric properties: a property grid per family, and where "the same" metric disagrees.

Each profiled row carries its metric property cells (``row["properties"]``,
suite ``all``; docs/properties.md).  :func:`property_markdown` and
:func:`property_html` render them next to the Table 5 grid, and
:func:`property_disagreements` lists, for every group of implementations of
"the same" metric (``row["group"]``), the properties on which they take
different values (``n/a``, ``?`` and ``-`` are not values and never count).
"""

from __future__ import annotations

import html
from typing import Any, Mapping

from ..vocabulary import METRIC_PROPERTIES

__all__ = ["PROPERTY_SHORT", "SATURATED_MARK", "shown", "saturated_lines", "property_cells", "property_disagreements",
           "property_markdown", "property_html"]

#: Column headers of the property grid.
PROPERTY_SHORT: dict[str, str] = dict(zip(METRIC_PROPERTIES, (
    "lag", "fp-dist", "spill", "redund", "pad", "reverse", "swap", "concat", "rank", "noise", "transform", "ties",
    "chance")))

NOT_VALUES = ("n/a", "?", "-")

#: How the grids show an undetermined cell whose case is *saturated* (the metric's perfect and uninformative
#: values lie within 0.02 of its range there, so it tells nothing apart); ``row["saturated"]`` says why.
SATURATED_MARK = "?sat"


def shown(row: Mapping[str, Any], name: str, value: str) -> str:
    """A grid cell as shown: :data:`SATURATED_MARK` for an undetermined cell the row lists as saturated."""
    return SATURATED_MARK if value == "?" and name in (row.get("saturated") or {}) else value


def saturated_lines(rows: list[Mapping[str, Any]]) -> list[tuple[str, str, str]]:
    """``(row id, characteristic or property, why)`` for every saturated cell, in row order."""
    return [(r["id"], name, why) for r in rows if r["status"] == "ok" for name, why in (r.get("saturated") or {}).items()]


def _label(row: Mapping[str, Any]) -> str:
    return f"{row['package']} {row['version'] or '(not installed)'}: {row['metric']}"


def property_cells(row: Mapping[str, Any], names: list[str]) -> list[str]:
    """The row's property cells; ``-`` for every column when the row was not profiled on the properties."""
    props = row.get("properties") or {}
    if row["status"] != "ok" or not props:
        return ["-"] * len(names)
    return [shown(row, n, props.get(n, "?")) for n in names]


def property_disagreements(rows: list[Mapping[str, Any]], names: list[str]) -> list[tuple[str, str, str]]:
    """``(group, property, "row = value; ...")`` for every property two rows of one group answer differently."""
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        if row.get("group") and row["status"] == "ok" and row.get("properties"):
            groups.setdefault(row["group"], []).append(row)
    out = []
    for group, members in groups.items():
        for name in names:
            values = {_label(r): r["properties"].get(name, "?") for r in members}  # stored values: "?" is not a value
            if len({v for v in values.values() if v not in NOT_VALUES}) > 1:
                out.append((group, name, "; ".join(f"{k} = {v}" for k, v in values.items())))
    return out


def _md_table(header: list[str], rows: list[list[str]]) -> list[str]:
    esc = [[c.replace("|", "\\|") for c in r] for r in [header] + rows]
    return ["| " + " | ".join(esc[0]) + " |", "|" + "|".join("---" for _ in header) + "|"] + [
        "| " + " | ".join(r) + " |" for r in esc[1:]]


def property_markdown(doc: Mapping[str, Any]) -> list[str]:
    """The property sections of ``ATLAS.md`` (none when the atlas has no property columns)."""
    names = list(doc.get("properties") or [])
    if not names:
        return []
    rows = list(doc["rows"])
    out = ["## Metric properties", "",
           "Columns: " + "; ".join(f"`{PROPERTY_SHORT.get(n, n)}` {n}" for n in names) + " (docs/properties.md).", "",
           "Cells: the property's value; `n/a` a property the metric cannot answer (a score property for a metric "
           f"taking 0/1 predictions); `?` undetermined; `{SATURATED_MARK}` undetermined because the case it reads is "
           "saturated (listed with the reason under \"Saturated cells\"); `-` not profiled on the properties.", ""]
    families: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        families.setdefault(row["family"], []).append(row)
    for family, members in families.items():
        out += [f"### {family} (properties)", ""]
        out += _md_table(["metric", *[PROPERTY_SHORT.get(n, n) for n in names]],
                         [[_label(r), *property_cells(r, names)] for r in members]) + [""]
    found = property_disagreements(rows, names)
    out += ["## Where \"the same\" metric disagrees on a property", ""]
    if not found:
        return out + ["No group of implementations disagrees on a property.", ""]
    return out + _md_table(["group", "property", "values"], [list(f) for f in found]) + [""]


def property_html(doc: Mapping[str, Any]) -> str:
    """The property grid and the disagreements as HTML ("" when the atlas has no property columns)."""
    names = list(doc.get("properties") or [])
    if not names:
        return ""
    e = html.escape
    parts = ["<h2>Metric properties</h2><table><tr><th>metric</th>"
             + "".join(f"<th title='{e(n)}'>{e(PROPERTY_SHORT.get(n, n))}</th>" for n in names) + "</tr>"]
    for row in doc["rows"]:
        why = row.get("saturated") or {}
        parts.append(f"<tr><td>{e(_label(row))}</td>" + "".join(
            f"<td title='{e(why[n])}'>{e(c)}</td>" if c == SATURATED_MARK else f"<td>{e(c)}</td>"
            for n, c in zip(names, property_cells(row, names))) + "</tr>")
    parts.append("</table><h2>Where \"the same\" metric disagrees on a property</h2><table>"
                 "<tr><th>group</th><th>property</th><th>values</th></tr>")
    parts += [f"<tr><td>{e(g)}</td><td>{e(p)}</td><td>{e(v)}</td></tr>" for g, p, v in property_disagreements(list(doc["rows"]), names)]
    parts.append("</table>")
    return "".join(parts)
