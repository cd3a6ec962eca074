"""Literal transcription of range-based precision/recall (Tatbul et al., NeurIPS 2018).

Follows the definitions of Tatbul, Lee, Zdonik, Alam and Gottschlich,
*Precision and Recall for Time Series*, Sec. 4, step by step with plain Python
loops: ranges are collected point by point, every (real, predicted) pair is
tested for overlap, and the overlap size omega walks every position of the
range, adding the positional bias delta(i, L) to the maximum and, when the
position is inside the overlap, to the achieved value.  Slow (O(Nr * Np +
overlapped lengths)); used only to check :mod:`oipr_bench.evaluators.range_based`.

Ranges are written as inclusive ``(first, last)`` index pairs here, as in the
paper's pseudo-code, not as the half-open events of the fast code.
"""

from __future__ import annotations

from typing import Sequence

from ..score import Score

__all__ = ["range_based", "ranges_of", "delta", "omega", "gamma"]


def ranges_of(y: Sequence[int]) -> list[tuple[int, int]]:
    """Maximal runs of 1s of a 0/1 sequence as inclusive ``(first, last)`` pairs."""
    ranges: list[tuple[int, int]] = []
    first = None
    for t in range(len(y)):
        if int(y[t]) == 1:
            if first is None:
                first = t
        else:
            if first is not None:
                ranges.append((first, t - 1))
                first = None
    if first is not None:
        ranges.append((first, len(y) - 1))
    return ranges


def delta(i: int, length: int, bias: str) -> float:
    """Positional bias delta(i, AnomalyLength) for ``i = 1 .. length`` (Tatbul et al., Fig. 2)."""
    if bias == "flat":
        return 1.0
    if bias == "front":
        return float(length - i + 1)
    if bias == "back":
        return float(i)
    if bias == "middle":
        if i <= length / 2:
            return float(i)
        return float(length - i + 1)
    raise ValueError(f"unknown positional bias {bias!r}")


def omega(anomaly_range: tuple[int, int], overlap: tuple[int, int], bias: str) -> float:
    """Overlap size omega(AnomalyRange, OverlapSet, delta) (Tatbul et al., Fig. 2).

    ``overlap`` is the inclusive ``(first, last)`` intersection.
    """
    first, last = anomaly_range
    length = last - first + 1
    my_value = 0.0
    max_value = 0.0
    for i in range(1, length + 1):
        bias_i = delta(i, length, bias)
        max_value += bias_i
        position = first + i - 1
        if overlap[0] <= position <= overlap[1]:
            my_value += bias_i
    return my_value / max_value


def gamma(n_overlapping: int, cardinality: str) -> float:
    """Cardinality factor: 1 when at most one range overlaps, else gamma (eq. 7)."""
    if n_overlapping <= 1:
        return 1.0
    if cardinality == "reciprocal":
        return 1.0 / n_overlapping
    if cardinality == "one":
        return 1.0
    raise ValueError(f"unknown cardinality {cardinality!r}")


def _score_of_range(
    own: tuple[int, int], others: list[tuple[int, int]], alpha: float, cardinality: str, bias: str
) -> float:
    """alpha * ExistenceReward + (1 - alpha) * OverlapReward for one range (eqs. 3-7, 9-10)."""
    omega_sum = 0.0
    n_overlapping = 0
    for other in others:
        if own[1] < other[0] or other[1] < own[0]:
            continue
        n_overlapping += 1
        intersection = (max(own[0], other[0]), min(own[1], other[1]))
        omega_sum += omega(own, intersection, bias)
    existence = 1.0 if n_overlapping > 0 else 0.0
    overlap_reward = gamma(n_overlapping, cardinality) * omega_sum
    return alpha * existence + (1.0 - alpha) * overlap_reward


def range_based(
    y_true: Sequence[int],
    y_pred: Sequence[int],
    alpha_r: float = 0.5,
    alpha_p: float = 0.0,
    cardinality: str = "reciprocal",
    bias_r: str = "front",
    bias_p: str = "flat",
) -> Score:
    """Range-based precision RP, recall RR and their F1, computed literally.

    Recall is the mean over real ranges (0 when there is none), precision the
    mean over predicted ranges (0 when there is none); F1 = 2PR / (P + R), 0
    when P + R = 0.  Defaults are the OIPR paper's Table 3 setting.
    """
    real = ranges_of(y_true)
    predicted = ranges_of(y_pred)

    recall = 0.0
    for r in real:
        recall += _score_of_range(r, predicted, alpha_r, cardinality, bias_r)
    if len(real) > 0:
        recall = recall / len(real)

    precision = 0.0
    for p in predicted:
        precision += _score_of_range(p, real, alpha_p, cardinality, bias_p)
    if len(predicted) > 0:
        precision = precision / len(predicted)

    if precision + recall == 0.0:
        f1 = 0.0
    else:
        f1 = 2.0 * precision * recall / (precision + recall)
    return Score(precision, recall, f1)
