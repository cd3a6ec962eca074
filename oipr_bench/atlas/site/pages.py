"""A row's page: everything the atlas knows about one implementation, as one static HTML file.

``pages/<slug>.html`` (slug: :func:`oipr_bench.atlas.store.slug`) holds, for the row:
its declarations, package version, parameters and call; the one command that recomputes it; its badge
and the Markdown that embeds it; its Table 5 cells and metric property cells with the audit's evidence
(the stored report, ``profiles/<slug>.json``); the 25 cases as thumbnails (:mod:`.thumbnails`) with its
value on each (and the paired built-in's, :mod:`.references`); its nearest rows
(:func:`oipr_bench.atlas.nearest.nearest`); the disagreement entries it appears in
(:mod:`oipr_bench.atlas.disagreements`).  No timestamp and no machine path: the same atlas gives the
same bytes.  A real-data ranking section appears only once the atlas holds real-data rankings (none yet).
"""

from __future__ import annotations

import html
import re
import shlex
from typing import Any, Iterable, Mapping

from ..realdata.render import page_section
from ..nearest import nearest
from ..render import SHORT, row_label, sanity_cell
from ..store import slug
from .badges import badge_markdown
from .references import EXACT, builtin_label, builtin_of, reference_values

__all__ = ["render_page", "reproduce_command", "disagreement_entries", "anchor"]

_STYLE = ("body{font-family:sans-serif;margin:1em;max-width:75em}table{border-collapse:collapse;margin-bottom:1em}"
          "td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px;vertical-align:top}th{background:#eee;text-align:left}"
          "code,pre{background:#f4f4f4}pre{padding:4px;white-space:pre-wrap}td.n{text-align:right;font-family:monospace}")
e = html.escape


def anchor(title: str) -> str:
    """The anchor GitHub gives a Markdown heading (lower case, punctuation dropped, spaces as ``-``)."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def reproduce_command(row: Mapping[str, Any]) -> str:
    """The command that recomputes the row and compares it with the committed atlas (exit 0: the same)."""
    from ..adapters.envs import make_env_command

    check = f"oipr-bench atlas --check --only {shlex.quote(str(row['id']))}" + (" --include-slow" if row.get("slow") else "")
    if row["package"] == "oipr-bench":
        return check
    return f"bash {make_env_command(row['env'])} && VENV/bin/{check}"


def _cross_env_ids(text: str) -> set[str]:
    """Row ids an entry of ``cross_env.ENTRIES`` names (``"A, B (main)"``, ``"X and [variant] (modern)"``)."""
    text = re.sub(r" \((main|modern)\)$", "", text)
    out: set[str] = set()
    for part in text.split(", "):
        base, _, variant = part.partition(" and ")
        out.add(base.strip())
        if variant.startswith("["):
            out.add(base.strip() + variant.strip())
    return out


def disagreement_entries(row_id: str) -> list[tuple[str, str]]:
    """``(title, what the row is there)`` of every disagreement group and hand-traced entry naming ``row_id``."""
    from ..disagreements.cross_env import ENTRIES
    from ..disagreements.groups import DEFAULTS, groups

    out = []
    try:
        study = groups()
    except KeyError as exc:  # a registry without every row the study names (a test's partial registry)
        return [("the disagreement study", f"not listed: the study names row {exc} that this atlas's registry lacks")]
    for group in study:
        labels = [m.label for m in group.members if m.adapter.id == row_id]
        if labels:
            role = "the reference" if group.members[0].adapter.id == row_id else f"member, as {', '.join(labels)}"
            out.append((group.name, f"{role}; setting: {group.setting}"))
    out += [(g, "its package default compared with the group's reference") for g, rid in DEFAULTS if rid == row_id]
    out += [(x.title, "traced by hand across the two environments") for x in ENTRIES
            if any(row_id in _cross_env_ids(r) for r in x.rows)]
    return out


def _numbers(numbers: Any) -> str:
    if not isinstance(numbers, Mapping):
        return ""
    return "; ".join(f"{k} {v:.4g}" if isinstance(v, (int, float)) and not isinstance(v, bool) else f"{k} {v}"
                     for k, v in numbers.items())


def _evidence_table(entries: Iterable[Mapping[str, Any]], cells: Mapping[str, str], short: Mapping[str, str]) -> list[str]:
    out = ["<table><tr><th>cell</th><th>value</th><th>evidence</th><th>cases read and numbers</th></tr>"]
    for entry in entries:
        name = str(entry.get("name"))
        ev = entry.get("evidence") or {}
        read = ", ".join(ev.get("cases") or [])
        detail = "; ".join(x for x in (read, _numbers(ev.get("numbers"))) if x)
        out.append(f"<tr><td title='{e(name)}'>{e(short.get(name, name))}</td><td>{e(str(cells.get(name, '?')))}</td>"
                   f"<td>{e(str(entry.get('message') or ''))}</td><td>{e(detail)}</td></tr>")
    return out + ["</table>"]


def _value(row: Mapping[str, Any], case_id: str) -> str:
    """The row's number on a case as the grid prints it: ``err`` where the metric failed, ``nan`` for NaN."""
    x = row["cases"].get(case_id)
    if x is not None:
        return f"{x:.4g}"
    return "err" if case_id in row.get("failed_cases", ()) else "nan"


