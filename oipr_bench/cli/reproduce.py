"""``oipr-bench reproduce``: recompute a paper table and compare every value with the printed one.

Tables A1, C1 and C2 come from the special-scenario dataset the package ships
(:mod:`oipr_bench.reports.reproduce`). Tables 6, 7 and 8 (their SMD rows) come from the paper
authors' published SMD slice, which the package does not ship: ``--data DIR`` names the folder
holding their ``SMD_*.csv`` (:mod:`oipr_bench.reports.smd_tables`). ``--table nab --data DIR`` recomputes NAB's scoreboard and
per-file score tables from a NAB folder (:mod:`oipr_bench.reports.nab_reproduce`; ``--optimize`` searches
the thresholds again as NAB's current optimiser does). ``--evaluator SPEC`` (any
shape ``oipr-bench audit`` accepts, with its ``--param``, ``--input``, ``--lower-is-better``,
``--bounds``, ``--timeout`` and ``--isolate``) adds the user's column and ranking.

Exit code 0 when every value matches the paper under the table's rule (and the user's
evaluator ran on every detector), 1 otherwise, 2 on a usage error (a missing or bad CSV, a bad
evaluator specification).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import UsageError

from ..reports.reproduce import FORMATS, TABLES, render, reproduce

#: The SMD tables (rows of dataset SMD of Tables 6, 7 and 8).
SMD_TABLES: tuple[str, ...] = ("6", "7", "8")
#: NAB's scoreboard and per-file score tables, from a NAB folder (``--data DIR``).
NAB_TABLE = "NAB"
_CHOICES = (*TABLES, *SMD_TABLES, NAB_TABLE)
#: Options that only make sense with an SMD table, and their flags.
_SMD_ONLY = {"data": "--data", "evaluator": "--evaluator", "param": "--param", "input": "--input",
             "lower_is_better": "--lower-is-better", "bounds": "--bounds", "timeout": "--timeout", "isolate": "--isolate"}


def _table(value: str) -> str:
    key = value.upper()
    if key not in _CHOICES:
        raise argparse.ArgumentTypeError(f"invalid table {value!r} (choose from {', '.join(_CHOICES[:-1])}, nab)")
    return key


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``reproduce`` sub-command."""
    parser = subparsers.add_parser(
        "reproduce",
        help="recompute the paper's Table A1 (or C1, C2, 6-8 on SMD, or NAB's scoreboard) and mark every value that differs",
        description="Recompute the paper's Table A1 (25 cases x 7 evaluators, P/R/F1), Table C1 (long/short "
        "threshold) or Table C2 (OIPR attenuations) with the built-in evaluators, the SMD rows of Tables 6, 7 "
        "and 8 from the authors' SMD slice (--data DIR), or NAB's scoreboard and per-file score tables from a NAB "
        "folder (--table nab --data DIR), mark every value that differs and print a summary line. Exit code 0 when "
        "everything matches, 1 otherwise.",
    )
    parser.add_argument("--table", type=_table, default="A1", metavar="{A1,C1,C2,6,7,8,nab}",
                        help="table to reproduce (default A1); 6, 7, 8 and nab need --data")
    parser.add_argument("--format", choices=FORMATS, default="table", help="output format (default table)")
    smd = parser.add_argument_group("Tables 6, 7 and 8 (SMD), and NAB")
    smd.add_argument("--data", metavar="DIR", help="folder holding the authors' SMD_*.csv (gt,pred columns); "
                     "with --table nab, a NAB checkout or a copy in NAB's layout (.csv or .csv.gz)")
    smd.add_argument("--optimize", action="store_true",
                     help="with --table nab: search the thresholds again as NAB's current optimiser does and print "
                     "them beside config/thresholds.json")
    smd.add_argument("--evaluator", metavar="SPEC",
                     help="also rank the detectors with your evaluator: a built-in name, pkg.mod:Name, pkg.mod.Name "
                     "or file.py:Name (as oipr-bench audit takes it)")
    smd.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                     help="parameter of --evaluator (repeatable; values parsed as JSON where they parse)")
    _add_declaration_options(smd)
    smd.add_argument("--timeout", type=float, metavar="SECONDS", help="end any single call of --evaluator after SECONDS")
    smd.add_argument("--isolate", action="store_true", help="call --evaluator in a worker process")
    parser.set_defaults(func=run)


def _add_declaration_options(group: argparse._ArgumentGroup) -> None:
    """``--input``, ``--lower-is-better``, ``--bounds`` as ``oipr-bench audit`` spells them.

    Spelled here rather than imported from :mod:`oipr_bench.cli.audit` so that a command line imports
    only its own command module; ``tests/test_reproduction_smd.py`` checks the two stay alike.
    """
    group.add_argument("--input", choices=("binary", "scores"), default=None,
                       help="what --evaluator takes: binary 0/1 predictions (default) or scores (y_pred as float64)")
    group.add_argument("--lower-is-better", action="store_true",
                       help="--evaluator's one-number score is better when lower")
    group.add_argument("--bounds", metavar="LO:HI", default=None,
                       help="range of --evaluator's one-number score, an empty end open (e.g. 0: ); default 0:1")


