"""What a metric-property rule reads (:class:`Readings`), and the helpers the rules share.

:mod:`oipr_bench.auditing.properties.rules` holds the rules and re-exports these names.  Every
score is on the common higher-is-better anchored scale of :mod:`oipr_bench.auditing.table5.readings`
(0 = the uninformative input: chance for a metric taking scores, the empty prediction for one taking
0/1 predictions; 1 = ``y_pred = y_true``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np

from ..table5.findings import SCORE_TOLERANCE
from .results import Curve, PropertyFinding
from ... import vocabulary as v
from ...scenarios.families import ranks

__all__ = ["Readings", "Undetermined", "trend", "spearman", "score_numbers", "make_finding", "DOWN", "UP"]

DOWN, UP = "down", "up"


class Undetermined(Exception):
    """A number a rule needs is NaN (or a case is missing): the property cannot be decided."""


@dataclass(frozen=True)
class Readings:
    """What a property rule reads.

    Attributes
    ----------
    x_label : str
        The family's parameter.
    cases : tuple of str
        Case ids in family order.
    parameter : mapping of case id to float or str
    score : mapping of case id to float
        The score on the metric's anchored scale (0 = the uninformative input: chance for a metric
        taking scores, the empty prediction for one taking 0/1 predictions; 1 = ``y_pred = y_true``).
    precision, recall : mapping of case id to float
        NaN for a one-number metric.
    scalar : bool
        The metric returns one number.
    problems : mapping of case id to str
        Why a case's scale is undefined (its score is then NaN).
    raw : mapping of case id to float
        The value itself in the declared orientation (F1 of a P/R metric; a lower-is-better scalar
        negated): what invariance across different ground truths (padding, reversal, concatenation)
        compares, since the anchors themselves move with the ground truth.
    """

    x_label: str
    cases: tuple[str, ...]
    parameter: Mapping[str, Any]
    score: Mapping[str, float]
    precision: Mapping[str, float]
    recall: Mapping[str, float]
    scalar: bool
    problems: Mapping[str, str] = field(default_factory=dict)
    raw: Mapping[str, float] = field(default_factory=dict)

    def ids(self, prefix: str = "", role: Any = None) -> list[str]:
        """Case ids whose case part starts with ``prefix`` (and whose parameter is ``role``, if given)."""
        out = [c for c in self.cases if c.split("/", 1)[1].startswith(prefix)]
        return [c for c in out if role is None or self.parameter[c] == role]

    def s(self, case_id: str) -> float:
        """The score of ``case_id``; :class:`Undetermined` when NaN."""
        x = self.score[case_id]
        if math.isnan(x):
            why = self.problems.get(case_id) or "it is nan"
            raise Undetermined(f"the score of {case_id} cannot be read: {why}")
        return x

    def value(self, case_id: str) -> float:
        """The raw value of ``case_id`` in the declared orientation; :class:`Undetermined` when NaN."""
        x = self.raw[case_id]
        if math.isnan(x):
            raise Undetermined(f"the value of {case_id} is nan")
        return x

    def quantities(self, case_id: str) -> dict[str, float]:
        """Precision, recall and F1 of a P/R metric; the value alone of a one-number one (raw values)."""
        out = {"F1" if not self.scalar else "value": self.value(case_id)}
        if not self.scalar:
            for label, table in (("P", self.precision), ("R", self.recall)):
                if math.isnan(table[case_id]):
                    raise Undetermined(f"the {'precision' if label == 'P' else 'recall'} of {case_id} is NaN")
                out[label] = table[case_id]
        return out

    def curve(self, ids: Sequence[str], raw: bool = False) -> Curve:
        """The curve over ``ids``: anchored scores, or the raw values (``raw=True``)."""
        ys = tuple((self.raw if raw else self.score)[c] for c in ids)
        label = "value (raw, higher is better)" if raw else "score (anchored: 0 = uninformative, 1 = perfect)"
        return Curve(self.x_label, tuple(self.parameter[c] for c in ids), ys, tuple(ids), label)


def trend(ys: Sequence[float]) -> str:
    """``flat`` (all equal), ``down`` (non-increasing, ending lower), ``up``, or ``irregular``."""
    steps = np.diff(np.asarray(ys, dtype=float))
    if all(abs(y - ys[0]) <= SCORE_TOLERANCE for y in ys):
        return v.FLAT
    if np.all(steps <= SCORE_TOLERANCE) and ys[0] - ys[-1] > SCORE_TOLERANCE:
        return DOWN
    if np.all(steps >= -SCORE_TOLERANCE) and ys[-1] - ys[0] > SCORE_TOLERANCE:
        return UP
    return v.IRREGULAR


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    """Spearman's rho (Pearson on mean ranks; values within 1e-9 tie); NaN when either side is constant."""
    ra, rb = ranks(np.round(np.asarray(a, dtype=float), 9)), ranks(np.round(np.asarray(b, dtype=float), 9))
    if np.ptp(ra) == 0 or np.ptp(rb) == 0:
        return math.nan
    return float(np.corrcoef(ra, rb)[0, 1])


def score_numbers(r: Readings, ids: Sequence[str]) -> dict[str, float]:
    return {f"score {c}": r.score[c] for c in ids}


def make_finding(name: str, value: str, numbers: dict[str, float], why: str, curve: Curve | None) -> PropertyFinding:
    return PropertyFinding(name, value, numbers, why, curve)
