"""The shapes of the records the campaign state holds per system: a character (or an NPC
template, the same shape) of Rajapolku, Harhapolku or Varjojuoksu.

They are TypedDicts, not classes: the state stays the plain, TOML-ready tree that a session
file holds and that a change path walks (:mod:`polku.session.model`). A key the loader
requires (:func:`polku.session.model.validate_state`, once, at the store's edge) is required
here; a key that older files lack or that a feature adds is ``NotRequired`` (absent: none).

Which of the three a character is follows from the campaign's system, which the type checker
cannot see: code that knows the system says so with :func:`raja`, :func:`harha` or :func:`sr`
(no check at run time; the loader has checked the sheet against the campaign's system).
"""

# No ``from __future__ import annotations`` here: TypedDict reads NotRequired from the evaluated
# annotations (``__required_keys__``, which tests/test_records.py holds to the loader's checks).
from typing import NotRequired, TypedDict, cast, final


class Effect(TypedDict):
    """A lasting effect on a character (a spell sustained, a wound modifier; S12 turns)."""

    name: str
    modifier: int
    """Dice it adds to (or takes from) the character's pools."""
    unit: str
    """One of ``rules.turns.EFFECT_UNITS``: what ``left`` counts (passes, turns, scenes…)."""
    left: int


class CharacterBase(TypedDict):
    """What every character has, whatever the system (all six checked at load)."""

    id: str
    name: str
    player: str
    kind: str
    """One of ``model.CHARACTER_KINDS``: pc, npc, opposition."""
    health: str
    """The GM's free-text note on its health."""
    notes: str
    secret: NotRequired[bool]
    """Hidden from the players (their views, seats and export never show it)."""
    effects: NotRequired[list[Effect]]
    group: NotRequired[str]
    """The id of its NPC group (``State.groups``)."""
    template: NotRequired[str]
    """The id of the template it was made from (it shares the template's gear)."""


class RajaAbility(TypedDict):
    """A Rajapolku ability (R11): its cost in charges and how often it is paid."""

    name: str
    cost: int
    per: str
    """One of ``model.ABILITY_PER``: use, scene, always."""


class RajaPool(TypedDict):
    """A saved Rajapolku pool: the backgrounds and abilities the roll screen ticks."""

    name: str
    backgrounds: list[str]
    abilities: list[str]


@final
class RajaCharacter(CharacterBase):
    backgrounds: list[str]
    abilities: list[RajaAbility]
    wound: str
    """A level of the campaign's wound track (R9), by the name the campaign gives it."""
    charges: int
    charges_max: int
    story_points: int
    paid_this_scene: list[str]
    """Abilities paid once for the scene (``per = "scene"``)."""
    pools: NotRequired[list[RajaPool]]


class HarhaBackground(TypedDict):
    name: str
    tier: str
    """One of ``model.HARHA_TIERS``."""


class HarhaEdge(TypedDict):
    """A Harhapolku edge (H7): one reroll a session."""

    name: str
    used: bool


class HarhaPool(TypedDict):
    """A saved Harhapolku pool: a background's name by tier."""

    name: str
    tiers: dict[str, str]


@final
class HarhaCharacter(CharacterBase):
    backgrounds: list[HarhaBackground]
    edges: list[HarhaEdge]
    rolled_this_scene: list[str]
    pools: NotRequired[list[HarhaPool]]


class SRArmour(TypedDict):
    ballistic: int
    impact: int


class SRWeapon(TypedDict):
    """A weapon as stored (:mod:`polku.session.table.gear`); ``skill`` and ``kind`` came later."""

    name: str
    dv: int
    damage: str
    """physical or stun."""
    ap: int | str
    """A whole number, or the text ``"-half"``."""
    skill: NotRequired[str]
    kind: NotRequired[str]


class SRPoolTable(TypedDict):
    """A saved Varjojuoksu pool (the modes of :class:`polku.session.rolls.SRPool`)."""

    name: str
    mode: str
    skill: str
    attribute: str
    second: str
    count: int


@final
class SRCharacter(CharacterBase):
    attributes: dict[str, int]
    """Each of ``model.SR_ATTRIBUTES`` (1–12)."""
    skills: dict[str, int]
    edge_rating: int
    edge: int
    physical: int
    """Boxes of the physical condition monitor filled."""
    stun: int
    overflow: NotRequired[int]
    """Physical boxes beyond the monitor (S12)."""
    armour: NotRequired[SRArmour | int]
    """``{ballistic, impact}``; an older file's single number stands for both."""
    weapons: NotRequired[list[SRWeapon]]
    wielded: NotRequired[str]
    """The weapon it last attacked with."""
    defence: NotRequired[str]
    """The defence it last rolled against an attack (``rules.shadowrun.DEFENCE_CHOICES``), proposed again."""
    links: NotRequired[dict[str, str]]
    """Imported: a skill's linked attribute where it differs from the book's."""
    monitor_extra: NotRequired[dict[str, int]]
    """Imported: boxes augmentations add to the ``physical`` or ``stun`` monitor."""
    initiative_passes: NotRequired[int]
    initiative_bonus: NotRequired[int]
    pools: NotRequired[list[SRPoolTable]]


Character = RajaCharacter | HarhaCharacter | SRCharacter
"""One character (or template) of the campaign's system."""


SavedPool = RajaPool | HarhaPool | SRPoolTable
"""A pool saved on a sheet, of the campaign's system."""


def raja(ch: Character) -> RajaCharacter:
    """``ch`` as the Rajapolku sheet it is in a Rajapolku campaign."""
    return cast(RajaCharacter, ch)


def harha(ch: Character) -> HarhaCharacter:
    """``ch`` as the Harhapolku sheet it is in a Harhapolku campaign."""
    return cast(HarhaCharacter, ch)


def sr(ch: Character) -> SRCharacter:
    """``ch`` as the Varjojuoksu sheet it is in a Varjojuoksu campaign."""
    return cast(SRCharacter, ch)
