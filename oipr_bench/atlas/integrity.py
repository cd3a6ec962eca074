"""Is the atlas folder what ``atlas --write`` wrote?  (``oipr-bench atlas --check``, before any row is recomputed.)

Recomputing rows (:mod:`oipr_bench.atlas.drift`) catches an edited number or verdict in a row it
recomputes.  The rest of the folder is checked here, against ``atlas.json`` itself:

- ``atlas.json``: every row id once (a duplicate would be read as its last copy), only the
  fields a row has (``schema/atlas.schema.json``), written by this oipr-bench version;
- ``ATLAS.md`` and ``atlas.html``: equal to a rendering of ``atlas.json``;
- ``profiles/<slug>.json``: one per row, holding that row as ``atlas.json`` does, and an audit
  report whose stored ``signature`` and ``ok`` are those of its own fields; no stray profile;
- ``timings.json``: strict JSON (no NaN), read with the hardened reader.

:func:`kept_profile_problem` is the same check of one profile, for ``atlas --write``, which keeps a
slow row's stored profile instead of recomputing it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from .store import ROW_FORMAT, duplicate_ids, read_json, slug

__all__ = ["integrity_problems", "kept_profile_problem"]


def _row_fields() -> set[str]:
    import json

    from .._paths import data_dir

    schema = json.loads((data_dir("schema") / "atlas.schema.json").read_text(encoding="utf-8"))
    return set(schema["$defs"]["row"]["properties"])


def _report_problem(report: Any) -> str:
    """Why a profile's stored audit report is not what an audit wrote, or ``""``."""
    from ..auditing.profile.results import Profile
    from ..errors import OiprBenchError

    if report is None:
        return ""
    try:
        profile = Profile.from_dict(report)
    except (OiprBenchError, KeyError, TypeError, ValueError) as exc:
        return f"its report is not an oipr-bench report ({str(exc)[:120]})"
    if profile.stored_signature != profile.signature:
        return "its report's stored signature is not the one its fields give"
    if profile.stored_ok != profile.ok:
        return "its report's stored ok is not the one its items give"
    return ""


def kept_profile_problem(stored: Any, row: Mapping[str, Any] | None) -> str:
    """Why a stored profile (``{"format", "row", "report"}``) may not be kept, or ``""``.

    ``row`` is the row ``atlas.json`` holds for it (None: none).
    """
    if not isinstance(stored, Mapping) or stored.get("format") != ROW_FORMAT or not isinstance(stored.get("row"), Mapping):
        return f"not an atlas row profile (format {ROW_FORMAT})"
    if row is None:
        return "atlas.json holds no row of this id"
    if dict(stored["row"]) != dict(row):
        changed = sorted(k for k in set(stored["row"]) | set(row) if stored["row"].get(k) != row.get(k))
        return f"its row differs from atlas.json's ({', '.join(changed[:5])})"
    return _report_problem(stored.get("report"))


def integrity_problems(directory: Path, doc: Mapping[str, Any]) -> list[str]:
    """Every way the atlas folder ``directory`` differs from what ``atlas --write`` writes (one line each)."""
    from .._version import __version__
    from ..errors import UsageError
    from .render import render_html, render_markdown

    out: list[str] = []
    rows = list(doc["rows"])
    out += [f"atlas.json: row id {rid} appears more than once" for rid in duplicate_ids(rows)]
    if doc.get("oipr_bench_version") != __version__:
        out.append(f"atlas.json: oipr_bench_version {doc.get('oipr_bench_version')!r}, but this is oipr-bench "
                   f"{__version__} (regenerate with atlas --write)")
    known = _row_fields()
    for row in rows:
        extra = sorted(set(row) - known)
        if extra:
            out.append(f"atlas.json: row {row.get('id')}: unknown field(s) {', '.join(extra)}")
    from .realdata.rowfiles import read_summary

    realdata = read_summary(directory)
    for name, render in (("ATLAS.md", render_markdown), ("atlas.html", render_html)):
        path, text, problem = directory / name, None, "missing"
        if path.is_file():
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                problem = f"cannot read: {exc}"
        if text is None:
            out.append(f"{name}: {problem}")
        elif text != render(doc, realdata):
            out.append(f"{name}: differs from a rendering of atlas.json (edited by hand? regenerate with atlas --write)")
    by_id = {row.get("id"): row for row in rows}
    expected = {f"{slug(str(rid))}.json": rid for rid in by_id}
    profiles = directory / "profiles"
    for name, rid in expected.items():
        path = profiles / name
        if not path.is_file():
            out.append(f"profiles/{name}: missing (row {rid})")
            continue
        try:
            stored = read_json(path, None)
        except UsageError as exc:
            out.append(f"profiles/{name}: {exc}")
            continue
        problem = kept_profile_problem(stored, by_id[rid])
        if problem:
            out.append(f"profiles/{name}: {problem}")
    for path in sorted(profiles.glob("*.json")) if profiles.is_dir() else ():
        if path.name not in expected:
            out.append(f"profiles/{path.name}: no row of atlas.json has it")
    timings = directory / "timings.json"
    if timings.exists():
        try:
            read_json(timings, None)
        except UsageError as exc:
            out.append(f"timings.json: {str(exc).removeprefix('atlas: ')}")
    return out
