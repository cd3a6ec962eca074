"""The package layout: data flows one way through the layers, and no module imports in a circle.

The layers are listed in :data:`LAYERS` (docs/architecture.md explains them). A module may import
its own layer's modules and any lower layer, never a higher one; the two front ends never import each
other. Every ``import`` counts: the lazy ones inside functions and the type-only ones under
``if TYPE_CHECKING:`` too. The package's own ``__init__`` (the public ``audit`` facade) is outside the
layers.

Inside a layer, a package split into sub-packages ("rooms") orders them the same way (:data:`ROOMS`):
a module may import its own room and any lower room of its package, never a higher one. No package
holds more than :data:`MAX_MODULES` modules of its own.
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
    "realdata": 6,
    "reports": 7,
    "atlas": 8,
    "pytest_plugin": 9,
    "cli": 9,
}
#: Packages of the same layer that still may not import each other.
PEERS_APART = {frozenset({"pytest_plugin", "cli"}), frozenset({"plots", "realdata"})}
OUTSIDE = {"__init__", "__main__"}
#: Rooms of the packages split into sub-packages, lowest first; "" is the package's own level.
ROOMS: dict[str, dict[str, int]] = {
    "evaluators": {"kernels": 1, "": 2, "scores": 3, "oracles": 4},
    "auditing": {"calling": 1, "table5": 2, "": 3, "properties": 4, "regression": 5, "profile": 6},
    "atlas": {"adapters": 1, "running": 2, "realdata": 3, "": 4, "disagreements": 5, "compare": 6, "site": 7},
}
#: Modules a package may hold of its own (its ``__init__`` and sub-packages not counted).
MAX_MODULES = 12


def module_name(path: Path, root: Path = PACKAGE) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(["oipr_bench", *parts])


def imports_of(source: str, module: str, is_package: bool, known: set[str]) -> set[str]:
    """The oipr_bench modules ``module`` imports (every import: lazy and type-only ones included)."""
    tree = ast.parse(source)
    here = module.split(".") if is_package else module.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
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
    paths = list(root.rglob("*.py"))
    names = {module_name(p, root): p for p in paths}
    known = set(names)
    return {m: imports_of(p.read_text(encoding="utf-8"), m, p.name == "__init__.py", known) for m, p in names.items()}


def top_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def room_of(module: str) -> tuple[str, str]:
    """(package, room) of a module inside a package with rooms; room "" is the package's own level."""
    parts = module.split(".")
    top = top_of(module)
    if top not in ROOMS or len(parts) < 3:
        return top, ""
    return top, parts[2] if parts[2] in ROOMS[top] else ""


def upward_imports(edges: dict[str, set[str]]) -> list[str]:
    """Every import that goes from a lower layer to a higher one (or between front ends), or from a
    lower room of a package to a higher one."""
    problems = []
    for module, targets in sorted(edges.items()):
        src = top_of(module)
        if src in OUTSIDE:
            continue
        for target in sorted(targets):
            dst = top_of(target)
            if dst == src:
                (package, here), (_, there) = room_of(module), room_of(target)
                if package in ROOMS and here != there and ROOMS[package][there] >= ROOMS[package][here]:
                    problems.append(f"{module} (room {ROOMS[package][here]} of {package}, {here or 'its own level'}) "
                                    f"imports {target} (room {ROOMS[package][there]}, {there or 'its own level'})")
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


def test_the_checker_counts_type_checking_imports_and_allows_downward_ones(tmp_path):
    root = _tree(tmp_path, {
        "__init__.py": "",
        "reports/__init__.py": "",
        "reports/html.py": "from ..auditing import results\n",
        "auditing/__init__.py": "",
        "auditing/results.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..reports import html\n",
    })
    assert upward_imports(graph(root)) == [
        "oipr_bench.auditing.results (layer 5, auditing) imports oipr_bench.reports.html (layer 7, reports)"]
    assert cycles(graph(root)) == [["oipr_bench.auditing.results", "oipr_bench.reports.html"]]
    del_type_only = _tree(tmp_path / "b", {
        "__init__.py": "", "reports/__init__.py": "", "reports/html.py": "from ..auditing import results\n",
        "auditing/__init__.py": "", "auditing/results.py": "x = 1\n"})
    assert upward_imports(graph(del_type_only)) == [] and cycles(graph(del_type_only)) == []


def test_the_checker_catches_a_lazy_type_only_circle_inside_one_room(tmp_path):
    root = _tree(tmp_path, {
        "__init__.py": "", "auditing/__init__.py": "", "auditing/profile/__init__.py": "",
        "auditing/profile/results.py": "def f():\n    from .render import render\n",
        "auditing/profile/render.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .results import Profile\n",
    })
    assert upward_imports(graph(root)) == []
    assert cycles(graph(root)) == [["oipr_bench.auditing.profile.render", "oipr_bench.auditing.profile.results"]]


