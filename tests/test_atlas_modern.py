"""Atlas adapters of the ``modern`` environment (atlas/requirements-modern.txt: numpy 2).

Every test skips, with the reason, unless its package is installed (make the env with
``atlas/make-env.sh --env modern VENV``); CI runs this file in that env and fails on any skip.
The example is tests/test_atlas_adapters.py's: a 20-point series, one anomaly [2, 6),
the prediction [3, 5) (2 of its 4 points).
"""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest

from oipr_bench.atlas.adapters.registry import adapters, by_id

Y_TRUE = np.zeros(20, np.int8)
Y_TRUE[2:6] = 1
Y_PRED = np.zeros(20, np.int8)
Y_PRED[3:5] = 1
EMPTY = np.zeros(20, np.int8)

MODERN = [a for a in adapters() if a.env == "modern"]

#: Rows whose package raises on the empty prediction (the audit records that case as failed):
#: dtaianomaly's range-based precision divides by the number of predicted ranges.
CRASH_ON_EMPTY = {"dtaianomaly:RangeBasedPrecision/Recall/FBeta": ZeroDivisionError,
                  "dtaianomaly:RangeBasedPrecision/Recall/FBeta[front]": ZeroDivisionError}


def _load(row_id: str):
    adapter = by_id()[row_id]
    if adapter.version is None:
        pytest.skip(f"{adapter.package} is not installed (make the modern atlas env: atlas/make-env.sh --env modern VENV)")
    return adapter, adapter.load()


def _call(adapter, ev, y_true, y_pred):
    x = y_pred.astype(np.float64) if adapter.input_kind == "scores" else y_pred
    return ev(y_true.copy(), x)


def test_the_modern_rows_and_their_pins():
    assert {a.package for a in MODERN} == {"aeon", "dtaianomaly", "cce", "tadmetric", "telemeval"}
    assert len(MODERN) >= 50
    from pathlib import Path

    pins = (Path(__file__).resolve().parents[1] / "atlas" / "requirements-modern.txt").read_text(encoding="utf-8")
    for line in ("aeon==1.6.0", "dtaianomaly==0.5.1", "cce==0.3.3", "tadmetric==0.2.2", "telemeval==0.3.4", "numba==0.63.1"):
        assert line in pins.splitlines(), line
    installed = [line.split("==")[0].lower() for line in pins.splitlines() if line and not line.startswith("#")]
    assert "torch" not in installed and "tensorflow" not in installed


@pytest.mark.parametrize("row_id", [a.id for a in MODERN if not a.slow])
def test_every_modern_adapter_runs_within_its_bounds(row_id):
    adapter, ev = _load(row_id)
    lo, hi = adapter.bounds
    for y_pred in (Y_PRED, Y_TRUE):
        result = _call(adapter, ev, Y_TRUE, y_pred)
        values = result if isinstance(result, tuple) else (result,)
        assert adapter.kind == ("pr" if isinstance(result, tuple) else "score"), row_id
        for v in values:
            assert isinstance(v, float) and math.isfinite(v), (row_id, result)
            assert lo is None or v >= lo - 1e-9, (row_id, result)
            assert hi is None or v <= hi + 1e-9, (row_id, result)


@pytest.mark.parametrize("row_id", [a.id for a in MODERN if a.slow])
def test_slow_modern_adapters_run_on_a_short_series(row_id):
    adapter, ev = _load(row_id)
    result = _call(adapter, ev, Y_TRUE, Y_TRUE)
    assert adapter.kind == ("pr" if isinstance(result, tuple) else "score"), row_id
    perfect = result[-1] if isinstance(result, tuple) else result  # a (P, R, F) row: its F
    assert isinstance(perfect, float) and 0.9 <= perfect <= 1.0 + 1e-9


@pytest.mark.parametrize("row_id", sorted(CRASH_ON_EMPTY))
def test_known_crashes_on_the_empty_prediction(row_id):
    adapter, ev = _load(row_id)
    with pytest.raises(CRASH_ON_EMPTY[row_id]):
        _call(adapter, ev, Y_TRUE, EMPTY)


def test_aeon_range_pr_of_the_example_by_hand():
    # adapters/aeon.py: precision 1 (the predicted range inside the real one); recall, paper setting:
    # 0.5 existence + 0.5 x front-biased overlap (weights 4,3,2,1; points 3, 4 weigh 3 + 2 of 10) = 0.75.
    adapter, ev = _load("aeon:range_precision/range_recall[paper]")
    assert _call(adapter, ev, Y_TRUE, Y_PRED) == pytest.approx((1.0, 0.75), abs=1e-12)
    # aeon's defaults: recall alpha 0, flat: the overlap 2 of 4 points
    adapter, ev = _load("aeon:range_precision/range_recall[defaults]")
    assert _call(adapter, ev, Y_TRUE, Y_PRED) == pytest.approx((1.0, 0.5), abs=1e-12)


