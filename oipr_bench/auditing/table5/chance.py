"""The chance anchor of a score metric: its mean over seeded uninformative scores.

A metric that takes real anomaly scores (input kind ``"scores"``) answers a constant score (the
empty prediction, all ones) by a package's convention: 0.0, 0.5, NaN or an error.  That value
cannot be the zero of its scale.  What every correct implementation computes the same way is its
expectation on scores that carry no information: :func:`chance_series` draws
:data:`CHANCE_DRAWS` seeded uniform-random score series of a ground truth's length, and
:func:`chance_of` turns the metric's values on them into their mean and its standard error
(``std(ddof=1) / sqrt(K)``).  The readings (:func:`oipr_bench.auditing.table5.readings.scale_of`)
then read ``(v - chance) / (perfect - chance)``.

The same seeds serve every ground truth of a length, so two evaluators that agree on every
non-constant input get the same anchors, hence the same verdicts.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

__all__ = ["CHANCE_DRAWS", "MIN_CHANCE_DRAWS", "CHANCE_SEED", "CHANCE_MARGIN", "SATURATION_BAND", "chance_series", "chance_of"]

#: How many uniform-random score series the chance anchor averages (the chance_ordering family uses
#: as many random draws).
CHANCE_DRAWS = 10

#: The fewest draws a reduced audit may average (``AuditOptions.chance_draws``): two give a standard error.
MIN_CHANCE_DRAWS = 2

#: Seed of the first draw; draw ``k`` uses ``CHANCE_SEED + k`` (``numpy.random.default_rng``).
CHANCE_SEED = 2700

#: A value counts as above chance only when it exceeds the chance anchor by this much on the anchored
#: scale (2 % of the way from chance to perfect), or by three standard errors of the chance mean if more.
CHANCE_MARGIN = 0.02

#: A case is *saturated* when its perfect and its uninformative anchor lie within this share of the
#: metric's range (its declared bounds; for an open range, of the larger anchor's magnitude): the
#: metric cannot tell anything apart on that ground truth, so no verdict is read from it.
SATURATION_BAND = 0.02


def chance_series(n: int, draws: int = CHANCE_DRAWS) -> list[np.ndarray]:
    """The first ``draws`` (default :data:`CHANCE_DRAWS`) seeded uniform-random score series of length ``n`` (values in [0, 1)).

    A reduced audit (``AuditOptions.chance_draws``) takes fewer: the first ``draws`` of the same
    seeds, so its anchor is the mean of a prefix of the full audit's draws.
    """
    return [np.random.default_rng(CHANCE_SEED + k).random(n) for k in range(draws)]


def chance_of(outcomes: Sequence[Any]) -> tuple[float, float, str]:
    """``(mean, standard error, problem)`` of the metric's values on the chance series.

    ``outcomes`` are the :class:`~oipr_bench.auditing.calling.runner.CallOutcome` of each draw.  A
    failed call or a NaN value makes the anchor undefined: ``problem`` says which draw and why (mean
    and error are NaN then); ``""`` otherwise.
    """
    values = []
    for k, out in enumerate(outcomes):
        if not out.ok:
            return math.nan, math.nan, f"uninformative draw {k + 1} of {len(outcomes)} failed ({out.kind}: {out.message})"
        x = float(out.score.f1)
        if math.isnan(x):
            return math.nan, math.nan, f"uninformative draw {k + 1} of {len(outcomes)} scores nan"
        values.append(x)
    arr = np.asarray(values, dtype=float)
    se = float(arr.std(ddof=1) / math.sqrt(arr.size)) if arr.size > 1 else 0.0
    return float(arr.mean()), se, ""
