"""Controls for every rule: each characteristic and each metric property has a positive control
(a small metric written here that must show it) and a negative control (one that must not).

Every expected value is derived by hand in the comment beside it, from the case layouts of
docs/dataset.md (Table 5) and the property families (docs/properties.md).  Controls run through the
real audit session, so the anchors, the chance draws and the determinism check are part of what
they test.  The score-metric tests at the end pin the issue's constraints: two metrics equal
everywhere except on constant inputs get the same verdicts, a saturated case is ``undetermined``,
and a non-deterministic evaluator passes no declared expectation.
"""

from __future__ import annotations

import numpy as np
import pytest

import oipr_bench
from oipr_bench import vocabulary as v
from oipr_bench.auditing.calling.resolve import resolve
from oipr_bench.auditing.options import AuditOptions, declared_expectations
from oipr_bench.auditing.profile.profiles import AuditSession
from oipr_bench.auditing.properties.rules import NOISE_TOLERANCE, RANK_RHO

# -- small metrics -------------------------------------------------------------------------------------


def _events(x: np.ndarray) -> list[tuple[int, int]]:
    d = np.diff(np.r_[0, (np.asarray(x) > 0.5).astype(int), 0])
    return list(zip(np.flatnonzero(d == 1).tolist(), np.flatnonzero(d == -1).tolist()))


def _div(a: float, b: float) -> float:
    return float(a) / float(b) if b else 0.0


def pw(t, p):
    """Point-wise precision and recall."""
    t, p = np.asarray(t) == 1, np.asarray(p) == 1
    tp = (t & p).sum()
    return _div(tp, p.sum()), _div(tp, t.sum())


def point_adjusted(t, p):
    """PA: a true event with any detected point counts as wholly detected."""
    t, p = np.asarray(t) == 1, (np.asarray(p) == 1).copy()
    for a, b in _events(t):
        if p[a:b].any():
            p[a:b] = True
    tp = (t & p).sum()
    return _div(tp, p.sum()), _div(tp, t.sum())


def event_recall(t, p):
    """Point-wise precision, recall = share of true events hit."""
    tt, pp = np.asarray(t) == 1, np.asarray(p) == 1
    ev = _events(tt)
    return _div((tt & pp).sum(), pp.sum()), _div(sum(pp[a:b].any() for a, b in ev), len(ev))


def segment_precision(t, p):
    """Precision = share of predicted segments touching a true event; point-wise recall."""
    tt, pp = np.asarray(t) == 1, np.asarray(p) == 1
    segs = _events(pp)
    return _div(sum(tt[a:b].any() for a, b in segs), len(segs)), _div((tt & pp).sum(), tt.sum())


def merged_segment_precision(t, p):
    """As segment_precision, after merging predicted segments separated by at most 2 normal points."""
    tt, pp = np.asarray(t) == 1, (np.asarray(p) == 1).copy()
    segs = _events(pp)
    for (a, b), (c, _) in zip(segs, segs[1:]):
        if c - b <= 2:
            pp[b:c] = True
    return segment_precision(tt.astype(int), pp.astype(int))[0], _div((tt & (np.asarray(p) == 1)).sum(), tt.sum())


def alarm_precision(t, p):
    """Precision = true events hit per predicted segment (redundant alarms cost); point-wise recall."""
    tt, pp = np.asarray(t) == 1, np.asarray(p) == 1
    hit = sum(pp[a:b].any() for a, b in _events(tt))
    return min(1.0, _div(hit, len(_events(pp)))), _div((tt & pp).sum(), tt.sum())


def _near(x: np.ndarray, w: int, before: int | None = None) -> np.ndarray:
    """Points within ``w`` of a 1 in ``x`` (``before``: only within that many points before it)."""
    out = np.zeros(x.size, bool)
    for a, b in _events(x):
        out[max(0, a - (w if before is None else before)):b + (w if before is None else 0)] = True
    return out


def tolerant(t, p):
    """Precision: predicted points within 3 of an event; recall: true points within 3 of a predicted one."""
    tt, pp = np.asarray(t) == 1, np.asarray(p) == 1
    return _div((pp & _near(tt, 3)).sum(), pp.sum()), _div((tt & _near(pp, 3)).sum(), tt.sum())


def early_forgiving(t, p):
    """Predicted points up to 12 before an event count as true positives; point-wise recall."""
    tt, pp = np.asarray(t) == 1, np.asarray(p) == 1
    return _div((pp & _near(tt, 0, before=12)).sum(), pp.sum()), _div((tt & pp).sum(), tt.sum())


def near_forgiving(t, p):
    """Predicted points within 10 of an event count as true positives; point-wise recall."""
    tt, pp = np.asarray(t) == 1, np.asarray(p) == 1
    return _div((pp & _near(tt, 10)).sum(), pp.sum()), _div((tt & pp).sum(), tt.sum())


def earliness(t, p):
    """Mean over true events of 1 - (offset of the first detected point) / length; 0 for a missed event."""
    tt, pp = np.asarray(t) == 1, np.asarray(p) == 1
    ev = _events(tt)
    vals = [1.0 - int(np.argmax(pp[a:b])) / (b - a) if pp[a:b].any() else 0.0 for a, b in ev]
    return float(np.mean(vals)) if vals else 0.0


