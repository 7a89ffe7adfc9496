"""Rajapolku: d10 pools, highest die wins (docs/rules.md, R1–R12).

Pure functions and small immutable values. Side **A** is the side that acts
(usually a player character); side **B** is the opposition — another character,
or the pool the GM builds for a difficulty (R3). Where a rule speaks of the
*defender* or the status quo (``raja.full_tie = defender``), that is side B.

Reading choices made here (each documented where it is implemented):

* Sorting (R5, R7): dice are sorted highest face first; among equal faces an
  **ability die sorts before an ordinary die**. Faces decide every comparison,
  so this never changes who wins or the degrees; it only decides which die is
  "the highest" for the R7 visible-supernatural flag: when an ability die shows
  the top face, bystanders see it ("the biggest result is from this ability
  die", even if an ordinary die matched it).
* R7 *visibly supernatural*: the winner's highest die is an ability die and
  it is strictly higher than every die of the loser (8*,7 vs 8,5 is not: the
  8* only ties; 8*,8 vs 5 is). ``deciding_position`` separately tells where
  R5's comparison was decided.
* R6 ``raja.degrees = beyond`` (R6): the *deciding die* left out of
  the count is the winner's highest die; when an ability die and an ordinary
  die tie at the winner's top face, the *ordinary* die is the deciding one and
  the ability die counts beyond it (the reading most favourable to the
  winner: 9✦,9 vs 5 = 2 degrees and 1 supernatural feature). A win whose only
  ability die is the deciding die (9✦,5 vs 3) is still visibly supernatural
  (R7) but adds no feature (:func:`deciding_die`).
* An empty pool (possible only outside R1, e.g. hand-entered faces) loses to
  any pool that has dice, whatever ``raja.exhausted`` says; two empty pools tie.
* Wound penalty ``remove`` (R9) takes dice off in this order unless the
  wounded side names others: helping-condition dice (last claimed first), then
  background dice (last first), then ability dice (last first). The action die
  is never removed, so a pool keeps at least one die. An ability die that the
  wound removes is not rolled and costs no charge (:attr:`PoolPlan.abilities`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..i18n import N_, said
from ..text import WOUND_LEVEL_WORDS, die_typed
from .dice import Die, DieSpec, RulesError, Src
from .explain import Speaker, line, says
from .explain import Step as ExplainStep
from .system import RAJA_WOUND_LEVELS, RAJA_WOUND_PENALTY, Settings, raja_wound_level

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

D10 = 10
"""R1: every Rajapolku die is a d10."""

OUT_OF_ACTION = ("Out of play", "Dead")
"""R9 levels at which a character cannot take part in a challenge."""

ABILITY_COST_KINDS = ("use", "scene", "always")
"""R11: an ability costs per use, per scene, or is always on (free)."""


# --------------------------------------------------------------------------- pools


@dataclass(frozen=True, slots=True)
class PoolPlan:
    """One side's pool before rolling (R1–R4, R7, R9).

    The final pool of a side is its own ``dice`` plus the other side's
    ``to_opposition`` (see :func:`final_pools`).
    """

    dice: tuple[DieSpec, ...]
    """This side's dice: the action die first, then backgrounds, abilities, conditions."""
    to_opposition: tuple[DieSpec, ...]
    """Dice this side's hindering conditions (R4) or wounds (R9 ``oppose``) give the other side."""
    removed: tuple[DieSpec, ...]
    """Dice the wound penalty took away (R9 ``remove``)."""
    wound_level: str
    penalty: int
    """The wound level's penalty in dice (R9), whichever way it was applied."""
    explain: tuple[str, ...]
    """Short human lines saying where every die came from."""

    @property
    def abilities(self) -> tuple[str, ...]:
        """Names of the ability dice this side rolls: the abilities whose use is paid (R9, R11).

        An ability whose die the wound penalty removed is not in it.
        """
        return tuple(d.label for d in self.dice if d.source == Src.ABILITY)

    @property
    def removed_abilities(self) -> tuple[str, ...]:
        """Abilities whose die the wound penalty removed: not rolled, no charge (R9)."""
        return tuple(d.label for d in self.removed if d.source == Src.ABILITY)


WOUND_REMOVABLE = ("condition", "background", "ability")
"""R9: the kinds of dice a wound may remove, in the default order."""


def _wound_level(level: str | None) -> str:
    if level is None or not str(level).strip():
        return "Healthy"
    found = raja_wound_level(level)  # a campaign's track may name a level in the rule text's Finnish
    if found is not None:
        return found
    levels = ", ".join(RAJA_WOUND_LEVELS)
    raise RulesError(said(N_("unknown wound level '{level}' (use one of: {levels})"), level=str(level), levels=str(levels)))


def _names(kind: str, names: Sequence[str]) -> list[str]:
    if isinstance(names, str):
        names = [names]
    out = []
    for name in names:
        text = str(name).strip()
        if not text:
            raise RulesError(said(N_("a {kind} needs a name"), kind=str(kind)))
        out.append(text)
    return out


