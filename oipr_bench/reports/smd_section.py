"""The HTML report's section on the paper's real data (``oipr-bench report --data DIR``).

The authors' SMD slice drawn as inline SVG strips (ground truth red, each detector of Tables 6-8
blue, as the paper's Figs. 2 and 6), then, per table, every evaluator's ranking of the table's
detectors with the audited evaluator's beside the seven built-ins', OIPR's order as the reference
and the characteristic the paper marks. No matplotlib: the page stays self-contained.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..reference.smd import TABLE_DETECTORS, SmdData
from ..scenarios.events import to_events
from .html_parts import esc
from .smd_render import DIFFERS_MARK
from .smd_tables import Ranking, SmdResult, characteristic_phrase

__all__ = ["strips_svg", "smd_section_html"]

_GT = "#d62728"
_PRED = "#1f5fbf"


def strips_svg(rows: Sequence[tuple[str, np.ndarray, str]], width: int = 760, label_width: int = 170) -> str:
    """Inline SVG of labelled 0/1 strips: ``(label, series, role)`` with role ``gt`` (red) or ``pred`` (blue).

    One-point events are drawn at least 1 px wide so they stay visible.
    """
    row_h, gap = 12, 6
    length = max(1, max(int(np.asarray(y).shape[0]) for _, y, _ in rows))
    height = len(rows) * (row_h + gap) + 14
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width + label_width}" height="{height}" '
             f'viewBox="0 0 {width + label_width} {height}" role="img" aria-label="SMD slice">']
    for k, (label, y, role) in enumerate(rows):
        color = _GT if role == "gt" else _PRED
        top = k * (row_h + gap)
        parts.append(f'<text x="{label_width - 6}" y="{top + row_h - 2}" font-size="10" fill="{color}" '
                     f'text-anchor="end">{esc(label)}</text>')
        parts.append(f'<rect x="{label_width}" y="{top + row_h / 2 - 0.25:.2f}" width="{width}" height="0.5" fill="#cccccc"/>')
        starts, ends = to_events(np.asarray(y))
        for s, e in zip(starts.tolist(), ends.tolist()):
            w = max(1.0, (e - s) / length * width)
            parts.append(f'<rect x="{label_width + s / length * width:.2f}" y="{top}" width="{w:.2f}" '
                         f'height="{row_h}" fill="{color}"/>')
    axis_y = len(rows) * (row_h + gap) + 10
    parts.append(f'<text x="{label_width}" y="{axis_y}" font-size="9" fill="#777">0</text>')
    parts.append(f'<text x="{label_width + width}" y="{axis_y}" font-size="9" fill="#777" text-anchor="end">'
                 f'T={length}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _slice_rows(data: SmdData) -> list[tuple[str, np.ndarray, str]]:
    rows: list[tuple[str, np.ndarray, str]] = [("gt", data.y_true, "gt")]
    for table in ("6", "7", "8"):
        rows += [(f"{d} (Table {table})", data.predictions[d], "pred") for d in TABLE_DETECTORS[table]
                 if d in data.predictions]
    return rows


def _ranking_row(r: Ranking, user: bool) -> str:
    order = " &gt; ".join(" = ".join(esc(d) for d in group) for group in r.order)
    differs = f"{DIFFERS_MARK} differs" if r.differs_from_oipr else "same"
    marks = "; ".join(f"{esc(characteristic_phrase(c))} ({esc(d)})" for d, c in r.marks.items())
    style = ' style="background:#fff7e0"' if user else ""
    name = f"<b>{esc(r.evaluator)}</b>" if user else esc(r.evaluator)
    return f"<tr{style}><td>{name}</td><td>{order}</td><td>{differs}</td><td>{marks or '-'}</td></tr>"


def _table_html(result: SmdResult) -> str:
    n_builtin = len(result.result.columns)
    rows = [_ranking_row(r, k >= n_builtin) for k, r in enumerate(result.rankings)]
    failed = ""
    if result.user is not None and result.user.problems:
        failed = (f'<p class="sub">{esc(result.user.name)} gave no ranking: '
                  + "; ".join(f"{esc(d)}: {esc(m)}" for d, m in result.user.problems.items()) + "</p>")
    return (f"<h3>Table {esc(result.table)} (SMD rows)</h3>"
            "<table><thead><tr><th>evaluator</th><th>ranking by F1, or a one-number evaluator's number (best first)</th><th>vs OIPR</th>"
            "<th>characteristic the paper marks</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
            + failed + f'<p class="sub">{esc(result.result.summary())}</p>')


def smd_section_html(data: SmdData, results: Sequence[SmdResult]) -> str:
    """The section: the slice as strips, then one ranking table per reproduced table."""
    return ("<h2>On the paper's real data: the authors' SMD slice (Tables 6-8)</h2>"
            '<p class="sub">Ground truth (red) and each detector\'s output (blue) over the '
            f"{int(data.y_true.shape[0])} points of the slice, as the paper's Figs. 2 and 6. Below, each evaluator "
            "ranks the detectors of a table by F1 at the paper's 3 printed decimals; OIPR's order is the "
            "reference, and the last column names the characteristic the paper marks in that evaluator's column.</p>"
            + strips_svg(_slice_rows(data)) + "".join(_table_html(r) for r in results))
