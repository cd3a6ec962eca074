"""Calling a user's evaluator safely on one series pair.

The plugin and :func:`oipr_bench.audit` both go through :func:`call_evaluator`
(or a :class:`Caller`, which adds timeouts and process isolation), so every
misbehaviour (an exception, a result of the wrong type or arity, a value
outside [0, 1], a mutated input, a hang, a dead interpreter) is reported the
same way: as a :class:`CallOutcome` naming the kind of problem, never as an
escaping exception.  Each call receives fresh copies of the series.

Isolation
---------
With a timeout or ``isolate=True`` the calls run in a worker process (the
``fork`` start method where the platform has it, so the evaluator need not be
picklable; elsewhere ``spawn``, which needs a picklable evaluator).  One worker
serves many calls; it is killed when a call exceeds the timeout and replaced
when it dies (segfault, ``os._exit``), so the next call starts afresh.
"""

from __future__ import annotations

import math
import os
import sys
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from .coerce import RANGE_TOLERANCE, check_range, coerce_result, coerce_with_flag, result_kind  # noqa: F401 (re-exported)
from ...guards import format_exception, safe_str
from .isolation import IN_WORKER, ProcessExit, SigintWatch, described, exit_reported, outcome_text, watch_parent
from .streams import evaluator_streams
from .coerce import KIND_PR
from ...evaluators.score import Score

#: Kinds of outcome, in the words the reports use (defined in :mod:`oipr_bench.vocabulary`).
from ...vocabulary import BAD_RESULT, CRASHED, MUTATED, OK, RAISED, TIMED_OUT


@dataclass(frozen=True)
class CallOutcome:
    """What happened when an evaluator was called on one series pair.

    Attributes
    ----------
    kind : str
        ``"ok"``, ``"raised"``, ``"bad_result"``, ``"mutated"``, ``"timed_out"`` or ``"crashed"``.
    score : Score or None
        The coerced result when ``kind == "ok"``.
    message : str
        Human-readable explanation when something went wrong (empty when ok).
    detail : str
        Extra detail such as a traceback (may be empty).
    """

    kind: str
    score: Score | None = None
    message: str = ""
    detail: str = ""
    #: False when the evaluator returned only (P, R) and F1 was computed here.
    returned_f1: bool = True
    #: ``"pr"`` or ``"score"`` (one number returned); see :func:`result_kind`.
    result_kind: str = KIND_PR

    @property
    def ok(self) -> bool:
        return self.kind == OK


#: Longest timeout accepted (seconds): one week. Larger values overflow the OS timers (``1e300``).
MAX_TIMEOUT = 7 * 24 * 3600.0

#: What an evaluator takes: 0/1 predictions, or float64 anomaly scores.
INPUT_KINDS: tuple[str, ...] = ("binary", "scores")

def call_evaluator(
    fn: Callable[..., Any],
    y_true: np.ndarray,
    y_pred: np.ndarray,
    *,
    dtype: Any = np.int8,
    pred_dtype: Any = None,
    bounds: tuple[float, float] = (0.0, 1.0),
) -> CallOutcome:
    """Call ``fn(y_true, y_pred)`` on fresh copies and judge the result.

    Parameters
    ----------
    fn : callable
        The user's evaluator (already resolved to a plain callable).
    y_true, y_pred : ndarray
        The series; ``fn`` receives fresh copies of dtype ``dtype``, and those
        copies are compared with the originals afterwards to detect mutation.
    dtype : numpy dtype, optional
        The dtype handed to ``fn`` (int8 by default; the sanity checks also
        use ``bool`` and ``int64``).
    pred_dtype : numpy dtype, optional
        The dtype of ``y_pred`` when it differs from ``dtype`` (``float64``
        for an evaluator that takes anomaly scores).
    bounds : (float, float)
        Declared range of a scalar result (see :func:`check_range`).

    Returns
    -------
    CallOutcome
        Never raises for anything ``fn`` or its result does, except a real Ctrl-C: the call and the
        reading of its result are one guarded boundary (output to stderr; an exception, ``SystemExit``,
        ``GeneratorExit``, a custom ``BaseException`` or a ``KeyboardInterrupt`` the code raises
        itself is a ``"raised"`` or ``"bad_result"`` outcome, and so is one raised while describing it).
    """
    y_true = np.asarray(y_true).astype(dtype)
    y_pred = np.asarray(y_pred).astype(dtype if pred_dtype is None else pred_dtype)
    t_copy, p_copy = y_true.copy(), y_pred.copy()
    sigint = SigintWatch()
    with sigint:
        try:
            return _judged_call(fn, (y_true, y_pred), (t_copy, p_copy), bounds, sigint)
        except KeyboardInterrupt as exc:
            if sigint.real:  # a real Ctrl-C (or no way to tell): stop the run
                raise
            # raised by the user's code while its exception or result was being described
            return CallOutcome(RAISED, message=f"raised {type(exc).__name__} (its own, not a Ctrl-C)")


