"""Re-reading a stored report (oipr_bench.atlas.reread) gives what a fresh audit gives.

``atlas --write`` keeps the slow rows' stored profiles and re-reads their reports with the current
readings.  These tests show the re-reading equals a fresh audit: on reports written by an audit
without the current readings (the scale guard switched off, the sanity checks as before), and on
the committed profiles of fast rows, recomputed here (built-ins in any environment; third-party
rows where their package is installed, i.e. in the atlas environments).
"""

from __future__ import annotations

import numpy as np
import pytest

from oipr_bench import vocabulary as v
from oipr_bench.atlas.build import _strip_timings, profile_adapter
from oipr_bench.atlas.reread import reread_report, reread_row
from oipr_bench.atlas.store import default_dir, read_profile
from oipr_bench.auditing.calling.resolve import resolve
from oipr_bench.auditing.options import AuditOptions
from oipr_bench.auditing.profile.profiles import AuditSession


def _f1(p: float, r: float) -> float:
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


def _pw(t, p):
    t, p = np.asarray(t) == 1, np.asarray(p) == 1
    tp = float((t & p).sum())
    return tp / max(float(p.sum()), 1.0), tp / max(float(t.sum()), 1.0)


def f1_declared_lower(t, p):
    """PW's F1 declared lower-is-better: no usable scale on any case."""
    return _f1(*_pw(t, p))


f1_declared_lower.higher_is_better = False  # type: ignore[attr-defined]


def f1_nan_when_nothing_overlaps(t, p):
    """PW's (P, R, F1) with F1 NaN where it is 0 (defined): fails no_nan, not deterministic."""
    pr, rc = _pw(t, p)
    return pr, rc, (float("nan") if pr + rc == 0 and np.any(p) else _f1(pr, rc))


def first_point_score(t, s):
    """The score at the first anomalous point: a chance anchor whose standard error is a fifth of its span."""
    return float(np.asarray(s, float)[int(np.flatnonzero(np.asarray(t) == 1)[0])])


def _report(fn, suite: str = "table5", **options) -> dict:
    with AuditSession(resolve(fn), AuditOptions(random_runs=10, suite=suite, **options)) as session:
        return _strip_timings(session.run_all().to_dict())


def _as_written_before(report: dict) -> dict:
    """``report`` as the audit wrote it before ``no_nan``: a probe with no value failed ``deterministic``."""
    sanity = []
    for s in report["sanity"]:
        if s["name"] == v.NO_NAN:
            continue
        if s["name"] == v.DETERMINISTIC and s["message"].startswith("the calls that gave a value agree"):
            s = {**s, "status": v.FAILED, "message": s["message"].split("no value to compare on ", 1)[1]}
        sanity.append(s)
    out = {**report, "sanity": sanity}
    from oipr_bench.auditing.profile.results import Profile

    return Profile.from_dict(out).to_dict()  # its own signature and ok, as a stored report holds them


@pytest.mark.parametrize("fn,options", [(f1_declared_lower, {}), (f1_nan_when_nothing_overlaps, {}),
                                        (first_point_score, {"input_kind": "scores"})],
                         ids=["no-usable-scale", "nan-where-defined", "span-within-chance-noise"])
def test_rereading_a_report_written_without_the_current_readings_gives_the_fresh_report(fn, options, monkeypatch):
    fresh = _report(fn, **options)
    with monkeypatch.context() as m:  # the audit as it was: no scale guard
        m.setattr("oipr_bench.auditing.table5.characteristics.guarded", lambda finding, *_: finding)
        before = _as_written_before(_report(fn, **options))
    assert before != fresh  # the control shows the change the re-reading must make
    assert _strip_timings(reread_report(before)) == fresh
    assert _strip_timings(reread_report(fresh)) == fresh  # a current report re-reads to itself


def auc(t, s):
    """AUC-ROC (Mann-Whitney, tied scores share their mean rank)."""
    t, s = np.asarray(t) == 1, np.asarray(s, float)
    n1, n0 = int(t.sum()), int((~t).sum())
    order = np.argsort(s, kind="stable")
    ranks = np.empty(s.size)
    ranks[order] = np.arange(1, s.size + 1)
    _, inv = np.unique(s, return_inverse=True)
    ranks = np.bincount(inv, weights=ranks)[inv] / np.bincount(inv)[inv]
    return float((ranks[t].sum() - n1 * (n1 + 1) / 2) / (n1 * n0))


