"""Roll commands of the tracker, one family per system.

Each command builds pools with the rules core, rolls them with the program's
dice (a fresh seed per roll, recorded) or with faces the GM entered from
physical dice, resolves, and appends one ``roll`` event whose ``roll`` table
keeps every die (size, face, source, what a reroll replaced), the outcome's
numbers and the explanation (RULES.md §4). Resources the roll spends (ability
charges, Edge, an edge reroll, spirit-combat charges) change in the same
command, so one undo reverts all of it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Callable, Sequence

from ..rules.dice import Die, DiceSource, DieSpec, ManualSource, RandomSource, RulesError, Src, roll_specs
from ..rules.record import factory, record
from ..rules.system import System

if TYPE_CHECKING:
    from ..rules import harhapolku as harha
    from ..rules import rajapolku as raja
    from ..rules import shadowrun as sr
    from .tracker import Tracker, _Txn


class _RulesModule:
    """A rules module imported on first use; it then takes this stand-in's place here.

    The three rules modules cost ~14 ms to import and nothing needs them until
    a roll, so opening a session (and the app's first frame) does without.
    """

    def __init__(self, alias: str, module: str) -> None:
        self._alias = alias
        self._module = module

    def __getattr__(self, name: str) -> Any:
        module = importlib.import_module(self._module, __package__)
        globals()[self._alias] = module
        return getattr(module, name)


if not TYPE_CHECKING:
    harha = _RulesModule("harha", "..rules.harhapolku")
    raja = _RulesModule("raja", "..rules.rajapolku")
    sr = _RulesModule("sr", "..rules.shadowrun")


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


@record
class RajaSide:
    """One side of a Rajapolku challenge (R1–R4, R7, R9)."""

    label: str
    who: list[str] = factory(list)
    backgrounds: list[str] = factory(list)
    abilities: list[str] = factory(list)
    helping: list[str] = factory(list)
    hindering: list[str] = factory(list)
    wound_level: str = "Healthy"


@record
class HarhaSide:
    """One side of a Harhapolku challenge (H2): claimed background names per tier."""

    label: str
    who: list[str] = factory(list)
    general: str | None = None
    background: str | None = None
    significant: str | None = None
    special: str | None = None
    significant_special: str | None = None
    gm_bonus: bool = False


@record
class SRSide:
    """One Varjojuoksu pool (S1–S3)."""

    label: str
    who: list[str] = factory(list)
    skill_name: str = ""
    skill: int | None = None
    attribute_name: str = "attribute"
    attribute: int = 0
    second_attribute_name: str = ""
    second_attribute: int | None = None
    modifiers: list[tuple[str, int]] = factory(list)
    wound_modifier: int = 0
    defaulting_allowed: bool = True
    edge_before: bool = False
    long_shot: bool = False
    dice: int | None = None
    """A bare dice count (an NPC or a GM pool) instead of skill + attribute."""


class RollCommands:
    """Mixed into :class:`~polku.session.tracker.Tracker`."""

    # These exist on Tracker.
    state: dict[str, Any]
    rng: Any
    _recent: dict[int, Any]

    def _source(self: "Tracker", faces: Sequence[int] | None) -> tuple[DiceSource, dict[str, Any]]:
        if faces is not None:
            return ManualSource(list(faces)), {"manual": True}
        seed = self.rng.getrandbits(32)
        return RandomSource(seed), {"manual": False, "seed": seed}

    def _roll_two(self: "Tracker", specs_a: Sequence[DieSpec], specs_b: Sequence[DieSpec],
                  faces: tuple[Sequence[int], Sequence[int]] | None
                  ) -> tuple[tuple[Die, ...], tuple[Die, ...], dict[str, Any]]:
        """Roll both sides' pools: one seeded source, or each side's entered faces (checked, all used)."""
        if faces is not None:
            src_a, origin = self._source(faces[0])
            src_b, _ = self._source(faces[1])
            dice_a, dice_b = roll_specs(specs_a, src_a), roll_specs(specs_b, src_b)
            self._check_manual_used(src_a)
            self._check_manual_used(src_b)
            return dice_a, dice_b, origin
        src, origin = self._source(None)
        return roll_specs(specs_a, src), roll_specs(specs_b, src), origin

    def _roll_event(self: "Tracker", txn: "_Txn", test: str, sides: list[dict[str, Any]], summary: str,
                    outcome: dict[str, Any], explain: list[str], origin: dict[str, Any],
                    challenge: str | None, text: str, **extra: Any) -> dict[str, Any]:
        roll = {"test": test, "sides": sides, "summary": summary, "outcome": toml_safe(outcome),
                "explain": list(explain), **origin}
        used = self.roll_settings(test)
        if used:
            roll["settings"] = used
        roll.update(toml_safe(extra))
        who = sorted({w for s in sides for w in s.get("who", [])})
        return txn.emit("roll", text, roll=roll, who=who, challenge=challenge)

    def roll_settings(self: "Tracker", test: str) -> dict[str, Any]:
        """The [choice] settings a roll of ``test`` is resolved with, to keep in its log entry."""
        if test == "harhapolku-classic":
            keys: tuple[str, ...] = ("harha.variant", "harha.classic_extra")
        else:
            keys = next((k for prefix, k in _ROLL_SETTINGS if test.startswith(prefix)), ())
        values = self.settings.to_dotted()
        return {k: values[k] for k in keys if k in values}

    def _resolve_challenge_in(self: "Tracker", txn: "_Txn", challenge: str | None, outcome: str) -> None:
        if challenge:
            self.resolve_challenge(challenge, outcome, txn)

    def _refuse(self, message: str) -> Exception:
        """A command refused before it starts: the same one-line TrackerError as inside ``_run``."""
        from .tracker import TrackerError

        return TrackerError(message)

    def _check_manual_used(self, source: DiceSource) -> None:
        if isinstance(source, ManualSource) and source.remaining:
            raise RulesError(f"{source.remaining} face(s) more than the pool has dice; check what you entered")

    # -- Rajapolku -----------------------------------------------------------------

    def raja_plan(self: "Tracker", side: RajaSide) -> raja.PoolPlan:
        level = side.wound_level
        if side.who and level == "Healthy":
            level = self.character(side.who[0])["wound"]
        return raja.build_pool(side.backgrounds, side.abilities, side.helping, level, self.settings,
                               hindering_conditions=side.hindering)

    def raja_pools(self: "Tracker", a: RajaSide, b: RajaSide) -> tuple[tuple[DieSpec, ...], tuple[DieSpec, ...]]:
        return raja.final_pools(self.raja_plan(a), self.raja_plan(b))

    def roll_raja(self: "Tracker", a: RajaSide, b: RajaSide, *, challenge: str | None = None,
                  faces: tuple[Sequence[int], Sequence[int]] | None = None) -> dict[str, Any]:
        """R1–R7: build both pools, roll, resolve; pay ability costs (R11)."""
        out: dict[str, Any] = {}

        def build(txn: "_Txn") -> None:
            plan_a, plan_b = self.raja_plan(a), self.raja_plan(b)
            specs_a, specs_b = raja.final_pools(plan_a, plan_b)
            dice_a, dice_b, origin = self._roll_two(specs_a, specs_b, faces)
            self._pay_abilities(txn, a, plan_a)
            self._pay_abilities(txn, b, plan_b)
            result = raja.resolve(dice_a, dice_b, self.settings)
            summary = _raja_summary(result, a.label, b.label)
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

        self._run(build)
        return out

    def _pay_abilities(self: "Tracker", txn: "_Txn", side: RajaSide, plan: raja.PoolPlan) -> None:
        """R11: pay for each ability die that is rolled; one the wound penalty removed costs nothing (R9)."""
        if not side.who or not side.abilities:
            return
        cid = side.who[0]
        ch = self.character(cid)
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
                txn.emit("resource", f"{ch['name']} pays {cost} charge(s) for {name} "
                         f"({left}/{ch['charges_max']} left)", who=cid, resource="charges", amount=-cost)

    def roll_spirit(self: "Tracker", a_cid: str, b_cid: str, *, challenge: str | None = None,
                    faces: tuple[Sequence[int], Sequence[int]] | None = None) -> dict[str, Any]:
        """R11 spirit combat: each spends 1 charge; remaining charges are the dice; the loser loses charges."""
        out: dict[str, Any] = {}
        ca, cb = self.character(a_cid), self.character(b_cid)

        def build(txn: "_Txn") -> None:
            pa, pb = raja.spirit_pool(ca["charges"]), raja.spirit_pool(cb["charges"])
            txn.set(["characters", a_cid, "charges"], pa.remaining)
            txn.set(["characters", b_cid, "charges"], pb.remaining)
            txn.emit("resource", f"Spirit combat: {ca['name']} and {cb['name']} each spend 1 charge (R11)",
                     who=[a_cid, b_cid], resource="charges", amount=-1)
            dice_a, dice_b, origin = self._roll_two(pa.dice, pb.dice, faces)
            result = raja.resolve(dice_a, dice_b, self.settings)
            loss = raja.spirit_loss(result, self.settings)
            summary = _raja_summary(result, ca["name"], cb["name"])
            if result.winner in ("a", "b") and loss:
                loser_id = b_cid if result.winner == "a" else a_cid
                loser = self.character(loser_id)
                left = raja.apply_charge_loss(loser["charges"], loss)
                txn.set(["characters", loser_id, "charges"], left)
                summary += f"; {loser['name']} loses {loss} charge{'s' if loss != 1 else ''} ({left} left)"
            self._resolve_challenge_in(txn, challenge, summary)
            self._roll_event(txn, "spirit", [
                {"role": "a", "label": ca["name"], "who": [a_cid], "dice": [die_dict(d) for d in dice_a]},
                {"role": "b", "label": cb["name"], "who": [b_cid], "dice": [die_dict(d) for d in dice_b]},
            ], summary, {**raja.result_json(result), "charge_loss": loss}, result.explain(), origin, challenge,
                f"Spirit combat {ca['name']} vs {cb['name']}: {summary}")
            out["result"] = result

        self._run(build)
        return out

    # -- Harhapolku ------------------------------------------------------------------

    def harha_pool(self: "Tracker", side: HarhaSide) -> harha.HarhaPool:
        return harha.build_pool(general=side.general, background=side.background, significant=side.significant,
                                special=side.special, significant_special=side.significant_special,
                                gm_bonus="GM bonus" if side.gm_bonus else None)

    def roll_harha(self: "Tracker", a: HarhaSide, b: HarhaSide, *, variant: str | None = None,
                   challenge: str | None = None,
                   faces: tuple[Sequence[int], Sequence[int]] | None = None) -> dict[str, Any]:
        """H2–H4: A is the actor, B the challenger (ch23) or first/second side (classic)."""
        variant = variant or self.settings.harha_variant
        if variant not in ("ch23", "classic"):
            variant = "ch23" if variant != "classic" else variant
        out: dict[str, Any] = {}

        def build(txn: "_Txn") -> None:
            pa, pb = self.harha_pool(a), self.harha_pool(b)
            dice_a, dice_b, origin = self._roll_two(pa.dice, pb.dice, faces)
            ev, result = self._harha_record(txn, a, b, dice_a, dice_b, variant, challenge, origin,
                                            list(pa.explain) + [f"vs {b.label}:"] + list(pb.explain))
            out["event"], out["result"] = ev, result

        self._run(build)
        return out

    def _harha_record(self: "Tracker", txn: "_Txn", a: HarhaSide, b: HarhaSide, dice_a: Sequence[Die],
                      dice_b: Sequence[Die], variant: str, challenge: str | None, origin: dict[str, Any],
                      explain: list[str], **extra: Any) -> tuple[dict[str, Any], Any]:
        result = harha.resolve(dice_a, dice_b, variant, self.settings)
        summary = _harha_summary(result, a.label, b.label, variant)
        if result.winner != "tie":
            self._resolve_challenge_in(txn, challenge, summary)
        ev = self._roll_event(txn, f"harhapolku-{variant}", [
            {"role": "a", "label": a.label, "who": a.who, "dice": [die_dict(d) for d in dice_a]},
            {"role": "b", "label": b.label, "who": b.who, "dice": [die_dict(d) for d in dice_b]},
        ], summary, harha.result_json(result), result.explain() + explain, origin, challenge,
            f"{a.label} vs {b.label}: {summary}", variant=variant, **extra)
        return ev, result

    def harha_edge_reroll(self: "Tracker", roll_event: dict[str, Any], role: str, cid: str, edge: str, *,
                          faces: Sequence[int] | None = None) -> dict[str, Any]:
        """H7: reroll one side's whole pool with an edge (once per edge per session)."""
        roll = roll_event.get("roll") or {}
        if not str(roll.get("test", "")).startswith("harhapolku-"):
            raise self._refuse("only a Harhapolku challenge roll can be rerolled with an edge")
        sides = {s["role"]: s for s in roll["sides"]}
        if role not in sides:
            raise self._refuse(f"no side '{role}' in that roll")
        out: dict[str, Any] = {}

        def build(txn: "_Txn") -> None:
            self.use_edge_reroll(cid, edge, txn)
            src, origin = self._source(faces)
            old = [die_from(d) for d in sides[role]["dice"]]
            new = harha.edge_reroll(old, None, src)
            self._check_manual_used(src)
            a_s, b_s = sides["a"], sides["b"]
            da = new if role == "a" else [die_from(d) for d in a_s["dice"]]
            db = new if role == "b" else [die_from(d) for d in b_s["dice"]]
            a = HarhaSide(a_s["label"], list(a_s.get("who", [])))
            b = HarhaSide(b_s["label"], list(b_s.get("who", [])))
            ch = self.character(cid)
            chal = roll_event.get("challenge")
            ev, result = self._harha_record(txn, a, b, da, db, roll.get("variant", "ch23"), chal, origin,
                                            [f"{ch['name']} rerolls the pool with edge '{edge}' (H7)"],
                                            rerolls=roll_event["seq"])
            out["event"], out["result"] = ev, result

        self._run(build)
        return out

    def roll_harha_difficult(self: "Tracker", side: HarhaSide, *, very_demanding: bool = False,
                             challenge: str | None = None, faces: Sequence[int] | None = None) -> dict[str, Any]:
        """H8: a difficult action succeeds with one die of 7+, a very demanding one with two."""
        out: dict[str, Any] = {}

        def build(txn: "_Txn") -> None:
            pool = self.harha_pool(side)
            src, origin = self._source(faces)
            dice = roll_specs(pool.dice, src)
            self._check_manual_used(src)
            result = harha.difficult(dice, very_demanding)
            what = "very demanding" if very_demanding else "difficult"
            summary = f"{'success' if result.success else 'failure'} ({result.high} of {result.needed} needed 7+)"
            self._resolve_challenge_in(txn, challenge, summary)
            out["event"] = self._roll_event(
                txn, "harhapolku-difficult",
                [{"role": "a", "label": side.label, "who": side.who, "dice": [die_dict(d) for d in dice]}],
                summary, {"success": result.success, "high": result.high, "needed": result.needed,
                          "very_demanding": very_demanding},
                result.explain() + list(pool.explain), origin, challenge,
                f"{side.label}, {what} action: {summary}")

        self._run(build)
        return out

    # -- Harhapolku narration contest (H9) --------------------------------------------

    def narration(self: "Tracker") -> harha.NarrationContest:
        n = self.state["narration"]
        rolled = frozenset((w, bg) for w, bg in (x.split("\x1f", 1) for x in n.get("rolled", [])))
        hands = tuple(sorted((who, tuple(die_from(d) for d in dice)) for who, dice in n.get("hands", {}).items()))
        return harha.NarrationContest(
            conflict=n.get("kind", "brawl"), ability_fight=n.get("ability_fight", False),
            narrator=n.get("narrator") or None, table=tuple(die_from(d) for d in n.get("table", [])),
            hands=hands, rolled=rolled,
            last=_usurpation_from(n.get("last")),
        )

    def _store_narration(self: "Tracker", txn: "_Txn", c: harha.NarrationContest) -> None:
        old = self.state["narration"]
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
        for cid, ch in self.characters.items():
            if "rolled_this_scene" in ch:
                mine = sorted(bg for w, bg in c.rolled if w == ch["name"])
                if mine != sorted(ch["rolled_this_scene"]):
                    txn.set(["characters", cid, "rolled_this_scene"], mine)

    def narration_ids(self: "Tracker", names: Sequence[str | None]) -> list[str]:
        """The ids of the characters the narration contest knows by name (H9), in order, each once."""
        out: list[str] = []
        for name in names:
            low = (name or "").strip().lower()
            cid = next((cid for cid, ch in self.characters.items() if ch["name"].strip().lower() == low), None)
            if low and cid is not None and cid not in out:
                out.append(cid)
        return out

    def _narration_step(self: "Tracker", fn: Callable[[harha.NarrationContest, DiceSource], harha.Step],
                        faces: Sequence[int] | None, text_prefix: str = "",
                        roll_sides: Callable[[harha.Step, list[str]], list] | None = None,
                        names: Callable[[harha.NarrationContest], Sequence[str | None]] = lambda c: ()
                        ) -> harha.Step:
        out: dict[str, Any] = {}

        def build(txn: "_Txn") -> None:
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
                                "outcome": {}, "explain": [step.text], **origin}
            txn.emit("narration", text_prefix + step.text, who=who or None, **data)
            out["step"] = step

        self._run(build)
        return out["step"]

    def narration_roll_background(self: "Tracker", who: str, background: str, size: int = 8,
                                  faces: Sequence[int] | None = None) -> harha.Step:
        return self._narration_step(lambda c, s: c.roll_background(who, background, s, size), faces,
                                    roll_sides=lambda st, ids: [{"role": "a", "label": who, "who": ids,
                                                                 "dice": [die_dict(st.detail)]}],
                                    names=lambda c: [who])

    def narration_open(self: "Tracker", narrator: str, dice: Sequence[Die]) -> harha.Step:
        return self._narration_step(lambda c, s: c.open(narrator, dice), None, names=lambda c: [narrator])

    def narration_usurp(self: "Tracker", who: str, dice: Sequence[Die]) -> harha.Step:
        # the usurper, and the narrator whose dice burn
        return self._narration_step(lambda c, s: c.usurp(who, dice), None, names=lambda c: [who, c.narrator])

    def narration_harm(self: "Tracker", faces: Sequence[int] | None = None) -> harha.Step:
        def fn(c: harha.NarrationContest, s: DiceSource) -> harha.Step:
            dice = () if c.ability_fight else roll_specs(c.harm_dice(), s)
            return c.harm_roll(dice)

        # the harm falls on the last usurper
        return self._narration_step(fn, faces, roll_sides=lambda st, ids: [
            {"role": "gm", "label": "GM", "who": [], "dice": [die_dict(d) for d in st.detail.gm_dice]}],
            names=lambda c: [c.last.who if c.last is not None else None])

    def narration_conflict(self: "Tracker", kind: str, ability_fight: bool) -> harha.Step:
        return self._narration_step(lambda c, s: c.with_conflict(kind, ability_fight), None)

    # -- Varjojuoksu ------------------------------------------------------------------

    def sr_plan(self: "Tracker", side: SRSide) -> sr.PoolPlan:
        if side.long_shot:
            ch = self.character(side.who[0]) if side.who else None
            return sr.long_shot(ch["edge_rating"] if ch else 0)
        if side.dice is not None:
            mods = list(side.modifiers)
            size = side.dice + sum(n for _, n in mods) + side.wound_modifier
            parts = ((side.label, side.dice),) + tuple(mods) + ((("wounds", side.wound_modifier),) if side.wound_modifier else ())
            return sr.PoolPlan(size, parts, (f"{side.label}: {side.dice} dice" + "".join(
                f" {'+' if n >= 0 else '−'} {abs(n)} ({l})" for l, n in parts[1:]) + f" = {size}",))
        return sr.build_pool(side.skill, side.attribute, side.second_attribute, side.modifiers,
                             side.defaulting_allowed, side.wound_modifier, skill_name=side.skill_name or "skill",
                             attribute_name=side.attribute_name, second_attribute_name=side.second_attribute_name or "attribute")

    def _sr_roll_side(self: "Tracker", txn: "_Txn", side: SRSide, src: DiceSource, *, hurried: bool = False,
                      helper_dice: int = 0) -> tuple[sr.PoolPlan, sr.SRRoll]:
        plan = self.sr_plan(side)
        ch = self.character(side.who[0]) if side.who else None
        if side.long_shot:
            if ch is None:
                raise RulesError("a Long Shot needs a character with Edge (S3)")
            self._spend_edge_in(txn, side.who[0], "Long Shot (S3)")
            return plan, sr.roll_long_shot(ch["edge_rating"], src, settings=self.settings)
        edge = None
        if side.edge_before:
            if ch is None:
                raise RulesError("Edge needs a character (S7)")
            self._spend_edge_in(txn, side.who[0], "Edge before the roll: rule of six (S7)")
            edge = ch["edge_rating"]
        r = sr.roll(plan.size, src, edge, settings=self.settings,
                    hurried=hurried, helper_dice=helper_dice)
        return plan, r

    def _spend_edge_in(self: "Tracker", txn: "_Txn", cid: str, reason: str) -> None:
        ch = self.character(cid)
        if ch["edge"] < 1:
            raise RulesError(f"{ch['name']} has no Edge left this session")
        left = ch["edge"] - 1
        txn.set(["characters", cid, "edge"], left)
        txn.emit("resource", f"{ch['name']} spends Edge: {reason} ({left}/{ch['edge_rating']} left)",
                 who=cid, resource="edge", amount=-1)

    def roll_sr(self: "Tracker", side: SRSide, *, threshold: int | None = None, hidden: bool = False,
                challenge: str | None = None, faces: Sequence[int] | None = None,
                buy_hits: bool = False) -> dict[str, Any]:
        """S1–S8: a success test (or a plain roll counting hits)."""
        out: dict[str, Any] = {}

        def build(txn: "_Txn") -> None:
            src, origin = self._source(faces)
            if buy_hits:
                plan = self.sr_plan(side)
                r = sr.buy_hits(plan.size)
            else:
                plan, r = self._sr_roll_side(txn, side, src)
            self._check_manual_used(src)
            ev = self._sr_record(txn, side, plan, r, threshold, hidden, challenge, origin)
            out["event"], out["roll"] = ev, r

        self._run(build)
        return out

    def _sr_record(self: "Tracker", txn: "_Txn", side: SRSide, plan: sr.PoolPlan, r: sr.SRRoll,
                   threshold: int | None, hidden: bool, challenge: str | None, origin: dict[str, Any],
                   extra_explain: Sequence[str] = (), **extra: Any) -> dict[str, Any]:
        if threshold is not None:
            res = sr.success_test(r, threshold, hidden)
            outcome = sr.result_json(res)
            summary = _sr_summary(r, res)
        else:
            res = r
            outcome = sr.result_json(r)
            summary = _sr_summary(r, None)
        outcome.pop("dice", None)
        explain = list(extra_explain) + r.explain()
        if threshold is not None:
            explain.append(f"threshold {threshold}{' (hidden from players)' if hidden else ''}: "
                           f"{'success' if res.success else 'failure'}, net hits {res.net_hits}")
            self._resolve_challenge_in(txn, challenge, summary)
        explain += list(plan.explain())
        ev = self._roll_event(txn, "shadowrun", [
            {"role": "a", "label": side.label, "who": side.who, "dice": [die_dict(d) for d in r.dice]}],
            summary, outcome, explain, origin, challenge, f"{side.label}: {summary}",
            threshold=threshold, hidden=hidden or None, **extra)
        ev["_recent"] = ("sr", side, r, threshold, hidden, challenge)
        return ev

    def sr_post_roll(self: "Tracker", roll_event: dict[str, Any], what: str, *,
                     faces: Sequence[int] | None = None) -> dict[str, Any]:
        """S5–S7 after the roll: ``edge_after``, ``negate_glitch`` or ``reduce_critical`` (1 Edge each)."""
        key = roll_event["seq"]
        rec = self._recent.get(key)
        if rec is None or rec[0] != "sr":
            raise self._refuse("Edge after the roll works on a Varjojuoksu roll of this sitting only")
        _, side, r, threshold, hidden, challenge = rec
        if not side.who:
            raise self._refuse("Edge needs a character (S5–S7)")
        cid = side.who[0]
        ch = self.character(cid)
        out: dict[str, Any] = {}

        def build(txn: "_Txn") -> None:
            src, origin = self._source(faces)
            if what == "edge_after":
                new = sr.edge_after(r, ch["edge_rating"], src)
                reason = "Edge after the roll: +%d dice, rule of six on them (S7)" % ch["edge_rating"]
            elif what == "negate_glitch":
                new = sr.negate_glitch(r)
                reason = "negate a glitch (S5)"
            elif what == "reduce_critical":
                new = sr.reduce_critical(r)
                reason = "reduce a critical glitch to a glitch (S6)"
            else:
                raise RulesError(f"unknown post-roll action '{what}'")
            self._check_manual_used(src)
            self._spend_edge_in(txn, cid, reason)
            plan = self.sr_plan(side) if not side.long_shot else sr.long_shot(ch["edge_rating"])
            if what != "edge_after":
                origin = {k: v for k, v in roll_event["roll"].items() if k in ("manual", "seed")}
            ev = self._sr_record(txn, side, plan, new, threshold, hidden, challenge, origin,
                                 [f"{ch['name']}: {reason}"], supersedes=key)
            out["event"], out["roll"] = ev, new

        self._run(build)
        return out

    def roll_sr_opposed(self: "Tracker", a: SRSide, b: SRSide, *, group: Sequence[int] = (),
                        challenge: str | None = None,
                        faces: tuple[Sequence[int], Sequence[int]] | None = None) -> dict[str, Any]:
        """S9: both roll; more hits wins by the difference; a tie goes to the defender (B) if needed.

        ``group``: pool sizes of B's companions (largest + 1 per extra member, at most +5).
        """
        out: dict[str, Any] = {}

        def build(txn: "_Txn") -> None:
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
                b_side = SRSide(b.label, b.who, dice=size)
                extra_lines.append(f"group of {len(group) + 1}: largest pool + {min(5, len(group))} = {size} (S9)")
            plan_b, rb = self._sr_roll_side(txn, b_side, sb)
            self._check_manual_used(sa)
            if sb is not sa:
                self._check_manual_used(sb)
            res = sr.opposed(ra, rb)
            summary = _sr_opposed_summary(res, a.label, b.label)
            self._resolve_challenge_in(txn, challenge, summary)
            out["event"] = self._roll_event(txn, "shadowrun-opposed", [
                {"role": "a", "label": a.label, "who": a.who, "dice": [die_dict(d) for d in ra.dice]},
                {"role": "b", "label": b.label, "who": b.who, "dice": [die_dict(d) for d in rb.dice]},
            ], summary, sr.result_json(res), res.explain() + list(plan_a.explain()) + extra_lines
                + list(plan_b.explain()), origin, challenge, f"{a.label} vs {b.label}: {summary}")
            out["result"] = res

        self._run(build)
        return out

    def roll_sr_teamwork(self: "Tracker", leader: SRSide, helpers: Sequence[SRSide], *,
                         threshold: int | None = None, challenge: str | None = None,
                         faces: Sequence[int] | None = None) -> dict[str, Any]:
        """S11: helpers roll first; their hits are extra dice for the leader, whose roll counts."""
        out: dict[str, Any] = {}

        def build(txn: "_Txn") -> None:
            src, origin = self._source(faces)
            sides = []
            helper_rolls = []
            lines = []
            for h in helpers:
                plan, r = self._sr_roll_side(txn, h, src)
                helper_rolls.append(r)
                sides.append({"role": "helper", "label": h.label, "who": h.who,
                              "dice": [die_dict(d) for d in r.dice]})
                lines.append(f"helper {h.label}: {r.hits} hits")
            extra = sum(r.hits for r in helper_rolls)
            plan, r = self._sr_roll_side(txn, leader, src, helper_dice=extra)
            self._check_manual_used(src)
            sides.append({"role": "a", "label": leader.label, "who": leader.who,
                          "dice": [die_dict(d) for d in r.dice]})
            res = sr.success_test(r, threshold) if threshold is not None else r
            summary = _sr_summary(r, res if threshold is not None else None)
            summary = f"teamwork (+{extra} dice from helpers): {summary}"
            if threshold is not None:
                self._resolve_challenge_in(txn, challenge, summary)
            outcome = sr.result_json(res)
            outcome.pop("dice", None)
            out["event"] = self._roll_event(txn, "shadowrun-teamwork", sides, summary, outcome,
                                            lines + r.explain() + list(plan.explain()), origin, challenge,
                                            f"{leader.label} leads: {summary}", threshold=threshold)

        self._run(build)
        return out

    def roll_sr_extended(self: "Tracker", side: SRSide, challenge: str, *, threshold: int | None = None,
                         hurried: bool | None = None, interval: str = "interval",
                         faces: Sequence[int] | None = None) -> dict[str, Any]:
        """S10: one interval of an extended test; progress is kept on the challenge.

        ``threshold`` and ``hurried`` are what is in force for this interval:
        the GM may change them between intervals (None keeps the current ones),
        and the progress is judged against the threshold in force now.
        """
        c = self.challenge(challenge)
        ext = c.get("extended")
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

        def build(txn: "_Txn") -> None:
            src, origin = self._source(faces)
            test = sr.ExtendedTest(ext["threshold"], ext.get("interval", "interval"), ext["hurried"],
                                   ext["accumulated"], ext["intervals"], ext["ended"], ext["spoiled"])
            plan, r = self._sr_roll_side(txn, side, src, hurried=ext["hurried"])
            self._check_manual_used(src)
            test = test.add(r)
            idx = self.challenge_index(challenge)
            new_ext = {**ext, "accumulated": test.accumulated, "intervals": test.intervals, "ended": test.ended,
                       "glitched": test.glitched}
            txn.set(["challenges", idx, "extended"], new_ext)
            summary = (f"interval {test.intervals}: {r.hits} hit{'s' if r.hits != 1 else ''}, "
                       f"{test.accumulated}/{test.threshold}"
                       + (" — critical glitch, the test ends" if r.critical_glitch else
                          " — glitch (GM: spoil?)" if r.glitch else "")
                       + (" — done" if test.done else ""))
            if test.done or test.ended:
                self.resolve_challenge(challenge, summary, txn)
            outcome = sr.result_json(r)
            outcome.pop("dice", None)
            outcome.update({"accumulated": test.accumulated, "threshold": test.threshold,
                            "intervals": test.intervals, "done": test.done, "ended": test.ended})
            out["event"] = self._roll_event(txn, "shadowrun-extended", [
                {"role": "a", "label": side.label, "who": side.who, "dice": [die_dict(d) for d in r.dice]}],
                summary, outcome, changed + test.explain() + r.explain() + list(plan.explain()), origin, challenge,
                f"{side.label}, extended test: {summary}")

        self._run(build)
        return out

    def sr_extended_spoil(self: "Tracker", challenge: str) -> None:
        c = self.challenge(challenge)
        ext = c.get("extended")
        if not ext or not ext.get("glitched"):
            raise self._refuse("only a glitch can spoil an extended test (S10)")

        def build(txn: "_Txn") -> None:
            idx = self.challenge_index(challenge)
            txn.set(["challenges", idx, "extended"], {**ext, "spoiled": True, "ended": True})
            self.resolve_challenge(challenge, "spoiled by a glitch", txn)
            txn.emit("challenge", f"{c['title']}: the GM rules the glitch spoils the extended test (S10)",
                     challenge=challenge)

        self._run(build)

    def roll_initiative(self: "Tracker", entries: Sequence[tuple[str, int]], *,
                        faces: Sequence[int] | None = None) -> dict[str, Any]:
        """S12: Reaction + Intuition + hits on an initiative roll; highest first, ties by Edge."""
        out: dict[str, Any] = {}

        def build(txn: "_Txn") -> None:
            src, origin = self._source(faces)
            sides, init = [], []
            for cid, passes in entries:
                ch = self.character(cid)
                a = ch["attributes"]
                base = a["reaction"] + a["intuition"]
                r = sr.roll(sr.initiative_pool(a["reaction"], a["intuition"]), src, settings=self.settings)
                score = sr.initiative_score(a["reaction"], a["intuition"], r.hits)
                sides.append({"role": "a", "label": f"{ch['name']} {base}+{r.hits}={score}", "who": [cid],
                              "dice": [die_dict(d) for d in r.dice]})
                init.append(sr.InitEntry(cid, score, ch["edge_rating"], passes))
            self._check_manual_used(src)
            order = sr.initiative_order(init)
            txn.set(["initiative"], [{"id": e.name, "score": e.score, "passes": e.passes} for e in order])
            names = ", ".join(f"{self.character(e.name)['name']} {e.score}" for e in order)
            out["event"] = self._roll_event(txn, "initiative", sides, f"order: {names}", {},
                                            ["initiative = Reaction + Intuition + hits (S12)",
                                             "highest first; ties by Edge"], origin, None, f"Initiative: {names}")

        self._run(build)
        return out


