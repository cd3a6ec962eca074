"""The "same metric" groups of the disagreement study, with parameters aligned.

Each group lists members: an atlas adapter, possibly with parameters changed
so that every member computes the metric in the same setting where the
package allows it (the first member is the one the others are compared
with).  A group whose packages cannot be aligned to one setting is split
(e.g. TSB-AD's range-based F fixes recall alpha = 0.2 and flat bias, so it is
compared with the others configured the same way).  ``DEFAULTS`` lists
package-default variants, so a difference in defaults is reported as such.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, NamedTuple

from ..adapters.base import Adapter

__all__ = ["Member", "Group", "DEFAULTS", "groups", "member"]


class Member(NamedTuple):
    """One implementation in a group: a label and the adapter (with aligned parameters)."""

    label: str
    adapter: Adapter


class Group(NamedTuple):
    """A "same metric" group: name, setting, members (first = the reference), the paper it follows.

    ``n_random`` is the number of random series of its differential: 2000, or 400 for the groups
    whose members take 0.1 to 0.3 s per call even on short series (VUS, PATE on scores).
    """

    name: str
    setting: str
    members: tuple[Member, ...]
    paper: str
    n_random: int = 2000


def member(row_id: str, label: str | None = None, **params: Any) -> Member:
    """The adapter of ``row_id`` with ``params`` replacing its parameters."""
    from ..adapters.registry import by_id

    base = by_id()[row_id]
    adapter = base if not params else dataclasses.replace(base, params={**dict(base.params), **params})
    suffix = "" if not params else "[" + ",".join(f"{k}={v}" for k, v in params.items()) + "]"
    return Member(label or f"{row_id}{suffix}", adapter)


_PAPER_RPRR = {"alpha_p": 0.0, "alpha_r": 0.5, "cardinality": "reciprocal", "bias_p": "flat", "bias_r": "front"}
_TSB_RPRR = {"alpha_p": 0.0, "alpha_r": 0.2, "cardinality": "reciprocal", "bias_p": "flat", "bias_r": "flat"}
_VUS_WINDOW = 4


def _groups() -> tuple[Group, ...]:
    prts = "prts:ts_precision/ts_recall[paper]"
    return (
        Group("point-wise F1", "F1 of point-wise precision and recall", (
            member("oipr-bench:PW"), member("TSADmetrics:pwf"), member("TSADmetrics:dicec"), member("TSB-AD:Standard-F1"),
            member("tadpak:pak[k=100]"), member("TimeEval:Precision/Recall/F1Score"),
        ), "point-wise F1 (no time-series paper; scikit-learn's zero_division=0)"),
        Group("point-adjust F1", "an event with any predicted point counts as fully predicted (Xu et al. 2018)", (
            member("oipr-bench:PA"), member("TSADmetrics:paf"), member("TSB-AD:PA-F1"), member("tadpak:pak[k=0]"),
        ), "Xu et al. 2018 (WWW), point adjustment"),
        Group("PA%K", "K = 50 %: an event is adjusted when more than K % of its points are predicted", (
            member("oipr-bench:PA%K"), member("tadpak:pak[k=50]"), member("TSADmetrics:pakf"),
        ), "Kim et al. 2022 (AAAI); its official code is tadpak (strictly more than K %)"),
        Group("Tatbul range-based (paper setting)", "F1 of range-based P/R: recall alpha 0.5 front bias, precision alpha 0 flat, cardinality reciprocal", (
            member("oipr-bench:RP/RR"), member(prts),
            member("TSADmetrics:rbf", p_alpha=0.0, r_alpha=0.5, p_bias="flat", r_bias="front", cardinality_mode="reciprocal"),
            member("TimeEval:RangeFScore", p_alpha=0.0, r_alpha=0.5, p_bias="flat", r_bias="front", cardinality="reciprocal"),
        ), "Tatbul et al. 2018 (NeurIPS); reference code: prts and Intel's TSAD-Evaluator"),
        Group("Tatbul range-based (TSB-AD setting)", "recall alpha 0.2, precision alpha 0, flat bias, reciprocal cardinality (fixed in TSB-AD)", (
            member(prts, **_TSB_RPRR), member("oipr-bench:RP/RR", **_TSB_RPRR),
            member("TSB-AD:Rprecision/Rrecall"), member("TSB-AD:R-based-F1"),
            member("TSADmetrics:rbf", p_alpha=0.0, r_alpha=0.2, p_bias="flat", r_bias="flat", cardinality_mode="reciprocal"),
            member("TimeEval:RangeFScore", p_alpha=0.0, r_alpha=0.2, p_bias="flat", r_bias="flat", cardinality="reciprocal"),
        ), "Tatbul et al. 2018 (NeurIPS)"),
        Group("TaPR", "alpha 0.5, delta 5, theta 0", (
            member("oipr-bench:TaPR"), member("TSADmetrics:taf", theta=0.0),
        ), "Hwang et al. 2019 (CIKM); reference code saurf4ng/TaPR"),
        Group("affiliation", "affiliation F1, time range = the whole series", (
            member("oipr-bench:AM"), member("TSADmetrics:aff_f"), member("TSB-AD:Affiliation-F"), member("vus:Affiliation-P/R"),
        ), "Huet et al. 2022 (KDD); reference code ahstat/affiliation-metrics-py"),
        Group("VUS-PR", f"window (buffer) {_VUS_WINDOW}", (
            member("TSB-AD:VUS-PR", slidingWindow=_VUS_WINDOW), member("vus:VUS-PR", slidingWindow=_VUS_WINDOW),
            member("TSADmetrics:vus_pr"), member("TimeEval:RangePrVUS", max_buffer_size=_VUS_WINDOW),
            member("TimeEval:RangePrVUS", max_buffer_size=_VUS_WINDOW, compatibility_mode=True),
        ), "Paparrizos et al. 2022 (VLDB); reference code: vus (TheDatumOrg/VUS), copied into TSB-AD", n_random=400),
        Group("VUS-ROC", f"window (buffer) {_VUS_WINDOW}", (
            member("TSB-AD:VUS-ROC", slidingWindow=_VUS_WINDOW), member("vus:VUS-ROC", slidingWindow=_VUS_WINDOW),
            member("TSADmetrics:vus_roc"), member("TimeEval:RangeRocVUS", max_buffer_size=_VUS_WINDOW),
            member("TimeEval:RangeRocVUS", max_buffer_size=_VUS_WINDOW, compatibility_mode=True),
        ), "Paparrizos et al. 2022 (VLDB); reference code: vus (TheDatumOrg/VUS), copied into TSB-AD", n_random=400),
        Group("PATE (binary F1)", "early = delay buffer 5", (
            member("PATE:PATE-F1[buffer=5]"), member("TSADmetrics:pate_f1"),
        ), "Ghorbani et al. 2024 (PATE); reference code: the PATE package"),
        Group("PATE (scores)", "early = delay buffer 5", (
            member("PATE:PATE[buffer=5]"), member("TSADmetrics:pate"),
        ), "Ghorbani et al. 2024 (PATE); reference code: the PATE package", n_random=400),
        Group("AUC-PR", "area under the point-wise precision-recall curve", (
            member("TSB-AD:AUC-PR"), member("TimeEval:AveragePrecision"), member("TSADmetrics:pw_auc_pr"),
            member("vus:AUC-PR"), member("TimeEval:PrAUC"),
        ), "no single paper: average precision (step) vs trapezoidal area are two estimators"),
        Group("AUC-ROC", "area under the point-wise ROC curve", (
            member("TSB-AD:AUC-ROC"), member("TSADmetrics:pw_auc_roc"), member("vus:AUC-ROC"), member("TimeEval:RocAUC"),
        ), "ROC AUC (scikit-learn's roc_auc_score)"),
        Group("composite F", "event-wise recall with point-wise precision (Garg et al. 2021)", (
            member("TSADmetrics:cf"), member("TSB-AD:Event-based-F1"),
        ), "Garg et al. 2021 (TNNLS), composite F-score"),
    )


#: Package-default variants compared with the group's reference (a default difference, not a bug).
DEFAULTS: tuple[tuple[str, str], ...] = (
    ("Tatbul range-based (paper setting)", "TSADmetrics:rbf"),
    ("Tatbul range-based (paper setting)", "TimeEval:RangeFScore"),
    ("TaPR", "TSADmetrics:taf"),
)


@functools.lru_cache(maxsize=1)
def groups() -> tuple[Group, ...]:
    """The groups (built on first use)."""
    return _groups()
