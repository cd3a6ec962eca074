"""The verdicts of DISAGREEMENTS.md: which implementation follows the metric's paper, and why they differ.

Written by reading the papers and the packages' sources against the measured
disagreements (the numbers themselves are computed, see
:mod:`oipr_bench.atlas.disagreements`).
"""

from __future__ import annotations

__all__ = ["INTRO", "VERDICTS"]

INTRO = [
    "Parameters are aligned first wherever a package lets them be set, so what remains is a difference "
    "of definition, convention or a bug; package defaults that differ are listed in the atlas grid "
    "(ATLAS.md) as separate rows. A member disagrees when its headline number (F1, or the score) differs "
    "from the reference's by more than 1e-9 (NaN equals NaN; a crash differs from a number).",
]

VERDICTS: dict[str, str] = {}

VERDICTS.update({
    "point-wise F1": "TSADmetrics pwf and tadpak (K = 100) agree with PW everywhere. TSADmetrics dicec scores 1 "
    "when there is no anomaly and no prediction (Dice's 0/0 convention; F1 is 0 there under zero_division=0). "
    "TSB-AD Standard-F1 crashes (IndexError) whenever one class is absent (no anomaly, or an all-anomaly "
    "series). TimeEval's metrics return 0.0 for any constant prediction (its Metric.__call__ refuses a "
    "constant score), so the all-ones detector (constant detector c2) gets F1 0 instead of 0.18: a bug for "
    "0/1 predictions. PW follows the definition.",
    "point-adjust F1": "TSADmetrics paf and tadpak (K = 0) agree with PA everywhere. TSB-AD PA-F1 differs on "
    "33 series; the smallest has the ground-truth event starting at the first point (length 8, event [0,8), "
    "prediction [4,8): 0.933 instead of 1), so its _adjust_predicts does not fully adjust such an event. PA (Xu et al.'s adjustment) is followed by ours, TSADmetrics and tadpak.",
    "PA%K": "tadpak (the paper's official code) and ours agree everywhere. TSADmetrics pakf adjusts an event "
    "when the predicted share is >= K (tadpak: > K), so an event exactly half predicted is adjusted at K = 50 %: "
    "a convention difference (102 series); tadpak follows the paper's code.",
    "Tatbul range-based (paper setting)": "prts (the reference code) and ours agree wherever prts runs; prts "
    "raises AssertionError on a prediction without any 1 and on a series without anomaly. TSADmetrics rbf, "
    "aligned, agrees on all 25 cases but crashes (IndexError) on series without anomaly. TimeEval RangeFScore "
    "disagrees on 9 cases even aligned (tp_positions/c1: 0.681 vs 0.695) and crashes where prts does; it computes through prts' "
    "ts_fscore rather than ts_precision/ts_recall, and the cause of the difference was not traced further. Ours and prts follow Tatbul et al.; with its defaults (precision alpha 0.5, flat recall bias, "
    "cardinality one) TSADmetrics rbf is a different setting, not a bug (see the atlas rows).",
    "Tatbul range-based (TSB-AD setting)": "TSB-AD's range-based F (recall alpha 0.2, flat, one) disagrees with "
    "prts/ours/TSADmetrics/TimeEval set the same way on 4 cases and 714 series: its range_recall_new does not "
    "follow Tatbul's overlap reward for fragmented predictions (fragmented_tps/c2: recall 0.378 vs 0.733). It "
    "also scores a bool prediction differently from the same prediction as int8 on 19 cases (777 series). "
    "prts follows the paper.",
    "TaPR": "TSADmetrics taf, even with theta = 0, disagrees on 16 of 25 cases: it omits the ambiguous-region "
    "sigmoid weighting of the original TaPR (its docstring: a linear decay over the tolerance window, no cardinality) and scores 0.5 "
    "where the original gives 0 (two-point series, detection one step late). Ours follows the original TaPR "
    "(Hwang et al., saurf4ng/TaPR), including its ambiguous region ending on the next anomaly's first point, "
    "which lets precision exceed 1 slightly when anomalies are closer than delta (12 differential series, by "
    "at most 0.0003 here; see docs/deviations.md).",
    "affiliation": "Ours, TSB-AD and vus agree on all 25 cases; TSB-AD and vus (which carry the reference "
    "affiliation code) raise ValueError on a series without anomaly, where ours returns NaN. TSADmetrics "
    "aff_f returns 0.0 instead of NaN for an all-zero prediction (constant detector c1, where the paper "
    "prints NaN) and crashes on series without anomaly. Ours and the reference code follow Huet et al.",
    "VUS-PR": "TSB-AD, vus and TSADmetrics (window 4) agree on all 25 cases; TSB-AD crashes on a 1-point "
    "series and all three on series without anomaly. TimeEval's RangePrVUS (buffer 4, with or without "
    "compatibility mode) disagrees on every case (tp_positions/c1: 0.592 vs 0.184): it is a "
    "re-implementation with its own buffer and threshold handling. vus (Paparrizos et al.'s code) is the reference.",
    "VUS-ROC": "As VUS-PR: TSB-AD, vus and TSADmetrics agree on all 25 cases, TimeEval's RangeRocVUS "
    "disagrees on every case. vus is the reference.",
    "PATE (binary F1)": "TSADmetrics pate_f1 agrees with the PATE package on all 25 cases and the differential.",
    "PATE (scores)": "TSADmetrics pate agrees with the PATE package on all 25 cases and the differential.",
    "AUC-PR": "Two estimators: average precision (TSB-AD, TSADmetrics, TimeEval AveragePrecision) and the "
    "trapezoidal area under the PR curve (vus, TimeEval PrAUC), which differ on almost every input "
    "(tp_positions/c1: 0.178 vs 0.589). Within each estimator they agree, except that TimeEval returns 0.0 "
    "for a constant prediction. A convention, not a bug; average precision is scikit-learn's recommended one.",
    "AUC-ROC": "TSB-AD, vus and TSADmetrics agree; TSB-AD and vus raise (scikit-learn) where only one class is "
    "present, TSADmetrics returns NaN there, and TimeEval returns 0.0 for a constant prediction (0.5 is the "
    "ROC AUC of a constant score) - a TimeEval bug for 0/1 predictions.",
    "composite F": "TSADmetrics cf and TSB-AD Event-based-F1 agree on all 25 cases; TSB-AD differs on 262 "
    "series; the smallest is a 1-point series whose anomaly is detected, scored 0: its _get_events ends an "
    "event that reaches the series end one point early. TSADmetrics follows Garg et al.",
})
