"""Varjojuoksu's (Shadowrun 4e) roll commands: pools from the characters (S1–S3), a success
test, an opposed or group test and teamwork (S8, S9, S11), Edge before and after the roll
(S3, S5–S7), and what may follow a roll. The extended test (S10) is
:mod:`polku.session.rolls.shadowrun_extended`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, cast

from ...i18n import N_, said
from ...rules import shadowrun as sr
from ...rules.dice import DiceSource, ManualSource, RulesError
from ..model import Event, ExtendedProgress, roll_of, whole
from ..records import RollTable
from ..records import sr as sr_sheet
from ..telling import line, sr_roll_fact
from .common import ActionsOf, DoAction, RollAction, Rolled, RollsBase, die_dict

if TYPE_CHECKING:
    from ..host import InitiativeRolled, Txn

SREmit = Callable[["Txn", "SRRecord", dict[str, object], Sequence[str], "int | None"], Event]
"""Who judges and logs a kept test (:meth:`SRRolls.sr_emitters`): (txn, the record, where its dice came from,
lines before its explanation, the ``seq`` of the roll it supersedes or None) → the roll's event."""


class SRTestRolled(Rolled, total=False):
    """A Varjojuoksu roll command's return: the event and the rules core's roll (a success test, Edge after it)
    or opposed result."""

    roll: sr.SRRoll
    result: sr.OpposedResult
"""Judge and log a kept Varjojuoksu test (its record, the dice's origin, lines to explain first, the event's extra
fields)."""


@dataclass(frozen=True, slots=True)
class SRSide:
    """One Varjojuoksu pool (S1–S3)."""

    label: str
    who: list[str] = field(default_factory=list)
    skill_name: str = ""
    skill: int | None = None
    attribute_name: str = "attribute"
    attribute: int = 0
    second_attribute_name: str = ""
    second_attribute: int | None = None
    modifiers: list[tuple[str, int]] = field(default_factory=list)
    wound_modifier: int = 0
    defaulting_allowed: bool = True
    edge_before: bool = False
    long_shot: bool = False
    dice: int | None = None
    """A bare dice count (an NPC or a GM pool) instead of skill + attribute."""
    helper: bool = False
    """A teamwork helper's pool (S11): no defaulting leaves 0 dice instead of an error."""
    override: bool = False
    """``dice`` is the GM's pool for this helper, replacing their own (S11)."""
    defence: str = ""
    """The defence a defender rolls (``rules.shadowrun.DEFENCE_CHOICES``: Reaction, full defence, parry, block or
    "own", the GM's own pool); an opposed test keeps it on side B's sheet (``defence``) for the next attack."""


@dataclass(frozen=True, slots=True)
class SRPool:
    """What the GM chose for a Varjojuoksu pool, before the character's ratings are looked up.

    ``mode``: "skill" (skill + linked attribute), "default" (attribute alone −1, S2),
    "attr+attr" (S1), "attribute" (an attribute alone, no die off: a defence on Reaction)
    or "dice" (a bare count). :meth:`Rolls.sr_side` turns
    it into an :class:`SRSide` with the character's ratings and wounds.
    """

    mode: str = "skill"
    skill: str = ""
    attribute: str = "agility"
    second: str = "strength"
    dice: int = 6
    modifiers: list[tuple[str, int]] = field(default_factory=list)
    edge_before: bool = False
    long_shot: bool = False
    effects_off: tuple[str, ...] = ()
    """Labels of the character's effect rows the GM turned off for this roll (each is on by default)."""
    defence: str = ""
    """The defence this pool rolls, when a defender's (:meth:`polku.session.table.attack.Attacks.defence_pool`)."""


def pool_json(pool: SRPool) -> dict[str, object]:
    """An :class:`SRPool` as TOML-ready data (Edge before and the Long Shot are each roll's own)."""
    return {"mode": pool.mode, "skill": pool.skill, "attribute": pool.attribute, "second": pool.second,
            "dice": pool.dice, "modifiers": [{"label": label, "dice": n} for label, n in pool.modifiers],
            "effects_off": list(pool.effects_off)}


def pool_from(value: object) -> SRPool | None:
    """The :class:`SRPool` kept by :func:`pool_json`, or None if ``value`` is not one."""
    if not isinstance(value, dict):
        return None
    data = cast("dict[str, object]", value)  # as kept: each field is read and converted below
    mods, off = data.get("modifiers", []), data.get("effects_off", [])
    try:
        if not isinstance(mods, list) or not isinstance(off, list):
            raise TypeError("not a list")
        return SRPool(mode=str(data["mode"]), skill=str(data["skill"]), attribute=str(data["attribute"]),
                      second=str(data["second"]), dice=_whole(data["dice"]),
                      modifiers=[(str(m["label"]), _whole(m["dice"])) for m in cast("list[dict[str, object]]", mods)],
                      effects_off=tuple(str(x) for x in cast("list[object]", off)))
    except (KeyError, TypeError, ValueError):
        return None


