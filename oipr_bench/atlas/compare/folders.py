"""The two atlas folders of ``oipr-bench atlas --diff OLD NEW``, read and checked.

An atlas folder is what ``atlas --write`` writes: ``atlas.json`` (read by
:func:`oipr_bench.atlas.store.read_atlas`, schema-checked) and ``profiles/`` holding one
``<slug>.json`` per row whose ``row`` equals the row of ``atlas.json``.  Anything else is refused
with one line naming the folder and what is wrong (a usage error, exit 2).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..store import ROW_FORMAT, read_atlas, read_json, slug

__all__ = ["read_folder", "read_pair"]


def read_folder(directory: Path, which: str) -> dict[str, Any]:
    """``atlas.json`` of the atlas folder ``directory`` (``which``: ``OLD`` or ``NEW``, for messages).

    Raises
    ------
    UsageError
        ``directory`` is missing or not a folder, has no ``atlas.json`` or one that is not an atlas,
        has no ``profiles/`` folder, or a row without its profile or with a profile holding another row.
    """
    from ...errors import UsageError
    from ...guards import path_text

    name = path_text(directory)
    if not directory.exists():
        raise UsageError(f"atlas --diff: {which} {name} does not exist")
    if not directory.is_dir():
        raise UsageError(f"atlas --diff: {which} {name} is a file, not an atlas folder (atlas.json + profiles/)")
    if not (directory / "atlas.json").is_file():
        raise UsageError(f"atlas --diff: {which} {name} is not an atlas folder: it has no atlas.json")
    doc = read_atlas(directory)
    profiles = directory / "profiles"
    if not profiles.is_dir():
        raise UsageError(f"atlas --diff: {which} {name} is not an atlas folder: it has no profiles/ folder")
    for row in doc["rows"]:
        path = profiles / f"{slug(row['id'])}.json"
        if not path.is_file():
            raise UsageError(f"atlas --diff: {which} {path_text(path)}: missing (row {row['id']})")
        stored = read_json(path, None)
        if not isinstance(stored, dict) or stored.get("format") != ROW_FORMAT or stored.get("row") != row:
            raise UsageError(f"atlas --diff: {which} {path_text(path)}: does not hold row {row['id']} as atlas.json does "
                             "(edited by hand? regenerate with atlas --write)")
    return doc


def read_pair(old: Path, new: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """Both atlases; the same folder given twice is refused (a diff of a folder with itself says nothing)."""
    from ...errors import UsageError
    from ...guards import path_text

    if old.exists() and new.exists() and old.resolve() == new.resolve():
        raise UsageError(f"atlas --diff: OLD and NEW are the same folder ({path_text(old)}); give two atlas folders")
    return read_folder(old, "OLD"), read_folder(new, "NEW")
