"""The layer contract (DESIGN.md), checked on the source: imports point down only, and no two
modules import each other.

Layers, bottom first: the base (``polku``, ``polku.text``, ``polku.tomlread``), ``rules``,
``session``, ``config``, and on top the two front ends, ``tui`` and ``cli`` (the CLI starts
the app, so ``cli`` may import ``tui``; the app never imports the CLI).

Inside ``session`` the same holds for its parts (ARCHITECTURE.md, "Inside session/"), bottom first:
the core (``model``, ``records``, ``host``, ``odds``, ``fairdice``, ``integrity``, ``store``, ``telling``), ``rolls``, ``table``,
``tracker`` (a package: base, sheets, structure), the session's making and opening (``files``, ``copying``, ``demo``, ``importers``), and on
top ``players`` and ``review`` side by side: the review may read the players' projection
(``players.public``, so a players' report is the players' view), nothing else of the players' side,
and the players' side nothing of the review. Above them all ``commands``: the named commands the
front ends ask for (``session/commands.py``), which may reach every part below.

Every import counts, at module level, in an ``if TYPE_CHECKING:`` block (a type checker
follows those, so a circle there is a circle in the design) or inside a function (it only
runs later, to keep a start cheap, but the two modules still depend on each other).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "polku"

BASE = ("polku", "polku.text", "polku.tomlread", "polku.i18n")
LAYERS = {"rules": 1, "session": 2, "config": 3, "tui": 4, "cli": 4, "__main__": 5}
"""``polku.__main__`` (``python -m polku``) is the entry point: it only calls the command line."""
FORBIDDEN_SIDEWAYS = {("tui", "cli")}
"""Same rank, but still upward: the app never imports the command line."""


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _resolve(importer: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = importer.split(".")
    if not MODULES[importer].name == "__init__.py":
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _targets(importer: str, node: ast.AST) -> list[str]:
    """The polku modules an import statement loads (a name that is a submodule counts as it)."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        assert isinstance(node, ast.ImportFrom)
        base = _resolve(importer, node)
        names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
    return [n for n in names if n in MODULES]


