"""TSADmetrics 1.0.16: the 34 metrics of its registry, with the package's defaults.

Each metric is built with ``Registry.get_metric(name, **params)`` and called as
``metric.compute(y_true, y_pred)``; it returns one number.  Metrics the
package marks ``binary_prediction = False`` take scores.  Orientation and
range follow each metric's docstring: detection delays and distances are
lower-is-better and open above; WDD and the NAB score are open at both ends.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

import numpy as np

from ..base import Adapter, as_labels, as_scores, import_module, reduced_audit

__all__ = ["ADAPTERS", "METRICS"]

PACKAGE = "TSADmetrics"
_OPEN = (None, None)
_POSITIVE = (0.0, None)

# name: (family, input kind, higher is better, bounds, defaults, same-metric group)
METRICS: dict[str, tuple[str, str, bool, Any, dict[str, Any], str | None]] = {
    "pwf": ("point-wise", "binary", True, (0.0, 1.0), {"beta": 1.0}, "point-wise F1"),
    "dicec": ("point-wise", "binary", True, (0.0, 1.0), {}, "point-wise F1"),
    "pak": ("point-wise", "scores", True, (0.0, 1.0), {}, None),
    "pw_auc_roc": ("threshold-free", "scores", True, (0.0, 1.0), {}, "AUC-ROC"),
    "pw_auc_pr": ("threshold-free", "scores", True, (0.0, 1.0), {}, "AUC-PR"),
    "paf": ("point-adjusted", "binary", True, (0.0, 1.0), {"beta": 1.0}, "point-adjust F1"),
    "bpaf": ("point-adjusted", "binary", True, (0.0, 1.0), {"beta": 1.0, "w": 1}, None),
    "pakf": ("point-adjusted", "binary", True, (0.0, 1.0), {"k": 0.5, "beta": 1.0}, "PA%K"),
    "paklf": ("point-adjusted", "binary", True, (0.0, 1.0), {"k": 0.5, "l": 1, "beta": 1.0}, None),
    "dtpaf": ("point-adjusted", "binary", True, (0.0, 1.0), {"k": 1, "beta": 1.0}, None),
    "pa_auc_pr": ("point-adjusted", "scores", True, (0.0, 1.0), {}, None),
    "pa_auc_roc": ("point-adjusted", "scores", True, (0.0, 1.0), {}, None),
    "swf": ("event-based", "binary", True, (0.0, 1.0), {"beta": 1.0}, None),
    "cf": ("event-based", "binary", True, (0.0, 1.0), {"beta": 1.0}, "composite F"),
    "ttf": ("event-based", "binary", True, (0.0, 1.0), {"t": 5, "beta": 1.0}, None),
    "rbf": (
        "range-based",
        "binary",
        True,
        (0.0, 1.0),
        {"beta": 1.0, "p_alpha": 0.5, "r_alpha": 0.5, "p_bias": "flat", "r_bias": "flat", "cardinality_mode": "one"},
        "Tatbul range-based",
    ),
    "taf": ("TaPR", "binary", True, (0.0, 1.0), {"beta": 1.0, "alpha": 0.5, "delta": 5, "theta": 0.5, "past_range": False}, "TaPR"),
    "etaf": ("TaPR", "binary", True, (0.0, 1.0), {"theta_p": 0.5, "theta_r": 0.5}, None),
    "aff_f": ("affiliation", "binary", True, (0.0, 1.0), {"beta": 1.0}, "affiliation"),
    "naff_f": ("affiliation", "binary", True, (0.0, 1.0), {"alpha": 0.0, "beta": 1.0}, None),
    "vus_pr": ("threshold-free", "scores", True, (0.0, 1.0), {"window": 4}, "VUS-PR"),
    "vus_roc": ("threshold-free", "scores", True, (0.0, 1.0), {"window": 4}, "VUS-ROC"),
    "pate": ("PATE", "scores", True, (0.0, 1.0), {"early": 5, "delay": 5}, "PATE"),
    "pate_f1": ("PATE", "binary", True, (0.0, 1.0), {"early": 5, "delay": 5}, "PATE"),
    "adc": ("detection count", "binary", True, (0.0, 1.0), {}, None),
    "tdir": ("detection count", "binary", True, (0.0, 1.0), {"k": 5}, None),
    "dair": ("detection count", "binary", True, (0.0, 1.0), {"k": 5}, None),
    "wdd": ("detection count", "binary", True, _OPEN, {"k": 5}, None),
    "eds": ("detection delay", "binary", True, (0.0, 1.0), {}, None),
    "lsaf": ("detection delay", "binary", True, (0.0, 1.0), {"ni": 1, "beta": 1.0}, None),
    "mttd": ("detection delay", "binary", False, _POSITIVE, {}, None),
    "nab_score": ("detection delay", "binary", True, _OPEN, {}, None),
    "add": ("distance", "binary", False, _POSITIVE, {}, None),
    "td": ("distance", "binary", False, _POSITIVE, {"distance": 0}, None),
}


#: What a row's call column says beyond the call itself: conventions a reader of the grid must know.
NOTES: dict[str, str] = {
    "nab_score": "the NAB windows are the labelled anomaly ranges themselves (pointwise_to_segmentwise(y_true)), "
                 "not NAB's windows of 10 % of the series centred on each label; probation 0, standard costs "
                 "(tp 1, fp 0.11, fn 1); 0 for an empty prediction",
}

#: About 3 s per call on a 1000-point series (see docs/atlas.md).
SLOW = frozenset({"pate"})


def registry() -> Any:
    """TSADmetrics' metric registry class."""
    return import_module("tsadmetrics.metrics.Registry").Registry


def _builder(name: str, input_kind: str) -> Callable[[Mapping[str, Any]], Any]:
    def build(params: Mapping[str, Any]) -> Any:
        metric = registry().get_metric(name, **params)
        convert = as_scores if input_kind == "scores" else as_labels

        def fn(y_true: np.ndarray, y_pred: np.ndarray) -> float:
            return float(metric.compute(as_labels(y_true), convert(y_pred)))

        return fn

    return build


def adapter(name: str, **params: Any) -> Adapter:
    """The adapter of TSADmetrics metric ``name`` (its defaults, updated by ``params``)."""
    family, input_kind, hib, bounds, defaults, group = METRICS[name]
    return Adapter(
        package=PACKAGE,
        metric=name if not params else f"{name}[{','.join(f'{k}={v}' for k, v in params.items())}]",
        family=family,
        build=_builder(name, input_kind),
        params={**defaults, **params},
        input_kind=input_kind,
        higher_is_better=hib,
        bounds=bounds,
        group=group,
        note="; ".join(x for x in ("Registry.get_metric(name, **params).compute(y_true, y_pred)", NOTES.get(name, "")) if x),
        slow=name in SLOW,
        **reduced_audit(name in SLOW),
    )


ADAPTERS: list[Adapter] = [adapter(name) for name in METRICS]
