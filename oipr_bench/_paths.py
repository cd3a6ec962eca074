"""Where the shipped data folders are.

In an installed wheel the top-level ``scenarios/``, ``schema/`` and
``reference_results/`` folders live inside the package as
``oipr_bench/_data/<name>``; in a source checkout (or an editable install)
they are the repository's top-level folders.  :func:`data_dir` returns
whichever exists, preferring the packaged copy.
"""

from __future__ import annotations

from pathlib import Path

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
