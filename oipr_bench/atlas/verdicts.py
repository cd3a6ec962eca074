"""The verdicts of DISAGREEMENTS.md: which implementation follows the metric's paper, and why they differ.

Written by reading the papers and the packages' sources against the measured
disagreements (the numbers themselves are computed, see
:mod:`oipr_bench.atlas.disagreements`).
"""

from __future__ import annotations

__all__ = ["INTRO", "VERDICTS"]

INTRO = [
    "Parameters are aligned first wherever a package lets them be set, so what remains is a difference "
    "of definition, convention or a bug; package defaults that differ are listed in the atlas grid "
    "(ATLAS.md) as separate rows. A member disagrees when its headline number (F1, or the score) differs "
    "from the reference's by more than 1e-9 (NaN equals NaN; a crash differs from a number).",
]

VERDICTS: dict[str, str] = {}
