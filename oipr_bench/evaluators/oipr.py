"""OIPR: operator-interest precision and recall (Jing et al., the OIPR paper).

The operator interest curve of a 0/1 series (Algorithm 1) gives each point a
weight: the first point of an event gets ``omega(0) = 1``, the interest then
decays through the discovery phase towards ``b_dur`` (eq. 3), and after the
last alarm of an event it fades through an observation phase of ``l_obs``
points (eq. 4), which may run past the end of the series.  Alarms that resume
within the observation phase continue the same event (fragments merging).
Precision and recall compare the areas under the curves of the ground truth
(``I``) and of the prediction (``I_hat``), eqs. (5)-(9)::

    TP_oi = AUC(min(I, I_hat))      FP_oi = AUC(I_hat) - TP_oi
    FN_oi = AUC(I) - TP_oi
    P_oi = TP_oi / AUC(I_hat)       R_oi = TP_oi / AUC(I)

with AUC the plain sum of a curve's ``T + l_obs`` values.

Attenuation functions: "sigmoid" (eqs. 3-4, the paper's default), "linear"
(eqs. C.1-C.2) and "exp" (eqs. C.3-C.4).  ``omega(0) = gamma(0) = 1`` always;
``l_dis = 0`` gives ``omega(i > 0) = b_dur``; ``l_obs = 0`` removes the
observation phase, and OIPR then equals PW (eq. 10).

Degenerate policy: precision is 0 when ``AUC(I_hat) = 0`` (all-zero
prediction) and recall is 0 when ``AUC(I) = 0`` (no ground-truth anomaly).
With no ground-truth anomaly ``TP_oi = 0``, so P = R = F1 = 0, as the authors'
code gives; Table A1's constant detector c1 (all-zero prediction) prints
0/0/0.

The implementation is vectorised: it never loops over points in Python.
A curve that covers few points is built on its support only; one that may
cover many (long events, dense series, observation phases merging events
across the whole series) is never materialised: its areas are taken block by
block over the positions (``_oipr_blocks``), so memory stays bounded by the
blocks whatever the series.
"""

from __future__ import annotations

import functools
import math
from numbers import Integral
from typing import Any, NamedTuple, Optional, Union

import numpy as np

from ..scenarios.events import prefers_running_count, to_events
from .inputs import check_pair
from .kernels.oipr import CurveTables, make_tables, streamed_areas, streamed_areas_with_sparse
from ._params import check_choice, check_length_cap, check_real
from ._base import Evaluator, Score, make_score

__all__ = [
    "OIPR",
    "OIPRAreas",
    "ATTENUATIONS",
    "AUTO_RULES",
    "omega",
    "gamma",
    "omega_sigmoid",
    "gamma_sigmoid",
    "omega_linear",
    "gamma_linear",
    "omega_exp",
    "gamma_exp",
    "interest_curve",
    "auto_params",
    "event_area",
    "long_short_threshold",
]

ATTENUATIONS: tuple[str, ...] = ("sigmoid", "linear", "exp")
AUTO_RULES: tuple[str, ...] = ("paper", "authors_code")

ParamLength = Union[int, str]
Events = tuple[np.ndarray, np.ndarray]

_SIG_NEG5 = 1.0 / (1.0 + math.exp(5.0))  # sigmoid(-5)
_LOG100 = math.log(100.0)


# ---------------------------------------------------------------------------
# Interest functions, vectorised over integer distances i >= 0
# ---------------------------------------------------------------------------


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def omega_sigmoid(i: np.ndarray, l_dis: int, b_dur: float) -> np.ndarray:
    """Discovery/duration interest, reversed and scaled sigmoid (eq. 3).

    ``omega(0) = 1``; for ``i > 0``
    ``b_dur + (1 - b_dur) (1 - sigmoid(10 i / l_dis - 5)) / (1 - sigmoid(-5))``,
    and ``b_dur`` when ``l_dis = 0``.
    """
    i = np.asarray(i, dtype=np.float64)
    if l_dis == 0:
        out = np.full(i.shape, float(b_dur))
    else:
        out = b_dur + (1.0 - b_dur) * (1.0 - _sigmoid(10.0 / l_dis * i - 5.0)) / (1.0 - _SIG_NEG5)
    return np.where(i == 0, 1.0, out)


