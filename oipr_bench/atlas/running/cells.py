"""Run cells (one number each: a row x a detector x a series) as Dask tasks through the result cache.

A :class:`Cell` is its cache key fields (:func:`~.cache.cell_fields`) and the module-level function
computing its number.  :func:`run_cells` reads every cell the cache holds, runs the others one task
each (so a task's timeout is the call's), stores each result the moment it arrives and returns one
:func:`~.cache.cell_result` per cell: ``{"value": number, "failure": ""}`` or ``{"value": None,
"failure": reason}``.  A cell whose function raises, or returns no finite number, is a failed cell
(cached: the same call fails the same way); a cell ended at the timeout, or whose workers kept dying,
is a failed cell too but is not cached, so the next run tries it again.  One failed cell never fails
its row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from .cache import ResultCache, cell_result
from .tasks import Outcome, Task, run_tasks

__all__ = ["Cell", "run_cells"]

@dataclass(frozen=True)
class Cell:
    """One cell: ``fn(*args)`` gives its number; ``fields`` its cache key fields; ``name`` a readable task name."""

    name: str
    fields: Mapping[str, Any]
    fn: Callable[..., Any]
    args: tuple[Any, ...] = ()


def _number(fn: Callable[..., Any], args: tuple[Any, ...]) -> dict[str, Any]:
    """On the worker: the cell's number, or the reason it has none (its exception's first line)."""
    try:
        value = fn(*args)
        return cell_result(float(value))
    except Exception as exc:  # noqa: BLE001 - a package raising on one input is one failed cell
        text = str(exc).strip().splitlines()
        return cell_result(failure=f"{type(exc).__name__}: {text[0] if text else ''}".rstrip(": "))


def run_cells(cells: Sequence[Cell], client_factory: Callable[[int], Any], *, cache: ResultCache | None = None,
              timeout: float | None = None, on_done: Callable[[int, dict[str, Any]], None] | None = None,
              counts: dict[str, int] | None = None) -> list[dict[str, Any]]:
    """Every cell's result, computing only those the cache does not hold.

    Parameters
    ----------
    cells : the cells, in the order of the returned results.
    client_factory : called with the number of tasks to run, returns a context manager giving a Dask
        client (:class:`~.tasks.connect`); not called when every cell is cached.
    cache : the result cache (None: compute every cell, store nothing).
    timeout : seconds a cell's call may take (:func:`~.tasks.run_tasks`).
    on_done : called with ``(index, result)`` for every cell, cached ones first (a progress bar).
    counts : receives ``computed`` and ``cached``.
    """
    results: dict[int, dict[str, Any]] = {}
    for i, cell in enumerate(cells):
        hit = cache.get(cell.fields) if cache is not None else None
        if hit is not None:
            results[i] = hit
            if on_done is not None:
                on_done(i, hit)
    todo = [i for i in range(len(cells)) if i not in results]
    if counts is not None:
        counts.update(cached=len(results), computed=len(todo))
    if todo:
        def done(k: int, outcome: Outcome) -> None:
            i = todo[k]
            if outcome.ok:
                results[i] = outcome.value
                if cache is not None:
                    cache.put(cells[i].fields, outcome.value)
            else:  # the task failed (timed out, its workers kept dying), not the call: tried again next run
                results[i] = cell_result(failure=outcome.failure)
            if on_done is not None:
                on_done(i, results[i])

        tasks = [Task(cells[i].name, _number, (cells[i].fn, cells[i].args)) for i in todo]
        with client_factory(len(tasks)) as client:
            run_tasks(tasks, client, timeout=timeout, on_done=done)
    return [results[i] for i in range(len(cells))]
