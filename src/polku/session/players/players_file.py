"""The players' file: what the GM's app publishes for the players' views (watch, seats, the
players' export), and following it as the GM saves.

The GM's app writes the players' projection of the session (:mod:`.public`, where the secrets stop)
next to the session file, as JSON lines: a head, then one line per public event.

:class:`Follower` reads a session file again whenever its identity, size or
modification time changes: only the event blocks appended since the last
reading when the file was only appended to, the whole file when it was
replaced. Full saves replace the file atomically and appended events end with
a ``# end of event N`` mark, so a reader never takes a torn block for an
event: a last block still being written waits for the next reading. When the
file disappears or breaks, the follower keeps its last good view and says so.

No textual, no rich.
"""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, cast

from ...i18n import _, ngettext
from ..model import (
    Event,
    State,
    StateError,
    clone,
)
from ..tracker import Tracker
from .public import PublicLog, own_rolls_public, seat_offers_public

# ---------------------------------------------------------------------------
# The players' file: what the GM's app publishes, what the players' views read


PLAYERS_SUFFIX = ".players.jsonl"
"""The players' file is the session file's name without ``.toml`` plus this, in the same folder."""
PLAYERS_FORMAT = "polku-players"
PLAYERS_VERSION = 1


def players_path(path: str | os.PathLike[str]) -> Path:
    """The players' file of a session file (symlinks resolved, as the spool's: a link and its target share
    one); a players' file given itself is its own."""
    p = Path(path).resolve()
    if p.name.endswith(PLAYERS_SUFFIX):
        return p
    return p.with_name(p.name.removesuffix(".toml") + PLAYERS_SUFFIX)


class PlayersError(Exception):
    """One line: the players' file cannot be read (missing, not a players' file, broken)."""


def _line(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str).encode("utf-8")


class PlayersPublisher:
    """The GM's side of the players' file: the players' projection of the session, kept up to date.

    :meth:`lines` is called (off the UI thread) with a read-only copy of the session as it was when
    the save was taken; it projects only the events appended since the last call when it can
    (:class:`PublicLog`), and each public event is turned into its JSON line once.
    """

    def __init__(self) -> None:
        self._log: PublicLog | None = None
        self._count = 0
        self._json: dict[int, tuple[Event, bytes]] = {}
        """id(public event) → (the event, its line): an event is written as JSON once."""

    def lines(self, tracker: Tracker, seat_problems: Mapping[str, str] | None = None) -> list[bytes]:
        """The players' file, one JSON value a line: the header (state, open requests, what keeps the GM's
        app from taking a seat's requests), then each event."""
        n = len(tracker.events)
        if self._log is None or n < self._count:
            self._log = PublicLog(tracker)
        else:
            self._log.extend(tracker, [tracker.events[i] for i in range(self._count, n)])
        self._count = n
        view = self._log.view
        head = {"format": PLAYERS_FORMAT, "version": PLAYERS_VERSION, "events": len(view.events),
                "state": view.state, "offers": seat_offers_public(tracker, self._log._p.unnamed),
                "own": own_rolls_public(tracker, self._log._p.unnamed),
                "seat_problems": {cid: str(text) for cid, text in (seat_problems or {}).items()
                                  if cid in view.state["characters"]}}
        out = [_line(head)]
        cache: dict[int, tuple[Event, bytes]] = {}
        for ev in view.events:
            got = self._json.get(id(ev))
            if got is None or got[0] is not ev:
                got = (ev, _line(ev))
            cache[id(ev)] = got
            out.append(got[1])
        self._json = cache
        return out


PlayersSnapshot = tuple[State, Any, frozenset[int], dict[str, str]]
"""What the players' file is made from: a copy of the state, the events (a list, or a copy of the lazy
log), which of them are undone, the seats' problems."""


class PlayersFile:
    """The GM's side of the players' file of one session: taken on the UI thread, written in a worker.

    The GM's app calls :meth:`snapshot` right after the session file's own snapshot and
    :meth:`write` after that save is written, so the players' file never runs ahead of the
    session file: the events still pending (a dice commitment ends a save of its own, and what
    follows it waits for the next one) are left out, with their changes to the state.
    """

    def __init__(self, session_path: str | os.PathLike[str]) -> None:
        self.path = players_path(session_path)
        self._publisher = PlayersPublisher()
        self._published: tuple[int, int, frozenset[int]] | None = None
        self._io = threading.Lock()
        self.problem = ""
        """Why the players' file could not be written the last time (one line), or ""."""
        self.seat_problems: dict[str, str] = {}
        """Seat (character id) → what keeps the GM's app from taking its requests (published to the seats)."""

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
        state = clone(tracker.state)
        for ev in reversed(later):
            # The state before the events still pending: each one's changes undone, last first.
            apply_changes(state, invert_changes(ev.get("changes", [])))
        return state, events, undone, dict(self.seat_problems)

    def write(self, snap: PlayersSnapshot) -> None:
        """Replace the players' file atomically (any thread); a failure is kept in :attr:`problem`."""
        from ..store.atomic import replace_file

        with self._io:
            try:
                state, events, undone, problems = snap
                lines = self._publisher.lines(Tracker.snapshot_of(state, events, undone), problems)
                replace_file(self.path, b"\n".join(lines) + b"\n")
            except OSError as e:
                self.problem = _("the players' file {name} could not be written: {why}", name=self.path.name,
                                 why=e.strerror or str(e))
            else:
                self.problem = ""

    def publish_now(self, tracker: Tracker) -> None:
        """Write the players' file now, on this thread, when it changed (after a headless save)."""
        snap = self.snapshot(tracker)
        if snap is not None:
            self.write(snap)


