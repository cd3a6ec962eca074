"""All atlas rows, in grid order (built-ins first, then one block per package)."""

from __future__ import annotations

import importlib

from .base import Adapter

__all__ = ["PACKAGE_MODULES", "adapters", "by_id"]

#: Adapter modules of :mod:`oipr_bench.atlas.adapters`, one per package family, by environment.
PACKAGE_MODULES: tuple[str, ...] = (
    "builtins",
    # the main environment (atlas/requirements.txt)
    "main.tsadmetrics", "main.prts", "main.tsb_ad", "main.tadpak", "main.pate", "main.vus", "main.timeeval",
    "main.vus_variants", "main.merlion", "main.adtk", "main.tsb_uad", "main.orion",
    # the modern environment (atlas/requirements-modern.txt)
    "modern.aeon", "modern.dtaianomaly", "modern.cce", "modern.tadmetric", "modern.telemeval",
)


def adapters() -> list[Adapter]:
    """Every adapter (importing no metric package)."""
    out: list[Adapter] = []
    for name in PACKAGE_MODULES:
        out.extend(importlib.import_module(f"oipr_bench.atlas.adapters.{name}").ADAPTERS)
    return out


def by_id() -> dict[str, Adapter]:
    """Adapters by row id (``package:metric``)."""
    return {a.id: a for a in adapters()}
