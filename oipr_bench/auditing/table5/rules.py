"""The ten characteristic rules: one ``check_<name>(obs)`` per characteristic of Table 5.

Each reads the evaluator's results on the special-scenario cases (Appendix A)
through :mod:`oipr_bench.auditing.table5.readings`, applies the rule stated in Appendix A and
returns a :class:`~oipr_bench.auditing.table5.findings.Finding`.  :mod:`oipr_bench.auditing.table5.characteristics`
registers them, says which quantities each reads and answers ``not_applicable``
before a rule runs when the evaluator does not give them.
"""

from __future__ import annotations

import math

from .findings import (
    ALL_ONE,
    FRAG_FPS,
    FRAG_TPS,
    LONG,
    MERGING_FACTOR,
    MIN_EFFECT,
    MITIGATION_FACTOR,
    OVERESTIMATION_F1,
    OVERLAP,
    RANDOM,
    SHIFT,
    SPARSE,
    TP_POS,
    Finding,
    Reading,
    enough,
    eq,
    fmt,
    gt,
    label_of,
    read_scores,
    result_of,
    undetermined_finding,
)
from .readings import Observations, recall_share
from .score_rules import constant_against_chance, random_on_range
from ...vocabulary import (
    ADDRESSING_AMBIGUOUS_LABELS,
    ALL_ONE_OVERESTIMATION,
    EARLY_DETECTION_REWARD,
    EXISTENCE_DETECTION_REWARD,
    FRAGMENTATION_MISLEADING_IN_PRECISION,
    FRAGMENTS_MERGING,
    LONG_ANOMALY_MISLEADING,
    NOT_APPLICABLE,
    OVERLAP_PROPORTION_AWARENESS,
    RANDOM_OVERESTIMATION,
    SPARSE_ANOMALY_MISLEADING,
    UNDETERMINED,
)

__all__ = [
    "check_existence_detection_reward", "check_overlap_proportion_awareness", "check_fragments_merging",
    "check_addressing_ambiguous_labels", "check_early_detection_reward", "check_fragmentation_misleading_in_precision",
    "check_long_anomaly_misleading", "check_sparse_anomaly_misleading", "check_all_one_overestimation",
    "check_random_overestimation",
]


def _on(reading: Reading) -> str:
    return f" [read on the {reading.scale}]"


def check_existence_detection_reward(obs: Observations) -> Finding:
    """Existence detection reward (Sec. III-C; Appendix A, overlap proportion).

    Rule: the evaluator rewards existence when its score on
    ``overlap_proportion/c1`` (only the first point of the 50-point event is
    detected), read on its anchored scale (0 = its own empty prediction, 1 =
    the perfect one; :func:`oipr_bench.auditing.table5.readings.scale_of`), is above
    PW's F1 there by at least :data:`MIN_EFFECT` -> ``yes``.  When c1 is not,
    but a larger overlap (c2: 20 %, c3: 52 %) is -> ``piecewise`` (PA%K with
    K = 50: equal to PW on c1 and c2, 1.0 on c3; Table 5 footnote).
    Otherwise ``no``.  On the anchored scale a metric's no-skill floor is 0,
    so AUC-ROC's 0.51 on c1 (0.02 above its empty prediction's 0.5) is no
    reward next to PW's 0.0392.  Without a scale (NaN or equal anchors: a
    metric that cannot tell detecting from not detecting) -> ``undetermined``.
    """
    cases = OVERLAP[:3]
    r = read_scores(obs, cases)
    if r.problem:
        return undetermined_finding(EXISTENCE_DETECTION_REWARD, cases, r, "the gain over PW")
    f1, pw = r.values, [float(obs.baseline[c].f1) for c in cases]
    numbers = {**r.numbers, **{f"PW F1 {c}": v for c, v in zip(cases, pw)}}
    rewarded = [gt(a, b) and enough(r, a - b) for a, b in zip(f1, pw)]
    label = label_of(obs)
    if rewarded[0]:
        value, why = "yes", (f"{label} on c1 ({fmt(f1[0])}) is above PW's ({fmt(pw[0])}) by at least {MIN_EFFECT}: "
                             "the first detected point is rewarded")
    elif any(rewarded[1:]):
        value, why = "piecewise", (
            f"{label} on c1 ({fmt(f1[0])}) is not above PW's ({fmt(pw[0])}) by {MIN_EFFECT}, but a larger overlap is "
            f"(c2 {fmt(f1[1])} vs {fmt(pw[1])}, c3 {fmt(f1[2])} vs {fmt(pw[2])})"
        )
    else:
        value, why = "no", (f"{label} never exceeds PW's on c1-c3 by {MIN_EFFECT} "
                            f"(c1: {fmt(f1[0])} vs {fmt(pw[0])}, c3: {fmt(f1[2])} vs {fmt(pw[2])})")
    return Finding(EXISTENCE_DETECTION_REWARD, value, cases, numbers, why + _on(r))


