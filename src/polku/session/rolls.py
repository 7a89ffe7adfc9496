"""Roll commands of the tracker, one family per system.

Each command builds pools with the rules core, rolls them with the program's
dice (a fresh seed per roll, recorded) or with faces the GM entered from
physical dice, resolves, and appends one ``roll`` event whose ``roll`` table
keeps every die (size, face, source, what a reroll replaced), the outcome's
numbers and the explanation (docs/rules.md, shared terms). Resources the roll spends (ability
charges, Edge, an edge reroll, spirit-combat charges) change in the same
command, so one undo reverts all of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable, Sequence, cast

from ..rules import harhapolku as harha
from ..rules import rajapolku as raja
from ..rules import shadowrun as sr
from ..rules.dice import Die, DiceSource, DieSpec, ManualSource, RulesError, Src, roll_specs
from ..rules.system import Settings, System
from ..text import plural, raja_outcome
from .host import TrackerError
from .model import Event
from .odds import RajaQuestion

if TYPE_CHECKING:
    from .host import RollHost, Txn


def die_dict(d: Die) -> dict[str, Any]:
    out: dict[str, Any] = {"size": d.size, "face": d.face, "source": str(d.source)}
    if d.label:
        out["label"] = d.label
    if d.replaced:
        out["replaced"] = list(d.replaced)
    return out


def die_from(d: dict[str, Any]) -> Die:
    return Die(d["size"], d["face"], d.get("source", "die"), d.get("label", ""), tuple(d.get("replaced", ())))


def toml_safe(value: Any) -> Any:
    """Drop None (TOML has no null) and stringify odd keys, recursively."""
    if isinstance(value, dict):
        return {str(k): toml_safe(v) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        return [toml_safe(v) for v in value if v is not None]
    if isinstance(value, (frozenset, set)):
        return sorted(toml_safe(v) for v in value)
    return value


@dataclass(frozen=True, slots=True)
class RajaSide:
    """One side of a Rajapolku challenge (R1–R4, R7, R9)."""

    label: str
    who: list[str] = field(default_factory=list)
    backgrounds: list[str] = field(default_factory=list)
    abilities: list[str] = field(default_factory=list)
    helping: list[str] = field(default_factory=list)
    hindering: list[str] = field(default_factory=list)
    wound_level: str = "Healthy"
    effects_off: tuple[str, ...] = ()
    """Labels of the character's effect rows the GM turned off for this roll (each is on by default)."""


@dataclass(frozen=True, slots=True)
class HarhaSide:
    """One side of a Harhapolku challenge (H2): claimed background names per tier."""

    label: str
    who: list[str] = field(default_factory=list)
    general: str | None = None
    background: str | None = None
    significant: str | None = None
    special: str | None = None
    significant_special: str | None = None
    gm_bonus: bool = False
    effects_off: tuple[str, ...] = ()
    """Labels of the character's effect rows the GM turned off for this roll (each is on by default)."""
    always: bool = True
    """H2's "1d8 always"; False when the GM takes it away (H4: an actor with no die fails)."""


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


