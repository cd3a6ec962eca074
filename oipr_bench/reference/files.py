"""Building, writing and checking the reference files (``reference_results/``).

:mod:`oipr_bench.reference` describes the files and reads them; this module
computes their content from the evaluators and the paper's tables
(:func:`build_documents`), writes them (:func:`write_documents`) and compares
stored files with a fresh computation (:func:`check_documents`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from .. import evaluators
from . import paper, values
from .._version import __version__
from ..errors import FixtureError
from ..io import atomic_write_files, dumps_json, make_output_folder
from ..jsondata import jsonable, number
from .values import (
    reference_dir,
    C1_B_DUR,
    C1_FILE,
    C2_ATTENUATIONS,
    C2_FILE,
    CHECK_TOLERANCE,
    METRICS,
    SCHEMA_ID,
    SCORE_FILES,
    SCORE_VALUE_FILES,
    case_row,
    compute_c1,
    compute_value,
    dataset_version,
    evaluate_case,
    load_cases,
    load_document,
    validate_document,
)
from ..evaluators.score import Score

__all__ = ["build_documents", "write_documents", "check_documents", "compare_documents", "write_reference",
           "check_reference"]


def _score_obj(score: Score) -> dict[str, float | None]:
    return {m: number(v) for m, v in zip(METRICS, score)}


def _scores_document(name: str, cases: list[Any]) -> dict[str, Any]:
    evaluator = evaluators.get(name)
    a1 = paper.table_a1()
    rows = []
    for case in cases:
        value = evaluate_case(evaluator, case)
        printed = a1[case.id][name]
        rows.append(
            {
                "case_id": case.id,
                "n_runs": len(case.predictions),
                "score": _score_obj(value.score),
                "stderr": None if value.stderr is None else _score_obj(value.stderr),
                "runs": None
                if value.runs is None
                else {m: [number(run[i]) for run in value.runs] for i, m in enumerate(METRICS)},
                "paper": {
                    "table": "A1",
                    "row": case_row(case.id, paper.row_label(case.id)),
                    **_score_obj(printed),
                },
            }
        )
    return {
        "schema": SCHEMA_ID,
        "kind": "scores",
        "evaluator": name,
        "params": jsonable(evaluator.params),
        "dataset_version": dataset_version(),
        "package_version": __version__,
        "paper_source": paper.source("a1"),
        "aggregation": "multi-run cases: score = mean of the per-run values (F1 = mean of per-run F1); "
        "stderr = sample standard deviation (ddof=1) / sqrt(n_runs)",
        "cases": rows,
    }


#: How a score evaluator gets a case's predictions (stored in its file as ``input``).
SCORE_INPUT = ("each prediction of the case handed over as float64 scores (0.0 and 1.0), as an audit hands a case "
               "to an evaluator taking scores")


def _score_values_document(name: str, cases: list[Any]) -> dict[str, Any]:
    """A score evaluator's number on every case with its default parameters (kind ``score_values``)."""
    evaluator = evaluators.get(name)
    rows = []
    for case in cases:
        value = evaluate_case(evaluator, case)  # a score evaluator: Score(nan, nan, value)
        rows.append(
            {
                "case_id": case.id,
                "n_runs": len(case.predictions),
                "value": number(value.score.f1),
                "stderr": None if value.stderr is None else number(value.stderr.f1),
                "runs": None if value.runs is None else [number(run.f1) for run in value.runs],
            }
        )
    return {
        "schema": SCHEMA_ID,
        "kind": "score_values",
        "evaluator": name,
        "params": jsonable(evaluator.params),
        "dataset_version": dataset_version(),
        "package_version": __version__,
        "input": SCORE_INPUT,
        "aggregation": "multi-run cases: value = mean of the per-run values; "
        "stderr = sample standard deviation (ddof=1) / sqrt(n_runs)",
        "cases": rows,
    }


def _c2_document(cases_by_id: Mapping[str, Any]) -> dict[str, Any]:
    c2 = paper.table_c2()
    base = evaluators.get("OIPR").params
    rows = []
    for case_id, printed in c2.items():
        case = cases_by_id[case_id]
        for att in C2_ATTENUATIONS:
            value = compute_value(case, "OIPR", attenuation=att)
            rows.append(
                {
                    "case_id": case_id,
                    "attenuation": att,
                    "score": _score_obj(value.score),
                    "paper": {"table": "C2", "row": case_row(case_id), "column": f"OIPR ({att})", **_score_obj(printed[att])},
                }
            )
    params = jsonable({k: v for k, v in base.items() if k != "attenuation"})
    return {
        "schema": SCHEMA_ID,
        "kind": "oipr_attenuation",
        "evaluator": "OIPR",
        "params": params,
        "dataset_version": dataset_version(),
        "package_version": __version__,
        "paper_source": paper.source("c2"),
        "cases": rows,
    }


