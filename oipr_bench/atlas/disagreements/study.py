"""Compare implementations of "the same" metric input by input.

For every group of :mod:`oipr_bench.atlas.disagreements.groups`, each member runs on the
dataset's 25 cases and on the differential of :mod:`oipr_bench.atlas.disagreements.corpus`.
A member disagrees with the group's reference (its first member) on an input
when their headline numbers (F1 for a P/R result, else the score) differ by
more than :data:`TOLERANCE` (NaN equals NaN).  Crashes, results outside
[0, 1] and inputs where a bool prediction scores differently from the same
prediction as int8 are recorded too, each with its smallest reproduction.
"""

from __future__ import annotations

import math
import warnings
from typing import Any, NamedTuple

import numpy as np

from .corpus import Series, dataset_series, differential
from .groups import Group, Member, groups

__all__ = ["TOLERANCE", "Outcome", "MemberResult", "run_member", "study", "study_group"]

TOLERANCE = 1e-9


class Outcome(NamedTuple):
    """A member's result on one input: (precision, recall, headline) or the error."""

    precision: float | None
    recall: float | None
    headline: float | None
    error: str | None

    def text(self) -> str:
        if self.error:
            return f"raises {self.error}"
        pr = "" if self.precision is None else f"P={_fmt(self.precision)} R={_fmt(self.recall)} "
        return f"{pr}{'F1' if self.precision is not None else 'score'}={_fmt(self.headline)}"


def _fmt(x: float | None) -> str:
    if x is None:
        return "None"
    return "nan" if math.isnan(x) else repr(round(x, 12)) if x != round(x, 12) or abs(x) < 1e-12 else f"{x:.12g}"


def _f1(p: float, r: float) -> float:
    if math.isnan(p) or math.isnan(r):
        return math.nan
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


def _outcome(result: Any) -> Outcome:
    if isinstance(result, tuple):
        p, r = float(result[0]), float(result[1])
        return Outcome(p, r, float(result[2]) if len(result) > 2 else _f1(p, r), None)
    return Outcome(None, None, float(result), None)


def run_member(fn: Any, input_kind: str, series: Series, dtype: Any = np.int8) -> Outcome:
    """Call a loaded member on ``series`` (the prediction as ``dtype``, or float64 scores)."""
    y_pred = series.y_pred.astype(np.float64 if input_kind == "scores" else dtype)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _outcome(fn(series.y_true.copy(), y_pred))
    except Exception as exc:  # noqa: BLE001 - a crash is a finding
        return Outcome(None, None, None, f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}".rstrip(": "))


def _same(a: Outcome, b: Outcome) -> bool:
    if a.error or b.error:
        return bool(a.error) == bool(b.error)
    x, y = a.headline, b.headline
    if x is None or y is None or math.isnan(x) or math.isnan(y):
        return (x is None or math.isnan(x)) == (y is None or math.isnan(y))
    return abs(x - y) <= TOLERANCE


def _out_of_range(o: Outcome) -> bool:
    return any(v is not None and not math.isnan(v) and not 0.0 <= v <= 1.0 for v in (o.precision, o.recall, o.headline))


def _size(s: Series) -> tuple[int, int]:
    return len(s.y_true), int(np.sum(np.diff(s.y_true, prepend=0) == 1) + np.sum(np.diff(s.y_pred, prepend=0) == 1))


class MemberResult(NamedTuple):
    """What one member did on one input set, compared with the reference."""

    label: str
    n_inputs: int
    disagreements: int
    first: int | None          # index of the smallest disagreeing input
    crashes: int
    first_crash: int | None
    out_of_range: int
    first_out_of_range: int | None
    dtype_differs: int
    first_dtype: int | None


def _smallest(indices: list[int], inputs: list[Series]) -> int | None:
    return min(indices, key=lambda i: _size(inputs[i])) if indices else None


def _compare(member: Member, fn: Any, outs: list[Outcome], ref: list[Outcome], inputs: list[Series]) -> MemberResult:
    differ = [i for i, (o, r) in enumerate(zip(outs, ref)) if not _same(o, r)]
    crashes = [i for i, o in enumerate(outs) if o.error]
    oor = [i for i, o in enumerate(outs) if _out_of_range(o)]
    dtype = []
    if member.adapter.input_kind == "binary":
        for i, s in enumerate(inputs):
            if not outs[i].error and not _same(outs[i], run_member(fn, "binary", s, dtype=bool)):
                dtype.append(i)
    return MemberResult(member.label, len(inputs), len(differ), _smallest(differ, inputs), len(crashes), _smallest(crashes, inputs),
                        len(oor), _smallest(oor, inputs), len(dtype), _smallest(dtype, inputs))


def study_group(group: Group, inputs: list[Series]) -> dict[str, Any]:
    """Run every member of ``group`` on ``inputs``: outcomes and per-member comparison."""
    fns, loaded, unavailable = [], [], {}
    for m in group.members:
        try:
            fns.append(m.adapter.load())
            loaded.append(m)
        except Exception as exc:  # noqa: BLE001 - Unavailable, or a build failure
            unavailable[m.label] = str(exc)
    outcomes = [[run_member(fn, m.adapter.input_kind, s) for s in inputs] for m, fn in zip(loaded, fns)]
    results = [_compare(m, fn, outs, outcomes[0], inputs) for m, fn, outs in zip(loaded, fns, outcomes)] if loaded else []
    return {"group": group.name, "members": [m.label for m in loaded], "unavailable": unavailable,
            "outcomes": outcomes, "results": results}


def _study_one(args: tuple[int, str]) -> tuple[dict[str, Any], dict[str, Any]]:
    index, _ = args
    group = groups()[index]
    return study_group(group, dataset_series()), study_group(group, differential(group.n_random))


def study(jobs: int = 2, scheduler: str | None = None, timeout: float | None = None) -> list[tuple[Group, dict[str, Any], dict[str, Any]]]:
    """Every group on the 25 cases and on the differential: ``(group, on_cases, on_differential)``.

    One Dask task per group (:mod:`oipr_bench.atlas.running.tasks`): ``jobs`` local workers, or ``scheduler``'s.
    A group whose task fails (it raised, ran past ``timeout`` seconds, kept killing its workers) stops the study
    with the group's name and the reason: the report needs every group.
    """
    from ..running.tasks import Task, connect, run_tasks

    todo = [(i, g.name) for i, g in enumerate(groups())]
    with connect(jobs, scheduler) as client:
        outcomes = run_tasks([Task(f"study-{name}", _study_one, ((i, name),)) for i, name in todo], client, timeout=timeout)
    failed = [(name, o.failure) for (_, name), o in zip(todo, outcomes) if not o.ok]
    if failed:
        raise RuntimeError(f"disagreement study: group {failed[0][0]} failed: {failed[0][1]}")
    done = [o.value for o in outcomes]
    return [(g, cases, diff) for g, (cases, diff) in zip(groups(), done)]