_whole = whole
"""``int(value)`` of a kept number (:func:`polku.session.model.whole`)."""


@dataclass(frozen=True, slots=True)
class TeamworkLead:
    """Who leads a teamwork test and why (S11: the character with the largest pool leads)."""

    allowed: bool
    """Side A may lead: theirs is the largest pool, or ties for it (the GM's choice stands)."""
    line: str
    """One line for the GM: who leads and why, or who should lead instead."""


SRRolled = tuple["SRSide", sr.PoolPlan, sr.SRRoll]
"""One side of a kept test: who rolled with what pool, the pool's plan, the roll."""


class SRRecord:
    """A Varjojuoksu test kept for this sitting, so Edge can still be spent on it (S5–S7)."""

    __slots__ = ("kind", "sides", "challenge", "threshold", "hidden", "lines", "group", "ext_before",
                 "status_before")

    def __init__(self, kind: str, sides: dict[str, SRRolled], *, challenge: str | None = None,
                 threshold: int | None = None, hidden: bool = False, lines: tuple[str, ...] = (),
                 group: tuple[int, ...] = (), ext_before: ExtendedProgress | None = None,
                 status_before: str | None = None) -> None:
        self.kind, self.sides, self.challenge = kind, dict(sides), challenge
        self.threshold, self.hidden, self.lines, self.group = threshold, hidden, lines, group
        self.ext_before, self.status_before = ext_before, status_before

    def with_roll(self, role: str, roll: sr.SRRoll) -> "SRRecord":
        side, plan, _ = self.sides[role]
        return SRRecord(self.kind, {**self.sides, role: (side, plan, roll)}, challenge=self.challenge,
                         threshold=self.threshold, hidden=self.hidden, lines=self.lines, group=self.group,
                         ext_before=self.ext_before, status_before=self.status_before)


