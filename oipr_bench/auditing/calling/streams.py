"""Stdout stays ours: the evaluator's output, threads and forks never reach the report.

* :func:`evaluator_streams`: while user code runs (import, set-up, the call, reading the result),
  whatever it prints (``print``, ``sys.stdout.write`` or a raw write to file descriptor 1) goes to
  **stderr**, so a report written to stdout (``--format json``) stays valid.
* Closing, detaching or replacing ``sys.stdout``/``sys.stderr`` (or ``sys.__stdout__``) inside user
  code does not affect the caller afterwards: a stream found closed or detached is rebuilt on its
  file descriptor.
* A thread the user code started and left running keeps writing to stderr after the call: when
  threads outlive the call, ``sys.stdout`` becomes a :class:`MainThreadStdout`, which sends every
  write from another thread to stderr. Writes through the guards are serialised by one lock.
* A process the user code forked returns into oipr-bench's code only to leave at once
  (``os._exit(0)``): a fork never runs the rest of the audit twice.
* A call abandoned in a thread (:mod:`oipr_bench.auditing.calling.deadline`) while it is still
  inside :func:`evaluator_streams`: :func:`give_back_streams` gives the caller its stdout back at
  once (writes from other threads still go to stderr); the abandoned call, when it ends, leaves the
  streams as they are then.  A raw write to file descriptor 1 from the abandoned call after that
  reaches stdout: nothing can redirect one thread's descriptor writes.
* :func:`started_threads`: the threads user code started (a test's own threads are not the
  evaluator's: the pytest plugin blames and ends only these).
* A recursion limit the user code changed is put back after it returns.
* :data:`touched` records whether user code ran in this process (the command line then ends with
  :func:`os._exit`, so the evaluator's ``atexit`` handlers and non-daemon threads cannot change the
  exit code or keep the run alive; see :func:`oipr_bench.cli.console_main`).
"""

from __future__ import annotations

import io
import os
import sys
import threading
import weakref
from contextlib import contextmanager
from typing import Any, Iterator

#: One lock for every write through a guard (a daemon thread and the main thread never interleave
#: inside one TextIOWrapper).
_WRITE_LOCK = threading.RLock()
#: ``touched[0]`` is True once user code has run in this process.
touched = [False]
#: Threads started while user code ran (see :func:`started_threads`).
_STARTED: "weakref.WeakSet[threading.Thread]" = weakref.WeakSet()
#: Every object ever installed as (or replaced from) ``sys.stdout``/``sys.stderr`` here, kept alive:
#: CPython's ``print`` holds a *borrowed* reference to ``sys.stdout``, so a stream freed while a
#: user thread is inside ``print`` crashes the interpreter (SIGSEGV). Nothing swapped out is freed.
_KEEP: dict[Any, Any] = {}
#: Most objects kept (a user replacing sys.stdout on every call cannot grow this without bound).
_MAX_KEEP = 10_000
#: The caller's streams saved by each :func:`evaluator_streams` still open, outermost first, by thread id (see
#: :func:`give_back_streams`).
_OPEN: dict[int, list[tuple[Any, Any, int | None]]] = {}
_OPEN_LOCK = threading.Lock()
#: Threads whose call was abandoned (:func:`give_back_streams`): user code is not started in them again.
_ABANDONED: "weakref.WeakSet[threading.Thread]" = weakref.WeakSet()


class AbandonedThread(RuntimeError):
    """User code about to start in a thread whose call was abandoned (the caller has gone on without it)."""


class _StreamGuard:
    """Stands in for ``sys.stdout``/``sys.stderr`` during a call: writes go to ``target``; ``close`` is ignored."""

    def __init__(self, target: Any) -> None:
        self._target = target

    def write(self, text: str) -> int:
        if self._target is None:
            return len(text)
        with _WRITE_LOCK:
            return self._target.write(text)

    def flush(self) -> None:
        if self._target is not None:
            with _WRITE_LOCK:
                self._target.flush()

    def close(self) -> None:
        """An evaluator closing ``sys.stdout`` must not close the caller's stream."""

    def detach(self) -> Any:
        """An evaluator detaching ``sys.stdout`` gets the binary buffer; the caller's stream stays attached."""
        return getattr(self._target, "buffer", None)

    @property
    def closed(self) -> bool:
        return False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._target, name)


class MainThreadStdout(_StreamGuard):
    """``sys.stdout`` once user code left threads running: only the main thread writes to stdout."""

    def __init__(self, stdout: Any, stderr: Any) -> None:
        super().__init__(stdout)
        self._stderr = stderr
        self._main = threading.main_thread()

    def write(self, text: str) -> int:
        target = self._target if threading.current_thread() is self._main else self._stderr
        with _WRITE_LOCK:
            return target.write(text)


def started_threads() -> list[threading.Thread]:
    """The threads started while user code ran (import, set-up, calls) in this process, alive or not."""
    return list(_STARTED)


def _kept(stream: Any) -> Any:
    """``stream``, never to be freed (see :data:`_KEEP`)."""
    if len(_KEEP) < _MAX_KEEP:
        _KEEP.setdefault(id(stream), stream)
    return stream


