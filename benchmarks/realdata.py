"""Speed and peak memory of ``oipr-bench realdata`` on NAB, beside reading the corpus alone (run on demand).

Usage (from the repository root, with oipr-bench installed)::

    python benchmarks/realdata.py                                 # ../shared/reference-data/nab
    python benchmarks/realdata.py --data PATH/TO/NAB --evaluator PW

Each row runs in a fresh Python subprocess (so its peak resident set is its own):

* ``read only`` (the baseline): every results file read and labelled
  (:func:`oipr_bench.reference.nab.iter_results`, :func:`~oipr_bench.reference.nab.window_labels`), nothing scored;
* ``realdata``: the whole command's work (:func:`oipr_bench.realdata.table.realdata`: every built-in on every
  (detector, series) pair, then the analysis with 1,000 bootstrap resamples);
* ``realdata --evaluator SPEC``: the same with the user's column, called through the audit's Caller;
* ``realdata --threshold best``: the oracle protocol (each binary metric at every candidate threshold).

Wall time is ``time.perf_counter`` around the work (imports excluded); peak memory is
``resource.getrusage(RUSAGE_SELF).ru_maxrss`` at the end, and its growth over the value after the imports.
The target (< 5 minutes on 2 cores) is judged on the ``realdata`` row.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = REPO_ROOT.parent / "shared" / "reference-data" / "nab"
TARGET_SECONDS = 300.0

_CHILD = r"""
import json, resource, sys, time
mode, data, spec = sys.argv[1], sys.argv[2], sys.argv[3]
from oipr_bench.reference import nab
from oipr_bench.realdata.table import realdata, user_metric
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
if mode == "read":
    corpus = nab.open_corpus(data)
    rows = 0
    for r in nab.iter_results(corpus):
        y = nab.window_labels(corpus, r.series, r.timestamps)
        rows += len(y)
    detail = f"{rows} rows"
else:
    user = user_metric(spec) if mode == "user" else None
    result = realdata(data, user=user, threshold="best" if mode == "best" else "nab")
    detail = (f"{len(result.table.metrics)} metrics x {len(result.table.detectors)} detectors x "
              f"{len(result.table.series)} series, {result.analysis.resamples} resamples")
elapsed = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"seconds": elapsed, "peak_mb": peak / 1024, "growth_mb": (peak - base) / 1024, "detail": detail}))
"""


def measure(mode: str, data: str, spec: str) -> dict:
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    done = subprocess.run([sys.executable, "-c", _CHILD, mode, data, spec], capture_output=True, text=True, env=env,
                          check=False)
    if done.returncode != 0:
        raise SystemExit(f"{mode}: the measurement failed: {done.stderr.strip().splitlines()[-1:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=str(DEFAULT_DATA), help="a NAB checkout or copy (default ../shared/...)")
    parser.add_argument("--evaluator", default="PW", help="the user's evaluator of the third row (default PW)")
    parser.add_argument("--skip-best", action="store_true", help="leave out the --threshold best row")
    args = parser.parse_args(argv)
    if not Path(args.data).is_dir():
        print(f"benchmarks/realdata.py: --data {args.data}: not a folder", file=sys.stderr)
        return 2
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"oipr-bench realdata on {args.data} ({cores} cores available; one process, BLAS threads 1)")
    rows = [("read only (baseline)", "read"), ("realdata", "run"), (f"realdata --evaluator {args.evaluator}", "user")]
    if not args.skip_best:
        rows.append(("realdata --threshold best", "best"))
    print(f"{'what':<34} {'wall s':>8} {'x read':>7} {'peak MB':>8} {'growth MB':>9}  detail")
    baseline = None
    results = {}
    for label, mode in rows:
        m = measure(mode, args.data, args.evaluator)
        results[mode] = m
        baseline = baseline or m["seconds"]
        print(f"{label:<34} {m['seconds']:8.1f} {m['seconds'] / baseline:7.1f} {m['peak_mb']:8.0f} "
              f"{m['growth_mb']:9.0f}  {m['detail']}")
    ok = results["run"]["seconds"] < TARGET_SECONDS
    print(f"target: realdata under {TARGET_SECONDS:.0f} s: {'met' if ok else 'NOT met'} "
          f"({results['run']['seconds']:.1f} s)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
