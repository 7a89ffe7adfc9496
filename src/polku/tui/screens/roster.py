"""The GM screen's keys for the table in motion: damage or harm from the last roll,
NPC templates and groups, removing the fallen, copying characters from a file.

Each function asks ``tracker.damage`` / ``tracker.roster`` (the session layer) and
runs one tracker command through the app; nothing here decides a rule.
"""

from __future__ import annotations

from pathlib import Path
from textwrap import shorten
from typing import Any, Callable, Literal, Protocol

from textual.app import App

from ...i18n import _, ngettext, shown
from ...rules.system import System
from ...session.commands import Command, command
from ...session.importers import Imported
from ...session.table.roster import MAX_GROUP_ADD
from ...session.tracker import Tracker
from ...text import kind_label
from .prompts import ChoicePrompt, TextPrompt


class GMScreen(Protocol):
    """What these keys use of the GM's screen."""

    tracker: Tracker

    @property
    def app(self) -> App[Any]: ...

    def run(self, cmd: Command, then: Callable[[Any], object] | None = None) -> None: ...

    def notify(self, message: str, *, title: str = "",
               severity: Literal["information", "warning", "error"] = "information",
               timeout: float | None = None, markup: bool = True) -> None: ...

    def selected_character(self, *, quiet: bool = False) -> dict[str, Any] | None: ...


def damage_or_harm(screen: GMScreen) -> None:
    """D: damage from the last opposed attack (Varjojuoksu), harm from the last lost
    challenge or harm roll (Rajapolku, Harhapolku); without one, a hit to the selected character
    (the session decides which: ``Damage.key_offer``; none after a stalemate or a miss)."""
    from .damage import DamageScreen, HarmScreen

    t = screen.tracker
    ev = t.damage.last_event()
    if t.system is System.SHADOWRUN:
        ch = screen.selected_character(quiet=True)
        offer = t.damage.key_offer(ch["id"] if ch is not None else None)
        if not offer.allowed:
            screen.notify(shown(offer.reason), severity="warning", title=_("No damage"))
        elif offer.attack_seq:
            screen.app.push_screen(DamageScreen(t, ev))
        else:
            screen.app.push_screen(DamageScreen(t, None, target=offer.targets[0]))
        return
    harm = t.damage.harm_offer(ev)
    if not harm.allowed:
        screen.notify(shown(harm.reason), severity="warning", title=_("No harm to propose"))
        return
    screen.app.push_screen(HarmScreen(t, harm))


def save_template(screen: GMScreen) -> None:
    """t: keep the selected character's stat block as a template."""
    import re

    ch = screen.selected_character()
    if ch is None:
        return

    def done(name: str | None) -> None:
        if name is not None and name.strip():
            screen.run(command("roster.save_template", ch["id"], name.strip()),
                       lambda _ev: screen.notify(_("+ adds characters from it ({name} 1, {name} 2…)",
                                                   name=name.strip()), title=_("Template saved")))

    base = re.sub(r"\s+\d+$", "", ch["name"])
    screen.app.push_screen(TextPrompt(_("Save {name} as a template named:", name=ch["name"]), base,
                                      hint=_("stat block, pools and weapons; wounds and Edge start fresh"),
                                      check=lambda s: None if s.strip() else _("write a name")), done)


