"""Two atlases compared cell by cell: every cell ``regression``, ``fixed``, ``changed`` or ``unchanged``.

The rules (docs/atlas.md, "Comparing two atlases"), applied to each row present in both atlases
(rows by id), cell by cell, the first rule that applies deciding:

- a **per-case value** (``cases``; a value the row does not give, NaN or a failed call, and a case
  the row lacks are *undefined*): equal within :data:`TOLERANCE` (undefined equals undefined):
  ``unchanged``; the row has a reference value for the case (:mod:`.references`) and the new value
  equals it: ``fixed``; the old one equalled it: ``regression``; defined before and undefined now:
  ``regression``; undefined before and defined now: ``fixed``; else ``changed``;
- a **characteristic** or **property** cell: equal: ``unchanged``; the reference row holds a
  value there (not ``n/a``, ``?`` or ``-``) and the new cell equals it: ``fixed``; the old one did:
  ``regression``; else ``changed``;
- a **sanity** check (one cell per check, ``passed`` or ``failed``): passing before and failing
  now: ``regression``; the reverse: ``fixed``;
- the **status**: ``ok`` before and not now: ``regression``; the reverse: ``fixed``; another move:
  ``changed``.  A row that is not ``ok`` in one of the atlases (or in both) has no other cells
  there: only its status (with the reason) and its declared fields are compared;
- a **declared** field (parameters, input kind, orientation, bounds, audit size, group, ...; what
  the adapter declares, not what the package computes): moved: ``changed``.

The package version is not a cell: it is shown beside the row.  Rows present in one atlas only are
listed once each, as new or removed, and are no regression.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping

from ..build import same_number
from ..drift import TOLERANCE
from .references import builtin_rows, reference_row, reference_values

__all__ = ["REGRESSION", "FIXED", "CHANGED", "UNCHANGED", "CLASSES", "TOLERANCE", "Cell", "RowDiff", "AtlasDiff",
           "diff_rows", "diff_atlases", "diff_lines"]

REGRESSION, FIXED, CHANGED, UNCHANGED = "regression", "fixed", "changed", "unchanged"
#: The four classes of a cell, in the order the summary gives them.
CLASSES = (REGRESSION, FIXED, CHANGED, UNCHANGED)

#: A cell value that is no value (never a reference verdict).
NO_VALUE = frozenset({"n/a", "?", "-", ""})
#: Fields of a row that its adapter declares (compared as ``declared`` cells).
DECLARED = ("metric", "family", "group", "params", "input_kind", "kind", "higher_is_better", "bounds",
            "random_runs", "chance_draws", "env", "slow")
#: A characteristic or property cell a row does not have.
ABSENT = "absent"
STATUS_OK = "ok"
PASSED, FAILED = "passed", "failed"


@dataclasses.dataclass(frozen=True)
class Cell:
    """One cell of a row in both atlases and its class.

    ``kind`` is ``case``, ``characteristic``, ``property``, ``sanity``, ``status`` or ``declared``;
    ``reference`` is the value it was judged against (``None`` with ``judged`` False: none).
    """

    kind: str
    name: str
    old: Any
    new: Any
    verdict: str
    reference: Any = None
    judged: bool = False
    note: str = ""


@dataclasses.dataclass(frozen=True)
class RowDiff:
    """A row present in both atlases: its versions and every cell."""

    row_id: str
    package: str
    old_version: str | None
    new_version: str | None
    cells: tuple[Cell, ...]

    def count(self, verdict: str) -> int:
        return sum(c.verdict == verdict for c in self.cells)

    @property
    def differs(self) -> bool:
        return self.old_version != self.new_version or any(c.verdict != UNCHANGED for c in self.cells)


@dataclasses.dataclass(frozen=True)
class AtlasDiff:
    """Every row in both atlases, and the ids of the rows in one only (``(id, package, version)``)."""

    rows: tuple[RowDiff, ...]
    added: tuple[tuple[str, str, str | None], ...]
    removed: tuple[tuple[str, str, str | None], ...]

    def count(self, verdict: str) -> int:
        return sum(r.count(verdict) for r in self.rows)

    @property
    def regressed(self) -> bool:
        return self.count(REGRESSION) > 0


def _value_cell(name: str, old: Any, new: Any, reference: Mapping[str, Any]) -> Cell:
    judged = name in reference
    ref = reference.get(name)
    make = lambda verdict: Cell("case", name, old, new, verdict, ref, judged)  # noqa: E731
    if same_number(old, new, TOLERANCE):
        return make(UNCHANGED)
    if judged and same_number(new, ref, TOLERANCE):
        return make(FIXED)
    if judged and same_number(old, ref, TOLERANCE):
        return make(REGRESSION)
    if new is None:
        return make(REGRESSION)
    if old is None:
        return make(FIXED)
    return make(CHANGED)


def _verdict_cell(kind: str, name: str, old: Any, new: Any, ref: Any) -> Cell:
    judged = isinstance(ref, str) and ref not in NO_VALUE
    make = lambda verdict: Cell(kind, name, old, new, verdict, ref if judged else None, judged)  # noqa: E731
    if old == new:
        return make(UNCHANGED)
    if judged and new == ref:
        return make(FIXED)
    if judged and old == ref:
        return make(REGRESSION)
    return make(CHANGED)


def _toward(kind: str, name: str, old: Any, new: Any, good: Any) -> Cell:
    """A cell whose reference is its working state ``good`` (status ``ok``, a passing check)."""
    if old == new:
        verdict = UNCHANGED
    elif new == good:
        verdict = FIXED
    elif old == good:
        verdict = REGRESSION
    else:
        verdict = CHANGED
    return Cell(kind, name, old, new, verdict, good, True)


def _cases(row: Mapping[str, Any]) -> dict[str, Any]:
    return dict(row.get("cases") or {})


def diff_rows(old: Mapping[str, Any], new: Mapping[str, Any], builtins: Mapping[str, Mapping[str, Any]]) -> RowDiff:
    """Every cell of one row in OLD and NEW, classified against the row's reference (:mod:`.references`)."""
    from ...vocabulary import SANITY_CHECKS

    status = _toward("status", "status", old.get("status"), new.get("status"), STATUS_OK)
    declared = [Cell("declared", key, old.get(key), new.get(key), CHANGED if old.get(key) != new.get(key) else UNCHANGED)
                for key in DECLARED]
    if old.get("status") != STATUS_OK or new.get("status") != STATUS_OK:
        # a row not profiled in one of the atlases has no cells there: its status is what moved
        reason = new.get("reason") if new.get("status") != STATUS_OK else old.get("reason")
        status = dataclasses.replace(status, note=str(reason or ""))
        return RowDiff(str(new["id"]), str(new.get("package")), old.get("version"), new.get("version"), (status, *declared))
    ref_row = reference_row(new, builtins)
    values = reference_values(ref_row)
    verdict_ref = None if ref_row is new else ref_row  # a built-in is not its own verdict reference
    cells: list[Cell] = []
    old_cases, new_cases = _cases(old), _cases(new)
    for name in list(new_cases) + [c for c in old_cases if c not in new_cases]:
        cells.append(_value_cell(name, old_cases.get(name), new_cases.get(name), values))
    for kind, key in (("characteristic", "characteristics"), ("property", "properties")):
        before, after = old.get(key) or {}, new.get(key) or {}
        refs = (verdict_ref.get(key) or {}) if verdict_ref is not None else {}
        for name in list(after) + [n for n in before if n not in after]:
            cells.append(_verdict_cell(kind, name, before.get(name, ABSENT), after.get(name, ABSENT), refs.get(name)))
    failed_before, failed_after = set(old.get("sanity_failed") or ()), set(new.get("sanity_failed") or ())
    extra = sorted((failed_before | failed_after) - set(SANITY_CHECKS))
    for name in (*SANITY_CHECKS, *extra):
        cells.append(_toward("sanity", name, FAILED if name in failed_before else PASSED,
                             FAILED if name in failed_after else PASSED, PASSED))
    cells.append(status)
    cells += declared
    return RowDiff(str(new["id"]), str(new.get("package")), old.get("version"), new.get("version"), tuple(cells))


