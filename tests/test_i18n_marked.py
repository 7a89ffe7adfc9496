"""No visible English left unmarked anywhere in src (a heuristic).

Reach, honestly: it reads the source of every module of src and fails on a string literal or f-string with
words in it passed *directly* to what shows text — a notification, a Static / Label / Button / Text / Option,
a prompt's question, placeholder or hint, a palette entry, a key's description or tooltip, a command-line
argument's help — and on an error raised with such a literal (``raise TrackerError(f"...")``: a refusal is
read by a GM, a player or a command-line user). It does not see a sentence built into a variable first, a
dict of texts, or pieces appended to a Text; those were converted by reading the screens in Finnish (the
snapshot tests picture the main ones). Sentences the session tells from facts are checked by
tests/test_telling.py.

Errors: a module in ``ERRORS_NOT_YET`` may still raise unmarked English (none is, now); one listed is listed until
converted, and the test fails when a listed module has none left (take it off the list), so the list only shrinks.

It also fails on a function that calls ``_()`` while binding ``_`` as a throwaway name: the
call would get the throwaway value and fail when the text is shown.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "polku"

MODULES = sorted(str(p.relative_to(SRC)) for p in SRC.rglob("*.py"))

ERRORS_NOT_YET: set[str] = set()
"""Modules that still raise an error with an unmarked English literal (see the module's docstring)."""

SHOWN_ARGS = {
    "add_argument": (), "add_parser": (),
    "notify": (0,), "Static": (0,), "Label": (0,), "Button": (0,), "Text": (0,), "Option": (0,),
    "TextPrompt": (0, 1), "ConfirmPrompt": (0,), "ChoicePrompt": (0,), "FacesPrompt": (0,), "SystemCommand": (0, 1),
    "Binding": (2,), "ask_faces": (1,),
}
SHOWN_KEYWORDS = {"title", "placeholder", "hint", "tooltip", "description", "help"}
MARKERS = {"_", "N_", "ngettext", "pgettext"}


def _all_words(node: ast.AST) -> str:
    """The literal words of an expression: of a string or an f-string, of pieces joined with ``+``, of a
    slice of one, of either branch of ``a if c else b``."""
    if isinstance(node, ast.BinOp):
        return _all_words(node.left) + _all_words(node.right)
    if isinstance(node, ast.Subscript):
        return _all_words(node.value)
    if isinstance(node, ast.IfExp):
        return _all_words(node.body) + _all_words(node.orelse)
    return _words(node)


def _words(node: ast.AST) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
    return ""


def _name(call: ast.Call) -> str:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def unmarked(source: str) -> list[tuple[int, str]]:
    """(line, text) of every literal with a word in it shown without a marker."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = _name(node)
        shown = [node.args[i] for i in SHOWN_ARGS.get(name, ()) if i < len(node.args)]
        if name in SHOWN_ARGS or name in ("push_screen",):
            shown += [k.value for k in node.keywords if k.arg in SHOWN_KEYWORDS]
        for arg in shown:
            text = _all_words(arg)
            if re.search(r"[A-Za-z]{2,}", text):
                found.append((arg.lineno, text))
    return found


NOT_SHOWN_ERRORS = {"ValueError", "TypeError", "KeyError", "AssertionError", "RuntimeError", "OSError", "IndexError",
                    "NotImplementedError", "AttributeError", "StopIteration"}
"""Python's own errors: raised for a program's bug or caught and worded again, never shown as they are."""


def unmarked_errors(source: str) -> list[tuple[int, str]]:
    """(line, text) of every error of Polku's own made with a literal with a word in it, unmarked (raised
    there, or made first and raised or posted later)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        name = _name(node)
        if (name.endswith("Error") or name == "ImportRefused") and name not in NOT_SHOWN_ERRORS:
            text = _all_words(node.args[0])
            if re.search(r"[A-Za-z]{2,}", text):
                found.append((node.lineno, text))
    return found


def shadowed_gettext(source: str) -> list[int]:
    """Lines of functions that call ``_()`` and also bind ``_``."""
    bad = []
    for fn in ast.walk(ast.parse(source)):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        binds = any(isinstance(n, ast.Name) and n.id == "_" and isinstance(n.ctx, ast.Store) for n in ast.walk(fn))
        binds = binds or any(a.arg == "_" for a in ast.walk(fn.args) if isinstance(a, ast.arg))
        calls = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "_" for n in ast.walk(fn))
        if binds and calls:
            bad.append(fn.lineno)
    return bad


@pytest.mark.parametrize("module", MODULES)
def test_no_unmarked_visible_text(module: str) -> None:
    found = unmarked((SRC / module).read_text("utf-8"))
    assert not found, f"{module}: visible text not marked for translation: {found[:5]}"


@pytest.mark.parametrize("module", MODULES)
def test_no_error_is_raised_with_unmarked_english(module: str) -> None:
    found = unmarked_errors((SRC / module).read_text("utf-8"))
    if module in ERRORS_NOT_YET:
        assert found, f"{module} raises no unmarked English any more: take it off ERRORS_NOT_YET"
    else:
        assert not found, f"{module}: an error raised with unmarked English (use said(N_(...))): {found[:5]}"


@pytest.mark.parametrize("module", sorted(str(p.relative_to(SRC)) for p in SRC.rglob("*.py")))
def test_no_function_shadows_the_translation_function(module: str) -> None:
    assert not shadowed_gettext((SRC / module).read_text("utf-8")), module


def test_the_heuristic_sees_what_it_should() -> None:
    """The checks themselves, on small sources: each finds what it is for, and lets marked text pass."""
    assert unmarked('self.notify("Select a character first")') == [(1, "Select a character first")]
    assert unmarked('self.notify(f"{name} rolls")') == [(1, " rolls")]
    assert unmarked('Binding("r", "roll", "Roll", tooltip="Roll the dice")') == [(1, "Roll"), (1, "Roll the dice")]
    assert unmarked('x.notify(_("Roll"), title=_("Not now"))') == []
    assert unmarked('Binding("r", "roll", N_("Roll"), id="main.roll")') == []
    assert unmarked('Static("42", id="n")') == []
    assert unmarked('p.add_argument("--x", help="print JSON")') == [(1, "print JSON")]
    assert unmarked('p.add_argument("--x", help=N_("print JSON"))') == []
    assert unmarked('p.add_argument("--x", help=_("faces") + "; sum variant: N+ROLL")') == [(1, "; sum variant: N+ROLL")]
    assert unmarked('Option(Text(f"{name}  " + _("passes {n}", n=n) + f"  Edge {e}"))') == [(1, "    Edge ")]
    assert unmarked('Static(_("Edge {rating}", rating=r) + "  " + _("passes {n}", n=n))') == []
    assert unmarked_errors('raise TrackerError(f"{name} has no Edge")') == [(1, " has no Edge")]
    assert unmarked_errors('raise RulesError(said(N_("{name} has no Edge"), name=n))') == []
    assert unmarked_errors('raise ValueError("not a list")') == []
    assert unmarked_errors('raise CliError(f"no {x} here" + (f" (try {y})" if y else ""))') == [(1, "no  here (try )")]
    assert unmarked_errors('raise RulesError(f"AP is a number, not {v!r}"[:120])') == [(1, "AP is a number, not ")]
    assert unmarked_errors('err = StoreError(f"could not save {p}: {why}", 5)') == [(1, "could not save : ")]
    assert shadowed_gettext("def f(_):\n    return _('x')") == [1]
    assert shadowed_gettext("def f():\n    a, _, b = s.partition(':')\n    return _('x')") == [1]
    assert shadowed_gettext("def f(_x):\n    return _('x')") == []
