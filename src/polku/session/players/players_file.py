"""The players' file: what the GM's app publishes for the players' views (watch, seats, the
players' export), and following it as the GM saves.

The GM's app writes the players' projection of the session (:mod:`.public`, where the secrets stop)
next to the session file, as JSON lines: a head (the state, the open requests), then one line per
public event, written whole and atomically when the app opens the session. Each later save
*appends*: the events that are new, then one ``{"save": …}`` line that ends the save (what of the
head changed, a list changed in part as a splice of it, how many events stand), and fsyncs. A save that withdraws something shown before (an
undo, a character made secret later, whose name leaves every earlier event) writes the file whole
again instead: the file must not keep it. So a save costs the GM's app what it added, and a view reads only the bytes
appended since its last reading, not the whole file (6 MB at 10,000 events).

:class:`Follower` keeps the file open and reads from where it stopped: only the saves appended
since, up to the last complete ``save`` line (a save still being written, or torn by a crash, waits:
a GM's app that starts again writes the file whole). When the file was replaced (another inode:
a new GM's app, or a compaction once the appended saves outgrow the file) or cut shorter, it reads
it whole again, parsing only the event lines it has not seen. When the file disappears or breaks,
the follower keeps its last good view and says so.

No textual, no rich.
"""

from __future__ import annotations

import gc
import json
import os
import re
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, TypedDict, cast, overload

from ...i18n import N_, _, ngettext, said, told_error
from ..model import (
    Event,
    State,
    StateError,
    clone,
)
from ..tracker import Tracker
from .public import PublicLog, own_rolls_public, seat_offers_public

if TYPE_CHECKING:
    from ..store import EventLog
    from .seat_rolls import PublicOwnRoll
    from .seats import PublicOffer, RequestIndex

# ---------------------------------------------------------------------------
# The players' file: what the GM's app publishes, what the players' views read


PLAYERS_SUFFIX = ".players.jsonl"
"""The players' file is the session file's name without ``.toml`` plus this, in the same folder."""
PLAYERS_FORMAT = "polku-players"
PLAYERS_VERSION = 3
"""1: the whole file replaced on each save; 2: saves appended (``{"save": …}`` lines); 3: a list of the head
changed in part is spliced (``splice``), not set whole."""
COMPACT_AT = 1 << 20
"""The GM's app writes the players' file whole again once the saves appended to it outgrow this or the file
as last written whole, whichever is larger: rare (some thousand rolls at 10,000 events), and never
unbounded."""


def players_path(path: str | os.PathLike[str]) -> Path:
    """The players' file of a session file (symlinks resolved, as the spool's: a link and its target share
    one); a players' file given itself is its own."""
    p = Path(path).resolve()
    if p.name.endswith(PLAYERS_SUFFIX):
        return p
    return p.with_name(p.name.removesuffix(".toml") + PLAYERS_SUFFIX)


Raw = dict[str, object]
"""A JSON table of the players' file as read back: any values, narrowed where they are used."""


class Head(TypedDict):
    """What the GM's app publishes beside the events (the head line, without its format, version and count)."""

    state: State
    offers: dict[str, list[PublicOffer]]
    own: dict[str, list[PublicOwnRoll]]
    seat_problems: dict[str, str]


class PlayersError(Exception):
    """One line: the players' file cannot be read (missing, not a players' file, broken)."""


def _line(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str).encode("utf-8")


def _diff(old: Mapping[str, Any], new: Mapping[str, Any], path: list[str], sets: list[Any], dels: list[Any],
          splices: list[Any]) -> None:
    """What turns the JSON table ``old`` into ``new``: ``[path, value]`` to set, ``path`` to delete,
    ``[path, start, end, items]`` to put ``items`` in place of a list's ``[start:end]`` (tables compared key by
    key, a list that keeps its first or last items spliced, anything else replaced whole)."""
    for k in old:
        if k not in new:
            dels.append([*path, k])
    for k, v in new.items():
        if k not in old:
            sets.append([[*path, k], v])
            continue
        o = old[k]
        if o == v:
            continue
        if isinstance(o, dict) and isinstance(v, dict):
            _diff(o, v, [*path, k], sets, dels, splices)
        elif isinstance(o, list) and isinstance(v, list) and (cut := _splice(o, v)) is not None:
            splices.append([[*path, k], *cut])
        else:
            sets.append([[*path, k], v])


