"""Harhapolku: d8/d10 pools, more higher dice wins (docs/rules.md, H1–H9).

Pure functions and small immutable values. In a comparison side **A** and side
**B** are the two rolls; in the chapter 23 comparison (H4, the default) and the
sum variant (H6) A is the **actor** (the character whose action is questioned)
and B the **challenger** (the player who questions it and proposes the roll).

Reading choices made here:

* The same-size variant (H5) changes only the pool; its rolls are compared the
  chapter 23 way (H4), as in the source, where H5 follows the H4 examples.
* A pool is sorted by face, highest first; ties between different die sizes
  are ordered by size (larger first) only to make the order deterministic.
* H9: the dice on the table always belong to the narrator; a participant's
  rolled dice that are neither on the table nor burned are their *hand*.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ..i18n import N_, said
from .dice import DiceSource, Die, DieSpec, RulesError, Src
from .explain import Speaker, line, says
from .explain import Step as ExplainStep
from .system import Settings

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

VARIANTS = ("ch23", "classic", "same_size", "sum")
"""``harha.variant`` values (H3–H6)."""

H4_REMINDER = (
    "H4: an ability can only be questioned on the grounds of another character's "
    "or NPC's ability already shown in play; the same holds for a character's own "
    "senses and mind (their harhapolku)."
)
"""Shown when a chapter 23 challenge is entered (H4)."""

HIGH_FACE = 7
"""H8: a die of 7 or more succeeds in a difficult action."""

CONFLICT_DIE = {"conversation": 4, "brawl": 6, "armed": 8, "firefight": 10}
"""H9: the size of the GM's harm dice per kind of conflict."""


# --------------------------------------------------------------------------- pools


@dataclass(frozen=True, slots=True)
class HarhaPool:
    """One side's pool before rolling (H2, H5)."""

    dice: tuple[DieSpec, ...]
    explain: tuple[str, ...]


def _claim(value: str | bool | None, default: str) -> str | None:
    """A tier claim: a background name, True (claimed, unnamed) or None/False/"" (not claimed)."""
    if value is None or value is False:
        return None
    if value is True:
        return default
    text = str(value).strip()
    return text or None


def build_pool(
    general: str | bool | None = None,
    background: str | bool | None = None,
    significant: str | bool | None = None,
    special: str | bool | None = None,
    significant_special: str | bool | None = None,
    gm_bonus: str | bool | None = None,
    *,
    always: bool = True,
) -> HarhaPool:
    """Build a pool of d8s and d10s (H2).

    1d8 always; +1d8 general background; +1d8 a fitting background; +1d8 a
    significant background; +1d10 a special background; +1d10 a significant
    special background; +1d10 from the GM for a spectacular, extraordinary or
    significant action. Each tier gives one die at most.

    Args:
        general, background, significant, special, significant_special: the
            name of the claimed background of that tier (its die's label), or
            True for a claim without a name; None/False when not claimed.
        gm_bonus: the GM's reason, True, or None.
        always: False when the GM takes away the "1d8 always" (H4: the actor
            cannot roll a single die for the matter; a pool of 0 dice fails).
    """
    tiers = (
        ("general", general, 8, Src.BACKGROUND, "general background"),
        ("background", background, 8, Src.BACKGROUND, "background"),
        ("significant", significant, 8, Src.BACKGROUND, "significant background"),
        ("special", special, 10, Src.BACKGROUND, "special background"),
        ("significant_special", significant_special, 10, Src.BACKGROUND, "significant special background"),
        ("gm_bonus", gm_bonus, 10, Src.GM_BONUS, "GM bonus"),
    )
    dice = [DieSpec(8, Src.ACTION, "always")] if always else []
    lines: list[str] = [line("harha.always", size=8, rule="H2") if always else line("harha.no_always")]
    for key, value, size, source, title in tiers:
        name = _claim(value, title)
        if name is None:
            continue
        dice.append(DieSpec(size, source, name))
        lines.append(line("harha.tier", tier=key, size=size, name="" if name == title else name))
    return HarhaPool(tuple(dice), tuple(lines))


NO_ALWAYS = "no 1d8 always: the GM took it away (H4: with no die at all the action fails)"
"""The explanation line of a pool whose "1d8 always" the GM removed (H2, H4)."""


def with_effects(pool: HarhaPool, own: Sequence[tuple[str, int]] = (),
                 against: Sequence[tuple[str, int]] = ()) -> HarhaPool:
    """A pool with the dice of effects (named conditions a character carries) added.

    H2 lists no circumstance dice, so this follows R4, the two path systems'
    common ground: a circumstance never removes dice. ``own``: the bearer's
    effects that give dice, ``(label, n)`` with n > 0, each die one more plain
    die of the pool's size (d8 under H2; the variant's size under H5/H6), so a
    helping effect counts like a fitting background. ``against``: the *other*
    side's effects that take dice, ``(label, n)`` with n > 0 dice, given to
    this pool instead (R4's hindering condition). An unopposed difficult
    action (H8) has no opposing pool, so an effect that takes dice does not
    count there.

    Raises:
        RulesError: a count below 1 or an empty label.
    """
    size = pool.dice[0].size if pool.dice else 8
    dice, lines = list(pool.dice), list(pool.explain)
    for label, n, whose in [(lb, k, "") for lb, k in own] + [(lb, k, "the other side's ") for lb, k in against]:
        if not str(label).strip():
            raise RulesError(said(N_("an effect needs a name")))
        if n < 1:
            raise RulesError(said(N_("an effect gives 1 die or more, not {n}"), n=str(n)))
        dice += [DieSpec(size, Src.CONDITION, str(label))] * n
        lines.append(line("harha.effect", count=n, size=size, name=str(label), other_side=bool(whose)))
    return HarhaPool(tuple(dice), tuple(lines))