def _cases_table(row: Mapping[str, Any]) -> list[str]:
    from ...scenarios.loader import load
    from .thumbnails import case_svg

    pair = builtin_of(row)
    ref = reference_values(row) if pair is not None and row["status"] == "ok" else None
    head = "<tr><th>case</th><th>y_true / y_pred</th><th>what it does</th><th>value</th>"
    head += f"<th>{e(builtin_label(*pair))}</th>" if ref is not None else ""
    out = []
    if ref is not None:
        apart = [cid for cid, x in ref.items() if row["cases"].get(cid) is None or abs(row["cases"][cid] - x) > EXACT]
        out.append(f"<p>Beside each value, the built-in evaluator of the same definition, {e(builtin_label(*pair))}, fed "
                   f"as this row was. Cases that differ by more than {EXACT:g}: {e(', '.join(apart) or 'none')}.</p>")
    out.append("<table>" + head + "</tr>")
    for case in load():
        value = _value(row, case.id) if row["status"] == "ok" else "-"
        other = f"<td class='n'>{ref[case.id]:.4g}</td>" if ref is not None else ""
        out.append(f"<tr><td>{e(case.id)}</td><td>{case_svg(case)}</td><td>{e(case.description)}</td>"
                   f"<td class='n'>{e(value)}</td>{other}</tr>")
    return out + ["</table>"]


def _nearest_list(row: Mapping[str, Any], rows: list[Mapping[str, Any]]) -> list[str]:
    if row["status"] != "ok":
        return ["<p>Not profiled: no neighbours.</p>"]
    found = nearest(row, rows)
    if not found:
        return ["<p>No profiled row shares enough defined cells with this one.</p>"]
    out = ["<table><tr><th>row</th><th>cells differing / compared</th><th>where it differs</th><th>case distance</th></tr>"]
    for n in found:
        out.append(f"<tr><td><a href='{e(slug(n.row_id))}.html'>{e(n.row_id)}</a></td><td>{len(n.differs)} / {n.compared}</td>"
                   f"<td>{e(', '.join(n.differs) or 'nowhere')}</td><td class='n'>{n.case_distance:.3f}</td></tr>")
    return out + ["</table>"]


