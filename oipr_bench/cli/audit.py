"""``oipr-bench audit``: the characteristic profile of an evaluator, without pytest.

Exit code 0 when the profile matches the expectations (OIPR's row of Table 5
unless deviations are declared) and nothing failed, 1 otherwise, 2 on a usage
error (bad module path, bad ``--param``, unknown characteristic or value).

Its options are spelled once here (:func:`add_run_options`) and shared by ``report`` and
``atlas --evaluator``: the evaluator's parameters (``--param``), the declared expectations
(``--expect``, ``--expect-file``), what it takes and returns (``--input``, ``--lower-is-better``,
``--bounds``), how it runs (``--timeout``, ``--isolate``, ``--hypothesis-examples``, ``--suite``, ``--cases``) and
the reference comparison (``--reference``, ``--differential``, ...).  Their values become one :class:`~oipr_bench.auditing.options.AuditOptions` through
:func:`~oipr_bench.auditing.options.options_from_flags`, the rule the pytest plugin uses too (with
its ``--oipr-`` spellings); the three commands exit alike (:func:`exit_code`).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from typing import TYPE_CHECKING, Any, Iterator

from ..io import atomic_write_text, check_output, output_name_problem

if TYPE_CHECKING:  # pragma: no cover
    from ..auditing.options import AuditOptions
    from ..auditing.profile.results import Profile


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``audit`` sub-command."""
    parser = subparsers.add_parser(
        "audit",
        help="profile an evaluator on the special-scenario dataset (Table 5 row, evidence, P/R/F1 per case)",
        description="Run an evaluator on the 25 special-scenario cases, derive the ten characteristics of the "
        "paper's Table 5 with their evidence, and compare them with the expected profile (OIPR's row unless "
        "--expect declares deviations). Exit code 0 when everything is as expected, 1 otherwise.",
    )
    parser.add_argument("evaluator", help="a built-in name (OIPR, PA, ...), pkg.mod:Name, pkg.mod.Name or file.py:Name")
    add_run_options(parser)
    parser.add_argument("--format", choices=("table", "markdown", "json"), default="table", help="output format (default table)")
    parser.add_argument("--output", "-o", metavar="PATH", help="write the output to PATH (atomically) instead of stdout")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress bar of the --differential run (none is drawn when stderr is not a terminal)")
    parser.set_defaults(func=run)


#: The destinations of :func:`add_run_options` and their flags (for "needs --evaluator" messages).
RUN_OPTIONS: dict[str, str] = {
    "param": "--param", "expect": "--expect", "expect_file": "--expect-file", "reference": "--reference",
    "reference_param": "--reference-param", "against": "--against", "tolerance": "--tolerance",
    "timeout": "--timeout", "isolate": "--isolate", "hypothesis_examples": "--hypothesis-examples",
    "profile_only": "--profile-only", "input": "--input", "lower_is_better": "--lower-is-better", "bounds": "--bounds", "cases": "--cases",
    "differential": "--differential", "seed": "--seed", "shrink_budget": "--shrink-budget", "suite": "--suite",
}


def add_run_options(parser: argparse.ArgumentParser, *, param_aliases: tuple[str, ...] = ()) -> None:
    """Add the evaluator, expectation, run and reference options (``param_aliases``: old spellings of ``--param``)."""
    parser.add_argument("--param", *param_aliases, dest="param", action="append", default=[], metavar="KEY=VALUE",
                        help="evaluator parameter (repeatable; values parsed as JSON where they parse)")
    parser.add_argument("--expect", action="append", default=[], metavar="NAME=VALUE",
                        help="declare an expected characteristic value, or a sanity check yes/no (repeatable)")
    parser.add_argument("--expect-file", metavar="PATH", help="TOML or JSON file of characteristic = value declarations")
    parser.add_argument("--reference", metavar="NAME", help="also compare every case with this built-in evaluator; its own Table 5 and property row "
                        "become the expected profile (a score evaluator, e.g. VUS-PR, with --input scores: "
                        "its stored numbers on every case, and generated cases with --differential; NAB, for an evaluator "
                        "returning one number from 0/1 predictions, on the generated 0/1 pairs)")
    parser.add_argument("--reference-param", action="append", default=[], metavar="KEY=VALUE", help="parameter for --reference")
    parser.add_argument("--against", choices=("reference", "paper"), default=None,
                        help="with --reference: compare with our reference values (default) or the paper's Table A1")
    parser.add_argument("--tolerance", type=float, default=None,
                        help="with --reference: tolerance of the comparison (default 1e-9)")
    parser.add_argument("--profile-only", action="store_true",
                        help="read the observed profile only, with no expected row: every characteristic and property "
                        "is reported, not judged against OIPR's row; exit 0 unless a case or a sanity check fails")
    parser.add_argument("--cases", metavar="FILE", default=None,
                        help="add your own cases: a JSON file in the dataset's scenario format (schema/scenario.schema.json)")
    parser.add_argument("--timeout", type=float, metavar="SECONDS", help="end any single call after SECONDS (worker process)")
    parser.add_argument("--isolate", action="store_true", help="run every call in a worker process")
    parser.add_argument("--hypothesis-examples", type=int, default=0, metavar="N",
                        help="add the property-search sanity check: a derandomized hypothesis search of N examples "
                        "per model-free property (default 0 = off)")
    parser.add_argument("--differential", type=int, default=0, metavar="N",
                        help="with --reference: also compare with it on N generated series pairs per family, shrinking "
                        "the first difference (default 0 = off)")
    parser.add_argument("--seed", type=int, default=None, help="with --differential: seed of the generated pairs (default 0)")
    parser.add_argument("--shrink-budget", type=float, default=None, metavar="SECONDS",
                        help="with --differential: seconds the shrinking may take (default 30)")
    add_declaration_options(parser)
    parser.add_argument("--suite", choices=("table5", "properties", "all"), default=None,
                        help="what to run: the paper's Table 5 (default for 0/1 input), the metric properties "
                        "(docs/properties.md), or all (default with --input scores)")


