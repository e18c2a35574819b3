"""The engine's modules import each other in one direction: no loop, none hidden inside a
function. Read from the source (every import statement, wherever it is), not from what
Python happened to load."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "engine"


def engine_imports(folder: Path = ENGINE) -> dict[str, set[str]]:
    """Each engine module (but the package's own ``__init__``) -> the engine modules it
    imports anywhere in its file."""
    modules = {path.stem for path in folder.glob("*.py")} - {"__init__"}
    graph: dict[str, set[str]] = {}
    for name in modules:
        tree = ast.parse((folder / f"{name}.py").read_text(encoding="utf-8"))
        found: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                inside = node.level == 1 or (node.level == 0 and node.module == "engine")
                if node.level == 1 and node.module:  # from .x import y
                    found.add(node.module.split(".")[0])
                elif inside:  # from . import x / from engine import x
                    found.update(alias.name for alias in node.names)
                elif node.level == 0 and node.module and node.module.startswith("engine."):
                    found.add(node.module.split(".")[1])
            elif isinstance(node, ast.Import):
                found.update(alias.name.split(".")[1] for alias in node.names
                             if alias.name.startswith("engine."))
        graph[name] = found & modules
    return graph


def test_the_reader_finds_the_engines_imports():
    graph = engine_imports()
    assert {"strongest", "candidates", "counting", "decision"} <= graph["strategies"]
    assert graph["memory"] == set()


def import_loop(graph: dict[str, set[str]]) -> list[str] | None:
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as error:
        return list(error.args[1])
    return None


def test_the_engine_imports_no_module_that_imports_it_back():
    loop = import_loop(engine_imports())
    assert loop is None, f"import loop in engine/: {' -> '.join(loop or [])}"


def test_an_import_hidden_in_a_function_still_counts(tmp_path):
    (tmp_path / "__init__.py").write_text("from .top import x\n")
    (tmp_path / "top.py").write_text("from .low import y\nx = 1\n")
    (tmp_path / "low.py").write_text("import numpy\n\n\ndef y():\n"
                                     "    from .top import x  # imports this module\n"
                                     "    return x\n")
    graph = engine_imports(tmp_path)
    assert graph == {"top": {"low"}, "low": {"top"}}
    assert set(import_loop(graph) or []) == {"top", "low"}
