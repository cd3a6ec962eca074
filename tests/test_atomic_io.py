"""oipr_bench.io: atomic writes (temporary file in the same folder, then a rename) and canonical JSON.

An interrupted write never leaves a half-written file, an existing file is
only ever replaced by a complete one, and no temporary file is left behind,
whatever fails: the write itself, the flush to disk, the rename, or the user
pressing Ctrl-C.
"""

from __future__ import annotations

import errno
import json
import math
import os
import stat
import threading
from pathlib import Path

import pytest
from _faults import HalfWriter, OsProxy

import oipr_bench.io as io_module
from oipr_bench.io import (
    atomic_write_bytes,
    atomic_write_json,
    atomic_write_text,
    dumps_json,
)


def _raiser(exc):
    def fn(*args, **kwargs):
        raise exc

    return fn


def _temps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def _open_fds() -> int | None:
    """Number of open file descriptors of this process (Linux), else None."""
    fd_dir = Path("/proc/self/fd")
    return len(list(fd_dir.iterdir())) if fd_dir.is_dir() else None


OLD = b"old, complete content\n"
NEW = b"new content " * 5000


def test_writes_bytes_text_and_json_and_returns_the_path(tmp_path):
    assert atomic_write_bytes(tmp_path / "a.bin", b"\x00\x01") == tmp_path / "a.bin"
    assert (tmp_path / "a.bin").read_bytes() == b"\x00\x01"
    atomic_write_text(tmp_path / "b.txt", "caf\u00e9\nline 2\n")
    assert (tmp_path / "b.txt").read_bytes() == "caf\u00e9\nline 2\n".encode("utf-8")  # no CRLF, UTF-8
    atomic_write_json(tmp_path / "c.json", {"b": 1, "a": [0.5, None]})
    assert json.loads((tmp_path / "c.json").read_text()) == {"b": 1, "a": [0.5, None]}
    assert _temps(tmp_path) == []


def test_refuses_missing_parent_folders_and_creates_none(tmp_path):
    # a typo in a folder name must not land the file somewhere new
    target = tmp_path / "x" / "y" / "z.json"
    with pytest.raises(FileNotFoundError, match="does not exist"):
        atomic_write_json(target, [1])
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "x" / "y").mkdir(parents=True)
    atomic_write_json(target, [1])
    assert target.read_text() == "[\n  1\n]\n"


def test_replaces_an_existing_file_completely(tmp_path):
    target = tmp_path / "report.json"
    target.write_bytes(NEW)
    atomic_write_bytes(target, OLD)
    assert target.read_bytes() == OLD  # shorter content: nothing of the longer old file remains
    assert _temps(tmp_path) == []


@pytest.mark.parametrize(
    "where, exc",
    [
        ("write", OSError(errno.ENOSPC, "No space left on device")),
        ("write", KeyboardInterrupt()),
        ("fsync", OSError(errno.EIO, "Input/output error")),
        ("replace", PermissionError(errno.EACCES, "Permission denied")),
        ("replace", KeyboardInterrupt()),
    ],
    ids=["disk-full", "ctrl-c-in-write", "fsync-fails", "rename-fails", "ctrl-c-at-rename"],
)
def test_a_failure_anywhere_keeps_the_old_file_and_removes_the_temp(tmp_path, monkeypatch, where, exc):
    target = tmp_path / "scores.json"
    target.write_bytes(OLD)
    if where == "write":
        proxy = OsProxy(fdopen=lambda fd, mode="r", *a, **k: HalfWriter(fd, mode, exc))
    else:
        proxy = OsProxy(**{where: _raiser(exc)})
    monkeypatch.setattr(io_module, "os", proxy)
    fds = _open_fds()
    with pytest.raises(type(exc)):
        atomic_write_bytes(target, NEW)
    monkeypatch.undo()
    assert target.read_bytes() == OLD
    assert _temps(tmp_path) == []
    assert _open_fds() == fds  # the temporary file's descriptor is closed too