def check_overlap_proportion_awareness(obs: Observations) -> Finding:
    """Overlapping proportion awareness (Sec. V-B; Appendix A, overlap proportion).

    Rule: the four cases detect 2 %, 20 %, 52 % and 100 % of one event.  The
    score strictly increasing over c1..c4 -> ``yes``; non-decreasing with at
    least one increase and at least one flat step -> ``piecewise`` (PA%K:
    rises up to c3 = 52 % > K, then flat); no increase at all, or any
    decrease -> ``no`` (PA: 1.0 everywhere).  Steps smaller than
    :data:`SCORE_TOLERANCE` count as flat, so a constant metric gets ``no``;
    the whole rise c1 -> c4 must reach :data:`MIN_EFFECT`.  Compares the
    scores only with each other, so raw values serve when the scale is undefined.
    """
    r = read_scores(obs, OVERLAP, order_only=True)
    if r.problem:
        return undetermined_finding(OVERLAP_PROPORTION_AWARENESS, OVERLAP, r, "the scores over c1..c4")
    f1 = r.values
    steps = list(zip(f1, f1[1:]))
    ups = [gt(b, a) for a, b in steps]
    flats = [eq(a, b) for a, b in steps]
    shown = " / ".join(r.shown)
    label = label_of(obs)
    big = enough(r, f1[-1] - f1[0])
    if all(ups) and big:
        value, why = "yes", f"{label} rises with every larger overlap (c1..c4: {shown})"
    elif any(ups) and all(u or fl for u, fl in zip(ups, flats)) and big:
        value, why = "piecewise", f"{label} rises with overlap only over part of the range (c1..c4: {shown})"
    elif any(ups) and all(u or fl for u, fl in zip(ups, flats)):
        value, why = "no", f"{label} rises with overlap by less than the minimum effect {MIN_EFFECT} (c1..c4: {shown})"
    else:
        value, why = "no", f"{label} does not rise with overlap (c1..c4: {shown})"
    return Finding(OVERLAP_PROPORTION_AWARENESS, value, OVERLAP, r.numbers, why + _on(r))


def check_fragments_merging(obs: Observations) -> Finding:
    """Fragments merging (Sec. III-C; Appendix A, fragmented FPs).

    Rule: the three cases hold 10 false-positive points dispersed (c1, every
    30 points), aggregated (c2, every 2 points) and 20 continuous ones (c3).
    An evaluator that merges nearby fragments assigns c1 "a significantly
    lower" score than c2 and c3: ``yes`` when score(c1) is below both by at
    least :data:`MIN_EFFECT` and at most :data:`MERGING_FACTOR` x
    min(score(c2), score(c3)), i.e. at least 25 % lower than both.  OIPR gives
    0.3245 against 0.6739 and 0.6667 (ratio 0.49); the event-based evaluators
    give c1 = c2 (ratio 1) and AM gives c1 above both.  The ratio is taken on
    the anchored scale, whose 0 is the empty prediction; when c1 is not below
    c2 and c3 even in raw order the answer is ``no`` without a scale.
    """
    r = read_scores(obs, FRAG_FPS)
    if r.problem:
        raw = read_scores(obs, FRAG_FPS, order_only=True)
        v = raw.values
        if not any(math.isnan(x) for x in v) and not gt(min(v[1], v[2]), v[0]):
            why = f"dispersed FPs do not score lower than aggregated/continuous ones ({' / '.join(raw.shown)}; {raw.scale})"
            return Finding(FRAGMENTS_MERGING, "no", FRAG_FPS, r.numbers, why)
        return undetermined_finding(FRAGMENTS_MERGING, FRAG_FPS, r, "the ratio of c1 to c2 and c3")
    f1 = r.values
    low = min(f1[1], f1[2])
    limit = MERGING_FACTOR * low
    shown = f"c1 {fmt(f1[0])} vs c2 {fmt(f1[1])}, c3 {fmt(f1[2])}"
    if gt(low, f1[0]) and enough(r, low - f1[0]) and f1[0] <= limit:
        value, why = "yes", f"dispersed FPs score markedly lower than aggregated/continuous ones ({shown})"
    else:
        value, why = "no", (f"dispersed FPs are not scored markedly lower (needs c1 below and <= {MERGING_FACTOR} x "
                            f"min(c2, c3); {shown})")
    return Finding(FRAGMENTS_MERGING, value, FRAG_FPS, r.numbers, why + _on(r))


