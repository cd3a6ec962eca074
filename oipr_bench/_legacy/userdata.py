"""Deprecated module path: ``oipr_bench.userdata`` is now :mod:`oipr_bench.scenarios.userdata` (removed in 0.4)."""

from oipr_bench._legacy import alias

alias(__name__, "oipr_bench.scenarios.userdata")
