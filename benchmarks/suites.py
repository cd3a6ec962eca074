"""Wall time of the audit suites from an empty folder (target: ``all`` on a built-in <= 10 s).

Usage (from the repository root, with oipr-bench installed)::

    python benchmarks/suites.py                      # every built-in, best of 2
    python benchmarks/suites.py --evaluators OIPR,AM --repeat 3

For each built-in evaluator, ``pytest -q -p no:cacheprovider --evaluator=NAME --oipr-suite=SUITE`` is
run in a fresh, empty temporary folder (a new interpreter each time, imports included), for the
baseline ``table5`` (the default run) and for ``all`` (Table 5 plus the 13 metric properties); the
best wall time of ``--repeat`` runs is printed beside the baseline, with the machine's load average.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

TARGET_SECONDS = 10.0


def run_once(evaluator: str, suite: str) -> float:
    """Seconds of one plugin run in an empty folder (raises if the run is not green)."""
    with tempfile.TemporaryDirectory() as folder:
        t0 = time.perf_counter()
        out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--evaluator={evaluator}",
                              f"--oipr-suite={suite}"],
                             cwd=folder, capture_output=True, text=True)
        seconds = time.perf_counter() - t0
    if out.returncode not in (0, 1):  # 1: the built-in's Table 5 row differs from OIPR's default profile
        raise RuntimeError(f"{evaluator} {suite}: exit {out.returncode}\n{out.stdout[-2000:]}{out.stderr[-2000:]}")
    return seconds


def main(argv: list[str] | None = None) -> int:
    from oipr_bench.evaluators import NAMES

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--evaluators", default=",".join(NAMES))
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.1f}; best of {args.repeat}; target for `all`: <= {TARGET_SECONDS:g} s")
    print(f"{'evaluator':10s} {'table5 (baseline)':>18s} {'all':>8s} {'extra':>8s}  target")
    worst = 0.0
    for name in args.evaluators.split(","):
        base = min(run_once(name, "table5") for _ in range(args.repeat))
        full = min(run_once(name, "all") for _ in range(args.repeat))
        worst = max(worst, full)
        print(f"{name:10s} {base:17.2f}s {full:7.2f}s {full - base:7.2f}s  {'ok' if full <= TARGET_SECONDS else 'MISSED'}")
    print(f"slowest `all`: {worst:.2f} s")
    return 0 if worst <= TARGET_SECONDS else 1


if __name__ == "__main__":
    raise SystemExit(main())
