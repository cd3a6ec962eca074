"""TimeEval 1.5.0: the metrics of ``timeeval.metrics``.

``timeeval/__init__.py`` imports the whole experiment runner (dask, docker,
asyncssh, ...), so the metric sub-package is imported on its own (see
:func:`oipr_bench.atlas.adapters.base.import_submodule`); it needs only NumPy,
scikit-learn and prts.  Every metric is called as ``metric(y_true, y_score)``
(its public ``__call__``, which returns 0.0 for a constant score and refuses
an int8 prediction: binary metrics take int64 or bool only, hence the int64 labels).  Binary rows use the default
``NoThresholding`` strategy on the 0/1 prediction.

A metric object is built afresh for every call: TimeEval's metrics may keep
state between calls (``RangePrAUC``/``RangeRocAUC`` with ``buffer_size=None``
store the buffer size computed on the first call and reuse it on every later
one), and a fresh object scores each case as it scores that case alone.
TimeEval's own runner does not build fresh objects: in
``timeeval/_core/experiments.py`` ``Experiments.materialize_experiments`` hands
the user's metric list to every ``Experiment`` and ``Experiment.evaluate``
calls each object in turn, so in a local run over several series a
``RangePrAUC()`` keeps the first series' buffer size
(tests/test_disagreement_causes.py reproduces both).
"""

from __future__ import annotations

import warnings
from typing import Any, Callable, Mapping

import numpy as np

from ..base import Adapter, as_labels, as_scores, import_submodule, reduced_audit
from ..shared import shared_result

__all__ = ["ADAPTERS"]

PACKAGE = "TimeEval"


def _metrics() -> Any:
    return import_submodule("timeeval", "metrics")


def _single(cls: str, input_kind: str) -> Callable[[Mapping[str, Any]], Any]:
    def build(params: Mapping[str, Any]) -> Any:
        make = getattr(_metrics(), cls)
        convert = as_scores if input_kind == "scores" else as_labels
        kwargs = dict(params)
        return lambda y_true, y_pred: float(make(**kwargs)(as_labels(y_true), convert(y_pred)))

    return build


def _classification(params: Mapping[str, Any]) -> Any:
    tm = _metrics()
    no_threshold = import_submodule("timeeval", "metrics.thresholding").NoThresholding

    def fn(y_true: Any, y_pred: Any) -> tuple[float, ...]:
        metrics = [cls(no_threshold()) for cls in (tm.Precision, tm.Recall, tm.F1Score)]
        return tuple(float(m(as_labels(y_true), as_labels(y_pred))) for m in metrics)

    return fn


def _range_pair(params: Mapping[str, Any]) -> Any:
    tm = _metrics()
    kwargs = dict(params)

    def fn(y_true: Any, y_pred: Any) -> tuple[float, ...]:
        metrics = [tm.RangePrecision(**kwargs), tm.RangeRecall(**kwargs)]
        return tuple(float(m(as_labels(y_true), as_labels(y_pred))) for m in metrics)

    return fn


#: The conventions every TimeEval row inherits (shown in the atlas grid's call column).
NOTE = ("a fresh metric object per call, metric(y_true as int64, y_pred); TimeEval refuses an int8 prediction "
        "(binary metrics take int64 or bool) and returns 0.0 for any constant prediction (its __call__ guard), "
        "so the empty and the all-ones prediction score 0.0")


def _row(metric: str, family: str, build: Any, *, input_kind: str, group: str | None = None, params: Any = None,
         kind: str = "score", note: str = NOTE, slow: bool = False, shared: str | None = None) -> Adapter:
    return Adapter(PACKAGE, metric, family, build, params or {}, input_kind=input_kind, kind=kind, group=group, note=note, slow=slow,
                   shared=shared, **reduced_audit(slow))


#: The VUS rows take about 2 s per call (501 buffer sizes, up to 250 thresholds each): declared slow,
#: they get the reduced audit of the slowest rows (:func:`..base.reduced_audit`).
#: The call the RangePrVUS and RangeRocVUS rows of one setting share (:mod:`..shared`).
VUS_SHARED_CALL = "TimeEval RangeAucMetric._range_pr_roc_auc_support per buffer size"
VUS_SHARED_NOTE = (NOTE + "; the RangePrVUS/RangeRocVUS pair shares each call: TimeEval's score() of both classes "
                   "loops buffer sizes 0..max_buffer_size over _range_pr_roc_auc_support, which gives both areas "
                   "(atlas/adapters/main/timeeval.py: vus_volumes)")


