"""The package keeps the shape its style rules ask for.

- no module outside ``evaluators/`` over :data:`MAX_MODULE_LINES` lines;
- no function or method over :data:`MAX_FUNCTION_LINES` lines;
- no module imports another module's private names (``from .x import _y``)
  or reaches into them (``reference._dir``, ``state.session._case_results``).

Measured with the ``ast`` module: a function's length runs from its ``def``
(decorators included) to its last line, not counting its docstring.
"""

from __future__ import annotations

import ast
from pathlib import Path

import oipr_bench

PACKAGE = Path(oipr_bench.__file__).parent
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60

#: Temporary exceptions, each with the reason; empty this as modules are split.
MODULE_EXCEPTIONS: dict[str, str] = {}
FUNCTION_EXCEPTIONS: dict[str, str] = {}


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _rel(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


def test_no_module_outside_evaluators_is_too_long():
    too_long = []
    for path in _modules():
        rel = _rel(path)
        if rel.startswith("evaluators/") or rel in MODULE_EXCEPTIONS:
            continue
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > MAX_MODULE_LINES:
            too_long.append(f"{rel}: {n} lines")
    assert not too_long, f"modules over {MAX_MODULE_LINES} lines:\n" + "\n".join(too_long)


def test_no_function_is_too_long():
    too_long = []
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                n = node.end_lineno - start + 1  # type: ignore[operator]
                first = node.body[0]
                if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                    n -= first.end_lineno - first.lineno + 1  # type: ignore[operator]
                where = f"{_rel(path)}:{node.name}"
                if n > MAX_FUNCTION_LINES and where not in FUNCTION_EXCEPTIONS:
                    too_long.append(f"{where} (line {node.lineno}): {n} lines")
    assert not too_long, f"functions over {MAX_FUNCTION_LINES} lines:\n" + "\n".join(too_long)


def _package_of(path: Path) -> str:
    """``"evaluators"`` for ``evaluators/oipr.py``, ``""`` for a top-level module."""
    rel = _rel(path)
    return rel.rsplit("/", 1)[0] if "/" in rel else ""


def _is_ours(path: Path, node: ast.ImportFrom) -> bool:
    return node.level > 0 or (node.module or "").split(".")[0] == "oipr_bench"


#: The public API of a named tuple, underscored only to avoid clashing with field names.
NAMEDTUPLE_API = {"_fields", "_replace", "_asdict", "_make", "_field_defaults"}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in NAMEDTUPLE_API


def test_no_module_reaches_into_private_names_of_another():
    offenders = []
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules = set()  # names bound to oipr_bench modules in this file
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and _is_ours(path, node):
                names = [a.name for a in node.names if _private(a.name)]
                if names:
                    offenders.append(f"{_rel(path)}:{node.lineno}: imports {', '.join(names)}")
                modules.update(a.asname or a.name for a in node.names)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _private(node.attr) and isinstance(node.value, ast.Name):
                if node.value.id in modules:
                    offenders.append(f"{_rel(path)}:{node.lineno}: uses {node.value.id}.{node.attr}")
            if isinstance(node, ast.Attribute) and _private(node.attr) and isinstance(node.value, ast.Attribute):
                offenders.append(f"{_rel(path)}:{node.lineno}: uses {ast.unparse(node)}")
    assert not offenders, "private names used across modules:\n" + "\n".join(offenders)