@dataclass(frozen=True, slots=True)
class SRPool:
    """What the GM chose for a Varjojuoksu pool, before the character's ratings are looked up.

    ``mode``: "skill" (skill + linked attribute), "default" (attribute alone −1, S2),
    "attr+attr" (S1) or "dice" (a bare count). :meth:`Rolls.sr_side` turns
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


@dataclass(frozen=True, slots=True)
class ExtendedRoller:
    """Who rolls every interval of an extended test, and the pool last rolled (S10).

    The GM may change the threshold, the pool or hurrying between intervals;
    the roller stays the one who began the test.
    """

    who: str
    """The character's id, or "" for the GM's dice count."""
    name: str
    pool: SRPool | None
    """The pool of the last interval (None: not known, an older file)."""

    @property
    def reason(self) -> str:
        """One line: why the roller cannot change."""
        return f"{self.name} rolls every interval of this extended test (S10): add a new challenge for another roller"


def pool_json(pool: SRPool) -> dict[str, Any]:
    """An :class:`SRPool` as TOML-ready data (Edge before and the Long Shot are each roll's own)."""
    return {"mode": pool.mode, "skill": pool.skill, "attribute": pool.attribute, "second": pool.second,
            "dice": pool.dice, "modifiers": [{"label": label, "dice": n} for label, n in pool.modifiers],
            "effects_off": list(pool.effects_off)}


def pool_from(data: Any) -> SRPool | None:
    """The :class:`SRPool` kept by :func:`pool_json`, or None if ``data`` is not one."""
    if not isinstance(data, dict):
        return None
    try:
        return SRPool(mode=str(data["mode"]), skill=str(data["skill"]), attribute=str(data["attribute"]),
                      second=str(data["second"]), dice=int(data["dice"]),
                      modifiers=[(str(m["label"]), int(m["dice"])) for m in data.get("modifiers", [])],
                      effects_off=tuple(str(x) for x in data.get("effects_off", [])))
    except (KeyError, TypeError, ValueError):
        return None


@dataclass(frozen=True, slots=True)
class TeamworkLead:
    """Who leads a teamwork test and why (S11: the character with the largest pool leads)."""

    allowed: bool
    """Side A may lead: theirs is the largest pool, or ties for it (the GM's choice stands)."""
    line: str
    """One line for the GM: who leads and why, or who should lead instead."""


@dataclass(frozen=True, slots=True)
class RollAction:
    """One thing that can be done to a roll now (or why not), for one side of it.

    The session layer's answer to "what can be done to this roll now"; the
    rules core decides (:func:`polku.rules.actions.roll_actions`).
    """

    name: str
    """"edge_after", "negate_glitch", "reduce_critical", "next_interval", "spoil",
    "edge_reroll", "reroll_tie", "next_exchange", "end_fight" (after a roll);
    "edge_before", "long_shot", "buy_hits" (before it)."""
    allowed: bool
    reason: str
    """What it does, or why it cannot be done now: one line for the GM."""
    cost: int = 0
    role: str = "a"
    """Which side of the roll: "a", "b", "helper:0"…"""
    who: str = ""
    """The character who would pay (Edge, an edge), or ""."""
    label: str = ""
    edge: str = ""
    """Harhapolku: the edge an ``edge_reroll`` would use."""

    @classmethod
    def of(cls, action: Any, role: str, who: str, label: str) -> "RollAction":
        return cls(action.name, action.allowed, action.reason, action.cost, role, who, label)


class _SRRecord:
    """A Varjojuoksu test kept for this sitting, so Edge can still be spent on it (S5–S7)."""

    __slots__ = ("kind", "sides", "challenge", "threshold", "hidden", "lines", "group", "ext_before",
                 "status_before")

    def __init__(self, kind: str, sides: dict[str, tuple[Any, Any, Any]], *, challenge: str | None = None,
                 threshold: int | None = None, hidden: bool = False, lines: tuple[str, ...] = (),
                 group: tuple[int, ...] = (), ext_before: dict[str, Any] | None = None,
                 status_before: str | None = None) -> None:
        self.kind, self.sides, self.challenge = kind, dict(sides), challenge
        self.threshold, self.hidden, self.lines, self.group = threshold, hidden, lines, group
        self.ext_before, self.status_before = ext_before, status_before

    def with_roll(self, role: str, roll: Any) -> "_SRRecord":
        side, plan, _ = self.sides[role]
        return _SRRecord(self.kind, {**self.sides, role: (side, plan, roll)}, challenge=self.challenge,
                         threshold=self.threshold, hidden=self.hidden, lines=self.lines, group=self.group,
                         ext_before=self.ext_before, status_before=self.status_before)


class Rolls:
    """The roll commands, a part of the tracker: ``tracker.rolls.roll_raja(...)``.

    Each command runs as one tracker command (``tracker._run``), so it is
    logged and undone like any other.
    """

    def __init__(self, tracker: RollHost) -> None:
        self.tracker = tracker

    def _source(self, faces: Sequence[int] | None) -> tuple[DiceSource, dict[str, Any]]:
        if faces is not None:
            return ManualSource(list(faces)), {"manual": True}
        return self.tracker.program_source()

    def _roll_two(self, specs_a: Sequence[DieSpec], specs_b: Sequence[DieSpec],
                  faces: tuple[Sequence[int] | None, Sequence[int] | None] | None
                  ) -> tuple[tuple[Die, ...], tuple[Die, ...], dict[str, Any]]:
        """Roll both sides' pools: one seeded source, or each side's entered faces (checked, all used).

        A side whose faces are None is thrown with the program's dice while the
        other side's faces were entered by hand (a player's seat types its own
        dice; the GM's opposition is the program's). The log then says which
        sides were entered by hand (``hand``), so the program's dice of the
        other side can still be checked (``polku verify``).
        """
        if faces is not None:
            fa, fb = faces
            if fa is not None and fb is not None:
                src_a, origin = self._source(fa)
                src_b, _ = self._source(fb)
            else:
                program, origin = self._source(None)
                src_a = ManualSource(list(fa)) if fa is not None else program
                src_b = ManualSource(list(fb)) if fb is not None else program
                hand = [role for role, f in (("a", fa), ("b", fb)) if f is not None]
                if hand:
                    origin.update(manual=True, hand=hand)
            dice_a, dice_b = roll_specs(specs_a, src_a), roll_specs(specs_b, src_b)
            self._check_manual_used(src_a)
            self._check_manual_used(src_b)
            return dice_a, dice_b, origin
        src, origin = self._source(None)
        return roll_specs(specs_a, src), roll_specs(specs_b, src), origin

    def _roll_event(self, txn: "Txn", test: str, sides: list[dict[str, Any]], summary: str,
                    outcome: dict[str, Any], explain: list[str], origin: dict[str, Any],
                    challenge: str | None, text: str, resolved_with: Settings | None = None, **extra: Any) -> Event:
        """Emit the roll; ``resolved_with``: the settings it was resolved with when not the campaign's
        (a Harhapolku roll's own comparison, :meth:`settings_for`). ``settings`` in ``extra`` replaces the
        kept settings (a damage resistance roll keeps its own)."""
        roll = {"test": test, "sides": sides, "summary": summary, "outcome": toml_safe(outcome),
                "explain": list(explain), **origin}
        used = self.roll_settings(test, resolved_with or self.tracker.settings)
        if used:
            roll["settings"] = used
        roll.update(toml_safe(extra))
        who = sorted({w for s in sides for w in s.get("who", [])})
        return txn.emit("roll", text, roll=roll, who=who, challenge=challenge)

    def settings_for(self, variant: str | None = None) -> Settings:
        """The settings a roll is made with, whole: the campaign's, with a Harhapolku roll's own
        comparison (``v`` on the roll screen, H3–H6) as ``harha.variant``. The roll is resolved by
        them and keeps them; its odds (:mod:`polku.session.odds`) are asked with them."""
        settings = self.tracker.settings
        return settings if variant is None else settings.with_value("harha.variant", self.harha_variant(variant))

    def raja_question(self, a: RajaSide, b: RajaSide) -> RajaQuestion:
        """The odds question of a Rajapolku challenge between these sides (their pools' normal
        and ability dice, R2–R7), for :func:`polku.session.odds.answer`."""
        pa, pb = self.raja_pools(a, b)
        ab_a, ab_b = (sum(1 for s in pool if s.source == Src.ABILITY) for pool in (pa, pb))
        return RajaQuestion((len(pa) - ab_a, ab_a), (len(pb) - ab_b, ab_b))

    @staticmethod
    def roll_settings(test: str, settings: Settings) -> dict[str, Any]:
        """The [choice] settings a roll of ``test`` is resolved with, to keep in its log entry."""
        if test == "harhapolku-classic":
            keys: tuple[str, ...] = ("harha.variant", "harha.classic_extra")
        elif test == "harhapolku-sum":
            keys = ("harha.variant", "harha.sum_difficult")
        else:
            keys = next((k for prefix, k in _ROLL_SETTINGS if test.startswith(prefix)), ())
        values = settings.to_dotted()
        return {k: values[k] for k in keys if k in values}

    def _resolve_challenge_in(self, txn: "Txn", challenge: str | None, outcome: str) -> None:
        if challenge:
            self.tracker.resolve_challenge(challenge, outcome, txn)

    def _refuse(self, message: str) -> Exception:
        """A command refused before it starts: the same one-line TrackerError as inside ``_run``."""
        return TrackerError(message)

    def _check_manual_used(self, source: DiceSource) -> None:
        if isinstance(source, ManualSource) and source.remaining:
            raise RulesError(f"{plural(source.remaining, 'face')} more than the pool has dice; check what you entered")

    # -- Rajapolku -----------------------------------------------------------------

    def effect_dice(self, who: Sequence[str], off: Sequence[str] = ()) -> list[tuple[str, int]]:
        """``(label, dice)`` of the effects of the side's character that change pools, without those
        turned off: the pool builder's effect rows, each on by default."""
        cid = who[0] if who else ""
        if not cid or cid not in self.tracker.characters:
            return []
        return [m for m in self.tracker.combat.effect_modifiers(cid) if m[0] not in off]

    def raja_plan(self, side: RajaSide) -> raja.PoolPlan:
        """R1–R4, R7, R9. The character's effects are conditions (R4): one that gives dice helps this
        side, one that takes dice gives the opposition as many (circumstances never remove dice)."""
        level = side.wound_level
        if side.who and level == "Healthy":
            level = self.tracker.character(side.who[0])["wound"]
        helping, hindering = list(side.helping), list(side.hindering)
        for label, n in self.effect_dice(side.who, side.effects_off):
            (helping if n > 0 else hindering).extend([label] * abs(n))
        return raja.build_pool(side.backgrounds, side.abilities, helping, level, self.tracker.settings,
                               hindering_conditions=hindering)

    def raja_pools(self, a: RajaSide, b: RajaSide) -> tuple[tuple[DieSpec, ...], tuple[DieSpec, ...]]:
        return raja.final_pools(self.raja_plan(a), self.raja_plan(b))

    def roll_raja(self, a: RajaSide, b: RajaSide, *, challenge: str | None = None,
                  faces: tuple[Sequence[int] | None, Sequence[int] | None] | None = None) -> dict[str, Any]:
        """R1–R7: build both pools, roll, resolve; pay ability costs (R11).

        ``faces``: each side's faces entered by hand, in the order of its pool; a
        side given as None is thrown with the program's dice (see :meth:`_roll_two`).
        """
        out: dict[str, Any] = {}

        def build(txn: "Txn") -> None:
            plan_a, plan_b = self.raja_plan(a), self.raja_plan(b)
            specs_a, specs_b = raja.final_pools(plan_a, plan_b)
            dice_a, dice_b, origin = self._roll_two(specs_a, specs_b, faces)
            self._pay_abilities(txn, a, plan_a)
            self._pay_abilities(txn, b, plan_b)
            result = raja.resolve(dice_a, dice_b, self.tracker.settings)
            summary = raja_outcome(result, a.label, b.label)
            # The outcome's reasoning first, then where every die came from.
            explain = result.explain() + list(plan_a.explain) + [f"vs {b.label}:"] + list(plan_b.explain)
            if result.winner != "tie" or result.tie_action == "defender":
                self._resolve_challenge_in(txn, challenge, summary)
            ev = self._roll_event(txn, "rajapolku", [
                {"role": "a", "label": a.label, "who": a.who, "dice": [die_dict(d) for d in dice_a]},
                {"role": "b", "label": b.label, "who": b.who, "dice": [die_dict(d) for d in dice_b]},
            ], summary, raja.result_json(result), explain, origin, challenge,
                f"{a.label} vs {b.label}: {summary}")
            out["event"], out["result"] = ev, result

        self.tracker._run(build)
        return out

    def _pay_abilities(self, txn: "Txn", side: RajaSide, plan: raja.PoolPlan) -> None:
        """R11: pay for each ability die that is rolled; one the wound penalty removed costs nothing (R9)."""
        if not side.who or not side.abilities:
            return
        cid = side.who[0]
        ch = self.tracker.character(cid)
        rolled = [s.label for s in plan.dice if s.source == Src.ABILITY]
        for name in side.abilities:
            if name not in rolled:
                continue
            rolled.remove(name)
            ab = next((x for x in ch.get("abilities", []) if x["name"] == name), None)
            if ab is None:
                continue
            cost = raja.ability_cost(ab["per"], ab["cost"], paid_this_scene=name in ch["paid_this_scene"])
            if cost:
                left = ch["charges"] - cost
                if left < 0:
                    raise RulesError(f"{ch['name']} has {ch['charges']} charges; {name} costs {cost} (R11)")
                txn.set(["characters", cid, "charges"], left)
                if ab["per"] == "scene":
                    txn.set(["characters", cid, "paid_this_scene"], ch["paid_this_scene"] + [name])
                txn.emit("resource", f"{ch['name']} pays {plural(cost, 'charge')} for {name} "
                         f"({left}/{ch['charges_max']} left)", who=cid, resource="charges", amount=-cost)

    def spirit_fight(self, challenge: str) -> raja.SpiritFight | None:
        """The spirit combat kept on a challenge (R11), or None before its first exchange.

        The participants' charges are the fight's charges: what they have left is
        what they roll and what they can lose.
        """
        fight = self.tracker.challenge(challenge).get("spirit")
        if not fight:
            return None
        return raja.SpiritFight(self.tracker.character(fight["a"])["charges"], self.tracker.character(fight["b"])["charges"],
                                exchanges=fight.get("exchanges", 0), ended_by_gm=fight.get("ended", False),
                                a_penalty=self.tracker.wound_penalty(fight["a"]),
                                b_penalty=self.tracker.wound_penalty(fight["b"]))

    def _begin_spirit(self, a_cid: str, b_cid: str) -> raja.SpiritFight:
        """R11's entry for these two, with their R9 wound penalties now (``raja.spirit_wounds``)."""
        return raja.begin_spirit_fight(self.tracker.character(a_cid)["charges"], self.tracker.character(b_cid)["charges"],
                                       a_penalty=self.tracker.wound_penalty(a_cid),
                                       b_penalty=self.tracker.wound_penalty(b_cid))

    def spirit_fighters(self, challenge: str | None) -> tuple[str, str] | None:
        """The two characters of the spirit combat kept on ``challenge`` (R11), side A first, or None."""
        kept = self.tracker.challenge(challenge).get("spirit") if challenge else None
        if not kept or kept["a"] not in self.tracker.characters or kept["b"] not in self.tracker.characters:
            return None
        return kept["a"], kept["b"]

    def spirit_actions(self, challenge: str | None) -> list[RollAction]:
        """What the GM may do to the spirit combat of ``challenge`` now (R11): the next exchange and
        ending the fight, allowed or not with a reason — whichever screen or roll the GM is on."""
        from ..rules.actions import roll_actions as rules_actions

        fight = self.spirit_fight(challenge) if challenge else None
        if fight is None:
            why = "no spirit combat is under way on this challenge (R11)"
            return [RollAction("next_exchange", False, why), RollAction("end_fight", False, why)]
        return [RollAction.of(a, "a", "", "") for a in rules_actions("raja-spirit", fight=fight,
                                                                      settings=self.tracker.settings)]

    def spirit_dice(self, a_cid: str, b_cid: str, challenge: str | None = None) -> tuple[int, int]:
        """How many d10s each side rolls in the next exchange (R11): after the entry charge
        for a new fight, the charges left in a fight under way."""
        fight = self.spirit_fight(challenge) if challenge else None
        if fight is None or fight.over:
            fight = self._begin_spirit(a_cid, b_cid)
        return fight.dice_counts(self.tracker.settings)

    def roll_spirit(self, a_cid: str, b_cid: str, *, challenge: str | None = None,
                    faces: tuple[Sequence[int], Sequence[int]] | None = None) -> dict[str, Any]:
        """R11 spirit combat: one exchange.

        The first exchange of a fight is its entry: each participant pays 1 charge,
        once for the whole fight. Every exchange rolls the charges each side has
        left; the winner loses nothing, the loser loses charges (``raja.spirit_loss``),
        a full tie costs nothing. The fight is kept on the challenge (one is added
        when there is none) and resolves it when a side has no charges left.
        """
        out: dict[str, Any] = {}
        ca, cb = self.tracker.character(a_cid), self.tracker.character(b_cid)
        if a_cid == b_cid:
            raise self._refuse("spirit combat needs two different characters (R11)")
        kept = self.tracker.challenge(challenge).get("spirit") if challenge else None
        if kept and (kept["a"], kept["b"]) != (a_cid, b_cid):
            names = f"{self.tracker.character(kept['a'])['name']} and {self.tracker.character(kept['b'])['name']}"
            raise self._refuse(f"this challenge's spirit combat is between {names}, in that order (R11)")
        if kept and self.spirit_fight(challenge).over:  # type: ignore[arg-type, union-attr]
            raise self._refuse("this spirit combat is over (R11)")

        def build(txn: "Txn") -> None:
            chid = challenge
            if chid is None:
                chid = self.tracker._new_id(txn, "c")
                txn.insert(["challenges"], len(self.tracker.state["challenges"]),
                           {"id": chid, "title": f"Spirit combat: {ca['name']} vs {cb['name']}", "status": "active",
                            "kind": "spirit", "participants": [a_cid], "opposition": [b_cid], "outcome": ""})
            idx = self.tracker.challenge_index(chid)
            fight = self.spirit_fight(chid)
            lines: list[str] = []
            if fight is None:
                fight = self._begin_spirit(a_cid, b_cid)
                txn.set(["characters", a_cid, "charges"], fight.a_charges)
                txn.set(["characters", b_cid, "charges"], fight.b_charges)
                txn.emit("resource", f"Spirit combat begins: {ca['name']} and {cb['name']} each pay the "
                         "entry charge, once for the fight (R11)", who=[a_cid, b_cid], resource="charges", amount=-1)
                lines.append("entry: each participant paid 1 charge, once for the whole fight (R11)")
            settings = self.tracker.settings
            dice_a, dice_b, origin = self._roll_two(fight.dice("a", settings), fight.dice("b", settings), faces)
            if fight.dice_counts(settings) != (fight.a_charges, fight.b_charges):
                lines.append(f"wounds (R9, raja.spirit_wounds): {ca['name']} rolls {len(dice_a)}, "
                             f"{cb['name']} {len(dice_b)} of their charges' dice")
            result = raja.resolve(dice_a, dice_b, self.tracker.settings)
            ex = fight.exchange(result, self.tracker.settings)
            after = ex.fight
            txn.set(["characters", a_cid, "charges"], after.a_charges)
            txn.set(["characters", b_cid, "charges"], after.b_charges)
            txn.set(["challenges", idx, "spirit"], {"a": a_cid, "b": b_cid, "exchanges": after.exchanges,
                                                     "ended": False})
            summary = raja_outcome(result, ca["name"], cb["name"])
            if ex.loser is not None and ex.loss:
                loser = ca if ex.loser == "a" else cb
                left = after.charges(ex.loser)
                summary += f"; {loser['name']} loses {ex.loss} charge{'s' if ex.loss != 1 else ''} ({left} left)"
            if after.over:
                winner = {"a": ca["name"], "b": cb["name"]}.get(after.winner or "", "")
                summary += f" — the fight is over{', ' + winner + ' wins' if winner else ''}"
                self.tracker.resolve_challenge(chid, summary, txn)
            self._roll_event(txn, "spirit", [
                {"role": "a", "label": ca["name"], "who": [a_cid], "dice": [die_dict(d) for d in dice_a]},
                {"role": "b", "label": cb["name"], "who": [b_cid], "dice": [die_dict(d) for d in dice_b]},
            ], summary, {**raja.result_json(result), "charge_loss": ex.loss, "fight": after.to_json()},
                lines + result.explain() + after.explain(), origin, chid,
                f"Spirit combat {ca['name']} vs {cb['name']}, exchange {after.exchanges}: {summary}")
            out["result"], out["fight"], out["challenge"] = result, after, chid

        self.tracker._run(build)
        return out

    def end_spirit_fight(self, challenge: str) -> None:
        """The GM ends a spirit combat (a side withdraws) (R11); it resolves the challenge."""
        fight = self.spirit_fight(challenge)
        if fight is None:
            raise self._refuse("no spirit combat is under way on this challenge (R11)")
        if fight.over:
            raise self._refuse("this spirit combat is already over (R11)")
        kept = self.tracker.challenge(challenge)["spirit"]

        def build(txn: "Txn") -> None:
            idx = self.tracker.challenge_index(challenge)
            txn.set(["challenges", idx, "spirit"], {**kept, "ended": True})
            text = (f"the GM ends the spirit combat after {fight.exchanges} exchange"
                    f"{'s' if fight.exchanges != 1 else ''} (R11)")
            self.tracker.resolve_challenge(challenge, text, txn)
            txn.emit("challenge", f"{self.tracker.challenge(challenge)['title']}: {text}", challenge=challenge)

        self.tracker._run(build)

    # -- Harhapolku ------------------------------------------------------------------

    def harha_variant(self, variant: str | None = None) -> str:
        """The comparison a roll uses: ``variant`` if given, else ``harha.variant`` (H3–H6)."""
        return harha.check_variant(variant or self.tracker.settings.harha_variant)

    def harha_pool(self, side: HarhaSide, variant: str | None = None, *,
                   opposing: HarhaSide | None = None) -> harha.HarhaPool:
        """H2 pools of d8/d10; under the same-size (H5) and sum (H6) variants one die size,
        a d8 tier's claim one die and a d10 tier's claim two. The character's effects
        (:func:`polku.rules.harhapolku.with_effects`): one that gives dice adds them here, one of
        the ``opposing`` side's that takes dice gives them to this pool (None: unopposed)."""
        v = self.harha_variant(variant)
        if v in ("same_size", "sum"):
            descriptive = [n for n in (side.general, side.background, side.significant) if n]
            specials = [n for n in (side.special, side.significant_special) if n]
            specs = descriptive[1:] + [n for n in specials[1:] for _ in (0, 1)]
            pool = harha.build_pool_same_size(descriptive[0] if descriptive else None,
                                              specials[0] if specials else None, specs,
                                              "GM bonus" if side.gm_bonus else None, always=side.always)
        else:
            pool = harha.build_pool(general=side.general, background=side.background, significant=side.significant,
                                    special=side.special, significant_special=side.significant_special,
                                    gm_bonus="GM bonus" if side.gm_bonus else None, always=side.always)
        own = [(label, n) for label, n in self.effect_dice(side.who, side.effects_off) if n > 0]
        against = [] if opposing is None else [
            (label, -n) for label, n in self.effect_dice(opposing.who, opposing.effects_off) if n < 0]
        return harha.with_effects(pool, own, against) if own or against else pool

    def harha_dice(self, side: HarhaSide, variant: str | None = None, *,
                   opposing: HarhaSide | None = None) -> tuple[DieSpec, ...]:
        """The dice the side throws: its pool, or one die under the sum variant (H6)."""
        v = self.harha_variant(variant)
        return harha.variant_dice(self.harha_pool(side, v, opposing=opposing), v)

    def difficult_variant(self, variant: str | None = None) -> str:
        """The pool an unopposed difficult action (H8) rolls: the H2 pool ("ch23"), or one die under
        the sum variant ("sum", H6, ``harha.sum_difficult = one_die``)."""
        return "sum" if self.harha_variant(variant) == "sum" else "ch23"

    def harha_difficult_dice(self, side: HarhaSide, variant: str | None = None) -> tuple[DieSpec, ...]:
        """The dice an unopposed difficult action (H8) throws (see :meth:`difficult_variant`)."""
        return self.harha_dice(side, self.difficult_variant(variant))

    def harha_difficult_notice(self, demand: str, variant: str | None = None) -> str | None:
        """What H8 says before a roll under the sum variant (``harha.sum_difficult``): a very demanding
        action cannot succeed there (``one_die``). ``demand``: "", "difficult" or "very_demanding".

        Raises:
            RulesError: a difficult action under the sum variant with ``refuse`` (not offered).
        """
        n = {"": 0, "difficult": 1, "very_demanding": 2}.get(demand)
        if n is None:
            raise self._refuse(f"unknown demand '{demand}' (use difficult or very_demanding, H8)")
        return harha.difficult_notice(self.harha_variant(variant), n, self.tracker.settings)

    def roll_harha(self, a: HarhaSide, b: HarhaSide, *, variant: str | None = None,
                   challenge: str | None = None, demand: str = "",
                   faces: tuple[Sequence[int], Sequence[int]] | None = None) -> dict[str, Any]:
        """H2–H6: A is the actor, B the challenger (ch23, same size, sum) or first/second side (classic).

        ``demand``: "" (a plain challenge), "difficult" or "very_demanding": the
        actor must also show one (two) dice of 7+ in the same roll (H8 opposed).
        """
        variant = self.harha_variant(variant)
        self.harha_difficult_notice(demand, variant)
        out: dict[str, Any] = {}

        def build(txn: "Txn") -> None:
            pa, pb = self.harha_pool(a, variant, opposing=b), self.harha_pool(b, variant, opposing=a)
            dice_a, dice_b, origin = self._roll_two(harha.variant_dice(pa, variant), harha.variant_dice(pb, variant),
                                                    faces)
            ev, result = self._harha_record(txn, a, b, dice_a, dice_b, variant, challenge, origin,
                                            list(pa.explain) + [f"vs {b.label}:"] + list(pb.explain),
                                            counts=(len(pa.dice), len(pb.dice)), demand=demand)
            out["event"], out["result"] = ev, result

        self.tracker._run(build)
        return out

    def _harha_record(self, txn: "Txn", a: HarhaSide, b: HarhaSide, dice_a: Sequence[Die],
                      dice_b: Sequence[Die], variant: str, challenge: str | None, origin: dict[str, Any],
                      explain: list[str], *, counts: tuple[int, int] | None = None, demand: str = "",
                      **extra: Any) -> tuple[Event, Any]:
        kw: dict[str, Any] = {}
        if variant == "sum":
            assert counts is not None
            kw = {"a_count": counts[0], "b_count": counts[1]}
        used = self.settings_for(variant)
        result: Any = harha.resolve(dice_a, dice_b, variant, used, **kw)
        if demand:
            result = harha.difficult_opposed(result, demand == "very_demanding")
        summary = _harha_summary(result, a.label, b.label, variant)
        if result.winner != "tie":
            self._resolve_challenge_in(txn, challenge, summary)
        outcome = harha.result_json(result.comparison if demand else result)
        if demand:
            outcome.update({"winner": result.winner, "success": result.success, "high": result.high,
                            "needed": result.needed, "won_comparison": result.won_comparison})
        ev = self._roll_event(txn, f"harhapolku-{variant}", [
            {"role": "a", "label": a.label, "who": a.who, "dice": [die_dict(d) for d in dice_a]},
            {"role": "b", "label": b.label, "who": b.who, "dice": [die_dict(d) for d in dice_b]},
        ], summary, outcome, result.explain() + explain, origin, challenge,
            f"{a.label} vs {b.label}: {summary}", resolved_with=used, variant=variant, demand=demand or None,
            counts=list(counts) if counts else None, **extra)
        return ev, result

    @staticmethod
    def harha_reroll_dice(roll_event: Event, role: str) -> list[int]:
        """H7: the die sizes an edge reroll of ``role``'s side throws (its whole roll again), in order."""
        roll = roll_event.get("roll") or {}
        side = next((s for s in roll.get("sides", []) if isinstance(s, dict) and s.get("role") == role), {})
        return [int(d["size"]) for d in side.get("dice", []) if isinstance(d, dict) and isinstance(d.get("size"), int)]

    def harha_edge_reroll(self, roll_event: Event, role: str, cid: str, edge: str, *,
                          faces: Sequence[int] | None = None) -> dict[str, Any]:
        """H7: throw one side's whole roll again with an edge (once per edge per session).

        Works on every Harhapolku roll a character makes: an opposed comparison
        (any variant, with or without H8's demand) and an unopposed difficult or
        very demanding action (H8).
        """
        roll = roll_event.get("roll") or {}
        test = str(roll.get("test", ""))
        if not test.startswith("harhapolku-"):
            raise self._refuse("only a Harhapolku challenge roll can be rerolled with an edge")
        sides = {s["role"]: s for s in roll["sides"]}
        if role not in sides:
            raise self._refuse(f"no side '{role}' in that roll")
        if cid not in (sides[role].get("who") or []):
            raise self._refuse(f"{self.tracker.character(cid)['name']} did not roll side {role.upper()} (H7)")
        if self.tracker.is_undone(roll_event["seq"]):
            raise self._refuse("that roll was undone (H7)")
        out: dict[str, Any] = {}

        def build(txn: "Txn") -> None:
            self.tracker.use_edge_reroll(cid, edge, txn)
            src, origin = self._source(faces)
            old = [die_from(d) for d in sides[role]["dice"]]
            new = harha.edge_reroll(old, None, src)
            self._check_manual_used(src)
            ch = self.tracker.character(cid)
            chal = roll_event.get("challenge")
            why = [f"{ch['name']} rerolls the whole roll with edge '{edge}' (H7)"]
            if test == "harhapolku-difficult":
                s = sides["a"]
                out["event"] = self._difficult_record(
                    txn, HarhaSide(s["label"], list(s.get("who", []))), new,
                    roll.get("outcome", {}).get("very_demanding", False), chal, origin, why,
                    variant=str(roll.get("variant") or "ch23"), rerolls=roll_event["seq"])
                return
            a_s, b_s = sides["a"], sides["b"]
            da = new if role == "a" else [die_from(d) for d in a_s["dice"]]
            db = new if role == "b" else [die_from(d) for d in b_s["dice"]]
            a = HarhaSide(a_s["label"], list(a_s.get("who", [])))
            b = HarhaSide(b_s["label"], list(b_s.get("who", [])))
            counts = tuple(roll["counts"]) if roll.get("counts") else None
            ev, result = self._harha_record(txn, a, b, da, db, roll.get("variant", "ch23"), chal, origin, why,
                                            counts=counts, demand=roll.get("demand", ""),
                                            rerolls=roll_event["seq"])
            out["event"], out["result"] = ev, result

        # What follows a GM-only roll is the GM's too (the edge it uses included).
        with self.tracker.gm_only(bool(roll_event.get("secret"))):
            self.tracker._run(build)
        return out

    def roll_harha_difficult(self, side: HarhaSide, *, very_demanding: bool = False,
                             challenge: str | None = None, faces: Sequence[int] | None = None,
                             variant: str | None = None) -> dict[str, Any]:
        """H8: a difficult action succeeds with one die of 7+, a very demanding one with two.

        ``variant`` (None: ``harha.variant``): under the sum variant the action rolls one die
        (H6, ``harha.sum_difficult = one_die``) or is refused (``refuse``).
        """
        v = self.difficult_variant(variant)
        self.harha_difficult_notice("very_demanding" if very_demanding else "difficult", v)
        out: dict[str, Any] = {}

        def build(txn: "Txn") -> None:
            pool = self.harha_pool(side, v)
            src, origin = self._source(faces)
            dice = roll_specs(harha.variant_dice(pool, v), src)
            self._check_manual_used(src)
            out["event"] = self._difficult_record(txn, side, dice, very_demanding, challenge, origin,
                                                  list(pool.explain), variant=v)

        self.tracker._run(build)
        return out

    def _difficult_record(self, txn: "Txn", side: HarhaSide, dice: Sequence[Die], very_demanding: bool,
                          challenge: str | None, origin: dict[str, Any], explain: list[str],
                          variant: str = "ch23", **extra: Any) -> Event:
        result = harha.difficult(dice, very_demanding, variant)
        if variant == "sum":
            extra["variant"] = "sum"
        what = "very demanding" if very_demanding else "difficult"
        summary = f"{'success' if result.success else 'failure'} ({result.high} of {result.needed} needed 7+)"
        self._resolve_challenge_in(txn, challenge, summary)
        return self._roll_event(
            txn, "harhapolku-difficult",
            [{"role": "a", "label": side.label, "who": side.who, "dice": [die_dict(d) for d in dice]}],
            summary, {"success": result.success, "high": result.high, "needed": result.needed,
                      "very_demanding": very_demanding},
            result.explain() + explain, origin, challenge, f"{side.label}, {what} action: {summary}", **extra)

    # -- Harhapolku narration contest (H9) --------------------------------------------

    def narration(self) -> harha.NarrationContest:
        n = self.tracker.state["narration"]
        rolled = frozenset((w, bg) for w, bg in (x.split("\x1f", 1) for x in n.get("rolled", [])))
        hands = tuple(sorted((who, tuple(die_from(d) for d in dice)) for who, dice in n.get("hands", {}).items()))
        return harha.NarrationContest(
            conflict=n.get("kind", "brawl"), ability_fight=n.get("ability_fight", False),
            narrator=n.get("narrator") or None, table=tuple(die_from(d) for d in n.get("table", [])),
            hands=hands, rolled=rolled,
            last=_usurpation_from(n.get("last")),
        )

    def _store_narration(self, txn: "Txn", c: harha.NarrationContest) -> None:
        old = self.tracker.state["narration"]
        new = {
            "narrator": c.narrator or "",
            "table": [die_dict(d) for d in c.table],
            "burned": list(old.get("burned", [])),
            "kind": c.conflict,
            "ability_fight": c.ability_fight,
            "hands": {who: [die_dict(d) for d in dice] for who, dice in c.hands},
            "rolled": sorted(f"{w}\x1f{bg}" for w, bg in c.rolled),
        }
        if c.burned:
            b = c.burned[-1]
            new["burned"] = list(old.get("burned", [])) + [
                {"owner": b.owner, "by": b.by, "dice": [die_dict(d) for d in b.dice]}]
        if c.last is not None:
            new["last"] = {"who": c.last.who, "dice": [die_dict(d) for d in c.last.dice], "tier": c.last.tier,
                           "gm_dice": c.last.gm_dice, "gm_die_size": c.last.gm_die_size or 0,
                           "harm_resolved": c.last.harm_resolved, "burned_total": c.last.burned_total,
                           "burned_owner": c.last.burned.owner,
                           "burned_dice": [die_dict(d) for d in c.last.burned.dice]}
        txn.set(["narration"], new)
        # backgrounds rolled this scene show in the character pane
        for cid, ch in self.tracker.characters.items():
            if "rolled_this_scene" in ch:
                mine = sorted(bg for w, bg in c.rolled if w == ch["name"])
                if mine != sorted(ch["rolled_this_scene"]):
                    txn.set(["characters", cid, "rolled_this_scene"], mine)

    def narration_backgrounds(self, who: str) -> list[tuple[str, int]]:
        """``(background, die size)`` of the sheet of the character named ``who`` whose die may still be
        rolled in this scene (H2 sizes: d10 for a special tier; H9: each background once per scene,
        whatever the spelling it was rolled under)."""
        c = self.narration()
        ch = next((x for x in self.tracker.characters.values() if x["name"] == who), None)
        return [(bg["name"], 10 if "special" in bg["tier"] else 8) for bg in (ch or {}).get("backgrounds", [])
                if c.rolled_as(who, bg["name"]) is None]

    def narration_ids(self, names: Sequence[str | None]) -> list[str]:
        """The ids of the characters the narration contest knows by name (H9), in order, each once."""
        out: list[str] = []
        for name in names:
            low = (name or "").strip().lower()
            cid = next((cid for cid, ch in self.tracker.characters.items() if ch["name"].strip().lower() == low), None)
            if low and cid is not None and cid not in out:
                out.append(cid)
        return out

    def _narration_step(self, fn: Callable[[harha.NarrationContest, DiceSource], harha.Step],
                        faces: Sequence[int] | None, text_prefix: str = "",
                        roll_sides: Callable[[harha.Step, list[str]], list[dict[str, Any]]] | None = None,
                        names: Callable[[harha.NarrationContest], Sequence[str | None]] = lambda c: ()
                        ) -> harha.Step:
        out: dict[str, Any] = {}

        def build(txn: "Txn") -> None:
            src, origin = self._source(faces)
            before = self.narration()
            # The contest knows its participants by name; the log names them by id too.
            who = self.narration_ids(names(before))
            step = fn(before, src)
            self._check_manual_used(src)
            self._store_narration(txn, step.state)
            data: dict[str, Any] = {}
            if roll_sides is not None:
                sides = roll_sides(step, who)
                data["roll"] = {"test": "narration", "sides": sides, "summary": step.text,
                                "outcome": _narration_outcome(step), "explain": [step.text], **origin}
            txn.emit("narration", text_prefix + step.text, who=who or None, **data)
            out["step"] = step

        self.tracker._run(build)
        step: harha.Step = out["step"]
        return step

    def narration_roll_background(self, who: str, background: str, size: int = 8,
                                  faces: Sequence[int] | None = None) -> harha.Step:
        return self._narration_step(lambda c, s: c.roll_background(who, background, s, size), faces,
                                    roll_sides=lambda st, ids: [{"role": "a", "label": who, "who": ids,
                                                                 "dice": [die_dict(cast(Die, st.detail))]}],
                                    names=lambda c: [who])

    def narration_edge_reroll(self, who: str, cid: str, edge: str,
                              faces: Sequence[int] | None = None) -> harha.Step:
        """H7 in the narration contest (H9): an edge throws ``who``'s rolled background dice still in
        hand again (the whole hand), once per edge per session like every edge reroll; the dice on
        the table or burned stay. One command: the edge's use and the new dice, undone together.
        """
        out: dict[str, Any] = {}

        def build(txn: "Txn") -> None:
            self.tracker.use_edge_reroll(cid, edge, txn)
            src, origin = self._source(faces)
            before = self.narration()
            step = before.reroll_hand(who, src)
            self._check_manual_used(src)
            self._store_narration(txn, step.state)
            new = step.state.hand(who)
            txn.emit("narration", f"{step.text[:-len(' (H7)')]} with edge '{edge}' (H7)", who=[cid],
                     roll={"test": "narration", "sides": [{"role": "a", "label": who, "who": [cid],
                                                            "dice": [die_dict(d) for d in new]}],
                           "summary": step.text, "outcome": {}, "explain": [step.text], **origin})
            out["step"] = step

        self.tracker._run(build)
        step: harha.Step = out["step"]
        return step

    def narration_open(self, narrator: str, dice: Sequence[Die]) -> harha.Step:
        return self._narration_step(lambda c, s: c.open(narrator, dice), None, names=lambda c: [narrator])

    def narration_usurp(self, who: str, dice: Sequence[Die]) -> harha.Step:
        # the usurper, and the narrator whose dice burn
        return self._narration_step(lambda c, s: c.usurp(who, dice), None, names=lambda c: [who, c.narrator])

    def narration_harm(self, faces: Sequence[int] | None = None) -> harha.Step:
        def fn(c: harha.NarrationContest, s: DiceSource) -> harha.Step:
            dice = () if c.ability_fight else roll_specs(c.harm_dice(), s)
            return c.harm_roll(dice)

        # the harm falls on the last usurper
        return self._narration_step(fn, faces, roll_sides=lambda st, ids: [
            {"role": "gm", "label": "GM", "who": [], "dice": [die_dict(d) for d in cast(harha.HarmRoll, st.detail).gm_dice]}],
            names=lambda c: [c.last.who if c.last is not None else None])

    def narration_conflict(self, kind: str, ability_fight: bool) -> harha.Step:
        return self._narration_step(lambda c, s: c.with_conflict(kind, ability_fight), None)

    # -- Varjojuoksu ------------------------------------------------------------------

    def sr_side(self, cid: str | None, spec: SRPool, label: str | None = None) -> SRSide:
        """Build a Varjojuoksu side from a character and what the GM chose (S1–S3, S12 wounds).

        No character (``cid`` None or "") or ``spec.mode == "dice"`` is a bare dice count.
        """
        if not cid:
            return SRSide(label or "GM", [], dice=spec.dice, modifiers=list(spec.modifiers))
        ch = self.tracker.character(cid)
        wounds = -self.tracker.wound_penalty(cid)
        name = label or ch["name"]
        # The character's effects with a dice modifier are rows of the pool, each on unless turned off.
        spec = replace(spec, modifiers=list(spec.modifiers) + self.effect_dice([cid], spec.effects_off))
        if spec.mode == "dice":
            return SRSide(name, [cid], dice=spec.dice, modifiers=list(spec.modifiers), wound_modifier=wounds,
                          edge_before=spec.edge_before, long_shot=spec.long_shot)
        attrs = ch["attributes"]
        skill: int | None = None
        if spec.mode == "skill":
            skill = ch.get("skills", {}).get(spec.skill, 0)
        second = attrs[spec.second] if spec.mode == "attr+attr" else None
        return SRSide(name, [cid], skill_name=spec.skill or "skill", skill=skill,
                      attribute_name=spec.attribute.capitalize(), attribute=attrs[spec.attribute],
                      second_attribute_name=spec.second.capitalize(), second_attribute=second,
                      modifiers=list(spec.modifiers), wound_modifier=wounds,
                      edge_before=spec.edge_before, long_shot=spec.long_shot)

    def sr_helper_side(self, cid: str, leader: SRPool, override: int | None = None) -> SRSide:
        """S11: a helper rolls their own pool for the leader's test, or the GM's ``override``.

        The same skill + attribute (their own ratings; defaulting, S2, when they lack the
        skill) or the same attribute + attribute, with their own wound modifier.
        """
        ch = self.tracker.character(cid)
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
        linked = (ch or {}).get("links", {}).get(skill)
        return str(linked) if linked else sr.linked_attribute(skill, current)

    def sr_plan(self, side: SRSide) -> sr.PoolPlan:
        if side.long_shot:
            ch = self.tracker.character(side.who[0]) if side.who else None
            return sr.long_shot(ch["edge_rating"] if ch else 0)
        if side.helper:
            return sr.helper_pool(side.skill, side.attribute, side.second_attribute,
                                  defaulting_allowed=side.defaulting_allowed, wound_modifier=side.wound_modifier,
                                  modifiers=side.modifiers, override=side.dice if side.override else None,
                                  skill_name=side.skill_name or "skill", attribute_name=side.attribute_name,
                                  second_attribute_name=side.second_attribute_name or "attribute")
        if side.dice is not None:
            return sr.dice_pool(side.dice, side.modifiers, side.wound_modifier, label=side.label)
        return sr.build_pool(side.skill, side.attribute, side.second_attribute, side.modifiers,
                             side.defaulting_allowed, side.wound_modifier, skill_name=side.skill_name or "skill",
                             attribute_name=side.attribute_name, second_attribute_name=side.second_attribute_name or "attribute")

    def sr_pool_dice(self, side: SRSide) -> int:
        """Dice the side throws before any rule of six: the pool plus Edge-before dice (S3, S7)."""
        plan = self.sr_plan(side)
        if side.long_shot or not side.edge_before or not side.who:
            return plan.size
        return plan.size + int(self.tracker.character(side.who[0])["edge_rating"])

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
            self._check_manual_used(src)
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
        rec = self.tracker._recent.get(roll_event["seq"])
        if isinstance(rec, _SRRecord):
            who = rec.sides[role][0].who if role in rec.sides else []
        else:
            # Read from the log (a player's seat sees the roll in the file, not in memory).
            roll = roll_event.get("roll") or {}
            side_ev = next((s for s in roll.get("sides", []) if isinstance(s, dict) and s.get("role") == role), {})
            who = [w for w in side_ev.get("who", []) if isinstance(w, str)]
        if not who or who[0] not in self.tracker.characters:
            return 0
        return int(self.tracker.character(who[0]).get("edge_rating", 0))

    def sr_initiative_dice(self, cid: str) -> int:
        """S12: the dice a character throws for initiative (Reaction + Intuition)."""
        a = self.tracker.character(cid)["attributes"]
        return sr.initiative_pool(a["reaction"], a["intuition"])

    def sr_rule_of_six(self, side: SRSide) -> bool:
        """S3, S7: the whole pool follows the rule of six (Edge before the roll, or a Long Shot)."""
        return bool(side.edge_before or side.long_shot)

    def sr_pool_actions(self, side: SRSide, kind: str = "sr-success") -> list[RollAction]:
        """What may be chosen before this side rolls: Edge before, Long Shot, buying hits (S3, S4, S7)."""
        from ..rules.actions import roll_actions

        ch = self.tracker.character(side.who[0]) if side.who else None
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
        ch = self.tracker.character(side.who[0]) if side.who else None
        if side.long_shot:
            if ch is None:
                raise RulesError("a Long Shot needs a character with Edge (S3)")
            self._spend_edge_in(txn, side.who[0], "Long Shot (S3)")
            return plan, sr.roll_long_shot(ch["edge_rating"], src, settings=self.tracker.settings)
        edge = None
        if side.edge_before:
            if ch is None:
                raise RulesError("Edge needs a character (S7)")
            self._spend_edge_in(txn, side.who[0], "Edge before the roll: rule of six (S7)")
            edge = ch["edge_rating"]
        r = sr.roll(plan.size, src, edge, settings=self.tracker.settings,
                    hurried=hurried, helper_dice=helper_dice)
        return plan, r

    def _spend_edge_in(self, txn: "Txn", cid: str, reason: str) -> None:
        ch = self.tracker.character(cid)
        if ch["edge"] < 1:
            raise RulesError(f"{ch['name']} has no Edge left this session")
        left = ch["edge"] - 1
        txn.set(["characters", cid, "edge"], left)
        txn.emit("resource", f"{ch['name']} spends Edge: {reason} ({left}/{ch['edge_rating']} left)",
                 who=cid, resource="edge", amount=-1)

    def roll_sr(self, side: SRSide, *, threshold: int | None = None, hidden: bool = False,
                challenge: str | None = None, faces: Sequence[int] | None = None,
                buy_hits: bool = False) -> dict[str, Any]:
        """S1–S8: a success test (or a plain roll counting hits)."""
        out: dict[str, Any] = {}

        def build(txn: "Txn") -> None:
            src, origin = self._source(faces)
            if buy_hits:
                plan = self.sr_plan(side)
                r = sr.buy_hits(plan.size)
            else:
                plan, r = self._sr_roll_side(txn, side, src)
            self._check_manual_used(src)
            rec = _SRRecord("sr-success", {"a": (side, plan, r)}, challenge=challenge,
                            threshold=threshold, hidden=hidden)
            ev = self._sr_emit(txn, rec, origin)
            out["event"], out["roll"] = ev, r

        self.tracker._run(build)
        return out

    def _sr_emit(self, txn: "Txn", rec: "_SRRecord", origin: dict[str, Any],
                 extra_explain: Sequence[str] = (), **extra: Any) -> Event:
        """Judge and log a Varjojuoksu test from its rolls; used by the roll and by Edge after it."""
        kind, chal = rec.kind, rec.challenge
        if kind == "sr-success":
            side, plan, r = rec.sides["a"]
            res: Any = r
            if rec.threshold is not None:
                res = sr.success_test(r, rec.threshold, rec.hidden)
            outcome = sr.result_json(res)
            summary = _sr_summary(r, res if rec.threshold is not None else None)
            outcome.pop("dice", None)
            explain = list(extra_explain) + r.explain()
            if rec.threshold is not None:
                explain.append(f"threshold {rec.threshold}{' (hidden from players)' if rec.hidden else ''}: "
                               f"{'success' if res.success else 'failure'}, net hits {res.net_hits}")
                self._resolve_challenge_in(txn, chal, summary)
            explain += list(plan.explain())
            ev = self._roll_event(txn, "shadowrun", [
                {"role": "a", "label": side.label, "who": side.who, "dice": [die_dict(d) for d in r.dice]}],
                summary, outcome, explain, origin, chal, f"{side.label}: {summary}",
                threshold=rec.threshold, hidden=rec.hidden or None, **extra)
        elif kind in ("sr-opposed", "sr-group"):
            (a, plan_a, ra), (b, plan_b, rb) = rec.sides["a"], rec.sides["b"]
            res = sr.opposed(ra, rb)
            summary = _sr_opposed_summary(res, a.label, b.label)
            self._resolve_challenge_in(txn, chal, summary)
            ev = self._roll_event(txn, "shadowrun-opposed", [
                {"role": "a", "label": a.label, "who": a.who, "dice": [die_dict(d) for d in ra.dice]},
                {"role": "b", "label": b.label, "who": b.who, "dice": [die_dict(d) for d in rb.dice]},
            ], summary, sr.result_json(res), list(extra_explain) + res.explain() + list(plan_a.explain())
                + list(rec.lines) + list(plan_b.explain()), origin, chal, f"{a.label} vs {b.label}: {summary}",
                group=list(rec.group) or None, **extra)
        elif kind == "sr-extended":
            side, plan, r = rec.sides["a"]
            assert chal is not None and rec.ext_before is not None
            ext = rec.ext_before
            test = sr.ExtendedTest(ext["threshold"], ext.get("interval", "interval"), ext["hurried"],
                                   ext["accumulated"], ext["intervals"], ext["ended"], ext["spoiled"])
            test = test.add(r)
            idx = self.tracker.challenge_index(chal)
            txn.set(["challenges", idx, "extended"], {**ext, "accumulated": test.accumulated,
                                                      "intervals": test.intervals, "ended": test.ended,
                                                      "glitched": test.glitched})
            judged = test.history[-1]
            summary = (f"interval {test.intervals}: {judged.hits} hit{'s' if judged.hits != 1 else ''}, "
                       f"{test.accumulated}/{test.threshold}"
                       + (f" — {sr.glitch_words(judged.hits, True)}, the test ends" if judged.critical_glitch else
                          f" — {sr.glitch_words(judged.hits)}, GM: spoil?" if judged.glitch else "")
                       + (" — done" if test.done else ""))
            if test.done or test.ended:
                self.tracker.resolve_challenge(chal, summary, txn)
            elif rec.status_before is not None and self.tracker.challenge(chal)["status"] == "resolved":
                # Edge turned an ending critical glitch into a glitch: the test goes on.
                txn.set(["challenges", idx, "status"], rec.status_before)
                txn.set(["challenges", idx, "outcome"], "")
            outcome = sr.result_json(judged)
            outcome.pop("dice", None)
            outcome.update({"accumulated": test.accumulated, "threshold": test.threshold,
                            "intervals": test.intervals, "done": test.done, "ended": test.ended})
            ev = self._roll_event(txn, "shadowrun-extended", [
                {"role": "a", "label": side.label, "who": side.who, "dice": [die_dict(d) for d in r.dice]}],
                summary, outcome, list(extra_explain) + list(rec.lines) + test.explain() + judged.explain()
                + list(plan.explain()), origin, chal, f"{side.label}, extended test: {summary}", **extra)
        else:  # sr-teamwork
            helpers = [rec.sides[k] for k in sorted(rec.sides) if k.startswith("helper:")]
            leader, plan, r = rec.sides["a"]
            sides = [{"role": "helper", "label": h.label, "who": h.who, "dice": [die_dict(d) for d in hr.dice]}
                     for h, _, hr in helpers]
            sides.append({"role": "a", "label": leader.label, "who": leader.who,
                          "dice": [die_dict(d) for d in r.dice]})
            res = sr.success_test(r, rec.threshold) if rec.threshold is not None else r
            summary = _sr_summary(r, res if rec.threshold is not None else None)
            summary = f"teamwork (+{r.helper_dice} dice from helpers): {summary}"
            if rec.threshold is not None:
                self._resolve_challenge_in(txn, chal, summary)
            outcome = sr.result_json(res)
            outcome.pop("dice", None)
            lines = [f"helper {h.label}: {hr.hits} hit{'s' if hr.hits != 1 else ''} "
                     f"({hp.size} dice: {' '.join(hp.explain())})" for h, hp, hr in helpers]
            ev = self._roll_event(txn, "shadowrun-teamwork", sides, summary, outcome,
                                  list(extra_explain) + lines + list(rec.lines) + r.explain() + list(plan.explain()),
                                  origin, chal, f"{leader.label} leads: {summary}", threshold=rec.threshold, **extra)
        # Not a field of the event: Tracker._append takes it off and keeps it by seq (never saved).
        cast("dict[str, Any]", ev)["_recent"] = rec
        return ev

    # -- what can be done to a roll now -------------------------------------------------

    def _latest_roll_seq(self) -> int | None:
        for i in range(len(self.tracker.events) - 1, -1, -1):
            ev = self.tracker.events[i]
            if ev.get("kind") == "roll" and not self.tracker.is_undone(ev["seq"]):
                return int(ev["seq"])
        return None

    def roll_actions(self, roll_event: Event | None) -> list[RollAction]:
        """Everything that can be done to this roll now, for each side, allowed or not with a reason.

        Varjojuoksu: Edge after the roll, negating a glitch, reducing a critical glitch
        (S5–S7) for each side that rolled, plus the next interval and spoiling for an
        extended test (S10). Harhapolku: an edge reroll per unused edge of each side
        (H7). Rajapolku: rerolling a full tie (R5), the next exchange or the end of a
        spirit combat (R11). The answers come from :func:`polku.rules.actions.roll_actions`.
        """
        from ..rules.actions import roll_actions as rules_actions

        if not roll_event or roll_event.get("kind") != "roll":
            return []
        roll = roll_event.get("roll") or {}
        test = str(roll.get("test", ""))
        seq = roll_event["seq"]
        latest = seq == self._latest_roll_seq()
        out: list[RollAction] = []
        if test.startswith("shadowrun") and test != "shadowrun-initiative":
            rec = self.tracker._recent.get(seq)
            if not isinstance(rec, _SRRecord):
                return [RollAction("edge_after", False, "Edge after the roll works on a Varjojuoksu roll of "
                                   "this sitting only", 1)]
            ext = None
            if rec.kind == "sr-extended" and rec.challenge:
                e = self.tracker.challenge(rec.challenge).get("extended") or {}
                ext = sr.ExtendedTest(e["threshold"], e.get("interval", "interval"), e["hurried"],
                                      e["accumulated"], e["intervals"], e["ended"], e["spoiled"],
                                      history=(rec.sides["a"][2],) if e.get("glitched") else ())
            for role, (side, _plan, r) in rec.sides.items():
                ch = self.tracker.character(side.who[0]) if side.who and side.who[0] in self.tracker.characters else None
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
        if test.startswith("harhapolku") and test != "harhapolku-narration":
            kind = "harha-difficult" if test == "harhapolku-difficult" else "harha"
            for s in roll.get("sides", []):
                cid = (s.get("who") or [""])[0]
                ch = self.tracker.characters.get(cid) if cid else None
                unused = [e["name"] for e in ch.get("edges", []) if not e["used"]] if ch else []
                acts = rules_actions(kind, has_character=ch is not None, edges_unused=len(unused), latest=latest,
                                     settings=self.tracker.settings)
                for a in acts:
                    if a.allowed:
                        out.extend(RollAction(a.name, True, f"{a.reason}: edge '{name}'", a.cost, s["role"], cid,
                                              s.get("label", ""), name) for name in unused)
                    else:
                        out.append(RollAction.of(a, s["role"], cid, s.get("label", "")))
            return out
        if test == "rajapolku":
            res = _raja_result_from(roll.get("outcome", {}))
            return [RollAction.of(a, "a", "", "") for a in rules_actions("raja", raja=res, settings=self.tracker.settings)]
        if test == "spirit" and roll_event.get("challenge") and self.spirit_fight(roll_event["challenge"]):
            return self.spirit_actions(roll_event["challenge"])
        return out

    def do_roll_action(self, roll_event: Event, name: str, *, role: str = "a",
                       edge: str = "", faces: Sequence[int] | None = None) -> dict[str, Any]:
        """Carry out one of :meth:`roll_actions` (refused in one line when not allowed now)."""
        acts = [a for a in self.roll_actions(roll_event) if a.name == name and a.role == role
                and (not edge or a.edge == edge)]
        if not acts:
            raise self._refuse(f"'{name}' cannot be done to this roll")
        act = next((a for a in acts if a.allowed), acts[0])
        if not act.allowed:
            raise self._refuse(act.reason)
        if name in ("edge_after", "negate_glitch", "reduce_critical"):
            return self.sr_post_roll(roll_event, name, role=role, faces=faces)
        if name == "edge_reroll":
            return self.harha_edge_reroll(roll_event, role, act.who, act.edge, faces=faces)
        if name == "spoil":
            self.sr_extended_spoil(roll_event["challenge"])
            return {}
        if name == "end_fight":
            self.end_spirit_fight(roll_event["challenge"])
            return {}
        raise self._refuse(f"'{name}' is done by rolling again (r)")

    def sr_post_roll(self, roll_event: Event, what: str, *, role: str = "a",
                     faces: Sequence[int] | None = None) -> dict[str, Any]:
        """S5–S7 after the roll on any test and either side: ``edge_after``, ``negate_glitch``
        or ``reduce_critical`` (1 Edge each, by the character who rolled)."""
        key = roll_event["seq"]
        rec = self.tracker._recent.get(key)
        if not isinstance(rec, _SRRecord):
            raise self._refuse("Edge after the roll works on a Varjojuoksu roll of this sitting only")
        if role not in rec.sides:
            raise self._refuse(f"no side '{role}' in that roll")
        side, plan, r = rec.sides[role]
        if not side.who:
            raise self._refuse("Edge needs a character (a player character or a GM's NPC with Edge) (S7)")
        cid = side.who[0]
        ch = self.tracker.character(cid)
        if ch["edge"] < 1 and what in ("edge_after", "negate_glitch", "reduce_critical"):
            raise self._refuse(f"{ch['name']} has no Edge left this session")
        act = next((a for a in self.roll_actions(roll_event) if a.name == what and a.role == role), None)
        if act is None:
            raise self._refuse(f"unknown post-roll action '{what}'")
        if not act.allowed:
            raise self._refuse(act.reason)
        out: dict[str, Any] = {}

        def build(txn: "Txn") -> None:
            src, origin = self._source(faces)
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
            self._check_manual_used(src)
            self._spend_edge_in(txn, cid, reason)
            if what != "edge_after":
                origin = {k: v for k, v in roll_event["roll"].items() if k in ("manual", "seed")}
            new_rec = rec.with_roll(role, new)
            ev = self._sr_emit(txn, new_rec, origin, [f"{ch['name']}: {reason}"], supersedes=key)
            out["event"], out["roll"] = ev, new

        # What follows a GM-only roll is the GM's too (the Edge it spends included).
        with self.tracker.gm_only(bool(roll_event.get("secret"))):
            self.tracker._run(build)
        return out

    def roll_sr_opposed(self, a: SRSide, b: SRSide, *, group: Sequence[int] = (),
                        challenge: str | None = None,
                        faces: tuple[Sequence[int], Sequence[int]] | None = None) -> dict[str, Any]:
        """S9: both roll; more hits wins by the difference; a tie goes to the defender (B) if needed.

        ``group``: pool sizes of B's companions (largest + 1 per extra member, at most +5).
        Either side may spend Edge before (S7) and after (:meth:`sr_post_roll`) the roll.
        """
        out: dict[str, Any] = {}

        def build(txn: "Txn") -> None:
            if faces is not None:
                sa, origin = self._source(faces[0])
                sb, _ = self._source(faces[1])
            else:
                sa, origin = self._source(None)
                sb = sa
            plan_a, ra = self._sr_roll_side(txn, a, sa)
            b_side = b
            extra_lines: list[str] = []
            if group:
                plan_b0 = self.sr_plan(b)
                size = sr.group_pool([plan_b0.size, *group])
                b_side = SRSide(b.label, b.who, dice=size, edge_before=b.edge_before)
                extra_lines.append(f"group of {len(group) + 1}: largest pool + {min(5, len(group))} = {size} (S9)")
            plan_b, rb = self._sr_roll_side(txn, b_side, sb)
            self._check_manual_used(sa)
            if sb is not sa:
                self._check_manual_used(sb)
            rec = _SRRecord("sr-group" if group else "sr-opposed", {"a": (a, plan_a, ra), "b": (b_side, plan_b, rb)},
                            challenge=challenge, lines=tuple(extra_lines), group=tuple(group))
            out["event"] = self._sr_emit(txn, rec, origin)
            out["result"] = sr.opposed(ra, rb)

        self.tracker._run(build)
        return out

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
                         faces: Sequence[int] | None = None) -> dict[str, Any]:
        """S11: each helper rolls their own pool first; their hits are extra dice for the
        leader (capped per ``sr.teamwork_cap``), whose roll is the official result.

        The leader is the one with the largest pool (:meth:`sr_teamwork_lead`; a tie keeps
        the GM's choice); another leader is refused in one line naming who leads.
        """
        lead = self.sr_teamwork_lead(leader, helpers)
        if not lead.allowed:
            raise self._refuse(lead.line)
        out: dict[str, Any] = {}

        def build(txn: "Txn") -> None:
            src, origin = self._source(faces)
            sides: dict[str, tuple[SRSide, Any, Any]] = {}
            helper_rolls = []
            for i, h in enumerate(helpers):
                plan, r = self._sr_roll_side(txn, h, src)
                helper_rolls.append(r)
                sides[f"helper:{i}"] = (h, plan, r)
            extra = sr.teamwork_bonus(helper_rolls, leader.skill, self.tracker.settings)
            total = sum(r.hits for r in helper_rolls)
            lines = []
            if extra < total:
                lines.append(f"helpers' hits {total}, at most the leader's skill {leader.skill or 0}: "
                             f"+{extra} dice (S11, sr.teamwork_cap = skill)")
            plan, r = self._sr_roll_side(txn, leader, src, helper_dice=extra)
            self._check_manual_used(src)
            sides["a"] = (leader, plan, r)
            rec = _SRRecord("sr-teamwork", sides, challenge=challenge, threshold=threshold, lines=tuple(lines))
            out["event"] = self._sr_emit(txn, rec, origin)

        self.tracker._run(build)
        return out

    def sr_extended_roller(self, challenge: str | None) -> ExtendedRoller | None:
        """Who rolls the extended test of ``challenge`` (S10), or None before its first interval
        (or when its roller has left the campaign).

        Kept on the challenge (``roller``, never shown to the players); a test begun
        with an older version is read from its last interval in the log.
        """
        if not challenge:
            return None
        c = self.tracker.challenge(challenge)
        if not c.get("extended"):
            return None
        kept = c.get("roller")
        who: str | None = None
        pool = None
        if isinstance(kept, dict) and isinstance(kept.get("who"), str):
            who, pool = kept["who"], pool_from(kept.get("pool"))
        else:
            for ev in reversed(self.tracker.events):
                roll = ev.get("roll") or {}
                if (ev.get("kind") == "roll" and ev.get("challenge") == challenge
                        and roll.get("test") == "shadowrun-extended" and not self.tracker.is_undone(ev["seq"])):
                    sides = roll.get("sides") or [{}]
                    who = next(iter(sides[0].get("who") or []), "")
                    break
        if who is None or (who and who not in self.tracker.characters):
            return None
        return ExtendedRoller(who, self.tracker.character(who)["name"] if who else "The GM", pool)

    def roll_sr_extended(self, side: SRSide, challenge: str, *, threshold: int | None = None,
                         hurried: bool | None = None, interval: str = "interval",
                         faces: Sequence[int] | None = None, pool: SRPool | None = None) -> dict[str, Any]:
        """S10: one interval of an extended test; progress is kept on the challenge.

        ``threshold``, ``hurried`` and the side's pool are what is in force for this
        interval: the GM may change them between intervals (None keeps the current
        ones), and the progress is judged against the threshold in force now. The
        roller stays: the character who rolled the first interval rolls every one
        (refused in one line otherwise). ``pool``, the GM's choice the side was
        built from, is kept so the next interval starts from it.
        """
        c = self.tracker.challenge(challenge)
        ext = c.get("extended")
        who = side.who[0] if side.who else ""
        roller = self.sr_extended_roller(challenge)
        if roller is not None and roller.who != who:
            raise self._refuse(roller.reason)
        changed: list[str] = []
        if ext is None:
            if threshold is None:
                raise self._refuse("an extended test needs a threshold (4 to 16+) (S10)")
            ext = {"threshold": threshold, "accumulated": 0, "intervals": 0, "hurried": bool(hurried),
                   "ended": False, "spoiled": False, "interval": interval, "restarts": 0}
        else:
            ext = dict(ext)
            if threshold is not None and threshold != ext["threshold"]:
                changed.append(f"threshold changed {ext['threshold']} → {threshold} (S10)")
                ext["threshold"] = threshold
            if hurried is not None and hurried != ext["hurried"]:
                changed.append("now hurried: 2s count as 1s for glitches (S10)" if hurried
                               else "no longer hurried (S10)")
                ext["hurried"] = hurried
        if ext["ended"]:
            raise self._refuse("this extended test is over; restart it or add a new challenge (S10)")
        if ext["accumulated"] >= ext["threshold"]:
            raise self._refuse(f"{ext['accumulated']} hits already reach the threshold {ext['threshold']}: "
                               "the extended test is done (S10)")
        out: dict[str, Any] = {}

        def build(txn: "Txn") -> None:
            src, origin = self._source(faces)
            plan, r = self._sr_roll_side(txn, side, src, hurried=ext["hurried"])
            self._check_manual_used(src)
            kept: dict[str, Any] = {"who": who}
            if pool is not None:
                kept["pool"] = pool_json(pool)
            if c.get("roller") != kept:
                txn.set(["challenges", self.tracker.challenge_index(challenge), "roller"], kept)
            rec = _SRRecord("sr-extended", {"a": (side, plan, r)}, challenge=challenge, lines=tuple(changed),
                            ext_before=ext, status_before=c["status"])
            out["event"] = self._sr_emit(txn, rec, origin)

        self.tracker._run(build)
        return out

    def sr_extended_spoil(self, challenge: str) -> None:
        c = self.tracker.challenge(challenge)
        ext = c.get("extended")
        if not ext or not ext.get("glitched"):
            raise self._refuse("only a glitch can spoil an extended test (S10)")
        if ext.get("ended"):
            raise self._refuse("the extended test is already over (S10)")

        def build(txn: "Txn") -> None:
            idx = self.tracker.challenge_index(challenge)
            txn.set(["challenges", idx, "extended"], {**ext, "spoiled": True, "ended": True})
            self.tracker.resolve_challenge(challenge, "spoiled by a glitch", txn)
            txn.emit("challenge", f"{c['title']}: the GM rules the glitch spoils the extended test (S10)",
                     challenge=challenge)

        self.tracker._run(build)

    def roll_initiative(self, entries: Sequence[tuple[str, int]], *,
                        faces: Sequence[int] | None = None) -> dict[str, Any]:
        """S12: roll initiative and begin a combat turn (see :meth:`polku.session.table.combat.Combat.roll_initiative`)."""
        result: dict[str, Any] = self.tracker.combat.roll_initiative(entries, faces=faces)
        return result


