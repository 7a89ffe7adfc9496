"""Session files: open (lock, validate, replay), save (append or compact), continue.

The glue between the tracker (state + events) and :mod:`polku.session.store`
(bytes on disk). No textual: the app calls :meth:`SessionFile.save` from a
thread worker with a snapshot taken on the UI thread.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import __version__
from ..i18n import N_, Said, said
from . import model, store
from .model import Event, State, StateError, clone
from .tracker import Clock, Tracker

COMPACT_EVERY = 500
"""A full rewrite after this many appended events bounds replay on load."""


class SessionOpenError(Exception):
    """One line: which file, what is wrong, what to do."""


@dataclass(frozen=True, slots=True)
class SaveJob:
    """What one save writes: a snapshot taken on the UI thread."""

    events: list[Event]
    full: bool
    state: State | None = None
    all_events: list[Event] | store.EventLog | None = None
    """Every event, for a full rewrite (an :class:`~polku.session.store.EventLog` copies its raw blocks)."""
    snapshot_seq: int = 0


class SessionFile:
    """One session file on disk, with its lock (unless read-only).

    A save that fails gives its events back to the tracker (:meth:`give_back`),
    so nothing pending is lost whatever the path (autosave, ctrl+s, quitting).
    ``saved_seq`` is the last event known to be in the file: an append that
    would not follow it (events lost on some path) becomes a full rewrite, so
    the file never gets a gap. ``identity`` is what the file looked like after
    this process last read or wrote it: a file changed by another program
    (a backup copied back) is refused with :class:`store.ReplacedError`
    rather than appended to, until the GM asks to save anyway
    (:attr:`overwrite_replaced`).
    """

    def __init__(self, path: Path, read_only: bool = False, lock: store.SessionLock | None = None,
                 notices: list[str] | None = None, appended_since_full: int = 0,
                 saved_seq: int = 0) -> None:
        self.path = path
        self.read_only = read_only
        self.lock = lock
        self.notices: list[str] = notices if notices is not None else []
        self.appended_since_full = appended_since_full
        self.saved_seq = saved_seq
        self.identity: tuple[int, ...] | None = None
        self.overwrite_replaced = False
        """Set by the GM's explicit "save anyway": the next save keeps the other file aside and rewrites."""
        self.kept_aside: Path | None = None
        self._io = threading.Lock()

    def __repr__(self) -> str:
        return f"SessionFile({str(self.path)!r}, read_only={self.read_only})"

    def snapshot(self, tracker: Tracker) -> SaveJob | None:
        """Take what must be written now (call on the UI thread).

        A dice secret's commitment is published in a save of its own: when events
        follow a commitment (a roll made before the save of a new session ended),
        this save ends with the commitment and the rest stays pending for the next
        one, so the file the players read holds the commitment before the first
        roll it covers (docs/verifiable-dice.md). A full save then writes the
        state as it was at the commitment.
        """
        events, full = tracker.take_unsaved()
        if not events and not full:
            return None
        later: list[Event] = []
        cut = _after_commitment(events)
        if cut is not None:
            events, later = events[:cut], events[cut:]
            tracker.unsaved = later + tracker.unsaved
        if not self.path.exists() or self.overwrite_replaced:
            full = True
        if self.appended_since_full + len(events) >= COMPACT_EVERY:
            full = True
        if events and events[0]["seq"] != self.saved_seq + 1:
            full = True  # the file does not end where these events begin
        if full:
            log = tracker.events
            all_events = log.copy(drop_last=len(later)) if isinstance(log, store.EventLog) \
                else list(log)[:len(log) - len(later)]
            state = clone(tracker.state)
            for ev in reversed(later):
                # The state before the events that stay pending: each one's changes undone, last first.
                model.apply_changes(state, model.invert_changes(ev.get("changes", [])))
            return SaveJob(events, True, state, all_events, events[-1]["seq"] if later else tracker.last_seq())
        return SaveJob(events, False)

    def save(self, job: SaveJob) -> None:
        """Write a snapshot (any thread; one write at a time).

        Raises:
            store.StoreError: one line; the last good file is untouched.
        """
        if self.read_only:
            raise store.StoreError(said(N_("{path}: open read-only; nothing was written"), path=str(self.path)))
        with self._io:
            if self.overwrite_replaced and job.full:
                self._keep_other_aside()
            else:
                self._check_not_replaced()
            try:
                if job.full:
                    if job.state is None:
                        raise store.StoreError(said(N_("{path}: a full save without a state; nothing was written"),
                                                    path=str(self.path)))
                    store.write_full(self.path, document(job.state, job.all_events or [], job.snapshot_seq))
                    self.appended_since_full = 0
                    self.saved_seq = job.snapshot_seq
                else:
                    store.append_events(self.path, job.events)
                    self.appended_since_full += len(job.events)
                    if job.events:
                        self.saved_seq = job.events[-1]["seq"]
                self.overwrite_replaced = False
            finally:
                # A failed append truncates the file back, which changes its time:
                # still this process's own file.
                self.identity = store.identity(self.path)

    def remember_identity(self) -> None:
        """Note what the file looks like now (after opening it)."""
        self.identity = store.identity(self.path)

    def _check_not_replaced(self) -> None:
        if self.identity is None:
            return
        now = store.identity(self.path)
        if now == self.identity:
            return
        if now is None:
            raise store.ReplacedError(said(N_(
                "{path} was deleted or moved away since Polku last saved it; nothing was written and your changes are"
                " kept in memory; press ctrl+s to save your session there anyway (the other file is kept)"),
                path=str(self.path)))
        raise store.ReplacedError(said(N_(
            "{path} was replaced or changed by another program since Polku last saved it; nothing was written and"
            " your changes are kept in memory; press ctrl+s to save your session there anyway (the other file is"
            " kept)"), path=str(self.path)))

    def _keep_other_aside(self) -> None:
        """Before saving over a replaced file: rename it so that nothing of it is lost."""
        if store.identity(self.path) is None or store.identity(self.path) == self.identity:
            return
        base = f"{self.path.name}.replaced-{time.strftime('%Y%m%d-%H%M%S')}"
        aside, n = self.path.with_name(base), 2
        while aside.exists():
            aside, n = self.path.with_name(f"{base}-{n}"), n + 1
        try:
            os.replace(self.path, aside)
        except OSError as e:
            # the OS's reason (strerror) as the OS gives it, in a whole sentence in the reader's language
            raise store.StoreError(said(N_("could not keep the other {path} aside as {name}: {reason}; nothing was"
                                           " written"), path=str(self.path), name=aside.name,
                                        reason=str(e.strerror or e)), e.errno) from None
        self.kept_aside = aside

    def give_back(self, tracker: Tracker, job: SaveJob) -> None:
        """A save failed: its events are pending again, and the next save rewrites the whole file."""
        pending = {id(ev) for ev in tracker.unsaved}
        tracker.unsaved = [ev for ev in job.events if id(ev) not in pending] + tracker.unsaved
        tracker.needs_full_save = True

    def save_now(self, tracker: Tracker) -> None:
        """Save everything pending, on this thread (a commitment in a save of its own, then the
        rest: :meth:`snapshot`); on failure what is not on disk stays pending.

        Raises:
            store.StoreError: one line; the last good file is untouched.
        """
        while True:
            job = self.snapshot(tracker)
            if job is None:
                return
            try:
                self.save(job)
            except BaseException:
                self.give_back(tracker, job)
                raise

    def close(self) -> None:
        if self.lock is not None:
            self.lock.release()
            self.lock = None


