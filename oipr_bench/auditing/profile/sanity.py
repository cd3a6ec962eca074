"""Sanity checks: properties every evaluator should have, whatever its characteristics.

Each check is one function ``check_<name>(ctx)`` registered in :data:`CHECKS`
(the names come from :mod:`oipr_bench.vocabulary`), like the characteristic
rules of :mod:`oipr_bench.auditing.table5.characteristics`.  It calls the evaluator through
``ctx.caller`` and returns a :class:`~oipr_bench.auditing.profile.results.SanityResult`:

- ``passed`` when it observed the property;
- ``failed`` with the numbers when it observed a violation;
- ``undetermined`` when it observed nothing: every call it made (or every
  case it reads) failed, so the property was never seen either way;
  a call that fails while others run is a violation (``failed``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Mapping

import numpy as np

from ..expectations import Expectation, judge_sanity
from .results import CaseResult, SanityResult
from ..calling.coerce import NAN_WHERE_DEFINED
from ..calling.runner import CallOutcome, Caller
from ..calling.declarations import Declarations
from ..table5.discrimination import DISCRIMINATION_HEAD, discrimination_problem, perfect_problem
from ..table5.readings import KIND_SCORE
from ...evaluators.score import f1_from
from ...vocabulary import (
    BOOL_INT,
    DETERMINISTIC,
    DISCRIMINATES,
    FAILED,
    HARMONIC_F1,
    MUTATED,
    NO_MUTATION,
    NO_NAN,
    PASSED,
    PERFECT,
    PROPERTY_SEARCH,
    UNDETERMINED,
)

__all__ = ["NONDETERMINISM", "nondeterminism", "no_value_note", "nan_cases", "no_nan_result", "SanityContext", "CHECKS", "SANITY_TOLERANCE", "HARMONIC_TOLERANCE", "run_check"]

#: A perfect prediction must score 1 within this; bool/int inputs must agree within this.
SANITY_TOLERANCE = 1e-9
#: A returned F1 must equal 2PR/(P+R) (eq. 1) within this.
HARMONIC_TOLERANCE = 1e-6

_PERFECT_CASES = ("overlap_proportion/c1", "long_anomaly_effect/c1", "random_detector/c2")
_DETERMINISM_CASES = ("fragmented_tps/c2", "random_detector/c1")
#: The words of every deterministic-check failure that saw two calls disagree (not a probe that failed to run).
NONDETERMINISM = "two calls on the same input"
_MUTATION_CASES = ("fragmented_fps/c1", "temporal_shifting/c2")
_DTYPE_CASES = ("overlap_proportion/c2", "tp_positions/c3")


@dataclass(frozen=True)
class SanityContext:
    """What a sanity check may use.

    Attributes
    ----------
    caller : Caller
        Calls the evaluator (in process or in a worker, with the audit's timeout).
    cases : mapping of str to Case
        The dataset's cases by id.
    run_case : callable
        ``run_case(case_id) -> CaseResult``: the evaluator's (cached) result on a case.
    fn : callable
        The evaluator itself (for the property search, which makes its own caller).
    timeout, isolate, hypothesis_examples
        The audit's options the property search needs.
    declarations : Declarations
        Input kind, orientation and bounds (a scalar's perfect value is its best bound).
    kind : callable
        ``kind() -> "pr" | "score" | None``: what the evaluator returned so far.
    """

    caller: Caller
    cases: Mapping[str, Any]
    run_case: Callable[[str], CaseResult]
    fn: Callable[..., Any]
    timeout: float | None = None
    isolate: bool = False
    hypothesis_examples: int | None = None
    declarations: Declarations = Declarations()
    kind: Callable[[], str | None] = lambda: None


def _same(a: float, b: float, tol: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= tol


def _series(ctx: SanityContext, case_id: str) -> tuple[np.ndarray, np.ndarray]:
    case = ctx.cases[case_id]
    return case.y_true, case.predictions[0]


def _nothing_observed(name: str, failures: list[str]) -> SanityResult:
    return SanityResult(name, UNDETERMINED, "every call failed, so nothing was observed: " + "; ".join(failures))


def _verdict(name: str, failures: list[str], n_probes: int) -> SanityResult:
    """No violation seen: passed; some probes failed to run: failed; all did: undetermined."""
    if not failures:
        return SanityResult(name, PASSED)
    if len(failures) == n_probes:
        return _nothing_observed(name, failures)
    return SanityResult(name, FAILED, "; ".join(failures))


def _triple(out: CallOutcome) -> tuple[float, ...]:
    assert out.score is not None
    return tuple(out.score)


def check_perfect(ctx: SanityContext) -> SanityResult:
    """``y_pred = y_true`` scores (1, 1, 1) on three ground truths; a scalar, its best declared bound."""
    failures = []
    for cid in _PERFECT_CASES:
        y = ctx.cases[cid].y_true
        out = ctx.caller(y, y)
        if not out.ok:
            failures.append(f"y_pred = y_true of {cid}: {out.message}")
            continue
        problem = perfect_problem(out.score, out.result_kind, ctx.declarations, f"y_pred = y_true of {cid}")  # type: ignore[arg-type]
        if problem:
            return SanityResult(PERFECT, FAILED, problem)
    return _verdict(PERFECT, failures, len(_PERFECT_CASES))


def check_discriminates(ctx: SanityContext) -> SanityResult:
    """The perfect detection scores strictly better than no detection and than all ones (two ground truths).

    A metric that does not is degenerate (a constant, one that ignores ``y_pred``):
    its profile says nothing.  Fails with the numbers.
    """
    failures = []
    for cid in _PERFECT_CASES[:2]:
        problem = discrimination_problem(ctx.caller, ctx.cases[cid].y_true, ctx.kind(), ctx.declarations,
                                         f"the ground truth of {cid}")
        if problem.startswith(DISCRIMINATION_HEAD):
            return SanityResult(DISCRIMINATES, FAILED, problem)
        if problem:
            failures.append(problem)
    return _verdict(DISCRIMINATES, failures, 2)


def check_deterministic(ctx: SanityContext) -> SanityResult:
    """The same input twice gives the same output; fails only when two calls on one input differ.

    A probe whose two calls both gave no value the same way (both raised, or both returned NaN where
    the value is defined: :func:`check_no_nan` names that) shows no difference: with another probe
    agreeing the check passes and says which probe gave no value; with none, it observed nothing.
    """
    failures = []
    for cid in _DETERMINISM_CASES:
        t, p = _series(ctx, cid)
        first, second = ctx.caller(t, p), ctx.caller(t, p)
        if first.ok != second.ok:  # one call gave a result, the other failed: that is the non-determinism
            good, bad = (first, second) if first.ok else (second, first)
            order = "the first call" if first.ok else "the second call"
            return SanityResult(DETERMINISTIC, FAILED,
                                f"{cid}: two calls on the same input: {order} gave {_triple(good)}, the other failed "
                                f"({bad.kind}: {bad.message})")
        if not first.ok:
            if first.kind != second.kind:
                return SanityResult(DETERMINISTIC, FAILED, f"{cid}: two calls on the same input failed differently "
                                                           f"({first.kind}: {first.message}; {second.kind}: {second.message})")
            failures.append(f"{cid}: {first.message}")
            continue
        if not all(_same(a, b, 0.0) for a, b in zip(_triple(first), _triple(second))):
            return SanityResult(DETERMINISTIC, FAILED,
                                f"{cid}: two calls on the same input gave {_triple(first)} and {_triple(second)}")
    if len(failures) == len(_DETERMINISM_CASES):
        return _nothing_observed(DETERMINISTIC, failures)
    return SanityResult(DETERMINISTIC, PASSED, no_value_note("; ".join(failures)) if failures else "")


def no_value_note(failures: str) -> str:
    """The message of a passed ``deterministic`` check some of whose probes gave no value (``failures`` joined)."""
    return f"the calls that gave a value agree; no value to compare on {failures}"


def nan_cases(results: Any) -> list[Any]:
    """The case results (:class:`CaseResult`) that returned NaN where the value is defined."""
    return [r for r in results if not r.ok and NAN_WHERE_DEFINED in (r.message or "")]


def no_nan_result(results: list[Any]) -> SanityResult:
    """The ``no_nan`` verdict on the audit's case results (shared by :func:`check_no_nan` and a stored report's re-reading)."""
    bad = nan_cases(results)
    if bad:
        shown = "; ".join(f"{r.case_id}: {r.message}" for r in bad[:3])
        more = f" (and {len(bad) - 3} more)" if len(bad) > 3 else ""
        return SanityResult(NO_NAN, FAILED, f"NaN where the value is defined on {len(bad)} of {len(results)} cases: {shown}{more}")
    if not any(r.ok for r in results):
        return _nothing_observed(NO_NAN, [f"{r.case_id}: {r.status}" for r in results][:3] + ["..."])
    return SanityResult(NO_NAN, PASSED)


def check_no_nan(ctx: SanityContext) -> SanityResult:
    """No case returns NaN where its value is defined (a 0/0 quantity is the only NaN a result may hold).

    Reads the audit's case results (every case, run once); fails naming the cases and the quantity.
    Undetermined when no case gave a value and none returned NaN.
    """
    return no_nan_result([ctx.run_case(cid) for cid in ctx.cases])


def nondeterminism(res: SanityResult) -> str:
    """Why no verdict may be read after the ``deterministic`` check ``res``: two calls disagreed (``""`` otherwise;
    a probe that failed to run shows nothing about determinism)."""
    if res.status != FAILED or NONDETERMINISM not in res.message:
        return ""
    return f"the evaluator is not deterministic ({res.message}); no verdict is read from its values"


def check_no_mutation(ctx: SanityContext) -> SanityResult:
    """The inputs are unchanged after a call, here and on every case run so far.

    A call that raised, timed out or crashed shows nothing about mutation; when
    no call and no case completed, the check is undetermined.
    """
    failures = []
    for cid in _MUTATION_CASES:
        t, p = _series(ctx, cid)
        out = ctx.caller(t, p)
        if out.kind == MUTATED:
            return SanityResult(NO_MUTATION, FAILED, f"{cid}: {out.message}")
        if not out.ok:
            failures.append(f"{cid}: {out.message}")
    done = [ctx.run_case(cid) for cid in ctx.cases]
    mutated = [r.case_id for r in done if r.status == MUTATED]
    if mutated:
        return SanityResult(NO_MUTATION, FAILED, f"mutated its inputs on case(s) {', '.join(mutated)}")
    if len(failures) == len(_MUTATION_CASES) and not any(r.ok for r in done):
        return _nothing_observed(NO_MUTATION, failures)
    return SanityResult(NO_MUTATION, PASSED)


def check_bool_int(ctx: SanityContext) -> SanityResult:
    """bool, int8 and int64 inputs give the same result."""
    failures = []
    for cid in _DTYPE_CASES:
        t, p = _series(ctx, cid)
        outs = {str(np.dtype(d)): ctx.caller(t, p, dtype=d) for d in (np.int8, np.int64, bool)}
        bad = [f"{d}: {o.message}" for d, o in outs.items() if not o.ok]
        if len(bad) == len(outs):
            failures.append(f"{cid}: " + "; ".join(bad))
            continue
        if bad:
            return SanityResult(BOOL_INT, FAILED, f"{cid}: " + "; ".join(bad))
        ref = _triple(outs["int8"])
        for d, o in outs.items():
            if not all(_same(a, b, SANITY_TOLERANCE) for a, b in zip(_triple(o), ref)):
                return SanityResult(BOOL_INT, FAILED, f"{cid}: {d} input gives {_triple(o)}, int8 input gives {ref}")
    return _verdict(BOOL_INT, failures, len(_DTYPE_CASES))


def check_harmonic_f1(ctx: SanityContext) -> SanityResult:
    """A returned F1 equals 2PR/(P+R) (eq. 1) on every case.

    Undetermined when no case completed; passed with a note
    when the evaluator returns no F1 (oipr-bench computes it with eq. 1).
    """
    done = [ctx.run_case(cid) for cid in ctx.cases]
    ok = [r for r in done if r.ok]
    if not ok:
        return _nothing_observed(HARMONIC_F1, [f"{r.case_id}: {r.status}" for r in done][:3] + ["..."])
    if all(r.kind == KIND_SCORE for r in ok):
        return SanityResult(HARMONIC_F1, PASSED, "the evaluator returns one number: there is no F1 to check")
    checked = 0
    for r in ok:
        if not r.returned_f1:
            continue
        for i, s in enumerate(r.runs if r.runs is not None else (r.score,)):
            assert s is not None
            checked += 1
            want = f1_from(s.precision, s.recall)
            if not _same(s.f1, want, HARMONIC_TOLERANCE):
                run = f" run {i + 1}" if r.runs is not None else ""
                return SanityResult(HARMONIC_F1, FAILED, f"{r.case_id}{run}: F1 = {s.f1!r} but 2PR/(P+R) = {want!r} "
                                                         f"(P={s.precision!r}, R={s.recall!r})")
    if not checked:
        return SanityResult(HARMONIC_F1, PASSED, "the evaluator returns no F1; oipr-bench computes it as 2PR/(P+R)")
    return SanityResult(HARMONIC_F1, PASSED)


def check_property_search(ctx: SanityContext) -> SanityResult:
    """hypothesis finds no input on which a model-free property breaks.

    The message lists each broken property with its shrunk example, one per line
    (:func:`oipr_bench.auditing.properties.search.run_property_search`).
    """
    from ..properties.search import run_property_search

    n = ctx.hypothesis_examples
    assert n is not None
    broken = run_property_search(ctx.fn, max_examples=n, derandomize=True, timeout=ctx.timeout, isolate=ctx.isolate)
    if not broken:
        return SanityResult(PROPERTY_SEARCH, PASSED)
    names = ", ".join(line.split(":", 1)[0] for line in broken)
    return SanityResult(PROPERTY_SEARCH, FAILED,
                        "\n".join([f"broke {names} (searched {n} derandomized examples per property)", *broken]))


#: The check of each sanity-check name.
CHECKS: dict[str, Callable[[SanityContext], SanityResult]] = {
    PERFECT: check_perfect,
    DISCRIMINATES: check_discriminates,
    DETERMINISTIC: check_deterministic,
    NO_NAN: check_no_nan,
    NO_MUTATION: check_no_mutation,
    BOOL_INT: check_bool_int,
    HARMONIC_F1: check_harmonic_f1,
    PROPERTY_SEARCH: check_property_search,
}


def run_check(name: str, ctx: SanityContext) -> SanityResult:
    """Run sanity check ``name`` (a key of :data:`CHECKS`)."""
    if name not in CHECKS:
        raise KeyError(f"unknown sanity check {name!r}; known: {', '.join(CHECKS)}")
    return CHECKS[name](ctx)


def judged(res: SanityResult, expectation: Expectation | None) -> SanityResult:
    """``res`` against a declared expectation of the check (``--expect discriminates=no``), if any.

    A declared failure becomes ``deviation`` and a pass ``unexpected_pass``
    (:func:`oipr_bench.auditing.expectations.judge_sanity`); the message says what was declared.
    """
    if expectation is None or res.status not in (PASSED, FAILED):
        return res
    status = judge_sanity(res.status == PASSED, expectation)
    if status == res.status:
        return res
    why = f": {expectation.reason}" if expectation.reason else ""
    note = f"declared {res.name}={'|'.join(expectation.values)} ({expectation.source}{why})"
    return SanityResult(res.name, status, f"{note}; {res.message}" if res.message else note)
