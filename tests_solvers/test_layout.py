"""The project's shape (issue 15): the top-level rooms exist, no module grows past 400 lines,
no room imports one it may not (``solvers/`` imports nothing of the project; ``reports/`` only
``solvers/``; ``fixtures/`` only ``solvers/``), and families are listed in one registry."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
ROOMS = ("bench", "fixtures", "solvers", "reports", "tests_solvers")
MAX_MODULE_LINES = 400
MAY_IMPORT = {"solvers": set(), "reports": {"solvers"}, "fixtures": {"solvers"}}


def _modules(*rooms: str) -> list[Path]:
    return sorted(p for room in rooms for p in (REPO / room).rglob("*.py"))


def test_the_required_layout_is_there():
    for name in ("conftest.py", "pytest.ini", *ROOMS):
        assert (REPO / name).exists(), name


@pytest.mark.parametrize("room", ROOMS + ("benchmarks",))
def test_no_module_is_over_400_lines(room):
    long = {p.relative_to(REPO).as_posix(): n for p in _modules(room)
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert not long, f"split these by concern: {long}"


def _project_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names & set(ROOMS)


@pytest.mark.parametrize("room", sorted(MAY_IMPORT))
def test_rooms_import_only_what_the_architecture_allows(room):
    allowed = MAY_IMPORT[room] | {room}
    wrong = {p.relative_to(REPO).as_posix(): sorted(found - allowed) for p in _modules(room)
             if (found := _project_imports(p)) - allowed}
    assert not wrong, wrong


def test_bench_modules_carry_no_family_constants():
    """Families claim bench modules by path: no module constant switches the wiring."""
    for path in _modules("bench"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = [t.id for node in tree.body if isinstance(node, ast.Assign)
                     for t in node.targets if isinstance(t, ast.Name)]
        assert not constants, (path.name, constants)
