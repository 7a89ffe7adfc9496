"""The tracker: the one place where campaign state changes.

A command goes in; the state changes; one or more events come out and are
appended to the log. Every event carries its *changes* (``path``, ``before``,
``after``), so:

- undo is a new ``undo`` event whose changes are the inverse of the undone
  command's (the undone events stay in the log, marked undone);
- redo is a ``redo`` event repeating the changes;
- loading a file replays the changes of the events newer than its snapshot.

The tracker never touches a file: it keeps the events not yet saved, and
:mod:`polku.session.files` writes them.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import random as _random
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence, cast

from ..rules.dice import DiceSource, RulesError
from ..rules.system import RAJA_WOUND_CARE, RAJA_WOUND_PENALTY, Settings, System, raja_wound_level
from . import fairdice, model
from .host import TrackerError as TrackerError  # re-exported: callers import it from here
from .host import Txn
from .model import Challenge, Change, Character, Event, State, StateError, clone, get_path
from .records import HarhaCharacter, harha, raja, sr
from .store import EventLog
from .table.attack import Attacks
from .table.combat import Combat
from .table.damage import Damage
from .table.roster import Roster

if TYPE_CHECKING:
    from .rolls import Rolls

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

    def __init__(self, tracker: Tracker) -> None:
        self.tracker = tracker
        self.changes: list[Change] = []
        self.events: list[dict[str, Any]] = []
        """The command's events so far, not numbered yet (``Tracker._append`` does it in place)."""
        self._all: list[Change] = []

    def set(self, path: Sequence[Any], value: Any) -> None:
        state = self.tracker.state
        before = get_path(state, list(path[:-1]))
        key = path[-1]
        change: Change = {"path": list(path), "after": clone(value)}
        if isinstance(before, dict):
            if key in before:
                change["before"] = clone(before[key])
        else:
            change["before"] = clone(before[key])
        if change.get("before", object()) == value:
            return
        model.set_path(state, list(path), value)
        self.changes.append(change)
        self._all.append(change)

    def delete(self, path: Sequence[Any]) -> None:
        state = self.tracker.state
        parent = get_path(state, list(path[:-1]))
        if path[-1] not in parent:
            return
        change: Change = {"path": list(path), "before": clone(parent[path[-1]])}
        model.set_path(state, list(path))
        self.changes.append(change)
        self._all.append(change)

    def insert(self, path: Sequence[Any], index: int, value: Any) -> None:
        """Insert ``value`` at ``index`` of the list at ``path``."""
        change: Change = {"path": list(path) + [index], "insert": clone(value)}
        model.apply_changes(self.tracker.state, [change])
        self.changes.append(change)
        self._all.append(change)

    def remove(self, path: Sequence[Any], index: int) -> None:
        """Remove item ``index`` of the list at ``path``."""
        lst = get_path(self.tracker.state, list(path))
        change: Change = {"path": list(path) + [index], "remove": clone(lst[index])}
        model.apply_changes(self.tracker.state, [change])
        self.changes.append(change)
        self._all.append(change)

    def emit(self, kind: str, text: str, **data: Any) -> Event:
        ev: dict[str, Any] = {"kind": kind, "text": text}
        ev.update({k: v for k, v in data.items() if v is not None})
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


