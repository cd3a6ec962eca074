"""Wall and CPU time of the README's test command, stored for the README to quote.

Usage (from the repository root, in the venv of the README's test command)::

    python benchmarks/suite_time.py    # run `python -m pytest -n 2`, store benchmarks/suite-time.json

The README's test command (``python -m pytest -n 2``: pytest-xdist from the ``dev`` extra, two
workers for the two-core machines CI and the developers use) is run once from the repository root in
a child process; its wall time, the CPU time of the child and all its descendants
(``RUSAGE_CHILDREN``), the machine's CPU count and load average before the run, and pytest's closing
counts are written to ``benchmarks/suite-time.json``.  The README's sentence about the suite's time
is generated from that file (:func:`readme_sentence`) and checked by ``tests/test_newcomer.py``; that
one check is deselected in the measured run (it reads what the run is about to store).  A run that is
not green is not stored.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
STORE = REPO / "benchmarks" / "suite-time.json"
#: The test that compares the README with this file: it cannot pass before the file is written.
SELF_CHECK = "tests/test_newcomer.py::test_readme_quotes_the_measured_suite_time"
#: pytest's closing line, e.g. ``2449 passed, 421 skipped in 780.12s (0:13:00)``.
CLOSING = re.compile(r"(?P<counts>(?:\d+ \w+(?:, )?)+) in (?P<seconds>[\d.]+)s")


def _minutes(seconds: float) -> str:
    """``12 min 05 s`` (``45 s`` under a minute)."""
    whole = int(round(seconds))
    return f"{whole // 60} min {whole % 60:02d} s" if whole >= 60 else f"{whole} s"


def readme_sentence(store: dict) -> str:
    """The README's sentence on the suite's time, from the stored measurement."""
    return (f"The second runs the whole suite on two workers (`-n 2`, pytest-xdist from the `dev` extra): "
            f"**{_minutes(store['wall_seconds'])}** wall and {_minutes(store['cpu_seconds'])} of CPU on "
            f"{store['cpus']} cores (measured {store['date']} by `python benchmarks/suite_time.py`).")


def measure() -> dict:
    """Run the suite once; the measurement as stored (raises when the run is not green)."""
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cmd = [sys.executable, "-m", "pytest", "-n", "2"]
    shown = cmd + ["-rfE", "--deselect", SELF_CHECK]  # the failures' names, printed when the run is not green
    t0 = time.perf_counter()
    out = subprocess.run(shown, cwd=REPO, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    last = out.stdout.strip().splitlines()[-1] if out.stdout.strip() else ""
    match = CLOSING.search(last)
    if out.returncode != 0 or match is None:
        failed = "\n".join(line for line in out.stdout.splitlines() if line.startswith(("FAILED ", "ERROR ")))
        raise SystemExit(f"suite_time: the suite was not green (exit {out.returncode}): {last or out.stderr[-500:]}\n{failed}")
    counts = {word: int(n) for n, word in re.findall(r"(\d+) (\w+)", match.group("counts"))}
    return {
        "date": datetime.date.today().isoformat(),
        "command": " ".join(["python"] + cmd[1:]),
        "cpus": os.cpu_count(),
        "load_before": round(load, 2),
        "wall_seconds": round(wall, 1),
        "cpu_seconds": round((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), 1),
        "passed": counts.get("passed", 0),
        "skipped": counts.get("skipped", 0),
        "deselected": [SELF_CHECK],
    }


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args(argv)
    result = measure()
    tmp = STORE.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(STORE)
    print(f"{result['command']}: {_minutes(result['wall_seconds'])} wall, {_minutes(result['cpu_seconds'])} CPU, "
          f"{result['passed']} passed, {result['skipped']} skipped (load before: {result['load_before']}); wrote {STORE.name}")
    print(readme_sentence(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
