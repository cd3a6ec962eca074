"""Literal transcription of the affiliation metrics (AM; Huet et al., KDD 2022).

Deliberately simple and slow: plain Python loops over points, zones and
predicted intervals, with the survival functions written exactly as the
definition states them (Huet et al., Sec. 3):

* precision of zone ``j``: ``1/|Y_j| ∫_{Y_j} S_j(dist(y, J_j)) dy`` with
  ``S_j(d) = |{x in I_j : dist(x, J_j) >= d}| / |I_j|``;
* recall of zone ``j``: ``1/|J_j| ∫_{J_j} S_{j,x}(dist(x, Y_j)) dx`` with
  ``S_{j,x}(d) = |{t in I_j : |t - x| >= d}| / |I_j|``.

No closed form is used: every integrand is a continuous piecewise-linear
function of the integration variable between known breakpoints, so the
trapezoidal rule over those breakpoints is exact.  This shares no code with
:mod:`oipr_bench.evaluators.affiliation` (which integrates in closed form,
vectorised).

Conventions (docs/evaluators.md, section AM): point ``i`` is the interval ``[i, i + 1)``; the time range is
``(0, T)``.  Degenerate policy (same as the fast evaluator): all-zero
prediction -> (NaN, 0, NaN); no ground-truth event -> precision 0 if anything
is predicted (NaN otherwise), recall NaN, F1 NaN.
"""

from __future__ import annotations

import math


def _events(y: list[int]) -> list[tuple[float, float]]:
    """Maximal runs of 1s as ``(start, end)``; point ``i`` covers ``[i, i + 1)``."""
    events = []
    start = None
    for i, value in enumerate(y):
        if value == 1 and start is None:
            start = i
        if value != 1 and start is not None:
            events.append((float(start), float(i)))
            start = None
    if start is not None:
        events.append((float(start), float(len(y))))
    return events


def _integrate(f, lo: float, hi: float, breakpoints: list[float]) -> float:
    """Exact integral on ``[lo, hi]`` of ``f``, linear between ``breakpoints``."""
    xs = sorted({lo, hi} | {x for x in breakpoints if lo < x < hi})
    total = 0.0
    for k in range(len(xs) - 1):
        total += (xs[k + 1] - xs[k]) * (f(xs[k]) + f(xs[k + 1])) / 2.0
    return total


def _precision_of_zone(pieces, a: float, b: float, lo: float, hi: float) -> float:
    """Individual precision probability of one zone ``[lo, hi]`` around ``J = [a, b]``."""
    width = hi - lo

    def survival_outside(d: float) -> float:
        # |{x in [lo, hi] : dist(x, J) >= d}| / |I| for d > 0: the part of the
        # zone left of J at distance >= d plus the part right of J at distance >= d.
        left_measure = max(0.0, (a - d) - lo)
        right_measure = max(0.0, hi - (b + d))
        return (left_measure + right_measure) / width

    numerator = 0.0
    denominator = 0.0
    for u, v in pieces:
        denominator += v - u
        # part of the piece left of J: dist(y, J) = a - y
        if u < a:
            end = min(v, a)
            numerator += _integrate(
                lambda y: survival_outside(a - y), u, end, [a - (a - lo), a - (hi - b)]
            )
        # part inside J: dist = 0, survival 1
        inside = min(v, b) - max(u, a)
        if inside > 0:
            numerator += inside
        # part right of J: dist(y, J) = y - b
        if v > b:
            start = max(u, b)
            numerator += _integrate(
                lambda y: survival_outside(y - b), start, v, [b + (a - lo), b + (hi - b)]
            )
    return numerator / denominator


def _recall_of_zone(pieces, a: float, b: float, lo: float, hi: float) -> float:
    """Individual recall probability of one zone ``[lo, hi]`` around ``J = [a, b]``."""
    width = hi - lo

    def distance_to_prediction(x: float) -> float:
        best = math.inf
        for u, v in pieces:
            best = min(best, max(0.0, u - x, x - v))
        return best

    def survival(x: float) -> float:
        d = distance_to_prediction(x)
        if d <= 0.0:
            return 1.0
        # |{t in [lo, hi] : |t - x| < d}|
        near = min(hi, x + d) - max(lo, x - d)
        return 1.0 - near / width

    breakpoints = []
    for u, v in pieces:
        breakpoints += [u, v, (u + lo) / 2, (u + hi) / 2, (v + lo) / 2, (v + hi) / 2]
    for k in range(len(pieces) - 1):
        breakpoints.append((pieces[k][1] + pieces[k + 1][0]) / 2)
    return _integrate(survival, a, b, breakpoints) / (b - a)


def affiliation(y_true, y_pred) -> tuple[float, float, float]:
    """AM precision, recall and F1, computed literally.

    Parameters
    ----------
    y_true, y_pred : sequence of 0/1
        Equal-length binary series (not validated: oracle use only).

    Returns
    -------
    (precision, recall, f1) : tuple of float
    """
    y_true = [int(x) for x in y_true]
    y_pred = [int(x) for x in y_pred]
    length = float(len(y_true))
    gt = _events(y_true)
    pred = _events(y_pred)

    if not gt:
        precision = 0.0 if pred else math.nan
        return precision, math.nan, math.nan

    precisions = []
    recalls = []
    for j, (a, b) in enumerate(gt):
        lo = 0.0 if j == 0 else (gt[j - 1][1] + a) / 2
        hi = length if j == len(gt) - 1 else (b + gt[j + 1][0]) / 2
        pieces = []
        for u, v in pred:
            cut_u, cut_v = max(u, lo), min(v, hi)
            if cut_u < cut_v:
                pieces.append((cut_u, cut_v))
        if pieces:
            precisions.append(_precision_of_zone(pieces, a, b, lo, hi))
            recalls.append(_recall_of_zone(pieces, a, b, lo, hi))
        else:
            recalls.append(0.0)

    precision = sum(precisions) / len(precisions) if precisions else math.nan
    recall = sum(recalls) / len(recalls)
    if math.isnan(precision):
        f1 = math.nan
    elif precision + recall == 0:
        f1 = 0.0
    else:
        f1 = 2 * precision * recall / (precision + recall)
    return precision, recall, f1