def gamma_sigmoid(i: np.ndarray, l_obs: int) -> np.ndarray:
    """Observation interest, reversed and scaled sigmoid (eq. 4); 0 beyond ``l_obs``."""
    i = np.asarray(i, dtype=np.float64)
    if l_obs == 0:
        return np.where(i == 0, 1.0, 0.0)
    out = (1.0 - _sigmoid(10.0 / l_obs * i - 5.0)) / (1.0 - _SIG_NEG5)
    return np.where(i == 0, 1.0, np.where(i > l_obs, 0.0, out))


def omega_linear(i: np.ndarray, l_dis: int, b_dur: float) -> np.ndarray:
    """Linear discovery/duration interest (eq. C.1): ``1 - (1 - b_dur) i / l_dis`` up to ``l_dis``, then ``b_dur``."""
    i = np.asarray(i, dtype=np.float64)
    if l_dis == 0:
        out = np.full(i.shape, float(b_dur))
    else:
        out = np.where(i <= l_dis, 1.0 - (1.0 - b_dur) * i / l_dis, float(b_dur))
    return np.where(i == 0, 1.0, out)


def gamma_linear(i: np.ndarray, l_obs: int) -> np.ndarray:
    """Linear observation interest (eq. C.2): ``1 - i / l_obs``; 0 beyond ``l_obs``."""
    i = np.asarray(i, dtype=np.float64)
    if l_obs == 0:
        return np.where(i == 0, 1.0, 0.0)
    return np.where(i == 0, 1.0, np.where(i > l_obs, 0.0, 1.0 - i / l_obs))


def omega_exp(i: np.ndarray, l_dis: int, b_dur: float) -> np.ndarray:
    """Exponential discovery/duration interest (eq. C.3): ``b_dur + (1 - b_dur) exp(-log(100) i / l_dis)``."""
    i = np.asarray(i, dtype=np.float64)
    if l_dis == 0:
        out = np.full(i.shape, float(b_dur))
    else:
        out = b_dur + (1.0 - b_dur) * np.exp(-_LOG100 * i / l_dis)
    return np.where(i == 0, 1.0, out)


def gamma_exp(i: np.ndarray, l_obs: int) -> np.ndarray:
    """Exponential observation interest (eq. C.4): ``exp(-log(100) i / l_obs)``; 0 beyond ``l_obs``."""
    i = np.asarray(i, dtype=np.float64)
    if l_obs == 0:
        return np.where(i == 0, 1.0, 0.0)
    return np.where(i == 0, 1.0, np.where(i > l_obs, 0.0, np.exp(-_LOG100 * i / l_obs)))


_OMEGA = {"sigmoid": omega_sigmoid, "linear": omega_linear, "exp": omega_exp}
_GAMMA = {"sigmoid": gamma_sigmoid, "linear": gamma_linear, "exp": gamma_exp}


def omega(i: np.ndarray, l_dis: int = 5, b_dur: float = 0.5, attenuation: str = "sigmoid") -> np.ndarray:
    """``omega(i)`` of the chosen attenuation (eq. 3, C.1 or C.3), as float64."""
    return _OMEGA[_check_attenuation(attenuation)](i, l_dis, b_dur)


def gamma(i: np.ndarray, l_obs: int = 20, attenuation: str = "sigmoid") -> np.ndarray:
    """``gamma(i)`` of the chosen attenuation (eq. 4, C.2 or C.4), as float64."""
    return _GAMMA[_check_attenuation(attenuation)](i, l_obs)


# ---------------------------------------------------------------------------
# Parameter validation
# ---------------------------------------------------------------------------


def _check_attenuation(attenuation: object) -> str:
    return check_choice("OIPR", "attenuation", attenuation, ATTENUATIONS)


def _check_length(name: str, value: object, allow_auto: bool) -> ParamLength:
    if isinstance(value, str):
        if allow_auto and value == "auto":
            return "auto"
        hint = ' or "auto"' if allow_auto else ""
        raise ValueError(f"OIPR: parameter {name} must be a non-negative integer{hint}; got {value!r}")
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Integral):
        hint = ' or "auto"' if allow_auto else ""
        raise TypeError(f"OIPR: parameter {name} must be a non-negative integer{hint}; got {value!r}")
    if value < 0:
        raise ValueError(f"OIPR: parameter {name} must be non-negative; got {value!r}")
    return check_length_cap("OIPR", name, int(value))


def _check_b_dur(value: object) -> float:
    return check_real("OIPR", "b_dur", value)


