"""No import circle in ``fixtures/`` or ``reports/`` (issue 33).

The graph is read from the source with ``ast``: every import counts, at module level or inside a
function (a function-level import only hides a circle, it does not break it); an import under
``if TYPE_CHECKING:`` does not, since it never runs. A circle is a strongly connected component
of more than one module; the test names each one.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CHECKED_ROOMS = ("fixtures", "reports")


def module_name(path: Path, root: Path) -> str:
    """``fixtures/tasks/catalog.py`` → ``fixtures.tasks.catalog``; ``__init__`` is its package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking_guard(node: ast.If) -> bool:
    test = node.test
    return ((isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
            or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


def _imports_that_run(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement outside an ``if TYPE_CHECKING:`` body (its ``else`` still runs)."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        if isinstance(node, ast.If) and _is_type_checking_guard(node):
            for child in node.orelse:
                visit(child)
            return
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _absolute_base(node: ast.ImportFrom, importer: str, is_package: bool) -> str:
    if node.level == 0:
        return node.module or ""
    package = importer.split(".") if is_package else importer.split(".")[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def import_graph(root: Path, rooms: tuple[str, ...] = CHECKED_ROOMS) -> dict[str, set[str]]:
    """Module → the project modules (of ``rooms``) it imports."""
    paths = sorted(p for room in rooms for p in (root / room).rglob("*.py"))
    modules = {module_name(p, root): p for p in paths}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        for node in _imports_that_run(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = _absolute_base(node, name, is_package)
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                           for a in node.names]
            graph[name] |= {t for t in targets if t in modules and t != name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def _write(root: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_checker_finds_a_circle_hidden_in_a_function(tmp_path):
    _write(tmp_path, {
        "fixtures/__init__.py": "",
        "fixtures/run/__init__.py": "",
        "fixtures/run/runner.py": "from fixtures.run import extractor\n",
        "fixtures/run/extractor.py": "def f():\n    from .runner import ask\n",
        "fixtures/alone.py": "import fixtures.run.runner\n",
    })
    assert circles(import_graph(tmp_path)) == [["fixtures.run.extractor", "fixtures.run.runner"]]


def test_the_checker_ignores_type_checking_imports(tmp_path):
    _write(tmp_path, {
        "reports/__init__.py": "",
        "reports/a.py": "from reports import b\n",
        "reports/b.py": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                         "    from reports.a import x\nelse:\n    pass\n"),
    })
    assert circles(import_graph(tmp_path)) == []


@pytest.mark.parametrize("room", CHECKED_ROOMS)
def test_no_import_circle(room):
    found = [c for c in circles(import_graph(REPO)) if c[0].split(".")[0] == room]
    assert not found, "import circles (break each by moving the shared piece): " + "; ".join(
        " ↔ ".join(c) for c in found)
