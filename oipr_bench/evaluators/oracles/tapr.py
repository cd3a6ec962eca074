"""Literal transcription of TaPR (Hwang et al., CIKM 2019; the original ``TaPR.py``).

Follows the definition step by step with plain Python loops, the way the
authors' original script (repository saurf4ng/TaPR) evaluates it: anomalies
and predictions are collected point by point as inclusive ``(first, last)``
ranges; every anomaly gets an ambiguous range after it; for every (anomaly,
prediction) pair the score walks each timestamp of the overlap with the
anomaly (weight 1) and of the overlap with the ambiguous range (a decaying
sigmoid of the timestamp min-max normalised to [-6, 6]); the four scores
TaR_d, TaR_p, TaP_d, TaP_p are then averaged over anomalies / predictions.
Slow (O(N_a * N_p) pairs); used only to check
:mod:`oipr_bench.evaluators.tapr`.

Two guards are added to the script's arithmetic, as the conventions in
docs/evaluators.md (section TaPR) prescribe: a min-max normalisation over a one-point range (the
script divides by zero) returns the new minimum, and an empty list of
anomalies or predictions gives a score of 0.
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

from ..score import Score

__all__ = ["tapr", "tapr_parts", "ranges_of", "ambiguous_ranges", "min_max_norm", "decaying", "pair_score"]

Range = tuple[int, int]  # inclusive (first, last); empty when last < first


def ranges_of(y: Sequence[int]) -> list[Range]:
    """Maximal runs of 1s of a 0/1 sequence as inclusive ``(first, last)`` pairs."""
    ranges: list[Range] = []
    first = None
    for t in range(len(y)):
        if int(y[t]) == 1:
            if first is None:
                first = t
        elif first is not None:
            ranges.append((first, t - 1))
            first = None
    if first is not None:
        ranges.append((first, len(y) - 1))
    return ranges


def ambiguous_ranges(anomalies: list[Range], delta: int, ambiguous_end: str = "at_next") -> list[Range]:
    """The ambiguous range after each anomaly: ``delta`` points, cut at the next anomaly.

    The rule of ``TaPR.py`` ("at_next", the default), step by step: the range
    of anomaly ``i`` starts on the point after the anomaly's last point and
    ends ``delta - 1`` points later; then, if there is a next anomaly and that
    end lies strictly after the next anomaly's first point, the end is moved
    back onto that first point (which so belongs to both).  An end that lies
    on or before the next anomaly's first point stays.  "before_next" (an
    option of this package, not the published rule) moves any end that
    reaches the next anomaly to the point before it.  With ``delta = 0`` the
    range is empty (its end is its first point minus one).
    """
    result: list[Range] = []
    for i in range(len(anomalies)):
        first = anomalies[i][1] + 1
        last = first + delta - 1
        if i + 1 < len(anomalies):
            next_first = anomalies[i + 1][0]
            if ambiguous_end == "at_next":
                if last > next_first:
                    last = next_first
            elif ambiguous_end == "before_next":
                if last >= next_first:
                    last = next_first - 1
            else:
                raise ValueError(f"TaPR oracle: ambiguous_end must be at_next or before_next; got {ambiguous_end!r}")
        result.append((first, last))
    return result


def min_max_norm(value: int, org_min: int, org_max: int, new_min: float, new_max: float) -> float:
    """Map ``value`` from ``[org_min, org_max]`` to ``[new_min, new_max]``.

    A one-point range (``org_min == org_max``) maps to ``new_min``.
    """
    if org_max == org_min:
        return float(new_min)
    return float(new_min) + float(value - org_min) * (new_max - new_min) / (org_max - org_min)


def decaying(x: float) -> float:
    """The decaying sigmoid ``1 / (1 + e^x)`` on [-6, 6]."""
    assert -6.0 <= x <= 6.0
    return 1.0 / (1.0 + math.exp(x))


def uniform(x: float) -> float:
    """The flat weight 1 used inside an anomaly."""
    return 1.0


def sum_of_func(first: int, last: int, org_first: int, org_last: int, func: Callable[[float], float]) -> float:
    """Sum ``func`` over the timestamps ``first .. last`` normalised within ``[org_first, org_last]``."""
    total = 0.0
    for timestamp in range(first, last + 1):
        total += func(min_max_norm(timestamp, org_first, org_last, -6.0, 6.0))
    return total


def pair_score(anomaly: Range, ambiguous: Range, prediction: Range) -> float:
    """Overlap score of one prediction with one anomaly and its ambiguous range."""
    score = 0.0
    first = max(anomaly[0], prediction[0])
    last = min(anomaly[1], prediction[1])
    score += sum_of_func(first, last, anomaly[0], anomaly[1], uniform)
    first = max(ambiguous[0], prediction[0])
    last = min(ambiguous[1], prediction[1])
    score += sum_of_func(first, last, ambiguous[0], ambiguous[1], decaying)
    return score


def tapr_parts(
    y_true: Sequence[int],
    y_pred: Sequence[int],
    delta: int = 5,
    theta: float = 0.0,
    ambiguous_end: str = "at_next",
) -> tuple[float, float, float, float]:
    """Return ``(TaR_d, TaR_p, TaP_d, TaP_p)`` computed by the literal loops."""
    anomalies = ranges_of(y_true)
    predictions = ranges_of(y_pred)
    ambiguous = ambiguous_ranges(anomalies, delta, ambiguous_end)

    # Recall: one score per anomaly.
    tar_d_total = 0.0
    tar_p_total = 0.0
    for i in range(len(anomalies)):
        anomaly = anomalies[i]
        max_score = sum_of_func(anomaly[0], anomaly[1], anomaly[0], anomaly[1], uniform)
        score = 0.0
        for prediction in predictions:
            score += pair_score(anomaly, ambiguous[i], prediction)
        ratio = min(1.0, score / max_score)
        if ratio > theta:
            tar_d_total += 1.0
        tar_p_total += ratio
    if len(anomalies) == 0:
        tar_d, tar_p = 0.0, 0.0
    else:
        tar_d, tar_p = tar_d_total / len(anomalies), tar_p_total / len(anomalies)

    # Precision: one score per prediction.
    tap_d_total = 0.0
    tap_p_total = 0.0
    for prediction in predictions:
        max_score = prediction[1] - prediction[0] + 1
        score = 0.0
        for i in range(len(anomalies)):
            score += pair_score(anomalies[i], ambiguous[i], prediction)
        if score / max_score > theta:
            tap_d_total += 1.0
        tap_p_total += score / max_score
    if len(predictions) == 0:
        tap_d, tap_p = 0.0, 0.0
    else:
        tap_d, tap_p = tap_d_total / len(predictions), tap_p_total / len(predictions)
    return tar_d, tar_p, tap_d, tap_p


def tapr(
    y_true: Sequence[int],
    y_pred: Sequence[int],
    alpha: float = 0.5,
    delta: int = 5,
    theta: float = 0.0,
    ambiguous_end: str = "at_next",
) -> Score:
    """TaP, TaR and F1 by the literal loops: ``alpha * detection + (1 - alpha) * portion``."""
    tar_d, tar_p, tap_d, tap_p = tapr_parts(y_true, y_pred, delta, theta, ambiguous_end)
    precision = alpha * tap_d + (1 - alpha) * tap_p
    recall = alpha * tar_d + (1 - alpha) * tar_p
    if precision + recall == 0:
        f1 = 0.0
    else:
        f1 = 2 * precision * recall / (precision + recall)
    return Score(precision, recall, f1)