def check_addressing_ambiguous_labels(obs: Observations) -> Finding:
    """Addressing ambiguous labels (Sec. V-B; Appendix A, temporal shifting).

    Rule: c1 detects each event 2 points early, c2 2 points late, with no
    overlap.  A shifted detection "earns credit" when it scores at least
    :data:`MIN_EFFECT` above the empty prediction, i.e. above 0 on the
    anchored scale ("F1 > 0" in Appendix A).  Credit in both -> ``yes``; only
    in the delayed case -> ``only_delay`` (TaPR: its ambiguous region follows
    the event end); only in the early case -> ``only_early``; in neither ->
    ``no``.  Credit is measured from the empty prediction, so without a scale
    (NaN or equal anchors) -> ``undetermined``.
    """
    r = read_scores(obs, SHIFT)
    if r.problem:
        return undetermined_finding(ADDRESSING_AMBIGUOUS_LABELS, SHIFT, r, "the credit of the shifted detections")
    early, late = r.values
    shown = f"early c1 {fmt(early)}, delayed c2 {fmt(late)}, no detection 0"
    e, d = (gt(v, 0.0) and enough(r, v) for v in (early, late))
    if e and d:
        value, why = "yes", f"both shifted detections earn credit ({shown})"
    elif d:
        value, why = "only_delay", f"only the delayed detection earns credit ({shown})"
    elif e:
        value, why = "only_early", f"only the early detection earns credit ({shown})"
    else:
        value, why = "no", f"neither shifted detection earns credit of {MIN_EFFECT} ({shown})"
    return Finding(ADDRESSING_AMBIGUOUS_LABELS, value, SHIFT, r.numbers, why + _on(r))


def check_early_detection_reward(obs: Observations) -> Finding:
    """Early detection reward (Sec. V-B; Appendix A, TP positions).

    Rule: a 30-point event is detected by one point at its 1st, 6th, 25th and
    last point (c1..c4).  ``yes`` when the score is strictly decreasing over
    c1..c4 ("the highest f1-score to c1, followed by c2, c3, and c4"), each
    step by more than :data:`SCORE_TOLERANCE` and c1 -> c4 by at least
    :data:`MIN_EFFECT` (OIPR: 0.4833 -> 0.3764; PATE-F1's 3e-4 is too small);
    otherwise ``no`` (AM rises from c1 to c2, so it does not qualify).
    Compares the scores only with each other, so a metric without a scale
    (a detection delay whose empty prediction is NaN) is read in raw order.
    """
    r = read_scores(obs, TP_POS, order_only=True)
    if r.problem:
        return undetermined_finding(EARLY_DETECTION_REWARD, TP_POS, r, "the scores over c1..c4")
    f1 = r.values
    shown = " / ".join(r.shown)
    label = label_of(obs)
    if all(gt(a, b) for a, b in zip(f1, f1[1:])) and enough(r, f1[0] - f1[-1]):
        value, why = "yes", f"earlier detection scores strictly better (c1..c4: {shown})"
    elif all(gt(a, b) for a, b in zip(f1, f1[1:])):
        value, why = "no", f"{label} falls with later detection by less than the minimum effect {MIN_EFFECT} (c1..c4: {shown})"
    else:
        value, why = "no", f"{label} is not strictly decreasing with later detection (c1..c4: {shown})"
    return Finding(EARLY_DETECTION_REWARD, value, TP_POS, r.numbers, why + _on(r))


def check_fragmentation_misleading_in_precision(obs: Observations) -> Finding:
    """Fragmentation misleading in precision (Sec. V-B; Appendix A, fragmented TPs).

    Rule: one 30-point event detected as 1 complete event (c1), 3 fragments
    (c2) and 6 fragments (c3), each with one FP point.  ``present`` when the
    precision of c2 and of c3 are both higher than that of c1 (by more than
    :data:`SCORE_TOLERANCE`): splitting a detection inflates precision.
    Reads precision, so a scalar score is not applicable; a NaN precision is ``undetermined``.
    """
    p = [float(result_of(obs, c).precision) for c in FRAG_TPS]
    numbers = {f"P {c}": v for c, v in zip(FRAG_TPS, p)}
    shown = f"c1 {fmt(p[0])}, c2 {fmt(p[1])}, c3 {fmt(p[2])}"
    if any(math.isnan(v) for v in p):
        why = f"the precision cannot be read: it is nan ({shown})"
        return Finding(FRAGMENTATION_MISLEADING_IN_PRECISION, UNDETERMINED, FRAG_TPS, numbers, why)
    if gt(p[1], p[0]) and gt(p[2], p[0]):
        value, why = "present", f"fragmented detections get higher precision than the complete one ({shown})"
    else:
        value, why = "absent", f"fragmenting the detection does not raise precision ({shown})"
    return Finding(FRAGMENTATION_MISLEADING_IN_PRECISION, value, FRAG_TPS, numbers, why)


