"""The real-data atlas rendered: a section of ``ATLAS.md`` and of ``atlas.html``, a row's page section,
and the section of DISAGREEMENTS.md on rows of one group that rank NAB's detectors differently.

Everything is read from ``realdata/summary.json`` (:mod:`.summary`); nothing is computed here.
"""

from __future__ import annotations

import html
from typing import Any, Mapping

__all__ = ["markdown_section", "html_section", "page_section", "disagreement_section", "interval", "subset_label",
           "cost_table", "cost_lines", "costs_markdown", "with_real_section", "REAL_HEADING"]


def _f(x: Any, digits: int = 3) -> str:
    return "-" if x is None else f"{float(x):.{digits}f}"


def _cell(value: Any) -> str:
    return "failed" if value is None else f"{float(value):g}"


def interval(t: Mapping[str, Any] | None) -> str:
    """``0.87 [0.71, 0.97]`` for a tau with its interval; ``-`` when there is none."""
    if not t:
        return "-"
    return f"{_f(t['tau'], 2)} [{_f(t['low'], 2)}, {_f(t['high'], 2)}]"


def subset_label(row: Mapping[str, Any], kept: int) -> str:
    """``52`` for a full row, ``7 of 52 (declared subset)`` otherwise."""
    n = row["reading"]["series"] if row.get("reading") else row.get("planned_series", 0)
    return f"{n}" if row.get("full") else f"{n} of {kept} (declared subset)"


def _budgets(summary: Mapping[str, Any]) -> str:
    """``budget 15 CPU minutes a row``, or with several: ``budget 15 CPU minutes a row for 120 rows, 2 for 58 rows``."""
    budgets = summary.get("budgets") or {f"{summary['budget_cpu_minutes']:g}": summary["totals"]["read"]}
    if len(budgets) == 1:
        return f"budget {next(iter(budgets))} CPU minutes a row"
    parts = [f"{b} for {n} rows" for b, n in budgets.items()]
    return "budget " + parts[0].replace(" for ", " CPU minutes a row for ", 1) + ", " + ", ".join(parts[1:])


def _top(reading: Mapping[str, Any], k: int = 3) -> str:
    return ", ".join(s["detector"] for s in reading["ranking"][:k])


def _place(rank: Any, n: int) -> str:
    return "-" if rank is None else f"{rank}/{n}"


def _table_rows(summary: Mapping[str, Any]) -> list[list[str]]:
    n_det = len(summary["detectors"])
    kept = len(summary["nab"][summary["detectors"][0]]) if summary["detectors"] else 0
    out = []
    for row in summary["rows"]:
        r = row.get("reading")
        if r is None:
            out.append([row["id"], row["status"] + (f": {row['reason']}" if row.get("reason") else ""), "-", "-", "-", "-", "-", "-"])
            continue
        ref = f"{interval(r['tau_reference'])} vs {r['reference']}" if r.get("reference") else "-"
        out.append([row["id"], subset_label(row, kept), _top(r), _place(r["random_rank"], n_det), _place(r["null_rank"], n_det),
                    ref, interval(r["tau_nab"]), f"{r['failed_cells']}/{r['cells']}"])
    return out


_HEADER = ["row", "series", "top 3 detectors", "random", "null", "tau with its reference [95 %]", "tau with NAB [95 %]",
           "failed cells"]


def _intro(summary: Mapping[str, Any]) -> str:
    t = summary["totals"]
    return (f"Every row on NAB's {len(summary['detectors'])} real detectors (`oipr-bench atlas --realdata DATA`; docs/atlas.md): "
            f"{t['read']} of {t['rows']} row files read, {t['full']} on all series, the others on a declared subset "
            f"({_budgets(summary)}); {t['cpu_seconds'] / 3600:.2f} CPU hours in all. "
            "Ranking: mean over the row's series (F1 for a P/R row); intervals: 95 % bootstrap over series, "
            f"{summary['resamples']} resamples, seed {summary['seed']}; tau: Kendall's tau-b over detectors, cluster bootstrap.")


def markdown_section(summary: Mapping[str, Any] | None) -> list[str]:
    """The ``ATLAS.md`` section (no lines without a summary)."""
    if not summary:
        return []
    out = ["## On real data (NAB)", "", _intro(summary), "",
           "Protocol: " + "; ".join(f"{k.replace('_', ' ')}: {v}" for k, v in summary["protocol"].items()) + ".", ""]
    out.append("| " + " | ".join(_HEADER) + " |")
    out.append("|" + "---|" * len(_HEADER))
    out += ["| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |" for cells in _table_rows(summary)]
    return out + [""]


def html_section(summary: Mapping[str, Any] | None) -> str:
    """The ``atlas.html`` section ("" without a summary)."""
    if not summary:
        return ""
    e = html.escape
    parts = ["<h2 id='realdata'>On real data (NAB)</h2>", f"<p>{e(_intro(summary))}</p>",
             "<table><tr>" + "".join(f"<th>{e(h)}</th>" for h in _HEADER) + "</tr>"]
    parts += ["<tr>" + "".join(f"<td>{e(c)}</td>" for c in cells) + "</tr>" for cells in _table_rows(summary)]
    parts.append("</table>")
    return "\n".join(parts)


