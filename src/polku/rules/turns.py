"""Turns in a fight and effects that last a while: who acts next, and what wears off.

Varjojuoksu (S12 and the 4th-edition core book's combat turn, as the GM
runs it at the table):

- A *combat turn* is made of *initiative passes*. Everyone acts in pass 1;
  in pass 2 only those with 2 or more initiative passes, and so on up to 4.
- Within a pass the highest initiative score acts first. Ties go to the
  higher Edge rating, then the higher Reaction, then the higher Intuition,
  then the name (so the order is never left to chance or to the file's
  order).
- Wound modifiers (S12: −1 per 3 boxes on each monitor) lower the
  initiative score as the wounds change (the score never drops below 0):
  the score kept is the one rolled, and the modifier in force is applied
  whenever the order is read, so a wound taken mid-pass moves its
  carrier down at once.
- A character may *delay* (hold) the action: the turn passes on, and the
  character steps back in whenever the GM says, before anyone else acts.
  **Reading used:** a held action lasts until the end of the pass it was
  held in; if the character has not stepped in by then, that action is
  lost (a later pass of the same turn is a new action).
- Each new combat turn either rerolls initiative (the core book) or keeps
  the scores (setting ``sr.initiative``).
- *Surprise* (the 4th-edition core book; the dice rules are silent): a
  fighter the GM marks surprised takes no action in pass 1 of the combat
  turn; from pass 2 on, surprise no longer counts. **Reading used:** the
  book's surprise is per opponent (a surprised character cannot act against
  those who surprised them); the mark means surprised by everyone who
  matters, and the GM rules on anything finer.

Rajapolku and Harhapolku have no initiative: the challenge queue's order is
the turn order (see :func:`next_challenge`).

Effects (any system): a named effect on a character with an optional dice
modifier, lasting a number of passes, combat turns, scenes or sessions, or
until removed. A counted effect loses one at the end of each of its units
(the end of a pass, of a combat turn, a new scene, a new session) and
expires when it reaches 0.

No textual, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..i18n import N_, said
from .dice import RulesError

MAX_PASSES = 4
"""SR4: at most four initiative passes in a combat turn."""

EFFECT_UNITS = ("pass", "turn", "scene", "session", "removed")
"""What an effect's duration counts: initiative passes, combat turns, scenes, sessions; or until removed."""

EFFECT_UNIT_WORDS = {
    "pass": ("pass", "passes"), "turn": ("combat turn", "combat turns"),
    "scene": ("scene", "scenes"), "session": ("session", "sessions"),
}

MAX_EFFECT_COUNT = 99
MAX_EFFECT_DICE = 20


@dataclass(frozen=True, slots=True)
class TurnEntry:
    """One fighter in the initiative order.

    Attributes:
        cid: Who (a character id).
        score: The initiative score as rolled (S12: Reaction + Intuition + hits).
        passes: Initiative passes this combat turn (1–4).
        edge: Edge rating, the first tie-breaker.
        reaction: Reaction, the second tie-breaker.
        intuition: Intuition, the third.
        wound: The wound modifier in force (0 or negative, S12).
        down: Cannot act (unconscious, dying or dead): keeps its place in the order and is
            skipped by the marker in every pass.
        surprised: Surprised this combat turn: no action in pass 1 (keeps its place).
    """

    cid: str
    score: int
    passes: int = 1
    edge: int = 0
    reaction: int = 0
    intuition: int = 0
    wound: int = 0
    down: bool = False
    surprised: bool = False

    @property
    def current(self) -> int:
        """The score in force: as rolled, lowered by the wound modifier, never below 0."""
        return wounded_score(self.score, self.wound)


def wounded_score(score: int, wound_modifier: int) -> int:
    """S12: the initiative score lowered by the wound modifier (``wound_modifier`` ≤ 0), at least 0."""
    if wound_modifier > 0:
        raise RulesError(said(N_("a wound modifier lowers the score; {wound_modifier} is above 0"), wound_modifier=str(wound_modifier)))
    return max(0, score + wound_modifier)


def turn_order(entries: Iterable[TurnEntry]) -> list[TurnEntry]:
    """Highest current score first; ties by Edge, then Reaction, then Intuition, then id."""
    return sorted(entries, key=lambda e: (-e.current, -e.edge, -e.reaction, -e.intuition, e.cid))


def check_passes(passes: int) -> int:
    """Initiative passes a character may have: 1 to :data:`MAX_PASSES`."""
    if isinstance(passes, bool) or not isinstance(passes, int) or not 1 <= passes <= MAX_PASSES:
        raise RulesError(said(N_("initiative passes are 1 to {MAX_PASSES}, not {passes}"), MAX_PASSES=str(MAX_PASSES), passes=repr(passes)))
    return passes