def check_long_anomaly_misleading(obs: Observations) -> Finding:
    """Long anomaly misleading (Sec. III-B; Appendix A, long anomaly effect).

    Rule: one 10-point event and six 1-point events; c1 detects only the long
    one, c2 only the six short ones.  ``present`` when score(c1) > score(c2):
    a detector that finds one long anomaly beats one that finds six short
    ones.  Otherwise the long event may still weigh more than the others: its
    share of the recall is the recall on c1 relative to the empty and the
    perfect prediction (:func:`oipr_bench.auditing.table5.readings.recall_share`; the recall
    itself for the built-ins).  An event-based evaluator gives it the equal
    share 1/n (n = 7 events, 0.1429); ``mitigated`` when the share is at
    least :data:`MITIGATION_FACTOR` x 1/n (OIPR: 0.2172, 1.52 times the equal
    share, Table 5 "Mitigated"), else ``absent``.  The factor 1.25 leaves
    room for rounding in evaluators that mean "equal" yet lies well below
    OIPR's ratio.  A metric whose recall does not move between the empty and
    the perfect prediction has no share (NaN): ``undetermined``.

    A scalar score answers ``present``; when the short anomalies win it
    cannot tell ``mitigated`` from ``absent`` (that needs recall), so the
    value is ``not_applicable``.
    """
    (c1, c2) = LONG
    r = read_scores(obs, LONG, order_only=True)
    if r.problem:
        return undetermined_finding(LONG_ANOMALY_MISLEADING, LONG, r, "the scores of c1 and c2")
    f1, label = r.values, label_of(obs)
    n = int(obs.true_events[c1])
    equal = 1.0 / n
    numbers = dict(r.numbers)
    shown = f"{label} {r.shown[0]} vs {r.shown[1]}"
    if gt(f1[0], f1[1]):
        why = f"detecting only the long anomaly beats detecting the {n - 1} short ones ({shown})"
        return Finding(LONG_ANOMALY_MISLEADING, "present", LONG, numbers, why + _on(r))
    if obs.scalar:
        why = (f"the long anomaly does not win ({shown}); telling absent from mitigated needs its share of the recall, "
               "which a scalar score does not give")
        return Finding(LONG_ANOMALY_MISLEADING, NOT_APPLICABLE, LONG, numbers, why)
    share = recall_share(obs, c1)
    numbers.update({f"R {c1}": float(result_of(obs, c1).recall), "recall share": share, "equal-event share": equal})
    if math.isnan(share):
        why = (f"the short anomalies win ({shown}), but the long one's recall share cannot be read: the recall is nan "
               "or does not rise from the empty to the perfect prediction")
        return Finding(LONG_ANOMALY_MISLEADING, UNDETERMINED, LONG, numbers, why)
    if share >= MITIGATION_FACTOR * equal:
        value, why = "mitigated", (
            f"the short anomalies win ({shown}), but the long one keeps a recall share of "
            f"{fmt(share)} >= {MITIGATION_FACTOR} x 1/{n}"
        )
    else:
        value, why = "absent", (
            f"the short anomalies win ({shown}) and the long one counts as one event of {n} "
            f"(recall share {fmt(share)})"
        )
    return Finding(LONG_ANOMALY_MISLEADING, value, LONG, numbers, why)


def check_sparse_anomaly_misleading(obs: Observations) -> Finding:
    """Sparse anomaly misleading (Sec. V-B; Appendix A, sparse anomalies).

    Rule: two widely spaced events, one detected and one missed; c2 adds one
    FP point to c1.  An extra false positive must not help: ``present`` when
    score(c2) > score(c1) (by more than :data:`SCORE_TOLERANCE`), else ``absent``.
    """
    r = read_scores(obs, SPARSE, order_only=True)
    if r.problem:
        return undetermined_finding(SPARSE_ANOMALY_MISLEADING, SPARSE, r, "the scores of c1 and c2")
    f1, label = r.values, label_of(obs)
    shown = f"c1 {r.shown[0]}, c2 with an extra FP {r.shown[1]}"
    if gt(f1[1], f1[0]):
        value, why = "present", f"an extra false positive raises {label} ({shown})"
    else:
        value, why = "absent", f"an extra false positive does not raise {label} ({shown})"
    return Finding(SPARSE_ANOMALY_MISLEADING, value, SPARSE, r.numbers, why + _on(r))


