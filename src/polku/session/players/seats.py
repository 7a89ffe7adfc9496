"""Players' seats: the GM asks a character's player for a roll, the player's seat answers.

A *seat* is ``polku play FILE --as CHARACTER``: the players' view plus that
character's sheet and a roll panel. The GM's app stays the only writer of the
session file, so a seat never changes it. It talks to the GM's app through a
*spool folder* beside the session file::

    night.toml                 the session (the GM's app writes it)
    night.seats/kaneda/        Kaneda's seat folder
        req-<id>.json          a request of the seat (the seat writes it, atomically)
        ans-<id>.json          the GM's app's answer to it
        held-<id>.json         an own roll waiting for the GM's approval (the GM's app keeps it there)

The GM's side of a roll request is an ordinary tracker command: :func:`ask_sr`
(a Varjojuoksu success test, S8, optionally with a hidden threshold) and
:func:`ask_harha` (a Harhapolku difficult action, H8) log a ``seat`` event
naming the character and the prepared pool; :func:`withdraw` takes one back.
An offer is *pending* while its event is not undone, not withdrawn and no roll
made from it stands (undoing the roll makes it pending again). The seat reads
its pending offers from the session file through :func:`seat_offers`, which
copies only what the player may see (never a hidden threshold).

A seat's request (:func:`write_request`) is one small JSON file, written to a
temporary name and renamed, so the GM's app never reads half of one. The GM's
app reads each (:func:`incoming`), checks it (:func:`parse_request`: size,
fields, types; the folder names the character), applies it as a normal,
undoable command marked with the seat (:func:`apply_request`) and answers
(:func:`write_answer`). What a seat may ask:

- ``roll``: roll a pending offer of its own character, with the program's dice
  or physical faces, with Edge before the roll when the rules allow it (S7);
- ``action``: a follow-up the rules allow on the character's own latest roll
  made from a seat (Edge after, negating or reducing a glitch, S5–S7; an edge
  reroll, H7);
- ``story_point``: spend one of the character's story points (R12), saying
  what it buys.

Answers carry one line and, after a roll, what the player may still do to it;
no secret goes into them (the roll's result is read from the players' view).
The folder is the boundary only together with the operating system: the
forced SSH command fixes ``--as`` per key (docs/remote-play.md).

No textual, no rich.
"""

from __future__ import annotations

import errno
import json
import os
import re
import secrets
import stat
import time
import weakref
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict, cast

from ...i18n import N_, PublishedWords, Said, said, words_of
from ...rules.dice import DieSpec, RulesError
from ...rules.explain import step_of
from ..model import Character, Event, clone, roll_of, whole
from ..rolls import HarhaSide, RajaSide, RollAction, SRPool
from ..tracker import TrackerError

if TYPE_CHECKING:
    from ..host import Txn
    from ..tracker import Tracker

SPOOL_SUFFIX = ".seats"
"""The spool folder is the session file's name without ``.toml`` plus this."""

MAX_REQUEST_BYTES = 4096
"""A request file larger than this is refused unread."""

MAX_FACES = 60
"""At most this many physical faces in one request."""

MAX_TEXT = 200
"""At most this many characters of text (what a story point buys, an edge's name)."""

REQUEST_KINDS = ("roll", "action", "story_point", "own")
SEAT_ACTIONS = ("edge_after", "negate_glitch", "reduce_critical", "edge_reroll")
"""What a seat may do to its own roll (the rules core says whether it may now)."""

OFFER_TESTS = ("sr-success", "harha-difficult", "raja", "sr-defend")

_ID = re.compile(r"[0-9a-f]{16}")
_REQUEST_NAME = re.compile(r"req-([0-9a-f]{16})\.json")
_CID = re.compile(r"[a-z0-9][a-z0-9-]{0,79}")
_FIELDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "roll": {"offer": int, "edge_before": bool, "faces": (list, type(None))},
    "action": {"roll": int, "action": str, "edge": str, "faces": (list, type(None))},
    "story_point": {"bought": str},
    "own": {"test": str, "key": str, "edge_before": bool, "faces": (list, type(None))},
}
_COMMON: dict[str, type | tuple[type, ...]] = {"v": int, "id": str, "seat": str, "kind": str, "at": (int, float)}
STALE_TEMP_SECONDS = 60.0
"""A seat's temporary file older than this was left by a seat that died mid-write."""


class SeatError(TrackerError):
    """A request a seat may not make, or a seat that cannot start: one line, nothing changed.

    Raised with a catalogue message (``N_``) or a :class:`polku.i18n.Said`, so the seat tells the refusal in its
    reader's language (:func:`reason_of`)."""


ROLLS = N_("{name} rolls (the dice are in the log)")
"""The answer's line to a roll made from a seat."""


def reason_of(e: BaseException) -> str:
    """A refusal's line, keeping the words it was made from (a :class:`polku.i18n.Said` raised by the seat
    modules or the rules core); the English line else."""
    first = e.args[0] if e.args else None
    if isinstance(first, Said):
        return first
    if isinstance(e, KeyError):
        return str(e).strip("'")
    if isinstance(first, str) and len(e.args) == 1:
        return said(first)  # a message marked N_ alone (or a plain line): English, its words the message itself
    return str(e)


class _SeatRequestBase(TypedDict):
    v: int
    id: str
    seat: str
    kind: str
    """One of :data:`REQUEST_KINDS`."""


class SeatRequest(_SeatRequestBase, total=False):
    """A seat's request as :func:`parse_request` has checked it: the fields of ``_COMMON`` and of its kind
    (``_FIELDS``), each of its type, those its kind needs present."""

    at: int | float
    offer: int
    """``roll``: the request (an offer's ``seq``) it answers."""
    edge_before: bool
    faces: list[int] | None
    roll: int
    """``action``: the roll (its ``seq``) it changes."""
    action: str
    edge: str
    bought: str
    """``story_point``: what the point buys."""
    test: str
    """``own``: one of :data:`polku.session.players.seat_rolls.OWN_TESTS`, and ``key`` which one."""
    key: str


class _SeatAnswerBase(TypedDict):
    v: int
    id: str
    ok: bool
    text: str


class ActionAnswer(TypedDict):
    """A follow-up of a seat's roll, as its answer lists it (:func:`action_json`)."""

    name: str
    allowed: bool
    reason: str
    edge: str
    words: NotRequired[PublishedWords]
    """The reason's catalogue message and values (``[message, {values}]``), when it keeps them."""


class SeatAnswer(_SeatAnswerBase, total=False):
    """The GM's app's answer to a request (:func:`answer`): done or not and the line saying so; a roll made
    names its event and the follow-ups the seat may ask for."""

    roll: int
    actions: list[ActionAnswer]
    waiting: bool
    """An own roll held for the GM's approval (``seats.own_rolls = approve``): the answer says it waits, and
    ``what`` is the roll's label."""
    what: str
    words: PublishedWords
    """The line's catalogue message and values (``[message, {values}]``): the seat tells it in its language."""


# ---------------------------------------------------------------------------
# where


def spool_dir(session_path: str | os.PathLike[str]) -> Path:
    """The spool folder beside a session file (symlinks resolved, so a link and its target share one)."""
    p = Path(session_path).resolve()
    stem = p.name.removesuffix(".toml")
    return p.with_name(stem + SPOOL_SUFFIX)


def valid_cid(cid: str) -> bool:
    """Can this character id name a seat folder (lower-case letters, digits, dashes)?"""
    return bool(_CID.fullmatch(cid))


