"""Each of the seven built-ins passes its own differential run against its loop-by-loop oracle.

By default every family but ``long_series`` runs on :data:`QUICK_N` pairs (a few
seconds in all).  With ``OIPR_FULL_DIFFERENTIAL=1`` (a bounded step of ``.ci/run``)
every family runs on :data:`FULL_N` = 1,000 pairs, ``long_series`` included: lengths
at every block size of the built-ins up to 2^21 + 1 points, then log-uniform in
[4097, 65537].  How long the full run takes is measured by
``benchmarks/differential.py`` (docs/regression-testing.md), not here.
"""

from __future__ import annotations

import os

import pytest

from oipr_bench import evaluators
from oipr_bench.auditing.regression.differential import run_family
from oipr_bench.auditing.calling.runner import call_evaluator
from oipr_bench.evaluators.oracles import oracle
from oipr_bench.vocabulary import FAMILIES, LONG_SERIES, PASSED

FULL = os.environ.get("OIPR_FULL_DIFFERENTIAL") == "1"
QUICK_N = 100
FULL_N = 1000


def _run(name: str, family: str, n: int) -> None:
    builtin = evaluators.get(name)
    res = run_family(lambda t, y: call_evaluator(builtin, t, y), oracle(name, **builtin.params), family,
                     name=f"the {name} oracle", n=n, params=builtin.params, shrink_budget=10.0)
    assert res.status == PASSED, res.message
    assert res.checked == n


@pytest.mark.parametrize("family", [f for f in FAMILIES if f != LONG_SERIES])
@pytest.mark.parametrize("name", evaluators.NAMES)
def test_builtin_agrees_with_its_oracle(name: str, family: str) -> None:
    _run(name, family, FULL_N if FULL else QUICK_N)


@pytest.mark.differential_full
@pytest.mark.skipif(not FULL, reason="set OIPR_FULL_DIFFERENTIAL=1 (the CI step does) for the long-series runs")
@pytest.mark.parametrize("name", evaluators.NAMES)
def test_builtin_agrees_with_its_oracle_on_long_series(name: str) -> None:
    _run(name, LONG_SERIES, FULL_N)
