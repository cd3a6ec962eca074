"""Low-level reading of a NAB folder's files: bytes (plain or gzip), JSON, CSV cells, timestamps.

The helpers of :mod:`oipr_bench.reference.nab`; every problem is one :class:`NabDataError` line,
``"<path relative to the data root>: <reason>"``.
"""

from __future__ import annotations

import gzip
import io
import math
import os
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import UsageError
from ..guards import MAX_TEXT_BYTES, UnreadableFile, clip, loads_json, printable, read_regular_bytes

__all__ = ["NabDataError", "MAX_CSV_BYTES", "rel_path", "find_csv", "read_bytes", "read_json", "is_number",
           "parse_time", "read_frame", "floats", "timestamps"]

#: Largest decompressed CSV read (the biggest NAB results file is about 1.6 MB).
MAX_CSV_BYTES = MAX_TEXT_BYTES
_TEXT_COLUMNS = ("timestamp", "Detector", "Profile", "File")
_TIME_FORMATS = ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M:%S.%f")


class NabDataError(UsageError):
    """A NAB file is missing or invalid; ``str()`` reads ``"<path relative to the data root>: <reason>"``."""

    def __init__(self, where: str, reason: str) -> None:
        self.where = where
        self.reason = reason
        super().__init__(printable(f"{clip(where)}: {clip(reason, 400)}"))


def rel_path(corpus_root: Path, path: Path) -> str:
    try:
        return path.relative_to(corpus_root).as_posix()
    except ValueError:
        return os.fspath(path)


def find_csv(root: Path, rel: str) -> Path:
    """``root/rel`` or ``root/rel.gz``, whichever exists (plain first); refuses when neither does."""
    plain = root / rel
    for candidate in (plain, plain.with_name(plain.name + ".gz")):
        if candidate.exists():
            return candidate
    raise NabDataError(rel, "missing file (looked for .csv and .csv.gz)")


def read_bytes(root: Path, path: Path) -> bytes:
    """A file's bytes, decompressed when it ends in ``.gz``; every problem names the file."""
    where = rel_path(root, path)
    try:
        raw = read_regular_bytes(path, MAX_TEXT_BYTES, what="a NAB data file")
    except UnreadableFile as exc:
        raise NabDataError(where, str(exc)) from None
    if path.name.endswith(".gz"):
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(raw)) as fh:
                raw = fh.read(MAX_CSV_BYTES + 1)
        except (OSError, EOFError, zlib.error) as exc:
            raise NabDataError(where, f"not a readable gzip file ({exc})") from None
        if len(raw) > MAX_CSV_BYTES:
            raise NabDataError(where, f"decompresses to more than the {MAX_CSV_BYTES}-byte limit")
    return raw


def read_json(root: Path, rel: str) -> Any:
    path = root / rel
    if not path.exists():
        raise NabDataError(rel, "missing file")
    raw = read_bytes(root, path)
    try:
        return loads_json(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise NabDataError(rel, f"not valid JSON ({exc})") from None


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def parse_time(where: str, what: str, text: str) -> np.datetime64:
    from datetime import datetime

    for fmt in _TIME_FORMATS:
        try:
            return np.datetime64(datetime.strptime(text, fmt), "s")
        except ValueError:
            continue
    raise NabDataError(where, f"{what}: {text!r} is not a timestamp (YYYY-MM-DD HH:MM:SS)")


def read_frame(where: str, raw: bytes) -> Any:
    """The CSV as a frame: number columns parsed correctly rounded (as Python's ``float``), the rest as text.

    pandas before 3.0 parses with a fast routine that can miss the last bit (about 0.8 % of the values
    of NAB's results files); ``float_precision="round_trip"`` asks it for the exact one.
    """
    import pandas as pd

    exact = {"float_precision": "round_trip"} if int(pd.__version__.split(".")[0]) < 3 else {}
    try:
        frame = pd.read_csv(io.BytesIO(raw), dtype={c: str for c in _TEXT_COLUMNS}, keep_default_na=False,
                            na_filter=False, **exact)
    except Exception as exc:  # pandas' ParserError, EmptyDataError, UnicodeDecodeError...
        raise NabDataError(where, f"not a readable CSV ({clip(str(exc).strip(), 200)})") from None
    if frame.shape[0] == 0:
        raise NabDataError(where, "no data rows")
    dupes = [c for c in frame.columns if str(c).endswith(".1")]
    if dupes:
        raise NabDataError(where, f"line 1: a column appears twice ({dupes[0][:-2]})")
    return frame


def floats(where: str, column: str, cells: Any, *, finite: bool) -> np.ndarray:
    """A column of text cells as float64, each parsed as Python's ``float`` parses it (correctly rounded);
    the first empty, non-number or NaN cell (or infinite one, when ``finite``) is refused by line."""
    if cells.dtype.kind in "fiu":
        values = cells.to_numpy(dtype=np.float64)
        text = values
    else:
        text = cells.to_numpy(dtype=object)
        values = np.array([_float_or_nan(c) for c in text], dtype=np.float64)
    bad = np.flatnonzero(~np.isfinite(values)) if finite else np.flatnonzero(np.isnan(values))
    if bad.size:
        k = int(bad[0])
        cell = clip(str(text[k]), 40)
        if not cell.strip():
            what = "is empty"
        elif cell.strip().lower() == "nan":
            what = "is NaN"
        elif math.isnan(_float_or_nan(cell)):
            what = f"{cell!r} is not a number"
        else:
            what = f"{cell!r} is not finite"
        raise NabDataError(where, f"line {k + 2}: {column} {what}")
    return values


def _float_or_nan(cell: str) -> float:
    try:
        return float(cell)
    except ValueError:
        return math.nan


def timestamps(where: str, cells: np.ndarray) -> np.ndarray:
    try:
        stamps = np.array(cells, dtype="datetime64[s]")
    except ValueError:
        stamps = None
    if stamps is None or np.isnat(stamps).any():
        for k, cell in enumerate(cells):
            try:
                ok = not np.isnat(np.datetime64(cell, "s"))
            except ValueError:
                ok = False
            if not ok:
                raise NabDataError(where, f"line {k + 2}: timestamp {clip(str(cell), 40)!r} does not parse "
                                   "(YYYY-MM-DD HH:MM:SS)")
    assert stamps is not None
    return stamps
