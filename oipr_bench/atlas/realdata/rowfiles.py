"""The real-data atlas on disk: ``atlas/realdata/rows/<row>.json`` (one per row) and ``summary.json``.

A row file holds the row's key (:func:`~.plan.row_key`), what it ran on (its plan, the data digest, the
protocol) and its cells: per series, the cache key of that series' cells and one result per detector
(``{"value": number, "failure": ""}`` or ``{"value": null, "failure": reason}``).  The committed files
are the durable cache across sessions: a run skips a row whose file carries its key, and reads any
series whose cells carry the key it needs (so a new budget recomputes only the series it adds).

A file that is not a row file of this format, names another row, or whose cells do not carry their
own keys is refused as a cache (named on stderr by the caller) and never read as a result.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Mapping

from ..adapters.base import slug

__all__ = ["ROW_FORMAT", "SUMMARY_FORMAT", "read_stored_report", "rows_dir", "row_path", "read_row_file", "read_row_files", "write_row_file",
           "write_summary", "read_summary", "committed_cells", "record_run", "read_runs"]

ROW_FORMAT = "oipr-bench real-data atlas row, format 1"
SUMMARY_FORMAT = "oipr-bench real-data atlas summary, format 1"
#: Largest row or summary file read (bytes).
MAX_BYTES = 32 * 1024 * 1024


def rows_dir(directory: Path) -> Path:
    return Path(directory) / "realdata" / "rows"


def row_path(directory: Path, row_id: str) -> Path:
    return rows_dir(directory) / f"{slug(row_id)}.json"


def _read(path: Path) -> tuple[Any, str]:
    from ...guards import UnreadableFile, loads_json, read_regular_bytes

    try:
        return loads_json(read_regular_bytes(path, MAX_BYTES, what=None).decode("utf-8")), ""
    except (UnreadableFile, OSError, ValueError) as exc:
        return None, f"unreadable: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"


def read_stored_report(directory: Path, row_id: str) -> dict[str, Any] | None:
    """The report stored for ``row_id`` in the atlas's ``profiles/`` (the constructed cases), or None
    when it is absent or unreadable (the pair's cause is then left untraced)."""
    doc, problem = _read(directory / "profiles" / f"{slug(row_id)}.json")
    if problem or not isinstance(doc, dict) or not isinstance(doc.get("report"), dict):
        return None
    return doc["report"]


def _checksum(cells: Any) -> str:
    return hashlib.sha256(json.dumps(cells, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def read_row_file(path: Path, row_id: str | None = None) -> tuple[dict[str, Any] | None, str]:
    """``(document, "")``, or ``(None, why it is not read)``: not this format, another row, or its cells altered."""
    doc, problem = _read(path)
    if problem:
        return None, problem
    if not isinstance(doc, dict) or doc.get("format") != ROW_FORMAT:
        return None, "not a real-data atlas row file (format)"
    if row_id is not None and (not isinstance(doc.get("row"), dict) or doc["row"].get("id") != row_id):
        return None, f"names another row than {row_id}"
    if not isinstance(doc.get("cells"), dict) or doc.get("cells_sha256") != _checksum(doc["cells"]):
        return None, "its cells do not match their checksum (edited or truncated)"
    return doc, ""


def read_row_files(directory: Path) -> tuple[dict[str, dict[str, Any]], list[tuple[Path, str]]]:
    """Every readable row file under ``directory`` by row id, and the files refused with the reason."""
    found: dict[str, dict[str, Any]] = {}
    refused: list[tuple[Path, str]] = []
    folder = rows_dir(directory)
    if not folder.is_dir():
        return found, refused
    for path in sorted(folder.glob("*.json")):
        doc, problem = read_row_file(path)
        if doc is None:
            refused.append((path, problem))
            continue
        rid = doc["row"].get("id") if isinstance(doc.get("row"), dict) else None
        if not isinstance(rid, str) or path.name != f"{slug(rid)}.json":
            refused.append((path, "its file name does not match its row id"))
            continue
        found[rid] = doc
    return found, refused


def committed_cells(doc: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """A row file's series results by their cache key (what a run may read instead of computing)."""
    if not doc:
        return {}
    out = {}
    for entry in doc.get("cells", {}).values():
        if isinstance(entry, dict) and isinstance(entry.get("key"), str) and isinstance(entry.get("result"), dict):
            out[entry["key"]] = entry["result"]
    return out


def write_row_file(directory: Path, doc: dict[str, Any]) -> Path:
    """Write one row's file atomically (its cells' checksum added)."""
    from ...io import atomic_write_text

    folder = rows_dir(directory)
    folder.mkdir(parents=True, exist_ok=True)
    cells = json.loads(json.dumps(doc["cells"], allow_nan=False))
    doc = {"format": ROW_FORMAT, **{k: v for k, v in doc.items() if k not in ("format", "cells", "cells_sha256")},
           "cells_sha256": _checksum(cells), "cells": cells}
    path = row_path(directory, doc["row"]["id"])
    atomic_write_text(path, dump_row(doc))
    return path


def dump_row(doc: Mapping[str, Any]) -> str:
    """A row file's text: indented JSON with each series' cells on one line (a row holds about 800 cells)."""
    head = {k: v for k, v in doc.items() if k != "cells"}
    text = json.dumps(head, indent=2, ensure_ascii=True, allow_nan=False)
    lines = [f"    {json.dumps(name, ensure_ascii=True)}: {json.dumps(entry, ensure_ascii=True, allow_nan=False, separators=(',', ':'))}"
             for name, entry in doc["cells"].items()]
    body = "{\n" + ",\n".join(lines) + "\n  }" if lines else "{}"
    return text[:-2] + f',\n  "cells": {body}\n}}\n'


def write_summary(directory: Path, summary: Mapping[str, Any]) -> Path:
    from ...io import atomic_write_text, dumps_json

    path = Path(directory) / "realdata" / "summary.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, dumps_json({"format": SUMMARY_FORMAT, **summary}))
    return path


def read_summary(directory: Path | None) -> dict[str, Any] | None:
    """``realdata/summary.json`` of an atlas folder, or None when there is none (or it is not one)."""
    if directory is None:
        return None
    path = Path(directory) / "realdata" / "summary.json"
    if not path.is_file():
        return None
    doc, problem = _read(path)
    if problem or not isinstance(doc, dict) or doc.get("format") != SUMMARY_FORMAT:
        return None
    return doc


def read_runs(directory: Path) -> list[dict[str, Any]]:
    """``realdata/runs.json``: every ``atlas --realdata`` run that wrote into this folder (none when absent)."""
    path = Path(directory) / "realdata" / "runs.json"
    if not path.is_file():
        return []
    doc, problem = _read(path)
    if problem or not isinstance(doc, dict) or not isinstance(doc.get("runs"), list):
        return []
    return [r for r in doc["runs"] if isinstance(r, dict)]


def record_run(directory: Path, run: Mapping[str, Any]) -> Path:
    """Append one run's figures (date, environment, budget, wall and CPU seconds, pairs) to ``realdata/runs.json``."""
    from ...io import atomic_write_text, dumps_json

    path = Path(directory) / "realdata" / "runs.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    runs = read_runs(directory) + [dict(run)]
    atomic_write_text(path, dumps_json({"format": "oipr-bench real-data atlas runs, format 1", "runs": runs}))
    return path
