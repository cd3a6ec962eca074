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

- the stored ``signature`` and ``ok`` against those of the report's fields and the recomputed ones;
- the completeness of the run: every item the report's suite plans is in it, or recorded as
  deselected or not run; an interrupted run is named (:mod:`..run_record`).

Numbers agree within ``tolerance`` (NaN only with NaN); wall times (``seconds``) and message
texts are not compared (:data:`NOT_COMPARED`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from ..calling.trust import CodeFolders
from ..expectations import REFERENCE_SOURCE, Expectation
from ..options import AuditOptions
from .results import Profile
from ..regression.score_differential import ScoreDisagreement
from ..run_record import RunRecord, present_items

__all__ = ["Verification", "options_of", "recompute", "compare_profiles", "verify", "DEFAULT_VERIFY_TOLERANCE"]

#: What a report holds that verify does not compare (said in its output).
NOT_COMPARED = "wall times (seconds) and message texts"

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
    """The :class:`AuditOptions` the report was made with (declared expectations included).

    The declared expectations are read back from the characteristics, the sanity checks' are
    not stored (a declared sanity failure shows in its status) and the metric properties' from
    ``properties`` (their ``expected`` values and source).
    """
    o, ref, d = report.options, report.reference, report.declarations
    declared = {n: Expectation(n, r.expectation.values, r.expectation.source, r.expectation.reason)
                for n, r in report.characteristic_results.items()
                if r.expectation.source not in ("default", "oipr_profile")
                and not r.expectation.source.startswith(REFERENCE_SOURCE)}
    declared.update({n: Expectation(n, r.expectation.values, r.expectation.source, r.expectation.reason)
                     for n, r in report.property_results.items()
                     if r.expectation is not None and r.expectation.source not in ("default", "oipr_profile")
                     and not r.expectation.source.startswith(REFERENCE_SOURCE)})
    return AuditOptions(
        timeout=o.get("timeout") if timeout is None else timeout, isolate=bool(o.get("isolate", False)),
        reference=None if ref is None else ref["name"], reference_params={} if ref is None else dict(ref["params"]),
        against=None if ref is None else ref["against"],
        tolerance=None if ref is None or ref["against"] == "paper" else ref["tolerance"],
        hypothesis_examples=o.get("hypothesis_examples"), expectations=declared, input_kind=d.input_kind,
        higher_is_better=d.higher_is_better, bounds=d.bounds, differential=o.get("differential"),
        seed=o.get("seed") if o.get("differential") else None,
        shrink_budget=o.get("shrink_budget") if o.get("differential") else None, cases=o.get("cases"),
        suite=o.get("suite"), random_runs=o.get("random_runs"),
        chance_draws=o.get("chance_draws"), sanity=o.get("sanity", True) is not False,
        profile_only=o.get("profile_only", False) is True)


def recompute(report: Profile, evaluator: str | None = None, timeout: float | None = None,
              code_from: CodeFolders | None = None) -> Profile:
    """Run the items of ``report`` again (the evaluator from its spec, or ``evaluator``).

    ``code_from``: where the code of the report's evaluator may come from (the report is data: its
    evaluator is checked before anything of it is constructed or called; :mod:`..calling.trust`).

    The recomputed profile plans the items the report's options hold, and carries the report's
    selection (deselected items, ``-k``/``-m``) and interruption, so its ``ok`` and its list of
    items not run are what the report's should be.  An item the session does not know (a case id
    that is neither the dataset's nor the cases file's) is left out; :func:`compare_profiles` names it.
    """
    from .profiles import AuditSession
    from ..calling.resolve import resolve

    resolved = resolve(evaluator or report.evaluator, report.params, code_from=None if evaluator else code_from)
    with AuditSession(resolved, options_of(report, timeout)) as session:
        known_cases = set(session.cases)
        for cid in report.case_results:
            if cid in known_cases:
                session.case_result(cid)
        for name in report.sanity_results:
            if name in session.sanity_checks:
                session.sanity_result(name)
        for name in report.characteristic_results:
            session.characteristic_result(name)
        for name in report.property_results:
            session.property_result(name)
        for cid in report.reference_results:
            if cid in known_cases and session.options.reference is not None:
                session.reference_result(cid)
        for family in report.differential_results:
            if family in session.families:
                session.differential_result(family)
        again = session.profile()
    run, planned = report.run, again.run.planned
    again.run = RunRecord(planned, tuple(i for i in run.deselected if i in planned), dict(run.selection),
                          run.interrupted)
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


def _numbers(v: Any) -> Sequence[Any] | None:
    """A (P, R, F1) as it is, one number as a 1-tuple (None stays None)."""
    return v if v is None or isinstance(v, tuple) else (v,)


def _pairs(t: _Tally, kind: str, mine: Mapping[str, Any], again: Mapping[str, Any]) -> Iterable[tuple[str, Any, Any]]:
    """``(key, report's result, recomputed result)`` for every item of ``kind``; one not recomputed is named."""
    for key, r in mine.items():
        if key not in again:
            t.problems.append(f"{kind}[{key}]: in the report, but not an item of its suite here (unknown {kind} "
                              f"{key!r}, or the report's options do not run it)")
            continue
        yield key, r, again[key]


def _cases(t: _Tally, report: Profile, again: Profile) -> None:
    for cid, r, g in _pairs(t, "case", report.case_results, again.case_results):
        t.verdict(f"case[{cid}].status", r.status, g.status)
        t.numbers_of(f"case[{cid}]", r.score, g.score, PRF)
        for i, (a, b) in enumerate(zip(r.runs or (), g.runs or ())):
            t.numbers_of(f"case[{cid}].run {i + 1}", a, b, PRF)
        t.verdict(f"case[{cid}].runs", len(r.runs or ()), len(g.runs or ()))
        t.verdict(f"case[{cid}].n_runs", r.n_runs, g.n_runs)
        t.verdict(f"case[{cid}].returned_f1", r.returned_f1, g.returned_f1)


def _characteristics(t: _Tally, report: Profile, again: Profile) -> None:
    for name, r, g in _pairs(t, "characteristic", report.characteristic_results, again.characteristic_results):
        t.verdict(f"characteristic[{name}].observed", r.observed, g.observed)
        t.verdict(f"characteristic[{name}].expected", list(r.expectation.values), list(g.expectation.values))
        t.verdict(f"characteristic[{name}].expectation_source", r.expectation.source, g.expectation.source)
        t.verdict(f"characteristic[{name}].expectation_reason", r.expectation.reason, g.expectation.reason)
        t.verdict(f"characteristic[{name}].status", r.status, g.status)
        a = r.finding.numbers if r.finding else {}
        b = g.finding.numbers if g.finding else {}
        t.verdict(f"characteristic[{name}].evidence", sorted(a), sorted(b))
        for key in sorted(set(a) & set(b)):
            t.number(f"characteristic[{name}].evidence.{key}", a[key], b[key])


def _properties(t: _Tally, report: Profile, again: Profile) -> None:
    for name, r, g in _pairs(t, "property", report.property_results, again.property_results):
        t.verdict(f"property[{name}].observed", r.observed, g.observed)
        ra, ga = r.expectation, g.expectation
        t.verdict(f"property[{name}].expected", None if ra is None else list(ra.values),
                  None if ga is None else list(ga.values))
        for field in ("source", "reason"):
            t.verdict(f"property[{name}].expectation_{field}", None if ra is None else getattr(ra, field),
                      None if ga is None else getattr(ga, field))
        t.verdict(f"property[{name}].status", r.status, g.status)
        a = r.finding.numbers if r.finding else {}
        b = g.finding.numbers if g.finding else {}
        t.verdict(f"property[{name}].evidence", sorted(a), sorted(b))
        for key in sorted(set(a) & set(b)):
            t.number(f"property[{name}].evidence.{key}", a[key], b[key])


def _comparisons(t: _Tally, report: Profile, again: Profile) -> None:
    for name, r, g in _pairs(t, "sanity", report.sanity_results, again.sanity_results):
        t.verdict(f"sanity[{name}].status", r.status, g.status)
    for cid, r, g in _pairs(t, "reference", report.reference_results, again.reference_results):
        t.verdict(f"reference[{cid}].status", r.status, g.status)
        t.numbers_of(f"reference[{cid}].observed", r.observed, g.observed, PRF)
        t.numbers_of(f"reference[{cid}].reference", r.reference, g.reference, PRF)
    for family, r, g in _pairs(t, "differential", report.differential_results, again.differential_results):
        for field in ("status", "n", "seed", "checked", "index"):
            t.verdict(f"differential[{family}].{field}", getattr(r, field), getattr(g, field))
        for which in ("found", "shrunk"):
            a, b = getattr(r, which), getattr(g, which)
            t.verdict(f"differential[{family}].{which}.pair", None if a is None else tuple(a.pair),
                      None if b is None else tuple(b.pair))
            if a is not None and b is not None:
                names = ("value",) if isinstance(a, ScoreDisagreement) else PRF  # a score reference: one number each
                t.numbers_of(f"differential[{family}].{which}.evaluator", _numbers(a.mine), _numbers(b.mine), names)
                t.numbers_of(f"differential[{family}].{which}.reference", _numbers(a.reference), _numbers(b.reference),
                             names)


def _stored(t: _Tally, report: Profile, again: Profile) -> None:
    """The report's stored ``signature`` and ``ok`` against its own fields and the recomputed ones."""
    if report.stored_signature is not None and report.stored_signature != report.signature:
        t.problems.append(f"signature: the report stores {report.stored_signature!r}, but its fields sign "
                          f"{report.signature!r}")
    t.verdict("signature", report.stored_signature or report.signature, again.signature)
    if report.stored_ok is not None and report.stored_ok != report.ok:
        t.problems.append(f"ok: the report stores {report.stored_ok}, but its items give {report.ok}")
    t.verdict("ok", report.ok if report.stored_ok is None else report.stored_ok, again.ok)
    t.verdict("fixtures.user_cases", list(report.fixtures.get("user_cases") or []),
              list(again.fixtures.get("user_cases") or []))
    t.verdict("fixtures.cases_file", report.fixtures.get("cases_file"), again.fixtures.get("cases_file"))
    t.verdict("fixtures.sha256", report.fixtures.get("sha256"), again.fixtures.get("sha256"))


def _completeness(t: _Tally, report: Profile, again: Profile) -> None:
    """Items the report's suite plans that it neither holds nor records as deselected or not run."""
    rec, planned = report.run, again.run
    held = present_items(report)
    recorded = set(rec.deselected) | set(rec.not_run(held))
    missing = [i for i in planned.not_run(held) if i not in recorded]
    if missing:
        shown = ", ".join(missing[:8]) + (f" and {len(missing) - 8} more" if len(missing) > 8 else "")
        t.problems.append(f"run: {len(missing)} item(s) of the report's suite are missing from it, neither "
                          f"deselected nor recorded as not run: {shown}")
    extra = planned.unplanned(held)
    if extra:
        shown = ", ".join(extra[:8]) + (f" and {len(extra) - 8} more" if len(extra) > 8 else "")
        t.problems.append(f"run: the report holds {len(extra)} item(s) its options do not run (suite "
                          f"{report.options.get('suite', '-')}): {shown}")
    t.verdict("run.planned", len(rec.planned) if report.run is not None else len(planned.planned),
              len(planned.planned))
    if rec.interrupted:
        t.problems.append(f"run: the run was interrupted (Ctrl-C) after {len(set(held) & set(planned.planned))} of "
                          f"{len(planned.planned)} planned items; an interrupted run is not evidence: run it again")


def compare_profiles(report: Profile, again: Profile, tolerance: float = DEFAULT_VERIFY_TOLERANCE) -> Verification:
    """Compare every number and verdict of ``report`` with the recomputed ``again``.

    Beside the items' numbers and verdicts: the stored signature and ``ok`` against the ones the
    report's fields give and the recomputed ones, the fixtures, and the completeness of the run
    (items missing that the report does not account for, an interruption).
    """
    t = _Tally(tolerance)
    _stored(t, report, again)
    _completeness(t, report, again)
    _cases(t, report, again)
    _characteristics(t, report, again)
    _properties(t, report, again)
    _comparisons(t, report, again)
    return Verification(t.numbers, t.verdicts, tuple(t.problems))


def verify(report: Profile, *, evaluator: str | None = None, tolerance: float = DEFAULT_VERIFY_TOLERANCE,
           timeout: float | None = None, code_from: CodeFolders | None = None) -> Verification:
    """Recompute ``report`` and compare (see the module docstring; ``code_from``: :func:`recompute`)."""
    return compare_profiles(report, recompute(report, evaluator, timeout, code_from), tolerance)


def summary(report: Profile) -> Iterable[str]:
    """What a report holds, in words (``25 cases, 10 characteristics, ...``)."""
    parts = [(len(report.case_results), "cases"), (len(report.characteristic_results), "characteristics"),
             (len(report.property_results), "metric properties"),
             (len(report.sanity_results), "sanity checks"), (len(report.reference_results), "reference comparisons"),
             (len(report.differential_results), "differential families")]
    return [f"{n} {what}" for n, what in parts if n]
