"""``oipr-bench atlas``: the metric atlas (public TAD metric implementations profiled).

- no option: print the committed grid;
- ``--write [DIR]``: profile every row and write the atlas (rows declared slow
  are kept from DIR's existing atlas unless ``--include-slow``, their stored reports re-read with
  the current readings: :mod:`oipr_bench.atlas.reread`), its timings, and a page and a
  badge per row (``pages/``, ``badges/``: :mod:`oipr_bench.atlas.site`);
- ``--check [DIR]``: profile again, the cases in reverse order (so that a metric keeping state
  between calls drifts), and report every row that drifted (exit 1); a slow row is recomputed on
  a fixed sample of its cases (:mod:`oipr_bench.atlas.disagreements.sample`) unless ``--include-slow``;
- ``--disagreements [DIR]``: compare implementations of the same metric (DISAGREEMENTS.md);
- ``--evaluator X``: audit X only (suite ``all`` unless ``--suite``) and print its row inside the
  committed grid, with the three nearest rows by behaviour and where X differs from each;
- ``--write``/``--check``/``--disagreements`` run as Dask tasks (:mod:`oipr_bench.atlas.running`): ``--jobs`` local
  workers, or ``--scheduler tcp://HOST:PORT``'s; ``--write`` keeps a result cache (``--cache DIR``, ``--no-cache``);
- ``--where NAME=VALUE ...``: the rows having all these characteristic/property values, with their
  packages and parameters, fewest undetermined cells first;
- ``--diff OLD NEW``: two atlas folders compared cell by cell (:mod:`oipr_bench.atlas.compare.diff`);
  exit 1 on a regression;
- ``--realdata DATA``: every row on NAB (:mod:`oipr_bench.atlas.realdata`); with ``--check``, a sample recomputed;
  with ``--evaluator``, X placed by its ranking of NAB's detectors too.
"""

from __future__ import annotations

import argparse
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
    mode.add_argument("--diff", nargs=2, metavar=("OLD", "NEW"), help="compare two atlas folders cell by cell: each cell regression, "
                      "fixed, changed or unchanged (docs/atlas.md); exit 1 on a regression")
    mode.add_argument("--evaluator", metavar="SPEC", help="audit SPEC (pkg.mod:Name, file.py:Name or a built-in name) and show its row among the others")
    parser.add_argument("--realdata", metavar="DATA", default=None,
                        help="run every row of this environment on NAB's real detectors (DATA: a NAB checkout or copy) and write "
                        "atlas/realdata/ (or --dir DIR's); with --check, recompute a sample of the committed real-data cells")
    parser.add_argument("--row-budget", type=float, metavar="CPU_MINUTES", default=None,
                        help="--realdata: a row estimated to cost more runs on a declared subset of the series (default 15)")
    parser.add_argument("--include-slow", action="store_true", help="also profile the rows declared slow in full (docs/benchmarks.md has the time); without it, --check recomputes a fixed sample of their cases")
    parser.add_argument("--jobs", type=int, default=None, help="local Dask worker processes for --write/--check/--disagreements (default 2)")
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT", default=None,
                        help="run --write/--check/--disagreements on the workers of this running Dask scheduler instead of local ones (docs/atlas.md)")
    parser.add_argument("--cache", metavar="DIR", default=None,
                        help="result cache: compute only the rows it does not hold (default for --write: ~/.cache/oipr-bench/atlas; "
                        "--check uses one only when given)")
    parser.add_argument("--no-cache", action="store_true", help="--write: compute every row, read and store no cache")
    parser.add_argument("--task-timeout", type=float, metavar="SECONDS", default=None,
                        help="end an atlas task (a row's audit) still running after SECONDS and record the row as failed (default: no limit)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar (none is drawn when stderr is not a terminal)")
    parser.add_argument("--only", action="append", metavar="ROW_ID", help="--check or --write only these rows (repeatable); "
                        "--write keeps every other row as stored in DIR")
    parser.add_argument("--pin", metavar="PKG==VERSION", help="--write only PKG's rows, after checking that this environment has "
                        "exactly PKG VERSION installed (refused otherwise; docs/atlas.md: a scratch environment)")
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
    from ..atlas.running.options import check_mode_options, check_run_options
    from ..errors import UsageError

    check_run_options(args)
    given = given_run_options(args)
    if given and not args.evaluator:
        raise UsageError(f"{', '.join(given)} need{'s' if len(given) == 1 else ''} --evaluator")
    check_mode_options(args)
    if args.realdata is not None:
        return _realdata_mode(args)
    if args.write is not None:
        _write_selection(args, _env())  # --only/--pin refused before the output folder is made
        return _regenerated(_write, Path(args.write) if args.write else _source_dir(), args)
    if args.check is not None:
        return _check(Path(args.check) if args.check else _source_dir(), args)
    if args.diff is not None:
        return _diff(args)
    if args.disagreements is not None:
        return _regenerated(_disagreements, Path(args.disagreements) if args.disagreements else _source_dir(), args)
    if args.evaluator:
        return _place(args)
    if args.where is not None:
        return _where(args)
    from ..atlas.render import grid_lines
    from ..atlas.store import read_atlas

    doc = read_atlas(Path(args.dir) if args.dir else None)
    sys.stdout.write("\n".join(grid_lines(doc["rows"], doc["characteristics"])) + "\n")
    return 0