def page_section(summary: Mapping[str, Any] | None, row_id: str) -> list[str]:
    """A row page's real-data part (HTML lines): its ranking of the detectors with intervals."""
    if not summary:
        return []
    row = next((r for r in summary["rows"] if r["id"] == row_id), None)
    e = html.escape
    if row is None or row.get("reading") is None:
        why = "not run on real data yet" if row is None else f"{row['status']}: {row.get('reason', '')}"
        return ["<h2>On real data (NAB)</h2>", f"<p>{e(why)}</p>"]
    r = row["reading"]
    kept = len(summary["nab"][summary["detectors"][0]])
    n_det = len(summary["detectors"])
    lines = ["<h2>On real data (NAB)</h2>",
             f"<p>Series: {e(subset_label(row, kept))}; random ranks {_place(r['random_rank'], n_det)}, null "
             f"{_place(r['null_rank'], n_det)}; tau with NAB {e(interval(r['tau_nab']))}"
             + (f"; tau with {e(r['reference'])} {e(interval(r['tau_reference']))}" if r.get("reference") else "")
             + f"; failed cells {r['failed_cells']}/{r['cells']}.</p>",
             "<table><tr><th>rank</th><th>detector</th><th>mean</th><th>95 % interval</th><th>series defined</th></tr>"]
    lines += [f"<tr><td>{s['rank']}</td><td>{e(s['detector'])}</td><td>{_f(s['value'])}</td>"
              f"<td>[{_f(s['low'])}, {_f(s['high'])}]</td><td>{s['defined']}</td></tr>" for s in r["ranking"]]
    return lines + ["</table>"]


def disagreement_section(summary: Mapping[str, Any] | None) -> list[str]:
    """DISAGREEMENTS.md's section on real data: the rows of one group ranking NAB's detectors differently."""
    if not summary:
        return []
    pairs = summary.get("group_pairs", [])
    out = [REAL_HEADING, "",
           "Pairs of rows of one group (as above) whose rankings of NAB's real detectors differ (Kendall's tau-b below 1 "
           "on the series both ran; 95 % cluster-bootstrap interval). `holds`: the interval excludes 1. The cells that "
           "differ (by more than 1e-9, or defined in one row only) and the largest difference are the real-data "
           "reproduction: that detector's output on that series, read by both rows. The cause column is read from where "
           "the differing cells lie: the two rows declare different parameters or inputs (declared); every differing "
           "cell is a detector whose output is constant on the series (a raw score with one value, or a prediction at "
           "NAB's threshold that is all 0 or all 1), so the rows follow different conventions for a degenerate input; "
           "cells differ where the output varies and the 25 constructed cases separate the two rows too (the "
           "definitions differ: the group's verdict above traces the code); or cells differ where the output varies "
           "although every constructed case both rows ran agrees (seen on real data only).", ""]
    if not pairs:
        return out + ["No pair of rows of one group ranks the detectors differently.", ""]
    out += ["| group | rows | tau [95 %] | series | holds | cells that differ | largest difference | cause |",
            "|---|---|---|---|---|---|---|---|"]
    for p in pairs:
        cause = cause_text(p)
        big = p.get("largest")
        where = (f"{big['detector']} on {big['series']}: {_cell(big['a'])} vs {_cell(big['b'])}" if big else "-")
        out.append(f"| {p['group']} | {p['rows'][0]} vs {p['rows'][1]} | {interval(p)} | {p['series']} | "
                   f"{'yes' if p['holds'] else 'no'} | {p.get('cells_differ', '-')}/{p.get('cells_compared', '-')} | {where} | {cause} |")
    return out + [""]


def cause_text(p: Mapping[str, Any]) -> str:
    """The cause column of one pair (:func:`oipr_bench.atlas.realdata.summary.pair_cause`)."""
    cause = p.get("cause", "untraced")
    const = p.get("cells_differ_constant", 0)
    on_const = f"{const} on constant outputs ({', '.join(p.get('constant_detectors', []))})"
    if cause == "one_fails":
        return f"the same numbers where both compute one; one row fails on {p['cells_one_failed']} cells the other scores"
    if cause == "declared":
        return "declared: parameters or input differ"
    if cause == "constant_output":
        return f"a convention for a constant output: all {const} differing cells are constant outputs ({', '.join(p['constant_detectors'])})"
    if cause not in ("definition", "real_data_only"):
        return "same declaration: see the group's entry above"
    varying = p["cells_differ"] - p["cells_one_failed"] - const
    big = p.get("largest_varying")
    at = f" (largest: {big['detector']} on {big['series']}, {_cell(big['a'])} vs {_cell(big['b'])})" if big else ""
    rest = (f"; {on_const}" if const else "") + (f"; {p['cells_one_failed']} failed in one row" if p["cells_one_failed"] else "")
    if cause == "definition":
        return (f"the definitions differ: {varying} cells where the output varies{at}, and {p['constructed_differ']} of "
                f"{p['constructed_compared']} constructed cases; the group's verdict above{rest}")
    return (f"seen on real data only: {varying} cells where the output varies{at}, while all {p['constructed_compared']} "
            f"constructed cases both rows ran agree{rest}")


