"""The built-in evaluators as atlas rows.

The seven binary evaluators of the paper (Table 3 parameters) and the six score
evaluators of :mod:`oipr_bench.evaluators.scores` (their defaults: TSB-AD 1.5's
definition, window 100, 250 thresholds; docs/evaluators.md).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from .base import Adapter

__all__ = ["ADAPTERS"]

# (paper name, family, "same metric" group): the binary evaluators
_BUILTINS: tuple[tuple[str, str, str | None], ...] = (
    ("PW", "point-wise", "point-wise F1"),
    ("PA", "point-adjusted", "point-adjust F1"),
    ("PA%K", "point-adjusted", "PA%K"),
    ("RP/RR", "range-based", "Tatbul range-based"),
    ("TaPR", "TaPR", "TaPR"),
    ("AM", "affiliation", "affiliation"),
    ("OIPR", "OIPR", None),
)

# (name, "same metric" group): the score evaluators (all in the threshold-free family)
_SCORE_BUILTINS: tuple[tuple[str, str | None], ...] = (
    ("AUC-ROC", "AUC-ROC"),
    ("AUC-PR", "AUC-PR"),
    ("R-AUC-ROC", None),
    ("R-AUC-PR", None),
    ("VUS-ROC", "VUS-ROC"),
    ("VUS-PR", "VUS-PR"),
)


def _builder(name: str) -> Callable[[Mapping[str, Any]], Any]:
    def build(params: Mapping[str, Any]) -> Any:
        from ...evaluators import get

        return get(name, **params)

    return build


def _params(name: str) -> dict[str, Any]:
    from ...evaluators import info

    return info(name).default_params


def _adapters() -> list[Adapter]:
    return [
        Adapter(
            package="oipr-bench",
            metric=name,
            family=family,
            build=_builder(name),
            params=_params(name),
            kind="pr",
            group=group,
            note="built-in evaluator with the paper's Table 3 parameters",
        )
        for name, family, group in _BUILTINS
    ] + [
        Adapter(
            package="oipr-bench",
            metric=name,
            family="threshold-free",
            build=_builder(name),
            params=_params(name),
            input_kind="scores",
            kind="score",
            group=group,
            note="built-in score evaluator with its default parameters (docs/evaluators.md)",
        )
        for name, group in _SCORE_BUILTINS
    ]


ADAPTERS: list[Adapter] = _adapters()
