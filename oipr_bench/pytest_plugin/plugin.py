"""pytest plugin: ``pytest --evaluator=pkg.mod:Name`` audits an evaluator.

Registered through the ``pytest11`` entry point and completely inert unless
``--evaluator`` is given (no items, no summary; this module imports nothing
but pytest, which is already loaded, and :mod:`oipr_bench.vocabulary`).
With ``--evaluator`` pytest collects, after the user's own tests, a
collector ``oipr-bench`` whose items have stable ids (usable with ``-k``,
``--deselect``, ``--lf``, ``--sw``) and a marker per kind (``-m oipr_sanity``):

- ``case[<scenario>/<case>]``: the evaluator on one case (all runs of a random
  case); fails on a broken result, errors when the worker process died;
- ``sanity[<name>]``: perfect prediction, determinism, no mutation, bool/int
  inputs, F1 as the harmonic mean; with ``--oipr-hypothesis-examples N`` also
  ``sanity[property-search]`` (a derandomized hypothesis search of N examples
  per model-free property, :mod:`oipr_bench.auditing.property_search`);
- ``characteristic[<name>]``: the ten characteristics, derived by
  :mod:`oipr_bench.auditing.characteristics` and compared with the expected profile
  (declared deviations are xfail; an unexpected pass is XPASS);
- ``reference[<scenario>/<case>]`` with ``--reference=NAME``;
- ``property[<name>]`` with ``--oipr-suite properties`` or ``all`` (the
  default with ``--oipr-input scores``): a metric property beyond Table 5,
  reported (passes) unless ``--expect name=value`` declares its value;
- ``differential[<family>]`` with ``--reference=NAME --oipr-differential N``: the
  evaluator against the reference on N generated pairs of one family, the first
  difference shrunk (:mod:`oipr_bench.auditing.differential`).

Collecting runs nothing of the evaluator's (``--collect-only`` prints no
profile).  Results are computed lazily and cached per process; every item
ships its result on its report, so the terminal summary and ``--oipr-report``
are built on the controller, also under pytest-xdist.
"""

from __future__ import annotations

import threading
from contextlib import ExitStack
from typing import Any

import pytest

from .items import MARKERS, STATE, OiprCollector, OiprItem, PluginState, state_of


#: The run scope of an auditing session (see oipr_bench.io.run_scope), closed at unconfigure.
SCOPE = pytest.StashKey[ExitStack]()
#: The threads alive before the evaluator was imported, and the session's exit status.
THREADS = pytest.StashKey[set]()
EXIT_STATUS = pytest.StashKey[int]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("oipr-bench", "oipr-bench: audit a time-series anomaly detection evaluator")
    group.addoption(
        "--evaluator",
        metavar="SPEC",
        default=None,
        help="evaluator to audit: a built-in name (OIPR, PA, ...), pkg.mod:Name, pkg.mod.Name or file.py:Name",
    )
    group.addoption(
        "--evaluator-param",
        metavar="KEY=VALUE",
        action="append",
        default=[],
        help="parameter for the evaluator (repeatable; values parsed as JSON where they parse)",
    )
    group.addoption("--reference", metavar="NAME", default=None, help="compare every case with this built-in evaluator's reference values")
    group.addoption("--reference-param", metavar="KEY=VALUE", action="append", default=[], help="parameter for --reference (repeatable)")
    group.addoption("--oipr-cases", metavar="FILE", default=None,
                    help="add your own cases: a JSON file in the dataset's scenario format (schema/scenario.schema.json), "
                    "run and compared with --reference like the built-in cases")
    group.addoption(
        "--against",
        choices=("reference", "paper"),
        default=None,
        help="with --reference: compare with our reference values (default; --tolerance) or with the paper's "
        "Table A1 (5e-5; 3 standard errors on random cases)",
    )
    group.addoption("--tolerance", type=float, default=None,
                    help="with --reference: absolute tolerance of the comparison (default 1e-9)")
    group.addoption(
        "--expect",
        metavar="NAME=VALUE",
        action="append",
        default=[],
        help="declare an expected characteristic value that deviates from OIPR's profile (repeatable)",
    )
    group.addoption("--expect-file", metavar="PATH", default=None, help="TOML or JSON file of characteristic = value declarations")
    _add_differential_options(group)
    _add_run_options(group)
    _add_suite_options(group)


