"""NAB's published numbers recomputed and compared: ``oipr-bench reproduce --table nab --data DIR [--optimize]``.

Targets, as NAB's ``run.py --score --normalize`` writes them:

* ``results/final_results.json`` -- the scoreboard: each detector's normalised score per profile, at the
  thresholds of ``config/thresholds.json`` (:mod:`oipr_bench.reference.nab_scoring`);
* ``results/<detector>/<detector>_<profile>_scores.csv`` -- the per-file tables: threshold, raw
  score, TP, TN, FP, FN and ``Total_Count`` per series, and the ``Totals`` row.

A published value matches when ours is within 1e-9 of it, or when ours printed to 12 significant
digits (Python 2's ``str``, which wrote most of the tables) reads the same. Two differences that NAB's
current code shows too are reported, not counted as errors: a table that does not list every series
of the corpus was written by an older run (*stale*: NAB's ``random`` tables list 32 of the 58 series),
and a table's threshold column that differs from ``config/thresholds.json`` while both thresholds
give the same detections (``null``: 0.6 in the tables, 0.625 in the file; its scores are all 0.5).
``Total_Count`` is the series' row count in the tables NAB v1.0 wrote and the rows after the
probationary period in those its current code wrote (``ARTime``'s); either matches.

With ``optimize`` the thresholds are searched again as NAB's current optimiser searches them (every
distinct anomaly score, :func:`oipr_bench.reference.nab_scoring.optimise`) and printed beside
``config/thresholds.json``, whose thresholds came from NAB's earlier optimiser, a hill-climb from 0.5
(``twiddle``, replaced by the sweep in 2019, numenta/NAB #328): the sweep finds the best threshold
among all, so its corpus score is never lower, and it is higher where the hill-climb stopped early.
"""

from __future__ import annotations

import json
import math
import os
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from ..jsondata import jsonable
from ..reference.nab import NabCorpus, NabDataError, NabScoreRow, open_corpus, read_final_results, read_score_table
from ..reference.nab_scoring import (NULL_DETECTOR, DetectorScores, FileScore, normalised, optimise, perfect_score,
                                     score_detector)

__all__ = ["NabValue", "NabRowCheck", "NabThreshold", "NabReproduction", "reproduce_nab", "render_nab",
           "NAB_FORMATS", "same_value"]

#: Output formats of ``--table nab``.
NAB_FORMATS = ("table", "json")
_FIELDS = ("threshold", "score", "tp", "tn", "fp", "fn", "total_count")
MISMATCH = "!"


def same_value(ours: float, published: float) -> bool:
    """Within 1e-9, or the same when ours is printed to 12 significant digits (NAB's Python 2 tables)."""
    if math.isnan(ours) or math.isnan(published):
        return math.isnan(ours) and math.isnan(published)
    return abs(ours - published) <= 1e-9 or float(f"{ours:.12g}") == published


@dataclass(frozen=True)
class NabValue:
    """One scoreboard value: a detector's normalised score under a profile, ours beside the published one."""

    detector: str
    profile: str
    ours: float
    published: float

    @property
    def match(self) -> bool:
        return same_value(self.ours, self.published)


@dataclass(frozen=True)
class NabRowCheck:
    """One published per-file row beside ours.

    ``differs`` names the fields that differ; ``stale`` marks a row of a table that does not list every
    series (an older run); ``threshold_note`` says why a differing threshold column is not an error.
    """

    detector: str
    profile: str
    file: str
    ours: dict[str, float] | None
    published: dict[str, float]
    differs: tuple[str, ...]
    stale: bool
    threshold_note: str = ""

    @property
    def match(self) -> bool:
        return not self.differs


@dataclass(frozen=True)
class NabThreshold:
    """A detector's threshold under a profile: ``config/thresholds.json`` beside NAB's current optimiser's."""

    detector: str
    profile: str
    published: float
    published_score: float
    rescored: float
    optimised: float
    optimised_score: float


