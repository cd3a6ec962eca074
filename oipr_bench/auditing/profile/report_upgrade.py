"""Reading reports of older layouts: each version's report in the current layout.

The JSON report (``schema/report.schema.json``) is at layout version 4.
Version 1 (oipr-bench 0.1) had precision/recall evaluators only; version 2
(0.2) added scalar results and declarations; version 3 (0.3) adds the metric
properties (``properties``) and the suite in ``options``; version 4 (0.4) adds
``run`` (the items planned, deselected and not run, an interruption) and the
evaluator's ``state``.  An old report reads as what it was: no properties, the
Table 5 suite, a complete run of the items it holds.
"""

from __future__ import annotations

from typing import Any, Mapping

from ...errors import FixtureError
from ..calling.declarations import Declarations
from ..table5.readings import KIND_PR
from ...vocabulary import SUITE_TABLE5

__all__ = ["REPORT_FORMAT", "upgrade_report"]

#: Name and version of the JSON report layout (``schema/report.schema.json``).
REPORT_FORMAT = ("oipr-bench-report", 4)


def _v1_to_v2(d: Mapping[str, Any]) -> Mapping[str, Any]:
    ev, cases = d.get("evaluator"), d.get("cases")
    if not isinstance(ev, Mapping) or not isinstance(cases, list):
        return d
    return {
        **d,
        "format_version": 2,
        "evaluator": {**ev, "kind": KIND_PR, **Declarations().to_dict()},
        "cases": [{**c, "score": c.get("f1")} if isinstance(c, Mapping) else c for c in cases],
    }


def _v2_to_v3(d: Mapping[str, Any]) -> Mapping[str, Any]:
    options = d.get("options")
    if not isinstance(options, Mapping):
        return d
    return {**d, "format_version": 3, "options": {**options, "suite": SUITE_TABLE5}, "properties": []}


def _v3_to_v4(d: Mapping[str, Any]) -> Mapping[str, Any]:
    return {**d, "format_version": 4}


def upgrade_report(d: Mapping[str, Any], source: str | None) -> Mapping[str, Any]:
    """A report of an older layout version in the current layout (1 -> 2 -> 3 -> 4).

    Raises
    ------
    FixtureError
        The report's layout is newer than this oipr-bench reads.
    """
    version = d.get("format_version")
    if version == REPORT_FORMAT[1] or not isinstance(version, int) or isinstance(version, bool):
        return d
    if version > REPORT_FORMAT[1]:
        raise FixtureError(f"report layout version {version} is newer than this oipr-bench reads "
                           f"(up to {REPORT_FORMAT[1]}); upgrade oipr-bench or re-run the audit",
                           file=source, json_path="$.format_version")
    if version == 1:
        d = _v1_to_v2(d)
    if d.get("format_version") == 2:
        d = _v2_to_v3(d)
    if d.get("format_version") == 3:
        d = _v3_to_v4(d)
    return d
