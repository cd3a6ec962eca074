"""Disagreements across the two pinned environments, traced by hand in the packages' installed source.

The study (:mod:`oipr_bench.atlas.disagreements.study`) compares the members of
a group in one process, so it cannot put a package of the ``modern``
environment (numpy 2: aeon 1.6.0, dtaianomaly 0.5.1) beside one of the ``main``
environment (numpy 1.26: prts 1.0.0.3, TimeEval 1.5.0, TSB-AD 1.5, vus 0.0.6).
These entries do it by hand: each names the rows, a small fixed input (built by
:func:`range_input` and :func:`score_input`), every row's value on it, the
cause (file and function in each package), and the tests that recompute every
value in each environment: tests/test_disagreement_causes.py (main env) and
tests/test_disagreement_causes_modern.py (modern env); CI runs each in its
environment.  The values below are the ones those tests assert; the report
renders them from here (:func:`render_cross_env`), so text and tests share one
number.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["CrossEntry", "ENTRIES", "VALUES", "range_input", "score_input", "constant_case_mass", "render_cross_env"]


def range_input() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """20 points, one anomaly [2, 6): y_true, the all-ones and the empty prediction (int64)."""
    y_true = np.zeros(20, np.int64)
    y_true[2:6] = 1
    return y_true, np.ones(20, np.int64), np.zeros(20, np.int64)


def score_input() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """40 points, one anomaly [10, 16): y_true, scores and a constant score.

    The scores are 0.1 everywhere, 0.9 on [12, 18) (the event's second half and
    two points after it) and 0.5 on [30, 32) (a false alarm); the constant score
    is 0 everywhere (the constant detector).  With ``buffer_size=None`` the range
    AUCs take the median event length, 6, as their buffer.
    """
    y_true = np.zeros(40, np.int64)
    y_true[10:16] = 1
    scores = np.full(40, 0.1)
    scores[12:18] = 0.9
    scores[30:32] = 0.5
    return y_true, scores, np.zeros(40)


def constant_case_mass() -> float:
    """The sloped-label mass of :func:`score_input`'s labels at buffer 6, derived by hand.

    The original (sqrt) slope adds ``sqrt(1 - d / 6)`` at distance ``d`` for
    ``buffer // 2 = 3`` points before the event (d = 3, 2, 1: points 7, 8, 9) and,
    starting on the event's last point 15, after it (d = 0, 1, 2: points 15, 16,
    17; point 15 is capped at 1).  Mass = 6 + sqrt(1/2) + 2 sqrt(4/6) + 2 sqrt(5/6).
    A constant score puts every threshold on the constant, so every point is
    predicted: recall 1 at precision mass / 40, and the trapezoid from (recall 0,
    precision 1) has the area (1 + mass / 40) / 2.
    """
    return 6 + np.sqrt(1 / 2) + 2 * np.sqrt(4 / 6) + 2 * np.sqrt(5 / 6)


#: Every number the entries state (4 decimals), by (row, input).  The tests assert each package's
#: value against these (|difference| < 5e-5) and against oipr-bench's own evaluators where one
#: computes the same definition (docs/evaluators.md).
VALUES: dict[str, float] = {
    # range_input(), the all-ones prediction: prts P = 4/20 (flat bias, one overlapped range), R = 0.5 + 0.5 * 4/4
    "prts all-ones precision": 0.2,
    "prts all-ones recall": 1.0,
    "aeon all-ones precision": 0.0,
    "aeon all-ones recall": 0.0,
    "aeon empty precision": 0.0,
    "aeon empty recall": 0.0,
    # score_input(), range PR AUC with buffer_size=None (6)
    "range PR AUC, TimeEval compatibility mode": 0.8341,
    "range PR AUC, TimeEval default": 0.8200,
    "range PR AUC, aeon": 0.8341,
    "range PR AUC, dtaianomaly compatibility mode": 0.8341,
    # score_input()'s constant score
    "constant, dtaianomaly compatibility mode": 0.6271,
    "constant, dtaianomaly default": 0.6354,
    "constant, TimeEval": 0.0,
    "constant, aeon": 0.0,
    # the dataset's constant_detector/c1 (all-zero scores), range PR AUC in compatibility mode
    "constant_detector/c1, dtaianomaly compatibility mode": 0.5897,
    "constant_detector/c1, TimeEval compatibility mode": 0.0,
    # score_input(), VUS-PR at the aligned window (buffer) 4
    "VUS-PR w4, TSB-AD and vus": 0.6145,
    "VUS-PR w4, TimeEval compatibility mode, aeon, dtaianomaly compatibility mode": 0.6732,
    "VUS-PR w4, TimeEval compatibility mode curves summed step-wise": 0.5133,
    "VUS-PR w4, TimeEval default, dtaianomaly default": 0.7283,
    # score_input(), VUS-PR with each package's default window
    "VUS-PR default, TSB-AD (slidingWindow 100)": 0.9490,
    "VUS-PR default, aeon (max_buffer_size 500)": 0.9721,
    "VUS-PR default, dtaianomaly and TimeEval (max_buffer_size 500, linear slopes)": 0.9715,
}


def _v(key: str) -> str:
    return f"{VALUES[key]:.4f}"


class CrossEntry(NamedTuple):
    """One hand-traced disagreement: rows (with their environment), input, values, cause, tests."""

    title: str
    rows: tuple[str, ...]
    input: str
    values: tuple[str, ...]
    cause: str
    tests: tuple[str, ...]


_MAIN = "tests/test_disagreement_causes.py"
_MODERN = "tests/test_disagreement_causes_modern.py"

ENTRIES: tuple[CrossEntry, ...] = (
    CrossEntry(
        "aeon's range precision/recall against prts on constant predictions",
        ("prts:ts_precision/ts_recall[flat,reciprocal] (main)", "aeon:range_precision/range_recall[flat,reciprocal] (modern)"),
        "20 points, y_true [2, 6); the all-ones prediction and the empty one (what the constant detector's c2 and "
        "c1 predict). "
        "Setting: precision alpha 0, recall alpha 0.5, flat bias, reciprocal cardinality.",
        (f"all-ones: prts P {_v('prts all-ones precision')}, R {_v('prts all-ones recall')} (by hand: the one predicted "
         "range covers the event's 4 of its 20 points, so P = 4/20; R = 0.5 existence + 0.5 x 4/4; oipr-bench's RP/RR "
         f"with flat recall bias gives the same); aeon P {_v('aeon all-ones precision')}, R {_v('aeon all-ones recall')}",
         f"empty: prts raises AssertionError; aeon P {_v('aeon empty precision')}, R {_v('aeon empty recall')}"),
        "aeon's `range_precision` and `range_recall` (aeon/benchmarking/metrics/anomaly_detection/_range_metrics.py) "
        "return 0.0 with the warning \"Cannot compute metric for a constant value in y_score\" whenever "
        "`np.unique(y_pred)` has one value, before any range is formed: a guard meant for constant scores, applied "
        "to 0/1 predictions. prts' `TimeSeriesMetric._prepare_data` (prts/base/time_series_metrics.py) asserts that "
        "the prediction's values are {0, 1} or {1}, so the empty prediction raises AssertionError, and scores the "
        "all-ones prediction as one range. On the dataset's other 23 cases both equal oipr-bench's RP/RR in the same "
        "setting (so each other). prts "
        "follows Tatbul et al. (an all-ones prediction has a defined range precision); aeon's 0.0 is a convention.",
        (f"{_MAIN}::test_prts_on_constant_predictions", f"{_MODERN}::test_aeon_range_pr_on_constant_predictions"),
    ),
    CrossEntry(
        "aeon's range_pr_auc_score is TimeEval's RangePrAUC in compatibility mode",
        ("TimeEval:RangePrAUC (main)", "TimeEval:RangePrAUC[compatibility_mode] (main)", "aeon:range_pr_auc_score (modern)"),
        "score_input(): 40 points, y_true [10, 16), scores 0.1 with 0.9 on [12, 18) and 0.5 on [30, 32); "
        "buffer_size None (the median event length, 6).",
        (f"aeon {_v('range PR AUC, aeon')}; TimeEval with compatibility_mode=True {_v('range PR AUC, TimeEval compatibility mode')}; "
         f"TimeEval default (compatibility_mode=False) {_v('range PR AUC, TimeEval default')}; oipr-bench's "
         "`get('R-AUC-PR', sliding_window=6, definition='timeeval-compat')` and `definition='timeeval'` give the same two",),
        "aeon's `_extend_anomaly_labels` and `_uniform_threshold_sampling` "
        "(aeon/benchmarking/metrics/anomaly_detection/_vus_metrics.py) carry only the compatibility branch of "
        "TimeEval's `RangeAucMetric._extend_anomaly_labels` / `_uniform_threshold_sampling` "
        "(timeeval/metrics/vus_metrics.py): sqrt slopes added and clipped at 1, the slope after an event starting "
        "on its last point (one point shorter than the one before it), events re-read from the sloped labels. "
        "TimeEval's default instead uses linear slopes from 1/sqrt(2) to 1 (the maximum where two overlap) and every "
        "event as its own existence window. Both integrate the same trapezoid (`range_pr_roc_auc_support`); their "
        "threshold counts (always 250 in aeon, min(250, length) in TimeEval's default) sample the same set of "
        "scores, since 250 positions spread over fewer points hit every one. A default, not a bug: aeon matches TimeEval only "
        "with compatibility_mode=True.",
        (f"{_MAIN}::test_timeeval_range_pr_auc_modes", f"{_MODERN}::test_aeon_range_pr_auc_is_timeeval_compatibility_mode"),
    ),
    CrossEntry(
        "dtaianomaly's range AUC scores a constant score where TimeEval and aeon return 0.0",
        ("TimeEval:RangePrAUC[compatibility_mode] (main)", "aeon:range_pr_auc_score (modern)",
         "dtaianomaly:RangeAreaUnderPR[compatibility_mode] (modern)"),
        "score_input()'s y_true with the constant score 0 (the constant detector); also the dataset's "
        "constant_detector/c1.",
        (f"score_input(): dtaianomaly {_v('constant, dtaianomaly compatibility mode')} in compatibility mode "
         f"({_v('constant, dtaianomaly default')} by default); TimeEval {_v('constant, TimeEval')}; aeon {_v('constant, aeon')}. "
         "By hand: (1 + m/40)/2 with the slope mass m = 6 + sqrt(1/2) + 2 sqrt(4/6) + 2 sqrt(5/6)",
         f"constant_detector/c1: dtaianomaly {_v('constant_detector/c1, dtaianomaly compatibility mode')}, "
         f"TimeEval {_v('constant_detector/c1, TimeEval compatibility mode')}",
         f"on the non-constant scores dtaianomaly equals TimeEval in both modes ({_v('range PR AUC, dtaianomaly compatibility mode')} "
         "in compatibility mode)"),
        "TimeEval's `Metric.__call__` (timeeval/metrics/metric.py) returns 0.0 with a warning for any constant "
        "y_score before calling `score`, and aeon's `range_pr_auc_score` has the same guard. dtaianomaly's "
        "`Metric.compute` (dtaianomaly/evaluation/_Metric.py) checks only types, shapes and 0/1 labels, then "
        "`RangeAreaUnderPR._compute` runs TimeEval's procedure (`RangeAucMetric._range_pr_roc_auc_support` and the "
        "numba-compiled `_range_pr_roc_auc_support_numbafied`, dtaianomaly/evaluation/_volume_under_surface_metrics.py). "
        "With every threshold equal to the constant, every point is predicted: recall 1 at precision m/T, and the "
        "trapezoid from (recall 0, precision 1) gives (1 + m/T)/2. TimeEval's own `score`, called past its guard, "
        "gives dtaianomaly's number. A constant score is a degenerate input: dtaianomaly gives what the procedure "
        "computes for it, TimeEval and aeon answer it by a convention (0.0).",
        (f"{_MAIN}::test_timeeval_constant_score_guard", f"{_MODERN}::test_dtaianomaly_range_auc_on_a_constant_score"),
    ),
    CrossEntry(
        "VUS: aeon and dtaianomaly against TSB-AD, vus and TimeEval",
        ("TSB-AD:VUS-PR, vus:VUS-PR (main)", "TimeEval:RangePrVUS and [compatibility_mode] (main)",
         "aeon:range_pr_vus_score (modern)", "dtaianomaly:VolumeUnderPR and [compatibility_mode] (modern)"),
        "score_input() (40 points, y_true [10, 16), the scores above).",
        (f"window (buffer) 4 in every package: TSB-AD = vus {_v('VUS-PR w4, TSB-AD and vus')}; aeon = dtaianomaly "
         f"compatibility mode = TimeEval compatibility mode {_v('VUS-PR w4, TimeEval compatibility mode, aeon, dtaianomaly compatibility mode')}; "
         f"dtaianomaly default = TimeEval default {_v('VUS-PR w4, TimeEval default, dtaianomaly default')}; TimeEval's "
         f"compatibility-mode curves summed step-wise {_v('VUS-PR w4, TimeEval compatibility mode curves summed step-wise')}",
         f"each package's default window: TSB-AD `get_metrics` (slidingWindow 100) {_v('VUS-PR default, TSB-AD (slidingWindow 100)')}; "
         f"aeon (max_buffer_size 500) {_v('VUS-PR default, aeon (max_buffer_size 500)')}; dtaianomaly and TimeEval "
         f"(max_buffer_size 500, compatibility_mode False) {_v('VUS-PR default, dtaianomaly and TimeEval (max_buffer_size 500, linear slopes)')}"),
        "aeon's `range_pr_vus_score` (_vus_metrics.py) and dtaianomaly's `VolumeUnderPR._compute` "
        "(_volume_under_surface_metrics.py) are TimeEval's `RangePrVUS.score` (the mean of the range PR AUC over buffer "
        "sizes 0 .. max_buffer_size, each extending events by buffer // 2 points per side): aeon in compatibility mode "
        "only, dtaianomaly with both modes, both with max_buffer_size 500 by default where TSB-AD's `get_metrics` "
        "(TSB_AD/evaluation/metrics.py) passes slidingWindow 100 to `generate_curve`. Against TSB-AD's and vus' "
        "`RangeAUC_volume_opt` (TSB_AD/evaluation/basic_metrics.py, vus/utils/metrics.py), at the same window, they "
        "differ in: the PR area (trapezoids from (recall 0, precision 1), against a step sum); the recall denominator "
        "((P + the whole sloped-label mass) / 2, against (2P + the predicted slope mass) / 2 at each threshold, P the "
        "event points); the existence windows (runs of non-zero sloped labels in compatibility mode, each event by "
        "default, against events merged with their margins); the slopes (the original sqrt shape with the one after "
        "an event a point shorter in compatibility mode, linear and symmetric by default). The thresholds sample the "
        "same scores in all of them. On this input the step sum alone moves TimeEval's "
        f"compatibility mode from {_v('VUS-PR w4, TimeEval compatibility mode, aeon, dtaianomaly compatibility mode')} to "
        f"{_v('VUS-PR w4, TimeEval compatibility mode curves summed step-wise')}, below TSB-AD's {_v('VUS-PR w4, TSB-AD and vus')}, "
        "so the other differences weigh about as much as the area formula. vus (Paparrizos et al.'s code) is the "
        "reference; aeon's and dtaianomaly's are TimeEval's re-implementation, with its defaults.",
        (f"{_MAIN}::test_vus_pr_window_4_main_packages", f"{_MAIN}::test_vus_pr_default_windows_main_packages",
         f"{_MODERN}::test_vus_pr_window_4_modern_packages", f"{_MODERN}::test_vus_pr_default_windows_modern_packages"),
    ),
)


def render_cross_env(entries: tuple[CrossEntry, ...] = ENTRIES) -> list[str]:
    """The Markdown lines of the hand-traced cross-environment section of ``DISAGREEMENTS.md``."""
    out = ["## Across the two environments (traced by hand)", "",
           "The study above runs in one environment; the rows below live in two (`main`: numpy 1.26, `modern`: "
           "numpy 2), so each entry was traced by hand in both packages' installed source and is recomputed by the "
           "tests named, which CI runs in each environment.", ""]
    for e in entries:
        out += [f"### {e.title}", "", "- Rows: " + "; ".join(f"`{r}`" for r in e.rows), f"- Input: {e.input}", "- Values:"]
        out += [f"  - {v}" for v in e.values]
        out += [f"- Cause: {e.cause}", "- Reproduced by: " + ", ".join(f"`{t}`" for t in e.tests), ""]
    return out
