"""Text forms of a reproduced SMD table (:mod:`oipr_bench.reports.smd_tables`).

``table`` and ``markdown``: one row per detector and evaluator, each of P, R and F1 as
``ours (paper)`` with ``!`` after a value that differs from the printed one, then the rankings and
the summary line (``Table 6 (SMD): 63/63 values match the paper (...)``). ``json``: every
comparison, the rankings and the user's column as data. ``csv``: one record per value.
"""

from __future__ import annotations

import csv
import io
import math
from typing import Any, Callable

from ..auditing.profile.render import table
from ..jsondata import jsonable
from ..reference.smd import SMD_PARAMS, detector
from .reproduce import MISMATCH_MARK
from .smd_tables import RANK_DECIMALS, Ranking, SmdResult, characteristic_phrase

__all__ = ["render_smd", "smd_signature", "ranking_lines", "DIFFERS_MARK"]

#: Mark placed after a ranking that differs from OIPR's.
DIFFERS_MARK = "*"
_METRICS = ("precision", "recall", "f1")


def _fmt(value: float) -> str:
    return "nan" if math.isnan(value) else f"{value:.3f}"


def _printed(value: float) -> str:
    """The paper's value as it prints it (trailing zeros dropped: 0.77, 1.0)."""
    return "nan" if math.isnan(value) else str(round(value, 3))


def _user_cells(result: SmdResult, det: str) -> list[str]:
    user = result.user
    assert user is not None
    if det in user.problems:
        return ["failed", "", ""] if user.kind == "pr" else ["failed"]
    score = user.scores[det]
    if user.kind == "score":
        return [_fmt(score.f1)]
    return [f"{_fmt(v)} (-)" for v in score]


def _grid(result: SmdResult) -> tuple[list[str], list[list[str]]]:
    header = ["detector", "evaluator", "precision (paper)", "recall (paper)", "f1 (paper)"]
    body = []
    for det in result.detectors:
        for name in result.result.columns:
            comps = result.result.cell(det, name)
            body.append([det, name, *(f"{_fmt(c.ours)}{'' if c.match else MISMATCH_MARK} ({_printed(c.paper)})"
                                      for c in comps)])
        if result.user is not None:
            cells = _user_cells(result, det)
            if result.user.kind == "score":
                cells = ["-", "-", f"score {cells[0]}"]
            body.append([det, f"{result.user.name} (yours)", *cells])
    return header, body


def _order_text(order: tuple[tuple[str, ...], ...]) -> str:
    return " > ".join(" = ".join(group) for group in order)


def ranking_lines(result: SmdResult) -> list[str]:
    """The rankings block: each evaluator's order, OIPR's as reference, the paper's bold/underline and marks."""
    width = max(len(r.evaluator) for r in result.rankings)
    scalar = " (yours by its one number)" if result.user is not None and result.user.kind == "score" else ""
    lines = [f"Rankings by F1{scalar} at {RANK_DECIMALS} decimals (best first; '=' ties; '{DIFFERS_MARK}' differs from "
             f"OIPR's order; '{MISMATCH_MARK}' differs from the paper's bold/underline):"]
    for r in result.rankings:
        flags = (DIFFERS_MARK if r.differs_from_oipr else " ") + (MISMATCH_MARK if r.agrees_with_paper is False else " ")
        lines.append(f"  {r.evaluator.ljust(width)}  {flags}  {_order_text(r.order)}{_ranking_note(r)}")
    if result.user is not None and result.user.problems:
        lines.append(f"  {result.user.name}: no ranking (it failed on {', '.join(result.user.problems)})")
    return lines


def _ranking_rows(result: SmdResult) -> list[str]:
    """The rankings as a Markdown table (evaluator, differs from OIPR, order, the paper's cells and marks)."""
    body = [[r.evaluator, "differs" if r.differs_from_oipr else "same", _order_text(r.order),
             ("" if r.agrees_with_paper is not False else "differs from the paper's bold/underline; ")
             + _ranking_note(r).strip().strip("[]")] for r in result.rankings]
    lines = ["Rankings by F1 at 3 decimals, best first ('=' ties):", "",
             *table(["evaluator", "vs OIPR", "ranking", "paper"], body, markdown=True)]
    if result.user is not None and result.user.problems:
        lines += ["", f"{result.user.name}: no ranking (it failed on {', '.join(result.user.problems)})"]
    return lines


def _ranking_note(r: Ranking) -> str:
    parts = []
    if r.evaluator == "OIPR":
        parts.append("the reference order")
    if r.paper_best:
        printed = f"paper: best {' = '.join(r.paper_best)}"
        if r.paper_second:
            printed += f", second {' = '.join(r.paper_second)}"
        parts.append(printed)
    if r.marks:
        blamed = "; ".join(f"{characteristic_phrase(c)} ({det})" for det, c in r.marks.items())
        parts.append(("the paper blames " if r.differs_from_oipr else "the paper marks ") + blamed)
    elif r.differs_from_oipr and r.paper_best:
        parts.append("the paper marks no characteristic here")
    return ("   [" + "; ".join(parts) + "]") if parts else ""


