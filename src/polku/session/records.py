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


class SRInitiativeScore(TypedDict):
    """An astral or matrix initiative score on a sheet (SR4): its bonus and passes."""

    bonus: int
    passes: int


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
    initiative_scores: NotRequired[dict[str, SRInitiativeScore]]
    """``astral`` and ``matrix``, where the character has them (the physical one is the two above)."""
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


# ---------------------------------------------------------------------------
# A roll as logged: the ``roll`` table of an event (:meth:`polku.session.rolls.common.RollsBase.emit_roll`).
#
# The outcome differs per system and test: each kind's keys are declared below, and
# :class:`RollOutcome`, what a reader of any roll gets, is their union of keys (all optional: which
# ones a roll has follows from its ``test``, and older files lack some). The loader checks the
# dice (:func:`polku.session.model.validate_event`) and the kind of every key with a fixed meaning
# wherever it appears (:mod:`polku.session.integrity`).


class DieTable(TypedDict):
    """A die as stored: its size and face; where it came from and what it replaced."""

    size: int
    face: int
    source: NotRequired[str]
    """``die`` (thrown), ``exploded``, ``ability``, ``edge``…: a :class:`polku.rules.dice.Src`."""
    label: NotRequired[str]
    replaced: NotRequired[list[int]]
    """Faces this die showed before a reroll replaced them."""


class RollSide(TypedDict):
    """One side of a roll (``a``, ``b``, ``helper:0``, ``gm``…): who rolled which dice."""

    dice: list[DieTable]
    role: NotRequired[str]
    label: NotRequired[str]
    who: NotRequired[list[str]]
    """Character ids (none: the GM's opposition)."""


class OutcomeDie(TypedDict):
    """A Rajapolku die in its outcome (``a_dice``/``b_dice``): face, where it came from, an ability's."""

    face: int
    source: NotRequired[str]
    ability: NotRequired[bool]
    label: NotRequired[str]
    replaced: NotRequired[list[int]]


class RajaOutcome(TypedDict, total=False):
    """A Rajapolku contest (R5–R7; ``rules.rajapolku.result_json``), test ``rajapolku``."""

    system: str
    winner: str
    """``a``, ``b`` or ``tie``."""
    degrees: int
    supernatural: int
    narrow: bool
    a_faces: list[int]
    b_faces: list[int]
    a_dice: list[OutcomeDie]
    b_dice: list[OutcomeDie]
    deciding_position: int
    decided_by: str
    deciding_die_is_ability: bool
    visibly_supernatural: bool
    degrees_rule: str
    degree_faces: list[int]
    tie_action: str
    holds: str
    explain: list[str]


class SpiritFightTable(TypedDict, total=False):
    """A spirit fight after an exchange (R11; ``rules.rajapolku.SpiritFight.to_json``)."""

    a_charges: int
    b_charges: int
    exchanges: int
    over: bool
    winner: str
    ended_by_gm: bool


class SpiritOutcome(RajaOutcome, total=False):
    """A spirit combat exchange (R11), test ``spirit``: the contest, the charges lost, the fight after."""

    charge_loss: int
    fight: SpiritFightTable


class HarhaPosition(TypedDict, total=False):
    """One compared position of a Harhapolku roll (H3–H6): the faces met there and who won it."""

    index: int
    a: int
    b: int
    side: str


class HarhaOutcome(TypedDict, total=False):
    """A Harhapolku comparison (H3–H6), tests ``harhapolku-ch23``, ``-classic``, ``-sum``."""

    system: str
    variant: str
    winner: str
    a_positions: int
    b_positions: int
    a_faces: list[int]
    b_faces: list[int]
    a_sizes: list[int]
    b_sizes: list[int]
    positions: list[HarhaPosition]
    reason: str
    tie_action: str
    explain: list[str]
    a_count: int
    """The sum variant (``sum``): each side's dice count, roll and total, and the die size."""
    a_roll: int
    a_total: int
    a_size: int
    b_count: int
    b_roll: int
    b_total: int
    b_size: int


class HarhaDifficultOutcome(TypedDict, total=False):
    """A difficult or very demanding action (H8), test ``harhapolku-difficult``, or an opposed roll
    with a demand (its comparison's keys, then these)."""

    success: bool
    high: int
    needed: int
    very_demanding: bool
    won_comparison: bool


class NarrationHarm(TypedDict, total=False):
    """The numbers of a narration harm roll (H9)."""

    harmed: bool
    automatic: bool
    usurper_total: int
    gm_total: int


class NarrationOutcome(TypedDict, total=False):
    """A narration contest step (H9), test ``narration``: a harm roll's numbers, else nothing."""

    harm: NarrationHarm


SRTestDie = TypedDict("SRTestDie", {"face": int, "source": str, "label": str, "from": int}, total=False)
"""A die of an opposed test's side, in its outcome: ``from``, the index of the die it exploded from."""


