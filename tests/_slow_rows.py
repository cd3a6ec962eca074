"""Three slow atlas rows for the real-data cluster test: built-in evaluators that sleep before each call.

Importing this module changes nothing.  The rows are registered by :func:`register` (the test's
driver process calls it) and by :func:`dask_setup`, which Dask calls in every worker that preloads
this file (``distributed.worker.preload``); a test in the pytest process itself adds them with
``monkeypatch`` so they never outlive it.  A run lasts long enough to kill a worker or interrupt it
mid-run.  Each row's numbers are the built-in's; the row ids end in ``[slow]``.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any, Callable, Mapping

from oipr_bench.atlas.adapters import builtins

SECONDS = 0.4
METRICS = ("PW", "AUC-ROC", "PA")


def _slow(build: Callable[[Mapping[str, Any]], Any]) -> Callable[[Mapping[str, Any]], Any]:
    def make(params: Mapping[str, Any]) -> Any:
        fn = build(params)

        def call(y_true: Any, y_pred: Any) -> Any:
            time.sleep(SECONDS)
            return fn(y_true, y_pred)

        return call

    return make


ROWS = [dataclasses.replace(a, metric=f"{a.metric}[slow]", build=_slow(a.build))
        for a in builtins.ADAPTERS if a.metric in METRICS]
IDS = tuple(a.id for a in ROWS)


def register() -> None:
    """Add the slow rows to the built-in rows of this process (once)."""
    if not any(a.id in IDS for a in builtins.ADAPTERS):
        builtins.ADAPTERS.extend(ROWS)


def dask_setup(worker: Any) -> None:
    """Dask's preload hook: register the slow rows in the worker's process."""
    register()
