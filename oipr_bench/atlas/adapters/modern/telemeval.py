"""telemeval 0.3.4: ESA-ADB-style event-wise, affiliation and timing metrics (environment ``modern``).

telemeval scores timestamped label and prediction tables; its
``telemeval.sklearn`` wrappers put a 0/1 series on a synthetic one-minute grid
(each anomalous run becomes an event with inclusive start and end times), and
the adapter does the same for the timing metric with the public contract
(``validate_labels``, ``build_metric_inputs``).  Rows, all on the 0/1 prediction:

- event-wise P/R/F0.5: an event is detected when any predicted sample falls in
  it; precision is run-based (the share of predicted runs that touch an event),
  without ESA-ADB's TNR correction (telemeval's own docstring says so);
- the same with beta = 1;
- affiliation P/R/F0.5 (a vendored copy of the affiliation package); precision
  NaN (None) when nothing is predicted;
- ADTQC: the mean, over detected events, of the ESA-ADB timing curve of the
  first overlapping run's latency (allowance: the event length, or the gap to the
  previous event's start); None (NaN) when no event is detected.

Reproduced by hand (one case): y_true with one anomaly [2, 6) in 20 points and the
prediction [3, 5): one run, inside the event: event-wise P = R = 1, F0.5 = 1;
ADTQC: latency 1 min, length b = 3 min (inclusive end 5 - start 2), allowance 3:
1 / (1 + (1 / 2)^e) = 0.8681 (tests/test_atlas_modern.py checks it).
"""

from __future__ import annotations

import math
from typing import Any, Callable, Mapping

import numpy as np

from ..base import Adapter, as_labels, import_module

__all__ = ["ADAPTERS"]

PACKAGE = "telemeval"
ENV = "modern"


def _pair(kind: str) -> Callable[[Mapping[str, Any]], Any]:
    def build(params: Mapping[str, Any]) -> Any:
        sk = import_module("telemeval.sklearn")
        beta = params["beta"]

        def fn(y_true: Any, y_pred: Any) -> tuple[float, float, float]:
            real, pred = as_labels(y_true), as_labels(y_pred)
            p = getattr(sk, f"{kind}_precision_score")(real, pred)
            r = getattr(sk, f"{kind}_recall_score")(real, pred)
            f = getattr(sk, f"{kind}_fbeta_score")(real, pred, beta=beta)
            return tuple(math.nan if v is None else float(v) for v in (p, r, f))  # type: ignore[return-value]

        return fn

    return build


def _adtqc(params: Mapping[str, Any]) -> Any:
    te = import_module("telemeval")
    pd = import_module("pandas")

    def fn(y_true: Any, y_pred: Any) -> float:
        real, pred = as_labels(y_true), as_labels(y_pred)
        stamps = pd.Timestamp("2000-01-01") + pd.Timedelta(minutes=1) * np.arange(real.size)
        edges = np.flatnonzero(np.diff(np.concatenate(([0], real, [0]))))
        starts, ends = edges[::2], edges[1::2] - 1
        labels = pd.DataFrame({"ID": [f"e{i}" for i in range(starts.size)], "Channel": "series",
                               "StartTime": stamps[starts], "EndTime": stamps[ends]})
        inputs = te.build_metric_inputs(te.validate_labels(labels), {"series": pd.DataFrame({"Timestamp": stamps, "Score": pred.astype("uint8")})})
        total = te.score_adtqc(inputs, exponent=params["exponent"])["adtqc_total"]
        return math.nan if total is None else float(total)

    return fn


def _row(metric: str, family: str, build: Any, params: Mapping[str, Any], *, kind: str, group: str | None = None, note: str = "") -> Adapter:
    return Adapter(PACKAGE, metric, family, build, dict(params), input_kind="binary", kind=kind, group=group, note=note, env=ENV)


ADAPTERS: list[Adapter] = [
    _row("event_wise[beta=0.5]", "event-based", _pair("event_wise"), {"beta": 0.5}, kind="pr",
         note="telemeval.sklearn.event_wise_{precision,recall,fbeta}_score(y_true, y_pred)"),
    _row("event_wise[beta=1]", "event-based", _pair("event_wise"), {"beta": 1.0}, kind="pr",
         note="telemeval.sklearn.event_wise_{precision,recall,fbeta}_score(y_true, y_pred, beta=1)"),
    _row("affiliation[beta=0.5]", "affiliation", _pair("affiliation"), {"beta": 0.5}, kind="pr", group="affiliation",
         note="telemeval.sklearn.affiliation_{precision,recall,fbeta}_score(y_true, y_pred); None is NaN"),
    _row("adtqc", "detection delay", _adtqc, {"exponent": math.e}, kind="score",
         note="score_adtqc(build_metric_inputs(...))['adtqc_total'] on a one-minute grid; None (nothing detected) is NaN"),
]
