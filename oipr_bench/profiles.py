"""Running an audit: :class:`AuditSession` and :func:`audit`.

An audit runs an evaluator on the 25 special-scenario cases (Appendix A;
all 100 runs of each random-detector case), derives the ten characteristics
of Table 5 with the rules of :mod:`oipr_bench.characteristics`, compares them
with the expected profile (OIPR's row unless declared otherwise), runs the
sanity checks and, optionally, compares every case with the reference values
of a built-in evaluator.

The pytest plugin (:mod:`oipr_bench.plugin`) drives the same
:class:`AuditSession` item by item; :func:`audit` runs it all at once.  The
result is a :class:`oipr_bench.results.Profile`; expectations are parsed and
judged by :mod:`oipr_bench.expectations`.

Examples
--------
>>> import oipr_bench
>>> profile = oipr_bench.audit("PA")                        # doctest: +SKIP
>>> profile.characteristics["existence_detection_reward"]   # doctest: +SKIP
'yes'
"""

from __future__ import annotations

import math
import time
from typing import Any, Iterable, Mapping

import numpy as np

from . import characteristics as ch
from .errors import UsageError
from .evaluators._base import Score, f1_from
from .expectations import (
    FAILED,
    PASSED,
    UNDETERMINED,
    Expectation,
    expectations_from,
    judge,
    merge_expectations,
)
from .resolve import Resolved, resolve
from .results import (
    PAPER_STDERRS,
    PAPER_TOLERANCE,
    PROPERTY_SEARCH,
    SANITY_CHECKS,
    SANITY_TOLERANCE,
    CaseResult,
    CharacteristicResult,
    Profile,
    ReferenceResult,
    SanityResult,
    _jsonable,
    _same,
)
from .declarations import declarations_of
from .discrimination import discrimination_problem, perfect_problem
from .readings import KIND_PR, KIND_SCORE
from .runner import BAD_RESULT, MUTATED, OK, CallOutcome, Caller

__all__ = ["audit", "AuditSession", "Profile"]

# -- the session ---------------------------------------------------------------------------------

_PERFECT_CASES = ("overlap_proportion/c1", "long_anomaly_effect/c1", "random_detector/c2")
_DETERMINISM_CASES = ("fragmented_tps/c2", "random_detector/c1")
_MUTATION_CASES = ("fragmented_fps/c1", "temporal_shifting/c2")
_DTYPE_CASES = ("overlap_proportion/c2", "tp_positions/c3")


