"""``oipr-bench atlas --realdata``'s work behind the command line: its options checked, a run, its outputs.

The command line (:mod:`oipr_bench.cli.atlas`) parses, calls :func:`run_on_real` (or the sample check,
or the placement) and re-renders the grid; everything about the real data is here.
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ...errors import UsageError
from .plan import DEFAULT_BUDGET_MINUTES

__all__ = ["checked_budget", "RunReport", "run_on_real", "write_outputs"]


def checked_budget(args: argparse.Namespace) -> float:
    """The row budget of a ``--realdata`` run (CPU minutes), after refusing what does not combine with it."""
    if args.evaluator is not None:
        if args.row_budget is not None:
            raise UsageError("--row-budget applies to computing the real-data atlas, not to --evaluator")
        return DEFAULT_BUDGET_MINUTES
    clash = [flag for flag, value in (("--write", args.write), ("--disagreements", args.disagreements), ("--diff", args.diff),
                                      ("--where", args.where), ("--pin", args.pin)) if value is not None]
    if args.include_slow:
        clash.append("--include-slow")
    if clash:
        raise UsageError(f"--realdata does not combine with {', '.join(clash)} (give --realdata DATA alone, or with --check)")
    if args.row_budget is not None and not (0 < args.row_budget < float("inf")):
        raise UsageError(f"--row-budget must be a positive number of CPU minutes, got {args.row_budget}")
    if args.row_budget is not None and args.check is not None:
        raise UsageError("--row-budget applies to computing the real-data atlas, not to --check")
    if args.check is not None and args.dir is not None:
        raise UsageError("--check --realdata reads the atlas folder given to --check; --dir does not apply")
    return DEFAULT_BUDGET_MINUTES if args.row_budget is None else float(args.row_budget)


@dataclass
class RunReport:
    """What a run prints: ``lines`` on stdout, ``notes`` on stderr; its exit code."""

    code: int = 0
    lines: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def run_on_real(directory: Path, args: argparse.Namespace, budget: float, env: str,
                progress: Callable[[int, str], Any], cpu_seconds: Callable[[], float],
                report: RunReport | None = None) -> RunReport:
    """Run this environment's rows (``--only`` selects) on ``args.realdata``; write their files and the outputs.

    ``report`` (filled in place, also when the run is interrupted): what to print.
    """
    from ..adapters.registry import adapters
    from ..running.options import result_cache
    from ..running.tasks import connect, worker_count
    from .inputs import read_inputs
    from .run import RunCounts, run_rows

    t0, cpu0 = time.perf_counter(), cpu_seconds()
    unknown = set(args.only or ()) - {a.id for a in adapters()}
    if unknown:
        raise UsageError(f"--only: unknown row id(s) {', '.join(sorted(unknown))}")
    chosen = [a for a in adapters() if a.env == env and (not args.only or a.id in args.only)]
    cache = result_cache(args, by_default=True)
    inputs = read_inputs(args.realdata)
    report = RunReport() if report is None else report
    counts = RunCounts(notes=report.notes)
    try:
        run_rows(inputs, directory, chosen, client_factory=lambda n: connect(worker_count(args.jobs, n), args.scheduler),
                 cache=cache, timeout=args.task_timeout, budget_minutes=budget, progress=progress, counts=counts)
    except KeyboardInterrupt:
        counts.notes.append(f"interrupted: {counts.rows_written} row files written, {counts.pairs_computed} (row, series) "
                            "pairs computed and kept; run the same command again to resume")
        if counts.pairs_computed or counts.probes_run:  # what it computed is kept: runs.json says so
            _record(directory, args, env, budget, time.perf_counter() - t0, counts, interrupted=True)
        raise
    finally:
        counts.notes += [f"cache entry {path} not read ({why}); computed again" for path, why in (cache.rejected if cache else [])]
    write_outputs(directory, inputs, budget)
    wall = time.perf_counter() - t0
    if counts.pairs_computed or counts.probes_run:
        _record(directory, args, env, budget, wall, counts)
    report.lines.append(
        f"atlas --realdata (environment {env}): {len(chosen)} rows: {counts.rows_skipped} up to date, "
        f"{counts.rows_written} written; {counts.pairs_computed} (row, series) pairs computed, {counts.pairs_read} read "
        f"from the committed files or the cache, {counts.pairs_failed} failed"
        + (f"; {counts.rows_failed} rows not run (their cost probe failed)" if counts.rows_failed else "")
        + f"; {wall:.0f} s wall, {cpu_seconds() - cpu0:.0f} s CPU in this process")
    report.code = 1 if counts.pairs_failed or counts.rows_failed else 0
    return report


def _record(directory: Path, args: argparse.Namespace, env: str, budget: float, wall: float, counts: Any,
            interrupted: bool = False) -> None:
    from .rowfiles import record_run

    record_run(directory, {"date": time.strftime("%Y-%m-%d", time.gmtime()), "env": env, "budget_cpu_minutes": budget,
                           "workers": f"scheduler {args.scheduler}" if args.scheduler else f"{args.jobs} local",
                           "cpus": os.cpu_count(), "wall_seconds": round(wall, 1),
                           "worker_cpu_seconds": round(counts.worker_cpu_seconds, 1),
                           "pairs_computed": counts.pairs_computed, "pairs_read": counts.pairs_read,
                           "probes": counts.probes_run, "rows_written": counts.rows_written, "interrupted": interrupted})


def write_outputs(directory: Path, inputs: Any, budget: float) -> None:
    """The summary from every row file (both environments), ``COSTS.md`` and DISAGREEMENTS.md's real-data section."""
    from ...io import atomic_write_text
    from .render import costs_markdown, with_real_section
    from .rowfiles import read_row_files, read_stored_report, read_summary, write_summary
    from .run import PROTOCOL
    from .inputs import constant_outputs
    from .summary import build_summary, constructed_values

    docs, _ = read_row_files(directory)
    nab: dict[str, dict[str, float]] = {}
    for (det, name), value in inputs.nab_raw.items():
        nab.setdefault(det, {})[name] = value
    constructed = {rid: constructed_values(read_stored_report(directory, rid)) for rid in docs}
    write_summary(directory, build_summary(docs, nab, data_digest=inputs.digest, detectors=inputs.detectors,
                                           left_out=inputs.left_out, protocol=PROTOCOL, budget_minutes=budget,
                                           constant=constant_outputs(inputs), constructed=constructed))
    summary = read_summary(directory)
    if summary is not None:
        atomic_write_text(directory / "realdata" / "COSTS.md", costs_markdown(summary))
    disagreements = directory / "DISAGREEMENTS.md"
    if disagreements.is_file():
        atomic_write_text(disagreements, with_real_section(disagreements.read_text(encoding="utf-8"), summary))
