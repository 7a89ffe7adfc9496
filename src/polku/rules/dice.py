"""Dice, their sources, and injected randomness (docs/rules.md, shared terms).

A :class:`Die` is an immutable value: its size, its face, where it came from
(action die, a named background, a condition, an ability, an edge, the GM's
bonus, a charge…) and, for rerolled or exploded dice, what it replaced.

Randomness only enters through a :class:`DiceSource`: :class:`RandomSource`
(a seeded ``random.Random``) for the program's dice, :class:`ManualSource`
for faces the GM enters from physical dice.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING

from ..i18n import N_, said, told_error

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence


class RulesError(ValueError):
    """Bad input to a rule: the message is one line, fit to show a user.

    Raised with an :func:`polku.i18n.said` line (or a message marked ``N_`` alone), ``str(e)`` is that line in
    the language in use; ``e.args[0]`` stays the English line with its words (a seat's answer carries them)."""

    def __str__(self) -> str:
        return told_error(self)


class FaceError(RulesError):
    """A face that cannot be on its die, or text that is not a face."""


class Src(StrEnum):
    """Where a die in a pool came from (docs/rules.md, shared terms)."""

    ACTION = "action"
    BACKGROUND = "background"
    CONDITION = "condition"
    ABILITY = "ability"
    EDGE = "edge"
    GM_BONUS = "gm"
    CHARGE = "charge"
    SKILL = "skill"
    ATTRIBUTE = "attribute"
    MODIFIER = "modifier"
    HELPER = "helper"
    EXPLODED = "exploded"
    DIE = "die"


VALID_SIZES = (4, 6, 8, 10, 12, 20)


@dataclass(frozen=True, slots=True)
class DieSpec:
    """A die not rolled yet: its size and source."""

    size: int
    source: str = Src.ACTION
    label: str = ""
    """Background, ability or condition name; empty for plain dice."""

    def with_face(self, face: int) -> "Die":
        check_face(face, self.size)
        return Die(self.size, face, self.source, self.label)


@dataclass(frozen=True, slots=True)
class Die:
    """A rolled die."""

    size: int
    face: int
    source: str = Src.ACTION
    label: str = ""
    replaced: tuple[int, ...] = ()
    """Faces this die showed before rerolls, oldest first (H7, S7)."""

    def __post_init__(self) -> None:
        check_face(self.face, self.size)

    @property
    def is_ability(self) -> bool:
        return self.source == Src.ABILITY

    def spec(self) -> DieSpec:
        return DieSpec(self.size, self.source, self.label)

    def rerolled(self, face: int) -> "Die":
        """This die rerolled to ``face``, remembering what it replaced."""
        return replace(self, face=face, replaced=self.replaced + (self.face,))


def check_face(face: int, size: int) -> None:
    """Raise :class:`FaceError` unless ``face`` can show on a d``size``."""
    if size not in VALID_SIZES:
        raise FaceError(said(N_("d{size} is not a die this tracker knows (d4, d6, d8, d10, d12, d20)"), size=str(size)))
    if isinstance(face, bool) or not isinstance(face, int):
        raise FaceError(said(N_("face {face} is not a whole number"), face=repr(face)))
    if not 1 <= face <= size:
        raise FaceError(said(N_("face {face} cannot show on a d{size} (1–{size})"), face=str(face), size=str(size)))


class DiceSource:
    """Anything that can give a face for a die of a given size.

    ``manual`` tells whether the faces come from physical dice the GM entered.
    """

    manual: bool = False

    def roll(self, size: int) -> int:
        raise NotImplementedError


class RandomSource(DiceSource):
    """The program's dice: a seeded ``random.Random``."""

    manual = False

    def __init__(self, seed: int | None = None, rng: random.Random | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed) if rng is None else rng

    def roll(self, size: int) -> int:
        return self._rng.randint(1, size)


class ManualSource(DiceSource):
    """Faces entered by hand from physical dice, used in order.

    Each face is checked against the die it is used for; running out of faces
    raises :class:`RulesError` naming how many more are needed.
    """

    manual = True

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = list(faces)
        self._used = 0

    def roll(self, size: int) -> int:
        if self._used >= len(self._faces):
            raise RulesError(said(N_("not enough faces entered: needed die #{value} (d{size})"), value=str(self._used + 1), size=str(size)))
        face = self._faces[self._used]
        self._used += 1
        check_face(face, size)
        return face

    @property
    def remaining(self) -> int:
        return len(self._faces) - self._used


def roll_specs(specs: Sequence[DieSpec], source: DiceSource) -> tuple[Die, ...]:
    """Roll every die of a pool with ``source``."""
    return tuple(s.with_face(source.roll(s.size)) for s in specs)


def sorted_desc(dice: Iterable[Die]) -> list[Die]:
    """Dice highest face first; on equal faces, non-ability before ability (stable)."""
    return sorted(dice, key=lambda d: -d.face)


def ascii_int(text: str, max_digits: int = 6) -> int:
    """A whole number written with the ASCII digits 0-9 (an optional sign, at most
    ``max_digits`` digits); ``int()`` alone also reads fullwidth and Arabic-Indic
    digits and underscores.

    Raises:
        ValueError: anything else.
    """
    t = str(text).strip()
    digits = t[1:] if t[:1] in ("+", "-") else t
    if not (digits.isascii() and digits.isdigit()) or len(digits) > max_digits:
        raise ValueError(said(N_("'{value}' is not a whole number (write it with the digits 0-9)"), value=str(t[:40])))
    return int(t)


def parse_faces(text: str, size: int, *, allow_ability: bool = False) -> tuple[Die, ...]:
    """Parse comma-separated faces (``"10,8*,7"``); ``*`` marks an ability die.

    Raises:
        FaceError: one line naming the bad item.
    """
    if text is None or not str(text).strip():
        raise FaceError(said(N_("no faces given (write them comma-separated, e.g. 7,7,3)")))
    dice: list[Die] = []
    for raw in str(text).split(","):
        item = raw.strip()
        ability = False
        if item.endswith("*"):
            if not allow_ability:
                raise FaceError(said(N_("'{item}': '*' (ability die) is only used in Rajapolku"), item=str(item)))
            ability = True
            item = item[:-1].strip()
        if not item:
            raise FaceError(said(N_("empty face in '{text}' (write them comma-separated, e.g. 7,7,3)"), text=str(text)))
        dice.append(Die(size, _face(item, raw, size), Src.ABILITY if ability else Src.DIE))
    return tuple(dice)


def typed_face(face: int, size: int) -> int:
    """A face as typed from a physical die: on a d10 a 0 means 10 (many d10s print 0 for 10).

    Only on a d10; a 0 typed for any other die stays a 0, which :func:`check_face` refuses.
    """
    return 10 if size == 10 and face == 0 else face


def _face(item: str, raw: str, size: int) -> int:
    """One typed face (``item``, from ``raw`` as the user wrote it) on a die of ``size``, checked;
    a d10's 0 is its 10 (:func:`typed_face`)."""
    try:
        face = typed_face(ascii_int(item), size)
    except ValueError:
        raise FaceError(said(N_("'{value}' is not a face (a whole number 1–{size})"), value=str(raw.strip()[:40]), size=str(size))) from None
    if face == 0:
        raise FaceError(said(N_("face 0 cannot show on a d{size} (1–{size}; only a d10's 0 means 10)"), size=str(size)))
    check_face(face, size)
    return face


def parse_sized_faces(text: str, default_size: int | None = None) -> tuple[Die, ...]:
    """Parse faces with optional sizes: ``"7,4,d10:9"`` or ``"8:7,10:9"``.

    ``d10:9`` / ``10:9`` is a 9 on a d10; a bare face uses ``default_size``.
    """
    if text is None or not str(text).strip():
        raise FaceError(said(N_("no faces given (write them comma-separated, e.g. 7,4,4)")))
    dice: list[Die] = []
    for raw in str(text).split(","):
        item = raw.strip().lower()
        size = default_size
        if ":" in item:
            size_txt, item = item.split(":", 1)
            size_txt = size_txt.strip().lstrip("d")
            try:
                size = ascii_int(size_txt)
            except ValueError:
                raise FaceError(said(N_("'{value}': die size '{size_txt}' is not a number"), value=str(raw.strip()), size_txt=str(size_txt))) from None
        if size is None:
            raise FaceError(said(N_("'{value}': give the die size, e.g. d8:{item}"), value=str(raw.strip()), item=str(item)))
        dice.append(Die(size, _face(item, raw, size), Src.DIE))
    return tuple(dice)


def faces(dice: Iterable[Die]) -> list[int]:
    return [d.face for d in dice]
