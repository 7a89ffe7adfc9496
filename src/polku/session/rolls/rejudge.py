"""A logged roll judged again from the faces it shows (``polku verify``).

:func:`rejudge` rebuilds a roll's result with the rules core and the settings the roll kept
(:func:`polku.session.rolls.common.roll_settings`), as each system's command made it: its
outcome, its summary and its log line. A logged roll that says anything else was changed
after it was rolled.

No textual.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import cast

from ...rules import harhapolku as harha
from ...rules import rajapolku as raja
from ...rules import shadowrun as sr
from ...rules.dice import Die, ManualSource
from ...rules.system import Settings
from ...text import raja_outcome
from ..model import whole
from ..records import DieTable
from .common import die_from, toml_safe
from .harhapolku import HarhaVerdict, _harha_summary, _narration_outcome
from .rajapolku import spirit_outcome, spirit_summary
from .shadowrun import _sr_opposed_summary, _sr_summary
from .shadowrun_extended import extended_outcome, extended_summary

# A logged roll judged again from its faces (polku verify)


@dataclass(frozen=True, slots=True)
class Rejudged:
    """What a logged roll's faces give under the settings it was made with: its outcome (as logged),
    its summary and its log line, and the rules that judge it."""

    outcome: dict[str, object]
    summary: str
    text: str
    rules: str
    labels: tuple[str, ...] = ()
    """Each side's label as its faces give it, when the label carries a result (an initiative score)."""


@dataclass(frozen=True, slots=True)
class Known:
    """What the log says before a roll that the roll's own entry does not hold."""

    accumulated: int | None = None
    """An extended test's interval: the hits accumulated before it (the interval before's, as judged again;
    0 for the first; None when the log does not hold the interval before)."""
    names: Mapping[str, str] = field(default_factory=dict)
    """Character id → name: which fighter of an initiative order a side is, where the log names the side's
    fighter by name only (a transcript)."""
    text: str = ""
    """The roll's log line (an edge reroll's names the edge, which its roll does not hold)."""


Table = Mapping[str, object]
"""A logged roll's table as read (a transcript's JSON: any shape until each value is read)."""


_int = whole
"""``int(value)`` of a logged number (:func:`polku.session.model.whole`)."""


def _table(value: object) -> Table:
    """A logged table; TypeError for a value that is none (:func:`rejudge`'s caller reports it)."""
    if not isinstance(value, Mapping):
        raise TypeError(f"{type(value).__name__} is not a table")
    return cast(Table, value)


def _sides_of(roll: Table) -> dict[str, Table]:
    sides = roll.get("sides")
    return {str(s.get("role")): s for s in (_table(x) for x in cast("list[object]", sides) if isinstance(x, Mapping))
            } if isinstance(sides, list) else {}


def _dice_of(side: Table) -> list[Die]:
    dice = side.get("dice")
    if not isinstance(dice, list):
        raise ValueError("no dice")
    # die_from reads size and face: KeyError or TypeError for a table that is not a die (reported by the caller).
    return [die_from(cast(DieTable, d)) for d in cast("list[object]", dice)]


def _sr_roll_again(side: Table, out: Table, settings: Settings) -> sr.SRRoll:
    """A Varjojuoksu roll rebuilt from the dice it shows; the pool, Edge and helper dice as logged
    (what was asked for), the hits and glitches left to the rules (S4–S7)."""
    dice = _dice_of(side)
    bought = out.get("bought")
    # Which six a rule-of-six die came from only words the explanation (the result counts by
    # source), so it is taken as logged: a die's "from" index when it names an earlier die.
    logged = out.get("dice")
    parents: tuple[int | None, ...] = (None,) * len(dice)
    if isinstance(logged, list) and len(logged) == len(dice):
        parents = tuple(p if isinstance(p, int) and not isinstance(p, bool) and 0 <= p < i else None
                        for i, p in enumerate(d.get("from") if isinstance(d, Mapping) else None for d in logged))
    edge = out.get("edge")
    return sr.SRRoll(tuple(dice), parents, _int(out.get("pool", len(dice))),
                     helper_dice=_int(out.get("helper_dice", 0)), edge_dice=_int(out.get("edge_dice", 0)),
                     edge_when=edge if isinstance(edge, str) else None, glitch_rerolls=settings.sr_glitch_rerolls,
                     hurried=bool(out.get("hurried")), glitch_negated=bool(out.get("glitch_negated")),
                     critical_reduced=bool(out.get("critical_reduced")),
                     bought=bought if isinstance(bought, int) else None, auto_failed=bool(out.get("auto_failed")),
                     edge_spent=_int(out.get("edge_spent", 0)), manual=bool(out.get("manual")))


def _sr_judged(r: sr.SRRoll) -> dict[str, object]:
    out = sr.result_json(r)
    out.pop("dice", None)
    return out