def test_a_filesystem_refusing_chmod_still_gets_the_file(tmp_path, monkeypatch):
    """Some filesystems (network shares, FUSE) refuse chmod: the mode is best effort, the write is not."""
    target = tmp_path / "report.html"
    target.write_bytes(OLD)
    monkeypatch.setattr(io_module, "os", OsProxy(chmod=_raiser(PermissionError(errno.EPERM, "not permitted"))))
    fds = _open_fds()
    atomic_write_bytes(target, NEW)
    monkeypatch.undo()
    assert target.read_bytes() == NEW
    assert _temps(tmp_path) == []
    assert _open_fds() == fds


def test_a_failed_first_write_leaves_no_file_at_all(tmp_path, monkeypatch):
    target = tmp_path / "new.json"
    monkeypatch.setattr(io_module, "os", OsProxy(
        fdopen=lambda fd, mode="r", *a, **k: HalfWriter(fd, mode, OSError(errno.ENOSPC, "full"))))
    with pytest.raises(OSError):
        atomic_write_text(target, "x" * 1000)
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []


def test_a_folder_in_the_way_is_an_oserror_and_stays(tmp_path):
    (tmp_path / "out.json").mkdir()
    with pytest.raises(OSError):
        atomic_write_json(tmp_path / "out.json", {})
    assert (tmp_path / "out.json").is_dir()
    assert _temps(tmp_path) == []


@pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")
@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_a_new_file_gets_the_mode_a_plain_open_would_give(tmp_path, umask):
    old = os.umask(umask)
    try:
        atomic_write_text(tmp_path / "atomic.txt", "x")
        (tmp_path / "plain.txt").write_text("x")
    finally:
        os.umask(old)
    mode = stat.S_IMODE((tmp_path / "atomic.txt").stat().st_mode)
    assert mode == stat.S_IMODE((tmp_path / "plain.txt").stat().st_mode) == 0o666 & ~umask


@pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")
def test_replacing_keeps_the_existing_files_mode(tmp_path):
    target = tmp_path / "shared.json"
    target.write_bytes(OLD)
    target.chmod(0o640)
    atomic_write_bytes(target, NEW)
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_readers_never_see_a_partial_file(tmp_path):
    """A reader running beside a writer only ever sees one of the complete versions."""
    target = tmp_path / "live.json"
    versions = [bytes([65 + k]) * (200_000 + 37 * k) for k in range(4)]
    atomic_write_bytes(target, versions[0])
    stop = threading.Event()
    seen: set[int] = set()
    bad: list[int] = []

    def reader():
        while not stop.is_set():
            data = target.read_bytes()
            if data in versions:
                seen.add(versions.index(data))
            else:
                bad.append(len(data))

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        for k in range(60):
            atomic_write_bytes(target, versions[k % 4])
    finally:
        stop.set()
        thread.join()
    assert bad == []
    assert seen  # the reader did read
    assert _temps(tmp_path) == []


def test_dumps_json_is_canonical():
    obj = {"z": 1, "a": {"caf\u00e9": [1.5, None, True]}, "n": 10**20}
    text = dumps_json(obj)
    assert text.endswith("}\n") and not text.endswith("\n\n")
    assert text.isascii() and "\\u00e9" in text
    assert text.splitlines()[1] == '  "z": 1,'  # two-space indent, insertion order
    assert dumps_json(json.loads(text)) == text  # a fixed point: byte-for-byte reproducible


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_dumps_json_refuses_nan_and_infinity(value, tmp_path):
    """Non-finite numbers are not JSON; NaN must be stored as null by the caller."""
    with pytest.raises(ValueError):
        dumps_json({"precision": value})
    with pytest.raises(ValueError):
        atomic_write_json(tmp_path / "bad.json", [value])
    assert list(tmp_path.iterdir()) == []  # nothing written, not even a temp file
