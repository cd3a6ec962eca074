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
against :data:`MAX_CSV_BYTES`.
"""

from __future__ import annotations

import csv
import io
import os
import warnings
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import numpy as np

from ..errors import UsageError
from ..guards import clip, describe_exception, regular_file_problem
from ..io import note_input

__all__ = ["SeriesFileError", "UserSeries", "read_series", "SUFFIXES", "GT_NAMES"]

#: File suffixes :func:`read_series` understands.
SUFFIXES: tuple[str, ...] = (".csv", ".npy", ".npz")
#: Accepted names of the ground-truth column (case-insensitive).
GT_NAMES: tuple[str, ...] = ("gt", "y_true")

#: Most values (all series of one file together) a .npy/.npz file may declare: 10^8.
MAX_POINTS = 100_000_000
#: Largest CSV file read: 64 MiB (about 16 million rows of ``gt,pred``).
MAX_CSV_BYTES = 64 * 2**20

_TRUE_WORDS = {"1", "1.0", "true"}
_FALSE_WORDS = {"0", "0.0", "false", "-0", "-0.0"}


class SeriesFileError(UsageError, ValueError):
    """A user series file cannot be read; ``str()`` is ``"<file>: <problem>"``."""

    def __init__(self, file: str | os.PathLike[str], message: str) -> None:
        self.file = os.fspath(file)
        self.message = message
        super().__init__(f"{self.file}: {message}")


class SquareArrayWarning(UserWarning):
    """A square 2-D ``.npy`` could hold its series as rows or as columns; it is read as rows."""


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
    reader = {".csv": _read_csv, ".npy": _read_npy, ".npz": _read_npz}[suffix]
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


def _magic(p: Path, n: int) -> bytes:
    with open(p, "rb") as fh:
        return fh.read(n)


def _check_header(fh: BinaryIO, available: int, where: str) -> int:
    """Read a .npy header from ``fh`` and check it before any array is allocated.

    ``available`` is the number of bytes the file (or archive member) really
    holds.  Returns the number of elements declared.

    Raises
    ------
    ValueError
        Not a .npy header, an object dtype, or a declared size larger than
        the data present or than :data:`MAX_POINTS`.
    """
    from numpy.lib import format as npformat

    version = npformat.read_magic(fh)
    if version == (1, 0):
        shape, _, dtype = npformat.read_array_header_1_0(fh)
    elif version == (2, 0):
        shape, _, dtype = npformat.read_array_header_2_0(fh)
    else:
        raise ValueError(f"{where}: unsupported .npy format version {version}")
    if dtype.hasobject:
        raise ValueError(f"{where}: holds Python objects (pickled data is never loaded); save a numeric array")
    count = 1
    for n in shape:
        count *= int(n)
    need = count * dtype.itemsize
    have = available - fh.tell()
    if count > MAX_POINTS:
        raise ValueError(f"{where}: declares shape {shape}, {count} values, more than the limit of {MAX_POINTS}")
    if need > have:
        raise ValueError(f"{where}: header declares shape {shape} ({need} bytes) but only {have} bytes of data follow")
    return count


def _load_npy(p: Path) -> np.ndarray:
    if _magic(p, 6) != b"\x93NUMPY":
        raise SeriesFileError(p, "is not a .npy file (it lacks the NumPy header; save with numpy.save)")
    try:
        with open(p, "rb") as fh:
            _check_header(fh, os.fstat(fh.fileno()).st_size, "array")
        return np.load(p, allow_pickle=False)
    except ValueError as exc:
        if "allow_pickle" in str(exc):
            raise SeriesFileError(p, "holds Python objects (pickled data is never loaded); save a numeric array") from None
        raise SeriesFileError(p, f"is not a readable .npy file ({exc})") from None
    except (OSError, EOFError) as exc:
        raise SeriesFileError(p, f"is not a readable .npy file ({exc})") from None


def _read_npy(p: Path) -> list[tuple[str, np.ndarray]]:
    arr = _load_npy(p)
    if not isinstance(arr, np.ndarray):
        raise SeriesFileError(p, "is not a .npy array file")
    if arr.dtype.names:
        if arr.ndim != 1:
            raise SeriesFileError(p, f"structured array must be 1-D, got shape {arr.shape}")
        columns = [(name, arr[name]) for name in arr.dtype.names]
        for name, column in columns:
            if column.ndim != 1:
                raise SeriesFileError(p, f"field {name!r} holds {column.shape[1:]} values per row; each field must hold one 0/1 value")
        return columns
    if arr.ndim != 2:
        raise SeriesFileError(p, f"must be a 2-D array (2 x T rows or T x 2 columns: ground truth first), got shape {arr.shape}")
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise SeriesFileError(p, f"is empty (shape {arr.shape})")
    if arr.shape[0] == arr.shape[1]:  # rows or columns? the documented rule, said out loud
        warnings.warn(f"{p}: a square {arr.shape[0]} x {arr.shape[1]} array is read as rows (ground truth first, then "
                      "the predictions); save a .npz with named arrays (gt=..., pred=...) to be explicit",
                      SquareArrayWarning, stacklevel=2)
    series = arr if arr.shape[0] <= arr.shape[1] else arr.T
    if series.shape[0] < 2:
        raise SeriesFileError(p, f"needs a ground truth and at least one prediction, got shape {arr.shape}")
    k = series.shape[0] - 1
    names = ["gt"] + (["pred"] if k == 1 else [f"pred{i}" for i in range(1, k + 1)])
    return list(zip(names, list(series)))


def _npz_member(p: Path, zf: zipfile.ZipFile, info: zipfile.ZipInfo, budget: list[int]) -> tuple[str, np.ndarray]:
    """Check one archive member's declared size and header, then load it."""
    if not info.filename.endswith(".npy"):
        raise SeriesFileError(p, f"member {info.filename!r} is not a .npy array (save the archive with numpy.savez)")
    name = info.filename[:-4]
    if info.file_size > 8 * budget[0] + 4096:
        raise SeriesFileError(p, f"member {info.filename!r} is {info.file_size} bytes uncompressed, more than the "
                                 f"limit for {MAX_POINTS} values")
    try:
        with zf.open(info) as fh:
            budget[0] -= _check_header(fh, info.file_size, f"array {name!r}")
        arr = np.load(io.BytesIO(zf.read(info)), allow_pickle=False)
    except ValueError as exc:
        raise SeriesFileError(p, f"member {info.filename!r} is not a readable array ({exc})") from None
    if budget[0] < 0:
        raise SeriesFileError(p, f"the arrays hold more than the limit of {MAX_POINTS} values together")
    if arr.ndim != 1:
        raise SeriesFileError(p, f"array {name!r} must be 1-D, got shape {arr.shape}")
    return name, arr


