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
from ...jsondata import jsonable, schema_problem
from ..calling.declarations import Declarations
from ..properties.results import PropertyResult
from .render import render_profile
from .report_upgrade import REPORT_FORMAT, upgrade_report
from ..run_record import RunRecord, duplicate_item, present_items
from .case_runs import CaseResult, score_from as _score_from, score_list as _score_list
from ...vocabulary import FAILED, PASSED, UNDETERMINED, kind_of
from ..regression.differential import DifferentialResult
from ..regression.signature import signature_of

#: File name of the report's JSON Schema in the ``schema`` data folder.
REPORT_SCHEMA_FILE = "report.schema.json"


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
        e = Expectation(d["name"], tuple(d["expected"]), d.get("expectation_source", "default"), d.get("expectation_reason", ""),
                        tuple(d["default"]) if "default" in d else None)
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
    run : RunRecord
        The items planned, deselected, not run; an interruption (:mod:`..run_record`).
    state : str or None
        Digest of the evaluator object's state (:mod:`oipr_bench.auditing.calling.object_state`).
    stored_ok, stored_signature : bool, str or None
        What a JSON report stored (:meth:`from_dict`; ``verify`` compares them), else None.
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
    run: RunRecord = field(default_factory=RunRecord)
    state: str | None = None
    stored_ok: bool | None = None
    stored_signature: str | None = None

    @property
    def complete(self) -> bool:
        """True when the run was not interrupted and holds every item its suite planned."""
        return self.run.complete(present_items(self))

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
        """True when the run is :attr:`complete` and nothing failed (case, characteristic, sanity check, ...)."""
        return (
            self.complete
            and all(r.ok for r in self.case_results.values())
            and all(r.status not in ((FAILED,) if self.profile_only else (FAILED, UNDETERMINED))
                    for r in self.characteristic_results.values())
            and all(r.status in SANITY_OK for r in self.sanity_results.values())
            and all(r.status == PASSED for r in self.reference_results.values())
            and not any(r.counts_as_failure for r in self.property_results.values())
            and all(r.status == PASSED for r in self.differential_results.values())
        )

    @property
    def profile_only(self) -> bool:
        """True when the audit read observed values only, with no expected row (``profile_only``)."""
        return bool(self.options.get("profile_only", False))

    def failures(self) -> list[str]:
        """One line per problem (failed case, characteristic, sanity check or reference comparison)."""
        out = [f"case[{r.case_id}]: {r.status}: {r.message}" for r in self.case_results.values() if not r.ok]
        for r in self.characteristic_results.values():
            if r.status == FAILED:
                out.append(f"characteristic[{r.name}]: observed {r.observed}, {r.expectation.differs()} "
                           f"(expected {r.expectation.describe()})")
            elif r.status == UNDETERMINED:
                out.append(f"characteristic[{r.name}]: undetermined: {r.message}")
        out += [f"sanity[{r.name}]: {one_line(r.message)}" for r in self.sanity_results.values() if r.status not in SANITY_OK]
        out += [f"reference[{r.case_id}]: {r.message}" for r in self.reference_results.values() if r.status != PASSED]
        out += [f"property[{r.name}]: observed {r.observed}, expected {r.expectation.describe()}"
                if r.status == FAILED and r.expectation is not None else f"property[{r.name}]: undetermined: {r.message}"
                for r in self.property_results.values() if r.counts_as_failure]
        out += [r.failure_line for r in self.differential_results.values() if r.status != PASSED]
        return out + [f"{line}: a partial run is never ok" for line in [self.run.describe(present_items(self))] if line]

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
            "run": self.run.to_dict(present_items(self)),
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
        ref, twice = d.get("reference"), duplicate_item(d)
        if twice:
            raise FixtureError(f"not an oipr-bench report: {twice[0]}", file=source, json_path=twice[1])
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
        profile.run = RunRecord.from_dict(d.get("run"), present_items(profile))
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


def one_line(message: str) -> str:
    """A (possibly multi-line) message on one line, its lines joined by "; "."""
    return "; ".join(line.strip() for line in message.splitlines() if line.strip())
