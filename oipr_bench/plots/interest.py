"""Operator-interest curves with their TP, FP and FN areas (the paper's Figs. 3-5).

The picture shows, over the time axis ``0 .. T + l_obs``:

* a strip with the ground-truth events (red) and the predicted events (blue);
* the ground truth's interest curve ``I`` (red) and the prediction's ``I_hat``
  (blue) from Algorithm 1, drawn as steps because AUC is the plain sum of the
  per-point values (each point ``t`` covers ``[t, t + 1)``);
* the areas of eqs. (5), (6) and (8): ``TP_oi`` = area under
  ``min(I, I_hat)`` (green), ``FP_oi`` = area where ``I_hat`` exceeds ``I``
  (blue hatch), ``FN_oi`` = area where ``I`` exceeds ``I_hat`` (red hatch);
* the series end ``T`` (the observation tail runs past it).

The numbers come from :class:`oipr_bench.evaluators.oipr.OIPR`, so the
picture always shows what the evaluator computes.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ..evaluators import Score
from ..evaluators.oipr import OIPR
from ..scenarios.events import to_events
from ._mpl import COLORS, pyplot

__all__ = ["InterestData", "compute_interest", "auto_window", "interest_figure", "interest_title"]


class InterestData(NamedTuple):
    """Everything an interest-curve picture shows.

    Attributes
    ----------
    y_true, y_pred : ndarray of int8, shape (T,)
    curve_true, curve_pred : ndarray of float64, shape (T + l_obs,)
        ``I`` and ``I_hat`` (Algorithm 1).
    tp, fp, fn : float
        ``TP_oi``, ``FP_oi``, ``FN_oi`` (eqs. 5, 6, 8).
    score : Score
        OIPR precision, recall and F1 (eqs. 7, 9).
    params : dict
        The parameters in force, with "auto" lengths resolved.
    """

    y_true: np.ndarray
    y_pred: np.ndarray
    curve_true: np.ndarray
    curve_pred: np.ndarray
    tp: float
    fp: float
    fn: float
    score: Score
    params: dict[str, Any]


def compute_interest(y_true: Any, y_pred: Any, l_dis: int | str = 5, l_obs: int | str = 20,
                     b_dur: float = 0.5, attenuation: str = "sigmoid", auto_rule: str = "paper") -> InterestData:
    """Interest curves, areas and score of one ``(y_true, y_pred)`` pair.

    Parameters are those of :class:`~oipr_bench.evaluators.oipr.OIPR` (the
    special-scenario setting by default); invalid ones raise its
    ``ValueError``/``TypeError`` naming the parameter.
    """
    evaluator = OIPR(l_dis=l_dis, l_obs=l_obs, b_dur=b_dur, attenuation=attenuation, auto_rule=auto_rule)
    areas = evaluator.areas(y_true, y_pred)
    score = evaluator(y_true, y_pred)
    r_dis, r_obs = evaluator.resolve_params(y_true)
    params = {"l_dis": r_dis, "l_obs": r_obs, "b_dur": evaluator.b_dur, "attenuation": evaluator.attenuation}
    t = np.asarray(y_true).astype(np.int8)
    p = np.asarray(y_pred).astype(np.int8)
    return InterestData(t, p, areas.curve_true, areas.curve_pred, areas.tp, areas.fp, areas.fn, score, params)


def auto_window(data: InterestData, pad_fraction: float = 0.08, min_pad: int = 5) -> tuple[int, int]:
    """The ``[start, end)`` span where either curve is non-zero, padded on both sides.

    The whole axis ``[0, T + l_obs)`` when both curves are zero.
    """
    n = int(data.curve_true.shape[0])
    nz = np.flatnonzero((data.curve_true > 0) | (data.curve_pred > 0))
    if nz.size == 0:
        return 0, n
    lo, hi = int(nz[0]), int(nz[-1]) + 1
    pad = max(min_pad, int(round(pad_fraction * (hi - lo))))
    return max(0, lo - pad), min(n, hi + pad)


#: Most steps drawn per curve (far more than a picture has pixels across): a wider window is drawn
#: from each curve's maximum over equal bins, so ``l_obs`` at its cap (10^7) is not 10^7 steps.
MAX_DRAWN_STEPS = 4000


def _drawn(curve: np.ndarray, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """x and y of a post-step drawing of ``curve[lo:hi]``, where point t spans ``[t, t + 1)``.

    Beyond :data:`MAX_DRAWN_STEPS` points, each step is a bin of ``k`` points at
    the bin's maximum (the curves are >= 0, so the last bin is padded with 0):
    a peak is never lost, and the areas are the computed numbers of the legend.
    """
    part = curve[lo:hi]
    n = int(part.shape[0])
    if n <= MAX_DRAWN_STEPS:
        return np.arange(lo, hi + 1, dtype=float), np.append(part, part[-1] if n else 0.0)
    k = -(-n // MAX_DRAWN_STEPS)
    peaks = np.pad(part, (0, -n % k)).reshape(-1, k).max(axis=1)
    x = np.append(np.arange(lo, hi, k, dtype=float), float(hi))
    return x, np.append(peaks, peaks[-1])


def _post_mask(mask: np.ndarray) -> np.ndarray:
    """Widen a ``where`` mask for ``step="post"`` fills so each step is filled to its right edge.

    With ``step="post"`` the step of point t spans ``[t, t + 1)``; matplotlib ends a
    masked region at the last True x, which would leave the last step of every
    region unfilled.  Including the x right after each True point closes it (the
    fill there has zero height, because the two curves meet).
    """
    widened = mask.copy()
    widened[1:] |= mask[:-1]
    return widened


def interest_title(source_title: str, label: str) -> str:
    """The first title line: the prediction's label, prefixed by the source only when it adds something.

    ``("random_detector/c1", "random_detector/c1 (run 1 of 100)")`` gives the label alone;
    ``("mine.csv", "pred")`` gives ``"mine.csv: pred"``.
    """
    return label if label.startswith(source_title) else f"{source_title}: {label}"


def _draw_event_strip(ax_ev: Any, data: InterestData) -> None:
    """The strip above the curves: ground-truth and predicted events as bars."""
    for row, (y, role) in enumerate(((data.y_true, "gt"), (data.y_pred, "pred"))):
        starts, ends = to_events(y)
        spans = list(zip(starts.tolist(), (ends - starts).tolist()))
        ax_ev.broken_barh(spans, (1 - row + 0.15, 0.7), facecolors=COLORS[role], edgecolors=COLORS[role], linewidth=0.6)
    ax_ev.set_ylim(0, 2)
    ax_ev.set_yticks([1.5, 0.5])
    ax_ev.set_yticklabels(["gt", "pred"], fontsize=8)
    for tick, role in zip(ax_ev.get_yticklabels(), ("gt", "pred")):
        tick.set_color(COLORS[role])
    ax_ev.tick_params(axis="y", length=0)
    ax_ev.tick_params(axis="x", bottom=False)
    for side in ("top", "right", "left"):
        ax_ev.spines[side].set_visible(False)


def interest_figure(data: InterestData, title: str | None = None, window: tuple[int, int] | None = None) -> Any:
    """Draw the interest curves of ``data`` with the TP/FP/FN areas shaded.

    Parameters
    ----------
    data : InterestData
        From :func:`compute_interest`.
    title : str, optional
        First title line (e.g. the case id or the input file name).
    window : (start, end), optional
        Time span to show; default :func:`auto_window`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    plt = pyplot()
    n = int(data.curve_true.shape[0])
    T = int(data.y_true.shape[0])
    lo, hi = window if window is not None else auto_window(data)
    if max(0, int(lo)) >= min(n, int(hi)):
        raise ValueError(f"window [{lo}, {hi}) shows nothing: the curves span [0, {n}) (T + l_obs)")
    lo, hi = max(0, int(lo)), min(n, int(hi))

    fig, (ax_ev, ax) = plt.subplots(2, 1, figsize=(8.0, 4.3), sharex=True,
                                    gridspec_kw={"height_ratios": [0.9, 4.0], "hspace": 0.08})
    _draw_event_strip(ax_ev, data)

    # Curves and areas.
    x, yt = _drawn(data.curve_true, lo, hi)
    _, yp = _drawn(data.curve_pred, lo, hi)
    low = np.minimum(yt, yp)
    ax.fill_between(x, 0, low, step="post", color=COLORS["tp"], alpha=0.35, linewidth=0,
                    label=f"TP area = {data.tp:.3f}")
    ax.fill_between(x, low, yp, where=_post_mask(yp > low), step="post", facecolor=COLORS["fp"], alpha=0.18,
                    edgecolor=COLORS["fp"], hatch="////", linewidth=0, label=f"FP area = {data.fp:.3f}")
    ax.fill_between(x, low, yt, where=_post_mask(yt > low), step="post", facecolor=COLORS["fn"], alpha=0.15,
                    edgecolor=COLORS["fn"], hatch="\\\\\\\\", linewidth=0, label=f"FN area = {data.fn:.3f}")
    ax.step(x, yt, where="post", color=COLORS["gt"], linewidth=1.6, label="I (ground truth)")
    ax.step(x, yp, where="post", color=COLORS["pred"], linewidth=1.2, linestyle="--", label="Î (prediction)")
    if data.params["l_obs"] > 0 and lo <= T <= hi:
        ax.axvline(T, color="#777777", linewidth=0.8, linestyle=":")
        ax.annotate("series end T", (T, 1.08), fontsize=7, color="#555555", ha="right",
                    xytext=(-3, 0), textcoords="offset points")
    ax.set_xlim(lo, hi)
    ax.set_ylim(0, 1.15)
    ax.set_ylabel("operator interest", fontsize=9)
    ax.set_xlabel("time index t", fontsize=9)
    ax.tick_params(labelsize=8)
    ax.grid(axis="y", color=COLORS["grid"], linewidth=0.5)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    # Below the time axis, in one row: inside the axes it would hide curves and the "series end T" label.
    ax.legend(fontsize=7.5, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=5, frameon=False,
              handlelength=1.6, columnspacing=1.2)

    prm = data.params
    s = data.score
    line1 = title or "OIPR operator-interest curves"
    line2 = (f"l_dis={prm['l_dis']}, l_obs={prm['l_obs']}, b_dur={prm['b_dur']:g}, {prm['attenuation']} attenuation   "
             f"P={s.precision:.4f}  R={s.recall:.4f}  F1={s.f1:.4f}")
    ax_ev.set_title(f"{line1}\n{line2}", fontsize=9, loc="left")
    return fig
