"""TSB-UAD 0.0.3: ``TSB_UAD.vus`` (environment ``main``), the VUS code TSB-UAD ships.

Its ``get_metrics`` defaults to ``slidingWindow=5`` (vus 0.0.6 has no default, TSB-AD
uses 100), so these rows use window 5: VUS-ROC and VUS-PR
(``generate_curve(label, score, 5)``, 250 thresholds), the range AUCs
(``metricor().RangeAUC(window=5)``), and the point AUCs (``metric_new_auc``,
``metric_PR``).  ``TSB_UAD/__init__`` is empty and ``TSB_UAD.vus`` imports only
NumPy and scikit-learn, so its declared dependencies (tensorflow, tsfresh, ...)
are not needed.

Reproduced by hand (one case): a perfect score (y_pred = y_true) gives AUC-ROC
1 and AUC-PR 1 (every anomalous point ranks above every normal one); with the
window-5 slopes VUS-PR stays 1 on it (tests/test_atlas_adapters.py).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ..base import Adapter, as_labels, as_scores, import_module
from ..shared import shared_result

__all__ = ["ADAPTERS"]

PACKAGE = "TSB-UAD"
ENV = "main"


def _volume(which: str) -> Callable[[Mapping[str, Any]], Any]:
    def build(params: Mapping[str, Any]) -> Any:
        curve = import_module("TSB_UAD.vus.metrics").generate_curve

        def fn(y_true: Any, y_pred: Any) -> float:
            labels, scores = as_labels(y_true), as_scores(y_pred)
            out = shared_result(SHARED_CALL, params, labels, scores, role="store" if which == "roc" else "take",
                                call=lambda: curve(labels, scores, params["slidingWindow"], params["version"], params["thre"]))
            return float(out[6] if which == "roc" else out[7])

        return fn

    return build


def _range_auc(which: str) -> Callable[[Mapping[str, Any]], Any]:
    def build(params: Mapping[str, Any]) -> Any:
        grader = import_module("TSB_UAD.vus.utils.metrics").metricor()

        def fn(y_true: Any, y_pred: Any) -> float:
            out = grader.RangeAUC(labels=as_labels(y_true), score=as_scores(y_pred), window=params["window"], plot_ROC=True)
            return float(out[0] if which == "roc" else out[1])

        return fn

    return build


def _auc(which: str) -> Callable[[Mapping[str, Any]], Any]:
    def build(params: Mapping[str, Any]) -> Any:
        grader = import_module("TSB_UAD.vus.utils.metrics").metricor()
        if which == "roc":
            return lambda y_true, y_pred: float(grader.metric_new_auc(as_labels(y_true), as_scores(y_pred), plot_ROC=False))
        return lambda y_true, y_pred: float(grader.metric_PR(as_labels(y_true), as_scores(y_pred))[2])

    return build


_VUS = {"slidingWindow": 5, "version": "opt", "thre": 250}

#: The call the VUS-ROC and VUS-PR rows share (:mod:`..shared`): one result holds both volumes.
SHARED_CALL = "TSB-UAD generate_curve"


def _row(metric: str, build: Any, params: Mapping[str, Any], group: str | None, slow: bool = False, shared: str | None = None) -> Adapter:
    note = ("generate_curve(y_true, scores, slidingWindow, version, thre): index 6 VUS-ROC, 7 VUS-PR; the pair shares each "
            "call's result (atlas/adapters/shared.py)") if shared else ""
    return Adapter(PACKAGE, metric, "threshold-free", build, dict(params), input_kind="scores", group=group, slow=slow, env=ENV,
                   shared=shared, note=note)


ADAPTERS: list[Adapter] = [
    _row("VUS-ROC", _volume("roc"), _VUS, "VUS-ROC", shared=SHARED_CALL),
    _row("VUS-PR", _volume("pr"), _VUS, "VUS-PR", shared=SHARED_CALL),
    _row("R-AUC-ROC", _range_auc("roc"), {"window": 5}, None),
    _row("R-AUC-PR", _range_auc("pr"), {"window": 5}, None),
    _row("AUC-ROC", _auc("roc"), {}, "AUC-ROC"),
    _row("AUC-PR", _auc("pr"), {}, "AUC-PR"),
]
