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


def _report(fn, **options) -> dict:
    with AuditSession(resolve(fn), AuditOptions(random_runs=10, suite="table5", **options)) as session:
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
