"""``--oipr-realdata DIR``: the audited evaluator ranked among the built-ins on NAB's real detectors.

The same computation as ``oipr-bench realdata --evaluator`` (:func:`oipr_bench.realdata.table.realdata`),
with the session's resolved evaluator, declarations, timeout and isolation: checked when the session
starts (:func:`check_realdata`), run when it finishes (:func:`run_realdata`), printed in the summary
(:func:`write_realdata`) and added to the ``--oipr-html`` report (:func:`realdata_html`).
"""

from __future__ import annotations

import os
import sys
from typing import Any

import pytest

from .options import value
from .outputs import report_paths

__all__ = ["check_realdata", "run_realdata", "realdata_html", "write_realdata"]


def check_realdata(config: pytest.Config) -> None:
    """A NAB folder (its layout and JSON files checked now); no report path names a file inside it.

    Raises
    ------
    UsageError, OverwriteRefused, NabDataError
    """
    from ..errors import OverwriteRefused, UsageError

    folder = value(config, "realdata")
    if folder is None:
        return
    if not os.path.isdir(folder):
        raise UsageError(f"--oipr-realdata {folder!r}: not a folder (a NAB checkout or a copy in NAB's layout)")
    root = os.path.realpath(folder) + os.sep
    for flag, path, _, _ in report_paths(config):
        if os.path.exists(path) and os.path.realpath(path).startswith(root):
            raise OverwriteRefused(f"{flag} {path}: refusing to write over a file of the NAB data folder {folder}, "
                                   "which this run reads; choose another output path")
    from ..reference.nab import open_corpus

    open_corpus(folder)


def run_realdata(session: pytest.Session, state: Any) -> None:
    """Compute the table with the session's evaluator (kept on ``state``); a failure is named in the
    summary, never an internal error at the end of the run; a failed cell fails the run (the others are kept)."""
    config = session.config
    if config.option.collectonly or value(config, "realdata") is None:
        return
    from ..realdata.table import realdata, user_from_resolved

    audit = state.session
    try:
        user = user_from_resolved(audit.resolved, audit.declarations, timeout=audit.options.timeout,
                                  isolate=audit.options.isolate)
        state.realdata = realdata(value(config, "realdata"), user=user,
                                  progress=lambda line: print(line, file=sys.stderr, flush=True))
    except Exception as exc:  # noqa: BLE001 - named in the summary; the run fails
        state.realdata_error = f"--oipr-realdata: {type(exc).__name__}: {exc}"
        if session.exitstatus == 0:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        return
    if state.realdata.table.problems and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def realdata_html(state: Any) -> str:
    """The HTML report's real-data section, or "" without ``--oipr-realdata``."""
    result = getattr(state, "realdata", None)
    if result is None:
        return ""
    from ..reports.realdata_section import realdata_section_html

    return realdata_section_html(result)


def write_realdata(tr: Any, state: Any) -> None:
    """The summary's section: the text of ``oipr-bench realdata``, or the error that stopped it."""
    error = getattr(state, "realdata_error", None)
    if error:
        tr.write_line(f"oipr-bench: ERROR: {error}", red=True)
        return
    result = getattr(state, "realdata", None)
    if result is None:
        return
    from ..realdata.render import render

    tr.write_sep("=", "oipr-bench realdata: the evaluator among the metrics on NAB")
    for line in render(result, "text").rstrip("\n").split("\n"):
        tr.write_line(line)
