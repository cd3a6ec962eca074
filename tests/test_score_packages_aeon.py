"""aeon 1.6.0's range AUC and VUS equal our score evaluators to 1e-9 (modern atlas environment only).

aeon's ``range_roc_auc_score`` / ``range_pr_auc_score(buffer_size=w)`` and
``range_roc_vus_score`` / ``range_pr_vus_score(max_buffer_size=W)`` (default 500) are TimeEval's
compatibility mode: ``definition="timeeval-compat"`` with ``sliding_window=w`` (or ``W``) and 250
thresholds; a constant score scores 0.0 in both (aeon's guard).  Runs where aeon is importable
(``atlas/make-env.sh --env modern VENV``; CI runs this file there) and skips cleanly elsewhere.
The series are those of tests/test_score_packages.py (300-3,000 points, events at both ends,
ties, plateaus, a few distinct values), shortened for the VUS at aeon's default window.
"""

from __future__ import annotations

import importlib.util
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

from oipr_bench import evaluators

pytestmark = pytest.mark.skipif(importlib.util.find_spec("aeon") is None,
                                reason="aeon not installed (make the modern atlas env: atlas/make-env.sh --env modern VENV)")

TOL = 1e-9


def _case(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The series of tests/test_score_packages.py (one generator for both environments)."""
    sys.path.insert(0, str(Path(__file__).parent))
    from test_score_packages import _case as generated

    return generated(seed)


@pytest.fixture(scope="module")
def aeon_ad():
    from aeon.benchmarking.metrics import anomaly_detection

    return anomaly_detection


def _quiet(fn, *args, **kwargs) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(fn(*args, **kwargs))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("window", [0, 1, 2, 9, 100])
def test_range_auc_equals_aeon(aeon_ad, seed: int, window: int) -> None:
    y, s = _case(seed)
    roc = _quiet(aeon_ad.range_roc_auc_score, y, s, buffer_size=window)
    pr = _quiet(aeon_ad.range_pr_auc_score, y, s, buffer_size=window)
    assert abs(evaluators.get("R-AUC-ROC", sliding_window=window, definition="timeeval-compat")(y, s) - roc) < TOL
    assert abs(evaluators.get("R-AUC-PR", sliding_window=window, definition="timeeval-compat")(y, s) - pr) < TOL


@pytest.mark.parametrize("seed", range(3))
def test_vus_at_aeons_default_window_equals_aeon(aeon_ad, seed: int) -> None:
    y, s = _case(seed)
    y, s = y[:400], s[:400]  # aeon recomputes every one of its 501 windows: keep it short
    roc = _quiet(aeon_ad.range_roc_vus_score, y, s)  # max_buffer_size=500, aeon's default
    pr = _quiet(aeon_ad.range_pr_vus_score, y, s)
    assert abs(evaluators.get("VUS-ROC", sliding_window=500, definition="timeeval-compat")(y, s) - roc) < TOL
    assert abs(evaluators.get("VUS-PR", sliding_window=500, definition="timeeval-compat")(y, s) - pr) < TOL


def test_a_constant_score_is_0_in_aeon_and_ours(aeon_ad) -> None:
    y, _ = _case(4)
    s = np.full(y.shape[0], 0.7)
    for name, fn, kw in (("R-AUC-ROC", aeon_ad.range_roc_auc_score, {"buffer_size": 30}),
                         ("R-AUC-PR", aeon_ad.range_pr_auc_score, {"buffer_size": 30}),
                         ("VUS-ROC", aeon_ad.range_roc_vus_score, {"max_buffer_size": 30}),
                         ("VUS-PR", aeon_ad.range_pr_vus_score, {"max_buffer_size": 30})):
        assert _quiet(fn, y, s, **kw) == 0.0
        assert evaluators.get(name, sliding_window=30, definition="timeeval-compat")(y, s) == 0.0


def test_aeon_rows_of_the_variant_table(aeon_ad) -> None:
    """docs/evaluators.md's aeon rows: aeon's value on the typical case is the one printed."""
    sys.path.insert(0, str(Path(__file__).parent))
    from test_score_evaluators_doc import is_aeon_row, typical_case, variant_rows

    rows = [r for r in variant_rows() if is_aeon_row(r)]
    assert len(rows) == 3
    y, s = typical_case()
    for row in rows:
        call = row["package"].strip("`")
        value = _quiet(eval, call, {**vars(aeon_ad), "y": y, "s": s})
        assert f"{value:.4f}" == row["value"], call
