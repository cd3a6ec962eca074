"""Defences against hostile input: caps, safe reads and message hygiene.

Everything oipr-bench reads from a user (fixtures, manifests, reference
files, expectation files, series files) goes through these helpers, so the
same limits hold everywhere; they are listed in ``docs/troubleshooting.md``.

* :func:`read_regular_bytes` refuses anything that is not a regular file
  (FIFOs, devices, folders) without blocking, and refuses a file larger than
  its cap before reading it.
* :func:`loads_json` parses strict JSON: no ``NaN``/``Infinity``, no
  duplicate keys, at most :data:`MAX_JSON_DEPTH` levels of nesting (checked
  on the text before the parser recurses).
* :func:`run_scope` and :func:`note_input` record the files a run reads, so that
  no output of the run replaces one (the writers in :mod:`oipr_bench.io` ask
  :func:`input_role`); every file read here is noted, and so is the source of
  every Python module imported during the run outside the standard library
  and site-packages (the evaluator's package, the modules it imports, pytest's
  conftest and test files: :func:`note_new_modules`);
* :func:`clip` and :func:`printable` keep a message one short, harmless line;
  :func:`format_exception` caps a traceback's depth.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
import sysconfig
import traceback
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

#: Deepest nesting of arrays/objects accepted in a JSON or TOML file.
MAX_JSON_DEPTH = 64
#: Largest text file read (fixture, manifest, reference file): 64 MiB.
MAX_TEXT_BYTES = 64 * 2**20
#: Largest expectation file (``--expect-file``): 1 MiB.
MAX_EXPECT_BYTES = 2**20
#: Characters of user-supplied text a message quotes at most.
MAX_QUOTE = 200
#: Traceback frames kept in an evaluator failure's detail (the innermost ones).
MAX_TRACEBACK_FRAMES = 30
#: Characters of an evaluator failure's detail kept at most.
MAX_DETAIL = 20_000


#: Files read in the current run: (st_dev, st_ino) -> what the file is; None outside a run.
_run_inputs: dict[tuple[int, int], str] | None = None
#: Names of the modules in ``sys.modules`` already looked at in the current run (None outside a run).
_seen_modules: set[str] | None = None


@contextmanager
def run_scope() -> Iterator[None]:
    """One command (or one pytest session) of oipr-bench: the inputs it notes are protected.

    Every Python module imported while the scope is open (the evaluator's package and the modules
    it imports, a test file pytest collects) is an input too, unless it lives in the standard
    library or in site-packages (:func:`note_new_modules`).

    Scopes nest; an inner scope protects its own inputs and, on exit, restores the outer one.
    """
    global _run_inputs, _seen_modules
    outer, outer_seen = _run_inputs, _seen_modules
    _run_inputs = dict(outer or {})
    _seen_modules = set(sys.modules) if outer_seen is None else set(outer_seen)
    try:
        yield
    finally:
        _run_inputs, _seen_modules = outer, outer_seen


def installed_folders() -> tuple[str, ...]:
    """The standard library and site-packages folders (with a trailing separator)."""
    import site

    names = ("stdlib", "platstdlib", "purelib", "platlib")
    folders = {sysconfig.get_paths().get(n) for n in names}
    try:
        folders.update(site.getsitepackages())
        folders.add(site.getusersitepackages())
    except AttributeError:  # a virtualenv's old site module
        pass
    return tuple(sorted({os.path.join(os.path.realpath(f), "") for f in folders if f}))


_INSTALLED: tuple[str, ...] | None = None


def note_new_modules() -> None:
    """Note the source file of every module imported since the run began (see :func:`run_scope`).

    Modules under the standard library or site-packages are not the user's files and are skipped.
    """
    global _INSTALLED
    if _run_inputs is None or _seen_modules is None:
        return
    new = [name for name in list(sys.modules) if name not in _seen_modules]
    if not new:
        return
    if _INSTALLED is None:
        _INSTALLED = installed_folders()
    for name in new:
        _seen_modules.add(name)
        module = sys.modules.get(name)
        namespace = getattr(module, "__dict__", None)
        source = namespace.get("__file__") if isinstance(namespace, dict) else None
        if not isinstance(source, str) or not source:
            continue
        if os.path.realpath(source).startswith(_INSTALLED):
            continue
        note_input(source, f"the Python module {clip(printable(name), 80)}")


def input_role(st: os.stat_result) -> str | None:
    """What the file with status ``st`` is, when the current run reads it (None otherwise)."""
    if _run_inputs is None:
        return None
    note_new_modules()
    return _run_inputs.get((st.st_dev, st.st_ino))


def note_input(path: str | os.PathLike[str], what: str) -> None:
    """Record that the current run reads the regular file ``path`` (``what``: "the evaluator source"...).

    Outside :func:`run_scope` this does nothing; a path that does not exist, or is not a regular
    file, is not recorded (the reader reports it).
    """
    if _run_inputs is None:
        return
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return
    if stat.S_ISREG(st.st_mode):
        _run_inputs.setdefault((st.st_dev, st.st_ino), f"{what} ({os.fspath(path)})")


class UnreadableFile(Exception):
    """A file that must not or cannot be read; ``str()`` is the reason (no path)."""


def regular_file_problem(path: str | os.PathLike[str]) -> str:
    """Why ``path`` is not a readable regular file ("" when it is one).

    Follows symlinks; a dangling symlink, a symlink loop, a FIFO, a device
    or a folder each get their own words.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return "dangling symlink (its target does not exist)" if os.path.islink(path) else "no such file"
    except OSError as exc:
        if exc.errno == 40:  # ELOOP
            return "symlink loop"
        return f"cannot read ({exc.strerror or exc})"
    if stat.S_ISREG(st.st_mode):
        return ""
    if stat.S_ISDIR(st.st_mode):
        return "is a folder, not a file"
    if stat.S_ISFIFO(st.st_mode):
        return "is a FIFO (named pipe), not a regular file"
    if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode):
        return "is a device, not a regular file"
    return "is not a regular file"


