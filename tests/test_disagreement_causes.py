"""The causes written in atlas/DISAGREEMENTS.md, reproduced in the main atlas env (prts, TimeEval, TSB-AD, vus).

Each test recomputes, with the package itself, the numbers a verdict
(:data:`oipr_bench.atlas.disagreements.verdicts.VERDICTS`) or a hand-traced entry
(:mod:`oipr_bench.atlas.disagreements.cross_env`) states, and checks them
against the constant the text is rendered from; where oipr-bench's own
evaluators compute the same definition (docs/evaluators.md), against those too.
The modern env's half is tests/test_disagreement_causes_modern.py.  CI runs this
file in the main env and fails on a skip; a test skips only when its package is
not installed (the dev env), as tests/test_atlas_adapters.py.  The rendering
tests need no package.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

from oipr_bench import evaluators
from oipr_bench.atlas.adapters.base import import_submodule, package_version
from oipr_bench.atlas.disagreements import cross_env, verdicts
from oipr_bench.atlas.disagreements.cross_env import VALUES, range_input, score_input

TOL = 5e-5  # the texts print 4 decimals


def _need(dist: str) -> None:
    if package_version(dist) is None:
        pytest.skip(f"{dist} is not installed (make the atlas env: atlas/make-env.sh VENV)")


def _timeeval():
    _need("TimeEval")
    # timeeval/__init__.py pulls the whole experiment runner; the metrics import on their own (as the adapter does)
    return import_submodule("timeeval", "metrics")


def _source(package: str, relative: str) -> str:
    """The installed source file ``relative`` of ``package`` (TimeEval's top level may be import_submodule's shell)."""
    module = sys.modules.get(package)
    if module is not None and getattr(module, "__path__", None):
        paths = list(module.__path__)
    else:
        spec = importlib.util.find_spec(package)
        assert spec is not None and spec.submodule_search_locations
        paths = list(spec.submodule_search_locations)
    return (Path(paths[0]) / relative).read_text()


def _case(case_id: str):
    from oipr_bench import scenarios

    return {c.id: c for c in scenarios.load()}[case_id]


def _close(value: float, key: str, table: dict[str, float] = VALUES) -> None:
    assert abs(value - table[key]) < TOL, (key, value, table[key])


# ---------------------------------------------------------------------------------------------
# VUS-PR verdict: TimeEval's trapezoid against vus' step sum (tp_positions/c1, window 4)


def _step_sum_of_timeeval_curves(metric, y_true, y_score, max_buffer: int) -> float:
    """TimeEval's own (recall, precision) curves per buffer, integrated as vus does: sum (R_k - R_{k-1}) P_k."""
    steps = []
    for buffer_size in range(max_buffer + 1):
        metric._buffer_size = buffer_size
        _, _, (recalls, _, precisions) = metric._range_pr_roc_auc_support(y_true, y_score, with_plotting=True)
        steps.append(np.sum((recalls[1:] - recalls[:-1]) * precisions[1:]))
    return float(np.mean(steps))


@pytest.mark.parametrize("compat", [False, True])
def test_vus_pr_cause_is_the_area_formula(compat):
    tm = _timeeval()
    _need("vus")
    _need("TSB-AD")
    from TSB_AD.evaluation.basic_metrics import generate_curve

    vus_metrics = importlib.import_module("vus.utils.metrics")
    case = _case("tp_positions/c1")
    y, s = case.y_true.astype(np.int64), case.y_pred.astype(np.float64)
    w = verdicts.VUS_WINDOW
    key = "TimeEval compatibility mode" if compat else "TimeEval"
    timeeval = tm.RangePrVUS(max_buffer_size=w, compatibility_mode=compat)(y, s)
    step = _step_sum_of_timeeval_curves(tm.RangePrVUS(max_buffer_size=w, compatibility_mode=compat), y, s, w)
    reference = vus_metrics.metricor().RangeAUC_volume_opt(labels_original=y, score=s, windowSize=w, thre=250)[5]
    _close(timeeval, key, verdicts.VUS_PR_TP_POSITIONS)
    _close(step, key + ", step-wise", verdicts.VUS_PR_TP_POSITIONS)
    _close(reference, "vus", verdicts.VUS_PR_TP_POSITIONS)
    assert generate_curve(y, s, w)[7] == pytest.approx(reference, abs=1e-12)
    # ours, in each definition, gives the packages' numbers
    assert evaluators.get("VUS-PR", sliding_window=w)(y, s) == pytest.approx(reference, abs=1e-9)
    definition = "timeeval-compat" if compat else "timeeval"
    assert evaluators.get("VUS-PR", sliding_window=w, definition=definition)(y, s) == pytest.approx(timeeval, abs=1e-9)
    # the step sum brings TimeEval within 0.003 of vus (0.0007 by default, 0.0025 in compatibility mode); the trapezoid is 0.4 away
    assert abs(step - reference) < 0.003 < 0.4 < timeeval - reference


