"""Literal transcriptions of AUC-ROC and AUC-PR, one pair or one threshold at a time.

AUC-ROC
    The probability that a random anomalous point scores above a random normal
    point, ties counting one half (Mann-Whitney; equal to the trapezoid area
    under the ROC curve over every distinct threshold).
AUC-PR
    Thresholding at each distinct score value ``theta`` from the highest down
    (predict ``score >= theta``) gives recall ``R`` and precision ``P``.
    ``"average_precision"`` sums ``(R_k - R_{k-1}) * P_k`` from ``R_0 = 0``;
    ``"trapezoid"`` sums ``(R_k - R_{k-1}) * (P_k + P_{k-1}) / 2`` from ``(R_0, P_0) = (0, 1)``.

Plain Python sequences in, no input checking; both classes must be present.
"""

from __future__ import annotations

from typing import Sequence


def auc_roc_oracle(y_true: Sequence[int], scores: Sequence[float]) -> float:
    """AUC-ROC by comparing every anomalous point with every normal point."""
    wins = 0.0
    pairs = 0
    for i in range(len(y_true)):
        if y_true[i] != 1:
            continue
        for j in range(len(y_true)):
            if y_true[j] != 0:
                continue
            pairs += 1
            if scores[i] > scores[j]:
                wins += 1.0
            elif scores[i] == scores[j]:
                wins += 0.5
    return wins / pairs


def pr_points_oracle(y_true: Sequence[int], scores: Sequence[float]) -> list[tuple[float, float]]:
    """``(recall, precision)`` at each distinct score value, highest value first."""
    positives = sum(1 for v in y_true if v == 1)
    points = []
    for theta in sorted(set(scores), reverse=True):
        tp = fp = 0
        for t in range(len(y_true)):
            if scores[t] >= theta:
                if y_true[t] == 1:
                    tp += 1
                else:
                    fp += 1
        points.append((tp / positives, tp / (tp + fp)))
    return points


def auc_pr_oracle(y_true: Sequence[int], scores: Sequence[float], estimator: str = "average_precision") -> float:
    """AUC-PR by ``estimator`` ("average_precision" or "trapezoid")."""
    area = 0.0
    previous_recall, previous_precision = 0.0, 1.0
    for recall, precision in pr_points_oracle(y_true, scores):
        if estimator == "average_precision":
            area += (recall - previous_recall) * precision
        else:
            area += (recall - previous_recall) * (precision + previous_precision) / 2
        previous_recall, previous_precision = recall, precision
    return area
