"""dtaianomaly 0.5.1: ``dtaianomaly.evaluation`` (environment ``modern``; numba).

Every metric is a class; the adapter builds a fresh object per call and calls
``metric.compute(y_true, y_pred)``.  Binary rows return (precision, recall, F):
point-wise, point-adjusted, event-wise, affiliation and range-based (Tatbul:
recall alpha 0.5, the bias ``delta`` and cardinality ``gamma`` applied to both;
rows with flat and front bias).  Score rows: AUROC, AUPR, the range AUC pair
(``buffer_size`` None: the median anomaly length) and the VUS pair
(``max_buffer_size`` 500), each with ``compatibility_mode`` off (the package's
default: its documented deviations from TimeEval, thresholds capped at the
series length) and on (TimeEval's behaviour, 250 thresholds); the UCR score
(1 when the highest score lies within one anomaly length of the single
anomaly, NaN with a warning when there is not exactly one); and the best F1
over every threshold (``BestThresholdMetric(FBeta())``).

The first call in a process compiles the numba kernels (about 3 s); after that
a VUS call takes about 0.3 s and the best-threshold F1 about 3 s on a
1000-point series, so those rows are declared slow and reduced to 10 of the 100
random-detector runs, as TimeEval's VUS (a full audit of one VUS row had used
more than 11 CPU minutes without finishing).

Reproduced by hand (one case): y_true with one anomaly [2, 6) in 20 points and the
prediction [3, 5): point-wise P = 1, R = 2/4, F1 = 2/3; point-adjusted P = R = F1 = 1;
``UCRScore().compute(y_true, scores)`` with the highest score at 3 (inside
[2 - 4, 5 + 4]): 1 (tests/test_atlas_modern.py checks these).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ..base import Adapter, as_labels, as_scores, import_module, reduced_audit

__all__ = ["ADAPTERS"]

PACKAGE = "dtaianomaly"
ENV = "modern"
NOTE = "a fresh metric object per call, metric.compute(y_true as int64, y_pred)"
#: Reduced audit of the best-threshold F1 (about 3 s per call on 1000 points), as TimeEval's VUS rows.
BEST_THRESHOLD_RANDOM_RUNS = 10
#: The VUS rows get the reduced audit of every VUS row declared slow (:func:`..base.reduced_audit`).  Their numba kernel runs ``prange`` over the thresholds: alone it takes
#: about 0.05 s a call, but with more threads than cores (two atlas workers, each with numba's default of
#: one thread per core) every parallel region waits on a descheduled thread and a full audit took over
#: 11 CPU minutes; the atlas workers now run one numba thread each (:func:`oipr_bench.atlas.build.one_thread`).


def _evaluation() -> Any:
    return import_module("dtaianomaly.evaluation")


def _triple(prefix: str) -> Callable[[Mapping[str, Any]], Any]:
    """(``<prefix>Precision``, ``<prefix>Recall``, ``<prefix>FBeta``) with the row's parameters."""

    def build(params: Mapping[str, Any]) -> Any:
        ev = _evaluation()
        p = dict(params)
        shared = {k: v for k, v in p.items() if k in ("delta", "gamma")}
        recall_only = {k: v for k, v in p.items() if k == "alpha"}

        def fn(y_true: Any, y_pred: Any) -> tuple[float, float, float]:
            real, pred = as_labels(y_true), as_labels(y_pred)
            precision = getattr(ev, f"{prefix}Precision")(**shared).compute(real, pred)
            recall = getattr(ev, f"{prefix}Recall")(**shared, **recall_only).compute(real, pred)
            f = getattr(ev, f"{prefix}FBeta")(**p).compute(real, pred)
            return float(precision), float(recall), float(f)

        return fn

    return build


def _pointwise(params: Mapping[str, Any]) -> Any:
    ev = _evaluation()

    def fn(y_true: Any, y_pred: Any) -> tuple[float, float, float]:
        real, pred = as_labels(y_true), as_labels(y_pred)
        return (float(ev.Precision().compute(real, pred)), float(ev.Recall().compute(real, pred)),
                float(ev.FBeta(params["beta"]).compute(real, pred)))

    return fn


