"""Your metric on real data beside the atlas rows: the rows whose ranking of NAB's detectors is closest to yours.

``oipr-bench atlas --evaluator X --realdata DATA`` scores X on every (detector, series) of NAB under the
real-data protocol (:mod:`.inputs`), through the audit's guarded caller (its timeout and isolation; a
raise, a non-finite number or one out of its declared bounds is a failed cell), ranks the detectors by
X's mean over series, and compares that ranking with each committed row's on the series the row ran
(Kendall's tau-b over detectors, :func:`oipr_bench.realdata.analysis.kendall_tau`, failed cells left out
of a mean).  The nearest rows are the highest tau, then the most series shared, then the row id.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from ...realdata.analysis import aggregate, goodness, kendall_tau
from .inputs import RealInputs
from .summary import row_values

__all__ = ["user_values", "nearest_on_real", "real_placement_lines", "lines_from_table", "place_on_real"]


def user_values(inputs: RealInputs, caller: Any, input_kind: str) -> tuple[np.ndarray, list[str]]:
    """``values[d, s]`` of the user's evaluator on every kept series, and one line per failed cell.

    ``caller``: an :class:`oipr_bench.auditing.calling.runner.Caller` of the evaluator.
    """
    from ...vocabulary import OK

    values = np.full((len(inputs.detectors), len(inputs.series)), np.nan)
    problems: list[str] = []
    for j, s in enumerate(inputs.series):
        for d, det in enumerate(inputs.detectors):
            given = s.scores[det] if input_kind == "scores" else s.y_pred[det]
            outcome = caller(s.y_true.copy(), given.copy())
            if outcome.kind != OK or outcome.score is None or not np.isfinite(outcome.score.f1):
                problems.append(f"{det} on {s.name}: {outcome.message or outcome.kind}")
                continue
            values[d, j] = float(outcome.score.f1)
    return values, problems


def _good(values: np.ndarray, higher_is_better: bool) -> np.ndarray:
    return goodness(aggregate(values, np.ones((1, values.shape[1])), "mean")[0], higher_is_better)


def nearest_on_real(values: np.ndarray, higher_is_better: bool, series: Sequence[str],
                    docs: Mapping[str, Mapping[str, Any]], k: int = 3) -> list[tuple[str, float, int]]:
    """The ``k`` rows ranking the detectors most like ``values``: ``(row id, tau, series shared)``, nearest first."""
    index = {name: j for j, name in enumerate(series)}
    found = []
    for rid, doc in docs.items():
        shared = [s for s in (doc.get("plan") or {}).get("series", []) if s in doc.get("cells", {}) and s in index]
        if not shared:
            continue
        mine = _good(values[:, [index[s] for s in shared]], higher_is_better)
        theirs = _good(row_values(doc, shared), bool(doc["row"]["higher_is_better"]))
        tau = kendall_tau(mine, theirs)
        if tau == tau:
            found.append((rid, float(tau), len(shared)))
    found.sort(key=lambda x: (-x[1], -x[2], x[0]))
    return found[:k]


def real_placement_lines(name: str, values: np.ndarray, higher_is_better: bool, inputs: RealInputs,
                         docs: Mapping[str, Mapping[str, Any]], problems: Sequence[str]) -> list[str]:
    """What ``atlas --evaluator X --realdata DATA`` (and ``pytest --oipr-atlas --oipr-realdata DATA``) prints
    after the grid placement.

    Only rows computed on the same data (the digest of the kept series) are compared: a row file made
    from another copy of NAB, or an edited one, is counted and left out, never compared by series name.
    """
    series = [s.name for s in inputs.series]
    good = _good(values, higher_is_better)
    order = [inputs.detectors[d] for d in np.argsort(-good, kind="stable")]
    lines = [f"On real data (NAB, {len(series)} series, {len(inputs.detectors)} detectors): {name} ranks "
             + ", ".join(order[:5]) + (", ..." if len(order) > 5 else "")
             + f" ({len(problems)} failed cells of {values.size})"]
    same = {rid: doc for rid, doc in docs.items() if (doc.get("data") or {}).get("digest") == inputs.digest}
    near = nearest_on_real(values, higher_is_better, series, same)
    if len(same) < len(docs):
        lines.append(f"  {len(docs) - len(same)} committed real-data rows were computed on other data than {inputs.digest[:12]} "
                     "and are not compared")
    if not near:
        lines.append("  no committed real-data row to compare with (run `oipr-bench atlas --realdata DATA`)")
    for rid, tau, n in near:
        lines.append(f"  nearest on real data: {rid} (Kendall's tau {tau:.2f} over the detectors, on {n} series)")
    lines += [f"  failed: {p}" for p in problems[:5]]
    if len(problems) > 5:
        lines.append(f"  ... and {len(problems) - 5} more failed cells")
    return lines


def lines_from_table(result: Any, data: str, atlas_dir: Any, name: str) -> list[str]:
    """The same placement from an ``oipr-bench realdata`` result that has a user column (the plugin's
    ``--oipr-realdata``): its values are the user's cells under the same protocol, so nothing is recomputed."""
    from pathlib import Path

    from .inputs import read_inputs
    from .rowfiles import read_row_files

    user = result.user
    if user is None:
        return []
    table = result.table
    inputs = read_inputs(data)
    if tuple(s.name for s in inputs.series) != tuple(table.series) or tuple(inputs.detectors) != tuple(table.detectors):
        return [f"On real data: {data} gives other series or detectors than the table: not placed"]
    values = table.values[table.metrics.index(user)]
    docs, _ = read_row_files(Path(atlas_dir))
    return real_placement_lines(name, values, user.higher_is_better, inputs, docs, table.problems)


def place_on_real(data: str, atlas_dir: Any, name: str, fn: Any, decl: Any, *, timeout: float | None,
                  isolate: bool) -> list[str]:
    """``--evaluator X --realdata DATA``: X on NAB (through a guarded caller), and the committed rows of
    ``atlas_dir`` ranking the detectors most like it (:func:`real_placement_lines`)."""
    from pathlib import Path

    from ...auditing.calling.runner import Caller
    from .inputs import read_inputs
    from .rowfiles import read_row_files

    inputs = read_inputs(data)
    docs, _ = read_row_files(Path(atlas_dir))
    caller = Caller(fn, timeout=timeout, isolate=isolate, input_kind=decl.input_kind, bounds=decl.bounds)
    try:
        values, problems = user_values(inputs, caller, decl.input_kind)
    finally:
        caller.close()
    return real_placement_lines(name, values, decl.higher_is_better, inputs, docs, problems)
