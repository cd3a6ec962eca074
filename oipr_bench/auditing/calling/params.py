"""Parsing an evaluator's parameters: ``key=value`` strings from the command line or the plugin.

A value is JSON where it parses (``20``, ``0.5``, ``true``, ``[1,2]``), else the string; a key given
twice, in the options or inside one JSON object, is a conflict, never "the last one".
"""

from __future__ import annotations

import json
from typing import Any, Iterable

from ...errors import UsageError
from ...guards import MAX_JSON_DEPTH, clip, json_depth, printable

__all__ = ["parse_params", "parse_value"]


class _DuplicateKey(Exception):
    """A JSON object in a parameter value has the same key twice."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


def parse_value(text: str) -> Any:
    """Parse a parameter value: JSON where it parses (``20``, ``0.5``, ``true``, ``[1,2]``), else the string.

    Raises
    ------
    UsageError
        JSON nested more than :data:`~oipr_bench.guards.MAX_JSON_DEPTH` levels, or an object with a
        key given twice (``{"a": 1, "a": 2}`` is a conflict, not "the last one").
    """
    if json_depth(text) > MAX_JSON_DEPTH:
        raise UsageError(f"nested more than {MAX_JSON_DEPTH} levels deep")
    try:
        return json.loads(text, object_pairs_hook=_unique_keys)
    except _DuplicateKey as exc:
        raise UsageError(f"key {clip(printable(repr(exc.args[0])), 80)} given twice in one object") from None
    except (ValueError, RecursionError):
        return text


def parse_params(items: Iterable[str] | None, *, option: str = "--evaluator-param") -> dict[str, Any]:
    """Parse ``key=value`` strings into a dict (values through :func:`parse_value`).

    Raises
    ------
    UsageError
        An item without ``=``, with an empty or non-identifier key, or a key given twice.
    """
    params: dict[str, Any] = {}
    for item in items or ():
        key, sep, value = str(item).partition("=")
        key = key.strip()
        if not sep:
            raise UsageError(f"{option} {item!r}: expected key=value")
        if not key.isidentifier():
            raise UsageError(f"{option} {item!r}: {key!r} is not a valid parameter name")
        if key in params:
            raise UsageError(f"{option} {clip(printable(key), 80)}: parameter given twice")
        try:
            params[key] = parse_value(value.strip())
        except UsageError as exc:
            raise UsageError(f"{option} {clip(printable(key), 80)}: {exc}") from None
    return params
