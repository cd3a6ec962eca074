"""What the characteristic rules share: thresholds, case ids, :class:`Finding`, comparisons.

The rules themselves are in :mod:`oipr_bench.auditing.rules`; :mod:`oipr_bench.auditing.characteristics`
names them per characteristic and says what each reads.  Every threshold is a
named constant here, justified in the docstring of the rule that uses it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

from .readings import Observations, score_of
from ..evaluators.score import Score

__all__ = [
    "SCORE_TOLERANCE", "MERGING_FACTOR", "MITIGATION_FACTOR", "OVERESTIMATION_F1", "Finding", "normalise_value",
    "gt", "eq", "result_of", "label_of", "scores_of", "evidence_numbers", "fmt",
    "OVERLAP", "FRAG_TPS", "FRAG_FPS", "SHIFT", "TP_POS", "LONG", "SPARSE", "ALL_ONE", "RANDOM",
]

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


def scores_of(obs: Observations, case_ids: tuple[str, ...]) -> list[float]:
    """The oriented scores (F1, or the normalised scalar) of ``case_ids``."""
    return [score_of(obs, c) for c in case_ids]


def evidence_numbers(obs: Observations, case_ids: tuple[str, ...], values: list[float]) -> dict[str, float]:
    """Evidence numbers: the oriented scores, and a scalar's raw values when they differ."""
    label = label_of(obs)
    out = {f"{label} {c}": v for c, v in zip(case_ids, values)}
    if obs.scalar:
        for c, v in zip(case_ids, values):
            raw = float(result_of(obs, c).f1)
            if not _same_float(raw, v):
                out[f"raw {c}"] = raw
    return out


def _same_float(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


def fmt(x: float) -> str:
    return "nan" if math.isnan(x) else f"{x:.4f}"

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
