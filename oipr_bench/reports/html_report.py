"""One self-contained HTML page with an evaluator's characteristic profile.

:func:`write_report` turns a profile (from :func:`oipr_bench.audit`, the pytest
plugin's ``--oipr-html``, or a JSON report, read through
:meth:`oipr_bench.auditing.profile.results.Profile.from_dict`) into a single HTML file that
needs nothing else: the style sheet is inline and the case thumbnails are
inline SVG (:mod:`oipr_bench.reports.html_parts`), so the file opens anywhere.

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

import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from .html_parts import CSS, esc, fmt, slug, status_chip, thumbnail_svg, value_chip
from .property_section import properties_html
from ..io import atomic_write_text
from ..plots.gallery import scenario_title
from ..auditing.profile.render import describe_kind
from ..auditing.table5.readings import KIND_SCORE
from ..auditing.profile.results import Profile
from ..auditing.run_record import present_items
from ..vocabulary import (
    CHARACTERISTICS,
    DEVIATION,
    FAILED,
    NOT_APPLICABLE,
    PASSED,
    REPORTED,
    UNDETERMINED,
    UNEXPECTED_PASS,
    kind_of,
)

__all__ = ["CharacteristicRow", "ReportData", "report_data", "render_report", "write_report", "builtin_scores",
           "thumbnail_svg"]


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
    #: What a ``failed`` status means here: "differs from OIPR's row", "... PA's row", "... the declared value".
    differs: str = ""

    @property
    def kind(self) -> str:
        """``"beneficial"`` or ``"misleading"``."""
        return kind_of(self.name)


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
        The evaluator's score per case id (cases where it failed are left out).
    meta : dict of str to str
        Versions and other facts shown in the header.
    errors : dict of str to str
        Case id -> what went wrong, for cases where the evaluator failed.
    sanity : list of (name, status, message)
        The sanity checks, when the profile has them.
    score_label : str
        How a scalar result is named, with its orientation (``"score, lower is better"``);
        ``""`` for precision and recall (shown as P, R and F1).
    properties : dict of str to PropertyResult
        The metric properties run (:mod:`oipr_bench.reports.property_section` shows them).
    """

    evaluator: str
    params: dict[str, Any]
    rows: list[CharacteristicRow]
    scores: dict[str, tuple[float, float, float]]
    meta: dict[str, str] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    sanity: list[tuple[str, str, str]] = field(default_factory=list)
    score_label: str = ""
    properties: dict[str, Any] = field(default_factory=dict)


def _row(r: Any) -> CharacteristicRow:
    """The table row of one :class:`~oipr_bench.auditing.profile.results.CharacteristicResult`."""
    e = r.expectation
    reason = f"declared by {e.source}" + (f": {e.reason}" if e.reason else "") if e.source != "default" else e.reason
    f = r.finding
    return CharacteristicRow(
        name=r.name,
        observed=UNDETERMINED if r.observed is None else r.observed,
        expected=tuple(e.values),
        status=r.status,
        explanation=r.message,
        cases=() if f is None else tuple(f.cases),
        numbers={} if f is None else dict(f.numbers),
        reason=reason,
        differs=e.differs(),
    )


def report_data(profile: Profile | Mapping[str, Any]) -> ReportData:
    """What the page shows of ``profile`` (a :class:`Profile` or a JSON report's dict).

    Raises
    ------
    TypeError
        ``profile`` is neither.
    oipr_bench.errors.FixtureError
        The dict is not a valid report (see :meth:`Profile.from_dict`).
    """
    if isinstance(profile, Mapping):
        profile = Profile.from_dict(profile)
    if not isinstance(profile, Profile):
        raise TypeError(f"write_report needs a Profile or its to_dict() form, got {type(profile).__name__}")
    rows = [_row(profile.characteristic_results[n]) for n in CHARACTERISTICS if n in profile.characteristic_results]
    cases = profile.case_results.values()
    return ReportData(
        evaluator=profile.evaluator,
        params=dict(profile.params),
        rows=rows,
        scores={r.case_id: tuple(r.score) for r in cases if r.ok and r.score is not None},  # type: ignore[misc]
        meta={**({"dataset": profile.dataset_version} if profile.dataset_version else {}),
              **({"evaluator": describe_kind(profile).removeprefix("evaluator ")} if profile.kind else {}),
              "signature": profile.signature,
              **({"run": profile.run.describe(present_items(profile)) + " (never ok)"} if not profile.complete else {}),
              **({"profile only": "(no expected row: observed values, reported not judged)"}
                 if profile.profile_only else {})},
        errors={r.case_id: f"{r.status}: {r.message}".strip() for r in cases if not r.ok},
        sanity=[(r.name, r.status, r.message) for r in profile.sanity_results.values()],
        score_label=score_label(profile),
        properties=dict(profile.property_results),
    )


def score_label(profile: Profile) -> str:
    """``"score, higher is better"`` for a scalar evaluator, ``""`` for precision and recall."""
    if profile.kind != KIND_SCORE:
        return ""
    return f"score, {'higher' if profile.declarations.higher_is_better else 'lower'} is better"


