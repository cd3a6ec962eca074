"""Hostile user files and parameters: one line naming the file, no hang, no bomb."""

from __future__ import annotations

import io
import os
import tracemalloc
import zipfile
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

from oipr_bench import evaluators
from oipr_bench.cli import main
from oipr_bench.errors import UsageError
from oipr_bench.auditing.expectations import load_expect_file
from oipr_bench.scenarios.userdata import SeriesFileError, read_series

from _helpers import no_hang


def _main(argv: list[str]) -> int:
    """``oipr-bench argv`` in process; argparse's own errors exit via SystemExit(2)."""
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code)


def _one_line_error(code: int, err: str, *words: str) -> None:
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for word in words:
        assert word in lines[0], lines[0]


# --------------------------------------------------------------------------- item 7, 10, 12: --expect-file
def test_duplicate_keys_in_a_json_expect_file_are_rejected(tmp_path):
    f = tmp_path / "e.json"
    f.write_text('{"fragments_merging": "no", "fragments_merging": "yes"}')
    with pytest.raises(UsageError, match="duplicate key 'fragments_merging'"):
        load_expect_file(f)


@pytest.mark.parametrize("name, text", [
    ("deep.json", "[" * 100_000),
    ("deep.toml", "a = " + "[" * 100_000),
    ("deep_table.toml", "a = " + "{b = " * 5_000),
])
def test_deeply_nested_expect_file_is_a_usage_error(tmp_path, name, text):
    f = tmp_path / name
    f.write_text(text)
    with pytest.raises(UsageError, match="nested"):
        load_expect_file(f)


def test_expect_file_dev_zero_is_refused(capsys):
    with no_hang():
        code = _main(["audit", "OIPR", "--expect-file", "/dev/zero"])
    _one_line_error(code, capsys.readouterr().err, "/dev/zero", "not a regular file")


def test_expect_file_fifo_is_refused(tmp_path):
    fifo = tmp_path / "e.toml"
    os.mkfifo(fifo)
    with no_hang(), pytest.raises(UsageError, match="FIFO"):
        load_expect_file(fifo)


def test_huge_expect_file_is_refused_before_reading(tmp_path):
    f = tmp_path / "big.toml"
    with open(f, "wb") as fh:
        fh.truncate(50 * 2**20)
    with pytest.raises(UsageError, match="limit"):
        load_expect_file(f)


# --------------------------------------------------------------------------- item 11, 12, 14, 19: series files
def _npy_with_header(path: Path, shape: tuple[int, ...], dtype: str = "<i1", payload: bytes = b"\x00" * 8) -> Path:
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, {"descr": dtype, "fortran_order": False, "shape": shape})
    path.write_bytes(buf.getvalue() + payload)  # the header writer includes the magic string
    return path


def test_npy_claiming_a_huge_shape_is_refused(tmp_path):
    f = _npy_with_header(tmp_path / "bomb.npy", (2, 10**11))
    assert f.stat().st_size < 300
    with pytest.raises(SeriesFileError, match="declares") as info:
        read_series(f)
    assert str(f) in str(info.value)


def test_npz_member_claiming_a_huge_shape_is_refused(tmp_path):
    member = _npy_with_header(tmp_path / "m.npy", (10**11,))
    f = tmp_path / "bomb.npz"
    with zipfile.ZipFile(f, "w") as zf:
        zf.writestr("gt.npy", member.read_bytes())
        zf.writestr("pred.npy", member.read_bytes())
    with pytest.raises(SeriesFileError, match="gt") as info:
        read_series(f)
    assert str(f) in str(info.value)


