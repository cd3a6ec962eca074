"""The characteristic profile of an evaluator: :func:`audit` and :class:`Profile`.

An audit runs an evaluator on the 25 special-scenario cases (Appendix A;
all 100 runs of each random-detector case), derives the ten characteristics
of Table 5 with the rules of :mod:`oipr_bench.characteristics`, compares them
with the expected profile (OIPR's row unless declared otherwise), runs the
sanity checks and, optionally, compares every case with the reference values
of a built-in evaluator.

The pytest plugin (:mod:`oipr_bench.plugin`) drives the same
:class:`AuditSession` item by item; :func:`audit` runs it all at once.

Examples
--------
>>> import oipr_bench
>>> profile = oipr_bench.audit("PA")                        # doctest: +SKIP
>>> profile.characteristics["existence_detection_reward"]   # doctest: +SKIP
'yes'
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

import numpy as np

from . import characteristics as ch
from .errors import UsageError
from .evaluators._base import Score, f1_from
from .resolve import Resolved, resolve
from .runner import MUTATED, OK, Caller

__all__ = [
    "audit",
    "AuditSession",
    "Profile",
    "CaseResult",
    "CharacteristicResult",
    "SanityResult",
    "ReferenceResult",
    "Expectation",
    "expectations_from",
    "load_expect_file",
    "judge",
    "SANITY_CHECKS",
    "PROPERTY_SEARCH",
    "REPORT_FORMAT",
    "PAPER_TOLERANCE",
    "PAPER_STDERRS",
]

#: Name and version of the JSON report layout (``schema/report.schema.json``).
REPORT_FORMAT = ("oipr-bench-report", 1)

#: The sanity checks, in report order (see :meth:`AuditSession.sanity_result`).
SANITY_CHECKS: tuple[str, ...] = ("perfect", "deterministic", "no_mutation", "bool_int", "harmonic_f1")

#: The opt-in sanity check that searches random inputs (hypothesis) for broken model-free
#: properties (:mod:`oipr_bench.property_search`); run only when ``hypothesis_examples`` is given.
PROPERTY_SEARCH = "property-search"

#: ``--against=paper``: half a unit in the 4th decimal the paper prints.
PAPER_TOLERANCE = 5e-5
#: ``--against=paper`` on a random-detector case: this many standard errors of the 100-run mean, on top.
PAPER_STDERRS = 3.0

#: Sanity: a perfect prediction must score 1 within this; F1 must equal 2PR/(P+R) within this.
SANITY_TOLERANCE = 1e-9

# Statuses of a characteristic.
PASSED, DEVIATION, UNEXPECTED_PASS, FAILED, UNDETERMINED, NOT_RUN = (
    "passed",
    "deviation",
    "unexpected_pass",
    "failed",
    "undetermined",
    "not_run",
)


def _num(x: float) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)


def _unnum(x: Any) -> float:
    return math.nan if x is None else float(x)


def _score_list(s: Score | None) -> list[float | None] | None:
    return None if s is None else [_num(v) for v in s]


def _score_from(values: Any) -> Score | None:
    return None if values is None else Score(*(_unnum(v) for v in values))


def _same(a: float, b: float, tol: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= tol


# -- expectations --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Expectation:
    """What a characteristic is expected to be.

    Attributes
    ----------
    name : str
        Characteristic name.
    values : tuple of str
        Accepted observed values.
    source : str
        Where the expectation comes from: ``"default"`` (OIPR's row of Table 5),
        ``"--expect"``, an expectation file, or ``"oipr_profile"``.
    reason : str
        Optional free text given with the declaration.
    """

    name: str
    values: tuple[str, ...]
    source: str = "default"
    reason: str = ""

    @property
    def default(self) -> tuple[str, ...]:
        """OIPR's value(s): the default expectation."""
        return ch.DEFAULT_EXPECTED[self.name]

    @property
    def deviation(self) -> bool:
        """True when the declaration shares no value with the default: a declared deviation."""
        return not set(self.values) & set(self.default)

    def describe(self) -> str:
        """``"no (declared by --expect)"``-style text."""
        vals = " or ".join(self.values)
        why = f": {self.reason}" if self.reason else ""
        return f"{vals} (declared by {self.source}{why})" if self.source != "default" else vals


def _parse_values(name: str, value: Any, source: str) -> tuple[str, ...]:
    if name not in ch.VALUES:
        raise UsageError(
            f"{source}: unknown characteristic {name!r}; known: {', '.join(ch.CHARACTERISTICS)}"
        )
    raw = value if isinstance(value, (list, tuple)) else [value]
    if not raw:
        raise UsageError(f"{source}: no value given for {name}")
    out = []
    for item in raw:
        if not isinstance(item, str):
            raise UsageError(f"{source}: {name} must be one of {', '.join(ch.VALUES[name])}, got {item!r}")
        v = ch.normalise_value(item)
        if v not in ch.VALUES[name]:
            raise UsageError(f"{source}: {name}={item!r} is not a value of {name}; use one of {', '.join(ch.VALUES[name])}")
        if v not in out:
            out.append(v)
    return tuple(out)


def expectations_from(declared: Mapping[str, Any] | Iterable[str] | None, source: str) -> dict[str, Expectation]:
    """Validate declared expectations.

    Parameters
    ----------
    declared : mapping or iterable of str
        ``{name: value or [values]}``, or ``"name=value"`` strings (``--expect``;
        several values separated by ``|`` or ``,``).
    source : str
        Where the declaration comes from (used in messages and reports).

    Raises
    ------
    UsageError
        Unknown characteristic name or value, or a malformed item.
    """
    if declared is None:
        return {}
    if isinstance(declared, Mapping):
        items = list(declared.items())
    else:
        items = []
        for item in declared:
            name, sep, value = str(item).partition("=")
            if not sep or not name.strip() or not value.strip():
                raise UsageError(f"{source} {item!r}: expected characteristic=value")
            values = [v for v in value.replace("|", ",").split(",") if v.strip()]
            items.append((name.strip(), values))
    out: dict[str, Expectation] = {}
    for name, value in items:
        name = ch.normalise_value(name)
        reason = ""
        if isinstance(value, Mapping):  # {value = "...", reason = "..."} in a file
            reason = str(value.get("reason", ""))
            value = value.get("value", value.get("values"))
        out[name] = Expectation(name, _parse_values(name, value, source), source, reason)
    return out


def load_expect_file(path: str | Path) -> dict[str, Expectation]:
    """Read declared expectations from a TOML or JSON file.

    The file holds ``name = "value"`` pairs (or lists of values, or tables
    ``{value = "...", reason = "..."}``), at top level or under a table named
    ``oipr_profile`` or ``expect``.  TOML is read with :mod:`tomllib` (Python
    3.11+) or ``tomli``; a ``.json`` file as JSON.

    Raises
    ------
    UsageError
        Missing or unreadable file, bad syntax, unknown names or values.
    """
    p = Path(path)
    try:
        text = p.read_bytes()
    except OSError as exc:
        raise UsageError(f"--expect-file {str(p)!r}: cannot read: {exc.strerror or exc}") from None
    try:
        if p.suffix.lower() == ".json":
            data = json.loads(text.decode("utf-8"))
        else:
            try:
                import tomllib  # type: ignore[import-not-found]
            except ModuleNotFoundError:  # Python 3.10
                import tomli as tomllib  # type: ignore[no-redef]
            data = tomllib.loads(text.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise UsageError(f"--expect-file {str(p)!r}: not UTF-8 text ({exc.reason})") from None
    except ValueError as exc:  # JSONDecodeError and TOMLDecodeError are ValueErrors
        raise UsageError(f"--expect-file {str(p)!r}: cannot parse: {exc}") from None
    if not isinstance(data, Mapping):
        raise UsageError(f"--expect-file {str(p)!r}: expected a table of characteristic = value")
    for key in ("oipr_profile", "expect"):
        if isinstance(data.get(key), Mapping):
            data = data[key]
            break
    return expectations_from(data, str(p))


def merge_expectations(*layers: Mapping[str, Expectation]) -> dict[str, Expectation]:
    """Default expectations overridden by each layer in turn (later wins)."""
    out = {name: Expectation(name, ch.DEFAULT_EXPECTED[name]) for name in ch.CHARACTERISTICS}
    for layer in layers:
        out.update(layer)
    return out


def judge(observed: str | None, expectation: Expectation) -> str:
    """Status of an observed value against its expectation.

    Without a declared deviation: ``passed`` when the value is expected, else
    ``failed``.  With one (the declared values share none with the default):
    the declared value gives ``deviation`` (pytest: xfail), the default value
    ``unexpected_pass`` (pytest: XPASS), anything else ``failed``.
    """
    if observed is None:
        return UNDETERMINED
    if expectation.deviation:
        if observed in expectation.values:
            return DEVIATION
        return UNEXPECTED_PASS if observed in expectation.default else FAILED
    return PASSED if observed in expectation.values else FAILED


# -- results -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CaseResult:
    """The evaluator's result on one case.

    Attributes
    ----------
    case_id : str
    status : str
        ``"ok"`` or the kind of the first failing call (``raised``,
        ``bad_result``, ``mutated``, ``timed_out``, ``crashed``).
    message : str
        What went wrong (with the run number for a random case), or ``""``.
    n_runs : int
        Number of predictions of the case (100 for a random case).
    score : Score or None
        The score (the mean of the per-run P, R, F1 for a random case), None when a call failed.
    runs : tuple of Score or None
        Per-run scores of a random case.
    returned_f1 : bool
        False when the evaluator returned only (P, R).
    seconds : float
        Wall time of the case's calls.
    detail : str
        Traceback of an exception, if any.
    """

    case_id: str
    status: str
    message: str = ""
    n_runs: int = 1
    score: Score | None = None
    runs: tuple[Score, ...] | None = None
    returned_f1: bool = True
    seconds: float = 0.0
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.status == OK

    def to_dict(self) -> dict[str, Any]:
        scenario, _, case = self.case_id.partition("/")
        s = self.score
        return {
            "case_id": self.case_id,
            "scenario": scenario,
            "case": case,
            "n_runs": self.n_runs,
            "status": self.status,
            "message": self.message,
            "precision": None if s is None else _num(s.precision),
            "recall": None if s is None else _num(s.recall),
            "f1": None if s is None else _num(s.f1),
            "runs": None if self.runs is None else [_score_list(r) for r in self.runs],
            "returned_f1": self.returned_f1,
            "seconds": round(self.seconds, 6),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "CaseResult":
        score = None if d.get("f1", None) is None and d.get("precision") is None and d.get("recall") is None else Score(
            _unnum(d.get("precision")), _unnum(d.get("recall")), _unnum(d.get("f1"))
        )
        if d["status"] != OK:
            score = None
        runs = None if d.get("runs") is None else tuple(_score_from(r) for r in d["runs"])  # type: ignore[misc]
        return cls(d["case_id"], d["status"], d.get("message", ""), int(d.get("n_runs", 1)), score, runs,
                   bool(d.get("returned_f1", True)), float(d.get("seconds", 0.0)), d.get("detail", ""))


@dataclass(frozen=True)
class CharacteristicResult:
    """Observed value, expectation and evidence of one characteristic."""

    name: str
    observed: str | None
    expectation: Expectation
    status: str
    finding: ch.Finding | None = None
    message: str = ""

    @property
    def kind(self) -> str:
        return "beneficial" if self.name in ch.BENEFICIAL else "misleading"

    def to_dict(self) -> dict[str, Any]:
        e = self.expectation
        return {
            "name": self.name,
            "kind": self.kind,
            "observed": self.observed,
            "expected": list(e.values),
            "default": list(e.default),
            "expectation_source": e.source,
            "expectation_reason": e.reason,
            "status": self.status,
            "message": self.message,
            "evidence": None if self.finding is None else self.finding.to_dict(),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "CharacteristicResult":
        e = Expectation(d["name"], tuple(d["expected"]), d.get("expectation_source", "default"), d.get("expectation_reason", ""))
        f = None if d.get("evidence") is None else ch.Finding.from_dict(d["evidence"])
        return cls(d["name"], d.get("observed"), e, d["status"], f, d.get("message", ""))


@dataclass(frozen=True)
class SanityResult:
    """Outcome of one sanity check (``passed`` or ``failed``, and why)."""

    name: str
    status: str
    message: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "status": self.status, "message": self.message}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "SanityResult":
        return cls(d["name"], d["status"], d.get("message", ""))


@dataclass(frozen=True)
class ReferenceResult:
    """Comparison of one case with the reference (or the paper's) values."""

    case_id: str
    status: str
    message: str
    observed: Score | None
    reference: Score | None
    tolerance: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "case_id": self.case_id,
            "status": self.status,
            "message": self.message,
            "observed": _score_list(self.observed),
            "reference": _score_list(self.reference),
            "tolerance": self.tolerance,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "ReferenceResult":
        return cls(d["case_id"], d["status"], d.get("message", ""), _score_from(d.get("observed")),
                   _score_from(d.get("reference")), float(d["tolerance"]))


# -- the profile ---------------------------------------------------------------------------------


@dataclass
class Profile:
    """An evaluator's characteristic profile on the special-scenario dataset.

    Attributes
    ----------
    evaluator : str
        Display name (the specification given).
    params : dict
        Parameters in force.
    case_results : dict of str to CaseResult
        Per case, in Table A1 order.
    characteristic_results : dict of str to CharacteristicResult
        Per characteristic, in Table 5 order.
    sanity_results : dict of str to SanityResult
    reference_results : dict of str to ReferenceResult
        Empty unless a reference evaluator was given.
    reference : dict or None
        ``{"name", "params", "against", "tolerance"}`` of the reference comparison.
    options : dict
        Run options (timeout, isolate).
    package_version, dataset_version : str
    """

    evaluator: str
    params: dict[str, Any]
    case_results: dict[str, CaseResult] = field(default_factory=dict)
    characteristic_results: dict[str, CharacteristicResult] = field(default_factory=dict)
    sanity_results: dict[str, SanityResult] = field(default_factory=dict)
    reference_results: dict[str, ReferenceResult] = field(default_factory=dict)
    reference: dict[str, Any] | None = None
    options: dict[str, Any] = field(default_factory=dict)
    package_version: str = ""
    dataset_version: str = ""

    @property
    def characteristics(self) -> dict[str, str | None]:
        """Observed value per characteristic (None when it could not be determined)."""
        return {n: r.observed for n, r in self.characteristic_results.items()}

    @property
    def evidence(self) -> dict[str, ch.Finding]:
        """The :class:`~oipr_bench.characteristics.Finding` behind each determined characteristic."""
        return {n: r.finding for n, r in self.characteristic_results.items() if r.finding is not None}

    @property
    def cases(self) -> Any:
        """Per-case results as a :class:`pandas.DataFrame` (one row per case, indexed by case id)."""
        import pandas as pd

        rows = [
            {k: v for k, v in r.to_dict().items() if k not in ("runs", "returned_f1")}
            for r in self.case_results.values()
        ]
        cols = ["case_id", "scenario", "case", "n_runs", "precision", "recall", "f1", "status", "message", "seconds"]
        frame = pd.DataFrame(rows, columns=cols)
        for c in ("precision", "recall", "f1"):
            frame[c] = frame[c].astype(float)
        return frame.set_index("case_id")

    @property
    def ok(self) -> bool:
        """True when nothing failed: every case ran, no characteristic, sanity check or reference comparison failed."""
        return (
            all(r.ok for r in self.case_results.values())
            and all(r.status not in (FAILED, UNDETERMINED) for r in self.characteristic_results.values())
            and all(r.status == PASSED for r in self.sanity_results.values())
            and all(r.status == PASSED for r in self.reference_results.values())
        )

    def failures(self) -> list[str]:
        """One line per problem (failed case, characteristic, sanity check or reference comparison)."""
        out = [f"case[{r.case_id}]: {r.status}: {r.message}" for r in self.case_results.values() if not r.ok]
        for r in self.characteristic_results.values():
            if r.status == FAILED:
                out.append(f"characteristic[{r.name}]: observed {r.observed}, expected {r.expectation.describe()}")
            elif r.status == UNDETERMINED:
                out.append(f"characteristic[{r.name}]: undetermined: {r.message}")
        out += [f"sanity[{r.name}]: {_one_line(r.message)}" for r in self.sanity_results.values() if r.status != PASSED]
        out += [f"reference[{r.case_id}]: {r.message}" for r in self.reference_results.values() if r.status != PASSED]
        return out

    def to_dict(self) -> dict[str, Any]:
        """The JSON report (``schema/report.schema.json``) as plain data."""
        return {
            "format": REPORT_FORMAT[0],
            "format_version": REPORT_FORMAT[1],
            "evaluator": {"name": self.evaluator, "params": _jsonable(self.params)},
            "package": {"name": "oipr-bench", "version": self.package_version},
            "dataset": {"version": self.dataset_version},
            "options": _jsonable(self.options),
            "cases": [r.to_dict() for r in self.case_results.values()],
            "characteristics": [r.to_dict() for r in self.characteristic_results.values()],
            "sanity": [r.to_dict() for r in self.sanity_results.values()],
            "reference": None
            if self.reference is None
            else {**_jsonable(self.reference), "results": [r.to_dict() for r in self.reference_results.values()]},
            "ok": self.ok,
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as canonical JSON text (NaN stored as null)."""
        from .io import dumps_json

        return dumps_json(self.to_dict())

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Profile":
        """Rebuild a profile from :meth:`to_dict` output (e.g. a JSON report)."""
        ref = d.get("reference")
        return cls(
            evaluator=d["evaluator"]["name"],
            params=dict(d["evaluator"]["params"]),
            case_results={c["case_id"]: CaseResult.from_dict(c) for c in d["cases"]},
            characteristic_results={c["name"]: CharacteristicResult.from_dict(c) for c in d["characteristics"]},
            sanity_results={s["name"]: SanityResult.from_dict(s) for s in d["sanity"]},
            reference_results={} if ref is None else {r["case_id"]: ReferenceResult.from_dict(r) for r in ref["results"]},
            reference=None if ref is None else {k: v for k, v in ref.items() if k != "results"},
            options=dict(d.get("options", {})),
            package_version=d["package"]["version"],
            dataset_version=d["dataset"]["version"],
        )

    def format(self, fmt: str = "table") -> str:
        """Render as ``"table"`` (plain text), ``"markdown"`` or ``"json"``."""
        if fmt == "json":
            return self.to_json()
        if fmt not in ("table", "markdown"):
            raise ValueError(f"unknown format {fmt!r}; use table, markdown or json")
        return render(self, markdown=(fmt == "markdown"))

    def __str__(self) -> str:
        return self.format("table")


#: How each status is shown in tables.
STATUS_TEXT = {
    PASSED: "ok",
    FAILED: "FAILED",
    DEVIATION: "xfail (declared)",
    UNEXPECTED_PASS: "XPASS",
    UNDETERMINED: "UNDETERMINED",
    NOT_RUN: "not run",
}


def _cell(x: float | None) -> str:
    return "-" if x is None else ("nan" if math.isnan(x) else f"{x:.4f}")


def _table(header: list[str], rows: list[list[str]], markdown: bool) -> list[str]:
    if markdown:
        esc = [[c.replace("|", "\\|") for c in r] for r in [header] + rows]
        lines = ["| " + " | ".join(esc[0]) + " |", "|" + "|".join("---" for _ in header) + "|"]
        return lines + ["| " + " | ".join(r) + " |" for r in esc[1:]]
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    fmt = lambda r: "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()  # noqa: E731
    return [fmt(header)] + [fmt(r) for r in rows]


def render_characteristics(profile: "Profile", markdown: bool = False) -> list[str]:
    """The profile table: characteristic, observed, expected, status, evidence."""
    rows = []
    for name in ch.CHARACTERISTICS:
        r = profile.characteristic_results.get(name)
        if r is None:
            exp = " or ".join(ch.DEFAULT_EXPECTED[name])
            rows.append([name, "-", exp, STATUS_TEXT[NOT_RUN], ""])
            continue
        exp = " or ".join(r.expectation.values)
        if r.expectation.source != "default":
            exp += f" [{r.expectation.source}]"
        rows.append([name, r.observed or "-", exp, STATUS_TEXT.get(r.status, r.status), r.message])
    return _table(["characteristic", "observed", "expected", "status", "evidence"], rows, markdown)


def render_cases(profile: "Profile", markdown: bool = False) -> list[str]:
    """The compact per-case table: P, R, F1 (means for random cases) and status."""
    rows = []
    for r in profile.case_results.values():
        s = r.score
        vals = ["-", "-", "-"] if s is None else [_cell(v) for v in s]
        status = "ok" if r.ok else f"{r.status}: {r.message}"
        rows.append([r.case_id, str(r.n_runs), *vals, status])
    return _table(["case", "runs", "P", "R", "F1", "status"], rows, markdown)


def render(profile: "Profile", markdown: bool = False) -> str:
    """The whole profile as text: header, characteristics, sanity, reference, cases.

    A multi-line sanity message (``property-search``) shows its first line only;
    :meth:`Profile.failures` has all of it.
    """
    params = ", ".join(f"{k}={v!r}" for k, v in profile.params.items()) or "none"
    lines = [
        f"{'## ' if markdown else ''}oipr-bench profile of {profile.evaluator} (parameters: {params})",
        f"oipr-bench {profile.package_version}, dataset {profile.dataset_version}",
        "",
    ]
    lines += render_characteristics(profile, markdown)
    if profile.sanity_results:
        lines += ["", "sanity: " + ", ".join(
            f"{n} {STATUS_TEXT.get(r.status, r.status)}" + (f" ({r.message.splitlines()[0]})" if r.message else "")
            for n, r in profile.sanity_results.items()
        )]
    if profile.reference is not None:
        res = list(profile.reference_results.values())
        bad = [r for r in res if r.status != PASSED]
        ref = profile.reference
        lines += ["", f"reference {ref['name']} (against {ref['against']}): {len(res) - len(bad)} of {len(res)} cases match"]
        lines += [f"  {r.case_id}: {r.message}" for r in bad]
    lines += ["", "cases (P / R / F1; random-detector cases: means over the runs)"]
    lines += render_cases(profile, markdown)
    return "\n".join(lines) + "\n"


def _one_line(message: str) -> str:
    """A (possibly multi-line) message on one line, its lines joined by "; "."""
    return "; ".join(line.strip() for line in message.splitlines() if line.strip())


def _jsonable(obj: Any) -> Any:
    """Plain JSON data: numpy numbers to Python, NaN to None, unknown objects to repr."""
    if isinstance(obj, Mapping):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, (bool, np.bool_)):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return _num(float(obj))
    if obj is None or isinstance(obj, str):
        return obj
    return repr(obj)


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
    ) -> None:
        self.resolved = resolved
        own = expectations_from(resolved.oipr_profile, "oipr_profile") if resolved.oipr_profile else {}
        self.expectations = merge_expectations(own, dict(expectations or {}))
        try:
            self.caller = Caller(resolved.fn, timeout=timeout, isolate=isolate)
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
            out = self.caller(case.y_true, pred)
            if not out.ok:
                where = f"run {i + 1} of {n}: " if n > 1 else ""
                value = ""
                if out.score is not None:
                    value = f" (returned P={out.score.precision!r}, R={out.score.recall!r}, F1={out.score.f1!r})"
                result = CaseResult(case_id, out.kind, f"{where}{out.message}{value}", n, None, None, out.returned_f1,
                                    time.perf_counter() - t0, out.detail)
                break
            assert out.score is not None
            runs.append(out.score)
            returned_f1 = returned_f1 and out.returned_f1
        if result is None:
            if n == 1:
                result = CaseResult(case_id, OK, "", 1, runs[0], None, returned_f1, time.perf_counter() - t0)
            else:
                mean = Score(*(float(v) for v in np.mean(np.array(runs, dtype=float), axis=0)))
                result = CaseResult(case_id, OK, "", n, mean, tuple(runs), returned_f1, time.perf_counter() - t0)
        self._case_results[case_id] = result
        return result

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
            obs = ch.Observations(
                scores={r.case_id: r.score for r in results},  # type: ignore[misc]
                baseline={c: self.baseline(c) for c in ch.BASELINE_CASES[name]},
                true_events={c: len(self.cases[c].y_true_events) for c in needed},
            )
            finding = ch.derive(name, obs)
            status = judge(finding.value, expectation)
            res = CharacteristicResult(name, finding.value, expectation, status, finding, finding.explanation)
        self._char_results[name] = res
        return res

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
            out = self.caller(y, y)
            if not out.ok:
                return f"y_pred = y_true of {cid}: {out.message}"
            if not all(_same(v, 1.0, SANITY_TOLERANCE) for v in out.score):  # type: ignore[union-attr]
                s = out.score
                return f"y_pred = y_true of {cid} scores P={s.precision!r}, R={s.recall!r}, F1={s.f1!r}, expected (1, 1, 1)"  # type: ignore[union-attr]
        return ""

    def _sanity_deterministic(self) -> str:
        for cid in _DETERMINISM_CASES:
            t, p = self._series(cid)
            first, second = self.caller(t, p), self.caller(t, p)
            if not (first.ok and second.ok):
                bad = first if not first.ok else second
                return f"{cid}: {bad.message}"
            if not all(_same(a, b, 0.0) for a, b in zip(first.score, second.score)):  # type: ignore[arg-type]
                return f"{cid}: two calls on the same input gave {tuple(first.score)} and {tuple(second.score)}"  # type: ignore[arg-type]
        return ""

    def _sanity_no_mutation(self) -> str:
        for cid in _MUTATION_CASES:
            t, p = self._series(cid)
            out = self.caller(t, p)
            if out.kind == MUTATED:
                return f"{cid}: {out.message}"
        mutated = [r.case_id for r in self._case_results.values() if r.status == MUTATED]
        if mutated:
            return f"mutated its inputs on case(s) {', '.join(mutated)}"
        return ""

    def _sanity_bool_int(self) -> str:
        for cid in _DTYPE_CASES:
            t, p = self._series(cid)
            outs = {str(np.dtype(d)): self.caller(t, p, dtype=d) for d in (np.int8, np.int64, bool)}
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
                if not _same(a, b, tol):
                    problems.append(f"{metric} {a!r} vs {b!r} (|diff| {abs(a - b):.3g} > {tol:.3g})")
            if not problems and self.against == "reference" and ref.runs is not None and mine.runs is not None:
                for i, (s, t) in enumerate(zip(mine.runs, ref.runs)):
                    bad = [m for m, a, b in zip(Score._fields, s, t) if not _same(a, b, self.tolerance)]
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
    ) as session:
        return session.run_all(sanity=sanity)
