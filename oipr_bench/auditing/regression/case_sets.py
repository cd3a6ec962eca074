"""The cases an audit runs: the dataset's 25, plus a user's own (``cases=FILE``), and what a report records of them.

:func:`cases_with` loads the dataset (checking it holds every case the characteristic rules
need) and adds the user's cases (:func:`oipr_bench.scenarios.loader.load_cases_file`), refusing
one that reuses a dataset id.  A user's case has no stored reference value and no Table A1 row:
:func:`user_reference` computes the reference on it and compares with that.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence

from ..options import AuditOptions

__all__ = ["cases_with", "first_runs", "user_cases_of", "user_reference", "fixtures_of"]


def user_cases_of(options: AuditOptions) -> list[Any]:
    """The user's own cases of ``options.cases`` (loaded and validated), or none."""
    if options.cases is None:
        return []
    from ...scenarios.loader import load_cases_file

    return load_cases_file(options.cases)


def cases_with(user_cases: Sequence[Any], random_runs: int | None = None) -> dict[str, Any]:
    """The dataset's cases by id, then ``user_cases``; with ``random_runs``, a random-detector case keeps its first runs only.

    Raises
    ------
    FixtureError
        The dataset lacks a case the rules need, or a user's case reuses a dataset id
        (naming the user's file, the case and ``$.cases[i].id``).
    """
    from ... import scenarios
    from ...errors import FixtureError
    from ..table5.characteristics import REQUIRED_CASES

    cases = scenarios.load()
    scenarios.loader.check_complete(cases, [c for ids in REQUIRED_CASES.values() for c in ids])
    out = {c.id: c for c in cases}
    dataset_scenarios = {c.scenario for c in cases}
    for i, case in enumerate(user_cases):
        if case.id in out:
            raise FixtureError("this id is a case of the built-in dataset; give your scenario another name",
                               file=case.file, case_id=case.id, json_path=f"$.cases[{i}].id")
        if case.scenario in dataset_scenarios:  # its cases would be listed among the dataset's
            raise FixtureError(f"scenario {case.scenario!r} is a scenario of the built-in dataset; give your scenario "
                               "another name", file=case.file, case_id=case.id, json_path="$.scenario")
    out.update((c.id, c) for c in user_cases)
    if random_runs is not None:  # a reduced audit (AuditOptions.random_runs)
        out = {cid: first_runs(c, random_runs) if c.is_random else c for cid, c in out.items()}
    return out


def first_runs(case: Any, k: int) -> Any:
    """``case`` with its first ``k`` prediction runs only (all of them when it has fewer)."""
    return replace(case, predictions=case.predictions[:k], prediction_events=case.prediction_events[:k])


def user_reference(case: Any, options: AuditOptions) -> tuple[Any, AuditOptions]:
    """The reference value of a user's case (computed here) and the options to compare with it (``against`` the reference)."""
    from ...reference.values import compute_value

    value = compute_value(case, options.reference, **options.reference_params)  # type: ignore[arg-type]
    return value, replace(options, against=None)


def fixtures_of(cases: Sequence[Any], options: AuditOptions, user_cases: Sequence[Any]) -> dict[str, Any]:
    """What a report records of the cases run: their hash, the user's case file and its case ids."""
    from .signature import fixture_hash

    return {"sha256": fixture_hash(cases), "cases_file": options.recorded().get("cases"),
            "user_cases": [c.id for c in user_cases]}
