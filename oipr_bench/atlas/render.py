"""Render the atlas: the Table 5-style grid (metric x characteristic, by family) and per-case numbers.

Cell values are the audit's: ``yes``/``no``/``piecewise``/``only_delay``/...,
``present``/``absent``/``mitigated``, ``n/a`` (a rule a scalar metric cannot
answer) and ``?`` (undetermined); a last column names the sanity checks a row
fails (``ok`` when none).
"""

from __future__ import annotations

import html
from typing import Any, Iterable, Mapping

from ..vocabulary import CHARACTERISTICS
from .adapters.base import slug
from .realdata.render import html_section, markdown_section
from .property_grid import SATURATED_MARK, property_html, property_markdown, saturated_lines, shown

__all__ = ["SHORT", "render_markdown", "render_html", "grid_lines", "families", "row_label", "page_link", "sanity_cell"]

#: Column headers of the grid (Table 5's rows, then the two overestimation markers).
SHORT: dict[str, str] = dict(
    zip(CHARACTERISTICS, ("exist", "overlap", "merge", "ambig", "early", "fragP", "long", "sparse", "all-1", "random"))
)


def row_label(row: Mapping[str, Any]) -> str:
    """``package version: metric``, and ``[random: K of 100 runs; chance: D of 10 draws]`` for a reduced audit
    (``random_runs``, ``chance_draws``)."""
    parts = [f"random: {row['random_runs']} of 100 runs"] if row.get("random_runs") else []
    parts += [f"chance: {row['chance_draws']} of 10 draws"] if row.get("chance_draws") else []
    reduced = f" [{'; '.join(parts)}]" if parts else ""
    return f"{row['package']} {row['version'] or '(not installed)'}: {row['metric']}{reduced}"


def page_link(row: Mapping[str, Any]) -> str:
    """The row's label and a Markdown link to its page (``pages/<slug>.html``, written by ``atlas --write``)."""
    return f"{row_label(row)} ([page](pages/{slug(row['id'])}.html))"


def _declared(row: Mapping[str, Any]) -> str:
    lo, hi = row["bounds"]
    rng = f"[{'-inf' if lo is None else f'{lo:g}'}, {'inf' if hi is None else f'{hi:g}'}]"
    return f"{row['input_kind']}/{row['kind']}/{'higher' if row['higher_is_better'] else 'lower'} {rng}"


