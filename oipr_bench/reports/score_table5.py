"""The six score evaluators' and NAB's Table 5 rows: computed by auditing them, stored, checked, rendered.

The paper's Table 5 gives the seven binary built-ins' rows (re-derived by the audit 70 of 70,
``tests/test_characteristics.py``).  The score evaluators (AUC-ROC, AUC-PR, R-AUC-ROC, R-AUC-PR,
VUS-ROC, VUS-PR; :data:`oipr_bench.evaluators.SCORE_NAMES`) and the NAB score (one number from 0/1
predictions, :data:`oipr_bench.evaluators.NUMBER_NAMES`) have no row there: each is audited here
with its default parameters (``oipr_bench.audit(NAME, suite="table5", sanity=False)``: every case's
0/1 predictions handed over as 0.0/1.0 scores, read on the chance-anchored scale of
:mod:`oipr_bench.auditing.table5.readings`), and the observed value of every characteristic is stored
with the numbers its rule compared in ``reference_results/table5_score_evaluators.json`` (kind
``table5_rows`` of ``schema/reference.schema.json``).  :func:`check_score_table5` compares the stored
file with a fresh computation (``oipr-bench reference --check``); :func:`score_table5_markdown` is the
section of ``docs/properties.md`` built from the stored file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .. import evaluators
from .._version import __version__
from ..errors import FixtureError
from ..io import atomic_write_text, dumps_json
from ..jsondata import jsonable, number, schema_problem
from ..reference.files import compare_documents
from ..reference.values import CHECK_TOLERANCE, SCHEMA_FILE, SCHEMA_ID, dataset_version, load_document, reference_dir
from ..vocabulary import CHARACTERISTICS, UNDETERMINED

__all__ = ["TABLE5_FILE", "build_score_table5", "write_score_table5", "check_score_table5", "score_table5_markdown"]

#: The file in ``reference_results/``.
TABLE5_FILE = "table5_score_evaluators.json"

PROVENANCE = ("computed by oipr_bench.reports.score_table5 (`oipr-bench reference --write`): each score evaluator "
              "and NAB with its default parameters, run through oipr_bench.audit(NAME, suite='table5', sanity=False) on "
              "the Table A1 cases, each case's 0/1 predictions handed over as 0.0/1.0 scores (to NAB as they are) and "
              "read on the "
              "chance-anchored scale (oipr_bench.auditing.table5.readings); value and numbers are those of the "
              "characteristic's rule (oipr_bench.auditing.table5.rules, score_rules)")


def _row(name: str) -> dict[str, Any]:
    from ..auditing.profile.profiles import audit

    profile = audit(name, suite="table5", sanity=False)
    rows = []
    for ch in CHARACTERISTICS:
        r = profile.characteristic_results[ch]
        numbers = {} if r.finding is None else {k: number(v) for k, v in r.finding.numbers.items()}
        rows.append({"name": ch, "value": r.observed, "numbers": numbers, "message": r.message})
    return {"evaluator": name, "params": jsonable(evaluators.get(name).params), "characteristics": rows}


def build_score_table5() -> dict[str, Any]:
    """The content of ``table5_score_evaluators.json``, computed now."""
    return {
        "schema": SCHEMA_ID,
        "kind": "table5_rows",
        "dataset_version": dataset_version(),
        "package_version": __version__,
        "provenance": PROVENANCE,
        "evaluators": [_row(name) for name in evaluators.SCORE_NAMES + evaluators.NUMBER_NAMES],
    }


def write_score_table5(directory: str | Path | None = None) -> Path:
    """Recompute and (atomically) write ``table5_score_evaluators.json`` into ``directory``; return its path."""
    doc = build_score_table5()
    problem = schema_problem(doc, SCHEMA_FILE)
    if problem is not None:  # our own document must follow our own schema
        raise FixtureError(problem.message, file=TABLE5_FILE, json_path=problem.path)
    reference_dir(directory).mkdir(parents=True, exist_ok=True)  # the writer never creates folders; this one is ours
    return atomic_write_text(reference_dir(directory) / TABLE5_FILE, dumps_json(doc))


def check_score_table5(directory: str | Path | None = None, tolerance: float = CHECK_TOLERANCE) -> list[str]:
    """One line per difference between the stored file and a fresh computation (``package_version`` not compared)."""
    try:
        stored = load_document(TABLE5_FILE, directory)
    except FixtureError as exc:
        return [str(exc)]
    return [f"{TABLE5_FILE}: {d}" for d in compare_documents(stored, build_score_table5(), tolerance)]


def score_table5_markdown(directory: str | Path | None = None) -> list[str]:
    """The section of ``docs/properties.md``: a grid of the stored rows, then each value with its reason."""
    doc = load_document(TABLE5_FILE, directory)
    rows = doc["evaluators"]
    names = [r["evaluator"] for r in rows]
    lines = ["## The score built-ins and NAB on Table 5", "",
             "The paper's ten characteristics read on the six score evaluators and on NAB with their default "
             f"parameters (`reference_results/{TABLE5_FILE}`, checked by `oipr-bench reference --check`): each case's "
             "0/1 predictions handed over as 0.0/1.0 scores (to NAB as they are), read on the anchored scale. The "
             "seven binary built-ins' rows are the paper's Table 5 (the audit re-derives all 70).", "",
             "| characteristic | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for ch in CHARACTERISTICS:
        cells = [next(c["value"] for c in r["characteristics"] if c["name"] == ch) or UNDETERMINED for r in rows]
        lines.append(f"| `{ch}` | " + " | ".join(c.replace("_", " ") for c in cells) + " |")
    lines += ["", "| characteristic | built-in | value | why |", "|---|---|---|---|"]
    for ch in CHARACTERISTICS:
        for r in rows:
            c = next(c for c in r["characteristics"] if c["name"] == ch)
            lines.append(f"| `{ch}` | {r['evaluator']} | {c['value'] or UNDETERMINED} | "
                         f"{c['message'].replace('|', chr(92) + '|')} |")
    return lines + [""]
