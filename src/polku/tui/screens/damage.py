"""Damage and harm from a roll: the session's proposal as rows the GM confirms or edits.

- :class:`DamageScreen` (Varjojuoksu): target, weapon (``w`` takes the next one on the
  attacker's sheet; the one it last attacked with comes first), damage value,
  physical/stun, AP, its kind, the defender's armour of the kind that meets it
  (ballistic or impact, said on the row), Edge; ``r`` rolls the
  resistance with the program's dice, ``f`` takes the faces of physical dice;
  then, while the defender may still spend Edge on that roll, ``e`` (Edge
  after, S7), ``g`` (negate a glitch, S5) or ``c`` (reduce a critical glitch,
  S6) — the boxes are filled again — and Escape is done.
- :class:`HarmScreen` (Rajapolku/Harhapolku): the proposed wound step and
  health note; Enter on a row edits it, ``y`` confirms.

The screens compute nothing: the numbers, the preview line and the change come
from ``tracker.damage`` (:mod:`polku.session.table.damage`).
"""

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

from ...i18n import N_, _, ngettext, shown
from ...rules.dice import RulesError
from ...rules.shadowrun import WEAPON_KINDS, ArmourPenetration, parse_ap
from ...rules.system import raja_wound_effect
from ...session import telling
from ...session.commands import command
from ...session.model import Event
from ...session.records import sr
from ...session.table.damage import HarmOffer, Weapon
from ...session.tracker import Tracker, TrackerError
from ...text import die_text
from ..messages import RunCommand
from ..widgets.keyline import KeyLine
from .prompts import FacesPrompt, TextPrompt, ask_faces

_NUMBER_ROWS = {"dv": ("Damage value (DV)", 0, 99), "armour": ("Armour", 0, 99), "net": ("Net hits", 0, 99)}


class RowsModal(ModalScreen[Any]):
    """A small modal of rows: ←/→ change the highlighted row, Enter edits it."""

    DEFAULT_CSS = """
    RowsModal { align: center middle; }
    RowsModal .rows-box { width: 76; max-width: 100%; height: auto; max-height: 100%; border: round $primary;
                      background: $surface; padding: 0 1; }
    RowsModal .rows-title { height: auto; text-style: bold; color: $accent; }
    RowsModal .rows-preview { height: auto; padding-bottom: 1; }
    RowsModal #rows { height: auto; max-height: 12; border: none; background: $surface; padding: 0; }
    RowsModal .rows-hint { height: auto; color: $text-muted; margin-top: 1; }
    """

    def __init__(self, tracker: Tracker) -> None:
        super().__init__()
        self.tracker = tracker

    def title_line(self) -> str:
        raise NotImplementedError

    def rows(self) -> list[tuple[str, str]]:
        raise NotImplementedError

    def preview(self) -> str:
        return ""

    def hint(self) -> str:
        return ""

    def compose(self) -> ComposeResult:
        with Vertical(classes="rows-box"):
            yield Static(Text(self.title_line()), classes="rows-title", id="rows-title")
            yield Static(Text(self.preview()), classes="rows-preview", id="rows-preview")
            yield OptionList(id="rows")
            yield Static(Text(self.hint()), classes="rows-hint")
        yield KeyLine()

    def on_mount(self) -> None:
        self.render_rows()
        rows = self.query_one("#rows", OptionList)
        rows.highlighted = 0
        rows.focus()

    def render_rows(self) -> None:
        rows = self.query_one("#rows", OptionList)
        keep = rows.highlighted
        options = []
        for key, text in self.rows():
            label, _tab, value = text.partition("\t")
            line = Text()
            line.append(f"{label:<26}", style="dim")
            line.append(value, style="bold")
            options.append(Option(line, id=key))
        rows.set_options(options)
        rows.highlighted = min(keep or 0, len(options) - 1) if options else None
        self.query_one("#rows-preview", Static).update(Text(self.preview()))

    def highlighted(self) -> str | None:
        opt = self.query_one("#rows", OptionList).highlighted_option
        return opt.id if opt is not None else None

    @on(OptionList.OptionSelected, "#rows")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.edit(event.option.id or "")

    def action_change(self, delta: int) -> None:
        key = self.highlighted()
        if key is not None:
            self.step(key, delta)
            self.render_rows()

    def step(self, key: str, delta: int) -> None:
        """Change row ``key`` by one step."""

    def edit(self, key: str) -> None:
        """Enter on row ``key``: type its value (a number row, a text row) or step it."""
        self.step(key, 1)
        self.render_rows()

    def ask(self, title: str, value: str, done: Any, *, lo: int | None = None, hi: int | None = None) -> None:
        def check(text: str) -> str | None:
            if lo is None:
                return None
            raw = text.strip().replace("−", "-")
            if not raw.lstrip("+-").isdigit():
                return _("a whole number {lo} to {hi}", lo=lo, hi=hi)
            n = int(raw)
            return None if lo <= n <= (hi if hi is not None else n) else _("a whole number {lo} to {hi}", lo=lo, hi=hi)

        def back(text: str | None) -> None:
            if text is not None:
                done(text.strip() if lo is None else int(text.strip().replace("−", "-")))
                self.render_rows()

        self.app.push_screen(TextPrompt(title, value, check=check), back)

    def action_cancel(self) -> None:
        self.dismiss(None)


