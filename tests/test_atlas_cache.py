"""The atlas's result cache: keys that change with what determines a result, entries read only when whole and own."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import pytest

from oipr_bench._version import READING_VERSION
from oipr_bench.atlas.adapters.builtins import ADAPTERS as BUILTIN_ROWS
from oipr_bench.atlas.running.cache import FORMAT, ResultCache, cell_fields, cell_result, key_of
from oipr_bench.atlas.running.profile_keys import declaration, profile_key_fields
from oipr_bench.errors import UsageError

PW = next(a for a in BUILTIN_ROWS if a.metric == "PW")
RESULT = {"row": {"id": PW.id, "status": "ok", "cases": {"c1": 0.5}}, "report": {"cases": []}, "seconds": 1.25}


def test_a_stored_result_is_read_back_equal(tmp_path: Path):
    cache = ResultCache(tmp_path / "c")
    fields = profile_key_fields(PW)
    assert cache.get(fields) is None
    path = cache.put(fields, RESULT)
    assert path == tmp_path / "c" / key_of(fields)[:2] / f"{key_of(fields)}.json"
    assert cache.get(fields) == RESULT and cache.rejected == []
    entry = json.loads(path.read_text())
    assert entry["format"] == FORMAT and entry["fields"]["reading_version"] == READING_VERSION


def test_the_key_changes_with_each_thing_that_determines_a_profile():
    base = profile_key_fields(PW)
    assert key_of(base) == key_of(profile_key_fields(PW))  # stable
    assert base["order"] == "forward" and profile_key_fields(PW, reverse=True)["order"] == "reverse"
    other_params = dataclasses.replace(PW, params={"k": 3})
    new_version = dict(base, row=dict(base["row"], version="9.9"))
    new_reading = dict(base, reading_version=READING_VERSION + 1)
    new_inputs = dict(base, inputs_sha256="0" * 64)
    new_adapter = dict(base, adapter_sha256="0" * 64)
    keys = {key_of(f) for f in (base, profile_key_fields(PW, reverse=True), profile_key_fields(other_params),
                                new_version, new_reading, new_inputs, new_adapter)}
    assert len(keys) == 7
    assert declaration(PW)["version"] == PW.version and declaration(PW)["package"] == "oipr-bench"


def test_another_package_version_leaves_the_other_rows_entries_valid(tmp_path: Path):
    cache = ResultCache(tmp_path)
    am = next(a for a in BUILTIN_ROWS if a.metric == "AM")
    cache.put(profile_key_fields(PW), RESULT)
    cache.put(profile_key_fields(am), {"row": {"id": am.id}, "report": None, "seconds": 0.5})
    bumped = profile_key_fields(PW)
    bumped["row"]["version"] = "0.0.1"
    assert cache.get(bumped) is None  # only the bumped row is computed again
    assert cache.get(profile_key_fields(am)) == {"row": {"id": am.id}, "report": None, "seconds": 0.5}


@pytest.mark.parametrize("damage, reason", [
    (lambda p: p.write_bytes(p.read_bytes()[: len(p.read_bytes()) // 2]), "unreadable"),
    (lambda p: p.write_text(p.read_text().replace('"c1": 0.5', '"c1": 0.75')), "checksum"),
    (lambda p: p.write_text(json.dumps({**json.loads(p.read_text()), "format": "someone else's cache"})), "format"),
    (lambda p: p.write_text("[1, 2, 3]"), "format"),
    (lambda p: p.write_text(p.read_text().replace(f'"reading_version": {READING_VERSION}', '"reading_version": 7')), "key"),
    (lambda p: (p.unlink(), os.mkfifo(p)), "unreadable"),
])
def test_a_corrupt_or_foreign_entry_is_never_read_as_a_result(tmp_path: Path, damage, reason):
    cache = ResultCache(tmp_path)
    fields = profile_key_fields(PW)
    path = cache.put(fields, RESULT)
    damage(path)
    assert cache.get(fields) is None
    assert len(cache.rejected) == 1 and cache.rejected[0][0] == path and reason in cache.rejected[0][1], cache.rejected
    if path.is_fifo():
        path.unlink()
    cache.put(fields, RESULT)  # computed again: the entry is replaced
    assert cache.get(fields) == RESULT


def test_an_entry_moved_under_another_key_is_refused(tmp_path: Path):
    cache = ResultCache(tmp_path)
    am = next(a for a in BUILTIN_ROWS if a.metric == "AM")
    source = cache.put(profile_key_fields(PW), RESULT)
    target = cache.path(key_of(profile_key_fields(am)))
    target.parent.mkdir(exist_ok=True)
    target.write_bytes(source.read_bytes())
    assert cache.get(profile_key_fields(am)) is None and "key" in cache.rejected[0][1]


def test_a_cache_folder_that_is_a_file_is_a_usage_error(tmp_path: Path):
    (tmp_path / "f").write_text("mine")
    with pytest.raises(UsageError, match=r"--cache .*f: is a file, not a folder"):
        ResultCache(tmp_path / "f")
    assert (tmp_path / "f").read_text() == "mine"


def test_a_real_data_cell_is_one_number_or_a_reason():
    row = profile_key_fields(PW)
    protocol = {"labels": "windows", "probationary": "excluded", "threshold": "nab"}
    a = cell_fields(row, "ab" * 32, "numenta", protocol)
    assert a["kind"] == "cell" and "order" not in a and "inputs_sha256" not in a and a["row"] == row["row"]
    assert key_of(a) != key_of(cell_fields(row, "ab" * 32, "random", protocol))
    assert key_of(a) != key_of(cell_fields(row, "cd" * 32, "numenta", protocol))
    assert key_of(a) != key_of(cell_fields(row, "ab" * 32, "numenta", {**protocol, "threshold": "0.5"}))
    assert cell_result(0.25) == {"value": 0.25, "failure": ""}
    assert cell_result(float("nan")) == {"value": None, "failure": "not a finite number: nan"}
    assert cell_result(failure="timed out after 60 s") == {"value": None, "failure": "timed out after 60 s"}
