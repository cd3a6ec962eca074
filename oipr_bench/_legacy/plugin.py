"""Deprecated module path: ``oipr_bench.plugin`` is now :mod:`oipr_bench.pytest_plugin.plugin` (removed in 0.4)."""

from oipr_bench._legacy import alias

alias(__name__, "oipr_bench.pytest_plugin.plugin")
