"""``oipr-bench plot``: the scenario gallery and operator-interest curves.

``oipr-bench plot scenarios -o DIR``
    One PNG and one SVG per scenario (the paper's Fig. A) and ``overview.png``
    (``--format png`` for PNG only).
``oipr-bench plot interest (--case ID | --input FILE) -o FILE``
    The interest curves ``I`` and ``I_hat`` with TP/FP/FN areas (Figs. 3-5);
    PNG or SVG by the suffix of FILE.
``oipr-bench plot smd --data DIR -o FILE``
    The authors' SMD slice: the ground truth and each detector of Tables 6-8
    (the paper's Figs. 2 and 6 style); PNG or SVG by the suffix of FILE.

All need matplotlib (``pip install 'oipr-bench[plot]'``); without it they
print one line and exit 2.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any


def length_param(text: str) -> int | str:
    """argparse type for ``--l-dis``/``--l-obs``: a non-negative integer or ``auto``."""
    if text == "auto":
        return "auto"
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer or 'auto', got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be non-negative, got {value}")
    from ..evaluators._params import MAX_LENGTH_PARAM

    if value > MAX_LENGTH_PARAM:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_LENGTH_PARAM}, got {value}")
    return value


def b_dur_param(text: str) -> float:
    """argparse type for ``--b-dur``: a real number in [0, 1]."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number in [0, 1], got {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must lie in [0, 1], got {text}")
    return value


def window_param(text: str) -> tuple[int, int]:
    """argparse type for ``--window START:END``."""
    try:
        start, end = (int(p) for p in text.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected START:END (integers), got {text!r}") from None
    if end <= start or start < 0:
        raise argparse.ArgumentTypeError(f"need 0 <= START < END, got {text!r}")
    return start, end


def add_oipr_params(parser: argparse.ArgumentParser, lengths: bool = True) -> None:
    """Add ``--l-dis --l-obs --b-dur --attenuation --auto-rule`` (the special-scenario setting by default)."""
    if lengths:
        parser.add_argument("--l-dis", type=length_param, default=5, metavar="N|auto",
                            help="discovery-phase length (default 5)")
        parser.add_argument("--l-obs", type=length_param, default=20, metavar="N|auto",
                            help="observation-phase length (default 20)")
    parser.add_argument("--b-dur", type=b_dur_param, default=0.5, metavar="B",
                        help="duration-phase interest bound in [0, 1] (default 0.5)")
    parser.add_argument("--attenuation", choices=("sigmoid", "linear", "exp"), default="sigmoid",
                        help="attenuation functions: eqs. 3-4 or Appendix C (default sigmoid)")
    if lengths:
        parser.add_argument("--auto-rule", choices=("paper", "authors_code"), default="paper",
                            help="how 'auto' lengths are derived (default paper)")


def add_source(parser: argparse.ArgumentParser, many: bool) -> None:
    """Add the mutually exclusive ``--case`` / ``--input`` options."""
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--case", metavar="ID",
                       help="a dataset case such as fragmented_tps/c2" + (" or a scenario such as fragmented_fps" if many else ""))
    if many:
        group.add_argument("--input", nargs="+", metavar="FILE",
                           help="series file(s): CSV with gt and prediction columns, .npy or .npz")
    else:
        group.add_argument("--input", metavar="FILE", help="series file: CSV with gt,pred columns, .npy or .npz")


def register(subparsers: Any) -> None:
    """Add ``plot`` and its three sub-commands."""
    parser = subparsers.add_parser("plot", help="draw the scenario gallery or operator-interest curves",
                                   description=__doc__.split("\n\n")[0].replace("``", ""))
    sub = parser.add_subparsers(dest="picture", metavar="PICTURE", parser_class=type(parser))
    parser.set_defaults(func=_no_picture(parser))

    gal = sub.add_parser("scenarios", help="the scenario gallery (paper Fig. A)",
                         description="Write one PNG and one SVG per scenario plus overview.png into DIR.")
    gal.add_argument("-o", "--output", required=True, metavar="DIR", help="output folder (created if missing)")
    gal.add_argument("--run", type=int, default=1, metavar="K", help="random-detector run to show (1-100, default 1)")
    gal.add_argument("--format", type=_picture_formats, default=("png", "svg"), metavar="FMT",
                     help="formats of the per-scenario pictures: png, svg or png,svg (default png,svg)")
    gal.set_defaults(func=run_scenarios)

    cur = sub.add_parser("interest", help="operator-interest curves with TP/FP/FN areas (paper Figs. 3-5)",
                         description="Draw I and I_hat with the TP, FP and FN areas; the format follows the "
                                     "suffix of -o (.png or .svg).")
    add_source(cur, many=False)
    cur.add_argument("-o", "--output", required=True, metavar="FILE", help="output picture, .png or .svg")
    add_oipr_params(cur)
    cur.add_argument("--run", type=int, default=None, metavar="K",
                     help="run of a multi-run (random detector) case, 1-based (default 1)")
    cur.add_argument("--window", type=window_param, default=None, metavar="START:END",
                     help="time span to show (default: where either curve is non-zero)")
    cur.set_defaults(func=run_interest)

    smd = sub.add_parser("smd", help="the authors' SMD slice with each detector's output (paper Figs. 2 and 6)",
                         description="Draw the ground truth of the authors' SMD slice and the output of each detector "
                                     "of Tables 6, 7 and 8, one panel per table; the format follows the suffix of -o "
                                     "(.png or .svg).")
    smd.add_argument("--data", required=True, metavar="DIR", help="folder holding the authors' SMD_*.csv")
    smd.add_argument("-o", "--output", required=True, metavar="FILE", help="output picture, .png or .svg")
    smd.add_argument("--table", action="append", choices=("6", "7", "8"), default=None,
                     help="draw only this table's detectors (repeatable; default all three)")
    smd.add_argument("--window", type=window_param, default=None, metavar="START:END",
                     help="time span to show (default the whole slice)")
    smd.set_defaults(func=run_smd)