def add_from_template(screen: GMScreen) -> None:
    """+: "add 4× Ganger": pick a template, say how many, shared or separate initiative."""
    t = screen.tracker
    tpls = list(t.roster.templates.values())
    if not tpls:
        screen.notify(_("No templates yet: select a character and press t to save one"), severity="warning",
                      title=_("No templates"))
        return

    def count_for(tid: str | None) -> None:
        if tid is None:
            return
        tpl = t.roster.templates[tid]

        def check(text: str) -> str | None:
            s = text.strip().rstrip("x×")
            return None if s.isdigit() and 1 <= int(s) <= MAX_GROUP_ADD else _("a number 1 to {most}", most=MAX_GROUP_ADD)

        def got(text: str | None) -> None:
            if text is None:
                return
            n = int(text.strip().rstrip("x×"))
            group = next((g for g in t.roster.groups.values() if g["name"].lower() == tpl["name"].lower()), None)
            if t.system is not System.SHADOWRUN or group is not None:
                screen.run(command("roster.add_from_template", tid, n))
                return

            def init(choice: str | None) -> None:
                if choice is not None:
                    screen.run(command("roster.add_from_template", tid, n, initiative=choice))

            screen.app.push_screen(ChoicePrompt(_("{n}× {template}: initiative (S12)", n=n, template=tpl["name"]), [
                ("shared", _("Shared: one roll, the group acts together")),
                ("separate", _("Separate: each rolls their own"))]), init)

        screen.app.push_screen(TextPrompt(_("How many {template}?", template=tpl["name"]), "4",
                                          hint=_("numbered names follow on"), check=check), got)

    if len(tpls) == 1:
        count_for(tpls[0]["id"])
        return
    screen.app.push_screen(ChoicePrompt(_("Add characters from which template?"),
                                        [(x["id"], _("{template} (secret)", template=x["name"]) if x.get("secret")
                                          else x["name"])
                                         for x in tpls]), count_for)


def remove_template(screen: GMScreen) -> None:
    """-: delete an NPC template (the characters made from it stay; u brings it back)."""
    t = screen.tracker
    tpls = list(t.roster.templates.values())
    if not tpls:
        screen.notify(_("No templates to delete (t saves the selected character as one)"), severity="warning",
                      title=_("No templates"))
        return

    def picked(tid: str | None) -> None:
        if tid is None:
            return
        name = t.roster.templates[tid]["name"]
        screen.run(command("roster.remove_template", tid),
                   lambda _ev: screen.notify(_("Template {name} deleted; the characters made from it stay. "
                                               "u brings it back", name=name), title=_("Template deleted")))

    screen.app.push_screen(ChoicePrompt(_("Delete which template? (the characters made from it stay)"),
                                        [(x["id"], _("{template} (secret)", template=x["name"]) if x.get("secret")
                                          else x["name"])
                                         for x in tpls]), picked)


def remove_fallen(screen: GMScreen) -> None:
    """F: every non-player character out of the fight leaves at once, one key (u brings them back)."""
    t = screen.tracker
    gone = t.roster.fallen()
    if not gone:
        screen.notify(_("Nobody has fallen: no non-player character is out of the fight"), severity="warning",
                      title=_("Not now"))
        return
    names = ", ".join(t.character(c)["name"] for c in gone)
    screen.run(command("roster.remove_fallen"),
               lambda _ev: screen.notify(_("{names} leave the fight; u brings them back", names=names),
                                         title=_("The fallen")))


def copy_characters(screen: GMScreen) -> None:
    """C: copy characters (and templates) from another session file of the same system."""
    t = screen.tracker
    sf = getattr(screen.app, "session_file", None)
    here = Path(sf.path) if sf is not None and getattr(sf, "path", None) else None
    prev = t.state["campaign"].get("continues", "")
    suggestion = str(here.with_name(prev)) if here is not None and prev else ""

    def read(path_text: str | None) -> None:
        if not path_text or not path_text.strip():
            return
        path = Path(path_text.strip()).expanduser()
        if here is not None and not path.is_absolute():
            path = here.parent / path
        screen.run(command("read_characters", str(path)), lambda got: offer(path, *got))

    def offer(path: Path, chars: list[dict[str, Any]], tpls: list[dict[str, Any]]) -> None:
        if not chars and not tpls:
            screen.notify(_("{file} has no characters or templates", file=path.name), severity="warning")
            return
        if tpls:
            everyone = _("All: {characters} and {templates}",
                         characters=ngettext("{n} character", "{n} characters", len(chars)),
                         templates=ngettext("{n} template", "{n} templates", len(tpls)))
        else:
            everyone = ngettext("All: {n} character", "All: {n} characters", len(chars))
        choices = [("all", everyone)]
        choices += [(f"c:{i}", f"{c['name']} ({kind_label(c['kind'])})") for i, c in enumerate(chars)]

        def picked(value: str | None) -> None:
            if value is None:
                return
            pick = chars if value == "all" else [chars[int(value[2:])]]
            screen.run(command("roster.copy_characters", pick, source=path.name,
                                                            templates=tpls if value == "all" else []))

        screen.app.push_screen(ChoicePrompt(_("Copy from {file}", file=path.name), choices), picked)

    screen.app.push_screen(TextPrompt(_("Copy characters from which session file?"), suggestion,
                                      placeholder=_("path to a .toml session file"),
                                      hint=_("the previous session of this campaign is suggested; read only, validated"),
                                      check=lambda s: None if s.strip() else _("give a file")), read)


