"""NAB's scoreboard reproduced: oipr-bench beside NAB's own ``run.py --optimize --score --normalize``.

Run on demand, not in CI: NAB's side needs a NAB checkout and a Python environment that runs it.

Setup (once)::

    git clone https://github.com/numenta/NAB nab-checkout          # tested at ea702d7
    python3 -m venv nab-env
    nab-env/bin/pip install 'pandas<2' 'numpy<2' scipy scikit-learn simplejson python-dateutil

(NAB's code assigns into a pandas array that pandas 3 makes read-only; ``run.py`` imports scipy and
scikit-learn for some detectors even when it only scores.)

Usage (from the repository root, with oipr-bench installed)::

    python benchmarks/nab_reproduction.py --nab nab-checkout --python nab-env/bin/python

Both sides run the whole reproduction, the optimiser included, on all the detectors of
``results/``: oipr-bench's ``reproduce_nab(..., optimize=True)`` in this process (reading
``--data``, default the checkout itself), NAB's ``run.py --optimize --score --normalize
--skipConfirmation -n 2 -d <all detectors>`` in a subprocess on a scratch copy of the checkout (it
writes its thresholds, score tables and per-row columns into the copy, never into the checkout).
Printed: wall and CPU seconds of each side, their ratio, and whether NAB's optimiser found the same
thresholds (exactly), corpus scores and normalised scores (within 1e-9) as ours, per detector and profile.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from oipr_bench.reports.nab_reproduce import reproduce_nab


def _cpu_self() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def ours(data: Path) -> tuple[float, float, object]:
    cpu, wall = _cpu_self(), time.perf_counter()
    result = reproduce_nab(data, optimize=True)
    return time.perf_counter() - wall, _cpu_self() - cpu, result


def nabs(checkout: Path, python: str, detectors: list[str], jobs: int) -> tuple[float, float, dict, dict]:
    with tempfile.TemporaryDirectory(prefix="nab-bench-") as tmp:
        copy = Path(tmp) / "nab"
        shutil.copytree(checkout, copy, ignore=shutil.ignore_patterns(".git"))
        cmd = [python, "run.py", "--optimize", "--score", "--normalize", "--skipConfirmation", "-n", str(jobs),
               "-d", ",".join(detectors)]
        cpu, wall = _cpu_children(), time.perf_counter()
        proc = subprocess.run(cmd, cwd=copy, capture_output=True, text=True)
        wall, cpu = time.perf_counter() - wall, _cpu_children() - cpu
        if proc.returncode != 0:
            tail = "\n".join(proc.stderr.strip().splitlines()[-5:])
            sys.exit(f"NAB's run.py failed (exit {proc.returncode}):\n{tail}")
        thresholds = json.loads((copy / "config" / "thresholds.json").read_text())
        final = json.loads((copy / "results" / "final_results.json").read_text())
    return wall, cpu, thresholds, final


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nab", type=Path, required=True, help="a numenta/NAB checkout (plain .csv results)")
    parser.add_argument("--python", required=True, help="an interpreter that runs NAB's code (see the setup above)")
    parser.add_argument("--data", type=Path, help="the NAB folder oipr-bench reads (default: --nab)")
    parser.add_argument("--jobs", type=int, default=2, help="NAB's worker processes (-n; default 2)")
    parser.add_argument("--skip-nab", action="store_true", help="time oipr-bench's side only (NAB's takes minutes)")
    args = parser.parse_args(argv)
    data = args.data or args.nab
    detectors = sorted(p.name for p in (args.nab / "results").iterdir() if p.is_dir())

    print(f"NAB reproduction, optimiser included: {len(detectors)} detectors, 3 profiles "
          f"({os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f})")
    o_wall, o_cpu, result = ours(data)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"oipr-bench reproduce --table nab --optimize: {o_wall:6.1f} s wall, {o_cpu:6.1f} s CPU, "
          f"peak memory of this process {peak:.0f} MiB")
    if args.skip_nab:
        return 0
    n_wall, n_cpu, thresholds, final = nabs(args.nab, args.python, detectors, args.jobs)
    print(f"NAB run.py --optimize --score --normalize:   {n_wall:6.1f} s wall, {n_cpu:6.1f} s CPU (-n {args.jobs})")
    print(f"ratio (NAB / oipr-bench): {n_wall / o_wall:.1f}x wall, {n_cpu / o_cpu:.1f}x CPU")

    same_t = same_s = same_f = 0
    for t in result.thresholds:
        theirs = thresholds[t.detector][t.profile]
        same_t += t.optimised == theirs["threshold"]
        same_s += abs(t.optimised_score - theirs["score"]) <= 1e-9
        if not (t.optimised == theirs["threshold"] and abs(t.optimised_score - theirs["score"]) <= 1e-9):
            print(f"  differs: {t.detector} {t.profile}: ours {t.optimised!r} ({t.optimised_score!r}), "
                  f"NAB's {theirs['threshold']!r} ({theirs['score']!r})")
    board = [v for v in result.optimised_board if v.detector in final]
    for v in board:
        theirs = final[v.detector][v.profile]
        ok = abs(v.ours - theirs) <= 1e-9 or (math.isnan(v.ours) and math.isnan(theirs))
        same_f += ok
        if not ok:
            print(f"  differs: final score {v.detector} {v.profile}: ours {v.ours!r}, NAB's {theirs!r}")
    n = len(result.thresholds)
    print(f"optimised thresholds equal to NAB's: {same_t}/{n}; corpus scores within 1e-9: {same_s}/{n}; "
          f"normalised scores within 1e-9: {same_f}/{len(board)}")
    return 0 if same_t == same_s == n and same_f == len(board) else 1


if __name__ == "__main__":
    raise SystemExit(main())
