"""Atlas adapters of the main environment: every row runs when its package is importable (skipped with the reason otherwise).

The rows of the ``modern`` environment (atlas/requirements-modern.txt) are tested in
tests/test_atlas_modern.py; CI runs each file in its own pinned env and fails on a skip.

The hand-derived example: a 20-point series with one anomaly [2, 6) and a
prediction [3, 5) covering 2 of its 4 points.  Point-wise: P = 1, R = 1/2,
F1 = 2/3.  Point adjustment fills the event: F1 = 1.  PA%K at K = 50: 2 points
are not strictly more than 50 % of 4, so no adjustment (F1 = 2/3) under
tadpak's and our rule; TSADmetrics' ``>=`` adjusts (F1 = 1).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from oipr_bench.atlas import by_id
from oipr_bench.atlas.adapters.registry import PACKAGE_MODULES, adapters

Y_TRUE = np.zeros(20, np.int8)
Y_TRUE[2:6] = 1
Y_PRED = np.zeros(20, np.int8)
Y_PRED[3:5] = 1
TWO_THIRDS = 2 / 3

EVERY = adapters()
#: The rows of this file's environment (the modern ones: tests/test_atlas_modern.py).
ALL = [a for a in EVERY if a.env == "main"]

#: Rows whose package crashes on every input (kept in the atlas with the reason).
#: TSB-AD 1.5's RangeAUC reads the segments of its sloped labels with ``range_convers_new``,
#: which finds edges only where np.diff is exactly +-1 (never on a window-100 slope), so the
#: segment list is empty and it divides by len([]) == 0 (tests/test_disagreement_causes.py).
#: adtk 0.6.2's event-list metrics call ``Series.iteritems``, removed in pandas 2.0.
KNOWN_CRASHES = {"TSB-AD:R-AUC-ROC": ZeroDivisionError, "TSB-AD:R-AUC-PR": ZeroDivisionError,
                 "adtk:precision/recall/f1_score[events]": AttributeError}


def _load(row_id: str):
    adapter = by_id()[row_id]
    if adapter.version is None:
        pytest.skip(f"{adapter.package} is not installed (make the atlas env: atlas/make-env.sh VENV)")
    return adapter, adapter.load()


def _call(adapter, ev, y_true, y_pred):
    x = y_pred.astype(np.float64) if adapter.input_kind == "scores" else y_pred
    return ev(y_true.copy(), x)


def _headline(result) -> float:
    if isinstance(result, tuple):
        p, r = result[0], result[1]
        return result[2] if len(result) > 2 else (0.0 if p + r == 0 else 2 * p * r / (p + r))
    return result


def test_rows_are_many_and_unique():
    ids = [a.id for a in EVERY]
    assert len(ids) == len(set(ids))
    assert len(ids) >= 140
    assert {a.package for a in ALL} == {"oipr-bench", "TSADmetrics", "prts", "TSB-AD", "tadpak", "PATE", "vus", "TimeEval", "salesforce-merlion",
                                            "adtk", "TSB-UAD", "orion-ml"}
    assert {a.package for a in EVERY if a.env == "modern"} == {"aeon", "dtaianomaly", "cce", "tadmetric", "telemeval"}
    assert len({a.package for a in EVERY}) >= 12
    assert {a.env for a in EVERY} == {"main", "modern"}
    assert len(PACKAGE_MODULES) == 18


def test_declarations_are_valid():
    for a in ALL:
        assert a.input_kind in ("binary", "scores"), a.id
        assert a.kind in ("pr", "score"), a.id
        lo, hi = a.bounds
        assert lo is None or hi is None or lo < hi, a.id


@pytest.mark.parametrize("row_id", sorted(KNOWN_CRASHES))
def test_known_crashes_still_crash(row_id):
    adapter, ev = _load(row_id)
    with pytest.raises(KNOWN_CRASHES[row_id]):
        _call(adapter, ev, Y_TRUE, Y_PRED)


@pytest.mark.parametrize("row_id", [a.id for a in ALL if not a.slow and a.id not in KNOWN_CRASHES])
def test_every_adapter_runs_within_its_bounds(row_id):
    adapter, ev = _load(row_id)
    lo, hi = adapter.bounds
    for y_pred in (Y_PRED, Y_TRUE):
        result = _call(adapter, ev, Y_TRUE, y_pred)
        values = result if isinstance(result, tuple) else (result,)
        assert adapter.kind == ("pr" if isinstance(result, tuple) else "score"), row_id
        for v in values:
            assert isinstance(v, float) and math.isfinite(v), (row_id, result)
            assert lo is None or v >= lo - 1e-9, (row_id, result)
            assert hi is None or v <= hi + 1e-9, (row_id, result)


@pytest.mark.parametrize("row_id", [a.id for a in ALL if a.slow])
def test_slow_adapters_run_on_a_short_series(row_id):
    adapter, ev = _load(row_id)
    perfect = _call(adapter, ev, Y_TRUE, Y_TRUE)
    assert isinstance(perfect, float) and 0.0 <= perfect <= 1.0 + 1e-9


@pytest.mark.parametrize(
    "row_id",
    ["oipr-bench:PW", "TSADmetrics:pwf", "TSADmetrics:dicec", "TSB-AD:Standard-F1", "tadpak:pak[k=100]", "tadpak:pak[k=80]",
     "TimeEval:Precision/Recall/F1Score", "oipr-bench:PA%K", "tadpak:pak[k=50]"],
)
def test_point_wise_f1_of_the_example_is_two_thirds(row_id):
    adapter, ev = _load(row_id)
    assert _headline(_call(adapter, ev, Y_TRUE, Y_PRED)) == pytest.approx(TWO_THIRDS, abs=1e-6)


@pytest.mark.parametrize(
    "row_id", ["oipr-bench:PA", "TSADmetrics:paf", "TSB-AD:PA-F1", "tadpak:pak[k=0]", "tadpak:pak[k=20]", "TSADmetrics:pakf"]
)
def test_point_adjusted_f1_of_the_example_is_one(row_id):
    adapter, ev = _load(row_id)
    assert _headline(_call(adapter, ev, Y_TRUE, Y_PRED)) == pytest.approx(1.0, abs=1e-6)


@pytest.mark.parametrize("row_id", ["oipr-bench:RP/RR", "prts:ts_precision/ts_recall[paper]"])
def test_range_based_paper_setting_of_the_example(row_id):
    # Precision: the predicted range lies inside the real one (flat bias, alpha 0): 1.
    # Recall: alpha 0.5 existence + 0.5 x front-biased overlap; weights 4,3,2,1 over [2,6),
    # covered points 3 and 4 weigh 3 + 2 of 10: 0.5 + 0.5 * 0.5 = 0.75.
    adapter, ev = _load(row_id)
    result = _call(adapter, ev, Y_TRUE, Y_PRED)
    assert (result[0], result[1]) == pytest.approx((1.0, 0.75), abs=1e-9)


def test_tsadmetrics_rbf_defaults_give_existence_to_precision_too():
    # Its defaults: p_alpha = r_alpha = 0.5, flat bias: P = 1, R = 0.5 + 0.5 * 2/4 = 0.75, F = 6/7.
    adapter, ev = _load("TSADmetrics:rbf")
    assert _call(adapter, ev, Y_TRUE, Y_PRED) == pytest.approx(6 / 7, abs=1e-9)


@pytest.mark.parametrize("row_id", ["oipr-bench:AM", "TSADmetrics:aff_f", "TSB-AD:Affiliation-F", "vus:Affiliation-P/R"])
def test_affiliation_of_a_perfect_detection_is_one(row_id):
    adapter, ev = _load(row_id)
    assert _headline(_call(adapter, ev, Y_TRUE, Y_TRUE)) == pytest.approx(1.0, abs=1e-6)


def test_tsadmetrics_rows_are_its_registry_with_its_defaults():
    adapter, _ = _load("TSADmetrics:pwf")
    from oipr_bench.atlas.adapters.main.tsadmetrics import METRICS, registry

    reg = registry()
    assert set(reg._registry) == set(METRICS)
    assert len(METRICS) == 34
    for name, spec in METRICS.items():
        assert dict(reg.get_metric(name).params) == spec[4], name
        assert (spec[1] == "binary") == reg._registry[name].binary_prediction, name


def test_prts_refuses_an_all_zero_prediction():
    # A crash the atlas records as the constant detector's case error (conventions: RP/RR).
    adapter, ev = _load("prts:ts_precision/ts_recall[paper]")
    with pytest.raises(Exception):
        ev(Y_TRUE, np.zeros(20, np.int8))


def test_timeeval_metrics_import_without_its_experiment_runner():
    _load("TimeEval:RangeFScore")
    import sys

    assert "timeeval.timeeval" not in sys.modules


@pytest.mark.parametrize("cls", ["RangePrAUC", "RangeRocAUC"])
def test_timeeval_range_auc_is_a_fresh_object_per_call(cls):
    # TimeEval's RangePrAUC/RangeRocAUC with buffer_size=None store the buffer size of their first call
    # on the object.  The adapter must give, whatever the call order, what a fresh object gives.
    adapter, ev = _load(f"TimeEval:{cls}")
    from oipr_bench import scenarios
    from oipr_bench.atlas.adapters.base import import_submodule

    make = getattr(import_submodule("timeeval", "metrics"), cls)
    cases = scenarios.load()
    pairs = [(c.id, c.y_true.astype(np.int64), c.predictions[0].astype(np.float64)) for c in cases]
    fresh = {cid: float(make(**adapter.params)(y, s)) for cid, y, s in pairs}
    forward = {cid: _call(adapter, ev, y, s) for cid, y, s in pairs}
    backward = {cid: _call(adapter, ev, y, s) for cid, y, s in reversed(pairs)}
    assert len(fresh) == 25
    assert forward == fresh
    assert backward == fresh
    # the bug this guards against: one shared object gives other numbers on some cases
    shared = make(**adapter.params)
    reused = {cid: float(shared(y, s)) for cid, y, s in pairs}
    assert sum(not math.isclose(reused[c], fresh[c], abs_tol=1e-12) for c in fresh) > 0


def _verdict(group: str) -> str:
    from oipr_bench.atlas.disagreements.verdicts import VERDICTS

    return VERDICTS[group]


def test_tsb_ad_range_based_is_reciprocal_cardinality():
    # atlas/DISAGREEMENTS.md: TSB-AD's range P/R equal prts' with reciprocal cardinality on 23 of 25 cases;
    # the others are the empty prediction (prts raises) and the all-ones one (TSB-AD: an empty range list).
    adapter, tsb = _load("TSB-AD:Rprecision/Rrecall")
    prts = pytest.importorskip("prts")
    from oipr_bench import scenarios

    def reference(y, p):
        y, p = y.astype(np.int64), p.astype(np.int64)
        try:
            return (prts.ts_precision(y, p, alpha=0.0, cardinality="reciprocal", bias="flat"),
                    prts.ts_recall(y, p, alpha=0.2, cardinality="reciprocal", bias="flat"))
        except AssertionError:
            return None

    differ = {}
    for case in scenarios.load():
        got, ref = tsb(case.y_true.copy(), case.predictions[0].copy())[:2], reference(case.y_true, case.predictions[0])
        if ref is None or not all(math.isclose(a, b, abs_tol=1e-9) for a, b in zip(got, ref)):
            differ[case.id] = (got, ref)
    assert set(differ) == {"constant_detector/c1", "constant_detector/c2"}
    (p, r), (rp, rr) = differ["constant_detector/c2"]
    assert (p, r) == (0.0, pytest.approx(0.2)) and (rp, rr) == (pytest.approx(0.025), 1.0)
    from TSB_AD.evaluation.basic_metrics import basic_metricor

    assert basic_metricor().range_convers_new(np.ones(10, dtype=int)) == []
    text = _verdict("Tatbul range-based (TSB-AD setting)")
    assert "on 23 of 25 cases" in text and "existence part, 0.2" in text and "P 0.025, R 1" in text


def test_timeeval_range_fscore_uses_the_precision_bias_for_recall():
    _load("TimeEval:RangeFScore")
    prts = pytest.importorskip("prts")
    from oipr_bench import scenarios
    from oipr_bench.atlas.adapters.base import import_submodule

    case = {c.id: c for c in scenarios.load()}["tp_positions/c1"]
    y, p = case.y_true.astype(np.int64), case.predictions[0].astype(np.int64)
    te = import_submodule("timeeval", "metrics").RangeFScore(
        beta=1, p_alpha=0, r_alpha=0.5, cardinality="reciprocal", p_bias="flat", r_bias="front")(y, p)

    def f1(r_bias):
        precision = prts.ts_precision(y, p, alpha=0.0, cardinality="reciprocal", bias="flat")
        recall = prts.ts_recall(y, p, alpha=0.5, cardinality="reciprocal", bias=r_bias)
        return 2 * precision * recall / (precision + recall)

    assert te == pytest.approx(f1("flat"), abs=1e-12)
    assert abs(te - f1("front")) > 0.01
    text = _verdict("Tatbul range-based (paper setting)")
    assert f"RangeFScore(r_bias=front) {te:.6f}" in text
    assert f"prts with r_bias=front {f1('front'):.6f}" in text and f"prts with r_bias=flat {f1('flat'):.6f}" in text


def test_tsadmetrics_taf_conventions():
    _load("TSADmetrics:taf")
    from oipr_bench.atlas.adapters.main.tsadmetrics import registry
    from oipr_bench.evaluators import get

    def taf(y, p, **params):
        return float(registry().get_metric("taf", **params).compute(y, p))

    y = np.zeros(12, np.int64)
    y[0] = 1
    far = np.zeros(12, np.int64)
    far[11] = 1
    # >= theta: at theta 0 a prediction touching nothing counts as detected
    assert taf(y, far, theta=0.0) == pytest.approx(0.5)
    assert get("TaPR", theta=0.0)(y, far).f1 == 0.0
    # delta + 1 ambiguous points, clipped at the next start - 1
    metric = registry().get_metric("taf", delta=5)
    assert metric._gen_ambiguous([[0, 0]], []) == [[1, 6]]
    assert metric._gen_ambiguous([[0, 0], [4, 4]], [])[0] == [1, 3]
    sixth = np.zeros(12, np.int64)
    sixth[6] = 1
    edge = taf(y, sixth, alpha=0.0, theta=0.0)
    assert edge == pytest.approx(1 / (1 + math.exp(6)))  # the sigmoid at the window's last point
    assert get("TaPR", alpha=0.0, theta=0.0)(y, sixth).f1 == 0.0
    text = _verdict("TaPR")
    assert "score 0.5 (ours 0)" in text and f"1/(1+e^6) = {edge:.6f} (ours 0)" in text


def test_merlion_scores_of_the_example():
    # Module docstring of oipr_bench.atlas.adapters.main.merlion: revised point-adjusted P = R = F1 = 1,
    # point-wise F1 2/3, NAB (standard) (tanh(2.5 * 3/4) / tanh(2.5) + 1) / 2, mean time to detect 1 s.
    _, revised = _load("salesforce-merlion:RevisedPointAdjusted")
    assert revised(Y_TRUE, Y_PRED) == pytest.approx((1.0, 1.0, 1.0), abs=1e-12)
    _, pointwise = _load("salesforce-merlion:Pointwise")
    assert pointwise(Y_TRUE, Y_PRED)[2] == pytest.approx(TWO_THIRDS, abs=1e-12)
    _, nab = _load("salesforce-merlion:nab_score[standard]")
    earned = math.tanh(2.5 * 0.75) / math.tanh(2.5)
    assert nab(Y_TRUE, Y_PRED) == pytest.approx((earned + 1) / (2 + 1e-8), abs=1e-12)
    _, mttd = _load("salesforce-merlion:mean_time_to_detect")
    assert mttd(Y_TRUE, Y_PRED) == 1.0
    # a false positive makes NAB negative when nothing is detected: it is open below
    fp = np.zeros(20, np.int8)
    fp[15] = 1
    assert nab(Y_TRUE, fp) < 0.0


def test_vus_variant_rows_change_only_their_parameter():
    from oipr_bench.atlas.adapters.registry import by_id

    rows = by_id()
    base = rows["TSB-AD:VUS-PR"].params
    for tag, key, value in (("thre=100", "thre", 100), ("thre=50", "thre", 50), ("opt_mem", "version", "opt_mem"),
                            ("window=2x100", "slidingWindow", 200)):
        params = rows[f"TSB-AD:VUS-PR[{tag}]"].params
        assert params == {**base, key: value}, tag
    assert rows["TimeEval:RangePrVUS[compatibility_mode]"].params == {**rows["TimeEval:RangePrVUS"].params, "compatibility_mode": True}


def test_tsb_ad_vus_thresholds_change_the_number():
    # Fewer thresholds, another number: on a 200-point series with a 20-point anomaly and a noisy score.
    _, full = _load("TSB-AD:VUS-PR")
    _, fifty = _load("TSB-AD:VUS-PR[thre=50]")
    y = np.zeros(200, np.int64)
    y[80:100] = 1
    score = np.random.default_rng(3).random(200) * 0.6 + 0.4 * y
    assert full(y, score) != fifty(y, score)
    assert full(y, y.astype(float)) == pytest.approx(1.0) and fifty(y, y.astype(float)) == pytest.approx(1.0)


def test_docs_row_counts_are_the_registrys():
    # docs/atlas.md "The rows": "- **NAME** (N..." per adapter module, and the slow-row count.
    import importlib
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "atlas.md").read_text(encoding="utf-8")
    section = text.split("## The rows", 1)[1].split("## Timing", 1)[0]
    stated = {name: int(n) for name, n in re.findall(r"^- \*\*(.+?)\*\* \((\d+)", section, flags=re.M)}
    module_of = {"Built-ins": "builtins", "TSADmetrics": "main.tsadmetrics", "prts": "main.prts", "TSB-AD": "main.tsb_ad",
                 "tadpak": "main.tadpak", "PATE": "main.pate", "vus": "main.vus", "TimeEval": "main.timeeval",
                 "VUS variants": "main.vus_variants", "salesforce-merlion": "main.merlion", "adtk": "main.adtk",
                 "TSB-UAD": "main.tsb_uad", "orion-ml": "main.orion", "aeon": "modern.aeon", "dtaianomaly": "modern.dtaianomaly",
                 "cce": "modern.cce", "tadmetric": "modern.tadmetric", "telemeval": "modern.telemeval"}
    assert set(module_of.values()) == set(PACKAGE_MODULES)
    for name, module in module_of.items():
        rows = importlib.import_module(f"oipr_bench.atlas.adapters.{module}").ADAPTERS
        assert stated[name] == len(rows), name
    assert stated["Slow rows"] == sum(a.slow for a in EVERY)


def test_adtk_label_metrics_of_the_example():
    # adapters/adtk.py: every anomalous point is its own event: P 2/2, R 2/4, F1 2/3, IoU 2/4.
    _, prf = _load("adtk:precision/recall/f1_score[labels]")
    assert prf(Y_TRUE, Y_PRED) == pytest.approx((1.0, 0.5, TWO_THIRDS), abs=1e-12)
    _, iou = _load("adtk:iou[labels]")
    assert iou(Y_TRUE, Y_PRED) == pytest.approx(0.5, abs=1e-12)


def test_tsb_uad_uses_its_own_window_default_and_scores_a_perfect_score_one():
    from oipr_bench.atlas.adapters.registry import by_id

    assert by_id()["TSB-UAD:VUS-PR"].params["slidingWindow"] == 5
    for metric in ("VUS-ROC", "VUS-PR", "AUC-ROC", "AUC-PR"):
        adapter, ev = _load(f"TSB-UAD:{metric}")
        assert _call(adapter, ev, Y_TRUE, Y_TRUE) == pytest.approx(1.0, abs=1e-12), metric


def test_orion_metrics_of_the_example_by_hand():
    # adapters/orion.py: weighted contextual: pieces [2,3) and [5,6) expected only, [3,5) both: P 1, R 2/4;
    # overlap (event counts): the one event is found, no false alarm: 1, 1, 1.
    _, weighted = _load("orion-ml:contextual[weighted]")
    assert weighted(Y_TRUE, Y_PRED) == pytest.approx((1.0, 0.5, TWO_THIRDS), abs=1e-12)
    _, overlap = _load("orion-ml:contextual[overlap]")
    assert overlap(Y_TRUE, Y_PRED) == pytest.approx((1.0, 1.0, 1.0), abs=1e-12)
    import sys

    assert "tensorflow" not in sys.modules and "mlblocks" not in sys.modules
    # its converter fails on a prediction without any 1 (the audit records the case as failed)
    with pytest.raises(IndexError):
        weighted(Y_TRUE, np.zeros(20, np.int8))


def _vus_inputs() -> list[tuple[np.ndarray, np.ndarray]]:
    """Two events on 150 points: random scores, scores with ties, and a constant score."""
    rng = np.random.default_rng(30)
    y = np.zeros(150, np.int64)
    y[40:52] = 1
    y[100:103] = 1
    noisy = rng.random(150)
    tied = np.round(noisy * 4) / 4
    return [(y, noisy), (y, tied), (y, np.full(150, 0.3))]


@pytest.mark.parametrize("suffix", ["", "[compatibility_mode]"])
def test_timeeval_vus_pair_shares_one_loop_and_equals_both_public_calls(suffix):
    # RangePrVUS and RangeRocVUS are one atlas batch (atlas/adapters/shared.py); their shared call
    # (timeeval.vus_volumes) must give exactly what each class's public __call__ gives
    import warnings

    from oipr_bench.atlas.adapters import shared
    from oipr_bench.atlas.adapters.main.timeeval import vus_volumes

    pr_adapter, pr = _load(f"TimeEval:RangePrVUS{suffix}")
    roc_adapter, roc = _load(f"TimeEval:RangeRocVUS{suffix}")
    assert pr_adapter.shared == roc_adapter.shared and dict(pr_adapter.params) == dict(roc_adapter.params)
    tm = pytest.importorskip("timeeval.metrics")
    shared.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for y, s in _vus_inputs():
            want_pr = tm.RangePrVUS(**pr_adapter.params)(y, s)
            want_roc = tm.RangeRocVUS(**roc_adapter.params)(y, s)
            assert vus_volumes(pr_adapter.params, y, s) == (want_pr, want_roc)  # exactly, not within a tolerance
            assert (pr(y, s), roc(y, s)) == (want_pr, want_roc)  # the rows: the storing one calls, the other takes
    shared.clear()
