"""Damage and harm from a roll: what the rules propose, and the GM's confirmed change.

Used by :class:`~polku.session.tracker.Tracker` by composition (``tracker.damage``).

- Varjojuoksu: an opposed attack the attacker won offers "apply damage"
  (:meth:`Damage.offer`): the weapon's Damage Value + net hits, physical or
  stun, the defender's damage resistance roll (Body + armour after AP, program
  dice or entered faces, Edge before the roll), each hit takes one box off,
  the rest fills the monitor with overflow (:func:`polku.rules.shadowrun.resolve_damage`).
  The resistance roll is a test like any other (S7: Edge "on any test"), so the
  defender may spend Edge after it (:meth:`Damage.post_roll`): Edge dice with
  the rule of six (unless Edge added dice before the roll), negating a glitch
  (S5) or reducing a critical glitch (S6). The boxes are then filled again from
  the monitors as they were before the hit, in one command that supersedes the
  first roll.
  The weapon comes from the attacker's sheet (:mod:`polku.session.table.gear`: its own, or
  its template's), the one it last attacked with first (``wielded``, per character);
  its DV and AP count, and the defender's armour of the kind that meets it (ballistic
  against ranged weapons, impact against melee and thrown ones). A weapon typed in
  on the damage prompt is added to the attacker's sheet; an armour value changed
  there is kept on the defender's.
- Rajapolku: a lost challenge offers a step down the wound track sized by the
  winner's degrees (R6, R8, R9; :func:`polku.rules.rajapolku.harm_steps`), or a
  health note when the win was narrow.
- Harhapolku: the narration contest's harm roll (H9) offers a harm note.

Every offer is a proposal: the GM confirms or edits it, and one command logs
the change (undoable like any other).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypedDict, cast

from ...i18n import N_, _, said
from ...rules.dice import Die, RulesError
from ...rules.system import System
from ...text import plural
from ..host import TrackerError
from ..model import Event, roll_of
from ..records import DieTable, RollOutcome, RollSide, RollTable
from ..records import raja as raja_sheet
from ..records import sr as sr_sheet
from ..telling import line
from .gear import Armour, Weapon, armour_of, weapons_of, wielded

if TYPE_CHECKING:
    from ...rules import shadowrun as sr
    from ..host import TableHost, Txn
    from ..rolls import RollAction


class DamageApplied(TypedDict):
    """What a damage resistance roll returns (:meth:`Damage.apply`, :meth:`Damage.post_roll`): its event and
    the damage it came to."""

    event: Event
    result: sr.DamageResult


@dataclass(frozen=True, slots=True)
class DamageOffer:
    """What "apply damage" proposes for an opposed Varjojuoksu attack (or why it cannot)."""

    allowed: bool
    reason: str
    """What it does, or why not: one line for the GM."""
    attack_seq: int = 0
    attacker: str = ""
    """The attacker's character id, or "" for a GM pool."""
    targets: list[str] = field(default_factory=list)
    """Defender character ids (side B), the first proposed."""
    net_hits: int = 0
    weapons: list[Weapon] = field(default_factory=list)
    """The weapons on the attacker's sheet, the one it last attacked with first."""
    armour: int = 0
    """The first target's armour against the first weapon (ballistic or impact)."""
    challenge: str = ""
    missed: bool = False
    """The attack dealt nothing: a stalemate or the defender's win (S9)."""


_DEGREES = ((N_("{degrees} degree: {steps} step down the wound track (R8, R9)"),
             N_("{degrees} degree: {steps} steps down the wound track (R8, R9)")),
            (N_("{degrees} degrees: {steps} step down the wound track (R8, R9)"),
             N_("{degrees} degrees: {steps} steps down the wound track (R8, R9)")))
"""A harm offer's reason by degrees and steps (one or more of each): four messages, so each reads whole."""


@dataclass(frozen=True, slots=True)
class HarmOffer:
    """A proposed wound step (Rajapolku) or harm note (both path systems)."""

    allowed: bool
    reason: str
    who: str = ""
    steps: int = 0
    level_from: str = ""
    level_to: str = ""
    note: str = ""
    source_seq: int = 0


class _RollKeeps(TypedDict, total=False):
    """What a damage resistance roll's table keeps besides the roll: the attack it resists, the roll it replaces."""

    attack: int | None
    supersedes: int