def test_vus_roc_differs_less():
    tm = _timeeval()
    _need("TSB-AD")
    from TSB_AD.evaluation.basic_metrics import generate_curve

    case = _case("tp_positions/c1")
    y, s = case.y_true.astype(np.int64), case.y_pred.astype(np.float64)
    w = verdicts.VUS_WINDOW
    _close(generate_curve(y, s, w)[6], "vus", verdicts.VUS_ROC_TP_POSITIONS)
    _close(tm.RangeRocVUS(max_buffer_size=w)(y, s), "TimeEval", verdicts.VUS_ROC_TP_POSITIONS)


def test_verdict_texts_print_the_constants():
    from oipr_bench.atlas.disagreements import groups

    assert verdicts.VUS_WINDOW == groups._VUS_WINDOW
    vp, vr = verdicts.VUS_PR_TP_POSITIONS, verdicts.VUS_ROC_TP_POSITIONS
    text = verdicts.VERDICTS["VUS-PR"]
    assert f"{vp['TimeEval']:.4f} vs {vp['vus']:.4f}" in text and f"{vp['TimeEval, step-wise']:.4f}" in text
    assert "re-implementation with its own buffer and threshold handling" not in text
    assert "trapezoid" in text and "timeeval/metrics/vus_metrics.py" in text
    assert f"{vr['TimeEval']:.4f} vs {vr['vus']:.4f}" in verdicts.VERDICTS["VUS-ROC"]
    pw = verdicts.VERDICTS["point-wise F1"]
    assert "whenever one class is absent" not in pw and "together hold one class" in pw


# ---------------------------------------------------------------------------------------------
# point-wise F1 verdict: TSB-AD Standard-F1 crashes only when labels and prediction together hold one class


def test_tsb_ad_standard_f1_crashes_only_on_one_class_overall():
    _need("TSB-AD")
    from TSB_AD.evaluation.basic_metrics import basic_metricor

    f1 = basic_metricor().metric_PointF1
    no_anomaly, some, everything = np.zeros(20, np.int64), np.zeros(20, np.int64), np.ones(20, np.int64)
    some[3:5] = 1
    # both classes present between labels and prediction: a number (PW's 0: nothing to recall, P = 0)
    assert f1(no_anomaly, some, preds=some) == 0.0
    assert f1(everything, no_anomaly, preds=no_anomaly) == 0.0
    assert evaluators.get("PW")(no_anomaly, some).f1 == 0.0
    # one class overall: scikit-learn's precision_recall_fscore_support returns one entry, F[1] raises
    for y, p in ((no_anomaly, no_anomaly), (everything, everything)):
        with pytest.raises(IndexError):
            f1(y, p, preds=p)


# ---------------------------------------------------------------------------------------------
# docs/atlas.md: TSB-AD's R-AUC crash


def test_tsb_ad_range_auc_finds_no_segment_on_sloped_labels():
    _need("TSB-AD")
    from TSB_AD.evaluation import basic_metrics

    source = _source("TSB_AD", "evaluation/basic_metrics.py")
    tree = ast.parse(source)
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "basic_metricor")
    defs = [n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "range_convers_new"]
    assert len(defs) == 2 and ast.dump(defs[0]) == ast.dump(defs[1])  # defined twice, identically
    grader = basic_metrics.basic_metricor()
    y = np.zeros(300, np.int64)
    y[100:130] = 1
    assert grader.range_convers_new(y) == [(100, 129)]  # binary labels: edges of +-1
    sloped = grader.extend_postive_range(y, window=100)
    assert 0 < np.abs(np.diff(sloped)).max() < 1  # no jump of exactly 1 ...
    assert grader.range_convers_new(sloped) == []  # ... so no segment
    with pytest.raises(ZeroDivisionError):
        grader.RangeAUC(labels=y, score=np.linspace(0, 1, 300), window=100, plot_ROC=True)
    # vus' range_convers_new reads runs of non-zero labels, so its RangeAUC runs on the same input
    _need("vus")
    vus_metrics = importlib.import_module("vus.utils.metrics").metricor()
    assert vus_metrics.range_convers_new(sloped) == [(50, 178)]  # 50 slope points before, 49 after the last event point
    assert 0 < vus_metrics.RangeAUC(labels=y, score=np.linspace(0, 1, 300), window=100, plot_ROC=True)[0] <= 1


