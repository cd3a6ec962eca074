"""Which family of the differential mode catches which planted bug (run on demand; docs/regression-testing.md).

Usage (from the repository root, with oipr-bench installed)::

    python benchmarks/catch_rate.py                  # N = 1000, seed 0, 2 jobs: a plain table
    python benchmarks/catch_rate.py --markdown       # the table of docs/regression-testing.md
    python benchmarks/catch_rate.py --bugs integer_percent --families percent_boundary,k_boundary

Every planted bug of :mod:`oipr_bench.testing.planted` (a copy of a loop-by-loop oracle with one
line changed) is compared with its reference on the first ``N`` pairs of every family of
:mod:`oipr_bench.testing.families`, each family on its own (not stopping at the first family that
fails, as a run does).  A cell is the 1-based pair at which the family first differs, or ``-``
when none of its ``N`` pairs does; the last row is the catch rate per family (bugs caught / bugs).
No shrinking (only whether and where a family catches a bug is measured).

The copies of RP/RR and AM take time in the square of the events, so against them the
``cardinality`` and ``many_events`` families stop at :data:`QUADRATIC_MAX_EVENTS` events per
series (the 8-bit counts 255-257 included; see tests/test_differential_builtins.py); the other
copies meet every count up to 32,769.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from oipr_bench import evaluators
from oipr_bench.auditing.calling.resolve import resolve
from oipr_bench.auditing.calling.runner import call_evaluator
from oipr_bench.auditing.regression.differential import run_family
from oipr_bench.testing.families import MAX_EVENTS
from oipr_bench.testing.planted import PLANTED, write_planted
from oipr_bench.vocabulary import FAILED, FAMILIES

#: Oracle files whose copies take time in the square of the events.
QUADRATIC_FILES = ("range_based.py", "affiliation.py")
QUADRATIC_MAX_EVENTS = 300


def cap_of(kind: str) -> int:
    """Most events per series of ``cardinality`` for the copy with bug ``kind``."""
    return QUADRATIC_MAX_EVENTS if PLANTED[kind].oracle_file in QUADRATIC_FILES else MAX_EVENTS


def cell(args: tuple[str, str, int, int]) -> dict[str, Any]:
    """Planted bug ``kind`` against its reference on ``n`` pairs of ``family`` (seed ``seed``)."""
    kind, family, n, seed = args
    bug = PLANTED[kind]
    with tempfile.TemporaryDirectory() as folder:
        fn = resolve(write_planted(kind, folder), {}).fn
        ref = evaluators.get(bug.reference)
        start = time.perf_counter()
        res = run_family(lambda t, y: call_evaluator(fn, t, y), ref, family, name=bug.reference, n=n, seed=seed,
                         params=ref.params, shrink_budget=0.0, max_events=cap_of(kind))
    return {"bug": kind, "family": family, "caught": res.status == FAILED,
            "pair": None if res.index is None else res.index + 1, "seconds": time.perf_counter() - start}


def table(n: int, seed: int, jobs: int, bugs: list[str], families: list[str]) -> list[dict[str, Any]]:
    """Every (bug, family) cell."""
    todo = [(b, f, n, seed) for b in bugs for f in families]
    if jobs == 1:
        return [cell(t) for t in todo]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(cell, todo))


def rows_of(cells: list[dict[str, Any]], bugs: list[str], families: list[str]) -> list[list[str]]:
    """The table: one row per bug (the pair each family catches it at, or ``-``), then the catch rate per family."""
    at = {(c["bug"], c["family"]): c for c in cells}
    rows = [[b] + [str(at[b, f]["pair"]) if at[b, f]["caught"] else "-" for f in families] for b in bugs]
    caught = [sum(at[b, f]["caught"] for b in bugs) for f in families]
    rows.append(["catch rate"] + [f"{k}/{len(bugs)}" for k in caught])
    return rows


def render(rows: list[list[str]], families: list[str], markdown: bool) -> str:
    head = ["planted bug", *families]
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
        return "\n".join(lines)
    widths = [max(len(x) for x in col) for col in zip(head, *rows)]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in [head, *rows])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=1000, help="pairs per family (default 1000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--bugs", default=",".join(PLANTED), help="comma-separated planted bugs")
    ap.add_argument("--families", default=",".join(FAMILIES), help="comma-separated families")
    ap.add_argument("--markdown", action="store_true", help="print the Markdown table")
    args = ap.parse_args(argv)
    bugs, families = args.bugs.split(","), args.families.split(",")
    start = time.perf_counter()
    cells = table(args.n, args.seed, max(1, min(args.jobs, os.cpu_count() or 1)), bugs, families)
    print(f"# N = {args.n} pairs per family, seed {args.seed}")
    print(render(rows_of(cells, bugs, families), families, args.markdown))
    print(f"# computed in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