class SRRolls(RollsBase):
    """Varjojuoksu's roll commands (``tracker.rolls.roll_sr``, ``roll_sr_opposed``…)."""

    def sr_actions(self) -> dict[str | None, ActionsOf]:
        """What may follow a Varjojuoksu roll of this sitting: Edge after it, negating a glitch, reducing a
        critical glitch (S5–S7) for each side that rolled, the next interval and spoiling (S10)."""
        return {"shadowrun": self._sr_roll_actions}

    def sr_doers(self) -> dict[str, DoAction]:
        return {name: self._do_post_roll for name in ("edge_after", "negate_glitch", "reduce_critical")}

    def _sr_roll_actions(self, roll_event: Event, roll: RollTable, latest: bool) -> list[RollAction]:
        from ...rules.actions import roll_actions as rules_actions

        rec = self.tracker.recent.get(roll_event["seq"])
        if not isinstance(rec, SRRecord):
            return [RollAction("edge_after", False, N_("Edge after the roll works on a Varjojuoksu roll of "
                                                  "this sitting only"), 1)]
        ext = None
        e = self.tracker.challenge(rec.challenge).get("extended") if rec.kind == "sr-extended" and rec.challenge else None
        if e is not None:
            ext = sr.ExtendedTest(e["threshold"], e.get("interval", "interval"), e["hurried"],
                                  e["accumulated"], e["intervals"], e["ended"], e["spoiled"],
                                  history=(rec.sides["a"][2],) if e.get("glitched") else ())
        out: list[RollAction] = []
        for role, (side, _plan, r) in rec.sides.items():
            ch = sr_sheet(self.tracker.character(side.who[0])) if side.who and side.who[0] in self.tracker.characters else None
            kind = {"sr-teamwork": "sr-teamwork-leader"}.get(rec.kind, rec.kind)
            if role.startswith("helper:"):
                kind = "sr-teamwork-helper"
            acts = rules_actions(kind, roll=r, has_character=ch is not None,
                                 edge_left=ch["edge"] if ch else 0, edge_rating=ch["edge_rating"] if ch else 0,
                                 extended=ext, leader_rolled=True, latest=latest, settings=self.tracker.settings)
            for a in acts:
                if a.name in ("next_interval", "spoil") and role != "a":
                    continue
                out.append(RollAction.of(a, role, side.who[0] if side.who else "", side.label))
        return out

    def _do_post_roll(self, roll_event: Event, act: RollAction, faces: Sequence[int] | None) -> Rolled:
        return self.sr_post_roll(roll_event, act.name, role=act.role, faces=faces)

    def sr_side(self, cid: str | None, spec: SRPool, label: str | None = None) -> SRSide:
        """Build a Varjojuoksu side from a character and what the GM chose (S1–S3, S12 wounds).

        No character (``cid`` None or "") or ``spec.mode == "dice"`` is a bare dice count.
        """
        if not cid:
            return SRSide(label or "GM", [], dice=spec.dice, modifiers=list(spec.modifiers))
        ch = sr_sheet(self.tracker.character(cid))
        wounds = -self.tracker.wound_penalty(cid)
        name = label or ch["name"]
        # The character's effects with a dice modifier are rows of the pool, each on unless turned off.
        spec = replace(spec, modifiers=list(spec.modifiers) + self.effect_dice([cid], spec.effects_off))
        if spec.mode == "dice":
            return SRSide(name, [cid], dice=spec.dice, modifiers=list(spec.modifiers), wound_modifier=wounds,
                          edge_before=spec.edge_before, long_shot=spec.long_shot, defence=spec.defence)
        attrs = ch["attributes"]
        if spec.mode == "attribute":
            return SRSide(name, [cid], dice=attrs[spec.attribute], attribute_name=spec.attribute.capitalize(),
                          modifiers=list(spec.modifiers), wound_modifier=wounds,
                          edge_before=spec.edge_before, long_shot=spec.long_shot, defence=spec.defence)
        skill: int | None = None
        if spec.mode == "skill":
            skill = ch.get("skills", {}).get(spec.skill, 0)
        second = attrs[spec.second] if spec.mode == "attr+attr" else None
        return SRSide(name, [cid], skill_name=spec.skill or "skill", skill=skill,
                      attribute_name=spec.attribute.capitalize(), attribute=attrs[spec.attribute],
                      second_attribute_name=spec.second.capitalize(), second_attribute=second,
                      modifiers=list(spec.modifiers), wound_modifier=wounds,
                      edge_before=spec.edge_before, long_shot=spec.long_shot, defence=spec.defence)

    def sr_helper_side(self, cid: str, leader: SRPool, override: int | None = None) -> SRSide:
        """S11: a helper rolls their own pool for the leader's test, or the GM's ``override``.

        The same skill + attribute (their own ratings; defaulting, S2, when they lack the
        skill) or the same attribute + attribute, with their own wound modifier.
        """
        ch = sr_sheet(self.tracker.character(cid))
        if override is not None:
            return SRSide(ch["name"], [cid], dice=override, helper=True, override=True)
        mode = "default" if leader.mode == "skill" and not ch.get("skills", {}).get(leader.skill) else leader.mode
        if leader.mode == "dice":
            # The leader rolls a bare count: the GM gives each helper's pool too.
            return SRSide(ch["name"], [cid], dice=0, helper=True, override=True)
        side = self.sr_side(cid, SRPool(mode=mode if mode != "default" else "skill", skill=leader.skill,
                                        attribute=leader.attribute, second=leader.second), ch["name"])
        return replace(side, skill=None if mode == "default" else side.skill, helper=True)

    def sr_linked_attribute(self, skill: str, current: str, who: str = "") -> str:
        """S1: the skill's linked attribute (the pool builder's default): the one the character's sheet
        names for it (``links``, e.g. from Chummer: Swimming on Strength), else the usual one, else
        ``current``."""
        ch = self.tracker.characters.get(who) if who else None
        linked = sr_sheet(ch).get("links", {}).get(skill) if ch else None
        return str(linked) if linked else sr.linked_attribute(skill, current)

    def sr_plan(self, side: SRSide) -> sr.PoolPlan:
        if side.long_shot:
            ch = sr_sheet(self.tracker.character(side.who[0])) if side.who else None
            return sr.long_shot(ch["edge_rating"] if ch else 0)
        if side.helper:
            return sr.helper_pool(side.skill, side.attribute, side.second_attribute,
                                  defaulting_allowed=side.defaulting_allowed, wound_modifier=side.wound_modifier,
                                  modifiers=side.modifiers, override=side.dice if side.override else None,
                                  skill_name=side.skill_name or "skill", attribute_name=side.attribute_name,
                                  second_attribute_name=side.second_attribute_name or "attribute")
        if side.dice is not None:
            # An attribute alone is named by it ("Reaction: 3 dice"); a bare count by the side.
            return sr.dice_pool(side.dice, side.modifiers, side.wound_modifier,
                                label=side.attribute_name if side.attribute_name != "attribute" else side.label)
        return sr.build_pool(side.skill, side.attribute, side.second_attribute, side.modifiers,
                             side.defaulting_allowed, side.wound_modifier, skill_name=side.skill_name or "skill",
                             attribute_name=side.attribute_name, second_attribute_name=side.second_attribute_name or "attribute")

    def sr_pool_dice(self, side: SRSide) -> int:
        """Dice the side throws before any rule of six: the pool plus Edge-before dice (S3, S7)."""
        plan = self.sr_plan(side)
        if side.long_shot or not side.edge_before or not side.who:
            return plan.size
        return plan.size + int(sr_sheet(self.tracker.character(side.who[0]))["edge_rating"])

    def sr_group_dice(self, side: SRSide, group: Sequence[int]) -> int:
        """S9 against a group: the largest pool + 1 die per extra member (at most +5), plus the
        Edge-before dice (S7) when the side spends Edge, as :meth:`roll_sr_opposed` throws them."""
        return sr.group_pool([self.sr_plan(side).size, *group]) + self.sr_pool_dice(side) - self.sr_plan(side).size

    @staticmethod
    def sr_six_wave(faces: Sequence[int]) -> int:
        """S7: how many dice the next wave of the rule of six throws after these faces were rolled."""
        return sr.six_wave(faces)

    def sr_teamwork_leader_dice(self, leader: SRSide, helpers: Sequence[SRSide],
                                helper_faces: Sequence[Sequence[int]]) -> int:
        """S11: the dice the leader throws (before any rule of six) once the helpers rolled these faces.

        Raises:
            RulesError: a helper's faces do not fit their pool.
        """
        rolls = []
        for h, faces in zip(helpers, helper_faces):
            src = ManualSource(list(faces))
            rolls.append(sr.roll(self.sr_plan(h).size, src, settings=self.tracker.settings))
            self.check_faces_used(src)
        extra = sr.teamwork_bonus(rolls, leader.skill, self.tracker.settings)
        plan = self.sr_plan(leader)
        if leader.long_shot:
            return plan.size
        return 0 if plan.size + extra <= 0 else self.sr_pool_dice(leader) + extra

    def sr_follow_up_dice(self, roll_event: Event, what: str, role: str = "a") -> int:
        """Dice a follow-up throws before any rule of six: Edge after the roll adds the roller's
        Edge rating in dice (S7); negating or reducing a glitch throws none (S5, S6)."""
        if what != "edge_after":
            return 0
        rec = self.tracker.recent.get(roll_event["seq"])
        if isinstance(rec, SRRecord):
            who = rec.sides[role][0].who if role in rec.sides else []
        else:
            # Read from the log (a player's seat sees the roll in the file, not in memory).
            roll = roll_of(roll_event)
            who = next((s.get("who", []) for s in roll["sides"] if s.get("role") == role), [])
        if not who or who[0] not in self.tracker.characters:
            return 0
        return int(sr_sheet(self.tracker.character(who[0])).get("edge_rating", 0))

    def sr_initiative_dice(self, cid: str) -> int:
        """S12: the dice a character throws for initiative (Reaction + Intuition)."""
        a = sr_sheet(self.tracker.character(cid))["attributes"]
        return sr.initiative_pool(a["reaction"], a["intuition"])

    def sr_rule_of_six(self, side: SRSide) -> bool:
        """S3, S7: the whole pool follows the rule of six (Edge before the roll, or a Long Shot)."""
        return bool(side.edge_before or side.long_shot)

    def sr_pool_actions(self, side: SRSide, kind: str = "sr-success") -> list[RollAction]:
        """What may be chosen before this side rolls: Edge before, Long Shot, buying hits (S3, S4, S7)."""
        from ...rules.actions import roll_actions

        ch = sr_sheet(self.tracker.character(side.who[0])) if side.who else None
        plain = SRSide(side.label, side.who, side.skill_name, side.skill, side.attribute_name, side.attribute,
                       side.second_attribute_name, side.second_attribute, list(side.modifiers), side.wound_modifier,
                       side.defaulting_allowed, dice=side.dice, helper=side.helper, override=side.override)
        acts = roll_actions(kind, pool=self.sr_plan(plain).size, has_character=ch is not None,
                            edge_left=ch["edge"] if ch else 0, edge_rating=ch["edge_rating"] if ch else 0,
                            settings=self.tracker.settings)
        return [RollAction.of(a, "a", side.who[0] if side.who else "", side.label) for a in acts]

    def _sr_roll_side(self, txn: "Txn", side: SRSide, src: DiceSource, *, hurried: bool = False,
                      helper_dice: int = 0) -> tuple[sr.PoolPlan, sr.SRRoll]:
        plan = self.sr_plan(side)
        ch = sr_sheet(self.tracker.character(side.who[0])) if side.who else None
        if side.long_shot:
            if ch is None:
                raise RulesError(said(N_("a Long Shot needs a character with Edge (S3)")))
            self.spend_edge_in(txn, side.who[0], "Long Shot (S3)", "long_shot")
            return plan, sr.roll_long_shot(ch["edge_rating"], src, settings=self.tracker.settings)
        edge = None
        if side.edge_before:
            if ch is None:
                raise RulesError(said(N_("Edge needs a character (S7)")))
            self.spend_edge_in(txn, side.who[0], "Edge before the roll: rule of six (S7)", "edge_before")
            edge = ch["edge_rating"]
        r = sr.roll(plan.size, src, edge, settings=self.tracker.settings,
                    hurried=hurried, helper_dice=helper_dice)
        return plan, r

    def spend_edge_in(self, txn: "Txn", cid: str, reason: str, why: str = "", dice: int = 0) -> None:
        """Spend 1 Edge as part of a roll's command; ``reason`` in English words, ``why`` its id
        (:data:`polku.session.telling.EDGE_REASONS`) and ``dice`` the Edge dice added, for the fact."""
        ch = sr_sheet(self.tracker.character(cid))
        if ch["edge"] < 1:
            raise RulesError(said(N_("{name} has no Edge left this session"), name=str(ch['name'])))
        left = ch["edge"] - 1
        txn.set(["characters", cid, "edge"], left)
        txn.emit("resource", f"{ch['name']} spends Edge: {reason} ({left}/{ch['edge_rating']} left)",
                 who=cid, resource="edge", amount=-1,
                 fact={"id": "sr.edge_spent", "name": ch["name"], "reason": reason, "why": why or None,
                       "edge_dice": dice or None, "left": left, "rating": ch["edge_rating"]})

    def roll_sr(self, side: SRSide, *, threshold: int | None = None, hidden: bool = False,
                challenge: str | None = None, faces: Sequence[int] | None = None,
                buy_hits: bool = False) -> SRTestRolled:
        """S1–S8: a success test (or a plain roll counting hits)."""
        out: SRTestRolled = {}

        def build(txn: "Txn") -> None:
            src, origin = self.dice_source(faces)
            if buy_hits:
                plan = self.sr_plan(side)
                r = sr.buy_hits(plan.size)
            else:
                plan, r = self._sr_roll_side(txn, side, src)
            self.check_faces_used(src)
            rec = SRRecord("sr-success", {"a": (side, plan, r)}, challenge=challenge,
                            threshold=threshold, hidden=hidden)
            ev = self._sr_emit(txn, rec, origin)
            out["event"], out["roll"] = ev, r

        self.tracker.run(build)
        return out

    def _sr_emit(self, txn: "Txn", rec: SRRecord, origin: dict[str, object],
                 extra_explain: Sequence[str] = (), supersedes: int | None = None) -> Event:
        """Judge and log a Varjojuoksu test from its rolls; used by the roll and by Edge after it. The
        record's kind picks who judges it (:meth:`sr_emitters`)."""
        ev = self.sr_emitters()[rec.kind](txn, rec, origin, extra_explain, supersedes)
        # Not a field of the event: Tracker._append takes it off and keeps it by seq (never saved).
        cast("dict[str, object]", ev)["_recent"] = rec
        return ev

    def sr_emitters(self) -> dict[str, SREmit]:
        """Who judges and logs a kept test, by its kind (:attr:`SRRecord.kind`)."""
        return {"sr-success": self._emit_success, "sr-opposed": self._emit_opposed, "sr-group": self._emit_opposed,
                "sr-teamwork": self._emit_teamwork}

    def _emit_success(self, txn: "Txn", rec: SRRecord, origin: dict[str, object],
                      extra_explain: Sequence[str], supersedes: int | None) -> Event:
        """A success test or a plain roll counting hits (S1–S8)."""
        chal = rec.challenge
        side, plan, r = rec.sides["a"]
        res: sr.SRRoll | sr.SuccessResult = r
        if rec.threshold is not None:
            res = sr.success_test(r, rec.threshold, rec.hidden)
        outcome = sr.result_json(res)
        summary = _sr_summary(r, res if rec.threshold is not None else None)
        outcome.pop("dice", None)
        explain = list(extra_explain) + r.explain()
        if isinstance(res, sr.SuccessResult):
            explain.append(line("sr.threshold_kept", threshold=rec.threshold, hidden=rec.hidden, success=res.success,
                                net_hits=res.net_hits))
        explain += list(plan.explain())
        fact: dict[str, object] = {"id": "sr.success", "label": side.label, **sr_roll_fact(r)}
        if isinstance(res, sr.SuccessResult):  # a threshold was given
            fact.update(threshold=res.threshold, success=res.success, net_hits=res.net_hits)
            self._resolve_challenge_in(txn, chal, summary, fact)
        ev = self.emit_roll(txn, "shadowrun", [
            {"role": "a", "label": side.label, "who": side.who, "dice": [die_dict(d) for d in r.dice]}],
            summary, outcome, explain, origin, chal, f"{side.label}: {summary}",
            threshold=rec.threshold, hidden=rec.hidden or None, fact=fact, supersedes=supersedes)
        return ev

    def _emit_opposed(self, txn: "Txn", rec: SRRecord, origin: dict[str, object],
                      extra_explain: Sequence[str], supersedes: int | None) -> Event:
        """An opposed test, or against a group (S9)."""
        chal = rec.challenge
        (a, plan_a, ra), (b, plan_b, rb) = rec.sides["a"], rec.sides["b"]
        res = sr.opposed(ra, rb)
        summary = _sr_opposed_summary(res, a.label, b.label)
        self._resolve_challenge_in(txn, chal, summary, _sr_opposed_fact(res, a.label, b.label))
        ev = self.emit_roll(txn, "shadowrun-opposed", [
            {"role": "a", "label": a.label, "who": a.who, "dice": [die_dict(d) for d in ra.dice]},
            {"role": "b", "label": b.label, "who": b.who, "dice": [die_dict(d) for d in rb.dice]},
        ], summary, sr.result_json(res), list(extra_explain) + res.explain() + list(plan_a.explain())
            + list(rec.lines) + list(plan_b.explain()), origin, chal, f"{a.label} vs {b.label}: {summary}",
            group=list(rec.group) or None, fact=_sr_opposed_fact(res, a.label, b.label), supersedes=supersedes)
        return ev

    def _emit_teamwork(self, txn: "Txn", rec: SRRecord, origin: dict[str, object],
                       extra_explain: Sequence[str], supersedes: int | None) -> Event:
        """A teamwork test: the helpers' hits, then the leader's roll (S11)."""
        chal = rec.challenge
        helpers = [rec.sides[k] for k in sorted(rec.sides) if k.startswith("helper:")]
        leader, plan, r = rec.sides["a"]
        sides: list[dict[str, object]] = [{"role": "helper", "label": h.label, "who": h.who, "dice": [die_dict(d) for d in hr.dice]}
                 for h, _, hr in helpers]
        sides.append({"role": "a", "label": leader.label, "who": leader.who,
                      "dice": [die_dict(d) for d in r.dice]})
        res = sr.success_test(r, rec.threshold) if rec.threshold is not None else r
        summary = _sr_summary(r, res if rec.threshold is not None else None)
        summary = f"teamwork (+{r.helper_dice} dice from helpers): {summary}"
        outcome = sr.result_json(res)
        outcome.pop("dice", None)
        lines = [line("sr.helper", label=h.label, hits=hr.hits, size=hp.size, lines=list(hp.explain()))
                 for h, hp, hr in helpers]
        fact: dict[str, object] = {"id": "sr.teamwork", "label": leader.label, "helper_dice": r.helper_dice,
                                   **sr_roll_fact(r)}
        if isinstance(res, sr.SuccessResult):  # a threshold was given
            fact.update(threshold=res.threshold, success=res.success, net_hits=res.net_hits)
            self._resolve_challenge_in(txn, chal, summary, fact)
        ev = self.emit_roll(txn, "shadowrun-teamwork", sides, summary, outcome,
                              list(extra_explain) + lines + list(rec.lines) + r.explain() + list(plan.explain()),
                              origin, chal, f"{leader.label} leads: {summary}", threshold=rec.threshold, fact=fact,
                              supersedes=supersedes)
        return ev

    def sr_post_roll(self, roll_event: Event, what: str, *, role: str = "a",
                     faces: Sequence[int] | None = None) -> SRTestRolled:
        """S5–S7 after the roll on any test and either side: ``edge_after``, ``negate_glitch``
        or ``reduce_critical`` (1 Edge each, by the character who rolled)."""
        key = roll_event["seq"]
        rec = self.tracker.recent.get(key)
        if not isinstance(rec, SRRecord):
            raise self._refuse("Edge after the roll works on a Varjojuoksu roll of this sitting only")
        if role not in rec.sides:
            raise self._refuse(f"no side '{role}' in that roll")
        side, plan, r = rec.sides[role]
        if not side.who:
            raise self._refuse("Edge needs a character (a player character or a GM's NPC with Edge) (S7)")
        cid = side.who[0]
        ch = sr_sheet(self.tracker.character(cid))
        if ch["edge"] < 1 and what in ("edge_after", "negate_glitch", "reduce_critical"):
            raise self._refuse(f"{ch['name']} has no Edge left this session")
        act = next((a for a in self.roll_actions(roll_event) if a.name == what and a.role == role), None)
        if act is None:
            raise self._refuse(f"unknown post-roll action '{what}'")
        if not act.allowed:
            raise self._refuse(act.reason)
        out: SRTestRolled = {}

        def build(txn: "Txn") -> None:
            src, origin = self.dice_source(faces)
            new: sr.SRRoll | sr.SuccessResult
            if what == "edge_after":
                new = sr.edge_after(r, ch["edge_rating"], src)
                reason = "Edge after the roll: +%d dice, rule of six on them (S7)" % ch["edge_rating"]
            elif what == "negate_glitch":
                new = sr.negate_glitch(r)
                reason = "negate a glitch (S5)"
            else:
                new = sr.reduce_critical(r)
                reason = "reduce a critical glitch to a glitch (S6)"
            self.check_faces_used(src)
            self.spend_edge_in(txn, cid, reason, what, ch["edge_rating"] if what == "edge_after" else 0)
            if what != "edge_after":
                origin = {k: v for k, v in roll_event["roll"].items() if k in ("manual", "seed")}
            new_rec = rec.with_roll(role, new)
            ev = self._sr_emit(txn, new_rec, origin, [line("sr.edge_used", name=ch["name"], why=what,
                                                           edge_dice=ch["edge_rating"])], supersedes=key)
            out["event"], out["roll"] = ev, new

        # What follows a GM-only roll is the GM's too (the Edge it spends included).
        with self.tracker.gm_only(bool(roll_event.get("secret"))):
            self.tracker.run(build)
        return out

    def roll_sr_opposed(self, a: SRSide, b: SRSide, *, group: Sequence[int] = (),
                        challenge: str | None = None,
                        faces: tuple[Sequence[int] | None, Sequence[int] | None] | None = None) -> SRTestRolled:
        """S9: both roll; more hits wins by the difference; a tie goes to the defender (B) if needed.

        ``group``: pool sizes of B's companions (largest + 1 per extra member, at most +5).
        Either side may spend Edge before (S7) and after (:meth:`sr_post_roll`) the roll.
        ``faces``: each side's physical faces; a side's None is thrown with the program's dice (a
        player's seat types its own, the other side's are the program's; ``hand`` says which).
        """
        out: SRTestRolled = {}
        if faces is not None and faces[0] is None and faces[1] is None:
            faces = None

        def build(txn: "Txn") -> None:
            if faces is not None and None in faces:
                program, origin = self.dice_source(None)
                sa = ManualSource(list(faces[0])) if faces[0] is not None else program
                sb = ManualSource(list(faces[1])) if faces[1] is not None else program
                origin.update(manual=True, hand=[role for role, f in zip("ab", faces) if f is not None])
            elif faces is not None:
                sa, origin = self.dice_source(faces[0])
                sb, _ = self.dice_source(faces[1])
            else:
                sa, origin = self.dice_source(None)
                sb = sa
            plan_a, ra = self._sr_roll_side(txn, a, sa)
            b_side = b
            extra_lines: list[str] = []
            if group:
                plan_b0 = self.sr_plan(b)
                size = sr.group_pool([plan_b0.size, *group])
                b_side = SRSide(b.label, b.who, dice=size, edge_before=b.edge_before)
                extra_lines.append(line("sr.group", members=len(group) + 1, bonus=min(5, len(group)), size=size))
            plan_b, rb = self._sr_roll_side(txn, b_side, sb)
            self.check_faces_used(sa)
            if sb is not sa:
                self.check_faces_used(sb)
            rec = SRRecord("sr-group" if group else "sr-opposed", {"a": (a, plan_a, ra), "b": (b_side, plan_b, rb)},
                            challenge=challenge, lines=tuple(extra_lines), group=tuple(group))
            self._keep_defence(txn, b)
            out["event"] = self._sr_emit(txn, rec, origin)
            out["result"] = sr.opposed(ra, rb)

        self.tracker.run(build)
        return out

    def _keep_defence(self, txn: "Txn", b: SRSide) -> None:
        """The defence side B rolled, kept on their sheet: the next attack on them proposes it again,
        after the file is reopened too (one change of the roll's command: undoing the roll forgets it)."""
        cid = b.who[0] if len(b.who) == 1 else ""
        if not b.defence or cid not in self.tracker.characters:
            return
        if b.defence not in sr.DEFENCE_CHOICES:
            raise RulesError(said(N_("a defence is one of {DEFENCE_CHOICES}, not '{defence}'"), DEFENCE_CHOICES=str(', '.join(sr.DEFENCE_CHOICES)), defence=str(b.defence)))
        if sr_sheet(self.tracker.character(cid)).get("defence", "reaction") != b.defence:
            txn.set(["characters", cid, "defence"], b.defence)

    def sr_teamwork_lead(self, leader: SRSide, helpers: Sequence[SRSide]) -> TeamworkLead:
        """S11: whether ``leader`` may lead these helpers — the largest pool leads.

        The pools compared are the ones rolled (each with its own ratings, wounds and
        modifiers, or the GM's pool for a helper). A tie keeps the GM's choice of leader.
        """
        size = self.sr_plan(leader).size
        sizes = [(self.sr_plan(h).size, h.label) for h in helpers]
        bigger = [(n, label) for n, label in sizes if n > size]
        if bigger:
            top = max(n for n, _ in bigger)
            names = [label for n, label in bigger if n == top]
            who = " and ".join(names)
            return TeamworkLead(False, f"{who} {'leads' if len(names) == 1 else 'tie to lead'} (S11): largest pool, "
                                f"{top} dice; {leader.label} {size} — w: "
                                f"{names[0] if len(names) == 1 else 'one of them'} as side A")
        tied = [label for n, label in sizes if n == size]
        if tied:
            return TeamworkLead(True, f"{leader.label} leads: tied with {' and '.join(tied)} at {size} dice, "
                                "the GM's choice (S11)")
        others = ", ".join(f"{label} {n}" for n, label in sizes)
        return TeamworkLead(True, f"{leader.label} leads: the largest pool ({size} dice"
                            + (f"; {others}" if others else "") + ") (S11)")

    def roll_sr_teamwork(self, leader: SRSide, helpers: Sequence[SRSide], *,
                         threshold: int | None = None, challenge: str | None = None,
                         faces: Sequence[int] | None = None) -> SRTestRolled:
        """S11: each helper rolls their own pool first; their hits are extra dice for the
        leader (capped per ``sr.teamwork_cap``), whose roll is the official result.

        The leader is the one with the largest pool (:meth:`sr_teamwork_lead`; a tie keeps
        the GM's choice); another leader is refused in one line naming who leads.
        """
        lead = self.sr_teamwork_lead(leader, helpers)
        if not lead.allowed:
            raise self._refuse(lead.line)
        out: SRTestRolled = {}

        def build(txn: "Txn") -> None:
            src, origin = self.dice_source(faces)
            sides: dict[str, SRRolled] = {}
            helper_rolls = []
            for i, h in enumerate(helpers):
                plan, r = self._sr_roll_side(txn, h, src)
                helper_rolls.append(r)
                sides[f"helper:{i}"] = (h, plan, r)
            extra = sr.teamwork_bonus(helper_rolls, leader.skill, self.tracker.settings)
            total = sum(r.hits for r in helper_rolls)
            lines = []
            if extra < total:
                lines.append(line("sr.teamwork_cap", total=total, skill=leader.skill or 0, extra=extra))
            plan, r = self._sr_roll_side(txn, leader, src, helper_dice=extra)
            self.check_faces_used(src)
            sides["a"] = (leader, plan, r)
            rec = SRRecord("sr-teamwork", sides, challenge=challenge, threshold=threshold, lines=tuple(lines))
            out["event"] = self._sr_emit(txn, rec, origin)

        self.tracker.run(build)
        return out

    def roll_initiative(self, entries: Sequence[tuple[str, int]], *,
                        faces: Sequence[int] | None = None, edge: Sequence[str] = (),
                        surprised: Sequence[str] = (), kinds: Mapping[str, str] | None = None) -> InitiativeRolled:
        """S12: roll initiative and begin a combat turn, Edge on the roll (S7), surprise and the scores
        acted on (see :meth:`polku.session.table.combat.Combat.roll_initiative`)."""
        return self.tracker.combat.roll_initiative(entries, faces=faces, edge=edge, surprised=surprised, kinds=kinds)


