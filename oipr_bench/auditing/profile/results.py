"""The result of an audit as plain data: :class:`Profile` and its parts.

A :class:`Profile` holds what an audit observed (per-case scores, the ten
characteristic values of Table 5 with their evidence, the sanity checks, the
reference comparisons) and renders itself as text, Markdown or JSON
(``schema/report.schema.json``).  :mod:`oipr_bench.auditing.profile.profiles` computes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ..table5 import characteristics as ch
from ...errors import FixtureError
from ...evaluators.score import Score
from ..expectations import SANITY_OK, Expectation
from ...jsondata import jsonable, number, schema_problem, unnumber
from ..calling.declarations import Declarations
from ..properties.results import PropertyResult
from ..table5.readings import KIND_PR, KIND_SCORE
from .render import render_profile
from .report_upgrade import REPORT_FORMAT, upgrade_report
from .run_record import RunRecord, present_items
from ...vocabulary import FAILED, OK, PASSED, UNDETERMINED, kind_of
from ..regression.differential import DifferentialResult
from ..regression.signature import signature_of

#: File name of the report's JSON Schema in the ``schema`` data folder.
REPORT_SCHEMA_FILE = "report.schema.json"


def _score_list(s: Score | None) -> list[float | None] | None:
    return None if s is None else [number(v) for v in s]


def _score_from(values: Any) -> Score | None:
    return None if values is None else Score(*(unnumber(v) for v in values))


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
        return {
            "case_id": self.case_id,
            "scenario": scenario,
            "case": case,
            "n_runs": self.n_runs,
            "status": self.status,
            "message": self.message,
            "precision": None if s is None else number(s.precision),
            "recall": None if s is None else number(s.recall),
            "f1": None if s is None or self.kind == KIND_SCORE else number(s.f1),
            "score": None if s is None else number(s.f1),
            "runs": None if self.runs is None else [_score_list(r) for r in self.runs],
            "returned_f1": self.returned_f1,
            "seconds": round(self.seconds, 6),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "CaseResult":
        scalar = all(d.get(k) is None for k in ("precision", "recall", "f1")) and d.get("score") is not None
        score = None if d.get("f1", None) is None and d.get("precision") is None and d.get("recall") is None else Score(
            unnumber(d.get("precision")), unnumber(d.get("recall")), unnumber(d.get("f1"))
        )
        if scalar:
            score = Score(unnumber(None), unnumber(None), unnumber(d.get("score")))
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
    """Outcome of one sanity check (passed, failed, undetermined, or declared: deviation, unexpected_pass)."""

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
    differential_results : dict of str to DifferentialResult
        Per family of a differential run (:mod:`oipr_bench.auditing.regression.differential`).
    reference : dict or None
        ``{"name", "params", "against", "tolerance"}`` of the reference comparison.
    options : dict
        Run options (timeout, isolate).
    package_version, dataset_version : str
    kind : {"pr", "score"} or None
        What the evaluator returns (None when no call succeeded).
    declarations : Declarations
        Input kind, orientation and bounds in force (:mod:`oipr_bench.auditing.calling.declarations`).
    property_results : dict of str to PropertyResult
        The metric properties run (:mod:`oipr_bench.auditing.properties.run`), in report order.
    fixtures : dict
        ``sha256`` of the cases run, the user's ``cases_file`` (or None) and its ``user_cases``.
    run : RunRecord or None
        The items the suite planned, those deselected, and whether the run was interrupted
        (:mod:`oipr_bench.auditing.profile.run_record`); None: the items held are the plan.
    state : str or None
        A digest of the evaluator object's own state (an instance's attributes, a partial's
        arguments; :func:`oipr_bench.auditing.regression.object_state.state_digest`), or None.
    stored_ok, stored_signature : bool, str or None
        The ``ok`` and ``signature`` a JSON report stored (:meth:`from_dict`), compared by
        ``verify`` with the ones computed from its fields; None for a profile computed here.
    """

    evaluator: str
    params: dict[str, Any]
    case_results: dict[str, CaseResult] = field(default_factory=dict)
    characteristic_results: dict[str, CharacteristicResult] = field(default_factory=dict)
    sanity_results: dict[str, SanityResult] = field(default_factory=dict)
    reference_results: dict[str, ReferenceResult] = field(default_factory=dict)
    differential_results: dict[str, DifferentialResult] = field(default_factory=dict)
    reference: dict[str, Any] | None = None
    options: dict[str, Any] = field(default_factory=dict)
    package_version: str = ""
    dataset_version: str = ""
    kind: str | None = None
    declarations: Declarations = field(default_factory=Declarations)
    property_results: dict[str, PropertyResult] = field(default_factory=dict)
    fixtures: dict[str, Any] = field(default_factory=dict)
    run: RunRecord | None = None
    state: str | None = None
    stored_ok: bool | None = None
    stored_signature: str | None = None

    @property
    def items(self) -> tuple[str, ...]:
        """The ids of the items this profile holds (``characteristic[fragments_merging]``, ...)."""
        return present_items(self)

    @property
    def run_record(self) -> RunRecord:
        """:attr:`run`, or (none recorded) a record planning exactly the items held."""
        return self.run if self.run is not None else RunRecord(self.items)

    @property
    def complete(self) -> bool:
        """True when the run was not interrupted and holds every item its suite planned."""
        return self.run_record.complete(self.items)

    @property
    def properties(self) -> dict[str, str | None]:
        """Observed value per metric property run (None when it could not be determined)."""
        return {n: r.observed for n, r in self.property_results.items()}

    @property
    def signature(self) -> str:
        """The audit's signature line (:func:`oipr_bench.auditing.regression.signature.signature_of`)."""
        return signature_of(self)

    @property
    def characteristics(self) -> dict[str, str | None]:
        """Observed value per characteristic (None when it could not be determined)."""
        return {n: r.observed for n, r in self.characteristic_results.items()}

    @property
    def evidence(self) -> dict[str, ch.Finding]:
        """The :class:`~oipr_bench.auditing.table5.characteristics.Finding` behind each determined characteristic."""
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
        """True when the run is complete (:attr:`complete`) and nothing failed: every case ran, no
        characteristic, sanity check or reference comparison failed."""
        return (
            self.complete
            and all(r.ok for r in self.case_results.values())
            and all(r.status not in (FAILED, UNDETERMINED) for r in self.characteristic_results.values())
            and all(r.status in SANITY_OK for r in self.sanity_results.values())
            and all(r.status == PASSED for r in self.reference_results.values())
            and not any(r.counts_as_failure for r in self.property_results.values())
            and all(r.status == PASSED for r in self.differential_results.values())
        )

    def failures(self) -> list[str]:
        """One line per problem (failed case, characteristic, sanity check or reference comparison)."""
        out = [f"case[{r.case_id}]: {r.status}: {r.message}" for r in self.case_results.values() if not r.ok]
        for r in self.characteristic_results.values():
            if r.status == FAILED:
                out.append(f"characteristic[{r.name}]: observed {r.observed}, expected {r.expectation.describe()}")
            elif r.status == UNDETERMINED:
                out.append(f"characteristic[{r.name}]: undetermined: {r.message}")
        out += [f"sanity[{r.name}]: {one_line(r.message)}" for r in self.sanity_results.values() if r.status not in SANITY_OK]
        out += [f"reference[{r.case_id}]: {r.message}" for r in self.reference_results.values() if r.status != PASSED]
        out += [f"property[{r.name}]: observed {r.observed}, expected {r.expectation.describe()}"
                if r.status == FAILED and r.expectation is not None else f"property[{r.name}]: undetermined: {r.message}"
                for r in self.property_results.values() if r.counts_as_failure]
        out += [r.failure_line for r in self.differential_results.values() if r.status != PASSED]
        partial = self.run_record.describe(self.items)
        if partial:
            out.append(f"{partial}: a partial run is never ok")
        return out

    def to_dict(self) -> dict[str, Any]:
        """The JSON report (``schema/report.schema.json``) as plain data."""
        return {
            "format": REPORT_FORMAT[0],
            "format_version": REPORT_FORMAT[1],
            "evaluator": {"name": self.evaluator, "params": jsonable(self.params), "kind": self.kind,
                          **self.declarations.to_dict(), **({"state": self.state} if self.state else {})},
            "package": {"name": "oipr-bench", "version": self.package_version},
            "dataset": {"version": self.dataset_version},
            "options": jsonable(self.options),
            "cases": [r.to_dict() for r in self.case_results.values()],
            "characteristics": [r.to_dict() for r in self.characteristic_results.values()],
            "sanity": [r.to_dict() for r in self.sanity_results.values()],
            "reference": None
            if self.reference is None
            else {**jsonable(self.reference), "results": [r.to_dict() for r in self.reference_results.values()]},
            "properties": [r.to_dict() for r in self.property_results.values()],
            "differential": [r.to_dict() for r in self.differential_results.values()], "fixtures": jsonable(self.fixtures),
            "run": self.run_record.to_dict(self.items),
            "signature": self.signature,
            "ok": self.ok,
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as canonical JSON text (NaN stored as null)."""
        from ...io import dumps_json

        return dumps_json(self.to_dict())

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], *, source: str | None = None) -> "Profile":
        """Rebuild a profile from :meth:`to_dict` output (e.g. a JSON report).

        A layout-version-1 report (oipr-bench 0.1: precision/recall evaluators
        only) is read as kind ``pr`` with the default declarations.

        Raises
        ------
        FixtureError
            ``d`` is not a report (``schema/report.schema.json``): names the
            JSON path of the first problem (and ``source``, the file, if given);
            or its layout version is newer than this oipr-bench reads.
        """
        if isinstance(d, Mapping) and d.get("format") == REPORT_FORMAT[0]:
            d = upgrade_report(d, source)
        problem = schema_problem(d, REPORT_SCHEMA_FILE) if isinstance(d, Mapping) else None
        if not isinstance(d, Mapping) or problem is not None:
            what = problem.message if problem else f"expected a JSON object, got {type(d).__name__}"
            raise FixtureError(f"not an oipr-bench report: {what}", file=source,
                               json_path=problem.path if problem else None)
        ref = d.get("reference")
        _refuse_duplicates(d, source)
        profile = cls(
            evaluator=d["evaluator"]["name"],
            params=dict(d["evaluator"]["params"]),
            case_results={c["case_id"]: CaseResult.from_dict(c) for c in d["cases"]},
            characteristic_results={c["name"]: CharacteristicResult.from_dict(c) for c in d["characteristics"]},
            sanity_results={s["name"]: SanityResult.from_dict(s) for s in d["sanity"]},
            reference_results={} if ref is None else {r["case_id"]: ReferenceResult.from_dict(r) for r in ref["results"]},
            differential_results={r["family"]: DifferentialResult.from_dict(r) for r in d.get("differential", [])},
            reference=None if ref is None else {k: v for k, v in ref.items() if k != "results"},
            options=dict(d.get("options", {})),
            package_version=d["package"]["version"],
            dataset_version=d["dataset"]["version"],
            kind=d["evaluator"]["kind"],
            declarations=Declarations.from_dict(d["evaluator"]),
            property_results={p["name"]: PropertyResult.from_dict(p) for p in d["properties"]},
            fixtures=dict(d.get("fixtures") or {}),
            state=d["evaluator"].get("state"),
            stored_ok=d["ok"],
            stored_signature=d.get("signature"),
        )
        profile.run = RunRecord.from_dict(d.get("run"), profile.items)
        return profile

    def format(self, fmt: str = "table") -> str:
        """Render as ``"table"`` (plain text), ``"markdown"`` or ``"json"``."""
        if fmt == "json":
            return self.to_json()
        if fmt not in ("table", "markdown"):
            raise ValueError(f"unknown format {fmt!r}; use table, markdown or json")
        return render_profile(self, markdown=(fmt == "markdown"))

    def __str__(self) -> str:
        return self.format("table")


def _refuse_duplicates(d: Mapping[str, Any], source: str | None) -> None:
    """A report holding one item twice is refused (reading it would keep one copy silently)."""
    ref = d.get("reference")
    lists = (("cases", d["cases"], "case_id"), ("characteristics", d["characteristics"], "name"),
             ("sanity", d["sanity"], "name"), ("properties", d["properties"], "name"),
             ("differential", d.get("differential", []), "family"),
             ("reference.results", [] if ref is None else ref["results"], "case_id"))
    for where, items, key in lists:
        seen: set[Any] = set()
        for i, item in enumerate(items):
            if item[key] in seen:
                raise FixtureError(f"not an oipr-bench report: {key} {item[key]!r} appears twice",
                                   file=source, json_path=f"$.{where}[{i}]")
            seen.add(item[key])


def one_line(message: str) -> str:
    """A (possibly multi-line) message on one line, its lines joined by "; "."""
    return "; ".join(line.strip() for line in message.splitlines() if line.strip())
