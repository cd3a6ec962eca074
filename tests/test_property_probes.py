"""A probe corpus for the metric properties: metrics whose property rows can be derived by hand.

The score metrics are written, as a user would, into a file in the current folder and audited by
name (``my_metrics.py:auc_roc``), so the whole path a user takes is exercised: resolution from the
folder, ``--input scores``, the score families' explicit float arrays, the rules.  Each row is
compared with the values derived in the comments (a property left out of a row is one whose value
follows from sampling, not from the definition; its value is still in reference_results/ for the
built-ins).

Notation: in a binary family a score metric receives 0.95 at predicted points, 0.05 at the others
and 0.0 on appended quiet padding (oipr_bench.scenarios.families).
"""

from __future__ import annotations

import pytest

import oipr_bench
from oipr_bench import vocabulary as v

MY_METRICS = '''
import numpy as np


def _mean_ranks(x):
    order = np.argsort(x, kind="stable")
    r = np.empty(len(x))
    r[order] = np.arange(1, len(x) + 1)
    _, inverse = np.unique(x, return_inverse=True)
    return np.bincount(inverse, weights=r)[inverse] / np.bincount(inverse)[inverse]


def auc_roc(y_true, y_pred):
    """Mann-Whitney AUC with mean ranks for ties."""
    y = np.asarray(y_true) == 1
    r = _mean_ranks(np.asarray(y_pred, dtype=float))
    n_pos, n_neg = y.sum(), (~y).sum()
    return float((r[y].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def average_precision(y_true, y_pred):
    """Sum over the distinct scores t of positives: (new recall at t) x (precision of s >= t)."""
    y = np.asarray(y_true) == 1
    s = np.asarray(y_pred, dtype=float)
    out = 0.0
    for t in np.unique(s[y]):
        above = s >= t
        out += (y & (s == t)).sum() / y.sum() * (y & above).sum() / above.sum()
    return float(out)


def f1_at_half(y_true, y_pred):
    """F1 of the scores thresholded at 0.5 (s > 0.5 is an alarm)."""
    y = np.asarray(y_true) == 1
    p = np.asarray(y_pred, dtype=float) > 0.5
    tp = float((y & p).sum())
    return 0.0 if tp == 0 else 2 * tp / (p.sum() + y.sum())


def pointwise_f1(y_true, y_pred):
    """The point-wise F1 as one number (0/1 predictions)."""
    tp = float(np.sum(y_true * y_pred))
    return 0.0 if tp == 0 else 2 * tp / (float(np.sum(y_pred)) + float(np.sum(y_true)))
'''

NA = v.NOT_APPLICABLE


@pytest.fixture(scope="module")
def users_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("users_folder")
    (folder / "my_metrics.py").write_text(MY_METRICS)
    return folder


def _row(folder, monkeypatch, spec: str, **kw) -> dict[str, str | None]:
    monkeypatch.chdir(folder)
    return oipr_bench.audit(spec, suite="properties", sanity=False, **kw).properties


# AUC-ROC on scores.  Binary families hold two score levels, so AUC = (TP.TN + (TP.FP + FN.TN)/2) / (P.N)
# with TP/FN the high/low positives and FP/TN the high/low negatives.
# lag l: TP = 20-|l|, FN = FP = |l|: a function of |l| that falls -> symmetric_decay.
# fp_distance: one high negative whatever its distance -> distance_blind (d = 1 merges, same counts).
# spill_over k: FP = k -> AUC = 1 - k/360, on its anchored scale (0.5 -> 0, 1 -> 1) 1 - k/180 -> penalised.  redundancy: the same 20 high
# positives for every k -> neutral.  normal_padding: appended negatives at 0.0 lie below every positive,
# raising AUC (more pairs won) -> sensitive (the "not padding-invariant").  time_reversal: counts
# per level unchanged -> neutral.  label_swap_duality needs a 0/1 prediction -> not applicable.
# concatenation: A 0.8558, B 0.6118, A+B 0.6719 (not the mean 0.7338, between) ; C 1, D 0.4853,
# C+D 0.8654 (between) -> micro.  transform_invariance: ranks only -> invariant.  ties: mean ranks give
# every tie half a win, the expectation over random tie-breaks, inside the jittered range -> tie_neutral.
# chance_ordering: oracle 1, constant exactly 0.5 (all ties), inverted 0, random around 0.5 -> ordered.
AUC_ROW = {
    v.LAG_TOLERANCE: v.SYMMETRIC_DECAY, v.FP_DISTANCE: v.DISTANCE_BLIND, v.SPILL_OVER: v.PENALISED,
    v.REDUNDANCY: v.NEUTRAL, v.NORMAL_PADDING: v.SENSITIVE, v.TIME_REVERSAL: v.NEUTRAL,
    v.LABEL_SWAP_DUALITY: NA, v.CONCATENATION: v.MICRO, v.TRANSFORM_INVARIANCE: v.INVARIANT,
    v.TIES: v.TIE_NEUTRAL, v.CHANCE_ORDERING: v.ORDERED, v.RANKING_CONSISTENCY: v.CONSISTENT,
}