def _failure(step: str, exc: BaseException) -> CallOutcome:
    """The outcome of ``exc`` raised by the call (``step == "call"``) or while reading its result."""
    if isinstance(exc, ProcessExit):
        return CallOutcome(RAISED, message=outcome_text(f"called os._exit({safe_str(repr(exc.code))}), which would "
                                                        "have ended the run (--isolate runs it in a worker process)"))
    if step == "result":
        if isinstance(exc, TypeError):
            return CallOutcome(BAD_RESULT, message=outcome_text(safe_str(exc, 500)))
        return CallOutcome(BAD_RESULT, message=outcome_text(f"result could not be read: {described(exc)}"),
                           detail=format_exception(exc))
    if isinstance(exc, KeyboardInterrupt):
        return CallOutcome(RAISED, message=outcome_text(f"raised {described(exc)} (its own, not a Ctrl-C)"),
                           detail=format_exception(exc))
    if isinstance(exc, SystemExit):  # a bare exit() inside a metric package must not end the run
        return CallOutcome(RAISED, message=outcome_text(f"raised SystemExit (called exit({safe_str(repr(exc.code))}))"),
                           detail=format_exception(exc))
    return CallOutcome(RAISED, message=outcome_text(f"raised {described(exc)}"), detail=format_exception(exc))


def _mutated(given: tuple[np.ndarray, np.ndarray], originals: tuple[np.ndarray, np.ndarray]) -> str:
    """``"mutated its input y_pred"`` when the evaluator changed the copies it was given ("" when not)."""
    names = [name for name, a, b in zip(("y_true", "y_pred"), given, originals)
             if a.shape != b.shape or a.dtype != b.dtype or not np.array_equal(a, b)]
    return f"mutated its input {' and '.join(names)}" if names else ""


def _judged_call(fn: Callable[..., Any], originals: tuple[np.ndarray, np.ndarray], given: tuple[np.ndarray, np.ndarray],
                 bounds: tuple[float, float], sigint: SigintWatch) -> CallOutcome:
    """The call and the reading of its result, with output sent to stderr (see :func:`call_evaluator`)."""
    y_true, y_pred = originals
    t_copy, p_copy = given
    step = "call"
    try:
        with evaluator_streams(), exit_reported():
            limit = sys.getrecursionlimit()
            result = fn(t_copy, p_copy)
            if sys.getrecursionlimit() != limit:  # lowered by the call: reading its result needs the usual limit
                sys.setrecursionlimit(limit)
            step = "result"
            score, returned_f1 = coerce_with_flag(result)
            kind = result_kind(result)
    except BaseException as exc:  # the user's code may raise anything; a real Ctrl-C is sorted out above
        if isinstance(exc, KeyboardInterrupt) and sigint.real:
            raise
        failure = _failure(step, exc)
        if step == "call":
            return failure
        mutated = _mutated(given, originals)
        return CallOutcome(MUTATED, message=mutated) if mutated else failure
    mutated = _mutated(given, originals)
    if mutated:
        return CallOutcome(MUTATED, message=mutated)
    problem = check_range(score, y_true, y_pred, kind=kind, bounds=bounds)
    if problem:
        return CallOutcome(BAD_RESULT, score=score, message=problem, returned_f1=returned_f1, result_kind=kind)
    return CallOutcome(OK, score=score, returned_f1=returned_f1, result_kind=kind)


