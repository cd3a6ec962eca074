"""An audit's differential items as its options say: binary families or score families.

With a precision/recall reference (:data:`oipr_bench.evaluators.NAMES`) an audit's
``differential[<family>]`` items are the families of :mod:`oipr_bench.testing.families`, run by
:func:`oipr_bench.auditing.regression.differential.run_configured`.  With a score reference
(:data:`oipr_bench.evaluators.SCORE_NAMES`: AUC-ROC, AUC-PR, R-AUC-ROC, R-AUC-PR, VUS-ROC, VUS-PR)
they are the families of :mod:`oipr_bench.testing.score_families`, run through the audit's own
call (timeout, isolation, declared bounds) by
:func:`oipr_bench.auditing.regression.score_differential.run_score_family`; the result is the same
:class:`~oipr_bench.auditing.regression.differential.DifferentialResult`, its counterexamples
:class:`~oipr_bench.auditing.regression.score_differential.ScoreDisagreement`, so the profile, the
report, the pytest items and ``verify`` treat both alike.

A family whose shrinking abandoned a call of the evaluator (its budget ran out mid-call) is the
last one that calls it: the evaluator's state after an abandoned call is not trusted, so the later
families are reported as not run (:func:`run_configured` with ``earlier``).

Either reference also compares every case of the dataset with its stored values
(``reference[<case>]`` items, :func:`compares_cases`): a score reference's numbers are in
``reference_results/values_*.json`` (:data:`oipr_bench.reference.SCORE_VALUE_FILES`).
"""

from __future__ import annotations

import math
from typing import Any, Callable, Iterable, Sequence

from ...evaluators import SCORE_NAMES, get
from ...testing.score_families import DEFAULT_THRESHOLDS, SCORE_FAMILIES
from ...vocabulary import FAILED, FAMILIES
from .differential import Call, DifferentialResult
from .differential import run_configured as run_binary_configured
from .score_differential import CallFailed, ScoreDisagreement, one_number, run_score_family, value_of

__all__ = ["families_of", "compares_cases", "run_configured", "run_families", "CallFailed"]


def families_of(options: Any) -> tuple[str, ...]:
    """The differential families of an audit with ``options`` (none without ``differential``)."""
    if not options.differential:
        return ()
    return SCORE_FAMILIES if options.reference in SCORE_NAMES else FAMILIES


def compares_cases(options: Any) -> bool:
    """True when the audit compares every case with the reference's stored values (any reference, binary or score)."""
    return options.reference is not None


def run_configured(call: Call, options: Any, family: str, earlier: Iterable[DifferentialResult] = (),
                   progress: Any = None) -> DifferentialResult:
    """Run ``family`` as ``options`` say (reference, parameters, N, seed, tolerance, shrink budget).

    ``earlier``: the families this audit ran before; after one whose shrinking abandoned a call
    (``shrink_abandoned``) the evaluator is not called again and ``family`` is reported as not run.
    ``progress`` (a bar of :func:`oipr_bench.auditing.progress.progress_bar`, optional) advances by one
    per pair (binary families) or case (score families) compared.

    Raises
    ------
    KeyError
        ``family`` is not run in this audit (no ``differential``, or not one of :func:`families_of`).
    """
    abandoned = next((r for r in earlier if r.shrink_abandoned), None)
    if abandoned is not None and family in families_of(options):
        return DifferentialResult(family, FAILED, options.differential, 0, options.seed,
                                  f"not run: the shrinking of family {abandoned.family} abandoned a call of the "
                                  f"evaluator when its budget ran out; the evaluator is not called again, as its "
                                  f"state after an abandoned call is not trusted", shrink_abandoned=True)
    if options.reference not in SCORE_NAMES:
        return run_binary_configured(call, options, family, progress)
    if family not in families_of(options):
        known = ", ".join(SCORE_FAMILIES) if options.differential else "none (differential is off)"
        raise KeyError(f"no differential family {family!r} in this audit; families: {known}")
    reference = get(options.reference, **options.reference_params)
    evaluator, tol = one_number(call), options.comparison_tolerance
    r = run_score_family(evaluator, reference, family, name=options.reference, n=options.differential,
                         seed=options.seed, window=int(reference.params.get("sliding_window", 100)), tolerance=tol,
                         shrink_budget=options.shrink_budget,
                         thresholds=int(reference.params.get("thresholds", DEFAULT_THRESHOLDS)), progress=progress)
    found, shrunk = (None if case is None else _disagreement(evaluator, reference, case, tol, r) for case in (r.found, r.shrunk))
    return DifferentialResult(family, r.status, r.n, r.checked, r.seed, r.message, found, shrunk,
                              None if r.found is None else r.found.index, r.shrink_steps, r.shrink_seconds,
                              r.shrink_finished, r.seconds, r.shrink_abandoned)


def _disagreement(evaluator: Any, reference: Any, case: Any, tol: float, r: Any) -> ScoreDisagreement:
    """Both sides on ``case`` again; after an abandoned call only the reference (the evaluator's value is
    then not stored: ``mine`` None, and ``problem`` is what the run saw on the shrunk case)."""
    if not r.shrink_abandoned:
        return ScoreDisagreement.of(evaluator, reference, case, tol)
    ref = value_of(reference, case)[0]
    return ScoreDisagreement(case, None, None if ref is None or math.isnan(ref) else ref,
                             r.problem if case is r.shrunk else r.found_problem)


def run_families(call: Call, options: Any, families: Sequence[str], progress: Callable[[int, str], Any] | None = None,
                 earlier: Iterable[DifferentialResult] = ()) -> dict[str, DifferentialResult]:
    """:func:`run_configured` on each of ``families``, in order, with one progress bar over all of them.

    ``progress(total, unit)``, optional, makes the bar (as :func:`oipr_bench.auditing.progress.progress_bar`
    does): ``total`` is ``options.differential`` items per family, ``unit`` ``"case"`` for score families
    and ``"pair"`` for binary ones; it advances by one per item compared.  No family, no bar.  Each family
    sees the ones run before it (``earlier`` and this call's), so one whose shrinking abandoned a call stops the rest.
    """
    done: dict[str, DifferentialResult] = {}
    if not families:
        return done
    if progress is None:
        for family in families:
            done[family] = run_configured(call, options, family, [*earlier, *done.values()])
        return done
    unit = "case" if options.reference in SCORE_NAMES else "pair"
    with progress(len(families) * options.differential, unit) as bar:
        for family in families:
            done[family] = run_configured(call, options, family, [*earlier, *done.values()], bar)
    return done