def _read_npz(p: Path) -> list[tuple[str, np.ndarray]]:
    if _magic(p, 4) != b"PK\x03\x04":
        raise SeriesFileError(p, "is not a .npz archive (save with numpy.savez)")
    budget = [MAX_POINTS]
    try:
        with zipfile.ZipFile(p) as zf:
            members = [info for info in zf.infolist() if not info.is_dir()]
            names = [info.filename for info in members]
            twice = sorted({name for name in names if names.count(name) > 1})
            if twice:
                raise SeriesFileError(p, f"holds {len(twice)} member name(s) twice ({clip(', '.join(twice), 120)}); "
                                         "which one is meant cannot be told")
            return [_npz_member(p, zf, info, budget) for info in members]
    except (OSError, EOFError, zipfile.BadZipFile, NotImplementedError) as exc:
        raise SeriesFileError(p, f"is not a readable .npz archive ({exc})") from None


# ---------------------------------------------------------------------------
# Validation shared by every format
# ---------------------------------------------------------------------------


def _binary(p: Path, name: str, arr: np.ndarray) -> np.ndarray:
    """Check one numeric column: non-empty, no NaN, only 0 and 1."""
    if arr.dtype.kind == "b":
        return arr.astype(np.int8)
    if arr.dtype.kind not in "iuf":
        raise SeriesFileError(p, f"column {name!r} must be numeric 0/1, got dtype {arr.dtype}")
    if arr.dtype.kind == "f":
        nan = np.isnan(arr)
        if nan.any():
            raise SeriesFileError(p, f"column {name!r}: NaN at index {int(np.flatnonzero(nan)[0])}")
    bad = (arr != 0) & (arr != 1)
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        raise SeriesFileError(p, f"column {name!r}: value {arr[k].item()!r} at index {k} is not binary (0 or 1)")
    return arr.astype(np.int8)


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
    y_true = _binary(p, names[gt_index], columns[gt_index][1])
    predictions = {name: _binary(p, name, arr) for k, (name, arr) in enumerate(columns) if k != gt_index}
    return UserSeries(y_true=y_true, predictions=predictions, source=os.fspath(p))
