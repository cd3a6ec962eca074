"""The score evaluators equal the packages users run, to 1e-9 (atlas environment only).

Runs where TSB-AD 1.5, vus 0.0.6 and scikit-learn are importable (the pinned atlas env,
``atlas/make-env.sh``; CI runs this file there) and skips cleanly elsewhere.  The series are
300-3,000 points with events at both ends, short and long events, events closer than the
window, and scores with ties and plateaus.

- VUS-ROC / VUS-PR = TSB-AD's ``generate_curve(y, s, W, 'opt', n)[6]`` / ``[7]`` and vus's
  ``RangeAUC_volume_opt(...)[4]`` / ``[5]``;
- R-AUC-ROC / R-AUC-PR, ``definition="tsb-ad"``: the area of window ``W`` on that surface,
  ``(W + 1) * VUS(W) - W * VUS(W - 1)`` from two ``generate_curve`` calls;
- R-AUC-ROC / R-AUC-PR, ``definition="vus"``: vus's ``RangeAUC(..., window=W)[0]`` / ``[1]``;
- ``definition="timeeval-compat"``: TimeEval 1.5's ``RangeRocAUC`` / ``RangePrAUC(buffer_size=W,
  compatibility_mode=True)`` and ``RangeRocVUS`` / ``RangePrVUS(max_buffer_size=W, compatibility_mode=True)``;
- ``definition="timeeval"``: the same classes with ``compatibility_mode=False`` (TimeEval's default);
- AUC-ROC = ``roc_auc_score``; AUC-PR = ``average_precision_score`` (``"average_precision"``)
  and ``auc(recall, precision)`` over ``precision_recall_curve`` (``"trapezoid"``, vus's ``metric_PR``);
- the stored reference values on the dataset's cases (``reference_results/values_*.json``): VUS-ROC/VUS-PR
  are TSB-AD's, AUC-ROC/AUC-PR scikit-learn's, on each case's 0/1 predictions as scores.
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from oipr_bench import evaluators

MISSING = [m for m in ("TSB_AD", "vus", "sklearn", "timeeval") if importlib.util.find_spec(m) is None]
pytestmark = pytest.mark.skipif(bool(MISSING), reason=f"{', '.join(MISSING)} not installed (make the atlas env: atlas/make-env.sh VENV)")

TOL = 1e-9


def _case(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Labels with events at both ends and close neighbours; scores with ties or plateaus."""
    rng = np.random.default_rng(seed)
    size = int(rng.integers(300, 3001))
    y = np.zeros(size, dtype=np.int64)
    y[: int(rng.integers(1, 30))] = 1
    y[size - int(rng.integers(1, 30)):] = 1
    for _ in range(int(rng.integers(0, 8))):
        start = int(rng.integers(40, size - 80))
        y[start:start + int(rng.integers(1, 60))] = 1
    y[size // 2 - 30: size // 2 - 28] = 1  # two events 20 points apart: slopes overlap at W = 100
    y[size // 2 - 8] = 1
    kind = seed % 3
    if kind == 0:
        s = np.round(rng.random(size) + 0.3 * y, 2)            # ties
    elif kind == 1:
        s = np.repeat(rng.random(size // 25 + 1), 25)[:size]  # plateaus
    else:
        s = rng.integers(0, 4, size).astype(float)            # four distinct values
    return y, s


SEEDS = list(range(9))


@pytest.fixture(scope="module")
def tsb():
    from TSB_AD.evaluation import basic_metrics
    return basic_metrics


@pytest.mark.parametrize("seed", SEEDS)
def test_vus_equals_tsb_ad_generate_curve(tsb, seed: int) -> None:
    y, s = _case(seed)
    out = tsb.generate_curve(y, s, 100, "opt", 250)
    assert abs(evaluators.get("VUS-ROC", sliding_window=100, thresholds=250)(y, s) - out[6]) < TOL
    assert abs(evaluators.get("VUS-PR", sliding_window=100, thresholds=250)(y, s) - out[7]) < TOL


@pytest.mark.parametrize("window, n", [(0, 250), (1, 7), (37, 100), (100, 50)])
def test_vus_parameters_equal_tsb_ad(tsb, window: int, n: int) -> None:
    y, s = _case(100 + window)
    out = tsb.generate_curve(y, s, window, "opt", n)
    assert abs(evaluators.get("VUS-ROC", sliding_window=window, thresholds=n)(y, s) - out[6]) < TOL
    assert abs(evaluators.get("VUS-PR", sliding_window=window, thresholds=n)(y, s) - out[7]) < TOL


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_vus_equals_vus_package(seed: int) -> None:
    from vus.utils.metrics import metricor

    y, s = _case(seed)
    out = metricor().RangeAUC_volume_opt(labels_original=y, score=s, windowSize=100, thre=250)
    assert abs(evaluators.get("VUS-ROC")(y, s) - out[4]) < TOL
    assert abs(evaluators.get("VUS-PR")(y, s) - out[5]) < TOL


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_range_auc_volume_is_the_surface_slice(tsb, seed: int) -> None:
    y, s = _case(seed)
    window = 60
    high, low = tsb.generate_curve(y, s, window, "opt", 250), tsb.generate_curve(y, s, window - 1, "opt", 250)
    for name, index in (("R-AUC-ROC", 6), ("R-AUC-PR", 7)):
        expected = (window + 1) * high[index] - window * low[index]
        assert abs(evaluators.get(name, sliding_window=window)(y, s) - expected) < TOL, name


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("window", [2, 9, 100])
def test_range_auc_vus_definition_equals_vus_package(seed: int, window: int) -> None:
    from vus.utils.metrics import metricor

    y, s = _case(seed)
    out = metricor().RangeAUC(labels=y, score=s, window=window, plot_ROC=True)
    assert abs(evaluators.get("R-AUC-ROC", sliding_window=window, definition="vus")(y, s) - out[0]) < TOL
    assert abs(evaluators.get("R-AUC-PR", sliding_window=window, definition="vus")(y, s) - out[1]) < TOL


@pytest.fixture(scope="module")
def timeeval_metrics():
    """``timeeval.metrics`` without ``timeeval/__init__.py`` (which imports the experiment runner)."""
    import importlib
    import sys
    import types

    if "timeeval" not in sys.modules:
        shell = types.ModuleType("timeeval")
        shell.__path__ = list(importlib.util.find_spec("timeeval").submodule_search_locations)
        sys.modules["timeeval"] = shell
    return importlib.import_module("timeeval.metrics")


MODES = {"timeeval-compat": True, "timeeval": False}


@pytest.mark.parametrize("seed", SEEDS[:6])
@pytest.mark.parametrize("window", [0, 1, 2, 9, 100])
@pytest.mark.parametrize("definition", MODES)
def test_range_auc_equals_timeeval(timeeval_metrics, seed: int, window: int, definition: str) -> None:
    y, s = _case(seed)
    roc = timeeval_metrics.RangeRocAUC(buffer_size=window, compatibility_mode=MODES[definition]).score(y, s)
    pr = timeeval_metrics.RangePrAUC(buffer_size=window, compatibility_mode=MODES[definition]).score(y, s)
    assert abs(evaluators.get("R-AUC-ROC", sliding_window=window, definition=definition)(y, s) - roc) < TOL
    assert abs(evaluators.get("R-AUC-PR", sliding_window=window, definition=definition)(y, s) - pr) < TOL


@pytest.mark.parametrize("seed", SEEDS[:2])
@pytest.mark.parametrize("definition", MODES)
def test_vus_equals_timeeval(timeeval_metrics, seed: int, definition: str) -> None:
    y, s = _case(seed)
    y, s = y[:600], s[:600]  # TimeEval recomputes everything per window: keep it short
    window = 40
    roc = timeeval_metrics.RangeRocVUS(max_buffer_size=window, compatibility_mode=MODES[definition]).score(y, s)
    pr = timeeval_metrics.RangePrVUS(max_buffer_size=window, compatibility_mode=MODES[definition]).score(y, s)
    assert abs(evaluators.get("VUS-ROC", sliding_window=window, definition=definition)(y, s) - roc) < TOL
    assert abs(evaluators.get("VUS-PR", sliding_window=window, definition=definition)(y, s) - pr) < TOL


@pytest.mark.parametrize("definition", MODES)
def test_timeevals_public_call_scores_a_constant_score_0_as_ours(timeeval_metrics, definition: str) -> None:
    # TimeEval's Metric.__call__ refuses a constant score (0.0, with a warning) before computing;
    # .score() would compute it.  Our TimeEval definitions follow the public call.
    import warnings

    y, _ = _case(1)
    s = np.full(y.shape[0], 0.25)
    classes = {"R-AUC-ROC": ("RangeRocAUC", {"buffer_size": 20}), "R-AUC-PR": ("RangePrAUC", {"buffer_size": 20}),
               "VUS-ROC": ("RangeRocVUS", {"max_buffer_size": 20}), "VUS-PR": ("RangePrVUS", {"max_buffer_size": 20})}
    for name, (cls, params) in classes.items():
        metric = getattr(timeeval_metrics, cls)(compatibility_mode=MODES[definition], **params)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = metric(y, s)
        assert theirs == 0.0 and metric.score(y, s) != 0.0, cls  # the guard is what makes it 0
        assert evaluators.get(name, sliding_window=20, definition=definition)(y, s) == theirs, name
    # TSB-AD computes it, as our default definition does
    assert evaluators.get("VUS-PR", sliding_window=20)(y, s) != 0.0


def test_tsb_ad_range_auc_still_crashes(tsb) -> None:
    # Why R-AUC's default is the surface slice: TSB-AD 1.5's own RangeAUC has no number to match.
    y, s = _case(0)
    with pytest.raises(ZeroDivisionError):
        tsb.basic_metricor().RangeAUC(labels=y, score=s, window=100, plot_ROC=True)


@pytest.mark.parametrize("seed", SEEDS)
def test_point_aucs_equal_scikit_learn(seed: int) -> None:
    from sklearn.metrics import auc, average_precision_score, precision_recall_curve, roc_auc_score

    y, s = _case(seed)
    assert abs(evaluators.get("AUC-ROC")(y, s) - roc_auc_score(y, s)) < TOL
    assert abs(evaluators.get("AUC-PR")(y, s) - average_precision_score(y, s)) < TOL
    precision, recall, _ = precision_recall_curve(y, s)
    assert abs(evaluators.get("AUC-PR", estimator="trapezoid")(y, s) - auc(recall, precision)) < TOL


def _stored_values(name: str) -> dict:
    import json

    from oipr_bench import reference
    from oipr_bench._paths import data_dir

    doc = json.loads((data_dir("reference_results") / reference.SCORE_VALUE_FILES[name]).read_text(encoding="utf-8"))
    return {row["case_id"]: row for row in doc["cases"]}


def _case_runs(step: int = 10):
    """Every dataset case as (case id, run index, y_true, the 0/1 prediction as float scores); every ``step``-th run
    of a random-detector case."""
    from oipr_bench import scenarios

    for case in scenarios.load():
        for i, pred in list(enumerate(case.predictions))[::step if case.n_runs > 1 else 1]:
            yield case.id, i, case.y_true, np.asarray(pred, dtype=np.float64)


def _stored_run(rows: dict, case_id: str, i: int) -> float:
    row = rows[case_id]
    return row["value"] if row["runs"] is None else row["runs"][i]


def test_stored_vus_values_equal_tsb_ad(tsb) -> None:
    """reference_results/values_vus_*.json: every case (every tenth random run) is TSB-AD's VUS of its 0/1 scores."""
    roc, pr = _stored_values("VUS-ROC"), _stored_values("VUS-PR")
    checked = 0
    for case_id, i, y, s in _case_runs():
        out = tsb.generate_curve(y, s, 100, "opt", 250)
        assert abs(_stored_run(roc, case_id, i) - out[6]) < TOL, (case_id, i)
        assert abs(_stored_run(pr, case_id, i) - out[7]) < TOL, (case_id, i)
        checked += 1
    assert checked == 23 + 2 * 10


def test_stored_point_auc_values_equal_scikit_learn() -> None:
    from sklearn.metrics import average_precision_score, roc_auc_score

    roc, pr = _stored_values("AUC-ROC"), _stored_values("AUC-PR")
    for case_id, i, y, s in _case_runs(step=1):
        assert abs(_stored_run(roc, case_id, i) - roc_auc_score(y, s)) < TOL, (case_id, i)
        assert abs(_stored_run(pr, case_id, i) - average_precision_score(y, s)) < TOL, (case_id, i)
