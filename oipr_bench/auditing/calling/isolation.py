"""Fences around a call of a user's evaluator (used by :mod:`oipr_bench.auditing.calling.runner`).

* :func:`~oipr_bench.auditing.calling.streams.evaluator_streams` (re-exported): the
  evaluator's output goes to stderr (see :mod:`oipr_bench.auditing.calling.streams`).
* :class:`SigintWatch`: tells a real Ctrl-C (a SIGINT delivered while the
  evaluator runs) from a ``KeyboardInterrupt`` the evaluator raises itself (in a thread of
  :data:`CALL_THREADS` every ``KeyboardInterrupt`` is the evaluator's own: a Ctrl-C reaches the
  main thread, which is waiting for it).
* :func:`watch_parent`: an isolated worker process dies with its parent
  (Linux parent-death signal, plus a watchdog thread everywhere).
* :func:`guarded`: every touch of user code outside the call itself (import,
  construction, attributes such as ``bounds``) as one boundary: its output
  goes to stderr, and anything it raises (``SystemExit``, ``GeneratorExit``,
  a custom ``BaseException``, a ``KeyboardInterrupt`` that is not a Ctrl-C)
  becomes one :class:`~oipr_bench.errors.UsageError` naming the evaluator
  and the step.
* :func:`exit_reported`: ``os._exit`` called by the evaluator in this process raises
  :class:`ProcessExit`, reported as a failure of the call, instead of ending the run with no
  message (in a worker process it ends the worker: ``crashed``); :data:`REAL_EXIT` stays the
  real one for the end of the program while an abandoned call still holds the replacement.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
import weakref
from contextlib import contextmanager
from typing import Any, Callable, Iterator, TypeVar

from ...errors import UsageError
from ...guards import clip, describe_exception, printable
from .streams import evaluator_streams

__all__ = ["outcome_text", "SigintWatch", "watch_parent", "described", "guarded", "evaluator_streams", "ProcessExit",
           "exit_reported", "IN_WORKER", "CALL_THREADS", "REAL_EXIT"]

#: Threads that run one call of an evaluator for a caller waiting in the main thread
#: (:mod:`oipr_bench.auditing.calling.deadline`).
CALL_THREADS: "weakref.WeakSet[threading.Thread]" = weakref.WeakSet()
#: ``os._exit`` as this module found it: :func:`exit_reported` replaces ``os._exit`` while a call runs,
#: and a call abandoned in a thread may still hold the replacement when the program ends.
REAL_EXIT = os._exit

T = TypeVar("T")

#: Longest message a call outcome carries.
MAX_MESSAGE = 500


def outcome_text(message: str) -> str:
    """An outcome message: printable (no terminal escapes) and clipped."""
    return printable(clip(message, MAX_MESSAGE))


class SigintWatch:
    """Context manager recording whether a real SIGINT arrived while it was active.

    Inside, SIGINT is handled by a wrapper that marks ``real`` and then does
    what the previous handler would (normally: raise KeyboardInterrupt).  A
    KeyboardInterrupt caught while ``real`` is False was raised by the
    evaluator itself.  Outside the main thread no handler can be installed,
    so every KeyboardInterrupt counts as real (``real`` starts True there), except in a
    thread of :data:`CALL_THREADS`, which a real Ctrl-C never reaches.
    """

    def __init__(self) -> None:
        self.real = False
        self._previous: Any = None
        self._installed = False

    def _handler(self, signum: int, frame: Any) -> None:
        previous = self._previous
        if previous == signal.SIG_IGN:
            return
        self.real = True
        if callable(previous):
            previous(signum, frame)
        else:
            raise KeyboardInterrupt

    def __enter__(self) -> "SigintWatch":
        if threading.current_thread() is not threading.main_thread():
            self.real = threading.current_thread() not in CALL_THREADS
            return self
        try:
            self._previous = signal.getsignal(signal.SIGINT)
            signal.signal(signal.SIGINT, self._handler)
            self._installed = True
        except (ValueError, OSError):
            self.real = True
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._installed:
            previous = self._previous if self._previous is not None else signal.SIG_DFL
            signal.signal(signal.SIGINT, previous)


def _set_parent_death_signal() -> None:
    """Linux: have the kernel SIGKILL this process when its parent dies (prctl PR_SET_PDEATHSIG)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # 1 = PR_SET_PDEATHSIG
    except Exception:
        pass  # the watchdog thread still covers it


