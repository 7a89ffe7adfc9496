"""Campaign state as plain, TOML-ready data, with strict validation.

The state is a tree of dicts, lists, strings, ints and bools — exactly what is
written to the ``[state]`` table of a session file, so saving is a dump and
loading is a parse plus :func:`validate_state`. Every change goes through the
tracker as a list of *changes* (``path``, ``before``, ``after``), which is what
makes undo, redo and replay from the log one mechanism.

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
import re
from typing import Any, Iterable, Mapping, NotRequired, Sequence, TypedDict, TypeVar, cast

from ..rules.dice import VALID_SIZES, RulesError
from ..rules.system import (
    CHOICE_BY_KEY,
    RAJA_WOUND_LEVELS,
    Settings,
    System,
    raja_wound_level,
    validate_choice,
)
from ..rules.turns import EFFECT_UNITS, MAX_EFFECT_COUNT, MAX_EFFECT_DICE, MAX_PASSES
from .records import Character as Character  # the per-system sheets (session/records.py), re-exported
from .records import DieTable as DieTable
from .records import RollTable, SRCharacter, sr

_T = TypeVar("_T")
_Named = TypeVar("_Named", bound=Mapping[str, object])



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
    outcome_fact: NotRequired[dict[str, Any]]
    """The outcome as a fact (the deciding roll's), told in the reader's language (:mod:`polku.session.telling`)."""
    roller: NotRequired[dict[str, Any]]
    """Who rolls a Varjojuoksu extended test and with which pool (S10): ``who``, ``pool``."""
    extended: NotRequired[dict[str, Any]]
    """A Varjojuoksu extended test's progress (S10)."""
    spirit: NotRequired[dict[str, Any]]
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


class Narration(TypedDict):
    """The Harhapolku narration contest (H9); ``hands``, ``rolled`` and ``last``
    appear once the contest has been played."""

    narrator: str
    table: list[DieTable]
    burned: list[dict[str, Any]]
    kind: str
    ability_fight: bool
    hands: NotRequired[dict[str, list[DieTable]]]
    rolled: NotRequired[list[str]]
    last: NotRequired[dict[str, Any]]


class Group(TypedDict):
    """NPC characters made from one template together (all four checked at load)."""

    id: str
    name: str
    initiative: str
    """``shared`` (one roll for the group, S12) or ``separate`` (GROUP_INITIATIVE)."""
    template: str
    """The template's id."""


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
    revealed: NotRequired[list[dict[str, Any]]]
    """Earlier secrets, revealed: key, session, commitment, secret, rolls."""
# A fight in progress (S12): the combat turn, the pass (0: over, waiting for the next roll), who acts,
# who has acted and who holds an action this pass, who is surprised this combat turn (no action in pass 1;
# absent in older files); in the players' view, gm_turn marks a secret fighter's turn (acting is then empty).
# Functional form: "pass" is a keyword.
Combat = TypedDict("Combat", {"turn": int, "pass": int, "acting": str, "acted": list[str], "held": list[str],
                              "surprised": NotRequired[list[str]], "gm_turn": NotRequired[bool]})


class State(TypedDict):
    """The ``[state]`` table of a session file (the layout in the module docstring)."""

    campaign: Campaign
    settings: dict[str, Any]
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
    before: Any
    after: Any
    insert: Any
    remove: Any


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
    fact: NotRequired[dict[str, Any]]
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
    ask: NotRequired[dict[str, Any]]
    withdraw: NotRequired[int]
    dice_key: NotRequired[int]
    commitment: NotRequired[str]
    revealed: NotRequired[str]
    n: NotRequired[int]
    """The players' view only: the event's number in the players' log (their own 1, 2, 3…)."""


class StateError(ValueError):
    """The state (or an event) is malformed: one line naming the key."""


HARHA_TIERS = ("general", "plain", "significant", "special", "significant_special")
HARHA_TIER_LABELS = {
    "general": "general",
    "plain": "background",
    "significant": "significant",
    "special": "special",
    "significant_special": "significant special",
}
SR_ATTRIBUTES = ("body", "agility", "reaction", "strength", "charisma", "intuition", "logic", "willpower")
ABILITY_PER = ("use", "scene", "always")
CHARACTER_KINDS = ("pc", "npc", "opposition")
CHALLENGE_STATUS = ("waiting", "active", "resolved")
GROUP_INITIATIVE = ("shared", "separate")
"""A group rolls one initiative for every member, or each member rolls their own."""
POOL_MODES = ("skill", "default", "attr+attr", "dice", "attribute")
"""Varjojuoksu saved pools: the modes of :class:`polku.session.rolls.SRPool`."""


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
                  **extra: Any) -> Character:
    """A character with every field of its system at a sensible default (Rajapolku: the first level of
    ``track``, the campaign's wound track, by the name the campaign gives it)."""
    system = System(system)
    settings = settings or Settings()
    ch: dict[str, Any] = {
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
            raise StateError(f"unknown character field '{key}'")
        ch[key] = value
    return cast(Character, ch)


def condition_monitors(ch: SRCharacter) -> tuple[int, int]:
    """Boxes of a Varjojuoksu character's physical and stun monitors (S12, from the rules core)."""
    from ..rules.shadowrun import condition_monitor

    attrs = ch["attributes"]
    extra = ch.get("monitor_extra", {})
    return (condition_monitor(attrs["body"]) + int(extra.get("physical", 0)),
            condition_monitor(attrs["willpower"]) + int(extra.get("stun", 0)))


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


def clone(value: _T) -> _T:
    return copy.deepcopy(value)


# ---------------------------------------------------------------------------
# Paths: the one way state changes.

_MISSING = object()


def get_path(root: Any, path: list[Any], default: Any = _MISSING) -> Any:
    node = root
    for key in path:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            if default is _MISSING:
                raise StateError(f"no such key {'.'.join(map(str, path))}") from None
            return default
    return node


def set_path(root: Any, path: list[Any], value: Any = _MISSING) -> None:
    """Set ``path`` to ``value``; with no value, delete the key."""
    if not path:
        raise StateError("empty change path")
    parent = get_path(root, path[:-1])
    key = path[-1]
    if value is _MISSING:
        if isinstance(parent, dict):
            parent.pop(key, None)
        else:
            raise StateError(f"cannot delete list item {'.'.join(map(str, path))}")
    else:
        parent[key] = clone(value)


def apply_changes(state: State | dict[str, Any], changes: list[Change]) -> None:
    """Apply changes in order: a set (``after``; no ``after`` deletes), or a list
    ``insert`` / ``remove`` at the index the path ends with."""
    for ch in changes:
        path = list(ch["path"])
        if "insert" in ch or "remove" in ch:
            target = get_path(state, path[:-1])
            index = path[-1]
            if not isinstance(target, list) or not isinstance(index, int) or isinstance(index, bool):
                raise StateError(f"{'.'.join(map(str, path))}: insert/remove needs a list and an index")
            if "insert" in ch:
                if not 0 <= index <= len(target):
                    raise StateError(f"{'.'.join(map(str, path))}: index out of range")
                target.insert(index, clone(ch["insert"]))
            else:
                if not 0 <= index < len(target):
                    raise StateError(f"{'.'.join(map(str, path))}: index out of range")
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
# Validation: one clear line naming the key.

def _where(path: Iterable[Any]) -> str:
    return ".".join(str(p) for p in path)


def _want(value: object, typ: type[_T], path: list[Any], what: str) -> _T:
    if isinstance(value, bool) and typ is int:
        raise StateError(f"{_where(path)}: expected {what}, found {value!r}")
    if not isinstance(value, typ):
        raise StateError(f"{_where(path)}: expected {what}, found {type(value).__name__} {value!r}"[:200])
    return value


def _int(d: dict[str, Any], key: str, path: list[Any], lo: int | None = None, hi: int | None = None) -> int:
    if key not in d:
        raise StateError(f"{_where(path + [key])}: missing")
    v = _want(d[key], int, path + [key], "a whole number")
    if lo is not None and v < lo:
        raise StateError(f"{_where(path + [key])}: {v} is below {lo}")
    if hi is not None and v > hi:
        raise StateError(f"{_where(path + [key])}: {v} is above {hi}")
    return v


def _str(d: dict[str, Any], key: str, path: list[Any], allowed: Iterable[str] | None = None) -> str:
    if key not in d:
        raise StateError(f"{_where(path + [key])}: missing")
    v = _want(d[key], str, path + [key], "text")
    if allowed is not None and v not in allowed:
        raise StateError(f"{_where(path + [key])}: '{v}' is not one of {', '.join(allowed)}")
    return v


def _table(d: dict[str, Any], key: str, path: list[Any]) -> dict[str, Any]:
    if key not in d:
        raise StateError(f"{_where(path + [key])}: missing")
    return _want(d[key], dict, path + [key], "a table")


def _list(d: dict[str, Any], key: str, path: list[Any]) -> list[Any]:
    if key not in d:
        raise StateError(f"{_where(path + [key])}: missing")
    return _want(d[key], list, path + [key], "a list")


def _strlist(d: dict[str, Any], key: str, path: list[Any]) -> list[str]:
    items = _list(d, key, path)
    for i, item in enumerate(items):
        _want(item, str, path + [key, i], "text")
    return items


def validate_state(value: object) -> State:
    """Check every key the program relies on; raise :class:`StateError`.

    Returns the same object, now known to have the shape of :class:`State`."""
    p: list[Any] = ["state"]
    state: dict[str, Any] = _want(value, dict, p, "a table")
    camp = _table(state, "campaign", p)
    _str(camp, "name", p + ["campaign"])
    system = System(_str(camp, "system", p + ["campaign"], [s.value for s in System]))
    sett = _table(state, "settings", p)
    for key, value in sett.items():
        choice = CHOICE_BY_KEY.get(key)
        if choice is None:
            raise StateError(f"state.settings.{key}: unknown setting")
        try:
            validate_choice(choice, value)
        except RulesError as e:
            raise StateError(f"state.settings: {e}") from None
    track = _strlist(state, "wound_track", p)
    if system is System.RAJAPOLKU:
        if not 3 <= len(track) <= 7:
            raise StateError(f"state.wound_track: {len(track)} levels (R9 allows 3 to 7)")
        for lvl in track:
            # A level is named in English or in the rule text's Finnish ("Terve"); the name is kept as written.
            if raja_wound_level(lvl) is None:
                raise StateError(f"state.wound_track: '{lvl}' is not an R9 level")
    st = _table(state, "structure", p)
    for k in ("story", "session", "scene"):
        _int(st, k, p + ["structure"], 1)
    _int(state, "next_id", p, 1)
    chars = _table(state, "characters", p)
    for cid, ch in chars.items():
        _validate_character(system, track, cid, ch)
    groups = state.get("groups", {})
    _want(groups, dict, p + ["groups"], "a table")
    for gid, g in groups.items():
        gp = p + ["groups", gid]
        _want(g, dict, gp, "a table")
        if _str(g, "id", gp) != gid:
            raise StateError(f"{_where(gp + ['id'])}: '{g['id']}' differs from its table name '{gid}'")
        _str(g, "name", gp)
        _str(g, "initiative", gp, GROUP_INITIATIVE)
        _str(g, "template", gp)
    for cid, ch in chars.items():
        gid = ch.get("group")
        if gid is not None and gid not in groups:
            raise StateError(f"state.characters.{cid}.group: no group '{gid}'")
    templates = state.get("templates", {})
    _want(templates, dict, p + ["templates"], "a table")
    for tid, tpl in templates.items():
        _validate_character(system, track, tid, tpl, "templates")
    chals = _list(state, "challenges", p)
    for i, c in enumerate(chals):
        cp = p + ["challenges", i]
        _want(c, dict, cp, "a table")
        _str(c, "id", cp)
        _str(c, "title", cp)
        _str(c, "status", cp, CHALLENGE_STATUS)
    ini = _list(state, "initiative", p)
    for i, entry in enumerate(ini):
        ip = p + ["initiative", i]
        _want(entry, dict, ip, "a table")
        cid = _str(entry, "id", ip)
        if cid not in chars:
            raise StateError(f"{_where(ip + ['id'])}: no character '{cid}'")
        _int(entry, "score", ip, 0)
        _int(entry, "passes", ip, 1, MAX_PASSES)
        if "kind" in entry:
            from ..rules.shadowrun import INITIATIVE_KINDS

            _str(entry, "kind", ip, INITIATIVE_KINDS)
    if "combat" in state:
        _validate_combat(state, {entry["id"] for entry in ini})
    nar = _table(state, "narration", p)
    _str(nar, "narrator", p + ["narration"])
    for i, d in enumerate(_list(nar, "table", p + ["narration"])):
        _validate_die(d, p + ["narration", "table", i])
    return cast(State, state)


def _validate_combat(state: dict[str, Any], fighters: set[str]) -> None:
    cp = ["state", "combat"]
    b = _table(state, "combat", ["state"])
    _int(b, "turn", cp, 1)
    _int(b, "pass", cp, 0, MAX_PASSES)
    acting = _str(b, "acting", cp)
    if acting and acting not in fighters:
        raise StateError(f"{_where(cp + ['acting'])}: '{acting}' is not in the initiative order")
    for key in ("acted", "held", "surprised"):
        if key == "surprised" and key not in b:
            continue
        for i, cid in enumerate(_strlist(b, key, cp)):
            if cid not in fighters:
                raise StateError(f"{_where(cp + [key, i])}: '{cid}' is not in the initiative order")


def _validate_effects(ch: dict[str, Any], p: list[Any]) -> None:
    for i, e in enumerate(_list(ch, "effects", p)):
        ep = p + ["effects", i]
        _want(e, dict, ep, "a table")
        _str(e, "name", ep)
        _int(e, "modifier", ep, -MAX_EFFECT_DICE, MAX_EFFECT_DICE)
        unit = _str(e, "unit", ep, EFFECT_UNITS)
        _int(e, "left", ep, 0 if unit == "removed" else 1, MAX_EFFECT_COUNT)


def _validate_die(d: Any, path: list[Any]) -> None:
    _want(d, dict, path, "a die table")
    size = _int(d, "size", path)
    if size not in VALID_SIZES:
        raise StateError(f"{_where(path + ['size'])}: d{size} is not a die")
    _int(d, "face", path, 1, size)


def _validate_character(system: System, track: list[str], cid: str, ch: Any, table: str = "characters") -> None:
    p = ["state", table, cid]
    _want(ch, dict, p, "a table")
    if _str(ch, "id", p) != cid:
        raise StateError(f"{_where(p + ['id'])}: '{ch['id']}' differs from its table name '{cid}'")
    _str(ch, "name", p)
    _str(ch, "kind", p, CHARACTER_KINDS)
    _str(ch, "player", p)
    _str(ch, "health", p)
    _str(ch, "notes", p)
    if "secret" in ch:
        _want(ch["secret"], bool, p + ["secret"], "true or false")
    if "effects" in ch:
        _validate_effects(ch, p)
    if system is System.RAJAPOLKU:
        _strlist(ch, "backgrounds", p)
        for i, ab in enumerate(_list(ch, "abilities", p)):
            ap = p + ["abilities", i]
            _want(ab, dict, ap, "a table")
            _str(ab, "name", ap)
            _int(ab, "cost", ap, 0, 30)
            _str(ab, "per", ap, ABILITY_PER)
        _str(ch, "wound", p, track)
        mx = _int(ch, "charges_max", p, 0, 99)
        _int(ch, "charges", p, 0, mx)
        _int(ch, "story_points", p, 0, 99)
        _strlist(ch, "paid_this_scene", p)
    elif system is System.HARHAPOLKU:
        for i, bg in enumerate(_list(ch, "backgrounds", p)):
            bp = p + ["backgrounds", i]
            _want(bg, dict, bp, "a table")
            _str(bg, "name", bp)
            _str(bg, "tier", bp, HARHA_TIERS)
        for i, ed in enumerate(_list(ch, "edges", p)):
            ep = p + ["edges", i]
            _want(ed, dict, ep, "a table")
            _str(ed, "name", ep)
            _want(ed.get("used"), bool, ep + ["used"], "true or false")
        _strlist(ch, "rolled_this_scene", p)
    else:
        attrs = _table(ch, "attributes", p)
        for a in SR_ATTRIBUTES:
            _int(attrs, a, p + ["attributes"], 1, 12)
        skills = _table(ch, "skills", p)
        for name in skills:
            _int(skills, name, p + ["skills"], 0, 12)
        rating = _int(ch, "edge_rating", p, 0, 9)
        _int(ch, "edge", p, 0, rating)
        phys, stun = condition_monitors(sr(ch))
        _int(ch, "physical", p, 0, phys)
        _int(ch, "stun", p, 0, stun)
        if "overflow" in ch:
            _int(ch, "overflow", p, 0, attrs["body"] + 1)
        _validate_gear(ch, p)
    for key in ("group", "template"):
        if key in ch:
            _str(ch, key, p)
    for i, pool in enumerate(_list(ch, "pools", p) if "pools" in ch else []):
        _validate_pool(system, pool, p + ["pools", i])


def _validate_gear(ch: dict[str, Any], p: list[Any]) -> None:
    """Varjojuoksu gear (:mod:`polku.session.table.gear`): weapons, armour, the weapon last used,
    the template it shares gear with, the imported extras (skill links, monitor boxes, passes)."""
    from ..rules.shadowrun import DEFENCE_CHOICES, WEAPON_KINDS, parse_ap

    if isinstance(ch.get("armour"), dict):
        for kind in ("ballistic", "impact"):
            _int(ch["armour"], kind, p + ["armour"], 0, 99)
    elif "armour" in ch:
        _int(ch, "armour", p, 0, 99)
    for i, w in enumerate(_list(ch, "weapons", p) if "weapons" in ch else []):
        wp = p + ["weapons", i]
        _want(w, dict, wp, "a table")
        _str(w, "name", wp)
        _int(w, "dv", wp, 0, 99)
        _str(w, "damage", wp, ("physical", "stun"))
        if "ap" not in w or isinstance(w["ap"], bool) or not isinstance(w["ap"], (int, str)):
            raise StateError(f"{_where(wp + ['ap'])}: expected a number or '-half'")
        try:
            if isinstance(w["ap"], str) and not parse_ap(w["ap"]).half:
                raise RulesError("only '-half' is stored as text")
            parse_ap(w["ap"])
        except RulesError as e:
            raise StateError(f"{_where(wp + ['ap'])}: {e}") from None
        if "skill" in w:
            _str(w, "skill", wp)
        if "kind" in w:
            _str(w, "kind", wp, WEAPON_KINDS)
    if "wielded" in ch:
        _str(ch, "wielded", p)
    if "defence" in ch:
        _str(ch, "defence", p, DEFENCE_CHOICES)
    if "links" in ch:
        for skill, attr in _table(ch, "links", p).items():
            _want(attr, str, p + ["links", skill], "an attribute")
            if attr not in SR_ATTRIBUTES:
                raise StateError(f"{_where(p + ['links', skill])}: '{attr}' is not one of {', '.join(SR_ATTRIBUTES)}")
    if "monitor_extra" in ch:
        for track in _table(ch, "monitor_extra", p):
            if track not in ("physical", "stun"):
                raise StateError(f"{_where(p + ['monitor_extra', track])}: physical or stun")
            _int(ch["monitor_extra"], track, p + ["monitor_extra"], -8, 12)
    if "initiative_passes" in ch:
        _int(ch, "initiative_passes", p, 1, MAX_PASSES)
    if "initiative_bonus" in ch:
        _int(ch, "initiative_bonus", p, 0, 12)  # rules.shadowrun.MAX_INITIATIVE_BONUS
    if "initiative_scores" in ch:
        from ..rules.shadowrun import INITIATIVE_KINDS

        sp = p + ["initiative_scores"]
        for kind, score in _table(ch, "initiative_scores", p).items():
            if kind not in INITIATIVE_KINDS[1:]:
                raise StateError(f"{_where(sp + [kind])}: astral or matrix, not '{kind}'")
            _want(score, dict, sp + [kind], "a table")
            _int(score, "bonus", sp + [kind], 0, 12)
            _int(score, "passes", sp + [kind], 1, MAX_PASSES)


def _validate_pool(system: System, pool: Any, p: list[Any]) -> None:
    """A saved pool: a name and what the roll screen fills in for it."""
    _want(pool, dict, p, "a table")
    _str(pool, "name", p)
    if system is System.SHADOWRUN:
        _str(pool, "mode", p, POOL_MODES)
        _str(pool, "skill", p)
        _str(pool, "attribute", p, SR_ATTRIBUTES)
        _str(pool, "second", p, SR_ATTRIBUTES)
        _int(pool, "count", p, 0, 99)
    elif system is System.HARHAPOLKU:
        tiers = _table(pool, "tiers", p)
        for tier, name in tiers.items():
            if tier not in HARHA_TIERS:
                raise StateError(f"{_where(p + ['tiers', tier])}: '{tier}' is not one of {', '.join(HARHA_TIERS)}")
            _want(name, str, p + ["tiers", tier], "text")
    else:
        _strlist(pool, "backgrounds", p)
        _strlist(pool, "abilities", p)


def validate_event(ev: Any, index: int) -> Event:
    """``ev`` if it has an event's shape (raises :class:`StateError` naming the key if not)."""
    p = ["event", index]
    _want(ev, dict, p, "a table")
    _int(ev, "seq", p, 1)
    _str(ev, "kind", p)
    _str(ev, "text", p)
    for i, ch in enumerate(ev.get("changes", [])):
        cp = p + ["changes", i]
        _want(ch, dict, cp, "a table")
        path = _list(ch, "path", cp)
        if not path:
            raise StateError(f"{_where(cp + ['path'])}: empty")
        for j, k in enumerate(path):
            if not isinstance(k, (str, int)):
                _want(k, str, cp + ["path", j], "a key or index")  # raises, naming the key
    roll = ev.get("roll")
    if roll is not None:
        _want(roll, dict, p + ["roll"], "a table")
        for si, side in enumerate(_list(roll, "sides", p + ["roll"])):
            sp = p + ["roll", "sides", si]
            _want(side, dict, sp, "a table")
            for di, d in enumerate(_list(side, "dice", sp)):
                _validate_die(d, sp + ["dice", di])
    return cast(Event, ev)