def _splice(old: list[Any], new: list[Any]) -> tuple[int, int, list[Any]] | None:
    """``(start, end, items)``: ``new`` is ``old`` with ``old[start:end]`` replaced by ``items`` (the longest
    common first and last items kept); None when they share neither (the list is set whole)."""
    most = min(len(old), len(new))
    start = 0
    while start < most and old[start] == new[start]:
        start += 1
    end = 0
    while end < most - start and old[-1 - end] == new[-1 - end]:
        end += 1
    if start + end == 0:
        return None
    return start, len(old) - end, new[start:len(new) - end]


def _patched(head: dict[str, Any], sets: Any, dels: Any, splices: Any = ()) -> dict[str, Any]:
    """``head`` with a save's changes made to copies (a view shown before keeps its own tables).

    Raises:
        ValueError: a change does not fit the head.
    """
    out = dict(head)
    copied = {id(out)}

    def parent(path: Any) -> tuple[dict[str, Any], str]:
        if not isinstance(path, list) or not path or not all(isinstance(k, str) for k in path):
            raise ValueError("a change without its place")
        node = out
        for k in path[:-1]:
            child = node.get(k)
            if not isinstance(child, dict):
                raise ValueError("a change in no table")
            if id(child) not in copied:
                child = dict(child)
                copied.add(id(child))
                node[k] = child
            node = child
        return node, path[-1]

    for path in dels if isinstance(dels, list) else ():
        node, key = parent(path)
        node.pop(key, None)
    for cut in splices if isinstance(splices, list) else ():
        if not isinstance(cut, list) or len(cut) != 4:
            raise ValueError("a splice without its place")
        node, key = parent(cut[0])
        old, start, end, items = node.get(key), cut[1], cut[2], cut[3]
        if (not isinstance(old, list) or not isinstance(items, list) or not isinstance(start, int)
                or not isinstance(end, int) or not 0 <= start <= end <= len(old)):
            raise ValueError("a splice that does not fit its list")
        node[key] = [*old[:start], *items, *old[end:]]  # a new list: a view shown before keeps its own
    for change in sets if isinstance(sets, list) else ():
        if not isinstance(change, list) or len(change) != 2:
            raise ValueError("a change without its value")
        node, key = parent(change[0])
        node[key] = change[1]
    return out


class PlayersPublisher:
    """The GM's side of the players' file: the players' projection of the session, kept up to date.

    :meth:`build` is called (off the UI thread) with a read-only copy of the session as it was when
    the save was taken; it projects only the events appended since the last call when it can
    (:class:`PublicLog`), and each public event is turned into its JSON line once.
    """

    def __init__(self) -> None:
        self._log: PublicLog | None = None
        self._count = 0
        self._events: list[Event] = []
        self._lines: list[bytes] = []
        """The public events of the last call and their lines: an event is written as JSON once."""
        self._requests: RequestIndex | None = None
        """Where the roll requests stand in the log: a save looks at its new events only, not the whole log."""

    def build(self, tracker: Tracker, seat_problems: Mapping[str, str] | None = None) -> tuple[Head, list[bytes]]:
        """The head (state, open requests, own rolls, what keeps the GM's app from taking a seat's
        requests) and each standing public event's line."""
        n = len(tracker.events)
        if self._log is None or n < self._count:
            self._log = PublicLog(tracker)
        else:
            self._log.extend(tracker, [tracker.events[i] for i in range(self._count, n)])
        self._count = n
        view = self._log.view
        if self._requests is None:
            from .seats import RequestIndex  # the seats' module only once the GM's app publishes

            self._requests = RequestIndex()
        head: Head = {"state": view.state, "offers": seat_offers_public(tracker, self._log._p.unnamed, self._requests),
                "own": own_rolls_public(tracker, self._log._p.unnamed),
                "seat_problems": {cid: str(text) for cid, text in (seat_problems or {}).items()
                                  if cid in view.state["characters"]}}
        events = view.events
        done = len(self._events)
        if len(events) >= done and events[:done] == self._events:
            # Only appended since (the same events, compared by identity first): only those become lines.
            out = self._lines + [_line(ev) for ev in events[done:]]
        else:
            # Undone or renumbered: an event unchanged since (the same object) keeps its line.
            cache = {id(ev): (ev, line) for ev, line in zip(self._events, self._lines)}
            out = []
            for ev in events:
                got = cache.get(id(ev))
                out.append(got[1] if got is not None and got[0] is ev else _line(ev))
        self._events, self._lines = list(events), out
        return head, out

    def projects_whole(self, events: int) -> bool:
        """Will :meth:`build` with this many events project the whole log (the first call, or after an undo)?"""
        return self._log is None or events < self._count

    def lines(self, tracker: Tracker, seat_problems: Mapping[str, str] | None = None) -> list[bytes]:
        """The players' file written whole, one JSON value a line: the head, then each event."""
        head, events = self.build(tracker, seat_problems)
        return [_head_line(head, len(events)), *events]


