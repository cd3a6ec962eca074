"""Wall time of an audit with a length parameter at its cap, beside the default audit.

Usage (from the repository root, with oipr-bench installed)::

    python benchmarks/length_cap.py              # best of 2
    python benchmarks/length_cap.py --repeat 3

``oipr-bench audit EVALUATOR [--param NAME=CAP ...]`` is run in a fresh interpreter in an empty
temporary folder, for the default parameters (the baseline) and with ``l_obs``, ``l_dis`` (OIPR) or
``delta`` (TaPR) at :data:`oipr_bench.evaluators._params.MAX_LENGTH_PARAM`.  The cap is meant to bound
time as well as memory: a call streams ``T + l_obs`` points block by block and the lookup tables of
one parameter set are built once per audit (``oipr_bench.evaluators.oipr``), so a parameter at its
cap costs what a series of that length costs.  Printed: best wall time and peak RSS of each run.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

from oipr_bench.evaluators._params import MAX_LENGTH_PARAM

RUNS: list[tuple[str, list[str]]] = [
    ("OIPR", []),
    ("OIPR", ["l_obs"]),
    ("OIPR", ["l_dis"]),
    ("OIPR", ["l_obs", "l_dis"]),
    ("TaPR", []),
    ("TaPR", ["delta"]),
]


def run_once(evaluator: str, names: list[str]) -> tuple[float, float]:
    """Seconds and peak RSS (MiB) of one ``oipr-bench audit`` (raises unless it exits 0 or 1)."""
    argv = [sys.executable, "-m", "oipr_bench", "audit", evaluator, "--format", "json"]
    for name in names:
        argv += ["--param", f"{name}={MAX_LENGTH_PARAM}"]
    with tempfile.TemporaryDirectory() as folder:
        t0 = time.perf_counter()
        out = subprocess.run(argv, cwd=folder, capture_output=True, text=True)
        seconds = time.perf_counter() - t0
    if out.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(argv[2:])}: exit {out.returncode}\n{out.stderr[-2000:]}")
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return seconds, rss


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2, help="runs per setting; the best is printed (default 2)")
    args = parser.parse_args(argv)
    print(f"# python {sys.version.split()[0]}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}, "
          f"cap {MAX_LENGTH_PARAM}")
    baseline: dict[str, float] = {}
    for evaluator, names in RUNS:
        runs = [run_once(evaluator, names) for _ in range(args.repeat)]
        seconds = min(s for s, _ in runs)
        setting = ", ".join(f"{name}={MAX_LENGTH_PARAM}" for name in names) or "defaults (baseline)"
        baseline.setdefault(evaluator, seconds)
        print(f"{evaluator:5s} {setting:40s} {seconds:7.2f} s  x{seconds / baseline[evaluator]:5.1f}  "
              f"peak RSS so far {max(r for _, r in runs):7.0f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
