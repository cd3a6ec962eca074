"""Differential runs: an evaluator against a reference on generated series pairs.

With ``reference=NAME`` and ``differential=N`` an audit calls the user's evaluator
and the built-in ``NAME`` on the first ``N`` pairs of every family of
:mod:`oipr_bench.testing.families` (derandomized by ``seed``).  The first pair on
which they differ (any of P, R, F1 beyond the tolerance, or a failed call) is
shrunk by :func:`oipr_bench.auditing.regression.shrink.shrink` within ``shrink_budget``
seconds, and the result names the family, the pair, both outputs, the
difference, and a one-line reproduction to paste into a test.

A scalar evaluator (one number) is compared on F1 only, as in
:mod:`oipr_bench.auditing.profile.comparison`.  A one-number reference
(:data:`oipr_bench.evaluators.NUMBER_NAMES`: NAB) is the same path: its number is
``Score(nan, nan, value)``, compared with the evaluator's one number on the same
generated 0/1 pairs, within the tolerance up to magnitude 1 and the tolerance times the value's
magnitude beyond (:func:`one_number_tolerance`: NAB's score has no lower bound).  NaN agrees with
NaN only (NAB's NaN on a series without a window equals the evaluator's NaN there; a number
there is a difference).  A result
outside its range (a ``bad_result`` with a value) that equals the reference's is
no difference (the published TaPR's precision can exceed 1 by up to 0.00247,
docs/deviations.md); the sanity checks judge the range.
"""

from __future__ import annotations

import math
import numbers
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from ...evaluators.score import Score
from ...testing.families import MAX_EVENTS, family_pairs, scales_of, series_of
from ...vocabulary import BAD_RESULT, FAILED, OK, PASSED
from ..table5.readings import KIND_SCORE
from ..calling.runner import CallOutcome
from ..options import DEFAULT_SEED, DEFAULT_SHRINK_BUDGET, MAX_DIFFERENTIAL, checked_options
from ..progress import drop_from_total
from .shrink import Pair, shrink
from .score_differential import NOT_CONFIRMED, RECONFIRM, ScoreDisagreement

__all__ = ["Disagreement", "DifferentialResult", "run_family", "reproduction", "reconfirm", "RECONFIRM", "one_number_tolerance",
           "DEFAULT_SHRINK_BUDGET",
           "DEFAULT_SEED", "MAX_DIFFERENTIAL", "show_events", "checked_options", "run_configured"]

#: Events shown in a message before "... N more".
SHOWN_EVENTS = 12

Call = Callable[[np.ndarray, np.ndarray], CallOutcome]
Reference = Callable[[np.ndarray, np.ndarray], Sequence[float]]


def show_events(events: Sequence[Sequence[int]]) -> str:
    """An event list for a message, cut after :data:`SHOWN_EVENTS` events."""
    shown = ", ".join(f"[{s}, {e}]" for s, e in events[:SHOWN_EVENTS])
    more = f", ... {len(events) - SHOWN_EVENTS} more" if len(events) > SHOWN_EVENTS else ""
    return f"[{shown}{more}]"


def reproduction(pair: Pair) -> str:
    """One line that rebuilds ``pair`` as ``y_true, y_pred`` (to paste into a test)."""
    t = [[int(s), int(e)] for s, e in pair.y_true_events]
    p = [[int(s), int(e)] for s, e in pair.y_pred_events]
    return (f"from oipr_bench.scenarios.events import from_events; "
            f"y_true, y_pred = from_events({t}, {pair.length}), from_events({p}, {pair.length})")


