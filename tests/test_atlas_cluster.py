"""The atlas on a Dask cluster: `dask scheduler` and two `dask worker` processes on 127.0.0.1.

A subset of the atlas (the 13 built-in rows) is written three ways and must come out byte for byte
the same: through ``--scheduler`` with one worker killed mid-run, on the default ``LocalCluster``, and
interrupted by SIGINT then resumed from the cache; the same command once more computes 0 rows.
The real-data atlas the same way, on 3 rows x 3 detectors x 3 series of a small corpus in NAB's
layout (three built-ins slowed down by :mod:`_slow_rows`, preloaded into every worker): the same
cells three ways, and 0 (row, series) pairs computed by a second run.
Every process the test starts is stopped, also when it fails.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="dask.distributed is not installed (pip install 'oipr-bench[atlas]')")

REPO_ROOT = Path(__file__).resolve().parent.parent
DASK = Path(sys.executable).parent / "dask"
ROWS = 13
#: The subset: the atlas registry cut to the built-in rows, then the command line as given.
DRIVER = ("import sys; from oipr_bench.atlas.adapters import registry; registry.PACKAGE_MODULES = ('builtins',); "
          "from oipr_bench.cli import main; sys.exit(main(sys.argv[1:]))")
OUTPUTS = ("atlas.json", "ATLAS.md", "atlas.html")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


SLOW_ROWS = REPO_ROOT / "tests" / "_slow_rows.py"
REAL_DRIVER = (f"import sys; sys.path.insert(0, {str(REPO_ROOT / 'tests')!r}); import _slow_rows; _slow_rows.register(); "
               "from oipr_bench.cli import main; sys.exit(main(sys.argv[1:]))")


def _env() -> dict[str, str]:
    env = dict(os.environ, OIPR_ATLAS_ENV="main", PYTHONPATH=str(REPO_ROOT),
               DASK_DISTRIBUTED__WORKER__PRELOAD=json.dumps([str(SLOW_ROWS)]))
    for name in ("XDG_CACHE_HOME",):
        env.pop(name, None)
    return env


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Processes:
    """Every process the test starts, each in its own process group, stopped at the end whatever happens."""

    def __init__(self) -> None:
        self.started: list[subprocess.Popen] = []

    def start(self, argv: list[str], log: Path) -> subprocess.Popen:
        with open(log, "wb") as out:
            # SIGINT back to its default in the child: a suite started in the background by a non-interactive
            # shell inherits SIGINT ignored, and the interrupt this test sends would then never arrive
            proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=_env(), cwd=log.parent,
                                    start_new_session=True, preexec_fn=_default_sigint)
        self.started.append(proc)
        return proc

    def stop_all(self) -> None:
        for proc in self.started:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + 20
        for proc in self.started:
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(proc.pid, signal.SIGKILL)  # the group: a nanny's worker process too
            except ProcessLookupError:
                pass
            proc.wait()


@pytest.fixture()
def processes():
    procs = Processes()
    try:
        yield procs
    finally:
        procs.stop_all()


def _atlas(processes: Processes, tmp: Path, name: str, *options: str) -> subprocess.Popen:
    return processes.start([sys.executable, "-c", DRIVER, "atlas", "--write", str(tmp / name), *options], tmp / f"{name}.log")


def _entries(cache: Path) -> int:
    return sum(1 for _ in cache.rglob("*.json")) if cache.is_dir() else 0


def _wait_for_entries(proc: subprocess.Popen, cache: Path, n: int, log: Path) -> None:
    deadline = time.monotonic() + 300
    while _entries(cache) < n:
        assert proc.poll() is None, f"finished before {n} rows were cached:\n{log.read_text()}"
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.05)


def _finish(proc: subprocess.Popen, log: Path, code: int = 0) -> str:
    assert proc.wait(600) == code, log.read_text()
    return log.read_text()


def _written(folder: Path) -> dict[str, bytes]:
    files = {name: (folder / name).read_bytes() for name in OUTPUTS}
    files.update({f"profiles/{p.name}": p.read_bytes() for p in sorted((folder / "profiles").glob("*.json"))})
    return files


@pytest.mark.slow
def test_a_cluster_run_with_a_killed_worker_equals_a_local_run_and_a_resumed_run(processes: Processes, tmp_path: Path):
    address, workers = _cluster(processes, tmp_path)

    # 1. through the scheduler; one worker killed (its whole process group) once two rows are done
    cache = tmp_path / "cache-cluster"
    run = _atlas(processes, tmp_path, "cluster", "--scheduler", address, "--cache", str(cache))
    _wait_for_entries(run, cache, 2, tmp_path / "cluster.log")
    os.killpg(workers[0].pid, signal.SIGKILL)
    log = _finish(run, tmp_path / "cluster.log")
    assert workers[0].wait(30) is not None and workers[1].poll() is None
    assert f"{ROWS} rows computed, 0 read from the cache" in log
    cluster = _written(tmp_path / "cluster")
    assert len(cluster) == len(OUTPUTS) + ROWS and _entries(cache) == ROWS

    # 2. the default LocalCluster
    local = _atlas(processes, tmp_path, "local", "--cache", str(tmp_path / "cache-local"), "--jobs", "2")
    _finish(local, tmp_path / "local.log")
    assert _written(tmp_path / "local") == cluster

    # 3. interrupted by SIGINT once two rows are done, then the same command resumes from the cache
    cache = tmp_path / "cache-resumed"
    first = _atlas(processes, tmp_path, "resumed", "--cache", str(cache), "--jobs", "2")
    _wait_for_entries(first, cache, 2, tmp_path / "resumed.log")
    first.send_signal(signal.SIGINT)
    assert "oipr-bench: interrupted" in _finish(first, tmp_path / "resumed.log", 130)
    kept = _entries(cache)
    assert 2 <= kept < ROWS and not (tmp_path / "resumed" / "atlas.json").exists()
    again = _atlas(processes, tmp_path, "resumed", "--cache", str(cache), "--jobs", "2")
    log = _finish(again, tmp_path / "resumed.log")
    assert f"{ROWS - kept} rows computed, {kept} read from the cache" in log
    assert _written(tmp_path / "resumed") == cluster

    # 4. the same command once more: nothing to compute
    last = _atlas(processes, tmp_path, "resumed", "--cache", str(cache), "--jobs", "2")
    assert f"0 rows computed, {ROWS} read from the cache" in _finish(last, tmp_path / "resumed.log")
    assert _written(tmp_path / "resumed") == cluster


def _cluster(processes: Processes, tmp: Path) -> tuple[str, list[subprocess.Popen]]:
    """A ``dask scheduler`` and two one-thread ``dask worker`` processes on 127.0.0.1, both workers up."""
    assert DASK.exists(), f"the dask command is not installed beside {sys.executable}"
    address = f"tcp://127.0.0.1:{_free_port()}"
    scheduler = processes.start([str(DASK), "scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1],
                                 "--dashboard-address", "127.0.0.1:0"], tmp / "scheduler.log")
    workers = [processes.start([str(DASK), "worker", address, "--nthreads", "1", "--host", "127.0.0.1",
                                "--dashboard-address", "127.0.0.1:0", "--name", f"w{i}"], tmp / f"worker{i}.log")
               for i in range(2)]
    from distributed import Client

    deadline = time.monotonic() + 120
    while True:
        assert scheduler.poll() is None, (tmp / "scheduler.log").read_text()
        try:
            with Client(address, timeout=5) as client:
                client.wait_for_workers(2, timeout=120)
            return address, workers
        except OSError:
            assert time.monotonic() < deadline, (tmp / "scheduler.log").read_text()
            time.sleep(0.5)


def _real(processes: Processes, tmp: Path, data: Path, name: str, *options: str) -> subprocess.Popen:
    from _slow_rows import IDS

    only = [x for rid in IDS for x in ("--only", rid)]
    return processes.start([sys.executable, "-c", REAL_DRIVER, "atlas", "--realdata", str(data), "--dir", str(tmp / name),
                            *only, *options], tmp / f"{name}.log")


def _row_files(folder: Path) -> list[Path]:
    return sorted((folder / "realdata" / "rows").glob("*.json")) if (folder / "realdata" / "rows").is_dir() else []


def _wait_for_row_files(proc: subprocess.Popen, folder: Path, n: int, log: Path) -> None:
    deadline = time.monotonic() + 300
    while len(_row_files(folder)) < n:
        assert proc.poll() is None, f"finished before {n} row files were written:\n{log.read_text()}"
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.05)


def _real_cells(folder: Path) -> dict[str, object]:
    """Each row file's plan and cells (the values and failures; not the CPU seconds, which vary)."""
    out = {}
    for path in _row_files(folder):
        doc = json.loads(path.read_text())
        out[path.name] = (doc["status"], doc["plan"]["series"],
                          {s: (e["result"]["values"], e["result"]["failures"]) for s, e in doc["cells"].items()})
    return out