class Tracker:
    """Campaign state plus its event log, changed only by commands.

    Args:
        state: the campaign state (see :mod:`polku.session.model`).
        events: the log so far (already reflected in ``state``).
        clock: returns the ISO time for new events (injected for tests).
        seed: reproducible program dice for tests and ``--seed``: while the state
            holds no dice secret, each roll's seed is the next 32 bits of
            ``random.Random(seed)`` (not verifiable, and guessable). Otherwise
            every program roll's seed is derived from the game session's dice
            secret and the roll's number (:mod:`polku.session.fairdice`), so seen
            seeds never predict the next roll; a file's secret wins over ``seed``.
        read_only: refuse every command (review, a second process).
    """

    def __init__(self, state: State, events: Iterable[Event] = (), *,
                 clock: Clock | None = None, seed: int | None = None, read_only: bool = False) -> None:
        self.state = state
        self.events: Any = events if isinstance(events, EventLog) else list(events)
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
        self.damage = Damage(self)
        """Damage from a roll and harm proposals (:mod:`polku.session.table.damage`)."""
        self.roster = Roster(self)
        """NPC templates, groups, copied characters, saved pools (:mod:`polku.session.table.roster`)."""
        self.combat = Combat(self)
        """The fight: turn order, the marker, effects (:mod:`polku.session.table.combat`)."""
        self.attacks = Attacks(self)
        """Who attacks with what, and the defender's pool (:mod:`polku.session.table.attack`)."""
        if isinstance(self.events, EventLog):
            for i in range(len(self.events)):
                m = self.events.meta(i)
                self._track_meta(i, m.seq, m.kind, m.cmd, m.target, True)
        else:
            for i, ev in enumerate(self.events):
                self._track(ev, i)

    # -- construction ----------------------------------------------------

    @classmethod
    def new(cls, system: System | str, name: str, *, settings: Settings | None = None,
            wound_track: Iterable[str] | None = None, clock: Clock | None = None,
            seed: int | None = None) -> "Tracker":
        clock = clock or utc_now
        state = model.new_state(system, name, created=clock(), settings=settings, wound_track=wound_track)
        if seed is None:
            # The first session's dice secret is part of the new campaign, so its
            # commitment is in the file before anything else happens.
            state["dice"] = _dice_key(fairdice.new_secret(), 1, 1, {})
        t = cls(state, clock=clock, seed=seed)
        t.needs_full_save = True
        return t

    @classmethod
    def replay(cls, snapshot: dict[str, Any], snapshot_seq: int, events: Any,
               **kw: Any) -> "Tracker":
        """Rebuild from a saved snapshot plus the events newer than it (every block,
        the numbering and each replayed change checked: :mod:`polku.session.integrity`)."""
        from .integrity import replay_state

        state = replay_state(snapshot, snapshot_seq, events)
        return cls(state, events, **kw)

    @classmethod
    def snapshot_of(cls, state: State, events: list[Event] | EventLog, undone: Iterable[int]) -> "Tracker":
        """A read-only tracker over a copy of a state and of a log, for a reader in another thread
        (the players' file): which events are undone is given, not worked out from the log again."""
        t = cls(state, [], read_only=True)
        t.events = events
        t.undone = set(undone)
        return t

    @cached_property
    def rolls(self) -> Rolls:
        """The roll commands (:class:`~polku.session.rolls.Rolls`), made on first use.

        Imported here, not at the top: the roll commands and the three rules
        modules they use cost ~15 ms to import (their frozen dataclasses), about
        7% of the app's first frame, which needs none of them.
        """
        from .rolls import Rolls

        return Rolls(self)

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
            raise TrackerError(f"no character '{cid}'") from None

    def find_character(self, name_or_id: str) -> Character:
        ch = model.by_name_or_id(self.characters, name_or_id)
        if ch is None:
            raise TrackerError(f"no character named '{name_or_id}'")
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
        raise TrackerError(f"no challenge '{chid}'")

    def challenge_index(self, chid: str) -> int:
        for i, c in enumerate(self.state["challenges"]):
            if c["id"] == chid:
                return i
        raise TrackerError(f"no challenge '{chid}'")

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
            from ..rules.shadowrun import wound_modifier

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

    def run(self, build: Callable[[_Txn], Any]) -> list[Event]:
        if self.read_only:
            raise TrackerError("this session is open read-only; nothing was changed")
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
            raise TrackerError(str(e)) from None
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

    def _append(self, events: list[dict[str, Any]]) -> list[Event]:
        now = self.clock()
        first = self.last_seq() + 1
        where = self.where
        out: list[Event] = []
        for i, draft in enumerate(events):
            full: dict[str, Any] = {"seq": first + i, "t": now, "at": list(where)}
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
            raise TrackerError("this session is open read-only; nothing was changed")
        if not self._undo:
            raise TrackerError("nothing to undo")
        cmd = self._undo[-1]
        evs = [self.event_by_seq(q) for q in self._cmd_events[cmd]]
        changes = model.invert_changes([c for e in evs for c in e.get("changes", [])])
        model.apply_changes(self.state, changes)
        text = f"Undid: {evs[0]['text']}"
        return self._append([{"kind": "undo", "text": text, "target": cmd, "changes": changes}])[0]

    def redo(self) -> Event:
        if self.read_only:
            raise TrackerError("this session is open read-only; nothing was changed")
        if not self._redo:
            raise TrackerError("nothing to redo")
        cmd = self._redo[-1]
        evs = [self.event_by_seq(q) for q in self._cmd_events[cmd]]
        changes = [clone(c) for e in evs for c in e.get("changes", [])]
        model.apply_changes(self.state, changes)
        text = f"Redid: {evs[0]['text']}"
        return self._append([{"kind": "redo", "text": text, "target": cmd, "changes": changes}])[0]

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

    # -- characters --------------------------------------------------------

    def add_character(self, name: str, *, kind: str = "pc", player: str = "", **fields: Any) -> Character:
        name = name.strip()
        if not name:
            raise TrackerError("a character needs a name")
        if kind not in model.CHARACTER_KINDS:
            raise TrackerError(f"kind must be one of {', '.join(model.CHARACTER_KINDS)}")
        result: dict[str, Any] = {}

        def build(txn: _Txn) -> None:
            cid = model.slug(name)
            base, n = cid, 2
            while cid in self.characters:
                cid, n = f"{base}-{n}", n + 1
            ch = model.new_character(self.system, name, cid=cid, kind=kind, player=player,
                                     settings=self.settings, track=self.state["wound_track"], **fields)
            txn.set(["characters", cid], ch)
            model.validate_state(self.state)
            txn.emit("character", f"{name} joins ({kind}{', secret' if ch['secret'] else ''})", who=cid)
            result.update(ch)

        self.run(build)
        return self.character(result["id"])

    def update_character(self, cid: str, field_name: str, value: Any, *, text: str | None = None) -> None:
        """Set any character field (the detail view); validated, logged, undoable."""
        ch = self.character(cid)
        if field_name in ("id",) or field_name not in ch:
            raise TrackerError(f"'{field_name}' is not a field a GM can edit")

        def build(txn: _Txn) -> None:
            txn.set(["characters", cid, field_name], value)
            model.validate_state(self.state)
            txn.emit("character", text or f"{ch['name']}: {field_name} → {_show(value)}", who=cid)

        self.run(build)

    def open_challenges_of(self, cid: str) -> list[Challenge]:
        """The challenges not yet resolved that ``cid`` takes part in (on either side)."""
        return [c for c in self.state["challenges"] if c["status"] != "resolved"
                and (cid in c.get("participants", []) or cid in c.get("opposition", []))]

    def remove_character(self, cid: str) -> None:
        """Remove a character, and drop them from every open challenge in the same command.

        A challenge still waiting for a roll cannot be rolled for someone who is
        gone; resolved ones keep the id as history (shown as "(removed)"). One
        undo brings the character back into those challenges too.
        """
        self.character(cid)
        self.run(lambda txn: self.remove_character_in(txn, cid))

    def remove_character_in(self, txn: Txn, cid: str) -> None:
        ch = self.character(cid)
        dropped = [c["title"] for c in self.open_challenges_of(cid)]
        txn.delete(["characters", cid])
        ini = [e for e in self.state["initiative"] if e["id"] != cid]
        txn.set(["initiative"], ini)
        self.combat.on_removed(txn, cid)
        for i, c in enumerate(self.state["challenges"]):
            if c["status"] == "resolved":
                continue
            for key, members in (("participants", c.get("participants", [])), ("opposition", c.get("opposition", []))):
                if cid in members:
                    txn.set(["challenges", i, key], [x for x in members if x != cid])
        text = f"{ch['name']} leaves the campaign"
        if dropped:
            text += f" (dropped from {', '.join(dropped)})"
        # The name stays on the event: statistics and filters still name who left.
        txn.emit("character", text, who=cid, name=ch["name"])

    def set_health(self, cid: str, note: str) -> None:
        ch = self.character(cid)
        self._simple(cid, "health", note, "wound", f"{ch['name']} health: {note or '(cleared)'}")

    def _simple(self, cid: str, key: str, value: Any, kind: str, text: str, **data: Any) -> None:
        ch = self.character(cid)
        if ch.get(key) == value:
            # A repeated key press that changes nothing is refused, so it logs nothing.
            shown = {"health": "health", "story_points": "story points", "physical": "physical boxes",
                     "stun": "stun boxes"}.get(key, key)
            raise TrackerError(f"{ch['name']}'s {shown} is already {value if value != '' else 'empty'}; nothing changed")

        def build(txn: _Txn) -> None:
            txn.set(["characters", cid, key], value)
            model.validate_state(self.state)
            txn.emit(kind, text, who=cid, **data)

        self.run(build)

    # -- Rajapolku resources (R9–R12) ---------------------------------------

    def move_wound(self, cid: str, steps: int) -> None:
        """R9/R10: move a character down (+) or up (−) the wound track."""
        ch = raja(self.character(cid))
        track = self.state["wound_track"]
        i = track.index(ch["wound"]) if ch["wound"] in track else 0
        j = max(0, min(len(track) - 1, i + steps))
        if j == i:
            raise TrackerError(f"{ch['name']} is already {track[i]}")
        verb = "worse" if j > i else "better"
        level = raja_wound_level(track[j]) or ""
        care = f"; {RAJA_WOUND_CARE[level]}" if level in RAJA_WOUND_CARE else ""
        self._simple(cid, "wound", track[j], "wound",
                     f"{ch['name']}: {track[i]} → {track[j]} ({verb}{care})", before=track[i], after=track[j])

    def set_wound(self, cid: str, level: str) -> None:
        ch = raja(self.character(cid))
        if level not in self.state["wound_track"]:
            raise TrackerError(f"'{level}' is not on this campaign's wound track")
        r9 = raja_wound_level(level) or ""
        care = f" ({RAJA_WOUND_CARE[r9]})" if r9 in RAJA_WOUND_CARE else ""
        self._simple(cid, "wound", level, "wound", f"{ch['name']}: {ch['wound']} → {level}{care}")

    def spend_charges(self, cid: str, n: int, reason: str) -> None:
        """R11: spend charges (an ability, spirit combat…)."""
        ch = raja(self.character(cid))
        if n < 1:
            raise TrackerError("spend at least 1 charge")
        if ch["charges"] < n:
            raise TrackerError(f"{ch['name']} has {ch['charges']} charges, not {n}")
        self._simple(cid, "charges", ch["charges"] - n, "resource",
                     f"{ch['name']} spends {n} charge{'s' if n != 1 else ''}: {reason} "
                     f"({ch['charges'] - n}/{ch['charges_max']} left)", resource="charges", amount=-n)

    def restore_charges(self, cid: str, n: int, reason: str = "rest") -> None:
        ch = raja(self.character(cid))
        new = min(ch["charges_max"], ch["charges"] + n)
        if new == ch["charges"]:
            raise TrackerError(f"{ch['name']} already has all {ch['charges_max']} charges")
        self._simple(cid, "charges", new, "resource",
                     f"{ch['name']} regains {new - ch['charges']} charges: {reason} ({new}/{ch['charges_max']})",
                     resource="charges", amount=new - ch["charges"])

    def use_ability(self, cid: str, ability: str) -> None:
        """R11: pay an ability's cost — per use, once per scene, or nothing if always on."""
        ch = raja(self.character(cid))
        ab = next((a for a in ch.get("abilities", []) if a["name"] == ability), None)
        if ab is None:
            raise TrackerError(f"{ch['name']} has no ability '{ability}'")
        if ab["per"] == "always":
            raise TrackerError(f"'{ability}' is always on and costs nothing")
        if ab["per"] == "scene" and ability in ch["paid_this_scene"]:
            raise TrackerError(f"'{ability}' is already paid for this scene")
        cost = ab["cost"]
        if ch["charges"] < cost:
            raise TrackerError(f"{ch['name']} has {ch['charges']} charges; '{ability}' costs {cost}")

        def build(txn: _Txn) -> None:
            txn.set(["characters", cid, "charges"], ch["charges"] - cost)
            if ab["per"] == "scene":
                txn.set(["characters", cid, "paid_this_scene"], ch["paid_this_scene"] + [ability])
            per = "this scene" if ab["per"] == "scene" else "one use"
            txn.emit("resource", f"{ch['name']} uses {ability} ({per}): −{cost} charges "
                     f"({ch['charges']}/{ch['charges_max']} left)", who=cid, resource="charges", amount=-cost)

        self.run(build)

    def check_spend_story_point(self, cid: str) -> None:
        """Raise TrackerError if ``cid`` cannot spend a story point now (R12), before anyone asks what for."""
        ch = raja(self.character(cid))
        if ch["story_points"] < 1:
            raise TrackerError(f"{ch['name']} has no story points left; a new story (T) brings new ones")

    def spend_story_point(self, cid: str, bought: str) -> None:
        """R12: spend a story point on what it bought."""
        ch = raja(self.character(cid))
        self.check_spend_story_point(cid)
        if not bought.strip():
            raise TrackerError("say what the story point bought")
        self._simple(cid, "story_points", ch["story_points"] - 1, "resource",
                     f"{ch['name']} spends a story point: {bought.strip()} ({ch['story_points'] - 1} left)",
                     resource="story_points", amount=-1, bought=bought.strip())

    def award_story_point(self, cid: str, reason: str = "good roleplaying") -> None:
        ch = raja(self.character(cid))
        self._simple(cid, "story_points", ch["story_points"] + 1, "resource",
                     f"{ch['name']} is awarded a story point: {reason} ({ch['story_points'] + 1})",
                     resource="story_points", amount=1)

    # -- Varjojuoksu resources (S3, S5–S7, S12) --------------------------------

    def check_spend_edge(self, cid: str) -> None:
        """Raise TrackerError if ``cid`` has no Edge point to spend now (S7), before anyone asks what for."""
        ch = sr(self.character(cid))
        if ch["edge"] < 1:
            raise TrackerError(f"{ch['name']} has no Edge left this session; a new session (N) refreshes it")

    def spend_edge(self, cid: str, reason: str) -> None:
        ch = sr(self.character(cid))
        self.check_spend_edge(cid)
        self._simple(cid, "edge", ch["edge"] - 1, "resource",
                     f"{ch['name']} spends Edge: {reason} ({ch['edge'] - 1}/{ch['edge_rating']} left)",
                     resource="edge", amount=-1)

    def set_condition(self, cid: str, track: str, boxes: int) -> None:
        """S12: set filled boxes on the physical or stun monitor."""
        if track not in ("physical", "stun"):
            raise TrackerError("the condition monitor is 'physical' or 'stun'")
        ch = sr(self.character(cid))
        size = self.condition_monitor(cid, track)
        if not 0 <= boxes <= size:
            raise TrackerError(f"{track} monitor has {size} boxes; {boxes} is out of range")
        self._simple(cid, track, boxes, "wound", f"{ch['name']}: {track} {ch['physical' if track == 'physical' else 'stun']} → {boxes}/{size} boxes")

    # -- Harhapolku edges (H7) --------------------------------------------------

    def use_edge_reroll(self, cid: str, edge: str) -> None:
        """H7: mark ``cid``'s edge used for a reroll, as a command of its own."""
        self._edge_to_use(cid, edge)
        self.run(lambda txn: self.use_edge_reroll_in(txn, cid, edge))

    def use_edge_reroll_in(self, txn: Txn, cid: str, edge: str) -> None:
        """H7: mark ``cid``'s edge used, as part of the command of ``txn`` (the reroll it pays for)."""
        ch, idx = self._edge_to_use(cid, edge)
        txn.set(["characters", cid, "edges", idx, "used"], True)
        txn.emit("resource", f"{ch['name']} uses edge '{edge}' for a reroll", who=cid, resource="edge_reroll")

    def _edge_to_use(self, cid: str, edge: str) -> tuple[HarhaCharacter, int]:
        """The character and the index of an edge they may still use this session (H7), or a TrackerError."""
        ch = harha(self.character(cid))
        idx = next((i for i, e in enumerate(ch["edges"]) if e["name"] == edge), None)
        if idx is None:
            raise TrackerError(f"{ch['name']} has no edge '{edge}'")
        if ch["edges"][idx]["used"]:
            raise TrackerError(f"{ch['name']}'s edge '{edge}' is already used this session")
        return ch, idx

    # -- structure and the resets of docs/rules.md ------------------------------------

    def _scene_resets(self, txn: _Txn) -> None:
        for cid, ch in self.characters.items():
            if ch.get("paid_this_scene"):
                txn.set(["characters", cid, "paid_this_scene"], [])
                txn.emit("reset", f"{ch['name']}: per-scene ability costs reset", who=cid)
            if ch.get("rolled_this_scene"):
                txn.set(["characters", cid, "rolled_this_scene"], [])
                txn.emit("reset", f"{ch['name']}: background dice available again", who=cid)
        nar = self.state["narration"]
        if nar["table"] or nar["narrator"] or nar.get("burned") or nar.get("hands") or nar.get("rolled") \
                or nar.get("last"):
            # H9: a new scene opens the narration and every background may be rolled again,
            # so the hands, the rolled-this-scene pairs and the last usurpation go too.
            fresh = {k: v for k, v in nar.items() if k not in ("hands", "rolled", "last")}
            txn.set(["narration"], {**fresh, "narrator": "", "table": [], "burned": []})
            txn.emit("reset", "Narration contest cleared for the new scene")
        self.combat.on_new_scene(txn)

    def _session_resets(self, txn: _Txn) -> None:
        for cid, ch in self.characters.items():
            if "edge_rating" in ch and ch["edge"] != ch["edge_rating"]:
                txn.set(["characters", cid, "edge"], ch["edge_rating"])
                txn.emit("reset", f"{ch['name']}: Edge refreshed to {ch['edge_rating']}", who=cid)
            if "edges" in ch and any(e["used"] for e in ch["edges"]):
                txn.set(["characters", cid, "edges"], [{**e, "used": False} for e in ch["edges"]])
                txn.emit("reset", f"{ch['name']}: edge rerolls available again", who=cid)
        if self.state["initiative"]:
            # S12: initiative is rolled when a fight starts; a session never begins in the middle of one.
            who = [e["id"] for e in self.state["initiative"]]
            txn.set(["initiative"], [])
            txn.emit("reset", "Initiative cleared: the new session starts out of combat", who=who)
        self.combat.on_new_session(txn)

    def _story_resets(self, txn: _Txn) -> None:
        allot = self.settings.raja_story_points
        for cid, ch in self.characters.items():
            if "story_points" not in ch:
                continue
            # R12: every unspent point vanishes; only player characters get the new allotment.
            old = ch["story_points"]
            new = allot if ch["kind"] == "pc" else 0
            if ch["kind"] != "pc" and old == new:
                continue
            txn.set(["characters", cid, "story_points"], new)
            txn.emit("reset", f"{ch['name']}: story points {old} → {new} (unspent points vanish)", who=cid)

    def new_scene(self, title: str = "") -> None:
        st = self.state["structure"]

        def build(txn: _Txn) -> None:
            txn.set(["structure", "scene"], st["scene"] + 1)
            txn.set(["structure", "scene_title"], title.strip())
            txn.emit("structure", f"Scene {st['scene']}" + (f": {title.strip()}" if title.strip() else ""))
            self._scene_resets(txn)

        self.run(build)
        self.needs_full_save = True

    def new_session(self) -> None:
        st = self.state["structure"]

        def build(txn: _Txn) -> None:
            txn.set(["structure", "session"], st["session"] + 1)
            txn.set(["structure", "scene"], 1)
            txn.set(["structure", "scene_title"], "")
            txn.emit("structure", f"Session {st['session']} begins")
            self._session_resets(txn)
            self._scene_resets(txn)

        self.run(build)
        if self.dice_key() is not None:
            # The last session is over: its dice secret is revealed, the new one committed.
            self.new_dice_secret(reveal=True)
        self.needs_full_save = True

    # -- verifiable program dice (fairdice) ----------------------------------------

    def dice_key(self) -> model.DiceKey | None:
        """The current dice secret's table (with the secret: the GM's side only)."""
        d = self.state.get("dice")
        return d if isinstance(d, dict) and d.get("secret") else None

    def program_source(self) -> tuple[DiceSource, dict[str, Any]]:
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
                         dice_key=d["key"], commitment=d["commitment"], revealed=d["secret"], undoable=False)
            new = _dice_key(fairdice.new_secret(self.seed, key), key, session, rolls)
            new["revealed"] = revealed
            txn.set(["dice"], new)
            txn.emit("dice", f"Dice secret #{key} committed for session {session}: SHA-256 {new['commitment']}",
                     dice_key=key, commitment=new["commitment"], undoable=False)

        try:
            self.run(build)
        finally:
            self.gm_only_commands = was

    def new_story(self) -> None:
        st = self.state["structure"]

        def build(txn: _Txn) -> None:
            txn.set(["structure", "story"], st["story"] + 1)
            txn.emit("structure", f"Story {st['story']} begins")
            self._story_resets(txn)

        self.run(build)
        self.needs_full_save = True

    def setting_choices(self) -> list[Any]:
        """The [choice] settings of this campaign's system, in docs/rules.md order."""
        from ..rules.system import campaign_choices

        return list(campaign_choices(self.system))

    def next_setting_value(self, key: str, delta: int = 1) -> Any:
        """The value after (``delta`` 1) or before (−1) the current one; None for a number setting."""
        choice = next((c for c in self.setting_choices() if c.key == key), None)
        if choice is None:
            raise TrackerError(f"unknown setting '{key}' for {self.system.display_name}")
        if choice.allowed is None:
            return None
        allowed = list(choice.allowed)
        current = self.settings.to_dotted()[key]
        i = allowed.index(current) if current in allowed else 0
        return allowed[(i + delta) % len(allowed)]

    def set_setting(self, key: str, value: Any) -> None:
        """Change a [choice] setting mid-campaign: logged and undoable; later rolls use it."""
        from ..rules.system import CHOICE_BY_KEY

        old = self.settings.to_dotted().get(key)
        try:
            same = self.settings.with_value(key, value).to_dotted()[key] == old
        except RulesError as e:
            raise TrackerError(str(e)) from None
        if same:
            # A repeated key press that changes nothing is refused, so it logs nothing.
            raise TrackerError(f"{key} is already {_show(old)}; nothing changed")

        def build(txn: _Txn) -> None:
            new = self.settings.with_value(key, value)
            txn.set(["settings", key], new.to_dotted()[key])
            rule = CHOICE_BY_KEY[key].rule
            txn.emit("setting", f"Setting {key} ({rule}): {_show(old)} → {_show(new.to_dotted()[key])}",
                     setting=key)

        self.run(build)

    def note(self, text: str) -> None:
        if not text.strip():
            raise TrackerError("the note is empty")
        self.run(lambda txn: txn.emit("note", text.strip()))

    # -- the challenge queue -------------------------------------------------------

    def add_challenge(self, title: str, participants: Iterable[str] = (), opposition: Iterable[str] = (),
                      kind: str = "") -> Challenge:
        title = title.strip()
        if not title:
            raise TrackerError("a challenge needs a title")
        parts, opp = list(participants), list(opposition)
        for cid in parts + opp:
            self.character(cid)
        out: dict[str, Any] = {}

        def build(txn: _Txn) -> None:
            chid = self.new_id(txn, "c")
            c = {"id": chid, "title": title, "status": "waiting", "kind": kind or "challenge",
                 "participants": parts, "opposition": opp, "outcome": ""}
            txn.insert(["challenges"], len(self.state["challenges"]), c)
            txn.emit("challenge", f"Challenge added: {title}", challenge=chid)
            out.update(c)

        self.run(build)
        return self.challenge(out["id"])

    def remove_challenge(self, chid: str) -> None:
        c = self.challenge(chid)

        def build(txn: _Txn) -> None:
            txn.remove(["challenges"], self.challenge_index(chid))
            txn.emit("challenge", f"Challenge removed: {c['title']}", challenge=chid)

        self.run(build)

    def move_challenge(self, chid: str, delta: int) -> None:
        i = self.challenge_index(chid)
        items = self.state["challenges"]
        j = max(0, min(len(items) - 1, i + delta))
        if i == j:
            raise TrackerError("the challenge cannot move further")
        title = items[i]["title"]

        def build(txn: _Txn) -> None:
            item = clone(self.state["challenges"][i])
            txn.remove(["challenges"], i)
            txn.insert(["challenges"], j, item)
            txn.emit("challenge", f"Challenge moved {'up' if delta < 0 else 'down'}: {title}", challenge=chid)

        self.run(build)

    def start_challenge(self, chid: str) -> None:
        c = self.challenge(chid)
        if c["status"] == "resolved":
            raise TrackerError(f"'{c['title']}' is already resolved")
        if c["status"] == "active":
            raise TrackerError(f"'{c['title']}' is already active")

        def build(txn: _Txn) -> None:
            for i, x in enumerate(self.state["challenges"]):
                if x["status"] == "active":
                    txn.set(["challenges", i, "status"], "waiting")
            txn.set(["challenges", self.challenge_index(chid), "status"], "active")
            txn.emit("challenge", f"Challenge started: {c['title']}", challenge=chid)

        self.run(build)

    def resolve_challenge(self, chid: str, outcome: str) -> None:
        """Close a challenge with ``outcome``, as a command of its own (one ``challenge`` event)."""
        c = self.challenge(chid)

        def build(txn: _Txn) -> None:
            self.resolve_challenge_in(txn, chid, outcome)
            txn.emit("challenge", f"Challenge resolved: {c['title']} — {outcome}", challenge=chid)

        self.run(build)

    def resolve_challenge_in(self, txn: Txn, chid: str, outcome: str) -> None:
        """Close a challenge with ``outcome`` as part of the command of ``txn`` (the roll that settles it, whose
        event tells it)."""
        i = self.challenge_index(chid)
        txn.set(["challenges", i, "status"], "resolved")
        txn.set(["challenges", i, "outcome"], outcome)

    # -- initiative (S12) ---------------------------------------------------------

    def set_initiative(self, entries: list[dict[str, Any]], text: str = "Initiative set") -> None:
        for e in entries:
            self.character(e["id"])
        if list(entries) == list(self.state["initiative"]):
            raise TrackerError("the initiative order is already that; nothing changed")

        def build(txn: _Txn) -> None:
            txn.set(["initiative"], entries)
            model.validate_state(self.state)
            txn.emit("initiative", text)

        self.run(build)




def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_show(v) for v in value) or "(none)"
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    return str(value)