# ---------------------------------------------------------------------------
# Built-in evaluators and dataset
# ---------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _cases() -> tuple[Any, ...]:
    from .. import scenarios

    return tuple(scenarios.load())


@lru_cache(maxsize=1)
def builtin_scores() -> dict[str, dict[str, tuple[float, float, float]]]:
    """P/R/F1 of the seven built-ins (Table 3 setting) on every case: ``{evaluator: {case_id: (P, R, F1)}}``.

    Random-detector cases give the means of the per-run P, R and F1 (Table A1's convention).
    """
    from .. import evaluators

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
# Page sections
# ---------------------------------------------------------------------------


def _profile_table(rows: Sequence[CharacteristicRow]) -> str:
    out = ['<table class="profile"><thead><tr><th>#</th><th>Characteristic</th><th>Observed</th>'
           "<th>Expected</th><th>Status</th><th>Why</th></tr></thead><tbody>"]
    for k, row in enumerate(rows, 1):
        expected = " or ".join(e.replace("_", " ") for e in row.expected) or "-"
        if row.status == REPORTED:  # a profile-only audit: no expected row
            expected = "-"
        out.append(
            f'<tr id="row-{esc(row.name)}"><td class="num">{k}</td>'
            f'<td><a href="#{slug(row.name)}"><code>{esc(row.name)}</code></a><div class="kind">{esc(row.kind)}</div></td>'
            f"<td>{value_chip(row.observed, row.kind)}</td><td>{esc(expected)}</td>"
            f"<td>{status_chip(row.status, row.differs)}</td><td>{esc(row.explanation)}"
            + (f" <em>({esc(row.reason)})</em>" if row.reason else "") + "</td></tr>"
        )
    out.append("</tbody></table>")
    return "".join(out)


def _evidence(rows: Sequence[CharacteristicRow], data: ReportData, cases: Mapping[str, Any]) -> str:
    out = []
    for row in rows:
        out.append(f'<section class="evidence" id="{slug(row.name)}"><header><h3><code>{esc(row.name)}</code></h3>'
                   f'<span class="kind">{esc(row.kind)}</span> {value_chip(row.observed, row.kind)} '
                   f"{status_chip(row.status, row.differs)}</header>")
        if row.explanation:
            out.append(f'<p class="why">{esc(row.explanation)}</p>')
        if row.numbers:
            out.append('<div class="numbers">')
            for label, value in row.numbers.items():
                out.append(f'<div><span>{esc(label)}</span><b>{fmt(value)}</b></div>')
            out.append("</div>")
        involved = [c for c in row.cases if c in cases] or [c.id for c in cases.values() if row.name in c.characteristics]
        if involved:
            out.append('<div class="thumbs">')
            for case_id in involved:
                case = cases[case_id]
                preds = case.predictions
                note = "" if len(preds) == 1 else f" (run 1 of {len(preds)}; scores are means over the runs)"
                score = data.scores.get(case_id)
                if not score:
                    sc = "no score"
                elif data.score_label:  # one number: never shown as P/R/F1
                    sc = f"{esc(data.score_label)}: <b>{fmt(score[2])}</b>"
                else:
                    sc = "P {} · R {} · <b>F1 {}</b>".format(*(fmt(v) for v in score))
                out.append(f'<div class="thumbcase"><div class="cid">{esc(case_id)}</div>'
                           f'<div class="desc">{esc(case.description)}{esc(note)}</div>'
                           f"{thumbnail_svg(case.y_true, preds[0], label=case_id)}"
                           f'<div class="sc">{esc(data.evaluator)}: {sc}</div></div>')
            out.append("</div>")
        out.append("</section>")
    return "".join(out)


