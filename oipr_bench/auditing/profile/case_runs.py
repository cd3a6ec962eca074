"""Running an evaluator on one special-scenario case.

A case has one prediction, or 100 for a random-detector case (Appendix A);
:func:`run_case` scores every one through a :class:`~oipr_bench.auditing.calling.runner.Caller`
and returns a :class:`~oipr_bench.auditing.profile.results.CaseResult` whose score is the mean
of the per-run P, R and F1 (Table A1's convention).  :func:`pw_baseline` is
the same for the built-in point-wise evaluator, which the existence reward
is judged against.
"""

from __future__ import annotations

import time
from typing import Any, Callable

import numpy as np

from .results import CaseResult
from ..table5.readings import KIND_PR, KIND_SCORE
from ..calling.runner import CallOutcome
from ...evaluators.score import Score
from ..calling.coerce import OUT_OF_BOUNDS
from ...vocabulary import BAD_RESULT, OK

__all__ = ["run_case", "pw_baseline", "mean_score", "anchor_scores", "chance_anchors"]


def mean_score(runs: list[Score]) -> Score:
    """The per-metric mean of several scores."""
    with np.errstate(invalid="ignore"):  # a scalar's P and R are NaN: their mean stays NaN, quietly
        return Score(*(float(v) for v in np.mean(np.array(runs, dtype=float), axis=0)))


def run_case(caller: Callable[[Any, Any], CallOutcome], case: Any) -> CaseResult:
    """Run the evaluator on every prediction of ``case``.

    The runs stop at the first failing call; its run number is in the message.
    """
    n = case.n_runs
    t0 = time.perf_counter()
    runs: list[Score] = []
    returned_f1 = True
    kind = KIND_PR
    for i, pred in enumerate(case.predictions):
        out = caller(case.y_true, pred)
        if not out.ok:
            where = f"run {i + 1} of {n}: " if n > 1 else ""
            value = ""
            if out.score is not None and out.result_kind == KIND_SCORE:
                value = f" (returned {out.score.f1!r})"
            elif out.score is not None:
                value = f" (returned P={out.score.precision!r}, R={out.score.recall!r}, F1={out.score.f1!r})"
            return CaseResult(case.id, out.kind, f"{where}{out.message}{value}", n, None, None, out.returned_f1,
                              time.perf_counter() - t0, out.detail)
        assert out.score is not None
        runs.append(out.score)
        returned_f1 = returned_f1 and out.returned_f1
        kind = out.result_kind
    seconds = time.perf_counter() - t0
    if n == 1:
        return CaseResult(case.id, OK, "", 1, runs[0], None, returned_f1, seconds, kind=kind)
    return CaseResult(case.id, OK, "", n, mean_score(runs), tuple(runs), returned_f1, seconds, kind=kind)


def pw_baseline(case: Any) -> Score:
    """PW's score on ``case`` (the built-in point-wise evaluator; the mean over the runs)."""
    from ...evaluators import get

    pw = get("PW")
    return mean_score([pw(case.y_true, p) for p in case.predictions])


def bounds_violation(results: list[CaseResult]) -> str:
    """The first case whose score left the declared bounds, as ``"case ID: message"``, or ``""``.

    A score outside its declared range means the declaration is wrong, so the audit derives no
    characteristic from the cases that happened to stay inside it.
    """
    for res in results:
        if res.status == BAD_RESULT and OUT_OF_BOUNDS in res.message:
            return f"case {res.case_id}: {res.message}"
    return ""


def anchor_scores(anchors: dict[str, tuple[CallOutcome, CallOutcome]], empty_is_anchor: bool = True,
                  ) -> tuple[dict[str, Score], dict[str, Score], dict[str, str]]:
    """Split ``{case_id: (empty outcome, perfect outcome)}`` into the two anchors' scores and the failures.

    Returns ``(empty, perfect, problems)``: a case whose empty or perfect call failed is in
    ``problems`` with a line saying which and why (its scale is then undefined).  With
    ``empty_is_anchor=False`` (a score metric, anchored on chance) a failed empty prediction is
    only missing evidence.
    """
    empty: dict[str, Score] = {}
    perfect: dict[str, Score] = {}
    problems: dict[str, str] = {}
    for cid, (none, best) in anchors.items():
        if not empty_is_anchor and best.ok:
            perfect[cid] = best.score  # type: ignore[assignment]
            if none.ok:
                empty[cid] = none.score  # type: ignore[assignment]
            continue
        bad = [(what, o) for what, o in (("the empty prediction", none), ("y_pred = y_true", best)) if not o.ok]
        if bad:
            problems[cid] = "; ".join(f"{what} on the ground truth of {cid} failed ({o.kind}: {o.message})" for what, o in bad)
        else:
            empty[cid], perfect[cid] = none.score, best.score  # type: ignore[assignment]
    return empty, perfect, problems


def chance_anchors(chance: dict[str, tuple[float, float, str]], problems: dict[str, str]) -> dict[str, tuple[float, float]]:
    """``{case_id: (mean, standard error)}`` of the chance anchors that could be read; the others go to ``problems``."""
    out: dict[str, tuple[float, float]] = {}
    for cid, (mean, se, problem) in chance.items():
        if problem:
            problems.setdefault(cid, f"the chance anchor of {cid} cannot be read: {problem}")
        else:
            out[cid] = (mean, se)
    return out
