"""Differential runs for score evaluators: a user's ``(y_true, scores) -> float`` against a built-in.

:func:`run_score_differential` calls the evaluator and the built-in score evaluator
``reference`` (one of :data:`oipr_bench.evaluators.SCORE_NAMES`, with its parameters) on the
first ``n`` cases of every family of :mod:`oipr_bench.testing.score_families`
(derandomized by ``seed``; the window families aim at the reference's ``sliding_window``).
The first case on which they differ by more than ``tolerance`` (or on which the evaluator
raises or returns something that is not a number) is shrunk by
:func:`oipr_bench.auditing.regression.score_shrink.shrink_case` within ``shrink_budget`` seconds; the
result names the family, the case, both values and a one-line reproduction.

Examples
--------
>>> from oipr_bench.auditing.regression.score_differential import run_score_differential
>>> results = run_score_differential(my_vus_pr, "VUS-PR", {"sliding_window": 20}, n=50)  # doctest: +SKIP
>>> [r.status for r in results]                                                          # doctest: +SKIP
['passed', 'passed', ...]
"""

from __future__ import annotations

import contextlib
import math
import numbers
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from ...evaluators import SCORE_NAMES, get
from ...testing.score_families import DEFAULT_THRESHOLDS, SCORE_FAMILIES, ScoreCase, score_cases
from ...vocabulary import BAD_RESULT, FAILED, PASSED
from ..calling.runner import CallOutcome
from ..progress import drop_from_total
from ..table5.readings import KIND_SCORE
from .score_shrink import ScoreShrinkOutcome, shrink_case

__all__ = ["ScoreDifferentialResult", "ScoreDisagreement", "run_score_family", "run_score_differential",
           "case_reproduction", "value_of", "difference_of", "DEFAULT_SHRINK_BUDGET", "RECONFIRM", "CallFailed", "one_number",
           "NOT_CONFIRMED"]

#: Calls of both sides that must all differ again before a case is shrunk or printed (a non-deterministic
#: evaluator misleads the shrinking); the binary differential uses the same number.
RECONFIRM = 5

#: Seconds the shrinking of one counterexample may take.
DEFAULT_SHRINK_BUDGET = 30.0

ScoreCall = Callable[[Any, Any], Any]


class CallFailed(Exception):
    """A guarded call of a score evaluator did not give a number (raised, exited, mutated its input, timed out, ...)."""


def one_number(call: Callable[[Any, Any], CallOutcome]) -> ScoreCall:
    """A guarded ``call`` (an audit's or a :class:`~oipr_bench.auditing.calling.runner.Caller`, returning a
    :class:`~oipr_bench.auditing.calling.runner.CallOutcome`) as ``(y_true, scores) -> value``.

    The call's own guards apply (``SystemExit``, a mutated input, a timeout, a crash in a worker):
    when it gives no number, :class:`CallFailed` says what happened in the audit's words.  A value
    outside the declared bounds is still compared; a precision/recall pair is returned as is (and
    reported as not a number).
    """

    def value(y_true: Any, scores: Any) -> Any:
        out = call(y_true, scores)
        usable = out.ok or (out.kind == BAD_RESULT and out.score is not None)  # a value out of its bounds is compared
        if not usable or out.score is None:
            raise CallFailed(out.message or out.kind)
        if out.result_kind != KIND_SCORE:
            return tuple(out.score[:2])  # precision and recall: reported as not a number
        return out.score.f1

    return value


def case_reproduction(case: ScoreCase) -> str:
    """One line that rebuilds ``case`` as ``y_true, scores`` (to paste into a test)."""
    return (f"import numpy as np; from oipr_bench.scenarios.events import from_events; "
            f"y_true, scores = from_events({case.y_true_events}, {case.length}), np.array({list(case.scores)!r})")


def value_of(fn: ScoreCall, case: ScoreCase) -> tuple[float | None, str]:
    """``(value, "")``, or ``(None, what went wrong)``."""
    y_true, scores = case.arrays()
    try:
        out = fn(y_true, scores)
    except CallFailed as exc:  # the guarded call already says what happened
        return None, str(exc)
    except Exception as exc:  # the evaluator under test may fail on any case: report, never raise
        return None, f"raised {type(exc).__name__}: {exc}"
    if isinstance(out, bool) or not isinstance(out, numbers.Real):
        return None, f"returned {out!r}, not a number"
    return float(out), ""