def seat_dir(session_path: str | os.PathLike[str], cid: str) -> Path:
    """The folder of one character's seat."""
    if not _CID.fullmatch(cid):
        raise SeatError(said(N_("'{cid}' is not a character id a seat folder can have"), cid=str(cid)))
    return spool_dir(session_path) / cid


_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
"""A spool folder is opened as itself: never through a symbolic link, never blocking."""


class SpoolError(SeatError):
    """The spool folder (or a seat's) is not a plain folder: nothing is read or written there."""


def _open_dir(name: str | os.PathLike[str], dir_fd: int | None = None, *, create: bool = False) -> int:
    """Open a folder without following a link (``create``: make it first if missing); a file descriptor."""
    if create:
        try:
            os.mkdir(name, dir_fd=dir_fd)
        except FileExistsError:
            pass
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
    except OSError as e:
        if e.errno in (errno.ELOOP, errno.ENOTDIR):
            raise SpoolError(said(N_("{name} is not a plain folder (a symbolic link or a file)"), name=str(os.fspath(name)))) from None
        raise


def _open_seat_dir(session_path: str | os.PathLike[str], cid: str, *, create: bool = False) -> int:
    """The seat folder's descriptor, reached through the spool folder's (neither followed as a link)."""
    if not _CID.fullmatch(cid):
        raise SeatError(said(N_("'{cid}' is not a character id a seat folder can have"), cid=str(cid)))
    root = _open_dir(spool_dir(session_path), create=create)
    try:
        return _open_dir(cid, root, create=create)
    finally:
        os.close(root)


def _write_atomic(session_path: str | os.PathLike[str], cid: str, name: str, data: bytes) -> Path:
    """Write ``name`` into ``cid``'s seat folder whole or not at all: a temporary name, fsync, rename.

    Both folders are opened without following links, so a folder replaced by a
    link never sends the file elsewhere.
    """
    folder = _open_seat_dir(session_path, cid, create=True)
    tmp = f".{name}.tmp-{os.getpid()}-{secrets.token_hex(4)}"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o660,
                     dir_fd=folder)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
        except BaseException:
            try:
                os.unlink(tmp, dir_fd=folder)
            except OSError:
                pass
            raise
    finally:
        os.close(folder)
    return seat_dir(session_path, cid) / name


def prepare_spool(session_path: str | os.PathLike[str], cids: list[str]) -> Path:
    """Make the spool folder and these characters' seat folders (none followed as a link); the spool's path.

    Raises :class:`SpoolError` when one of them is a link or a file, OSError when it cannot be made.
    """
    for cid in cids:
        os.close(_open_seat_dir(session_path, cid, create=True))
    if not cids:
        os.close(_open_dir(spool_dir(session_path), create=True))
    return spool_dir(session_path)


# ---------------------------------------------------------------------------
# offers: the GM asks a seat for a roll (tracker commands)


class _PublicOfferBase(TypedDict):
    seq: int
    cid: str
    test: str
    pool: dict[str, object]
    hidden: bool
    very_demanding: bool
    challenge: str | None
    text: str
    opposition: dict[str, object]


class PublicOffer(_PublicOfferBase, total=False):
    """A roll request as the players' file publishes it and a seat reads it (:meth:`Offer.public`): a
    hidden threshold (S8) is left out."""

    threshold: int | None


@dataclass(frozen=True)
class Offer:
    """A roll the GM asked a character's player for (a ``seat`` event of the log)."""

    seq: int
    """The event that made it (its id in requests)."""
    cid: str
    test: str
    """One of :data:`OFFER_TESTS`."""
    pool: dict[str, object]
    """SR: the :class:`SRPool` fields (``count`` for its ``dice``); Harhapolku: the :class:`HarhaSide` claims.
    Kept in the event as ``ask.spec`` (the file's checks give ``pool`` and ``dice`` other meanings)."""
    threshold: int | None = None
    hidden: bool = False
    very_demanding: bool = False
    challenge: str | None = None
    text: str = ""
    opposition: dict[str, object] = field(default_factory=dict)
    """Rajapolku: the opposing pool the GM prepared (label, backgrounds, conditions; R3, R4)."""

    def public(self) -> PublicOffer:
        """What the player may see of it: everything but a hidden threshold (S8)."""
        out: PublicOffer = {"seq": self.seq, "cid": self.cid, "test": self.test, "pool": clone(self.pool),
                               "hidden": self.hidden, "very_demanding": self.very_demanding,
                               "challenge": self.challenge, "text": self.text,
                               "opposition": clone(self.opposition)}
        if not self.hidden:
            out["threshold"] = self.threshold
        return out

    @classmethod
    def from_public(cls, d: Mapping[str, object]) -> "Offer":
        """An offer as a seat knows it (from the players' file, JSON of any shape): a hidden threshold is None.

        Raises:
            KeyError, TypeError, ValueError: a field missing or of another kind (the seat leaves the offer out).
        """
        thr, challenge = d.get("threshold"), d.get("challenge")
        return cls(number_of(d["seq"]), str(d["cid"]), str(d["test"]), table_of(d.get("pool", {})),
                   thr if isinstance(thr, int) and not d.get("hidden") else None, bool(d.get("hidden")),
                   bool(d.get("very_demanding")), challenge if isinstance(challenge, str) else None,
                   str(d.get("text", "")), table_of(d.get("opposition", {}), strict=False))


number_of = whole
"""A number read back from JSON (:func:`polku.session.model.whole`)."""


def table_of(value: object, *, strict: bool = True) -> dict[str, object]:
    """A copy of a JSON table read back (``{}`` for another value when not ``strict``); TypeError otherwise."""
    if isinstance(value, dict):
        return {str(k): clone(v) for k, v in value.items()}
    if strict:
        raise TypeError(f"{type(value).__name__} is not a table")
    return {}


def _check_seat_character(t: Tracker, cid: str) -> Character:
    ch = t.characters.get(cid)
    if ch is None:
        raise SeatError(said(N_("no character '{cid}'"), cid=str(cid)))
    if ch.get("secret"):
        raise SeatError(said(N_("{name} is secret: a secret character has no seat"), name=str(ch['name'])))
    return ch


def _sr_pool_dict(pool: SRPool) -> dict[str, Any]:
    return {"mode": pool.mode, "skill": pool.skill, "attribute": pool.attribute, "second": pool.second,
            "count": pool.dice, "modifiers": [[str(n), int(v)] for n, v in pool.modifiers]}


def sr_pool_of(offer: Offer, *, edge_before: bool = False) -> SRPool:
    p = offer.pool
    return SRPool(mode=str(p.get("mode", "skill")), skill=str(p.get("skill", "")),
                  attribute=str(p.get("attribute", "agility")), second=str(p.get("second", "strength")),
                  dice=number_of(p.get("count", 0)), modifiers=_modifier_rows(p.get("modifiers", [])),
                  edge_before=edge_before)


def _modifier_rows(value: object) -> list[tuple[str, int]]:
    """A pool's modifier rows read back (``[[label, value], …]``); TypeError or ValueError for another shape."""
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"'{type(value).__name__}' is not a list of modifier rows")
    rows: list[tuple[str, int]] = []
    for row in value:
        if not isinstance(row, (list, tuple)) or len(row) != 2:
            raise ValueError(f"a modifier row is [label, value], not {row!r}")
        rows.append((str(row[0]), number_of(row[1])))
    return rows


def _names(value: object) -> list[str]:
    """A list of names read back: its strings (``[]`` for a value that is no list)."""
    return [v for v in value if isinstance(v, str)] if isinstance(value, (list, tuple)) else []


