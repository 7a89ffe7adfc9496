"""Gear on a Varjojuoksu sheet: the rows the character sheet and the template gear form show,
and their editors (a weapon as one line, armour as ballistic/impact).

Nothing here decides a rule: the weapons, the armour and whose they are (a character's own,
or its template's) come from :mod:`polku.session.table.gear`; every change is one
``tracker.roster`` command posted to the app. :class:`TemplateGearScreen` is the template's
form (key ``K`` on the GM's screen, or the palette).
"""

from __future__ import annotations

from typing import Any, Callable

from rich.markup import escape
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from ...i18n import N_, _, ngettext
from ...session.commands import Command, command
from ...session.host import TrackerError
from ...session.records import Character
from ...session.table.gear import (
    armour_of,
    armour_words,
    format_weapon,
    gear_owner,
    parse_armour,
    parse_weapon,
    shared_from,
    weapon_words,
    weapons_of,
)
from ...session.tracker import Tracker
from ..messages import LanguageChanged, RunCommand, TrackerChanged
from ..widgets.keyline import KeyLine
from .prompts import ChoicePrompt, TextPrompt

WEAPON_HINT = N_("name, DV, AP, skill — e.g. Ares Predator IV, 5P, -1, Pistols · Katana, 7P, -1, Blades · AP: -2, +2, "
                 "-half")
"""How a weapon is written (translated where shown)."""


def _check(parse: Callable[[str], Any]) -> Callable[[str], str | None]:
    def check(text: str) -> str | None:
        try:
            parse(text)
        except TrackerError as e:
            return str(e)
        return None

    return check


def gear_rows(tracker: Tracker, holder: Character) -> list[tuple[str, str, Text | str]]:
    """(row id, label, value) of a sheet's weapons, the add row and the armour."""
    state = tracker.state
    shared = shared_from(state, holder)
    muted = "dim"
    out: list[tuple[str, str, Text | str]] = []
    if shared:
        out.append(("gear:shared", _("Gear"), Text(_("template {template}'s (K edits it)", template=shared),
                                                   style=muted)))
    for i, w in enumerate(weapons_of(state, holder)):
        out.append((f"gear:weapon:{i}", _("Weapon"), weapon_words(w)))
    out.append(("gear:weapon:new", "", Text(_("+ add a weapon…"), style=muted)))
    armour = armour_of(state, holder)
    out.append(("gear:armour", _("Armour"), armour_words(armour) if gear_owner(state, holder, "armour") is not None
                else Text(_("(none: Enter sets ballistic/impact)"), style=muted)))
    return out


def edit_gear(screen: ModalScreen[Any], tracker: Tracker, holder: Character, rid: str, *,
              template: bool = False) -> None:
    """Enter on a gear row: add or edit a weapon (one line), remove it, or set the armour."""
    owner = str(holder["id"])
    name = str(holder["name"])

    def run(cmd: Command) -> None:
        screen.app.post_message(RunCommand(cmd, origin=screen))

    def ask(title: str, value: str, done: Callable[[str], None], check: Callable[[str], str | None],
            hint: str) -> None:
        def answered(text: str | None) -> None:
            if text is not None:
                done(text)

        screen.app.push_screen(TextPrompt(escape(title), value, check=check, hint=hint), answered)

    if rid == "gear:armour":
        a = armour_of(tracker.state, holder)
        ask(_("{name}: armour, ballistic/impact", name=name), f"{a.ballistic}/{a.impact}",
            lambda s: run(command("roster.set_armour", owner, parse_armour(s), template=template)),
            _check(parse_armour), _("e.g. 6/4 (armour vest); ballistic meets ranged weapons, impact melee and thrown"))
        return
    if rid == "gear:weapon:new":
        ask(_("{name}: new weapon", name=name), "",
            lambda s: run(command("roster.set_weapon", owner, None, parse_weapon(s), template=template)),
            _check(parse_weapon), _(WEAPON_HINT))
        return
    if not rid.startswith("gear:weapon:"):
        return
    i = int(rid.rsplit(":", 1)[1])
    w = weapons_of(tracker.state, holder)[i]

    def picked(action: str | None) -> None:
        if action == "edit":
            ask(_("{name}: weapon", name=name), format_weapon(w),
                lambda s: run(command("roster.set_weapon", owner, i, parse_weapon(s), template=template)),
                _check(parse_weapon), _(WEAPON_HINT))
        elif action == "remove":
            run(command("roster.remove_weapon", owner, i, template=template))

    screen.app.push_screen(ChoicePrompt(escape(_("{name}: {weapon}", name=name, weapon=weapon_words(w))),
                                        [("edit", _("Edit (name, DV, AP, skill)…")), ("remove", _("Remove it"))]),
                           picked)


