"""The chance levels of docs/scalar-metrics.md, computed.

F1 of a random detector is 2*pi*q/(pi+q) (the F1 of the expected counts), not "about the flagged share";
an AUC-PR integrated by trapezoids from (recall 0, precision 1) gives a constant score (1+pi)/2 and random
scores about pi.  The numbers quoted on the page for random_detector/c1 are recomputed here.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from oipr_bench import scenarios
from oipr_bench.reference.values import reference_values

PAGE = Path(__file__).resolve().parents[1] / "docs" / "scalar-metrics.md"


def trapezoid_pr_auc(y: np.ndarray, s: np.ndarray) -> float:
    """Area under the PR curve by trapezoids over the distinct thresholds, starting at (recall 0, precision 1)."""
    y = y.astype(bool)
    recall, precision = [0.0], [1.0]
    for t in np.unique(s)[::-1]:
        flagged = s >= t
        tp = int((flagged & y).sum())
        recall.append(tp / y.sum())
        precision.append(tp / flagged.sum())
    r, p = np.asarray(recall), np.asarray(precision)
    return float(np.sum(np.diff(r) * (p[1:] + p[:-1]) / 2))


def _case_numbers() -> dict[str, float]:
    case = scenarios.get("random_detector/c1")
    y = np.asarray(case.y_true).astype(bool)
    runs = np.array([np.asarray(p) for p in case.predictions]).astype(bool)
    pi, q = float(y.mean()), float(runs.mean())
    return {"pi": pi, "q": q, "f1": 2 * pi * q / (pi + q), "pw": reference_values("PW")["random_detector/c1"].score.f1,
            "trap": (1 + pi) / 2}


def test_f1_of_the_expected_counts_is_the_closed_form():
    rng = np.random.default_rng(0)
    for _ in range(20):
        n, pi, q = 1000, rng.uniform(0.01, 0.5), rng.uniform(0.01, 0.5)
        tp, fp, fn = pi * q * n, (1 - pi) * q * n, pi * (1 - q) * n
        assert 2 * tp / (2 * tp + fp + fn) == pytest.approx(2 * pi * q / (pi + q), rel=1e-12)


def test_trapezoid_auc_pr_gives_a_constant_score_one_plus_pi_over_two_and_random_scores_about_pi():
    y = np.asarray(scenarios.get("random_detector/c1").y_true)
    pi = float(y.mean())
    assert trapezoid_pr_auc(y, np.full(y.size, 0.5)) == pytest.approx((1 + pi) / 2, abs=1e-12)
    rng = np.random.RandomState(27)
    draws = [trapezoid_pr_auc(y, rng.uniform(size=y.size)) for _ in range(50)]
    # 50 draws: their mean lies within 0.02 of pi (0.045) and far below (1 + pi) / 2
    assert abs(float(np.mean(draws)) - pi) < 0.02 and max(draws) < (1 + pi) / 4


def test_the_page_quotes_the_computed_numbers():
    if not PAGE.is_file():
        pytest.skip("docs/ not available (not a source checkout)")
    text = PAGE.read_text(encoding="utf-8")
    n = _case_numbers()
    assert f"(π = {n['pi']:.3f}, runs flagging\nq = {n['q']:.4f}" in text
    assert f"2πq/(π+q) = {n['f1']:.4f}" in text and f"PW's mean F1\nover the 100 runs is {n['pw']:.4f}" in text
    assert f"(1+π)/2 = {n['trap']:.4f}" in text and n["trap"] > 10 * n["pi"]
    assert "about the flagged share" not in text
