"""Where the shipped data folders are, and where no output of oipr-bench may go.

In an installed wheel the top-level ``scenarios/``, ``schema/`` and
``reference_results/`` folders live inside the package as
``oipr_bench/_data/<name>``; in a source checkout (or an editable install)
they are the repository's top-level folders.  :func:`data_dir` returns
whichever exists, preferring the packaged copy.

:func:`protected_role` says why a path is no output's: the file of an imported module, or a path
inside oipr-bench's package, its data folders or the running interpreter's environment (the writers
of :mod:`oipr_bench.io` ask it); :func:`regenerating` opens one data folder to the command that
regenerates it.
"""

from __future__ import annotations

import functools
import os
import stat
import sys
import types
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from .guards import installed_folders

_PACKAGE_DIR = Path(__file__).resolve().parent
DATA_FOLDERS = ("scenarios", "schema", "reference_results", "atlas")


def data_dir(name: str) -> Path:
    """Return the folder holding the shipped data set ``name``.

    Parameters
    ----------
    name : {"scenarios", "schema", "reference_results", "atlas"}

    Raises
    ------
    FileNotFoundError
        If neither the packaged nor the source-checkout folder exists.
    """
    if name not in DATA_FOLDERS:
        raise ValueError(f"unknown data folder {name!r}; expected one of {', '.join(DATA_FOLDERS)}")
    packaged = _PACKAGE_DIR / "_data" / name
    if packaged.is_dir():
        return packaged
    source = _PACKAGE_DIR.parent / name
    if source.is_dir():
        return source
    raise FileNotFoundError(f"oipr-bench data folder {name!r} not found (looked in {packaged} and {source})")


def source_root() -> Path | None:
    """The repository root when running from a source checkout, else ``None``."""
    root = _PACKAGE_DIR.parent
    return root if (root / "pyproject.toml").is_file() and (root / "scenarios").is_dir() else None


#: The data folders a regeneration command may write while inside :func:`regenerating` (names of DATA_FOLDERS).
_regenerating: set[str] = set()
#: Module name -> (its file, (st_dev, st_ino)), so a check stats each module file once.
_module_keys: dict[str, tuple[str, tuple[int, int] | None]] = {}


@contextmanager
def regenerating(name: str) -> Iterator[None]:
    """Inside, the writers may write oipr-bench's data folder ``name`` (``build-scenarios``: ``scenarios``,
    ``reference --write``: ``reference_results``, ``atlas --write``: ``atlas``); nothing else is opened."""
    if name not in DATA_FOLDERS:
        raise ValueError(f"unknown data folder {name!r}")
    added = name not in _regenerating
    _regenerating.add(name)
    try:
        yield
    finally:
        if added:
            _regenerating.discard(name)


def _module_file_key(name: str, module: Any) -> tuple[str, tuple[int, int] | None] | None:
    """(file, inode key) of a module in ``sys.modules`` (None: no file), cached by name and file."""
    namespace = vars(module) if isinstance(module, types.ModuleType) else None
    source = namespace.get("__file__") if namespace is not None else None
    if not isinstance(source, str) or not source:
        return None
    cached = _module_keys.get(name)
    if cached is not None and cached[0] == source:
        return cached
    try:
        st = os.stat(source)
        entry = (source, (st.st_dev, st.st_ino))
    except (OSError, ValueError):
        entry = (source, None)
    _module_keys[name] = entry
    return entry


def _imported_module(st: os.stat_result) -> str | None:
    """The name and file of the imported module whose file has status ``st`` (None: none)."""
    key = (st.st_dev, st.st_ino)
    for name, module in list(sys.modules.items()):
        entry = _module_file_key(name, module)
        if entry is not None and entry[1] == key:
            return f"{name} ({entry[0]})"
    return None


@functools.lru_cache(maxsize=1)
def _environment_folders() -> tuple[str, ...]:
    """The interpreter's prefixes, standard library and site-packages (never ``/`` or the home folder itself)."""
    folders = {os.path.realpath(f) for f in (sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix) if f}
    folders.update(os.path.realpath(f) for f in installed_folders())
    too_wide = {os.path.realpath(os.sep), os.path.realpath(os.path.expanduser("~"))}
    return tuple(sorted(f for f in folders if f not in too_wide))


def _zones() -> list[tuple[str, str]]:
    """(folder, what it is) of every protected folder, the most specific first; a regenerated data folder is open."""
    zones = []
    root = source_root()
    for name in DATA_FOLDERS:
        for folder in (_PACKAGE_DIR / "_data" / name, None if root is None else root / name):
            if folder is not None:
                what = "" if name in _regenerating else f"oipr-bench's data folder {name} ({folder})"
                zones.append((os.path.realpath(folder), what))
    zones.append((os.path.realpath(_PACKAGE_DIR), f"oipr-bench's own package ({_PACKAGE_DIR})"))
    zones += [(folder, f"the Python environment ({folder})") for folder in _environment_folders()]
    return zones


def protected_role(path: str | os.PathLike[str]) -> str | None:
    """Why no output may be written at ``path`` (None: it may), as words after "refusing to write".

    ``over the Python module numpy (...), which this run has imported`` for the file of a module in
    ``sys.modules`` (followed through symlinks and hard links); ``inside oipr-bench's own package
    (...)``, ``inside oipr-bench's data folder schema (...)`` or ``inside the Python environment
    (...)`` for a path (existing or not, symlinks followed) at or under a protected folder.  A data
    folder opened by :func:`regenerating` is not protected (the module files in it still are).
    """
    try:
        st: os.stat_result | None = os.stat(path)
    except (OSError, ValueError):
        st = None
    if st is not None and stat.S_ISREG(st.st_mode):
        module = _imported_module(st)
        if module is not None:
            return f"over the Python module {module}, which this run has imported"
    real = os.path.realpath(path)
    for folder, what in _zones():
        if real == folder or real.startswith(os.path.join(folder, "")):
            return f"inside {what}" if what else None
    return None
