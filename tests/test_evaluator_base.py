"""The evaluators' base class derives params and repr from __init__."""

from __future__ import annotations

import inspect

import pytest

from oipr_bench import evaluators
from oipr_bench.evaluators._base import Evaluator


@pytest.mark.parametrize("name", evaluators.NAMES)
def test_params_and_repr_come_from_init(name):
    ev = evaluators.get(name)
    cls = type(ev)
    assert isinstance(ev, Evaluator) and ev.name == name
    named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    declared = [p.name for p in list(inspect.signature(cls.__init__).parameters.values())[1:] if p.kind in named]
    assert list(ev.params) == declared
    # The repr rebuilds an equal evaluator.
    again = eval(repr(ev), {cls.__name__: cls})  # noqa: S307 - our own repr
    assert again.params == ev.params and repr(again) == repr(ev)
    assert cls.__name__ in {"PointWise", "PointAdjust", "PointAdjustK", "RangeBased", "TaPR", "Affiliation", "OIPR"}


def test_changed_parameters_show_in_params_and_repr():
    ev = evaluators.get("OIPR", l_obs=30, attenuation="linear")
    assert ev.params["l_obs"] == 30 and ev.params["attenuation"] == "linear"
    assert repr(ev) == "OIPR(l_dis=5, l_obs=30, b_dur=0.5, attenuation='linear', auto_rule='paper')"
    assert repr(evaluators.get("PA%K", k=20)) == "PointAdjustK(k=20)"


def test_a_subclass_without_parameters():
    class Constant(Evaluator):
        name = "C"

        def __call__(self, y_true, y_pred):
            return (0.5, 0.5)

    assert Constant().params == {} and repr(Constant()) == "Constant()"
