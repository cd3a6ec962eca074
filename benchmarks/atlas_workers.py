"""Wall time of one atlas subset on a LocalCluster of 1 and of 2 Dask workers, side by side (docs/benchmarks.md).

Usage (from the repository root, in an environment with ``dask.distributed``)::

    python benchmarks/atlas_workers.py            # the 13 built-in rows, no cache, 1 then 2 workers
    python benchmarks/atlas_workers.py --repeat 2

Each run is :func:`oipr_bench.atlas.build.profile_all` without a cache (every row computed), so the
two runs do the same work; the wall time includes starting and closing the LocalCluster. The two
runs' rows are compared and must be equal. The machine's load average is printed with the figures:
on a shared machine the ratio is lower than the 2x the second core could give.
"""

from __future__ import annotations

import argparse
import os
import time

from oipr_bench.atlas.adapters.builtins import ADAPTERS
from oipr_bench.atlas.build import profile_all


def timed(workers: int) -> tuple[float, list]:
    t0 = time.perf_counter()
    rows = profile_all(ADAPTERS, jobs=workers, quiet=True)
    return time.perf_counter() - t0, [r[0] for r in rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help="runs of each worker count (the best is reported)")
    args = parser.parse_args()
    best: dict[int, float] = {}
    rows: dict[int, list] = {}
    for _ in range(args.repeat):
        for workers in (1, 2):
            seconds, rows[workers] = timed(workers)
            best[workers] = min(seconds, best.get(workers, float("inf")))
    assert rows[1] == rows[2], "the 1-worker and 2-worker runs gave different rows"
    print(f"atlas subset: {len(ADAPTERS)} built-in rows, profile_all without cache, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f} at the end")
    print("| workers | wall (s) | speed-up |")
    print("|---:|---:|---:|")
    for workers in (1, 2):
        print(f"| {workers} | {best[workers]:.1f} | {best[1] / best[workers]:.2f}x |")


if __name__ == "__main__":
    main()
