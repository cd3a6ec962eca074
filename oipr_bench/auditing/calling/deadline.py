"""A call that may be abandoned: run in a daemon thread, waited for until a deadline.

The shrinking of a counterexample (:mod:`oipr_bench.auditing.regression.shrink`) calls both
evaluators through :func:`call_within`, so that its budget bounds wall time: when the seconds left
run out the caller stops waiting and goes on.  Python cannot stop a thread, so the abandoned call
keeps running until it returns on its own; the thread is a daemon (the program may end without it)
and nothing waits for it.  What it does later is not watched: the evaluator's state after an
abandoned call is not trusted, and the caller does not call it again.

While the abandoned call is still inside :func:`~oipr_bench.auditing.calling.streams.evaluator_streams`
the caller gets its stdout back at once (:func:`~oipr_bench.auditing.calling.streams.give_back_streams`);
a ``KeyboardInterrupt`` the evaluator raises in the thread is its own (a real Ctrl-C reaches the
waiting main thread, see :class:`~oipr_bench.auditing.calling.isolation.SigintWatch`).
"""

from __future__ import annotations

import threading
from typing import Any, Callable, NamedTuple

from .isolation import CALL_THREADS
from .streams import give_back_streams

__all__ = ["Bounded", "call_within", "THREAD_NAME"]

#: The name of every thread :func:`call_within` starts.
THREAD_NAME = "oipr-bench-bounded-call"


class Bounded(NamedTuple):
    """What :func:`call_within` saw: ``done`` False when the call was abandoned (``value`` is then None)."""

    done: bool
    value: Any


def call_within(fn: Callable[[Any], Any], arg: Any, seconds: float) -> Bounded:
    """``fn(arg)`` in a daemon thread, waited for ``seconds`` at most.

    Parameters
    ----------
    fn : callable
        The call, e.g. "do the two evaluators still disagree on this candidate?".
    arg : object
        Its one argument.
    seconds : float
        How long to wait (0 or less: not at all, and the call is abandoned at once).

    Returns
    -------
    Bounded
        ``Bounded(True, fn(arg))`` when the call returned in time; ``Bounded(False, None)`` when it
        was abandoned.

    Raises
    ------
    BaseException
        Whatever ``fn(arg)`` raised, raised again here; a Ctrl-C while waiting abandons the call and
        stops the caller.
    """
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = fn(arg)
        except BaseException as exc:  # handed to the caller, never printed by the thread machinery
            box["error"] = exc

    thread = threading.Thread(target=run, name=THREAD_NAME, daemon=True)
    CALL_THREADS.add(thread)
    thread.start()
    try:
        thread.join(max(float(seconds), 0.0))
    except BaseException:
        give_back_streams(thread)
        raise
    if thread.is_alive():
        give_back_streams(thread)
        return Bounded(False, None)
    if "error" in box:
        raise box["error"]
    return Bounded(True, box.get("value"))