def _traced_peak(call: Callable[[], Any]) -> tuple[Any, int]:
    """``call()`` and the tracemalloc peak (bytes) of the allocations it made."""
    tracemalloc.start()
    try:
        result = call()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _bomb_npz(path: Path, n: int, compression: int, last_pred: float = 1.0) -> Path:
    """A .npz of two float64 members of ``n`` zeros (gt ends in 1, pred in ``last_pred``), written in chunks."""
    with zipfile.ZipFile(path, "w", compression) as zf:
        for name, last in (("gt.npy", 1.0), ("pred.npy", last_pred)):
            header = io.BytesIO()
            np.lib.format.write_array_header_1_0(header, {"descr": "<f8", "fortran_order": False, "shape": (n,)})
            with zf.open(name, "w", force_zip64=True) as fh:
                fh.write(header.getvalue())
                for _ in range(n // 2**16 - 1):
                    fh.write(bytes(8 * 2**16))
                tail = np.zeros(n - (n // 2**16 - 1) * 2**16)
                tail[-1] = last
                fh.write(tail.tobytes())
    return path


def test_npz_decompression_bomb_allocates_one_byte_per_value(tmp_path):
    """A tiny compressed .npz whose members are 8-byte floats is decoded chunk by chunk.

    Reading keeps the 0/1 result (one byte per value) and a fixed buffer, never
    the decompressed member whole nor its float64 array (before: 8 + 8 bytes per
    value, and the comparison temporaries, so 13.5 GB at the 10^8-value cap).
    """
    n = 2_000_000
    f = _bomb_npz(tmp_path / "bomb.npz", n, zipfile.ZIP_DEFLATED)
    assert f.stat().st_size < 40_000  # 16 MB of data per member on disk in a few KB
    series, peak = _traced_peak(lambda: read_series(f))
    assert series.length == n and int(series.y_true.sum()) == 1 and int(series.y_pred.sum()) == 1
    assert series.y_true.dtype == np.int8
    assert peak < 2 * n + 4 * 2**20, f"peak {peak / 2**20:.1f} MiB for {2 * n / 2**20:.1f} MiB of 0/1 values"


def test_npz_bomb_with_a_bad_last_value_names_it_after_a_bounded_read(tmp_path):
    n = 2_000_000
    f = _bomb_npz(tmp_path / "bomb.npz", n, zipfile.ZIP_DEFLATED, last_pred=2.0)

    def read_bad() -> pytest.ExceptionInfo[SeriesFileError]:
        with pytest.raises(SeriesFileError) as info:
            read_series(f)
        return info

    info, peak = _traced_peak(read_bad)
    message = str(info.value)
    assert "bomb.npz" in message and "'pred'" in message and f"index {n - 1}" in message, message
    assert "2.0" in message and "not binary" in message, message
    assert peak < 2 * n + 4 * 2**20


def test_a_csv_at_its_size_cap_is_read_a_chunk_of_rows_at_a_time(tmp_path):
    """A neighbour of the .npz bomb: the rows of a CSV were held whole as Python lists,
    36x the file (2.3 GB for the allowed 64 MiB).  Reading keeps the 0/1 columns and one chunk."""
    n = 200_000
    f = tmp_path / "long.csv"
    f.write_text("gt,pred\n" + "0,1\n" * (n - 1) + "1,0\n")
    series, peak = _traced_peak(lambda: read_series(f))
    assert series.length == n and int(series.y_true.sum()) == 1 and int(series.y_pred.sum()) == n - 1
    assert peak < 2 * n + 4 * 2**20, f"peak {peak / 2**20:.1f} MiB"


@pytest.mark.parametrize("text, words", [
    ("gt,pred\n" + "0,1\n" * 20_000 + "\n" * 5 + "0,2\n", "line 20002 is blank"),
    ("gt,pred\n" + "0,1\n" * 20_000 + "0,2\n", "column 'pred', line 20002: value '2' is not binary"),
    ("gt,pred\n" + "0,1\n" * 20_000 + "0\n", "line 20002 has 1 field(s), the header has 2"),
    ("\n\ngt,pred\n0,1\n", "line 1 (the header row) is blank"),
    ("gt,pred\n0,1\n" + "\n" * 20_000, None),
])
def test_csv_messages_name_the_line_across_chunks(tmp_path, text, words):
    f = tmp_path / "s.csv"
    f.write_text(text)
    if words is None:
        assert read_series(f).length == 1
        return
    with pytest.raises(SeriesFileError) as info:
        read_series(f)
    assert words in str(info.value)


@pytest.mark.parametrize("compression, word", [(zipfile.ZIP_BZIP2, "bzip2"), (zipfile.ZIP_LZMA, "lzma")])
def test_npz_compressed_other_than_numpy_does_is_refused(tmp_path, compression, word):
    """bzip2/LZMA members expand a few compressed bytes into tens of MB at once inside ``zipfile``:
    numpy writes stored or deflated members only, so anything else is refused before decompressing."""
    f = _bomb_npz(tmp_path / "bomb.npz", 2**17, compression)
    with pytest.raises(SeriesFileError, match=f"member 'gt.npy' is compressed with {word}") as info:
        read_series(f)
    assert "savez_compressed" in str(info.value)


def test_npz_member_shorter_than_its_header_is_named(tmp_path):
    member = _npy_with_header(tmp_path / "m.npy", (100,), payload=b"\x00" * 40)
    f = tmp_path / "short.npz"
    with zipfile.ZipFile(f, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("gt.npy", member.read_bytes())
        zf.writestr("pred.npy", member.read_bytes())
    with pytest.raises(SeriesFileError, match="'gt'") as info:
        read_series(f)
    assert str(f) in str(info.value) and "100" in str(info.value)


def test_bool_bytes_other_than_0_and_1_are_not_binary(tmp_path):
    member = _npy_with_header(tmp_path / "m.npy", (3,), dtype="|b1", payload=bytes([0, 1, 7]))
    f = tmp_path / "bool.npz"
    with zipfile.ZipFile(f, "w") as zf:
        zf.writestr("gt.npy", member.read_bytes())
        zf.writestr("pred.npy", member.read_bytes())
    with pytest.raises(SeriesFileError, match="index 2 is not binary"):
        read_series(f)


@pytest.mark.parametrize("members, words", [
    ({"gt.npy": None, "pred.txt": b"0 1 0"}, "pred.txt"),
    ({"gt.npy": b"", "pred.npy": None}, "gt"),
])
def test_npz_members_that_are_not_arrays_are_named(tmp_path, members, words):
    good = io.BytesIO()
    np.save(good, np.array([0, 1, 0], dtype=np.int8))
    f = tmp_path / "bad.npz"
    with zipfile.ZipFile(f, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, good.getvalue() if data is None else data)
    with pytest.raises(SeriesFileError, match=words):
        read_series(f)


@pytest.mark.parametrize("command", [["plot", "interest", "-o", "x.png"], ["sweep", "-o", "x", "--format", "csv"]])
def test_plot_and_sweep_name_a_bad_npz_in_one_line(tmp_path, capsys, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    f = tmp_path / "bad.npz"
    with zipfile.ZipFile(f, "w") as zf:
        zf.writestr("gt.npy", b"")
        zf.writestr("pred.txt", b"0 1")
    if command[0] == "plot":
        pytest.importorskip("matplotlib")
    code = _main([*command, "--input", str(f)])
    _one_line_error(code, capsys.readouterr().err, str(f))


def test_structured_npy_with_a_subarray_field_names_the_file(tmp_path):
    f = tmp_path / "s.npy"
    np.save(f, np.zeros(4, dtype=[("gt", "i1", (2,)), ("pred", "i1")]))
    with pytest.raises(SeriesFileError) as info:
        read_series(f)
    assert str(f) in str(info.value) and "gt" in str(info.value)


@pytest.mark.parametrize("kind", ["fifo", "loop", "dangling"])
def test_non_regular_input_files_are_refused_without_blocking(tmp_path, kind):
    f = tmp_path / "series.csv"
    if kind == "fifo":
        os.mkfifo(f)
    elif kind == "loop":
        os.symlink(f.name, f)
    else:
        os.symlink("gone.csv", f)
    with no_hang(), pytest.raises(SeriesFileError) as info:
        read_series(f)
    assert str(f) in str(info.value)


def test_cli_input_fifo_is_a_one_line_error(tmp_path, capsys):
    f = tmp_path / "series.csv"
    os.mkfifo(f)
    with no_hang():
        code = _main(["sweep", "--input", str(f), "-o", str(tmp_path / "x"), "--format", "csv"])
    _one_line_error(code, capsys.readouterr().err, str(f), "FIFO")


def test_a_series_longer_than_the_cap_is_refused(tmp_path, monkeypatch):
    from oipr_bench.scenarios import arrayfiles

    monkeypatch.setattr(arrayfiles, "MAX_POINTS", 1000)
    f = tmp_path / "long.npy"
    np.save(f, np.zeros((2, 600), dtype=np.int8))
    with pytest.raises(SeriesFileError, match="limit"):
        read_series(f)


# --------------------------------------------------------------------------- item 13: length parameters
@pytest.mark.parametrize("name, params", [
    ("OIPR", {"l_obs": 2**31}), ("OIPR", {"l_obs": 10**20}), ("OIPR", {"l_dis": 10**20}),
    ("TaPR", {"delta": 10**20}), ("TaPR", {"delta": 2**31}),
])
def test_absurd_length_parameters_are_refused_by_get(name, params):
    with pytest.raises(ValueError, match="at most"):
        evaluators.get(name, **params)


def test_the_length_cap_allows_every_series_length():
    from oipr_bench.evaluators._params import MAX_LENGTH_PARAM
    from oipr_bench.scenarios.loader import MAX_LENGTH

    assert MAX_LENGTH_PARAM >= MAX_LENGTH
    assert evaluators.get("OIPR", l_obs=MAX_LENGTH_PARAM).params["l_obs"] == MAX_LENGTH_PARAM


@pytest.mark.parametrize("attenuation", ["sigmoid", "linear", "exp"])
def test_a_length_parameter_near_its_cap_builds_its_tables_once(monkeypatch, attenuation):
    """``l_obs``/``l_dis`` at the cap cost 0.5 s per call (the tables over ``0 .. l_obs``
    were rebuilt by every call), minutes per audit.  An audit calls one parameter set hundreds
    of times on series of a few lengths: the tables are built once, a call only streams."""
    from oipr_bench.evaluators import oipr

    built = []
    gamma = oipr._GAMMA[attenuation]
    monkeypatch.setitem(oipr._GAMMA, attenuation, lambda i, l_obs: built.append(i.shape[0]) or gamma(i, l_obs))
    l_obs = 999_983  # a value no other test uses
    ev = evaluators.get("OIPR", l_obs=l_obs, l_dis=l_obs, attenuation=attenuation)
    scores = []
    for T in (100, 250, 100, 4000):
        y_true = np.zeros(T, dtype=np.int8)
        y_true[10:20] = 1
        y_pred = np.roll(y_true, 3)
        scores.append(ev(y_true, y_pred))
    assert built == [l_obs + 1]
    assert scores[0] == scores[2]
    fresh = evaluators.get("OIPR", l_obs=l_obs, l_dis=l_obs, attenuation=attenuation)
    y_true = np.zeros(250, dtype=np.int8)
    y_true[10:20] = 1
    assert fresh(y_true, np.roll(y_true, 3)) == scores[1]


@pytest.mark.parametrize("argv, words", [
    (["plot", "interest", "--case", "overlap_proportion/c1", "-o", "x.png", "--l-obs", "3000000000"], "--l-obs"),
    (["sweep", "--case", "overlap_proportion/c1", "-o", "x", "--format", "csv", "--l-obs-grid", "0:10000000000"],
     "--l-obs-grid"),
    (["sweep", "--case", "overlap_proportion/c1", "-o", "x", "--format", "csv", "--l-dis-grid", "0:100000000:1"],
     "--l-dis-grid"),
    (["audit", "OIPR", "--param", "l_obs=10000000000"], "l_obs"),
    (["audit", "TaPR", "--param", "delta=100000000000000000000"], "delta"),
])
def test_cli_refuses_absurd_lengths_in_one_line(tmp_path, capsys, monkeypatch, argv, words):
    monkeypatch.chdir(tmp_path)
    code = _main(argv)
    _one_line_error(code, capsys.readouterr().err, words)
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------- item 19: messages
@pytest.mark.parametrize("run", ["101", "0", "-3"])
def test_plot_scenarios_run_out_of_range_is_an_error(tmp_path, capsys, run):
    pytest.importorskip("matplotlib")
    code = _main(["plot", "scenarios", "-o", str(tmp_path / "g"), "--run", run])
    _one_line_error(code, capsys.readouterr().err, "--run", "100")
    assert not (tmp_path / "g").exists()


def test_reference_check_on_non_utf8_names_the_file(tmp_path, capsys):
    from oipr_bench import reference

    for name in [*reference.SCORE_FILES.values(), *reference.SCORE_VALUE_FILES.values(), reference.C2_FILE, reference.C1_FILE]:
        (tmp_path / name).write_bytes(b"\xff\xfe not utf-8")
    problems = reference.check_reference(tmp_path)
    assert problems and all(str(tmp_path) in line and "UTF-8" in line for line in problems)


def test_reference_file_nested_too_deeply_is_a_fixture_error(tmp_path):
    from oipr_bench import reference
    from oipr_bench.errors import FixtureError

    name = reference.C1_FILE
    (tmp_path / name).write_text("[" * 100_000)
    with pytest.raises(FixtureError, match="nested") as info:
        reference.load_document(name, tmp_path)
    assert str(tmp_path / name) in str(info.value)


def test_masked_scores_are_refused_like_nan():
    # np.asarray drops the mask: the masked points would be scored as if they were data
    import numpy as np
    from oipr_bench import evaluators

    y = np.array([0, 1, 1, 0, 0, 1], dtype=np.int8)
    scores = np.ma.masked_array([0.1, 0.9, 0.8, 0.2, 0.3, 0.7], mask=[0, 0, 1, 0, 0, 0])
    for name in ("AUC-ROC", "VUS-PR"):
        with pytest.raises(ValueError, match=rf"{name}: scores is a masked array \(1 masked point, first at index 2\)"):
            evaluators.get(name)(y, scores)
    with pytest.raises(ValueError, match=r"PW: y_pred is a masked array"):
        evaluators.get("PW")(y, np.ma.masked_array(y, mask=[1, 0, 0, 0, 0, 0]))


@pytest.mark.parametrize("dtype", ["datetime64[s]", "timedelta64[ms]"])
def test_time_valued_scores_are_refused(dtype):
    import re

    import numpy as np
    from oipr_bench import evaluators

    y = np.array([0, 1, 1, 0], dtype=np.int8)
    scores = np.array([1, 5, 4, 2]).astype(dtype)
    with pytest.raises(ValueError, match=re.escape(f"AUC-ROC: scores must be real numbers, got dtype {dtype}")):
        evaluators.get("AUC-ROC")(y, scores)
    with pytest.raises(ValueError, match=re.escape(f"PW: y_pred must be numeric or boolean 0/1 values, got dtype {dtype}")):
        evaluators.get("PW")(y, np.array([0, 1, 1, 0]).astype(dtype))
