"""Is a loaded session file whole? Checks beyond the state's own validation.

:func:`polku.session.model.validate_state` checks what the rules rely on.
This module checks what *drawing* and *replaying* rely on, for every block a
file gives the program, so that a damaged or hand-edited file is refused with
one line instead of crashing a screen, an export or a replay:

- :func:`check_event`: an event's shape and the types of the keys the
  program reads (``text`` is text, ``seq`` a whole number, ``who`` names…),
  and bounds on every value (nesting depth, 64-bit whole numbers) so that no
  value can make a copy, a comparison or a format recurse or blow up;
- :func:`check_state_extra`: the same for the state's challenges, narration
  and any other value;
- :func:`check_numbering`: the log is numbered 1, 2, 3… without a gap, and
  the snapshot number fits it;
- :func:`apply_checked`: replaying an event onto the saved state, every
  change must start from the value the event says it changed ("before"); a
  snapshot number that is too low (events replayed twice) or a state edited
  under its later events shows up here.

Every failure is a :class:`~polku.session.model.StateError` with one line.
No textual, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, cast

from ..i18n import N_, Said, said
from .model import Change, Event, State, StateError, get_path, validate_event
from .validation import KeyPath, Table

if TYPE_CHECKING:
    from .store import EventLog

MAX_DEPTH = 24
"""Nesting deeper than this is damage: Polku's own events nest about 7 deep."""

INT_MIN, INT_MAX = -(2**63), 2**63 - 1
"""TOML's whole numbers are 64-bit."""

MAX_SHOWN = 60
"""How much of a bad value an error line quotes."""

_INT_KEYS = frozenset({
    "seq", "cmd", "target", "amount", "face", "size", "hits", "degrees", "net_hits", "threshold", "seed",
    "rerolls", "edge_dice", "edge_spent", "ones", "pool", "dice_counted", "helper_dice", "needed",
    "accumulated", "intervals", "deciding_position", "score", "passes", "dice_key", "roll_no", "supersedes",
    "withheld_sides",
})
_STR_KEYS = frozenset({
    "kind", "text", "t", "label", "source", "summary", "test", "winner", "winner_if_needed", "decided_by",
    "role", "resource", "challenge", "bought", "title", "status", "outcome_text", "tier", "narrator",
    "id", "name", "player", "health", "notes", "wound", "variant", "demand",
})
_BOOL_KEYS = frozenset({
    "manual", "fixed_seed", "hidden", "glitch", "critical_glitch", "glitch_negated", "critical_reduced", "success",
    "very_demanding", "narrow", "auto_failed", "hurried",
})
"""True or false: how a roll's dice came (``manual``…) and its outcome's flags (records.RollOutcome)."""
_INT_LIST_KEYS = frozenset({"at", "replaced", "a_faces", "b_faces", "a_sizes", "b_sizes", "degree_faces", "counts"})
_STR_LIST_KEYS = frozenset({"explain", "participants", "opposition", "hand", "draws"})
_TABLE_LIST_KEYS = frozenset({"sides", "dice", "a_dice", "b_dice", "positions", "changes"})
_NAMES_KEYS = frozenset({"who"})
_KNOWN_KEYS = (_INT_KEYS | _STR_KEYS | _BOOL_KEYS | _INT_LIST_KEYS | _STR_LIST_KEYS | _TABLE_LIST_KEYS
               | _NAMES_KEYS)
"""Text or a list of texts: the characters an event names."""


def _show(value: object) -> str:
    try:
        text = repr(value)
    except ValueError:  # a whole number too long to print
        text = f"a {type(value).__name__}"
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 1] + "…"


_KINDS = {dict: N_("a table"), list: N_("a list"), str: N_("text"), bool: N_("true/false"), int: N_("a whole number"),
          float: N_("a decimal number")}

_WANTS = {str: N_("text"), list: N_("a list"), dict: N_("a table"), int: N_("a whole number"), bool: N_("true or false")}