_ROLL_SETTINGS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("rajapolku", ("raja.exhausted", "raja.full_tie", "raja.degrees", "raja.wound_penalty")),
    ("spirit", ("raja.exhausted", "raja.full_tie", "raja.degrees", "raja.spirit_loss", "raja.spirit_wounds",
                "raja.wound_penalty")),
    ("harhapolku-difficult", ()),
    ("harhapolku", ("harha.variant",)),
    ("shadowrun-teamwork", ("sr.glitch_rerolls", "sr.teamwork_cap")),
    ("damage-resistance", ("sr.glitch_rerolls", "sr.stun_conversion", "sr.stun_overflow")),
    ("shadowrun", ("sr.glitch_rerolls",)),
)
"""Which settings each kind of roll depends on (by test name prefix, first match)."""


def _narration_outcome(step: Any) -> dict[str, Any]:
    """The numbers of a harm roll (H9), so harm can be proposed from the log entry."""
    h = step.detail
    if not isinstance(h, harha.HarmRoll):
        return {}
    return {"harm": {"harmed": h.harmed, "automatic": h.automatic, "usurper_total": h.usurper_total,
                     **({"gm_total": h.gm_total} if h.gm_total is not None else {})}}


def settings_text(used: dict[str, Any]) -> str:
    """``raja.exhausted = yes, raja.full_tie = reroll``: a roll's settings as one line."""
    return ", ".join(f"{k} = {'yes' if v is True else 'no' if v is False else v}" for k, v in used.items())


