"""Varjojuoksu initiative (S12): who acts, their passes, the roll."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ....i18n import N_, _
from ....session import telling
from ....session.commands import command
from ....session.records import sr as sr_sheet
from ....session.tracker import Tracker
from ...messages import RunCommand
from ...widgets.keyline import KeyLine
from .base import _check


class InitiativeScreen(ModalScreen[None]):
    """S12: pick who acts, their passes, and roll initiative."""

    BINDINGS = [
        Binding("r", "roll", N_("Roll initiative"), id="ini.roll", tooltip=N_("Reaction + Intuition + hits, highest first")),
        Binding("f", "faces", N_("Enter faces"), id="ini.faces", tooltip=N_("Type the faces of physical dice instead of the program's")),
        Binding("plus", "passes(1)", N_("+Pass"), id="ini.more", tooltip=N_("One more initiative pass")),
        Binding("minus", "passes(-1)", N_("−Pass"), id="ini.less", tooltip=N_("One initiative pass less")),
        Binding("G", "toggle_gm_only", N_("GM only"), id="ini.gm_only",
                tooltip=N_("Make the next initiative roll the GM's only: the players see \"the GM rolls\"")),
        Binding("escape", "close", N_("Close"), id="ini.close", tooltip=N_("Close")),
        Binding("q", "app.quit_app", N_("Quit"), id="ini.quit", tooltip=N_("Save and quit Polku")),
    ]

    def __init__(self, tracker: Tracker) -> None:
        super().__init__()
        self.tracker = tracker
        fighters = tracker.combat.default_fighters()
        self.chosen = {cid: chosen for cid, (chosen, _) in fighters.items()}
        self.passes = {cid: passes for cid, (_, passes) in fighters.items()}
        self.gm_only = False
        """The next roll is the GM's only (docs/rules.md)."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self._title(), classes="dialog--title", id="ini-title")
            yield OptionList(id="ini-list")
            yield Static("", id="ini-result")
        yield KeyLine()

    def _title(self) -> str:
        b = self.tracker.combat.block
        what = _("combat turn {value}", value=b['turn'] + 1) if b is not None else _("a new fight")
        return (_("Initiative (S12) for {what}: Enter toggles, +/− passes, r rolls, f faces", what=what)
                + (_("  — GM ONLY") if self.gm_only else ""))

    def on_mount(self) -> None:
        self._show()
        self.query_one(OptionList).focus()

    def action_toggle_gm_only(self) -> None:
        self.gm_only = not self.gm_only
        self.query_one("#ini-title", Static).update(self._title())

    def _show(self) -> None:
        ol = self.query_one(OptionList)
        keep = ol.highlighted
        opts = []
        for cid, ch in self.tracker.characters.items():
            ch = sr_sheet(ch)
            a = ch["attributes"]
            group = self.tracker.roster.group_of(cid)
            shared = _("  · {name}: one roll", name=group['name']) if group and group.get("initiative") == "shared" else ""
            opts.append(Option(Text(f"{_check(self.chosen[cid])} {ch['name']}  R{a['reaction']}+I{a['intuition']}  "
                                    + _("passes {n}", n=self.passes[cid])
                                    + f"  Edge {ch['edge_rating']}{shared}"), id=cid))
        ol.set_options(opts)
        if opts:
            ol.highlighted = keep if keep is not None else 0

    @on(OptionList.OptionSelected)
    def _toggle(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        cid = event.option.id
        if cid:
            self.chosen[cid] = not self.chosen[cid]
            self._show()

    def action_passes(self, delta: int) -> None:
        opt = self.query_one(OptionList).highlighted_option
        if opt and opt.id:
            self.passes[opt.id] = max(1, min(4, self.passes[opt.id] + delta))
            self._show()

    def _entries(self) -> list[tuple[str, int]] | None:
        entries = [(cid, self.passes[cid]) for cid, on_ in self.chosen.items() if on_]
        if not entries:
            self.notify(_("Pick at least one character"), severity="warning")
            return None
        return entries

    def action_roll(self, faces: list[int] | None = None) -> None:
        entries = self._entries()
        if entries is None:
            return
        def rolled(out: dict[str, Any]) -> None:
            self.query_one("#ini-result", Static).update(telling.roll_summary(out["event"]))

        self.app.post_message(RunCommand(command("rolls.roll_initiative", entries, faces=faces, gm_only=self.gm_only),
                                         origin=self, then=rolled))

    def action_faces(self) -> None:
        from ..prompts import FacesPrompt

        entries = self._entries()
        if entries is None:
            return
        rolls = self.tracker.combat.initiative_dice(entries)
        order = ", ".join(f"{name} {n}" for name, n in rolls)

        def done(dice: list[Any] | None) -> None:
            if dice:
                self.action_roll([d.face for d in dice])

        self.app.push_screen(FacesPrompt(_("Initiative"), sum(n for _name, n in rolls), 6,
                                         hint=_("in this order: {order}", order=order)), done)

    def action_close(self) -> None:
        self.dismiss(None)
