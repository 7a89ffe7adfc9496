"""Campaign state as plain, TOML-ready data, with strict validation.

The state is a tree of dicts, lists, strings, ints and bools — exactly what is
written to the ``[state]`` table of a session file, so saving is a dump and
loading is a parse plus :func:`validate_state` (its checks are
:mod:`polku.session.validation`'s). Every change goes through the tracker as a
list of *changes* (``path``, ``before``, ``after``), which is what makes undo,
redo and replay from the log one mechanism.

Layout::

    campaign   {name, system, created, continues}
    settings   {"raja.exhausted": true, …}     every [choice] of docs/rules.md
    wound_track [level names]                   R9 levels in use (Rajapolku)
    structure  {story, session, scene, scene_title}
    characters {id: character}
    challenges [challenge]                      the queue, in order
    initiative [{id, score, passes, kind?}]     S12 (Varjojuoksu); kind: astral or matrix
    combat     {turn, pass, acting, acted, held, surprised?} a fight in progress (absent out of one)
    narration  {narrator, table, burned}        H9 (Harhapolku)
    next_id    int
    templates  {id: template}                   NPC stat blocks (optional table)
    groups     {id: group}                      NPC groups (optional table)

A character may also carry (all optional, absent = none): ``pools`` (saved
pools), ``group`` (its group's id), Varjojuoksu ``weapons`` (remembered
damage values), ``armour``, ``overflow`` (physical boxes beyond the
monitor) and ``defence`` (the defence last rolled against an attack,
``rules.shadowrun.DEFENCE_CHOICES``). See :mod:`polku.session.table.roster` and :mod:`polku.session.table.damage`.
"""

from __future__ import annotations

import copy
import math
import re
from typing import Iterable, Mapping, NotRequired, Sequence, TypedDict, TypeVar, cast

from ..i18n import N_, said
from ..rules.system import RAJA_WOUND_LEVELS, Settings, System
from .records import Character as Character  # the per-system sheets (session/records.py), re-exported
from .records import DieTable as DieTable
from .records import RollTable

# The checks at the store's edge and the names they allow (session/validation.py), re-exported.
from .validation import ABILITY_PER as ABILITY_PER
from .validation import CHALLENGE_STATUS as CHALLENGE_STATUS
from .validation import CHARACTER_KINDS as CHARACTER_KINDS
from .validation import GROUP_INITIATIVE as GROUP_INITIATIVE
from .validation import HARHA_TIER_LABELS as HARHA_TIER_LABELS
from .validation import HARHA_TIERS as HARHA_TIERS
from .validation import POOL_MODES as POOL_MODES
from .validation import SR_ATTRIBUTES as SR_ATTRIBUTES
from .validation import StateError as StateError
from .validation import check_event, check_state
from .validation import condition_monitors as condition_monitors

_T = TypeVar("_T")
_Named = TypeVar("_Named", bound=Mapping[str, object])



class ExtendedProgress(TypedDict):
    """A Varjojuoksu extended test's progress on its challenge (S10; ``rules.shadowrun.ExtendedTest``)."""

    threshold: int
    accumulated: int
    intervals: int
    hurried: bool
    ended: bool
    spoiled: bool
    interval: NotRequired[str]
    """What an interval is (a minute, an hour…), as the GM named it."""
    restarts: NotRequired[int]
    glitched: NotRequired[bool]
    """The last interval glitched: the GM may spoil the test."""


class ExtendedRollerTable(TypedDict):
    """Who rolls a Varjojuoksu extended test (S10), and the pool of the last interval (``rolls.pool_json``)."""

    who: str
    """A character's id, or "" for the GM."""
    pool: NotRequired[dict[str, object]]


class SpiritTable(TypedDict):
    """A Rajapolku spirit fight kept on its challenge (R11): who fights whom, how far it has gone."""

    a: str
    b: str
    exchanges: int
    ended: bool
    """The GM ended it (a side withdrew)."""


class Challenge(TypedDict):
    """One challenge of the queue (checked at load: ``id``, ``title``, ``status``; the rest is
    written by the tracker's commands and absent from older files)."""

    id: str
    title: str
    status: str
    """One of ``CHALLENGE_STATUS``: waiting, active, resolved."""
    kind: NotRequired[str]
    participants: NotRequired[list[str]]
    opposition: NotRequired[list[str]]
    outcome: NotRequired[str]
    outcome_fact: NotRequired[dict[str, object]]
    """The outcome as a fact (the deciding roll's), told in the reader's language (:mod:`polku.session.telling`)."""
    roller: NotRequired[ExtendedRollerTable]
    """Who rolls a Varjojuoksu extended test and with which pool (S10)."""
    extended: NotRequired[ExtendedProgress]
    """A Varjojuoksu extended test's progress (S10)."""
    spirit: NotRequired[SpiritTable]
    """A Rajapolku spirit fight in progress (R11)."""



