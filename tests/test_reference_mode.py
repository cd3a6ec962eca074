"""With ``--reference=NAME`` the expected profile is NAME's own.

Before: the Table 5 items were judged against OIPR's row whatever ``--reference`` said, so
``pytest --evaluator=PA --reference=PA`` (a correct implementation) failed 6 characteristic items.
Now the expected Table 5 row and property row default to the reference's own, computed with its
parameters; declared expectations still override; OIPR's row stays the default without ``--reference``.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import oipr_bench
from oipr_bench import evaluators
from oipr_bench.auditing.profile.results import Profile
from oipr_bench.auditing.table5.characteristics import DEFAULT_EXPECTED
from oipr_bench.reference.paper import table_5
from oipr_bench.vocabulary import CHARACTERISTICS, FAILED, NOT_APPLICABLE, PASSED, UNEXPECTED_PASS

BUILT_INS = tuple(evaluators.NAMES)


def _pytest(args, cwd):
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600)


def test_there_are_seven_built_ins():
    assert len(BUILT_INS) == 7


@pytest.mark.slow
@pytest.mark.parametrize("name", BUILT_INS)
def test_a_correct_built_in_passes_a_full_run_against_itself(name, tmp_path):
    """``pytest --evaluator=X --reference=X --oipr-differential=200``: Table 5, sanity, reference values and the
    differential all pass (exit code 0)."""
    out = _pytest([f"--evaluator={name}", f"--reference={name}", "--oipr-differential=200"], tmp_path)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert " failed" not in out.stdout and "characteristic[" not in out.stdout.split("short test summary")[-1]


@pytest.mark.parametrize("name", ["PA", "RP/RR"])
def test_the_expected_row_is_the_references_own(name):
    prof = oipr_bench.audit(name, reference=name, sanity=False)
    paper = {c: row[name] for c, row in table_5().items()}
    for c in CHARACTERISTICS:
        r = prof.characteristic_results[c]
        assert r.expectation.values == (r.observed,) and r.status == PASSED, (c, r.observed, r.expectation)
        assert r.observed == paper[c], c  # the built-in's row of the paper's Table 5
        assert r.expectation.source.startswith("--reference"), r.expectation.source
        assert not r.expectation.deviation


def test_oipr_row_stays_the_default_without_reference():
    prof = oipr_bench.audit("PA", sanity=False)
    assert {c: r.expectation.values for c, r in prof.characteristic_results.items()} == DEFAULT_EXPECTED
    assert sum(r.status == FAILED for r in prof.characteristic_results.values()) == 6


def test_the_reference_row_uses_the_references_parameters():
    """PA%K with k = 0 is PA and with k = 100 is PW (paper Sec. 2): its expected row follows its parameters."""
    k0 = oipr_bench.audit("PA", reference="PA%K", reference_params={"k": 0}, sanity=False)
    assert all(r.status == PASSED for r in k0.characteristic_results.values())
    k100 = oipr_bench.audit("PW", reference="PA%K", reference_params={"k": 100}, sanity=False)
    assert all(r.status == PASSED for r in k100.characteristic_results.values())
    wrong = oipr_bench.audit("PW", reference="PA%K", reference_params={"k": 0}, sanity=False)
    assert any(r.status == FAILED for r in wrong.characteristic_results.values())


def test_the_property_row_is_the_references_own():
    prof = oipr_bench.audit("RP/RR", reference="RP/RR", suite="all", sanity=False)
    for name, r in prof.property_results.items():
        if r.observed == NOT_APPLICABLE:
            assert r.expectation is None, name  # not judged (a score property of a 0/1 metric)
        else:
            assert r.expectation is not None and r.expectation.values == (r.observed,) and r.status == PASSED, name
    other = oipr_bench.audit("PW", reference="RP/RR", suite="properties", sanity=False)
    assert other.property_results["lag_tolerance"].status == FAILED  # PW decays symmetrically, RP/RR favours early


def test_declared_expectations_still_override_the_references_row():
    prof = oipr_bench.audit("PA", reference="PA", sanity=False, expect={"fragments_merging": "yes"})
    r = prof.characteristic_results["fragments_merging"]
    assert r.expectation.source == "expect" and r.expectation.values == ("yes",)
    # a declaration departing from the reference's row is a declared deviation from it (as from OIPR's row
    # without --reference): PA reads its own "no", so the declared deviation did not occur
    assert r.expectation.default == ("no",) and r.expectation.deviation and r.status == UNEXPECTED_PASS
    declared = oipr_bench.audit("PA", reference="PA", sanity=False, suite="properties",
                                expect={"fp_distance": "proximity_aware"})
    assert declared.property_results["fp_distance"].status == FAILED


def test_the_report_round_trips_the_references_row(tmp_path):
    prof = oipr_bench.audit("PA", reference="PA", sanity=False)
    path = tmp_path / "report.json"
    path.write_text(prof.to_json(), encoding="utf-8")
    back = Profile.from_dict(json.loads(path.read_text(encoding="utf-8")))
    for c in CHARACTERISTICS:
        e = back.characteristic_results[c].expectation
        assert e.default == e.values and not e.deviation, c


def test_a_reference_mode_report_verifies_and_keeps_only_declared_expectations():
    from oipr_bench.auditing.profile.verify import options_of, verify

    prof = oipr_bench.audit("PA", reference="PA", sanity=False, expect={"fragments_merging": "yes"})
    back = Profile.from_dict(json.loads(prof.to_json()))
    # the reference's row is recomputed from --reference, not replayed as declarations
    assert set(options_of(back).expectations) == {"fragments_merging"}
    result = verify(back)
    assert not result.problems, result.problems
