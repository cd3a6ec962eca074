"""One self-contained HTML page with an evaluator's characteristic profile.

:func:`write_report` turns a profile (from :func:`oipr_bench.audit`, the pytest
plugin's ``--oipr-html``, or the profile's ``to_dict()`` form) into a single
HTML file that needs nothing else: the style sheet is inline and the case
thumbnails are inline SVG drawn here (ground truth red, prediction blue, as
the paper's Fig. A), so matplotlib is not needed and the file opens anywhere.

The page has three parts:

1. the profile table: characteristic, observed value, expected value(s),
   status and the one-line reason (the row of the paper's Table 5 for the
   audited evaluator, plus Table A1's two overestimation markers);
2. the evidence per characteristic: the numbers the rule compared and a
   thumbnail of every case it read, with the evaluator's P/R/F1 there;
3. P/R/F1 on every case next to the seven built-in evaluators (paper
   Table A1 layout; random-detector cases are means over their 100 runs).
"""

from __future__ import annotations

import html
import math
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from .events import to_events
from .io import atomic_write_text
from .plots.gallery import scenario_title
from .vocabulary import (
    ABSENT,
    CHARACTERISTICS,
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
    UNDETERMINED,
    UNEXPECTED_PASS,
    YES,
    kind_of,
)

__all__ = ["CharacteristicRow", "ReportData", "report_data", "render_report", "write_report", "builtin_scores",
           "thumbnail_svg"]

_GT = "#d62728"
_PRED = "#1f5fbf"


@dataclass(frozen=True)
class CharacteristicRow:
    """One row of the profile table and its evidence."""

    name: str
    observed: str
    expected: tuple[str, ...] = ()
    status: str = ""
    explanation: str = ""
    cases: tuple[str, ...] = ()
    numbers: dict[str, float] = field(default_factory=dict)
    reason: str = ""

    @property
    def kind(self) -> str:
        """``"beneficial"``, ``"misleading"`` or ``""`` for an unknown name."""
        try:
            return kind_of(self.name)
        except KeyError:
            return ""


@dataclass(frozen=True)
class ReportData:
    """Everything the page shows, as plain data.

    Attributes
    ----------
    evaluator : str
        Display name of the audited evaluator.
    params : dict
        Its parameters.
    rows : list of CharacteristicRow
        In report order (beneficial, then misleading).
    scores : dict of str to (P, R, F1)
        The evaluator's score per case id.
    meta : dict of str to str
        Versions and other facts shown in the header.
    errors : dict of str to str
        Case id -> what went wrong, for cases where the evaluator failed.
    sanity : list of (name, status, message)
        The sanity checks, when the profile has them.
    """

    evaluator: str
    params: dict[str, Any]
    rows: list[CharacteristicRow]
    scores: dict[str, tuple[float, float, float]]
    meta: dict[str, str] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    sanity: list[tuple[str, str, str]] = field(default_factory=list)


# ---------------------------------------------------------------------------
# Reading a profile
# ---------------------------------------------------------------------------


def _as_dict(profile: Any) -> dict[str, Any]:
    if isinstance(profile, Mapping):
        return dict(profile)
    for attr in ("to_dict", "as_dict"):
        if callable(getattr(profile, attr, None)):
            return dict(getattr(profile, attr)())
    raise TypeError(f"write_report needs a Profile (with to_dict()) or its dict form, got {type(profile).__name__}")


def _float(value: Any) -> float:
    try:
        return float("nan") if value is None else float(value)
    except (TypeError, ValueError):
        return float("nan")


def _score_triple(entry: Any) -> tuple[float, float, float]:
    if isinstance(entry, Mapping) and all(entry.get(k) is None for k in ("precision", "recall", "f1")) \
            and isinstance(entry.get("score"), (int, float)):
        return (float("nan"), float("nan"), float(entry["score"]))  # a scalar result: one number
    if isinstance(entry, Mapping):
        return (_float(entry.get("precision")), _float(entry.get("recall")), _float(entry.get("f1")))
    if hasattr(entry, "precision"):
        return (_float(entry.precision), _float(entry.recall), _float(getattr(entry, "f1", float("nan"))))
    values = list(entry)
    return tuple(_float(v) for v in (values + [None] * 3)[:3])  # type: ignore[return-value]


