"""Crash-safe TOML persistence for session files (schema 2).

A session file is human-readable TOML::

    # Polku session file …  (a comment line; see ``HEADER``)
    schema = 2
    app = "polku 0.1.0"
    saved = 2026-11-30T15:00:00Z
    snapshot_seq = 42        # events with seq <= this are already folded into [state]

    [state]                  # campaign state, nested tables
    …

    [[event]]                # the log, one block per event, appended
    seq = 43
    …
    # end of event 43

Because every ``[[event]]`` block comes after ``[state]``, a new event is
*appended* to the end of the file and fsynced: O(1) per command whatever the
length of the session. :func:`write_full` rewrites the whole file atomically
(temp file, fsync, backup of the previous file as ``<name>.bak``,
``os.replace``, directory fsync); the caller chooses when ("compaction").

Each block that this package writes ends with a ``# end of event N`` comment.
A file that starts with :data:`HEADER` is known to carry these marks, so a
last block without its mark was cut off by a crash at a line boundary (still
valid TOML, but incomplete) and is dropped on load, like a block that is no
longer valid TOML.

The package stores a generic document; ``model.py`` validates its meaning.
Loading never writes and never evaluates anything as code. Every failure is a
:class:`StoreError` whose text is one line: the file, the problem, and what to
do. Its modules, from the bottom up:

- ``errors``  — the errors, and the advice for a failed save;
- ``atomic``  — replacing a file atomically (shared with ``polku.config``);
- ``events``  — the lazily parsed event log;
- ``format``  — the text: header, ``[state]``, event blocks with end marks;
- ``write``   — :func:`write_full` and :func:`append_events`;
- ``migrate`` — older schemas mapped to this one;
- ``load``    — :func:`load` and :func:`load_lazy`, with one torn-tail repair;
- ``lock``    — the lock file, and temp files a killed Polku left.
"""

from __future__ import annotations

from .atomic import backup_path, identity
from .errors import (
    CorruptError,
    LockedError,
    NewerSchemaError,
    ReplacedError,
    StoreError,
    save_advice,
)
from .events import EventLog, EventMeta
from .format import APP, HEADER, SCHEMA, kept_comments, render
from .load import MAX_TORN_EVENTS, Appended, Loaded, Position, load, load_lazy, read_appended, repair_tail
from .lock import SessionLock, lock_path, remove_orphans
from .migrate import migrate_v1
from .write import append_events, write_full

__all__ = [
    "APP",
    "Appended",
    "HEADER",
    "MAX_TORN_EVENTS",
    "SCHEMA",
    "CorruptError",
    "EventLog",
    "EventMeta",
    "LockedError",
    "Loaded",
    "NewerSchemaError",
    "Position",
    "ReplacedError",
    "SessionLock",
    "StoreError",
    "append_events",
    "backup_path",
    "identity",
    "kept_comments",
    "load",
    "load_lazy",
    "lock_path",
    "migrate_v1",
    "read_appended",
    "remove_orphans",
    "render",
    "repair_tail",
    "save_advice",
    "write_full",
]
