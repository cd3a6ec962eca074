"""Literal transcriptions of range-AUC and VUS (Paparrizos et al., VLDB 2022), point by point.

The procedure, as TSB-AD 1.5's ``RangeAUC_volume_opt`` (behind ``generate_curve``) and
vus 0.0.6's ``RangeAUC`` run it, restated with plain loops:

1. Events are maximal runs of 1s ``[start, end)``; ``P`` counts their points.
2. Sloped labels of window ``w``: start from ``y_true``; for each event in turn, add
   ``sqrt(1 - d / w)`` to the point ``d`` after its last point and to the point ``d``
   before its first point, ``d = 1 .. w // 2`` (inside the series); cap every label at 1.
   (TimeEval's compatibility mode, the authors' earlier code: after the event only
   ``d = 1 .. w // 2 - 1``.)
3. Thresholds: sort the scores from high to low and take the values at positions
   ``floor(k * (T - 1) / (n - 1))``, ``k = 0 .. n - 1`` (numpy's ``linspace``, computed
   as ``k * step`` in floating point like numpy does); threshold ``theta`` predicts
   ``score >= theta``.
4. Segments: ``"volume"`` merges each event's ``[start - w//2, last + w//2]`` (clipped) with
   the next one unless ``last_i + w//2 < start_{i+1} - w//2``; ``"runs"`` takes the runs of
   non-zero sloped labels.
5. ``"volume"``: labels inside segments are multiplied by the prediction, event points are
   set back to 1; ``TP = sum(label * pred)``, ``P_new = (P + sum(label)) / 2``.
   ``"runs"`` (and TimeEval's compatibility mode): ``TP = sum(sloped * pred)``,
   ``P_new = (P + sum(sloped)) / 2``.
   Then ``TPR = min(TP / P_new, 1) * (segments holding a predicted point) / segments``,
   ``FPR = (predicted - TP) / (T - P_new)``, precision ``TP / predicted``.
6. ROC area: trapezoids through ``(0, 0)``, the ``n`` points, ``(1, 1)``.  PR area: widths
   ``TPR_j - TPR_{j-1}`` (``TPR_0 = 0``) times ``precision_j`` (``"volume"``) or times the
   mean of ``precision_j`` and ``precision_{j-1}`` with ``precision_0 = 1`` (``"runs"``).
7. VUS: the mean of the areas over the windows ``0, 1, ..., W``.

``convention`` is ``"volume"`` (TSB-AD), ``"runs"`` (vus's ``RangeAUC``), ``"compat"``
(``"runs"`` with the shorter slope after events, TimeEval's compatibility mode) or ``"timeeval"``
(TimeEval's default: in step 2 the point ``d`` away gets the ``(h - d)``-th of ``h + 1`` evenly
spaced values from ``1/sqrt(2)`` to 1, ``h = w // 2``, and overlapping slopes keep their maximum;
in step 3 ``min(n, T)`` thresholds; in step 4 every event has its own window
``[max(0, start - h), min(T, end + h)]`` (``end`` exclusive, so one point past the slope), hit
when a predicted point in it has a non-zero label; otherwise as ``"runs"``).
"""

from __future__ import annotations

import math
from typing import Sequence


def events_oracle(y_true: Sequence[int]) -> list[tuple[int, int]]:
    """Maximal runs of 1s as half-open ``(start, end)``."""
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


def linear_labels_oracle(y_true: Sequence[int], w: int) -> list[float]:
    """Step 2 of ``"timeeval"``: linear slopes, the maximum where they overlap."""
    size, h = len(y_true), w // 2
    labels = [float(v) for v in y_true]
    if h == 0:
        return labels
    step = (1 - 1 / math.sqrt(2)) / h
    ramp = [k * step + 1 / math.sqrt(2) for k in range(h)] + [1.0]  # numpy's linspace, value by value
    for start, end in events_oracle(y_true):
        for d in range(1, h + 1):
            if end - 1 + d < size:
                labels[end - 1 + d] = max(labels[end - 1 + d], ramp[h - d])
            if start - d >= 0:
                labels[start - d] = max(labels[start - d], ramp[h - d])
    return labels