class Campaign(TypedDict):
    name: str
    system: str
    """A :class:`System` value."""
    created: NotRequired[str]
    continues: NotRequired[str]
    """The file this session continues from ("" for a new campaign)."""


class Structure(TypedDict):
    story: int
    session: int
    scene: int
    scene_title: str


class InitiativeEntry(TypedDict):
    """One row of the Varjojuoksu initiative order (S12)."""

    id: str
    score: int
    passes: int
    hidden: NotRequired[bool]
    """Only in the players' view, when the GM rolled this initiative GM-only (§4): ``score``
    is then a stand-in that keeps the turn order and the dice's numbers are not shown."""
    kind: NotRequired[str]
    """The score the fighter acts on this turn: ``astral`` or ``matrix`` (absent: physical)."""


class BurnTable(TypedDict):
    """Dice burned off the narration table (H9): whose they were, who burned them."""

    owner: str
    by: str
    dice: list[DieTable]


class LastUsurpation(TypedDict):
    """The last usurpation of the narrator role (H9), as :class:`polku.rules.harhapolku.Usurpation` is stored."""

    who: str
    dice: list[DieTable]
    tier: str
    """negate, parry or harm_roll."""
    gm_dice: NotRequired[int]
    gm_die_size: NotRequired[int]
    """0: none (not a harm roll)."""
    harm_resolved: NotRequired[bool]
    burned_total: NotRequired[int]
    burned_owner: NotRequired[str]
    burned_dice: NotRequired[list[DieTable]]


class Narration(TypedDict):
    """The Harhapolku narration contest (H9); ``hands``, ``rolled`` and ``last``
    appear once the contest has been played."""

    narrator: str
    table: list[DieTable]
    burned: list[BurnTable]
    kind: str
    ability_fight: bool
    hands: NotRequired[dict[str, list[DieTable]]]
    rolled: NotRequired[list[str]]
    last: NotRequired[LastUsurpation]


class Group(TypedDict):
    """NPC characters made from one template together (all four checked at load)."""

    id: str
    name: str
    initiative: str
    """``shared`` (one roll for the group, S12) or ``separate`` (GROUP_INITIATIVE)."""
    template: str
    """The template's id."""


class RevealedKey(TypedDict, total=False):
    """An earlier dice secret, revealed (the players' projection copies the keys it has)."""

    key: int
    session: int
    commitment: str
    secret: str
    rolls: int
    """Program rolls made with it."""


class DiceKey(TypedDict):
    """The game session's dice secret (:mod:`polku.session.fairdice`); the players see only
    its commitment until it is revealed."""

    key: int
    session: int
    commitment: str
    secret: NotRequired[str]
    """The GM's file only: the players' views never have it until it is revealed."""
    rolls: NotRequired[dict[str, int]]
    """Program rolls made per secret (key as text): the next roll's number is one more."""
    revealed: NotRequired[list[RevealedKey]]
    """Earlier secrets, revealed: key, session, commitment, secret, rolls (the players' projection copies
    them key by key)."""
# A fight in progress (S12): the combat turn, the pass (0: over, waiting for the next roll), who acts,
# who has acted and who holds an action this pass, who is surprised this combat turn (no action in pass 1;
# absent in older files); in the players' view, gm_turn marks a secret fighter's turn (acting is then empty).
# Functional form: "pass" is a keyword.
Combat = TypedDict("Combat", {"turn": int, "pass": int, "acting": str, "acted": list[str], "held": list[str],
                              "surprised": NotRequired[list[str]], "gm_turn": NotRequired[bool]})


class State(TypedDict):
    """The ``[state]`` table of a session file (the layout in the module docstring)."""

    campaign: Campaign
    settings: dict[str, bool | int | str]
    """Every [choice] of docs/rules.md by its dotted key (values: bool, int or str)."""
    wound_track: list[str]
    structure: Structure
    characters: dict[str, Character]
    challenges: list[Challenge]
    initiative: list[InitiativeEntry]
    narration: Narration
    next_id: int
    templates: NotRequired[dict[str, Character]]
    """NPC stat blocks by template id (:mod:`polku.session.table.roster`)."""
    groups: NotRequired[dict[str, Group]]
    """NPC groups by id."""
    dice: NotRequired[DiceKey]
    combat: NotRequired[Combat]


class Change(TypedDict, total=False):
    """One change of an event, the one way state changes: a set (``after``; none
    deletes, ``before`` is what it replaced) or a list ``insert`` / ``remove``
    at the index the path ends with."""

    path: list[str | int]
    before: object
    after: object
    insert: object
    remove: object


