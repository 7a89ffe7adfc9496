"""The state's own validation: every key the program relies on, checked once at the store's edge.

A session file's ``[state]`` table and its ``[[event]]`` blocks come in as raw TOML (``object``);
:mod:`polku.session.model` hands them here (``validate_state``, ``validate_event``) and gets back the
same value, now known to have its shape. What drawing and replaying rely on beyond this (the kind of
every key with a fixed meaning, bounds, the numbering) is :mod:`polku.session.integrity`'s.

This module reads the raw value as ``object`` and narrows it step by step (``Table``, ``list[object]``,
``str``, ``int``), so the type checker follows each check; it does not know the declared shapes
(:mod:`polku.session.model` does, and casts the checked value to them), which keeps it below the model.
Every failure is a :class:`StateError` with one line naming the key.
"""

from __future__ import annotations

from typing import Iterable, TypeVar, cast

from ..i18n import N_, Said, said
from ..rules.dice import VALID_SIZES, RulesError
from ..rules.system import CHOICE_BY_KEY, System, raja_wound_level, validate_choice
from ..rules.turns import EFFECT_UNITS, MAX_EFFECT_COUNT, MAX_EFFECT_DICE, MAX_PASSES
from .records import SRCharacter

_T = TypeVar("_T")

Table = dict[str, object]
"""A TOML table as read: its keys are text (TOML allows no other), its values anything."""
KeyPath = list[str | int]
"""Where a value is: table keys and list indexes from the top (``["state", "characters", "ada"]``)."""


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


def condition_monitors(ch: SRCharacter) -> tuple[int, int]:
    """Boxes of a Varjojuoksu character's physical and stun monitors (S12, from the rules core)."""
    from ..rules.shadowrun import condition_monitor

    attrs = ch["attributes"]
    extra = ch.get("monitor_extra", {})
    return (condition_monitor(attrs["body"]) + int(extra.get("physical", 0)),
            condition_monitor(attrs["willpower"]) + int(extra.get("stun", 0)))


def _where(path: Iterable[str | int]) -> str:
    return ".".join(str(p) for p in path)


def cut(text: Said, limit: int) -> str:
    """``text`` cut to ``limit`` characters: a line that fits keeps its words (told in the reader's language), a
    longer one is its English cut short (a huge value quoted in it)."""
    return text if len(text) <= limit else str(text)[:limit]


def error_text(e: BaseException) -> str:
    """An error's line to quote in another (its words kept when it was :func:`~polku.i18n.said`)."""
    return e.args[0] if len(e.args) == 1 and isinstance(e.args[0], Said) else str(e)


def _want(value: object, typ: type[_T], path: KeyPath, what: str) -> _T:
    """``value`` if it is a ``typ``; ``what`` (marked ``N_``) names what was expected."""
    if isinstance(value, bool) and typ is int:
        raise StateError(said(N_("{at}: expected {what}, found {found}"), at=_where(path), what=said(what),
                              found=repr(value)))
    if not isinstance(value, typ):
        raise StateError(cut(said(N_("{at}: expected {what}, found {found}"), at=_where(path), what=said(what),
                                  found=f"{type(value).__name__} {value!r}"), 200))
    return value


def _want_table(value: object, path: KeyPath, what: str = N_("a table")) -> Table:
    # A TOML table's keys are text, so the checked dict is a Table.
    return cast(Table, _want(value, dict, path, what))


def _want_list(value: object, path: KeyPath, what: str = N_("a list")) -> list[object]:
    return cast("list[object]", _want(value, list, path, what))


def _int(d: Table, key: str, path: KeyPath, lo: int | None = None, hi: int | None = None) -> int:
    if key not in d:
        raise StateError(said(N_("{at}: missing"), at=_where(path + [key])))
    v = _want(d[key], int, path + [key], N_("a whole number"))
    if lo is not None and v < lo:
        raise StateError(said(N_("{at}: {value} is below {lo}"), at=_where(path + [key]), value=v, lo=lo))
    if hi is not None and v > hi:
        raise StateError(said(N_("{at}: {value} is above {hi}"), at=_where(path + [key]), value=v, hi=hi))
    return v


