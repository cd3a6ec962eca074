"""Rules that turn case scores into the characteristic profile of Table 5.

Each characteristic of the paper's Table 5 (plus the two overestimation
markers of Table A1) has one function ``check_<name>(obs)`` (in
:mod:`oipr_bench.auditing.table5.rules`, re-exported here).  It reads
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
:mod:`oipr_bench.auditing.table5.readings`): the score (read on the metric's own anchored
scale: 0 = its uninformative input, 1 = the perfect one; the uninformative input is the empty
prediction for a metric taking 0/1 predictions, so F1 is unchanged, and chance, the mean over
seeded uniform-random scores, for one taking scores; a saturated case is ``undetermined``),
precision, recall or the per-event recall share.  A rule that needs what the
evaluator does not give returns ``not_applicable`` with the reason; one whose
numbers are NaN or whose scale is undefined returns ``undetermined`` with the
reason.  A tie is never a reward: a beneficial value needs a strict difference
of at least :data:`MIN_EFFECT` on the anchored scale, and "credit" means
scoring above the scale's 0.

Thresholds
----------
Every threshold is a named constant (:mod:`oipr_bench.auditing.table5.findings`, re-exported
here), justified in the docstring of the rule that uses it.  With them, the seven built-in evaluators get exactly the
paper's Table 5 plus the two overestimation rows (70 of 70 cells; checked by
``tests/test_characteristics.py``, both on the paper's printed values and on
the evaluators' computed values).
"""

from __future__ import annotations

import math
from typing import Callable

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
    SCORE_TOLERANCE,
    SHIFT,
    SPARSE,
    TP_POS,
    Finding,
    normalise_value,
)
from .readings import KIND_SCORE, PRECISION, RECALL, RECALL_SHARE, SCORE, Observations
from .scale_guard import guarded
from .rules import (
    check_addressing_ambiguous_labels,
    check_all_one_overestimation,
    check_early_detection_reward,
    check_existence_detection_reward,
    check_fragmentation_misleading_in_precision,
    check_fragments_merging,
    check_long_anomaly_misleading,
    check_overlap_proportion_awareness,
    check_random_overestimation,
    check_sparse_anomaly_misleading,
)
from ...vocabulary import (
    ABSENT,
    ADDRESSING_AMBIGUOUS_LABELS,
    ALL_ONE_OVERESTIMATION,
    BENEFICIAL,
    CHARACTERISTICS,
    EARLY_DETECTION_REWARD,
    EXISTENCE_DETECTION_REWARD,
    FRAGMENTATION_MISLEADING_IN_PRECISION,
    FRAGMENTS_MERGING,
    LONG_ANOMALY_MISLEADING,
    MISLEADING,
    MITIGATED,
    NOT_APPLICABLE,
    OVERLAP_PROPORTION_AWARENESS,
    RANDOM_OVERESTIMATION,
    SPARSE_ANOMALY_MISLEADING,
    VALUES,
    YES,
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
    "MIN_EFFECT",
    "MERGING_FACTOR",
    "MITIGATION_FACTOR",
    "OVERESTIMATION_F1",
    "NOT_APPLICABLE",
    "QUANTITIES",
    "ANCHOR_CASES",
    "not_applicable_reason",
    "scalar_answers",
    "check_existence_detection_reward",
    "check_overlap_proportion_awareness",
    "check_fragments_merging",
    "check_addressing_ambiguous_labels",
    "check_early_detection_reward",
    "check_fragmentation_misleading_in_precision",
    "check_long_anomaly_misleading",
    "check_sparse_anomaly_misleading",
    "check_all_one_overestimation",
    "check_random_overestimation",
]

#: The default expected profile: OIPR's row of Table 5 (every beneficial
#: characteristic, no misleading one; long anomaly misleading absent or mitigated).
DEFAULT_EXPECTED: dict[str, tuple[str, ...]] = {
    **{name: (YES,) for name in BENEFICIAL},
    **{name: (ABSENT,) for name in MISLEADING},
    LONG_ANOMALY_MISLEADING: (ABSENT, MITIGATED),
}