def test_aeon_agrees_with_the_built_in_rp_rr_on_the_example_and_scores_constants_zero():
    from oipr_bench.evaluators import get

    adapter, ev = _load("aeon:range_precision/range_recall[paper]")
    ours = get("RP/RR")(Y_TRUE, Y_PRED)
    assert _call(adapter, ev, Y_TRUE, Y_PRED) == pytest.approx((ours.precision, ours.recall), abs=1e-12)
    # its constant-prediction guard: the all-ones prediction scores 0, not P = 4/20, R = 1
    assert _call(adapter, ev, Y_TRUE, np.ones(20, np.int8)) == (0.0, 0.0)


def test_dtaianomaly_of_the_example_by_hand():
    adapter, ev = _load("dtaianomaly:Precision/Recall/FBeta")
    assert _call(adapter, ev, Y_TRUE, Y_PRED) == pytest.approx((1.0, 0.5, 2 / 3), abs=1e-12)
    adapter, ev = _load("dtaianomaly:PointAdjustedPrecision/Recall/FBeta")
    assert _call(adapter, ev, Y_TRUE, Y_PRED) == pytest.approx((1.0, 1.0, 1.0), abs=1e-12)
    # UCR score: the highest score at index 3 lies inside [2 - 4, 5 + 4]
    adapter, ev = _load("dtaianomaly:UCRScore")
    assert _call(adapter, ev, Y_TRUE, Y_PRED) == 1.0
    far = np.zeros(20, np.int8)
    far[19] = 1  # 19 > 5 + 4: outside the margin
    assert _call(adapter, ev, Y_TRUE, far) == 0.0


def test_dtaianomaly_compatibility_mode_is_timeevals_250_thresholds():
    # compatibility_mode samples 250 thresholds whatever the length; off, at most the series length:
    # on 20 points the two give different range AUCs.
    _, off = _load("dtaianomaly:RangeAreaUnderPR")
    _, on = _load("dtaianomaly:RangeAreaUnderPR[compatibility_mode]")
    score = np.linspace(0.0, 1.0, 20) * 0.5 + 0.5 * Y_TRUE
    assert off(Y_TRUE, score) != pytest.approx(on(Y_TRUE, score), abs=1e-6)


def test_cce_of_a_perfect_score_by_hand():
    # adapters/cce.py: constant segments, uncertainty 0, consistency 1; both terms 0.5 (1/(1 + 1e-8) - 0.5) + 0.25.
    adapter, ev = _load("cce:CCE")
    term = 0.5 * (1 / (1 + 1e-8) - 0.5) + 0.25
    assert _call(adapter, ev, Y_TRUE, Y_TRUE) == pytest.approx(2 * term, abs=1e-12)
    assert "torch" not in sys.modules


def test_tadmetric_of_the_example_by_hand():
    adapter, ev = _load("tadmetric:evaluate[point-wise]")
    assert _call(adapter, ev, Y_TRUE, Y_PRED) == pytest.approx((1.0, 0.5, 2 / 3), abs=1e-12)
    adapter, ev = _load("tadmetric:evaluate[composite]")
    assert _call(adapter, ev, Y_TRUE, Y_PRED) == pytest.approx((1.0, 1.0, 1.0), abs=1e-12)
    adapter, ev = _load("tadmetric:latency[point-adjusted]")
    assert _call(adapter, ev, Y_TRUE, Y_PRED) == 1.0
    assert math.isnan(_call(adapter, ev, Y_TRUE, EMPTY))


def test_telemeval_adtqc_of_the_example_by_hand():
    # latency 1 min, event length 3 min (inclusive end), allowance 3: 1 / (1 + (1/2)^e)
    adapter, ev = _load("telemeval:adtqc")
    assert _call(adapter, ev, Y_TRUE, Y_PRED) == pytest.approx(1 / (1 + 0.5 ** math.e), abs=1e-12)
    adapter, ev = _load("telemeval:event_wise[beta=0.5]")
    assert _call(adapter, ev, Y_TRUE, Y_PRED) == pytest.approx((1.0, 1.0, 1.0), abs=1e-12)


def test_aeon_vus_pair_shares_one_loop_and_equals_both_public_calls():
    # range_roc_vus_score and range_pr_vus_score are one atlas batch (atlas/adapters/shared.py); their
    # shared call (aeon.vus_volumes) must give exactly what each public function gives
    import warnings

    from oipr_bench.atlas.adapters import shared
    from oipr_bench.atlas.adapters.modern.aeon import vus_volumes

    roc_adapter, roc = _load("aeon:range_roc_vus_score")
    pr_adapter, pr = _load("aeon:range_pr_vus_score")
    assert roc_adapter.shared == pr_adapter.shared and dict(roc_adapter.params) == dict(pr_adapter.params)
    metrics = pytest.importorskip("aeon.benchmarking.metrics.anomaly_detection")
    rng = np.random.default_rng(30)
    y = np.zeros(150, np.int64)
    y[40:52] = 1
    y[100:103] = 1
    noisy = rng.random(150)
    shared.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for s in (noisy, np.round(noisy * 4) / 4, np.full(150, 0.3)):
            size = roc_adapter.params["max_buffer_size"]
            want = (metrics.range_pr_vus_score(y, s, max_buffer_size=size), metrics.range_roc_vus_score(y, s, max_buffer_size=size))
            assert vus_volumes(y, s, size) == want  # exactly, not within a tolerance
            assert (pr(y, s), roc(y, s)) == want
    shared.clear()
