"""``oipr-bench atlas --diff OLD NEW``: every cell of two atlases classified, bad folders refused.

The tampered copies are made from the committed atlas (``atlas/``): its ``atlas.json`` and the
profiles of the rows touched are rewritten together, as ``atlas --write`` would write them.
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from oipr_bench._version import __version__
from oipr_bench.atlas.compare.diff import (CHANGED, DECLARED, FIXED, REGRESSION, UNCHANGED, diff_atlases, diff_lines,
                                           diff_rows)
from oipr_bench.atlas.compare.references import builtin_rows, reference_values
from oipr_bench.atlas.store import slug
from oipr_bench.cli import main
from oipr_bench.reference.values import reference_values as stored_reference
from oipr_bench.vocabulary import SANITY_CHECKS

REPO_ROOT = Path(__file__).resolve().parents[1]
ATLAS = REPO_ROOT / "atlas"
FOLLOWER = "TSADmetrics:pwf"  # point-wise F1: its values equal the built-in PW's reference values
NO_REFERENCE = "TSADmetrics:swf"  # a row without a group: nothing to judge a move against
REMOVED = "tadpak:pak[k=50]"
CASE = "overlap_proportion/c2"


def _doc(directory: Path) -> dict[str, Any]:
    return json.loads((directory / "atlas.json").read_text(encoding="utf-8"))


def _cells_of(row: dict[str, Any]) -> int:
    return len(row["cases"]) + len(row["characteristics"]) + len(row["properties"]) + len(SANITY_CHECKS) + 1 + len(DECLARED)


def _save(directory: Path, doc: dict[str, Any]) -> None:
    """Write ``doc`` as ``directory``'s atlas.json, each row's profile holding that row (stale profiles removed)."""
    profiles = directory / "profiles"
    keep = set()
    for row in doc["rows"]:
        path = profiles / f"{slug(row['id'])}.json"
        keep.add(path.name)
        stored = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"format": "oipr-bench-atlas-row", "report": None}
        stored["row"] = row
        path.write_text(json.dumps(stored, indent=1) + "\n", encoding="utf-8")
    for path in profiles.glob("*.json"):
        if path.name not in keep:
            path.unlink()
    (directory / "atlas.json").write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")


@pytest.fixture()
def copy_of_atlas(tmp_path: Path) -> Path:
    target = tmp_path / "new"
    shutil.copytree(ATLAS, target)
    return target


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], list[str]]:
    code = main(["atlas", "--diff", *argv])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err.splitlines()


def test_a_copy_of_the_committed_atlas_is_unchanged_everywhere(copy_of_atlas: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = _doc(ATLAS)["rows"]
    code, out, err = _run(capsys, str(ATLAS), str(copy_of_atlas))
    assert code == 0 and err == []
    assert out == [f"atlas --diff: {len(rows)} rows in both (0 with another version, 0 with a moved cell, 0 with a regression), "
                   f"0 new, 0 removed; cells: 0 regression, 0 fixed, 0 changed, {sum(map(_cells_of, rows))} unchanged"]


def test_a_tampered_copy_reports_each_change_once_with_its_class(copy_of_atlas: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = _doc(copy_of_atlas)
    by_id = {r["id"]: r for r in doc["rows"]}
    pw = by_id["oipr-bench:PW"]
    follower, loose = by_id[FOLLOWER], by_id[NO_REFERENCE]
    reference = stored_reference("PW")[CASE].score.f1
    assert follower["cases"][CASE] == pytest.approx(reference, abs=1e-12)  # the premise: it follows PW there
    old_value, loose_old = follower["cases"][CASE], loose["cases"][CASE]
    follower["cases"][CASE] = old_value + 0.25  # a value moved off the reference
    loose["cases"][CASE] = loose_old + 0.25  # a value moved, no reference
    name = next(n for n, v in follower["characteristics"].items() if v == pw["characteristics"][n] and v in ("yes", "no"))
    verdict = follower["characteristics"][name]
    follower["characteristics"][name] = "no" if verdict == "yes" else "yes"  # a verdict moved off the reference row's
    added = copy.deepcopy(by_id["oipr-bench:PA"])
    added["id"] = "oipr-bench:PA-copy"
    doc["rows"] = [r for r in doc["rows"] if r["id"] != REMOVED] + [added]
    _save(copy_of_atlas, doc)

    rows = _doc(ATLAS)["rows"]
    code, out, err = _run(capsys, str(ATLAS), str(copy_of_atlas))
    assert code == 1 and err == []
    unchanged = sum(map(_cells_of, rows)) - _cells_of(next(r for r in rows if r["id"] == REMOVED)) - 3
    version = follower["version"]
    assert out == [
        f"{FOLLOWER} (TSADmetrics {version}): 2 regression, 0 fixed, 0 changed, {_cells_of(follower) - 2} unchanged",
        f"  regression  case {CASE}: {old_value!r} -> {old_value + 0.25!r} (reference {reference!r})",
        f"  regression  characteristic {name}: {verdict} -> {follower['characteristics'][name]} (reference {verdict})",
        f"{NO_REFERENCE} (TSADmetrics {version}): 0 regression, 0 fixed, 1 changed, {_cells_of(loose) - 1} unchanged",
        f"  changed     case {CASE}: {loose_old!r} -> {loose_old + 0.25!r}",
        f"new row oipr-bench:PA-copy (oipr-bench {__version__})",
        f"removed row {REMOVED} (tadpak 0.3.3)",
        f"atlas --diff: {len(rows) - 1} rows in both (0 with another version, 2 with a moved cell, 1 with a regression), "
        f"1 new, 1 removed; cells: 2 regression, 0 fixed, 1 changed, {unchanged} unchanged",
    ]


def test_moving_back_onto_the_reference_is_fixed(copy_of_atlas: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same tampering as OLD, the committed atlas as NEW: the value and the verdict are fixed."""
    doc = _doc(copy_of_atlas)
    follower = next(r for r in doc["rows"] if r["id"] == FOLLOWER)
    follower["cases"][CASE] += 0.25
    _save(copy_of_atlas, doc)
    code, out, _ = _run(capsys, str(copy_of_atlas), str(ATLAS))
    assert code == 0
    assert out[1].startswith(f"  fixed       case {CASE}: ")
    assert out[-1].endswith("cells: 0 regression, 1 fixed, 0 changed, " + out[-1].rsplit(", ", 1)[1])


