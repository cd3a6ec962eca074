"""``oipr-bench reference``: regenerate (``--write``) or verify (``--check``) reference_results/.

Without an option it lists the reference files and whether they exist.
``--check`` recomputes every value and compares with the stored files
(numbers within 1e-12); exit code 1 when anything differs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .. import reference
from .._paths import source_root


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``reference`` sub-command."""
    parser = subparsers.add_parser(
        "reference",
        help="regenerate (--write) or verify (--check) the stored reference results",
        description="Recompute the reference results (every evaluator on every case, the score evaluators too, Table C1 and C2 "
        "computations, every evaluator on every metric property, the score evaluators' Table 5 rows) and write them to reference_results/ (--write) or compare them with the stored "
        "files (--check, numbers within 1e-12; exit code 1 on any difference).",
    )
    parser.add_argument("--write", action="store_true", help="recompute and write the files (atomic writes)")
    parser.add_argument("--check", action="store_true", help="recompute and compare with the stored files")
    parser.add_argument(
        "--dir", type=Path, default=None, metavar="DIR",
        help="folder of the reference files (default: the shipped reference_results/; "
        "required with --write when oipr-bench is installed as a package)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..errors import UsageError

    if args.write and args.check:
        raise UsageError("give --write or --check, not both")
    if args.check and args.dir is not None and not args.dir.is_dir():
        what = "is not a folder" if args.dir.exists() else "no such folder"
        raise UsageError(f"--dir {args.dir}: {what} (nothing to check)")
    if args.write and args.dir is None and source_root() is None:
        raise UsageError(
            "--write needs --dir DIR: oipr-bench is installed as a package, so there is no source "
            "checkout whose reference_results/ folder could be rewritten"
        )
    from ..auditing.profile.property_reference import (PROPERTIES_FILE, check_property_reference,
                                               write_property_reference)
    from ..reports.score_table5 import TABLE5_FILE, check_score_table5, write_score_table5

    if args.write:
        from ..io import make_output_folder, regenerating

        with regenerating("reference_results"):  # the checkout's reference_results/, nothing else of oipr-bench
            make_output_folder(reference.reference_dir(args.dir))  # refused before the work when it is oipr-bench's
            for path in reference.write_reference(args.dir):
                print(f"wrote {path}")
            print(f"wrote {write_property_reference(args.dir)}")
            print(f"wrote {write_score_table5(args.dir)}")
        return 0
    if args.check:
        problems = reference.check_reference(args.dir) + check_property_reference(args.dir) + check_score_table5(args.dir)
        for line in problems:
            print(line)
        n_files = len(reference.SCORE_FILES) + len(reference.SCORE_VALUE_FILES) + 4
        if problems:
            print(f"reference results: {len(problems)} difference(s); run `oipr-bench reference --write` if intended", file=sys.stderr)
            return 1
        print(f"reference results: {n_files} files up to date (tolerance {reference.CHECK_TOLERANCE:g})")
        return 0
    directory = args.dir if args.dir is not None else reference.reference_dir(None)
    for name in [*reference.SCORE_FILES.values(), *reference.SCORE_VALUE_FILES.values(), reference.C2_FILE, reference.C1_FILE, PROPERTIES_FILE, TABLE5_FILE]:
        state = "present" if (Path(directory) / name).is_file() else "missing"
        print(f"{Path(directory) / name}: {state}")
    print("use --write to regenerate or --check to verify")
    return 0