def diff_atlases(old_doc: Mapping[str, Any], new_doc: Mapping[str, Any]) -> AtlasDiff:
    """Every row of both atlases compared (rows by id, in NEW's order); the rows in one only."""
    builtins = builtin_rows(new_doc, old_doc)
    old_rows = {r["id"]: r for r in old_doc["rows"]}
    new_ids = {r["id"] for r in new_doc["rows"]}
    rows = tuple(diff_rows(old_rows[r["id"]], r, builtins) for r in new_doc["rows"] if r["id"] in old_rows)
    added = tuple((r["id"], r.get("package"), r.get("version")) for r in new_doc["rows"] if r["id"] not in old_rows)
    removed = tuple((r["id"], r.get("package"), r.get("version")) for r in old_doc["rows"] if r["id"] not in new_ids)
    return AtlasDiff(rows, added, removed)


def _show(value: Any) -> str:
    if value is None:
        return "undefined"
    if isinstance(value, float):
        return repr(value)
    return value if isinstance(value, str) else repr(value)


def _counts(item: RowDiff | AtlasDiff) -> str:
    return ", ".join(f"{item.count(v)} {v}" for v in CLASSES)


def cell_line(cell: Cell) -> str:
    """``  regression  case fragmented_fps/c1: 0.5 -> 0.6 (reference 0.5)``."""
    ref = f" (reference {_show(cell.reference)})" if cell.judged and cell.kind in ("case", "characteristic", "property") else ""
    note = f" ({cell.note})" if cell.note else ""
    return f"  {cell.verdict:<10}  {cell.kind} {cell.name}: {_show(cell.old)} -> {_show(cell.new)}{ref}{note}"


def diff_lines(result: AtlasDiff) -> list[str]:
    """The report: each row that differs (a header and its moved cells), new and removed rows, one summary line."""
    out: list[str] = []
    for row in result.rows:
        if not row.differs:
            continue
        versions = row.new_version if row.old_version == row.new_version else f"{row.old_version} -> {row.new_version}"
        out.append(f"{row.row_id} ({row.package} {versions}): {_counts(row)}")
        out += [cell_line(c) for c in row.cells if c.verdict != UNCHANGED]
    out += [f"new row {rid} ({package} {version})" for rid, package, version in result.added]
    out += [f"removed row {rid} ({package} {version})" for rid, package, version in result.removed]
    versions = sum(r.old_version != r.new_version for r in result.rows)
    moved = sum(any(c.verdict != UNCHANGED for c in r.cells) for r in result.rows)
    regressed = sum(r.count(REGRESSION) > 0 for r in result.rows)
    out.append(f"atlas --diff: {len(result.rows)} rows in both ({versions} with another version, {moved} with a moved cell, "
               f"{regressed} with a regression), "
               f"{len(result.added)} new, {len(result.removed)} removed; cells: {_counts(result)}")
    return out