def build_pool(
    backgrounds: Sequence[str] = (),
    abilities: Sequence[str] = (),
    helping_conditions: Sequence[str] = (),
    wound_level: str = "Healthy",
    settings: Settings | None = None,
    *,
    hindering_conditions: Sequence[str] = (),
    wound_removes: Sequence[tuple[str, str]] | None = None,
) -> PoolPlan:
    """Build one side's pool (R1–R4, R7, R9).

    R1 one action die; R2 one d10 per claimed background; R7 one ability die
    (``Src.ABILITY``) per ability; R4 a helping condition adds a die to this
    side, a hindering one adds a die to the *opposing* pool. R3: the GM builds
    a difficulty the same way. R9 wound penalty per ``raja.wound_penalty``:
    ``remove`` takes N dice off (never the action die; see the module docstring
    for the order), ``oppose`` gives the opposition N dice instead.

    Args:
        backgrounds: names of the fitting backgrounds claimed (R2).
        abilities: names of the supernatural abilities used (R7).
        helping_conditions: circumstances that help this side (R4).
        wound_level: the side's R9 level; "Healthy" for the GM's difficulty.
        settings: campaign settings (defaults when None).
        hindering_conditions: circumstances that hinder this side (R4).
        wound_removes: the wounded side's own choice of dice to lose (R9
            ``remove``), as ``(kind, name)`` pairs, kind "condition",
            "background" or "ability"; they go first, and if they are fewer
            than the penalty the default order takes the rest.

    Raises:
        RulesError: a level that cannot act (Out of play, Dead), an unknown
            level, an empty name, or a chosen die that is not in the pool.
    """
    settings = settings or Settings()
    level = _wound_level(wound_level)
    if level in OUT_OF_ACTION:
        raise RulesError(said(N_("a character who is {value} cannot take part in a challenge (R9)"), value=str(level.lower())))
    bgs = _names("background", backgrounds)
    abs_ = _names("ability", abilities)
    helps = _names("condition", helping_conditions)
    hinders = _names("condition", hindering_conditions)

    action = DieSpec(D10, Src.ACTION, "action")
    bg_dice = [DieSpec(D10, Src.BACKGROUND, n) for n in bgs]
    ab_dice = [DieSpec(D10, Src.ABILITY, n) for n in abs_]
    cond_dice = [DieSpec(D10, Src.CONDITION, n) for n in helps]
    lines: list[str] = [line("raja.action_die")]
    lines += [line("raja.background_die", name=n) for n in bgs]
    lines += [line("raja.ability_die", name=n) for n in abs_]
    lines += [line("raja.condition_die", name=n) for n in helps]

    opposition = [DieSpec(D10, Src.CONDITION, n) for n in hinders]
    lines += [line("raja.hindering", name=n) for n in hinders]

    penalty = RAJA_WOUND_PENALTY[level]
    removed: list[DieSpec] = []
    if penalty:
        if settings.raja_wound_penalty == "oppose":
            label = f"wound: {level}"
            opposition += [DieSpec(D10, Src.CONDITION, label)] * penalty
            lines.append(line("raja.wound_oppose", level=level, penalty=penalty))
        else:
            removable = cond_dice[::-1] + bg_dice[::-1] + ab_dice[::-1]
            chosen = _chosen_removals(wound_removes, removable, penalty)
            removed = chosen + [s for s in _without(removable, chosen)][: penalty - len(chosen)]
            gone = list(removed)
            for pile in (cond_dice, bg_dice, ab_dice):
                for spec in list(pile):
                    if spec in gone:
                        pile.remove(spec)
                        gone.remove(spec)
            lines.append(line("raja.wound_remove", level=level, penalty=penalty,
                              removed=[{"source": str(s.source), "label": s.label} for s in removed]))

    dice = (action, *bg_dice, *ab_dice, *cond_dice)
    return PoolPlan(
        dice=dice,
        to_opposition=tuple(opposition),
        removed=tuple(removed),
        wound_level=level,
        penalty=penalty,
        explain=tuple(lines),
    )


def _without(specs: list[DieSpec], gone: list[DieSpec]) -> list[DieSpec]:
    left = list(specs)
    for spec in gone:
        left.remove(spec)
    return left


