"""Read a user's own series: a ground truth and one or more predictions.

Accepted files (chosen by suffix)
---------------------------------
``.csv``
    Comma-separated with a header row, as the OIPR authors publish their
    scenario data: a ground-truth column named ``gt`` (or ``y_true``) and one
    or more prediction columns; ``pred`` is the usual single one, any other
    names (``pred1,pred2`` or detector names) are several detectors on the
    same ground truth, kept in file order.  Values are ``0``/``1`` (``0.0``,
    ``1.0``, ``true``, ``false`` are read too).
``.npy``
    A 2-D numeric or boolean array holding the ground truth and predictions
    as rows (shape ``(1 + k, T)``) or as columns (shape ``(T, 1 + k)``); the
    shorter axis indexes the series (rows when both are equal) and the first
    series is the ground truth.  Predictions are named ``pred`` (one) or
    ``pred1 .. predk``.  A structured array with named fields is read like the
    CSV columns.
``.npz``
    An archive with 1-D arrays: ``gt`` (or ``y_true``) and the predictions,
    in the archive's order.

Every problem (missing file or column, ragged row, empty series, NaN,
non-binary value, length mismatch) raises :class:`SeriesFileError` whose
one-line message names the file, where in it, and what is wrong.  Pickled
objects are never loaded.  Only regular files are read (a FIFO, a device, a
dangling symlink or a symlink loop is refused without blocking); a .npy
header or .npz member is checked against the bytes really present and
against :data:`MAX_POINTS` before anything is allocated, and a CSV file
against :data:`MAX_CSV_BYTES`.  The ``.npy``/``.npz`` formats are read by
:mod:`oipr_bench.scenarios.arrayfiles`.
"""

from __future__ import annotations

import csv
import os
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..guards import describe_exception, regular_file_problem
from ..io import note_input
from .arrayfiles import MAX_POINTS, SeriesFileError, SquareArrayWarning, binary_column, read_npy, read_npz

__all__ = ["SeriesFileError", "SquareArrayWarning", "UserSeries", "read_series", "SUFFIXES", "GT_NAMES", "MAX_POINTS"]

#: File suffixes :func:`read_series` understands.
SUFFIXES: tuple[str, ...] = (".csv", ".npy", ".npz")
#: Accepted names of the ground-truth column (case-insensitive).
GT_NAMES: tuple[str, ...] = ("gt", "y_true")

#: Largest CSV file read: 64 MiB (about 16 million rows of ``gt,pred``).
MAX_CSV_BYTES = 64 * 2**20

_TRUE_WORDS = {"1", "1.0", "true"}
_FALSE_WORDS = {"0", "0.0", "false", "-0", "-0.0"}


@dataclass(frozen=True)
class UserSeries:
    """A ground truth and the named predictions made on it.

    Attributes
    ----------
    y_true : ndarray of int8, shape (T,)
        Ground truth labels.
    predictions : dict of str to ndarray of int8
        Prediction name -> series of the same length, in file order.
    source : str
        The file they were read from.
    """

    y_true: np.ndarray
    predictions: dict[str, np.ndarray]
    source: str

    @property
    def length(self) -> int:
        """Series length ``T``."""
        return int(self.y_true.shape[0])

    @property
    def names(self) -> list[str]:
        """Prediction names in file order."""
        return list(self.predictions)

    @property
    def y_pred(self) -> np.ndarray:
        """The first prediction (the only one in a gt,pred file)."""
        return next(iter(self.predictions.values()))


