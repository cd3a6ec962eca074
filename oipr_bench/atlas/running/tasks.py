"""Run the atlas's jobs as Dask tasks: on a ``LocalCluster`` of this machine, or on a running cluster.

One way to run: every atlas job (a batch of rows to profile, a group of the disagreement study, a
real-data cell) is a :class:`Task` -- a module-level function and its arguments -- submitted to
``dask.distributed``.  Without a scheduler address, :func:`run_tasks` starts a ``LocalCluster`` of
``jobs`` worker *processes*, one thread each; with ``scheduler="tcp://HOST:PORT"`` it sends the same
tasks to that scheduler's workers (started from the same atlas environment: docs/atlas.md).

Faults (each task's outcome is an :class:`Outcome`, never an exception of the run):

- a task that raises gives a failed outcome with the exception's first line;
- a task that runs longer than ``timeout`` seconds is cancelled, its worker restarted (which ends the
  hung call), and it gives a failed outcome saying so;
- a worker that dies mid-task loses nothing: the scheduler runs the task again on another worker
  (Dask's ``distributed.scheduler.allowed-failures``); a task that keeps killing its workers gives a
  failed outcome.

Results arrive in the order they finish; ``on_done(index, outcome)`` sees each at once (the cache
stores it there, so an interrupted run keeps every finished task).
"""

from __future__ import annotations

import logging
import os
import re
import socket
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

from ...errors import UsageError

__all__ = ["THREAD_VARIABLES", "Task", "Outcome", "DASK_MISSING", "one_thread", "run_tasks", "connect", "worker_count", "check_address", "probe"]

#: What to do when ``dask.distributed`` is not installed.
DASK_MISSING = ("the atlas runs its jobs on Dask, which is not installed here: pip install 'oipr-bench[atlas]' "
                "(or make the atlas environment: atlas/make-env.sh VENV)")

#: The thread-count variables a worker sets before any metric package is imported (:func:`one_thread`).
THREAD_VARIABLES = ("NUMBA_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")

#: Seconds to wait for a scheduler given by ``--scheduler`` to answer, and then for its first worker.
CONNECT_SECONDS = 10.0

#: Seconds between two looks at the running tasks when a timeout is set.
POLL_SECONDS = 0.5

#: Fewest tasks kept on the cluster at once (:func:`submission_window`).
MIN_WINDOW = 32

_ADDRESS = re.compile(r"^(tcp|tls)://[^\s:/]+:\d{1,5}$")


@dataclass(frozen=True)
class Task:
    """One job: ``fn(*args)`` on a worker; ``name`` is its readable Dask key prefix (a row id, a group)."""

    name: str
    fn: Callable[..., Any]
    args: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Outcome:
    """What a task gave: its ``value``, or ``failure`` (one line: why there is no value)."""

    value: Any = None
    failure: str = ""

    @property
    def ok(self) -> bool:
        return not self.failure


def one_thread() -> None:
    """Run this atlas worker with one thread per native library: the workers are the parallelism.

    Numba's ``prange`` (dtaianomaly's VUS kernel) starts one thread per core in every worker; with
    two workers on two cores each parallel region then waits for a descheduled thread, which made a
    0.05 s call take seconds.  Called at the start of every task, before a metric package is
    imported; numba already imported is set to one thread directly.
    """
    for name in THREAD_VARIABLES:
        os.environ[name] = "1"
    if "numba" in sys.modules:
        sys.modules["numba"].set_num_threads(1)


def worker_count(jobs: int, tasks: int) -> int:
    """Local workers to start for ``tasks`` tasks when ``jobs`` are asked: ``min(jobs, tasks, CPUs)``, at least 1."""
    return max(1, min(jobs, tasks, os.cpu_count() or 1))