def players_text(tracker: Tracker) -> str:
    """The players' file of ``tracker`` as the GM's app would write it now."""
    return (b"\n".join(PlayersPublisher().lines(tracker)) + b"\n").decode("utf-8")


def publish(session_path: str | os.PathLike[str], tracker: Tracker) -> Path:
    """Write the players' file of a session now (atomically), as the GM's app does after a save; its path.

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
    offers: dict[str, list[dict[str, Any]]]
    """Character id → its open roll requests as its seat may see them (:meth:`seats.Offer.public`)."""
    seat_problems: dict[str, str]
    """Character id → what keeps the GM's app from taking that seat's requests (one line), if anything."""
    loaded_at: str
    """When it was read, as the follower's clock shows it (``HH:MM:SS``)."""
    own: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """Character id → the rolls its seat may make of its own accord now
    (:meth:`polku.session.players.seat_rolls.OwnRoll.public`)."""


def parse_players(data: bytes, *, known: Mapping[bytes, dict[str, Any]] | None = None,
                  name: str = "the players' file") -> tuple[Tracker, dict[str, list[dict[str, Any]]],
                                                           dict[bytes, dict[str, Any]]]:
    """Read a players' file's bytes: the view, the open requests, and each event line's parsed event
    (``known``: the last reading's, so an unchanged line is not parsed again).

    Raises:
        PlayersError: one line.
    """
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    try:
        head = json.loads(lines[0]) if lines else None
    except (ValueError, RecursionError):
        head = None
    if not isinstance(head, dict) or head.get("format") != PLAYERS_FORMAT:
        raise PlayersError(f"{name} is not a players' file")
    if head.get("version") != PLAYERS_VERSION:
        raise PlayersError(f"{name} is of another Polku version (players' file version {head.get('version')})")
    count = head.get("events")
    if not isinstance(count, int) or count != len(lines) - 1:
        raise PlayersError(f"{name} is cut short")
    known = known or {}
    parsed: dict[bytes, dict[str, Any]] = {}
    events: list[dict[str, Any]] = []
    try:
        for raw in lines[1:]:
            ev = known.get(raw) or parsed.get(raw)
            if ev is None:
                ev = json.loads(raw)
                if not isinstance(ev, dict) or not isinstance(ev.get("seq"), int):
                    raise ValueError("an event without its number")
            parsed[raw] = ev
            events.append(ev)
        offers = head.get("offers", {})
        if not isinstance(offers, dict):
            raise ValueError("requests are not a table")
        view = Tracker(head["state"], [], read_only=True)
        view.events = cast("list[Event]", events)
        view._index = {ev["seq"]: i for i, ev in enumerate(events)}  # event_by_seq; nothing is undone here
    except (ValueError, KeyError, TypeError, AttributeError, StateError, RecursionError):
        raise PlayersError(f"{name} is broken") from None
    return view, offers, parsed


def _json_head_extras(data: bytes) -> tuple[dict[str, str], dict[str, list[dict[str, Any]]]]:
    """The seats' problems and own rolls in a players' file's first line (checked already by
    :func:`parse_players`)."""
    try:
        head = json.loads(data.split(b"\n", 1)[0])
    except (ValueError, RecursionError):
        return {}, {}
    got = head.get("seat_problems", {}) if isinstance(head, dict) else {}
    own = head.get("own", {}) if isinstance(head, dict) else {}
    problems = {str(k): str(v) for k, v in got.items()} if isinstance(got, dict) else {}
    rolls = {str(k): [r for r in v if isinstance(r, dict)] for k, v in own.items()
             if isinstance(v, list)} if isinstance(own, dict) else {}
    return problems, rolls


def load_players(path: str | os.PathLike[str]) -> tuple[Tracker, dict[str, list[dict[str, Any]]]]:
    """The players' view of a session from its players' file (never the session file itself).

    Raises:
        PlayersError: one line (the file is missing, unreadable or broken).
    """
    file = players_path(path)
    try:
        data = file.read_bytes()
    except FileNotFoundError:
        raise PlayersError(f"{file} is missing: the GM's app writes it when it opens the session") from None
    except OSError as e:
        raise PlayersError(f"cannot read {file}: {e.strerror or e}") from None
    view, offers, _ = parse_players(data, name=str(file))
    return view, offers


class Follower:
    """Follow the players' file of a session as the GM's app publishes it; keep the last good view when it breaks.

    The GM's app replaces the players' file atomically on every save, so a
    reader never sees half of one. The follower never opens the session file:
    the players' account need not be able to read it (docs/remote-play.md).
    An event line unchanged since the last reading is not parsed again.

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
        self._known: dict[bytes, dict[str, Any]] = {}
        self.reads = 0
        """How many readings were made."""

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

    def reload(self) -> bool:
        """Read the players' file now. Returns True when the view changed (or a problem appeared)."""
        file = self.file
        sig = self._stat()
        if sig is None:
            was = self.problem
            self.problem = f"{file} is missing"
            self._seen = None
            return was != self.problem
        self.reads += 1
        try:
            data = file.read_bytes()
            tracker, offers, self._known = parse_players(data, known=self._known, name=str(file))
        except PlayersError as e:
            self._seen = sig
            self.problem = str(e)
            return True
        except OSError as e:
            self._seen = sig
            self.problem = f"cannot read {file}: {e.strerror or e}"
            return True
        self._seen = sig
        self.problem = None
        problems, own = _json_head_extras(data)
        self.view = View(tracker, offers, problems, self.now(), own)
        return True

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

