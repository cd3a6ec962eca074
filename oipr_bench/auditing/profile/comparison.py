"""Comparing an evaluator's case results with a built-in evaluator's reference values.

With ``reference=NAME`` an audit compares every case with the reference
values of the built-in evaluator ``NAME`` (:func:`oipr_bench.reference.reference_values`):

- ``against="reference"``: P, R and F1 (and, on a random case, every run)
  within the audit's absolute tolerance; a score evaluator's one number with a score
  reference's stored number (:data:`oipr_bench.reference.SCORE_VALUE_FILES`);
- ``against="paper"``: the paper's printed Table A1 within
  :data:`~oipr_bench.auditing.options.PAPER_TOLERANCE`, plus
  :data:`~oipr_bench.auditing.options.PAPER_STDERRS` standard errors of the 100-run
  mean on a random case.
"""

from __future__ import annotations

import math
from typing import Any

from ..table5.readings import KIND_SCORE
from ...jsondata import jsonable
from ..options import PAPER_STDERRS, PAPER_TOLERANCE, AuditOptions
from ...reference.values import ReferenceValue
from .results import CaseResult, ReferenceResult
from ...evaluators.score import Score
from ...vocabulary import FAILED, PASSED

__all__ = ["compare_case", "compare_user_case", "reference_info", "within"]


def within(a: float, b: float, tol: float) -> bool:
    """``|a - b| <= tol``; NaN is within any tolerance of NaN only."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= tol


def _target(case_id: str, ref: ReferenceValue, options: AuditOptions) -> tuple[Score, list[float], str]:
    """What the case is compared with, the tolerance of each of P, R, F1, and how to name it."""
    if options.comparison == "paper":
        from ...reference.paper import table_a1

        target = table_a1()[case_id][options.reference]  # type: ignore[index]
        tols = [PAPER_TOLERANCE] * 3
        if ref.stderr is not None:
            tols = [PAPER_TOLERANCE + PAPER_STDERRS * se for se in ref.stderr]
        return target, tols, "the paper's Table A1"
    return ref.score, [options.comparison_tolerance] * 3, f"the {options.reference} reference"


def _compared(mine: CaseResult) -> tuple[str, ...]:
    """The metrics compared: all three, or only F1 for a scalar result (compared with the reference's F1)."""
    return ("f1",) if mine.kind == KIND_SCORE else Score._fields


def _label(mine: CaseResult, metric: str) -> str:
    """How a compared number is named: ``score`` for a scalar result (stored as F1), else the metric."""
    return "score" if mine.kind == KIND_SCORE else metric


def _run_problem(mine: CaseResult, ref: ReferenceValue, tol: float) -> str:
    """The first run of a random case that differs from the reference run, or ``""``."""
    if ref.runs is None or mine.runs is None:
        return ""
    for i, (s, t) in enumerate(zip(mine.runs, ref.runs)):
        bad = [m for m, a, b in zip(Score._fields, s, t) if m in _compared(mine) and not within(a, b, tol)]
        if bad and mine.kind == KIND_SCORE:
            return f"run {i + 1}: score {s.f1!r} vs {t.f1!r}"
        if bad:
            return f"run {i + 1}: {', '.join(bad)} {tuple(s)} vs {tuple(t)}"
    return ""


def compare_case(mine: CaseResult, ref: ReferenceValue, options: AuditOptions) -> ReferenceResult:
    """Compare the evaluator's result on one case with the reference (or the paper's) values."""
    target, tols, what = _target(mine.case_id, ref, options)
    if not mine.ok:
        return ReferenceResult(mine.case_id, FAILED, f"the evaluator failed on this case: {mine.message}", None,
                               target, tols[0])
    assert mine.score is not None
    problems = [
        f"{_label(mine, metric)} {a!r} vs {b!r} (|diff| {abs(a - b):.3g} > {tol:.3g})"
        for metric, a, b, tol in zip(Score._fields, mine.score, target, tols)
        if metric in _compared(mine) and not within(a, b, tol)
    ]
    if options.comparison == "reference":  # a random case: name the first differing run, not only the mean
        run = _run_problem(mine, ref, options.comparison_tolerance)
        problems += [f"first differing {run}"] if run else []
    if problems:
        return ReferenceResult(mine.case_id, FAILED, f"differs from {what}: " + "; ".join(problems), mine.score,
                               target, max(tols))
    return ReferenceResult(mine.case_id, PASSED, f"matches {what}", mine.score, target, max(tols))


def compare_user_case(mine: CaseResult, case: Any, options: AuditOptions) -> ReferenceResult:
    """Compare a user's case with the reference computed on it; a failed comparison, with the reason, when the
    reference has no value there (a score metric on a case with one class)."""
    from ..regression.case_sets import user_reference

    try:
        ref, options = user_reference(case, options)
    except ValueError as exc:
        return ReferenceResult(mine.case_id, FAILED, f"the {options.reference} reference has no value on this case: {exc}",
                               mine.score if mine.ok else None, None, options.comparison_tolerance)
    return compare_case(mine, ref, options)


def reference_info(options: AuditOptions) -> dict[str, Any] | None:
    """``{"name", "params", "against", "tolerance"}`` of the comparison a report records, or None."""
    if options.reference is None:
        return None
    tol = options.comparison_tolerance if options.comparison == "reference" else PAPER_TOLERANCE
    return {"name": options.reference, "params": jsonable(options.reference_params), "against": options.comparison,
            "tolerance": tol}