def _head_line(head: Mapping[str, Any], events: int) -> bytes:
    return _line({"format": PLAYERS_FORMAT, "version": PLAYERS_VERSION, "events": events, **head})


GIL_SLICE_S = 0.0005
"""The interpreter's switch interval while the whole log is projected (its default is 5 ms)."""


@contextmanager
def _brief_gil_slices(on: bool) -> Iterator[None]:
    """While the whole log is projected in the GM's save worker (3.5 s at 10,000 events on a quiet machine),
    hand the interpreter over every :data:`GIL_SLICE_S` instead of every 5 ms: the UI thread, back from
    waiting for a key or a seat's request, otherwise waited up to 5 ms for it at every turn (measured while
    projecting at 10,000 events, load 6: p50 5.9 -> 0.8 ms a turn; the projection took as long)."""
    if not on:
        yield
        return
    was = sys.getswitchinterval()
    sys.setswitchinterval(min(was, GIL_SLICE_S))
    try:
        yield
    finally:
        sys.setswitchinterval(was)


@contextmanager
def _collector_waits(on: bool) -> Iterator[None]:
    """While the whole log is projected, the cyclic garbage collector waits (when it is on): the projection
    makes the events and the players' view that live as long as the app (some 280,000 tables and lists at
    10,000 events), and each full pass of the collector in between walked all of them and the app's own
    (four passes, 0.35 of 1.8 s of CPU measured on a quiet machine) to find nothing to free; what is
    dropped meanwhile is freed by reference counting. Left as it was when it was off (the app's start)."""
    if not on or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


PlayersSnapshot = tuple["State | None", "list[Event] | EventLog", frozenset[int], dict[str, str]]
"""What the players' file is made from: a copy of the state (None: the writer's own copy, brought up to date
with the changes of the events saved since its last write), the events (a list, or a copy of the lazy log),
which of them are undone, the seats' problems."""


@dataclass
class _Written:
    """What the GM's app last put in the players' file (to append the next save to it)."""

    ident: tuple[int, int, int]
    """(device, inode, size) of the file after it: anything else there now is written whole."""
    head: dict[str, Any]
    """The head as a reader has it (JSON read back)."""
    events: list[bytes]
    """The standing events' lines, as a reader has them."""
    whole: int
    """The size it had when it was last written whole."""
    appended: int = 0
    """Bytes appended since."""


