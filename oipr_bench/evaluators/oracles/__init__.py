"""Literal, loop-by-loop transcriptions of each evaluator's definition (part of layer 2, ``evaluators``).

Room 4 of the evaluators (layer 2): may import layers 0-1 and the rest of ``evaluators`` (its score type), never the reverse.

They are slow on purpose: each follows its paper's pseudo-code or definition
line by line, with no vectorisation, so that the fast implementations in
:mod:`oipr_bench.evaluators` can be checked against them (differential tests
in ``tests/``, the speed ratio in ``benchmarks/``) and so that users have a
readable statement of each definition.  Do not use them on long series.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence

__all__ = ["oracle", "with_f1"]


def with_f1(precision: float, recall: float) -> tuple[float, float, float]:
    """``(P, R, F1)`` with F1 = 2PR / (P + R), 0 when P + R = 0 and NaN when either is NaN."""
    if math.isnan(precision) or math.isnan(recall):
        return precision, recall, math.nan
    return precision, recall, (0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall))


def _ints(y: Sequence[int]) -> list[int]:
    """``y`` as a list of Python ints (the loops are several times slower on NumPy scalars)."""
    tolist = getattr(y, "tolist", None)
    return tolist() if tolist is not None else [int(v) for v in y]


def oracle(name: str, **params: Any) -> Callable[[Sequence[int], Sequence[int]], tuple[float, float, float]]:
    """The loop-by-loop oracle of built-in evaluator ``name`` with ``params``, returning ``(P, R, F1)``.

    ``params`` are the built-in's own (``evaluators.get(name).params``); OIPR's oracle takes
    whole-number ``l_dis`` and ``l_obs`` only (not ``"auto"``).

    Raises
    ------
    ValueError
        An unknown name, or parameters the oracle cannot take.
    """
    from . import affiliation, oipr, pointwise, range_based, tapr

    p = dict(params)
    if name == "PW":
        return lambda t, y: with_f1(*pointwise.pw_oracle(_ints(t), _ints(y)))
    if name == "PA":
        return lambda t, y: with_f1(*pointwise.pa_oracle(_ints(t), _ints(y)))
    if name == "PA%K":
        return lambda t, y: with_f1(*pointwise.pak_oracle(_ints(t), _ints(y), p.get("k", 50)))
    if name == "RP/RR":
        return lambda t, y: tuple(range_based.range_based(_ints(t), _ints(y), **p))  # type: ignore[return-value]
    if name == "TaPR":
        return lambda t, y: tuple(tapr.tapr(_ints(t), _ints(y), **p))  # type: ignore[return-value]
    if name == "AM":
        return lambda t, y: affiliation.affiliation(_ints(t), _ints(y))
    if name == "OIPR":
        args = [p.get("l_dis", 5), p.get("l_obs", 20), p.get("b_dur", 0.5), p.get("attenuation", "sigmoid")]
        if not all(isinstance(a, int) and not isinstance(a, bool) for a in args[:2]):
            raise ValueError(f"OIPR's oracle needs whole-number l_dis and l_obs, got {args[0]!r} and {args[1]!r}")
        return lambda t, y: with_f1(*oipr.oipr_oracle(_ints(t), _ints(y), *args))
    raise ValueError(f"no oracle for {name!r}")
