"""The table's rolls judged again from the faces they show (``polku verify``): an initiative roll
(S12) and a damage resistance roll (S4–S7, SR4 core damage), beside every other kind
(:func:`polku.session.rolls.rejudge.rejudge`), with the rules core and the settings the roll kept.

No textual.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ...rules import shadowrun as sr
from ...rules import turns
from ...rules.system import Settings
from ..rolls.common import toml_safe
from ..rolls.rejudge import Known, Rejudged, _dice_of, _sr_roll_again
from ..rolls.rejudge import rejudge as rejudge_roll
from .combat import order_words
from .damage import resistance_outcome, resistance_summary

_FIGHTER = re.compile(r"^(?P<name>.*) (?P<pool>\d+)\+\d+=\d+$")
"""An initiative side's label: ``Kaneda 9+2=11`` (the name, the dice, the hits, the score)."""
_ANY = "\x00"


def _initiative(roll: Mapping[str, Any], outcome: Mapping[str, Any], known: Known) -> Rejudged:
    """S12: each fighter's score is the dice (Reaction + Intuition + the sheet's bonus) plus the hits its
    faces show; in the order, a score lowered by wounds only (never raised), the highest first."""
    sides = [s for s in roll.get("sides", []) if isinstance(s, Mapping)]
    names: dict[str, str] = {}
    by_name = {n: cid for cid, n in known.names.items()}
    labels: list[str] = []
    scores: dict[str, int] = {}
    for side in sides:
        m = _FIGHTER.match(str(side.get("label", "")))
        if m is None:
            raise ValueError("an initiative side without its score")
        hits = sr.count_hits(d.face for d in _dice_of(side))
        score = sr.initiative_score(int(m["pool"]), 0, hits)  # the dice already hold Intuition and the bonus
        labels.append(f"{m['name']} {m['pool']}+{hits}={score}")
        who = side.get("who")
        cid = str(who[0]) if isinstance(who, list) and who else by_name.get(m["name"])
        if cid is not None:  # a transcript names the fighters by name only
            scores[cid], names[cid] = score, m["name"]
    if not isinstance(outcome.get("order"), list):  # a roll from before the order was logged: the scores alone
        return Rejudged(dict(outcome), str(roll.get("summary", "")), known.text, "S12", tuple(labels))
    logged = [e for e in outcome["order"] if isinstance(e, Mapping)]
    if logged and all(_has_facts(e) for e in logged):
        return _initiative_from_facts(roll, outcome, logged, scores, names, tuple(labels))
    entries = []
    for e in logged:
        cid, current = str(e.get("id")), int(e["current"])
        if cid in scores:
            # The wound modifier the order implies, never above 0: a score raised past the roll is not a wound.
            current = turns.wounded_score(scores[cid], min(0, current - scores[cid]))
        entries.append(turns.TurnEntry(cid, current))
    if [e.current for e in turns.turn_order(entries)] != [e.current for e in entries]:
        entries = turns.turn_order(entries)  # not highest first: the order the scores give
    order = [{"id": e.cid, "current": e.current} for e in entries]
    words = order_words(order, names)
    said = str(roll.get("summary", "")).removeprefix("order: ")
    if any(e.cid not in names for e in entries):
        # A fighter who threw no dice of their own (a shared roll) is named as the log named them.
        marked = order_words(order, {**{e.cid: _ANY for e in entries}, **names})
        if re.fullmatch(re.escape(marked).replace(re.escape(_ANY), ".+"), said):
            words = said
    return Rejudged(toml_safe({**outcome, "order": order}), f"order: {words}", f"Initiative: {words}", "S12",
                    tuple(labels))


def _has_facts(e: Mapping[str, Any]) -> bool:
    """An order entry that logs what its place follows from: the score as rolled, the monitors' boxes, the
    tie-breakers (a roll since Polku logged them)."""
    score, monitors, tie = e.get("score"), e.get("monitors"), e.get("tie")
    return (isinstance(score, int) and isinstance(monitors, list) and len(monitors) == 2 and isinstance(tie, list)
            and len(tie) == 3 and all(isinstance(x, int) and not isinstance(x, bool) for x in [score, *monitors, *tie]))


