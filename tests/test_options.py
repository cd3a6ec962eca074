"""One options object for audit(), the plugin and `oipr-bench audit`.

The rules live in oipr_bench.auditing.options.AuditOptions; audit() errors name the
Python parameter, the command and the plugin re-phrase the same error with
their own flag names.
"""

from __future__ import annotations

import textwrap

import pytest

import oipr_bench
from oipr_bench.cli import main
from oipr_bench.errors import UsageError
from oipr_bench.auditing.options import CLI_FLAGS, PLUGIN_FLAGS, AuditOptions, OptionError

pytest_plugins = ["pytester"]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"timeout": "2"}, "timeout must be a positive number of seconds, got '2'"),
        ({"timeout": 0}, "timeout must be a positive number of seconds, got 0"),
        ({"timeout": float("inf")}, "timeout must be a positive number of seconds, got inf"),
        ({"timeout": True}, "timeout must be a positive number of seconds, got True"),
        ({"isolate": "no"}, "isolate must be True or False, got 'no'"),
        ({"sanity": 1}, "sanity must be True or False, got 1"),
        ({"tolerance": "x"}, "tolerance needs reference"),
        ({"tolerance": 1e-3}, "tolerance needs reference"),
        ({"against": "paper"}, "against needs reference"),
        ({"reference_params": {"l_obs": 5}}, "reference_params needs reference"),
        ({"reference": "PW", "tolerance": "x"}, "tolerance must be a non-negative number, got 'x'"),
        ({"reference": "PW", "tolerance": -1.0}, "tolerance must be a non-negative number, got -1.0"),
        ({"reference": "PW", "against": "table"}, "against must be 'reference' or 'paper', got 'table'"),
        ({"reference": "NOPE"}, "reference: unknown evaluator 'NOPE'; built-in evaluators are PW, "),
        ({"reference": "OIPR", "reference_params": {"l_obs": 5}, "against": "paper"},
         "against=paper compares with Table A1, which uses the paper's Table 3 parameters; drop reference_params"),
        ({"hypothesis_examples": -1}, "hypothesis_examples must be 0 (off) or a positive integer, got -1"),
        ({"hypothesis_examples": 2.5}, "hypothesis_examples must be 0 (off) or a positive integer, got 2.5"),
    ],
)
def test_audit_usage_errors_name_the_python_parameter(kwargs, message):
    # Checked before the evaluator runs (it would fail every call).
    def never(y_true, y_pred):  # pragma: no cover - must not be called
        raise AssertionError("the evaluator ran")

    with pytest.raises(UsageError) as info:
        oipr_bench.audit(never, **kwargs)
    assert str(info.value).startswith(message), str(info.value)
    assert "--" not in str(info.value)  # never phrased in a front end's terms


def test_valid_options_are_normalised():
    o = AuditOptions(timeout=2, reference="PW", tolerance=0, hypothesis_examples=0)
    assert o.timeout == 2.0 and isinstance(o.timeout, float)
    assert o.tolerance == 0.0 and o.hypothesis_examples is None
    assert o.comparison == "reference" and o.comparison_tolerance == 0.0
    assert AuditOptions(reference="OIPR").reference_params["l_obs"] == 4 * AuditOptions(reference="OIPR").reference_params["l_dis"]
    assert AuditOptions().recorded() == {"timeout": None, "isolate": False, "hypothesis_examples": None,
                                         "suite": "table5"}
    assert AuditOptions().recorded("scores")["suite"] == "all"
    assert AuditOptions(suite="properties").recorded("scores")["suite"] == "properties"


def test_one_error_phrased_for_each_front_end():
    with pytest.raises(OptionError) as info:
        AuditOptions(against="paper")
    err = info.value
    assert err.parameter == "against"
    assert str(err) == "against needs reference"
    assert err.phrased(CLI_FLAGS) == "--against needs --reference"
    assert err.phrased(PLUGIN_FLAGS) == "--against needs --reference"
    with pytest.raises(OptionError) as info:
        AuditOptions(timeout=-1)
    assert info.value.phrased(CLI_FLAGS) == "--timeout must be a positive number of seconds, got -1"
    assert info.value.phrased(PLUGIN_FLAGS) == "--oipr-timeout must be a positive number of seconds, got -1"


def test_a_quoted_value_with_braces_is_not_a_template():
    with pytest.raises(OptionError) as info:
        AuditOptions(reference="{against}")
    assert info.value.phrased(CLI_FLAGS).startswith("--reference: unknown evaluator '{against}'")


def test_expect_as_one_string_is_one_item():
    prof = oipr_bench.audit("PW", expect="fragments_merging=no", sanity=False)
    exp = prof.characteristic_results["fragments_merging"].expectation
    assert exp.values == ("no",) and exp.source == "expect"
    assert prof.characteristic_results["fragments_merging"].status == "deviation"
    with pytest.raises(UsageError, match=r"expect 'fragments_merging': expected characteristic=value"):
        oipr_bench.audit("PW", expect="fragments_merging")
    with pytest.raises(UsageError, match=r"^expect must be a mapping of characteristic to value or a list"):
        oipr_bench.audit("PW", expect=42)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--against", "paper"], "--against needs --reference"),
        (["--tolerance", "0.1"], "--tolerance needs --reference"),
        (["--reference-param", "l_obs=10"], "--reference-param needs --reference"),
        (["--timeout", "0"], "--timeout must be a positive number of seconds, got 0.0"),
        (["--hypothesis-examples", "-2"], "--hypothesis-examples must be 0 (off) or a positive integer, got -2"),
    ],
)
def test_cli_names_its_flags(argv, message, capsys):
    assert main(["audit", "PW", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].endswith(message), err


@pytest.mark.parametrize(
    "args, message",
    [
        (["--against=paper"], "oipr-bench: --against needs --reference"),
        (["--tolerance=0.1"], "oipr-bench: --tolerance needs --reference"),
        (["--reference-param=l_obs=10"], "oipr-bench: --reference-param needs --reference"),
        (["--oipr-timeout=0"], "oipr-bench: --oipr-timeout must be a positive number of seconds, got 0.0"),
    ],
)
def test_plugin_names_its_flags(pytester, args, message):
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--evaluator=PW", *args)
    assert result.ret == 4
    assert any(line.strip().endswith(message) for line in result.stderr.lines), result.stderr.lines
    assert "Traceback" not in result.stderr.str()


def test_the_plugin_and_the_command_build_the_same_options(pytester):
    # The same flags give the same recorded options and reference block in both reports.
    pytester.makepyfile(mypw=textwrap.dedent("""
        from oipr_bench import evaluators
        pw = evaluators.get("PW")
    """))
    plugin = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--evaluator=mypw:pw", "--reference=PW",
                                           "--tolerance=0.5", "--oipr-report=p.json", "-q", "-k", "reference")
    assert plugin.ret == 0, plugin.stdout.str()
    import json

    assert main(["audit", "mypw:pw", "--reference", "PW", "--tolerance", "0.5", "--format", "json", "-o",
                 str(pytester.path / "c.json")]) == 0  # the expected row is PW's own under --reference=PW
    p = json.loads((pytester.path / "p.json").read_text())
    c = json.loads((pytester.path / "c.json").read_text())
    assert p["options"] == c["options"] and p["reference"]["tolerance"] == c["reference"]["tolerance"] == 0.5
