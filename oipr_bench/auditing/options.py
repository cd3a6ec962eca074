"""The options of an audit, checked once for every front end.

:func:`oipr_bench.audit`, the pytest plugin (``pytest --evaluator=...``) and
``oipr-bench audit`` all describe a run with one :class:`AuditOptions`.  Its
checks raise :class:`OptionError`, whose message names the *Python* parameter
(``timeout``, ``against``, ...); a front end re-phrases it with its own flag
names through :meth:`OptionError.phrased` and a mapping such as
:data:`CLI_FLAGS`, so a rule written here applies to all three alike.

Examples
--------
>>> AuditOptions(timeout=2.0).timeout
2.0
>>> try:
...     AuditOptions(against="paper")
... except OptionError as exc:
...     print(exc, "|", exc.phrased(CLI_FLAGS))
against needs reference | --against needs --reference
"""

from __future__ import annotations

import math
import numbers
import os
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from ..errors import UsageError
from .expectations import Expectation, declared_expectations, expectations_from
from .option_names import CLI_FLAGS, PLUGIN_FLAGS, OptionError
from .calling.runner import MAX_TIMEOUT
from .table5.chance import CHANCE_DRAWS, MIN_CHANCE_DRAWS
from ..vocabulary import SUITE_ALL, SUITE_TABLE5, SUITES

__all__ = [
    "AuditOptions",
    "OptionError",
    "AGAINST",
    "DEFAULT_AGAINST",
    "DEFAULT_TOLERANCE",
    "PAPER_TOLERANCE",
    "PAPER_STDERRS",
    "CLI_FLAGS",
    "PLUGIN_FLAGS",
    "declared_expectations",
]

#: What a reference comparison compares with: the reference values, or the paper's printed Table A1.
AGAINST: tuple[str, ...] = ("reference", "paper")
DEFAULT_AGAINST = "reference"
#: Default absolute tolerance of a comparison with the reference values.
DEFAULT_TOLERANCE = 1e-9
#: ``against="paper"``: half a unit in the 4th decimal the paper prints.
PAPER_TOLERANCE = 5e-5
#: ``against="paper"`` on a random-detector case: this many standard errors of the 100-run mean, on top.
PAPER_STDERRS = 3.0

#: Most ``hypothesis_examples`` per property: beyond this a search is hours long, never a check.
MAX_HYPOTHESIS_EXAMPLES = 100_000

#: Most ``random_runs``: a random-detector case holds 100 runs (Appendix A).
MAX_RANDOM_RUNS = 100

