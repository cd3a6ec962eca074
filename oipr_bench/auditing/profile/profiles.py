"""Running an audit: :class:`AuditSession` and :func:`audit`.

An audit runs an evaluator on the 25 special-scenario cases (Appendix A;
all 100 runs of each random-detector case, :mod:`oipr_bench.auditing.profile.case_runs`),
derives the ten characteristics of Table 5 with the rules of :mod:`oipr_bench.auditing.table5.characteristics`,
compares them with the expected profile (OIPR's row, the reference's own under ``reference``
(:mod:`.expected_row`), unless declared otherwise, :mod:`oipr_bench.auditing.expectations`), runs
the sanity checks (:mod:`oipr_bench.auditing.profile.sanity`) and, optionally, compares every
case with a built-in evaluator's reference values (:mod:`oipr_bench.auditing.profile.comparison`).
How it runs is one :class:`~oipr_bench.auditing.options.AuditOptions`.

The pytest plugin (:mod:`oipr_bench.pytest_plugin.plugin`) drives the same
:class:`AuditSession` item by item; :func:`audit` runs it all at once.  The
result is a :class:`oipr_bench.auditing.profile.results.Profile`.

Examples
--------
>>> oipr_bench.audit("PA").characteristics["existence_detection_reward"]   # doctest: +SKIP
'yes'
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

from ..table5 import characteristics as ch
from .anchor_calls import AnchorCalls, observations_for
from .case_runs import bounds_violation, pw_baseline, run_case
from ..regression.case_sets import cases_with, user_cases_of
from .comparison import compare_case, compare_user_case
from .expected_row import reference_expectations
from .assembly import assemble_profile
from ..regression.differential import DifferentialResult
from ..regression.configured import compares_cases, families_of, run_configured, run_families
from ..expectations import expectations_from, judge, merge_expectations
from ..options import AuditOptions, declared_expectations
from ..declared import inapplicable_declaration, mismatched_reference, refuse, unchecked_expectation
from ..calling.resolve import Resolved, resolve
from .results import CaseResult, CharacteristicResult, Profile, ReferenceResult, SanityResult
from ..calling.declarations import declarations_of
from ..table5.readings import KIND_PR, KIND_SCORE
from ..calling.runner import CallOutcome, Caller
from .sanity import SanityContext, judged, nondeterminism, run_check
from ...evaluators.score import Score
from ..properties.run import run_property, undetermined_property
from ..properties.results import PropertyResult
from ...vocabulary import BAD_RESULT, CHARACTERISTICS, DETERMINISTIC, PROPERTY_SEARCH, SANITY_CHECKS
from ...vocabulary import METRIC_PROPERTIES, SUITE_ALL, SUITE_PROPERTIES, SUITE_TABLE5, UNDETERMINED

__all__ = ["audit", "AuditSession", "AuditOptions", "Profile"]


class AuditSession:
    """Run an evaluator on the dataset once per case, caching every result.

    Parameters
    ----------
    resolved : Resolved
        The evaluator (see :func:`oipr_bench.auditing.calling.resolve.resolve`).
    options : AuditOptions, optional
        How to run (timeout, isolation, reference comparison, sanity checks,
        declared expectations); the evaluator's ``oipr_profile`` attribute is
        applied below the declared expectations.
    """

    def __init__(self, resolved: Resolved, options: AuditOptions | None = None) -> None:
        self.resolved = resolved
        self.options = options if options is not None else AuditOptions()
        o = self.options
        self.declarations = declarations_of(resolved, input_kind=o.input_kind, higher_is_better=o.higher_is_better,
                                            bounds=o.bounds)
        refuse(unchecked_expectation(o.expectations, o.suite_for(self.declarations.input_kind), sanity=o.sanity,
                                     hypothesis_examples=o.hypothesis_examples))  # refused, never ignored
        refuse(mismatched_reference(o, self.declarations.input_kind, resolved.name))  # before the reference's row is run
        own = expectations_from(resolved.oipr_profile, "oipr_profile") if resolved.oipr_profile else {}
        self.expectations = merge_expectations(own, dict(self.options.expectations),
                                               base=reference_expectations(AuditSession, self.options))
        self.caller = Caller(resolved.fn, timeout=o.timeout, isolate=o.isolate,
                             input_kind=self.declarations.input_kind, bounds=self.declarations.bounds)
        #: "pr" or "score": set by the first successful call (:meth:`call`).
        self.kind: str | None = None
        #: The anchor calls, once per ground truth (:mod:`~oipr_bench.auditing.profile.anchor_calls`).
        self.anchor_calls = AnchorCalls(self.call, o.chance_draws)
        self._determinism: SanityResult | None = None
        self._cases: dict[str, Any] | None = None
        self._case_results: dict[str, CaseResult] = {}
        self._baseline: dict[str, Score] = {}
        self._char_results: dict[str, CharacteristicResult] = {}
        self._sanity: dict[str, SanityResult] = {}
        self._ref_results: dict[str, ReferenceResult] = {}
        self._ref_values: dict[str, Any] | None = None
        self._prop_results: dict[str, PropertyResult] = {}
        #: What runs besides the sanity checks: table5, properties or all (:meth:`AuditOptions.suite_for`).
        self.suite = self.options.suite_for(self.declarations.input_kind)
        self._diff_results: dict[str, DifferentialResult] = {}
        #: The user's own cases (``options.cases``), loaded and validated up front.
        self.user_cases: list[Any] = user_cases_of(self.options)

    @property
    def runs_table5(self) -> bool:
        """True when the suite holds the cases and characteristics of Table 5."""
        return self.suite in (SUITE_TABLE5, SUITE_ALL)

    @property
    def runs_properties(self) -> bool:
        """True when the suite holds the metric properties."""
        return self.suite in (SUITE_PROPERTIES, SUITE_ALL)

    @property
    def cases(self) -> dict[str, Any]:
        """The dataset's cases by id (loaded once)."""
        if self._cases is None:
            self._cases = cases_with(self.user_cases, self.options.random_runs)
        return self._cases

    @property
    def case_results(self) -> dict[str, CaseResult]:
        """The case results computed so far (a copy), in the order they were run."""
        return dict(self._case_results)

    def close(self) -> None:
        """Stop the worker process, if any."""
        self.caller.close()

    def __enter__(self) -> "AuditSession":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- the four kinds of result ----------------------------------------------------------------

    def case_result(self, case_id: str) -> CaseResult:
        """The evaluator's result on ``case_id`` (run once, then cached)."""
        if case_id not in self._case_results:
            self._case_results[case_id] = run_case(self.call, self.cases[case_id])
        return self._case_results[case_id]

    def call(self, y_true: Any, y_pred: Any, *, dtype: Any = None) -> CallOutcome:
        """Call the evaluator once; a result of another kind than the earlier ones is a bad result.

        The first successful call fixes :attr:`kind` (``"pr"`` or ``"score"``).
        """
        out = self.caller(y_true, y_pred) if dtype is None else self.caller(y_true, y_pred, dtype=dtype)
        if not out.ok:
            return out
        if self.kind is None:
            self.kind = out.result_kind
        elif out.result_kind != self.kind:
            got, had = (("one number" if k == KIND_SCORE else "precision/recall") for k in (out.result_kind, self.kind))
            return CallOutcome(BAD_RESULT, message=f"returned {got} here but {had} on earlier calls",
                               returned_f1=out.returned_f1, result_kind=out.result_kind)
        return out

    def determinism_problem(self) -> str:
        """Why no verdict may be read from this evaluator's values (``""``): the ``deterministic`` check, run first."""
        if self._determinism is None:
            self._determinism = run_check(DETERMINISTIC, self._sanity_context())
        return nondeterminism(self._determinism)

    def _sanity_context(self) -> SanityContext:
        o = self.options
        return SanityContext(self.call, self.cases, self.case_result, self.resolved.fn, o.timeout, o.isolate,  # type: ignore[arg-type]
                             o.hypothesis_examples, self.declarations, lambda: self.kind)

    def baseline(self, case_id: str) -> Score:
        """PW's score on ``case_id`` (cached)."""
        if case_id not in self._baseline:
            self._baseline[case_id] = pw_baseline(self.cases[case_id])
        return self._baseline[case_id]

    def characteristic_result(self, name: str) -> CharacteristicResult:
        """Derive characteristic ``name`` from the case results it needs (cached)."""
        if name not in self._char_results:
            self._char_results[name] = self._derive(name)
        return self._char_results[name]

    def _derive(self, name: str) -> CharacteristicResult:
        expectation = self.expectations[name]
        needed = ch.REQUIRED_CASES[name]
        results = [self.case_result(c) for c in needed]
        # a score outside its declared bounds: the declaration is wrong, so no verdict from the other cases
        violation = bounds_violation([self.case_result(c) for c in self.cases]) if self.kind == KIND_SCORE else ""
        if violation:
            return CharacteristicResult(name, None, expectation, UNDETERMINED, None,
                                        f"no verdict while a score lies outside the declared bounds: {violation}")
        failed = [r for r in results if not r.ok]
        if failed:
            msg = "; ".join(f"needs case {r.case_id}, which failed ({r.status})" for r in failed)
            return CharacteristicResult(name, None, expectation, UNDETERMINED, None, msg)
        unstable = self.determinism_problem()
        if unstable:
            return CharacteristicResult(name, None, expectation, UNDETERMINED, None, unstable)
        scores = {r.case_id: r.score for r in results}
        obs = observations_for(name, scores, self.kind or KIND_PR, self.declarations, self.anchor_calls,  # type: ignore[arg-type]
                               self.cases, self.baseline)
        finding = ch.derive(name, obs)
        observed = None if finding.value == UNDETERMINED else finding.value
        status = judge(observed, expectation, profile_only=self.options.profile_only)
        return CharacteristicResult(name, observed, expectation, status, finding, finding.explanation)

    @property
    def sanity_checks(self) -> tuple[str, ...]:
        """The sanity checks of this session, plus ``property-search`` when ``hypothesis_examples`` is set."""
        return SANITY_CHECKS + ((PROPERTY_SEARCH,) if self.options.hypothesis_examples else ())

    def sanity_result(self, name: str) -> SanityResult:
        """Run sanity check ``name`` (one of :attr:`sanity_checks`; cached)."""
        if name not in self.sanity_checks:
            raise KeyError(f"unknown sanity check {name!r}; known: {', '.join(self.sanity_checks)}")
        if name not in self._sanity:
            if name == DETERMINISTIC:
                self.determinism_problem()
            raw = self._determinism if name == DETERMINISTIC else run_check(name, self._sanity_context())
            self._sanity[name] = judged(raw, self.expectations.get(name))  # type: ignore[arg-type]
        return self._sanity[name]

    def property_result(self, name: str) -> PropertyResult:
        """Run metric property ``name`` on its scenario family (cached; see :mod:`oipr_bench.auditing.properties.run`)."""
        if name not in self._prop_results:
            from ...scenarios.family_files import family

            unstable, expectation = self.determinism_problem(), (None if self.options.profile_only
                                                                  else self.expectations.get(name))
            self._prop_results[name] = (
                undetermined_property(name, self.declarations, lambda: self.kind, expectation, unstable) if unstable
                else run_property(name, family(name), self.call, self.declarations, lambda: self.kind, expectation, self.anchor_calls))
        return self._prop_results[name]

    def reference_result(self, case_id: str) -> ReferenceResult:
        """Compare the evaluator's result on ``case_id`` with the reference (cached)."""
        if case_id not in self._ref_results:
            if self._ref_values is None:
                from ...reference.values import reference_values

                if self.options.reference is None:
                    raise KeyError("no reference evaluator given")
                self._ref_values = reference_values(self.options.reference, **self.options.reference_params)
            ref = self._ref_values.get(case_id)
            if ref is None:  # a user's case: the reference computed here (no Table A1 row)
                self._ref_results[case_id] = compare_user_case(self.case_result(case_id), self.cases[case_id], self.options)
            else:
                self._ref_results[case_id] = compare_case(self.case_result(case_id), ref, self.options)
        return self._ref_results[case_id]

    @property
    def families(self) -> tuple[str, ...]:
        """The differential families of this session (all of them with ``differential``, else none; score
        families with a score reference, :mod:`oipr_bench.auditing.regression.configured`)."""
        return families_of(self.options)

    def differential_result(self, family: str) -> DifferentialResult:
        """Compare the evaluator with the reference on ``family``'s generated pairs (cached)."""
        if family not in self._diff_results:
            self._diff_results[family] = run_configured(self.call, self.options, family, self._diff_results.values())
        return self._diff_results[family]

    # -- all at once -----------------------------------------------------------------------------

    def run_all(self, progress: Callable[[int, str], Any] | None = None) -> Profile:
        """Run what the suite holds: cases and characteristics, properties; sanity checks (unless
        ``sanity=False``) and reference comparisons (with Table 5); ``progress(total, unit)`` makes the
        differential run's bar (:func:`~oipr_bench.auditing.regression.configured.run_families`)."""
        for cid in self.cases if self.runs_table5 else ():
            self.case_result(cid)
        if self.options.sanity:
            for name in self.sanity_checks:
                self.sanity_result(name)
        for name in CHARACTERISTICS if self.runs_table5 else ():
            self.characteristic_result(name)
        for name in METRIC_PROPERTIES if self.runs_properties else ():
            self.property_result(name)
        if compares_cases(self.options) and self.runs_table5:
            for cid in self.cases:
                self.reference_result(cid)
        todo = [family for family in self.families if family not in self._diff_results]
        self._diff_results.update(run_families(self.call, self.options, todo, progress, self._diff_results.values()))
        refuse(inapplicable_declaration(self.options, self.kind, self.resolved.name))  # the kind is known now
        return self.profile()

    def profile(self) -> Profile:
        """A :class:`Profile` of what has been run so far."""
        return self.assemble(self._case_results, self._char_results, self._sanity, self._ref_results,
                             self._prop_results, self._diff_results)

    def assemble(self, case_results: Mapping[str, CaseResult], characteristic_results: Mapping[str, CharacteristicResult],
                 sanity_results: Mapping[str, SanityResult], reference_results: Mapping[str, ReferenceResult],
                 property_results: Mapping[str, PropertyResult] | None = None,
                 differential_results: Mapping[str, DifferentialResult] | None = None, **run: Any) -> Profile:
        """A :class:`Profile` of this session from the given results (the plugin's: gathered from its items' reports,
        xdist too), in report order; ``run``: deselected, selection, interrupted (:func:`~.assembly.assemble_profile`)."""
        return assemble_profile(case_results, characteristic_results, sanity_results, reference_results,
                                property_results or {}, differential_results or {},
                                evaluator=self.resolved.name, params=self.resolved.params, cases=self.cases,
                                sanity_checks=self.sanity_checks, families=self.families, options=self.options,
                                declarations=self.declarations, kind=self.kind, user_cases=self.user_cases,
                                state=self.resolved.state, **run)


