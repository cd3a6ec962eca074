"""Compare recomputed atlas rows with the committed ones (``oipr-bench atlas --check``)."""

from __future__ import annotations

from typing import Any, Mapping

from .build import same_number

__all__ = ["drift", "report_drift", "TOLERANCE"]

#: Absolute tolerance on a per-case headline number.
TOLERANCE = 1e-9

_DECLARED = ("version", "params", "input_kind", "kind", "higher_is_better", "bounds", "random_runs", "chance_draws", "status")


def row_drift(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """What differs between a committed row and its recomputation (one line each)."""
    rid = new["id"]
    out = [f"{rid}: {key} {old.get(key)!r} -> {new.get(key)!r}" for key in _DECLARED if old.get(key) != new.get(key)]
    rest = sorted((set(old) | set(new)) - set(_DECLARED) - {"characteristics", "properties", "cases"})
    out += [f"{rid}: {key} {old.get(key)!r} -> {new.get(key)!r}" for key in rest if old.get(key) != new.get(key)]
    for name, value in new["characteristics"].items():
        if old["characteristics"].get(name) != value:
            out.append(f"{rid}: characteristic {name} {old['characteristics'].get(name)!r} -> {value!r}")
    for name, value in new.get("properties", {}).items():
        if old.get("properties", {}).get(name) != value:
            out.append(f"{rid}: property {name} {old.get('properties', {}).get(name)!r} -> {value!r}")
    for case_id, value in new["cases"].items():
        before = old["cases"].get(case_id)
        if not same_number(before, value, TOLERANCE):
            out.append(f"{rid}: case {case_id} {before!r} -> {value!r}")
    return out


def drift(committed: Mapping[str, Mapping[str, Any]], rows: list[Mapping[str, Any]]) -> list[str]:
    """Every drift of ``rows`` against ``committed`` (by row id)."""
    out: list[str] = []
    for row in rows:
        old = committed.get(row["id"])
        if old is None:
            out.append(f"{row['id']}: not in the committed atlas")
        else:
            out += row_drift(old, row)
    return out


def report_drift(rid: str, stored: Mapping[str, Any] | None, fresh: Mapping[str, Any] | None) -> list[str]:
    """What differs between a row's stored audit report and its recomputation: every number and verdict
    ``verify`` compares (:func:`oipr_bench.auditing.profile.verify.compare_profiles`), within :data:`TOLERANCE`.

    The signature line is left to the row's own declared fields (:func:`row_drift`): a report kept
    from an earlier oipr-bench signs with that version's digests.  A row without a report on either
    side (unavailable, an error) gives nothing here; its status drifts in :func:`row_drift`.
    """
    from ..auditing.profile.results import Profile
    from ..auditing.profile.verify import compare_profiles

    if stored is None or fresh is None:
        return []
    found = compare_profiles(Profile.from_dict(stored), Profile.from_dict(fresh), TOLERANCE)
    return [f"{rid}: report {line}" for line in found.problems if not line.startswith("signature: ")]
