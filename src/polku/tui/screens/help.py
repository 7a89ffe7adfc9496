"""Every key of the screen underneath, grouped, and how a session runs."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widgets import Label, Static

SESSION_TEXT = """\
How a session runs
  1. Add the characters (c). Enter on a character opens its sheet;
     every field is a row there: Enter edits it, + and − step numbers.
  2. Queue challenges (a) as they come up; s makes one active.
  3. r rolls: it builds both pools (backgrounds, conditions, abilities,
     Edge…) and rolls the program's dice, or takes the faces of
     physical dice typed in by hand.
  4. Wounds, charges, story points and Edge change with the character
     keys (w/W, g/G, p/P, E) or on the sheet; each change is logged.
  5. n starts a scene, N a game session, T a story: each resets what
     RULES §4 says (per-scene costs, Edge and edge rerolls, story
     points) and logs the reset.
  6. Nothing needs saving: every command is written at once.
     u undoes the last command, U redoes it; undone lines stay in the
     log, struck through.
  7. S changes a rule setting of the campaign (RULES.md [choice]) at
     any time; the change is logged and undoable, and every roll's log
     entry names the settings it used.
  ctrl+p finds any command by name, e.g. "roll for" or "edit".

Harhapolku, chapter 23 (H4)
  The challenger must win more positions than the actor. Abilities can
  only be questioned on the grounds of another character's or NPC's
  ability already shown in play; the same holds for a character's own
  senses and mind (their harhapolku).
"""

MOVING_TEXT = """\
Moving around
  Tab / shift+Tab   next / previous field or pane
  ↑ ↓ PgUp PgDn     move in a list; Enter picks the highlighted row
  Escape            close a dialog without changing anything
"""


def _group_title(node: DOMNode, screen: Screen[Any]) -> str:
    if node is node.app:
        return "Everywhere"
    if node is screen:
        return getattr(screen, "BINDING_GROUP_TITLE", None) or type(screen).__name__
    return getattr(node, "BINDING_GROUP_TITLE", None) or f"In the {type(node).__name__}"


class HelpScreen(ModalScreen[None]):
    """The keys of the screen below (its focused widget, the screen, the app), scrollable."""

    BINDINGS = [
        Binding("escape,q,question_mark,f1", "close", "Close", id="help.close", tooltip="Close the help"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="help-dialog"):
            yield Label("Polku — keys and how a session runs", classes="dialog--title")
            with VerticalScroll(id="help-body"):
                yield Static(id="help-keys")
            yield Static("↑/↓ PgUp/PgDn scroll · Esc, q or ? closes", classes="dialog--hint")

    def on_mount(self) -> None:
        self.query_one("#help-keys", Static).update(self.help_renderable())
        self.query_one("#help-body", VerticalScroll).focus()

    def below(self) -> Screen[Any] | None:
        stack = self.app.screen_stack
        if self in stack:
            i = stack.index(self)
            return stack[i - 1] if i > 0 else None
        return stack[-1] if stack else None

    def key_groups(self) -> list[tuple[str, list[tuple[str, str, str]]]]:
        """(group title, [(keys, description, tooltip)]) for the screen below, then the app.

        Keys bound to one action (``u`` and ``ctrl+z``) share a row; a stock widget's or
        screen's keys without an id (arrows, Tab) are left to "Moving around".
        """
        screen = self.below()
        groups: dict[str, dict[tuple[str, str], list[Any]]] = {}

        def add(node: DOMNode, key: str, binding: Binding) -> None:
            if not binding.description and not binding.tooltip:
                return
            if node is not self.app and binding.id is None:
                return
            title = _group_title(node, screen) if screen is not None else "Everywhere"
            display = self.app.get_key_display(Binding(key, binding.action))
            rows = groups.setdefault(title, {})
            row = rows.setdefault((binding.action, binding.description), [[], binding.description,
                                                                          binding.tooltip or ""])
            if display not in row[0]:
                row[0].append(display)

        namespaces: list[DOMNode] = []
        if screen is not None:
            for key, active in screen.active_bindings.items():
                if active.node not in namespaces:
                    namespaces.append(active.node)
                add(active.node, key, active.binding)
        if self.app not in namespaces:
            for key, binding in self.app._bindings:  # a modal below hides the app's keys
                add(self.app, key, binding)
        # The screen's own keys first, the focused widget's next, the app's last.
        first = _group_title(screen, screen) if screen is not None else ""
        order = sorted(groups, key=lambda t: 0 if t == first else 2 if t == "Everywhere" else 1)
        return [(t, [(" / ".join(keys), desc, tip) for keys, desc, tip in groups[t].values()]) for t in order]

    def help_renderable(self) -> Group:
        parts: list[Any] = []
        for title, rows in self.key_groups():
            parts.append(Text(title, style="bold underline"))
            table = Table(box=None, show_header=False, padding=(0, 1), expand=True)
            table.add_column("key", no_wrap=True, min_width=9, style="bold")
            table.add_column("what", no_wrap=True)
            table.add_column("why", ratio=1)
            for keys, desc, tip in rows:
                table.add_row(keys, desc, tip if tip != desc else "")
            parts.append(table)
            parts.append(Text(""))
        parts.append(Text(MOVING_TEXT))
        parts.append(Text(SESSION_TEXT))
        return Group(*parts)

    def action_close(self) -> None:
        self.dismiss(None)


__all__ = ["HelpScreen"]