def _not_applicable(name: str, cases: tuple[str, ...], reason: str) -> Finding:
    return Finding(name, NOT_APPLICABLE, cases, {}, reason)


def not_applicable_reason(name: str, obs: Observations) -> str:
    """Why rule ``name`` cannot be answered for ``obs`` (``""`` when it can)."""
    needs = set(QUANTITIES[name])
    if obs.scalar and needs & {PRECISION, RECALL}:
        which = " and ".join(q for q in (PRECISION, RECALL) if q in needs)
        return f"needs the {which} separately; a scalar score does not give it"
    return ""


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

#: The quantities each rule reads (:mod:`oipr_bench.auditing.table5.readings`).
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

#: Case ids whose evaluator scores each rule reads.
REQUIRED_CASES: dict[str, tuple[str, ...]] = {
    EXISTENCE_DETECTION_REWARD: OVERLAP[:3],
    OVERLAP_PROPORTION_AWARENESS: OVERLAP,
    FRAGMENTS_MERGING: FRAG_FPS,
    ADDRESSING_AMBIGUOUS_LABELS: SHIFT,
    EARLY_DETECTION_REWARD: TP_POS,
    FRAGMENTATION_MISLEADING_IN_PRECISION: FRAG_TPS,
    LONG_ANOMALY_MISLEADING: LONG,
    SPARSE_ANOMALY_MISLEADING: SPARSE,
    ALL_ONE_OVERESTIMATION: ALL_ONE,
    RANDOM_OVERESTIMATION: RANDOM,
}

#: Case ids whose anchors (the evaluator on the empty prediction and on ``y_pred = y_true`` for
#: the case's ground truth) a rule reads: every case whose score or recall share it reads.
ANCHOR_CASES: dict[str, tuple[str, ...]] = {
    name: (REQUIRED_CASES[name] if set(QUANTITIES[name]) & {SCORE, RECALL_SHARE} else ()) for name in CHARACTERISTICS
}

#: Case ids whose PW (baseline) scores a rule reads.
BASELINE_CASES: dict[str, tuple[str, ...]] = {name: () for name in CHARACTERISTICS}
BASELINE_CASES[EXISTENCE_DETECTION_REWARD] = OVERLAP[:3]


def derive(name: str, obs: Observations) -> Finding:
    """Apply the rule of characteristic ``name`` to ``obs``.

    A rule that needs a quantity ``obs`` does not have (precision of a
    scalar) gives a ``not_applicable`` finding with the reason; one that
    cannot read its numbers (NaN, an undefined scale) an ``undetermined`` one, and so does a
    verdict whose scale is not usable on a case it read (uninformative input above the perfect
    one, or a level against chance on a span its standard error can move:
    :func:`~oipr_bench.auditing.table5.scale_guard.guarded`).

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
    return guarded(RULES[name](obs), obs.higher_is_better, obs.scalar)


def derive_all(obs: Observations) -> dict[str, Finding]:
    """Apply every rule; returns ``{name: Finding}`` in :data:`CHARACTERISTICS` order."""
    return {name: derive(name, obs) for name in CHARACTERISTICS}


def scalar_answers(bounded: bool = True) -> tuple[str, ...]:
    """The characteristics a scalar score can answer (bounded or not: the same), in report order.

    ``long_anomaly_misleading`` is listed: a scalar answers ``present``, and
    ``not_applicable`` when it would need recall to go further.  Every score is read on
    its anchored scale, so an unbounded score answers what a bounded one does.
    """
    obs = Observations({}, kind=KIND_SCORE, bounds=(0.0, 1.0) if bounded else (0.0, math.inf))
    return tuple(n for n in CHARACTERISTICS if not not_applicable_reason(n, obs))
