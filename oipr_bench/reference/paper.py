"""The OIPR paper's printed tables, as data.

The values are transcribed from the paper (Jing et al., *OIPR: Evaluation for
Time-series Anomaly Detection Inspired by Operator Interest*) and stored in
``reference_results/paper/``; every value carries its table and row label so
that any number oipr-bench compares against can be traced back to the paper.

Tables
------
- Table A1: P/R/F1 of the seven evaluators on the 25 special-scenario cases
  (4 decimals; ``nan`` for AM on the all-zero detector; random-detector rows
  are means over 100 runs).
- Table 5: the qualitative characteristic profile of each evaluator, plus the
  two overestimation markers of Table A1 (all-1 detector, random detector).
- Table C1: long/short anomaly threshold for ``l_obs = 4 l_dis``.
- Table C2: OIPR with linear, exponential and sigmoid attenuation.
- Tables 6, 7 and 8, rows of dataset SMD: P/R/F1 of the seven evaluators for the
  three advanced detectors (6), the first-point and long-anomaly detectors (7)
  and the three disturbance detectors (8), 3 decimals as printed, with the
  paper's bold/underline (best and second-best F1) and its characteristic marks.
- Table 2: F1 of the seven evaluators for the five adversary detectors on the
  thirteen-event SMD slice of Fig. 2.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass
from typing import Any

from .._paths import data_dir
from ..evaluators.score import Score

#: Tolerance for comparing with a value printed at 4 decimals (half a unit in the last place).
PRINTED_4DP_TOLERANCE = 5e-5
#: Tolerance for comparing with a value printed at 2 decimals (Table C1).
PRINTED_2DP_TOLERANCE = 5e-3
#: Tolerance for comparing with a value printed at 3 decimals (Tables 6-8; trailing zeros are dropped there).
PRINTED_3DP_TOLERANCE = 5e-4
#: The tables whose SMD rows are stored.
SMD_TABLES: tuple[str, ...] = ("6", "7", "8")


@functools.lru_cache(maxsize=None)
def _load(name: str) -> dict[str, Any]:
    path = data_dir("reference_results") / "paper" / f"{name}.json"
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def _score(values: dict[str, Any]) -> Score:
    def num(v: Any) -> float:
        return math.nan if v is None else float(v)

    return Score(num(values["precision"]), num(values["recall"]), num(values["f1"]))


def table_a1() -> dict[str, dict[str, Score]]:
    """Table A1 as ``{case_id: {evaluator: Score}}`` (NaN where the paper prints nan)."""
    return {row["case_id"]: {ev: _score(v) for ev, v in row["values"].items()} for row in _load("table_a1")["rows"]}


def row_label(case_id: str) -> str:
    """The label Table A1 prints for ``case_id`` (the second sparse-anomalies row is printed as ``c1``)."""
    for row in _load("table_a1")["rows"]:
        if row["case_id"] == case_id:
            return str(row["row_label"])
    raise KeyError(f"case {case_id!r} is not a row of Table A1")


def table_5() -> dict[str, dict[str, str]]:
    """Table 5 as ``{characteristic: {evaluator: value}}``.

    Values are ``yes``/``no``/``piecewise``/``only_delay`` for beneficial
    characteristics and ``present``/``absent``/``mitigated`` for misleading
    ones.  The rows ``all_one_overestimation`` and ``random_overestimation``
    come from Table A1's markers (see :func:`table_5_provenance`).
    """
    return {k: dict(v) for k, v in _load("table_5")["rows"].items()}


def table_5_provenance() -> dict[str, str]:
    """Where each row of :func:`table_5` comes from ("Table 5" or "Table A1 markers")."""
    return dict(_load("table_5")["provenance"])


def custom_parameter_counts() -> dict[str, int]:
    """Table 5's last row: number of custom parameters/functions of each evaluator."""
    return {k: int(v) for k, v in _load("table_5")["number_of_custom_parameters"].items()}


def table_c1() -> dict[str, dict[tuple[int, int], float]]:
    """Table C1 as ``{attenuation: {(l_dis, l_obs): threshold}}``."""
    data = _load("table_c1")
    cols = [tuple(c) for c in data["columns"]]
    return {att: {col: float(v) for col, v in zip(cols, vals)} for att, vals in data["rows"].items()}


def table_c2() -> dict[str, dict[str, Score]]:
    """Table C2 as ``{case_id: {attenuation: Score}}`` (OIPR, l_dis=5, l_obs=20, b_dur=0.5)."""
    return {row["case_id"]: {att: _score(v) for att, v in row["values"].items()} for row in _load("table_c2")["rows"]}


def source(table: str) -> str:
    """The provenance sentence stored with ``table`` ("a1", "5", "c1" or "c2")."""
    return str(_load(f"table_{table.lower()}")["source"])


@dataclass(frozen=True)
class SmdRow:
    """One SMD row of Table 6, 7 or 8, as printed.

    Attributes
    ----------
    detector : str
        Our detector id (:data:`oipr_bench.reference.smd.DETECTORS`).
    row_label : str
        The label the paper prints (``Timesnet``, ``d_{fp}``).
    values : dict of str to Score
        Evaluator -> printed P/R/F1.
    bold, underline : tuple of str
        Evaluators whose cell is printed bold (highest F1 of the dataset) or underlined (second).
    marks : dict of str to str
        Evaluator -> the characteristic whose symbol follows the cell: a beneficial one the
        evaluator lacks or a misleading one it has (:mod:`oipr_bench.vocabulary` names).
    """

    detector: str
    row_label: str
    values: dict[str, Score]
    bold: tuple[str, ...]
    underline: tuple[str, ...]
    marks: dict[str, str]


def smd_table(table: str) -> tuple[SmdRow, ...]:
    """The SMD rows of Table ``table`` ("6", "7" or "8"), in the paper's order."""
    key = str(table)
    if key not in SMD_TABLES:
        raise ValueError(f"no stored SMD rows for table {table!r}; choose one of {', '.join(SMD_TABLES)}")
    return tuple(
        SmdRow(row["detector"], row["row_label"], {ev: _score(v) for ev, v in row["values"].items()},
               tuple(row["bold"]), tuple(row["underline"]), dict(row["marks"]))
        for row in _load(f"table_{key}_smd")["rows"]
    )


def table_2() -> dict[str, dict[str, float]]:
    """Table 2 as ``{detector: {evaluator: F1}}`` (3 decimals as printed; detectors ``d_fp``, ``d_l``, ``d_disp``, ...)."""
    return {row["detector"]: {ev: float(v) for ev, v in row["f1"].items()} for row in _load("table_2")["rows"]}
