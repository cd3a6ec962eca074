"""tadmetric 0.2.2: ``Tadmetric(score, label)`` (environment ``modern``).

Events are half-open ``[start, end)`` runs of the label.  Binary rows pass the
prediction as the score and evaluate at threshold 0.5 (``score >= 0.5`` is the
prediction itself): ``evaluate(0.5, mode=...)`` for point-wise, point-adjusted
and composite (point-wise precision, event recall) P/R/F1, and the
point-adjusted mean latency (``calc_latency=True``: the mean over detected
events of the offset of the first predicted point; None, stored as NaN, when no
event is detected; lower is better).  Score rows: ``search(mode=...)``, the best
F1 over 100 evenly spaced thresholds between the lowest and the highest score
(ties: higher precision, then higher threshold).

Reproduced by hand (one case): y_true with one anomaly [2, 6) in 20 points and the
prediction [3, 5): point-wise P = 1, R = 1/2, F1 = 2/3; point-adjusted: the event
is filled, P = R = F1 = 1, latency 1 (first hit at 3, one step after 2); composite:
P = 1, event recall 1, F1 = 1 (tests/test_atlas_modern.py checks these).
"""

from __future__ import annotations

import math
from typing import Any, Callable, Mapping

from ..base import Adapter, as_labels, as_scores, import_module

__all__ = ["ADAPTERS", "MODES"]

PACKAGE = "tadmetric"
ENV = "modern"
MODES = ("point-wise", "point-adjusted", "composite")
_FAMILY = {"point-wise": "point-wise", "point-adjusted": "point-adjusted", "composite": "event-based"}
_GROUP = {"point-wise": "point-wise F1", "point-adjusted": None, "composite": None}


def _tadmetric() -> Any:
    return import_module("tadmetric").Tadmetric


def _evaluate(params: Mapping[str, Any]) -> Any:
    make = _tadmetric()

    def fn(y_true: Any, y_pred: Any) -> tuple[float, float, float]:
        r = make(as_labels(y_pred).astype(float), as_labels(y_true)).evaluate(params["threshold"], mode=params["mode"])
        return float(r.precision), float(r.recall), float(r.f1)

    return fn


def _latency(params: Mapping[str, Any]) -> Any:
    make = _tadmetric()

    def fn(y_true: Any, y_pred: Any) -> float:
        r = make(as_labels(y_pred).astype(float), as_labels(y_true)).evaluate(params["threshold"], mode="point-adjusted", calc_latency=True)
        return math.nan if r.latency is None else float(r.latency)

    return fn


def _search(params: Mapping[str, Any]) -> Any:
    make = _tadmetric()
    return lambda y_true, y_pred: float(make(as_scores(y_pred), as_labels(y_true)).search(mode=params["mode"], steps=params["steps"]).f1)


def _row(metric: str, family: str, build: Callable[[Mapping[str, Any]], Any], params: Mapping[str, Any], *, input_kind: str, kind: str,
         group: str | None = None, higher_is_better: bool = True, bounds: tuple[float | None, float | None] = (0.0, 1.0), note: str = "") -> Adapter:
    return Adapter(PACKAGE, metric, family, build, dict(params), input_kind=input_kind, kind=kind, group=group,
                   higher_is_better=higher_is_better, bounds=bounds, note=note, env=ENV)


ADAPTERS: list[Adapter] = (
    [_row(f"evaluate[{m}]", _FAMILY[m], _evaluate, {"mode": m, "threshold": 0.5}, input_kind="binary", kind="pr", group=_GROUP[m],
          note=f"Tadmetric(y_pred as score, y_true).evaluate(0.5, mode={m!r}) -> (precision, recall, f1)") for m in MODES]
    + [_row("latency[point-adjusted]", "detection delay", _latency, {"threshold": 0.5}, input_kind="binary", kind="score",
            higher_is_better=False, bounds=(0.0, None),
            note="evaluate(0.5, mode='point-adjusted', calc_latency=True).latency; None (no event detected) is NaN")]
    + [_row(f"search[{m}]", _FAMILY[m], _search, {"mode": m, "steps": 100}, input_kind="scores", kind="score",
            note=f"Tadmetric(scores, y_true).search(mode={m!r}, steps=100).f1: the best F1 over 100 thresholds") for m in MODES]
)
