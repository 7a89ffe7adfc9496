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

Each block that this module writes ends with a ``# end of event N`` comment.
A file that starts with :data:`HEADER` is known to carry these marks, so a
last block without its mark was cut off by a crash at a line boundary (still
valid TOML, but incomplete) and is dropped on load, like a block that is no
longer valid TOML.

This module stores a generic document; ``model.py`` validates its meaning.
:func:`load` never writes and never evaluates anything as code. Every failure
is a :class:`StoreError` whose text is one line: the file, the problem, and
what to do.
"""

from __future__ import annotations

import errno
import os
import sys
import re
import shutil
import socket
import threading
import time
from array import array
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable

import tomli_w

from .. import __version__, tomlread

SCHEMA = 2
"""The schema this version writes and reads (older ones are migrated)."""

APP = f"polku {__version__}"

HEADER = (
    "# Polku session file. Each [[event]] block ends with its '# end of event N' line;"
    " keep those lines when editing.\n"
)
"""First line of every file :func:`write_full` writes; it switches on the end-mark check."""

_COMMENT_AREA_MAX = 64 * 1024
"""How much of the top of a file is searched for the GM's own comments."""

MAX_TORN_EVENTS = 3
"""At most this many trailing event blocks may be dropped as cut off by a crash."""

_EVENT_HEADER = re.compile(rb"^\[\[event\]\][ \t]*\r?$", re.MULTILINE)
_END_MARK = re.compile(r"^# end of event (-?\d+)[ \t]*\r?$")
_TOML_WHERE = re.compile(r"^(.*?) \(at (?:line (\d+), column \d+|end of document)\)$", re.DOTALL)

_write_lock = threading.RLock()
"""Serialises writes from this process (the app saves from a worker thread)."""


# ---------------------------------------------------------------------------
# Errors


class StoreError(Exception):
    """A session file could not be read or written. ``str()`` is one line.

    ``errno`` is the operating system's error number when the disk refused
    (``errno.ENOSPC``, ``errno.EROFS``…), else None; :func:`save_advice` turns
    it into a short reason and what to do.
    """

    def __init__(self, message: str, errno: int | None = None) -> None:
        super().__init__(_one_line(message))
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

    def __init__(self, message: str, pid: int | None, host: str) -> None:
        super().__init__(message)
        self.pid = pid
        self.host = host


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _oserror_text(exc: OSError) -> str:
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


def save_advice(err: BaseException) -> tuple[str, str]:
    """(a short reason for the status line, what the GM should do) for a failed save."""
    if isinstance(err, ReplacedError):
        return "file replaced", "press ctrl+s to save your session anyway (the other file is kept)"
    code = getattr(err, "errno", None)
    return _ADVICE.get(code, ("not saved", "fix the cause, then press ctrl+s")) if code else \
        ("not saved", "fix the cause, then press ctrl+s")


# ---------------------------------------------------------------------------
# Paths


def backup_path(path: str | os.PathLike[str]) -> Path:
    """``sessions/x.toml`` → ``sessions/x.toml.bak``."""
    p = Path(path)
    return p.with_name(p.name + ".bak")


def lock_path(path: str | os.PathLike[str]) -> Path:
    """``sessions/x.toml`` → ``sessions/x.toml.lock``."""
    p = Path(path)
    return p.with_name(p.name + ".lock")


def _temp_path(path: Path, what: str = "tmp") -> Path:
    return path.with_name(f".{path.name}.{what}-{os.getpid()}")