def _after_commitment(events: list[Event]) -> int | None:
    """Where a save must end so a dice commitment is on disk before what follows it (None: anywhere)."""
    for i, ev in enumerate(events[:-1]):
        if ev.get("kind") == "dice" and "commitment" in ev and "revealed" not in ev:
            return i + 1
    return None


def document(state: State, events: list[Event] | store.EventLog, snapshot_seq: int) -> dict[str, Any]:
    return {
        "schema": store.SCHEMA,
        "app": f"polku {__version__}",
        "snapshot_seq": snapshot_seq,
        "state": state,
        "event": events,
    }


def load_tracker(path: Path, *, clock: Clock | None = None, seed: int | None = None,
                 read_only: bool = False, lazy: bool = False) -> tuple[Tracker, list[str]]:
    """Read and validate a file into a tracker; never writes.

    Raises:
        SessionOpenError: one line naming the file, the key and the backup.
    """
    tracker, loaded = _load(path, clock=clock, seed=seed, read_only=read_only, lazy=lazy)
    return tracker, list(loaded.notices)


def _load(path: Path, *, clock: Clock | None, seed: int | None, read_only: bool,
          lazy: bool) -> tuple[Tracker, store.Loaded]:
    """The tracker, and what the store said of the file (notices, whether it must be rewritten)."""
    path = Path(path)
    if not path.exists():
        raise SessionOpenError(said(N_("{path}: no such session file"), path=str(path)))
    try:
        loaded = store.load_lazy(path) if lazy else store.load(path)
    except store.StoreError as e:
        raise SessionOpenError(*e.args) from None
    doc = loaded.doc
    events = doc.get("event", [])
    try:
        tracker = Tracker.replay(doc["state"], int(doc.get("snapshot_seq", 0)),
                                 events if isinstance(events, store.EventLog) else list(events),
                                 clock=clock, seed=seed, read_only=read_only)
    except (StateError, ValueError, KeyError, TypeError) as e:
        backup = path.with_name(path.name + ".bak")
        error = e.args[0] if len(e.args) == 1 and isinstance(e.args[0], Said) else str(e)
        if backup.exists():
            raise SessionOpenError(said(N_("{path}: {error}; the previous good file is {backup}"), path=str(path),
                                        error=error, backup=str(backup))) from None
        raise SessionOpenError(said(N_("{path}: {error}"), path=str(path), error=error)) from None
    return tracker, loaded


