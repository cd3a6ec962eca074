"""Turn what the user names on the command line into a plain evaluator callable.

Accepted evaluator specifications
---------------------------------
- a built-in name: ``"OIPR"``, ``"PA%K"``, ... (:data:`oipr_bench.evaluators.NAMES`);
- ``"pkg.mod:Name"`` (anything after the colon may be dotted: ``"pkg.mod:Cls.method"``);
- ``"pkg.mod.Name"`` (the longest importable module prefix is imported);
- ``"path/to/file.py:Name"``;
- or, from Python, the object itself: a function, a class or an instance.

A class is instantiated with the parameters (none by default); a function with parameters is called
with them as keyword arguments; an instance is called directly, or through its ``evaluate`` method.
A module name not importable is also looked for in the current folder (pytest does not put it on
``sys.path``). A ``file.py`` is imported with its folder first on ``sys.path``, as ``python file.py``
would (a ``helper.py`` beside it is found); afterwards the folder moves to the end of ``sys.path``.
Everything the user can get wrong raises :class:`oipr_bench.errors.UsageError`, one line: what and where.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import inspect
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from ...errors import UsageError
from ...guards import MAX_JSON_DEPTH, clip, json_depth, printable, regular_file_problem
from ...io import note_input
from .isolation import described, guarded
from .object_state import state_digest

__all__ = ["Resolved", "resolve", "parse_params", "parse_value", "load_object"]


@dataclass(frozen=True)
class Resolved:
    """A user's evaluator, ready to call.

    Attributes
    ----------
    fn : callable
        ``fn(y_true, y_pred) -> result``.
    name : str
        Display name: the specification as given, or the object's qualified name.
    params : dict
        The parameters in force (a built-in's or an instance's ``.params`` when
        it has one, else the parameters given).
    obj : object
        The object the user named (class, function or instance), after instantiation.
    builtin : str or None
        The built-in evaluator name when ``name`` is one of the seven.
    oipr_profile : dict
        The evaluator's ``oipr_profile`` attribute (declared expectations), or ``{}``.
    state : str or None
        A digest of the named object's own state when it is an instance, a partial or a bound
        method (:func:`~.object_state.state_digest`), so two differently configured objects sign
        differently; None for a function, a class instantiated here or a built-in.
    """

    fn: Callable[[Any, Any], Any]
    name: str
    params: dict[str, Any] = field(default_factory=dict)
    obj: Any = None
    builtin: str | None = None
    oipr_profile: dict[str, Any] = field(default_factory=dict)
    state: str | None = None


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


def _module_or_missing(modname: str) -> Any:
    """``importlib.import_module(modname)``, or the ModuleNotFoundError it raised (returned, not raised)."""
    try:
        return importlib.import_module(modname)
    except ModuleNotFoundError as exc:
        return exc


def _import_module(modname: str, spec: str) -> Any:
    """Import ``modname`` (a guarded step: its output and anything it raises are fenced); retry with
    the current folder on ``sys.path``."""
    found = guarded(repr(spec), f"importing {modname!r} failed", _module_or_missing, modname)
    if not isinstance(found, ModuleNotFoundError):
        return found
    top = modname.split(".")[0]
    if found.name not in (top, modname) and not modname.startswith(f"{found.name}."):
        raise UsageError(f"evaluator {spec!r}: importing {modname!r} failed: {described(found)}")
    cwd = os.getcwd()
    if cwd in sys.path or not (Path(cwd, top + ".py").exists() or Path(cwd, top, "__init__.py").exists()):
        raise UsageError(f"evaluator {spec!r}: no module named {modname!r}")
    sys.path.insert(0, cwd)
    importlib.invalidate_caches()
    return _import_module(modname, spec)


def _import_file(path: Path, spec: str) -> Any:
    problem = regular_file_problem(path)  # a FIFO or /dev/zero exists, and must not be read
    if problem:
        raise UsageError(f"evaluator {spec!r}: {str(path)!r}: {problem}" if problem != "no such file"
                         else f"evaluator {spec!r}: no such file {str(path)!r}")
    modname = f"_oipr_user_{path.stem}_{abs(hash(str(path.resolve()))) % 10**8}"
    if modname in sys.modules:
        return sys.modules[modname]
    note_input(path, "the evaluator source")
    file_spec = importlib.util.spec_from_file_location(modname, path)
    if file_spec is None or file_spec.loader is None:
        raise UsageError(f"evaluator {spec!r}: cannot import {str(path)!r}")
    module = importlib.util.module_from_spec(file_spec)
    sys.modules[modname] = module
    folder = _first_on_path(path)
    try:
        guarded(repr(spec), f"importing {str(path)!r} failed", file_spec.loader.exec_module, module)
    except BaseException:
        sys.modules.pop(modname, None)
        raise
    finally:
        _last_on_path(folder)
    return module


def _first_on_path(path: Path) -> str | None:
    """Put the file's folder first on ``sys.path`` for its import, as ``python file.py`` does (None if already there)."""
    folder = os.path.dirname(os.path.abspath(path))
    if folder in sys.path:
        return None
    sys.path.insert(0, folder)
    importlib.invalidate_caches()
    return folder


