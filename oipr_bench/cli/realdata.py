"""``oipr-bench realdata``: every metric's ranking of NAB's real detectors on NAB's real series.

``--data DIR`` names a NAB checkout (or the shared copy, ``.csv.gz``); every built-in metric scores
every (detector, series) pair under the protocol of :mod:`oipr_bench.realdata.protocol` and the
result (:mod:`oipr_bench.realdata.table`) gives each metric's ranking with bootstrap intervals, where
``random`` and ``null`` land, and Kendall's tau between every pair of metrics.  ``--evaluator SPEC``
(any shape ``oipr-bench audit`` takes, with ``--param``, ``--input``, ``--lower-is-better``,
``--bounds``, ``--timeout``, ``--isolate``) adds the user's column.  ``--plot FILE`` draws the ranks
and the agreement matrix (matplotlib).  Progress goes to stderr: a bar over the (detector, series)
files when stderr is a terminal, one line per detector otherwise, nothing with ``--quiet``.

Exit code 0 when every metric ran on every pair (and the user's evaluator on every file), 1 when a
cell of the user's evaluator failed (recorded and shown, the other results kept), 2 on a usage error.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

HELP = "rank NAB's real detectors on NAB's real series with every metric (and yours), with bootstrap intervals"


def _whole(name: str, low: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a whole number, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"{name} must be at least {low}, got {value}")
        return value
    return parse


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``realdata`` sub-command."""
    from ..realdata.protocol import THRESHOLD_MODES
    from ..realdata.render import FORMATS

    parser = subparsers.add_parser(
        "realdata", help=HELP,
        description="Score NAB's 16 detectors on NAB's series with the 14 built-in metrics (and --evaluator), rank "
        "the detectors per metric (mean over series with a 95 % bootstrap interval; NAB by its corpus sum), say "
        "where random and null land, and give Kendall's tau between every pair of metrics with a 95 % "
        "cluster-bootstrap interval. The protocol is printed with the results (docs/realdata.md).",
    )
    parser.add_argument("--data", metavar="DIR", required=True,
                        help="a NAB checkout or a copy in NAB's layout (data/, labels/, config/, results/)")
    parser.add_argument("--threshold", choices=THRESHOLD_MODES, default="nab",
                        help="binary metrics at the detector's own NAB threshold (default), or at the per-metric "
                        "best threshold (an oracle protocol)")
    parser.add_argument("--resamples", type=_whole("--resamples", 1), default=1000, metavar="N",
                        help="bootstrap resamples of the series (default 1000)")
    parser.add_argument("--seed", type=_whole("--seed", 0), default=0, help="seed of the bootstrap (default 0)")
    parser.add_argument("--format", choices=FORMATS, default="text", help="output format (default text)")
    parser.add_argument("--output", "-o", metavar="PATH", help="write the output to PATH (atomically) instead of stdout")
    parser.add_argument("--plot", metavar="FILE",
                        help="also draw the ranks and the agreement matrix to FILE (.png or .svg; matplotlib)")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress on stderr (a bar over the files on a terminal, else one line per detector)")
    user = parser.add_argument_group("your evaluator")
    user.add_argument("--evaluator", metavar="SPEC",
                      help="add your evaluator's column: a built-in name, pkg.mod:Name, pkg.mod.Name or file.py:Name")
    user.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                      help="parameter of --evaluator (repeatable; values parsed as JSON where they parse)")
    user.add_argument("--input", choices=("binary", "scores"), default=None,
                      help="what --evaluator takes: binary 0/1 predictions (default) or scores (y_pred as float64)")
    user.add_argument("--lower-is-better", action="store_true", help="--evaluator's one-number score is better when lower")
    user.add_argument("--bounds", metavar="LO:HI", default=None,
                      help="range of --evaluator's one-number score, an empty end open (e.g. 0: ); default 0:1")
    user.add_argument("--timeout", type=float, metavar="SECONDS", help="end any single call of --evaluator after SECONDS")
    user.add_argument("--isolate", action="store_true", help="call --evaluator in a worker process")
    parser.set_defaults(func=run)


#: Options that need --evaluator, and their flags.
_USER_ONLY = {"param": "--param", "input": "--input", "lower_is_better": "--lower-is-better", "bounds": "--bounds",
              "timeout": "--timeout", "isolate": "--isolate"}


