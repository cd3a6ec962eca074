"""Reading and validating the scenario files (used by :mod:`.loader`).

:func:`load_dir` parses a dataset folder and checks everything listed in the
:mod:`.loader` docstring; the first problem raises
:class:`~oipr_bench.errors.FixtureError` naming the file, the case id and the
JSON path.  Files are read through :mod:`oipr_bench.guards`: only regular
files (a FIFO, a device, a dangling symlink or a symlink loop is refused
without blocking), at most :data:`~oipr_bench.guards.MAX_TEXT_BYTES` bytes and
:data:`~oipr_bench.guards.MAX_JSON_DEPTH` levels of nesting.  Before any dense
array is built, the series a dataset declares are checked against
:data:`MAX_DATASET_POINTS`.
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ..errors import FixtureError
from ..guards import UnreadableFile, clip, loads_json, read_regular_bytes
from ..jsondata import clear_schemas, json_path, schema_problem
from .case import Case
from .definitions import TABLE_A1_VERSION

#: Dataset versions this loader can read.
SUPPORTED_VERSIONS: tuple[str, ...] = (TABLE_A1_VERSION,)

MANIFEST_NAME = "manifest.json"
SCENARIO_SCHEMA_FILE = "scenario.schema.json"
MANIFEST_SCHEMA_FILE = "manifest.schema.json"

#: Longest series a fixture may declare (the schema says the same); keeps a
#: corrupt ``length`` from allocating absurd arrays.
MAX_LENGTH = 10_000_000

#: Most points (ground truths plus every prediction run, summed over all
#: cases) a dataset may declare: 10^8 int8 points, 100 MB.  The shipped
#: dataset has about 2 x 10^5.
MAX_DATASET_POINTS = 100_000_000



def _read_json(path: Path) -> tuple[bytes, Any]:
    """Return the raw bytes and the parsed JSON of ``path`` or raise FixtureError."""
    try:
        raw = read_regular_bytes(path, what="a case file")
    except UnreadableFile as exc:
        message = "file not found" if str(exc) == "no such file" else str(exc)
        raise FixtureError(message, file=str(path)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FixtureError(f"not UTF-8 text (byte {exc.start})", file=str(path)) from None
    try:
        doc = loads_json(text)
    except json.JSONDecodeError as exc:
        raise FixtureError(
            f"invalid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", file=str(path)
        ) from None
    except ValueError as exc:
        raise FixtureError(f"invalid JSON: {exc}", file=str(path)) from None
    return raw, doc


def clear_validators() -> None:
    """Forget the cached schemas (the next load re-reads them)."""
    clear_schemas()


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
    """Validate ``doc``; raise FixtureError for the most relevant error (:func:`oipr_bench.jsondata.schema_problem`)."""
    problem = schema_problem(doc, schema_file)
    if problem is not None:
        raise FixtureError(f"schema violation: {clip(problem.message)}", file=file,
                           case_id=_case_id_at(doc, problem.parts), json_path=problem.path)


def _events_to_array(
    events: list[list[int]], length: int, *, file: str, case_id: str, where: list[Any]
) -> np.ndarray:
    """Check ``events`` against ``length`` and build a read-only int8 series."""
    previous_end = None
    for i, (start, end) in enumerate(events):
        path = json_path(where + [i])
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
    # Backed by an immutable bytes object: read-only, and no caller can set
    # ``writeable = True`` again (numpy refuses for a read-only buffer), so the
    # cached dataset cannot be corrupted through a Case.
    return np.frombuffer(np.cumsum(series[:-1], dtype=np.int8).tobytes(), dtype=np.int8)


@dataclass(frozen=True)
class Parsed:
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


def _claim_points(case: dict[str, Any], i: int, file: str, budget: list[int]) -> None:
    """Charge the case's dense size to ``budget`` (points left); refuse it past the cap.

    Runs before any array of the case is allocated, so a file declaring
    10^7 points x 5,000 runs is refused in microseconds, not after a MemoryError.
    """
    n_series = 1 + (len(case["runs"]) if "runs" in case else 1)
    points = case["length"] * n_series
    if points > budget[0]:
        raise FixtureError(
            f"declares {case['length']} points x {n_series} series; the dataset would exceed the "
            f"limit of {MAX_DATASET_POINTS} points",
            file=file, case_id=case["id"], json_path=json_path(["cases", i]),
        )
    budget[0] -= points


def _parse_case(case: dict[str, Any], i: int, scenario: str, title: str, file: str, budget: list[int]) -> Parsed:
    """Check one case of a schema-valid scenario file and build its read-only arrays."""
    case_id = case["id"]
    if case_id != f"{scenario}/{case['case']}":
        raise FixtureError(f"id must be {scenario + '/' + case['case']!r}", file=file, case_id=case_id,
                           json_path=json_path(["cases", i, "id"]))
    length = case["length"]
    if type(length) is not int or not 1 <= length <= MAX_LENGTH:
        raise FixtureError(f"length must be an integer in [1, {MAX_LENGTH}], got {length!r}", file=file,
                           case_id=case_id, json_path=json_path(["cases", i, "length"]))
    if "runs" in case:
        gen = case["generator"]
        if gen["length"] != length:
            raise FixtureError(f"generator length {gen['length']} differs from the case length {length}",
                               file=file, case_id=case_id, json_path=json_path(["cases", i, "generator", "length"]))
        if gen["threshold"] != 1.0 - gen["p"]:
            raise FixtureError(f"threshold {gen['threshold']} must equal 1 - p = {1.0 - gen['p']}",
                               file=file, case_id=case_id,
                               json_path=json_path(["cases", i, "generator", "threshold"]))
        if len(case["runs"]) != gen["n_runs"]:
            raise FixtureError(f"holds {len(case['runs'])} runs but the generator says n_runs = {gen['n_runs']}",
                               file=file, case_id=case_id, json_path=json_path(["cases", i, "runs"]))
    _claim_points(case, i, file, budget)
    y_true = _events_to_array(case["y_true"], length, file=file, case_id=case_id, where=["cases", i, "y_true"])
    runs = case["runs"] if "runs" in case else [case["y_pred"]]
    where = (lambda k: ["cases", i, "runs", k]) if "runs" in case else (lambda k: ["cases", i, "y_pred"])
    predictions = tuple(
        _events_to_array(run, length, file=file, case_id=case_id, where=where(k)) for k, run in enumerate(runs)
    )
    return Parsed(case, scenario, title, file, y_true, predictions)


def _parse_scenario_file(
    path: Path, entry: dict[str, Any], entry_path: str, manifest_file: str, version: str, budget: list[int]
) -> list[Parsed]:
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
    parsed = [_parse_case(case, i, scenario, doc["title"], file, budget) for i, case in enumerate(doc["cases"])]
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


def load_dir(directory: Path) -> tuple[Parsed, ...]:
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
                               json_path=json_path(["files", i, "path"]))
        listed[entry["path"]] = i
    for extra in sorted(p.name for p in directory.glob("*.json")):
        if extra != MANIFEST_NAME and extra not in listed:
            raise FixtureError(f"{extra!r} is in the scenario folder but not listed in the manifest",
                               file=manifest_file, json_path="$.files")

    parsed: list[Parsed] = []
    seen: dict[str, str] = {}
    budget = [MAX_DATASET_POINTS]
    for i, entry in enumerate(manifest["files"]):
        for item in _parse_scenario_file(directory / entry["path"], entry, json_path(["files", i]),
                                         manifest_file, version, budget):
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


def load_case_file(path: Path) -> tuple[Parsed, ...]:
    """Parse and validate one scenario file on its own (a user's cases; no manifest, no hash).

    The file follows ``schema/scenario.schema.json`` like a dataset file, with a supported
    ``dataset_version``; its case ids must be unique.  The first problem raises
    :class:`~oipr_bench.errors.FixtureError` naming the file, the case and the JSON path.
    """
    file = str(path)
    _, doc = _read_json(path)
    _check_schema(doc, SCENARIO_SCHEMA_FILE, file)
    if doc["dataset_version"] not in SUPPORTED_VERSIONS:
        raise FixtureError(f"dataset_version {doc['dataset_version']!r} is not supported by this oipr-bench "
                           f"(supported: {', '.join(SUPPORTED_VERSIONS)})", file=file, json_path="$.dataset_version")
    budget = [MAX_DATASET_POINTS]
    parsed = [_parse_case(case, i, doc["scenario"], doc["title"], file, budget) for i, case in enumerate(doc["cases"])]
    seen: set[str] = set()
    for i, item in enumerate(parsed):
        if item.doc["id"] in seen:
            raise FixtureError("duplicate case id", file=file, case_id=item.doc["id"], json_path=json_path(["cases", i, "id"]))
        seen.add(item.doc["id"])
        if "runs" in item.doc:
            _check_runs_match_generator(item, i, file)
    return tuple(parsed)


#: Most random draws (points) regenerated to check a user's random-detector case against its generator.
MAX_CHECKED_DRAWS = MAX_DATASET_POINTS


def _check_runs_match_generator(item: Parsed, i: int, file: str) -> None:
    """A user's random-detector case: its ``runs`` must be the draws its ``generator`` spec describes.

    The spec is what a reader regenerates the runs from (and what the report records); runs that
    contradict it are refused, naming the first run that differs.
    """
    from .detectors import random_detector

    gen, case_id = item.doc["generator"], item.doc["id"]
    draws = (gen["first_draw"] - 1 + gen["n_runs"]) * gen["length"]
    if draws > MAX_CHECKED_DRAWS:
        raise FixtureError(f"the generator spec needs {draws} random draws to check its runs, more than the limit of "
                           f"{MAX_CHECKED_DRAWS}", file=file, case_id=case_id,
                           json_path=json_path(["cases", i, "generator"]))
    rng = np.random.RandomState(gen["seed"])
    for _ in range(gen["first_draw"] - 1):
        rng.rand(gen["length"])
    for k, given in enumerate(item.predictions):
        if not np.array_equal(random_detector(gen["length"], gen["p"], seed=rng), given):
            raise FixtureError(f"runs[{k}] is not draw {gen['first_draw'] + k} of its generator spec (seed {gen['seed']}, "
                               f"p {gen['p']}); give the runs the generator draws, or fix the spec", file=file,
                               case_id=case_id, json_path=json_path(["cases", i, "runs", k]))