def _last_on_path(folder: str | None) -> None:
    """After the import, move ``folder`` to the end of ``sys.path``: still there for imports inside calls,
    but no longer in front of anything else."""
    if folder is not None and folder in sys.path:
        sys.path.remove(folder)
        sys.path.append(folder)


def _note_module_source(module: Any) -> None:
    """Protect an imported module's source file from this run's outputs (see :func:`oipr_bench.io.note_input`)."""
    source = module.__dict__.get("__file__") if isinstance(getattr(module, "__dict__", None), dict) else None
    if isinstance(source, str):
        note_input(source, "the evaluator source")
    name = module.__dict__.get("__name__") if isinstance(getattr(module, "__dict__", None), dict) else None
    while isinstance(name, str) and "." in name:  # its packages' __init__.py, even when imported before the run
        name = name.rpartition(".")[0]
        parent = getattr(sys.modules.get(name), "__file__", None)
        if isinstance(parent, str):
            note_input(parent, f"the evaluator's package {name}")


def _getattr_path(obj: Any, attrs: str, spec: str, where: str) -> Any:
    for part in attrs.split("."):
        if not part:
            raise UsageError(f"evaluator {spec!r}: empty attribute name")
        missing = object()
        obj = guarded(repr(spec), f"looking up {part!r} in {where} failed", getattr, obj, part, missing)
        if obj is missing:
            raise UsageError(f"evaluator {spec!r}: {where} has no attribute {part!r}")
        where = f"{where}.{part}"
    return obj


def load_object(spec: str) -> Any:
    """Import the object named by ``spec`` (``pkg.mod:Name``, ``pkg.mod.Name`` or ``file.py:Name``).

    Raises
    ------
    UsageError
        Nothing importable under that name.
    """
    spec = str(spec).strip()
    if not spec:
        raise UsageError("evaluator: empty name")
    if ":" in spec:
        modpart, _, attrs = spec.rpartition(":")
        if not modpart or not attrs:
            raise UsageError(f"evaluator {spec!r}: expected 'pkg.module:Name'")
        if modpart.endswith(".py") or "/" in modpart or os.sep in modpart:
            module = _import_file(Path(modpart), spec)
        else:
            module = _import_module(modpart, spec)
            _note_module_source(module)
        return _getattr_path(module, attrs, spec, modpart)
    if spec.endswith(".py") or "/" in spec or os.sep in spec:
        raise UsageError(_file_without_name(spec))
    parts = spec.split(".")
    if len(parts) < 2:
        raise UsageError(_not_a_builtin(spec))
    last_error: UsageError | None = None
    for cut in range(len(parts) - 1, 0, -1):
        modname = ".".join(parts[:cut])
        try:
            module = _import_module(modname, spec)
        except UsageError as exc:
            if "no module named" not in str(exc):
                raise
            last_error = exc
            continue
        _note_module_source(module)
        return _getattr_path(module, ".".join(parts[cut:]), spec, modname)
    assert last_error is not None
    raise last_error


def _user_attr(obj: Any, attr: str, display: str) -> Any:
    """``getattr(obj, attr, None)``, a guarded step: anything a hostile property raises is a UsageError."""
    return guarded(display, f"reading its {attr!r} attribute failed", getattr, obj, attr, None)


def _profile_of(*objs: Any, display: str = "") -> dict[str, Any]:
    for obj in objs:
        prof = _user_attr(obj, "oipr_profile", display)
        if prof is None:
            continue
        if not isinstance(prof, Mapping):
            raise UsageError(f"evaluator {display}: its oipr_profile must be a dict, got {type(prof).__name__}")
        return dict(prof)
    return {}


