"""Deprecated module path: ``oipr_bench.events`` is now :mod:`oipr_bench.scenarios.events` (removed in 0.4)."""

from oipr_bench._legacy import alias

alias(__name__, "oipr_bench.scenarios.events")
