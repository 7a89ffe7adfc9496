"""Rajapolku's roll commands: a challenge between two sides (R1–R9) and a spirit combat (R11).

Pools from the characters (wounds, abilities, backgrounds, effects), the ability charges a roll
spends, and what may follow a roll (a full tie rerolled, R5; the next exchange or the end of a
spirit combat).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...i18n import N_, said
from ...rules import rajapolku as raja
from ...rules.dice import DieSpec, RulesError, Src
from ...text import plural, raja_outcome
from ..model import Event
from ..odds import RajaQuestion
from ..records import RollOutcome, RollTable
from ..records import raja as raja_sheet
from ..telling import line, raja_fact
from .common import ActionsOf, DoAction, RollAction, Rolled, RollsBase, die_dict

if TYPE_CHECKING:
    from ..host import Txn


class RajaRolled(Rolled, total=False):
    """A Rajapolku roll command's return: the event, the contest's result and, for spirit combat (R11),
    the fight after the exchange and the challenge it is kept on."""

    result: raja.RajaResult
    fight: raja.SpiritFight
    challenge: str


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


class RajaRolls(RollsBase):
    """Rajapolku's roll commands (``tracker.rolls.roll_raja``, ``roll_spirit``…)."""

    def raja_actions(self) -> dict[str | None, ActionsOf]:
        """What may follow a Rajapolku roll: a full tie rerolled (R5), a spirit combat's next step (R11)."""
        return {"rajapolku": self._raja_roll_actions, "spirit": self._spirit_roll_actions}

    def raja_doers(self) -> dict[str, DoAction]:
        return {"end_fight": self._do_end_fight}

    def _raja_roll_actions(self, roll_event: Event, roll: RollTable, latest: bool) -> list[RollAction]:
        from ...rules.actions import roll_actions as rules_actions

        res = _raja_result_from(roll.get("outcome", {}))
        return [RollAction.of(a, "a", "", "") for a in rules_actions("raja", raja=res, settings=self.tracker.settings)]

    def _spirit_roll_actions(self, roll_event: Event, roll: RollTable, latest: bool) -> list[RollAction]:
        challenge = roll_event.get("challenge")
        if challenge and self.spirit_fight(challenge):
            return self.spirit_actions(challenge)
        return []

    def _do_end_fight(self, roll_event: Event, act: RollAction, faces: Sequence[int] | None) -> Rolled:
        self.end_spirit_fight(roll_event["challenge"])
        return {}

    def raja_question(self, a: RajaSide, b: RajaSide) -> RajaQuestion:
        """The odds question of a Rajapolku challenge between these sides (their pools' normal
        and ability dice, R2–R7), for :func:`polku.session.odds.answer`."""
        pa, pb = self.raja_pools(a, b)
        ab_a, ab_b = (sum(1 for s in pool if s.source == Src.ABILITY) for pool in (pa, pb))
        return RajaQuestion((len(pa) - ab_a, ab_a), (len(pb) - ab_b, ab_b))

    def raja_plan(self, side: RajaSide) -> raja.PoolPlan:
        """R1–R4, R7, R9. The character's effects are conditions (R4): one that gives dice helps this
        side, one that takes dice gives the opposition as many (circumstances never remove dice)."""
        level = side.wound_level
        if side.who and level == "Healthy":
            level = raja_sheet(self.tracker.character(side.who[0]))["wound"]
        helping, hindering = list(side.helping), list(side.hindering)
        for label, n in self.effect_dice(side.who, side.effects_off):
            (helping if n > 0 else hindering).extend([label] * abs(n))
        return raja.build_pool(side.backgrounds, side.abilities, helping, level, self.tracker.settings,
                               hindering_conditions=hindering)

    def raja_pools(self, a: RajaSide, b: RajaSide) -> tuple[tuple[DieSpec, ...], tuple[DieSpec, ...]]:
        return raja.final_pools(self.raja_plan(a), self.raja_plan(b))

    def roll_raja(self, a: RajaSide, b: RajaSide, *, challenge: str | None = None,
                  faces: tuple[Sequence[int] | None, Sequence[int] | None] | None = None) -> RajaRolled:
        """R1–R7: build both pools, roll, resolve; pay ability costs (R11).

        ``faces``: each side's faces entered by hand, in the order of its pool; a
        side given as None is thrown with the program's dice (see :meth:`_roll_two`).
        """
        out: RajaRolled = {}

        def build(txn: "Txn") -> None:
            plan_a, plan_b = self.raja_plan(a), self.raja_plan(b)
            specs_a, specs_b = raja.final_pools(plan_a, plan_b)
            dice_a, dice_b, origin = self._roll_two(specs_a, specs_b, faces)
            self._pay_abilities(txn, a, plan_a)
            self._pay_abilities(txn, b, plan_b)
            result = raja.resolve(dice_a, dice_b, self.tracker.settings)
            summary = raja_outcome(result, a.label, b.label)
            # The outcome's reasoning first, then where every die came from.
            explain = result.explain() + list(plan_a.explain) + [line("vs", label=b.label)] + list(plan_b.explain)
            if result.winner != "tie" or result.tie_action == "defender":
                self._resolve_challenge_in(txn, challenge, summary,
                                           {"id": "raja.roll", **raja_fact(result, a.label, b.label)})
            ev = self.emit_roll(txn, "rajapolku", [
                {"role": "a", "label": a.label, "who": a.who, "dice": [die_dict(d) for d in dice_a]},
                {"role": "b", "label": b.label, "who": b.who, "dice": [die_dict(d) for d in dice_b]},
            ], summary, raja.result_json(result), explain, origin, challenge,
                f"{a.label} vs {b.label}: {summary}", fact={"id": "raja.roll", **raja_fact(result, a.label, b.label)})
            out["event"], out["result"] = ev, result

        self.tracker.run(build)
        return out

    def _pay_abilities(self, txn: "Txn", side: RajaSide, plan: raja.PoolPlan) -> None:
        """R11: pay for each ability die that is rolled; one the wound penalty removed costs nothing (R9)."""
        if not side.who or not side.abilities:
            return
        cid = side.who[0]
        ch = raja_sheet(self.tracker.character(cid))
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
                    raise RulesError(said(N_("{name} has {charges} charges; {name2} costs {cost} (R11)"), name=str(ch['name']), charges=str(ch['charges']), name2=str(name), cost=str(cost)))
                txn.set(["characters", cid, "charges"], left)
                if ab["per"] == "scene":
                    txn.set(["characters", cid, "paid_this_scene"], ch["paid_this_scene"] + [name])
                txn.emit("resource", f"{ch['name']} pays {plural(cost, 'charge')} for {name} "
                         f"({left}/{ch['charges_max']} left)", who=cid, resource="charges", amount=-cost,
                         fact={"id": "raja.ability_paid", "name": ch["name"], "ability": name, "cost": cost,
                               "left": left, "max": ch["charges_max"]})

    def spirit_fight(self, challenge: str) -> raja.SpiritFight | None:
        """The spirit combat kept on a challenge (R11), or None before its first exchange.

        The participants' charges are the fight's charges: what they have left is
        what they roll and what they can lose.
        """
        fight = self.tracker.challenge(challenge).get("spirit")
        if not fight:
            return None
        return raja.SpiritFight(raja_sheet(self.tracker.character(fight["a"]))["charges"], raja_sheet(self.tracker.character(fight["b"]))["charges"],
                                exchanges=fight.get("exchanges", 0), ended_by_gm=fight.get("ended", False),
                                a_penalty=self.tracker.wound_penalty(fight["a"]),
                                b_penalty=self.tracker.wound_penalty(fight["b"]))

    def _begin_spirit(self, a_cid: str, b_cid: str) -> raja.SpiritFight:
        """R11's entry for these two, with their R9 wound penalties now (``raja.spirit_wounds``)."""
        return raja.begin_spirit_fight(raja_sheet(self.tracker.character(a_cid))["charges"], raja_sheet(self.tracker.character(b_cid))["charges"],
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
        from ...rules.actions import roll_actions as rules_actions

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
                    faces: tuple[Sequence[int] | None, Sequence[int] | None] | None = None) -> RajaRolled:
        """R11 spirit combat: one exchange.

        The first exchange of a fight is its entry: each participant pays 1 charge,
        once for the whole fight. Every exchange rolls the charges each side has
        left; the winner loses nothing, the loser loses charges (``raja.spirit_loss``),
        a full tie costs nothing. The fight is kept on the challenge (one is added
        when there is none) and resolves it when a side has no charges left.

        ``faces``: each side's faces entered by hand; a side given as None is thrown with the
        program's dice (a fighter's seat types its own). Returns the roll as ``event`` too.
        """
        out: RajaRolled = {}
        ca, cb = raja_sheet(self.tracker.character(a_cid)), raja_sheet(self.tracker.character(b_cid))
        if a_cid == b_cid:
            raise self._refuse("spirit combat needs two different characters (R11)")
        kept = self.tracker.challenge(challenge).get("spirit") if challenge else None
        if kept and (kept["a"], kept["b"]) != (a_cid, b_cid):
            names = f"{raja_sheet(self.tracker.character(kept['a']))['name']} and {raja_sheet(self.tracker.character(kept['b']))['name']}"
            raise self._refuse(f"this challenge's spirit combat is between {names}, in that order (R11)")
        if kept and self.spirit_fight(challenge).over:  # type: ignore[arg-type, union-attr]
            raise self._refuse("this spirit combat is over (R11)")

        def build(txn: "Txn") -> None:
            chid = challenge
            if chid is None:
                chid = self.tracker.new_id(txn, "c")
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
                         "entry charge, once for the fight (R11)", who=[a_cid, b_cid], resource="charges", amount=-1,
                         fact={"id": "raja.spirit_begins", "a": ca["name"], "b": cb["name"]})
                lines.append(line("raja.spirit_entry"))
            settings = self.tracker.settings
            dice_a, dice_b, origin = self._roll_two(fight.dice("a", settings), fight.dice("b", settings), faces)
            if fight.dice_counts(settings) != (fight.a_charges, fight.b_charges):
                lines.append(line("raja.spirit_wounds", a=ca["name"], a_count=len(dice_a), b=cb["name"],
                                  b_count=len(dice_b)))
            result = raja.resolve(dice_a, dice_b, self.tracker.settings)
            ex = fight.exchange(result, self.tracker.settings)
            after = ex.fight
            txn.set(["characters", a_cid, "charges"], after.a_charges)
            txn.set(["characters", b_cid, "charges"], after.b_charges)
            txn.set(["challenges", idx, "spirit"], {"a": a_cid, "b": b_cid, "exchanges": after.exchanges,
                                                     "ended": False})
            summary = spirit_summary(ex, ca["name"], cb["name"])
            fact = spirit_fact(ex, ca["name"], cb["name"])
            if after.over:
                self.tracker.resolve_challenge_in(txn, chid, summary, fact)
            out["event"] = self.emit_roll(txn, "spirit", [
                {"role": "a", "label": ca["name"], "who": [a_cid], "dice": [die_dict(d) for d in dice_a]},
                {"role": "b", "label": cb["name"], "who": [b_cid], "dice": [die_dict(d) for d in dice_b]},
            ], summary, spirit_outcome(fight, ex),
                lines + result.explain() + after.explain(), origin, chid,
                f"Spirit combat {ca['name']} vs {cb['name']}, exchange {after.exchanges}: {summary}", fact=fact)
            out["result"], out["fight"], out["challenge"] = result, after, chid  # and the roll, "event"

        self.tracker.run(build)
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
            fact = {"id": "raja.spirit_ended", "exchanges": fight.exchanges}
            self.tracker.resolve_challenge_in(txn, challenge, text, fact)
            txn.emit("challenge", f"{self.tracker.challenge(challenge)['title']}: {text}", challenge=challenge,
                     fact={**fact, "title": self.tracker.challenge(challenge)["title"]})

        self.tracker.run(build)