class PlayersFile:
    """The GM's side of the players' file of one session: taken on the UI thread, written in a worker.

    The GM's app calls :meth:`snapshot` right after the session file's own snapshot and
    :meth:`write` after that save is written, so the players' file never runs ahead of the
    session file: the events still pending (a dice commitment ends a save of its own, and what
    follows it waits for the next one) are left out, with their changes to the state.
    The first write replaces the file whole; later ones append what changed (see the module's
    docstring).
    """

    def __init__(self, session_path: str | os.PathLike[str]) -> None:
        self.path = players_path(session_path)
        self._publisher = PlayersPublisher()
        self._published: tuple[int, int, frozenset[int]] | None = None
        self._io = threading.Lock()
        self._written: _Written | None = None
        self.problem = ""
        """Why the players' file could not be written the last time (one line), or ""."""
        self.seat_problems: dict[str, str] = {}
        """Seat (character id) → what keeps the GM's app from taking its requests (published to the seats)."""
        self.whole_writes = 0
        """How many times the file was written whole (the rest were appended)."""
        self._state: State | None = None
        """The writer's copy of the session's state as of its last write (``_at`` events): each save brings it up to
        date with the changes of the events saved since, as loading the session file does, so the UI thread does
        not copy the whole state at every save (2-3 ms at 10,000 events). None: the next snapshot copies it."""
        self._at = 0
        self._of: Tracker | None = None
        """The tracker the copy follows: another one (a session opened again) is copied whole."""

    def set_seat_problems(self, problems: Mapping[str, str]) -> bool:
        """Publish these seats' problems with the next write; True when they changed."""
        if dict(problems) == self.seat_problems:
            return False
        self.seat_problems = dict(problems)
        self._published = None
        return True

    def snapshot(self, tracker: Tracker) -> PlayersSnapshot | None:
        """What to write now (call on the UI thread), or None when nothing changed since the last one."""
        from ..model import apply_changes, invert_changes
        from ..store import EventLog

        log = tracker.events
        later = list(tracker.unsaved)
        kept = len(log) - len(later)
        last = log[kept - 1]["seq"] if kept > 0 else 0
        undone = frozenset(s for s in tracker.undone if s <= last)
        mark = (id(tracker), kept, undone)
        if mark == self._published:
            return None
        self._published = mark
        events = log.copy(drop_last=len(later)) if isinstance(log, EventLog) else list(log)[:kept]
        if self._state is not None and self._of is tracker and self._at <= kept:
            return None, events, undone, dict(self.seat_problems)  # the writer brings its copy up to date
        self._of = tracker
        state = clone(tracker.state)
        for ev in reversed(later):
            # The state before the events still pending: each one's changes undone, last first.
            apply_changes(state, invert_changes(ev.get("changes", [])))
        return state, events, undone, dict(self.seat_problems)

    def _state_of(self, given: State | None, events: list[Event] | EventLog) -> State | None:
        """The state the players' file is made from: ``given`` (a copy, now the writer's own), or the writer's
        copy with the changes of the events after the ones it had (None, and the next snapshot copies the
        state whole, when they do not fit it: never expected, as they are what the session file replays)."""
        from ..model import apply_changes

        if given is None and (self._state is None or len(events) < self._at):
            self._state = None
            return None
        if given is not None:
            self._state = given
        else:
            assert self._state is not None
            try:
                for i in range(self._at, len(events)):
                    apply_changes(self._state, events[i].get("changes", []))
            except (StateError, KeyError, IndexError, TypeError, ValueError):
                self._state = None
                return None
        self._at = len(events)
        return self._state

    def write(self, snap: PlayersSnapshot) -> None:
        """Append this save to the players' file, or write it whole (any thread); a failure is kept in
        :attr:`problem`."""
        with self._io:
            try:
                given, events, undone, problems = snap
                state = self._state_of(given, events)
                if state is None:
                    # The next save's snapshot copies the state whole, and that write is whole.
                    self._published = None
                    self._written = None
                    return
                whole = self._publisher.projects_whole(len(events))
                with _brief_gil_slices(whole), _collector_waits(whole):
                    head, lines = self._publisher.build(Tracker.snapshot_of(state, events, undone), problems)
                if not self._append(head, lines):
                    self._write_whole(head, lines)
            except OSError as e:
                self._written = None
                self.problem = _("the players' file {name} could not be written: {why}", name=self.path.name,
                                 why=e.strerror or str(e))
            else:
                self.problem = ""

    def _write_whole(self, head: Head, lines: list[bytes]) -> None:
        from ..store.atomic import replace_file

        self._written = None
        first = _head_line(head, len(lines))
        replace_file(self.path, b"\n".join([first, *lines]) + b"\n")
        self.whole_writes += 1
        st = os.stat(self.path)
        self._written = _Written((st.st_dev, st.st_ino, st.st_size), json.loads(_line(head)), list(lines), st.st_size)

    def _append(self, head: Head, lines: list[bytes]) -> bool:
        """Append what changed since the last write: the new events and the save's ``save`` line. False when
        the file must be written whole (none written yet, someone else's file there now, time to compact)."""
        from ..store.atomic import write_all

        was = self._written
        if was is None:
            return False
        old = was.events
        keep = len(old)
        if lines[:keep] != old:
            keep = next((i for i, (a, b) in enumerate(zip(old, lines)) if a is not b and a != b),
                        min(len(old), len(lines)))
        now = json.loads(_line(head))
        sets: list[Any] = []
        dels: list[Any] = []
        splices: list[Any] = []
        _diff(was.head, now, [], sets, dels, splices)
        if keep == len(old) == len(lines) and not sets and not dels and not splices:
            return True  # nothing the players see changed
        if keep < len(old) or any(path[0] == "state" for path in dels):
            # Something shown before is withdrawn (an undo, a character made secret later, whose name leaves
            # every earlier event): the file must not keep it, so it is written whole.
            return False
        save: dict[str, Any] = {"events": len(lines)}
        if sets:
            save["set"] = sets
        if dels:
            save["del"] = dels
        if splices:
            save["splice"] = splices
        data = b"".join(line + b"\n" for line in lines[keep:]) + _line({"save": save}) + b"\n"
        if was.appended + len(data) > max(was.whole, COMPACT_AT):
            return False  # compact: the file is written whole again
        flags = os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
        try:
            fd = os.open(self.path, flags)
        except OSError:
            return False
        try:
            st = os.fstat(fd)
            if (st.st_dev, st.st_ino, st.st_size) != was.ident:
                return False  # not the file written last (replaced, cut, appended to by another)
            try:
                write_all(fd, data)
                os.fsync(fd)
            except OSError:
                self._written = None
                try:
                    os.ftruncate(fd, st.st_size)  # a reader never takes a torn save for one; the next write is whole
                except OSError:
                    pass
                raise
        finally:
            os.close(fd)
        was.ident = (st.st_dev, st.st_ino, st.st_size + len(data))
        was.head, was.events, was.appended = now, list(lines), was.appended + len(data)
        return True

    def publish_now(self, tracker: Tracker) -> None:
        """Write the players' file now, on this thread, when it changed (after a headless save)."""
        snap = self.snapshot(tracker)
        if snap is not None:
            self.write(snap)


