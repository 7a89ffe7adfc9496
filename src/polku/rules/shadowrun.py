"""Varjojuoksu: Shadowrun 4th edition dice (docs/rules.md, S1–S12).

All dice are d6. Pools are built from skill + attribute (S1), by defaulting
(S2), or as a Long Shot when modifiers leave nothing (S3). Each 5 or 6 is a hit
(S4); half or more ones is a glitch (S5), a glitch with no hits a critical
glitch (S6). Edge adds dice and the rule of six (S7). The tests built on top of
a roll are the success test (S8), the opposed test (S9), the extended test
(S10) and teamwork (S11); S12 adds condition monitors, wound modifiers and
initiative.

Every function here is pure: randomness only enters through an injected
:class:`~polku.rules.dice.DiceSource`, and every result is an immutable value
that keeps each die (pool, Edge, exploded) with its source so the log can show
it.

Order of dice taken from a source (this matters for
:class:`~polku.rules.dice.ManualSource`): first every die of the pool in
order (pool dice, then helper dice, then Edge dice), then the rule of six
wave by wave: one new die for each six of the previous wave, in table order,
until a wave has no six. This is how physical dice are rolled at a table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TypeVar

from ..i18n import N_, said
from ..text import glitch_text
from .dice import DiceSource, Die, RulesError, Src
from .explain import Speaker, line, say, says, signed
from .explain import Step as ExplainStep
from .explain import faces as faces_words
from .system import Settings

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence
    from typing import Any

__all__ = [
    "SIDES",
    "HIT_FACE",
    "GROUP_BONUS_CAP",
    "PoolPlan",
    "SRRoll",
    "SuccessResult",
    "OpposedResult",
    "ExtendedTest",
    "InitEntry",
    "build_pool",
    "long_shot",
    "dice_pool",
    "roll_long_shot",
    "is_hit",
    "count_hits",
    "bought_hits",
    "buy_hits",
    "roll",
    "explodes",
    "six_wave",
    "edge_after",
    "negate_glitch",
    "GLITCH_SERIOUS_HITS",
    "GLITCH_MINOR_HITS",
    "glitch_severity",
    "glitch_words",
    "glitch_meaning",
    "reduce_critical",
    "success_test",
    "opposed",
    "group_pool",
    "teamwork",
    "teamwork_bonus",
    "helper_pool",
    "linked_attribute",
    "LINKED_ATTRIBUTE",
    "ATTRIBUTES",
    "leader_of",
    "condition_monitor",
    "wound_modifier",
    "spend_edge",
    "DAMAGE_KINDS",
    "faces_needed",
    "Monitors",
    "DamageResult",
    "modified_damage",
    "effective_armour",
    "ArmourPenetration",
    "parse_ap",
    "WEAPON_KINDS",
    "DEFENCES",
    "DEFENCE_CHOICES",
    "OWN_DEFENCE",
    "DEFENCE_SKILLS",
    "DEFENCE_ATTRIBUTE",
    "defences_against",
    "defence_penalty",
    "weapon_kind",
    "armour_against",
    "resistance_pool",
    "damage_kind",
    "take_damage",
    "resolve_damage",
    "initiative_pool",
    "roll_initiative",
    "INITIATIVE_KINDS",
    "INITIATIVE_KIND_PASSES",
    "MAX_INITIATIVE_BONUS",
    "initiative_score",
    "initiative_order",
    "result_json",
    "explain",
]

SIDES = 6
"""All Shadowrun dice are d6 (§3)."""

HIT_FACE = 5
"""S4: a die showing this or more is a hit."""

GROUP_BONUS_CAP = 5
"""S9: a group adds at most this many dice."""

ATTRIBUTES = ("body", "agility", "reaction", "strength", "charisma", "intuition", "logic", "willpower")
"""The SR4 physical and mental attributes a character sheet holds (S1)."""

LINKED_ATTRIBUTE = {
    "pistols": "agility", "automatics": "agility", "longarms": "agility", "heavy weapons": "agility",
    "blades": "agility", "clubs": "agility", "unarmed combat": "agility", "throwing weapons": "agility",
    "archery": "agility", "sneaking": "agility", "infiltration": "agility", "gymnastics": "agility",
    "escape artist": "agility", "palming": "agility", "locksmith": "agility", "gunnery": "agility",
    "pilot ground craft": "reaction", "pilot aircraft": "reaction", "pilot watercraft": "reaction",
    "dodge": "reaction",
    "hacking": "logic", "computer": "logic", "electronic warfare": "logic", "cybercombat": "logic",
    "data search": "logic", "first aid": "logic", "medicine": "logic", "hardware": "logic",
    "software": "logic", "demolitions": "logic", "armorer": "logic",
    "perception": "intuition", "tracking": "intuition", "navigation": "intuition", "disguise": "intuition",
    "etiquette": "charisma", "negotiation": "charisma", "con": "charisma", "leadership": "charisma",
    "intimidation": "charisma", "instruction": "charisma",
    "running": "strength", "climbing": "strength", "swimming": "body",
    "spellcasting": "magic", "counterspelling": "magic", "summoning": "magic",
}
"""S1: the usual SR4 linked attribute of each skill (lower-case names)."""


def linked_attribute(skill: str, default: str, attributes: Iterable[str] = ATTRIBUTES) -> str:
    """S1: the skill's linked attribute, if it is one of ``attributes``; else ``default``.

    The pool builder starts from it; the GM may pick another attribute.
    """
    attr = LINKED_ATTRIBUTE.get(str(skill).strip().lower())
    return attr if attr is not None and attr in tuple(attributes) else default


RULE_OF_SIX_GUARD = 10_000
"""Safety stop for a broken dice source: S7 has no cap, but more than this many
exploded dice on one roll (odds about 6^-10000) can only be a source that
always answers 6."""


def _check_int(value: Any, what: str, minimum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(said(N_("{what} must be a whole number, not {value}"), what=str(what), value=repr(value)))
    if minimum is not None and value < minimum:
        raise RulesError(said(N_("{what} must be {minimum} or more, not {value}"), what=str(what), minimum=str(minimum), value=str(value)))
    return value


# ---------------------------------------------------------------------------
# S1–S3 pools


@dataclass(frozen=True, slots=True)
class PoolPlan:
    """A dice pool before it is rolled (S1–S3).

    Attributes:
        size: Dice to roll; may be 0 or less, which is an automatic failure
            unless the character takes a Long Shot (S3).
        parts: ``(label, dice)`` pairs in the order they were added, for
            display (``("Reaction", 4)``, ``("snowy road", -2)``).
        lines: Human-readable explanation, one line each.
        defaulted: True when the pool was built by defaulting (S2).
        long_shot: True for a Long Shot pool (S3): Edge-rating dice, rule of
            six, no modifiers, costs 1 Edge.
        edge_cost: Edge points the pool costs before the roll (1 for a Long
            Shot, else 0).
    """

    size: int
    parts: tuple[tuple[str, int], ...]
    lines: tuple[str, ...]
    defaulted: bool = False
    long_shot: bool = False
    edge_cost: int = 0

    @property
    def auto_fail(self) -> bool:
        """S3: a pool of 0 or less fails automatically (Long Shot aside)."""
        return self.size <= 0 and not self.long_shot

    def explain(self) -> list[str]:
        return list(self.lines)


def build_pool(
    skill: int | None,
    attribute: int,
    second_attribute: int | None = None,
    modifiers: Sequence[tuple[str, int]] = (),
    defaulting_allowed: bool = True,
    wound_modifier: int = 0,
    *,
    skill_name: str = "skill",
    attribute_name: str = "attribute",
    second_attribute_name: str = "attribute",
) -> PoolPlan:
    """Build a dice pool (S1, S2, S3).

    S1: skill + linked attribute, or attribute + attribute when no skill
    applies; situational modifiers (and the S12 wound modifier) add or remove
    dice. S2: with no skill (``skill`` None or 0) and no second attribute, the
    attribute is rolled alone with −1 die, only if the skill allows
    defaulting. S3: the size may end up 0 or less; see
    :attr:`PoolPlan.auto_fail` and :func:`long_shot`.

    EX I: ``build_pool(3, 4, modifiers=[("snowy road", -2)])`` → 5 dice.

    Raises:
        RulesError: bad numbers, a skill together with a second attribute, or
            defaulting on a skill that does not allow it.
    """
    _check_int(attribute, f"{attribute_name} rating", 0)
    if skill is not None:
        _check_int(skill, f"{skill_name} rating", 0)
    if second_attribute is not None:
        _check_int(second_attribute, f"{second_attribute_name} rating", 0)
    _check_int(wound_modifier, "wound modifier")
    if wound_modifier > 0:
        raise RulesError(said(N_("wound modifier is a penalty (0 or less), not {wound_modifier}"), wound_modifier=str(wound_modifier)))
    mods: list[tuple[str, int]] = []
    for item in modifiers:
        try:
            label, n = item
        except (TypeError, ValueError):
            raise RulesError(said(N_("modifier {item} must be a (label, dice) pair"), item=repr(item))) from None
        _check_int(n, f"modifier '{label}'")
        mods.append((str(label), n))

    parts: list[tuple[str, int]] = []
    defaulted = False
    if skill is not None and skill <= 0:
        skill = None  # a rating of 0 is no skill (S2)
    if skill is not None and second_attribute is not None:
        raise RulesError(said(N_("give a skill or a second attribute, not both (S1)")))
    if skill is not None:
        parts += [(skill_name, skill), (attribute_name, attribute)]
    elif second_attribute is not None:
        parts += [(attribute_name, attribute), (second_attribute_name, second_attribute)]
    else:
        if not defaulting_allowed:
            raise RulesError(said(N_("{skill_name} does not allow defaulting: no skill, no roll (S2)"), skill_name=str(skill_name)))
        defaulted = True
        parts += [(attribute_name, attribute), ("defaulting", -1)]
    parts += mods
    if wound_modifier:
        parts.append(("wounds", wound_modifier))

    size = sum(n for _, n in parts)
    base = 1 if defaulted else 2
    lines = [line("sr.pool", base=[{"label": lb, "n": n} for lb, n in parts[:base] if lb != "defaulting"],
                  mods=[{"label": lb, "n": n} for lb, n in parts[1 if defaulted else 2:]], size=size)]
    if defaulted:
        lines.append(line("sr.defaulting", skill=skill_name, attribute=attribute_name))
    if size <= 0:
        lines.append(line("sr.pool_fails"))
    return PoolPlan(size, tuple(parts), tuple(lines), defaulted=defaulted)


def dice_pool(dice: int, modifiers: Sequence[tuple[str, int]] = (), wound_modifier: int = 0, *,
              label: str = "pool") -> PoolPlan:
    """A pool given as a bare dice count (an NPC's or the GM's), with modifiers and wounds (S1, S12).

    Raises:
        RulesError: bad numbers.
    """
    _check_int(dice, f"{label} dice", 0)
    _check_int(wound_modifier, "wound modifier")
    parts: list[tuple[str, int]] = [(str(label), dice)]
    for item in modifiers:
        try:
            name, n = item
        except (TypeError, ValueError):
            raise RulesError(said(N_("modifier {item} must be a (label, dice) pair"), item=repr(item))) from None
        parts.append((str(name), _check_int(n, f"modifier '{name}'")))
    if wound_modifier:
        parts.append(("wounds", wound_modifier))
    size = sum(n for _, n in parts)
    lines = [line("sr.dice_pool", label=str(label), count=dice,
                  mods=[{"label": name, "n": n} for name, n in parts[1:]], size=size)]
    if size <= 0:
        lines.append(line("sr.pool_fails"))
    return PoolPlan(size, tuple(parts), tuple(lines))


def long_shot(edge_rating: int) -> PoolPlan:
    """The Long Shot pool (S3): Edge-rating dice, rule of six, costs 1 Edge.

    No skill, attribute or modifier applies. Roll it with
    :func:`roll_long_shot`.
    """
    _check_int(edge_rating, "Edge rating", 1)
    lines = (line("sr.long_shot_pool", edge=edge_rating),)
    return PoolPlan(edge_rating, (("Edge (Long Shot)", edge_rating),), lines,
                    long_shot=True, edge_cost=1)


# ---------------------------------------------------------------------------
# S5 the size of a glitch


GLITCH_SERIOUS_HITS = 1
"""S5: a glitch with this many hits (or fewer, a critical glitch aside) is serious: the seed's
"vain yksi onnistuminen ja kämmi tarkoittaa vakavaa riesaa" (one hit and a glitch: serious trouble)."""

GLITCH_MINOR_HITS = 4
"""S5: a glitch with this many hits or more is minor. The seed's example is 6 hits ("hyvin pieni
vastoinkäyminen", a very small setback); Polku reads "many hits" as enough to pass the hardest usual
threshold (4, S8), so 6 is minor as the seed says and a glitch on the way to any usual success is too.
Between the two a glitch is an ordinary one: dramatic or amusing, never catastrophic."""


def glitch_severity(hits: int, critical: bool = False) -> str:
    """S5/S6: how bad a glitch is, from its hits: "critical" (S6), "serious" (1 hit, or none when
    Edge reduced a critical glitch), "minor" (4 or more) or "" (an ordinary glitch, 2–3 hits).

    >>> glitch_severity(1), glitch_severity(3), glitch_severity(6), glitch_severity(0, True)
    ('serious', '', 'minor', 'critical')
    """
    _check_int(hits, "hits", 0)
    if critical:
        return "critical"
    if hits <= GLITCH_SERIOUS_HITS:
        return "serious"
    return "minor" if hits >= GLITCH_MINOR_HITS else ""


_GLITCH_MEANING = {
    "serious": "serious trouble",
    "": "dramatic or amusing, never catastrophic",
    "minor": "a very small setback",
}


def glitch_words(hits: int, critical: bool = False, *, loud: bool = False) -> str:
    """A glitch in words with its size and hits: ``serious glitch (1 hit)``, ``glitch (3 hits)``,
    ``MINOR GLITCH (6 hits)`` (``loud``), ``critical glitch (0 hits)`` (S5, S6)."""
    severity = glitch_severity(hits, critical)
    return glitch_text(hits, critical, loud=loud, severity="" if severity == "critical" else severity)


def glitch_meaning(hits: int) -> str:
    """S5, the seed's words for a (not critical) glitch of this size: ``serious trouble`` (1 hit),
    ``dramatic or amusing, never catastrophic``, ``a very small setback`` (many hits)."""
    return _GLITCH_MEANING[glitch_severity(hits)]


# ---------------------------------------------------------------------------
# S4 hits


def is_hit(face: int) -> bool:
    """S4: a 5 or a 6 is a hit."""
    return face >= HIT_FACE


def count_hits(faces: Iterable[int]) -> int:
    """S4: the number of faces that are 5 or 6."""
    return sum(1 for f in faces if is_hit(f))


def bought_hits(pool_size: int) -> int:
    """S4 buying hits: 1 automatic hit per 4 dice, rounded down."""
    _check_int(pool_size, "pool size")
    return max(pool_size, 0) // 4


# ---------------------------------------------------------------------------
# The roll (S4–S7)


@dataclass(frozen=True, slots=True)
class SRRoll:
    """One Shadowrun roll with every die it used (S4–S7).

    Attributes:
        dice: Every die in the order taken from the source: pool dice
            (``Src.DIE``), helper dice (``Src.HELPER``, S11), Edge dice
            (``Src.EDGE``), then rule-of-six dice (``Src.EXPLODED``, labelled
            ``"from #k"``, 1-based).
        parents: For each die, the index in ``dice`` of the six it exploded
            from, or None.
        pool_size: The pool asked for (before Edge and helper dice).
        helper_dice: Extra dice from helpers' hits (S11).
        edge_dice: Dice added by Edge (S7) or rolled for a Long Shot (S3).
        edge_when: ``"before"``, ``"after"``, ``"long_shot"`` or None.
        glitch_rerolls: The ``sr.glitch_rerolls`` choice (S5) in force.
        hurried: Extended test hurried: 2s count as 1s for glitches (S10).
        glitch_negated: 1 Edge spent to negate a glitch (S5).
        critical_reduced: 1 Edge spent to reduce a critical glitch (S6).
        bought: Hits bought instead of rolling (S4), or None.
        auto_failed: The pool was 0 or less and no dice were rolled (S3).
        edge_spent: Edge points spent on this roll in total.
        manual: True when the faces were entered from physical dice.
    """

    dice: tuple[Die, ...]
    parents: tuple[int | None, ...]
    pool_size: int
    helper_dice: int = 0
    edge_dice: int = 0
    edge_when: str | None = None
    glitch_rerolls: bool = True
    hurried: bool = False
    glitch_negated: bool = False
    critical_reduced: bool = False
    bought: int | None = None
    auto_failed: bool = False
    edge_spent: int = 0
    manual: bool = False

    # -- S4 ----------------------------------------------------------------
    @property
    def faces(self) -> list[int]:
        return [d.face for d in self.dice]

    @property
    def hits(self) -> int:
        """S4: every 5 or 6 on the table, exploded dice included; or bought hits."""
        if self.bought is not None:
            return self.bought
        return count_hits(self.faces)

    @property
    def exploded(self) -> tuple[Die, ...]:
        return tuple(d for d in self.dice if d.source == Src.EXPLODED)

    @property
    def rule_of_six(self) -> bool:
        """S7: whether this roll's dice follow the rule of six."""
        return self.edge_when in ("before", "long_shot")

    # -- S5 / S6 -----------------------------------------------------------
    @property
    def glitch_dice(self) -> tuple[Die, ...]:
        """The dice counted for a glitch (S5).

        With ``sr.glitch_rerolls`` (default) every die thrown counts. Without
        it only the original pool counts: every die that was not thrown again
        by the rule of six (pool, helper and Edge-added dice).
        """
        if self.glitch_rerolls:
            return self.dice
        return tuple(d for d in self.dice if d.source != Src.EXPLODED)

    @property
    def ones(self) -> int:
        """Ones among the counted dice; 1s and 2s when hurried (S10)."""
        worst = 2 if self.hurried else 1
        return sum(1 for d in self.glitch_dice if d.face <= worst)

    @property
    def rolled_glitch(self) -> bool:
        """S5 on the dice alone, before any Edge: ones ≥ half the dice counted."""
        counted = len(self.glitch_dice)
        return counted > 0 and 2 * self.ones >= counted

    @property
    def rolled_critical(self) -> bool:
        """S6 on the dice alone: a glitch with zero hits."""
        return self.rolled_glitch and self.hits == 0

    @property
    def glitch(self) -> bool:
        """S5/S6 after Edge: negated glitches are gone, reduced criticals stay glitches."""
        if self.glitch_negated:
            return False
        return self.rolled_glitch

    @property
    def critical_glitch(self) -> bool:
        """S6 after Edge: a critical glitch not reduced with Edge."""
        return self.rolled_critical and not self.critical_reduced

    # -- display -----------------------------------------------------------
    def explain(self) -> list[str]:
        """Lines for humans: ``"hits: 6,5 → 2"``, ``"ones: 3 of 5 → glitch"``."""
        if self.auto_failed:
            return [line("sr.auto_failed", pool_size=self.pool_size)]
        if self.bought is not None:
            return [line("sr.bought", pool_size=self.pool_size, n=self.bought)]
        lines: list[str] = []
        if self.edge_when == "long_shot":
            lines.append(line("sr.long_shot", edge=self.edge_dice))
        else:
            lines.append(line("sr.roll_pool", pool_size=self.pool_size, helpers=self.helper_dice,
                              edge=self.edge_dice, when=self.edge_when or ""))
        table = [d.face for d in self.dice if d.source != Src.EXPLODED]
        lines.append(line("sr.dice", faces=table))
        if self.exploded:
            chains = [self._chain(i) for i, d in enumerate(self.dice)
                      if self.parents[i] is None and d.face == 6 and self._children(i)]
            lines.append(line("sr.rule_of_six", chains=chains))
        hit_faces = sorted((f for f in self.faces if is_hit(f)), reverse=True)
        lines.append(line("sr.hits", faces=hit_faces, hits=self.hits))
        verdict = ("critical" if self.rolled_critical else "meant" if self.rolled_glitch and not self.glitch_negated
                   else "glitch" if self.rolled_glitch else "")
        lines.append(line("sr.ones", hurried=self.hurried, ones=self.ones, counted=len(self.glitch_dice),
                          verdict=verdict, hits=self.hits,
                          not_counted=not self.glitch_rerolls and bool(self.exploded)))
        if self.glitch_negated:
            lines.append(line("sr.glitch_negated"))
        if self.critical_reduced and self.rolled_critical:
            lines.append(line("sr.critical_reduced"))
        return lines

    def _children(self, index: int) -> list[int]:
        return [j for j, p in enumerate(self.parents) if p == index]

    def _chain(self, index: int) -> list[int]:
        out = [self.dice[index].face]
        kids = self._children(index)
        while kids:
            index = kids[0]
            out.append(self.dice[index].face)
            kids = self._children(index)
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "hits": self.hits,
            "glitch": self.glitch,
            "critical_glitch": self.critical_glitch,
            "ones": self.ones,
            "dice_counted": len(self.glitch_dice),
            "pool": self.pool_size,
            "helper_dice": self.helper_dice,
            "edge_dice": self.edge_dice,
            "edge": self.edge_when,
            "edge_spent": self.edge_spent,
            "glitch_negated": self.glitch_negated,
            "critical_reduced": self.critical_reduced,
            "bought": self.bought,
            "auto_failed": self.auto_failed,
            "hurried": self.hurried,
            "manual": self.manual,
            "dice": [
                {"face": d.face, "source": str(d.source), "label": d.label,
                 "from": p}
                for d, p in zip(self.dice, self.parents)
            ],
        }


