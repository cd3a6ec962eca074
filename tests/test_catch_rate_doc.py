"""docs/regression-testing.md: the catch-rate table (which family catches which planted bug) is a real run.

The block between ``<!-- generated: catch-rate -->`` and ``<!-- end: catch-rate -->`` is the output
of ``python benchmarks/catch_rate.py --markdown`` (N = 1000, seed 0; about ten minutes on two
cores), pasted by ``python tests/test_catch_rate_doc.py --write``.  The tests check its structure
(every planted bug, every family in report order, the rate row adds up its column) and recompute
part of it: every cell caught within :data:`RECOMPUTE_UP_TO` pairs (the family must first differ at
exactly that pair), and every cell of the fast point-wise copies outside ``long_series``,
``cardinality`` and ``many_events`` (caught where it says, or not caught in N pairs).
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
BLOCK = "catch-rate"
RECOMPUTE_UP_TO = 100
FAST = ("event_end", "integer_percent", "k_inclusive")
SLOW_FAMILIES = ("long_series", "cardinality", "many_events")


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location("catch_rate_benchmark", ROOT / "benchmarks" / "catch_rate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def documented() -> tuple[int, int, list[str], dict[str, list[str]]]:
    """``(N, seed, families, {row label: cells})`` of the page's table."""
    text = PAGE.read_text()
    m = re.search(rf"<!-- generated: {BLOCK} -->\n(.*?)\n<!-- end: {BLOCK} -->", text, flags=re.S)
    assert m, f"{PAGE} lacks the generated block {BLOCK}"
    lines = m.group(1).splitlines()
    head = re.fullmatch(r"# N = (\d+) pairs per family, seed (\d+)", lines[0])
    assert head, lines[0]
    cols = [c.strip() for c in lines[1].strip("|").split("|")]
    assert cols[0] == "planted bug" and set(lines[2].replace("|", "")) == {"-"}
    rows = {}
    for line in lines[3:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0]] = cells[1:]
    return int(head.group(1)), int(head.group(2)), cols[1:], rows


def test_the_table_has_every_bug_and_family_and_its_rates_add_up() -> None:
    from oipr_bench.testing.planted import PLANTED
    from oipr_bench.vocabulary import FAMILIES

    n, seed, families, rows = documented()
    assert (n, seed) == (1000, 0)
    assert families == list(FAMILIES)
    assert list(rows) == [*PLANTED, "catch rate"]
    for bug in PLANTED:
        assert len(rows[bug]) == len(families)
        assert all(c == "-" or 1 <= int(c) <= n for c in rows[bug]), (bug, rows[bug])
        assert any(c != "-" for c in rows[bug]), f"no family catches {bug}"
    for j, rate in enumerate(rows["catch rate"]):
        caught = sum(rows[bug][j] != "-" for bug in PLANTED)
        assert rate == f"{caught}/{len(PLANTED)}", (families[j], rate, caught)
    # what the new families must catch, at N = 1000 with seed 0
    assert rows["cardinality"][families.index("cardinality")] != "-"
    assert rows["integer_percent"][families.index("percent_boundary")] != "-"


def _cells_to_recompute() -> list[tuple[str, str, str]]:
    n, seed, families, rows = documented()
    out = []
    for bug, cells in rows.items():
        if bug == "catch rate":
            continue
        for family, c in zip(families, cells):
            if (c != "-" and int(c) <= RECOMPUTE_UP_TO) or (bug in FAST and family not in SLOW_FAMILIES):
                out.append((bug, family, c))
    return out


@pytest.mark.parametrize("bug, family, cell", _cells_to_recompute())
def test_a_cell_is_what_a_fresh_run_gives(bug: str, family: str, cell: str) -> None:
    n, seed, _, _ = documented()
    got = _bench().cell((bug, family, n if cell == "-" else int(cell), seed))
    if cell == "-":
        assert not got["caught"], f"{family} now catches {bug} at pair {got['pair']}; regenerate the table"
    else:
        assert got["caught"] and got["pair"] == int(cell), (bug, family, cell, got)


def main(argv: list[str]) -> int:
    import subprocess

    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "catch_rate.py"), "--markdown"],
                          capture_output=True, text=True, check=True)
    text = PAGE.read_text()
    pattern = re.compile(rf"(<!-- generated: {BLOCK} -->\n).*?(\n<!-- end: {BLOCK} -->)", flags=re.S)
    assert pattern.search(text), f"no block {BLOCK} in {PAGE}"
    PAGE.write_text(pattern.sub(lambda m: m.group(1) + proc.stdout.rstrip("\n") + m.group(2), text))
    print(f"wrote {BLOCK} into {PAGE}")
    return 0


if __name__ == "__main__":
    if "--write" not in sys.argv:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv))
