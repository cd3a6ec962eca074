"""The metric properties in the HTML report: a table and one section per property with its plot.

:func:`properties_html` renders the ``properties`` of a profile (see
:mod:`oipr_bench.auditing.properties.run`): a table of property, input, observed
value and status, then per property its source, the one-line reason, the
numbers the rule compared and the curve over its family's parameter as inline
SVG (:func:`oipr_bench.plots.property_curves.curve_svg`), so the page stays
self-contained.
"""

from __future__ import annotations

from typing import Any, Mapping

from .html_parts import esc, fmt, slug, status_chip
from ..plots.property_curves import curve_svg
from ..vocabulary import UNDETERMINED

__all__ = ["properties_html"]


def _table(results: Mapping[str, Any]) -> str:
    out = ['<table class="profile"><thead><tr><th>Property</th><th>Input</th><th>Observed</th><th>Expected</th>'
           "<th>Status</th><th>Why</th></tr></thead><tbody>"]
    for r in results.values():
        expected = "-" if r.expectation is None else " or ".join(r.expectation.values)
        out.append(f'<tr><td><a href="#{slug("property-" + r.name)}"><code>{esc(r.name)}</code></a></td>'
                   f"<td>{esc(r.input)}</td><td><b>{esc(r.observed or UNDETERMINED)}</b></td><td>{esc(expected)}</td>"
                   f"<td>{status_chip(r.status)}</td><td>{esc(r.message)}</td></tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _section(r: Any) -> str:
    out = [f'<section class="evidence" id="{slug("property-" + r.name)}"><header><h3><code>{esc(r.name)}</code></h3>'
           f" <b>{esc(r.observed or UNDETERMINED)}</b> {status_chip(r.status)}</header>",
           f'<p class="why">{esc(r.message)}</p>',
           f'<p class="sub">Source: {esc(r.source)}</p>']
    f = r.finding
    if f is not None and f.numbers:
        out.append('<div class="numbers">' + "".join(f"<div><span>{esc(k)}</span><b>{fmt(v)}</b></div>"
                                                     for k, v in f.numbers.items()) + "</div>")
    if f is not None and f.curve is not None:
        c = f.curve
        out.append(f'<div class="thumbs"><div class="thumbcase">{curve_svg(c.x, c.y, c.x_label, y_label=c.y_label)}'
                   f'<div class="desc">{esc(c.y_label)} over {esc(c.x_label)}</div></div></div>')
    out.append("</section>")
    return "".join(out)


def properties_html(results: Mapping[str, Any]) -> str:
    """The properties part of the page ("" when the profile ran none)."""
    if not results:
        return ""
    return "".join([
        "<h2>Metric properties beyond Table 5</h2>",
        '<p class="sub">Reported, not judged, unless an expectation was declared (docs/properties.md). '
        "Each plot shows the metric over its scenario family's parameter.</p>",
        _table(results),
        *(_section(r) for r in results.values()),
    ])
