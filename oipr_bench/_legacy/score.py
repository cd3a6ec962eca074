"""Deprecated module path: ``oipr_bench.score`` is now :mod:`oipr_bench.evaluators.score` (removed in 0.4)."""

from oipr_bench._legacy import alias

alias(__name__, "oipr_bench.evaluators.score")
