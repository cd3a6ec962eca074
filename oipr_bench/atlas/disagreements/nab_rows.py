"""The atlas's two NAB-score rows against oipr-bench's NAB evaluator, traced by hand in the packages' source.

The atlas has two third-party NAB scores, TSADmetrics' ``nab_score`` and salesforce-merlion's
``nab_score`` under NAB's three profiles (both in the ``main`` environment).  Neither is in a
study group (:mod:`oipr_bench.atlas.disagreements.groups`: those compare members on [0, 1] and
NAB's score is a percentage open below), so each is compared here with
``evaluators.get("NAB", probation_percent=0)`` (both packages score every row: no probationary
period) on small fixed inputs (:func:`window_input`, :func:`one_row_window_input`,
:func:`no_window_input`), on the dataset's 25 cases and on generated pairs; the causes were traced
in each package's installed source.  tests/test_disagreement_causes.py recomputes every value below
with the packages (main env; CI runs it there) and with oipr-bench's evaluator, and checks that a
model holding only the traced causes equals each package on every generated pair.  The report
renders the section from here (:func:`render_nab_rows`), so text and tests share one number.
"""

from __future__ import annotations

import numpy as np

from .cross_env import CrossEntry

__all__ = ["NAB_ENTRIES", "NAB_VALUES", "GENERATED", "window_input", "one_row_window_input", "no_window_input",
           "render_nab_rows"]


def _series(length: int, rows: list[int] | range) -> np.ndarray:
    y = np.zeros(length, np.int64)
    y[list(rows)] = 1
    return y


def window_input() -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """20 points, one window [5, 10); a detection on its first row, alone or with one false positive.

    ``first``: row 5 only; ``after``: rows 5 and 10 (a false positive on the row after the window);
    ``before``: rows 4 and 5 (one on the row before it); ``late``: rows 5 and 19 (one on the last row).
    """
    y_true = _series(20, range(5, 10))
    return {name: (y_true, _series(20, rows)) for name, rows in
            (("first", [5]), ("after", [5, 10]), ("before", [4, 5]), ("late", [5, 19]))}


def one_row_window_input() -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """10 points, one one-row window [2, 3), detected, and a false positive ``d`` rows after it (d = 1, 2, 3)."""
    y_true = _series(10, [2])
    return {d: (y_true, _series(10, [2, 2 + d])) for d in (1, 2, 3)}


def no_window_input() -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """10 points without a window: the empty prediction, and one detection on row 3."""
    y_true = np.zeros(10, np.int64)
    return {"empty": (y_true, np.zeros(10, np.int64)), "one": (y_true, _series(10, [3]))}


#: Every number the entries state, by (row, input).  oipr-bench's NAB is ``NAB(probation_percent=0)``.
NAB_VALUES: dict[str, float] = {
    "window first, oipr-bench and TSADmetrics": 100.0,
    "window first, merlion": 2 / (2 + 1e-8),
    "window after, oipr-bench and TSADmetrics": 96.9497,
    "window after, merlion": 0.9450,
    "window before, oipr-bench and TSADmetrics": 94.5,
    "window before, merlion": 0.9742,
    "window late, oipr-bench and TSADmetrics": 94.5000,
    "window late, merlion": 0.9863,
    "one-row d1, oipr-bench": 94.5,
    "one-row d1, TSADmetrics": 94.5736,
    "one-row d2, TSADmetrics": 94.5005,
    "no window, one detection, merlion": -10495622.19,
}

#: The comparison on generated pairs: the first ``pairs_per_family`` pairs (seed 0) of each short family of
#: :mod:`oipr_bench.testing.families`, and on how many each package differs from oipr-bench's NAB (merlion x 100;
#: 1e-7 relative).  tests/test_disagreement_causes.py recomputes the counts.
GENERATED: dict[str, object] = {
    "families": ("random_density", "close_events", "k_boundary", "boundary_events", "one_point_events",
                 "no_anomaly", "constant_predictions", "percent_boundary"),
    "pairs_per_family": 50,
    "TSADmetrics differs": 128,
    "merlion differs": 260,
    "cases TSADmetrics differs, default probation": ("long_anomaly_effect/c3", "constant_detector/c2",
                                                     "random_detector/c1", "random_detector/c2"),
    "cases merlion differs": 13,
}


