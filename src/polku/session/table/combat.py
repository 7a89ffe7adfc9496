"""Turns and effects: the fight's state and its commands (``tracker.combat``).

The rules (order, passes, tie-breaks, the wound effect on the score, how an
effect counts down) are in :mod:`polku.rules.turns`; this module keeps the
state and turns the GM's keys into logged, undoable tracker commands.

State (see :mod:`polku.session.model`)::

    initiative [{id, score, passes, kind?}]   the scores as rolled (S12); kind: the score acted
                                         on (astral, matrix; absent: physical)
    combat     {turn, pass, acting, acted, held, surprised?}   absent out of a fight; surprised:
                                         who takes no action in pass 1 of this combat turn
    characters.X.effects [{name, modifier, unit, left}]   modifier: dice, 0 = none

``pass`` 0 means the combat turn is over and the next one waits for its
initiative roll (setting ``sr.initiative`` = ``reroll``). Out of a fight,
"next" starts the next challenge of the queue (every system: the queue's
order is the turn order of Rajapolku and Harhapolku).

No textual, no rich.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

from ... import i18n
from ...i18n import N_
from ...rules import turns
from ...rules.dice import RulesError
from ...rules.system import System
from ..host import Txn as _Txn
from ..model import Change, InitiativeEntry
from ..model import Combat as CombatBlock
from ..records import Character, Effect, InitiativePlace
from ..records import sr as sr_sheet
from ..telling import line

if TYPE_CHECKING:
    from ..host import CombatHost, InitiativeRolled


class NamedPlace(TypedDict):
    """One fighter in an initiative order's fact (:mod:`polku.session.telling`): the name, the score in force."""

    name: str
    current: int


class EffectFact(TypedDict):
    """An effect as a fact's value (:mod:`polku.session.telling`)."""

    effect_name: str
    modifier: int
    unit: str
    count: int


@dataclass(frozen=True, slots=True)
class TurnRow:
    """One fighter as the panes and the players' view show it."""

    cid: str
    name: str
    score: int
    """As rolled."""
    current: int
    """In force: lowered by the wound modifier (S12)."""
    passes: int
    wound: int
    status: str
    """``acting``, ``held``, ``acted``, ``waiting`` (acts later in this pass), ``out`` (no action this pass)
    or ``down`` (cannot act: skipped, :meth:`Combat.down`)."""
    hidden: bool = False
    """The players' view of a GM-only initiative roll: ``score`` and ``current`` only keep the order."""
    condition: str = ""
    """Why a fighter who is ``down`` cannot act: ``unconscious``, ``dying (overflow 2/4)``, ``dead``."""
    surprised: bool = False
    """Surprised this combat turn (no action in pass 1); the status is ``surprised`` during pass 1."""
    kind: str = "physical"
    """The initiative score the fighter acts on (``rules.shadowrun.INITIATIVE_KINDS``)."""