def build_pool_same_size(
    descriptive: str | bool | None = None,
    special: str | bool | None = None,
    specifications: Sequence[str] = (),
    gm_bonus: str | bool | None = None,
    size: int = 8,
    *,
    always: bool = True,
) -> HarhaPool:
    """Build a pool of one die size (H5).

    One die always (unless the GM takes it away, ``always=False``, H4); a
    descriptive background +1 die; a special background +2 dice; each
    specification +1 die (as counted in EX H); the GM's bonus +1.
    """
    if isinstance(specifications, str):
        specifications = [specifications]
    dice = [DieSpec(size, Src.ACTION, "always")] if always else []
    lines: list[str] = [line("harha.always", size=size, rule="H5") if always else line("harha.no_always")]
    d = _claim(descriptive, "descriptive background")
    if d is not None:
        dice.append(DieSpec(size, Src.BACKGROUND, d))
        lines.append(line("harha.same_size", part="descriptive", size=size, name=d))
    s = _claim(special, "special background")
    if s is not None:
        dice += [DieSpec(size, Src.BACKGROUND, s)] * 2
        lines.append(line("harha.same_size", part="special", size=size, name=s))
    for spec in specifications:
        name = str(spec).strip()
        if not name:
            raise RulesError(said(N_("a specification needs a name")))
        dice.append(DieSpec(size, Src.BACKGROUND, name))
        lines.append(line("harha.same_size", part="specification", size=size, name=name))
    g = _claim(gm_bonus, "GM bonus")
    if g is not None:
        dice.append(DieSpec(size, Src.GM_BONUS, g))
        lines.append(line("harha.same_size", part="gm_bonus", size=size, name=""))
    return HarhaPool(tuple(dice), tuple(lines))


def same_size_count(
    descriptive: bool = False, special: bool = False, specifications: int = 0, gm_bonus: bool = False
) -> int:
    """How many same-size dice a side would have (H5), the count the sum variant adds (H6)."""
    return 1 + int(bool(descriptive)) + 2 * int(bool(special)) + specifications + int(bool(gm_bonus))


# ---------------------------------------------------------------------- comparison


def harha_sorted(dice: Iterable[Die]) -> tuple[Die, ...]:
    """Dice highest face first, independent of input order (H3, H4)."""
    return tuple(
        sorted(dice, key=lambda d: (-d.face, -d.size, str(d.source), d.label, d.replaced))
    )


@dataclass(frozen=True, slots=True)
class Position:
    """One compared position (1-based)."""

    index: int
    a: Die | None
    b: Die | None
    side: str | None
    """"a" or "b" when the position counts for that side; None when it counts for nobody."""


@dataclass(frozen=True, slots=True)
class HarhaResult:
    """The outcome of one Harhapolku comparison (H3, H4)."""

    variant: str
    """"classic", "ch23" or "same_size"."""
    a: tuple[Die, ...]
    """Side A sorted (the actor in ch23 / same_size)."""
    b: tuple[Die, ...]
    """Side B sorted (the challenger in ch23 / same_size)."""
    winner: str
    """"a", "b" or "tie" (classic only)."""
    a_positions: int
    b_positions: int
    positions: tuple[Position, ...]
    reason: str
    """"positions" (counted), "actor_no_dice" (H4: the actor cannot roll)."""
    tie_action: str | None = None
    """"reroll" on a classic tie (H3)."""

    @property
    def margin(self) -> int:
        return abs(self.a_positions - self.b_positions)

    def _name(self, side: str) -> str:
        if self.variant == "classic":
            return side.upper()
        return {"a": "actor", "b": "challenger"}[side]

    def explain(self) -> list[str]:
        """Short human lines: the rolls, each position, the outcome (H3, H4)."""
        classic = self.variant == "classic"
        lines: list[str] = [line("harha.rolls", classic=classic, a=[d.face for d in self.a], b=[d.face for d in self.b])]
        if self.reason == "actor_no_dice":
            lines.append(line("harha.actor_no_dice"))
            return lines
        if self.variant != "classic" and len(self.a) != len(self.b):
            lines.append(line("harha.comparing", count=min(len(self.a), len(self.b))))
        for p in self.positions:
            lines.append(line("harha.position", index=p.index, classic=classic, a_face=p.a.face if p.a else 0,
                              b_face=p.b.face if p.b else 0, side=p.side or ""))
        lines.append(line("harha.verdict", classic=classic, winner=self.winner, a_positions=self.a_positions,
                          b_positions=self.b_positions))
        return lines


def _positions(a: tuple[Die, ...], b: tuple[Die, ...], n: int, extra: bool) -> list[Position]:
    out = []
    for i in range(n):
        da = a[i] if i < len(a) else None
        db = b[i] if i < len(b) else None
        if da is not None and db is not None:
            side = "a" if da.face > db.face else "b" if db.face > da.face else None
        elif extra:
            side = "a" if da is not None else "b"
        else:
            side = None
        out.append(Position(i + 1, da, db, side))
    return out


def compare_classic(a: Sequence[Die], b: Sequence[Die], classic_extra: bool = True) -> HarhaResult:
    """Classic comparison (H3).

    Sort both highest first; each position counts for the side with the
    higher die, equal dice count for nobody. ``harha.classic_extra``: a die
    facing no die counts for its side (True) or for nobody (False). More
    positions wins; equal counts tie and are rerolled.
    """
    sa, sb = harha_sorted(a), harha_sorted(b)
    pos = _positions(sa, sb, max(len(sa), len(sb)), classic_extra)
    na = sum(p.side == "a" for p in pos)
    nb = sum(p.side == "b" for p in pos)
    winner = "a" if na > nb else "b" if nb > na else "tie"
    return HarhaResult(
        variant="classic", a=sa, b=sb, winner=winner, a_positions=na, b_positions=nb,
        positions=tuple(pos), reason="positions", tie_action="reroll" if winner == "tie" else None,
    )


def compare_ch23(actor: Sequence[Die], challenger: Sequence[Die], variant: str = "ch23") -> HarhaResult:
    """Chapter 23 comparison (H4); side A is the actor, side B the challenger.

    If the actor has no dice the challenger wins. Otherwise compare only as
    many positions as the smaller pool has; equal dice count for nobody; the
    challenger wins only with **more** positions than the actor, else the actor
    wins. Never a tie.
    """
    sa, sb = harha_sorted(actor), harha_sorted(challenger)
    if not sa:
        return HarhaResult(
            variant=variant, a=sa, b=sb, winner="b", a_positions=0, b_positions=0,
            positions=(), reason="actor_no_dice",
        )
    pos = _positions(sa, sb, min(len(sa), len(sb)), False)
    na = sum(p.side == "a" for p in pos)
    nb = sum(p.side == "b" for p in pos)
    return HarhaResult(
        variant=variant, a=sa, b=sb, winner="b" if nb > na else "a", a_positions=na,
        b_positions=nb, positions=tuple(pos), reason="positions",
    )


def check_variant(variant: str) -> str:
    """``variant`` if it is a ``harha.variant`` value (H3–H6), else a one-line error."""
    if variant not in VARIANTS:
        raise RulesError(said(N_("unknown Harhapolku variant '{variant}' (use one of: {VARIANTS})"), variant=str(variant), VARIANTS=str(', '.join(VARIANTS))))
    return variant