def resolve(evaluator: Any, params: Mapping[str, Any] | None = None, *, name: str | None = None) -> Resolved:
    """Resolve ``evaluator`` (+ ``params``) into a :class:`Resolved` callable.

    Parameters
    ----------
    evaluator : str or object
        A specification string (see the module docstring) or the object itself.
    params : mapping, optional
        Parameters for a built-in, a class or a function.
    name : str, optional
        Display name to use instead of the derived one.

    Raises
    ------
    UsageError
        The name does not import, names nothing callable, or the parameters are refused.
    """
    params = dict(params or {})
    if isinstance(evaluator, str):
        spec = evaluator.strip()
        from ...evaluators import NAMES, NUMBER_NAMES, SCORE_NAMES, get

        if spec in NAMES + SCORE_NAMES + NUMBER_NAMES:  # a score evaluator too: a score reference's own row is audited with it
            try:
                inst = get(spec, **params)
            except (TypeError, ValueError) as exc:
                raise UsageError(f"evaluator {spec}: bad parameter: {exc}") from None
            return Resolved(inst, name or spec, dict(getattr(inst, "params", params)), inst, spec,
                            _profile_of(inst, display=spec))
        obj = load_object(spec)
        display = name or spec
    else:
        obj = evaluator
        display = name or _user_attr(obj, "__qualname__", type(obj).__qualname__) or type(obj).__qualname__
        if not isinstance(display, str):
            display = type(obj).__qualname__
    owner = obj
    if inspect.isclass(obj):
        return _resolve_class(obj, params, display)
    if inspect.isroutine(obj) or isinstance(obj, functools.partial):
        fn = functools.partial(obj, **params) if params else obj
        if params:
            try:
                inspect.signature(obj).bind_partial(None, None, **params)
            except TypeError as exc:
                raise UsageError(f"evaluator {display}: bad parameter: {exc}") from None
            except ValueError:
                pass  # no signature available (builtins): let the call tell
        return Resolved(fn, display, params, obj, None, _profile_of(owner, display=display), state_digest(obj))
    if params:
        raise UsageError(f"evaluator {display}: parameters can only be given to a class or a function, not to an instance")
    fn = _callable_of(obj, display)
    in_force = _user_attr(obj, "params", display)
    in_force = dict(in_force) if isinstance(in_force, Mapping) else {}
    return Resolved(fn, display, in_force, obj, None, _profile_of(obj, type(obj), display=display), state_digest(obj))


def _resolve_class(cls: type, params: dict[str, Any], display: str) -> Resolved:
    """Instantiate ``cls(**params)``; anything its ``__init__`` raises (SystemExit too) is a UsageError."""
    inst = guarded(display, f"cannot instantiate {cls.__qualname__}({_kw(params)})", lambda: cls(**params))
    fn = _callable_of(inst, display)
    in_force = _user_attr(inst, "params", display)
    in_force = dict(in_force) if isinstance(in_force, Mapping) else params
    return Resolved(fn, display, in_force, inst, None, _profile_of(inst, cls, display=display))


def _kw(params: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in params.items())


def _callable_of(obj: Any, display: str) -> Callable[[Any, Any], Any]:
    if callable(obj):
        return obj
    method = _user_attr(obj, "evaluate", display)
    if callable(method):
        return method
    raise UsageError(f"evaluator {display}: {type(obj).__name__} object is not callable and has no evaluate method")


# --------------------------------------------------------------------------- hints for misspelt names
def _file_without_name(spec: str) -> str:
    """The message for a file given without ``:NAME``: suggest ``file.py:NAME`` with the file's callables."""
    path = Path(spec)
    if not path.is_file() and not spec.endswith(".py"):
        return _not_a_builtin(spec)  # "rp/rr": a misspelt built-in rather than a path
    if not path.is_file():
        return f"evaluator {spec!r}: no such file {spec!r} (a file is given as path/to/file.py:NAME)"
    try:
        names = public_callables(_import_file(path, spec))
    except UsageError as exc:
        return f"{exc} (a file is given as {spec}:NAME)"
    if not names:
        return f"evaluator {spec!r}: name the evaluator in the file as {spec}:NAME; {spec} defines no public function or class"
    return (f"evaluator {spec!r}: name the evaluator in the file: did you mean {spec}:{names[0]}? "
            f"(public callables in {spec}: {', '.join(names)})")


def public_callables(module: Any) -> list[str]:
    """Names of the public functions and classes ``module`` defines itself, in definition order."""
    own = [name for name, obj in vars(module).items()
           if not name.startswith("_") and (inspect.isfunction(obj) or inspect.isclass(obj))
           and getattr(obj, "__module__", None) == module.__name__]
    return own


def _not_a_builtin(spec: str) -> str:
    """The message for a single word that is no built-in: list them and suggest the closest."""
    import difflib

    from ...evaluators import NAMES, NUMBER_NAMES, SCORE_NAMES

    if Path(f"{spec}.py").is_file():
        return _file_without_name(f"{spec}.py")
    folded = {name.casefold(): name for name in NAMES + SCORE_NAMES + NUMBER_NAMES}
    close = difflib.get_close_matches(spec.casefold(), list(folded), n=1, cutoff=0.6)
    hint = f"did you mean {folded[close[0]]}? " if close else ""
    return (f"evaluator {spec!r} is not a built-in evaluator: {hint}built-in evaluators are {', '.join(NAMES)} (0/1 "
            f"predictions), {', '.join(SCORE_NAMES)} (scores) and {', '.join(NUMBER_NAMES)} (0/1 predictions, one number); your own evaluator is given as pkg.module:NAME or path/to/file.py:NAME")
