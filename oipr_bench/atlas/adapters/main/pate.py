"""PATE 0.1.1 (Ghorbani et al. 2024, proximity-aware time-series evaluation).

``pate.PATE_metric.PATE(y_true, y_score, e_buffer, d_buffer, ...,
binary_scores)``: with ``binary_scores=True`` the buffer-averaged F1 of a 0/1
prediction, otherwise the buffer-averaged area under the precision-recall
curve of a score.  Rows: the package's defaults (buffers of 100 points) and
buffers of 5 points (TSADmetrics' default, to compare the two).
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ..base import Adapter, as_labels, as_scores, import_module, reduced_audit

__all__ = ["ADAPTERS", "adapter"]

PACKAGE = "PATE"


def _build(params: Mapping[str, Any]) -> Any:
    metric = import_module("pate.PATE_metric").PATE
    p = dict(params)

    def fn(y_true: np.ndarray, y_pred: np.ndarray) -> float:
        score = as_labels(y_pred) if p["binary_scores"] else as_scores(y_pred)
        return float(metric(as_labels(y_true), score, **p))

    return fn


def adapter(binary: bool, buffer: int) -> Adapter:
    """PATE on a 0/1 prediction (``binary``) or on scores, with early = delay = ``buffer``."""
    name = "PATE-F1" if binary else "PATE"
    return Adapter(
        package=PACKAGE,
        metric=f"{name}[buffer={buffer}]",
        family="PATE",
        build=_build,
        params={"e_buffer": buffer, "d_buffer": buffer, "binary_scores": binary, "n_jobs": 1},
        input_kind="binary" if binary else "scores",
        group="PATE",
        note="PATE(y_true, y_score, e_buffer, d_buffer, binary_scores=...)",
        slow=not binary,
        **reduced_audit(not binary),
    )


ADAPTERS: list[Adapter] = [adapter(binary, buffer) for binary in (True, False) for buffer in (100, 5)]