def recall_only(t, p):
    """Point-wise recall as one number."""
    return pw(t, p)[1]


def pays_per_flag(t, p):
    """0.9 x point-wise recall plus 0.1 x the share of flagged points: every flag helps."""
    return 0.9 * pw(t, p)[1] + 0.1 * float(np.mean(np.asarray(p) == 1))


def accuracy(t, p):
    """(TP + TN) / n."""
    return float(np.mean((np.asarray(t) == 1) == (np.asarray(p) == 1)))


def tp_count(t, p):
    """The number of true-positive points (unbounded)."""
    return float(((np.asarray(t) == 1) & (np.asarray(p) == 1)).sum())


def _ranks(x: np.ndarray) -> np.ndarray:
    order = np.argsort(x, kind="stable")
    r = np.empty(x.size)
    r[order] = np.arange(1, x.size + 1)
    _, inv = np.unique(x, return_inverse=True)
    return np.bincount(inv, weights=r)[inv] / np.bincount(inv)[inv]


def auc(t, s):
    """AUC-ROC (Mann-Whitney, tied scores share their mean rank: a constant score gives 0.5)."""
    t, s = np.asarray(t) == 1, np.asarray(s, float)
    n1, n0 = int(t.sum()), int((~t).sum())
    if n1 == 0 or n0 == 0:
        return 0.5
    return float((_ranks(s)[t].sum() - n1 * (n1 + 1) / 2) / (n1 * n0))


def auc_zero_on_constant(t, s):
    """As auc, but any constant score gives 0.0 (TimeEval's convention)."""
    return 0.0 if np.ptp(np.asarray(s, float)) == 0 else auc(t, s)


def auc_one_on_constant(t, s):
    """As auc, but any constant score gives 1.0 (a convention that overrates constants)."""
    return 1.0 if np.ptp(np.asarray(s, float)) == 0 else auc(t, s)


def auc_optimistic_ties(t, s):
    """AUC-ROC with ties broken in the detector's favour (anomalies ranked above tied normals)."""
    t, s = np.asarray(t) == 1, np.asarray(s, float)
    order = np.lexsort((t, s))
    r = np.empty(s.size)
    r[order] = np.arange(1, s.size + 1)
    n1, n0 = int(t.sum()), int((~t).sum())
    return float((r[t].sum() - n1 * (n1 + 1) / 2) / (n1 * n0))


def pa_auc(t, s):
    """Point-adjusted AUC-ROC: every point of a true event takes the event's highest score."""
    t, s = np.asarray(t), np.asarray(s, float).copy()
    for a, b in _events(t):
        s[a:b] = s[a:b].max()
    return auc(t, s)


def peaked_auc(t, s):
    """1 - |AUC - 0.9|: rises with AUC up to 0.9, then falls (a loose ranking)."""
    return 1.0 - abs(auc(t, s) - 0.9)


def threshold_f1(t, s):
    """Precision and recall at the fixed threshold 0.5."""
    return pw(t, (np.asarray(s, float) >= 0.5).astype(int))


def top_k_precision(t, s):
    """R-precision: the share of anomalies among the k highest scores (k = number of anomalies)."""
    t, s = np.asarray(t) == 1, np.asarray(s, float)
    k = int(t.sum())
    return float(t[np.argsort(-s, kind="stable")[:k]].mean()) if k else 0.0


def saturated_auc(t, s):
    """0.99 + 0.01 x AUC-ROC: every input scores within 0.01 of perfect."""
    return 0.99 + 0.01 * auc(t, s)


# -- running them ----------------------------------------------------------------------------------------

_SESSIONS: dict[tuple, AuditSession] = {}


def _session(fn, **options) -> AuditSession:
    key = (fn, tuple(sorted(options.items())))
    if key not in _SESSIONS:
        _SESSIONS[key] = AuditSession(resolve(fn), AuditOptions(sanity=False, random_runs=20, **options))
    return _SESSIONS[key]


def characteristic(fn, name: str, **options) -> str | None:
    return _session(fn, **options).characteristic_result(name).observed


def prop(fn, name: str, **options) -> str | None:
    return _session(fn, **options).property_result(name).observed


def teardown_module() -> None:
    for s in _SESSIONS.values():
        s.close()


SCORES = {"input_kind": "scores"}

# -- Table 5: one positive and one negative control per characteristic ----------------------------------
# (metric, characteristic, value it must show, must it show it)