_ROLL_SETTINGS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("rajapolku", ("raja.exhausted", "raja.full_tie", "raja.degrees", "raja.wound_penalty")),
    ("spirit", ("raja.exhausted", "raja.full_tie", "raja.degrees", "raja.spirit_loss")),
    ("harhapolku-difficult", ()),
    ("harhapolku", ("harha.variant",)),
    ("shadowrun-teamwork", ("sr.glitch_rerolls", "sr.teamwork_cap")),
    ("shadowrun", ("sr.glitch_rerolls",)),
)
"""Which settings each kind of roll depends on (by test name prefix, first match)."""


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


def _raja_summary(r: raja.RajaResult, a: str, b: str) -> str:
    if r.winner == "tie":
        return "tie — both reroll (R5)" if r.tie_action == "reroll" else f"tie — {b} holds (R5)"
    name = a if r.winner == "a" else b
    deg = f"{r.degrees} degree{'s' if r.degrees != 1 else ''}"
    extra = ""
    if r.supernatural:
        extra = f", {r.supernatural} supernatural"
        if r.deciding_die_is_ability:
            extra += " (visibly!)"
    if not r.degrees:
        return f"{name} wins narrowly (0 degrees){extra}"
    return f"{name} wins, {deg}{extra}"


def _harha_summary(r: Any, a: str, b: str, variant: str) -> str:
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
        parts.append("CRITICAL GLITCH")
    elif r.glitch:
        parts.append("GLITCH")
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
            glitches.append(f"{label} CRITICAL GLITCH")
        elif r.glitch:
            glitches.append(f"{label} glitch")
    return f"{name} wins {res.a_hits}–{res.b_hits}, {res.net_hits} net" + (f" ({', '.join(glitches)})" if glitches else "")


__all__ = ["RollCommands", "RajaSide", "HarhaSide", "SRSide", "die_dict", "die_from", "settings_text", "System",
           "field"]