def _chosen_removals(
    wanted: Sequence[tuple[str, str]] | None, removable: list[DieSpec], penalty: int
) -> list[DieSpec]:
    """The dice the wounded side chose to lose (R9), checked against its pool."""
    if not wanted:
        return []
    pairs = list(wanted)
    if len(pairs) > penalty:
        raise RulesError(said(N_("the wound removes {penalty} dice (R9), not {pairs}"), penalty=str(penalty), pairs=str(len(pairs))))
    left = list(removable)
    out: list[DieSpec] = []
    for item in pairs:
        try:
            kind, name = item
        except (TypeError, ValueError):
            raise RulesError(said(N_("a die to remove is a (kind, name) pair, not {item}"), item=repr(item))) from None
        kind, name = str(kind).strip().lower(), str(name).strip()
        if kind == "action":
            raise RulesError(said(N_("the wound never removes the action die (R9)")))
        if kind not in WOUND_REMOVABLE:
            raise RulesError(said(N_("a wound removes a condition, background or ability die, not '{kind}' (R9)"), kind=str(kind)))
        spec = next((d for d in left if str(d.source) == kind and d.label == name), None)
        if spec is None:
            raise RulesError(said(N_("no {kind} die '{name}' in the pool to remove (R9)"), kind=str(kind), name=str(name)))
        left.remove(spec)
        out.append(spec)
    return out


def final_pools(a: PoolPlan, b: PoolPlan) -> tuple[tuple[DieSpec, ...], tuple[DieSpec, ...]]:
    """The dice each side rolls: its own plus what the other side's plan gives it (R4, R9)."""
    return a.dice + b.to_opposition, b.dice + a.to_opposition


# ---------------------------------------------------------------------- resolution


def raja_sorted(dice: Sequence[Die]) -> tuple[Die, ...]:
    """Dice highest face first; ability dice before ordinary ones on equal faces (R5, R7).

    The key covers every field of a die, so the order never depends on the
    order the dice were given in.
    """
    return tuple(
        sorted(
            dice,
            key=lambda d: (-d.face, not d.is_ability, str(d.source), d.label, d.replaced, d.size),
        )
    )


def _glyph(d: Die) -> str:
    return die_typed(d.face, d.is_ability)


@dataclass(frozen=True, slots=True)
class RajaResult:
    """The outcome of one Rajapolku challenge (R5–R7)."""

    a: tuple[Die, ...]
    """Side A's dice, sorted (see :func:`raja_sorted`)."""
    b: tuple[Die, ...]
    """Side B's (the opposition's / defender's) dice, sorted."""
    winner: str
    """"a", "b" or "tie"."""
    degrees: int
    """R6 degrees of success (ability dice count 2, R7); 0 for a narrow win or a tie."""
    supernatural: int
    """R7: how many of the winner's successes come from ability dice."""
    deciding_position: int | None
    """1-based position where R5's comparison was decided; None for a tie."""
    decided_by: str
    """"face" (a higher die), "exhausted" (R5 ``raja.exhausted``), "empty" (a side had no dice) or "tie"."""
    deciding_die_is_ability: bool
    """R7 visibly supernatural: the winner's highest die is an ability die above all the loser's dice."""
    degree_dice: tuple[Die, ...]
    """The dice counted as degrees (R6): the winner's dice strictly higher than
    the loser's highest die, without the deciding one under ``raja.degrees = beyond``."""
    tie_action: str | None
    """For a tie: "reroll" or "defender" (``raja.full_tie``); else None."""
    holds: str | None
    """The side whose outcome stands: the winner; "b" on a tie with ``defender``; None on a reroll."""
    degrees_rule: str = "all"
    """The ``raja.degrees`` reading in force (R6): "all" or "beyond" the deciding die."""

    @property
    def loser(self) -> str | None:
        return {"a": "b", "b": "a"}.get(self.winner)

    @property
    def narrow(self) -> bool:
        """R6: a win decided only by a tie-break: no winner die above the loser's highest.

        Under ``raja.degrees = beyond`` a clear win can have 0 degrees and still
        not be narrow (EX A: 8 > 7 decides, nothing beyond it).
        """
        if self.winner not in ("a", "b"):
            return False
        win, lose = (self.a, self.b) if self.winner == "a" else (self.b, self.a)
        top = lose[0].face if lose else 0
        return not win or win[0].face <= top

    @property
    def visibly_supernatural(self) -> bool:
        """R7: the same as :attr:`deciding_die_is_ability`."""
        return self.deciding_die_is_ability

    def explain(self) -> list[str]:
        """Short human lines: the rolls, each compared position, the outcome (R5–R7)."""
        lines: list[str] = [line("raja.rolls", a=[_glyph(d) for d in self.a], b=[_glyph(d) for d in self.b])]
        last = self.deciding_position or max(len(self.a), len(self.b))
        for i in range(min(last, max(len(self.a), len(self.b)))):
            da = self.a[i] if i < len(self.a) else None
            db = self.b[i] if i < len(self.b) else None
            if da is None or db is None:
                has, other = ("A", "B") if da is not None else ("B", "A")
                die = da if da is not None else db
                assert die is not None
                lines.append(line("raja.no_die", position=i + 1, other=other, has=has, die=_glyph(die),
                                  outcome="tie" if self.winner == "tie" else
                                  "exhausted" if self.decided_by == "exhausted" else "wins"))
                break
            if da.face == db.face:
                lines.append(line("raja.position", position=i + 1, a_die=_glyph(da), b_die=_glyph(db), side=""))
            else:
                lines.append(line("raja.position", position=i + 1, a_die=_glyph(da), b_die=_glyph(db),
                                  side="A" if da.face > db.face else "B"))
                break
        if self.winner == "tie":
            lines.append(line("raja.full_tie", holds=self.tie_action == "defender"))
            return lines
        win = self.winner.upper()
        lose_dice = self.b if self.winner == "a" else self.a
        top = lose_dice[0].face if lose_dice else 0
        beyond = ""
        win_dice = self.a if self.winner == "a" else self.b
        if self.degrees_rule == "beyond" and win_dice and win_dice[0].face > top:
            beyond = _glyph(deciding_die(win_dice))
        counted = ", ".join(f"{_glyph(d)} (×2)" if d.is_ability else _glyph(d) for d in self.degree_dice)
        lines.append(line("raja.won", win=win, degrees=self.degrees, counted=counted, top=top, beyond=beyond,
                          narrow=bool(self.narrow) and not self.degrees))
        if self.supernatural:
            lines.append(line("raja.supernatural", supernatural=self.supernatural))
        if self.deciding_die_is_ability:
            lines.append(line("raja.visibly", win=win,
                              no_feature=not self.supernatural and self.degrees_rule == "beyond"))
        return lines