@dataclass(frozen=True, slots=True)
class _Resisted:
    """A damage resistance roll of this sitting, kept so Edge can still be spent on it (S5–S7)."""

    target: str
    roll: sr.SRRoll
    before: sr.Monitors
    """The target's monitors before the hit."""
    after: tuple[int, int, int]
    """Physical, stun and overflow after it (a later change to them makes Edge too late)."""
    dv: int
    net: int
    damage: str
    armour: int
    ap: sr.ArmourPenetration
    what: str
    size: int
    attack: int
    challenge: str | None
    which: str = "armour"
    """"ballistic armour" or "impact armour": the one that met the weapon."""


class Damage:
    """Damage and harm commands of one tracker."""

    def __init__(self, tracker: TableHost) -> None:
        self.t = tracker

    # -- Varjojuoksu ----------------------------------------------------------------

    def weapons(self, cid: str) -> list[Weapon]:
        """The weapons on a character's sheet (its own or its template's), the last used first."""
        ch = self.t.characters.get(cid) if cid else None
        return wielded(self.t.state, ch) if ch else []

    def armour(self, cid: str) -> Armour:
        """A character's ballistic and impact armour (its own or its template's)."""
        return armour_of(self.t.state, self.t.character(cid))

    def armour_against(self, cid: str, weapon_kind: str) -> tuple[int, str]:
        """The defender's armour that meets a weapon of ``weapon_kind``, and which it is
        ("ballistic" against ranged weapons, "impact" against melee and thrown ones)."""
        from ...rules import shadowrun as sr

        try:
            which = sr.armour_against(weapon_kind)
        except RulesError as e:
            raise TrackerError(*e.args) from None
        a = self.armour(cid)
        return (a.ballistic if which == "ballistic" else a.impact), which

    def condition_text(self, cid: str) -> str:
        """"" while a Varjojuoksu character fights on; else "unconscious", "dying (overflow 2/4)" or "dead"."""
        from ...rules import shadowrun as sr

        ch = self.t.character(cid)
        if "attributes" not in ch:
            return ""
        phys, stun = self.t.condition_monitor(cid, "physical"), self.t.condition_monitor(cid, "stun")
        mon = sr.Monitors(ch["physical"], ch["stun"], phys, stun, int(ch.get("overflow", 0)), ch["attributes"]["body"])
        text = mon.state_text()
        return "" if text == "conscious" else text

    def condition_words(self, cid: str) -> str:
        """:meth:`condition_text` in the language in use (the sheet's and the characters' pane's words)."""
        from ...i18n import _
        from ...rules import shadowrun as sr

        ch = self.t.character(cid)
        if "attributes" not in ch:
            return ""
        phys, stun = self.t.condition_monitor(cid, "physical"), self.t.condition_monitor(cid, "stun")
        mon = sr.Monitors(ch["physical"], ch["stun"], phys, stun, int(ch.get("overflow", 0)), ch["attributes"]["body"])
        if mon.dead:
            return _("dead")
        if mon.dying:
            return _("dying (overflow {overflow}/{body})", overflow=mon.overflow, body=mon.body)
        return _("unconscious") if mon.unconscious else ""

    def offer(self, roll_event: Event | None) -> DamageOffer:
        """Can damage be applied from this roll, and what does the session propose?"""
        t = self.t
        if t.system is not System.SHADOWRUN:
            return DamageOffer(False, _("damage from a roll is Varjojuoksu's (Rajapolku and Harhapolku propose harm)"))
        if not roll_event or roll_of(roll_event).get("test") != "shadowrun-opposed":
            return DamageOffer(False, _("damage comes from an opposed attack roll (S9)"))
        roll = roll_of(roll_event)
        seq = int(roll_event["seq"])
        if t.is_undone(seq):
            return DamageOffer(False, _("that attack roll was undone"))
        if any(roll_of(e).get("supersedes") == seq for e in self._later(seq)):
            return DamageOffer(False, _("Edge changed that roll: apply damage from its newer result"))
        out = roll.get("outcome") or {}
        who = {s.get("role"): s.get("who", []) for s in roll["sides"]}
        targets = [c for c in who.get("b", []) if c in t.characters]
        attacker = next((c for c in who.get("a", []) if c in t.characters), "")
        if out.get("winner") == "tie":
            return DamageOffer(False, _("stalemate: no net hits, so no damage (S9)"), seq, attacker, targets, missed=True)
        if out.get("winner") != "a":
            return DamageOffer(False, _("the attack missed: the defender held (S9)"), seq, attacker, targets, missed=True)
        if not targets:
            return DamageOffer(False, _("the defender is not a character: nobody to take the damage"), seq, attacker)
        done = [e for e in self._later(seq) if e.get("roll", {}).get("attack") == seq]
        net = int(out.get("net_hits", 0))
        reason = (said(N_("net hits {n} add to the weapon's damage value (damage was already applied once from this "
                          "roll)"), n=net) if done else said(N_("net hits {n} add to the weapon's damage value"), n=net))
        weapons = self.weapons(attacker)
        armour, _worn = self.armour_against(targets[0], weapons[0].kind if weapons else "ranged")
        return DamageOffer(True, reason, seq, attacker, targets, int(out.get("net_hits", 0)),
                           weapons, armour, str(roll_event.get("challenge") or ""))

    def key_offer(self, selected: str | None) -> DamageOffer:
        """What D on the GM's screen offers (Varjojuoksu): damage from the last opposed attack if it hit.

        When that attack is the newest roll and missed or stalemated, it deals nothing, and
        neither its attacker nor its defender is offered a hit (refused, saying why). Without
        an attack roll (or for someone else after a miss) D offers the selected character a
        hit the GM describes (``attack_seq`` 0).
        """
        ev = self.last_event()
        offer = self.offer(ev) if ev is not None else None
        if offer is not None and offer.allowed:
            return offer
        if (offer is not None and offer.missed and not self._later(offer.attack_seq)
                and (selected is None or selected in offer.targets or selected == offer.attacker)):
            return offer
        if selected is None:
            why = offer.reason if offer is not None else _("no attack roll yet")
            return DamageOffer(False, _("{reason}; select a character (2) to give them a hit", reason=why))
        return DamageOffer(True, "a hit the GM describes", targets=[selected])

    def _later(self, seq: int) -> list[Event]:
        t = self.t
        out: list[Event] = []
        for i in range(len(t.events) - 1, -1, -1):
            ev = t.events[i]
            if ev["seq"] <= seq:
                break
            if ev.get("kind") == "roll" and not t.is_undone(ev["seq"]):
                out.append(ev)
        return out

    def resistance_dice(self, target: str, armour: int, ap: int | sr.ArmourPenetration = 0) -> int:
        """Dice of the target's damage resistance test: Body + armour after AP (no wound modifier)."""
        from ...rules import shadowrun as sr

        ch = sr_sheet(self.t.character(target))
        try:
            return sr.resistance_pool(ch["attributes"]["body"], armour, ap)
        except RulesError as e:
            raise TrackerError(*e.args) from None

    def last_event(self) -> Event | None:
        """The newest roll (not undone) that damage or harm could come from, or None."""
        t = self.t
        for i in range(len(t.events) - 1, -1, -1):
            ev = t.events[i]
            if ev.get("kind") not in ("roll", "narration") or t.is_undone(ev["seq"]):
                continue
            test = roll_of(ev).get("test")
            if test in ("shadowrun-opposed", "rajapolku") or (
                    test == "narration" and "harm" in (roll_of(ev).get("outcome") or {})):
                found: Event = ev
                return found
        return None

    def glitch_words(self, outcome: RollOutcome) -> str:
        """A resistance roll's glitch in words with its size and hits (S5, S6), or "" without one."""
        from ...rules import shadowrun as sr

        if not (outcome.get("glitch") or outcome.get("critical_glitch")):
            return ""
        return sr.glitch_words(int(outcome.get("hits", 0)), bool(outcome.get("critical_glitch")))

    def preview(self, target: str, dv: int, net_hits: int, damage: str, ap: int | sr.ArmourPenetration,
                armour: int, edge: bool,
                which: str = "") -> str:
        """One line before the resistance roll: the DV, the monitor it fills and the dice to roll
        (``which``: "ballistic" or "impact", the armour named)."""
        from ...rules import shadowrun as sr

        ch = sr_sheet(self.t.character(target))
        try:
            total = sr.modified_damage(dv, net_hits)
            eff = sr.effective_armour(armour, ap)
            kind = sr.damage_kind(damage, total, eff, self.t.settings.sr_stun_conversion)
            size = sr.resistance_pool(ch["attributes"]["body"], armour, ap)
        except RulesError as e:
            return str(e)
        dv_text = _("DV {dv} + {net} net = {total}{letter}", dv=dv, net=net_hits, total=total,
                    letter="P" if damage == "physical" else "S")
        if kind != damage:
            dv_text = _("{dv} → stun (under the armour)", dv=dv_text)
        if which == "ballistic":
            armour_text = _("ballistic armour {n}", n=eff)
        elif which == "impact":
            armour_text = _("impact armour {n}", n=eff)
        else:
            armour_text = f"{which} armour {eff}" if which else _("armour {n}", n=eff)
        resist = _("resist: Body {body} + {armour} = {n} dice", body=ch["attributes"]["body"], armour=armour_text,
                   n=size)
        if edge:
            resist = _("{resist} + {edge} Edge, sixes explode", resist=resist, edge=ch["edge_rating"])
        return f"{dv_text} · {resist}"

    def faces_needed(self, target: str, armour: int, ap: int | sr.ArmourPenetration, edge: bool,
                     faces: Sequence[int]) -> int:
        """How many more physical dice the resistance roll needs after ``faces`` (rule of six waves)."""
        from ...rules import shadowrun as sr

        rating = sr_sheet(self.t.character(target))["edge_rating"] if edge else None
        return sr.faces_needed(self.resistance_dice(target, armour, ap), rating, list(faces))

    def apply(self, roll_event: Event | None, *, target: str, dv: int, damage: str = "physical",
              ap: int | str | sr.ArmourPenetration = 0, armour: int | None = None, weapon: str = "",
              edge: bool = False, faces: Sequence[int] | None = None, net_hits: int | None = None, skill: str = "",
              kind: str = "") -> DamageApplied:
        """Apply one hit: resistance roll, boxes, overflow, the weapon used and the armour — one command.

        ``roll_event`` is the opposed attack (its net hits count); None applies a hit
        the GM describes (``net_hits`` given, default 0). ``ap`` is a number or what the
        books print ("-half"); ``kind`` (ranged, melee, thrown; default from ``skill``)
        decides which of the target's armours meets it, and ``armour`` None uses that one.
        The attacker remembers the weapon (a new one joins its sheet). Returns
        ``{"event", "result"}``.
        """
        from ...rules import shadowrun as sr

        t = self.t
        if t.system is not System.SHADOWRUN:
            raise TrackerError(said(N_("damage from a roll is Varjojuoksu's")))
        attacker, seq, challenge = "", 0, None
        if roll_event is not None:
            offer = self.offer(roll_event)
            if not offer.allowed:
                raise TrackerError(offer.reason)
            if target not in offer.targets:
                raise TrackerError(said(N_("{value} was not the defender of that attack"), value=str(t.character(target)['name'] if target in t.characters else target)))
            attacker, seq, challenge = offer.attacker, offer.attack_seq, offer.challenge or None
            net = offer.net_hits
        else:
            net = 0 if net_hits is None else net_hits
        ch = t.character(target)
        if "attributes" not in ch:
            raise TrackerError(said(N_("{name} has no condition monitors"), name=str(ch['name'])))
        if damage not in sr.DAMAGE_KINDS:
            raise TrackerError(said(N_("damage is 'physical' or 'stun'")))
        try:
            pen = sr.parse_ap(ap)
            kind = kind or sr.weapon_kind(skill)
        except RulesError as e:
            raise TrackerError(*e.args) from None
        worn, which = self.armour_against(target, kind)
        armour = worn if armour is None else armour
        weapon = weapon.strip()
        used = Weapon(weapon, dv, damage, pen, skill.strip(), kind)
        out: list[DamageApplied] = []

        def build(txn: Txn) -> None:
            settings = t.settings
            body = ch["attributes"]["body"]
            size = sr.resistance_pool(body, armour, pen)
            src, origin = t.rolls.dice_source(faces)
            rating = None
            if edge:
                t.rolls.spend_edge_in(txn, target, "Edge on the damage resistance test (S7)", "resist_edge")
                rating = ch["edge_rating"]
            r = sr.roll(size, src, rating, settings=settings)
            t.rolls.check_faces_used(src)
            phys_max, stun_max = t.condition_monitor(target, "physical"), t.condition_monitor(target, "stun")
            mon = sr.Monitors(ch["physical"], ch["stun"], phys_max, stun_max, int(ch.get("overflow", 0)), body)
            if weapon and attacker:
                self._remember(txn, attacker, used)
            if armour != worn:
                self._keep_armour(txn, target, which, armour)
            letter = "P" if damage == "physical" else "S"
            what = f"{weapon} {dv}{letter}" if weapon else f"DV {dv}{letter}"
            if pen != sr.ArmourPenetration():
                what += f" AP {pen.text}"
            rec = _Resisted(target, r, mon, (0, 0, 0), dv, net, damage, armour, pen, what, size, seq, challenge,
                            f"{which} armour")
            out.append(self._resist_in(txn, rec, origin))

        t.run(build)
        return out[0]

    def _resist_in(self, txn: Txn, rec: _Resisted, origin: dict[str, object], *,
                   lines: Sequence[str] = (), supersedes: int | None = None) -> DamageApplied:
        """Fill the target's boxes from ``rec.before`` with ``rec.roll``'s hits and log the roll event."""
        from ...rules import shadowrun as sr

        t = self.t
        settings = t.settings
        target, r = rec.target, rec.roll
        ch = t.character(target)
        res = sr.resolve_damage(rec.before, rec.dv, rec.net, rec.damage, sr.effective_armour(rec.armour, rec.ap),
                                r.hits, settings=settings)
        path = ["characters", target]
        txn.set(path + ["physical"], res.after.physical)
        txn.set(path + ["stun"], res.after.stun)
        if res.after.overflow or "overflow" in ch:
            txn.set(path + ["overflow"], res.after.overflow)
        summary = resistance_summary(res, r)
        outcome = resistance_outcome(res, r)
        eff = sr.effective_armour(rec.armour, rec.ap)
        ap = rec.ap
        explain = [*lines, line("side", side=rec.what, line=res.explain()[0]), *res.explain()[1:], *r.explain(),
                   line("sr.resistance", body=rec.before.body, which=rec.which, armour_now=eff, worn=rec.armour,
                        ap=ap.text if ap != sr.ArmourPenetration() else "", size=rec.size, edge_dice=r.edge_dice,
                        when=r.edge_when or "")]
        # The log shows the summary: it names who took the hit, first.
        text = f"{ch['name']} takes {rec.what}: {summary}"
        extra: _RollKeeps = {"attack": rec.attack or None}
        if supersedes is not None:
            extra["supersedes"] = supersedes
        ev = t.rolls.emit_roll(txn, "damage-resistance", [
            {"role": "b", "label": ch["name"], "who": [target], "dice": [_die(d) for d in r.dice]}],
            text, outcome, explain, origin, rec.challenge, text, fact=resistance_fact(ch["name"], rec.what, res, r),
            **extra)
        cast("dict[str, object]", ev)["_recent"] = dataclasses.replace(rec, after=(res.after.physical, res.after.stun, res.after.overflow))
        return {"event": ev, "result": res}

    # -- Edge after the resistance roll (S5–S7) -------------------------------------

    def post_roll_actions(self, resist_event: Event | None) -> list[RollAction]:
        """What the defender may still spend Edge on after a damage resistance roll, each allowed
        or not with a reason (:class:`polku.session.rolls.RollAction`, role "b").

        The rules answer as for any test (:func:`polku.rules.actions.roll_actions`,
        kind ``sr-resistance``): Edge after the roll, negating a glitch, reducing a
        critical glitch. Only the latest roll can take it, and only while the
        target's boxes are as that roll left them.
        """
        from ...rules.actions import roll_actions as rules_actions
        from ..rolls import RollAction

        t = self.t
        if resist_event is None:
            return []
        roll = roll_of(resist_event)
        if roll.get("test") != "damage-resistance":
            return []
        seq = int(resist_event["seq"])
        rec = t.recent.get(seq)
        if not isinstance(rec, _Resisted):
            return [RollAction("edge_after", False, N_("Edge after the roll works on a resistance roll of this "
                                                  "sitting only"), 1, "b")]
        found = t.characters.get(rec.target)
        if found is None:
            return []
        ch = sr_sheet(found)
        latest = seq == t.rolls.latest_roll_seq() and not t.is_undone(seq)
        acts = rules_actions("sr-resistance", roll=rec.roll, has_character=True, edge_left=ch["edge"],
                             edge_rating=ch["edge_rating"], latest=latest, settings=t.settings)
        now = (ch["physical"], ch["stun"], int(ch.get("overflow", 0)))
        out = []
        for a in acts:
            act = RollAction.of(a, "b", rec.target, ch["name"])
            if act.allowed and now != rec.after:
                act = dataclasses.replace(act, allowed=False,
                                          reason=f"{ch['name']}'s boxes changed since that roll: undo it to roll again")
            out.append(act)
        return out

    def post_roll(self, resist_event: Event, what: str, *,
                  faces: Sequence[int] | None = None) -> DamageApplied:
        """S5–S7 on a damage resistance roll: ``edge_after`` (Edge-rating dice, rule of six, fewer
        boxes for each new hit), ``negate_glitch`` or ``reduce_critical`` — 1 Edge each, the
        defender's. The boxes are filled again from the monitors before the hit; one command,
        undoable, logging a roll that supersedes the first. Returns ``{"event", "result"}``."""
        from ...rules import shadowrun as sr

        t = self.t
        acts = [a for a in self.post_roll_actions(resist_event) if a.name == what]
        if not acts:
            raise TrackerError(said(N_("'{what}' cannot be done to this roll"), what=str(what)))
        if not acts[0].allowed:
            raise TrackerError(acts[0].reason)
        rec = cast(_Resisted, t.recent[int(resist_event["seq"])])  # post_roll_actions found it
        ch = sr_sheet(t.character(rec.target))
        out: list[DamageApplied] = []

        def build(txn: Txn) -> None:
            src, origin = t.rolls.dice_source(faces)
            if what == "edge_after":
                new = sr.edge_after(rec.roll, ch["edge_rating"], src)
                reason = f"Edge after the roll: +{plural(ch['edge_rating'], 'die')}, rule of six on them (S7)"
            elif what == "negate_glitch":
                new = sr.negate_glitch(rec.roll)
                reason = "negate a glitch (S5)"
            else:
                new = sr.reduce_critical(rec.roll)
                reason = "reduce a critical glitch to a glitch (S6)"
            t.rolls.check_faces_used(src)
            t.rolls.spend_edge_in(txn, rec.target, f"{reason} on the damage resistance test", f"resist_{what}",
                                  ch["edge_rating"] if what == "edge_after" else 0)
            if what != "edge_after":
                kept = roll_of(resist_event)
                origin = {k: v for k, v in kept.items() if k in ("manual", "seed")}
            out.append(self._resist_in(txn, dataclasses.replace(rec, roll=new), origin,
                                       lines=[f"{ch['name']}: {reason}"], supersedes=int(resist_event["seq"])))

        with t.gm_only(bool(resist_event.get("secret"))):
            t.run(build)
        return out[0]

    def post_roll_dice(self, resist_event: Event, what: str) -> int:
        """How many new dice ``what`` throws first (Edge after: the Edge rating; else 0), for a faces prompt."""
        if what != "edge_after":
            return 0
        rec = self.t.recent.get(int(resist_event["seq"]))
        if not isinstance(rec, _Resisted):
            return 0
        rating: int = sr_sheet(self.t.character(rec.target))["edge_rating"]
        return rating

    def _remember(self, txn: Txn, cid: str, w: Weapon) -> None:
        """The attacker attacked with ``w``: it is the one proposed next time (``wielded``). A weapon
        not on the sheet as it was used joins the character's own weapons (the template's stay)."""
        from .gear import MAX_WEAPONS

        t = self.t
        ch = t.character(cid)
        if "attributes" not in ch:
            return
        sheet = weapons_of(t.state, ch)
        if w not in sheet:
            kept = [x.to_table() for x in sheet if x.name.lower() != w.name.lower()]
            txn.set(["characters", cid, "weapons"], [w.to_table()] + kept[:MAX_WEAPONS - 1])
        if ch.get("wielded") != w.name:
            txn.set(["characters", cid, "wielded"], w.name)

    def _keep_armour(self, txn: Txn, cid: str, which: str, value: int) -> None:
        """The GM changed the defender's armour on the damage prompt: the sheet keeps it."""
        a = self.armour(cid)
        a = Armour(value, a.impact) if which == "ballistic" else Armour(a.ballistic, value)
        txn.set(["characters", cid, "armour"], a.to_table())

    # -- Rajapolku and Harhapolku: harm proposals -----------------------------------

    def harm_offer(self, event: Event | None) -> HarmOffer:
        """The harm a decided roll proposes for its loser (R8/R9) or a harm roll for its usurper (H9)."""
        t = self.t
        if not event:
            return HarmOffer(False, _("no roll to take harm from"))
        roll = roll_of(event)
        if t.is_undone(int(event["seq"])):
            return HarmOffer(False, _("that roll was undone"))
        if t.system is System.RAJAPOLKU and roll.get("test") in ("rajapolku",):
            return self._raja_offer(event, roll)
        if t.system is System.HARHAPOLKU and event.get("kind") == "narration":
            return self._harha_offer(event, roll)
        return HarmOffer(False, _("harm is proposed after a decided Rajapolku challenge or a harm roll (H9)"))

    def _raja_offer(self, event: Event, roll: RollTable) -> HarmOffer:
        from ...rules import rajapolku as raja

        t = self.t
        out = roll.get("outcome") or {}
        winner = out.get("winner")
        if winner not in ("a", "b"):
            return HarmOffer(False, _("a tie: nobody lost (R5)"))
        loser_role = "b" if winner == "a" else "a"
        none: RollSide = {"dice": []}
        side = next((s for s in roll["sides"] if s.get("role") == loser_role), none)
        who = next((c for c in side.get("who", []) if c in t.characters), "")
        if not who:
            return HarmOffer(False, _("the loser ({label}) is not a character", label=side.get("label", "?")))
        ch = raja_sheet(t.character(who))
        degrees = int(out.get("degrees", 0))
        steps, to = raja.harm_steps(degrees, t.state["wound_track"], ch["wound"])
        seq = int(event["seq"])
        title = t.challenge(event["challenge"])["title"] if event.get("challenge") and any(
            c["id"] == event["challenge"] for c in t.state["challenges"]) else ""
        note = f"lost {title!r}" if title else "lost a challenge"
        # The health note is the players' to read and outlives the roll: a character on a side made
        # secret later turns the roll into "the GM rolls" for the players, so the note never carries
        # the roll's numbers (R6 degrees); the offer's reason and the roll's own line say them.
        if degrees == 0:
            return HarmOffer(True, said(N_("a narrow win (0 degrees): no wound step; a health note instead (R8)")),
                             who, 0, ch["wound"], ch["wound"], note, seq)
        if steps == 0:
            return HarmOffer(True, said(N_("{name} is already {level}: a health note (R8)"), name=ch["name"],
                                        level=said(ch["wound"])),
                             who, 0, ch["wound"], ch["wound"], note, seq)
        return HarmOffer(True, said(_DEGREES[degrees != 1][steps != 1], degrees=degrees, steps=steps),
                         who, steps, ch["wound"], to, note, seq)

    def _harha_offer(self, event: Event, roll: RollTable) -> HarmOffer:
        t = self.t
        harm = (roll.get("outcome") or {}).get("harm")
        if not isinstance(harm, dict):
            return HarmOffer(False, _("harm is proposed after the narration contest's harm roll (H9)"))
        who = next((c for c in event.get("who", []) if c in t.characters), "")
        if not harm.get("harmed"):
            return HarmOffer(False, _("the GM's harm roll was not above the usurper's total: unharmed (H9)"), who)
        if not who:
            return HarmOffer(False, _("the harmed usurper is not a character"))
        if harm.get("automatic"):
            how = said(N_("a fight with abilities, the GM wins"))
        else:
            how = said("GM {gm} > {usurper}", gm=str(harm.get("gm_total")), usurper=str(harm.get("usurper_total")))
        # The note outlives the roll (see _raja_offer): it tells none of the contest's totals. It is the GM's to
        # edit and is kept as written, so it is worded in the GM's language.
        return HarmOffer(True, said(N_("harmed in the narration contest ({how}): a health note the GM words (H9)"),
                                    how=how), who,
                         note=_("harmed in the narration contest"), source_seq=int(event["seq"]))

    def apply_harm(self, offer: HarmOffer, *, steps: int | None = None, note: str | None = None) -> None:
        """Confirm (or edit) a harm proposal: the wound step and/or the health note, one command."""
        t = self.t
        if not offer.allowed:
            raise TrackerError(offer.reason)
        ch = t.character(offer.who)
        steps = offer.steps if steps is None else steps
        note = offer.note if note is None else note.strip()
        if steps < 0:
            raise TrackerError(said(N_("a harm step goes down the track (0 or more)")))
        track = t.state["wound_track"]
        level = ch.get("wound", "")
        new_level = level
        if steps:
            if "wound" not in ch:
                raise TrackerError(said(N_("Harhapolku keeps no wound track: write a health note")))
            i = track.index(level) if level in track else 0
            new_level = track[min(len(track) - 1, i + steps)]
        if new_level == level and note == ch["health"]:
            raise TrackerError(said(N_("{name} is already {value} with that note; nothing changed"), name=str(ch['name']), value=str(level or 'so')))

        def build(txn: Txn) -> None:
            bits = []
            fact: dict[str, object] = {"id": "harm.applied", "name": ch["name"]}
            if new_level != level:
                txn.set(["characters", offer.who, "wound"], new_level)
                bits.append(f"{level} → {new_level}")
                fact.update(before=level, after=new_level)
            if note != ch["health"]:
                txn.set(["characters", offer.who, "health"], note)
                bits.append(f"health: {note or '(cleared)'}")
                fact["note"] = note
            txn.emit("wound", f"{ch['name']}: {'; '.join(bits)}", who=offer.who,
                     before=level or None, after=new_level or None, harm_of=offer.source_seq or None, fact=fact)

        t.run(build)