def _claim(value: object) -> str | None:
    """A Harhapolku claim read back (the skill or trait named), None for none."""
    return value if isinstance(value, str) else None


def harha_side_of(t: Tracker, offer: Offer) -> HarhaSide:
    p = offer.pool
    ch = t.character(offer.cid)
    return HarhaSide(ch["name"], [offer.cid], general=_claim(p.get("general")), background=_claim(p.get("background")),
                     significant=_claim(p.get("significant")), special=_claim(p.get("special")),
                     significant_special=_claim(p.get("significant_special")), gm_bonus=bool(p.get("gm_bonus")))


def ask_sr(t: Tracker, cid: str, pool: SRPool, *, threshold: int | None = None, hidden: bool = False,
           challenge: str | None = None) -> Event:
    """Ask ``cid``'s seat for a Varjojuoksu success test with ``pool`` (S1, S8); logged, undoable.

    With ``hidden`` the threshold stays with the GM (the seat sees the pool and the odds of hits).
    """
    ch = _check_seat_character(t, cid)
    if t.system.value != "shadowrun":
        raise SeatError(said(N_("a Varjojuoksu roll request needs a Varjojuoksu campaign")))
    if threshold is not None and threshold < 0:
        raise SeatError(said(N_("the threshold is 0 or more (S8)")))
    if challenge is not None:
        t.challenge(challenge)
    side = t.rolls.sr_side(cid, pool)
    plan = t.rolls.sr_plan(side)
    if threshold is None:
        thr = ""
    else:
        thr = ", threshold hidden by the GM" if hidden else f", threshold {threshold}"
    text = f"The GM asks {ch['name']} to roll: {plan.explain()[0]}{thr}"
    ask = {"test": "sr-success", "spec": _sr_pool_dict(pool), "hidden": bool(hidden and threshold is not None)}
    fact: dict[str, Any] = {"id": "seat.ask_sr", "name": ch["name"], "pool_line": step_of(plan.explain()[0]) or {}}
    if threshold is not None:
        ask["threshold"] = int(threshold)
        fact.update({"hidden_threshold": True} if hidden else {"threshold": int(threshold)})
    if challenge:
        ask["challenge"] = challenge
    return _log_offer(t, cid, text, ask, fact)


def ask_harha(t: Tracker, cid: str, side: HarhaSide, *, very_demanding: bool = False,
              challenge: str | None = None) -> Event:
    """Ask ``cid``'s seat for a Harhapolku difficult action with these claims (H2, H8); logged, undoable."""
    ch = _check_seat_character(t, cid)
    if t.system.value != "harhapolku":
        raise SeatError(said(N_("a Harhapolku roll request needs a Harhapolku campaign")))
    if challenge is not None:
        t.challenge(challenge)
    what = "very demanding" if very_demanding else "difficult"
    t.rolls.harha_difficult_notice(what.replace(" ", "_"))  # refused under sum + harha.sum_difficult = refuse
    dice = t.rolls.harha_difficult_dice(HarhaSide(ch["name"], [cid], general=side.general,
                                                  background=side.background, significant=side.significant,
                                                  special=side.special, significant_special=side.significant_special,
                                                  gm_bonus=side.gm_bonus))
    tiers = {"general": side.general, "background": side.background, "significant": side.significant,
             "special": side.special, "significant_special": side.significant_special}
    claims = {k: v for k, v in tiers.items() if v}
    text = f"The GM asks {ch['name']} to roll a {what} action: {len(dice)} dice"
    ask: dict[str, Any] = {"test": "harha-difficult", "spec": {**claims, "gm_bonus": bool(side.gm_bonus)},
                           "very_demanding": bool(very_demanding)}
    if challenge:
        ask["challenge"] = challenge
    return _log_offer(t, cid, text, ask, {"id": "seat.ask_harha", "name": ch["name"], "dice_count": len(dice),
                                          "very_demanding": bool(very_demanding)})


def _raja_claims(side: RajaSide) -> dict[str, Any]:
    return {"label": side.label, "backgrounds": list(side.backgrounds), "abilities": list(side.abilities),
            "helping": list(side.helping), "hindering": list(side.hindering)}


def ask_raja(t: Tracker, cid: str, side: RajaSide, opposition: RajaSide, *,
             challenge: str | None = None) -> Event:
    """Ask ``cid``'s seat to roll a Rajapolku challenge: their pool against the GM's (R1–R5); logged, undoable.

    The opposition is rolled with the program's dice together with the player's
    (R5: both sides roll at once); a secret character cannot be in it.
    """
    ch = _check_seat_character(t, cid)
    if t.system.value != "rajapolku":
        raise SeatError(said(N_("a Rajapolku roll request needs a Rajapolku campaign")))
    if any(w in t.characters and t.characters[w].get("secret") for w in opposition.who):
        raise SeatError(said(N_("a secret character is in the opposition: roll this one at the GM's screen")))
    if challenge is not None:
        t.challenge(challenge)
    mine = RajaSide(ch["name"], [cid], backgrounds=list(side.backgrounds), abilities=list(side.abilities),
                    helping=list(side.helping), hindering=list(side.hindering))
    a, b = t.rolls.raja_pools(mine, opposition)
    text = f"The GM asks {ch['name']} to roll: {len(a)} dice against {opposition.label}'s {len(b)}"
    ask: dict[str, Any] = {"test": "raja", "spec": _raja_claims(mine),
                           "against": {**_raja_claims(opposition), "who": list(opposition.who)}}
    if challenge:
        ask["challenge"] = challenge
    return _log_offer(t, cid, text, ask, {"id": "seat.ask_raja", "name": ch["name"], "a_count": len(a),
                                          "opposition_label": opposition.label, "b_count": len(b)})


def raja_sides_of(t: Tracker, offer: Offer) -> tuple[RajaSide, RajaSide]:
    p, o = offer.pool, offer.opposition
    ch = t.character(offer.cid)
    mine = RajaSide(ch["name"], [offer.cid], backgrounds=_names(p.get("backgrounds")),
                    abilities=_names(p.get("abilities")), helping=_names(p.get("helping")),
                    hindering=_names(p.get("hindering")))
    theirs = RajaSide(str(o.get("label", "GM")), _names(o.get("who")),
                      backgrounds=_names(o.get("backgrounds")), abilities=_names(o.get("abilities")),
                      helping=_names(o.get("helping")), hindering=_names(o.get("hindering")))
    return mine, theirs


def _log_offer(t: Tracker, cid: str, text: str, ask: dict[str, Any],
               fact: dict[str, Any] | None = None) -> Event:
    """Log the GM's request; ``fact``: what its line says, for each reader's language (never a hidden threshold)."""
    out: list[Event] = []

    def build(txn: Txn) -> None:
        out.append(txn.emit("seat", text, who=cid, ask=ask, fact=fact))

    t.run(build)
    return out[0]


def withdraw(t: Tracker, offer_seq: int) -> Event:
    """Take back a pending roll request (logged, undoable)."""
    offer = next((o for o in pending_offers(t) if o.seq == offer_seq), None)
    if offer is None:
        raise SeatError(said(N_("no pending roll request {offer_seq}"), offer_seq=str(offer_seq)))
    name = t.character(offer.cid)["name"] if offer.cid in t.characters else offer.cid
    out: list[Event] = []

    def build(txn: Txn) -> None:
        out.append(txn.emit("seat", f"The GM takes back the roll request to {name}", who=offer.cid,
                            withdraw=offer_seq, fact={"id": "seat.withdrawn", "name": name}))

    t.run(build)
    return out[0]