def read_series(path: str | os.PathLike[str]) -> UserSeries:
    """Read a ground truth and its predictions from a ``.csv``, ``.npy`` or ``.npz`` file.

    Parameters
    ----------
    path : path
        The file; its suffix selects the format (see the module docstring).

    Returns
    -------
    UserSeries

    Raises
    ------
    SeriesFileError
        Anything malformed, with a one-line message naming the file.
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in SUFFIXES:
        raise SeriesFileError(p, f"unsupported file type {suffix or '(no suffix)'!r}; use .csv (gt,pred columns), .npy or .npz")
    problem = regular_file_problem(p)
    if problem:
        raise SeriesFileError(p, problem)
    note_input(p, "the input series")
    reader = {".csv": _read_csv, ".npy": read_npy, ".npz": read_npz}[suffix]
    try:
        columns = reader(p)
        return _assemble(p, columns)
    except SeriesFileError:
        raise
    except (ValueError, TypeError, OSError, EOFError, zipfile.BadZipFile) as exc:  # anything a format library raises
        raise SeriesFileError(p, f"cannot be read ({describe_exception(exc)})") from None


# ---------------------------------------------------------------------------
# Formats -> ordered (name, raw 1-D array) columns
# ---------------------------------------------------------------------------


def _read_csv(p: Path) -> list[tuple[str, np.ndarray]]:
    size = p.stat().st_size
    if size > MAX_CSV_BYTES:
        raise SeriesFileError(p, f"is {size} bytes; CSV files are read up to {MAX_CSV_BYTES} bytes (use .npy for longer series)")
    try:
        with open(p, newline="", encoding="utf-8-sig") as fh:
            rows = [row for row in csv.reader(fh)]
    except UnicodeDecodeError:
        raise SeriesFileError(p, "is not a UTF-8 text CSV file") from None
    except csv.Error as exc:
        raise SeriesFileError(p, f"is not valid CSV ({exc})") from None
    # Trailing blank lines are harmless; blank lines in the middle are not.
    while rows and not any(cell.strip() for cell in rows[-1]):
        rows.pop()
    if not rows:
        raise SeriesFileError(p, "is empty (expected a header row such as gt,pred and one row per time point)")
    header = [cell.strip() for cell in rows[0]]
    body = rows[1:]
    if any(not name for name in header):
        raise SeriesFileError(p, f"header row has an empty column name: {','.join(header)!r}")
    lowered = [name.lower() for name in header]
    dupes = sorted({name for name in lowered if lowered.count(name) > 1})
    if dupes:
        raise SeriesFileError(p, f"header row repeats the column name {dupes[0]!r}")
    if not body:
        raise SeriesFileError(p, "has a header but no data rows")
    width = len(header)
    for k, row in enumerate(body):
        if len(row) != width:
            # Line numbers are 1-based and count the header.
            if not row:
                raise SeriesFileError(p, f"line {k + 2} is blank (blank lines are only allowed at the end)")
            raise SeriesFileError(p, f"line {k + 2} has {len(row)} field(s), the header has {width} (ragged row)")
    cells = np.array(body, dtype=str)
    columns = []
    for j, name in enumerate(header):
        columns.append((name, _parse_cells(p, name, cells[:, j])))
    return columns


def _parse_cells(p: Path, name: str, cells: np.ndarray) -> np.ndarray:
    """Map CSV text cells of one column to 0/1, naming the first bad cell."""
    text = np.char.lower(np.char.strip(cells))
    ones = np.isin(text, list(_TRUE_WORDS))
    zeros = np.isin(text, list(_FALSE_WORDS))
    bad = ~(ones | zeros)
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        value = str(cells[k]).strip()
        line = k + 2
        if value == "":
            raise SeriesFileError(p, f"column {name!r}, line {line}: missing value")
        if value.lower() in {"nan", "na", "n/a", "null", "none"}:
            raise SeriesFileError(p, f"column {name!r}, line {line}: NaN/missing value {value!r}")
        raise SeriesFileError(p, f"column {name!r}, line {line}: value {value!r} is not binary (0 or 1)")
    return ones.astype(np.int8)


# ---------------------------------------------------------------------------
# Validation shared by every format
# ---------------------------------------------------------------------------


def _assemble(p: Path, columns: list[tuple[str, np.ndarray]]) -> UserSeries:
    names = [name for name, _ in columns]
    gt_index = next((k for k, name in enumerate(names) if name.lower() in GT_NAMES), None)
    if gt_index is None:
        raise SeriesFileError(p, f"no ground-truth column: expected one named gt (or y_true); found {', '.join(names) or 'none'}")
    if len(columns) < 2:
        raise SeriesFileError(p, "no prediction column: expected gt plus at least one column such as pred")
    lengths = {name: int(arr.shape[0]) for name, arr in columns}
    if lengths[names[gt_index]] == 0:
        raise SeriesFileError(p, "is empty (the series have no points)")
    if len(set(lengths.values())) > 1:
        detail = ", ".join(f"{name}={n}" for name, n in lengths.items())
        raise SeriesFileError(p, f"series differ in length ({detail})")
    y_true = binary_column(p, names[gt_index], columns[gt_index][1])
    predictions = {name: binary_column(p, name, arr) for k, (name, arr) in enumerate(columns) if k != gt_index}
    return UserSeries(y_true=y_true, predictions=predictions, source=os.fspath(p))
