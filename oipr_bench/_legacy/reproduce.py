"""Deprecated module path: ``oipr_bench.reproduce`` is now :mod:`oipr_bench.reports.reproduce` (removed in 0.4)."""

from oipr_bench._legacy import alias

alias(__name__, "oipr_bench.reports.reproduce")