def _sr_summary(r: sr.SRRoll, res: sr.SuccessResult | sr.SRRoll | None) -> str:
    if r.auto_failed:
        return "automatic failure (pool 0 or less, S3)"
    parts = [f"{r.hits} hit{'s' if r.hits != 1 else ''}"]
    if isinstance(res, sr.SuccessResult):
        parts.append(f"success, {res.net_hits} net" if res.success else "failure")
    if r.critical_glitch:
        parts.append(sr.glitch_words(r.hits, True, loud=True))
    elif r.glitch:
        parts.append(sr.glitch_words(r.hits, loud=True))
    elif r.glitch_negated:
        parts.append("glitch negated")
    return ", ".join(parts)


def _sr_opposed_summary(res: sr.OpposedResult, a: str, b: str) -> str:
    if res.winner == "tie":
        return f"stalemate {res.a_hits}–{res.b_hits} ({b} wins if needed)"
    name = a if res.winner == "a" else b
    glitches = []
    for label, r in ((a, res.a), (b, res.b)):
        if r.critical_glitch:
            glitches.append(f"{label} {sr.glitch_words(r.hits, True, loud=True)}")
        elif r.glitch:
            glitches.append(f"{label} {sr.glitch_words(r.hits)}")
    return f"{name} wins {res.a_hits}–{res.b_hits}, {res.net_hits} net" + (f" ({', '.join(glitches)})" if glitches else "")


def _sr_opposed_fact(res: sr.OpposedResult, a: str, b: str) -> dict[str, object]:
    """The facts of an opposed test (S9) for :mod:`polku.session.telling`: who won by how many, each side's glitch."""
    fact: dict[str, object] = {"id": "sr.opposed", "a": a, "b": b, "a_hits": res.a_hits, "b_hits": res.b_hits,
                            "winner": res.winner, "net_hits": res.net_hits}
    for role, r in (("a", res.a), ("b", res.b)):
        glitch = sr_roll_fact(r).get("glitch_kind")
        if glitch in ("critical", "glitch"):
            fact[f"{role}_glitch"] = glitch
    return fact
