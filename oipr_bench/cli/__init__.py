"""The ``oipr-bench`` command line.

Each sub-command lives in its own module of this package and exposes
``register(subparsers)``, which adds its parser and sets ``func`` (a callable
``func(args) -> int`` returning the exit code).

Errors the user can fix (bad path, bad parameter, unknown name, bad file) end
with exit code 2 and one line on stderr; ``--debug`` shows the traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Sequence

from .._version import __version__
from ..errors import OiprBenchError

# One module per sub-command, in the order ``--help`` lists them.
COMMAND_MODULES: tuple[str, ...] = (
    "reproduce",
    "build_scenarios",
    "reference",
    "audit",
    "profile",
    "plot",
    "sweep",
    "report",
)


class _Parser(argparse.ArgumentParser):
    """argparse parser whose usage errors are one line and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """Build the top-level parser with every available sub-command."""
    parser = _Parser(
        prog="oipr-bench",
        description="Conformance suite and special-scenario dataset for time-series anomaly detection evaluators.",
    )
    parser.add_argument("--version", action="version", version=f"oipr-bench {__version__}")
    parser.add_argument("--debug", action="store_true", help="show the full traceback on errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"oipr_bench.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"oipr_bench.cli.{name}":
                continue  # sub-command not part of this build
            raise
        module.register(sub)
    return parser


#: Option destinations that name something the command writes.
OUTPUT_DESTS: tuple[str, ...] = ("output", "out")


def _anchor_outputs(args: argparse.Namespace) -> None:
    """Make every output path absolute before any user code runs.

    An evaluator that calls ``os.chdir`` must not move the report.  A
    trailing separator is kept (``-o out/`` stays recognisably a folder).
    """
    for dest in OUTPUT_DESTS:
        value = getattr(args, dest, None)
        if isinstance(value, str) and value and not os.path.isabs(value):
            setattr(args, dest, os.path.join(os.getcwd(), value))


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``oipr-bench``; return the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    _anchor_outputs(args)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("oipr-bench: interrupted", file=sys.stderr)
        return 130
    except (OiprBenchError, ValueError, KeyError, TypeError, OSError, ImportError) as exc:
        if args.debug:
            raise
        msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        print(f"oipr-bench {args.command}: error: {msg}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
