"""Deprecated module path: ``oipr_bench.property_search`` is now :mod:`oipr_bench.auditing.property_search` (removed in 0.4)."""

from oipr_bench._legacy import alias

alias(__name__, "oipr_bench.auditing.property_search")
