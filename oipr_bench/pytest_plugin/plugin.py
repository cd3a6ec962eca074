"""pytest plugin: ``pytest --evaluator=pkg.mod:Name`` audits an evaluator.

Registered through the ``pytest11`` entry point and completely inert unless
``--evaluator`` is given (no items, no summary; this module imports nothing
but pytest, which is already loaded, and :mod:`oipr_bench.vocabulary`).
With ``--evaluator`` pytest collects, after the user's own tests, a
collector ``oipr-bench`` whose items have stable ids (usable with ``-k``,
``--deselect``, ``--lf``, ``--sw``) and a marker per kind (``-m oipr_sanity``):

- ``case[<scenario>/<case>]``: the evaluator on one case (all runs of a random
  case); fails on a broken result, errors when the worker process died;
- ``sanity[<name>]``: the sanity checks of :mod:`oipr_bench.auditing.profile.sanity`;
  with ``--oipr-hypothesis-examples N`` also ``sanity[property-search]`` (a derandomized
  hypothesis search of N examples per model-free property);
- ``characteristic[<name>]``: the ten characteristics, derived by
  :mod:`oipr_bench.auditing.table5.characteristics` and compared with the expected profile
  (declared deviations are xfail; an unexpected pass is XPASS);
- ``reference[<scenario>/<case>]`` with ``--reference=NAME``;
- ``property[<name>]`` with ``--oipr-suite properties`` or ``all`` (the
  default with ``--oipr-input scores``): a metric property beyond Table 5,
  reported (passes) unless ``--expect name=value`` declares its value;
- ``differential[<family>]`` with ``--reference=NAME --oipr-differential N``: the
  evaluator against the reference on N generated pairs of one family, the first
  difference shrunk (:mod:`oipr_bench.auditing.regression.differential`).

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

from .options import OPTIONS, register, repeated_option, taken_names, value
from .outputs import check_outputs, check_report_path, note_pytest_inputs, report_paths
from .atlas_section import write_atlas_placement
from .realdata import check_realdata, realdata_html, run_realdata, write_realdata
from .items import MARKERS, STATE, OiprCollector, OiprItem, PluginState, state_of


#: The run scope of an auditing session (see oipr_bench.io.run_scope), closed at unconfigure.
SCOPE = pytest.StashKey[ExitStack]()
#: The session's exit status.
EXIT_STATUS = pytest.StashKey[int]()


@pytest.hookimpl(hookwrapper=True)
def pytest_load_initial_conftests(early_config: pytest.Config, parser: pytest.Parser, args: list[str]) -> Any:
    """Register the options once the project's initial conftests have registered theirs.

    A conftest that defines ``--evaluator`` (or ``--oipr-timeout``) keeps it and pytest runs as
    before; oipr-bench keeps its other spellings (``--oipr-evaluator``). See :mod:`.options`.
    """
    yield
    register(parser)


def _options(config: pytest.Config) -> Any:
    """The audit options of this run, from the flags (errors re-phrased with the flag names)."""
    from ..auditing.options import PLUGIN_FLAGS, options_from_flags

    names = ("timeout", "isolate", "reference", "reference_param", "against", "tolerance", "hypothesis_examples",
             "expect", "expect_file", "lower_is_better", "bounds", "suite", "differential", "seed", "shrink_budget",
             "cases", "profile_only")
    values = {name: value(config, name) for name in names}
    values["input_kind"] = value(config, "input")
    options = options_from_flags(values, PLUGIN_FLAGS)
    if value(config, "atlas"):  # placed with the options `oipr-bench atlas --evaluator` uses
        from ..atlas.place import placement_options

        options = placement_options(options)
    return options


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def pytest_configure(config: pytest.Config) -> None:
    _say_taken_names(config)
    repeated = repeated_option(list(config.invocation_params.args))
    if repeated:  # on the command line itself: addopts may still be overridden
        raise pytest.UsageError(f"oipr-bench: {repeated}")
    evaluator = value(config, "evaluator")
    if evaluator is None:
        _refuse_options_without_evaluator(config)
        return
    if not str(evaluator).strip():
        raise pytest.UsageError("oipr-bench: --evaluator is empty; give a built-in name (OIPR, PA, ...), "
                                "pkg.mod:Name, pkg.mod.Name or file.py:Name")
    for line in MARKERS.values():
        config.addinivalue_line("markers", line)
    from ..errors import OiprBenchError
    from ..auditing.profile.profiles import AuditSession
    from ..auditing.calling.resolve import parse_params, resolve
    from ..io import run_scope

    scope = ExitStack()
    scope.enter_context(run_scope())  # no report of this session may replace a file it reads
    try:
        options = _options(config)
        resolved = resolve(value(config, "evaluator"),
                           parse_params(value(config, "evaluator_param"), option="--evaluator-param"))
        note_pytest_inputs(config)
        check_outputs(config)
        check_realdata(config)
        state = PluginState(AuditSession(resolved, options), strict=bool(value(config, "strict_expectations")))
    except (OiprBenchError, ValueError, OSError) as exc:
        scope.close()
        from ..auditing.options import PLUGIN_FLAGS, OptionError

        raise pytest.UsageError(f"oipr-bench: {exc.phrased(PLUGIN_FLAGS) if isinstance(exc, OptionError) else exc}") \
            from None
    config.stash[SCOPE] = scope
    state.selection = {name: str(expr) for name, expr in (("keyword", getattr(config.option, "keyword", "")),
                                                          ("markers", getattr(config.option, "markexpr", ""))) if expr}
    _forget_other_evaluators_failures(config, str(evaluator))
    config.stash[STATE] = state
    config.pluginmanager.register(state, "oipr-bench-state")


def _refuse_options_without_evaluator(config: pytest.Config) -> None:
    """oipr options given without ``--evaluator`` are a usage error (pytest exit 4), never silently ignored.

    A requested report would otherwise not be written, an expectation never checked; a suite that
    passes no oipr option is untouched.
    """
    given = []
    for option in OPTIONS:
        if option.name == "evaluator":
            continue
        if value(config, option.name) not in (option.kwargs.get("default"), None):
            spelled = next((n for n in option.names if n not in taken_names()), option.names[0])
            given.append(spelled)
    if given:
        verb = "needs" if len(given) == 1 else "need"
        raise pytest.UsageError(f"oipr-bench: {', '.join(given)} {verb} --evaluator (the evaluator to audit); "
                                "nothing was audited")


#: Where the cache remembers which evaluator the last session audited.
CACHE_KEY = "oipr-bench/evaluator"


def _forget_other_evaluators_failures(config: pytest.Config, evaluator: str) -> None:
    """``--lf``/``--ff`` after switching evaluator: the previous evaluator's failures are not this one's.

    Item ids (``oipr-bench::case[...]``) do not name the evaluator, so the last-failed list of
    another evaluator is dropped (for oipr-bench items only) and the new evaluator is audited in full.
    """
    cache = getattr(config, "cache", None)
    if cache is None:
        return
    previous = cache.get(CACHE_KEY, None)
    cache.set(CACHE_KEY, evaluator)
    lfplugin = config.pluginmanager.get_plugin("lfplugin")
    lastfailed = getattr(lfplugin, "lastfailed", None)
    if previous == evaluator or not isinstance(lastfailed, dict):
        return
    for nodeid in [k for k in lastfailed if str(k) == "oipr-bench" or str(k).startswith("oipr-bench::")]:
        del lastfailed[nodeid]


def _say_taken_names(config: pytest.Config) -> None:
    """One line when the command line uses a spelling a conftest or plugin took from oipr-bench."""
    used = [name for name in taken_names()
            if any(str(arg) == name or str(arg).startswith(name + "=") for arg in config.invocation_params.args)]
    if used:
        other = {o: n for opt in OPTIONS for n in opt.names for o in opt.names if n != o}
        hint = "; ".join(f"{name} (use {other[name]})" if name in other else name for name in used)
        config.issue_config_time_warning(pytest.PytestConfigWarning(
            f"oipr-bench: defined by this project's conftest or another plugin, so not oipr-bench's: {hint}"),
            stacklevel=2)


def pytest_collection_finish(session: pytest.Session) -> None:
    """The collected test files are inputs of the session too: refuse a report path naming one, before any test runs."""
    config = session.config
    if state_of(config) is None or _is_worker(config):
        return
    from ..io import note_input

    note_pytest_inputs(config)  # conftest files found while collecting
    for item in session.items:
        note_input(item.path, "a test file of this pytest run")
    for flag, path, endings, words in report_paths(config):
        check_report_path(flag, path, endings, words)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node: Any, ids: list[str]) -> None:
    """Under pytest-xdist the controller collects nothing: note the test files the workers collected.

    A report path naming one then fails the run when the report is written (the file is kept).
    """
    config = node.config
    if state_of(config) is None:
        return
    from ..io import note_input

    for nodeid in {i.split("::")[0] for i in ids}:
        note_input(config.rootpath / nodeid, "a test file of this pytest run")


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

    Only threads started while the evaluator's code ran count (:func:`~oipr_bench.auditing.calling.streams.started_threads`):
    a test's own threads are waited for (first), as pytest would without oipr-bench, and never ended.
    Runs last, after the report and every other plugin's unconfigure; stdout and stderr are flushed.
    """
    import os
    import sys

    from ..auditing.calling.streams import started_threads

    stray = [t for t in started_threads() if t.is_alive() and not t.daemon and t is not threading.main_thread()]
    if not stray:
        return  # the test suite's own threads: the interpreter waits for them, as without oipr-bench
    for thread in threading.enumerate():  # the suite's own threads finish first; only the evaluator's are left
        if thread.is_alive() and not thread.daemon and thread is not threading.main_thread() and thread not in stray:
            thread.join()
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
        if not _refuse_inapplicable_declarations(session):
            if state_of(session.config) is not None and not _is_worker(session.config):
                run_realdata(session, state_of(session.config))
            _write_reports(session)
    finally:
        session.config.stash[EXIT_STATUS] = int(session.exitstatus)


