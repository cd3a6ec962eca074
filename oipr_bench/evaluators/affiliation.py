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

Every integrand is piecewise linear, so the integrals have closed forms,
evaluated for many predicted pieces at once (no loop over points or events)
by :mod:`oipr_bench.evaluators.kernels.affiliation`, which streams events and
zones in cache-sized blocks (bounded memory, few passes over memory on series
with millions of events).  The closed forms are derived in the docstrings of
its ``precision_outside``, ``piece_sums`` and ``anchored_deficit``.  The
precision and recall means are accumulated block by block, so their last
bits may differ from one ``np.mean`` over all zones (far below ``1e-12``).

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

from .inputs import check_pair
from .kernels.affiliation import index_dtype, series_events, stream_zones
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
        means = _ZoneMeans()
        n_zones = _stream(y_true, y_pred, means)
        precision = means.precision / means.n_precision if means.n_precision else np.nan
        return make_score(precision, means.recall / n_zones)

    def zones(self, y_true: Any, y_pred: Any) -> AffiliationZones:
        """Per-zone individual precision and recall probabilities.

        Raises
        ------
        ValueError
            On bad input (see :func:`oipr_bench.evaluators.inputs.check_pair`) or when
            ``y_true`` has no anomaly (affiliation zones are then undefined).
        """
        y_true, y_pred = check_pair(y_true, y_pred, evaluator=self.name)
        if not y_true.any():
            raise ValueError("AM: y_true has no anomaly, so there are no affiliation zones")
        return self._zones(y_true, y_pred)

    @staticmethod
    def _zones(y_true: np.ndarray, y_pred: np.ndarray) -> AffiliationZones:
        gs_i, ge_i = series_events(y_true, np.int64)
        detail = _ZoneDetail(gs_i.shape[0])
        _stream(y_true, y_pred, detail)
        gs = gs_i.astype(np.float64)
        ge = ge_i.astype(np.float64)
        cuts = 0.5 * (ge[:-1] + gs[1:])
        lo = np.concatenate(([0.0], cuts))
        hi = np.concatenate((cuts, [float(y_true.shape[0])]))
        return AffiliationZones(gs, ge, lo, hi, detail.precision, detail.recall)


def _stream(y_true: np.ndarray, y_pred: np.ndarray, sink: Any) -> int:
    """Feed the per-zone integrals of ``(y_true, y_pred)`` to ``sink``; return the number of zones."""
    dtype = index_dtype(y_true.shape[0])
    gs, ge = series_events(y_true, dtype)
    ps, pe = series_events(y_pred, dtype)
    stream_zones(gs, ge, ps, pe, y_pred.view(np.bool_), sink)
    return gs.shape[0]


class _ZoneMeans:
    """Sink of :func:`stream_zones` keeping the sums behind the precision and recall means."""

    def __init__(self) -> None:
        self.precision = 0.0
        self.n_precision = 0
        self.recall = 0.0

    def __call__(self, zones: np.ndarray, width: np.ndarray, event_length: np.ndarray,
                 integral: np.ndarray, piece_length: np.ndarray, deficit: np.ndarray | None) -> None:
        # P_j = ∫_{Y_j} S_j / |Y_j|;  R_j = 1 - deficit / (|I_j| |J_j|)  (zones without a piece: R_j = 0).
        integral /= piece_length
        self.precision += float(integral.sum())
        self.n_precision += zones.shape[0]
        self.recall += zones.shape[0]
        if deficit is not None:
            event_length *= width
            deficit /= event_length
            self.recall -= float(deficit.sum())


class _ZoneDetail:
    """Sink of :func:`stream_zones` writing the per-zone ``P_j`` and ``R_j``."""

    def __init__(self, n: int) -> None:
        self.precision = np.full(n, np.nan)
        self.recall = np.zeros(n)

    def __call__(self, zones: np.ndarray, width: np.ndarray, event_length: np.ndarray,
                 integral: np.ndarray, piece_length: np.ndarray, deficit: np.ndarray | None) -> None:
        self.precision[zones] = integral / piece_length
        self.recall[zones] = 1.0 if deficit is None else 1.0 - deficit / (width * event_length)
