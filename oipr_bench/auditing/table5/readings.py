"""What the characteristic rules read from an evaluator's results: every score on its own scale.

An evaluator returns precision and recall (kind ``"pr"``) or one number
(kind ``"score"``; see :func:`oipr_bench.auditing.calling.coerce.coerce_result`).  The rules of
:mod:`oipr_bench.auditing.table5.characteristics` compare one *quantity* per case:

- ``score``: the value read on the metric's own **anchored scale** (:func:`scale_of`)
  ``(v - v_none) / (v_perfect - v_none)``, where ``v_perfect`` is what the
  metric gives ``y_pred = y_true`` on that case's ground truth and ``v_none``
  what it gives an uninformative input there: the empty prediction for a metric
  taking 0/1 predictions (0 for F1), and for one taking scores its chance, the
  mean over seeded uniform-random scores (0.5 for AUC-ROC, about the prevalence
  for average precision; :mod:`~oipr_bench.auditing.table5.chance`), since a
  constant score is answered by each package's convention.  Anchors within
  ``SATURATION_BAND`` of the metric's range make the case *saturated*: no rule
  reads it.  0 is "no better than
  detecting nothing", 1 is "perfect", whatever the metric's range or
  orientation.  F1 is unchanged by construction (its empty prediction scores 0,
  or 0/0 read as 0 as the paper reads AM's ``nan``; its perfect one 1), so the
  paper's thresholds keep their meaning and every other metric is read the
  way F1 is.  A scale whose anchors are NaN or equal is *undefined*; a rule
  that needs it answers ``undetermined`` with the reason, never a value
  computed from NaN;
- ``precision`` and ``recall``: only a P/R evaluator has them;
- ``recall_share``: the recall of a case relative to the empty and the
  perfect prediction, ``(R - R_none) / (R_perfect - R_none)`` (Sec. III-B:
  the long event's share of the recall).

Rules that only compare a metric's values with each other (overlap, early
detection, sparse anomalies) can also read the raw values in the declared
orientation (:func:`oriented_raw`) when the scale is undefined.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Mapping, NamedTuple

from ...evaluators.score import Score
from ..calling.coerce import KIND_PR, KIND_SCORE, KINDS, Bounds, is_bounded, normalise_bounds
from .chance import CHANCE_DRAWS, SATURATION_BAND

__all__ = [
    "KIND_PR",
    "KIND_SCORE",
    "KINDS",
    "SCORE",
    "PRECISION",
    "RECALL",
    "RECALL_SHARE",
    "ANCHOR_TOLERANCE",
    "CHANCE_SCALE",
    "range_width",
    "Observations",
    "Scale",
    "is_bounded",
    "normalise_bounds",
    "scale_of",
    "score_of",
    "raw_of",
    "oriented_raw",
    "recall_share",
]

#: Quantities a rule can read.
SCORE = "score"
PRECISION = "precision"
RECALL = "recall"
RECALL_SHARE = "recall_share"

@dataclass(frozen=True)
class Observations:
    """The numbers the rules read.

    Attributes
    ----------
    scores : mapping of str to Score
        The evaluator's result per case id (for the random-detector cases,
        the means over the 100 runs, as in Table A1).  A scalar result is
        stored as ``Score(nan, nan, value)``.
    baseline : mapping of str to Score
        The point-wise (PW) scores per case id; the existence reward is
        defined relative to PW (Sec. III-C, Appendix A).
    true_events : mapping of str to int
        Number of ground-truth events per case id.
    kind : {"pr", "score"}
        What the evaluator returns.
    higher_is_better : bool
        Orientation of a scalar score (P/R results are always higher-is-better).
    bounds : (float, float)
        Declared range of a scalar score; an open end is +-inf.
    empty, perfect : mapping of str to Score
        The evaluator's result on the empty prediction and on ``y_pred = y_true``
        for each case's ground truth: the anchors of its scale (:func:`scale_of`).
        Without them a P/R result is read as F1 and the recall share is the
        recall itself (the paper's reading).
    anchor_problems : mapping of str to str
        Why the anchors of a case could not be computed (a failed call), by case id.
    chance : mapping of str to (float, float)
        For a metric that takes real scores: the mean and standard error of its value over the
        seeded uniform-random score series of each case's ground truth
        (:mod:`oipr_bench.auditing.table5.chance`).  When given, it is anchor 0 in place of the
        empty prediction, which becomes evidence only (a constant score is answered by convention).
    chance_draws : int
        How many draws each chance mean averages (:data:`~oipr_bench.auditing.table5.chance.CHANCE_DRAWS`,
        fewer in a reduced audit: ``AuditOptions.chance_draws``); the evidence states it.
    inverted : mapping of str to Score
        The evaluator on ``1 - y_true`` (the inverted perfect prediction) for each case's ground
        truth: the bottom of a score metric's own range, read by the random-overestimation rule.
    """

    scores: Mapping[str, Score]
    baseline: Mapping[str, Score] = field(default_factory=dict)
    true_events: Mapping[str, int] = field(default_factory=dict)
    kind: str = KIND_PR
    higher_is_better: bool = True
    bounds: Bounds = (0.0, 1.0)
    empty: Mapping[str, Score] = field(default_factory=dict)
    perfect: Mapping[str, Score] = field(default_factory=dict)
    anchor_problems: Mapping[str, str] = field(default_factory=dict)
    chance: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    inverted: Mapping[str, Score] = field(default_factory=dict)
    chance_draws: int = CHANCE_DRAWS

    @property
    def scalar(self) -> bool:
        """True for a scalar (``"score"``) evaluator."""
        return self.kind == KIND_SCORE

    @property
    def bounded(self) -> bool:
        """True unless a scalar score has an open end."""
        return not self.scalar or is_bounded(self.bounds)


class Scale(NamedTuple):
    """How one case's raw values are read: ``(v - zero) / (one - zero)``.

    Attributes
    ----------
    zero, one : float
        The raw values read as 0 (the empty prediction) and as 1 (``y_pred = y_true``)
        on that case's ground truth.
    name : str
        How the evidence names the scale (``"anchored"``, or ``"F1"`` when the anchors were not run).
    problem : str
        Why the scale is undefined (NaN or equal anchors), ``""`` when it is defined.
    note : str
        A reading the scale made that the evidence must state (``""`` when none), e.g. an
        empty prediction scoring ``nan`` (0/0) read as the bottom of F1's scale.
    saturated : bool
        The anchors lie within :data:`~oipr_bench.auditing.table5.chance.SATURATION_BAND` of the
        metric's range: the metric tells nothing apart on this ground truth, so no rule reads it,
        not even in raw order.
    draws : int
        On the chance-anchored scale, how many uninformative draws the zero averages.
    """

    zero: float
    one: float
    name: str
    problem: str = ""
    note: str = ""
    saturated: bool = False
    draws: int = CHANCE_DRAWS

    @property
    def defined(self) -> bool:
        """True when both anchors are finite and apart."""
        return not self.problem

    def read(self, value: float) -> float:
        """``value`` on this scale (NaN when the scale is undefined)."""
        if self.problem:
            return math.nan
        return (float(value) - self.zero) / (self.one - self.zero)

    def describe(self) -> str:
        """One phrase naming the scale and its anchors, for the evidence."""
        if self.problem:
            return f"no anchored scale ({self.problem})"
        if self.name == CHANCE_SCALE:
            return (f"chance-anchored scale (0 = mean over {self.draws} uniform-random scores {self.zero:.6g}, "
                    f"1 = y_pred = y_true {self.one:.6g})")
        return f"{self.name} scale (0 = empty prediction {self.zero:.6g}, 1 = y_pred = y_true {self.one:.6g})"


#: Two anchors closer than this are equal: the metric has no scale on that ground truth.
ANCHOR_TOLERANCE = 1e-9

#: The name of the scale anchored on chance (a score metric's; :mod:`~oipr_bench.auditing.table5.chance`).
CHANCE_SCALE = "chance-anchored"


def range_width(obs: Observations, zero: float, one: float) -> float:
    """The width of the metric's range: its declared bounds, or (open range) the larger anchor's magnitude."""
    if obs.scalar and not obs.bounded:
        return max(abs(zero), abs(one))
    lo, hi = obs.bounds if obs.scalar else (0.0, 1.0)
    return hi - lo


def _saturated(obs: Observations, case_id: str, zero: float, one: float, what: str) -> Scale | None:
    width = range_width(obs, zero, one)
    if abs(one - zero) <= max(ANCHOR_TOLERANCE, SATURATION_BAND * width):
        return Scale(zero, one, CHANCE_SCALE if obs.chance else "anchored", (
            f"saturated: y_pred = y_true scores {one:.6g} and {what} {zero:.6g} on the ground truth of {case_id}, "
            f"within {SATURATION_BAND:g} of the metric's range ({width:.6g}); the metric tells nothing apart there"),
            saturated=True)
    return None


def _declared_bottom(obs: Observations) -> float:
    lo, hi = obs.bounds
    return lo if obs.higher_is_better else hi


def scale_of(obs: Observations, case_id: str) -> Scale:
    """The anchored scale of ``case_id``: 0 = the uninformative input, 1 = ``y_pred = y_true`` there.

    The uninformative input of a metric that takes real scores (``obs.chance`` given) is the mean
    of its values on seeded uniform-random scores (:mod:`~oipr_bench.auditing.table5.chance`): a
    constant score is answered by each package's convention, so the empty prediction is evidence
    only.  That of a metric taking 0/1 predictions stays the empty prediction: "nothing detected"
    is an output its definition scores, not a degenerate input, and F1 keeps its own scale (the
    paper's readings).  Anchors within :data:`SATURATION_BAND` of the metric's range make the case
    *saturated*: the scale is undefined and says so.

    Without anchors (the rules applied to printed values, or an anchor call
    that failed) a P/R evaluator is read on F1 itself (0 and 1); a scalar on
    its declared bounds when none was run, and not at all when one failed.  An
    empty prediction scoring NaN (0/0) is the bottom of the scale when there
    is one (F1's 0, as the paper reads AM's ``nan``; a bounded scalar's worst
    bound); otherwise, and when the perfect prediction scores NaN or the same
    as the empty one, the scale is undefined and says why.
    """
    if case_id in obs.anchor_problems:
        if not obs.scalar:
            return Scale(0.0, 1.0, "F1", "", f"{obs.anchor_problems[case_id]}; read on F1's own scale")
        return Scale(math.nan, math.nan, "anchored", obs.anchor_problems[case_id])
    none, best = obs.empty.get(case_id), obs.perfect.get(case_id)
    if case_id in obs.chance and best is not None:
        zero, one = float(obs.chance[case_id][0]), float(best.f1)
        if math.isnan(one):
            return Scale(zero, one, CHANCE_SCALE, f"y_pred = y_true scores nan on the ground truth of {case_id}")
        return _saturated(obs, case_id, zero, one, "uninformative scores (mean)") or _oriented(obs, case_id, zero, one, "")
    if none is None or best is None:
        if not obs.scalar:
            return Scale(0.0, 1.0, "F1")
        lo, hi = obs.bounds
        if not is_bounded(obs.bounds):
            return Scale(math.nan, math.nan, "anchored", f"the anchors of {case_id} were not run")
        return Scale(lo, hi, "bounds") if obs.higher_is_better else Scale(hi, lo, "bounds")
    zero, one, note = float(none.f1), float(best.f1), ""
    if math.isnan(zero) and (not obs.scalar or obs.bounded):
        zero = 0.0 if not obs.scalar else _declared_bottom(obs)
        note = f"the empty prediction scores nan (0/0) on {case_id}, read as {zero:g}, the bottom of the scale"
    if math.isnan(zero) or math.isnan(one):
        which = "the empty prediction" if math.isnan(zero) else "y_pred = y_true"
        return Scale(zero, one, "anchored", f"{which} scores nan on the ground truth of {case_id}")
    if abs(one - zero) <= ANCHOR_TOLERANCE:
        return Scale(zero, one, "anchored",
                     f"the empty prediction and y_pred = y_true both score {zero:.6g} on the ground truth of {case_id}")
    return _saturated(obs, case_id, zero, one, "the empty prediction") or _oriented(obs, case_id, zero, one, note)


def _oriented(obs: Observations, case_id: str, zero: float, one: float, note: str) -> Scale:
    name = CHANCE_SCALE if case_id in obs.chance else "anchored"
    what = "uninformative scores (mean)" if case_id in obs.chance else "the empty prediction"
    oriented_up = one > zero
    if oriented_up != (obs.higher_is_better or not obs.scalar):
        return Scale(zero, one, name, (
            f"y_pred = y_true scores {one:.6g} and {what} {zero:.6g} on the ground truth of {case_id}, "
            f"against the declared orientation ({'higher' if obs.higher_is_better else 'lower'} is better)"))
    return Scale(zero, one, name, "", note, draws=obs.chance_draws)


def score_of(obs: Observations, case_id: str) -> float:
    """The score of ``case_id`` on its anchored scale (:func:`scale_of`; NaN when undefined).

    Raises
    ------
    KeyError
        No result for ``case_id``.
    """
    return scale_of(obs, case_id).read(raw_of(obs, case_id))


def raw_of(obs: Observations, case_id: str) -> float:
    """The value ``case_id`` returned: F1 of a P/R evaluator, the scalar itself.

    Raises
    ------
    KeyError
        No result for ``case_id``.
    """
    try:
        return float(obs.scores[case_id].f1)
    except KeyError:
        raise KeyError(f"no score for case {case_id}") from None


def oriented_raw(obs: Observations, case_id: str) -> float:
    """The raw value with the declared orientation made higher-is-better (negated when lower is better)."""
    v = raw_of(obs, case_id)
    return -v if obs.scalar and not obs.higher_is_better else v


def recall_share(obs: Observations, case_id: str) -> float:
    """``(R - R_none) / (R_perfect - R_none)`` of ``case_id`` (NaN when undefined).

    Without anchors ``R_none = 0`` and ``R_perfect = 1``: the recall itself.
    """
    r = float(obs.scores[case_id].recall)
    none = obs.empty.get(case_id)
    best = obs.perfect.get(case_id)
    r0 = 0.0 if none is None else float(none.recall)
    r1 = 1.0 if best is None else float(best.recall)
    span = r1 - r0
    if math.isnan(span) or span <= 0.0:
        return math.nan
    return (r - r0) / span
