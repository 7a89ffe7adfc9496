"""Varjojuoksu initiative (S12): who acts, their passes, the score they act on, Edge on the roll (S7),
surprise (no action in pass 1), the roll."""

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

from ....i18n import N_, _, ngettext
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
        Binding("e", "edge", N_("Edge"), id="ini.edge",
                tooltip=N_("Spend 1 Edge on the fighter's initiative roll: + Edge rating dice, rule of six (S7)")),
        Binding("s", "surprised", N_("Surprised"), id="ini.surprised",
                tooltip=N_("The fighter is surprised: no action in pass 1 of this combat turn")),
        Binding("k", "kind", N_("Score"), id="ini.kind",
                tooltip=N_("The initiative score the fighter acts on: physical, astral or matrix (those on the sheet)")),
        Binding("escape", "close", N_("Close"), id="ini.close", tooltip=N_("Close")),
        Binding("q", "app.quit_app", N_("Quit"), id="ini.quit", tooltip=N_("Save and quit Polku")),
    ]

    def __init__(self, tracker: Tracker) -> None:
        super().__init__()
        self.tracker = tracker
        fighters = tracker.combat.default_fighters()
        self.chosen = {cid: chosen for cid, (chosen, _) in fighters.items()}
        self.passes = {cid: passes for cid, (_, passes) in fighters.items()}
        self.kinds = tracker.combat.default_kinds()
        """The score each fighter acts on (remembered from the order in force)."""
        self.edge: set[str] = set()
        """Who spends 1 Edge on the roll (S7)."""
        self.surprised: set[str] = set()
        """Who is surprised this combat turn."""
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
        return (_("Initiative (S12) for {what}: Enter toggles, +/− passes, e Edge, s surprised, k score, r rolls, f faces", what=what)
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
            kind = self.kinds.get(cid, "physical")
            if kind == "physical":
                score = f"R{a['reaction']}+I{a['intuition']}"
            else:
                dice = self.tracker.combat.initiative_dice([(cid, 1)], kinds={cid: kind})[0][1]
                score = (ngettext("astral {n} die", "astral {n} dice", dice) if kind == "astral"
                         else ngettext("matrix {n} die", "matrix {n} dice", dice))
            flags = ((_("  EDGE +{rating}", rating=ch["edge_rating"]) if cid in self.edge else "")
                     + (_("  SURPRISED") if cid in self.surprised else ""))
            opts.append(Option(Text(f"{_check(self.chosen[cid])} {ch['name']}  {score}  "
                                    + _("passes {n}", n=self.passes[cid])
                                    + "  " + _("Edge {rating}", rating=ch["edge_rating"]) + f"{flags}{shared}"), id=cid))
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

    def _highlighted(self) -> str | None:
        opt = self.query_one(OptionList).highlighted_option
        return opt.id if opt is not None and opt.id else None

    def action_edge(self) -> None:
        """``e``: the highlighted fighter spends 1 Edge on the roll (S7), or not; the session says
        when they cannot (no Edge left, a group's one roll)."""
        cid = self._highlighted()
        if cid is None:
            return
        if cid in self.edge:
            self.edge.discard(cid)
        else:
            why = self.tracker.combat.edge_refusal(cid)
            if why:
                self.notify(why, severity="warning", title=_("No Edge"))
                return
            self.edge.add(cid)
            self.chosen[cid] = True
        self._show()

    def action_surprised(self) -> None:
        """``s``: the highlighted fighter is surprised this combat turn (no action in pass 1), or not."""
        cid = self._highlighted()
        if cid is None:
            return
        self.surprised ^= {cid}
        if cid in self.surprised:
            self.chosen[cid] = True
        self._show()

    def action_kind(self) -> None:
        """``k``: the next initiative score on the highlighted fighter's sheet (physical, astral, matrix);
        the passes become that score's."""
        cid = self._highlighted()
        if cid is None:
            return
        kinds = self.tracker.combat.initiative_kinds(cid)
        if len(kinds) == 1:
            self.notify(_("Only a physical initiative on the sheet: add astral or matrix on the sheet's Initiative row"),
                        severity="warning", title=_("One score"))
            return
        kind = kinds[(kinds.index(self.kinds.get(cid, "physical")) + 1) % len(kinds)]
        self.kinds[cid] = kind
        self.passes[cid] = self.tracker.combat.sheet_initiative(cid, kind)[1]
        self._show()

    def _extras(self, entries: list[tuple[str, int]]) -> dict[str, Any]:
        """The roll's Edge, surprise and scores, for the fighters rolling."""
        ids = [cid for cid, _n in entries]
        return {"edge": [c for c in ids if c in self.edge], "surprised": [c for c in ids if c in self.surprised],
                "kinds": {c: self.kinds[c] for c in ids if self.kinds.get(c, "physical") != "physical"}}

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

        self.app.post_message(RunCommand(command("rolls.roll_initiative", entries, faces=faces, gm_only=self.gm_only,
                                                 **self._extras(entries)),
                                         origin=self, then=rolled))

    def action_faces(self) -> None:
        from ..prompts import FacesPrompt

        entries = self._entries()
        if entries is None:
            return
        extras = self._extras(entries)
        rolls = self.tracker.combat.initiative_dice(entries, edge=extras["edge"], kinds=extras["kinds"])
        order = ", ".join(f"{name} {n}" for name, n in rolls)
        if not extras["edge"]:
            def done(dice: list[Any] | None) -> None:
                if dice:
                    self.action_roll([d.face for d in dice])

            self.app.push_screen(FacesPrompt(_("Initiative"), sum(n for _name, n in rolls), 6,
                                             hint=_("in this order: {order}", order=order)), done)
            return
        # Edge on a roll: the rule of six adds dice (S7), so each roll is typed on its own, its sixes' dice after it.
        from ..prompts import ask_faces

        edged = {self.tracker.character(c)["name"] for c in extras["edge"]}
        collected: list[int] = []

        def ask(i: int) -> None:
            if i == len(rolls):
                self.action_roll(collected)
                return
            name, n = rolls[i]

            def then(faces: list[int]) -> None:
                collected.extend(faces)
                ask(i + 1)

            ask_faces(self.app, _("Initiative: {name}", name=name), n, 6, then,
                      wave=self.tracker.rolls.sr_six_wave if name in edged else None)

        ask(0)

    def action_close(self) -> None:
        self.dismiss(None)