def read_regular_bytes(path: str | os.PathLike[str], max_bytes: int = MAX_TEXT_BYTES, *, what: str | None = "an input file") -> bytes:
    """Read a whole regular file, refusing anything else without blocking.

    The file is noted as an input of the current run (``what`` names it), so no output of the
    run may replace it (:func:`oipr_bench.io.note_input`); ``what=None`` for a file the run
    itself regenerates (an atlas profile).

    The file is opened with ``O_NONBLOCK`` (a FIFO cannot block the open) and
    checked with ``fstat`` on the open descriptor, so a file swapped for a
    FIFO after a check is refused too.

    Raises
    ------
    UnreadableFile
        Not a regular file, larger than ``max_bytes``, or unreadable.
    """
    problem = regular_file_problem(path)
    if problem:
        raise UnreadableFile(problem)
    if what is not None:
        note_input(path, what)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise UnreadableFile(f"cannot read ({exc.strerror or exc})") from None
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise UnreadableFile("is not a regular file")
        if st.st_size > max_bytes:
            raise UnreadableFile(f"is {st.st_size} bytes, more than the {max_bytes}-byte limit")
        try:
            data = fh.read(max_bytes + 1)
        except OSError as exc:
            raise UnreadableFile(f"cannot read ({exc.strerror or exc})") from None
    if len(data) > max_bytes:
        raise UnreadableFile(f"is more than the {max_bytes}-byte limit")
    return data


_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)


def json_depth(text: str) -> int:
    """Deepest nesting of ``[``/``{`` in JSON ``text`` (strings ignored)."""
    import numpy as np

    bare = _JSON_STRING.sub("", text)
    codes = np.frombuffer(bare.encode("utf-8", "replace"), dtype=np.uint8)
    steps = np.zeros(codes.shape, dtype=np.int64)
    steps[(codes == ord("[")) | (codes == ord("{"))] = 1
    steps[(codes == ord("]")) | (codes == ord("}"))] = -1
    return int(np.cumsum(steps).max(initial=0))


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {clip(repr(key), 80)}")
        out[key] = value
    return out


def loads_json(text: str) -> Any:
    """Parse strict JSON (no NaN/Infinity, no duplicate keys, bounded nesting).

    Raises
    ------
    ValueError
        With a one-line reason; :class:`json.JSONDecodeError` (a ValueError)
        for a syntax error, with its line and column.
    """
    depth = json_depth(text)
    if depth > MAX_JSON_DEPTH:
        raise ValueError(f"nested {depth} levels deep, more than the limit of {MAX_JSON_DEPTH}")
    try:
        return json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_no_duplicates)
    except RecursionError:
        raise ValueError(f"nested too deeply (limit {MAX_JSON_DEPTH} levels)") from None


def loads_toml(text: str) -> Any:
    """Parse TOML, turning a recursion overflow (absurd nesting) into ValueError."""
    try:
        import tomllib  # type: ignore[import-not-found]
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    if json_depth(text) > 4 * MAX_JSON_DEPTH:  # brackets in TOML strings may inflate the count; be generous
        raise ValueError(f"nested too deeply (limit {MAX_JSON_DEPTH} levels)")
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise ValueError(f"nested too deeply (limit {MAX_JSON_DEPTH} levels)") from None


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """``text`` with control characters (ANSI escapes included) shown as ``\\xNN``.

    Newlines and tabs are kept; an escape character can no longer recolour or
    rewrite the terminal.
    """
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def clip(text: str, limit: int = MAX_QUOTE) -> str:
    """``text`` cut to ``limit`` characters, saying how much was left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters)"


def safe_str(obj: Any, limit: int = MAX_QUOTE) -> str:
    """``str(obj)``, never raising, clipped and printable (for an exception's text)."""
    try:
        text = str(obj)
    except BaseException as exc:  # a hostile __str__
        if isinstance(exc, KeyboardInterrupt):
            raise
        text = f"<unprintable {type(obj).__name__}>"
    return printable(clip(text, limit))


def safe_repr(obj: Any, limit: int = MAX_QUOTE) -> str:
    """``repr(obj)`` for a message: never raising (a hostile ``__repr__`` included), clipped, printable."""
    try:
        text = repr(obj)
    except BaseException:  # noqa: BLE001 - a message must not stop the run
        text = f"<{type(obj).__name__} object>"
    return printable(clip(text, limit))


def describe_exception(exc: BaseException) -> str:
    """``"ValueError: bad input"``: one clipped, printable line."""
    text = safe_str(exc)
    name = type(exc).__name__
    return f"{name}: {text}" if text else name


def format_exception(exc: BaseException) -> str:
    """A traceback of ``exc`` with at most :data:`MAX_TRACEBACK_FRAMES` (innermost) frames.

    Unbounded recursion gives a traceback of ~10^5 frames; formatting all of
    them takes minutes, so only the innermost frames are formatted.
    """
    try:
        lines = traceback.format_exception(type(exc), exc, exc.__traceback__, limit=-MAX_TRACEBACK_FRAMES, chain=False)
        text = "".join(lines)
    except BaseException as err:  # a hostile __str__ or a broken traceback
        if isinstance(err, KeyboardInterrupt):
            raise
        text = describe_exception(exc)
    return printable(clip(text, MAX_DETAIL))


def path_text(path: str | os.PathLike[str]) -> str:
    """A path as quoted in a message (printable, clipped)."""
    return printable(clip(os.fspath(Path(path)), MAX_QUOTE))
