"""The atlas reader is as hardened as every other reader.

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


@pytest.mark.parametrize("body", ["raise ValueError('boom')", "return float('nan'), float('nan')"],
                         ids=["raises", "nan"])
def test_atlas_evaluator_whose_every_call_fails_is_not_placed(tmp_path, monkeypatch, capsys, body):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "boom.py").write_text(f"def f(t, p):\n    {body}\n")
    assert main(["atlas", "--evaluator", "boom.py:f"]) == 1
    out, err = capsys.readouterr()
    assert "no call gave a usable result on any of the 25 cases" in err and "nothing to place" in err
    assert "inf" not in out + err and "same profile" not in out


def test_atlas_placement_never_prints_an_infinite_case_difference():
    from oipr_bench.atlas.place import placement_lines

    doc = _atlas()
    row = dict(doc["rows"][0], id="mine", metric="mine", cases={})
    assert all("inf" not in line for line in placement_lines(row, doc))
    assert any("no case where both gave a number" in line for line in placement_lines(row, doc))


def test_atlas_placement_reads_declarations_from_the_report_not_the_evaluator(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ev.py").write_text(
        "class E:\n    calls = 0\n    def __call__(self, t, p):\n        E.calls += 1\n"
        "        tp = int(((t == 1) & (p == 1)).sum())\n"
        "        return (tp / p.sum() if p.sum() else 0.0), (tp / t.sum() if t.sum() else 0.0)\n"
        "    @property\n    def input_kind(self):\n        if E.calls > 100:\n            raise RuntimeError('late boom')\n"
        "        return 'binary'\nev = E()\n")
    assert main(["atlas", "--evaluator", "ev.py:ev"]) == 1  # placed; exit 1 like audit: not OIPR's profile
    out, err = capsys.readouterr()
    assert ">>  (yours) -: ev.py:ev" in out and "late boom" not in out + err


def test_atlas_evaluator_that_hangs_ends_with_timeout(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "hang.py").write_text("import time\ndef f(t, p):\n    time.sleep(3600)\n")
    with no_hang(120):
        assert main(["atlas", "--evaluator", "hang.py:f", "--timeout", "0.2"]) == 1
    err = capsys.readouterr().err
    assert "timed out after 0.2 s" in err and "nothing to place" in err


def test_a_huge_where_argument_is_cut_in_the_message(capsys):
    name = "x" * 100_000
    assert main(["atlas", "--where", f"{name}=yes"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < 2_000 and "more characters" in err
