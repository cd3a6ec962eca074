"""cce 0.3.3: Confidence-Consistency Evaluation (arXiv 2509.01098), environment ``modern``.

The wheel installs its metric code as the top-level package ``metrics``
(``cce.metrics`` only puts it on ``sys.path`` and re-exports it; ``cce/__init__``
writes a config file into the home folder, so the atlas does not import ``cce``).
``metrics.basic_metrics`` imports torch for one ``isinstance(label, torch.Tensor)``
test in a cache class; torch is never installed in the atlas environments, so the
adapter imports that module with a stand-in ``torch`` holding only a ``Tensor``
class nothing is an instance of, and removes the stand-in from ``sys.modules``
right after (the module keeps its reference; no other code sees it).

Rows (``basic_metricor()`` with its defaults):

- ``CCE`` (scores): ``metric_CCE(labels, scores)``, method ``bayesian_v2``,
  confidence level 0.5: the mean of a per-event and a global term, each the
  weighted mean (0.5/0.5) of an anomaly and a normal part, (mean score - 0.5) or
  (0.5 - mean score) times exp(-uncertainty), on min-max normalised scores.
  Range [-1, 1].
- ``PA%K-AUC`` (binary): ``metric_PA_percentile_K(labels, score, preds=y_pred)``,
  point-adjusted F1 averaged over 100 values of K in [0, 1]; slow (a Python loop per K: its
  audit took 354 s on the loaded 2-core machine, about 0.8 s per call).
- ``Reduced-F1`` (binary): ``metric_Reduced_F1(labels, score, preds=y_pred)``,
  point adjustment then every anomaly shortened to floor(log3(length + 3)) points.
- ``N-Affiliation`` (binary): ``metric_N_Affiliation_f1_pre_rec``: affiliation
  precision rescaled to 2 (P - 0.5), the signed F1 of that and the recall, as one score in
  [-1, 1] (the rescaled precision is negative below P = 0.5, so it is not returned as a precision).

Reproduced by hand (one case): y_true = y_pred with one anomaly [2, 6) in 20
points.  The normalised scores are 1/(1 + 1e-8) inside and 0 outside; every
segment is constant, so its Beta-moment uncertainty is 0 and its consistency 1;
anomaly part 1/(1 + 1e-8) - 0.5, normal part 0.5; event term = global term =
0.5 (1/(1 + 1e-8) - 0.5) + 0.25, CCE = 1 - 1e-8 (tests/test_atlas_modern.py).
"""

from __future__ import annotations

import importlib.util
import sys
import types
from typing import Any, Callable, Mapping

from ..base import Adapter, Unavailable, as_labels, as_scores, import_module

__all__ = ["ADAPTERS", "basic_metrics"]

PACKAGE = "cce"
ENV = "modern"


def basic_metrics() -> Any:
    """cce's ``metrics.basic_metrics`` module, imported without torch (see the module docstring)."""
    if "metrics.basic_metrics" in sys.modules:
        return sys.modules["metrics.basic_metrics"]
    spec = importlib.util.find_spec("metrics")
    if spec is None or not spec.origin or "site-packages" not in spec.origin:
        raise Unavailable("cce's top-level package 'metrics' is not installed")
    if importlib.util.find_spec("torch") is not None:
        return import_module("metrics.basic_metrics")
    stand_in = types.ModuleType("torch")
    stand_in.Tensor = type("Tensor", (), {})  # type: ignore[attr-defined]
    sys.modules["torch"] = stand_in
    try:
        return import_module("metrics.basic_metrics")
    finally:
        del sys.modules["torch"]


def _grader() -> Any:
    return basic_metrics().basic_metricor()


def _cce(params: Mapping[str, Any]) -> Any:
    grader = _grader()
    return lambda y_true, y_pred: float(grader.metric_CCE(as_labels(y_true), as_scores(y_pred), **dict(params)))


def _f_p_r(method: str, pred_kw: str) -> Callable[[Mapping[str, Any]], Any]:
    """A method returning (F, P, R) on the prediction, as (P, R, F)."""

    def build(params: Mapping[str, Any]) -> Any:
        call = getattr(_grader(), method)

        def fn(y_true: Any, y_pred: Any) -> tuple[float, float, float]:
            pred = as_labels(y_pred)
            f, p, r = call(as_labels(y_true), pred.astype(float), **{pred_kw: pred}, **dict(params))
            return float(p), float(r), float(f)

        return fn

    return build


def _signed_f(params: Mapping[str, Any]) -> Any:
    """N-Affiliation's signed F alone: its precision 2 (P - 0.5) is negative below P = 0.5, so it is no
    precision in [0, 1] and the row is a score in [-1, 1]."""
    call = _grader().metric_N_Affiliation_f1_pre_rec

    def fn(y_true: Any, y_pred: Any) -> float:
        pred = as_labels(y_pred)
        return float(call(as_labels(y_true), pred.astype(float), pred=pred)[0])

    return fn


def _row(metric: str, family: str, build: Any, *, input_kind: str, params: Any = None, kind: str = "score",
         bounds: tuple[float | None, float | None] = (0.0, 1.0), note: str = "", group: str | None = None, slow: bool = False) -> Adapter:
    return Adapter(PACKAGE, metric, family, build, params or {}, input_kind=input_kind, kind=kind, bounds=bounds, note=note,
                   group=group, slow=slow, env=ENV)


ADAPTERS: list[Adapter] = [
    _row("CCE", "confidence-consistency", _cce, input_kind="scores", bounds=(-1.0, 1.0),
         params={"method": "bayesian_v2", "confidence_level": 0.5, "n_samples": 30, "positive_constraint": False, "bayesian_scale": 10},
         note="basic_metricor().metric_CCE(y_true, scores) (metrics.basic_metrics imported with a stand-in torch)"),
    _row("PA%K-AUC", "point-adjusted", _f_p_r("metric_PA_percentile_K", "preds"), input_kind="binary", kind="pr", params={"num_K": 100},
         note="metric_PA_percentile_K(y_true, y_pred, preds=y_pred) -> (F, P, R) as (P, R, F)", slow=True),
    _row("Reduced-F1", "point-adjusted", _f_p_r("metric_Reduced_F1", "preds"), input_kind="binary", kind="pr",
         note="metric_Reduced_F1(y_true, y_pred, preds=y_pred) -> (F, P, R) as (P, R, F)"),
    _row("N-Affiliation", "affiliation", _signed_f, input_kind="binary", kind="score", bounds=(-1.0, 1.0),
         note="metric_N_Affiliation_f1_pre_rec(y_true, y_pred, pred=y_pred)[0]: the signed F of 2 (P - 0.5) and R"),
]
