"""The words oipr-bench uses, defined once.

Every other module imports these names instead of spelling them out:

- the ten characteristics of the paper's Table 5 (plus Table A1's two
  overestimation markers), their kinds and the values each can take;
- the sanity checks an audit runs;
- the status of a call on a case (:data:`CASE_STATUSES`), and the status of a
  characteristic, sanity check or reference comparison (:data:`ITEM_STATUSES`).

The names are plain strings (they are written as such into JSON reports,
``schema/report.schema.json``), grouped into tuples that fix the report order.
"""

from __future__ import annotations

__all__ = [
    "BENEFICIAL",
    "MISLEADING",
    "CHARACTERISTICS",
    "KIND_BENEFICIAL",
    "KIND_MISLEADING",
    "KINDS",
    "kind_of",
    "VALUES",
    "SANITY_CHECKS",
    "PROPERTY_SEARCH",
    "PROPERTIES",
    "METRIC_PROPERTIES",
    "PROPERTY_VALUES",
    "SUITES",
    "CASE_STATUSES",
    "ITEM_STATUSES",
    "FAMILIES",
]

# -- characteristics (Table 5 rows, then Table A1's two overestimation markers) -------------------

EXISTENCE_DETECTION_REWARD = "existence_detection_reward"
OVERLAP_PROPORTION_AWARENESS = "overlap_proportion_awareness"
FRAGMENTS_MERGING = "fragments_merging"
ADDRESSING_AMBIGUOUS_LABELS = "addressing_ambiguous_labels"
EARLY_DETECTION_REWARD = "early_detection_reward"
FRAGMENTATION_MISLEADING_IN_PRECISION = "fragmentation_misleading_in_precision"
LONG_ANOMALY_MISLEADING = "long_anomaly_misleading"
SPARSE_ANOMALY_MISLEADING = "sparse_anomaly_misleading"
ALL_ONE_OVERESTIMATION = "all_one_overestimation"
RANDOM_OVERESTIMATION = "random_overestimation"

#: Beneficial characteristics, in Table 5's row order.
BENEFICIAL: tuple[str, ...] = (
    EXISTENCE_DETECTION_REWARD,
    OVERLAP_PROPORTION_AWARENESS,
    FRAGMENTS_MERGING,
    ADDRESSING_AMBIGUOUS_LABELS,
    EARLY_DETECTION_REWARD,
)
#: Misleading characteristics: Table 5's three rows, then Table A1's two overestimation markers.
MISLEADING: tuple[str, ...] = (
    FRAGMENTATION_MISLEADING_IN_PRECISION,
    LONG_ANOMALY_MISLEADING,
    SPARSE_ANOMALY_MISLEADING,
    ALL_ONE_OVERESTIMATION,
    RANDOM_OVERESTIMATION,
)
#: The ten canonical characteristic names, in report order.
CHARACTERISTICS: tuple[str, ...] = BENEFICIAL + MISLEADING

#: The kind of a characteristic: a property an evaluator should have, or one it should not.
KIND_BENEFICIAL = "beneficial"
KIND_MISLEADING = "misleading"
KINDS: tuple[str, ...] = (KIND_BENEFICIAL, KIND_MISLEADING)


def kind_of(name: str) -> str:
    """:data:`KIND_BENEFICIAL` or :data:`KIND_MISLEADING` for a characteristic name.

    Raises
    ------
    KeyError
        ``name`` is not one of :data:`CHARACTERISTICS`.
    """
    if name in BENEFICIAL:
        return KIND_BENEFICIAL
    if name in MISLEADING:
        return KIND_MISLEADING
    raise KeyError(f"unknown characteristic {name!r}; known: {', '.join(CHARACTERISTICS)}")


# -- characteristic values -------------------------------------------------------------------------

YES, NO, PIECEWISE, ONLY_DELAY, ONLY_EARLY = "yes", "no", "piecewise", "only_delay", "only_early"
PRESENT, ABSENT, MITIGATED = "present", "absent", "mitigated"

#: The value of a characteristic whose rule needs a quantity the evaluator does not give
#: (precision of a scalar score; a fixed F1 level for an unbounded one): also its status.
NOT_APPLICABLE = "not_applicable"

