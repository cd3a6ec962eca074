"""Reference results: our evaluators' scores on every special-scenario case.

oipr-bench's reference values are the scores its own implementations of the
seven evaluators give on the 25 cases of the paper's Table A1, stored at full
precision in ``reference_results/`` next to the paper's printed values, so that
every number can be traced either to the paper (table and row) or to our
implementation (evaluator, parameters, dataset version, package version).

Files (one JSON document each, validated by ``schema/reference.schema.json``)
---------------------------------------------------------------------------
``scores_<slug>.json``
    One per evaluator (see :data:`SCORE_FILES`): P/R/F1 on every case with the
    paper's Table 3 parameters, side by side with Table A1.
``oipr_attenuation.json``
    OIPR with linear, exponential and sigmoid attenuation on the 15 cases of
    Table C2.
``oipr_long_short_threshold.json``
    The long/short anomaly threshold of Table C1 (``l_obs = 4 l_dis``).

Random cases
------------
The two random-detector cases carry 100 predictions.  Their reported score is
the mean of the per-run values (F1 is the mean of the per-run F1 values, not
the F1 of the mean P and R, as in the paper's Table A1), their standard error
is the sample standard deviation (``ddof=1``) divided by ``sqrt(n_runs)``, and
the per-run values are stored as well.

NaN (AM's precision on the all-zero detector) is stored as JSON ``null``.
"""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path
from typing import Any, Iterable, Mapping, NamedTuple, Sequence

import numpy as np

from . import evaluators, paper
from ._paths import data_dir
from ._version import __version__
from .errors import FixtureError
from .evaluators import Score
from .io import atomic_write_bytes, dumps_json

__all__ = [
    "ReferenceValue",
    "SCHEMA_ID",
    "SCHEMA_FILE",
    "SCORE_FILES",
    "C1_FILE",
    "C2_FILE",
    "C1_L_DIS",
    "C2_ATTENUATIONS",
    "CHECK_TOLERANCE",
    "evaluate_case",
    "compute_value",
    "compute_score",
    "compute_values",
    "compute_c1",
    "case_row",
    "reference_values",
    "build_documents",
    "write_reference",
    "check_reference",
    "load_document",
    "validate_document",
]

#: ``$id`` of the JSON Schema every reference file is validated against.
SCHEMA_ID = "urn:oipr-bench:schema:reference:1.0.0"
#: File name of that schema inside the ``schema`` data folder.
SCHEMA_FILE = "reference.schema.json"
#: Reference file of each evaluator, in the paper's column order.
SCORE_FILES: dict[str, str] = {
    "PW": "scores_pw.json",
    "PA": "scores_pa.json",
    "PA%K": "scores_pa_k.json",
    "RP/RR": "scores_rp_rr.json",
    "TaPR": "scores_tapr.json",
    "AM": "scores_am.json",
    "OIPR": "scores_oipr.json",
}
#: Table C2's computation: OIPR under the three attenuations of Appendix C.
C2_FILE = "oipr_attenuation.json"
#: Table C1's computation: the long/short anomaly threshold.
C1_FILE = "oipr_long_short_threshold.json"
#: Table C1's columns: ``l_dis`` values, each with ``l_obs = 4 l_dis``.
C1_L_DIS: tuple[int, ...] = (1, 3, 5, 10, 15, 20)
#: Table C1's ``b_dur``.
C1_B_DUR = 0.5
#: Attenuations of Appendix C, in Table C2's column order.
C2_ATTENUATIONS: tuple[str, ...] = ("linear", "exp", "sigmoid")
#: Largest absolute difference ``check_reference`` accepts between a stored and a recomputed value.
CHECK_TOLERANCE = 1e-12

_METRICS = ("precision", "recall", "f1")


class ReferenceValue(NamedTuple):
    """The reference result of one evaluator on one case.

    Attributes
    ----------
    score : Score
        P/R/F1; for a multi-run (random) case the means of the per-run values.
    runs : list of Score or None
        The per-run scores of a multi-run case, ``None`` for a deterministic case.
    stderr : Score or None
        Standard error of each mean (sample standard deviation with
        ``ddof=1`` over ``sqrt(n_runs)``), ``None`` for a deterministic case.
    """

    score: Score
    runs: list[Score] | None
    stderr: Score | None


# --------------------------------------------------------------------------- computation


def _load_cases() -> list[Any]:
    from . import scenarios

    return list(scenarios.load())


def _get_case(case: Any) -> Any:
    if isinstance(case, str):
        from . import scenarios

        return scenarios.get(case)
    return case