def _case_scores(raw: Any) -> dict[str, tuple[float, float, float]]:
    """Per-case scores from a dict keyed by case id, a list of records or a DataFrame."""
    if raw is None:
        return {}
    if hasattr(raw, "to_dict") and hasattr(raw, "columns"):  # pandas DataFrame
        frame = raw.reset_index() if "id" not in raw.columns and "case" not in raw.columns else raw
        raw = frame.to_dict(orient="records")
    out: dict[str, tuple[float, float, float]] = {}
    if isinstance(raw, Mapping):
        for case_id, entry in raw.items():
            if isinstance(entry, Mapping) and isinstance(entry.get("score"), Mapping):
                entry = entry["score"]
            out[str(case_id)] = _score_triple(entry)
        return out
    for record in raw:
        record = dict(record)
        case_id = record.get("case_id") or record.get("id") or record.get("case")
        if isinstance(record.get("score"), Mapping):
            record = {**record, **record["score"]}
        if case_id is not None and record.get("status", OK) == OK:
            out[str(case_id)] = _score_triple(record)
    return out


def _case_errors(raw: Any) -> dict[str, str]:
    if not isinstance(raw, (list, tuple)):
        return {}
    out = {}
    for record in raw:
        if isinstance(record, Mapping) and record.get("status", OK) != OK:
            case_id = record.get("case_id") or record.get("id")
            out[str(case_id)] = f"{record.get('status')}: {record.get('message', '')}".strip()
    return out


def _rows(raw: Any) -> list[CharacteristicRow]:
    """Characteristic rows from a mapping name -> entry or a list of entries."""
    if isinstance(raw, Mapping):
        items = [(str(k), v) for k, v in raw.items()]
    else:
        items = [(str(v.get("name")), v) for v in (raw or [])]
    rows = []
    for name, entry in items:
        if not isinstance(entry, Mapping):
            entry = {"value": entry}
        evidence = entry.get("evidence") or entry.get("finding") or {}
        if not isinstance(evidence, Mapping):
            evidence = {"explanation": str(evidence)}
        expected = entry.get("expected", ())
        if isinstance(expected, str):
            expected = (expected,)
        numbers = evidence.get("numbers", entry.get("numbers", {})) or {}
        observed = entry.get("observed", entry.get("value"))
        reason = str(entry.get("expectation_reason", entry.get("reason", "")) or "")
        source = str(entry.get("expectation_source", "") or "")
        if source and source != "default":
            reason = f"declared by {source}" + (f": {reason}" if reason else "")
        rows.append(CharacteristicRow(
            name=name,
            observed=UNDETERMINED if observed is None else str(observed),
            expected=tuple(str(e) for e in expected),
            status=str(entry.get("status", "")),
            explanation=str(evidence.get("explanation") or entry.get("explanation") or entry.get("message") or ""),
            cases=tuple(str(c) for c in (evidence.get("cases", entry.get("cases", ())) or ())),
            numbers={str(k): _float(v) for k, v in numbers.items()},
            reason=reason,
        ))
    order = {name: k for k, name in enumerate(CHARACTERISTICS)}
    rows.sort(key=lambda r: order.get(r.name, len(order)))
    return rows


def report_data(profile: Any) -> ReportData:
    """Normalise a profile (object with ``to_dict()`` or its dict) into :class:`ReportData`."""
    data = _as_dict(profile)
    ev = data.get("evaluator", {})
    if isinstance(ev, Mapping):
        name = str(ev.get("name", "evaluator"))
        params = dict(ev.get("params", {}) or {})
        kind = ev.get("kind")
        if kind:
            meta_kind = f"kind {kind}"
            if kind == "score":
                lo, hi = ev.get("bounds") or [0, 1]
                way = "higher" if ev.get("higher_is_better", True) else "lower"
                meta_kind += f" ({way} is better, bounds {'open' if lo is None else lo} to {'open' if hi is None else hi})"
            if ev.get("input") == "scores":
                meta_kind += ", takes anomaly scores"
    else:
        name = str(ev)
        params = dict(data.get("params", {}) or {})
    cases_raw = data.get("cases", data.get("scores"))
    if cases_raw is None and hasattr(profile, "cases"):
        cases_raw = profile.cases
    meta: dict[str, str] = {}
    if isinstance(ev, Mapping) and ev.get("kind"):
        meta["evaluator"] = meta_kind
    dataset = data.get("dataset")
    if isinstance(dataset, Mapping) and dataset.get("version"):
        meta["dataset"] = str(dataset["version"])
    elif data.get("dataset_version"):
        meta["dataset"] = str(data["dataset_version"])
    sanity = [(str(x.get("name")), str(x.get("status")), str(x.get("message", "") or ""))
              for x in (data.get("sanity") or []) if isinstance(x, Mapping)]
    return ReportData(name, params, _rows(data.get("characteristics", {})), _case_scores(cases_raw), meta,
                      _case_errors(cases_raw), sanity)


