"""The real-data result as text, JSON, Markdown or CSV.

Every format carries the protocol, the rankings (each detector's aggregate with its bootstrap
interval), where ``random`` and ``null`` land, the agreement matrix (Kendall's tau-b with its
interval), the series left out and the user's evaluator's failed cells.
"""

from __future__ import annotations

import csv
import io
import json
import math
from typing import Any

from .analysis import BASELINES, MetricRanking
from .table import RealdataResult

__all__ = ["FORMATS", "render", "to_dict", "user_summary"]

FORMATS: tuple[str, ...] = ("text", "json", "markdown", "csv")
#: Failed cells shown in text and Markdown (all are in JSON).
SHOWN_PROBLEMS = 20


def _f(x: float, digits: int = 3) -> str:
    return "nan" if x != x else f"{x:.{digits}f}"


def _num(x: float) -> float | None:
    return None if x != x or math.isinf(x) else float(x)


def _placement(r: MetricRanking, n: int) -> str:
    parts = []
    if r.random_rank is not None:
        above = (f"rated above {len(r.random_above)} detector(s) that are not baselines: {', '.join(r.random_above)}"
                 if r.random_above else "rated above no detector that is not a baseline")
        parts.append(f"random rank {r.random_rank}/{n} ({above})")
    if r.null_rank is not None:
        parts.append(f"null rank {r.null_rank}/{n}")
    return "; ".join(parts)


def _what(r: MetricRanking, result: RealdataResult) -> str:
    metric = next(m for m in result.table.metrics if m.name == r.metric)
    agg = "sum over series" if r.aggregation == "sum" else "mean over series"
    return f"{metric.ranks_by}, {agg}, {'higher' if r.higher_is_better else 'lower'} is better"


def user_summary(result: RealdataResult) -> dict[str, Any] | None:
    """The user's column in brief: its ranking's baselines, its tau with each built-in, its closest built-in."""
    user = result.user
    if user is None:
        return None
    a = result.analysis
    i = a.metrics.index(user.name)
    ranking = a.rankings[i]
    agreement = [{"metric": other, "tau": _num(a.tau[i, j]), "low": _num(a.tau_low[i, j]), "high": _num(a.tau_high[i, j])}
                 for j, other in enumerate(a.metrics) if j != i]
    closest = a.closest(user.name)
    return {"metric": user.name, "random_rank": ranking.random_rank, "null_rank": ranking.null_rank,
            "random_above": list(ranking.random_above), "agreement": agreement,
            "closest": None if closest is None else {"metrics": list(closest[0]), "tau": closest[1]},
            "failed_cells": len(result.table.problems)}


def to_dict(result: RealdataResult) -> dict[str, Any]:
    """The whole result as JSON-ready data."""
    t, a = result.table, result.analysis
    return {
        "data": result.data,
        "protocol": t.protocol.to_dict(),
        "detectors": list(t.detectors),
        "series": list(t.series),
        "left_out": [{"series": s, "reason": why} for s, why in t.left_out],
        "thresholds": dict(t.thresholds),
        "metrics": [m.to_dict() for m in t.metrics],
        "rankings": [{
            "metric": r.metric, "aggregation": r.aggregation, "higher_is_better": r.higher_is_better,
            "random_rank": r.random_rank, "null_rank": r.null_rank, "random_above": list(r.random_above),
            "standings": [{"detector": s.detector, "rank": s.rank, "value": _num(s.value), "low": _num(s.low),
                           "high": _num(s.high), "defined": s.defined} for s in r.standings],
        } for r in a.rankings],
        "agreement": {"metrics": list(a.metrics), "tau": [[_num(x) for x in row] for row in a.tau],
                      "low": [[_num(x) for x in row] for row in a.tau_low],
                      "high": [[_num(x) for x in row] for row in a.tau_high],
                      "level": a.level, "resamples": a.resamples, "seed": a.seed},
        "user": user_summary(result),
        "problems": list(t.problems),
    }


def _rank_grid(result: RealdataResult) -> tuple[list[str], list[list[str]]]:
    a = result.analysis
    header = ["detector", *a.metrics]
    rows = []
    for det in a.detectors:
        rows.append([det, *(str(r.standing(det).rank) for r in a.rankings)])
    return header, rows


