"""All atlas rows, in grid order (built-ins first, then one block per package)."""

from __future__ import annotations

import importlib

from ._adapter import Adapter

__all__ = ["PACKAGE_MODULES", "adapters", "by_id"]

#: Adapter modules of :mod:`oipr_bench.atlas`, one per package family.
PACKAGE_MODULES: tuple[str, ...] = ("builtins", "tsadmetrics", "prts", "tsb_ad", "tadpak", "pate", "vus", "timeeval",
                                    "adapters.vus_variants", "adapters.merlion", "adapters.adtk", "adapters.tsb_uad", "adapters.orion", "adapters.aeon", "adapters.dtaianomaly",
                                    "adapters.cce", "adapters.tadmetric", "adapters.telemeval")


def adapters() -> list[Adapter]:
    """Every adapter (importing no metric package)."""
    out: list[Adapter] = []
    for name in PACKAGE_MODULES:
        out.extend(importlib.import_module(f"oipr_bench.atlas.{name}").ADAPTERS)
    return out


def by_id() -> dict[str, Adapter]:
    """Adapters by row id (``package:metric``)."""
    return {a.id: a for a in adapters()}
