"""How long differential runs and their shrinking take (run on demand; docs/regression-testing.md).

Usage (from the repository root, with oipr-bench installed)::

    python benchmarks/differential.py                    # both parts, N = 1000, 2 jobs
    python benchmarks/differential.py --part families --evaluators OIPR,TaPR
    python benchmarks/differential.py --part planted --markdown
    python benchmarks/differential.py --json differential.json

Parts
-----
``families``
    Each built-in against its loop-by-loop oracle (:mod:`oipr_bench.evaluators.oracles`)
    on ``N`` pairs of every family of :mod:`oipr_bench.testing.families`, the
    families spread over ``--jobs`` worker processes (``cardinality`` and ``many_events``
    stopping at 300 events per series against the quadratic oracles of RP/RR and AM).  Printed per evaluator: the
    wall time of all families (target: at most 30 s on 2 cores), the
    summed CPU time of the families (what one process would need, the
    baseline), the slowest family, and the wall time the CPU times allow on
    ``--jobs`` idle cores (the slowest family, or the summed CPU shared out;
    the machine's load average is printed in the header).
``planted``
    Each planted bug of :mod:`oipr_bench.testing.planted` audited with
    ``differential=N``, family by family in report order until one fails (as
    ``pytest -x`` would): the seconds until the failure was found, the seconds
    of shrinking, and the counterexample reached (target: caught within 60 s
    with at most a few dozen points, or the shortest length that shows it).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from oipr_bench import evaluators
from oipr_bench.auditing.regression.differential import run_family
from oipr_bench.auditing.options import AuditOptions
from oipr_bench.auditing.profile.profiles import AuditSession
from oipr_bench.auditing.calling.resolve import resolve
from oipr_bench.auditing.calling.runner import call_evaluator
from oipr_bench.evaluators.oracles import oracle
from oipr_bench.testing.families import MAX_EVENTS
from oipr_bench.testing.planted import PLANTED, write_planted
from oipr_bench.vocabulary import FAILED, FAMILIES

FAMILY_TARGET = 30.0
PLANTED_TARGET = 60.0


#: Oracles whose time grows with the square of the events: against them ``cardinality`` and ``many_events`` stop at
#: this many events per series (as in tests/test_differential_builtins.py).
QUADRATIC = ("RP/RR", "AM")
QUADRATIC_MAX_EVENTS = 300
#: ... and ``many_events`` runs on this many pairs only (as in tests/test_differential_builtins.py).
QUADRATIC_MANY_EVENTS_N = 50


def _one_family(args: tuple[str, str, int]) -> dict[str, Any]:
    name, family, n = args
    if name in QUADRATIC and family == "many_events":
        n = min(n, QUADRATIC_MANY_EVENTS_N)
    builtin = evaluators.get(name)
    wall, cpu = time.perf_counter(), time.process_time()
    res = run_family(lambda t, y: call_evaluator(builtin, t, y), oracle(name, **builtin.params), family,
                     name=f"the {name} oracle", n=n, params=builtin.params,
                     max_events=QUADRATIC_MAX_EVENTS if name in QUADRATIC else MAX_EVENTS)
    return {"evaluator": name, "family": family, "status": res.status, "checked": res.checked,
            "wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu}


def ideal_wall(row: dict[str, Any]) -> float:
    """The wall time on ``jobs`` idle cores the CPU times allow: the slowest family, or the CPU shared out."""
    return max(row["slowest_cpu"], row["cpu"] / row["jobs"])


def families_part(names: list[str], n: int, jobs: int) -> list[dict[str, Any]]:
    """Every family of every evaluator against its oracle; one row per evaluator."""
    rows = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for name in names:
            start = time.perf_counter()
            # the long family first, so the other families fill the other worker meanwhile
            order = sorted(FAMILIES, key=lambda f: f != "long_series")
            per = list(pool.map(_one_family, [(name, f, n) for f in order]))
            wall = time.perf_counter() - start
            slow = max(per, key=lambda r: r["cpu"])
            rows.append({"evaluator": name, "n": n, "jobs": jobs, "wall": wall, "cpu": sum(r["cpu"] for r in per),
                         "slowest": slow["family"], "slowest_cpu": slow["cpu"],
                         "failed": [r["family"] for r in per if r["status"] == FAILED]})
    return rows


def planted_part(n: int) -> list[dict[str, Any]]:
    """Every planted bug: time to catch, time to shrink, counterexample reached."""
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for kind, bug in PLANTED.items():
            spec = write_planted(kind, folder)
            start = time.perf_counter()
            with AuditSession(resolve(spec, {}), AuditOptions(reference=bug.reference, differential=n,
                                                              sanity=False)) as session:
                res = next((r for r in map(session.differential_result, FAMILIES) if r.status == FAILED), None)
            total = time.perf_counter() - start
            if res is None:
                rows.append({"bug": kind, "caught": False, "seconds": total})
                continue
            pair = res.shrunk.pair
            rows.append({"bug": kind, "caught": True, "family": res.family, "pair": (res.index or 0) + 1,
                         "seconds": total, "shrink_seconds": res.shrink_seconds, "shrink_steps": res.shrink_steps,
                         "finished": res.shrink_finished, "found_length": res.found.pair.length,
                         "length": pair.length, "events": len(pair.y_true_events) + len(pair.y_pred_events),
                         "reproduction": res.reproduction, "message": res.message})
    return rows


def print_families(rows: list[dict[str, Any]], markdown: bool) -> None:
    head = ["evaluator", "N per family", "wall, all families (s)", "CPU summed = 1 job (s)", "slowest family (CPU s)",
            "CPU-bound wall on idle cores (s)", "target 30 s"]
    lines = [[r["evaluator"], str(r["n"]), f"{r['wall']:.1f}", f"{r['cpu']:.1f}",
              f"{r['slowest']} ({r['slowest_cpu']:.1f})", f"{ideal_wall(r):.1f}",
              ("FAILED " + ",".join(r["failed"])) if r["failed"] else ("ok" if r["wall"] <= FAMILY_TARGET else "MISS")]
             for r in rows]
    _print(head, lines, markdown)


def print_planted(rows: list[dict[str, Any]], markdown: bool) -> None:
    head = ["planted bug", "caught by", "found at pair (length)", "total (s)", "shrinking (s, steps)",
            "counterexample", "target 60 s"]
    lines = []
    for r in rows:
        if not r["caught"]:
            lines.append([r["bug"], "NOT CAUGHT", "-", f"{r['seconds']:.1f}", "-", "-", "MISS"])
            continue
        lines.append([r["bug"], r["family"], f"{r['pair']} ({r['found_length']})", f"{r['seconds']:.2f}",
                      f"{r['shrink_seconds']:.2f}, {r['shrink_steps']}" + ("" if r["finished"] else " (budget out)"),
                      f"{r['length']} point{'s' * (r['length'] != 1)}, {r['events']} event{'s' * (r['events'] != 1)}",
                      "ok" if r["seconds"] <= PLANTED_TARGET else "MISS"])
    _print(head, lines, markdown)


def _print(head: list[str], rows: list[list[str]], markdown: bool) -> None:
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "|".join("---" for _ in head) + "|")
        for r in rows:
            print("| " + " | ".join(r) + " |")
        return
    widths = [max(len(x) for x in col) for col in zip(head, *rows)]
    for r in [head, *rows]:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--part", choices=("families", "planted", "both"), default="both")
    ap.add_argument("--n", type=int, default=1000, help="pairs per family (default 1000)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes for the families part (default 2)")
    ap.add_argument("--evaluators", default=",".join(evaluators.NAMES), help="comma-separated built-ins")
    ap.add_argument("--markdown", action="store_true", help="print Markdown tables")
    ap.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    args = ap.parse_args(argv)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"# {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, NumPy {np.__version__}, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {load} (1, 5, 15 min)")
    out: dict[str, Any] = {}
    if args.part in ("families", "both"):
        out["families"] = families_part(args.evaluators.split(","), args.n, args.jobs)
        print_families(out["families"], args.markdown)
    if args.part in ("planted", "both"):
        out["planted"] = planted_part(args.n)
        print()
        print_planted(out["planted"], args.markdown)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=2)
    bad = [r for r in out.get("families", []) if r["failed"]] + [r for r in out.get("planted", []) if not r["caught"]]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
