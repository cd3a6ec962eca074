"""Read the ``.npy`` and ``.npz`` series files of :mod:`oipr_bench.scenarios.userdata`, with bounded allocation.

A ``.npy`` header, or each ``.npz`` member's, is checked against the bytes
really present and against :data:`MAX_POINTS` before anything is allocated.
A ``.npz`` member is decompressed :data:`DECODE_CHUNK` values at a time and
each chunk checked (no NaN, only 0 and 1) and converted to ``int8`` at once,
so reading an archive allocates one byte per value plus a fixed buffer,
whatever its compression ratio (a 97 KB archive declaring 10^8
float64 values once drove memory to 13.5 GB).  Only the members numpy writes
(stored or deflated) are read; pickled objects never are.
"""

from __future__ import annotations

import os
import warnings
import zipfile
from pathlib import Path
from typing import BinaryIO, NamedTuple

import numpy as np

from ..errors import UsageError
from ..guards import clip

__all__ = ["SeriesFileError", "SquareArrayWarning", "MAX_POINTS", "DECODE_CHUNK", "binary_column", "read_npy", "read_npz"]

#: Most values (all series of one file together) a .npy/.npz file may declare: 10^8.
MAX_POINTS = 100_000_000
#: Values decoded, checked and converted at a time (bounds the buffers of :func:`read_series`).
DECODE_CHUNK = 1 << 16
#: Compression methods numpy writes (savez: stored, savez_compressed: deflated); a deflated
#: member is decompressed with a bound on its output, bzip2/LZMA ones by ``zipfile`` are not.
_NUMPY_COMPRESSION = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)

class SeriesFileError(UsageError, ValueError):
    """A user series file cannot be read; ``str()`` is ``"<file>: <problem>"``."""

    def __init__(self, file: str | os.PathLike[str], message: str) -> None:
        self.file = os.fspath(file)
        self.message = message
        super().__init__(f"{self.file}: {message}")


class SquareArrayWarning(UserWarning):
    """A square 2-D ``.npy`` could hold its series as rows or as columns; it is read as rows."""


def _magic(p: Path, n: int) -> bytes:
    with open(p, "rb") as fh:
        return fh.read(n)


class _Header(NamedTuple):
    """What a .npy header declares."""

    shape: tuple[int, ...]
    dtype: np.dtype
    count: int


def _check_header(fh: BinaryIO, available: int, where: str) -> _Header:
    """Read a .npy header from ``fh`` and check it before any array is allocated.

    ``available`` is the number of bytes the file (or archive member) really
    holds.  Returns the declared shape, dtype and number of elements.

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
    return _Header(tuple(int(n) for n in shape), dtype, count)


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


def read_npy(p: Path) -> list[tuple[str, np.ndarray]]:
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
    """Check one archive member's declared size and header, then decode it into 0/1 ``int8``.

    The member is decompressed :data:`DECODE_CHUNK` values at a time and each
    chunk checked and converted at once, so reading allocates one byte per
    value plus a fixed buffer, whatever the compression ratio (a
    97 KB archive declaring 10^8 float64 values).
    """
    if not info.filename.endswith(".npy"):
        raise SeriesFileError(p, f"member {info.filename!r} is not a .npy array (save the archive with numpy.savez)")
    name = info.filename[:-4]
    if info.compress_type not in _NUMPY_COMPRESSION:
        method = {zipfile.ZIP_BZIP2: "bzip2", zipfile.ZIP_LZMA: "lzma"}.get(info.compress_type, f"method {info.compress_type}")
        raise SeriesFileError(p, f"member {info.filename!r} is compressed with {method}; only stored or deflated "
                                 "members are read (save with numpy.savez or numpy.savez_compressed)")
    if info.file_size > 8 * budget[0] + 4096:
        raise SeriesFileError(p, f"member {info.filename!r} is {info.file_size} bytes uncompressed, more than the "
                                 f"limit for {MAX_POINTS} values")
    try:
        with zf.open(info) as fh:
            header = _check_header(fh, info.file_size, f"array {name!r}")
            budget[0] -= header.count
            if budget[0] < 0:
                raise SeriesFileError(p, f"the arrays hold more than the limit of {MAX_POINTS} values together")
            if len(header.shape) != 1:
                raise SeriesFileError(p, f"array {name!r} must be 1-D, got shape {header.shape}")
            return name, _decode_binary(p, name, fh, header)
    except SeriesFileError:
        raise
    except ValueError as exc:
        raise SeriesFileError(p, f"member {info.filename!r} is not a readable array ({exc})") from None


def _decode_binary(p: Path, name: str, fh: BinaryIO, header: _Header) -> np.ndarray:
    """Read ``header.count`` values from ``fh`` in chunks, each checked by :func:`binary_column` into ``int8``."""
    dtype = header.dtype
    if dtype.kind not in "biuf":
        raise SeriesFileError(p, f"column {name!r} must be numeric 0/1, got dtype {dtype}")
    out = np.empty(header.count, dtype=np.int8)
    for k0 in range(0, header.count, DECODE_CHUNK):
        n = min(DECODE_CHUNK, header.count - k0)
        raw = fh.read(n * dtype.itemsize)
        if len(raw) < n * dtype.itemsize:
            raise SeriesFileError(p, f"array {name!r} ends after {k0 + len(raw) // dtype.itemsize} of the "
                                     f"{header.count} values its header declares")
        out[k0 : k0 + n] = binary_column(p, name, np.frombuffer(raw, dtype=dtype), offset=k0)
    while fh.read(DECODE_CHUNK):  # to the end, so that the archive's checksum is verified
        pass
    return out


def read_npz(p: Path) -> list[tuple[str, np.ndarray]]:
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


def binary_column(p: Path, name: str, arr: np.ndarray, offset: int = 0) -> np.ndarray:
    """Check one numeric column (no NaN, only 0 and 1) and return it as ``int8``.

    The check and the conversion run :data:`DECODE_CHUNK` values at a time,
    so their temporaries stay small; an ``int8`` array that owns its data is
    returned as it is.  ``offset`` is added to the index a message names.
    """
    if arr.dtype.kind not in "biuf":
        raise SeriesFileError(p, f"column {name!r} must be numeric 0/1, got dtype {arr.dtype}")
    if arr.dtype.kind == "b":  # a bool byte may hold any value: check the bytes themselves
        arr = arr.view(np.uint8)
    keep = arr.dtype == np.int8 and arr.flags.owndata
    out = arr if keep else np.empty(arr.shape[0], dtype=np.int8)
    for k0 in range(0, arr.shape[0], DECODE_CHUNK):
        chunk = arr[k0 : k0 + DECODE_CHUNK]
        if chunk.dtype.kind == "f":
            nan = np.isnan(chunk)
            if nan.any():
                raise SeriesFileError(p, f"column {name!r}: NaN at index {offset + k0 + int(np.flatnonzero(nan)[0])}")
        bad = (chunk != 0) & (chunk != 1)
        if bad.any():
            k = int(np.flatnonzero(bad)[0])
            raise SeriesFileError(p, f"column {name!r}: value {chunk[k].item()!r} at index {offset + k0 + k} "
                                     "is not binary (0 or 1)")
        if not keep:
            out[k0 : k0 + DECODE_CHUNK] = chunk
    return out