def _c1_document() -> dict[str, Any]:
    ours = compute_c1()
    printed = paper.table_c1()
    rows = []
    for att in C2_ATTENUATIONS:
        for (l_dis, l_obs), threshold in ours[att].items():
            rows.append(
                {
                    "attenuation": att,
                    "l_dis": l_dis,
                    "l_obs": l_obs,
                    "b_dur": C1_B_DUR,
                    "threshold": threshold,
                    "paper": {
                        "table": "C1",
                        "row": att,
                        "column": f"{l_dis}, {l_obs}",
                        "threshold": printed[att][(l_dis, l_obs)],
                    },
                }
            )
    return {
        "schema": SCHEMA_ID,
        "kind": "oipr_long_short_threshold",
        "evaluator": "OIPR",
        "definition": "smallest anomaly length x at which the TP area of a completely detected event of length x "
        "(the sum of its operator interest curve) equals x, the point-wise TP (paper, Appendix C.1); "
        "computed by oipr_bench.evaluators.oipr.long_short_threshold",
        "package_version": __version__,
        "paper_source": paper.source("c1"),
        "rows": rows,
    }


def build_documents() -> dict[str, dict[str, Any]]:
    """Compute every reference file's content: ``{file name: JSON document}``."""
    cases = load_cases()
    docs: dict[str, dict[str, Any]] = {}
    for name, file_name in SCORE_FILES.items():
        docs[file_name] = _scores_document(name, cases)
    for name, file_name in SCORE_VALUE_FILES.items():
        docs[file_name] = _score_values_document(name, cases)
    docs[C2_FILE] = _c2_document({c.id: c for c in cases})
    docs[C1_FILE] = _c1_document()
    return docs


def write_documents(target: Path) -> list[Path]:
    """Recompute and (atomically) write every reference file into ``target``; return the paths written."""
    files = {}
    make_output_folder(target)  # the writer never creates folders; this one is ours
    for file_name, doc in build_documents().items():
        validate_document(doc, file_name)
        files[target / file_name] = dumps_json(doc).encode("utf-8")
    return atomic_write_files(files)  # all of them or none


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _compare(stored: Any, fresh: Any, path: str, out: list[str], tol: float) -> None:
    """Append to ``out`` every difference between two JSON values (numbers within ``tol``)."""
    if isinstance(fresh, dict) and isinstance(stored, dict):
        for key in sorted(set(stored) | set(fresh), key=str):
            if key == "package_version":
                continue  # informative only: a version bump alone does not make values stale
            if key not in stored:
                out.append(f"{path}.{key}: missing from the stored file")
            elif key not in fresh:
                out.append(f"{path}.{key}: not produced any more")
            else:
                _compare(stored[key], fresh[key], f"{path}.{key}", out, tol)
    elif isinstance(fresh, list) and isinstance(stored, list):
        if len(stored) != len(fresh):
            out.append(f"{path}: {len(stored)} items stored, {len(fresh)} computed")
            return
        for i, (s, f) in enumerate(zip(stored, fresh)):
            _compare(s, f, f"{path}[{i}]", out, tol)
    elif _is_number(stored) and _is_number(fresh) and (isinstance(stored, float) or isinstance(fresh, float)):
        if not abs(float(stored) - float(fresh)) <= tol:
            out.append(f"{path}: stored {stored!r}, computed {fresh!r} (difference {abs(float(stored) - float(fresh)):.3g})")
    elif stored != fresh or type(stored) is not type(fresh):
        out.append(f"{path}: stored {stored!r}, computed {fresh!r}")


def compare_documents(stored: Any, fresh: Any, tolerance: float = CHECK_TOLERANCE) -> list[str]:
    """Every difference between two JSON documents, ``"<JSON path>: <problem>"`` (numbers within ``tolerance``;
    ``package_version`` is not compared)."""
    diffs: list[str] = []
    _compare(stored, fresh, "$", diffs, tolerance)
    return diffs


def check_documents(target: Path, tolerance: float = CHECK_TOLERANCE) -> list[str]:
    """The work of :func:`oipr_bench.reference.check_reference` on the folder ``target``."""
    problems: list[str] = []
    for file_name, fresh in build_documents().items():
        try:
            stored = load_document(file_name, target)
        except FixtureError as exc:
            problems.append(str(exc))
            continue
        diffs: list[str] = []
        _compare(stored, fresh, "$", diffs, tolerance)
        problems.extend(f"{file_name}: {d}" for d in diffs)
    return problems


def write_reference(directory: str | Path | None = None) -> list[Path]:
    """Recompute and (atomically) write every reference file; return the paths written.

    The bytes are deterministic (:func:`oipr_bench.io.dumps_json`): writing
    twice gives identical files.
    """
    written = write_documents(reference_dir(directory))
    values.clear_cache()
    return written


def check_reference(directory: str | Path | None = None, tolerance: float = CHECK_TOLERANCE) -> list[str]:
    """Recompute every reference file and compare with the stored one.

    Numbers must agree within ``tolerance`` (absolute; ``null`` only matches
    ``null``), everything else exactly; ``package_version`` is not compared.

    Returns
    -------
    list of str
        One line per difference, ``"<file>: <JSON path>: <problem>"``; empty when
        the stored files are up to date.
    """
    return check_documents(reference_dir(directory), tolerance)
