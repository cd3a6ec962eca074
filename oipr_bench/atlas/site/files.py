"""The site's folders beside the grid: ``pages/<slug>.html`` and ``badges/<slug>.svg``, one each per row.

:func:`site_files` renders them from ``atlas.json`` and the stored profiles (``profiles/<slug>.json``);
``oipr-bench atlas --write`` writes them (:func:`write_site`, after the rows and profiles) and
``atlas --check`` compares the folder with a fresh rendering (:func:`site_problems`): an edited, missing
or stray page or badge is one line each, as for ``ATLAS.md`` and ``atlas.html``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from ..store import read_profile, slug
from .badges import badge_claim, badge_svg
from .pages import render_page

__all__ = ["FOLDERS", "site_files", "write_site", "site_problems"]

#: The site's folders inside the atlas folder, and the suffix of their files.
FOLDERS = {"pages": ".html", "badges": ".svg"}


def site_files(directory: Path, doc: Mapping[str, Any]) -> dict[str, str]:
    """``{"pages/<slug>.html": text, "badges/<slug>.svg": text}`` for every row of ``doc``.

    Each page reads its row's stored audit report from ``directory/profiles`` (none: the page says so).
    """
    from ..realdata.rowfiles import read_summary

    realdata = read_summary(directory)
    out: dict[str, str] = {}
    for row in doc["rows"]:
        s = slug(str(row["id"]))
        stored = read_profile(directory, str(row["id"]))
        report = stored.get("report") if isinstance(stored, Mapping) else None
        message = badge_claim(row, doc)
        out[f"badges/{s}.svg"] = badge_svg(message)
        out[f"pages/{s}.html"] = render_page(row, doc, report if isinstance(report, Mapping) else None, message, realdata)
    return out


def write_site(directory: Path, doc: Mapping[str, Any]) -> list[Path]:
    """Write every page and badge into ``directory``; remove stray ones; return the paths written."""
    from ...io import atomic_write_text

    files = site_files(directory, doc)
    written = []
    for rel, text in files.items():
        path = directory / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, text)
        written.append(path)
    for folder, suffix in FOLDERS.items():
        for stale in (directory / folder).glob(f"*{suffix}"):
            if f"{folder}/{stale.name}" not in files:
                stale.unlink()
    return written


def site_problems(directory: Path, doc: Mapping[str, Any]) -> list[str]:
    """Every page or badge of ``directory`` that differs from a rendering of ``doc`` (one line each)."""
    files = site_files(directory, doc)
    out = []
    for rel, text in files.items():
        path = directory / rel
        if not path.is_file():
            out.append(f"{rel}: missing (regenerate with atlas --write)")
            continue
        try:
            stored = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            out.append(f"{rel}: cannot read: {exc}")
            continue
        if stored != text:
            out.append(f"{rel}: differs from a rendering of atlas.json (edited by hand? regenerate with atlas --write)")
    for folder, suffix in FOLDERS.items():
        for path in sorted((directory / folder).glob(f"*{suffix}")) if (directory / folder).is_dir() else ():
            if f"{folder}/{path.name}" not in files:
                out.append(f"{folder}/{path.name}: no row of atlas.json has it")
    return out
