"""The two parameters of the range metrics, as TSB-AD's ``generate_curve`` takes them.

``sliding_window`` (TSB-AD's ``slidingWindow``, vus's ``windowSize``/``window``) is the
largest window ``W`` in points: labels are extended by ``W // 2`` points on each side.
``thresholds`` (``thre``) is the number of sampled thresholds.
"""

from __future__ import annotations

from numbers import Integral
from typing import Any

import numpy as np

from .._params import check_non_negative_int

__all__ = ["check_window_params", "MAX_TABLE"]

#: Largest ``(sliding_window // 2 + 1) * (thresholds + 1)``: the cells of the slope
#: table the range kernel keeps (8 bytes each, so at most 40 MB).
MAX_TABLE = 5_000_000


def check_window_params(evaluator: str, sliding_window: Any, thresholds: Any) -> tuple[int, int]:
    """Return ``(sliding_window, thresholds)`` as ints after checking their ranges.

    Raises
    ------
    TypeError
        Either is not a whole number (booleans and floats are rejected).
    ValueError
        ``sliding_window < 0``, ``thresholds < 1``, or together they need a slope
        table over :data:`MAX_TABLE` cells.
    """
    window = check_non_negative_int(evaluator, "sliding_window", sliding_window)
    if isinstance(thresholds, Integral) and not isinstance(thresholds, (bool, np.bool_)) and thresholds < 1:
        raise ValueError(f"{evaluator}: parameter thresholds must be >= 1, got {thresholds!r}")  # 0 and -5 alike
    count = check_non_negative_int(evaluator, "thresholds", thresholds)
    cells = (window // 2 + 1) * (count + 1)
    if cells > MAX_TABLE:
        raise ValueError(f"{evaluator}: (sliding_window // 2 + 1) * (thresholds + 1) must be at most {MAX_TABLE:,} "
                         f"(the kernel's slope table), got {cells:,} for sliding_window={window}, thresholds={count}")
    return window, count
