"""Deprecated module path: ``oipr_bench.oracles`` is now :mod:`oipr_bench.evaluators.oracles` (removed in 0.4)."""

from oipr_bench._legacy import alias

alias(__name__, "oipr_bench.evaluators.oracles")
