"""salesforce-merlion 2.0.4: ``merlion.evaluate.anomaly`` (environment ``main``: it needs numpy < 2).

``accumulate_tsad_score(ground_truth, predict)`` on the series put on a
one-second grid (``TimeSeries.from_pd``), then the accumulator's scores.
Rows (all on the 0/1 prediction; ``max_early_sec`` and ``max_delay_sec`` None,
the package's defaults):

- P/R/F1 for each ``ScoreType``: ``Pointwise``, ``PointAdjusted`` and
  ``RevisedPointAdjusted`` (Merlion's default: an event counts once, as one true
  positive or one false negative; every predicted point outside the events is a
  false positive);
- the NAB score with the three NAB profiles (standard: false positive weight
  0.11; reward low FP: 0.22; reward low FN: false negative weight 2), Merlion's
  own scorer: each detected event earns ``tanh(2.5 (1 - d)) / tanh(2.5)`` for the
  relative delay ``d`` of its first detection, normalised so that no detection
  scores 0 and the perfect one 1; false positives make it negative (open below);
- the mean time to detect in seconds (one second per point; 0 when nothing is
  detected, as the package returns it; lower is better).

Reproduced by hand (one case): y_true with one anomaly [2, 6) in 20 points and the
prediction [3, 5): revised point-adjusted P = R = F1 = 1; point-wise F1 = 2/3;
NAB (standard): delay d = 1/4, the event earns tanh(1.875) / tanh(2.5) = 0.96699,
(0.96699 + 1) / (1 + 1) = 0.98349; mean time to detect 1 s (tests/test_atlas_adapters.py).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

import numpy as np

from ..base import Adapter, as_labels, import_module

__all__ = ["ADAPTERS", "NAB_PROFILES"]

PACKAGE = "salesforce-merlion"
ENV = "main"
#: NAB's three profiles (tp, fp, fn weights), as Merlion's docstring lists them.
NAB_PROFILES = {
    "standard": {"tp_weight": 1.0, "fp_weight": 0.11, "fn_weight": 1.0},
    "reward_low_fp": {"tp_weight": 1.0, "fp_weight": 0.22, "fn_weight": 1.0},
    "reward_low_fn": {"tp_weight": 1.0, "fp_weight": 0.11, "fn_weight": 2.0},
}


def _accumulate() -> Callable[[Any, Any], Any]:
    anomaly = import_module("merlion.evaluate.anomaly")
    pd = import_module("pandas")
    series = import_module("merlion.utils").TimeSeries

    def run(y_true: Any, y_pred: Any) -> Any:
        index = pd.date_range("2000-01-01", periods=len(y_true), freq="1s")
        real = series.from_pd(pd.Series(as_labels(y_true).astype(float), index=index))
        pred = series.from_pd(pd.Series(as_labels(y_pred).astype(float), index=index))
        return anomaly.accumulate_tsad_score(real, pred)

    return run


def _pr(params: Mapping[str, Any]) -> Any:
    run = _accumulate()
    score_type = getattr(import_module("merlion.evaluate.anomaly").ScoreType, params["score_type"])

    def fn(y_true: Any, y_pred: Any) -> tuple[float, float, float]:
        acc = run(y_true, y_pred)
        return float(acc.precision(score_type)), float(acc.recall(score_type)), float(acc.f1(score_type))

    return fn


def _nab(params: Mapping[str, Any]) -> Any:
    run = _accumulate()
    weights = dict(params)
    return lambda y_true, y_pred: float(run(y_true, y_pred).nab_score(**weights))


def _mttd(params: Mapping[str, Any]) -> Any:
    run = _accumulate()
    return lambda y_true, y_pred: float(run(y_true, y_pred).mean_time_to_detect().total_seconds())


def _row(metric: str, family: str, build: Any, params: Mapping[str, Any], *, kind: str, group: str | None = None,
         higher_is_better: bool = True, bounds: tuple[float | None, float | None] = (0.0, 1.0), note: str = "") -> Adapter:
    return Adapter(PACKAGE, metric, family, build, dict(params), input_kind="binary", kind=kind, group=group,
                   higher_is_better=higher_is_better, bounds=bounds, note=note, env=ENV)


_NOTE = "accumulate_tsad_score(TimeSeries(y_true), TimeSeries(y_pred)) on a one-second grid"

ADAPTERS: list[Adapter] = (
    [
        _row("Pointwise", "point-wise", _pr, {"score_type": "Pointwise"}, kind="pr", group="point-wise F1", note=_NOTE),
        _row("PointAdjusted", "point-adjusted", _pr, {"score_type": "PointAdjusted"}, kind="pr", note=_NOTE),
        _row("RevisedPointAdjusted", "point-adjusted", _pr, {"score_type": "RevisedPointAdjusted"}, kind="pr", note=_NOTE),
    ]
    + [_row(f"nab_score[{name}]", "detection delay", _nab, weights, kind="score", bounds=(None, 1.0), note=_NOTE + "; .nab_score(weights)")
       for name, weights in NAB_PROFILES.items()]
    + [_row("mean_time_to_detect", "detection delay", _mttd, {}, kind="score", higher_is_better=False, bounds=(0.0, None),
            note=_NOTE + "; .mean_time_to_detect() in seconds (0 when nothing is detected)")]
)
