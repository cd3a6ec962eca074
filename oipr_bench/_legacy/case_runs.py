"""Deprecated module path: ``oipr_bench.case_runs`` is now :mod:`oipr_bench.auditing.case_runs` (removed in 0.4)."""

from oipr_bench._legacy import alias

alias(__name__, "oipr_bench.auditing.case_runs")
