"""The seven built-in evaluators of the paper (Table 3 parameters) as atlas rows."""

from __future__ import annotations

from typing import Any, Callable, Mapping

from .base import Adapter

__all__ = ["ADAPTERS"]

# (paper name, family, "same metric" group)
_BUILTINS: tuple[tuple[str, str, str | None], ...] = (
    ("PW", "point-wise", "point-wise F1"),
    ("PA", "point-adjusted", "point-adjust F1"),
    ("PA%K", "point-adjusted", "PA%K"),
    ("RP/RR", "range-based", "Tatbul range-based"),
    ("TaPR", "TaPR", "TaPR"),
    ("AM", "affiliation", "affiliation"),
    ("OIPR", "OIPR", None),
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
    ]


ADAPTERS: list[Adapter] = _adapters()
