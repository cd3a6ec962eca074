"""Reference values of the metric properties: every built-in evaluator on every property.

``reference_results/properties.json`` (kind ``metric_properties`` of
``schema/reference.schema.json``) holds, for each of the seven built-in
evaluators, the six score evaluators (:data:`~oipr_bench.evaluators.SCORE_NAMES`) and NAB
(:data:`~oipr_bench.evaluators.NUMBER_NAMES`) with its default parameters, the observed value of every metric
property with the numbers its rule compared, and where they come from
(dataset version, the command that made them).  :func:`build_property_document`
computes it, :func:`write_property_reference` writes it and
:func:`check_property_reference` compares the stored file with a fresh
computation (``oipr-bench reference --check``; numbers within
:data:`~oipr_bench.reference.CHECK_TOLERANCE`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ... import evaluators
from ..._version import __version__
from ...errors import FixtureError
from ...guards import UnreadableFile, loads_json, read_regular_bytes
from ...io import atomic_write_text, dumps_json
from ...jsondata import jsonable, number, schema_problem
from ...reference.files import compare_documents
from ...reference.values import CHECK_TOLERANCE, SCHEMA_FILE, SCHEMA_ID, reference_dir
from ...scenarios import DATASET_VERSION
from ...vocabulary import METRIC_PROPERTIES

__all__ = ["PROPERTIES_FILE", "build_property_document", "write_property_reference", "check_property_reference",
           "property_reference"]

#: The file in ``reference_results/``.
PROPERTIES_FILE = "properties.json"

PROVENANCE = ("computed by oipr_bench.auditing.profile.property_reference (`oipr-bench reference --write`): each built-in "
              "evaluator with its default parameters, run through oipr_bench.audit(NAME, suite='properties', "
              "sanity=False) on the scenario families of scenarios/properties/; value and numbers are those of the "
              "property's rule (oipr_bench.auditing.properties.rules)")


def _row(name: str) -> dict[str, Any]:
    from .profiles import audit

    profile = audit(name, suite="properties", sanity=False)
    props = []
    for prop in METRIC_PROPERTIES:
        r = profile.property_results[prop]
        numbers = {} if r.finding is None else {k: number(v) for k, v in r.finding.numbers.items()}
        props.append({"name": prop, "value": r.observed, "numbers": numbers, "message": r.message})
    return {"evaluator": name, "params": jsonable(evaluators.get(name).params), "properties": props}


def build_property_document() -> dict[str, Any]:
    """The content of ``properties.json``, computed now."""
    return {
        "schema": SCHEMA_ID,
        "kind": "metric_properties",
        "dataset_version": DATASET_VERSION,
        "package_version": __version__,
        "provenance": PROVENANCE,
        "evaluators": [_row(name) for name in evaluators.NAMES + evaluators.SCORE_NAMES + evaluators.NUMBER_NAMES],
    }


def _load(directory: str | Path | None) -> dict[str, Any]:
    path = reference_dir(directory) / PROPERTIES_FILE
    try:
        doc = loads_json(read_regular_bytes(path).decode("utf-8"))
    except (UnreadableFile, UnicodeDecodeError, ValueError) as exc:
        raise FixtureError(f"cannot read: {exc}", file=str(path)) from None
    problem = schema_problem(doc, SCHEMA_FILE)
    if problem is not None:
        raise FixtureError(problem.message, file=str(path), json_path=problem.path)
    if doc["kind"] != "metric_properties":
        raise FixtureError(f"kind is {doc['kind']!r}, expected 'metric_properties'", file=str(path), json_path="$.kind")
    return doc


def write_property_reference(directory: str | Path | None = None) -> Path:
    """Recompute and (atomically) write ``properties.json``; return its path."""
    doc = build_property_document()
    problem = schema_problem(doc, SCHEMA_FILE)
    if problem is not None:  # our own document must follow our own schema
        raise FixtureError(problem.message, file=PROPERTIES_FILE, json_path=problem.path)
    reference_dir(directory).mkdir(parents=True, exist_ok=True)  # the writer never creates folders
    return atomic_write_text(reference_dir(directory) / PROPERTIES_FILE, dumps_json(doc))


def check_property_reference(directory: str | Path | None = None, tolerance: float = CHECK_TOLERANCE) -> list[str]:
    """One line per difference between the stored ``properties.json`` and a fresh computation."""
    try:
        stored = _load(directory)
    except FixtureError as exc:
        return [str(exc)]
    return [f"{PROPERTIES_FILE}: {d}" for d in compare_documents(stored, build_property_document(), tolerance)]


def property_reference(directory: str | Path | None = None) -> dict[str, dict[str, str | None]]:
    """The stored values: ``{evaluator: {property: value}}``.

    Raises
    ------
    FixtureError
        The file is missing, invalid, or made for another dataset version.
    """
    doc = _load(directory)
    if doc["dataset_version"] != DATASET_VERSION:
        raise FixtureError(f"made for dataset version {doc['dataset_version']}, the dataset is {DATASET_VERSION}; "
                           "run `oipr-bench reference --write`", file=PROPERTIES_FILE, json_path="$.dataset_version")
    return {row["evaluator"]: {p["name"]: p["value"] for p in row["properties"]} for row in doc["evaluators"]}
