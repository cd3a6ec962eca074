"""Pieces of the HTML report (:mod:`oipr_bench.reports.html_report`): escaping, chips, thumbnails, style sheet.

The thumbnails are inline SVG (ground truth red, prediction blue, as the
paper's Fig. A), so the page needs neither matplotlib nor any file beside it.
"""

from __future__ import annotations

import html
import math
from typing import Any

import numpy as np

from ..scenarios.events import to_events
from ..vocabulary import (
    ABSENT,
    DEVIATION,
    FAILED,
    KIND_BENEFICIAL,
    KIND_MISLEADING,
    MITIGATED,
    NOT_APPLICABLE,
    NOT_RUN,
    OK,
    ONLY_DELAY,
    ONLY_EARLY,
    PASSED,
    PIECEWISE,
    REPORTED,
    UNDETERMINED,
    UNEXPECTED_PASS,
    YES,
)

__all__ = ["esc", "fmt", "thumbnail_svg", "STATUS_CLASS", "STATUS_TEXT", "status_chip", "value_chip", "CSS", "slug"]

_GT = "#d62728"
_PRED = "#1f5fbf"


def esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def fmt(x: float, digits: int = 4) -> str:
    return "nan" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def thumbnail_svg(y_true: np.ndarray, y_pred: np.ndarray, width: int = 290, label: str | None = None) -> str:
    """A small inline SVG: the ground-truth events (red) over the predicted events (blue).

    One-point events are drawn at least 1.5 px wide so they stay visible.
    """
    T = max(1, int(np.asarray(y_true).shape[0]))
    row_h, gap, pad = 11, 5, 26
    height = 2 * row_h + gap + 14
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="thumb" width="{width + pad}" height="{height}" '
             f'viewBox="0 0 {width + pad} {height}" role="img" aria-label="{esc(label or "case")}">']
    for row, (y, color, name) in enumerate(((y_true, _GT, "gt"), (y_pred, _PRED, "pred"))):
        top = row * (row_h + gap)
        parts.append(f'<text x="0" y="{top + row_h - 2}" font-size="9" fill="{color}">{name}</text>')
        parts.append(f'<rect x="{pad}" y="{top + row_h / 2 - 0.25:.2f}" width="{width}" height="0.5" fill="#cccccc"/>')
        starts, ends = to_events(np.asarray(y))
        for s, e in zip(starts.tolist(), ends.tolist()):
            x = pad + s / T * width
            w = max(1.5, (e - s) / T * width)
            parts.append(f'<rect x="{x:.2f}" y="{top}" width="{w:.2f}" height="{row_h}" fill="{color}"/>')
    axis_y = 2 * row_h + gap + 11
    parts.append(f'<text x="{pad}" y="{axis_y}" font-size="8" fill="#777">0</text>')
    parts.append(f'<text x="{pad + width}" y="{axis_y}" font-size="8" fill="#777" text-anchor="end">T={T}</text>')
    parts.append("</svg>")
    return "".join(parts)