def template_gear(screen: GMScreen) -> None:
    """K: the weapons and armour of an NPC template (Varjojuoksu); its characters share them."""
    t = screen.tracker
    if t.system is not System.SHADOWRUN:
        screen.notify(_("weapons and armour are on Varjojuoksu sheets"), severity="warning")
        return
    tpls = t.roster.templates
    if not tpls:
        screen.notify(_("no templates yet: t saves the selected character as one"), severity="warning")
        return
    from .gear import TemplateGearScreen

    def picked(tid: str | None) -> None:
        if tid is not None:
            screen.app.push_screen(TemplateGearScreen(t, tid))

    if len(tpls) == 1:
        picked(next(iter(tpls)))
        return
    screen.app.push_screen(ChoicePrompt(_("Gear of which template?"), [(tid, x["name"]) for tid, x in tpls.items()]),
                           picked)


def import_chummer(screen: GMScreen) -> None:
    """I: a Varjojuoksu character or template from a Chummer 4 file; what it could not map is said once."""
    t = screen.tracker
    if t.system is not System.SHADOWRUN:
        screen.notify(_("a Chummer character is a Varjojuoksu one"), severity="warning")
        return
    sf = getattr(screen.app, "session_file", None)
    here = Path(sf.path) if sf is not None and getattr(sf, "path", None) else None

    def read(path_text: str | None) -> None:
        if not path_text or not path_text.strip():
            return
        path = Path(path_text.strip()).expanduser()
        if here is not None and not path.is_absolute():
            path = here.parent / path
        screen.run(command("read_chummer", str(path)), offer)

    def offer(imported: Imported) -> None:
        def picked(how: str | None) -> None:
            if how is None:
                return

            def made(_ev: object) -> None:
                if imported.unmapped:
                    screen.notify(shorten(imported.unmapped_text(), 200, placeholder=" …"),
                                  title=_("Imported {name}", name=imported.character["name"]))

            screen.run(command("roster.add_imported", imported.character, template=how == "template",
                                                         source=imported.source), made)

        ch = imported.character
        screen.app.push_screen(ChoicePrompt(
            _("Import {name} from {source} as…", name=ch["name"], source=imported.source),
            [("character", _("a character (an NPC; Kind changes it on the sheet)")),
             ("template", _("an NPC template (Add N× makes a group sharing its gear)"))],
            hint=shorten(imported.unmapped_text() or _("Everything in the file has its place on the sheet."), 400,
                         placeholder=_(" … (polku import chummer FILE lists it all)"))), picked)

    screen.app.push_screen(TextPrompt(_("Import from Chummer: which .chum file?"), "",
                                      placeholder=_("path to a Chummer 4 character file"),
                                      hint=_("read only; a file with entities, a DTD or over 8 MB is refused"),
                                      check=lambda s: None if s.strip() else _("give a file")), read)


__all__ = ["add_from_template", "copy_characters", "import_chummer", "template_gear", "damage_or_harm", "remove_fallen", "remove_template",
           "save_template"]
