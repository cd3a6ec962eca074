"""Literal, loop-by-loop transcriptions of each evaluator's definition (part of layer 2, ``evaluators``).

They are slow on purpose: each follows its paper's pseudo-code or definition
line by line, with no vectorisation, so that the fast implementations in
:mod:`oipr_bench.evaluators` can be checked against them (differential tests
in ``tests/``, the speed ratio in ``benchmarks/``) and so that users have a
readable statement of each definition.  Do not use them on long series.
"""