def add_declaration_options(parser: argparse.ArgumentParser) -> None:
    """``--input``, ``--lower-is-better`` and ``--bounds``: what the evaluator takes and returns."""
    parser.add_argument("--input", choices=("binary", "scores"), default=None,
                        help="what the evaluator takes: binary 0/1 predictions (default) or scores (y_pred as float64)")
    parser.add_argument("--lower-is-better", action="store_true",
                        help="the evaluator's one-number score is better when lower")
    parser.add_argument("--bounds", metavar="LO:HI", default=None,
                        help="range of the evaluator's one-number score, an empty end open (e.g. 0: ); default 0:1")


def declarations_from(args: argparse.Namespace) -> dict[str, Any]:
    """The values of :func:`add_declaration_options`, as :func:`~oipr_bench.auditing.options.options_from_flags` takes them."""
    return {"input_kind": args.input, "lower_is_better": args.lower_is_better, "bounds": args.bounds}


def options_from(args: argparse.Namespace) -> "AuditOptions":
    """The audit options of the command line (errors name the command's flags)."""
    from ..auditing.options import CLI_FLAGS, options_from_flags

    return options_from_flags({
        "timeout": args.timeout, "isolate": args.isolate, "reference": args.reference,
        "reference_param": args.reference_param, "against": args.against, "tolerance": args.tolerance,
        "hypothesis_examples": args.hypothesis_examples, "expect": args.expect,
        "expect_file": args.expect_file, "suite": getattr(args, "suite", None), "differential": args.differential,
        "seed": args.seed, "shrink_budget": args.shrink_budget, "cases": args.cases, **declarations_from(args),
        "profile_only": getattr(args, "profile_only", False),
    }, CLI_FLAGS)


def given_run_options(args: argparse.Namespace) -> list[str]:
    """The flags of :func:`add_run_options` given on the command line (those not at their default)."""
    defaults = {"param": [], "expect": [], "reference_param": [], "isolate": False, "hypothesis_examples": 0,
                "lower_is_better": False, "differential": 0, "profile_only": False}
    return [flag for dest, flag in RUN_OPTIONS.items() if getattr(args, dest, None) != defaults.get(dest)]


def exit_code(profile: "Profile", command: str, quiet: bool = False) -> int:
    """0 when ``profile`` has no problem, else 1; the problems go to stderr (one line each) unless ``quiet``."""
    if not quiet:
        for line in profile.failures():
            print(f"oipr-bench {command}: {line}", file=sys.stderr)
    return 0 if profile.ok else 1


@contextlib.contextmanager
def cli_phrased() -> Iterator[None]:
    """An :class:`~oipr_bench.auditing.options.OptionError` raised inside (a declaration the suite never
    checks, or one that does not apply to the evaluator's kind) re-phrased with this command's flags."""
    from ..auditing.options import CLI_FLAGS, OptionError
    from ..errors import UsageError

    try:
        yield
    except OptionError as exc:
        raise UsageError(exc.phrased(CLI_FLAGS)) from None


def output_path(output: str | None) -> str | None:
    """``output`` fixed against the current folder before any user code runs.

    An evaluator calling ``os.chdir`` must not move the file (``os.path.join`` keeps a trailing
    ``/``, which the writer refuses as a folder). ``-o ''`` and ``-o -`` are refused
    (:func:`~oipr_bench.io.output_name_problem`): without ``-o`` the output goes to stdout.
    """
    if output is None:
        return None
    problem = output_name_problem(output)
    if problem:
        from ..errors import UsageError

        raise UsageError(f"-o {output!r}: {problem}")
    return os.path.join(os.getcwd(), output)


def run(args: argparse.Namespace) -> int:
    from ..auditing.profile.profiles import AuditSession
    from ..auditing.calling.resolve import parse_params, resolve
    from ..auditing.progress import progress_bar

    output = output_path(args.output)
    options = options_from(args)
    resolved = resolve(args.evaluator, parse_params(args.param, option="--param"))
    if output:
        check_output(output)  # before the audit: never over the evaluator source or the expect file
    with cli_phrased():
        with AuditSession(resolved, options) as session:
            profile = session.run_all(progress=lambda total, unit: progress_bar(total, unit, desc="differential",
                                                                                quiet=args.quiet))
    text = profile.format(args.format)
    if output:
        atomic_write_text(output, text)
    else:
        sys.stdout.write(text)
    return exit_code(profile, "audit")  # with --format json too: the problems, one line each, on stderr