def _guard_for(target: Any) -> _StreamGuard:
    """The one guard writing to ``target`` (made once, kept alive)."""
    key = ("guard", id(target))
    guard = _KEEP.get(key)  # type: ignore[call-overload]
    if guard is None or guard._target is not target:
        guard = _StreamGuard(target)
        _KEEP[key] = guard  # type: ignore[index]
        _kept(target)
    return guard


def _flush(*streams: Any) -> None:
    for stream in streams:
        try:
            stream.flush()
        except Exception:
            pass


def _usable(stream: Any, fd: int) -> Any:
    """``stream``, or a new text stream on ``fd`` when user code closed or detached it."""
    try:
        if stream is not None and not stream.closed:  # a detached TextIOWrapper raises ValueError here
            return stream
    except (ValueError, OSError, AttributeError):
        pass
    try:
        raw = io.FileIO(fd, "w", closefd=False)
        return io.TextIOWrapper(raw, encoding=getattr(stream, "encoding", None) or "utf-8",
                                errors="backslashreplace", line_buffering=True, write_through=True)
    except (OSError, ValueError):
        return stream


def _repaired(saved_out: Any, saved_err: Any) -> tuple[Any, Any]:
    """The caller's streams, rebuilt if user code closed or detached them (``sys.__stdout__`` too)."""
    out, err = _usable(saved_out, 1), _usable(saved_err, 2)
    if sys.__stdout__ is saved_out:
        sys.__stdout__ = out
    if sys.__stderr__ is saved_err:
        sys.__stderr__ = err
    return out, err


@contextmanager
def evaluator_streams() -> Iterator[None]:
    """Send user code's stdout to stderr while it runs, and give the caller working streams afterwards.

    File descriptor 1 is pointed at descriptor 2 for the duration (so output from C code or
    ``os.write(1, ...)`` is redirected too) when both exist. See the module docstring for threads
    and forks.
    """
    if threading.current_thread() in _ABANDONED:
        raise AbandonedThread("the call was abandoned: the evaluator is not called again in its thread")
    touched[0] = True
    pid = os.getpid()
    threads = threading.active_count()
    before = set(threading.enumerate())
    limit = sys.getrecursionlimit()
    saved_out, saved_err = sys.stdout, sys.stderr
    _flush(saved_out, saved_err)
    saved_fd = None
    try:
        saved_fd = os.dup(1)
        os.dup2(2, 1)
    except OSError:
        if saved_fd is not None:
            os.close(saved_fd)
            saved_fd = None
    _kept(saved_out)
    _kept(saved_err)
    sys.stdout = sys.stderr = _guard_for(saved_err)
    ident, saved = threading.get_ident(), (saved_out, saved_err, saved_fd)
    with _OPEN_LOCK:
        _OPEN.setdefault(ident, []).append(saved)
    try:
        yield
    finally:
        if sys.getrecursionlimit() != limit:  # sys.setrecursionlimit(60) in user code: first, before any call
            sys.setrecursionlimit(limit)
        if os.getpid() != pid:  # a child the user code forked: it must not run the rest of the audit
            os._exit(0)
        _STARTED.update(t for t in threading.enumerate() if t not in before)
        if _still_open(ident, saved):
            _kept(sys.stdout)
            _kept(sys.stderr)
            _flush(sys.stdout, sys.stderr, saved_err)
            out, err = _repaired(saved_out, saved_err)
            if threading.active_count() > threads and not isinstance(out, MainThreadStdout):
                out = _kept(MainThreadStdout(out, err))
            sys.stdout, sys.stderr = _kept(out), _kept(err)
            if saved_fd is not None:
                os.dup2(saved_fd, 1)
                os.close(saved_fd)
        # else an abandoned call ending late: the caller has had its streams back since (give_back_streams)


def _still_open(ident: int, saved: tuple[Any, Any, int | None]) -> bool:
    """Remove ``saved`` from the open streams of thread ``ident``; False when :func:`give_back_streams` took it
    (then its saved descriptor is closed here, under the lock that give_back_streams duplicates it under)."""
    with _OPEN_LOCK:
        stack = _OPEN.get(ident, [])
        if not any(entry is saved for entry in stack):
            if saved[2] is not None:
                os.close(saved[2])
            return False
        stack[:] = [entry for entry in stack if entry is not saved]
        if not stack:
            _OPEN.pop(ident, None)
        return True


def give_back_streams(thread: threading.Thread) -> None:
    """The caller's stdout and stderr back while ``thread``, an abandoned call, is still inside :func:`evaluator_streams`.

    File descriptor 1 is pointed back at stdout and ``sys.stdout`` becomes a :class:`MainThreadStdout`
    (the abandoned call's prints keep going to stderr); nothing more happens when ``thread`` is not
    inside :func:`evaluator_streams`.  The abandoned call, when it ends, closes its saved descriptor
    and changes nothing else; user code is not started in ``thread`` again (:class:`AbandonedThread`).
    """
    _flush(sys.stdout, sys.stderr)
    with _OPEN_LOCK:
        _ABANDONED.add(thread)
        stack = _OPEN.pop(thread.ident, None) if thread.ident is not None else None
        if not stack:
            return
        saved_out, saved_err, saved_fd = stack[0]  # the caller's own streams, from before the outermost entry
        if saved_fd is not None:
            os.dup2(saved_fd, 1)
    out, err = _repaired(saved_out, saved_err)
    sys.stdout, sys.stderr = _kept(MainThreadStdout(out, err)), _kept(err)
