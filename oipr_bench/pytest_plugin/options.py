"""The plugin's command-line options, registered so that they coexist with a project's own.

A project whose ``conftest.py`` (or another plugin) already defines ``--evaluator``, ``--expect``
or even ``--oipr-timeout`` must still be able to run pytest once oipr-bench is installed. So:

* every option stores into its own destination, ``oipr_bench_<name>``, which no project uses;
* options are registered *after* the initial conftests (``pytest_load_initial_conftests``), one
  name at a time: a name a conftest took stays the conftest's, and oipr-bench keeps its other
  spelling; every generic name has an ``--oipr-`` alias (``--evaluator`` / ``--oipr-evaluator``);
* :func:`taken_names` lists the names oipr-bench could not have; the plugin names them in one line
  when they appear on the command line (see :func:`oipr_bench.pytest_plugin.plugin.pytest_configure`).

Read an option with :func:`value` (``config.getoption`` with the right destination and default).
"""

from __future__ import annotations

import argparse
from typing import Any, NamedTuple

import pytest

from ..auditing.calling.flags import once

GROUP = ("oipr-bench", "oipr-bench: audit a time-series anomaly detection evaluator")


class PluginOption(NamedTuple):
    """One option: its spellings (preferred first), destination name and argparse keywords."""

    names: tuple[str, ...]
    name: str
    kwargs: dict[str, Any]


def _opt(names: tuple[str, ...], name: str, **kwargs: Any) -> PluginOption:
    return PluginOption(names, name, kwargs)


OPTIONS: tuple[PluginOption, ...] = (
    _opt(("--evaluator", "--oipr-evaluator"), "evaluator", metavar="SPEC", default=None,
         help="evaluator to audit: a built-in name (OIPR, PA, ...), pkg.mod:Name, pkg.mod.Name or file.py:Name"),
    _opt(("--evaluator-param", "--oipr-evaluator-param"), "evaluator_param", metavar="KEY=VALUE", action="append",
         default=[], help="parameter for the evaluator (repeatable; values parsed as JSON where they parse)"),
    _opt(("--reference", "--oipr-reference"), "reference", metavar="NAME", default=None,
         help="compare every case with this built-in evaluator's reference values; its own Table 5 and "
              "property row become the expected profile (a score evaluator, e.g. VUS-PR, with --oipr-input=scores: "
              "its stored numbers on every case, and generated cases with --oipr-differential; NAB, for an "
              "evaluator returning one number from 0/1 predictions, on the generated 0/1 pairs)"),
    _opt(("--reference-param", "--oipr-reference-param"), "reference_param", metavar="KEY=VALUE", action="append",
         default=[], help="parameter for --reference (repeatable)"),
    _opt(("--oipr-cases",), "cases", metavar="FILE", default=None,
         help="add your own cases: a JSON file in the dataset's scenario format (schema/scenario.schema.json), "
         "run and compared with --reference like the built-in cases"),
    _opt(("--against", "--oipr-against"), "against", choices=("reference", "paper"), default=None,
         help="with --reference: compare with our reference values (default; --tolerance) or with the paper's "
         "Table A1 (5e-5; 3 standard errors on random cases)"),
    _opt(("--tolerance", "--oipr-tolerance"), "tolerance", type=float, default=None,
         help="with --reference: absolute tolerance of the comparison (default 1e-9)"),
    _opt(("--expect", "--oipr-expect"), "expect", metavar="NAME=VALUE", action="append", default=[],
         help="declare an expected characteristic value that deviates from OIPR's profile (repeatable)"),
    _opt(("--expect-file", "--oipr-expect-file"), "expect_file", metavar="PATH", default=None,
         help="TOML or JSON file of characteristic = value declarations"),
    _opt(("--oipr-profile-only",), "profile_only", action="store_true", default=False,
         help="read the observed profile only, with no expected row: characteristics and properties are reported, "
         "not judged against OIPR's row; a failing case or sanity check still fails"),
    _opt(("--oipr-differential",), "differential", metavar="N", type=int, default=0,
         help="with --reference: also compare the evaluator with it on N generated series pairs per family "
         "(items differential[<family>]; the first difference is shrunk; default 0 = off)"),
    _opt(("--oipr-seed",), "seed", metavar="SEED", type=int, default=None,
         help="with --oipr-differential: seed of the generated pairs (default 0; the same seed tries the same pairs)"),
    _opt(("--oipr-shrink-budget",), "shrink_budget", metavar="SECONDS", type=float, default=None,
         help="with --oipr-differential: seconds the shrinking of a counterexample may take (default 30)"),
    _opt(("--strict-expectations", "--oipr-strict-expectations"), "strict_expectations", action="store_true",
         default=False, help="a declared deviation that does not occur (XPASS) fails"),
    _opt(("--oipr-report",), "report", metavar="PATH", default=None,
         help="write the profile as a JSON report (atomically)"),
    _opt(("--oipr-html",), "html", metavar="PATH", default=None,
         help="write a self-contained HTML report (SVG pictures; matplotlib not needed)"),
    _opt(("--oipr-timeout",), "timeout", metavar="SECONDS", type=float, default=None,
         help="end any single evaluator call after SECONDS (runs calls in a worker process)"),
    _opt(("--oipr-isolate",), "isolate", action="store_true", default=False,
         help="run every evaluator call in a worker process (survives segfaults and os._exit)"),
    _opt(("--oipr-hypothesis-examples",), "hypothesis_examples", metavar="N", type=int, default=0,
         help="add the item sanity[property-search]: a hypothesis search of N examples per model-free property "
         "(derandomized, so reproducible; default 0 = off)"),
    _opt(("--oipr-input",), "input", choices=("binary", "scores"), default=None,
         help="what the evaluator takes: binary 0/1 predictions (default) or scores (y_pred as float64); "
         "default: its input_kind attribute"),
    _opt(("--oipr-lower-is-better",), "lower_is_better", action="store_true", default=False,
         help="the evaluator's one-number score is better when lower (default: its higher_is_better attribute, "
         "else higher)"),
    _opt(("--oipr-bounds",), "bounds", metavar="LO:HI", default=None,
         help="range of the evaluator's one-number score, an empty end open (e.g. 0: ); default: its bounds "
         "attribute, else 0:1"),
    _opt(("--oipr-suite",), "suite", choices=("table5", "properties", "all"), default=None,
         help="what to audit: the paper's Table 5 (default for 0/1 input), the metric properties "
         "(items property[NAME]; docs/properties.md), or all (default with --oipr-input scores)"),
    _opt(("--oipr-realdata",), "realdata", metavar="DIR", default=None,
         help="after the profile, rank NAB's real detectors with the evaluator beside the 14 built-ins (a NAB checkout "
         "or a copy in NAB's layout): printed, and a section of --oipr-html (docs/realdata.md)"),
    _opt(("--oipr-atlas",), "atlas", action="store_true", default=False,
         help="after the profile, print the evaluator's row inside the metric atlas with its three nearest metrics "
              "(audits the suite all unless --oipr-suite is given, as `oipr-bench atlas --evaluator` does)"),
)