class AuditSession:
    """Run an evaluator on the dataset once per case, caching every result.

    Parameters
    ----------
    resolved : Resolved
        The evaluator (see :func:`oipr_bench.resolve.resolve`).
    expectations : mapping of str to Expectation, optional
        Declared expectations (merged over the default; the evaluator's
        ``oipr_profile`` attribute is applied below them).
    timeout : float, optional
        Seconds per call (worker process); see :class:`oipr_bench.runner.Caller`.
    isolate : bool
        Run every call in a worker process.
    reference : str, optional
        A built-in evaluator whose reference values every case is compared with.
    reference_params : mapping, optional
        Its parameters.
    against : {"reference", "paper"}
        Compare with the stored/computed reference values (within ``tolerance``)
        or with the paper's printed Table A1 (:data:`PAPER_TOLERANCE`, plus
        :data:`PAPER_STDERRS` standard errors for a random case).
    tolerance : float
        Absolute tolerance of the reference comparison.
    hypothesis_examples : int, optional
        Enables the :data:`PROPERTY_SEARCH` sanity check with this many
        examples per property (derandomized, so reproducible).
    timeout_option : str
        How the timeout option is named in error messages (the plugin's
        ``--oipr-timeout`` by default; the CLI passes ``--timeout``).
    """

    def __init__(
        self,
        resolved: Resolved,
        *,
        expectations: Mapping[str, Expectation] | None = None,
        timeout: float | None = None,
        isolate: bool = False,
        reference: str | None = None,
        reference_params: Mapping[str, Any] | None = None,
        against: str = "reference",
        tolerance: float = 1e-9,
        hypothesis_examples: int | None = None,
        timeout_option: str = "--oipr-timeout",
        input_kind: str | None = None,
        higher_is_better: bool | None = None,
        bounds: Any = None,
        declaration_source: str = "audit()",
    ) -> None:
        self.resolved = resolved
        self.declarations = declarations_of(resolved, input_kind=input_kind, higher_is_better=higher_is_better,
                                            bounds=bounds, source=declaration_source)
        own = expectations_from(resolved.oipr_profile, "oipr_profile") if resolved.oipr_profile else {}
        self.expectations = merge_expectations(own, dict(expectations or {}))
        try:
            self.caller = Caller(resolved.fn, timeout=timeout, isolate=isolate,
                                 input_kind=self.declarations.input_kind, bounds=self.declarations.bounds)
        except ValueError as exc:
            raise UsageError(f"{timeout_option}: {exc}") from None
        if hypothesis_examples is not None and (
            isinstance(hypothesis_examples, bool) or not isinstance(hypothesis_examples, int) or hypothesis_examples < 1
        ):
            self.caller.close()
            raise UsageError(f"hypothesis_examples must be a positive integer, got {hypothesis_examples!r}")
        self.hypothesis_examples = hypothesis_examples
        self.timeout = timeout
        self.isolate = isolate
        self.against = against
        self.tolerance = float(tolerance)
        if against not in ("reference", "paper"):
            raise UsageError(f"--against must be 'reference' or 'paper', got {against!r}")
        if not (self.tolerance >= 0 and math.isfinite(self.tolerance)):
            raise UsageError(f"--tolerance must be a non-negative number, got {tolerance!r}")
        self.reference = reference
        self.reference_params: dict[str, Any] = dict(reference_params or {})
        if reference is not None:
            self._check_reference()
        self._cases: dict[str, Any] | None = None
        self._case_results: dict[str, CaseResult] = {}
        self._baseline: dict[str, Score] = {}
        self._char_results: dict[str, CharacteristicResult] = {}
        self._sanity: dict[str, SanityResult] = {}
        self._ref_results: dict[str, ReferenceResult] = {}
        self._ref_values: dict[str, Any] | None = None
        self._anchors: dict[str, tuple[CallOutcome, CallOutcome]] = {}
        #: "pr" or "score": set by the first successful call (:meth:`call`).
        self.kind: str | None = None

    # -- setup -----------------------------------------------------------------------------------

    def _check_reference(self) -> None:
        from .evaluators import NAMES, get

        if self.reference not in NAMES:
            raise UsageError(f"--reference: unknown evaluator {self.reference!r}; built-in evaluators are {', '.join(NAMES)}")
        try:
            ref = get(self.reference, **self.reference_params)
        except (TypeError, ValueError) as exc:
            raise UsageError(f"--reference-param: {exc}") from None
        self.reference_params = dict(ref.params)
        if self.against == "paper" and _jsonable(ref.params) != _jsonable(get(self.reference).params):
            raise UsageError(
                "--against=paper compares with Table A1, which uses the paper's Table 3 parameters; drop --reference-param"
            )

    @property
    def cases(self) -> dict[str, Any]:
        """The dataset's cases by id (loaded once)."""
        if self._cases is None:
            from . import scenarios

            self._cases = {c.id: c for c in scenarios.load()}
        return self._cases

    def close(self) -> None:
        """Stop the worker process, if any."""
        self.caller.close()

    def __enter__(self) -> "AuditSession":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- cases -----------------------------------------------------------------------------------

    def case_result(self, case_id: str) -> CaseResult:
        """Run the evaluator on every prediction of ``case_id`` (cached).

        The runs stop at the first failing call; its run number is in the message.
        """
        if case_id in self._case_results:
            return self._case_results[case_id]
        case = self.cases[case_id]
        n = case.n_runs
        t0 = time.perf_counter()
        runs: list[Score] = []
        returned_f1 = True
        result: CaseResult | None = None
        for i, pred in enumerate(case.predictions):
            out = self.call(case.y_true, pred)
            if not out.ok:
                where = f"run {i + 1} of {n}: " if n > 1 else ""
                value = ""
                if out.score is not None and out.result_kind == KIND_SCORE:
                    value = f" (returned {out.score.f1!r})"
                elif out.score is not None:
                    value = f" (returned P={out.score.precision!r}, R={out.score.recall!r}, F1={out.score.f1!r})"
                result = CaseResult(case_id, out.kind, f"{where}{out.message}{value}", n, None, None, out.returned_f1,
                                    time.perf_counter() - t0, out.detail)
                break
            assert out.score is not None
            runs.append(out.score)
            returned_f1 = returned_f1 and out.returned_f1
        kind = self.kind or KIND_PR
        if result is None:
            if n == 1:
                result = CaseResult(case_id, OK, "", 1, runs[0], None, returned_f1, time.perf_counter() - t0, kind=kind)
            else:
                with np.errstate(invalid="ignore"):
                    mean = Score(*(float(v) for v in np.mean(np.array(runs, dtype=float), axis=0)))
                result = CaseResult(case_id, OK, "", n, mean, tuple(runs), returned_f1, time.perf_counter() - t0, kind=kind)
        self._case_results[case_id] = result
        return result

    def call(self, y_true: np.ndarray, y_pred: np.ndarray, *, dtype: Any = np.int8) -> CallOutcome:
        """Call the evaluator once; a result of another kind than the earlier ones is a bad result.

        The first successful call fixes :attr:`kind` (``"pr"`` or ``"score"``).
        """
        out = self.caller(y_true, y_pred, dtype=dtype)
        if not out.ok:
            return out
        if self.kind is None:
            self.kind = out.result_kind
        elif out.result_kind != self.kind:
            got = "one number" if out.result_kind == KIND_SCORE else "precision/recall"
            had = "one number" if self.kind == KIND_SCORE else "precision/recall"
            return CallOutcome(BAD_RESULT, message=f"returned {got} here but {had} on earlier calls", returned_f1=out.returned_f1,
                               result_kind=out.result_kind)
        return out

    def anchors(self, case_id: str) -> tuple[CallOutcome, CallOutcome]:
        """The evaluator on the empty prediction and on ``y_pred = y_true`` for ``case_id``'s ground truth (cached)."""
        if case_id not in self._anchors:
            y = self.cases[case_id].y_true
            self._anchors[case_id] = (self.call(y, np.zeros_like(y)), self.call(y, y))
        return self._anchors[case_id]

    def baseline(self, case_id: str) -> Score:
        """PW's score on ``case_id`` (the built-in point-wise evaluator; mean over runs)."""
        if case_id not in self._baseline:
            from .evaluators import get

            pw = get("PW")
            case = self.cases[case_id]
            arr = np.array([tuple(pw(case.y_true, p)) for p in case.predictions], dtype=float)
            self._baseline[case_id] = Score(*(float(v) for v in arr.mean(axis=0)))
        return self._baseline[case_id]

    # -- characteristics -------------------------------------------------------------------------

    def characteristic_result(self, name: str) -> CharacteristicResult:
        """Derive characteristic ``name`` from the case results it needs (cached)."""
        if name in self._char_results:
            return self._char_results[name]
        expectation = self.expectations[name]
        needed = ch.REQUIRED_CASES[name]
        results = [self.case_result(c) for c in needed]
        failed = [r for r in results if not r.ok]
        if failed:
            msg = "; ".join(f"needs case {r.case_id}, which failed ({r.status})" for r in failed)
            res = CharacteristicResult(name, None, expectation, UNDETERMINED, None, msg)
        else:
            res = self._derive(name, expectation, {r.case_id: r.score for r in results})  # type: ignore[misc]
        self._char_results[name] = res
        return res

    def _derive(self, name: str, expectation: Expectation, scores: dict[str, Score]) -> CharacteristicResult:
        """Apply the rule of ``name`` to the case scores (running the anchors it reads first)."""
        decl = self.declarations
        kind = self.kind or KIND_PR
        obs = ch.Observations(scores, kind=kind, higher_is_better=decl.higher_is_better, bounds=decl.bounds)
        anchored = ch.REQUIRED_CASES[name] if not obs.bounded else ch.ANCHOR_CASES[name]
        if ch.not_applicable_reason(name, obs):
            anchored = ()
        empty, perfect = {}, {}
        for cid in anchored:
            none, best = self.anchors(cid)
            bad = [(what, o) for what, o in (("the empty prediction", none), ("y_pred = y_true", best)) if not o.ok]
            if bad:
                msg = "; ".join(f"needs {what} on the ground truth of {cid}, which failed ({o.kind}: {o.message})"
                                for what, o in bad)
                return CharacteristicResult(name, None, expectation, UNDETERMINED, None, msg)
            empty[cid], perfect[cid] = none.score, best.score
        obs = ch.Observations(
            scores=scores,
            baseline={c: self.baseline(c) for c in ch.BASELINE_CASES[name]},
            true_events={c: len(self.cases[c].y_true_events) for c in ch.REQUIRED_CASES[name]},
            kind=kind, higher_is_better=decl.higher_is_better, bounds=decl.bounds, empty=empty, perfect=perfect,
        )
        finding = ch.derive(name, obs)
        status = judge(finding.value, expectation)
        return CharacteristicResult(name, finding.value, expectation, status, finding, finding.explanation)

    # -- sanity ----------------------------------------------------------------------------------

    @property
    def sanity_checks(self) -> tuple[str, ...]:
        """The sanity checks of this session: :data:`SANITY_CHECKS`, plus :data:`PROPERTY_SEARCH` when enabled."""
        return SANITY_CHECKS + ((PROPERTY_SEARCH,) if self.hypothesis_examples else ())

    def sanity_result(self, name: str) -> SanityResult:
        """Run sanity check ``name`` (one of :attr:`sanity_checks`; cached).

        - ``perfect``: ``y_pred = y_true`` scores (1, 1, 1) on three ground truths;
        - ``deterministic``: the same input twice gives the same output;
        - ``no_mutation``: the inputs are unchanged after a call (and no case mutated them);
        - ``bool_int``: bool, int8 and int64 inputs give the same result;
        - ``harmonic_f1``: a returned F1 equals 2PR/(P+R) (eq. 1) on every case run so far;
        - ``property-search`` (only with ``hypothesis_examples``): hypothesis finds no input on
          which a model-free property breaks (:func:`oipr_bench.property_search.run_property_search`);
          the message lists each broken property with its shrunk example, one per line.
        """
        if name not in self._sanity:
            check = getattr(self, f"_sanity_{name.replace('-', '_')}", None)
            if check is None or name not in self.sanity_checks:
                raise KeyError(f"unknown sanity check {name!r}; known: {', '.join(self.sanity_checks)}")
            problem = check()
            self._sanity[name] = SanityResult(name, FAILED if problem else PASSED, problem or "")
        return self._sanity[name]

    def _series(self, case_id: str) -> tuple[np.ndarray, np.ndarray]:
        case = self.cases[case_id]
        return case.y_true, case.predictions[0]

    def _sanity_perfect(self) -> str:
        for cid in _PERFECT_CASES:
            y = self.cases[cid].y_true
            out = self.call(y, y)
            if not out.ok:
                return f"y_pred = y_true of {cid}: {out.message}"
            problem = perfect_problem(out.score, out.result_kind, self.declarations, f"y_pred = y_true of {cid}")  # type: ignore[arg-type]
            if problem:
                return problem
        return ""

    def _sanity_discriminates(self) -> str:
        for cid in _PERFECT_CASES[:2]:
            problem = discrimination_problem(self.call, self.cases[cid].y_true, self.kind, self.declarations,
                                             f"the ground truth of {cid}")
            if problem:
                return problem
        return ""

    def _sanity_deterministic(self) -> str:
        for cid in _DETERMINISM_CASES:
            t, p = self._series(cid)
            first, second = self.call(t, p), self.call(t, p)
            if not (first.ok and second.ok):
                bad = first if not first.ok else second
                return f"{cid}: {bad.message}"
            if not all(_same(a, b, 0.0) for a, b in zip(first.score, second.score)):  # type: ignore[arg-type]
                return f"{cid}: two calls on the same input gave {tuple(first.score)} and {tuple(second.score)}"  # type: ignore[arg-type]
        return ""

    def _sanity_no_mutation(self) -> str:
        for cid in _MUTATION_CASES:
            t, p = self._series(cid)
            out = self.call(t, p)
            if out.kind == MUTATED:
                return f"{cid}: {out.message}"
        mutated = [r.case_id for r in self._case_results.values() if r.status == MUTATED]
        if mutated:
            return f"mutated its inputs on case(s) {', '.join(mutated)}"
        return ""

    def _sanity_bool_int(self) -> str:
        for cid in _DTYPE_CASES:
            t, p = self._series(cid)
            outs = {str(np.dtype(d)): self.call(t, p, dtype=d) for d in (np.int8, np.int64, bool)}
            bad = [f"{d}: {o.message}" for d, o in outs.items() if not o.ok]
            if bad:
                return f"{cid}: " + "; ".join(bad)
            scores = {d: o.score for d, o in outs.items()}
            ref = scores["int8"]
            for d, s in scores.items():
                if not all(_same(a, b, SANITY_TOLERANCE) for a, b in zip(s, ref)):  # type: ignore[arg-type]
                    return f"{cid}: {d} input gives {tuple(s)}, int8 input gives {tuple(ref)}"  # type: ignore[arg-type]
        return ""

    def _sanity_harmonic_f1(self) -> str:
        for cid in self.cases:
            self.case_result(cid)
        if self.kind == KIND_SCORE:
            return ""  # one number: there is no (P, R) to check F1 against
        checked = 0
        for r in self._case_results.values():
            if not r.ok or not r.returned_f1:
                continue
            for i, s in enumerate(r.runs if r.runs is not None else (r.score,)):
                checked += 1
                want = f1_from(s.precision, s.recall)  # type: ignore[union-attr]
                if not _same(s.f1, want, 1e-6):  # type: ignore[union-attr]
                    run = f" run {i + 1}" if r.runs is not None else ""
                    return (f"{r.case_id}{run}: F1 = {s.f1!r} but 2PR/(P+R) = {want!r} "  # type: ignore[union-attr]
                            f"(P={s.precision!r}, R={s.recall!r})")  # type: ignore[union-attr]
        return ""

    def _sanity_property_search(self) -> str:
        from .property_search import run_property_search

        n = self.hypothesis_examples
        assert n is not None
        broken = run_property_search(self.resolved.fn, max_examples=n, derandomize=True,
                                     timeout=self.timeout, isolate=self.isolate)
        if not broken:
            return ""
        names = ", ".join(line.split(":", 1)[0] for line in broken)
        return "\n".join([f"broke {names} (searched {n} derandomized examples per property)", *broken])

    # -- reference -------------------------------------------------------------------------------

    def reference_values(self) -> dict[str, Any]:
        """``{case_id: ReferenceValue}`` of the reference evaluator (loaded once)."""
        if self._ref_values is None:
            if self.reference is None:
                raise UsageError("no reference evaluator given (--reference)")
            from .reference import reference_values

            self._ref_values = reference_values(self.reference, **self.reference_params)
        return self._ref_values

    def reference_result(self, case_id: str) -> ReferenceResult:
        """Compare the evaluator's result on ``case_id`` with the reference (cached)."""
        if case_id in self._ref_results:
            return self._ref_results[case_id]
        ref = self.reference_values()[case_id]
        mine = self.case_result(case_id)
        if self.against == "paper":
            from .paper import table_a1

            target = table_a1()[case_id][self.reference]  # type: ignore[index]
            tols = [PAPER_TOLERANCE] * 3
            if ref.stderr is not None:
                tols = [PAPER_TOLERANCE + PAPER_STDERRS * se for se in ref.stderr]
            what = "the paper's Table A1"
        else:
            target = ref.score
            tols = [self.tolerance] * 3
            what = f"the {self.reference} reference"
        if not mine.ok:
            res = ReferenceResult(case_id, FAILED, f"the evaluator failed on this case: {mine.message}", None, target, tols[0])
        else:
            problems = []
            assert mine.score is not None
            for metric, a, b, tol in zip(Score._fields, mine.score, target, tols):
                if self.kind == KIND_SCORE and metric != "f1":
                    continue  # a scalar score is compared with the reference's F1
                if not _same(a, b, tol):
                    problems.append(f"{metric} {a!r} vs {b!r} (|diff| {abs(a - b):.3g} > {tol:.3g})")
            if not problems and self.against == "reference" and ref.runs is not None and mine.runs is not None:
                for i, (s, t) in enumerate(zip(mine.runs, ref.runs)):
                    bad = [m for m, a, b in zip(Score._fields, s, t)
                           if not _same(a, b, self.tolerance) and (self.kind != KIND_SCORE or m == "f1")]
                    if bad:
                        problems.append(f"run {i + 1}: {', '.join(bad)} {tuple(s)} vs {tuple(t)}")
                        break
            status = FAILED if problems else PASSED
            msg = f"differs from {what}: " + "; ".join(problems) if problems else f"matches {what}"
            res = ReferenceResult(case_id, status, msg, mine.score, target, max(tols))
        self._ref_results[case_id] = res
        return res

    # -- all at once -----------------------------------------------------------------------------

    def run_all(self, *, sanity: bool = True) -> "Profile":
        """Run every case, characteristic, sanity check and reference comparison; return the profile."""
        for cid in self.cases:
            self.case_result(cid)
        if sanity:
            for name in self.sanity_checks:
                self.sanity_result(name)
        for name in ch.CHARACTERISTICS:
            self.characteristic_result(name)
        if self.reference is not None:
            for cid in self.cases:
                self.reference_result(cid)
        return self.profile()

    def profile(self) -> "Profile":
        """A :class:`Profile` of what has been run so far."""
        from . import __version__
        from .scenarios import DATASET_VERSION

        order = list(self.cases)
        return Profile(
            evaluator=self.resolved.name,
            params=dict(self.resolved.params),
            case_results={c: self._case_results[c] for c in order if c in self._case_results},
            characteristic_results={n: self._char_results[n] for n in ch.CHARACTERISTICS if n in self._char_results},
            sanity_results={n: self._sanity[n] for n in self.sanity_checks if n in self._sanity},
            reference_results={c: self._ref_results[c] for c in order if c in self._ref_results},
            reference=self.reference_info(),
            options=self.options(),
            package_version=__version__,
            dataset_version=DATASET_VERSION,
            kind=self.kind,
            declarations=self.declarations,
        )

    def reference_info(self) -> dict[str, Any] | None:
        """``{"name", "params", "against", "tolerance"}`` or None without a reference."""
        if self.reference is None:
            return None
        tol = self.tolerance if self.against == "reference" else PAPER_TOLERANCE
        return {"name": self.reference, "params": _jsonable(self.reference_params), "against": self.against, "tolerance": tol}

    def options(self) -> dict[str, Any]:
        """Run options recorded in the report."""
        return {"timeout": self.timeout, "isolate": self.isolate, "hypothesis_examples": self.hypothesis_examples}


