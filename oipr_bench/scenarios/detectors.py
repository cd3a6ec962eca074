"""Synthetic detectors of the OIPR paper.

Each function turns a ground truth (or just a series length) into a 0/1
prediction of the same length, so that an evaluator can be audited on a
user's own labels.  The detectors are those of the paper's Sec. III-B
("Limitations of Existing Evaluators") and Appendix A (special scenarios):

========================  ====================================================
function                  paper
========================  ====================================================
:func:`first_point`       first point detector ``d_fp`` (Sec. III-B.1)
:func:`long_anomaly`      long anomaly detector ``d_l(L)`` (Sec. III-B.1)
:func:`dispersed_disturbance`   ``d_disp``: ideal + 1 % FP points anywhere (III-B.2)
:func:`aggregated_disturbance`  ``d_aggr``: ideal + 1 % FP points in the first 3 %
:func:`continuous_disturbance`  ``d_cont``: ideal with the first 3 % set to 1
:func:`random_detector`   Bernoulli detector of the random-detector scenario (App. A)
:func:`all_zeros`         constant all_0 detector (App. A, constant detectors c1)
:func:`all_ones`          constant all_1 detector (App. A, constant detectors c2)
========================  ====================================================

Every output is a fresh 1-D ``int8`` array of 0s and 1s.  The random
detectors are seeded and deterministic: the same arguments always give the
same output.  They draw from NumPy's legacy :class:`numpy.random.RandomState`
(the generator the paper's authors used), so results do not depend on the
NumPy version.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .events import to_events

__all__ = [
    "first_point",
    "long_anomaly",
    "dispersed_disturbance",
    "aggregated_disturbance",
    "continuous_disturbance",
    "random_detector",
    "all_zeros",
    "all_ones",
]


# --------------------------------------------------------------------------- validation
def _ground_truth(y_true: object, detector: str) -> np.ndarray:
    """Return ``y_true`` as a fresh int8 0/1 array or raise a ValueError naming ``detector``."""
    where = f"{detector}: y_true"
    try:
        arr = np.asarray(y_true)
    except Exception as exc:  # ragged nested sequences and the like
        raise ValueError(f"{where} cannot be read as an array ({exc})") from None
    if arr.dtype == object or arr.dtype.kind not in "biuf":
        raise ValueError(f"{where} must hold numeric or boolean 0/1 values, got dtype {arr.dtype}")
    if arr.ndim != 1:
        raise ValueError(f"{where} must be 1-D, got an array of shape {arr.shape}")
    if arr.shape[0] == 0:
        raise ValueError(f"{where} is empty")
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        raise ValueError(f"{where} contains NaN (first at index {int(np.flatnonzero(np.isnan(arr))[0])})")
    bad = (arr != 0) & (arr != 1)
    if bad.any():
        idx = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{where} must be binary (0/1); found {arr[idx]!r} at index {idx}")
    return arr.astype(np.int8)


def _length(length: object, detector: str) -> int:
    if isinstance(length, bool) or not isinstance(length, numbers.Integral):
        raise TypeError(f"{detector}: length must be an integer, got {type(length).__name__}")
    if int(length) < 1:
        raise ValueError(f"{detector}: length must be >= 1, got {int(length)}")
    return int(length)


def _fraction(value: object, name: str, detector: str, *, allow_zero: bool = True) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{detector}: {name} must be a number in [0, 1], got {type(value).__name__}")
    value = float(value)
    low_ok = value >= 0.0 if allow_zero else value > 0.0
    if not (math.isfinite(value) and low_ok and value <= 1.0):
        bound = "[0, 1]" if allow_zero else "(0, 1]"
        raise ValueError(f"{detector}: {name} must lie in {bound}, got {value!r}")
    return value


def _rng(seed: object, detector: str) -> np.random.RandomState:
    """A legacy RandomState from an int seed, or the caller's own RandomState (advanced in place)."""
    if isinstance(seed, np.random.RandomState):
        return seed
    if seed is None:
        raise TypeError(
            f"{detector}: seed is required (an int or a numpy.random.RandomState) so that the output is reproducible"
        )
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"{detector}: seed must be an int or a numpy.random.RandomState, got {type(seed).__name__}")
    if not 0 <= int(seed) < 2**32:
        raise ValueError(f"{detector}: seed must lie in [0, 2**32), got {int(seed)}")
    return np.random.RandomState(int(seed))