def _str(d: Table, key: str, path: KeyPath, allowed: Iterable[str] | None = None) -> str:
    if key not in d:
        raise StateError(said(N_("{at}: missing"), at=_where(path + [key])))
    v = _want(d[key], str, path + [key], N_("text"))
    if allowed is not None and v not in allowed:
        raise StateError(said(N_("{at}: '{value}' is not one of {allowed}"), at=_where(path + [key]), value=v,
                              allowed=", ".join(allowed)))
    return v


def _table(d: Table, key: str, path: KeyPath) -> Table:
    if key not in d:
        raise StateError(said(N_("{at}: missing"), at=_where(path + [key])))
    return _want_table(d[key], path + [key])


def _list(d: Table, key: str, path: KeyPath) -> list[object]:
    if key not in d:
        raise StateError(said(N_("{at}: missing"), at=_where(path + [key])))
    return _want_list(d[key], path + [key])


def _strlist(d: Table, key: str, path: KeyPath) -> list[str]:
    items = _list(d, key, path)
    return [_want(item, str, path + [key, i], N_("text")) for i, item in enumerate(items)]


def check_state(value: object) -> Table:
    """Check every key the program relies on; raise :class:`StateError`.

    Returns the same object, as a table (:func:`polku.session.model.validate_state` knows it a ``State``)."""
    p: KeyPath = ["state"]
    state = _want_table(value, p)
    camp = _table(state, "campaign", p)
    _str(camp, "name", p + ["campaign"])
    system = System(_str(camp, "system", p + ["campaign"], [s.value for s in System]))
    sett = _table(state, "settings", p)
    for key, setting in sett.items():
        choice = CHOICE_BY_KEY.get(key)
        if choice is None:
            raise StateError(said(N_("state.settings.{key}: unknown setting"), key=key))
        try:
            validate_choice(choice, setting)
        except RulesError as e:
            raise StateError(said(N_("state.settings: {error}"), error=error_text(e))) from None
    track = _strlist(state, "wound_track", p)
    if system is System.RAJAPOLKU:
        if not 3 <= len(track) <= 7:
            raise StateError(said(N_("state.wound_track: {n} levels (R9 allows 3 to 7)"), n=len(track)))
        for lvl in track:
            # A level is named in English or in the rule text's Finnish ("Terve"); the name is kept as written.
            if raja_wound_level(lvl) is None:
                raise StateError(said(N_("state.wound_track: '{level}' is not an R9 level"), level=lvl))
    st = _table(state, "structure", p)
    for k in ("story", "session", "scene"):
        _int(st, k, p + ["structure"], 1)
    _int(state, "next_id", p, 1)
    chars = {cid: _check_character(system, track, cid, ch)
             for cid, ch in _table(state, "characters", p).items()}
    groups = _want_table(state.get("groups", {}), p + ["groups"])
    for gid, group in groups.items():
        gp = p + ["groups", gid]
        g = _want_table(group, gp)
        if _str(g, "id", gp) != gid:
            raise StateError(said(N_("{at}: '{id}' differs from its table name '{name}'"), at=_where(gp + ['id']),
                                  id=str(g['id']), name=gid))
        _str(g, "name", gp)
        _str(g, "initiative", gp, GROUP_INITIATIVE)
        _str(g, "template", gp)
    for cid, ch in chars.items():
        gid_of = ch.get("group")
        if gid_of is not None and gid_of not in groups:
            raise StateError(said(N_("state.characters.{id}.group: no group '{group}'"), id=cid, group=str(gid_of)))
    templates = _want_table(state.get("templates", {}), p + ["templates"])
    for tid, tpl in templates.items():
        _check_character(system, track, tid, tpl, "templates")
    for i, chal in enumerate(_list(state, "challenges", p)):
        cp = p + ["challenges", i]
        c = _want_table(chal, cp)
        _str(c, "id", cp)
        _str(c, "title", cp)
        _str(c, "status", cp, CHALLENGE_STATUS)
    fighters: set[str] = set()
    for i, row in enumerate(_list(state, "initiative", p)):
        ip = p + ["initiative", i]
        entry = _want_table(row, ip)
        cid = _str(entry, "id", ip)
        if cid not in chars:
            raise StateError(said(N_("{at}: no character '{id}'"), at=_where(ip + ['id']), id=cid))
        fighters.add(cid)
        _int(entry, "score", ip, 0)
        _int(entry, "passes", ip, 1, MAX_PASSES)
        if "kind" in entry:
            from ..rules.shadowrun import INITIATIVE_KINDS

            _str(entry, "kind", ip, INITIATIVE_KINDS)
    if "combat" in state:
        _check_combat(state, fighters)
    nar = _table(state, "narration", p)
    _str(nar, "narrator", p + ["narration"])
    for i, d in enumerate(_list(nar, "table", p + ["narration"])):
        _check_die(d, p + ["narration", "table", i])
    return state