class Event(TypedDict):
    """One event of the log, as the tracker appends it and a session file holds it.

    Every event has ``seq``, ``kind`` and ``text``; the tracker adds ``t`` (when), ``at``
    (story, session, scene) and, for an undoable command, ``cmd`` (the first ``seq`` of its
    command: one undo reverts them all). The rest belong to some kinds: a ``roll`` table
    for the dice, ``who`` for the character(s) it is about, ``target`` for an undo/redo.
    """

    seq: int
    kind: str
    text: str
    t: NotRequired[str]
    at: NotRequired[list[int]]
    cmd: NotRequired[int]
    changes: NotRequired[list[Change]]
    secret: NotRequired[bool]
    """Logged under the GM-only switch: never shown to the players (docs/rules.md)."""
    seat: NotRequired[str]
    """The character whose players' seat asked for it."""
    offer: NotRequired[int]
    """A seat's roll: the ``seq`` of the request it answers."""
    target: NotRequired[int]
    """An undo or redo: the ``cmd`` it reverts or restores."""
    undoable: NotRequired[bool]
    who: NotRequired[str | list[str]]
    challenge: NotRequired[str]
    roll: NotRequired[RollTable]
    fact: NotRequired[dict[str, object]]
    """What happened, language-neutral: the fact's kind (``id``) and named values; its sentence is made
    where it is shown, in the reader's language (:mod:`polku.session.telling`)."""
    resource: NotRequired[str]
    amount: NotRequired[int]
    bought: NotRequired[str]
    before: NotRequired[str]
    after: NotRequired[str]
    harm_of: NotRequired[int]
    setting: NotRequired[str]
    name: NotRequired[str]
    template: NotRequired[str]
    group_id: NotRequired[str]
    ask: NotRequired[dict[str, object]]
    withdraw: NotRequired[int]
    dice_key: NotRequired[int]
    commitment: NotRequired[str]
    revealed: NotRequired[str]
    n: NotRequired[int]
    """The players' view only: the event's number in the players' log (their own 1, 2, 3…)."""


