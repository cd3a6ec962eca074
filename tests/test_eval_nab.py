"""The NAB evaluator: against its loop-by-loop oracle on the differential families, against NAB's own
per-row scores on every file of the shared corpus, and its parameters."""

from __future__ import annotations

import doctest
import math
from pathlib import Path

import numpy as np
import pytest

from oipr_bench import evaluators
from oipr_bench.evaluators.kernels.nab import series_weights
from oipr_bench.evaluators.nab import NAB, PROFILES
from oipr_bench.evaluators.oracles.nab import nab_oracle
from oipr_bench.reference import nab
from oipr_bench.testing.families import family_pairs, series_of
from oipr_bench.vocabulary import CARDINALITY, FAMILIES, LONG_SERIES, MANY_EVENTS

from conftest import SHARED_DIR

NAB_DIR = SHARED_DIR / "reference-data" / "nab"
#: Pairs per family (the oracle walks every row in Python; the many-event families are long).
N_PAIRS = {CARDINALITY: 4, MANY_EVENTS: 3, LONG_SERIES: 3}
SETTINGS = [dict(profile=p, probation_percent=q, normalize=z)
            for p in PROFILES for q, z in ((0.15, True), (0.0, False))] + [dict(probation_percent=0.5)]


def _same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or abs(a - b) <= 1e-9 * max(1.0, abs(b))


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("params", SETTINGS, ids=lambda p: "-".join(f"{k}={v}" for k, v in p.items()))
def test_nab_equals_its_oracle_on_the_differential_families(family: str, params: dict) -> None:
    builtin = evaluators.get("NAB", **params)
    checked = 0
    for pair in family_pairs(family, N_PAIRS.get(family, 40), max_length=20_000, max_events=2000):
        t, y = series_of(pair.y_true_events, pair.length), series_of(pair.y_pred_events, pair.length)
        got, want = builtin(t, y), nab_oracle(t.tolist(), y.tolist(), **builtin.params)
        assert _same(got, want), (family, pair, got, want)
        checked += 1
    assert checked == N_PAIRS.get(family, 40)


def test_worked_values() -> None:
    y_true = [0] * 10 + [1] * 5 + [0] * 5
    nab0 = NAB(probation_percent=0)
    assert nab0(y_true, [0] * 10 + [1] + [0] * 9) == 100.0          # the window's first row
    assert nab0(y_true, [0] * 20) == 0.0                              # the null detector
    # a detection on the window's third row: 2 sigma(-3/5) - 1 over 2 sigma(-1) - 1, normalised on [-1, 1]
    third = (2 / (1 + math.exp(-3.0)) - 1) / (2 / (1 + math.exp(-5.0)) - 1)
    assert abs(nab0(y_true, [0] * 12 + [1] + [0] * 7) - 100 * (third + 1) / 2) < 1e-12
    # a false positive before any window costs fpWeight: raw -1 - 0.11 with the window missed
    d = nab0.details(y_true, [1] + [0] * 19)
    assert (d.raw, d.tp, d.fp, d.fn, d.tn) == (-1.11, 0, 1, 5, 14)
    # one row after a one-row window: NAB divides by zero there; the weight is -fpWeight, the limit
    assert NAB(probation_percent=0, normalize=False)([0, 1, 0, 0], [0, 0, 1, 0]) == -1.0 - 0.11
    # no window: no normalised score; the raw score is the false positives' weights
    assert math.isnan(NAB()([0] * 5, [1] * 5)) and NAB(normalize=False)([0] * 5, [1] * 5) == pytest.approx(-0.55)


def test_probationary_rows_are_not_scored() -> None:
    y_true = [0] * 100
    y_true[5:10] = [1] * 5
    det = [0] * 100
    det[5] = 1
    assert NAB(probation_percent=0)(y_true, det) == 100.0
    # 15 % of 100 rows: the window (rows 5-9) lies in the probation and is not scored; NAB's
    # perfect score still counts it (tpWeight per window of the labels), so the detection scores 0
    assert NAB()(y_true, det) == 0.0
    assert NAB(normalize=False)(y_true, det) == 0.0


