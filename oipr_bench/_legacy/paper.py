"""Deprecated module path: ``oipr_bench.paper`` is now :mod:`oipr_bench.reference.paper` (removed in 0.4)."""

from oipr_bench._legacy import alias

alias(__name__, "oipr_bench.reference.paper")