_BY_NAME = {o.name: o for o in OPTIONS}
#: Spellings another plugin or conftest defined first (filled by :func:`register`).
_TAKEN: list[str] = []


def dest(name: str) -> str:
    """The destination of option ``name`` (``"evaluator"`` -> ``"oipr_bench_evaluator"``)."""
    return f"oipr_bench_{name}"


#: Options whose second occurrence is refused (:class:`~oipr_bench.auditing.calling.flags.GivenOnce`): what the
#: evaluator takes and returns.  Every other option follows pytest's rule, a later value overrides an
#: earlier one, so that a command line can override ``addopts``; ``--expect`` refuses a name twice.
GIVEN_ONCE = ("input", "bounds")


def _kwargs(option: PluginOption, names: tuple[str, ...]) -> dict[str, Any]:
    return once(names, option.kwargs) if option.name in GIVEN_ONCE else option.kwargs


def register(parser: pytest.Parser) -> None:
    """Add every option, one spelling at a time; a spelling already defined elsewhere is left to its owner."""
    group = parser.getgroup(*GROUP)
    del _TAKEN[:]
    for option in OPTIONS:
        try:
            group.addoption(*option.names, dest=dest(option.name), **_kwargs(option, option.names))
            continue
        except (ValueError, argparse.ArgumentError):  # "already added" / "conflicting option string"
            pass
        for spelling in option.names:
            try:
                group.addoption(spelling, dest=dest(option.name), **_kwargs(option, (spelling,)))
            except (ValueError, argparse.ArgumentError):
                _TAKEN.append(spelling)


def repeated_option(args: list[str]) -> str | None:
    """The error for a single-valued option given twice in ``args`` (the command line as typed), else None.

    ``args`` is ``config.invocation_params.args``: the command line without ``addopts``, so a value
    on the command line still overrides one in the ini file (pytest's rule), but two on the command
    line (``--oipr-report=a.json --oipr-report=b.json``: only b.json written; ``--evaluator=PW
    --evaluator=OIPR``: OIPR audited) are refused, as ``oipr-bench`` refuses them
    (:class:`~oipr_bench.auditing.calling.flags.GivenOnce`). Repeatable options (``action="append"``)
    and switches are not single-valued.
    """
    from ..guards import clip

    seen: dict[str, tuple[str, str]] = {}
    taken = set(_TAKEN)
    items = [str(a) for a in args]
    for i, arg in enumerate(items):
        if arg == "--":
            break
        flag, eq, given = arg.partition("=")
        option = next((o for o in OPTIONS if flag in o.names and flag not in taken), None)
        if option is None or option.kwargs.get("action", "store") != "store":
            continue
        if not eq:
            given = items[i + 1] if i + 1 < len(items) else ""
        if option.name in seen:
            first_flag, first = seen[option.name]
            return (f"{flag} given twice ({first_flag} {clip(repr(first), 80)}, then {flag} {clip(repr(given), 80)}): "
                    "give it once")
        seen[option.name] = (flag, given)
    return None


def taken_names() -> list[str]:
    """The spellings oipr-bench could not register in this session (a conftest or plugin has them)."""
    return list(_TAKEN)


def value(config: pytest.Config, name: str) -> Any:
    """The value of option ``name`` (its default when none of its spellings could be registered)."""
    return config.getoption(dest(name), _BY_NAME[name].kwargs.get("default"))