def _one_size(dice: Sequence[Die], rule: str) -> None:
    sizes = {d.size for d in dice}
    if len(sizes) > 1:
        listed = ", ".join(f"d{s}" for s in sorted(sizes))
        raise RulesError(said(N_("the {rule} variant uses one die size, not {listed} ({value})"), rule=str(rule), listed=str(listed), value=str('H5' if rule == 'same-size' else 'H6')))


def resolve(
    a: Sequence[Die],
    b: Sequence[Die],
    variant: str | None = None,
    settings: Settings | None = None,
    *,
    a_count: int | None = None,
    b_count: int | None = None,
) -> HarhaResult | SumResult:
    """Resolve two rolls with the campaign's comparison (H3–H6).

    Args:
        a: side A's roll; the actor in "ch23", "same_size" and "sum".
        b: side B's roll; the challenger in "ch23", "same_size" and "sum".
        variant: "ch23", "classic", "same_size" or "sum"; None uses ``harha.variant``.
        settings: campaign settings (defaults when None).
        a_count, b_count: "sum" only: the same-size dice each side would have
            had (H6); each side's roll is then its one die (:func:`variant_dice`).

    Raises:
        RulesError: an unknown variant, mixed die sizes in "same_size" or
            "sum", or "sum" without the counts or with more than one die a side.
    """
    settings = settings or Settings()
    variant = check_variant(variant or settings.harha_variant)
    if variant == "classic":
        return compare_classic(a, b, settings.harha_classic_extra)
    if variant == "ch23":
        return compare_ch23(a, b)
    if variant == "same_size":
        _one_size((*a, *b), "same-size")
        return compare_ch23(a, b, variant="same_size")
    if a_count is None or b_count is None:
        raise RulesError(said(N_("the sum variant adds each side's one roll to its die count: give both counts (H6)")))
    if len(b) != 1 or len(a) > 1 or (not a and a_count):
        who, n = ("challenger", len(b)) if len(b) != 1 else ("actor", len(a))
        raise RulesError(said(N_("in the sum variant the {who} rolls one die, not {n} (H6)"), who=str(who), n=str(n)))
    if not a:  # H4: an actor without a single die fails
        resolve_sum(0, 1, b_count, b[0])  # checks the counts and the roll
        return SumResult(0, 0, b_count, b[0].face, "b", 0, b[0].size)
    return resolve_sum(a_count, a[0], b_count, b[0])


def variant_dice(pool: HarhaPool, variant: str) -> tuple[DieSpec, ...]:
    """The dice a side throws for its pool under ``variant`` (H2–H6).

    Every variant rolls the whole pool except "sum" (H6), where the side
    throws one die of its pool's size and adds the pool's die count
    (:func:`pool_count`). "same_size" and "sum" need a pool of one size.

    Raises:
        RulesError: an unknown variant, or mixed sizes where one size is needed.
    """
    variant = check_variant(variant)
    if variant in ("same_size", "sum") and len({d.size for d in pool.dice}) > 1:
        rule = "same-size" if variant == "same_size" else "sum"
        sizes = ", ".join(f"d{s}" for s in sorted({d.size for d in pool.dice}))
        raise RulesError(said(N_("the {rule} variant uses one die size, not {sizes} (build the pool with build_pool_same_size)"), rule=str(rule), sizes=str(sizes)))
    if variant != "sum" or not pool.dice:
        return pool.dice
    size = pool.dice[0].size
    return (DieSpec(size, Src.DIE, f"sum roll + {len(pool.dice)}"),)


def pool_count(pool: HarhaPool) -> int:
    """The number of same-size dice a pool has: what the sum variant adds to its roll (H6)."""
    return len(pool.dice)


@dataclass(frozen=True, slots=True)
class SumResult:
    """The outcome of the sum variant (H6); A is the actor, B the challenger."""

    a_count: int
    a_roll: int
    b_count: int
    b_roll: int
    winner: str
    """"a" or "b": the challenger needs the larger total."""
    a_size: int = 0
    """The actor's die size, when known (0: not given)."""
    b_size: int = 0
    variant: str = "sum"

    @property
    def a_total(self) -> int:
        return self.a_count + self.a_roll

    @property
    def b_total(self) -> int:
        return self.b_count + self.b_roll

    def explain(self) -> list[str]:
        lines: list[str] = [line("harha.sum_side", side="a", count=self.a_count, roll=self.a_roll, total=self.a_total),
                            line("harha.sum_side", side="b", count=self.b_count, roll=self.b_roll, total=self.b_total)]
        lines.append(line("harha.sum_verdict", a_total=self.a_total, b_total=self.b_total,
                          verdict="no_dice" if self.a_count < 1 else "b" if self.winner == "b" else "a"))
        return lines


def _roll_value(roll: int | Die, who: str) -> int:
    face = roll.face if isinstance(roll, Die) else roll
    if isinstance(face, bool) or not isinstance(face, int) or face < 1:
        raise RulesError(said(N_("the {who}'s roll must be a face of 1 or more, not {roll}"), who=str(who), roll=repr(roll)))
    return face


def resolve_sum(a_count: int, a_roll: int | Die, b_count: int, b_roll: int | Die) -> SumResult:
    """Sum variant (H6): each side adds one roll to its same-size dice count.

    ``a`` is the actor, ``b`` the challenger; the challenger wins only with a
    larger total. An actor with no dice at all loses (H4). Counts come from
    :func:`same_size_count`.

    Raises:
        RulesError: a negative count or a roll below 1.
    """
    for who, count in (("actor", a_count), ("challenger", b_count)):
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise RulesError(said(N_("the {who}'s die count must be a whole number 0 or more, not {count}"), who=str(who), count=repr(count)))
    ar, br = _roll_value(a_roll, "actor"), _roll_value(b_roll, "challenger")
    for who, roll in (("actor", a_roll), ("challenger", b_roll)):
        if isinstance(roll, Die) and roll.face > roll.size:
            raise RulesError(said(N_("the {who}'s roll {face} cannot show on a d{size}"), who=str(who), face=str(roll.face), size=str(roll.size)))
    if a_count < 1 or b_count + br > a_count + ar:
        winner = "b"
    else:
        winner = "a"
    a_size = a_roll.size if isinstance(a_roll, Die) else 0
    b_size = b_roll.size if isinstance(b_roll, Die) else 0
    return SumResult(a_count, ar, b_count, br, winner, a_size, b_size)


