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
Two ranges of one series never touch, so each overlapping (real, predicted)
pair ``(R_i, P_j)`` meets in exactly one *overlap*, an event of ``y_true &
y_pred``, and every overlap belongs to exactly one real and one predicted
range (its *owners*).  The positional-bias weight of a range prefix has a
closed form ``W(n, L) = sum_{i<=n} delta(i, L)`` (triangular numbers), so the
weight of an overlap ``[a, b)`` of a range ``[s, e)`` is ``W(b - s, L) -
W(a - s, L)``, an exact integer; a range's omega is the sum of its overlaps'
weights over ``W(L, L)`` and its cardinality ``x`` is its number of overlaps.

The pair is streamed block by block (:mod:`._range_based_blocks`): block
borders are points where ``y_true & y_pred`` is 0, so no overlap is cut; a
range crossing a border is carried to the next block with its true bounds.  In
a block, the bounds of both series and of the overlaps are read once, the
owners of the overlaps come from one running count over the block's points
(binary search when events are sparse), and every per-event step writes into
buffers reused from block to block.  Time is O(T) with small constants and
memory O(block), whatever the number of events.

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

from .inputs import check_pair
from ._base import Evaluator, Score, make_score
from ._params import check_choice, check_real
from .kernels.range_based import BlockScorer

__all__ = ["RangeBased", "BIASES", "CARDINALITIES"]

#: Positional-bias functions delta(i, L) of Tatbul et al. (Fig. 2).
BIASES: tuple[str, ...] = ("flat", "front", "back", "middle")
#: Cardinality functions gamma: "reciprocal" = 1/x, "one" = 1.
CARDINALITIES: tuple[str, ...] = ("reciprocal", "one")


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
    docstring).  Cost: O(T) time, streamed in blocks of bounded memory.

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
            On invalid input (see :func:`oipr_bench.evaluators.inputs.check_pair`).
        """
        t, p = check_pair(y_true, y_pred, evaluator=self.name)
        scorer = BlockScorer(self.alpha_r, self.alpha_p, self.cardinality, self.bias_r, self.bias_p)
        recall, precision = scorer.run(t.view(np.bool_), p.view(np.bool_))
        return make_score(precision, recall)
