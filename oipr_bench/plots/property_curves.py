"""A metric property's curve as a small inline SVG line chart (no matplotlib needed).

:func:`curve_svg` draws the oriented score of each case of a property's family
(:class:`~oipr_bench.auditing.properties.results.Curve`) over the family's
parameter: numeric parameters on a proportional axis, roles (``forward``,
``A``) as evenly spaced categories.  The HTML report
(:mod:`oipr_bench.reports.property_section`) puts one next to each property.
"""

from __future__ import annotations

import math
from html import escape
from typing import Any, Sequence

__all__ = ["curve_svg"]

WIDTH, HEIGHT = 320, 150
LEFT, RIGHT, TOP, BOTTOM = 40, 10, 10, 34


def _positions(x: Sequence[Any]) -> list[float]:
    """Horizontal positions in [0, 1]: proportional for numbers, evenly spaced otherwise."""
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in x)
    if numeric and len(set(x)) == len(x) and len(x) > 1:
        lo, hi = min(x), max(x)
        return [(float(v) - lo) / (hi - lo) for v in x]
    n = len(x)
    return [0.5] if n == 1 else [i / (n - 1) for i in range(n)]


def _label(v: Any) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def curve_svg(x: Sequence[Any], y: Sequence[float], x_label: str, *, y_label: str = "score (common scale)") -> str:
    """An SVG line chart of ``y`` over ``x`` (NaN points are left out and marked on the axis).

    The y axis spans [0, 1] (the common scale of :mod:`oipr_bench.auditing.table5.readings`),
    widened to the data when a value falls outside.
    """
    finite = [v for v in y if not math.isnan(v)]
    lo, hi = min([0.0, *finite]), max([1.0, *finite])
    px = [LEFT + p * (WIDTH - LEFT - RIGHT) for p in _positions(x)]

    def py(v: float) -> float:
        return TOP + (hi - v) / (hi - lo) * (HEIGHT - TOP - BOTTOM)

    pts = [(a, py(b)) for a, b in zip(px, y) if not math.isnan(b)]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
             f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(y_label)} over {escape(x_label)}">',
             f'<line x1="{LEFT}" y1="{py(lo):.1f}" x2="{WIDTH - RIGHT}" y2="{py(lo):.1f}" stroke="#98a2b3"/>',
             f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{py(lo):.1f}" stroke="#98a2b3"/>']
    for v in (lo, hi):
        parts.append(f'<text x="{LEFT - 4}" y="{py(v) + 4:.1f}" font-size="10" text-anchor="end">{v:g}</text>')
    if len(pts) > 1:
        parts.append('<polyline fill="none" stroke="#1570ef" stroke-width="1.5" points="'
                     + " ".join(f"{a:.1f},{b:.1f}" for a, b in pts) + '"/>')
    parts += [f'<circle cx="{a:.1f}" cy="{b:.1f}" r="2.5" fill="#1570ef"/>' for a, b in pts]
    parts += [f'<text x="{a:.1f}" y="{py(lo) - 3:.1f}" font-size="10" fill="#b42318" text-anchor="middle">nan</text>'
              for a, b in zip(px, y) if math.isnan(b)]
    shown = sorted({0, len(x) - 1, len(x) // 2})
    for i in shown:
        parts.append(f'<text x="{px[i]:.1f}" y="{HEIGHT - BOTTOM + 13}" font-size="10" text-anchor="middle">'
                     f"{escape(_label(x[i]))}</text>")
    parts.append(f'<text x="{(LEFT + WIDTH - RIGHT) / 2:.1f}" y="{HEIGHT - 4}" font-size="10" '
                 f'text-anchor="middle">{escape(x_label)}</text></svg>')
    return "".join(parts)