def _point_count(fraction: float, length: int) -> int:
    """Number of points that make up ``fraction`` of ``length`` (rounded half up, as 1 % of 1000 = 10)."""
    return int(math.floor(fraction * length + 0.5))


# --------------------------------------------------------------------------- event detectors
def first_point(y_true: object) -> np.ndarray:
    """First point detector ``d_fp`` (paper Sec. III-B.1, "Long Anomaly Effect").

    Predicts exactly the first point of every ground-truth event and 0
    everywhere else: it reports the existence of every anomaly but none of
    their durations.

    Parameters
    ----------
    y_true : array-like of shape (T,)
        Ground-truth 0/1 labels.

    Returns
    -------
    ndarray of int8, shape (T,)

    Examples
    --------
    >>> first_point([0, 1, 1, 1, 0, 1, 1]).tolist()
    [0, 1, 0, 0, 0, 1, 0]
    """
    gt = _ground_truth(y_true, "first_point")
    starts, _ = to_events(gt)
    out = np.zeros_like(gt)
    out[starts] = 1
    return out


def long_anomaly(y_true: object, min_length: int) -> np.ndarray:
    """Long anomaly detector ``d_l(L)`` (paper Sec. III-B.1).

    Predicts every point of the ground-truth events whose length is at
    least ``L = min_length`` and 0 everywhere else.

    Parameters
    ----------
    y_true : array-like of shape (T,)
        Ground-truth 0/1 labels.
    min_length : int
        ``L``; events with ``end - start >= L`` are detected. Must be >= 1.

    Returns
    -------
    ndarray of int8, shape (T,)

    Examples
    --------
    >>> long_anomaly([1, 0, 1, 1, 1, 0, 1, 1], min_length=3).tolist()
    [0, 0, 1, 1, 1, 0, 0, 0]
    """
    gt = _ground_truth(y_true, "long_anomaly")
    if isinstance(min_length, bool) or not isinstance(min_length, numbers.Integral):
        raise TypeError(f"long_anomaly: min_length must be an integer, got {type(min_length).__name__}")
    if int(min_length) < 1:
        raise ValueError(f"long_anomaly: min_length must be >= 1, got {int(min_length)}")
    starts, ends = to_events(gt)
    keep = (ends - starts) >= int(min_length)
    # +1 at each kept start, -1 at each kept end; the running sum marks the kept events.
    delta = np.zeros(gt.shape[0] + 1, dtype=np.int64)
    np.add.at(delta, starts[keep], 1)
    np.add.at(delta, ends[keep], -1)
    return (np.cumsum(delta[:-1]) > 0).astype(np.int8)


# --------------------------------------------------------------------------- disturbance detectors
def dispersed_disturbance(y_true: object, fraction: float = 0.01, *, seed: object = 0) -> np.ndarray:
    """Dispersed disturbance detector ``d_disp`` (paper Sec. III-B.2, "Fragmentation Effect").

    The ideal detector (prediction = ground truth) plus false-positive points
    making up ``fraction`` of the series (1 % in the paper), inserted at
    random positions anywhere in the series.  This simulates random noise.

    Parameters
    ----------
    y_true : array-like of shape (T,)
        Ground-truth 0/1 labels.
    fraction : float, default 0.01
        Share of the series turned into FP points; the count is
        ``round(fraction * T)`` (half up), drawn without replacement among the
        normal points.
    seed : int or numpy.random.RandomState, default 0
        Seed of the legacy RandomState (or a RandomState to draw from).

    Returns
    -------
    ndarray of int8, shape (T,)

    Raises
    ------
    ValueError
        If ``fraction`` is outside [0, 1] or the series has fewer normal
        points than FP points requested.
    """
    gt = _ground_truth(y_true, "dispersed_disturbance")
    fraction = _fraction(fraction, "fraction", "dispersed_disturbance")
    rng = _rng(seed, "dispersed_disturbance")
    n_fp = _point_count(fraction, gt.shape[0])
    normal = np.flatnonzero(gt == 0)
    if n_fp > normal.shape[0]:
        raise ValueError(
            f"dispersed_disturbance: fraction={fraction} asks for {n_fp} FP points "
            f"but y_true has only {normal.shape[0]} normal points"
        )
    out = gt.copy()
    out[rng.choice(normal, size=n_fp, replace=False)] = 1
    return out


