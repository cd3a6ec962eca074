"""The loader API and the content of the special-scenario dataset."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from oipr_bench import scenarios
from oipr_bench.scenarios.events import events_list

TABLE_A1_ORDER = [
    "overlap_proportion/c1", "overlap_proportion/c2", "overlap_proportion/c3", "overlap_proportion/c4",
    "fragmented_tps/c1", "fragmented_tps/c2", "fragmented_tps/c3",
    "fragmented_fps/c1", "fragmented_fps/c2", "fragmented_fps/c3",
    "temporal_shifting/c1", "temporal_shifting/c2",
    "tp_positions/c1", "tp_positions/c2", "tp_positions/c3", "tp_positions/c4",
    "long_anomaly_effect/c1", "long_anomaly_effect/c2", "long_anomaly_effect/c3",
    "sparse_anomalies/c1", "sparse_anomalies/c2",
    "constant_detector/c1", "constant_detector/c2",
    "random_detector/c1", "random_detector/c2",
]


@pytest.fixture(scope="module")
def cases():
    return scenarios.load()


def test_load_returns_the_25_table_a1_rows_in_order(cases):
    assert [c.id for c in cases] == TABLE_A1_ORDER
    assert len(cases) == 25
    assert scenarios.TABLE_A1_VERSION == "1.0.0" and scenarios.DATASET_VERSION == "1.2.0"
    assert scenarios.scenario_names() == list(dict.fromkeys(i.split("/")[0] for i in TABLE_A1_ORDER))
    assert list(scenarios.SCENARIO_NAMES) == scenarios.scenario_names()


def test_case_attributes_have_the_documented_types(cases):
    for c in cases:
        assert c.id == f"{c.scenario}/{c.case}"
        assert isinstance(c.length, int) and c.length > 0
        assert isinstance(c.description, str) and c.description
        assert c.y_true.dtype == np.int8 and c.y_true.shape == (c.length,)
        assert set(np.unique(c.y_true)) <= {0, 1}
        assert isinstance(c.predictions, list) and len(c.predictions) == c.n_runs
        for p in c.predictions:
            assert p.dtype == np.int8 and p.shape == (c.length,)
            assert set(np.unique(p)) <= {0, 1}
        assert events_list(c.y_true) == c.y_true_events
        assert [events_list(p) for p in c.predictions] == c.prediction_events
        assert c.provenance["paper_table"] == "A1"
        assert c.provenance["source"] in {"authors_csv", "paper_text", "reconstructed"}


def test_deterministic_and_random_cases(cases):
    for c in cases:
        if c.scenario == "random_detector":
            assert c.n_runs == 100 and c.is_random
            with pytest.raises(ValueError, match="random_detector/c[12].*100 prediction runs"):
                c.y_pred
        else:
            assert c.n_runs == 1 and not c.is_random and c.generator is None
            assert c.y_pred is c.predictions[0]


def test_characteristics_mapping(cases):
    assert scenarios.CHARACTERISTICS == (
        "existence_detection_reward", "overlap_proportion_awareness", "fragments_merging",
        "addressing_ambiguous_labels", "early_detection_reward", "fragmentation_misleading_in_precision",
        "long_anomaly_misleading", "sparse_anomaly_misleading", "all_one_overestimation", "random_overestimation",
    )
    expected = {
        "overlap_proportion": ("existence_detection_reward", "overlap_proportion_awareness"),
        "fragmented_tps": ("fragmentation_misleading_in_precision",),
        "fragmented_fps": ("fragments_merging",),
        "temporal_shifting": ("addressing_ambiguous_labels",),
        "tp_positions": ("early_detection_reward",),
        "long_anomaly_effect": ("long_anomaly_misleading",),
        "sparse_anomalies": ("sparse_anomaly_misleading",),
        "constant_detector": ("all_one_overestimation",),
        "random_detector": ("random_overestimation",),
    }
    assert scenarios.SCENARIO_CHARACTERISTICS == expected
    covered = {name for names in expected.values() for name in names}
    assert covered == set(scenarios.CHARACTERISTICS)
    for c in cases:
        assert c.characteristics == list(expected[c.scenario])


def test_tp_positions_follow_the_paper_text():
    """1st, 6th, 25th and last point of the 30-point event [100, 130) (Appendix A)."""
    expected = {"c1": 100, "c2": 105, "c3": 124, "c4": 129}
    for case, point in expected.items():
        c = scenarios.get(f"tp_positions/{case}")
        assert c.length == 200
        assert c.y_true_events == [[100, 130]]
        assert c.prediction_events == [[[point, point + 1]]]
        assert c.provenance["source"] == "paper_text"


def test_fragmented_tps_c3_is_the_reconstructed_layout():
    c = scenarios.get("fragmented_tps/c3")
    assert c.y_true_events == [[30, 60]]
    assert c.prediction_events == [[[30, 34], [36, 39], [41, 44], [46, 49], [51, 54], [56, 60], [150, 151]]]
    tp = int((c.y_true & c.y_pred).sum())
    assert tp == 20  # paper: 6 fragments holding 20 TP points
    assert c.provenance["source"] == "reconstructed"
    assert "139" in c.provenance["note"]


def test_sparse_second_row_keeps_the_paper_label():
    c = scenarios.get("sparse_anomalies/c2")
    assert c.case == "c2"
    assert c.provenance["row_label"] == "c1"
    assert scenarios.get("sparse_anomalies/c1").provenance["row_label"] == "c1"
    others = [c for c in scenarios.load() if c.id != "sparse_anomalies/c2"]
    assert all(c.provenance["row_label"] == c.case for c in others)


def test_random_detector_ground_truths_and_spec():
    c1, c2 = scenarios.get("random_detector/c1"), scenarios.get("random_detector/c2")
    assert c1.y_true_events == [[25 + 67 * k, 28 + 67 * k] for k in range(15)]
    assert c2.y_true_events == [[500, 545]]
    for c, first in ((c1, 1), (c2, 101)):
        g = c.generator
        assert (g["kind"], g["p"], g["threshold"], g["length"], g["n_runs"], g["seed"], g["first_draw"]) == (
            "bernoulli", 0.02, 0.98, 1000, 100, 1, first)
        assert g["rng"] == "numpy.random.RandomState"


def test_random_runs_regenerate_exactly_from_the_spec():
    """One RandomState(1) stream: c1 = draws 1-100, c2 = draws 101-200, each rand(1000) > 0.98."""
    np.random.seed(1)
    draws = [(np.random.rand(1000) > 0.98).astype(np.int8) for _ in range(200)]
    c1, c2 = scenarios.get("random_detector/c1"), scenarios.get("random_detector/c2")
    for k in range(100):
        np.testing.assert_array_equal(c1.predictions[k], draws[k])
        np.testing.assert_array_equal(c2.predictions[k], draws[100 + k])
    # the stored event lists (for consumers without numpy) say the same
    assert c2.prediction_events[99] == events_list(draws[199])


def test_get_unknown_id_names_the_valid_ones():
    with pytest.raises(KeyError, match="unknown case id 'nope/c1'.*overlap_proportion/c1"):
        scenarios.get("nope/c1")


def test_cache_cannot_be_corrupted_by_callers():
    first = scenarios.load()
    c = first[0]
    with pytest.raises(ValueError):
        c.y_true[0] = 1  # read-only array
    with pytest.raises(ValueError):
        c.predictions[0][:] = 0
    c.predictions.append(np.ones(3, dtype=np.int8))
    c.characteristics.append("bogus")
    c.provenance["note"] = "changed"
    c.prediction_events[0].append([0, 1])
    second = scenarios.load()[0]
    assert second is not c
    assert second.n_runs == 1
    assert second.characteristics == ["existence_detection_reward", "overlap_proportion_awareness"]
    assert second.provenance["note"] != "changed"
    assert second.prediction_events == [[[200, 201]]]
    assert int(second.y_true.sum()) == 50




def test_load_accepts_a_directory_argument(tmp_path):
    src = Path(scenarios.loader.data_dir("scenarios"))
    for f in src.glob("*.json"):
        (tmp_path / f.name).write_bytes(f.read_bytes())
    copied = scenarios.load(tmp_path)
    assert [c.id for c in copied] == TABLE_A1_ORDER
    assert copied[0].file.startswith(str(tmp_path.resolve()))


def _pointwise(y_true: np.ndarray, y_pred: np.ndarray) -> tuple[float, float, float]:
    """Plain point-wise P/R/F1 (0 on a zero denominator), written out for this test."""
    tp = float(np.sum((y_true == 1) & (y_pred == 1)))
    n_pred, n_true = float(y_pred.sum()), float(y_true.sum())
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_true if n_true else 0.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f1


def test_layouts_reproduce_the_paper_pw_column(shared_dir):
    """A layout check independent of the evaluators: PW of Table A1 (4 decimals, tol 5e-5)."""
    table = json.loads((shared_dir / "notes" / "table_a1.json").read_text())
    rows = {f"{r['scenario']}/{r['case']}": r for r in table["rows"]}
    assert sorted(rows) == sorted(TABLE_A1_ORDER)
    assert rows["sparse_anomalies/c2"]["label_in_paper"] == scenarios.get("sparse_anomalies/c2").provenance["row_label"]
    for c in scenarios.load():
        expected = rows[c.id]["values"]["PW"]
        got = np.mean([_pointwise(c.y_true, p) for p in c.predictions], axis=0)
        # deterministic cases: the printed 4 decimals; random cases: the mean over 100 runs
        assert got == pytest.approx(expected, abs=5e-5), c.id
