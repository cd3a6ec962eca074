"""Load and validate the special-scenario fixtures.

:func:`load` reads ``manifest.json`` and every scenario file it lists,
validates them, and returns the cases in Table A1 order.  Validation is
all-or-nothing: the first problem raises :class:`~oipr_bench.errors.FixtureError`
naming the file, the case id and the JSON path, and no case is returned.

What is checked
---------------
* each file is valid JSON (no NaN/Infinity, no duplicate keys);
* the manifest and each scenario file validate against their JSON Schemas
  (``schema/manifest.schema.json``, ``schema/scenario.schema.json``);
* the dataset version is one this loader supports (:data:`SUPPORTED_VERSIONS`)
  and is the same in the manifest and in every file;
* every listed file exists, every ``*.json`` file in the folder is listed,
  and each file's SHA-256 equals the manifest's;
* what a schema cannot say: every interval has ``start < end <= length``;
  intervals are sorted and separated by at least one point (events are
  maximal runs); case ids are unique and equal ``"<scenario>/<case>"``;
  the scenario name matches the manifest entry and the file name; case
  counts match; a random case holds ``n_runs`` runs of its own length.

* what a reader must not be fooled by: only regular files are read (a FIFO,
  a device, a dangling symlink or a symlink loop is a FixtureError, never a
  hang), files are capped in size and nesting depth, and the dense series a
  dataset declares are capped (:data:`MAX_DATASET_POINTS`) before any is
  built (see :mod:`._validate`).

Caching
-------
The parsed dataset is cached per folder (and refreshed when a file's size or
modification time changes).  Every call returns new :class:`Case` objects
whose lists and dicts are fresh copies; the numpy arrays are shared but
**immutable**: read-only views of a bytes buffer, so even
``arr.flags.writeable = True`` is refused and no caller can corrupt the
cache.  Copy an array (``case.y_true.copy()``) to modify it.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any, Iterable, Sequence

from .._paths import data_dir
from ..errors import FixtureError
from ._validate import (  # noqa: F401  (MAX_LENGTH and MAX_DATASET_POINTS are part of the API)
    MANIFEST_NAME,
    MAX_DATASET_POINTS,
    MAX_LENGTH,
    SUPPORTED_VERSIONS,
    Parsed,
    clear_validators,
    load_case_file,
    load_dir,
)
from .case import Case

__all__ = ["Case", "SUPPORTED_VERSIONS", "MAX_LENGTH", "MAX_DATASET_POINTS", "load", "get", "scenario_names",
           "check_complete", "clear_cache", "load_cases_file"]


# --------------------------------------------------------------------------- cache + public API
_CACHE_LOCK = threading.Lock()
_CACHE: dict[Path, tuple[tuple[Any, ...], tuple[Parsed, ...]]] = {}


def _signature(directory: Path) -> tuple[Any, ...]:
    """What must stay the same for the cache to stay valid: each JSON file's identity, size and mtime."""
    sig: list[tuple[Any, ...]] = []
    for p in sorted(directory.glob("*.json")):
        try:
            st = p.stat()
        except OSError as exc:  # dangling symlink, loop: the load itself reports it
            sig.append((p.name, "unreadable", exc.errno))
            continue
        sig.append((p.name, st.st_ino, st.st_size, st.st_mtime_ns, st.st_mode))
    return tuple(sig)


def _resolve(path: str | os.PathLike[str] | None) -> Path:
    return data_dir("scenarios") if path is None else Path(path).expanduser().resolve()


def _parsed(path: str | os.PathLike[str] | None) -> tuple[Parsed, ...]:
    directory = _resolve(path)
    sig = _signature(directory) if directory.is_dir() else None
    with _CACHE_LOCK:
        hit = _CACHE.get(directory)
        if hit is not None and hit[0] == sig:
            return hit[1]
        items = load_dir(directory)
        _CACHE[directory] = (sig, items)
        return items


def load(path: str | os.PathLike[str] | None = None) -> list[Case]:
    """Load the special-scenario dataset (paper Appendix A, Table A1).

    Parameters
    ----------
    path : path-like, optional
        A folder holding ``manifest.json`` and the scenario files.  By
        default the shipped dataset (the repository's ``scenarios/`` or the
        copy inside the installed package).

    Returns
    -------
    list of Case
        The 25 cases in Table A1 order (scenario by scenario, c1 first).
        New objects on every call; their arrays are shared and read-only.

    Raises
    ------
    FixtureError
        If any file is missing, is not valid JSON, breaks its schema or the
        rules above, has an unsupported version or a hash that disagrees with
        the manifest.  Nothing is returned in that case.
    """
    return [item.to_case() for item in _parsed(path)]


def get(case_id: str, path: str | os.PathLike[str] | None = None) -> Case:
    """Return one case by its id (``"overlap_proportion/c1"``).

    Raises
    ------
    KeyError
        If no case has that id (the message lists the valid ids).
    """
    items = _parsed(path)
    for item in items:
        if item.doc["id"] == case_id:
            return item.to_case()
    known = ", ".join(item.doc["id"] for item in items)
    raise KeyError(f"unknown case id {case_id!r}; known ids: {known}")


def scenario_names(path: str | os.PathLike[str] | None = None) -> list[str]:
    """Scenario names in dataset order (the order of Table A1)."""
    names: list[str] = []
    for item in _parsed(path):
        if item.scenario not in names:
            names.append(item.scenario)
    return names


def clear_cache() -> None:
    """Forget every parsed dataset (the next :func:`load` re-reads the files)."""
    with _CACHE_LOCK:
        _CACHE.clear()
    clear_validators()


def check_complete(cases: Sequence[Case], needed: Iterable[str], path: str | os.PathLike[str] | None = None,
                   *, needs: str = "the characteristic rules need") -> None:
    """Raise FixtureError unless ``cases`` hold every id in ``needed``.

    The characteristic rules read fixed cases
    (:data:`oipr_bench.auditing.table5.characteristics.REQUIRED_CASES`); a dataset that lacks
    one (even with a consistent manifest) is refused up front, naming the
    missing ids, instead of failing later with a bare ``KeyError``.
    """
    have = {case.id for case in cases}
    missing = [case_id for case_id in dict.fromkeys(needed) if case_id not in have]
    if missing:
        raise FixtureError(
            f"the dataset lacks {len(missing)} case(s) {needs}: {', '.join(missing)}",
            file=str(_resolve(path) / MANIFEST_NAME),
        )


def load_cases_file(path: str | os.PathLike[str]) -> list[Case]:
    """Load a user's own cases: one file in the dataset's scenario format (``schema/scenario.schema.json``).

    Used by ``--oipr-cases FILE`` (plugin), ``oipr-bench audit --cases FILE`` and
    ``audit(cases=FILE)``.  Not cached; the arrays are read-only like the dataset's.

    Raises
    ------
    FixtureError
        The file is missing, not JSON, breaks the schema or the interval rules; the
        message names the file, the case and the JSON path of the field.
    """
    return [item.to_case() for item in load_case_file(Path(path).expanduser())]