def _check_combat(state: Table, fighters: set[str]) -> None:
    cp: KeyPath = ["state", "combat"]
    b = _table(state, "combat", ["state"])
    _int(b, "turn", cp, 1)
    _int(b, "pass", cp, 0, MAX_PASSES)
    acting = _str(b, "acting", cp)
    if acting and acting not in fighters:
        raise StateError(said(N_("{at}: '{id}' is not in the initiative order"), at=_where(cp + ['acting']), id=acting))
    for key in ("acted", "held", "surprised"):
        if key == "surprised" and key not in b:
            continue
        for i, cid in enumerate(_strlist(b, key, cp)):
            if cid not in fighters:
                raise StateError(said(N_("{at}: '{id}' is not in the initiative order"), at=_where(cp + [key, i]), id=cid))


def _check_effects(ch: Table, p: KeyPath) -> None:
    for i, effect in enumerate(_list(ch, "effects", p)):
        ep = p + ["effects", i]
        e = _want_table(effect, ep)
        _str(e, "name", ep)
        _int(e, "modifier", ep, -MAX_EFFECT_DICE, MAX_EFFECT_DICE)
        unit = _str(e, "unit", ep, EFFECT_UNITS)
        _int(e, "left", ep, 0 if unit == "removed" else 1, MAX_EFFECT_COUNT)


def _check_die(die: object, path: KeyPath) -> None:
    d = _want_table(die, path, N_("a die table"))
    size = _int(d, "size", path)
    if size not in VALID_SIZES:
        raise StateError(said(N_("{at}: d{size} is not a die"), at=_where(path + ['size']), size=size))
    _int(d, "face", path, 1, size)


def _check_character(system: System, track: list[str], cid: str, value: object,
                     table: str = "characters") -> Table:
    p: KeyPath = ["state", table, cid]
    ch = _want_table(value, p)
    if _str(ch, "id", p) != cid:
        raise StateError(said(N_("{at}: '{id}' differs from its table name '{name}'"), at=_where(p + ['id']),
                              id=str(ch['id']), name=cid))
    _str(ch, "name", p)
    _str(ch, "kind", p, CHARACTER_KINDS)
    _str(ch, "player", p)
    _str(ch, "health", p)
    _str(ch, "notes", p)
    if "secret" in ch:
        _want(ch["secret"], bool, p + ["secret"], N_("true or false"))
    if "effects" in ch:
        _check_effects(ch, p)
    if system is System.RAJAPOLKU:
        _check_raja(ch, p, track)
    elif system is System.HARHAPOLKU:
        _check_harha(ch, p)
    else:
        _check_sr(ch, p)
    for key in ("group", "template"):
        if key in ch:
            _str(ch, key, p)
    for i, pool in enumerate(_list(ch, "pools", p) if "pools" in ch else []):
        _check_pool(system, pool, p + ["pools", i])
    return ch


