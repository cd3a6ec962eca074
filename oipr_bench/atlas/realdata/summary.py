"""The real-data atlas read: per row, the detector ranking with intervals, where random and null land,
Kendall's tau with the row's built-in reference and with NAB; per "same metric" group, the pairs of
rows that rank the real detectors differently.

Everything is computed by :func:`oipr_bench.realdata.analysis.analyse` (mean over series, 95 %
percentile bootstrap over series, the same resamples for every column: tau's interval is a cluster
bootstrap), on the row's own series (its plan).  A failed cell is NaN: left out of its detector's mean.
The NAB column is NAB's raw score summed over the same series (its own corpus aggregation).
A row's *reference* is the built-in row of its group (``oipr-bench:VUS-PR`` for the VUS-PR rows, ...);
tau with it is computed on the series both rows have.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Mapping, Sequence

import numpy as np

from ...realdata.analysis import analyse

__all__ = ["RESAMPLES", "SEED", "REAL_COLUMNS", "row_values", "row_analysis", "group_pairs", "pair_cause", "constructed_values", "build_summary", "real_cells"]

RESAMPLES = 1000
SEED = 0

#: The real-data columns ``atlas --where`` selects on (:func:`real_cells`).
REAL_COLUMNS: tuple[str, ...] = ("real_random_beats_detectors", "real_ranks_like_reference", "real_ranks_like_nab")


def _series(doc: Mapping[str, Any]) -> list[str]:
    plan = doc.get("plan") or {}
    return [s for s in plan.get("series", []) if s in doc.get("cells", {})]


def row_values(doc: Mapping[str, Any], series: Sequence[str]) -> np.ndarray:
    """``values[d, s]`` of a row file on ``series`` (NaN: a failed cell)."""
    n_det = len(doc["detectors"])
    out = np.full((n_det, len(series)), np.nan)
    for j, name in enumerate(series):
        vals = doc["cells"][name]["result"]["values"]
        out[:, j] = [np.nan if v is None else float(v) for v in vals]
    return out


def _nab_values(nab: Mapping[str, Mapping[str, float]], detectors: Sequence[str], series: Sequence[str]) -> np.ndarray:
    return np.array([[float(nab[d][s]) for s in series] for d in detectors])


def _tau(a: np.ndarray, b: np.ndarray, hib: tuple[bool, bool], agg: tuple[str, str], detectors: Sequence[str],
         series: Sequence[str]) -> dict[str, float] | None:
    if not series:
        return None
    res = analyse(np.stack([a, b]), ["a", "b"], detectors, series, higher_is_better=list(hib), aggregation=list(agg),
                  resamples=RESAMPLES, seed=SEED)
    t, lo, hi = float(res.tau[0, 1]), float(res.tau_low[0, 1]), float(res.tau_high[0, 1])
    return {"tau": t, "low": lo, "high": hi, "series": len(series)} if t == t else None


def row_analysis(doc: Mapping[str, Any], reference: Mapping[str, Any] | None,
                 nab: Mapping[str, Mapping[str, float]]) -> dict[str, Any] | None:
    """One row's reading (None when it has no computed series)."""
    series = _series(doc)
    if not series:
        return None
    detectors = doc["detectors"]
    hib = bool(doc["row"]["higher_is_better"])
    values = row_values(doc, series)
    res = analyse(values[None], [doc["row"]["id"]], detectors, series, higher_is_better=[hib], aggregation=["mean"],
                  resamples=RESAMPLES, seed=SEED)
    r = res.rankings[0]
    out: dict[str, Any] = {
        "series": len(series), "cells": int(values.size), "failed_cells": int(np.isnan(values).sum()),
        "ranking": [{"detector": s.detector, "value": _num(s.value), "low": _num(s.low), "high": _num(s.high),
                     "rank": s.rank, "defined": s.defined} for s in r.standings],
        "random_rank": r.random_rank, "null_rank": r.null_rank, "below_random": list(r.random_above),
        "tau_nab": _tau(values, _nab_values(nab, detectors, series), (hib, True), ("mean", "sum"), detectors, series),
        "reference": None, "tau_reference": None,
    }
    if reference is not None and reference["row"]["id"] != doc["row"]["id"]:
        common = [s for s in series if s in set(_series(reference))]
        out["reference"] = reference["row"]["id"]
        out["tau_reference"] = _tau(values[:, [series.index(s) for s in common]], row_values(reference, common),
                                    (hib, bool(reference["row"]["higher_is_better"])), ("mean", "mean"), detectors, common)
    return out


def _num(x: float) -> float | None:
    return None if x != x else round(float(x), 6)