TABLE5_CONTROLS = [
    # overlap_proportion c1 detects 1 point of the 50-point event [200, 250).  PA: the event is wholly
    # detected, P = R = 1, F1 1.0 > PW's 2*1/51 = 0.0392 -> yes.  PW itself: equal to PW -> no.
    (point_adjusted, v.EXISTENCE_DETECTION_REWARD, v.YES, True),
    (pw, v.EXISTENCE_DETECTION_REWARD, v.YES, False),
    # PW on c1..c4 (1, 10, 26, 50 of 50 points, no FP): F1 = 2r/(1+r) with r = 0.02, 0.2, 0.52, 1 -> strictly
    # rising -> yes.  PA: 1.0 on every case (the event is hit) -> no.
    (pw, v.OVERLAP_PROPORTION_AWARENESS, v.YES, True),
    (point_adjusted, v.OVERLAP_PROPORTION_AWARENESS, v.YES, False),
    # fragmented_fps: event [100, 120) detected, plus 10 FP points every 30 (c1), every 2 (c2), 20 in a row
    # (c3).  Merging gaps <= 2: c1 has 11 segments (P = 1/11), c2 and c3 two (P = 1/2); R = 1:
    # F1 0.1667 vs 0.6667, 0.6667 -> c1 <= 0.75 x 0.6667 -> yes.  PW: P = 20/30 on c1 and c2 -> equal -> no.
    (merged_segment_precision, v.FRAGMENTS_MERGING, v.YES, True),
    (pw, v.FRAGMENTS_MERGING, v.YES, False),
    # temporal_shifting: events of 2 points, predictions 2 points early (c1) or late (c2).  Within 3 points
    # every predicted and every true point counts: P = R = 1 on both -> yes.  PW: no overlap, F1 0 -> no.
    (tolerant, v.ADDRESSING_AMBIGUOUS_LABELS, v.YES, True),
    (pw, v.ADDRESSING_AMBIGUOUS_LABELS, v.NO, True),
    # tp_positions: one point of the 30-point event [100, 130) at offset 0, 5, 24, 29: earliness
    # 1, 0.8333, 0.2, 0.0333 -> strictly falling by 0.97 -> yes.  PW: 1 TP point each, equal -> no.
    (earliness, v.EARLY_DETECTION_REWARD, v.YES, True),
    (pw, v.EARLY_DETECTION_REWARD, v.YES, False),
    # fragmented_tps: 1, 3, 6 segments inside the event plus one FP segment.  Segment precision 1/2, 3/4, 6/7:
    # rising -> present.  PW precision 30/31, 20/21, 20/21 (0.968, 0.952): falling -> absent.
    (segment_precision, v.FRAGMENTATION_MISLEADING_IN_PRECISION, v.PRESENT, True),
    (pw, v.FRAGMENTATION_MISLEADING_IN_PRECISION, v.ABSENT, True),
    # long_anomaly_effect: a 10-point event and six 1-point ones; c1 detects the long one (PW: R 10/16,
    # F1 0.769), c2 the six short ones (R 6/16, F1 0.545) -> present.  Event recall: c1 R 1/7 (F1 0.25),
    # c2 6/7 (F1 0.923): the short ones win, and c1's recall share 1/7 < 1.25/7 -> absent.
    (pw, v.LONG_ANOMALY_MISLEADING, v.PRESENT, True),
    (event_recall, v.LONG_ANOMALY_MISLEADING, v.ABSENT, True),
    # sparse_anomalies: c2 adds one FP point (index 600) to c1.  pays_per_flag rises by 0.1/1000 (recall
    # unchanged; 1.1e-4 on the scale from 0 to the perfect 0.9002) -> present.  PW: the FP lowers precision 1 -> 1/2 -> absent.
    (pays_per_flag, v.SPARSE_ANOMALY_MISLEADING, v.PRESENT, True),
    (pw, v.SPARSE_ANOMALY_MISLEADING, v.ABSENT, True),
    # constant_detector/c2 flags all 1000 points, 100 anomalous.  Recall alone: 1.0 > 0.3 -> present.
    # PW: P 0.1, R 1, F1 2*0.1/1.1 = 0.1818 <= 0.3 -> absent.
    (recall_only, v.ALL_ONE_OVERESTIMATION, v.PRESENT, True),
    (pw, v.ALL_ONE_OVERESTIMATION, v.ABSENT, True),
    # random_detector/c2: one 45-point event, 2 % of points flagged at random.  PA: the event is hit with
    # probability 1 - 0.98**45 = 0.60, and then P ~ 45/64, R = 1, F1 ~ 0.82; mean ~ 0.49 > 0.3 -> present
    # (Table A1: 0.4428).  PW: P ~ R ~ 0.02-0.05 -> absent.
    (point_adjusted, v.RANDOM_OVERESTIMATION, v.PRESENT, True),
    (pw, v.RANDOM_OVERESTIMATION, v.ABSENT, True),
]

# The same two overestimation rows for metrics that take scores (anchored on chance).
SCORE_TABLE5_CONTROLS = [
    # all-ones = a constant score.  auc_one_on_constant answers it 1.0: chance (0.5 on every ground truth, up
    # to the draws' noise) -> reads ~1 on the chance scale, far above the margin 0.02 -> present.  auc: 0.5 =
    # chance -> reads ~0 -> absent; auc_zero_on_constant: 0.0, below chance -> absent.
    (auc_one_on_constant, v.ALL_ONE_OVERESTIMATION, v.PRESENT, True),
    (auc, v.ALL_ONE_OVERESTIMATION, v.ABSENT, True),
    (auc_zero_on_constant, v.ALL_ONE_OVERESTIMATION, v.ABSENT, True),
    # Range 0 = y_pred = 1 - y_true (AUC 0), 1 = y_true (AUC 1).  Point-adjusted AUC of uniform-random
    # scores on random_detector/c2 (one 45-point event whose points all take the event's maximum, ~0.98):
    # ~0.98 > 0.65 -> present.  auc: uniform-random ~0.5, the 2 % random detector ~0.5 -> absent.
    (pa_auc, v.RANDOM_OVERESTIMATION, v.PRESENT, True),
    (auc, v.RANDOM_OVERESTIMATION, v.ABSENT, True),
]


