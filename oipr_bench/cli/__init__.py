"""The ``oipr-bench`` command line.

Layer 9 of 9 (see docs/architecture.md): may import every layer below it; never ``pytest_plugin`` (the other front end).

Each sub-command lives in its own module of this package and exposes
``register(subparsers)``, which adds its parser and sets ``func`` (a callable
``func(args) -> int`` returning the exit code).

Only the module of the command being run is imported, so ``oipr-bench --help``
and every light command work even when a heavy dependency (pandas, matplotlib)
is broken or missing; :data:`COMMANDS` holds the one-line help ``--help``
prints without importing anything.

Errors the user can fix (bad path, bad parameter, unknown name, bad file) end
with exit code 2 and one line on stderr; any other exception (a bug, or the
interpreter's state broken by user code) with exit code 3 and one line saying
whether the asked-for output was written; ``--debug`` shows the traceback. A
dependency that fails to import is named in that line, with the fix.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Any, NamedTuple, Sequence

from .._version import __version__
from ..auditing.calling.flags import GivenOnce
from ..errors import OiprBenchError
from ..guards import clip, describe_exception, printable


class Command(NamedTuple):
    """One sub-command: its name, the module that implements it and its one-line help."""

    name: str
    module: str
    help: str


# One entry per sub-command, in the order ``--help`` lists them. The help must equal the one the
# module registers (a test checks it).
COMMANDS: tuple[Command, ...] = (
    Command("reproduce", "reproduce", "recompute the paper's Table A1 (or C1, C2, 6-8 on SMD, or NAB's scoreboard) and mark every value that differs"),
    Command("build-scenarios", "build_scenarios", "regenerate the special-scenario JSON fixtures and their manifest"),
    Command("reference", "reference", "regenerate (--write) or verify (--check) the stored reference results"),
    Command("audit", "audit",
            "profile an evaluator on the special-scenario dataset (Table 5 row, evidence, P/R/F1 per case)"),
    Command("profile", "profile",
            "print Table 5 for the seven built-in evaluators beside the paper's, marking mismatches"),
    Command("plot", "plot", "draw the scenario gallery or operator-interest curves"),
    Command("sweep", "sweep", "OIPR P/R/F1 over an l_dis x l_obs grid (heat maps + CSV)"),
    Command("report", "report", "audit an evaluator into one self-contained HTML page"),
    Command("atlas", "atlas", "the metric atlas: public metric implementations profiled; place your metric among them"),
    Command("verify", "verify", "recompute a JSON report and say whether every number and verdict is reproduced"),
    Command("realdata", "realdata",
            "rank NAB's real detectors on NAB's real series with every metric (and yours), with bootstrap intervals"),
    Command("score-differential", "score_differential",
            "compare a score evaluator (y_true, scores) -> float with a built-in (AUC, R-AUC, VUS) on generated cases"),
)

#: Modules of the sub-commands (kept for callers of the 0.1 name).
COMMAND_MODULES: tuple[str, ...] = tuple(c.module for c in COMMANDS)

#: Third-party packages oipr-bench imports, with the fix to print when one does not import.
DEPENDENCY_FIXES: dict[str, str] = {
    "matplotlib": "pip install 'oipr-bench[plot]'",
    **{name: f"pip install --force-reinstall {name} (pip check lists the packages it conflicts with)"
       for name in ("numpy", "pandas", "jsonschema", "hypothesis", "pytest", "tomli")},
}


class _Parser(argparse.ArgumentParser):
    """argparse parser whose usage errors are one line and exit code 2, and whose options are given once.

    A single-valued option given twice (``--bounds 0:1 --bounds 0:2``, ``--input binary --input
    scores``, ``-o a -o b``) is refused instead of the last one silently winning (conflicting or duplicate declarations are refused,
    everywhere).  Repeatable options say so
    with ``action="append"``; flags (``store_true``) may repeat harmlessly.  The plain ``store``
    action is registered as :class:`~oipr_bench.auditing.calling.flags.GivenOnce`, so argument groups and
    sub-commands (created with this class) have it too.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.register("action", None, GivenOnce)
        self.register("action", "store", GivenOnce)

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")