TEMPLATE_GEAR_HINT = N_("Enter: edit · u: undo · Esc: close.  Every character made from the template carries this gear "
                        "until given its own.")


class TemplateGearScreen(ModalScreen[None]):
    """An NPC template's weapons and armour; the characters made from it share them."""

    BINDINGS = [
        Binding("escape", "close", N_("Close"), id="tplgear.close", tooltip=N_("Back to the session")),
        Binding("u,ctrl+z", "undo", N_("Undo"), id="tplgear.undo", tooltip=N_("Undo the last command")),
    ]

    BINDING_GROUP_TITLE = N_("Template gear")

    DEFAULT_CSS = """
    TemplateGearScreen { align: center middle; }
    TemplateGearScreen #tplgear-rows { height: auto; max-height: 16; border: none; background: $surface; padding: 0; }
    """

    def __init__(self, tracker: Tracker, tid: str) -> None:
        super().__init__()
        self.tracker = tracker
        self.tid = tid

    @property
    def tpl(self) -> Character | None:
        found: Character | None = self.tracker.state.get("templates", {}).get(self.tid)
        return found

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="tplgear"):
            yield Label("", id="tplgear-title", classes="dialog--title", markup=False)
            yield OptionList(id="tplgear-rows")
            yield Static(_(TEMPLATE_GEAR_HINT), classes="dialog--hint", id="tplgear-hint")
        yield KeyLine()

    def on_mount(self) -> None:
        self.render_rows()
        rows = self.query_one("#tplgear-rows", OptionList)
        rows.highlighted = 0
        rows.focus()

    @on(LanguageChanged)
    def _language_changed(self) -> None:
        self.query_one("#tplgear-hint", Static).update(_(TEMPLATE_GEAR_HINT))
        self.render_rows()

    def render_rows(self) -> None:
        tpl = self.tpl
        if tpl is None:
            self.dismiss(None)
            return
        n = sum(1 for ch in self.tracker.characters.values() if ch.get("template") == self.tid)
        self.query_one("#tplgear-title", Label).update(
            ngettext("Template {name}: gear (shared by {n} character)", "Template {name}: gear (shared by {n} characters)",
                     n, name=tpl["name"]) if n else _("Template {name}: gear", name=tpl["name"]))
        rows = self.query_one("#tplgear-rows", OptionList)
        keep = rows.highlighted
        options = []
        for rid, label, value in gear_rows(self.tracker, tpl):
            line = Text()
            line.append(f"{label:<10}", style="bold")
            line.append_text(value if isinstance(value, Text) else Text(value))
            options.append(Option(line, id=rid))
        rows.set_options(options)
        if options:
            rows.highlighted = min(keep or 0, len(options) - 1)

    @on(TrackerChanged)
    def _tracker_changed(self, message: TrackerChanged) -> None:
        self.render_rows()

    @on(OptionList.OptionSelected, "#tplgear-rows")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        tpl = self.tpl
        if tpl is not None and event.option.id:
            edit_gear(self, self.tracker, tpl, event.option.id, template=True)

    def action_undo(self) -> None:
        self.app.post_message(RunCommand(command("undo"), origin=self))

    def action_close(self) -> None:
        self.dismiss(None)


__all__ = ["TemplateGearScreen", "WEAPON_HINT", "edit_gear", "gear_rows"]
