"""The code's shape: layers point down, no import circles, modules stay small.

Read from the source with :mod:`ast` (nothing is imported), so the test sees lazy imports inside
functions as well as the ones at the top of a module, and type-only imports (under ``if TYPE_CHECKING:``):
all of them are edges of the import graph (docs/architecture.md, "Layers", says how a circle is broken).
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "companion"

#: Packages below the command line: they never import from ``companion.cli`` or ``companion.shell``.
LOWER = ("dice", "engine", "session", "store", "log", "sim")


def _modules() -> dict[str, Path]:
    found = {}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """The companion modules ``name`` imports: ``from pkg import sub`` counts as ``pkg.sub`` when sub is
    a module (as import-linter and pylint read it), else as ``pkg``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    # Every import counts, ``if TYPE_CHECKING:`` ones too: a type-only import is still a dependency.
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                out.add(sub if sub in MODULES else module)
    return {m for m in out if m in MODULES and m != name}


@functools.cache
def graph() -> dict[str, set[str]]:
    """Every companion module and the companion modules it imports: read once, when a test asks (not
    while the suite is collected, in every worker)."""
    return {name: _imports(name, path) for name, path in MODULES.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
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
    return found


@pytest.mark.parametrize("package", LOWER)
def test_the_lower_layers_import_nothing_from_the_command_line(package):
    upward = sorted(
        f"{name} imports {target}"
        for name, targets in graph().items()
        if name == f"companion.{package}" or name.startswith(f"companion.{package}.")
        for target in targets
        if target.startswith(("companion.cli", "companion.shell"))
    )
    assert upward == []


#: Circles that another part of issue 32 breaks, each named exactly (its modules, sorted), with the work
#: that breaks it. The list only shrinks: a circle that is gone (or that changed its modules) fails
#: ``test_the_circles_left_to_others_still_exist`` until its line is removed; a new circle fails below.
LEFT_TO_OTHERS: dict[tuple[str, ...], str] = {
    # none left: the contract moved GameSpec below session/ (companion/contract/)
}


def test_the_session_layer_imports_nothing_from_the_games():
    """A game is loaded by name through companion/contract/registry.py (a table of module paths), and
    the contract sits below the session: session/ imports nothing from games/, and the contract
    nothing from either (type-only imports counted)."""
    below = {"companion.session": ("companion.games",), "companion.contract": ("companion.games", "companion.session")}
    found = sorted(
        f"{name} imports {target}"
        for name, targets in graph().items()
        for layer, above in below.items()
        if name.startswith(layer + ".")
        for target in targets
        if target.startswith(above)
    )
    assert found == []
    assert "companion.contract.registry" in graph()["companion.session.service"]  # the reader sees the way in


def test_no_import_circles_among_companion_modules():
    assert [c for c in _cycles(graph()) if tuple(c) not in LEFT_TO_OTHERS] == []


def test_the_circles_left_to_others_still_exist():
    """A listed circle that is broken (or is not this circle any more) is stale: remove its line."""
    found = {tuple(c) for c in _cycles(graph())}
    assert [c for c in LEFT_TO_OTHERS if c not in found] == []


def test_the_cycle_finder_sees_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_the_import_reader_sees_lazy_imports():
    # group.py reads COMMAND_MODULES inside its methods: a lazy import is still an edge.
    assert "companion.cli.registry" in graph()["companion.cli.group"]
    assert "companion.cli.kit" in graph()["companion.cli.session_cmds"]


def test_the_import_reader_sees_type_only_imports(tmp_path):
    source = tmp_path / "typed.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from companion.session.state import State\n"
        "    from companion.dice import roll\n",
        encoding="utf-8",
    )
    assert _imports("companion.typed", source) == {"companion.session.state", "companion.dice.roll"}


#: The most lines a module under companion/ may have (docs/architecture.md: "Modules stay small").
MAX_LINES = 600

#: Modules still over MAX_LINES, each with its size today: it may shrink, not grow. Lower a number when
#: its module shrinks; remove the line when the module is split (a stale line fails below).
ALLOWED_OVER: dict[str, int] = {
    # none now; a module over the limit while it is being split goes here with its size, commented
}


def _sizes() -> dict[str, int]:
    return {str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines()) for p in ROOT.rglob("*.py")}


def _too_big(sizes: dict[str, int], limit: int, allowed: dict[str, int]) -> dict[str, int]:
    return {name: n for name, n in sorted(sizes.items()) if n > allowed.get(name, limit)}


def test_modules_stay_small():
    """Every module under companion/ (commands, shell, games, the lower layers) stays under MAX_LINES."""
    assert _too_big(_sizes(), MAX_LINES, ALLOWED_OVER) == {}


def test_the_allowances_are_still_needed():
    """An allowance for a module that no longer exists or is back under the limit is stale: drop it."""
    sizes = _sizes()
    stale = {name: sizes.get(name) for name in ALLOWED_OVER if sizes.get(name, 0) <= MAX_LINES}
    assert stale == {}


def test_the_size_check_sees_a_big_module():
    """Guard for the check above: it reads every module, and a limit a module breaks is caught."""
    sizes = _sizes()
    assert "games/dark_tower/rules/fights.py" in sizes and "dice/roll.py" in sizes  # games and lower layers
    biggest = max(sizes, key=lambda name: sizes[name])
    assert biggest in _too_big(sizes, sizes[biggest] - 1, {})
    assert biggest not in _too_big(sizes, sizes[biggest] - 1, {biggest: sizes[biggest]})
