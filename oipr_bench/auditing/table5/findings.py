"""What the characteristic rules share: thresholds, case ids, :class:`Finding`, comparisons.

The rules themselves are in :mod:`oipr_bench.auditing.table5.rules`; :mod:`oipr_bench.auditing.table5.characteristics`
names them per characteristic and says what each reads.  Every threshold is a
named constant here, justified in the docstring of the rule that uses it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

from .readings import Observations, oriented_raw, raw_of, scale_of
from ...evaluators.score import Score
from ...vocabulary import UNDETERMINED

__all__ = [
    "SCORE_TOLERANCE", "MIN_EFFECT", "MERGING_FACTOR", "MITIGATION_FACTOR", "OVERESTIMATION_F1", "RANDOM_RANGE_LEVEL", "Finding",
    "normalise_value", "Reading", "read_scores", "enough", "undetermined_finding",
    "gt", "eq", "result_of", "label_of", "evidence_numbers", "fmt",
    "OVERLAP", "FRAG_TPS", "FRAG_FPS", "SHIFT", "TP_POS", "LONG", "SPARSE", "ALL_ONE", "RANDOM",
]

#: Two scores closer than this are treated as equal (floating-point noise; the
#: smallest real gap the rules must see is OIPR's 3e-4 between tp_positions c2 and c3).
SCORE_TOLERANCE = 1e-6

#: The minimum effect of a beneficial verdict, on the anchored scale (1 = the distance from the empty
#: to the perfect prediction): a rise, drop, gain over PW or credit must be at least 1 % of it.
#: The smallest effect behind a beneficial cell of Table 5 is AM's overlap rise (0.9496 -> 1.0,
#: 0.05); PATE-F1's early-detection drop of 3e-4 is noise at this size.  Without a scale (a rule
#: reading raw values) the effect is taken relative to the largest magnitude read.
MIN_EFFECT = 0.01

#: Fragments merging: F1 on dispersed FPs must be at most this fraction of the
#: F1 on aggregated and on continuous FPs ("significantly lower", Appendix A).
MERGING_FACTOR = 0.75

#: Long anomaly misleading is "mitigated" when the long event's recall share on
#: long_anomaly_effect/c1 is at least this multiple of the equal-event share.
MITIGATION_FACTOR = 1.25

#: Overestimation: a detector without skill (all-1, random) scoring above this on the anchored scale
#: (F1's own scale for an F1; for any metric, 0 is what it gives detecting nothing, so a metric at
#: its own chance level stays near 0).
OVERESTIMATION_F1 = 0.3

#: Random overestimation of a metric that takes real scores: the random detector above this on the
#: metric's own range (0 = the inverted input, 1 = the perfect one) is closer to perfect than the
#: middle of the range (an inversion-symmetric metric's chance) by more than OVERESTIMATION_F1.
RANDOM_RANGE_LEVEL = 0.5 + OVERESTIMATION_F1 / 2

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


# -- comparisons ---------------------------------------------------------------------------------

def gt(a: float, b: float) -> bool:
    """``a > b`` beyond :data:`SCORE_TOLERANCE`; False when either is NaN."""
    return a - b > SCORE_TOLERANCE


def eq(a: float, b: float) -> bool:
    """``a == b`` within :data:`SCORE_TOLERANCE`; False when either is NaN."""
    return abs(a - b) <= SCORE_TOLERANCE


def result_of(obs: Observations, case_id: str) -> Score:
    try:
        return obs.scores[case_id]
    except KeyError:
        raise KeyError(f"no score for case {case_id}") from None


def label_of(obs: Observations) -> str:
    """How the rules' evidence names the score: ``F1`` for a P/R evaluator, ``score`` for a scalar."""
    return "score" if obs.scalar else "F1"


def evidence_numbers(obs: Observations, case_ids: tuple[str, ...], values: list[float]) -> dict[str, float]:
    """Evidence numbers: the values read, a scalar's raw values when they differ, and the anchors.

    The anchors (the raw values of the empty prediction and of ``y_pred = y_true``) are
    listed once when every case shares them, else per case.
    """
    label = label_of(obs)
    out = {f"{label} {c}": v for c, v in zip(case_ids, values)}
    if obs.scalar:
        for c, v in zip(case_ids, values):
            raw = raw_of(obs, c)
            if not _same_float(raw, v):
                out[f"raw {c}"] = raw
    if obs.chance:
        return _chance_evidence(obs, case_ids, out)
    anchors = {c: (float(obs.empty[c].f1), float(obs.perfect[c].f1)) for c in case_ids
               if c in obs.empty and c in obs.perfect}
    pairs = set(anchors.values())
    if len(pairs) == 1 and len(anchors) == len(case_ids):
        zero, one = anchors[case_ids[0]]
        out["anchor 0: empty prediction"], out["anchor 1: y_pred = y_true"] = zero, one
    else:
        for c, (zero, one) in anchors.items():
            out[f"anchor 0 {c}"], out[f"anchor 1 {c}"] = zero, one
    return out


def _chance_evidence(obs: Observations, case_ids: tuple[str, ...], out: dict[str, float]) -> dict[str, float]:
    """A score metric's anchors (chance mean, its standard error, perfect) and the empty prediction as evidence."""
    rows = {c: (obs.chance[c][0], obs.chance[c][1], float(obs.perfect[c].f1),
                float(obs.empty[c].f1) if c in obs.empty else math.nan)
            for c in case_ids if c in obs.chance and c in obs.perfect}
    labels = ("anchor 0: chance (mean over uninformative scores)", "chance standard error",
              "anchor 1: y_pred = y_true", "empty prediction (evidence only)")
    shared = len({tuple(0.0 if math.isnan(x) else x for x in r) for r in rows.values()}) == 1 and len(rows) == len(case_ids)
    for c, r in rows.items():
        for label, x in zip(labels, r):
            out[label if shared else f"{label} {c}"] = x
        if shared:
            break
    return out


