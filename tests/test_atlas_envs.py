"""The atlas's two pinned environments: which rows `atlas --write/--check` run, which they keep."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oipr_bench.atlas.adapters import registry
from oipr_bench.atlas.adapters import envs
from oipr_bench.atlas.adapters.registry import adapters
from oipr_bench.cli import main


def test_every_row_declares_a_known_environment():
    assert {a.env for a in adapters()} == set(envs.ENVS)
    root = Path(__file__).resolve().parents[1] / "atlas"
    for name, requirements in envs.ENVS.items():
        text = (root / requirements).read_text(encoding="utf-8")
        pinned = {line.split("==")[0].lower() for line in text.splitlines() if line and not line.startswith("#")}
        for package in {a.package for a in adapters() if a.env == name and a.package != "oipr-bench"}:
            assert package.lower() in pinned, (name, package)
    assert "modern) REQ=\"$HERE/requirements-modern.txt\"" in (root / "make-env.sh").read_text(encoding="utf-8")


def test_current_env_reads_the_variable_then_the_venv_marker(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.setattr(envs.sys, "prefix", str(tmp_path))
    monkeypatch.delenv("OIPR_ATLAS_ENV", raising=False)
    assert envs.current_env() == "main"
    (tmp_path / envs.MARKER).write_text("modern\n", encoding="utf-8")
    assert envs.current_env() == "modern"
    monkeypatch.setenv("OIPR_ATLAS_ENV", "main")
    assert envs.current_env() == "main"
    monkeypatch.setenv("OIPR_ATLAS_ENV", "ancient")
    with pytest.raises(ValueError, match="unknown atlas environment 'ancient'"):
        envs.current_env()


@pytest.fixture()
def builtins_only(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(registry, "PACKAGE_MODULES", ("builtins",))


def _rows(directory: Path) -> dict:
    return {r["id"]: r for r in json.loads((directory / "atlas.json").read_text(encoding="utf-8"))["rows"]}


def test_write_in_the_other_env_keeps_the_rows_as_stored(builtins_only, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]):
    atlas = tmp_path / "atlas"
    # never profiled, written from the modern env: not_run, naming the command that profiles them
    monkeypatch.setenv("OIPR_ATLAS_ENV", "modern")
    assert main(["atlas", "--write", str(atlas), "--no-cache", "--jobs", "1"]) == 0
    rows = _rows(atlas)
    assert {r["status"] for r in rows.values()} == {"not_run"}
    assert "a row of the main environment, not profiled yet" in rows["oipr-bench:PW"]["reason"]
    assert "atlas/make-env.sh VENV" in rows["oipr-bench:PW"]["reason"]
    # profiled in their env ...
    monkeypatch.setenv("OIPR_ATLAS_ENV", "main")
    assert main(["atlas", "--write", str(atlas), "--no-cache", "--jobs", "1"]) == 0
    profiled = _rows(atlas)
    assert {r["status"] for r in profiled.values()} == {"ok"} and profiled["oipr-bench:PW"]["env"] == "main"
    # ... then kept as stored by a write in the other env, which times itself under its own name
    monkeypatch.setenv("OIPR_ATLAS_ENV", "modern")
    capsys.readouterr()
    assert main(["atlas", "--write", str(atlas), "--no-cache", "--jobs", "1"]) == 0
    assert "(0 profiled" not in capsys.readouterr().out
    assert _rows(atlas) == profiled
    timings = json.loads((atlas / "timings.json").read_text(encoding="utf-8"))
    assert set(timings) == {"write", "write_modern"} and timings["write_modern"]["rows"] == {}
    # --check there recomputes nothing and says so
    assert main(["atlas", "--check", str(atlas), "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "atlas --check (environment modern): 0 rows recomputed" in out and "13 rows of other environments not checked here" in out


def test_a_bad_environment_name_is_a_usage_error(builtins_only, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]):
    monkeypatch.setenv("OIPR_ATLAS_ENV", "ancient")
    assert main(["atlas", "--write", str(tmp_path / "a"), "--no-cache", "--jobs", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "OIPR_ATLAS_ENV: unknown atlas environment 'ancient'" in err[0]
