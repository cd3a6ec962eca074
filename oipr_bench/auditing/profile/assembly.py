"""Putting an audit's results together into a :class:`~oipr_bench.auditing.profile.results.Profile`, in report order.

:meth:`oipr_bench.auditing.profile.profiles.AuditSession.assemble` calls :func:`assemble_profile` with the
results it computed, or (the pytest plugin) with the results gathered from the items' reports, and
with what the session knows as plain values (this module does not import the session).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...vocabulary import CHARACTERISTICS, METRIC_PROPERTIES
from ..regression.case_sets import fixtures_of
from ..regression.configured import compares_cases
from .comparison import reference_info
from .results import Profile
from ..run_record import RunRecord, planned_items

__all__ = ["assemble_profile"]


def _ordered(results: Mapping[str, Any], order: Any) -> dict[str, Any]:
    return {k: results[k] for k in order if k in results}


def assemble_profile(case_results: Mapping[str, Any], characteristic_results: Mapping[str, Any],
                     sanity_results: Mapping[str, Any], reference_results: Mapping[str, Any],
                     property_results: Mapping[str, Any], differential_results: Mapping[str, Any], *,
                     evaluator: str, params: Mapping[str, Any], cases: Mapping[str, Any], sanity_checks: Sequence[str],
                     families: Sequence[str], options: Any, declarations: Any, kind: str,
                     user_cases: Any, state: str | None = None, deselected: Sequence[str] = (),
                     selection: Mapping[str, str] | None = None, interrupted: bool = False) -> Profile:
    """A :class:`Profile` of an audit session's evaluator and options from the given results.

    Cases (the dataset's, then the user's own, in the order of ``cases``) and reference comparisons
    in case order, characteristics in Table 5 order, sanity checks in the order of
    ``sanity_checks``, metric properties and differential families (``families``) in their
    vocabulary order. ``evaluator``, ``params``, ``options`` (an
    :class:`~oipr_bench.auditing.options.AuditOptions`), ``declarations``, ``kind`` (the session's
    result kind, used when no case ran) and ``user_cases`` are the session's; ``state`` the digest of
    the evaluator object's state.  ``deselected``, ``selection`` and ``interrupted`` say how much of
    the suite ran (:class:`~oipr_bench.auditing.run_record.RunRecord`; the plugin's ``-k``, ``-m``, Ctrl-C).
    """
    from ..._version import __version__
    from ...scenarios import DATASET_VERSION

    order = list(cases)
    suite = options.suite_for(declarations.input_kind)
    planned = planned_items(order, sanity_checks if options.sanity else (), table5=suite in ("table5", "all"),
                            properties=suite in ("properties", "all"), reference=compares_cases(options),
                            families=families)
    kinds = [r.kind for r in case_results.values() if r.ok]
    return Profile(
        evaluator=evaluator,
        params=dict(params),
        case_results=_ordered(case_results, order),
        characteristic_results=_ordered(characteristic_results, CHARACTERISTICS),
        sanity_results=_ordered(sanity_results, sanity_checks),
        reference_results=_ordered(reference_results, order),
        differential_results=_ordered(differential_results, families),
        reference=reference_info(options),
        options=options.recorded(declarations.input_kind),
        package_version=__version__,
        dataset_version=DATASET_VERSION,
        kind=kinds[0] if kinds else kind,
        declarations=declarations,
        property_results=_ordered(property_results, METRIC_PROPERTIES),
        fixtures=fixtures_of(list(cases.values()), options, user_cases),
        run=RunRecord(planned, tuple(i for i in deselected if i in planned), dict(selection or {}), bool(interrupted)),
        state=state,
    )