def smd_signature(result: SmdResult) -> str:
    """``oipr-bench:V|table:6 (SMD)|columns:PW{};...|against:paper|tol:0.0005|data:sha256.X`` (+ ``user:``)."""
    from .._version import __version__
    from ..auditing.regression.signature import HASH_DIGITS, params_text
    from .. import evaluators

    columns = [f"{n}{params_text(evaluators.get(n, **SMD_PARAMS[n]).params)}" for n in result.result.columns]
    parts = [f"oipr-bench:{__version__}", f"table:{result.result.table}", f"columns:{';'.join(columns)}",
             "against:paper", f"tol:{result.result.comparisons[0].tolerance:g}",
             f"data:sha256.{result.data_hash[:HASH_DIGITS]}"]
    if result.user is not None:
        parts.append(f"user:{result.user.name}{params_text(result.user.params)}")
    return "|".join(parts)


def _legend(result: SmdResult) -> list[str]:
    lines = [f"Cells: our value at 3 decimals, the paper's printed value in brackets; '{MISMATCH_MARK}' marks a value "
             "that differs from the paper."]
    for c in result.result.mismatches:
        lines.append(f"  differs: {c.row} {c.column} {c.metric}: ours {c.ours:.6g}, paper {_printed(c.paper)} "
                     f"(|diff| {abs(c.ours - c.paper):.3g} > {c.tolerance:.3g}) [{c.provenance}]")
    if result.user is not None:
        for det, problem in result.user.problems.items():
            lines.append(f"  your evaluator {result.user.name} on {det}: {problem}")
    return lines


def _title(result: SmdResult) -> str:
    names = ", ".join(f"{d} ({detector(d).title})" if d.startswith("d_") else d for d in result.detectors)
    return f"Table {result.table}, dataset SMD, reproduced by oipr-bench on the authors' slice: {names}"


def _render_text(result: SmdResult, markdown: bool) -> str:
    header, body = _grid(result)
    lines = [_title(result), ""] if not markdown else []
    lines += [*table(header, body, markdown=markdown, rule=not markdown), ""]
    lines += _legend(result)
    lines.append("")
    lines += _ranking_rows(result) if markdown else ranking_lines(result)
    lines.append("")
    sig = smd_signature(result)
    lines.append(f"signature: `{sig}`" if markdown else f"signature: {sig}")
    if markdown:
        lines.append("")
    lines.append(f"**{result.result.summary()}**" if markdown else result.result.summary())
    return "\n".join(lines) + "\n"


def _ranking_dict(r: Ranking) -> dict[str, Any]:
    return {"evaluator": r.evaluator, "order": [list(g) for g in r.order], "differs_from_oipr": r.differs_from_oipr,
            "paper_best": list(r.paper_best), "paper_second": list(r.paper_second),
            "agrees_with_paper": r.agrees_with_paper, "marks": dict(r.marks)}


def _user_dict(result: SmdResult) -> dict[str, Any] | None:
    user = result.user
    if user is None:
        return None
    scores = {d: (dict(zip(_METRICS, s)) if user.kind == "pr" else {"score": s.f1}) for d, s in user.scores.items()}
    return jsonable({"name": user.name, "kind": user.kind, "params": user.params, "higher_is_better": user.higher_is_better,
                     "scores": scores, "problems": user.problems})


def _render_json(result: SmdResult) -> str:
    from ..io import dumps_json

    r = result.result
    doc = {"table": result.table, "dataset": "SMD", "summary": r.summary(), "signature": smd_signature(result),
           "rule": r.rule, "n_match": r.n_match, "n_total": r.n_total, "ok": result.ok,
           "values": [jsonable(c.as_dict()) for c in r.comparisons],
           "rankings": [_ranking_dict(k) for k in result.rankings], "user": _user_dict(result)}
    return dumps_json(doc)


def _render_csv(result: SmdResult) -> str:
    buf = io.StringIO()
    fields = ["table", "row", "column", "metric", "ours", "paper", "tolerance", "match", "provenance"]
    writer = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    for c in result.result.comparisons:
        writer.writerow({"table": c.table, "row": c.row, "column": c.column, "metric": c.metric,
                         "ours": repr(float(c.ours)), "paper": repr(float(c.paper)), "tolerance": f"{c.tolerance:g}",
                         "match": c.match, "provenance": c.provenance})
    if result.user is not None:
        for det, score in result.user.scores.items():
            metrics = zip(_METRICS, score) if result.user.kind == "pr" else [("score", score.f1)]
            for metric, value in metrics:
                writer.writerow({"table": result.result.table, "row": det, "column": result.user.name, "metric": metric,
                                 "ours": repr(float(value)), "paper": "", "tolerance": "", "match": "",
                                 "provenance": "your evaluator (not in the paper)"})
    return buf.getvalue()


_RENDERERS: dict[str, Callable[[SmdResult], str]] = {
    "table": lambda r: _render_text(r, markdown=False),
    "markdown": lambda r: _render_text(r, markdown=True),
    "json": _render_json,
    "csv": _render_csv,
}


def render_smd(result: SmdResult, fmt: str = "table") -> str:
    """Format ``result`` as ``table``, ``markdown``, ``json`` or ``csv`` text."""
    if fmt not in _RENDERERS:
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(_RENDERERS)}")
    return _RENDERERS[fmt](result)