def pa_auc(t, s):
    """Point-adjusted AUC-ROC: every point of a true event takes the event's highest score."""
    t, s = np.asarray(t), np.asarray(s, float).copy()
    edges = np.flatnonzero(np.diff(np.concatenate(([0], t, [0]))))
    for a, b in zip(edges[::2], edges[1::2]):
        s[a:b] = s[a:b].max()
    return auc(t, s)


def test_rereading_a_property_read_against_chance_on_a_short_span_gives_the_fresh_report(monkeypatch):
    # chance_ordering of the score at the first anomalous point: the random draws' mean lies 4.1 of its standard
    # errors below perfect, so the fresh audit has no verdict; a report written without the span rule says ordered
    fresh = _report(first_point_score, suite="properties", input_kind="scores")
    with monkeypatch.context() as m:
        m.setattr("oipr_bench.auditing.properties.run.against_chance_doubt", lambda finding: "")
        before = _report(first_point_score, suite="properties", input_kind="scores")
    co = {p["name"]: p for p in before["properties"]}[v.CHANCE_ORDERING]
    assert co["observed"] == v.ORDERED  # the control shows the change the re-reading must make
    assert {p["name"]: p for p in fresh["properties"]}[v.CHANCE_ORDERING]["observed"] is None
    assert _strip_timings(reread_report(before)) == fresh
    assert _strip_timings(reread_report(fresh)) == fresh


def _without_the_chance_error(report: dict) -> dict:
    """``report`` with every finding's evidence as reports written before random_overestimation's kept the chance
    standard error (and, to show the same reading for the other rules, with none kept at all)."""
    out = {**report, "characteristics": []}
    for ch in report["characteristics"]:
        if ch["evidence"]:
            numbers = {k: x for k, x in ch["evidence"]["numbers"].items()
                       if not k.startswith(("chance standard error", "random detector above chance"))}
            ch = {**ch, "evidence": {**ch["evidence"], "numbers": numbers}}
        out["characteristics"].append(ch)
    return out


def test_a_stored_verdict_against_chance_without_its_standard_error_is_undetermined():
    # auc's absent is read against chance on both random_detector cases (spans of ~40 standard errors): fresh, a
    # verdict; without the standard error in the stored evidence, the span cannot be checked
    fresh = _report(auc, input_kind="scores")
    assert {c["name"]: c for c in fresh["characteristics"]}[v.RANDOM_OVERESTIMATION]["observed"] == v.ABSENT
    res = {c["name"]: c for c in reread_report(_without_the_chance_error(fresh))["characteristics"]}[v.RANDOM_OVERESTIMATION]
    assert res["observed"] is None and res["status"] == v.UNDETERMINED
    assert "chance standard error was not recorded" in res["message"] and "--include-slow" in res["message"]
    # the same for a rule that reads a level against chance on every case: existence (no, at 30 standard errors)
    assert {c["name"]: c for c in fresh["characteristics"]}[v.EXISTENCE_DETECTION_REWARD]["observed"] == v.NO
    res = {c["name"]: c for c in reread_report(_without_the_chance_error(fresh))["characteristics"]}[v.EXISTENCE_DETECTION_REWARD]
    assert res["observed"] is None and "chance standard error was not recorded" in res["message"]
    # must not: point-adjusted AUC's present is read on the metric's own range, which needs no chance error
    pa = _report(pa_auc, input_kind="scores")
    res = {c["name"]: c for c in reread_report(_without_the_chance_error(pa))["characteristics"]}[v.RANDOM_OVERESTIMATION]
    assert res["observed"] == v.PRESENT


#: Fast rows whose committed cells the current readings change or keep (built-ins first).
ROWS = ["oipr-bench:AUC-ROC", "oipr-bench:PA", "TSADmetrics:add", "TSADmetrics:pa_auc_roc", "orion-ml:point",
        "telemeval:adtqc", "TimeEval:RocAUC"]


@pytest.mark.parametrize("row_id", ROWS)
def test_a_committed_profile_reread_gives_the_cells_of_a_fresh_audit(row_id: str):
    from oipr_bench.atlas.adapters.registry import by_id

    adapter = by_id()[row_id]
    if adapter.slow:
        pytest.skip("a slow row is not profiled here")
    fresh, _, _ = profile_adapter(adapter)
    if fresh["status"] == "unavailable":
        pytest.skip(f"{adapter.package} is not installed here (run in an atlas environment)")
    stored = read_profile(default_dir(), row_id)
    assert stored is not None and stored["report"] is not None
    row, _ = reread_row(stored["row"], stored["report"])
    for key in ("characteristics", "properties", "sanity_failed", "saturated", "cases"):
        assert row[key] == fresh[key], (row_id, key)