def evaluate_case(evaluator: Any, case: Any) -> ReferenceValue:
    """Score ``case`` (a :class:`oipr_bench.scenarios.Case`) with the callable ``evaluator``.

    Every prediction of the case is scored; with more than one (the random
    detector's 100 runs) the score is the per-metric mean and ``stderr`` the
    standard error of that mean.
    """
    runs = [Score(*(float(v) for v in evaluator(case.y_true, pred))) for pred in case.predictions]
    if len(runs) == 1:
        return ReferenceValue(runs[0], None, None)
    arr = np.array(runs, dtype=np.float64)  # shape (n_runs, 3)
    mean = arr.mean(axis=0)
    stderr = arr.std(axis=0, ddof=1) / math.sqrt(arr.shape[0])
    return ReferenceValue(Score(*map(float, mean)), runs, Score(*map(float, stderr)))


def compute_value(case: Any, name: str, **params: Any) -> ReferenceValue:
    """Compute the :class:`ReferenceValue` of evaluator ``name`` with ``params`` on ``case``.

    Parameters
    ----------
    case : str or Case
        A case id such as ``"overlap_proportion/c1"`` or a loaded case.
    name : str
        A built-in evaluator name ("PW", "PA", "PA%K", "RP/RR", "TaPR", "AM", "OIPR").
    **params
        Evaluator parameters; omitted ones take the paper's Table 3 values.
    """
    return evaluate_case(evaluators.get(name, **params), _get_case(case))


def compute_score(case: Any, name: str, **params: Any) -> Score:
    """Like :func:`compute_value` but return only the score (the mean for a random case)."""
    return compute_value(case, name, **params).score


def compute_values(name: str, cases: Iterable[Any] | None = None, **params: Any) -> dict[str, ReferenceValue]:
    """Compute evaluator ``name`` (with ``params``) on ``cases`` (default: all 25), keyed by case id."""
    evaluator = evaluators.get(name, **params)
    cases = _load_cases() if cases is None else [_get_case(c) for c in cases]
    return {case.id: evaluate_case(evaluator, case) for case in cases}


def compute_c1(
    l_dis_values: Sequence[int] = C1_L_DIS, attenuations: Sequence[str] = C2_ATTENUATIONS, b_dur: float = C1_B_DUR
) -> dict[str, dict[tuple[int, int], float]]:
    """Table C1 computed: ``{attenuation: {(l_dis, l_obs): threshold}}`` with ``l_obs = 4 l_dis``.

    Uses :func:`oipr_bench.evaluators.oipr.long_short_threshold` (paper, Appendix C.1).
    """
    from .evaluators.oipr import long_short_threshold

    return {
        att: {(l_dis, 4 * l_dis): float(long_short_threshold(l_dis, 4 * l_dis, b_dur, att)) for l_dis in l_dis_values}
        for att in attenuations
    }


# --------------------------------------------------------------------------- JSON documents


def _num(v: float) -> float | None:
    v = float(v)
    return None if math.isnan(v) else v


def _unnum(v: Any) -> float:
    return math.nan if v is None else float(v)


def _score_obj(score: Score) -> dict[str, float | None]:
    return {m: _num(v) for m, v in zip(_METRICS, score)}


def _score_from(obj: Mapping[str, Any]) -> Score:
    return Score(*(_unnum(obj[m]) for m in _METRICS))


