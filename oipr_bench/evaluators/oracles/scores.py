"""The loop-by-loop oracle of each score evaluator, by its registry name.

:func:`score_oracle` is the score evaluators' counterpart of
:func:`oipr_bench.evaluators.oracles.oracle`: it returns a callable
``(y_true, scores) -> float`` built from :mod:`.auc` and :mod:`.range_auc`.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .auc import auc_pr_oracle, auc_roc_oracle
from .range_auc import range_auc_oracle, vus_oracle

__all__ = ["score_oracle", "CONVENTIONS"]

#: The oracle convention of each ``definition`` parameter value.
CONVENTIONS = {"tsb-ad": "volume", "vus": "runs", "timeeval-compat": "compat", "timeeval": "timeeval"}


def _lists(y_true: Sequence[int], scores: Sequence[float]) -> tuple[list[int], list[float]]:
    t = y_true.tolist() if hasattr(y_true, "tolist") else [int(v) for v in y_true]
    s = scores.tolist() if hasattr(scores, "tolist") else [float(v) for v in scores]
    return t, s


def score_oracle(name: str, **params: Any) -> Callable[[Sequence[int], Sequence[float]], float]:
    """The oracle of score evaluator ``name`` with the evaluator's own ``params``.

    Raises
    ------
    ValueError
        ``name`` is not a score evaluator.
    """
    window = params.get("sliding_window", 100)
    n = params.get("thresholds", 250)
    if name == "AUC-ROC":
        return lambda t, s: auc_roc_oracle(*_lists(t, s))
    if name == "AUC-PR":
        return lambda t, s: auc_pr_oracle(*_lists(t, s), params.get("estimator", "average_precision"))
    convention = CONVENTIONS[params.get("definition", "tsb-ad")]
    if name in ("R-AUC-ROC", "R-AUC-PR"):
        which = 0 if name == "R-AUC-ROC" else 1
        return lambda t, s: range_auc_oracle(*_lists(t, s), window, n, convention)[which]
    if name in ("VUS-ROC", "VUS-PR"):
        which = 0 if name == "VUS-ROC" else 1
        return lambda t, s: vus_oracle(*_lists(t, s), window, n, convention)[which]
    raise ValueError(f"no score oracle for {name!r}")