def result_json(result: HarhaResult | SumResult) -> dict[str, object]:
    """A JSON-serialisable summary; keys ``winner``, ``a_positions``, ``b_positions`` always."""
    if isinstance(result, SumResult):
        return {
            "system": "harhapolku",
            "variant": "sum",
            "winner": result.winner,
            "a_positions": None,
            "b_positions": None,
            "a_count": result.a_count,
            "a_roll": result.a_roll,
            "a_total": result.a_total,
            "b_count": result.b_count,
            "b_roll": result.b_roll,
            "b_total": result.b_total,
            "a_size": result.a_size or None,
            "b_size": result.b_size or None,
            "explain": result.explain(),
        }
    return {
        "system": "harhapolku",
        "variant": result.variant,
        "winner": result.winner,
        "a_positions": result.a_positions,
        "b_positions": result.b_positions,
        "a_faces": [d.face for d in result.a],
        "b_faces": [d.face for d in result.b],
        "a_sizes": [d.size for d in result.a],
        "b_sizes": [d.size for d in result.b],
        "positions": [
            {
                "index": p.index,
                "a": p.a.face if p.a else None,
                "b": p.b.face if p.b else None,
                "side": p.side,
            }
            for p in result.positions
        ],
        "reason": result.reason,
        "tie_action": result.tie_action,
        "explain": result.explain(),
    }


# ------------------------------------------------------------- difficult, rerolls


SUM_VERY_DEMANDING = N_(
    "the sum variant rolls one die: a very demanding action (two dice of 7+) cannot succeed "
    "(H8, harha.sum_difficult = one_die)"
)
"""Said before the roll (and in its explanation) when a very demanding action meets the sum variant."""

SUM_REFUSED = N_(
    "difficult actions are not offered under the sum variant (H8, harha.sum_difficult = refuse)"
)


def difficult_notice(variant: str, demand: int, settings: Settings | None = None) -> str | None:
    """What H8 under the campaign's reading of the sum variant (H6) says before a roll.

    ``demand``: 0 (no H8), 1 (difficult) or 2 (very demanding). Under the sum
    variant ``harha.sum_difficult = one_die`` lets the one rolled die need 7+,
    so a very demanding action cannot succeed: the notice says so; ``refuse``
    does not offer difficult actions there at all.

    Raises:
        RulesError: a difficult action under the sum variant with ``refuse``.
    """
    settings = settings or Settings()
    if variant != "sum" or not demand:
        return None
    if settings.harha_sum_difficult == "refuse":
        raise RulesError(SUM_REFUSED)
    return SUM_VERY_DEMANDING if demand == 2 else None


@dataclass(frozen=True, slots=True)
class DifficultResult:
    """An unopposed difficult action (H8)."""

    dice: tuple[Die, ...]
    high: int
    """Dice of 7 or more."""
    needed: int
    """1, or 2 when very demanding."""
    variant: str = "ch23"
    """The comparison in force: under "sum" (H6) the action rolls one die."""

    @property
    def success(self) -> bool:
        return self.high >= self.needed

    def explain(self) -> list[str]:
        lines: list[str] = [line("harha.difficult", needed=self.needed, high=self.high, success=self.success,
                                 faces=[d.face for d in harha_sorted(self.dice)])]
        if not self.dice:
            lines.append(line("harha.difficult_no_dice"))
        if self.variant == "sum" and self.needed == 2:
            lines.append(line("harha.sum_very_demanding"))
        return lines


def difficult(dice: Sequence[Die], very_demanding: bool = False, variant: str = "ch23") -> DifficultResult:
    """A difficult action succeeds with one die of 7+; a very demanding one needs two (H8).

    Under the sum variant (H6, ``harha.sum_difficult = one_die``) the action
    rolls one die (:func:`variant_dice`), so a very demanding one cannot succeed;
    check :func:`difficult_notice` before the roll. No dice at all fail (H4).
    """
    dice = tuple(dice)
    if variant == "sum" and len(dice) > 1:
        raise RulesError(said(N_("in the sum variant the actor rolls one die, not {dice} (H6)"), dice=str(len(dice))))
    high = sum(1 for d in dice if d.face >= HIGH_FACE)
    return DifficultResult(dice, high, 2 if very_demanding else 1, variant)


@dataclass(frozen=True, slots=True)
class OpposedDifficultResult:
    """A difficult or very demanding action that is also opposed (H8).

    The actor (side A) succeeds only by winning the comparison (H3/H4/H6)
    *and* showing the 7+ die (two for a very demanding action) in the same
    roll; a win without them is a failure the GM narrates.
    """

    comparison: HarhaResult | SumResult
    high: int
    """The actor's dice of 7 or more in this roll (under the sum variant: its one die)."""
    needed: int
    """1, or 2 when very demanding."""

    @property
    def won_comparison(self) -> bool:
        return self.comparison.winner == "a"

    @property
    def tie(self) -> bool:
        """A classic tie (H3): rerolled, neither success nor failure yet."""
        return self.comparison.winner == "tie"

    @property
    def success(self) -> bool:
        return self.won_comparison and self.high >= self.needed

    @property
    def winner(self) -> str:
        """"a" when the actor succeeds, "tie" on a classic tie, else "b"."""
        return "a" if self.success else "tie" if self.tie else "b"

    def explain(self) -> list[str]:
        verdict = ("tie" if self.tie else "lost" if not self.won_comparison else
                   "short" if self.high < self.needed else "success")
        lines = self.comparison.explain() + [line("harha.opposed_difficult", needed=self.needed, high=self.high,
                                                  verdict=verdict)]
        if isinstance(self.comparison, SumResult) and self.needed == 2:
            lines.append(line("harha.sum_very_demanding"))
        return lines


def difficult_opposed(
    comparison: HarhaResult | SumResult, very_demanding: bool = False
) -> OpposedDifficultResult:
    """H8 opposed: the actor (A) must win the comparison and show the 7+ die (dice)."""
    if isinstance(comparison, SumResult):
        high = int(comparison.a_count > 0 and comparison.a_roll >= HIGH_FACE)
    else:
        high = sum(1 for d in comparison.a if d.face >= HIGH_FACE)
    return OpposedDifficultResult(comparison, high, 2 if very_demanding else 1)