def resolve(a: Sequence[Die], b: Sequence[Die], settings: Settings | None = None) -> RajaResult:
    """Resolve a challenge between side A and side B (R5–R7).

    R5: sort each side highest first and compare position by position; the
    first differing position decides. ``raja.exhausted``: when every compared
    position is equal and one side has dice left, that side wins (True) or it
    is a tie (False). ``raja.full_tie``: identical rolls tie; ``reroll`` or the
    ``defender`` (side B) holds. R6: each winner die strictly above the
    loser's highest die is one degree; R7 ability dice count two and each adds
    a supernatural feature.

    Raises:
        RulesError: a die that is not a d10.
    """
    settings = settings or Settings()
    for d in (*a, *b):
        if d.size != D10:
            raise RulesError(said(N_("Rajapolku uses only d10s, not a d{size} (R1)"), size=str(d.size)))
    sa, sb = raja_sorted(a), raja_sorted(b)

    winner = "tie"
    position: int | None = None
    decided_by = "tie"
    if not sa and sb:
        winner, position, decided_by = "b", 1, "empty"
    elif sa and not sb:
        winner, position, decided_by = "a", 1, "empty"
    else:
        for i, (da, db) in enumerate(zip(sa, sb)):
            if da.face != db.face:
                winner = "a" if da.face > db.face else "b"
                position, decided_by = i + 1, "face"
                break
        else:
            if len(sa) != len(sb) and settings.raja_exhausted:
                winner = "a" if len(sa) > len(sb) else "b"
                position, decided_by = min(len(sa), len(sb)) + 1, "exhausted"

    if winner == "tie":
        action = settings.raja_full_tie
        return RajaResult(
            a=sa, b=sb, winner="tie", degrees=0, supernatural=0, deciding_position=None,
            decided_by="tie", deciding_die_is_ability=False, degree_dice=(),
            tie_action=action, holds="b" if action == "defender" else None,
            degrees_rule=settings.raja_degrees,
        )

    win, lose = (sa, sb) if winner == "a" else (sb, sa)
    top = lose[0].face if lose else 0
    degree_dice = tuple(d for d in win if d.face > top)
    if settings.raja_degrees == "beyond" and degree_dice:
        skip = degree_dice.index(deciding_die(degree_dice))
        degree_dice = degree_dice[:skip] + degree_dice[skip + 1:]
    degrees = degree_weight(degree_dice)
    supernatural = sum(1 for d in degree_dice if d.is_ability)
    return RajaResult(
        a=sa, b=sb, winner=winner, degrees=degrees, supernatural=supernatural,
        deciding_position=position, decided_by=decided_by,
        deciding_die_is_ability=visibly_supernatural(win, lose), degree_dice=degree_dice,
        tie_action=None, holds=winner, degrees_rule=settings.raja_degrees,
    )


def deciding_die(win: Sequence[Die]) -> Die:
    """R6 ``raja.degrees = beyond``: the winner's deciding die, left out of the degrees.

    ``win`` is the winner's dice sorted (:func:`raja_sorted`). It is the highest
    die; when an ability die and an ordinary die tie at that face, the ordinary
    die decides and the ability die counts beyond it (R6: 9✦,9 vs 5 =
    2 degrees, 1 supernatural feature). With only ability dice at the top, an
    ability die decides: the win is still visibly supernatural (R7) but that
    die adds no feature.

    Raises:
        RulesError: no dice.
    """
    if not win:
        raise RulesError(said(N_("a side without dice has no deciding die (R6)")))
    top = win[0].face
    return next((d for d in win if d.face == top and not d.is_ability), win[0])


