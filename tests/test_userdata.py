"""Reading user series files (oipr_bench.scenarios.userdata): formats, names and one-line errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from oipr_bench.errors import UsageError
from oipr_bench.scenarios.userdata import SeriesFileError, read_series


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# -- CSV ------------------------------------------------------------------------------------------


def test_csv_gt_pred(tmp_path):
    s = read_series(write(tmp_path, "a.csv", "gt,pred\n0,0\n1,1\n1,0\n0,1\n"))
    assert s.y_true.tolist() == [0, 1, 1, 0]
    assert s.y_pred.tolist() == [0, 1, 0, 1]
    assert s.names == ["pred"]
    assert s.y_true.dtype == np.int8 and s.y_pred.dtype == np.int8
    assert s.length == 4
    assert s.source.endswith("a.csv")


def test_csv_several_predictions_keep_file_order(tmp_path):
    s = read_series(write(tmp_path, "m.csv", "zeta,gt,alpha\n1,0,0\n0,1,1\n"))
    assert s.names == ["zeta", "alpha"]
    assert s.y_true.tolist() == [0, 1]
    assert s.predictions["zeta"].tolist() == [1, 0]


def test_csv_lenient_spellings(tmp_path):
    text = "\ufeffY_TRUE , pred\r\n0.0, true\r\n1.0 ,FALSE\r\n\r\n\r\n"
    s = read_series(write(tmp_path, "b.csv", text))
    assert s.y_true.tolist() == [0, 1]
    assert s.y_pred.tolist() == [1, 0]


def test_authors_csv_reads_like_the_dataset(authors_csv_dir):
    from oipr_bench import scenarios

    s = read_series(authors_csv_dir / "fragmented FP (c1).csv")
    case = scenarios.get("fragmented_fps/c1")
    assert np.array_equal(s.y_true, case.y_true)
    assert np.array_equal(s.y_pred, case.y_pred)


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("", "is empty"),
        ("\n\n", "is empty"),
        ("gt,pred\n", "no data rows"),
        ("truth,pred\n0,1\n", "no ground-truth column"),
        ("gt\n0\n1\n", "no prediction column"),
        ("gt,pred\n0,1\n1,0,1\n", "line 3 has 3 field(s), the header has 2"),
        ("gt,pred\n0,1\n1\n", "line 3 has 1 field(s)"),
        ("gt,pred\n0,1\n\n1,0\n", "line 3 is blank"),
        ("gt,pred\n0,1\n1,\n", "column 'pred', line 3: missing value"),
        ("gt,pred\n0,1\nnan,0\n", "column 'gt', line 3: NaN"),
        ("gt,pred\n0,2\n", "column 'pred', line 2: value '2' is not binary"),
        ("gt,pred\n0,0.5\n", "value '0.5' is not binary"),
        ("gt,pred\n0,yes\n", "value 'yes' is not binary"),
        ("gt,pred,pred\n0,1,1\n", "repeats the column name 'pred'"),
        ("gt,,pred\n0,1,1\n", "empty column name"),
    ],
)
def test_csv_errors_name_file_and_problem(tmp_path, text, fragment):
    path = write(tmp_path, "bad.csv", text)
    with pytest.raises(SeriesFileError) as info:
        read_series(path)
    message = str(info.value)
    assert fragment in message
    assert message.startswith(str(path) + ": ")
    assert "\n" not in message


def test_error_types_are_usage_and_value_errors(tmp_path):
    with pytest.raises(UsageError):
        read_series(tmp_path / "missing.csv")
    with pytest.raises(ValueError, match="no such file"):
        read_series(tmp_path / "missing.csv")


def test_unsupported_suffix_and_folder(tmp_path):
    with pytest.raises(SeriesFileError, match=r"unsupported file type '\.txt'"):
        read_series(write(tmp_path, "a.txt", "gt,pred\n0,1\n"))
    folder = tmp_path / "d.csv"
    folder.mkdir()
    with pytest.raises(SeriesFileError, match="is a folder"):
        read_series(folder)


def test_binary_garbage_csv(tmp_path):
    path = tmp_path / "g.csv"
    path.write_bytes(b"\xff\xfe\x00\x81gt")
    with pytest.raises(SeriesFileError, match="not a UTF-8 text CSV"):
        read_series(path)


# -- .npy / .npz ------------------------------------------------------------------------------------


def test_npy_rows_and_columns(tmp_path):
    gt = np.array([0, 1, 1, 0, 0], dtype=np.int64)
    pred = np.array([0, 0, 1, 1, 0], dtype=np.int64)
    np.save(tmp_path / "rows.npy", np.vstack([gt, pred]))
    np.save(tmp_path / "cols.npy", np.column_stack([gt, pred]).astype(float))
    for name in ("rows.npy", "cols.npy"):
        s = read_series(tmp_path / name)
        assert s.y_true.tolist() == gt.tolist()
        assert s.y_pred.tolist() == pred.tolist()
        assert s.names == ["pred"]


def test_npy_several_predictions_and_square_is_rows(tmp_path):
    arr = np.array([[0, 1, 1, 0], [1, 1, 0, 0], [0, 0, 0, 1]], dtype=bool)
    np.save(tmp_path / "k.npy", arr)
    s = read_series(tmp_path / "k.npy")
    assert s.names == ["pred1", "pred2"]
    assert s.predictions["pred2"].tolist() == [0, 0, 0, 1]
    np.save(tmp_path / "sq.npy", np.array([[0, 1], [1, 1]]))
    s = read_series(tmp_path / "sq.npy")
    assert s.y_true.tolist() == [0, 1] and s.y_pred.tolist() == [1, 1]


def test_npy_structured_array(tmp_path):
    arr = np.zeros(4, dtype=[("pred", "i1"), ("gt", "i1")])
    arr["gt"] = [0, 1, 1, 0]
    arr["pred"] = [1, 1, 0, 0]
    np.save(tmp_path / "st.npy", arr)
    s = read_series(tmp_path / "st.npy")
    assert s.y_true.tolist() == [0, 1, 1, 0] and s.names == ["pred"]


@pytest.mark.parametrize(
    "array, fragment",
    [
        (np.array([0, 1, 0]), "must be a 2-D array"),
        (np.zeros((2, 2, 2)), "must be a 2-D array"),
        (np.zeros((0, 2)), "is empty"),
        (np.array([[0.0, 1.0, np.nan], [0.0, 1.0, 1.0]]), "column 'gt': NaN at index 2"),
        (np.array([[0, 1, 3], [0, 1, 1]]), "column 'gt': value 3 at index 2 is not binary"),
        (np.array([["0", "1"], ["1", "0"]]), "must be numeric 0/1"),
    ],
)
def test_npy_errors(tmp_path, array, fragment):
    path = tmp_path / "bad.npy"
    np.save(path, array)
    with pytest.raises(SeriesFileError) as info:
        read_series(path)
    assert fragment in str(info.value)
    assert str(path) in str(info.value) and "\n" not in str(info.value)


def test_npy_object_array_is_refused(tmp_path):
    path = tmp_path / "obj.npy"
    np.save(path, np.array([[0, 1], [1, None]], dtype=object), allow_pickle=True)
    with pytest.raises(SeriesFileError, match="pickled data is never loaded"):
        read_series(path)


def test_npy_not_an_array_file(tmp_path):
    path = write(tmp_path, "fake.npy", "gt,pred\n")
    with pytest.raises(SeriesFileError, match="is not a .npy file"):
        read_series(path)
    path = write(tmp_path, "fake.npz", "gt,pred\n")
    with pytest.raises(SeriesFileError, match="is not a .npz archive"):
        read_series(path)


def test_npz(tmp_path):
    np.savez(tmp_path / "a.npz", y_true=np.array([0, 1, 1]), d1=np.array([0, 1, 0]), d2=np.array([1, 1, 1]))
    s = read_series(tmp_path / "a.npz")
    assert s.y_true.tolist() == [0, 1, 1]
    assert s.names == ["d1", "d2"]


@pytest.mark.parametrize(
    "arrays, fragment",
    [
        ({"gt": np.array([0, 1, 1]), "pred": np.array([0, 1])}, "series differ in length (gt=3, pred=2)"),
        ({"label": np.array([0, 1]), "pred": np.array([0, 1])}, "no ground-truth column"),
        ({"gt": np.array([[0, 1]]), "pred": np.array([0, 1])}, "array 'gt' must be 1-D"),
        ({"gt": np.array([], dtype=int), "pred": np.array([], dtype=int)}, "is empty"),
    ],
)
def test_npz_errors(tmp_path, arrays, fragment):
    path = tmp_path / "bad.npz"
    np.savez(path, **arrays)
    with pytest.raises(SeriesFileError) as info:
        read_series(path)
    assert fragment in str(info.value)