def explodes(face: int) -> bool:
    """S7 rule of six: a 6 is rolled again."""
    return face == SIDES


def six_wave(faces: Iterable[int]) -> int:
    """S7: how many dice the next wave of the rule of six throws after these faces (one per 6)."""
    return sum(1 for f in faces if explodes(f))


def _explode(
    dice: list[Die], parents: list[int | None], wave: list[int], source: DiceSource
) -> None:
    """S7 rule of six: reroll every 6 of ``wave``, then every 6 of the new wave…"""
    added = 0
    while wave:
        nxt: list[int] = []
        for i in wave:
            if explodes(dice[i].face):
                added += 1
                if added > RULE_OF_SIX_GUARD:
                    raise RulesError(
                        said(N_("rule of six passed {RULE_OF_SIX_GUARD} dice: the dice source looks broken"), RULE_OF_SIX_GUARD=str(RULE_OF_SIX_GUARD))
                    )
                dice.append(Die(SIDES, source.roll(SIDES), Src.EXPLODED, f"from #{i + 1}"))
                parents.append(i)
                nxt.append(len(dice) - 1)
        wave = nxt


def _roll_n(n: int, src: str, source: DiceSource) -> list[Die]:
    return [Die(SIDES, source.roll(SIDES), src) for _ in range(n)]


