"""The campaign's rule settings, changed mid-campaign.

Every **[choice]** of docs/rules.md for the campaign's system is one row: its key,
rule, value and what it means. Enter (or space) steps a row to its next value,
or asks for a number; each change is a tracker command, so it is logged,
undoable and saved like any other (u / U undo and redo here too).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option, OptionDoesNotExist

from ...i18n import N_, _, retell
from ...rules.dice import RulesError
from ...rules.system import Choice, allowed_text, parse_setting
from ...session.commands import command
from ...session.tracker import Tracker
from ..host import host
from ..messages import LanguageChanged, RunCommand, TrackerChanged
from ..widgets.keyline import KeyLine
from .prompts import TextPrompt

LANGUAGE_ROW = "pref:language"
"""The last row: the language Polku speaks to this user (a preference of theirs, not the campaign's)."""


def show_value(value: Any) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(value)


def ask_number_setting(app: App[Any], choice: Choice, current: Any, title: str, hint: str,
                       then: Callable[[Any], object]) -> None:
    """Ask for a number setting's new value; ``then`` gets it (the prompt refuses what
    ``parse_setting`` refuses, in its own words)."""

    def check(text: str) -> str | None:
        try:
            parse_setting(f"{choice.key}={text.strip()}")
        except RulesError as e:
            return str(e)
        return None

    def done(text: str | None) -> None:
        if text is not None:
            then(parse_setting(f"{choice.key}={text.strip()}")[1])

    app.push_screen(TextPrompt(title, str(current), hint=hint, check=check), done)


class SettingsScreen(ModalScreen[None]):
    """The [choice] settings of this campaign's system; each change is a logged command."""

    BINDINGS = [
        Binding("enter,space", "cycle(1)", N_("Next value"), id="settings.next", tooltip=N_("Step the setting to its next value")),
        Binding("left", "cycle(-1)", N_("Previous"), show=False, id="settings.previous",
                tooltip=N_("Step the setting to its previous value")),
        Binding("u,ctrl+z", "undo", N_("Undo"), id="settings.undo", tooltip=N_("Undo the last command")),
        Binding("U,ctrl+y", "redo", N_("Redo"), show=False, id="settings.redo", tooltip=N_("Redo the last undone command")),
        Binding("escape", "close", N_("Close"), id="settings.close", tooltip=N_("Close the settings")),
    ]

    DEFAULT_CSS = """
    SettingsScreen { align: center middle; }
    SettingsScreen #settings-box { width: 100%; height: 100%; border: round $primary; background: $surface; padding: 0 1; }
    SettingsScreen #settings-title { height: auto; text-style: bold; color: $accent; }
    SettingsScreen #settings-rows { height: 1fr; border: none; background: $surface; }
    SettingsScreen #settings-hint { height: auto; color: $text-muted; }
    """

    def __init__(self, tracker: Tracker, focus_key: str | None = None) -> None:
        super().__init__()
        self.tracker = tracker
        self.focus_key = focus_key

    def compose(self) -> ComposeResult:
        with Vertical(id="settings-box"):
            yield Static(self._title(), id="settings-title")
            yield OptionList(id="settings-rows")
            yield Static(self._hint(), id="settings-hint")
        yield KeyLine()

    def on_mount(self) -> None:
        self.render_rows()
        rows = self.query_one("#settings-rows", OptionList)
        if self.focus_key is not None:
            try:
                rows.highlighted = rows.get_option_index(self.focus_key)
            except OptionDoesNotExist:
                rows.highlighted = 0
        else:
            rows.highlighted = 0
        rows.focus()

    def _title(self) -> str:
        return _("Rule settings — {system}", system=self.tracker.system.display_name)

    @staticmethod
    def _hint() -> str:
        return _("Enter: next value   ←: previous   u: undo   Esc: close.  "
                 "Each change is logged; rolls record the settings they used.")

    @on(LanguageChanged)
    def _language_changed(self) -> None:
        self.query_one("#settings-title", Static).update(self._title())
        self.query_one("#settings-hint", Static).update(self._hint())
        self.render_rows()

    def _language_row(self) -> Option:
        from ... import i18n

        t = Text()
        t.append(f"{'':<6}", style="dim")
        t.append(f"{'language':<22}", style="bold")
        t.append(i18n.LANGUAGES[i18n.language()])
        t.append("\n      " + _("Language / Kieli: yours, on this computer (not the campaign's); not logged"),
                 style="dim")
        return Option(t, id=LANGUAGE_ROW)

    def render_rows(self) -> None:
        rows = self.query_one("#settings-rows", OptionList)
        keep = rows.highlighted
        values = self.tracker.settings.to_dotted()
        width = max(40, self.size.width - 6)
        options = []
        for c in self.tracker.setting_choices():
            value = values[c.key]
            t = Text()
            t.append(f"{c.rule:<6}", style="dim")
            t.append(f"{c.key:<22}", style="bold")
            t.append(show_value(value))
            t.append("  " + (_("(default)") if value == c.default else _("(default {value})", value=show_value(c.default))),
                     style="dim")
            for line in textwrap.wrap(c.label, width - 6):
                t.append(f"\n      {line}", style="dim")
            options.append(Option(t, id=c.key))
        if hasattr(self.app, "switch_language"):
            options.append(self._language_row())  # last: the campaign's own settings come first
        rows.set_options(options)
        if keep is not None and options:
            rows.highlighted = min(keep, len(options) - 1)

    @on(TrackerChanged)
    def _tracker_changed(self, message: TrackerChanged) -> None:
        if self.is_mounted:
            self.render_rows()

    @on(OptionList.OptionSelected, "#settings-rows")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_cycle(1)

    def highlighted_key(self) -> str | None:
        opt = self.query_one("#settings-rows", OptionList).highlighted_option
        return opt.id if opt is not None else None

    def action_cycle(self, delta: int) -> None:
        key = self.highlighted_key()
        if key is None:
            return
        if key == LANGUAGE_ROW:
            from ... import i18n

            codes = list(i18n.LANGUAGES)
            host(self.app).switch_language(codes[(codes.index(i18n.language()) + delta) % len(codes)])
            return
        nxt = self.tracker.next_setting_value(key, delta)
        if nxt is None:
            self._ask_number(key)
            return
        self.app.post_message(RunCommand(command("set_setting", key, nxt), origin=self))

    def _ask_number(self, key: str) -> None:
        choice = next(c for c in self.tracker.setting_choices() if c.key == key)
        ask_number_setting(self.app, choice, self.tracker.settings.to_dotted()[key],
                           f"{key} ({choice.rule}): {choice.label}", retell(allowed_text(choice)),
                           lambda value: self.app.post_message(
                               RunCommand(command("set_setting", key, value), origin=self)))

    def action_undo(self) -> None:
        self.app.post_message(RunCommand(command("undo"), origin=self))

    def action_redo(self) -> None:
        self.app.post_message(RunCommand(command("redo"), origin=self))

    def action_close(self) -> None:
        self.dismiss(None)


__all__ = ["SettingsScreen"]
