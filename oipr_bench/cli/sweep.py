"""``oipr-bench sweep``: OIPR P/R/F1 over an ``l_dis`` x ``l_obs`` grid (paper Appendix D).

Writes ``PREFIX.csv`` (one row per detector and grid point) and
``PREFIX.png`` (P, R and F1 heat maps).  With several predictions on one
ground truth (a scenario id such as ``--case fragmented_fps``, several
``--input`` files, or one CSV with columns ``gt,pred1,pred2,...``) it also
writes ``PREFIX-ranking.csv`` and ``PREFIX-ranking.png``: which detector has
the best F1 at each grid point, and by how much.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Callable

from .plot import add_oipr_params, add_source


def _formats(text: str) -> tuple[str, ...]:
    values = tuple(dict.fromkeys(p.strip().lower() for p in text.split(",") if p.strip()))
    bad = [v for v in values if v not in ("png", "svg", "csv")]
    if bad or not values:
        raise argparse.ArgumentTypeError(f"expected png, svg, csv or a comma list of them, got {text!r}")
    return values


def register(subparsers: Any) -> None:
    """Add the ``sweep`` sub-command."""
    from ..plots.sweep import DEFAULT_L_DIS_GRID, DEFAULT_L_OBS_GRID

    parser = subparsers.add_parser("sweep", help="OIPR P/R/F1 over an l_dis x l_obs grid (heat maps + CSV)",
                                   description=(__doc__.split("\n\n")[0] + " " + __doc__.split("\n\n")[1]).replace("``", ""))
    add_source(parser, many=True)
    parser.add_argument("-o", "--output", required=True, metavar="PREFIX",
                        help="output prefix: writes PREFIX.csv, PREFIX.png (and PREFIX-ranking.*)")
    parser.add_argument("--l-dis-grid", default=",".join(map(str, DEFAULT_L_DIS_GRID)),
                        metavar="GRID", help="l_dis values: START:STOP[:STEP] (inclusive) or a,b,c (default %(default)s)")
    parser.add_argument("--l-obs-grid", default=f"{DEFAULT_L_OBS_GRID[0]}:{DEFAULT_L_OBS_GRID[-1]}:5",
                        metavar="GRID", help="l_obs values, same syntax (default 0:60:5)")
    add_oipr_params(parser, lengths=False)
    parser.add_argument("--run", type=int, default=None, metavar="K",
                        help="use only run K of a multi-run case (default: mean over all runs)")
    parser.add_argument("--format", type=_formats, default=("png",), metavar="FMT",
                        help="picture format(s): png, svg, or csv for the CSV files alone (no matplotlib needed); "
                             "comma-separated (default png)")
    parser.set_defaults(func=run)


def output_namer(output: str) -> Callable[[str], Path]:
    """``suffix -> path`` for the ``-o PREFIX`` of ``sweep``; a folder or a trailing ``/`` is refused.

    ``-o PREFIX`` names files, like every other command's ``-o`` (:func:`oipr_bench.io.check_output`):
    ``-o out/`` is refused, not read as ``out.csv`` beside the folder.
    """
    from ..io import check_output

    check_output(output)
    prefix = Path(output)
    if prefix.suffix.lower() in (".csv", ".png", ".svg"):
        prefix = prefix.with_suffix("")
    stem = prefix.name
    return lambda suffix: prefix.with_name(stem + suffix)


def planned_suffixes(pictures: list[str], several: bool) -> list[str]:
    """The suffixes of every file ``sweep`` writes (CSV, pictures, and the ranking ones)."""
    kinds = [".csv", *(f".{fmt}" for fmt in pictures)]
    return kinds + ([f"-ranking{k}" for k in kinds] if several else [])


def run(args: argparse.Namespace) -> int:
    from ..errors import UsageError
    from ..io import atomic_write_text, check_output
    from ..plots import sources
    from ..plots.sweep import heatmap_figure, parse_grid, ranking_figure, sweep, winners

    pictures = [f for f in args.format if f != "csv"]
    if pictures:
        from ..plots._mpl import pyplot

        pyplot()  # fail fast, in one line, without matplotlib
    l_dis = parse_grid(args.l_dis_grid, "--l-dis-grid")
    l_obs = parse_grid(args.l_obs_grid, "--l-obs-grid")
    source = sources.from_case(args.case) if args.case else sources.from_files(args.input)
    predictions = source.predictions
    if args.run is not None:
        picked = {}
        for name, runs in predictions.items():
            if not 1 <= args.run <= len(runs):
                raise UsageError(f"{name}: --run must lie in 1..{len(runs)}, got {args.run}")
            picked[name] = [runs[args.run - 1]]
        predictions = picked
    out = output_namer(args.output)
    several = len(predictions) > 1
    for suffix in planned_suffixes(pictures, several):
        check_output(out(suffix))  # before the work: never over an input, never a folder
    table = sweep(source.y_true, predictions, l_dis, l_obs, b_dur=args.b_dur, attenuation=args.attenuation)
    written = [atomic_write_text(out(".csv"), table.to_csv(index=False, float_format="%.6f", lineterminator="\n"))]
    if several:
        ranking = winners(table)
        written.append(atomic_write_text(out("-ranking.csv"),
                                         ranking.to_csv(index=False, float_format="%.6f", lineterminator="\n")))
    if pictures:
        from ..plots._mpl import figure_bytes
        from ..io import atomic_write_bytes

        for fmt in pictures:
            written.append(atomic_write_bytes(out(f".{fmt}"), figure_bytes(heatmap_figure(table, title=source.title), fmt)))
            if several:
                written.append(atomic_write_bytes(out(f"-ranking.{fmt}"),
                                                  figure_bytes(ranking_figure(table, title=source.title), fmt)))
    for path in written:
        print(path)
    return 0
