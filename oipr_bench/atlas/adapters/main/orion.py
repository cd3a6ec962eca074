"""orion-ml 0.7.1: ``orion.evaluation`` (environment ``main``).

``orion/__init__`` imports the pipeline runner (mlblocks, tensorflow), so the atlas
imports the ``orion.evaluation`` sub-package alone
(:func:`oipr_bench.atlas.adapters.base.import_submodule`, as for TimeEval); it needs only
NumPy, pandas and scikit-learn.  The 0/1 series become Orion's inputs with its own
converter ``orion.evaluation.utils.from_list_points_labels`` (closed
``(start, end)`` index intervals) for the contextual metrics, and the list of
anomalous indices for the point metrics; ``start``/``end`` are the series' first and
last index.  Rows, each (precision, recall, F1):

- contextual, ``weighted=True``: the time axis is cut at every interval edge (each
  interval padded to ``(start, end + 1)``) and the pieces are counted with their
  lengths as weights;
- contextual, ``weighted=False``: event counts (an expected interval overlapped by
  any observed one is a true positive; observed intervals overlapping none are
  false positives);
- point: the anomalous indices as points.

Orion returns NaN where a ratio is 0/0 and logs the ``ZeroDivisionError`` with its
traceback at level ERROR; the adapter silences the ``orion.evaluation.common``
logger so the audit's output stays readable.

Reproduced by hand (one case): y_true with one anomaly [2, 6) in 20 points and the
prediction [3, 5): intervals (2, 5) and (3, 4), padded (2, 6) and (3, 5); weighted:
pieces [2, 3) expected only, [3, 5) both, [5, 6) expected only: P = 2/2, R = 2/4,
F1 = 2/3; unweighted: one event found, no false alarm: P = R = F1 = 1
(tests/test_atlas_adapters.py).
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Mapping

import numpy as np

from ..base import Adapter, as_labels, import_submodule

__all__ = ["ADAPTERS"]

PACKAGE = "orion-ml"
ENV = "main"


def _evaluation() -> Any:
    logging.getLogger("orion.evaluation.common").setLevel(logging.CRITICAL)
    return import_submodule("orion", "evaluation")


def _contextual(params: Mapping[str, Any]) -> Any:
    ev = _evaluation()
    utils = import_submodule("orion", "evaluation.utils")
    weighted = params["weighted"]

    def fn(y_true: Any, y_pred: Any) -> tuple[float, float, float]:
        real, pred = as_labels(y_true), as_labels(y_pred)
        expected, observed = utils.from_list_points_labels(real), utils.from_list_points_labels(pred)
        kw = {"start": 0, "end": real.size - 1, "weighted": weighted}
        return (float(ev.contextual_precision(expected, observed, **kw)), float(ev.contextual_recall(expected, observed, **kw)),
                float(ev.contextual_f1_score(expected, observed, **kw)))

    return fn


def _point(params: Mapping[str, Any]) -> Any:
    ev = _evaluation()

    def fn(y_true: Any, y_pred: Any) -> tuple[float, float, float]:
        real, pred = as_labels(y_true), as_labels(y_pred)
        expected, observed = np.flatnonzero(real).tolist(), np.flatnonzero(pred).tolist()
        kw = {"start": 0, "end": real.size - 1}
        return (float(ev.point_precision(expected, observed, **kw)), float(ev.point_recall(expected, observed, **kw)),
                float(ev.point_f1_score(expected, observed, **kw)))

    return fn


def _row(metric: str, family: str, build: Callable[[Mapping[str, Any]], Any], params: Mapping[str, Any], group: str | None, note: str) -> Adapter:
    return Adapter(PACKAGE, metric, family, build, dict(params), kind="pr", group=group, note=note, env=ENV)


ADAPTERS: list[Adapter] = [
    _row("contextual[weighted]", "range-based", _contextual, {"weighted": True}, None,
         "contextual_{precision,recall,f1_score}(from_list_points_labels(y_true), ..(y_pred), start=0, end=n-1, weighted=True)"),
    _row("contextual[overlap]", "event-based", _contextual, {"weighted": False}, None,
         "contextual_{precision,recall,f1_score}(..., weighted=False): event counts"),
    _row("point", "point-wise", _point, {}, "point-wise F1",
         "point_{precision,recall,f1_score}(anomalous indices of y_true, of y_pred, start=0, end=n-1)"),
]
