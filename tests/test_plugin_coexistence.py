"""Installing oipr-bench never breaks an unrelated test suite.

A project whose conftest defines its own ``--evaluator`` or ``--oipr-timeout`` keeps running, and
oipr-bench stays usable through its ``--oipr-`` spellings (``oipr_bench.pytest_plugin.options``).
"""

from __future__ import annotations

import textwrap

import pytest

pytest_plugins = ["pytester"]

CONFTEST = textwrap.dedent(
    """
    def pytest_addoption(parser):
        parser.addoption("--evaluator", default="mine")
        parser.addoption("--oipr-timeout", default="theirs")
    """
)
THEIR_TEST = textwrap.dedent(
    """
    def test_their_options(request):
        assert request.config.getoption("evaluator") == "mine"
        assert request.config.getoption("oipr_timeout") == "theirs"
    """
)
PW = textwrap.dedent(
    """
    def pw(y_true, y_pred):
        tp = int(((y_true == 1) & (y_pred == 1)).sum())
        return (tp / y_pred.sum() if y_pred.sum() else 0.0), (tp / y_true.sum() if y_true.sum() else 0.0)
    """
)


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_theirs=THEIR_TEST, mypw=PW)
    return pytester


def test_a_project_defining_evaluator_and_oipr_timeout_still_runs(project):
    result = project.runpytest_subprocess("-p", "no:cacheprovider", timeout=120)
    assert result.ret == 0, result.stdout.str()[-2000:] + result.stderr.str()[-2000:]
    result.assert_outcomes(passed=1)


def test_the_oipr_spelling_audits_beside_the_projects_own_option(project):
    result = project.runpytest_subprocess("-p", "no:cacheprovider", "--oipr-evaluator=mypw:pw", "-q", timeout=120)
    out = result.stdout.str()
    assert "oipr-bench profile: mypw:pw" in out


def test_using_the_projects_spelling_says_which_option_is_oipr_benchs(project):
    result = project.runpytest_subprocess("-p", "no:cacheprovider", "--evaluator=mypw:pw", timeout=120)
    out = result.stdout.str() + result.stderr.str()
    assert "not oipr-bench's: --evaluator (use --oipr-evaluator)" in out
    assert "oipr-bench profile" not in out


FAILS_ONE = textwrap.dedent(
    """
    def pw(y_true, y_pred):
        tp = int(((y_true == 1) & (y_pred == 1)).sum())
        return (tp / y_pred.sum() if y_pred.sum() else 0.0), (tp / y_true.sum() if y_true.sum() else 0.0)
    """
)


def test_last_failed_after_switching_evaluator_audits_the_new_one_in_full(pytester: pytest.Pytester):
    pytester.makepyfile(mypw=FAILS_ONE)
    first = pytester.runpytest_subprocess("--evaluator=mypw:pw", "-q", timeout=120)
    assert first.ret == 1  # PW fails some characteristics of OIPR's profile
    second = pytester.runpytest_subprocess("--evaluator=OIPR", "--lf", "-q", timeout=120)
    out = second.stdout.str()
    assert second.ret == 0, out[-2000:]
    assert "deselected" not in out  # every OIPR item ran, not only PW's failures
    third = pytester.runpytest_subprocess("--evaluator=OIPR", "--lf", "-q", timeout=120)
    assert third.ret == 0