def audit(
    evaluator: Any,
    *,
    expect: Mapping[str, Any] | Iterable[str] | None = None,
    timeout: float | None = None,
    isolate: bool = False,
    reference: str | None = None,
    reference_params: Mapping[str, Any] | None = None,
    against: str = "reference",
    tolerance: float = 1e-9,
    sanity: bool = True,
    hypothesis_examples: int | None = None,
    input: str | None = None,
    higher_is_better: bool | None = None,
    bounds: Any = None,
    params: Mapping[str, Any] | None = None,
    **more_params: Any,
) -> Profile:
    """Profile ``evaluator`` on the special-scenario dataset, without pytest.

    Parameters
    ----------
    evaluator : str or callable
        A built-in name (``"OIPR"``), ``"pkg.mod:Name"``, ``"pkg.mod.Name"``, or
        a function, class or instance (see :mod:`oipr_bench.resolve`).
    expect : mapping or iterable of str, optional
        Declared expectations, ``{"fragments_merging": "no"}`` or
        ``["fragments_merging=no"]``; they override the default (OIPR's row).
    timeout, isolate : optional
        Per-call timeout in seconds and process isolation (see :class:`oipr_bench.runner.Caller`).
    reference, reference_params, against, tolerance : optional
        Compare every case with a built-in evaluator's reference values.
    sanity : bool
        Run the sanity checks (default True).
    hypothesis_examples : int, optional
        Also run the ``property-search`` sanity check with this many examples per property.
    input : {"binary", "scores"}, optional
        What the evaluator takes; ``"scores"`` hands ``y_pred`` over as float64
        (the 0/1 prediction as 0.0/1.0).  Default: its ``input_kind`` attribute, else binary.
    higher_is_better : bool, optional
        Orientation of a scalar score.  Default: its ``higher_is_better`` attribute, else True.
    bounds : (lo, hi), optional
        Range of a scalar score, either end None for open.  Default: its ``bounds``
        attribute, else (0, 1).  See docs/scalar-metrics.md.
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
        The evaluator cannot be resolved, or an expectation or option is invalid.
    """
    resolved = evaluator if isinstance(evaluator, Resolved) else resolve(evaluator, {**dict(params or {}), **more_params})
    declared = expectations_from(expect, "expect") if expect is not None else {}
    with AuditSession(
        resolved,
        expectations=declared,
        timeout=timeout,
        isolate=isolate,
        reference=reference,
        reference_params=reference_params,
        against=against,
        tolerance=tolerance,
        hypothesis_examples=hypothesis_examples,
        timeout_option="audit(timeout=...)",
        input_kind=input,
        higher_is_better=higher_is_better,
        bounds=bounds,
        declaration_source="audit()",
    ) as session:
        return session.run_all(sanity=sanity)