def open_session(path: Path, *, read_only: bool = False, clock: Clock | None = None,
                 seed: int | None = None, lazy: bool = True) -> tuple[Tracker, SessionFile]:
    """Open a session for play: lock it (or open read-only), load and replay.

    Raises:
        SessionOpenError: the file cannot be read.
        store.LockedError: another process holds the lock (offer read-only).
    """
    path = Path(path)
    lock = None
    notices: list[str] = []
    if not read_only:
        lock = store.SessionLock(path)
        note = lock.acquire()
        if note:
            notices.append(note)
    try:
        tracker, loaded = _load(path, clock=clock, seed=seed, read_only=read_only, lazy=lazy)
    except BaseException:
        if lock is not None:
            lock.release()
        raise
    notices.extend(loaded.notices)
    sf = SessionFile(path, read_only=read_only, lock=lock, notices=notices, saved_seq=tracker.last_seq())
    if not read_only:
        store.remove_orphans(path)
        sf.remember_identity()
    if loaded.rewrite_needed and not read_only:
        tracker.needs_full_save = True  # appending after a torn tail or an old schema would mix formats
    return tracker, sf


def create_session(path: Path, tracker: Tracker) -> SessionFile:
    """Write a brand-new session file and lock it."""
    path = Path(path)
    if path.exists():
        raise SessionOpenError(said(N_("{path}: already exists; pick another name"), path=str(path)))
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = store.SessionLock(path)
    lock.acquire()
    sf = SessionFile(path, lock=lock)
    tracker.needs_full_save = True
    try:
        sf.save_now(tracker)
    except store.StoreError:
        lock.release()
        raise
    return sf


