"""Deprecated module path: ``oipr_bench.plugin_items`` is now :mod:`oipr_bench.pytest_plugin.items` (removed in 0.4)."""

from oipr_bench._legacy import alias

alias(__name__, "oipr_bench.pytest_plugin.items")