class Combat:
    """The fight of one tracker: read the turn order, move the marker, carry effects."""

    def __init__(self, tracker: CombatHost) -> None:
        self._t = tracker

    # -- reading -----------------------------------------------------------------

    @property
    def block(self) -> CombatBlock | None:
        """The ``combat`` block of the state, or None out of a fight."""
        return self._t.state.get("combat")

    @property
    def active(self) -> bool:
        return self.block is not None

    def entries(self) -> list[turns.TurnEntry]:
        """The initiative entries with each fighter's tie-breakers and wound modifier now."""
        chars = self._t.characters
        return [self._entry(e) for e in self._t.state["initiative"] if e["id"] in chars]

    def down(self, cid: str) -> str:
        """Why ``cid`` cannot act — ``unconscious``, ``dying (overflow 2/4)`` or ``dead`` (S12 monitors) —
        or "" when they can.

        The one answer to "can this fighter act": the turn marker and "next" skip a fighter
        who is down (kept in place, shown as such), the next initiative roll leaves them out
        by default, player character or not, and the players' turn order shows the same.
        """
        t = self._t
        if t.system is not System.SHADOWRUN or cid not in t.characters:
            return ""
        return str(t.damage.condition_text(cid))

    def _entry(self, e: InitiativeEntry, surprised: Sequence[str] | None = None) -> turns.TurnEntry:
        """``e`` as the turn rules see it; ``surprised``: this turn's surprised fighters (default: the
        fight's now)."""
        from ...rules.shadowrun import wound_modifier

        if surprised is None:
            b = self.block
            surprised = b.get("surprised", []) if b is not None else []
        ch = self._t.character(e["id"])
        edge_rating = reaction = intuition = wound = 0
        if "attributes" in ch:  # a Varjojuoksu sheet (the others have no tie-breakers nor wounds)
            a = ch["attributes"]
            edge_rating, reaction, intuition = ch["edge_rating"], a.get("reaction", 0), a.get("intuition", 0)
            wound = wound_modifier(ch["physical"], ch["stun"])
        return turns.TurnEntry(e["id"], e["score"], e["passes"], edge_rating, reaction, intuition, wound,
                               bool(self.down(e["id"])), e["id"] in surprised)

    def _placed(self, order: Iterable[turns.TurnEntry]) -> list[InitiativePlace]:
        """An initiative roll's order as logged: who and the score in force, with the facts it follows from
        (S12): the score as rolled, the boxes of each monitor (the wound modifier lowering it) and the
        tie-breakers (Edge rating, Reaction, Intuition), so that ``polku verify`` judges the order again."""
        out: list[InitiativePlace] = []
        for o in order:
            place: InitiativePlace = {"id": o.cid, "current": o.current, "score": o.score,
                                      "tie": [o.edge, o.reaction, o.intuition]}
            ch = self._t.character(o.cid)
            if "attributes" in ch:
                sheet = sr_sheet(ch)
                place["monitors"] = [int(sheet["physical"]), int(sheet["stun"])]
            out.append(place)
        return out

    def order(self) -> list[turns.TurnEntry]:
        return turns.turn_order(self.entries())

    def rows(self) -> list[TurnRow]:
        """The turn order as shown: who acts now, who holds, who has acted this pass."""
        b = self.block
        pass_no = b["pass"] if b is not None else 1
        acting = b["acting"] if b is not None else None
        held = b["held"] if b is not None else []
        acted = b["acted"] if b is not None else []
        hidden = {e["id"] for e in self._t.state["initiative"] if e.get("hidden")}
        kinds = {e["id"]: e.get("kind", "physical") for e in self._t.state["initiative"]}
        out = []
        for e in self.order():
            if e.down:
                status = "down"
            elif e.surprised and pass_no == 1:
                status = "surprised"
            elif e.cid == acting:
                status = "acting"
            elif e.cid in held:
                status = "held"
            elif e.cid in acted:
                status = "acted"
            elif pass_no and turns.acts_in(e, pass_no):
                status = "waiting"
            else:
                status = "out"
            out.append(TurnRow(e.cid, self._t.characters[e.cid]["name"], e.score, e.current, e.passes,
                               e.wound, status, e.cid in hidden, self.down(e.cid) if e.down else "",
                               e.surprised, kinds.get(e.cid, "physical")))
        return out

    def acting(self) -> str | None:
        b = self.block
        return (b["acting"] or None) if b else None

    def headline(self) -> str:
        """``Combat turn 2 · pass 1``, ``Turn 2 over: i rolls turn 3``; empty out of a fight."""
        b = self.block
        if b is None:
            return ""
        if b["pass"] == 0:
            return i18n._("Turn {turn} over: i rolls turn {next}", turn=b["turn"], next=b["turn"] + 1)
        return i18n._("Combat turn {turn} · pass {pass_}", turn=b["turn"], pass_=b["pass"])

    def effect_modifiers(self, cid: str) -> list[tuple[str, int]]:
        """``(label, dice)`` of each effect on ``cid`` that changes dice pools: a row of the pool builder."""
        ch = self._t.character(cid)
        return [(f"effect: {e['name']}", e["modifier"]) for e in ch.get("effects", []) if e["modifier"]]

    # -- initiative and the marker --------------------------------------------------

    def _shared_group(self, ch: Character) -> str | None:
        """The group ``ch`` shares one initiative roll with, if any (``group["initiative"] == "shared"``)."""
        gid = ch.get("group")
        g = self._t.state.get("groups", {}).get(gid) if gid is not None else None
        return gid if g is not None and g["initiative"] == "shared" else None

    def default_fighters(self) -> dict[str, tuple[bool, int]]:
        """Who the next initiative roll is for, by default, and with how many passes: ``cid → (in, passes)``.

        Out of a fight, everyone standing. In one, those in the order now, and those who
        joined the table since it was rolled (reinforcements: "4× Ganger" added mid-fight);
        a fighter who cannot act (:meth:`down`: unconscious, dying or dead, player character
        or not) is left out either way. Passes: as in the order now, else the sheet's
        (``initiative_passes``, e.g. imported from Chummer), else 1.
        """
        t = self._t
        current = {e["id"]: e["passes"] for e in t.state["initiative"]}
        joined: set[str] = set()
        if current:
            for ev in reversed(t.events):
                if t.is_undone(ev["seq"]) or ev["kind"] in ("undo", "redo"):
                    continue
                changes = ev.get("changes", [])
                if sets_initiative_scores(changes):
                    break  # the roll now in force (someone leaving the fight since is no new roll)
                joined.update(str(p[1]) for ch in changes for p in [ch.get("path")]
                              if p is not None and len(p) == 2 and p[0] == "characters"
                              and ch.get("before") is None and ch.get("after") is not None)
        return {cid: ((cid in current or cid in joined or not current) and not self.down(cid),
                      current.get(cid, int(ch.get("initiative_passes", 1)) if "attributes" in ch else 1))
                for cid, ch in t.characters.items()}

    def default_kinds(self) -> dict[str, str]:
        """The initiative score each fighter acts on by default: the one of the order now (the GM's
        choice when the turn began, remembered from turn to turn), else physical."""
        current = {e["id"]: e.get("kind", "physical") for e in self._t.state["initiative"]}
        return {cid: current.get(cid, "physical") for cid in self._t.characters}

    def initiative_kinds(self, cid: str) -> list[str]:
        """The initiative scores on ``cid``'s sheet: physical always, astral and matrix where added."""
        from ...rules import shadowrun as sr

        extra = sr_sheet(self._t.character(cid)).get("initiative_scores", {})
        return [k for k in sr.INITIATIVE_KINDS if k == "physical" or k in extra]

    def sheet_initiative(self, cid: str, kind: str = "physical") -> tuple[int, int]:
        """``(bonus, passes)`` of one initiative score on ``cid``'s sheet."""
        ch = sr_sheet(self._t.character(cid))
        if kind == "physical":
            return int(ch.get("initiative_bonus", 0)), int(ch.get("initiative_passes", 1))
        score = ch.get("initiative_scores", {}).get(kind)
        if score is None:
            raise _refuse(f"{ch['name']} has no {kind} initiative on the sheet")
        return int(score["bonus"]), int(score["passes"])

    def edge_refusal(self, cid: str) -> str:
        """Why ``cid`` cannot spend Edge on the next initiative roll (S7), or "" when they can."""
        if self._t.system is not System.SHADOWRUN:
            return "Edge is spent in Varjojuoksu"
        ch = sr_sheet(self._t.character(cid))
        if ch.get("edge", 0) < 1:
            return f"{ch['name']} has no Edge left this session"
        gid = self._shared_group(ch)
        if gid is not None:
            return (f"{ch['name']} shares the group's one initiative roll: make the group's rolls "
                    "separate (the sheet's Group row) to spend Edge")
        return ""

    def initiative_dice(self, entries: Sequence[tuple[str, int]], *, edge: Sequence[str] = (),
                        kinds: Mapping[str, str] | None = None) -> list[tuple[str, int]]:
        """``(name, dice)`` of each initiative roll ``entries`` make, in the order faces are entered.

        Reaction + Intuition dice per fighter (S12; astral or matrix: that score's dice, ``kinds``),
        + the Edge rating for a fighter in ``edge`` (S7: those rolls follow the rule of six, so their
        sixes add dice); a group sharing its initiative rolls once, for the first of its members listed.
        """
        from ...rules import shadowrun as sr

        out: list[tuple[str, int]] = []
        seen: set[str] = set()
        for cid, _ in entries:
            ch = sr_sheet(self._t.character(cid))
            gid = self._shared_group(ch)
            if gid is not None:
                if gid in seen:
                    continue
                seen.add(gid)
            a = ch["attributes"]
            kind = (kinds or {}).get(cid, "physical")
            bonus = self.sheet_initiative(cid, kind)[0]
            extra = int(ch["edge_rating"]) if cid in edge else 0
            out.append((ch["name"], sr.initiative_pool(a["reaction"], a["intuition"], bonus, kind) + extra))
        return out

    def set_initiative(self, cid: str, bonus: int, passes: int, why: str = "", kind: str = "physical") -> None:
        """The sheet's initiative bonus and passes (augmentations or magic: wired reflexes 2 is +2 and
        2 passes), one command; the next initiative roll takes them (S12). ``kind`` astral or matrix:
        that score's (added to the sheet if it was not there)."""
        from ...rules import shadowrun as sr

        t = self._t
        ch = sr_sheet(t.character(cid))
        if t.system is not System.SHADOWRUN:
            raise _refuse("an initiative bonus and passes are on Varjojuoksu sheets")
        if kind not in sr.INITIATIVE_KINDS:
            raise _refuse(f"an initiative score is {', '.join(sr.INITIATIVE_KINDS)}, not '{kind}'")
        if not 0 <= bonus <= sr.MAX_INITIATIVE_BONUS:
            raise _refuse(f"an initiative bonus is 0 to {sr.MAX_INITIATIVE_BONUS}, not {bonus}")
        try:
            turns.check_passes(passes)
        except RulesError as e:
            raise _refuse(str(e)) from None

        def build(txn: _Txn) -> None:
            if kind == "physical":
                txn.set(["characters", cid, "initiative_bonus"], bonus)
                txn.set(["characters", cid, "initiative_passes"], passes)
            else:
                scores = {**ch.get("initiative_scores", {}), kind: {"bonus": bonus, "passes": passes}}
                txn.set(["characters", cid, "initiative_scores"], scores)
            what = "initiative" if kind == "physical" else f"{kind} initiative"
            txn.emit("character", f"{ch['name']}: {what} +{bonus}, {passes} pass{'es' if passes != 1 else ''}"
                     + (f" ({why})" if why else ""), who=cid,
                     fact={"id": "character.initiative", "name": ch["name"], "kind": kind, "bonus": bonus,
                           "passes": passes, "why": why or None})

        t.run(build)

    def remove_initiative(self, cid: str, kind: str) -> None:
        """Take an astral or matrix initiative score off ``cid``'s sheet (one command)."""
        t = self._t
        ch = sr_sheet(t.character(cid))
        scores = dict(ch.get("initiative_scores", {}))
        if kind not in scores:
            raise _refuse(f"{ch['name']} has no {kind} initiative on the sheet")
        del scores[kind]

        def build(txn: _Txn) -> None:
            if scores:
                txn.set(["characters", cid, "initiative_scores"], scores)
            else:
                txn.delete(["characters", cid, "initiative_scores"])
            txn.emit("character", f"{ch['name']}: no {kind} initiative", who=cid,
                     fact={"id": "character.initiative_removed", "name": ch["name"], "kind": kind})

        t.run(build)

    def roll_initiative(self, entries: Sequence[tuple[str, int]], *,
                        faces: Sequence[int] | None = None, edge: Sequence[str] = (),
                        surprised: Sequence[str] = (), kinds: Mapping[str, str] | None = None) -> InitiativeRolled:
        """S12: roll initiative for ``(character id, passes)`` and begin a combat turn.

        Out of a fight this starts one (combat turn 1); in a fight it begins the
        next combat turn (ending the current one if it was not over). Members of
        a group with shared initiative roll once, the first of them listed.
        ``faces``: physical dice for every roll in order, each fighter's
        Reaction + Intuition dice (a shared group's once), each roll's rule-of-six
        dice after its own.
        ``edge``: fighters who spend 1 Edge before their roll (S7: + Edge rating dice, rule of six).
        ``surprised``: fighters who take no action in pass 1 of this combat turn (SR4 surprise).
        ``kinds``: the score a fighter acts on, astral or matrix (default physical; from their sheet).
        """
        from ...rules import shadowrun as sr
        from ..rolls import die_dict

        t = self._t
        if t.system is not System.SHADOWRUN:
            raise _refuse("initiative is rolled in Varjojuoksu (S12); here the queue's order is the turn order")
        if not entries:
            raise _refuse("pick at least one character to roll initiative for")
        seen: set[str] = set()
        kinds = dict(kinds or {})
        for cid, passes in entries:
            t.character(cid)
            if cid in seen:
                raise _refuse(f"{t.character(cid)['name']} is listed twice")
            seen.add(cid)
            try:
                turns.check_passes(passes)
            except RulesError as e:
                raise _refuse(str(e)) from None
            if kinds.get(cid, "physical") not in self.initiative_kinds(cid):
                raise _refuse(f"{t.character(cid)['name']} has no {kinds[cid]} initiative on the sheet")
        for cid in [*edge, *surprised]:
            if cid not in seen:
                raise _refuse(f"{t.character(cid)['name']} is not in this initiative roll")
        for cid in edge:
            why = self.edge_refusal(cid)
            if why:
                raise _refuse(why)
        out: list[InitiativeRolled] = []
        entries_ids = [cid for cid, _ in entries]

        def build(txn: _Txn) -> None:
            src, origin = t.rolls.dice_source(faces)
            sides: list[dict[str, object]] = []
            rows: list[InitiativeEntry] = []
            by_group: dict[str, int] = {}
            for cid, passes in entries:
                ch = sr_sheet(t.character(cid))
                a = ch["attributes"]
                kind = kinds.get(cid, "physical")
                bonus = self.sheet_initiative(cid, kind)[0]
                base = sr.initiative_pool(a["reaction"], a["intuition"], bonus, kind)
                gid = self._shared_group(ch)
                row: InitiativeEntry = {"id": cid, "score": 0, "passes": passes}
                if kind != "physical":
                    row["kind"] = kind
                if gid is not None and gid in by_group:
                    row["score"] = by_group[gid]
                    rows.append(row)
                    continue
                spend = cid in edge
                if spend:
                    t.rolls.spend_edge_in(txn, cid, "Edge on the initiative roll (S7)", "initiative_edge",
                                          int(ch["edge_rating"]))
                r = sr.roll_initiative(a["reaction"], a["intuition"], src, bonus=bonus, kind=kind,
                                       edge_rating=int(ch["edge_rating"]) if spend else None, settings=t.settings)
                score = sr.initiative_score(a["reaction"], a["intuition"], r.hits, bonus, kind)
                if gid is not None:
                    by_group[gid] = score
                # The label as polku verify reads it (name, dice, hits, score); Edge's dice are the roll's own
                # (source "edge", the rule of six's "exploded"), the score acted on is in the explanation.
                sides.append({"role": "a", "label": f"{ch['name']} {base}+{r.hits}={score}", "who": [cid],
                              "dice": [die_dict(d) for d in r.dice]})
                row["score"] = score
                rows.append(row)
            t.rolls.check_faces_used(src)
            order = turns.turn_order(self._entry(r, surprised) for r in rows)
            txn.set(["initiative"], [next(r for r in rows if r["id"] == e.cid) for e in order])
            # The order as a fact (who, the score in force), from which every view words its line.
            placed = self._placed(order)
            names = order_words(placed, {e.cid: t.character(e.cid)["name"] for e in order})
            lines: list[str] = [line("init.rule"), line("init.ties"), line("init.wounds")]
            for k in ("astral", "matrix"):
                on = [t.character(r["id"])["name"] for r in rows if r.get("kind") == k]
                if on:
                    lines.append(line("init.kind", kind=k, names=on))
            if edge:
                lines.append(line("init.edge", names=[t.character(c)["name"] for c in entries_ids if c in edge]))
            stunned = [t.character(c)["name"] for c in entries_ids if c in surprised]
            if stunned:
                lines.append(line("init.surprised", names=stunned))
            outcome: dict[str, object] = {"order": placed}
            fact: dict[str, object] = {"id": "initiative.order", "order": _named_order(placed, t)}
            if surprised:
                outcome["surprised"] = [c for c in entries_ids if c in surprised]
                fact["surprised"] = stunned
            ev = t.rolls.emit_roll(txn, "initiative", sides, f"order: {names}", outcome, lines,
                                         origin, None, f"Initiative: {names}"
                                         + (f"; surprised: {', '.join(stunned)}" if stunned else ""), fact=fact)
            out.append({"event": ev})
            b = self.block
            if b is not None and b["pass"]:
                txn.emit("combat", f"Combat turn {b['turn']} ends early: initiative is rolled again",
                         fact={"id": "combat.turn_ends_early", "turn": b["turn"]})
                self._end_pass(txn, b)
                self._tick(txn, "turn", b["turn"])
            self._begin_turn(txn, b["turn"] + 1 if b is not None else 1, "",
                             [c for c in entries_ids if c in surprised])

        t.run(build)
        return out[0]

    def join_refusal(self, cid: str) -> str:
        """Why ``cid`` may not roll into this combat turn's order now (:meth:`join_initiative`), or ""."""
        b = self.block
        if b is None:
            return N_("no fight now: initiative is rolled when the GM starts a combat turn (S12)")
        if any(e["id"] == cid for e in self._t.state["initiative"]):
            return N_("your initiative for this combat turn is rolled already")
        if b["pass"] != 1 or b["acted"] or b["held"]:
            return N_("someone has acted in this combat turn: the GM rolls you in at the next one (S12)")
        return ""

    def join_initiative(self, cid: str, passes: int | None = None, *,
                        faces: Sequence[int] | None = None) -> InitiativeRolled:
        """S12: ``cid`` rolls their own initiative into a combat turn the GM began without them (a player's
        seat), before anyone acts in it: the order is sorted again and its first fighter acts. Passes: the
        sheet's (``initiative_passes``), else 1. One roll event, as the GM's roll makes, and undoable."""
        from ...rules import shadowrun as sr
        from ..rolls import die_dict

        t = self._t
        if t.system is not System.SHADOWRUN:
            raise _refuse("initiative is rolled in Varjojuoksu (S12)")
        ch = sr_sheet(t.character(cid))
        why = self.join_refusal(cid)
        if why:
            raise _refuse(why)
        n = int(ch.get("initiative_passes", 1)) if passes is None else passes
        try:
            turns.check_passes(n)
        except RulesError as e:
            raise _refuse(str(e)) from None
        out: list[InitiativeRolled] = []

        def build(txn: _Txn) -> None:
            src, origin = t.rolls.dice_source(faces)
            a = ch["attributes"]
            bonus = int(ch.get("initiative_bonus", 0))
            base = sr.initiative_pool(a["reaction"], a["intuition"], bonus)
            r = sr.roll(base, src, settings=t.settings)
            t.rolls.check_faces_used(src)
            score = sr.initiative_score(a["reaction"], a["intuition"], r.hits, bonus)
            rows: list[InitiativeEntry] = [*t.state["initiative"], {"id": cid, "score": score, "passes": n}]
            order = turns.turn_order(self._entry(e) for e in rows if e["id"] in t.characters)
            txn.set(["initiative"], [next(e for e in rows if e["id"] == o.cid) for o in order])
            placed = self._placed(order)
            names = order_words(placed, {o.cid: t.character(o.cid)["name"] for o in order})
            side: dict[str, object] = {"role": "a", "label": f"{ch['name']} {base}+{r.hits}={score}", "who": [cid],
                    "dice": [die_dict(d) for d in r.dice]}
            ev = t.rolls.emit_roll(txn, "initiative", [side], f"order: {names}", {"order": placed},
                                   [line("init.rule"), line("init.joins", name=ch["name"])],
                                   origin, None, f"Initiative: {names}",
                                   fact={"id": "initiative.order", "order": _named_order(placed, t)})
            out.append({"event": ev})
            b = self.block
            assert b is not None
            first = turns.next_to_act(self.order(), 1, []) or ""
            if first != b["acting"]:
                self._set(txn, acting=first, acted=[], held=[])
                txn.emit("combat", f"Combat turn {b['turn']}: {t.character(first)['name']} acts", who=[first],
                         fact={"id": "combat.turn_acts", "turn": b["turn"], "name": t.character(first)["name"]})

        t.run(build)
        return out[0]

    def next(self) -> None:
        """The acting fighter is done: the marker moves on (pass by pass, turn by turn).

        Out of a fight: start the next challenge of the queue.
        """
        t = self._t
        b = self.block
        if b is None:
            self.next_challenge()
            return
        if b["pass"] == 0:
            raise _refuse(f"combat turn {b['turn']} is over: roll initiative for combat turn {b['turn'] + 1} (i)")

        def build(txn: _Txn) -> None:
            acted = b["acted"] + ([b["acting"]] if b["acting"] else [])
            self._advance(txn, b, acted, list(b["held"]))

        t.run(build)

    def delay(self) -> None:
        """The acting fighter holds the action; the next one acts. The held one steps back in later."""
        t = self._t
        b = self.block
        if b is None or not b["acting"]:
            raise _refuse("nobody is acting now" if b is not None else "no fight is going on (i rolls initiative)")
        cid = b["acting"]
        name = t.character(cid)["name"]
        nxt = turns.next_to_act(self.order(), b["pass"], b["acted"] + b["held"] + [cid])
        if nxt is None:
            raise _refuse(f"nobody else acts in this pass: {name} acts now, or space ends the pass "
                            "and the held action is lost")

        def build(txn: _Txn) -> None:
            self._set(txn, acting=nxt, held=b["held"] + [cid])
            txn.emit("combat", f"{name} holds the action", who=[cid], fact={"id": "combat.holds", "name": name})
            txn.emit("combat", f"{self._where(b)}: {t.character(nxt)['name']} acts", who=[nxt],
                     fact={"id": "combat.acts", "turn": b["turn"], "pass": b["pass"],
                           "name": t.character(nxt)["name"]})

        t.run(build)

    def step_in(self, cid: str) -> None:
        """A fighter holding an action acts now, before whoever was about to act."""
        t = self._t
        b = self.block
        name = t.character(cid)["name"]
        if b is None or cid not in b["held"]:
            raise _refuse(f"{name} is not holding an action (d holds the acting fighter's)")
        if self.down(cid):
            raise _refuse(f"{name} cannot act: {self.down(cid)}")

        def build(txn: _Txn) -> None:
            self._set(txn, acting=cid, held=[x for x in b["held"] if x != cid])
            txn.emit("combat", f"{self._where(b)}: {name} steps in with the held action", who=[cid],
                     fact={"id": "combat.steps_in", "turn": b["turn"], "pass": b["pass"], "name": name})

        t.run(build)

    def end(self) -> None:
        """Leave the fight: initiative and the marker go; effects counted in passes or turns end."""
        t = self._t
        b = self.block
        if b is None:
            raise _refuse("no fight is going on")

        def build(txn: _Txn) -> None:
            txn.set(["initiative"], [])
            txn.delete(["combat"])
            txn.emit("combat", f"The fight ends after {b['turn']} combat turn{'s' if b['turn'] != 1 else ''}",
                     fact={"id": "combat.ends", "turns": b["turn"]})
            for unit in ("pass", "turn"):
                self._expire_unit(txn, unit, "the fight is over")

        t.run(build)

    def next_challenge(self) -> None:
        """The queue as a turn order: start the first waiting challenge after the active one."""
        t = self._t
        i = turns.next_challenge([c["status"] for c in t.state["challenges"]])
        if i is None:
            raise _refuse("no challenge waits in the queue (a adds one)"
                            + ("; i rolls initiative for a fight" if t.system is System.SHADOWRUN else ""))
        t.start_challenge(t.state["challenges"][i]["id"])

    # -- effects -------------------------------------------------------------------

    def add_effect(self, cid: str, name: str, dice: int = 0, unit: str = "removed", count: int = 0) -> None:
        """A named effect on ``cid``, with an optional dice modifier, for ``count`` ``unit``s (or until removed)."""
        t = self._t
        ch = t.character(cid)
        try:
            name, dice, unit, count = turns.check_effect(name, dice, unit, count)
        except RulesError as e:
            raise _refuse(str(e)) from None
        if unit in ("pass", "turn") and t.system is not System.SHADOWRUN:
            raise _refuse("passes and combat turns are counted in Varjojuoksu fights; "
                            "use scenes, sessions or until removed")
        effects = ch.get("effects", [])
        if any(e["name"].lower() == name.lower() for e in effects):
            raise _refuse(f"{ch['name']} already has '{name}'; remove it first (f) to change it")
        if len(effects) >= 20:
            raise _refuse(f"{ch['name']} carries 20 effects already")
        new: Effect = {"name": name, "modifier": dice, "unit": unit, "left": count}

        def build(txn: _Txn) -> None:
            txn.set(["characters", cid, "effects"], effects + [new])
            txn.emit("effect", f"{ch['name']}: {effect_text(new)}", who=cid,
                     fact={"id": "effect.added", "name": ch["name"], "effect": _effect_fact(new)})

        t.run(build)

    def remove_effect(self, cid: str, index: int) -> None:
        t = self._t
        ch = t.character(cid)
        effects = ch.get("effects", [])
        if not 0 <= index < len(effects):
            raise _refuse(f"{ch['name']} has no such effect")
        gone = effects[index]

        def build(txn: _Txn) -> None:
            txn.set(["characters", cid, "effects"], effects[:index] + effects[index + 1:])
            txn.emit("effect", f"{ch['name']}: {gone['name']} removed", who=cid,
                     fact={"id": "effect.removed", "name": ch["name"], "effect_name": gone["name"]})

        t.run(build)

    # -- hooks of the tracker's own commands ------------------------------------------

    def on_new_scene(self, txn: _Txn) -> None:
        self._tick(txn, "scene")

    def on_new_session(self, txn: _Txn) -> None:
        """A session never begins in a fight (the tracker clears the initiative)."""
        if self.block is not None:
            txn.delete(["combat"])
            txn.emit("reset", "The fight ends: the new session starts out of combat")
        for unit in ("pass", "turn"):
            self._expire_unit(txn, unit, "the fight is over")
        self._tick(txn, "session")

    def on_removed(self, txn: _Txn, cid: str) -> None:
        """``cid`` left the campaign (already gone from the state): out of the turn order too."""
        b = self.block
        if b is None:
            return
        acted = [x for x in b["acted"] if x != cid]
        held = [x for x in b["held"] if x != cid]
        acting = b["acting"]
        if acting == cid:
            acting = (turns.next_to_act(self.order(), b["pass"], acted + held) or "") if b["pass"] else ""
        self._set(txn, acting=acting, acted=acted, held=held)

    # -- inside -------------------------------------------------------------------

    @staticmethod
    def _where(b: CombatBlock) -> str:
        return f"Turn {b['turn']}, pass {b['pass']}"

    def _set(self, txn: _Txn, **values: object) -> None:
        b = self.block
        assert b is not None
        for key, value in values.items():
            txn.set(["combat", key], value)

    def _begin_turn(self, txn: _Txn, turn: int, how: str, surprised: Sequence[str] = ()) -> None:
        """A new combat turn on the order in force; ``surprised``: who takes no action in its pass 1."""
        chars = self._t.characters
        order = turns.turn_order(self._entry(e, surprised) for e in self._t.state["initiative"] if e["id"] in chars)
        first_pass = turns.first_pass(order)
        first = turns.next_to_act(order, first_pass, []) or ""
        block: CombatBlock = {"turn": turn, "pass": first_pass, "acting": first, "acted": [], "held": []}
        if surprised:
            block["surprised"] = list(surprised)
        txn.set(["combat"], block)
        who = self._t.character(first)["name"] if first else "nobody"
        where = f", pass {first_pass} (nobody acts in pass 1: surprised)" if first_pass != 1 else ""
        txn.emit("combat", f"Combat turn {turn} begins{how}{where}: {who} acts", who=[first] if first else None,
                 fact={"id": "combat.turn_begins", "turn": turn, "kept": bool(how) or None,
                       "name": self._t.character(first)["name"] if first else None,
                       "pass": first_pass if first_pass != 1 else None})

    def _advance(self, txn: _Txn, b: CombatBlock, acted: list[str], held: list[str]) -> None:
        t = self._t
        order = self.order()
        nxt = turns.next_to_act(order, b["pass"], acted + held)
        if nxt is not None:
            self._set(txn, acting=nxt, acted=acted, held=held)
            txn.emit("combat", f"{self._where(b)}: {t.character(nxt)['name']} acts", who=[nxt],
                     fact={"id": "combat.acts", "turn": b["turn"], "pass": b["pass"],
                           "name": t.character(nxt)["name"]})
            return
        self._end_pass(txn, b, held)
        following = turns.pass_after(order, b["pass"])
        if following is not None:
            first = turns.next_to_act(order, following, []) or ""
            txn.set(["combat"], {"turn": b["turn"], "pass": following, "acting": first, "acted": [], "held": []})
            txn.emit("combat", f"Turn {b['turn']}, pass {following} begins: {t.character(first)['name']} acts",
                     who=[first], fact={"id": "combat.pass_begins", "turn": b["turn"], "pass": following,
                                        "name": t.character(first)["name"]})
            return
        self._tick(txn, "turn", b["turn"])
        if t.settings.sr_initiative == "keep":
            self._begin_turn(txn, b["turn"] + 1, " (initiative kept)")
        else:
            txn.set(["combat"], {"turn": b["turn"], "pass": 0, "acting": "", "acted": [], "held": []})
            txn.emit("combat", f"Combat turn {b['turn']} is over: roll initiative for combat turn {b['turn'] + 1}",
                     fact={"id": "combat.turn_over", "turn": b["turn"]})

    def _end_pass(self, txn: _Txn, b: CombatBlock, held: Sequence[str] | None = None) -> None:
        """Pass ``b["pass"]`` is over: the held actions (``held``, default the block's) are lost."""
        for cid in b["held"] if held is None else held:
            if cid in self._t.characters:
                txn.emit("combat", f"{self._t.character(cid)['name']}'s held action is lost: the pass is over",
                         who=[cid], fact={"id": "combat.held_lost", "name": self._t.character(cid)["name"]})
        self._tick(txn, "pass", b["pass"])

    def _tick(self, txn: _Txn, ended: str, number: int | None = None) -> None:
        """Count down every effect counted in ``ended``; each that reaches 0 wears off with a log line."""
        # Why they wear off: the pass or combat turn (its number), the scene or the session that ended.
        why = {"pass": f"pass {number} is over", "turn": f"combat turn {number} is over",
               "scene": "the scene is over", "session": "the session is over"}[ended]
        why_fact: dict[str, object] = {"why": ended, "number": number}
        for cid, ch in self._t.characters.items():
            effects = ch.get("effects")
            if not effects:
                continue
            kept: list[Effect] = []
            gone: list[Effect] = []
            for e in effects:
                left = turns.count_down(e["unit"], e["left"], ended)
                if left is None:
                    gone.append(e)
                else:
                    counted = e.copy()
                    counted["left"] = left
                    kept.append(counted)
            if kept == effects:
                continue
            txn.set(["characters", cid, "effects"], kept)
            # Every change is logged with a line (a change after a command's last line would not be).
            for e in gone:
                txn.emit("effect", f"{e['name']} wears off {ch['name']}: {why}", who=cid,
                         fact={"id": "effect.worn_off", "name": ch["name"], "effect_name": e["name"], **why_fact})
            if not gone:
                still = ", ".join(effect_text(e) for e in kept if e["unit"] == ended)
                txn.emit("effect", f"{ch['name']}: {still}", who=cid,
                         fact={"id": "effect.counting", "name": ch["name"],
                               "effects": [_effect_fact(e) for e in kept if e["unit"] == ended]})

    def _expire_unit(self, txn: _Txn, unit: str, why: str) -> None:
        for cid, ch in self._t.characters.items():
            effects = ch.get("effects")
            if not effects or not any(e["unit"] == unit for e in effects):
                continue
            txn.set(["characters", cid, "effects"], [e for e in effects if e["unit"] != unit])
            for e in effects:
                if e["unit"] == unit:
                    txn.emit("effect", f"{e['name']} wears off {ch['name']}: {why}", who=cid,
                             fact={"id": "effect.worn_off", "name": ch["name"], "effect_name": e["name"],
                                   "why": "fight"})


