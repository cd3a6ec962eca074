"""``oipr-bench report``: audit an evaluator and write one self-contained HTML page.

``oipr-bench report pkg.mod:Name -o report.html`` runs the same audit as
``oipr-bench audit`` (a built-in name such as ``OIPR`` works too) and writes
the profile table, the evidence with case thumbnails and the scores next to
the seven built-in evaluators into one HTML file with nothing to download.
matplotlib is not needed. It takes the options of ``oipr-bench audit`` and exits
like it: 0 when the profile has no problem, 1 otherwise (the problems on stderr).
"""

from __future__ import annotations

import argparse
from typing import Any

from .audit import add_run_options, cli_phrased, exit_code, options_from, output_path


def register(subparsers: Any) -> None:
    """Add the ``report`` sub-command."""
    parser = subparsers.add_parser("report", help="audit an evaluator into one self-contained HTML page",
                                   description=__doc__.split("\n\n")[1].replace("\n", " ").replace("``", ""))
    parser.add_argument("evaluator", metavar="EVALUATOR",
                        help="pkg.mod:Name, pkg.mod.Name, path/file.py:Name or a built-in name (OIPR, PA, ...)")
    parser.add_argument("-o", "--output", required=True, metavar="FILE", help="the HTML file to write")
    parser.add_argument("--title", default=None, help="page heading (default: 'Evaluator audit: NAME')")
    parser.add_argument("--data", metavar="DIR", default=None,
                        help="also show the evaluator on the paper's real data: a folder holding the authors' SMD_*.csv "
                        "(the slice drawn, and its rankings of the detectors of Tables 6-8 beside the built-ins')")
    parser.add_argument("--realdata", metavar="DIR", default=None,
                        help="also rank NAB's real detectors with the evaluator beside the 14 built-ins: a NAB checkout "
                        "or a copy in NAB's layout (the section of oipr-bench realdata --evaluator; docs/realdata.md)")
    add_run_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..errors import UsageError
    from ..io import check_output
    from ..reports.html_report import write_report
    from ..auditing.profile.profiles import AuditSession
    from ..auditing.calling.resolve import parse_params, resolve

    output = output_path(args.output)  # before any user code runs (it may os.chdir); -o '' and -o - refused
    if not str(args.output).lower().endswith((".html", ".htm")):
        raise UsageError(f"{args.output}: the report is HTML; give a file name ending in .html")
    options = options_from(args)
    resolved = resolve(args.evaluator, parse_params(args.param, option="--param"))
    check_output(output)  # before the audit: never over the evaluator source
    smd = _smd_data(args.data)  # a missing or bad CSV stops the run before the audit
    corpus = _nab_corpus(args.realdata, output)  # a bad NAB folder too
    with cli_phrased(), AuditSession(resolved, options) as session:
        profile = session.run_all()
        extra = _smd_section(session, smd, options) if smd is not None else ""
        if corpus is not None:
            extra += _realdata_section(session, args.realdata, options)
    path = write_report(profile, output, title=args.title, extra_html=extra)
    print(path)
    return exit_code(profile, "report")


def _smd_data(folder: str | None) -> Any:
    """The authors' SMD slice (all eight detectors) read from ``--data``, or None without it."""
    if folder is None:
        return None
    from ..reference.smd import load_smd

    return load_smd(folder)


def _nab_corpus(folder: str | None, output: str) -> Any:
    """The NAB corpus of ``--realdata`` opened (its layout and JSON files checked), or None without it."""
    if folder is None:
        return None
    import os

    from ..errors import OverwriteRefused, UsageError
    from ..reference.nab import open_corpus

    if not os.path.isdir(folder):
        raise UsageError(f"--realdata {folder!r}: not a folder (a NAB checkout or a copy in NAB's layout)")
    if os.path.exists(output) and os.path.realpath(output).startswith(os.path.realpath(folder) + os.sep):
        raise OverwriteRefused(f"{output}: refusing to write over a file of the NAB data folder {folder}, which this "
                               "run reads; choose another output path")
    return open_corpus(folder)


def _realdata_section(session: Any, folder: str, options: Any) -> str:
    """The report's real-data section: the audited evaluator's column beside the built-ins on NAB."""
    import sys

    from ..realdata.table import realdata, user_from_resolved
    from ..reports.realdata_section import realdata_section_html

    user = user_from_resolved(session.resolved, session.declarations, timeout=options.timeout, isolate=options.isolate)
    result = realdata(folder, user=user, progress=lambda line: print(line, file=sys.stderr, flush=True))
    for line in result.table.problems[:20]:
        print(f"oipr-bench report: {line}", file=sys.stderr)
    return realdata_section_html(result)


def _smd_section(session: Any, data: Any, options: Any) -> str:
    """The report's SMD section: the audited evaluator ranked beside the built-ins on Tables 6-8."""
    from ..reference.smd import TABLE_DETECTORS
    from ..reports.smd_section import smd_section_html
    from ..reports.smd_tables import reproduce_smd, run_resolved

    results = []
    for table, detectors in TABLE_DETECTORS.items():
        user = run_resolved(session.resolved, session.declarations, data, detectors,
                            timeout=options.timeout, isolate=options.isolate)
        results.append(reproduce_smd(table, data.folder, user=user, data=data))
    return smd_section_html(data, results)