class DamageScreen(RowsModal):
    """Apply damage from an opposed attack (or a hit the GM describes) to one defender."""

    BINDINGS = [
        Binding("r", "apply", N_("Roll resistance"), id="damage.roll",
                tooltip=N_("Roll the damage resistance test with the program's dice and fill the boxes")),
        Binding("f", "faces", N_("Faces"), id="damage.faces",
                tooltip=N_("Type the faces of physical dice for the resistance test")),
        Binding("w", "next_weapon", N_("Weapon"), id="damage.weapon",
                tooltip=N_("The next weapon on the attacker's sheet (its DV, AP and the armour that meets it)")),
        Binding("right,space", "change(1)", N_("Next"), show=False, id="damage.next",
                tooltip=N_("Next value of the highlighted row")),
        Binding("left", "change(-1)", N_("Previous"), show=False, id="damage.previous",
                tooltip=N_("Previous value of the highlighted row")),
        Binding("escape", "cancel", N_("Cancel"), id="damage.cancel", tooltip=N_("Close without applying damage")),
        Binding("e", "post('edge_after')", N_("Edge after"), id="damage.edge_after",
                tooltip=N_("After the resistance roll: the defender spends Edge for more dice (S7), fewer boxes")),
        Binding("g", "post('negate_glitch')", N_("Negate glitch"), id="damage.negate",
                tooltip=N_("After the resistance roll: 1 Edge negates its glitch (S5)")),
        Binding("c", "post('reduce_critical')", N_("Reduce crit"), id="damage.reduce",
                tooltip=N_("After the resistance roll: 1 Edge turns its critical glitch into a glitch (S6)")),
        Binding("escape", "done", N_("Done"), id="damage.done",
                tooltip=N_("Close: the boxes the resistance roll filled stay filled (u undoes)")),
    ]

    _BEFORE = frozenset({"apply", "faces", "change", "cancel", "next_weapon"})
    """Keys of the form, before the resistance roll."""
    _AFTER = frozenset({"post", "done"})
    """Keys once the roll is made: Edge after it (S5–S7), or done."""
    POST_KEYS = {"edge_after": "e", "negate_glitch": "g", "reduce_critical": "c"}

    def __init__(self, tracker: Tracker, roll_event: Event | None, target: str = "") -> None:
        super().__init__(tracker)
        self.roll_event = roll_event
        d = tracker.damage
        if roll_event is not None:
            offer = d.offer(roll_event)
            self.targets = list(offer.targets)
            self.attacker = offer.attacker
            self.net_hits = offer.net_hits
            self.weapons = list(offer.weapons)
        else:
            self.targets = [target]
            self.attacker = ""
            self.net_hits = 0
            self.weapons = []
        self.target = self.targets[0]
        self.take(self.weapons[0] if self.weapons else Weapon("", 5, "physical"))
        self.edge = False
        self.result: Event | None = None
        """The resistance roll once made: the form shows what Edge can still do to it."""

    def take(self, w: Weapon) -> None:
        """Fill the rows from a weapon: its DV, damage, AP and kind, and the defender's armour that meets it."""
        self.weapon, self.dv, self.damage, self.ap, self.skill, self.kind = (
            w.name, w.dv, w.damage, w.ap, w.skill, w.kind)
        self.wear()

    def wear(self) -> None:
        """The target's armour of the kind that meets the weapon (ballistic or impact)."""
        self.armour, self.which = self.tracker.damage.armour_against(self.target, self.kind)

    def action_next_weapon(self) -> None:
        """``w``: the next weapon on the attacker's sheet."""
        if not self.weapons:
            self.notify(_("no weapon on the attacker's sheet: Enter on the weapon row names one"), severity="warning")
            return
        self.step("weapon", 1)
        self.render_rows()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in self._BEFORE:
            return self.result is None
        if action in self._AFTER:
            return self.result is not None
        return True

    def title_line(self) -> str:
        t = self.tracker
        if self.result is not None:
            return telling.event_text(self.result)
        who = t.character(self.target)["name"]
        if self.roll_event is None:
            return _("Damage to {who}", who=who)
        by = t.character(self.attacker)["name"] if self.attacker else _("the attacker")
        return ngettext("Apply damage: {by} hits {who} ({n} net hit)", "Apply damage: {by} hits {who} ({n} net hits)",
                        self.net_hits, by=by, who=who)

    def preview(self) -> str:
        if self.result is not None:
            roll = self.result["roll"]
            faces = " ".join(die_text(d["face"], d.get("source", "die")) for d in roll["sides"][0]["dice"]) or _("no dice")
            out = roll["outcome"]
            glitch = self.tracker.damage.glitch_words(out)
            return (ngettext("resistance: {faces} → {n} hit", "resistance: {faces} → {n} hits", out['hits'], faces=faces)
                    + (f", {glitch}" if glitch else ""))
        return self.tracker.damage.preview(self.target, self.dv, self.net_hits, self.damage, self.ap,
                                           self.armour, self.edge, self.which)

    def hint(self) -> str:
        if self.result is not None:
            if not any(a.allowed for a in self.tracker.damage.post_roll_actions(self.result)):
                return _("The boxes are filled; nothing more can be spent on this roll. Esc: done (u undoes it).")
            return (_("The boxes are filled. Enter or e/g/c: spend the defender's Edge on this roll · "
                    "Esc: done (u undoes the hit)."))
        return (_("←/→: change · Enter: type a value · w: next weapon · r: roll resistance · f: physical dice · "
                "Esc: cancel.  The weapon is remembered for the attacker's next hit."))

    def rows(self) -> list[tuple[str, str]]:
        t = self.tracker
        if self.result is not None:
            labels = {"edge_after": _("Edge after the roll"), "negate_glitch": _("Negate the glitch"),
                      "reduce_critical": _("Reduce the critical")}
            return [(f"post:{a.name}", f"{self.POST_KEYS[a.name]}  {labels[a.name]}\t"
                     + (shown(a.reason) if a.allowed else _("no: {reason}", reason=shown(a.reason))))
                    for a in t.damage.post_roll_actions(self.result) if a.name in labels]
        ch = sr(t.character(self.target))
        out = [("target", _("Target\t{name}", name=ch['name']) + (_(" (←/→ for another)") if len(self.targets) > 1 else ""))]
        if self.roll_event is None:
            out.append(("net", _("Net hits\t{net_hits}", net_hits=self.net_hits)))
        names = [w.name for w in self.weapons]
        place = _("  ({i}/{n} on the sheet, w: next)", i=names.index(self.weapon) + 1, n=len(names)) if self.weapon in names else (
            _("  (not on the sheet: joins it; w: {n} on it)", n=len(names)) if names and self.weapon else "")
        out += [
            ("weapon", _("Weapon\t{weapon}{place}", weapon=self.weapon or _("(none: Enter names it)"), place=place)),
            ("dv", _("Damage value (DV)\t{dv}", dv=self.dv)),
            ("damage", _("Damage\t{damage}", damage=self.damage)),
            ("ap", _("Armour Penetration (AP)\t{text}", text=self.ap.text)),
            ("kind", _("Weapon kind\t{kind}", kind=self.kind) + (f" ({self.skill})" if self.skill else "")),
            ("armour", _("Armour: {which}\t{armour}  ({which} meets a {kind} weapon)", which=self.which, armour=self.armour, kind=self.kind)),
            ("edge", _("Edge before the roll\t{yes_no}  (Edge {edge}/{rating}; after it: e)",
                        yes_no=_("yes") if self.edge else _("no"), edge=ch['edge'], rating=ch['edge_rating'])),
        ]
        return out

    def step(self, key: str, delta: int) -> None:
        if key == "target" and len(self.targets) > 1:
            i = (self.targets.index(self.target) + delta) % len(self.targets)
            self.target = self.targets[i]
            self.wear()
            self.query_one("#rows-title", Static).update(Text(self.title_line()))
        elif key == "weapon" and self.weapons:
            names = [w.name for w in self.weapons]
            i = (names.index(self.weapon) + delta) % len(names) if self.weapon in names else 0
            self.take(self.weapons[i])
        elif key == "kind":
            self.kind = WEAPON_KINDS[(WEAPON_KINDS.index(self.kind) + delta) % len(WEAPON_KINDS)]
            self.wear()
        elif key == "ap" and not self.ap.half:
            self.ap = ArmourPenetration(max(-99, min(99, self.ap.modifier + delta)))
        elif key == "damage":
            self.damage = "stun" if self.damage == "physical" else "physical"
        elif key == "edge":
            self.edge = not self.edge
        elif key in _NUMBER_ROWS:
            _, lo, hi = _NUMBER_ROWS[key]
            attr = {"dv": "dv", "armour": "armour", "net": "net_hits"}[key]
            setattr(self, attr, max(lo, min(hi, getattr(self, attr) + delta)))

    def edit(self, key: str) -> None:
        if key.startswith("post:"):
            self.action_post(key[5:])
            return
        if key == "weapon":
            self.ask(_("Weapon name (remembered with its DV, damage and AP):"), self.weapon,
                     lambda v: setattr(self, "weapon", v))
        elif key == "ap":
            self.ask_ap()
        elif key in _NUMBER_ROWS:
            label, lo, hi = _NUMBER_ROWS[key]
            attr = {"dv": "dv", "armour": "armour", "net": "net_hits"}[key]
            self.ask(f"{label}:", str(getattr(self, attr)), lambda v: setattr(self, attr, v), lo=lo, hi=hi)
        else:
            super().edit(key)

    def ask_ap(self) -> None:
        """AP as the books print it: −2, +2, −half, — (refused in one line otherwise)."""
        def check(text: str) -> str | None:
            try:
                parse_ap(text)
            except RulesError as e:
                return str(e)
            return None

        def back(text: str | None) -> None:
            if text is not None:
                self.ap = parse_ap(text)
                self.render_rows()

        self.app.push_screen(TextPrompt(_("Armour Penetration (AP) as the book prints it: −2, +2, −half, —"),
                                        self.ap.text, check=check), back)

    def _apply(self, faces: list[int] | None) -> None:
        self.app.post_message(RunCommand(command("damage.apply",
            self.roll_event, target=self.target, dv=self.dv, damage=self.damage, ap=self.ap, armour=self.armour,
            weapon=self.weapon, skill=self.skill, kind=self.kind, edge=self.edge, faces=faces,
            net_hits=self.net_hits if self.roll_event is None else None), origin=self,
            then=lambda out: self._show_result(out["event"])))

    def _show_result(self, ev: Event, *, stay: bool = False) -> None:
        """The roll is made and the boxes filled: close, or, while the defender may still spend
        Edge on the roll (S5–S7), show what it can do (the session says what is allowed). After
        Edge was spent (``stay``) the new dice are shown until Esc."""
        if not stay and not any(a.allowed for a in self.tracker.damage.post_roll_actions(ev)):
            self.notify(telling.event_text(ev), title=_("Damage"))
            self.dismiss(ev)
            return
        self.result = ev
        self.query_one("#rows-title", Static).update(Text(self.title_line()))
        self.query_one(".rows-hint", Static).update(Text(self.hint()))
        self.render_rows()
        self.query_one("#rows", OptionList).highlighted = 0
        self.refresh_bindings()

    def action_done(self) -> None:
        if self.result is not None:
            self.notify(telling.event_text(self.result), title=_("Damage"))
        self.dismiss(self.result)

    def action_post(self, what: str) -> None:
        """Spend the defender's Edge on the resistance roll; physical dice when the roll was typed in."""
        ev = self.result
        if ev is None:
            return
        d = self.tracker.damage
        act = next((a for a in d.post_roll_actions(ev) if a.name == what), None)
        if act is None or not act.allowed:
            self.notify(shown(act.reason) if act else _("that cannot be done to this roll"), severity="error", title=_("Not done"))
            return

        def post(faces: list[int] | None) -> None:
            self.app.post_message(RunCommand(command("damage.post_roll", ev, what, faces=faces), origin=self,
                                             then=lambda out: self._show_result(out["event"], stay=True)))

        n = d.post_roll_dice(ev, what)
        if not n or not ev["roll"].get("manual"):
            post(None)
            return
        # The roll was made with physical dice: so are the Edge dice, and the sixes among them.
        ask_faces(self.app, _("{name}'s Edge dice (rule of six)", name=self.tracker.character(self.target)['name']), n, 6,
                  post, wave=self.tracker.rolls.sr_six_wave,
                  hint=_("rule of six: a prompt follows for the dice the sixes add"))

    def action_apply(self) -> None:
        self._apply(None)

    def action_faces(self) -> None:
        """Physical dice: the pool (+ Edge dice) first, then one prompt per wave of sixes when Edge explodes them."""
        faces: list[int] = []
        d = self.tracker.damage

        def ask_more() -> None:
            try:
                n = d.faces_needed(self.target, self.armour, self.ap, self.edge, faces)
            except (TrackerError, RulesError) as e:  # a refused value: say it, keep the form
                self.notify(str(e), severity="error", title=_("Not done"))
                return
            if n == 0:
                self._apply(faces)
                return
            what = _("resistance test") if not faces else _("rule of six: the dice rolled again")
            self.app.push_screen(FacesPrompt(f"{self.tracker.character(self.target)['name']}'s {what}", n, 6), got)

        def got(dice: Any) -> None:
            if dice:
                faces.extend(x.face for x in dice)
                ask_more()

        ask_more()