def group_pairs(docs: Mapping[str, Mapping[str, Any]], constant: Mapping[str, set[tuple[str, str]]] | None = None,
                constructed: Mapping[str, Mapping[str, float]] | None = None) -> list[dict[str, Any]]:
    """Per group, every pair of rows with computed series whose rankings of the detectors differ (tau < 1).

    ``constant``: per input kind, the (detector, series) cells whose output is constant
    (:func:`oipr_bench.atlas.realdata.inputs.constant_outputs`); ``constructed``: per row, its value on
    each deterministic constructed case (:func:`constructed_values`).  With them each pair gets a traced
    ``cause`` (:func:`pair_cause`).
    """
    by_group: dict[str, list[str]] = {}
    for rid, doc in sorted(docs.items()):
        if doc["row"].get("group") and _series(doc):
            by_group.setdefault(doc["row"]["group"], []).append(rid)
    out = []
    for group, ids in sorted(by_group.items()):
        for a, b in combinations(ids, 2):
            da, db = docs[a], docs[b]
            common = [s for s in _series(da) if s in set(_series(db))]
            if not common:
                continue
            va, vb = row_values(da, common), row_values(db, common)
            t = _tau(va, vb, (bool(da["row"]["higher_is_better"]), bool(db["row"]["higher_is_better"])), ("mean", "mean"),
                     da["detectors"], common)
            if t is None or t["tau"] >= 1.0 - 1e-12:
                continue
            params = sorted(set(da["row"]["params"].items()) ^ set(db["row"]["params"].items()))
            kind = da["row"]["input_kind"]
            flat = None if constant is None else np.array([[(d, s) in constant[kind] for s in common] for d in da["detectors"]])
            pair = {"group": group, "rows": [a, b], **t, "holds": t["high"] < 1.0,
                    "parameters_differ": bool(params) or kind != db["row"]["input_kind"],
                    **_cell_differences(va, vb, da["detectors"], common, flat)}
            if constructed is not None:
                pair.update(_constructed_differences(constructed.get(a), constructed.get(b)))
            pair["cause"] = pair_cause(pair)
            out.append(pair)
    return out


def constructed_values(report: Mapping[str, Any] | None) -> dict[str, float]:
    """A stored atlas report's value on each deterministic constructed case (F1 of a P/R row, else the score).

    Cases run more than once (random predictions) and cases without a value are left out.
    """
    out: dict[str, float] = {}
    for case in (report or {}).get("cases", []):
        value = case.get("f1") if case.get("f1") is not None else case.get("score")
        if case.get("status") == "ok" and case.get("n_runs", 1) == 1 and isinstance(value, (int, float)):
            out[str(case["case_id"])] = float(value)
    return out


def _constructed_differences(a: Mapping[str, float] | None, b: Mapping[str, float] | None) -> dict[str, Any]:
    """On how many deterministic constructed cases both rows have, their values differ (by more than 1e-6)."""
    if not a or not b:
        return {"constructed_compared": 0, "constructed_differ": 0}
    both = sorted(set(a) & set(b))
    return {"constructed_compared": len(both), "constructed_differ": sum(abs(a[c] - b[c]) > 1e-6 for c in both)}


def pair_cause(p: Mapping[str, Any]) -> str:
    """What a pair's differing cells point to, read from where they lie.

    ``one_fails`` (the numbers agree; one row fails where the other scores), ``declared`` (the rows
    declare different parameters or inputs), ``constant_output`` (every differing cell is a detector
    whose output is constant on the series: a convention for a degenerate input), ``definition``
    (cells differ where the output varies, and the constructed cases separate the rows too),
    ``real_data_only`` (cells differ where the output varies, yet the constructed cases both rows ran
    agree), ``untraced`` (no input facts given, or no constructed case both rows ran).
    """
    if p.get("cells_one_failed") and p["cells_one_failed"] == p.get("cells_differ"):
        return "one_fails"
    if p["parameters_differ"]:
        return "declared"
    if "cells_differ_constant" not in p or "constructed_compared" not in p:
        return "untraced"
    if p["cells_differ"] - p["cells_one_failed"] <= p["cells_differ_constant"]:
        return "constant_output"
    if not p["constructed_compared"]:
        return "untraced"
    return "definition" if p["constructed_differ"] else "real_data_only"


def _cell_differences(va: np.ndarray, vb: np.ndarray, detectors: Sequence[str], series: Sequence[str],
                      flat: np.ndarray | None = None) -> dict[str, Any]:
    """Where two rows' cells differ: how many (a value apart by more than 1e-9, or defined in one only) and the largest.

    With ``flat`` (True where the detector's output is constant on the series) also how many of the
    values apart lie on a constant output, and the largest difference where the output varies.
    """
    both = np.isfinite(va) & np.isfinite(vb)
    gap = np.where(both, np.abs(va - vb), 0.0)
    one = np.isfinite(va) != np.isfinite(vb)
    out: dict[str, Any] = {"cells_differ": int((gap > 1e-9).sum() + one.sum()), "cells_one_failed": int(one.sum()),
                           "cells_compared": int(va.size), "largest": _largest(gap, one, va, vb, detectors, series)}
    if flat is not None:
        out["cells_differ_constant"] = int(((gap > 1e-9) & flat).sum())
        out["constant_detectors"] = sorted({detectors[d] for d, s in zip(*np.nonzero((gap > 1e-9) & flat))})
        out["largest_varying"] = _largest(np.where(flat, 0.0, gap), np.zeros_like(one), va, vb, detectors, series)
    return out


