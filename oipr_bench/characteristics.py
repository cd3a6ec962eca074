"""Rules that turn case scores into the characteristic profile of Table 5.

Each characteristic of the paper's Table 5 (plus the two overestimation
markers of Table A1) has one function ``check_<name>(obs)`` here.  It reads
the evaluator's scores on the special-scenario cases (Appendix A), applies the
rule stated in Appendix A for that characteristic, and returns a
:class:`Finding`: the observed value, the case ids and numbers it used, and a
one-line explanation.

Values
------
Beneficial characteristics take ``yes``/``no``, and ``piecewise`` (PA%K's
existence reward and overlap awareness), ``only_delay``/``only_early``
(ambiguous labels, TaPR).  Misleading characteristics take
``present``/``absent``, and ``mitigated`` (long anomaly misleading, OIPR).

Scalar scores
-------------
Each rule declares the quantities it reads (:data:`QUANTITIES`; see
:mod:`oipr_bench.readings`): the score (F1, or a scalar read on a common
higher-is-better scale), precision, recall or the per-event recall share.  A
rule that needs what the evaluator does not give returns ``not_applicable``
with the reason.  A tie is never a reward: a beneficial value needs a strict
difference, and "credit" means scoring above the empty prediction.

Thresholds
----------
Every threshold is a named module constant, justified in the docstring of the
rule that uses it.  With them, the seven built-in evaluators get exactly the
paper's Table 5 plus the two overestimation rows (70 of 70 cells; checked by
``tests/test_characteristics.py``, both on the paper's printed values and on
the evaluators' computed values).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from .score import Score
from .readings import (
    KIND_SCORE,
    PRECISION,
    RECALL,
    RECALL_SHARE,
    SCORE,
    Observations,
    level_of,
    recall_share,
    score_of,
)
from .vocabulary import (
    ABSENT,
    BENEFICIAL,
    CHARACTERISTICS,
    MISLEADING,
    MITIGATED,
    NOT_APPLICABLE,
    VALUES,
    YES,
    EXISTENCE_DETECTION_REWARD,
    OVERLAP_PROPORTION_AWARENESS,
    FRAGMENTS_MERGING,
    ADDRESSING_AMBIGUOUS_LABELS,
    EARLY_DETECTION_REWARD,
    FRAGMENTATION_MISLEADING_IN_PRECISION,
    LONG_ANOMALY_MISLEADING,
    SPARSE_ANOMALY_MISLEADING,
    ALL_ONE_OVERESTIMATION,
    RANDOM_OVERESTIMATION,
)

__all__ = [
    "CHARACTERISTICS",
    "BENEFICIAL",
    "MISLEADING",
    "VALUES",
    "DEFAULT_EXPECTED",
    "REQUIRED_CASES",
    "BASELINE_CASES",
    "Finding",
    "Observations",
    "RULES",
    "derive",
    "derive_all",
    "normalise_value",
    "SCORE_TOLERANCE",
    "MERGING_FACTOR",
    "MITIGATION_FACTOR",
    "OVERESTIMATION_F1",
    "NOT_APPLICABLE",
    "QUANTITIES",
    "NEEDS_BOUNDED",
    "ANCHOR_CASES",
    "not_applicable_reason",
    "scalar_answers",
]

#: The default expected profile: OIPR's row of Table 5 (every beneficial
#: characteristic, no misleading one; long anomaly misleading absent or mitigated).
DEFAULT_EXPECTED: dict[str, tuple[str, ...]] = {
    **{name: ("yes",) for name in BENEFICIAL},
    **{name: ("absent",) for name in MISLEADING},
    LONG_ANOMALY_MISLEADING: ("absent", "mitigated"),
}

#: Two scores closer than this are treated as equal (floating-point noise; the
#: smallest real gap the rules must see is OIPR's 3e-4 between tp_positions c2 and c3).
SCORE_TOLERANCE = 1e-6

#: Fragments merging: F1 on dispersed FPs must be at most this fraction of the
#: F1 on aggregated and on continuous FPs ("significantly lower", Appendix A).
MERGING_FACTOR = 0.75

#: Long anomaly misleading is "mitigated" when the long event's recall share on
#: long_anomaly_effect/c1 is at least this multiple of the equal-event share.
MITIGATION_FACTOR = 1.25

#: Overestimation: a detector without skill (all-1, random) scoring an F1 above this.
OVERESTIMATION_F1 = 0.3


@dataclass(frozen=True)
class Finding:
    """The observed value of one characteristic and the evidence behind it.

    Attributes
    ----------
    name : str
        Canonical characteristic name.
    value : str
        The observed value (one of :data:`VALUES` ``[name]``).
    cases : tuple of str
        The case ids the rule read.
    numbers : dict of str to float
        The numbers the rule compared, labelled like ``"F1 fragmented_fps/c1"``.
    explanation : str
        One line saying why the value is what it is.
    """

    name: str
    value: str
    cases: tuple[str, ...]
    numbers: dict[str, float]
    explanation: str

    def to_dict(self) -> dict[str, Any]:
        """Plain, JSON-ready form (NaN stored as ``None``)."""
        return {
            "name": self.name,
            "value": self.value,
            "cases": list(self.cases),
            "numbers": {k: (None if math.isnan(v) else v) for k, v in self.numbers.items()},
            "explanation": self.explanation,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Finding":
        """Inverse of :meth:`to_dict`."""
        numbers = {k: (math.nan if v is None else float(v)) for k, v in data["numbers"].items()}
        return cls(str(data["name"]), str(data["value"]), tuple(data["cases"]), numbers, str(data["explanation"]))


def normalise_value(value: str) -> str:
    """Lower-case a characteristic value and accept ``-``/space for ``_`` (``only-delay``)."""
    return str(value).strip().lower().replace("-", "_").replace(" ", "_")


# -- helpers -------------------------------------------------------------------------------------


def _gt(a: float, b: float) -> bool:
    """``a > b`` beyond :data:`SCORE_TOLERANCE`; False when either is NaN."""
    return a - b > SCORE_TOLERANCE


def _eq(a: float, b: float) -> bool:
    """``a == b`` within :data:`SCORE_TOLERANCE`; False when either is NaN."""
    return abs(a - b) <= SCORE_TOLERANCE


def _score(obs: Observations, case_id: str) -> Score:
    try:
        return obs.scores[case_id]
    except KeyError:
        raise KeyError(f"no score for case {case_id}") from None


def _label(obs: Observations) -> str:
    """How the rules' evidence names the score: ``F1`` for a P/R evaluator, ``score`` for a scalar."""
    return "score" if obs.scalar else "F1"


