"""Atomic file writing: a temporary file in the same folder, then a rename.

An interrupted run never leaves a half-written file, and an existing file is
only ever replaced by a complete one.

What is *not* a plain file is never replaced:

* a symlink is followed: its target is written (atomically, beside the
  target), the link stays a link;
* a character/block device or a FIFO (``/dev/stdout``, ``>(cmd)``, a copy of
  ``/dev/full``) is written directly, with no temporary file and no rename,
  and a write error (``ENOSPC``...) is raised, never swallowed;
* a folder, or a path written with a trailing ``/``, is refused with
  :class:`IsADirectoryError` (a report needs a file name);
* a file this run reads (evaluator source, expectation file, case file,
  input series, reference or atlas file, the evaluator's package and the
  modules it imports, pytest's configuration, conftest and test files) is
  never written over, whatever the spelling of either path (relative, ``./``,
  symlink, hard link): inside :func:`run_scope`, every reader calls
  :func:`note_input` and every writer refuses a destination with the same
  ``(st_dev, st_ino)`` (:class:`~oipr_bench.errors.OverwriteRefused`);
* oipr-bench itself, its data and its Python environment are never written: a destination that is
  the file of any module in ``sys.modules`` (oipr-bench's, numpy's, the user's), or lies inside
  oipr-bench's package (its code, and ``_data/`` in a wheel), a source checkout's data folders
  (``scenarios/``, ``schema/``, ``reference_results/``, ``atlas/``) or the interpreter's prefix,
  standard library or site-packages is refused (:func:`protected_role`), inside a run or not; only a
  regeneration command writes a data folder, its own, inside :func:`regenerating`;
* a folder is never created: a destination whose folder does not exist
  (a typo, a dangling symlink into a missing folder) is refused with
  :class:`FileNotFoundError`; a caller that owns a folder creates it first;
* ``""`` and ``"-"`` are not file names (:func:`output_name_problem`);
* SIGTERM while the files are staged or renamed removes the temporary files,
  then ends the process by SIGTERM's default action (as if no handler ran).
"""

from __future__ import annotations

import errno
import json
import os
import signal
import stat
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Mapping

from ._paths import protected_role, regenerating
from .errors import OverwriteRefused
from .guards import input_role, note_input, run_scope

__all__ = ["run_scope", "note_input", "check_output", "output_name_problem", "same_output", "atomic_write_bytes",
           "atomic_write_text", "atomic_write_json", "atomic_write_files", "dumps_json", "protected_role",
           "regenerating", "make_output_folder"]


def output_name_problem(raw: str) -> str:
    """Why ``raw`` is not an output path ("" when it may be one): empty, or ``-``.

    ``-`` is not taken to mean stdout anywhere: a command prints to stdout when no output is given.
    """
    if raw == "":
        return "empty path; give a file name (an unset shell variable?)"
    if raw == "-":
        return "'-' is not taken to mean stdout; give a file name, or leave the option out to print to stdout"
    return ""