def _minutes(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    s = float(seconds)
    if s < 60:
        return f"{s:.1f} s"
    if s < 3600:
        return f"{int(s // 60)} min {int(round(s % 60)):02d} s"
    return f"{s / 3600:.2f} h"


def cost_table(summary: Mapping[str, Any]) -> list[str]:
    """Every row's cost, most costly first: what it ran on, its measured CPU, the estimate of its full run."""
    kept = len(summary["nab"][summary["detectors"][0]]) if summary["detectors"] else 0
    rows = sorted(summary["rows"], key=lambda r: (-(r.get("estimated_full_cpu_seconds") or 0.0), r["id"]))
    out = ["| row | env | series | CPU measured | full run (estimated) | probe call |", "|---|---|---|---:|---:|---:|"]
    for r in rows:
        probe = r.get("probe_cpu_seconds")
        out.append(f"| {r['id']} | {r['env']} | {subset_label(r, kept) if r.get('reading') else r['status']} | "
                   f"{_minutes(r.get('cpu_seconds'))} | {_minutes(r.get('estimated_full_cpu_seconds'))} | "
                   f"{'-' if probe is None else f'{float(probe):.3f} s'} |")
    return out


def cost_lines(summary: Mapping[str, Any], runs: list[Mapping[str, Any]], top: int = 20) -> list[str]:
    """The real-data atlas's cost for docs/benchmarks.md: totals, the recorded runs, the full run on N workers, the costliest rows."""
    rows = summary["rows"]
    measured = sum(float(r.get("cpu_seconds") or 0.0) for r in rows)
    full = sum(float(r.get("estimated_full_cpu_seconds") or 0.0) for r in rows)
    subset = [r for r in rows if r.get("reading") and not r.get("full")]
    out = [f"- Rows: {len(rows)} ({summary['totals']['read']} read, {summary['totals']['full']} on all "
           f"{len(summary['nab'][summary['detectors'][0]])} series, {len(subset)} on a declared subset; {_budgets(summary)}).",
           f"- CPU measured in the workers, every committed cell: **{_minutes(measured)}** (the metric calls; reading NAB "
           "and the Dask overhead are in the runs' wall times below).",
           f"- The full run of every row (every series), estimated from the cost probes: {_minutes(full)} of CPU: "
           + ", ".join(f"{_minutes(full / n)} on {n} workers" for n in (2, 8, 32, 128))
           + " (perfect sharing; one (row, series) task is the smallest unit).", ""]
    if runs:
        out += ["The recorded runs (`atlas/realdata/runs.json`; each computes only what the committed files and the cache lack):", "",
                "| date | env | budget (CPU min) | workers | CPUs | wall | worker CPU | pairs computed | pairs read | ended |",
                "|---|---|---:|---|---:|---:|---:|---:|---:|---|"]
        for r in runs:
            ended = "interrupted (its work kept)" if r.get("interrupted") else "yes"
            out.append(f"| {r.get('date')} | {r.get('env')} | {float(r.get('budget_cpu_minutes') or 0):g} | {r.get('workers')} | "
                       f"{r.get('cpus')} | {_minutes(r.get('wall_seconds'))} | {_minutes(r.get('worker_cpu_seconds'))} | "
                       f"{r.get('pairs_computed')} | {r.get('pairs_read')} | {ended} |")
        out.append("")
    out += [f"The {top} costliest rows (the full table: [atlas/realdata/COSTS.md](../atlas/realdata/COSTS.md)):", ""]
    table = cost_table(summary)
    return out + table[: top + 2]


#: The heading of DISAGREEMENTS.md's real-data section (its last section).
REAL_HEADING = "## On real data: the same metric ranking NAB's detectors differently"


def with_real_section(text: str, summary: Mapping[str, Any] | None) -> str:
    """DISAGREEMENTS.md's text with its real-data section (the last one) replaced by ``summary``'s."""
    head = text.split("\n" + REAL_HEADING, 1)[0].rstrip("\n") + "\n"
    lines = disagreement_section(summary)
    return head + ("\n" + "\n".join(lines).rstrip() + "\n" if lines else "")


def costs_markdown(summary: Mapping[str, Any]) -> str:
    """``atlas/realdata/COSTS.md``: every row's cost (written by ``atlas --realdata``; do not edit)."""
    return "\n".join(["# The real-data atlas: what each row cost", "",
                      "Written by `oipr-bench atlas --realdata` from `summary.json` (do not edit); docs/benchmarks.md explains the figures.",
                      "", *cost_table(summary)]) + "\n"