def _realdata_mode(args: argparse.Namespace) -> int:
    """``--realdata DATA``: run the rows on NAB, or recompute a sample (``--check``), or place ``--evaluator`` on it."""
    from ..atlas.realdata.command import checked_budget

    budget = checked_budget(args)
    if args.evaluator is not None:
        return _place(args)
    if args.check is not None:
        return _realdata_check(Path(args.check) if args.check else _source_dir(), args)
    return _regenerated(lambda d, a: _realdata(d, a, budget), Path(args.dir) if args.dir is not None else _source_dir(), args)


def _realdata(directory: Path, args: argparse.Namespace, budget: float) -> int:
    """Run this environment's rows on NAB (:func:`oipr_bench.atlas.realdata.command.run_on_real`), then re-render the grid and pages."""
    from ..atlas.realdata.command import RunReport, run_on_real
    from ..auditing.progress import progress_bar

    report = RunReport()  # filled as the run goes: its notes are printed also when it is interrupted
    try:
        run_on_real(directory, args, budget, _env(), cpu_seconds=_cpu_seconds, report=report, progress=lambda total, unit: progress_bar(
            total=total, unit=unit, desc=f"atlas --realdata ({unit}s)", quiet=args.quiet))
    finally:
        for note in report.notes:
            print(f"oipr-bench atlas: {note}", file=sys.stderr)
    if (directory / "atlas.json").is_file():  # a folder holding only real-data files has no grid to render
        from ..atlas.site.files import write_site
        from ..atlas.store import read_atlas, rerender

        rerender(directory)
        write_site(directory, read_atlas(directory))  # each row's page shows its real-data ranking
    print("\n".join(report.lines))
    return report.code


def _realdata_check(directory: Path, args: argparse.Namespace) -> int:
    """``--check --realdata DATA``: recompute a sample of the committed real-data cells (:mod:`oipr_bench.atlas.realdata.check`)."""
    from ..atlas.realdata.check import check_command

    code, text = check_command(args, directory, _env())
    print(text)
    return code


def _regenerated(write: Any, directory: Path, args: argparse.Namespace) -> int:
    """Run ``write(directory, args)`` with the checkout's atlas/ open to it; ``directory`` refused first if it is
    oipr-bench's code, other data or its environment (:func:`oipr_bench.io.make_output_folder`), before any work."""
    from ..io import make_output_folder, regenerating

    with regenerating("atlas"):
        make_output_folder(directory)
        return int(write(directory, args))


def _profiled(adapters: list[Any], jobs: int, reverse: bool = False, args: argparse.Namespace | None = None,
              cache: Any = None) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, float]]:
    from ..atlas.build import profile_all, worker_count

    scheduler = getattr(args, "scheduler", None)
    used = worker_count(jobs, len(adapters))
    if used < jobs and not scheduler:
        print(f"oipr-bench atlas: --jobs {jobs} clamped to {used} ({len(adapters)} row{'s' * (len(adapters) != 1)} "
              f"to profile, {os.cpu_count() or 1} CPUs)", file=sys.stderr)
    rows, reports, seconds = [], {}, {}
    counts: dict[str, int] = {}
    profiled = profile_all(adapters, jobs=jobs, reverse=reverse, scheduler=scheduler, cache=cache,
                           timeout=getattr(args, "task_timeout", None), quiet=bool(getattr(args, "quiet", True)), counts=counts)
    if cache is not None:
        for path, why in cache.rejected:
            print(f"oipr-bench atlas: cache entry {path} not read ({why}); computed again", file=sys.stderr)
        print(f"oipr-bench atlas: {counts.get('computed', 0)} rows computed, {counts.get('cached', 0)} read from the cache "
              f"{cache.root}", file=sys.stderr)
    for row, report, secs in profiled:
        rows.append(row)
        reports[row["id"]] = report
        seconds[row["id"]] = secs
    return rows, reports, seconds