def roll(
    pool_size: int,
    source: DiceSource,
    edge_before: int | None = None,
    *,
    settings: Settings | None = None,
    hurried: bool = False,
    helper_dice: int = 0,
) -> SRRoll:
    """Roll a pool of d6 (S4, S5, S7).

    Args:
        pool_size: Dice in the pool (from :func:`build_pool`). 0 or less is an
            automatic failure (S3): no dice, 0 hits, no glitch.
        source: Where the faces come from.
        edge_before: Edge rating when 1 Edge is spent before the roll (S7):
            that many dice are added and the whole pool follows the rule of
            six (every 6 is a hit and is rolled again, without limit).
        settings: Campaign settings; ``sr_glitch_rerolls`` picks which dice
            count for glitches (S5).
        hurried: Extended test hurried, 2s count as 1s for glitches (S10).
        helper_dice: Extra dice from teamwork helpers' hits (S11).

    Raises:
        RulesError: Edge on an empty pool (take a Long Shot instead, S3), or
            bad numbers.
    """
    _check_int(pool_size, "pool size")
    _check_int(helper_dice, "helper dice", 0)
    glitch_rerolls = (settings or Settings()).sr_glitch_rerolls
    total = pool_size + helper_dice
    if edge_before is not None:
        _check_int(edge_before, "Edge rating", 1)
    if total <= 0:
        if edge_before is not None:
            raise RulesError(said(N_("pool is 0 or less: spend Edge on a Long Shot instead (S3)")))
        return SRRoll((), (), pool_size, helper_dice, glitch_rerolls=glitch_rerolls,
                      hurried=hurried, auto_failed=True, manual=source.manual)
    pool_n, helper_n = (pool_size, helper_dice) if pool_size >= 0 else (0, total)
    dice = _roll_n(pool_n, Src.DIE, source) + _roll_n(helper_n, Src.HELPER, source)
    edge_dice = 0
    if edge_before is not None:
        edge_dice = edge_before
        dice += _roll_n(edge_dice, Src.EDGE, source)
    parents: list[int | None] = [None] * len(dice)
    if edge_before is not None:
        _explode(dice, parents, list(range(len(dice))), source)
    return SRRoll(
        tuple(dice), tuple(parents), pool_size, helper_dice, edge_dice,
        "before" if edge_before is not None else None,
        glitch_rerolls=glitch_rerolls, hurried=hurried,
        edge_spent=1 if edge_before is not None else 0, manual=source.manual,
    )


def roll_long_shot(
    edge_rating: int, source: DiceSource, *, settings: Settings | None = None
) -> SRRoll:
    """Roll a Long Shot (S3): Edge-rating dice, rule of six, 1 Edge spent."""
    plan = long_shot(edge_rating)
    glitch_rerolls = (settings or Settings()).sr_glitch_rerolls
    dice = _roll_n(plan.size, Src.EDGE, source)
    parents: list[int | None] = [None] * len(dice)
    _explode(dice, parents, list(range(len(dice))), source)
    return SRRoll(tuple(dice), tuple(parents), 0, 0, plan.size, "long_shot",
                  glitch_rerolls=glitch_rerolls, edge_spent=1, manual=source.manual)


def buy_hits(pool_size: int) -> SRRoll:
    """S4 buying hits: a roll of no dice with ``pool_size // 4`` hits, no glitch."""
    hits = bought_hits(pool_size)
    if pool_size <= 0:
        raise RulesError(said(N_("pool is 0 or less: there are no hits to buy (S3)")))
    return SRRoll((), (), pool_size, bought=hits)


def edge_after(roll: SRRoll, edge_rating: int, source: DiceSource) -> SRRoll:
    """Spend 1 Edge after the roll (S7).

    Adds ``edge_rating`` dice that follow the rule of six; the sixes already on
    the table do not explode.

    Raises:
        RulesError: Edge already added dice to this roll, hits were bought,
            or the pool failed automatically.
    """
    _check_int(edge_rating, "Edge rating", 1)
    if roll.auto_failed:
        raise RulesError(said(N_("pool is 0 or less: spend Edge on a Long Shot instead (S3)")))
    if roll.bought is not None:
        raise RulesError(said(N_("bought hits are not rolled: no Edge dice to add (S4)")))
    if roll.edge_dice:
        raise RulesError(said(N_("Edge already added dice to this roll (S7)")))
    dice = list(roll.dice)
    parents = list(roll.parents)
    start = len(dice)
    dice += _roll_n(edge_rating, Src.EDGE, source)
    parents += [None] * edge_rating
    _explode(dice, parents, list(range(start, len(dice))), source)
    return replace(roll, dice=tuple(dice), parents=tuple(parents), edge_dice=edge_rating,
                   edge_when="after", edge_spent=roll.edge_spent + 1,
                   manual=roll.manual or source.manual)


_Judged = TypeVar("_Judged", "SRRoll", "SuccessResult")
"""A roll, or a roll judged against a threshold: Edge after the roll keeps which it was."""


def _on_roll(result: _Judged, fn: Callable[[SRRoll], SRRoll]) -> _Judged:
    if isinstance(result, SRRoll):
        return fn(result)
    if isinstance(result, SuccessResult):
        return replace(result, roll=fn(result.roll))
    raise RulesError(said(N_("not a Shadowrun roll: {name}"), name=str(type(result).__name__)))


def negate_glitch(result: _Judged) -> _Judged:
    """Spend 1 Edge to negate a glitch (S5).

    Raises:
        RulesError: no glitch, a critical glitch (reduce it instead, S6), or a
            critical glitch already reduced (no further Edge, S6).
    """

    def fn(r: SRRoll) -> SRRoll:
        if r.critical_glitch:
            raise RulesError(said(N_("Edge cannot negate a critical glitch; spend 1 Edge to reduce it (S6)")))
        if r.critical_reduced and r.rolled_critical:
            raise RulesError(said(N_("no further Edge may be spent on a reduced critical glitch (S6)")))
        if not r.glitch:
            raise RulesError(said(N_("there is no glitch to negate (S5)")))
        return replace(r, glitch_negated=True, edge_spent=r.edge_spent + 1)

    return _on_roll(result, fn)


def reduce_critical(result: _Judged) -> _Judged:
    """Spend 1 Edge to reduce a critical glitch to a plain glitch (S6).

    Raises:
        RulesError: the roll has no critical glitch.
    """

    def fn(r: SRRoll) -> SRRoll:
        if not r.critical_glitch:
            raise RulesError(said(N_("there is no critical glitch to reduce (S6)")))
        return replace(r, critical_reduced=True, edge_spent=r.edge_spent + 1)

    return _on_roll(result, fn)


# ---------------------------------------------------------------------------
# S8 success test