# Average precision: as AUC on lag, fp_distance, spill_over, redundancy, time_reversal, label swap.
# normal_padding: padding at 0.0 is below every positive, so the precision at every positive's score is
# unchanged -> invariant.  transform_invariance: depends on the order only -> invariant.  chance_ordering:
# oracle 1; a constant score gives one threshold: precision = prevalence 55/500 = 0.11, recall 1 -> 0.11,
# the level of random scores; inverted ranks every positive last (about 0.06) -> ordered.
AP_ROW = {**AUC_ROW, v.NORMAL_PADDING: v.INVARIANT}
AP_ROW.pop(v.CONCATENATION)  # pooled precision at each threshold: derivable, but not in one line
AP_ROW.pop(v.TIES)           # AP's step interpolation of ties is not the mean over tie-breaks

# F1 of scores > 0.5: on binary families exactly the point-wise F1 of the 0/1 prediction (0.95 > 0.5 >
# 0.05, padding 0.0) -> the point-wise row below.  transform_invariance: 10x + 5 > 0.5 everywhere (all
# alarms), x^3 moves points across 0.5 -> not_invariant.  ties: plateaus 0.125 ... 0.875 and a jitter of
# at most 1e-4 never cross 0.5 -> every jittered copy scores as the plateaus -> tie_neutral.
# chance_ordering: constant 0.5 is not > 0.5 (no alarm, F1 0) and inverted puts every anomaly <= 0.5
# (F1 0): constant = inverted.  Since 0.4 a constant at or below random is the metric's answer to a
# degenerate input, evidence only; perfect 1 > random (half the points alarm: F1 ~ 2 x 0.5q/(0.5 + q))
# > inverted 0, and random lies below the middle 0.5 of inverted..perfect -> ordered.
# ranking: q = 0 separates at 0.5 exactly (F1 1).
F1_HALF_ROW = {
    v.LAG_TOLERANCE: v.SYMMETRIC_DECAY, v.FP_DISTANCE: v.DISTANCE_BLIND, v.SPILL_OVER: v.PENALISED,
    v.REDUNDANCY: v.NEUTRAL, v.NORMAL_PADDING: v.INVARIANT, v.TIME_REVERSAL: v.NEUTRAL,
    v.LABEL_SWAP_DUALITY: NA, v.CONCATENATION: v.MICRO, v.TRANSFORM_INVARIANCE: v.NOT_INVARIANT,
    v.TIES: v.TIE_NEUTRAL, v.CHANCE_ORDERING: v.ORDERED,
}

# Point-wise F1 = 2TP / (2TP + FP + FN) on 0/1 predictions.  It counts points: every distance of an FP
# costs the same (distance_blind), appended normal points and reversal change no count (invariant,
# neutral), a shift by l costs |l| FN and |l| FP on either side (symmetric_decay), k spilled points are
# k FP (penalised), split alarms keep TP (neutral).  Concatenation pools the counts: A 30/40 = 0.75,
# B 30/80 = 0.375, A+B 60/140 = 0.4286 (between, not the mean 0.5625); C 1, D 0, C+D 60/75 = 0.8 -> micro.
# One number has no precision/recall to swap, and it takes 0/1 predictions: score properties n/a.
PW_F1_ROW = {
    v.LAG_TOLERANCE: v.SYMMETRIC_DECAY, v.FP_DISTANCE: v.DISTANCE_BLIND, v.SPILL_OVER: v.PENALISED,
    v.REDUNDANCY: v.NEUTRAL, v.NORMAL_PADDING: v.INVARIANT, v.TIME_REVERSAL: v.NEUTRAL,
    v.LABEL_SWAP_DUALITY: NA, v.CONCATENATION: v.MICRO, v.RANKING_CONSISTENCY: NA, v.NOISE_ROBUSTNESS: NA,
    v.TRANSFORM_INVARIANCE: NA, v.TIES: NA, v.CHANCE_ORDERING: NA,
}


