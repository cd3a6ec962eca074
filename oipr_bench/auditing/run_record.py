"""What a run set out to do and how far it got: :class:`RunRecord`, the completeness of a report.

A report is evidence only when it says which of its suite's items it holds.  The suite of an
audit (its options: Table 5, the metric properties, the sanity checks, a reference, a differential
run) fixes the items it *plans*, one id each, spelled like the pytest plugin's items
(``case[<scenario>/<case>]``, ``sanity[<name>]``, ``characteristic[<name>]``, ``property[<name>]``,
``reference[<scenario>/<case>]``, ``differential[<family>]``).  A run may hold fewer: items
deselected (``pytest -k``, ``-m``, ``--deselect``), items never run (``-x``, ``--maxfail``), or a run
interrupted (Ctrl-C).  Such a run is *partial*, and a partial run is never ``ok``.

:func:`planned_items` lists the planned ids; :class:`RunRecord` holds them with the deselected ids,
the selection expressions and the interruption; :func:`present_items` lists what a profile holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from ..vocabulary import CHARACTERISTICS, METRIC_PROPERTIES

__all__ = ["RunRecord", "planned_items", "present_items", "item_id", "duplicate_item"]


def item_id(kind: str, key: str) -> str:
    """The id of one item: ``kind[key]`` (``characteristic[fragments_merging]``)."""
    return f"{kind}[{key}]"


def planned_items(case_ids: Sequence[str], sanity_checks: Sequence[str], *, table5: bool, properties: bool,
                  reference: bool, families: Sequence[str]) -> tuple[str, ...]:
    """The item ids a suite holds, in the plugin's collection order.

    Parameters
    ----------
    case_ids : sequence of str
        The cases run (the dataset's, then the user's own).
    sanity_checks : sequence of str
        The sanity checks run (empty when they are off).
    table5, properties : bool
        Whether the suite holds Table 5 (cases, characteristics) and the metric properties.
    reference : bool
        Whether every case is compared with a reference (with Table 5 only).
    families : sequence of str
        The differential families run.
    """
    keys = [("case", c) for c in case_ids if table5]
    keys += [("sanity", n) for n in sanity_checks]
    keys += [("characteristic", n) for n in CHARACTERISTICS if table5]
    keys += [("property", n) for n in METRIC_PROPERTIES if properties]
    keys += [("reference", c) for c in case_ids if reference and table5]
    keys += [("differential", f) for f in families]
    return tuple(item_id(k, v) for k, v in keys)


def present_items(profile: Any) -> tuple[str, ...]:
    """The item ids whose results ``profile`` holds (a :class:`~.results.Profile`).

    Without Table 5 in its suite (``properties``), the cases the sanity checks ran are not items
    of the run (the plugin collects none): they are left out.
    """
    table5 = profile.options.get("suite") != "properties"
    parts = (("case", profile.case_results if table5 else {}), ("sanity", profile.sanity_results),
             ("characteristic", profile.characteristic_results), ("property", profile.property_results),
             ("reference", profile.reference_results), ("differential", profile.differential_results))
    return tuple(item_id(kind, key) for kind, results in parts for key in results)


def duplicate_item(d: Mapping[str, Any]) -> tuple[str, str] | None:
    """The first item a report's dict holds twice, as ``(message, JSON path)``; None when none is.

    Read into a dict, a second copy would silently replace the first.
    """
    ref = d.get("reference")
    lists = (("cases", d["cases"], "case_id"), ("characteristics", d["characteristics"], "name"),
             ("sanity", d["sanity"], "name"), ("properties", d["properties"], "name"),
             ("differential", d.get("differential", []), "family"),
             ("reference.results", [] if ref is None else ref["results"], "case_id"))
    for where, items, key in lists:
        seen: set[Any] = set()
        for i, item in enumerate(items):
            if item[key] in seen:
                return f"{key} {item[key]!r} appears twice", f"$.{where}[{i}]"
            seen.add(item[key])
    return None


@dataclass(frozen=True)
class RunRecord:
    """How much of its suite a run ran.

    Attributes
    ----------
    planned : tuple of str
        The items the suite holds (:func:`planned_items`).
    deselected : tuple of str
        Planned items the run was told not to run (``pytest -k``, ``-m``, ``--deselect``).
    selection : dict
        How items were selected: ``keyword`` (``-k``), ``markers`` (``-m``); empty when every item was.
    interrupted : bool
        The run was interrupted (Ctrl-C) before it ended.
    """

    planned: tuple[str, ...] = ()
    deselected: tuple[str, ...] = ()
    selection: Mapping[str, str] = field(default_factory=dict)
    interrupted: bool = False

    def not_run(self, present: Iterable[str]) -> tuple[str, ...]:
        """Planned items neither deselected nor held by the profile (in planned order)."""
        have = set(present) | set(self.deselected)
        return tuple(i for i in self.planned if i not in have)

    def unplanned(self, present: Iterable[str]) -> tuple[str, ...]:
        """Items the profile holds that its suite does not plan (a report edited, or from another suite)."""
        planned = set(self.planned)
        return tuple(i for i in present if i not in planned)

    def complete(self, present: Iterable[str]) -> bool:
        """True when every planned item ran and the run was not interrupted."""
        return not self.interrupted and not self.deselected and not self.not_run(present)

    def to_dict(self, present: Sequence[str]) -> dict[str, Any]:
        """The report's ``run`` object (``schema/report.schema.json``)."""
        return {"planned": len(self.planned), "complete": self.complete(present), "interrupted": self.interrupted,
                "selection": dict(self.selection), "deselected": list(self.deselected),
                "never_run": list(self.not_run(present))}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any] | None, present: Sequence[str]) -> "RunRecord":
        """The record of a report's ``run`` object: planned are the items held, deselected and not run.

        An older report without one (layout version 3) reads as complete.
        """
        if d is None:
            return cls(tuple(present))
        held = list(present) + [i for i in (*d.get("deselected", ()), *d.get("never_run", ())) if i not in present]
        return cls(tuple(held), tuple(d.get("deselected", ())), dict(d.get("selection") or {}),
                   bool(d.get("interrupted", False)))

    def describe(self, present: Sequence[str]) -> str:
        """One line: ``complete: 41 items``, or what is missing and why (empty when complete)."""
        if self.complete(present):
            return ""
        held = len(set(present) & set(self.planned))
        parts = [f"partial run: {held} of {len(self.planned)} planned items"]
        if self.interrupted:
            parts.append("interrupted (Ctrl-C)")
        how = ", ".join(f"{'-k' if k == 'keyword' else '-m' if k == 'markers' else k} {v!r}"
                        for k, v in self.selection.items())
        if self.deselected:
            parts.append(f"{len(self.deselected)} deselected" + (f" ({how})" if how else ""))
        missing = self.not_run(present)
        if missing:
            parts.append(f"{len(missing)} not run")
        return "; ".join(parts)