def families(rows: Iterable[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    """Rows grouped by family, in first-seen order."""
    out: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        out.setdefault(row["family"], []).append(row)
    return out


def _cells(row: Mapping[str, Any], names: list[str]) -> list[str]:
    if row["status"] != "ok":
        return ["-"] * len(names)
    return [shown(row, n, row["characteristics"].get(n, "?")) for n in names]


def _md_table(header: list[str], rows: list[list[str]]) -> list[str]:
    esc = [[c.replace("|", "\\|") for c in r] for r in [header] + rows]
    return ["| " + " | ".join(esc[0]) + " |", "|" + "|".join("---" for _ in header) + "|"] + [
        "| " + " | ".join(r) + " |" for r in esc[1:]
    ]


def _num(row: Mapping[str, Any], case_id: str) -> str:
    """A per-case number: ``err`` where the metric failed, ``nan`` where it returned NaN."""
    x = row["cases"].get(case_id)
    if x is not None:
        return f"{x:.4g}"
    return "err" if case_id in row.get("failed_cases", ()) else "nan"


def sanity_cell(row: Mapping[str, Any]) -> str:
    """The sanity column: ``ok``, or the checks that did not pass (``discriminates+perfect``); ``-`` not profiled."""
    if row["status"] != "ok":
        return "-"
    failed = row.get("sanity_failed", [])
    return "+".join(failed) if failed else "ok"


def grid_lines(rows: list[Mapping[str, Any]], names: list[str], mark: str | None = None) -> list[str]:
    """The grid as plain-text lines (``mark``: a row id to flag with ``>>``)."""
    header = ["", "metric", *[SHORT[n] for n in names], "sanity"]
    body: list[list[str]] = []
    for family, members in families(rows).items():
        body.append(["", f"[{family}]", *[""] * (len(names) + 1)])
        for row in members:
            flag = ">>" if row["id"] == mark else ""
            body.append([flag, row_label(row), *_cells(row, names), sanity_cell(row)])
    widths = [max(len(r[i]) for r in [header] + body) for i in range(len(header))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in [header] + body]


def _summary(doc: Mapping[str, Any]) -> list[str]:
    rows = doc["rows"]
    ok = [r for r in rows if r["status"] == "ok"]
    packages = sorted({r["package"] for r in rows} - {"oipr-bench"}, key=str.lower)
    builtins = sum(r["package"] == "oipr-bench" for r in rows)
    fams = families(rows)
    return [
        f"{len(rows) - builtins} metric rows from {len(packages)} packages ({', '.join(packages)}) plus the "
        f"{builtins} built-in evaluators, in {len(fams)} families; {len(ok)} rows profiled, {len(rows) - len(ok)} not (reasons below).",
    ]


def render_markdown(doc: Mapping[str, Any], realdata: Mapping[str, Any] | None = None) -> str:
    """``ATLAS.md``; ``realdata``: the real-data summary (``realdata/summary.json``), rendered as its own section."""
    names = list(doc["characteristics"])
    rows = doc["rows"]
    out = ["# The metric atlas", "", "Written by `oipr-bench atlas --write` (do not edit). " + _summary(doc)[0], ""]
    out += ["Columns: " + "; ".join(f"`{SHORT[n]}` {n}" for n in names) + ".", ""]
    out += ["Cells: the audit's value; `n/a` a rule a scalar metric cannot answer; `?` undetermined (a needed case "
            f"failed, or the numbers are NaN or the metric has no scale there); `{SATURATED_MARK}` undetermined because "
            "the case it reads is saturated: the metric's perfect and uninformative values lie within 0.02 of its range "
            "there, so it tells nothing apart (each listed with the reason under \"Saturated cells\"); `-` not profiled. "
            "`sanity`: `ok`, or "
            "the sanity checks the row does not pass (failed, or undetermined where every call they need failed; "
            "a row failing `discriminates` cannot tell the perfect detection from no detection or the all-ones "
            "one: read its cells with that in mind).", ""]
    out += ["## The grid", "", "Each row's `page` link opens its page (`pages/`): its cells with the audit's evidence, the cases "
            "as thumbnails with its values, its nearest rows, the disagreements it appears in, its badge, the call and "
            "the command that recomputes it.", ""]
    for family, members in families(rows).items():
        out += [f"### {family}", ""]
        table = [[page_link(r), _declared(r), *_cells(r, names), sanity_cell(r)] for r in members]
        out += _md_table(["metric", "input/kind/orientation", *[SHORT[n] for n in names], "sanity"], table) + [""]
    out += property_markdown(doc)
    out += markdown_section(realdata)
    saturated = saturated_lines(list(rows))
    if saturated:
        out += ["## Saturated cells", "", f"The `{SATURATED_MARK}` cells above, each with the audit's reason.", ""]
        out += _md_table(["row", "cell", "why undetermined"], [list(x) for x in saturated]) + [""]
    out += ["## Parameters", ""]
    out += _md_table(["metric", "parameters", "call"], [[row_label(r), _params(r["params"]), r["note"] or ""] for r in rows]) + [""]
    skipped = [r for r in rows if r["status"] != "ok" or r["reason"]]
    if skipped:
        out += ["## Rows that did not run (or failed on some cases)", ""]
        out += _md_table(["metric", "status", "reason"], [[row_label(r), r["status"], r["reason"]] for r in skipped]) + [""]
    out += _case_section(rows)
    return "\n".join(out).rstrip() + "\n"


def _params(params: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in params.items()) or "(none)"


def _case_section(rows: list[Mapping[str, Any]]) -> list[str]:
    ok = [r for r in rows if r["status"] == "ok"]
    if not ok:
        return []
    case_ids = list(ok[0]["cases"])
    out = ["## Per-case numbers", "", "F1 for a precision/recall metric, the score for a scalar one "
           "(the mean over the 100 runs for a random-detector case); `err` where the metric failed, `nan` where it "
           "returned NaN.", ""]
    for family, members in families(ok).items():
        out += [f"### {family}", ""]
        table = [[cid, *[_num(r, cid) for r in members]] for cid in case_ids]
        out += _md_table(["case", *[f"{r['package']}: {r['metric']}" for r in members]], table) + [""]
    return out


def render_html(doc: Mapping[str, Any], realdata: Mapping[str, Any] | None = None) -> str:
    """``atlas.html``: the grid, the real-data section (``realdata``) and the per-case numbers on one self-contained page."""
    names = list(doc["characteristics"])
    e = html.escape
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>oipr-bench metric atlas</title>",
        "<style>body{font-family:sans-serif;margin:1em}table{border-collapse:collapse;margin-bottom:1em}"
        "td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px}th{background:#eee}"
        ".yes,.absent,.mitigated{background:#dfd}.no,.present{background:#fdd}.na{color:#888}" + GRID_CSS + "</style></head><body>",
        "<h1>The metric atlas</h1>",
        f"<p>{e(_summary(doc)[0])}</p>",
        f"<p>Cells: the audit's value; n/a a rule a scalar metric cannot answer; ? undetermined; {SATURATED_MARK} "
        "undetermined because the case is saturated (hover for the reason); - not profiled; "
        "sanity: ok or the sanity checks the row does not pass. Per-case numbers: err where the metric failed, nan where "
        "it returned NaN.</p>",
        filter_form(),
        "<div class='scroll'><table class='grid'><tr><th>metric</th><th>declared</th>"
        + "".join(f"<th title='{e(n)}'>{e(SHORT[n])}</th>" for n in names) + "<th title='sanity checks not passed'>sanity</th></tr>",
    ]
    for family, members in families(doc["rows"]).items():
        parts.append(f"<tr class='fam'><th colspan='{len(names) + 3}' style='text-align:left'>{e(family)}</th></tr>")
        for row in members:
            why = row.get("saturated") or {}
            cells = "".join(f"<td class='na' title='{e(why[n])}'>{e(c)}</td>" if c == SATURATED_MARK
                            else f"<td class='{_css(c)}'>{e(c)}</td>" for n, c in zip(names, _cells(row, names)))
            cells += compact_sanity(row)
            title = e(_params(row["params"]) + (f" | {row['reason']}" if row["reason"] else ""))
            parts.append(f"<tr data-id='{e(row['id'])}'><td title='{title}'><a href='pages/{e(slug(row['id']))}.html'>"
                         f"{e(row_label(row))}</a></td><td>{e(_declared(row))}</td>{cells}</tr>")
    parts.append("</table></div>")
    parts.append(property_html(doc))
    if realdata:
        parts.append(html_section(realdata))
    ok = [r for r in doc["rows"] if r["status"] == "ok"]
    if ok:
        case_ids = list(ok[0]["cases"])
        parts.append("<h2>Per-case numbers</h2><table><tr><th>metric</th>" + "".join(f"<th>{e(c)}</th>" for c in case_ids) + "</tr>")
        for row in ok:
            parts.append(f"<tr><td>{e(row_label(row))}</td>" + "".join(f"<td>{_num(row, c)}</td>" for c in case_ids) + "</tr>")
        parts.append("</table>")
    parts.append(filter_script(doc))
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _css(value: str) -> str:
    return {"n/a": "na", "?": "na", "-": "na"}.get(value, value)


#: atlas.html for a reader: the grid scrolls inside its box with the metric column and the header row
#: kept in view, and the filter form (shown only when the script runs).
GRID_CSS = (".scroll{overflow:auto;max-height:85vh;border:1px solid #ccc}.grid td:first-child,.grid th:first-child"
            "{position:sticky;left:0;background:#fff;z-index:1;max-width:26em}.grid tr:first-child th{position:sticky;top:0;"
            "z-index:2}.grid tr:first-child th:first-child{z-index:3;background:#eee}.grid tr.fam th{background:#f4f4f4}"
            ".grid td.s{text-align:center;white-space:nowrap}#where input{width:40em}#where-out{margin-left:1em}")


def compact_sanity(row: Mapping[str, Any]) -> str:
    """The sanity cell of atlas.html: ``ok``, ``-``, or ``xN`` (N checks not passed) naming them in its title."""
    full = sanity_cell(row)
    if full in ("ok", "-"):
        return f"<td class='s {'absent' if full == 'ok' else 'na'}'>{full}</td>"
    return f"<td class='s present' title='{html.escape(full)}'>x{len(row.get('sanity_failed') or [])}</td>"


def filter_form() -> str:
    """The ``--where`` form above the grid, hidden until the filter script runs (the page works without it)."""
    return ("<form id='where' hidden><label>where <input name='q' placeholder='early_detection_reward=yes fp_distance="
            "proximity_aware' title='NAME=VALUE ... as oipr-bench atlas --where takes them (column headers work as names)'>"
            "</label> <button>filter</button> <button type='reset'>all rows</button><span id='where-out'></span></form>")


_SCRIPT = """(function(){
var data=JSON.parse(document.getElementById('atlas-cells').textContent),form=document.getElementById('where'),
out=document.getElementById('where-out'),cols=data.columns;form.hidden=false;
function parse(text){var conds={},items=text.trim().split(/\\s+/).filter(Boolean);if(!items.length)throw 'give at least one NAME=VALUE';
items.forEach(function(item){var i=item.indexOf('='),name=item.slice(0,i).trim(),value=item.slice(i+1).trim();
if(i<1||!value)throw item+': expected NAME=VALUE (e.g. early_detection_reward=yes)';name=data.short[name]||name;
var k=cols.indexOf(name);if(k<0)throw item+': unknown name '+name+'; names: '+cols.join(', ');if(name in conds)throw item+': '+name+' is given twice';
var seen={};Object.keys(data.rows).forEach(function(id){var v=data.rows[id][k];if(v)seen[v]=1});
if(!(value in seen))throw item+': no row has '+name+'='+value+'; values in the atlas: '+Object.keys(seen).sort().join(', ');
conds[name]=value});return conds}
function show(conds){var n=0,total=Object.keys(data.rows).length,fam=null,famShown=false;
Array.prototype.forEach.call(document.querySelectorAll('table.grid tr'),function(tr){
if(tr.className==='fam'){if(fam)fam.hidden=!famShown;fam=tr;famShown=false;return}var id=tr.getAttribute('data-id');if(id===null)return;
var cells=data.rows[id],ok=!conds||(cells&&Object.keys(conds).every(function(c){return cells[cols.indexOf(c)]===conds[c]}));
tr.hidden=!ok;if(ok){famShown=true;if(cells)n++}});if(fam)fam.hidden=!famShown;
out.textContent=conds?'rows with '+Object.keys(conds).map(function(c){return c+'='+conds[c]}).join(', ')+': '+n+' of '+total+' profiled':'';}
form.addEventListener('submit',function(ev){ev.preventDefault();try{var c=parse(form.q.value);show(c);
history.replaceState(null,'','#where='+encodeURIComponent(form.q.value.trim()))}catch(err){out.textContent=String(err)}});
form.addEventListener('reset',function(){show(null);history.replaceState(null,'',location.pathname)});
if(location.hash.indexOf('#where=')===0){form.q.value=decodeURIComponent(location.hash.slice(7));try{show(parse(form.q.value))}
catch(err){out.textContent=String(err)}}})();"""


def filter_script(doc: Mapping[str, Any]) -> str:
    """The profiled rows' cells (characteristics, then properties) as JSON, and the script that filters the grid.

    A row is shown when every ``NAME=VALUE`` holds exactly (:func:`oipr_bench.atlas.select.where`'s rule);
    a name or value the atlas does not hold is refused with the message ``--where`` gives.
    """
    import json

    columns = list(doc["characteristics"]) + list(doc.get("properties") or [])
    rows = {r["id"]: [str({**r["characteristics"], **(r.get("properties") or {})}.get(c) or "") for c in columns]
            for r in doc["rows"] if r["status"] == "ok"}
    data = json.dumps({"columns": columns, "short": {v: k for k, v in SHORT.items()}, "rows": rows},
                      separators=(",", ":")).replace("</", "<\\/")
    return f"<script type='application/json' id='atlas-cells'>{data}</script>\n<script>{_SCRIPT}</script>"
