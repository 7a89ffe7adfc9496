"""A logged roll judged again from the faces it shows (``polku verify``).

:func:`rejudge` rebuilds a roll's result with the rules core and the settings the roll kept
(:func:`polku.session.rolls.common.roll_settings`), as each system's command made it: its
outcome, its summary and its log line. A logged roll that says anything else was changed
after it was rolled.

No textual.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...rules import harhapolku as harha
from ...rules import rajapolku as raja
from ...rules import shadowrun as sr
from ...rules.dice import Die
from ...rules.system import Settings
from ...text import raja_outcome
from .common import die_from, toml_safe
from .harhapolku import _harha_summary
from .shadowrun import _sr_opposed_summary, _sr_summary

# A logged roll judged again from its faces (polku verify)


@dataclass(frozen=True, slots=True)
class Rejudged:
    """What a logged roll's faces give under the settings it was made with: its outcome (as logged),
    its summary and its log line, and the rules that judge it."""

    outcome: dict[str, Any]
    summary: str
    text: str
    rules: str


def _sides_of(roll: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    sides = roll.get("sides")
    return {str(s.get("role")): s for s in sides if isinstance(s, Mapping)} if isinstance(sides, list) else {}


def _dice_of(side: Mapping[str, Any]) -> list[Die]:
    dice = side.get("dice")
    if not isinstance(dice, list):
        raise ValueError("no dice")
    return [die_from(d) for d in dice]


def _sr_roll_again(side: Mapping[str, Any], out: Mapping[str, Any], settings: Settings) -> sr.SRRoll:
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
    return sr.SRRoll(tuple(dice), parents, int(out.get("pool", len(dice))),
                     helper_dice=int(out.get("helper_dice", 0)), edge_dice=int(out.get("edge_dice", 0)),
                     edge_when=out.get("edge"), glitch_rerolls=settings.sr_glitch_rerolls,
                     hurried=bool(out.get("hurried")), glitch_negated=bool(out.get("glitch_negated")),
                     critical_reduced=bool(out.get("critical_reduced")),
                     bought=bought if isinstance(bought, int) else None, auto_failed=bool(out.get("auto_failed")),
                     edge_spent=int(out.get("edge_spent", 0)), manual=bool(out.get("manual")))


def _sr_judged(r: sr.SRRoll) -> dict[str, Any]:
    out = sr.result_json(r)
    out.pop("dice", None)
    return out


def rejudge(roll: Mapping[str, Any], settings: Settings) -> Rejudged | None:
    """Judge a logged roll again from the faces it shows, with the rules core and ``settings`` (the
    settings it was made with, whole). None for a kind not judged again here (initiative, H9
    narration, spirit combat, an extended test's running total, damage resistance) or a roll
    whose dice cannot be read; ValueError for dice that are not dice."""
    test = str(roll.get("test", ""))
    sides = _sides_of(roll)
    outcome = roll.get("outcome")
    if not isinstance(outcome, Mapping):
        return None
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
        kw: dict[str, Any] = {}
        counts = roll.get("counts")
        if variant == "sum":
            if not (isinstance(counts, list) and len(counts) == 2):
                return None
            kw = {"a_count": counts[0], "b_count": counts[1]}
        res: Any = harha.resolve(_dice_of(sides["a"]), _dice_of(sides["b"]), variant, settings, **kw)
        demand = str(roll.get("demand") or "")
        if demand:
            res = harha.difficult_opposed(res, demand == "very_demanding")
        summary = _harha_summary(res, label["a"], label["b"], variant)
        judged = harha.result_json(res.comparison if demand else res)
        if demand:
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
        judged2: Any = sr.success_test(r2, threshold) if isinstance(threshold, int) else r2
        out = _sr_judged(r2) if not isinstance(threshold, int) else sr.result_json(judged2)
        out.pop("dice", None)
        summary = _sr_summary(r2, judged2 if isinstance(threshold, int) else None)
        if test == "shadowrun-teamwork":
            summary = f"teamwork (+{r2.helper_dice} dice from helpers): {summary}"
            text = f"{label['a']} leads: {summary}"
        else:
            text = f"{label['a']}: {summary}"
        return Rejudged(toml_safe(out), summary, text, "S4–S8, S11")
    return None


__all__ = ["Rejudged", "rejudge"]
