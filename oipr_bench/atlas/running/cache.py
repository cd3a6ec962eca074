"""The atlas's content-addressed result cache: a run computes only the results it does not have.

An entry's key is the SHA-256 of its *key fields* (canonical JSON): what determines the result and
nothing else.  Two kinds of entries share the cache:

- a **profile** (:func:`profile_fields`): the row's declaration (package, version, metric, parameters,
  input kind, bounds, reduced-audit counts, environment), the SHA-256 of the adapter module that
  builds the evaluator (where its parameters and state are set: the evaluator-state digest a profile
  records is a function of these), the inputs (the SHA-256 of the dataset's manifests, which hold
  every fixture file's hash), the order the cases run in, NumPy's version and
  :data:`~oipr_bench._version.READING_VERSION`;
- a **real-data cell** (:func:`cell_fields`): a row's fields as above, with the input being one
  detector's output on one series (the series file's SHA-256, the detector) read under a protocol;
  its result is one number or a failure reason (:func:`cell_result`).

An entry is one JSON file ``DIR/<key[:2]>/<key>.json`` holding its format, key, key fields, result
and the SHA-256 of the result; it is written atomically (:mod:`oipr_bench.io`), so an interrupted run
leaves whole entries only.  :meth:`ResultCache.get` reads an entry as a result only when all of these
agree; an unreadable, foreign or altered entry is reported (:attr:`ResultCache.rejected`) and
computed again, its file then replaced.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Mapping

from ..._version import READING_VERSION
from ...errors import UsageError
from ...io import atomic_write_json, dumps_json

__all__ = ["FORMAT", "ResultCache", "default_cache_dir", "key_of", "profile_fields", "cell_fields", "series_fields", "cell_result", "file_sha256"]

#: The format tag of an entry; a file without it is not an entry of this cache.
FORMAT = "oipr-bench result cache entry, format 1"

#: Largest entry read (bytes): a profile with its full report is well under this.
MAX_ENTRY_BYTES = 64 * 1024 * 1024


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/oipr-bench/atlas``, else ``~/.cache/oipr-bench/atlas``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "oipr-bench" / "atlas"


def _canonical(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode("ascii")


def key_of(fields: Mapping[str, Any]) -> str:
    """The key of an entry: SHA-256 of its key fields as canonical JSON."""
    return hashlib.sha256(_canonical(dict(fields))).hexdigest()


def file_sha256(path: Path) -> str:
    """SHA-256 of a file's bytes."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def profile_fields(declaration: Mapping[str, Any], adapter_sha256: str, inputs_sha256: str, order: str) -> dict[str, Any]:
    """The key fields of a row's profile (module docstring); ``order`` is ``forward`` or ``reverse``."""
    import numpy

    return {"kind": "profile", "reading_version": READING_VERSION, "row": dict(declaration),
            "adapter_sha256": adapter_sha256, "inputs_sha256": inputs_sha256, "order": order,
            "numpy": numpy.__version__}


def cell_fields(row: Mapping[str, Any], series_sha256: str, detector: str, protocol: Mapping[str, Any]) -> dict[str, Any]:
    """The key fields of a real-data cell: a row's :func:`profile_fields` (without the order) x a detector's output on a series.

    ``protocol`` is the reading protocol as plain data (labels, probationary rows, threshold rule, ...).
    """
    base = {k: v for k, v in row.items() if k not in ("kind", "order", "inputs_sha256")}
    return {**base, "kind": "cell", "series_sha256": series_sha256, "detector": detector, "protocol": dict(protocol)}


def series_fields(row: Mapping[str, Any], series: str, series_sha256: str, detectors: list[str],
                  protocol: Mapping[str, Any]) -> dict[str, Any]:
    """The key fields of a row's cells on one series, one per detector (the real-data atlas computes them in one task).

    As :func:`cell_fields` for each detector, with ``series_sha256`` the digest of exactly the arrays the
    row is given on that series (:mod:`oipr_bench.atlas.realdata.inputs`).
    """
    base = {k: v for k, v in row.items() if k not in ("kind", "order", "inputs_sha256")}
    return {**base, "kind": "series-cells", "series": series, "series_sha256": series_sha256,
            "detectors": list(detectors), "protocol": dict(protocol)}


def cell_result(value: float | None = None, failure: str = "") -> dict[str, Any]:
    """A cell's result: one number, or the reason there is none (a raise, a timeout, a non-finite value)."""
    if failure:
        return {"value": None, "failure": failure}
    if value is None or value != value or value in (float("inf"), float("-inf")):
        return {"value": None, "failure": f"not a finite number: {value!r}"}
    return {"value": float(value), "failure": ""}


class ResultCache:
    """The entries under ``root`` (created when missing; a path that is a file is a usage error)."""

    def __init__(self, root: Path, option: str = "--cache") -> None:
        root = Path(root)
        if root.exists() and not root.is_dir():
            raise UsageError(f"{option} {root}: is a file, not a folder")
        try:
            root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"{option} {root}: cannot be made a folder ({exc.strerror or exc})") from None
        if not os.access(root, os.W_OK | os.X_OK):
            raise UsageError(f"{option} {root}: not writable")
        self.root = root
        #: ``(file, reason)`` of each entry found but not read as a result.
        self.rejected: list[tuple[Path, str]] = []

    def path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, fields: Mapping[str, Any]) -> Any | None:
        """The stored result for ``fields``, or None (absent, or rejected: see :attr:`rejected`)."""
        key = key_of(fields)
        path = self.path(key)
        if not os.path.lexists(path):
            return None
        problem, result = self._read(path, key, fields)
        if problem:
            self.rejected.append((path, problem))
            return None
        return result

    def _read(self, path: Path, key: str, fields: Mapping[str, Any]) -> tuple[str, Any]:
        from ...guards import UnreadableFile, loads_json, read_regular_bytes

        try:  # a regular file only (a FIFO is refused without blocking), bounded, strict JSON
            entry = loads_json(read_regular_bytes(path, MAX_ENTRY_BYTES, what=None).decode("utf-8"))
        except (UnreadableFile, OSError, ValueError) as exc:
            return f"unreadable: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}", None
        if not isinstance(entry, dict) or entry.get("format") != FORMAT:
            return "not an entry of this cache (format)", None
        if entry.get("key") != key or not isinstance(entry.get("fields"), dict) or key_of(entry["fields"]) != key:
            return "its key does not match its name or its fields", None
        if entry["fields"] != json.loads(_canonical(dict(fields))):
            return "its fields differ from the ones asked for", None
        try:
            checksum = hashlib.sha256(_canonical(entry.get("result"))).hexdigest()
        except (TypeError, ValueError):
            return "its result is not plain JSON", None
        if checksum != entry.get("sha256"):
            return "its result does not match its checksum (altered or truncated)", None
        return "", entry["result"]

    def put(self, fields: Mapping[str, Any], result: Any) -> Path:
        """Store ``result`` for ``fields`` atomically (replacing a rejected entry)."""
        key = key_of(fields)
        path = self.path(key)
        path.parent.mkdir(exist_ok=True)
        plain = json.loads(dumps_json(result))
        entry = {"format": FORMAT, "key": key, "fields": json.loads(_canonical(dict(fields))),
                 "sha256": hashlib.sha256(_canonical(plain)).hexdigest(), "result": plain}
        return atomic_write_json(path, entry)