def edge_reroll(
    dice: Sequence[Die], which: Iterable[int] | str | None, source: DiceSource
) -> tuple[Die, ...]:
    """Reroll dice for an edge (H7); each rerolled die remembers what it replaced.

    Args:
        dice: the current roll, in its order.
        which: 0-based indices to reroll, or None / "all" for the whole roll
            (the default use of an edge).
        source: where the new faces come from.

    The tracker counts the edge's use per session; this only rerolls.

    Raises:
        RulesError: an index outside the roll.
    """
    dice = tuple(dice)
    if which is None or which == "all":
        chosen = set(range(len(dice)))
    elif isinstance(which, str):
        raise RulesError(said(N_("reroll which dice? '{which}' (give positions or 'all')"), which=str(which)))
    else:
        chosen = set()
        for i in which:
            if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(dice):
                raise RulesError(said(N_("no die #{i} to reroll (the roll has {dice} dice)"), i=str(i), dice=str(len(dice))))
            chosen.add(i)
    return tuple(d.rerolled(source.roll(d.size)) if i in chosen else d for i, d in enumerate(dice))


# -------------------------------------------------------------- narration contest


@dataclass(frozen=True, slots=True)
class Burn:
    """Dice burned off the table (H9)."""

    owner: str
    dice: tuple[Die, ...]
    by: str
    """Who burned them."""


@dataclass(frozen=True, slots=True)
class Usurpation:
    """A successful usurpation of the narrator role (H9)."""

    who: str
    dice: tuple[Die, ...]
    total: int
    burned: Burn
    burned_total: int
    tier: str
    """"negate" (1 die), "parry" (2–3 dice) or "harm_roll" (more than 3)."""
    gm_dice: int
    """How many dice the GM rolls for harm; 0 unless ``harm_roll``."""
    gm_die_size: int | None
    """d4/d6/d8/d10 by the kind of conflict; None unless ``harm_roll``."""
    harm_resolved: bool = False


@dataclass(frozen=True, slots=True)
class HarmRoll:
    """The GM's roll after a usurpation with more than 3 dice (H9)."""

    usurper: str
    gm_dice: tuple[Die, ...]
    gm_total: int | None
    """None when the GM won automatically (a fight with abilities)."""
    usurper_total: int
    harmed: bool
    automatic: bool


TIER_TEXT = {
    "negate": N_("may completely negate the last claimed action with their character's action"),
    "parry": N_("may prevent or parry the last claimed action"),
    "harm_roll": N_("acts, and the GM rolls to see if their character is harmed"),
}


def usurp_tier(count: int) -> str:
    """What a usurpation with ``count`` dice allows (H9)."""
    if count < 1:
        raise RulesError(said(N_("a usurpation needs at least one die (H9)")))
    return "negate" if count == 1 else "parry" if count <= 3 else "harm_roll"


class Step(namedtuple("Step", "state text detail", defaults=(None,))):
    """What an operation on a :class:`NarrationContest` returns: ``(state, text, detail)``.

    ``state`` is the new :class:`NarrationContest`, ``text`` one line describing
    what happened, ``detail`` the :class:`Usurpation`, :class:`HarmRoll` or
    :class:`Die` behind it, or None.
    """

    __slots__ = ()
    state: NarrationContest
    text: str
    detail: Usurpation | HarmRoll | Die | None


def _total(dice: Iterable[Die]) -> int:
    return sum(d.face for d in dice)


