"""Deprecated module path: ``oipr_bench.reference_files`` is now :mod:`oipr_bench.reference.files` (removed in 0.4)."""

from oipr_bench._legacy import alias

alias(__name__, "oipr_bench.reference.files")