def _kind(value: object) -> Said:
    kind = _KINDS.get(type(value))
    return said(kind) if kind is not None else said(N_("a {type}"), type=type(value).__name__)


def _where(path: Iterable[str | int]) -> str:
    return ".".join(str(p) for p in path)


Wrong = tuple[object, type, KeyPath]
"""A value not of the kind its place holds: the value, the kind wanted, its place (or where in it, see
:func:`_wrong`), for :func:`_want` to name."""


def check_tree(value: object, path: KeyPath) -> None:
    """Bounds on every value below ``value``: depth, 64-bit whole numbers, keys as text.

    Iterative, so that even a value nested far too deep is measured without
    recursing.
    """
    _walk(value, path)


def _walk(value: object, path: KeyPath, keys: KeyPath | None = None) -> Wrong | None:
    """:func:`check_tree` of ``value``, and with ``keys`` in the same walk what :func:`_check_keys` would
    find below it, its places named from ``keys`` (an event's own number, not its block's).

    Raises the first bound problem; returns the first value of the wrong kind (None: none), for the caller
    to raise after what it checks in between: a bound problem anywhere comes first (and only a value
    within the bounds is quoted). Both walks take the tables and lists in one order, so it is the value
    :func:`_check_keys` would name.
    """
    stack: list[tuple[object, KeyPath]] = [(value, [])]
    found: Wrong | None = None
    while stack:
        node, where = stack.pop()  # ``where``: below ``value``
        if len(where) > MAX_DEPTH:
            raise StateError(said(N_("{at}…: nested more than {n} levels deep"), at=_where((path + where)[: len(path) + 3]),
                                  n=MAX_DEPTH))
        # A child that is text, a truth value, a float or a 64-bit whole number, not too deep, passes every
        # check below: it is not stacked (nor its path made), which takes a third off a 10,000-event load.
        # What is stacked, and so the first problem found, is as before.
        shallow = len(where) < MAX_DEPTH
        if isinstance(node, dict):
            for k, v in cast("dict[object, object]", node).items():
                if not isinstance(k, str):
                    raise StateError(said(N_("{at}: a key {key} is not text"), at=_where(path + where), key=_show(k)))
                # A key's value of exactly its kind is right (most are: no call made for them).
                if keys is not None and found is None and k in _KNOWN_KEYS and type(v) is not _VALUE_KINDS.get(k):
                    wrong = _wrong(k, v, "fact" in where)
                    if wrong is not None:
                        found = wrong[0], wrong[1], keys + where + [k] + wrong[2]
                if shallow and _passes(v):
                    continue
                stack.append((v, where + [k]))
        elif isinstance(node, list):
            stack.extend((v, where + [i]) for i, v in enumerate(cast("list[object]", node))
                         if not (shallow and _passes(v)))
        elif isinstance(node, int) and not isinstance(node, bool) and not INT_MIN <= node <= INT_MAX:
            raise StateError(said(N_("{at}: the whole number is too large (TOML's limit is 64 bits)"),
                                  at=_where(path + where)))
        elif not isinstance(node, (str, int, float)):
            # Polku writes times as text; a TOML date or time here was typed by hand
            # (and the parser's date objects cannot even be copied).
            raise StateError(said(N_("{at}: {kind} {value} where Polku keeps text or numbers"), at=_where(path + where),
                                  kind=_kind(node), value=_show(node)))
    return found


def _passes(v: object) -> bool:
    """A value :func:`check_tree` has nothing to say about, wherever it is (but too deep)."""
    if type(v) is int:
        return INT_MIN <= v <= INT_MAX
    return type(v) in _LEAVES


_LEAVES = frozenset({str, bool, float})