def players_text(tracker: Tracker) -> str:
    """The players' file of ``tracker`` as the GM's app would write it whole now."""
    return (b"\n".join(PlayersPublisher().lines(tracker)) + b"\n").decode("utf-8")


def publish(session_path: str | os.PathLike[str], tracker: Tracker) -> Path:
    """Write the players' file of a session whole now (atomically), as the GM's app does on opening it; its path.

    Raises:
        OSError: it could not be written.
    """
    from ..store.atomic import replace_file

    path = players_path(session_path)
    replace_file(path, players_text(tracker).encode("utf-8"))
    return path


@dataclass
class View:
    """One good reading of the players' file."""

    tracker: Tracker
    """The players' view of the session (see :func:`public_view`), as the GM's app published it."""
    offers: dict[str, list[Raw]]
    """Character id → its open roll requests as its seat may see them (:meth:`seats.Offer.public`)."""
    seat_problems: dict[str, str]
    """Character id → what keeps the GM's app from taking that seat's requests (one line), if anything."""
    loaded_at: str
    """When it was read, as the follower's clock shows it (``HH:MM:SS``)."""
    own: dict[str, list[Raw]] = field(default_factory=dict)
    """Character id → the rolls its seat may make of its own accord now
    (:meth:`polku.session.players.seat_rolls.OwnRoll.public`)."""


_SEQ = re.compile(rb'\{"seq":([1-9][0-9]{0,17}),')
"""How every event line the GM's app writes begins: its number is read without parsing the line."""


class EventLines(Sequence[Event]):
    """A players' file's standing events, each line parsed when first looked at.

    A view shows the last page of the log and looks events up by number: at 10,000 events, parsing
    every line before the first frame was most of a seat's start. ``seqs`` holds every event's number
    (read from the line's start); the parsed events are shared with later readings (``known``).
    """

    __slots__ = ("raws", "seqs", "_known")

    def __init__(self, raws: list[bytes], seqs: list[int], known: dict[bytes, Raw]) -> None:
        self.raws = raws
        self.seqs = seqs
        self._known = known

    def __len__(self) -> int:
        return len(self.raws)

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> list[Event]: ...

    def __getitem__(self, index: int | slice) -> Event | list[Event]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self.raws)))]
        raw = self.raws[index]
        ev = self._known.get(raw)
        if ev is None:
            try:
                ev = json.loads(raw)
            except (ValueError, RecursionError):
                ev = None
            if not isinstance(ev, dict) or ev.get("seq") != self.seqs[index]:
                # Never written so by the GM's app: shown as what it is, not taken for an event.
                ev = {"seq": self.seqs[index], "kind": "unreadable", "text": _("(a line of the players' file that cannot be read)")}
            self._known[raw] = ev
        return cast("Event", ev)

    def __iter__(self) -> Iterator[Event]:
        for i in range(len(self.raws)):
            yield self[i]

    def __bool__(self) -> bool:
        return bool(self.raws)


