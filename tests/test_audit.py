"""oipr_bench.audit() and the `oipr-bench audit` / `oipr-bench profile` commands."""

from __future__ import annotations

import json
import math
import os
import time

import jsonschema
import numpy as np
import pandas as pd
import pytest

import oipr_bench
from oipr_bench.reference import paper
from oipr_bench import scenarios
from oipr_bench.cli import main
from oipr_bench.errors import UsageError
from oipr_bench.auditing.expectations import Expectation, judge, load_expect_file
from oipr_bench.auditing.profile.results import Profile


def _pw(y_true, y_pred):
    tp = int(np.sum((y_true == 1) & (y_pred == 1)))
    return (tp / y_pred.sum() if y_pred.sum() else 0.0, tp / y_true.sum() if y_true.sum() else 0.0)


@pytest.fixture(scope="module")
def pw_profile() -> Profile:
    return oipr_bench.audit(_pw)


def test_profile_api(pw_profile):
    assert pw_profile.characteristics == {name: row["PW"] for name, row in paper.table_5().items()}
    assert set(pw_profile.evidence) == set(pw_profile.characteristics)
    frame = pw_profile.cases
    assert isinstance(frame, pd.DataFrame) and len(frame) == 25
    assert frame.loc["overlap_proportion/c1", "f1"] == pytest.approx(0.0392, abs=5e-5)
    assert frame.loc["random_detector/c1", "n_runs"] == 100
    assert frame.loc["random_detector/c1", "f1"] == pytest.approx(0.0220, abs=5e-5)
    assert not pw_profile.ok
    assert sorted(line.split("]")[0] for line in pw_profile.failures()) == sorted(
        f"characteristic[{n}" for n in ("existence_detection_reward", "fragments_merging", "addressing_ambiguous_labels",
                                        "early_detection_reward", "long_anomaly_misleading")
    )


def test_json_report_validates_and_round_trips(pw_profile, repo_root):
    schema = json.loads((repo_root / "schema" / "report.schema.json").read_text())
    doc = json.loads(pw_profile.to_json())
    jsonschema.validate(doc, schema)
    again = Profile.from_dict(doc)
    assert again.to_dict() == pw_profile.to_dict()
    assert doc["package"]["version"] == oipr_bench.__version__
    assert doc["dataset"]["version"] == scenarios.DATASET_VERSION


def test_declared_expectations_make_it_pass():
    prof = oipr_bench.audit(_pw, expect={name: row["PW"] for name, row in paper.table_5().items()})
    assert prof.ok
    statuses = {n: r.status for n, r in prof.characteristic_results.items()}
    assert sorted(n for n, s in statuses.items() if s == "deviation") == sorted(
        ["existence_detection_reward", "fragments_merging", "addressing_ambiguous_labels", "early_detection_reward",
         "long_anomaly_misleading"]
    )


def test_judge_table():
    dev = Expectation("fragments_merging", ("no",), "--expect")
    assert judge("no", dev) == "deviation" and judge("yes", dev) == "unexpected_pass"
    plain = Expectation("long_anomaly_misleading", ("absent", "mitigated"))
    assert judge("mitigated", plain) == "passed" and judge("present", plain) == "failed"
    assert judge(None, plain) == "undetermined"
    partial = Expectation("addressing_ambiguous_labels", ("yes", "only_delay"), "--expect")
    assert not partial.deviation and judge("only_delay", partial) == "passed" and judge("no", partial) == "failed"


def test_expectation_errors_and_files(tmp_path):
    with pytest.raises(UsageError, match="unknown characteristic 'speed'"):
        oipr_bench.audit("PW", expect=["speed=yes"])
    with pytest.raises(UsageError, match="not a value of early_detection_reward"):
        oipr_bench.audit("PW", expect={"early_detection_reward": "present"})
    f = tmp_path / "e.toml"
    f.write_text('[oipr_profile]\naddressing_ambiguous_labels = "only-delay"\n'
                 'long_anomaly_misleading = { value = "present", reason = "point-based" }\n')
    exp = load_expect_file(f)
    assert exp["addressing_ambiguous_labels"].values == ("only_delay",)
    assert exp["long_anomaly_misleading"].reason == "point-based"
    bad = tmp_path / "bad.toml"
    bad.write_text("this is = = not toml")
    with pytest.raises(UsageError, match="cannot parse"):
        load_expect_file(bad)


def test_builtin_with_params_and_reference():
    prof = oipr_bench.audit("OIPR", l_obs=10, reference="OIPR", reference_params={"l_obs": 10})
    assert prof.params["l_obs"] == 10
    assert prof.reference["params"]["l_obs"] == 10
    assert all(r.status == "passed" for r in prof.reference_results.values())
    mismatch = oipr_bench.audit("OIPR", l_obs=10, reference="OIPR", sanity=False)
    assert any(r.status == "failed" for r in mismatch.reference_results.values())