def degree_weight(dice: Sequence[Die]) -> int:
    """R6/R7: one degree per die, two per ability die."""
    return sum(2 if d.is_ability else 1 for d in dice)


def visibly_supernatural(winner: Sequence[Die], loser: Sequence[Die]) -> bool:
    """R7: the winner's highest die is an ability die strictly above every die of the loser.

    EX (docs/rules.md R7): 8*,7 vs 8,5 is not (the 8* only ties, the 7 decides);
    8*,8 vs 5 is.
    """
    win = raja_sorted(winner)
    if not win or not win[0].is_ability:
        return False
    return all(win[0].face > d.face for d in loser)


def _die_json(d: Die) -> dict[str, Any]:
    out: dict[str, Any] = {"face": d.face, "source": str(d.source), "ability": d.is_ability}
    if d.label:
        out["label"] = d.label
    if d.replaced:
        out["replaced"] = list(d.replaced)
    return out


def result_json(result: RajaResult) -> dict[str, object]:
    """A JSON-serialisable summary; keys ``winner``, ``degrees``, ``supernatural`` always."""
    return {
        "system": "rajapolku",
        "winner": result.winner,
        "degrees": result.degrees,
        "supernatural": result.supernatural,
        "narrow": result.narrow,
        "a_faces": [d.face for d in result.a],
        "b_faces": [d.face for d in result.b],
        "a_dice": [_die_json(d) for d in result.a],
        "b_dice": [_die_json(d) for d in result.b],
        "deciding_position": result.deciding_position,
        "decided_by": result.decided_by,
        "deciding_die_is_ability": result.deciding_die_is_ability,
        "visibly_supernatural": result.deciding_die_is_ability,
        "degrees_rule": result.degrees_rule,
        "degree_faces": [d.face for d in result.degree_dice],
        "tie_action": result.tie_action,
        "holds": result.holds,
        "explain": result.explain(),
    }


# ------------------------------------------------------------------------- charges


@dataclass(frozen=True, slots=True)
class SpiritPool:
    """R11 spirit combat: 1 charge spent, the remaining charges become the dice."""

    charges_before: int
    spent: int
    remaining: int
    """Charges left after spending; also the character's hit points in the fight."""
    dice: tuple[DieSpec, ...]


def spirit_pool(charges: int) -> SpiritPool:
    """Enter spirit combat with ``charges`` (the character's charges now, before spending) (R11).

    This is the entry, paid once per fight; later exchanges roll the charges
    left (:class:`SpiritFight`).

    Raises:
        RulesError: fewer than 2 charges (after spending 1 none would remain as dice).
    """
    if isinstance(charges, bool) or not isinstance(charges, int) or charges < 0:
        raise RulesError(said(N_("charges must be a whole number 0 or more, not {charges}"), charges=repr(charges)))
    if charges < 1:
        raise RulesError(said(N_("no charge to spend: spirit combat costs 1 charge (R11)")))
    remaining = charges - 1
    if remaining == 0:
        raise RulesError(said(N_("after spending 1 charge none would remain to roll (R11)")))
    return SpiritPool(
        charges_before=charges,
        spent=1,
        remaining=remaining,
        dice=tuple(DieSpec(D10, Src.CHARGE, "charge") for _ in range(remaining)),
    )


def spirit_loss(result: RajaResult, settings: Settings | None = None) -> int:
    """Charges the loser of a spirit-combat exchange loses (R11, ``raja.spirit_loss``).

    ``degrees``: the winner's degrees, at least 1; ``one``: 1. A tie costs nothing.
    """
    settings = settings or Settings()
    if result.winner == "tie":
        return 0
    if settings.raja_spirit_loss == "one":
        return 1
    return max(1, result.degrees)


