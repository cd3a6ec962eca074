"""The real-data picture: each metric's ranks of the detectors, and the metrics' rank agreement.

Top: a detectors x metrics grid of ranks (1 = best, darker), the baselines ``random`` and ``null``
marked.  Below: Kendall's tau-b between every pair of metrics, each cell with its 95 %
cluster-bootstrap interval.  The input is the plain data of
:func:`oipr_bench.realdata.render.to_dict` (this module does not import :mod:`oipr_bench.realdata`:
the two packages sit side by side in layer 6).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from ._mpl import format_from_suffix, pyplot, save_figure

__all__ = ["require_matplotlib", "format_from_suffix", "realdata_figure", "draw_realdata"]


def require_matplotlib() -> None:
    """Raise :class:`~oipr_bench.plots._mpl.PlotDependencyError` (one line, exit 2) when matplotlib is missing."""
    pyplot()


def _rank_grid(data: Mapping[str, Any]) -> tuple[list[str], list[str], np.ndarray]:
    detectors = list(data["detectors"])
    metrics = [r["metric"] for r in data["rankings"]]
    ranks = np.zeros((len(detectors), len(metrics)))
    for j, ranking in enumerate(data["rankings"]):
        for s in ranking["standings"]:
            ranks[detectors.index(s["detector"]), j] = s["rank"]
    return detectors, metrics, ranks


def realdata_figure(data: Mapping[str, Any]) -> Any:
    """The two-panel figure of a real-data result (``to_dict`` form)."""
    plt = pyplot()
    detectors, metrics, ranks = _rank_grid(data)
    agreement = data["agreement"]
    tau = np.array([[np.nan if x is None else x for x in row] for row in agreement["tau"]], dtype=float)
    low = agreement["low"]
    high = agreement["high"]
    m, d = len(metrics), len(detectors)
    fig, (left, right) = plt.subplots(2, 1, figsize=(3 + 0.8 * m, 2.5 + 0.32 * d + 0.55 * m),
                                      gridspec_kw={"height_ratios": [0.32 * d, 0.55 * m]})
    left.imshow(ranks, cmap="Blues_r", vmin=1, vmax=max(d, 2), aspect="auto")
    for i in range(d):
        for j in range(m):
            left.text(j, i, f"{int(ranks[i, j])}", ha="center", va="center", fontsize=7,
                      color="white" if ranks[i, j] <= d / 3 else "black")
    left.set_xticks(range(m), metrics, rotation=60, ha="right", fontsize=7)
    left.set_yticks(range(d), [f"{x} (baseline)" if x in ("random", "null") else x for x in detectors], fontsize=7)
    left.set_title("rank of each detector (1 = best)", fontsize=9)
    right.imshow(tau, cmap="RdBu", vmin=-1, vmax=1, aspect="auto")
    for i in range(m):
        for j in range(m):
            if i == j:
                continue
            lo, hi = low[i][j], high[i][j]
            text = "nan" if tau[i, j] != tau[i, j] else f"{tau[i, j]:.2f}"
            if lo is not None and hi is not None:
                text += f"\n[{lo:.2f},{hi:.2f}]"
            right.text(j, i, text, ha="center", va="center", fontsize=6,
                       color="white" if abs(tau[i, j]) > 0.6 else "black")
    right.set_xticks(range(m), metrics, rotation=60, ha="right", fontsize=7)
    right.set_yticks(range(m), metrics, fontsize=7)
    protocol = data.get("protocol", {})
    right.set_title(f"Kendall's tau-b over detectors [95 % interval, {protocol.get('resamples', '?')} resamples "
                    f"of the series]", fontsize=9)
    oracle = " (ORACLE thresholds)" if protocol.get("oracle") else ""
    fig.suptitle(f"NAB: {d} detectors on {len(data['series'])} series{oracle}", fontsize=10)
    return fig


def draw_realdata(data: Mapping[str, Any], path: str | os.PathLike[str]) -> Path:
    """Write :func:`realdata_figure` to ``path`` (.png or .svg, atomically)."""
    fmt = format_from_suffix(path)
    return save_figure(realdata_figure(data), path, fmt)
