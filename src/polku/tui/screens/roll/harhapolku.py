"""Harhapolku's challenge screen: H2 pools, H3–H6 comparisons, H8, H7 edge rerolls."""

from __future__ import annotations

from typing import Any, cast

from rich.text import Text
from textual.binding import Binding

from ....i18n import N_, _, shown
from ....rules.dice import RulesError
from ....session import odds
from ....session.commands import Command, command
from ....session.model import HARHA_TIER_LABELS, HARHA_TIERS, Event
from ....session.records import HarhaPool, SavedPool
from ....session.records import harha as harha_sheet
from ....session.rolls import HarhaSide
from ....session.tracker import Tracker, TrackerError
from ....text import builtin_label, percent
from ...render import short_name
from ..character import harha_tier_key, harha_tier_words
from ..prompts import ChoicePrompt, TextPrompt, ask_faces
from .base import RollScreen, Side, _bar, _check, effect_rows, odds_line


class HarhaRollScreen(RollScreen):
    """H2 pools, H4 (chapter 23) or H3 (classic) comparison, H8, H7 edge rerolls."""

    system_name = "Harhapolku"
    BINDINGS = RollScreen.BINDINGS + [
        Binding("v", "toggle_variant", N_("Variant"), id="harha.variant",
                tooltip=N_("Chapter 23 (H4), classic (H3), same-size dice (H5) or sum (H6) for this roll")),
        Binding("8", "cycle_demand", N_("H8"), show=False, id="harha.demand",
                tooltip=N_("An opposed roll that is also difficult / very demanding: the actor needs 7+ dice too (H8)")),
        Binding("d", "toggle_difficult", N_("Unopposed"), id="harha.difficult",
                tooltip=N_("An unopposed difficult action (H8): one die of 7+")),
        Binding("D", "toggle_demanding", N_("Very demanding"), show=False, id="harha.demanding",
                tooltip=N_("A very demanding action needs two dice of 7+ (H8)")),
        Binding("e", "edge_reroll", N_("Edge reroll"), id="harha.edge", tooltip=N_("Reroll a side's pool with an edge (H7)")),
        Binding("b", "add_background", N_("+Background"), show=False, id="harha.background",
                tooltip=N_("Claim an ad-hoc background for this side")),
        Binding("0", "toggle_always", N_("No die"), show=False, id="harha.always",
                tooltip=N_("Take away (or give back) this side's 1d8 always: an actor with no die fails (H4)")),
    ]

    def __init__(self, tracker: Tracker, challenge: str | None = None, *, actor: str | None = None) -> None:
        self.variant = tracker.rolls.harha_variant()
        self.difficult = False
        self.demanding = False
        self.demand = ""
        """H8 on an opposed roll: "", "difficult" or "very_demanding"."""
        super().__init__(tracker, challenge, actor=actor)

    def side_titles(self) -> tuple[str, str]:
        if self.difficult:
            return (_("A: {short} (acts)", short=self.a.short), _("— unopposed —"))
        if self.variant != "classic":
            return (_("A (actor): {short}", short=self.a.short), _("B (challenger): {short}", short=self.b.short))
        return (f"A: {self.a.short}", f"B: {self.b.short}")

    def side_has_who(self, side: Side) -> bool:
        return side.role == "a" or not self.difficult

    def on_who_changed(self, side: Side) -> None:
        side.claims = {}
        side.always = True

    def pool_of(self, side: Side) -> dict[str, Any] | None:
        return {"tiers": dict(side.claims)}

    def apply_pool(self, side: Side, pool: SavedPool) -> None:
        side.claims = dict(cast(HarhaPool, pool)["tiers"])

    def _backgrounds(self, side: Side) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        if side.who:
            out = [(bg["name"], bg["tier"]) for bg in harha_sheet(self.tracker.character(side.who))["backgrounds"]]
        return out + side.extra_backgrounds

    def rows(self, side: Side) -> list[tuple[str, Text | str]]:
        if side.role == "b" and self.difficult:
            return [("info", _("An unopposed action: no challenger."))]
        rows: list[tuple[str, Text | str]] = [("who", _("Who: {short}  (Enter to change)", short=side.short))]
        rows.append(("info", _("[x] 1d8 always (H2)") if side.always else
                     _("[ ] 1d8 always — taken away (0): with no die the action fails (H4)")))
        have = self._backgrounds(side)
        for name, tier in have:
            on_ = side.claims.get(tier) == name
            size = "d10" if "special" in tier else "d8"
            rows.append((f"bg:{tier}:{name}", f"{_check(on_)} +1{size} {name} — {builtin_label(HARHA_TIER_LABELS[tier])}"))
        for tier in HARHA_TIERS:
            if not any(t == tier for _name, t in have):
                on_ = side.claims.get(tier) == "(unnamed)"
                size = "d10" if "special" in tier else "d8"
                rows.append((f"bg:{tier}:(unnamed)", _("{check} +1{size} a fitting {tier}", check=_check(on_), size=size,
                                                                tier=builtin_label(HARHA_TIER_LABELS[tier]))))
        rows.append(("gm", _("{check} GM: spectacular action +1d10", check=_check(side.gm_bonus))))
        if self.difficult:
            # Unopposed (H8): an effect that gives the other side dice has no side to give them to.
            counted = {d.label for d in self._pool(side).dice}
            for key, text in effect_rows(self.tracker, side, side.effects_off):
                label = key[len("eff:"):]
                rows.append((key, text) if label in counted or label in side.effects_off
                            else ("info", "    " + _("{label}: no other side to give its dice to (unopposed)", label=label)))
        else:
            rows.extend(effect_rows(self.tracker, side, side.effects_off))
        if side.who:
            edges = harha_sheet(self.tracker.character(side.who)).get("edges", [])
            if edges:
                rows.append(("info", _("edges: {edges}", edges=", ".join(_("{edge} (used)", edge=e["name"]) if e["used"]
                                                                         else e["name"] for e in edges))))
        return rows

    def handle(self, side: Side, key: str) -> None:
        if key.startswith("eff:"):
            side.effects_off ^= {key[4:]}
        elif key == "gm":
            side.gm_bonus = not side.gm_bonus
        elif key.startswith("bg:"):
            _kind, tier, name = key.split(":", 2)
            if side.claims.get(tier) == name:
                del side.claims[tier]
            else:
                side.claims[tier] = name

    def action_add_background(self) -> None:
        side = self.focused_side()

        def done(text: str | None) -> None:
            if not text:
                return
            name, _sep, typed = text.partition(":")
            tier = harha_tier_key(typed) or "plain"  # the check let only a tier through
            side.extra_backgrounds.append((name.strip(), tier))
            side.claims[tier] = name.strip()
            self.refresh_view()

        # The tiers as the player reads and types them, in the language in use; stored as Polku's keys.
        tiers = harha_tier_words()
        self.app.push_screen(TextPrompt(_("Background name:tier"), placeholder=_("e.g. Thief:background"),
                                        hint=_("tiers: {tiers}", tiers=tiers),
                                        check=lambda s: None if s.strip() and harha_tier_key(s.partition(':')[2])
                                        else _("tier must be one of {tiers}", tiers=tiers)), done)

    def _harha_side(self, side: Side) -> HarhaSide:
        c = side.claims
        return HarhaSide(side.label, [side.who] if side.who else [], general=c.get("general"),
                         background=c.get("plain"), significant=c.get("significant"), special=c.get("special"),
                         significant_special=c.get("significant_special"), gm_bonus=side.gm_bonus,
                         effects_off=tuple(sorted(side.effects_off)), always=side.always)

    def _pool(self, side: Side) -> Any:
        """The side's pool as the session builds it, the other side's effects that take dice included."""
        other = None if self.difficult else self._harha_side(self.b if side is self.a else self.a)
        return self.tracker.rolls.harha_pool(self._harha_side(side), self._variant(), opposing=other)

    def _variant(self) -> str:
        """An unopposed difficult action (H8) rolls the H2 pool, or one die under the sum variant (H6)."""
        return self.tracker.rolls.difficult_variant(self.variant) if self.difficult else self.variant

    def _notice(self) -> str | None:
        """H8 under the sum variant, said before the roll (``harha.sum_difficult``); None when it is
        not offered there (the keys refuse it) or nothing needs saying."""
        demand = ("very_demanding" if self.demanding else "difficult") if self.difficult else self.demand
        try:
            notice = self.tracker.rolls.harha_difficult_notice(demand, self.variant)
        except (RulesError, TrackerError):
            return None
        return _(notice) if notice else None

    def _refused(self, variant: str, demand: str) -> bool:
        """H8 not offered under the sum variant (``harha.sum_difficult = refuse``): say so and refuse."""
        try:
            self.tracker.rolls.harha_difficult_notice(demand, variant)
        except (RulesError, TrackerError) as exc:
            self.notify(str(exc), severity="warning", title=_("Not offered"))
            return True
        return False

    def _counts(self, side: Side) -> tuple[int, int]:
        pool = self._pool(side)
        return (sum(1 for s in pool.dice if s.size == 8), sum(1 for s in pool.dice if s.size == 10))

    VARIANT_TEXT = {
        "ch23": N_("chapter 23 (H4): the challenger must win more positions"),
        "classic": N_("classic (H3): more positions wins"),
        "same_size": N_("same-size dice (H5), compared as chapter 23: the challenger must win more positions"),
        "sum": N_("sum (H6): one die + the dice count; the challenger needs the larger total"),
    }
    """In English, marked for the catalogue: shown through ``_``."""

    def pool_text(self) -> Text:
        t = Text()
        sides = (self.a,) if self.difficult else (self.a, self.b)
        for side in sides:
            pool = self._pool(side)
            n8, n10 = self._counts(side)
            t.append(f"{side.short}: {n8}d8" + (f"+{n10}d10" if n10 else "") + "  ", style="bold")
            if self._variant() == "sum" and pool.dice:
                t.append(_("rolls 1d{size}: ", size=pool.dice[0].size) if self.difficult
                         else _("rolls 1d{size} + {n}: ", size=pool.dice[0].size, n=len(pool.dice)))
            t.append(", ".join(f"d{s.size} {builtin_label(s.label or s.source)}" for s in pool.dice))
            t.append("\n")
        if self.difficult:
            mode = _("unopposed, ") + (_("very demanding: two 7+ (H8)") if self.demanding else _("difficult: one 7+ (H8)"))
        else:
            mode = _(self.VARIANT_TEXT[self.variant])
            if self.demand:
                # its own line: each line is one row, cut at the edge
                mode += (_("\nvery demanding: the actor also needs two 7+ (H8)") if self.demand == "very_demanding"
                         else _("\ndifficult: the actor also needs a 7+ (H8)"))
        t.append(mode, style="dim")
        if self.variant != "classic" and not self.difficult:
            # The whole H4 reminder is on the help screen; one line here keeps the pools in view.
            t.append(_("\nH4: abilities and senses are questioned only on grounds already shown in play"),
                     style="dim")
        return t

    def odds_text(self) -> Text:
        st = self.styles_map()
        notice = self._notice()
        if self.difficult:
            p = odds.success_of(odds.harha(odds.HarhaQuestion(self._counts(self.a), None,
                                                              "very_demanding" if self.demanding else "difficult"),
                                           self.tracker.rolls.settings_for(self.variant)))[0]
            t = Text(_("Odds  success {percent}", percent=percent(p)) + "  ")
            t.append_text(_bar([(p, "█", st.get("win", "")), (1 - p, "▒", st.get("loss", ""))], 20))
            if notice:
                t.append("\n" + notice, style=st.get("loss", ""))
            return t
        o = odds.harha(odds.HarhaQuestion(self._counts(self.a), self._counts(self.b), self.demand),
                       self.tracker.rolls.settings_for(self.variant))
        if isinstance(o, odds.HarhaDifficultOdds):
            need = _("two 7+ dice") if self.demand == "very_demanding" else _("a 7+ die")
            t = Text(_("Odds  {short} wins with {need} {percent}", short=self.a.short, need=need, percent=percent(o.success)), style=st.get("win", ""))
            t.append("   " + _("wins without {without}   tie {tie}", without=percent(o.won_without), tie=percent(o.tie)) + "   ")
            t.append_text(_bar([(o.success, "█", st.get("win", "")), (o.won_without, "░", ""),
                                (1 - o.success - o.won_without, "▒", st.get("loss", ""))], 20))
            if notice:
                t.append("\n" + notice, style=st.get("loss", ""))
            return t
        a_wins, b_wins, tie = odds.success_of(o)
        return odds_line(self.a.short, a_wins, _("tie"), tie, self.b.short, b_wins, st)

    def action_enter_faces(self) -> None:
        sides = (self.a,) if self.difficult else (self.a, self.b)
        opposing = [None] if self.difficult else [self._harha_side(self.b), self._harha_side(self.a)]
        pools = [[d.size for d in self.tracker.rolls.harha_dice(self._harha_side(s), self._variant(), opposing=o)]
                 for s, o in zip(sides, opposing)]
        if self.difficult and self._refused(self.variant, "difficult"):
            return
        collected: list[list[int]] = []

        def ask(i: int) -> None:
            if i == len(sides):
                self._roll((collected[0], collected[1] if len(collected) > 1 else []))
                return

            def typed(faces: list[int]) -> None:
                collected.append(faces)
                ask(i + 1)

            ask_faces(self.app, _("Faces for {short}, in this order", short=sides[i].short), len(pools[i]), pools[i], typed,
                      hint=_("separated by commas or spaces; each face is checked against its die"))

        ask(0)

    def roll_command(self, faces: tuple[list[int], list[int]] | None) -> Command:
        if self.difficult:
            return command("rolls.roll_harha_difficult", self._harha_side(self.a), very_demanding=self.demanding,
                           challenge=self.challenge_id, faces=faces[0] if faces else None, variant=self.variant)
        return command("rolls.roll_harha", self._harha_side(self.a), self._harha_side(self.b), variant=self.variant,
                       challenge=self.challenge_id, demand=self.demand, faces=faces)

    def seat_request(self) -> Command | None:
        cid = self.a.who
        if not self.difficult or not cid:
            self.app.notify(_("A player's seat rolls a difficult action (d: unopposed, H8) of a character (w)"),
                            severity="warning", title=_("Not sent"))
            return None
        side, demanding, chal = self._harha_side(self.a), self.demanding, self.challenge_id
        return command("seats.ask_harha", cid, side, very_demanding=demanding, challenge=chal)

    def action_toggle_always(self) -> None:
        """H4: the GM takes away the focused side's "1d8 always" (a pool of 0 dice is valid and fails)."""
        side = self.focused_side()
        if side.role == "b" and self.difficult:
            return
        side.always = not side.always
        self.refresh_view()

    def action_toggle_variant(self) -> None:
        variants = ("ch23", "classic", "same_size", "sum")
        self.variant = variants[(variants.index(self.variant) + 1) % len(variants)]
        if (self.difficult or self.demand) and self._refused(self.variant, "difficult"):
            # harha.sum_difficult = refuse: the sum variant offers no difficult action (H8)
            self.difficult = self.demanding = False
            self.demand = ""
        self.refresh_view()

    def action_cycle_demand(self) -> None:
        demands = ("", "difficult", "very_demanding")
        if not self.demand and self._refused(self.variant, "difficult"):
            return
        self.demand = demands[(demands.index(self.demand) + 1) % len(demands)]
        self.refresh_view()

    def action_toggle_difficult(self) -> None:
        if not self.difficult and self._refused(self.variant, "difficult"):
            return
        self.difficult = not self.difficult
        self.refresh_view()

    def action_toggle_demanding(self) -> None:
        if self._refused(self.variant, "very_demanding"):
            return
        self.difficult = True
        self.demanding = not self.demanding
        self.refresh_view()

    def after_roll_hints(self, ev: Event) -> list[str]:
        out = []
        if ev.get("roll", {}).get("outcome", {}).get("winner") == "tie":
            out.append(_("  A tie: reroll with r (H3)."))
        if any(a.allowed for a in self.tracker.rolls.roll_actions(ev) if a.name == "edge_reroll"):
            out.append(_("  e: reroll a side's whole pool with an edge (H7)")
                       + (_(", typing the new faces") if self.physical_follow_up(ev) else ""))
            out.extend(self._reroll_values(ev))
        return out

    def _reroll_values(self, ev: Event) -> list[str]:
        """What an edge reroll is worth for each side that has an unused edge (exact, H7)."""
        roll = ev.get("roll", {})
        sides = {s["role"]: s for s in roll.get("sides", [])}
        variant = roll.get("variant", self.variant)
        if set(sides) != {"a", "b"} or variant not in ("ch23", "classic") or roll.get("demand"):
            return []

        def pool(role: str) -> tuple[int, int]:
            dice = sides[role]["dice"]
            return (sum(1 for d in dice if d["size"] == 8), sum(1 for d in dice if d["size"] == 10))

        lines = []
        roles = {a.role for a in self.tracker.rolls.roll_actions(ev) if a.name == "edge_reroll" and a.allowed}
        for role in sorted(roles):
            try:
                faces = (tuple(d["face"] for d in sides["a"]["dice"]), tuple(d["face"] for d in sides["b"]["dice"]))
                question = odds.HarhaRerollQuestion(pool("a"), pool("b"), faces[1 if role == "a" else 0], role)
                now, after = odds.reroll_value(question, faces, self.tracker.rolls.settings_for(variant))
            except RulesError:
                continue
            lines.append("    " + _("{name}: chance to win {now} now, {after} after rerolling",
                                   name=short_name(sides[role]['label']), now=percent(now, 0), after=percent(after)))
        return lines

    def action_edge_reroll(self) -> None:
        ev = self.last_event
        if ev is None or not str(ev.get("roll", {}).get("test", "")).startswith("harhapolku-"):
            self.notify(_("Roll first; an edge rerolls that roll (H7)"), severity="warning")
            return
        acts = [a for a in self.tracker.rolls.roll_actions(ev) if a.name == "edge_reroll"]
        choices = [(f"{a.role}\x1f{a.who}\x1f{a.edge}", _("{name}: edge '{edge}' — reroll {name}'s whole roll", name=short_name(a.label), edge=a.edge))
                   for a in acts if a.allowed]
        if not choices:
            reason = next((a.reason for a in acts), _("no edge reroll for this roll (H7)"))
            self.notify(shown(reason) if acts else _("No unused edges on either side this session (H7)"), severity="warning")
            return

        def reroll(role: str, cid: str, edge: str, faces: list[int] | None) -> None:
            self.run(command("rolls.harha_edge_reroll", ev, role, cid, edge, faces=faces),
                     lambda out: self.show_result(out["event"], _(" (after edge '{edge}')", edge=edge)))

        def done(value: str | None) -> None:
            if value is None:
                return
            role, cid, edge = value.split("\x1f")
            if not self.physical_follow_up():
                reroll(role, cid, edge, None)
                return
            # The roll was made with physical dice: the reroll is too, the side's whole pool again.
            side = next(s for s in ev["roll"]["sides"] if s["role"] == role)
            sizes = self.tracker.rolls.harha_reroll_dice(ev, role)
            ask_faces(self.app, _("{name} rerolls with edge '{edge}'", name=short_name(side['label']), edge=edge), len(sizes), sizes,
                      lambda faces: reroll(role, cid, edge, faces))

        self.app.push_screen(ChoicePrompt(_("Which edge? (once per session, only where it helps)"), choices), done)