@dataclass(frozen=True, slots=True)
class SuccessResult:
    """A success test (S8).

    Attributes:
        roll: The roll.
        threshold: Hits needed.
        hidden: The GM keeps the threshold from the players (display only).
    """

    roll: SRRoll
    threshold: int
    hidden: bool = False

    @property
    def hits(self) -> int:
        return self.roll.hits

    @property
    def success(self) -> bool:
        """S8: hits ≥ threshold (an automatic failure never succeeds, S3)."""
        return not self.roll.auto_failed and self.hits >= self.threshold

    @property
    def margin(self) -> int:
        """Hits − threshold, negative on a failure."""
        return self.hits - self.threshold

    @property
    def net_hits(self) -> int:
        """S8: hits above the threshold; 0 on a failure."""
        return max(self.margin, 0) if self.success else 0

    @property
    def glitch(self) -> bool:
        return self.roll.glitch

    @property
    def critical_glitch(self) -> bool:
        return self.roll.critical_glitch

    def explain(self) -> list[str]:
        lines = self.roll.explain()
        lines.append(line("sr.threshold", threshold=self.threshold, hidden=self.hidden, hits=self.hits,
                          success=self.success, net_hits=self.net_hits))
        return lines

    def to_json(self) -> dict[str, Any]:
        out = self.roll.to_json()
        out.update(threshold=self.threshold, hidden=self.hidden,
                   success=self.success, net_hits=self.net_hits)
        return out


def success_test(roll: SRRoll, threshold: int, hidden: bool = False) -> SuccessResult:
    """Judge a roll against a threshold (S8): hits ≥ threshold succeeds.

    Raises:
        RulesError: a threshold below 1.
    """
    _check_int(threshold, "threshold", 1)
    return SuccessResult(roll, threshold, hidden)


# ---------------------------------------------------------------------------
# S9 opposed test


@dataclass(frozen=True, slots=True)
class OpposedResult:
    """An opposed test (S9); side B is the defender."""

    a: SRRoll
    b: SRRoll

    @property
    def a_hits(self) -> int:
        return self.a.hits

    @property
    def b_hits(self) -> int:
        return self.b.hits

    @property
    def winner(self) -> str:
        """``"a"``, ``"b"`` or ``"tie"`` (a stalemate)."""
        if self.a_hits > self.b_hits:
            return "a"
        if self.b_hits > self.a_hits:
            return "b"
        return "tie"

    @property
    def net_hits(self) -> int:
        """S9: the difference in hits."""
        return abs(self.a_hits - self.b_hits)

    @property
    def winner_if_needed(self) -> str:
        """S9: on a tie the defender (B) wins when a winner is needed."""
        return "b" if self.winner == "tie" else self.winner

    def explain(self) -> list[str]:
        lines: list[str] = [line("side", side="A", line=x) for x in self.a.explain()]
        lines += [line("side", side="B", line=x) for x in self.b.explain()]
        lines.append(line("sr.opposed", a_hits=self.a_hits, b_hits=self.b_hits, winner=self.winner,
                          net_hits=self.net_hits))
        return lines

    def roll_of(self, side: str) -> SRRoll:
        if side not in ("a", "b"):
            raise RulesError(said(N_("side must be 'a' or 'b', not {side}"), side=repr(side)))
        return self.a if side == "a" else self.b

    def with_roll(self, side: str, roll: SRRoll) -> "OpposedResult":
        """The same test with ``side``'s roll changed by Edge after the roll (S5–S7)."""
        self.roll_of(side)
        return replace(self, **{side: roll})

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "net_hits": self.net_hits,
            "winner_if_needed": self.winner_if_needed,
            "a": self.a.to_json(),
            "b": self.b.to_json(),
        }


def opposed(a_roll: SRRoll, b_roll: SRRoll) -> OpposedResult:
    """Compare two rolls (S9): more hits wins; B is the defender."""
    return OpposedResult(a_roll, b_roll)


def group_pool(pools: Sequence[int]) -> int:
    """S9 against a group: the largest pool + 1 die per extra member, at most +5."""
    if not pools:
        raise RulesError(said(N_("a group needs at least one member (S9)")))
    for p in pools:
        _check_int(p, "pool size")
    return max(pools) + min(GROUP_BONUS_CAP, len(pools) - 1)


# ---------------------------------------------------------------------------
# S10 extended test


@dataclass(frozen=True, slots=True)
class ExtendedTest:
    """An extended test (S10); every change returns a new state.

    Attributes:
        threshold: Hits to accumulate.
        interval_label: The interval, e.g. ``"1 hour"`` (display only).
        hurried: Shorter interval; 2s count as 1s for glitches.
        accumulated: Hits so far.
        intervals: Rolls made so far.
        ended: Over without success: a critical glitch, or spoiled.
        spoiled: The GM ruled that a glitch spoiled the test.
        history: Every roll added, as judged (hurried applied).
        restarts: Times the test was restarted from zero.
        interval_thresholds: The threshold in force at each roll of
            ``history`` (S10: the GM may change it between intervals).

    Each interval uses what is in force when it is rolled (S10): change the
    threshold or hurrying with :meth:`with_threshold` / :meth:`with_hurried`
    (or pass them to :meth:`add`) and the next roll is judged with them; the
    progress is always judged against the threshold in force now.
    """

    threshold: int
    interval_label: str = "interval"
    hurried: bool = False
    accumulated: int = 0
    intervals: int = 0
    ended: bool = False
    spoiled: bool = False
    history: tuple[SRRoll, ...] = ()
    restarts: int = 0
    interval_thresholds: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        _check_int(self.threshold, "threshold", 1)

    @property
    def done(self) -> bool:
        """The threshold has been reached."""
        return self.accumulated >= self.threshold

    @property
    def over(self) -> bool:
        return self.done or self.ended

    @property
    def failed(self) -> bool:
        return self.ended and not self.done

    @property
    def glitched(self) -> bool:
        """The last roll glitched: the GM may :meth:`spoil` the test (S10)."""
        return bool(self.history) and self.history[-1].glitch

    @property
    def remaining(self) -> int:
        return max(self.threshold - self.accumulated, 0)

    def with_threshold(self, threshold: int) -> "ExtendedTest":
        """The GM changes the threshold between intervals (S10); progress is judged against it.

        Raises:
            RulesError: a threshold below 1, or the test is over.
        """
        _check_int(threshold, "threshold", 1)
        if self.over:
            raise RulesError(said(N_("the extended test is already over (S10)")))
        return replace(self, threshold=threshold)

    def with_hurried(self, hurried: bool) -> "ExtendedTest":
        """The GM hurries (or stops hurrying) the next intervals (S10).

        Raises:
            RulesError: the test is over.
        """
        if self.over:
            raise RulesError(said(N_("the extended test is already over (S10)")))
        return replace(self, hurried=bool(hurried))

    def judged(self, roll: SRRoll) -> SRRoll:
        """``roll`` as this interval judges it: hurried or not as in force now (S10)."""
        return roll if roll.hurried == self.hurried else replace(roll, hurried=self.hurried)

    def add(self, roll: SRRoll, *, threshold: int | None = None,
            hurried: bool | None = None) -> "ExtendedTest":
        """Add one interval's roll: accumulate its hits (S10).

        The roll is judged with what is in force for this interval: the
        test's hurrying and threshold, or the ``threshold`` / ``hurried`` given
        here, which stay in force for later intervals. A critical glitch ends
        the test (and adds nothing); a plain glitch is recorded and the GM may
        :meth:`spoil` the test.

        Raises:
            RulesError: the test is already over, or a bad threshold.
        """
        state = self
        if threshold is not None and threshold != state.threshold:
            state = state.with_threshold(threshold)
        if hurried is not None and bool(hurried) != state.hurried:
            state = state.with_hurried(hurried)
        if state.over:
            raise RulesError(said(N_("the extended test is already over (S10)")))
        roll = state.judged(roll)
        history = state.history + (roll,)
        marks = state.interval_thresholds + (state.threshold,)
        if roll.critical_glitch:
            return replace(state, intervals=state.intervals + 1, ended=True, history=history,
                           interval_thresholds=marks)
        return replace(state, accumulated=state.accumulated + roll.hits,
                       intervals=state.intervals + 1, history=history, interval_thresholds=marks)

    def amend_last(self, roll: SRRoll, previous: SRRoll | None = None) -> "ExtendedTest":
        """Replace the last interval's roll after Edge was spent on it (S5–S7, S10).

        Edge after the roll, a negated glitch or a reduced critical glitch
        change that interval only: its hits are counted again, and a critical
        glitch reduced to a plain one no longer ends the test.

        Args:
            roll: the changed roll.
            previous: the roll it replaces, when this state was built
                without its history; by default the last roll of ``history``.

        Raises:
            RulesError: no interval has been rolled, or the GM already spoiled the test.
        """
        old = previous if previous is not None else (self.history[-1] if self.history else None)
        if old is None or self.intervals < 1:
            raise RulesError(said(N_("no interval has been rolled yet (S10)")))
        if self.spoiled:
            raise RulesError(said(N_("the GM ruled the test spoiled (S10)")))
        old = self.judged(old) if previous is not None else old
        roll = replace(roll, hurried=old.hurried)
        before = self.accumulated - (0 if old.critical_glitch else old.hits)
        history = self.history[:-1] + (roll,) if self.history else (roll,)
        ended = roll.critical_glitch
        accumulated = before if ended else before + roll.hits
        return replace(self, accumulated=accumulated, ended=ended, history=history)

    def reuse(self, roll: SRRoll) -> "ExtendedTest":
        """S10: the GM rolls once and uses the result for every interval until over.

        Raises:
            RulesError: the roll has no hits and no critical glitch, so it
                would never finish; or the test is already over.
        """
        judged = replace(roll, hurried=True) if self.hurried else roll
        if judged.hits == 0 and not judged.critical_glitch:
            raise RulesError(said(N_("a roll with 0 hits would never finish the test (S10)")))
        state = self.add(roll)
        while not state.over:
            state = state.add(roll)
        return state

    def spoil(self) -> "ExtendedTest":
        """The GM rules that the last roll's glitch spoils the test (S10).

        Raises:
            RulesError: the last roll did not glitch, or the test is over.
        """
        if self.over:
            raise RulesError(said(N_("the extended test is already over (S10)")))
        if not self.glitched:
            raise RulesError(said(N_("only a glitch can spoil an extended test (S10)")))
        return replace(self, spoiled=True, ended=True)

    def restart(self) -> "ExtendedTest":
        """An interrupted test starts again from zero (S10)."""
        return ExtendedTest(self.threshold, self.interval_label, self.hurried,
                            restarts=self.restarts + 1)

    @property
    def status(self) -> str:
        if self.done:
            return "done"
        if self.spoiled:
            return "spoiled"
        if self.ended:
            return "ended by a critical glitch"
        return "in progress"

    def explain(self) -> list[str]:
        lines: list[str] = [line("sr.extended", accumulated=self.accumulated, threshold=self.threshold, intervals=self.intervals,
                      label=self.interval_label, hurried=self.hurried, status=self.status)]
        if self.glitched and not self.over:
            lines.append(line("sr.extended_glitched"))
        return lines

    def to_json(self) -> dict[str, Any]:
        return {
            "threshold": self.threshold,
            "interval": self.interval_label,
            "hurried": self.hurried,
            "accumulated": self.accumulated,
            "intervals": self.intervals,
            "done": self.done,
            "ended": self.ended,
            "spoiled": self.spoiled,
            "glitched": self.glitched,
            "status": self.status,
            "restarts": self.restarts,
            "interval_thresholds": list(self.interval_thresholds),
        }


