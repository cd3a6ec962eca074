"""The result of one evaluation, :class:`Score`, and the F1 rule (paper, eq. 1).

Every evaluator reports precision and recall; F1 is their harmonic mean
(paper, eq. 1): ``F1 = 2PR / (P + R)``, 0 when ``P + R = 0`` and NaN when
either P or R is NaN (the paper prints ``nan`` for AM on the all-zero
detector, Table A1, constant detector c1).
"""

from __future__ import annotations

import math
from typing import NamedTuple

__all__ = ["Score", "f1_from", "make_score"]


class Score(NamedTuple):
    """Precision, recall and F1 of one evaluation (paper, eq. 1)."""

    precision: float
    recall: float
    f1: float


def f1_from(precision: float, recall: float) -> float:
    """Harmonic mean of ``precision`` and ``recall`` (paper, eq. 1).

    Returns 0.0 when both are 0 and NaN when either is NaN.
    """
    p, r = float(precision), float(recall)
    if math.isnan(p) or math.isnan(r):
        return math.nan
    if p + r == 0.0:
        return 0.0
    return 2.0 * p * r / (p + r)


def make_score(precision: float, recall: float) -> Score:
    """Build a :class:`Score` from P and R, computing F1 with :func:`f1_from`."""
    p, r = float(precision), float(recall)
    return Score(p, r, f1_from(p, r))
