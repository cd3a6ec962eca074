"""``atlas --check --realdata DATA``: recompute a sample of the committed real-data cells and report drift.

The sample of a row: the shortest series of its plan (ties by name; fixed before any result, and the
cheapest to recompute), every detector; one task per row.  A cell drifts when its value moves by more than
:data:`TOLERANCE`, or fails where it had a value (or the reverse).  A row file made from other data
(its data digest is not the one read now) or refused as a file is a problem too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Sequence

from ..adapters.registry import adapters
from ..running.tasks import Outcome, Task, run_tasks
from .inputs import RealInputs, read_inputs
from .rowfiles import read_row_files
from .work import score_series

__all__ = ["TOLERANCE", "check_sample", "check_command"]

#: Largest change of a cell's value read as equal (the atlas's drift tolerance).
TOLERANCE = 1e-9


def check_sample(inputs: RealInputs, directory: Path, env: str, *, only: Sequence[str] | None,
                 client_factory: Callable[[int], Any], timeout: float | None) -> tuple[list[str], int]:
    """``(problems, rows sampled)`` for this environment's rows with a committed file."""
    docs, refused = read_row_files(directory)
    problems = [f"{path}: {why}" for path, why in refused]
    by_name = inputs.by_name()
    ids = {a.id for a in adapters() if a.env == env and (not only or a.id in only)}
    tasks: list[Task] = []
    expected: list[tuple[str, str, list[Any]]] = []
    for rid, doc in sorted(docs.items()):
        if rid not in ids or doc.get("status") not in ("ok", "incomplete"):
            continue
        if doc.get("data", {}).get("digest") != inputs.digest:
            problems.append(f"{rid}: its real-data file was computed from other data (digest {doc.get('data', {}).get('digest', '?')[:12]})")
            continue
        planned = [s for s in (doc.get("plan") or {}).get("series", []) if s in doc["cells"] and s in by_name]
        if not planned:
            continue
        name = min(planned, key=lambda n: (by_name[n].length, n))
        s = by_name[name]
        tasks.append(Task(f"check-{rid}", score_series, (rid, s.y_true, s.scores, s.y_pred, tuple(doc["detectors"]))))
        expected.append((rid, name, doc["cells"][name]["result"]["values"]))

    def done(k: int, outcome: Outcome) -> None:
        rid, name, old = expected[k]
        if not outcome.ok:
            problems.append(f"{rid} on {name}: not recomputed ({outcome.failure})")
            return
        new = outcome.value["values"]
        dets = docs[rid]["detectors"]
        for det, a, b in zip(dets, old, new):
            if (a is None) != (b is None) or (a is not None and abs(float(a) - float(b)) > TOLERANCE):
                problems.append(f"{rid} on {name}, detector {det}: committed {a!r}, recomputed {b!r}")

    if tasks:
        with client_factory(len(tasks)) as client:
            run_tasks(tasks, client, timeout=timeout, on_done=done)
    return problems, len(tasks)


def check_command(args: Any, directory: Path, env: str) -> tuple[int, str]:
    """``atlas --check DIR --realdata DATA``: ``(exit code, what to print)``; 1 on any drift or problem."""
    from ..running.tasks import connect, worker_count

    problems, checked = check_sample(read_inputs(args.realdata), directory, env, only=args.only, timeout=args.task_timeout,
                                     client_factory=lambda n: connect(worker_count(args.jobs, n), args.scheduler))
    text = "".join(f"atlas drift: {line}\n" for line in problems) + (
        f"atlas --check --realdata (environment {env}): {checked} rows sampled (one series each, every detector), "
        f"{len(problems)} problem(s)")
    return (1 if problems else 0), text
