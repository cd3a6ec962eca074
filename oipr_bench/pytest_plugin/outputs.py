"""The plugin's report paths, checked before the session runs (the no-overwrite rule of :mod:`oipr_bench.io`).

* :func:`note_pytest_inputs`: pytest's configuration file and the conftest files are inputs of the run;
* :func:`check_outputs`: a report path that names a file the run reads, is empty or ``-``, says the
  wrong format (``.json`` / ``.html``) or is another output's path (``--junitxml``...) is a usage error.
"""

from __future__ import annotations

import os

import pytest

from .options import value

__all__ = ["REPORT_FLAGS", "note_pytest_inputs", "report_paths", "check_outputs", "check_report_path"]


#: The report options, their names and the file name ending each needs.
REPORT_FLAGS = (("--oipr-report", "report", (".json",), "the report is JSON; give a file name ending in .json"),
                ("--oipr-html", "html", (".html", ".htm"), "the report is HTML; give a file name ending in .html"))


def note_pytest_inputs(config: pytest.Config) -> None:
    """Protect the files pytest itself read before the session: its configuration file and conftest files."""
    from ..io import note_input

    inipath = getattr(config, "inipath", None)
    if inipath is not None:
        note_input(inipath, "the pytest configuration")
    for plugin in config.pluginmanager.get_plugins():
        source = getattr(plugin, "__file__", None)
        if isinstance(source, str) and os.path.basename(source) == "conftest.py":
            note_input(source, "a conftest file")


def report_paths(config: pytest.Config) -> list[tuple[str, str, tuple[str, ...], str]]:
    """(flag, path, endings, message) of every report asked for."""
    return [(flag, value(config, name), endings, words) for flag, name, endings, words in REPORT_FLAGS
            if value(config, name) is not None]


def check_outputs(config: pytest.Config) -> None:
    """Refuse, before the session runs, a report path that cannot be right.

    A file the session reads (evaluator source, conftest, pytest configuration, a module the
    evaluator imports...), an empty path or ``-``, a name that says the wrong format, or a path
    another output of the run also writes (the other report, ``--junitxml``, ``--report-log``).
    Other problems (a folder, a missing folder) fail the run when the report is written, as before.
    """
    from ..io import same_output

    reports = report_paths(config)
    for flag, path, endings, words in reports:
        check_report_path(flag, path, endings, words)
    others = [(flag, getattr(config.option, dest, None)) for flag, dest in
              (("--junitxml", "xmlpath"), ("--report-log", "report_log"), ("--resultlog", "resultlog"))]
    taken = [(flag, path) for flag, path in others if isinstance(path, str) and path]
    for flag, path, _, _ in reports:
        for other_flag, other in taken:
            if same_output(path, other):
                raise pytest.UsageError(f"oipr-bench: {flag}={path}: the same file as {other_flag}; "
                                        "give each output its own path")
        taken.append((flag, path))


def check_report_path(flag: str, path: str, endings: tuple[str, ...] = (), words: str = "") -> None:
    """Refuse one report path (see :func:`check_outputs`); a device or FIFO needs no file name ending."""
    import stat

    from ..errors import OverwriteRefused
    from ..io import check_output, output_name_problem

    problem = output_name_problem(path)
    if problem:
        raise pytest.UsageError(f"oipr-bench: {flag}={path!r}: {problem}")
    try:
        check_output(path)
    except OverwriteRefused as exc:
        raise pytest.UsageError(f"oipr-bench: {flag}: {exc}") from None
    except OSError:
        pass
    try:
        special = not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        special = False
    if endings and not special and not path.lower().endswith(endings):
        raise pytest.UsageError(f"oipr-bench: {flag}={path}: {words}")