def _scores_table(data: ReportData, cases: Sequence[Any], builtins: Mapping[str, Mapping[str, tuple]]) -> str:
    names = list(builtins)
    out = ['<div class="scroll"><table class="scores"><thead><tr><th>Case</th>'
           f'<th class="num you">{esc(data.evaluator)}<small>audited{esc(": " + data.score_label if data.score_label else "")}</small></th>'
           + "".join(f'<th class="num">{esc(n)}</th>' for n in names) + "</tr></thead><tbody>"]
    scenario = None
    for case in cases:
        if case.scenario != scenario:
            scenario = case.scenario
            out.append(f'<tr class="scen"><td colspan="{len(names) + 2}">{esc(scenario_title(scenario))}</td></tr>')

        def cell(score: tuple | None, cls: str = "") -> str:
            if score is None:
                return f'<td class="num {cls}">-</td>'
            p, r, f = score
            if np.isnan(p) and np.isnan(r) and not np.isnan(f):  # a scalar result (precision and recall NaN): one number
                return f'<td class="num f1 {cls}"><b>{fmt(f)}</b><small>score</small></td>'
            return f'<td class="num f1 {cls}"><b>{fmt(f)}</b><small>{fmt(p, 3)} / {fmt(r, 3)}</small></td>'

        runs = "" if len(case.predictions) == 1 else f" <small>(mean of {len(case.predictions)} runs)</small>"
        if case.id in data.errors:
            mine = f'<td class="num you err" title="{esc(data.errors[case.id])}"><b>error</b><small>{esc(data.errors[case.id][:60])}</small></td>'
        else:
            mine = cell(data.scores.get(case.id), "you")
        out.append(f"<tr><td><code>{esc(case.id)}</code>{runs}</td>" + mine
                   + "".join(cell(builtins[n].get(case.id)) for n in names) + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def _sanity(data: ReportData) -> str:
    if not data.sanity and not data.errors:
        return ""
    out = ['<h3 style="margin-top:18px">Sanity checks</h3><div class="sanity">']
    for name, status, message in data.sanity:
        out.append(f"<div><code>{esc(name)}</code> {status_chip(status)}"
                   + (f" {esc(message)}" if message else "") + "</div>")
    if data.errors:
        out.append(f'<div><b>{len(data.errors)}</b> case(s) where the evaluator failed: '
                   + ", ".join(f"<code>{esc(c)}</code>" for c in data.errors) + "</div>")
    out.append("</div>")
    return "".join(out)


def _summary_cards(rows: list[Any], data: ReportData) -> list[str]:
    """The summary cards: characteristics by status (also not applicable and undetermined) and failing sanity checks."""
    counts: dict[str, int] = {}
    for row in rows:
        status = row.status.strip().lower()
        counts[status] = counts.get(status, 0) + 1

    def card(n: int, what: str, color: str = "", title: str = "") -> str:
        style = f' style="color:{color}"' if color else ""
        tip = f' title="{esc(title)}"' if title else ""
        return f'<div class="card"{tip}><div class="big"{style}>{n}</div>{esc(what)}</div>'

    out = [
        card(len(rows), "characteristics checked"),
        card(counts.get(PASSED, 0), "as expected", "#067647"),
        card(counts.get(FAILED, 0), "failing", "#b42318"),
        card(counts.get(DEVIATION, 0), "declared deviations", "#93370d"),
    ]
    extra = [(UNEXPECTED_PASS, "unexpected passes", "#5925dc"), (UNDETERMINED, UNDETERMINED, "#b42318"),
             (NOT_APPLICABLE, "not applicable", "#667085")]
    out += [card(counts[status], what, color) for status, what, color in extra if counts.get(status)]
    failing = [name for name, status, _ in data.sanity if status.strip().lower() not in (PASSED, DEVIATION)]
    if data.sanity:
        out.append(card(len(failing), "sanity checks failing" + (f": {', '.join(failing)}" if failing else ""),
                        "#b42318" if failing else "#067647", "; ".join(f"{n}: {m}" for n, st, m in data.sanity if n in failing)))
    return out


def render_report(profile: Any, title: str | None = None, extra_html: str = "") -> str:
    """The report page of ``profile`` as an HTML string (see :func:`write_report`); ``extra_html`` goes before the footer."""
    from .._version import __version__

    data = profile if isinstance(profile, ReportData) else report_data(profile)
    case_list = list(_cases())
    cases = {c.id: c for c in case_list}
    builtins = builtin_scores()
    rows = data.rows
    params = ", ".join(f"{k}={v!r}" for k, v in data.params.items()) or "none"
    meta = {"oipr-bench": __version__, **data.meta}
    heading = title or f"Evaluator audit: {data.evaluator}"
    summary = _summary_cards(rows, data)
    body = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(heading)}</title><style>{CSS}</style></head><body><main>",
        f"<h1>{esc(heading)}</h1>",
        f'<p class="sub">Parameters: <code>{esc(params)}</code> · '
        + " · ".join(f"{esc(k)} {esc(v)}" for k, v in meta.items())
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
        '<p class="sub">Each cell: <b>F1</b> with precision / recall below'
        + (f" (the audited evaluator's: its one number, a {esc(data.score_label)}; not an F1)" if data.score_label else "")
        + ". Built-ins use the paper's Table 3 setting; random-detector cases are means over their 100 runs.</p>",
        _scores_table(data, case_list, builtins),
        properties_html(data.properties, data.evaluator),
        extra_html,
        '<footer>Written by <code>oipr-bench</code>. Self-contained: no scripts, fonts or images are loaded from '
        "elsewhere.</footer>",
        "</main></body></html>",
    ]
    return "\n".join(body) + "\n"


def write_report(profile: Any, path: str | os.PathLike[str], title: str | None = None, extra_html: str = "") -> Path:
    """Write the HTML report of ``profile`` to ``path`` (atomically) and return the path.

    Parameters
    ----------
    profile : Profile or dict
        What :func:`oipr_bench.audit` returns, or its ``to_dict()`` form.
    path : path
        The ``.html`` file to write; its folder must exist (never created: :mod:`oipr_bench.io`).
    title : str, optional
        Page heading (default ``"Evaluator audit: <name>"``).
    extra_html : str, optional
        A section placed before the footer (the SMD section of ``--data``:
        :func:`oipr_bench.reports.smd_section.smd_section_html`).
    """
    return atomic_write_text(path, render_report(profile, title=title, extra_html=extra_html))
