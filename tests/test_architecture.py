"""The package layout: data flows one way through the layers, and no module imports in a circle.

The layers are listed in :data:`LAYERS` (docs/architecture.md explains them). A module may import
its own layer's modules and any lower layer, never a higher one; the two front ends never import each
other. Every ``import`` counts, also the lazy ones inside functions; only imports under
``if TYPE_CHECKING:`` (annotations) are exempt. ``oipr_bench/_legacy`` (the 0.2 module paths kept for
one release) and the package's own ``__init__`` (the public ``audit`` facade) are outside the layers.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

import oipr_bench

PACKAGE = Path(oipr_bench.__file__).resolve().parent

#: Layer of each top-level module or subpackage, lowest first.
LAYERS: dict[str, int] = {
    "_version": 0, "_paths": 0, "errors": 0, "vocabulary": 0, "io": 0, "guards": 0, "jsondata": 0,
    "scenarios": 1,
    "evaluators": 2,
    "testing": 3,
    "reference": 4,
    "auditing": 5,
    "plots": 6,
    "reports": 7,
    "atlas": 8,
    "pytest_plugin": 9,
    "cli": 9,
}
#: Packages of the same layer that still may not import each other.
PEERS_APART = {frozenset({"pytest_plugin", "cli"})}
OUTSIDE = {"__init__", "__main__", "_legacy"}


def module_name(path: Path, root: Path = PACKAGE) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(["oipr_bench", *parts])


def _type_checking_lines(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                lines.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    return lines


def imports_of(source: str, module: str, is_package: bool, known: set[str]) -> set[str]:
    """The oipr_bench modules ``module`` imports (runtime imports only, lazy ones included)."""
    tree = ast.parse(source)
    skip = _type_checking_lines(tree)
    here = module.split(".") if is_package else module.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in skip:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "oipr_bench")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)] + ([node.module] if node.module else [])
            elif node.module and node.module.split(".")[0] == "oipr_bench":
                base = node.module.split(".")
            else:
                continue
            base_name = ".".join(base)
            for alias in node.names:
                sub = f"{base_name}.{alias.name}"
                found.add(sub if sub in known else base_name)
    found.discard(module)
    return found


def graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    paths = [p for p in root.rglob("*.py") if "_legacy" not in p.relative_to(root).parts]
    names = {module_name(p, root): p for p in paths}
    known = set(names)
    return {m: imports_of(p.read_text(encoding="utf-8"), m, p.name == "__init__.py", known) for m, p in names.items()}


def top_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def upward_imports(edges: dict[str, set[str]]) -> list[str]:
    """Every import that goes from a lower layer to a higher one (or between front ends)."""
    problems = []
    for module, targets in sorted(edges.items()):
        src = top_of(module)
        if src in OUTSIDE:
            continue
        for target in sorted(targets):
            dst = top_of(target)
            if dst == src:
                continue
            if dst == "__init__":
                problems.append(f"{module} imports the package facade oipr_bench itself; import the module that defines the name")
            elif dst in OUTSIDE:
                problems.append(f"{module} imports {target}, which is outside the layers")
            elif LAYERS[dst] > LAYERS[src] or frozenset({src, dst}) in PEERS_APART:
                problems.append(f"{module} (layer {LAYERS[src]}, {src}) imports {target} (layer {LAYERS[dst]}, {dst})")
    return problems


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (import circles), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in edges:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_every_top_level_name_has_a_layer():
    tops = {p.stem for p in PACKAGE.glob("*.py")} | {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    assert tops - OUTSIDE == set(LAYERS), "a new top-level module or package needs a layer in LAYERS and docs/architecture.md"


def test_at_most_nine_top_level_modules():
    modules = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(modules) <= 9, f"new code belongs in the subpackage of its layer, not at the top: {modules}"


def test_imports_flow_one_way():
    problems = upward_imports(graph())
    assert not problems, "imports against the layer order:\n" + "\n".join(problems)


def test_no_import_circles():
    found = cycles(graph())
    assert not found, "import circles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_every_subpackage_says_its_layer():
    for name, layer in LAYERS.items():
        init = PACKAGE / name / "__init__.py"
        if init.exists():
            doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
            assert f"Layer {layer} of 9" in doc, f"oipr_bench/{name}/__init__.py must say 'Layer {layer} of 9' and what it may import"


# The checker itself: an upward import and a circle, planted in a copy-shaped tree, are caught.


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "oipr_bench"
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def test_the_checker_catches_an_upward_import(tmp_path):
    root = _tree(tmp_path, {
        "__init__.py": "",
        "scenarios/__init__.py": "",
        "scenarios/loader.py": "def load():\n    from ..auditing.runner import Caller\n",
        "auditing/__init__.py": "",
        "auditing/runner.py": "from ..scenarios import loader\nclass Caller: ...\n",
    })
    problems = upward_imports(graph(root))
    assert problems == ["oipr_bench.scenarios.loader (layer 1, scenarios) imports oipr_bench.auditing.runner (layer 5, auditing)"]
    assert cycles(graph(root)) == [["oipr_bench.auditing.runner", "oipr_bench.scenarios.loader"]]


def test_the_checker_ignores_type_checking_imports_and_allows_downward_ones(tmp_path):
    root = _tree(tmp_path, {
        "__init__.py": "",
        "reports/__init__.py": "",
        "reports/html.py": "from ..auditing import results\n",
        "auditing/__init__.py": "",
        "auditing/results.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..reports import html\n",
    })
    assert upward_imports(graph(root)) == []
    assert cycles(graph(root)) == []


@pytest.mark.parametrize("importer, line", [
    ("cli/run.py", "from ..pytest_plugin import plugin\n"),
    ("evaluators/x.py", "from .. import audit\n"),
])
def test_the_checker_catches_front_ends_and_the_facade(tmp_path, importer, line):
    root = _tree(tmp_path, {"__init__.py": "", "cli/__init__.py": "", "pytest_plugin/__init__.py": "",
                            "pytest_plugin/plugin.py": "", "evaluators/__init__.py": "", importer: line})
    assert len(upward_imports(graph(root))) == 1


# The 0.2 module paths keep working for one release, with a DeprecationWarning, as the very same module.

LEGACY = sorted(p.stem for p in (PACKAGE / "_legacy").glob("*.py") if p.stem != "__init__")


@pytest.mark.parametrize("old", LEGACY)
def test_an_old_module_path_warns_and_gives_the_new_module(old):
    import importlib
    import sys

    sys.modules.pop(f"oipr_bench.{old}", None)
    with pytest.warns(DeprecationWarning, match=rf"oipr_bench\.{old} is deprecated since oipr-bench 0\.3"):
        module = importlib.import_module(f"oipr_bench.{old}")
    assert module.__name__ != f"oipr_bench.{old}"
    assert module is sys.modules[module.__name__]
    assert top_of(module.__name__) in LAYERS


def test_the_old_paths_cover_every_moved_module():
    moved = {"case_runs", "characteristics", "coerce", "comparison", "declarations", "detectors", "discrimination",
             "events", "expectations", "findings", "html_parts", "html_report", "inputs", "isolation", "options",
             "oracles", "paper", "plugin", "plugin_items", "profiles", "property_search", "readings",
             "reference_files", "render", "reproduce", "resolve", "results", "rules", "runner", "sanity", "score",
             "strategies", "userdata"}
    assert set(LEGACY) == moved


def test_the_old_reference_module_names_still_work_on_the_package():
    from oipr_bench import reference

    for name in ("reference_values", "compute_score", "write_reference", "check_reference", "ReferenceValue", "SCORE_FILES"):
        assert hasattr(reference, name), name