def _picture_formats(text: str) -> tuple[str, ...]:
    values = tuple(dict.fromkeys(p.strip().lower() for p in text.split(",") if p.strip()))
    if not values or any(v not in ("png", "svg") for v in values):
        raise argparse.ArgumentTypeError(f"expected png, svg or png,svg, got {text!r}")
    return values


def _no_picture(parser: argparse.ArgumentParser):
    def func(args: argparse.Namespace) -> int:
        parser.print_help(sys.stderr)
        return 2

    return func


def run_scenarios(args: argparse.Namespace) -> int:
    from ..errors import UsageError
    from ..plots._mpl import pyplot
    from ..plots.gallery import write_gallery

    pyplot()  # fail fast, in one line, without matplotlib
    n_runs = max(case.n_runs for case in _scenario_cases())
    if not 1 <= args.run <= n_runs:
        raise UsageError(f"--run must lie in 1..{n_runs} (the random-detector cases hold {n_runs} runs), got {args.run}")
    _output_folder(args.output)
    for path in write_gallery(args.output, formats=args.format, run=args.run - 1):
        print(path)
    return 0


def _scenario_cases() -> list:
    from .. import scenarios

    return scenarios.load()


def _output_folder(output: str) -> None:
    """Create the gallery's ``-o`` folder; a path that is a file (or lies under one) is a usage error."""
    from pathlib import Path

    from ..errors import UsageError

    from ..errors import OverwriteRefused
    from ..io import make_output_folder, output_name_problem

    if output_name_problem(output):  # -o '' would be the current folder, -o - a folder named '-'
        raise UsageError(f"-o {output!r}: {output_name_problem(output)}")
    folder = Path(output)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"-o {output}: is a file, expected a folder (the gallery writes several pictures into it)")
    try:
        make_output_folder(folder)  # never inside oipr-bench, its data or its Python environment
    except OverwriteRefused:
        raise
    except OSError as exc:
        raise UsageError(f"-o {output}: cannot create the folder: {exc.strerror or exc}") from None


def run_interest(args: argparse.Namespace) -> int:
    from ..plots import sources
    from ..plots._mpl import format_from_suffix, pyplot, save_figure
    from ..plots.interest import compute_interest, interest_figure, interest_title

    fmt = format_from_suffix(args.output)
    pyplot()
    source = sources.from_case(args.case) if args.case else sources.from_files([args.input])
    label, y_pred = source.single(args.run)
    data = compute_interest(source.y_true, y_pred, l_dis=args.l_dis, l_obs=args.l_obs, b_dur=args.b_dur,
                            attenuation=args.attenuation, auto_rule=args.auto_rule)
    title = interest_title(source.title, label)
    print(save_figure(interest_figure(data, title=title, window=args.window), args.output, fmt))
    return 0


def run_smd(args: argparse.Namespace) -> int:
    from ..errors import UsageError
    from ..plots._mpl import format_from_suffix, pyplot
    from ..plots.smd import write_smd_figure
    from ..reference.smd import SMD_LENGTH, TABLE_DETECTORS, load_smd

    format_from_suffix(args.output)
    pyplot()
    tables = tuple(dict.fromkeys(args.table or ("6", "7", "8")))
    if args.window is not None and args.window[1] > SMD_LENGTH:
        raise UsageError(f"--window {args.window[0]}:{args.window[1]}: the slice has {SMD_LENGTH} points (END at most {SMD_LENGTH})")
    data = load_smd(args.data, [d for t in tables for d in TABLE_DETECTORS[t]])
    print(write_smd_figure(data, args.output, tables, args.window))
    return 0
