"""The property families as JSON fixtures: build, write, load and validate.

The families of :mod:`oipr_bench.scenarios.families` live in the repository's
``scenarios/properties/`` folder, one file per family (``<family>.json``,
``schema/family.schema.json``) and a ``manifest.json`` listing each file with
its SHA-256 (``schema/families_manifest.schema.json``).  Scores are explicit
float arrays (JSON numbers that read back to the very same float64), so a
runner in any language reads the same inputs.

:func:`load_families` validates all or nothing; the first problem raises
:class:`~oipr_bench.errors.FixtureError` naming the file, the case and the JSON
path.  Arrays handed out are read-only.
"""

from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .._paths import data_dir
from ..errors import FixtureError
from ..guards import UnreadableFile, loads_json, read_regular_bytes
from ..io import atomic_write_text, dumps_json, make_output_folder
from ..jsondata import schema_problem
from .definitions import DATASET_VERSION
from .families import BINARY, FamilyCase, FamilyDef, all_families, dense

__all__ = ["FAMILY_SCHEMA_ID", "FAMILIES_MANIFEST_SCHEMA_ID", "FAMILIES_FOLDER", "Family", "FamilyInput",
           "build_family_documents", "write_families", "load_families", "family"]

FAMILY_SCHEMA_ID = "urn:oipr-bench:schema:family:1.0.0"
FAMILIES_MANIFEST_SCHEMA_ID = "urn:oipr-bench:schema:families-manifest:1.0.0"
#: The families' folder inside the ``scenarios`` data folder.
FAMILIES_FOLDER = "properties"
MANIFEST_NAME = "manifest.json"


@dataclass(frozen=True, eq=False)
class FamilyInput:
    """One case of a family, ready to score.

    Attributes
    ----------
    id : str
        ``"<family>/<case>"``.
    parameter : float or str
        The value of the family's parameter (or the case's role).
    y_true : ndarray of int8
    y_pred : ndarray of int8 or None
        The 0/1 prediction (binary families only).
    scores : ndarray of float64
        The anomaly scores (every case).
    """

    id: str
    parameter: float | str
    y_true: np.ndarray
    y_pred: np.ndarray | None
    scores: np.ndarray

    def prediction(self, input_kind: str) -> np.ndarray:
        """What an evaluator taking ``input_kind`` (binary or scores) receives as ``y_pred``."""
        if input_kind == BINARY:
            if self.y_pred is None:
                raise ValueError(f"case {self.id} has scores only")
            return self.y_pred
        return self.scores


@dataclass(frozen=True, eq=False)
class Family:
    """A loaded family: name, input (binary or scores), parameter label, description and cases."""

    name: str
    input: str
    title: str
    description: str
    parameter: str
    cases: tuple[FamilyInput, ...]
    file: str


# -- building ----------------------------------------------------------------------------------------

def _case_document(family: FamilyDef, case: FamilyCase) -> dict[str, Any]:
    doc: dict[str, Any] = {"id": f"{family.name}/{case.case}", "case": case.case, "parameter": case.parameter,
                           "length": case.length, "y_true": [list(e) for e in case.y_true]}
    if case.y_pred is not None:
        doc["y_pred"] = [list(e) for e in case.y_pred]
    doc["scores"] = list(case.scores)
    return doc


def family_document(family: FamilyDef) -> dict[str, Any]:
    """The JSON object of one family file."""
    return {
        "schema": FAMILY_SCHEMA_ID,
        "dataset_version": DATASET_VERSION,
        "family": family.name,
        "title": family.title,
        "description": family.description,
        "input": family.input,
        "parameter": family.parameter,
        "generator": {"rng": "numpy.random.RandomState", "seed": family.seed,
                      "module": "oipr_bench.scenarios.families"},
        "cases": [_case_document(family, c) for c in family.cases],
    }


def build_family_documents() -> dict[str, str]:
    """``{file name: canonical JSON text}`` of every family file, the manifest last."""
    texts: dict[str, str] = {}
    entries = []
    for fam in all_families():
        name = f"{fam.name}.json"
        texts[name] = dumps_json(family_document(fam))
        entries.append({"path": name, "family": fam.name, "n_cases": len(fam.cases),
                        "sha256": hashlib.sha256(texts[name].encode("utf-8")).hexdigest()})
    texts[MANIFEST_NAME] = dumps_json({"schema": FAMILIES_MANIFEST_SCHEMA_ID, "dataset_version": DATASET_VERSION,
                                       "families": entries})
    return texts


def write_families(scenarios_dir: str | os.PathLike[str]) -> list[Path]:
    """Write the family files into ``<scenarios_dir>/properties/`` (atomically, the manifest last)."""
    out = Path(scenarios_dir) / FAMILIES_FOLDER
    make_output_folder(out)  # the writer never creates folders; this one is ours
    return [atomic_write_text(out / name, text) for name, text in build_family_documents().items()]