@dataclass
class NabReproduction:
    """Everything ``reproduce --table nab`` found."""

    data: str
    scoreboard: list[NabValue]
    rows: list[NabRowCheck]
    stale_tables: dict[str, str]
    thresholds: list[NabThreshold] | None = None
    optimised_board: list[NabValue] | None = None
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Every scoreboard value and every row of a current table matches."""
        return all(v.match for v in self.scoreboard) and all(r.match or r.stale for r in self.rows)

    def summary(self) -> list[str]:
        board = sum(v.match for v in self.scoreboard)
        rows = sum(r.match for r in self.rows)
        stale = [r for r in self.rows if r.stale and not r.match]
        errors = [r for r in self.rows if not r.stale and not r.match]
        lines = [f"NAB scoreboard: {board}/{len(self.scoreboard)} values match final_results.json",
                 f"NAB per-file rows: {_n(rows)}/{_n(len(self.rows))} match the <detector>_<profile>_scores tables"
                 + (f"; {len(stale)} stale rows ({_stale_text(self)})" if stale else "")
                 + (f"; {len(errors)} rows differ" if errors else "")]
        if self.thresholds is not None:
            same = sum(t.optimised == t.published for t in self.thresholds)
            higher = sum(t.optimised_score > t.rescored + 1e-9 for t in self.thresholds)
            lines.append(f"NAB optimiser: {len(self.thresholds)} thresholds searched again, {same} equal "
                         f"config/thresholds.json, {higher} reach a higher corpus score there (the sweep tries every "
                         "distinct score; the published ones came from NAB's earlier hill-climb)")
        return lines


def _n(k: int) -> str:
    return f"{k:,}"


def _stale_text(result: NabReproduction) -> str:
    """``random: 3 tables list 32 of the 58 series, an older run`` (one clause per detector and wording)."""
    groups: dict[tuple[str, str], int] = {}
    for table, why in result.stale_tables.items():
        det = next(r.detector for r in result.rows if f"{r.detector}_{r.profile}_scores" == table)
        groups[det, why] = groups.get((det, why), 0) + 1
    return "; ".join(f"{det}'s {k} table{'s' if k > 1 else ''} {why.replace('lists', 'list' if k > 1 else 'lists')}"
                     for (det, why), k in groups.items())


def _row_dict(row: NabScoreRow) -> dict[str, float]:
    return {"threshold": row.threshold, "score": row.score, "tp": row.tp, "tn": row.tn, "fp": row.fp, "fn": row.fn,
            "total_count": row.total_count}


def _ours_dict(f: FileScore) -> dict[str, float]:
    return {"threshold": f.threshold, "score": f.score, "tp": f.tp, "tn": f.tn, "fp": f.fp, "fn": f.fn,
            "total_count": f.n_rows, "scored_count": f.scored_rows}


def _totals(files: list[FileScore]) -> dict[str, float]:
    return {"threshold": math.nan, "score": float(sum(f.score for f in files)),
            **{k: int(sum(getattr(f, k) for f in files)) for k in ("tp", "tn", "fp", "fn")},
            "total_count": int(sum(f.n_rows for f in files)), "scored_count": int(sum(f.scored_rows for f in files))}


def _differs(ours: dict[str, float], published: dict[str, float]) -> tuple[str, ...]:
    """The fields that differ; ``Total_Count`` matches the series' rows (NAB v1.0's tables) or the rows
    after the probation (NAB's current code, which wrote ARTime's tables)."""
    out = []
    for k in _FIELDS:
        if k == "total_count":
            if published[k] not in (ours["total_count"], ours["scored_count"]):
                out.append(k)
        elif not same_value(float(ours[k]), float(published[k])):
            out.append(k)
    return tuple(out)


def _check_table(corpus: NabCorpus, det: str, prof: str, scores: DetectorScores,
                 table: tuple[NabScoreRow, ...], stale: bool) -> list[NabRowCheck]:
    by_series = {f.series: f for f in scores.files}
    out = []
    for row in table:
        pub = _row_dict(row)
        if row.file == "Totals":
            ours: dict[str, float] | None = _totals(scores.files)
        else:
            f = by_series.get(row.file)
            ours = None if f is None else _ours_dict(f)
        if ours is None:
            out.append(NabRowCheck(det, prof, row.file, None, pub, ("file",), stale))
            continue
        differs = _differs(ours, pub)
        note = ""
        if differs == ("threshold",) and row.file in scores.also:
            at_table = _ours_dict(scores.also[row.file])
            if not _differs(at_table, pub):
                note = (f"the table's threshold {row.threshold:g} and config/thresholds.json's {scores.threshold!r} "
                        "give the same detections")
                differs = ()
        out.append(NabRowCheck(det, prof, row.file, ours, pub, differs, stale, note))
    return out


def reproduce_nab(data: str | os.PathLike[str], *, optimize: bool = False) -> NabReproduction:
    """Recompute NAB's scoreboard and per-file tables from the results in ``data`` and compare them.

    Raises
    ------
    NabDataError
        A missing or invalid file (one line naming it); the ``null`` detector's results are missing
        (the normalisation needs them).
    """
    start = time.perf_counter()
    corpus = open_corpus(data)
    published_board = read_final_results(corpus)
    if NULL_DETECTOR not in corpus.detectors:
        raise NabDataError(f"results/{NULL_DETECTOR}", "missing folder: NAB's null detector is the normalisation's zero")
    detectors = [d for d in corpus.detectors if d in corpus.thresholds]
    for det in published_board:
        if det not in detectors:
            raise NabDataError(f"results/{det}", "missing folder, or no entry in config/thresholds.json, for a "
                               "detector of final_results.json")
    scores: dict[str, dict[str, DetectorScores]] = {}
    found: dict[str, dict[str, tuple[float, float]]] = {}
    rows: list[NabRowCheck] = []
    stale_tables: dict[str, str] = {}
    for det in detectors:
        tables = {p: read_score_table(corpus, det, p) for p in corpus.profiles}
        also = {p: {r.file: r.threshold for r in t if r.file != "Totals" and not math.isnan(r.threshold)
                    and not same_value(corpus.thresholds[det][p]["threshold"], r.threshold)}
                for p, t in tables.items()}
        thresholds = {}
        for p in corpus.profiles:
            if p not in corpus.thresholds[det]:
                raise NabDataError("config/thresholds.json", f"{det}: no threshold for profile {p}")
            thresholds[p] = corpus.thresholds[det][p]["threshold"]
        scores[det] = score_detector(corpus, det, thresholds, sweep=optimize, also_at=also)
        if optimize:  # sweep now and let the detector's rows go: one detector's rows in memory at a time
            for prof, acc in scores[det].items():
                found.setdefault(det, {})[prof] = optimise(acc, corpus.profiles[prof]["fnWeight"])
                acc.sweep.clear()
        for p, table in tables.items():
            listed = {r.file for r in table if r.file != "Totals"}
            stale = listed != set(corpus.series)
            if stale:
                stale_tables[f"{det}_{p}_scores"] = (f"lists {len(listed & set(corpus.series))} of the "
                                                     f"{len(corpus.series)} series, an older run")
            rows.extend(_check_table(corpus, det, p, scores[det][p], table, stale))
    board = _board(corpus, published_board, {d: {p: s.total for p, s in per.items()} for d, per in scores.items()})
    result = NabReproduction(data=os.fspath(data), scoreboard=board, rows=rows, stale_tables=stale_tables)
    if optimize:
        result.thresholds, result.optimised_board = _optimised(corpus, scores, found, published_board)
    result.seconds = time.perf_counter() - start
    return result


def _board(corpus: NabCorpus, published: dict[str, dict[str, float]],
           totals: dict[str, dict[str, float]]) -> list[NabValue]:
    out = []
    for det, per_profile in published.items():
        for prof, value in per_profile.items():
            if prof not in corpus.profiles:
                raise NabDataError("results/final_results.json", f"{det}: unknown profile {prof}")
            ours = normalised(totals[det][prof], totals[NULL_DETECTOR][prof], perfect_score(corpus, prof))
            out.append(NabValue(det, prof, ours, value))
    return out


def _optimised(corpus: NabCorpus, scores: dict[str, dict[str, DetectorScores]],
               found: dict[str, dict[str, tuple[float, float]]],
               published_board: dict[str, dict[str, float]]) -> tuple[list[NabThreshold], list[NabValue]]:
    out = []
    for det, per in scores.items():
        for prof, acc in per.items():
            t, s = found[det][prof]
            pub = corpus.thresholds[det][prof]
            out.append(NabThreshold(det, prof, pub["threshold"], pub["score"], acc.total, t, s))
    # the scoreboard at the optimised thresholds: the corpus score there is the optimiser's own
    totals = {d: {p: v[1] for p, v in per.items()} for d, per in found.items()}
    return out, _board(corpus, published_board, totals)


# --------------------------------------------------------------------------- rendering

def _fmt(v: float) -> str:
    return "nan" if math.isnan(v) else f"{v:.6f}"


def _grid(header: list[str], body: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *body]) for i in range(len(header))]
    line = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()  # noqa: E731
    return [line(header), line(["-" * w for w in widths]), *(line(r) for r in body)]


def _gain(t: NabThreshold) -> str:
    if t.optimised == t.published:
        return "same threshold"
    gain = t.optimised_score - t.rescored
    return "same score" if abs(gain) <= 1e-9 else f"{gain:+.6f}"


def _row_text(r: NabRowCheck) -> str:
    if r.ours is None:
        return f"{r.detector} {r.profile} {r.file}: not a series of the corpus"
    parts = [f"{k} {r.ours[k]!r} (published {r.published[k]!r})" for k in r.differs]
    return f"{r.detector} {r.profile} {r.file}: " + "; ".join(parts)


def _render_table(res: NabReproduction) -> str:
    profiles = list(dict.fromkeys(v.profile for v in res.scoreboard))
    lines = [f"NAB scoreboard (results/final_results.json; ours, published in parentheses, {MISMATCH} where they differ)", ""]
    cells = {(v.detector, v.profile): v for v in res.scoreboard}
    body = [[det, *(f"{_fmt(cells[det, p].ours)}{'' if cells[det, p].match else MISMATCH} ({_fmt(cells[det, p].published)})"
                    for p in profiles)] for det in dict.fromkeys(v.detector for v in res.scoreboard)]
    lines += _grid(["detector", *profiles], body)
    lines += ["", "NAB per-file rows (<detector>_<profile>_scores: threshold, score, TP, TN, FP, FN, Total_Count)", ""]
    tables: dict[tuple[str, str], list[NabRowCheck]] = {}
    for r in res.rows:
        tables.setdefault((r.detector, r.profile), []).append(r)
    body = [[d, p, f"{sum(r.match for r in rs)}/{len(rs)}",
             "stale" if rs[0].stale else ("" if all(r.match for r in rs) else "differs")] for (d, p), rs in tables.items()]
    lines += _grid(["detector", "profile", "rows matching", ""], body)
    errors = [r for r in res.rows if not r.match and not r.stale]
    if errors:
        lines += ["", "Rows that differ:"] + [f"  {MISMATCH} {_row_text(r)}" for r in errors]
    stale = [r for r in res.rows if not r.match and r.stale]
    if stale:
        lines += ["", f"Stale rows ({_stale_text(res)}):"]
        lines += [f"  {_row_text(r)}" for r in stale]
    notes = sorted({(r.detector, r.profile, r.threshold_note) for r in res.rows if r.threshold_note})
    if notes:
        lines += ["", "Threshold column (not an error):"]
        counts = {(d, p): sum(1 for r in res.rows if r.detector == d and r.profile == p and r.threshold_note)
                  for d, p, _ in notes}
        lines += [f"  {d} {p}: {counts[d, p]} rows: {note}" for d, p, note in notes]
    if res.thresholds is not None and res.optimised_board is not None:
        lines += ["", "NAB's current optimiser (every distinct score swept) beside config/thresholds.json "
                  "(corpus raw scores; published threshold's score recomputed)", ""]
        body = [[t.detector, t.profile, f"{t.published!r}", _fmt(t.rescored), f"{t.optimised!r}",
                 _fmt(t.optimised_score), _gain(t)] for t in res.thresholds]
        lines += _grid(["detector", "profile", "published threshold", "its score", "optimised threshold",
                        "its score", "gain"], body)
        lines += ["", "NAB scoreboard at the optimised thresholds (final_results.json in parentheses)", ""]
        cells = {(v.detector, v.profile): v for v in res.optimised_board}
        body = [[det, *(f"{_fmt(cells[det, p].ours)} ({_fmt(cells[det, p].published)})" for p in profiles)]
                for det in dict.fromkeys(v.detector for v in res.optimised_board)]
        lines += _grid(["detector", *profiles], body)
    lines += ["", *res.summary()]
    return "\n".join(lines) + "\n"


def _render_json(res: NabReproduction) -> str:
    doc: dict[str, Any] = {
        "data": res.data,
        "ok": res.ok,
        "summary": res.summary(),
        "scoreboard": [{**asdict(v), "match": v.match} for v in res.scoreboard],
        "rows": [{**asdict(r), "match": r.match} for r in res.rows],
        "stale_tables": res.stale_tables,
        "thresholds": None if res.thresholds is None else [asdict(t) for t in res.thresholds],
        "optimised_scoreboard": None if res.optimised_board is None else [asdict(v) for v in res.optimised_board],
    }
    return json.dumps(jsonable(doc), indent=1, allow_nan=False) + "\n"


def render_nab(result: NabReproduction, fmt: str = "table") -> str:
    """``table`` (the scoreboard, the per-file tables, the differences named, the summary lines) or ``json``."""
    if fmt == "table":
        return _render_table(result)
    if fmt == "json":
        return _render_json(result)
    raise ValueError(f"unknown format {fmt!r}; --table nab prints {', '.join(NAB_FORMATS)}")