def _check_keys(node: object, path: KeyPath) -> None:
    """Types of the keys with a fixed meaning, wherever they appear below ``node`` (whose keys
    :func:`check_tree` has found to be text)."""
    stack: list[tuple[object, KeyPath]] = [(node, path)]
    while stack:
        cur, where = stack.pop()
        if isinstance(cur, list):
            stack.extend((v, where + [i]) for i, v in enumerate(cast("list[object]", cur)) if isinstance(v, (dict, list)))
            continue
        if not isinstance(cur, dict):
            continue
        for key, value in cast(Table, cur).items():
            wrong = _wrong(key, value, "fact" in where[len(path):]) if key in _KNOWN_KEYS else None
            if wrong is not None:
                _want(wrong[0], wrong[1], where + [key] + wrong[2])
            if isinstance(value, (dict, list)):
                stack.append((value, where + [key]))


_VALUE_KINDS = {**dict.fromkeys(_INT_KEYS, int), **dict.fromkeys(_STR_KEYS, str), **dict.fromkeys(_BOOL_KEYS, bool)}
"""The kind of the value of each key that holds one value."""
_ITEM_KINDS = {**dict.fromkeys(_INT_LIST_KEYS, int), **dict.fromkeys(_STR_LIST_KEYS, str),
               **dict.fromkeys(_TABLE_LIST_KEYS, dict), **dict.fromkeys(_NAMES_KEYS, str)}
"""The kind of each item of each key that holds a list (a names key may hold one text instead)."""


def _wrong(key: str, value: object, in_fact: bool) -> Wrong | None:
    """The first value of the wrong kind at or in the value of a key with a fixed meaning (its place below
    the key's: ``[]``, or an item's ``[i]``); ``in_fact``: the key is in a fact, which names its values in its
    own words (``"glitch": "critical"``)."""
    kind = _VALUE_KINDS.get(key)
    if kind is not None:
        return None if _is(value, kind) or (kind is bool and in_fact) else (value, kind, [])
    item = _ITEM_KINDS.get(key)
    if item is None or (key in _NAMES_KEYS and isinstance(value, str)):
        return None
    if not _is(value, list):
        return value, list, []
    wrongs: list[Wrong] = [(x, item, [i]) for i, x in enumerate(cast("list[object]", value)) if not _is(x, item)]
    return wrongs[0] if wrongs else None


def _is(value: object, typ: type) -> bool:
    """Whether ``value`` is of the kind ``typ`` (a truth value is not a whole number)."""
    return isinstance(value, typ) and not (typ is int and isinstance(value, bool))


def _want(value: object, typ: type, path: KeyPath) -> None:
    if not _is(value, typ):
        raise StateError(said(N_("{at}: expected {what}, found {kind} {value}"), at=_where(path), what=said(_WANTS[typ]),
                              kind=_kind(value), value=_show(value)))


def _want_int(value: object, path: KeyPath) -> int:
    _want(value, int, path)
    return cast(int, value)


def _want_list(value: object, path: KeyPath) -> list[object]:
    _want(value, list, path)
    return cast("list[object]", value)


def _want_table(value: object, path: KeyPath) -> Table:
    """A table below a value :func:`check_tree` has passed (its keys are text)."""
    _want(value, dict, path)
    return cast(Table, value)