#: Values each characteristic can take (Table 5; ``piecewise`` and ``only_delay``
#: from its footnotes, ``mitigated`` for OIPR's long-anomaly row).
VALUES: dict[str, tuple[str, ...]] = {
    EXISTENCE_DETECTION_REWARD: (YES, NO, PIECEWISE),
    OVERLAP_PROPORTION_AWARENESS: (YES, NO, PIECEWISE),
    FRAGMENTS_MERGING: (YES, NO),
    ADDRESSING_AMBIGUOUS_LABELS: (YES, NO, ONLY_DELAY, ONLY_EARLY),
    EARLY_DETECTION_REWARD: (YES, NO),
    FRAGMENTATION_MISLEADING_IN_PRECISION: (PRESENT, ABSENT),
    LONG_ANOMALY_MISLEADING: (PRESENT, ABSENT, MITIGATED),
    SPARSE_ANOMALY_MISLEADING: (PRESENT, ABSENT),
    ALL_ONE_OVERESTIMATION: (PRESENT, ABSENT),
    RANDOM_OVERESTIMATION: (PRESENT, ABSENT),
}
#: Every characteristic can be not applicable (to scalar scores).
VALUES = {name: values + (NOT_APPLICABLE,) for name, values in VALUES.items()}

# -- sanity checks ---------------------------------------------------------------------------------

PERFECT = "perfect"
#: The perfect detection scores strictly better than no detection and the all-ones detector.
DISCRIMINATES = "discriminates"
DETERMINISTIC = "deterministic"
#: No NaN where the value is defined (a 0/0 quantity is the only NaN a result may hold): its own finding, so that
#: ``deterministic`` fails only when two calls on one input differ.
NO_NAN = "no_nan"
NO_MUTATION = "no_mutation"
BOOL_INT = "bool_int"
HARMONIC_F1 = "harmonic_f1"
#: The opt-in check that searches random inputs (hypothesis) for broken model-free properties.
PROPERTY_SEARCH = "property-search"

#: The sanity checks every audit runs, in report order (:mod:`oipr_bench.auditing.profile.sanity`).
SANITY_CHECKS: tuple[str, ...] = (PERFECT, DISCRIMINATES, DETERMINISTIC, NO_NAN, NO_MUTATION, BOOL_INT, HARMONIC_F1)

#: The model-free properties the property search looks for (:mod:`oipr_bench.auditing.properties.search`), in report order.
VALID_RESULT = "valid_result"
PERFECT_PREDICTION = "perfect_prediction"
PROPERTIES: tuple[str, ...] = (VALID_RESULT, PERFECT_PREDICTION, DETERMINISTIC, NO_MUTATION)

# -- metric properties beyond Table 5 (:mod:`oipr_bench.auditing.properties.run`) ------------

LAG_TOLERANCE = "lag_tolerance"
FP_DISTANCE = "fp_distance"
SPILL_OVER = "spill_over"
REDUNDANCY = "redundancy"
NORMAL_PADDING = "normal_padding"
TIME_REVERSAL = "time_reversal"
LABEL_SWAP_DUALITY = "label_swap_duality"
CONCATENATION = "concatenation"
RANKING_CONSISTENCY = "ranking_consistency"
NOISE_ROBUSTNESS = "noise_robustness"
TRANSFORM_INVARIANCE = "transform_invariance"
TIES = "ties"
CHANCE_ORDERING = "chance_ordering"

#: The metric properties, in report order: binary-or-both first, then those on real scores.
METRIC_PROPERTIES: tuple[str, ...] = (
    LAG_TOLERANCE, FP_DISTANCE, SPILL_OVER, REDUNDANCY, NORMAL_PADDING, TIME_REVERSAL, LABEL_SWAP_DUALITY,
    CONCATENATION, RANKING_CONSISTENCY, NOISE_ROBUSTNESS, TRANSFORM_INVARIANCE, TIES, CHANCE_ORDERING,
)

# Property values: how a score curve moves, and the named outcomes of each property.
FLAT, IRREGULAR = "flat", "irregular"
SYMMETRIC_DECAY, FAVOURS_EARLY, FAVOURS_LATE = "symmetric_decay", "favours_early", "favours_late"
PROXIMITY_REWARDING, PROXIMITY_AWARE, DISTANCE_BLIND, FAR_PREFERRED = (
    "proximity_rewarding", "proximity_aware", "distance_blind", "far_preferred")
PENALISED, FREE, REWARDED, NEUTRAL = "penalised", "free", "rewarded", "neutral"
INVARIANT, SENSITIVE, NOT_INVARIANT = "invariant", "sensitive", "not_invariant"
DIRECTION_SENSITIVE = "direction_sensitive"
DUAL, NOT_DUAL = "dual", "not_dual"
MICRO, MACRO, NEITHER = "micro", "macro", "neither"
CONSISTENT, WEAK, INSENSITIVE, INCONSISTENT = "consistent", "weak", "insensitive", "inconsistent"
ROBUST = "robust"
TIE_NEUTRAL, OPTIMISTIC, PESSIMISTIC = "tie_neutral", "optimistic", "pessimistic"
ORDERED, CONSTANT_OVERRATED, DISORDERED = "ordered", "constant_overrated", "disordered"
#: Chance ordering: random scores rated far above the middle of the metric's own range.
RANDOM_INFLATED = "random_inflated"

