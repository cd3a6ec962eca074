"""Score evaluators: threshold-free metrics that take ``(y_true, scores)`` and return a float.

AUC-ROC and AUC-PR (:mod:`.auc`) are point-wise; R-AUC-ROC/R-AUC-PR (:mod:`.range_auc`)
and VUS-ROC/VUS-PR (:mod:`.vus`) extend the labels around each event.  Every class declares
``input_kind = "scores"``.  The kernels: :mod:`.ranking` (distinct thresholds),
:mod:`.bins` (sampled thresholds), :mod:`.slopes` (sloped labels), :mod:`.segments`
(existence), :mod:`.curves` (the curves and their areas).

Room 3 of the evaluators (layer 2): may import layers 0-1, ``evaluators.kernels`` and the evaluators'
own level (``_base``, ``_params``, ``inputs``); never ``oracles``.
"""

from __future__ import annotations

from .auc import AucPr, AucRoc
from .range_auc import RangeAucPr, RangeAucRoc
from .vus import VusPr, VusRoc

__all__ = ["AucRoc", "AucPr", "RangeAucRoc", "RangeAucPr", "VusRoc", "VusPr"]