@dataclass(frozen=True)
class Reading:
    """The scores a rule reads, and on which scale.

    Attributes
    ----------
    values : list of float
        One value per case: on the anchored scale (``anchored``), or the raw values in the
        declared orientation when the scale is undefined and the rule only compares them
        with each other.
    anchored : bool
        The values are on the anchored scale (:func:`oipr_bench.auditing.table5.readings.scale_of`).
    scale : str
        The scale and its anchors, as the evidence names them.
    problem : str
        Why the rule cannot read these cases (it answers ``undetermined``); ``""`` when it can.
    numbers : dict of str to float
        The evidence numbers (:func:`evidence_numbers`).
    shown : list of str
        The values as the explanation prints them (raw values as returned when not anchored).
    noise : float
        Three standard errors of the chance anchor on the scale (a score metric's; 0 otherwise): the
        smallest effect that is not the anchor's own sampling noise.
    """

    values: list[float]
    anchored: bool
    scale: str
    problem: str
    numbers: dict[str, float]
    shown: list[str]
    noise: float = 0.0


def read_scores(obs: Observations, case_ids: tuple[str, ...], order_only: bool = False) -> Reading:
    """Read ``case_ids`` on their anchored scale.

    With ``order_only`` (a rule that compares the values only with each other) an undefined
    scale falls back to the raw values in the declared orientation.  A NaN among the values
    read is a problem: the rule answers ``undetermined``, never a value derived from NaN.
    """
    scales = [scale_of(obs, c) for c in case_ids]
    bad = next((s for s in scales if s.saturated), None) or next((s for s in scales if not s.defined), None)
    problem = ""
    if bad is None:
        values, anchored = [s.read(raw_of(obs, c)) for s, c in zip(scales, case_ids)], True
        notes = sorted({s.note for s in scales if s.note})
        zero = "the mean over uninformative scores" if obs.chance else "its empty prediction"
        scale = scales[0].describe() if len({(s.zero, s.one) for s in scales}) == 1 else \
            f"anchored scale of each case's ground truth (0 = {zero}, 1 = its y_pred = y_true)"
        scale += "".join(f"; {n}" for n in notes)
    elif order_only and not bad.saturated:
        values, anchored = [oriented_raw(obs, c) for c in case_ids], False
        orient = "higher" if obs.higher_is_better or not obs.scalar else "lower"
        scale = f"raw values, {orient} is better ({bad.problem})"
    else:
        values, anchored, scale, problem = [math.nan] * len(case_ids), False, bad.describe(), bad.problem
    if not problem:
        nan = [c for c, v in zip(case_ids, values) if math.isnan(v)]
        if nan:
            problem = f"{label_of(obs)} is nan on {', '.join(nan)}"
    plain = values if anchored or not obs.scalar else [raw_of(obs, c) for c in case_ids]
    noise = max((3 * obs.chance[c][1] / abs(s.one - s.zero) for s, c in zip(scales, case_ids)
                 if anchored and c in obs.chance), default=0.0)
    return Reading(values, anchored, scale, problem, evidence_numbers(obs, case_ids, plain), [fmt(v) for v in plain],
                   noise)


def enough(reading: Reading, effect: float) -> bool:
    """True when ``effect`` (a difference of ``reading.values``) reaches :data:`MIN_EFFECT`.

    On a score metric's chance-anchored scale the minimum is at least three standard errors of the
    chance anchor there (``reading.noise``).  On raw values (no scale) the minimum is taken relative
    to the largest magnitude read.
    """
    if reading.anchored:
        return effect >= max(MIN_EFFECT, reading.noise) - SCORE_TOLERANCE
    top = max(abs(v) for v in reading.values)
    return effect > SCORE_TOLERANCE and effect >= MIN_EFFECT * top


def undetermined_finding(name: str, cases: tuple[str, ...], reading: Reading, what: str) -> Finding:
    """An ``undetermined`` finding: ``what`` could not be read, and why."""
    return Finding(name, UNDETERMINED, cases, reading.numbers, f"{what} cannot be read: {reading.problem}")


def _same_float(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


def fmt(x: float) -> str:
    """``x`` with 4 decimals (``nan`` for NaN; never ``-0.0000``)."""
    return "nan" if math.isnan(x) else f"{x + 0.0:.4f}".replace("-0.0000", "0.0000")

# -- the cases each rule reads ---------------------------------------------------------------------

OVERLAP = tuple(f"overlap_proportion/c{i}" for i in range(1, 5))
FRAG_TPS = tuple(f"fragmented_tps/c{i}" for i in range(1, 4))
FRAG_FPS = tuple(f"fragmented_fps/c{i}" for i in range(1, 4))
SHIFT = ("temporal_shifting/c1", "temporal_shifting/c2")
TP_POS = tuple(f"tp_positions/c{i}" for i in range(1, 5))
LONG = ("long_anomaly_effect/c1", "long_anomaly_effect/c2")
SPARSE = ("sparse_anomalies/c1", "sparse_anomalies/c2")
ALL_ONE = ("constant_detector/c2",)
RANDOM = ("random_detector/c1", "random_detector/c2")