def _check_raja(ch: Table, p: KeyPath, track: list[str]) -> None:
    _strlist(ch, "backgrounds", p)
    for i, ability in enumerate(_list(ch, "abilities", p)):
        ap = p + ["abilities", i]
        ab = _want_table(ability, ap)
        _str(ab, "name", ap)
        _int(ab, "cost", ap, 0, 30)
        _str(ab, "per", ap, ABILITY_PER)
    _str(ch, "wound", p, track)
    mx = _int(ch, "charges_max", p, 0, 99)
    _int(ch, "charges", p, 0, mx)
    _int(ch, "story_points", p, 0, 99)
    _strlist(ch, "paid_this_scene", p)


def _check_harha(ch: Table, p: KeyPath) -> None:
    for i, background in enumerate(_list(ch, "backgrounds", p)):
        bp = p + ["backgrounds", i]
        bg = _want_table(background, bp)
        _str(bg, "name", bp)
        _str(bg, "tier", bp, HARHA_TIERS)
    for i, edge in enumerate(_list(ch, "edges", p)):
        ep = p + ["edges", i]
        ed = _want_table(edge, ep)
        _str(ed, "name", ep)
        _want(ed.get("used"), bool, ep + ["used"], N_("true or false"))
    _strlist(ch, "rolled_this_scene", p)


def _check_sr(ch: Table, p: KeyPath) -> None:
    attrs = _table(ch, "attributes", p)
    for a in SR_ATTRIBUTES:
        _int(attrs, a, p + ["attributes"], 1, 12)
    skills = _table(ch, "skills", p)
    for name in skills:
        _int(skills, name, p + ["skills"], 0, 12)
    rating = _int(ch, "edge_rating", p, 0, 9)
    _int(ch, "edge", p, 0, rating)
    # The attributes are checked above; the monitors' extra boxes are read as numbers (checked below).
    phys, stun = condition_monitors(cast(SRCharacter, ch))
    _int(ch, "physical", p, 0, phys)
    _int(ch, "stun", p, 0, stun)
    if "overflow" in ch:
        _int(ch, "overflow", p, 0, _int(attrs, "body", p + ["attributes"]) + 1)
    _check_gear(ch, p)


def _check_gear(ch: Table, p: KeyPath) -> None:
    """Varjojuoksu gear (:mod:`polku.session.table.gear`): weapons, armour, the weapon last used,
    the template it shares gear with, the imported extras (skill links, monitor boxes, passes)."""
    from ..rules.shadowrun import DEFENCE_CHOICES, WEAPON_KINDS

    armour = ch.get("armour")
    if isinstance(armour, dict):
        for kind in ("ballistic", "impact"):
            _int(_want_table(armour, p + ["armour"]), kind, p + ["armour"], 0, 99)
    elif "armour" in ch:
        _int(ch, "armour", p, 0, 99)
    for i, weapon in enumerate(_list(ch, "weapons", p) if "weapons" in ch else []):
        _check_weapon(weapon, p + ["weapons", i], WEAPON_KINDS)
    if "wielded" in ch:
        _str(ch, "wielded", p)
    if "defence" in ch:
        _str(ch, "defence", p, DEFENCE_CHOICES)
    if "links" in ch:
        for skill, attr in _table(ch, "links", p).items():
            _want(attr, str, p + ["links", skill], N_("an attribute"))
            if attr not in SR_ATTRIBUTES:
                raise StateError(said(N_("{at}: '{value}' is not one of {allowed}"), at=_where(p + ['links', skill]), value=str(attr),
                                      allowed=", ".join(SR_ATTRIBUTES)))
    if "monitor_extra" in ch:
        extra = _table(ch, "monitor_extra", p)
        for track in extra:
            if track not in ("physical", "stun"):
                raise StateError(said(N_("{at}: physical or stun"), at=_where(p + ['monitor_extra', track])))
            _int(extra, track, p + ["monitor_extra"], -8, 12)
    if "initiative_passes" in ch:
        _int(ch, "initiative_passes", p, 1, MAX_PASSES)
    if "initiative_bonus" in ch:
        _int(ch, "initiative_bonus", p, 0, 12)  # rules.shadowrun.MAX_INITIATIVE_BONUS
    if "initiative_scores" in ch:
        from ..rules.shadowrun import INITIATIVE_KINDS

        sp = p + ["initiative_scores"]
        for kind, value in _table(ch, "initiative_scores", p).items():
            if kind not in INITIATIVE_KINDS[1:]:
                raise StateError(said(N_("{at}: astral or matrix, not '{kind}'"), at=_where(sp + [kind]), kind=kind))
            score = _want_table(value, sp + [kind])
            _int(score, "bonus", sp + [kind], 0, 12)
            _int(score, "passes", sp + [kind], 1, MAX_PASSES)