@pytest.mark.slow
def test_the_real_data_atlas_on_a_cluster_with_a_killed_worker_equals_a_local_run_and_a_resumed_run(
        processes: Processes, tmp_path: Path):
    sys.path.insert(0, str(REPO_ROOT / "tests"))
    from _nab_corpus import write_sized_corpus

    data = write_sized_corpus(tmp_path / "nab")
    address, workers = _cluster(processes, tmp_path)

    # 1. through the scheduler; one worker killed (its process group) once the first row's file is written
    run = _real(processes, tmp_path, data, "cluster", "--scheduler", address, "--cache", str(tmp_path / "cache-cluster"))
    _wait_for_row_files(run, tmp_path / "cluster", 1, tmp_path / "cluster.log")
    os.killpg(workers[0].pid, signal.SIGKILL)
    log = _finish(run, tmp_path / "cluster.log")
    assert workers[0].wait(30) is not None and workers[1].poll() is None
    assert "3 rows: 0 up to date, 3 written; 9 (row, series) pairs computed, 0 read from the committed files or the cache, 0 failed" in log
    cluster = _real_cells(tmp_path / "cluster")
    assert len(cluster) == 3 and all(status == "ok" and len(cells) == 3 for status, _, cells in cluster.values())

    # 2. the default LocalCluster
    local = _real(processes, tmp_path, data, "local", "--cache", str(tmp_path / "cache-local"), "--jobs", "2")
    _finish(local, tmp_path / "local.log")
    assert _real_cells(tmp_path / "local") == cluster

    # 3. interrupted by SIGINT once the first row's file is written, then resumed by the same command
    cache = tmp_path / "cache-resumed"
    first = _real(processes, tmp_path, data, "resumed", "--cache", str(cache), "--jobs", "2")
    _wait_for_row_files(first, tmp_path / "resumed", 1, tmp_path / "resumed.log")
    first.send_signal(signal.SIGINT)
    assert "run the same command again to resume" in _finish(first, tmp_path / "resumed.log", 130)
    written = len(_row_files(tmp_path / "resumed"))
    assert 1 <= written < 3
    [stopped] = json.loads((tmp_path / "resumed" / "realdata" / "runs.json").read_text(encoding="utf-8"))["runs"]
    assert stopped["interrupted"] is True and stopped["rows_written"] == written  # the interrupted run is on record
    log = _finish(_real(processes, tmp_path, data, "resumed", "--cache", str(cache), "--jobs", "2"), tmp_path / "resumed.log")
    assert f"3 rows: {written} up to date, {3 - written} written;" in log
    assert _real_cells(tmp_path / "resumed") == cluster

    # 4. the same command once more: nothing to compute
    log = _finish(_real(processes, tmp_path, data, "resumed", "--cache", str(cache), "--jobs", "2"), tmp_path / "resumed.log")
    assert "3 rows: 3 up to date, 0 written; 0 (row, series) pairs computed" in log