def continue_campaign(previous: Path, new_path: Path, *, clock: Clock | None = None,
                      seed: int | None = None) -> tuple[Tracker, SessionFile]:
    """A new session file starting from ``previous``'s end state (docs/rules.md resets)."""
    old, _ = load_tracker(previous, read_only=True)
    state = clone(old.state)
    state["campaign"]["continues"] = Path(previous).name
    state["challenges"] = [c for c in state["challenges"] if c["status"] != "resolved"]
    tracker = Tracker(state, clock=clock, seed=seed)
    tracker.new_session()
    sf = create_session(new_path, tracker)
    return tracker, sf


DEMO_SUFFIXES = ("rajapolku", "harhapolku", "varjojuoksu")
"""The shipped demos are ``demo-<suffix>.toml``; each is played as a copy, ``demo-<suffix>-play.toml``."""


def demo_suffix(path: Path) -> str | None:
    """The suffix when ``path`` is named as a shipped demo (``demo-rajapolku.toml``), else None."""
    name = Path(path).name
    return next((s for s in DEMO_SUFFIXES if name == f"demo-{s}.toml"), None)


def play_copy_path(sessions_dir: Path, suffix: str) -> Path:
    """Where a demo's play copy lives: the sessions folder, whichever folder the demo came from."""
    return Path(sessions_dir) / f"demo-{suffix}-play.toml"


def copy_demo(source: Path, target: Path) -> None:
    """Copy a demo to its play copy atomically (temp file, rename; any old backup goes).

    Raises:
        store.LockedError: another Polku has the copy open.
        store.StoreError: the copy cannot be written (one line naming the folder).
    """
    lock = store.SessionLock(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        lock.acquire()
    except OSError as e:
        # the OS's reason (strerror) as the OS gives it, in a whole sentence in the reader's language
        raise store.StoreError(said(N_("cannot write in {path}: {reason}"), path=str(target.parent),
                                    reason=str(e.strerror or e))) from None
    try:
        tmp = target.with_name(f".{target.name}.copy")
        shutil.copyfile(source, tmp)
        os.replace(tmp, target)
        store.backup_path(target).unlink(missing_ok=True)
    except OSError as e:
        # the OS's reason (strerror) as the OS gives it, in a whole sentence in the reader's language
        raise store.StoreError(said(N_("cannot copy the demo to {path}: {reason}"), path=str(target),
                                    reason=str(e.strerror or e))) from None
    finally:
        lock.release()


def recent_sessions(folder: Path, limit: int = 20) -> list[Path]:
    folder = Path(folder)
    if not folder.is_dir():
        return []
    files = [p for p in folder.glob("*.toml") if p.is_file()]
    files.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    return files[:limit]


@dataclass(frozen=True, slots=True)
class Peek:
    """What the chooser lists of a session file: its campaign and where it stands, or why it cannot be opened."""

    name: str = ""
    system: str = ""
    where: tuple[int, int, int] = (0, 0, 0)
    """Story, session and scene."""
    events: int = 0
    characters: int = 0
    error: str | None = None
    """One line saying why the file cannot be opened (the rest is then empty)."""


def peek(path: Path) -> Peek:
    """Name, system and position of a session file, or why it cannot be opened.

    Read as the app opens a file (the head and the events since its snapshot, the older events not
    parsed): a campaign of 10,000 events is listed in a fraction of the time a whole read takes."""
    try:
        tracker, _ = load_tracker(path, read_only=True, lazy=True)
    except SessionOpenError as e:
        return Peek(error=str(e))
    st = tracker.state
    story, session, scene = tracker.where
    return Peek(name=st["campaign"]["name"], system=st["campaign"]["system"], where=(story, session, scene),
                events=len(tracker.events), characters=len(st["characters"]))


__all__ = [
    "Peek", "SessionFile", "SessionOpenError", "SaveJob", "open_session", "load_tracker",
    "create_session", "continue_campaign", "recent_sessions", "peek", "document", "model",
]