def test_random_case_mean_is_of_per_run_f1s():
    prof = oipr_bench.audit("PA", sanity=False)
    r = prof.case_results["random_detector/c2"]
    assert len(r.runs) == 100
    assert r.score.f1 == pytest.approx(np.mean([s.f1 for s in r.runs]))
    assert r.score.f1 == pytest.approx(0.4428, abs=0.01)  # Table A1, mean over 100 runs


def _misbehaving():
    plan = {
        scenarios.get("overlap_proportion/c3").y_pred.tobytes(): "raise",
        scenarios.get("fragmented_fps/c3").y_pred.tobytes(): "nan",
        scenarios.get("sparse_anomalies/c2").y_pred.tobytes(): "mutate",
        scenarios.get("tp_positions/c4").y_pred.tobytes(): "hang",
        scenarios.get("constant_detector/c1").y_pred.tobytes(): "exit",  # all zeros: no other prediction is
    }

    def ev(y_true, y_pred):
        what = plan.get(np.asarray(y_pred, np.int8).tobytes())
        if what == "raise":
            raise ValueError("bad layout")
        if what == "nan":
            return (math.nan, 1.0, math.nan)
        if what == "mutate":
            y_pred[0] = 1
        if what == "hang":
            time.sleep(600)
        if what == "exit":
            os._exit(3)
        return _pw(y_true, y_pred)

    return ev


def test_misbehaving_matrix_through_audit():
    t0 = time.perf_counter()
    prof = oipr_bench.audit(_misbehaving(), timeout=2)
    assert time.perf_counter() - t0 < 60
    status = {c: r.status for c, r in prof.case_results.items()}
    assert status["overlap_proportion/c3"] == "raised"
    assert "ValueError: bad layout" in prof.case_results["overlap_proportion/c3"].message
    assert status["fragmented_fps/c3"] == "bad_result"
    assert status["sparse_anomalies/c2"] == "mutated"
    assert status["tp_positions/c4"] == "timed_out"
    assert prof.case_results["tp_positions/c4"].message == "timed out after 2 s"
    assert status["constant_detector/c1"] == "crashed"
    assert sum(s == "ok" for s in status.values()) == 20
    assert prof.sanity_results["no_mutation"].status == "failed"
    assert "sparse_anomalies/c2" in prof.sanity_results["no_mutation"].message
    assert prof.characteristic_results["early_detection_reward"].status == "undetermined"
    assert prof.characteristics["all_one_overestimation"] == "absent"


@pytest.mark.parametrize(
    "result, problem",
    [(None, "returned None"), ("x", "string"), ((1.5, 1.0), "outside [0, 1]"),
     ((-0.1, 0.5), "outside [0, 1]"), ((math.inf, 1.0), "outside"), ((0.1, 0.2, 0.3, 0.4), "4 values"),
     # scalar results: one number is a score, judged against the declared bounds (default [0, 1])
     (-0.5, "score = -0.5 lies outside the declared bounds [0, 1]"), (1.5, "outside the declared bounds [0, 1]"),
     (math.inf, "score = inf is not a finite number"),
     (-math.inf, "score = -inf is not a finite number"), (True, "returned a boolean"), (np.array([0.5]), "returned 1 values")],
)
def test_bad_results_fail_every_case_and_say_why(result, problem):
    prof = oipr_bench.audit(lambda t, p: result, sanity=False)
    assert all(r.status == "bad_result" for r in prof.case_results.values())
    assert problem in prof.case_results["overlap_proportion/c1"].message
    assert all(r.observed is None for r in prof.characteristic_results.values())


def test_a_nan_score_is_accepted_only_where_it_is_0_over_0():
    # NaN is the documented value of a 0/0 quantity: only the empty prediction (constant_detector/c1) allows it.
    prof = oipr_bench.audit(lambda t, p: math.nan, sanity=False)
    bad = {c for c, r in prof.case_results.items() if r.status == "bad_result"}
    assert bad == set(prof.case_results) - {"constant_detector/c1"}
    assert "score is NaN although it is well defined here" in prof.case_results["overlap_proportion/c1"].message


def test_declared_bounds_decide_what_is_in_range():
    # 1.5 is out of the default [0, 1], in range for [0, 2] and for an open top; 2 + 1e-12 is 2 (tolerance 1e-9).
    assert oipr_bench.audit(lambda t, p: 1.5, sanity=False).case_results["sparse_anomalies/c1"].status == "bad_result"
    for bounds in ((0, 2), (0, None), (None, math.inf)):
        prof = oipr_bench.audit(lambda t, p: 1.5, sanity=False, bounds=bounds)
        assert all(r.ok for r in prof.case_results.values()), bounds
    assert all(r.ok for r in oipr_bench.audit(lambda t, p: 2 + 1e-12, sanity=False, bounds=(0, 2)).case_results.values())
    bad = oipr_bench.audit(lambda t, p: 2.01, sanity=False, bounds=(0, 2)).case_results["sparse_anomalies/c1"]
    assert "score = 2.01 lies outside the declared bounds [0, 2]" in bad.message
    bad = oipr_bench.audit(lambda t, p: -1.0, sanity=False, bounds=(0, None)).case_results["sparse_anomalies/c1"]
    assert "outside the declared bounds [0, inf)" in bad.message