def command_named(argv: Sequence[str]) -> Command | None:
    """The sub-command ``argv`` runs (its first word that is not an option), or None."""
    for arg in argv:
        if arg == "--":
            return None
        if not arg.startswith("-"):
            return next((c for c in COMMANDS if c.name == arg), None)
    return None


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """Build the top-level parser.

    Parameters
    ----------
    argv : sequence of str, optional
        The command line about to be parsed. When given, only the module of the command it
        names is imported (with no command, none: the sub-commands are listed from
        :data:`COMMANDS`). When omitted, every sub-command is registered in full.
    """
    parser = _Parser(
        prog="oipr-bench",
        description="Conformance suite and special-scenario dataset for time-series anomaly detection evaluators.",
    )
    parser.add_argument("--version", action="version", version=f"oipr-bench {__version__}")
    parser.add_argument("--debug", action="store_true", help="show the full traceback on errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    wanted = command_named(argv) if argv is not None else None
    for command in COMMANDS:
        if argv is not None and command != wanted:
            sub.add_parser(command.name, help=command.help, add_help=False)
            continue
        try:
            module = importlib.import_module(f"oipr_bench.cli.{command.module}")
        except ModuleNotFoundError as exc:
            if exc.name == f"oipr_bench.cli.{command.module}":
                continue  # sub-command not part of this build
            raise
        module.register(sub)
    return parser


def dependency_failure(exc: BaseException) -> str | None:
    """One line naming the third-party package whose import failed, and the fix; None if none did.

    The package is the outermost third-party module in the traceback (or the missing module
    of a ``ModuleNotFoundError``), so a pandas that breaks on an incompatible numpy is named
    as pandas.
    """
    names = []
    tb = exc.__traceback__
    while tb is not None:
        names.append(str(tb.tb_frame.f_globals.get("__name__", "")))
        tb = tb.tb_next
    if isinstance(exc, ModuleNotFoundError) and exc.name:
        names.append(exc.name)
    for name in names:
        top = name.split(".")[0]
        if top in DEPENDENCY_FIXES:
            detail = f"{type(exc).__name__}: {exc}".splitlines()[0]
            return f"the installed {top} cannot be imported ({detail}); fix: {DEPENDENCY_FIXES[top]}"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``oipr-bench``; return the process exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        parser = build_parser(argv)
    except Exception as exc:  # noqa: BLE001 - a command module whose dependency does not import
        line = dependency_failure(exc)
        if line is None or "--debug" in argv:
            raise
        command = command_named(argv)
        print(f"oipr-bench {command.name if command else ''}".rstrip() + f": error: {line}", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    import time

    from ..io import run_scope

    started = time.time()
    try:
        with run_scope():  # no output of this command may replace a file it reads
            return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("oipr-bench: interrupted", file=sys.stderr)
        return 130
    except (OiprBenchError, ValueError, KeyError, TypeError, OSError, ImportError) as exc:
        if args.debug:
            raise
        msg = (dependency_failure(exc) if isinstance(exc, ImportError) else None) or (
            exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        )
        print(f"oipr-bench {args.command}: error: {msg}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - an unexpected error: one line, not a traceback (--debug shows it)
        if args.debug:
            raise
        print(f"oipr-bench {args.command}: internal error: {describe_exception(exc)}{_not_written(args, started)}; "
              "rerun with --debug for the traceback", file=sys.stderr)
        return INTERNAL_ERROR


#: Exit code of an unexpected error (a bug, or interpreter state broken by user code); see troubleshooting.md.
INTERNAL_ERROR = 3


def _not_written(args: argparse.Namespace, started: float) -> str:
    """`` (-o PATH was not written)`` when the command was asked for an output that it did not write."""
    import os

    output = getattr(args, "output", None)
    if not isinstance(output, str) or not output:
        return ""
    try:
        if os.stat(output).st_mtime >= started:
            return ""
    except OSError:
        pass
    return f" (-o {printable(clip(output, 200))} was not written)"


def console_main() -> None:
    """The ``oipr-bench`` program (console script and ``python -m oipr_bench``): :func:`main`, then exit.

    When an evaluator's code ran in this process, the program ends with :func:`os._exit` once stdout
    and stderr are flushed: the evaluator's ``atexit`` handlers (``os._exit(0)`` turning a failing
    audit into success) and the threads it left running (a non-daemon thread keeping the process
    alive after the report, a daemon thread writing while the interpreter shuts down) cannot change
    the exit code or hold the run. Without user code the interpreter exits normally.
    """
    code = main()
    streams = sys.modules.get("oipr_bench.auditing.calling.streams")
    if streams is None or not streams.touched[0]:
        sys.exit(code)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - a closed pipe (| head): nothing more can be said
            pass
    from ..auditing.calling.isolation import REAL_EXIT  # os._exit may still be replaced by an abandoned call

    REAL_EXIT(code)


if __name__ == "__main__":  # pragma: no cover
    console_main()