@dataclass(frozen=True, slots=True)
class NarrationContest:
    """The narration contest of one scene (H9), an immutable state machine.

    Every operation returns a :class:`Step` with the new state; the old one is
    unchanged.
    """

    conflict: str = "conversation"
    """"conversation" (GM harm dice d4), "brawl" (d6), "armed" (d8) or "firefight" (d10)."""
    ability_fight: bool = False
    """A fight with abilities: the GM wins every harm roll automatically."""
    narrator: str | None = None
    """Who holds the narration; the dice on the table are theirs."""
    table: tuple[Die, ...] = ()
    burned: tuple[Burn, ...] = ()
    """Every burn this scene, oldest first."""
    hands: tuple[tuple[str, tuple[Die, ...]], ...] = ()
    """Each participant's rolled dice that are neither on the table nor burned."""
    rolled: frozenset[tuple[str, str]] = field(default_factory=frozenset)
    """(participant, background) pairs whose die was rolled this scene."""
    last: Usurpation | None = None
    """The latest usurpation, for its harm roll."""

    def __post_init__(self) -> None:
        if self.conflict not in CONFLICT_DIE:
            kinds = ", ".join(CONFLICT_DIE)
            raise RulesError(said(N_("unknown conflict '{conflict}' (use one of: {kinds})"), conflict=str(self.conflict), kinds=str(kinds)))

    @property
    def table_total(self) -> int:
        return _total(self.table)

    @property
    def harm_die_size(self) -> int:
        return CONFLICT_DIE[self.conflict]

    def hand(self, who: str) -> tuple[Die, ...]:
        return dict(self.hands).get(who, ())

    def rolled_backgrounds(self, who: str) -> frozenset[str]:
        return frozenset(bg for w, bg in self.rolled if w == who)

    def rolled_as(self, who: str, background: str) -> str | None:
        """The spelling ``who`` rolled ``background`` in this scene, or None if its die is still
        unrolled (H9: one background whatever its letter case or surrounding spaces)."""
        key = background_key(background)
        return next((bg for w, bg in sorted(self.rolled) if w == who and background_key(bg) == key), None)

    def _with_hand(self, who: str, dice: tuple[Die, ...]) -> tuple[tuple[str, tuple[Die, ...]], ...]:
        hands = dict(self.hands)
        if dice:
            hands[who] = dice
        else:
            hands.pop(who, None)
        return tuple(sorted(hands.items()))

    def _take_from_hand(self, who: str, dice: Sequence[Die]) -> tuple[tuple[str, tuple[Die, ...]], ...]:
        left = list(self.hand(who))
        for d in dice:
            if d in left:
                left.remove(d)
        return self._with_hand(who, tuple(left))

    def roll_background(self, who: str, background: str, source: DiceSource, size: int = 8) -> Step:
        """Roll a background's die into ``who``'s hand; once per background per scene (H9).

        Raises:
            RulesError: this background's die was already rolled this scene.
        """
        who, background = _name(who, "participant"), _name(background, "background")
        earlier = self.rolled_as(who, background)
        if earlier is not None:
            raise RulesError(said(N_("{who} already rolled {earlier} this scene (H9)"), who=str(who), earlier=str(earlier)))
        die = DieSpec(size, Src.BACKGROUND, background).with_face(source.roll(size))
        state = replace(
            self,
            rolled=self.rolled | {(who, background)},
            hands=self._with_hand(who, self.hand(who) + (die,)),
        )
        return Step(state, line("narr.roll", who=who, background=background, face=die.face, size=size), die)

    def reroll_hand(self, who: str, source: DiceSource, which: Iterable[int] | str | None = None) -> Step:
        """An edge reroll of ``who``'s rolled background dice still in hand (H7, H9).

        The whole hand by default (H7 rerolls the whole roll); dice on the
        table or burned stay as they are. The tracker counts the edge's use.
        ``Step.detail`` is None; the new hand is ``state.hand(who)``.

        Raises:
            RulesError: nothing in hand, or a position outside it.
        """
        who = _name(who, "participant")
        hand = self.hand(who)
        if not hand:
            raise RulesError(said(N_("{who} has no rolled dice in hand to reroll (H7)"), who=str(who)))
        new = edge_reroll(hand, which, source)
        state = replace(self, hands=self._with_hand(who, new))
        return Step(state, line("narr.reroll", who=who, old=[d.face for d in hand], new=[d.face for d in new]))

    def open(self, narrator: str, dice: Sequence[Die]) -> Step:
        """Take the narration with exactly two rolled dice on the empty table (H9).

        Raises:
            RulesError: not exactly two dice, or someone already narrates.
        """
        narrator = _name(narrator, "narrator")
        dice = tuple(dice)
        if self.narrator is not None:
            raise RulesError(said(N_("{narrator} already narrates: usurp with a larger sum (H9)"), narrator=str(self.narrator)))
        if len(dice) != 2:
            raise RulesError(said(N_("the narration is taken with exactly two dice, not {dice} (H9)"), dice=str(len(dice))))
        state = replace(
            self, narrator=narrator, table=dice, hands=self._take_from_hand(narrator, dice), last=None
        )
        return Step(state, line("narr.open", narrator=narrator, faces=[d.face for d in dice]))

    def usurp(self, who: str, dice: Sequence[Die]) -> Step:
        """Usurp the narration with dice whose sum exceeds the table's (H9).

        The table's dice are burned and the usurper's dice lie on the table.
        ``Step.detail`` is the :class:`Usurpation` with its tier: 1 die
        "negate", 2–3 "parry", more than 3 "harm_roll" (with the GM's dice).

        Raises:
            RulesError: nobody narrates yet, the narrator usurps themself, no
                dice, or the sum does not exceed the table's.
        """
        who = _name(who, "participant")
        dice = tuple(dice)
        if self.narrator is None:
            raise RulesError(said(N_("nobody narrates yet: take the narration with two dice first (H9)")))
        if who == self.narrator:
            raise RulesError(said(N_("{who} already narrates (H9)"), who=str(who)))
        tier = usurp_tier(len(dice))
        total, table = _total(dice), self.table_total
        if total <= table:
            raise RulesError(said(N_("sum {total} does not exceed the table's {table}"), total=str(total), table=str(table)))
        burn = Burn(self.narrator, self.table, who)
        harm = tier == "harm_roll"
        usurpation = Usurpation(
            who=who, dice=dice, total=total, burned=burn, burned_total=table, tier=tier,
            gm_dice=len(dice) if harm else 0, gm_die_size=self.harm_die_size if harm else None,
        )
        state = replace(
            self, narrator=who, table=dice, burned=self.burned + (burn,),
            hands=self._take_from_hand(who, dice), last=usurpation,
        )
        text = line("narr.usurp", who=who, owner=burn.owner, burned=[d.face for d in burn.dice],
                    faces=[d.face for d in dice], tier=tier, ability_fight=harm and self.ability_fight,
                    harm_die=self.harm_die_size if harm else 0)
        return Step(state, text, usurpation)

    def harm_dice(self) -> tuple[DieSpec, ...]:
        """The GM's dice for the pending harm roll, to roll with ``roll_specs`` (H9)."""
        pending = self._pending_harm()
        if pending.gm_die_size is None:  # only a harm-roll usurpation names the GM's die
            raise RulesError(said(N_("no harm roll is due: only a usurpation with more than 3 dice calls for one (H9)")))
        return tuple(DieSpec(pending.gm_die_size, Src.GM_BONUS, "harm") for _ in range(pending.gm_dice))

    def _pending_harm(self) -> Usurpation:
        last = self.last
        if last is None or last.tier != "harm_roll" or last.harm_resolved:
            raise RulesError(said(N_("no harm roll is due: only a usurpation with more than 3 dice calls for one (H9)")))
        return last

    def harm_roll(self, gm_dice: Sequence[Die] = ()) -> Step:
        """The GM's harm roll after a usurpation with more than 3 dice (H9).

        The usurper's character is harmed iff the GM's total is larger than the
        usurper's; in a fight with abilities the GM wins automatically (no dice
        needed). ``Step.detail`` is the :class:`HarmRoll`.

        Raises:
            RulesError: no harm roll is due, or the wrong number or size of dice.
        """
        pending = self._pending_harm()
        gm = tuple(gm_dice)
        if self.ability_fight:
            outcome = HarmRoll(pending.who, gm, None, pending.total, harmed=True, automatic=True)
            text = line("narr.harm", who=pending.who, gm=[], usurper_total=pending.total, result="automatic")
        else:
            size = pending.gm_die_size
            if len(gm) != pending.gm_dice or any(d.size != size for d in gm):
                raise RulesError(said(N_("the GM rolls {gm_dice}d{size} here, not {gm} (H9)"), gm_dice=str(pending.gm_dice), size=str(size), gm=str(_sizes(gm))))
            gm_total = _total(gm)
            harmed = gm_total > pending.total
            outcome = HarmRoll(pending.who, gm, gm_total, pending.total, harmed=harmed, automatic=False)
            text = line("narr.harm", who=pending.who, gm=[d.face for d in gm], usurper_total=pending.total,
                        result="harmed" if harmed else "unharmed")
        state = replace(self, last=replace(pending, harm_resolved=True))
        return Step(state, text, outcome)

    def new_scene(self) -> Step:
        """A new scene: nobody narrates, no dice, every background may be rolled again (H9)."""
        return Step(
            NarrationContest(conflict=self.conflict, ability_fight=self.ability_fight),
            line("narr.new_scene"),
        )

    def with_conflict(self, conflict: str, ability_fight: bool | None = None) -> Step:
        """Change the kind of conflict (the GM's harm die, H9)."""
        fight = self.ability_fight if ability_fight is None else ability_fight
        state = replace(self, conflict=conflict, ability_fight=fight)
        return Step(state, line("narr.conflict", conflict=conflict, size=state.harm_die_size, ability_fight=bool(fight)))