def check_event(value: object, index: int) -> None:
    """An event block's shape and types, as read from a file (``index`` counts from 0).

    Raises:
        StateError: one line naming the event and the key.
    """
    p: KeyPath = ["event", index + 1]
    if not isinstance(value, dict):
        raise StateError(said(N_("event {n}: expected a table, found {kind}"), n=index + 1, kind=_kind(value)))
    # One walk for the bounds and the kinds of the keys' values, which are named by the event's seq (when it
    # is one, else the seq's problem comes first) and told after the seq's problems.
    seq = value.get("seq")
    named: KeyPath | None = ["event", seq] if isinstance(seq, int) and not isinstance(seq, bool) and seq >= 1 else None
    wrong = _walk(value, p, named)
    ev = cast(Table, value)  # _walk: its keys are text
    for key in ("seq", "kind", "text"):
        if key not in ev:
            raise StateError(said(N_("event {n}: key '{key}' is missing"), n=index + 1, key=key))
    seq = _want_int(ev["seq"], p + ["seq"])
    if seq < 1:
        raise StateError(said(N_("event {n}: 'seq' = {seq} (events are numbered from 1)"), n=index + 1, seq=seq))
    if wrong is not None:
        _want(*wrong)
    p = ["event", seq]
    if "roll" in ev:
        roll = _want_table(ev["roll"], p + ["roll"])
        if "outcome" in roll:
            _want(roll["outcome"], dict, p + ["roll", "outcome"])
        # _check_keys: sides and dice are lists of tables.
        for i, side in enumerate(_want_list(roll.get("sides", []), p + ["roll", "sides"])):
            dice = _want_table(side, p + ["roll", "sides", i]).get("dice", [])
            for j, die in enumerate(_want_list(dice, p + ["roll", "sides", i, "dice"])):
                for key in ("size", "face"):
                    if key not in _want_table(die, p + ["roll", "sides", i, "dice", j]):
                        raise StateError(said(N_("{at}: key '{key}' is missing"), at=_where(p + ['roll', 'sides', i, 'dice', j]),
                                              key=key))
    for i, change in enumerate(_want_list(ev.get("changes", []), p + ["changes"])):
        cp = p + ["changes", i]
        ch = _want_table(change, cp)
        if "path" not in ch:
            raise StateError(said(N_("{at}: key '{key}' is missing"), at=_where(cp), key="path"))
        path = _want_list(ch["path"], cp + ["path"])
        if not path:
            raise StateError(said(N_("{at}: empty"), at=_where(cp + ['path'])))
        for j, k in enumerate(path):
            if not isinstance(k, (str, int)) or isinstance(k, bool):
                raise StateError(said(N_("{at}: expected a key or an index, found {value}"), at=_where(cp + ['path', j]),
                                      value=_show(k)))
        if not any(k in ch for k in ("after", "before", "insert", "remove")):
            raise StateError(said(N_("{at}: a change without 'before', 'after', 'insert' or 'remove'"), at=_where(cp)))
    validate_event(ev, index)  # the dice: sizes and faces the rules accept


def _same_shape(value: object, like: object) -> bool:
    """Is ``value`` the same kind of value as ``like`` (text, whole number, true/false, list, table)?"""
    kinds = (bool, int, float, str, list, dict)
    return next((k for k in kinds if isinstance(value, k)), None) is next((k for k in kinds if isinstance(like, k)),
                                                                          None)


def check_changes_fit(ev: Event, state: State) -> None:
    """Every value an event's changes hold is the kind of value the state keeps at that path.

    A key's kind never changes in a session (a scene number stays a whole
    number, a name text), so each ``before``/``after`` is compared with what the
    final state holds at its path, and each inserted or removed list item with
    that list's items. Paths no longer in the state (a removed character) are
    skipped. Screens and reports read these values when they step back through
    the log.

    Raises:
        StateError: one line naming the event and the path.
    """
    for i, ch in enumerate(ev.get("changes", [])):
        path = list(ch["path"])
        if "insert" in ch or "remove" in ch:
            items = get_path(state, path[:-1], _ABSENT)
            like = items[0] if isinstance(items, list) and items else _ABSENT
            values = _values(ch, ("insert", "remove"))
        else:
            like = get_path(state, path, _ABSENT)
            values = _values(ch, ("before", "after"))
        if like is _ABSENT:
            continue
        for value in values:
            if not _same_shape(value, like):
                raise StateError(said(N_("event {seq}: change {n} gives {path} {kind} {value}, where the state keeps"
                                         " {like}"), seq=str(ev.get('seq')), n=i + 1, path=_where(path),
                                      kind=_kind(value), value=_show(value), like=_kind(like)))


def _values(ch: Change, keys: tuple[str, str]) -> list[object]:
    """The values a change holds under ``keys`` (before/after or insert/remove), those it has."""
    held: Table = cast(Table, ch)  # a Change is a table of these keys
    return [held[k] for k in keys if k in held]


