"""Reproduction of the paper's Tables A1, C1 and C2 with the built-in evaluators.

Every value is computed here (evaluators from :mod:`oipr_bench.evaluators`,
cases from :mod:`oipr_bench.scenarios`, the long/short threshold from
:func:`oipr_bench.evaluators.oipr.long_short_threshold`) and compared with the
paper's printed value (:mod:`oipr_bench.reference.paper`) under a stated rule:

Table A1 (25 cases x 7 evaluators x P/R/F1 = 525 values)
    deterministic cases: ``|ours - paper| <= 5e-5`` (half a unit of the 4th
    printed decimal); random-detector cases (means over 100 runs): ``|ours -
    paper| <= max(3 SE, 5e-5)``, SE being the standard error of our mean over
    our 100 runs.  NaN matches NaN only.
Table C1 (3 attenuations x 6 columns = 18 values)
    ``|ours - paper| <= 5e-3`` (2 printed decimals).
Table C2 (15 cases x 3 attenuations x P/R/F1 = 135 values)
    ``|ours - paper| <= 5e-5``.

:func:`reproduce` returns a :class:`TableResult`; :func:`render` formats it as
``table`` (plain text), ``markdown``, ``json`` or ``csv``.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import asdict, dataclass
from typing import Any, Callable

from .. import evaluators
from ..reference import paper
from ..jsondata import jsonable
from ..reference.values import C1_L_DIS, C2_ATTENUATIONS, case_row, compute_c1, evaluate_case
from ..auditing.profile.render import table

__all__ = [
    "Comparison",
    "TableResult",
    "TABLES",
    "FORMATS",
    "N_STDERR",
    "reproduce",
    "reproduce_a1",
    "reproduce_c1",
    "reproduce_c2",
    "render",
]

TABLES: tuple[str, ...] = ("A1", "C1", "C2")
FORMATS: tuple[str, ...] = ("table", "markdown", "json", "csv")
#: Random-detector means match when within this many standard errors of our mean.
N_STDERR = 3.0
#: Mark placed after a value that does not match the paper.
MISMATCH_MARK = "!"

_METRICS = ("precision", "recall", "f1")


@dataclass(frozen=True)
class Comparison:
    """One computed value next to the paper's printed value.

    Attributes
    ----------
    table : str
        "A1", "C1" or "C2".
    row, column : str
        Case id (A1, C2) or attenuation (C1); evaluator (A1), attenuation (C2)
        or ``"l_dis, l_obs"`` (C1).
    metric : str
        "precision", "recall", "f1" or "threshold".
    ours, paper : float
        Our value (full precision) and the paper's printed value (NaN for ``nan``).
    tolerance : float
        Largest accepted ``|ours - paper|``.
    rule : str
        "printed" (half a unit of the last printed decimal) or "3 SE" (random cases).
    stderr : float or None
        Standard error of our mean (random cases only).
    provenance : str
        Where the paper's value is printed ("Table A1, row 'overlap proportion c1', column PW").
    """

    table: str
    row: str
    column: str
    metric: str
    ours: float
    paper: float
    tolerance: float
    rule: str
    stderr: float | None
    provenance: str

    @property
    def match(self) -> bool:
        """True when both are NaN or ``|ours - paper| <= tolerance``."""
        if math.isnan(self.ours) or math.isnan(self.paper):
            return math.isnan(self.ours) and math.isnan(self.paper)
        return abs(self.ours - self.paper) <= self.tolerance

    def as_dict(self) -> dict[str, Any]:
        """Plain dict (``match`` included; NaN kept as float NaN)."""
        return {**asdict(self), "match": self.match}


@dataclass(frozen=True)
class TableResult:
    """All comparisons of one table, in the paper's order."""

    table: str
    comparisons: tuple[Comparison, ...]
    rule: str
    rows: tuple[str, ...]
    columns: tuple[str, ...]

    @property
    def n_total(self) -> int:
        return len(self.comparisons)

    @property
    def n_match(self) -> int:
        return sum(c.match for c in self.comparisons)

    @property
    def ok(self) -> bool:
        """True when every value matches."""
        return self.n_match == self.n_total

    @property
    def mismatches(self) -> list[Comparison]:
        return [c for c in self.comparisons if not c.match]

    def summary(self) -> str:
        """``"Table A1: 525/525 values match the paper (<rule>)"``."""
        return f"Table {self.table}: {self.n_match}/{self.n_total} values match the paper ({self.rule})"

    def cell(self, row: str, column: str) -> list[Comparison]:
        """The comparisons of one cell (P, R, F1 or the threshold), in metric order."""
        return [c for c in self.comparisons if c.row == row and c.column == column]


