"""The expected profile under ``--reference=NAME``: NAME's own Table 5 row and property row.

Without ``--reference`` every characteristic is expected to read as OIPR's row of the paper's Table 5.
With it, the expected row is the reference's own, with its parameters: a correct implementation of
any built-in then passes a full run against itself.  The row is computed, not copied: the
reference evaluator is audited here (Table 5 and the metric properties, no sanity checks) by the same
session class the audit itself uses, once per reference and parameters in a process.  For the
built-ins with their default parameters it reproduces the paper's Table 5 row (the built-ins read
70/70) and ``reference_results/properties.json``.  Declared expectations still override it
(:func:`~oipr_bench.auditing.expectations.merge_expectations`).
"""

from __future__ import annotations

import threading
from typing import Any, Callable

from ..calling.resolve import resolve
from ..expectations import Expectation, reference_row
from ..options import AuditOptions
from ...io import dumps_json
from ...jsondata import jsonable
from ...vocabulary import SUITE_ALL

__all__ = ["reference_expectations"]

_LOCK = threading.Lock()
_CACHE: dict[str, dict[str, Expectation]] = {}


def _label(name: str, params: dict[str, Any], default: dict[str, Any]) -> str:
    changed = {k: v for k, v in params.items() if default.get(k) != v}
    return name if not changed else f"{name}{dumps_json(jsonable(changed)).strip()}"


def reference_expectations(session_type: Callable[..., Any], options: AuditOptions) -> dict[str, Expectation]:
    """The expectations of ``options.reference``'s own row ({} without a reference).

    Parameters
    ----------
    session_type : callable
        The audit session class (:class:`~oipr_bench.auditing.profile.profiles.AuditSession`), handed in
        by the session itself so this module does not import it back.
    options : AuditOptions
        ``reference`` and its (complete) ``reference_params``.
    """
    if options.reference is None:
        return {}
    from ... import evaluators

    params = dict(options.reference_params)
    key = options.reference + "|" + dumps_json(jsonable(params))
    with _LOCK:
        if key in _CACHE:
            return dict(_CACHE[key])
    resolved = resolve(options.reference, params)
    with session_type(resolved, AuditOptions(sanity=False, suite=SUITE_ALL)) as session:
        profile = session.run_all()
    observed = {n: r.observed for n, r in profile.characteristic_results.items()}
    observed.update({n: r.observed for n, r in profile.property_results.items()})
    row = reference_row(_label(options.reference, params, dict(evaluators.get(options.reference).params)), observed)
    with _LOCK:
        _CACHE[key] = row
    return dict(row)
