"""Pictures: gallery, interest curves, sweeps, their CLI commands, and life without matplotlib."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from oipr_bench import evaluators, scenarios
from oipr_bench.cli import main
from oipr_bench.errors import UsageError
from oipr_bench.evaluators.oracles.oipr import oipr_areas_oracle
from oipr_bench.plots import sweep as sweep_mod
from oipr_bench.plots._mpl import INSTALL_HINT, format_from_suffix
from oipr_bench.plots.interest import auto_window, compute_interest

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
REPO_ROOT = Path(__file__).resolve().parents[1]


def needs_mpl():
    pytest.importorskip("matplotlib")


def assert_png(path: Path, min_size: int = 2_000, max_size: int = 3_000_000) -> None:
    data = path.read_bytes()
    assert data[:8] == PNG_MAGIC, f"{path} is not a PNG"
    assert min_size < len(data) < max_size, f"{path}: {len(data)} bytes"


def assert_svg(path: Path, min_size: int = 2_000, max_size: int = 3_000_000) -> None:
    data = path.read_bytes()
    assert min_size < len(data) < max_size, f"{path}: {len(data)} bytes"
    root = ET.fromstring(data)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"


def run_cli(args: list[str], capsys) -> tuple[int, str, str]:
    """Run the CLI in-process; argparse usage errors (SystemExit) give their exit code too."""
    try:
        code = main(args)
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


# -- pure computations (no matplotlib) ---------------------------------------------------------------


def test_interest_numbers_match_the_literal_oracle():
    case = scenarios.get("fragmented_tps/c3")
    data = compute_interest(case.y_true, case.y_pred, l_dis=5, l_obs=20, b_dur=0.5)
    tp, fp, fn = oipr_areas_oracle(case.y_true.tolist(), case.y_pred.tolist(), 5, 20, 0.5)
    assert data.tp == pytest.approx(tp, abs=1e-9)
    assert data.fp == pytest.approx(fp, abs=1e-9)
    assert data.fn == pytest.approx(fn, abs=1e-9)
    assert data.curve_true.shape == (case.length + 20,)
    assert data.score.precision == pytest.approx(tp / (tp + fp), abs=1e-12)
    # The paper's Table A1 value for this case (4 printed decimals).
    assert data.score.f1 == pytest.approx(0.8617, abs=5e-5)


def test_interest_auto_params_are_resolved():
    case = scenarios.get("overlap_proportion/c3")  # one 50-point event: La = 50
    data = compute_interest(case.y_true, case.y_pred, l_dis="auto", l_obs="auto")
    assert data.params["l_dis"] == 13 and data.params["l_obs"] == 50
    data = compute_interest(case.y_true, case.y_pred, l_dis="auto", l_obs="auto", auto_rule="authors_code")
    assert data.params["l_dis"] == 25


def test_auto_window_covers_every_nonzero_point():
    case = scenarios.get("fragmented_tps/c2")
    data = compute_interest(case.y_true, case.y_pred)
    lo, hi = auto_window(data)
    nz = np.flatnonzero((data.curve_true > 0) | (data.curve_pred > 0))
    assert lo < nz[0] and nz[-1] < hi <= data.curve_true.shape[0]
    zero = compute_interest(np.zeros(30, dtype=int), np.zeros(30, dtype=int))
    assert auto_window(zero) == (0, 50)


@pytest.mark.parametrize("text, expected", [("0:20:5", [0, 5, 10, 15, 20]), ("2:4", [2, 3, 4]), ("5,1,1", [1, 5])])
def test_parse_grid(text, expected):
    assert sweep_mod.parse_grid(text) == expected


@pytest.mark.parametrize("text", ["", "a:b", "5:1", "0:10:0", "-1,2", "1:2:3:4"])
def test_parse_grid_rejects(text):
    with pytest.raises(UsageError):
        sweep_mod.parse_grid(text, "--l-dis-grid")


def test_sweep_values_are_oipr_and_pw_at_zero_observation():
    group = [c for c in scenarios.load() if c.scenario == "fragmented_fps"]
    preds = {c.case: c.predictions for c in group}
    table = sweep_mod.sweep(group[0].y_true, preds, [0, 5], [0, 20])
    assert len(table) == 3 * 4
    pw = evaluators.get("PW")
    for c in group:
        # l_obs = 0: OIPR equals PW (paper eq. 10), whatever l_dis.
        for l_dis in (0, 5):
            row = table[(table.detector == c.case) & (table.l_dis == l_dis) & (table.l_obs == 0)].iloc[0]
            assert row.f1 == pytest.approx(pw(c.y_true, c.y_pred).f1, abs=1e-12)
        row = table[(table.detector == c.case) & (table.l_dis == 5) & (table.l_obs == 20)].iloc[0]
        expected = evaluators.get("OIPR", l_dis=5, l_obs=20, b_dur=0.5)(c.y_true, c.y_pred)
        assert (row.precision, row.recall, row.f1) == pytest.approx(tuple(expected), abs=1e-12)


def test_sweep_random_case_is_the_mean_over_runs():
    case = scenarios.get("random_detector/c2")
    table = sweep_mod.sweep(case.y_true, {"rd": case.predictions}, [5], [20])
    ev = evaluators.get("OIPR")
    mean_f1 = np.mean([ev(case.y_true, p).f1 for p in case.predictions])
    assert table.f1.iloc[0] == pytest.approx(mean_f1, abs=1e-12)
    assert table.n_runs.iloc[0] == 100


def test_winners():
    table = pd.DataFrame(
        [("a", 0, 0, 0.5, "sigmoid", 1, 1.0, 1.0, 0.8), ("b", 0, 0, 0.5, "sigmoid", 1, 1.0, 1.0, 0.8),
         ("a", 0, 5, 0.5, "sigmoid", 1, 1.0, 1.0, 0.6), ("b", 0, 5, 0.5, "sigmoid", 1, 1.0, 1.0, 0.7)],
        columns=["detector", "l_dis", "l_obs", "b_dur", "attenuation", "n_runs", "precision", "recall", "f1"],
    )
    win = sweep_mod.winners(table)
    assert win.winner.tolist() == ["tie", "b"]
    assert win.margin.iloc[1] == pytest.approx(0.1)
    assert win.runner_up.iloc[1] == "a"


def test_format_from_suffix():
    assert format_from_suffix("a/b.PNG") == "png"
    assert format_from_suffix("x.svg") == "svg"
    for bad in ("x.pdf", "x", "x.png.txt"):
        with pytest.raises(UsageError) as info:
            format_from_suffix(bad)
        assert "\n" not in str(info.value) and ".png or .svg" in str(info.value)


# -- pictures through the command line ----------------------------------------------------------------


def test_plot_scenarios(tmp_path, capsys):
    needs_mpl()
    code, out, err = run_cli(["plot", "scenarios", "-o", str(tmp_path / "gallery")], capsys)
    assert code == 0, err
    names = list(dict.fromkeys(c.scenario for c in scenarios.load()))
    assert len(names) == 9
    for name in names:
        assert_png(tmp_path / "gallery" / f"{name}.png")
        assert_svg(tmp_path / "gallery" / f"{name}.svg")
    assert_png(tmp_path / "gallery" / "overview.png", min_size=20_000)
    assert len(out.strip().splitlines()) == 19


def test_gallery_layout_and_determinism():
    needs_mpl()
    from oipr_bench.plots.gallery import scenario_figure, scenario_strips
    from oipr_bench.plots._mpl import figure_bytes

    cases = scenarios.load()
    frag = [c for c in cases if c.scenario == "fragmented_tps"]
    strips = scenario_strips(frag)
    assert [s.label for s in strips] == ["gt", "c1", "c2", "c3"]
    assert [s.role for s in strips] == ["gt", "pred", "pred", "pred"]
    rand = [c for c in cases if c.scenario == "random_detector"]
    strips = scenario_strips(rand, run=4)
    assert [s.label for s in strips] == ["c1 gt", "c1 (run 5 of 100)", "c2 gt", "c2 (run 5 of 100)"]
    assert np.array_equal(strips[1].y, rand[0].predictions[4])
    one = figure_bytes(scenario_figure("fragmented_tps", frag), "svg")
    two = figure_bytes(scenario_figure("fragmented_tps", frag), "svg")
    assert one == two
    assert figure_bytes(scenario_figure("fragmented_tps", frag), "png") == figure_bytes(
        scenario_figure("fragmented_tps", frag), "png")


@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_plot_interest_case(tmp_path, capsys, suffix):
    needs_mpl()
    out_file = tmp_path / f"curve.{suffix}"
    code, out, err = run_cli(["plot", "interest", "--case", "fragmented_tps/c2", "-o", str(out_file),
                              "--attenuation", "linear", "--l-obs", "10"], capsys)
    assert code == 0, err
    (assert_png if suffix == "png" else assert_svg)(out_file)
    assert out.strip() == str(out_file)


def test_plot_interest_input_file_and_random_run(tmp_path, capsys):
    needs_mpl()
    csv = tmp_path / "mine.csv"
    csv.write_text("gt,pred\n" + "\n".join(f"{int(30 <= t < 50)},{int(35 <= t < 60)}" for t in range(100)) + "\n")
    code, _, err = run_cli(["plot", "interest", "--input", str(csv), "-o", str(tmp_path / "m.png"),
                            "--l-dis", "auto", "--l-obs", "auto", "--window", "0:100"], capsys)
    assert code == 0, err
    assert_png(tmp_path / "m.png")
    code, _, err = run_cli(["plot", "interest", "--case", "random_detector/c1", "--run", "7",
                            "-o", str(tmp_path / "r.svg")], capsys)
    assert code == 0, err
    assert_svg(tmp_path / "r.svg")


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--case", "fragmented_tps/c2", "-o", "OUT/x.pdf"], "must be .png or .svg"),
        (["--case", "nosuch/c9", "-o", "OUT/x.png"], "unknown case 'nosuch/c9'"),
        (["--case", "fragmented_fps", "-o", "OUT/x.png"], "holds 3 predictions"),
        (["--case", "random_detector/c1", "--run", "101", "-o", "OUT/x.png"], "--run must lie in 1..100"),
        (["--input", "OUT/none.csv", "-o", "OUT/x.png"], "no such file"),
        (["--case", "fragmented_tps/c2", "--b-dur", "2", "-o", "OUT/x.png"], "must lie in [0, 1]"),
        (["--case", "fragmented_tps/c2", "--l-obs", "-3", "-o", "OUT/x.png"], "must be non-negative"),
        (["--case", "fragmented_tps/c2", "--window", "300:400", "-o", "OUT/x.png"], "shows nothing"),
    ],
)
def test_plot_interest_user_errors_exit_2_in_one_line(tmp_path, capsys, args, fragment):
    needs_mpl()
    args = [a.replace("OUT", str(tmp_path)) for a in args]
    code, out, err = run_cli(["plot", "interest", *args], capsys)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], err
    assert not list(tmp_path.glob("x.*"))


def test_plot_interest_bad_input_file_exits_2(tmp_path, capsys):
    needs_mpl()
    bad = tmp_path / "bad.csv"
    bad.write_text("gt,pred\n0,1\n1,7\n")
    code, _, err = run_cli(["plot", "interest", "--input", str(bad), "-o", str(tmp_path / "x.png")], capsys)
    assert code == 2
    assert err.strip() == f"oipr-bench plot: error: {bad}: column 'pred', line 3: value '7' is not binary (0 or 1)"


def test_sweep_scenario_ranking(tmp_path, capsys):
    needs_mpl()
    prefix = tmp_path / "out" / "ffps"
    prefix.parent.mkdir()  # the prefix's folder must exist (outputs never create folders)
    code, out, err = run_cli(["sweep", "--case", "fragmented_fps", "--l-dis-grid", "0,5", "--l-obs-grid", "0:20:10",
                              "-o", str(prefix), "--format", "png,svg"], capsys)
    assert code == 0, err
    table = pd.read_csv(tmp_path / "out" / "ffps.csv")
    assert list(table.columns) == ["detector", "l_dis", "l_obs", "b_dur", "attenuation", "n_runs",
                                   "precision", "recall", "f1"]
    assert len(table) == 3 * 2 * 3
    ranking = pd.read_csv(tmp_path / "out" / "ffps-ranking.csv")
    assert len(ranking) == 6
    # At l_obs = 0 OIPR is PW, under which c1 and c2 tie (same TP and FP point counts).
    pw = evaluators.get("PW")
    c1, c2 = scenarios.get("fragmented_fps/c1"), scenarios.get("fragmented_fps/c2")
    assert pw(c1.y_true, c1.y_pred).f1 == pw(c2.y_true, c2.y_pred).f1
    assert set(ranking[ranking.l_obs == 0].winner) == {"tie"}
    # With an observation phase, the dispersed FPs of c1 never win (fragments merging).
    assert "c1" not in set(ranking[ranking.l_obs > 0].winner)
    for suffix in ("", "-ranking"):
        assert_png(tmp_path / "out" / f"ffps{suffix}.png")
        assert_svg(tmp_path / "out" / f"ffps{suffix}.svg")


def test_sweep_multi_column_csv_and_several_files(tmp_path, capsys):
    needs_mpl()
    t = np.arange(200)
    gt = ((t >= 50) & (t < 80)).astype(int)
    a = ((t >= 50) & (t < 60)).astype(int)
    b = ((t >= 45) & (t < 85)).astype(int)
    pd.DataFrame({"gt": gt, "short": a, "wide": b}).to_csv(tmp_path / "multi.csv", index=False)
    code, _, err = run_cli(["sweep", "--input", str(tmp_path / "multi.csv"), "--l-dis-grid", "2,5",
                            "--l-obs-grid", "5,20", "-o", str(tmp_path / "m.csv")], capsys)
    assert code == 0, err
    assert set(pd.read_csv(tmp_path / "m.csv").detector) == {"short", "wide"}
    assert_png(tmp_path / "m-ranking.png")
    pd.DataFrame({"gt": gt, "pred": a}).to_csv(tmp_path / "one.csv", index=False)
    pd.DataFrame({"gt": gt, "pred": b}).to_csv(tmp_path / "two.csv", index=False)
    code, _, err = run_cli(["sweep", "--input", str(tmp_path / "one.csv"), str(tmp_path / "two.csv"),
                            "--l-dis-grid", "5", "--l-obs-grid", "20", "-o", str(tmp_path / "f"), "--format", "csv"],
                           capsys)
    assert code == 0, err
    assert pd.read_csv(tmp_path / "f.csv").detector.tolist() == ["one", "two"]
    pd.DataFrame({"gt": 1 - gt, "pred": b}).to_csv(tmp_path / "other.csv", index=False)
    code, _, err = run_cli(["sweep", "--input", str(tmp_path / "one.csv"), str(tmp_path / "other.csv"),
                            "-o", str(tmp_path / "g")], capsys)
    assert code == 2 and "ground truth differs" in err and len(err.strip().splitlines()) == 1


# -- without matplotlib ---------------------------------------------------------------------------------

_NO_MPL = textwrap.dedent(
    """
    import sys
    sys.modules["matplotlib"] = None      # any import of matplotlib now raises ImportError
    sys.modules["matplotlib.pyplot"] = None
    from oipr_bench.cli import main
    sys.exit(main(sys.argv[1:]))
    """
)


def _run_without_mpl(args: list[str]) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-c", _NO_MPL, *args], capture_output=True, text=True, env=env,
                          timeout=120)


@pytest.mark.parametrize(
    "args",
    [
        ["plot", "scenarios", "-o", "OUT/g"],
        ["plot", "interest", "--case", "fragmented_tps/c2", "-o", "OUT/c.png"],
        ["sweep", "--case", "fragmented_fps", "-o", "OUT/s"],
    ],
)
def test_missing_matplotlib_one_line_exit_2(tmp_path, args):
    proc = _run_without_mpl([a.replace("OUT", str(tmp_path)) for a in args])
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert INSTALL_HINT in lines[0]
    assert "pip install 'oipr-bench[plot]'" in lines[0]
    assert not any(tmp_path.iterdir())


def test_without_matplotlib_csv_sweep_and_html_report_still_work(tmp_path):
    proc = _run_without_mpl(["sweep", "--case", "fragmented_fps", "--l-dis-grid", "5", "--l-obs-grid", "20",
                             "--format", "csv", "-o", str(tmp_path / "s")])
    assert proc.returncode == 0, proc.stderr
    assert len(pd.read_csv(tmp_path / "s.csv")) == 3
    # OIPR matches the default expectations, so the report exits 0 (PW's row would exit 1, like `audit`)
    proc = _run_without_mpl(["report", "OIPR", "-o", str(tmp_path / "r.html")])
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "r.html").read_text().startswith("<!DOCTYPE html>")


def test_interest_picture_at_the_length_cap_draws_a_bounded_number_of_steps():
    """A neighbour of "l_obs at its cap": ``plot interest --l-obs 10000000`` drew 10^7 steps
    (37 s, 5 GB).  At most MAX_DRAWN_STEPS steps per curve, and a one-point peak survives the bins."""
    pytest.importorskip("matplotlib")
    from oipr_bench.plots.interest import MAX_DRAWN_STEPS, interest_figure

    y_true = np.zeros(400, dtype=np.int8)
    y_true[100:150] = 1
    y_pred = np.zeros(400, dtype=np.int8)
    y_pred[300] = 1
    data = compute_interest(y_true, y_pred, l_dis=5, l_obs=1_000_000)
    fig = interest_figure(data)
    try:
        lines = fig.axes[1].lines
        assert len(lines) >= 2
        for line in lines[:2]:
            assert line.get_xdata().size <= MAX_DRAWN_STEPS + 1
        xs, ys = lines[1].get_xdata(), lines[1].get_ydata()  # the prediction: its 1 at t = 300 scores 1
        assert ys.max() == 1.0 and xs[int(np.argmax(ys))] <= 300 < xs[int(np.argmax(ys)) + 1]
        assert xs[0] == fig.axes[1].get_xlim()[0] and xs[-1] == fig.axes[1].get_xlim()[1]
    finally:
        import matplotlib.pyplot as plt

        plt.close(fig)