# ---------------------------------------------------------------------------------------------
# timeeval.py's note: TimeEval's runner reuses the user's metric objects


def test_timeeval_runner_reuses_metric_objects():
    tm = _timeeval()
    source = _source("timeeval", "_core/experiments.py")
    tree = ast.parse(source)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "Experiment"]
    assert calls and all(any(k.arg == "metrics" and ast.unparse(k.value) == "self.metrics" for k in c.keywords) for c in calls)
    assert "score = metric(y_true, y_scores)" in source  # Experiment.evaluate calls each object in turn
    # what reuse means for RangePrAUC(buffer_size=None): the first series' buffer is kept
    first = np.zeros(100, np.int64)
    first[40:60] = 1  # median event length 20
    second, scores = np.zeros(100, np.int64), np.linspace(0, 1, 100)
    second[70:74] = 1  # median event length 4
    shared = tm.RangePrAUC()
    shared(first, scores)
    reused = shared(second, scores)
    assert reused == tm.RangePrAUC(buffer_size=20)(second, scores)
    assert reused != tm.RangePrAUC()(second, scores)


# ---------------------------------------------------------------------------------------------
# vus_variants' doubled window: vus 0.0.6's robustness evaluation, not TSB-AD's get_metrics


def test_the_doubled_window_is_vus_robustness_eval_only():
    _need("vus")
    _need("TSB-AD")
    tree = ast.parse(_source("vus", "analysis/robustness_eval.py"))
    doubled = {}
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef):
            for call in ast.walk(fn):
                if isinstance(call, ast.Call) and getattr(call.func, "id", None) == "generate_curve":
                    doubled.setdefault(fn.name, []).append(ast.unparse(call.args[2]))
    assert doubled == {name: ["2 * slidingWindow"] for name in (
        "compute_anomaly_acc_lag", "compute_anomaly_acc_percentage", "compute_anomaly_acc_noise", "compute_anomaly_acc_pairwise")}
    from TSB_AD.evaluation.basic_metrics import generate_curve
    from TSB_AD.evaluation.metrics import get_metrics

    y, s, _ = score_input()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = get_metrics(s, y, slidingWindow=4)["VUS-PR"]
    assert got == generate_curve(y, s, 4)[7] != generate_curve(y, s, 8)[7]
    # vus' own get_metrics (vus/metrics.py; importing it needs vus' detector dependencies) passes it unchanged too
    vus_get = next(n for n in ast.parse(_source("vus", "metrics.py")).body if isinstance(n, ast.FunctionDef) and n.name == "get_metrics")
    windows = {ast.unparse(c.args[2]) for c in ast.walk(vus_get) if isinstance(c, ast.Call) and getattr(c.func, "id", None) == "generate_curve"}
    assert windows == {"slidingWindow"}
    from oipr_bench.atlas.adapters.main import vus_variants

    doc = " ".join(vus_variants.__doc__.split())
    assert "call that module's ``generate_curve`` with ``2 * slidingWindow``" in doc and "No ``get_metrics`` doubles it" in doc


# ---------------------------------------------------------------------------------------------
# cross_env entries, the main env's half


