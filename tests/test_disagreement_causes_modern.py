"""The hand-traced entries of atlas/DISAGREEMENTS.md, the modern atlas env's half (aeon 1.6.0, dtaianomaly 0.5.1).

Each test recomputes with the package the values that
:mod:`oipr_bench.atlas.disagreements.cross_env` states (its ``VALUES``, from
which the report prints them) and checks them against oipr-bench's own
evaluators where one computes the same definition, or against a value derived
by hand.  The main env's half (prts, TimeEval, TSB-AD, vus) is
tests/test_disagreement_causes.py.  CI runs this file in the modern env and
fails on a skip; a test skips only when its package is not installed (the dev
env), as tests/test_atlas_modern.py.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from oipr_bench import evaluators
from oipr_bench.atlas.adapters.base import package_version
from oipr_bench.atlas.disagreements import cross_env
from oipr_bench.atlas.disagreements.cross_env import VALUES, range_input, score_input

TOL = 5e-5  # the entries print 4 decimals


def _need(dist: str) -> None:
    if package_version(dist) is None:
        pytest.skip(f"{dist} is not installed (make the modern atlas env: atlas/make-env.sh --env modern VENV)")


def _aeon():
    _need("aeon")
    import aeon.benchmarking.metrics.anomaly_detection as ad

    return ad


def _dtaianomaly():
    _need("dtaianomaly")
    import dtaianomaly.evaluation as de

    return de


def _close(value: float, key: str) -> None:
    assert abs(value - VALUES[key]) < TOL, (key, value, VALUES[key])


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def test_aeon_range_pr_on_constant_predictions():
    ad = _aeon()
    y, ones, empty = range_input()
    for prediction, name in ((ones, "all-ones"), (empty, "empty")):
        with pytest.warns(UserWarning, match="constant value"):
            _close(ad.range_precision(y, prediction, alpha=0.0, cardinality="reciprocal", bias="flat"), f"aeon {name} precision")
        with pytest.warns(UserWarning, match="constant value"):
            _close(ad.range_recall(y, prediction, alpha=0.5, cardinality="reciprocal", bias="flat"), f"aeon {name} recall")
    # the range definition gives the all-ones prediction P = 4/20, R = 1 (ours, as prts in the main env)
    ours = evaluators.get("RP/RR", bias_r="flat")(y, ones)
    assert (ours.precision, ours.recall) == pytest.approx((VALUES["prts all-ones precision"], VALUES["prts all-ones recall"]))
    # off the constant predictions aeon equals ours (so prts) on the dataset's other 23 cases
    from oipr_bench import scenarios

    rp = evaluators.get("RP/RR", bias_r="flat")
    checked = 0
    for case in scenarios.load():
        if case.id.startswith("constant_detector/"):
            continue
        yt, yp = case.y_true.astype(np.int64), case.predictions[0].astype(np.int64)
        got = (ad.range_precision(yt, yp, alpha=0.0, cardinality="reciprocal", bias="flat"),
               ad.range_recall(yt, yp, alpha=0.5, cardinality="reciprocal", bias="flat"))
        want = rp(yt, yp)
        assert got == pytest.approx((want.precision, want.recall), abs=1e-9), case.id
        checked += 1
    assert checked == 23


def test_aeon_range_pr_auc_is_timeeval_compatibility_mode():
    ad = _aeon()
    y, s, _ = score_input()
    got = ad.range_pr_auc_score(y, s)  # buffer_size None: the median event length, 6
    _close(got, "range PR AUC, aeon")
    assert got == pytest.approx(evaluators.get("R-AUC-PR", sliding_window=6, definition="timeeval-compat")(y, s), abs=1e-9)
    assert abs(got - evaluators.get("R-AUC-PR", sliding_window=6, definition="timeeval")(y, s)) > 0.01


def test_dtaianomaly_range_auc_on_a_constant_score():
    de = _dtaianomaly()
    ad = _aeon()
    y, s, constant = score_input()
    compat = de.RangeAreaUnderPR(compatibility_mode=True).compute(y, constant)
    default = de.RangeAreaUnderPR().compute(y, constant)
    _close(compat, "constant, dtaianomaly compatibility mode")
    _close(default, "constant, dtaianomaly default")
    assert compat == pytest.approx((1 + cross_env.constant_case_mass() / 40) / 2, abs=1e-9)  # derived by hand
    # dtaianomaly has no constant guard: its default is TimeEval's default procedure computed on the constant
    # (what TimeEval's .score() gives), i.e. our "timeeval" kernel without the public call's 0.0
    assert evaluators.get("R-AUC-PR", sliding_window=6, definition="timeeval")(y, constant) == 0.0
    from oipr_bench.evaluators.scores.curves import pr_area, range_curves

    tpr, _, precision = range_curves(y.astype(np.int8), constant.astype(np.float64), [6], min(250, y.shape[0]), "timeeval")
    assert default == pytest.approx(float(pr_area(tpr, precision, trapezoid=True)[0]), abs=1e-9)
    with pytest.warns(UserWarning, match="constant value"):
        _close(ad.range_pr_auc_score(y, constant), "constant, aeon")
    # the dataset's constant detector (all-zero scores)
    case = {c.id: c for c in __import__("oipr_bench").scenarios.load()}["constant_detector/c1"]
    yt, yp = case.y_true.astype(np.int64), case.y_pred.astype(np.float64)
    c1 = de.RangeAreaUnderPR(compatibility_mode=True).compute(yt, yp)
    _close(c1, "constant_detector/c1, dtaianomaly compatibility mode")
    buffer = int(np.median([len(e) for e in np.split(np.flatnonzero(yt), np.flatnonzero(np.diff(np.flatnonzero(yt)) != 1) + 1)]))
    assert evaluators.get("R-AUC-PR", sliding_window=buffer, definition="timeeval-compat")(yt, yp) == 0.0  # TimeEval's guard
    tpr, _, precision = range_curves(yt.astype(np.int8), yp, [buffer], 250, "compat")  # the procedure, unguarded
    assert c1 == pytest.approx(float(pr_area(tpr, precision, trapezoid=True)[0]), abs=1e-9)
    # on non-constant scores dtaianomaly is TimeEval's procedure in both modes
    _close(de.RangeAreaUnderPR(compatibility_mode=True).compute(y, s), "range PR AUC, dtaianomaly compatibility mode")
    assert de.RangeAreaUnderPR().compute(y, s) == pytest.approx(evaluators.get("R-AUC-PR", sliding_window=6, definition="timeeval")(y, s), abs=1e-9)


def test_vus_pr_window_4_modern_packages():
    ad = _aeon()
    de = _dtaianomaly()
    y, s, _ = score_input()
    same = "VUS-PR w4, TimeEval compatibility mode, aeon, dtaianomaly compatibility mode"
    aeon = ad.range_pr_vus_score(y, s, max_buffer_size=4)
    _close(aeon, same)
    _close(de.VolumeUnderPR(max_buffer_size=4, compatibility_mode=True).compute(y, s), same)
    default = de.VolumeUnderPR(max_buffer_size=4).compute(y, s)
    _close(default, "VUS-PR w4, TimeEval default, dtaianomaly default")
    assert aeon == pytest.approx(evaluators.get("VUS-PR", sliding_window=4, definition="timeeval-compat")(y, s), abs=1e-9)
    assert default == pytest.approx(evaluators.get("VUS-PR", sliding_window=4, definition="timeeval")(y, s), abs=1e-9)
    # TSB-AD's and vus' number at the same window (computed in the main env) is ours with the "tsb-ad" definition
    assert abs(aeon - evaluators.get("VUS-PR", sliding_window=4)(y, s)) > 0.05


def test_vus_pr_default_windows_modern_packages():
    ad = _aeon()
    de = _dtaianomaly()
    y, s, _ = score_input()
    aeon = ad.range_pr_vus_score(y, s)  # max_buffer_size=500, its default
    _close(aeon, "VUS-PR default, aeon (max_buffer_size 500)")
    assert aeon == pytest.approx(evaluators.get("VUS-PR", sliding_window=500, definition="timeeval-compat")(y, s), abs=1e-9)
    dtai = de.VolumeUnderPR().compute(y, s)  # max_buffer_size=500, compatibility_mode=False
    _close(dtai, "VUS-PR default, dtaianomaly and TimeEval (max_buffer_size 500, linear slopes)")
    assert dtai == pytest.approx(evaluators.get("VUS-PR", sliding_window=500, definition="timeeval")(y, s), abs=1e-9)
    _close(evaluators.get("VUS-PR", sliding_window=100)(y, s), "VUS-PR default, TSB-AD (slidingWindow 100)")


@pytest.mark.parametrize("dist", ["aeon", "dtaianomaly"])
def test_cross_env_names_the_installed_versions(dist):
    _need(dist)
    assert f"{dist} {package_version(dist)}" in " ".join(cross_env.__doc__.split())