def _refuse_inapplicable_declarations(session: pytest.Session) -> bool:
    """Once the evaluator's kind is known: a declaration that does not apply to it fails the run (usage error,
    no report written). True when one was refused."""
    config = session.config
    state = state_of(config)
    if state is None or _is_worker(config) or config.option.collectonly:
        return False
    from ..auditing.declared import inapplicable_declaration
    from ..auditing.options import PLUGIN_FLAGS

    try:
        kind = state.build_profile().kind
    except Exception:  # noqa: BLE001 - _write_reports names a profile that cannot be built
        return False
    problem = inapplicable_declaration(state.session.options, kind, state.session.resolved.name)
    if problem is None:
        return False
    state.write_errors = [f"{problem.phrased(PLUGIN_FLAGS)} (no report written)"]  # type: ignore[attr-defined]
    session.exitstatus = pytest.ExitCode.USAGE_ERROR
    return True


def _write_reports(session: pytest.Session) -> None:
    """``--oipr-report`` and ``--oipr-html``; a report asked for and not written fails the run."""
    config = session.config
    state = state_of(config)
    if state is None or _is_worker(config) or config.option.collectonly:
        return
    if value(config, "report") or value(config, "html"):
        state.written = []  # type: ignore[attr-defined]
        state.write_errors = []  # type: ignore[attr-defined]
        try:
            profile = state.build_profile()
        except Exception as exc:  # never turn a finished run into an internal error
            state.write_errors.append(f"could not build the profile: {type(exc).__name__}: {exc}")  # type: ignore[attr-defined]
            session.exitstatus = pytest.ExitCode.TESTS_FAILED if session.exitstatus == 0 else session.exitstatus
            return
        if value(config, "report"):
            try:
                from ..io import atomic_write_text

                path = atomic_write_text(value(config, "report"), profile.to_json())
                state.written.append(f"JSON report written to {path}")  # type: ignore[attr-defined]
            except (OSError, ValueError) as exc:
                state.write_errors.append(f"--oipr-report: cannot write {value(config, 'report')}: {exc}")  # type: ignore[attr-defined]
        if value(config, "html"):
            try:
                from ..reports.html_report import write_report
            except ImportError as exc:
                state.write_errors.append(  # type: ignore[attr-defined]
                    f"--oipr-html: cannot import oipr_bench.reports.html_report ({exc})"
                )
            else:
                try:
                    write_report(profile, value(config, "html"), extra_html=realdata_html(state))
                    state.written.append(f"HTML report written to {value(config, 'html')}")  # type: ignore[attr-defined]
                except Exception as exc:
                    state.write_errors.append(f"--oipr-html: {type(exc).__name__}: {exc}")  # type: ignore[attr-defined]
        if state.write_errors and session.exitstatus == 0:  # type: ignore[attr-defined]
            session.exitstatus = pytest.ExitCode.TESTS_FAILED  # a report asked for and not written fails the run


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    state = state_of(config)
    if state is None or _is_worker(config):
        return
    if config.option.collectonly:
        asked = [flag for flag, name in (("--oipr-report", "report"), ("--oipr-html", "html")) if value(config, name)]
        if asked:
            terminalreporter.write_line(f"oipr-bench: no report written ({', '.join(asked)}): --collect-only runs "
                                        "nothing of the evaluator's, so there is no profile to report")
        return
    tr = terminalreporter
    try:
        from ..auditing.profile.render import render_profile

        profile = state.build_profile()
        tr.write_sep("=", f"oipr-bench profile: {profile.evaluator}")
        for line in render_profile(profile).rstrip("\n").split("\n"):
            tr.write_line(line)
    except Exception as exc:  # never an internal error at the very end
        tr.write_line(f"oipr-bench: could not print the profile: {type(exc).__name__}: {exc}")
    if value(config, "atlas"):
        write_atlas_placement(tr, config, state)
    if value(config, "realdata") is not None:
        write_realdata(tr, state)
    for line in getattr(state, "written", []):
        tr.write_line(f"oipr-bench: {line}")
    for line in getattr(state, "write_errors", []):
        tr.write_line(f"oipr-bench: ERROR: {line}", red=True)