def test_prts_on_constant_predictions():
    _need("prts")
    import prts

    y, ones, empty = range_input()
    p = prts.ts_precision(y, ones, alpha=0.0, cardinality="reciprocal", bias="flat")
    r = prts.ts_recall(y, ones, alpha=0.5, cardinality="reciprocal", bias="flat")
    _close(p, "prts all-ones precision")
    _close(r, "prts all-ones recall")
    ours = evaluators.get("RP/RR", bias_r="flat")(y, ones)
    assert (ours.precision, ours.recall) == pytest.approx((4 / 20, 0.5 + 0.5 * 4 / 4))
    assert (p, r) == pytest.approx((ours.precision, ours.recall))
    with pytest.raises(AssertionError):
        prts.ts_precision(y, empty, alpha=0.0, cardinality="reciprocal", bias="flat")
    # on the dataset's other 23 cases prts equals ours in this setting (the modern file checks aeon the same way)
    from oipr_bench import scenarios

    rp = evaluators.get("RP/RR", bias_r="flat")
    checked = 0
    for case in scenarios.load():
        yt, yp = case.y_true.astype(np.int64), case.predictions[0].astype(np.int64)
        if case.id.startswith("constant_detector/"):
            continue
        got = (prts.ts_precision(yt, yp, alpha=0.0, cardinality="reciprocal", bias="flat"),
               prts.ts_recall(yt, yp, alpha=0.5, cardinality="reciprocal", bias="flat"))
        want = rp(yt, yp)
        assert got == pytest.approx((want.precision, want.recall), abs=1e-9), case.id
        checked += 1
    assert checked == 23


def test_timeeval_range_pr_auc_modes():
    tm = _timeeval()
    y, s, _ = score_input()
    compat = tm.RangePrAUC(compatibility_mode=True)(y, s)
    default = tm.RangePrAUC()(y, s)
    _close(compat, "range PR AUC, TimeEval compatibility mode")
    _close(default, "range PR AUC, TimeEval default")
    assert evaluators.get("R-AUC-PR", sliding_window=6, definition="timeeval-compat")(y, s) == pytest.approx(compat, abs=1e-9)
    assert evaluators.get("R-AUC-PR", sliding_window=6, definition="timeeval")(y, s) == pytest.approx(default, abs=1e-9)


def test_timeeval_constant_score_guard():
    tm = _timeeval()
    y, _, constant = score_input()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _close(tm.RangePrAUC(compatibility_mode=True)(y, constant), "constant, TimeEval")
        c1 = _case("constant_detector/c1")
        _close(tm.RangePrAUC(compatibility_mode=True)(c1.y_true.astype(np.int64), c1.y_pred.astype(np.float64)),
               "constant_detector/c1, TimeEval compatibility mode")
    # past the guard, TimeEval's own procedure gives dtaianomaly's number: (1 + m/T) / 2, derived by hand
    by_hand = (1 + cross_env.constant_case_mass() / 40) / 2
    assert tm.RangePrAUC(compatibility_mode=True).score(y, constant) == pytest.approx(by_hand, abs=1e-12)
    _close(by_hand, "constant, dtaianomaly compatibility mode")


def test_vus_pr_window_4_main_packages():
    tm = _timeeval()
    _need("TSB-AD")
    _need("vus")
    from TSB_AD.evaluation.basic_metrics import generate_curve

    y, s, _ = score_input()
    tsb = generate_curve(y, s, 4)[7]
    vus = importlib.import_module("vus.utils.metrics").metricor().RangeAUC_volume_opt(labels_original=y, score=s, windowSize=4, thre=250)[5]
    assert vus == pytest.approx(tsb, abs=1e-12)
    _close(tsb, "VUS-PR w4, TSB-AD and vus")
    compat = tm.RangePrVUS(max_buffer_size=4, compatibility_mode=True)(y, s)
    _close(compat, "VUS-PR w4, TimeEval compatibility mode, aeon, dtaianomaly compatibility mode")
    _close(tm.RangePrVUS(max_buffer_size=4)(y, s), "VUS-PR w4, TimeEval default, dtaianomaly default")
    step = _step_sum_of_timeeval_curves(tm.RangePrVUS(max_buffer_size=4, compatibility_mode=True), y, s, 4)
    _close(step, "VUS-PR w4, TimeEval compatibility mode curves summed step-wise")
    assert evaluators.get("VUS-PR", sliding_window=4)(y, s) == pytest.approx(tsb, abs=1e-9)
    assert evaluators.get("VUS-PR", sliding_window=4, definition="timeeval-compat")(y, s) == pytest.approx(compat, abs=1e-9)


