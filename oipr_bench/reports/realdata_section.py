"""The HTML report's section on real detectors (``oipr-bench report SPEC --realdata DIR``, and the plugin's
``--oipr-realdata DIR``).

The result of :func:`oipr_bench.realdata.table.realdata` (the one implementation behind the command
line, the report and the plugin): the protocol, a detectors x metrics grid of ranks with the audited
evaluator's column, where ``random`` and ``null`` land, the audited evaluator's Kendall's tau with
each built-in (and its interval) and the built-in it agrees with most, and its failed cells.  No
matplotlib: the page stays self-contained.
"""

from __future__ import annotations

from ..realdata.analysis import BASELINES
from ..realdata.render import SHOWN_PROBLEMS, user_summary
from ..realdata.table import RealdataResult
from .html_parts import esc, fmt

__all__ = ["realdata_section_html"]


def _placement(ranking, n: int) -> str:
    parts = []
    if ranking.random_rank is not None:
        parts.append(f"random {ranking.random_rank}/{n}")
    if ranking.null_rank is not None:
        parts.append(f"null {ranking.null_rank}/{n}")
    if ranking.random_above:
        parts.append(f"random above {len(ranking.random_above)} real detector(s)")
    return ", ".join(parts)


def realdata_section_html(result: RealdataResult) -> str:
    """The section as an HTML fragment (a ``<section>`` placed before the report's footer)."""
    t, a = result.table, result.analysis
    n = len(a.detectors)
    user = result.user
    out = ['<section class="realdata" id="realdata"><h2>Real detectors on real data (NAB)</h2>',
           f'<p class="sub">{n} detectors on {len(t.series)} series of NAB ({len(t.left_out)} left out), '
           f"{len(a.metrics)} metrics. Protocol:</p><ul>"]
    out += [f"<li>{esc(line)}</li>" for line in t.protocol.lines()]
    out.append("</ul>")
    head = "".join(f"<th{' class=yours' if user and m == user.name else ''}>{esc(m)}</th>" for m in a.metrics)
    out.append(f'<table class="ranks"><thead><tr><th>detector</th>{head}</tr></thead><tbody>')
    for det in a.detectors:
        cells = []
        for r in a.rankings:
            s = r.standing(det)
            cells.append(f'<td title="{esc(fmt(s.value))} [{esc(fmt(s.low))}, {esc(fmt(s.high))}]">{s.rank}</td>')
        label = f"{det} (baseline)" if det in BASELINES else det
        out.append(f"<tr><th>{esc(label)}</th>{''.join(cells)}</tr>")
    out.append("</tbody></table>")
    out.append('<p class="sub">Rank 1 = best (hover a cell for the aggregate and its 95 % bootstrap interval). '
               "Baselines: " + "; ".join(f"{esc(r.metric)}: {esc(_placement(r, n))}" for r in a.rankings) + "</p>")
    summary = user_summary(result)
    if summary is not None:
        closest = summary["closest"]
        out.append(f"<h3>{esc(summary['metric'])} against the built-ins</h3>")
        out.append('<table class="agreement"><thead><tr><th>built-in</th><th>Kendall\'s tau-b</th>'
                   "<th>95 % interval</th></tr></thead><tbody>")
        for row in summary["agreement"]:
            tau = "nan" if row["tau"] is None else f"{row['tau']:.2f}"
            interval = ("nan" if row["low"] is None or row["high"] is None else
                        f"[{row['low']:.2f}, {row['high']:.2f}]")
            out.append(f"<tr><td>{esc(row['metric'])}</td><td>{tau}</td><td>{interval}</td></tr>")
        out.append("</tbody></table>")
        out.append("<p>" + (f"It agrees most with <b>{esc(' and '.join(closest['metrics']))}</b> (tau {closest['tau']:.2f})."
                            if closest else "Its ranking is all tied or undefined: it agrees with no metric.") + "</p>")
    if t.problems:
        out.append(f"<h3>Failed cells ({len(t.problems)}; each left out of its mean)</h3><ul>")
        out += [f"<li><code>{esc(p)}</code></li>" for p in t.problems[:SHOWN_PROBLEMS]]
        if len(t.problems) > SHOWN_PROBLEMS:
            out.append(f"<li>... and {len(t.problems) - SHOWN_PROBLEMS} more</li>")
        out.append("</ul>")
    out.append("</section>")
    return "\n".join(out)
