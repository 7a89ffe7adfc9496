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

import itertools
import os
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

STEP_MS = 5
"""watchfiles yields once no new change came for this long (it groups a burst of writes)."""
DEBOUNCE_MS = 50
"""…and at the latest this long after the first change of a burst."""
LOOK_MS = 500
"""Without a change, watchfiles still yields this often (an empty set): ``stop`` is looked at."""

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
        import watchfiles

        # watchfiles' public generator, every choice spelled out: no filter (a seat's request and the
        # session's temp files alike), inotify only (never its environment's polling switch), no
        # KeyboardInterrupt from this thread, and a yield at least every LOOK_MS so ``stop`` is
        # seen and ``started`` is told once the watches exist (from the first yield on: a change
        # after ``started`` is never missed, and one before it is in that first yield).
        changes = watchfiles.watch(*paths, watch_filter=None, debounce=DEBOUNCE_MS, step=STEP_MS,
                                   stop_event=stop, rust_timeout=LOOK_MS, yield_on_timeout=True, debug=False,
                                   raise_interrupt=False, force_polling=False, recursive=recursive,
                                   ignore_permission_denied=True)
        try:
            first: set[tuple[watchfiles.Change, str]] | None = next(changes)
        except StopIteration:
            return "inotify"  # stopped before the first look
        except (OSError, RuntimeError):
            first = None  # no inotify here (or its watch limit): look every interval instead
        if first is not None:
            if started is not None:
                started("inotify")
            for raw in itertools.chain([first], changes):
                if stop.is_set():
                    break
                if raw:
                    changed({path for _, path in raw})
            changes.close()
            return "inotify"
    if started is not None:
        started("polling")
    while not stop.wait(interval):
        changed(set())
    return "polling"


__all__ = ["MODES", "available", "follow"]
