"""aeon 1.6.0: ``aeon.benchmarking.metrics.anomaly_detection`` (environment ``modern``: numpy >= 2).

aeon replaced its use of prts with its own range-based code (aeon #2066/#2400/#2781),
so its range P/R rows sit beside prts' with the same settings: aeon's own defaults
(precision and recall alpha 0, flat bias, reciprocal cardinality), the paper's
Table 3 setting, and bias (flat, front, middle, back) x cardinality (one,
reciprocal) with precision alpha 0 and recall alpha 0.5, as in :mod:`..prts`.
aeon returns 0.0 for any constant prediction (its guard warns "Cannot compute
metric for a constant value"), so the empty and the all-ones prediction score 0.0.

The threshold-free rows take scores: ROC/PR AUC, the range-based PR curve AUC
(``rp_rr_auc_score``, 50 thresholds), F1 at k points/ranges (k = number of true
anomalies/events), the range ROC/PR AUC (``buffer_size`` None: the package's
default of half the median anomaly length) and the VUS pair (``max_buffer_size``
500, its default).

Reproduced by hand (one case): y_true with one anomaly [2, 6) in 20 points and the
prediction [3, 5).  ``range_precision(y_true, y_pred)`` (alpha 0, flat, reciprocal):
the one predicted range lies inside the real one, overlap 2 of 2 points: 1.0.
``range_recall(y_true, y_pred, alpha=0.5, bias="front")``: existence 0.5 plus 0.5 x
the front-biased overlap (weights 4, 3, 2, 1 over [2, 6); points 3 and 4 weigh
3 + 2 of 10): 0.5 + 0.5 x 0.5 = 0.75 (tests/test_atlas_modern.py checks both).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

import numpy as np

from ..base import Adapter, as_labels, as_scores, import_module, reduced_audit
from ..shared import shared_result

__all__ = ["ADAPTERS", "PAPER"]

PACKAGE = "aeon"
ENV = "modern"
MODULE = "aeon.benchmarking.metrics.anomaly_detection"
NOTE = "aeon returns 0.0 for a constant prediction or score (its guard), so the empty and the all-ones prediction score 0.0"

#: The paper's Table 3 setting (as prts.PAPER, in aeon's argument names).
PAPER = {"p_alpha": 0.0, "r_alpha": 0.5, "cardinality": "reciprocal", "p_bias": "flat", "r_bias": "front"}
BIASES = ("flat", "front", "middle", "back")
CARDINALITIES = ("one", "reciprocal")


def _metrics() -> Any:
    return import_module(MODULE)


def _range_pair(params: Mapping[str, Any]) -> Any:
    ad = _metrics()
    p = dict(params)

    def fn(y_true: np.ndarray, y_pred: np.ndarray) -> tuple[float, float]:
        real, pred = as_labels(y_true), as_labels(y_pred)
        precision = ad.range_precision(real, pred, alpha=p["p_alpha"], cardinality=p["cardinality"], bias=p["p_bias"])
        recall = ad.range_recall(real, pred, alpha=p["r_alpha"], cardinality=p["cardinality"], bias=p["r_bias"])
        return float(precision), float(recall)

    return fn


def _single(name: str, input_kind: str) -> Callable[[Mapping[str, Any]], Any]:
    def build(params: Mapping[str, Any]) -> Any:
        call = getattr(_metrics(), name)
        convert = as_scores if input_kind == "scores" else as_labels
        kwargs = dict(params)
        return lambda y_true, y_pred: float(call(as_labels(y_true), convert(y_pred), **kwargs))

    return build


#: The VUS pair takes about 2 s per call (measured), so, as TimeEval's VUS rows, they are declared
#: slow and get the reduced audit of the slowest rows (:func:`..base.reduced_audit`).
#: The call the range_roc_vus_score and range_pr_vus_score rows share (:mod:`..shared`).
VUS_SHARED_CALL = "aeon range_pr_roc_auc_support per buffer size"
VUS_SHARED_NOTE = ("the range_roc_vus_score/range_pr_vus_score pair shares each call: both loop buffer sizes "
                   "0..max_buffer_size over range_pr_roc_auc_support, which gives both areas "
                   "(atlas/adapters/modern/aeon.py: vus_volumes); " + NOTE)


def vus_volumes(y_true: Any, y_score: Any, max_buffer_size: int) -> tuple[float, float]:
    """``(range_pr_vus_score(...), range_roc_vus_score(...))`` of aeon 1.6.0 in one pass.

    Both functions run ``check_y(y_true, y_score, force_y_pred_continuous=True)``, return 0.0 with a
    warning for a constant ``y_score``, then for each buffer size 0..``max_buffer_size`` call
    ``range_pr_roc_auc_support(y_true, y_score, buffer_size=b, skip_check=True)`` (the PR and the ROC
    area) and divide the sum by ``max_buffer_size + 1``.  This makes that loop once and keeps both
    areas (tests/test_atlas_adapters_modern.py checks it equals both public calls exactly).
    """
    import warnings

    metrics = _metrics()
    check_y = import_module("aeon.benchmarking.metrics.anomaly_detection._util").check_y
    y_true, _ = check_y(y_true, y_score, force_y_pred_continuous=True)
    if np.unique(y_score).shape[0] == 1:
        warnings.warn("Cannot compute metric for a constant value in y_score, returning 0.0!", stacklevel=2)
        return 0.0, 0.0
    prs, rocs = np.zeros(max_buffer_size + 1), np.zeros(max_buffer_size + 1)
    for buffer_size in np.arange(0, max_buffer_size + 1):
        pr_auc, roc_auc = metrics.range_pr_roc_auc_support(y_true, y_score, buffer_size=buffer_size, skip_check=True)
        prs[buffer_size], rocs[buffer_size] = pr_auc, roc_auc
    return float(np.sum(prs) / (max_buffer_size + 1)), float(np.sum(rocs) / (max_buffer_size + 1))


def _shared_vus(which: str) -> Callable[[Mapping[str, Any]], Any]:
    """A VUS row of the shared pair: ``"roc"`` (listed first, stores each result) or ``"pr"`` (takes it)."""

    def build(params: Mapping[str, Any]) -> Any:
        _metrics()  # the package is importable

        def fn(y_true: Any, y_pred: Any) -> float:
            labels, scores = as_labels(y_true), as_scores(y_pred)
            out = shared_result(VUS_SHARED_CALL, params, labels, scores, role="store" if which == "roc" else "take",
                                call=lambda: vus_volumes(labels, scores, params["max_buffer_size"]))
            return out[1] if which == "roc" else out[0]

        return fn

    return build


def _row(metric: str, family: str, build: Any, *, input_kind: str, params: Any = None, kind: str = "score",
         group: str | None = None, note: str = NOTE, slow: bool = False, shared: str | None = None) -> Adapter:
    return Adapter(PACKAGE, metric, family, build, params or {}, input_kind=input_kind, kind=kind, group=group,
                   note=note, slow=slow, shared=shared, env=ENV, **reduced_audit(slow))


def _range_row(metric: str, **params: Any) -> Adapter:
    return _row(metric, "range-based", _range_pair, input_kind="binary", params=params, kind="pr", group="Tatbul range-based",
                note="(range_precision(alpha=p_alpha, cardinality, bias=p_bias), range_recall(alpha=r_alpha, cardinality, bias=r_bias)); " + NOTE)


ADAPTERS: list[Adapter] = (
    [
        _range_row("range_precision/range_recall[defaults]", p_alpha=0.0, r_alpha=0.0, cardinality="reciprocal", p_bias="flat", r_bias="flat"),
        _range_row("range_precision/range_recall[paper]", **PAPER),
    ]
    + [
        _range_row(f"range_precision/range_recall[{bias},{card}]", p_alpha=0.0, r_alpha=0.5, cardinality=card, p_bias=bias, r_bias=bias)
        for bias in BIASES
        for card in CARDINALITIES
    ]
    + [
        _row("range_f_score", "range-based", _single("range_f_score", "binary"), input_kind="binary", group="Tatbul range-based",
             params={"beta": 1, "p_alpha": 0, "r_alpha": 0.5, "cardinality": "reciprocal", "p_bias": "flat", "r_bias": "flat"}),
        _row("roc_auc_score", "threshold-free", _single("roc_auc_score", "scores"), input_kind="scores", group="AUC-ROC"),
        _row("pr_auc_score", "threshold-free", _single("pr_auc_score", "scores"), input_kind="scores", group="AUC-PR"),
        _row("rp_rr_auc_score", "threshold-free", _single("rp_rr_auc_score", "scores"), input_kind="scores",
             params={"max_samples": 50, "r_alpha": 0.5, "p_alpha": 0, "cardinality": "reciprocal", "bias": "flat"}),
        _row("f_score_at_k_points", "point-wise", _single("f_score_at_k_points", "scores"), input_kind="scores", params={"k": None}),
        _row("f_score_at_k_ranges", "range-based", _single("f_score_at_k_ranges", "scores"), input_kind="scores", params={"k": None}),
        _row("range_roc_auc_score", "threshold-free", _single("range_roc_auc_score", "scores"), input_kind="scores", params={"buffer_size": None}),
        _row("range_pr_auc_score", "threshold-free", _single("range_pr_auc_score", "scores"), input_kind="scores", params={"buffer_size": None}),
        _row("range_roc_vus_score", "threshold-free", _shared_vus("roc"), input_kind="scores", group="VUS-ROC",
             params={"max_buffer_size": 500}, slow=True, shared=VUS_SHARED_CALL, note=VUS_SHARED_NOTE),
        _row("range_pr_vus_score", "threshold-free", _shared_vus("pr"), input_kind="scores", group="VUS-PR",
             params={"max_buffer_size": 500}, slow=True, shared=VUS_SHARED_CALL, note=VUS_SHARED_NOTE),
    ]
)
