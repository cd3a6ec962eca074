"""A badge per atlas row: a shields-style SVG stating one checkable fact about the row.

The fact (:func:`badge_claim`), from the row as ``atlas.json`` holds it:

- a score row paired with a built-in evaluator (:mod:`.references`): ``exact to <built-in>`` when no
  case of the 25 differs by more than 1e-9, else ``differs from <built-in>: <largest |difference|>``
  (and how many cases only one side scores);
- every other profiled row: ``Table 5: K/10 as OIPR`` (the characteristics on which the row's cell
  equals the built-in OIPR row's) and ``properties: D/A determined`` (the property cells holding a
  value, of those that apply: ``n/a`` cells do not count);
- a row not profiled: ``not profiled``.

The SVG is generated text (no network, no font files): each part's width comes from a fixed
per-character estimate and ``textLength`` makes any renderer fit the text to it.
"""

from __future__ import annotations

import html
from typing import Any, Mapping

from .references import builtin_label, builtin_of, compare, reference_values

__all__ = ["LABEL", "OIPR_ROW", "badge_claim", "badge_svg", "badge_markdown", "table5_agreement", "properties_determined"]

LABEL = "oipr-bench atlas"
#: The row the Table 5 count compares with.
OIPR_ROW = "oipr-bench:OIPR"
_VALUE = frozenset({"n/a", "?", "-", ""})


def table5_agreement(row: Mapping[str, Any], oipr: Mapping[str, Any], names: list[str]) -> int:
    """How many of the characteristics ``names`` hold the same value in ``row`` and in the OIPR row."""
    mine, theirs = row.get("characteristics") or {}, oipr.get("characteristics") or {}
    return sum(1 for n in names if n in mine and mine[n] == theirs.get(n))


def properties_determined(row: Mapping[str, Any]) -> tuple[int, int]:
    """``(determined, applicable)``: property cells holding a value, of those that are not ``n/a``."""
    cells = [str(v) for v in (row.get("properties") or {}).values()]
    applicable = [v for v in cells if v != "n/a"]
    return sum(v not in _VALUE for v in applicable), len(applicable)


def badge_claim(row: Mapping[str, Any], doc: Mapping[str, Any]) -> str:
    """The badge's message for ``row`` of the atlas ``doc``."""
    if row.get("status") != "ok":
        return "not profiled"
    pair = builtin_of(row)
    if pair is not None:
        result = compare(row, reference_values(row) or {})
        name = builtin_label(*pair)
        if result.exact:
            return f"exact to {name}"
        unscored = f"; {len(result.one_sided)} cases scored by one side only" if result.one_sided else ""
        return f"differs from {name}: {result.max_abs_diff:.2g}{unscored}"
    names = list(doc["characteristics"])
    oipr = next((r for r in doc["rows"] if r["id"] == OIPR_ROW), {})
    determined, applicable = properties_determined(row)
    return f"Table 5: {table5_agreement(row, oipr, names)}/{len(names)} as OIPR; properties: {determined}/{applicable} determined"


def _width(text: str) -> int:
    """Estimated width in pixels of ``text`` at 11 px Verdana (narrow and wide letters told apart)."""
    narrow, wide = set("iljtfr.,:;!|()[]/' "), set("mwMW%@")
    return int(sum(4 if c in narrow else 10 if c in wide else 7 for c in text)) + 10


def badge_svg(message: str, label: str = LABEL, colour: str = "#2c6fbb") -> str:
    """A two-part shields-style badge: ``label`` on grey, ``message`` on ``colour``."""
    lw, mw = _width(label), _width(message)
    e = html.escape
    text = "".join(
        f"<text x='{x}' y='14' textLength='{w - 10}' lengthAdjust='spacingAndGlyphs'>{e(t)}</text>"
        for x, w, t in ((5, lw, label), (lw + 5, mw, message)))
    return (f"<svg xmlns='http://www.w3.org/2000/svg' width='{lw + mw}' height='20' role='img' aria-label='{e(label)}: {e(message)}'>"
            f"<title>{e(label)}: {e(message)}</title><rect width='{lw}' height='20' fill='#555'/>"
            f"<rect x='{lw}' width='{mw}' height='20' fill='{colour}'/>"
            f"<g fill='#fff' font-family='Verdana,DejaVu Sans,sans-serif' font-size='11'>{text}</g></svg>\n")


def badge_markdown(slug: str, message: str) -> str:
    """The Markdown that embeds the badge, linked to the row's page (paths from the repository's root)."""
    return f"[![{LABEL}: {message}](atlas/badges/{slug}.svg)](atlas/pages/{slug}.html)"