def _jsonable_params(params: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in params.items():
        if isinstance(value, (np.generic,)):
            value = value.item()
        if isinstance(value, tuple):
            value = list(value)
        out[key] = value
    return out


def _dataset_version() -> str:
    from . import scenarios

    return str(scenarios.DATASET_VERSION)


def case_row(case_id: str, label: str | None = None) -> str:
    """How the paper's tables name the row of ``case_id``: ``"overlap proportion c1"``.

    ``label`` overrides the case label (Table A1 prints the second sparse-anomalies row as "c1").
    """
    scenario, _, case_label = case_id.partition("/")
    return f"{scenario.replace('_', ' ')} {label or case_label}"


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
                else {m: [_num(run[i]) for run in value.runs] for i, m in enumerate(_METRICS)},
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
        "params": _jsonable_params(evaluator.params),
        "dataset_version": _dataset_version(),
        "package_version": __version__,
        "paper_source": paper.source("a1"),
        "aggregation": "multi-run cases: score = mean of the per-run values (F1 = mean of per-run F1); "
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
    params = _jsonable_params({k: v for k, v in base.items() if k != "attenuation"})
    return {
        "schema": SCHEMA_ID,
        "kind": "oipr_attenuation",
        "evaluator": "OIPR",
        "params": params,
        "dataset_version": _dataset_version(),
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
    cases = _load_cases()
    docs: dict[str, dict[str, Any]] = {}
    for name, file_name in SCORE_FILES.items():
        docs[file_name] = _scores_document(name, cases)
    docs[C2_FILE] = _c2_document({c.id: c for c in cases})
    docs[C1_FILE] = _c1_document()
    return docs


def reference_dir(directory: str | Path | None = None) -> Path:
    """``directory``, or the shipped ``reference_results`` folder when None."""
    return Path(directory) if directory is not None else data_dir("reference_results")


def write_reference(directory: str | Path | None = None) -> list[Path]:
    """Recompute and (atomically) write every reference file; return the paths written.

    The bytes are deterministic (:func:`oipr_bench.io.dumps_json`): writing
    twice gives identical files.
    """
    target = reference_dir(directory)
    written = []
    for file_name, doc in build_documents().items():
        validate_document(doc, file_name)
        written.append(atomic_write_bytes(target / file_name, dumps_json(doc).encode("utf-8")))
    _cached_document.cache_clear()
    return written


# --------------------------------------------------------------------------- schema validation and loading


@functools.lru_cache(maxsize=1)
def _schema() -> dict[str, Any]:
    path = data_dir("schema") / SCHEMA_FILE
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def _json_path(parts: Iterable[Any]) -> str:
    out = "$"
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def validate_document(doc: Any, file: str | None = None) -> None:
    """Validate a reference document against ``schema/reference.schema.json``.

    Raises
    ------
    FixtureError
        Naming the file, the JSON path and the problem of the first error found.
    """
    import jsonschema

    schema = _schema()
    kind = doc.get("kind") if isinstance(doc, dict) else None
    if isinstance(kind, str) and kind in schema["$defs"] and kind in schema["properties"]["kind"]["enum"]:
        # Validate against the branch the document claims, for a precise message.
        schema = {**schema, "oneOf": [{"$ref": f"#/$defs/{kind}"}]}
    validator = jsonschema.Draft202012Validator(schema)
    best = jsonschema.exceptions.best_match(validator.iter_errors(doc))
    if best is not None:
        raise FixtureError(best.message, file=file, json_path=_json_path(best.absolute_path))


def load_document(file_name: str, directory: str | Path | None = None) -> dict[str, Any]:
    """Read and validate one reference file (``FixtureError`` if missing, not JSON or invalid)."""
    path = reference_dir(directory) / file_name
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FixtureError("reference file is missing; run `oipr-bench reference --write`", file=str(path)) from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FixtureError(f"not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})", file=str(path)) from None
    validate_document(doc, str(path))
    return doc


@functools.lru_cache(maxsize=None)
def _cached_document(file_name: str) -> dict[str, Any]:
    return load_document(file_name)


def _values_from_document(doc: Mapping[str, Any]) -> dict[str, ReferenceValue]:
    out: dict[str, ReferenceValue] = {}
    for row in doc["cases"]:
        runs = None
        if row["runs"] is not None:
            cols = [[_unnum(v) for v in row["runs"][m]] for m in _METRICS]
            runs = [Score(p, r, f) for p, r, f in zip(*cols)]
        stderr = None if row["stderr"] is None else _score_from(row["stderr"])
        out[row["case_id"]] = ReferenceValue(_score_from(row["score"]), runs, stderr)
    return out


def reference_values(name: str, **params: Any) -> dict[str, ReferenceValue]:
    """Reference values of evaluator ``name`` on every case: ``{case_id: ReferenceValue}``.

    With the default parameters (the paper's Table 3 setting, whether omitted
    or given explicitly) the stored, schema-validated file is read; with any
    other parameters the values are computed on the fly.

    Raises
    ------
    KeyError
        Unknown evaluator name.
    TypeError, ValueError
        Invalid parameters (raised by the evaluator).
    FixtureError
        The stored file is missing, invalid or was made for another dataset version.
    """
    evaluator = evaluators.get(name, **params)
    default = evaluators.get(name)
    if _jsonable_params(evaluator.params) == _jsonable_params(default.params):
        file_name = SCORE_FILES[name]
        doc = _cached_document(file_name)
        if doc["dataset_version"] != _dataset_version():
            raise FixtureError(
                f"made for dataset version {doc['dataset_version']}, the dataset is {_dataset_version()}; "
                "run `oipr-bench reference --write`",
                file=file_name,
                json_path="$.dataset_version",
            )
        return _values_from_document(doc)
    return {case.id: evaluate_case(evaluator, case) for case in _load_cases()}


# --------------------------------------------------------------------------- checking


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
    target = reference_dir(directory)
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