def _sizes(dice: Sequence[Die]) -> str:
    if not dice:
        return "no dice"
    return ", ".join(f"d{d.size}" for d in dice)


def background_key(name: str) -> str:
    """H9: what makes two spellings of a background the same background: the words, case folded
    (``villager``, `` Villager `` and ``VILLAGER`` are one background; the typed spelling is shown)."""
    return " ".join(name.split()).casefold()


def _name(value: str, kind: str) -> str:
    text = str(value).strip() if value is not None else ""
    if not text:
        raise RulesError(said(N_("a {kind} needs a name"), kind=str(kind)))
    return text


# -- the explanation's lines in words (rules.explain): one sayer per step, for any language ------------------

TIER_WORDS = {"general": N_("general background"), "background": N_("background"),
              "significant": N_("significant background"), "special": N_("special background"),
              "significant_special": N_("significant special background"), "gm_bonus": N_("GM bonus")}
"""H2's tiers of a pool, in words (a claim's own name is shown as written)."""


@says("harha.always")
def _say_always(t: Speaker, v: ExplainStep) -> str:
    if v["rule"] == "H5":
        return t._("1d{size} always (H5)", size=int(v["size"]))
    return t._("1d{size} always (H2)", size=int(v["size"]))


@says("harha.no_always")
def _say_no_always(t: Speaker, v: ExplainStep) -> str:
    return t._("no 1d8 always: the GM took it away (H4: with no die at all the action fails)")


@says("harha.tier")
def _say_tier(t: Speaker, v: ExplainStep) -> str:
    title = t._(TIER_WORDS[str(v["tier"])])
    if v["name"]:
        return t._("+1d{size} {title}: {name} (H2)", size=int(v["size"]), title=title, name=v["name"])
    return t._("+1d{size} {title} (H2)", size=int(v["size"]), title=title)


@says("harha.effect")
def _say_effect(t: Speaker, v: ExplainStep) -> str:
    values = {"count": int(v["count"]), "size": int(v["size"]), "name": v["name"]}
    if v["other_side"]:
        return t._("+{count}d{size} the other side's {name} (a circumstance never removes dice, R4)", **values)
    return t._("+{count}d{size} {name} (a circumstance never removes dice, R4)", **values)


@says("harha.same_size")
def _say_same_size(t: Speaker, v: ExplainStep) -> str:
    size, name, part = int(v["size"]), v["name"], v["part"]
    if part == "descriptive":
        name = t._("descriptive background") if name == "descriptive background" else name
        return t._("+1d{size} descriptive background: {name} (H5)", size=size, name=name)
    if part == "special":
        name = t._("special background") if name == "special background" else name
        return t._("+2d{size} special background: {name} (H5)", size=size, name=name)
    if part == "specification":
        return t._("+1d{size} specification: {name} (H5)", size=size, name=name)
    return t._("+1d{size} GM bonus (H2)", size=size)


def _side_name(t: Speaker, side: str, classic: bool) -> str:
    if classic:
        return side.upper()
    return t._("actor") if side == "a" else t._("challenger")


@says("harha.rolls")
def _say_rolls(t: Speaker, v: ExplainStep) -> str:
    def txt(faces: Iterable[object]) -> str:
        return ",".join(str(f) for f in faces) or t._("no dice")
    if v["classic"]:
        return t._("A: {a}  vs  B: {b}", a=txt(v["a"]), b=txt(v["b"]))
    return t._("actor: {a}  vs  challenger: {b}", a=txt(v["a"]), b=txt(v["b"]))


@says("harha.actor_no_dice")
def _say_actor_no_dice(t: Speaker, v: ExplainStep) -> str:
    return t._("the actor cannot roll a single die: the action fails with the challenger's reason (H4)")


@says("harha.comparing")
def _say_comparing(t: Speaker, v: ExplainStep) -> str:
    return t.ngettext("comparing {n} position, the smaller pool's dice (H4)",
                      "comparing {n} positions, the smaller pool's dice (H4)", int(v["count"]))


@says("harha.position")
def _say_position(t: Speaker, v: ExplainStep) -> str:
    a, b, side = int(v["a_face"]), int(v["b_face"]), str(v["side"])
    fa, fb = str(a) if a else "—", str(b) if b else "—"
    to = _side_name(t, side, bool(v["classic"])) if side else t._("nobody")
    if not (a and b):
        return t._("position {index}: {a} vs {b} → {to}", index=int(v["index"]), a=fa, b=fb, to=to)
    mark = "=" if not side else ">" if side == "a" else "<"
    return t._("position {index}: {a} {mark} {b} → {to}", index=int(v["index"]), a=fa, b=fb, mark=mark, to=to)


@says("harha.verdict")
def _say_verdict(t: Speaker, v: ExplainStep) -> str:
    a, b, winner = int(v["a_positions"]), int(v["b_positions"]), str(v["winner"])
    if winner == "tie":
        return t._("tie {a} to {b}: reroll (H3)", a=a, b=b)
    if v["classic"]:
        return t._("{name} wins {high} to {low} (H3)", name=winner.upper(), high=max(a, b), low=min(a, b))
    if winner == "b":
        return t._("the challenger wins {b} to {a} (H4)", a=a, b=b)
    return t._("the challenger has {b} to the actor's {a}, not more: the actor wins (H4)", a=a, b=b)


@says("harha.sum_side")
def _say_sum_side(t: Speaker, v: ExplainStep) -> str:
    # English says "dice" for one die too (as it always has); the plural form is for the other language.
    values = {"roll": int(v["roll"]), "total": int(v["total"])}
    if v["side"] == "a":
        return t.ngettext("actor: {n} dice + roll {roll} = {total}", "actor: {n} dice + roll {roll} = {total}",
                          int(v["count"]), **values)
    return t.ngettext("challenger: {n} dice + roll {roll} = {total}", "challenger: {n} dice + roll {roll} = {total}",
                      int(v["count"]), **values)


@says("harha.sum_verdict")
def _say_sum_verdict(t: Speaker, v: ExplainStep) -> str:
    a, b = int(v["a_total"]), int(v["b_total"])
    if v["verdict"] == "no_dice":
        return t._("the actor cannot roll a single die: the challenger wins (H4)")
    if v["verdict"] == "b":
        return t._("the challenger wins: {b} > {a} (H6)", a=a, b=b)
    return t._("the challenger's {b} is not larger than {a}: the actor wins (H6)", a=a, b=b)