@pytest.mark.parametrize(("params", "error", "text"), [
    ({"profile": "strict"}, ValueError, "NAB: parameter profile must be one of standard, reward_low_FP_rate, reward_low_FN_rate"),
    ({"probation_percent": 1.5}, ValueError, "probation_percent"),
    ({"normalize": "yes"}, TypeError, "NAB: normalize must be True or False"),
    ({"window": 3}, TypeError, "NAB: unknown parameter(s) window"),
])
def test_refuses_bad_parameters(params: dict, error: type, text: str) -> None:
    with pytest.raises(error, match=text.replace("(", r"\(").replace(")", r"\)")):
        evaluators.get("NAB", **params)


def test_registered_with_its_declarations() -> None:
    ev = evaluators.get("NAB", profile="reward_low_FN_rate")
    assert ev.params == {"profile": "reward_low_FN_rate", "probation_percent": 0.15, "normalize": True}
    assert (ev.input_kind, ev.higher_is_better, ev.bounds) == ("binary", True, (None, 100.0))
    assert evaluators.NUMBER_NAMES == ("NAB",) and "NAB" not in evaluators.NAMES


#: Detectors whose results files carry NAB's current per-row column (every row's weight as a
#: detection, ``nab/sweeper.py`` ``calcSweepScore``); the others carry NAB v1.0's (each window's score on
#: its first row, each false positive's weight on its row, 0 elsewhere). The files themselves say so.
CURRENT_ROW_COLUMN = ("ARTime",)


def test_nab_equals_nabs_own_per_row_scores_on_every_file() -> None:
    if not NAB_DIR.is_dir():
        pytest.skip("shared material not available (reference-data/nab is absent beside the repository)")
    corpus = nab.open_corpus(NAB_DIR)
    checked = 0
    for res in nab.iter_results(corpus):
        y_true = nab.window_labels(corpus, res.series, res.timestamps)
        windows = nab.window_indices(corpus, res.series, res.timestamps)
        for profile in corpus.profiles:
            column = res.row_scores[profile]
            if res.detector in CURRENT_ROW_COLUMN:
                cost = PROFILES[profile]
                n = res.timestamps.size
                got = series_weights(n, windows, nab.probation_rows(n), cost["tpWeight"], cost["fpWeight"]).weight
            else:
                detected = (res.anomaly_score >= corpus.thresholds[res.detector][profile]["threshold"]).astype(np.int8)
                got = NAB(profile=profile).row_scores(y_true, detected)
            assert np.max(np.abs(got - column)) <= 1e-9, (res.detector, res.series, profile)
            checked += 1
    assert checked == 16 * 58 * 3


def test_the_docs_example_and_the_docstring_examples_run() -> None:
    text = (Path(__file__).resolve().parents[1] / "docs" / "evaluators.md").read_text(encoding="utf-8")
    section = text[text.index("## The NAB score"):text.index("## Sources")]
    block = section.split("```python\n", 1)[1].split("```", 1)[0]
    runner = doctest.DocTestRunner()
    runner.run(doctest.DocTestParser().get_doctest(block, {}, "evaluators.md", "docs/evaluators.md", 0))
    for test in doctest.DocTestFinder().find(NAB):
        runner.run(test)
    assert runner.failures == 0 and runner.tries >= 6


@pytest.mark.parametrize("profile", PROFILES)
def test_nab_equals_its_oracle_past_two_to_the_twenty_points(profile: str) -> None:
    # a long series (2^20 + 5 rows): 40 windows, detections inside, before, after and between them,
    # long normal stretches (the false-positive weights reach far from the preceding window)
    rng = np.random.default_rng(20)
    n = 2 ** 20 + 5
    y_true = np.zeros(n, dtype=np.int8)
    for start in np.sort(rng.choice(np.arange(200_000, n - 5_000, 20_000), size=40, replace=False)):
        y_true[start:start + int(rng.integers(1, 3_000))] = 1
    y_pred = (rng.random(n) < 2e-5).astype(np.int8)
    y_pred[np.flatnonzero(np.diff(y_true, prepend=0) == 1)[::3] + 7] = 1
    builtin = evaluators.get("NAB", profile=profile)
    assert y_true.sum() > 0 and 10 < y_pred.sum() < 200
    assert _same(builtin(y_true, y_pred), nab_oracle(y_true.tolist(), y_pred.tolist(), **builtin.params))
    raw = evaluators.get("NAB", profile=profile, normalize=False)
    assert _same(raw(y_true, y_pred), nab_oracle(y_true.tolist(), y_pred.tolist(), **raw.params))
