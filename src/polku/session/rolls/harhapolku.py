"""Harhapolku's roll commands: an opposed challenge under each comparison (H2–H6), an unopposed
difficult or very demanding action (H8), the edge reroll (H7) and the narration contest (H9).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from ...rules import harhapolku as harha
from ...rules.dice import DiceSource, Die, DieSpec, roll_specs
from ...rules.explain import line, step_of
from ..model import Event, LastUsurpation, roll_of
from ..records import RollTable
from ..records import harha as harha_sheet
from .common import ActionsOf, DoAction, RollAction, Rolled, RollsBase, die_dict, die_from, explain_steps

if TYPE_CHECKING:
    from ..host import Txn

HarhaVerdict = harha.HarhaResult | harha.SumResult | harha.OpposedDifficultResult
"""What the rules core made of an opposed Harhapolku roll: a comparison (H3–H5), a sum (H6), or either
with a demand (H8 opposed)."""


class HarhaRolled(Rolled, total=False):
    """A Harhapolku roll command's return: the event and, for an opposed roll, the rules' verdict."""

    result: HarhaVerdict


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


class HarhaRolls(RollsBase):
    """Harhapolku's roll commands (``tracker.rolls.roll_harha``, ``narration_open``…)."""

    def harha_actions(self) -> dict[str | None, ActionsOf]:
        """What may follow a Harhapolku roll: an edge reroll per unused edge of each side (H7)."""
        return {"harhapolku": self._harha_roll_actions}

    def harha_doers(self) -> dict[str, DoAction]:
        return {"edge_reroll": self._do_edge_reroll}

    def _harha_roll_actions(self, roll_event: Event, roll: RollTable, latest: bool) -> list[RollAction]:
        from ...rules.actions import roll_actions as rules_actions

        out: list[RollAction] = []
        kind = "harha-difficult" if roll.get("test") == "harhapolku-difficult" else "harha"
        for s in roll.get("sides", []):
            cid = (s.get("who") or [""])[0]
            ch = self.tracker.characters.get(cid) if cid else None
            unused = [e["name"] for e in harha_sheet(ch)["edges"] if not e["used"]] if ch else []
            acts = rules_actions(kind, has_character=ch is not None, edges_unused=len(unused), latest=latest,
                                 settings=self.tracker.settings)
            for a in acts:
                if a.allowed:
                    out.extend(RollAction(a.name, True, f"{a.reason}: edge '{name}'", a.cost, s["role"], cid,
                                          s.get("label", ""), name) for name in unused)
                else:
                    out.append(RollAction.of(a, s["role"], cid, s.get("label", "")))
        return out

    def _do_edge_reroll(self, roll_event: Event, act: RollAction, faces: Sequence[int] | None) -> Rolled:
        return self.harha_edge_reroll(roll_event, act.role, act.who, act.edge, faces=faces)

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
                   faces: tuple[Sequence[int], Sequence[int]] | None = None) -> HarhaRolled:
        """H2–H6: A is the actor, B the challenger (ch23, same size, sum) or first/second side (classic).

        ``demand``: "" (a plain challenge), "difficult" or "very_demanding": the
        actor must also show one (two) dice of 7+ in the same roll (H8 opposed).
        """
        variant = self.harha_variant(variant)
        self.harha_difficult_notice(demand, variant)
        out: HarhaRolled = {}

        def build(txn: "Txn") -> None:
            pa, pb = self.harha_pool(a, variant, opposing=b), self.harha_pool(b, variant, opposing=a)
            dice_a, dice_b, origin = self._roll_two(harha.variant_dice(pa, variant), harha.variant_dice(pb, variant),
                                                    faces)
            ev, result = self._harha_record(txn, a, b, dice_a, dice_b, variant, challenge, origin,
                                            list(pa.explain) + [line("vs", label=b.label)] + list(pb.explain),
                                            counts=(len(pa.dice), len(pb.dice)), demand=demand)
            out["event"], out["result"] = ev, result

        self.tracker.run(build)
        return out

    def _harha_record(self, txn: "Txn", a: HarhaSide, b: HarhaSide, dice_a: Sequence[Die],
                      dice_b: Sequence[Die], variant: str, challenge: str | None, origin: dict[str, object],
                      explain: list[str], *, counts: tuple[int, int] | None = None, demand: str = "",
                      **extra: object) -> tuple[Event, HarhaVerdict]:
        a_count = b_count = None
        if variant == "sum":
            assert counts is not None
            a_count, b_count = counts
        used = self.settings_for(variant)
        compared = harha.resolve(dice_a, dice_b, variant, used, a_count=a_count, b_count=b_count)
        result: HarhaVerdict = harha.difficult_opposed(compared, demand == "very_demanding") if demand else compared
        summary = _harha_summary(result, a.label, b.label, variant)
        if result.winner != "tie":
            self._resolve_challenge_in(txn, challenge, summary, _harha_fact(result, a.label, b.label, variant))
        outcome: dict[str, object] = dict(harha.result_json(compared))
        if isinstance(result, harha.OpposedDifficultResult):
            outcome.update({"winner": result.winner, "success": result.success, "high": result.high,
                            "needed": result.needed, "won_comparison": result.won_comparison})
        ev = self.emit_roll(txn, f"harhapolku-{variant}", [
            {"role": "a", "label": a.label, "who": a.who, "dice": [die_dict(d) for d in dice_a]},
            {"role": "b", "label": b.label, "who": b.who, "dice": [die_dict(d) for d in dice_b]},
        ], summary, outcome, result.explain() + explain, origin, challenge,
            f"{a.label} vs {b.label}: {summary}", resolved_with=used, variant=variant, demand=demand or None,
            counts=list(counts) if counts else None, fact=_harha_fact(result, a.label, b.label, variant), **extra)
        return ev, result

    @staticmethod
    def harha_reroll_dice(roll_event: Event, role: str) -> list[int]:
        """H7: the die sizes an edge reroll of ``role``'s side throws (its whole roll again), in order."""
        roll = roll_of(roll_event)
        dice = next((s["dice"] for s in roll["sides"] if s.get("role") == role), [])
        return [d["size"] for d in dice]

    def harha_edge_reroll(self, roll_event: Event, role: str, cid: str, edge: str, *,
                          faces: Sequence[int] | None = None) -> HarhaRolled:
        """H7: throw one side's whole roll again with an edge (once per edge per session).

        Works on every Harhapolku roll a character makes: an opposed comparison
        (any variant, with or without H8's demand) and an unopposed difficult or
        very demanding action (H8).
        """
        roll = roll_of(roll_event)
        test = str(roll.get("test", ""))
        if not test.startswith("harhapolku-"):
            raise self._refuse("only a Harhapolku challenge roll can be rerolled with an edge")
        sides = {s["role"]: s for s in roll["sides"]}
        if role not in sides:
            raise self._refuse(f"no side '{role}' in that roll")
        if cid not in (sides[role].get("who") or []):
            raise self._refuse(f"{harha_sheet(self.tracker.character(cid))['name']} did not roll side {role.upper()} (H7)")
        if self.tracker.is_undone(roll_event["seq"]):
            raise self._refuse("that roll was undone (H7)")
        out: HarhaRolled = {}

        def build(txn: "Txn") -> None:
            self.tracker.use_edge_reroll_in(txn, cid, edge)
            src, origin = self.dice_source(faces)
            old = [die_from(d) for d in sides[role]["dice"]]
            new = harha.edge_reroll(old, None, src)
            self.check_faces_used(src)
            ch = harha_sheet(self.tracker.character(cid))
            chal = roll_event.get("challenge")
            why: list[str] = [line("harha.edge_reroll", name=ch["name"], edge=edge)]
            if test == "harhapolku-difficult":
                s = sides["a"]
                out["event"] = self._difficult_record(
                    txn, HarhaSide(s["label"], list(s.get("who", []))), new,
                    bool(roll.get("outcome", {}).get("very_demanding", False)), chal, origin, why,
                    variant=str(roll.get("variant") or "ch23"), rerolls=roll_event["seq"])
                return
            a_s, b_s = sides["a"], sides["b"]
            da = new if role == "a" else [die_from(d) for d in a_s["dice"]]
            db = new if role == "b" else [die_from(d) for d in b_s["dice"]]
            a = HarhaSide(a_s["label"], list(a_s.get("who", [])))
            b = HarhaSide(b_s["label"], list(b_s.get("who", [])))
            kept = roll.get("counts") or []
            counts = (kept[0], kept[1]) if len(kept) == 2 else None
            ev, result = self._harha_record(txn, a, b, da, db, str(roll.get("variant", "ch23")), chal, origin, why,
                                            counts=counts, demand=roll.get("demand", ""),
                                            rerolls=roll_event["seq"])
            out["event"], out["result"] = ev, result

        # What follows a GM-only roll is the GM's too (the edge it uses included).
        with self.tracker.gm_only(bool(roll_event.get("secret"))):
            self.tracker.run(build)
        return out

    def roll_harha_difficult(self, side: HarhaSide, *, very_demanding: bool = False,
                             challenge: str | None = None, faces: Sequence[int] | None = None,
                             variant: str | None = None) -> HarhaRolled:
        """H8: a difficult action succeeds with one die of 7+, a very demanding one with two.

        ``variant`` (None: ``harha.variant``): under the sum variant the action rolls one die
        (H6, ``harha.sum_difficult = one_die``) or is refused (``refuse``).
        """
        v = self.difficult_variant(variant)
        self.harha_difficult_notice("very_demanding" if very_demanding else "difficult", v)
        out: HarhaRolled = {}

        def build(txn: "Txn") -> None:
            pool = self.harha_pool(side, v)
            src, origin = self.dice_source(faces)
            dice = roll_specs(harha.variant_dice(pool, v), src)
            self.check_faces_used(src)
            out["event"] = self._difficult_record(txn, side, dice, very_demanding, challenge, origin,
                                                  list(pool.explain), variant=v)

        self.tracker.run(build)
        return out

    def _difficult_record(self, txn: "Txn", side: HarhaSide, dice: Sequence[Die], very_demanding: bool,
                          challenge: str | None, origin: dict[str, object], explain: list[str],
                          variant: str = "ch23", rerolls: int | None = None) -> Event:
        result = harha.difficult(dice, very_demanding, variant)
        what = "very demanding" if very_demanding else "difficult"
        summary = f"{'success' if result.success else 'failure'} ({result.high} of {result.needed} needed 7+)"
        fact: dict[str, object] = {"id": "harha.difficult", "label": side.label, "success": result.success,
                                   "high": result.high, "needed": result.needed, "very_demanding": very_demanding}
        self._resolve_challenge_in(txn, challenge, summary, fact)
        return self.emit_roll(
            txn, "harhapolku-difficult",
            [{"role": "a", "label": side.label, "who": side.who, "dice": [die_dict(d) for d in dice]}],
            summary, {"success": result.success, "high": result.high, "needed": result.needed,
                      "very_demanding": very_demanding},
            result.explain() + explain, origin, challenge, f"{side.label}, {what} action: {summary}",
            fact=fact, rerolls=rerolls, variant="sum" if variant == "sum" else None)

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
        ch = next((harha_sheet(x) for x in self.tracker.characters.values() if x["name"] == who), None)
        return [(bg["name"], 10 if "special" in bg["tier"] else 8) for bg in (ch["backgrounds"] if ch else [])
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
                        roll_sides: Callable[[harha.Step, list[str]], list[dict[str, object]]] | None = None,
                        names: Callable[[harha.NarrationContest], Sequence[str | None]] = lambda c: (),
                        fact: Callable[[harha.Step], dict[str, object]] | None = None) -> harha.Step:
        out: list[harha.Step] = []

        def build(txn: "Txn") -> None:
            src, origin = self.dice_source(faces)
            before = self.narration()
            # The contest knows its participants by name; the log names them by id too.
            who = self.narration_ids(names(before))
            step = fn(before, src)
            self.check_faces_used(src)
            self._store_narration(txn, step.state)
            data: dict[str, object] = {}
            if roll_sides is not None:
                sides = roll_sides(step, who)
                data["roll"] = {"test": "narration", "sides": sides, "summary": str(step.text),
                                "outcome": _narration_outcome(step), "explain": [str(step.text)],
                                "steps": explain_steps([step.text]), **origin}
            if fact is not None and not text_prefix:
                data["fact"] = fact(step)
            elif step_of(step.text) and not text_prefix:  # told from the rules core's own step
                data["fact"] = {"id": "harha.narration_step", "step": step_of(step.text)}
            txn.emit("narration", text_prefix + str(step.text), who=who or None, **data)
            out[:] = [step]

        self.tracker.run(build)
        return out[0]

    def narration_roll_background(self, who: str, background: str, size: int = 8,
                                  faces: Sequence[int] | None = None) -> harha.Step:
        return self._narration_step(lambda c, s: c.roll_background(who, background, s, size), faces,
                                    roll_sides=lambda st, ids: [{"role": "a", "label": who, "who": ids,
                                                                 "dice": [die_dict(cast(Die, st.detail))]}],
                                    names=lambda c: [who],
                                    fact=lambda st: {"id": "harha.narration_roll", "who": who, "background": background,
                                                     "face": cast(Die, st.detail).face, "size": size})

    def narration_edge_reroll(self, who: str, cid: str, edge: str,
                              faces: Sequence[int] | None = None) -> harha.Step:
        """H7 in the narration contest (H9): an edge throws ``who``'s rolled background dice still in
        hand again (the whole hand), once per edge per session like every edge reroll; the dice on
        the table or burned stay. One command: the edge's use and the new dice, undone together.
        """
        out: list[harha.Step] = []

        def build(txn: "Txn") -> None:
            self.tracker.use_edge_reroll_in(txn, cid, edge)
            src, origin = self.dice_source(faces)
            before = self.narration()
            step = before.reroll_hand(who, src)
            self.check_faces_used(src)
            self._store_narration(txn, step.state)
            new = step.state.hand(who)
            txn.emit("narration", f"{step.text[:-len(' (H7)')]} with edge '{edge}' (H7)", who=[cid],
                     roll={"test": "narration", "sides": [{"role": "a", "label": who, "who": [cid],
                                                            "dice": [die_dict(d) for d in new]}],
                           "summary": str(step.text), "outcome": {}, "explain": [str(step.text)],
                           "steps": explain_steps([step.text]), **origin},
                     fact={"id": "harha.narration_edge", "step": step_of(step.text) or {}, "edge": edge})
            out[:] = [step]

        self.tracker.run(build)
        return out[0]

    def narration_open(self, narrator: str, dice: Sequence[Die]) -> harha.Step:
        return self._narration_step(lambda c, s: c.open(narrator, dice), None, names=lambda c: [narrator],
                                    fact=lambda st: {"id": "harha.narration_open", "narrator": narrator,
                                                     "faces_taken": [d.face for d in dice]})

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