# ---------------------------------------------------------------------------
# Built-in evaluators and dataset
# ---------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _cases() -> tuple[Any, ...]:
    from . import scenarios

    return tuple(scenarios.load())


@lru_cache(maxsize=1)
def builtin_scores() -> dict[str, dict[str, tuple[float, float, float]]]:
    """P/R/F1 of the seven built-ins (Table 3 setting) on every case: ``{evaluator: {case_id: (P, R, F1)}}``.

    Random-detector cases give the means of the per-run P, R and F1 (Table A1's convention).
    """
    from . import evaluators

    out: dict[str, dict[str, tuple[float, float, float]]] = {}
    for info in evaluators.names():
        ev = evaluators.get(info.name)
        per_case = {}
        for case in _cases():
            values = np.array([tuple(ev(case.y_true, p)) for p in case.predictions], dtype=float)
            per_case[case.id] = tuple(float(v) for v in values.mean(axis=0))
        out[info.name] = per_case
    return out


# ---------------------------------------------------------------------------
# HTML pieces
# ---------------------------------------------------------------------------


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _num(x: float, digits: int = 4) -> str:
    return "nan" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def thumbnail_svg(y_true: np.ndarray, y_pred: np.ndarray, width: int = 290, label: str | None = None) -> str:
    """A small inline SVG: the ground-truth events (red) over the predicted events (blue).

    One-point events are drawn at least 1.5 px wide so they stay visible.
    """
    T = max(1, int(np.asarray(y_true).shape[0]))
    row_h, gap, pad = 11, 5, 26
    height = 2 * row_h + gap + 14
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="thumb" width="{width + pad}" height="{height}" '
             f'viewBox="0 0 {width + pad} {height}" role="img" aria-label="{_e(label or "case")}">']
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


#: CSS class and text of each status chip.
_STATUS_CLASS = {
    PASSED: "ok", OK: "ok", FAILED: "bad", UNDETERMINED: "bad",
    DEVIATION: "dev", UNEXPECTED_PASS: "warn", NOT_APPLICABLE: "neutral", NOT_RUN: "neutral",
}
_STATUS_TEXT = {
    PASSED: "as expected", FAILED: "FAILED", UNDETERMINED: UNDETERMINED, DEVIATION: "declared deviation",
    UNEXPECTED_PASS: "unexpected pass", NOT_APPLICABLE: "not applicable", NOT_RUN: "not run",
}


def _status_cell(status: str) -> str:
    key = status.strip().lower()
    cls = _STATUS_CLASS.get(key, "neutral")
    return f'<span class="chip {cls}">{_e(_STATUS_TEXT.get(key, status or "-"))}</span>'


def _value_chip(value: str, kind: str) -> str:
    if value == NOT_APPLICABLE:
        return f'<span class="val neutral">{_e(value.replace("_", " "))}</span>'
    good = {KIND_BENEFICIAL: {YES}, KIND_MISLEADING: {ABSENT}}.get(kind, set())
    part = {KIND_BENEFICIAL: {PIECEWISE, ONLY_DELAY, ONLY_EARLY}, KIND_MISLEADING: {MITIGATED}}.get(kind, set())
    cls = "ok" if value in good else "dev" if value in part else "bad" if kind else "neutral"
    return f'<span class="val {cls}">{_e(value.replace("_", " "))}</span>'