def _cpu_seconds() -> float:
    """CPU time of this process and of its finished workers."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _write(directory: Path, args: argparse.Namespace) -> int:
    from ..atlas.running.options import result_cache
    from ..atlas.adapters.envs import make_env_command
    from ..atlas.build import not_run_row
    from ..atlas.adapters.registry import adapters
    from ..atlas.integrity import kept_profile_problem
    from ..atlas.reread import reread_row
    from ..atlas.site.files import write_site
    from ..atlas.store import atlas_document, committed_rows, read_profile, slug, write_atlas
    from ..atlas.timings import record_timing

    t0, cpu0 = time.perf_counter(), _cpu_seconds()
    env = _env()
    selected = _write_selection(args, env)
    todo = [a for a in adapters() if a.env == env and (args.include_slow or not a.slow) and a.id in selected]
    rows_by_id, reports = {}, {}
    fresh_rows, fresh_reports, seconds = _profiled(todo, args.jobs, args=args, cache=result_cache(args, by_default=True))
    for row in fresh_rows:
        rows_by_id[row["id"]] = row
    reports.update(fresh_reports)
    committed = committed_rows(directory)
    for a in adapters():
        if a.id in rows_by_id:
            continue
        kept = read_profile(directory, a.id)
        refused = kept_profile_problem(kept, committed.get(a.id)) if kept is not None else ""
        if refused:  # an edited profile must not flow into the atlas
            print(f"atlas: profiles/{slug(a.id)}.json not kept: {refused}", file=sys.stderr)
            kept = None
        if a.env != env or a.id not in selected:  # another environment's row, or one not selected: kept as stored
            if kept is not None:
                rows_by_id[a.id], reports[a.id] = reread_row(kept["row"], kept["report"])
            elif a.env != env:
                rows_by_id[a.id] = not_run_row(a, f"a row of the {a.env} environment, not profiled yet: run `oipr-bench atlas --write` "
                                                  f"in a venv made by `{make_env_command(a.env)}`")
            else:
                rows_by_id[a.id] = not_run_row(a, "not profiled yet (not selected by --only/--pin): run `oipr-bench atlas --write`")
        elif kept is not None and kept["row"]["status"] == "ok" and kept["row"]["version"] == a.version:
            rows_by_id[a.id], reports[a.id] = reread_row(kept["row"], kept["report"])
        elif a.version is None:
            rows_by_id[a.id] = not_run_row(a, f"{a.package} is not installed (see atlas/requirements.txt)", "unavailable")
        else:
            rows_by_id[a.id] = not_run_row(a, "slow (a second or more per call; several minutes for its audit) and not "
                                              "profiled yet; profile it with `oipr-bench atlas --write --include-slow`")
    rows = [rows_by_id[a.id] for a in adapters()]
    write_atlas(directory, rows, reports)
    write_site(directory, atlas_document(rows))  # a page and a badge per row, from the profiles just written
    wall = time.perf_counter() - t0
    mode = ("write_include_slow" if args.include_slow else "write") + ("" if env == "main" else f"_{env}")
    record_timing(directory, mode, wall=wall,
                  cpu=_cpu_seconds() - cpu0, jobs=args.jobs, rows=seconds)
    ok = sum(r["status"] == "ok" for r in rows)
    other = sum(a.env != env for a in adapters())
    chosen = "" if len(selected) == len(rows) else f"; {len(todo)} recomputed, as --only/--pin select"
    print(f"atlas: {len(rows)} rows ({ok} profiled; {other} of other environments kept as stored{chosen}) written to {directory} "
          f"in {wall:.0f} s (environment {env})")
    return 0


def _write_selection(args: argparse.Namespace, env: str) -> set[str]:
    """The row ids ``--write`` may profile: every row, or those of ``--only`` and ``--pin`` (checked here)."""
    from ..atlas.adapters.registry import adapters
    from ..atlas.compare.pin import pinned_rows
    from ..errors import UsageError

    ids = {a.id for a in adapters()}
    unknown = set(args.only or ()) - ids
    if unknown:
        raise UsageError(f"--only: unknown row id(s) {', '.join(sorted(unknown))}")
    selected = set(args.only) if args.only else ids
    if args.pin is not None:
        pinned = pinned_rows(args.pin, env, include_slow=args.include_slow, only=args.only)
        selected &= pinned
    return selected


def _check(directory: Path, args: argparse.Namespace) -> int:
    from ..atlas.running.options import result_cache
    from ..atlas.drift import TOLERANCE, drift, report_drift
    from ..atlas.adapters.registry import adapters
    from ..atlas.disagreements.sample import SAMPLE_CASES, sample_drift
    from ..atlas.store import read_atlas, stored_report
    from ..errors import UsageError

    from ..atlas.integrity import integrity_problems

    doc = read_atlas(directory)
    committed = {r["id"]: r for r in doc["rows"]}
    from ..atlas.site.files import site_problems

    tampered = integrity_problems(directory, doc)  # the files beside the rows: what --write would write
    tampered += site_problems(directory, doc)  # the pages and badges
    env = _env()
    todo = [a for a in adapters() if a.env == env and (args.include_slow or not a.slow) and (not args.only or a.id in args.only)]
    unknown = set(args.only or ()) - {a.id for a in adapters()}
    if unknown:
        raise UsageError(f"--only: unknown row id(s) {', '.join(sorted(unknown))}")
    # The cases run last to first: a metric object that keeps state between calls drifts.
    rows, fresh, _ = _profiled(todo, args.jobs, reverse=True, args=args, cache=result_cache(args, by_default=False))
    problems = tampered + drift(committed, rows)
    for rid, report in fresh.items():  # the numbers inside a stored report, not only the row's headline numbers
        problems += report_drift(rid, stored_report(directory, rid), report)
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


def _diff(args: argparse.Namespace) -> int:
    """``--diff OLD NEW``: every cell of the rows of both atlases classified; exit 1 on a regression."""
    from ..atlas.compare.diff import diff_atlases, diff_lines
    from ..atlas.compare.folders import read_pair

    old_doc, new_doc = read_pair(Path(args.diff[0]), Path(args.diff[1]))
    result = diff_atlases(old_doc, new_doc)
    sys.stdout.write("\n".join(diff_lines(result)) + "\n")
    return 1 if result.regressed else 0


def _where(args: argparse.Namespace) -> int:
    """``--where NAME=VALUE ...``: the rows with all these cell values (:mod:`oipr_bench.atlas.select`)."""
    from ..atlas.realdata.rowfiles import read_summary
    from ..atlas.select import parse_conditions, where_lines
    from ..atlas.store import default_dir, read_atlas

    folder = Path(args.dir) if args.dir else default_dir()
    doc = {**read_atlas(folder), "realdata": read_summary(folder)}  # the real-data columns, when the atlas has them
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
    from ..atlas.build import worker_count
    from ..atlas.disagreements.report import render_disagreements
    from ..atlas.disagreements.study import groups, study
    from ..atlas.realdata.render import with_real_section
    from ..atlas.realdata.rowfiles import read_summary
    from ..io import atomic_write_text

    t0 = time.perf_counter()
    jobs = worker_count(args.jobs, len(groups()))
    if jobs < args.jobs and not args.scheduler:
        print(f"oipr-bench atlas: --jobs {args.jobs} clamped to {jobs} ({os.cpu_count() or 1} CPUs)", file=sys.stderr)
    text = with_real_section(render_disagreements(study(jobs=jobs, scheduler=args.scheduler, timeout=args.task_timeout)),
                             read_summary(directory))
    atomic_write_text(directory / "DISAGREEMENTS.md", text)
    print(f"atlas: {directory / 'DISAGREEMENTS.md'} written in {time.perf_counter() - t0:.0f} s")
    return 0


def _place(args: argparse.Namespace) -> int:
    """Audit ``--evaluator`` with the audit options, print its row among the others; exit like ``audit``."""
    from ..auditing.profile.profiles import AuditSession
    from ..atlas.place import placement_lines, placement_options, unplaceable, user_row
    from ..atlas.store import read_atlas
    from ..auditing.calling.resolve import parse_params, resolve

    doc = read_atlas(Path(args.dir) if args.dir else None)
    options = placement_options(options_from(args))  # the plugin's --oipr-atlas places with the same options
    resolved = resolve(args.evaluator, parse_params(args.param, option="--param"))
    with cli_phrased(), AuditSession(resolved, options) as session:
        profile = session.run_all()
    problem = unplaceable(profile.to_dict())
    if problem:
        print(f"oipr-bench atlas: evaluator {args.evaluator}: {problem}", file=sys.stderr)
        return 1
    row = user_row(args.evaluator, profile.to_dict(), profile.declarations)
    sys.stdout.write("\n".join(placement_lines(row, doc)) + "\n")
    if getattr(args, "realdata", None) is not None:
        from ..atlas.realdata.place import place_on_real
        from ..atlas.store import default_dir

        with cli_phrased():
            lines = place_on_real(args.realdata, Path(args.dir) if args.dir else default_dir(), args.evaluator, resolved.fn,
                                  profile.declarations, timeout=args.timeout, isolate=args.isolate)
        sys.stdout.write("\n".join(lines) + "\n")
    return exit_code(profile, "atlas")