def _seq_of(ev: Raw) -> int:
    """A parsed event's number (:meth:`_Reading._event` let in only events with one)."""
    seq = ev.get("seq")
    if not isinstance(seq, int):
        raise ValueError("an event without its number")
    return seq


class _Reading:
    """A players' file as read so far: its head, its standing events, and where the next save begins.

    :meth:`whole` reads a file's bytes from its start, :meth:`more` the bytes appended after
    :attr:`end`; either takes only complete saves (a save's lines end with its ``save`` line).
    """

    def __init__(self, name: str, known: Mapping[bytes, Raw] | None = None) -> None:
        self.name = name
        self.head: dict[str, Any] = {}
        self.lines: list[bytes] = []
        self.seqs: list[int] = []
        self.events = EventLines([], [], {})
        self.index: dict[int, int] = {}
        self.end = 0
        """Bytes of the file read and applied (the start of the next save)."""
        self.known: dict[bytes, Raw] = dict(known or {})

    def _event(self, raw: bytes) -> Raw:
        ev = self.known.get(raw)
        if ev is None:
            ev = json.loads(raw)
            if not isinstance(ev, dict) or not isinstance(ev.get("seq"), int):
                raise ValueError("an event without its number")
            self.known[raw] = ev
        return ev

    def whole(self, data: bytes) -> None:
        """Read a whole file.

        Raises:
            PlayersError: one line.
        """
        first, nl, _rest = data.partition(b"\n")
        try:
            head = json.loads(first) if nl else None
        except (ValueError, RecursionError):
            head = None
        if not isinstance(head, dict) or head.get("format") != PLAYERS_FORMAT:
            raise PlayersError(said(N_("{name} is not a players' file"), name=self.name))
        if head.get("version") != PLAYERS_VERSION:
            raise PlayersError(said(N_("{name} is of another Polku version (players' file version {version}): "
                                       "the GM's app of this version writes it again when it opens the session"),
                                    name=self.name, version=str(head.get('version'))))
        count = head.get("events")
        pos = len(first) + 1
        raws = data[pos:].split(b"\n", count) if isinstance(count, int) and count >= 0 else []
        if not isinstance(count, int) or len(raws) != count + 1:
            raise PlayersError(said(N_("{name} is cut short"), name=self.name))
        rest = raws.pop()
        pos = len(data) - len(rest)
        try:
            seqs = [self._seq(raw) for raw in raws]
            self.head = {k: v for k, v in head.items() if k not in ("format", "version", "events")}
            if not isinstance(self.head.get("state"), dict):
                raise ValueError("no state")
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
            raise PlayersError(said(N_("{name} is broken"), name=self.name)) from None
        known = self.known
        self.known = {raw: known[raw] for raw in raws if raw in known} if known else {}  # this file's, nothing older
        self.lines, self.seqs, self.end = raws, seqs, pos
        self.events = EventLines(raws, seqs, self.known)
        self.index = {seq: i for i, seq in enumerate(seqs)}
        self.more(rest)

    def _seq(self, raw: bytes) -> int:
        """An event line's number (the line parsed only when it does not begin as the GM's app writes)."""
        m = _SEQ.match(raw)
        if m is not None and raw.endswith(b"}"):
            return int(m.group(1))
        return _seq_of(self._event(raw))

    def more(self, data: bytes) -> bool:
        """Apply the complete saves in ``data`` (the bytes from :attr:`end` on). True when one was applied.

        Raises:
            PlayersError: one line (the saves before the broken one stay applied).
        """
        base, pos = self.end, 0
        pending: list[bytes] = []
        applied = False
        try:
            while True:
                at = data.find(b"\n", pos)
                if at < 0:
                    break  # a save still being written (or torn): read again when it is complete
                raw = data[pos:at]
                pos = at + 1
                if raw.startswith(b'{"save":'):
                    self._apply(pending, json.loads(raw)["save"])
                    pending = []
                    applied = True
                    self.end = base + pos
                else:
                    pending.append(raw)
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError, IndexError):
            raise PlayersError(said(N_("{name} is broken"), name=self.name)) from None
        return applied

    def _apply(self, raws: list[bytes], save: dict[str, Any]) -> None:
        new = [self._event(raw) for raw in raws]
        keep = len(self.lines)
        if save.get("events") != keep + len(new):
            raise ValueError("a save that does not add up")
        head = _patched(self.head, save.get("set", []), save.get("del", []), save.get("splice", []))
        if not isinstance(head.get("state"), dict):
            raise ValueError("no state")
        seqs = [_seq_of(ev) for ev in new]
        index = dict(self.index)
        index.update((seq, keep + i) for i, seq in enumerate(seqs))
        self.head, self.lines, self.seqs, self.index = head, self.lines + raws, self.seqs + seqs, index
        self.events = EventLines(self.lines, self.seqs, self.known)

    def view(self, now: str) -> View:
        """A view of what was read (a new tracker: the one shown before does not change under its reader).

        Raises:
            PlayersError: the head is broken.
        """
        head = self.head
        try:
            offers = head.get("offers", {})
            if not isinstance(offers, dict):
                raise ValueError("requests are not a table")
            tracker = Tracker(head["state"], [], read_only=True)
            tracker.events = cast("list[Event]", self.events)  # a new sequence for each save read
            tracker._index = self.index  # event_by_seq; nothing is undone here
        except (ValueError, KeyError, TypeError, AttributeError, StateError, RecursionError):
            raise PlayersError(said(N_("{name} is broken"), name=self.name)) from None
        got = head.get("seat_problems", {})
        own = head.get("own", {})
        problems = {str(k): str(v) for k, v in got.items()} if isinstance(got, dict) else {}
        return View(tracker, _tables_by_seat(offers), problems, now, _tables_by_seat(own))


