"""``oipr-bench profile``: Table 5 for the seven built-ins, computed beside the paper's.

Each cell shows the value our rules derive from the built-in evaluator's
scores; a cell that differs from the paper's Table 5 (or Table A1's
overestimation markers) is marked with ``*`` and printed as
``computed (paper: value)``.  Exit code 0 when all 70 cells match, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``profile`` sub-command."""
    parser = subparsers.add_parser(
        "profile",
        help="print Table 5 for the seven built-in evaluators beside the paper's, marking mismatches",
        description="Profile the seven built-in evaluators on the special-scenario dataset and print Table 5 "
        "(plus the all-1 and random overestimation rows) with every cell compared with the paper. "
        "Exit code 0 when all cells match, 1 otherwise.",
    )
    parser.add_argument("--format", choices=("table", "markdown", "json"), default="table", help="output format (default table)")
    parser.set_defaults(func=run)


def compute() -> dict[str, dict[str, str | None]]:
    """``{characteristic: {evaluator: computed value}}`` for the seven built-ins."""
    return computed()[0]


def computed() -> tuple[dict[str, dict[str, str | None]], str]:
    """:func:`compute` and the signature of the table (each built-in with its parameters, the cases' hash)."""
    from ..evaluators import NAMES
    from ..auditing.profile.profiles import audit
    from ..auditing.regression.signature import params_text
    from ..vocabulary import CHARACTERISTICS

    out: dict[str, dict[str, str | None]] = {name: {} for name in CHARACTERISTICS}
    columns = []
    for ev in NAMES:
        prof = audit(ev, sanity=False)
        columns.append(f"{ev}{params_text(prof.params)}")
        for name, value in prof.characteristics.items():
            out[name][ev] = value
    sig = "|".join([f"oipr-bench:{prof.package_version}", f"dataset:{prof.dataset_version}", "table:5",
                    f"columns:{';'.join(columns)}", "against:paper", f"fixtures:sha256.{prof.fixtures['sha256'][:12]}"])
    return out, sig


def run(args: argparse.Namespace) -> int:
    from ..evaluators import NAMES
    from ..reference.paper import table_5
    from ..auditing.profile.render import table
    from ..vocabulary import CHARACTERISTICS

    paper = table_5()
    ours, signature = computed()
    mismatches = sum(1 for n in CHARACTERISTICS for e in NAMES if ours[n][e] != paper[n][e])
    total = len(CHARACTERISTICS) * len(NAMES)
    if args.format == "json":
        doc = {
            "evaluators": list(NAMES),
            "rows": [
                {"characteristic": n, "computed": ours[n], "paper": paper[n],
                 "mismatches": [e for e in NAMES if ours[n][e] != paper[n][e]]}
                for n in CHARACTERISTICS
            ],
            "matching_cells": total - mismatches,
            "total_cells": total,
            "signature": signature,
        }
        sys.stdout.write(json.dumps(doc, indent=2) + "\n")
        return 0 if mismatches == 0 else 1
    header = ["characteristic", *NAMES]
    rows = []
    for n in CHARACTERISTICS:
        cells = []
        for e in NAMES:
            v = ours[n][e] or "-"
            cells.append(v if ours[n][e] == paper[n][e] else f"*{v} (paper: {paper[n][e]})")
        rows.append([n, *cells])
    lines = table(header, rows, markdown=args.format == "markdown")
    sys.stdout.write("\n".join(lines) + "\n")
    sys.stdout.write(f"\nsignature: {signature}")
    sys.stdout.write(f"\n{total - mismatches} of {total} cells match the paper's Table 5 and Table A1 markers"
                     + (" (* marks a mismatch)" if mismatches else "") + "\n")
    return 0 if mismatches == 0 else 1