def difference_of(mine: tuple[float | None, str], ref: tuple[float | None, str], tol: float) -> str:
    (a, why_a), (b, why_b) = mine, ref
    if b is None:
        return f"the reference {why_b}"
    if a is None:
        return f"the evaluator {why_a}"
    if math.isnan(a) or math.isnan(b):
        return "" if math.isnan(a) and math.isnan(b) else f"{a!r} vs {b!r}"
    return "" if abs(a - b) <= tol else f"{a:.12g} vs {b:.12g} (|diff| {abs(a - b):.3g} > {tol:.3g})"


@dataclass(frozen=True)
class ScoreDifferentialResult:
    """One family of a score differential run.

    Attributes
    ----------
    family, status : str
        ``status`` is ``"passed"`` or ``"failed"``.
    n, checked, seed : int
        Cases planned, compared (up to and with the first that differs), and their seed.
    message : str
        The report of a failure (family, case, values, difference, reproduction) or a summary.
    found, shrunk : ScoreCase or None
        The first differing case as generated and as shrunk.
    problem : str
        What differs on the shrunk case.
    shrink_steps, shrink_finished, seconds :
        How the shrinking went, and the family's wall time.
    shrink_abandoned : bool
        The budget ran out during a call, which was abandoned: the evaluator is not called again.
    found_problem : str
        What differed on the first differing case as generated.
    """

    family: str
    status: str
    n: int
    checked: int
    seed: int
    message: str
    found: ScoreCase | None = None
    shrunk: ScoreCase | None = None
    problem: str = ""
    shrink_steps: int = 0
    shrink_finished: bool = True
    seconds: float = 0.0
    shrink_seconds: float = 0.0
    shrink_abandoned: bool = False
    found_problem: str = ""

    @property
    def reproduction(self) -> str:
        """The one-line reproduction of the shrunk counterexample, or ``""``."""
        return case_reproduction(self.shrunk) if self.shrunk is not None else ""


def _finite_or_none(x: float | None) -> float | None:
    return None if x is None or math.isnan(x) else x


@dataclass(frozen=True)
class ScoreDisagreement:
    """A score evaluator and its reference on one case, as an audit's differential item stores it.

    The counterpart of :class:`oipr_bench.auditing.regression.differential.Disagreement` for
    ``(y_true, scores)`` cases: ``pair`` is the :class:`ScoreCase`, ``mine`` and ``reference``
    the two values (None: the call failed or gave NaN, ``problem`` says which).
    """

    pair: ScoreCase
    mine: float | None
    reference: float | None
    problem: str

    @classmethod
    def of(cls, evaluator: ScoreCall, reference: ScoreCall, case: ScoreCase, tolerance: float) -> "ScoreDisagreement":
        """Call both on ``case`` and compare them."""
        mine, ref = value_of(evaluator, case), value_of(reference, case)
        return cls(case, _finite_or_none(mine[0]), _finite_or_none(ref[0]), difference_of(mine, ref, tolerance))

    @property
    def reproduction(self) -> str:
        """The one-line reproduction of this case."""
        return case_reproduction(self.pair)

    def to_dict(self) -> dict[str, Any]:
        p = self.pair
        return {"family": p.family, "index": p.index, "length": p.length, "y_true_events": p.y_true_events,
                "scores": list(p.scores), "mine": self.mine, "reference": self.reference, "problem": self.problem}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "ScoreDisagreement":
        case = ScoreCase(d["family"], int(d["index"]), int(d["length"]), [list(e) for e in d["y_true_events"]],
                         tuple(float(v) for v in d["scores"]))
        return cls(case, d.get("mine"), d.get("reference"), d.get("problem", ""))


def _describe(case: ScoreCase) -> str:
    shown = list(case.scores[:12])
    more = f", ... {case.length - 12} more" if case.length > 12 else ""
    return f"length {case.length}, y_true events {case.y_true_events[:12]}, scores {shown}{more}"