def _extended(roll: Table, outcome: Table, settings: Settings, known: Known) -> Rejudged:
    """One interval of an extended test (S10): the roll as the faces give it, added to the hits the
    intervals before it accumulated, against the threshold in force."""
    side = _sides_of(roll)["a"]
    r = _sr_roll_again(side, outcome, settings)
    intervals, threshold = outcome.get("intervals"), outcome.get("threshold")
    if not isinstance(intervals, int) or not isinstance(threshold, int):
        raise ValueError("no interval or threshold")
    before = known.accumulated
    if before is None:  # the interval before is not in the log (a transcript): the total as logged
        logged = outcome.get("accumulated")
        before = (logged if isinstance(logged, int) else 0) - (0 if r.critical_glitch else r.hits)
    test = sr.ExtendedTest(threshold, hurried=bool(outcome.get("hurried")), accumulated=before,
                           intervals=intervals - 1).add(r)
    summary = extended_summary(test)
    return Rejudged(toml_safe(extended_outcome(test)), summary,
                    f"{side.get('label', '')}, extended test: {summary}", "S4–S7, S10")


def _spirit(roll: Table, outcome: Table, settings: Settings) -> Rejudged:
    """One exchange of a spirit combat (R11): the comparison of the faces (R5–R7), the charges the loser
    loses, and the fight after it from the fight before it (a roll from before Polku logged that: the
    fight after as logged)."""
    sides = _sides_of(roll)
    a, b = str(sides["a"].get("label", "")), str(sides["b"].get("label", ""))
    result = raja.resolve(_dice_of(sides["a"]), _dice_of(sides["b"]), settings)
    before = outcome.get("before")
    if isinstance(before, Mapping):
        fight = raja.SpiritFight(int(before["a_charges"]), int(before["b_charges"]),
                                 exchanges=int(before["exchanges"]), a_penalty=int(before["a_penalty"]),
                                 b_penalty=int(before["b_penalty"]))
        ex = fight.exchange(result, settings)
        judged = spirit_outcome(fight, ex)
    else:
        f = _table(outcome["fight"])
        after = raja.SpiritFight(_int(f["a_charges"]), _int(f["b_charges"]), exchanges=_int(f["exchanges"]),
                                 ended_by_gm=bool(f.get("ended_by_gm")))
        ex = raja.SpiritExchange(after, result, result.loser, raja.spirit_loss(result, settings))
        judged = {**raja.result_json(result), "charge_loss": ex.loss, "fight": after.to_json()}
    summary = spirit_summary(ex, a, b)
    return Rejudged(toml_safe(judged), summary, f"Spirit combat {a} vs {b}, exchange {ex.fight.exchanges}: {summary}",
                    "R5–R7, R11")


_REROLL = re.compile(r": (?P<old>[0-9,]+) → [0-9,]+ \(H7\)$")
_EDGE = re.compile(r" with edge '(?P<edge>.*)' \(H7\)$")
_HARMED = re.compile(r"^.*?(?:\d: |automatically, )(?P<who>.*)'s character is (?:un)?harmed \(H9\)$")


def _narration(roll: Table, outcome: Table, known: Known) -> Rejudged:
    """A die of the narration contest (H9), with the rules' own words: a background's die rolled, a hand
    thrown again with an edge (H7), or the GM's harm roll after a usurpation with more than 3 dice."""
    sides = _sides_of(roll)
    said = str(roll.get("summary", ""))
    if "gm" in sides:
        harm = outcome.get("harm")
        if not isinstance(harm, Mapping):
            raise ValueError("no harm")
        gm = _dice_of(sides["gm"])
        m = _HARMED.match(said)
        who = m.group("who") if m else "?"
        pending = harha.Usurpation(who, (), int(harm["usurper_total"]), harha.Burn("", (), who), 0, "harm_roll",
                                   len(gm), gm[0].size if gm else None)
        step = harha.NarrationContest(ability_fight=bool(harm.get("automatic")), last=pending).harm_roll(gm)
        return Rejudged(toml_safe(_narration_outcome(step)), step.text, step.text, "H9")
    side = sides["a"]
    who, dice = str(side.get("label", "")), _dice_of(side)
    if said.endswith("(H7)"):
        m = _REROLL.search(said)
        old = [int(f) for f in m.group("old").split(",")] if m else []
        hand = tuple(Die(d.size, f, d.source, d.label) for d, f in zip(dice, old))
        if len(hand) != len(dice):  # the hand before is not in the words: the faces alone say the new one
            hand = tuple(Die(d.size, 1, d.source, d.label) for d in dice)
        step = harha.NarrationContest(hands=((who, hand),)).reroll_hand(who, ManualSource([d.face for d in dice]))
        edge = _EDGE.search(known.text)  # which edge was used is in the log line alone
        text = f"{step.text[:-len(' (H7)')]} with edge '{edge.group('edge') if edge else '?'}' (H7)"
        return Rejudged({}, step.text, text, "H7, H9")
    if len(dice) != 1:
        raise ValueError("a background's roll is one die")
    d = dice[0]
    step = harha.NarrationContest().roll_background(who, d.label, ManualSource([d.face]), d.size)
    return Rejudged({}, step.text, step.text, "H9")