@says("harha.difficult")
def _say_difficult(t: Speaker, v: ExplainStep) -> str:
    faces = ",".join(str(f) for f in v["faces"]) or t._("no dice")
    values = {"high": int(v["high"]), "faces": faces}
    if int(v["needed"]) == 2:
        return (t._("very demanding: needs 2 dice of 7+, rolled {high} ({faces}) → succeeds (H8)", **values)
                if v["success"] else
                t._("very demanding: needs 2 dice of 7+, rolled {high} ({faces}) → fails (H8)", **values))
    return (t._("difficult: needs 1 die of 7+, rolled {high} ({faces}) → succeeds (H8)", **values) if v["success"]
            else t._("difficult: needs 1 die of 7+, rolled {high} ({faces}) → fails (H8)", **values))


@says("harha.difficult_no_dice")
def _say_difficult_no_dice(t: Speaker, v: ExplainStep) -> str:
    return t._("the actor cannot roll a single die: the action fails (H4)")


@says("harha.sum_very_demanding")
def _say_sum_very_demanding(t: Speaker, v: ExplainStep) -> str:
    return t._("the sum variant rolls one die: a very demanding action (two dice of 7+) cannot succeed "
               "(H8, harha.sum_difficult = one_die)")


@says("harha.opposed_difficult")
def _say_opposed_difficult(t: Speaker, v: ExplainStep) -> str:
    very, high, needed, verdict = int(v["needed"]) == 2, int(v["high"]), int(v["needed"]), v["verdict"]
    if verdict == "tie":
        return (t._("very demanding and opposed: a tie: reroll (H3) (H8)") if very
                else t._("difficult and opposed: a tie: reroll (H3) (H8)"))
    if verdict == "lost":
        return (t._("very demanding and opposed: the actor loses the comparison: failure (H8)") if very
                else t._("difficult and opposed: the actor loses the comparison: failure (H8)"))
    if verdict == "short":
        return (t._("very demanding and opposed: the actor wins the comparison but shows {high} of {needed} dice of "
                    "7+: failure (the GM narrates) (H8)", high=high, needed=needed) if very
                else t._("difficult and opposed: the actor wins the comparison but shows {high} of {needed} dice of "
                         "7+: failure (the GM narrates) (H8)", high=high, needed=needed))
    if very:
        return t.ngettext("very demanding and opposed: the actor wins the comparison and shows {n} die of 7+: success "
                          "(H8)", "very demanding and opposed: the actor wins the comparison and shows {n} dice of 7+: "
                          "success (H8)", high)
    return t.ngettext("difficult and opposed: the actor wins the comparison and shows {n} die of 7+: success (H8)",
                      "difficult and opposed: the actor wins the comparison and shows {n} dice of 7+: success (H8)",
                      high)


# -- the narration contest's lines in words (H9) ---------------------------------------------------

CONFLICT_WORDS = {"conversation": N_("conversation"), "brawl": N_("brawl"), "armed": N_("armed"),
                  "firefight": N_("firefight")}
"""H9's kinds of conflict (:data:`CONFLICT_DIE`), in words."""


def _plus_faces(faces: Iterable[int]) -> str:
    """``4+3=7``, or one face alone: the dice as :func:`_plus` shows them."""
    ints = [int(f) for f in faces]
    return "+".join(str(f) for f in ints) + (f"={sum(ints)}" if len(ints) > 1 else "")


@says("narr.roll")
def _say_narr_roll(t: Speaker, v: ExplainStep) -> str:
    return t._("{who} rolls {background}: {face} on a d{size}", who=v["who"], background=v["background"],
               face=int(v["face"]), size=int(v["size"]))


@says("narr.reroll")
def _say_narr_reroll(t: Speaker, v: ExplainStep) -> str:
    return t._("{who} rerolls with an edge: {old} → {new} (H7)", who=v["who"],
               old=",".join(str(f) for f in v["old"]), new=",".join(str(f) for f in v["new"]))


@says("narr.open")
def _say_narr_open(t: Speaker, v: ExplainStep) -> str:
    return t._("{narrator} takes the narration with {dice} (H9)", narrator=v["narrator"], dice=_plus_faces(v["faces"]))


@says("narr.usurp")
def _say_narr_usurp(t: Speaker, v: ExplainStep) -> str:
    values = {"who": v["who"], "owner": v["owner"], "burned": _plus_faces(v["burned"]), "dice": _plus_faces(v["faces"])}
    tier = v["tier"]
    if tier == "negate":
        return t._("{who} burns {owner}'s {burned} with {dice}: {who} may completely negate the last claimed action "
                   "with their character's action (H9)", **values)
    if tier == "parry":
        return t._("{who} burns {owner}'s {burned} with {dice}: {who} may prevent or parry the last claimed action (H9)",
                   **values)
    if v["ability_fight"]:
        return t._("{who} burns {owner}'s {burned} with {dice}: {who} acts, and the GM rolls to see if their character "
                   "is harmed (a fight with abilities: the GM wins that roll) (H9)", **values)
    return t._("{who} burns {owner}'s {burned} with {dice}: {who} acts, and the GM rolls to see if their character is "
               "harmed ({count}d{size} against {total}) (H9)", count=len(v["faces"]), size=int(v["harm_die"]),
               total=sum(int(f) for f in v["faces"]), **values)


@says("narr.harm")
def _say_narr_harm(t: Speaker, v: ExplainStep) -> str:
    if v["result"] == "automatic":
        return t._("a fight with abilities: the GM wins automatically, {who}'s character is harmed (H9)", who=v["who"])
    values = {"gm": _plus_faces(v["gm"]), "total": int(v["usurper_total"]), "who": v["who"]}
    if v["result"] == "harmed":
        return t._("GM {gm} > {total}: {who}'s character is harmed (H9)", **values)
    return t._("GM {gm} is not above {total}: {who}'s character is unharmed (H9)", **values)


@says("narr.new_scene")
def _say_narr_new_scene(t: Speaker, v: ExplainStep) -> str:
    return t._("new scene: the narration is open and every background may be rolled again (H9)")


@says("narr.conflict")
def _say_narr_conflict(t: Speaker, v: ExplainStep) -> str:
    conflict = str(v["conflict"])
    values = {"conflict": t._(CONFLICT_WORDS[conflict]) if conflict in CONFLICT_WORDS else conflict,
              "size": int(v["size"])}
    if v["ability_fight"]:
        return t._("conflict: {conflict} (GM harm dice d{size}), a fight with abilities (H9)", **values)
    return t._("conflict: {conflict} (GM harm dice d{size}) (H9)", **values)
