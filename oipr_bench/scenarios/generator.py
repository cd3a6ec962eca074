"""Turn the case definitions into the JSON fixtures and their manifest.

The output is deterministic: the same definitions always give byte-identical
files (canonical JSON from :func:`oipr_bench.io.dumps_json`), so the
committed ``scenarios/`` folder can be checked against a fresh build.

Functions
---------
random_runs(spec)
    The prediction runs of a random-detector case, drawn from its spec.
build_documents()
    ``{file name: JSON text}`` for the nine scenario files and ``manifest.json``.
write_dataset(out_dir)
    Write those files atomically into ``out_dir``.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import numpy as np

from .detectors import random_detector
from .events import events_list
from ..io import atomic_write_files, dumps_json, make_output_folder
from .definitions import (
    DATASET_NAME,
    TABLE_A1_VERSION,
    MANIFEST_SCHEMA_ID,
    SCENARIO_SCHEMA_ID,
    SCENARIOS,
    CaseDef,
    RandomSpec,
    ScenarioDef,
)

MANIFEST_NAME = "manifest.json"

#: Free-text statement of the sampling rule, stored in each generator spec.
RANDOM_RULE = (
    "Run k (k = 1..n_runs) is u > threshold, where u = rand(length) is the (first_draw + k - 1)-th call "
    "of rand(length) on one numpy.random.RandomState(seed) stream (numpy's legacy Mersenne-Twister "
    "generator, as set by numpy.random.seed(seed))."
)

DATASET_DESCRIPTION = (
    "The special-scenario dataset of the OIPR paper (Jing et al., 'OIPR: Evaluation for Time-series "
    "Anomaly Detection Inspired by Operator Interest', Appendix A): nine scenarios, 25 cases (the rows "
    "of Table A1), each a ground truth and one or more predictions built to reveal one evaluator "
    "characteristic. Events are half-open [start, end) intervals of 0-based point indices."
)


def random_runs(spec: RandomSpec) -> list[np.ndarray]:
    """Draw the prediction runs of a random-detector case.

    Parameters
    ----------
    spec : RandomSpec
        Generator specification (paper Appendix A: Bernoulli ``p = 0.02``,
        1000 points, 100 runs, ``RandomState(1)``).

    Returns
    -------
    list of ndarray of int8
        ``spec.n_runs`` series of ``spec.length`` points.
    """
    rng = np.random.RandomState(spec.seed)
    for _ in range(spec.first_draw - 1):  # skip the draws that belong to earlier cases
        rng.rand(spec.length)
    return [random_detector(spec.length, spec.p, seed=rng) for _ in range(spec.n_runs)]


def _events(events: tuple[tuple[int, int], ...]) -> list[list[int]]:
    return [[int(s), int(e)] for s, e in events]


def _provenance(case: CaseDef) -> dict[str, Any]:
    note = case.note
    if not note and case.source == "authors_csv":
        note = f"Layout as in the authors' published file {case.authors_csv!r}."
    return {
        "paper_table": "A1",
        "row_label": case.row_label or case.case,
        "source": case.source,
        "authors_csv": case.authors_csv,
        "note": note,
    }


def _case_document(scenario: ScenarioDef, case: CaseDef) -> dict[str, Any]:
    length = case.length if case.length is not None else scenario.length
    y_true = case.y_true if case.y_true is not None else scenario.y_true
    if length is None or y_true is None:
        raise ValueError(f"case {scenario.name}/{case.case} defines no length or ground truth")
    doc: dict[str, Any] = {
        "id": f"{scenario.name}/{case.case}",
        "case": case.case,
        "description": case.description,
        "length": int(length),
        "characteristics": list(scenario.characteristics),
        "provenance": _provenance(case),
        "y_true": _events(y_true),
    }
    if case.random is None:
        if case.y_pred is None:
            raise ValueError(f"case {scenario.name}/{case.case} has neither y_pred nor a random spec")
        doc["y_pred"] = _events(case.y_pred)
    else:
        spec = case.random
        if spec.length != length:
            raise ValueError(f"case {scenario.name}/{case.case}: generator length {spec.length} != length {length}")
        doc["generator"] = {
            "kind": "bernoulli",
            "p": spec.p,
            "threshold": spec.threshold,
            "length": spec.length,
            "n_runs": spec.n_runs,
            "rng": "numpy.random.RandomState",
            "seed": spec.seed,
            "first_draw": spec.first_draw,
            "rule": RANDOM_RULE,
        }
        doc["runs"] = [events_list(run) for run in random_runs(spec)]
    return doc


def scenario_document(scenario: ScenarioDef) -> dict[str, Any]:
    """The JSON object of one scenario file."""
    return {
        "schema": SCENARIO_SCHEMA_ID,
        "dataset_version": TABLE_A1_VERSION,
        "scenario": scenario.name,
        "title": scenario.title,
        "description": scenario.description,
        "characteristics": list(scenario.characteristics),
        "cases": [_case_document(scenario, case) for case in scenario.cases],
    }


def sha256_hex(data: bytes) -> str:
    """Hex SHA-256 digest of ``data`` (the hash the manifest records)."""
    return hashlib.sha256(data).hexdigest()


def build_documents(scenarios: tuple[ScenarioDef, ...] = SCENARIOS) -> dict[str, str]:
    """Build every fixture file's text, the manifest last.

    Returns
    -------
    dict
        ``{file name: canonical JSON text}`` in Table A1 order, ending with
        ``manifest.json``.
    """
    texts: dict[str, str] = {}
    entries = []
    for scenario in scenarios:
        name = f"{scenario.name}.json"
        text = dumps_json(scenario_document(scenario))
        texts[name] = text
        entries.append(
            {
                "path": name,
                "scenario": scenario.name,
                "n_cases": len(scenario.cases),
                "sha256": sha256_hex(text.encode("utf-8")),
            }
        )
    manifest = {
        "schema": MANIFEST_SCHEMA_ID,
        "dataset": DATASET_NAME,
        "dataset_version": TABLE_A1_VERSION,
        "description": DATASET_DESCRIPTION,
        "n_cases": sum(e["n_cases"] for e in entries),
        "files": entries,
    }
    texts[MANIFEST_NAME] = dumps_json(manifest)
    return texts


def write_dataset(out_dir: str | os.PathLike[str]) -> list[Path]:
    """Write the fixtures and the manifest into ``out_dir`` (created if needed).

    The set is written atomically (:func:`oipr_bench.io.atomic_write_files`): all files or, on a
    full disk, none; the manifest is renamed last, so a reader never sees a manifest describing
    files that are not there yet.

    Returns
    -------
    list of Path
        The files written, manifest last.
    """
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise NotADirectoryError(f"--out {out} exists and is not a directory")
    make_output_folder(out)  # the writer never creates folders; this one is ours
    return atomic_write_files({out / name: text.encode("utf-8") for name, text in build_documents().items()})