def _row(**fields: Any) -> dict[str, Any]:
    row = {"id": "pkg:m", "package": "pkg", "metric": "m", "version": "1", "group": None, "status": "ok", "sanity_failed": [],
           "cases": {"a": 0.5, "b": 0.5}, "characteristics": {"c": "yes"}, "properties": {"p": "dual"}}
    row.update(fields)
    return row


def _verdicts(old: dict[str, Any], new: dict[str, Any], builtins: dict[str, Any] | None = None) -> dict[tuple[str, str], str]:
    return {(c.kind, c.name): c.verdict for c in diff_rows(old, new, builtins or {}).cells}


def test_rules_without_a_reference() -> None:
    """Status, sanity and a defined value judged against the working state; other moves only change."""
    got = _verdicts(_row(), _row(cases={"a": None, "b": 0.7}, characteristics={"c": "no"}, sanity_failed=["perfect"],
                                 bounds=[0, 2]))
    assert got[("case", "a")] == REGRESSION  # defined -> undefined
    assert got[("case", "b")] == CHANGED
    assert got[("characteristic", "c")] == CHANGED
    assert got[("sanity", "perfect")] == REGRESSION and got[("sanity", "deterministic")] == UNCHANGED
    assert got[("status", "status")] == UNCHANGED
    assert got[("declared", "bounds")] == CHANGED
    back = _verdicts(_row(cases={"a": None, "b": 0.5}, sanity_failed=["perfect"]), _row())
    assert back[("case", "a")] == FIXED and back[("sanity", "perfect")] == FIXED
    assert _verdicts(_row(status="error"), _row(status="unavailable"))[("status", "status")] == CHANGED


