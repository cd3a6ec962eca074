"""A progress bar for long runs (the atlas's rows and cells, a real-data run, a differential run), drawn by tqdm.

:func:`progress_bar` is the one helper every long command calls::

    with progress_bar(total=len(cells), unit="cell", desc="realdata", quiet=args.quiet) as bar:
        for ...:
            bar.update(1)

It shows items done, the rate (items per second) and the time left, on stderr; it draws nothing
when ``quiet`` is set or stderr is not a terminal (a log file, CI, a pipe), so no output or
transcript changes.  Items found already done (a result cache's hits) are counted with
``bar.update(n)`` before the run starts, so the rate and the time left are those of the work left.
Items that will not run after all (the cases after the first difference of a differential family)
are taken off the total with :func:`drop_from_total`, so the bar ends full and the time left stays honest.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

__all__ = ["progress_bar", "draws", "drop_from_total"]


def draws(quiet: bool = False, stream: TextIO | None = None) -> bool:
    """True when a bar is drawn: not ``quiet`` and ``stream`` (default stderr) is a terminal."""
    stream = sys.stderr if stream is None else stream
    return not quiet and bool(getattr(stream, "isatty", lambda: False)())


def progress_bar(total: int, unit: str = "row", desc: str = "", quiet: bool = False, stream: TextIO | None = None) -> Any:
    """A ``tqdm`` bar over ``total`` items of ``unit`` (a context manager with ``update(n)``), disabled unless :func:`draws`."""
    from tqdm import tqdm

    stream = sys.stderr if stream is None else stream
    return tqdm(total=total, unit=unit, desc=desc or None, file=stream, disable=not draws(quiet, stream),
                dynamic_ncols=True, smoothing=0.1)


def drop_from_total(bar: Any, n: int) -> None:
    """Take ``n`` items that will not run off ``bar``'s total (a bar of :func:`progress_bar`, drawn or not)."""
    if n > 0 and bar.total is not None:
        bar.total = max(bar.total - n, bar.n)
        bar.refresh()