def _validate(l_dis: object, l_obs: object, b_dur: object, attenuation: object) -> tuple[int, int, float, str]:
    """Validate concrete (non-"auto") parameters of the public helper functions."""
    return (
        int(_check_length("l_dis", l_dis, allow_auto=False)),
        int(_check_length("l_obs", l_obs, allow_auto=False)),
        _check_b_dur(b_dur),
        _check_attenuation(attenuation),
    )


# ---------------------------------------------------------------------------
# Interest curve (Algorithm 1, vectorised)
# ---------------------------------------------------------------------------


class _Sparse(NamedTuple):
    """Non-zero support of an interest curve: sorted positions and their values."""

    positions: np.ndarray
    values: np.ndarray
    length: int  # T + l_obs

    def dense(self) -> np.ndarray:
        curve = np.zeros(self.length, dtype=np.float64)
        curve[self.positions] = self.values
        return curve


def _sparse_curve(y: np.ndarray, l_dis: int, l_obs: int, b_dur: float, attenuation: str,
                  events: Optional[Events] = None) -> _Sparse:
    """Vectorised Algorithm 1 on a validated 0/1 int8 array (no checks).

    Each maximal run of 1s ``[s, e)`` covers the segment ``[s, e + tail)``
    where ``tail = min(gap to the next run, l_obs)`` (the observation phase is
    cut by the next alarm).  A run opens a new (merged) event when its
    previous 1 lies more than ``l_obs`` points back, i.e. when the gap of 0s
    before it is at least ``l_obs``; otherwise it inherits ``p_start``.  At
    position ``t`` of the segment the interest is
    ``omega(t - p_start) * gamma(max(0, t - (e - 1)))``.  ``omega`` and
    ``gamma`` are evaluated once, as lookup tables.  ``events`` are ``y``'s
    runs when already known.
    """
    T = int(y.shape[0])
    L = T + l_obs
    idx_dtype = np.int32 if L < 2**31 - 1 else np.int64
    starts, ends = to_events(y.view(np.bool_)) if events is None else events
    n = starts.size
    if n == 0:
        return _Sparse(np.zeros(0, dtype=idx_dtype), np.zeros(0, dtype=np.float64), L)
    if l_obs == 0:
        # Every 1 restarts an event (t - p_end = 1 > 0): I = y (eq. 10).
        positions = np.flatnonzero(y.view(np.bool_)).astype(idx_dtype)
        return _Sparse(positions, np.ones(positions.size, dtype=np.float64), L)
    # Per-run arrays in idx_dtype (segments are disjoint, so every count and
    # position is below L); with T / 2 runs they would otherwise dominate memory.
    starts = starts.astype(idx_dtype)
    ends = ends.astype(idx_dtype)
    gaps = np.empty(n, dtype=idx_dtype)
    gaps[:-1] = starts[1:] - ends[:-1]
    gaps[-1] = l_obs  # the tail of the last run may run l_obs points past T - 1
    new_event = np.empty(n, dtype=bool)
    new_event[0] = True
    new_event[1:] = gaps[:-1] >= l_obs
    # p_start of each run: the start of the last run that opened an event.
    opener = np.where(new_event, np.arange(n, dtype=idx_dtype), idx_dtype(0))
    del new_event
    np.maximum.accumulate(opener, out=opener)
    p_start = starts[opener]
    del opener
    seg_len = gaps  # seg_len = (ends - starts) + min(gap, l_obs), in place
    np.minimum(seg_len, l_obs, out=seg_len)
    seg_len += ends
    seg_len -= starts
    seg_first = np.cumsum(seg_len, dtype=idx_dtype)  # where each segment begins in the output
    seg_first -= seg_len

    # Absolute position of every covered point: run start + offset in segment.
    positions = np.arange(int(seg_first[-1] + seg_len[-1]), dtype=idx_dtype)
    seg_first -= starts  # now seg_first - starts; subtracted below
    positions -= np.repeat(seg_first, seg_len)
    del seg_first

    # Lookup tables: omega over 0..max distance from p_start, gamma over 0..l_obs.
    max_dist = int((starts.astype(np.int64) - p_start + seg_len - 1).max())
    omega_tab = _omega_table(max_dist, l_dis, b_dur, attenuation)
    gamma_tab = _GAMMA[attenuation](np.arange(l_obs + 1), l_obs)

    # gamma index: distance from the run's last 1 (0 inside the run).
    ends -= 1
    idx = positions - np.repeat(ends, seg_len)
    del ends
    np.maximum(idx, 0, out=idx)
    values = gamma_tab[idx]
    # omega index: distance from the merged event's first 1.
    np.subtract(positions, np.repeat(p_start, seg_len), out=idx)
    if omega_tab.size <= max_dist:  # the table stops where omega has settled at b_dur
        np.minimum(idx, omega_tab.size - 1, out=idx)
    for c0 in range(0, idx.shape[0], _CHUNK):  # values *= omega_tab[idx] without a full-length temporary
        values[c0 : c0 + _CHUNK] *= omega_tab[idx[c0 : c0 + _CHUNK]]
    return _Sparse(positions, values, L)