def watch_parent(parent_pid: int | None, interval: float = 0.25) -> None:
    """Make this (worker) process end when process ``parent_pid`` is gone.

    Two mechanisms: the Linux parent-death signal (immediate, even while the
    evaluator holds the GIL), and a daemon thread that checks every
    ``interval`` seconds whether the process was re-parented (every platform;
    needs the evaluator to release the GIL now and then, as pure Python does).
    """
    if parent_pid is None:
        return
    _set_parent_death_signal()
    if os.getppid() != parent_pid:  # the parent died before the signal was armed
        os._exit(1)

    def watchdog() -> None:
        while True:
            time.sleep(interval)
            if os.getppid() != parent_pid:
                os._exit(1)

    threading.Thread(target=watchdog, name="oipr-bench-parent-watchdog", daemon=True).start()


def described(exc: BaseException) -> str:
    """``describe_exception(exc)``, or only the class name when the exception's ``__str__`` raises."""
    try:
        return describe_exception(exc)
    except BaseException:  # a __str__ raising KeyboardInterrupt: a message, not a stop
        return f"{type(exc).__name__} (unprintable)"


def guarded(evaluator: str, step: str, fn: Callable[..., T], *args: Any) -> T:
    """Run ``fn(*args)``, which touches the user's code, as one guarded boundary.

    Parameters
    ----------
    evaluator : str
        How the evaluator is named in the message (its spec or display name).
    step : str
        What failed, as the message says it: ``"importing 'mod' failed"``,
        ``"cannot instantiate Name(k=1)"``, ``"reading its 'bounds' attribute failed"``...

    Raises
    ------
    UsageError
        ``"evaluator E: STEP: ExcType: text"`` for anything ``fn`` raises, including
        ``SystemExit`` and a ``KeyboardInterrupt`` that did not come from a real Ctrl-C (that one
        still stops the run). A UsageError raised by oipr-bench's own code inside passes unchanged.
    """
    sigint = SigintWatch()
    with sigint:
        try:
            with evaluator_streams():
                return fn(*args)
        except UsageError:
            raise
        except KeyboardInterrupt as exc:
            if sigint.real:
                raise
            message = f"evaluator {evaluator}: {step}: {described(exc)} (raised by its own code, not a Ctrl-C)"
        except BaseException as exc:  # the user's code may raise anything, SystemExit included
            message = f"evaluator {evaluator}: {step}: {described(exc)}"
    raise UsageError(outcome_text(message))


class ProcessExit(BaseException):
    """``os._exit(code)`` called by the evaluator in this process: reported instead of ending the run."""

    def __init__(self, code: Any) -> None:
        super().__init__(code)
        self.code = code


#: True in a worker process (:class:`Caller` with a timeout or isolation): there ``os._exit`` ends the
#: worker, which is reported as ``crashed``.
IN_WORKER = [False]


@contextmanager
def exit_reported() -> Iterator[None]:
    """While the evaluator runs in this process, ``os._exit`` raises :class:`ProcessExit` (named as a failure)
    instead of ending the run with no message; a process it forked still exits for real."""
    real, pid = os._exit, os.getpid()
    if IN_WORKER[0]:
        yield
        return

    def _exit(code: int) -> None:
        if os.getpid() != pid:
            real(code)
        raise ProcessExit(code)

    os._exit = _exit  # type: ignore[assignment]
    try:
        yield
    finally:
        os._exit = real  # type: ignore[assignment]
