"""Copies of a built-in with one planted bug, written into a folder: targets for a differential run.

Each copy is one of the loop-by-loop transcriptions of a built-in
(:mod:`oipr_bench.evaluators.oracles`, what a library maintainer's own
implementation typically looks like) with one line changed, plus an
``evaluate(y_true, y_pred) -> (P, R)`` entry point, or for a score evaluator
(``returns="score"``) an ``evaluate(y_true, scores) -> float`` entry point whose
reference is the built-in with ``reference_params`` (score differential runs:
:mod:`oipr_bench.auditing.regression.score_differential`), or for a one-number
evaluator of 0/1 predictions (``returns="number"``, NAB) an
``evaluate(y_true, y_pred) -> float`` entry point.  The tests
(``tests/test_differential_planted.py``), the benchmark
(``benchmarks/differential.py``) and docs/regression-testing.md use them.

Examples
--------
>>> spec = write_planted("event_end", "/tmp/mine")       # doctest: +SKIP
>>> spec                                                # doctest: +SKIP
'/tmp/mine/my_pointwise.py:evaluate'
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

__all__ = ["PlantedBug", "PLANTED", "SCORE_PLANTED", "NUMBER_PLANTED", "write_planted"]


class PlantedBug(NamedTuple):
    """One planted bug: which oracle file is copied, the line changed, and the reference to compare with.

    For a score evaluator ``returns`` is ``"score"``, ``entry`` is the expression ``evaluate``
    returns (``t`` and ``s`` are the labels and scores as lists) and ``reference_params`` the
    built-in's parameters, as ``(name, value)`` pairs.  For a one-number evaluator of 0/1
    predictions ``returns`` is ``"number"`` and ``entry`` the expression of ``t`` and ``p``
    (labels and predictions as lists).
    """

    what: str
    oracle_file: str
    old: str
    new: str
    entry: str
    reference: str
    returns: str = "pr"
    reference_params: tuple = ()


#: The planted bugs, by kind.
PLANTED: dict[str, PlantedBug] = {
    "event_end": PlantedBug(
        "PA counts the hits of an event without its last point (off by one at an event end)",
        "pointwise.py", "        for t in range(start, end):\n            if y_pred[t] == 1:",
        "        for t in range(start, end - 1):\n            if y_pred[t] == 1:", "pa_oracle", "PA"),
    "long_series": PlantedBug(
        "OIPR sums the interest curves over a fixed buffer of 4096 + l_obs points (only series longer than 4,096)",
        "oipr.py", "    for t in range(len(curve_true)):", "    for t in range(min(len(curve_true), 4116)):",
        "oipr_oracle", "OIPR"),
    "close_events": PlantedBug(
        "TaPR does not cut an ambiguous region at the next anomaly (only events closer than delta)",
        "tapr.py", "                if last > next_first:\n                    last = next_first",
        "                if last > next_first:\n                    pass", "tapr", "TaPR"),
    "series_end": PlantedBug(
        "RP/RR forgets a run of 1s still open at the end of the series (only events touching the last index)",
        "range_based.py", "    if first is not None:\n        ranges.append((first, len(y) - 1))\n", "",
        "range_based", "RP/RR"),
    "no_anomaly": PlantedBug(
        "RP/RR's recall is 1 instead of 0 when there is no real range (only series with no anomaly)",
        "range_based.py", "    if len(real) > 0:\n        recall = recall / len(real)\n",
        "    if len(real) > 0:\n        recall = recall / len(real)\n    else:\n        recall = 1.0\n",
        "range_based", "RP/RR"),
    "cardinality": PlantedBug(
        "RP/RR counts the ranges overlapping one range in 8 bits (wraps at 256; only one range over 256 or more)",
        "range_based.py", "        n_overlapping += 1\n", "        n_overlapping = (n_overlapping + 1) % 256\n",
        "range_based", "RP/RR"),
    "integer_percent": PlantedBug(
        "PA%K compares an integer percent, 100 * hits // length > K (only events whose share lies just above K %)",
        "pointwise.py", "        if Fraction(hits, end - start) > threshold:",
        "        if 100 * hits // (end - start) > k:", "pak_oracle", "PA%K"),
    "k_inclusive": PlantedBug(
        "PA%K adjusts an event at exactly K % of its points (>= instead of >)",
        "pointwise.py", "        if Fraction(hits, end - start) > threshold:",
        "        if Fraction(hits, end - start) >= threshold:", "pak_oracle", "PA%K"),
    "zone_crossing": PlantedBug(
        "AM keeps a predicted event that starts in a zone whole, past the zone's end (only one crossing a midpoint)",
        "affiliation.py", "            cut_u, cut_v = max(u, lo), min(v, hi)",
        "            cut_u, cut_v = (u, v) if lo <= u < hi else (max(u, lo), min(v, hi))",
        "affiliation", "AM"),
}

_WINDOW = (("sliding_window", 10), ("thresholds", 20))

#: The planted bugs of the score evaluators (their copies return one float; :func:`write_planted` takes them too).
SCORE_PLANTED: dict[str, PlantedBug] = {
    "pr_trapezoid": PlantedBug(
        "VUS-PR integrates the range-PR curves with trapezoids instead of TSB-AD's steps",
        "range_auc.py", '        height = precisions[j] if convention == "volume" else (precisions[j] + precisions[j - 1]) / 2',
        "        height = (precisions[j] + precisions[j - 1]) / 2", "vus_oracle(t, s, 10, 20)[1]", "VUS-PR", "score", _WINDOW),
    "window_merge": PlantedBug(
        "VUS keeps two events apart when their margins share one point (only events exactly 2 * (w // 2) apart)",
        "range_auc.py", "        if events[i][1] - 1 + h < events[i + 1][0] - h:",
        "        if events[i][1] - 1 + h <= events[i + 1][0] - h:", "vus_oracle(t, s, 10, 20)[1]", "VUS-PR", "score", _WINDOW),
    "slope_reach": PlantedBug(
        "VUS's slope after an event reaches (w + 1) // 2 points (window off by one, odd windows only)",
        "range_auc.py", "        for d in range(1, w // 2 + (0 if short_after else 1)):",
        "        for d in range(1, (w + 1) // 2 + (0 if short_after else 1)):", "vus_oracle(t, s, 10, 20)[0]", "VUS-ROC",
        "score", _WINDOW),
    "threshold_grid": PlantedBug(
        "VUS samples each threshold one rank too low (threshold grid off by one)",
        "range_auc.py", "    return [ranked[p] for p in positions]",
        "    return [ranked[min(p + 1, len(ranked) - 1)] for p in positions]", "vus_oracle(t, s, 10, 20)[1]", "VUS-PR",
        "score", _WINDOW),
    "threshold_count": PlantedBug(
        "VUS samples one threshold fewer than asked (n - 1: 249 instead of 250; only series longer than the grid)",
        "range_auc.py", "    for theta in thresholds_oracle(scores, n):", "    for theta in thresholds_oracle(scores, n - 1):",
        "vus_oracle(t, s, 10, 20)[1]", "VUS-PR", "score", _WINDOW),
    "ap_trapezoid": PlantedBug(
        "AUC-PR's average precision uses trapezoids instead of steps",
        "auc.py", "            area += (recall - previous_recall) * precision\n",
        "            area += (recall - previous_recall) * (precision + previous_precision) / 2\n",
        "auc_pr_oracle(t, s)", "AUC-PR", "score"),
    "roc_ties": PlantedBug(
        "AUC-ROC counts a tie between an anomalous and a normal point as a loss (only tied scores)",
        "auc.py", "                wins += 0.5", "                wins += 0.0", "auc_roc_oracle(t, s)", "AUC-ROC", "score"),
}


#: The planted bugs of the one-number evaluators of 0/1 predictions (NAB; :func:`write_planted` takes them too).
NUMBER_PLANTED: dict[str, PlantedBug] = {
    "last_detection": PlantedBug(
        "NAB keeps a window's last detection instead of its first (only windows detected on two or more rows)",
        "nab.py", "                    window_score[current] = max(window_score[current], weight)",
        "                    window_score[current] = weight", "nab_oracle(t, p)", "NAB", "number"),
    "fp_sign": PlantedBug(
        "NAB adds the weight of a false positive before the first window with the wrong sign (a reward)",
        "nab.py", "            weight = -1.0 * fp_weight", "            weight = fp_weight", "nab_oracle(t, p)", "NAB",
        "number"),
}


def write_planted(kind: str, folder: str | os.PathLike[str], *, planted: bool = True) -> str:
    """Write the copy with bug ``kind`` (or, with ``planted=False``, the faithful copy) into ``folder``.

    Returns
    -------
    str
        The evaluator spec ``"<folder>/my_<file>:evaluate"`` for ``--evaluator`` or :func:`oipr_bench.audit`.

    Raises
    ------
    ValueError
        An unknown kind, the line to change is not found exactly once (the oracle changed), or
        the file exists already (it is never overwritten).
    """
    every = {**PLANTED, **SCORE_PLANTED, **NUMBER_PLANTED}
    if kind not in every:
        raise ValueError(f"unknown planted bug {kind!r}; kinds are {', '.join(every)}")
    bug = every[kind]
    source = (Path(__file__).resolve().parent.parent / "evaluators" / "oracles" / bug.oracle_file).read_text()
    if source.count(bug.old) != 1:
        raise ValueError(f"the line to plant bug {kind!r} in is not found exactly once in {bug.oracle_file}")
    if planted:
        source = source.replace(bug.old, bug.new)
    source = source.replace("from ..score import Score", "from oipr_bench.evaluators.score import Score")
    if bug.returns == "score":
        source += ("\n\ndef evaluate(y_true, scores):\n"
                   "    import numpy\n\n"
                   "    t, s = numpy.asarray(y_true).tolist(), numpy.asarray(scores, dtype=float).tolist()\n"
                   f"    return float({bug.entry})\n")
    elif bug.returns == "number":
        source += ("\n\ndef evaluate(y_true, y_pred):\n"
                   "    import numpy\n\n"
                   "    t, p = numpy.asarray(y_true).tolist(), numpy.asarray(y_pred).tolist()\n"
                   f"    return float({bug.entry})\n")
    else:
        source += ("\n\ndef evaluate(y_true, y_pred):\n"
                   "    import numpy\n\n"
                   f"    return tuple({bug.entry}(numpy.asarray(y_true).tolist(), numpy.asarray(y_pred).tolist()))[:2]\n")
    path = Path(folder) / f"my_{Path(bug.oracle_file).stem}_{kind}.py"
    if path.exists():
        raise ValueError(f"{path} exists already; write the copy into another folder (nothing was overwritten)")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source)
    return f"{path}:evaluate"