class SRTestOutcome(TypedDict, total=False):
    """A Varjojuoksu roll (S4–S8; ``rules.shadowrun.SRRoll.to_json`` without its dice), tests
    ``shadowrun``, ``shadowrun-teamwork``, and each side of an opposed test."""

    hits: int
    glitch: bool
    critical_glitch: bool
    ones: int
    dice_counted: int
    pool: int
    helper_dice: int
    edge_dice: int
    edge: str
    """When Edge was used: ``before``, ``after``, ``long_shot``."""
    edge_spent: int
    glitch_negated: bool
    critical_reduced: bool
    bought: int
    """Hits bought instead of rolling (S4)."""
    auto_failed: bool
    hurried: bool
    manual: bool
    threshold: int
    hidden: bool
    success: bool
    net_hits: int
    dice: list[SRTestDie]
    """Each side of an opposed test only (a test's own dice are its sides')."""


class SROpposedOutcome(TypedDict, total=False):
    """A Varjojuoksu opposed test (S9), test ``shadowrun-opposed``: each side's roll and who won."""

    winner: str
    net_hits: int
    winner_if_needed: str
    a: SRTestOutcome
    b: SRTestOutcome


class SRExtendedOutcome(SRTestOutcome, total=False):
    """One interval of an extended test (S10), test ``shadowrun-extended``: the roll and the progress."""

    accumulated: int
    intervals: int
    done: bool
    ended: bool
    spoiled: bool
    glitched: bool
    status: str
    restarts: int
    interval: str
    interval_thresholds: list[int]


class DamageOutcome(TypedDict, total=False):
    """A damage resistance roll (``rules.shadowrun.DamageResult.to_json`` and the roll's hits), test
    ``damage-resistance``."""

    base_dv: int
    dv: int
    declared: str
    armour: int
    resist_hits: int
    damage_kind: str
    boxes: int
    physical: int
    stun: int
    overflow: int
    state: str


class InitiativePlace(TypedDict):
    """One fighter in an initiative roll's order: who, and the score in force; and (rolls since the order's
    facts were logged) what it follows from (S12), so ``polku verify`` judges the order again."""

    id: str
    current: int
    score: NotRequired[int]
    """The score as rolled (Reaction + Intuition + the sheet's bonus + hits)."""
    monitors: NotRequired[list[int]]
    """The boxes filled on the physical and the stun monitor when rolled: the wound modifier (S12)."""
    tie: NotRequired[list[int]]
    """The tie-breakers: Edge rating, Reaction, Intuition (S12)."""


class InitiativeOutcome(TypedDict, total=False):
    """An initiative roll (S12), test ``initiative``: the order it made, and who is surprised (no action in
    pass 1 of the combat turn it begins, SR4)."""

    order: list[InitiativePlace]
    surprised: list[str]


class RollOutcome(SpiritOutcome, HarhaOutcome, HarhaDifficultOutcome, NarrationOutcome, SROpposedOutcome,
                  SRExtendedOutcome, DamageOutcome, InitiativeOutcome, total=False):
    """A logged roll's ``outcome`` as any reader sees it: the keys of every kind above (each one a
    roll of its ``test`` writes; the same key means the same thing in every kind)."""


class RollTable(TypedDict):
    """The ``roll`` table of an event: the sides and their dice (checked at load), the test, the
    outcome and its wording, where the dice came from, and what a kind of test keeps."""

    sides: list[RollSide]
    test: NotRequired[str]
    """``rajapolku``, ``spirit``, ``harhapolku-<variant>``, ``harhapolku-difficult``, ``narration``,
    ``shadowrun``, ``shadowrun-opposed``, ``shadowrun-teamwork``, ``shadowrun-extended``,
    ``damage-resistance``, ``initiative``."""
    summary: NotRequired[str]
    outcome: NotRequired[RollOutcome]
    explain: NotRequired[list[str]]
    """The explanation's lines in English, as written (older readers, and a line that is not a step)."""
    steps: NotRequired[list[dict[str, object]]]
    """The same lines as facts (``rules.explain``), one for each line of ``explain`` (``{}``: that line is shown as
    written); :func:`polku.session.telling.explain_lines` words them in the reader's language."""
    settings: NotRequired[dict[str, bool | int | str]]
    """The [choice] settings the roll was resolved with (:meth:`RollsBase.roll_settings`)."""
    # Where the dice came from (polku.session.fairdice, docs/rules.md §4).
    manual: NotRequired[bool]
    hand: NotRequired[list[str]]
    """The roles whose faces were entered by hand."""
    seed: NotRequired[int]
    fixed_seed: NotRequired[bool]
    dice_key: NotRequired[int]
    roll_no: NotRequired[int]
    draws: NotRequired[list[str]]
    # Kept by some kinds of test.
    variant: NotRequired[str]
    """Harhapolku: the comparison it was resolved by (H3–H6)."""
    demand: NotRequired[str]
    """Harhapolku: ``difficult`` or ``very_demanding`` (H8)."""
    counts: NotRequired[list[int]]
    """Harhapolku: each side's dice count (H6)."""
    rerolls: NotRequired[int]
    """A Harhapolku edge reroll (H7): the ``seq`` of the roll it replaces."""
    supersedes: NotRequired[int]
    """A Varjojuoksu roll changed after it was made (Edge, S5–S7): the ``seq`` of the roll it replaces."""
    threshold: NotRequired[int]
    hidden: NotRequired[bool]
    """A Varjojuoksu threshold the GM keeps to themself (S8)."""
    group: NotRequired[list[str]]
    attack: NotRequired[int]
    """A damage resistance roll: the ``seq`` of the attack it resists."""
    withheld_sides: NotRequired[int]
    """The players' view only: sides left out (a secret character's)."""