@pytest.mark.parametrize("fn,name,value,shows", TABLE5_CONTROLS,
                         ids=[f"{n}-{f.__name__}-{'pos' if s else 'neg'}" for f, n, _, s in TABLE5_CONTROLS])
def test_table5_control(fn, name, value, shows):
    observed = characteristic(fn, name)
    assert (observed == value) is shows, f"{fn.__name__} on {name}: observed {observed}"


@pytest.mark.parametrize("fn,name,value,shows", SCORE_TABLE5_CONTROLS,
                         ids=[f"{n}-{f.__name__}" for f, n, _, s in SCORE_TABLE5_CONTROLS])
def test_score_table5_control(fn, name, value, shows):
    observed = characteristic(fn, name, **SCORES)
    assert (observed == value) is shows, f"{fn.__name__} on {name}: observed {observed}"


def test_every_characteristic_has_a_positive_and_a_negative_control():
    for name in v.CHARACTERISTICS:
        rows = [(value, shows) for _, n, value, shows in TABLE5_CONTROLS if n == name]
        values = {value for value, _ in rows}
        # a positive control showing a value, and a negative one that does not show that same value
        assert any(shows for _, shows in rows), name
        assert any(not shows for _, shows in rows) or len(values) > 1, name


# -- metric properties ----------------------------------------------------------------------------------

PROPERTY_CONTROLS = [
    # lag_tolerance: event [90, 110), prediction shifted by l.  PW: P = R = (20 - |l|)/20 on both sides ->
    # falls with |l|, the same early and late -> symmetric_decay.  early_forgiving: early predicted points are
    # within 12 before the event, so P = 1 and F1 = 2R/(1+R) > R = late F1 -> favours_early, not symmetric.
    (pw, v.LAG_TOLERANCE, v.SYMMETRIC_DECAY, True, {}),
    (early_forgiving, v.LAG_TOLERANCE, v.SYMMETRIC_DECAY, False, {}),
    (early_forgiving, v.LAG_TOLERANCE, v.FAVOURS_EARLY, True, {}),
    # fp_distance: the event detected, plus one FP point at distance d.  PW: P = 20/21 at every d ->
    # distance_blind.  near_forgiving: an FP within 10 of the event is a TP (F1 1 at small d, 2*20/21/(1+20/21)
    # beyond 10) -> falls with d -> proximity_aware, not distance_blind.
    (pw, v.FP_DISTANCE, v.DISTANCE_BLIND, True, {}),
    (near_forgiving, v.FP_DISTANCE, v.DISTANCE_BLIND, False, {}),
    # spill_over: k points past the event's end.  PW: P = 20/(20+k) falls -> penalised.  recall alone:
    # 1 at every k -> free.
    (pw, v.SPILL_OVER, v.PENALISED, True, {}),
    (recall_only, v.SPILL_OVER, v.PENALISED, False, {}),
    # redundancy: k alarms inside one event, same total length, no FP.  PW: P = 1 and R the same share at
    # every k -> neutral.  alarm_precision: 1 event hit per k alarms, P = 1/k -> penalised.
    (pw, v.REDUNDANCY, v.NEUTRAL, True, {}),
    (alarm_precision, v.REDUNDANCY, v.NEUTRAL, False, {}),
    # normal_padding: quiet normal points appended.  PW: TP, FP and FN unchanged -> invariant.  Accuracy:
    # every appended TN raises it -> sensitive.
    (pw, v.NORMAL_PADDING, v.INVARIANT, True, {}),
    (accuracy, v.NORMAL_PADDING, v.INVARIANT, False, {}),
    # time_reversal: PW counts points, blind to direction -> neutral.  earliness: layout a forward
    # (event [60, 90), first hit at offset 15: 0.5) and reversed (event [110, 140), hit from offset 0: 1.0)
    # differ -> direction_sensitive.
    (pw, v.TIME_REVERSAL, v.NEUTRAL, True, {}),
    (earliness, v.TIME_REVERSAL, v.NEUTRAL, False, {}),
    # label_swap_duality: PW precision tp/|p| is recall with the roles swapped -> dual.  event_recall: layout
    # a given has event recall 1 (its one event hit), swapped precision tp/|y| = 15/30 -> not dual.
    (pw, v.LABEL_SWAP_DUALITY, v.DUAL, True, {}),
    (event_recall, v.LABEL_SWAP_DUALITY, v.DUAL, False, {}),
    # concatenation: PW pools counts: C (P = R = 1) + D (0, 0) joined gives P 30/35, R 30/40, between the parts
    # and not their mean 0.5 -> micro.  tp_count adds the parts: joined = sum > both -> neither.
    (pw, v.CONCATENATION, v.MICRO, True, {}),
    (tp_count, v.CONCATENATION, v.MICRO, False, {"bounds": (0.0, None)}),
    # ranking_consistency (cut-off RANK_RHO, calibrated below): AUC falls with the swapped share q ->
    # consistent.  peaked_auc rises while AUC falls from 1 to 0.9, then falls -> rho 0.81 -> weak.
    (auc, v.RANKING_CONSISTENCY, v.CONSISTENT, True, SCORES),
    (peaked_auc, v.RANKING_CONSISTENCY, v.CONSISTENT, False, SCORES),
    # noise_robustness (limit NOISE_TOLERANCE = 0.1 of chance..perfect): AUC moves 0.05 -> robust.  R-precision
    # counts which points cross the k-th score, noise reorders them: it moves 0.22 -> sensitive.
    (auc, v.NOISE_ROBUSTNESS, v.ROBUST, True, SCORES),
    (top_k_precision, v.NOISE_ROBUSTNESS, v.ROBUST, False, SCORES),
    # transform_invariance: AUC reads ranks only -> invariant.  F1 at threshold 0.5: 10x + 5 flags every
    # point -> not_invariant.
    (auc, v.TRANSFORM_INVARIANCE, v.INVARIANT, True, SCORES),
    (threshold_f1, v.TRANSFORM_INVARIANCE, v.INVARIANT, False, SCORES),
    # ties: mean ranks sit between every way of breaking the ties -> tie_neutral.  Ties broken for the
    # anomalies: the plateau scores above every jittered copy -> optimistic.
    (auc, v.TIES, v.TIE_NEUTRAL, True, SCORES),
    (auc_optimistic_ties, v.TIES, v.TIE_NEUTRAL, False, SCORES),
    (auc_optimistic_ties, v.TIES, v.OPTIMISTIC, True, SCORES),
    # chance_ordering: AUC 1 > random ~0.5 > inverted 0, constant 0.5 ~ random -> ordered.  Point-adjusted
    # AUC of random scores ~0.9: 0.8 of the half-range above the middle 0.5 -> random_inflated.
    # auc_one_on_constant: the constant 1.0 beats random -> constant_overrated.  auc_zero_on_constant: the
    # constant is a convention for a degenerate input -> ordered, like auc.
    (auc, v.CHANCE_ORDERING, v.ORDERED, True, SCORES),
    (pa_auc, v.CHANCE_ORDERING, v.ORDERED, False, SCORES),
    (pa_auc, v.CHANCE_ORDERING, v.RANDOM_INFLATED, True, SCORES),
    (auc_one_on_constant, v.CHANCE_ORDERING, v.CONSTANT_OVERRATED, True, SCORES),
    (auc_zero_on_constant, v.CHANCE_ORDERING, v.ORDERED, True, SCORES),
]