def test_vus_pr_default_windows_main_packages():
    tm = _timeeval()
    _need("TSB-AD")
    from TSB_AD.evaluation.metrics import get_metrics

    y, s, _ = score_input()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tsb = get_metrics(s, y)["VUS-PR"]  # slidingWindow=100, its default
    _close(tsb, "VUS-PR default, TSB-AD (slidingWindow 100)")
    _close(tm.RangePrVUS()(y, s), "VUS-PR default, dtaianomaly and TimeEval (max_buffer_size 500, linear slopes)")


# ---------------------------------------------------------------------------------------------
# rendering (no package needed)


def test_cross_env_values_match_our_evaluators():
    # The numbers the entries state for a definition oipr-bench computes itself (docs/evaluators.md), checked here
    # in any environment; the packages' numbers are checked above and in the modern file.
    y, s, constant = score_input()
    _close(evaluators.get("R-AUC-PR", sliding_window=6, definition="timeeval-compat")(y, s), "range PR AUC, aeon")
    _close(evaluators.get("R-AUC-PR", sliding_window=6, definition="timeeval")(y, s), "range PR AUC, TimeEval default")
    # On the constant score our TimeEval definitions follow TimeEval's public call and aeon (0.0, their guard);
    # dtaianomaly has no guard: its compatibility-mode number is the hand formula below.
    assert evaluators.get("R-AUC-PR", sliding_window=6, definition="timeeval-compat")(y, constant) == 0.0
    assert evaluators.get("R-AUC-PR", sliding_window=6, definition="timeeval")(y, constant) == 0.0
    _close(evaluators.get("VUS-PR", sliding_window=4)(y, s), "VUS-PR w4, TSB-AD and vus")
    _close(evaluators.get("VUS-PR", sliding_window=4, definition="timeeval-compat")(y, s),
           "VUS-PR w4, TimeEval compatibility mode, aeon, dtaianomaly compatibility mode")
    _close(evaluators.get("VUS-PR", sliding_window=4, definition="timeeval")(y, s), "VUS-PR w4, TimeEval default, dtaianomaly default")
    _close((1 + cross_env.constant_case_mass() / 40) / 2, "constant, dtaianomaly compatibility mode")


def test_threshold_counts_sample_the_same_scores():
    # The entries say 250 sampled positions (TSB-AD, vus, aeon, compatibility mode) and min(250, T) (TimeEval's and
    # dtaianomaly's default) pick the same sorted scores: floor(linspace(0, T - 1, n)) as a set.
    for length in range(1, 700):
        positions = set(np.linspace(0, length - 1, 250).astype(int))
        assert positions == set(np.linspace(0, length - 1, min(250, length)).astype(int)), length


def test_render_includes_the_cross_env_entries():
    from oipr_bench.atlas.disagreements.report import render_disagreements

    text = render_disagreements([])
    assert "## Across the two environments (traced by hand)" in text
    section = text[text.index("## Across the two environments"):]
    assert len(cross_env.ENTRIES) == 4
    for entry in cross_env.ENTRIES:
        assert f"### {entry.title}" in section
        for row in entry.rows:
            assert f"`{row}`" in section
        for value in entry.values:
            assert value in section
        assert entry.cause in section
        for test in entry.tests:
            assert f"`{test}`" in section
            path, name = test.split("::")
            assert name in Path(__file__).parent.joinpath(Path(path).name).read_text(), test  # the named test exists
    # the numbers come from VALUES
    assert f"dtaianomaly {VALUES['constant, dtaianomaly compatibility mode']:.4f} in compatibility mode" in section
    assert f"aeon {VALUES['range PR AUC, aeon']:.4f}" in section


def test_render_puts_the_section_after_the_study_groups():
    from oipr_bench.atlas.disagreements.groups import Group
    from oipr_bench.atlas.disagreements.report import render_disagreements

    group = Group("a group", "a setting", (), "a paper", n_random=0)
    empty = {"members": [], "results": [], "outcomes": [], "unavailable": {}}
    text = render_disagreements([(group, empty, empty)])
    assert text.index("## a group") < text.index("**Verdict.** (no verdict written)") < text.index("## Across the two environments")
    assert text.endswith("\n")