_UNIT_WORDS = {
    "pass": "pass", "passes": "pass", "p": "pass",
    "turn": "turn", "turns": "turn", "t": "turn", "round": "turn", "rounds": "turn",
    "scene": "scene", "scenes": "scene", "s": "scene",
    "session": "session", "sessions": "session",
}


def _named_order(placed: Sequence[InitiativePlace], t: CombatHost) -> list[NamedPlace]:
    """An initiative order's fact (:mod:`polku.session.telling`): each fighter's name and score in force."""
    return [{"name": t.character(e["id"])["name"], "current": e["current"]} for e in placed]


def order_words(order: Sequence[Mapping[str, object]], names: Mapping[str, str]) -> str:
    """``Razor 9, Byte 7``: an initiative roll's order (its outcome's ``order``: who, the score in
    force after wound modifiers, S12), best first, as the GM's log and the players' views word it."""
    return ", ".join(f"{names.get(str(e.get('id')), str(e.get('id')))} {e.get('current')}" for e in order)


def sets_initiative_scores(changes: Sequence[Change]) -> bool:
    """Whether an event's ``changes`` put initiative scores in place (a roll, a hand edit).

    Dropping entries (a character removed, the fight's end) or reordering them keeps the
    scores as they were rolled: the roll in force — who rolled it, GM-only or not, and who
    joined since — is still the one before.
    """
    for ch in changes:
        if ch.get("path") != ["initiative"]:
            continue
        before, after = ch.get("before"), ch.get("after")
        if not (isinstance(before, list) and isinstance(after, list) and all(e in before for e in after)):
            return True
    return False


