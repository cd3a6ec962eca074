"""The built-in evaluator a score row of the atlas computes, and how far the row's numbers are from it.

:data:`BUILTIN_EQUIVALENTS` pairs a package's score row with the built-in evaluator and parameters that
implement the same definition (docs/evaluators.md, "The variants and how much they differ", where the
package call beside each ``get(...)`` is stated; tests/test_score_packages.py and
tests/test_score_packages_aeon.py recompute those equalities on generated series).  Rows whose
parameters our evaluators cannot express (a buffer that is each series' median event length) are not
paired.

:func:`reference_values` computes the built-in's value on each of the 25 cases exactly as the audit fed
the row: the 0/1 prediction handed over as 0.0/1.0 scores, a random-detector case averaged over the runs
the row was scored on (its ``random_runs``, else all 100).  :func:`compare` gives the largest absolute
difference over the cases both define and the cases only one defines.
"""

from __future__ import annotations

import functools
import math
from typing import Any, Mapping, NamedTuple

__all__ = ["BUILTIN_EQUIVALENTS", "EXACT", "Comparison", "builtin_of", "reference_values", "compare"]

#: A row is "exact to" its built-in when no case differs by more than this (floating-point rounding).
EXACT = 1e-9

_TSB = {"": {}, "[thre=100]": {"thresholds": 100}, "[thre=50]": {"thresholds": 50}, "[window=2x100]": {"sliding_window": 200}}
_TE = {"timeeval": "", "timeeval-compat": "[compatibility_mode]"}


def _pairs() -> dict[str, tuple[str, dict[str, Any]]]:
    out: dict[str, tuple[str, dict[str, Any]]] = {}
    for curve in ("ROC", "PR"):
        vus, rauc = f"VUS-{curve}", f"R-AUC-{curve}"
        for suffix, params in _TSB.items():
            out[f"TSB-AD:{vus}{suffix}"] = (vus, dict(params))
        out[f"vus:{vus}"] = (vus, {})
        out[f"TSB-UAD:{vus}"] = (vus, {"sliding_window": 5})
        out[f"vus:{rauc}"] = (rauc, {"definition": "vus", "sliding_window": 100})
        for definition, suffix in _TE.items():
            params = {"sliding_window": 500, "definition": definition}
            out[f"TimeEval:Range{curve.title()}VUS{suffix}"] = (vus, params)
            out[f"dtaianomaly:VolumeUnder{curve}{suffix}"] = (vus, params)
        out[f"aeon:range_{curve.lower()}_vus_score"] = (vus, {"sliding_window": 500, "definition": "timeeval-compat"})
    for row_id in ("TSB-AD:AUC-ROC", "vus:AUC-ROC", "TSB-UAD:AUC-ROC", "TimeEval:RocAUC"):
        out[row_id] = ("AUC-ROC", {})
    for row_id in ("TSB-AD:AUC-PR", "TimeEval:AveragePrecision"):
        out[row_id] = ("AUC-PR", {})
    out["vus:AUC-PR"] = ("AUC-PR", {"estimator": "trapezoid"})
    return out


#: Row id -> (built-in score evaluator, parameters) computing the same definition.
BUILTIN_EQUIVALENTS: dict[str, tuple[str, dict[str, Any]]] = _pairs()


def builtin_of(row: Mapping[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The built-in evaluator and parameters paired with ``row``, or None."""
    return BUILTIN_EQUIVALENTS.get(str(row.get("id")))


def builtin_label(name: str, params: Mapping[str, Any]) -> str:
    """``oipr-bench VUS-PR(sliding_window=500, definition=timeeval)``: how a badge and a page name the built-in."""
    args = ", ".join(f"{k}={v}" for k, v in params.items())
    return f"oipr-bench {name}" + (f"({args})" if args else "")


@functools.lru_cache(maxsize=64)
def _values(name: str, params: tuple[tuple[str, Any], ...], runs: int | None) -> tuple[tuple[str, float], ...]:
    import numpy as np

    from ... import evaluators
    from ...scenarios.loader import load

    ev = evaluators.get(name, **dict(params))
    out = []
    for case in load():
        preds = case.predictions[: runs or None] if case.is_random else case.predictions[:1]
        out.append((case.id, float(np.mean([float(ev(case.y_true, p.astype(np.float64))) for p in preds]))))
    return tuple(out)


def reference_values(row: Mapping[str, Any]) -> dict[str, float] | None:
    """The paired built-in's value on every case, fed as the row was (None when the row has no pair)."""
    pair = builtin_of(row)
    if pair is None:
        return None
    name, params = pair
    return dict(_values(name, tuple(params.items()), row.get("random_runs")))


class Comparison(NamedTuple):
    """A row's numbers against its built-in: the largest |difference| and the cases only one side scores."""

    max_abs_diff: float
    compared: int
    one_sided: tuple[str, ...]

    @property
    def exact(self) -> bool:
        """No case differs by more than :data:`EXACT` and both sides score the same cases."""
        return self.compared > 0 and self.max_abs_diff <= EXACT and not self.one_sided


def _number(x: Any) -> float | None:
    return float(x) if x is not None and math.isfinite(float(x)) else None


def compare(row: Mapping[str, Any], reference: Mapping[str, float]) -> Comparison:
    """``row["cases"]`` against ``reference`` (case id -> value), case by case."""
    diffs, one_sided = [], []
    for cid, ref in reference.items():
        mine, theirs = _number(row["cases"].get(cid)), _number(ref)
        if mine is None and theirs is None:
            continue
        if mine is None or theirs is None:
            one_sided.append(cid)
            continue
        diffs.append(abs(mine - theirs))
    return Comparison(max(diffs, default=0.0), len(diffs), tuple(one_sided))