def _reconfirmed(problem: Callable[[ScoreCase], str], case: ScoreCase, times: int = RECONFIRM) -> list[str]:
    """``times`` new calls of both sides on ``case``: what differed, one entry per call that differed."""
    return [p for p in (problem(case) for _ in range(times)) if p]


#: What a report says of a counterexample reached when a call was abandoned (binary and score differentials alike).
NOT_CONFIRMED = ("not confirmed by more calls: the evaluator is not called again, as its state after an abandoned call "
                 "is not trusted")


def _failure_message(name: str, family: str, n: int, seed: int, found: ScoreCase, first: str, shrunk: ScoreCase,
                     shrunk_problem: str, outcome: Any, confirmed: int, found_confirmed: int | None) -> str:
    """The report of a difference, in the binary differential's words (see ``differential._failure_message``)."""
    failed = first.startswith("the evaluator ") and " vs " not in first  # raised, exited, timed out, ...: no value
    what = first if failed else f"differs from {name}"
    head = f"{what} on case {found.index + 1} of {n} of family {family} (seed {seed})"
    abandoned = getattr(outcome, "abandoned", False)
    how = "finished" if outcome.finished else "budget ran out during a call, which was abandoned" if abandoned \
        else "budget ran out"
    if confirmed == RECONFIRM or abandoned:
        confirmation = NOT_CONFIRMED if abandoned else f"confirmed by {RECONFIRM} more calls of both"
        return "\n".join([
            f"{head}: {first}" if not failed else f"{head}:",
            f"  {_describe(found)}",
            f"shrunk in {outcome.seconds:.2f} s ({outcome.steps} steps, {how}; {confirmation}) to: {shrunk_problem}",
            f"  {_describe(shrunk)}",
            f"reproduce: {case_reproduction(shrunk)}"])
    if found_confirmed == RECONFIRM:  # the shrinking was misled; the case as found does reproduce
        return "\n".join([
            f"{head}; the shrunk case did not reproduce ({confirmed} of {RECONFIRM} new calls of both differed): is the "
            f"evaluator deterministic? The case as found reproduced in {RECONFIRM} of {RECONFIRM}: {first}",
            f"  {_describe(found)}",
            f"reproduce: {case_reproduction(found)}"])
    return "\n".join([
        f"{head} once, but the difference did not reproduce: {found_confirmed} of {RECONFIRM} new calls of both on the "
        f"same case differed, so the evaluator (or the reference) is not deterministic; no counterexample to shrink. "
        f"The case and what differed: {first}",
        f"  {_describe(found)}",
        f"reproduce (not reliably): {case_reproduction(found)}"])