_CSS = """
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
.chip.neutral{background:#f2f4f7;color:#475467}
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


def _slug(name: str) -> str:
    return "ev-" + "".join(ch if ch.isalnum() else "-" for ch in name)


def _profile_table(rows: Sequence[CharacteristicRow]) -> str:
    out = ['<table class="profile"><thead><tr><th>#</th><th>Characteristic</th><th>Observed</th>'
           "<th>Expected</th><th>Status</th><th>Why</th></tr></thead><tbody>"]
    for k, row in enumerate(rows, 1):
        expected = " or ".join(e.replace("_", " ") for e in row.expected) or "-"
        out.append(
            f'<tr id="row-{_e(row.name)}"><td class="num">{k}</td>'
            f'<td><a href="#{_slug(row.name)}"><code>{_e(row.name)}</code></a><div class="kind">{_e(row.kind)}</div></td>'
            f"<td>{_value_chip(row.observed, row.kind)}</td><td>{_e(expected)}</td>"
            f"<td>{_status_cell(row.status)}</td><td>{_e(row.explanation)}"
            + (f" <em>({_e(row.reason)})</em>" if row.reason else "") + "</td></tr>"
        )
    out.append("</tbody></table>")
    return "".join(out)


def _evidence(rows: Sequence[CharacteristicRow], data: ReportData, cases: Mapping[str, Any]) -> str:
    out = []
    for row in rows:
        out.append(f'<section class="evidence" id="{_slug(row.name)}"><header><h3><code>{_e(row.name)}</code></h3>'
                   f'<span class="kind">{_e(row.kind)}</span> {_value_chip(row.observed, row.kind)} '
                   f"{_status_cell(row.status)}</header>")
        if row.explanation:
            out.append(f'<p class="why">{_e(row.explanation)}</p>')
        if row.numbers:
            out.append('<div class="numbers">')
            for label, value in row.numbers.items():
                out.append(f'<div><span>{_e(label)}</span><b>{_num(value)}</b></div>')
            out.append("</div>")
        involved = [c for c in row.cases if c in cases] or [c.id for c in cases.values() if row.name in c.characteristics]
        if involved:
            out.append('<div class="thumbs">')
            for case_id in involved:
                case = cases[case_id]
                preds = case.predictions
                note = "" if len(preds) == 1 else f" (run 1 of {len(preds)}; scores are means over the runs)"
                score = data.scores.get(case_id)
                sc = ("P {} · R {} · <b>F1 {}</b>".format(*(_num(v) for v in score))
                      if score else "no score")
                out.append(f'<div class="thumbcase"><div class="cid">{_e(case_id)}</div>'
                           f'<div class="desc">{_e(case.description)}{_e(note)}</div>'
                           f"{thumbnail_svg(case.y_true, preds[0], label=case_id)}"
                           f'<div class="sc">{_e(data.evaluator)}: {sc}</div></div>')
            out.append("</div>")
        out.append("</section>")
    return "".join(out)


def _scores_table(data: ReportData, cases: Sequence[Any], builtins: Mapping[str, Mapping[str, tuple]]) -> str:
    names = list(builtins)
    out = ['<div class="scroll"><table class="scores"><thead><tr><th>Case</th>'
           f'<th class="num you">{_e(data.evaluator)}<small>audited</small></th>'
           + "".join(f'<th class="num">{_e(n)}</th>' for n in names) + "</tr></thead><tbody>"]
    scenario = None
    for case in cases:
        if case.scenario != scenario:
            scenario = case.scenario
            out.append(f'<tr class="scen"><td colspan="{len(names) + 2}">{_e(scenario_title(scenario))}</td></tr>')

        def cell(score: tuple | None, cls: str = "") -> str:
            if score is None:
                return f'<td class="num {cls}">-</td>'
            p, r, f = score
            if math.isnan(p) and math.isnan(r) and not math.isnan(f):  # a scalar result
                return f'<td class="num f1 {cls}"><b>{_num(f)}</b><small>score</small></td>'
            return f'<td class="num f1 {cls}"><b>{_num(f)}</b><small>{_num(p, 3)} / {_num(r, 3)}</small></td>'

        runs = "" if len(case.predictions) == 1 else f" <small>(mean of {len(case.predictions)} runs)</small>"
        if case.id in data.errors:
            mine = f'<td class="num you err" title="{_e(data.errors[case.id])}"><b>error</b><small>{_e(data.errors[case.id][:60])}</small></td>'
        else:
            mine = cell(data.scores.get(case.id), "you")
        out.append(f"<tr><td><code>{_e(case.id)}</code>{runs}</td>" + mine
                   + "".join(cell(builtins[n].get(case.id)) for n in names) + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def _sanity(data: ReportData) -> str:
    if not data.sanity and not data.errors:
        return ""
    out = ['<h3 style="margin-top:18px">Sanity checks</h3><div class="sanity">']
    for name, status, message in data.sanity:
        out.append(f"<div><code>{_e(name)}</code> {_status_cell(status)}"
                   + (f" {_e(message)}" if message else "") + "</div>")
    if data.errors:
        out.append(f'<div><b>{len(data.errors)}</b> case(s) where the evaluator failed: '
                   + ", ".join(f"<code>{_e(c)}</code>" for c in data.errors) + "</div>")
    out.append("</div>")
    return "".join(out)


def render_report(profile: Any, title: str | None = None) -> str:
    """The report page of ``profile`` as an HTML string (see :func:`write_report`)."""
    from ._version import __version__

    data = profile if isinstance(profile, ReportData) else report_data(profile)
    case_list = list(_cases())
    cases = {c.id: c for c in case_list}
    builtins = builtin_scores()
    rows = data.rows
    counts: dict[str, int] = {}
    for row in rows:
        cls = _STATUS_CLASS.get(row.status.strip().lower(), "neutral")
        counts[cls] = counts.get(cls, 0) + 1
    params = ", ".join(f"{k}={v!r}" for k, v in data.params.items()) or "none"
    meta = {"oipr-bench": __version__, **data.meta}
    heading = title or f"Evaluator audit: {data.evaluator}"
    summary = [
        f'<div class="card"><div class="big">{len(rows)}</div>characteristics checked</div>',
        f'<div class="card"><div class="big" style="color:#067647">{counts.get("ok", 0)}</div>as expected</div>',
        f'<div class="card"><div class="big" style="color:#b42318">{counts.get("bad", 0)}</div>failing</div>',
        f'<div class="card"><div class="big" style="color:#93370d">{counts.get("dev", 0)}</div>declared deviations</div>',
    ]
    if counts.get("warn"):
        summary.append(f'<div class="card"><div class="big" style="color:#5925dc">{counts["warn"]}</div>unexpected passes</div>')
    body = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(heading)}</title><style>{_CSS}</style></head><body><main>",
        f"<h1>{_e(heading)}</h1>",
        f'<p class="sub">Parameters: <code>{_e(params)}</code> · '
        + " · ".join(f"{_e(k)} {_e(v)}" for k, v in meta.items())
        + " · special-scenario dataset of the OIPR paper (Appendix A, Table A1)</p>",
        f'<div class="summary">{"".join(summary)}</div>',
        "<h2>Characteristic profile</h2>",
        '<p class="sub">The evaluator\'s row of the paper\'s Table 5, plus Table A1\'s two overestimation markers. '
        "Click a characteristic for its evidence.</p>",
        _profile_table(rows),
        _sanity(data),
        "<h2>Evidence</h2>",
        '<p class="legend">Thumbnails: <i style="background:var(--gt)"></i>ground truth '
        '<i style="background:var(--pred)"></i>prediction, over the whole series.</p>',
        _evidence(rows, data, cases),
        "<h2>Scores next to the seven built-in evaluators</h2>",
        '<p class="sub">Each cell: <b>F1</b> with precision / recall below. Built-ins use the paper\'s Table 3 '
        "setting; random-detector cases are means over their 100 runs.</p>",
        _scores_table(data, case_list, builtins),
        '<footer>Written by <code>oipr-bench</code>. Self-contained: no scripts, fonts or images are loaded from '
        "elsewhere.</footer>",
        "</main></body></html>",
    ]
    return "\n".join(body) + "\n"


def write_report(profile: Any, path: str | os.PathLike[str], title: str | None = None) -> Path:
    """Write the HTML report of ``profile`` to ``path`` (atomically) and return the path.

    Parameters
    ----------
    profile : Profile or dict
        What :func:`oipr_bench.audit` returns, or its ``to_dict()`` form.
    path : path
        The ``.html`` file to write; folders are created.
    title : str, optional
        Page heading (default ``"Evaluator audit: <name>"``).
    """
    return atomic_write_text(path, render_report(profile, title=title))
