"""The lock file ``<name>.lock`` beside a session, so two writers never share it; and the
temp files a killed Polku left behind."""

from __future__ import annotations

import os
import re
import socket
import time
from pathlib import Path
from typing import Any

import tomli_w

from ... import tomlread
from ...i18n import N_, said
from . import atomic
from .errors import LockedError, StoreError, oserror_text


def lock_path(path: str | os.PathLike[str]) -> Path:
    """``sessions/x.toml`` → ``sessions/x.toml.lock``."""
    p = Path(path)
    return p.with_name(p.name + ".lock")


def _proc_stat(pid: int) -> list[str]:
    """The fields of ``/proc/<pid>/stat`` after the command name (Linux), or [] where there is none."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read().decode("ascii", "replace")
    except OSError:
        return []
    return stat.rsplit(")", 1)[-1].split()


def _proc_start(pid: int) -> str | None:
    """Start time of ``pid`` in clock ticks (Linux), to tell a reused pid."""
    fields = _proc_stat(pid)
    return fields[19] if len(fields) > 19 else None


def _proc_is_zombie(pid: int) -> bool:
    fields = _proc_stat(pid)
    return bool(fields) and fields[0] in ("Z", "X")


def _pid_alive(pid: int, start: str | None) -> bool:
    if pid <= 0:
        return False
    if os.name == "nt":
        return True  # os.kill(pid, 0) would terminate it on Windows; assume alive
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # PermissionError: exists, belongs to another user
    if _proc_is_zombie(pid):
        return False
    if start is not None:
        now = _proc_start(pid)
        if now is not None and now != start:
            return False  # the pid was reused by another process
    return True


class SessionLock:
    """``<name>.lock`` next to the session file, so two writers never share it.

    Usage::

        with SessionLock(path) as lock:
            if lock.notice: show(lock.notice)
            ...

    The lock file is TOML (pid, host, since, token) and is created atomically
    with its content (hard link of a fsynced temp file; ``O_CREAT|O_EXCL`` where
    links are not supported). A lock held by a live process on this host, or by
    any process on another host, raises :class:`LockedError`; one left by a dead
    process, or unreadable, is taken over with a notice.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.lock_file = lock_path(self.path)
        self.token = os.urandom(8).hex()  # as secrets.token_hex(8); secrets pulls in hashlib/OpenSSL
        self.held = False
        self.notice: str | None = None

    def _content(self) -> bytes:
        info = {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "since": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "token": self.token,
        }
        start = _proc_start(os.getpid())
        if start is not None:
            info["proc_start"] = start
        return ("# Polku lock: this session is open in the process below\n" + tomli_w.dumps(info)).encode()

    def _create(self) -> bool:
        """Create the lock file with our content; False if it already exists."""
        tmp = atomic.temp_path(self.path, "lock")
        data = self._content()
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            try:
                atomic.write_all(fd, data)
                os.fsync(fd)
            finally:
                os.close(fd)
            try:
                os.link(tmp, self.lock_file)
            except FileExistsError:
                return False
            except OSError:
                # No hard links here: fall back to O_EXCL.
                try:
                    fd = os.open(self.lock_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
                except FileExistsError:
                    return False
                try:
                    atomic.write_all(fd, data)
                    os.fsync(fd)
                finally:
                    os.close(fd)
            atomic.fsync_dir(self.lock_file.parent)
            return True
        finally:
            atomic.unlink_quietly(tmp)

    def _read(self) -> tuple[bytes | None, dict[str, Any] | None]:
        try:
            raw = self.lock_file.read_bytes()
        except FileNotFoundError:
            return None, None
        try:
            info = tomlread.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            return raw, None
        return raw, info

    def acquire(self) -> str | None:
        """Take the lock; return a notice when a stale lock was taken over.

        Raises:
            LockedError: another live Polku holds it (message names pid and host).
            StoreError: the lock file cannot be created (permission, disk).
        """
        if self.held:
            return self.notice
        try:
            for _ in range(5):
                if self._create():
                    self.held = True
                    return self.notice
                raw, info = self._read()
                if raw is None:
                    continue  # released meanwhile; try again
                stale = self._stale_reason(info)
                if stale is None:
                    self._raise_locked(info)
                if self._remove_if_unchanged(raw):
                    self.notice = said(N_("{path}: took over a stale lock ({reason})"), path=str(self.path), reason=str(stale))
        except OSError as e:
            raise StoreError(said(N_("could not lock {path}: {reason}; check the folder's permissions"),
                                  path=str(self.path), reason=oserror_text(e))) from None
        raise StoreError(said(N_("could not lock {path}: the lock file {lock} keeps changing; try again"),
                              path=str(self.path), lock=str(self.lock_file)))

    def _stale_reason(self, info: dict[str, Any] | None) -> str | None:
        if info is None:
            return said(N_("the lock file was unreadable"))
        pid, host = info.get("pid"), info.get("host")
        if not isinstance(pid, int) or isinstance(pid, bool) or not isinstance(host, str):
            return said(N_("the lock file was unreadable"))
        if host != socket.gethostname():
            return None  # cannot tell whether a process on another host lives
        start = info.get("proc_start")
        if not _pid_alive(pid, start if isinstance(start, str) else None):
            return said(N_("pid {pid} on {host} is no longer running"), pid=pid, host=host)
        return None

    def _raise_locked(self, info: dict[str, Any] | None) -> None:
        info = info or {}
        pid = info.get("pid") if isinstance(info.get("pid"), int) else None
        host = str(info.get("host", "?"))
        path, shown_pid = str(self.path), str(pid)
        if pid == os.getpid() and host == socket.gethostname():
            holder = said(N_("{path} is already open in this Polku (pid {pid})"), path=path, pid=shown_pid)
            msg = said(N_("{holder}; close it first"), holder=holder)
        elif host != socket.gethostname():
            holder = said(N_("{path} is open in another Polku (pid {pid} on host {host})"), path=path, pid=shown_pid,
                          host=host)
            msg = said(N_("{holder}; open it read-only with --read-only, or if no Polku runs there any more,"
                          " delete {lock}"), holder=holder, lock=str(self.lock_file))
        else:
            holder = said(N_("{path} is open in another Polku (pid {pid} on {host})"), path=path, pid=shown_pid, host=host)
            msg = said(N_("{holder}; open it read-only with --read-only or close the other one"), holder=holder)
        raise LockedError(msg, pid, host, holder)

    def _remove_if_unchanged(self, raw: bytes) -> bool:
        """Remove the stale lock if it still has the content we judged stale."""
        grabbed = atomic.temp_path(self.path, "stale-lock")
        try:
            os.replace(self.lock_file, grabbed)
        except FileNotFoundError:
            return False
        try:
            if grabbed.read_bytes() == raw:
                return True
            # Someone replaced it meanwhile: put theirs back unless a new one exists.
            try:
                os.link(grabbed, self.lock_file)
            except OSError:
                pass
            return False
        finally:
            atomic.unlink_quietly(grabbed)

    def release(self) -> None:
        """Remove the lock file if it is ours (same token); otherwise leave it."""
        if not self.held:
            return
        self.held = False
        _raw, info = self._read()
        if info is not None and info.get("token") == self.token and info.get("pid") == os.getpid():
            atomic.unlink_quietly(self.lock_file)

    def __enter__(self) -> "SessionLock":
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


# ---------------------------------------------------------------------------


_ORPHAN_KINDS = re.compile(r"(?:tmp|bak|lock|stale-lock)-(\d{1,10})")


def remove_orphans(path: str | os.PathLike[str]) -> list[Path]:
    """Remove temp files that a killed Polku left beside ``path``; return them.

    A write makes ``.<name>.tmp-<pid>`` and ``.<name>.bak-<pid>`` (and the lock
    ``.<name>.lock-<pid>``) and removes them when it ends, unless the process
    was killed. Only files of processes that are no longer running go.
    """
    path = Path(path)
    prefix = f".{path.name}."
    removed: list[Path] = []
    try:
        entries = list(os.scandir(path.parent))
    except OSError:
        return removed
    for entry in entries:
        if not entry.name.startswith(prefix):
            continue
        m = _ORPHAN_KINDS.fullmatch(entry.name[len(prefix):])
        if m is None or int(m.group(1)) == os.getpid() or _pid_alive(int(m.group(1)), None):
            continue
        try:
            if entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            pass
    return removed
