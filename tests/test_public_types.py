"""No `Any` in a public signature of session/ (issue 24), except the store's raw TOML edge.

A public function or method is one whose name and every enclosing module and class name do
not start with ``_`` (``__init__`` of a public class counts: it is how the class is built).
Its parameters and return are read with ast; ``Any`` counts wherever it appears in the
annotation, also behind a module-level alias (``Row = dict[str, Any]``) of the same module
or one imported from another polku module.  A caller then sees what a function takes and gives.
The annotated fields of a public class (a dataclass, NamedTuple or TypedDict, also one made by
calling ``TypedDict``/``NamedTuple``) are read the same way: a reader of the value sees them.

Run alone: ``pytest tests/test_public_types.py -n 0``.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"

# The raw edge: TOML or JSON as parsed, before it is validated into typed shapes.  Each entry is
# either a folder under session/ (every module in it) or "module.py:function".
ALLOWED = {
    "store/": "the store reads and writes raw TOML documents; validation into shapes happens above it",
    "files.py:document": "builds the raw TOML document the store writes (tables of any value tomlkit takes)",
}


def _module_name(path: Path, src: Path) -> str:
    rel = path.relative_to(src).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _mentions_any(node: ast.AST | None, aliases: set[str]) -> bool:
    if node is None:
        return False
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            try:
                if _mentions_any(ast.parse(sub.value, mode="eval"), aliases):
                    return True
            except SyntaxError:
                continue
        elif isinstance(sub, ast.Name) and (sub.id == "Any" or sub.id in aliases):
            return True
        elif isinstance(sub, ast.Attribute) and sub.attr == "Any":
            return True
    return False


def _alias_value(stmt: ast.stmt) -> tuple[str, ast.expr] | None:
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
        return stmt.targets[0].id, stmt.value
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
        if isinstance(stmt.annotation, ast.Name) and stmt.annotation.id == "TypeAlias":
            return stmt.target.id, stmt.value
    type_alias = getattr(ast, "TypeAlias", None)  # `type X = ...` (Python 3.12)
    if type_alias is not None and isinstance(stmt, type_alias):
        return stmt.name.id, stmt.value  # type: ignore[attr-defined]
    return None


def _resolve(base: str, level: int, module: str | None, is_package: bool) -> str:
    if level == 0:
        return module or ""
    parts = base.split(".")
    if not is_package:
        parts = parts[:-1]
    parts = parts[: len(parts) - (level - 1)]
    return ".".join(parts + ([module] if module else []))


def _any_aliases(trees: dict[str, tuple[Path, ast.Module]]) -> dict[str, set[str]]:
    """Per module, the names that stand for a type mentioning Any (own aliases and imported ones)."""
    found: dict[str, set[str]] = {name: set() for name in trees}
    changed = True
    while changed:
        changed = False
        for name, (path, tree) in trees.items():
            known = found[name]
            for stmt in tree.body:
                new: set[str] = set()
                got = _alias_value(stmt)
                if got and got[0] not in known and _mentions_any(got[1], known):
                    new.add(got[0])
                if isinstance(stmt, ast.ImportFrom):
                    src = _resolve(name, stmt.level, stmt.module, path.name == "__init__.py")
                    for a in stmt.names:
                        if a.name in found.get(src, set()) and (a.asname or a.name) not in known:
                            new.add(a.asname or a.name)
                if new:
                    known |= new
                    changed = True
    return found


def _signature_mentions_any(fn: ast.FunctionDef | ast.AsyncFunctionDef, aliases: set[str]) -> bool:
    a = fn.args
    params = [*a.posonlyargs, *a.args, *a.kwonlyargs, *([a.vararg] if a.vararg else []),
              *([a.kwarg] if a.kwarg else [])]
    return any(_mentions_any(p.annotation, aliases) for p in params) or _mentions_any(fn.returns, aliases)


def _functional_class(stmt: ast.stmt) -> tuple[str, ast.Call] | None:
    """``(name, call)`` of ``X = TypedDict("X", {...})`` or ``X = NamedTuple("X", [...])``, else None."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
            and isinstance(stmt.value, ast.Call)):
        return None
    fn = stmt.value.func
    called = fn.id if isinstance(fn, ast.Name) else fn.attr if isinstance(fn, ast.Attribute) else ""
    if called not in ("TypedDict", "NamedTuple"):
        return None
    call = ast.Call(func=ast.Name("_"), args=stmt.value.args[1:], keywords=stmt.value.keywords)
    return stmt.targets[0].id, call


def _public(name: str) -> bool:
    return not name.startswith("_")


def _allowed(rel: str, qual: str) -> bool:
    return any(rel.startswith(k) for k in ALLOWED if k.endswith("/")) or f"{rel}:{qual}" in ALLOWED


