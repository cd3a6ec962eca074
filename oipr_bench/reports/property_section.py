"""The metric properties in the HTML report: a table and one section per property with its plot.

:func:`properties_html` renders the ``properties`` of a profile (see
:mod:`oipr_bench.auditing.properties.run`): a table of property, input, observed
value and status, then per property its source, the one-line reason, the
numbers the rule compared and the curve over its family's parameter as inline
SVG (:func:`oipr_bench.plots.property_curves.curve_svg`), and every case of
its scenario family as a thumbnail, like Table 5's evidence (ground truth over
the prediction, or over the scores in a score family), with the metric's value
there, so the page stays self-contained.
"""

from __future__ import annotations

from typing import Any, Mapping

from .html_parts import esc, fmt, scores_thumbnail_svg, slug, status_chip, thumbnail_svg
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


def _section(r: Any, evaluator: str) -> str:
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
    out.append(_family_thumbnails(r, evaluator))
    out.append("</section>")
    return "".join(out)


def _family_thumbnails(r: Any, evaluator: str) -> str:
    """Every case of the property's family: its parameter, a thumbnail, and the metric's value on the curve."""
    from ..scenarios.family_files import load_families

    fam = load_families().get(r.name)
    if fam is None:
        return ""
    curve = None if r.finding is None else r.finding.curve
    values = {} if curve is None else dict(zip(curve.cases, curve.y))
    out = [f'<p class="sub">Scenario family <code>{esc(fam.name)}</code>: {esc(fam.description)}</p>',
           '<div class="thumbs">']
    for case in fam.cases:
        if case.y_pred is not None:
            svg = thumbnail_svg(case.y_true, case.y_pred, label=case.id)
        else:
            svg = scores_thumbnail_svg(case.y_true, case.scores, label=case.id)
        value = values.get(case.id)
        sc = "not on the curve" if value is None else f"<b>{fmt(value)}</b>"
        out.append(f'<div class="thumbcase familycase"><div class="cid">{esc(case.id)}</div>'
                   f'<div class="desc">{esc(fam.parameter)}: {esc(str(case.parameter))}</div>{svg}'
                   f'<div class="sc">{esc(evaluator)}: {sc}</div></div>')
    out.append("</div>")
    return "".join(out)


def properties_html(results: Mapping[str, Any], evaluator: str = "metric") -> str:
    """The properties part of the page ("" when the profile ran none); ``evaluator`` labels its values."""
    if not results:
        return ""
    return "".join([
        "<h2>Metric properties beyond Table 5</h2>",
        '<p class="sub">Reported, not judged, unless an expectation was declared (docs/properties.md). '
        "Each plot shows the metric over its scenario family's parameter; below it, every case of the family.</p>",
        _table(results),
        *(_section(r, evaluator) for r in results.values()),
    ])
