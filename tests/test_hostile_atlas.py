"""The atlas reader is as hardened as every other reader (issue 21).

Duplicate keys, NaN, absurd nesting, a FIFO or a device as ``atlas.json`` and a wrongly shaped
document each end in one line naming the file (and the field), exit 2, never a hang or traceback.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from oipr_bench.cli import main

from _helpers import no_hang

REPO = Path(__file__).resolve().parents[1]


def _atlas() -> dict:
    return json.loads((REPO / "atlas" / "atlas.json").read_text())


def _folder(tmp_path: Path, text: str) -> Path:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "atlas.json").write_text(text)
    return tmp_path / "a"


def _run(folder: Path, capsys) -> str:
    with no_hang(20):
        assert main(["atlas", "--dir", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "atlas.json" in err
    return err


def _shape(edit) -> str:
    doc = _atlas()
    edit(doc)
    return json.dumps(doc)


@pytest.mark.parametrize("text, words", [
    ('{"format": "oipr-bench-atlas", "format": "oipr-bench-atlas"}', "duplicate key 'format'"),
    (json.dumps(_atlas()).replace("0.0392156862745098", "NaN", 1), "NaN is not valid JSON"),
    ("[" * 100_000, "more than the limit of 64"),
    (_shape(lambda d: d["rows"][0].pop("family")), "$.rows[0]: 'family' is a required property"),
    (_shape(lambda d: d["rows"].__setitem__(0, "x")), "$.rows[0]: 'x' is not of type 'object'"),
    (_shape(lambda d: d.__setitem__("rows", None)), "$.rows: None is not of type 'array'"),
    (_shape(lambda d: d["rows"][0].__setitem__("characteristics", ["yes"])), "$.rows[0].characteristics"),
], ids=["duplicate-key", "nan", "deep", "missing-field", "row-not-object", "rows-null", "characteristics-list"])
def test_a_bad_atlas_file_is_one_line_naming_file_and_field(tmp_path, capsys, text, words):
    assert words in _run(_folder(tmp_path, text), capsys)


def test_a_fifo_atlas_does_not_block(tmp_path, capsys):
    (tmp_path / "a").mkdir()
    os.mkfifo(tmp_path / "a" / "atlas.json")
    assert "is a FIFO" in _run(tmp_path / "a", capsys)


def test_a_device_atlas_is_not_read_whole(tmp_path, capsys):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "atlas.json").symlink_to("/dev/zero")
    assert "is a device" in _run(tmp_path / "a", capsys)


def test_the_shipped_atlas_follows_its_schema(capsys):
    assert main(["atlas", "--dir", str(REPO / "atlas")]) == 0