def public_any(src: Path = SRC) -> list[str]:
    """`file:line qualified.name` of each public signature or public class field under src/polku/session/
    that mentions Any."""
    root = src / "polku" / "session"
    trees: dict[str, tuple[Path, ast.Module]] = {}
    for path in sorted(src.rglob("*.py")):
        trees[_module_name(path, src)] = (path, ast.parse(path.read_text(encoding="utf-8"), str(path)))
    aliases = _any_aliases(trees)
    out: list[str] = []
    for mod, (path, tree) in trees.items():
        if not path.is_relative_to(root):
            continue
        rel = path.relative_to(root).as_posix()
        if any(p.startswith("_") and p != "__init__.py" for p in path.relative_to(root).parts):
            continue

        def walk(body: list[ast.stmt], prefix: str, mod: str = mod, rel: str = rel) -> None:
            for stmt in body:
                if isinstance(stmt, ast.ClassDef) and _public(stmt.name):
                    walk(stmt.body, f"{prefix}{stmt.name}.")
                elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and prefix:
                    # a field of a public class (dataclass, NamedTuple, TypedDict): a reader sees it
                    qual = prefix + stmt.target.id
                    if (_public(stmt.target.id) and _mentions_any(stmt.annotation, aliases[mod])
                            and not _allowed(rel, qual)):
                        out.append(f"{rel}:{stmt.lineno} {qual}")
                elif (named := _functional_class(stmt)) is not None and _public(named[0]):
                    # X = TypedDict("X", {...}) / NamedTuple("X", [...]): its fields are the call's arguments
                    qual = prefix + named[0]
                    if _mentions_any(named[1], aliases[mod]) and not _allowed(rel, qual):
                        out.append(f"{rel}:{stmt.lineno} {qual}")
                elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    public = _public(stmt.name) or (stmt.name == "__init__" and prefix != "")
                    qual = prefix + stmt.name
                    if public and _signature_mentions_any(stmt, aliases[mod]) and not _allowed(rel, qual):
                        out.append(f"{rel}:{stmt.lineno} {qual}")

        walk(tree.body, "")
    return out


def test_no_any_in_a_public_signature_of_session() -> None:
    offenders = public_any()
    assert not offenders, (
        "Any in a public signature of session/ (type it, or narrow raw input from object; "
        "the store's raw edge is listed in ALLOWED):\n  " + "\n  ".join(offenders))


def test_the_check_sees_a_planted_any(tmp_path: Path) -> None:
    planted = {
        "plain.py": "from typing import Any\ndef f(x: dict[str, Any]) -> None: ...\n",
        "ret.py": "import typing\nclass C:\n    def g(self) -> 'list[typing.Any]': ...\n",
        "init.py": "from typing import Any\nclass D:\n    def __init__(self, **kw: Any) -> None: ...\n",
        "alias.py": "from typing import Any\nRow = dict[str, Any]\ndef h(r: Row) -> None: ...\n",
        "imported.py": "from .alias import Row as R\ndef i(*r: R) -> None: ...\n",
        "private.py": "from typing import Any\ndef _p(x: Any) -> None: ...\nclass _Q:\n    def r(self, x: Any) -> None: ...\n",
        "clean.py": "from typing import Any\nx: Any = 1\ndef k(x: dict[str, object]) -> int:\n    y: Any = x\n    return 1\n",
        "store/raw.py": "from typing import Any\ndef load(x: dict[str, Any]) -> None: ...\nclass Raw:\n    x: Any\n",
        "fields.py": ("from dataclasses import dataclass\nfrom typing import Any, NamedTuple, NotRequired, TypedDict\n"
                      "from .alias import Row\n"
                      "@dataclass\nclass E:\n    x: dict[str, Any]\n    _y: Any = None\n    z: int = 0\n"
                      "class N(NamedTuple):\n    r: 'Row | None'\n"
                      "class T(TypedDict):\n    class Inner:\n        w: list[Any]\n    v: NotRequired[list[Any]]\n"
                      "class _P:\n    p: Any\n"
                      "class F:\n    def __init__(self) -> None:\n        self.a: Any = 1\n        b: Any = 2\n"),
        "functional.py": ("import typing\nfrom typing import Any, TypedDict\n"
                          "U = TypedDict('U', {'a': int, 'b': Any}, total=False)\n"
                          "V = typing.NamedTuple('V', [('c', 'dict[str, Any]')])\n"
                          "_W = TypedDict('_W', {'a': Any})\nX = TypedDict('X', {'a': int})\n"),
    }
    fake = tmp_path / "polku" / "session"
    (fake / "store").mkdir(parents=True)
    for name, text in planted.items():
        (fake / name).write_text(text, encoding="utf-8")
    found = sorted(public_any(tmp_path))
    assert found == sorted(["alias.py:3 h", "fields.py:6 E.x", "fields.py:10 N.r", "fields.py:13 T.Inner.w", "fields.py:14 T.v",
                            "functional.py:3 U", "functional.py:4 V", "imported.py:2 i", "init.py:3 D.__init__",
                            "plain.py:2 f", "ret.py:3 C.g"]), found