class RequestIndex:
    """Where the roll requests of a log stand, kept up to date as the log grows: each new event is looked at
    once (its kind from the stored block, without parsing it; a ``seat`` event, and a roll made after the first
    request, parsed), so :func:`pending_offers` reads the requests and what closed them, not the whole log.

    ``asks``: the positions of the ``seat`` events that ask for a roll, oldest first; ``closers``: a request's
    number → the positions of the events that closed it (a roll made from it, its withdrawal). Whether an
    event is undone is asked at each reading (an undo or a redo changes no position).
    """

    __slots__ = ("log", "seen", "asks", "closers")

    def __init__(self) -> None:
        self.log: object = None
        self.seen = 0
        self.asks: list[int] = []
        self.closers: dict[int, list[int]] = {}

    def update(self, events: Sequence[Event], *, same_log: bool = False) -> None:
        """Look at the events appended since the last call. ``same_log``: ``events`` is a copy of the log
        looked at before, or of it grown (the players' file's snapshots); otherwise another object starts
        over. A log shorter than what was seen starts over."""
        n = len(events)
        if (not same_log and events is not self.log) or n < self.seen:
            self.seen, self.asks, self.closers = 0, [], {}
        self.log = events
        meta = getattr(events, "meta", None)
        for i in range(self.seen, n):
            kind = meta(i).kind if meta is not None else events[i].get("kind", "")
            if kind == "roll" and not self.asks:
                continue  # no request yet: this roll closes none (the thousands before the first one are not parsed)
            if kind not in ("seat", "roll"):
                continue
            ev = events[i]
            if kind == "roll":
                if isinstance(ev.get("offer"), int):
                    self.closers.setdefault(ev["offer"], []).append(i)
            elif isinstance(ev.get("withdraw"), int):
                self.closers.setdefault(ev["withdraw"], []).append(i)
            else:
                self.asks.append(i)
        self.seen = n


_INDEXES: weakref.WeakKeyDictionary[Tracker, RequestIndex] = weakref.WeakKeyDictionary()
"""Each tracker's :class:`RequestIndex` (the GM's app asks for the open requests at every seat's request)."""


def pending_offers(t: Tracker, cid: str | None = None, *, index: RequestIndex | None = None) -> list[Offer]:
    """Roll requests not undone, not withdrawn and not rolled yet (oldest first); of ``cid`` only if given.

    ``index``: the requests of ``t``'s log as a :class:`RequestIndex` kept by the caller over copies of the
    log (brought up to date here); without it, one kept for ``t``."""
    if index is None:
        index = _INDEXES.get(t)
        if index is None:
            index = _INDEXES[t] = RequestIndex()
        index.update(t.events)
    else:
        index.update(t.events, same_log=True)
    out: list[Offer] = []
    events = t.events
    for i in index.asks:
        ev = events[i]
        seq = ev.get("seq")
        if not isinstance(seq, int) or t.is_undone(seq):
            continue
        ask = ev.get("ask")
        who = ev.get("who")
        if not isinstance(ask, dict) or not isinstance(who, str):
            continue
        if cid is not None and who != cid:
            continue
        if any(j > i and not _undone_at(t, j) for j in index.closers.get(seq, ())):
            continue  # rolled or withdrawn (and that not undone)
        if ask.get("test") not in OFFER_TESTS or not isinstance(ask.get("spec"), dict):
            continue
        thr, challenge = ask.get("threshold"), ask.get("challenge")
        out.append(Offer(seq, who, str(ask["test"]), table_of(ask["spec"]),
                         thr if isinstance(thr, int) else None, bool(ask.get("hidden")),
                         bool(ask.get("very_demanding")), challenge if isinstance(challenge, str) else None,
                         str(ev.get("text", "")), table_of(ask.get("against"), strict=False)))
    return out


def _undone_at(t: Tracker, i: int) -> bool:
    seq = t.events[i].get("seq")
    return not isinstance(seq, int) or t.is_undone(seq)


def seat_offers(t: Tracker, cid: str) -> list[PublicOffer]:
    """The pending roll requests of ``cid`` as its seat may see them (:meth:`Offer.public`)."""
    ch = t.characters.get(cid)
    if ch is None or ch.get("secret"):
        return []
    return [o.public() for o in pending_offers(t, cid)]


# ---------------------------------------------------------------------------
# what the seat shows before rolling: choices, odds, faces


@dataclass(frozen=True)
class SeatOdds:
    """The exact odds of an offer, for the seat (from :mod:`polku.rules.odds`)."""

    dice: int
    """Dice thrown (before any rule of six)."""
    success: float | None
    """P(success) when the seat may know the threshold (S8, H8); None when hidden."""
    at_least: tuple[float, ...] = ()
    """SR: P(at least k hits) for k = 1, 2, 3, 4 (what a player weighs against a hidden threshold)."""
    expected: float | None = None
    glitch: float | None = None
    critical_glitch: float | None = None
    explain: tuple[str, ...] = field(default_factory=tuple)
    """How the pool is built (the rules core's lines)."""
    tie: float | None = None
    """Rajapolku: P(a full tie) (R5)."""
    against: int | None = None
    """Rajapolku: the opposition's dice."""


def _offer(t: Tracker, cid: str, offer_seq: int) -> Offer:
    offer = next((o for o in pending_offers(t, cid) if o.seq == offer_seq), None)
    if offer is None:
        raise SeatError(N_("that roll request is no longer open (rolled, taken back or undone)"))
    return offer


def offer_choices(t: Tracker, offer: Offer) -> list[RollAction]:
    """What the player may choose before rolling (SR: Edge before the roll, S7)."""
    if offer.test != "sr-success":
        return []
    side = t.rolls.sr_side(offer.cid, sr_pool_of(offer))
    return [a for a in t.rolls.sr_pool_actions(side) if a.name == "edge_before"]


def offer_odds(t: Tracker, offer: Offer, *, edge_before: bool = False) -> SeatOdds:
    """The exact odds the seat shows: computed from the pool by the rules core."""
    from .. import odds

    settings = t.rolls.settings_for()
    if offer.test == "sr-success":
        side = t.rolls.sr_side(offer.cid, sr_pool_of(offer, edge_before=edge_before))
        n = t.rolls.sr_pool_dice(side)
        o = odds.sr(odds.SRQuestion(n, rule_of_six=t.rolls.sr_rule_of_six(side)), settings)
        thr = offer.threshold
        success = None if offer.hidden else (o.success(thr) if thr is not None else None)
        return SeatOdds(n, success, tuple(o.success(k) for k in (1, 2, 3, 4)), o.mean(), o.glitch,
                        o.critical_glitch, tuple(t.rolls.sr_plan(side).explain()))
    if offer.test == "raja":
        mine, theirs = raja_sides_of(t, offer)
        question = t.rolls.raja_question(mine, theirs)
        ro = odds.raja(question, settings)
        return SeatOdds(sum(question.a), ro.a_wins, tie=ro.tie, against=sum(question.b),
                        explain=tuple(t.rolls.raja_plan(mine).explain))
    side_h = harha_side_of(t, offer)
    variant = t.rolls.difficult_variant()
    pool = t.rolls.harha_pool(side_h, variant)
    counts = (sum(1 for d in pool.dice if d.size == 8), sum(1 for d in pool.dice if d.size == 10))
    demand = "very_demanding" if offer.very_demanding else "difficult"
    success = odds.success_of(odds.harha(odds.HarhaQuestion(counts, None, demand), settings))[0]
    return SeatOdds(len(t.rolls.harha_difficult_dice(side_h)), success, explain=tuple(pool.explain))