def parse_effect(text: str) -> tuple[str, int, str, int]:
    """A GM's one line into ``(name, dice, unit, count)``: ``Smoke -2 3 passes``, ``Stunned 1 turn``,
    ``Blessed +1`` (until removed), ``Hidden 2 scenes``.

    The name is every word before the first number; a signed number (``-2``,
    ``+1``, ``−2``) is the dice modifier; a number followed by a unit word is
    the duration.

    Raises:
        TrackerError: one line saying what is wrong.
    """
    words = text.replace("−", "-").split()
    name: list[str] = []
    dice, unit, count = 0, "removed", 0
    i = 0
    while i < len(words) and not words[i].lstrip("+-").isdigit():
        name.append(words[i])
        i += 1
    while i < len(words):
        w = words[i]
        if w[:1] in "+-" and w[1:].isdigit():
            dice = int(w)
        elif w.isdigit() and i + 1 < len(words) and words[i + 1].lower() in _UNIT_WORDS:
            count, unit = int(w), _UNIT_WORDS[words[i + 1].lower()]
            i += 1
        elif w.lower() in ("until", "removed"):
            unit, count = "removed", 0
        else:
            raise _refuse(f"'{w}' is not a dice modifier (−2, +1) or a duration (3 passes, 1 turn, 2 scenes)")
        i += 1
    try:
        return turns.check_effect(" ".join(name), dice, unit, count)
    except RulesError as e:
        raise _refuse(str(e)) from None


