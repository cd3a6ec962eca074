"""Where a named evaluator's code lives, and whether a file the user did not write may name it.

A report is data; ``oipr-bench verify`` runs the code it names.  :class:`CodeFolders` is the rule for
such a name: its code must lie in the given folders (the report's folder, the working directory,
oipr-bench's own package), found without running anything (:func:`spec_location`), and every object
reached on the way to the evaluator (the module, each attribute of the name) must have its code there
too (:func:`code_file`), checked before the next attribute is looked up and before anything is
constructed or called.  A module built or frozen into the interpreter (``io``, ``_io``, ``os``,
``posix``, ``codecs``, ...) has no file in any folder: it is "elsewhere" like any other.  A built-in
evaluator name (``OIPR``, ``AUC-ROC``) needs no check.
"""

from __future__ import annotations

import importlib.util
import inspect
import os
import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

__all__ = ["INTERPRETER", "spec_location", "code_file", "CodeFolders"]

#: What a refusal says of code with no file: a module built or frozen into the interpreter, a C function.
INTERPRETER = "built into the Python interpreter"

_NO_FILE_ORIGINS = ("built-in", "frozen")


def spec_location(spec: str) -> Path | str | None:
    """Where the code of evaluator ``spec`` lives, found without importing it.

    ``file.py:Name``: the file.  ``pkg.mod:Name`` / ``pkg.mod.Name``: the top-level package's folder
    or module file, as the import system would find it (``importlib.util.find_spec`` of a top-level
    name runs none of its code), else the current folder's ``pkg``/``pkg.py`` (the resolver's
    fallback).  A module built or frozen into the interpreter gives :data:`INTERPRETER`.  None for a
    built-in evaluator, or a spec naming nothing findable (resolving it then fails without importing).
    """
    from ...evaluators import NAMES, SCORE_NAMES

    spec = spec.strip()
    if spec in NAMES + SCORE_NAMES:
        return None
    modpart = spec.rpartition(":")[0] if ":" in spec else spec
    if modpart.endswith(".py") or "/" in modpart or os.sep in modpart:
        return Path(modpart).resolve()
    top = modpart.split(".")[0]
    if not top.isidentifier():
        return None
    try:
        found = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        found = None
    if found is not None:
        if found.submodule_search_locations:
            return Path(list(found.submodule_search_locations)[0]).resolve()
        if found.origin in _NO_FILE_ORIGINS or not found.origin:
            return INTERPRETER
        return Path(found.origin).resolve()
    for candidate in (Path.cwd() / top, Path.cwd() / f"{top}.py"):
        if candidate.exists():
            return candidate.resolve()
    return None


def _real_file(name: Any) -> Path | None:
    """``name`` as a resolved path when it names a file on disk (``<frozen os>``, ``<string>``: None)."""
    if not isinstance(name, str) or not name or name.startswith("<"):
        return None
    path = Path(name).resolve()
    return path if path.is_file() else None


def _module_file(module: Any) -> Path | None:
    """The file of a module object (None: built or frozen into the interpreter, or no file)."""
    if not isinstance(module, types.ModuleType):
        return None
    spec = module.__dict__.get("__spec__")
    if getattr(spec, "origin", None) in _NO_FILE_ORIGINS:
        return None
    return _real_file(module.__dict__.get("__file__"))


def _module_name(cls: type) -> str:
    """The name of the module defining ``cls`` (a C type's from its name: ``_io`` for ``io.FileIO``), read statically."""
    name = cls.__dict__.get("__module__")
    if not isinstance(name, str):
        try:
            name = type.__getattribute__(cls, "__module__")
        except AttributeError:
            name = ""
    return name if isinstance(name, str) else ""


def code_file(obj: Any) -> Path | None:
    """The file holding the code that runs when ``obj`` is constructed or called (None: no file).

    Looked up statically (no attribute of ``obj`` runs code): a module's file; a class's module's
    file; a function's code file; a partial's or a bound method's function; a wrapper's (``__wrapped__``
    of a C wrapper such as ``functools.lru_cache``) wrapped function; any other object its class's.
    C functions and classes, and modules built or frozen into the interpreter, have no file.
    """
    for _ in range(64):  # partials of partials: bounded, never a loop
        if isinstance(obj, types.ModuleType):
            return _module_file(obj)
        if isinstance(obj, type):
            return _module_file(sys.modules.get(_module_name(obj)))
        if isinstance(obj, types.FunctionType):
            return _real_file(obj.__code__.co_filename)
        if isinstance(obj, types.MethodType):
            obj = obj.__func__
            continue
        if type(obj).__module__ == "functools" and type(obj).__name__ == "partial":
            obj = obj.func
            continue
        wrapped = inspect.getattr_static(obj, "__wrapped__", None)
        if wrapped is not None and not isinstance(obj, types.FunctionType) and code_file(type(obj)) is None:
            obj = wrapped  # a C wrapper (lru_cache) of a function: the function is the code that runs
            continue
        if inspect.isroutine(obj):
            return None  # a C function or method
        obj = type(obj)
    return None


def label(obj: Any) -> str:
    """How a refusal names ``obj``: ``the module io``, ``shutil.rmtree``, ``an instance of pathlib.Path``."""
    if isinstance(obj, types.ModuleType):
        return f"the module {obj.__dict__.get('__name__', '?')}"
    target = obj if isinstance(obj, type) or inspect.isroutine(obj) else type(obj)
    named = f"{getattr(target, '__module__', None) or '?'}.{getattr(target, '__qualname__', None) or '?'}"
    return named if target is obj else f"an instance of {named}"


@dataclass(frozen=True)
class CodeFolders:
    """The folders code named by a file the user did not write may come from, and how to refuse the rest.

    Attributes
    ----------
    folders : tuple of Path
        Resolved folders; code inside any of them is allowed.
    refusal : callable
        ``refusal(spec, whose)`` -> the one-line message (``whose``: ``"whose code is at /x/y.py"``,
        ``"which is the module io, built into the Python interpreter"``).
    """

    folders: tuple[Path, ...]
    refusal: Callable[[str, str], str]

    def allows(self, path: Path | str | None) -> bool:
        """True when ``path`` lies inside one of the folders (no path: never)."""
        if not isinstance(path, Path):
            return False
        return any(path == folder or folder in path.parents for folder in self.folders)

    def check_spec(self, spec: str) -> Path | None:
        """Refuse ``spec`` before anything of it is imported; return where its code is (None: a built-in).

        Raises
        ------
        UsageError
            Its code lies elsewhere, or is built into the interpreter.
        """
        from ...errors import UsageError

        where = spec_location(spec)
        if where is None:
            return None
        if where == INTERPRETER:
            top = (spec.rpartition(":")[0] if ":" in spec else spec).split(".")[0]
            raise UsageError(self.refusal(spec, f"whose code is {INTERPRETER} (the module {top})"))
        if not self.allows(where):
            raise UsageError(self.refusal(spec, f"whose code is at {where}"))
        return where  # type: ignore[return-value]

    def check_object(self, spec: str, obj: Any) -> None:
        """Refuse ``obj`` (reached by ``spec``) before it is constructed, called or looked into.

        Raises
        ------
        UsageError
            Its code lies elsewhere, or is built into the interpreter.
        """
        from ...errors import UsageError

        where = code_file(obj)
        if where is None:
            raise UsageError(self.refusal(spec, f"which is {label(obj)}, {INTERPRETER}"))
        if not self.allows(where):
            raise UsageError(self.refusal(spec, f"which is {label(obj)}, whose code is at {where}"))