def _add_differential_options(group: Any) -> None:
    """The options of a differential run (with ``--reference``)."""
    group.addoption(
        "--oipr-differential", metavar="N", type=int, default=0,
        help="with --reference: also compare the evaluator with it on N generated series pairs per family "
        "(items differential[<family>]; the first difference is shrunk; default 0 = off)",
    )
    group.addoption("--oipr-seed", metavar="SEED", type=int, default=None,
                    help="with --oipr-differential: seed of the generated pairs (default 0; the same seed tries the same pairs)")
    group.addoption("--oipr-shrink-budget", metavar="SECONDS", type=float, default=None,
                    help="with --oipr-differential: seconds the shrinking of a counterexample may take (default 30)")


def _add_run_options(group: Any) -> None:
    """The options on how the audit runs and what it writes."""
    group.addoption(
        "--strict-expectations",
        action="store_true",
        default=False,
        help="a declared deviation that does not occur (XPASS) fails",
    )
    group.addoption("--oipr-report", metavar="PATH", default=None, help="write the profile as a JSON report (atomically)")
    group.addoption("--oipr-html", metavar="PATH", default=None, help="write a self-contained HTML report (SVG pictures; matplotlib not needed)")
    group.addoption(
        "--oipr-timeout",
        metavar="SECONDS",
        type=float,
        default=None,
        help="end any single evaluator call after SECONDS (runs calls in a worker process)",
    )
    group.addoption(
        "--oipr-isolate",
        action="store_true",
        default=False,
        help="run every evaluator call in a worker process (survives segfaults and os._exit)",
    )
    group.addoption(
        "--oipr-hypothesis-examples",
        metavar="N",
        type=int,
        default=0,
        help="add the item sanity[property-search]: a hypothesis search of N examples per model-free property "
        "(derandomized, so reproducible; default 0 = off)",
    )
    group.addoption(
        "--oipr-input",
        choices=("binary", "scores"),
        default=None,
        help="what the evaluator takes: binary 0/1 predictions (default) or scores (y_pred as float64); "
        "default: its input_kind attribute",
    )
    group.addoption(
        "--oipr-lower-is-better",
        action="store_true",
        default=False,
        help="the evaluator's one-number score is better when lower (default: its higher_is_better attribute, else higher)",
    )
    group.addoption(
        "--oipr-bounds",
        metavar="LO:HI",
        default=None,
        help="range of the evaluator's one-number score, an empty end open (e.g. 0: ); default: its bounds attribute, else 0:1",
    )


def _add_suite_options(group: Any) -> None:
    """The options on what the audit covers: the suite, and the atlas placement."""
    group.addoption(
        "--oipr-suite",
        choices=("table5", "properties", "all"),
        default=None,
        help="what to audit: the paper's Table 5 (default for 0/1 input), the metric properties "
        "(items property[NAME]; docs/properties.md), or all (default with --oipr-input scores)",
    )
    group.addoption(
        "--oipr-atlas",
        action="store_true",
        default=False,
        help="after the profile, print the evaluator's row inside the metric atlas with its three nearest metrics",
    )