def _head(row: Mapping[str, Any], badge_message: str) -> list[str]:
    lo, hi = row["bounds"]
    params = ", ".join(f"{k}={v!r}" for k, v in row["params"].items()) or "(none)"
    s = slug(str(row["id"]))
    return [
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{e(str(row['id']))}: oipr-bench atlas</title>"
        f"<style>{_STYLE}</style></head><body>",
        "<p><a href='../atlas.html'>the atlas grid</a> · <a href='../ATLAS.md'>ATLAS.md</a> · "
        "<a href='../DISAGREEMENTS.md'>DISAGREEMENTS.md</a></p>",
        f"<h1>{e(row_label(row))}</h1>",
        f"<p><img src='../badges/{e(s)}.svg' alt='{e(badge_message)}'></p>",
        f"<p>Embed the badge (paths from the root of the oipr-bench repository):</p><pre>{e(badge_markdown(s, badge_message))}</pre>",
        "<table>",
        f"<tr><th>package</th><td>{e(str(row['package']))} {e(str(row['version'] or '(not installed)'))} "
        f"(environment {e(str(row['env']))})</td></tr>",
        f"<tr><th>metric</th><td>{e(str(row['metric']))}; family {e(str(row['family']))}; group {e(str(row['group'] or '-'))}</td></tr>",
        f"<tr><th>declared</th><td>input {e(str(row['input_kind']))}, result {e(str(row['kind']))}, "
        f"{'higher' if row['higher_is_better'] else 'lower'} is better, range [{lo}, {hi}]</td></tr>",
        f"<tr><th>parameters</th><td><code>{e(params)}</code></td></tr>",
        f"<tr><th>call</th><td>{e(str(row['note'] or 'the package function with these parameters'))}</td></tr>",
        f"<tr><th>status</th><td>{e(str(row['status']))}{e(': ' + row['reason'] if row['reason'] else '')}; "
        f"sanity {e(sanity_cell(row))}</td></tr>",
        "</table>",
        "<h2>Reproduce</h2><p>Recomputes this row and compares it with the committed atlas (exit 0 when equal):</p>",
        f"<pre>{e(reproduce_command(row))}</pre>",
    ]


def render_page(row: Mapping[str, Any], doc: Mapping[str, Any], report: Mapping[str, Any] | None, badge_message: str,
                realdata: Mapping[str, Any] | None = None) -> str:
    """The HTML page of ``row`` of the atlas ``doc`` (``report``: its stored audit report, or None; ``realdata``: the
    real-data summary, whose ranking of NAB's detectors by this row the page shows)."""
    from ..property_grid import PROPERTY_SHORT

    out = _head(row, badge_message)
    out.append("<h2>Table 5</h2>")
    if report is None:
        out.append("<p>Not profiled: the atlas holds no audit report for this row.</p>")
    else:
        out += _evidence_table(report.get("characteristics") or [], row["characteristics"], SHORT)
        out.append("<h2>Metric properties</h2>")
        out += _evidence_table(report.get("properties") or [], row["properties"], PROPERTY_SHORT)
        failed = [s for s in report.get("sanity") or [] if s.get("status") != "passed"]
        out.append("<h2>Sanity checks</h2><p>" + (e("; ".join(f"{s['name']} {s['status']}: {s.get('message') or ''}" for s in failed))
                                                  if failed else "All passed.") + "</p>")
    out.append("<h2>The 25 cases</h2><p>Red: the ground truth's events; blue: the prediction (a random-detector case "
               "shows its first run). Value: F1 for a precision/recall metric, else the score (the mean over the runs "
               "for a random-detector case); err where the metric failed, nan where it returned NaN.</p>")
    out += _cases_table(row)
    out.append("<h2>Nearest rows</h2>")
    out += _nearest_list(row, list(doc["rows"]))
    entries = disagreement_entries(str(row["id"]))
    out.append("<h2>Disagreements</h2>")
    out.append("<ul>" + "".join(f"<li><a href='../DISAGREEMENTS.md#{anchor(t)}'>{e(t)}</a>: {e(w)}</li>" for t, w in entries) + "</ul>"
               if entries else "<p>This row is in no group of the disagreement study.</p>")
    out += page_section(realdata, str(row["id"]))
    out.append("</body></html>")
    return "\n".join(out) + "\n"
