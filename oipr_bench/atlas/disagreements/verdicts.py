"""The verdicts of DISAGREEMENTS.md: which implementation follows the metric's paper, and why they differ.

Written by reading the papers and the packages' sources against the measured
disagreements (the numbers themselves are computed, see
:mod:`oipr_bench.atlas.disagreements.study`).
"""

from __future__ import annotations

__all__ = ["INTRO", "VERDICTS", "VUS_WINDOW", "VUS_PR_TP_POSITIONS", "VUS_ROC_TP_POSITIONS"]

#: The VUS groups' aligned window (buffer), as :mod:`.groups` sets it.
VUS_WINDOW = 4
#: VUS-PR on tp_positions/c1 at window 4 (4 decimals), recomputed with each package by
#: tests/test_disagreement_causes.py: TimeEval's RangePrVUS, its own curves (from
#: ``RangeAucMetric._range_pr_roc_auc_support``) summed step-wise as vus does, and vus.
VUS_PR_TP_POSITIONS = {"TimeEval": 0.5918, "TimeEval, step-wise": 0.1836,
                       "TimeEval compatibility mode": 0.5909, "TimeEval compatibility mode, step-wise": 0.1818,
                       "vus": 0.1843}
#: VUS-ROC on tp_positions/c1 at window 4 (TSB-AD/vus and TimeEval's default), recomputed by the same file.
VUS_ROC_TP_POSITIONS = {"TimeEval": 0.5181, "vus": 0.5184}
_VP, _VR = VUS_PR_TP_POSITIONS, VUS_ROC_TP_POSITIONS

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
    "TSB-AD Standard-F1 crashes (IndexError) only when the labels and the prediction together hold one class "
    "(no anomaly and no prediction, or an all-anomaly series predicted everywhere): basic_metricor.metric_PointF1 "
    "(TSB_AD/evaluation/basic_metrics.py) returns F[1] of scikit-learn's precision_recall_fscore_support, called "
    "without labels=, which has one entry per class present in either array; with no anomaly and the prediction "
    "[3, 5) of 20 points it returns 0.0, as PW. TimeEval's metrics return 0.0 for any constant prediction (its Metric.__call__ refuses a "
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
    "disagrees even aligned and crashes where prts does: it calls prts' ts_fscore with r_bias=self._p_bias "
    "(timeeval/metrics/range_metrics.py), so recall gets the precision's positional bias, flat here instead of "
    "front. Reproduced on tp_positions/c1: TimeEval RangeFScore(r_bias=front) 0.681319, prts with r_bias=front "
    "0.694737, prts with r_bias=flat 0.681319. Ours and prts follow Tatbul et al.; with its defaults (precision alpha 0.5, flat recall bias, "
    "cardinality one) TSADmetrics rbf is a different setting, not a bug (see the atlas rows).",
    "Tatbul range-based (TSB-AD setting)": "TSB-AD's range-based P/R (Rprecision/Rrecall, inside R-based-F1) "
    "uses reciprocal cardinality: its Cardinality_factor is 1 / (the number of predicted ranges overlapping the "
    "anomaly). Set the same way (recall alpha 0.2, precision alpha 0, flat), prts gives the same precision and "
    "recall on 23 of 25 cases. The two others: the empty prediction (prts raises AssertionError, TSB-AD scores 0) "
    "and the all-ones prediction, for which TSB-AD's range_convers_new returns an empty range list (np.diff of a "
    "constant series has no edge), so its precision is 0 and its recall only the existence part, 0.2 (prts: "
    "P 0.025, R 1). The same empty list makes it score 0 wherever the prediction or the labels are 1 everywhere "
    "(the smallest differential series: one point, an anomaly, detected). A bool prediction is read differently "
    "from the same prediction as int8 because np.diff of a bool array is an exclusive or, never -1, so no range "
    "ends. prts follows the paper.",
    "TaPR": "TSADmetrics taf has the ambiguous-region sigmoid of the original TaPR (its docstring speaks of a "
    "linear decay; the code uses 1 / (1 + e^x)). It differs from the original in two conventions. It counts a "
    "detection when the overlap ratio is >= theta (the original: > theta), so at theta = 0 a prediction touching "
    "nothing counts as detected: y_true [0,1) and y_pred [11,12) of a 12-point series score 0.5 (ours 0). Its "
    "ambiguous window after an anomaly ending at e is [e+1, e+1+delta], delta + 1 points, and ends at the next "
    "anomaly's start - 1 when that comes sooner (the original: delta points, ending on the next anomaly's first "
    "point): with alpha 0, y_pred [6,7) after the anomaly [0,1) scores 1/(1+e^6) = 0.002473 (ours 0). Ours "
    "follows the original TaPR (Hwang et al., saurf4ng/TaPR), including its ambiguous region ending on the next "
    "anomaly's first point, which lets precision exceed 1 slightly when anomalies are closer than delta (see "
    "docs/deviations.md).",
    "affiliation": "Ours, TSB-AD and vus agree on all 25 cases; TSB-AD and vus (which carry the reference "
    "affiliation code) raise ValueError on a series without anomaly, where ours returns NaN. TSADmetrics "
    "aff_f returns 0.0 instead of NaN for an all-zero prediction (constant detector c1, where the paper "
    "prints NaN) and crashes on series without anomaly. Ours and the reference code follow Huet et al.",
    "VUS-PR": "TSB-AD, vus and TSADmetrics (window 4) agree on all 25 cases; TSB-AD crashes on a 1-point "
    "series and all three on series without anomaly. TimeEval's RangePrVUS (buffer 4, with or without "
    f"compatibility mode) disagrees on every case (tp_positions/c1: {_VP['TimeEval']:.4f} vs {_VP['vus']:.4f}). There the "
    "cause is the area formula: TimeEval's RangeAucMetric._range_pr_roc_auc_support (timeeval/metrics/vus_metrics.py) "
    "integrates the PR curve as trapezoids starting from (recall 0, precision 1), where vus' and TSB-AD's "
    "RangeAUC_volume_opt (vus/utils/metrics.py, TSB_AD/evaluation/basic_metrics.py) sum steps, each recall step "
    "times the precision at its end. On tp_positions/c1 (one predicted point) the trapezoid adds the triangle between "
    "precision 1 and the precision of predicting every point; TimeEval's own curves summed step-wise give "
    f"{_VP['TimeEval, step-wise']:.4f} ({_VP['TimeEval compatibility mode, step-wise']:.4f} in compatibility mode, "
    f"{_VP['TimeEval compatibility mode']:.4f} as it integrates them) against vus' {_VP['vus']:.4f}; the rest comes from "
    "its slopes (linear by default; the original sqrt shape, one point shorter after each event, in compatibility "
    "mode) and its recall denominator, (P + the whole sloped mass) / 2 instead of (2P + the predicted slope mass) / 2 "
    "(docs/evaluators.md lists the differences). On other inputs these weigh as much as the area formula (the "
    "section across the two environments below has an example, with the same procedure in aeon and dtaianomaly). vus (Paparrizos et al.'s code) is the reference.",
    "VUS-ROC": "TSB-AD, vus and TSADmetrics agree on all 25 cases, TimeEval's RangeRocVUS disagrees on every case, "
    f"by less (tp_positions/c1: {_VR['TimeEval']:.4f} vs {_VR['vus']:.4f}): the ROC area is a trapezoid sum in all of "
    "them, so only the slopes, the existence windows and the denominators differ (TimeEval builds the recall's P "
    "and the false-positive rate's N from the whole sloped mass, vus from the predicted part of it, as for VUS-PR). "
    "vus is the reference.",
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
