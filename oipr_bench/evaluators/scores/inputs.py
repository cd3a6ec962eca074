"""Input policy of the score evaluators: ``(y_true, scores)``.

``y_true`` follows the binary policy of :func:`oipr_bench.evaluators.inputs.check_pair`
(1-D, non-empty, only 0 and 1).  ``scores`` must be a 1-D real array of the same length
with only finite values (higher means more anomalous).  Both classes must be present:
with no anomaly or no normal point, AUC-ROC is undefined (scikit-learn raises) and
TSB-AD's VUS code fails, so every score evaluator raises ``ValueError`` instead of
returning a number.
"""

from __future__ import annotations

import numpy as np

from ..inputs import check_pair, refuse_masked

__all__ = ["check_scores"]


def _as_scores(value: object, where: str) -> np.ndarray:
    refuse_masked(value, where)
    try:
        arr = np.asarray(value)
    except Exception as exc:  # ragged nested lists and similar
        raise ValueError(f"{where} cannot be read as an array ({exc})") from None
    if arr.dtype == object or arr.dtype.kind in "USVcmM":  # dates and durations are not scores
        raise ValueError(f"{where} must be real numbers, got dtype {arr.dtype}")
    if arr.ndim != 1:
        raise ValueError(f"{where} must be 1-D, got an array of shape {arr.shape}")
    if arr.shape[0] == 0:
        raise ValueError(f"{where} is empty")
    out = arr.astype(np.float64)
    bad = ~np.isfinite(out)
    if bad.any():
        idx = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{where} must be finite; found {float(out[idx])} at index {idx}")
    return out


def check_scores(y_true: object, scores: object, evaluator: str = "") -> tuple[np.ndarray, np.ndarray]:
    """Validate ``(y_true, scores)`` and return an int8 copy of the labels and a float64 copy of the scores.

    Raises
    ------
    ValueError
        ``y_true`` is not a 0/1 series, ``scores`` is not a finite real 1-D series,
        the lengths differ, or ``y_true`` holds only one class.
    """
    where = f"{evaluator}: " if evaluator else ""
    s = _as_scores(scores, f"{where}scores")
    t, _ = check_pair(y_true, y_true, evaluator)  # the binary policy, applied to y_true alone
    if t.shape[0] != s.shape[0]:
        raise ValueError(f"{where}y_true and scores differ in length ({t.shape[0]} vs {s.shape[0]})")
    positives = int(np.count_nonzero(t))
    if positives == 0 or positives == t.shape[0]:
        kind = "no anomaly (all 0)" if positives == 0 else "no normal point (all 1)"
        raise ValueError(f"{where}y_true has {kind}; a score metric needs both classes")
    return t, s