def check_state_extra(value: object) -> None:
    """What :func:`~polku.session.model.validate_state` leaves to the screens: bounds,
    challenge fields and unique challenge ids, the narration's parts.

    Raises:
        StateError: one line naming the key.
    """
    check_tree(value, ["state"])
    state = _want_table(value, ["state"])
    seen: set[str] = set()
    challenges = state.get("challenges", [])
    for i, c in enumerate(challenges if isinstance(challenges, list) else []):
        if not isinstance(c, dict):
            continue  # validate_state names it
        cp: KeyPath = ["state", "challenges", i]
        chal = cast(Table, c)  # check_tree: its keys are text
        _check_keys(chal, cp)
        for key in ("kind", "outcome"):
            if key in chal:
                _want(chal[key], str, cp + [key])
        cid = chal.get("id")
        if isinstance(cid, str):
            if cid in seen:
                raise StateError(said(N_("{at}: two challenges have the id '{id}'"), at=_where(cp + ['id']), id=cid))
            seen.add(cid)
    if isinstance(state.get("narration"), dict):
        np_: KeyPath = ["state", "narration"]
        nar = _want_table(state["narration"], np_)
        _check_keys(nar, np_)
        for key in ("burned",):
            if key in nar:
                _want(nar[key], list, np_ + [key])
        if "hands" in nar:
            for who, dice in _want_table(nar["hands"], np_ + ["hands"]).items():
                for j, d in enumerate(_want_list(dice, np_ + ["hands", who])):
                    die = _want_table(d, np_ + ["hands", who, j])
                    for key in ("size", "face"):
                        if key not in die:
                            raise StateError(said(N_("{at}: key '{key}' is missing"), at=_where(np_ + ['hands', who, j]),
                                                  key=key))
        if "rolled" in nar:
            for j, x in enumerate(_want_list(nar["rolled"], np_ + ["rolled"])):
                _want(x, str, np_ + ["rolled", j])
        if "last" in nar:
            _want(nar["last"], dict, np_ + ["last"])
    characters = state.get("characters", {})
    for cid, ch in (cast(Table, characters) if isinstance(characters, dict) else {}).items():
        if isinstance(ch, dict) and "secret" in ch and not isinstance(ch["secret"], bool):
            raise StateError(said(N_("state.characters.{id}.secret: expected true/false, found {value}"), id=cid,
                                  value=_show(ch['secret'])))


def check_numbering(seqs: list[int], snapshot_seq: int) -> None:
    """The log runs 1, 2, 3… (or on from an earlier compaction) with no gap, and the
    snapshot number lies within it.

    Raises:
        StateError: one line naming the events around the gap.
    """
    for prev, seq in zip(seqs, seqs[1:]):
        if seq != prev + 1:
            if seq > prev + 1:
                if seq == prev + 2:
                    raise StateError(said(N_("event {seq} follows event {prev}: a gap in the log (event {missing}"
                                             " missing)"), seq=seq, prev=prev, missing=prev + 1))
                raise StateError(said(N_("event {seq} follows event {prev}: a gap in the log (events {first}–{last}"
                                         " missing)"), seq=seq, prev=prev, first=prev + 1, last=seq - 1))
            raise StateError(said(N_("event {seq} follows event {prev}: the events are out of order or repeated"),
                                  seq=seq, prev=prev))
    if seqs and seqs[0] > snapshot_seq + 1:
        raise StateError(said(N_("the state is saved up to event {snapshot} but the log goes on at event {first}:"
                                 " a gap in the log"), snapshot=snapshot_seq, first=seqs[0]))
    if seqs and snapshot_seq > seqs[-1]:
        raise StateError(said(N_("'snapshot_seq' = {snapshot} but the log ends at event {last}:"
                                 " the snapshot number does not fit the log"), snapshot=snapshot_seq, last=seqs[-1]))


_ABSENT = object()