def _die(d: Die) -> DieTable:
    from ..rolls import die_dict

    return die_dict(d)


def resistance_summary(res: sr.DamageResult, r: sr.SRRoll) -> str:
    """A damage resistance roll's result in words: the DV less the hits, the boxes filled and the monitors
    after them, the wound modifier, a glitch (SR4 core, S5–S7, S12)."""
    from ...rules import shadowrun as sr

    letter = "P" if res.declared == "physical" else "S"
    return (f"{res.dv}{letter} − {r.hits} hit{'s' if r.hits != 1 else ''} → "
            f"{res.boxes} box{'es' if res.boxes != 1 else ''} {res.kind}"
            f" ({res.after.physical}/{res.before.physical_max} physical, {res.after.stun}/{res.before.stun_max} stun"
            + (f", overflow {res.overflow}" if res.overflow else "") + ")"
            + f", wound {str(res.after.wound_modifier).replace('-', '−')}"
            + ("" if res.after.state_text() == "conscious" else f", {res.after.state_text()}")
            + (f", {sr.glitch_words(r.hits, r.critical_glitch)}" if r.glitch or r.critical_glitch else ""))


def resistance_fact(name: str, what: str, res: sr.DamageResult, r: sr.SRRoll) -> dict[str, object]:
    """A damage resistance roll's facts, as :func:`resistance_summary` words them (:mod:`polku.session.telling`)."""
    after = res.after
    state = "dead" if after.dead else "dying" if after.dying else "unconscious" if after.unconscious else None
    return {"id": "sr.damage", "name": name, "what": what, "dv": res.dv, "letter": "P" if res.declared == "physical"
            else "S", "hits": r.hits, "boxes": res.boxes, "track": res.kind, "physical_now": after.physical,
            "physical_max": res.before.physical_max, "stun_now": after.stun, "stun_max": res.before.stun_max,
            "overflow_now": res.overflow or None, "wound_modifier": after.wound_modifier, "state": state,
            "dying_overflow": after.overflow if state == "dying" else None, "body_rating": after.body,
            "glitch_kind": "critical" if r.critical_glitch else "glitch" if r.glitch else None}


def resistance_outcome(res: sr.DamageResult, r: sr.SRRoll) -> dict[str, object]:
    """A damage resistance roll's logged outcome: the roll as judged (S4–S7), the hit resisted and the
    monitors before it, from which the boxes follow (``polku verify`` judges it again from them)."""
    from ...rules import shadowrun as sr

    roll: dict[str, object] = sr.result_json(r)
    roll.pop("dice", None)
    b = res.before
    return {**roll, **res.to_json(), "before": {"physical": b.physical, "stun": b.stun, "overflow": b.overflow,
                                                "physical_max": b.physical_max, "stun_max": b.stun_max,
                                                "body": b.body}}


__all__ = ["Damage", "DamageOffer", "HarmOffer", "Weapon", "resistance_fact", "resistance_outcome",
           "resistance_summary"]
