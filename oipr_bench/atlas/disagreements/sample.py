"""A fixed sample of a slow row's cases, recomputed by every ``oipr-bench atlas --check``.

A row declared slow (``Adapter.slow``: a second or more per call) is profiled in full only by
``atlas --write --include-slow`` and ``atlas --check --include-slow`` (docs/atlas.md gives the
time). A plain ``--check`` (the CI step) still recomputes :data:`SAMPLE_CASES` for every
profiled slow row and compares their headline numbers with the committed ones, so a slow row
that drifts (a changed package, a metric keeping state between calls) is caught in CI too.

The sample is three deterministic Table A1 cases of three lengths (1000, 500 and 200 points, with
7, 3 and 1 ground-truth events), run from the longest to the shortest: the reverse of the full
audit's order, so the metric object's first call differs from the one the committed profile was
made with.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..adapters.base import Adapter, Unavailable
from ..build import headline, same_number

__all__ = ["SAMPLE_CASES", "sample_cases", "sample_drift"]

#: The cases a plain ``atlas --check`` recomputes for a slow row, in the order they are run.
SAMPLE_CASES: tuple[str, ...] = ("long_anomaly_effect/c3", "temporal_shifting/c1", "fragmented_tps/c2")


def sample_cases(adapter: Adapter, case_ids: tuple[str, ...] = SAMPLE_CASES) -> dict[str, float | None]:
    """The headline number (score, else F1; None for NaN or a failed call) of each of ``case_ids``.

    The cases run through the audit's own caller and readings (:class:`~oipr_bench.auditing.profile.profiles.AuditSession`),
    with the row's declarations, in the order given.

    Raises
    ------
    Unavailable
        The row's package is not installed.
    """
    from ...auditing.options import AuditOptions
    from ...auditing.profile.profiles import AuditSession
    from ...auditing.calling.resolve import resolve
    from ...vocabulary import SUITE_ALL

    evaluator = adapter.load()
    with AuditSession(resolve(evaluator), AuditOptions(suite=SUITE_ALL, random_runs=adapter.random_runs,
                                                          chance_draws=adapter.chance_draws)) as session:
        return {cid: headline(session.case_result(cid).to_dict()) for cid in case_ids}


def sample_drift(committed: Mapping[str, Any], adapter: Adapter, tolerance: float) -> list[str]:
    """How the recomputed sample of ``adapter`` differs from its committed row (one line each; [] when it agrees).

    A committed row that was not profiled (``not_run``, ``unavailable``) has nothing to compare: [].
    """
    if committed.get("status") != "ok":
        return []
    try:
        fresh = sample_cases(adapter)
    except Unavailable as exc:
        return [f"{adapter.id}: sample not recomputed: {exc}"]
    out = []
    for case_id, value in fresh.items():
        before = committed.get("cases", {}).get(case_id)
        if not same_number(before, value, tolerance):
            out.append(f"{adapter.id}: sampled case {case_id} {before!r} -> {value!r}")
    return out
