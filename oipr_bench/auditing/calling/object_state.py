"""A stable digest of an evaluator object's own state, so differently configured objects differ.

Two audits are comparable when their signatures are equal
(:mod:`oipr_bench.auditing.regression.signature`).  An evaluator named ``ce.py:inst`` may be an
instance configured in its module (``inst = Params(k=3)``) or a ``functools.partial(f, z=1)``:
its parameters then live in the object, not in ``--param``.  :func:`state_digest` turns that
state into a short hash: an instance's attributes (``__dict__``, ``__slots__``), a partial's
function, positional and keyword arguments, a bound method's instance.  Plain functions,
classes instantiated here with their parameters and the built-in evaluators have no state of
their own beyond their parameters (None).

The description is stable across processes: numbers and strings as JSON, arrays by dtype, shape
and a hash of their bytes, functions and classes by module and qualified name (a lambda or a
function defined inside another also by its code, defaults and closure, so ``lambda x: x`` and
``lambda x: x * 2``, or closures over 2 and 3, differ), a NumPy random generator by its bit
generator's state (its seed), other objects by their type and attributes; memory addresses never
enter it.  Nested containers and objects are followed :data:`MAX_DEPTH` levels down (an object in
a list in a dict in an attribute is still described); a cycle is written as such.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import json
import math
import re
from typing import Any

__all__ = ["state_digest", "describe_state"]

#: Hex digits of the digest shown in the signature.
DIGEST_DIGITS = 12
#: How deep nested attributes are described (deeper ones by type only).
MAX_DEPTH = 32
#: Most items of one container described (a longer one adds its length and a hash of the rest's reprs).
MAX_ITEMS = 1000

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


#: A module imported from a file gets a name ending in a per-process number (``_oipr_user_ce_12345678``).
_FILE_MODULE = re.compile(r"^(_oipr_user_.*)_\d+$")


def _name(obj: Any) -> str:
    module = _FILE_MODULE.sub(r"\1", str(getattr(obj, "__module__", "?")))
    return f"{module}.{getattr(obj, '__qualname__', type(obj).__qualname__)}"


def _attributes(obj: Any) -> dict[str, Any] | None:
    own = getattr(obj, "__dict__", None)
    out = dict(own) if isinstance(own, dict) else {}
    for klass in type(obj).__mro__:
        for slot in getattr(klass, "__slots__", ()) if isinstance(getattr(klass, "__slots__", ()), (tuple, list)) else ():
            if isinstance(slot, str) and slot not in ("__dict__", "__weakref__") and hasattr(obj, slot):
                out[slot] = getattr(obj, slot)
    return out if out or isinstance(own, dict) else None


def _code(code: Any, depth: int) -> Any:
    """A code object by what it does: its bytecode, constants (nested code too) and the names it uses."""
    consts = [_code(c, depth + 1) if inspect.iscode(c) else describe_state(c, depth + 1) for c in code.co_consts]
    return {"code": hashlib.sha256(code.co_code).hexdigest()[:16], "consts": consts, "names": list(code.co_names)}


def _function(fn: Any, depth: int) -> Any:
    """A function by name; a lambda or a nested function also by its code, defaults and closure."""
    out: dict[str, Any] = {"name": _name(fn)}
    if "<lambda>" in fn.__qualname__ or "<locals>" in fn.__qualname__:
        cells = []
        for cell in fn.__closure__ or ():
            try:
                cells.append(describe_state(cell.cell_contents, depth + 1))
            except ValueError:  # an empty cell
                cells.append("<empty>")
        out.update(code=_code(fn.__code__, depth), closure=cells, defaults=describe_state(fn.__defaults__, depth + 1),
                   kwdefaults=describe_state(fn.__kwdefaults__, depth + 1))
    return out


def _generator(obj: Any, depth: int) -> Any:
    """A NumPy ``Generator``, ``RandomState`` or bit generator by its state (seed and position), else None."""
    import numpy as np

    if isinstance(obj, np.random.Generator):
        return {"object": _name(type(obj)), "state": describe_state(obj.bit_generator.state, depth + 1)}
    if isinstance(obj, np.random.BitGenerator):
        return {"object": _name(type(obj)), "state": describe_state(obj.state, depth + 1)}
    if isinstance(obj, np.random.RandomState):
        return {"object": _name(type(obj)), "state": describe_state(obj.get_state(legacy=False), depth + 1)}
    return None


def describe_state(obj: Any, depth: int = 0, _path: frozenset[int] = frozenset()) -> Any:
    """A JSON-able description of ``obj`` that does not depend on memory addresses (see the module docstring)."""
    if id(obj) in _path and not isinstance(obj, (bool, int, float, str)) and obj is not None:
        return f"<cycle: {type(obj).__qualname__}>"
    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if isinstance(obj, int):
        return obj
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else repr(obj)
    if depth >= MAX_DEPTH:
        return f"<{type(obj).__qualname__}>"
    try:
        import numpy as np

        if isinstance(obj, np.generic):
            return describe_state(obj.item(), depth)
        if isinstance(obj, np.ndarray):
            data = np.ascontiguousarray(obj)
            digest = hashlib.sha256(data.tobytes() if data.dtype != object else repr(data.tolist()).encode()).hexdigest()
            return {"ndarray": [str(obj.dtype), list(obj.shape), digest[:16]]}
    except ImportError:  # pragma: no cover - numpy is a dependency
        pass
    path = _path | {id(obj)}
    if isinstance(obj, (list, tuple, set, frozenset)):
        items = sorted(obj, key=repr) if isinstance(obj, (set, frozenset)) else list(obj)
        return {type(obj).__name__: [describe_state(x, depth + 1, path) for x in items[:MAX_ITEMS]], "len": len(items)}
    if isinstance(obj, dict):
        keys = sorted(obj, key=repr)[:MAX_ITEMS]
        return {"dict": [[describe_state(k, depth + 1, path), describe_state(obj[k], depth + 1, path)] for k in keys],
                "len": len(obj)}
    generator = _generator(obj, depth)
    if generator is not None:
        return generator
    if isinstance(obj, functools.partial):
        return {"partial": _name(obj.func), "args": describe_state(obj.args, depth + 1),
                "keywords": describe_state(dict(obj.keywords), depth + 1)}
    if inspect.ismethod(obj):
        return {"method": _name(obj), "self": describe_state(obj.__self__, depth + 1, path)}
    if inspect.isfunction(obj):
        return _function(obj, depth)
    if inspect.isroutine(obj) or inspect.isclass(obj) or inspect.ismodule(obj):
        return {"name": _name(obj) if not inspect.ismodule(obj) else obj.__name__}
    attrs = _attributes(obj)
    if attrs is not None:
        return {"object": _name(type(obj)), "attributes": describe_state(attrs, depth + 1, path)}
    try:
        text = repr(obj)
    except Exception:  # noqa: BLE001 - a hostile __repr__: the type alone
        text = ""
    return {"object": _name(type(obj)), "repr": _ADDRESS.sub("", text)[:200]}


def state_digest(obj: Any) -> str | None:
    """A short hash of the state of ``obj`` when it carries any (an instance, a partial, a bound method), else None.

    Anything the object does while being described (a raising property, an unhashable key) yields
    the digest of what could be described, never an error.
    """
    if obj is None or inspect.isfunction(obj) or inspect.isbuiltin(obj) or inspect.isclass(obj):
        return None
    doc: Any = None
    try:
        doc = describe_state(obj)
        text = json.dumps(doc, sort_keys=True, separators=(",", ":"), default=str)
    except Exception as exc:  # noqa: BLE001 - the user's object misbehaved while described
        text = json.dumps({"object": _name(type(obj)), "undescribable": type(exc).__name__})
    if isinstance(doc, dict) and doc.get("attributes") == {"dict": [], "len": 0}:
        return None  # an instance with no attributes of its own carries no state
    return hashlib.sha256(text.encode()).hexdigest()[:DIGEST_DIGITS]