def rejudge(roll: Table, settings: Settings, known: Known | None = None) -> Rejudged | None:
    """Judge a logged roll again from the faces it shows, with the rules core and ``settings`` (the
    settings it was made with, whole), and ``known``: what the log says before it that its entry does
    not hold (an extended test's total so far). None for a kind not judged here (initiative and damage
    resistance are the table's: :mod:`polku.session.table.rejudge`) or a roll without an outcome;
    ValueError (KeyError, TypeError) for dice that are not dice, RulesError for faces the rules it was
    made with refuse (a spirit combat's dice that are not the charges left)."""
    test = str(roll.get("test", ""))
    sides = _sides_of(roll)
    outcome = roll.get("outcome")
    if not isinstance(outcome, Mapping):
        return None
    known = known or Known()
    if test == "shadowrun-extended" and "a" in sides:
        return _extended(roll, outcome, settings, known)
    if test == "spirit" and {"a", "b"} <= set(sides):
        return _spirit(roll, outcome, settings)
    if test == "narration" and ("a" in sides or "gm" in sides):
        return _narration(roll, outcome, known)
    label = {k: str(v.get("label", "")) for k, v in sides.items()}
    if test == "rajapolku" and {"a", "b"} <= set(sides):
        r = raja.resolve(_dice_of(sides["a"]), _dice_of(sides["b"]), settings)
        summary = raja_outcome(r, label["a"], label["b"])
        return Rejudged(toml_safe(raja.result_json(r)), summary, f"{label['a']} vs {label['b']}: {summary}", "R5–R7")
    if test == "harhapolku-difficult" and "a" in sides:
        variant = "sum" if roll.get("variant") == "sum" else "ch23"
        very = bool(outcome.get("very_demanding"))
        d = harha.difficult(_dice_of(sides["a"]), very, variant)
        summary = f"{'success' if d.success else 'failure'} ({d.high} of {d.needed} needed 7+)"
        what = "very demanding" if very else "difficult"
        return Rejudged({"success": d.success, "high": d.high, "needed": d.needed, "very_demanding": very},
                        summary, f"{label['a']}, {what} action: {summary}", "H8")
    if test.startswith("harhapolku-") and {"a", "b"} <= set(sides):
        variant = str(roll.get("variant") or test.split("-", 1)[1])
        a_count = b_count = None
        counts = roll.get("counts")
        if variant == "sum":
            if not (isinstance(counts, list) and len(counts) == 2):
                return None
            a_count, b_count = counts
        compared = harha.resolve(_dice_of(sides["a"]), _dice_of(sides["b"]), variant, settings,
                                 a_count=a_count, b_count=b_count)
        demand = str(roll.get("demand") or "")
        res: HarhaVerdict = harha.difficult_opposed(compared, demand == "very_demanding") if demand else compared
        summary = _harha_summary(res, label["a"], label["b"], variant)
        judged: dict[str, object] = dict(harha.result_json(compared))
        if isinstance(res, harha.OpposedDifficultResult):
            judged.update({"winner": res.winner, "success": res.success, "high": res.high,
                           "needed": res.needed, "won_comparison": res.won_comparison})
        return Rejudged(toml_safe(judged), summary, f"{label['a']} vs {label['b']}: {summary}", "H2–H8")
    if test == "shadowrun-opposed" and {"a", "b"} <= set(sides):
        oa, ob = outcome.get("a"), outcome.get("b")
        if not isinstance(oa, Mapping) or not isinstance(ob, Mapping):
            return None
        o = sr.opposed(_sr_roll_again(sides["a"], oa, settings), _sr_roll_again(sides["b"], ob, settings))
        summary = _sr_opposed_summary(o, label["a"], label["b"])
        return Rejudged(toml_safe(sr.result_json(o)), summary, f"{label['a']} vs {label['b']}: {summary}", "S4–S9")
    if test in ("shadowrun", "shadowrun-teamwork") and "a" in sides and not roll.get("hidden"):
        r2 = _sr_roll_again(sides["a"], outcome, settings)
        threshold = roll.get("threshold")
        judged2 = sr.success_test(r2, threshold) if isinstance(threshold, int) else None
        out = _sr_judged(r2) if judged2 is None else dict(sr.result_json(judged2))
        out.pop("dice", None)
        summary = _sr_summary(r2, judged2)
        if test == "shadowrun-teamwork":
            summary = f"teamwork (+{r2.helper_dice} dice from helpers): {summary}"
            text = f"{label['a']} leads: {summary}"
        else:
            text = f"{label['a']}: {summary}"
        return Rejudged(toml_safe(out), summary, text, "S4–S8, S11")
    return None


__all__ = ["Known", "Rejudged", "rejudge"]
