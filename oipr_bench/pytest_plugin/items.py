"""The pytest plugin's state and items (:mod:`oipr_bench.pytest_plugin.plugin` holds the hooks).

:class:`PluginState` is one per pytest process: the
:class:`~oipr_bench.auditing.profile.profiles.AuditSession` and the results gathered from the
items' reports.  :class:`OiprCollector` is the node ``oipr-bench`` that
pytest's collection adds after the user's tests; its :class:`OiprItem` run
the session lazily and ship their results on their reports.
"""

from __future__ import annotations

from typing import Any

import pytest

from ..vocabulary import NOT_APPLICABLE, CHARACTERISTICS, CRASHED, DEVIATION, FAILED, PASSED, UNDETERMINED, UNEXPECTED_PASS
from ..vocabulary import METRIC_PROPERTIES

__all__ = ["STATE", "PluginState", "state_of", "MARKERS", "OiprCollector", "OiprItem", "OiprCheckFailed",
           "DeclaredDeviation"]

#: Where the state lives on the pytest config.
STATE = pytest.StashKey["PluginState"]()


class PluginState:
    """Per-process state: the audit session, and the results gathered from reports."""

    def __init__(self, session: Any, strict: bool) -> None:
        self.session = session
        self.case_ids = list(session.cases)
        self.strict = strict
        self.gathered: dict[str, dict[str, dict[str, Any]]] = {"case": {}, "characteristic": {}, "sanity": {}, "reference": {},
                                                               "property": {}, "differential": {}}
        self.shipped_cases: set[str] = set()
        #: Ids (``kind[key]``) of the oipr-bench items deselected (``-k``, ``-m``, ``--deselect``, ``--lf``).
        self.deselected: list[str] = []
        #: The selection expressions of the run (``keyword``: ``-k``, ``markers``: ``-m``), when given.
        self.selection: dict[str, str] = {}
        #: True once the run was interrupted (Ctrl-C): its report is partial.
        self.interrupted = False

    def pytest_deselected(self, items: list[pytest.Item]) -> None:
        """Remember which oipr-bench items were deselected: the report names them (it is partial)."""
        self.deselected += [f"{i.kind}[{i.key}]" for i in items if isinstance(i, OiprItem)]

    def pytest_keyboard_interrupt(self, excinfo: Any) -> None:
        """A Ctrl-C: the report says the run was interrupted, and is never ok."""
        self.interrupted = True

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Gather the results an item shipped on its report (on the xdist controller too)."""
        payload = getattr(report, "oipr_bench", None)
        if not payload:
            return
        for kind, key, data in payload.get("results", ()):
            self.gathered.setdefault(kind, {})[key] = data

    def build_profile(self) -> Any:
        """The profile of what the items reported (on the xdist controller: from every worker)."""
        from ..auditing.properties.results import PropertyResult
        from ..auditing.regression.differential import DifferentialResult
        from ..auditing.profile.results import CaseResult, CharacteristicResult, ReferenceResult, SanityResult

        g = self.gathered
        return self.session.assemble(
            {c: CaseResult.from_dict(d) for c, d in g["case"].items()},
            {n: CharacteristicResult.from_dict(d) for n, d in g["characteristic"].items()},
            {n: SanityResult.from_dict(d) for n, d in g["sanity"].items()},
            {c: ReferenceResult.from_dict(d) for c, d in g["reference"].items()},
            {n: PropertyResult.from_dict(d) for n, d in g["property"].items()},
            {f: DifferentialResult.from_dict(d) for f, d in g["differential"].items()},
            deselected=tuple(self.deselected), selection=dict(self.selection), interrupted=self.interrupted,
        )


def state_of(config: pytest.Config) -> PluginState | None:
    """The plugin's state, or None when ``--evaluator`` was not given."""
    return config.stash.get(STATE, None)


class OiprCheckFailed(Exception):
    """An oipr-bench item failed; the message is the whole report."""


class DeclaredDeviation(Exception):
    """A characteristic shows the deviation the user declared (reported as xfail)."""


#: The marker of each kind of item (``-m oipr_sanity``), registered in :func:`pytest_configure`.
MARKERS = {
    "case": "oipr_case: an oipr-bench item running the evaluator on one special-scenario case",
    "sanity": "oipr_sanity: an oipr-bench sanity check",
    "characteristic": "oipr_characteristic: an oipr-bench characteristic of Table 5",
    "reference": "oipr_reference: an oipr-bench comparison with a built-in evaluator's reference values",
    "property": "oipr_property: an oipr-bench metric property beyond Table 5 (docs/properties.md)",
    "differential": "oipr_differential: an oipr-bench differential run on one family of generated series pairs",
}


class OiprCollector(pytest.Collector):
    """Parent node of the oipr-bench items (node id ``oipr-bench``), collected after the user's own tests."""

    def collect(self) -> list[pytest.Item]:
        from ..auditing.regression.configured import compares_cases  # lazy: the plugin module imports almost nothing

        state = state_of(self.config)
        if state is None:
            return []
        session = state.session
        table5 = session.runs_table5
        keys = [("case", cid) for cid in state.case_ids if table5]
        keys += [("sanity", name) for name in session.sanity_checks]
        keys += [("characteristic", name) for name in CHARACTERISTICS if table5]
        keys += [("property", name) for name in METRIC_PROPERTIES if session.runs_properties]
        if compares_cases(session.options) and table5:
            keys += [("reference", cid) for cid in state.case_ids]
        keys += [("differential", family) for family in session.families]
        items = []
        for kind, key in keys:
            # The node id given whole, so that it parses back to the same id from pytest's cache (--lf, --sw).
            item = OiprItem.from_parent(self, name=f"{kind}[{key}]", nodeid=f"{self.nodeid}::{kind}[{key}]",
                                        kind=kind, key=key)
            item.add_marker(f"oipr_{kind}")
            if kind in ("characteristic", "sanity"):
                mark_declared_deviation(item, state)
            items.append(item)
        return items


