"""``oipr-bench reproduce``: recompute the paper's Table A1, C1 or C2 and compare.

Exit code 0 when every value matches the paper under the table's rule
(see :mod:`oipr_bench.reports.reproduce`), 1 otherwise.
"""

from __future__ import annotations

import argparse
import sys

from ..reports.reproduce import FORMATS, TABLES, render, reproduce


def _table(value: str) -> str:
    key = value.upper()
    if key not in TABLES:
        raise argparse.ArgumentTypeError(f"invalid table {value!r} (choose from {', '.join(TABLES)})")
    return key


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``reproduce`` sub-command."""
    parser = subparsers.add_parser(
        "reproduce",
        help="recompute the paper's Table A1 (or C1, C2) and mark every value that differs",
        description="Recompute the paper's Table A1 (25 cases x 7 evaluators, P/R/F1), Table C1 (long/short "
        "threshold) or Table C2 (OIPR attenuations) with the built-in evaluators, mark every value that "
        "differs from the paper and print a summary line. Exit code 0 when everything matches, 1 otherwise.",
    )
    parser.add_argument("--table", type=_table, default="A1", metavar="{A1,C1,C2}", help="table to reproduce (default A1)")
    parser.add_argument("--format", choices=FORMATS, default="table", help="output format (default table)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    result = reproduce(args.table)
    sys.stdout.write(render(result, args.format))
    return 0 if result.ok else 1
