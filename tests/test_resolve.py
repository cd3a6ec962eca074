"""Resolving --evaluator specifications and parsing key=value parameters."""

from __future__ import annotations

import sys
import textwrap

import numpy as np
import pytest

from oipr_bench.errors import UsageError
from oipr_bench.auditing.calling.resolve import load_object, parse_params, parse_value, resolve


@pytest.fixture
def usermod(tmp_path, monkeypatch):
    (tmp_path / "usermod_resolve.py").write_text(textwrap.dedent("""
        import numpy as np

        def fn(y_true, y_pred, scale=1.0):
            return (scale, scale)

        class Cls:
            oipr_profile = {"fragments_merging": "no"}
            def __init__(self, k=1):
                self.k = k
                self.params = {"k": k}
            def __call__(self, y_true, y_pred):
                return (self.k / 10, 1.0, 0.5)

        class Evaluates:
            def evaluate(self, y_true, y_pred):
                return {"precision": 1.0, "recall": 1.0}

        instance = Cls(3)
        not_callable = 42
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "usermod_resolve"
    sys.modules.pop("usermod_resolve", None)


def test_parse_value_json_then_string():
    assert parse_value("20") == 20 and parse_value("0.5") == 0.5 and parse_value("true") is True
    assert parse_value("[1, 2]") == [1, 2] and parse_value("sigmoid") == "sigmoid" and parse_value('"5"') == "5"


def test_parse_params_and_errors():
    assert parse_params(["l_obs=20", "attenuation=linear", "x= 1 "]) == {"l_obs": 20, "attenuation": "linear", "x": 1}
    for bad, match in [("l_obs", "expected key=value"), ("=3", "not a valid parameter name"), ("a-b=1", "not a valid")]:
        with pytest.raises(UsageError, match=match):
            parse_params([bad])
    with pytest.raises(UsageError, match="given twice"):
        parse_params(["a=1", "a=2"])


def test_builtin_by_name_with_params():
    r = resolve("OIPR", {"l_obs": 10})
    assert r.builtin == "OIPR" and r.params["l_obs"] == 10 and r.name == "OIPR"
    with pytest.raises(UsageError, match="OIPR: bad parameter"):
        resolve("OIPR", {"l_obs": -1})
    with pytest.raises(UsageError, match="bad parameter"):
        resolve("PW", {"nope": 1})


def test_colon_and_dotted_forms(usermod):
    y = np.array([0, 1, 1, 0])
    assert resolve(f"{usermod}:fn").fn(y, y) == (1.0, 1.0)
    assert resolve(f"{usermod}.fn", {"scale": 0.5}).fn(y, y) == (0.5, 0.5)
    r = resolve(f"{usermod}:Cls", {"k": 5})
    assert r.fn(y, y) == (0.5, 1.0, 0.5) and r.params == {"k": 5}
    assert r.oipr_profile == {"fragments_merging": "no"}
    assert resolve(f"{usermod}:instance").fn(y, y)[0] == pytest.approx(0.3)
    assert resolve(f"{usermod}:Evaluates").fn(y, y) == {"precision": 1.0, "recall": 1.0}


def test_file_path_form(tmp_path):
    f = tmp_path / "some_file_eval.py"
    f.write_text("def ev(t, p):\n    return (1.0, 1.0, 1.0)\n")
    assert resolve(f"{f}:ev").fn(None, None) == (1.0, 1.0, 1.0)


def test_objects_directly():
    def f(y_true, y_pred):
        return (1.0, 1.0)

    assert resolve(f).fn is f
    assert resolve(f).name.endswith("f")


@pytest.mark.parametrize(
    "spec, match",
    [
        ("no_such_module_xyz:fn", "no module named 'no_such_module_xyz'"),
        ("no_such_module_xyz.fn", "no module named"),
        ("NotABuiltin", "not a built-in evaluator"),
        ("oipr_bench.evaluators:Nope", "has no attribute 'Nope'"),
        (":fn", "expected 'pkg.module:Name'"),
        ("", "empty name"),
        ("/no/such/file.py:fn", "no such file"),
    ],
)
def test_bad_specs_are_usage_errors(spec, match):
    with pytest.raises(UsageError, match=match):
        resolve(spec)


def test_not_callable_and_params_on_instance(usermod):
    with pytest.raises(UsageError, match="not callable and has no evaluate method"):
        resolve(f"{usermod}:not_callable")
    with pytest.raises(UsageError, match="parameters can only be given"):
        resolve(f"{usermod}:instance", {"k": 1})
    with pytest.raises(UsageError, match="cannot instantiate"):
        resolve(f"{usermod}:Cls", {"zzz": 1})
    with pytest.raises(UsageError, match="bad parameter"):
        resolve(f"{usermod}:fn", {"zzz": 1})


def test_module_that_fails_to_import(tmp_path, monkeypatch):
    (tmp_path / "broken_mod_resolve.py").write_text("import this_dependency_is_missing_xyz\n")
    (tmp_path / "raising_mod_resolve.py").write_text("raise RuntimeError('boom at import')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(UsageError, match="this_dependency_is_missing_xyz"):
        resolve("broken_mod_resolve:fn")
    with pytest.raises(UsageError, match="RuntimeError: boom at import"):
        resolve("raising_mod_resolve:fn")


def test_current_folder_is_searched(tmp_path, monkeypatch):
    (tmp_path / "cwd_only_mod_resolve.py").write_text("def ev(t, p):\n    return (0.25, 0.5)\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    try:
        assert resolve("cwd_only_mod_resolve:ev").fn(None, None) == (0.25, 0.5)
    finally:
        sys.modules.pop("cwd_only_mod_resolve", None)


def test_load_object_dotted_attribute_after_colon():
    assert load_object("oipr_bench.evaluators:Score._fields") == ("precision", "recall", "f1")
