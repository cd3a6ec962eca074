"""The atlas's execution options (``--jobs``, ``--scheduler``, ``--cache``, ``--no-cache``, ``--task-timeout``,
``--quiet``): refused where they do not apply, and the result cache a run uses."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

__all__ = ["check_run_options", "check_mode_options", "result_cache"]


def check_run_options(args: argparse.Namespace) -> None:
    """Refuse the execution options (--jobs, --scheduler, --cache, --no-cache, --task-timeout, --quiet) where they do not apply."""
    from ...errors import UsageError

    running = (args.write is not None or args.check is not None or args.disagreements is not None
               or getattr(args, "realdata", None) is not None)
    given = [flag for flag, value in (("--jobs", args.jobs), ("--scheduler", args.scheduler), ("--cache", args.cache),
                                      ("--task-timeout", args.task_timeout)) if value is not None]
    given += [flag for flag, value in (("--no-cache", args.no_cache), ("--quiet", args.quiet)) if value]
    if given and not running:
        raise UsageError(f"{', '.join(given)} appl{'ies' if len(given) == 1 else 'y'} to --write, --check and --disagreements; give one of them")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {args.jobs}")
    if args.jobs is not None and args.scheduler:
        raise UsageError("--jobs sets the local workers; with --scheduler the cluster's workers run the tasks: give one of them")
    if args.cache is not None and args.no_cache:
        raise UsageError("--cache and --no-cache contradict each other: give one of them")
    if (args.cache is not None or args.no_cache) and (args.disagreements is not None
                                                      or (args.check is not None and getattr(args, "realdata", None) is not None)):
        raise UsageError("--cache/--no-cache apply to --write and --check (the disagreement study is not cached)")
    if args.task_timeout is not None and not (args.task_timeout > 0 and args.task_timeout < float("inf")):
        raise UsageError(f"--task-timeout must be a positive number of seconds, got {args.task_timeout}")
    if args.scheduler:
        from .tasks import probe

        probe(args.scheduler)
    if args.jobs is None:
        args.jobs = min(2, os.cpu_count() or 1)


def result_cache(args: argparse.Namespace, by_default: bool) -> Any:
    """The result cache of this run (``--cache DIR``, else the default one when ``by_default``), or None."""
    from .cache import ResultCache, default_cache_dir

    if args.no_cache or (args.cache is None and not by_default):
        return None
    return ResultCache(Path(args.cache) if args.cache is not None else default_cache_dir())


def check_mode_options(args: argparse.Namespace) -> None:
    """Refuse the row and folder options (--only, --dir, --pin, --include-slow, --row-budget) where their mode is not given."""
    from ...errors import UsageError

    if args.only and args.check is None and args.write is None and args.realdata is None:
        raise UsageError("--only selects rows for --check, --write or --realdata; give one of them")
    if args.dir is not None and args.diff is not None:
        raise UsageError("--dir does not apply to --diff: give the two atlas folders as OLD NEW")
    if args.pin is not None and args.write is None:
        raise UsageError("--pin applies to --write; give --write DIR")
    if args.include_slow and args.write is None and args.check is None:
        raise UsageError("--include-slow applies to --write and --check; give one of them")
    if args.row_budget is not None and args.realdata is None:
        raise UsageError("--row-budget applies to --realdata; give --realdata DATA")
