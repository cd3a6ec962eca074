"""Placement by behaviour (oipr_bench.atlas.nearest): only cells both rows define, characteristics and
properties together, case numbers on each row's own scale."""

from __future__ import annotations

import math

import numpy as np
import pytest

from oipr_bench.atlas.nearest import MIN_SHARED_CELLS, compared_cells, differences, nearest, own_scale
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
    got = nearest(me, [other, same], k=2, min_cells=1)
    assert [n.row_id for n in got] == ["same", "other"]
    assert (got[1].distance, got[1].compared, got[1].differs) == (pytest.approx(2 / 3), 3, ("p", "q"))


def test_a_row_sharing_too_few_cells_is_not_a_candidate():
    me = _row("me", {"x": "yes", "y": "no", "z": "no", "w": "yes"})
    sparse = _row("sparse", {"x": "yes", "y": "n/a", "z": "?", "w": "n/a"})  # 1 of my 4 cells
    full = _row("full", {"x": "yes", "y": "no", "z": "yes", "w": "yes"})
    assert [n.row_id for n in nearest(me, [sparse, full], min_cells=1)] == ["full"]


def test_case_numbers_are_compared_on_each_rows_own_scale():
    # a delay (lower is better, open above) against an F1: both at their best end on c1, worst on c2
    delay = _row("delay", {"x": "yes"}, cases={"c1": 0.0, "c2": 40.0, "c3": 10.0}, bounds=(0.0, None), hib=False)
    f1 = _row("f1", {"x": "yes"}, cases={"c1": 1.0, "c2": 0.0, "c3": 0.75})
    assert own_scale(delay) == {"c1": 1.0, "c2": 0.0, "c3": 0.75}
    (n,) = nearest(f1, [delay], k=1, min_cells=1)
    assert n.case_distance == pytest.approx(0.0)
    # raw numbers would be 13.4 apart on average; a constant row sits at the middle of its scale
    flat = _row("flat", {"x": "yes"}, cases={"c1": 0.3, "c2": 0.3}, bounds=(None, None))
    assert own_scale(flat) == {"c1": 0.5, "c2": 0.5}


FILLER = {f"f{i}": "yes" for i in range(MIN_SHARED_CELLS - 2)}  # cells both rows define alike


def _doc(*rows):
    for row in rows:
        row.update(package="pkg", version="1", family="f", input_kind="binary", kind="score", params={}, sanity_failed=[],
                   random_runs=None)
    return {"characteristics": ["existence_detection_reward"], "rows": list(rows)}


def test_placement_lines_say_how_many_cells_were_compared_and_which_differ():
    doc = _doc(_row("pkg:m", {"existence_detection_reward": "no", **FILLER}, {"ties": "yes"}, cases={"c": 0.5}))
    me = dict(doc["rows"][0], id="me", package="(yours)", metric="me",
              characteristics={"existence_detection_reward": "yes", **FILLER}, properties={"ties": "yes", "lag": "n/a"})
    text = "\n".join(placement_lines(me, doc))
    assert f"pkg:m: 1 of {MIN_SHARED_CELLS} cells differ (exist); mean |case difference| 0.000 on each row's own scale" in text
    assert f"{MIN_SHARED_CELLS} defined here" in text


def test_a_row_with_fewer_defined_cells_than_the_minimum_is_not_placed():
    # 4 defined cells (a delay metric whose Table 5 cells are undetermined): every row of the atlas agreeing on them
    # by chance would sit at distance 0, whatever its case values
    few = {k: v for k, v in list(FILLER.items())[:3]}
    doc = _doc(_row("pkg:same", {"existence_detection_reward": "no", **few}, cases={"c": 0.0}),
               _row("pkg:full", {"existence_detection_reward": "no", **FILLER}, {"ties": "yes"}, cases={"c": 1.0}))
    me = dict(doc["rows"][0], id="me", package="(yours)", metric="me", cases={"c": 1.0})
    assert nearest(me, doc["rows"]) == []
    text = "\n".join(placement_lines(me, doc))
    assert f"not placed: 4 defined cells, fewer than the {MIN_SHARED_CELLS} a placement compares" in text
    # with enough cells the case distance breaks a tie of the cell distance: the row whose numbers agree comes first
    me_full = dict(doc["rows"][1], id="me", cases={"c": 1.0})
    twin = dict(doc["rows"][1], id="pkg:anti", cases={"c": 0.0})
    assert [n.row_id for n in nearest(me_full, [twin, doc["rows"][1]])] == ["pkg:full", "pkg:anti"]


def test_the_committed_atlas_places_no_row_on_fewer_than_the_minimum():
    from oipr_bench.atlas.nearest import defined
    from oipr_bench.atlas.store import read_atlas

    doc = read_atlas()
    for row in (r for r in doc["rows"] if r["status"] == "ok"):
        for n in nearest(row, doc["rows"]):
            assert n.compared >= MIN_SHARED_CELLS, (row["id"], n)
    add = next(r for r in doc["rows"] if r["id"] == "TSADmetrics:add")
    if len(defined(add)) < MIN_SHARED_CELLS:  # its delay cells read on no usable scale are undetermined
        assert nearest(add, doc["rows"]) == []
    assert "TSADmetrics:dtpaf" not in [n.row_id for n in nearest(add, doc["rows"]) if n.distance == 0.0]


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