# -- worker processes ----------------------------------------------------------------------------


def _worker_main(fn: Callable[..., Any], conn: Any, parent_pid: int | None = None) -> None:
    """Serve calls from the parent until the pipe closes (runs in the worker process)."""
    import faulthandler
    import sys

    # A forked worker inherits pytest's faulthandler, which would dump a traceback of the whole
    # parent stack on a segfault; the parent reports the signal by name instead.
    faulthandler.disable()
    IN_WORKER[0] = True  # os._exit here ends the worker: reported as crashed
    _own_process_group()
    watch_parent(parent_pid)  # die with the parent, even while the evaluator spins

    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        y_true, y_pred, dtype, pred_dtype, bounds = msg
        try:
            outcome = call_evaluator(fn, y_true, y_pred, dtype=dtype, pred_dtype=pred_dtype, bounds=bounds)
        except KeyboardInterrupt:
            return
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        try:
            conn.send(outcome)
        except Exception as exc:  # e.g. an unpicklable detail
            conn.send(CallOutcome(outcome.kind, outcome.score, outcome.message, f"(detail not transferable: {exc})",
                                  outcome.returned_f1, outcome.result_kind))


def _own_process_group(pid: int = 0) -> None:
    """Make process ``pid`` (0: this one) the leader of its own process group, where possible.

    Everything the evaluator starts in a worker (subprocesses, forked children) joins that group,
    so ending the worker ends them too (:func:`_kill_group`). Called by both sides, so there is no
    moment when the worker runs outside its group.
    """
    try:
        os.setpgid(pid, pid)
    except (AttributeError, OSError):  # no process groups (Windows), or the worker is already gone
        pass


def _kill_group(pid: int) -> None:
    """SIGKILL every process left in the worker's process group (its own pid)."""
    import signal

    killpg = getattr(os, "killpg", None)
    if killpg is None:
        return
    try:
        killpg(pid, signal.SIGKILL)
    except OSError:  # the group is already empty
        pass


def _mp_context() -> Any:
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _describe_exit(exitcode: int | None) -> str:
    if exitcode is None:
        return "worker process died"
    if exitcode < 0:
        import signal

        try:
            signame = signal.Signals(-exitcode).name
        except ValueError:
            signame = f"signal {-exitcode}"
        return f"worker process died (killed by {signame})"
    return f"worker process died (exit code {exitcode})"


