"""TSB-AD 1.5: the metrics of ``TSB_AD.evaluation`` (``basic_metricor``).

Binary rows pass the prediction to the metric's ``preds`` argument (and as
the score).  Without ``preds`` the package picks an oracle threshold; on the
audit's 0/1 inputs that gives the same numbers, so those variants are not
separate rows.  The threshold-free rows (AUC-ROC, AUC-PR,
VUS-ROC, VUS-PR, range-AUC) take scores.  ``slidingWindow = 100`` is
``get_metrics``' default.  Arrays are passed as received (no dtype
conversion), so the audit's dtype check sees the package's own behaviour.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

import numpy as np

from ..base import Adapter, import_module, reduced_audit
from ..shared import shared_result

__all__ = ["ADAPTERS"]

PACKAGE = "TSB-AD"


def _grader() -> Any:
    return import_module("TSB_AD.evaluation.basic_metrics").basic_metricor()


def _thresholded(method: str) -> Callable[[Mapping[str, Any]], Any]:
    def build(params: Mapping[str, Any]) -> Any:
        grader = _grader()
        call = getattr(grader, method)

        def fn(y_true: np.ndarray, y_pred: np.ndarray) -> float:
            y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
            return float(call(y_true, y_pred, preds=y_pred))

        return fn

    return build


def _auc(which: str) -> Callable[[Mapping[str, Any]], Any]:
    def build(params: Mapping[str, Any]) -> Any:
        grader = _grader()
        method = grader.metric_ROC if which == "roc" else grader.metric_PR
        return lambda y_true, y_pred: float(method(np.asarray(y_true), np.asarray(y_pred, dtype=np.float64)))

    return build


#: The call the VUS-ROC and VUS-PR rows share (:mod:`..shared`): one result holds both volumes.
SHARED_CALL = "TSB-AD generate_curve"
SHARED_NOTE = ("generate_curve(y_true, scores, slidingWindow, version, thre): index 6 VUS-ROC, 7 VUS-PR; the pair shares "
               "each call's result (atlas/adapters/shared.py)")


def shared_role(which: str) -> str:
    """The VUS-ROC row stores each generate_curve result, the VUS-PR row takes it (:mod:`..shared`)."""
    return "store" if which == "roc" else "take"


def _vus(which: str) -> Callable[[Mapping[str, Any]], Any]:
    def build(params: Mapping[str, Any]) -> Any:
        generate_curve = import_module("TSB_AD.evaluation.basic_metrics").generate_curve

        def fn(y_true: np.ndarray, y_pred: np.ndarray) -> float:
            labels, scores = np.asarray(y_true).astype(int), np.asarray(y_pred, dtype=np.float64)
            out = shared_result(SHARED_CALL, params, labels, scores, role=shared_role(which),
                                call=lambda: generate_curve(labels, scores, params["slidingWindow"], params["version"], params["thre"]))
            return float(out[6] if which == "roc" else out[7])

        return fn

    return build


def _range_auc(which: str) -> Callable[[Mapping[str, Any]], Any]:
    def build(params: Mapping[str, Any]) -> Any:
        grader = _grader()

        def fn(y_true: np.ndarray, y_pred: np.ndarray) -> float:
            out = grader.RangeAUC(labels=np.asarray(y_true).astype(int), score=np.asarray(y_pred, dtype=np.float64), window=params["window"], plot_ROC=True)
            return float(out[0] if which == "roc" else out[1])

        return fn

    return build


def _vus_pred(params: Mapping[str, Any]) -> Any:
    grader = _grader()

    def fn(y_true: np.ndarray, y_pred: np.ndarray) -> tuple[float, float, float]:
        recall, precision, f = grader.metric_VUS_pred(np.asarray(y_true).astype(int), np.asarray(y_pred).astype(int), params["slidingWindow"])
        return float(precision), float(recall), float(f)

    return fn


def _range_pr(params: Mapping[str, Any]) -> Any:
    grader = _grader()

    def fn(y_true: np.ndarray, y_pred: np.ndarray) -> tuple[float, float]:
        y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
        recall = grader.range_recall_new(y_true, y_pred, alpha=params["alpha"])[0]
        precision = grader.range_recall_new(y_pred, y_true, 0)[0]
        return float(precision), float(recall)

    return fn


def _row(metric: str, family: str, build: Any, *, input_kind: str, group: str | None, params: Any = None, kind: str = "score",
         note: str = "", slow: bool = False, shared: str | None = None) -> Adapter:
    return Adapter(PACKAGE, metric, family, build, params or {}, input_kind=input_kind, kind=kind, group=group, note=note, slow=slow,
                   shared=shared, **reduced_audit(slow))


_THRESHOLDED = (
    ("Standard-F1", "metric_PointF1", "point-wise", "point-wise F1"),
    ("PA-F1", "metric_PointF1PA", "point-adjusted", "point-adjust F1"),
    ("Event-based-F1", "metric_EventF1PA", "event-based", "composite F"),
    ("R-based-F1", "metric_RF1", "range-based", "Tatbul range-based"),
    ("Affiliation-F", "metric_Affiliation", "affiliation", "affiliation"),
)
_VUS = {"slidingWindow": 100, "version": "opt", "thre": 250}

ADAPTERS: list[Adapter] = (
    [_row(name, fam, _thresholded(m), input_kind="binary", group=grp, note=f"basic_metricor().{m}(y_true, y_pred, preds=y_pred)") for name, m, fam, grp in _THRESHOLDED]
    + [
        _row("AUC-ROC", "threshold-free", _auc("roc"), input_kind="scores", group="AUC-ROC"),
        _row("AUC-PR", "threshold-free", _auc("pr"), input_kind="scores", group="AUC-PR"),
        _row("VUS-ROC", "threshold-free", _vus("roc"), input_kind="scores", group="VUS-ROC", params=_VUS, slow=True,
             note=SHARED_NOTE, shared=SHARED_CALL),
        _row("VUS-PR", "threshold-free", _vus("pr"), input_kind="scores", group="VUS-PR", params=_VUS, slow=True,
             note=SHARED_NOTE, shared=SHARED_CALL),
        _row("R-AUC-ROC", "threshold-free", _range_auc("roc"), input_kind="scores", group=None, params={"window": 100}),
        _row("R-AUC-PR", "threshold-free", _range_auc("pr"), input_kind="scores", group=None, params={"window": 100}),
        _row("Rprecision/Rrecall", "range-based", _range_pr, input_kind="binary", group="Tatbul range-based", params={"alpha": 0.2}, kind="pr",
             note="(range_recall_new(y_pred, y_true, 0)[0], range_recall_new(y_true, y_pred, alpha)[0]), as metric_RF1 computes them"),
        _row("VUS-P/VUS-R[binary]", "threshold-free", _vus_pred, input_kind="binary", group=None, params={"slidingWindow": 100}, kind="pr"),
    ]
)
