"""tadpak 0.3.3 (Kim et al. 2022, PA%K).

``tadpak.pak.pak(scores, targets, thres, k)`` returns the adjusted prediction
(``scores > thres``, then an event whose predicted points number strictly
more than k % of its length is filled); precision and recall of the
adjusted prediction are computed here (zero when a denominator is zero, as
scikit-learn's default).  Rows: K = 0 (plain point adjustment), 20, 50 (the
paper's setting), 80 and 100 (point-wise), with ``thres = 0.5`` on the 0/1
prediction.
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ..base import Adapter, as_labels, import_module

__all__ = ["ADAPTERS", "adapter"]

PACKAGE = "tadpak"
_GROUPS = {0: "point-adjust F1", 50: "PA%K", 100: "point-wise F1"}


def _ratio(num: float, den: float) -> float:
    return num / den if den > 0 else 0.0


def _build(params: Mapping[str, Any]) -> Any:
    pak = import_module("tadpak.pak").pak

    def fn(y_true: np.ndarray, y_pred: np.ndarray) -> tuple[float, float]:
        targets = as_labels(y_true)
        adjusted = np.asarray(pak(np.asarray(y_pred, dtype=np.float64), targets, params["thres"], params["k"])).astype(bool)
        tp = float(np.sum(adjusted & (targets > 0)))
        return _ratio(tp, float(adjusted.sum())), _ratio(tp, float(targets.sum()))

    return fn


def adapter(k: int) -> Adapter:
    """The tadpak row for PA%K with ``k`` percent."""
    return Adapter(
        package=PACKAGE,
        metric=f"pak[k={k}]",
        family="point-adjusted" if k < 100 else "point-wise",
        build=_build,
        params={"k": k, "thres": 0.5},
        kind="pr",
        group=_GROUPS.get(k),
        note="pak(y_pred, y_true, thres, k), then point-wise precision/recall",
    )


ADAPTERS: list[Adapter] = [adapter(k) for k in (0, 20, 50, 80, 100)]
