"""Range-based precision and recall, RP/RR (Tatbul et al., NeurIPS 2018).

Tatbul, Lee, Zdonik, Alam and Gottschlich, *Precision and Recall for Time
Series*, NeurIPS 2018, Sec. 4.  With real (ground-truth) ranges
``R = {R_1 .. R_Nr}`` and predicted ranges ``P = {P_1 .. P_Np}``:

* recall of one real range (their eqs. 3-7)::

      Recall_T(R_i, P) = alpha_r * Existence(R_i, P)
                         + (1 - alpha_r) * gamma(R_i, P) * sum_j omega(R_i, R_i & P_j, delta_r)

  ``Existence`` is 1 when some ``P_j`` overlaps ``R_i``; ``gamma`` is the
  cardinality factor (1 when ``R_i`` overlaps at most one ``P_j``, otherwise
  ``1/x`` for "reciprocal" with ``x`` overlapping predicted ranges, or 1 for
  "one"); ``omega`` is the overlap size: the share of ``R_i``'s positional-bias
  weight ``delta(i, L)`` (``i = 1..L`` inside the range) that the overlap
  covers.  ``RR`` is the mean over the real ranges.
* precision of one predicted range (their eqs. 9-10) is the same with the
  roles of ``R`` and ``P`` swapped, ``alpha_p`` and ``delta_p``; ``RP`` is the
  mean over the predicted ranges.
* positional bias (their Fig. 2): flat ``1``; front ``L - i + 1``; back ``i``;
  middle ``i`` for ``i <= L/2`` and ``L - i + 1`` otherwise.

The OIPR paper's Table 3 setting is the default: recall alpha 0.5 with a
front-end bias, precision alpha 0 with a flat bias, reciprocal cardinality.

How it is computed
------------------
Ranges within one series are disjoint and sorted, so the predicted ranges
overlapping a real range form a contiguous block found with
``np.searchsorted``; all overlapping (real, predicted) pairs come out of one
vectorised expansion (at most ``Nr + Np - 1`` pairs).  The positional-bias
weight of a range prefix has a closed form ``W(n, L) = sum_{i<=n} delta(i, L)``
(triangular numbers), so the weight of an intersection ``[a, b)`` inside a range
starting at ``s`` is ``W(b - s, L) - W(a - s, L)``, computed in exact int64
arithmetic.  Everything after the event extraction is O(number of events).

Degenerate inputs (a documented policy; Tatbul et al. leave them undefined)
----------------------------------------------------------------------------
* all-zero prediction: no predicted range, so RP = 0; every real range is
  missed, so RR = 0; F1 = 0 (the paper's Table A1, constant detector c1).
* no ground-truth anomaly: RR = 0 (no range can be recalled; like
  scikit-learn's ``zero_division=0``); every predicted range overlaps nothing,
  so RP = 0 (the existence term is 0 too); F1 = 0.
* both: P = R = F1 = 0.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..events import count_at_most, to_events
from ..inputs import check_pair
from ._params import check_choice, check_real
from ._base import Evaluator, Score, make_score

__all__ = ["RangeBased", "BIASES", "CARDINALITIES"]

#: Positional-bias functions delta(i, L) of Tatbul et al. (Fig. 2).
BIASES: tuple[str, ...] = ("flat", "front", "back", "middle")
#: Cardinality functions gamma: "reciprocal" = 1/x, "one" = 1.
CARDINALITIES: tuple[str, ...] = ("reciprocal", "one")


def _tri(n: np.ndarray) -> np.ndarray:
    """Triangular numbers ``n (n + 1) / 2`` in exact int64 arithmetic."""
    return n * (n + 1) // 2


def _prefix_weight(n: np.ndarray, length: np.ndarray, bias: str) -> np.ndarray:
    """``W(n, L) = sum_{i=1}^{n} delta(i, L)`` for ``0 <= n <= L`` (int64, exact).

    flat: ``n``; back: ``T(n)``; front: ``T(L) - T(L - n)``; middle with
    ``h = L // 2``: ``T(n)`` for ``n <= h``, else ``T(h) + T(L - h) - T(L - n)``,
    where ``T`` are the triangular numbers.
    """
    if bias == "flat":
        return n
    if bias == "back":
        return _tri(n)
    if bias == "front":
        return _tri(length) - _tri(length - n)
    # middle
    half = length // 2
    return np.where(n <= half, _tri(n), _tri(half) + _tri(length - half) - _tri(length - n))


#: Overlapping (real, predicted) pairs handled per chunk: bounds the
#: temporaries of one call whatever the number of events.
CHUNK = 1 << 16


def _compact_events(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Events of ``y`` as contiguous int32 arrays while ``T < 2**31 - 1`` (else int64)."""
    starts, ends = to_events(y.view(np.bool_))
    dtype = np.int32 if y.shape[0] < 2**31 - 1 else np.int64
    return starts.astype(dtype), ends.astype(dtype)


