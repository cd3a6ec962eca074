"""Reference values and the paper's tables: what an evaluator's numbers are compared with.

Layer 4 of 9 (see docs/architecture.md): may import the top-level shared modules, ``scenarios``
and ``evaluators``; nothing above.

* :mod:`.values` -- our evaluators' scores on every case (the seven binary built-ins' P/R/F1, the six
  score evaluators' numbers), read from ``reference_results/``;
* :mod:`.files` -- building, writing and checking those files;
* :mod:`.paper` -- the paper's printed Tables A1, 5, C1 and C2, and the SMD rows of Tables 2 and 6-8;
* :mod:`.smd` -- reading and checking the authors' SMD slice (not shipped), the SMD parameters, Table 9's statistics;
* :mod:`.nab` -- reading and checking a NAB folder (not shipped): windows, profiles, thresholds, the detectors'
  results one file at a time, NAB's published score tables and scoreboard.

``oipr_bench.reference`` keeps the names it had as a module in 0.2 (``reference_values``,
``compute_score``, ``write_reference``, ``check_reference``, ...).
"""

from __future__ import annotations

from .files import build_documents, check_documents, check_reference, write_documents, write_reference
from .values import (
    C1_B_DUR,
    C1_FILE,
    C1_L_DIS,
    C2_ATTENUATIONS,
    C2_FILE,
    CHECK_TOLERANCE,
    METRICS,
    SCHEMA_FILE,
    SCHEMA_ID,
    SCORE_FILES,
    SCORE_VALUE_FILES,
    ReferenceValue,
    case_row,
    compute_c1,
    compute_score,
    compute_value,
    compute_values,
    dataset_version,
    evaluate_case,
    evaluate_scores_case,
    load_cases,
    load_document,
    reference_dir,
    reference_values,
    score_from,
    validate_document,
)

__all__ = [
    "ReferenceValue",
    "SCHEMA_ID",
    "SCHEMA_FILE",
    "SCORE_FILES",
    "SCORE_VALUE_FILES",
    "C1_FILE",
    "C2_FILE",
    "C1_L_DIS",
    "C1_B_DUR",
    "C2_ATTENUATIONS",
    "CHECK_TOLERANCE",
    "METRICS",
    "evaluate_case",
    "evaluate_scores_case",
    "compute_value",
    "compute_score",
    "compute_values",
    "compute_c1",
    "case_row",
    "dataset_version",
    "load_cases",
    "reference_dir",
    "reference_values",
    "score_from",
    "build_documents",
    "write_documents",
    "check_documents",
    "write_reference",
    "check_reference",
    "load_document",
    "validate_document",
]