@dataclass(frozen=True)
class FacesPlan:
    """The physical dice a seat's player types for a roll or a follow-up (asked of the session layer).

    The first prompt asks ``count`` faces of ``sizes`` (one size for all, or each
    die's size in the order the roll throws them); with ``rule_of_six`` a
    prompt follows for each wave of sixes (S7: ``Rolls.sr_six_wave``). The GM's
    app checks the faces again on arrival: the roll itself takes them.
    """

    count: int
    sizes: int | tuple[int, ...]
    rule_of_six: bool = False
    order: tuple[str, ...] = ()
    """What each die is, in the order typed (``action``, a background's or an ability's name; an ability
    die starts with ``✦``), when the dice differ; empty when they do not."""


def _order(specs: Sequence[DieSpec]) -> tuple[str, ...]:
    from ...text import ABILITY_MARK

    return tuple((ABILITY_MARK if s.source == "ability" else "") + (s.label or str(s.source)) for s in specs)


def faces_plan(t: Tracker, offer: Offer, *, edge_before: bool = False) -> FacesPlan:
    """What to type for an offer's roll: the player's own pool, in the order the roll throws it.

    Rajapolku: only the player's side (R5: the GM's opposition is thrown with the
    program's dice in the same roll).
    """
    if offer.test == "raja":
        mine, theirs = raja_sides_of(t, offer)
        specs = t.rolls.raja_pools(mine, theirs)[0]
        return FacesPlan(len(specs), tuple(s.size for s in specs), order=_order(specs))
    if offer.test == "harha-difficult":
        specs = t.rolls.harha_dice(harha_side_of(t, offer), "ch23")
        return FacesPlan(len(specs), tuple(s.size for s in specs), order=_order(specs))
    side = t.rolls.sr_side(offer.cid, sr_pool_of(offer, edge_before=edge_before))
    return FacesPlan(max(0, t.rolls.sr_pool_dice(side)), 6, t.rolls.sr_rule_of_six(side))


def follow_up_plan(t: Tracker, roll_event: Event, name: str, cid: str) -> FacesPlan:
    """What to type for a follow-up of ``cid``'s own roll: Edge after (S7, its sixes explode), an edge
    reroll (H7, the whole roll again); nothing for negating or reducing a glitch (S5, S6)."""
    roll = roll_of(roll_event)
    role = next((str(s.get("role")) for s in roll["sides"] if cid in s.get("who", [])), "a")
    if name == "edge_reroll":
        sizes = t.rolls.harha_reroll_dice(roll_event, role)
        dice = next((s["dice"] for s in roll["sides"] if s.get("role") == role), [])
        order = tuple(str(d.get("label") or d.get("source", "")) for d in dice) if len(dice) == len(sizes) else ()
        return FacesPlan(len(sizes), tuple(sizes), order=order)
    n = t.rolls.sr_follow_up_dice(roll_event, name, role)
    return FacesPlan(n, 6, n > 0)


def physical(roll_event: Event | None) -> bool:
    """Were this roll's dice (some of them) entered by hand? Its follow-ups are then typed too."""
    return bool(roll_event and roll_of(roll_event).get("manual"))


# ---------------------------------------------------------------------------
# requests (the seat writes them, the GM's app reads them)


def write_request(session_path: str | os.PathLike[str], cid: str, kind: str, **fields: object) -> str:
    """Write one request of ``cid``'s seat into its folder; returns the request's id."""
    if kind not in REQUEST_KINDS:
        raise SeatError(said(N_("unknown request '{kind}'"), kind=str(kind)))
    rid = secrets.token_hex(8)
    body = {"v": 1, "id": rid, "seat": cid, "kind": kind, "at": time.time(), **fields}
    data = json.dumps(body, separators=(",", ":")).encode()
    if len(data) > MAX_REQUEST_BYTES:
        raise SeatError(said(N_("that request is too large")))
    _write_atomic(session_path, cid, f"req-{rid}.json", data)
    return rid


def read_answer(session_path: str | os.PathLike[str], cid: str, rid: str) -> dict[str, object] | None:
    """The GM's app's answer to request ``rid`` as JSON read back (any values: the reader narrows them), or
    None while there is none (or it is no JSON table)."""
    if not _ID.fullmatch(rid):
        return None
    try:
        data = (seat_dir(session_path, cid) / f"ans-{rid}.json").read_bytes()
    except OSError:
        return None
    try:
        ans = json.loads(data[:MAX_REQUEST_BYTES * 4])
    except ValueError:
        return None
    return {str(k): v for k, v in ans.items()} if isinstance(ans, dict) else None


def waiting(session_path: str | os.PathLike[str], cid: str) -> list[str]:
    """Ids of this seat's requests the GM's app has not picked up yet."""
    try:
        names = os.listdir(seat_dir(session_path, cid))
    except OSError:
        return []
    return sorted(m.group(1) for n in names if (m := _REQUEST_NAME.fullmatch(n)))


MAX_PER_SEAT = 16
"""At most this many requests of one seat are taken in one look into the spool (the rest wait for the
next look), so a seat that floods its folder neither stalls the GM's app nor holds up the other seats."""
MAX_SEATS = 200
"""At most this many seat folders are looked into."""

_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
"""A request file is opened as itself: never through a link, never waiting on a pipe."""


@dataclass(frozen=True)
class Taken:
    """A request taken out of a seat's folder: its checked content, or why it is refused."""

    cid: str
    """The seat folder it was in (a valid character id; nothing says the character exists)."""
    rid: str
    """The id in its file name."""
    request: SeatRequest | None
    """The request as :func:`parse_request` checked it; None when refused."""
    refused: str = ""
    """Why it is refused (one line that repeats nothing of the file)."""
    held: bool = False
    """Read back from the seat's folder, where it waited for the GM's approval (:func:`held_requests`)."""


@dataclass
class Look:
    """What one look into the spool took (:func:`take_requests`)."""

    taken: list[Taken] = field(default_factory=list)
    more: bool = False
    """Requests were left for the next look (a seat over :data:`MAX_PER_SEAT`)."""
    problem: str = ""
    """The spool folder itself cannot be used (one line), or empty."""
    seat_problems: dict[str, str] = field(default_factory=dict)
    """Seat folder (character id) → what keeps the GM's app from taking its requests and what to fix
    (one line each): a group permission missing on the folder or on the request files."""
    looked: set[str] = field(default_factory=set)
    """The seat folders looked into (a problem of one not here is not known to be gone)."""


SEAT_CANNOT_OPEN = N_("the GM's app may not open this seat's folder: give the GM's account the folder's group,"
                    " with rwx for the group (chmod 2770; docs/remote-play.md)")
SEAT_CANNOT_REMOVE = N_("the GM's app may not remove this seat's requests: the seat folder must be writable by the"
                      " GM's account (its group, chmod 2770; docs/remote-play.md)")
SEAT_CANNOT_READ = N_("the GM's app may not read this seat's requests: they must be readable by the seat folder's"
                    " group (the player's umask 022 or 027, the GM's account in that group; docs/remote-play.md)")
SEAT_CANNOT_ANSWER = N_("the GM's app may not write answers into this seat's folder: it must be writable by the"
                      " GM's account (its group, chmod 2770; docs/remote-play.md)")
