"""Shared package calls (atlas/adapters/shared.py) and saturated cells in the grid (issues 27 and 30).

A VUS-ROC/VUS-PR pair that reads one package call is profiled in one worker; the
partner reuses each result once, so a repeated call (the determinism check) is
still a real call.  The grid marks an undetermined cell that reads a saturated
case and says why.
"""

from __future__ import annotations

import numpy as np
import pytest

from oipr_bench.atlas.adapters import shared
from oipr_bench.atlas.adapters.base import Adapter
from oipr_bench.atlas.adapters.registry import adapters
from oipr_bench.atlas.build import batches, row_from_report, saturated_cells
from oipr_bench.atlas.property_grid import SATURATED_MARK
from oipr_bench.atlas.render import grid_lines, render_html, render_markdown


@pytest.fixture(autouse=True)
def _empty_store():
    shared.clear()
    yield
    shared.clear()


class _Counting:
    """A package call that returns a fresh result per call and counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> tuple[float, int]:
        self.calls += 1
        return (0.5, self.calls)


Y = np.array([0, 1, 1, 0], dtype=np.int64)
S = np.array([0.1, 0.9, 0.8, 0.2])


def test_the_taking_row_reuses_a_result_once_then_calls_again():
    call = _Counting()
    first = shared.shared_result("pkg f", {"w": 1}, Y, S, call, role="store")
    assert call.calls == 1
    assert shared.shared_result("pkg f", {"w": 1}, Y, S, call, role="take") == first  # kept result, no call
    assert call.calls == 1
    again = shared.shared_result("pkg f", {"w": 1}, Y, S, call, role="take")  # taken once: a repeat is a real call
    assert call.calls == 2 and again == (0.5, 2)


def test_the_storing_row_always_calls_so_its_determinism_check_is_real():
    call = _Counting()
    shared.shared_result("pkg f", {}, Y, S, call, role="store")
    shared.shared_result("pkg f", {}, Y, S, call, role="store")
    assert call.calls == 2


@pytest.mark.parametrize("change", ["params", "scores", "labels", "dtype", "name"])
def test_a_result_is_reused_only_for_the_same_call_on_the_same_inputs(change: str):
    call = _Counting()
    shared.shared_result("pkg f", {"w": 1}, Y, S, call, role="store")
    name, params, y, s = "pkg f", {"w": 1}, Y, S
    if change == "params":
        params = {"w": 2}
    elif change == "scores":
        s = S + np.array([0.0, 0.0, 0.0, 1e-12])
    elif change == "labels":
        y = np.array([0, 1, 0, 0], dtype=np.int64)
    elif change == "dtype":
        s = S.astype(np.float32)
    else:
        name = "pkg g"
    shared.shared_result(name, params, y, s, call, role="take")
    assert call.calls == 2


def test_the_store_is_bounded_and_a_bad_role_is_refused(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(shared, "MAX_KEPT", 3)
    call = _Counting()
    for k in range(5):
        shared.shared_result("pkg f", {}, Y, S + k, call, role="store")
    assert len(shared._KEPT) == 3
    shared.shared_result("pkg f", {}, Y, S + 0, call, role="take")  # the oldest was dropped: a real call
    assert call.calls == 6
    with pytest.raises(ValueError, match="role"):
        shared.shared_result("pkg f", {}, Y, S, call, role="both")


def test_shared_pairs_are_one_batch_storing_row_first_and_state_it_in_their_note():
    listed = [a for a in adapters() if a.env == "main"]
    groups = batches(listed)
    assert sorted(i for g in groups for i in g) == list(range(len(listed)))  # every row once
    pairs = [[listed[i] for i in g] for g in groups if len(g) > 1]
    assert len(pairs) == 9  # TSB-AD (default + 4 variants), vus, TSB-UAD, TimeEval (default, compatibility_mode)
    for store, take in pairs:
        assert {store.group, take.group} == {"VUS-ROC", "VUS-PR"}, (store.id, take.id)
        assert store.shared == take.shared and dict(store.params) == dict(take.params)
        assert "shares" in store.note and "shares" in take.note
        # one audit for both: the partner takes each result only if it makes the same calls
        assert (store.random_runs, store.chance_draws) == (take.random_runs, take.chance_draws)
    # the longest (slow) batches start first
    slow = [listed[g[0]].slow for g in groups]
    assert slow == sorted(slow, reverse=True)


def test_a_pair_gives_the_same_numbers_as_two_separate_rows():
    """Two rows reading indices 0 and 1 of one call: profiled as a pair or alone, the same rows."""
    from oipr_bench.atlas.build import profile_adapter

    def build(index: int, role: str):
        def make(params):
            def fn(y_true, y_pred):
                y, s = np.asarray(y_true).astype(np.int64), np.asarray(y_pred, dtype=np.float64)
                out = shared.shared_result("test pair", params, y, s, role=role,
                                           call=lambda: (float(np.mean(s[y == 1])) if y.any() else 0.0, float(np.mean(s))))
                return out[index]
            return fn
        return make

    def adapter(index: int, role: str) -> Adapter:
        return Adapter("oipr-bench", f"pair{index}", "threshold-free", build(index, role), {"k": 1}, input_kind="scores",
                       shared="test pair")

    alone = [profile_adapter(adapter(i, role))[0] for i, role in ((0, "store"), (1, "take"))]
    shared.clear()
    paired = [profile_adapter(adapter(0, "store"))[0], profile_adapter(adapter(1, "take"))[0]]
    for a, b in zip(alone, paired):
        assert a["cases"] == b["cases"] and a["characteristics"] == b["characteristics"] and a["properties"] == b["properties"]


_REASON = ("undetermined: the score of fp_distance/d1 cannot be read: saturated: y_pred = y_true scores 0.765767 and "
           "uninformative scores (mean) 0.785469 on the ground truth of fp_distance/d1, within 0.02 of the metric's range")


def _report() -> dict:
    chars = [{"name": "existence_detection_reward", "observed": "no", "status": "passed", "message": "read"},
             {"name": "random_overestimation", "observed": None, "status": "undetermined",
              "message": "the random detector on the metric's own range cannot be read: saturated or undefined range on random_detector/c1"},
             {"name": "long_anomaly_misleading", "observed": None, "status": "undetermined", "message": "case failed"}]
    props = [{"name": "fp_distance", "observed": None, "status": "undetermined", "message": _REASON},
             {"name": "time_lag", "observed": "only_delay", "status": "passed", "message": "saturated? no, read"}]
    return {"characteristics": chars, "properties": props, "cases": [{"case_id": "a/c1", "status": "ok", "score": 0.5}],
            "sanity": []}


def test_saturated_cells_are_the_undetermined_ones_whose_reason_is_saturation():
    got = saturated_cells(_report())
    assert set(got) == {"random_overestimation", "fp_distance"}  # not the failed case, not a read value
    assert got["fp_distance"] == _REASON


def test_the_grid_marks_saturated_cells_and_lists_why():
    adapter = Adapter("pkg", "m", "threshold-free", lambda p: None, input_kind="scores")
    row = row_from_report(adapter, _report())
    doc = {"characteristics": {"existence_detection_reward": "", "random_overestimation": "", "long_anomaly_misleading": ""},
           "properties": {"fp_distance": "", "time_lag": ""}, "rows": [row]}
    md = render_markdown(doc)
    grid = [line for line in md.splitlines() if line.startswith("| pkg")]
    assert f"| no | {SATURATED_MARK} | ? |" in grid[0]  # saturated vs a failed case: told apart
    assert f"| {SATURATED_MARK} | only_delay |" in grid[1]
    assert "## Saturated cells" in md and "| pkg:m | fp_distance | " + _REASON.replace("|", "\\|") + " |" in md
    assert f"title='{_REASON}'" in render_html(doc).replace("&#x27;", "'")
    assert SATURATED_MARK in grid_lines([row], list(doc["characteristics"]))[2]