def _options(config: pytest.Config) -> Any:
    """The audit options of this run, from the flags (errors re-phrased with the flag names)."""
    from ..auditing.options import PLUGIN_FLAGS, options_from_flags

    opt = config.option
    return options_from_flags({
        "timeout": opt.oipr_timeout, "isolate": opt.oipr_isolate, "reference": opt.reference,
        "reference_param": opt.reference_param, "against": opt.against, "tolerance": opt.tolerance,
        "hypothesis_examples": opt.oipr_hypothesis_examples, "expect": opt.expect,
        "expect_file": opt.expect_file, "input_kind": opt.oipr_input,
        "lower_is_better": opt.oipr_lower_is_better, "bounds": opt.oipr_bounds, "suite": opt.oipr_suite,
        "differential": opt.oipr_differential, "seed": opt.oipr_seed, "shrink_budget": opt.oipr_shrink_budget,
        "cases": opt.oipr_cases,
    }, PLUGIN_FLAGS)


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def pytest_configure(config: pytest.Config) -> None:
    if not config.getoption("evaluator", None):
        return
    for line in MARKERS.values():
        config.addinivalue_line("markers", line)
    from ..errors import OiprBenchError
    from ..auditing.profiles import AuditSession
    from ..auditing.resolve import parse_params, resolve
    from ..io import run_scope

    opt = config.option
    scope = ExitStack()
    scope.enter_context(run_scope())  # no report of this session may replace a file it reads
    try:
        options = _options(config)
        resolved = resolve(opt.evaluator, parse_params(opt.evaluator_param, option="--evaluator-param"))
        for flag, path in (("--oipr-report", opt.oipr_report), ("--oipr-html", opt.oipr_html)):
            if path:
                _check_report_path(flag, path)
        state = PluginState(AuditSession(resolved, options), strict=bool(opt.strict_expectations))
    except (OiprBenchError, ValueError, OSError) as exc:
        scope.close()
        raise pytest.UsageError(f"oipr-bench: {exc}") from None
    config.stash[SCOPE] = scope
    config.stash[THREADS] = set(threading.enumerate())
    config.stash[STATE] = state
    config.pluginmanager.register(state, "oipr-bench-state")


def _check_report_path(flag: str, path: str) -> None:
    """Refuse, before the session runs, a report path naming a file the session reads (evaluator source...).

    Other problems (a folder, a parent that is a file) fail the run when the report is written, as before.
    """
    from ..errors import OverwriteRefused
    from ..io import check_output

    try:
        check_output(path)
    except OverwriteRefused as exc:
        raise pytest.UsageError(f"oipr-bench: {flag}: {exc}") from None
    except OSError:
        pass


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    state = state_of(config)
    if state is not None:
        state.session.close()
    scope = config.stash.get(SCOPE, None)
    if scope is not None:
        scope.close()
    if state is not None and not _is_worker(config):
        _leave_stray_threads(config)


def _leave_stray_threads(config: pytest.Config) -> None:
    """End the process now when the evaluator left non-daemon threads running (they would keep pytest alive).

    Runs last, after the report and every other plugin's unconfigure; stdout and stderr are flushed.
    """
    import os
    import sys

    before = config.stash.get(THREADS, set())
    stray = [t for t in threading.enumerate()
             if t.is_alive() and not t.daemon and t is not threading.main_thread() and t not in before]
    if not stray:
        return
    names = ", ".join(sorted(t.name for t in stray)[:5])
    print(f"oipr-bench: the evaluator left {len(stray)} non-daemon thread(s) running ({names}); "
          "pytest exits without waiting for them", file=sys.stderr)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001
            pass
    os._exit(int(config.stash.get(EXIT_STATUS, 1)))


def pytest_report_header(config: pytest.Config) -> list[str] | None:
    state = state_of(config)
    if state is None:
        return None
    r = state.session.resolved
    params = ", ".join(f"{k}={v!r}" for k, v in r.params.items()) or "none"
    return [f"oipr-bench: auditing {r.name} (parameters: {params}) on {len(state.case_ids)} cases"]


# -- items ---------------------------------------------------------------------------------------


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Any:
    """Add the oipr-bench collector to what the session collects, so pytest collects its items."""
    report = yield
    state = state_of(collector.config)
    if state is not None and isinstance(collector, pytest.Session) and report.passed:
        report.result.append(OiprCollector.from_parent(collector, name="oipr-bench", nodeid="oipr-bench"))
    return report


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    outcome = yield
    if isinstance(item, OiprItem):
        payload = item.take_payload()
        if payload is not None:
            outcome.get_result().oipr_bench = payload


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    try:
        _write_reports(session)
    finally:
        session.config.stash[EXIT_STATUS] = int(session.exitstatus)