def _initiative_from_facts(roll: Mapping[str, Any], outcome: Mapping[str, Any], logged: list[Mapping[str, Any]],
                           scores: dict[str, int], names: dict[str, str], labels: tuple[str, ...]) -> Rejudged:
    """S12 from the order's own facts: each fighter's score as its faces give it (as logged for one who threw
    no dice of their own: a shared roll), lowered by the wound modifier of the boxes filled (−1 per 3 on each
    monitor), never below 0; highest first, ties by Edge, then Reaction, then Intuition."""
    entries = []
    for e in logged:
        cid = str(e["id"])
        physical, stun = e["monitors"]
        edge, reaction, intuition = e["tie"]
        entries.append(turns.TurnEntry(cid, scores.get(cid, int(e["score"])), edge=edge, reaction=reaction,
                                       intuition=intuition, wound=sr.wound_modifier(physical, stun)))
    ordered = turns.turn_order(entries)
    facts = {str(e["id"]): e for e in logged}
    order = [{"id": o.cid, "current": o.current, "score": o.score, "monitors": list(facts[o.cid]["monitors"]),
              "tie": [o.edge, o.reaction, o.intuition]} for o in ordered]
    words = order_words(order, names)
    said = str(roll.get("summary", "")).removeprefix("order: ")
    if any(o.cid not in names for o in ordered):
        marked = order_words(order, {**{o.cid: _ANY for o in ordered}, **names})
        if re.fullmatch(re.escape(marked).replace(re.escape(_ANY), ".+"), said):
            words = said
    return Rejudged(toml_safe({**outcome, "order": order}), f"order: {words}", f"Initiative: {words}",
                    "S12", labels)


def _resistance(roll: Mapping[str, Any], outcome: Mapping[str, Any], settings: Settings) -> Rejudged:
    """A damage resistance test: its hits from its faces (S4–S7), the DV they resist and the boxes they
    leave, from the monitors before the hit (a roll from before Polku logged them: the hits, the DV and
    the boxes alone, the monitors after as logged)."""
    side = next(s for s in roll.get("sides", []) if isinstance(s, Mapping))
    r = _sr_roll_again(side, outcome, settings)
    before = outcome.get("before")
    label = str(side.get("label", ""))
    said = str(roll.get("summary", ""))
    head = said[:said.rfind(": ")] if said.startswith(f"{label} takes ") and ": " in said else f"{label} takes ?"
    if isinstance(before, Mapping):
        mon = sr.Monitors(*(int(before[k]) for k in ("physical", "stun", "physical_max", "stun_max", "overflow",
                                                     "body")))
        res = sr.resolve_damage(mon, int(outcome["base_dv"]), int(outcome["net_hits"]), str(outcome["declared"]),
                                int(outcome["armour"]), r.hits, settings=settings)
        summary = f"{head}: {resistance_summary(res, r)}"
        return Rejudged(toml_safe(resistance_outcome(res, r)), summary, summary, "S4–S7, S12")
    mon = sr.Monitors(0, 0, 0, 0)  # the monitors bear on neither the DV nor the boxes
    res = sr.resolve_damage(mon, int(outcome["base_dv"]), int(outcome["net_hits"]), str(outcome["declared"]),
                            int(outcome["armour"]), r.hits, settings=settings)
    judged = {**outcome, "hits": r.hits, "resist_hits": r.hits, "dv": res.dv, "damage_kind": res.kind,
              "boxes": res.boxes}
    return Rejudged(toml_safe(judged), said, said, "S4, S12")


def rejudge(roll: Mapping[str, object], settings: Settings, known: Known | None = None) -> Rejudged | None:
    """Judge any logged roll again from its faces (:func:`polku.session.rolls.rejudge.rejudge` for the
    rolls of the three systems' commands, here the table's): None for a kind without a result to judge."""
    outcome = roll.get("outcome")
    test = roll.get("test")
    if isinstance(outcome, Mapping) and test == "initiative":
        return _initiative(roll, outcome, known or Known())
    if isinstance(outcome, Mapping) and test == "damage-resistance":
        return _resistance(roll, outcome, settings)
    return rejudge_roll(roll, settings, known)


__all__ = ["rejudge"]