def audit(
    evaluator: Any,
    *,
    expect: Mapping[str, Any] | Iterable[str] | str | None = None,
    timeout: float | None = None,
    isolate: bool = False,
    reference: str | None = None,
    reference_params: Mapping[str, Any] | None = None,
    against: str | None = None,
    tolerance: float | None = None,
    sanity: bool = True,
    hypothesis_examples: int | None = None,
    input: str | None = None,
    higher_is_better: bool | None = None,
    bounds: Any = None,
    suite: str | None = None,
    differential: int | None = None,
    seed: int | None = None,
    shrink_budget: float | None = None,
    cases: Any = None,
    random_runs: int | None = None,
    chance_draws: int | None = None,
    profile_only: bool = False,
    params: Mapping[str, Any] | None = None,
    **more_params: Any,
) -> Profile:
    """Profile ``evaluator`` on the special-scenario dataset, without pytest.

    Parameters
    ----------
    evaluator : str or callable
        A built-in name (``"OIPR"``), ``"pkg.mod:Name"``, ``"pkg.mod.Name"``, or
        a function, class or instance (see :mod:`oipr_bench.auditing.calling.resolve`).
    expect : mapping, iterable of str, or str, optional
        Declared expectations, ``{"fragments_merging": "no"}``,
        ``["fragments_merging=no"]`` or ``"fragments_merging=no"``; they override
        the default (OIPR's row; with ``reference``, the reference's own row).
    timeout, isolate : optional
        Per-call timeout in seconds and process isolation (see :class:`oipr_bench.auditing.calling.runner.Caller`).
    reference, reference_params, against, tolerance : optional
        Compare every case with a built-in evaluator's reference values
        (``against`` and ``tolerance`` only with ``reference``; see
        :class:`~oipr_bench.auditing.options.AuditOptions`).
    sanity : bool
        Run the sanity checks (default True).
    hypothesis_examples : int, optional
        Also run the ``property-search`` sanity check with this many examples per property.
    input : {"binary", "scores"}, optional
        What the evaluator takes; ``"scores"`` hands ``y_pred`` over as float64
        (on Table 5's cases the 0/1 prediction as 0.0/1.0; the score properties' families hold real
        scores, and ``"scores"`` makes ``all`` the default suite).  Default: its ``input_kind``
        attribute, else binary.
    higher_is_better : bool, optional
        Orientation of a scalar score.  Default: its ``higher_is_better`` attribute, else True.
    bounds : (lo, hi), optional
        Range of a scalar score, either end None for open.  Default: its ``bounds``
        attribute, else (0, 1).  See docs/scalar-metrics.md.
    suite : {"table5", "properties", "all"}, optional
        What to run: Table 5 (default for 0/1 input), the metric properties
        (docs/properties.md), or both (default for ``input="scores"``).
    differential, seed, shrink_budget, cases, random_runs, chance_draws : optional
        With ``reference``: compare with it on ``differential`` generated pairs per family (seeded,
        shrinking within ``shrink_budget`` s); ``cases``: a file of your own cases in the dataset's
        format, run like the built-in ones (docs/regression-testing.md); ``random_runs``, ``chance_draws``: a
        reduced audit on the first ``random_runs`` of 100 random-detector runs, ``chance_draws`` of 10 chance draws.
    profile_only : bool
        No expected row: every characteristic and property is ``reported``, not judged (ok unless a case or sanity check fails).
    params : mapping, optional
        Evaluator parameters (use this for parameters named like the options above).
    **more_params
        More evaluator parameters, e.g. ``audit("OIPR", l_obs=10)``.

    Returns
    -------
    Profile
        ``.characteristics``, ``.evidence``, ``.cases`` (DataFrame), ``.to_json()``.

    Raises
    ------
    oipr_bench.errors.UsageError
        The evaluator cannot be resolved, or an expectation or option is
        invalid (:class:`~oipr_bench.auditing.options.OptionError` names the parameter).
    """
    options = AuditOptions(
        timeout=timeout,
        isolate=isolate,
        reference=reference,
        reference_params={} if reference_params is None else reference_params,
        against=against, tolerance=tolerance,
        hypothesis_examples=hypothesis_examples,
        sanity=sanity,
        expectations=declared_expectations(expect, "expect"),
        input_kind=input, higher_is_better=higher_is_better, bounds=bounds,
        suite=suite,
        differential=differential,
        seed=seed, shrink_budget=shrink_budget, cases=cases,
        random_runs=random_runs, chance_draws=chance_draws, profile_only=profile_only,
    )
    resolved = evaluator if isinstance(evaluator, Resolved) else resolve(evaluator, {**dict(params or {}), **more_params})
    with AuditSession(resolved, options) as session:
        return session.run_all()
