"""The VUS settings users actually run, as rows of their own (environment ``main``).

TSB-AD 1.5's ``generate_curve(label, score, slidingWindow, version, thre)``
(:mod:`..tsb_ad` has the default row: window 100, ``version='opt'``, 250
thresholds) with:

- ``thre`` 100 and 50 (fewer thresholds: faster, and a different number; on one
  series 0.1821 / 0.1549 / 0.1410 for 250 / 100 / 50);
- ``version='opt_mem'`` (the memory-saving implementation);
- the doubled window: in vus 0.0.6 the four robustness functions of
  ``vus/analysis/robustness_eval.py`` (``compute_anomaly_acc_lag``,
  ``_percentage``, ``_noise``, ``_pairwise``) call that module's
  ``generate_curve`` with ``2 * slidingWindow``, so their window 100 is
  window 200.  No ``get_metrics`` doubles it: TSB-AD 1.5's
  (``TSB_AD/evaluation/metrics.py``) and vus 0.0.6's (``vus/metrics.py``)
  pass ``slidingWindow`` unchanged (tests/test_disagreement_causes.py).

TimeEval 1.5.0's range AUC and VUS with ``compatibility_mode=True`` (the
original VUS code's behaviour: 250 thresholds whatever the series length, the
original slope shape); :mod:`..timeeval` has the default (``False``) rows.

All VUS rows are slow (TSB-AD about 0.3 to 1 s per call, TimeEval about 5 s);
TimeEval's are audited on 10 of the 100 random-detector runs, as its default rows.

Reproduced by hand: each variant makes the default row's call (``generate_curve``
with the row's ``slidingWindow``, ``version``, ``thre``; a fresh TimeEval metric object
per call) with the parameters in its row; tests/test_atlas_adapters.py checks that the
parameters differ from the default row's in the one named, that fewer thresholds
give another number, and that a perfect detection scores 1.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from . import timeeval, tsb_ad
from ..base import Adapter, as_labels, as_scores, import_module, import_submodule, reduced_audit
from ..shared import shared_result

__all__ = ["ADAPTERS"]

_TSB = {"slidingWindow": 100, "version": "opt", "thre": 250}

#: The variants, declared slow, get the reduced audit of the slowest rows (:func:`..base.reduced_audit`), to
#: keep ``atlas --write --include-slow`` within its time (atlas/timings.json).
_TSB_VARIANTS = (
    ("thre=100", {"thre": 100}),
    ("thre=50", {"thre": 50}),
    ("opt_mem", {"version": "opt_mem"}),
    ("window=2x100", {"slidingWindow": 200}),
)


def _tsb_vus(which: str) -> Callable[[Mapping[str, Any]], Any]:
    """TSB-AD's ``generate_curve``: index 6 is VUS-ROC, 7 VUS-PR."""

    def build(params: Mapping[str, Any]) -> Any:
        curve = import_module("TSB_AD.evaluation.basic_metrics").generate_curve

        def fn(y_true: Any, y_pred: Any) -> float:
            labels, scores = as_labels(y_true), as_scores(y_pred)
            out = shared_result(tsb_ad.SHARED_CALL, params, labels, scores, role=tsb_ad.shared_role(which),
                                call=lambda: curve(labels, scores, params["slidingWindow"], params["version"], params["thre"]))
            return float(out[6] if which == "roc" else out[7])

        return fn

    return build


def _timeeval_metric(cls: str) -> Callable[[Mapping[str, Any]], Any]:
    """A fresh ``timeeval.metrics.<cls>(**params)`` per call, on scores."""

    def build(params: Mapping[str, Any]) -> Any:
        make = getattr(import_submodule("timeeval", "metrics"), cls)
        kwargs = dict(params)
        return lambda y_true, y_pred: float(make(**kwargs)(as_labels(y_true), as_scores(y_pred)))

    return build


def _tsb(which: str, tag: str, change: dict) -> Adapter:
    name = "VUS-ROC" if which == "roc" else "VUS-PR"
    return Adapter("TSB-AD", f"{name}[{tag}]", "threshold-free", _tsb_vus(which), {**_TSB, **change}, input_kind="scores",
                   group=name, slow=True, shared=tsb_ad.SHARED_CALL, **reduced_audit(True),
                   note=f"generate_curve(y_true, scores, slidingWindow, version, thre) with {tag}; the VUS-ROC/VUS-PR pair "
                        "shares each call's result (atlas/adapters/shared.py)")


def _timeeval(cls: str, params: dict, group: str | None, slow: bool) -> Adapter:
    if slow:  # the VUS pair: one loop over buffer sizes gives both volumes (timeeval.vus_volumes)
        return Adapter("TimeEval", f"{cls}[compatibility_mode]", "threshold-free",
                       timeeval.shared_vus("pr" if cls == "RangePrVUS" else "roc"), params, input_kind="scores", group=group,
                       note=timeeval.VUS_SHARED_NOTE, slow=True, shared=timeeval.VUS_SHARED_CALL, **reduced_audit(True))
    return Adapter("TimeEval", f"{cls}[compatibility_mode]", "threshold-free", _timeeval_metric(cls), params,
                   input_kind="scores", group=group, note=timeeval.NOTE)


_COMPAT = {"compatibility_mode": True, "max_samples": 250}

ADAPTERS: list[Adapter] = (
    [_tsb(which, tag, change) for tag, change in _TSB_VARIANTS for which in ("roc", "pr")]
    + [
        _timeeval("RangePrAUC", {"buffer_size": None, **_COMPAT}, None, False),
        _timeeval("RangeRocAUC", {"buffer_size": None, **_COMPAT}, None, False),
        _timeeval("RangePrVUS", {"max_buffer_size": 500, **_COMPAT}, "VUS-PR", True),
        _timeeval("RangeRocVUS", {"max_buffer_size": 500, **_COMPAT}, "VUS-ROC", True),
    ]
)