def _check(args: argparse.Namespace) -> None:
    from ..errors import UsageError

    defaults = {"param": [], "lower_is_better": False, "isolate": False}
    given = [flag for dest, flag in _USER_ONLY.items() if getattr(args, dest) != defaults.get(dest)]
    if given and not args.evaluator:
        raise UsageError(f"{', '.join(given)} need{'s' if len(given) == 1 else ''} --evaluator")
    from ..realdata.table import MAX_RESAMPLES

    if args.resamples > MAX_RESAMPLES:
        raise UsageError(f"--resamples must be at most {MAX_RESAMPLES}, got {args.resamples}")
    if args.timeout is not None:
        from ..auditing.calling.runner import MAX_TIMEOUT

        if not 0 < args.timeout <= MAX_TIMEOUT:
            raise UsageError(f"--timeout must be a positive number of seconds up to {MAX_TIMEOUT:g}, got {args.timeout:g}")
    if args.bounds is not None:
        from ..auditing.calling.declarations import parse_bounds

        args.bounds = parse_bounds(args.bounds, where="--bounds")
    if args.plot is not None:
        suffix = os.path.splitext(args.plot)[1].lower()
        if suffix not in (".png", ".svg"):
            raise UsageError(f"--plot {args.plot!r}: the picture's format follows the file suffix, which must be "
                             ".png or .svg")
    if not os.path.isdir(args.data):
        raise UsageError(f"--data {args.data!r}: not a folder (a NAB checkout or a copy in NAB's layout)")


def _output(path: str | None, flag: str, data: str) -> str | None:
    """``path`` fixed against the current folder and checked as ``audit -o`` checks it; never a file of ``data``."""
    if path is None:
        return None
    from ..errors import OverwriteRefused
    from ..io import check_output, output_name_problem
    from ..errors import UsageError

    problem = output_name_problem(path)
    if problem:
        raise UsageError(f"{flag} {path!r}: {problem}")
    full = os.path.join(os.getcwd(), path)
    check_output(full)
    root = os.path.realpath(data) + os.sep
    if os.path.exists(full) and os.path.realpath(full).startswith(root):
        raise OverwriteRefused(f"{path}: refusing to write over a file of the NAB data folder {data}, which this run "
                               "reads; choose another output path")
    return full


def run(args: argparse.Namespace) -> int:
    from ..auditing.calling.resolve import parse_params
    from ..auditing.progress import draws, progress_bar
    from ..io import atomic_write_text, same_output
    from ..realdata.render import render
    from ..realdata.table import realdata, user_metric
    from ..errors import UsageError

    _check(args)
    output = _output(args.output, "-o", args.data)
    plot = _output(args.plot, "--plot", args.data)
    if output and plot and same_output(output, plot):
        raise UsageError(f"-o and --plot name the same file {args.plot!r}; give two files")
    if plot:
        from ..plots.realdata import require_matplotlib

        require_matplotlib()
    user = None
    if args.evaluator:
        user = user_metric(args.evaluator, parse_params(args.param, option="--param"), input_kind=args.input,
                           higher_is_better=False if args.lower_is_better else None, bounds=args.bounds,
                           timeout=args.timeout, isolate=args.isolate)

    def progress(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    def bar(total: int, unit: str) -> Any:
        return progress_bar(total=total, unit=unit, desc="realdata", quiet=args.quiet)

    # a terminal shows a bar over the files; a log file gets one line per detector; --quiet, neither
    drawn = draws(args.quiet)
    result = realdata(args.data, threshold=args.threshold, resamples=args.resamples, seed=args.seed, user=user,
                      progress=None if args.quiet or drawn else progress, bar=bar if drawn else None)
    text = render(result, args.format)
    if plot:
        from ..plots.realdata import draw_realdata
        from ..realdata.render import to_dict

        draw_realdata(to_dict(result), plot)
    if output:
        atomic_write_text(output, text)
    else:
        sys.stdout.write(text)
    for line in result.table.problems[:20]:
        print(f"oipr-bench realdata: {line}", file=sys.stderr)
    return 1 if result.table.problems else 0