def _single(cls: str) -> Callable[[Mapping[str, Any]], Any]:
    def build(params: Mapping[str, Any]) -> Any:
        make = getattr(_evaluation(), cls)
        kwargs = dict(params)
        return lambda y_true, y_pred: float(make(**kwargs).compute(as_labels(y_true), as_scores(y_pred)))

    return build


def _best_f1(params: Mapping[str, Any]) -> Any:
    ev = _evaluation()
    return lambda y_true, y_pred: float(ev.BestThresholdMetric(ev.FBeta(params["beta"]), params["max_nb_thresholds"]).compute(
        as_labels(y_true), as_scores(y_pred)))


def _row(metric: str, family: str, build: Any, *, input_kind: str, params: Any = None, kind: str = "score",
         group: str | None = None, slow: bool = False, random_runs: int | None = None, chance_draws: int | None = None,
         note: str = NOTE) -> Adapter:
    return Adapter(PACKAGE, metric, family, build, params or {}, input_kind=input_kind, kind=kind, group=group,
                   note=note, slow=slow, random_runs=random_runs, chance_draws=chance_draws, env=ENV)


def _vus_rows() -> list[Adapter]:
    out = []
    for compat in (False, True):
        tag = "[compatibility_mode]" if compat else ""
        common = {"compatibility_mode": compat, "max_samples": 250}
        out += [
            _row(f"RangeAreaUnderROC{tag}", "threshold-free", _single("RangeAreaUnderROC"), input_kind="scores", params={"buffer_size": None, **common}),
            _row(f"RangeAreaUnderPR{tag}", "threshold-free", _single("RangeAreaUnderPR"), input_kind="scores", params={"buffer_size": None, **common}),
            _row(f"VolumeUnderROC{tag}", "threshold-free", _single("VolumeUnderROC"), input_kind="scores", group="VUS-ROC",
                 params={"max_buffer_size": 500, **common}, slow=True, **reduced_audit(True)),
            _row(f"VolumeUnderPR{tag}", "threshold-free", _single("VolumeUnderPR"), input_kind="scores", group="VUS-PR",
                 params={"max_buffer_size": 500, **common}, slow=True, **reduced_audit(True)),
        ]
    return out


ADAPTERS: list[Adapter] = [
    _row("Precision/Recall/FBeta", "point-wise", _pointwise, input_kind="binary", params={"beta": 1.0}, kind="pr", group="point-wise F1"),
    _row("PointAdjustedPrecision/Recall/FBeta", "point-adjusted", _triple("PointAdjusted"), input_kind="binary", params={"beta": 1.0}, kind="pr"),
    _row("EventWisePrecision/Recall/FBeta", "event-based", _triple("EventWise"), input_kind="binary", params={"beta": 1.0}, kind="pr"),
    _row("AffiliationPrecision/Recall/FBeta", "affiliation", _triple("Affiliation"), input_kind="binary", params={"beta": 1.0}, kind="pr",
         group="affiliation"),
    _row("RangeBasedPrecision/Recall/FBeta", "range-based", _triple("RangeBased"), input_kind="binary", kind="pr", group="Tatbul range-based",
         params={"beta": 1.0, "alpha": 0.5, "delta": "flat", "gamma": "reciprocal"}),
    _row("RangeBasedPrecision/Recall/FBeta[front]", "range-based", _triple("RangeBased"), input_kind="binary", kind="pr", group="Tatbul range-based",
         params={"beta": 1.0, "alpha": 0.5, "delta": "front", "gamma": "reciprocal"}),
    _row("AreaUnderROC", "threshold-free", _single("AreaUnderROC"), input_kind="scores", group="AUC-ROC"),
    _row("AreaUnderPR", "threshold-free", _single("AreaUnderPR"), input_kind="scores", group="AUC-PR"),
    *_vus_rows(),
    _row("UCRScore", "detection count", _single("UCRScore"), input_kind="scores", params={"tolerance": None}),
    _row("BestThresholdMetric(FBeta)", "point-wise", _best_f1, input_kind="scores", params={"beta": 1.0, "max_nb_thresholds": None},
         slow=True, random_runs=BEST_THRESHOLD_RANDOM_RUNS),
]
