"""Wall time of one real-data atlas subset on a LocalCluster of 1 and of 2 Dask workers, side by side (docs/benchmarks.md).

Usage (from the repository root, in the main atlas environment, NAB beside the project)::

    python benchmarks/realdata_workers.py ../shared/reference-data/nab
    python benchmarks/realdata_workers.py DATA --repeat 2

The subset: 3 rows (:data:`ROWS`; the `vus` package is not among them: a worker started from this folder would import `benchmarks/vus.py` instead) x 3 detectors (:data:`DETECTORS`) x the first 3 series of the
declared order, run by :func:`oipr_bench.atlas.realdata.run.run_rows` without a cache into a scratch
folder, so both runs compute every (row, series) pair; the wall time includes starting and closing the
LocalCluster (a probe phase and a cell phase, one cluster each).  The two runs' cells are compared and
must be equal.  The load average is printed with the figures: on a shared machine the ratio is lower
than the 2x a second idle core gives.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from oipr_bench.atlas.adapters.registry import by_id
from oipr_bench.atlas.realdata.inputs import declared_order, read_inputs
from oipr_bench.atlas.realdata.run import RunCounts, run_rows
from oipr_bench.atlas.running.tasks import connect

ROWS = ("TSB-AD:VUS-ROC", "TSB-AD:VUS-ROC[opt_mem]", "TSB-AD:VUS-ROC[thre=100]")
DETECTORS = ("numenta", "random", "null")


class _NoBar:
    def __enter__(self) -> "_NoBar":
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, n: int) -> None:
        return None


def subset(data: str):
    inputs = read_inputs(data)
    names = set(declared_order([s.name for s in inputs.series])[:3])
    series = tuple(replace(s, scores={d: s.scores[d] for d in DETECTORS}, y_pred={d: s.y_pred[d] for d in DETECTORS})
                   for s in inputs.series if s.name in names)
    return replace(inputs, series=series, detectors=DETECTORS)


def timed(inputs, workers: int) -> tuple[float, dict]:
    rows = [by_id()[r] for r in ROWS]
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        counts = RunCounts()
        run_rows(inputs, Path(tmp), rows, client_factory=lambda n: connect(workers), cache=None, timeout=None,
                 budget_minutes=1e6, progress=lambda total, unit: _NoBar(), counts=counts)
        seconds = time.perf_counter() - t0
        assert counts.pairs_computed == len(ROWS) * len(inputs.series), counts
        cells = {p.name: json.loads(p.read_text())["cells"] for p in sorted((Path(tmp) / "realdata" / "rows").glob("*.json"))}
    return seconds, {k: {s: (e["result"]["values"], e["result"]["failures"]) for s, e in v.items()} for k, v in cells.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", help="a NAB checkout or copy")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each worker count (the best is reported)")
    args = parser.parse_args()
    if not Path(args.data).is_dir():
        sys.exit(f"realdata_workers: {args.data}: not a folder")
    inputs = subset(args.data)
    best: dict[int, float] = {}
    cells: dict[int, dict] = {}
    for _ in range(args.repeat):
        for workers in (1, 2):
            seconds, cells[workers] = timed(inputs, workers)
            best[workers] = min(seconds, best.get(workers, float("inf")))
    assert cells[1] == cells[2], "the 1-worker and 2-worker runs gave different cells"
    print(f"real-data atlas subset: {len(ROWS)} rows x {len(DETECTORS)} detectors x {len(inputs.series)} series, no cache, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the end")
    print("| workers | wall (s) | speed-up |")
    print("|---:|---:|---:|")
    for workers in (1, 2):
        print(f"| {workers} | {best[workers]:.1f} | {best[1] / best[workers]:.2f}x |")


if __name__ == "__main__":
    main()