def sloped_labels_oracle(y_true: Sequence[int], w: int, short_after: bool = False) -> list[float]:
    """Step 2: the labels of window ``w`` with slopes around every event."""
    size = len(y_true)
    labels = [float(v) for v in y_true]
    for start, end in events_oracle(y_true):
        last = end - 1
        for d in range(1, w // 2 + (0 if short_after else 1)):
            if last + d < size:
                labels[last + d] += math.sqrt(1 - d / w)
        for d in range(1, w // 2 + 1):
            if start - d >= 0:
                labels[start - d] += math.sqrt(1 - d / w)
    return [min(1.0, v) for v in labels]


def thresholds_oracle(scores: Sequence[float], n: int) -> list[float]:
    """Step 3: the ``n`` sampled thresholds, highest first."""
    ranked = sorted(scores, reverse=True)
    if n == 1:
        return [ranked[0]]
    step = (len(scores) - 1) / (n - 1)
    positions = [int(k * step) for k in range(n - 1)] + [len(scores) - 1]
    return [ranked[p] for p in positions]


def segments_oracle(y_true: Sequence[int], sloped: Sequence[float], w: int, convention: str) -> list[tuple[int, int]]:
    """Step 4: the segments of window ``w`` as inclusive ``(first, last)`` index pairs."""
    size, h = len(y_true), w // 2
    if convention == "timeeval":
        return [(max(0, start - h), min(size - 1, end + h)) for start, end in events_oracle(y_true)]
    if convention in ("runs", "compat"):
        return [(start, end - 1) for start, end in events_oracle([1 if v > 0 else 0 for v in sloped])]
    events = events_oracle(y_true)
    segments = []
    first = max(events[0][0] - h, 0)
    for i in range(len(events) - 1):
        if events[i][1] - 1 + h < events[i + 1][0] - h:
            segments.append((first, events[i][1] - 1 + h))
            first = events[i + 1][0] - h
    segments.append((first, min(events[-1][1] - 1 + h, size - 1)))
    return segments


def _rates(y_true: Sequence[int], sloped: Sequence[float], segments: list[tuple[int, int]], pred: list[int],
           convention: str) -> tuple[float, float, float]:
    """Step 5 at one threshold: ``(TPR, FPR, precision)``."""
    positives = sum(y_true)
    if convention == "volume":
        labels = list(sloped)
        for first, last in segments:
            for t in range(first, last + 1):
                labels[t] = sloped[t] * pred[t]
        for t in range(len(y_true)):
            if y_true[t] == 1:
                labels[t] = 1.0
    else:
        labels = list(sloped)
    tp = sum(labels[t] * pred[t] for t in range(len(pred)))
    p_new = (positives + sum(labels)) / 2
    hit = 0
    for first, last in segments:
        if any(pred[t] == 1 and (convention != "timeeval" or sloped[t] > 0) for t in range(first, last + 1)):
            hit += 1
    tpr = min(tp / p_new, 1) * (hit / len(segments))
    predicted = sum(pred)
    return tpr, (predicted - tp) / (len(pred) - p_new), tp / predicted


def range_auc_oracle(y_true: Sequence[int], scores: Sequence[float], w: int, n: int,
                     convention: str = "volume") -> tuple[float, float]:
    """Steps 1-6: ``(ROC area, PR area)`` at window ``w`` with ``n`` thresholds.

    TimeEval's conventions (``"compat"``, ``"timeeval"``) score a constant score 0.0 first, as
    TimeEval's ``Metric.__call__`` and aeon do.
    """
    if convention in ("compat", "timeeval") and len(set(scores)) == 1:
        return 0.0, 0.0
    if convention == "timeeval":
        sloped = linear_labels_oracle(y_true, w)
        n = min(n, len(scores))
    else:
        sloped = sloped_labels_oracle(y_true, w, short_after=convention == "compat")
    segments = segments_oracle(y_true, sloped, w, convention)
    tprs, fprs, precisions = [0.0], [0.0], [1.0]
    for theta in thresholds_oracle(scores, n):
        pred = [1 if v >= theta else 0 for v in scores]
        tpr, fpr, precision = _rates(y_true, sloped, segments, pred, convention)
        tprs.append(tpr)
        fprs.append(fpr)
        precisions.append(precision)
    roc = 0.0
    for a, b in zip(range(len(tprs)), range(1, len(tprs) + 1)):
        x1, y1 = (fprs[b], tprs[b]) if b < len(tprs) else (1.0, 1.0)
        roc += (x1 - fprs[a]) * (y1 + tprs[a]) / 2
    pr = 0.0
    for j in range(1, len(tprs)):
        height = precisions[j] if convention == "volume" else (precisions[j] + precisions[j - 1]) / 2
        pr += (tprs[j] - tprs[j - 1]) * height
    return roc, pr


def vus_oracle(y_true: Sequence[int], scores: Sequence[float], sliding_window: int, n: int,
               convention: str = "volume") -> tuple[float, float]:
    """Step 7: ``(VUS-ROC, VUS-PR)``, the mean areas over windows ``0 .. sliding_window``."""
    roc = pr = 0.0
    for w in range(sliding_window + 1):
        a, b = range_auc_oracle(y_true, scores, w, n, convention)
        roc += a
        pr += b
    return roc / (sliding_window + 1), pr / (sliding_window + 1)