def scores_thumbnail_svg(y_true: np.ndarray, scores: np.ndarray, width: int = 290, label: str | None = None,
                         bins: int = 145) -> str:
    """A small inline SVG: the ground-truth events (red) over the anomaly scores (blue line).

    The scores are drawn as the mean of ``bins`` equal slices (at most one per point), scaled to the
    series' own range, so a 500-point series stays a few kilobytes.
    """
    T = max(1, int(np.asarray(y_true).shape[0]))
    row_h, gap, pad, line_h = 11, 5, 26, 22
    height = row_h + gap + line_h + 14
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="thumb" width="{width + pad}" height="{height}" '
             f'viewBox="0 0 {width + pad} {height}" role="img" aria-label="scores {esc(label or "case")}">',
             f'<text x="0" y="{row_h - 2}" font-size="9" fill="{_GT}">gt</text>',
             f'<rect x="{pad}" y="{row_h / 2 - 0.25:.2f}" width="{width}" height="0.5" fill="#cccccc"/>']
    starts, ends = to_events(np.asarray(y_true))
    for a, b in zip(starts.tolist(), ends.tolist()):
        parts.append(f'<rect x="{pad + a / T * width:.2f}" y="0" width="{max(1.5, (b - a) / T * width):.2f}" '
                     f'height="{row_h}" fill="{_GT}"/>')
    s = np.asarray(scores, dtype=float)
    cells = np.array([c.mean() for c in np.array_split(s, min(bins, s.size))])
    lo, hi = float(np.min(cells)), float(np.max(cells))
    level = (cells - lo) / (hi - lo) if hi > lo else np.full(cells.size, 0.5)
    top = row_h + gap
    xs = pad + (np.arange(cells.size) + 0.5) / cells.size * width
    ys = top + (1.0 - level) * line_h
    parts.append(f'<text x="0" y="{top + line_h / 2 + 3}" font-size="9" fill="{_PRED}">score</text>')
    parts.append(f'<polyline fill="none" stroke="{_PRED}" stroke-width="1" points="'
                 + " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(xs, ys)) + '"/>')
    axis_y = top + line_h + 11
    parts.append(f'<text x="{pad}" y="{axis_y}" font-size="8" fill="#777">0</text>')
    parts.append(f'<text x="{pad + width}" y="{axis_y}" font-size="8" fill="#777" text-anchor="end">T={T}</text>')
    parts.append("</svg>")
    return "".join(parts)


#: CSS class and text of each status chip.
STATUS_CLASS = {
    PASSED: "ok", OK: "ok", FAILED: "bad", UNDETERMINED: "undet",
    DEVIATION: "dev", UNEXPECTED_PASS: "warn", NOT_APPLICABLE: "neutral", NOT_RUN: "neutral", REPORTED: "neutral",
}
STATUS_TEXT = {
    PASSED: "as expected", FAILED: "differs", UNDETERMINED: UNDETERMINED, DEVIATION: "declared deviation",
    UNEXPECTED_PASS: "unexpected pass", NOT_APPLICABLE: "not applicable", NOT_RUN: "not run", REPORTED: "reported",
}


def status_chip(status: str, differs: str = "") -> str:
    """A status as a coloured chip; ``differs`` says what a ``failed`` status means ("differs from OIPR's row")."""
    key = status.strip().lower()
    cls = STATUS_CLASS.get(key, "neutral")
    text = differs if key == FAILED and differs else STATUS_TEXT.get(key, status or "-")
    return f'<span class="chip {cls}">{esc(text)}</span>'


def value_chip(value: str, kind: str) -> str:
    if value == NOT_APPLICABLE:  # the rule needs what the evaluator does not give: neither good nor bad
        return f'<span class="val neutral">{esc(value.replace("_", " "))}</span>'
    good = {KIND_BENEFICIAL: {YES}, KIND_MISLEADING: {ABSENT}}.get(kind, set())
    part = {KIND_BENEFICIAL: {PIECEWISE, ONLY_DELAY, ONLY_EARLY}, KIND_MISLEADING: {MITIGATED}}.get(kind, set())
    cls = "ok" if value in good else "dev" if value in part else "bad" if kind else "neutral"
    return f'<span class="val {cls}">{esc(value.replace("_", " "))}</span>'


CSS = """
:root{--gt:#d62728;--pred:#1f5fbf;--ink:#1d2430;--muted:#667085;--line:#e4e7ec;--bg:#f7f8fa}
*{box-sizing:border-box}
body{font-family:-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--ink);
 background:var(--bg);margin:0;line-height:1.45;font-size:14px}
main{max-width:1180px;margin:0 auto;padding:28px 28px 60px}
h1{font-size:24px;margin:0 0 4px}
h2{font-size:18px;margin:36px 0 10px;padding-bottom:6px;border-bottom:2px solid var(--line)}
h3{font-size:15px;margin:0}
p.sub{color:var(--muted);margin:0 0 14px}
code{font-family:SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px;background:#eef1f5;padding:1px 4px;border-radius:3px}
.summary{display:flex;gap:12px;flex-wrap:wrap;margin:16px 0 4px}
.card{background:#fff;border:1px solid var(--line);border-radius:8px;padding:12px 16px}
.summary .card{min-width:150px}
.summary .big{font-size:24px;font-weight:700}
table{border-collapse:collapse;background:#fff;width:100%}
th,td{border-bottom:1px solid var(--line);padding:6px 9px;text-align:left;vertical-align:top}
th{background:#f0f2f5;font-weight:600;font-size:12.5px}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.chip,.val{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;white-space:nowrap}
.chip.ok{background:#dcfae6;color:#067647}.chip.bad{background:#fee4e2;color:#b42318}
.chip.dev{background:#fef0c7;color:#93370d}.chip.warn{background:#ebe9fe;color:#5925dc}
.chip.neutral{background:#f2f4f7;color:#475467}.chip.undet{background:#e0f2fe;color:#075985}
.val.ok{color:#067647}.val.bad{color:#b42318}.val.dev{color:#b54708}.val.neutral{color:#475467}
.kind{font-size:11px;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
.evidence{margin:14px 0;background:#fff;border:1px solid var(--line);border-radius:8px;padding:14px 18px}
.evidence header{display:flex;gap:10px;align-items:center;flex-wrap:wrap;margin-bottom:6px}
.evidence .why{margin:4px 0 10px}
.numbers{display:grid;grid-template-columns:repeat(auto-fill,minmax(250px,1fr));gap:2px 18px;margin:4px 0 12px;
 font-size:12.5px}
.numbers div{display:flex;justify-content:space-between;border-bottom:1px dotted var(--line);padding:2px 0}
.numbers b{font-variant-numeric:tabular-nums;font-weight:600}
.thumbs{display:flex;flex-wrap:wrap;gap:12px}
.thumbcase{border:1px solid var(--line);border-radius:6px;padding:8px 10px;background:#fcfcfd;width:338px}
.thumbcase .cid{font-weight:600;font-size:12.5px}
.thumbcase .desc{color:var(--muted);font-size:12px;margin:2px 0 4px;min-height:2.6em}
.thumbcase .sc{font-size:12px;font-variant-numeric:tabular-nums}
svg.thumb{display:block;margin:4px 0}
.scores td{font-size:12.5px}
.scores td.f1 b{font-size:13px}
.scores th small{display:block;font-weight:400;color:var(--muted);font-size:10.5px}
.scores td small{display:block;color:var(--muted);font-size:10.5px}
.scores th.you,.scores td.you{background:#eef4ff}
.scores tr.scen td{background:#f7f8fa;font-weight:600;color:#344054;font-size:12px}
.scores td.err b{color:#b42318}
.sanity{display:flex;flex-wrap:wrap;gap:8px;margin:8px 0}
.sanity div{background:#fff;border:1px solid var(--line);border-radius:6px;padding:4px 10px;font-size:12.5px}
.scroll{overflow-x:auto;border:1px solid var(--line);border-radius:8px}
.legend{font-size:12px;color:var(--muted)}
.legend i{display:inline-block;width:14px;height:9px;margin:0 4px 0 10px;vertical-align:middle}
footer{margin-top:40px;color:var(--muted);font-size:12px}
"""


def slug(name: str) -> str:
    return "ev-" + "".join(ch if ch.isalnum() else "-" for ch in name)