@pytest.mark.parametrize("name, row", [("auc_roc", AUC_ROW), ("average_precision", AP_ROW),
                                       ("f1_at_half", F1_HALF_ROW)])
def test_score_metrics_written_in_a_users_folder(users_folder, monkeypatch, name, row):
    got = _row(users_folder, monkeypatch, f"my_metrics.py:{name}", input="scores")
    assert {k: got[k] for k in row} == row


def test_the_three_score_metrics_split_on_the_score_properties(users_folder, monkeypatch):
    auc = _row(users_folder, monkeypatch, "my_metrics.py:auc_roc", input="scores")
    ap = _row(users_folder, monkeypatch, "my_metrics.py:average_precision", input="scores")
    f1 = _row(users_folder, monkeypatch, "my_metrics.py:f1_at_half", input="scores")
    # Transform-invariant: the two threshold-free metrics; not the fixed threshold.
    assert (auc[v.TRANSFORM_INVARIANCE], ap[v.TRANSFORM_INVARIANCE], f1[v.TRANSFORM_INVARIANCE]) == (
        v.INVARIANT, v.INVARIANT, v.NOT_INVARIANT)
    # Padding: AUC-ROC moves with the anomaly ratio, average precision does not.
    assert (auc[v.NORMAL_PADDING], ap[v.NORMAL_PADDING]) == (v.SENSITIVE, v.INVARIANT)


def test_pointwise_f1_written_in_a_users_folder(users_folder, monkeypatch):
    assert _row(users_folder, monkeypatch, "my_metrics.py:pointwise_f1") == PW_F1_ROW


def test_am_is_proximity_aware():
    # Affiliation (Huet et al. 2022): a predicted point's precision is the chance that a random point of
    # the event's zone lies farther from the event than it does, which falls with its distance
    # -> proximity_aware.
    # Redundancy: the 20 predicted points all lie inside the event [60, 140), so precision stays 1; recall
    # averages, over the event's points, the chance of being that close to the nearest alarm: one centred
    # 20-point alarm leaves points up to 30 away, ten 2-point alarms at most 3 away -> recall rises with k
    # -> rewarded.
    # Padding: one event, so its zone is the whole series; appending normal points widens the zone, and
    # the chance that a random zone point lies farther than the detection's points 60..64 (1..5 past the
    # end) grows -> precision moves -> sensitive.
    # Reversal: distances and zones (midpoints between events) are the same read backwards -> neutral.
    # Label swap: precision compares a predicted point's distance to the event with a random point's
    # distance to the event (an interval), recall compares a true point's distance to the prediction with
    # a random point's distance to that true point (a point): two different distributions, so
    # P(y, p) != R(p, y) on layout (a) -> not_dual.  Score properties: n/a (0/1 input).
    row = oipr_bench.audit("AM", suite="properties", sanity=False).properties
    assert row[v.FP_DISTANCE] == v.PROXIMITY_AWARE
    assert row[v.REDUNDANCY] == v.REWARDED and row[v.NORMAL_PADDING] == v.SENSITIVE
    assert row[v.TIME_REVERSAL] == v.NEUTRAL and row[v.LABEL_SWAP_DUALITY] == v.NOT_DUAL
    assert row[v.CHANCE_ORDERING] == NA


def test_oipr_row():
    # OIPR (paper, eqs. 5-9): P = TP area / AUC(I_pred), R = TP area / AUC(I_true), and the TP area is
    # symmetric in the two curves, so P(y, p) = R(p, y) -> dual.  Appended zeros add no interest area
    # (the observation phase already runs past the end) -> padding invariant.  The interest curve rises
    # then attenuates inside an event, so detecting an event's end is not detecting its start mirrored:
    # layout (b) differs under reversal -> direction_sensitive.  An FP merged into (d = 1) or near an
    # event shares its observation phase, a far one opens its own -> proximity_aware.
    row = oipr_bench.audit("OIPR", suite="properties", sanity=False).properties
    assert row[v.LABEL_SWAP_DUALITY] == v.DUAL and row[v.NORMAL_PADDING] == v.INVARIANT
    assert row[v.TIME_REVERSAL] == v.DIRECTION_SENSITIVE and row[v.FP_DISTANCE] == v.PROXIMITY_AWARE
