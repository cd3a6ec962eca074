"""Deprecated module path: ``oipr_bench.strategies`` is now :mod:`oipr_bench.testing.strategies` (removed in 0.4)."""

from oipr_bench._legacy import alias

alias(__name__, "oipr_bench.testing.strategies")