# ---------------------------------------------------------------------------
# S11 teamwork


def teamwork(
    leader_pool: int,
    helper_rolls: Sequence[SRRoll | int],
    leader_skill: int | None = None,
    settings: Settings | None = None,
) -> int:
    """S11: the leader's pool plus the helpers' hits (capped per ``sr.teamwork_cap``).

    Helpers roll first; each item is a helper's roll (or their hits). Roll the
    leader with ``roll(leader_pool, source, helper_dice=sum_of_hits)`` to keep
    the helper dice apart in the log.
    """
    _check_int(leader_pool, "leader pool")
    return leader_pool + teamwork_bonus(helper_rolls, leader_skill, settings)


def helper_pool(
    skill: int | None,
    attribute: int,
    second_attribute: int | None = None,
    *,
    defaulting_allowed: bool = True,
    wound_modifier: int = 0,
    modifiers: Sequence[tuple[str, int]] = (),
    override: int | None = None,
    skill_name: str = "skill",
    attribute_name: str = "attribute",
    second_attribute_name: str = "attribute",
) -> PoolPlan:
    """S11: a helper's own pool for the leader's test, or the GM's override.

    The helper rolls the same test with their own ratings: their rating in
    the same skill + the same linked attribute, or the same attribute +
    attribute; their own wound modifier; defaulting (S2) when they lack the
    skill. A skill that cannot be defaulted leaves them 0 dice (they cannot
    help) rather than an error. ``override`` replaces all of it (the GM's call).

    Raises:
        RulesError: bad numbers.
    """
    if override is not None:
        _check_int(override, "helper pool", 0)
        return PoolPlan(override, (("GM's pool", override),), (line("sr.helper_override", count=override),))
    try:
        return build_pool(skill, attribute, second_attribute, modifiers, defaulting_allowed, wound_modifier,
                          skill_name=skill_name, attribute_name=attribute_name,
                          second_attribute_name=second_attribute_name)
    except RulesError as exc:
        if "defaulting" not in str(exc):
            raise
        return PoolPlan(0, ((skill_name, 0),), (line("sr.cannot_help", skill=skill_name),))


def teamwork_bonus(
    helper_rolls: Sequence[SRRoll | int],
    leader_skill: int | None = None,
    settings: Settings | None = None,
) -> int:
    """S11: the leader's extra dice, the sum of the helpers' hits.

    ``sr.teamwork_cap``: ``none`` (default) sets no limit; ``skill`` caps the
    extra dice at the leader's skill rating (0 when the leader has no skill).
    """
    total = 0
    for h in helper_rolls:
        total += h.hits if isinstance(h, SRRoll) else _check_int(h, "helper hits", 0)
    if (settings or Settings()).sr_teamwork_cap == "skill":
        cap = _check_int(leader_skill or 0, "leader skill", 0)
        return min(total, cap)
    return total


def leader_of(pools: Mapping[str, int] | Sequence[int]) -> str | int:
    """S11: who leads, the largest pool (its key, or index; the first on a tie)."""
    if not pools:
        raise RulesError(said(N_("teamwork needs at least one character (S11)")))
    items = list(pools.items()) if hasattr(pools, "items") else list(enumerate(pools))
    best = items[0]
    for item in items[1:]:
        if item[1] > best[1]:
            best = item
    return best[0]


# ---------------------------------------------------------------------------
# S12 extras


def condition_monitor(body_or_willpower: int) -> int:
    """S12: boxes of a condition monitor, 8 + ⌈Body/2⌉ (or Willpower)."""
    _check_int(body_or_willpower, "attribute", 0)
    return 8 + math.ceil(body_or_willpower / 2)