def vus_volumes(params: Mapping[str, Any], y_true: np.ndarray, y_score: np.ndarray) -> tuple[float, float]:
    """``(RangePrVUS(**params)(y_true, y_score), RangeRocVUS(**params)(y_true, y_score))`` in one pass.

    TimeEval 1.5.0's ``Metric.__call__`` validates the inputs (``_validate_scores``) and returns 0.0
    for a constant score; otherwise ``RangePrVUS.score`` and ``RangeRocVUS.score`` run the same loop:
    for each buffer size 0..``max_buffer_size`` set ``_buffer_size`` and call the inherited
    ``RangeAucMetric._range_pr_roc_auc_support``, which returns the PR and the ROC area; each volume
    is ``np.sum(areas) / (max_buffer_size + 1)``.  This makes that loop once and keeps both areas
    (tests/test_atlas_adapters.py checks it equals both public calls exactly).
    """
    metric = _metrics().RangePrVUS(**dict(params))
    y_t, y_s = metric._validate_scores(y_true, y_score)
    if np.unique(y_s).shape[0] == 1:
        warnings.warn("Cannot compute metric for a constant value in y_score, returning 0.0!")
        return 0.0, 0.0
    size = metric._max_buffer_size
    prs, rocs = np.zeros(size + 1), np.zeros(size + 1)
    for bs in np.arange(0, size + 1):
        metric._buffer_size = bs
        pr_auc, roc_auc, _ = metric._range_pr_roc_auc_support(y_t, y_s)
        prs[bs], rocs[bs] = pr_auc, roc_auc
    return float(np.sum(prs) / (size + 1)), float(np.sum(rocs) / (size + 1))


def shared_vus(which: str) -> Callable[[Mapping[str, Any]], Any]:
    """A VUS row of the shared pair: ``which`` is ``"pr"`` (listed first, stores each result) or ``"roc"`` (takes it)."""

    def build(params: Mapping[str, Any]) -> Any:
        _metrics()  # the package is importable

        def fn(y_true: Any, y_pred: Any) -> float:
            labels, scores = as_labels(y_true), as_scores(y_pred)
            out = shared_result(VUS_SHARED_CALL, params, labels, scores, role="store" if which == "pr" else "take",
                                call=lambda: vus_volumes(params, labels, scores))
            return out[0] if which == "pr" else out[1]

        return fn

    return build


_RANGE = {"alpha": 0, "cardinality": "reciprocal", "bias": "flat"}

ADAPTERS: list[Adapter] = [
    _row("Precision/Recall/F1Score", "point-wise", _classification, input_kind="binary", group="point-wise F1", kind="pr", params={"thresholding_strategy": "NoThresholding"}),
    _row("RangePrecision/RangeRecall", "range-based", _range_pair, input_kind="binary", group="Tatbul range-based", kind="pr", params=_RANGE),
    _row("RangeFScore", "range-based", _single("RangeFScore", "binary"), input_kind="binary", group="Tatbul range-based",
         params={"beta": 1, "p_alpha": 0, "r_alpha": 0.5, "cardinality": "reciprocal", "p_bias": "flat", "r_bias": "flat"}),
    _row("RocAUC", "threshold-free", _single("RocAUC", "scores"), input_kind="scores", group="AUC-ROC"),
    _row("PrAUC", "threshold-free", _single("PrAUC", "scores"), input_kind="scores", group="AUC-PR"),
    _row("AveragePrecision", "threshold-free", _single("AveragePrecision", "scores"), input_kind="scores", group="AUC-PR"),
    _row("RangePrAUC", "threshold-free", _single("RangePrAUC", "scores"), input_kind="scores", params={"buffer_size": None, "compatibility_mode": False, "max_samples": 250}),
    _row("RangeRocAUC", "threshold-free", _single("RangeRocAUC", "scores"), input_kind="scores", params={"buffer_size": None, "compatibility_mode": False, "max_samples": 250}),
    _row("RangePrVUS", "threshold-free", shared_vus("pr"), input_kind="scores", group="VUS-PR", params={"max_buffer_size": 500, "compatibility_mode": False, "max_samples": 250},
         slow=True, shared=VUS_SHARED_CALL, note=VUS_SHARED_NOTE),
    _row("RangeRocVUS", "threshold-free", shared_vus("roc"), input_kind="scores", group="VUS-ROC", params={"max_buffer_size": 500, "compatibility_mode": False, "max_samples": 250},
         slow=True, shared=VUS_SHARED_CALL, note=VUS_SHARED_NOTE),
    _row("RangePrecisionRangeRecallAUC", "threshold-free", _single("RangePrecisionRangeRecallAUC", "scores"), input_kind="scores", params={"max_samples": 50, "r_alpha": 0.5, "p_alpha": 0, "cardinality": "reciprocal", "bias": "flat"}),
    _row("FScoreAtK", "point-wise", _single("FScoreAtK", "scores"), input_kind="scores", params={"k": None}),
    _row("PrecisionAtK", "point-wise", _single("PrecisionAtK", "scores"), input_kind="scores", params={"k": None}),
]