#: Points per chunk of the omega lookup in :func:`_sparse_curve` (bounds its temporary).
_CHUNK = 1 << 20


def _omega_table(max_dist: int, l_dis: int, b_dur: float, attenuation: str) -> np.ndarray:
    """``omega(0..max_dist)``, or a shorter prefix whose last value is exactly ``b_dur``.

    ``omega`` never increases and is bounded below by ``b_dur``; once a
    computed value equals ``b_dur`` exactly, every later one does too (eqs. 3,
    C.1 and C.3 in floating point), so distances past the table may be
    clipped to its last entry.  This keeps the table short for events that
    span most of a long series (sigmoid settles by ``~4.2 l_dis``, exp by
    ``~162 l_dis`` even with ``b_dur = 0``, linear at ``l_dis``).
    """
    cap = 200 * (l_dis + 1)
    if max_dist >= cap:
        head = _OMEGA[attenuation](np.arange(cap), l_dis, b_dur)
        if head[-1] == b_dur:
            return head
    return _OMEGA[attenuation](np.arange(max_dist + 1), l_dis, b_dur)


def _min_on_support(large: _Sparse, small: _Sparse) -> np.ndarray:
    """``min(large(x), small(x))`` at every position ``x`` of ``small`` (``large`` is 0 off its support).

    The same array as ``np.minimum(large.dense()[small.positions], small.values)``,
    built :data:`_CHUNK` positions at a time by searching each chunk in the
    matching window of ``large``'s sorted positions: no dense array of ``T + l_obs`` values.
    """
    out = np.empty(small.positions.shape[0])
    for c0 in range(0, out.shape[0], _CHUNK):
        pos = small.positions[c0 : c0 + _CHUNK]
        lo = int(np.searchsorted(large.positions, pos[0], side="left"))
        hi = int(np.searchsorted(large.positions, pos[-1], side="right"))
        window = large.positions[lo:hi]
        if window.shape[0] == 0:
            out[c0 : c0 + _CHUNK] = np.minimum(0.0, small.values[c0 : c0 + _CHUNK])
            continue
        idx = np.searchsorted(window, pos)
        np.minimum(idx, window.shape[0] - 1, out=idx)
        found = np.where(window[idx] == pos, large.values[lo:hi][idx], 0.0)
        np.minimum(found, small.values[c0 : c0 + _CHUNK], out=out[c0 : c0 + _CHUNK])
    return out


def _overlap_area(true: _Sparse, pred: _Sparse) -> float:
    """``AUC(min(I, I_hat))`` (eq. 5) summed over the common support only.

    The shorter support is searched in the longer one (``min`` is symmetric).
    """
    small, large = (true, pred) if true.positions.size <= pred.positions.size else (pred, true)
    if small.positions.size == 0:
        return 0.0
    if prefers_running_count(large.positions.size, small.positions.size, large.length):
        # Dense supports: the larger curve as a dense array (zero off its support,
        # and min(0, v) = 0), read in the smaller curve's order; no binary search.
        return float(_min_on_support(large, small).sum())
    idx = np.searchsorted(large.positions, small.positions)
    np.minimum(idx, large.positions.size - 1, out=idx)
    common = large.positions[idx] == small.positions
    return float(np.minimum(large.values[idx[common]], small.values[common]).sum())


