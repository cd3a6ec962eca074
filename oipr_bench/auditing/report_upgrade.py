"""Reading a JSON report of an older layout version (``schema/report.schema.json``) in the current layout."""

from __future__ import annotations

from typing import Any, Mapping

from ..errors import FixtureError
from .declarations import Declarations
from .readings import KIND_PR

__all__ = ["upgrade_report", "REPORT_FORMAT"]

#: Name and version of the JSON report layout (``schema/report.schema.json``).
REPORT_FORMAT = ("oipr-bench-report", 2)


def upgrade_report(d: Mapping[str, Any], source: str | None) -> Mapping[str, Any]:
    """A report of an older layout version in the current layout (version 1 -> 2)."""
    version = d.get("format_version")
    if version == REPORT_FORMAT[1] or not isinstance(version, int) or isinstance(version, bool):
        return d
    if version > REPORT_FORMAT[1]:
        raise FixtureError(f"report layout version {version} is newer than this oipr-bench reads "
                           f"(up to {REPORT_FORMAT[1]}); upgrade oipr-bench or re-run the audit",
                           file=source, json_path="$.format_version")
    if version != 1:
        return d
    ev = d.get("evaluator")
    cases = d.get("cases")
    if not isinstance(ev, Mapping) or not isinstance(cases, list):
        return d
    return {
        **d,
        "format_version": REPORT_FORMAT[1],
        "evaluator": {**ev, "kind": KIND_PR, **Declarations().to_dict()},
        "cases": [{**c, "score": c.get("f1")} if isinstance(c, Mapping) else c for c in cases],
    }