def _largest(gap: np.ndarray, one: np.ndarray, va: np.ndarray, vb: np.ndarray, detectors: Sequence[str],
             series: Sequence[str]) -> dict[str, Any] | None:
    if (gap > 1e-9).any():
        d, s = np.unravel_index(int(np.argmax(gap)), gap.shape)
    elif one.any():  # no value apart: the first cell one row could not compute
        d, s = np.unravel_index(int(np.argmax(one)), one.shape)
    else:
        return None
    return {"detector": detectors[d], "series": series[s], "a": _num(float(va[d, s])), "b": _num(float(vb[d, s]))}


def build_summary(docs: Mapping[str, Mapping[str, Any]], nab: Mapping[str, Mapping[str, float]], *,
                  data_digest: str, detectors: Sequence[str], left_out: Sequence[Sequence[str]],
                  protocol: Mapping[str, Any], budget_minutes: float,
                  constant: Mapping[str, set[tuple[str, str]]] | None = None,
                  constructed: Mapping[str, Mapping[str, float]] | None = None) -> dict[str, Any]:
    """The summary of every row file: per row its status, plan, cost and reading; the group pairs (their
    causes traced with ``constant`` and ``constructed``, as :func:`group_pairs`); the totals."""
    references = {doc["row"]["group"]: doc for rid, doc in docs.items()
                  if rid.startswith("oipr-bench:") and doc["row"].get("group")}
    rows = []
    for rid, doc in sorted(docs.items()):
        plan = doc.get("plan") or {}
        stale = doc.get("data", {}).get("digest") != data_digest
        rows.append({"id": rid, "env": doc["row"]["env"], "group": doc["row"].get("group"), "status": doc["status"],
                     "reason": doc.get("reason", ""), "stale_data": stale, "full": plan.get("full"),
                     "planned_series": len(plan.get("series", [])), "cpu_seconds": doc.get("cpu_seconds", 0.0),
                     "estimated_full_cpu_seconds": plan.get("estimated_full_cpu_seconds"),
                     "probe_cpu_seconds": (plan.get("probe") or {}).get("cpu_seconds"),
                     "budget_cpu_minutes": plan.get("budget_cpu_minutes"),
                     "reading": None if stale else row_analysis(doc, references.get(doc["row"].get("group")), nab)})
    done = [r for r in rows if r["reading"] is not None]
    budgets: dict[str, int] = {}
    for r in done:
        if r["budget_cpu_minutes"] is not None:
            budgets[f"{float(r['budget_cpu_minutes']):g}"] = budgets.get(f"{float(r['budget_cpu_minutes']):g}", 0) + 1
    return {"data_digest": data_digest, "budgets": dict(sorted(budgets.items(), key=lambda kv: -float(kv[0]))), "detectors": list(detectors), "left_out": [list(x) for x in left_out],
            "protocol": dict(protocol), "budget_cpu_minutes": budget_minutes, "resamples": RESAMPLES, "seed": SEED,
            "nab": {d: {s: round(float(v), 9) for s, v in sorted(nab[d].items())} for d in detectors},
            "totals": {"rows": len(rows), "read": len(done), "full": sum(bool(r["full"]) for r in done),
                       "cpu_seconds": round(sum(float(r["cpu_seconds"] or 0) for r in rows), 1)},
            "rows": rows, "group_pairs": group_pairs({r["id"]: docs[r["id"]] for r in rows if r["reading"] is not None},
                                                       constant, constructed)}


def _agreement(t: Mapping[str, Any] | None) -> str:
    """``same`` (tau 1), ``close`` (tau below 1, its interval reaching 1), ``differs`` (the interval below 1), ``n/a``."""
    if not t:
        return "n/a"
    if t["tau"] >= 1.0 - 1e-12:
        return "same"
    return "close" if t["high"] >= 1.0 - 1e-12 else "differs"


def real_cells(summary: Mapping[str, Any] | None, row_id: str) -> dict[str, str]:
    """A row's real-data columns (:data:`REAL_COLUMNS`): ``?`` where it has no reading.

    - ``real_random_beats_detectors``: ``yes`` when the row rates NAB's ``random`` detector above at
      least one real detector (``null`` aside), else ``no``;
    - ``real_ranks_like_reference`` / ``real_ranks_like_nab``: how its ranking of the detectors agrees
      with its built-in reference's / NAB's (:func:`_agreement`).
    """
    row = next((r for r in (summary or {}).get("rows", []) if r["id"] == row_id), None)
    reading = row.get("reading") if row else None
    if reading is None:
        return dict.fromkeys(REAL_COLUMNS, "?")
    return {"real_random_beats_detectors": "yes" if reading["below_random"] else "no",
            "real_ranks_like_reference": _agreement(reading.get("tau_reference")),
            "real_ranks_like_nab": _agreement(reading.get("tau_nab"))}