def test_docs_link_the_cross_env_section():
    atlas_doc = Path(__file__).resolve().parents[1] / "docs" / "atlas.md"
    if not atlas_doc.is_file():
        pytest.skip("docs/atlas.md not available (not a source checkout)")
    text = " ".join(atlas_doc.read_text(encoding="utf-8").split())
    title = cross_env.render_cross_env()[0].removeprefix("## ")
    assert "[atlas/DISAGREEMENTS.md](../atlas/DISAGREEMENTS.md)" in text and f'"{title}"' in text
    assert "tests/test_disagreement_causes.py" in text and "tests/test_disagreement_causes_modern.py" in text
    assert "the later definition leaves" not in text and "builds the metric per series" not in text


def test_changelog_quotes_the_constants():
    changelog = Path(__file__).resolve().parents[1] / "CHANGELOG.md"
    if not changelog.is_file():
        pytest.skip("CHANGELOG.md not available (not a source checkout)")
    text = " ".join(changelog.read_text(encoding="utf-8").split())
    vp = verdicts.VUS_PR_TP_POSITIONS
    assert f"give {vp['TimeEval, step-wise']:.4f} against vus' {vp['vus']:.4f}" in text
    assert f"where it reports {vp['TimeEval']:.4f}" in text
    assert f"constant score ({VALUES['constant, dtaianomaly compatibility mode']:.4f} where TimeEval" in text


def test_versions_line_names_each_package_once():
    # DISAGREEMENTS.md printed "TSADmetrics 1.0.16, TSADmetrics 1.0.16" for a group with two TSADmetrics members.
    from oipr_bench._version import __version__
    from oipr_bench.atlas.disagreements.report import _versions

    line = _versions(["oipr-bench:PW", "TSADmetrics:pwf", "TSADmetrics:dicec"])
    assert line.count("TSADmetrics") == 1 and line.startswith(f"oipr-bench {__version__}, TSADmetrics ")


@pytest.mark.parametrize("dist", ["prts", "TimeEval", "TSB-AD", "vus"])
def test_cross_env_names_the_installed_versions(dist):
    _need(dist)
    assert f"{dist} {package_version(dist)}" in " ".join(cross_env.__doc__.split())


# ---------------------------------------------------------------------------------------------
# The atlas's NAB-score rows (TSADmetrics, merlion) against oipr-bench's NAB (nab_rows)

from oipr_bench.atlas.disagreements import nab_rows  # noqa: E402
from oipr_bench.atlas.disagreements.nab_rows import GENERATED, NAB_VALUES  # noqa: E402

_OURS_NO_PROBATION = {"probation_percent": 0}
_NAB_TOL = 5e-5  # the texts print 4 decimals


def _nab_row(module: str, metric: str):
    """The atlas row's own call (the adapter the atlas builds), e.g. ``("tsadmetrics", "nab_score")``."""
    adapters = import_submodule("oipr_bench.atlas.adapters.main", module).ADAPTERS
    row, = [a for a in adapters if a.metric == metric]
    return row.build(row.params)


def _nab_close(value: float, key: str) -> None:
    assert abs(value - NAB_VALUES[key]) < _NAB_TOL, (key, value, NAB_VALUES[key])


def test_tsadmetrics_nab_after_a_one_row_window_and_without_windows():
    _need("TSADmetrics")
    theirs, ours = _nab_row("tsadmetrics", "nab_score"), evaluators.get("NAB", **_OURS_NO_PROBATION)
    inputs = nab_rows.one_row_window_input()
    _nab_close(ours(*inputs[1]), "one-row d1, oipr-bench")
    _nab_close(theirs(*inputs[1]), "one-row d1, TSADmetrics")
    _nab_close(theirs(*inputs[2]), "one-row d2, TSADmetrics")
    # by hand: the false positive d rows after the window weighs sigma(d) x 0.11 (width 1 read as 2), ours -0.11;
    # one window: null -1, perfect 1, so the normalised difference is 100 (1 + sigma(d)) 0.11 / 2
    sigma = lambda x: 2 / (1 + np.exp(5 * x)) - 1  # noqa: E731
    for d, pair in inputs.items():
        assert theirs(*pair) - ours(*pair) == pytest.approx(100 * (1 + sigma(d)) * 0.11 / 2, abs=1e-9), d
    # from 4 rows on (beyond the sigmoid's clip at 3) both charge the full weight
    y = np.zeros(10, np.int64)
    y[2] = 1
    p = y.copy()
    p[6] = 1
    assert theirs(y, p) == pytest.approx(ours(y, p), abs=1e-12)
    none = nab_rows.no_window_input()
    assert theirs(*none["empty"]) == 0.0 and np.isnan(ours(*none["empty"]))
    assert np.isnan(theirs(*none["one"])) and np.isnan(ours(*none["one"]))
    # the window weights of the cause are in the installed source
    src = _source("tsadmetrics", "utils/functions_nabscore.py")
    assert "prevWindowWidth==1" in src.replace(" ", "") and "probationPercent=0" in _source(
        "tsadmetrics", "metrics/tem/dpm/NabScore.py").replace(" ", "")


