"""Parameter checks shared by the built-in evaluators.

Every check names the evaluator and the parameter, raises ``TypeError`` for a
value of the wrong kind and ``ValueError`` for a value out of range, and
returns the value as a plain Python object (``float``, ``int`` or ``str``).
"""

from __future__ import annotations

from numbers import Integral, Real
from typing import Any, Sequence

import numpy as np

#: Largest value of a length parameter (``l_dis``, ``l_obs``, TaPR's ``delta``):
#: the longest series a fixture may hold (10^7 points).  A longer window means
#: nothing on any series the suite reads, and ``l_obs = 2**31`` would make the
#: attenuation curve allocate 16 GiB on an 8-point series.
MAX_LENGTH_PARAM = 10_000_000


def check_real(evaluator: str, name: str, value: Any, low: float = 0.0, high: float = 1.0) -> float:
    """Return ``value`` as a float in ``[low, high]`` (booleans and NaN are rejected)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Real):
        raise TypeError(f"{evaluator}: parameter {name} must be a real number in [{low:g}, {high:g}], got {value!r}")
    number = float(value)
    if not low <= number <= high:  # also rejects NaN
        raise ValueError(f"{evaluator}: parameter {name} must lie in [{low:g}, {high:g}], got {value!r}")
    return number


def check_length_cap(evaluator: str, name: str, value: int) -> int:
    """Return the length parameter ``value`` if it is at most :data:`MAX_LENGTH_PARAM`."""
    if value > MAX_LENGTH_PARAM:
        raise ValueError(f"{evaluator}: parameter {name} must be at most {MAX_LENGTH_PARAM} "
                         f"(the longest series the suite reads), got {value!r}")
    return value


def check_non_negative_int(evaluator: str, name: str, value: Any, high: int = MAX_LENGTH_PARAM) -> int:
    """Return ``value`` as an int in ``[0, high]`` (booleans and floats are rejected).

    ``high`` defaults to :data:`MAX_LENGTH_PARAM`: every integer parameter of
    the built-in evaluators is a length.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Integral):
        raise TypeError(f"{evaluator}: parameter {name} must be a non-negative integer, got {value!r}")
    if value < 0:
        raise ValueError(f"{evaluator}: parameter {name} must be >= 0, got {value!r}")
    if value > high:
        raise ValueError(f"{evaluator}: parameter {name} must be at most {high}, got {value!r}")
    return int(value)


def check_choice(evaluator: str, name: str, value: Any, choices: Sequence[str]) -> str:
    """Return ``value`` if it is one of the strings ``choices``."""
    if not isinstance(value, str):
        raise TypeError(f"{evaluator}: parameter {name} must be one of {', '.join(choices)}; got {value!r}")
    if value not in choices:
        raise ValueError(f"{evaluator}: parameter {name} must be one of {', '.join(choices)}; got {value!r}")
    return value
