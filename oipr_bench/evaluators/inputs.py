"""Input policy shared by every built-in evaluator.

Both series must be 1-D, non-empty, of equal length, numeric or boolean, and
hold only 0 and 1 (paper, Sec. III-A: ``y_t`` and ``y_hat_t`` are in {0, 1}).
Anything else raises :class:`ValueError` naming the evaluator, the argument and
the problem.  The returned arrays are fresh int8 copies, so evaluators never
mutate user data.
"""

from __future__ import annotations

import numpy as np


def refuse_masked(value: object, where: str) -> None:
    """Refuse a NumPy masked array with masked points, as NaN is refused: ``np.asarray`` drops the mask,
    and the masked points would be scored as if they were data."""
    if isinstance(value, np.ma.MaskedArray):
        mask = np.ma.getmaskarray(value).ravel()
        if mask.any():
            n = int(mask.sum())
            raise ValueError(f"{where} is a masked array ({n} masked point{'s' * (n != 1)}, first at index "
                             f"{int(np.flatnonzero(mask)[0])}); fill or drop the masked points first")


def _as_binary(name: str, value: object, evaluator: str) -> np.ndarray:
    where = f"{evaluator}: {name}" if evaluator else name
    refuse_masked(value, where)
    try:
        arr = np.asarray(value)
    except Exception as exc:  # ragged nested lists and similar
        raise ValueError(f"{where} cannot be read as an array ({exc})") from None
    if arr.dtype == object or arr.dtype.kind in "USVmM":  # a date or a duration is not a 0/1 value
        raise ValueError(f"{where} must be numeric or boolean 0/1 values, got dtype {arr.dtype}")
    if arr.ndim != 1:
        raise ValueError(f"{where} must be 1-D, got an array of shape {arr.shape}")
    if arr.shape[0] == 0:
        raise ValueError(f"{where} is empty")
    if arr.dtype.kind == "b":
        return arr.astype(np.int8)
    if arr.dtype.kind == "c":
        raise ValueError(f"{where} must be real 0/1 values, got complex dtype {arr.dtype}")
    if arr.dtype.kind == "f":
        bad_nan = np.isnan(arr)
        if bad_nan.any():
            idx = int(np.flatnonzero(bad_nan)[0])
            raise ValueError(f"{where} contains NaN (first at index {idx})")
    bad = (arr != 0) & (arr != 1)
    if bad.any():
        idx = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{where} must be binary (0/1); found {arr[idx]!r} at index {idx}")
    return arr.astype(np.int8)


def check_pair(y_true: object, y_pred: object, evaluator: str = "") -> tuple[np.ndarray, np.ndarray]:
    """Validate a ``(y_true, y_pred)`` pair and return int8 copies.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (T,)
        Ground-truth labels and detection results, 0/1 ints or bools.
    evaluator : str, optional
        Name used in error messages.

    Returns
    -------
    y_true, y_pred : ndarray of int8
        Fresh copies; the caller's arrays are never modified.

    Raises
    ------
    ValueError
        When either series is not 1-D, empty, non-numeric, holds NaN or a value
        other than 0 and 1, or when the lengths differ.
    """
    t = _as_binary("y_true", y_true, evaluator)
    p = _as_binary("y_pred", y_pred, evaluator)
    if t.shape[0] != p.shape[0]:
        where = f"{evaluator}: " if evaluator else ""
        raise ValueError(f"{where}y_true and y_pred differ in length ({t.shape[0]} vs {p.shape[0]})")
    return t, p
