"""AM: the affiliation metrics of Huet, Navarro and Rossi (KDD 2022).

Reference: A. Huet, J. M. Navarro, D. Rossi, "Local Evaluation of Time Series
Anomaly Detection Algorithms", KDD 2022, Sec. 3 (affiliation zones, Eq. for
the individual precision/recall probabilities and their averages).  The OIPR
paper reports it as "AM" (Table A1, Table 5: no custom parameter).

Definition, as implemented here
-------------------------------
Each point ``i`` of a 0/1 series is the interval ``[i, i + 1)``; an event is a
maximal run of 1s, the interval ``[start, end)``.  The time range is the whole
series, ``Trange = (0, T)`` (the convention under which the OIPR paper's
Table A1 is reproduced; it is *not* inferred from the events).

1. **Affiliation zones.**  Ground-truth events ``J_1 < ... < J_n`` with
   ``J_j = [a_j, b_j)`` cut ``Trange`` at the midpoints ``(b_j + a_{j+1}) / 2``;
   zone ``I_j = [lo_j, hi_j]`` holds ``J_j`` and every instant closer to it
   than to any other event.  The prediction ``Y`` is cut into
   ``Y_j = Y ∩ I_j``.
2. **Individual precision** of zone ``j`` (defined when ``|Y_j| > 0``)::

       P_j = 1/|Y_j| ∫_{y ∈ Y_j} S_j(dist(y, J_j)) dy,
       S_j(d) = |{x ∈ I_j : dist(x, J_j) >= d}| / |I_j|.

   For ``d > 0`` and ``L_j = a_j - lo_j``, ``R_j = hi_j - b_j``:
   ``S_j(d) = (max(L_j - d, 0) + max(R_j - d, 0)) / |I_j|``; inside
   ``J_j`` the integrand is 1.
3. **Individual recall** of zone ``j`` (0 when ``Y_j`` is empty)::

       R_j = 1/|J_j| ∫_{x ∈ J_j} S_{j,x}(dist(x, Y_j)) dx,
       S_{j,x}(d) = |{t ∈ I_j : |t - x| >= d}| / |I_j|
                  = 1 - (min(d, hi_j - x) + min(d, x - lo_j)) / |I_j|.

4. ``precision`` is the mean of ``P_j`` over the zones with ``|Y_j| > 0``,
   ``recall`` the mean of ``R_j`` over all zones, ``F1 = 2PR / (P + R)``.

Every integrand is piecewise linear, so the integrals have closed forms; the
code below evaluates them for all predicted pieces at once (no loop over
points or events).  The closed forms are derived in the comments of
:func:`_precision_piece_integrals` and :func:`_left_anchor_recall_integrals`.

Degenerate inputs (documented policy)
-------------------------------------
* All-zero prediction (with at least one ground-truth event): precision NaN
  (no zone holds a prediction, the mean is empty), recall 0, F1 NaN, exactly
  as the OIPR paper prints for constant detector c1 (Table A1).
* No ground-truth event: affiliation zones are undefined and the recall is a
  mean over zero zones, so recall is NaN.  Precision is 0 when the prediction
  has at least one point (each predicted instant lies at infinite distance
  from the - absent - ground truth, so its survival probability is 0) and NaN
  when the prediction is empty too.  F1 is NaN in both cases.
* AM is not invariant to appending zeros to both series: the zones span the
  whole series, so a longer ``Trange`` changes the survival functions.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ..events import count_at_most, to_events
from ..inputs import check_pair
from ._base import Evaluator, Score, make_score

__all__ = ["Affiliation", "AffiliationZones"]


class AffiliationZones(NamedTuple):
    """Per-zone detail of one AM evaluation (Huet et al., Sec. 3).

    Attributes
    ----------
    gt_start, gt_end : ndarray of float64, shape (n,)
        Ground-truth events ``J_j = [gt_start, gt_end)``.
    zone_start, zone_end : ndarray of float64, shape (n,)
        Affiliation zones ``I_j = [zone_start, zone_end]``.
    precision : ndarray of float64, shape (n,)
        Individual precision probability ``P_j`` (NaN where ``Y_j`` is empty).
    recall : ndarray of float64, shape (n,)
        Individual recall probability ``R_j`` (0 where ``Y_j`` is empty).
    """

    gt_start: np.ndarray
    gt_end: np.ndarray
    zone_start: np.ndarray
    zone_end: np.ndarray
    precision: np.ndarray
    recall: np.ndarray


def _precision_piece_integrals(
    u: np.ndarray, v: np.ndarray, a: np.ndarray, b: np.ndarray, left: np.ndarray, right: np.ndarray, width: np.ndarray
) -> np.ndarray:
    """``∫_{[u, v]} S(dist(y, [a, b])) dy`` for predicted pieces inside their zone.

    Inside ``[a, b]`` the integrand is 1.  Left of ``a`` the distance is
    ``d = a - y`` and runs over ``[max(a - v, 0), max(a - u, 0)]``; right of
    ``b`` it is ``d = y - b`` over ``[max(u - b, 0), max(v - b, 0)]``.  With
    ``S(d) = (max(L - d, 0) + max(R - d, 0)) / W`` and, for ``t`` in {L, R},
    ``∫_{d1}^{d2} max(t - s, 0) ds = (m2 - m1) (t - (m1 + m2) / 2)`` where
    ``mi = min(di, t)`` (the product form avoids cancellation on long series).
    """

    def ramp(t: np.ndarray, d1: np.ndarray, d2: np.ndarray) -> np.ndarray:
        m1 = np.minimum(d1, t)
        m2 = np.minimum(d2, t)
        return (m2 - m1) * (t - 0.5 * (m1 + m2))

    inside = np.maximum(np.minimum(v, b) - np.maximum(u, a), 0.0)
    dl1 = np.maximum(a - v, 0.0)
    dl2 = np.maximum(a - u, 0.0)
    dr1 = np.maximum(u - b, 0.0)
    dr2 = np.maximum(v - b, 0.0)
    outside = ramp(left, dl1, dl2) + ramp(right, dl1, dl2) + ramp(left, dr1, dr2) + ramp(right, dr1, dr2)
    return inside + outside / width


def _left_anchor_recall_integrals(
    p: np.ndarray, x1: np.ndarray, x2: np.ndarray, hi: np.ndarray, width: np.ndarray
) -> np.ndarray:
    """``∫_{x1}^{x2} S_x(x - p) dx`` for a nearest prediction ending at ``p <= x1``.

    With ``d = x - p`` and ``lo <= p``: ``min(d, x - lo) = d`` and
    ``min(d, hi - x)`` switches from ``x - p`` to ``hi - x`` at
    ``c = (p + hi) / 2``; so
    ``∫ S_x = (x2 - x1) - [∫ (x - p) + ∫ min(x - p, hi - x)] / W`` with
    ``∫_{x1}^{x2} (x - p) dx = (x2 - x1)((x1 + x2) / 2 - p)``, and the kinked
    term split at ``c`` clipped to ``[x1, x2]``.  Empty ranges (``x2 <= x1``)
    give 0.  The right-anchored case is the mirror image (``x -> -x``).
    """
    x2 = np.maximum(x2, x1)
    span = x2 - x1
    c = np.clip(0.5 * (p + hi), x1, x2)
    linear = span * (0.5 * (x1 + x2) - p)
    kinked = (c - x1) * (0.5 * (x1 + c) - p) + (x2 - c) * (hi - 0.5 * (c + x2))
    return span - (linear + kinked) / width


class Affiliation(Evaluator):
    """Affiliation precision/recall ("AM"; Huet et al., KDD 2022).

    No parameters: the paper's Table 5 counts 0 custom parameters for AM.
    Series points are unit intervals ``[i, i + 1)`` and the time range is the
    whole series ``(0, T)``.  See the module docstring for the definition and
    the degenerate-input policy.

    Examples
    --------
    >>> am = Affiliation()
    >>> am([0, 1, 1, 1, 1, 0, 0, 0, 0, 0], [0, 1, 1, 1, 1, 0, 0, 0, 0, 0])
    Score(precision=1.0, recall=1.0, f1=1.0)
    """

    name = "AM"

    def __init__(self, **params: Any) -> None:
        if params:
            unknown = ", ".join(sorted(params))
            raise TypeError(f"AM: unknown parameter(s) {unknown}; AM has no parameters")

    def __call__(self, y_true: Any, y_pred: Any) -> Score:
        """Return the AM precision, recall and F1 of ``y_pred`` against ``y_true``.

        Parameters
        ----------
        y_true, y_pred : array-like of shape (T,)
            Binary series (0/1 ints or bools).

        Returns
        -------
        Score
        """
        y_true, y_pred = check_pair(y_true, y_pred, evaluator=self.name)
        if not y_true.any():
            # No ground-truth event: zones undefined (module docstring).
            return make_score(0.0 if y_pred.any() else np.nan, np.nan)
        gs_i, ge_i = _compact_events(y_true)
        ps_i, pe_i = _compact_events(y_pred)
        prec_num, pred_len, rec_num = _zone_sums(gs_i, ge_i, ps_i, pe_i, y_true.shape[0])
        del ps_i, pe_i
        has_pred = pred_len > 0
        # P_j = prec_num / |Y_j| over the zones with |Y_j| > 0 (in place).
        np.divide(prec_num, pred_len, out=prec_num, where=has_pred)
        del pred_len
        precision = float(prec_num[has_pred].mean()) if has_pred.any() else np.nan
        del prec_num
        # R_j = rec_num / |J_j| where Y_j is non-empty, else 0 (in place: no extra full-length array).
        np.divide(rec_num, ge_i - gs_i, out=rec_num, where=has_pred)
        rec_num[~has_pred] = 0.0
        recall = float(rec_num.mean())
        return make_score(precision, recall)

    def zones(self, y_true: Any, y_pred: Any) -> AffiliationZones:
        """Per-zone individual precision and recall probabilities.

        Raises
        ------
        ValueError
            On bad input (see :func:`oipr_bench.inputs.check_pair`) or when
            ``y_true`` has no anomaly (affiliation zones are then undefined).
        """
        y_true, y_pred = check_pair(y_true, y_pred, evaluator=self.name)
        if not y_true.any():
            raise ValueError("AM: y_true has no anomaly, so there are no affiliation zones")
        return self._zones(y_true, y_pred)

    @staticmethod
    def _zones(y_true: np.ndarray, y_pred: np.ndarray) -> AffiliationZones:
        gs_i, ge_i = _compact_events(y_true)
        ps_i, pe_i = _compact_events(y_pred)
        prec_num, pred_len, rec_num = _zone_sums(gs_i, ge_i, ps_i, pe_i, y_true.shape[0])
        gs = gs_i.astype(np.float64)
        ge = ge_i.astype(np.float64)
        cuts = 0.5 * (ge[:-1] + gs[1:])
        lo = np.concatenate(([0.0], cuts))
        hi = np.concatenate((cuts, [float(y_true.shape[0])]))
        has_pred = pred_len > 0
        precision = np.full(gs.shape[0], np.nan)
        precision[has_pred] = prec_num[has_pred] / pred_len[has_pred]
        recall = np.where(has_pred, rec_num / (ge - gs), 0.0)
        return AffiliationZones(gs, ge, lo, hi, precision, recall)


#: Predicted pieces handled per chunk: bounds the temporaries of one AM call
#: (about 30 float64 arrays of this length) whatever the number of events.
CHUNK = 1 << 16


def _compact_events(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Events of ``y`` as contiguous int32 arrays while ``2 * T < 2**31`` (else int64)."""
    starts, ends = to_events(y.view(np.bool_))
    dtype = np.int32 if 2 * y.shape[0] < 2**31 - 1 else np.int64
    return starts.astype(dtype), ends.astype(dtype)