def _check_weapon(weapon: object, wp: KeyPath, kinds: Iterable[str]) -> None:
    from ..rules.shadowrun import parse_ap

    w = _want_table(weapon, wp)
    _str(w, "name", wp)
    _int(w, "dv", wp, 0, 99)
    _str(w, "damage", wp, ("physical", "stun"))
    ap = w.get("ap")
    if ap is None or isinstance(ap, bool) or not isinstance(ap, (int, str)):
        raise StateError(said(N_("{at}: expected a number or '-half'"), at=_where(wp + ['ap'])))
    try:
        if isinstance(ap, str) and not parse_ap(ap).half:
            raise RulesError(said(N_("only '-half' is stored as text")))
        parse_ap(ap)
    except RulesError as e:
        raise StateError(said(N_("{at}: {error}"), at=_where(wp + ['ap']), error=error_text(e))) from None
    if "skill" in w:
        _str(w, "skill", wp)
    if "kind" in w:
        _str(w, "kind", wp, kinds)


def _check_pool(system: System, value: object, p: KeyPath) -> None:
    """A saved pool: a name and what the roll screen fills in for it."""
    pool = _want_table(value, p)
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
                raise StateError(said(N_("{at}: '{value}' is not one of {allowed}"), at=_where(p + ['tiers', tier]), value=tier,
                                      allowed=", ".join(HARHA_TIERS)))
            _want(name, str, p + ["tiers", tier], N_("text"))
    else:
        _strlist(pool, "backgrounds", p)
        _strlist(pool, "abilities", p)


def check_event(value: object, index: int) -> Table:
    """``value`` if it has an event's shape, as a table (raises :class:`StateError` naming the key if not)."""
    p: KeyPath = ["event", index]
    ev = _want_table(value, p)
    _int(ev, "seq", p, 1)
    _str(ev, "kind", p)
    _str(ev, "text", p)
    for i, change in enumerate(_want_list(ev.get("changes", []), p + ["changes"])):
        cp = p + ["changes", i]
        ch = _want_table(change, cp)
        path = _list(ch, "path", cp)
        if not path:
            raise StateError(said(N_("{at}: empty"), at=_where(cp + ['path'])))
        for j, k in enumerate(path):
            if not isinstance(k, (str, int)):
                _want(k, str, cp + ["path", j], N_("a key or index"))  # raises, naming the key
    if "roll" in ev:
        roll = _want_table(ev["roll"], p + ["roll"])
        for si, value_side in enumerate(_list(roll, "sides", p + ["roll"])):
            sp = p + ["roll", "sides", si]
            side = _want_table(value_side, sp)
            for di, d in enumerate(_list(side, "dice", sp)):
                _check_die(d, sp + ["dice", di])
    return ev