def _within(a: float, b: float, tol: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= tol


@dataclass(frozen=True)
class Disagreement:
    """The two evaluators on one pair: both outputs and what differs.

    Attributes
    ----------
    pair : Pair
    mine : Score or None
        The evaluator's result (None when the call failed).
    reference : Score
        The reference's result.
    problem : str
        What differs (``"precision 0.5 vs 0.6 (|diff| 0.1 > 1e-09)"``), or the failed call; ``""`` if none.
    one_number : bool
        The reference returns one number (NAB): both outputs are shown as that number.
    """

    pair: Pair
    mine: Score | None
    reference: Score
    problem: str
    one_number: bool = False

    def lines(self, name: str) -> list[str]:
        """The pair, both outputs and the difference, for a failure message."""
        p = self.pair
        out = [f"length {p.length}, y_true events {show_events(p.y_true_events)}, "
               f"y_pred events {show_events(p.y_pred_events)}"]
        shown = _one if self.one_number else _triple
        mine = "failed" if self.mine is None else shown(self.mine)
        out.append(f"evaluator {mine}; {name} {shown(self.reference)}; {self.problem}")
        return out

    def to_dict(self) -> dict[str, Any]:
        from ...jsondata import number

        return {"length": self.pair.length, "y_true_events": self.pair.y_true_events,
                "y_pred_events": self.pair.y_pred_events,
                "mine": None if self.mine is None else [number(v) for v in self.mine],
                "reference": [number(v) for v in self.reference], "problem": self.problem,
                **({"one_number": True} if self.one_number else {})}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Disagreement":
        from ...jsondata import unnumber

        mine = d.get("mine")
        return cls(Pair(int(d["length"]), [list(e) for e in d["y_true_events"]], [list(e) for e in d["y_pred_events"]]),
                   None if mine is None else Score(*(unnumber(v) for v in mine)),
                   Score(*(unnumber(v) for v in d["reference"])), d.get("problem", ""), bool(d.get("one_number", False)))


def _triple(s: Sequence[float]) -> str:
    return "(" + ", ".join(f"{v:.10g}" for v in s) + ")"


def _one(s: Sequence[float]) -> str:
    return f"{s[2]:.10g}"


def reference_score(reference: Callable[[np.ndarray, np.ndarray], Any], y_true: np.ndarray,
                    y_pred: np.ndarray) -> tuple[Score, bool]:
    """The reference's result as a Score, and whether it is one number (NAB: ``Score(nan, nan, value)``)."""
    out = reference(y_true, y_pred)
    if isinstance(out, numbers.Real):
        return Score(math.nan, math.nan, float(out)), True
    return Score(*(float(v) for v in out)), False


def one_number_tolerance(reference: float, tol: float) -> float:
    """The tolerance on a one-number reference's value: ``tol`` up to magnitude 1, ``tol * |value|`` beyond.

    NAB's score is ``100 (raw - null) / (perfect - null)`` with ``raw`` a sum of up to one weight per row and
    no lower bound (-21,406 on a 2,289-row series with one window): adding the same weights in another
    order (a loop, NumPy's pairwise sum) moves it by about ``rows x 1e-16 x |value|``, 1e-9 there.  So
    beyond magnitude 1 the tolerance is relative, the same 1e-9 of the value.
    """
    return tol * max(1.0, abs(reference)) if math.isfinite(reference) else tol


def compare(out: CallOutcome, ref: Sequence[float], tol: float, one_number: bool = False) -> str:
    """What differs between the evaluator's outcome and the reference's (P, R, F1, or its one number), or ``""``."""
    if not out.ok and not (out.kind == BAD_RESULT and out.score is not None):
        return f"the evaluator {out.kind}: {out.message}"
    assert out.score is not None
    if not out.ok:  # a value out of range: a difference only if the reference returns another value
        differs = compare(CallOutcome(OK, out.score, result_kind=out.result_kind), ref, tol, one_number)
        return f"the evaluator {out.kind}: {out.message}; {differs}" if differs else ""
    names = ("f1",) if out.result_kind == KIND_SCORE else Score._fields  # one number: the reference's F1 or number
    bad = []
    for m, a, b in zip(Score._fields, out.score, ref):
        t = one_number_tolerance(b, tol) if one_number else tol
        if m not in names or _within(a, b, t):
            continue
        label = "score" if one_number else m
        bad.append(f"{label} {a:.10g} vs {b:.10g} (|diff| {abs(a - b):.3g} > {t:.3g})"
                   if not (math.isnan(a) or math.isnan(b)) else f"{label} {a!r} vs {b!r}")
    return "; ".join(bad)


def disagreement(call: Call, reference: Reference, pair: Pair, tol: float) -> Disagreement:
    """Run both evaluators on ``pair`` and compare them."""
    y_true, y_pred = series_of(pair.y_true_events, pair.length), series_of(pair.y_pred_events, pair.length)
    try:
        ref, one = reference_score(reference, y_true, y_pred)
    except Exception as exc:  # a reference with unusual parameters may refuse a pair: say so, never a traceback
        return Disagreement(pair, None, Score(math.nan, math.nan, math.nan),
                            f"the reference raised {type(exc).__name__}: {exc}")
    out = call(y_true, y_pred)
    return Disagreement(pair, out.score, ref, compare(out, ref, tol, one), one)


@dataclass(frozen=True)
class DifferentialResult:
    """One family of a differential run.

    Attributes
    ----------
    family : str
    status : {"passed", "failed"}
    n : int
        Pairs planned; ``checked`` pairs were compared (up to and with the first that differs).
    seed : int
    message : str
        The whole report of a failure (family, pairs, outputs, difference, reproduction), or a summary.
    found, shrunk : Disagreement or None
        The first differing pair as generated, and as shrunk (a
        :class:`~oipr_bench.auditing.regression.score_differential.ScoreDisagreement` for a score reference).
    index : int or None
        Position of ``found`` in the family.
    shrink_steps, shrink_seconds, shrink_finished :
        How the shrinking went (``shrink_finished`` False: the budget ran out first).
    seconds : float
        Wall time of the family (shrinking included).
    shrink_abandoned : bool
        The budget ran out during a call, which was abandoned: the evaluator is not called again in this
        run (not stored in a report; the message says it).
    """

    family: str
    status: str
    n: int
    checked: int
    seed: int
    message: str
    found: Disagreement | None = None
    shrunk: Disagreement | None = None
    index: int | None = None
    shrink_steps: int = 0
    shrink_seconds: float = 0.0
    shrink_finished: bool = True
    seconds: float = 0.0
    shrink_abandoned: bool = False

    @property
    def reproduction(self) -> str:
        """The one-line reproduction of the shrunk counterexample, or ``""``."""
        if isinstance(self.shrunk, ScoreDisagreement):  # a score reference's family (score_differential)
            return self.shrunk.reproduction
        return reproduction(self.shrunk.pair) if self.shrunk is not None else ""

    @property
    def failure_line(self) -> str:
        """One line for :meth:`~oipr_bench.auditing.profile.results.Profile.failures`: the headline and the reproduction."""
        return f"differential[{self.family}]: {self.message.splitlines()[0]} reproduce: {self.reproduction}"

    def to_dict(self) -> dict[str, Any]:
        return {"family": self.family, "status": self.status, "n": self.n, "checked": self.checked, "seed": self.seed,
                "message": self.message, "index": self.index,
                "found": None if self.found is None else self.found.to_dict(),
                "shrunk": None if self.shrunk is None else self.shrunk.to_dict(),
                "reproduction": self.reproduction, "shrink_steps": self.shrink_steps,
                "shrink_seconds": self.shrink_seconds, "shrink_finished": self.shrink_finished,
                "seconds": self.seconds}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "DifferentialResult":
        found, shrunk = (None if d.get(k) is None else (ScoreDisagreement if "scores" in d[k] else Disagreement).from_dict(d[k])
                         for k in ("found", "shrunk"))
        return cls(d["family"], d["status"], int(d["n"]), int(d["checked"]), int(d["seed"]), d.get("message", ""),
                   found, shrunk, d.get("index"), int(d.get("shrink_steps", 0)), float(d.get("shrink_seconds", 0.0)),
                   bool(d.get("shrink_finished", True)), float(d.get("seconds", 0.0)))


def reconfirm(call: Call, reference: Reference, pair: Pair, tol: float, times: int = RECONFIRM) -> list[Disagreement]:
    """``times`` new calls of both sides on ``pair``: the disagreements observed (one per call that differed)."""
    seen = [disagreement(call, reference, pair, tol) for _ in range(times)]
    return [d for d in seen if d.problem]


def _failure_message(name: str, family: str, n: int, seed: int, index: int, found: Disagreement,
                     shrunk: Disagreement, outcome: Any, confirmed: int, found_confirmed: int | None) -> str:
    failed = found.mine is None and found.problem.startswith("the evaluator ")  # raised, timed out, ...: no value
    what = f"the evaluator {found.problem[14:].split(':')[0]}" if failed else f"differs from {name}"
    head = f"{what} on pair {index + 1} of {n} of family {family} (seed {seed})"
    ran_out = "budget ran out during a call, which was abandoned" if outcome.abandoned else "budget ran out"
    how = "finished" if outcome.finished else f"{ran_out}; smallest reached after {outcome.tried} candidates"
    if confirmed == RECONFIRM or outcome.abandoned:
        lines = [f"{head}:"]
        lines += [f"  {line}" for line in found.lines(name)]
        confirmation = NOT_CONFIRMED if outcome.abandoned else f"confirmed by {RECONFIRM} more calls of both"
        lines.append(f"shrunk in {outcome.seconds:.2f} s ({outcome.steps} steps, {how}; {confirmation}) to:")
        lines += [f"  {line}" for line in shrunk.lines(name)]
        lines.append(f"reproduce: {reproduction(shrunk.pair)}")
        return "\n".join(lines)
    if found_confirmed == RECONFIRM:  # the shrinking was misled; the pair as found does reproduce
        lines = [f"{head}; the shrunk pair did not reproduce ({confirmed} of {RECONFIRM} new calls of both differed): "
                 f"is the evaluator deterministic? The pair as found reproduced in {RECONFIRM} of {RECONFIRM}:"]
        lines += [f"  {line}" for line in shrunk.lines(name)]
        lines.append(f"reproduce: {reproduction(shrunk.pair)}")
        return "\n".join(lines)
    lines = [f"{head} once, but the difference did not reproduce: {found_confirmed} of {RECONFIRM} new calls of both "
             f"on the same pair differed, so the evaluator (or the reference) is not deterministic; no counterexample "
             f"to shrink. The pair and the outputs of the call that differed:"]
    lines += [f"  {line}" for line in shrunk.lines(name)]
    lines.append(f"reproduce (not reliably): {reproduction(shrunk.pair)}")
    return "\n".join(lines)


def run_family(call: Call, reference: Reference, family: str, *, name: str, n: int, seed: int = DEFAULT_SEED,
               params: Mapping[str, Any] | None = None, tolerance: float = 1e-9,
               shrink_budget: float = DEFAULT_SHRINK_BUDGET, max_events: int = MAX_EVENTS,
               progress: Any = None) -> DifferentialResult:
    """Compare ``call`` with ``reference`` on the first ``n`` pairs of ``family``; shrink the first difference.

    Parameters
    ----------
    call : callable
        ``call(y_true, y_pred) -> CallOutcome``: the evaluator under test (e.g. an audit session's call).
    reference : callable
        ``reference(y_true, y_pred) -> (P, R, F1)``.
    family : str
        One of :data:`oipr_bench.vocabulary.FAMILIES`.
    name : str
        How messages call the reference (``"OIPR"``).
    n, seed : int
        Pairs to try and their seed.
    params : mapping, optional
        The reference's parameters: the families aim at its ``delta``, ``l_dis``, ``l_obs``, ``k``.
    tolerance : float
        Absolute tolerance on each of P, R, F1.
    shrink_budget : float
        Seconds the shrinking may take.
    max_events : int
        Most events in one series of the ``cardinality`` family (default: up to its 32,769-event pairs).
    progress : optional
        A bar of :func:`oipr_bench.auditing.progress.progress_bar`: advanced by one per pair compared; the
        pairs after the first difference, never run, are taken off its total.
    """
    start = time.perf_counter()
    seen: dict[int, Disagreement] = {}  # the last difference seen on each pair (by identity; d.pair keeps it alive)

    def differs(c: Pair) -> bool:
        d = disagreement(call, reference, c, tolerance)
        if d.problem:
            seen[id(c)] = d
        return bool(d.problem)

    for pair in family_pairs(family, n, seed, scales_of(params), max_events=max_events):
        p = Pair(pair.length, pair.y_true_events, pair.y_pred_events)
        called = time.perf_counter()
        found = disagreement(call, reference, p, tolerance)
        if progress is not None:
            progress.update(1)
        if not found.problem:
            continue
        per_point = (time.perf_counter() - called) / max(p.length, 1)  # the shrink budget bounds wall time
        if progress is not None:
            drop_from_total(progress, n - pair.index - 1)
        outcome = shrink(p, differs, shrink_budget, seconds_per_point=per_point)
        # Both sides are called again on the pair to print: a pair on which they agree is never shown as one
        # on which they differ (a non-deterministic evaluator misleads the shrinking).  Not after an abandoned
        # call: the evaluator is not called again; the pair is shown with the outputs of its last call.
        again = [seen.get(id(outcome.pair), found)] if outcome.abandoned else \
            reconfirm(call, reference, outcome.pair, tolerance)
        confirmed, found_confirmed, shrunk = len(again), None, (again[-1] if again else found)
        if confirmed < RECONFIRM and not outcome.abandoned:
            found_again = reconfirm(call, reference, p, tolerance) if outcome.pair != p else again
            found_confirmed = len(found_again)
            shrunk = found_again[-1] if found_confirmed == RECONFIRM else found
        msg = _failure_message(name, family, n, seed, pair.index, found, shrunk, outcome, confirmed, found_confirmed)
        return DifferentialResult(family, FAILED, n, pair.index + 1, seed, msg, found, shrunk, pair.index,
                                  outcome.steps, outcome.seconds, outcome.finished, time.perf_counter() - start,
                                  outcome.abandoned)
    seconds = time.perf_counter() - start
    return DifferentialResult(family, PASSED, n, n, seed, f"{n} pairs agree with {name} (seed {seed}, {seconds:.2f} s)",
                              seconds=seconds)


def run_configured(call: Call, options: Any, family: str, progress: Any = None) -> DifferentialResult:
    """:func:`run_family` as an audit's options say (reference, its parameters, N, seed, tolerance, budget);
    ``progress``: a bar advanced by one per pair compared.

    Raises
    ------
    KeyError
        ``family`` is not run in this audit (no ``differential``, or an unknown name).
    """
    from ...evaluators import get
    from ...vocabulary import FAMILIES

    if not options.differential or family not in FAMILIES:
        known = ", ".join(FAMILIES) if options.differential else "none (differential is off)"
        raise KeyError(f"no differential family {family!r} in this audit; families: {known}")
    reference = get(options.reference, **options.reference_params)
    return run_family(call, reference, family, name=options.reference, n=options.differential, seed=options.seed,
                      params=options.reference_params, tolerance=options.comparison_tolerance,
                      shrink_budget=options.shrink_budget, progress=progress)