def _check_combination(args: argparse.Namespace) -> None:

    defaults = {"param": [], "lower_is_better": False, "isolate": False}
    given = [flag for dest, flag in _SMD_ONLY.items() if getattr(args, dest) != defaults.get(dest)]
    if args.table == NAB_TABLE:
        from ..reports.nab_reproduce import NAB_FORMATS

        extra = [flag for flag in given if flag != "--data"]
        if extra:
            raise UsageError(f"{', '.join(extra)}: not with --table nab (it compares NAB's published numbers; "
                             "rank your evaluator on NAB with oipr-bench realdata)")
        if not args.data:
            raise UsageError("--table nab needs --data DIR, a NAB checkout or a copy in NAB's layout "
                             "(labels/, config/, results/; get it from https://github.com/numenta/NAB)")
        if args.format not in NAB_FORMATS:
            raise UsageError(f"--format {args.format}: --table nab prints {' or '.join(NAB_FORMATS)}")
        return
    if args.optimize:
        raise UsageError("--optimize: only with --table nab")
    if args.table not in SMD_TABLES:
        if given:
            raise UsageError(f"{', '.join(given)}: only with --table 6, 7 or 8 (the SMD tables)")
        return
    if not args.data:
        from ..reference.smd import SOURCE_FOLDER, SOURCE_REPOSITORY

        raise UsageError(f"--table {args.table} needs --data DIR, a folder holding the authors' SMD_*.csv; get them "
                         f"from the authors' repository {SOURCE_REPOSITORY} (folder {SOURCE_FOLDER})")
    extra = [flag for flag in given if flag not in ("--data", "--evaluator")]
    if extra and not args.evaluator:
        raise UsageError(f"{', '.join(extra)} need{'s' if len(extra) == 1 else ''} --evaluator")
    if args.timeout is not None:
        from ..auditing.calling.runner import MAX_TIMEOUT

        if not 0 < args.timeout <= MAX_TIMEOUT:
            raise UsageError(f"--timeout must be a positive number of seconds up to {MAX_TIMEOUT:g}, got {args.timeout:g}")
    if args.bounds is not None:
        from ..auditing.calling.declarations import parse_bounds

        args.bounds = parse_bounds(args.bounds, where="--bounds")


def run(args: argparse.Namespace) -> int:
    _check_combination(args)
    if args.table == NAB_TABLE:
        return _run_nab(args)
    if args.table in SMD_TABLES:
        return _run_smd(args)
    result = reproduce(args.table)
    sys.stdout.write(render(result, args.format))
    return 0 if result.ok else 1


def _refuse_inapplicable(args: argparse.Namespace, user: Any) -> None:
    """Refuse ``--lower-is-better`` or ``--bounds`` for an evaluator that returned precision and recall, as audit does
    (:func:`oipr_bench.auditing.declared.inapplicable_declaration`); nothing is refused while no call succeeded."""
    from types import SimpleNamespace

    from ..auditing.declared import inapplicable_declaration
    from ..auditing.option_names import CLI_FLAGS

    if not user.scores:  # the kind is unknown: every call failed, and the failures are the report
        return
    declared = SimpleNamespace(higher_is_better=False if args.lower_is_better else None, bounds=args.bounds,
                               reference=None)
    problem = inapplicable_declaration(declared, user.kind, user.name)
    if problem is not None:
        raise UsageError(problem.phrased(CLI_FLAGS))


def _run_smd(args: argparse.Namespace) -> int:
    from ..auditing.calling.resolve import parse_params
    from ..reference.smd import TABLE_DETECTORS, load_smd
    from ..reports.smd_render import render_smd
    from ..reports.smd_tables import reproduce_smd, run_user_evaluator

    detectors = TABLE_DETECTORS[args.table]
    data = load_smd(args.data, detectors)
    user = None
    if args.evaluator:
        user = run_user_evaluator(args.evaluator, parse_params(args.param, option="--param"), data, detectors,
                                  timeout=args.timeout, isolate=args.isolate, input_kind=args.input,
                                  higher_is_better=False if args.lower_is_better else None, bounds=args.bounds)
        _refuse_inapplicable(args, user)
    result = reproduce_smd(args.table, args.data, user=user, data=data)
    sys.stdout.write(render_smd(result, args.format))
    return 0 if result.ok else 1


def _run_nab(args: argparse.Namespace) -> int:
    from ..reports.nab_reproduce import render_nab, reproduce_nab

    result = reproduce_nab(args.data, optimize=args.optimize)
    sys.stdout.write(render_nab(result, args.format))
    return 0 if result.ok else 1
