"""Rajapolku's challenge screen: R1–R7 pools, R11 spirit combat."""

from __future__ import annotations

from typing import Any, cast

from rich.text import Text
from textual.binding import Binding

from ....i18n import N_, _, shown
from ....rules.dice import RulesError
from ....session import odds, telling
from ....session.commands import Command, command
from ....session.model import Event
from ....session.records import RajaPool, SavedPool
from ....session.records import raja as raja_sheet
from ....session.rolls import RajaSide
from ....session.tracker import Tracker, TrackerError
from ....text import builtin_label, percent, wound_label
from ..prompts import TextPrompt
from .base import RollScreen, Side, _check, effect_rows, odds_line


class RajaRollScreen(RollScreen):
    """R1–R7 pools (and R11 spirit combat), R5 resolution, R6 degrees."""

    system_name = "Rajapolku"
    BINDINGS = RollScreen.BINDINGS + [
        Binding("plus", "add_condition('help')", N_("+Condition"), id="raja.help",
                tooltip=N_("A circumstance that helps this side (R4)")),
        Binding("minus", "add_condition('hinder')", N_("−Condition"), id="raja.hinder",
                tooltip=N_("A circumstance that hinders this side: +1d10 to the opposition (R4)")),
        Binding("b", "add_background", N_("+Background"), id="raja.background",
                tooltip=N_("Claim another background for this side (R2, R3)")),
        Binding("k", "toggle_spirit", N_("Spirit"), id="raja.spirit",
                tooltip=N_("Spirit combat: charges become the dice (R11)")),
        Binding("x", "end_fight", N_("End fight"), show=False, id="raja.end_fight",
                tooltip=N_("The GM ends the spirit combat: a side withdraws (R11)")),
        Binding("D", "harm", N_("Harm"), show=False, id="raja.harm",
                tooltip=N_("The loser of this roll: a wound step per degree, or a health note (R8, R9)")),
    ]

    def __init__(self, tracker: Tracker, challenge: str | None = None, *, actor: str | None = None) -> None:
        self.spirit = False
        super().__init__(tracker, challenge, actor=actor)
        # A challenge with a spirit combat under way reopens on it, between its two fighters (R11).
        fighters = tracker.rolls.spirit_fighters(challenge)
        if fighters is not None:
            self.spirit = True
            self.set_who(self.a, fighters[0])
            self.set_who(self.b, fighters[1])

    def on_who_changed(self, side: Side) -> None:
        side.backgrounds, side.abilities = {}, {}
        if side.who:
            ch = raja_sheet(self.tracker.character(side.who))
            side.backgrounds = {bg: False for bg in ch.get("backgrounds", [])}
            side.abilities = {ab["name"]: False for ab in ch.get("abilities", [])}

    def pool_of(self, side: Side) -> dict[str, Any] | None:
        return {"backgrounds": [k for k, v in side.backgrounds.items() if v],
                "abilities": [k for k, v in side.abilities.items() if v]}

    def apply_pool(self, side: Side, saved: SavedPool) -> None:
        pool = cast(RajaPool, saved)
        side.backgrounds = {k: k in pool["backgrounds"] for k in side.backgrounds}
        side.backgrounds.update({k: True for k in pool["backgrounds"]})
        side.abilities = {k: k in pool["abilities"] for k in side.abilities}

    def action_harm(self) -> None:
        from ..damage import HarmScreen

        offer = self.tracker.damage.harm_offer(self.last_event)
        if not offer.allowed:
            self.notify(shown(offer.reason), severity="warning", title=_("No harm to propose"))
            return
        self.app.push_screen(HarmScreen(self.tracker, offer))

    def _raja_side(self, side: Side) -> RajaSide:
        return RajaSide(side.label, [side.who] if side.who else [],
                        backgrounds=[k for k, v in side.backgrounds.items() if v],
                        abilities=[k for k, v in side.abilities.items() if v],
                        helping=list(side.helping), hindering=list(side.hindering),
                        effects_off=tuple(sorted(side.effects_off)))

    def rows(self, side: Side) -> list[tuple[str, Text | str]]:
        rows: list[tuple[str, Text | str]] = [("who", _("Who: {short}  (Enter to change)", short=side.short))]
        if self.spirit:
            if side.who:
                ch = raja_sheet(self.tracker.character(side.who))
                dice = self._spirit_dice()
                fight = self._fight()
                if dice is None:
                    # the reason (which side is short) is the session's message below the pools
                    rows.append(("info", _("charges {charges}: no fight can start now (R11)", charges=ch['charges'])))
                elif fight is not None:
                    rows.append(("info", _("charges {charges} left: rolls {n}d10 (entry paid)", charges=ch['charges'],
                                           n=dice[0 if side.role == 'a' else 1])))
                else:
                    rows.append(("info", _("charges {charges}: 1 to enter, rolls {n}d10", charges=ch['charges'],
                                           n=dice[0 if side.role == 'a' else 1])))
                pen = self.tracker.wound_penalty(side.who)
                if dice is not None and pen and self.tracker.settings.raja_spirit_wounds:
                    how = (_("−{pen} dice", pen=pen) if self.tracker.settings.raja_wound_penalty == "remove"
                           else _("+{pen} dice to the other side", pen=pen))
                    rows.append(("info", _("{wound}: {how} (R9, raja.spirit_wounds)", wound=wound_label(ch['wound']), how=how)))
            else:
                rows.append(("info", _("spirit combat needs a character (with charges)")))
            return rows
        if side.who:
            ch = raja_sheet(self.tracker.character(side.who))
            pen = self.tracker.wound_penalty(side.who)
            rows.append(("info", wound_label(ch['wound']) + (_(": −{pen} dice (R9)", pen=pen) if pen else "") +
                         _("   charges {charges}/{charges_max}", charges=ch['charges'], charges_max=ch['charges_max'])))
        rows.append(("info", _("[x] action die (R1)")))
        for bg, on_ in side.backgrounds.items():
            rows.append((f"bg:{bg}", f"{_check(on_)} {bg}"))
        for ab, on_ in side.abilities.items():
            cost = ""
            if side.who:
                spec = next((a for a in raja_sheet(self.tracker.character(side.who))["abilities"] if a["name"] == ab), None)
                if spec:
                    cost = _(" (always on)") if spec["per"] == "always" else _(" ({cost} charge/{per})", cost=spec['cost'], per=builtin_label(spec['per']))
            rows.append((f"ab:{ab}", Text(f"{_check(on_)} ✦ {ab}{cost}")))
        for c in side.helping:
            rows.append((f"help:{c}", _("[x] + {condition} (helps)", condition=c)))
        for c in side.hindering:
            rows.append((f"hinder:{c}", _("[x] − {condition} (+1d10 to the other side)", condition=c)))
        rows.extend(effect_rows(self.tracker, side, side.effects_off))
        rows.append(("add-bg", _("  … claim a background (b)")))
        rows.append(("add-help", _("  … helping condition (+)")))
        rows.append(("add-hinder", _("  … hindering condition (−)")))
        return rows

    def handle(self, side: Side, key: str) -> None:
        kind, _, name = key.partition(":")
        if kind == "eff":
            side.effects_off ^= {name}
        elif kind == "bg":
            side.backgrounds[name] = not side.backgrounds[name]
        elif kind == "ab":
            side.abilities[name] = not side.abilities[name]
        elif kind == "help":
            side.helping.remove(name)
        elif kind == "hinder":
            side.hindering.remove(name)
        elif kind == "add-bg":
            self.action_add_background()
        elif kind == "add-help":
            self.action_add_condition("help")
        elif kind == "add-hinder":
            self.action_add_condition("hinder")

    def action_add_condition(self, which: str) -> None:
        side = self.focused_side()

        def done(text: str | None) -> None:
            if text and text.strip():
                (side.helping if which == "help" else side.hindering).append(text.strip())
                self.refresh_view()

        question = (_("A circumstance that helps {short}:", short=side.short) if which == "help"
                    else _("A circumstance that hinders {short}:", short=side.short))
        self.app.push_screen(TextPrompt(question,
                                        placeholder=_("e.g. running shoes") if which == "help" else _("e.g. sprained ankle")),
                             done)

    def action_add_background(self) -> None:
        side = self.focused_side()

        def done(text: str | None) -> None:
            if text and text.strip():
                side.backgrounds[text.strip()] = True
                self.refresh_view()

        self.app.push_screen(TextPrompt(_("Background {short} claims:", short=side.short), placeholder=_("e.g. Street-wise")), done)

    def _fight(self) -> Any:
        return self.tracker.rolls.spirit_fight(self.challenge_id) if self.challenge_id else None

    def _spirit_dice(self) -> tuple[int, int] | None:
        """Each side's d10s in the next exchange (R11), or None when it cannot be fought."""
        if not (self.a.who and self.b.who) or self.a.who == self.b.who:
            return None
        try:
            return self.tracker.rolls.spirit_dice(self.a.who, self.b.who, self.challenge_id)
        except (RulesError, TrackerError):
            return None

    def action_toggle_spirit(self) -> None:
        self.spirit = not self.spirit
        self.result_lines = []
        self.refresh_view()

    def _pools(self) -> tuple[Any, Any]:
        return self.tracker.rolls.raja_pools(self._raja_side(self.a), self._raja_side(self.b))

    def pool_text(self) -> Text:
        t = Text()
        if self.spirit:
            fight = self._fight()
            if fight is None:
                # Two short lines: each line is one row (cut at the edge), so the rule is split where it reads.
                t.append(_("Spirit combat (R11): each side pays 1 charge to enter, once per fight;\nthe charges left are the dice; "
                           "an exchange's loser loses charges ({loss})", loss=self.tracker.settings.raja_spirit_loss))
            else:
                values = {"n": fight.exchanges + 1, "loss": self.tracker.settings.raja_spirit_loss}
                t.append(_("Spirit combat (R11), exchange {n}: each rolls the charges left;\nthe loser loses charges ({loss}), "
                           "the winner nothing. The fight is over.", **values) if fight.over else
                         _("Spirit combat (R11), exchange {n}: each rolls the charges left;\nthe loser loses charges ({loss}), "
                           "the winner nothing", **values))
            return t
        pa, pb = self._pools()
        for side, pool in ((self.a, pa), (self.b, pb)):
            t.append(f"{side.short}: {len(pool)}d10  ", style="bold")
            t.append(", ".join(("✦" if s.source == "ability" else "") + builtin_label(s.label or s.source) for s in pool))
            removed = self.tracker.rolls.raja_plan(self._raja_side(side)).removed
            if removed:
                dice = ", ".join(("✦" if s.source == "ability" else "") + s.label for s in removed)
                t.append(_("; wounds remove {dice} (no charge, R9)", dice=dice) if any(s.source == "ability" for s in removed)
                         else _("; wounds remove {dice}", dice=dice), style="dim")
            t.append("\n")
        return t

    def odds_text(self) -> Text:
        st = self.styles_map()
        if self.spirit:
            if not (self.a.who and self.b.who):
                return Text("")
            dice = self._spirit_dice()
            if dice is None or not all(dice):
                return Text(_("a side needs at least 2 charges to enter (1 to pay, 1 to roll) (R11)"))
            question = odds.RajaQuestion((dice[0], 0), (dice[1], 0))
        else:
            question = self.tracker.rolls.raja_question(self._raja_side(self.a), self._raja_side(self.b))
        o = odds.raja(question, self.tracker.rolls.settings_for())
        t = odds_line(self.a.short, o.a_wins, _("tie"), o.tie, self.b.short, o.b_wins, st)
        deg = o.degrees_given_win()
        if deg:
            t.append("\n " + _("degrees if someone wins:") + " " + "  ".join(f"{d}:{percent(p, 0)}" for d, p in enumerate(deg) if p >= 0.005))
        return t

    def face_counts(self) -> tuple[tuple[int, int], tuple[int, int]]:
        if self.spirit:
            dice = self._spirit_dice()
            if dice is None:
                raise RulesError(_("spirit combat needs two characters with at least 2 charges (R11)"))
            return (dice[0], 10), (dice[1], 10)
        pa, pb = self._pools()
        return (len(pa), 10), (len(pb), 10)

    def faces_hint(self) -> str:
        return _("faces 1–10 (0 is 10), commas or spaces, in the pool's order (action die first); ability dice as listed")

    def roll_command(self, faces: tuple[list[int], list[int]] | None) -> Command:
        if self.spirit:
            if not (self.a.who and self.b.who):
                raise RulesError(_("spirit combat needs a character on both sides (R11)"))
            return command("rolls.roll_spirit", self.a.who, self.b.who, challenge=self.challenge_id, faces=faces)
        return command("rolls.roll_raja", self._raja_side(self.a), self._raja_side(self.b),
                       challenge=self.challenge_id, faces=faces)

    def rolled(self, out: dict[str, Any] | None) -> dict[str, Any] | None:
        if not self.spirit or out is None:
            return out
        # an exchange of spirit combat (R11): the fight's challenge, and the exchange's event
        self.challenge_id = out.get("challenge", self.challenge_id)
        return {**out, "event": self.tracker.events[-1]}

    def after_roll_hints(self, ev: Event) -> list[str]:
        keys = {"reroll_tie": "r", "next_exchange": "r", "end_fight": "x"}
        return [f"  {keys[a.name]}: {shown(a.reason)}" for a in self.tracker.rolls.roll_actions(ev)
                if a.allowed and a.name in keys]

    def seat_request(self) -> Command | None:
        cid = self.a.who
        if self.spirit or not cid:
            self.app.notify(_("A player's seat rolls a challenge of a character (w) against the GM's pool; "
                            "spirit combat is rolled here"), severity="warning", title=_("Not sent"))
            return None
        mine, theirs, chal = self._raja_side(self.a), self._raja_side(self.b), self.challenge_id
        return command("seats.ask_raja", cid, mine, theirs, challenge=chal)

    def idle_hint(self) -> str:
        if self.spirit and any(a.allowed for a in self.tracker.rolls.spirit_actions(self.challenge_id)
                               if a.name == "end_fight"):
            return _("r the next exchange · x the GM ends the fight (a side withdraws) · ? keys")
        return super().idle_hint()

    def action_end_fight(self) -> None:
        """x: the GM ends the spirit combat of this challenge (R11), whether or not it was rolled on this screen."""
        chid = self.challenge_id
        act = next(a for a in self.tracker.rolls.spirit_actions(chid) if a.name == "end_fight")
        if not act.allowed:
            self.notify(shown(act.reason), severity="error", title=_("Not done"))
            return

        def ended(_: object) -> None:
            self.result_lines = [f"  {telling.event_text(self.tracker.events[-1])}"]
            self.refresh_view()

        if chid:
            self.run(command("rolls.end_spirit_fight", chid), ended)
