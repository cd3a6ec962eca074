"""The scenario gallery: the paper's Fig. A, one picture per scenario.

Each scenario is drawn as horizontal strips over the series' time axis: the
ground truth as red bars, then every case's prediction as blue bars, labelled
with the case name (Fig. A's caption: all cases of a scenario share the ground
truth, drawn once; the random detector's cases each have their own, so each
case gets its own ground-truth strip there, and one example run is shown).

Bars are the events ``[start, end)`` of :func:`oipr_bench.scenarios.events.to_events`,
drawn with :meth:`~matplotlib.axes.Axes.broken_barh`, so one-point events stay
visible and SVG files stay small.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

from ..scenarios.events import to_events
from ..io import atomic_write_bytes, make_output_folder
from ._mpl import COLORS, figure_bytes, pyplot

__all__ = ["Strip", "SCENARIO_TITLES", "scenario_title", "scenario_strips", "group_cases",
           "draw_strips", "scenario_figure", "overview_figure", "write_gallery"]

#: Sub-figure titles of the paper's Fig. A, by scenario id.
SCENARIO_TITLES: dict[str, str] = {
    "overlap_proportion": "Overlap proportion",
    "fragmented_tps": "Fragmented TPs",
    "fragmented_fps": "Fragmented FPs",
    "temporal_shifting": "Temporal shifting",
    "tp_positions": "TP positions",
    "long_anomaly_effect": "Long anomaly effect",
    "sparse_anomalies": "Sparse anomalies",
    "constant_detector": "Constant detectors",
    "random_detector": "Random detector (an example run)",
}


@dataclass(frozen=True)
class Strip:
    """One row of a gallery picture: a label, a 0/1 series and its role ("gt" or "pred")."""

    label: str
    y: np.ndarray
    role: str


def scenario_title(scenario: str) -> str:
    """Human title of a scenario id (Fig. A's sub-captions; other ids are title-cased)."""
    return SCENARIO_TITLES.get(scenario, scenario.replace("_", " ").capitalize())


def group_cases(cases: Iterable[Any]) -> dict[str, list[Any]]:
    """Group cases by ``.scenario``, keeping the order in which scenarios first appear."""
    groups: dict[str, list[Any]] = {}
    for case in cases:
        groups.setdefault(case.scenario, []).append(case)
    return groups


def scenario_strips(cases: Sequence[Any], run: int = 0) -> list[Strip]:
    """The strips of one scenario, top to bottom.

    Parameters
    ----------
    cases : sequence of Case
        The cases of one scenario (anything with ``.case``, ``.y_true`` and
        ``.predictions``).
    run : int, default 0
        Which run of a multi-run (random detector) case to show.

    Returns
    -------
    list of Strip
        One shared ``gt`` strip followed by one ``pred`` strip per case when
        every case has the same ground truth; otherwise a ``gt``/``pred`` pair
        per case.
    """
    if not cases:
        return []
    shared = all(np.array_equal(c.y_true, cases[0].y_true) for c in cases[1:])
    strips: list[Strip] = []
    if shared:
        strips.append(Strip("gt", np.asarray(cases[0].y_true), "gt"))
    for case in cases:
        preds = case.predictions
        y_pred = np.asarray(preds[min(run, len(preds) - 1)])
        if not shared:
            strips.append(Strip(f"{case.case} gt", np.asarray(case.y_true), "gt"))
        label = case.case if len(preds) == 1 else f"{case.case} (run {min(run, len(preds) - 1) + 1} of {len(preds)})"
        strips.append(Strip(label, y_pred, "pred"))
    return strips


def draw_strips(ax: Any, strips: Sequence[Strip], title: str | None = None, fontsize: float = 8.0) -> None:
    """Draw ``strips`` on ``ax``: one bar row per strip, red ground truth, blue predictions."""
    n = len(strips)
    length = max((s.y.shape[0] for s in strips), default=1)
    for row, strip in enumerate(strips):
        y0 = n - 1 - row
        starts, ends = to_events(strip.y)
        color = COLORS[strip.role]
        spans = list(zip(starts.tolist(), (ends - starts).tolist()))
        # A thin edge in the face colour keeps one-point events visible on long axes.
        ax.broken_barh(spans, (y0 + 0.18, 0.64), facecolors=color, edgecolors=color, linewidth=0.6)
        ax.axhline(y0 + 0.5, color=COLORS["grid"], linewidth=0.5, zorder=0)
    ax.set_ylim(-0.1, n + 0.1)
    ax.set_xlim(0, length)
    ax.set_yticks([n - 1 - i + 0.5 for i in range(n)])
    ax.set_yticklabels([s.label for s in strips], fontsize=fontsize)
    for tick, strip in zip(ax.get_yticklabels(), strips):
        tick.set_color(COLORS[strip.role])
    ax.tick_params(axis="x", labelsize=fontsize - 1)
    ax.tick_params(axis="y", length=0)
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    if title:
        ax.set_title(title, fontsize=fontsize + 1.5, loc="left")


def scenario_figure(scenario: str, cases: Sequence[Any], run: int = 0) -> Any:
    """A matplotlib Figure of one scenario (one panel of Fig. A)."""
    plt = pyplot()
    strips = scenario_strips(cases, run=run)
    fig, ax = plt.subplots(figsize=(6.4, 0.55 + 0.36 * len(strips)))
    draw_strips(ax, strips, title=scenario_title(scenario))
    ax.set_xlabel("time index t", fontsize=7)
    return fig


def overview_figure(groups: dict[str, list[Any]], run: int = 0, ncols: int = 3) -> Any:
    """All scenarios in one grid, as the paper's Fig. A."""
    plt = pyplot()
    names = list(groups)
    nrows = max(1, -(-len(names) // ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.3 * ncols, 2.25 * nrows), squeeze=False)
    for k, ax in enumerate(axes.flat):
        if k >= len(names):
            ax.set_visible(False)
            continue
        name = names[k]
        letter = chr(ord("a") + k)
        draw_strips(ax, scenario_strips(groups[name], run=run), title=f"({letter}) {scenario_title(name)}", fontsize=7.5)
    fig.suptitle("Special-scenario dataset: ground truth (red) and predictions (blue), after the paper's Fig. A",
                 fontsize=11, x=0.01, ha="left")
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    return fig


def write_gallery(out_dir: str | os.PathLike[str], cases: Sequence[Any] | None = None,
                  formats: Sequence[str] = ("png", "svg"), run: int = 0) -> list[Path]:
    """Write one picture per scenario (in each of ``formats``) and ``overview.png``.

    Parameters
    ----------
    out_dir : path
        Folder to write into (created if missing).
    cases : sequence of Case, optional
        Defaults to :func:`oipr_bench.scenarios.load`.
    formats : sequence of {"png", "svg"}
        Formats of the per-scenario pictures.
    run : int
        Run of the random-detector cases to show (0-based).

    Returns
    -------
    list of Path
        The files written, scenario pictures first, the overview last.
    """
    if cases is None:
        from .. import scenarios

        cases = scenarios.load()
    groups = group_cases(cases)
    out = Path(out_dir)
    make_output_folder(out)  # the writer never creates folders; the gallery's folder is ours (never in oipr-bench)
    written: list[Path] = []
    for name, group in groups.items():
        for fmt in formats:
            data = figure_bytes(scenario_figure(name, group, run=run), fmt)
            written.append(atomic_write_bytes(out / f"{name}.{fmt}", data))
    written.append(atomic_write_bytes(out / "overview.png", figure_bytes(overview_figure(groups, run=run), "png")))
    return written