"""What a seat's folder permissions keep the GM's app from doing, and what to fix (shown to the GM, and in
the players' file to that seat, which then stops waiting)."""
UNREADABLE_REQUEST = N_("the GM's app may not read the request file (see the seats' folder permissions)")
_STUCK = object()
"""A request the GM's app may not remove: not applied (it would be applied again at every look)."""


def take_requests(session_path: str | os.PathLike[str], *, per_seat: int = MAX_PER_SEAT) -> Look:
    """Take the waiting requests out of every seat's folder, oldest first, each read and checked.

    Runs off the GM's UI thread: it only touches the spool. The spool folder and
    each seat folder are opened without following links; a request file is read
    only when it is a plain file with one name (opened with ``O_NOFOLLOW`` and
    ``O_NONBLOCK``, checked with ``fstat``), at most :data:`MAX_REQUEST_BYTES`
    of it, and removed. Whatever else is named like a request is removed and
    refused with a reason; other names are left alone (a seat's temporary file
    goes once older than :data:`STALE_TEMP_SECONDS`).
    """
    look = Look()
    try:
        root = _open_dir(spool_dir(session_path))
    except FileNotFoundError:
        return look
    except SpoolError as e:
        look.problem = str(e)
        return look
    except OSError as e:
        look.problem = f"the seats' folder cannot be opened: {e.strerror or e}"
        return look
    try:
        with os.scandir(root) as it:
            names = sorted(e.name for e in it if _CID.fullmatch(e.name) and e.is_dir(follow_symlinks=False))
        for cid in names[:MAX_SEATS]:
            try:
                folder = _open_dir(cid, root)
            except PermissionError:
                look.seat_problems[cid] = SEAT_CANNOT_OPEN
                look.looked.add(cid)
                continue
            except OSError:
                continue  # a link, or gone: never looked into
            look.looked.add(cid)
            try:
                more = _take_from(folder, cid, per_seat, look)
            except PermissionError:
                look.seat_problems[cid] = SEAT_CANNOT_OPEN  # may enter it, not list it
                more = False
            finally:
                os.close(folder)
            look.more = look.more or more
    finally:
        os.close(root)
    return look


def _take_from(folder: int, cid: str, limit: int, look: Look) -> bool:
    """Take up to ``limit`` requests from one seat folder into ``look``; True when more are waiting."""
    out = look.taken
    now = time.time()
    found: list[tuple[float, str]] = []
    with os.scandir(folder) as it:
        for e in it:
            name = e.name
            if name.startswith(".req-") and ".tmp-" in name:
                try:
                    if now - e.stat(follow_symlinks=False).st_mtime > STALE_TEMP_SECONDS:
                        os.unlink(name, dir_fd=folder)
                except OSError:
                    pass
                continue
            if not _REQUEST_NAME.fullmatch(name) or e.is_dir(follow_symlinks=False):
                continue
            try:
                found.append((e.stat(follow_symlinks=False).st_mtime, name))
            except OSError:
                continue
    found.sort()
    for _, name in found[:limit]:
        rid = name[4:-5]
        got = _take_one(folder, name)
        if got is _STUCK:
            look.seat_problems[cid] = SEAT_CANNOT_REMOVE
            continue
        if got is None:
            continue  # gone already: no answer
        if isinstance(got, str):
            if got == UNREADABLE_REQUEST:
                look.seat_problems.setdefault(cid, SEAT_CANNOT_READ)
            out.append(Taken(cid, rid, None, got))
            continue
        assert isinstance(got, bytes)
        try:
            out.append(Taken(cid, rid, parse_request(got, cid, rid)))
        except SeatError as e:
            out.append(Taken(cid, rid, None, reason_of(e)))
    return len(found) > limit


def _take_one(folder: int, name: str) -> bytes | str | object | None:
    """Read and remove one request file: its bytes, why it is refused, None when it is not there, or
    :data:`_STUCK` when the GM's app may not remove it."""
    got = _read_one(folder, name)
    if got is None:
        return None
    try:
        os.unlink(name, dir_fd=folder)
    except PermissionError:
        return _STUCK
    except OSError:
        return None  # whoever removes it answers it (a folder named like a request stays, unanswered)
    return got


def _read_one(folder: int, name: str) -> bytes | str | None:
    """Read one request file as itself (never through a link, never waiting on a pipe, at most
    :data:`MAX_REQUEST_BYTES`): its bytes, why it is refused, or None when it is not there."""
    refused = ""
    data = b""
    try:
        fd = os.open(name, _FILE_FLAGS, dir_fd=folder)
    except FileNotFoundError:
        return None
    except OSError as e:
        if e.errno == errno.ELOOP:
            refused = N_("the request is a symbolic link, not a file")
        elif e.errno in (errno.EACCES, errno.EPERM):
            refused = UNREADABLE_REQUEST
        else:
            refused = N_("the request file cannot be read")
    else:
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                refused = N_("the request is not a plain file")
            elif st.st_nlink != 1:
                refused = N_("the request file has other names (a hard link)")
            elif st.st_size > MAX_REQUEST_BYTES:
                refused = said(N_("request too large ({size} bytes, at most {most})"), size=st.st_size,
                               most=MAX_REQUEST_BYTES)
            else:
                chunks: list[bytes] = []
                size = 0
                while size <= MAX_REQUEST_BYTES:
                    chunk = os.read(fd, MAX_REQUEST_BYTES + 1 - size)
                    if not chunk:
                        break
                    chunks.append(chunk)
                    size += len(chunk)
                data = b"".join(chunks)
        except OSError:
            refused = N_("the request file cannot be read")
        finally:
            os.close(fd)
    return refused or data


# ---------------------------------------------------------------------------
# requests held for the GM's approval (they outlive the GM's app)

_HELD_NAME = re.compile(r"held-([0-9a-f]{16})\.json")


def hold(session_path: str | os.PathLike[str], cid: str, request: SeatRequest) -> Path:
    """Keep a checked request that waits for the GM's approval in its seat's folder (``held-<id>.json``,
    atomically; neither folder followed as a link), so that it still waits when the GM's app is opened
    again after a quit or a crash (:func:`held_requests`). :func:`release` removes it once decided."""
    rid = str(request.get("id", ""))
    if not _ID.fullmatch(rid):
        raise SeatError(said(N_("a held request needs its id")))
    return _write_atomic(session_path, cid, f"held-{rid}.json", json.dumps(request, separators=(",", ":")).encode())


def release(session_path: str | os.PathLike[str], cid: str, rid: str) -> None:
    """The GM decided a held request (approved, refused, or it can no longer be made): it is held no more."""
    if not _ID.fullmatch(rid):
        return
    try:
        folder = _open_seat_dir(session_path, cid)
    except (OSError, SeatError):
        return
    try:
        os.unlink(f"held-{rid}.json", dir_fd=folder)
    except OSError:
        pass
    finally:
        os.close(folder)


