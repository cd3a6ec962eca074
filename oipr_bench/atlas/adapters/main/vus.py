"""vus 0.0.6 (Paparrizos et al. 2022, volume under the surface).

The metrics live on ``vus.utils.metrics.metricor`` (``vus.metrics`` imports
the plotting helpers and matplotlib, which the metric code does not need):
``RangeAUC_volume_opt`` gives VUS-ROC and VUS-PR, ``RangeAUC`` the range-AUCs,
``metric_new_auc`` and ``metric_PR`` the point AUCs; affiliation comes from
``vus.affiliation.metrics.pr_from_events`` with the whole series as time range.
vus has no default sliding window (``get_metrics`` takes ``slidingWindow=None``);
100 is TSB-AD's default and is used here.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

import numpy as np

from ..base import Adapter, as_labels, as_scores, import_module, reduced_audit
from ..shared import shared_result

__all__ = ["ADAPTERS"]

PACKAGE = "vus"


def _metricor() -> Any:
    return import_module("vus.utils.metrics").metricor()


#: The call the VUS-ROC and VUS-PR rows share (:mod:`..shared`): one result holds both volumes (index 4, 5).
SHARED_CALL = "vus RangeAUC_volume_opt"


def _volume(index: int) -> Callable[[Mapping[str, Any]], Any]:
    def build(params: Mapping[str, Any]) -> Any:
        grader = _metricor()

        def fn(y_true: np.ndarray, y_pred: np.ndarray) -> float:
            labels, scores = as_labels(y_true), as_scores(y_pred)
            out = shared_result(SHARED_CALL, params, labels, scores, role="store" if index == 4 else "take",
                                call=lambda: grader.RangeAUC_volume_opt(labels_original=labels, score=scores,
                                                                        windowSize=params["slidingWindow"], thre=params["thre"]))
            return float(out[index])

        return fn

    return build


def _range_auc(index: int) -> Callable[[Mapping[str, Any]], Any]:
    def build(params: Mapping[str, Any]) -> Any:
        grader = _metricor()
        return lambda y_true, y_pred: float(grader.RangeAUC(labels=as_labels(y_true), score=as_scores(y_pred), window=params["window"], plot_ROC=True)[index])

    return build


def _auc_roc(params: Mapping[str, Any]) -> Any:
    grader = _metricor()
    return lambda y_true, y_pred: float(grader.metric_new_auc(as_labels(y_true), as_scores(y_pred), plot_ROC=False))


def _auc_pr(params: Mapping[str, Any]) -> Any:
    grader = _metricor()
    return lambda y_true, y_pred: float(grader.metric_PR(as_labels(y_true), as_scores(y_pred))[2])


def _affiliation(params: Mapping[str, Any]) -> Any:
    generics = import_module("vus.affiliation.generics")
    metrics = import_module("vus.affiliation.metrics")

    def fn(y_true: np.ndarray, y_pred: np.ndarray) -> tuple[float, float]:
        pred, true = as_labels(y_pred), as_labels(y_true)
        out = metrics.pr_from_events(generics.convert_vector_to_events(pred), generics.convert_vector_to_events(true), (0, len(true)))
        return float(out["Affiliation_Precision"]), float(out["Affiliation_Recall"])

    return fn


_VOLUME = {"slidingWindow": 100, "thre": 250}


def _row(metric: str, family: str, build: Any, *, input_kind: str = "scores", group: str | None = None, params: Any = None,
         kind: str = "score", slow: bool = False, shared: str | None = None) -> Adapter:
    note = ("metricor().RangeAUC_volume_opt(labels_original, score, windowSize, thre): index 4 VUS-ROC, 5 VUS-PR; the pair "
            "shares each call's result (atlas/adapters/shared.py)") if shared else ""
    return Adapter(PACKAGE, metric, family, build, params or {}, input_kind=input_kind, kind=kind, group=group, slow=slow,
                   shared=shared, note=note, **reduced_audit(slow))


ADAPTERS: list[Adapter] = [
    _row("VUS-ROC", "threshold-free", _volume(4), group="VUS-ROC", params=_VOLUME, slow=True, shared=SHARED_CALL),
    _row("VUS-PR", "threshold-free", _volume(5), group="VUS-PR", params=_VOLUME, slow=True, shared=SHARED_CALL),
    _row("R-AUC-ROC", "threshold-free", _range_auc(0), params={"window": 100}),
    _row("R-AUC-PR", "threshold-free", _range_auc(1), params={"window": 100}),
    _row("AUC-ROC", "threshold-free", _auc_roc, group="AUC-ROC"),
    _row("AUC-PR", "threshold-free", _auc_pr, group="AUC-PR"),
    _row("Affiliation-P/R", "affiliation", _affiliation, input_kind="binary", group="affiliation", kind="pr"),
]
