"""The tracker's machinery: the state and its event log, :meth:`TrackerBase.run` (a command as one
transaction of changes and events), undo and redo, reading the state, and the program's dice.

The commands stand on it in two parts, :mod:`.sheets` (characters and their resources) and
:mod:`.structure` (scenes, sessions, stories, settings, notes, the challenge queue, initiative);
:class:`polku.session.tracker.Tracker` joins them and makes the command families (rolls, damage,
roster, combat, attacks), which see it only through :mod:`polku.session.host`.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import random as _random
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence, cast

from ...i18n import N_, said
from ...rules.dice import DiceSource, RulesError
from ...rules.system import RAJA_WOUND_PENALTY, Settings, System, raja_wound_level
from .. import fairdice, model
from ..host import TrackerError as TrackerError  # re-exported: callers import it from here
from ..host import Txn
from ..model import Challenge, Change, Character, Event, State, StateError, clone, get_path
from ..records import raja, sr
from ..store import EventLog
from ..table.attack import Attacks
from ..table.combat import Combat
from ..table.damage import Damage
from ..table.roster import Roster

if TYPE_CHECKING:
    pass

Clock = Callable[[], str]


def utc_now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


UNDOABLE_EXCLUDED = ("undo", "redo")
NEVER_UNDONE = ("dice",)


def _dice_key(secret: str, key: int, session: int, rolls: dict[str, int]) -> model.DiceKey:
    """The state's ``dice`` table: the current secret, its commitment, and rolls made per key."""
    return {"key": key, "session": session, "secret": secret, "commitment": fairdice.commitment(secret),
            "rolls": {**rolls, str(key): 0}}




class _Txn:
    __slots__ = ("tracker", "changes", "events", "_all")

    def __init__(self, tracker: TrackerBase) -> None:
        self.tracker = tracker
        self.changes: list[Change] = []
        self.events: list[dict[str, object]] = []
        """The command's events so far, not numbered yet (``Tracker._append`` does it in place)."""
        self._all: list[Change] = []

    def set(self, path: Sequence[str | int], value: object) -> None:
        state = self.tracker.state
        parent = get_path(state, path[:-1])
        key = path[-1]
        change: Change = {"path": list(path), "after": clone(value)}
        if not isinstance(parent, dict) or key in parent:
            change["before"] = clone(model.child(parent, key))
        if change.get("before", object()) == value:
            return
        model.set_path(state, path, value)
        self.changes.append(change)
        self._all.append(change)

    def delete(self, path: Sequence[str | int]) -> None:
        state = self.tracker.state
        parent = get_path(state, path[:-1])
        if not isinstance(parent, (dict, list)) or path[-1] not in parent:
            return
        change: Change = {"path": list(path), "before": clone(model.child(parent, path[-1]))}
        model.set_path(state, path)
        self.changes.append(change)
        self._all.append(change)

    def insert(self, path: Sequence[str | int], index: int, value: object) -> None:
        """Insert ``value`` at ``index`` of the list at ``path``."""
        change: Change = {"path": list(path) + [index], "insert": clone(value)}
        model.apply_changes(self.tracker.state, [change])
        self.changes.append(change)
        self._all.append(change)

    def remove(self, path: Sequence[str | int], index: int) -> None:
        """Remove item ``index`` of the list at ``path``."""
        lst = get_path(self.tracker.state, path)
        change: Change = {"path": list(path) + [index], "remove": clone(model.child(lst, index))}
        model.apply_changes(self.tracker.state, [change])
        self.changes.append(change)
        self._all.append(change)

    def emit(self, kind: str, text: str, **data: object) -> Event:
        ev: dict[str, object] = {"kind": kind, "text": text}
        ev.update({k: v for k, v in data.items() if v is not None})
        fact = ev.get("fact")
        if isinstance(fact, dict):
            # A fact's values as TOML keeps them: one left out is None (TOML has no null).
            ev["fact"] = {k: v for k, v in cast("dict[str, object]", fact).items() if v is not None}
        if self.tracker.gm_only_commands:
            ev["secret"] = True
        if self.tracker.seat:
            ev["seat"] = self.tracker.seat
            if kind == "roll" and self.tracker.seat_offer is not None:
                ev["offer"] = self.tracker.seat_offer
        ev["changes"] = self.changes
        self.changes = []
        self.events.append(ev)
        # The same dict gets its seq, time and place when the command ends (Tracker._append).
        return cast(Event, ev)

    def rollback(self) -> None:
        model.apply_changes(self.tracker.state, model.invert_changes(self._all))