def _range_scores(
    own_s: np.ndarray, own_e: np.ndarray, covered_sum: np.ndarray, count: np.ndarray,
    alpha: float, cardinality: str, bias: str,
) -> float:
    """Mean over ``own`` ranges of ``alpha * existence + (1 - alpha) * gamma * sum omega``.

    ``covered_sum`` is the bias-weighted covered size summed over each range's
    overlaps and ``count`` the number of its overlaps; ``covered_sum`` is
    overwritten (the per-range scores are built in it, :data:`CHUNK` ranges at
    a time, with the same floating-point operations as the unchunked formula).
    """
    n_own = own_s.shape[0]
    if n_own == 0:
        return 0.0
    for i0 in range(0, n_own, CHUNK):
        i1 = min(i0 + CHUNK, n_own)
        length = (own_e[i0:i1] - own_s[i0:i1]).astype(np.int64)
        omega = covered_sum[i0:i1] / _prefix_weight(length, length, bias)
        if cardinality == "reciprocal":
            gamma = 1.0 / np.maximum(count[i0:i1], 1)
        else:
            gamma = np.ones(i1 - i0)
        existence = (count[i0:i1] > 0).astype(np.float64)
        covered_sum[i0:i1] = alpha * existence + (1.0 - alpha) * gamma * omega
    return float(covered_sum.sum() / n_own)


