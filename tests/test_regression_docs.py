"""docs/regression-testing.md: its transcripts and figures are generated here and checked against a fresh run.

Blocks of the page between ``<!-- generated: NAME -->`` and ``<!-- end: NAME -->`` are written by
``python tests/test_regression_docs.py --write`` (the ``benchmark-families`` block by
``benchmarks/differential.py --part families --markdown``, pasted by the same command with
``--families``).  The tests recompute every block and compare, with the seconds (which vary
from run to run) checked against the page's stated bounds instead of equality.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "regression-testing.md"
N = 1000
#: The worked examples of the page: a planted bug of each kind the issue names.
EXAMPLES = ("event_end", "long_series", "close_events")
SECONDS = re.compile(r"\d+\.\d+ s\b")
DECIMALS = re.compile(r"\d+\.\d+")


def normalised(name: str, text: str) -> str:
    """``text`` with its seconds replaced by ``T`` (every decimal in the benchmark table is a time) and the
    wall-clock-dependent "(budget out)" mark dropped: whether the shrink budget ran out depends on the
    machine's load, like the times; the shrunk pair itself (length, events) is still compared."""
    return (DECIMALS if name == "benchmark-planted" else SECONDS).sub("T", text).replace(" (budget out)", "")


def seconds(name: str, text: str) -> list[float]:
    """The times a block states."""
    if name == "benchmark-planted":
        return [float(x) for line in text.splitlines()[2:] for x in DECIMALS.findall(line.split(" | ")[3])]
    return [float(x[:-2]) for x in SECONDS.findall(text)]


def _benchmark() -> Any:
    spec = importlib.util.spec_from_file_location("differential_benchmark", ROOT / "benchmarks" / "differential.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def planted_rows() -> list[dict[str, Any]]:
    """The benchmark's planted part (N = 1000): every planted bug, family by family until one fails."""
    return _benchmark().planted_part(N)


def example_block(kind: str, row: dict[str, Any]) -> str:
    """The command that catches planted bug ``kind``, what pytest prints for the failing item, and the time."""
    from oipr_bench.testing.planted import PLANTED

    bug = PLANTED[kind]
    spec = f"my_{Path(bug.oracle_file).stem}_{kind}.py:evaluate"
    lines = [f"$ pytest -x --evaluator={spec} --reference={bug.reference} --oipr-differential={N} -k differential", "..."]
    lines += [f"differential {row['family']}: {row['message'].splitlines()[0]}", *row["message"].splitlines()[1:]]
    lines += ["...", f"# caught after {row['seconds']:.2f} s, of which {row['shrink_seconds']:.2f} s shrinking"]
    return "```text\n" + "\n".join(lines) + "\n```"


def planted_table(rows: list[dict[str, Any]]) -> str:
    bench = _benchmark()
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        bench.print_planted(rows, True)
    return out.getvalue().rstrip("\n")


def _cli(folder: Path, *args: str) -> str:
    import subprocess

    proc = subprocess.run([sys.executable, "-m", "oipr_bench", *args], cwd=folder, capture_output=True, text=True,
                          timeout=600)
    return (proc.stdout + proc.stderr).rstrip("\n")


def cli_blocks() -> dict[str, str]:
    """A malformed case file's one-line error, and ``oipr-bench verify`` on a report (run in a scratch folder)."""
    import copy
    import json
    import tempfile

    from test_user_cases import CASES

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        bad = copy.deepcopy(CASES)
        bad["cases"][0]["y_pred"] = [[5, 3]]
        (folder / "my_cases.json").write_text(json.dumps(bad, indent=2))
        error = _cli(folder, "audit", "PA", "--cases", "my_cases.json")
        (folder / "my_cases.json").write_text(json.dumps(CASES, indent=2))
        audit = ["audit", "PA", "--reference", "PA", "--differential", "100", "--cases", "my_cases.json",
                 "--format", "json", "-o", "report.json"]
        _cli(folder, *audit)
        verified = _cli(folder, "verify", "report.json")
    return {
        "error-cases": "```text\n$ oipr-bench audit PA --cases my_cases.json\n" + error + "\n```",
        "verify": "```text\n$ oipr-bench " + " ".join(audit) + "\n$ oipr-bench verify report.json\n" + verified + "\n```",
    }


def blocks(rows: list[dict[str, Any]]) -> dict[str, str]:
    by_kind = {r["bug"]: r for r in rows}
    out = {f"example-{k}": example_block(k, by_kind[k]) for k in EXAMPLES}
    out["benchmark-planted"] = planted_table(rows)
    out.update(cli_blocks())
    return out


def read_blocks(text: str) -> dict[str, str]:
    found = re.findall(r"<!-- generated: ([\w-]+) -->\n(.*?)\n<!-- end: \1 -->", text, flags=re.S)
    return dict(found)


def write_blocks(text: str, new: dict[str, str]) -> str:
    for name, body in new.items():
        pattern = re.compile(rf"(<!-- generated: {name} -->\n).*?(\n<!-- end: {name} -->)", flags=re.S)
        assert pattern.search(text), f"no block {name} in {PAGE}"
        text = pattern.sub(lambda m: m.group(1) + body + m.group(2), text)
    return text


@pytest.fixture(scope="module")
def fresh() -> list[dict[str, Any]]:
    return planted_rows()


@pytest.mark.slow
def test_the_worked_examples_are_what_a_run_prints(fresh: list[dict[str, Any]]) -> None:
    documented = read_blocks(PAGE.read_text())
    for name, body in blocks(fresh).items():
        assert name in documented, f"{PAGE} lacks the generated block {name}"
        assert normalised(name, documented[name]) == normalised(name, body), (
            f"{name} in {PAGE} differs from a fresh run; regenerate it: python tests/test_regression_docs.py --write")
        # the documented times are real runs within the bound (60 s per bug)
        assert all(t <= 60 for t in seconds(name, documented[name])), name


def test_the_families_benchmark_block_has_every_evaluator() -> None:
    from oipr_bench.evaluators import NAMES

    body = read_blocks(PAGE.read_text())["benchmark-families"]
    rows = [line.split(" | ") for line in body.splitlines() if line.startswith("| ") and not line.startswith("| evaluator")]
    assert [r[0].lstrip("| ") for r in rows] == list(NAMES) and all(r[1] == str(N) for r in rows)
    assert re.search(r"^# x86_64, \d+ cores, .*load average", body, flags=re.M)


def main(argv: list[str]) -> int:
    text = PAGE.read_text()
    new = blocks(planted_rows())
    if "--families" in argv:
        import subprocess

        proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "differential.py"), "--part", "families",
                               "--markdown"], capture_output=True, text=True, check=True)
        new["benchmark-families"] = proc.stdout.rstrip("\n")
    PAGE.write_text(write_blocks(text, new))
    print(f"wrote {', '.join(new)} into {PAGE}")
    return 0


if __name__ == "__main__":
    if "--write" not in sys.argv:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv))