def _overestimation(name: str, cases: tuple[str, ...], obs: Observations, what: str) -> Finding:
    r = read_scores(obs, cases)
    if r.problem:
        return undetermined_finding(name, cases, r, f"the score of {what} on the metric's own scale")
    label = label_of(obs)
    worst = max(r.values)
    shown = ", ".join(f"{c} {fmt(v)}" for c, v in zip(cases, r.values))
    if worst > OVERESTIMATION_F1:
        value, why = "present", f"{what} scores {label} above {OVERESTIMATION_F1} ({shown})"
    else:
        value, why = "absent", f"{what} stays at or below {label} {OVERESTIMATION_F1} ({shown})"
    return Finding(name, value, cases, r.numbers, why + _on(r))


def check_all_one_overestimation(obs: Observations) -> Finding:
    """Overestimation of the all-1 detector (Appendix A, constant detectors; Table A1 markers).

    Rule: ``present`` when the detector that flags every point
    (``constant_detector/c2``) scores above :data:`OVERESTIMATION_F1` = 0.3 on
    the anchored scale.  That detector has no skill: under PW its F1 is the
    chance level 2q / (1 + q) = 0.1818 for the anomaly ratio q = 0.1 of the
    case.  0.3 is 1.65 times that level, so an evaluator may give some
    event-level credit (OIPR: 0.2378) but not rate the useless detector near
    the middle of the scale (TaPR: 0.7138, AM: 0.6724, both marked in Table
    A1).  On the anchored scale a metric that gives the all-1 detector what
    it gives the empty prediction (AUC-ROC's 0.5) reads 0: not overestimating.

    A metric that takes real scores (chance anchors given) reads the all-ones input, a constant
    score, against chance instead, as ``chance_ordering`` reads its constant: ``present`` when it
    lies above the chance anchor by more than :data:`CHANCE_MARGIN` (0.02) of the way to perfect,
    or three standard errors of the chance mean if more.
    """
    if obs.chance:
        return constant_against_chance(obs)
    return _overestimation(ALL_ONE_OVERESTIMATION, ALL_ONE, obs, "the all-1 detector")


def check_random_overestimation(obs: Observations) -> Finding:
    """Overestimation of the random detector (Appendix A, random detector; Table A1 markers).

    Rule: ``present`` when the mean score over the 100 runs of the random
    detector (2 % of points flagged at random) exceeds
    :data:`OVERESTIMATION_F1` = 0.3 on the anchored scale on either random
    case.  Its chance level under PW is about 0.02 (Table A1: 0.0220,
    0.0249); 0.3 sits well above what event-level credit gives a random
    detector in OIPR (0.1679) and below the marked overestimations (PA on c2:
    0.4428; AM: 0.4668, 0.6649).  The same level as for the all-1 detector:
    both detectors lack skill.  The evidence shows the random mean (the
    metric's expectation on random predictions) beside the empty prediction's
    value (anchor 0): for AUC-ROC both are 0.5, so the random detector reads 0.

    A metric that takes real scores reads the random detector on its chance-anchored scale with the
    same level 0.3 (a thresholding F1 on scores, like PA's F1, keeps the paper's marker).  But its
    chance is its mean over uninformative scores, so that reading alone would hide an inflation of
    chance itself (point-adjusted AUC-ROC).  It is also read on the metric's own range: 0 = the inverted input ``1 - y_true``,
    1 = ``y_pred = y_true``, and with it the uniform-random scores of the chance anchor on the
    same ground truths (a score metric's random detector).  An honest rank metric symmetric under
    inversion has its chance at the middle (AUC-ROC: 0.5); ``present`` when the first reading
    exceeds 0.3 (and three standard errors of the chance anchor), or when either random input
    lies above :data:`RANDOM_RANGE_LEVEL` = 0.5 + 0.3 / 2 = 0.65 on either case, i.e. more than
    :data:`OVERESTIMATION_F1` of the way from the middle of the range to perfect (point-adjusted
    AUC-ROC scores uniform-random scores 0.74 on random_detector/c1 and 0.98 on c2).  A range
    narrower than :data:`~oipr_bench.auditing.table5.chance.SATURATION_BAND` is saturated: without
    a ``present`` reading elsewhere, ``undetermined``.
    """
    if obs.chance:
        return random_on_range(obs)
    return _overestimation(RANDOM_OVERESTIMATION, RANDOM, obs, "the random detector (mean over runs)")