@pytest.mark.parametrize("fn,name,value,shows,options", PROPERTY_CONTROLS,
                         ids=[f"{n}-{f.__name__}-{val}" for f, n, val, _, _ in PROPERTY_CONTROLS])
def test_property_control(fn, name, value, shows, options):
    observed = prop(fn, name, **options)
    assert (observed == value) is shows, f"{fn.__name__} on {name}: observed {observed}"


def test_every_property_has_a_positive_and_a_negative_control():
    for name in v.METRIC_PROPERTIES:
        rows = [(value, shows) for _, n, value, shows, _ in PROPERTY_CONTROLS if n == name]
        assert any(shows for _, shows in rows) and any(not shows for _, shows in rows), name


def test_ranking_consistency_cut_off_lies_between_its_controls():
    # Calibration: Spearman rho on the ranking_consistency family.  Consistent controls: AUC-ROC
    # 0.976, point-adjusted AUC-ROC 0.939; the loose control peaked_auc 0.806.  RANK_RHO = 0.9 lies between.
    rho = {f.__name__: _session(f, **SCORES).property_result(v.RANKING_CONSISTENCY).finding.numbers["spearman rho"]
           for f in (auc, pa_auc, peaked_auc)}
    assert rho["auc"] == pytest.approx(0.976, abs=0.001) and rho["pa_auc"] == pytest.approx(0.939, abs=0.001)
    assert rho["peaked_auc"] == pytest.approx(0.806, abs=0.001)
    assert rho["peaked_auc"] < RANK_RHO < min(rho["auc"], rho["pa_auc"])


def test_noise_tolerance_lies_between_its_controls():
    shift = {f.__name__: _session(f, **SCORES).property_result(v.NOISE_ROBUSTNESS).finding.numbers["largest change"]
             for f in (auc, top_k_precision)}
    assert shift["auc"] == pytest.approx(0.049, abs=0.001) and shift["top_k_precision"] == pytest.approx(0.224, abs=0.001)
    assert shift["auc"] < NOISE_TOLERANCE < shift["top_k_precision"]


# -- score metrics: the anchors are not a package's convention -----------------------------------------------

