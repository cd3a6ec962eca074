"""``oipr-bench verify REPORT.json``: recompute a report and say whether every number and verdict is reproduced.

Exit code 0 when everything is reproduced, 1 when something is not (each named on its own
line), 2 on a usage error (no such file, not a report, an evaluator that cannot be resolved).
See :mod:`oipr_bench.auditing.profile.verify` for what is compared.
"""

from __future__ import annotations

import argparse


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
                        "passed to audit() in Python)")
    parser.add_argument("--tolerance", type=float, default=None,
                        help="absolute tolerance of a recomputed number (default 1e-12)")
    parser.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                        help="end any single evaluator call after SECONDS (default: the report's)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..auditing.profile.results import Profile
    from ..auditing.profile.verify import DEFAULT_VERIFY_TOLERANCE, summary, verify
    from ..errors import FixtureError, UsageError
    from ..guards import UnreadableFile, loads_json, read_regular_bytes

    tolerance = DEFAULT_VERIFY_TOLERANCE if args.tolerance is None else args.tolerance
    if not tolerance >= 0:
        raise UsageError(f"--tolerance must be a non-negative number, got {args.tolerance}")
    try:
        doc = loads_json(read_regular_bytes(args.report).decode("utf-8"))
    except UnreadableFile as exc:
        raise UsageError(f"{args.report}: {exc}") from None
    except ValueError as exc:  # not UTF-8, not JSON
        raise FixtureError(f"not a JSON report: {exc}", file=args.report) from None
    report = Profile.from_dict(doc, source=args.report)
    result = verify(report, evaluator=args.evaluator, tolerance=tolerance, timeout=args.timeout)
    what = ", ".join(summary(report))
    if result.ok:
        print(f"verify: {args.report}: reproduced: all {result.numbers} numbers and {result.verdicts} verdicts "
              f"({what}); signature {report.signature}")
        return 0
    print(f"verify: {args.report}: NOT reproduced: {len(result.problems)} of {result.numbers} numbers and "
          f"{result.verdicts} verdicts differ ({what}):")
    for line in result.problems:
        print(f"  {line}")
    print(f"signature {report.signature}")
    return 1
