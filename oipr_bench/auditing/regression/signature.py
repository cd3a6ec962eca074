"""The signature of an audit: one line that says exactly what was run (like sacreBLEU's).

Every report and printed profile carries it, so two numbers can only be compared when their
signatures are equal.  It names the package and dataset versions, the evaluator and every
parameter, what it takes and returns, the reference and its parameters, the comparison and
its tolerance, what ran (the suite), the differential run's N, seed and shrink budget, and a hash of
the Table A1 cases run (the dataset's and the user's own, :func:`fixture_hash`; the metric
properties' family files carry their own hashes in the dataset manifest).  Fields are ``name:value`` joined by
``|``; parameters are written ``{key=value,...}`` in sorted order::

    oipr-bench:0.3.0|dataset:1.1.0|evaluator:PA{}|kind:pr|input:binary|suite:table5|reference:PA{}|against:reference|tol:1e-09|differential:n=1000,seed=0,budget=30|fixtures:sha256.0123456789ab
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Iterable, Mapping

from ...jsondata import jsonable

__all__ = ["fixture_hash", "params_text", "signature", "signature_of", "declared_hash"]

#: Hex digits of the fixture hash shown in the signature.
HASH_DIGITS = 12


def fixture_hash(cases: Iterable[Any]) -> str:
    """SHA-256 of the cases run: each case's id, length, ground truth and prediction events, in order."""
    h = hashlib.sha256()
    for case in cases:
        doc = [case.id, int(case.length), case.y_true_events, case.prediction_events]
        h.update(json.dumps(doc, separators=(",", ":")).encode())
        h.update(b"\n")
    return h.hexdigest()


def declared_hash(results: Iterable[Any]) -> str | None:
    """SHA-256 of the expectations the user declared (name, values, source, reason), None when none was.

    ``results`` are the characteristic and property results of a profile; an expectation from the
    default row, the evaluator's own ``oipr_profile`` or the reference's row is recomputed by
    ``verify`` and left out.  A report is the only record of what was declared, so the signature
    carries it: an edited source or reason no longer matches the stored signature.
    """
    from ..expectations import REFERENCE_SOURCE

    declared = sorted([r.name, list(e.values), e.source, e.reason] for r in results
                      if (e := getattr(r, "expectation", None)) is not None
                      and e.source not in ("default", "oipr_profile") and not e.source.startswith(REFERENCE_SOURCE))
    if not declared:
        return None
    return hashlib.sha256(json.dumps(declared, separators=(",", ":")).encode()).hexdigest()


def params_text(params: Mapping[str, Any]) -> str:
    """Parameters as ``{key=value,...}``, sorted by key, each value as compact JSON."""
    items = jsonable(dict(params))
    return "{" + ",".join(f"{k}={json.dumps(items[k], separators=(',', ':'))}" for k in sorted(items)) + "}"


def signature(*, package_version: str, dataset_version: str, evaluator: str, params: Mapping[str, Any],
              kind: str | None, declarations: Mapping[str, Any], reference: Mapping[str, Any] | None,
              options: Mapping[str, Any], fixtures: str, state: str | None = None,
              expectations: str | None = None) -> str:
    """The signature line of an audit (see the module docstring).

    Parameters
    ----------
    declarations : mapping
        ``input``, ``higher_is_better``, ``bounds`` (a scalar's orientation and range are named for ``kind: score`` only).
    reference : mapping or None
        ``name``, ``params``, ``against``, ``tolerance`` of the reference comparison.
    options : mapping
        The recorded run options (``differential``, ``seed``, ``shrink_budget``, ``random_runs``, ``chance_draws`` when on).
    fixtures : str
        :func:`fixture_hash` of the cases run.
    state : str or None
        A digest of the evaluator object's own state (an instance's attributes, a partial's
        arguments: :func:`oipr_bench.auditing.calling.object_state.state_digest`), written
        ``state:<digest>`` after the evaluator.
    expectations : str or None
        :func:`declared_hash` of the declared expectations, written ``expect:sha256.<12 digits>``
        before the fixtures (absent when nothing was declared).
    """
    fields = [f"oipr-bench:{package_version}", f"dataset:{dataset_version}", f"evaluator:{evaluator}{params_text(params)}",
              *([f"state:{state}"] if state else []),
              f"kind:{kind or '-'}", f"input:{declarations.get('input', 'binary')}"]
    if kind == "score":
        lo, hi = declarations.get("bounds", (0.0, 1.0))
        fields.append(f"scalar:{'higher' if declarations.get('higher_is_better', True) else 'lower'},{lo}:{hi}")
    if options.get("suite"):
        fields.append(f"suite:{options['suite']}")
    if options.get("profile_only"):
        fields.append("profile-only")
    if reference is not None:
        fields += [f"reference:{reference['name']}{params_text(reference.get('params', {}))}",
                   f"against:{reference['against']}", f"tol:{reference['tolerance']:.3g}"]
    if options.get("random_runs"):
        fields.append(f"random_runs:{options['random_runs']}")
    if options.get("chance_draws"):
        fields.append(f"chance_draws:{options['chance_draws']}")
    if options.get("differential"):
        fields.append(f"differential:n={options['differential']},seed={options.get('seed', 0)},"
                      f"budget={options.get('shrink_budget', 30.0):g}")
    if expectations:
        fields.append(f"expect:sha256.{expectations[:HASH_DIGITS]}")
    fields.append(f"fixtures:sha256.{fixtures[:HASH_DIGITS]}")
    return "|".join(fields)


def signature_of(profile: Any) -> str:
    """The signature of a :class:`~oipr_bench.auditing.profile.results.Profile` (from its recorded fields)."""
    return signature(package_version=profile.package_version, dataset_version=profile.dataset_version,
                     evaluator=profile.evaluator, params=profile.params, kind=profile.kind,
                     declarations=profile.declarations.to_dict(), reference=profile.reference,
                     options=profile.options, fixtures=profile.fixtures.get("sha256", "-"),
                     state=getattr(profile, "state", None),
                     expectations=declared_hash([*profile.characteristic_results.values(),
                                                 *profile.property_results.values()]))