def interest_curve(
    y: Any,
    l_dis: int = 5,
    l_obs: int = 20,
    b_dur: float = 0.5,
    attenuation: str = "sigmoid",
) -> np.ndarray:
    """Operator interest curve of a 0/1 series (Algorithm 1).

    Parameters
    ----------
    y : array-like of shape (T,)
        0/1 series (ground truth or prediction).
    l_dis, l_obs : int
        Lengths of the discovery and observation phases (non-negative).
    b_dur : float
        Lower bound of interest in the duration phase, in ``[0, 1]``.
    attenuation : {"sigmoid", "linear", "exp"}
        Interest functions: eqs. (3)-(4), (C.1)-(C.2) or (C.3)-(C.4).

    Returns
    -------
    ndarray of float64, shape (T + l_obs,)
        The curve, including the observation tail past the series end.

    Examples
    --------
    >>> interest_curve([1, 0, 0], l_dis=0, l_obs=0, b_dur=0.5)
    array([1., 0., 0.])
    """
    l_dis, l_obs, b_dur, attenuation = _validate(l_dis, l_obs, b_dur, attenuation)
    arr, _ = check_pair(y, y, evaluator="OIPR")
    return _sparse_curve(arr, l_dis, l_obs, b_dur, attenuation).dense()


# ---------------------------------------------------------------------------
# "auto" parameters
# ---------------------------------------------------------------------------