@pytest.mark.parametrize("importer, line, expected", [
    ("auditing/calling/runner.py", "from ..table5 import readings\n",
     "oipr_bench.auditing.calling.runner (room 1 of auditing, calling) imports oipr_bench.auditing.table5.readings (room 2, table5)"),
    ("auditing/options.py", "def f():\n    from .profile import profiles\n",
     "oipr_bench.auditing.options (room 3 of auditing, its own level) imports oipr_bench.auditing.profile.profiles (room 6, profile)"),
    ("evaluators/kernels/oipr.py", "from .. import score\n",
     "oipr_bench.evaluators.kernels.oipr (room 1 of evaluators, kernels) imports oipr_bench.evaluators.score (room 2, its own level)"),
    ("atlas/adapters/prts.py", "from ..disagreements import groups\n",
     "oipr_bench.atlas.adapters.prts (room 1 of atlas, adapters) imports oipr_bench.atlas.disagreements.groups (room 5, disagreements)"),
])
def test_the_checker_catches_an_import_into_a_higher_room(tmp_path, importer, line, expected):
    files = {"__init__.py": "", "auditing/__init__.py": "", "evaluators/__init__.py": "", "atlas/__init__.py": "",
             "auditing/calling/__init__.py": "", "auditing/table5/__init__.py": "", "auditing/table5/readings.py": "",
             "auditing/profile/__init__.py": "", "auditing/profile/profiles.py": "", "evaluators/score.py": "",
             "evaluators/kernels/__init__.py": "", "atlas/adapters/__init__.py": "",
             "atlas/disagreements/__init__.py": "", "atlas/disagreements/groups.py": ""}
    files[importer] = line
    assert upward_imports(graph(_tree(tmp_path, files))) == [expected]


def test_a_lower_room_may_be_imported_from_a_higher_one(tmp_path):
    root = _tree(tmp_path, {
        "__init__.py": "", "auditing/__init__.py": "", "auditing/calling/__init__.py": "",
        "auditing/calling/runner.py": "", "auditing/profile/__init__.py": "",
        "auditing/profile/profiles.py": "from ..calling import runner\nfrom .. import options\n",
        "auditing/options.py": "from .calling.runner import x\n",
    })
    assert upward_imports(graph(root)) == []


def test_every_sub_package_of_a_package_with_rooms_has_a_room():
    for package, rooms in ROOMS.items():
        found = {p.name for p in (PACKAGE / package).iterdir() if (p / "__init__.py").exists()}
        assert found == set(rooms) - {""}, f"{package}: sub-packages {sorted(found)} vs rooms {sorted(rooms)}"


def test_no_package_holds_more_than_twelve_modules_of_its_own():
    for folder in [PACKAGE, *(p for p in PACKAGE.rglob("*") if (p / "__init__.py").exists())]:
        own = [p for p in folder.glob("*.py") if p.name != "__init__.py"]
        limit = 9 if folder == PACKAGE else MAX_MODULES
        assert len(own) <= limit, f"{folder.relative_to(PACKAGE.parent)} holds {len(own)} modules: split it into rooms"


def test_every_room_says_what_it_may_import():
    for package, rooms in ROOMS.items():
        for room, rank in rooms.items():
            if room:
                doc = ast.get_docstring(ast.parse((PACKAGE / package / room / "__init__.py").read_text(encoding="utf-8"))) or ""
                assert f"Room {rank} of" in doc and "may import" in doc, f"oipr_bench/{package}/{room}/__init__.py"


@pytest.mark.parametrize("importer, line", [
    ("cli/run.py", "from ..pytest_plugin import plugin\n"),
    ("evaluators/x.py", "from .. import audit\n"),
])
def test_the_checker_catches_front_ends_and_the_facade(tmp_path, importer, line):
    root = _tree(tmp_path, {"__init__.py": "", "cli/__init__.py": "", "pytest_plugin/__init__.py": "",
                            "pytest_plugin/plugin.py": "", "evaluators/__init__.py": "", importer: line})
    assert len(upward_imports(graph(root))) == 1


# The 0.2 module paths were kept for one release (0.3) and are gone in 0.4, as announced.


@pytest.mark.parametrize("old", ["runner", "plugin", "results", "readings", "oracles"])
def test_the_0_2_module_paths_are_gone(old):
    import importlib

    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(f"oipr_bench.{old}")
    assert not (PACKAGE / "_legacy").exists()


def test_the_old_reference_module_names_still_work_on_the_package():
    from oipr_bench import reference

    for name in ("reference_values", "compute_score", "write_reference", "check_reference", "ReferenceValue", "SCORE_FILES"):
        assert hasattr(reference, name), name