def _zone_bounds(gs_i: np.ndarray, ge_i: np.ndarray, zone: np.ndarray, length: int) -> tuple[np.ndarray, np.ndarray]:
    """Borders ``lo_j, hi_j`` of the affiliation zones ``zone`` (midpoints between events; 0 and T at the ends)."""
    n = gs_i.shape[0]
    prev = np.maximum(zone - 1, 0)
    nxt = np.minimum(zone + 1, n - 1)
    lo = np.where(zone > 0, 0.5 * (ge_i[prev].astype(np.float64) + gs_i[zone]), 0.0)
    hi = np.where(zone < n - 1, 0.5 * (ge_i[zone].astype(np.float64) + gs_i[nxt]), float(length))
    return lo, hi


def _zone_sums(
    gs_i: np.ndarray, ge_i: np.ndarray, ps_i: np.ndarray, pe_i: np.ndarray, length: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per zone: precision integral, predicted length and recall integral (the sums of Sec. 3).

    Predicted events are cut at the zone borders into pieces; the pieces are
    handled :data:`CHUNK` at a time, so peak memory stays bounded on series
    with millions of events.  Each chunk knows the pieces just before and
    after it (the recall partition looks at neighbouring pieces).
    """
    n = gs_i.shape[0]
    if ps_i.shape[0] == 0:
        return np.zeros(n), np.zeros(n), np.zeros(n)
    # Cut each predicted event at the zone borders it crosses.  The cuts are
    # strictly increasing, so pieces have positive length and come out sorted.
    # Counted on doubled (integer) coordinates, where a cut is ge[i] + gs[i + 1]:
    # first = #(cuts <= ps), last = #(cuts < pe) = #(2 cuts <= 2 pe - 1).
    cuts2 = ge_i[:-1] + gs_i[1:]
    first = count_at_most(cuts2, 2 * ps_i, 2 * length).astype(ps_i.dtype, copy=False)
    counts = count_at_most(cuts2, 2 * pe_i - 1, 2 * length).astype(ps_i.dtype, copy=False)
    del cuts2
    counts -= first
    counts += 1
    # Fewer than 2 * T pieces, so the compact dtype holds their running total.
    piece_end = np.cumsum(counts, dtype=ps_i.dtype)
    total = int(piece_end[-1])
    prec_num = np.zeros(n)
    pred_len = np.zeros(n)
    rec_num = np.zeros(n)
    for lo_piece in range(0, total, CHUNK):
        hi_piece = min(lo_piece + CHUNK, total)
        # Pieces lo_piece - 1 .. hi_piece (one neighbour on each side, when present).
        p0 = max(lo_piece - 1, 0)
        p1 = min(hi_piece + 1, total)
        # Scalars and queries in piece_end's dtype: a wider query would make
        # searchsorted copy the whole array.
        o0 = int(np.searchsorted(piece_end, piece_end.dtype.type(p0), side="right"))
        o1 = int(np.searchsorted(piece_end, piece_end.dtype.type(p1 - 1), side="right")) + 1
        idx = np.arange(p0, p1, dtype=piece_end.dtype)
        owner = o0 + np.searchsorted(piece_end[o0:o1], idx, side="right")
        zone = first[owner] + (idx - (piece_end[owner] - counts[owner]))
        _chunk_sums(gs_i, ge_i, ps_i[owner], pe_i[owner], zone, length, lo_piece - p0, p1 - hi_piece,
                    prec_num, pred_len, rec_num)
    return prec_num, pred_len, rec_num


def _chunk_sums(
    gs_i: np.ndarray, ge_i: np.ndarray, ps: np.ndarray, pe: np.ndarray, zone: np.ndarray, length: int,
    skip_head: int, skip_tail: int, prec_num: np.ndarray, pred_len: np.ndarray, rec_num: np.ndarray,
) -> None:
    """Add one chunk of pieces to the per-zone sums (in place); the first ``skip_head`` and
    last ``skip_tail`` pieces are neighbours only, counted by the adjacent chunks."""
    z_lo, z_hi = _zone_bounds(gs_i, ge_i, zone, length)
    u = np.maximum(ps.astype(np.float64), z_lo)
    v = np.minimum(pe.astype(np.float64), z_hi)
    a = gs_i[zone].astype(np.float64)
    b = ge_i[zone].astype(np.float64)
    w = z_hi - z_lo
    total = zone.shape[0]

    # Recall: partition J_j by the nearest piece of Y_j.  The stretch between
    # two neighbouring pieces of one zone splits at its midpoint; before the
    # first piece (after the last) the stretch starts (ends) at the zone border.
    same_next = np.zeros(total, dtype=bool)
    same_next[:-1] = zone[1:] == zone[:-1]
    right_end = z_hi.copy()
    right_end[:-1] = np.where(same_next[:-1], 0.5 * (v[:-1] + u[1:]), z_hi[:-1])
    left_start = z_lo.copy()
    left_start[1:] = np.where(same_next[:-1], 0.5 * (v[:-1] + u[1:]), z_lo[1:])

    keep = slice(skip_head, total - skip_tail)
    u, v, a, b, w, z_lo, z_hi = u[keep], v[keep], a[keep], b[keep], w[keep], z_lo[keep], z_hi[keep]
    right_end, left_start, zone = right_end[keep], left_start[keep], zone[keep]
    z0 = int(zone[0])
    local = zone - z0
    span = int(zone[-1]) - z0 + 1
    dest = slice(z0, z0 + span)

    # Precision: survival of the distance to J_j, integrated over Y_j.
    local = np.concatenate(([0], local))  # slot 0 carries the sum of zone z0 so far
    _carry_sums(prec_num, dest, local, _precision_piece_integrals(u, v, a, b, a - z_lo, z_hi - b, w))
    _carry_sums(pred_len, dest, local, v - u)
    covered = np.maximum(np.minimum(v, b) - np.maximum(u, a), 0.0)
    after = _left_anchor_recall_integrals(v, np.maximum(v, a), np.minimum(right_end, b), z_hi, w)
    # Mirror image x -> -x: anchor u on the right of [left_start, u].
    before = _left_anchor_recall_integrals(-u, -np.minimum(u, b), -np.maximum(left_start, a), -z_lo, w)
    _carry_sums(rec_num, dest, local, covered + after + before)


def _carry_sums(acc: np.ndarray, dest: slice, local: np.ndarray, weights: np.ndarray) -> None:
    """Per-zone sums of one chunk into ``acc[dest]``, bit for bit as one unchunked ``bincount``.

    Only the chunk's first zone can hold pieces of an earlier chunk (pieces are
    sorted by zone); its partial sum enters first, so every zone is summed in
    the same order as by a single ``bincount`` over all pieces.
    """
    weights = np.concatenate(([acc[dest.start]], weights))
    acc[dest] = np.bincount(local, weights=weights, minlength=dest.stop - dest.start)
