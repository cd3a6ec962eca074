"""Reproduction of the SMD rows of the paper's Tables 6, 7 and 8 from the authors' published slice.

The seven built-ins, each with the paper's Table 3 setting for SMD
(:data:`oipr_bench.reference.smd.SMD_PARAMS`), score every detector of the table on the
authors' CSVs (:func:`oipr_bench.reference.smd.load_smd`); every value is compared with the
printed one (:func:`oipr_bench.reference.paper.smd_table`) under one rule:
``|ours - paper| <= 5e-4``, half a unit of the third printed decimal.

Each evaluator then ranks the table's detectors by F1 at the paper's printed precision
(3 decimals; equal values tie, as the paper's two bold cells of a tie do), the ranking is set
beside OIPR's and beside the paper's bold/underline, and the characteristics the paper marks
in that evaluator's column are named. A user's evaluator (``--evaluator``) is called through
the audit's machinery (:func:`~oipr_bench.auditing.calling.resolve.resolve`,
:func:`~oipr_bench.auditing.calling.declarations.declarations_of`, :class:`~oipr_bench.auditing.calling.runner.Caller`)
and gets a column and a ranking of its own; a one-number score ranks by that number
(lower first when it is declared lower-is-better).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np

from .. import evaluators
from ..evaluators.score import Score
from ..reference import paper
from ..reference.smd import SMD_PARAMS, TABLE_DETECTORS, SmdData, load_smd
from ..vocabulary import KIND_BENEFICIAL, kind_of
from .reproduce import Comparison, TableResult

__all__ = ["Ranking", "UserColumn", "SmdResult", "RANK_DECIMALS", "reproduce_smd", "rank", "data_hash",
           "characteristic_phrase", "run_user_evaluator", "run_resolved"]

#: F1 is compared at the paper's printed precision when ranking.
RANK_DECIMALS = 3
_METRICS = ("precision", "recall", "f1")


@dataclass(frozen=True)
class UserColumn:
    """A user's evaluator on the table's detectors.

    Attributes
    ----------
    name : str
        The evaluator as named on the command line.
    kind : str
        ``"pr"`` (precision/recall returned) or ``"score"`` (one number).
    scores : dict of str to Score
        Detector -> result (a one-number score as ``Score(nan, nan, value)``); a failed call is absent.
    problems : dict of str to str
        Detector -> what went wrong (raised, bad result, timed out...).
    higher_is_better : bool
    params : dict
        The parameters in force.
    """

    name: str
    kind: str
    scores: dict[str, Score]
    problems: dict[str, str]
    higher_is_better: bool
    params: dict[str, Any]


@dataclass(frozen=True)
class Ranking:
    """One evaluator's ranking of the table's detectors.

    Attributes
    ----------
    evaluator : str
    order : tuple of tuple of str
        Groups of tied detectors, best first.
    differs_from_oipr : bool
        The order is not OIPR's.
    paper_best, paper_second : tuple of str
        The detectors the paper prints bold / underlined in this column (empty for a user's evaluator).
    agrees_with_paper : bool or None
        Our best (and second, where the paper underlines one) group equals the paper's; None for a user's evaluator.
    marks : dict of str to str
        Detector -> the characteristic the paper marks on that cell of this column.
    """

    evaluator: str
    order: tuple[tuple[str, ...], ...]
    differs_from_oipr: bool
    paper_best: tuple[str, ...] = ()
    paper_second: tuple[str, ...] = ()
    agrees_with_paper: bool | None = None
    marks: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class SmdResult:
    """Table 6, 7 or 8 (SMD rows) recomputed.

    Attributes
    ----------
    table : str
        "6", "7" or "8".
    result : TableResult
        Every comparison with the paper (its ``table`` reads ``"6 (SMD)"``).
    ours : dict
        Evaluator -> detector -> our Score (full precision).
    rankings : tuple of Ranking
        The seven built-ins' rankings, then the user's.
    user : UserColumn or None
    data_hash : str
        SHA-256 of the ground truth and the table's predictions as read.
    """

    table: str
    result: TableResult
    ours: dict[str, dict[str, Score]]
    rankings: tuple[Ranking, ...]
    user: UserColumn | None
    data_hash: str

    @property
    def detectors(self) -> tuple[str, ...]:
        return TABLE_DETECTORS[self.table]

    @property
    def ok(self) -> bool:
        """Every value matches the paper and the user's evaluator (if any) ran on every detector."""
        return self.result.ok and (self.user is None or not self.user.problems)


def characteristic_phrase(name: str) -> str:
    """How the paper's legend words a mark: "lack of existence detection reward", "long anomaly misleading"."""
    words = name.replace("_", " ")
    return f"lack of {words}" if kind_of(name) == KIND_BENEFICIAL else words


def data_hash(data: SmdData, detectors: Sequence[str]) -> str:
    """SHA-256 of the ground truth and ``detectors``' predictions (int8 bytes, in order)."""
    h = hashlib.sha256(np.ascontiguousarray(data.y_true, dtype=np.int8).tobytes())
    for det in detectors:
        h.update(det.encode())
        h.update(np.ascontiguousarray(data.predictions[det], dtype=np.int8).tobytes())
    return h.hexdigest()


def rank(values: Mapping[str, float], higher_is_better: bool = True, decimals: int = RANK_DECIMALS) -> tuple[tuple[str, ...], ...]:
    """Group ``values``' keys best first; values equal at ``decimals`` decimals tie (NaN ranks last).

    Keys keep their given order inside a group.
    """
    def key(v: float) -> float:
        if v != v:  # NaN
            return float("inf")
        r = round(float(v), decimals)
        return -r if higher_is_better else r

    levels = sorted({key(v) for v in values.values()})
    return tuple(tuple(k for k, v in values.items() if key(v) == level) for level in levels)


def _compare(table: str, ours: dict[str, dict[str, Score]], rows: Sequence[paper.SmdRow]) -> TableResult:
    tol = paper.PRINTED_3DP_TOLERANCE
    comparisons = []
    for row in rows:
        for name in evaluators.NAMES:
            where = f"Table {table}, dataset SMD, row '{row.row_label}', column {name}"
            for i, metric in enumerate(_METRICS):
                comparisons.append(Comparison(f"{table} (SMD)", row.detector, name, metric, ours[name][row.detector][i],
                                              row.values[name][i], tol, "printed", None, where))
    rule = f"|ours - paper| <= {tol:g}, half a unit of the 3rd printed decimal"
    return TableResult(f"{table} (SMD)", tuple(comparisons), rule, tuple(r.detector for r in rows), tuple(evaluators.NAMES))


def _builtin_ranking(name: str, ours: dict[str, dict[str, Score]], rows: Sequence[paper.SmdRow],
                     oipr_order: tuple[tuple[str, ...], ...]) -> Ranking:
    order = rank({r.detector: ours[name][r.detector].f1 for r in rows})
    best = tuple(r.detector for r in rows if name in r.bold)
    second = tuple(r.detector for r in rows if name in r.underline)
    agrees = set(order[0]) == set(best) and (not second or (len(order) > 1 and set(order[1]) == set(second)))
    marks = {r.detector: r.marks[name] for r in rows if name in r.marks}
    return Ranking(name, order, order != oipr_order, best, second, agrees, marks)


def _user_ranking(user: UserColumn, detectors: Sequence[str], oipr_order: tuple[tuple[str, ...], ...]) -> Ranking | None:
    if user.problems:
        return None
    order = rank({d: user.scores[d].f1 for d in detectors}, user.higher_is_better)
    return Ranking(f"{user.name} (yours)", order, order != oipr_order, marks={})


def run_user_evaluator(spec: Any, params: Mapping[str, Any], data: SmdData, detectors: Sequence[str], *,
                       timeout: float | None = None, isolate: bool = False, input_kind: str | None = None,
                       higher_is_better: bool | None = None, bounds: Any = None,
                       source: str = "--evaluator") -> UserColumn:
    """Resolve the user's evaluator ``spec`` as ``oipr-bench audit`` does and run it (:func:`run_resolved`).

    Raises
    ------
    UsageError
        ``spec`` does not resolve, or its parameters or declarations are refused.
    """
    from ..auditing.calling.declarations import declarations_of
    from ..auditing.calling.resolve import resolve

    resolved = resolve(spec, params)
    decl = declarations_of(resolved, input_kind=input_kind, higher_is_better=higher_is_better, bounds=bounds,
                           source=source)
    return run_resolved(resolved, decl, data, detectors, timeout=timeout, isolate=isolate)


def run_resolved(resolved: Any, decl: Any, data: SmdData, detectors: Sequence[str], *,
                 timeout: float | None = None, isolate: bool = False) -> UserColumn:
    """Call a resolved evaluator on each detector through the audit's :class:`~oipr_bench.auditing.calling.runner.Caller`.

    Parameters
    ----------
    resolved : oipr_bench.auditing.calling.resolve.Resolved
    decl : oipr_bench.auditing.calling.declarations.Declarations
        Its input kind, orientation and bounds.
    """
    from ..auditing.calling.runner import Caller
    from ..vocabulary import OK

    scores: dict[str, Score] = {}
    problems: dict[str, str] = {}
    kinds: set[str] = set()
    with Caller(resolved.fn, timeout=timeout, isolate=isolate, input_kind=decl.input_kind, bounds=decl.bounds) as caller:
        for det in detectors:
            outcome = caller(data.y_true, data.predictions[det])
            if outcome.kind == OK and outcome.score is not None:
                scores[det] = outcome.score
                kinds.add(outcome.result_kind)
            else:
                problems[det] = outcome.message or outcome.kind
    if len(kinds) > 1:
        problems.setdefault(detectors[0], "returned precision/recall on some detectors and one number on others")
    kind = kinds.pop() if len(kinds) == 1 else "pr"
    return UserColumn(resolved.name, kind, scores, problems, decl.higher_is_better, dict(resolved.params))


def reproduce_smd(table: str, data_dir: str | os.PathLike[str], *, user: UserColumn | None = None,
                  data: SmdData | None = None) -> SmdResult:
    """Recompute the SMD rows of Table ``table`` ("6", "7" or "8") from the CSVs in ``data_dir``.

    Parameters
    ----------
    table : str
    data_dir : path
        The folder holding the authors' ``SMD_*.csv`` (:func:`~oipr_bench.reference.smd.load_smd`).
    user : UserColumn, optional
        A user's evaluator already run on the table's detectors (:func:`run_user_evaluator`).
    data : SmdData, optional
        The slice already read (skips reading ``data_dir``).
    """
    key = str(table)
    rows = paper.smd_table(key)
    detectors = TABLE_DETECTORS[key]
    if data is None:
        data = load_smd(data_dir, detectors)
    ours: dict[str, dict[str, Score]] = {}
    for name in evaluators.NAMES:
        ev = evaluators.get(name, **SMD_PARAMS[name])
        ours[name] = {det: ev(data.y_true, data.predictions[det]) for det in detectors}
    oipr_order = rank({d: ours["OIPR"][d].f1 for d in detectors})
    rankings = [_builtin_ranking(name, ours, rows, oipr_order) for name in evaluators.NAMES]
    if user is not None:
        extra = _user_ranking(user, detectors, oipr_order)
        if extra is not None:
            rankings.append(extra)
    return SmdResult(key, _compare(key, ours, rows), ours, tuple(rankings), user, data_hash(data, detectors))