def _tables_by_seat(value: object) -> dict[str, list[Raw]]:
    """Character id → its tables, from a head's ``offers`` or ``own`` as read back (what is no table is left out)."""
    if not isinstance(value, dict):
        return {}
    return {str(k): [r for r in v if isinstance(r, dict)] for k, v in value.items() if isinstance(v, list)}


def parse_players(data: bytes, *, known: Mapping[bytes, Raw] | None = None,
                  name: str = "the players' file") -> tuple[Tracker, dict[str, list[Raw]], dict[bytes, Raw]]:
    """Read a players' file's bytes: the view, the open requests, and each standing event line's parsed
    event (``known``: an earlier reading's, so an unchanged line is not parsed again).

    Raises:
        PlayersError: one line.
    """
    reading = _Reading(name, known)
    reading.whole(data)
    view = reading.view("")
    return view.tracker, view.offers, reading.known


def load_players(path: str | os.PathLike[str]) -> tuple[Tracker, dict[str, list[Raw]]]:
    """The players' view of a session from its players' file (never the session file itself).

    Raises:
        PlayersError: one line (the file is missing, unreadable or broken).
    """
    file = players_path(path)
    try:
        data = file.read_bytes()
    except FileNotFoundError:
        raise PlayersError(said(N_("{path} is missing: the GM's app writes it when it opens the session"),
                                path=str(file))) from None
    except OSError as e:
        raise PlayersError(said(N_("cannot read {path}: {reason}"), path=str(file), reason=str(e.strerror or e))) from None
    view, offers, _ = parse_players(data, name=str(file))
    return view, offers


