"""Placement by behaviour (oipr_bench.atlas.nearest): only cells both rows define, characteristics and
properties together, case numbers on each row's own scale."""

from __future__ import annotations

import math

import numpy as np
import pytest

from oipr_bench.atlas.nearest import compared_cells, differences, nearest, own_scale
from oipr_bench.atlas.place import placement_lines, user_row


def _row(rid, chars, props=None, cases=None, bounds=(0.0, 1.0), hib=True, status="ok"):
    return {"id": rid, "metric": rid, "status": status, "characteristics": chars, "properties": props or {},
            "cases": cases or {}, "bounds": list(bounds), "higher_is_better": hib}


def test_undefined_cells_are_not_compared():
    a = _row("a", {"x": "yes", "y": "n/a", "z": "?"}, {"p": "no"})
    b = _row("b", {"x": "yes", "y": "no", "z": "no"}, {"p": "yes"})
    assert compared_cells(a, b) == ["x", "p"]
    assert differences(a, b) == ("p",)


def test_properties_count_in_the_distance():
    me = _row("me", {"x": "yes"}, {"p": "no", "q": "no"})
    same = _row("same", {"x": "yes"}, {"p": "no", "q": "no"})
    other = _row("other", {"x": "yes"}, {"p": "yes", "q": "yes"})
    got = nearest(me, [other, same], k=2)
    assert [n.row_id for n in got] == ["same", "other"]
    assert (got[1].distance, got[1].compared, got[1].differs) == (pytest.approx(2 / 3), 3, ("p", "q"))


def test_a_row_sharing_too_few_cells_is_not_a_candidate():
    me = _row("me", {"x": "yes", "y": "no", "z": "no", "w": "yes"})
    sparse = _row("sparse", {"x": "yes", "y": "n/a", "z": "?", "w": "n/a"})  # 1 of my 4 cells
    full = _row("full", {"x": "yes", "y": "no", "z": "yes", "w": "yes"})
    assert [n.row_id for n in nearest(me, [sparse, full])] == ["full"]


def test_case_numbers_are_compared_on_each_rows_own_scale():
    # a delay (lower is better, open above) against an F1: both at their best end on c1, worst on c2
    delay = _row("delay", {"x": "yes"}, cases={"c1": 0.0, "c2": 40.0, "c3": 10.0}, bounds=(0.0, None), hib=False)
    f1 = _row("f1", {"x": "yes"}, cases={"c1": 1.0, "c2": 0.0, "c3": 0.75})
    assert own_scale(delay) == {"c1": 1.0, "c2": 0.0, "c3": 0.75}
    (n,) = nearest(f1, [delay], k=1)
    assert n.case_distance == pytest.approx(0.0)
    # raw numbers would be 13.4 apart on average; a constant row sits at the middle of its scale
    flat = _row("flat", {"x": "yes"}, cases={"c1": 0.3, "c2": 0.3}, bounds=(None, None))
    assert own_scale(flat) == {"c1": 0.5, "c2": 0.5}


def test_placement_lines_say_how_many_cells_were_compared_and_which_differ():
    doc = {"characteristics": ["existence_detection_reward"], "rows": [
        _row("pkg:m", {"existence_detection_reward": "no"}, {"ties": "yes"}, cases={"c": 0.5})]}
    for row in doc["rows"]:
        row.update(package="pkg", version="1", family="f", input_kind="binary", kind="score", params={}, sanity_failed=[],
                   random_runs=None)
    me = dict(doc["rows"][0], id="me", package="(yours)", metric="me", characteristics={"existence_detection_reward": "yes"},
              properties={"ties": "yes", "lag": "n/a"})
    text = "\n".join(placement_lines(me, doc))
    assert "pkg:m: 1 of 2 cells differ (exist); mean |case difference| 0.000 on each row's own scale" in text
    assert "2 defined here" in text


def _pr(y_true, y_pred):
    tp = float(np.sum(y_true * y_pred))
    return tp / max(float(y_pred.sum()), 1.0), tp / max(float(y_true.sum()), 1.0)


def _f1(y_true, y_pred):
    p, r = _pr(y_true, y_pred)
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


def _placed(fn, doc):
    from oipr_bench.auditing.options import AuditOptions
    from oipr_bench.auditing.profile.profiles import AuditSession
    from oipr_bench.auditing.calling.resolve import resolve

    with AuditSession(resolve(fn), AuditOptions(suite="all")) as session:
        profile = session.run_all()
    return user_row(fn.__name__, profile.to_dict(), profile.declarations)


def test_the_same_metric_as_pr_and_as_one_float_places_on_the_same_nearest_rows():
    from oipr_bench.atlas.store import read_atlas

    doc = read_atlas()
    as_pr, as_float = _placed(_pr, doc), _placed(_f1, doc)
    # the (P, R) form defines more cells (those that need precision); the float leaves them n/a
    assert len(compared_cells(as_pr, as_pr)) > len(compared_cells(as_float, as_float))
    near_pr, near_float = nearest(as_pr, doc["rows"]), nearest(as_float, doc["rows"])
    assert [n.row_id for n in near_pr] == [n.row_id for n in near_float]
    # the nearest are point-wise F1 rows: same behaviour on every shared cell, the same numbers
    for n in near_pr + near_float:
        assert n.distance == 0.0 and math.isclose(n.case_distance, 0.0, abs_tol=1e-12), n
        assert doc_row(doc, n.row_id)["family"] == "point-wise", n.row_id
    assert "oipr-bench:PW" in {n.row_id for n in nearest(as_float, doc["rows"], k=10)}


def doc_row(doc, row_id):
    return next(r for r in doc["rows"] if r["id"] == row_id)
