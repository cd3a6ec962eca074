"""Literal transcriptions of PW, PA and PA%K, one point at a time.

These loops restate each definition as plainly as possible; they are the
differential oracles for :mod:`oipr_bench.evaluators.pointwise`.  They take
plain Python sequences of 0/1 values and do no input checking.

Definitions
-----------
PW
    Point-wise precision ``TP / (TP + FP)`` and recall ``TP / (TP + FN)``,
    0 when the denominator is 0 (OIPR paper, Sec. II-B and Table A1).
PA
    Point adjustment (Xu et al., WWW 2018): if any point of a ground-truth
    event is predicted, every point of that event counts as predicted; then PW.
PA%K
    PA%K (Kim et al., AAAI 2022): an event is adjusted only when the share of
    its predicted points is strictly greater than ``K`` percent; then PW.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence


def pw_oracle(y_true: Sequence[int], y_pred: Sequence[int]) -> tuple[float, float]:
    """Point-wise precision and recall by counting points one by one.

    Returns
    -------
    precision, recall : float
        0.0 where the denominator is 0.
    """
    tp = fp = fn = 0
    for t in range(len(y_true)):
        if y_pred[t] == 1 and y_true[t] == 1:
            tp += 1
        elif y_pred[t] == 1 and y_true[t] == 0:
            fp += 1
        elif y_pred[t] == 0 and y_true[t] == 1:
            fn += 1
    precision = tp / (tp + fp) if tp + fp > 0 else 0.0
    recall = tp / (tp + fn) if tp + fn > 0 else 0.0
    return precision, recall


def _true_events(y_true: Sequence[int]) -> list[tuple[int, int]]:
    """Maximal runs of 1s in ``y_true`` as half-open ``(start, end)`` pairs."""
    events = []
    t = 0
    while t < len(y_true):
        if y_true[t] == 1:
            start = t
            while t < len(y_true) and y_true[t] == 1:
                t += 1
            events.append((start, t))
        else:
            t += 1
    return events


def pak_adjust_oracle(y_true: Sequence[int], y_pred: Sequence[int], k: float) -> list[int]:
    """Adjusted prediction of PA%K: events with more than ``k`` % predicted points are filled.

    ``k = 0`` gives PA (any hit adjusts the event); the comparison is exact
    (rational arithmetic), strictly greater than ``k / 100`` of the event length.
    """
    adjusted = [int(v) for v in y_pred]
    threshold = Fraction(k) / 100
    for start, end in _true_events(y_true):
        hits = 0
        for t in range(start, end):
            if y_pred[t] == 1:
                hits += 1
        if Fraction(hits, end - start) > threshold:
            for t in range(start, end):
                adjusted[t] = 1
    return adjusted


def pa_oracle(y_true: Sequence[int], y_pred: Sequence[int]) -> tuple[float, float]:
    """Precision and recall after point adjustment (any hit fills the event)."""
    return pw_oracle(y_true, pak_adjust_oracle(y_true, y_pred, 0))


def pak_oracle(y_true: Sequence[int], y_pred: Sequence[int], k: float = 50) -> tuple[float, float]:
    """Precision and recall of PA%K with threshold ``k`` percent (strict ``>``)."""
    return pw_oracle(y_true, pak_adjust_oracle(y_true, y_pred, k))
