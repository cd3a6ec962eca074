"""The atlas's Dask execution layer: faults become failed outcomes, bad options one line and exit 2, nothing computed lost."""

from __future__ import annotations

import hashlib
import math
import operator
import socket
import sys
import time
from pathlib import Path

import pytest

from oipr_bench.atlas.adapters import registry
from oipr_bench.atlas.running.tasks import DASK_MISSING, Task, connect, run_tasks
from oipr_bench.cli import main
from oipr_bench.errors import UsageError

pytest.importorskip("distributed", reason="dask.distributed is not installed (pip install 'oipr-bench[atlas]')")


def test_a_raising_task_and_a_hanging_task_are_one_failed_outcome_each():
    tasks = [Task("hangs", time.sleep, (120,)), Task("adds", operator.add, (1, 2)), Task("raises", math.sqrt, (-1,)),
             Task("adds-later", operator.add, (3, 4))]
    finished = []
    t0 = time.monotonic()
    with connect(2) as client:
        outcomes = run_tasks(tasks, client, timeout=3, on_done=lambda i, o: finished.append(i))
    assert time.monotonic() - t0 < 90  # the hung task did not hold the run for its 120 s
    hung, added, raised, later = outcomes
    assert hung.value is None and hung.failure.startswith("timed out: still running after 3 s; ended (its worker ")
    assert added.ok and added.value == 3 and later.ok and later.value == 7
    assert raised.failure == "ValueError: math domain error"
    assert sorted(finished) == [0, 1, 2, 3]


def test_without_dask_the_run_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(UsageError) as err:
        connect(1).__enter__()
    assert str(err.value) == DASK_MISSING and "pip install 'oipr-bench[atlas]'" in DASK_MISSING


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _snapshot(*folders: Path) -> dict[str, str]:
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for f in folders for p in sorted(f.rglob("*")) if p.is_file()}