def reproduce_a1(n_stderr: float = N_STDERR) -> TableResult:
    """Compute Table A1 (7 evaluators on the 25 cases) and compare with the paper."""
    from .. import scenarios
    from ..scenarios.loader import check_complete

    printed = paper.table_a1()
    loaded = scenarios.load()
    check_complete(loaded, printed, needs="Table A1 has a row for")
    cases = {case.id: case for case in loaded}
    tol = paper.PRINTED_4DP_TOLERANCE
    comparisons = []
    names = list(evaluators.NAMES)
    built = {name: evaluators.get(name) for name in names}
    for case_id, row in printed.items():
        case = cases[case_id]
        for name in names:
            value = evaluate_case(built[name], case)
            where = f"Table A1, row '{case_row(case_id, paper.row_label(case_id))}', column {name}"
            for i, metric in enumerate(_METRICS):
                if value.stderr is None:
                    tolerance, rule, se = tol, "printed", None
                else:
                    se = value.stderr[i]
                    tolerance, rule = max(n_stderr * se, tol), f"{n_stderr:g} SE"
                comparisons.append(
                    Comparison("A1", case_id, name, metric, value.score[i], row[name][i], tolerance, rule, se, where)
                )
    rule = (
        f"deterministic cases |ours - paper| <= {tol:g}; random-detector means within "
        f"max({n_stderr:g} standard errors, {tol:g}) of our mean over 100 runs; NaN matches NaN"
    )
    return TableResult("A1", tuple(comparisons), rule, tuple(printed), tuple(names))


def reproduce_c1() -> TableResult:
    """Compute Table C1 (long/short threshold, ``l_obs = 4 l_dis``) and compare with the paper."""
    printed = paper.table_c1()
    ours = compute_c1()
    tol = paper.PRINTED_2DP_TOLERANCE
    comparisons = []
    columns = tuple(f"{l_dis}, {4 * l_dis}" for l_dis in C1_L_DIS)
    for att in C2_ATTENUATIONS:
        for l_dis, column in zip(C1_L_DIS, columns):
            key = (l_dis, 4 * l_dis)
            where = f"Table C1, row '{att}', column '{column}'"
            comparisons.append(
                Comparison("C1", att, column, "threshold", ours[att][key], printed[att][key], tol, "printed", None, where)
            )
    rule = f"|ours - paper| <= {tol:g}"
    return TableResult("C1", tuple(comparisons), rule, tuple(C2_ATTENUATIONS), columns)


def reproduce_c2() -> TableResult:
    """Compute Table C2 (OIPR under three attenuations on 15 cases) and compare with the paper."""
    from .. import scenarios

    printed = paper.table_c2()
    tol = paper.PRINTED_4DP_TOLERANCE
    built = {att: evaluators.get("OIPR", attenuation=att) for att in C2_ATTENUATIONS}
    comparisons = []
    for case_id, row in printed.items():
        case = scenarios.get(case_id)
        for att in C2_ATTENUATIONS:
            value = evaluate_case(built[att], case)
            where = f"Table C2, row '{case_row(case_id)}', column 'OIPR ({att})'"
            for i, metric in enumerate(_METRICS):
                comparisons.append(
                    Comparison("C2", case_id, att, metric, value.score[i], row[att][i], tol, "printed", None, where)
                )
    rule = f"|ours - paper| <= {tol:g}"
    return TableResult("C2", tuple(comparisons), rule, tuple(printed), tuple(C2_ATTENUATIONS))


_REPRODUCERS: dict[str, Callable[[], TableResult]] = {"A1": reproduce_a1, "C1": reproduce_c1, "C2": reproduce_c2}


def reproduce(table: str = "A1") -> TableResult:
    """Reproduce ``table`` ("A1", "C1" or "C2"; case-insensitive)."""
    key = str(table).upper()
    if key not in _REPRODUCERS:
        raise ValueError(f"unknown table {table!r}; choose one of {', '.join(TABLES)}")
    return _REPRODUCERS[key]()


# --------------------------------------------------------------------------- rendering


def _fmt(value: float, decimals: int) -> str:
    return "nan" if math.isnan(value) else f"{value:.{decimals}f}"


def _cell_text(comps: list[Comparison], decimals: int) -> str:
    return "/".join(_fmt(c.ours, decimals) + ("" if c.match else MISMATCH_MARK) for c in comps)


def _decimals(result: TableResult) -> int:
    return 2 if result.table == "C1" else 4


