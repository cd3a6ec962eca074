"""Deprecated module path: ``oipr_bench.isolation`` is now :mod:`oipr_bench.auditing.isolation` (removed in 0.4)."""

from oipr_bench._legacy import alias

alias(__name__, "oipr_bench.auditing.isolation")
