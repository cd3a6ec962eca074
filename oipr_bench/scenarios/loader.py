"""Load and validate the special-scenario fixtures.

:func:`load` reads ``manifest.json`` and every scenario file it lists,
validates them, and returns the cases in Table A1 order.  Validation is
all-or-nothing: the first problem raises :class:`~oipr_bench.errors.FixtureError`
naming the file, the case id and the JSON path, and no case is returned.

What is checked
---------------
* each file is valid JSON (no NaN/Infinity, no duplicate keys);
* the manifest and each scenario file validate against their JSON Schemas
  (``schema/manifest.schema.json``, ``schema/scenario.schema.json``);
* the dataset version is one this loader supports (:data:`SUPPORTED_VERSIONS`)
  and is the same in the manifest and in every file;
* every listed file exists, every ``*.json`` file in the folder is listed,
  and each file's SHA-256 equals the manifest's;
* what a schema cannot say: every interval has ``start < end <= length``;
  intervals are sorted and separated by at least one point (events are
  maximal runs); case ids are unique and equal ``"<scenario>/<case>"``;
  the scenario name matches the manifest entry and the file name; case
  counts match; a random case holds ``n_runs`` runs of its own length.

Caching
-------
The parsed dataset is cached per folder (and refreshed when a file's size or
modification time changes).  Every call returns new :class:`Case` objects
whose lists and dicts are fresh copies; the numpy arrays are shared but
**read-only** (``arr.flags.writeable`` is False), so no caller can corrupt
the cache.  Copy an array (``case.y_true.copy()``) to modify it.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from .._paths import data_dir
from ..errors import FixtureError
from .definitions import DATASET_VERSION

#: Dataset versions this loader can read.
SUPPORTED_VERSIONS: tuple[str, ...] = (DATASET_VERSION,)

MANIFEST_NAME = "manifest.json"
SCENARIO_SCHEMA_FILE = "scenario.schema.json"
MANIFEST_SCHEMA_FILE = "manifest.schema.json"

#: Longest series a fixture may declare (the schema says the same); keeps a
#: corrupt ``length`` from allocating absurd arrays.
MAX_LENGTH = 10_000_000

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


# --------------------------------------------------------------------------- public data type
@dataclass(frozen=True, eq=False)
class Case:
    """One case (one row of the paper's Table A1).

    Attributes
    ----------
    id : str
        Stable id ``"<scenario>/<case>"``, e.g. ``"overlap_proportion/c1"``.
    scenario, case : str
        The two parts of the id.
    scenario_title : str
        Scenario name as the paper writes it ("Overlap proportion").
    length : int
        Series length ``T``.
    description : str
        One line on what the prediction does.
    characteristics : list of str
        Canonical names of the characteristic(s) the scenario probes.
    y_true : ndarray of int8, shape (length,)
        Ground truth (read-only).
    predictions : list of ndarray of int8
        One prediction for a deterministic case, ``n_runs`` (100) for a
        random-detector case (read-only arrays).
    y_true_events : list of [start, end]
        Ground-truth events as half-open intervals.
    prediction_events : list of list of [start, end]
        The events of each prediction.
    provenance : dict
        ``paper_table``, ``row_label`` (as printed in the paper), ``source``
        (``authors_csv``, ``paper_text`` or ``reconstructed``),
        ``authors_csv`` (file name or None) and ``note``.
    generator : dict or None
        The random generator spec of a random-detector case, else None.
    file : str
        The fixture file the case was read from.
    """

    id: str
    scenario: str
    case: str
    scenario_title: str
    length: int
    description: str
    characteristics: list[str]
    y_true: np.ndarray = field(repr=False)
    predictions: list[np.ndarray] = field(repr=False)
    y_true_events: list[list[int]] = field(repr=False)
    prediction_events: list[list[list[int]]] = field(repr=False)
    provenance: dict[str, Any] = field(repr=False)
    generator: dict[str, Any] | None = field(repr=False)
    file: str = field(repr=False)

    @property
    def n_runs(self) -> int:
        """Number of predictions: 1 for a deterministic case, 100 for a random one."""
        return len(self.predictions)

    @property
    def is_random(self) -> bool:
        """True for a random-detector case (several prediction runs)."""
        return self.generator is not None

    @property
    def y_pred(self) -> np.ndarray:
        """The single prediction of a deterministic case.

        Raises
        ------
        ValueError
            For a multi-run (random-detector) case; use :attr:`predictions`.
        """
        if len(self.predictions) != 1:
            raise ValueError(
                f"case {self.id} has {len(self.predictions)} prediction runs; "
                "use .predictions (and average the per-run scores) instead of .y_pred"
            )
        return self.predictions[0]


# --------------------------------------------------------------------------- helpers
def _json_path(parts: Sequence[Any]) -> str:
    """``["cases", 2, "y_pred", 1]`` -> ``"$.cases[2].y_pred[1]"``."""
    out = "$"
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _IDENT.match(str(part)):
            out += f".{part}"
        else:
            out += "[" + json.dumps(str(part)) + "]"
    return out


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r}")
        out[key] = value
    return out


def _read_json(path: Path) -> tuple[bytes, Any]:
    """Return the raw bytes and the parsed JSON of ``path`` or raise FixtureError."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise FixtureError("file not found", file=str(path)) from None
    except OSError as exc:
        raise FixtureError(f"cannot read file ({exc.strerror or exc})", file=str(path)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FixtureError(f"not UTF-8 text (byte {exc.start})", file=str(path)) from None
    try:
        doc = json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as exc:
        raise FixtureError(
            f"invalid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", file=str(path)
        ) from None
    except ValueError as exc:
        raise FixtureError(f"invalid JSON: {exc}", file=str(path)) from None
    return raw, doc


_SCHEMA_LOCK = threading.Lock()
_VALIDATORS: dict[str, Any] = {}


def _validator(schema_file: str) -> Any:
    """A cached Draft 2020-12 validator for one of the shipped schemas."""
    with _SCHEMA_LOCK:
        if schema_file not in _VALIDATORS:
            from jsonschema import Draft202012Validator
            from jsonschema.exceptions import SchemaError

            path = data_dir("schema") / schema_file
            _, schema = _read_json(path)
            try:
                Draft202012Validator.check_schema(schema)
            except SchemaError as exc:
                raise FixtureError(f"not a valid JSON Schema: {exc.message}", file=str(path)) from None
            _VALIDATORS[schema_file] = Draft202012Validator(schema)
        return _VALIDATORS[schema_file]


def _case_id_at(doc: Any, parts: Sequence[Any]) -> str | None:
    """The id of the case a JSON path points into, if it can be told."""
    if len(parts) >= 2 and parts[0] == "cases" and isinstance(parts[1], int):
        try:
            case_id = doc["cases"][parts[1]]["id"]
        except (KeyError, IndexError, TypeError):
            return None
        return case_id if isinstance(case_id, str) else None
    return None


def _check_schema(doc: Any, schema_file: str, file: str) -> None:
    """Validate ``doc``; raise FixtureError for the most relevant error."""
    from jsonschema.exceptions import best_match

    error = best_match(_validator(schema_file).iter_errors(doc))
    if error is None:
        return
    parts = list(error.absolute_path)
    message = error.message
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = set(error.schema.get("properties", {}))
        unknown = sorted(k for k in error.instance if k not in allowed)
        if unknown:
            parts.append(unknown[0])
            message = f"unknown field {unknown[0]!r} (the schema allows only {', '.join(sorted(allowed))})"
    raise FixtureError(
        f"schema violation: {message}", file=file, case_id=_case_id_at(doc, parts), json_path=_json_path(parts)
    )


def _events_to_array(
    events: list[list[int]], length: int, *, file: str, case_id: str, where: list[Any]
) -> np.ndarray:
    """Check ``events`` against ``length`` and build a read-only int8 series."""
    previous_end = None
    for i, (start, end) in enumerate(events):
        path = _json_path(where + [i])
        if type(start) is not int or type(end) is not int:  # JSON 1.0 passes a schema "integer"
            raise FixtureError(f"interval bounds must be written as integers, got [{start}, {end}]",
                               file=file, case_id=case_id, json_path=path)
        if not start < end:
            raise FixtureError(f"empty or reversed interval [{start}, {end}): start must be < end",
                               file=file, case_id=case_id, json_path=path)
        if end > length:
            raise FixtureError(f"interval [{start}, {end}) ends past the series length {length}",
                               file=file, case_id=case_id, json_path=path)
        if previous_end is not None and start <= previous_end:
            problem = "overlaps" if start < previous_end else "touches"
            raise FixtureError(
                f"interval [{start}, {end}) {problem} the previous one ending at {previous_end}; intervals must be "
                "sorted and separated by at least one point",
                file=file, case_id=case_id, json_path=path,
            )
        previous_end = end
    series = np.zeros(length + 1, dtype=np.int8)
    if events:
        bounds = np.asarray(events, dtype=np.int64)
        np.add.at(series, bounds[:, 0], 1)
        np.add.at(series, bounds[:, 1], -1)
    series = np.cumsum(series[:-1], dtype=np.int8)
    series.flags.writeable = False
    return series


@dataclass(frozen=True)
class _Parsed:
    """A validated case as cached (arrays read-only; everything else copied on the way out)."""

    doc: dict[str, Any]
    scenario: str
    scenario_title: str
    file: str
    y_true: np.ndarray
    predictions: tuple[np.ndarray, ...]

    def to_case(self) -> Case:
        d = copy.deepcopy(self.doc)
        runs = d.get("runs")
        return Case(
            id=d["id"],
            scenario=self.scenario,
            case=d["case"],
            scenario_title=self.scenario_title,
            length=d["length"],
            description=d["description"],
            characteristics=d["characteristics"],
            y_true=self.y_true,
            predictions=list(self.predictions),
            y_true_events=d["y_true"],
            prediction_events=runs if runs is not None else [d["y_pred"]],
            provenance=d["provenance"],
            generator=d.get("generator"),
            file=self.file,
        )


def _parse_scenario_file(
    path: Path, entry: dict[str, Any], entry_path: str, manifest_file: str, version: str
) -> list[_Parsed]:
    file = str(path)
    raw, doc = _read_json(path)
    _check_schema(doc, SCENARIO_SCHEMA_FILE, file)
    if doc["dataset_version"] != version:
        raise FixtureError(
            f"dataset_version {doc['dataset_version']!r} differs from the manifest's {version!r}",
            file=file, json_path="$.dataset_version",
        )
    scenario = doc["scenario"]
    if scenario != entry["scenario"] or f"{scenario}.json" != path.name:
        raise FixtureError(
            f"scenario {scenario!r} does not match its manifest entry {entry['scenario']!r} "
            f"and file name {path.name!r}",
            file=file, json_path="$.scenario",
        )
    parsed = []
    for i, case in enumerate(doc["cases"]):
        case_id = case["id"]
        if case_id != f"{scenario}/{case['case']}":
            raise FixtureError(f"id must be {scenario + '/' + case['case']!r}", file=file, case_id=case_id,
                               json_path=_json_path(["cases", i, "id"]))
        length = case["length"]
        if type(length) is not int or not 1 <= length <= MAX_LENGTH:
            raise FixtureError(f"length must be an integer in [1, {MAX_LENGTH}], got {length!r}", file=file,
                               case_id=case_id, json_path=_json_path(["cases", i, "length"]))
        y_true = _events_to_array(case["y_true"], length, file=file, case_id=case_id, where=["cases", i, "y_true"])
        if "runs" in case:
            gen = case["generator"]
            if gen["length"] != length:
                raise FixtureError(f"generator length {gen['length']} differs from the case length {length}",
                                   file=file, case_id=case_id, json_path=_json_path(["cases", i, "generator", "length"]))
            if gen["threshold"] != 1.0 - gen["p"]:
                raise FixtureError(f"threshold {gen['threshold']} must equal 1 - p = {1.0 - gen['p']}",
                                   file=file, case_id=case_id,
                                   json_path=_json_path(["cases", i, "generator", "threshold"]))
            if len(case["runs"]) != gen["n_runs"]:
                raise FixtureError(f"holds {len(case['runs'])} runs but the generator says n_runs = {gen['n_runs']}",
                                   file=file, case_id=case_id, json_path=_json_path(["cases", i, "runs"]))
            predictions = tuple(
                _events_to_array(run, length, file=file, case_id=case_id, where=["cases", i, "runs", k])
                for k, run in enumerate(case["runs"])
            )
        else:
            predictions = (
                _events_to_array(case["y_pred"], length, file=file, case_id=case_id, where=["cases", i, "y_pred"]),
            )
        parsed.append(_Parsed(case, scenario, doc["title"], file, y_true, predictions))
    if len(parsed) != entry["n_cases"]:
        raise FixtureError(f"holds {len(parsed)} cases but the manifest says {entry['n_cases']}",
                           file=file, json_path="$.cases")
    digest = hashlib.sha256(raw).hexdigest()
    if digest != entry["sha256"]:
        raise FixtureError(
            f"content hash {digest} does not match {manifest_file} {entry_path}.sha256 = {entry['sha256']}; "
            "the file changed without a new manifest (rebuild with `oipr-bench build-scenarios`)",
            file=file, json_path="$",
        )
    return parsed


def _load_dir(directory: Path) -> tuple[_Parsed, ...]:
    """Parse and validate the whole dataset in ``directory`` (all or nothing)."""
    if not directory.is_dir():
        raise FixtureError("scenario folder not found", file=str(directory))
    manifest_path = directory / MANIFEST_NAME
    manifest_file = str(manifest_path)
    _, manifest = _read_json(manifest_path)
    _check_schema(manifest, MANIFEST_SCHEMA_FILE, manifest_file)
    version = manifest["dataset_version"]
    if version not in SUPPORTED_VERSIONS:
        raise FixtureError(
            f"dataset version {version!r} is not supported by this oipr-bench "
            f"(supported: {', '.join(SUPPORTED_VERSIONS)})",
            file=manifest_file, json_path="$.dataset_version",
        )
    listed: dict[str, int] = {}
    for i, entry in enumerate(manifest["files"]):
        if entry["path"] in listed:
            raise FixtureError(f"file {entry['path']!r} is listed twice", file=manifest_file,
                               json_path=_json_path(["files", i, "path"]))
        listed[entry["path"]] = i
    for extra in sorted(p.name for p in directory.glob("*.json")):
        if extra != MANIFEST_NAME and extra not in listed:
            raise FixtureError(f"{extra!r} is in the scenario folder but not listed in the manifest",
                               file=manifest_file, json_path="$.files")

    parsed: list[_Parsed] = []
    seen: dict[str, str] = {}
    for i, entry in enumerate(manifest["files"]):
        for item in _parse_scenario_file(directory / entry["path"], entry, _json_path(["files", i]),
                                         manifest_file, version):
            case_id = item.doc["id"]
            if case_id in seen:
                raise FixtureError(f"duplicate case id (also in {seen[case_id]})", file=item.file, case_id=case_id,
                                   json_path="$.cases")
            seen[case_id] = item.file
            parsed.append(item)
    if len(parsed) != manifest["n_cases"]:
        raise FixtureError(f"n_cases is {manifest['n_cases']} but the files hold {len(parsed)} cases",
                           file=manifest_file, json_path="$.n_cases")
    return tuple(parsed)


# --------------------------------------------------------------------------- cache + public API
_CACHE_LOCK = threading.Lock()
_CACHE: dict[Path, tuple[tuple[Any, ...], tuple[_Parsed, ...]]] = {}


def _signature(directory: Path) -> tuple[Any, ...]:
    """What must stay the same for the cache to stay valid: each JSON file's identity, size and mtime."""
    sig = []
    for p in sorted(directory.glob("*.json")):
        st = p.stat()
        sig.append((p.name, st.st_ino, st.st_size, st.st_mtime_ns))
    return tuple(sig)


def _resolve(path: str | os.PathLike[str] | None) -> Path:
    return data_dir("scenarios") if path is None else Path(path).expanduser().resolve()


def _parsed(path: str | os.PathLike[str] | None) -> tuple[_Parsed, ...]:
    directory = _resolve(path)
    sig = _signature(directory) if directory.is_dir() else None
    with _CACHE_LOCK:
        hit = _CACHE.get(directory)
        if hit is not None and hit[0] == sig:
            return hit[1]
        items = _load_dir(directory)
        _CACHE[directory] = (sig, items)
        return items


def load(path: str | os.PathLike[str] | None = None) -> list[Case]:
    """Load the special-scenario dataset (paper Appendix A, Table A1).

    Parameters
    ----------
    path : path-like, optional
        A folder holding ``manifest.json`` and the scenario files.  By
        default the shipped dataset (the repository's ``scenarios/`` or the
        copy inside the installed package).

    Returns
    -------
    list of Case
        The 25 cases in Table A1 order (scenario by scenario, c1 first).
        New objects on every call; their arrays are shared and read-only.

    Raises
    ------
    FixtureError
        If any file is missing, is not valid JSON, breaks its schema or the
        rules above, has an unsupported version or a hash that disagrees with
        the manifest.  Nothing is returned in that case.
    """
    return [item.to_case() for item in _parsed(path)]


def get(case_id: str, path: str | os.PathLike[str] | None = None) -> Case:
    """Return one case by its id (``"overlap_proportion/c1"``).

    Raises
    ------
    KeyError
        If no case has that id (the message lists the valid ids).
    """
    items = _parsed(path)
    for item in items:
        if item.doc["id"] == case_id:
            return item.to_case()
    known = ", ".join(item.doc["id"] for item in items)
    raise KeyError(f"unknown case id {case_id!r}; known ids: {known}")


def scenario_names(path: str | os.PathLike[str] | None = None) -> list[str]:
    """Scenario names in dataset order (the order of Table A1)."""
    names: list[str] = []
    for item in _parsed(path):
        if item.scenario not in names:
            names.append(item.scenario)
    return names


def clear_cache() -> None:
    """Forget every parsed dataset (the next :func:`load` re-reads the files)."""
    with _CACHE_LOCK:
        _CACHE.clear()
    with _SCHEMA_LOCK:
        _VALIDATORS.clear()
