"""Atomic file writing: a temporary file in the same folder, then a rename.

An interrupted run never leaves a half-written file, and an existing file is
only ever replaced by a complete one.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any


def _target_mode(path: Path) -> int:
    """The permission bits ``path`` should end up with after an atomic write."""
    try:
        return path.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically and return the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:  # from here on the file object owns (and closes) fd
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        # mkstemp creates the file with mode 0600; give the result the mode a
        # plain open() would (or keep the mode of the file being replaced).
        # Best effort: some filesystems (network shares, FUSE) refuse chmod.
        try:
            os.chmod(tmp, _target_mode(path))
        except OSError:
            pass
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return path


def atomic_write_text(path: str | os.PathLike[str], text: str) -> Path:
    """Write UTF-8 ``text`` to ``path`` atomically (``\\n`` line endings)."""
    return atomic_write_bytes(path, text.encode("utf-8"))


def dumps_json(obj: Any) -> str:
    """Canonical JSON text used for every file the project writes.

    Two-space indent, keys in insertion order, ASCII only, trailing newline:
    byte-for-byte reproducible across platforms.
    """
    return json.dumps(obj, indent=2, ensure_ascii=True, allow_nan=False) + "\n"


def atomic_write_json(path: str | os.PathLike[str], obj: Any) -> Path:
    """Write ``obj`` as canonical JSON (see :func:`dumps_json`) atomically."""
    return atomic_write_text(path, dumps_json(obj))
