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
from dataclasses import dataclass
from typing import Any, Callable, Mapping

import numpy as np

from ..table5.readings import KIND_PR, KIND_SCORE
from ..calling.runner import CallOutcome
from ...evaluators.score import Score
from ..calling.coerce import OUT_OF_BOUNDS
from ...vocabulary import BAD_RESULT, OK
from ...jsondata import number, unnumber

__all__ = ["CaseResult", "run_case", "pw_baseline", "mean_score", "score_list", "score_from", "anchor_scores", "chance_anchors"]


def score_list(s: Score | None) -> list[float | None] | None:
    return None if s is None else [number(v) for v in s]


def score_from(values: Any) -> Score | None:
    return None if values is None else Score(*(unnumber(v) for v in values))


@dataclass(frozen=True)
class CaseResult:
    """The evaluator's result on one case.

    Attributes
    ----------
    case_id : str
    status : str
        ``"ok"`` or the kind of the first failing call (``raised``,
        ``bad_result``, ``mutated``, ``timed_out``, ``crashed``).
    message : str
        What went wrong (with the run number for a random case), or ``""``.
    n_runs : int
        Number of predictions of the case (100 for a random case).
    score : Score or None
        The score (the mean of the per-run P, R, F1 for a random case), None when a call failed.
    runs : tuple of Score or None
        Per-run scores of a random case.
    returned_f1 : bool
        False when the evaluator returned only (P, R).
    kind : {"pr", "score"}
        What the evaluator returned; a scalar is stored as ``Score(nan, nan, value)``.
    seconds : float
        Wall time of the case's calls.
    detail : str
        Traceback of an exception, if any.
    """

    case_id: str
    status: str
    message: str = ""
    n_runs: int = 1
    score: Score | None = None
    runs: tuple[Score, ...] | None = None
    returned_f1: bool = True
    seconds: float = 0.0
    detail: str = ""
    kind: str = KIND_PR

    @property
    def ok(self) -> bool:
        return self.status == OK

    def to_dict(self) -> dict[str, Any]:
        scenario, _, case = self.case_id.partition("/")
        s = self.score
        return {
            "case_id": self.case_id,
            "scenario": scenario,
            "case": case,
            "n_runs": self.n_runs,
            "status": self.status,
            "message": self.message,
            "precision": None if s is None else number(s.precision),
            "recall": None if s is None else number(s.recall),
            "f1": None if s is None or self.kind == KIND_SCORE else number(s.f1),
            "score": None if s is None else number(s.f1),
            "runs": None if self.runs is None else [score_list(r) for r in self.runs],
            "returned_f1": self.returned_f1,
            "seconds": round(self.seconds, 6),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "CaseResult":
        scalar = all(d.get(k) is None for k in ("precision", "recall", "f1")) and d.get("score") is not None
        score = None if d.get("f1", None) is None and d.get("precision") is None and d.get("recall") is None else Score(
            unnumber(d.get("precision")), unnumber(d.get("recall")), unnumber(d.get("f1"))
        )
        if scalar:
            score = Score(unnumber(None), unnumber(None), unnumber(d.get("score")))
        if d["status"] != OK:
            score = None
        runs = None if d.get("runs") is None else tuple(score_from(r) for r in d["runs"])  # type: ignore[misc]
        return cls(d["case_id"], d["status"], d.get("message", ""), int(d.get("n_runs", 1)), score, runs,
                   bool(d.get("returned_f1", True)), float(d.get("seconds", 0.0)), d.get("detail", ""),
                   KIND_SCORE if scalar else KIND_PR)


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