def test_numpy_scalars_and_0d_arrays_are_accepted():
    prof = oipr_bench.audit(lambda t, p: (np.float32(1.0), np.array(1.0), np.float64(1.0)), sanity=False)
    assert all(r.ok for r in prof.case_results.values())


def test_sanity_catches_nondeterminism_and_bad_f1():
    rng = np.random.default_rng(0)
    prof = oipr_bench.audit(lambda t, p: (float(rng.random()), 0.5))
    assert prof.sanity_results["deterministic"].status == "failed"
    assert prof.sanity_results["perfect"].status == "failed"
    prof = oipr_bench.audit(lambda t, p: (*_pw(t, p), 0.123))
    assert prof.sanity_results["harmonic_f1"].status == "failed"
    assert "2PR/(P+R)" in prof.sanity_results["harmonic_f1"].message
    prof = oipr_bench.audit(lambda t, p: (1.0, 1.0) if t.dtype == bool else (0.5, 0.5))
    assert prof.sanity_results["bool_int"].status == "failed"


def test_cli_audit_formats_and_exit_codes(tmp_path, monkeypatch, capsys):
    (tmp_path / "cli_pw_eval.py").write_text(
        "import numpy as np\n"
        "def pw(t, p):\n"
        "    tp = int(np.sum((t == 1) & (p == 1)))\n"
        "    return (tp / p.sum() if p.sum() else 0.0, tp / t.sum() if t.sum() else 0.0)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["audit", "cli_pw_eval:pw"]) == 1
    out = capsys.readouterr()
    assert "fragments_merging" in out.out and "characteristic[fragments_merging]" in out.err
    args = ["audit", "cli_pw_eval:pw", "--format", "json", "-o", str(tmp_path / "r.json")]
    args += [f"--expect={n}={row['PW']}" for n, row in paper.table_5().items()]
    assert main(args) == 0
    assert json.loads((tmp_path / "r.json").read_text())["ok"] is True
    assert main(["audit", "OIPR", "--format", "markdown"]) == 0
    assert "| fragments_merging | yes | yes | ok |" in capsys.readouterr().out


@pytest.mark.parametrize(
    "args, message",
    [
        (["audit", "nosuch_mod_cli:ev"], "no module named 'nosuch_mod_cli'"),
        (["audit", "OIPR", "--param", "l_obs"], "--param 'l_obs': expected key=value"),
        (["audit", "OIPR", "--expect", "speed=yes"], "unknown characteristic 'speed'"),
        (["audit", "Nope"], "not a built-in evaluator"),
    ],
)
def test_cli_audit_usage_errors(args, message, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0] and err[0].startswith("oipr-bench audit: error:")


def test_cli_profile_prints_table5_with_70_matches(capsys):
    assert main(["profile"]) == 0
    out = capsys.readouterr().out
    assert "70 of 70 cells match" in out and "*" not in out
    assert main(["profile", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["matching_cells"] == 70 and all(r["computed"] == r["paper"] for r in doc["rows"])


def _short_series_overshoot(y_true, y_pred):
    """PW, except that on series shorter than every dataset case a clean hit scores precision 1.5."""
    p, r = _pw(y_true, y_pred)
    return (1.5 * p if len(y_true) < 20 else p), r


def test_property_search_sanity_check_api_and_cli(capsys):
    prof = oipr_bench.audit(_short_series_overshoot, hypothesis_examples=25)
    assert list(prof.sanity_results)[-1] == "property-search"
    res = prof.sanity_results["property-search"]
    assert res.status == "failed"
    head, *lines = res.message.splitlines()
    assert head == "broke valid_result, perfect_prediction (searched 25 derandomized examples per property)"
    assert [line.split(":")[0] for line in lines] == ["valid_result", "perfect_prediction"]
    assert "precision = 1.5 lies outside [0, 1]" in lines[0]
    assert all(prof.sanity_results[n].status == "passed" for n in ("perfect", "deterministic", "no_mutation"))
    assert any(f.startswith("sanity[property-search]: broke valid_result") and "valid_result: precision" in f
               for f in prof.failures())
    assert prof.to_dict()["options"]["hypothesis_examples"] == 25
    assert "property-search" not in oipr_bench.audit("PW", sanity=True, expect={}).sanity_results
    # 0 is off, as with the plugin's and the command's flags (one rule for all three front ends).
    assert "property-search" not in oipr_bench.audit("PW", hypothesis_examples=0, sanity=True).sanity_results
    with pytest.raises(UsageError, match=r"^hypothesis_examples must be 0 \(off\) or a positive integer, got -1$"):
        oipr_bench.audit("PW", hypothesis_examples=-1)
    assert main(["audit", "OIPR", "--hypothesis-examples", "10"]) == 0
    assert "property-search ok" in capsys.readouterr().out
