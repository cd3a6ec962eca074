"""Literal transcription of OIPR: Algorithm 1, eqs. (3)-(9) and Appendix C.

Everything here works one scalar at a time, in the order the paper prints it,
so that :mod:`oipr_bench.evaluators.oipr` can be checked against it.  No input
checking is done; pass plain sequences of 0/1 values.

Conventions the paper leaves implicit (docs/evaluators.md, "Conventions the
implementations rely on"):

* ``omega(0) = 1`` and ``gamma(0) = 1`` for every attenuation;
* ``l_dis = 0`` makes ``omega(i) = b_dur`` for every ``i > 0`` (the limit of
  eqs. 3, C.1 and C.3 as ``l_dis -> 0``);
* ``l_obs = 0`` removes the observation phase (Algorithm 1 never calls
  ``gamma(i)`` with ``i > 0`` then);
* AUC is the plain sum of the curve's values.
"""

from __future__ import annotations

import math
from typing import Sequence


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def omega_oracle(i: int, l_dis: int, b_dur: float, attenuation: str = "sigmoid") -> float:
    """Interest of the discovery/duration phases (eq. 3; eqs. C.1 and C.3)."""
    if i == 0:
        return 1.0
    if l_dis == 0:
        return b_dur
    if attenuation == "sigmoid":
        return b_dur + (1.0 - b_dur) * (1.0 - _sigmoid(10.0 / l_dis * i - 5.0)) / (1.0 - _sigmoid(-5.0))
    if attenuation == "linear":
        if i <= l_dis:
            return 1.0 - (1.0 - b_dur) * i / l_dis
        return b_dur
    if attenuation == "exp":
        return b_dur + (1.0 - b_dur) * math.exp(-math.log(100.0) * i / l_dis)
    raise ValueError(f"unknown attenuation {attenuation!r}")


def gamma_oracle(i: int, l_obs: int, attenuation: str = "sigmoid") -> float:
    """Interest of the observation phase (eq. 4; eqs. C.2 and C.4)."""
    if i == 0:
        return 1.0
    if i > l_obs:
        return 0.0
    if attenuation == "sigmoid":
        return (1.0 - _sigmoid(10.0 / l_obs * i - 5.0)) / (1.0 - _sigmoid(-5.0))
    if attenuation == "linear":
        return 1.0 - i / l_obs
    if attenuation == "exp":
        return math.exp(-math.log(100.0) * i / l_obs)
    raise ValueError(f"unknown attenuation {attenuation!r}")


def interest_curve_oracle(
    y: Sequence[int],
    l_dis: int = 5,
    l_obs: int = 20,
    b_dur: float = 0.5,
    attenuation: str = "sigmoid",
) -> list[float]:
    """Operator interest curve of a 0/1 series, Algorithm 1 line by line.

    Returns a list of ``T + l_obs`` values.
    """
    T = len(y)
    curve = [0.0] * (T + l_obs)
    p_start = -l_obs - 1
    p_end = -l_obs - 1
    t = 0
    while t < T:
        if y[t] == 1:
            if t - p_end > l_obs:
                p_start = t
            curve[t] = omega_oracle(t - p_start, l_dis, b_dur, attenuation)
            p_end = t
        else:
            if t - p_end <= l_obs:
                curve[t] = omega_oracle(t - p_start, l_dis, b_dur, attenuation) * gamma_oracle(
                    t - p_end, l_obs, attenuation
                )
        t = t + 1
    while t < T + l_obs:
        if t - p_end <= l_obs:
            curve[t] = omega_oracle(t - p_start, l_dis, b_dur, attenuation) * gamma_oracle(
                t - p_end, l_obs, attenuation
            )
        t = t + 1
    return curve


def oipr_areas_oracle(
    y_true: Sequence[int],
    y_pred: Sequence[int],
    l_dis: int = 5,
    l_obs: int = 20,
    b_dur: float = 0.5,
    attenuation: str = "sigmoid",
) -> tuple[float, float, float]:
    """``(TP_oi, FP_oi, FN_oi)`` by eqs. (5), (6) and (8), summing point by point."""
    curve_true = interest_curve_oracle(y_true, l_dis, l_obs, b_dur, attenuation)
    curve_pred = interest_curve_oracle(y_pred, l_dis, l_obs, b_dur, attenuation)
    tp = 0.0
    auc_true = 0.0
    auc_pred = 0.0
    for t in range(len(curve_true)):
        tp += min(curve_true[t], curve_pred[t])
        auc_true += curve_true[t]
        auc_pred += curve_pred[t]
    return tp, auc_pred - tp, auc_true - tp


def oipr_oracle(
    y_true: Sequence[int],
    y_pred: Sequence[int],
    l_dis: int = 5,
    l_obs: int = 20,
    b_dur: float = 0.5,
    attenuation: str = "sigmoid",
) -> tuple[float, float]:
    """OIPR precision and recall, eqs. (7) and (9).

    Degenerate policy (the same as the fast implementation): precision is 0
    when ``AUC(I_hat) = 0`` (all-zero prediction), recall is 0 when
    ``AUC(I) = 0`` (no ground-truth anomaly).
    """
    tp, fp, fn = oipr_areas_oracle(y_true, y_pred, l_dis, l_obs, b_dur, attenuation)
    precision = tp / (tp + fp) if tp + fp > 0 else 0.0
    recall = tp / (tp + fn) if tp + fn > 0 else 0.0
    return precision, recall