def _grid(result: TableResult) -> tuple[list[str], list[list[str]]]:
    """Header and body rows (strings) of the paper-shaped table."""
    decimals = _decimals(result)
    first = "l_dis, l_obs ->" if result.table == "C1" else "case"
    header = [first, *(result.columns)]
    body = []
    for row in result.rows:
        body.append([row, *(_cell_text(result.cell(row, col), decimals) for col in result.columns)])
    return header, body


def table_signature(result: TableResult) -> str:
    """The signature line of a reproduced table (:mod:`oipr_bench.auditing.regression.signature`'s fields and order).

    Package and dataset versions, the table, each column's evaluator with every parameter (the
    paper's Table 3 setting; Table C1's columns are ``l_dis, l_obs`` thresholds, named as printed),
    what it is compared with and how, and the hash of the cases it reads.
    """
    from .._version import __version__
    from ..auditing.regression.signature import HASH_DIGITS, fixture_hash, params_text
    from ..scenarios import DATASET_VERSION, load

    if result.table == "A1":
        columns = [f"{n}{params_text(evaluators.get(n).params)}" for n in result.columns]
    elif result.table == "C2":
        columns = [f"OIPR{params_text(evaluators.get('OIPR', attenuation=a).params)}" for a in result.columns]
    else:
        columns = [f"OIPR threshold ({c})" for c in result.columns]
    cases = [c for c in load() if c.id in result.rows]
    fixtures = fixture_hash(cases)[:HASH_DIGITS] if cases else "-"
    tol = ",".join(sorted({f"{c.tolerance:g}" if c.rule == "printed" else c.rule.replace(" ", "") for c in result.comparisons}))
    return "|".join([f"oipr-bench:{__version__}", f"dataset:{DATASET_VERSION}", f"table:{result.table}",
                     f"columns:{';'.join(columns)}", "against:paper", f"tol:{tol}", f"fixtures:sha256.{fixtures}"])


def _legend(result: TableResult) -> list[str]:
    what = "threshold" if result.table == "C1" else "P/R/F1"
    lines = [f"Cells: our {what} at {_decimals(result)} decimals; '{MISMATCH_MARK}' marks a value that differs from the paper."]
    for c in result.mismatches:
        se = "" if c.stderr is None else f", SE {c.stderr:.3g}"
        lines.append(
            f"  differs: {c.row} {c.column} {c.metric}: ours {c.ours:.6g}, paper {_fmt(c.paper, 4)} "
            f"(|diff| {abs(c.ours - c.paper):.3g} > {c.tolerance:.3g}{se}) [{c.provenance}]"
        )
    return lines


def _render_table(result: TableResult) -> str:
    header, body = _grid(result)
    lines = [f"Table {result.table} reproduced by oipr-bench", *table(header, body, rule=True), ""]
    lines.extend(_legend(result))
    lines.append(f"signature: {table_signature(result)}")
    lines.append(result.summary())
    return "\n".join(lines) + "\n"


def _render_markdown(result: TableResult) -> str:
    header, body = _grid(result)
    lines = [*table(header, body, markdown=True), ""]
    lines.extend(_legend(result))
    lines.append("")
    lines.append(f"signature: `{table_signature(result)}`")
    lines.append("")
    lines.append(f"**{result.summary()}**")
    return "\n".join(lines) + "\n"


def _render_json(result: TableResult) -> str:
    from ..io import dumps_json

    doc = {
        "table": result.table,
        "summary": result.summary(),
        "signature": table_signature(result),
        "rule": result.rule,
        "n_match": result.n_match,
        "n_total": result.n_total,
        "ok": result.ok,
        "values": [jsonable(c.as_dict()) for c in result.comparisons],
    }
    return dumps_json(doc)


def _render_csv(result: TableResult) -> str:
    buf = io.StringIO()
    fields = ["table", "row", "column", "metric", "ours", "paper", "tolerance", "rule", "stderr", "match", "provenance"]
    writer = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    for c in result.comparisons:
        d = c.as_dict()
        d["ours"] = repr(float(c.ours))
        d["paper"] = repr(float(c.paper))
        d["stderr"] = "" if c.stderr is None else repr(float(c.stderr))
        writer.writerow({k: d[k] for k in fields})
    return buf.getvalue()


_RENDERERS: dict[str, Callable[[TableResult], str]] = {
    "table": _render_table,
    "markdown": _render_markdown,
    "json": _render_json,
    "csv": _render_csv,
}


def render(result: TableResult, fmt: str = "table") -> str:
    """Format ``result`` as ``table``, ``markdown``, ``json`` or ``csv`` text."""
    if fmt not in _RENDERERS:
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    return _RENDERERS[fmt](result)