def test_score_metrics_equal_off_the_constant_inputs_get_the_same_verdicts():
    # auc answers a constant score 0.5, auc_zero_on_constant 0.0 (TimeEval), auc_one_on_constant 1.0; they agree
    # on every other input.  Anchored on the empty prediction, auc_zero_on_constant read overlap c1's AUC 0.51
    # as 0.51 above "detecting nothing" (existence: yes) and temporal shifting's 0.494 as credit.
    rows = {}
    for fn in (auc, auc_zero_on_constant, auc_one_on_constant):
        session = _session(fn, **SCORES)
        rows[fn.__name__] = ({n: session.characteristic_result(n).observed for n in v.CHARACTERISTICS
                              if n != v.ALL_ONE_OVERESTIMATION},
                             {n: session.property_result(n).observed for n in v.METRIC_PROPERTIES
                              if n != v.CHANCE_ORDERING})
    assert rows["auc"] == rows["auc_zero_on_constant"] == rows["auc_one_on_constant"]
    assert rows["auc"][0][v.EXISTENCE_DETECTION_REWARD] == v.NO
    # temporal_shifting's ground truth (two 2-point events) gives AUC-ROC's chance as 0.546 with a standard error
    # of 0.053 over the 10 draws: the span 0.454 is 8.6 standard errors, fewer than the 10 a level against chance
    # needs (scale_guard.SPAN_STANDARD_ERRORS), so no verdict, for all three alike (never auc_zero_on_constant's "yes")
    assert rows["auc"][0][v.ADDRESSING_AMBIGUOUS_LABELS] is None
    # chance_ordering reads the constant only for constant_overrated (the one exception, like all-ones)
    assert prop(auc, v.CHANCE_ORDERING, **SCORES) == prop(auc_zero_on_constant, v.CHANCE_ORDERING, **SCORES)


def test_the_chance_anchor_and_the_empty_prediction_as_evidence():
    f = _session(auc_zero_on_constant, **SCORES).characteristic_result(v.EXISTENCE_DETECTION_REWARD).finding
    # 10 seeded uniform-random score series on the ground truth of overlap_proportion: AUC mean near 0.5
    assert f.numbers["anchor 0: chance (mean over uninformative scores)"] == pytest.approx(0.5, abs=0.03)
    assert 0 < f.numbers["chance standard error"] < 0.03
    assert f.numbers["empty prediction (evidence only)"] == 0.0
    assert "chance-anchored scale" in f.explanation


def test_a_saturated_case_is_undetermined_never_absent():
    # 0.99 + 0.01 x AUC: perfect 1.0, chance ~0.995, inverted 0.99: within 0.02 of the range [0, 1] everywhere.
    session = _session(saturated_auc, **SCORES)
    for name in v.CHARACTERISTICS:
        res = session.characteristic_result(name)
        if res.observed == v.NOT_APPLICABLE:
            continue
        assert res.observed is None and res.status == v.UNDETERMINED, (name, res.observed)
        assert "saturated" in res.message, (name, res.message)
    # PA-AUC on random_detector/c2 (one 45-point event): chance 0.98 vs perfect 1 -> that case is saturated, and
    # existence (overlap_proportion's single 50-point event) too
    ex = _session(pa_auc, **SCORES).characteristic_result(v.EXISTENCE_DETECTION_REWARD)
    assert ex.status == v.UNDETERMINED and "saturated" in ex.message


def test_a_saturated_property_case_is_undetermined():
    res = _session(saturated_auc, **SCORES).property_result(v.RANKING_CONSISTENCY)
    assert res.observed is None and "saturated" in res.message


# -- no verdict from a non-deterministic evaluator ------------------------------------------

def _random_value(t, s):
    return float(np.random.random())


def test_a_random_evaluator_passes_no_declared_property():
    # `--expect time_reversal=direction_sensitive` with f = lambda t, s: float(np.random.random()) passed 3 of 3
    opts = AuditOptions(sanity=False, input_kind="scores", suite="properties",
                        expectations=declared_expectations("time_reversal=direction_sensitive", "expect"))
    with AuditSession(resolve(_random_value), opts) as session:
        res = session.property_result(v.TIME_REVERSAL)
    assert res.observed is None and res.status == v.UNDETERMINED and res.counts_as_failure
    assert "not deterministic" in res.message


def test_a_random_evaluator_gets_no_characteristic():
    prof = oipr_bench.audit(_random_value, input="scores", random_runs=5, sanity=False)
    for name, res in prof.characteristic_results.items():
        assert res.observed in (None, v.NOT_APPLICABLE), name
        if res.observed is None:
            assert "not deterministic" in res.message
    assert not prof.ok


def test_a_report_with_random_inflated_follows_its_schema_and_reads_back():
    # The new chance_ordering value must be allowed by schema/report.schema.json, declared or observed.
    from oipr_bench.auditing.profile.results import REPORT_SCHEMA_FILE, Profile
    from oipr_bench.jsondata import schema_problem

    prof = oipr_bench.audit(pa_auc, input="scores", suite="properties", sanity=False,
                            expect="chance_ordering=random_inflated")
    assert prof.property_results[v.CHANCE_ORDERING].status == v.PASSED
    report = prof.to_dict()
    assert schema_problem(report, REPORT_SCHEMA_FILE) is None
    assert Profile.from_dict(report).property_results[v.CHANCE_ORDERING].observed == v.RANDOM_INFLATED