def held_requests(session_path: str | os.PathLike[str]) -> Look:
    """The requests held for the GM's approval when the GM's app last ran (:func:`hold`), oldest first, each
    read as safely as a request (:func:`take_requests`: no link followed, plain files of one name, bounded)
    and checked again by :func:`parse_request` (the folder still names the seat); nothing is removed here.
    Each is :attr:`Taken.held`; one refused is answered and released like any decided one."""
    look = Look()
    try:
        root = _open_dir(spool_dir(session_path))
    except OSError:
        return look
    try:
        with os.scandir(root) as it:
            names = sorted(e.name for e in it if _CID.fullmatch(e.name) and e.is_dir(follow_symlinks=False))
        for cid in names[:MAX_SEATS]:
            try:
                folder = _open_dir(cid, root)
            except OSError:
                continue
            try:
                with os.scandir(folder) as it:
                    found = sorted((e.stat(follow_symlinks=False).st_mtime, m.group(1), e.name) for e in it
                                   if (m := _HELD_NAME.fullmatch(e.name)))
                for _, rid, name in found[:MAX_PER_SEAT]:
                    got = _read_one(folder, name)
                    if got is None:
                        continue
                    if isinstance(got, str):
                        look.taken.append(Taken(cid, rid, None, got, held=True))
                        continue
                    try:
                        look.taken.append(Taken(cid, rid, parse_request(got, cid, rid), held=True))
                    except SeatError as e:
                        look.taken.append(Taken(cid, rid, None, reason_of(e), held=True))
            except OSError:
                continue
            finally:
                os.close(folder)
    finally:
        os.close(root)
    return look


def incoming(session_path: str | os.PathLike[str]) -> list[tuple[str, Path]]:
    """The request files waiting in the spool: (the seat folder's character id, the file), oldest first
    (at most :data:`MAX_PER_SEAT` a seat). Only names are listed: :func:`handle` reads each safely."""
    root = spool_dir(session_path)
    out: list[tuple[float, str, Path]] = []
    try:
        rfd = _open_dir(root)
    except OSError:
        return []
    try:
        with os.scandir(rfd) as it:
            cids = sorted(e.name for e in it if _CID.fullmatch(e.name) and e.is_dir(follow_symlinks=False))
        for cid in cids[:MAX_SEATS]:
            try:
                folder = _open_dir(cid, rfd)
            except OSError:
                continue
            try:
                with os.scandir(folder) as it:
                    found = sorted((e.stat(follow_symlinks=False).st_mtime, e.name) for e in it
                                   if _REQUEST_NAME.fullmatch(e.name) and not e.is_dir(follow_symlinks=False))
            except OSError:
                found = []
            finally:
                os.close(folder)
            out.extend((m, cid, root / cid / n) for m, n in found[:MAX_PER_SEAT])
    finally:
        os.close(rfd)
    out.sort()
    return [(cid, p) for _, cid, p in out]


def parse_request(data: bytes, cid: str, rid: str) -> SeatRequest:
    """Check a request's bytes; return it, or raise :class:`SeatError` with one line.

    ``cid`` is the seat folder the file was in and ``rid`` the id in its name:
    the request must say the same, so a seat folder only speaks for its own
    character.
    """
    if len(data) > MAX_REQUEST_BYTES:
        raise SeatError(said(N_("request too large ({size} bytes, at most {most})"), size=len(data),
                             most=MAX_REQUEST_BYTES))
    try:
        req = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise SeatError(N_("the request is not valid JSON")) from None
    except RecursionError:
        raise SeatError(N_("the request is nested too deep")) from None
    if not isinstance(req, dict):
        raise SeatError(N_("the request is not a JSON object"))
    kind = req.get("kind")
    if kind not in REQUEST_KINDS:
        raise SeatError(N_("unknown request kind"))  # never echoed: a refusal repeats nothing of the file
    allowed: dict[str, type | tuple[type, ...]] = {**_COMMON, **_FIELDS[kind]}
    extra = sorted(set(req) - set(allowed))
    if extra:
        raise SeatError(said(N_("a field a {kind} request does not have"), kind=kind))
    for name, types in allowed.items():
        if name in req and (not isinstance(req[name], types) or (isinstance(req[name], bool)
                                                                  and bool not in _as_tuple(types))):
            raise SeatError(said(N_("field '{name}' has the wrong type"), name=name))
    if req.get("v") != 1:
        raise SeatError(N_("unknown request version"))
    if req.get("id") != rid:
        raise SeatError(N_("the request's id does not match its file name"))
    if req.get("seat") != cid:
        raise SeatError(said(N_("a request in {folder}'s seat folder speaks for another seat"), folder=cid))
    faces = req.get("faces")
    if faces is not None and (len(faces) > MAX_FACES or not all(
            isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= 10 for f in faces)):
        raise SeatError(said(N_("faces must be at most {most} whole numbers from 1 to 10"), most=MAX_FACES))
    for name in ("bought", "edge", "action", "test", "key"):
        value = req.get(name)
        if isinstance(value, str) and (len(value) > MAX_TEXT or any(ord(c) < 32 for c in value)):
            raise SeatError(said(N_("field '{name}' is too long or not one line"), name=name))
    for name in ("offer", "roll"):
        if name in req and req[name] < 1:
            raise SeatError(said(N_("field '{name}' must be a positive event number"), name=name))
    need = {"roll": ("offer",), "action": ("roll", "action"), "story_point": ("bought",), "own": ("test",)}[kind]
    missing = [n for n in need if n not in req]
    if missing:
        raise SeatError(said(N_("a {kind} request needs '{field}'"), kind=kind, field=missing[0]))
    checked: SeatRequest = cast(SeatRequest, req)  # every field checked above, by name and type
    return checked


def _as_tuple(types: type | tuple[type, ...]) -> tuple[type, ...]:
    return types if isinstance(types, tuple) else (types,)


def _seat_actions(t: Tracker, cid: str, ev: Event | None) -> list[RollAction]:
    """The follow-ups of a roll that belong to ``cid`` (its own side) and a seat may ask for."""
    if ev is None:
        return []
    return [a for a in t.rolls.roll_actions(ev) if a.who == cid and a.name in SEAT_ACTIONS]


def action_json(a: RollAction) -> ActionAnswer:
    """A follow-up as an answer lists it: its reason in English and, when it keeps them, its words (the seat
    tells them in its reader's language)."""
    out: ActionAnswer = {"name": a.name, "allowed": a.allowed, "reason": str(a.reason), "edge": a.edge}
    words = words_of(a.reason)
    if words is not None:
        out["words"] = [words[0], dict(words[1])]
    return out


def apply_request(t: Tracker, cid: str, req: SeatRequest) -> SeatAnswer:
    """Carry out a checked request as a command marked with the seat; return the answer (never raises
    for a refusal: the answer says why, and nothing changed)."""
    rid = req["id"]
    try:
        ch = t.characters.get(cid)
        if ch is None or ch.get("secret"):
            # Never named: a folder named after a secret character learns nothing of it.
            raise SeatError(N_("no character has a seat in this folder"))
        kind = req["kind"]
        with t.by_seat(cid):
            if kind == "roll":
                ev = _apply_roll(t, cid, req)
                return _answer(rid, True, said(ROLLS, name=ch["name"]), ev, t, cid)
            if kind == "action":
                ev = _apply_action(t, cid, req)
                return _answer(rid, True, said(N_("{name}: done (the new dice are in the log)"), name=ch["name"]), ev,
                               t, cid)
            if kind == "own":
                raise SeatError(said(N_("a seat's own roll is answered by seat_rolls.answer")))
            if "story_points" not in ch:
                raise SeatError(N_("story points are a Rajapolku resource (R12)"))
            t.spend_story_point(cid, str(req["bought"]))
            return _answer(rid, True, said(N_("{name} spends a story point"), name=ch["name"]), None, t, cid)
    except (SeatError, TrackerError, RulesError) as e:
        return _answer(rid, False, reason_of(e), None, t, cid)


