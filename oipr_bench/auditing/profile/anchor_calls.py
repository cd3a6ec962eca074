"""The anchors of the readings, called once per ground truth, and the observations a rule reads.

A characteristic rule reads each case on its anchored scale
(:func:`oipr_bench.auditing.table5.readings.scale_of`): 1 = the evaluator on ``y_pred = y_true``,
0 = on an uninformative input (the empty prediction for a metric that takes 0/1 predictions; for
one that takes scores, its mean over seeded uniform-random scores,
:mod:`oipr_bench.auditing.table5.chance`).  :class:`AnchorCalls` makes those calls once per ground
truth (the cases of a scenario share theirs); :func:`observations_for` assembles what one rule reads.
"""

from __future__ import annotations

import hashlib
from typing import Any, Callable, Mapping

import numpy as np

from ..calling.runner import CallOutcome
from ..table5 import characteristics as ch
from ..table5.chance import CHANCE_DRAWS, chance_of, chance_series
from .case_runs import anchor_scores, chance_anchors
from ...evaluators.score import Score

__all__ = ["AnchorCalls", "gt_key", "observations_for"]

SCORES = "scores"


def gt_key(y: Any) -> str:
    """A ground truth's identity for the per-ground-truth caches (content, dtype and shape)."""
    return hashlib.sha256(np.ascontiguousarray(y).tobytes()).hexdigest() + str(y.dtype) + str(y.shape)


class AnchorCalls:
    """The evaluator on each ground truth's anchor inputs (every call through ``call``, each made once)."""

    def __init__(self, call: Callable[[Any, Any], CallOutcome], draws: int | None = None) -> None:
        self.call = call
        #: Chance draws per anchor (``AuditOptions.chance_draws``; None: all :data:`CHANCE_DRAWS`).
        self.draws = CHANCE_DRAWS if draws is None else draws
        self._anchors: dict[str, tuple[CallOutcome, CallOutcome]] = {}
        self._chance: dict[str, tuple[float, float, str]] = {}
        self._inverted: dict[str, CallOutcome] = {}

    def anchors(self, y: np.ndarray) -> tuple[CallOutcome, CallOutcome]:
        """The evaluator on the empty prediction and on ``y_pred = y_true`` for ground truth ``y``."""
        key = gt_key(y)
        if key not in self._anchors:
            self._anchors[key] = (self.call(y, np.zeros_like(y)), self.call(y, y))
        return self._anchors[key]

    def chance(self, y: np.ndarray) -> tuple[float, float, str]:
        """The evaluator's mean and standard error over the first :attr:`draws` seeded uniform-random scores of ``y``'s length, and why
        they cannot be read (``""``; :func:`~oipr_bench.auditing.table5.chance.chance_of`)."""
        key = gt_key(y)
        if key not in self._chance:
            self._chance[key] = chance_of([self.call(y, s) for s in chance_series(y.size, self.draws)])
        return self._chance[key]

    def inverted(self, y: np.ndarray) -> CallOutcome:
        """The evaluator on ``1 - y_true`` (the bottom of a score metric's own range)."""
        key = gt_key(y)
        if key not in self._inverted:
            self._inverted[key] = self.call(y, 1 - y)
        return self._inverted[key]


def observations_for(name: str, scores: Mapping[str, Score], kind: str, decl: Any, calls: AnchorCalls,
                     cases: Mapping[str, Any], baseline: Callable[[str], Score]) -> ch.Observations:
    """What the rule of characteristic ``name`` reads: the case scores, their anchors, PW's baseline, event counts.

    A metric that takes scores (``decl.input_kind == "scores"``) is anchored on chance; its empty
    prediction is evidence only, and the random-overestimation rule also gets the inverted input.
    """
    obs = ch.Observations(scores, kind=kind, higher_is_better=decl.higher_is_better, bounds=decl.bounds)
    anchored = () if ch.not_applicable_reason(name, obs) else ch.ANCHOR_CASES[name]
    scored = decl.input_kind == SCORES
    empty, perfect, problems = anchor_scores({c: calls.anchors(cases[c].y_true) for c in anchored},
                                             empty_is_anchor=not scored)
    chance: dict[str, tuple[float, float]] = {}
    inverted: dict[str, Score] = {}
    if scored:
        chance = chance_anchors({c: calls.chance(cases[c].y_true) for c in anchored}, problems)
        if name == ch.RANDOM_OVERESTIMATION:
            outs = {c: calls.inverted(cases[c].y_true) for c in anchored}
            inverted = {c: out.score for c, out in outs.items() if out.ok and out.score is not None}
    return ch.Observations(
        scores=scores, baseline={c: baseline(c) for c in ch.BASELINE_CASES[name]},
        true_events={c: len(cases[c].y_true_events) for c in ch.REQUIRED_CASES[name]},
        kind=kind, higher_is_better=decl.higher_is_better, bounds=decl.bounds, empty=empty, perfect=perfect,
        anchor_problems=problems, chance=chance, inverted=inverted, chance_draws=calls.draws,
    )
