"""The errors of the session store: every one is one line naming the file, the problem and what to do."""

from __future__ import annotations

import errno

from ...i18n import Said


class StoreError(Exception):
    """A session file could not be read or written. ``str()`` is one line.

    ``errno`` is the operating system's error number when the disk refused
    (``errno.ENOSPC``, ``errno.EROFS``…), else None; :func:`save_advice` turns
    it into a short reason and what to do.
    """

    def __init__(self, message: str, errno: int | None = None) -> None:
        super().__init__(one_line(message))
        self.errno = errno


class ReplacedError(StoreError):
    """The file on disk is no longer the one this process last wrote or read."""


class NewerSchemaError(StoreError):
    """The file was written by a newer Polku."""

    def __init__(self, message: str, schema: int) -> None:
        super().__init__(message)
        self.schema = schema


class CorruptError(StoreError):
    """The file is not valid TOML or lacks the shape of a session file."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


class LockedError(StoreError):
    """Another Polku holds the session's lock file."""

    def __init__(self, message: str, pid: int | None, host: str, holder_text: str = "") -> None:
        super().__init__(message)
        self.pid = pid
        self.host = host
        self.holder_text = holder_text or message
        """Who holds the file and nothing more ("FILE is open in another Polku (pid 12 on h)"),
        for a caller that says itself what happens next (opened read-only, or a question)."""


def one_line(text: str) -> str:
    """``text`` on one line; a line already so is kept as it is (an :class:`~polku.i18n.Said` keeps its words)."""
    flat = " ".join(str(text).split())
    return text if isinstance(text, str) and flat == text else flat


def cut(text: Said, limit: int) -> str:
    """``text`` cut to ``limit`` characters: a line that fits keeps its words (told in the reader's language), a
    longer one is its English cut short (a huge value quoted in it)."""
    return text if len(text) <= limit else str(text)[:limit]


def oserror_text(exc: OSError) -> str:
    return exc.strerror or str(exc) or type(exc).__name__


_ADVICE = {
    errno.ENOSPC: ("disk full", "free space on the disk, then press ctrl+s"),
    errno.EDQUOT: ("disk quota full", "free space within your disk quota, then press ctrl+s"),
    errno.EROFS: ("read-only disk", "the disk is mounted read-only: remount it read-write or move the"
                  " session to another disk, then press ctrl+s"),
    errno.EACCES: ("no permission", "allow writing to the session's folder, then press ctrl+s"),
    errno.EPERM: ("no permission", "allow writing to the session's folder, then press ctrl+s"),
    errno.EIO: ("disk error", "the disk reported an error: check it, then press ctrl+s"),
}

_NOT_SAVED = ("not saved", "fix the cause, then press ctrl+s")


def save_advice(err: BaseException) -> tuple[str, str]:
    """(a short reason for the status line, what the GM should do) for a failed save."""
    if isinstance(err, ReplacedError):
        return "file replaced", "press ctrl+s to save your session anyway (the other file is kept)"
    code = getattr(err, "errno", None)
    return _ADVICE.get(code, _NOT_SAVED) if code else _NOT_SAVED