class HarmScreen(RowsModal):
    """Confirm or edit the harm a lost challenge (R8/R9) or a harm roll (H9) proposes."""

    BINDINGS = [
        Binding("y", "confirm", N_("Confirm"), id="harm.confirm", tooltip=N_("Apply the wound step and the health note")),
        Binding("right,space", "change(1)", N_("More"), show=False, id="harm.more", tooltip=N_("One step more")),
        Binding("left", "change(-1)", N_("Fewer"), show=False, id="harm.fewer", tooltip=N_("One step fewer")),
        Binding("escape", "cancel", N_("Cancel"), id="harm.cancel", tooltip=N_("Close without any harm")),
    ]

    def __init__(self, tracker: Tracker, offer: HarmOffer) -> None:
        super().__init__(tracker)
        self.offer = offer
        self.steps = offer.steps
        self.note = offer.note

    def title_line(self) -> str:
        return _("Harm to {name} — {reason}", name=self.tracker.character(self.offer.who)['name'],
                 reason=shown(self.offer.reason))

    def _level(self) -> str:
        ch = self.tracker.character(self.offer.who)
        track = self.tracker.state["wound_track"]
        if "wound" not in ch:
            return ""
        i = track.index(ch["wound"]) if ch["wound"] in track else 0
        return str(track[min(len(track) - 1, i + self.steps)])

    def preview(self) -> str:
        ch = self.tracker.character(self.offer.who)
        if "wound" in ch:
            effect = raja_wound_effect(self._level())
            return f"{ch['wound']} → {self._level()}" + (f" ({effect})" if effect else "")
        return _("Harhapolku keeps no wound track: the note is the harm")

    def hint(self) -> str:
        return _("←/→: fewer/more steps · Enter: edit · y: confirm · Esc: no harm")

    def rows(self) -> list[tuple[str, str]]:
        out = []
        if "wound" in self.tracker.character(self.offer.who):
            out.append(("steps", _("Steps down the track\t{steps}", steps=self.steps)))
        out.append(("note", _("Health note\t{note}", note=self.note or _("(none)"))))
        return out

    def step(self, key: str, delta: int) -> None:
        if key == "steps":
            self.steps = max(0, min(len(self.tracker.state["wound_track"]) - 1, self.steps + delta))

    def edit(self, key: str) -> None:
        if key == "note":
            self.ask(_("Health note (free text, R8 / H9):"), self.note, lambda v: setattr(self, "note", v))
        else:
            super().edit(key)

    def action_confirm(self) -> None:
        # The command logs one wound event (a change that changes nothing is refused).
        self.app.post_message(RunCommand(command("damage.apply_harm", self.offer, steps=self.steps, note=self.note),
                                         origin=self, then=lambda _: self.dismiss(self.tracker.events[-1])))


__all__ = ["DamageScreen", "HarmScreen"]
