"""prts 1.0.0.3 (Tatbul et al. 2018 range-based precision/recall).

Rows: the paper's Table 3 setting of RP/RR (recall alpha 0.5, front bias;
precision alpha 0, flat bias; cardinality reciprocal), and the variants
bias in (flat, front, middle, back) x cardinality in (one, reciprocal),
with the bias applied to both precision and recall, precision alpha 0 and
recall alpha 0.5.  Each returns (precision, recall) from ``ts_precision``
and ``ts_recall``.  prts refuses a prediction without any 1 (it raises);
the atlas records that as the case's error.
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ..base import Adapter, as_labels, import_module

__all__ = ["ADAPTERS", "adapter", "PAPER"]

PACKAGE = "prts"
#: The paper's Table 3 setting (evaluator-conventions: RP/RR).
PAPER = {"alpha_p": 0.0, "alpha_r": 0.5, "cardinality": "reciprocal", "bias_p": "flat", "bias_r": "front"}
BIASES = ("flat", "front", "middle", "back")
CARDINALITIES = ("one", "reciprocal")


def _build(params: Mapping[str, Any]) -> Any:
    prts = import_module("prts")
    p = dict(params)

    def fn(y_true: np.ndarray, y_pred: np.ndarray) -> tuple[float, float]:
        real, pred = as_labels(y_true), as_labels(y_pred)
        precision = prts.ts_precision(real, pred, alpha=p["alpha_p"], cardinality=p["cardinality"], bias=p["bias_p"])
        recall = prts.ts_recall(real, pred, alpha=p["alpha_r"], cardinality=p["cardinality"], bias=p["bias_r"])
        return float(precision), float(recall)

    return fn


def adapter(metric: str, **params: Any) -> Adapter:
    """A prts row with ``params`` (keys of :data:`PAPER`)."""
    return Adapter(
        package=PACKAGE,
        metric=metric,
        family="range-based",
        build=_build,
        params=params,
        kind="pr",
        group="Tatbul range-based",
        note="(ts_precision(alpha_p, cardinality, bias_p), ts_recall(alpha_r, cardinality, bias_r))",
    )


ADAPTERS: list[Adapter] = [adapter("ts_precision/ts_recall[paper]", **PAPER)] + [
    adapter(f"ts_precision/ts_recall[{bias},{card}]", alpha_p=0.0, alpha_r=0.5, cardinality=card, bias_p=bias, bias_r=bias)
    for bias in BIASES
    for card in CARDINALITIES
]
