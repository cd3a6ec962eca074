"""A hypothesis search for broken model-free properties of any P/R/F1 evaluator.

The special-scenario cases test an evaluator on 25 hand-made layouts;
:func:`run_property_search` looks for *any* small input on which it breaks
one of the properties every precision/recall/F1 evaluator should have,
whatever its definition:

``valid_result``
    On any valid pair of 0/1 series of equal length it returns a readable
    result (``(P, R, F1)``, ``(P, R)``, a mapping or an object, see
    :func:`oipr_bench.auditing.calling.runner.coerce_result`) without raising, with every
    value in ``[0, 1]``; NaN only where it is a documented 0/0 (precision
    when nothing is predicted, recall when nothing is anomalous:
    :func:`oipr_bench.auditing.calling.runner.check_range`).
``perfect_prediction``
    ``y_pred = y_true`` with at least one anomaly scores P = R = F1 = 1
    (within 1e-9): the ideal detector of the paper's Sec. II.
``deterministic``
    The same input twice gives the same result (NaN equals NaN).
``no_mutation``
    The evaluator does not modify the arrays it is given.

Each property is searched separately (so one broken property does not hide
another) with derandomized generation by default, and a failing example is
shrunk by hypothesis to a minimal one before it is reported.

Examples
--------
>>> from oipr_bench.auditing.properties.search import run_property_search
>>> def naive_pw(y_true, y_pred):
...     tp = int((y_true & y_pred).sum())
...     return tp / int(y_pred.sum()), tp / int(y_true.sum())  # ZeroDivisionError on all-zero series
>>> failures = run_property_search(naive_pw, max_examples=50)
>>> failures[0]
'valid_result: raised ZeroDivisionError: division by zero (example: T=1, y_true events [], y_pred events [])'
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

import numpy as np
from hypothesis import HealthCheck, Phase, Verbosity, given, settings

from ... import vocabulary
from ...scenarios.events import events_list
from ..table5.readings import KIND_SCORE
from ..calling.runner import MUTATED, OK, CRASHED, TIMED_OUT, CallOutcome, Caller
from ...testing.strategies import DEFAULT_MAX_SIZE, binary_series, series_pairs

__all__ = ["PROPERTIES", "PropertyFailure", "find_property_failures", "run_property_search"]

#: The properties searched, in the order they are reported.
PROPERTIES: tuple[str, ...] = vocabulary.PROPERTIES

#: Tolerance of the perfect-prediction check.
PERFECT_TOL = 1e-9

#: How many events of a failing example are printed.
_SHOW_EVENTS = 8


@dataclass(frozen=True)
class PropertyFailure:
    """A property an evaluator breaks, with the (shrunk) input that shows it.

    Attributes
    ----------
    property : str
        One of :data:`PROPERTIES`.
    message : str
        What went wrong on that input.
    length : int
        Series length ``T`` of the example.
    y_true, y_pred : list of [start, end]
        The example's events (half-open intervals).
    """

    property: str
    message: str
    length: int
    y_true: list[list[int]]
    y_pred: list[list[int]]

    def __str__(self) -> str:
        return (
            f"{self.property}: {self.message} "
            f"(example: T={self.length}, y_true events {_short(self.y_true)}, y_pred events {_short(self.y_pred)})"
        )


def _short(events: list[list[int]]) -> str:
    if len(events) <= _SHOW_EVENTS:
        return str(events)
    return str(events[:_SHOW_EVENTS])[:-1] + f", ... ({len(events)} events)]"


class _Violation(AssertionError):
    """Raised inside the hypothesis test; carries the failure it describes."""

    def __init__(self, failure: PropertyFailure) -> None:
        super().__init__(str(failure))
        self.failure = failure


class _Fatal:
    """Remembers a hang or a dead worker: later calls are not attempted again."""

    def __init__(self) -> None:
        self.failure: PropertyFailure | None = None


def _failure(prop: str, message: str, y_true: np.ndarray, y_pred: np.ndarray) -> PropertyFailure:
    return PropertyFailure(prop, message, int(y_true.shape[0]), events_list(y_true), events_list(y_pred))


def _same(a: CallOutcome, b: CallOutcome) -> bool:
    if a.kind != b.kind:
        return False
    if a.score is None or b.score is None:
        return a.score is b.score
    return all((math.isnan(x) and math.isnan(y)) or x == y for x, y in zip(a.score, b.score))


def _describe(outcome: CallOutcome) -> str:
    if outcome.kind == OK and outcome.score is not None:
        p, r, f = outcome.score
        return f"({p!r}, {r!r}, {f!r})"
    return f"{outcome.kind}: {outcome.message}"


def _check(prop: str, call: Callable[[np.ndarray, np.ndarray], CallOutcome], y_true: np.ndarray, y_pred: np.ndarray,
           fatal: _Fatal) -> None:
    """Check one property on one example; raise :class:`_Violation` when it is broken."""
    if fatal.failure is not None:
        raise _Violation(fatal.failure)

    def called() -> CallOutcome:
        outcome = call(y_true, y_pred)
        if outcome.kind in (TIMED_OUT, CRASHED):
            fatal.failure = _failure(prop, outcome.message, y_true, y_pred)
            raise _Violation(fatal.failure)
        return outcome

    outcome = called()
    if prop == vocabulary.VALID_RESULT:
        if outcome.kind not in (OK, MUTATED):
            raise _Violation(_failure(prop, outcome.message, y_true, y_pred))
    elif prop == vocabulary.PERFECT_PREDICTION:
        if outcome.kind != OK:
            raise _Violation(_failure(prop, f"on y_pred = y_true: {outcome.message}", y_true, y_pred))
        # a scalar score is Score(nan, nan, value): only its value must be the best, 1
        values = outcome.score[2:] if outcome.result_kind == KIND_SCORE else outcome.score
        if any(not abs(v - 1.0) <= PERFECT_TOL for v in values):
            raise _Violation(_failure(prop, f"y_pred = y_true scores {_describe(outcome)}, expected (1, 1, 1)",
                                      y_true, y_pred))
    elif prop == vocabulary.DETERMINISTIC:
        again = called()
        if not _same(outcome, again):
            raise _Violation(_failure(prop, f"the same input gave {_describe(outcome)}, then {_describe(again)}",
                                      y_true, y_pred))
    elif prop == vocabulary.NO_MUTATION:
        if outcome.kind == MUTATED:
            raise _Violation(_failure(prop, outcome.message, y_true, y_pred))
    else:  # pragma: no cover - guarded by find_property_failures
        raise ValueError(f"unknown property {prop!r}")


def _search(prop: str, call: Callable[[np.ndarray, np.ndarray], CallOutcome], strategy: Any, cfg: settings,
            fatal: _Fatal) -> PropertyFailure | None:
    """Run one hypothesis search; return the shrunk failure or None."""
    last: list[PropertyFailure] = []

    if prop == vocabulary.PERFECT_PREDICTION:
        @cfg
        @given(strategy)
        def test(y: np.ndarray) -> None:
            try:
                _check(prop, call, y, y.copy(), fatal)
            except _Violation as exc:
                last.append(exc.failure)
                raise
    else:
        @cfg
        @given(strategy)
        def test(pair: tuple[np.ndarray, np.ndarray]) -> None:
            try:
                _check(prop, call, pair[0], pair[1], fatal)
            except _Violation as exc:
                last.append(exc.failure)
                raise

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            test()
        except _Violation as exc:
            return fatal.failure or exc.failure
        except Exception:  # hypothesis' Flaky/FlakyFailure: the evaluator is not reproducible
            if fatal.failure is not None:
                return fatal.failure
            if last:
                first = last[0]
                return PropertyFailure(prop, first.message + " (and not reproducibly: the evaluator is flaky)",
                                       first.length, first.y_true, first.y_pred)
            raise
    return None


def find_property_failures(
    evaluator: Callable[[Any, Any], Any],
    *,
    max_examples: int = 100,
    derandomize: bool = True,
    max_size: int = DEFAULT_MAX_SIZE,
    properties: Sequence[str] = PROPERTIES,
    timeout: float | None = None,
    isolate: bool = False,
) -> list[PropertyFailure]:
    """Search for inputs on which ``evaluator`` breaks a model-free property.

    Parameters
    ----------
    evaluator : callable
        ``evaluator(y_true, y_pred)`` with int8 0/1 arrays; any result
        :func:`oipr_bench.auditing.calling.runner.coerce_result` accepts.
    max_examples : int, default 100
        Examples tried per property (before shrinking).
    derandomize : bool, default True
        Use a fixed seed, so two runs try the same examples (reproducible).
    max_size : int, default 64
        Largest series length tried.
    properties : sequence of str
        A subset of :data:`PROPERTIES`.
    timeout : float, optional
        Seconds a single call may take; the first call over it ends the
        search of that property and is reported (runs the evaluator in a
        worker process, see :class:`oipr_bench.auditing.calling.runner.Caller`).
    isolate : bool, default False
        Run the calls in a worker process, so a crashing evaluator is
        reported instead of ending the interpreter.

    Returns
    -------
    list of PropertyFailure
        At most one per property, in :data:`PROPERTIES` order; empty when
        nothing was found.

    Raises
    ------
    ValueError
        For an unknown property name or a ``max_examples`` below 1.
    """
    unknown = [p for p in properties if p not in PROPERTIES]
    if unknown:
        raise ValueError(f"unknown propert{'y' if len(unknown) == 1 else 'ies'} {', '.join(map(repr, unknown))}; "
                         f"choose from {', '.join(PROPERTIES)}")
    if isinstance(max_examples, bool) or not isinstance(max_examples, int) or max_examples < 1:
        raise ValueError(f"max_examples must be a positive integer, got {max_examples!r}")
    cfg = settings(
        max_examples=max_examples,
        derandomize=bool(derandomize),
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        phases=(Phase.explicit, Phase.generate, Phase.shrink),
        report_multiple_bugs=False,
        print_blob=False,
        verbosity=Verbosity.quiet,
    )
    pairs = series_pairs(1, max_size)
    perfect = binary_series(1, max_size, min_events=1)
    failures: list[PropertyFailure] = []
    with Caller(evaluator, timeout=timeout, isolate=isolate) as caller:
        fatal = _Fatal()
        for prop in PROPERTIES:
            if prop not in properties:
                continue
            if fatal.failure is not None:
                break  # a hang or a crash: do not spend one timeout per remaining property
            found = _search(prop, caller, perfect if prop == vocabulary.PERFECT_PREDICTION else pairs, cfg, fatal)
            if found is not None:
                failures.append(found)
    return failures


def run_property_search(
    evaluator: Callable[[Any, Any], Any],
    max_examples: int = 100,
    derandomize: bool = True,
    **options: Any,
) -> list[str]:
    """Search for broken model-free properties; return one line per broken property.

    A thin wrapper of :func:`find_property_failures` (same parameters) whose
    result is a list of strings such as ``"deterministic: the same input gave
    (0.5, 1.0, 0.667), then (0.25, 1.0, 0.4) (example: T=3, y_true events
    [[0, 1]], y_pred events [[0, 2]])"``.  An empty list means no failure was
    found in ``max_examples`` examples per property.
    """
    return [str(f) for f in find_property_failures(evaluator, max_examples=max_examples, derandomize=derandomize,
                                                   **options)]


def describe(failures: Iterable[PropertyFailure | str]) -> str:
    """Join failures into one text block (one line each)."""
    return "\n".join(str(f) for f in failures)
