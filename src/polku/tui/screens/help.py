"""Every key of the screen underneath, grouped, and how a session runs."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Label, Static

from ...i18n import N_, _
from ..keys import grouped
from ..widgets.keyline import KeyLine

SESSION_TEXT = N_("""\
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
     lasts that long (per-scene costs, Edge and edge rerolls, story
     points) and logs the reset.
  6. Nothing needs saving: every command is written at once.
     u undoes the last command, U redoes it; undone lines stay in the
     log, struck through.
  7. S changes a rule setting of the campaign at any time (each is
     explained in docs/rules.md); the change is logged and undoable,
     and every roll's log entry names the settings it used.
  ctrl+p finds any command by name, e.g. "roll for" or "edit".

Harhapolku, chapter 23 (H4)
  The challenger must win more positions than the actor. Abilities can
  only be questioned on the grounds of another character's or NPC's
  ability already shown in play; the same holds for a character's own
  senses and mind (their harhapolku).
""")

MOVING_TEXT = N_("""\
Moving around
  Tab / shift+Tab   next / previous field or pane
  ↑ ↓ PgUp PgDn     move in a list; Enter picks the highlighted row
  Escape            close a dialog without changing anything
""")


class HelpScreen(ModalScreen[None]):
    """The keys of the screen below (its focused widget, the screen, the app), scrollable."""

    BINDINGS = [
        Binding("escape,q", "close", N_("Close"), id="help.close", tooltip=N_("Close the help (? and f1 close it too)")),
    ]

    def __init__(self, *, guide: bool = True, title: str = N_("Polku — keys and how a session runs")) -> None:
        super().__init__()
        self.guide = guide
        """Also show how a session runs (the GM's app; not the read-only review)."""
        self.title_text = title
        """In English (marked with ``N_``): shown in the language in use."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="help-dialog"):
            yield Label(_(self.title_text), classes="dialog--title")
            with VerticalScroll(id="help-body"):
                yield Static(id="help-keys")
            yield Static(_("↑/↓ PgUp/PgDn scroll · Esc, q, ? or f1 closes"), classes="dialog--hint")
        yield KeyLine()

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
        """(group title, [(keys, description, tooltip)]) for the screen below: its own keys first.

        Keys bound to one action (``u`` and ``ctrl+z``) share a row; a stock widget's keys
        without an id (arrows, Tab) are left to "Moving around".
        """
        screen = self.below()
        if screen is None:
            return []
        return [(title, [(row.key_text, row.description if row.enabled else _("{what} (not now)", what=row.description), row.tooltip)
                         for row in rows])
                for title, rows in grouped(screen)]

    def help_renderable(self) -> Group:
        parts: list[Any] = []
        groups = self.key_groups()
        # One width for every group's columns, so the groups line up as one table.
        key_width = max([9] + [len(k) for _t, rows in groups for k, _d, _tip in rows])
        what_width = max([8] + [len(d) for _t, rows in groups for _k, d, _tip in rows])
        for title, rows in groups:
            parts.append(Text(title, style="bold underline"))
            table = Table(box=None, show_header=False, padding=(0, 1), expand=True)
            table.add_column("key", no_wrap=True, min_width=key_width, style="bold")
            table.add_column("what", no_wrap=True, min_width=what_width)
            table.add_column("why", ratio=1)
            for keys, desc, tip in rows:
                table.add_row(keys, desc, tip if tip != desc else "")
            parts.append(table)
            parts.append(Text(""))
        parts.append(Text(_(MOVING_TEXT)))
        if self.guide:
            parts.append(Text(_(SESSION_TEXT)))
        return Group(*parts)

    def action_close(self) -> None:
        self.dismiss(None)


__all__ = ["HelpScreen"]