def identity(path: str | os.PathLike[str]) -> tuple[int, ...] | None:
    """What tells this file apart from a replaced or changed one (None: no file)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


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


def _fsync_dir(folder: Path) -> None:
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


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        if n <= 0:
            raise OSError(errno.EIO, "short write")
        view = view[n:]


def _unlink_quietly(p: Path) -> None:
    try:
        os.unlink(p)
    except OSError:
        pass


# ---------------------------------------------------------------------------
# Rendering


def _check_seq(ev: Any, where: str) -> int:
    if not isinstance(ev, dict):
        raise StoreError(f"{where}: an event must be a table, not {type(ev).__name__}")
    seq = ev.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool):
        raise StoreError(f"{where}: every event needs a whole-number 'seq' (found {seq!r})"[:300])
    return seq


def _dumps(data: dict[str, Any], where: str) -> str:
    try:
        return tomli_w.dumps(data)
    except (TypeError, ValueError) as e:
        raise StoreError(f"could not save {where}: {e} (TOML has no null; use \"\" or leave the key out)") from None


def _event_block(ev: dict[str, Any], where: str) -> str:
    seq = _check_seq(ev, where)
    # tomli_w writes a list of short tables inline (``event = [{…}]``), which
    # cannot be appended to; render the event as the table ``[event]`` (its
    # sub-tables become ``[event.x]``) and turn the header into ``[[event]]``.
    text = _dumps({"event": ev}, where)
    assert text.startswith("[event]\n"), text[:40]
    return "\n" + text[:-1].replace("[event]", "[[event]]", 1) + f"\n# end of event {seq}\n"


def kept_comments(path: str | os.PathLike[str]) -> list[str]:
    """The GM's own comment lines at the top of a session file, which a full rewrite keeps.

    The top of the file, from its first line to ``[state]``, is the place for
    hand-written notes (``# the Nurse's name is Aino``): the writer puts every
    comment line found there back under :data:`HEADER`. Comments inside an
    ``[[event]]`` block are kept too (the blocks are copied as they are);
    ``[state]`` is written from memory, so comments in it are not. Reading the
    top of the file costs microseconds; keeping comments anywhere (tomlkit)
    would cost a parse of the whole file on every full save.
    """
    try:
        with open(path, "rb") as f:
            top = f.read(_COMMENT_AREA_MAX)
    except OSError:
        return []
    cut = top.find(b"\n[state]")
    if cut < 0:
        return []
    out = []
    for raw in top[:cut].split(b"\n"):
        line = raw.rstrip(b"\r").decode("utf-8", "replace")
        if line.startswith("#") and line + "\n" != HEADER:
            out.append(line)
    return out


def render(doc: dict[str, Any], where: str = "session", comments: Iterable[str] = ()) -> bytes:
    """The exact bytes :func:`write_full` writes for ``doc`` (schema/app/saved filled).

    ``comments`` (whole ``#`` lines, see :func:`kept_comments`) go right under :data:`HEADER`.
    """
    doc = dict(doc)
    schema = doc.setdefault("schema", SCHEMA)
    if schema != SCHEMA:
        raise StoreError(f"could not save {where}: schema {schema!r} given, this version writes schema {SCHEMA}")
    doc.setdefault("app", APP)
    doc.setdefault("saved", datetime.now(timezone.utc).replace(microsecond=0))
    snap = doc.get("snapshot_seq")
    if not isinstance(snap, int) or isinstance(snap, bool) or snap < 0:
        raise StoreError(f"could not save {where}: 'snapshot_seq' must be a whole number ≥ 0 (found {snap!r})")
    state = doc.pop("state", None)
    if not isinstance(state, dict):
        raise StoreError(f"could not save {where}: 'state' must be a table (found {type(state).__name__})")
    events = doc.pop("event", None) or []
    if not isinstance(events, (list, EventLog)):
        raise StoreError(f"could not save {where}: 'event' must be a list of tables")
    # Top-level keys in a fixed, readable order; unknown extra keys are kept.
    head: dict[str, Any] = {}
    for key in ("schema", "app", "saved", "snapshot_seq"):
        head[key] = doc.pop(key)
    head.update(doc)
    kept = "".join(f"{c}\n" for c in comments if c.startswith("#") and "\n" not in c and "\r" not in c)
    parts = [HEADER, kept, _dumps(head, where), "\n", _dumps({"state": state}, where)]
    if isinstance(events, EventLog):
        for i in range(len(events)):
            raw = events.raw(i)
            parts.append("\n" + raw.decode("utf-8").strip("\n") + "\n" if raw is not None
                         else _event_block(events[i], where))
    else:
        parts.extend(_event_block(ev, where) for ev in events)
    return "".join(parts).encode("utf-8")


# ---------------------------------------------------------------------------
# Writing


def write_full(path: str | os.PathLike[str], doc: dict[str, Any]) -> None:
    """Rewrite the whole session file atomically, keeping the old one as ``.bak``.

    ``doc`` holds ``snapshot_seq``, ``state`` and ``event`` (a list, may be
    empty); ``schema``, ``app`` and ``saved`` are filled in when missing.

    At no instant is ``path`` missing or partly written: the new text goes to
    ``.<name>.tmp-<pid>`` (flushed and fsynced), the current file is hard-linked
    (or copied and fsynced) to ``<name>.bak``, the temp file replaces ``path``
    and the folder is fsynced.

    Raises:
        StoreError: the document cannot be stored, or the disk refused
            (full, read-only, permission); the last good file is untouched and
            no temp file is left behind.
    """
    path = Path(path)
    data = render(doc, str(path), kept_comments(path))
    tmp = _temp_path(path)
    tmp_bak = _temp_path(path, "bak")
    with _write_lock:
        try:
            mode = 0o666
            try:
                mode = os.stat(path).st_mode & 0o777
                exists = True
            except FileNotFoundError:
                exists = False
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0), mode)
            try:
                _write_all(fd, data)
                os.fsync(fd)
            finally:
                os.close(fd)
            if exists:
                _make_backup(path, tmp_bak)
            os.replace(tmp, path)
            _fsync_dir(path.parent)
        except OSError as e:
            _unlink_quietly(tmp)
            _unlink_quietly(tmp_bak)
            tail = "the last good file is untouched" if path.exists() else "nothing was written"
            raise StoreError(f"could not save {path}: {_oserror_text(e)}; {tail}", e.errno) from None


def _make_backup(path: Path, tmp_bak: Path) -> None:
    """Point ``<name>.bak`` at the current file's contents, atomically."""
    _unlink_quietly(tmp_bak)
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


def append_events(path: str | os.PathLike[str], events: Iterable[dict[str, Any]]) -> None:
    """Append ``[[event]]`` blocks to the end of the file, then flush and fsync.

    The file must exist (write it once with :func:`write_full`) and must not
    have been repaired on load (see :attr:`Loaded.rewrite_needed`).

    Raises:
        StoreError: an event cannot be stored (no int ``seq``, a value TOML
            cannot hold), or the disk refused; the file is truncated back to
            its previous length when possible.
    """
    path = Path(path)
    blocks = [_event_block(ev, str(path)) for ev in events]
    if not blocks:
        return
    data = "".join(blocks).encode("utf-8")
    with _write_lock:
        try:
            fd = os.open(path, os.O_RDWR | os.O_APPEND | getattr(os, "O_BINARY", 0))
        except FileNotFoundError:
            raise StoreError(f"could not save {path}: the file does not exist; save the whole session first") from None
        except OSError as e:
            raise StoreError(f"could not save {path}: {_oserror_text(e)}; the last good file is untouched",
                             e.errno) from None
        size = None
        try:
            size = os.fstat(fd).st_size
            if size and os.pread(fd, 1, size - 1) != b"\n":
                data = b"\n" + data
            _write_all(fd, data)
            os.fsync(fd)
        except OSError as e:
            outcome = "the last good file is untouched"
            if size is not None:
                try:
                    os.ftruncate(fd, size)
                    os.fsync(fd)
                except OSError:
                    outcome = "the file may end with a partial event, which is dropped on the next load"
            raise StoreError(f"could not save {path}: {_oserror_text(e)}; {outcome}", e.errno) from None
        finally:
            os.close(fd)


# ---------------------------------------------------------------------------
# Loading


@dataclass(frozen=True, slots=True)
class Loaded:
    """A parsed session file.

    Attributes:
        doc: ``{"schema": 2, "app", "saved", "snapshot_seq", "state": {…}, "event": […]}``;
            ``event`` is always present (maybe empty).
        notices: one-line messages for the user (torn tail dropped, migrated).
        rewrite_needed: the text on disk differs from ``doc`` (a torn tail
            was dropped, or an old schema was migrated). Call
            :func:`write_full` before :func:`append_events`, or appended
            events would follow the damaged or old-format text.
    """

    doc: dict[str, Any]
    notices: list[str] = field(default_factory=list)
    rewrite_needed: bool = False


class _ParseFail(Exception):
    def __init__(self, problem: str, line: int | None) -> None:
        super().__init__(problem)
        self.problem = problem
        self.line = line


def _parse(data: bytes) -> dict[str, Any]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise _ParseFail("not UTF-8 text", data.count(b"\n", 0, e.start) + 1) from None
    try:
        return tomlread.loads(text)
    except tomlread.TOMLDecodeError as e:
        m = _TOML_WHERE.match(str(e))
        if not m:
            raise _ParseFail(_one_line(str(e)), None) from None
        line = int(m.group(2)) if m.group(2) else text.count("\n") + 1
        raise _ParseFail(m.group(1), line) from None
    except (ValueError, RecursionError, OverflowError) as e:
        if "integer string conversion" in str(e):
            raise _ParseFail("a whole number with thousands of digits", None) from None
        raise _ParseFail(_one_line(f"{type(e).__name__}: {e}")[:200], None) from None


def _event_starts(data: bytes) -> list[int]:
    return [m.start() for m in _EVENT_HEADER.finditer(data)]


def _last_event_start(data: bytes) -> int | None:
    """Offset of the last line that is exactly ``[[event]]`` (scanning backwards)."""
    end = len(data)
    while True:
        i = data.rfind(b"[[event]]", 0, end)
        if i < 0:
            return None
        if (i == 0 or data[i - 1 : i] == b"\n") and _EVENT_HEADER.match(data, i):
            return i
        end = i


def _has_end_mark(block: bytes, seq: Any) -> bool:
    """Does the block end with its ``# end of event N`` line?

    A mark followed by a newline is complete whatever its number (the event's
    ``seq`` may have been edited by hand); without the newline the mark line
    itself may be torn ("# end of event 1" of "# end of event 12"), so its
    number must equal ``seq``.
    """
    tail = block.rstrip(b" \t\r\n")
    start = tail.rfind(b"\n") + 1
    m = _END_MARK.match(tail[start:].decode("utf-8", "replace"))
    if not m:
        return False
    return b"\n" in block[len(tail):] or int(m.group(1)) == seq


def _read_bytes(path: Path) -> bytes:
    """The file's bytes, or a one-line :class:`StoreError` saying why not."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        raise StoreError(f"{path}: no such session file; start one with 'polku new'") from None
    except IsADirectoryError:
        raise StoreError(f"{path}: is a folder, not a session file") from None
    except OSError as e:
        raise StoreError(f"could not read {path}: {_oserror_text(e)}") from None


def load(path: str | os.PathLike[str]) -> Loaded:
    """Read and check a session file; never writes.

    A last ``[[event]]`` block cut off by a crash (invalid TOML within the last
    blocks, or missing its end mark) is dropped with a notice. A schema 1 file
    is migrated with a notice. Either way ``rewrite_needed`` is set.

    Raises:
        StoreError: the file cannot be read.
        CorruptError: not valid TOML, or not the shape of a session file.
        NewerSchemaError: written by a newer Polku.
    """
    path = Path(path)
    data = _read_bytes(path)

    notices: list[str] = []
    doc, dropped, first_fail = _parse_with_tail_repair(data)
    if doc is None:
        assert first_fail is not None
        where = f"at line {first_fail.line}" if first_fail.line else "somewhere"
        raise CorruptError(
            f"{path}: bad TOML {where} ({first_fail.problem}); {_fix_hint(path)}", first_fail.line
        )
    if dropped:
        what = "the last event was" if dropped == 1 else f"the last {dropped} events were"
        detail = f" (line {first_fail.line}: {first_fail.problem})" if first_fail and first_fail.line else ""
        notices.append(f"{path}: {what} cut off by a crash and dropped{detail}")

    schema = doc.get("schema")
    if "schema" not in doc:
        raise CorruptError(f"{path}: key 'schema' is missing; this is not a Polku session file, or {_fix_hint(path)}")
    if not isinstance(schema, int) or isinstance(schema, bool):
        raise CorruptError(f"{path}: key 'schema' must be a whole number, found {schema!r}"[:200] + f"; {_fix_hint(path)}")
    if schema > SCHEMA:
        raise NewerSchemaError(
            f"{path} was written by a newer Polku (schema {schema}); this version reads schema ≤ {SCHEMA}"
            " — upgrade Polku",
            schema,
        )
    migrated = False
    if schema < SCHEMA:
        if schema != 1:
            raise CorruptError(f"{path}: schema {schema} is unknown (this version reads 1 and {SCHEMA}); {_fix_hint(path)}")
        doc = migrate_v1(doc, where=str(path))
        migrated = True
        notices.append(
            f"{path}: converted from the older schema 1; it is saved as schema {SCHEMA} on the next save"
            f" and the old file is kept as {backup_path(path)}"
        )

    _check_shape(path, doc, data)
    return Loaded(doc=doc, notices=notices, rewrite_needed=bool(dropped) or migrated)


def _end_of_last_mark(data: bytes) -> int | None:
    """Offset just after the last complete ``# end of event N`` line (with its newline)."""
    end = len(data)
    while True:
        i = data.rfind(b"# end of event ", 0, end)
        if i < 0:
            return None
        if i == 0 or data[i - 1 : i] == b"\n":
            nl = data.find(b"\n", i)
            if nl >= 0 and _END_MARK.match(data[i:nl].decode("utf-8", "replace")):
                return nl + 1
        end = i


def _cut_header_fragment(data: bytes) -> tuple[bytes, bool]:
    """Drop a torn start of a new block after the last complete one.

    An append cut within its first bytes (``\\n[[eve``) leaves no whole
    ``[[event]]`` line, so the fragment would count as part of the block
    before it, and that complete event would be dropped with it. Whatever
    follows the last end mark without a whole header line is such a fragment
    (a block with a whole header line is judged by the usual checks).
    """
    cut = _end_of_last_mark(data)
    if cut is None:
        return data, False
    rest = data[cut:]
    if not rest.strip() or _EVENT_HEADER.search(rest):
        return data, False
    return data[:cut], True


def _parse_with_tail_repair(data: bytes) -> tuple[dict[str, Any] | None, int, _ParseFail | None]:
    """Parse, dropping up to :data:`MAX_TORN_EVENTS` torn trailing event blocks.

    Returns (doc or None, number of blocks dropped, the first parse failure).
    """
    strict = data.startswith(HEADER.encode("utf-8"))
    first_fail: _ParseFail | None = None
    dropped = 0
    cur = data
    if strict:
        cur, torn = _cut_header_fragment(cur)
        dropped += torn
    while True:
        try:
            doc = _parse(cur)
        except _ParseFail as fail:
            first_fail = first_fail or fail
            cut = _torn_cut(cur, fail.line)
            if cut is None or dropped >= MAX_TORN_EVENTS:
                return None, dropped, first_fail
            cur = cur[:cut]
            dropped += 1
            continue
        if strict and dropped < MAX_TORN_EVENTS:
            events = doc.get("event")
            if isinstance(events, list) and events and isinstance(events[-1], dict):
                last = _last_event_start(cur)
                if last is not None and not _has_end_mark(cur[last:], events[-1].get("seq")):
                    cur = cur[:last]
                    dropped += 1
                    continue
        return doc, dropped, first_fail


def _torn_cut(data: bytes, line: int | None) -> int | None:
    """Where to cut ``data`` if the failure at ``line`` lies in the last event block."""
    last = _last_event_start(data)
    if last is None:
        return None
    if line is not None and line < data.count(b"\n", 0, last) + 1:
        return None  # the damage is before the last block: not a torn tail
    return last


def _fix_hint(path: Path) -> str:
    bak = backup_path(path)
    if bak.exists():
        return f"the previous good file is {bak}"
    return "fix it in a text editor"


def _check_shape(path: Path, doc: dict[str, Any], data: bytes) -> None:
    hint = _fix_hint(path)
    snap = doc.get("snapshot_seq")
    if "snapshot_seq" not in doc:
        raise CorruptError(f"{path}: key 'snapshot_seq' is missing; {hint}")
    if not isinstance(snap, int) or isinstance(snap, bool) or snap < 0:
        raise CorruptError(f"{path}: key 'snapshot_seq' must be a whole number ≥ 0, found {snap!r}"[:200] + f"; {hint}")
    if "state" not in doc:
        raise CorruptError(f"{path}: table [state] is missing; {hint}")
    if not isinstance(doc["state"], dict):
        raise CorruptError(f"{path}: key 'state' must be a table, found {type(doc['state']).__name__}; {hint}")
    events = doc.setdefault("event", [])
    if not isinstance(events, list):
        raise CorruptError(f"{path}: key 'event' must be [[event]] tables, found {type(events).__name__}; {hint}")
    for i, ev in enumerate(events):
        if isinstance(ev, dict):
            seq = ev.get("seq")
            if isinstance(seq, int) and not isinstance(seq, bool):
                continue
        line = _event_line(data, i)
        at = f" (line {line})" if line else ""
        if not isinstance(ev, dict):
            raise CorruptError(f"{path}: event {i + 1}{at} must be a table; {hint}", line)
        problem = "has no 'seq'" if "seq" not in ev else f"has 'seq' = {ev['seq']!r}, not a whole number"
        raise CorruptError(f"{path}: event {i + 1}{at} {problem}; {hint}"[:400], line)


def _event_line(data: bytes, index: int) -> int | None:
    starts = _event_starts(data)
    if index < len(starts):
        return data.count(b"\n", 0, starts[index]) + 1
    return None


# ---------------------------------------------------------------------------
# Schema 1


def migrate_v1(doc: dict[str, Any], where: str = "schema 1 file") -> dict[str, Any]:
    """Map a schema 1 document to schema 2.

    Schema 1 (Polku before the event log with snapshots)::

        schema = 1
        app = "…"; saved = …          (optional)
        [campaign]                     {name, system, …}
        [settings]                     {"raja.exhausted" = true, …}
        [[character]]                  each with an `id` (string or int)
        [[challenge]]                  the queue, in order
        [[log]]                        past events, oldest first, no snapshot

    Schema 2: ``state = {campaign, settings, characters: {id: {…, id}},
    challenges: [...], …unknown top-level keys kept…}``, ``event`` = the log
    entries (``seq`` 1..n given where missing), ``snapshot_seq`` = the last
    seq, since the schema 1 tables already hold the state after every logged
    event. Semantic checks are ``model.py``'s business.

    Raises:
        CorruptError: naming the key whose shape is wrong.
    """
    src = dict(doc)
    src.pop("schema", None)
    out: dict[str, Any] = {"schema": SCHEMA}
    out["app"] = src.pop("app", APP)
    if "saved" in src:
        out["saved"] = src.pop("saved")

    def table(key: str) -> dict[str, Any]:
        value = src.pop(key, {})
        if not isinstance(value, dict):
            raise CorruptError(f"{where}: schema 1 key '{key}' must be a table, found {type(value).__name__}")
        return value

    def tables(key: str) -> list[dict[str, Any]]:
        value = src.pop(key, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise CorruptError(f"{where}: schema 1 key '{key}' must be [[{key}]] tables")
        return value

    campaign = table("campaign")
    settings = table("settings")
    characters: dict[str, Any] = {}
    for i, ch in enumerate(tables("character")):
        cid = ch.get("id")
        if isinstance(cid, bool) or not isinstance(cid, (str, int)) or cid == "":
            raise CorruptError(f"{where}: character {i + 1} has no 'id'")
        cid = str(cid)
        if cid in characters:
            raise CorruptError(f"{where}: two characters have the id '{cid}'")
        characters[cid] = {**ch, "id": cid}
    challenges = tables("challenge")
    events = []
    last = 0
    for i, entry in enumerate(tables("log")):
        ev = dict(entry)
        seq = ev.get("seq")
        if seq is None:
            seq = last + 1
        elif isinstance(seq, bool) or not isinstance(seq, int) or seq <= last:
            raise CorruptError(f"{where}: log entry {i + 1} has 'seq' = {seq!r}; seqs must increase")
        ev["seq"] = seq
        last = seq
        events.append(ev)
    state: dict[str, Any] = {
        "campaign": campaign,
        "settings": settings,
        "characters": characters,
        "challenges": challenges,
    }
    for key, value in src.items():
        state.setdefault(key, value)
    out["snapshot_seq"] = last
    out["state"] = state
    out["event"] = events
    return out


# ---------------------------------------------------------------------------
# Lock


def _proc_start(pid: int) -> str | None:
    """Start time of ``pid`` in clock ticks (Linux), to tell a reused pid."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read().decode("ascii", "replace")
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[-1].split()
    return fields[19] if len(fields) > 19 else None


def _proc_is_zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read().decode("ascii", "replace")
    except OSError:
        return False
    fields = stat.rsplit(")", 1)[-1].split()
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
        tmp = _temp_path(self.path, "lock")
        data = self._content()
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            try:
                _write_all(fd, data)
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
                    _write_all(fd, data)
                    os.fsync(fd)
                finally:
                    os.close(fd)
            _fsync_dir(self.lock_file.parent)
            return True
        finally:
            _unlink_quietly(tmp)

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
                    self.notice = f"{self.path}: took over a stale lock ({stale})"
        except OSError as e:
            raise StoreError(f"could not lock {self.path}: {_oserror_text(e)}; check the folder's permissions") from None
        raise StoreError(f"could not lock {self.path}: the lock file {self.lock_file} keeps changing; try again")

    def _stale_reason(self, info: dict[str, Any] | None) -> str | None:
        if info is None:
            return "the lock file was unreadable"
        pid, host = info.get("pid"), info.get("host")
        if not isinstance(pid, int) or isinstance(pid, bool) or not isinstance(host, str):
            return "the lock file was unreadable"
        if host != socket.gethostname():
            return None  # cannot tell whether a process on another host lives
        start = info.get("proc_start")
        if not _pid_alive(pid, start if isinstance(start, str) else None):
            return f"pid {pid} on {host} is no longer running"
        return None

    def _raise_locked(self, info: dict[str, Any] | None) -> None:
        info = info or {}
        pid = info.get("pid") if isinstance(info.get("pid"), int) else None
        host = str(info.get("host", "?"))
        if pid == os.getpid() and host == socket.gethostname():
            msg = f"{self.path} is already open in this Polku (pid {pid}); close it first"
        elif host != socket.gethostname():
            msg = (
                f"{self.path} is open in another Polku (pid {pid} on host {host}); open it read-only with"
                f" --read-only, or if no Polku runs there any more, delete {self.lock_file}"
            )
        else:
            msg = (
                f"{self.path} is open in another Polku (pid {pid} on {host}); "
                "open it read-only with --read-only or close the other one"
            )
        raise LockedError(msg, pid, host)

    def _remove_if_unchanged(self, raw: bytes) -> bool:
        """Remove the stale lock if it still has the content we judged stale."""
        grabbed = _temp_path(self.path, "stale-lock")
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
            _unlink_quietly(grabbed)

    def release(self) -> None:
        """Remove the lock file if it is ours (same token); otherwise leave it."""
        if not self.held:
            return
        self.held = False
        _raw, info = self._read()
        if info is not None and info.get("token") == self.token and info.get("pid") == os.getpid():
            _unlink_quietly(self.lock_file)

    def __enter__(self) -> "SessionLock":
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


# ---------------------------------------------------------------------------
# Lazy loading: the state now, each old event when it is first looked at

_META = {
    "seq": re.compile(rb"^seq = ([1-9]\d{0,17})[ \t]*\r?$", re.MULTILINE),
    "kind": re.compile(rb'^kind = "([A-Za-z_-]+)"[ \t]*\r?$', re.MULTILINE),
    "cmd": re.compile(rb"^cmd = ([1-9]\d{0,17})[ \t]*\r?$", re.MULTILINE),
    "target": re.compile(rb"^target = ([1-9]\d{0,17})[ \t]*\r?$", re.MULTILINE),
}


def _whole(value: Any) -> int | None:
    """``value`` if it is a whole number a seq can be (1 … 2**63-1), else None."""
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value < 2**63:
        return value
    return None
_SUBTABLE = re.compile(rb"^\[", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class EventMeta:
    """What the tracker needs of an event without parsing it (undo stacks)."""

    seq: int
    kind: str
    cmd: int | None
    target: int | None


class _Blocks:
    """The ``[[event]]`` blocks of a file's bytes, sliced out on demand (a read-only list)."""

    __slots__ = ("_data", "_bounds")

    def __init__(self, data: bytes, starts: list[int]) -> None:
        self._data = data
        self._bounds = array("q", starts)
        self._bounds.append(len(data))

    def __len__(self) -> int:
        return len(self._bounds) - 1

    def __getitem__(self, index: int) -> bytes:
        n = len(self._bounds) - 1
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError(index)
        return self._data[self._bounds[index]:self._bounds[index + 1]]

    def __iter__(self) -> Any:
        for i in range(len(self)):
            yield self[i]

    def pop(self) -> bytes:
        """Drop the last block (a torn tail)."""
        last = self[-1]
        self._bounds.pop()
        return last


class EventLog:
    """The event log as a list whose old entries are parsed on first access.

    A 10,000-event session costs seconds to parse (0.6 s even with rtoml); the app needs
    only the state, the events newer than the snapshot, and the few events on
    screen. Loaded blocks keep their raw bytes, so a full rewrite copies them
    verbatim. ``check_all`` parses everything (a background check in the app).
    """

    def __init__(self, blocks: list[bytes] | None = None, path: Path | None = None) -> None:
        self._blocks: Any = blocks if isinstance(blocks, _Blocks) else list(blocks or [])
        self._parsed: dict[int, dict[str, Any]] = {}
        self._new: list[dict[str, Any]] = []
        self._meta: list[EventMeta] = []
        self.path = path
        self.problems: list[str] = []
        self.check: Any = None
        """``check(event, index)`` raising ValueError: a block that fails it is read as unreadable."""
        for i, block in enumerate(self._blocks):
            self._meta.append(self._scan(i, block or b""))

    def set_check(self, check: Any) -> None:
        """Check every block when it is parsed (and those parsed already): nothing
        unchecked is handed out."""
        self.check = check
        for i, ev in list(self._parsed.items()):
            self._parsed[i] = self._checked(i, ev)

    def _checked(self, i: int, ev: dict[str, Any]) -> dict[str, Any]:
        if self.check is None or ev.get("kind") == "unreadable":
            return ev
        try:
            self.check(ev, i)
        except ValueError as e:
            return self._unreadable(i, _one_line(str(e))[:200])
        return ev

    def _unreadable(self, i: int, why: str) -> dict[str, Any]:
        where = f"{self.path}: " if self.path else ""
        problem = f"{where}event block {i + 1} is unreadable ({why})"
        self.problems.append(problem)
        seq = self._meta[i].seq if i < len(self._meta) else 0
        return {"seq": max(seq, 0), "kind": "unreadable", "text": problem, "t": "", "at": [], "changes": []}

    def _scan(self, i: int, block: bytes) -> EventMeta:
        sub = _SUBTABLE.search(block, 1)
        top = block[: sub.start()] if sub else block
        found: dict[str, Any] = {}
        for key, rx in _META.items():
            m = rx.search(top)
            found[key] = m.group(1) if m else None
        if found["seq"] is None or found["kind"] is None:
            # Parsed now (and kept): a seq of -1 marks one that is not a whole number.
            ev = self._parsed[i] = self._parse_block(i)
            seq = _whole(ev.get("seq"))
            kind = ev.get("kind")
            return EventMeta(seq if seq is not None else -1, kind if isinstance(kind, str) else "unreadable",
                             _whole(ev.get("cmd")), _whole(ev.get("target")))
        return EventMeta(int(found["seq"]), sys.intern(found["kind"].decode()),
                         int(found["cmd"]) if found["cmd"] else None,
                         int(found["target"]) if found["target"] else None)

    def __len__(self) -> int:
        return len(self._blocks) + len(self._new)

    def _parse_block(self, i: int) -> dict[str, Any]:
        block = self._blocks[i] or b""
        try:
            doc = tomlread.loads(str(block, "utf-8"))
            ev = doc["event"][0]
            if not isinstance(ev, dict):
                raise ValueError("not a table")
        except (tomlread.TOMLDecodeError, UnicodeDecodeError, KeyError, IndexError, ValueError, TypeError,
                RecursionError) as e:
            return self._unreadable(i, _one_line(str(e))[:120])
        return self._checked(i, ev)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = len(self._blocks)
        if index < 0:
            index += len(self)
        if index < 0 or index >= len(self):
            raise IndexError(index)
        if index >= n:
            return self._new[index - n]
        ev = self._parsed.get(index)
        if ev is None:
            ev = self._parse_block(index)
            self._parsed[index] = ev
        return ev

    def __iter__(self) -> Any:
        for i in range(len(self)):
            yield self[i]

    def __bool__(self) -> bool:
        return len(self) > 0

    def append(self, ev: dict[str, Any]) -> None:
        self._new.append(ev)

    def extend(self, evs: Iterable[dict[str, Any]]) -> None:
        self._new.extend(evs)

    def meta(self, index: int) -> EventMeta:
        n = len(self._blocks)
        if index < n:
            return self._meta[index]
        ev = self._new[index - n]
        return EventMeta(ev["seq"], ev["kind"], ev.get("cmd"), ev.get("target"))

    def raw(self, index: int) -> bytes | None:
        return self._blocks[index] if index < len(self._blocks) else None

    def copy(self) -> "EventLog":
        """A snapshot sharing the (immutable) blocks: cheap, for a save in a thread."""
        other = EventLog.__new__(EventLog)
        other._blocks = self._blocks
        other._parsed = self._parsed
        other._new = list(self._new)
        other._meta = self._meta
        other.path = self.path
        other.problems = self.problems
        other.check = self.check
        return other

    def check_all(self, validate: Any = None, *, keep: bool = True, pause: float = 0.0,
                  hurry: Any = None) -> list[str]:
        """Parse every block (and run ``validate(event, index)`` on it, which
        raises ValueError with one line); return the problems found.

        ``keep=False`` checks without keeping the parsed events (a 10,000-event
        log would otherwise hold every event in memory; unreadable ones are
        kept, so their problem is reported once). ``pause`` > 0 sleeps that
        long after each slice of about 2 ms of parsing, so that a UI thread
        sharing the GIL with this one is never kept waiting long; once
        ``hurry()`` is true it stops pausing.
        """
        t_slice = time.perf_counter()
        for i in range(len(self._blocks)):
            ev = self._parsed.get(i)
            if ev is None:
                ev = self._parse_block(i)
                if keep or ev.get("kind") == "unreadable":
                    self._parsed[i] = ev
            if validate is not None and ev.get("kind") != "unreadable":
                try:
                    validate(ev, i)
                except ValueError as e:
                    where = f"{self.path}: " if self.path else ""
                    self.problems.append(f"{where}{_one_line(str(e))}")
            if pause > 0 and time.perf_counter() - t_slice >= 0.002:
                if hurry is None or not hurry():
                    time.sleep(pause)
                t_slice = time.perf_counter()
        return list(self.problems)


def load_lazy(path: str | os.PathLike[str]) -> Loaded:
    """Like :func:`load`, but the events are an :class:`EventLog` parsed on demand.

    The state table and the last blocks (torn-tail repair) are parsed now;
    other event blocks when first read. Falls back to :func:`load` for files
    that are not this version's own format (no header line, older schema).
    """
    path = Path(path)
    data = _read_bytes(path)
    if not data.startswith(HEADER.encode("utf-8")):
        return load(path)
    starts = _event_starts(data)
    head = data[: starts[0]] if starts else data
    try:
        doc = _parse(head)
    except _ParseFail as fail:
        where = f"at line {fail.line}" if fail.line else "somewhere"
        raise CorruptError(f"{path}: bad TOML {where} ({fail.problem}); {_fix_hint(path)}", fail.line) from None
    if doc.get("schema") != SCHEMA:
        return load(path)
    data, torn = _cut_header_fragment(data)
    # The file's bytes once, and where each block starts: a block is sliced out
    # when it is read (a list of 10,000 copies or views would double the memory).
    blocks = _Blocks(data, starts)
    notices: list[str] = []
    dropped = int(torn)
    while blocks and dropped < MAX_TORN_EVENTS:
        last = blocks[-1]
        try:
            ev = _parse(last)["event"][0]
            ok = isinstance(ev, dict) and _has_end_mark(last, ev.get("seq"))
        except (_ParseFail, KeyError, IndexError, TypeError):
            ok = False
        if ok:
            break
        blocks.pop()
        dropped += 1
    if dropped:
        what = "the last event was" if dropped == 1 else f"the last {dropped} events were"
        notices.append(f"{path}: {what} cut off by a crash and dropped")
    doc["event"] = EventLog(blocks, path)
    if "event" in doc and not isinstance(doc["event"], EventLog):
        raise CorruptError(f"{path}: key 'event' must be [[event]] tables; {_fix_hint(path)}")
    _check_shape_head(path, doc)
    return Loaded(doc=doc, notices=notices, rewrite_needed=bool(dropped))


def _check_shape_head(path: Path, doc: dict[str, Any]) -> None:
    hint = _fix_hint(path)
    snap = doc.get("snapshot_seq")
    if "snapshot_seq" not in doc:
        raise CorruptError(f"{path}: key 'snapshot_seq' is missing; {hint}")
    if not isinstance(snap, int) or isinstance(snap, bool) or snap < 0:
        raise CorruptError(f"{path}: key 'snapshot_seq' must be a whole number ≥ 0, found {snap!r}"[:200] + f"; {hint}")
    if not isinstance(doc.get("state"), dict):
        raise CorruptError(f"{path}: table [state] is missing or not a table; {hint}")
