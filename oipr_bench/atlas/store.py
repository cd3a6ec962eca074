"""The atlas folder: ``atlas.json``, one profile per row, ``ATLAS.md``, ``atlas.html``.

Layout of ``DIR`` (the repository's top-level ``atlas/``, shipped in the wheel
as ``oipr_bench/_data/atlas``)::

    atlas.json              every row (see oipr_bench.atlas.build)
    profiles/<slug>.json    {"format": "oipr-bench-atlas-row", "row": ..., "report": audit report or null}
    ATLAS.md, atlas.html    the grid, rendered
    DISAGREEMENTS.md        written by ``oipr-bench atlas --disagreements``
    requirements.txt        the pinned environment (not written here)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping

from .adapters.base import slug

__all__ = ["ATLAS_FORMAT", "ROW_FORMAT", "write_atlas", "read_atlas", "read_profile", "default_dir", "validate_report", "slug"]

ATLAS_FORMAT = ("oipr-bench-atlas", 1)
ROW_FORMAT = "oipr-bench-atlas-row"


def default_dir() -> Path:
    """The shipped atlas folder (packaged copy, or the source checkout's ``atlas/``)."""
    from .._paths import data_dir

    return data_dir("atlas")


def validate_report(report: Mapping[str, Any]) -> None:
    """Raise ``jsonschema.ValidationError`` unless ``report`` follows ``schema/report.schema.json``."""
    import jsonschema

    from .._paths import data_dir

    schema = json.loads((data_dir("schema") / "report.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(report, schema)


def _dump(obj: Any) -> str:
    return json.dumps(obj, indent=1, sort_keys=False, allow_nan=False) + "\n"


def _write_text(path: Path, text: str) -> None:
    from ..io import atomic_write_text

    atomic_write_text(path, text)


def atlas_document(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """``atlas.json`` as plain data."""
    from .._version import __version__
    from ..auditing.table5.characteristics import CHARACTERISTICS
    from ..vocabulary import METRIC_PROPERTIES

    return {
        "format": ATLAS_FORMAT[0],
        "format_version": ATLAS_FORMAT[1],
        "oipr_bench_version": __version__,
        "characteristics": list(CHARACTERISTICS),
        "properties": list(METRIC_PROPERTIES),
        "rows": rows,
    }


def write_atlas(directory: Path, rows: list[dict[str, Any]], reports: Mapping[str, dict[str, Any] | None]) -> list[Path]:
    """Write every file of the atlas into ``directory``; return the paths written.

    Reports are written as they are; a report that breaks the report schema is named in its
    row's reason (see :func:`oipr_bench.atlas.build.schema_problem`).
    """
    from .realdata.rowfiles import read_summary
    from .render import render_html, render_markdown

    from ..io import make_output_folder

    make_output_folder(directory)
    profiles = make_output_folder(directory / "profiles")
    written = []
    keep = set()
    for row in rows:
        report = reports.get(row["id"])
        path = profiles / f"{slug(row['id'])}.json"
        keep.add(path.name)
        _write_text(path, _dump({"format": ROW_FORMAT, "row": row, "report": report}))
        written.append(path)
    for stale in profiles.glob("*.json"):
        if stale.name not in keep:
            stale.unlink()
    doc = atlas_document(rows)
    realdata = read_summary(directory)
    for name, text in (("atlas.json", _dump(doc)), ("ATLAS.md", render_markdown(doc, realdata)),
                       ("atlas.html", render_html(doc, realdata))):
        _write_text(directory / name, text)
        written.append(directory / name)
    return written


def rerender(directory: Path) -> list[Path]:
    """``ATLAS.md`` and ``atlas.html`` rendered again from ``atlas.json`` and ``realdata/summary.json`` (no row profiled)."""
    from .realdata.rowfiles import read_summary
    from .render import render_html, render_markdown

    doc = read_atlas(directory)
    realdata = read_summary(directory)
    written = []
    for name, text in (("ATLAS.md", render_markdown(doc, realdata)), ("atlas.html", render_html(doc, realdata))):
        _write_text(directory / name, text)
        written.append(directory / name)
    return written


def committed_rows(directory: Path) -> dict[str, Any]:
    """The rows of ``directory``'s atlas.json by id (none when there is no atlas yet, or it is not one).

    Read without noting it as an input of the run: ``--write`` writes it anew.
    """
    path = directory / "atlas.json"
    doc = read_json(path, None) if path.exists() else {}
    rows = doc.get("rows") if isinstance(doc, dict) else None
    return {r["id"]: r for r in rows if isinstance(r, dict) and "id" in r} if isinstance(rows, list) else {}


def stored_report(directory: Path, rid: str) -> Any:
    """The audit report stored in ``profiles/<slug>.json`` for row ``rid`` (None: none, or unreadable, which
    :func:`oipr_bench.atlas.integrity.integrity_problems` names)."""
    from ..errors import UsageError

    try:
        stored = read_json(directory / "profiles" / f"{slug(rid)}.json", None)
    except UsageError:
        return None
    return stored.get("report") if isinstance(stored, dict) else None


def read_json(path: Path, what: str | None) -> Any:
    """Parse ``path`` with the hardened reader every input file goes through (oipr_bench.guards).

    A regular file only (a FIFO or a device is refused without blocking), at most
    ``MAX_TEXT_BYTES``, strict JSON (no NaN, no duplicate keys), bounded nesting.
    """
    from ..errors import UsageError
    from ..guards import UnreadableFile, loads_json, path_text, read_regular_bytes

    try:
        return loads_json(read_regular_bytes(path, what=what).decode("utf-8"))
    except UnreadableFile as exc:
        if str(exc) == "no such file":
            raise UsageError(f"atlas: {path_text(path)} not found (run `oipr-bench atlas --write`)") from None
        raise UsageError(f"atlas: cannot read {path_text(path)}: {exc}") from None
    except ValueError as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise UsageError(f"atlas: cannot read {path_text(path)}: {exc}") from None


def duplicate_ids(rows: list[Mapping[str, Any]]) -> list[str]:
    """Row ids that appear more than once, each once, in order."""
    seen: set[Any] = set()
    out: list[str] = []
    for row in rows:
        rid = row.get("id")
        if rid in seen and rid not in out:
            out.append(str(rid))
        seen.add(rid)
    return out


def read_atlas(directory: Path | None = None) -> dict[str, Any]:
    """Read ``atlas.json``: a one-line error naming the file and the field when it is not an atlas.

    The shape is checked against ``schema/atlas.schema.json`` before anything reads a field.
    """
    from ..errors import UsageError
    from ..guards import path_text
    from ..jsondata import schema_problem

    path = (directory or default_dir()) / "atlas.json"
    doc = read_json(path, "the atlas file")
    if not isinstance(doc, dict) or doc.get("format") != ATLAS_FORMAT[0] or doc.get("format_version") != ATLAS_FORMAT[1]:
        raise UsageError(f"atlas: {path_text(path)} is not an oipr-bench atlas (format {ATLAS_FORMAT[0]} version {ATLAS_FORMAT[1]})")
    problem = schema_problem(doc, "atlas.schema.json")
    if problem is not None:
        raise UsageError(f"atlas: {path_text(path)}: {problem.path}: {problem.message[:200]}")
    twice = duplicate_ids(doc["rows"])
    if twice:  # read as a dict, the last copy would win silently
        raise UsageError(f"atlas: {path_text(path)}: row id {twice[0]} appears more than once")
    return doc


def read_profile(directory: Path, row_id: str) -> dict[str, Any] | None:
    """The stored ``{"row", "report"}`` of ``row_id`` (None when absent).

    The file is one ``atlas --write`` regenerates, so it is not noted as an input of the run.
    """
    path = directory / "profiles" / f"{slug(row_id)}.json"
    if not path.is_file():
        return None
    return read_json(path, None)