def test_a_row_not_profiled_on_one_side_compares_its_status_only() -> None:
    """An unavailable row has no cells: its empty sanity list is no pass, its missing values no loss."""
    broken = _row(status="unavailable", reason="cannot build the metric: AttributeError: no Tadmetric", cases={},
                  characteristics={}, properties={})
    for old, new, verdict in ((broken, _row(sanity_failed=["perfect"]), FIXED), (_row(), broken, REGRESSION)):
        cells = diff_rows(old, new, {}).cells
        assert [(c.kind, c.verdict) for c in cells if c.verdict != UNCHANGED] == [("status", verdict)]
        assert {c.kind for c in cells} == {"status", "declared"}
    result = diff_atlases({"rows": [_row()]}, {"rows": [broken]})
    assert diff_lines(result)[:2] == ["pkg:m (pkg 1): 1 regression, 0 fixed, 0 changed, 12 unchanged",
                                      "  regression  status status: ok -> unavailable "
                                      "(cannot build the metric: AttributeError: no Tadmetric)"]
    assert _verdicts(_row(cases={"a": 0.5}), _row(cases={"a": 0.5 + 1e-12}))[("case", "a")] == UNCHANGED


def test_rules_against_the_reference_row() -> None:
    builtin = _row(id="oipr-bench:X", package="oipr-bench", group="g", characteristics={"c": "yes"}, properties={"p": "?"})
    builtins = builtin_rows({"rows": [builtin]})
    old, new = _row(group="g"), _row(group="g", characteristics={"c": "no"}, properties={"p": "micro"})
    got = _verdicts(old, new, builtins)
    assert got[("characteristic", "c")] == REGRESSION
    assert got[("property", "p")] == CHANGED  # the reference holds no value there ("?")
    assert _verdicts(new, old, builtins)[("characteristic", "c")] == FIXED
    # a built-in row is judged on its stored reference values, never on its own verdicts
    pw = next(r for r in _doc(ATLAS)["rows"] if r["id"] == "oipr-bench:PW")
    values = reference_values(pw)
    assert values[CASE] == pytest.approx(pw["cases"][CASE], abs=1e-12)
    moved = copy.deepcopy(pw)
    moved["cases"][CASE] += 0.1
    moved["characteristics"]["fragments_merging"] = "yes"
    got = _verdicts(pw, moved, builtin_rows({"rows": [moved]}))
    assert got[("case", CASE)] == REGRESSION and got[("characteristic", "fragments_merging")] == CHANGED
    assert got[("case", CASE)] == REGRESSION
    assert _verdicts(moved, pw, builtin_rows({"rows": [pw]}))[("case", CASE)] == FIXED


def test_a_new_and_a_removed_row_are_listed_once_and_are_no_regression() -> None:
    old, new = {"rows": [_row(), _row(id="pkg:gone")]}, {"rows": [_row(), _row(id="pkg:new", version="2")]}
    result = diff_atlases(old, new)
    assert not result.regressed
    assert diff_lines(result) == ["new row pkg:new (pkg 2)", "removed row pkg:gone (pkg 1)",
                                  "atlas --diff: 1 rows in both (0 with another version, 0 with a moved cell, 0 with a regression), "
                                  f"1 new, 1 removed; cells: 0 regression, 0 fixed, 0 changed, {_cells_of(_row())} unchanged"]


@pytest.mark.parametrize("case", ["file", "no_atlas_json", "not_an_atlas", "no_profiles", "same", "same_spelled_otherwise",
                                  "missing", "profile_differs"])