def _is_real(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


#: Seconds the shrinking of one counterexample may take (``shrink_budget``).
DEFAULT_SHRINK_BUDGET = 30.0
#: Seed of the generated pairs when none is given.
DEFAULT_SEED = 0
#: Most generated pairs per family (``differential``): beyond this a run is hours long, never a check.
MAX_DIFFERENTIAL = 100_000


def checked_options(n: Any, seed: Any, budget: Any,
                    reference: str | None) -> tuple[int | None, int | None, float | None, tuple[str, ...] | None]:
    """``differential``, ``seed`` and ``shrink_budget`` of :class:`~oipr_bench.auditing.options.AuditOptions`, checked.

    Returns them normalised (``differential=0`` is None: off; with it on, a seed or budget not
    given is :data:`DEFAULT_SEED` or :data:`DEFAULT_SHRINK_BUDGET`) and the problem, if any, as
    the arguments of an :class:`~oipr_bench.auditing.options.OptionError` (a template naming
    ``{parameter}``s, then the parameters, the one at fault first), else None.
    """
    def whole(x: Any) -> bool:
        return isinstance(x, numbers.Integral) and not isinstance(x, bool) and x >= 0

    def problem(*args: str) -> tuple[None, None, None, tuple[str, ...]]:
        return None, None, None, args

    if n is not None and not whole(n):
        return problem(f"{{differential}} must be 0 (off) or a positive number of pairs per family, got {n!r}",
                       "differential")
    if n is not None and n > MAX_DIFFERENTIAL:
        return problem(f"{{differential}} must be at most {MAX_DIFFERENTIAL} pairs per family, got {n!r}", "differential")
    n = None if n is None else int(n) or None
    for name, value in (("seed", seed), ("shrink_budget", budget)):
        if value is not None and n is None:
            return problem(f"{{{name}}} needs {{differential}}", name, "differential")
    if n is not None and reference is None:
        return problem("{differential} needs {reference} (the evaluator to compare with)", "differential", "reference")
    if seed is not None and not whole(seed):
        return problem(f"{{seed}} must be a non-negative integer, got {seed!r}", "seed")
    real = isinstance(budget, numbers.Real) and not isinstance(budget, bool)
    if budget is not None and not (real and float(budget) >= 0 and math.isfinite(float(budget))):
        return problem(f"{{shrink_budget}} must be a non-negative number of seconds, got {budget!r}", "shrink_budget")
    if budget is not None and float(budget) > MAX_TIMEOUT:
        return problem(f"{{shrink_budget}} must be at most {MAX_TIMEOUT:g} seconds (one week), got {budget!r}",
                       "shrink_budget")
    if n is None:
        return None, None, None, None
    return (n, DEFAULT_SEED if seed is None else int(seed), DEFAULT_SHRINK_BUDGET if budget is None else float(budget),
            None)


@dataclass(frozen=True)
class AuditOptions:
    """How an audit runs (everything but the evaluator itself).

    Attributes
    ----------
    timeout : float or None
        Seconds per evaluator call (the calls then run in a worker process);
        a positive finite number.
    isolate : bool
        Run every call in a worker process.
    reference : str or None
        A built-in evaluator whose reference values every case is compared with; a score evaluator
        (:data:`~oipr_bench.evaluators.SCORE_NAMES`) too (its stored numbers), and on the score families
        with ``differential``; or a one-number evaluator of 0/1 predictions
        (:data:`~oipr_bench.evaluators.NUMBER_NAMES`: NAB), computed on every case and compared on the
        binary families.
    reference_params : dict
        Its parameters (only with ``reference``).
    against : {"reference", "paper"} or None
        Compare with the reference values (within ``tolerance``) or with the
        paper's printed Table A1 (:data:`PAPER_TOLERANCE`, plus
        :data:`PAPER_STDERRS` standard errors on a random case).  Only with
        ``reference``; None means :data:`DEFAULT_AGAINST`.
    tolerance : float or None
        Absolute tolerance of the comparison with the reference values; only
        with ``reference``; None means :data:`DEFAULT_TOLERANCE`.
    hypothesis_examples : int or None
        Run the ``property-search`` sanity check with this many examples per
        property; None or 0: off.
    sanity : bool
        Run the sanity checks.
    expectations : dict of str to Expectation
        Declared expectations (validated by :mod:`oipr_bench.auditing.expectations`).
    input_kind : {"binary", "scores"} or None
        What the evaluator takes; None: its ``input_kind`` attribute, else binary
        (:mod:`oipr_bench.auditing.calling.declarations`).
    higher_is_better : bool or None
        Orientation of a scalar score; None: its attribute, else True.
    bounds : (lo, hi), "LO:HI" or None
        Range of a scalar score (an end None or empty for open); None: its
        attribute, else (0, 1).  Stored as a pair of floats (open = +-inf).
    suite : {"table5", "properties", "all"} or None
        What to run besides the sanity checks: the paper's Table 5 (cases and
        characteristics; the default for a metric taking 0/1 predictions), the
        metric properties (:mod:`oipr_bench.auditing.properties.run`), or both (the
        default for a metric taking scores, so a score run exercises scores).
    differential, seed, shrink_budget : int, int, float or None
        With ``reference``: compare with it on ``differential`` generated pairs per family, seeded by
        ``seed`` (default 0), shrinking for at most ``shrink_budget`` s (default 30); see
        :mod:`oipr_bench.auditing.regression.differential`.  ``differential`` None or 0: off (and no seed or budget).
    cases : path or None
        A file of the user's own cases in the dataset's scenario format (:mod:`oipr_bench.scenarios.loader`).
    random_runs : int or None
        A reduced audit: each random-detector case (Appendix A: 100 runs) is scored on its first
        ``random_runs`` runs only, and its mean is over those.  None: every run.  Not with
        ``reference`` (the reference values average every run).
    chance_draws : int or None
        A reduced audit: each chance anchor of a metric taking scores (:mod:`oipr_bench.auditing.table5.chance`)
        is its mean over the first ``chance_draws`` of the 10 seeded uniform-random score series (2 to 10).
        None: all 10.  Not with ``reference`` (its expected profile reads every draw).

    Raises
    ------
    OptionError
        On construction, naming the parameter at fault.
    """

    timeout: float | None = None
    isolate: bool = False
    reference: str | None = None
    reference_params: Mapping[str, Any] = field(default_factory=dict)
    against: str | None = None
    tolerance: float | None = None
    hypothesis_examples: int | None = None
    sanity: bool = True
    expectations: Mapping[str, Expectation] = field(default_factory=dict)
    input_kind: str | None = None
    higher_is_better: bool | None = None
    bounds: Any = None
    suite: str | None = None
    differential: int | None = None
    seed: int | None = None
    shrink_budget: float | None = None
    cases: Any = None
    random_runs: int | None = None
    chance_draws: int | None = None
    profile_only: bool = False

    def __post_init__(self) -> None:
        self._check_timeout()
        for name in ("isolate", "sanity", "profile_only"):
            if not isinstance(getattr(self, name), bool):
                raise OptionError(f"{{{name}}} must be True or False, got {getattr(self, name)!r}", name)
        self._check_hypothesis_examples()
        self._check_reference()
        self._check_differential()
        self._check_declarations()
        self._check_reduction("random_runs", "runs", 1, MAX_RANDOM_RUNS,
                              "the reference values average every run of a random-detector case")
        self._check_reduction("chance_draws", "draws", MIN_CHANCE_DRAWS, CHANCE_DRAWS,
                              "the reference's expected profile reads every chance draw")
        if self.profile_only:  # observed values only: an expected row would never be compared
            for name, given in (("expect", bool(self.expectations)), ("reference", self.reference is not None)):
                if given:
                    raise OptionError(f"{{profile_only}} reads no expected row; drop {{{name}}} (or {{profile_only}})",
                                      "profile_only", name)
        if self.suite is not None and self.suite not in SUITES:
            raise OptionError(f"{{suite}} must be one of {', '.join(SUITES)}, got {self.suite!r}", "suite")

    # -- checks ------------------------------------------------------------------------------------

    def _check_timeout(self) -> None:
        t = self.timeout
        if t is None:
            return
        if not _is_real(t) or not (float(t) > 0 and math.isfinite(float(t))):
            raise OptionError(f"{{timeout}} must be a positive number of seconds, got {t!r}", "timeout")
        if float(t) > MAX_TIMEOUT:
            raise OptionError(f"{{timeout}} must be at most {MAX_TIMEOUT:g} seconds (one week), got {t!r}", "timeout")
        object.__setattr__(self, "timeout", float(t))

    def _check_hypothesis_examples(self) -> None:
        n = self.hypothesis_examples
        if n is None:
            return
        if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 0:
            raise OptionError(f"{{hypothesis_examples}} must be 0 (off) or a positive integer, got {n!r}",
                              "hypothesis_examples")
        if n > MAX_HYPOTHESIS_EXAMPLES:
            raise OptionError(f"{{hypothesis_examples}} must be at most {MAX_HYPOTHESIS_EXAMPLES}, got {n!r}",
                              "hypothesis_examples")
        object.__setattr__(self, "hypothesis_examples", int(n) or None)

    def _check_reduction(self, name: str, unit: str, lo: int, hi: int, why: str) -> None:
        """A reduced audit's ``random_runs``/``chance_draws``: a whole number from lo to hi, never with a reference."""
        k = getattr(self, name)
        if k is None:
            return
        if isinstance(k, bool) or not isinstance(k, numbers.Integral) or not lo <= k <= hi:
            raise OptionError(f"{{{name}}} must be a whole number of {unit} from {lo} to {hi}, got {k!r}", name)
        if self.reference is not None:
            raise OptionError(f"{{{name}}} cannot be combined with {{reference}}: {why}", name, "reference")
        object.__setattr__(self, name, int(k))

    def _check_reference(self) -> None:
        for name in ("against", "tolerance"):
            if getattr(self, name) is not None and self.reference is None:
                raise OptionError(f"{{{name}}} needs {{reference}}", name, "reference")
        if not isinstance(self.reference_params, Mapping):
            raise OptionError(f"{{reference_params}} must be a mapping, got {self.reference_params!r}", "reference_params")
        if self.reference_params and self.reference is None:
            raise OptionError("{reference_params} needs {reference}", "reference_params", "reference")
        if self.reference is None:
            return
        if self.against is not None and self.against not in AGAINST:
            raise OptionError(f"{{against}} must be 'reference' or 'paper', got {self.against!r}", "against")
        if self.against == "paper" and self.tolerance is not None:
            raise OptionError(f"{{tolerance}} does not apply with {{against}} paper: Table A1 is compared within "
                              f"{PAPER_TOLERANCE:g} (half a unit of its 4th decimal); drop {{tolerance}}",
                              "tolerance", "against")
        tol = self.tolerance
        if tol is not None and (not _is_real(tol) or not (float(tol) >= 0 and math.isfinite(float(tol)))):
            raise OptionError(f"{{tolerance}} must be a non-negative number, got {tol!r}", "tolerance")
        if tol is not None:
            object.__setattr__(self, "tolerance", float(tol))
        object.__setattr__(self, "reference_params", self._reference_evaluator_params())

    def _check_differential(self) -> None:
        n, seed, budget, problem = checked_options(self.differential, self.seed, self.shrink_budget, self.reference)
        if problem:
            raise OptionError(*problem)
        if self.cases is not None and not isinstance(self.cases, (str, os.PathLike)):
            raise OptionError(f"{{cases}} must be the path of a case file, got {type(self.cases).__name__}", "cases")
        object.__setattr__(self, "differential", n)
        object.__setattr__(self, "seed", seed)
        object.__setattr__(self, "shrink_budget", budget)

    def _reference_evaluator_params(self) -> dict[str, Any]:
        from ..evaluators import NAMES, NUMBER_NAMES, SCORE_NAMES, get
        from ..jsondata import jsonable

        if self.reference not in NAMES + SCORE_NAMES + NUMBER_NAMES:
            raise OptionError(f"{{reference}}: unknown evaluator {self.reference!r}; built-in evaluators are "
                              f"{', '.join(NAMES + SCORE_NAMES + NUMBER_NAMES)}", "reference")
        if self.against == "paper" and self.reference not in NAMES:
            raise OptionError(f"{{against}} paper: {self.reference} has no row in Table A1; drop {{against}}", "against")
        try:
            params = dict(get(self.reference, **self.reference_params).params)
        except (TypeError, ValueError) as exc:
            raise OptionError(f"{{reference_params}}: {exc}", "reference_params") from None
        if self.against == "paper" and jsonable(params) != jsonable(get(self.reference).params):
            raise OptionError(
                "{against}=paper compares with Table A1, which uses the paper's Table 3 parameters; "
                "drop {reference_params}",
                "against",
                "reference_params",
            )
        return params

    def _check_declarations(self) -> None:
        from .calling.declarations import parse_bounds
        from .calling.coerce import normalise_bounds
        from .calling.runner import INPUT_KINDS

        if self.input_kind is not None and self.input_kind not in INPUT_KINDS:
            raise OptionError(f"{{input_kind}} must be one of {', '.join(INPUT_KINDS)}, got {self.input_kind!r}",
                              "input_kind")
        if self.higher_is_better is not None and not isinstance(self.higher_is_better, bool):
            raise OptionError(f"{{higher_is_better}} must be True or False, got {self.higher_is_better!r}",
                              "higher_is_better")
        if self.bounds is None:
            return
        try:
            pair = parse_bounds(self.bounds, where="") if isinstance(self.bounds, str) else normalise_bounds(self.bounds)
        except (ValueError, UsageError) as exc:
            raise OptionError(f"{{bounds}}: {str(exc).lstrip(': ')}", "bounds") from None
        object.__setattr__(self, "bounds", pair)

    # -- effective values --------------------------------------------------------------------------

    @property
    def comparison(self) -> str:
        """What the reference comparison compares with (``against`` or its default)."""
        return self.against or DEFAULT_AGAINST

    @property
    def comparison_tolerance(self) -> float:
        """The tolerance of the comparison with the reference values (``tolerance`` or its default)."""
        return DEFAULT_TOLERANCE if self.tolerance is None else self.tolerance

    def suite_for(self, input_kind: str) -> str:
        """The suite in force: ``suite``, else ``all`` for a metric taking scores and ``table5`` otherwise."""
        if self.suite is not None:
            return self.suite
        return SUITE_ALL if input_kind == "scores" else SUITE_TABLE5

    def recorded(self, input_kind: str = "binary") -> dict[str, Any]:
        """The run options a report records (``options`` in ``schema/report.schema.json``)."""
        out: dict[str, Any] = {"timeout": self.timeout, "isolate": self.isolate,
                               "hypothesis_examples": self.hypothesis_examples, "suite": self.suite_for(input_kind)}
        if self.differential is not None:
            out.update(differential=self.differential, seed=self.seed, shrink_budget=self.shrink_budget)
        if self.cases is not None:
            out["cases"] = os.path.abspath(os.fspath(self.cases))
        out.update({name: getattr(self, name) for name in ("random_runs", "chance_draws") if getattr(self, name) is not None})
        if not self.sanity:
            out["sanity"] = False
        if self.profile_only:
            out["profile_only"] = True
        return out


def options_from_flags(values: Mapping[str, Any], flags: Mapping[str, str]) -> AuditOptions:
    """The :class:`AuditOptions` of a front end's parsed flags (the CLI's or the plugin's).

    ``values`` holds the flag values under the field names of :class:`AuditOptions`, except
    ``expect``/``expect_file`` (``--expect`` items and an expectation file), ``reference_param``
    (``KEY=VALUE`` strings) and ``lower_is_better`` (a switch). An :class:`OptionError` is re-worded
    with ``flags`` (:data:`CLI_FLAGS` or :data:`PLUGIN_FLAGS`), so one rule serves both front ends.
    """
    from .expectations import load_expect_file
    from .calling.resolve import parse_params

    fields = dict(values)
    expect_file = fields.pop("expect_file", None)
    declared = load_expect_file(expect_file) if expect_file else {}
    for name, given in expectations_from(fields.pop("expect", None) or [], "--expect").items():
        if name in declared and set(declared[name].values) != set(given.values):
            raise UsageError(f"--expect {name}={'|'.join(given.values)} contradicts {declared[name].source}, which "
                             f"declares {name}={'|'.join(declared[name].values)}; declare it once")
        declared[name] = given
    reference_param = fields.pop("reference_param", None)
    lower_is_better = fields.pop("lower_is_better", False)
    try:
        return AuditOptions(
            **fields,
            reference_params=parse_params(reference_param, option="--reference-param"),
            expectations=declared,
            higher_is_better=False if lower_is_better else None,
        )
    except OptionError as exc:
        raise UsageError(exc.phrased(flags)) from None