#: Values each property can take (every one can also be not applicable: a score property for a
#: metric that takes 0/1 predictions, a precision/recall property for a one-number metric).
PROPERTY_VALUES: dict[str, tuple[str, ...]] = {
    LAG_TOLERANCE: (SYMMETRIC_DECAY, FAVOURS_EARLY, FAVOURS_LATE, FLAT, IRREGULAR),
    FP_DISTANCE: (PROXIMITY_REWARDING, PROXIMITY_AWARE, DISTANCE_BLIND, FAR_PREFERRED, IRREGULAR),
    SPILL_OVER: (PENALISED, FREE, REWARDED, IRREGULAR),
    REDUNDANCY: (NEUTRAL, PENALISED, REWARDED, IRREGULAR),
    NORMAL_PADDING: (INVARIANT, SENSITIVE),
    TIME_REVERSAL: (NEUTRAL, DIRECTION_SENSITIVE),
    LABEL_SWAP_DUALITY: (DUAL, NOT_DUAL),
    CONCATENATION: (MICRO, MACRO, NEITHER),
    RANKING_CONSISTENCY: (CONSISTENT, WEAK, INSENSITIVE, INCONSISTENT),
    NOISE_ROBUSTNESS: (ROBUST, SENSITIVE),
    TRANSFORM_INVARIANCE: (INVARIANT, NOT_INVARIANT),
    TIES: (TIE_NEUTRAL, OPTIMISTIC, PESSIMISTIC),
    CHANCE_ORDERING: (ORDERED, CONSTANT_OVERRATED, RANDOM_INFLATED, DISORDERED),
}
PROPERTY_VALUES = {name: values + (NOT_APPLICABLE,) for name, values in PROPERTY_VALUES.items()}

#: What an audit runs: the paper's Table 5 (the default), the metric properties, or both.
SUITE_TABLE5, SUITE_PROPERTIES, SUITE_ALL = "table5", "properties", "all"
SUITES: tuple[str, ...] = (SUITE_TABLE5, SUITE_PROPERTIES, SUITE_ALL)

# -- the status of one case (the outcome of the evaluator's calls on it) -----------------------------

OK = "ok"
RAISED = "raised"
BAD_RESULT = "bad_result"
MUTATED = "mutated"
TIMED_OUT = "timed_out"
CRASHED = "crashed"

#: Every case status, ``ok`` first.
CASE_STATUSES: tuple[str, ...] = (OK, RAISED, BAD_RESULT, MUTATED, TIMED_OUT, CRASHED)

# -- the status of a characteristic, sanity check or reference comparison ---------------------------

PASSED = "passed"
FAILED = "failed"
#: A characteristic shows the deviation the user declared (pytest: xfail).
DEVIATION = "deviation"
#: A characteristic declared to deviate shows the default value after all (pytest: XPASS).
UNEXPECTED_PASS = "unexpected_pass"
#: Could not be decided: the cases it needs failed, or a check observed nothing.
UNDETERMINED = "undetermined"
#: Not run in this session (e.g. deselected with ``-k``).
NOT_RUN = "not_run"
#: A metric property observed without a declared expectation: reported, never failed.
REPORTED = "reported"

#: Every item status.
ITEM_STATUSES: tuple[str, ...] = (PASSED, FAILED, DEVIATION, UNEXPECTED_PASS, UNDETERMINED, NOT_APPLICABLE, NOT_RUN,
                                  REPORTED)


# -- differential families (oipr_bench.testing.families; items differential[<family>]) -------------
RANDOM_DENSITY = "random_density"
CLOSE_EVENTS = "close_events"
K_BOUNDARY = "k_boundary"
BOUNDARY_EVENTS = "boundary_events"
ONE_POINT_EVENTS = "one_point_events"
NO_ANOMALY = "no_anomaly"
CONSTANT_PREDICTIONS = "constant_predictions"
LONG_SERIES = "long_series"
CARDINALITY = "cardinality"
PERCENT_BOUNDARY = "percent_boundary"
MANY_EVENTS = "many_events"
#: The named families of generated series pairs a differential run compares, in report order (the
#: slowest for a loop-by-loop evaluator last).  Their seed numbers are the order they were added in (``testing.families.SEED_NUMBERS``).
FAMILIES: tuple[str, ...] = (RANDOM_DENSITY, CLOSE_EVENTS, K_BOUNDARY, BOUNDARY_EVENTS, ONE_POINT_EVENTS, NO_ANOMALY,
                             CONSTANT_PREDICTIONS, PERCENT_BOUNDARY, CARDINALITY, LONG_SERIES, MANY_EVENTS)
