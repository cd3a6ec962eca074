"""The result of an audit as plain data: :class:`Profile` and its parts.

A :class:`Profile` holds what an audit observed (per-case scores, the ten
characteristic values of Table 5 with their evidence, the sanity checks, the
reference comparisons) and renders itself as text, Markdown or JSON
(``schema/report.schema.json``).  :mod:`oipr_bench.profiles` computes it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

from . import characteristics as ch
from .evaluators._base import Score
from .declarations import Declarations
from .expectations import Expectation
from .readings import KIND_PR, KIND_SCORE
from .vocabulary import (
    DEVIATION,
    FAILED,
    NOT_APPLICABLE,
    NOT_RUN,
    OK,
    PASSED,
    PROPERTY_SEARCH,
    SANITY_CHECKS,
    UNDETERMINED,
    UNEXPECTED_PASS,
    kind_of,
)

#: Name and version of the JSON report layout (``schema/report.schema.json``).
REPORT_FORMAT = ("oipr-bench-report", 2)
#: Report layout versions :meth:`Profile.from_dict` reads (1: before scalar results; read as kind "pr").
READABLE_FORMAT_VERSIONS: tuple[int, ...] = (1, 2)


#: ``--against=paper``: half a unit in the 4th decimal the paper prints.
PAPER_TOLERANCE = 5e-5
#: ``--against=paper`` on a random-detector case: this many standard errors of the 100-run mean, on top.
PAPER_STDERRS = 3.0

#: Sanity: a perfect prediction must score 1 within this; F1 must equal 2PR/(P+R) within this.
SANITY_TOLERANCE = 1e-9

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
    kind : {"pr", "score"}
        What the evaluator returned; a scalar is stored as ``Score(nan, nan, value)``.
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
    kind: str = KIND_PR

    @property
    def ok(self) -> bool:
        return self.status == OK

    def to_dict(self) -> dict[str, Any]:
        scenario, _, case = self.case_id.partition("/")
        s = self.score
        scalar = self.kind == KIND_SCORE
        return {
            "case_id": self.case_id,
            "scenario": scenario,
            "case": case,
            "n_runs": self.n_runs,
            "status": self.status,
            "message": self.message,
            "precision": None if s is None else _num(s.precision),
            "recall": None if s is None else _num(s.recall),
            "f1": None if s is None or scalar else _num(s.f1),
            "score": None if s is None else _num(s.f1),
            "runs": None if self.runs is None else [_score_list(r) for r in self.runs],
            "returned_f1": self.returned_f1,
            "seconds": round(self.seconds, 6),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "CaseResult":
        scalar = d.get("precision") is None and d.get("recall") is None and d.get("f1") is None and d.get("score") is not None
        score = None if d.get("f1", None) is None and d.get("precision") is None and d.get("recall") is None else Score(
            _unnum(d.get("precision")), _unnum(d.get("recall")), _unnum(d.get("f1"))
        )
        if scalar:
            score = Score(math.nan, math.nan, _unnum(d.get("score")))
        if d["status"] != OK:
            score = None
        runs = None if d.get("runs") is None else tuple(_score_from(r) for r in d["runs"])  # type: ignore[misc]
        return cls(d["case_id"], d["status"], d.get("message", ""), int(d.get("n_runs", 1)), score, runs,
                   bool(d.get("returned_f1", True)), float(d.get("seconds", 0.0)), d.get("detail", ""),
                   KIND_SCORE if scalar else KIND_PR)


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
        return kind_of(self.name)

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
    kind : {"pr", "score"} or None
        What the evaluator returns (None when no call succeeded).
    declarations : Declarations
        Input kind, orientation and bounds in force (:mod:`oipr_bench.declarations`).
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
    kind: str | None = None
    declarations: Declarations = field(default_factory=Declarations)

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
        cols = ["case_id", "scenario", "case", "n_runs", "precision", "recall", "f1", "score", "status", "message", "seconds"]
        frame = pd.DataFrame(rows, columns=cols)
        for c in ("precision", "recall", "f1", "score"):
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
            "evaluator": {"name": self.evaluator, "params": _jsonable(self.params), "kind": self.kind,
                          **self.declarations.to_dict()},
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
        """Rebuild a profile from :meth:`to_dict` output (e.g. a JSON report).

        Reads the layout versions :data:`READABLE_FORMAT_VERSIONS` (a version-1
        report is a precision/recall evaluator's, with the default declarations).

        Raises
        ------
        ValueError
            Not an oipr-bench report, or a layout version this release does not read.
        """
        fmt, version = d.get("format"), d.get("format_version")
        if fmt != REPORT_FORMAT[0]:
            raise ValueError(f"not an oipr-bench report (format {fmt!r}, expected {REPORT_FORMAT[0]!r})")
        if version not in READABLE_FORMAT_VERSIONS:
            raise ValueError(f"report format version {version!r} is not readable by this oipr-bench (it reads versions "
                             f"{', '.join(map(str, READABLE_FORMAT_VERSIONS))}); re-run the audit or upgrade oipr-bench")
        ref = d.get("reference")
        ev = d["evaluator"]
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
            kind=ev.get("kind", KIND_PR if version == 1 else None),
            declarations=Declarations.from_dict(ev),
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
    NOT_APPLICABLE: "not applicable",
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
    scalar = profile.kind == KIND_SCORE
    for r in profile.case_results.values():
        s = r.score
        if scalar:
            vals = ["-" if s is None else _cell(s.f1)]
        else:
            vals = ["-", "-", "-"] if s is None else [_cell(v) for v in s]
        status = "ok" if r.ok else f"{r.status}: {r.message}"
        rows.append([r.case_id, str(r.n_runs), *vals, status])
    header = ["score"] if scalar else ["P", "R", "F1"]
    return _table(["case", "runs", *header, "status"], rows, markdown)


def describe_kind(profile: "Profile") -> str:
    """One line: what the evaluator returns and takes, and how a scalar is read."""
    d = profile.declarations
    takes = "anomaly scores (float64)" if d.input_kind == "scores" else "0/1 predictions"
    if profile.kind == KIND_SCORE:
        lo, hi = ("open" if math.isinf(b) else f"{b:g}" for b in d.bounds)
        way = "higher" if d.higher_is_better else "lower"
        returns = f"one number (score; {way} is better, bounds {lo} to {hi})"
    elif profile.kind == KIND_PR:
        returns = "precision and recall"
    else:
        returns = "nothing usable (no call succeeded)"
    return f"evaluator kind: {profile.kind or '-'}: takes {takes}, returns {returns}"


def render(profile: "Profile", markdown: bool = False) -> str:
    """The whole profile as text: header, characteristics, sanity, reference, cases.

    A multi-line sanity message (``property-search``) shows its first line only;
    :meth:`Profile.failures` has all of it.
    """
    params = ", ".join(f"{k}={v!r}" for k, v in profile.params.items()) or "none"
    lines = [
        f"{'## ' if markdown else ''}oipr-bench profile of {profile.evaluator} (parameters: {params})",
        f"oipr-bench {profile.package_version}, dataset {profile.dataset_version}",
        describe_kind(profile),
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
    shown = "score" if profile.kind == KIND_SCORE else "P / R / F1"
    lines += ["", f"cases ({shown}; random-detector cases: means over the runs)"]
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


