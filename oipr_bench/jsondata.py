"""JSON conventions shared by every file oipr-bench reads or writes.

- NaN (AM's precision on the all-zero detector) is stored as ``null``:
  :func:`number` and :func:`unnumber` convert one value, :func:`jsonable`
  a whole structure (numpy numbers become Python numbers).
- A place in a document is named by a JSON path, ``$.cases[2].y_pred[1]``
  (:func:`json_path`), in every :class:`~oipr_bench.errors.FixtureError`.
- The shipped JSON Schemas (``schema/*.schema.json``, Draft 2020-12) are read
  once and every document is checked by :func:`schema_problem`, which gives
  the most relevant error as a JSON path and one line.
"""

from __future__ import annotations

import json
import math
import re
import threading
from typing import Any, Iterable, Mapping, NamedTuple

import numpy as np

from ._paths import data_dir
from .errors import FixtureError
from .guards import clip

__all__ = ["number", "unnumber", "jsonable", "json_path", "SchemaProblem", "schema", "schema_problem", "clear_schemas"]

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def number(x: Any) -> float | None:
    """A float for JSON: NaN (and None) become ``None``."""
    if x is None:
        return None
    x = float(x)
    return None if math.isnan(x) else x


def unnumber(x: Any) -> float:
    """The inverse of :func:`number`: ``None`` becomes NaN."""
    return math.nan if x is None else float(x)


def jsonable(obj: Any) -> Any:
    """Plain JSON data: numpy numbers to Python, tuples to lists, NaN to None, unknown objects to their repr."""
    if isinstance(obj, Mapping):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    if isinstance(obj, (bool, np.bool_)):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return number(obj)
    if obj is None or isinstance(obj, str):
        return obj
    return repr(obj)


def json_path(parts: Iterable[Any]) -> str:
    """``["cases", 2, "y_pred", 1]`` -> ``"$.cases[2].y_pred[1]"`` (odd keys quoted: ``$["a b"]``)."""
    out = "$"
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _IDENT.match(str(part)):
            out += f".{part}"
        else:
            out += "[" + json.dumps(str(part)) + "]"
    return out


_LOCK = threading.Lock()
_SCHEMAS: dict[str, Any] = {}
_VALIDATORS: dict[str, Any] = {}


def schema(schema_file: str) -> dict[str, Any]:
    """The shipped JSON Schema ``schema/<schema_file>`` (read and checked once).

    Raises
    ------
    FixtureError
        The schema file is missing, not JSON or not a valid Draft 2020-12 schema.
    """
    with _LOCK:
        if schema_file not in _SCHEMAS:
            from jsonschema import Draft202012Validator
            from jsonschema.exceptions import SchemaError

            from .guards import UnreadableFile, loads_json, read_regular_bytes

            path = data_dir("schema") / schema_file
            try:
                doc = loads_json(read_regular_bytes(path).decode("utf-8"))
            except (UnreadableFile, ValueError) as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
                raise FixtureError(f"cannot read the JSON Schema ({exc})", file=str(path)) from None
            try:
                Draft202012Validator.check_schema(doc)
            except SchemaError as exc:
                raise FixtureError(f"not a valid JSON Schema: {exc.message}", file=str(path)) from None
            _SCHEMAS[schema_file] = doc
            _VALIDATORS[schema_file] = Draft202012Validator(doc)
        return _SCHEMAS[schema_file]


def clear_schemas() -> None:
    """Forget the schemas read so far (the next use reads them again)."""
    with _LOCK:
        _SCHEMAS.clear()
        _VALIDATORS.clear()


class SchemaProblem(NamedTuple):
    """The most relevant schema violation of a document."""

    parts: tuple[Any, ...]
    message: str

    @property
    def path(self) -> str:
        """Where, as a JSON path."""
        return json_path(self.parts)


def _reason_first(error: Any) -> str:
    """The error's message with the reason first: a long dump of the offending value comes last, clipped.

    jsonschema starts many messages with the value (``{...} should not be valid under ...``); a
    message clipped to one line would then never reach the reason.
    """
    message = str(error.message)
    if error.validator == "not" and isinstance(error.validator_value, Mapping) \
            and set(error.validator_value) == {"required"}:
        names = ", ".join(repr(n) for n in error.validator_value["required"])
        return f"must not have {names} here (the schema forbids {names} in this kind of object)"
    try:
        dump = repr(error.instance)
    except Exception:  # noqa: BLE001 - a message must not fail
        return message
    if len(dump) > 60 and message.startswith(dump):
        return f"the value {message[len(dump):].strip()} (the value: {clip(dump, 60)})"
    return message


def schema_problem(doc: Any, schema_doc: str | Mapping[str, Any]) -> SchemaProblem | None:
    """The most relevant violation by ``doc`` of a schema (None when valid).

    ``schema_doc`` is a shipped schema's file name (its validator is cached) or
    a schema itself.  An unknown field is reported by name, with the fields
    the schema allows.
    """
    import jsonschema
    from jsonschema.exceptions import best_match

    if isinstance(schema_doc, str):
        schema(schema_doc)
        validator = _VALIDATORS[schema_doc]
    else:
        validator = jsonschema.Draft202012Validator(schema_doc)
    error = best_match(validator.iter_errors(doc))
    if error is None:
        return None
    parts = list(error.absolute_path)
    message = _reason_first(error)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = set(error.schema.get("properties", {}))
        unknown = sorted(k for k in error.instance if k not in allowed)
        if unknown:
            parts.append(unknown[0])
            message = f"unknown field {clip(repr(unknown[0]), 80)} (the schema allows only {', '.join(sorted(allowed))})"
    return SchemaProblem(tuple(parts), message)