def auc_raises_on_constant(t, s):
    """As auc, but a constant score is refused with an error (another package's convention)."""
    if np.ptp(np.asarray(s, float)) == 0:
        raise ValueError("constant scores have no ranking")
    return auc(t, s)


def auc_nan_on_constant(t, s):
    """As auc, but a constant score gives nan."""
    return float("nan") if np.ptp(np.asarray(s, float)) == 0 else auc(t, s)


@pytest.mark.parametrize("fn", [auc_raises_on_constant, auc_nan_on_constant])
def test_an_error_or_nan_on_constant_scores_is_evidence_only(fn):
    # The empty prediction of a score metric is no anchor, so its failure takes no scale away: every verdict
    # off the constant cases equals auc's; all_one_overestimation reads the constant case and cannot be read.
    session, ref = _session(fn, **SCORES), _session(auc, **SCORES)
    for name in v.CHARACTERISTICS:
        if name != v.ALL_ONE_OVERESTIMATION:
            assert session.characteristic_result(name).observed == ref.characteristic_result(name).observed, name
    assert session.characteristic_result(v.ALL_ONE_OVERESTIMATION).observed is None
    for name in v.METRIC_PROPERTIES:
        assert session.property_result(name).observed == ref.property_result(name).observed, name
    assert "the constant score has no value" in session.property_result(v.CHANCE_ORDERING).message


# -- a verdict needs a usable scale on every case it read (oipr_bench.auditing.table5.scale_guard) -----------

def f1_declared_lower(t, p):
    """PW's F1, declared lower-is-better: it rates the empty prediction (0) above y_pred = y_true (1) by its own
    declaration, so it has no usable scale anywhere."""
    pr, rc = pw(t, p)
    return 0.0 if pr + rc == 0 else 2 * pr * rc / (pr + rc)


f1_declared_lower.higher_is_better = False  # type: ignore[attr-defined]


def f1_declared_higher(t, p):
    """The same F1, declared higher-is-better (its true orientation)."""
    return f1_declared_lower(t, p)


def first_point_score(t, s):
    """The score at the first anomalous point.  On uniform-random scores it is uniform on [0, 1): the ten
    chance draws give a mean near 0.5 with a standard error near 0.29 / sqrt(10) = 0.09, and the span
    to y_pred = y_true (1.0) about 0.5, some 5.5 standard errors."""
    return float(np.asarray(s, float)[int(np.flatnonzero(np.asarray(t) == 1)[0])])


def test_uninformative_above_perfect_leaves_order_only_rules_undetermined():
    # must show it: declared lower-is-better, F1 rises with overlap (0.0392 .. 1.0); read in raw order as
    # "lower is better" it "does not rise": that reading came from a scale it does not have
    for name in (v.OVERLAP_PROPORTION_AWARENESS, v.EARLY_DETECTION_REWARD, v.SPARSE_ANOMALY_MISLEADING):
        res = _session(f1_declared_lower).characteristic_result(name)
        assert res.observed is None and res.status == v.UNDETERMINED, (name, res.observed)
        assert "against its declared orientation: no usable scale there" in res.message, res.message
    # must not: the same numbers in their true orientation keep their verdicts (overlap rises: yes)
    assert characteristic(f1_declared_higher, v.OVERLAP_PROPORTION_AWARENESS) == v.YES
    assert characteristic(f1_declared_higher, v.SPARSE_ANOMALY_MISLEADING) == v.ABSENT


def test_a_level_against_chance_on_a_span_its_standard_error_moves_is_undetermined():
    from oipr_bench.auditing.table5.scale_guard import SPAN_STANDARD_ERRORS

    session = _session(first_point_score, **SCORES)
    res = session.characteristic_result(v.EXISTENCE_DETECTION_REWARD)
    numbers = res.finding.numbers
    span = numbers["anchor 1: y_pred = y_true"] - numbers["anchor 0: chance (mean over uninformative scores)"]
    se = numbers["chance standard error"]
    assert span < SPAN_STANDARD_ERRORS * se  # the control has the property the rule reads
    assert res.observed is None and "standard errors of the chance mean" in res.message, res.message
    # must not: auc on overlap_proportion (chance 0.510, standard error 0.016, span 0.49 = 30 standard errors)
    ok = _session(auc, **SCORES).characteristic_result(v.EXISTENCE_DETECTION_REWARD)
    assert ok.observed == v.NO and "standard errors" not in ok.message
    # order-only rules are not affected by the span: the overlap verdict is still read
    assert session.characteristic_result(v.OVERLAP_PROPORTION_AWARENESS).observed is not None



