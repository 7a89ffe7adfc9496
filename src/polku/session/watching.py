"""Being told when files change: inotify through watchfiles, or polling where that cannot work.

:func:`follow` blocks in a worker thread until ``stop`` is set, calling
``changed`` with the changed paths whenever something in the watched folders
changes (a save replacing the session file, a seat's request landing in the
spool). watchfiles reports a change within a few milliseconds (``STEP_MS``);
without it (not installed, no inotify, the watch limit reached) the function
falls back to calling ``changed`` with an empty set every ``interval``
seconds, and the caller looks for itself, as before.

No textual.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

STEP_MS = 5
"""watchfiles yields once no new change came for this long (it groups a burst of writes)."""
DEBOUNCE_MS = 50
"""…and at the latest this long after the first change of a burst."""

MODES = ("inotify", "polling")


def available() -> bool:
    """Can changes be waited for (watchfiles importable)?"""
    try:
        import watchfiles  # noqa: F401
    except ImportError:
        return False
    return True


def follow(folders: Iterable[str | os.PathLike[str]], changed: Callable[[set[str]], None],
           stop: threading.Event, *, interval: float = 0.3, recursive: bool = False,
           started: Callable[[str], None] | None = None, force_polling: bool = False) -> str:
    """Call ``changed`` on every change in ``folders`` until ``stop`` is set; returns the mode used.

    Args:
        folders: existing folders to watch (a file's folder: a save replaces the file).
        changed: called from this thread with the changed paths (empty when polling).
        stop: set it to end the loop.
        interval: seconds between looks when polling.
        recursive: watch the folders' subfolders too (the spool's seat folders).
        started: called once with the mode ("inotify" or "polling") when watching begins.
        force_polling: do not use watchfiles (tests, and ``polku watch --interval``'s old behaviour).
    """
    paths = [str(Path(f)) for f in folders]
    if not force_polling and available():
        from watchfiles._rust_notify import (
            RustNotify,  # watchfiles.watch without its thread-unsafe signal handling
        )

        try:
            # The watches exist once RustNotify is made, so a change after
            # ``started`` is never missed.
            watcher = RustNotify(paths, False, False, 0, recursive, True)
        except (OSError, RuntimeError):
            watcher = None  # no inotify here (or its watch limit): look every interval instead
        if watcher is not None:
            with watcher:
                if started is not None:
                    started("inotify")
                while not stop.is_set():
                    raw = watcher.watch(DEBOUNCE_MS, STEP_MS, 500, stop)
                    if raw == "stop":
                        break
                    if isinstance(raw, set) and raw:
                        changed({p for _, p in raw})
            return "inotify"
    if started is not None:
        started("polling")
    while not stop.wait(interval):
        changed(set())
    return "polling"


__all__ = ["MODES", "available", "follow"]