def _answer(rid: str, ok: bool, text: str, ev: Event | None, t: Tracker, cid: str) -> SeatAnswer:
    """An answer: its line in English (``text``) and, when the line keeps them (:class:`polku.i18n.Said`), its
    catalogue message and values (``words``), which the seat tells in its reader's language."""
    out: SeatAnswer = {"v": 1, "id": rid, "ok": ok, "text": str(text)}
    words = words_of(text)
    if words is not None:
        out["words"] = [words[0], dict(words[1])]
    if ev is not None:
        out["roll"] = ev["seq"]
        out["actions"] = [action_json(a) for a in _seat_actions(t, cid, ev)]
    return out


def _apply_roll(t: Tracker, cid: str, req: SeatRequest) -> Event:
    offer = _offer(t, cid, req["offer"])
    faces = req.get("faces")
    edge_before = bool(req.get("edge_before", False))
    t.seat_offer = offer.seq
    try:
        if offer.test == "sr-success":
            if edge_before:
                act = next((a for a in offer_choices(t, offer) if a.name == "edge_before"), None)
                if act is None or not act.allowed:
                    raise SeatError(act.reason if act is not None else N_("Edge before the roll is not allowed here"))
            side = t.rolls.sr_side(cid, sr_pool_of(offer, edge_before=edge_before))
            ev = t.rolls.roll_sr(side, threshold=offer.threshold, hidden=offer.hidden, challenge=offer.challenge,
                           faces=faces)["event"]
        elif offer.test == "sr-defend":
            raise SeatError(said(N_("a defence is answered by seat_rolls.answer")))
        elif offer.test == "raja":
            if edge_before:
                raise SeatError(N_("Edge before the roll is a Varjojuoksu rule (S7)"))
            mine, theirs = raja_sides_of(t, offer)
            # The player's faces for their own pool; the GM's side is the program's, in the same roll (R5).
            ev = t.rolls.roll_raja(mine, theirs, challenge=offer.challenge,
                                   faces=None if faces is None else (faces, None))["event"]
        else:
            if edge_before:
                raise SeatError(N_("Edge before the roll is a Varjojuoksu rule (S7)"))
            ev = t.rolls.roll_harha_difficult(harha_side_of(t, offer), very_demanding=offer.very_demanding,
                                        challenge=offer.challenge, faces=faces)["event"]
    finally:
        t.seat_offer = None
    rolled: Event = ev
    return rolled


def _apply_action(t: Tracker, cid: str, req: SeatRequest) -> Event:
    name = req["action"]
    if name not in SEAT_ACTIONS:
        raise SeatError(said(N_("a seat cannot ask for that action (only {actions})"), actions=", ".join(SEAT_ACTIONS)))
    seq = req["roll"]
    mine = N_("a seat can only change its own roll, made from that seat")
    try:
        ev = t.event_by_seq(seq)
    except KeyError:
        raise SeatError(mine) from None
    if ev.get("kind") != "roll" or ev.get("seat") != cid or t.is_undone(seq):
        raise SeatError(mine)
    edge = req.get("edge", "")
    acts = [a for a in _seat_actions(t, cid, ev) if a.name == name and (not edge or a.edge == edge)]
    if not acts:
        raise SeatError(said(N_("'{action}' cannot be done to this roll"), action=name))
    act = next((a for a in acts if a.allowed), acts[0])
    if not act.allowed:
        raise SeatError(act.reason)
    out = t.rolls.do_roll_action(ev, name, role=act.role, edge=act.edge, faces=req.get("faces"))
    new: Event | None = out.get("event")
    if new is None:
        raise SeatError(N_("nothing was rolled"))
    return new


def write_answer(session_path: str | os.PathLike[str], cid: str, answer: SeatAnswer) -> Path:
    """Write the GM's app's answer into the seat's folder (atomically; neither folder followed as a link)."""
    rid = answer["id"]
    if not _ID.fullmatch(rid):
        raise SeatError(said(N_("an answer needs the request's id")))
    return _write_atomic(session_path, cid, f"ans-{rid}.json", json.dumps(answer, separators=(",", ":")).encode())


SEAT_NOT_A_FOLDER = ("the GM's app writes no answer into this seat's folder: it is a symbolic link or a file, not a"
                     " folder; remove it (the seat makes its folder again when it opens)")
SEAT_ANSWER_FAILED = ("the GM's app could not write its answer into this seat's folder ({why}): check that disk and"
                      " the folder's permissions (docs/remote-play.md); the roll stands in the log")


def deliver(session_path: str | os.PathLike[str], answers: Iterable[tuple[str, SeatAnswer]]) -> dict[str, str]:
    """Write each ``(seat folder, answer)`` with :func:`write_answer`; for a seat whose answer could not be
    written, what kept the GM's app from it and what to fix (one line, for the GM; nothing else changes:
    the command answered stands in the log)."""
    lost: dict[str, str] = {}
    for cid, ans in answers:
        try:
            write_answer(session_path, cid, ans)
        except PermissionError:
            lost[cid] = SEAT_CANNOT_ANSWER
        except SpoolError:
            lost[cid] = SEAT_NOT_A_FOLDER
        except (OSError, SeatError) as e:
            why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            lost[cid] = SEAT_ANSWER_FAILED.format(why=why)
    return lost


def refusal(taken: Taken) -> SeatAnswer:
    """The answer to a request refused before it was applied (with its words, when the reason keeps them)."""
    out: SeatAnswer = {"v": 1, "id": taken.rid, "ok": False, "text": str(taken.refused)}
    words = words_of(taken.refused)
    if words is not None:
        out["words"] = [words[0], dict(words[1])]
    return out


def answer(t: Tracker, taken: Taken) -> SeatAnswer:
    """Apply a taken request (a command marked with its seat) or refuse it; the answer to write."""
    return apply_request(t, taken.cid, taken.request) if taken.request is not None else refusal(taken)


def handle(t: Tracker, session_path: str | os.PathLike[str], cid: str, path: Path) -> SeatAnswer | None:
    """Take one request file, check it, apply it and answer. Returns the answer (None: no request there)."""
    m = _REQUEST_NAME.fullmatch(path.name)
    if m is None:
        return None
    try:
        folder = _open_seat_dir(session_path, cid)
    except (OSError, SeatError):
        return None
    try:
        got = _take_one(folder, path.name)
    finally:
        os.close(folder)
    if got is None or got is _STUCK:
        return None
    rid = m.group(1)
    if isinstance(got, str):
        taken = Taken(cid, rid, None, got)
    else:
        assert isinstance(got, bytes)
        try:
            taken = Taken(cid, rid, parse_request(got, cid, rid))
        except SeatError as e:
            taken = Taken(cid, rid, None, reason_of(e))
    out = answer(t, taken)
    try:
        write_answer(session_path, cid, out)
    except (OSError, SeatError):
        pass  # the seat keeps waiting; the command itself stands in the log
    return out


__all__ = [
    "MAX_REQUEST_BYTES", "FacesPlan", "Offer", "SeatError", "SeatOdds", "apply_request", "ask_harha", "ask_sr",
    "faces_plan", "follow_up_plan", "physical",
    "Look", "SEAT_ANSWER_FAILED", "SEAT_CANNOT_ANSWER", "SEAT_NOT_A_FOLDER", "deliver", "SEAT_CANNOT_OPEN", "SEAT_CANNOT_READ", "SEAT_CANNOT_REMOVE", "SpoolError", "Taken", "answer", "handle", "incoming", "prepare_spool", "refusal", "take_requests", "offer_choices", "offer_odds", "parse_request", "pending_offers", "read_answer",
    "seat_dir", "seat_offers", "spool_dir", "waiting", "withdraw", "write_answer", "write_request",
    "held_requests", "hold", "release", "number_of", "table_of",
]
