"""The Harhapolku narration contest (H9) as its own view."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...i18n import N_, _, ngettext, shown
from ...rules.dice import Die, DieSpec, RulesError
from ...rules.harhapolku import CONFLICT_DIE, TIER_TEXT
from ...session.commands import Command, command
from ...session.records import harha
from ...session.tracker import Tracker
from ...text import builtin_label
from ..messages import RunCommand, TrackerChanged
from ..widgets.keyline import KeyLine
from .prompts import ChoicePrompt, FacesPrompt, TextPrompt


class DicePicker(ModalScreen[list[int] | None]):
    """Choose dice from a hand: Enter or space toggles [x], d confirms, Escape cancels."""

    BINDINGS = [
        Binding("space", "toggle_die", N_("Toggle"), id="pick.toggle", tooltip=N_("Choose or drop the die")),
        Binding("d", "done", N_("Done"), id="pick.done", tooltip=N_("Use the chosen dice")),
        Binding("escape", "cancel", N_("Cancel"), id="pick.cancel", tooltip=N_("Cancel")),
    ]

    def __init__(self, title: str, dice: list[Die], *, preselect: int = 0) -> None:
        super().__init__()
        self.title_text = title
        self.dice = dice
        self.chosen = [i < preselect for i in range(len(dice))]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(self.title_text), classes="dialog--title")
            yield OptionList(id="pick-list")
            yield Static("", id="pick-sum")
            yield Static(_("Enter/space: toggle   d: done   Esc: cancel"), classes="dialog--hint")
        yield KeyLine()

    def on_mount(self) -> None:
        self._show()
        ol = self.query_one(OptionList)
        ol.highlighted = 0 if self.dice else None
        ol.focus()

    def _show(self) -> None:
        ol = self.query_one(OptionList)
        keep = ol.highlighted
        ol.set_options([Option(Text(_("{check} {face} on d{size} ({label})", check='[x]' if on else '[ ]', face=d.face, size=d.size,
                                         label=builtin_label(d.label or d.source))),
                               id=str(i)) for i, (d, on) in enumerate(zip(self.dice, self.chosen))])
        if keep is not None and self.dice:
            ol.highlighted = keep
        picked = [d for d, on in zip(self.dice, self.chosen) if on]
        self.query_one("#pick-sum", Static).update(
            Text(ngettext("chosen: {n} die, sum {sum}", "chosen: {n} dice, sum {sum}", len(picked),
                          sum=sum(d.face for d in picked))))

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_toggle_die()

    def action_toggle_die(self) -> None:
        # not action_toggle: that is DOMNode's "toggle an attribute" action
        i = self.query_one(OptionList).highlighted
        if i is not None:
            self.chosen[i] = not self.chosen[i]
            self._show()

    def action_done(self) -> None:
        self.dismiss([i for i, on in enumerate(self.chosen) if on])

    def action_cancel(self) -> None:
        self.dismiss(None)


class NarrationScreen(ModalScreen[None]):
    """Who narrates, the dice on the table and their sum, burns and their tiers, the GM's harm roll."""

    BINDINGS = [
        Binding("b", "roll_background", N_("Roll bg die"), id="nar.roll", tooltip=N_("Roll a background's die (once per scene)")),
        Binding("o", "open", N_("Take narration"), id="nar.open", tooltip=N_("Take the open narration with two dice")),
        Binding("u", "usurp", N_("Burn/usurp"), id="nar.usurp", tooltip=N_("Put down dice whose sum exceeds the table's")),
        Binding("g", "harm", N_("GM harm roll"), id="nar.harm", tooltip=N_("The GM's harm roll after a >3-dice usurpation")),
        Binding("D", "harm_note", N_("Harm note"), show=False, id="nar.harm_note",
                tooltip=N_("After a harm roll that harmed: the usurper's health note, proposed for the GM to word (H9)")),
        Binding("G", "toggle_gm_only", N_("GM only"), show=False, id="nar.gm_only",
                tooltip=N_("Make the GM's harm roll the GM's only: the players see \"the GM rolls\"")),
        Binding("e", "edge_reroll", N_("Edge reroll"), show=False, id="nar.edge",
                tooltip=N_("Reroll a participant's background dice in hand with an unused edge (H7, once a session)")),
        Binding("k", "conflict", N_("Conflict"), id="nar.conflict", tooltip=N_("Conversation d4 / brawl d6 / armed d8 / firefight d10")),
        Binding("a", "ability_fight", N_("Ability fight"), show=False, id="nar.ability",
                tooltip=N_("A fight with abilities: the GM wins harm rolls")),
        Binding("f", "toggle_physical", N_("Physical dice"), id="nar.physical",
                tooltip=N_("Type the faces of physical dice for background dice and the GM's harm roll")),
        Binding("escape", "close", N_("Close"), id="nar.close", tooltip=N_("Close")),
    ]

    DEFAULT_CSS = """
    NarrationScreen { align: center middle; }
    NarrationScreen #nar-box { width: 100%; height: 100%; border: round $primary; background: $surface; padding: 0 1; }
    NarrationScreen #nar-title { text-style: bold; color: $accent; height: 1; }
    """

    def __init__(self, tracker: Tracker) -> None:
        super().__init__()
        self.tracker = tracker
        self.last_text = ""
        self.physical = False
        """Background dice and the harm roll take faces typed from physical dice (f toggles)."""
        self.gm_only = False
        """The GM's harm roll is the GM's only (docs/rules.md); the dice on the table are everyone's (H9)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="nar-box"):
            yield Static(_("Narration contest (H9)"), id="nar-title")
            with VerticalScroll():
                yield Static("", id="nar-body")
        yield KeyLine()

    def on_mount(self) -> None:
        self.show()

    @on(TrackerChanged)
    def _tracker_changed(self, message: TrackerChanged) -> None:
        if self.is_mounted:
            self.show()

    def show(self) -> None:
        c = self.tracker.rolls.narration()
        n = self.tracker.state["narration"]
        t = Text()
        t.append(_("Conflict: {conflict} (GM harm dice d{size})", conflict=c.conflict, size=c.harm_die_size))
        t.append(_("\nDice: ") + (_("physical ones, faces typed in (f: the program's)") if self.physical
                              else _("the program's (f: type the faces of physical dice)")), style="dim")
        if self.gm_only:
            t.append(_("\nThe GM's harm roll: GM ONLY (the players see \"the GM rolls\"; G: public)"), style="bold")
        if c.ability_fight:
            t.append(_(" — a fight with abilities: the GM wins harm rolls"), style="bold")
        t.append("\n\n")
        if c.narrator:
            t.append(_("Narrator: "), style="bold")
            t.append(f"{c.narrator}   table: " + " + ".join(f"{d.face}/d{d.size}" for d in c.table) +
                     f" = {c.table_total}\n")
            t.append(_("To usurp, put down dice summing more than {total}.\n", total=c.table_total), style="dim")
        else:
            t.append(_("Nobody narrates: take the narration with two rolled dice (o).\n"), style="bold")
        t.append(_("\nUnburned dice in hand:\n"), style="bold")
        names = [ch["name"] for ch in self.tracker.characters.values()]
        for name in names:
            hand = c.hand(name)
            rolled = sorted(c.rolled_backgrounds(name))
            line = f"  {name}: " + (", ".join(f"{d.face}/d{d.size} {d.label}" for d in hand) or "—")
            if rolled:
                line += _("   (rolled this scene: {backgrounds})", backgrounds=', '.join(rolled))
            t.append(line + "\n")
        burned = n.get("burned", [])
        if burned:
            t.append(_("\nBurned this scene:\n"), style="bold")
            for b in burned[-6:]:
                t.append(_("  {by} burned {owner}'s {faces}", by=b['by'], owner=b['owner'],
                           faces="+".join(str(d["face"]) for d in b["dice"])) + "\n")
        if c.last is not None:
            t.append(ngettext("\nLast usurpation: {who} with {n} die = {total}: {tier}\n",
                              "\nLast usurpation: {who} with {n} dice = {total}: {tier}\n", len(c.last.dice),
                              who=c.last.who, total=c.last.total, tier=_(TIER_TEXT[c.last.tier])), style="bold")
            if c.last.tier == "harm_roll" and not c.last.harm_resolved:
                t.append(_("  GM harm roll due: {n}d{size} against {total} (g)\n", n=c.last.gm_dice, size=c.last.gm_die_size,
                           total=c.last.total))
        if self.last_text:
            t.append(f"\n{self.last_text}\n", style="italic")
        self.query_one("#nar-body", Static).update(t)

    def _run(self, cmd: Command) -> None:
        def done(step: object) -> None:
            if step is not None and hasattr(step, "text"):
                self.last_text = step.text
            self.show()

        self.app.post_message(RunCommand(cmd, origin=self, then=done))

    def _pick_participant(self, title: str, then: Any, *, need_dice: int = 0) -> None:
        c = self.tracker.rolls.narration()
        choices = []
        for ch in self.tracker.characters.values():
            hand = c.hand(ch["name"])
            if len(hand) >= need_dice:
                choices.append((ch["name"], ngettext("{name} ({n} die in hand)", "{name} ({n} dice in hand)", len(hand), name=ch['name'])))
        if not choices:
            self.notify(ngettext("Nobody has {n} rolled die in hand; roll background dice first (b)",
                                 "Nobody has {n} rolled dice in hand; roll background dice first (b)", need_dice), severity="warning")
            return
        self.app.push_screen(ChoicePrompt(title, choices), then)

    def action_roll_background(self) -> None:
        def who_chosen(name: str | None) -> None:
            if not name:
                return
            choices = [(f"{bg}\x1f{size}", f"{bg} (d{size})") for bg, size in self.tracker.rolls.narration_backgrounds(name)]
            choices.append(("__other__", _("another background… (d8)")))

            def bg_chosen(value: str | None) -> None:
                if value is None:
                    return
                if value == "__other__":
                    def typed(text: str | None) -> None:
                        if text and text.strip():
                            self._roll_background(name, text.strip(), 8)

                    self.app.push_screen(TextPrompt(_("Background name:")), typed)
                    return
                bg, size = value.split("\x1f")
                self._roll_background(name, bg, int(size))

            self.app.push_screen(ChoicePrompt(_("{name} rolls which background? (once per scene)", name=name), choices), bg_chosen)

        choices = [(ch["name"], ch["name"]) for ch in self.tracker.characters.values()]
        self.app.push_screen(ChoicePrompt(_("Who rolls a background die?"), choices), who_chosen)

    def action_open(self) -> None:
        def who_chosen(name: str | None) -> None:
            if not name:
                return
            hand = list(self.tracker.rolls.narration().hand(name))

            def picked(idx: list[int] | None) -> None:
                if idx is None:
                    return
                dice = [hand[i] for i in idx]
                self._run(command("rolls.narration_open", name, dice))

            self.app.push_screen(DicePicker(_("{name}: choose exactly two dice for the table", name=name), hand, preselect=2), picked)

        self._pick_participant(_("Who takes the narration?"), who_chosen, need_dice=2)

    def action_usurp(self) -> None:
        def who_chosen(name: str | None) -> None:
            if not name:
                return
            hand = list(self.tracker.rolls.narration().hand(name))
            total = self.tracker.rolls.narration().table_total

            def picked(idx: list[int] | None) -> None:
                if idx is None:
                    return
                dice = [hand[i] for i in idx]
                self._run(command("rolls.narration_usurp", name, dice))

            self.app.push_screen(DicePicker(_("{name}: dice to burn the table's {total} with (sum must exceed it). 1 die negates, 2–3 parry, >3 harm roll", name=name, total=total), hand), picked)

        self._pick_participant(_("Who usurps the narration?"), who_chosen, need_dice=1)

    def _roll_background(self, name: str, background: str, size: int) -> None:
        if not self.physical:
            self._run(command("rolls.narration_roll_background", name, background, size))
            return

        def typed(dice: list[Die] | None) -> None:
            if dice:
                faces = [d.face for d in dice]
                self._run(command("rolls.narration_roll_background", name, background, size, faces=faces))

        self.app.push_screen(FacesPrompt(_("{name}'s {background} die", name=name, background=background), 1, size), typed)

    def action_edge_reroll(self) -> None:
        """H7: an unused edge throws a participant's background dice still in hand again (H9's hand)."""
        contest = self.tracker.rolls.narration()
        choices = []
        for name, hand in contest.hands:
            for cid in self.tracker.rolls.narration_ids([name]):
                for edge in harha(self.tracker.character(cid))["edges"]:
                    if not edge["used"]:
                        choices.append((f"{name}\x1f{cid}\x1f{edge['name']}",
                                        ngettext("{name}: edge '{edge}' — reroll {n} die in hand", "{name}: edge '{edge}' — reroll {n} dice in hand",
                                                 len(hand), name=name, edge=edge['name'])))
        if not choices:
            self.notify(_("Nobody with dice in hand has an unused edge this session (H7)"), severity="warning")
            return

        def chosen(value: str | None) -> None:
            if value is None:
                return
            name, cid, edge = value.split("\x1f")
            hand = contest.hand(name)
            if not self.physical:
                self._run(command("rolls.narration_edge_reroll", name, cid, edge))
                return

            def typed(dice: list[Die] | None) -> None:
                if dice:
                    faces = [d.face for d in dice]
                    self._run(command("rolls.narration_edge_reroll", name, cid, edge, faces=faces))

            self.app.push_screen(FacesPrompt(_("{name} rerolls with edge '{edge}'", name=name, edge=edge), len(hand),
                                             [d.size for d in hand]), typed)

        self.app.push_screen(ChoicePrompt(_("Which edge? (once per session, only where it helps)"), choices), chosen)

    def action_toggle_gm_only(self) -> None:
        self.gm_only = not self.gm_only
        self.show()

    def _harm(self, faces: list[int] | None) -> None:
        self._run(command("rolls.narration_harm", faces=faces, gm_only=self.gm_only))

    def action_toggle_physical(self) -> None:
        self.physical = not self.physical
        self.show()

    def action_harm(self) -> None:
        c = self.tracker.rolls.narration()
        specs: tuple[DieSpec, ...] = ()
        if self.physical and not c.ability_fight:
            try:
                specs = c.harm_dice()  # the contest says how many dice of which size, if one is due
            except RulesError:
                specs = ()
        if not specs:
            self._harm(None)  # the tracker says why not, or rolls
            return

        def typed(dice: list[Die] | None) -> None:
            if dice:
                self._harm([d.face for d in dice])

        total = c.last.total if c.last is not None else 0
        self.app.push_screen(FacesPrompt(_("The GM's harm roll against {total}", total=total), len(specs), specs[0].size), typed)

    def action_harm_note(self) -> None:
        from .damage import HarmScreen

        offer = self.tracker.damage.harm_offer(self.tracker.damage.last_event())
        if not offer.allowed:
            self.notify(shown(offer.reason), severity="warning", title=_("No harm to note"))
            return
        self.app.push_screen(HarmScreen(self.tracker, offer))

    def action_conflict(self) -> None:
        kinds = list(CONFLICT_DIE)
        c = self.tracker.rolls.narration()
        nxt = kinds[(kinds.index(c.conflict) + 1) % len(kinds)]
        self._run(command("rolls.narration_conflict", nxt, c.ability_fight))

    def action_ability_fight(self) -> None:
        c = self.tracker.rolls.narration()
        self._run(command("rolls.narration_conflict", c.conflict, not c.ability_fight))

    def action_close(self) -> None:
        self.dismiss(None)
