"""Three slow atlas rows for the real-data cluster test: built-in evaluators that sleep before each call.

Imported by the test's driver and preloaded into every Dask worker (``distributed.worker.preload``),
so a run lasts long enough to kill a worker or interrupt it mid-run.  Each row's numbers are the
built-in's; the row ids end in ``[slow]``.
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
if not any(a.id in IDS for a in builtins.ADAPTERS):
    builtins.ADAPTERS.extend(ROWS)