_KIND_WORDS = {"physical": "physical", "fyysinen": "physical", "astral": "astral", "astraali": "astral",
               "matrix": "matrix", "matriisi": "matrix"}
"""The initiative scores as a GM may name them at the start of a sheet's line, in English or Finnish."""


def parse_initiative_line(text: str, kind: str = "physical") -> tuple[str, int, int]:
    """A sheet's initiative line: ``+2 2`` for the row's own score (``kind``), or a score named
    first, ``astral +0 3``, ``matrix +4 3`` (also ``astraali``, ``matriisi``): ``(kind, bonus,
    passes)``; passes left out are the score's usual (astral 3, matrix 2, physical 1).

    Raises:
        TrackerError: anything else, in one line.
    """
    from ...rules import shadowrun as sr

    words = text.split()
    if words and words[0].lower() in _KIND_WORDS:
        kind, text = _KIND_WORDS[words[0].lower()], " ".join(words[1:])
    bonus, passes = parse_initiative(text, sr.INITIATIVE_KIND_PASSES[kind])
    return kind, bonus, passes


def parse_initiative(text: str, default_passes: int = 1) -> tuple[int, int]:
    """A sheet's initiative bonus and passes typed in one line, ``+2 2`` (wired reflexes 2): the
    bonus, then the passes (``default_passes`` when left out).

    Raises:
        TrackerError: anything else, in one line.
    """
    from ...rules import shadowrun as sr

    parts = text.replace("−", "-").split()
    try:
        bonus = int(parts[0]) if parts else 0
        passes = int(parts[1]) if len(parts) > 1 else default_passes
    except ValueError:
        raise _refuse("write the bonus, then the passes: '+2 2'") from None
    if len(parts) > 2 or not 0 <= bonus <= sr.MAX_INITIATIVE_BONUS:
        raise _refuse(f"write the bonus (0 to {sr.MAX_INITIATIVE_BONUS}), then the passes: '+2 2'")
    try:
        turns.check_passes(passes)
    except RulesError as e:
        raise _refuse(str(e)) from None
    return bonus, passes