def _usurpation_from(d: dict[str, Any] | None) -> Any:
    if not d:
        return None
    burn = harha.Burn(d.get("burned_owner", ""), tuple(die_from(x) for x in d.get("burned_dice", [])), d["who"])
    return harha.Usurpation(who=d["who"], dice=tuple(die_from(x) for x in d["dice"]),
                            total=sum(x["face"] for x in d["dice"]), burned=burn,
                            burned_total=d.get("burned_total", 0), tier=d["tier"], gm_dice=d.get("gm_dice", 0),
                            gm_die_size=d.get("gm_die_size") or None, harm_resolved=d.get("harm_resolved", False))


def _raja_result_from(outcome: dict[str, Any]) -> Any:
    """Enough of a logged Rajapolku result to ask what may follow it (R5: a tie is rerolled)."""
    winner = outcome.get("winner", "a")
    return raja.RajaResult(a=(), b=(), winner=winner, degrees=outcome.get("degrees", 0), supernatural=0,
                           deciding_position=None, decided_by="tie" if winner == "tie" else "face",
                           deciding_die_is_ability=False, degree_dice=(), tie_action=outcome.get("tie_action"),
                           holds=outcome.get("holds"))


def _harha_summary(r: Any, a: str, b: str, variant: str) -> str:
    if hasattr(r, "comparison"):  # H8 opposed: the comparison and the 7+ dice
        what = "very demanding" if r.needed == 2 else "difficult"
        if r.tie:
            return f"tie: reroll (H3), {what}"
        if r.success:
            return f"{a} succeeds ({what}: wins and shows {r.high} of {r.needed} needed 7+)"
        if r.won_comparison:
            return f"{a} fails ({what}: wins the comparison but shows {r.high} of {r.needed} needed 7+)"
        return f"{b} wins; {a} fails ({what})"
    if hasattr(r, "a_total"):  # H6 sum
        name = a if r.winner == "a" else b
        return f"{name} wins {r.a_total}–{r.b_total} (H6)" if r.winner == "b" else \
            f"{name} wins: {r.b_total} is not above {r.a_total} (H6)"
    if r.winner == "tie":
        return f"tie {r.a_positions}–{r.b_positions}: reroll (H3)"
    name = a if r.winner == "a" else b
    if getattr(r, "reason", "") == "actor_no_dice":
        return f"{name} wins: the actor has no dice (H4)"
    return f"{name} wins {r.a_positions}–{r.b_positions}"


def _sr_summary(r: sr.SRRoll, res: Any) -> str:
    if r.auto_failed:
        return "automatic failure (pool 0 or less, S3)"
    parts = [f"{r.hits} hit{'s' if r.hits != 1 else ''}"]
    if res is not None:
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


__all__ = ["Rolls", "RajaSide", "HarhaSide", "SRSide", "SRPool", "RollAction", "die_dict", "die_from", "settings_text", "System"]
