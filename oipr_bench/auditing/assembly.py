"""Putting an audit's results together into a :class:`~oipr_bench.auditing.results.Profile`, in report order.

:meth:`oipr_bench.auditing.profiles.AuditSession.assemble` calls :func:`assemble_profile` with the
results it computed, or (the pytest plugin) with the results gathered from the items' reports.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from ..vocabulary import CHARACTERISTICS, METRIC_PROPERTIES
from .case_sets import fixtures_of
from .comparison import reference_info
from .results import Profile

if TYPE_CHECKING:  # pragma: no cover
    from .profiles import AuditSession

__all__ = ["assemble_profile"]


def _ordered(results: Mapping[str, Any], order: Any) -> dict[str, Any]:
    return {k: results[k] for k in order if k in results}


def assemble_profile(session: "AuditSession", case_results: Mapping[str, Any], characteristic_results: Mapping[str, Any],
                     sanity_results: Mapping[str, Any], reference_results: Mapping[str, Any],
                     property_results: Mapping[str, Any], differential_results: Mapping[str, Any]) -> Profile:
    """A :class:`Profile` of ``session``'s evaluator and options from the given results.

    Cases (the dataset's, then the user's own) and reference comparisons in case order,
    characteristics in Table 5 order, sanity checks, metric properties and differential families
    in their vocabulary order.
    """
    from .._version import __version__
    from ..scenarios import DATASET_VERSION

    order = list(session.cases)
    kinds = [r.kind for r in case_results.values() if r.ok]
    return Profile(
        evaluator=session.resolved.name,
        params=dict(session.resolved.params),
        case_results=_ordered(case_results, order),
        characteristic_results=_ordered(characteristic_results, CHARACTERISTICS),
        sanity_results=_ordered(sanity_results, session.sanity_checks),
        reference_results=_ordered(reference_results, order),
        differential_results=_ordered(differential_results, session.families),
        reference=reference_info(session.options),
        options=session.options.recorded(session.declarations.input_kind),
        package_version=__version__,
        dataset_version=DATASET_VERSION,
        kind=kinds[0] if kinds else session.kind,
        declarations=session.declarations,
        property_results=_ordered(property_results, METRIC_PROPERTIES),
        fixtures=fixtures_of(list(session.cases.values()), session.options, session.user_cases),
    )