class TrackerBase:
    """Campaign state plus its event log, changed only by commands (the arguments: :class:`Tracker`)."""

    damage: Damage
    roster: Roster
    combat: Combat
    attacks: Attacks

    def __init__(self, state: State, events: Iterable[Event] = (), *,
                 clock: Clock | None = None, seed: int | None = None, read_only: bool = False) -> None:
        self.state = state
        self.events: list[Event] | EventLog = events if isinstance(events, EventLog) else list(events)
        self.clock: Clock = clock or utc_now
        self.seed = seed
        self._fixed_rng = None if seed is None else _random.Random(seed)
        self._txn: _Txn | None = None
        """The command being built (program dice take their roll number in it)."""
        self.gm_only_commands = False
        """True while :meth:`gm_only` runs commands: their events are the GM's only."""
        self.read_only = read_only
        self.seat = ""
        """While :meth:`by_seat` runs commands: the character whose player's seat asked for them."""
        self.seat_offer: int | None = None
        """While a seat rolls a roll request of the GM: that request's event (kept on the roll event)."""
        self.undone: set[int] = set()
        self.recent: dict[int, Any] = {}
        self._cmd_events: dict[int, list[int]] = {}
        """cmd seq → seqs of the events that command appended."""
        self._index: dict[int, int] = {}
        """seq → position in ``events``."""
        self._undo: list[int] = []
        self._redo: list[int] = []
        self.unsaved: list[Event] = []
        self.needs_full_save = False
        if isinstance(self.events, EventLog):
            for i in range(len(self.events)):
                m = self.events.meta(i)
                self._track_meta(i, m.seq, m.kind, m.cmd, m.target, True)
        else:
            for i, ev in enumerate(self.events):
                self._track(ev, i)

    # -- reading ---------------------------------------------------------

    @property
    def system(self) -> System:
        return model.system_of(self.state)

    @property
    def settings(self) -> Settings:
        return model.settings_of(self.state)

    @property
    def characters(self) -> dict[str, Character]:
        return self.state["characters"]

    def character(self, cid: str) -> Character:
        try:
            return self.state["characters"][cid]
        except KeyError:
            raise TrackerError(said(N_("no character '{cid}'"), cid=str(cid))) from None

    def find_character(self, name_or_id: str) -> Character:
        ch = model.by_name_or_id(self.characters, name_or_id)
        if ch is None:
            raise TrackerError(said(N_("no character named '{name_or_id}'"), name_or_id=str(name_or_id)))
        return ch

    @property
    def where(self) -> list[int]:
        st = self.state["structure"]
        return [st["story"], st["session"], st["scene"]]

    def last_seq(self) -> int:
        if not len(self.events):
            return 0
        if isinstance(self.events, EventLog):
            return self.events.meta(len(self.events) - 1).seq
        seq: int = self.events[-1]["seq"]
        return seq

    def can_undo(self) -> bool:
        return bool(self._undo) and not self.read_only

    def can_redo(self) -> bool:
        return bool(self._redo) and not self.read_only

    def undo_text(self) -> str:
        return self.event_by_seq(self._cmd_events[self._undo[-1]][0])["text"] if self._undo else ""

    def redo_text(self) -> str:
        return self.event_by_seq(self._cmd_events[self._redo[-1]][0])["text"] if self._redo else ""

    def is_undone(self, seq: int) -> bool:
        return seq in self.undone

    def challenge(self, chid: str) -> Challenge:
        for c in self.state["challenges"]:
            if c["id"] == chid:
                return c
        raise TrackerError(said(N_("no challenge '{chid}'"), chid=str(chid)))

    def challenge_index(self, chid: str) -> int:
        for i, c in enumerate(self.state["challenges"]):
            if c["id"] == chid:
                return i
        raise TrackerError(said(N_("no challenge '{chid}'"), chid=str(chid)))

    def active_challenge(self) -> Challenge | None:
        for c in self.state["challenges"]:
            if c["status"] == "active":
                return c
        return None

    def wound_penalty(self, cid: str) -> int:
        """Dice lost to wounds: R9 level (Rajapolku) or S12 monitors (Varjojuoksu)."""
        ch = self.character(cid)
        if self.system is System.RAJAPOLKU:
            return RAJA_WOUND_PENALTY.get(raja_wound_level(raja(ch)["wound"]) or "", 0)
        if self.system is System.SHADOWRUN:
            from ...rules.shadowrun import wound_modifier

            return -wound_modifier(sr(ch)["physical"], sr(ch)["stun"])
        return 0

    def condition_monitor(self, cid: str, track: str) -> int:
        """Boxes of a character's ``physical`` or ``stun`` monitor (S12)."""
        phys, stun = model.condition_monitors(sr(self.character(cid)))
        return phys if track == "physical" else stun

    # -- the command machinery --------------------------------------------

    def event_by_seq(self, seq: int) -> Event:
        ev: Event = self.events[self._index[seq]]
        return ev

    def cmd_seqs(self, cmd: int) -> list[int]:
        """Seqs of the events one command appended."""
        return list(self._cmd_events.get(cmd, []))

    def _track(self, ev: Event, index: int) -> None:
        self._track_meta(index, ev["seq"], ev["kind"], ev.get("cmd"), ev.get("target"), ev.get("undoable", True))

    def _track_meta(self, index: int, seq: int, kind: str, cmd: int | None, target: int | None,
                    undoable: bool) -> None:
        self._index[seq] = index
        # A dice secret committed or revealed stays so: the players have seen it.
        undoable = undoable and kind not in NEVER_UNDONE
        if kind == "undo" and target is not None:
            if self._undo and self._undo[-1] == target:
                self._undo.pop()
            self._redo.append(target)
            self.undone.update(self._cmd_events.get(target, []))
        elif kind == "redo" and target is not None:
            if self._redo and self._redo[-1] == target:
                self._redo.pop()
            self._undo.append(target)
            self.undone.difference_update(self._cmd_events.get(target, []))
        else:
            cmd = cmd if cmd is not None else seq
            if cmd not in self._cmd_events:
                self._cmd_events[cmd] = []
                if undoable:
                    self._undo.append(cmd)
                    self._redo.clear()
            self._cmd_events[cmd].append(seq)

    def run(self, build: Callable[[_Txn], object]) -> list[Event]:
        if self.read_only:
            raise TrackerError(said(N_("this session is open read-only; nothing was changed")))
        txn = _Txn(self)
        outer, self._txn = self._txn, txn
        try:
            build(txn)
        except fairdice.NeedDiceKey:
            # A file from before verifiable dice: commit a secret first (its own
            # command, shown to the players before the roll), then roll.
            txn.rollback()
            self._txn = outer
            self.new_dice_secret(reveal=False)
            return self.run(build)
        except (RulesError, StateError) as e:
            txn.rollback()
            raise TrackerError(*e.args) from None
        except TrackerError:
            txn.rollback()
            raise
        except Exception:
            # Not swallowed: rolled back and raised on; the app reports it (tui/screens/failure.py).
            txn.rollback()
            raise
        finally:
            self._txn = outer
        if not txn.events:
            return []
        return self._append(txn.events)

    def _append(self, events: list[dict[str, object]]) -> list[Event]:
        now = self.clock()
        first = self.last_seq() + 1
        where = self.where
        out: list[Event] = []
        for i, draft in enumerate(events):
            full: dict[str, object] = {"seq": first + i, "t": now, "at": list(where)}
            if draft["kind"] not in UNDOABLE_EXCLUDED:
                full["cmd"] = first
            recent = draft.pop("_recent", None)
            full.update(draft)
            # Numbered in place: a command holds on to the dicts emit() gave it.
            draft.clear()
            draft.update(full)
            ev = cast(Event, draft)
            if recent is not None:
                self.recent[ev["seq"]] = recent
            self.events.append(ev)
            self.unsaved.append(ev)
            self._track(ev, len(self.events) - 1)
            out.append(ev)
        return out

    def undo(self) -> Event:
        """Undo the last command (docs/rules.md: it stays in the log, marked undone)."""
        if self.read_only:
            raise TrackerError(said(N_("this session is open read-only; nothing was changed")))
        if not self._undo:
            raise TrackerError(said(N_("nothing to undo")))
        cmd = self._undo[-1]
        evs = [self.event_by_seq(q) for q in self._cmd_events[cmd]]
        changes = model.invert_changes([c for e in evs for c in e.get("changes", [])])
        model.apply_changes(self.state, changes)
        return self._append([self._undo_line("undo", f"Undid: {evs[0]['text']}", evs[0], cmd, changes)])[0]

    def redo(self) -> Event:
        if self.read_only:
            raise TrackerError(said(N_("this session is open read-only; nothing was changed")))
        if not self._redo:
            raise TrackerError(said(N_("nothing to redo")))
        cmd = self._redo[-1]
        evs = [self.event_by_seq(q) for q in self._cmd_events[cmd]]
        changes = [clone(c) for e in evs for c in e.get("changes", [])]
        model.apply_changes(self.state, changes)
        return self._append([self._undo_line("redo", f"Redid: {evs[0]['text']}", evs[0], cmd, changes)])[0]

    @staticmethod
    def _undo_line(kind: str, text: str, first: Event, cmd: int, changes: list[Change]) -> dict[str, object]:
        """An undo or redo event: its English line, and as its fact the fact of the command's first event, so
        each reader reads "Undid: …" in their own language (``log.undo`` / ``log.redo``)."""
        ev: dict[str, object] = {"kind": kind, "text": text, "target": cmd, "changes": changes}
        fact = first.get("fact")
        # Without a fact (a note: the GM's own words) the command's line is kept as written.
        ev["fact"] = {"id": f"log.{kind}", "of": clone(fact)} if isinstance(fact, dict) else \
            {"id": f"log.{kind}", "line": str(first.get("text", ""))}
        return ev

    @contextlib.contextmanager
    def gm_only(self, on: bool = True) -> Iterator[None]:
        """Run commands as the GM's only (docs/rules.md): every event they log is marked
        ``secret``, so the players see a roll as "the GM rolls" and nothing else of it."""
        was = self.gm_only_commands
        self.gm_only_commands = was or on
        try:
            yield
        finally:
            self.gm_only_commands = was

    @contextlib.contextmanager
    def by_seat(self, cid: str) -> Iterator[None]:
        """Run commands a player's seat asked for: every event they log names the seat (``seat``)."""
        was = self.seat
        self.seat = cid
        try:
            yield
        finally:
            self.seat = was

    def take_unsaved(self) -> tuple[list[Event], bool]:
        """Events not yet saved and whether a full rewrite is due; clears both."""
        evs, full = self.unsaved, self.needs_full_save
        self.unsaved, self.needs_full_save = [], False
        return evs, full

    def new_id(self, txn: Txn, prefix: str) -> str:
        n = self.state["next_id"]
        txn.set(["next_id"], n + 1)
        return f"{prefix}{n}"

    # -- verifiable program dice (fairdice) ----------------------------------------

    def dice_key(self) -> model.DiceKey | None:
        """The current dice secret's table (with the secret: the GM's side only)."""
        d = self.state.get("dice")
        return d if isinstance(d, dict) and d.get("secret") else None

    def program_source(self) -> tuple[DiceSource, dict[str, object]]:
        """The program's dice for one roll, and the log fields that say where they came from."""
        if self._fixed_rng is not None and self.dice_key() is None:
            # A fixed test seed and no dice secret: reproducible, not verifiable.
            seed = self._fixed_rng.getrandbits(32)
            fixed: dict[str, Any] = {"manual": False}
            return fairdice.FixedSeedSource(seed, fixed), fixed
        origin: dict[str, Any] = {"manual": False}
        return fairdice.ProgramSource(self._allocate_roll, origin), origin

    def _allocate_roll(self) -> tuple[int, int, int]:
        """The next program roll's (key, number, seed), counted in the command being built."""
        d = self.dice_key()
        if d is None or self._txn is None:
            raise fairdice.NeedDiceKey()
        key = d["key"]
        n = int(d["rolls"].get(str(key), 0)) + 1
        self._txn.set(["dice", "rolls", str(key)], n)
        return key, n, fairdice.roll_seed(d["secret"], n)

    def new_dice_secret(self, *, reveal: bool = True) -> None:
        """Reveal the current dice secret (``reveal``) and commit a new one for the rolls after.

        Not undoable: a revealed secret cannot be taken back from the players, and a
        committed one must stay the one the next rolls use.
        """
        d = self.dice_key()
        session = self.state["structure"]["session"]
        # Even when a GM-only roll needs the first secret, its commitment is the players'.
        was, self.gm_only_commands = self.gm_only_commands, False

        def build(txn: _Txn) -> None:
            revealed = list(self.state.get("dice", {}).get("revealed", []))
            rolls: dict[str, int] = dict(d["rolls"]) if d else {}
            key = (d["key"] + 1) if d else 1 + max((r.get("key", 0) for r in revealed), default=0)
            if d is not None and reveal:
                made = int(rolls.get(str(d["key"]), 0))
                revealed.append({"key": d["key"], "session": d["session"], "commitment": d["commitment"],
                                 "secret": d["secret"], "rolls": made})
                txn.emit("dice", f"Dice secret #{d['key']} revealed ({made} program roll{'s' * (made != 1)}): "
                         f"{d['secret']} — anyone can check them with polku verify",
                         dice_key=d["key"], commitment=d["commitment"], revealed=d["secret"], undoable=False,
                         fact={"id": "dice.revealed", "key": d["key"], "rolls": made, "revealed": d["secret"]})
            new = _dice_key(fairdice.new_secret(self.seed, key), key, session, rolls)
            new["revealed"] = revealed
            txn.set(["dice"], new)
            txn.emit("dice", f"Dice secret #{key} committed for session {session}: SHA-256 {new['commitment']}",
                     dice_key=key, commitment=new["commitment"], undoable=False,
                     fact={"id": "dice.committed", "key": key, "session": session, "commitment": new["commitment"]})

        try:
            self.run(build)
        finally:
            self.gm_only_commands = was


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_show(v) for v in cast("list[object]", value)) or "(none)"
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in cast("dict[str, object]", value).items())
    return str(value)

