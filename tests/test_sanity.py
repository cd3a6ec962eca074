"""Sanity checks (oipr_bench.auditing.profile.sanity): a registry of check_<name> functions, and what "observed nothing" means."""

from __future__ import annotations

import re

import numpy as np
import pytest

import oipr_bench
from oipr_bench.auditing.profile import sanity
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
    # Every call raised, so no_mutation and harmonic_f1 saw nothing; they used to say "ok".
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
    from oipr_bench.auditing.profile.results import REPORT_SCHEMA_FILE, Profile

    prof = oipr_bench.audit(_crashes_without_prediction)
    assert prof.sanity_results["discriminates"].status == "undetermined"
    report = prof.to_dict()
    assert schema_problem(report, REPORT_SCHEMA_FILE) is None
    again = Profile.from_dict(report)
    assert again.sanity_results["discriminates"].status == "undetermined"


# -- declaring a sanity check: --expect discriminates=no ---------------------------------


def _event_f1(y_true, y_pred):
    """Event-wise P/R: the all-ones detector finds every event with P = 1, so it ties the perfect detection."""
    from oipr_bench.scenarios.events import events_list

    true, pred = events_list(y_true), events_list(y_pred)
    touch = lambda a, b: a[0] < b[1] and b[0] < a[1]  # noqa: E731
    p = sum(any(touch(q, t) for t in true) for q in pred) / len(pred) if pred else 0.0
    r = sum(any(touch(t, q) for q in pred) for t in true) / len(true) if true else 0.0
    return p, r


EVENT_F1_ROW = ["overlap_proportion_awareness=no", "fragments_merging=no", "addressing_ambiguous_labels=no",
                "early_detection_reward=no", "fragmentation_misleading_in_precision=present",
                "all_one_overestimation=present"]


def test_a_declared_sanity_failure_is_a_deviation_and_the_profile_passes():
    from oipr_bench import audit

    undeclared = audit(_event_f1, expect=EVENT_F1_ROW)
    assert undeclared.sanity_results["discriminates"].status == "failed"
    assert not undeclared.ok
    assert any(f.startswith("sanity[discriminates]") for f in undeclared.failures())
    declared = audit(_event_f1, expect={**dict(e.split("=") for e in EVENT_F1_ROW),
                                        "discriminates": {"value": "no", "reason": "all ones finds every event"}})
    res = declared.sanity_results["discriminates"]
    assert res.status == "deviation"
    assert res.message.startswith("declared discriminates=no (expect: all ones finds every event); the perfect detection")
    assert declared.ok and declared.failures() == []
    assert declared.to_dict()["sanity"][1]["status"] == "deviation"


def test_a_declared_sanity_failure_that_passes_is_an_unexpected_pass():
    from oipr_bench import audit

    prof = audit("OIPR", expect="discriminates=no")
    assert prof.sanity_results["discriminates"].status == "unexpected_pass"
    assert prof.ok


@pytest.mark.parametrize("item, message", [
    ("discriminates=maybe", "discriminates='maybe' is not a value of discriminates; use one of yes, no"),
    ("discriminate=no", "unknown characteristic 'discriminate'"),
])
def test_sanity_declarations_are_validated(item, message):
    from oipr_bench import audit
    from oipr_bench.errors import UsageError

    with pytest.raises(UsageError, match=re.escape(message)):
        audit("OIPR", expect=item)
