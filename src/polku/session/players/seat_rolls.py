"""A player's own rolls, made from a seat: what the character may roll now, checked and applied.

Beside answering the GM's requests (:mod:`polku.session.players.seats`), a seat rolls
for its own character when the fiction asks (Varjojuoksu):

- a success test with one of the character's saved pools or skills (S1, S8);
- an attack: an opposed test (S9) with the weapon on the sheet it last attacked with
  (:meth:`polku.session.table.attack.Attacks.attack_pool`). At an NPC, the defender's
  default defence is thrown with the program's dice in the same roll; at a player
  character, the attack waits for that character's seat to defend (a ``seat`` event
  with ``ask.test = "sr-defend"``, as a GM's request is; the GM's ``P`` on an opposed
  test makes the same one, :func:`ask_defence`), and the defender's roll throws both
  sides (the attacker's physical faces, if typed, kept in the request; Edge before it);
- damage resistance after the newest attack that hit the character (S12: Body + armour,
  the attacker's weapon as its sheet has it), the GM's own ``damage.apply``;
- initiative, rolled into a combat turn the GM began without the character, before
  anyone acted (S12, ``combat.join_initiative``);
- the next interval of an extended test the character rolls (S10: the GM rolled its
  first interval; the pool of the last one, ``rolls.roll_sr_extended``).

Harhapolku: a difficult action (H8) with a pool saved on the character's sheet; an edge reroll
(H7) follows it as any roll of the seat does.

Rajapolku (a seat spends story points too, R12, a request of its own):

- the active challenge the character takes part in, with a pool saved on its sheet (R1, R2: the
  action die and the backgrounds and abilities the GM saved; R7, R11: an ability's charges paid as
  on the GM's roll), against the one character opposing it as its sheet stands (R3: the action die
  and its backgrounds; wounds R9 and effects R4 on both sides, as the GM's roll has them). Both
  sides are thrown at once (R5), the opposition with the program's dice. Conditions, several
  opponents, a player character or a secret one opposing: the GM's to roll (``P`` asks the seat);
- the next exchange of a spirit combat under way in which the character fights (R11: the charges
  left are the dice; the GM began the fight, each fighter paid the entry once).

:func:`own_rolls` says what is open to a character now, each with the reason when it
is not; the GM's app publishes it for every public player character (in the players'
file, :mod:`polku.session.players.players_file`; each label and reason as a catalogue
message, so a seat words it in its reader's language), the seat shows it, and the GM's app checks
a request against the same answer (:func:`check`) before :func:`apply_own` makes it,
inside ``tracker.by_seat``: every event is the command the GM would run, marked with
the seat. The campaign's ``seats.own_rolls`` setting says whether an own roll applies
at once or waits for the GM's approval (:func:`needs_approval`).

No textual, no rich.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

from ...i18n import N_, PublishedWords, Words, said, words_of
from ...rules.dice import RulesError, Src
from ..model import Event, clone, roll_of
from ..records import HarhaCharacter, RajaCharacter, SRCharacter, harha, raja, sr
from ..rolls import SRPool
from ..tracker import TrackerError
from .seats import (
    ROLLS,
    FacesPlan,
    Offer,
    SeatAnswer,
    SeatError,
    SeatOdds,
    SeatRequest,
    Taken,
    _answer,
    _names,
    _sr_pool_dict,
    harha_side_of,
    number_of,
    pending_offers,
    raja_sides_of,
    reason_of,
    refusal,
    sr_pool_of,
    table_of,
)

if TYPE_CHECKING:
    from ..host import Txn
    from ..rolls import RollAction, SRSide
    from ..table.damage import DamageOffer
    from ..table.gear import Weapon
    from ..tracker import Tracker

OWN_TESTS = ("sr-success", "sr-attack", "sr-resist", "sr-initiative", "sr-extended", "harha-difficult",
             "raja-challenge", "raja-spirit")
"""What a seat may roll of its own accord (the request's ``test``)."""

DEFEND_TEST = "sr-defend"
"""The test of a request to defend against an attack (an offer, rolled with the ``roll`` request)."""

WAITING = N_("waiting for the GM's approval")
"""The interim answer's line while the GM has not approved an own roll (``seats.own_rolls = approve``)."""

REFUSED = N_("the GM said no to this roll; nothing was rolled")
"""The answer to an own roll the GM refused instead of approving it."""



class _PublicOwnRollBase(TypedDict):
    test: str
    key: str
    label: str
    spec: dict[str, object]
    allowed: bool
    reason: str
    edge: bool


class PublicOwnRoll(_PublicOwnRollBase, total=False):
    """An own roll as the players' file publishes it and a seat reads it (:meth:`OwnRoll.public`): the
    label's and the reason's catalogue words, where it has them, as ``[message, values]``."""

    words: PublishedWords
    why: PublishedWords


@dataclass(frozen=True)
class OwnRoll:
    """One roll a seat may make for its own character now (or may not, and why)."""

    test: str
    """One of :data:`OWN_TESTS`."""
    key: str
    """Which one: a saved pool's name (``pool:NAME``) or a skill (``skill:NAME``) for a success test, the
    target's id for an attack, the attack roll's number for a resistance test, "" for initiative."""
    label: str
    spec: dict[str, object] = field(default_factory=dict)
    """The pool as an offer keeps it (:func:`polku.session.players.seats.sr_pool_of`); for a test without
    modifiers of its own (resistance, initiative) ``{"mode": "dice", "count": n, "plain": true}``."""
    allowed: bool = True
    reason: str = ""
    edge: bool = True
    """Edge before the roll may be chosen (S7; the rules core says whether there is Edge left)."""
    words: Words | None = None
    """The label as a catalogue message and its values, so each reader words it in their own language."""
    why: Words | None = None
    """The reason, likewise (None: a reason as the rules core said it, in English)."""

    def public(self) -> PublicOwnRoll:
        out: PublicOwnRoll = {"test": self.test, "key": self.key, "label": self.label, "spec": clone(self.spec),
               "allowed": self.allowed, "reason": self.reason, "edge": self.edge}
        if self.words is not None:
            out["words"] = [self.words[0], clone(self.words[1])]
        if self.why is not None:
            out["why"] = [self.why[0], clone(self.why[1])]
        return out

    @classmethod
    def from_public(cls, d: Mapping[str, object]) -> OwnRoll:
        """An own roll as a seat reads it from the players' file (JSON of any shape).

        Raises:
            KeyError: no ``test`` (the seat leaves the roll out).
        """
        return cls(str(d["test"]), str(d.get("key", "")), str(d.get("label", "")),
                   table_of(d.get("spec"), strict=False), bool(d.get("allowed")), str(d.get("reason", "")),
                   bool(d.get("edge")), _words(d.get("words")), _words(d.get("why")))

    def told(self) -> tuple[str, str]:
        """(label, reason) in the reader's language (:mod:`polku.i18n`); as published where not worded."""
        return _tell(self.words, self.label), _tell(self.why, self.reason)

    @property
    def plain(self) -> bool:
        """A bare count of dice: no wound modifier, no modifier rows (resistance, initiative)."""
        return bool(self.spec.get("plain"))

    def dice(self) -> int:
        return number_of(self.spec.get("count", 0))

    def offer(self, cid: str) -> Offer:
        """The roll as an offer, so the seat's odds, faces and Edge choices are the requests' own."""
        if self.test == "raja-challenge":
            return Offer(0, cid, "raja", clone(self.spec), opposition=table_of(self.spec.get("against"), strict=False))
        return Offer(0, cid, "harha-difficult" if self.test == "harha-difficult" else "sr-success", clone(self.spec))


NOT_OPEN = N_("that roll is not open to you now")
EDGE_NOT_OPEN = N_("Edge before the roll is not open to you on this roll (S7)")


def _said(words: Words) -> str:
    """The words in English (the log's and the answers' language)."""
    return words[0].format(**words[1])


def _tell(words: Words | None, fallback: str) -> str:
    from ...i18n import _

    if words is None:
        return _(fallback) if fallback else ""  # a reason the catalogue has (N_) is said in the reader's language
    try:
        return _(words[0], **words[1])
    except (KeyError, IndexError, ValueError):
        return fallback


def _words(value: object) -> Words | None:
    """Published words read back: a message and its values, or None."""
    if (isinstance(value, list) and len(value) == 2 and isinstance(value[0], str) and isinstance(value[1], dict)
            and all(isinstance(k, str) and isinstance(v, (str, int)) for k, v in value[1].items())):
        return value[0], dict(value[1])
    return None


def _why(e: BaseException) -> Words | str:
    """A refusal's words (an error raised with :func:`polku.i18n.said`), else its English line: the reader's seat
    tells it in the reader's language (``str(e)`` would be the GM's)."""
    first = e.args[0] if len(e.args) == 1 else None
    words = words_of(first)
    if words is not None:
        return words[0], {k: str(v) if isinstance(v, str) else v for k, v in words[1].items()}
    return first.strip("'") if isinstance(first, str) else str(e).strip("'")


def _own(test: str, key: str, words: Words, spec: dict[str, Any], why: Words | str | None = None,
         edge: bool = True) -> OwnRoll:
    """An own roll worded by catalogue messages; ``why`` None: open now."""
    if isinstance(why, str):
        return OwnRoll(test, key, _said(words), spec, False, why, False, words)
    if why is not None:
        return OwnRoll(test, key, _said(words), spec, False, _said(why), False, words, why)
    return OwnRoll(test, key, _said(words), spec, True, "", edge, words)


def _name(t: Tracker, cid: str, unnamed: frozenset[str]) -> str | None:
    ch = t.characters.get(cid)
    if ch is None or ch.get("secret") or cid in unnamed:
        return None
    return str(ch["name"])


def own_rolls(t: Tracker, cid: str, unnamed: frozenset[str] = frozenset()) -> list[OwnRoll]:
    """What ``cid``'s seat may roll for its character now, each with its reason when it may not.

    Names only characters the players may see (``unnamed``: those the players' view leaves out).
    Varjojuoksu, Harhapolku (its saved pools' difficult actions) and Rajapolku (the active challenge with a
    saved pool, a spirit combat's next exchange).
    """
    ch = t.characters.get(cid)
    if ch is None or ch.get("secret") or cid in unnamed:
        return []
    if t.system.value == "harhapolku":
        return _difficult_actions(t, cid, harha(ch))
    if t.system.value == "rajapolku":
        return _raja_challenges(t, cid, raja(ch), unnamed) + _spirit_exchanges(t, cid, unnamed)
    if t.system.value != "shadowrun" or "attributes" not in ch:
        return []
    down = t.combat.down(cid)
    cannot: Words | None = (N_("{name} cannot act: {why}"), {"name": ch["name"], "why": down}) if down else None
    out = _success_tests(t, cid, sr(ch), cannot)
    out += _attacks(t, cid, cannot, unnamed)
    resist = _resistance(t, cid, unnamed)
    if resist is not None:
        out.append(resist)
    ini = _initiative(t, cid, cannot)
    if ini is not None:
        out.append(ini)
    out += _extended(t, cid, cannot)
    return out


_TIER_CLAIMS = {"general": "general", "plain": "background", "significant": "significant", "special": "special",
                "significant_special": "significant_special"}
"""A saved pool's tier → the claim of a Harhapolku side it names (H2)."""


def _difficult_actions(t: Tracker, cid: str, ch: HarhaCharacter) -> list[OwnRoll]:
    """Harhapolku: a difficult action (H8) with each pool saved on the character's sheet (the GM's choice of
    the backgrounds it claims); an edge reroll follows it as on any roll of the seat (H7)."""
    out = []
    for p in ch.get("pools", []):
        spec: dict[str, Any] = {_TIER_CLAIMS[k]: v for k, v in p["tiers"].items() if k in _TIER_CLAIMS and v}
        spec["gm_bonus"] = False
        own = OwnRoll("harha-difficult", f"pool:{p['name']}", p["name"], spec, edge=False)
        try:
            t.rolls.harha_difficult_notice("difficult")
            n = len(t.rolls.harha_difficult_dice(harha_side_of(t, own.offer(cid))))
        except (RulesError, TrackerError, KeyError) as e:
            out.append(_own(own.test, own.key, ("{name}", {"name": p["name"]}), spec, _why(e)))
            continue
        out.append(_own(own.test, own.key, (N_("{name}: a difficult action, {n} dice (H8)"), {"name": p["name"], "n": n}),
                        spec, edge=False))
    return out


def _raja_opposition(t: Tracker, cid: str, unnamed: frozenset[str]) -> tuple[dict[str, Any] | None, Words | None]:
    """The active challenge ``cid`` takes part in and the side opposing it (R3: the one opposing character as
    its sheet stands, the action die and its backgrounds), or why a seat cannot roll it (nobody secret named)."""
    c = t.active_challenge()
    if c is None:
        return None, (N_("no challenge is under way: the GM declares one (R1)"), {})
    if cid not in c.get("participants", []):
        return None, (N_("you take no part in the challenge under way ({title})"), {"title": c["title"]})
    if c.get("spirit"):
        return None, (N_("a spirit combat is under way on this challenge: roll its exchanges (R11)"), {})
    against = [w for w in c.get("opposition", []) if w in t.characters]
    if any(_name(t, w, unnamed) is None for w in against):
        return None, (N_("the GM rolls this challenge at the GM's screen (R3)"), {})
    if not against:
        return None, (N_("the GM builds the opposing pool of this challenge (R3): the GM asks you to roll"), {})
    if len(against) > 1:
        return None, (N_("several characters oppose you: the GM builds the opposing pool (R3)"), {})
    other = raja(t.character(against[0]))
    if other["kind"] == "pc":
        return None, (N_("{name} is a player character: the GM asks you both to roll (R5)"), {"name": other["name"]})
    side = {"label": other["name"], "who": [against[0]], "backgrounds": list(other.get("backgrounds", [])),
            "abilities": [], "helping": [], "hindering": []}
    return {"challenge": c, "against": side}, None


def _raja_challenges(t: Tracker, cid: str, ch: RajaCharacter, unnamed: frozenset[str]) -> list[OwnRoll]:
    """Rajapolku: the active challenge, with each pool saved on the character's sheet (R1–R7, R11)."""
    from ...rules.rajapolku import ability_cost, is_fallen

    pools = ch.get("pools", [])
    if not pools:
        return []
    found, why = _raja_opposition(t, cid, unnamed)
    if why is None and is_fallen(ch["wound"]):
        why = (N_("{name} is out of the fight (R9)"), {"name": ch["name"]})
    out = []
    for p in pools:
        spec: dict[str, Any] = {"label": ch["name"], "backgrounds": list(p["backgrounds"]),
                                "abilities": list(p["abilities"]), "helping": [], "hindering": []}
        key = f"pool:{p['name']}"
        if found is None or why is not None:
            out.append(_own("raja-challenge", key, (N_("{name}: a challenge"), {"name": p["name"]}), spec,
                            why or (N_("no challenge is under way: the GM declares one (R1)"), {})))
            continue
        c, against = found["challenge"], found["against"]
        key = f"{key}@{c['id']}"  # this challenge's: a request for it is not made into another one
        spec["against"] = against
        offer = Offer(0, cid, "raja", spec, opposition=against)
        try:
            mine, theirs = raja_sides_of(t, offer)
            a, b = t.rolls.raja_pools(mine, theirs)
        except (RulesError, TrackerError, KeyError) as e:
            out.append(_own("raja-challenge", key, ("{name}", {"name": p["name"]}), spec, _why(e)))
            continue
        rolled = [s.label for s in a if s.source == Src.ABILITY]
        cost = 0
        for ab in ch.get("abilities", []):
            if ab["name"] in rolled:
                cost += ability_cost(ab["per"], ab["cost"], paid_this_scene=ab["name"] in ch["paid_this_scene"])
        values = {"name": p["name"], "n": len(a), "against": against["label"], "m": len(b), "title": c["title"]}
        words: Words = (N_("{name}: {n} dice against {against}'s {m} ({title})"), values)
        if cost:
            words = (N_("{name}: {n} dice against {against}'s {m} ({title}), charges −{cost} (R11)"),
                     {**values, "cost": cost})
        short: Words | None = None
        if cost > ch["charges"]:
            short = (N_("{name} has {charges} charges; the pool's abilities cost {cost} (R11)"),
                     {"name": ch["name"], "charges": ch["charges"], "cost": cost})
        out.append(_own("raja-challenge", key, words, spec, short, False))
    return out


def _spirit_exchanges(t: Tracker, cid: str, unnamed: frozenset[str]) -> list[OwnRoll]:
    """Rajapolku: the next exchange of each spirit combat under way in which ``cid`` fights (R11)."""
    out = []
    for c in t.state["challenges"]:
        if c["status"] == "resolved" or not c.get("spirit"):
            continue
        fighters = t.rolls.spirit_fighters(c["id"])
        fight = t.rolls.spirit_fight(c["id"])
        if fighters is None or cid not in fighters or fight is None or fight.over:
            continue
        other = fighters[1] if fighters[0] == cid else fighters[0]
        name = _name(t, other, unnamed)
        if name is None:
            # Not even the challenge's title: one the fight made names its fighters.
            out.append(_own("raja-spirit", c["id"], (N_("Spirit combat: the next exchange"), {}), {},
                            (N_("the GM rolls this spirit combat at the GM's screen (R11)"), {})))
            continue
        n_a, n_b = t.rolls.spirit_dice(fighters[0], fighters[1], c["id"])
        mine, theirs = (n_a, n_b) if fighters[0] == cid else (n_b, n_a)
        spec = {"mode": "spirit", "count": mine, "against": theirs, "plain": True}
        words: Words = (N_("Spirit combat with {name}, exchange {i}: your {n} dice against {m} (R11)"),
                        {"name": name, "i": fight.exchanges + 1, "n": mine, "m": theirs})
        out.append(_own("raja-spirit", c["id"], words, spec, None, False))
    return out


def _pool_roll(t: Tracker, cid: str, test: str, key: str, label: Words, pool: SRPool, cannot: Words | None,
               why_not: Words | None = None) -> OwnRoll:
    """An own roll of a pool: ``label`` worded with ``{n}``, the pool's dice."""
    spec = _sr_pool_dict(pool)
    try:
        side = t.rolls.sr_side(cid, pool)
        n = t.rolls.sr_pool_dice(side)
        edge = any(a.allowed for a in t.rolls.sr_pool_actions(side) if a.name == "edge_before")
    except (RulesError, TrackerError, KeyError) as e:
        return _own(test, key, (label[0], {**label[1], "n": "?"}), spec, _why(e))
    return _own(test, key, (label[0], {**label[1], "n": n}), spec, cannot or why_not, edge)


def _success_tests(t: Tracker, cid: str, ch: SRCharacter, cannot: Words | None) -> list[OwnRoll]:
    out = []
    for p in ch.get("pools", []):
        out.append(_pool_roll(t, cid, "sr-success", f"pool:{p['name']}", (N_("{name}: {n} dice"), {"name": p["name"]}),
                              t.roster.sr_pool(p), cannot))
    for skill in sorted(ch.get("skills", {}), key=str.lower):
        attribute = t.rolls.sr_linked_attribute(skill, "agility", cid)
        out.append(_pool_roll(t, cid, "sr-success", f"skill:{skill}",
                              (N_("{skill} + {attribute}: {n} dice"), {"skill": skill, "attribute": attribute.title()}),
                              SRPool(mode="skill", skill=skill, attribute=attribute), cannot))
    return out


def _attacks(t: Tracker, cid: str, cannot: Words | None, unnamed: frozenset[str]) -> list[OwnRoll]:
    pool = t.attacks.attack_pool(cid)
    if pool is None:
        return []
    fight = t.combat.block
    in_fight = {e["id"] for e in t.state["initiative"]} if fight is not None else set()
    why_not: Words | None = None
    if fight is not None:
        acting = t.combat.acting()
        if not fight.get("pass"):
            why_not = (N_("the combat turn is over: the GM rolls the next one's initiative (S12)"), {})
        elif acting != cid:
            who = _name(t, acting, unnamed) if acting else None
            why_not = (N_("not your turn: {name} acts (S12)"), {"name": who}) if who else (N_("not your turn (S12)"), {})
    out = []
    for target in t.characters:
        name = _name(t, target, unnamed)
        if target == cid or name is None or t.combat.down(target) or (fight is not None and target not in in_fight):
            continue
        out.append(_pool_roll(t, cid, "sr-attack", target,
                              (N_("Attack {target} ({skill}): {n} dice"), {"target": name, "skill": pool.skill}),
                              pool, cannot, why_not))
    return out


def _attack_hit(t: Tracker, cid: str, unnamed: frozenset[str]) -> tuple[Event, DamageOffer, Weapon | None] | None:
    """The newest attack roll, when it hit ``cid``, is public and no damage came from it yet (looked for among
    the last :data:`HIT_LOOKBACK` events: a long log without a recent attack is not read whole at each save)."""
    ev = _newest_attack(t)
    if ev is None or ev.get("secret"):
        return None
    offer = t.damage.offer(ev)
    if not offer.allowed or cid not in offer.targets or _name(t, offer.attacker, unnamed) is None:
        return None
    seq = int(ev["seq"])
    for i in range(len(t.events) - 1, -1, -1):
        later = t.events[i]
        if later["seq"] <= seq:
            break
        if later.get("kind") == "roll" and roll_of(later).get("attack") == seq \
                and not t.is_undone(later["seq"]):
            return None
    return ev, offer, offer.weapons[0] if offer.weapons else None


HIT_LOOKBACK = 200
"""How many of the newest events are looked through for the attack a seat may resist."""


def _newest_attack(t: Tracker) -> Event | None:
    events = t.events
    for i in range(len(events) - 1, max(-1, len(events) - 1 - HIT_LOOKBACK), -1):
        ev: Event = events[i]
        if ev.get("kind") == "roll" and roll_of(ev).get("test") == "shadowrun-opposed" and not t.is_undone(ev["seq"]):
            return ev
    return None


def _resistance(t: Tracker, cid: str, unnamed: frozenset[str]) -> OwnRoll | None:
    hit = _attack_hit(t, cid, unnamed)
    if hit is None:
        return None
    ev, offer, weapon = hit
    attacker = _name(t, offer.attacker, unnamed)
    if attacker is None:  # _attack_hit names the attacker
        return None
    key = str(ev["seq"])
    hit_words: Words = (N_("Resist {attacker}'s hit"), {"attacker": attacker})
    if weapon is None:
        return _own("sr-resist", key, hit_words, {},
                    (N_("the attacker's weapon is not on its sheet: the GM applies this hit (D)"), {}))
    armour, which = t.damage.armour_against(cid, weapon.kind)
    try:
        n = t.damage.resistance_dice(cid, armour, weapon.ap)
    except TrackerError as e:
        return _own("sr-resist", key, hit_words, {}, _why(e))
    letter = "P" if weapon.damage == "physical" else "S"
    template = (N_("Resist {attacker}'s {weapon} ({dv} + {net} net): Body + ballistic armour, {n} dice")
                if which == "ballistic" else
                N_("Resist {attacker}'s {weapon} ({dv} + {net} net): Body + impact armour, {n} dice"))
    words: Words = (template, {"attacker": attacker, "weapon": weapon.name, "dv": f"{weapon.dv}{letter}",
                               "net": offer.net_hits, "n": n})
    edge = sr(t.character(cid))["edge"] > 0
    return _own("sr-resist", key, words, {"mode": "dice", "count": n, "plain": True}, None, edge)


def _initiative(t: Tracker, cid: str, cannot: Words | None) -> OwnRoll | None:
    b = t.combat.block
    if b is None:
        return None
    if any(e["id"] == cid for e in t.state["initiative"]):
        return None  # rolled for this combat turn (by the GM, or this seat)
    n = t.combat.initiative_dice([(cid, 1)])[0][1]
    spec = {"mode": "dice", "count": n, "plain": True}
    label: Words = (N_("Initiative: Reaction + Intuition, {n} dice"), {"n": n})
    refusal = t.combat.join_refusal(cid)
    return _own("sr-initiative", "", label, spec, cannot or refusal or None, False)


def _extended(t: Tracker, cid: str, cannot: Words | None) -> list[OwnRoll]:
    """The next interval of each extended test the character rolls (S10: its roller rolls every interval,
    with the pool of the last one; the GM may change the threshold or the pool between them)."""
    out = []
    for c in t.state["challenges"]:
        ext = c.get("extended")
        if not ext or c["status"] == "resolved" or ext["ended"] or ext["accumulated"] >= ext["threshold"]:
            continue
        roller = t.rolls.sr_extended_roller(c["id"])
        if roller is None or roller.who != cid or roller.pool is None:
            continue
        label: Words = (N_("{title}: interval {i}, {hits}/{threshold} hits so far: {n} dice"),
                        {"title": c["title"], "i": ext["intervals"] + 1, "hits": ext["accumulated"],
                         "threshold": ext["threshold"]})
        out.append(_pool_roll(t, cid, "sr-extended", c["id"], label, roller.pool, cannot))
    return out


# ---------------------------------------------------------------------------
# the GM's app: check and apply


def answer(t: Tracker, taken: Taken) -> SeatAnswer:
    """The GM's app's answer to a taken request: an own roll or a defence made here, anything else as
    :func:`polku.session.players.seats.answer` makes it (a command marked with the seat, or a refusal)."""
    from .seats import answer as seats_answer

    req = taken.request
    if req is None:
        return refusal(taken)
    if req.get("kind") != "own" and _defence(t, taken.cid, req) is None:
        return seats_answer(t, taken)
    cid, rid = taken.cid, req["id"]
    try:
        ch = t.characters.get(cid)
        if ch is None or ch.get("secret"):
            raise SeatError(N_("no character has a seat in this folder"))  # never named (a secret character)
        with t.by_seat(cid):
            if req.get("kind") == "own":
                line, ev = apply_own(t, cid, req)
            else:
                offer = _defence(t, cid, req)
                assert offer is not None
                if req.get("edge_before"):
                    act = next((a for a in offer_choices(t, offer) if a.allowed), None)
                    if act is None:
                        raise SeatError(EDGE_NOT_OPEN)
                t.seat_offer = offer.seq
                try:
                    ev = roll_defence(t, offer, req.get("faces"), bool(req.get("edge_before", False)))
                finally:
                    t.seat_offer = None
                line = said(N_("{name} defends (the dice are in the log)"), name=ch["name"])
        return _answer(rid, True, line, ev, t, cid)
    except (SeatError, TrackerError, RulesError) as e:
        return _answer(rid, False, reason_of(e), None, t, cid)


def _defence(t: Tracker, cid: str, req: SeatRequest) -> Offer | None:
    """The open request to defend that a ``roll`` request answers, or None (another kind of request)."""
    if req.get("kind") != "roll" or not isinstance(req.get("offer"), int):
        return None
    return next((o for o in pending_offers(t, cid) if o.seq == req["offer"] and o.test == DEFEND_TEST), None)


def needs_approval(t: Tracker, request: SeatRequest | None) -> bool:
    """Does this checked request wait for the GM's approval (an own roll under ``seats.own_rolls = approve``)?"""
    return request is not None and request.get("kind") == "own" and t.settings.seats_own_rolls == "approve"


def find(t: Tracker, cid: str, req: SeatRequest) -> OwnRoll:
    """The roll the request names, open to the seat now; else :class:`SeatError` with the reason."""
    test, key = req.get("test"), str(req.get("key", ""))
    if test not in OWN_TESTS:
        raise SeatError(N_("a seat cannot roll that"))
    found = next((r for r in own_rolls(t, cid) if r.test == test and r.key == key), None)
    if found is None:
        raise SeatError(NOT_OPEN)
    if not found.allowed:
        raise SeatError(said(found.why[0], **found.why[1]) if found.why is not None else found.reason)
    if req.get("edge_before") and not found.edge:
        raise SeatError(EDGE_NOT_OPEN)
    return found


def check(t: Tracker, cid: str, req: SeatRequest) -> str:
    """Why the GM's app would refuse this own roll now, or "" (nothing changes)."""
    ch = t.characters.get(cid)
    if ch is None or ch.get("secret"):
        return N_("no character has a seat in this folder")
    try:
        find(t, cid, req)
    except SeatError as e:
        return reason_of(e)
    return ""


def apply_own(t: Tracker, cid: str, req: SeatRequest) -> tuple[str, Event | None]:
    """Make a checked own roll (inside ``tracker.by_seat``): the answer's line and the roll, if one was made.

    Raises:
        SeatError, TrackerError, RulesError: refused; nothing changed.
    """
    own = find(t, cid, req)
    faces: list[int] | None = req.get("faces")
    edge_before = bool(req.get("edge_before", False))
    name = t.character(cid)["name"]
    if own.test == "sr-success":
        pool = sr_pool_of(own.offer(cid), edge_before=edge_before)
        ev: Event = t.rolls.roll_sr(t.rolls.sr_side(cid, pool), faces=faces)["event"]
        return said(ROLLS, name=name), ev
    if own.test == "sr-attack":
        return _attack(t, cid, own, edge_before, faces)
    if own.test == "sr-resist":
        hit = _attack_hit(t, cid, frozenset())
        w = hit[2] if hit is not None else None
        if hit is None or w is None:
            raise SeatError(NOT_OPEN)  # find() offered it: not reached
        attack = hit[0]
        got = t.damage.apply(attack, target=cid, dv=w.dv, damage=w.damage, ap=w.ap, weapon=w.name, skill=w.skill,
                             kind=w.kind, edge=edge_before, faces=faces)
        return said(N_("{name} resists (the dice are in the log)"), name=name), got["event"]
    if own.test == "raja-challenge":
        offer = own.offer(cid)
        mine, theirs = raja_sides_of(t, offer)
        active = t.active_challenge()
        ev = t.rolls.roll_raja(mine, theirs, challenge=active["id"] if active else None,
                               faces=None if faces is None else (faces, None))["event"]
        return said(ROLLS, name=name), ev
    if own.test == "raja-spirit":
        fighters = t.rolls.spirit_fighters(own.key)
        if fighters is None:
            raise SeatError(NOT_OPEN)  # find() offered it: not reached
        both = None if faces is None else ((faces, None) if fighters[0] == cid else (None, faces))
        ev = t.rolls.roll_spirit(fighters[0], fighters[1], challenge=own.key, faces=both)["event"]
        return said(N_("{name} rolls the exchange (the dice are in the log)"), name=name), ev
    if own.test == "harha-difficult":
        ev = t.rolls.roll_harha_difficult(harha_side_of(t, own.offer(cid)), faces=faces)["event"]
        return said(ROLLS, name=name), ev
    if own.test == "sr-extended":
        pool = sr_pool_of(own.offer(cid), edge_before=edge_before)
        ev = t.rolls.roll_sr_extended(t.rolls.sr_side(cid, pool), own.key, faces=faces,
                                      pool=sr_pool_of(own.offer(cid)))["event"]
        return said(N_("{name} rolls the next interval (the dice are in the log)"), name=name), ev
    rolled = t.combat.join_initiative(cid, faces=faces)
    return said(N_("{name} rolls initiative"), name=name), rolled["event"]


def _attack(t: Tracker, cid: str, own: OwnRoll, edge_before: bool,
            faces: list[int] | None) -> tuple[str, Event | None]:
    target = own.key
    pool = sr_pool_of(own.offer(cid), edge_before=edge_before)
    kind = t.attacks.attack_kind(pool)
    attacker, defender = t.character(cid), t.character(target)
    if defender.get("kind") == "pc":
        # A player character defends from their own seat: the attack waits for it (an offer, undoable).
        against = {"who": [cid], "label": attacker["name"], "spec": _sr_pool_dict(pool), "edge_before": edge_before,
                   "attack_kind": kind}
        if faces is not None:
            against["faces"] = list(faces)
        text = f"{attacker['name']} attacks {defender['name']} ({pool.skill}): {defender['name']} defends"
        _log_attack(t, target, text, {"test": DEFEND_TEST, "spec": {}, "against": against})
        return said(N_("{attacker} attacks: {defender}'s seat defends"), attacker=attacker["name"],
                    defender=defender["name"]), None
    a = t.rolls.sr_side(cid, pool)
    b = t.rolls.sr_side(target, t.attacks.defence_pool(target, kind, SRPool()))
    ev: Event = t.rolls.roll_sr_opposed(a, b, faces=None if faces is None else (faces, None))["event"]
    return said(N_("{attacker} attacks (the dice are in the log)"), attacker=attacker["name"]), ev


def ask_defence(t: Tracker, defender: str, attacker: str | None, pool: SRPool, *, label: str = "",
                challenge: str | None = None) -> Event:
    """The GM attacks ``defender`` (a player character) and their seat defends: the attack's pool (``attacker``'s,
    or the GM's dice count with ``attacker`` None) waits, as a request of the GM does, for the defender's roll,
    which throws both sides in one opposed test (S9). Logged, undoable (undo takes the attack back)."""
    ch = t.characters.get(defender)
    if ch is None:
        raise SeatError(said(N_("no character '{defender}'"), defender=str(defender)))
    if ch.get("secret"):
        raise SeatError(said(N_("{name} is secret: a secret character has no seat"), name=str(ch['name'])))
    if t.system.value != "shadowrun":
        raise SeatError(said(N_("a defence from a seat is a Varjojuoksu roll (S9)")))
    if attacker is not None and t.character(attacker).get("secret"):
        raise SeatError(said(N_("the attacker is secret: roll this attack at the GM's screen")))
    if attacker == defender:
        raise SeatError(said(N_("a character cannot attack themselves")))
    if challenge is not None:
        t.challenge(challenge)
    side = t.rolls.sr_side(attacker, pool, label or None)
    n = t.rolls.sr_pool_dice(side)
    against: dict[str, Any] = {"who": [attacker] if attacker else [], "label": side.label, "spec": _sr_pool_dict(pool),
                               "edge_before": pool.edge_before, "attack_kind": t.attacks.attack_kind(pool)}
    ask: dict[str, Any] = {"test": DEFEND_TEST, "spec": {}, "against": against}
    if challenge:
        ask["challenge"] = challenge
    return _log_attack(t, defender, f"{side.label} attacks {ch['name']} ({n} dice): {ch['name']} defends", ask)


def _log_attack(t: Tracker, defender: str, text: str, ask: dict[str, Any]) -> Event:
    """The attack waiting for ``defender``'s seat: a ``seat`` event, as a GM's roll request is."""
    out: list[Event] = []

    def build(txn: Txn) -> None:
        out.append(txn.emit("seat", text, who=defender, ask=ask))

    t.run(build)
    return out[0]


def _attacker_side(t: Tracker, against: Mapping[str, object]) -> SRSide:
    """The attack's side as the request keeps it: the attacker's pool, or the GM's dice count."""
    who = _names(against.get("who"))
    spec = table_of(against.get("spec"), strict=False)
    if who and who[0] not in t.characters:
        raise SeatError(N_("the attacker is no longer in play"))
    attacker = who[0] if who else None
    pool = sr_pool_of(Offer(0, attacker or "", "sr-success", spec), edge_before=bool(against.get("edge_before")))
    return t.rolls.sr_side(attacker, pool, None if attacker else str(against.get("label") or "GM"))


def roll_defence(t: Tracker, offer: Offer, faces: Sequence[int] | None, edge_before: bool) -> Event:
    """The defender's seat rolls against an attack made at them (the offer): one opposed test (S9), both
    sides thrown now (the attacker's typed faces, if any, from the attack's request)."""
    against = offer.opposition
    kind = str(against.get("attack_kind", "ranged"))
    a = _attacker_side(t, against)
    b = t.rolls.sr_side(offer.cid, t.attacks.defence_pool(offer.cid, kind, SRPool(edge_before=edge_before)))
    a_faces = against.get("faces")
    a_faces = [int(f) for f in a_faces] if isinstance(a_faces, list) else None
    both = None if a_faces is None and faces is None else (a_faces, None if faces is None else list(faces))
    ev: Event = t.rolls.roll_sr_opposed(a, b, faces=both, challenge=offer.challenge)["event"]
    return ev


def offer_choices(t: Tracker, offer: Offer) -> list[RollAction]:
    """What the player may choose before rolling a request: Edge before the roll (S7), on a defence too."""
    from .seats import offer_choices as request_choices

    if offer.test != DEFEND_TEST:
        return request_choices(t, offer)
    kind = str(offer.opposition.get("attack_kind", "ranged"))
    side = t.rolls.sr_side(offer.cid, t.attacks.defence_pool(offer.cid, kind, SRPool()))
    return [a for a in t.rolls.sr_pool_actions(side) if a.name == "edge_before"]


def defence_odds(t: Tracker, offer: Offer, *, edge_before: bool = False) -> SeatOdds:
    """The defender's odds against the attack: P(the attack misses or stalemates) (S9), the defence's lines."""
    from .. import odds

    against = offer.opposition
    kind = str(against.get("attack_kind", "ranged"))
    b = t.rolls.sr_side(offer.cid, t.attacks.defence_pool(offer.cid, kind, SRPool(edge_before=edge_before)))
    n_b = t.rolls.sr_pool_dice(b)
    plan = t.rolls.sr_plan(b)
    try:
        a = _attacker_side(t, against)
    except (SeatError, KeyError):
        return SeatOdds(n_b, None, explain=tuple(plan.explain()))
    n_a = t.rolls.sr_pool_dice(a)
    settings = t.rolls.settings_for()
    o = odds.opposed(odds.SRQuestion(n_a, test="opposed", b_dice=n_b, rule_of_six=t.rolls.sr_rule_of_six(a),
                                     b_rule_of_six=t.rolls.sr_rule_of_six(b)), settings)
    held = 1.0 - o.a_wins
    return SeatOdds(n_b, held, against=n_a, explain=tuple(plan.explain()))


def own_odds(t: Tracker, cid: str, own: OwnRoll, *, edge_before: bool = False) -> SeatOdds:
    """The odds of hits the seat shows for an own roll (the pool's lines; a bare count for resistance and
    initiative, which no wound modifier touches)."""
    from .. import odds
    from .seats import offer_odds

    if not own.plain:
        return offer_odds(t, own.offer(cid), edge_before=edge_before)
    if own.test == "raja-spirit":
        m = number_of(own.spec.get("against", 0))
        ro = odds.raja(odds.RajaQuestion((own.dice(), 0), (m, 0)), t.rolls.settings_for())
        return SeatOdds(own.dice(), ro.a_wins, tie=ro.tie, against=m, explain=(own.told()[0],))
    n = own.dice()
    rating = sr(t.character(cid))["edge_rating"] if edge_before else 0
    o = odds.sr(odds.SRQuestion(n + rating, rule_of_six=edge_before), t.rolls.settings_for())
    return SeatOdds(n + rating, None, tuple(o.success(k) for k in (1, 2, 3, 4)), o.mean(), o.glitch,
                    o.critical_glitch, (own.label,))


def published(t: Tracker, unnamed: frozenset[str]) -> dict[str, list[PublicOwnRoll]]:
    """Every public player character's own rolls, for the players' file (what each seat shows)."""
    if t.system.value not in ("shadowrun", "harhapolku", "rajapolku"):
        return {}
    out: dict[str, list[PublicOwnRoll]] = {}
    for cid, ch in t.characters.items():
        if ch.get("kind") != "pc" or ch.get("secret") or cid in unnamed:
            continue
        rolls = own_rolls(t, cid, unnamed)
        if rolls:
            out[cid] = [r.public() for r in rolls]
    return out


__all__ = ["DEFEND_TEST", "OWN_TESTS", "OwnRoll", "REFUSED", "WAITING", "answer", "apply_own", "ask_defence", "check", "defence_odds", "find", "offer_choices",
           "defence_plan", "needs_approval", "own_odds", "own_plan", "own_rolls", "published", "roll_defence"]


def defence_plan(t: Tracker, offer: Offer, *, edge_before: bool = False) -> FacesPlan:
    """What the defender types for physical dice: their defence pool (the attacker's dice are its own)."""
    kind = str(offer.opposition.get("attack_kind", "ranged"))
    b = t.rolls.sr_side(offer.cid, t.attacks.defence_pool(offer.cid, kind, SRPool(edge_before=edge_before)))
    return FacesPlan(max(0, t.rolls.sr_pool_dice(b)), 6, t.rolls.sr_rule_of_six(b))


def own_plan(t: Tracker, cid: str, own: OwnRoll, *, edge_before: bool = False) -> FacesPlan:
    """What the player types for physical dice on an own roll (a pool's dice, its Edge dice follow the rule of
    six; resistance and initiative: the bare count)."""
    from .seats import faces_plan

    if not own.plain:
        return faces_plan(t, own.offer(cid), edge_before=edge_before)
    if own.test == "raja-spirit":
        return FacesPlan(own.dice(), 10)
    rating = sr(t.character(cid))["edge_rating"] if edge_before else 0
    return FacesPlan(own.dice() + rating, 6, edge_before)