def same_output(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """True when the two output paths name one file (same spelling after resolving, or the same inode)."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def check_output(path: str | os.PathLike[str]) -> None:
    """Refuse ``path`` as an output of this run before any work is done.

    The rule every command shares: ``""`` and ``-`` are refused (not file names), a trailing ``/``
    or a folder is refused (an output needs a file name), a missing folder is refused (folders are
    never created), and so is a file this run reads (see :func:`note_input`).

    Raises
    ------
    ValueError, IsADirectoryError, FileNotFoundError, NotADirectoryError, OverwriteRefused
    """
    _destination(path)


def _protected_clash(raw: str, target: Path) -> None:
    """Raise OverwriteRefused when ``target`` is oipr-bench's, its data's or its environment's (:func:`protected_role`)."""
    role = protected_role(target)
    if role is not None:
        raise OverwriteRefused(f"{raw}: refusing to write {role}; choose another output path")


def make_output_folder(path: str | os.PathLike[str]) -> Path:
    """Create the output folder ``path`` of a command that owns it (a gallery, a regenerated data set), parents too.

    Refused first, like a file (:func:`protected_role`): a folder inside oipr-bench, its data or its
    environment is never created.

    Raises
    ------
    OverwriteRefused, NotADirectoryError
    """
    folder = Path(path)
    _protected_clash(os.fspath(path), folder)
    if os.path.lexists(folder) and not folder.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, "exists and is not a directory", os.fspath(path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _input_clash(raw: str, st: os.stat_result) -> None:
    """Raise OverwriteRefused when ``st`` is a file the current run reads."""
    what = input_role(st)
    if what is not None:
        raise OverwriteRefused(f"{raw}: refusing to write over {what}, which this run reads; choose another output path")


def _target_mode(path: Path) -> int:
    """The permission bits ``path`` should end up with after an atomic write."""
    try:
        return path.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _write_direct(path: Path, data: bytes) -> None:
    """Write ``data`` to a device or FIFO in place; every short or failed write raises."""
    with open(path, "wb", buffering=0) as fh:
        view = memoryview(data)
        while view:
            written = fh.write(view)
            if not written:
                raise OSError(errno.EIO, "write made no progress", str(path))
            view = view[written:]


def _destination(path: str | os.PathLike[str]) -> tuple[Path, bool]:
    """(file to write, write it directly?) for ``path``; see the module docstring."""
    raw = os.fspath(path)
    problem = output_name_problem(raw)
    if problem:
        raise ValueError(problem)
    if raw.endswith("/") or raw.endswith(os.sep):
        raise IsADirectoryError(errno.EISDIR, "ends with a path separator; give a file name, not a folder", raw)
    target = Path(raw)
    try:
        st = os.stat(target)  # follows symlinks
    except (FileNotFoundError, NotADirectoryError):  # the write reports a parent that is not a folder
        st = None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, "is a folder; give a file name", raw)
    if st is not None and not stat.S_ISREG(st.st_mode):
        return target, True
    if st is not None:
        _input_clash(raw, st)
    _protected_clash(raw, target)
    if target.is_symlink():  # write the link's target, beside the target
        target = Path(os.path.realpath(target))
    _folder_exists(raw, target.parent)
    return target, False


def _folder_exists(raw: str, folder: Path) -> None:
    """Refuse a destination whose folder is missing: folders are never created (a typo must not land a file)."""
    if os.path.isdir(folder):
        return
    if os.path.lexists(folder):
        raise NotADirectoryError(errno.ENOTDIR, f"{folder} is not a folder", raw)
    raise FileNotFoundError(errno.ENOENT, f"the folder {folder} does not exist (oipr-bench does not create folders)",
                            raw)


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically and return the path.

    Raises
    ------
    OSError
        The file cannot be written (IsADirectoryError for a folder); the old
        content of ``path`` is then unchanged.
    """
    return atomic_write_files({path: data})[0]


def _named(exc: OSError, path: Path) -> OSError:
    """``exc`` naming ``path`` (``[Errno 28] No space left on device: 'report.json'``)."""
    if exc.filename is not None or isinstance(exc, OverwriteRefused):
        return exc
    return type(exc)(exc.errno, exc.strerror or str(exc), str(path)) if exc.errno else OSError(f"{path}: {exc}")


def _stage(path: Path, data: bytes) -> str:
    """Write ``data`` to a temporary file beside ``path``, flushed to disk; return its name."""
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
    except BaseException:
        _unlink(tmp)
        raise
    return tmp


def _unlink(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except FileNotFoundError:
        pass


def atomic_write_files(files: Mapping[str | os.PathLike[str], bytes]) -> list[Path]:
    """Write a *set* of files: all of them, or (on any error) none; return the paths, in order.

    Every file is first written in full to a temporary file beside its target and flushed to
    disk; only when all are staged are they renamed over their targets, in the given order (put
    a manifest last). A full disk halfway through leaves every old file as it was and no
    temporary file behind (a rename refused after others succeeded cannot be undone: the files
    before it are new, the others old). Devices and FIFOs are written directly, after the renames.

    Raises
    ------
    OSError
        Naming the file that could not be written.
    """
    plan = [(Path(given), *_destination(given)) for given in files]
    with _cleanup_on_sigterm():
        _stage_and_rename(plan, files)
    for (given, path, direct), data in zip(plan, files.values()):
        if direct:
            try:
                _write_direct(path, data)
            except OSError as exc:
                raise _named(exc, given) from None
    return [given for given, _, _ in plan]


class _Terminated(BaseException):
    """SIGTERM arrived while files were staged: clean up, then die of SIGTERM."""


@contextmanager
def _cleanup_on_sigterm() -> Iterator[None]:
    """While inside, SIGTERM raises :class:`_Terminated` (the writers' clean-up runs), then the signal's default action.

    Only in the main thread, and only when SIGTERM has its default action (a handler of the
    program's own, or an ignored SIGTERM, is left alone).
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    try:
        previous = signal.getsignal(signal.SIGTERM)
    except (ValueError, OSError):
        previous = None
    if previous != signal.SIG_DFL:
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        raise _Terminated

    signal.signal(signal.SIGTERM, handler)
    try:
        yield
    except _Terminated:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)
        raise SystemExit(128 + signal.SIGTERM) from None  # not reached: the default action ends the process
    finally:
        if signal.getsignal(signal.SIGTERM) is handler:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _stage_and_rename(plan: list[tuple[Path, Path, bool]], files: Mapping[Any, bytes]) -> None:
    """Stage every regular file of ``plan``, then rename them all (see :func:`atomic_write_files`)."""
    staged: list[tuple[str, Path]] = []
    try:
        for (given, path, direct), data in zip(plan, files.values()):
            if not direct:
                try:
                    staged.append((_stage(path, data), path))
                except OSError as exc:
                    raise _named(exc, given) from None
    except BaseException:
        for tmp, _ in staged:
            _unlink(tmp)
        raise
    for k, (tmp, path) in enumerate(staged):
        try:
            os.replace(tmp, path)
        except BaseException:  # a refused rename (or Ctrl-C): no temporary file is left behind
            for left, _ in staged[k:]:
                _unlink(left)
            raise


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
