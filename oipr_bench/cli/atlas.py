"""``oipr-bench atlas``: the metric atlas (public TAD metric implementations profiled).

- no option: print the committed grid;
- ``--write [DIR]``: profile every row and write the atlas (rows declared slow
  are kept from DIR's existing atlas unless ``--include-slow``) and its timings;
- ``--check [DIR]``: profile again, the cases in reverse order (so that a metric keeping state
  between calls drifts), and report every row that drifted (exit 1); a slow row is recomputed on
  a fixed sample of its cases (:mod:`oipr_bench.atlas.disagreements.sample`) unless ``--include-slow``;
- ``--disagreements [DIR]``: compare implementations of the same metric (DISAGREEMENTS.md);
- ``--evaluator X``: audit X only (suite ``all`` unless ``--suite``) and print its row inside the
  committed grid, with the three nearest rows by behaviour and where X differs from each;
- ``--where NAME=VALUE ...``: the rows having all these characteristic/property values, with their
  packages and parameters, fewest undetermined cells first.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from pathlib import Path
from typing import Any

from .audit import add_run_options, cli_phrased, exit_code, given_run_options, options_from


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``atlas`` sub-command."""
    parser = subparsers.add_parser(
        "atlas",
        help="the metric atlas: public metric implementations profiled; place your metric among them",
        description="Print, regenerate (--write), verify (--check) the metric atlas, or place an evaluator in it (--evaluator).",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", nargs="?", const="", metavar="DIR", help="profile every row and write the atlas into DIR (default: the source checkout's atlas/)")
    mode.add_argument("--check", nargs="?", const="", metavar="DIR", help="profile again and compare with the atlas in DIR; exit 1 on drift")
    mode.add_argument("--disagreements", nargs="?", const="", metavar="DIR", help="compare implementations of the same metric and write DIR/DISAGREEMENTS.md (about 20 min on 2 cores)")
    mode.add_argument("--where", nargs="+", metavar="NAME=VALUE", help="list the rows whose characteristics/properties have all these values "
                      "(e.g. early_detection_reward=yes fp_distance=proximity_aware), fewest undetermined cells first")
    mode.add_argument("--evaluator", metavar="SPEC", help="audit SPEC (pkg.mod:Name, file.py:Name or a built-in name) and show its row among the others")
    parser.add_argument("--include-slow", action="store_true", help="also profile the rows declared slow in full (docs/benchmarks.md has the time); without it, --check recomputes a fixed sample of their cases")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), help="worker processes for --write/--check (default 2)")
    parser.add_argument("--only", action="append", metavar="ROW_ID", help="--check only these rows (repeatable)")
    parser.add_argument("--dir", metavar="DIR", default=None, help="read the atlas from DIR instead of the shipped one (printing, --where and --evaluator)")
    # With --evaluator: the options of `oipr-bench audit` (--evaluator-param is the old spelling of --param).
    add_run_options(parser, param_aliases=("--evaluator-param",))
    parser.set_defaults(func=run)


def _source_dir() -> Path:
    from ..errors import UsageError
    from .._paths import source_root

    root = source_root()
    if root is None:
        raise UsageError("--write/--check need DIR outside a source checkout (the installed atlas is read-only)")
    return root / "atlas"


def run(args: argparse.Namespace) -> int:
    from ..errors import UsageError

    if args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {args.jobs}")
    given = given_run_options(args)
    if given and not args.evaluator:
        raise UsageError(f"{', '.join(given)} need{'s' if len(given) == 1 else ''} --evaluator")
    if args.only and args.check is None:
        raise UsageError("--only selects rows for --check; give --check")
    if args.include_slow and args.write is None and args.check is None:
        raise UsageError("--include-slow applies to --write and --check; give one of them")
    if args.write is not None:
        return _write(Path(args.write) if args.write else _source_dir(), args)
    if args.check is not None:
        return _check(Path(args.check) if args.check else _source_dir(), args)
    if args.disagreements is not None:
        return _disagreements(Path(args.disagreements) if args.disagreements else _source_dir(), args)
    if args.evaluator:
        return _place(args)
    if args.where is not None:
        return _where(args)
    from ..atlas.render import grid_lines
    from ..atlas.store import read_atlas

    doc = read_atlas(Path(args.dir) if args.dir else None)
    sys.stdout.write("\n".join(grid_lines(doc["rows"], doc["characteristics"])) + "\n")
    return 0