def _text(result: RealdataResult) -> str:
    t, a = result.table, result.analysis
    n = len(a.detectors)
    out = [f"Real detectors on real data: NAB at {result.data}: {n} detectors, {len(t.series)} series "
           f"({len(t.left_out)} left out), {len(a.metrics)} metrics", "", "Protocol:"]
    out += [f"  - {line}" for line in t.protocol.lines()]
    if t.left_out:
        out.append("  - left out: " + "; ".join(f"{s} ({why})" for s, why in t.left_out))
    header, rows = _rank_grid(result)
    widths = [max(len(h), *(len(r[k]) for r in rows)) for k, h in enumerate(header)]
    out += ["", "Ranks (1 = best; equal aggregates share a rank):",
            "  " + "  ".join(h.ljust(w) if k == 0 else h.rjust(w) for k, (h, w) in enumerate(zip(header, widths)))]
    out += ["  " + "  ".join(c.ljust(w) if k == 0 else c.rjust(w) for k, (c, w) in enumerate(zip(row, widths)))
            for row in rows]
    out += ["", "Rankings (rank, detector, aggregate [95 % bootstrap interval], series defined):"]
    dw = max(len(d) for d in a.detectors)
    for r in a.rankings:
        out.append(f"  {r.metric} ({_what(r, result)})")
        for s in r.standings:
            mark = " *" if s.detector in BASELINES else ""
            out.append(f"    {s.rank:>3} {s.detector.ljust(dw)}  {_f(s.value)} [{_f(s.low)}, {_f(s.high)}]  "
                       f"{s.defined}{mark}")
        out.append(f"    {_placement(r, n)}")
    out += ["", f"Agreement: Kendall's tau-b over the {n} detectors (row metric against column metric):"]
    short = [m if len(m) <= 9 else m[:8] + "~" for m in a.metrics]
    mw = max(len(m) for m in a.metrics)
    out.append("  " + " " * mw + "".join(f"{x:>10}" for x in short))
    for i, m in enumerate(a.metrics):
        out.append(f"  {m.ljust(mw)}" + "".join(f"{'-' if i == j else _f(a.tau[i, j], 2):>10}"
                                                 for j in range(len(a.metrics))))
    out += ["", f"Kendall's tau-b with its 95 % cluster-bootstrap interval (series resampled, {a.resamples} resamples, "
            f"seed {a.seed}):"]
    for i, m in enumerate(a.metrics):
        for j in range(i + 1, len(a.metrics)):
            out.append(f"  {m} ~ {a.metrics[j]}: {_f(a.tau[i, j], 2)} [{_f(a.tau_low[i, j], 2)}, "
                       f"{_f(a.tau_high[i, j], 2)}]")
    summary = user_summary(result)
    if summary is not None:
        closest = summary["closest"]
        out += ["", f"Your metric {summary['metric']}: " + _placement(a.ranking(summary["metric"]), n) + "; "
                + (f"agrees most with {' and '.join(closest['metrics'])} (tau {_f(closest['tau'], 2)})" if closest else
                   "agrees with no metric (its ranking is all tied or undefined)")]
    if t.problems:
        out += ["", f"Failed cells of your evaluator ({len(t.problems)}; each left out of its mean):"]
        out += [f"  {p}" for p in t.problems[:SHOWN_PROBLEMS]]
        if len(t.problems) > SHOWN_PROBLEMS:
            out.append(f"  ... and {len(t.problems) - SHOWN_PROBLEMS} more (all in --format json)")
    return "\n".join(out) + "\n"


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


def _markdown(result: RealdataResult) -> str:
    t, a = result.table, result.analysis
    n = len(a.detectors)
    out = [f"## Real detectors on real data (NAB): {n} detectors, {len(t.series)} series, {len(a.metrics)} metrics", "",
           "Protocol:", ""]
    out += [f"- {_md_escape(line)}" for line in t.protocol.lines()]
    if t.left_out:
        out.append("- left out: " + "; ".join(f"`{s}` ({why})" for s, why in t.left_out))
    header, rows = _rank_grid(result)
    out += ["", "Ranks (1 = best):", "", "| " + " | ".join(_md_escape(h) for h in header) + " |",
            "|" + "---|" * len(header)]
    out += ["| " + " | ".join(_md_escape(c) for c in row) + " |" for row in rows]
    out += ["", "Each detector's aggregate [95 % bootstrap interval]:", "",
            "| detector | " + " | ".join(_md_escape(m) for m in a.metrics) + " |", "|" + "---|" * (len(a.metrics) + 1)]
    for det in a.detectors:
        cells = [f"{_f(s.value)} [{_f(s.low)}, {_f(s.high)}]" for s in (r.standing(det) for r in a.rankings)]
        out.append(f"| {det} | " + " | ".join(cells) + " |")
    out += ["", "Where the baselines land:", ""]
    out += [f"- {_md_escape(r.metric)}: {_placement(r, n)}" for r in a.rankings]
    out += ["", "Kendall's tau-b over detectors [95 % cluster-bootstrap interval]:", "",
            "| | " + " | ".join(_md_escape(m) for m in a.metrics) + " |", "|" + "---|" * (len(a.metrics) + 1)]
    for i, m in enumerate(a.metrics):
        cells = [("1" if i == j else f"{_f(a.tau[i, j], 2)} [{_f(a.tau_low[i, j], 2)}, {_f(a.tau_high[i, j], 2)}]")
                 for j in range(len(a.metrics))]
        out.append(f"| {_md_escape(m)} | " + " | ".join(cells) + " |")
    if t.problems:
        out += ["", f"Failed cells of your evaluator ({len(t.problems)}):", ""]
        out += [f"- {_md_escape(p)}" for p in t.problems[:SHOWN_PROBLEMS]]
    return "\n".join(out) + "\n"


def _csv(result: RealdataResult) -> str:
    a = result.analysis
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["section", "metric", "detector_or_metric", "rank", "value", "low", "high", "defined"])
    for r in a.rankings:
        for s in r.standings:
            w.writerow(["ranking", r.metric, s.detector, s.rank, repr(s.value), repr(s.low), repr(s.high), s.defined])
    for i, m in enumerate(a.metrics):
        for j, o in enumerate(a.metrics):
            if i != j:
                w.writerow(["agreement", m, o, "", repr(float(a.tau[i, j])), repr(float(a.tau_low[i, j])),
                            repr(float(a.tau_high[i, j])), ""])
    return buf.getvalue()


def render(result: RealdataResult, fmt: str = "text") -> str:
    """``result`` in one of :data:`FORMATS`."""
    if fmt == "json":
        return json.dumps(to_dict(result), indent=2, allow_nan=False) + "\n"
    if fmt == "markdown":
        return _markdown(result)
    if fmt == "csv":
        return _csv(result)
    if fmt == "text":
        return _text(result)
    raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {fmt!r}")
