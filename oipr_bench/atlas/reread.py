"""Re-read a stored audit report with the current readings: what ``atlas --write`` does for the rows it keeps.

The slow rows (and another environment's rows) are not profiled again by ``atlas --write``; their
stored report (``profiles/<slug>.json``) holds every number the readings below need, so their cells
follow the current rules without a new profile:

- each characteristic's verdict passes :func:`~oipr_bench.auditing.table5.scale_guard.guarded` on its
  own evidence (the anchors of the cases it read, the chance standard error): a verdict on a scale
  where the uninformative input beats the perfect one, or a level against chance on a span its
  standard error can move, becomes ``undetermined`` with the reason, exactly as in a fresh audit (a
  finding whose evidence lacks a chance standard error it needs, as the random-overestimation evidence
  of reports written before it kept one, is ``undetermined`` with that reason);
- each metric property's verdict passes
  :func:`~oipr_bench.auditing.properties.run.guarded_property` on its own evidence (chance ordering:
  the random draws of its curve);
- the sanity checks: ``deterministic`` fails only when two calls on one input differed (a probe that
  gave no value twice is noted, not a failure), and ``no_nan`` is read from the stored case results.

Re-reading a report the current oipr-bench wrote changes nothing (``tests/test_atlas_reread.py``
checks that a fresh audit equals the re-reading of the stored report for fast rows).
"""

from __future__ import annotations

from typing import Any, Mapping

__all__ = ["reread_report", "reread_row"]


def _sanity(profile: Any) -> None:
    from ..auditing.profile.results import SanityResult
    from ..auditing.profile.sanity import NONDETERMINISM, no_nan_result, no_value_note
    from ..vocabulary import DETERMINISTIC, FAILED, NO_NAN, PASSED, SANITY_CHECKS

    stored = dict(profile.sanity_results)
    if not stored:  # an audit run without sanity checks stays without
        return
    det = stored.get(DETERMINISTIC)
    if det is not None and det.status == FAILED and NONDETERMINISM not in det.message and "failed differently" not in det.message:
        stored[DETERMINISTIC] = SanityResult(DETERMINISTIC, PASSED, no_value_note(det.message))
    if NO_NAN not in stored:
        stored[NO_NAN] = no_nan_result(list(profile.case_results.values()))
    order = [n for n in SANITY_CHECKS if n in stored] + [n for n in stored if n not in SANITY_CHECKS]
    profile.sanity_results = {n: stored[n] for n in order}


def reread_report(report: Mapping[str, Any]) -> dict[str, Any]:
    """``report`` (an audit report as plain data) with its verdicts and sanity checks read by the current rules."""
    from ..auditing.profile.results import CharacteristicResult, Profile
    from ..auditing.properties.run import guarded_property
    from ..auditing.run_record import RunRecord, present_items
    from ..auditing.table5.readings import KIND_SCORE
    from ..auditing.table5.scale_guard import guarded
    from ..vocabulary import UNDETERMINED

    profile = Profile.from_dict(report)
    hib, scalar = profile.declarations.higher_is_better, profile.kind == KIND_SCORE
    for name, res in list(profile.characteristic_results.items()):
        if res.finding is None or res.observed is None:
            continue
        finding = guarded(res.finding, hib, scalar)
        if finding is not res.finding:
            profile.characteristic_results[name] = CharacteristicResult(name, None, res.expectation, UNDETERMINED,
                                                                        finding, finding.explanation)
    for name, pres in list(profile.property_results.items()):
        profile.property_results[name] = guarded_property(pres)
    _sanity(profile)
    profile.run = RunRecord.from_dict(report.get("run"), present_items(profile))
    return profile.to_dict()


def reread_row(row: Mapping[str, Any], report: Mapping[str, Any] | None) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """A stored ``(row, report)`` re-read: the report by :func:`reread_report`, the row's cells derived from it again.

    The row keeps what the adapter declared when it was profiled (version, parameters, reason); its
    characteristics, properties, sanity failures and saturated cells are those of the re-read report,
    derived as :func:`~oipr_bench.atlas.build.row_from_report` derives them.
    """
    from .build import derived_cells

    if report is None or row.get("status") != "ok":
        return dict(row), None if report is None else dict(report)
    new_report = reread_report(report)
    return {**row, **derived_cells(new_report)}, new_report
