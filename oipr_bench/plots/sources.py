"""Where the series of a picture come from: a dataset case, a scenario, or user files.

The command line's ``--case`` and ``--input`` options both end up here, as a
:class:`Source`: one ground truth and named predictions, each a list of runs
(one run for a deterministic detector, 100 for the random detector).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import numpy as np

from ..errors import UsageError
from ..scenarios.userdata import read_series

__all__ = ["Source", "from_case", "from_files"]


@dataclass(frozen=True)
class Source:
    """A ground truth and the named predictions made on it.

    Attributes
    ----------
    title : str
        What the series are (case id, scenario or file names), for titles.
    y_true : ndarray of int8
    predictions : dict of str to list of ndarray
        Name -> runs, in display order.
    """

    title: str
    y_true: np.ndarray
    predictions: dict[str, list[np.ndarray]] = field(default_factory=dict)

    def single(self, run: int | None = None) -> tuple[str, np.ndarray]:
        """The one prediction of this source (a chosen run of a multi-run case).

        Parameters
        ----------
        run : int, optional
            1-based run number for a multi-run prediction (default 1).

        Raises
        ------
        UsageError
            Several predictions, or a run number out of range.
        """
        if len(self.predictions) != 1:
            names = ", ".join(self.predictions)
            raise UsageError(f"{self.title}: holds {len(self.predictions)} predictions ({names}); this picture shows one")
        name, runs = next(iter(self.predictions.items()))
        k = 1 if run is None else int(run)
        if not 1 <= k <= len(runs):
            raise UsageError(f"{self.title}: --run must lie in 1..{len(runs)}, got {k}")
        label = name if len(runs) == 1 else f"{name} (run {k} of {len(runs)})"
        return label, runs[k - 1]


def _load_cases():
    from .. import scenarios

    return scenarios.load()


def from_case(case_id: str) -> Source:
    """A :class:`Source` for a case id (``"overlap_proportion/c1"``) or a whole scenario.

    A scenario id (``"fragmented_fps"``) gives all its cases as predictions on
    their shared ground truth (the ranking view of ``oipr-bench sweep``).

    Raises
    ------
    UsageError
        Unknown id (the message lists the valid ones), or a scenario whose cases
        do not share one ground truth (the random detector).
    """
    cases = _load_cases()
    by_id = {c.id: c for c in cases}
    if case_id in by_id:
        case = by_id[case_id]
        return Source(case.id, np.asarray(case.y_true), {case.id: [np.asarray(p) for p in case.predictions]})
    group = [c for c in cases if c.scenario == case_id]
    if not group:
        scenarios = list(dict.fromkeys(c.scenario for c in cases))
        raise UsageError(f"unknown case {case_id!r}; use a case id such as {cases[0].id} "
                         f"or a scenario ({', '.join(scenarios)})")
    y_true = np.asarray(group[0].y_true)
    if not all(np.array_equal(c.y_true, y_true) for c in group[1:]):
        raise UsageError(f"scenario {case_id!r}: its cases have different ground truths; name one case such as {group[0].id}")
    return Source(case_id, y_true, {c.case: [np.asarray(p) for p in c.predictions] for c in group})


def from_files(paths: Sequence[str | os.PathLike[str]]) -> Source:
    """A :class:`Source` from one or more user series files (see :mod:`oipr_bench.scenarios.userdata`).

    Every file must hold the same ground truth.  Predictions are named by
    their column, prefixed with the file stem when several files are given.

    Raises
    ------
    SeriesFileError
        A malformed file.
    UsageError
        Files whose ground truths differ.
    """
    if not paths:
        raise UsageError("no input file given")
    series = [read_series(p) for p in paths]
    y_true = series[0].y_true
    predictions: dict[str, list[np.ndarray]] = {}
    for s in series:
        if s.y_true.shape != y_true.shape or not np.array_equal(s.y_true, y_true):
            raise UsageError(f"{s.source}: its ground truth differs from the one in {series[0].source}; "
                             "several inputs must share one ground truth")
        stem = Path(s.source).stem
        for name, y in s.predictions.items():
            if len(series) == 1:
                label = name
            elif len(s.predictions) == 1:
                label = stem
            else:
                label = f"{stem}:{name}"
            base, k = label, 2
            while label in predictions:
                label = f"{base}#{k}"
                k += 1
            predictions[label] = [y]
    title = ", ".join(Path(s.source).name for s in series)
    return Source(title, y_true, predictions)