def mark_declared_deviation(item: pytest.Item, state: PluginState) -> None:
    """A characteristic or sanity check declared to deviate from the default is xfail (strict with --strict-expectations)."""
    name = item.key  # type: ignore[attr-defined]
    exp = state.session.expectations.get(name)
    if exp is not None and exp.deviation:
        reason = f"declared deviation: {name} = {' or '.join(exp.values)} ({exp.source})"
        if exp.reason:
            reason += f": {exp.reason}"
        item.add_marker(pytest.mark.xfail(reason=reason, strict=state.strict, raises=DeclaredDeviation))


class OiprItem(pytest.Item):
    """One oipr-bench check: ``case``, ``sanity``, ``characteristic``, ``property``, ``reference`` or ``differential``."""

    def __init__(self, *, kind: str, key: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.kind = kind
        self.key = key
        self._payload: list[tuple[str, str, dict[str, Any]]] = []

    @property
    def state(self) -> PluginState:
        state = state_of(self.config)
        assert state is not None
        return state

    def _ship(self, kind: str, key: str, data: dict[str, Any]) -> None:
        """Queue results (and any newly computed case results) for this item's report."""
        state = self.state
        self._payload.append((kind, key, data))
        for cid, res in state.session.case_results.items():
            if cid not in state.shipped_cases:
                state.shipped_cases.add(cid)
                self._payload.append(("case", cid, res.to_dict()))

    def take_payload(self) -> dict[str, Any] | None:
        if not self._payload:
            return None
        out = {"results": [list(p) for p in self._payload]}
        self._payload = []
        return out

    def setup(self) -> None:
        if self.kind != "case":
            return
        res = self.state.session.case_result(self.key)
        self._ship("case", self.key, res.to_dict())
        if res.status == CRASHED:
            raise OiprCheckFailed(f"case {self.key}: {res.message}")

    def runtest(self) -> None:
        getattr(self, f"_run_{self.kind}")()

    def _run_case(self) -> None:
        res = self.state.session.case_result(self.key)
        if not res.ok:
            msg = f"case {self.key}: {res.status}: {res.message}"
            if res.detail:
                msg += "\n\n" + res.detail.rstrip()
            raise OiprCheckFailed(msg)

    def _run_sanity(self) -> None:
        res = self.state.session.sanity_result(self.key)
        self._ship("sanity", self.key, res.to_dict())
        if res.status == DEVIATION:
            raise DeclaredDeviation(f"sanity check {self.key} fails, as declared: {res.message}")
        if res.status not in (PASSED, UNEXPECTED_PASS):
            # A multi-line message (property-search) is a headline and one line per problem.
            head, _, rest = res.message.partition("\n")
            msg = f"sanity check {self.key} failed: {head}"
            if rest:
                msg += "\n" + "\n".join(f"  {line}" for line in rest.splitlines())
            raise OiprCheckFailed(msg)

    def _run_characteristic(self) -> None:
        res = self.state.session.characteristic_result(self.key)
        self._ship("characteristic", self.key, res.to_dict())
        exp = res.expectation
        if res.status == UNDETERMINED:
            pytest.skip(f"{self.key} cannot be determined: {res.message}")
        if res.status == NOT_APPLICABLE:
            pytest.skip(f"{self.key} is not applicable: {res.message}")
        differs = f"{exp.differs()} (expected {exp.describe()})" if res.status == FAILED else f"expected {exp.describe()}"
        lines = [f"{self.key}: observed {res.observed}, {differs}"]
        if res.finding is not None:
            lines.append(f"evidence: {res.finding.explanation}")
            lines += [f"  {k} = {v:.6g}" for k, v in res.finding.numbers.items()]
        if res.status == DEVIATION:
            raise DeclaredDeviation("\n".join(lines))
        if res.status == FAILED:
            if not exp.deviation:
                lines.append(f"(declare the deviation with --expect {self.key}={res.observed} if it is intended)")
            raise OiprCheckFailed("\n".join(lines))

    def _run_property(self) -> None:
        res = self.state.session.property_result(self.key)
        self._ship("property", self.key, res.to_dict())
        if res.status == NOT_APPLICABLE:
            pytest.skip(f"{self.key} is not applicable: {res.message}")
        if res.status == UNDETERMINED and res.expectation is None:
            pytest.skip(f"{self.key} cannot be determined: {res.message}")
        if res.counts_as_failure:
            exp = res.expectation
            lines = [f"{self.key}: observed {res.observed}, expected {exp.describe() if exp else '-'}", res.message]
            if res.finding is not None:
                lines += [f"  {k} = {v:.6g}" for k, v in res.finding.numbers.items()]
            raise OiprCheckFailed("\n".join(lines))

    def _run_reference(self) -> None:
        res = self.state.session.reference_result(self.key)
        self._ship("reference", self.key, res.to_dict())
        if res.status != PASSED:
            raise OiprCheckFailed(f"reference {self.key}: {res.message}")

    def _run_differential(self) -> None:
        res = self.state.session.differential_result(self.key)
        self._ship("differential", self.key, res.to_dict())
        if res.status != PASSED:
            raise OiprCheckFailed(f"differential {self.key}: {res.message}")

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, (OiprCheckFailed, DeclaredDeviation)):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def _repr_failure_py(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        # Used by pytest for errors in setup (a dead worker process): one clear message, no plugin traceback.
        if isinstance(excinfo.value, OiprCheckFailed):
            return str(excinfo.value)
        return super()._repr_failure_py(excinfo, style=style)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, f"{self.kind}[{self.key}]"