def _imports(name: str) -> tuple[set[str], set[str]]:
    """(module-level imports, imports anywhere) of one module."""
    tree = ast.parse(MODULES[name].read_text("utf-8"))
    top: set[str] = set()
    every: set[str] = set()

    def walk(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found = _targets(name, child)
                every.update(found)
                if not in_function:
                    top.update(found)
            walk(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    walk(tree, False)
    top.discard(name)
    every.discard(name)
    return top, every


IMPORTS = {name: _imports(name) for name in MODULES}


SESSION_PARTS = {
    "core": 0, "rolls": 1, "table": 2, "tracker": 3, "opening": 4, "players": 5, "review": 5, "commands": 6,
}
"""The parts of ``polku.session``, bottom first; a part imports only parts below it (or itself)."""
SESSION_PART_OF = {
    "model": "core", "validation": "core", "records": "core", "host": "core", "odds": "core", "fairdice": "core", "integrity": "core", "store": "core",
    "telling": "core",
    "rolls": "rolls", "table": "table", "tracker": "tracker",
    "files": "opening", "copying": "opening", "demo": "opening", "importers": "opening",
    "players": "players", "review": "review", "commands": "commands",
}
"""Each module or subpackage right under ``session/`` and its part: a new one must be placed here."""
SESSION_SIDEWAYS_ALLOWED = {("review", "polku.session.players.public")}
"""Same rank, other part, allowed: the review reads the players' projection (a players' report)."""


def _session_part(name: str) -> tuple[str, int] | None:
    """The part of ``polku.session`` a module belongs to, or None outside it (``polku.session`` itself:
    the core)."""
    parts = name.split(".")
    if parts[:2] != ["polku", "session"]:
        return None
    part = SESSION_PART_OF[parts[2]] if len(parts) > 2 else "core"
    return part, SESSION_PARTS[part]


def _session_walls() -> list[str]:
    """Imports inside ``session`` that point up a part, or sideways into another part of the same rank."""
    out = []
    for importer, (_top, every) in IMPORTS.items():
        here = _session_part(importer)
        if here is None:
            continue
        for target in sorted(every):
            there = _session_part(target)
            if there is None or there[0] == here[0]:
                continue
            if there[1] > here[1] or (there[1] == here[1] and (here[0], target) not in SESSION_SIDEWAYS_ALLOWED):
                out.append(f"{importer} ({here[0]}) imports {target} ({there[0]})")
    return out


def _layer(name: str) -> tuple[str, int]:
    if name in BASE:
        return "base", 0
    part = name.split(".")[1]
    return part, LAYERS[part]


def test_every_module_has_a_layer():
    for name in MODULES:
        _layer(name)  # a KeyError names a module outside every layer


def test_the_parser_sees_the_imports_it_should():
    """Guard the guard: known imports of each kind are found."""
    top, every = IMPORTS["polku.session.tracker"]
    assert "polku.session.rolls" in top and "polku.session.host" in top
    top, every = IMPORTS["polku.cli.common"]
    assert "polku.tui.run" in every and "polku.tui.run" not in top
    top, _ = IMPORTS["polku.session.rolls"]
    assert "polku.session.host" in top  # inside `if TYPE_CHECKING:` as well as at the top


def _upward() -> list[str]:
    out = []
    for importer, (_top, every) in IMPORTS.items():
        layer, rank = _layer(importer)
        for target in sorted(every):
            t_layer, t_rank = _layer(target)
            if t_rank > rank or (layer, t_layer) in FORBIDDEN_SIDEWAYS:
                out.append(f"{importer} ({layer}) imports {target} ({t_layer})")
    return out


def test_nothing_imports_upward():
    assert _upward() == []


def _cycles() -> list[list[str]]:
    graph = {name: sorted(every) for name, (_top, every) in IMPORTS.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def strongconnect(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                strongconnect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in graph:
        if v not in index:
            strongconnect(v)
    return found


def _is_package_init_of(parent: str, child: str) -> bool:
    return MODULES[parent].name == "__init__.py" and child.startswith(parent + ".")


def test_no_import_cycles():
    # A package's __init__ re-exporting its submodules is not a circle: a submodule
    # that imports its siblings never goes through the __init__.
    cycles = [c for c in _cycles()
              if not all(any(_is_package_init_of(p, m) for p in c) or MODULES[m].name == "__init__.py" for m in c)]
    assert cycles == []


@pytest.mark.parametrize("importer, target", [
    ("polku.rules.dice", "polku.session.model"),
    ("polku.session.tracker", "polku.tui.app"),
    ("polku.tui.app", "polku.cli"),
])
def test_an_upward_import_would_be_caught(importer, target, monkeypatch):
    top, every = IMPORTS[importer]
    monkeypatch.setitem(IMPORTS, importer, (top, every | {target}))
    assert any(line.startswith(f"{importer} ") and target in line for line in _upward())


def test_a_circle_would_be_caught(monkeypatch):
    top, every = IMPORTS["polku.session.host"]
    monkeypatch.setitem(IMPORTS, "polku.session.host", (top, every | {"polku.session.tracker"}))
    assert any("polku.session.host" in c and "polku.session.tracker" in c for c in _cycles())


def test_every_session_module_has_a_part():
    for name in MODULES:
        _session_part(name)  # a KeyError names a module or folder of session/ outside every part


def test_session_parts_import_down_only():
    assert _session_walls() == []


@pytest.mark.parametrize("importer, target", [
    ("polku.session.rolls.common", "polku.session.players.seats"),  # rolls never knows the players' side
    ("polku.session.rolls.shadowrun", "polku.session.table.damage"),  # nor the table above it
    ("polku.session.table.combat", "polku.session.tracker"),  # the table sees the tracker through host.py
    ("polku.session.model", "polku.session.rolls.common"),  # the core stands on nothing of session
    ("polku.session.tracker", "polku.session.files"),  # the tracker never opens a file
    ("polku.session.review.export", "polku.session.players.seats"),  # the review: only the projection
    ("polku.session.players.public", "polku.session.review.stats"),  # the players' side: no review
])
def test_a_wall_crossed_inside_session_would_be_caught(importer, target, monkeypatch):
    top, every = IMPORTS[importer]
    monkeypatch.setitem(IMPORTS, importer, (top, every | {target}))
    assert any(line.startswith(f"{importer} ") and target in line for line in _session_walls())


def test_the_review_may_read_the_players_projection():
    assert "polku.session.players.public" in IMPORTS["polku.session.review.export"][1]
    assert not any(line.startswith("polku.session.review.export ") for line in _session_walls())


def _commands_run_outside_the_app() -> list[str]:
    """Calls of ``run_command`` in tui/ outside the app: a screen posts a RunCommand message instead,
    so that every command goes through the one handler (errors in one line, one TrackerChanged)."""
    found = []
    for path in sorted((SRC / "polku" / "tui").rglob("*.py")):
        if path.name == "app.py" and path.parent.name == "tui":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "run_command":
                found.append(f"{path.relative_to(SRC)}:{node.lineno}")
    return found


def test_screens_ask_the_app_for_commands_with_a_message():
    assert _commands_run_outside_the_app() == []
