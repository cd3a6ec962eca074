"""Outputs, processes and messages.

* every file a run reads is protected from its outputs: the pytest configuration, conftest files,
  collected test files, the evaluator's package and the modules it imports (M1);
* two outputs of one run never share a path; a report's name says what it holds (M2);
* a missing folder is an error, ``-o ''`` and ``-o -`` are refused (L2, L3);
* ``audit --format json`` names its problems on stderr (L4); SIGTERM during a write leaves no
  temporary file (L5); ``atlas --jobs`` is clamped (M6); only the evaluator's threads are blamed (M7);
* user case files (L6, L7, L11); an unexpected error at the top level (L12); ``file.py:name``
  imports its siblings (L13).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from oipr_bench.cli import main
from oipr_bench.errors import OverwriteRefused
from oipr_bench.io import atomic_write_text, check_output, run_scope

REPO = Path(__file__).resolve().parents[1]

PR = textwrap.dedent(
    """
    def f(t, p):
        tp = int(((t == 1) & (p == 1)).sum())
        return (tp / p.sum() if p.sum() else 0.0), (tp / t.sum() if t.sum() else 0.0)
    """
)
HELPER_USER = "from helper import g\n\ndef f(t, p):\n    return g(t, p)\n"
TEST_A = "def test_x():\n    assert 1\n"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pr.py").write_text(PR)
    return tmp_path


def run_pytest(folder: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args], cwd=folder,
                          env=env, capture_output=True, text=True, timeout=timeout)


def run_cli(folder: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "oipr_bench", *args], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=timeout)


def _refused(proc: subprocess.CompletedProcess, *words: str) -> None:
    out = proc.stdout + proc.stderr
    assert proc.returncode == 4, out
    assert "refusing to write over" in out, out
    for word in words:
        assert word in out, out
    assert "Traceback" not in out


# -- M1: every file the run reads ----------------------------------------------------------------


def test_pytest_report_never_replaces_a_collected_test_file(folder):
    (folder / "test_a.py").write_text(TEST_A)
    (folder / "r.json").symlink_to("test_a.py")  # a name that passes every other check
    _refused(run_pytest(folder, "--evaluator=pr.py:f", "--oipr-report=r.json"), "test file", "test_a.py")
    assert (folder / "test_a.py").read_text() == TEST_A
    proc = run_pytest(folder, "--evaluator=pr.py:f", "--oipr-report=test_a.py")
    assert proc.returncode == 4 and "Traceback" not in proc.stderr, proc.stderr
    assert (folder / "test_a.py").read_text() == TEST_A


def test_pytest_report_never_replaces_a_test_file_under_xdist(folder):
    pytest.importorskip("xdist")
    (folder / "test_a.py").write_text(TEST_A)
    (folder / "r.json").symlink_to("test_a.py")
    proc = run_pytest(folder, "-n", "2", "--evaluator=pr.py:f", "--oipr-report=r.json", "-k", "test_x or perfect")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1 and "refusing to write over a test file" in out, out
    assert (folder / "test_a.py").read_text() == TEST_A


def test_pytest_report_never_replaces_a_conftest(folder):
    (folder / "conftest.py").write_text("import pytest\n")
    proc = run_pytest(folder, "--evaluator=pr.py:f", "--oipr-report=conftest.py")
    _refused(proc, "conftest", "conftest.py")
    assert (folder / "conftest.py").read_text() == "import pytest\n"


def test_pytest_report_never_replaces_the_pytest_configuration(folder):
    ini = "[pytest]\naddopts = -p no:cacheprovider\n"
    (folder / "pytest.ini").write_text(ini)
    _refused(run_pytest(folder, "--evaluator=pr.py:f", "--oipr-report=pytest.ini"), "pytest configuration")
    assert (folder / "pytest.ini").read_text() == ini


def test_pytest_report_never_replaces_the_evaluators_package(folder):
    (folder / "pkg").mkdir()
    (folder / "pkg" / "__init__.py").write_text("")
    (folder / "pkg" / "mod.py").write_text(PR)
    _refused(run_pytest(folder, "--evaluator=pkg.mod:f", "--oipr-report=pkg/__init__.py"), "__init__.py")
    assert (folder / "pkg" / "__init__.py").read_text() == ""


def test_cli_never_writes_over_the_evaluators_package(folder, capsys):
    (folder / "pkg28").mkdir()
    (folder / "pkg28" / "__init__.py").write_text("")
    (folder / "pkg28" / "mod.py").write_text(PR)
    try:
        assert main(["audit", "pkg28.mod:f", "-o", "pkg28/__init__.py"]) == 2
    finally:
        for name in ("pkg28.mod", "pkg28"):
            sys.modules.pop(name, None)
    err = capsys.readouterr().err
    assert "refusing to write over" in err and "__init__.py" in err and err.count("\n") == 1
    assert (folder / "pkg28" / "__init__.py").read_text() == ""


def test_pytest_report_never_replaces_a_module_the_evaluator_imports(folder):
    (folder / "helper.py").write_text(PR.replace("def f", "def g"))
    (folder / "ev2.py").write_text(HELPER_USER)
    _refused(run_pytest(folder, "--evaluator=ev2.py:f", "--oipr-report=helper.py"), "helper")
    assert "def g" in (folder / "helper.py").read_text()


def test_cli_never_writes_over_a_module_the_evaluator_imports_lazily(folder, capsys):
    (folder / "lazyhelper28.py").write_text(PR.replace("def f", "def g"))
    (folder / "lazy.py").write_text("def f(t, p):\n    from lazyhelper28 import g\n    return g(t, p)\n")
    sys.path.insert(0, str(folder))
    try:
        code = main(["audit", "lazy.py:f", "-o", "lazyhelper28.py"])
    finally:
        sys.path.remove(str(folder))
        sys.modules.pop("lazyhelper28", None)
    err = capsys.readouterr().err
    assert code == 2, err
    assert "refusing to write over" in err and "lazyhelper28" in err
    assert "def g" in (folder / "lazyhelper28.py").read_text()


def test_modules_of_the_standard_library_and_site_packages_are_not_listed(tmp_path):
    import importlib

    from oipr_bench import guards

    with run_scope():
        importlib.import_module("colorsys")  # stdlib, probably not loaded yet
        guards.note_new_modules()
        roles = [r for r in (guards._run_inputs or {}).values() if "colorsys" in r]
    assert roles == []


# -- M2: two outputs on one path; names that say what a report holds ------------------------------


def test_plugin_refuses_one_path_for_the_json_and_the_html_report(folder):
    proc = run_pytest(folder, "--evaluator=pr.py:f", "--oipr-report=same.json", "--oipr-html=same.json")
    assert proc.returncode == 4 and "same.json" in proc.stderr and "--oipr-html" in proc.stderr, proc.stderr
    assert not (folder / "same.json").exists()


def test_plugin_refuses_a_report_on_the_junitxml_path(folder):
    proc = run_pytest(folder, "--evaluator=pr.py:f", "--oipr-report=r.json", "--junitxml=r.json")
    assert proc.returncode == 4 and "--junitxml" in proc.stderr and "r.json" in proc.stderr, proc.stderr
    assert not (folder / "r.json").exists()


@pytest.mark.parametrize("flag,name,word", [("--oipr-html", "x.json", ".html"), ("--oipr-report", "x.html", ".json")])
def test_plugin_refuses_a_report_whose_name_says_otherwise(folder, flag, name, word):
    proc = run_pytest(folder, "--evaluator=pr.py:f", f"{flag}={name}")
    assert proc.returncode == 4 and word in proc.stderr and flag in proc.stderr, proc.stderr
    assert not (folder / name).exists()


# -- L2, L3: missing folders, empty and '-' paths --------------------------------------------------


def test_a_missing_parent_folder_is_an_error_not_created(folder, capsys):
    assert main(["audit", "PW", "-o", "nodir/x.json", "--format", "json"]) == 2
    err = capsys.readouterr().err
    assert "nodir" in err and "folder" in err and err.count("\n") == 1
    assert not (folder / "nodir").exists()


def test_a_dangling_symlink_into_a_missing_folder_is_an_error(folder, capsys):
    (folder / "dangling").symlink_to(folder / "nowhere" / "zz")
    assert main(["audit", "PW", "-o", "dangling", "--format", "json"]) == 2
    assert "folder" in capsys.readouterr().err
    assert not (folder / "nowhere").exists()


def test_the_writer_itself_never_creates_folders(tmp_path):
    with pytest.raises(FileNotFoundError, match="does not exist"):
        atomic_write_text(tmp_path / "a" / "b.json", "{}")
    assert not (tmp_path / "a").exists()


@pytest.mark.parametrize("given", ["", "-"])
def test_cli_refuses_an_empty_or_dash_output(folder, capsys, given):
    assert main(["audit", "PW", "-o", given]) == 2
    err = capsys.readouterr()
    assert err.out == "" and "-o" in err.err and err.err.count("\n") == 1
    assert not (folder / "-").exists()


@pytest.mark.parametrize("given", ["", "-"])
def test_plugin_refuses_an_empty_or_dash_report(folder, given):
    proc = run_pytest(folder, "--evaluator=PW", f"--oipr-report={given}")
    assert proc.returncode == 4 and "--oipr-report" in proc.stderr, proc.stdout + proc.stderr
    assert not (folder / "-").exists()


def test_check_output_refuses_dash_and_empty(tmp_path):
    for given in ("", "-"):
        with pytest.raises(ValueError):
            check_output(given)


# -- L4: audit --format json names its problems on stderr ------------------------------------------


def test_audit_json_exit_1_names_the_problems_on_stderr(folder, capsys):
    assert main(["audit", "pr.py:f", "--format", "json", "-o", "r.json"]) == 1
    err = capsys.readouterr().err
    assert "oipr-bench audit: " in err and "characteristic" in err
    assert json.loads((folder / "r.json").read_text())["ok"] is False


# -- L5: SIGTERM during the write ------------------------------------------------------------------


SLOW_FSYNC = textwrap.dedent(
    """
    import os, sys, time
    real = os.fsync
    def slow(fd):
        open("staging", "w").close()
        time.sleep(30)
        real(fd)
    os.fsync = slow
    from oipr_bench.io import atomic_write_text
    atomic_write_text("r.json", "NEW")
    """
)


def test_sigterm_during_the_write_leaves_no_temporary_file(tmp_path):
    (tmp_path / "r.json").write_text("OLD")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.Popen([sys.executable, "-c", SLOW_FSYNC], cwd=tmp_path, env=env)
    deadline = time.monotonic() + 120
    while not (tmp_path / "staging").exists():
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == -signal.SIGTERM  # the default action, after the clean-up
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json", "staging"]
    assert (tmp_path / "r.json").read_text() == "OLD"


# -- M6: atlas --jobs ------------------------------------------------------------------------------


def test_worker_count_is_clamped_to_rows_and_cpus():
    from oipr_bench.atlas.build import worker_count

    cpus = os.cpu_count() or 1
    assert worker_count(40, 2) == min(2, cpus)
    assert worker_count(2000, 500) == cpus
    assert worker_count(1, 500) == 1
    assert worker_count(3, 0) == 1


def test_profile_all_never_starts_more_workers_than_rows(monkeypatch):
    from oipr_bench.atlas import build
    from oipr_bench.atlas.running import tasks

    started = []

    class Cluster:  # stands for the LocalCluster: records the workers asked for
        def __init__(self, jobs, scheduler=None):
            started.append(jobs)

        def __enter__(self):
            return None

        def __exit__(self, *exc):
            return False

    def run_here(todo, client, timeout=None, on_done=None):
        out = []
        for i, t in enumerate(todo):
            out.append(tasks.Outcome(value=tasks._run_on_worker(t.fn, t.args)))
            on_done(i, out[-1])
        return out

    monkeypatch.setattr(tasks, "connect", Cluster)
    monkeypatch.setattr(tasks, "run_tasks", run_here)
    monkeypatch.setattr(build, "_profile_one", lambda a, reverse: ({"id": a.id, "status": "ok"}, None, 0.0))

    class A:
        def __init__(self, i):
            self.id, self.slow, self.random_runs, self.shared, self.params = i, False, None, None, {}

    assert [r[0]["id"] for r in build.profile_all([A("a"), A("b")], jobs=40)] == ["a", "b"]
    assert started == [min(2, os.cpu_count() or 1)]


def test_atlas_says_when_jobs_is_clamped(capsys, monkeypatch):
    from oipr_bench.atlas import build

    monkeypatch.setattr(build, "profile_all", lambda todo, jobs=1, reverse=False, **execution: [])
    code = main(["atlas", "--check", "--only", "oipr-bench:PW", "--jobs", "40"])
    err = capsys.readouterr().err
    assert "--jobs 40" in err and "1 row" in err, err
    assert code in (0, 1)


# -- M7: the user's threads are the user's -------------------------------------------------------


# The user's thread outlives the rest of the run (6 s against about 1 s): without the fix it is still
# running when the plugin decides whom to blame. A slower machine can only make the test weaker, never fail it.
TEST_THREAD = textwrap.dedent(
    """
    import threading, time
    def test_thread():
        def work():
            time.sleep(6)
            open("thread_done.txt", "w").write("ok")
        threading.Thread(target=work).start()
    """
)


def test_the_users_own_thread_is_neither_blamed_nor_killed(folder):
    (folder / "test_thr.py").write_text(TEST_THREAD)
    proc = run_pytest(folder, "test_thr.py", "--evaluator=pr.py:f", "-k", "thread or perfect")
    assert "non-daemon thread" not in proc.stderr, proc.stderr
    assert (folder / "thread_done.txt").read_text() == "ok"


EV_THREAD = textwrap.dedent(
    """
    import threading, time
    def f(t, p):
        if not any(th.name == "ev-left" for th in threading.enumerate()):
            threading.Thread(target=time.sleep, args=(3600,), name="ev-left").start()
        return 1.0, 1.0
    """
)


def test_the_evaluators_thread_is_still_reported_and_the_users_thread_finishes(folder):
    (folder / "evt.py").write_text(EV_THREAD)
    (folder / "test_thr.py").write_text(TEST_THREAD)
    proc = run_pytest(folder, "test_thr.py", "--evaluator=evt.py:f", "-k", "thread or perfect", timeout=120)
    assert "left 1 non-daemon thread(s) running (ev-left)" in proc.stderr, proc.stderr
    assert (folder / "thread_done.txt").read_text() == "ok"


def test_threads_started_by_user_code_are_recorded():
    from oipr_bench.auditing.calling import streams

    stop = threading.Event()
    with streams.evaluator_streams():
        t = threading.Thread(target=stop.wait, name="inside")
        t.start()
    outside = threading.Thread(target=stop.wait, name="outside")
    outside.start()
    try:
        assert t in streams.started_threads()
        assert outside not in streams.started_threads()
    finally:
        stop.set()
        t.join()
        outside.join()


# -- L12: an unexpected error at the top level -----------------------------------------------------


def test_an_unexpected_error_is_one_line_and_says_the_report_was_not_written(folder, capsys, monkeypatch):
    from oipr_bench.auditing.profile import profiles

    def boom(self, *args, **kwargs):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(profiles.AuditSession, "run_all", boom)
    code = main(["audit", "PW", "-o", "x.json"])
    err = capsys.readouterr().err
    assert code == 3 and err.count("\n") == 1, err
    assert "RecursionError" in err and "x.json" in err and "not written" in err and "--debug" in err
    assert "Traceback" not in err
    with pytest.raises(RecursionError):
        main(["--debug", "audit", "PW", "-o", "x.json"])


G3 = "import sys\n" + PR.replace("def f(t, p):\n", "def f(t, p):\n    sys.setrecursionlimit(60)\n")


def test_an_evaluator_lowering_the_recursion_limit_does_not_break_the_run(folder):
    (folder / "g3.py").write_text(G3)
    proc = run_cli(folder, "audit", "g3.py:f", "--suite", "all", "--format", "json", "-o", "x.json")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    report = json.loads((folder / "x.json").read_text())
    assert report["evaluator"]["name"] == "g3.py:f"
    assert [c["id"] for c in report["cases"] if c["status"] != "ok"] == []  # every result was read normally


def test_the_recursion_limit_is_put_back_after_a_call(folder, capsys):
    (folder / "g3.py").write_text(G3)
    limit = sys.getrecursionlimit()
    assert main(["audit", "g3.py:f", "--format", "json", "-o", "x.json"]) == 1, capsys.readouterr().err
    assert sys.getrecursionlimit() == limit


# -- L13: file.py:name imports its siblings --------------------------------------------------------


def test_a_file_evaluator_imports_a_module_beside_it(folder, capsys):
    (folder / "imp").mkdir()
    (folder / "imp" / "helper_l13.py").write_text(PR.replace("def f", "def g"))
    (folder / "imp" / "ev.py").write_text(HELPER_USER.replace("helper", "helper_l13"))
    before = list(sys.path)
    try:
        code = main(["audit", "imp/ev.py:f", "--format", "json", "-o", "r.json"])
        err = capsys.readouterr().err
        assert code == 1 and "ModuleNotFoundError" not in err, err
        assert sys.path[: len(before)] == before  # the folder no longer shadows anything
    finally:
        sys.modules.pop("helper_l13", None)
        sys.path[:] = before


def test_pytest_file_evaluator_imports_a_module_beside_it(folder):
    (folder / "imp").mkdir()
    (folder / "imp" / "helper.py").write_text(PR.replace("def f", "def g"))
    (folder / "imp" / "ev.py").write_text(HELPER_USER)
    proc = run_pytest(folder, "--evaluator=imp/ev.py:f", "-k", "perfect")
    assert proc.returncode == 0 and "1 passed" in proc.stdout, proc.stdout + proc.stderr


# -- L6, L7, L11: user case files ------------------------------------------------------------------


def _random_doc(name: str = "my_random") -> dict:
    doc = json.loads((REPO / "scenarios" / "random_detector.json").read_text())
    doc["scenario"] = name
    doc["cases"] = doc["cases"][:1]
    case = doc["cases"][0]
    case["id"] = f"{name}/{case['case']}"
    return doc


def test_a_user_case_may_not_reuse_a_dataset_scenario_name(folder, capsys):
    doc = json.loads((REPO / "scenarios" / "overlap_proportion.json").read_text())
    doc["cases"] = doc["cases"][:1]
    doc["cases"][0]["case"], doc["cases"][0]["id"] = "c9", "overlap_proportion/c9"
    (folder / "c07.json").write_text(json.dumps(doc))
    assert main(["audit", "PW", "--cases", "c07.json"]) == 2
    err = capsys.readouterr().err
    assert "overlap_proportion" in err and "built-in dataset" in err and "$.scenario" in err and err.count("\n") == 1


def test_a_schema_message_gives_the_reason_before_the_instance(folder, capsys):
    doc = _random_doc()
    doc["cases"][0]["y_pred"] = [[0, 1]]
    (folder / "c23.json").write_text(json.dumps(doc))
    assert main(["audit", "PW", "--cases", "c23.json"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    reason = err.index("schema violation: ")
    assert "must not have 'y_pred'" in err[reason:reason + 60], err


def test_a_random_case_whose_runs_contradict_its_generator_is_refused(folder, capsys):
    doc = _random_doc()
    (folder / "good.json").write_text(json.dumps(doc))
    doc["cases"][0]["runs"][0] = [[0, 500]]
    (folder / "bad.json").write_text(json.dumps(doc))
    from oipr_bench.scenarios.loader import load_cases_file

    assert len(load_cases_file(folder / "good.json")[0].predictions) == 100
    assert main(["audit", "PW", "--cases", "bad.json"]) == 2
    err = capsys.readouterr().err
    assert "runs[0]" in err and "generator" in err and err.count("\n") == 1, err


def test_the_evaluators_package_is_protected_even_when_imported_before_the_run(folder, capsys):
    (folder / "pkg29").mkdir()
    (folder / "pkg29" / "__init__.py").write_text("")
    (folder / "pkg29" / "mod.py").write_text(PR)
    sys.path.insert(0, str(folder))
    try:
        import pkg29  # noqa: F401 - as a conftest would, before the plugin's run begins

        code = main(["audit", "pkg29.mod:f", "-o", "pkg29/__init__.py"])
    finally:
        sys.path.remove(str(folder))
        for name in ("pkg29.mod", "pkg29"):
            sys.modules.pop(name, None)
    err = capsys.readouterr().err
    assert code == 2 and "refusing to write over the evaluator's package pkg29" in err, err
    assert (folder / "pkg29" / "__init__.py").read_text() == ""


@pytest.mark.parametrize("argv", [["report", "PW", "-o", "-"], ["report", "PW", "-o", ""],
                                  ["plot", "scenarios", "-o", ""], ["plot", "scenarios", "-o", "-"]])
def test_every_command_refuses_an_empty_or_dash_output(folder, capsys, argv):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "-o" in err, err
    assert sorted(p.name for p in folder.iterdir()) == ["pr.py"]


@pytest.mark.parametrize("name,text", [("pyproject.toml", "[tool.pytest.ini_options]\naddopts = '-p no:cacheprovider'\n"),
                                       ("tox.ini", "[pytest]\naddopts = -p no:cacheprovider\n"),
                                       ("setup.cfg", "[tool:pytest]\naddopts = -p no:cacheprovider\n")])
def test_pytest_report_never_replaces_the_configuration_in_use(folder, name, text):
    (folder / name).write_text(text)
    _refused(run_pytest(folder, "--evaluator=pr.py:f", f"--oipr-html={name}"), "pytest configuration", name)
    assert (folder / name).read_text() == text


def test_pytest_report_never_replaces_a_conftest_found_during_collection(folder):
    (folder / "sub").mkdir()
    (folder / "sub" / "conftest.py").write_text("import pytest\n")
    (folder / "sub" / "test_s.py").write_text(TEST_A)
    (folder / "r.json").symlink_to(folder / "sub" / "conftest.py")
    _refused(run_pytest(folder, "sub", "--evaluator=pr.py:f", "--oipr-report=r.json"), "conftest.py")
    assert (folder / "sub" / "conftest.py").read_text() == "import pytest\n"


def test_report_never_writes_over_a_module_the_evaluator_imports(folder, capsys):
    (folder / "rephelper28.py").write_text(PR.replace("def f", "def g"))
    (folder / "ev28.py").write_text(HELPER_USER.replace("helper", "rephelper28"))
    (folder / "page.html").symlink_to("rephelper28.py")
    try:
        code = main(["report", "ev28.py:f", "-o", "page.html"])
    finally:
        sys.modules.pop("rephelper28", None)
    err = capsys.readouterr().err
    assert code == 2 and "refusing to write over the Python module rephelper28" in err, err
    assert "def g" in (folder / "rephelper28.py").read_text()