def _narration_outcome(step: harha.Step) -> dict[str, object]:
    """The numbers of a harm roll (H9), so harm can be proposed from the log entry."""
    h = step.detail
    if not isinstance(h, harha.HarmRoll):
        return {}
    return {"harm": {"harmed": h.harmed, "automatic": h.automatic, "usurper_total": h.usurper_total,
                     **({"gm_total": h.gm_total} if h.gm_total is not None else {})}}


def _usurpation_from(d: LastUsurpation | None) -> harha.Usurpation | None:
    if not d:
        return None
    burn = harha.Burn(d.get("burned_owner", ""), tuple(die_from(x) for x in d.get("burned_dice", [])), d["who"])
    return harha.Usurpation(who=d["who"], dice=tuple(die_from(x) for x in d["dice"]),
                            total=sum(x["face"] for x in d["dice"]), burned=burn,
                            burned_total=d.get("burned_total", 0), tier=d["tier"], gm_dice=d.get("gm_dice", 0),
                            gm_die_size=d.get("gm_die_size") or None, harm_resolved=d.get("harm_resolved", False))


def _harha_fact(r: HarhaVerdict, a: str, b: str, variant: str) -> dict[str, object]:
    """The facts of a Harhapolku comparison (H3–H6), or of a difficult action against an opponent (H8),
    for :mod:`polku.session.telling`."""
    if isinstance(r, harha.OpposedDifficultResult):
        return {"id": "harha.opposed_difficult", "a": a, "b": b, "winner": "tie" if r.tie else r.winner,
                "success": r.success, "won_comparison": r.won_comparison, "high": r.high, "needed": r.needed,
                "very_demanding": r.needed == 2}
    fact: dict[str, object] = {"id": "harha.contest", "a": a, "b": b, "winner": r.winner}
    if isinstance(r, harha.SumResult):
        fact.update(variant="sum", a_total=r.a_total, b_total=r.b_total)
    else:
        fact.update(a_positions=r.a_positions, b_positions=r.b_positions)
        if r.reason == "actor_no_dice":
            fact["actor_no_dice"] = True
    return fact


def _harha_summary(r: HarhaVerdict, a: str, b: str, variant: str) -> str:
    if isinstance(r, harha.OpposedDifficultResult):  # H8 opposed: the comparison and the 7+ dice
        what = "very demanding" if r.needed == 2 else "difficult"
        if r.tie:
            return f"tie: reroll (H3), {what}"
        if r.success:
            return f"{a} succeeds ({what}: wins and shows {r.high} of {r.needed} needed 7+)"
        if r.won_comparison:
            return f"{a} fails ({what}: wins the comparison but shows {r.high} of {r.needed} needed 7+)"
        return f"{b} wins; {a} fails ({what})"
    if isinstance(r, harha.SumResult):  # H6 sum
        name = a if r.winner == "a" else b
        return f"{name} wins {r.a_total}–{r.b_total} (H6)" if r.winner == "b" else \
            f"{name} wins: {r.b_total} is not above {r.a_total} (H6)"
    if r.winner == "tie":
        return f"tie {r.a_positions}–{r.b_positions}: reroll (H3)"
    name = a if r.winner == "a" else b
    if r.reason == "actor_no_dice":
        return f"{name} wins: the actor has no dice (H4)"
    return f"{name} wins {r.a_positions}–{r.b_positions}"
