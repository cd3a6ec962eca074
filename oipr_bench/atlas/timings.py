"""How long the last atlas regeneration took: ``atlas/timings.json``, written by ``atlas --write``.

One entry per mode (``write``: the fast rows; ``write_include_slow``: every row; the same with
``_modern`` for a run in the modern environment, which profiles that environment's rows), each with the
wall and CPU time of the run, the worker processes, the machine's CPU count, the date and the
seconds of every row profiled.  docs/benchmarks.md quotes the ``write_include_slow`` entry, and a
test checks the quoted figure against this file, so the documented time is the measured one.
"""

from __future__ import annotations

import datetime
import json
import os
from pathlib import Path
from typing import Any, Mapping

__all__ = ["TIMINGS_FILE", "MODES", "BUDGET_SECONDS", "read_timings", "record_timing", "minutes_text", "timings_markdown"]

TIMINGS_FILE = "timings.json"
#: The two ways of regenerating the atlas that are timed.
MODES = ("write", "write_include_slow", "write_modern", "write_include_slow_modern")


def read_timings(directory: Path) -> dict[str, Any]:
    """The timings recorded in ``directory`` ({} when there are none yet).

    Read with the atlas's hardened reader (:func:`oipr_bench.atlas.store.read_json`); the file is one
    ``atlas --write`` regenerates, so it is not noted as an input of the run.
    """
    from ..errors import UsageError
    from .store import read_json

    path = directory / TIMINGS_FILE
    if not os.path.lexists(path):
        return {}
    doc = read_json(path, None)
    if not isinstance(doc, dict):
        raise UsageError(f"atlas: {path} is not a timings file (a JSON object by mode)")
    return doc


def record_timing(directory: Path, mode: str, *, wall: float, cpu: float, jobs: int,
                  rows: Mapping[str, float]) -> dict[str, Any]:
    """Store this run's figures under ``mode`` (the other mode's entry is kept); return the entry."""
    from ..io import atomic_write_text

    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    doc = read_timings(directory)
    entry = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
        "cpus": os.cpu_count(),
        "jobs": jobs,
        "wall_seconds": round(wall, 1),
        "cpu_seconds": round(cpu, 1),
        "rows": {rid: round(s, 1) for rid, s in sorted(rows.items(), key=lambda kv: -kv[1])},
    }
    doc[mode] = entry
    atomic_write_text(directory / TIMINGS_FILE, json.dumps(doc, indent=1) + "\n")
    return entry


def minutes_text(seconds: float) -> str:
    """``1234.5`` -> ``"20 min 34 s"`` (how docs/benchmarks.md quotes a duration)."""
    whole = int(round(seconds))
    return f"{whole // 60} min {whole % 60:02d} s"


#: What a row's time is quoted against in docs/benchmarks.md.
BUDGET_SECONDS = {"write": 10 * 60, "write_include_slow": 30 * 60, "write_modern": 10 * 60, "write_include_slow_modern": 30 * 60}
_COMMAND = {"write": "oipr-bench atlas --write", "write_include_slow": "oipr-bench atlas --write --include-slow",
            "write_modern": "oipr-bench atlas --write (modern env)",
            "write_include_slow_modern": "oipr-bench atlas --write --include-slow (modern env)"}


def timings_markdown(doc: Mapping[str, Any], slowest: int = 9) -> list[str]:
    """docs/benchmarks.md's atlas figures, from the recorded timings (a test compares the two)."""
    out: list[str] = []
    for mode in MODES:
        entry = doc.get(mode)
        if entry is None:
            continue
        rows = entry["rows"]
        out += [f"- `{_COMMAND[mode]}` ({len(rows)} rows profiled, {entry['jobs']} worker{'s' * (entry['jobs'] != 1)}, "
                f"{entry['cpus']} CPUs), {entry['date']}: **{minutes_text(entry['wall_seconds'])}** wall, "
                f"{minutes_text(entry['cpu_seconds'])} CPU (target: at most {BUDGET_SECONDS[mode] // 60} min wall: "
                f"{'met' if entry['wall_seconds'] <= BUDGET_SECONDS[mode] else 'missed'})."]
    entry = doc.get("write_include_slow")
    if entry is not None:
        out += ["", f"The {slowest} longest rows of the main environment's `--include-slow` run (one worker each; a "
                "shared pair's time is its storing row's):", "",
                "| row | wall |", "|---|---:|"]
        out += [f"| {rid} | {minutes_text(s)} |" for rid, s in list(entry["rows"].items())[:slowest]]
    return out
