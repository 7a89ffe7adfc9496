"""Writing a file so that a crash leaves the old one or the new one, never half of one.

Standard library only: the session store and the preferences (``polku.config``)
both write through :func:`replace_file`.
"""

from __future__ import annotations

import errno
import os
import shutil
import threading
from pathlib import Path

write_lock = threading.RLock()
"""Serialises writes from this process (the app saves from a worker thread)."""


def backup_path(path: str | os.PathLike[str]) -> Path:
    """``sessions/x.toml`` → ``sessions/x.toml.bak``."""
    p = Path(path)
    return p.with_name(p.name + ".bak")


def temp_path(path: Path, what: str = "tmp") -> Path:
    """``.<name>.<what>-<pid>`` beside ``path`` (``lock.remove_orphans`` knows these names)."""
    return path.with_name(f".{path.name}.{what}-{os.getpid()}")


def identity(path: str | os.PathLike[str]) -> tuple[int, ...] | None:
    """What tells this file apart from a replaced or changed one (None: no file)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable, where the platform allows it."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # not supported (e.g. Windows); the rename is still atomic
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        if n <= 0:
            raise OSError(errno.EIO, "short write")
        view = view[n:]


def unlink_quietly(p: Path) -> None:
    try:
        os.unlink(p)
    except OSError:
        pass


def replace_file(path: Path, data: bytes, *, keep_backup: bool = False, new_mode: int = 0o666) -> None:
    """Put ``data`` at ``path`` atomically: at no instant is ``path`` missing or partly written.

    The bytes go to ``.<name>.tmp-<pid>`` (written, fsynced); with
    ``keep_backup`` the current file is hard-linked (or copied and fsynced) to
    ``<name>.bak``; the temp file replaces ``path`` and the folder is fsynced.
    A new file gets the mode an existing one had (a first one ``new_mode``, less the umask).

    Raises:
        OSError: the disk refused; ``path`` is untouched and no temp file is left.
    """
    tmp = temp_path(path)
    tmp_bak = temp_path(path, "bak")
    with write_lock:
        try:
            mode = new_mode
            try:
                mode = os.stat(path).st_mode & 0o777
                exists = True
            except FileNotFoundError:
                exists = False
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0), mode)
            try:
                write_all(fd, data)
                os.fsync(fd)
            finally:
                os.close(fd)
            if exists and keep_backup:
                _make_backup(path, tmp_bak)
            os.replace(tmp, path)
            fsync_dir(path.parent)
        except OSError:
            unlink_quietly(tmp)
            unlink_quietly(tmp_bak)
            raise


def _make_backup(path: Path, tmp_bak: Path) -> None:
    """Point ``<name>.bak`` at the current file's contents, atomically."""
    unlink_quietly(tmp_bak)
    try:
        os.link(path, tmp_bak)
    except OSError:
        shutil.copyfile(path, tmp_bak)
        fd = os.open(tmp_bak, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    os.replace(tmp_bak, backup_path(path))
