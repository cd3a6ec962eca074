"""Sanity checks (oipr_bench.auditing.sanity): a registry of check_<name> functions, and what "observed nothing" means."""

from __future__ import annotations

import numpy as np
import pytest

import oipr_bench
from oipr_bench.auditing import sanity
from oipr_bench.vocabulary import PROPERTY_SEARCH, SANITY_CHECKS


def test_one_check_function_per_name():
    assert list(sanity.CHECKS) == [*SANITY_CHECKS, PROPERTY_SEARCH]
    for name, check in sanity.CHECKS.items():
        assert check.__name__ == "check_" + name.replace("-", "_")
    with pytest.raises(KeyError, match="unknown sanity check 'speed'"):
        sanity.run_check("speed", None)  # type: ignore[arg-type]


def _always_raises(y_true, y_pred):
    raise RuntimeError("broken")


def test_a_check_that_observed_nothing_is_undetermined():
    # Issue 12 item 6: every call raised, so no_mutation and harmonic_f1 saw nothing; they used to say "ok".
    prof = oipr_bench.audit(_always_raises)
    results = prof.sanity_results
    assert set(results) == set(SANITY_CHECKS)
    for name in SANITY_CHECKS:
        assert results[name].status == "undetermined", (name, results[name])
        assert "nothing was observed" in results[name].message
    assert "raised RuntimeError: broken" in results["no_mutation"].message
    assert not prof.ok
    assert "sanity[no_mutation]: every call failed, so nothing was observed" in "\n".join(prof.failures())


def test_a_check_that_observed_some_calls_still_judges_them():
    # Raises only on the long series (1000 points): no_mutation and harmonic_f1 saw the other cases.
    def fragile(y_true, y_pred):
        if len(y_true) == 1000:
            raise RuntimeError("too long")
        return oipr_bench.evaluators.get("PW")(y_true, y_pred)

    prof = oipr_bench.audit(fragile)
    assert prof.sanity_results["no_mutation"].status == "passed"
    assert prof.sanity_results["harmonic_f1"].status == "passed"
    # A failing probe among working ones is a violation, not "nothing observed".
    assert prof.sanity_results["perfect"].status == "failed"
    assert "long_anomaly_effect/c1: raised RuntimeError: too long" in prof.sanity_results["perfect"].message


def test_an_evaluator_without_f1_passes_harmonic_f1_with_a_note():
    def pr_only(y_true, y_pred):
        tp = float(np.sum((y_true == 1) & (y_pred == 1)))
        return (tp / y_pred.sum() if y_pred.sum() else 0.0), (tp / y_true.sum() if y_true.sum() else 0.0)

    res = oipr_bench.audit(pr_only, expect={}).sanity_results["harmonic_f1"]
    assert res.status == "passed" and "returns no F1" in res.message


def _crashes_without_prediction(y_true, y_pred):
    # Like prts 1.0.0.3, which asserts on an all-zero prediction: the discriminates check then
    # cannot see "no detection" and is undetermined.
    if not np.any(y_pred):
        raise AssertionError("no prediction")
    tp = float(np.sum(y_true * y_pred))
    return tp / float(np.sum(y_pred)), tp / max(float(np.sum(y_true)), 1.0)


def test_a_report_with_an_undetermined_sanity_check_follows_its_schema():
    # An undetermined sanity status used to break schema/report.schema.json (it allowed only
    # passed/failed), so such a report could be neither validated nor read back.
    from oipr_bench.jsondata import schema_problem
    from oipr_bench.auditing.results import REPORT_SCHEMA_FILE, Profile

    prof = oipr_bench.audit(_crashes_without_prediction)
    assert prof.sanity_results["discriminates"].status == "undetermined"
    report = prof.to_dict()
    assert schema_problem(report, REPORT_SCHEMA_FILE) is None
    again = Profile.from_dict(report)
    assert again.sanity_results["discriminates"].status == "undetermined"
