"""adtk 0.6.2: ``adtk.metrics`` (environment ``main``).

adtk scores pandas series on a time index: with 0/1 label series every anomalous
point is its own event (point-wise recall, precision, F1, and IoU: the shared
anomalous points over the points anomalous in either); with lists of event
windows (closed ``(start, end)`` timestamp pairs) an event counts as detected when
at least ``thresh`` (0.5) of its length is covered.  The adapter puts the series on
a one-second index (``pd.date_range``).

The event-list form raises ``AttributeError: 'Series' object has no attribute
'iteritems'`` on every input with pandas >= 2 (``adtk.data.validate_events`` calls
``Series.iteritems``, removed in pandas 2.0; both atlas environments pin pandas 2):
its row is kept, failing on every case, with that reason.

Reproduced by hand (one case): y_true with one anomaly [2, 6) in 20 points and the
prediction [3, 5): precision 2/2 = 1, recall 2/4, F1 2/3, IoU 2/4 = 0.5
(tests/test_atlas_adapters.py checks it).
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ..base import Adapter, as_labels, import_module

__all__ = ["ADAPTERS"]

PACKAGE = "adtk"
ENV = "main"


def _series(pd: Any, y: Any) -> Any:
    labels = as_labels(y)
    return pd.Series(labels, index=pd.date_range("2000-01-01", periods=labels.size, freq="1s"))


def _events(pd: Any, y: Any) -> list[tuple[Any, Any]]:
    """The anomalous runs as closed (first, last) timestamp pairs, adtk's event-list form."""
    labels = as_labels(y)
    edges = np.flatnonzero(np.diff(np.concatenate(([0], labels, [0]))))
    start = pd.Timestamp("2000-01-01")
    return [(start + pd.Timedelta(seconds=int(a)), start + pd.Timedelta(seconds=int(b) - 1)) for a, b in zip(edges[::2], edges[1::2])]


def _labels_prf(params: Mapping[str, Any]) -> Any:
    m, pd = import_module("adtk.metrics"), import_module("pandas")

    def fn(y_true: Any, y_pred: Any) -> tuple[float, float, float]:
        real, pred = _series(pd, y_true), _series(pd, y_pred)
        return float(m.precision(real, pred)), float(m.recall(real, pred)), float(m.f1_score(real, pred))

    return fn


def _labels_iou(params: Mapping[str, Any]) -> Any:
    m, pd = import_module("adtk.metrics"), import_module("pandas")
    return lambda y_true, y_pred: float(m.iou(_series(pd, y_true), _series(pd, y_pred)))


def _events_prf(params: Mapping[str, Any]) -> Any:
    m, pd = import_module("adtk.metrics"), import_module("pandas")
    thresh = params["thresh"]

    def fn(y_true: Any, y_pred: Any) -> tuple[float, float, float]:
        real, pred = _events(pd, y_true), _events(pd, y_pred)
        return (float(m.precision(real, pred, thresh=thresh)), float(m.recall(real, pred, thresh=thresh)),
                float(m.f1_score(real, pred, recall_thresh=thresh, precision_thresh=thresh)))

    return fn


ADAPTERS: list[Adapter] = [
    Adapter(PACKAGE, "precision/recall/f1_score[labels]", "point-wise", _labels_prf, {}, kind="pr", group="point-wise F1", env=ENV,
            note="adtk.metrics.{precision,recall,f1_score}(Series(y_true), Series(y_pred)) on a one-second index"),
    Adapter(PACKAGE, "iou[labels]", "point-wise", _labels_iou, {}, kind="score", env=ENV,
            note="adtk.metrics.iou(Series(y_true), Series(y_pred)): shared anomalous points / points anomalous in either"),
    Adapter(PACKAGE, "precision/recall/f1_score[events]", "event-based", _events_prf, {"thresh": 0.5}, kind="pr", env=ENV,
            note="on lists of closed (first, last) event windows; raises AttributeError (Series.iteritems) with pandas >= 2"),
]