def test_tsadmetrics_nab_equals_ours_without_probation_on_the_cases():
    _need("TSADmetrics")
    from oipr_bench.reference.values import evaluate_case, load_cases

    theirs = _nab_row("tsadmetrics", "nab_score")
    no_probation, default = evaluators.get("NAB", **_OURS_NO_PROBATION), evaluators.get("NAB")
    differ = []
    for case in load_cases():
        mine = float(np.mean([theirs(case.y_true, pred) for pred in case.predictions]))
        assert mine == pytest.approx(evaluate_case(no_probation, case).score.f1, rel=1e-9, abs=1e-9), case.id
        if abs(mine - evaluate_case(default, case).score.f1) > 1e-9 * max(1.0, abs(mine)):
            differ.append(case.id)
    assert tuple(differ) == GENERATED["cases TSADmetrics differs, default probation"]


def test_merlion_nab_false_positive_weights_and_scale():
    _need("salesforce-merlion")
    from oipr_bench.reference.values import evaluate_case, load_cases

    theirs, ours = _nab_row("merlion", "nab_score[standard]"), evaluators.get("NAB", **_OURS_NO_PROBATION)
    inputs = nab_rows.window_input()
    assert theirs(*inputs["first"]) == pytest.approx(NAB_VALUES["window first, merlion"], abs=1e-15)
    _nab_close(ours(*inputs["first"]), "window first, oipr-bench and TSADmetrics")
    for name in ("after", "before", "late"):
        _nab_close(ours(*inputs[name]), f"window {name}, oipr-bench and TSADmetrics")
        _nab_close(theirs(*inputs[name]), f"window {name}, merlion")
    # by hand: a false positive at relative position x of its normal stretch costs 0.11 tanh(2.5 (1 - x)) / tanh(2.5)
    falling = lambda x: np.tanh(2.5 * (1 - x)) / np.tanh(2.5)  # noqa: E731
    for name, x in (("after", 0 / 10), ("before", 4 / 5), ("late", 9 / 10)):
        assert theirs(*inputs[name]) == pytest.approx((2 - 0.11 * falling(x)) / (2 + 1e-8), abs=1e-12), name
    none = nab_rows.no_window_input()
    assert theirs(*none["empty"]) == 0.0 and np.isnan(ours(*none["empty"]))
    assert theirs(*none["one"]) == pytest.approx(NAB_VALUES["no window, one detection, merlion"], abs=0.01)
    assert theirs(*none["one"]) == pytest.approx(-0.11 * falling(3 / 10) / 1e-8, rel=1e-9)
    # the 25 cases: equal (x 100) exactly where the prediction has no point outside the windows
    equal, differ = [], []
    for case in load_cases():
        mine = 100 * float(np.mean([theirs(case.y_true, pred) for pred in case.predictions]))
        no_fp = all(not np.any((pred == 1) & (case.y_true == 0)) for pred in case.predictions)
        same = abs(mine - evaluate_case(ours, case).score.f1) < 1e-5
        assert same == no_fp, case.id
        (equal if same else differ).append(case.id)
    assert (len(equal), len(differ)) == (25 - GENERATED["cases merlion differs"], GENERATED["cases merlion differs"])


def _runs(y: np.ndarray) -> list[tuple[int, int]]:
    edges = np.flatnonzero(np.diff(np.concatenate([[0], y, [0]])))
    return list(zip(edges[::2].tolist(), edges[1::2].tolist()))