def acts_in(entry: TurnEntry, pass_no: int) -> bool:
    """Whether ``entry`` acts in initiative pass ``pass_no`` (pass 2 needs 2+ passes; a fighter who is
    down acts in none; a surprised one not in pass 1)."""
    return entry.passes >= pass_no and not entry.down and not (entry.surprised and pass_no == 1)


def next_to_act(order: Sequence[TurnEntry], pass_no: int, done: Iterable[str]) -> str | None:
    """The first of ``order`` acting in ``pass_no`` who is not in ``done`` (acted, holding, acting); None if nobody."""
    skip = set(done)
    for e in order:
        if acts_in(e, pass_no) and e.cid not in skip:
            return e.cid
    return None


def first_pass(entries: Iterable[TurnEntry]) -> int:
    """The first pass anyone acts in: 1, or a later one when everyone who could act in pass 1 is
    surprised (1 when nobody acts at all)."""
    listed = list(entries)
    return next((p for p in range(1, MAX_PASSES + 1) if any(acts_in(e, p) for e in listed)), 1)


def pass_after(entries: Iterable[TurnEntry], pass_no: int) -> int | None:
    """The pass after ``pass_no`` if anyone acts in it, else None (the combat turn is over)."""
    nxt = pass_no + 1
    return nxt if any(acts_in(e, nxt) for e in entries) else None


def next_challenge(statuses: Sequence[str]) -> int | None:
    """Rajapolku / Harhapolku: the index of the challenge that "next" starts.

    The first waiting challenge after the active one, in queue order; without an
    active one (or none waiting after it), the first waiting one from the top.
    None when nothing waits.
    """
    active = next((i for i, s in enumerate(statuses) if s == "active"), -1)
    for i in list(range(active + 1, len(statuses))) + list(range(max(active, 0))):
        if statuses[i] == "waiting":
            return i
    return None


# ---------------------------------------------------------------------------
# effects


def check_effect(name: str, dice: int, unit: str, count: int) -> tuple[str, int, str, int]:
    """A new effect's parts, checked: the name stripped, and ``count`` 0 for "until removed".

    Raises:
        RulesError: one line saying what is wrong.
    """
    name = name.strip()
    if not name:
        raise RulesError(said(N_("an effect needs a name (e.g. Stunned, Blessed, smoke)")))
    if len(name) > 60:
        raise RulesError(said(N_("an effect's name is at most 60 characters")))
    if isinstance(dice, bool) or not isinstance(dice, int) or not -MAX_EFFECT_DICE <= dice <= MAX_EFFECT_DICE:
        raise RulesError(said(N_("an effect's dice modifier is −{MAX_EFFECT_DICE} to +{MAX_EFFECT_DICE}, not {dice}"), MAX_EFFECT_DICE=str(MAX_EFFECT_DICE), dice=repr(dice)))
    if unit not in EFFECT_UNITS:
        raise RulesError(said(N_("an effect lasts passes, turns, scenes, sessions or until removed, not '{unit}'"), unit=str(unit)))
    if unit == "removed":
        return name, dice, unit, 0
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_EFFECT_COUNT:
        raise RulesError(said(N_("an effect lasts 1 to {MAX_EFFECT_COUNT} {value}, not {count}"), MAX_EFFECT_COUNT=str(MAX_EFFECT_COUNT), value=str(EFFECT_UNIT_WORDS[unit][1]), count=repr(count)))
    return name, dice, unit, count


def count_down(unit: str, left: int, ended: str) -> int | None:
    """What is left of an effect counted in ``unit`` once one ``ended`` is over.

    Returns ``left`` unchanged when the effect does not count ``ended``, one
    less when it does, or None when that was its last (it expires).
    """
    if unit != ended or unit == "removed":
        return left
    return left - 1 if left > 1 else None


def duration_text(unit: str, left: int) -> str:
    """``2 passes left``, ``1 combat turn left``, ``until removed``."""
    if unit == "removed":
        return "until removed"
    one, many = EFFECT_UNIT_WORDS[unit]
    return f"{left} {one if left == 1 else many} left"


def dice_text(dice: int) -> str:
    """``−2 dice``, ``+1 die``; empty for no modifier."""
    if not dice:
        return ""
    sign = "+" if dice > 0 else "−"
    return f"{sign}{abs(dice)} {'die' if abs(dice) == 1 else 'dice'}"


__all__ = [
    "EFFECT_UNITS", "EFFECT_UNIT_WORDS", "MAX_PASSES", "TurnEntry", "acts_in", "check_effect", "check_passes",
    "count_down", "dice_text", "duration_text", "next_challenge", "next_to_act", "pass_after", "turn_order",
    "wounded_score",
]
