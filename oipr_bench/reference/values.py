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
``values_<slug>.json``
    One per score evaluator (see :data:`SCORE_VALUE_FILES`): its one number on
    every case with its default parameters, each prediction handed over as
    float64 scores (0.0/1.0) as an audit hands a case to an evaluator taking
    scores (no paper value: the paper has no score metric).

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
import numbers
from pathlib import Path
from typing import Any, Iterable, Mapping, NamedTuple, Sequence

import numpy as np

from .. import evaluators, jsondata
from .._paths import data_dir
from ..errors import FixtureError
from ..jsondata import jsonable, unnumber
from ..evaluators.score import Score

__all__ = [
    "ReferenceValue",
    "SCHEMA_ID",
    "SCHEMA_FILE",
    "SCORE_FILES",
    "SCORE_VALUE_FILES",
    "C1_FILE",
    "C2_FILE",
    "C1_L_DIS",
    "C2_ATTENUATIONS",
    "CHECK_TOLERANCE",
    "evaluate_case",
    "evaluate_scores_case",
    "compute_value",
    "compute_score",
    "compute_values",
    "compute_c1",
    "case_row",
    "reference_values",
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
#: Reference file of each score evaluator (:data:`oipr_bench.evaluators.SCORE_NAMES`; kind ``score_values``).
SCORE_VALUE_FILES: dict[str, str] = {
    "AUC-ROC": "values_auc_roc.json",
    "AUC-PR": "values_auc_pr.json",
    "R-AUC-ROC": "values_r_auc_roc.json",
    "R-AUC-PR": "values_r_auc_pr.json",
    "VUS-ROC": "values_vus_roc.json",
    "VUS-PR": "values_vus_pr.json",
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

#: The three numbers of a score, in order.
METRICS = ("precision", "recall", "f1")


class ReferenceValue(NamedTuple):
    """The reference result of one evaluator on one case.

    A score evaluator's one number is stored as ``Score(nan, nan, value)``, as the audit stores
    a scalar result (:class:`oipr_bench.auditing.profile.results.CaseResult`).

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


def load_cases() -> list[Any]:
    """The dataset's 25 cases."""
    from .. import scenarios

    return list(scenarios.load())


def _get_case(case: Any) -> Any:
    if isinstance(case, str):
        from .. import scenarios

        return scenarios.get(case)
    return case


def evaluate_case(evaluator: Any, case: Any) -> ReferenceValue:
    """Score ``case`` (a :class:`oipr_bench.scenarios.Case`) with the callable ``evaluator``.

    Every prediction of the case is scored; with more than one (the random
    detector's 100 runs) the score is the per-metric mean and ``stderr`` the
    standard error of that mean.  An evaluator taking scores (``input_kind ==
    "scores"``) gets each prediction as float64 scores and its number is stored
    as ``Score(nan, nan, value)`` (:func:`evaluate_scores_case`).
    """
    if getattr(evaluator, "input_kind", "binary") == "scores":
        return evaluate_scores_case(evaluator, case)
    runs = [_as_score(evaluator(case.y_true, pred)) for pred in case.predictions]
    if len(runs) == 1:
        return ReferenceValue(runs[0], None, None)
    arr = np.array(runs, dtype=np.float64)  # shape (n_runs, 3)
    mean = arr.mean(axis=0)
    stderr = arr.std(axis=0, ddof=1) / math.sqrt(arr.shape[0])
    return ReferenceValue(Score(*map(float, mean)), runs, Score(*map(float, stderr)))


def _as_score(out: Any) -> Score:
    """An evaluator's result as a Score: ``(P, R, F1)`` as it is, one number (NAB) as ``Score(nan, nan, value)``."""
    if isinstance(out, numbers.Real):
        return Score(math.nan, math.nan, float(out))
    return Score(*(float(v) for v in out))


def evaluate_scores_case(evaluator: Any, case: Any) -> ReferenceValue:
    """Score ``case`` with an evaluator taking scores: each prediction handed over as float64 0.0/1.0 scores.

    The audit does the same (:class:`oipr_bench.auditing.calling.runner.Caller` with ``input_kind
    "scores"``).  The number is stored as ``Score(nan, nan, value)``; a multi-run case holds the mean of
    the per-run values and the standard error of that mean (``ddof=1``), as :func:`evaluate_case`.
    """
    nan = math.nan
    values = [float(evaluator(case.y_true, np.asarray(pred, dtype=np.float64))) for pred in case.predictions]
    runs = [Score(nan, nan, v) for v in values]
    if len(runs) == 1:
        return ReferenceValue(runs[0], None, None)
    arr = np.array(values, dtype=np.float64)
    stderr = float(arr.std(ddof=1) / math.sqrt(arr.size))
    return ReferenceValue(Score(nan, nan, float(arr.mean())), runs, Score(nan, nan, stderr))


def compute_value(case: Any, name: str, **params: Any) -> ReferenceValue:
    """Compute the :class:`ReferenceValue` of evaluator ``name`` with ``params`` on ``case``.

    Parameters
    ----------
    case : str or Case
        A case id such as ``"overlap_proportion/c1"`` or a loaded case.
    name : str
        A built-in evaluator name ("PW", "PA", "PA%K", "RP/RR", "TaPR", "AM", "OIPR", or a score
        evaluator of :data:`oipr_bench.evaluators.SCORE_NAMES`).
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
    cases = load_cases() if cases is None else [_get_case(c) for c in cases]
    return {case.id: evaluate_case(evaluator, case) for case in cases}


def compute_c1(
    l_dis_values: Sequence[int] = C1_L_DIS, attenuations: Sequence[str] = C2_ATTENUATIONS, b_dur: float = C1_B_DUR
) -> dict[str, dict[tuple[int, int], float]]:
    """Table C1 computed: ``{attenuation: {(l_dis, l_obs): threshold}}`` with ``l_obs = 4 l_dis``.

    Uses :func:`oipr_bench.evaluators.oipr.long_short_threshold` (paper, Appendix C.1).
    """
    from ..evaluators.oipr import long_short_threshold

    return {
        att: {(l_dis, 4 * l_dis): float(long_short_threshold(l_dis, 4 * l_dis, b_dur, att)) for l_dis in l_dis_values}
        for att in attenuations
    }


# --------------------------------------------------------------------------- files


def score_from(obj: Mapping[str, Any]) -> Score:
    return Score(*(unnumber(obj[m]) for m in METRICS))


def dataset_version() -> str:
    """The version of the Table A1 cases the reference values are computed on (:data:`~oipr_bench.scenarios.TABLE_A1_VERSION`)."""
    from .. import scenarios

    return str(scenarios.TABLE_A1_VERSION)


def case_row(case_id: str, label: str | None = None) -> str:
    """How the paper's tables name the row of ``case_id``: ``"overlap proportion c1"``.

    ``label`` overrides the case label (Table A1 prints the second sparse-anomalies row as "c1").
    """
    scenario, _, case_label = case_id.partition("/")
    return f"{scenario.replace('_', ' ')} {label or case_label}"


def reference_dir(directory: str | Path | None = None) -> Path:
    """``directory``, or the shipped ``reference_results`` folder when None."""
    return Path(directory) if directory is not None else data_dir("reference_results")


# --------------------------------------------------------------------------- schema validation and loading


def validate_document(doc: Any, file: str | None = None) -> None:
    """Validate a reference document against ``schema/reference.schema.json``.

    Raises
    ------
    FixtureError
        Naming the file, the JSON path and the problem of the first error found.
    """
    schema = jsondata.schema(SCHEMA_FILE)
    kind = doc.get("kind") if isinstance(doc, dict) else None
    if isinstance(kind, str) and kind in schema["$defs"] and kind in schema["properties"]["kind"]["enum"]:
        # Validate against the branch the document claims, for a precise message.
        schema = {**schema, "oneOf": [{"$ref": f"#/$defs/{kind}"}]}
    problem = jsondata.schema_problem(doc, schema)
    if problem is not None:
        raise FixtureError(problem.message, file=file, json_path=problem.path)


def load_document(file_name: str, directory: str | Path | None = None) -> dict[str, Any]:
    """Read and validate one reference file (``FixtureError`` if missing, not JSON or invalid)."""
    from ..guards import UnreadableFile, loads_json, read_regular_bytes

    path = reference_dir(directory) / file_name
    try:
        text = read_regular_bytes(path, what="a reference file").decode("utf-8")
    except UnreadableFile as exc:
        if str(exc) == "no such file":
            raise FixtureError("reference file is missing; run `oipr-bench reference --write`", file=str(path)) from None
        raise FixtureError(str(exc), file=str(path)) from None
    except UnicodeDecodeError as exc:
        raise FixtureError(f"not UTF-8 text (byte {exc.start})", file=str(path)) from None
    try:
        doc = loads_json(text)
    except json.JSONDecodeError as exc:
        raise FixtureError(f"not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})", file=str(path)) from None
    except ValueError as exc:
        raise FixtureError(f"not valid JSON ({exc})", file=str(path)) from None
    validate_document(doc, str(path))
    return doc


@functools.lru_cache(maxsize=None)
def _cached_document(file_name: str) -> dict[str, Any]:
    return load_document(file_name)


def clear_cache() -> None:
    """Forget the reference files read so far (after they were rewritten)."""
    _cached_document.cache_clear()


def _score_values_from_document(doc: Mapping[str, Any]) -> dict[str, ReferenceValue]:
    """A kind ``score_values`` document's cases: each number as ``Score(nan, nan, value)``."""
    def scalar(v: Any) -> Score:
        return Score(math.nan, math.nan, unnumber(v))

    return {row["case_id"]: ReferenceValue(scalar(row["value"]),
                                           None if row["runs"] is None else [scalar(v) for v in row["runs"]],
                                           None if row["stderr"] is None else scalar(row["stderr"]))
            for row in doc["cases"]}


def _values_from_document(doc: Mapping[str, Any]) -> dict[str, ReferenceValue]:
    if doc["kind"] == "score_values":
        return _score_values_from_document(doc)
    out: dict[str, ReferenceValue] = {}
    for row in doc["cases"]:
        runs = None
        if row["runs"] is not None:
            cols = [[unnumber(v) for v in row["runs"][m]] for m in METRICS]
            runs = [Score(p, r, f) for p, r, f in zip(*cols)]
        stderr = None if row["stderr"] is None else score_from(row["stderr"])
        out[row["case_id"]] = ReferenceValue(score_from(row["score"]), runs, stderr)
    return out


def reference_values(name: str, **params: Any) -> dict[str, ReferenceValue]:
    """Reference values of evaluator ``name`` on every case: ``{case_id: ReferenceValue}``.

    ``name`` is one of the seven binary built-ins, a score evaluator or a one-number evaluator of 0/1
    predictions (NAB; its number as ``Score(nan, nan, value)``, as a score evaluator's).  With the default parameters (the paper's Table 3 setting, whether omitted
    or given explicitly) the stored, schema-validated file is read; with any
    other parameters, and for NAB, the values are computed on the fly.

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
    stored = name in SCORE_FILES or name in SCORE_VALUE_FILES  # a one-number evaluator (NAB) has no stored file
    if stored and jsonable(evaluator.params) == jsonable(default.params):
        file_name = SCORE_FILES[name] if name in SCORE_FILES else SCORE_VALUE_FILES[name]
        doc = _cached_document(file_name)
        if doc["dataset_version"] != dataset_version():
            raise FixtureError(
                f"made for dataset version {doc['dataset_version']}, the dataset is {dataset_version()}; "
                "run `oipr-bench reference --write`",
                file=file_name,
                json_path="$.dataset_version",
            )
        return _values_from_document(doc)
    return {case.id: evaluate_case(evaluator, case) for case in load_cases()}