@pytest.fixture()
def builtins_only(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(registry, "PACKAGE_MODULES", ("builtins",))
    monkeypatch.setenv("OIPR_ATLAS_ENV", "main")


def test_bad_execution_options_are_one_line_and_lose_nothing(builtins_only, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    atlas, cache = tmp_path / "atlas", tmp_path / "cache"
    assert main(["atlas", "--write", str(atlas), "--cache", str(cache), "--jobs", "2"]) == 0
    assert "13 rows computed, 0 read from the cache" in capsys.readouterr().err
    before = _snapshot(atlas, cache)
    assert len([p for p in before if p.startswith(str(cache))]) == 13
    (tmp_path / "file").write_text("mine", encoding="utf-8")
    dead = f"tcp://127.0.0.1:{_free_port()}"
    cases = [
        (["--write", str(atlas), "--cache", str(cache), "--scheduler", dead], f"--scheduler {dead}: no Dask scheduler answers there"),
        (["--check", str(atlas), "--scheduler", "localhost"], "--scheduler 'localhost': expected a Dask scheduler address tcp://HOST:PORT"),
        (["--write", str(atlas), "--cache", str(tmp_path / "file")], f"--cache {tmp_path / 'file'}: is a file, not a folder"),
        (["--write", str(atlas), "--jobs", "2", "--scheduler", dead], "--jobs sets the local workers; with --scheduler"),
        (["--write", str(atlas), "--cache", str(cache), "--no-cache"], "--cache and --no-cache contradict each other"),
        (["--disagreements", str(atlas), "--cache", str(cache)], "--cache/--no-cache apply to --write and --check"),
        (["--cache", str(cache)], "--cache applies to --write, --check and --disagreements"),
        (["--write", str(atlas), "--task-timeout", "0"], "--task-timeout must be a positive number of seconds, got 0.0"),
    ]
    for argv, message in cases:
        assert main(["atlas", *argv]) == 2, argv
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and message in err[0], (argv, err)
    assert _snapshot(atlas, cache) == before
    assert (tmp_path / "file").read_text(encoding="utf-8") == "mine"
    # the same command again computes nothing: every row is read from the cache, the atlas is written alike
    assert main(["atlas", "--write", str(atlas), "--cache", str(cache), "--jobs", "2"]) == 0
    assert "0 rows computed, 13 read from the cache" in capsys.readouterr().err
    assert {k: v for k, v in _snapshot(atlas, cache).items() if not k.endswith("timings.json")} == \
        {k: v for k, v in before.items() if not k.endswith("timings.json")}


class _Terminal:
    def __init__(self, tty: bool) -> None:
        self.tty, self.text = tty, ""

    def isatty(self) -> bool:
        return self.tty

    def write(self, text: str) -> None:
        self.text += text

    def flush(self) -> None:
        pass


def test_the_progress_bar_shows_done_rate_and_time_left_on_a_terminal_only():
    from oipr_bench.auditing.progress import draws, progress_bar

    shown = _Terminal(tty=True)
    with progress_bar(total=4, unit="row", desc="atlas", stream=shown) as bar:
        bar.update(3)
    assert "atlas" in shown.text and "3/4" in shown.text and "row/s" in shown.text and "<" in shown.text
    for quiet, tty in ((True, True), (False, False)):
        hidden = _Terminal(tty=tty)
        with progress_bar(total=4, stream=hidden, quiet=quiet) as bar:
            bar.update(4)
        assert hidden.text == "" and not draws(quiet, hidden)


def test_the_disagreement_study_is_one_task_per_group_and_stops_on_a_failed_group(monkeypatch: pytest.MonkeyPatch):
    from oipr_bench.atlas.disagreements import study as study_module
    from oipr_bench.atlas.running import tasks

    submitted: list[list[Task]] = []

    class Cluster:
        def __init__(self, jobs, scheduler=None):
            self.jobs, self.scheduler = jobs, scheduler

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    def run(todo, client, timeout=None, on_done=None):
        submitted.append(list(todo))
        return [tasks.Outcome(value=({"i": t.args[0][0]}, {"name": t.args[0][1]})) if t.args[0][0] != fail else
                tasks.Outcome(failure="timed out: still running after 5 s") for t in todo]

    monkeypatch.setattr(tasks, "connect", Cluster)
    monkeypatch.setattr(tasks, "run_tasks", run)
    groups = study_module.groups()
    fail = -1
    done = study_module.study(jobs=2)
    assert [t.fn for t in submitted[0]] == [study_module._study_one] * len(groups)
    assert [(g.name, cases["i"], diff["name"]) for g, cases, diff in done] == [(g.name, i, g.name) for i, g in enumerate(groups)]
    fail = 1
    with pytest.raises(RuntimeError, match=f"disagreement study: group {groups[1].name} failed: timed out"):
        study_module.study(jobs=2)


def test_cells_fail_one_by_one_and_a_second_run_computes_none(tmp_path: Path):
    from oipr_bench.atlas.adapters.builtins import ADAPTERS as BUILTIN_ROWS
    from oipr_bench.atlas.running.cache import ResultCache, cell_fields
    from oipr_bench.atlas.running.cells import Cell, run_cells
    from oipr_bench.atlas.running.profile_keys import profile_key_fields

    row = profile_key_fields(BUILTIN_ROWS[0])
    protocol = {"labels": "windows", "probationary": "excluded"}

    def cell(detector: str, fn, *args) -> Cell:
        return Cell(detector, cell_fields(row, "0" * 64, detector, protocol), fn, args)

    cells = [cell("sqrt", math.sqrt, 2.25), cell("raises", math.sqrt, -1), cell("hangs", time.sleep, 120),
             cell("nan", float, "nan"), cell("add", operator.add, 1, 2)]
    cache = ResultCache(tmp_path / "cache")
    counts: dict[str, int] = {}
    seen: list[int] = []
    first = run_cells(cells, lambda n: connect(2), cache=cache, timeout=3, counts=counts, on_done=lambda i, r: seen.append(i))
    assert counts == {"cached": 0, "computed": 5} and sorted(seen) == [0, 1, 2, 3, 4]
    assert first[0] == {"value": 1.5, "failure": ""} and first[4] == {"value": 3.0, "failure": ""}
    assert first[1] == {"value": None, "failure": "ValueError: math domain error"}
    assert first[2]["value"] is None and first[2]["failure"].startswith("timed out: still running after 3 s")
    assert first[3] == {"value": None, "failure": "not a finite number: nan"}
    # the timed-out cell is not cached (tried again); every other cell is read back as it was
    again = run_cells(cells[:2] + cells[3:], lambda n: pytest.fail("no cluster needed: every cell is cached"),
                      cache=cache, counts=counts)
    assert counts == {"cached": 4, "computed": 0} and again == first[:2] + first[3:]
