"""``oipr-bench score-differential SPEC --reference VUS-PR``: a score evaluator against a built-in.

Runs :func:`oipr_bench.auditing.regression.score_differential.run_score_differential`: the evaluator
``SPEC`` (``pkg.mod:Name``, ``pkg.mod.Name``, ``file.py:Name`` or a built-in score evaluator's
name) and the built-in ``--reference`` on the generated cases of every score family, and
prints one line per family, or the shrunk counterexample with a line to paste into a test.  A
progress bar over the cases is drawn on stderr when it is a terminal (not with ``--quiet``).
Exit code 0 when every family agrees, 1 when one differs, 2 on a usage error.
"""

from __future__ import annotations

import argparse
import math
from typing import Any

HELP = "compare a score evaluator (y_true, scores) -> float with a built-in (AUC, R-AUC, VUS) on generated cases"


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``score-differential`` sub-command."""
    parser = subparsers.add_parser(
        "score-differential", help=HELP,
        description="Call the evaluator and the built-in score evaluator --reference on the first N cases of every "
        "score family (rank ties, plateaus, near ties, one value, events at the ends, window edges, long series, "
        "...), shrink the first case on which they differ and print it with a reproduction. Exit code 0 when every "
        "family agrees, 1 otherwise.")
    parser.add_argument("evaluator", help="pkg.mod:Name, pkg.mod.Name, file.py:Name, or a built-in score evaluator's name")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                        help="parameter of a built-in evaluator given by name (repeatable)")
    parser.add_argument("--reference", required=True, help="the built-in score evaluator to compare with (VUS-PR, AUC-ROC, ...)")
    parser.add_argument("--reference-param", action="append", default=[], metavar="KEY=VALUE",
                        help="parameter of the reference (repeatable; e.g. sliding_window=100)")
    parser.add_argument("-n", "--cases", type=int, default=100, metavar="N", help="cases per family (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the generated cases (default 0)")
    parser.add_argument("--family", action="append", default=None, metavar="NAME", help="run only this family (repeatable)")
    parser.add_argument("--tolerance", type=float, default=1e-9, help="absolute tolerance (default 1e-9)")
    parser.add_argument("--shrink-budget", type=float, default=30.0, metavar="SECONDS",
                        help="seconds the shrinking of a counterexample may take (default 30)")
    parser.add_argument("-x", "--fail-fast", action="store_true",
                        help="stop at the first family that differs (the quick way to a first counterexample)")
    parser.add_argument("--timeout", type=float, metavar="SECONDS",
                        help="end any single call of the evaluator after SECONDS (worker process), as audit does")
    parser.add_argument("--isolate", action="store_true",
                        help="run every call of the evaluator in a worker process (a crash is a difference, not the end)")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress bar (none is drawn when stderr is not a terminal)")
    parser.set_defaults(func=run)


def _evaluator(spec: str, params: dict):
    from ..auditing.calling.resolve import load_object
    from ..errors import UsageError
    from ..evaluators import SCORE_NAMES, get

    if spec in SCORE_NAMES:
        try:
            return get(spec, **params)
        except (TypeError, ValueError) as exc:
            raise UsageError(str(exc)) from None
    if params:
        raise UsageError("--param applies to a built-in evaluator given by name; pass your own evaluator's settings in code")
    obj = load_object(spec)
    if isinstance(obj, type):
        obj = obj()
    if not callable(obj):
        raise UsageError(f"evaluator {spec!r} is not callable")
    return obj


def run(args: argparse.Namespace) -> int:
    from ..auditing.calling.resolve import parse_params
    from ..auditing.regression.score_differential import run_score_differential
    from ..errors import UsageError
    from ..testing.score_families import SCORE_FAMILIES

    evaluator = _evaluator(args.evaluator, parse_params(args.param, option="--param"))
    reference_params = parse_params(args.reference_param, option="--reference-param")
    from ..auditing.options import MAX_DIFFERENTIAL

    if not (args.tolerance >= 0 and math.isfinite(args.tolerance)):  # as audit and verify refuse it
        raise UsageError(f"--tolerance must be a finite non-negative number, got {args.tolerance}")
    if not (args.shrink_budget >= 0 and math.isfinite(args.shrink_budget)):
        raise UsageError(f"--shrink-budget must be a finite non-negative number of seconds, got {args.shrink_budget}")
    if args.cases > MAX_DIFFERENTIAL:  # as audit's --differential
        raise UsageError(f"-n must be at most {MAX_DIFFERENTIAL} cases per family, got {args.cases}")
    repeated = sorted({f for f in args.family or () if args.family.count(f) > 1})
    if repeated:
        raise UsageError(f"--family {repeated[0]} given twice: each family runs once")
    from ..auditing.calling.runner import Caller
    from ..auditing.regression.score_differential import one_number

    try:  # the audit's guarded call: SystemExit, a mutated input, a timeout or a crash is a difference, named
        caller = Caller(evaluator, timeout=args.timeout, isolate=args.isolate, input_kind="scores")
    except ValueError as exc:
        raise UsageError(f"--timeout: {exc}") from None
    from ..auditing.progress import progress_bar

    def progress(total: int, unit: str) -> Any:
        return progress_bar(total=total, unit=unit, desc="score-differential", quiet=args.quiet)

    try:
        with caller:
            results = run_score_differential(one_number(caller), args.reference, reference_params, n=args.cases, seed=args.seed,
                                             families=args.family or SCORE_FAMILIES, tolerance=args.tolerance,
                                             shrink_budget=args.shrink_budget, fail_fast=args.fail_fast, progress=progress)
    except (TypeError, ValueError) as exc:  # an unknown reference, family, parameter or case count
        raise UsageError(str(exc)) from None
    for result in results:
        if result.status == "passed":
            print(f"{result.family}: passed: {result.message}")
        else:
            print(f"{result.family}: FAILED: {result.message}")
    failed = sum(1 for r in results if r.status != "passed")
    planned = len(args.family or SCORE_FAMILIES)
    stopped = ""
    if len(results) < planned and results[-1].shrink_abandoned:
        stopped = (f"; stopped: the evaluator is not called again after an abandoned call (its state is not trusted): "
                   f"{planned - len(results)} not run")
    elif len(results) < planned:
        stopped = f"; stopped at the first that differs (-x): {planned - len(results)} not run"
    print(f"score-differential {args.evaluator} vs {args.reference}: {len(results) - failed} families agree, {failed} differ"
          f"{stopped}")
    return 1 if failed else 0