def _run_on_worker(fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    """What a worker runs for a task: one native thread, warnings off (they would flood the worker logs), then ``fn``."""
    import warnings

    one_thread()
    warnings.simplefilter("ignore")
    return fn(*args)


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise UsageError(DASK_MISSING) from None
    return distributed


def check_address(scheduler: str) -> None:
    """Refuse a ``--scheduler`` value that is not ``tcp://HOST:PORT`` (or ``tls://``)."""
    if not _ADDRESS.match(scheduler):
        raise UsageError(f"--scheduler {scheduler!r}: expected a Dask scheduler address tcp://HOST:PORT")


def probe(scheduler: str) -> None:
    """Refuse a ``--scheduler`` address nothing answers at (a TCP connection, before any work starts)."""
    check_address(scheduler)
    host, port = scheduler.split("://", 1)[1].rsplit(":", 1)
    try:
        socket.create_connection((host, int(port)), timeout=CONNECT_SECONDS).close()
    except (OSError, ValueError) as exc:
        raise UsageError(f"--scheduler {scheduler}: no Dask scheduler answers there ({exc.strerror or type(exc).__name__})") from None


class connect:
    """A Dask client for a run: a ``LocalCluster`` of ``jobs`` one-thread worker processes, or ``scheduler``'s cluster.

    A context manager; the local cluster is closed on exit (also on Ctrl-C), a remote one is left running.
    """

    def __init__(self, jobs: int, scheduler: str | None = None) -> None:
        self.jobs, self.scheduler = jobs, scheduler
        self.client: Any = None
        self._cluster: Any = None

    def __enter__(self) -> Any:
        distributed = _distributed()
        logging.getLogger("distributed").setLevel(logging.ERROR)
        if self.scheduler:
            check_address(self.scheduler)
            try:
                self.client = distributed.Client(self.scheduler, timeout=CONNECT_SECONDS)
            except (OSError, TimeoutError) as exc:
                raise UsageError(f"--scheduler {self.scheduler}: no Dask scheduler answers there "
                                 f"({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else 'no answer'})") from None
            try:
                self.client.wait_for_workers(1, timeout=CONNECT_SECONDS)
            except (OSError, TimeoutError):
                self.client.close()
                raise UsageError(f"--scheduler {self.scheduler}: the scheduler has no worker "
                                 f"(start some with `dask worker {self.scheduler} --nthreads 1`)") from None
            return self.client
        self._cluster = distributed.LocalCluster(
            n_workers=self.jobs, threads_per_worker=1, processes=True, dashboard_address=":0",
            silence_logs=logging.ERROR, env=dict.fromkeys(THREAD_VARIABLES, "1"))
        self.client = distributed.Client(self._cluster)
        return self.client

    def __exit__(self, *exc: Any) -> None:
        try:
            if self.client is not None:
                self.client.close()
        finally:
            if self._cluster is not None:
                self._cluster.close()


def _executing(client: Any) -> Iterator[tuple[str, str]]:
    """``(worker address, task key)`` of every task running now (not merely queued)."""
    for worker, stacks in client.call_stack().items():
        for key in stacks:
            yield worker, key if isinstance(key, str) else str(key)


def _failure(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}".rstrip(": ")


def run_tasks(tasks: Sequence[Task], client: Any, *, timeout: float | None = None,
              on_done: Callable[[int, Outcome], None] | None = None) -> list[Outcome]:
    """Run ``tasks`` on ``client``'s workers: one :class:`Outcome` per task, in the order of ``tasks``.

    Parameters
    ----------
    tasks : the jobs; each runs once (again only when its worker died).
    client : a ``distributed.Client`` (:class:`connect`).
    timeout : seconds a task may run before it is ended and recorded as failed (None: no limit).
    on_done : called in this process with ``(index, outcome)`` as each task finishes.
    """
    distributed = _distributed()
    if not tasks:
        return []
    window = submission_window(client)
    futures: list[Any] = []
    index: dict[str, int] = {}
    outcomes: dict[int, Outcome] = {}

    def finish(i: int, outcome: Outcome) -> None:
        outcomes[i] = outcome
        if on_done is not None:
            on_done(i, outcome)

    def submit_more() -> None:  # keep at most ``window`` tasks on the cluster, submitted in the given order
        while len(futures) < len(tasks) and len(pending) < window:
            i = len(futures)
            t = tasks[i]
            future = client.submit(_run_on_worker, t.fn, t.args, key=f"{t.name}-{i}-{os.urandom(4).hex()}", pure=False)
            futures.append(future)
            index[future.key] = i
            pending.add(future)

    pending: set[Any] = set()
    started: dict[str, float] = {}
    try:
        submit_more()
        while pending:
            done = _finished_some(distributed, pending, POLL_SECONDS if timeout else None)
            pending -= done
            for future in done:
                i = index[future.key]
                if future.status == "finished":
                    finish(i, Outcome(value=future.result()))
                elif future.status != "cancelled":
                    finish(i, Outcome(failure=_failure(future.exception())))
            if timeout and pending:
                pending -= _end_overdue(client, pending, index, started, timeout, finish)
            submit_more()
    finally:
        for future in futures:
            if not future.done():
                future.cancel()
    return [outcomes[i] for i in range(len(tasks))]


def submission_window(client: Any) -> int:
    """Most tasks on the cluster at once: eight per worker thread, at least :data:`MIN_WINDOW`.

    Waiting on every future of a large job (a real-data atlas has ten thousand tasks) costs time in
    proportion to their number at each step; a window keeps every worker busy and the wait short.
    """
    try:
        threads = sum(int(n) for n in client.nthreads().values())
    except Exception:  # noqa: BLE001 - a client that cannot say: the minimum
        threads = 0
    return max(MIN_WINDOW, 8 * threads)


def _finished_some(distributed: Any, pending: set[Any], seconds: float | None) -> set[Any]:
    """The pending tasks that are done, waiting until one is (at most ``seconds``: then maybe none)."""
    try:
        result = distributed.wait(list(pending), timeout=seconds, return_when="FIRST_COMPLETED")
    except TimeoutError:
        return set()
    return set(result.done)


def _end_overdue(client: Any, pending: set[Any], index: dict[str, int], started: dict[str, float], timeout: float,
                 finish: Callable[[int, Outcome], None]) -> set[Any]:
    """End the tasks running longer than ``timeout``: cancel them, restart their workers, record the failure."""
    now = time.monotonic()
    by_key = {f.key: f for f in pending}
    overdue: dict[str, str] = {}
    for worker, key in _executing(client):
        if key not in by_key:
            continue
        first = started.setdefault(key, now)
        if now - first > timeout:
            overdue[key] = worker
    ended = set()
    for key, worker in overdue.items():
        future = by_key[key]
        future.cancel()
        ended.add(future)
        finish(index[key], Outcome(failure=f"timed out: still running after {timeout:g} s; ended (its worker {worker} restarted)"))
    if overdue:
        try:
            client.restart_workers(sorted(set(overdue.values())))
        except Exception:  # noqa: BLE001 - a worker that cannot restart is replaced by the scheduler or lost; its task is already recorded
            pass
    return ended
