"""Recompute a JSON report and say whether every number and verdict is reproduced (``oipr-bench verify``).

A report (``schema/report.schema.json``, written by ``pytest --oipr-report`` or
``oipr-bench audit --format json``) records the evaluator spec and parameters,
the options, the declared expectations and the cases run.  :func:`verify`
rebuilds the same audit, runs exactly the items the report holds (the plugin
may have run a subset, ``-k``), and compares field by field:

- the signature (:mod:`oipr_bench.auditing.regression.signature`: versions, parameters, fixture hash);
- each case's status, P, R, F1 and every run of a random case;
- each characteristic's observed value, expected values, status and evidence numbers;
- each metric property's observed value, status and evidence numbers;
- each sanity check's status; each reference comparison's status and both scores;
- each differential family's status, pairs checked, and the counterexample found and shrunk.

Numbers agree within ``tolerance`` (NaN only with NaN); wall times and messages are not compared.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from ..expectations import REFERENCE_SOURCE, Expectation
from ..options import AuditOptions
from .results import Profile

__all__ = ["Verification", "options_of", "recompute", "compare_profiles", "verify", "DEFAULT_VERIFY_TOLERANCE"]

#: Default absolute tolerance of a recomputed number (floats survive the JSON round trip exactly).
DEFAULT_VERIFY_TOLERANCE = 1e-12


@dataclass(frozen=True)
class Verification:
    """What :func:`verify` found: how many numbers and verdicts were compared, and which differ."""

    numbers: int
    verdicts: int
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


def options_of(report: Profile, timeout: float | None = None) -> AuditOptions:
    """The :class:`AuditOptions` the report was made with (declared expectations included)."""
    o, ref, d = report.options, report.reference, report.declarations
    declared = {n: Expectation(n, r.expectation.values, r.expectation.source, r.expectation.reason)
                for n, r in report.characteristic_results.items()
                if r.expectation.source not in ("default", "oipr_profile")
                and not r.expectation.source.startswith(REFERENCE_SOURCE)}
    return AuditOptions(
        timeout=o.get("timeout") if timeout is None else timeout, isolate=bool(o.get("isolate", False)),
        reference=None if ref is None else ref["name"], reference_params={} if ref is None else dict(ref["params"]),
        against=None if ref is None else ref["against"],
        tolerance=None if ref is None or ref["against"] == "paper" else ref["tolerance"],
        hypothesis_examples=o.get("hypothesis_examples"), expectations=declared, input_kind=d.input_kind,
        higher_is_better=d.higher_is_better, bounds=d.bounds, differential=o.get("differential"),
        seed=o.get("seed") if o.get("differential") else None,
        shrink_budget=o.get("shrink_budget") if o.get("differential") else None, cases=o.get("cases"),
        suite=o.get("suite"), random_runs=o.get("random_runs"))


def recompute(report: Profile, evaluator: str | None = None, timeout: float | None = None) -> Profile:
    """Run the items of ``report`` again (the evaluator from its spec, or ``evaluator``)."""
    from .profiles import AuditSession
    from ..calling.resolve import resolve

    with AuditSession(resolve(evaluator or report.evaluator, report.params), options_of(report, timeout)) as session:
        for cid in report.case_results:
            session.case_result(cid)
        for name in report.sanity_results:
            session.sanity_result(name)
        for name in report.characteristic_results:
            session.characteristic_result(name)
        for name in report.property_results:
            session.property_result(name)
        for cid in report.reference_results:
            session.reference_result(cid)
        for family in report.differential_results:
            session.differential_result(family)
        again = session.profile()
    if evaluator:
        again.evaluator = report.evaluator  # the spec given here names the same evaluator
    return again


class _Tally:
    def __init__(self, tolerance: float) -> None:
        self.tolerance = tolerance
        self.numbers = 0
        self.verdicts = 0
        self.problems: list[str] = []

    def number(self, where: str, a: Any, b: Any) -> None:
        self.numbers += 1
        if a is None or b is None:
            if a is not b:
                self.problems.append(f"{where}: report {a!r}, recomputed {b!r}")
            return
        fa, fb = float(a), float(b)
        same = (math.isnan(fa) and math.isnan(fb)) or (not math.isnan(fa) and not math.isnan(fb)
                                                        and abs(fa - fb) <= self.tolerance)
        if not same:
            self.problems.append(f"{where}: report {fa!r}, recomputed {fb!r}")

    def numbers_of(self, where: str, a: Sequence[Any] | None, b: Sequence[Any] | None, names: Sequence[str]) -> None:
        if a is None or b is None:
            self.verdict(f"{where}", "present" if a is not None else "absent", "present" if b is not None else "absent")
            return
        for name, x, y in zip(names, a, b):
            self.number(f"{where}.{name}", x, y)

    def verdict(self, where: str, a: Any, b: Any) -> None:
        self.verdicts += 1
        if a != b:
            self.problems.append(f"{where}: report {a!r}, recomputed {b!r}")


PRF = ("precision", "recall", "f1")


def _cases(t: _Tally, report: Profile, again: Profile) -> None:
    for cid, r in report.case_results.items():
        g = again.case_results[cid]
        t.verdict(f"case[{cid}].status", r.status, g.status)
        t.numbers_of(f"case[{cid}]", r.score, g.score, PRF)
        for i, (a, b) in enumerate(zip(r.runs or (), g.runs or ())):
            t.numbers_of(f"case[{cid}].run {i + 1}", a, b, PRF)
        t.verdict(f"case[{cid}].runs", len(r.runs or ()), len(g.runs or ()))


def _characteristics(t: _Tally, report: Profile, again: Profile) -> None:
    for name, r in report.characteristic_results.items():
        g = again.characteristic_results[name]
        t.verdict(f"characteristic[{name}].observed", r.observed, g.observed)
        t.verdict(f"characteristic[{name}].expected", list(r.expectation.values), list(g.expectation.values))
        t.verdict(f"characteristic[{name}].status", r.status, g.status)
        a = r.finding.numbers if r.finding else {}
        b = g.finding.numbers if g.finding else {}
        t.verdict(f"characteristic[{name}].evidence", sorted(a), sorted(b))
        for key in sorted(set(a) & set(b)):
            t.number(f"characteristic[{name}].evidence.{key}", a[key], b[key])


def _properties(t: _Tally, report: Profile, again: Profile) -> None:
    for name, r in report.property_results.items():
        g = again.property_results[name]
        t.verdict(f"property[{name}].observed", r.observed, g.observed)
        t.verdict(f"property[{name}].status", r.status, g.status)
        a = r.finding.numbers if r.finding else {}
        b = g.finding.numbers if g.finding else {}
        t.verdict(f"property[{name}].evidence", sorted(a), sorted(b))
        for key in sorted(set(a) & set(b)):
            t.number(f"property[{name}].evidence.{key}", a[key], b[key])


def _comparisons(t: _Tally, report: Profile, again: Profile) -> None:
    for name, r in report.sanity_results.items():
        t.verdict(f"sanity[{name}].status", r.status, again.sanity_results[name].status)
    for cid, r in report.reference_results.items():
        g = again.reference_results[cid]
        t.verdict(f"reference[{cid}].status", r.status, g.status)
        t.numbers_of(f"reference[{cid}].observed", r.observed, g.observed, PRF)
        t.numbers_of(f"reference[{cid}].reference", r.reference, g.reference, PRF)
    for family, r in report.differential_results.items():
        g = again.differential_results[family]
        for field in ("status", "checked", "index"):
            t.verdict(f"differential[{family}].{field}", getattr(r, field), getattr(g, field))
        for which in ("found", "shrunk"):
            a, b = getattr(r, which), getattr(g, which)
            t.verdict(f"differential[{family}].{which}.pair", None if a is None else tuple(a.pair),
                      None if b is None else tuple(b.pair))
            if a is not None and b is not None:
                t.numbers_of(f"differential[{family}].{which}.evaluator", a.mine, b.mine, PRF)
                t.numbers_of(f"differential[{family}].{which}.reference", a.reference, b.reference, PRF)


def compare_profiles(report: Profile, again: Profile, tolerance: float = DEFAULT_VERIFY_TOLERANCE) -> Verification:
    """Compare every number and verdict of ``report`` with the recomputed ``again``."""
    t = _Tally(tolerance)
    t.verdict("signature", report.signature, again.signature)
    _cases(t, report, again)
    _characteristics(t, report, again)
    _properties(t, report, again)
    _comparisons(t, report, again)
    t.verdict("ok", report.ok, again.ok)
    return Verification(t.numbers, t.verdicts, tuple(t.problems))


def verify(report: Profile, *, evaluator: str | None = None, tolerance: float = DEFAULT_VERIFY_TOLERANCE,
           timeout: float | None = None) -> Verification:
    """Recompute ``report`` and compare (see the module docstring)."""
    return compare_profiles(report, recompute(report, evaluator, timeout), tolerance)


def summary(report: Profile) -> Iterable[str]:
    """What a report holds, in words (``25 cases, 10 characteristics, ...``)."""
    parts = [(len(report.case_results), "cases"), (len(report.characteristic_results), "characteristics"),
             (len(report.property_results), "metric properties"),
             (len(report.sanity_results), "sanity checks"), (len(report.reference_results), "reference comparisons"),
             (len(report.differential_results), "differential families")]
    return [f"{n} {what}" for n, what in parts if n]