def apply_checked(state: object, changes: list[Change], seq: int) -> None:
    """Apply one event's changes, each only if the state holds what the change starts from.

    Raises:
        StateError: one line; the state may be partly changed (the caller drops it).
    """
    from .model import apply_changes

    for ch in changes:
        path = list(ch["path"])
        if "insert" not in ch and "remove" not in ch:
            now = get_path(state, path, _ABSENT)
            expected = ch.get("before", _ABSENT)
            if now != expected or (now is _ABSENT) != (expected is _ABSENT):
                found = said(N_("nothing")) if now is _ABSENT else _show(now)
                wanted = said(N_("nothing")) if expected is _ABSENT else _show(expected)
                raise StateError(said(N_(
                    "event {seq} does not follow from the saved state: {path} is {found}, the event"
                    " changed it from {wanted} ('snapshot_seq' or the state was edited, or the file is damaged)"),
                    seq=seq, path=_where(path), found=found, wanted=wanted))
        elif "remove" in ch:
            lst = get_path(state, path[:-1], _ABSENT)
            i = path[-1]
            if isinstance(lst, list) and isinstance(i, int) and 0 <= i < len(lst) \
                    and cast("list[object]", lst)[i] != ch["remove"]:
                raise StateError(said(N_("event {seq} does not follow from the saved state: {path} is not"
                                         " what the event removed ('snapshot_seq' or the state was edited, or the file"
                                         " is damaged)"), seq=seq, path=_where(path)))
        apply_changes(state, [ch])


def replay_state(snapshot: object, snapshot_seq: int, events: Sequence[object] | EventLog) -> State:
    """The state after the log: the snapshot with the newer events replayed, every
    block and the numbering checked first.

    ``events`` is a list of event tables or a lazy :class:`~polku.session.store.EventLog`
    (only the events newer than the snapshot are parsed now; the others are
    checked when they are first read).

    Raises:
        StateError: one line; nothing is changed.
    """
    from .model import clone, validate_state
    from .store import EventLog

    log: Sequence[Event]
    seqs: list[int] = []
    if isinstance(events, EventLog):
        log = events
        events.set_check(check_event)
        for i in range(len(log)):
            seq = events.meta(i).seq
            if seq < 1:
                raise StateError(log[i].get("text") if log[i].get("kind") == "unreadable"
                                 else said(N_("event block {n} has no whole-number 'seq'"), n=i + 1))
            seqs.append(seq)
    else:
        for i, raw in enumerate(events):
            check_event(raw, i)
        log = cast("list[Event]", events)  # check_event: each block has an event's shape and types
        seqs = [ev["seq"] for ev in log]
    n = len(log)
    if isinstance(snapshot_seq, bool) or not isinstance(snapshot_seq, int):
        raise StateError(said(N_("'snapshot_seq' must be a whole number, found {value}"), value=_show(snapshot_seq)))
    check_numbering(seqs, snapshot_seq)
    if not isinstance(snapshot, dict):
        raise StateError(said(N_("state: expected a table, found {kind}"), kind=_kind(snapshot)))
    check_tree(snapshot, ["state"])
    state: Table = clone(cast(Table, snapshot))
    for i in range(n):
        if seqs[i] <= snapshot_seq:
            continue
        ev = log[i]
        if ev.get("kind") == "unreadable":
            raise StateError(str(ev.get("text")))
        try:
            apply_checked(state, ev.get("changes", []), ev["seq"])
        except StateError:
            raise
        except (KeyError, IndexError, TypeError, ValueError) as e:
            raise StateError(said(N_("event {seq}: its changes do not fit the state ({error})"), seq=ev['seq'],
                                  error=_show(e))) from None
    checked = validate_state(state)
    check_state_extra(state)

    def check(ev: Event, index: int) -> None:
        check_event(ev, index)
        check_changes_fit(ev, checked)

    if isinstance(events, EventLog):
        for i in range(n):
            if seqs[i] > snapshot_seq:
                check_changes_fit(log[i], checked)
        events.set_check(check)  # the blocks read so far, and every later one when it is read
    else:
        for i in range(n):
            check_changes_fit(log[i], checked)
    return checked


__all__ = ["MAX_DEPTH", "apply_checked", "check_event", "check_numbering", "check_state_extra", "check_tree", "replay_state"]
