"""Saving a session: the whole file atomically (:func:`write_full`), or new events appended (:func:`append_events`)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ...i18n import N_, said
from ..model import Event
from . import atomic
from .errors import StoreError, oserror_text
from .format import event_block, kept_comments, render

SESSION_MODE = 0o600
"""A new session file is the GM's alone (less the umask): it holds every secret. The players read the
players' file beside it (:func:`polku.session.players.players_file.players_path`), never this one."""


def write_full(path: str | os.PathLike[str], doc: dict[str, Any]) -> None:
    """Rewrite the whole session file atomically, keeping the old one as ``.bak``.

    ``doc`` holds ``snapshot_seq``, ``state`` and ``event`` (a list, may be
    empty); ``schema``, ``app`` and ``saved`` are filled in when missing.
    See :func:`atomic.replace_file` for how no instant leaves ``path``
    missing or partly written.

    Raises:
        StoreError: the document cannot be stored, or the disk refused
            (full, read-only, permission); the last good file is untouched and
            no temp file is left behind.
    """
    path = Path(path)
    data = render(doc, str(path), kept_comments(path))
    try:
        atomic.replace_file(path, data, keep_backup=True, new_mode=SESSION_MODE)
    except OSError as e:
        if path.exists():
            raise StoreError(said(N_("could not save {path}: {reason}; the last good file is untouched"), path=str(path),
                                  reason=oserror_text(e)), e.errno) from None
        raise StoreError(said(N_("could not save {path}: {reason}; nothing was written"), path=str(path),
                              reason=oserror_text(e)), e.errno) from None


def append_events(path: str | os.PathLike[str], events: Iterable[Event]) -> None:
    """Append ``[[event]]`` blocks to the end of the file, then flush and fsync.

    The file must exist (write it once with :func:`write_full`) and must not
    have been repaired on load (see :attr:`Loaded.rewrite_needed`).

    Raises:
        StoreError: an event cannot be stored (no int ``seq``, a value TOML
            cannot hold), or the disk refused; the file is truncated back to
            its previous length when possible.
    """
    path = Path(path)
    blocks = [event_block(ev, str(path)) for ev in events]
    if not blocks:
        return
    data = "".join(blocks).encode("utf-8")
    with atomic.write_lock:
        try:
            fd = os.open(path, os.O_RDWR | os.O_APPEND | getattr(os, "O_BINARY", 0))
        except FileNotFoundError:
            raise StoreError(said(N_("could not save {path}: the file does not exist; save the whole session first"),
                                  path=str(path))) from None
        except OSError as e:
            raise StoreError(said(N_("could not save {path}: {reason}; the last good file is untouched"), path=str(path),
                                  reason=oserror_text(e)), e.errno) from None
        size = None
        try:
            size = os.fstat(fd).st_size
            if size and os.pread(fd, 1, size - 1) != b"\n":
                data = b"\n" + data
            atomic.write_all(fd, data)
            os.fsync(fd)
        except OSError as e:
            truncated = True
            if size is not None:
                try:
                    os.ftruncate(fd, size)
                    os.fsync(fd)
                except OSError:
                    truncated = False
            if truncated:
                raise StoreError(said(N_("could not save {path}: {reason}; the last good file is untouched"),
                                      path=str(path), reason=oserror_text(e)), e.errno) from None
            raise StoreError(said(N_("could not save {path}: {reason}; the file may end with a partial event, which is"
                                     " dropped on the next load"), path=str(path), reason=oserror_text(e)),
                             e.errno) from None
        finally:
            os.close(fd)