def _write_reports(session: pytest.Session) -> None:
    """``--oipr-report`` and ``--oipr-html``; a report asked for and not written fails the run."""
    config = session.config
    state = state_of(config)
    if state is None or _is_worker(config) or config.option.collectonly:
        return
    if config.option.oipr_report or config.option.oipr_html:
        state.written = []  # type: ignore[attr-defined]
        state.write_errors = []  # type: ignore[attr-defined]
        try:
            profile = state.build_profile()
        except Exception as exc:  # never turn a finished run into an internal error
            state.write_errors.append(f"could not build the profile: {type(exc).__name__}: {exc}")  # type: ignore[attr-defined]
            session.exitstatus = pytest.ExitCode.TESTS_FAILED if session.exitstatus == 0 else session.exitstatus
            return
        if config.option.oipr_report:
            try:
                from ..io import atomic_write_text

                path = atomic_write_text(config.option.oipr_report, profile.to_json())
                state.written.append(f"JSON report written to {path}")  # type: ignore[attr-defined]
            except (OSError, ValueError) as exc:
                state.write_errors.append(f"--oipr-report: cannot write {config.option.oipr_report}: {exc}")  # type: ignore[attr-defined]
        if config.option.oipr_html:
            try:
                from ..reports.html_report import write_report
            except ImportError as exc:
                state.write_errors.append(  # type: ignore[attr-defined]
                    f"--oipr-html: cannot import oipr_bench.reports.html_report ({exc})"
                )
            else:
                try:
                    write_report(profile, config.option.oipr_html)
                    state.written.append(f"HTML report written to {config.option.oipr_html}")  # type: ignore[attr-defined]
                except Exception as exc:
                    state.write_errors.append(f"--oipr-html: {type(exc).__name__}: {exc}")  # type: ignore[attr-defined]
        if state.write_errors and session.exitstatus == 0:  # type: ignore[attr-defined]
            session.exitstatus = pytest.ExitCode.TESTS_FAILED  # a report asked for and not written fails the run


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    state = state_of(config)
    if state is None or _is_worker(config) or config.option.collectonly:
        return
    tr = terminalreporter
    try:
        from ..auditing.render import render_profile

        profile = state.build_profile()
        tr.write_sep("=", f"oipr-bench profile: {profile.evaluator}")
        for line in render_profile(profile).rstrip("\n").split("\n"):
            tr.write_line(line)
    except Exception as exc:  # never an internal error at the very end
        tr.write_line(f"oipr-bench: could not print the profile: {type(exc).__name__}: {exc}")
    if config.option.oipr_atlas:
        _write_atlas_placement(tr, state)
    for line in getattr(state, "written", []):
        tr.write_line(f"oipr-bench: {line}")
    for line in getattr(state, "write_errors", []):
        tr.write_line(f"oipr-bench: ERROR: {line}", red=True)


def _write_atlas_placement(tr: Any, state: Any) -> None:
    """``--oipr-atlas``: the evaluator's row among the committed atlas rows (see oipr_bench.atlas.place)."""
    try:
        from ..atlas.place import placement_lines, user_row
        from ..atlas.store import read_atlas

        profile = state.build_profile()
        row = user_row(profile.evaluator, profile.to_dict(), profile.declarations)
        tr.write_sep("=", f"oipr-bench atlas: {profile.evaluator} among the metrics")
        for line in placement_lines(row, read_atlas()):
            tr.write_line(line)
    except Exception as exc:  # never an internal error at the very end
        tr.write_line(f"oipr-bench: --oipr-atlas: could not place the evaluator: {type(exc).__name__}: {exc}")
