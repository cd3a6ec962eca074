"""The authors' SMD slice with the ground truth and each detector's output (the paper's Fig. 2 / Fig. 6 style).

One panel per table of the paper (6: Autoformer, DLinear, TimesNet; 7: ``d_fp``, ``d_l``; 8: ``d_disp``,
``d_aggr``, ``d_cont``), each a ground-truth strip (red) over one strip per detector (blue), drawn by
:func:`oipr_bench.plots.gallery.draw_strips` over the whole slice or a window ``[start, end)``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Sequence

from ..reference.smd import TABLE_DETECTORS, SmdData, detector
from ._mpl import pyplot, save_figure
from .gallery import Strip, draw_strips

__all__ = ["PANEL_TITLES", "smd_strips", "smd_figure", "write_smd_figure"]

#: Panel titles by table.
PANEL_TITLES: dict[str, str] = {
    "6": "Table 6: advanced detectors",
    "7": "Table 7: first-point and long-anomaly detectors",
    "8": "Table 8: disturbance detectors",
}


def _label(det_id: str) -> str:
    return f"{det_id} ({detector(det_id).title})" if det_id.startswith("d_") else det_id


def smd_strips(data: SmdData, table: str, window: tuple[int, int] | None = None) -> list[Strip]:
    """The ground truth, then each detector of ``table`` that ``data`` holds, cut to ``window``."""
    start, end = window if window is not None else (0, int(data.y_true.shape[0]))
    strips = [Strip("gt", data.y_true[start:end], "gt")]
    for det in TABLE_DETECTORS[table]:
        if det in data.predictions:
            strips.append(Strip(_label(det), data.predictions[det][start:end], "pred"))
    return strips


def smd_figure(data: SmdData, tables: Sequence[str] = ("6", "7", "8"), window: tuple[int, int] | None = None) -> Any:
    """A matplotlib Figure: one panel per table in ``tables`` (those whose detectors ``data`` holds)."""
    plt = pyplot()
    shown = [t for t in tables if any(d in data.predictions for d in TABLE_DETECTORS[t])]
    heights = [1 + sum(d in data.predictions for d in TABLE_DETECTORS[t]) for t in shown]
    fig, axes = plt.subplots(len(shown), 1, figsize=(11.0, 0.9 + 0.34 * sum(heights) + 0.35 * len(shown)),
                             squeeze=False, gridspec_kw={"height_ratios": heights})
    start = window[0] if window is not None else 0
    for ax, table in zip(axes[:, 0], shown):
        draw_strips(ax, smd_strips(data, table, window), title=PANEL_TITLES[table])
        if start:  # the strips are cut at the window: label the axis with the slice's time index
            ax.xaxis.set_major_formatter(lambda x, pos: f"{int(round(x)) + start}")
    axes[-1, 0].set_xlabel("time index t", fontsize=8)
    span = f"points {window[0]}-{window[1] - 1}" if window is not None else f"all {data.y_true.shape[0]} points"
    fig.suptitle(f"The authors' SMD slice ({span}): ground truth (red) and detector outputs (blue)",
                 fontsize=10.5, x=0.01, ha="left")
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    return fig


def write_smd_figure(data: SmdData, path: str | os.PathLike[str], tables: Sequence[str] = ("6", "7", "8"),
                     window: tuple[int, int] | None = None) -> Path:
    """Draw :func:`smd_figure` into ``path`` (PNG or SVG by its suffix, written atomically)."""
    return save_figure(smd_figure(data, tables, window), path)