def _v(key: str, digits: int = 4) -> str:
    return f"{NAB_VALUES[key]:.{digits}f}"


_TESTS = "tests/test_disagreement_causes.py"
_PAIRS = len(GENERATED["families"]) * GENERATED["pairs_per_family"]  # type: ignore[arg-type]

NAB_ENTRIES: tuple[CrossEntry, ...] = (
    CrossEntry(
        "TSADmetrics' NAB score against oipr-bench's NAB",
        ("TSADmetrics:nab_score (main)", "oipr-bench NAB(probation_percent=0)"),
        "one_row_window_input(): 10 points, a one-row window [2, 3) detected on its row and a false positive d rows "
        "after it; no_window_input(): 10 points without a window, the empty prediction; the dataset's 25 cases; "
        f"the first {GENERATED['pairs_per_family']} pairs (seed 0) of each of the {len(GENERATED['families'])} short "
        "differential families.",
        (f"one-row window, d = 1: oipr-bench {_v('one-row d1, oipr-bench')}, TSADmetrics {_v('one-row d1, TSADmetrics')}; "
         f"d = 2: TSADmetrics {_v('one-row d2, TSADmetrics')}; from d = 4 on both charge the full fpWeight",
         "no window, empty prediction: oipr-bench NaN, TSADmetrics 0.0; no window, one detection: both NaN",
         "the 25 cases: equal on all 25 with probation_percent=0; with oipr-bench's default 0.15 they differ on "
         + ", ".join(GENERATED["cases TSADmetrics differs, default probation"]),  # type: ignore[arg-type]
         f"generated pairs: TSADmetrics differs on {GENERATED['TSADmetrics differs']} of {_PAIRS}; NAB(probation_percent=0) "
         "with only the two conventions below equals it on all of them"),
        "TSADmetrics' `NabScore._compute` (tsadmetrics/metrics/tem/dpm/NabScore.py) runs a copy of NAB's sweeper "
        "(`Sweeper.calcSweepScore`, `calculate_scores`, tsadmetrics/utils/functions_nabscore.py) with the probation "
        "set to 0 and NAB's standard costs, the windows being the labelled runs themselves; the raw score is "
        "normalised against the empty and the labels-as-prediction scores, which are NAB's null and perfect. Two "
        "conventions differ. (1) After a one-row window NAB's `sweeper.py` divides by the window's width minus one, "
        "zero (ZeroDivisionError); oipr-bench takes the formula's limit, the full -fpWeight "
        "(docs/evaluators.md); TSADmetrics raises that width from 1 to 2 first, so a false positive d rows after "
        "such a window weighs sigma(d) x fpWeight, sigma(1) = -0.98661, and reaches the full -fpWeight only beyond "
        "3 rows, where the sigmoid is clipped. (2) `_compute` returns 0 for an empty prediction before it looks at "
        "the labels, so a series without a window scores 0 with no detection and NaN with one; NAB has no "
        "normalised score there (null = perfect = 0) and oipr-bench returns NaN for both. It also returns 0 for "
        "any exception raised while scoring, which would hide an error as a score (not reached on these inputs). "
        "Its probation of 0 is a parameter, not a disagreement: oipr-bench's `probation_percent=0` is the same "
        "setting. Verdict: NAB's score, with its own answers where NAB's code has none.",
        (f"{_TESTS}::test_tsadmetrics_nab_after_a_one_row_window_and_without_windows",
         f"{_TESTS}::test_tsadmetrics_nab_equals_ours_without_probation_on_the_cases",
         f"{_TESTS}::test_nab_rows_differ_only_by_the_traced_causes_on_generated_pairs"),
    ),
    CrossEntry(
        "merlion's NAB score against oipr-bench's NAB",
        ("salesforce-merlion:nab_score[standard] (main)", "salesforce-merlion:nab_score[reward_low_fp] (main)",
         "salesforce-merlion:nab_score[reward_low_fn] (main)", "oipr-bench NAB(probation_percent=0)"),
        "window_input(): 20 points, one window [5, 10) detected on its first row, alone (first) or with one false "
        "positive on row 10 (after), row 4 (before) or row 19 (late); no_window_input(); the dataset's 25 cases; "
        "the generated pairs above.",
        (f"first: oipr-bench and TSADmetrics {_v('window first, oipr-bench and TSADmetrics', 1)}, merlion "
         f"{_v('window first, merlion', 9)} (2 / (2 + 1e-8))",
         f"after: oipr-bench {_v('window after, oipr-bench and TSADmetrics')}, merlion {_v('window after, merlion')}; "
         f"before: {_v('window before, oipr-bench and TSADmetrics')} against {_v('window before, merlion')}; "
         f"late: {_v('window late, oipr-bench and TSADmetrics')} against {_v('window late, merlion')}",
         "no window: empty prediction oipr-bench NaN, merlion 0.0; one detection on row 3: oipr-bench NaN, merlion "
         f"{NAB_VALUES['no window, one detection, merlion']:.2f}",
         f"the 25 cases: merlion x 100 equals oipr-bench on the {25 - GENERATED['cases merlion differs']} without a "  # type: ignore[operator]
         f"false positive (to 1e-5) and differs on the other {GENERATED['cases merlion differs']}; generated pairs: differs on {GENERATED['merlion differs']} "
         f"of {_PAIRS}, and a model with only the causes below equals merlion on all of them"),
        "merlion's `accumulate_tsad_score` and `TSADScoreAccumulator.nab_score` (merlion/evaluate/anomaly.py) are "
        "its own scorer after Lavin & Ahmad's paper, not NAB's code. (1) The score is a fraction, not a "
        "percentage, and 1e-8 is added to the denominator. (2) A detected window earns tanh(2.5 (1 - x)) / "
        "tanh(2.5) for the relative position x of its first detection in the window: the same function as NAB's "
        "scaled sigmoid of the position (sigma(y) = -tanh(5y/2)), so without false positives merlion x 100 is "
        "NAB's score with no probation. (3) Each false positive costs fpWeight times that same falling function "
        "of its relative position in the stretch of normal rows holding it (from the series start or a window's "
        "end to the next window or the series end): the full fpWeight on the stretch's first row, almost nothing "
        "on its last. NAB charges the full fpWeight anywhere before the first window and, after a window, a cost "
        "that grows with the distance past the window's last row in units of its width (small just after it, "
        "the full weight three widths on). So merlion charges most a false positive right after a window and "
        "least one just before the next window or at the series end, the reverse of NAB after a window; its own "
        "comment there says later false positives should cost more, while the weight it applies falls. (4) No "
        "probation, and without a window null = perfect = 0, so the score is minus the false positives' cost "
        "divided by 1e-8. Verdict: a different recency weighting of false positives and another scale, not NAB's "
        "score; it agrees with NAB only where there is no false positive.",
        (f"{_TESTS}::test_merlion_nab_false_positive_weights_and_scale",
         f"{_TESTS}::test_nab_rows_differ_only_by_the_traced_causes_on_generated_pairs"),
    ),
)


def render_nab_rows(entries: tuple[CrossEntry, ...] = NAB_ENTRIES) -> list[str]:
    """The Markdown lines of the NAB section of ``DISAGREEMENTS.md``."""
    out = ["## The NAB score rows against oipr-bench's NAB (traced by hand)", "",
           "NAB's score is a percentage open below, so its rows are not in a study group (those compare on [0, 1]); "
           "each is compared with oipr-bench's `NAB` evaluator (docs/evaluators.md, exact to NAB's scorer) with "
           "`probation_percent=0`, as both packages score every row. Each entry was traced by hand in the package's "
           "installed source and is recomputed by the tests named, which CI runs in the main environment.", ""]
    for e in entries:
        out += [f"### {e.title}", "", "- Rows: " + "; ".join(f"`{r}`" for r in e.rows), f"- Input: {e.input}", "- Values:"]
        out += [f"  - {v}" for v in e.values]
        out += [f"- Cause: {e.cause}", "- Reproduced by: " + ", ".join(f"`{t}`" for t in e.tests), ""]
    return out
