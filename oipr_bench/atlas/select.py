"""Which metrics have the properties I need?  Rows selected by their cell values (``atlas --where``).

A condition is ``NAME=VALUE``: NAME a characteristic (Table 5's rows and the two overestimation
markers; the grid's column header, e.g. ``early``, works too) or a metric property
(docs/properties.md), or a real-data column (:data:`~.realdata.summary.REAL_COLUMNS`, when the atlas
has its real-data summary: e.g. ``real_random_beats_detectors=yes``), VALUE one of its cell values.  A row is
selected when every condition's cell holds exactly that value (``?`` and ``n/a`` never match);
the selected rows are ranked by how many of their other cells are undetermined (``?``), fewest
first, so the rows whose profile is most complete come first; then by row id.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, NamedTuple

from ..errors import UsageError
from .realdata.summary import REAL_COLUMNS, real_cells

__all__ = ["Selected", "parse_conditions", "where", "where_lines"]


class Selected(NamedTuple):
    """A selected row and how many of its cells are undetermined (``?``)."""

    row: Mapping[str, Any]
    undetermined: int


def _cells(row: Mapping[str, Any], doc: Mapping[str, Any] | None = None) -> dict[str, str]:
    cells = {**dict(row.get("characteristics") or {}), **dict(row.get("properties") or {})}
    if doc is not None and doc.get("realdata"):
        cells.update(real_cells(doc["realdata"], str(row["id"])))
    return cells


def _columns(doc: Mapping[str, Any]) -> list[str]:
    return list(doc["characteristics"]) + list(doc.get("properties") or []) + (list(REAL_COLUMNS) if doc.get("realdata") else [])


def parse_conditions(items: Iterable[str], doc: Mapping[str, Any]) -> dict[str, str]:
    """``["NAME=VALUE", ...]`` as a dict, checked against the atlas's columns and the values they hold.

    Raises :class:`~oipr_bench.errors.UsageError` (one line, naming the item) on a malformed item,
    an unknown name, a name given twice, or a value no row of the atlas holds in that column.
    """
    from .render import SHORT

    columns = _columns(doc)
    aliases = {short: name for name, short in SHORT.items()}
    out: dict[str, str] = {}
    from ..guards import clip

    for given in items:
        item = clip(given, 80)  # as the messages quote it: a huge argument is not echoed back whole
        name, sep, value = given.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name or not value:
            raise UsageError(f"--where {item!r}: expected NAME=VALUE (e.g. early_detection_reward=yes)")
        name = aliases.get(name, name)
        if name not in columns:
            raise UsageError(f"--where {item!r}: unknown name {clip(name, 80)!r}; names: {', '.join(columns)}")
        if name in out:
            raise UsageError(f"--where {item!r}: {name} is given twice")
        seen = sorted({str(_cells(r, doc).get(name)) for r in doc["rows"] if r["status"] == "ok"} - {"None"})
        if value not in seen:
            raise UsageError(f"--where {item!r}: no row has {name}={clip(value, 80)}; values in the atlas: "
                             f"{', '.join(seen)}")
        out[name] = value
    if not out:
        raise UsageError("--where needs at least one NAME=VALUE")
    return out


def where(conditions: Mapping[str, str], doc: Mapping[str, Any] | None = None) -> list[Selected]:
    """The profiled rows of ``doc`` (default: the shipped atlas) with every ``conditions`` value, ranked.

    Parameters
    ----------
    conditions : mapping of str to str
        Characteristic or property name -> required cell value (e.g. ``{"early_detection_reward": "yes"}``).
    doc : mapping, optional
        An atlas document (:func:`oipr_bench.atlas.store.read_atlas`); the shipped atlas when None.

    Returns
    -------
    list of Selected
        Fewest undetermined (``?``) cells first, then by row id.
    """
    if doc is None:
        from .store import read_atlas

        doc = read_atlas()
    out = []
    for row in doc["rows"]:
        if row["status"] != "ok":
            continue
        cells = _cells(row, doc)
        if all(cells.get(name) == value for name, value in conditions.items()):
            out.append(Selected(row, sum(v == "?" for v in cells.values())))
    out.sort(key=lambda s: (s.undetermined, s.row["id"]))
    return out


def _params(params: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in params.items()) or "defaults"


def where_lines(conditions: Mapping[str, str], doc: Mapping[str, Any]) -> list[str]:
    """The selection as printed by ``oipr-bench atlas --where``."""
    from .render import row_label

    found = where(conditions, doc)
    profiled = sum(r["status"] == "ok" for r in doc["rows"])
    asked = ", ".join(f"{k}={v}" for k, v in conditions.items())
    lines = [f"rows with {asked}: {len(found)} of {profiled} profiled (fewest undetermined cells first)"]
    for s in found:
        lines.append(f"  {row_label(s.row)} [{s.row['family']}]: {s.undetermined} undetermined; {_params(s.row['params'])}")
    return lines