def spirit_dice_counts(
    a_charges: int, b_charges: int, settings: Settings | None = None, *, a_penalty: int = 0, b_penalty: int = 0
) -> tuple[int, int]:
    """How many d10s each side rolls in a spirit-combat exchange (R11, R9 ``raja.spirit_wounds``).

    The charges left are the dice. Under ``raja.spirit_wounds = true`` (the
    default: R9 says "all actions") a wounded side's penalty counts the way
    ``raja.wound_penalty`` says: ``remove`` rolls that many fewer dice, at
    least 1 (the charges, the fight's hit points, are not lost); ``oppose``
    gives the other side that many more dice. ``false``: the charges alone.
    A side without charges rolls nothing (the fight is over).

    Args:
        a_penalty, b_penalty: each side's R9 penalty in dice (its wound level's).
    """
    settings = settings or Settings()
    for name, value in (("a_penalty", a_penalty), ("b_penalty", b_penalty)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise RulesError(said(N_("{name} must be a whole number 0 or more, not {value}"), name=str(name), value=repr(value)))
    if not settings.raja_spirit_wounds or a_charges <= 0 or b_charges <= 0:
        return a_charges, b_charges
    if settings.raja_wound_penalty == "oppose":
        return a_charges + b_penalty, b_charges + a_penalty
    return max(1, a_charges - a_penalty), max(1, b_charges - b_penalty)


@dataclass(frozen=True, slots=True)
class SpiritFight:
    """A spirit combat in progress (R11), an immutable value.

    Each participant paid the 1-charge entry once, when the fight began
    (:func:`begin_spirit_fight`); every exchange then rolls the charges each
    side has left (:meth:`dice`), and :meth:`exchange` applies one result: a
    full tie costs nothing (``raja.full_tie`` says whether it is rerolled or
    the defender holds), the winner loses nothing, the loser loses charges by
    ``raja.spirit_loss``. The fight is over when a side has no charges left
    or the GM ends it (:meth:`end`).
    """

    a_charges: int
    """Side A's charges left: its dice and hit points in the fight."""
    b_charges: int
    """Side B's (the defender's) charges left."""
    a_entry: int = 1
    """What A paid to enter (R11: 1 charge)."""
    b_entry: int = 1
    exchanges: int = 0
    """Exchanges resolved so far, ties included."""
    ended_by_gm: bool = False
    a_penalty: int = 0
    """Side A's R9 wound penalty in dice now (``raja.spirit_wounds``, :func:`spirit_dice_counts`)."""
    b_penalty: int = 0

    @property
    def over(self) -> bool:
        return self.ended_by_gm or self.a_charges == 0 or self.b_charges == 0

    @property
    def winner(self) -> str | None:
        """"a" or "b" once the other side has no charges; None while it goes on or when the GM ended it."""
        if self.b_charges == 0 and self.a_charges > 0:
            return "a"
        if self.a_charges == 0 and self.b_charges > 0:
            return "b"
        return None

    def charges(self, side: str) -> int:
        if side not in ("a", "b"):
            raise RulesError(said(N_("side must be 'a' or 'b', not {side}"), side=repr(side)))
        return self.a_charges if side == "a" else self.b_charges

    def dice_counts(self, settings: Settings | None = None) -> tuple[int, int]:
        """Each side's d10s in the next exchange (R11; wounds by ``raja.spirit_wounds``)."""
        return spirit_dice_counts(self.a_charges, self.b_charges, settings,
                                  a_penalty=self.a_penalty, b_penalty=self.b_penalty)

    def dice(self, side: str, settings: Settings | None = None) -> tuple[DieSpec, ...]:
        """The dice ``side`` rolls in the next exchange: one d10 per charge left (R11), less its
        wound penalty or plus the other side's (R9, ``raja.spirit_wounds``)."""
        own = self.charges(side)
        n = self.dice_counts(settings)[0 if side == "a" else 1]
        charge = [DieSpec(D10, Src.CHARGE, "charge")] * min(own, n)
        return tuple(charge + [DieSpec(D10, Src.CONDITION, "the other side's wound (R9)")] * max(0, n - own))

    def exchange(self, result: RajaResult, settings: Settings | None = None) -> "SpiritExchange":
        """Apply one exchange's result (R11); the fight is unchanged but for the loser's charges.

        Raises:
            RulesError: the fight is over, or the result's pools are not the charges left.
        """
        if self.over:
            raise RulesError(said(N_("this spirit combat is over (R11)")))
        na, nb = self.dice_counts(settings)
        if len(result.a) != na or len(result.b) != nb:
            wounds = "" if (na, nb) == (self.a_charges, self.b_charges) else ", with the wound penalties (R9)"
            raise RulesError(said(N_("each side rolls its charges left{wounds} ({na} and {nb} dice) (R11)"), wounds=str(wounds), na=str(na), nb=str(nb)))
        loss = spirit_loss(result, settings)
        a, b = self.a_charges, self.b_charges
        if result.winner == "a":
            b = apply_charge_loss(b, loss)
        elif result.winner == "b":
            a = apply_charge_loss(a, loss)
        fight = replace(self, a_charges=a, b_charges=b, exchanges=self.exchanges + 1)
        return SpiritExchange(fight=fight, result=result, loser=result.loser, loss=loss)

    def end(self) -> "SpiritFight":
        """The GM ends the fight (a side withdraws) (R11)."""
        return replace(self, ended_by_gm=True)

    def explain(self) -> list[str]:
        return [line("raja.spirit_state", a_charges=self.a_charges, b_charges=self.b_charges, exchanges=self.exchanges,
                     over=self.over, winner=self.winner or "", ended_by_gm=self.ended_by_gm)]

    def to_json(self) -> dict[str, Any]:
        return {"a_charges": self.a_charges, "b_charges": self.b_charges, "exchanges": self.exchanges,
                "over": self.over, "winner": self.winner, "ended_by_gm": self.ended_by_gm}


@dataclass(frozen=True, slots=True)
class SpiritExchange:
    """One exchange of a spirit combat (R11)."""

    fight: SpiritFight
    """The fight after this exchange."""
    result: RajaResult
    loser: str | None
    """"a" or "b"; None on a full tie, which costs nothing."""
    loss: int
    """Charges the loser lost (0 on a tie)."""


def begin_spirit_fight(a_charges: int, b_charges: int, *, a_penalty: int = 0, b_penalty: int = 0) -> SpiritFight:
    """Both participants pay the 1-charge entry, once for the whole fight (R11).

    Args:
        a_charges, b_charges: each participant's charges now, before paying.
        a_penalty, b_penalty: their R9 wound penalties in dice (``raja.spirit_wounds``).

    Raises:
        RulesError: a participant without a charge to pay, or with none left to roll after it.
    """
    a, b = spirit_pool(a_charges), spirit_pool(b_charges)
    return SpiritFight(a_charges=a.remaining, b_charges=b.remaining, a_penalty=a_penalty, b_penalty=b_penalty)


def apply_charge_loss(charges: int, loss: int) -> int:
    """Charges left after losing ``loss`` (never below 0) (R11)."""
    return max(0, charges - max(0, loss))


def ability_cost(kind: str, cost: int = 1, *, paid_this_scene: bool = False) -> int:
    """Charges an ability use costs now (R11).

    Args:
        kind: "use" (every use), "scene" (once per scene) or "always" (always on, free).
        cost: the ability's recorded price, usually 1.
        paid_this_scene: for "scene" abilities, whether it is already paid this scene.

    Raises:
        RulesError: an unknown kind or a negative cost.
    """
    if kind not in ABILITY_COST_KINDS:
        raise RulesError(said(N_("unknown ability cost '{kind}' (use one of: use, scene, always)"), kind=str(kind)))
    if isinstance(cost, bool) or not isinstance(cost, int) or cost < 0:
        raise RulesError(said(N_("ability cost must be a whole number 0 or more, not {cost}"), cost=repr(cost)))
    if kind == "always" or (kind == "scene" and paid_this_scene):
        return 0
    return cost


def spend_charges(charges: int, cost: int) -> int:
    """Charges left after paying ``cost`` (R11).

    Raises:
        RulesError: not enough charges.
    """
    if cost > charges:
        raise RulesError(said(N_("not enough charges: {cost} needed, {charges} left (R11)"), cost=str(cost), charges=str(charges)))
    return charges - cost


def harm_steps(degrees: int, track: Sequence[str], current: str) -> tuple[int, str]:
    """R8/R9: the wound-track step a lost challenge proposes: one level per degree of success.

    A narrow win (0 degrees, R6) proposes no step (a health note instead, R8).
    The step stops at the track's last level. Returns (steps taken, new level).
    EX: Healthy on the full R9 track, 3 degrees (EX C) → 3 steps, Badly wounded;
    EX A (1 degree) → Bruised; Mortally wounded + 3 → Dead (2 steps).
    """
    if isinstance(degrees, bool) or not isinstance(degrees, int) or degrees < 0:
        raise RulesError(said(N_("degrees must be a whole number 0 or more, not {degrees}"), degrees=repr(degrees)))
    levels = list(track)
    if current not in levels:
        raise RulesError(said(N_("'{current}' is not on this wound track"), current=str(current)))
    i = levels.index(current)
    j = min(len(levels) - 1, i + degrees)
    return j - i, levels[j]


def is_fallen(level: str) -> bool:
    """R9: out of the fight: Out of play (mortally wounded and unconscious) or Dead."""
    return raja_wound_level(level) in ("Out of play", "Dead")



# -- the explanation's lines in words (rules.explain): one sayer per step, for any language ------------------

SOURCE_WORDS = {"condition": N_("condition"), "background": N_("background"), "ability": N_("ability")}
"""The kinds of die a wound removes (R9), in words."""


def _level(t: Speaker, level: str) -> str:
    return t._(level) if level in WOUND_LEVEL_WORDS else level


@says("raja.action_die")
def _say_action_die(t: Speaker, v: ExplainStep) -> str:
    return t._("action die (R1)")


@says("raja.background_die")
def _say_background_die(t: Speaker, v: ExplainStep) -> str:
    return t._("+1d10 background: {name} (R2)", name=v["name"])


@says("raja.ability_die")
def _say_ability_die(t: Speaker, v: ExplainStep) -> str:
    return t._("+1d10 ability: {name} — successes count double (R7)", name=v["name"])


@says("raja.condition_die")
def _say_condition_die(t: Speaker, v: ExplainStep) -> str:
    return t._("+1d10 condition: {name} (R4)", name=v["name"])


@says("raja.hindering")
def _say_hindering(t: Speaker, v: ExplainStep) -> str:
    return t._("hindering condition {name}: +1d10 to the opposition (R4)", name=v["name"])


@says("raja.wound_oppose")
def _say_wound_oppose(t: Speaker, v: ExplainStep) -> str:
    return t._("{level}: +{penalty}d10 to the opposition (R9, raja.wound_penalty = oppose)",
               level=_level(t, str(v["level"])), penalty=int(v["penalty"]))


@says("raja.wound_remove")
def _say_wound_remove(t: Speaker, v: ExplainStep) -> str:
    penalty, removed = int(v["penalty"]), list(v["removed"])
    what = ", ".join(f"{t._(SOURCE_WORDS[str(r['source'])]) if r['source'] in SOURCE_WORDS else r['source']} "
                     f"{r['label']}" for r in removed) or t._("nothing")
    # English says "dice" for one die too (as it always has); the plural form is for the other language.
    if len(removed) < penalty:
        return t.ngettext("{level}: −{n} dice (R9), removed {what}; the action die always stays",
                          "{level}: −{n} dice (R9), removed {what}; the action die always stays", penalty,
                          level=_level(t, str(v["level"])), what=what)
    return t.ngettext("{level}: −{n} dice (R9), removed {what}", "{level}: −{n} dice (R9), removed {what}", penalty,
                      level=_level(t, str(v["level"])), what=what)


def _glyphs(t: Speaker, dice: Iterable[object]) -> str:
    return ",".join(str(d) for d in dice) or t._("no dice")


@says("raja.rolls")
def _say_rolls(t: Speaker, v: ExplainStep) -> str:
    return t._("A: {a}  vs  B: {b}", a=_glyphs(t, v["a"]), b=_glyphs(t, v["b"]))


@says("raja.no_die")
def _say_no_die(t: Speaker, v: ExplainStep) -> str:
    values = {"position": int(v["position"]), "other": v["other"], "has": v["has"], "die": v["die"]}
    if v["outcome"] == "tie":
        return t._("position {position}: {other} has no die, {has} {die} → tie (raja.exhausted = false)", **values)
    if v["outcome"] == "exhausted":
        return t._("position {position}: {other} has no die, {has} {die} → {has} (raja.exhausted)", **values)
    return t._("position {position}: {other} has no die, {has} {die} → {has}", **values)


@says("raja.position")
def _say_position(t: Speaker, v: ExplainStep) -> str:
    p, a, b, side = int(v["position"]), v["a_die"], v["b_die"], v["side"]
    if not side:
        return t._("position {position}: {a} = {b}", position=p, a=a, b=b)
    return t._("position {position}: {a} {mark} {b} → {side}", position=p, a=a, b=b, side=side,
               mark=">" if side == "A" else "<")


@says("raja.full_tie")
def _say_full_tie(t: Speaker, v: ExplainStep) -> str:
    return (t._("tie: the defender / status quo (B) holds (raja.full_tie)") if v["holds"]
            else t._("tie: both sides reroll (raja.full_tie)"))


@says("raja.won")
def _say_won(t: Speaker, v: ExplainStep) -> str:
    win, top, beyond = v["win"], int(v["top"]), str(v["beyond"])
    if int(v["degrees"]):
        values = {"win": win, "degrees": int(v["degrees"]), "counted": v["counted"], "top": top}
        return (t._("{win} wins, degrees: {degrees} — {counted} (> {top}) beyond the deciding die {die} "
                    "(raja.degrees = beyond)", die=beyond, **values) if beyond
                else t._("{win} wins, degrees: {degrees} — {counted} (> {top})", **values))
    if not v["narrow"]:
        return (t._("{win} wins: 0 degrees beyond the deciding die {die} (raja.degrees = beyond)", win=win, die=beyond)
                if beyond else t._("{win} wins: 0 degrees", win=win))
    return t._("{win} wins narrowly: 0 degrees (no die above {top})", win=win, top=top)


@says("raja.supernatural")
def _say_supernatural(t: Speaker, v: ExplainStep) -> str:
    return t._("supernatural features: {n} (R7)", n=int(v["supernatural"]))


@says("raja.visibly")
def _say_visibly(t: Speaker, v: ExplainStep) -> str:
    if v["no_feature"]:
        return t._("visibly supernatural: {win}'s highest die is an ability die (R7); it is the deciding die, so it "
                   "adds no feature (raja.degrees = beyond)", win=v["win"])
    return t._("visibly supernatural: {win}'s highest die is an ability die (R7)", win=v["win"])


@says("raja.spirit_state")
def _say_spirit_state(t: Speaker, v: ExplainStep) -> str:
    state = t._("over") if v["over"] else t._("goes on")
    if v["ended_by_gm"]:
        state = t._("{state}, ended by the GM", state=state)
    elif v["winner"] in ("a", "b"):
        state = t._("{state}, {winner} wins", state=state, winner=str(v["winner"]).upper())
    # English says "charges" for one charge too (as it always has).
    return t.ngettext("spirit combat: A {a} charges, B {b} charges after {n} exchange: {state} (R11)",
                      "spirit combat: A {a} charges, B {b} charges after {n} exchanges: {state} (R11)",
                      int(v["exchanges"]), a=int(v["a_charges"]), b=int(v["b_charges"]), state=state)
