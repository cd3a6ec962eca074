"""OIPR over an ``l_dis`` x ``l_obs`` grid, in the spirit of the paper's Appendix D.

:func:`sweep` evaluates OIPR precision, recall and F1 for every pair of the
two grids at a fixed ``b_dur`` (Fig. D1 shows the surfaces, Fig. D2 the F1 of
several detectors) and returns a tidy table.  :func:`winners` says, for each
grid point, which of several detectors on the same ground truth has the
highest F1 and by how much (Fig. D2's question: does the ranking hold over a
wide parameter range?).  :func:`heatmap_figure` and :func:`ranking_figure`
draw them.

Multi-run predictions (the random detector) contribute the mean of the
per-run P, R and F1, as the paper reports them.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from ..errors import UsageError
from ..evaluators.oipr import OIPR
from ._mpl import pyplot

__all__ = ["DEFAULT_L_DIS_GRID", "DEFAULT_L_OBS_GRID", "PAPER_SETTING", "parse_grid", "sweep", "winners",
           "heatmap_figure", "ranking_figure"]

#: Default grids (117 points): l_dis in 0,1,2,3,5,8,10,15,20 and l_obs in 0..60 by 5; both hold
#: the special-scenario setting l_dis = 5, l_obs = 20 (Table 3).
DEFAULT_L_DIS_GRID: tuple[int, ...] = (0, 1, 2, 3, 5, 8, 10, 15, 20)
DEFAULT_L_OBS_GRID: tuple[int, ...] = tuple(range(0, 61, 5))
#: The special-scenario setting of Table 3, marked on the heat maps when on the grid.
PAPER_SETTING: tuple[int, int] = (5, 20)

METRICS: tuple[str, ...] = ("precision", "recall", "f1")
_TIE = 1e-12


def parse_grid(text: str, name: str = "grid") -> list[int]:
    """Parse a grid of non-negative integers.

    ``"a:b"`` is ``a, a+1, .., b`` and ``"a:b:s"`` is ``a, a+s, .., <= b``
    (both ends inclusive); ``"1,2,5,10"`` lists values.  Values are sorted and
    de-duplicated.

    Raises
    ------
    UsageError
        Malformed text, a negative value, a non-positive step or an empty grid.
    """
    raw = str(text).strip()
    try:
        if ":" in raw:
            parts = [int(p) for p in raw.split(":")]
            if len(parts) not in (2, 3):
                raise ValueError
            start, stop = parts[0], parts[1]
            step = parts[2] if len(parts) == 3 else 1
            if step <= 0:
                raise UsageError(f"{name}: step must be positive in {raw!r}")
            _check_grid_bounds(name, raw, max(start, stop), len(range(start, stop + 1, step)))
            values = list(range(start, stop + 1, step))
        else:
            values = [int(p) for p in raw.split(",") if p.strip()]
    except ValueError:
        raise UsageError(f"{name}: expected integers as 'start:stop[:step]' or 'a,b,c', got {raw!r}") from None
    if not values:
        raise UsageError(f"{name}: grid {raw!r} is empty")
    if min(values) < 0:
        raise UsageError(f"{name}: values must be non-negative, got {min(values)} in {raw!r}")
    _check_grid_bounds(name, raw, max(values), len(values))
    return sorted(set(values))


#: Most points of one sweep grid axis.
MAX_GRID_POINTS = 1000


def _check_grid_bounds(name: str, raw: str, largest: int, count: int) -> None:
    """Refuse a grid value above the length cap or a grid with absurdly many points (before building it)."""
    from ..evaluators._params import MAX_LENGTH_PARAM

    if largest > MAX_LENGTH_PARAM:
        raise UsageError(f"{name}: values must be at most {MAX_LENGTH_PARAM}, got {largest} in {raw!r}")
    if count > MAX_GRID_POINTS:
        raise UsageError(f"{name}: {count} grid points, more than the limit of {MAX_GRID_POINTS}, in {raw!r}")


def sweep(y_true: np.ndarray, predictions: Mapping[str, Sequence[np.ndarray]],
          l_dis_grid: Sequence[int] = DEFAULT_L_DIS_GRID, l_obs_grid: Sequence[int] = DEFAULT_L_OBS_GRID,
          b_dur: float = 0.5, attenuation: str = "sigmoid") -> pd.DataFrame:
    """OIPR P, R and F1 of each prediction over the grid.

    Parameters
    ----------
    y_true : ndarray of shape (T,)
        Ground truth.
    predictions : mapping of str to sequence of ndarray
        Detector name -> its runs (one array for a deterministic detector).
    l_dis_grid, l_obs_grid : sequence of int
        Discovery and observation lengths to combine.
    b_dur, attenuation
        Held fixed (see :class:`~oipr_bench.evaluators.oipr.OIPR`).

    Returns
    -------
    pandas.DataFrame
        Columns ``detector, l_dis, l_obs, b_dur, attenuation, n_runs,
        precision, recall, f1``; one row per detector and grid point, detectors
        in the given order, then ``l_dis``, then ``l_obs`` ascending.
    """
    if not predictions:
        raise UsageError("sweep needs at least one prediction")
    rows = []
    for name, runs in predictions.items():
        if len(runs) == 0:
            raise UsageError(f"sweep: prediction {name!r} has no runs")
        for l_dis in l_dis_grid:
            for l_obs in l_obs_grid:
                ev = OIPR(l_dis=int(l_dis), l_obs=int(l_obs), b_dur=b_dur, attenuation=attenuation)
                scores = np.array([tuple(ev(y_true, y_pred)) for y_pred in runs], dtype=float)
                p, r, f = scores.mean(axis=0)
                rows.append((name, int(l_dis), int(l_obs), float(b_dur), attenuation, len(runs), p, r, f))
    return pd.DataFrame(rows, columns=["detector", "l_dis", "l_obs", "b_dur", "attenuation", "n_runs", *METRICS])


def winners(table: pd.DataFrame) -> pd.DataFrame:
    """Best detector by F1 at each grid point of a :func:`sweep` table.

    Returns
    -------
    pandas.DataFrame
        Columns ``l_dis, l_obs, winner, f1, runner_up, runner_up_f1,
        margin``.  ``winner`` is ``"tie"`` when the two best F1 values differ
        by less than 1e-12; with a single detector ``runner_up`` is empty and
        ``margin`` is NaN.
    """
    out = []
    for (l_dis, l_obs), grp in table.groupby(["l_dis", "l_obs"], sort=True):
        ordered = grp.sort_values("f1", ascending=False, kind="mergesort")
        best = ordered.iloc[0]
        if len(ordered) > 1:
            second = ordered.iloc[1]
            margin = float(best["f1"] - second["f1"])
            name = "tie" if margin < _TIE else best["detector"]
            out.append((l_dis, l_obs, name, float(best["f1"]), second["detector"], float(second["f1"]), margin))
        else:
            out.append((l_dis, l_obs, best["detector"], float(best["f1"]), "", float("nan"), float("nan")))
    return pd.DataFrame(out, columns=["l_dis", "l_obs", "winner", "f1", "runner_up", "runner_up_f1", "margin"])


def _grid(table: pd.DataFrame, detector: str, metric: str) -> tuple[np.ndarray, list[int], list[int]]:
    sub = table[table["detector"] == detector]
    pivot = sub.pivot(index="l_dis", columns="l_obs", values=metric).sort_index().sort_index(axis=1)
    return pivot.to_numpy(dtype=float), [int(v) for v in pivot.index], [int(v) for v in pivot.columns]


def _axes_ticks(ax: Any, l_dis: list[int], l_obs: list[int], fontsize: float) -> None:
    def thin(values: list[int]) -> tuple[list[int], list[str]]:
        step = max(1, -(-len(values) // 12))
        idx = list(range(0, len(values), step))
        return idx, [str(values[i]) for i in idx]

    xi, xl = thin(l_obs)
    yi, yl = thin(l_dis)
    ax.set_xticks(xi)
    ax.set_xticklabels(xl, fontsize=fontsize)
    ax.set_yticks(yi)
    ax.set_yticklabels(yl, fontsize=fontsize)
    ax.set_xlabel("l_obs", fontsize=fontsize + 1)
    ax.set_ylabel("l_dis", fontsize=fontsize + 1)


def _mark_setting(ax: Any, l_dis: list[int], l_obs: list[int]) -> None:
    d, o = PAPER_SETTING
    if d in l_dis and o in l_obs:
        ax.plot(l_obs.index(o), l_dis.index(d), marker="s", markersize=11, markerfacecolor="none",
                markeredgecolor="white", markeredgewidth=1.6)
        ax.plot(l_obs.index(o), l_dis.index(d), marker="s", markersize=13, markerfacecolor="none",
                markeredgecolor="black", markeredgewidth=0.8)


def _annotate(ax: Any, values: np.ndarray, fontsize: float = 6.0) -> None:
    if values.shape[0] * values.shape[1] > 160:
        return
    for i in range(values.shape[0]):
        for j in range(values.shape[1]):
            v = values[i, j]
            if np.isfinite(v):
                ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=fontsize,
                        color="black" if v > 0.55 else "white")


def heatmap_figure(table: pd.DataFrame, title: str | None = None) -> Any:
    """P, R and F1 heat maps (columns) for each detector of a :func:`sweep` table (rows).

    The square marks the special-scenario setting ``l_dis = 5, l_obs = 20``
    when it is on the grid.
    """
    plt = pyplot()
    detectors = list(dict.fromkeys(table["detector"]))
    nd = len(detectors)
    first, l_dis, l_obs = _grid(table, detectors[0], "f1")
    cell_w = max(2.6, min(5.0, 0.32 * len(l_obs) + 0.8))
    cell_h = max(2.0, min(4.2, 0.26 * len(l_dis) + 0.9))
    fig, axes = plt.subplots(nd, 3, figsize=(3 * cell_w + 1.0, nd * cell_h + 0.9), squeeze=False)
    image = None
    for r, det in enumerate(detectors):
        for c, metric in enumerate(METRICS):
            values, _, _ = _grid(table, det, metric)
            ax = axes[r, c]
            image = ax.imshow(values, origin="lower", aspect="auto", cmap="viridis", vmin=0.0, vmax=1.0,
                              interpolation="nearest")
            _annotate(ax, values)
            _axes_ticks(ax, l_dis, l_obs, 7)
            _mark_setting(ax, l_dis, l_obs)
            ax.set_title(f"{det}: OIPR {metric}" if nd > 1 else f"OIPR {metric}", fontsize=9)
    row0 = table.iloc[0]
    sup = title or "OIPR parameter sweep"
    fig.suptitle(f"{sup}  (b_dur={row0['b_dur']:g}, {row0['attenuation']} attenuation{_setting_note(l_dis, l_obs)})",
                 fontsize=10, x=0.01, ha="left")
    fig.tight_layout(rect=(0, 0, 0.93, 0.95))
    cax = fig.add_axes((0.945, 0.12, 0.015, 0.76))
    fig.colorbar(image, cax=cax).ax.tick_params(labelsize=7)
    return fig


def ranking_figure(table: pd.DataFrame, title: str | None = None) -> Any:
    """Which detector has the best OIPR F1 at each ``(l_dis, l_obs)``, and by how much.

    Left: one F1 heat map per detector.  Right: the winner map, each cell
    coloured by its winning detector (grey for a tie) and labelled with the
    F1 margin over the runner-up.
    """
    plt = pyplot()
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    detectors = list(dict.fromkeys(table["detector"]))
    win = winners(table)
    _, l_dis, l_obs = _grid(table, detectors[0], "f1")
    n = len(detectors)
    palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf",
               "#bcbd22", "#7f7f7f"]
    colors = [palette[k % len(palette)] for k in range(n)] + ["#bbbbbb"]
    code = {name: k for k, name in enumerate(detectors)}
    code["tie"] = n
    codes = np.full((len(l_dis), len(l_obs)), n, dtype=float)
    margins = np.full_like(codes, np.nan)
    for row in win.itertuples(index=False):
        i, j = l_dis.index(int(row.l_dis)), l_obs.index(int(row.l_obs))
        codes[i, j] = code[row.winner]
        margins[i, j] = row.margin

    cell_w = max(2.6, min(4.6, 0.3 * len(l_obs) + 0.8))
    cell_h = max(2.2, min(4.0, 0.25 * len(l_dis) + 1.0))
    fig, axes = plt.subplots(1, n + 1, figsize=((n + 1) * cell_w + 0.6, cell_h + 1.1), squeeze=False)
    image = None
    for k, det in enumerate(detectors):
        values, _, _ = _grid(table, det, "f1")
        ax = axes[0, k]
        image = ax.imshow(values, origin="lower", aspect="auto", cmap="viridis", vmin=0.0, vmax=1.0, interpolation="nearest")
        _axes_ticks(ax, l_dis, l_obs, 7)
        _mark_setting(ax, l_dis, l_obs)
        ax.set_title(f"F1: {det}", fontsize=9, color=colors[k])
    ax = axes[0, n]
    ax.imshow(codes, origin="lower", aspect="auto", cmap=ListedColormap(colors), vmin=-0.5, vmax=n + 0.5,
              interpolation="nearest")
    if codes.size <= 160:
        for i in range(codes.shape[0]):
            for j in range(codes.shape[1]):
                if np.isfinite(margins[i, j]) and codes[i, j] != n:
                    ax.text(j, i, f"+{margins[i, j]:.3f}".replace("0.", ".", 1), ha="center", va="center", fontsize=5.5, color="white")
    _axes_ticks(ax, l_dis, l_obs, 7)
    _mark_setting(ax, l_dis, l_obs)
    ax.set_title("best F1 (cell: margin over runner-up)", fontsize=9)
    handles = [Patch(color=colors[k], label=det) for k, det in enumerate(detectors)]
    if (codes == n).any():
        handles.append(Patch(color=colors[n], label="tie"))
    ax.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    row0 = table.iloc[0]
    sup = title or "OIPR ranking sweep"
    fig.suptitle(f"{sup}  (b_dur={row0['b_dur']:g}, {row0['attenuation']} attenuation{_setting_note(l_dis, l_obs)})",
                 fontsize=10, x=0.01, ha="left")
    fig.tight_layout(rect=(0, 0.1, 1, 0.93))
    cax = fig.add_axes((0.06, 0.03, 0.3, 0.025))
    bar = fig.colorbar(image, cax=cax, orientation="horizontal")
    bar.ax.tick_params(labelsize=7)
    bar.set_label("OIPR F1", fontsize=8)
    return fig


def _setting_note(l_dis: list[int], l_obs: list[int]) -> str:
    d, o = PAPER_SETTING
    return f"; square: l_dis={d}, l_obs={o}" if d in l_dis and o in l_obs else ""
