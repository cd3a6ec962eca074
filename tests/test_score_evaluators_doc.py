"""The score evaluators' figures in the docs are the ones the code gives.

- docs/evaluators.md, "The variants and how much they differ": every value of a row with an
  ``evaluators.get`` call is recomputed here on :func:`typical_case`; in the atlas environment
  (TSB-AD, vus, TimeEval, scikit-learn importable) every package call of the table is run too,
  the rows only a package computes included (aeon's rows in the modern env, tests/test_score_packages_aeon.py);
- the section's Python example runs as a doctest;
- docs/benchmarks.md's VUS block is the rendering of benchmarks/vus-timings.json
  (refresh: ``python benchmarks/vus.py --doc``, or re-measure in the atlas env).
"""

from __future__ import annotations

import ast
import doctest
import importlib
import importlib.util
import json
import re
import sys
import types
from pathlib import Path

import numpy as np
import pytest

from oipr_bench import evaluators

ROOT = Path(__file__).resolve().parents[1]
EVALUATORS_MD = ROOT / "docs" / "evaluators.md"
VARIANTS = "### The variants and how much they differ"


def typical_case() -> tuple[np.ndarray, np.ndarray]:
    """5,000 points, five events (two 30 points apart), smoothed noise plus 0.6 on the events."""
    rng = np.random.default_rng(29)
    size = 5000
    y = np.zeros(size, dtype=np.int64)
    for start, end in [(400, 480), (1200, 1230), (1260, 1300), (2500, 2650), (4000, 4010)]:
        y[start:end] = 1
    noise = np.convolve(rng.normal(0, 1, size + 9), np.ones(10) / 10, mode="valid")
    return y, np.round(noise + 0.6 * y, 3)


def variant_rows() -> list[dict[str, str]]:
    text = EVALUATORS_MD.read_text(encoding="utf-8")
    section = text[text.index(VARIANTS):]
    rows = []
    for line in section.splitlines()[1:]:
        if line.startswith("#"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 5 and re.fullmatch(r"\d\.\d{4}", cells[4]):
            rows.append(dict(zip(("variant", "package", "ours", "differs", "value"), cells)))
    return rows


def _ours(cell: str) -> tuple[str, dict]:
    call = ast.parse(cell.strip("`"), mode="eval").body
    assert isinstance(call, ast.Call) and ast.unparse(call.func) == "get", cell
    return ast.literal_eval(call.args[0]), {k.arg: ast.literal_eval(k.value) for k in call.keywords}


def test_the_table_has_its_rows() -> None:
    rows = variant_rows()
    assert len(rows) >= 15
    assert sum(1 for r in rows if r["ours"].startswith("`get(")) >= 12


@pytest.mark.parametrize("row", [r for r in variant_rows() if r["ours"].startswith("`get(")], ids=lambda r: f"{r['variant']}|{r['ours']}")
def test_our_values_in_the_variant_table(row: dict[str, str]) -> None:
    name, params = _ours(row["ours"])
    y, s = typical_case()
    assert f"{evaluators.get(name, **params)(y, s):.4f}" == row["value"]


def _timeeval():
    if "timeeval" not in sys.modules:
        shell = types.ModuleType("timeeval")
        shell.__path__ = list(importlib.util.find_spec("timeeval").submodule_search_locations)
        sys.modules["timeeval"] = shell
    return importlib.import_module("timeeval.metrics")


def _package_value(call: str, y: np.ndarray, s: np.ndarray) -> float:
    """Run the package call a row names (the atlas environment's packages)."""
    from sklearn.metrics import auc, average_precision_score, precision_recall_curve
    from TSB_AD.evaluation.basic_metrics import generate_curve
    from vus.utils.metrics import metricor

    te = _timeeval()
    code = call.strip("`")
    if code.startswith("generate_curve"):
        return float(eval(code, {"generate_curve": generate_curve, "y": y, "s": s}))
    if code.startswith("metricor().RangeAUC_volume_opt"):
        return float(metricor().RangeAUC_volume_opt(y, s, 100, 250)[5])
    if code.startswith("metricor().RangeAUC("):
        return float(metricor().RangeAUC(y, s, window=100, plot_ROC=True)[1])
    if code.startswith(("RangePrVUS", "RangeRocVUS", "RangePrAUC")):
        return float(eval(code, vars(te)).score(y, s))
    if code.startswith("average_precision_score"):
        return float(average_precision_score(y, s))
    if code.startswith("auc(recall, precision)"):
        precision, recall, _ = precision_recall_curve(y, s)
        return float(auc(recall, precision))
    if code.startswith("window 100 of"):
        high, low = generate_curve(y, s, 100, "opt", 250), generate_curve(y, s, 99, "opt", 250)
        return float(101 * high[7] - 100 * low[7])
    raise AssertionError(f"no runner for the package call {call!r}")


MISSING = [m for m in ("TSB_AD", "vus", "sklearn", "timeeval") if importlib.util.find_spec(m) is None]


def is_aeon_row(row: dict[str, str]) -> bool:
    """A row whose package call is aeon's (run in the modern env: tests/test_score_packages_aeon.py)."""
    return row["variant"].startswith("aeon") or "aeon" in row["variant"]


@pytest.mark.skipif(bool(MISSING), reason=f"{', '.join(MISSING)} not installed (make the atlas env: atlas/make-env.sh VENV)")
@pytest.mark.parametrize("row", [r for r in variant_rows() if not is_aeon_row(r)], ids=lambda r: f"{r['variant']}|{r['package']}")
def test_package_values_in_the_variant_table(row: dict[str, str]) -> None:
    y, s = typical_case()
    assert f"{_package_value(row['package'], y, s):.4f}" == row["value"]


def test_the_python_example_runs() -> None:
    text = EVALUATORS_MD.read_text(encoding="utf-8")
    section = text[text.index("## Score evaluators"):text.index(VARIANTS)]
    block = section.split("```python\n", 1)[1].split("```", 1)[0]
    test = doctest.DocTestParser().get_doctest(block, {}, "evaluators.md", str(EVALUATORS_MD), 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 2


def _vus_benchmark():
    spec = importlib.util.spec_from_file_location("vus_benchmark", ROOT / "benchmarks" / "vus.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_benchmarks_page_quotes_the_recorded_vus_timings() -> None:
    bench = _vus_benchmark()
    results = json.loads(bench.RESULTS.read_text(encoding="utf-8"))
    assert [row["n"] for row in results["rows"]] == [100_000, 1_000_000]
    page = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    block = page[page.index(bench.BEGIN) + len(bench.BEGIN):page.index(bench.END)]
    assert block == "\n".join(bench.render(results)) + "\n", "refresh with `python benchmarks/vus.py --doc`"
    # the target is judged in the quoted text
    verdict = "met" if results["rows"][0]["ratio"] >= bench.TARGET_RATIO else "missed"
    assert f"{results['rows'][0]['ratio']:.0f}x, {verdict}." in block