def _merlion_model(y: np.ndarray, p: np.ndarray, fp: float, fn: float) -> float:
    """merlion's NAB as the entry traces it: NAB's window weights, the falling false-positive weight per stretch."""
    falling = lambda x: np.tanh(2.5 * (1 - x)) / np.tanh(2.5)  # noqa: E731
    events = _runs(y)
    edges = sorted({0, len(y), *(b for e in events for b in e)})
    score = 0.0
    for a, b in zip(edges, edges[1:]):
        hits = np.flatnonzero(p[a:b])
        if y[a] and hits.size:
            score += falling(hits[0] / (b - a))
        elif y[a]:
            score -= fn
        else:
            score -= fp * float(np.sum(falling(hits / (b - a))))
    null, perfect = -fn * len(events), 1.0 * len(events)
    return (score - null) / (perfect - null + 1e-8)


def _tsadmetrics_model(y: np.ndarray, p: np.ndarray, ours) -> float:
    """TSADmetrics' NAB as the entry traces it: ours with no probation, 0 for an empty prediction, and a one-row
    window's width read as 2 for the false positives after it."""
    if not p.any():
        return 0.0
    events = _runs(y)
    value = ours(y, p)
    if not events:
        return value
    sigma = lambda x: 2 / (1 + np.exp(5 * x)) - 1  # noqa: E731
    extra = sum((1 + sigma(d)) * 0.11 for s, e in events if e - s == 1
                for d in (1, 2, 3) if s + d < len(y) and not y[s + 1:s + d + 1].any() and p[s + d])
    return value + 100 * extra / (2 * len(events))


def test_nab_rows_differ_only_by_the_traced_causes_on_generated_pairs():
    _need("TSADmetrics")
    _need("salesforce-merlion")
    from oipr_bench.atlas.adapters.main.merlion import NAB_PROFILES
    from oipr_bench.testing.families import family_pairs, series_of

    tsad = _nab_row("tsadmetrics", "nab_score")
    merlion = {name: _nab_row("merlion", f"nab_score[{name}]") for name in NAB_PROFILES}
    profiles = {"standard": "standard", "reward_low_fp": "reward_low_FP_rate", "reward_low_fn": "reward_low_FN_rate"}
    ours = {name: evaluators.get("NAB", profile=p, **_OURS_NO_PROBATION) for name, p in profiles.items()}

    def same(a: float, b: float, rel: float) -> bool:
        return bool(np.isnan(a) and np.isnan(b)) or abs(a - b) <= rel * max(1.0, abs(b))

    counts = {"TSADmetrics": 0, "merlion": 0}
    for family in GENERATED["families"]:
        for pair in family_pairs(family, GENERATED["pairs_per_family"]):
            y, p = series_of(pair.y_true_events, pair.length), series_of(pair.y_pred_events, pair.length)
            value = tsad(y, p)
            counts["TSADmetrics"] += not same(value, ours["standard"](y, p), 1e-9)
            assert same(value, _tsadmetrics_model(y, p, ours["standard"]), 1e-9), (family, pair.index)
            for name, weights in NAB_PROFILES.items():
                value = merlion[name](y, p)
                if name == "standard":
                    counts["merlion"] += not same(100 * value, ours[name](y, p), 1e-7)
                model = _merlion_model(y, p, weights["fp_weight"], weights["fn_weight"])
                assert same(value, model, 1e-9), (name, family, pair.index, value, model)
    assert counts == {"TSADmetrics": GENERATED["TSADmetrics differs"], "merlion": GENERATED["merlion differs"]}


def test_render_includes_the_nab_entries():
    from oipr_bench.atlas.disagreements.report import render_disagreements

    text = render_disagreements([])
    section = text[text.index("## The NAB score rows against oipr-bench's NAB"):]
    assert text.index("## Across the two environments") < text.index("## The NAB score rows")
    assert len(nab_rows.NAB_ENTRIES) == 2
    for entry in nab_rows.NAB_ENTRIES:
        assert f"### {entry.title}" in section and entry.cause in section
        for value in entry.values:
            assert value in section
        for test in entry.tests:
            name = test.split("::")[1]
            assert f"def {name}(" in Path(__file__).read_text(), test  # the named test exists
    assert f"TSADmetrics {NAB_VALUES['one-row d1, TSADmetrics']:.4f}" in section
    assert f"merlion {NAB_VALUES['window after, merlion']:.4f}" in section