def test_bad_folders_are_refused_in_one_line(case: str, copy_of_atlas: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    old, new = str(ATLAS), str(copy_of_atlas)
    expected = {
        "file": "is a file, not an atlas folder (atlas.json + profiles/)",
        "no_atlas_json": "is not an atlas folder: it has no atlas.json",
        "not_an_atlas": "is not an oipr-bench atlas (format oipr-bench-atlas version 1)",
        "no_profiles": "is not an atlas folder: it has no profiles/ folder",
        "same": "OLD and NEW are the same folder",
        "same_spelled_otherwise": "OLD and NEW are the same folder",
        "missing": "does not exist",
        "profile_differs": f"{slug(FOLLOWER)}.json: does not hold row {FOLLOWER} as atlas.json does",
    }[case]
    if case == "file":
        new = str(copy_of_atlas / "atlas.json")
    elif case == "no_atlas_json":
        (copy_of_atlas / "atlas.json").unlink()
    elif case == "not_an_atlas":
        (copy_of_atlas / "atlas.json").write_text('{"format": "something else"}\n', encoding="utf-8")
    elif case == "no_profiles":
        shutil.rmtree(copy_of_atlas / "profiles")
    elif case == "same":
        new = old
    elif case == "same_spelled_otherwise":
        old, new = new, str(copy_of_atlas / "profiles" / "..")
    elif case == "missing":
        new = str(tmp_path / "nowhere")
    elif case == "profile_differs":
        path = copy_of_atlas / "profiles" / f"{slug(FOLLOWER)}.json"
        stored = json.loads(path.read_text(encoding="utf-8"))
        stored["row"]["cases"][CASE] = 0.0
        path.write_text(json.dumps(stored), encoding="utf-8")
    code, out, err = _run(capsys, old, new)
    assert code == 2 and out == []
    assert len(err) == 1 and expected in err[0] and "Traceback" not in err[0], err


def test_diff_needs_two_folders(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["atlas", "--diff", str(ATLAS)])
    assert exc.value.code == 2
    assert "--diff: expected 2 arguments" in capsys.readouterr().err


def test_write_pin_recomputes_only_the_pinned_rows_and_keeps_the_others(copy_of_atlas: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """``--pin`` at the installed version, restricted by ``--only``: one row recomputed, the atlas otherwise as stored."""
    code = main(["atlas", "--write", str(copy_of_atlas), "--pin", f"oipr-bench=={__version__}", "--only", "oipr-bench:PW",
                 "--jobs", "1"])
    out = capsys.readouterr().out
    assert code == 0 and "; 1 recomputed, as --only/--pin select)" in out
    code, lines, _ = _run(capsys, str(ATLAS), str(copy_of_atlas))
    assert code == 0 and lines[-1].startswith(f"atlas --diff: {len(_doc(ATLAS)['rows'])} rows in both (0 with another version, "
                                              "0 with a moved cell, 0 with a regression)")


@pytest.mark.parametrize(("argv", "message"), [
    (["--pin", "telemeval==0.3.0"], "--pin applies to --write"),
    (["--diff", "a", "b", "--only", "oipr-bench:PW"], "--only selects rows for --check, --write or --realdata"),
    (["--diff", "a", "b", "--dir", "a"], "--dir does not apply to --diff"),
    (["--diff", "a", "b", "--include-slow"], "--include-slow applies to --write and --check"),
    (["--write", "{tmp}", "--pin", "oipr-bench"], "expected PKG==VERSION"),
    (["--write", "{tmp}", "--pin", "nosuchpackage==1.0"], "no atlas row comes from package nosuchpackage"),
    (["--write", "{tmp}", "--pin", "oipr-bench==0.0.1"], f"this environment has oipr-bench {__version__} installed, not 0.0.1"),
    (["--write", "{tmp}", "--pin", f"oipr-bench=={__version__}", "--only", "tadpak:pak[k=0]"],
     "--only row tadpak:pak[k=0] is not a row of oipr-bench"),
    (["--write", "{tmp}", "--only", "nope:nope"], "--only: unknown row id(s) nope:nope"),
])
def test_pin_and_only_are_used_or_refused(argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["atlas", *[a.replace("{tmp}", str(tmp_path / "out")) for a in argv]]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and message in err[0], err
    assert not (tmp_path / "out").exists()  # refused before anything is written


def test_pin_refuses_a_slow_row_it_would_not_recompute(monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    from oipr_bench.atlas.adapters import registry
    from oipr_bench.atlas.compare.pin import pinned_rows
    from oipr_bench.errors import UsageError

    real = [a for a in registry.adapters() if a.package == "oipr-bench"]
    fake = [dataclasses.replace(a, slow=a.id == "oipr-bench:VUS-PR") for a in real]
    monkeypatch.setattr(registry, "adapters", lambda: fake)
    pin = f"oipr-bench=={__version__}"
    with pytest.raises(UsageError, match=r"1 of oipr-bench's rows are declared slow \(oipr-bench:VUS-PR\); give --include-slow"):
        pinned_rows(pin, "main", include_slow=False, only=None)
    assert pinned_rows(pin, "main", include_slow=True, only=None) == {a.id for a in real}
    assert pinned_rows(pin, "main", include_slow=False, only=["oipr-bench:PW"]) == {"oipr-bench:PW"}
    with pytest.raises(UsageError, match="belong to the main environment; this is the modern environment"):
        pinned_rows(pin, "modern", include_slow=True, only=None)
