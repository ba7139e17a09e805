"""Layers point down, and no module imports itself back through others.

    grader.plugin, grader.__main__      wire the labs and the machinery
      grader.classroom                  class grading around whole grader runs
      grader.labs                       the labs this grader knows (found, never named)
      grader.<lab>                      one package per lab: its facts, scenarios, checks, and
                                        its reference (solutions, a checkout's)
        grader core                     catalogue, config, verdict, report, session, scenario
          grader.machinery              processes, snapshots, broker, partner, inotify ...
    fixtures                            pure data builders
    solutions                           the reference answer (imports nothing of ours)

Read from the source (ast), so a lazy import inside a function counts too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from grader.labs import LABS

REPO = Path(__file__).resolve().parent.parent
OURS = ("fixtures", "grader", "solutions")
CORE = (
    "grader.catalogue",
    "grader.config",
    "grader.verdict",
    "grader.report",
    "grader.session",
    "grader.scenario",
)

PACKAGES = tuple(lab.package for lab in LABS)
# A module of the first layer may import modules of these prefixes (and its own package).
MAY_IMPORT: dict[str, tuple[str, ...]] = {
    "grader.plugin": ("grader.labs", "grader.classroom", *CORE, "grader.machinery", "fixtures"),
    "grader.__main__": ("grader.labs", "grader.classroom", *CORE, "grader.machinery", "fixtures"),
    "grader.classroom": ("grader.classroom", "grader.labs", *CORE, "grader.machinery", "fixtures"),
    "grader.labs": ("grader.catalogue",),  # and each lab's package, found at run time
    **{pkg: (pkg, *CORE, "grader.machinery", "fixtures") for pkg in PACKAGES},
    **{core: (*CORE, "grader.machinery", "fixtures") for core in CORE},
    # The reference (a checkout's alone) comes to the labs through one door.
    "grader.scenario": (*CORE, "grader.machinery", "fixtures", "solutions"),
    "grader.machinery": ("grader.machinery", "fixtures.atomic"),  # atomic writes, no lab data
    "grader": (),
    "fixtures": ("fixtures",),
    "solutions": (),
}


def _module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Our modules that ``path`` imports, anywhere in it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        found |= {n for n in names if n.split(".")[0] in OURS}
    return found


def _graph() -> dict[str, set[str]]:
    modules = {
        _module_name(p): p for top in OURS for p in (REPO / top).rglob("*.py") if "__pycache__" not in p.parts
    }
    graph = {}
    for name, path in modules.items():
        # `from grader.mq import amqp` names a module; `from grader.mq.amqp import x` does not.
        graph[name] = {imp for imp in _imports(path) if imp in modules} - {name}
    return graph


def _layer(module: str) -> str:
    return max((p for p in MAY_IMPORT if module == p or module.startswith(p + ".")), key=len)


GRAPH = _graph()


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_imports_point_down(module: str) -> None:
    allowed = MAY_IMPORT[_layer(module)]
    wrong = sorted(
        imp
        for imp in GRAPH[module]
        if not any(imp == a or imp.startswith(a + ".") for a in allowed)
        and not (module.startswith("solutions.") and imp.startswith("solutions."))
    )
    assert not wrong, f"{module} ({_layer(module)}) must not import {wrong}"


def test_no_import_cycle() -> None:
    """Tarjan's strongly connected components over the whole module graph."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(GRAPH[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(GRAPH):
        if node not in index:
            visit(node)
    assert not cycles, f"import cycles: {cycles}"


def test_the_check_sees_a_cycle() -> None:
    """The graph is read right: a lab's scenarios import its lab, the core its machinery."""
    for lab in LABS:
        assert any(m.startswith(lab.package) for m in GRAPH[lab.scenarios_module] - {lab.scenarios_module})
    assert "grader.machinery.runner" in GRAPH["grader.verdict"]


def _strings(path: Path) -> set[str]:
    return {
        node.value
        for node in ast.walk(ast.parse(path.read_text(), str(path)))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }


@pytest.mark.parametrize("lab", LABS, ids=lambda lab: lab.name)
def test_no_module_outside_a_lab_names_it(lab: object) -> None:
    """The plugin, the class tools, the core and the machinery loop over the labs: a lab's
    name (or its package) written in any of them is a list somebody must keep in step."""
    name, package = getattr(lab, "name"), getattr(lab, "package")  # noqa: B009
    naming = [
        str(path.relative_to(REPO))
        for path in (REPO / "grader").rglob("*.py")
        if not any(path.is_relative_to(REPO / p.replace(".", "/")) for p in PACKAGES)
        and any(text in (name, package) or text.startswith(f"{package}.") for text in _strings(path))
    ]
    assert not naming, f"{naming} name the lab {name!r}"