def run_score_family(evaluator: ScoreCall, reference: ScoreCall, family: str, *, name: str, n: int, seed: int = 0,
                     window: int = 100, tolerance: float = 1e-9,
                     shrink_budget: float = DEFAULT_SHRINK_BUDGET,
                     thresholds: int = DEFAULT_THRESHOLDS, progress: Any = None) -> ScoreDifferentialResult:
    """Compare ``evaluator`` with ``reference`` on the first ``n`` cases of ``family``; shrink the first difference.

    A difference is called again :data:`RECONFIRM` times before anything is shrunk or printed, as
    the binary differential does: one that does not come back on every call is reported as a
    non-deterministic evaluator (or reference), with no counterexample.  ``progress`` (a bar of
    :func:`oipr_bench.auditing.progress.progress_bar`, optional) advances by one per case compared; the
    cases after the first difference, never run, are taken off its total.
    """
    start = time.perf_counter()
    seen: dict[int, tuple[ScoreCase, str]] = {}  # what last differed on each case (by identity, the case kept alive)

    def problem(case: ScoreCase) -> str:
        found = difference_of(value_of(evaluator, case), value_of(reference, case), tolerance)
        if found:
            seen[id(case)] = case, found
        return found

    for case in score_cases(family, n, seed, window, thresholds):
        called = time.perf_counter()
        found = problem(case)
        if progress is not None:
            progress.update(1)
        if not found:
            continue
        per_point = (time.perf_counter() - called) / max(case.length, 1)  # the shrink budget bounds wall time
        if progress is not None:
            drop_from_total(progress, n - case.index - 1)
        found_again = _reconfirmed(problem, case)
        if len(found_again) < RECONFIRM:  # not deterministic: shrinking would chase noise
            outcome = ScoreShrinkOutcome(case, 0, 0, 0.0, True)
            message = _failure_message(name, family, n, seed, case, found, case, found, outcome, 0, len(found_again))
            return ScoreDifferentialResult(family, FAILED, n, case.index + 1, seed, message, case, case, found, 0, True,
                                           time.perf_counter() - start, 0.0)
        outcome = shrink_case(case, lambda c: bool(problem(c)), shrink_budget, per_point)
        if outcome.abandoned:  # the evaluator is not called again: what differed in the shrinking's own call
            again = [seen.get(id(outcome.case), (case, found))[1]] * RECONFIRM
        else:
            again = _reconfirmed(problem, outcome.case) if outcome.case != case else found_again
        confirmed = len(again)
        shrunk = outcome.case if confirmed == RECONFIRM else case
        shrunk_problem = again[-1] if confirmed == RECONFIRM else found
        message = _failure_message(name, family, n, seed, case, found, shrunk, shrunk_problem, outcome, confirmed,
                                   RECONFIRM)
        return ScoreDifferentialResult(family, FAILED, n, case.index + 1, seed, message, case, shrunk,
                                       shrunk_problem, outcome.steps, outcome.finished, time.perf_counter() - start,
                                       outcome.seconds, outcome.abandoned, found)
    seconds = time.perf_counter() - start
    return ScoreDifferentialResult(family, PASSED, n, n, seed, f"{n} cases agree with {name} (seed {seed}, {seconds:.2f} s)",
                                   seconds=seconds)


def run_score_differential(evaluator: ScoreCall, reference: str = "VUS-PR", reference_params: Mapping[str, Any] | None = None,
                           *, n: int = 100, seed: int = 0, families: Sequence[str] = SCORE_FAMILIES,
                           tolerance: float = 1e-9, shrink_budget: float = DEFAULT_SHRINK_BUDGET,
                           fail_fast: bool = False,
                           progress: Callable[[int, str], Any] | None = None) -> list[ScoreDifferentialResult]:
    """Run ``evaluator`` against the built-in score evaluator ``reference`` on every family in ``families``.

    With ``fail_fast`` the run stops after the first family that differs (its result is the last); it
    always stops after a family whose shrinking abandoned a call (``shrink_abandoned``): the evaluator's
    state after an abandoned call is not trusted, so it is not called again.
    ``progress(total, unit)``, optional, makes the bar of the run once the arguments are checked (as
    :func:`oipr_bench.auditing.progress.progress_bar` does: ``n`` cases per family, unit ``"case"``); it
    advances by one per case compared (:func:`run_score_family`).

    Raises
    ------
    ValueError
        ``reference`` is not a score evaluator, a family is unknown, or ``n`` is not a positive whole number.
    """
    if reference not in SCORE_NAMES:
        raise ValueError(f"reference {reference!r} is not a score evaluator; score evaluators are {', '.join(SCORE_NAMES)}")
    unknown = [f for f in families if f not in SCORE_FAMILIES]
    if unknown:
        raise ValueError(f"unknown score family {unknown[0]!r}; families are {', '.join(SCORE_FAMILIES)}")
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1:
        raise ValueError(f"n must be a positive number of cases per family, got {n!r}")
    params = dict(reference_params or {})
    ref = get(reference, **params)
    window = int(ref.params.get("sliding_window", 100))
    thresholds = int(ref.params.get("thresholds", DEFAULT_THRESHOLDS))
    results = []
    with progress(len(families) * int(n), "case") if progress is not None else contextlib.nullcontext() as bar:
        for family in families:
            results.append(run_score_family(evaluator, ref, family, name=reference, n=int(n), seed=seed, window=window,
                                            tolerance=tolerance, shrink_budget=shrink_budget, thresholds=thresholds,
                                            progress=bar))
            if (fail_fast and results[-1].status != PASSED) or results[-1].shrink_abandoned:
                break
    return results