class Follower:
    """Follow the players' file of a session as the GM's app publishes it; keep the last good view when it breaks.

    The follower keeps the file open and reads only what was appended since its last reading
    (complete saves only); a replaced or shortened file is read whole again (see the module's
    docstring). It never opens the session file: the players' account need not be able to read it
    (docs/remote-play.md).

    Args:
        path: the session file (or its players' file).
        now: the local time of day as text (injected in tests).
    """

    def __init__(self, path: str | os.PathLike[str], *,
                 now: Callable[[], str] = lambda: time.strftime("%H:%M:%S")) -> None:
        self.path = Path(path)
        self.now = now
        self.view: View | None = None
        """The last good view, or None before the first good reading."""
        self.problem: str | None = None
        """One line: why the view cannot be shown now (the last good view stays)."""
        self.notices: list[str] = []
        self._seen: tuple[int, int, int, int] | None = None
        self._fd: int | None = None
        """The players' file as opened for the last reading (kept open: its inode is not reused while so)."""
        self._reading: _Reading | None = None
        self.reads = 0
        """How many readings were made."""
        self.whole_reads = 0
        """How many of them read the file whole (the rest read what was appended)."""
        self.bytes_read = 0
        """Bytes read from the players' file so far."""

    @property
    def lines_parsed(self) -> int:
        """How many of the standing event lines were parsed (a line is parsed when first looked at)."""
        return len(self._reading.known) if self._reading is not None else 0

    @property
    def file(self) -> Path:
        """The players' file followed (worked out at each look: a symlink may point elsewhere now)."""
        return players_path(self.path)

    def _stat(self) -> tuple[int, int, int, int] | None:
        try:
            st = os.stat(self.file)
        except OSError:
            return None
        return (st.st_ino, st.st_dev, st.st_size, st.st_mtime_ns)

    def changed(self) -> bool:
        """Has the players' file changed since the last reading (or gone missing)?"""
        sig = self._stat()
        if sig is None:
            return self._seen is not None or self.problem is None
        return sig != self._seen

    def close(self) -> None:
        """Let go of the file (the follower opens it again at its next reading)."""
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:
                pass
            self._fd = None

    def __del__(self) -> None:
        self.close()

    def _read_from(self, fd: int, start: int) -> bytes:
        chunks = []
        pos = start
        while True:
            got = os.pread(fd, 1 << 20, pos)
            if not got:
                break
            chunks.append(got)
            pos += len(got)
        data = b"".join(chunks)
        self.bytes_read += len(data)
        return data

    def _read(self, file: Path, sig: tuple[int, int, int, int]) -> bool:
        """Read what was appended to the file open now, or the whole file when it is another one. True when
        the reading changed."""
        reading = self._reading
        fd = self._fd
        if fd is not None and reading is not None:
            st = os.fstat(fd)
            if (st.st_ino, st.st_dev) == sig[:2] and st.st_size >= reading.end:
                data = self._read_from(fd, reading.end)
                try:
                    return reading.more(data)
                except PlayersError:
                    pass  # read it whole: it may have been written whole since
        self.close()
        flags = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
        fd = self._fd = os.open(file, flags)
        self.whole_reads += 1
        reading = _Reading(str(file), self._reading.known if self._reading is not None else None)
        reading.whole(self._read_from(fd, 0))
        self._reading = reading
        return True

    def reload(self) -> bool:
        """Read the players' file now. Returns True when the view changed (or a problem appeared)."""
        file = self.file
        sig = self._stat()
        if sig is None:
            was = self.problem
            self.problem = _("{path} is missing", path=str(file))
            self._seen = None
            self.close()
            return was != self.problem
        self.reads += 1
        try:
            changed = self._read(file, sig)
            reading = self._reading
            assert reading is not None
            view = self.view if not changed and self.problem is None and self.view is not None else reading.view(self.now())
        except PlayersError as e:
            self._seen = sig
            self.close()
            self._reading = None
            self.problem = told_error(e)
            return True
        except OSError as e:
            self._seen = sig
            self.close()
            self.problem = _("cannot read {path}: {reason}", path=str(file), reason=str(e.strerror or e))
            return True
        self._seen = sig
        was = self.problem
        self.problem = None
        self.view = view
        return changed or was is not None

    update = reload

    def poll(self) -> bool:
        """Read the file if it changed. Returns True when there is something new to show."""
        if not self.changed():
            return False
        return self.reload()

    def status(self) -> str:
        """One line for the players: what is shown and whether it is current."""
        if self.problem is None:
            if self.view is None:
                return _("waiting for {file}", file=self.file.name)
            return ngettext("live · {n} event", "live · {n} events", len(self.view.tracker.events))
        if self.view is None:
            return f"{self.problem}"
        return _("{problem} — showing the last good view from {time}", problem=self.problem, time=self.view.loaded_at)

    def short_status(self) -> str:
        """:meth:`status` in a few words, for a one-line status bar."""
        if self.problem is None:
            return self.status()
        what = _("file missing") if self.problem.endswith("is missing") else _("file unreadable")
        if self.view is None:
            return what
        return _("{what} · last good view from {time}", what=what, time=self.view.loaded_at)


__all__ = ["PLAYERS_SUFFIX", "Follower", "PlayersError", "PlayersFile", "PlayersPublisher", "View", "load_players",
           "parse_players", "players_path", "players_text", "publish"]