def _f1s(obs: Observations, case_ids: tuple[str, ...]) -> list[float]:
    """The oriented scores (F1, or the normalised scalar) of ``case_ids``."""
    return [score_of(obs, c) for c in case_ids]


def _numbers(obs: Observations, case_ids: tuple[str, ...], values: list[float]) -> dict[str, float]:
    """Evidence numbers: the oriented scores, and a scalar's raw values when they differ."""
    label = _label(obs)
    out = {f"{label} {c}": v for c, v in zip(case_ids, values)}
    if obs.scalar:
        for c, v in zip(case_ids, values):
            raw = float(_score(obs, c).f1)
            if not _same_float(raw, v):
                out[f"raw {c}"] = raw
    return out


def _same_float(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


def _fmt(x: float) -> str:
    return "nan" if math.isnan(x) else f"{x:.4f}"


def _not_applicable(name: str, cases: tuple[str, ...], reason: str) -> Finding:
    return Finding(name, NOT_APPLICABLE, cases, {}, reason)


def not_applicable_reason(name: str, obs: Observations) -> str:
    """Why rule ``name`` cannot be answered for ``obs`` (``""`` when it can)."""
    needs = set(QUANTITIES[name])
    if obs.scalar and needs & {PRECISION, RECALL}:
        which = " and ".join(q for q in (PRECISION, RECALL) if q in needs)
        return f"needs the {which} separately; a scalar score does not give it"
    if not obs.bounded and name in NEEDS_BOUNDED:
        return (f"compares the score with a fixed level on F1's [0, 1] scale ({NEEDS_BOUNDED[name]}); "
                "an unbounded score has no such scale")
    return ""


# -- the rules -----------------------------------------------------------------------------------

_OVERLAP = tuple(f"overlap_proportion/c{i}" for i in range(1, 5))
_FRAG_TPS = tuple(f"fragmented_tps/c{i}" for i in range(1, 4))
_FRAG_FPS = tuple(f"fragmented_fps/c{i}" for i in range(1, 4))
_SHIFT = ("temporal_shifting/c1", "temporal_shifting/c2")
_TP_POS = tuple(f"tp_positions/c{i}" for i in range(1, 5))
_LONG = ("long_anomaly_effect/c1", "long_anomaly_effect/c2")
_SPARSE = ("sparse_anomalies/c1", "sparse_anomalies/c2")
_ALL_ONE = ("constant_detector/c2",)
_RANDOM = ("random_detector/c1", "random_detector/c2")


def check_existence_detection_reward(obs: Observations) -> Finding:
    """Existence detection reward (Sec. III-C; Appendix A, overlap proportion).

    Rule: the evaluator rewards existence when its score on
    ``overlap_proportion/c1`` (only the first point of the 50-point event is
    detected) is higher than PW's F1 there -> ``yes``.  When c1 equals PW but
    a larger overlap (c2: 20 %, c3: 52 %) scores above PW, the reward only
    switches on beyond some share of the event -> ``piecewise`` (PA%K with
    K = 50: equal to PW on c1 and c2, 1.0 on c3; Table 5 footnote).
    Otherwise ``no``.  "Higher" means by more than :data:`SCORE_TOLERANCE`.

    A reward is for the detection: a case counts only when it also scores
    above the no-detection level (:func:`oipr_bench.readings.level_of`, 0 for
    F1), so a metric that scores the empty prediction as high gets ``no``.
    Reads the score on F1's scale, so an unbounded scalar is not applicable.
    """
    cases = _OVERLAP[:3]
    f1 = _f1s(obs, cases)
    pw = [float(obs.baseline[c].f1) for c in cases]
    level = level_of(obs, cases[0])
    label = _label(obs)
    numbers = _numbers(obs, cases, f1)
    numbers.update({f"PW F1 {c}": v for c, v in zip(cases, pw)})
    numbers["no-detection level"] = level
    rewarded = [_gt(a, b) and _gt(a, level) for a, b in zip(f1, pw)]
    if rewarded[0]:
        value, why = "yes", (f"{label} on c1 ({_fmt(f1[0])}) is above PW's ({_fmt(pw[0])}) and the no-detection level "
                             f"({_fmt(level)}): the first detected point is rewarded")
    elif any(rewarded[1:]):
        value, why = "piecewise", (
            f"{label} on c1 ({_fmt(f1[0])}) is not above PW's ({_fmt(pw[0])}), but a larger overlap scores above PW "
            f"(c2 {_fmt(f1[1])} vs {_fmt(pw[1])}, c3 {_fmt(f1[2])} vs {_fmt(pw[2])})"
        )
    else:
        value, why = "no", (f"{label} never exceeds PW's on c1-c3 (c1: {_fmt(f1[0])} vs {_fmt(pw[0])}) while above "
                            f"the no-detection level ({_fmt(level)})")
    return Finding(EXISTENCE_DETECTION_REWARD, value, cases, numbers, why)


def check_overlap_proportion_awareness(obs: Observations) -> Finding:
    """Overlapping proportion awareness (Sec. V-B; Appendix A, overlap proportion).

    Rule: the four cases detect 2 %, 20 %, 52 % and 100 % of one event.  The
    score strictly increasing over c1..c4 -> ``yes``; non-decreasing with at
    least one increase and at least one flat step -> ``piecewise`` (PA%K:
    rises up to c3 = 52 % > K, then flat); no increase at all, or any
    decrease -> ``no`` (PA: 1.0 everywhere).  Steps smaller than
    :data:`SCORE_TOLERANCE` count as flat, so a constant metric gets ``no``.
    """
    f1 = _f1s(obs, _OVERLAP)
    numbers = _numbers(obs, _OVERLAP, f1)
    steps = list(zip(f1, f1[1:]))
    ups = [_gt(b, a) for a, b in steps]
    flats = [_eq(a, b) for a, b in steps]
    shown = " / ".join(_fmt(v) for v in f1)
    label = _label(obs)
    if all(ups):
        value, why = "yes", f"{label} rises with every larger overlap (c1..c4: {shown})"
    elif any(ups) and all(u or fl for u, fl in zip(ups, flats)):
        value, why = "piecewise", f"{label} rises with overlap only over part of the range (c1..c4: {shown})"
    else:
        value, why = "no", f"{label} does not rise with overlap (c1..c4: {shown})"
    return Finding(OVERLAP_PROPORTION_AWARENESS, value, _OVERLAP, numbers, why)


def check_fragments_merging(obs: Observations) -> Finding:
    """Fragments merging (Sec. III-C; Appendix A, fragmented FPs).

    Rule: the three cases hold 10 false-positive points dispersed (c1, every
    30 points), aggregated (c2, every 2 points) and 20 continuous ones (c3).
    An evaluator that merges nearby fragments assigns c1 "a significantly
    lower" score than c2 and c3: ``yes`` when score(c1) is below both (by
    more than :data:`SCORE_TOLERANCE`; a tie is not lower) and at most
    :data:`MERGING_FACTOR` x min(score(c2), score(c3)), i.e. at least 25 %
    lower than both.  OIPR gives 0.3245 against 0.6739 and 0.6667 (ratio
    0.49); the event-based evaluators give c1 = c2 (ratio 1) and AM gives c1
    above both.  The ratio is taken on the common scale, whose 0 is the
    bottom of a bounded score or the empty prediction of an unbounded one.
    """
    f1 = _f1s(obs, _FRAG_FPS)
    numbers = _numbers(obs, _FRAG_FPS, f1)
    low = min(f1[1], f1[2])
    limit = MERGING_FACTOR * low
    shown = f"c1 {_fmt(f1[0])} vs c2 {_fmt(f1[1])}, c3 {_fmt(f1[2])}"
    if _gt(low, f1[0]) and f1[0] <= limit:
        value, why = "yes", f"dispersed FPs score markedly lower than aggregated/continuous ones ({shown})"
    else:
        value, why = "no", (f"dispersed FPs are not scored markedly lower (needs c1 below and <= {MERGING_FACTOR} x "
                            f"min(c2, c3); {shown})")
    return Finding(FRAGMENTS_MERGING, value, _FRAG_FPS, numbers, why)


def check_addressing_ambiguous_labels(obs: Observations) -> Finding:
    """Addressing ambiguous labels (Sec. V-B; Appendix A, temporal shifting).

    Rule: c1 detects each event 2 points early, c2 2 points late, with no
    overlap.  A shifted detection "earns credit" when it scores above the
    no-detection level of the case (0 for F1: "F1 > 0" in Appendix A) by
    more than :data:`SCORE_TOLERANCE`.  Credit in both -> ``yes``; only in
    the delayed case -> ``only_delay`` (TaPR: its ambiguous region follows
    the event end); only in the early case -> ``only_early``; in neither ->
    ``no``.
    """
    early, late = _f1s(obs, _SHIFT)
    level = level_of(obs, _SHIFT[0])
    numbers = _numbers(obs, _SHIFT, [early, late])
    numbers["no-detection level"] = level
    shown = f"early c1 {_fmt(early)}, delayed c2 {_fmt(late)}, no detection {_fmt(level)}"
    e, d = _gt(early, level), _gt(late, level)
    if e and d:
        value, why = "yes", f"both shifted detections earn credit ({shown})"
    elif d:
        value, why = "only_delay", f"only the delayed detection earns credit ({shown})"
    elif e:
        value, why = "only_early", f"only the early detection earns credit ({shown})"
    else:
        value, why = "no", f"neither shifted detection earns credit ({shown})"
    return Finding(ADDRESSING_AMBIGUOUS_LABELS, value, _SHIFT, numbers, why)


def check_early_detection_reward(obs: Observations) -> Finding:
    """Early detection reward (Sec. V-B; Appendix A, TP positions).

    Rule: a 30-point event is detected by one point at its 1st, 6th, 25th and
    last point (c1..c4).  ``yes`` when the score is strictly decreasing over
    c1..c4 ("the highest f1-score to c1, followed by c2, c3, and c4"), each
    step by more than :data:`SCORE_TOLERANCE`; otherwise ``no`` (AM rises
    from c1 to c2, so it does not qualify).
    """
    f1 = _f1s(obs, _TP_POS)
    numbers = _numbers(obs, _TP_POS, f1)
    shown = " / ".join(_fmt(v) for v in f1)
    if all(_gt(a, b) for a, b in zip(f1, f1[1:])):
        value, why = "yes", f"earlier detection scores strictly higher (c1..c4: {shown})"
    else:
        value, why = "no", f"{_label(obs)} is not strictly decreasing with later detection (c1..c4: {shown})"
    return Finding(EARLY_DETECTION_REWARD, value, _TP_POS, numbers, why)


def check_fragmentation_misleading_in_precision(obs: Observations) -> Finding:
    """Fragmentation misleading in precision (Sec. V-B; Appendix A, fragmented TPs).

    Rule: one 30-point event detected as 1 complete event (c1), 3 fragments
    (c2) and 6 fragments (c3), each with one FP point.  ``present`` when the
    precision of c2 and of c3 are both higher than that of c1 (by more than
    :data:`SCORE_TOLERANCE`): splitting a detection inflates precision.
    Reads precision, so a scalar score is not applicable.
    """
    p = [float(_score(obs, c).precision) for c in _FRAG_TPS]
    numbers = {f"P {c}": v for c, v in zip(_FRAG_TPS, p)}
    shown = f"c1 {_fmt(p[0])}, c2 {_fmt(p[1])}, c3 {_fmt(p[2])}"
    if _gt(p[1], p[0]) and _gt(p[2], p[0]):
        value, why = "present", f"fragmented detections get higher precision than the complete one ({shown})"
    else:
        value, why = "absent", f"fragmenting the detection does not raise precision ({shown})"
    return Finding(FRAGMENTATION_MISLEADING_IN_PRECISION, value, _FRAG_TPS, numbers, why)


def check_long_anomaly_misleading(obs: Observations) -> Finding:
    """Long anomaly misleading (Sec. III-B; Appendix A, long anomaly effect).

    Rule: one 10-point event and six 1-point events; c1 detects only the long
    one, c2 only the six short ones.  ``present`` when score(c1) > score(c2):
    a detector that finds one long anomaly beats one that finds six short
    ones.  Otherwise the long event may still weigh more than the others: its
    share of the recall is the recall on c1 relative to the empty and the
    perfect prediction (:func:`oipr_bench.readings.recall_share`; the recall
    itself for the built-ins).  An event-based evaluator gives it the equal
    share 1/n (n = 7 events, 0.1429); ``mitigated`` when the share is at
    least :data:`MITIGATION_FACTOR` x 1/n (OIPR: 0.2172, 1.52 times the equal
    share, Table 5 "Mitigated"), else ``absent``.  The factor 1.25 leaves
    room for rounding in evaluators that mean "equal" yet lies well below
    OIPR's ratio.  A metric whose recall does not move between the empty and
    the perfect prediction has no share (NaN): ``absent``.

    A scalar score answers ``present``; when the short anomalies win it
    cannot tell ``mitigated`` from ``absent`` (that needs recall), so the
    value is ``not_applicable``.
    """
    (c1, c2) = _LONG
    f1 = _f1s(obs, _LONG)
    label = _label(obs)
    n = int(obs.true_events[c1])
    equal = 1.0 / n
    numbers = _numbers(obs, _LONG, f1)
    shown = f"{label} {_fmt(f1[0])} vs {_fmt(f1[1])}"
    if _gt(f1[0], f1[1]):
        why = f"detecting only the long anomaly beats detecting the {n - 1} short ones ({shown})"
        return Finding(LONG_ANOMALY_MISLEADING, "present", _LONG, numbers, why)
    if obs.scalar:
        why = (f"the long anomaly does not win ({shown}); telling absent from mitigated needs its share of the recall, "
               "which a scalar score does not give")
        return Finding(LONG_ANOMALY_MISLEADING, NOT_APPLICABLE, _LONG, numbers, why)
    share = recall_share(obs, c1)
    numbers.update({f"R {c1}": float(_score(obs, c1).recall), "recall share": share, "equal-event share": equal})
    if share >= MITIGATION_FACTOR * equal:
        value, why = "mitigated", (
            f"the short anomalies win ({shown}), but the long one keeps a recall share of "
            f"{_fmt(share)} >= {MITIGATION_FACTOR} x 1/{n}"
        )
    else:
        value, why = "absent", (
            f"the short anomalies win ({shown}) and the long one counts as one event of {n} "
            f"(recall share {_fmt(share)})"
        )
    return Finding(LONG_ANOMALY_MISLEADING, value, _LONG, numbers, why)


def check_sparse_anomaly_misleading(obs: Observations) -> Finding:
    """Sparse anomaly misleading (Sec. V-B; Appendix A, sparse anomalies).

    Rule: two widely spaced events, one detected and one missed; c2 adds one
    FP point to c1.  An extra false positive must not help: ``present`` when
    score(c2) > score(c1) (by more than :data:`SCORE_TOLERANCE`), else ``absent``.
    """
    f1 = _f1s(obs, _SPARSE)
    numbers = _numbers(obs, _SPARSE, f1)
    label = _label(obs)
    shown = f"c1 {_fmt(f1[0])}, c2 with an extra FP {_fmt(f1[1])}"
    if _gt(f1[1], f1[0]):
        value, why = "present", f"an extra false positive raises {label} ({shown})"
    else:
        value, why = "absent", f"an extra false positive does not raise {label} ({shown})"
    return Finding(SPARSE_ANOMALY_MISLEADING, value, _SPARSE, numbers, why)


def _overestimation(name: str, cases: tuple[str, ...], obs: Observations, what: str) -> Finding:
    f1 = _f1s(obs, cases)
    numbers = _numbers(obs, cases, f1)
    label = _label(obs)
    worst = max((v for v in f1 if not math.isnan(v)), default=math.nan)
    shown = ", ".join(f"{c} {_fmt(v)}" for c, v in zip(cases, f1))
    if not math.isnan(worst) and worst > OVERESTIMATION_F1:
        value, why = "present", f"{what} scores {label} above {OVERESTIMATION_F1} ({shown})"
    else:
        value, why = "absent", f"{what} stays at or below {label} {OVERESTIMATION_F1} ({shown})"
    return Finding(name, value, cases, numbers, why)


def check_all_one_overestimation(obs: Observations) -> Finding:
    """Overestimation of the all-1 detector (Appendix A, constant detectors; Table A1 markers).

    Rule: ``present`` when the detector that flags every point
    (``constant_detector/c2``) gets F1 above :data:`OVERESTIMATION_F1` = 0.3.
    That detector has no skill: under PW its F1 is the chance level
    2q / (1 + q) = 0.1818 for the anomaly ratio q = 0.1 of the case.  0.3 is
    1.65 times that level, so an evaluator may give some event-level credit
    (OIPR: 0.2378) but not rate the useless detector near the middle of the
    scale (TaPR: 0.7138, AM: 0.6724, both marked in Table A1).  A bounded
    scalar is read on the same [0, 1] scale; an unbounded one is not applicable.
    """
    return _overestimation(ALL_ONE_OVERESTIMATION, _ALL_ONE, obs, "the all-1 detector")


def check_random_overestimation(obs: Observations) -> Finding:
    """Overestimation of the random detector (Appendix A, random detector; Table A1 markers).

    Rule: ``present`` when the mean F1 over the 100 runs of the random
    detector (2 % of points flagged at random) exceeds
    :data:`OVERESTIMATION_F1` = 0.3 on either random case.  Its chance level
    under PW is about 0.02 (Table A1: 0.0220, 0.0249); 0.3 sits well above
    what event-level credit gives a random detector in OIPR (0.1679) and
    below the marked overestimations (PA on c2: 0.4428; AM: 0.4668, 0.6649).
    The same level as for the all-1 detector: both detectors lack skill.
    """
    return _overestimation(RANDOM_OVERESTIMATION, _RANDOM, obs, "the random detector (mean over runs)")


#: The rule of each characteristic.
RULES: dict[str, Callable[[Observations], Finding]] = {
    EXISTENCE_DETECTION_REWARD: check_existence_detection_reward,
    OVERLAP_PROPORTION_AWARENESS: check_overlap_proportion_awareness,
    FRAGMENTS_MERGING: check_fragments_merging,
    ADDRESSING_AMBIGUOUS_LABELS: check_addressing_ambiguous_labels,
    EARLY_DETECTION_REWARD: check_early_detection_reward,
    FRAGMENTATION_MISLEADING_IN_PRECISION: check_fragmentation_misleading_in_precision,
    LONG_ANOMALY_MISLEADING: check_long_anomaly_misleading,
    SPARSE_ANOMALY_MISLEADING: check_sparse_anomaly_misleading,
    ALL_ONE_OVERESTIMATION: check_all_one_overestimation,
    RANDOM_OVERESTIMATION: check_random_overestimation,
}

#: The quantities each rule reads (:mod:`oipr_bench.readings`).
QUANTITIES: dict[str, tuple[str, ...]] = {
    EXISTENCE_DETECTION_REWARD: (SCORE,),
    OVERLAP_PROPORTION_AWARENESS: (SCORE,),
    FRAGMENTS_MERGING: (SCORE,),
    ADDRESSING_AMBIGUOUS_LABELS: (SCORE,),
    EARLY_DETECTION_REWARD: (SCORE,),
    FRAGMENTATION_MISLEADING_IN_PRECISION: (PRECISION,),
    LONG_ANOMALY_MISLEADING: (SCORE, RECALL_SHARE),
    SPARSE_ANOMALY_MISLEADING: (SCORE,),
    ALL_ONE_OVERESTIMATION: (SCORE,),
    RANDOM_OVERESTIMATION: (SCORE,),
}

#: Rules that compare the score with a fixed level on F1's scale, and that level:
#: not applicable to an unbounded scalar.
NEEDS_BOUNDED: dict[str, str] = {
    EXISTENCE_DETECTION_REWARD: "PW's F1",
    ALL_ONE_OVERESTIMATION: f"F1 {OVERESTIMATION_F1}",
    RANDOM_OVERESTIMATION: f"F1 {OVERESTIMATION_F1}",
}

#: Case ids whose evaluator scores each rule reads.
REQUIRED_CASES: dict[str, tuple[str, ...]] = {
    EXISTENCE_DETECTION_REWARD: _OVERLAP[:3],
    OVERLAP_PROPORTION_AWARENESS: _OVERLAP,
    FRAGMENTS_MERGING: _FRAG_FPS,
    ADDRESSING_AMBIGUOUS_LABELS: _SHIFT,
    EARLY_DETECTION_REWARD: _TP_POS,
    FRAGMENTATION_MISLEADING_IN_PRECISION: _FRAG_TPS,
    LONG_ANOMALY_MISLEADING: _LONG,
    SPARSE_ANOMALY_MISLEADING: _SPARSE,
    ALL_ONE_OVERESTIMATION: _ALL_ONE,
    RANDOM_OVERESTIMATION: _RANDOM,
}

#: Case ids whose anchors (the evaluator on the empty prediction and on ``y_pred = y_true`` for
#: the case's ground truth) a rule reads; an unbounded scalar reads them for every case it needs.
ANCHOR_CASES: dict[str, tuple[str, ...]] = {name: () for name in CHARACTERISTICS}
ANCHOR_CASES[EXISTENCE_DETECTION_REWARD] = _OVERLAP[:1]
ANCHOR_CASES[ADDRESSING_AMBIGUOUS_LABELS] = _SHIFT[:1]
ANCHOR_CASES[LONG_ANOMALY_MISLEADING] = _LONG[:1]

#: Case ids whose PW (baseline) scores a rule reads.
BASELINE_CASES: dict[str, tuple[str, ...]] = {name: () for name in CHARACTERISTICS}
BASELINE_CASES[EXISTENCE_DETECTION_REWARD] = _OVERLAP[:3]


def derive(name: str, obs: Observations) -> Finding:
    """Apply the rule of characteristic ``name`` to ``obs``.

    A rule that needs a quantity ``obs`` does not have (precision of a
    scalar, a fixed F1 level for an unbounded score) gives a
    ``not_applicable`` finding with the reason.

    Raises
    ------
    KeyError
        Unknown characteristic, or a score the rule needs is missing.
    """
    if name not in RULES:
        raise KeyError(f"unknown characteristic {name!r}; known: {', '.join(CHARACTERISTICS)}")
    reason = not_applicable_reason(name, obs)
    if reason:
        return _not_applicable(name, REQUIRED_CASES[name], reason)
    return RULES[name](obs)


def derive_all(obs: Observations) -> dict[str, Finding]:
    """Apply every rule; returns ``{name: Finding}`` in :data:`CHARACTERISTICS` order."""
    return {name: derive(name, obs) for name in CHARACTERISTICS}


def scalar_answers(bounded: bool = True) -> tuple[str, ...]:
    """The characteristics a scalar score can answer (bounded or not), in report order.

    ``long_anomaly_misleading`` is listed: a scalar answers ``present``, and
    ``not_applicable`` when it would need recall to go further.
    """
    obs = Observations({}, kind=KIND_SCORE, bounds=(0.0, 1.0) if bounded else (0.0, math.inf))
    return tuple(n for n in CHARACTERISTICS if not not_applicable_reason(n, obs))