def _pair_sums(
    r_s: np.ndarray, r_e: np.ndarray, p_s: np.ndarray, p_e: np.ndarray, length: int, bias_r: str, bias_p: str,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per real and per predicted range: summed bias-weighted covered size and number of overlaps.

    The overlapping pairs are enumerated :data:`CHUNK` at a time.  Covered
    sizes are integers below 2**53, so their float sums are exact in any order.
    """
    # Predicted ranges overlapping real range i: indices first[i] .. last[i]-1
    # (p_e > r_s[i] and p_s < r_e[i]); disjoint sorted ranges make this a block.
    # (searchsorted(p_s, r_e, "left") = number of starts <= r_e - 1.)
    first = count_at_most(p_e, r_s, length).astype(r_s.dtype, copy=False)
    count_r = count_at_most(p_s, r_e - 1, length).astype(r_s.dtype, copy=False)
    count_r -= first
    np.maximum(count_r, 0, out=count_r)
    pair_end = np.cumsum(count_r, dtype=np.int64)
    n_pairs = int(pair_end[-1]) if pair_end.shape[0] else 0
    cov_r = np.zeros(r_s.shape[0])
    cov_p = np.zeros(p_s.shape[0])
    count_p = np.zeros(p_s.shape[0], dtype=r_s.dtype)
    for k0 in range(0, n_pairs, CHUNK):
        k1 = min(k0 + CHUNK, n_pairs)
        idx = np.arange(k0, k1, dtype=np.int64)
        i0 = int(np.searchsorted(pair_end, k0, side="right"))
        i1 = int(np.searchsorted(pair_end, k1 - 1, side="right")) + 1
        pair_r = i0 + np.searchsorted(pair_end[i0:i1], idx, side="right")
        pair_p = first[pair_r] + (idx - (pair_end[pair_r] - count_r[pair_r]))
        lo = np.maximum(r_s[pair_r], p_s[pair_p]).astype(np.int64)
        hi = np.minimum(r_e[pair_r], p_e[pair_p]).astype(np.int64)
        _add_covered(cov_r, pair_r, lo, hi, r_s, r_e, bias_r)
        _add_covered(cov_p, pair_p, lo, hi, p_s, p_e, bias_p)
        j0 = int(pair_p[0])
        count_p[j0 : int(pair_p[-1]) + 1] += np.bincount(pair_p - j0).astype(count_p.dtype)
    return cov_r, count_r, cov_p, count_p


def _add_covered(
    acc: np.ndarray, own: np.ndarray, lo: np.ndarray, hi: np.ndarray, own_s: np.ndarray, own_e: np.ndarray,
    bias: str,
) -> None:
    """Add ``W(hi - s) - W(lo - s)`` of each pair to its owning range's sum (int64 arithmetic)."""
    start = own_s[own].astype(np.int64)
    size = own_e[own].astype(np.int64) - start
    covered = _prefix_weight(hi - start, size, bias) - _prefix_weight(lo - start, size, bias)
    j0 = int(own[0])
    acc[j0 : int(own[-1]) + 1] += np.bincount(own - j0, weights=covered)


class RangeBased(Evaluator):
    """Range-based precision RP and recall RR of Tatbul et al. (NeurIPS 2018).

    Parameters
    ----------
    alpha_r : float, default 0.5
        Weight of the existence reward in recall (Tatbul et al., eq. 3), in [0, 1].
    alpha_p : float, default 0.0
        Weight of the existence reward in precision, in [0, 1].  Tatbul et al.'s
        precision (eq. 9) has none, i.e. 0; public implementations expose it.
    cardinality : {"reciprocal", "one"}, default "reciprocal"
        Cardinality factor gamma for a range overlapping ``x > 1`` ranges of
        the other series: ``1/x`` or ``1``.  Applies to both RP and RR.
    bias_r : {"front", "flat", "back", "middle"}, default "front"
        Positional bias delta of recall (over each ground-truth range).
    bias_p : {"flat", "front", "back", "middle"}, default "flat"
        Positional bias delta of precision (over each predicted range).

    Notes
    -----
    The overlap size omega is Tatbul et al.'s default: the positional-bias
    weighted share of a range covered by the overlap.  Defaults are the OIPR
    paper's Table 3 setting, which reproduces its Table A1 RP/RR column.
    Degenerate inputs: an all-zero prediction and a series without
    ground-truth anomaly both give ``P = R = F1 = 0`` (see the module
    docstring).  Cost: O(T) to find the events, then O(number of events).

    Examples
    --------
    >>> rb = RangeBased()
    >>> rb([0, 1, 1, 1, 1, 0], [0, 1, 0, 0, 0, 0])
    Score(precision=1.0, recall=0.7, f1=0.8235294117647058)
    """

    name = "RP/RR"

    def __init__(
        self,
        *,
        alpha_r: float = 0.5,
        alpha_p: float = 0.0,
        cardinality: str = "reciprocal",
        bias_r: str = "front",
        bias_p: str = "flat",
    ) -> None:
        self.alpha_r = check_real(self.name, "alpha_r", alpha_r)
        self.alpha_p = check_real(self.name, "alpha_p", alpha_p)
        self.cardinality = check_choice(self.name, "cardinality", cardinality, CARDINALITIES)
        self.bias_r = check_choice(self.name, "bias_r", bias_r, BIASES)
        self.bias_p = check_choice(self.name, "bias_p", bias_p, BIASES)

    def __call__(self, y_true: Any, y_pred: Any) -> Score:
        """Return RP, RR and their F1 for one pair of 0/1 series.

        Raises
        ------
        ValueError
            On invalid input (see :func:`oipr_bench.inputs.check_pair`).
        """
        t, p = check_pair(y_true, y_pred, evaluator=self.name)
        r_s, r_e = _compact_events(t)
        p_s, p_e = _compact_events(p)
        cov_r, count_r, cov_p, count_p = _pair_sums(r_s, r_e, p_s, p_e, t.shape[0], self.bias_r, self.bias_p)
        recall = _range_scores(r_s, r_e, cov_r, count_r, self.alpha_r, self.cardinality, self.bias_r)
        del cov_r, count_r
        precision = _range_scores(p_s, p_e, cov_p, count_p, self.alpha_p, self.cardinality, self.bias_p)
        return make_score(precision, recall)
