"""Re-run the hostile-input findings on inputs, conflicts, crashes and messages as an attacker would, from the CLI and the plugin.

Usage (from the repository root)::

    python tests/attacks_cli_plugin.py            # every attack, one line each, exit 1 on a finding
    python tests/attacks_cli_plugin.py -k atlas   # only the attacks whose name contains "atlas"

Each attack is the issue's minimal reproduction, run as a user would (``python -m oipr_bench ...``
or ``python -m pytest --evaluator=...`` in a fresh temporary folder, ``pr.py`` being a plain
point-wise P/R evaluator), and checks what the issue asks for: the file is intact, the conflict
refused, one line naming what is wrong, no traceback, no hang.  It prints ``held`` or ``FINDING``
per attack and the pytest test that covers it (the tests are what CI runs; this script is the
attacker's view of the same list, kept so the list can be re-run whole).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
import zipfile
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[1]

PR = textwrap.dedent("""
    def f(t, p):
        tp = int(((t == 1) & (p == 1)).sum())
        return (tp / p.sum() if p.sum() else 0.0), (tp / t.sum() if t.sum() else 0.0)
""")


class Run:
    """One attack's folder and the commands run in it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        (folder / "pr.py").write_text(PR)

    def write(self, name: str, text: str) -> Path:
        path = self.folder / name
        path.write_text(textwrap.dedent(text))
        return path

    def cli(self, *argv: str, timeout: float = 300) -> subprocess.CompletedProcess:
        return self._run(["-m", "oipr_bench", *argv], timeout)

    def pytest(self, *argv: str, timeout: float = 300, cache: bool = False) -> subprocess.CompletedProcess:
        return self._run(["-m", "pytest", "-q", *([] if cache else ["-p", "no:cacheprovider"]), *argv], timeout)

    def _run(self, argv: list[str], timeout: float) -> subprocess.CompletedProcess:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
        try:
            return subprocess.run([sys.executable, *argv], cwd=self.folder, env=env, capture_output=True,
                                  text=True, timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            return subprocess.CompletedProcess(argv, -999, exc.stdout or "", f"HUNG after {timeout} s")


def one_line(proc: subprocess.CompletedProcess, *words: str, code: int = 2) -> str:
    """'' when ``proc`` ended with exit ``code`` and one stderr line holding ``words``; else what is wrong."""
    err = proc.stderr.strip()
    if proc.returncode != code:
        return f"exit {proc.returncode} (wanted {code}): {err[-300:]}"
    if "Traceback" in proc.stderr or len(err.splitlines()) != 1:
        return f"not one line: {err[-300:]}"
    missing = [w for w in words if w not in err]
    return f"message lacks {missing}: {err[:300]}" if missing else ""


def clean(proc: subprocess.CompletedProcess, codes: tuple[int, ...] = (0, 1)) -> str:
    """'' when ``proc`` exited with one of ``codes``, printed no traceback and stdout (if any) is JSON."""
    if proc.returncode not in codes:
        return f"exit {proc.returncode}: {proc.stderr.strip()[-300:]}"
    for word in ("Traceback", "INTERNALERROR", "UnpicklingError", "interrupted"):
        if word in proc.stderr or word in proc.stdout:
            return f"{word!r} in the output: {(proc.stderr + proc.stdout)[-300:]}"
    return ""


def json_out(proc: subprocess.CompletedProcess) -> str:
    problem = clean(proc)
    if problem:
        return problem
    try:
        json.loads(proc.stdout)
    except ValueError as exc:
        return f"stdout is not one JSON document ({exc})"
    return ""


# --------------------------------------------------------------------------- overwrite / data loss
def sweep_onto_input(r: Run) -> str:
    data = r.write("data.csv", "gt,pred\n0,0\n1,1\n1,0\n0,0\n")
    before = data.read_text()
    return one_line(r.cli("sweep", "--input", "data.csv", "-o", "data", "--format", "csv"), "data.csv") or \
        ("" if data.read_text() == before else "data.csv was replaced")


def sweep_dir_slash(r: Run) -> str:
    r.write("data.csv", "gt,pred\n0,0\n1,1\n1,0\n0,0\n")
    (r.folder / "victimdir").mkdir()
    victim = r.write("victimdir.csv", "keep me\n")
    problem = one_line(r.cli("sweep", "--input", "data.csv", "-o", "victimdir/", "--format", "csv"), "victimdir")
    return problem or ("" if victim.read_text() == "keep me\n" else "victimdir.csv was replaced")


def audit_onto_source(r: Run) -> str:
    problems = []
    os.symlink("pr.py", r.folder / "link.py")
    os.link(r.folder / "pr.py", r.folder / "hard.py")
    for out in ("pr.py", "./pr.py", "link.py", "hard.py", str(r.folder / "pr.py")):
        problems.append(one_line(r.cli("audit", "pr.py:f", "-o", out), "pr.py"))
    problems.append("" if (r.folder / "pr.py").read_text() == PR else "pr.py was replaced")
    return "; ".join(p for p in problems if p)


def audit_onto_expect_file(r: Run) -> str:
    exp = r.write("exp.toml", "fragments_merging = \"no\"\n")
    before = exp.read_text()
    return one_line(r.cli("audit", "pr.py:f", "--expect-file", "exp.toml", "-o", "exp.toml"), "exp.toml") or \
        ("" if exp.read_text() == before else "exp.toml was replaced")


def plugin_report_onto_source(r: Run) -> str:
    proc = r.pytest("--evaluator=pr.py:f", "--oipr-report=pr.py")
    if (r.folder / "pr.py").read_text() != PR:
        return "pr.py was replaced"
    return "" if proc.returncode != 0 and "pr.py" in proc.stderr else f"exit {proc.returncode}: {proc.stderr[-200:]}"


# --------------------------------------------------------------------------- silent conflict
def expect_twice(r: Run) -> str:
    a = one_line(r.cli("audit", "pr.py:f", "--expect", "fragments_merging=no", "--expect", "fragments_merging=yes"),
                 "fragments_merging")
    b = one_line(r.cli("audit", "pr.py:f", "--expect", "fragments_merging=yes", "--expect", "fragments_merging=no"),
                 "fragments_merging")
    return a or b


def expect_file_case_duplicate(r: Run) -> str:
    r.write("exp.toml", 'fragments_merging = "no"\nFRAGMENTS_MERGING = "yes"\n')
    return one_line(r.cli("audit", "pr.py:f", "--expect-file", "exp.toml"), "exp.toml")


def param_duplicate_json_key(r: Run) -> str:
    return one_line(r.cli("audit", "OIPR", "--param", 'l_obs={"a":1,"a":2}'), "'a'")


def atlas_dir_duplicates_and_nan(r: Run) -> str:
    text = (REPO / "atlas" / "atlas.json").read_text()
    doc = json.loads(text)
    problems = []
    for name, body in (("dup", '{"format": "x", "format": "y"}'),
                       ("nan", json.dumps(doc).replace(": 0.0392156862745098", ": NaN", 1))):
        (r.folder / name).mkdir()
        (r.folder / name / "atlas.json").write_text(body)
        problems.append(one_line(r.cli("atlas", "--dir", name), "atlas.json"))
    return "; ".join(p for p in problems if p)


def atlas_evaluator_useless(r: Run) -> str:
    r.write("boom.py", "def f(t, p):\n    raise ValueError('boom')\n")
    r.write("nan.py", "def f(t, p):\n    return float('nan'), float('nan')\n")
    problems = []
    for ev in ("boom.py:f", "nan.py:f"):
        proc = r.cli("atlas", "--evaluator", ev)
        if proc.returncode != 1 or "inf" in proc.stdout or "same profile" in proc.stdout:
            problems.append(f"{ev}: exit {proc.returncode}, {proc.stdout[-200:]}")
    return "; ".join(problems)


def prints_at_import_or_init(r: Run) -> str:
    r.write("loud.py", "print('hello at import')\n" + PR)
    r.write("loudc.py", "class E:\n    def __init__(self):\n        print('hello in init')\n"
                        "    def __call__(self, t, p):\n        return 0.5, 0.5\n")
    return json_out(r.cli("audit", "loud.py:f", "--format", "json")) or \
        json_out(r.cli("audit", "loudc.py:E", "--format", "json"))


def npz_duplicate_member_and_square_npy(r: Run) -> str:
    import io
    import warnings

    import numpy as np

    with zipfile.ZipFile(r.folder / "dup.npz", "w") as zf:
        for name, arr in (("gt.npy", [0, 1, 1, 0]), ("pred.npy", [0, 1, 0, 0]), ("pred.npy", [1, 1, 1, 1])):
            buf = io.BytesIO()
            np.save(buf, np.array(arr, dtype=np.int8))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                zf.writestr(name, buf.getvalue())
    np.save(r.folder / "sq.npy", np.array([[0, 1], [1, 1]], dtype=np.int8))
    dup = one_line(r.cli("sweep", "--input", "dup.npz", "-o", "o1", "--format", "csv"), "twice")
    sq = r.cli("sweep", "--input", "sq.npy", "-o", "o2", "--format", "csv")
    return dup or ("" if "read as rows" in sq.stderr else f"square .npy read silently: {sq.stderr[-200:]}")


def collect_only_report(r: Run) -> str:
    proc = r.pytest("--evaluator=pr.py:f", "--collect-only", "--oipr-report=co.json")
    return "" if "no report written" in proc.stdout + proc.stderr else "no message about the missing report"


def fork_and_atexit(r: Run) -> str:
    r.write("fork.py", "import os\n_d = []\ndef f(t, p):\n    if not _d:\n        _d.append(1)\n"
                       "        os.fork()\n    return 0.5, 0.5\n")
    r.write("ex.py", "import atexit, os\natexit.register(lambda: os._exit(0))\ndef f(t, p):\n    return 0.9, 0.1\n")
    problems = []
    for iso in ([], ["--isolate"]):
        problems.append(json_out(r.cli("audit", "fork.py:f", "--format", "json", *iso)))
        proc = r.cli("audit", "ex.py:f", *iso)
        problems.append("" if proc.returncode == 1 else f"atexit os._exit(0): exit {proc.returncode} {iso}")
    return "; ".join(p for p in problems if p)


# --------------------------------------------------------------------------- traceback or crash
def printing_daemon_thread(r: Run) -> str:
    r.write("spam.py", """
        import sys, threading
        def _spam():
            while True:
                sys.stdout.write("x" * 100 + "\\n")
        _s = []
        def f(t, p):
            if len(_s) < 4:
                _s.append(1)
                threading.Thread(target=_spam, daemon=True).start()
            return 0.5, 0.5
    """)
    return json_out(r.cli("audit", "spam.py:f", "--format", "json"))


RESULT = """
    class Boom(BaseException):
        pass
    class R:
        @property
        def precision(self):
            raise {exc}
        recall = 0.5
    def f(t, p):
        return R()
"""


def result_attribute_raising(r: Run) -> str:
    problems = []
    for exc in ("SystemExit(3)", "GeneratorExit()", "Boom('custom')", "KeyboardInterrupt()"):
        r.write("res.py", RESULT.replace("{exc}", exc))
        problem = json_out(r.cli("audit", "res.py:f", "--format", "json"))
        problems.append(problem and f"{exc}: {problem}")
    proc = r.pytest("--evaluator=res.py:f")
    if proc.returncode not in (0, 1) or " error" in proc.stdout.splitlines()[-1]:
        problems.append(f"pytest: exit {proc.returncode}: {proc.stdout.splitlines()[-1:]}")
    return "; ".join(p for p in problems if p)


ATTR = """
    class E:
        def __call__(self, t, p):
            return 0.5, 0.5
        @property
        def {attr}(self):
            raise {exc}
    ev = E()
"""


def declaration_attribute_raising(r: Run) -> str:
    problems = []
    for attr in ("bounds", "higher_is_better", "input_kind"):
        for exc in ("RuntimeError('boom')", "SystemExit(7)", "KeyboardInterrupt()"):
            r.write("decl.py", ATTR.replace("{attr}", attr).replace("{exc}", exc))
            problem = one_line(r.cli("audit", "decl.py:ev"), attr, "decl.py:ev")
            if problem:
                problems.append(f"{attr} raising {exc}: {problem}")
        proc = r.pytest("--evaluator=decl.py:ev")
        if "INTERNALERROR" in proc.stdout + proc.stderr or "Traceback" in proc.stderr:
            problems.append(f"pytest, {attr}: {proc.stderr[-200:]}")
    return "; ".join(problems)


def keyboard_interrupt_without_ctrl_c(r: Run) -> str:
    sources = {
        "getitem": "class R:\n    def __getitem__(self, k):\n        raise KeyboardInterrupt\n"
                   "    def __len__(self):\n        return 2\ndef f(t, p):\n    return R()\n",
        "repr": "class R:\n    precision = 'x'\n    recall = 0.5\n    def __repr__(self):\n        raise KeyboardInterrupt\n"
                "def f(t, p):\n    return R()\n",
        "exc_str": "class E(Exception):\n    def __str__(self):\n        raise KeyboardInterrupt\n"
                   "def f(t, p):\n    raise E()\n",
        "init": "class E:\n    def __init__(self):\n        raise KeyboardInterrupt\n",
        "import": "raise KeyboardInterrupt\ndef f(t, p):\n    return 0.5, 0.5\n",
        "getattr": "class E:\n    def __getattr__(self, name):\n        raise KeyboardInterrupt\n"
                   "    def __call__(self, t, p):\n        return 0.5, 0.5\nev = E()\n",
    }
    target = {"init": "ki.py:E", "getattr": "ki.py:ev"}
    problems = []
    for name, source in sources.items():
        r.write("ki.py", source)
        proc = r.cli("audit", "ki.py:" + target.get(name, "ki.py:f").split(":")[1], "--format", "json")
        if "interrupted" in proc.stderr.lower() or proc.returncode not in (0, 1, 2) or "Traceback" in proc.stderr:
            problems.append(f"{name}: exit {proc.returncode} {proc.stderr[-150:]}")
    r.write("ki.py", sources["repr"])
    proc = r.pytest("--evaluator=ki.py:f")
    if proc.returncode == 2 or "interrupted" in proc.stdout.lower():
        problems.append(f"pytest: exit {proc.returncode}")
    return "; ".join(problems)


def closed_or_detached_streams(r: Run) -> str:
    problems = []
    for body in ("sys.__stdout__.close()", "sys.stdout.detach()"):
        r.write("cl.py", f"import sys\ndef f(t, p):\n    {body}\n    return 0.5, 0.5\n")
        proc = r.cli("audit", "cl.py:f", "--format", "json")
        problem = json_out(proc)
        if not problem and any(c["status"] != "ok" for c in json.loads(proc.stdout)["cases"]):
            problem = "later cases failed"
        if problem:
            problems.append(f"{body}: {problem}")
    return "; ".join(problems)


def isolate_forking_evaluator(r: Run) -> str:
    r.write("forkall.py", "import os\ndef f(t, p):\n    os.fork()\n    return 0.5, 0.5\n")
    return json_out(r.cli("audit", "forkall.py:f", "--isolate", "--format", "json"))


def deep_param_huge_timeout(r: Run) -> str:
    deep = "[" * 100_000
    problems = [one_line(r.cli("audit", "OIPR", "--param", f"k={deep}"), "--param"),
                one_line(r.cli("atlas", "--evaluator", "OIPR", "--param", f"k={deep}"), "--param"),
                one_line(r.cli("audit", "pr.py:f", "--timeout", "1e300"), "--timeout")]
    proc = r.pytest("--evaluator=OIPR", f"--evaluator-param=k={deep}")
    if "RecursionError" in proc.stdout + proc.stderr or proc.returncode not in (2, 4):
        problems.append(f"plugin: exit {proc.returncode} {proc.stderr[-200:]}")
    return "; ".join(p for p in problems if p)


def atlas_dir_deep_and_dev_zero(r: Run) -> str:
    (r.folder / "deep").mkdir()
    (r.folder / "deep" / "atlas.json").write_text("[" * 100_000)
    (r.folder / "zero").mkdir()
    os.symlink("/dev/zero", r.folder / "zero" / "atlas.json")
    return one_line(r.cli("atlas", "--dir", "deep", timeout=60), "atlas.json") or \
        one_line(r.cli("atlas", "--dir", "zero", timeout=60), "atlas.json")


def npz_bomb(r: Run) -> str:
    import io

    import numpy as np

    n = 50_000_000
    with zipfile.ZipFile(r.folder / "bomb.npz", "w", zipfile.ZIP_DEFLATED) as zf:
        for name in ("gt.npy", "pred.npy"):
            header = io.BytesIO()
            np.lib.format.write_array_header_1_0(header, {"descr": "<f8", "fortran_order": False, "shape": (n,)})
            with zf.open(name, "w", force_zip64=True) as fh:
                fh.write(header.getvalue())
                for _ in range(n // 2**20):
                    fh.write(bytes(8 * 2**20))
                fh.write(bytes(8 * (n % 2**20 - 1)) + np.array([2.0]).tobytes())
    code = ("import resource, sys\nfrom oipr_bench.scenarios.userdata import read_series\n"
            "try:\n    read_series('bomb.npz')\nexcept Exception as e:\n    print(e, file=sys.stderr)\n"
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)\n")
    proc = r._run(["-c", code], 120)
    peak = int(proc.stdout.strip() or -1)
    return "" if 0 < peak < 400 and "not binary" in proc.stderr else f"peak {peak} MiB for 10^8 values: {proc.stderr[-200:]}"


def conftest_own_options(r: Run) -> str:
    r.write("conftest.py", """
        def pytest_addoption(parser):
            parser.addoption("--evaluator", default="x")
            parser.addoption("--oipr-timeout", default="y")
    """)
    r.write("test_mine.py", "def test_ok(request):\n    assert request.config.getoption('--evaluator') == 'x'\n")
    proc = r.pytest("test_mine.py")
    return "" if proc.returncode == 0 else f"exit {proc.returncode}: {(proc.stdout + proc.stderr)[-300:]}"


# --------------------------------------------------------------------------- hang / leak
def orphans_and_sleeping_child(r: Run) -> str:
    tag = f"{os.getpid() % 1000}.7"
    r.write("orph.py", f"""
        import os, subprocess, time
        def spawns(t, p):
            subprocess.Popen(["sleep", "{tag}"])
            time.sleep(60)
        def forks(t, p):
            if os.fork() == 0:
                time.sleep(600)
            time.sleep(60)
    """)
    problems = []
    for name in ("spawns", "forks"):
        t0 = time.monotonic()
        proc = r.cli("audit", f"orph.py:{name}", "--timeout", "0.3", "--isolate", timeout=200)
        if proc.returncode not in (0, 1) or time.monotonic() - t0 > 120:
            problems.append(f"{name}: exit {proc.returncode} after {time.monotonic() - t0:.0f} s")
    left = subprocess.run(["pgrep", "-f", f"sleep {tag}"], capture_output=True, text=True).stdout.split()
    if left:
        problems.append(f"{len(left)} orphaned sleep process(es)")
        subprocess.run(["pkill", "-f", f"sleep {tag}"])  # only the ones this attack started (unique tag)
    return "; ".join(problems)


def non_daemon_thread(r: Run) -> str:
    r.write("nd.py", "import threading, time\n_s = []\ndef f(t, p):\n    if not _s:\n        _s.append(1)\n"
                     "        threading.Thread(target=time.sleep, args=(600,)).start()\n    return 0.5, 0.5\n")
    proc = r.cli("audit", "nd.py:f", timeout=90)
    plug = r.pytest("--evaluator=nd.py:f", timeout=120)
    return "" if proc.returncode == 1 and plug.returncode == 1 else f"audit {proc.returncode}, pytest {plug.returncode}"


def atlas_fifo_and_hang(r: Run) -> str:
    (r.folder / "f").mkdir()
    os.mkfifo(r.folder / "f" / "atlas.json")
    r.write("hang.py", "import time\ndef f(t, p):\n    time.sleep(3600)\n")
    fifo = one_line(r.cli("atlas", "--dir", "f", timeout=30), "FIFO")
    proc = r.cli("atlas", "--evaluator", "hang.py:f", "--timeout", "0.2", "--isolate", timeout=200)
    return fifo or ("" if proc.returncode == 1 and "timed out" in proc.stderr else f"hang: exit {proc.returncode}")


# --------------------------------------------------------------------------- unclear messages
def reproduce_missing_case(r: Run) -> str:
    # No command takes another dataset, so the installed one is shortened in the process itself.
    code = ("import sys\nfrom oipr_bench import scenarios\nfrom oipr_bench.cli import main\nfull = scenarios.load()\n"
            "scenarios.load = lambda path=None: [c for c in full if c.id != 'sparse_anomalies/c2']\n"
            "sys.exit(main(['reproduce']))\n")
    return one_line(r._run(["-c", code], 120), "sparse_anomalies/c2")


USER_CASE = {
    "schema": "urn:oipr-bench:schema:scenario:1.0.0", "dataset_version": "1.0.0", "scenario": "mine",
    "title": "Mine", "description": "A user's case.", "characteristics": ["existence_detection_reward"],
    "cases": [{"id": "mine/c1", "case": "c1", "description": "one event", "length": 20,
               "characteristics": ["existence_detection_reward"],
               "provenance": {"paper_table": "A1", "row_label": "c1", "source": "reconstructed", "authors_csv": None,
                              "note": "a user's own case"},
               "y_true": [[0, 2]], "y_pred": [[1, 2]]}],
}


def case_key_and_ansi(r: Run) -> str:
    problems = []
    for name, edit in (("key", lambda c: c.__setitem__("k" * 15_000, 1)),
                       ("ansi", lambda c: c.__setitem__("id", "mine/\x1b[31mc1\x1b[0m"))):
        doc = json.loads(json.dumps(USER_CASE))
        edit(doc["cases"][0])
        (r.folder / f"{name}.json").write_text(json.dumps(doc))
        proc = r.cli("audit", "pr.py:f", "--cases", f"{name}.json")
        if "\x1b" in proc.stderr or len(proc.stderr) > 2000 or proc.returncode != 2 or "Traceback" in proc.stderr:
            problems.append(f"{name}: exit {proc.returncode}, {len(proc.stderr)} characters: {proc.stderr[:200]!r}")
    return "; ".join(problems)


def evaluator_fifo_or_device(r: Run) -> str:
    os.mkfifo(r.folder / "evfifo.py")
    return one_line(r.cli("audit", "evfifo.py:f", timeout=30), "FIFO") or \
        one_line(r.cli("audit", "/dev/zero:f", timeout=30), "device")


def atlas_wrong_shape(r: Run) -> str:
    doc = json.loads((REPO / "atlas" / "atlas.json").read_text())
    doc["rows"][0].pop("family")
    (r.folder / "a").mkdir()
    (r.folder / "a" / "atlas.json").write_text(json.dumps(doc))
    return one_line(r.cli("atlas", "--dir", "a"), "atlas.json", "family", "rows[0]")


def empty_evaluator_and_atlas_modes(r: Run) -> str:
    proc = r.pytest("--evaluator=")
    problems = ["" if proc.returncode == 4 and "empty" in proc.stderr else f"--evaluator=: exit {proc.returncode}",
                one_line(r.cli("atlas", "--only", "oipr-bench:PW"), "--only"),
                one_line(r.cli("atlas", "--include-slow"), "--include-slow")]
    return "; ".join(p for p in problems if p)


def write_errors_name_the_file(r: Run) -> str:
    if not os.path.exists("/dev/full"):
        return ""
    os.symlink("/dev/full", r.folder / "r.json")
    return one_line(r.cli("audit", "OIPR", "-o", "r.json"), "r.json", "No space left")


def flaky_deterministic(r: Run) -> str:
    r.write("flaky.py", "_n = [0]\ndef f(t, p):\n    _n[0] += 1\n    if _n[0] % 2 == 0:\n"
                        "        raise RuntimeError('every second call')\n    return 0.5, 0.5\n")
    proc = r.cli("audit", "flaky.py:f")
    line = next((x for x in proc.stderr.splitlines() if "deterministic" in x), "")
    return "" if line and "every call failed" not in line else f"deterministic line: {line!r}"


# --------------------------------------------------------------------------- also
def last_failed_after_switch(r: Run) -> str:
    first = r.pytest("--evaluator=PW", cache=True)
    if first.returncode != 1 or not (r.folder / ".pytest_cache").is_dir():
        return f"set-up: PW should fail some items with the cache on (exit {first.returncode})"
    proc = r.pytest("--evaluator=OIPR", "--lf", cache=True)
    tail = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
    full = r.pytest("--evaluator=OIPR")
    full_tail = full.stdout.strip().splitlines()[-1] if full.stdout.strip() else ""
    ran = tail.split(" in ")[0]
    return "" if proc.returncode == 0 and ran == full_tail.split(" in ")[0] else \
        f"OIPR --lf after PW ran {ran!r}, a full run {full_tail.split(' in ')[0]!r}"


def hypothesis_examples_bounded(r: Run) -> str:
    return one_line(r.cli("audit", "pr.py:f", "--hypothesis-examples", "1e20", timeout=60), "--hypothesis-examples")


def length_cap_time(r: Run) -> str:
    t0 = time.monotonic()
    proc = r.cli("audit", "OIPR", "--param", "l_obs=10000000", timeout=300)
    seconds = time.monotonic() - t0
    return "" if proc.returncode in (0, 1) and seconds < 60 else f"exit {proc.returncode} after {seconds:.0f} s"


# --------------------------------------------------------------------------- neighbours found on the re-run
def csv_at_its_cap(r: Run) -> str:
    with open(r.folder / "big.csv", "w") as fh:
        fh.write("gt,pred\n" + "0,1\n" * (16 * 2**20 - 4) + "1,0\n")
    code = ("import resource\nfrom oipr_bench.scenarios.userdata import read_series\nread_series('big.csv')\n"
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)\n")
    proc = r._run(["-c", code], 300)
    peak = int(proc.stdout.strip() or -1)
    return "" if 0 < peak < 400 else f"peak {peak} MiB for a 64 MiB CSV: {proc.stderr[-200:]}"


def differential_bounded(r: Run) -> str:
    return one_line(r.cli("audit", "pr.py:f", "--reference", "PW", "--differential", str(10**20), timeout=60),
                    "--differential") or \
        one_line(r.cli("audit", "pr.py:f", "--reference", "PW", "--differential", "5", "--shrink-budget", "1e300",
                       timeout=60), "--shrink-budget")


def plot_interest_at_the_cap(r: Run) -> str:
    t0 = time.monotonic()
    proc = r.cli("plot", "interest", "--case", "overlap_proportion/c1", "-o", "i.png", "--l-obs", "10000000",
                 timeout=300)
    seconds = time.monotonic() - t0
    return "" if proc.returncode == 0 and seconds < 20 else f"exit {proc.returncode} after {seconds:.0f} s"


def option_given_twice(r: Run) -> str:
    problems = [one_line(r.cli("audit", "pr.py:f", "--bounds", "0:1", "--bounds", "0:2"), "--bounds given twice"),
                one_line(r.cli("audit", "pr.py:f", "--input", "binary", "--input", "scores"), "--input given twice")]
    proc = r.pytest("--evaluator=pr.py:f", "--oipr-bounds", "0:1", "--oipr-bounds", "0:2")
    if proc.returncode != 4 or "given twice" not in proc.stderr:
        problems.append(f"pytest --oipr-bounds twice: exit {proc.returncode}")
    return "; ".join(p for p in problems if p)


ATTACKS: list[tuple[str, Callable[[Run], str], str]] = [
    ("sweep -o onto its --input", sweep_onto_input, "test_hostile_outputs::test_sweep_never_writes_its_csv_over_the_input_series"),
    ("sweep -o dir/", sweep_dir_slash, "test_hostile_outputs::test_sweep_prefix_with_a_trailing_slash_is_refused_like_audit_output"),
    ("audit -o onto the evaluator (5 spellings)", audit_onto_source, "test_hostile_outputs::test_audit_never_writes_over_the_evaluator_source"),
    ("audit -o onto --expect-file", audit_onto_expect_file, "test_hostile_outputs::test_audit_never_writes_over_the_expectation_file"),
    ("pytest --oipr-report onto the evaluator", plugin_report_onto_source, "test_hostile_outputs::test_pytest_report_never_replaces_the_evaluator_source"),
    ("--expect x=no --expect x=yes", expect_twice, "test_hostile_conflicts::test_expect_given_twice_is_refused_in_either_order"),
    ("expect file x and X", expect_file_case_duplicate, "test_hostile_conflicts::test_expect_file_keys_differing_only_in_case_are_a_duplicate"),
    ("--param duplicate JSON key", param_duplicate_json_key, "test_hostile_conflicts::test_param_json_with_a_duplicate_key_is_refused"),
    ("atlas --dir duplicate keys / NaN", atlas_dir_duplicates_and_nan, "test_hostile_atlas::test_a_bad_atlas_file_is_one_line_naming_file_and_field"),
    ("atlas --evaluator raising / NaN", atlas_evaluator_useless, "test_hostile_atlas::test_atlas_evaluator_whose_every_call_fails_is_not_placed"),
    ("print at import / in __init__ vs JSON", prints_at_import_or_init, "test_hostile_boundary::test_setup_output_never_corrupts_json_stdout"),
    (".npz member twice / square .npy", npz_duplicate_member_and_square_npy, "test_hostile_messages::test_npz_with_a_member_name_twice_is_refused, test_a_square_npy_says_it_is_read_as_rows"),
    ("--collect-only --oipr-report", collect_only_report, "test_hostile_messages::test_pytest_collect_only_says_why_no_report_is_written"),
    ("fork once / atexit os._exit(0)", fork_and_atexit, "test_hostile_processes::test_an_evaluator_that_forks_does_not_run_the_audit_twice, test_an_atexit_os_exit_cannot_turn_a_failing_audit_into_success"),
    ("printing daemon thread (SIGSEGV)", printing_daemon_thread, "test_hostile_processes::test_a_printing_daemon_thread_never_crashes_the_run_nor_reaches_json_stdout"),
    ("result property raising SystemExit/GeneratorExit/BaseException/KI", result_attribute_raising, "test_hostile_boundary::test_a_result_attribute_raising_anything_is_a_bad_result, test_a_result_property_raising_system_exit_does_not_end_the_audit"),
    ("bounds/higher_is_better/input_kind raising", declaration_attribute_raising, "test_hostile_setup::*, test_hostile_boundary::test_user_code_during_setup_ends_in_one_line_naming_evaluator_and_step"),
    ("KeyboardInterrupt without Ctrl-C (6 places)", keyboard_interrupt_without_ctrl_c, "test_hostile_boundary::test_a_result_raising_keyboard_interrupt_without_ctrl_c_is_a_bad_result, test_an_exception_whose_str_raises_keyboard_interrupt_is_an_outcome, test_user_code_during_setup_ends_in_one_line_naming_evaluator_and_step"),
    ("close sys.__stdout__ / detach sys.stdout", closed_or_detached_streams, "test_hostile_processes::test_closing_or_detaching_the_streams_inside_a_call_harms_nothing"),
    ("--isolate + evaluator forking every call", isolate_forking_evaluator, "test_hostile_processes::test_an_evaluator_that_forks_does_not_run_the_audit_twice"),
    ("--param 100,000 deep / --timeout 1e300", deep_param_huge_timeout, "test_hostile_conflicts::test_absurdly_nested_param_is_one_line_not_a_recursion_error, test_huge_timeout_is_refused_not_an_overflow"),
    ("atlas --dir deep / -> /dev/zero", atlas_dir_deep_and_dev_zero, "test_hostile_atlas::test_a_bad_atlas_file_is_one_line_naming_file_and_field, test_a_device_atlas_is_not_read_whole"),
    (".npz decompression bomb", npz_bomb, "test_hostile_inputs::test_npz_decompression_bomb_allocates_one_byte_per_value"),
    ("conftest with its own --evaluator", conftest_own_options, "test_plugin_coexistence::test_a_project_defining_evaluator_and_oipr_timeout_still_runs"),
    ("timed-out call: orphans / sleeping child", orphans_and_sleeping_child, "test_hostile_processes::test_a_timed_out_call_leaves_no_process_behind"),
    ("non-daemon thread (audit, pytest)", non_daemon_thread, "test_hostile_processes::test_a_non_daemon_thread_does_not_keep_audit_alive, test_a_non_daemon_thread_does_not_keep_pytest_alive"),
    ("atlas FIFO / atlas --evaluator hang", atlas_fifo_and_hang, "test_hostile_atlas::test_a_fifo_atlas_does_not_block, test_atlas_evaluator_that_hangs_ends_with_timeout"),
    ("reproduce: dataset missing a case", reproduce_missing_case, "test_hostile_messages::test_reproduce_names_the_case_the_dataset_lacks"),
    ("15,000-character key / ANSI case id", case_key_and_ansi, "test_hostile_messages::test_a_huge_unknown_key_in_a_case_is_clipped, test_ansi_escapes_in_a_case_id_never_reach_the_terminal"),
    ("evaluator path FIFO / device", evaluator_fifo_or_device, "test_hostile_messages::test_an_evaluator_path_that_is_a_fifo_is_named_as_such, ..._device_..."),
    ("wrongly shaped atlas.json", atlas_wrong_shape, "test_hostile_atlas::test_a_bad_atlas_file_is_one_line_naming_file_and_field"),
    ("--evaluator= / atlas --only, --include-slow", empty_evaluator_and_atlas_modes, "test_hostile_messages::test_pytest_with_an_empty_evaluator_says_so, test_atlas_options_without_their_mode_are_refused"),
    ("write error names the file", write_errors_name_the_file, "test_hostile_outputs::test_a_write_error_names_the_file, test_build_scenarios_on_a_full_disk_writes_the_whole_set_or_nothing"),
    ("evaluator failing every second call", flaky_deterministic, "test_hostile_messages::test_an_evaluator_failing_every_second_call_is_not_deterministic"),
    ("--lf after switching evaluator", last_failed_after_switch, "test_plugin_coexistence::test_last_failed_after_switching_evaluator_audits_the_new_one_in_full"),
    ("--hypothesis-examples 1e20", hypothesis_examples_bounded, "test_hostile_conflicts::test_hypothesis_examples_are_bounded"),
    ("l_obs at its cap", length_cap_time, "test_hostile_inputs::test_a_length_parameter_near_its_cap_builds_its_tables_once"),
    ("CSV at its 64 MiB cap (neighbour)", csv_at_its_cap, "test_hostile_inputs::test_a_csv_at_its_size_cap_is_read_a_chunk_of_rows_at_a_time"),
    ("--bounds / --input given twice (neighbour)", option_given_twice, "test_hostile_conflicts::test_a_single_valued_option_given_twice_is_refused, test_the_plugin_refuses_a_declaration_given_twice"),
    ("plot interest --l-obs 10000000 (neighbour)", plot_interest_at_the_cap, "test_plots::test_interest_picture_at_the_length_cap_draws_a_bounded_number_of_steps"),
    ("--differential 1e20 / --shrink-budget 1e300 (neighbour)", differential_bounded, "test_hostile_conflicts::test_differential_pairs_and_shrink_budget_are_bounded"),
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", default="", help="run only attacks whose name contains this text")
    args = parser.parse_args(argv)
    findings = 0
    for name, attack, covered_by in ATTACKS:
        if args.k.lower() not in name.lower():
            continue
        with tempfile.TemporaryDirectory() as folder:
            t0 = time.monotonic()
            problem = attack(Run(Path(folder)))
        findings += bool(problem)
        status = f"FINDING: {problem}" if problem else "held"
        print(f"{name:58s} {time.monotonic() - t0:6.1f} s  {status}\n{'':60s}covered by {covered_by}", flush=True)
    print(f"{findings} finding(s)")
    return 1 if findings else 0


if __name__ == "__main__":
    raise SystemExit(main())
