"""Lazy, headless matplotlib access shared by every picture of oipr-bench.

matplotlib is an optional extra (``pip install 'oipr-bench[plot]'``).  Nothing
in :mod:`oipr_bench` imports it at import time; :func:`pyplot` imports it on
first use, forces the non-interactive Agg backend and raises
:class:`PlotDependencyError` (a :class:`~oipr_bench.errors.UsageError`, so the
command line prints one line and exits 2) when it is missing.

Figures are rendered to bytes with fixed metadata (no creation date, no
software stamp, a fixed SVG hash salt), so the same input gives the same file,
and written with :func:`oipr_bench.io.atomic_write_bytes`.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..io import atomic_write_bytes

__all__ = [
    "PlotDependencyError",
    "INSTALL_HINT",
    "COLORS",
    "FORMATS",
    "pyplot",
    "format_from_suffix",
    "figure_bytes",
    "save_figure",
]

INSTALL_HINT = "pictures need matplotlib, which is not installed: run pip install 'oipr-bench[plot]'"

#: Output formats a picture can be written in, by file suffix.
FORMATS: tuple[str, ...] = ("png", "svg")

#: Colours used by every picture (the paper's Fig. A: ground truth red, prediction blue).
COLORS: dict[str, str] = {
    "gt": "#d62728",
    "pred": "#1f5fbf",
    "tp": "#2ca02c",
    "fp": "#1f77b4",
    "fn": "#d62728",
    "grid": "#dddddd",
    "text": "#333333",
}


class PlotDependencyError(UsageError, ImportError):
    """matplotlib (the ``plot`` extra) is not installed."""


_PYPLOT: Any = None


def pyplot() -> Any:
    """Import ``matplotlib.pyplot`` with the Agg backend and return it.

    Raises
    ------
    PlotDependencyError
        When matplotlib cannot be imported; the message is one line telling
        how to install it.
    """
    global _PYPLOT
    if _PYPLOT is not None:
        return _PYPLOT
    try:
        import matplotlib
    except ImportError:
        raise PlotDependencyError(INSTALL_HINT) from None
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    _PYPLOT = plt
    return plt


def format_from_suffix(path: str | os.PathLike[str]) -> str:
    """Return ``"png"`` or ``"svg"`` from the suffix of ``path``.

    Raises
    ------
    UsageError
        Any other suffix (one line naming the file and the accepted suffixes).
    """
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        shown = f"'.{suffix}'" if suffix else "no suffix"
        raise UsageError(f"{os.fspath(path)}: output format follows the file suffix, which must be .png or .svg (got {shown})")
    return suffix


def figure_bytes(fig: Any, fmt: str, dpi: int = 110) -> bytes:
    """Render ``fig`` as PNG or SVG bytes with reproducible metadata, then close it."""
    plt = pyplot()
    if fmt not in FORMATS:
        raise UsageError(f"unknown picture format {fmt!r}; use png or svg")
    metadata: dict[str, Any] = {"Software": None} if fmt == "png" else {"Date": None, "Creator": None}
    buf = io.BytesIO()
    try:
        with plt.rc_context({"svg.hashsalt": "oipr-bench", "svg.fonttype": "none"}):
            fig.savefig(buf, format=fmt, dpi=dpi, metadata=metadata, bbox_inches="tight", pad_inches=0.08)
    finally:
        plt.close(fig)
    return buf.getvalue()


def save_figure(fig: Any, path: str | os.PathLike[str], fmt: str | None = None, dpi: int = 110) -> Path:
    """Write ``fig`` to ``path`` atomically; the format follows the suffix unless given."""
    fmt = fmt or format_from_suffix(path)
    return atomic_write_bytes(path, figure_bytes(fig, fmt, dpi=dpi))