# -- loading -----------------------------------------------------------------------------------------

def _read(path: Path, schema: str) -> tuple[bytes, Any]:
    try:
        raw = read_regular_bytes(path)
    except UnreadableFile as exc:
        raise FixtureError(str(exc), file=str(path)) from None
    try:
        doc = loads_json(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise FixtureError(f"not valid JSON: {exc}", file=str(path)) from None
    problem = schema_problem(doc, schema)
    if problem is not None:
        raise FixtureError(problem.message, file=str(path), json_path=problem.path)
    return raw, doc


def _series(events: list[list[int]], length: int, file: str, case_id: str, where: str) -> np.ndarray:
    previous = 0
    for i, (s, e) in enumerate(events):
        if not previous <= s < e <= length:
            raise FixtureError(f"interval [{s}, {e}) is empty, unsorted, touching the previous one or past the "
                               f"length {length}", file=file, case_id=case_id, json_path=f"{where}[{i}]")
        previous = e + 1
    y = dense(tuple((int(s), int(e)) for s, e in events), length)
    y.flags.writeable = False
    return y


def _family(path: Path, entry: dict[str, Any], version: str) -> Family:
    raw, doc = _read(path, "family.schema.json")
    file = str(path)
    if hashlib.sha256(raw).hexdigest() != entry["sha256"]:
        raise FixtureError("content hash does not match the families manifest (rebuild with "
                           "`oipr-bench build-scenarios`)", file=file, json_path="$")
    if doc["family"] != entry["family"] or doc["dataset_version"] != version or len(doc["cases"]) != entry["n_cases"]:
        raise FixtureError("family name, dataset version or case count differs from the families manifest",
                           file=file, json_path="$")
    cases = []
    for i, c in enumerate(doc["cases"]):
        if c["id"] != f"{doc['family']}/{c['case']}" or len(c["scores"]) != c["length"]:
            raise FixtureError("case id must be '<family>/<case>' and scores must hold length values",
                               file=file, case_id=c["id"], json_path="$.cases")
        y_pred = None if "y_pred" not in c else _series(c["y_pred"], c["length"], file, c["id"], f"$.cases[{i}].y_pred")
        if (y_pred is None) == (doc["input"] == BINARY):
            raise FixtureError("a binary family's cases need y_pred, a score family's must not have it",
                               file=file, case_id=c["id"], json_path="$.cases")
        scores = np.array(c["scores"], dtype=np.float64)
        scores.flags.writeable = False
        cases.append(FamilyInput(c["id"], c["parameter"], _series(c["y_true"], c["length"], file, c["id"], f"$.cases[{i}].y_true"),
                                 y_pred, scores))
    return Family(doc["family"], doc["input"], doc["title"], doc["description"], doc["parameter"], tuple(cases), file)


_LOCK = threading.Lock()
_CACHE: dict[Path, dict[str, Family]] = {}


def load_families(directory: str | os.PathLike[str] | None = None) -> dict[str, Family]:
    """Every family of ``<directory>/properties`` (default: the shipped ``scenarios`` folder), by name.

    Raises
    ------
    FixtureError
        A file is missing, unreadable, invalid against its schema, or differs from the manifest.
    """
    folder = (Path(directory) if directory is not None else data_dir("scenarios")) / FAMILIES_FOLDER
    with _LOCK:
        if folder in _CACHE:
            return dict(_CACHE[folder])
    manifest_path = folder / MANIFEST_NAME
    _, manifest = _read(manifest_path, "families_manifest.schema.json")
    if manifest["dataset_version"] != DATASET_VERSION:
        raise FixtureError(f"dataset version {manifest['dataset_version']!r} is not this oipr-bench's "
                           f"{DATASET_VERSION!r}", file=str(manifest_path), json_path="$.dataset_version")
    listed = {e["path"] for e in manifest["families"]}
    extra = sorted(p.name for p in folder.glob("*.json") if p.name != MANIFEST_NAME and p.name not in listed)
    if extra:
        raise FixtureError(f"{extra[0]!r} is in the families folder but not listed in the manifest",
                           file=str(manifest_path), json_path="$.families")
    out = {e["family"]: _family(folder / e["path"], e, manifest["dataset_version"]) for e in manifest["families"]}
    with _LOCK:
        _CACHE[folder] = out
    return dict(out)


def family(name: str) -> Family:
    """The shipped family ``name``.

    Raises
    ------
    KeyError
        No such family.
    """
    families = load_families()
    if name not in families:
        raise KeyError(f"unknown family {name!r}; known: {', '.join(families)}")
    return families[name]
