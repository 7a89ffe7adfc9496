"""Varjojuoksu's challenge screen: S1–S3 pools, S4–S8 success tests, S9 opposed, S10 extended, S11 teamwork."""

from __future__ import annotations

from typing import Any, Callable

from rich.text import Text
from textual.binding import Binding

from ....i18n import N_, _, decimal, ngettext, shown
from ....rules.dice import RulesError, ascii_int
from ....session import odds
from ....session.commands import Command, command
from ....session.model import SR_ATTRIBUTES, Event
from ....session.records import SavedPool
from ....session.records import sr as sr_sheet
from ....session.rolls import SRPool, SRSide
from ....session.telling import line_text
from ....session.tracker import Tracker
from ....text import builtin_label, percent
from ...render import short_name
from ..prompts import ChoicePrompt, TextPrompt, ask_faces
from .base import RollScreen, Side, SideList, _check, effect_rows, odds_line

SR_TESTS = ("success", "opposed", "extended", "teamwork")

class SRRollScreen(RollScreen):
    """S1–S3 pools, S4–S8 success tests, S9 opposed, S10 extended, S11 teamwork."""

    system_name = "Varjojuoksu"
    BINDINGS = RollScreen.BINDINGS + [
        Binding("t", "cycle_test", N_("Test type"), id="sr.test", tooltip=N_("Success / opposed / extended / teamwork")),
        Binding("h", "set_threshold", N_("Threshold"), id="sr.threshold", tooltip=N_("Set the threshold (S8, S10)")),
        Binding("H", "toggle_hidden", N_("Hide thr."), show=False, id="sr.hidden", tooltip=N_("Hide the threshold from players")),
        Binding("plus", "add_modifier", N_("+Modifier"), id="sr.modifier", tooltip=N_("A situational modifier in dice (S1)")),
        Binding("B", "buy_hits", N_("Buy hits"), show=False, id="sr.buy_hits",
                tooltip=N_("Buy hits instead of rolling: one hit per four dice, no glitch (S4; the GM's call)")),
        Binding("e", "post('edge_after')", N_("Edge after"), id="sr.edge_after", tooltip=N_("Spend Edge after the roll (S7)")),
        Binding("g", "post('negate_glitch')", N_("Negate glitch"), show=False, id="sr.negate", tooltip=N_("1 Edge negates a glitch (S5)")),
        Binding("c", "post('reduce_critical')", N_("Reduce crit"), show=False, id="sr.reduce",
                tooltip=N_("1 Edge turns a critical glitch into a glitch (S6)")),
        Binding("s", "spoil", N_("Spoil"), show=False, id="sr.spoil", tooltip=N_("The glitch spoils the extended test (S10)")),
        Binding("o", "helper_pool", N_("Helper pool"), show=False, id="sr.helper_pool",
                tooltip=N_("The GM sets a teamwork helper's pool (S11)")),
        Binding("d", "defence", N_("Defence"), id="sr.defence",
                tooltip=N_("The defender's pool in an opposed test: Reaction, full defence, parry, block or "
                           "their own pool; remembered per character")),
        Binding("D", "damage", N_("Damage"), id="sr.damage",
                tooltip=N_("Apply damage from this opposed attack: the defender's resistance roll (S12)")),
    ]

    def __init__(self, tracker: Tracker, challenge: str | None = None, *, actor: str | None = None) -> None:
        self.test = "success"
        self.threshold = 2
        self.hidden = False
        self.hurried = False
        super().__init__(tracker, challenge, actor=actor)
        c = tracker.challenge(challenge) if challenge else None
        if c and c.get("extended"):
            self.test = "extended"
            self.threshold = c["extended"]["threshold"]
            self.hurried = c["extended"]["hurried"]
            # The test goes on with its roller and the pool of its last interval (S10).
            roller = tracker.rolls.sr_extended_roller(challenge)
            if roller is not None:
                self.set_who(self.a, roller.who)
                if roller.pool is not None:
                    self.a.sr = roller.pool
        elif c and c.get("opposition"):
            self.test = "opposed"
        else:
            # The test this character rolled last (before any: opposed in a fight, with a weapon).
            self.test = tracker.attacks.default_test(self.a.who)

    def on_who_changed(self, side: Side) -> None:
        side.helpers = {}
        if side.role == "a" and side.who:
            # The new side A leads: they no longer help themselves (S11).
            self.b.helpers.pop(side.who, None)
            self.b.helper_pools.pop(side.who, None)
        if side.who:
            ch = sr_sheet(self.tracker.character(side.who))
            skills = ch.get("skills", {})
            attack = self.tracker.attacks.attack_pool(side.who) if side.role == "a" else None
            if attack is not None:
                # The weapon on the sheet it last attacked with: its skill and linked attribute.
                side.pool(mode=attack.mode, skill=attack.skill, attribute=attack.attribute)
            elif skills and side.sr.skill not in skills:
                skill = next(iter(skills))
                side.pool(mode="skill", skill=skill,
                          attribute=self.tracker.rolls.sr_linked_attribute(skill, side.sr.attribute, side.who))
            elif not skills:
                side.pool(mode="default" if side.sr.skill else "attr+attr")

    def pool_of(self, side: Side) -> dict[str, Any] | None:
        p = side.sr
        return {"mode": p.mode, "skill": p.skill, "attribute": p.attribute, "second": p.second, "count": p.dice}

    def apply_pool(self, side: Side, pool: SavedPool) -> None:
        if self._defending(side):
            self.tracker.attacks.choose_defence(side.who, "own")  # a saved pool is the defender's own
        spec = self.tracker.roster.sr_pool(pool)
        side.pool(mode=spec.mode, skill=spec.skill, attribute=spec.attribute, second=spec.second, dice=spec.dice)

    # -- the defence (opposed test, side B): the session proposes the pool ---------------

    def _attack_kind(self) -> str:
        return self.tracker.attacks.attack_kind(self.a.sr)

    def _defence(self, side: Side) -> Any:
        """The defence the session proposes for side B of an opposed test (None: their own pool)."""
        if side.role != "b" or self.test != "opposed" or not side.who:
            return None
        return self.tracker.attacks.defence(side.who, self._attack_kind())

    @staticmethod
    def _defence_words(d: Any) -> str:
        """``Reaction 4``, ``full defence: Reaction 4 + Dodge 2``, ``parry: …``, ``block: …``."""
        if not d.skill:
            return _("Reaction {reaction}", reaction=d.reaction)
        pool = _("Reaction {reaction} + {skill} {rating}", reaction=d.reaction, skill=d.skill, rating=d.rating)
        return {"full": _("full defence: {pool}", pool=pool), "parry": _("parry: {pool}", pool=pool),
                "block": _("block: {pool}", pool=pool)}.get(d.name, pool)

    def _defending(self, side: Side) -> bool:
        return self._defence(side) is not None

    def action_defence(self) -> None:
        """``d``: the defender's next defence (Reaction, full defence, parry, block, own pool)."""
        if self.test != "opposed" or not self.b.who:
            self.notify(_("A defence is side B's pool in an opposed test: t for opposed, then w on side B"),
                        severity="warning", title=_("No defender"))
            return
        self.tracker.attacks.next_defence(self.b.who, self._attack_kind())
        self.b.pool_name = ""
        self.refresh_view()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "damage":
            # Offered only after a hit (S9): the key line shows D then.
            return self.last_event is not None and self.tracker.damage.offer(self.last_event).allowed
        return True

    def action_damage(self) -> None:
        from ..damage import DamageScreen

        offer = self.tracker.damage.offer(self.last_event)
        if not offer.allowed:
            self.notify(shown(offer.reason), severity="warning", title=_("No damage"))
            return
        self.app.push_screen(DamageScreen(self.tracker, self.last_event))

    def side_titles(self) -> tuple[str, str]:
        b = {"success": _("— threshold test —"), "opposed": _("B (defender): {short}", short=self.b.short),
             "extended": _("— extended test —"), "teamwork": _("Helpers (roll first, S11)")}[self.test]
        return (f"A: {self.a.short}", b)

    def side_has_who(self, side: Side) -> bool:
        return side.role == "a" or self.test == "opposed"

    def who_fixed(self, side: Side) -> str | None:
        if side.role != "a" or self.test != "extended":
            return None
        roller = self.tracker.rolls.sr_extended_roller(self.challenge_id)
        return shown(roller.reason) if roller is not None else None

    def _spec(self, side: Side) -> SRPool:
        if side.role == "b" and self.test == "opposed" and side.who:
            # The proposed defence, or the GM's own pool marked as such: the roll keeps the choice.
            return self.tracker.attacks.defence_pool(side.who, self._attack_kind(), side.sr)
        return side.sr

    def _sr_side(self, side: Side) -> SRSide:
        return self.tracker.rolls.sr_side(side.who or None, self._spec(side), side.label)

    def _helper_side(self, cid: str) -> SRSide:
        return self.tracker.rolls.sr_helper_side(cid, self._spec(self.a), self.b.helper_pools.get(cid))

    def rows(self, side: Side) -> list[tuple[str, Text | str]]:
        if side.role == "b":
            if self.test in ("success", "extended"):
                hidden = self.hidden and self.test == "success"
                rows: list[tuple[str, Text | str]] = [("thr", _("Threshold: {threshold}", threshold=self.threshold) +
                                                       (_(" (hidden from players)") if hidden else "") + "  (h)")]
                if self.test == "extended":
                    rows.append(("hurry", _("{check} hurried: 2s count as 1s for glitches (S10)", check=_check(self.hurried))))
                    c = self.tracker.challenge(self.challenge_id) if self.challenge_id else None
                    if c and c.get("extended"):
                        e = c["extended"]
                        rows.append(("info", ngettext("progress {accumulated}/{threshold} after {n} interval",
                                                     "progress {accumulated}/{threshold} after {n} intervals", e['intervals'],
                                                     accumulated=e['accumulated'], threshold=e['threshold']) + (_(" — ended") if e.get("ended") else "")))
                return rows
            if self.test == "teamwork":
                rows = []
                for cid, ch in self.tracker.characters.items():
                    if cid == self.a.who:
                        continue
                    on_ = side.helpers.get(cid, False)
                    whose = _("GM's pool") if cid in side.helper_pools else _("own pool")
                    rows.append((f"helper:{cid}", ngettext("{check} {name} helps ({n} die, {whose})", "{check} {name} helps ({n} dice, {whose})",
                                                               self._helper_pool(cid), check=_check(on_),
                                                               name=short_name(ch['name']), whose=whose)))
                if rows:
                    rows.append(("info", _("o: the GM sets a helper's pool (S11)")))
                return rows or [("info", _("no other characters to help"))]
        fixed = self.who_fixed(side) is not None
        rows = [("who", _("Who: {short}  ", short=side.short) + (_("(rolls every interval, S10)") if fixed else _("(Enter to change)")))]
        p = side.sr
        defence = self._defence(side)
        if defence is not None:
            rows.append(("def", _("Defence: {defence}  (d: next)", defence=self._defence_words(defence))))
            before = self.tracker.attacks.defended_this_pass(side.who)
            if before:
                rows.append(("info", ngettext("−{n}: defended {n} attack before this pass",
                                              "−{n}: defended {n} attacks before this pass", before)))
        elif side.role == "b" and self.test == "opposed" and side.who:
            rows.append(("def", _("Defence: own pool  (d: Reaction…)")))
        if defence is not None:
            pass  # the defence row says the pool
        elif not side.who or p.mode == "dice":
            rows.append(("dice", _("Dice: {dice}  (Enter to set)", dice=p.dice)))
            if side.who:
                rows.append(("mode", _("Pool from: a dice count (Enter: skill + attribute)")))
        else:
            ch = sr_sheet(self.tracker.character(side.who))
            attrs = ch["attributes"]
            if p.mode == "attribute":
                rows.append(("skill", _("Attribute alone")))
                rows.append(("attr", f"{builtin_label(p.attribute).capitalize()} {attrs[p.attribute]}"))
            elif p.mode == "skill":
                rows.append(("skill", _("Skill: {skill} {rating}", skill=p.skill or '?', rating=ch.get('skills', {}).get(p.skill, 0))))
                rows.append(("attr", f"+ {builtin_label(p.attribute).capitalize()} {attrs[p.attribute]}"))
            elif p.mode == "default":
                rows.append(("skill", _("No skill: defaulting on {attribute} −1 (S2)", attribute=builtin_label(p.attribute).capitalize())))
                rows.append(("attr", _("Attribute: {attribute} {rating}", attribute=builtin_label(p.attribute).capitalize(), rating=attrs[p.attribute])))
            else:
                rows.append(("skill", _("Attribute + attribute (S1)")))
                rows.append(("attr", f"{p.attribute.capitalize()} {attrs[p.attribute]}"))
                rows.append(("attr2", f"+ {builtin_label(p.second).capitalize()} {attrs[p.second]}"))
        if side.who:
            ch = sr_sheet(self.tracker.character(side.who))
            w = self.tracker.wound_penalty(side.who)
            if w:
                rows.append(("info", _("wounds −{w} (S12)", w=w)))
            # Any pool of a character may take Edge (S7). Edge left first: at 80 columns the end is cut.
            rows.append(("edge", _("{check} Edge before (Edge {edge}/{rating}): +{rating} dice, rule of six", check=_check(p.edge_before),
                                     edge=ch['edge'], rating=ch['edge_rating'])))
            rows.append(("long", _("{check} Long Shot (S3): {rating} dice, 1 Edge", check=_check(p.long_shot), rating=ch['edge_rating'])))
        rows.extend(effect_rows(self.tracker, side, p.effects_off))
        for i, (label, n) in enumerate(p.modifiers):
            rows.append((f"mod:{i}", _("[x] {label} {n:+d}  (Enter removes)", label=label, n=n)))
        rows.append(("add-mod", _("  … add a modifier (+)")))
        if side.role == "b" and self.test == "opposed":
            for i, n in enumerate(side.group):
                rows.append((f"grp:{i}", _("[x] group member with {n} dice (Enter removes)", n=n)))
            rows.append(("add-grp", _("  … a group member's pool (S9: +1 die each, max +5)")))
        return rows

    def _helper_pool(self, cid: str) -> int:
        return self.tracker.rolls.sr_plan(self._helper_side(cid)).size

    def handle(self, side: Side, key: str) -> None:
        kind, _sep, rest = key.partition(":")
        p = side.sr
        if kind == "def":
            self.action_defence()
        elif kind == "thr":
            self.action_set_threshold()
        elif kind == "hurry":
            self.hurried = not self.hurried
        elif kind == "helper":
            side.helpers[rest] = not side.helpers.get(rest, False)
        elif kind == "edge":
            on = not p.edge_before  # Edge before and Long Shot exclude each other (S3, S7)
            side.pool(edge_before=on, long_shot=False if on else p.long_shot)
        elif kind == "long":
            on = not p.long_shot
            side.pool(long_shot=on, edge_before=False if on else p.edge_before)
        elif kind == "eff":
            side.pool(effects_off=tuple(sorted(set(p.effects_off) ^ {rest})))
        elif kind == "mod":
            side.pool(modifiers=[m for i, m in enumerate(p.modifiers) if i != int(rest)])
        elif kind == "add-mod":
            self.action_add_modifier()
        elif kind == "grp":
            del side.group[int(rest)]
        elif kind == "add-grp":
            self._ask_int(_("A group member's pool (dice):"), lambda n: side.group.append(n), 1, 60)
        elif kind == "dice":
            self._ask_int(_("{short} rolls how many dice?", short=side.short), lambda n: side.pool(dice=n), 0, 60)
        elif kind == "mode":
            side.pool(mode="skill")
        elif kind == "skill":
            self._pick_skill(side)
        elif kind == "attr":
            self._pick_attr(side, "attribute")
        elif kind == "attr2":
            self._pick_attr(side, "second")

    def _ask_int(self, title: str, then: Callable[[int], None], lo: int, hi: int) -> None:
        def check(s: str) -> str | None:
            try:
                n = ascii_int(s)
            except ValueError:
                return _("write a whole number")
            return None if lo <= n <= hi else _("between {lo} and {hi}", lo=lo, hi=hi)

        def done(s: str | None) -> None:
            if s is not None:
                then(ascii_int(s))
                self.refresh_view()

        self.app.push_screen(TextPrompt(title, check=check), done)

    def _pick_skill(self, side: Side) -> None:
        ch = sr_sheet(self.tracker.character(side.who))
        choices = [(f"s:{k}", f"{k} {v}") for k, v in ch.get("skills", {}).items()]
        choices += [("default", _("No skill: default on the attribute, −1 die (S2)")),
                    ("attribute", _("An attribute alone (a defence on Reaction)")),
                    ("attr+attr", _("Attribute + attribute (S1)")), ("dice", _("A plain dice count"))]

        def done(v: str | None) -> None:
            if v is None:
                return
            if v.startswith("s:"):
                side.pool(mode="skill", skill=v[2:],
                          attribute=self.tracker.rolls.sr_linked_attribute(v[2:], side.sr.attribute, side.who))
            else:
                side.pool(mode=v)
            self.refresh_view()

        self.app.push_screen(ChoicePrompt(_("Pool from"), choices), done)

    def _pick_attr(self, side: Side, which: str) -> None:
        ch = sr_sheet(self.tracker.character(side.who))
        choices = [(a, f"{a.capitalize()} {ch['attributes'][a]}") for a in SR_ATTRIBUTES]

        def done(v: str | None) -> None:
            if v:
                side.pool(**{which: v})
                self.refresh_view()

        self.app.push_screen(ChoicePrompt(_("Attribute"), choices), done)

    def action_add_modifier(self) -> None:
        side = self.focused_side()
        if side.role == "b" and self.test in ("success", "extended", "teamwork"):
            side = self.a

        def check(s: str) -> str | None:
            parts = s.rsplit(" ", 1)
            try:
                ascii_int(parts[-1], 3)
            except ValueError:
                return _("end with the dice, e.g. 'snowy road -2'")
            return None

        def done(s: str | None) -> None:
            if s:
                label, _sep, n = s.strip().rpartition(" ")
                side.pool(modifiers=[*side.sr.modifiers, (label or "modifier", ascii_int(n, 3))])
                self.refresh_view()

        self.app.push_screen(TextPrompt(_("Modifier for {short} (label and dice):", short=side.short), placeholder=_("snowy road -2"),
                                        check=check), done)

    def action_cycle_test(self) -> None:
        self.test = SR_TESTS[(SR_TESTS.index(self.test) + 1) % len(SR_TESTS)]
        self.result_lines = []
        self.refresh_view()

    def action_set_threshold(self) -> None:
        self._ask_int(_("Threshold (hits needed):"), lambda n: setattr(self, "threshold", n), 1, 60)

    def action_toggle_hidden(self) -> None:
        if self.test != "success":
            # Only a success test keeps its threshold from the players (an extended test shows its progress).
            self.notify(_("Only a success test's threshold can be hidden (t changes the test)"), severity="warning")
            return
        self.hidden = not self.hidden
        self.refresh_view()

    def _pool_size(self, side: Side) -> int:
        return self.tracker.rolls.sr_plan(self._sr_side(side)).size

    def _dice(self, side: Side) -> int:
        """The dice the side throws: the pool (or the group's, S9) plus Edge before (S7)."""
        sr_side = self._sr_side(side)
        if side.role == "b" and side.group:
            return self.tracker.rolls.sr_group_dice(sr_side, side.group)
        return self.tracker.rolls.sr_pool_dice(sr_side)

    def _six(self, side: Side) -> bool:
        return self.tracker.rolls.sr_rule_of_six(self._sr_side(side))

    def pool_text(self) -> Text:
        t = Text()
        sides = [self.a] + ([self.b] if self.test == "opposed" else [])
        for side in sides:
            sr_side = self._sr_side(side)
            plan = self.tracker.rolls.sr_plan(sr_side)
            t.append(f"{side.short}: ", style="bold")
            t.append(" ".join(line_text(x) for x in plan.explain()))
            extra = self.tracker.rolls.sr_pool_dice(sr_side) - plan.size
            if extra and not sr_side.long_shot:
                t.append(_(" + {extra} Edge dice, rule of six", extra=extra))
            if side.role == "b" and side.group:
                t.append(_("; group: {dice} dice", dice=self._dice(side)))
            t.append("\n")
        if self.test == "teamwork":
            helpers = [cid for cid, on_ in self.b.helpers.items() if on_]
            listed = ", ".join(f"{short_name(sr_sheet(self.tracker.character(c))['name'])} {self._helper_pool(c)}"
                               for c in helpers)
            t.append(_("helpers: {helpers}", helpers=listed) if listed else _("helpers: none"))
            if self.tracker.settings.sr_teamwork_cap == "skill":
                t.append(_(" (extra dice at most the leader's skill, S11)"), style="dim")
            lead = self.tracker.rolls.sr_teamwork_lead(self._sr_side(self.a),
                                                       [self._helper_side(c) for c in helpers])
            t.append("\n" + ("" if lead.allowed else "⚠ ") + lead.line, style="" if lead.allowed else "bold")
        return t

    def odds_text(self) -> Text:
        st = self.styles_map()
        settings = self.tracker.rolls.settings_for()
        n = self._dice(self.a)
        if n <= 0:
            return Text(_("pool 0 or less: automatic failure unless a Long Shot (S3)"))
        t = Text(_("Odds") + "  ")
        if self.test == "opposed":
            m = self._dice(self.b)
            vs = odds.opposed(odds.SRQuestion(n, "opposed", self._six(self.a), max(0, m), self._six(self.b)),
                                 settings)
            return odds_line(self.a.short, vs.a_wins, _("stalemate"), vs.tie, self.b.short, vs.b_wins, st)
        if self.test == "teamwork":
            helpers = [self._helper_pool(c) for c, on_ in self.b.helpers.items() if on_]
            o = odds.sr(odds.SRQuestion(n, "teamwork", self._six(self.a), helpers=tuple(max(0, h) for h in helpers),
                                        leader_skill=self._sr_side(self.a).skill), settings)
        elif self.test == "extended":
            togo = max(1, self.threshold - self._accumulated())
            e = odds.extended(odds.SRQuestion(n, "extended", threshold=togo, hurried=self.hurried), settings)
            exp = e.expected_intervals()
            t.append(_("reach {threshold} ({togo} to go): {by5} within 5 intervals, {by40} within 40", threshold=self.threshold,
                       togo=togo, by5=percent(e.success_by(5)), by40=percent(e.success)) + (_(", about {exp} intervals", exp=decimal(exp, 1)) if exp else "") +
                     _("\n  a critical glitch ends it first: {percent}", percent=percent(e.critical_glitch)))
            return t
        else:
            o = odds.sr(odds.SRQuestion(n, rule_of_six=self._six(self.a)), settings)
        succ = o.success(self.threshold)
        t.append(_("success (≥{threshold}) {percent}", threshold=self.threshold, percent=percent(succ)), style=st.get("win", ""))
        t.append("   " + _("glitch {glitch}   critical {critical}", glitch=percent(o.glitch), critical=percent(o.critical_glitch, 2)), style=st.get("crit", ""))
        t.append(_("  mean {mean} hits\n  ", mean=decimal(o.mean(), 2)))
        peak = max(o.hits[:16]) or 1
        for h, p in enumerate(o.hits[:16]):
            t.append("▁▂▃▄▅▆▇█"[min(7, int(p / peak * 7.999))], style=st.get("hit", "") if h >= self.threshold else "")
        t.append(_("  hits 0…15"))
        return t

    def _accumulated(self) -> int:
        c = self.tracker.challenge(self.challenge_id) if self.challenge_id else None
        return c["extended"]["accumulated"] if c and c.get("extended") else 0

    def _ask_side_faces(self, side: Side, then: Callable[[list[int]], None]) -> None:
        """The side's pool and Edge dice, then one prompt per wave of sixes when the rule of six applies."""
        n = max(0, self._dice(side))
        six = self._six(side)
        long_shot = side.sr.long_shot
        what = _("pool and Edge dice") if six and not long_shot else _("Long Shot dice") if long_shot else _("pool")
        ask_faces(self.app, f"{side.short}'s {what}", n, 6, then,
                  wave=self.tracker.rolls.sr_six_wave if six else None,
                  hint=_("rule of six: a prompt follows for the dice the sixes add") if six else "")

    def action_enter_faces(self) -> None:
        if self.test == "opposed":
            self._ask_side_faces(self.a, lambda fa: self._ask_side_faces(self.b, lambda fb: self._roll((fa, fb))))
            return
        if self.test != "teamwork":
            self._ask_side_faces(self.a, lambda fa: self._roll((fa, [])))
            return
        cids = [cid for cid, on_ in self.b.helpers.items() if on_]
        helpers = [self._helper_side(cid) for cid in cids]
        typed: list[list[int]] = []

        def next_helper(faces: list[int] | None = None) -> None:
            if faces is not None:
                typed.append(faces)
            if len(typed) < len(helpers):
                h = helpers[len(typed)]
                ask_faces(self.app, _("{name} helps (rolls first, S11)", name=short_name(h.label)), max(0, self._helper_pool(cids[len(typed)])), 6,
                          next_helper)
                return
            try:
                n = self.tracker.rolls.sr_teamwork_leader_dice(self._sr_side(self.a), helpers, typed)
            except RulesError as e:
                self.notify(str(e), severity="error", title=_("Not rolled"))
                return
            six = self._six(self.a)
            ask_faces(self.app, _("{short} leads (pool + the helpers' dice)", short=self.a.short), n, 6,
                      lambda fa: self._roll(([f for h in typed for f in h] + fa, [])),
                      wave=self.tracker.rolls.sr_six_wave if six else None)

        next_helper()

    def roll_command(self, faces: tuple[list[int], list[int]] | None) -> Command:
        side_a = self._sr_side(self.a)
        fa = faces[0] if faces else None
        if self.test == "opposed":
            return command("rolls.roll_sr_opposed", side_a, self._sr_side(self.b), group=list(self.b.group),
                           challenge=self.challenge_id, faces=faces)
        if self.test == "teamwork":
            helpers = [self._helper_side(cid) for cid, on_ in self.b.helpers.items() if on_]
            return command("rolls.roll_sr_teamwork", side_a, helpers, threshold=self.threshold,
                           challenge=self.challenge_id, faces=fa)
        if self.test == "extended":
            # without a challenge yet, the command makes one for the test's progress first (S10)
            return command("sr_extended_interval", side_a, self.challenge_id,
                           _("Extended test: {label}", label=self.a.label),
                           threshold=self.threshold, hurried=self.hurried, faces=fa, pool=self._spec(self.a))
        return command("rolls.roll_sr", side_a, threshold=self.threshold, hidden=self.hidden,
                       challenge=self.challenge_id, faces=fa)

    def rolled(self, out: dict[str, Any] | None) -> dict[str, Any] | None:
        if out is not None and self.test == "extended" and out.get("challenge"):
            self.challenge_id = out["challenge"]
        return out

    def seat_label(self) -> str:
        return self.b.label if self.test == "opposed" and self.b.who else self.a.label

    def seat_request(self) -> Command | None:
        if self.test == "opposed" and self.b.who and not self.b.group:
            # The GM's attack at a player character: the defender's seat rolls the defence, both sides at once (S9).
            return command("seat_rolls.ask_defence", self.b.who, self.a.who or None, self._spec(self.a),
                           label=self.a.label, challenge=self.challenge_id)
        if self.test != "success":
            self.app.notify(_("A success test (S8) or an attack at one character (S9) can be sent to a player's seat"),
                            severity="warning", title=_("Not sent"))
            return None
        cid = self.a.who
        if not cid:
            self.app.notify(_("Choose the character who rolls first (w)"), severity="warning", title=_("Not sent"))
            return None
        spec, threshold, hidden, chal = self._spec(self.a), self.threshold, self.hidden, self.challenge_id
        return command("seats.ask_sr", cid, spec, threshold=threshold, hidden=hidden, challenge=chal)

    POST_KEYS = {"edge_after": "e", "negate_glitch": "g", "reduce_critical": "c", "spoil": "s",
                 "next_interval": "r"}

    def show_result(self, ev: Event, note: str = "") -> None:
        super().show_result(ev, note)
        self.refresh_bindings()  # D is offered after a hit only

    def after_roll_hints(self, ev: Event) -> list[str]:
        hints = []
        offer = self.tracker.damage.offer(ev)
        if offer.allowed and offer.targets:
            hints.append(_("  D: damage to {name} ({reason})",
                           name=short_name(sr_sheet(self.tracker.character(offer.targets[0]))['name']), reason=shown(offer.reason)))
        return hints + self._post_hints(ev)

    def _post_hints(self, ev: Event) -> list[str]:
        acts = [a for a in self.tracker.rolls.roll_actions(ev) if a.allowed and a.name in self.POST_KEYS]
        several = len({a.role for a in acts if a.name in ("edge_after", "negate_glitch", "reduce_critical")}) > 1
        hints = []
        for a in acts:
            who = f"{short_name(a.label)}: " if several and a.label else ""
            typed = _(" — you type the Edge dice's faces") if a.name == "edge_after" and self.physical_follow_up(ev) else ""
            hints.append(f"  {self.POST_KEYS[a.name]}: {who}{shown(a.reason)}{typed}")
        return hints

    def action_post(self, what: str) -> None:
        ev = self.last_event
        if ev is None:
            self.notify(_("Roll first"), severity="warning")
            return
        acts = [a for a in self.tracker.rolls.roll_actions(ev) if a.name == what]
        allowed = [a for a in acts if a.allowed]
        if not allowed:
            reason = acts[0].reason if acts else _("that cannot be done to this roll")
            mine = next((a for a in acts if a.role == "a"), acts[0] if acts else None)
            if mine is not None and what != "spoil" and mine.who:
                ch = sr_sheet(self.tracker.character(mine.who))
                if ch.get("edge", 1) < 1 and "Edge" in reason:
                    reason = _("{name} has no Edge left this session", name=short_name(ch['name']))
                else:
                    reason = mine.reason
            self.notify(shown(reason), severity="error", title=_("Not done"))
            return

        def post(role: str, faces: list[int] | None) -> None:
            self.run(command("rolls.sr_post_roll", ev, what, role=role, faces=faces),
                     lambda out: self.show_result(out["event"]))

        def run(role: str) -> None:
            n = self.tracker.rolls.sr_follow_up_dice(ev, what, role)
            if not n or not self.physical_follow_up(ev):
                post(role, None)
                return
            label = next((a.label for a in allowed if a.role == role), "") or _("Edge")
            # The roll was made with physical dice: so are the Edge dice, and the sixes among them.
            ask_faces(self.app, _("{label}'s Edge dice (after the roll, rule of six)", label=label), n, 6,
                      lambda faces: post(role, faces), wave=self.tracker.rolls.sr_six_wave,
                      hint=_("rule of six: a prompt follows for the dice the sixes add"))

        if len(allowed) == 1:
            run(allowed[0].role)
            return
        choices = [(a.role, f"{short_name(a.label)}: {shown(a.reason)}") for a in allowed]

        def picked(role: str | None) -> None:
            if role is not None:
                run(role)

        self.app.push_screen(ChoicePrompt(_("Whose roll?"), choices), picked)

    def action_buy_hits(self) -> None:
        """S4: a success test settled without dice; the session says whether this pool may."""
        if self.test != "success":
            self.notify(_("Hits are bought in a success test (t changes the test)"), severity="warning")
            return
        if self.a.sr.edge_before or self.a.sr.long_shot:
            self.notify(_("Buying hits replaces the roll: untick Edge before / Long Shot first"), severity="warning")
            return
        side = self._sr_side(self.a)
        act = next((a for a in self.tracker.rolls.sr_pool_actions(side) if a.name == "buy_hits"), None)
        if act is None or not act.allowed:
            self.notify(shown(act.reason) if act else _("no hits to buy for this pool (S4)"), severity="error", title=_("Not done"))
            return

        self.run(command("rolls.roll_sr", side, threshold=self.threshold, hidden=self.hidden,
                         challenge=self.challenge_id, buy_hits=True, gm_only=self.gm_only),
                 lambda out: self.show_result(out["event"]))

    def action_spoil(self) -> None:
        chid = self.challenge_id
        if chid:
            self.run(command("rolls.sr_extended_spoil", chid), lambda _: self.refresh_view())

    def action_helper_pool(self) -> None:
        """The GM sets (or clears) a highlighted helper's pool (S11)."""
        if self.test != "teamwork":
            self.notify(_("Helpers' pools are set in a teamwork test (t)"), severity="warning")
            return
        opt = self.query_one("#side-b", SideList).highlighted_option
        if opt is None or not str(opt.id).startswith("helper:"):
            self.notify(_("Highlight a helper first (Tab to the helpers)"), severity="warning")
            return
        cid = str(opt.id)[len("helper:"):]
        name = sr_sheet(self.tracker.character(cid))["name"]

        def check(text: str) -> str | None:
            if not text.strip():
                return None
            try:
                n = int(text.strip())
            except ValueError:
                return _("write a whole number, or leave it empty for the helper's own pool")
            return None if 0 <= n <= 60 else _("between 0 and 60")

        def done(text: str | None) -> None:
            if text is None:
                return
            if text.strip():
                self.b.helper_pools[cid] = int(text.strip())
                self.b.helpers[cid] = True
            else:
                self.b.helper_pools.pop(cid, None)
            self.refresh_view()

        self.app.push_screen(TextPrompt(_("{name}'s pool as a helper (empty: their own, {size} dice):", name=name, size=self.tracker.rolls.sr_plan(self.tracker.rolls.sr_helper_side(cid, self._spec(self.a))).size),
                                        str(self.b.helper_pools.get(cid, "")), check=check), done)