def _profiled(adapters: list[Any], jobs: int, reverse: bool = False) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, float]]:
    from ..atlas.build import profile_all, worker_count

    used = worker_count(jobs, len(adapters))
    if used < jobs:
        print(f"oipr-bench atlas: --jobs {jobs} clamped to {used} ({len(adapters)} row{'s' * (len(adapters) != 1)} "
              f"to profile, {os.cpu_count() or 1} CPUs)", file=sys.stderr)
    rows, reports, seconds = [], {}, {}
    for row, report, secs in profile_all(adapters, jobs=jobs, reverse=reverse):
        rows.append(row)
        reports[row["id"]] = report
        seconds[row["id"]] = secs
    return rows, reports, seconds


def _cpu_seconds() -> float:
    """CPU time of this process and of its finished workers."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _write(directory: Path, args: argparse.Namespace) -> int:
    from ..atlas.adapters.envs import make_env_command
    from ..atlas.build import not_run_row
    from ..atlas.adapters.registry import adapters
    from ..atlas.integrity import kept_profile_problem
    from ..atlas.store import read_profile, slug, write_atlas
    from ..atlas.timings import record_timing

    t0, cpu0 = time.perf_counter(), _cpu_seconds()
    env = _env()
    todo = [a for a in adapters() if a.env == env and (args.include_slow or not a.slow)]
    rows_by_id, reports = {}, {}
    fresh_rows, fresh_reports, seconds = _profiled(todo, args.jobs)
    for row in fresh_rows:
        rows_by_id[row["id"]] = row
    reports.update(fresh_reports)
    committed = _committed_rows(directory)
    for a in adapters():
        if a.id in rows_by_id:
            continue
        kept = read_profile(directory, a.id)
        refused = kept_profile_problem(kept, committed.get(a.id)) if kept is not None else ""
        if refused:  # an edited profile must not flow into the atlas
            print(f"atlas: profiles/{slug(a.id)}.json not kept: {refused}", file=sys.stderr)
            kept = None
        if a.env != env:  # another environment's row: kept as stored (its package is not installed here)
            if kept is not None:
                rows_by_id[a.id], reports[a.id] = kept["row"], kept["report"]
            else:
                rows_by_id[a.id] = not_run_row(a, f"a row of the {a.env} environment, not profiled yet: run `oipr-bench atlas --write` "
                                                  f"in a venv made by `{make_env_command(a.env)}`")
        elif kept is not None and kept["row"]["status"] == "ok" and kept["row"]["version"] == a.version:
            rows_by_id[a.id], reports[a.id] = kept["row"], kept["report"]
        elif a.version is None:
            rows_by_id[a.id] = not_run_row(a, f"{a.package} is not installed (see atlas/requirements.txt)", "unavailable")
        else:
            rows_by_id[a.id] = not_run_row(a, "slow (a second or more per call; several minutes for its audit) and not "
                                              "profiled yet; profile it with `oipr-bench atlas --write --include-slow`")
    rows = [rows_by_id[a.id] for a in adapters()]
    write_atlas(directory, rows, reports)
    wall = time.perf_counter() - t0
    mode = ("write_include_slow" if args.include_slow else "write") + ("" if env == "main" else f"_{env}")
    record_timing(directory, mode, wall=wall,
                  cpu=_cpu_seconds() - cpu0, jobs=args.jobs, rows=seconds)
    ok = sum(r["status"] == "ok" for r in rows)
    other = sum(a.env != env for a in adapters())
    print(f"atlas: {len(rows)} rows ({ok} profiled; {other} of other environments kept as stored) written to {directory} "
          f"in {wall:.0f} s (environment {env})")
    return 0


def _committed_rows(directory: Path) -> dict[str, Any]:
    """The rows of ``directory``'s atlas.json by id (none when there is no atlas yet, or it is not one).

    Read without noting it as an input of the run: ``--write`` writes it anew.
    """
    from ..atlas.store import read_json

    path = directory / "atlas.json"
    doc = read_json(path, None) if path.exists() else {}
    rows = doc.get("rows") if isinstance(doc, dict) else None
    return {r["id"]: r for r in rows if isinstance(r, dict) and "id" in r} if isinstance(rows, list) else {}


def _stored_report(directory: Path, rid: str) -> Any:
    """The audit report stored in ``profiles/<slug>.json`` for row ``rid`` (None: none, or unreadable, which
    :func:`oipr_bench.atlas.integrity.integrity_problems` names)."""
    from ..atlas.store import read_json, slug
    from ..errors import UsageError

    try:
        stored = read_json(directory / "profiles" / f"{slug(rid)}.json", None)
    except UsageError:
        return None
    return stored.get("report") if isinstance(stored, dict) else None


def _check(directory: Path, args: argparse.Namespace) -> int:
    from ..atlas.drift import TOLERANCE, drift, report_drift
    from ..atlas.adapters.registry import adapters
    from ..atlas.disagreements.sample import SAMPLE_CASES, sample_drift
    from ..atlas.store import read_atlas
    from ..errors import UsageError

    from ..atlas.integrity import integrity_problems

    doc = read_atlas(directory)
    committed = {r["id"]: r for r in doc["rows"]}
    tampered = integrity_problems(directory, doc)  # the files beside the rows: what --write would write
    env = _env()
    todo = [a for a in adapters() if a.env == env and (args.include_slow or not a.slow) and (not args.only or a.id in args.only)]
    unknown = set(args.only or ()) - {a.id for a in adapters()}
    if unknown:
        raise UsageError(f"--only: unknown row id(s) {', '.join(sorted(unknown))}")
    # The cases run last to first: a metric object that keeps state between calls drifts.
    rows, fresh, _ = _profiled(todo, args.jobs, reverse=True)
    problems = tampered + drift(committed, rows)
    for rid, report in fresh.items():  # the numbers inside a stored report, not only the row's headline numbers
        problems += report_drift(rid, _stored_report(directory, rid), report)
    recomputed = {a.id for a in todo}
    sampled = [a for a in adapters() if a.env == env and a.slow and a.id not in recomputed and (not args.only or a.id in args.only)
               and committed.get(a.id, {}).get("status") == "ok"]
    other = sum(a.env != env and (not args.only or a.id in args.only) for a in adapters())
    for a in sampled:  # the slow rows not profiled in full: a fixed sample of their cases
        problems += sample_drift(committed[a.id], a, TOLERANCE)
    for line in problems:
        print(f"atlas drift: {line}")
    print(f"atlas --check (environment {env}): {len(rows)} rows recomputed, {len(sampled)} slow rows sampled "
          f"({len(SAMPLE_CASES)} cases each), {len(problems) - len(tampered)} drifted, "
          f"{len(tampered)} problem(s) in the atlas files; {other} rows of other environments not checked here")
    return 1 if problems else 0


def _where(args: argparse.Namespace) -> int:
    """``--where NAME=VALUE ...``: the rows with all these cell values (:mod:`oipr_bench.atlas.select`)."""
    from ..atlas.select import parse_conditions, where_lines
    from ..atlas.store import read_atlas

    doc = read_atlas(Path(args.dir) if args.dir else None)
    sys.stdout.write("\n".join(where_lines(parse_conditions(args.where, doc), doc)) + "\n")
    return 0


def _env() -> str:
    """The atlas environment this interpreter runs in (a bad marker or OIPR_ATLAS_ENV is a usage error)."""
    from ..atlas.adapters.envs import current_env
    from ..errors import UsageError

    try:
        return current_env()
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _disagreements(directory: Path, args: argparse.Namespace) -> int:
    from ..atlas.disagreements.report import render_disagreements
    from ..atlas.disagreements.study import study
    from ..io import atomic_write_text

    t0 = time.perf_counter()
    from ..atlas.build import worker_count
    from ..atlas.disagreements.study import groups

    jobs = worker_count(args.jobs, len(groups()))
    if jobs < args.jobs:
        print(f"oipr-bench atlas: --jobs {args.jobs} clamped to {jobs} ({os.cpu_count() or 1} CPUs)", file=sys.stderr)
    text = render_disagreements(study(jobs=jobs))
    directory.mkdir(parents=True, exist_ok=True)
    atomic_write_text(directory / "DISAGREEMENTS.md", text)
    print(f"atlas: {directory / 'DISAGREEMENTS.md'} written in {time.perf_counter() - t0:.0f} s")
    return 0


def _place(args: argparse.Namespace) -> int:
    """Audit ``--evaluator`` with the audit options, print its row among the others; exit like ``audit``."""
    from ..auditing.profile.profiles import AuditSession
    from ..atlas.place import placement_lines, unplaceable, user_row
    from ..atlas.store import read_atlas
    from ..auditing.calling.resolve import parse_params, resolve

    doc = read_atlas(Path(args.dir) if args.dir else None)
    options = options_from(args)
    if options.suite is None:  # the atlas rows carry characteristics and properties: place on both
        options = dataclasses.replace(options, suite="all")
    resolved = resolve(args.evaluator, parse_params(args.param, option="--param"))
    with cli_phrased(), AuditSession(resolved, options) as session:
        profile = session.run_all()
    problem = unplaceable(profile.to_dict())
    if problem:
        print(f"oipr-bench atlas: evaluator {args.evaluator}: {problem}", file=sys.stderr)
        return 1
    row = user_row(args.evaluator, profile.to_dict(), profile.declarations)
    sys.stdout.write("\n".join(placement_lines(row, doc)) + "\n")
    return exit_code(profile, "atlas")