class Caller:
    """Call an evaluator on series pairs, in-process or in a worker process.

    Parameters
    ----------
    fn : callable
        The evaluator, ``fn(y_true, y_pred) -> result``.
    timeout : float or None
        Seconds a single call may take; ``None`` (default) for no limit.  A
        call that exceeds it is ended (its worker process is killed) and gives
        a ``"timed_out"`` outcome "timed out after N s".
    isolate : bool
        Run every call in a worker process even without a timeout, so that an
        evaluator that kills its interpreter (segfault, ``os._exit``) gives a
        ``"crashed"`` outcome instead of ending the run.
    input_kind : {"binary", "scores"}
        ``"scores"``: ``y_pred`` is handed over as float64 anomaly scores
        (``y_true`` stays 0/1 labels of the requested dtype).
    bounds : (float, float)
        Declared range of a scalar result (:func:`check_range`).

    Notes
    -----
    Use as a context manager, or call :meth:`close`, to stop the worker.
    """

    def __init__(self, fn: Callable[..., Any], *, timeout: float | None = None, isolate: bool = False,
                 input_kind: str = "binary", bounds: tuple[float, float] = (0.0, 1.0)) -> None:
        if input_kind not in INPUT_KINDS:
            raise ValueError(f"input kind must be one of {', '.join(INPUT_KINDS)}, got {input_kind!r}")
        self.input_kind = input_kind
        self.bounds = (float(bounds[0]), float(bounds[1]))
        if timeout is not None:
            timeout = float(timeout)
            if not timeout > 0 or math.isinf(timeout):
                raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}")
            if timeout > MAX_TIMEOUT:
                raise ValueError(f"timeout must be at most {MAX_TIMEOUT:g} seconds (one week), got {timeout!r}")
        self.fn = fn
        self.timeout = timeout
        self.isolate = bool(isolate)
        self._proc: Any = None
        self._conn: Any = None

    @property
    def in_process(self) -> bool:
        """True when calls run in this process (no timeout, no isolation)."""
        return self.timeout is None and not self.isolate

    def __enter__(self) -> "Caller":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __call__(self, y_true: np.ndarray, y_pred: np.ndarray, *, dtype: Any = np.int8) -> CallOutcome:
        """Call the evaluator once on fresh copies; see :func:`call_evaluator`."""
        pred_dtype = np.float64 if self.input_kind == "scores" else None
        if self.in_process:
            return call_evaluator(self.fn, y_true, y_pred, dtype=dtype, pred_dtype=pred_dtype, bounds=self.bounds)
        return self._call_in_worker(np.asarray(y_true), np.asarray(y_pred), dtype, pred_dtype)

    def _start(self) -> None:
        import warnings

        ctx = _mp_context()
        parent_conn, child_conn = ctx.Pipe(duplex=True)
        proc = ctx.Process(target=_worker_main, args=(self.fn, child_conn, os.getpid()), daemon=True,
                           name="oipr-bench-worker")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # fork with threads (pytest-xdist) on 3.12+
            proc.start()
        _own_process_group(proc.pid)
        child_conn.close()
        self._proc, self._conn = proc, parent_conn

    def _kill(self) -> None:
        proc, conn = self._proc, self._conn
        self._proc = self._conn = None
        if conn is not None:
            try:
                conn.close()
            except OSError:
                pass
        if proc is not None:
            if proc.is_alive():
                proc.kill()
            _kill_group(proc.pid)  # the subprocesses and forks it left (orphans, sleeping children)
            proc.join(5)

    def _call_in_worker(self, y_true: np.ndarray, y_pred: np.ndarray, dtype: Any, pred_dtype: Any) -> CallOutcome:
        if self._proc is None or not self._proc.is_alive():
            self._kill()
            try:
                self._start()
            except Exception as exc:  # e.g. spawn cannot pickle the evaluator
                return CallOutcome(CRASHED, message=f"could not start a worker process: {type(exc).__name__}: {exc}")
        proc, conn = self._proc, self._conn
        try:
            conn.send((y_true, y_pred, np.dtype(dtype), None if pred_dtype is None else np.dtype(pred_dtype), self.bounds))
        except (OSError, EOFError):
            proc.join(1)
            exitcode = proc.exitcode
            self._kill()
            return CallOutcome(CRASHED, message=_describe_exit(exitcode))
        try:
            ready = conn.poll(self.timeout)
        except (OSError, EOFError):
            ready = True
        if not ready:
            self._kill()
            return CallOutcome(TIMED_OUT, message=f"timed out after {self.timeout:g} s")
        try:
            return conn.recv()
        except (EOFError, OSError):
            proc.join(5)
            exitcode = proc.exitcode
            self._kill()
            return CallOutcome(CRASHED, message=_describe_exit(exitcode))

    def close(self) -> None:
        """Stop the worker process, if any."""
        conn = self._conn
        if conn is not None:
            try:
                conn.send(None)
            except (OSError, EOFError):
                pass
        proc = self._proc
        if proc is not None:
            proc.join(1)
        self._kill()
