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
from typing import Iterator

import numpy as np

from ..guards import clip, describe_exception, regular_file_problem
from ..io import note_input
from .arrayfiles import MAX_POINTS, SeriesFileError, SquareArrayWarning, binary_column, read_npy, read_npz

__all__ = ["SeriesFileError", "SquareArrayWarning", "UserSeries", "read_series", "SUFFIXES", "GT_NAMES", "MAX_POINTS"]

#: File suffixes :func:`read_series` understands.
SUFFIXES: tuple[str, ...] = (".csv", ".npy", ".npz")
#: Accepted names of the ground-truth column (case-insensitive).
GT_NAMES: tuple[str, ...] = ("gt", "y_true")

#: Largest CSV file read: 64 MiB (about 16 million rows of ``gt,pred``).
MAX_CSV_BYTES = 64 * 2**20
#: CSV rows checked and parsed at a time (bounds what reading a CSV file holds besides the 0/1 columns).
CSV_CHUNK_ROWS = 1 << 14

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
            return _csv_columns(p, csv.reader(fh))
    except UnicodeDecodeError:
        raise SeriesFileError(p, "is not a UTF-8 text CSV file") from None
    except csv.Error as exc:
        raise SeriesFileError(p, f"is not valid CSV ({exc})") from None


def _csv_columns(p: Path, reader: Iterator[list[str]]) -> list[tuple[str, np.ndarray]]:
    """The header, then the rows :data:`CSV_CHUNK_ROWS` at a time, each chunk checked and parsed to 0/1.

    Only the 0/1 columns and one chunk of rows are ever held (the
    rows of a 64 MiB file held whole once took 2.3 GB).  Trailing blank lines are
    harmless; a blank line followed by data is an error, so of a run of blank
    lines only the first is kept, to be reported.
    """
    header = next(reader, [])
    if not any(cell.strip() for cell in header):
        if any(any(cell.strip() for cell in row) for row in reader):
            raise SeriesFileError(p, "line 1 (the header row) is blank")
        raise SeriesFileError(p, "is empty (expected a header row such as gt,pred and one row per time point)")
    header = _csv_header(p, header)
    parts: list[list[np.ndarray]] = [[] for _ in header]
    chunk: list[list[str]] = []
    lines: list[int] = []
    blank: tuple[int, list[str]] | None = None
    for line, row in enumerate(reader, start=2):  # 1-based line numbers; the header is line 1
        if not any(cell.strip() for cell in row):
            blank = blank or (line, row)
            continue
        if blank is not None:  # a blank line in the middle: kept, so that it is reported
            lines.append(blank[0])
            chunk.append(blank[1])
            blank = None
        lines.append(line)
        chunk.append(row)
        if len(chunk) >= CSV_CHUNK_ROWS:
            _parse_chunk(p, header, chunk, lines, parts)
            chunk, lines = [], []
    if chunk:
        _parse_chunk(p, header, chunk, lines, parts)
    if not parts[0]:
        raise SeriesFileError(p, "has a header but no data rows")
    return [(name, np.concatenate(part)) for name, part in zip(header, parts)]


def _csv_header(p: Path, row: list[str]) -> list[str]:
    header = [cell.strip() for cell in row]
    if any(not name for name in header):
        raise SeriesFileError(p, f"header row has an empty column name: {clip(','.join(header), 200)!r}")
    seen: set[str] = set()
    for name in header:
        if name.lower() in seen:
            raise SeriesFileError(p, f"header row repeats the column name {clip(name.lower(), 200)!r}")
        seen.add(name.lower())
    return header


def _parse_chunk(p: Path, header: list[str], chunk: list[list[str]], lines: list[int],
                 parts: list[list[np.ndarray]]) -> None:
    """Check the rows of one chunk (width, blank) and append each column's 0/1 values to ``parts``."""
    width = len(header)
    for line, row in zip(lines, chunk):
        if len(row) != width:
            if not row:
                raise SeriesFileError(p, f"line {line} is blank (blank lines are only allowed at the end)")
            raise SeriesFileError(p, f"line {line} has {len(row)} field(s), the header has {width} (ragged row)")
    cells = np.array(chunk, dtype=str)
    for j, name in enumerate(header):
        parts[j].append(_parse_cells(p, name, cells[:, j], lines))


def _parse_cells(p: Path, name: str, cells: np.ndarray, lines: list[int]) -> np.ndarray:
    """Map CSV text cells of one column to 0/1, naming the first bad cell (``lines``: each cell's line)."""
    text = np.char.lower(np.char.strip(cells))
    ones = np.isin(text, list(_TRUE_WORDS))
    zeros = np.isin(text, list(_FALSE_WORDS))
    bad = ~(ones | zeros)
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        value = str(cells[k]).strip()
        line = lines[k]
        if value == "":
            raise SeriesFileError(p, f"column {name!r}, line {line}: missing value")
        if value.lower() in {"nan", "na", "n/a", "null", "none"}:
            raise SeriesFileError(p, f"column {name!r}, line {line}: NaN/missing value {clip(value, 200)!r}")
        raise SeriesFileError(p, f"column {name!r}, line {line}: value {clip(value, 200)!r} is not binary (0 or 1)")
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
