"""No output option writes over oipr-bench itself, its data, its Python environment or any imported module.

One rule in the writer (:func:`oipr_bench.io.protected_role`, asked by every write and by
:func:`oipr_bench.io.check_output`): an output path that is the file of a module in ``sys.modules``
(symlinks followed, whatever its spelling), or lies inside oipr-bench's package (code, and ``_data/``
in a wheel), inside a source checkout's data folders (``scenarios/``, ``schema/``,
``reference_results/``, ``atlas/``) or inside the running interpreter's prefix or site-packages, is
refused in one line naming the path and why (exit 2), before any work, and the file stays as it was.
Only the regeneration commands (``build-scenarios``, ``reference --write``, ``atlas --write`` /
``--disagreements``) write a data folder, each its own one.

Each test that aims at a real file of the checkout or the environment puts the file back if a write
got through, then fails: a regression must not break the checkout it runs in.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import sysconfig
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import numpy
import pytest

import oipr_bench
from oipr_bench._paths import data_dir, source_root
from oipr_bench.errors import OverwriteRefused
from oipr_bench.io import atomic_write_text, check_output, protected_role, regenerating

PACKAGE = Path(oipr_bench.__file__).resolve().parent
PR = "def f(t, p):\n    return (0.5, 0.5)\n"
SERIES = "gt,pred\n0,0\n1,1\n1,0\n0,1\n0,0\n"


def cli(folder: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "oipr_bench", *args], cwd=folder, capture_output=True, text=True,
                          timeout=600, env=env)


@contextmanager
def kept(path: Path) -> Iterator[None]:
    """Fail if ``path`` changed (or, when it did not exist, appeared); put it back either way."""
    before = path.read_bytes() if path.exists() else None
    try:
        yield
    finally:
        after = path.read_bytes() if path.exists() else None
        if after != before:
            if before is None:
                path.unlink()
            else:
                path.write_bytes(before)
            pytest.fail(f"{path} was {'created' if before is None else 'overwritten'} (put back)")


def refused(proc: subprocess.CompletedProcess, path: Path | str, why: str) -> None:
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert str(path) in lines[0] and why in lines[0], lines[0]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "pr.py").write_text(PR)
    (tmp_path / "data.csv").write_text(SERIES)
    return tmp_path


# -- the reproductions -------------------------------------------------------------------------


def test_audit_refuses_to_write_over_oipr_benchs_own_init(folder: Path) -> None:
    target = Path(oipr_bench.__file__)
    with kept(target):
        refused(cli(folder, "audit", "pr.py:f", "-o", str(target)), target, "the Python module oipr_bench")


def test_audit_refuses_to_write_over_numpys_init_in_the_environment(folder: Path) -> None:
    target = Path(numpy.__file__)
    with kept(target):
        refused(cli(folder, "audit", "pr.py:f", "-o", str(target)), target, "the Python module numpy")


def test_audit_refuses_to_write_over_the_report_schema(folder: Path) -> None:
    target = data_dir("schema") / "report.schema.json"
    with kept(target):
        refused(cli(folder, "audit", "pr.py:f", "--format", "json", "-o", str(target)), target,
                "oipr-bench's data folder schema")


def test_the_plugin_refuses_the_report_schema_as_its_report(folder: Path) -> None:
    target = data_dir("schema") / "report.schema.json"
    with kept(target):
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--evaluator=pr.py:f",
                               f"--oipr-report={target}"], cwd=folder, capture_output=True, text=True, timeout=600)
        assert proc.returncode == 4, proc.stdout + proc.stderr
        assert f"--oipr-report: {target}: refusing to write inside oipr-bench's data folder schema" in proc.stderr


def test_the_plugin_refuses_an_html_report_over_a_module(folder: Path) -> None:
    target = PACKAGE / "new_report.html"
    with kept(target):
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--evaluator=pr.py:f",
                               f"--oipr-html={target}"], cwd=folder, capture_output=True, text=True, timeout=600)
        assert proc.returncode == 4, proc.stdout + proc.stderr
        assert f"{target}: refusing to write inside oipr-bench's own package" in proc.stderr


# -- every output option, every protected place ----------------------------------------------------------


def _places() -> list[tuple[str, Path, str]]:
    """(id, folder, words of the refusal) of the folders no output may go into."""
    places = [("the package", PACKAGE, "oipr-bench's own package"),
              ("the environment", Path(sys.prefix), "the Python environment"),
              ("the standard library", Path(sysconfig.get_paths()["stdlib"]), "the Python environment")]
    root = source_root()
    if root is not None:
        places += [(f"checkout {name}", root / name, f"oipr-bench's data folder {name}")
                   for name in ("scenarios", "schema", "reference_results", "atlas")]
    return places


PLACES = _places()


def _commands(where: Path) -> list[tuple[str, list[str], list[Path]]]:
    """(name, argv, files it would write) of every output option of the CLI, aimed into ``where``."""
    return [("audit -o", ["audit", "pr.py:f", "-o", str(where / "r.txt")], [where / "r.txt"]),
            ("audit --format json -o", ["audit", "pr.py:f", "--format", "json", "-o", str(where / "r.json")],
             [where / "r.json"]),
            ("report -o", ["report", "pr.py:f", "-o", str(where / "r.html")], [where / "r.html"]),
            ("sweep -o", ["sweep", "--input", "data.csv", "-o", str(where / "r"), "--format", "csv"],
             [where / "r.csv", where / "r-ranking.csv"]),
            ("plot interest -o", ["plot", "interest", "--input", "data.csv", "-o", str(where / "r.svg")],
             [where / "r.svg"])]


@pytest.mark.parametrize("place", PLACES, ids=[p[0] for p in PLACES])
def test_no_cli_output_option_writes_into_a_protected_place(folder: Path, place: tuple[str, Path, str]) -> None:
    _, where, why = place
    for name, argv, written in _commands(where):
        with contextlib.ExitStack() as stack:
            for path in written:
                stack.enter_context(kept(path))
            proc = cli(folder, *argv)
            assert proc.returncode == 2, (name, proc.stdout + proc.stderr)
            lines = proc.stderr.strip().splitlines()
            assert len(lines) == 1 and "Traceback" not in proc.stderr, (name, proc.stderr)
            assert "refusing to write inside" in lines[0] and why in lines[0], (name, lines[0])


@pytest.mark.parametrize("module", ["oipr_bench.io", "oipr_bench.cli.audit", "json", "numpy.linalg"])
def test_no_output_replaces_a_module_file(folder: Path, module: str) -> None:
    target = Path(sys.modules[module].__file__) if module in sys.modules else None
    if target is None:
        __import__(module)
        target = Path(sys.modules[module].__file__)
    with kept(target):
        refused(cli(folder, "audit", "pr.py:f", "-o", str(target)), target, f"the Python module {module}")


def test_the_gallery_folder_is_refused_before_it_is_created(folder: Path) -> None:
    target = PACKAGE / "gallery"
    proc = cli(folder, "plot", "scenarios", "-o", str(target), "--format", "svg")
    try:
        refused(proc, target, "oipr-bench's own package")
    finally:
        if target.is_dir():
            for child in target.iterdir():
                child.unlink()
            target.rmdir()
            pytest.fail(f"{target} was created")


def test_a_module_imported_before_the_run_from_elsewhere_is_protected(folder: Path, tmp_path_factory) -> None:
    lib = tmp_path_factory.mktemp("lib")
    (lib / "sitecustomize.py").write_text("IMPORTED_AT_STARTUP = True\n")
    env = dict(os.environ, PYTHONPATH=str(lib))
    proc = cli(folder, "audit", "pr.py:f", "-o", str(lib / "sitecustomize.py"), env=env)
    refused(proc, lib / "sitecustomize.py", "the Python module sitecustomize")
    assert (lib / "sitecustomize.py").read_text() == "IMPORTED_AT_STARTUP = True\n"


def test_a_symlink_to_a_module_is_followed(folder: Path) -> None:
    (folder / "link.py").symlink_to(Path(oipr_bench.__file__))
    with kept(Path(oipr_bench.__file__)):
        refused(cli(folder, "audit", "pr.py:f", "-o", "link.py"), "link.py", "the Python module oipr_bench")


# -- the rule itself, and the regeneration commands ------------------------------------------------------


def test_the_writer_refuses_outside_any_run_too(tmp_path: Path) -> None:
    with kept(PACKAGE / "x.txt"):
        with pytest.raises(OverwriteRefused, match="oipr-bench's own package"):
            atomic_write_text(PACKAGE / "x.txt", "no")
    with pytest.raises(OverwriteRefused, match="the Python module numpy"):
        check_output(numpy.__file__)
    assert protected_role(tmp_path / "ok.txt") is None
    atomic_write_text(tmp_path / "ok.txt", "yes")


@pytest.mark.skipif(source_root() is None, reason="needs a source checkout")
def test_a_regeneration_command_writes_its_own_data_folder_only() -> None:
    root = source_root()
    assert root is not None
    with regenerating("scenarios"):
        assert protected_role(root / "scenarios" / "manifest.json") is None
        assert "data folder schema" in (protected_role(root / "schema" / "report.schema.json") or "")
        assert "own package" in (protected_role(PACKAGE / "x.txt") or "")
    assert "data folder scenarios" in (protected_role(root / "scenarios" / "manifest.json") or "")


@pytest.mark.parametrize("argv,why", [
    (["build-scenarios", "--out", str(PACKAGE / "fixtures")], "oipr-bench's own package"),
    (["reference", "--write", "--dir", str(PACKAGE / "refs")], "oipr-bench's own package"),
    (["atlas", "--write", str(PACKAGE / "atlasdir")], "oipr-bench's own package"),
    (["atlas", "--disagreements", str(Path(sys.prefix) / "dis")], "the Python environment"),
], ids=["build-scenarios", "reference", "atlas-write", "atlas-disagreements"])
def test_a_regeneration_command_refuses_a_folder_outside_its_data(folder: Path, argv: list[str], why: str) -> None:
    target = Path(argv[argv.index("--out") + 1] if "--out" in argv else argv[argv.index("--dir") + 1] if "--dir" in argv
                  else argv[2])
    proc = cli(folder, *argv)
    try:
        assert proc.returncode == 2, proc.stdout + proc.stderr
        assert "refusing to write inside" in proc.stderr and why in proc.stderr, proc.stderr
    finally:
        assert not target.exists(), f"{target} was created"


@pytest.mark.skipif(source_root() is None, reason="needs a source checkout")
def test_build_scenarios_still_regenerates_the_checkout_fixtures(folder: Path) -> None:
    """The developer's regeneration command writes the checkout's scenarios/ (byte-identical: reproducible)."""
    out = data_dir("scenarios")
    before = {p: p.read_bytes() for p in out.rglob("*.json")}
    try:
        proc = cli(folder, "build-scenarios")
        assert proc.returncode == 0, proc.stderr
        assert f"files to {out}" in proc.stdout
    finally:
        changed = [p for p, data in before.items() if not p.is_file() or p.read_bytes() != data]
        for p in changed:
            p.write_bytes(before[p])
    assert not changed, f"build-scenarios changed {changed[:3]} (put back)"