def auto_params(y_true: np.ndarray, rule: str = "paper") -> tuple[int, int]:
    """``(l_dis, l_obs)`` from the mean ground-truth event length ``La``.

    Parameters
    ----------
    y_true : array-like of shape (T,)
        Ground truth, 0/1.
    rule : {"paper", "authors_code"}
        ``"paper"``: ``l_dis = ceil(La / 4)`` (Sec. IV-A: "1/4 of the average
        length of ground truth events, rounded up") and ``l_obs = ceil(La)``
        (the paper says ``l_obs = La``; a non-integer ``La`` is rounded up,
        like ``l_dis``).  ``"authors_code"``: the authors' public script,
        ``l_dis = ceil(La / 2)`` and ``l_obs = ceil(La)``.

    Returns
    -------
    l_dis, l_obs : int
        Computed exactly in integer arithmetic.  With no ground-truth event
        ``La`` is taken as 0 and both are 0 (the score is then P = R = 0 under
        any parameters).
    """
    if rule not in AUTO_RULES:
        raise ValueError(f"OIPR: parameter auto_rule must be one of {', '.join(AUTO_RULES)}; got {rule!r}")
    t, _ = check_pair(y_true, y_true, evaluator="OIPR")
    starts, ends = to_events(t.view(np.bool_))
    n = int(starts.size)
    if n == 0:
        return 0, 0
    total = int((ends - starts).sum())
    l_obs = -(-total // n)
    l_dis = -(-total // (4 * n)) if rule == "paper" else -(-total // (2 * n))
    return l_dis, l_obs


# ---------------------------------------------------------------------------
# The evaluator
# ---------------------------------------------------------------------------


class OIPRAreas(NamedTuple):
    """Areas of eqs. (5), (6), (8) and the two interest curves they come from."""

    tp: float
    fp: float
    fn: float
    curve_true: np.ndarray
    curve_pred: np.ndarray


class OIPR(Evaluator):
    """Operator-interest precision/recall (the OIPR paper, eqs. 2-9, Algorithm 1).

    Parameters
    ----------
    l_dis : int or "auto", default 5
        Length of the discovery phase (Table 3: 5 for the special scenarios).
    l_obs : int or "auto", default 20
        Length of the observation phase (Table 3: 20 for the special scenarios).
        ``l_obs = 0`` makes OIPR equal PW (eq. 10).
    b_dur : float, default 0.5
        Lower bound of interest in the duration phase, in ``[0, 1]``.
    attenuation : {"sigmoid", "linear", "exp"}, default "sigmoid"
        Interest functions of eqs. (3)-(4) or Appendix C's (C.1)-(C.4).
    auto_rule : {"paper", "authors_code"}, default "paper"
        How "auto" lengths are derived from the mean ground-truth event length
        ``La`` of each ``y_true`` (see :func:`auto_params`): the paper's
        ``l_dis = ceil(La/4)``, ``l_obs = ceil(La)``, or the authors' public
        code's ``l_dis = ceil(La/2)``, ``l_obs = ceil(La)``.

    Raises
    ------
    TypeError
        A length that is not an integer (or "auto"), a ``b_dur`` that is not a
        real number.
    ValueError
        A negative length, ``b_dur`` outside ``[0, 1]``, an unknown
        ``attenuation`` or ``auto_rule``.

    Notes
    -----
    Degenerate policy: P = 0 when ``AUC(I_hat) = 0`` (all-zero prediction),
    R = 0 when ``AUC(I) = 0`` (no ground-truth anomaly, where also P = 0).

    Examples
    --------
    >>> OIPR(l_obs=0)([0, 1, 1, 0], [0, 1, 0, 1])   # eq. 10: equals PW
    Score(precision=0.5, recall=0.5, f1=0.5)
    """

    name = "OIPR"

    def __init__(
        self,
        l_dis: ParamLength = 5,
        l_obs: ParamLength = 20,
        b_dur: float = 0.5,
        attenuation: str = "sigmoid",
        auto_rule: str = "paper",
    ) -> None:
        self.l_dis = _check_length("l_dis", l_dis, allow_auto=True)
        self.l_obs = _check_length("l_obs", l_obs, allow_auto=True)
        self.b_dur = _check_b_dur(b_dur)
        self.attenuation = _check_attenuation(attenuation)
        self.auto_rule = check_choice(self.name, "auto_rule", auto_rule, AUTO_RULES)

    def resolve_params(self, y_true: Any) -> tuple[int, int]:
        """Concrete ``(l_dis, l_obs)`` for ``y_true`` ("auto" resolved by ``auto_rule``)."""
        if self.l_dis != "auto" and self.l_obs != "auto":
            return int(self.l_dis), int(self.l_obs)
        t, _ = check_pair(y_true, y_true, evaluator=self.name)
        return self._resolve(t)

    def _resolve(self, t: np.ndarray) -> tuple[int, int]:
        if self.l_dis != "auto" and self.l_obs != "auto":
            return int(self.l_dis), int(self.l_obs)
        auto_dis, auto_obs = auto_params(t, self.auto_rule)
        l_dis = auto_dis if self.l_dis == "auto" else int(self.l_dis)
        l_obs = auto_obs if self.l_obs == "auto" else int(self.l_obs)
        return l_dis, l_obs

    def _areas(self, t: np.ndarray, p: np.ndarray) -> tuple[float, float, float]:
        """``(TP_oi, AUC(I), AUC(I_hat))`` (eqs. 5-9) of two validated int8 series.

        Three exact routes, chosen by the number of points each curve may
        cover (its 1s plus a full observation phase per run): both curves
        small, both on their support (:func:`_sparse_curve`); one small, it on
        its support and the other streamed block by block; both large, both
        streamed (``_oipr_blocks``).  Memory is then bounded by the small
        curves and the blocks, never by ``T`` covered points.
        """
        l_dis, l_obs = self._resolve(t)
        if l_obs == 0:  # every 1 restarts an event: I = y (eq. 10)
            return float(np.count_nonzero(t & p)), float(np.count_nonzero(t)), float(np.count_nonzero(p))
        series = (t, p)
        budget = _SPARSE_SHARE * t.shape[0]
        # Runs are extracted up front only for series that may have few 1s (the others are read block by block).
        events = [None if _surely_covers_many(y, l_obs, budget) else to_events(y.view(np.bool_)) for y in series]
        small = [ev is not None and _covers_few(ev, l_obs, budget) for ev in events]
        if all(small):
            true, pred = (_sparse_curve(y, l_dis, l_obs, self.b_dur, self.attenuation, ev)
                          for y, ev in zip(series, events))
            return _overlap_area(true, pred), float(true.values.sum()), float(pred.values.sum())
        tables = _tables(t.shape[0], l_dis, l_obs, self.b_dur, self.attenuation)
        if not any(small):
            return streamed_areas(t, p, tables)
        k = 0 if small[0] else 1
        curve = _sparse_curve(series[k], l_dis, l_obs, self.b_dur, self.attenuation, events[k])
        tp, auc_large = streamed_areas_with_sparse(series[1 - k], curve.positions, curve.values, tables)
        auc_small = float(curve.values.sum())
        return (tp, auc_small, auc_large) if k == 0 else (tp, auc_large, auc_small)

    def areas(self, y_true: Any, y_pred: Any) -> OIPRAreas:
        """TP/FP/FN areas (eqs. 5, 6, 8) and both interest curves.

        Returns
        -------
        OIPRAreas
            ``tp``, ``fp = AUC(I_hat) - tp``, ``fn = AUC(I) - tp`` and the
            dense curves ``curve_true`` (``I``) and ``curve_pred``
            (``I_hat``), each of length ``T + l_obs`` ("auto" lengths are
            resolved from ``y_true``).
        """
        t, p = check_pair(y_true, y_pred, evaluator=self.name)
        tp, auc_true, auc_pred = self._areas(t, p)
        l_dis, l_obs = self._resolve(t)
        curve_true, curve_pred = (_sparse_curve(y, l_dis, l_obs, self.b_dur, self.attenuation).dense() for y in (t, p))
        return OIPRAreas(tp, auc_pred - tp, auc_true - tp, curve_true, curve_pred)

    def __call__(self, y_true: Any, y_pred: Any) -> Score:
        t, p = check_pair(y_true, y_pred, evaluator=self.name)
        tp, auc_true, auc_pred = self._areas(t, p)
        precision = tp / auc_pred if auc_pred > 0 else 0.0
        recall = tp / auc_true if auc_true > 0 else 0.0
        return make_score(precision, recall)


#: A curve that may cover more than this share of the ``T`` points is streamed, never materialised.
_SPARSE_SHARE = 1 / 8


#: Sample of :func:`_surely_covers_many`: windows of this many points, one window in :data:`_SAMPLE_STEP`.
_SAMPLE_WINDOW = 1024
_SAMPLE_STEP = 64


def _surely_covers_many(y: np.ndarray, l_obs: int, budget: float) -> bool:
    """Whether a regular sample of ``y`` suggests a curve covering more than ``budget`` points.

    The sample is one window of :data:`_SAMPLE_WINDOW` points in every
    :data:`_SAMPLE_STEP`; its 1s plus ``l_obs`` points per run of 1s,
    scaled to the series, estimate the covered points.  Such a series is
    streamed without listing its runs whole.  Only the route depends on it,
    never the result: streaming is exact for any series.
    """
    rows = y[: y.shape[0] - y.shape[0] % _SAMPLE_WINDOW].reshape(-1, _SAMPLE_WINDOW)[::_SAMPLE_STEP]
    if rows.shape[0] == 0:
        return False
    ones = np.count_nonzero(rows)
    runs = np.count_nonzero(rows[:, 1:] > rows[:, :-1]) + np.count_nonzero(rows[:, 0])
    return (ones + runs * l_obs) * (y.shape[0] / rows.size) > budget


def _covers_few(events: Events, l_obs: int, budget: float) -> bool:
    """Whether the curve of these runs surely covers at most ``budget`` points (1s + ``l_obs`` per run)."""
    starts, ends = events
    if starts.size * l_obs > budget:
        return False
    return int((ends - starts).sum()) + starts.size * l_obs <= budget


#: The streamed path's tables cover ``T + l_obs`` rounded up to a multiple of this, so that
#: series of nearby lengths share one cached set.
_TABLE_STEP = 1 << 20


def _tables(T: int, l_dis: int, l_obs: int, b_dur: float, attenuation: str) -> CurveTables:
    """The streamed path's lookup tables for a series of ``T`` points.

    Built once per parameter set (and span) and kept: their cost grows with
    ``l_dis`` and ``l_obs`` (``gamma`` over ``0 .. l_obs``, ``omega`` up to
    ``T + l_obs`` until it settles), and an audit makes hundreds of calls
    with one parameter set, so rebuilding them per call made a length
    parameter at its cap (10^7) cost about 0.5 s per call and minutes per
    audit.  A table covering more distances than a call needs gives
    the same values: every distance a call reads is at most ``T + l_obs``.
    """
    span = -(-(T + l_obs) // _TABLE_STEP) * _TABLE_STEP
    return _span_tables(span, l_dis, l_obs, b_dur, attenuation)


@functools.lru_cache(maxsize=2)
def _span_tables(span: int, l_dis: int, l_obs: int, b_dur: float, attenuation: str) -> CurveTables:
    """:func:`make_tables` for distances up to ``span``, read-only (shared between calls)."""
    omega_tab = _omega_table(span, l_dis, b_dur, attenuation)
    tables = make_tables(omega_tab, _GAMMA[attenuation](np.arange(l_obs + 1), l_obs), b_dur)
    for table in (tables.omega, tables.gamma, tables.settled):
        table.setflags(write=False)
    return tables


# ---------------------------------------------------------------------------
# Table C1: long/short anomaly threshold
# ---------------------------------------------------------------------------


def event_area(
    lengths: Any, l_dis: int = 5, l_obs: int = 20, b_dur: float = 0.5, attenuation: str = "sigmoid"
) -> np.ndarray:
    """AUC of the interest curve of one complete event of each length in ``lengths``.

    For an isolated event of ``x >= 1`` points, Algorithm 1 gives
    ``AUC(x) = sum_{i<x} omega(i) + sum_{j=1..l_obs} omega(x - 1 + j) gamma(j)``
    (the discovery/duration phase, then the observation tail; ``omega`` keeps
    counting from the event start during the tail, as in Algorithm 1).  This
    is the "TP" of Appendix C.1 / Fig. C1(b) and equals
    ``interest_curve(np.ones(x), ...).sum()``.

    Parameters
    ----------
    lengths : array-like of int
        Event lengths ``x >= 1``.
    l_dis, l_obs, b_dur, attenuation
        As for :class:`OIPR` (concrete values, no "auto").

    Returns
    -------
    ndarray of float64, same shape as ``lengths``
    """
    l_dis, l_obs, b_dur, attenuation = _validate(l_dis, l_obs, b_dur, attenuation)
    x = np.asarray(lengths)
    if x.dtype.kind not in "iu" or (x.size and int(x.min()) < 1):
        raise ValueError(f"OIPR: event lengths must be integers >= 1; got {lengths!r}")
    if x.size == 0:
        return np.zeros(x.shape, dtype=np.float64)
    if l_obs == 0:
        return x.astype(np.float64)
    x_max = int(x.max())
    omega_tab = _OMEGA[attenuation](np.arange(x_max + l_obs), l_dis, b_dur)
    gamma_tab = _GAMMA[attenuation](np.arange(1, l_obs + 1), l_obs)
    head = np.cumsum(omega_tab)  # head[x - 1] = sum_{i<x} omega(i)
    # tail[x - 1] = sum_j omega(x - 1 + j) gamma(j), j = 1..l_obs
    tail = np.correlate(omega_tab[1:], gamma_tab, mode="valid")
    return head[x - 1] + tail[x - 1]


def long_short_threshold(
    l_dis: int, l_obs: int, b_dur: float = 0.5, attenuation: str = "sigmoid", max_length: int = 10**7
) -> float:
    """Threshold between short and long anomalies (Appendix C.1, Table C1).

    An anomaly of length ``x`` is *short* when the interest area of a complete,
    perfectly detected event exceeds PW's ``TP = x`` (OIPR rewards it more than
    PW) and *long* when it falls below.  With ``f(x) = event_area(x) - x``,
    which is non-increasing in ``x``, the threshold is the zero crossing of
    ``f``, linearly interpolated between the last integer length with
    ``f > 0`` and the first with ``f <= 0``.

    This reproduces every value of Table C1 (``l_obs = 4 l_dis``,
    ``b_dur = 0.5``) to 2 decimals, e.g. 12.59 for sigmoid and 5.48 for exp
    at ``l_dis = 5``.  Freezing ``omega`` at the end of the duration phase in
    the tail (eq. 2 read literally) does not: it gives 5.50 for exp.

    Parameters
    ----------
    l_dis, l_obs : int
        Phase lengths (Table C1 uses ``l_obs = 4 l_dis``).
    b_dur : float, default 0.5
    attenuation : {"sigmoid", "linear", "exp"}, default "sigmoid"
    max_length : int, default 10**7
        Longest event length searched.

    Returns
    -------
    float
        The threshold length.  ``math.inf`` when ``b_dur = 1`` and
        ``l_obs > 0`` (every event gains over PW); 1.0 when ``f(1) <= 0``,
        which happens only for ``l_obs = 0`` (OIPR equals PW: no event gains).

    Raises
    ------
    ValueError
        Invalid parameters, or no crossing up to ``max_length``.
    """
    l_dis, l_obs, b_dur, attenuation = _validate(l_dis, l_obs, b_dur, attenuation)
    if l_obs == 0:
        return 1.0
    if b_dur == 1.0:
        return math.inf
    n = 64 * (l_dis + l_obs + 1)
    while True:
        n = min(n, max_length)
        x = np.arange(1, n + 1)
        f = event_area(x, l_dis, l_obs, b_dur, attenuation) - x
        below = np.flatnonzero(f <= 0)
        if below.size:
            k = int(below[0])
            if k == 0:
                return 1.0
            f_pos, f_neg = float(f[k - 1]), float(f[k])
            return float(x[k - 1]) + f_pos / (f_pos - f_neg)
        if n >= max_length:
            raise ValueError(
                f"OIPR: no long/short threshold up to length {max_length} "
                f"(l_dis={l_dis}, l_obs={l_obs}, b_dur={b_dur}, attenuation={attenuation!r})"
            )
        n *= 8