def wound_modifier(physical_filled: int, stun_filled: int) -> int:
    """S12: −1 die per 3 boxes filled, on each monitor separately."""
    _check_int(physical_filled, "physical boxes filled", 0)
    _check_int(stun_filled, "stun boxes filled", 0)
    return -(physical_filled // 3) - (stun_filled // 3)


# Damage (SR4 core book, beyond the dice text): the attack's net hits raise the
# weapon's Damage Value, the defender resists with Body + armour, each hit of
# the resistance roll takes one box off, what is left fills the monitor.

DAMAGE_KINDS = ("physical", "stun")
"""The two condition monitors damage can fill (S12)."""


def modified_damage(base_dv: int, net_hits: int) -> int:
    """The attack's Damage Value: the weapon's DV + the attacker's net hits (SR4 core).

    EX: a Predator, DV 5, hit with 2 net hits → 7.
    """
    return _check_int(base_dv, "damage value", 0) + _check_int(net_hits, "net hits", 0)


@dataclass(frozen=True, slots=True)
class ArmourPenetration:
    """A weapon's Armour Penetration as the books print it: a modifier to the defender's
    armour (−1, +2; 0 where the book prints "—") or −half (the armour is halved)."""

    modifier: int = 0
    half: bool = False

    @property
    def text(self) -> str:
        """As the books print it: "−2", "+2", "−half", "—"."""
        if self.half:
            return "−half"
        if self.modifier == 0:
            return "—"
        return f"+{self.modifier}" if self.modifier > 0 else f"−{-self.modifier}"

    def to_json(self) -> int | str:
        """The stored form: the modifier as a number, or the text "-half"."""
        return "-half" if self.half else self.modifier


_MINUS = "-−–"
"""Hyphen, minus sign and en dash: the books and Chummer print AP with each."""


def parse_ap(value: int | str | ArmourPenetration) -> ArmourPenetration:
    """A weapon's AP from what the books (or Chummer) print, or from its stored form.

    Takes "−2", "-2", "+2", "0", "−half" / "-half" / "–half", and "—" / "-" / "" for none.
    EX: "-1" → −1; "+2" → +2; "−half" → half; "-" → 0. Anything else is refused in one line.
    """
    if isinstance(value, ArmourPenetration):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        if not -99 <= value <= 99:
            raise RulesError(said(N_("AP must be between −99 and +99, not {value}"), value=str(value)))
        return ArmourPenetration(value)
    if not isinstance(value, str):
        raise RulesError(said(N_("AP must be a number such as −2 or +2, or −half, not {value}"), value=repr(value)))
    text = value.strip().lower()
    if text in ("", "—", "0") or (len(text) == 1 and text in _MINUS):
        return ArmourPenetration(0)
    sign, rest = (text[0], text[1:].strip()) if text[0] in _MINUS + "+" else ("+", text)
    if rest == "half" and sign in _MINUS:
        return ArmourPenetration(0, half=True)
    if rest.isdigit() and len(rest) <= 2:
        return ArmourPenetration(int(rest) if sign == "+" else -int(rest))
    raise RulesError(said(N_("AP must be a number such as −2 or +2, or −half, not {value}"), value=repr(value.strip()[:40])))


def effective_armour(armour: int, ap: int | ArmourPenetration = 0) -> int:
    """Armour after the weapon's Armour Penetration (never below 0).

    A modifier adds to the armour (AP is usually negative; flechettes print +5); −half
    halves it, rounding up as SR4 rounds unless a rule says otherwise.
    EX: armour 6 against AP −2 → 4; armour 1 against AP −4 → 0; armour 6, AP +2 → 8;
    armour 7 against −half → 4.
    """
    armour = _check_int(armour, "armour", 0)
    if isinstance(ap, ArmourPenetration):
        if ap.half:
            return math.ceil(armour / 2)
        ap = ap.modifier
    return max(0, armour + _check_int(ap, "AP"))


WEAPON_KINDS = ("ranged", "melee", "thrown")
"""How a weapon reaches its target; it decides which armour meets it (:func:`armour_against`)."""

_MELEE_SKILLS = frozenset({"blades", "clubs", "unarmed combat", "exotic melee weapon"})
_THROWN_SKILLS = frozenset({"throwing weapons"})


def weapon_kind(skill: str) -> str:
    """The kind of a weapon used with ``skill``: melee skills → "melee", Throwing Weapons → "thrown",
    any other (firearms, archery, gunnery…) → "ranged". EX: "Blades" → melee; "Pistols" → ranged."""
    low = skill.strip().lower()
    if low in _MELEE_SKILLS or low.startswith("exotic melee"):
        return "melee"
    if low in _THROWN_SKILLS:
        return "thrown"
    return "ranged"


# The defence against an attack (SR4 core, the opposed test of S9 with the defender as side B):
# Reaction alone by default; a full defence adds Dodge; against a melee attack the defender may
# parry (a blade or a club) or block (Unarmed Combat) instead. Each attack defended before in
# the same pass costs a die.

DEFENCES = ("reaction", "full", "parry", "block")
"""The defences, in the order a key steps through them."""

OWN_DEFENCE = "own"
"""The defender rolls the pool the GM builds instead (any pool: an attribute alone, a count, skill + attribute)."""

DEFENCE_CHOICES = (*DEFENCES, OWN_DEFENCE)
"""What a defender may roll, as a character's sheet remembers it (``defence``)."""

DEFENCE_ATTRIBUTE = "reaction"
"""Every defence rolls Reaction, alone or with the defence's skill."""

DEFENCE_SKILLS: dict[str, tuple[str, ...]] = {
    "reaction": (),
    "full": ("Dodge",),
    "parry": ("Blades", "Clubs"),
    "block": ("Unarmed Combat",),
}
"""The skill each defence adds to Reaction (the highest the defender has, of those named)."""


def defences_against(kind: str) -> tuple[str, ...]:
    """The defences open against an attack of this weapon kind: parrying and blocking only meet a
    melee attack; a ranged or thrown one is met by Reaction, or by a full defence (Dodge).

    >>> defences_against("ranged"), defences_against("melee")
    (('reaction', 'full'), ('reaction', 'full', 'parry', 'block'))
    """
    if kind not in WEAPON_KINDS:
        raise RulesError(said(N_("an attack is ranged, melee or thrown, not '{kind}'"), kind=str(kind)))
    return DEFENCES if kind == "melee" else ("reaction", "full")


def defence_penalty(defended_before: int) -> int:
    """Dice off a defence for the attacks already defended in the same pass: −1 each.

    >>> defence_penalty(0), defence_penalty(2)
    (0, -2)
    """
    return -_check_int(defended_before, "attacks defended", 0)


def armour_against(kind: str) -> str:
    """SR4 core: ballistic armour meets ranged attacks, impact armour melee and thrown ones.

    EX: "ranged" → "ballistic"; "melee" → "impact"; "thrown" → "impact".
    """
    if kind not in WEAPON_KINDS:
        raise RulesError(said(N_("a weapon is {WEAPON_KINDS}, not {kind}"), WEAPON_KINDS=str(', '.join(WEAPON_KINDS)), kind=repr(kind)))
    return "ballistic" if kind == "ranged" else "impact"


def resistance_pool(body: int, armour: int, ap: int | ArmourPenetration = 0) -> int:
    """Dice of the damage resistance test: Body + armour (after AP).

    The wound modifier does not apply to this test (SR4 core: wound modifiers
    apply to every test except damage resistance). EX: Body 4, armour 6, AP −2 → 8.
    """
    return _check_int(body, "Body", 0) + effective_armour(armour, ap)


def damage_kind(kind: str, dv: int, armour: int, conversion: str = "below") -> str:
    """Which monitor a hit fills: physical damage whose DV is under the armour is stun.

    ``conversion`` is the ``sr.stun_conversion`` choice, because readings of
    the core book differ: ``"below"`` (default; the modified DV *less than*
    the armour after AP turns physical into stun), ``"not_above"`` (DV not
    exceeding the armour, so an equal value converts too), ``"never"``.
    EX: 5P against armour 6 → stun under either reading; 6P against armour 6 →
    physical by default, stun under ``"not_above"``.
    """
    if kind not in DAMAGE_KINDS:
        raise RulesError(said(N_("damage is 'physical' or 'stun', not {kind}"), kind=repr(kind)))
    _check_int(dv, "damage value", 0)
    _check_int(armour, "armour", 0)
    if kind == "stun" or conversion == "never":
        return kind
    if conversion == "below":
        return "stun" if dv < armour else "physical"
    if conversion == "not_above":
        return "stun" if dv <= armour else "physical"
    raise RulesError(said(N_("sr.stun_conversion must be below, not_above or never, not {conversion}"), conversion=repr(conversion)))


def faces_needed(pool_size: int, edge_before: int | None, faces: Sequence[int]) -> int:
    """How many more physical dice a roll needs, given the faces entered so far (S7).

    Without Edge before the roll: the pool. With it: the pool + Edge dice,
    then one die per six of the previous wave, wave by wave (the order of the
    module docstring). EX: pool 3, Edge 2: 5 dice; faces 6,6,1,2,3 → 2 more;
    then 6,4 → 1 more; then 2 → 0.
    """
    first = max(0, pool_size) + (edge_before or 0)
    if len(faces) < first:
        return first - len(faces)
    if not edge_before:
        return 0
    start, wave = 0, first
    while True:
        end = start + wave
        if len(faces) < end:
            return end - len(faces)
        sixes = sum(1 for f in faces[start:end] if f == SIDES)
        if not sixes:
            return 0
        start, wave = end, sixes


@dataclass(frozen=True, slots=True)
class Monitors:
    """A character's condition monitors (S12) and physical overflow.

    Attributes:
        physical, stun: Boxes filled.
        physical_max, stun_max: Boxes of each monitor (:func:`condition_monitor`).
        overflow: Physical boxes beyond a full physical monitor; more than
            ``body`` of them is death (SR4 core).
        body: The Body rating, the overflow a character survives.
    """

    physical: int
    stun: int
    physical_max: int
    stun_max: int
    overflow: int = 0
    body: int = 0

    @property
    def unconscious(self) -> bool:
        """A full stun or physical monitor knocks a character out (SR4 core)."""
        return self.stun >= self.stun_max or self.physical >= self.physical_max

    @property
    def dying(self) -> bool:
        """A full physical monitor: dying, without medical help (SR4 core)."""
        return self.physical >= self.physical_max and not self.dead

    @property
    def dead(self) -> bool:
        """Overflow beyond Body kills (SR4 core)."""
        return self.overflow > self.body

    @property
    def wound_modifier(self) -> int:
        return wound_modifier(self.physical, self.stun)

    def state_text(self) -> str:
        if self.dead:
            return "dead"
        if self.dying:
            return f"dying (overflow {self.overflow}/{self.body})"
        if self.unconscious:
            return "unconscious"
        return "conscious"


def take_damage(mon: Monitors, boxes: int, kind: str, overflow_rule: str = "box", *, capped: bool = True) -> Monitors:
    """Fill ``boxes`` of the ``kind`` monitor, with overflow (SR4 core).

    Stun beyond a full stun monitor overflows into the physical monitor;
    ``overflow_rule`` is the ``sr.stun_overflow`` choice: ``"box"`` (default,
    the 4th-edition reading: one physical box per excess stun box) or
    ``"half"`` (the later edition's reading: one physical box per two excess
    stun boxes, rounded down). Physical beyond a full physical monitor is
    overflow; overflow is kept up to Body + 1 (more than Body is death), or
    counted whole with ``capped=False`` (the true overflow of a hit, as shown).

    EX (Body 4, monitors 10 physical / 10 stun): 8 stun filled + 5 stun →
    stun 10, 3 overflow into physical ("half": 1). 9 physical filled + 4
    physical → physical 10, overflow 3 (alive, dying); + 2 more → overflow 5
    > Body 4: dead.
    """
    _check_int(boxes, "boxes", 0)
    if kind not in DAMAGE_KINDS:
        raise RulesError(said(N_("damage is 'physical' or 'stun', not {kind}"), kind=repr(kind)))
    if overflow_rule not in ("box", "half"):
        raise RulesError(said(N_("sr.stun_overflow must be box or half, not {overflow_rule}"), overflow_rule=repr(overflow_rule)))
    physical_boxes = boxes
    stun = mon.stun
    if kind == "stun":
        room = max(0, mon.stun_max - stun)
        stun += min(room, boxes)
        excess = boxes - min(room, boxes)
        physical_boxes = excess if overflow_rule == "box" else excess // 2
    room = max(0, mon.physical_max - mon.physical)
    physical = mon.physical + min(room, physical_boxes)
    overflow = mon.overflow + physical_boxes - min(room, physical_boxes)
    return replace(mon, physical=physical, stun=stun, overflow=min(mon.body + 1, overflow) if capped else overflow)


@dataclass(frozen=True, slots=True)
class DamageResult:
    """One hit resisted and applied (SR4 core, S12 monitors).

    Attributes:
        base_dv: The weapon's Damage Value.
        net_hits: The attacker's net hits (S9).
        declared: ``"physical"`` or ``"stun"`` as the weapon deals it.
        armour: Armour after AP.
        resist_hits: Hits of the damage resistance test.
        kind: The monitor filled, after stun conversion.
        before, after: The monitors around it (``after.overflow`` as kept: at most Body + 1).
        overflow: The overflow the hit leaves, counted whole (beyond Body + 1 too): what is shown.
    """

    base_dv: int
    net_hits: int
    declared: str
    armour: int
    resist_hits: int
    kind: str
    before: Monitors
    after: Monitors
    overflow: int = 0

    @property
    def dv(self) -> int:
        return modified_damage(self.base_dv, self.net_hits)

    @property
    def boxes(self) -> int:
        """Boxes the hit deals after resistance: DV − resistance hits, never below 0."""
        return max(0, self.dv - self.resist_hits)

    @property
    def converted(self) -> bool:
        return self.kind != self.declared

    def explain(self) -> list[str]:
        lines: list[str] = [line("sr.dv", base_dv=self.base_dv, net_hits=self.net_hits, dv=self.dv,
                                 letter="P" if self.declared == "physical" else "S")]
        if self.converted:
            lines.append(line("sr.dv_converted", dv=self.dv, armour_now=self.armour))
        lines.append(line("sr.resisted", resist_hits=self.resist_hits, boxes=self.boxes, track=self.kind))
        b, a = self.before, self.after
        lines.append(line("sr.monitors", physical_before=b.physical, physical_now=a.physical,
                          physical_max=a.physical_max, stun_before=b.stun, stun_now=a.stun, stun_max=a.stun_max,
                          overflow_before=b.overflow, overflow_now=self.overflow))
        lines.append(line("sr.wound_state", modifier=a.wound_modifier, state=a.state_text()))
        return lines

    def to_json(self) -> dict[str, Any]:
        return {"base_dv": self.base_dv, "net_hits": self.net_hits, "dv": self.dv, "declared": self.declared,
                "armour": self.armour, "resist_hits": self.resist_hits, "damage_kind": self.kind,
                "boxes": self.boxes, "physical": self.after.physical, "stun": self.after.stun,
                "overflow": self.overflow, "state": self.after.state_text()}


def resolve_damage(mon: Monitors, base_dv: int, net_hits: int, declared: str, armour: int, resist_hits: int,
                   *, settings: Settings | None = None) -> DamageResult:
    """Apply one resisted hit (SR4 core): DV + net hits, stun conversion, −1 box per resistance hit,
    the monitor filled with overflow.

    EX: Predator DV 5P, 2 net hits → 7P; armour 6 (after AP): 7 is not under 6,
    physical; Body 4 + armour 6 = 10 dice roll 5,6,1,2,3,5,4,2,1,6 → 4 hits →
    3 boxes physical.
    """
    settings = settings or Settings()
    _check_int(resist_hits, "resistance hits", 0)
    dv = modified_damage(base_dv, net_hits)
    kind = damage_kind(declared, dv, armour, settings.sr_stun_conversion)
    boxes = max(0, dv - resist_hits)
    after = take_damage(mon, boxes, kind, settings.sr_stun_overflow)
    whole = take_damage(mon, boxes, kind, settings.sr_stun_overflow, capped=False)
    return DamageResult(base_dv, net_hits, declared, armour, resist_hits, kind, mon, after, whole.overflow)


def spend_edge(current: int, cost: int = 1) -> int:
    """Edge left after spending ``cost`` points (S3, S5–S7; refreshes each session, S12).

    Raises:
        RulesError: not enough Edge.
    """
    _check_int(current, "Edge", 0)
    _check_int(cost, "Edge cost", 0)
    if cost > current:
        raise RulesError(said(N_("not enough Edge: {current} left, {cost} needed"), current=str(current), cost=str(cost)))
    return current - cost


MAX_INITIATIVE_BONUS = 12
"""The largest initiative bonus from augmentations or magic a sheet may hold (wired reflexes 3 is +3)."""

INITIATIVE_KINDS = ("physical", "astral", "matrix")
"""SR4 core: the initiative scores a character may have. Physical: Reaction + Intuition (+ the bonus of
augmentations or magic). Astral (a projecting magician): Intuition × 2, 3 passes. Matrix (full VR):
Intuition + the device's Response, which the sheet keeps as that score's bonus; 2 passes cold sim,
3 hot sim. A fighter acts on one of them in a combat turn."""

INITIATIVE_KIND_PASSES = {"physical": 1, "astral": 3, "matrix": 2}
"""The passes a score starts with when the GM adds it to a sheet (matrix: cold sim; hot sim is 3)."""


def _check_kind(kind: str) -> str:
    if kind not in INITIATIVE_KINDS:
        raise RulesError(said(N_("an initiative score is {INITIATIVE_KINDS}, not '{kind}'"), INITIATIVE_KINDS=str(', '.join(INITIATIVE_KINDS)), kind=str(kind)))
    return kind


def initiative_pool(reaction: int, intuition: int, bonus: int = 0, kind: str = "physical") -> int:
    """S12: dice for the initiative roll, Reaction + Intuition, + the initiative bonus of
    augmentations or magic (SR4 core: e.g. wired reflexes 2 is +2 and one more pass).
    Astral: Intuition × 2 (+ the bonus); matrix: Intuition + the bonus (the device's Response).

    >>> initiative_pool(4, 3), initiative_pool(4, 3, 2), initiative_pool(4, 5, kind="astral")
    (7, 9, 10)
    >>> initiative_pool(4, 5, 4, kind="matrix")
    9
    """
    _check_kind(kind)
    reaction, intuition = _check_int(reaction, "Reaction", 0), _check_int(intuition, "Intuition", 0)
    bonus = _check_int(bonus, "initiative bonus", 0)
    if kind == "astral":
        return 2 * intuition + bonus
    if kind == "matrix":
        return intuition + bonus
    return reaction + intuition + bonus


def initiative_score(reaction: int, intuition: int, hits: int, bonus: int = 0, kind: str = "physical") -> int:
    """S12: initiative = Reaction + Intuition (+ the bonus) + hits on the initiative roll
    (astral, matrix: their own base, :func:`initiative_pool`).

    >>> initiative_score(4, 4, 3), initiative_score(4, 4, 3, bonus=2), initiative_score(4, 5, 1, kind="astral")
    (11, 13, 11)
    """
    return initiative_pool(reaction, intuition, bonus, kind) + _check_int(hits, "hits", 0)


def roll_initiative(reaction: int, intuition: int, source: DiceSource, *, bonus: int = 0, kind: str = "physical",
                    edge_rating: int | None = None, settings: Settings | None = None) -> SRRoll:
    """S12: the initiative roll, its score's dice (:func:`initiative_pool`); with ``edge_rating``
    (1 Edge spent before the roll, S7) that many dice more and the rule of six on the whole roll.
    The score is the pool + the hits (:func:`initiative_score`)."""
    return roll(initiative_pool(reaction, intuition, bonus, kind), source, edge_rating, settings=settings)


@dataclass(frozen=True, slots=True)
class InitEntry:
    """One character in the initiative order (S12).

    Attributes:
        name: Who.
        score: Initiative score (:func:`initiative_score`).
        edge: Edge rating, the tie-breaker.
        passes: Initiative passes (carried, not computed).
    """

    name: str
    score: int
    edge: int = 0
    passes: int = 1


def initiative_order(entries: Iterable[InitEntry]) -> list[InitEntry]:
    """S12: highest score acts first; ties by higher Edge, then by name."""
    return sorted(entries, key=lambda e: (-e.score, -e.edge, e.name))


# ---------------------------------------------------------------------------
# output for the CLI and the log


def result_json(result: SRRoll | SuccessResult | OpposedResult | ExtendedTest | PoolPlan) -> dict[str, object]:
    """A JSON-ready dict for any result of this module.

    A roll has ``hits``, ``glitch``, ``critical_glitch``; a success test adds
    ``success`` and ``net_hits``; an opposed test has ``winner``,
    ``net_hits`` and ``winner_if_needed``.
    """
    if isinstance(result, (SRRoll, SuccessResult, OpposedResult, ExtendedTest)):
        return result.to_json()
    if isinstance(result, PoolPlan):
        return {"size": result.size, "parts": [list(p) for p in result.parts],
                "defaulted": result.defaulted, "long_shot": result.long_shot,
                "auto_fail": result.auto_fail, "edge_cost": result.edge_cost}
    raise RulesError(said(N_("not a Shadowrun result: {name}"), name=str(type(result).__name__)))


# ---------------------------------------------------------------------------
# The explanation's lines in words (rules.explain): one sayer per step, for any language


POOL_WORDS = {"defaulting": N_("defaulting"), "wounds": N_("wounds"), "skill": N_("skill"),
              "attribute": N_("attribute"), "pool": N_("pool")}
"""The labels a pool's parts get from Polku (a GM's own label, a skill's name, is shown as written)."""


def _label(t: Speaker, word: str) -> str:
    from ..text import BUILTIN_WORDS
    low = str(word).lower()
    if word in POOL_WORDS:
        return t._(POOL_WORDS[word])
    if low in BUILTIN_WORDS:
        said = t._(low)
        return said[:1].upper() + said[1:] if word[:1].isupper() else said
    return str(word)


def _mods(t: Speaker, mods: Iterable[ExplainStep]) -> str:
    return "".join(f" {signed(int(m['n']))} ({_label(t, m['label'])})" for m in mods)


@says("side")
def _say_side(t: Speaker, v: ExplainStep) -> str:
    return t._("{side}: {line}", side=v["side"], line=say(t, v["line"]))


@says("sr.pool")
def _say_pool(t: Speaker, v: ExplainStep) -> str:
    parts = " + ".join(f"{_label(t, p['label'])} {int(p['n'])}" for p in v["base"]) + _mods(t, v["mods"])
    return t.ngettext("{parts} = {n} die", "{parts} = {n} dice", int(v["size"]), parts=parts)


@says("sr.dice_pool")
def _say_dice_pool(t: Speaker, v: ExplainStep) -> str:
    parts = t.ngettext("{label}: {n} die", "{label}: {n} dice", int(v["count"]), label=_label(t, v["label"]))
    return t.ngettext("{parts} = {n} die", "{parts} = {n} dice", int(v["size"]), parts=parts + _mods(t, v["mods"]))


@says("sr.defaulting")
def _say_defaulting(t: Speaker, v: ExplainStep) -> str:
    if v["skill"] == "skill":
        return t._("defaulting: no skill, {attribute} alone −1 die (S2)", attribute=_label(t, v["attribute"]))
    return t._("defaulting: no {skill}, {attribute} alone −1 die (S2)", skill=_label(t, v["skill"]),
               attribute=_label(t, v["attribute"]))


@says("sr.pool_fails")
def _say_pool_fails(t: Speaker, v: ExplainStep) -> str:
    return t._("pool 0 or less: automatic failure unless a Long Shot (S3)")


@says("sr.long_shot_pool")
def _say_long_shot_pool(t: Speaker, v: ExplainStep) -> str:
    return t.ngettext("Long Shot: Edge {edge} = {n} die, rule of six, no modifiers, 1 Edge (S3)",
                      "Long Shot: Edge {edge} = {n} dice, rule of six, no modifiers, 1 Edge (S3)", int(v["edge"]),
                      edge=int(v["edge"]))


@says("sr.auto_failed")
def _say_auto_failed(t: Speaker, v: ExplainStep) -> str:
    return t._("pool {pool}: 0 or less, automatic failure (S3)", pool=int(v["pool_size"]))


@says("sr.bought")
def _say_bought(t: Speaker, v: ExplainStep) -> str:
    return t._("bought hits: {pool} dice / 4 → {n} (no roll, no glitch) (S4)", pool=int(v["pool_size"]), n=int(v["n"]))


@says("sr.long_shot")
def _say_long_shot(t: Speaker, v: ExplainStep) -> str:
    return t.ngettext("Long Shot: {n} Edge die, rule of six (S3)", "Long Shot: {n} Edge dice, rule of six (S3)",
                      int(v["edge"]))


@says("sr.roll_pool")
def _say_roll_pool(t: Speaker, v: ExplainStep) -> str:
    pool, helpers, edge = int(v["pool_size"]), int(v["helpers"]), int(v["edge"])
    if not edge:
        return (t._("pool: {pool} + {helpers} from helpers", pool=pool, helpers=helpers) if helpers
                else t._("pool: {pool}", pool=pool))
    if v["when"] == "before":
        return (t._("pool: {pool} + {helpers} from helpers + {edge} Edge (before the roll, rule of six)",
                    pool=pool, helpers=helpers, edge=edge) if helpers
                else t._("pool: {pool} + {edge} Edge (before the roll, rule of six)", pool=pool, edge=edge))
    return (t._("pool: {pool} + {helpers} from helpers + {edge} Edge (after the roll, rule of six on the Edge dice)",
                pool=pool, helpers=helpers, edge=edge) if helpers
            else t._("pool: {pool} + {edge} Edge (after the roll, rule of six on the Edge dice)", pool=pool, edge=edge))


@says("sr.dice")
def _say_dice(t: Speaker, v: ExplainStep) -> str:
    return t._("dice: {faces}", faces=faces_words(t, v["faces"]))


@says("sr.rule_of_six")
def _say_rule_of_six(t: Speaker, v: ExplainStep) -> str:
    return t._("rule of six: {chains}", chains="; ".join(" → ".join(str(f) for f in c) for c in v["chains"]))


@says("sr.hits")
def _say_hits(t: Speaker, v: ExplainStep) -> str:
    return t._("hits: {faces} → {n}", faces=faces_words(t, v["faces"]), n=int(v["hits"]))


GLITCH_MEANING_WORDS = {"serious": N_("serious trouble"), "": N_("dramatic or amusing, never catastrophic"),
                        "minor": N_("a very small setback")}


def said_glitch(t: Speaker, hits: int, critical: bool = False, *, loud: bool = False) -> str:
    """:func:`glitch_words` in the words of speaker ``t``."""
    size = glitch_severity(hits, critical)
    word = {"critical": t._("critical glitch"), "serious": t._("serious glitch"),
            "minor": t._("minor glitch")}.get(size, t._("glitch"))
    return t.ngettext("{word} ({n} hit)", "{word} ({n} hits)", hits, word=word.upper() if loud else word)


@says("sr.ones")
def _say_ones(t: Speaker, v: ExplainStep) -> str:
    hits, verdict = int(v["hits"]), v["verdict"]
    if verdict == "critical":
        words = said_glitch(t, hits, True)
    elif verdict == "meant":
        words = t._("{glitch}: {meaning} (S5)", glitch=said_glitch(t, hits),
                    meaning=t._(GLITCH_MEANING_WORDS[glitch_severity(hits)]))
    elif verdict == "glitch":
        words = said_glitch(t, hits)
    else:
        words = t._("no glitch")
    values = {"ones": int(v["ones"]), "counted": int(v["counted"]), "verdict": words}
    if v.get("not_counted"):
        return (t._("ones and twos: {ones} of {counted} → {verdict} (rule-of-six dice not counted)", **values)
                if v.get("hurried") else
                t._("ones: {ones} of {counted} → {verdict} (rule-of-six dice not counted)", **values))
    return (t._("ones and twos: {ones} of {counted} → {verdict}", **values) if v.get("hurried")
            else t._("ones: {ones} of {counted} → {verdict}", **values))


@says("sr.glitch_negated")
def _say_glitch_negated(t: Speaker, v: ExplainStep) -> str:
    return t._("glitch negated with 1 Edge (S5)")


@says("sr.critical_reduced")
def _say_critical_reduced(t: Speaker, v: ExplainStep) -> str:
    return t._("critical glitch reduced to a glitch with 1 Edge (S6)")


EXTENDED_STATUS = {"done": N_("done"), "spoiled": N_("spoiled"), "ended by a critical glitch":
                   N_("ended by a critical glitch"), "in progress": N_("in progress")}
"""An extended test's status (:attr:`ExtendedTest.status`) in words."""


@says("sr.extended")
def _say_extended(t: Speaker, v: ExplainStep) -> str:
    n, label = int(v["intervals"]), str(v["label"])
    # The interval is Polku's word or the GM's ("1 hour" is typed as "hour"): counted the English way, "3 hours".
    counted = (t.ngettext("{n} interval", "{n} intervals", n) if label == "interval"
               else t.ngettext("{n} {label}", "{n} {label}s", n, label=label))
    values = {"accumulated": int(v["accumulated"]), "threshold": int(v["threshold"]), "intervals": counted,
              "status": t._(EXTENDED_STATUS[str(v["status"])])}
    if v.get("hurried"):
        return t._("extended test: {accumulated}/{threshold} hits after {intervals}, hurried (2s count as 1s) → {status}",
                   **values)
    return t._("extended test: {accumulated}/{threshold} hits after {intervals} → {status}", **values)


@says("sr.extended_glitched")
def _say_extended_glitched(t: Speaker, v: ExplainStep) -> str:
    return t._("last roll glitched: the GM may rule the test spoiled")


@says("sr.dv")
def _say_dv(t: Speaker, v: ExplainStep) -> str:
    return t.ngettext("DV {base} + {n} net hit = {dv}{letter}", "DV {base} + {n} net hits = {dv}{letter}",
                      int(v["net_hits"]), base=int(v["base_dv"]), dv=int(v["dv"]), letter=v["letter"])


@says("sr.dv_converted")
def _say_dv_converted(t: Speaker, v: ExplainStep) -> str:
    return t._("DV {dv} is under armour {armour}: stun instead of physical", dv=int(v["dv"]),
               armour=int(v["armour_now"]))


@says("sr.resisted")
def _say_resisted(t: Speaker, v: ExplainStep) -> str:
    hits = t.ngettext("{n} hit", "{n} hits", int(v["resist_hits"]))
    if v["track"] == "stun":
        return t.ngettext("resisted with {hits}: {n} box stun", "resisted with {hits}: {n} boxes stun", int(v["boxes"]),
                          hits=hits)
    return t.ngettext("resisted with {hits}: {n} box physical", "resisted with {hits}: {n} boxes physical",
                      int(v["boxes"]), hits=hits)


@says("sr.monitors")
def _say_monitors(t: Speaker, v: ExplainStep) -> str:
    values = {"physical_before": int(v["physical_before"]), "physical_now": int(v["physical_now"]),
              "physical_max": int(v["physical_max"]), "stun_before": int(v["stun_before"]),
              "stun_now": int(v["stun_now"]), "stun_max": int(v["stun_max"])}
    if int(v["overflow_now"]) != int(v["overflow_before"]):
        return t._("physical {physical_before} → {physical_now}/{physical_max}, stun {stun_before} → "
                   "{stun_now}/{stun_max}, overflow {overflow_before} → {overflow_now}",
                   overflow_before=int(v["overflow_before"]), overflow_now=int(v["overflow_now"]), **values)
    return t._("physical {physical_before} → {physical_now}/{physical_max}, stun {stun_before} → {stun_now}/{stun_max}",
               **values)


STATE_WORDS = {"dead": N_("dead"), "unconscious": N_("unconscious"), "conscious": N_("conscious")}


@says("sr.wound_state")
def _say_wound_state(t: Speaker, v: ExplainStep) -> str:
    state = str(v["state"])
    if state.startswith("dying (overflow "):  # Monitors.state_text: "dying (overflow 2/4)"
        said = t._("dying (overflow {overflow})", overflow=state[len("dying (overflow "):-1])
    else:
        said = t._(STATE_WORDS[state]) if state in STATE_WORDS else state
    return t._("wound modifier {modifier}; {state}", modifier=str(int(v["modifier"])).replace("-", "−"), state=said)


@says("sr.helper_override")
def _say_helper_override(t: Speaker, v: ExplainStep) -> str:
    return t.ngettext("GM's pool for this helper: {n} die (S11)", "GM's pool for this helper: {n} dice (S11)",
                      int(v["count"]))


@says("sr.cannot_help")
def _say_cannot_help(t: Speaker, v: ExplainStep) -> str:
    if v["skill"] == "skill":
        return t._("no skill and no defaulting: cannot help (S2, S11)")
    return t._("no {skill} and no defaulting: cannot help (S2, S11)", skill=_label(t, v["skill"]))


@says("sr.threshold")
def _say_threshold(t: Speaker, v: ExplainStep) -> str:
    hits = t.ngettext("{n} hit", "{n} hits", int(v["hits"]))
    verdict = (t.ngettext("success, {n} net hit", "success, {n} net hits", int(v["net_hits"])) if v["success"]
               else t._("failure"))
    if v.get("hidden"):
        return t._("threshold {threshold} (hidden): {hits} → {verdict}", threshold=int(v["threshold"]), hits=hits,
                   verdict=verdict)
    return t._("threshold {threshold}: {hits} → {verdict}", threshold=int(v["threshold"]), hits=hits, verdict=verdict)


@says("sr.opposed")
def _say_opposed(t: Speaker, v: ExplainStep) -> str:
    a = t.ngettext("{n} hit", "{n} hits", int(v["a_hits"]))
    b = t.ngettext("{n} hit", "{n} hits", int(v["b_hits"]))
    if v["winner"] == "tie":
        return t._("A {a} vs B {b} → tie: stalemate; if a winner is needed, B (defender) wins", a=a, b=b)
    return t.ngettext("A {a} vs B {b} → {winner} wins, {n} net hit", "A {a} vs B {b} → {winner} wins, {n} net hits",
                      int(v["net_hits"]), a=a, b=b, winner=str(v["winner"]).upper())


def explain(result: Any) -> list[str]:
    """Lines for humans about any result of this module."""
    if isinstance(result, (SRRoll, SuccessResult, OpposedResult, ExtendedTest, PoolPlan)):
        return result.explain()
    raise RulesError(said(N_("not a Shadowrun result: {name}"), name=str(type(result).__name__)))
