"""Deprecated module path: ``oipr_bench.html_report`` is now :mod:`oipr_bench.reports.html_report` (removed in 0.4)."""

from oipr_bench._legacy import alias

alias(__name__, "oipr_bench.reports.html_report")