def slug(name: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", name.strip().lower()).strip("-")
    return s or "character"


def new_state(system: System | str, name: str, *, created: str, settings: Settings | None = None,
              wound_track: Iterable[str] | None = None) -> State:
    system = System(system)
    settings = settings or Settings()
    track = list(wound_track) if wound_track is not None else list(RAJA_WOUND_LEVELS)
    return {
        "campaign": {"name": name, "system": system.value, "created": created, "continues": ""},
        "settings": settings.to_dotted(),
        "wound_track": track,
        "structure": {"story": 1, "session": 1, "scene": 1, "scene_title": ""},
        "characters": {},
        "challenges": [],
        "initiative": [],
        "narration": {"narrator": "", "table": [], "burned": [], "kind": "brawl", "ability_fight": False},
        "next_id": 1,
    }


def settings_of(state: State) -> Settings:
    return Settings.from_dotted(state["settings"])


def system_of(state: State) -> System:
    return System(state["campaign"]["system"])


def new_character(system: System | str, name: str, *, cid: str, kind: str = "pc", player: str = "",
                  settings: Settings | None = None, track: Sequence[str] | None = None,
                  **extra: object) -> Character:
    """A character with every field of its system at a sensible default (Rajapolku: the first level of
    ``track``, the campaign's wound track, by the name the campaign gives it)."""
    system = System(system)
    settings = settings or Settings()
    ch: dict[str, object] = {
        "id": cid, "name": name, "player": player, "kind": kind,
        "health": "", "notes": "", "secret": False,
    }
    if system is System.RAJAPOLKU:
        charges = settings.raja_default_charges if kind != "opposition" else 3
        ch.update({
            "backgrounds": [], "abilities": [], "wound": track[0] if track else "Healthy",
            "charges": charges, "charges_max": charges,
            "story_points": settings.raja_story_points if kind == "pc" else 0,
            "paid_this_scene": [],
        })
    elif system is System.HARHAPOLKU:
        ch.update({"backgrounds": [], "edges": [], "rolled_this_scene": []})
    else:
        ch.update({
            "attributes": {a: 3 for a in SR_ATTRIBUTES},
            "skills": {}, "edge_rating": 2, "edge": 2,
            "physical": 0, "stun": 0,
        })
    for key, value in extra.items():
        if key not in ch:
            raise StateError(said(N_("unknown character field '{key}'"), key=key))
        ch[key] = value
    return cast(Character, ch)


def by_name_or_id(table: Mapping[str, _Named], name_or_id: str) -> _Named | None:
    """The entry of ``table`` (characters, templates) with that id, else the first whose name
    is that text in any case; None if neither."""
    if name_or_id in table:
        return table[name_or_id]
    low = name_or_id.strip().lower()
    return next((x for x in table.values() if str(x["name"]).lower() == low), None)


def roll_of(ev: Event) -> RollTable:
    """The event's ``roll`` table, or an empty one (no sides) for an event without dice."""
    return ev.get("roll") or {"sides": []}


def whole(value: object) -> int:
    """A whole number read back from a file, the players' file or a seat's request (``int(value)``).

    Raises:
        TypeError: the value is no number (a table, a list, a truth value's absence…).
        ValueError: it is no finite number (``inf``, ``nan``, text that is no number): ``int()`` would raise
            OverflowError for an infinity, which no reader expects.
    """
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{value} is not a finite number")
    if isinstance(value, (int, float, str)):
        return int(value)
    raise TypeError(f"int() argument must be a number, not '{type(value).__name__}'")


def clone(value: _T) -> _T:
    return copy.deepcopy(value)


# ---------------------------------------------------------------------------
# Paths: the one way state changes.

_MISSING = object()


def child(node: object, key: str | int) -> object:
    """``node[key]`` in a TOML tree; KeyError, IndexError or TypeError where there is none."""
    if isinstance(node, dict):
        return cast("dict[str | int, object]", node)[key]
    if isinstance(node, list) and isinstance(key, int):
        return cast("list[object]", node)[key]
    raise TypeError(f"{type(node).__name__} has no item {key!r}")


def get_path(root: object, path: Sequence[str | int], default: object = _MISSING) -> object:
    node = root
    for key in path:
        try:
            node = child(node, key)
        except (KeyError, IndexError, TypeError):
            if default is _MISSING:
                raise StateError(said(N_("no such key {path}"), path='.'.join(map(str, path)))) from None
            return default
    return node


def set_path(root: object, path: Sequence[str | int], value: object = _MISSING) -> None:
    """Set ``path`` to ``value``; with no value, delete the key."""
    if not path:
        raise StateError(said(N_("empty change path")))
    parent = get_path(root, path[:-1])
    key = path[-1]
    if value is _MISSING:
        if isinstance(parent, dict):
            cast("dict[str | int, object]", parent).pop(key, None)
        else:
            raise StateError(said(N_("cannot delete list item {path}"), path='.'.join(map(str, path))))
    elif isinstance(parent, dict):
        cast("dict[str | int, object]", parent)[key] = clone(value)
    elif isinstance(parent, list) and isinstance(key, int):
        cast("list[object]", parent)[key] = clone(value)
    else:
        raise TypeError(f"{type(parent).__name__} has no item {key!r}")


def apply_changes(state: object, changes: list[Change]) -> None:
    """Apply changes in order: a set (``after``; no ``after`` deletes), or a list
    ``insert`` / ``remove`` at the index the path ends with."""
    for ch in changes:
        path = list(ch["path"])
        if "insert" in ch or "remove" in ch:
            target = get_path(state, path[:-1])
            index = path[-1]
            if not isinstance(target, list) or not isinstance(index, int) or isinstance(index, bool):
                raise StateError(said(N_("{path}: insert/remove needs a list and an index"), path='.'.join(map(str, path))))
            if "insert" in ch:
                if not 0 <= index <= len(target):
                    raise StateError(said(N_("{path}: index out of range"), path='.'.join(map(str, path))))
                target.insert(index, clone(ch["insert"]))
            else:
                if not 0 <= index < len(target):
                    raise StateError(said(N_("{path}: index out of range"), path='.'.join(map(str, path))))
                del target[index]
            continue
        set_path(state, path, ch["after"] if "after" in ch else _MISSING)


def invert_changes(changes: list[Change]) -> list[Change]:
    out = []
    for ch in reversed(changes):
        inv: Change = {"path": list(ch["path"])}
        if "insert" in ch:
            inv["remove"] = ch["insert"]
        elif "remove" in ch:
            inv["insert"] = ch["remove"]
        else:
            if "before" in ch:
                inv["after"] = ch["before"]
            if "after" in ch:
                inv["before"] = ch["after"]
        out.append(inv)
    return out


# ---------------------------------------------------------------------------
# Validation (session/validation.py): one clear line naming the key.

def validate_state(value: object) -> State:
    """Check every key the program relies on; raise :class:`StateError`.

    Returns the same object, now known to have the shape of :class:`State`."""
    # check_state has checked every key the program relies on (validation.py cannot name State).
    return cast(State, check_state(value))


def validate_event(ev: object, index: int) -> Event:
    """``ev`` if it has an event's shape (raises :class:`StateError` naming the key if not)."""
    # check_event has checked seq, kind, text, the change paths and the dice.
    return cast(Event, check_event(ev, index))