def aggregated_disturbance(
    y_true: object, fraction: float = 0.01, window: float = 0.03, *, seed: object = 0
) -> np.ndarray:
    """Aggregated disturbance detector ``d_aggr`` (paper Sec. III-B.2).

    The ideal detector plus false-positive points making up ``fraction`` of
    the series (1 %), all inserted at random inside the initial ``window``
    share of the series (3 %).  This simulates short, intermittent
    disturbances after a deployment or change of the monitored service.

    Parameters
    ----------
    y_true : array-like of shape (T,)
        Ground-truth 0/1 labels.
    fraction : float, default 0.01
        Share of the whole series turned into FP points (``round(fraction * T)``).
    window : float, default 0.03
        Share of the series, from its start, where the FP points go
        (``round(window * T)`` points).
    seed : int or numpy.random.RandomState, default 0

    Returns
    -------
    ndarray of int8, shape (T,)

    Raises
    ------
    ValueError
        If the window holds fewer normal points than FP points requested.
    """
    gt = _ground_truth(y_true, "aggregated_disturbance")
    fraction = _fraction(fraction, "fraction", "aggregated_disturbance")
    window = _fraction(window, "window", "aggregated_disturbance")
    rng = _rng(seed, "aggregated_disturbance")
    n_fp = _point_count(fraction, gt.shape[0])
    n_window = _point_count(window, gt.shape[0])
    normal = np.flatnonzero(gt[:n_window] == 0)
    if n_fp > normal.shape[0]:
        raise ValueError(
            f"aggregated_disturbance: fraction={fraction} asks for {n_fp} FP points but the first "
            f"{n_window} points (window={window}) hold only {normal.shape[0]} normal points"
        )
    out = gt.copy()
    out[rng.choice(normal, size=n_fp, replace=False)] = 1
    return out


def continuous_disturbance(y_true: object, window: float = 0.03) -> np.ndarray:
    """Continuous disturbance detector ``d_cont`` (paper Sec. III-B.2).

    The ideal detector with the initial ``window`` share of the series (3 %,
    i.e. ``round(window * T)`` points) set to 1: one short, continuous
    disturbance after a deployment or change.  Deterministic.

    Parameters
    ----------
    y_true : array-like of shape (T,)
        Ground-truth 0/1 labels.
    window : float, default 0.03

    Returns
    -------
    ndarray of int8, shape (T,)

    Examples
    --------
    >>> continuous_disturbance([0] * 100, window=0.03)[:5].tolist()
    [1, 1, 1, 0, 0]
    """
    gt = _ground_truth(y_true, "continuous_disturbance")
    window = _fraction(window, "window", "continuous_disturbance")
    out = gt.copy()
    out[: _point_count(window, gt.shape[0])] = 1
    return out


# --------------------------------------------------------------------------- series-only detectors
def random_detector(length: int, p: float = 0.02, *, seed: object = 1) -> np.ndarray:
    """Random detector of the paper's random-detector scenario (Appendix A).

    Each point is anomalous independently with probability ``p`` (0.02 in the
    paper, over a 1000-point series).  Exactly: ``u = rng.rand(length)`` and
    the prediction is ``u > 1 - p``, with ``rng`` NumPy's legacy
    ``RandomState``.  This is the rule that reproduces the paper's means:
    with ``rng = RandomState(1)``, the first 100 calls give the runs of
    random detector c1 and the next 100 calls those of c2.

    Parameters
    ----------
    length : int
        Series length ``T`` (>= 1).
    p : float, default 0.02
        Probability that a point is predicted anomalous, in [0, 1].
    seed : int or numpy.random.RandomState, default 1
        An int seeds a fresh ``RandomState``; pass a ``RandomState`` to draw
        successive runs from one stream (it is advanced by one call of
        ``rand(length)``).

    Returns
    -------
    ndarray of int8, shape (length,)
    """
    length = _length(length, "random_detector")
    p = _fraction(p, "p", "random_detector")
    rng = _rng(seed, "random_detector")
    return (rng.rand(length) > 1.0 - p).astype(np.int8)


def all_zeros(length: int) -> np.ndarray:
    """Constant all_0 detector (paper Appendix A, constant detectors c1): 0 everywhere."""
    return np.zeros(_length(length, "all_zeros"), dtype=np.int8)


def all_ones(length: int) -> np.ndarray:
    """Constant all_1 detector (paper Appendix A, constant detectors c2): 1 everywhere."""
    return np.ones(_length(length, "all_ones"), dtype=np.int8)
