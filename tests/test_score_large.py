"""The score evaluators past 2^20 points equal the packages users run (opt-in, atlas environment only).

Set ``OIPR_LARGE=1`` and run in the pinned atlas environment (TSB-AD 1.5 and scikit-learn importable):

    OIPR_LARGE=1 python -m pytest tests/test_score_large.py

VUS-ROC and VUS-PR at 2^20 + 5 points against TSB-AD's ``generate_curve(y, s, 100, 'opt', 250)``
(indices 6 and 7; TSB-AD takes minutes there), AUC-ROC and AUC-PR (average precision) at 2^21 + 3 points
against scikit-learn's ``roc_auc_score`` and ``average_precision_score``, to 1e-9.  The sizes are off
every power of two, so each block loop of the kernels ends on a partial block; the series have events
at both ends, events closer than the window, and scores with ties and plateaus.  Skipped
otherwise (it is not part of CI: minutes on two cores).
"""

from __future__ import annotations

import importlib.util
import os

import numpy as np
import pytest

from oipr_bench import evaluators

MISSING = [m for m in ("TSB_AD", "sklearn") if importlib.util.find_spec(m) is None]
pytestmark = [
    pytest.mark.skipif(os.environ.get("OIPR_LARGE") != "1",
                       reason="set OIPR_LARGE=1 to run the tests past 2^20 points (minutes; the atlas env)"),
    pytest.mark.skipif(bool(MISSING), reason=f"{', '.join(MISSING)} not installed (make the atlas env: atlas/make-env.sh VENV)"),
]

TOL = 1e-9


def _large_case(size: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """About 60 events of 1-300 points (two at the ends, five within one window of each other in the middle),
    scores with ties and plateaus (TSB-AD loops over the events: few of them keep it to minutes)."""
    rng = np.random.default_rng(seed)
    y = np.zeros(size, dtype=np.int64)
    y[: int(rng.integers(1, 50))] = 1
    y[size - int(rng.integers(1, 50)):] = 1
    for start in rng.integers(100, size - 400, 50):
        y[start:start + int(rng.integers(1, 300))] = 1
    for k in range(5):  # gaps of 25 points: their slopes overlap at the default window of 100
        y[size // 2 + 30 * k: size // 2 + 30 * k + 5] = 1
    s = np.round(rng.random(size) * 0.8 + 0.3 * y, 3)      # ties: 1,100 distinct values
    plateau = np.repeat(rng.random(size // 500 + 1), 500)[:size]
    s[size // 3: 2 * size // 3] = np.round(plateau[size // 3: 2 * size // 3], 2)  # a third in plateaus
    return y, s


def test_vus_equals_tsb_ad_past_2_20_points() -> None:
    from TSB_AD.evaluation.basic_metrics import generate_curve

    y, s = _large_case((1 << 20) + 5, seed=20)
    out = generate_curve(y, s, 100, "opt", 250)
    assert abs(evaluators.get("VUS-ROC")(y, s) - out[6]) < TOL
    assert abs(evaluators.get("VUS-PR")(y, s) - out[7]) < TOL


def test_point_aucs_equal_scikit_learn_past_2_21_points() -> None:
    from sklearn.metrics import average_precision_score, roc_auc_score

    y, s = _large_case((1 << 21) + 3, seed=21)
    assert abs(evaluators.get("AUC-ROC")(y, s) - roc_auc_score(y, s)) < TOL
    assert abs(evaluators.get("AUC-PR")(y, s) - average_precision_score(y, s)) < TOL
