"""``oipr-bench atlas --check`` recomputes in an order that exposes a metric object keeping state.

A metric that remembers its first call (as TimeEval's RangePrAUC remembers its first buffer size)
reproduces itself when the cases run in the same order twice; ``--check`` runs them last to
first, so such a row drifts instead of passing.
"""

from __future__ import annotations

import numpy as np

from oipr_bench.atlas.adapters.base import Adapter
from oipr_bench.atlas.build import profile_adapter
from oipr_bench.atlas.drift import drift
from oipr_bench.evaluators import get


def _remembers_first_length(params):
    pw = get("PW")
    first: list[int] = []

    def fn(y_true: np.ndarray, y_pred: np.ndarray) -> float:
        if not first:
            first.append(len(y_true))
        f1 = pw(y_true, y_pred).f1
        return f1 if len(y_true) == first[0] else f1 / 2

    return fn


def _stateless(params):
    pw = get("PW")
    return lambda y_true, y_pred: pw(y_true, y_pred).f1


def _adapter(build) -> Adapter:
    return Adapter("oipr-bench", f"test:{build.__name__}", "point-wise", build)


def test_reverse_order_exposes_state_and_keeps_a_stateless_metric():
    stateful = _adapter(_remembers_first_length)
    forward, _, _ = profile_adapter(stateful)
    again, _, _ = profile_adapter(stateful)
    backward, _, _ = profile_adapter(stateful, reverse=True)
    assert forward["status"] == backward["status"] == "ok"
    assert drift({forward["id"]: forward}, [again]) == []  # the same order reproduces the state
    problems = drift({forward["id"]: forward}, [backward])
    assert any(": case " in p for p in problems)
    plain = _adapter(_stateless)
    ahead, _, _ = profile_adapter(plain)
    behind, _, _ = profile_adapter(plain, reverse=True)
    assert drift({ahead["id"]: ahead}, [behind]) == []


def test_the_grid_marks_failing_sanity_checks_and_prints_nan_per_the_legend():
    from oipr_bench.atlas.build import row_from_report
    from oipr_bench.atlas.render import grid_lines, render_html, render_markdown
    from oipr_bench.vocabulary import CHARACTERISTICS

    # a metric that returns NaN for the empty prediction (constant_detector/c1) and fails discriminates
    adapter = Adapter("oipr-bench", "test:nan", "point-wise", lambda params: None)
    report = oipr_bench_audit(lambda t, p: float("nan") if not p.any() else 0.5)
    row = row_from_report(adapter, report)
    assert row["cases"]["constant_detector/c1"] is None and "constant_detector/c1" not in row["failed_cases"]
    assert "discriminates" in row["sanity_failed"]
    failing = {**row, "id": "test:err", "metric": "test:err", "failed_cases": ["constant_detector/c1"]}
    doc = {"characteristics": list(CHARACTERISTICS), "rows": [row, failing]}
    lines = grid_lines(doc["rows"], doc["characteristics"])
    assert lines[0].split()[-1] == "sanity"
    assert all("+".join(row["sanity_failed"]) in line for line in lines if "test:" in line)
    md = render_markdown(doc)
    nan_line = next(line for line in md.splitlines() if line.startswith("| constant_detector/c1 |"))
    assert nan_line.split("|")[2:4] == [" nan ", " err "]
    assert "`nan` where it returned NaN" in md
    assert "+".join(row["sanity_failed"]) in render_html(doc)


def oipr_bench_audit(fn):
    from oipr_bench import audit

    return audit(fn).to_dict()


def test_no_committed_atlas_cell_is_derived_from_nan():
    # Every determined cell of the committed atlas read finite numbers: the value of each case it
    # compared ("F1 <case>", "score <case>", "P <case>") is a number, never NaN (stored as null).
    import json
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "atlas" / "profiles"
    checked = 0
    for path in sorted(folder.glob("*.json")):
        report = json.loads(path.read_text())["report"]
        if report is None:
            continue
        for c in report["characteristics"]:
            if c["observed"] in (None, "not_applicable") or c["evidence"] is None:
                continue
            read = {k: v for k, v in c["evidence"]["numbers"].items() if k.split(" ", 1)[0] in ("F1", "score", "P", "R")}
            assert read and all(v is not None for v in read.values()), (path.name, c["name"], read)
            checked += 1
    assert checked > 500


def _no_such_class(params):
    import types

    module = types.ModuleType("pkg")  # an older release without the class the adapter builds from
    return module.Tadmetric


def test_a_metric_that_cannot_be_built_is_an_unavailable_row_not_a_crash():
    row, report, _ = profile_adapter(_adapter(_no_such_class))
    assert row["status"] == "unavailable" and report is None
    assert row["reason"] == "cannot build the metric: AttributeError: module 'pkg' has no attribute 'Tadmetric'"
