"""One vocabulary: every characteristic, kind, sanity-check and status name is defined once.

oipr_bench.vocabulary owns the names; every other module imports them.  The
AST scan below fails when a module outside the vocabulary writes one of the
distinctive names out as a string literal (docstrings and longer messages that
merely mention a name are fine: only a literal equal to a name counts).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from oipr_bench.auditing.profile import profiles
from oipr_bench.auditing.table5 import characteristics
from oipr_bench.reports import html_report
from oipr_bench.reference import paper
from oipr_bench.pytest_plugin import items as plugin_items
from oipr_bench import scenarios, vocabulary
from oipr_bench.vocabulary import (
    BENEFICIAL,
    CASE_STATUSES,
    CHARACTERISTICS,
    ITEM_STATUSES,
    KINDS,
    MISLEADING,
    PROPERTY_SEARCH,
    SANITY_CHECKS,
    VALUES,
    kind_of,
)

PACKAGE = Path(vocabulary.__file__).parent


def test_the_names_and_their_order():
    assert CHARACTERISTICS == (
        "existence_detection_reward", "overlap_proportion_awareness", "fragments_merging",
        "addressing_ambiguous_labels", "early_detection_reward", "fragmentation_misleading_in_precision",
        "long_anomaly_misleading", "sparse_anomaly_misleading", "all_one_overestimation", "random_overestimation",
    )
    assert BENEFICIAL + MISLEADING == CHARACTERISTICS and len(BENEFICIAL) == 5
    assert set(CHARACTERISTICS) == set(paper.table_5()) == set(VALUES)
    for name, row in paper.table_5().items():
        assert set(row.values()) <= set(VALUES[name]), name
    assert SANITY_CHECKS == ("perfect", "discriminates", "deterministic", "no_nan", "no_mutation", "bool_int", "harmonic_f1")
    assert PROPERTY_SEARCH == "property-search" and PROPERTY_SEARCH not in SANITY_CHECKS
    assert CASE_STATUSES[0] == "ok" and "timed_out" in CASE_STATUSES
    assert {"passed", "failed", "undetermined", "not_applicable", "deviation", "unexpected_pass"} <= set(ITEM_STATUSES)
    assert len(set(CASE_STATUSES + ITEM_STATUSES)) == len(CASE_STATUSES) + len(ITEM_STATUSES)


def test_kind_of():
    assert KINDS == ("beneficial", "misleading")
    assert [kind_of(n) for n in CHARACTERISTICS] == ["beneficial"] * 5 + ["misleading"] * 5
    with pytest.raises(KeyError, match="unknown characteristic 'bogus'"):
        kind_of("bogus")


def test_the_other_modules_use_the_same_objects():
    # The very same tuples, not copies kept in sync.
    assert characteristics.CHARACTERISTICS is CHARACTERISTICS
    assert characteristics.VALUES is VALUES
    assert scenarios.CHARACTERISTICS is CHARACTERISTICS
    assert profiles.SANITY_CHECKS is SANITY_CHECKS
    assert plugin_items.CHARACTERISTICS is CHARACTERISTICS
    assert html_report.CHARACTERISTICS is CHARACTERISTICS


def _distinctive_names() -> set[str]:
    # Generic words ("ok", "passed", "yes") also appear in messages; these cannot.
    statuses = {s for s in CASE_STATUSES + ITEM_STATUSES if "_" in s or s in ("undetermined", "deviation", "crashed")}
    return set(CHARACTERISTICS) | set(SANITY_CHECKS) | {PROPERTY_SEARCH} | set(KINDS) | statuses


def test_no_module_spells_the_names_out():
    names = _distinctive_names()
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "vocabulary.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names:
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {node.value!r}")
    assert not offenders, "spell these through oipr_bench.vocabulary:\n" + "\n".join(offenders)