def _refuse(message: str) -> Exception:
    from ..host import TrackerError

    return TrackerError(message)


def _effect_fact(e: Effect) -> EffectFact:
    """An effect as a fact's value (:mod:`polku.session.telling`): its name, dice, what it counts, how many left."""
    return {"effect_name": e["name"], "modifier": e["modifier"], "unit": e["unit"], "count": e["left"]}


def effect_short(e: Effect) -> str:
    """``Smoke −2 · 2 passes``, ``Blessed +1``, ``Hidden · 1 scene``: an effect in a narrow pane."""
    mod = f" {'+' if e['modifier'] > 0 else '−'}{abs(e['modifier'])}" if e["modifier"] else ""
    if e["unit"] == "removed":
        return f"{e['name']}{mod}"
    return f"{e['name']}{mod} · {turns.duration_text(e['unit'], e['left']).removesuffix(' left')}"


def effect_text(e: Effect) -> str:
    """``Stunned (−2 dice, 2 passes left)``, ``Blessed (until removed)``."""
    parts = [p for p in (turns.dice_text(e["modifier"]), turns.duration_text(e["unit"], e["left"])) if p]
    return f"{e['name']} ({', '.join(parts)})"


__all__ = ["Combat", "TurnRow", "effect_short", "effect_text", "parse_effect"]
