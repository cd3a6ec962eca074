"""A case of the dataset as a small inline SVG: the ground truth's events above, the prediction's below.

Drawn from the case's own events (``y_true_events`` and the first run's ``prediction_events``, half-open
``[start, end)``), on a strip :data:`WIDTH` pixels wide: each event becomes the pixel columns it covers
(at least one, so a one-point event stays visible), and neighbouring columns merge into one rectangle,
so a lane is one path of at most :data:`WIDTH` / 2 rectangles whatever the series length.  No plotting
library: plain text, the same bytes on every machine.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

__all__ = ["WIDTH", "LANE", "pixel_runs", "case_svg"]

#: Width of a thumbnail in pixels, and the height of one lane.
WIDTH = 160
LANE = 8


def pixel_runs(events: Iterable[Sequence[int]], length: int, width: int = WIDTH) -> list[tuple[int, int]]:
    """The events as merged runs of pixel columns ``[first, last)`` on a strip of ``width`` columns.

    Point ``t`` of a series of ``length`` points falls in column ``t * width // length``; an event
    ``[start, end)`` covers the columns from its first point's to its last point's, inclusive.
    """
    cols: list[tuple[int, int]] = []
    for start, end in sorted((int(s), int(e)) for s, e in events):
        if end <= start:
            continue
        first, last = start * width // length, (end - 1) * width // length + 1
        if cols and first <= cols[-1][1]:
            cols[-1] = (cols[-1][0], max(cols[-1][1], last))
        else:
            cols.append((first, last))
    return cols


def _lane(runs: list[tuple[int, int]], y: int, colour: str) -> str:
    """One lane as a single path: a closed rectangle ``[a, b) x [y, y + LANE)`` per run (nothing when empty)."""
    if not runs:
        return ""
    return f"<path fill='{colour}' d='" + "".join(f"M{a} {y}h{b - a}v{LANE}h-{b - a}z" for a, b in runs) + "'/>"


def case_svg(case: Any) -> str:
    """The thumbnail of ``case`` (a :class:`oipr_bench.scenarios.case.Case`): ``y_true`` red on top, ``y_pred`` blue below.

    A random-detector case shows its first run; its title says so.
    """
    length = int(case.length)
    truth = pixel_runs(case.y_true_events, length)
    pred = pixel_runs(case.prediction_events[0], length)
    runs = f"run 1 of {case.n_runs}; " if case.n_runs > 1 else ""
    title = f"{case.id}: {runs}y_true (top) and y_pred (bottom), {length} points"
    height = 2 * LANE + 3
    return (f"<svg xmlns='http://www.w3.org/2000/svg' width='{WIDTH}' height='{height}' viewBox='0 0 {WIDTH} {height}' "
            f"role='img'><title>{title}</title><rect width='{WIDTH}' height='{height}' fill='#f6f6f6'/>"
            + _lane(truth, 1, "#c0392b") + _lane(pred, LANE + 2, "#2c6fbb") + "</svg>")
