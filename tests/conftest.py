"""Shared pytest fixtures.

``shared_dir`` / ``authors_csv_dir`` locate the read-only material that sits
next to the repository (``<repo>/../shared``): the paper, the notes and the
authors' scenario CSVs.  Tests that need it are skipped, with the reason,
when it is absent (for instance in a plain clone of the repository).
"""

from __future__ import annotations

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_DIR = REPO_ROOT.parent / "shared"
AUTHORS_CSV_DIR = SHARED_DIR / "reference-data" / "authors-special-scenarios"
AUTHORS_SMD_DIR = SHARED_DIR / "reference-data" / "authors-smd"


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The repository root (the folder holding pyproject.toml)."""
    return REPO_ROOT


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """``<repo>/../shared``; skips the test when the folder is absent."""
    if not SHARED_DIR.is_dir():
        pytest.skip(f"shared material not available ({SHARED_DIR.name}/ next to the repository is absent)")
    return SHARED_DIR


@pytest.fixture(scope="session")
def authors_csv_dir(shared_dir: Path) -> Path:
    """The paper authors' special-scenario CSVs; skips when absent."""
    if not AUTHORS_CSV_DIR.is_dir():
        pytest.skip("the authors' special-scenario CSVs are not available under shared/reference-data/")
    return AUTHORS_CSV_DIR


@pytest.fixture(scope="session")
def authors_smd_dir(shared_dir: Path) -> Path:
    """The paper authors' SMD slice (``SMD_<detector>.csv``, Tables 6-8); skips when absent."""
    if not AUTHORS_SMD_DIR.is_dir():
        pytest.skip("shared material not available (the authors' SMD CSVs are not under shared/reference-data/)")
    return AUTHORS_SMD_DIR
