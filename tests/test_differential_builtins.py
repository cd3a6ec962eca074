"""Each of the seven built-ins passes its own differential run against its loop-by-loop oracle.

By default every family but ``long_series`` runs on :data:`QUICK_N` pairs (``cardinality`` and
``many_events`` on :data:`QUICK_CARDINALITY_N`, their fixed counts included).  With
``OIPR_FULL_DIFFERENTIAL=1`` (a bounded step of ``.ci/run``) every family runs on
:data:`FULL_N` = 1,000 pairs, ``long_series`` included: lengths at every block size of the
built-ins up to 2^21 + 1 points, then log-uniform in [4097, 65537].  The oracles of RP/RR and
AM take time in the square of the events, so against them ``cardinality`` and ``many_events``
stop at :data:`QUADRATIC_MAX_EVENTS` events per series (the 8-bit counts 255-257 included), and
``many_events`` runs on :data:`QUADRATIC_MANY_EVENTS_N` pairs there; the other five oracles check
every count up to 32,769.  How long the full run takes is measured by
``benchmarks/differential.py`` (docs/regression-testing.md), not here.
"""

from __future__ import annotations

import os

import pytest

from oipr_bench import evaluators
from oipr_bench.auditing.regression.differential import run_family
from oipr_bench.auditing.calling.runner import call_evaluator
from oipr_bench.evaluators.oracles import oracle
from oipr_bench.testing.families import MAX_EVENTS, family_pairs
from oipr_bench.vocabulary import CARDINALITY, FAMILIES, LONG_SERIES, MANY_EVENTS, PASSED

FULL = os.environ.get("OIPR_FULL_DIFFERENTIAL") == "1"
QUICK_N = 100
QUICK_CARDINALITY_N = 30
FULL_N = 1000
#: Oracles whose time grows with the square of the events (RP/RR: every overlapping pair walks a
#: range; AM: every zone integrates over every piece).
QUADRATIC = ("RP/RR", "AM")
QUADRATIC_MAX_EVENTS = 300


#: Pairs of ``many_events`` against the quadratic oracles (capped, each pair holds 300 events; ``cardinality``
#: covers those counts on all its pairs).
QUADRATIC_MANY_EVENTS_N = 50


def _run(name: str, family: str, n: int) -> None:
    builtin = evaluators.get(name)
    cap = QUADRATIC_MAX_EVENTS if name in QUADRATIC else MAX_EVENTS
    if name in QUADRATIC and family == MANY_EVENTS:
        n = min(n, QUADRATIC_MANY_EVENTS_N)
    res = run_family(lambda t, y: call_evaluator(builtin, t, y), oracle(name, **builtin.params), family,
                     name=f"the {name} oracle", n=n, params=builtin.params, shrink_budget=10.0, max_events=cap)
    assert res.status == PASSED, res.message
    assert res.checked == n


@pytest.mark.parametrize("family", [f for f in FAMILIES if f != LONG_SERIES])
@pytest.mark.parametrize("name", evaluators.NAMES)
def test_builtin_agrees_with_its_oracle(name: str, family: str) -> None:
    quick = QUICK_CARDINALITY_N if family in (CARDINALITY, MANY_EVENTS) else QUICK_N
    _run(name, family, FULL_N if FULL else quick)


def test_the_capped_cardinality_pairs_still_cross_256() -> None:
    counts = [max(len(p.y_true_events), len(p.y_pred_events))
              for p in family_pairs(CARDINALITY, 12, max_events=QUADRATIC_MAX_EVENTS)]
    assert counts[:6] == [255, 255, 256, 256, 257, 257] and max(counts) <= QUADRATIC_MAX_EVENTS
    full = [max(len(p.y_true_events), len(p.y_pred_events)) for p in family_pairs(MANY_EVENTS, QUICK_CARDINALITY_N)]
    assert {32767, 32768, 32769} <= set(full) and max(full) == MAX_EVENTS


@pytest.mark.differential_full
@pytest.mark.skipif(not FULL, reason="set OIPR_FULL_DIFFERENTIAL=1 (the CI step does) for the long-series runs")
@pytest.mark.parametrize("name", evaluators.NAMES)
def test_builtin_agrees_with_its_oracle_on_long_series(name: str) -> None:
    _run(name, LONG_SERIES, FULL_N)
