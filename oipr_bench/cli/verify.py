"""``oipr-bench verify REPORT.json``: recompute a report and say whether every number and verdict is reproduced.

Exit code 0 when everything is reproduced, 1 when something is not (each named on its own
line), 2 on a usage error (no such file, not a report, an evaluator that cannot be resolved, or
whose code lies outside the report's folder and the working directory without ``--evaluator``: a module
built or frozen into the interpreter, or an object reached through an allowed module's attributes, too).
Before importing an evaluator's code it says, on stderr, which file or folder it imports.
See :mod:`oipr_bench.auditing.profile.verify` for what is compared.
"""

from __future__ import annotations

import argparse
import math
import os
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..auditing.calling.trust import CodeFolders


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``verify`` sub-command."""
    parser = subparsers.add_parser(
        "verify",
        help="recompute a JSON report and say whether every number and verdict is reproduced",
        description="Read a JSON report (pytest --oipr-report or oipr-bench audit --format json), run the same audit "
        "again (same evaluator, parameters, options, declared expectations, cases, differential seed) and compare "
        "every number and verdict. Exit code 0 when everything is reproduced, 1 otherwise.",
    )
    parser.add_argument("report", metavar="REPORT.json", help="the JSON report to recompute")
    parser.add_argument("--evaluator", metavar="SPEC", default=None,
                        help="the evaluator to run, when the report's spec does not resolve here (e.g. a function "
                        "passed to audit() in Python), or to allow code outside the report's folder and the working "
                        "directory")
    parser.add_argument("--tolerance", type=float, default=None,
                        help="absolute tolerance of a recomputed number (default 1e-12)")
    parser.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                        help="end any single evaluator call after SECONDS (default: the report's)")
    parser.set_defaults(func=run)


def report_code_folders(report_path: str) -> "CodeFolders":
    """Where the code a report names may come from: the report's folder, the working directory, oipr-bench's own.

    A report is data; ``verify`` runs the code it names.  Code in the report's folder or the working
    directory (or oipr-bench's own) is what the user has at hand; anything else, a module built or
    frozen into the interpreter included, must be named with ``--evaluator``
    (:class:`~oipr_bench.auditing.calling.trust.CodeFolders`: checked before anything is imported,
    and again for every object reached, before anything is constructed or called).
    """
    from ..auditing.calling.trust import CodeFolders

    own = Path(__file__).resolve().parents[1]
    folders = (Path(report_path).resolve().parent, Path.cwd().resolve(), own)

    def refusal(spec: str, whose: str) -> str:
        return (f"{report_path}: the report names evaluator {spec!r}, {whose}, outside the report's folder and the "
                f"working directory; verify runs it only when you name it: oipr-bench verify {report_path} "
                f"--evaluator {shlex.quote(spec)}")

    return CodeFolders(folders, refusal)


def run(args: argparse.Namespace) -> int:
    from ..auditing.profile.results import Profile
    from ..auditing.run_record import present_items
    from ..auditing.profile.verify import DEFAULT_VERIFY_TOLERANCE, NOT_COMPARED, summary, verify
    from ..errors import FixtureError, UsageError
    from ..guards import UnreadableFile, loads_json, read_regular_bytes

    tolerance = DEFAULT_VERIFY_TOLERANCE if args.tolerance is None else args.tolerance
    if not (tolerance >= 0 and math.isfinite(tolerance)):  # as audit refuses it: inf would compare nothing
        raise UsageError(f"--tolerance must be a finite non-negative number, got {args.tolerance}")
    within = "" if tolerance == DEFAULT_VERIFY_TOLERANCE else f" within {tolerance:g} (default {DEFAULT_VERIFY_TOLERANCE:g})"
    try:
        data = read_regular_bytes(args.report)
    except UnreadableFile as exc:
        raise UsageError(f"{args.report}: {exc}") from None
    if data.lstrip()[:1] == b"<" or Path(args.report).suffix.lower() in (".html", ".htm"):
        raise UsageError(f"{args.report}: an HTML report, which verify cannot recompute (it holds pictures, not "
                         "every number); verify the JSON report of the same run (oipr-bench audit --format json, "
                         "pytest --oipr-report)")
    try:
        doc = loads_json(data.decode("utf-8"))
    except UnreadableFile as exc:
        raise UsageError(f"{args.report}: {exc}") from None
    except ValueError as exc:  # not UTF-8, not JSON
        raise FixtureError(f"not a JSON report: {exc}", file=args.report) from None
    report = Profile.from_dict(doc, source=args.report)
    from ..auditing.calling.trust import spec_location

    spec = args.evaluator or report.evaluator
    code_from = None if args.evaluator else report_code_folders(args.report)
    where = code_from.check_spec(spec) if code_from is not None else spec_location(spec)
    if where is not None:
        print(f"verify: importing evaluator {spec!r} from {where}", file=sys.stderr)
    result = verify(report, evaluator=args.evaluator, tolerance=tolerance, timeout=args.timeout, code_from=code_from)
    what = ", ".join(summary(report)) or "no items"
    notes = []
    if args.evaluator and args.evaluator.strip() != report.evaluator:
        notes.append(f"evaluator {args.evaluator!r} run in place of the report's {report.evaluator!r} (--evaluator)")
    partial = report.run.describe(present_items(report))
    if partial and result.ok:
        notes.append(f"{partial} (the report says so: ok false)")
    if result.ok:
        print(f"verify: {args.report}: reproduced{within}: all {result.numbers} numbers and {result.verdicts} verdicts "
              f"({what}); signature {report.signature}")
        for note in notes:
            print(f"  note: {note}")
        return 0
    print(f"verify: {args.report}: NOT reproduced{within}: {len(result.problems)} problem(s) among {result.numbers} numbers "
          f"and {result.verdicts} verdicts compared ({what}):")
    for line in result.problems:
        print(f"  {line}")
    for note in notes:
        print(f"  note: {note}")
    print(f"  not compared: {NOT_COMPARED}")
    print(f"signature {report.signature}")
    return 1