def test_random_overestimation_read_against_chance_needs_the_span():
    from oipr_bench.auditing.table5.findings import RANDOM
    from oipr_bench.auditing.table5.scale_guard import SPAN_STANDARD_ERRORS

    # must show it: auc on random_detector (chance 0.50 / 0.49, standard errors near 0.01, y_pred = y_true 1.0:
    # spans of some 40 standard errors): the random detector reads -0.007 and 0.025 above chance -> absent
    ok = _session(auc, **SCORES).characteristic_result(v.RANDOM_OVERESTIMATION)
    assert ok.observed == v.ABSENT
    for c in RANDOM:
        n = ok.finding.numbers
        span = n[f"y_pred = y_true {c}"] - n[f"uniform-random scores (mean) {c}"]
        assert span >= SPAN_STANDARD_ERRORS * n[f"chance standard error {c}"] > 0, c  # the evidence records it
    # must not: the score at the first anomalous point has chance 0.48 / 0.51 with a standard error near 0.09,
    # a span of about 5.5 standard errors; read alone, the rule says absent (-0.84, -1.02 above chance)
    res = _session(first_point_score, **SCORES).characteristic_result(v.RANDOM_OVERESTIMATION)
    n = res.finding.numbers
    span = n["y_pred = y_true random_detector/c1"] - n["uniform-random scores (mean) random_detector/c1"]
    assert span < SPAN_STANDARD_ERRORS * n["chance standard error random_detector/c1"]
    assert res.observed is None and res.status == v.UNDETERMINED
    assert "standard errors of the chance mean" in res.message and "read alone, the rule gives absent" in res.message
    # a verdict read on the metric's own range (0 = y_pred = 1 - y_true), not against chance, stands on any
    # chance span: point-adjusted AUC's random detector sits at 0.76 of that range on random_detector/c2, where
    # chance (0.98) lies within a few standard errors of perfect
    pa = _session(pa_auc, **SCORES).characteristic_result(v.RANDOM_OVERESTIMATION)
    assert pa.observed == v.PRESENT and "own range" in pa.message
    n = pa.finding.numbers
    assert n["y_pred = y_true random_detector/c2"] - n["uniform-random scores (mean) random_detector/c2"] < \
        SPAN_STANDARD_ERRORS * n["chance standard error random_detector/c2"]


def test_chance_ordering_against_the_random_mean_needs_the_span():
    import statistics

    from oipr_bench.auditing.table5.scale_guard import SPAN_STANDARD_ERRORS

    def span_in_standard_errors(res):
        ys = [y for x, y in zip(res.finding.curve.x, res.finding.curve.y) if x == "random"]
        n = res.finding.numbers
        return (n["score oracle (perfect ranking)"] - n["mean score random"]) / (statistics.stdev(ys) / len(ys) ** 0.5)

    # must show it: AUC's ten random draws have a mean 1.05 below perfect on the anchored scale, 38 standard
    # errors (0.027 each) -> ordered
    ok = _session(auc, **SCORES).property_result(v.CHANCE_ORDERING)
    assert ok.observed == v.ORDERED and span_in_standard_errors(ok) > SPAN_STANDARD_ERRORS
    # must not: the score at the first anomalous point: the draws' mean lies 0.71 below perfect, 4.1 standard
    # errors (0.17 each); read alone, the rule says ordered (constant 0.06 ~ random 0.005 within the margin 0.52)
    res = _session(first_point_score, **SCORES).property_result(v.CHANCE_ORDERING)
    assert res.observed is None and res.status == v.UNDETERMINED
    assert "standard errors of the random scores' mean" in res.message and "the rule gives ordered" in res.message
    # random_inflated is read on the metric's own range (inverted .. perfect), not against chance: point-adjusted
    # AUC keeps it with its draws' mean 7.6 standard errors below perfect
    pa = _session(pa_auc, **SCORES).property_result(v.CHANCE_ORDERING)
    assert pa.observed == v.RANDOM_INFLATED and span_in_standard_errors(pa) < SPAN_STANDARD_ERRORS


# -- sanity: NaN where a value is defined is its own finding; deterministic is about two calls differing ------

def f1_nan_on_shifts(t, p):
    """PW's F1, but NaN (instead of 0) when nothing overlaps: NaN where F1 is defined (0)."""
    pr, rc = pw(t, p)
    return (pr, rc, float("nan")) if pr + rc == 0 and np.any(p) and np.any(t) else (pr, rc, 0.0 if pr + rc == 0 else 2 * pr * rc / (pr + rc))


def test_nan_where_defined_fails_no_nan_and_not_deterministic():
    with AuditSession(resolve(f1_nan_on_shifts), AuditOptions(random_runs=20)) as session:
        nan, det = session.sanity_result(v.NO_NAN), session.sanity_result(v.DETERMINISTIC)
    assert nan.status == v.FAILED and "temporal_shifting/c1" in nan.message and "NaN" in nan.message
    assert det.status == v.PASSED
    # must not: PW has no NaN where F1 is defined, and a random-valued metric still fails deterministic
    with AuditSession(resolve(pw), AuditOptions(random_runs=20)) as session:
        assert session.sanity_result(v.NO_NAN).status == v.PASSED
    with AuditSession(resolve(_random_value), AuditOptions(input_kind="scores", random_runs=5)) as session:
        det = session.sanity_result(v.DETERMINISTIC)
    assert det.status == v.FAILED and "two calls on the same input" in det.message