def spirit_summary(ex: raja.SpiritExchange, a_name: str, b_name: str) -> str:
    """A spirit-combat exchange's log line (R11): who won it, what the loser lost, whether the fight is over."""
    summary = raja_outcome(ex.result, a_name, b_name)
    after = ex.fight
    if ex.loser is not None and ex.loss:
        left = after.charges(ex.loser)
        summary += f"; {a_name if ex.loser == 'a' else b_name} loses {ex.loss} charge{'s' if ex.loss != 1 else ''} ({left} left)"
    if after.over:
        winner = {"a": a_name, "b": b_name}.get(after.winner or "", "")
        summary += f" — the fight is over{', ' + winner + ' wins' if winner else ''}"
    return summary


def spirit_fact(ex: raja.SpiritExchange, a_name: str, b_name: str) -> dict[str, object]:
    """A spirit-combat exchange's facts (R11), as :func:`spirit_summary` words them, for :mod:`polku.session.telling`."""
    after = ex.fight
    fact: dict[str, object] = {"id": "raja.spirit", **raja_fact(ex.result, a_name, b_name), "exchange": after.exchanges}
    if ex.loser is not None and ex.loss:
        fact.update(loser=a_name if ex.loser == "a" else b_name, loss=ex.loss, left=after.charges(ex.loser))
    if after.over:
        fact.update(over=True, fight_winner={"a": a_name, "b": b_name}.get(after.winner or "") or None)
    return fact


def spirit_outcome(before: raja.SpiritFight, ex: raja.SpiritExchange) -> dict[str, object]:
    """A spirit-combat exchange's logged outcome (R11): the comparison, the charges lost, the fight after it,
    and the fight before it (each side's charges and R9 wound penalty in dice), from which it follows."""
    return {**raja.result_json(ex.result), "charge_loss": ex.loss, "fight": ex.fight.to_json(),
            "before": {"a_charges": before.a_charges, "b_charges": before.b_charges, "exchanges": before.exchanges,
                       "a_penalty": before.a_penalty, "b_penalty": before.b_penalty}}


def _raja_result_from(outcome: RollOutcome) -> raja.RajaResult:
    """Enough of a logged Rajapolku result to ask what may follow it (R5: a tie is rerolled)."""
    winner = outcome.get("winner", "a")
    return raja.RajaResult(a=(), b=(), winner=winner, degrees=outcome.get("degrees", 0), supernatural=0,
                           deciding_position=None, decided_by="tie" if winner == "tie" else "face",
                           deciding_die_is_ability=False, degree_dice=(), tie_action=outcome.get("tie_action"),
                           holds=outcome.get("holds"))
