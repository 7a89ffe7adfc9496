"""Reading a session file: parse, repair a tail torn by a crash, migrate, check the shape.

:func:`load` parses the whole file; :func:`load_lazy` parses the head now and
each event block when it is first read (:class:`EventLog`). Both drop a torn
tail with :func:`repair_tail`, the one place that decides what a crash cut off.
Neither ever writes, nor evaluates anything as code.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ... import tomlread
from ...i18n import N_, Said, said
from .atomic import backup_path
from .errors import CorruptError, NewerSchemaError, StoreError, cut, one_line, oserror_text
from .events import Blocks, EventLog
from .format import END_MARK, EVENT_HEADER, HEADER_BYTES, SCHEMA
from .migrate import migrate_v1

MAX_TORN_EVENTS = 3
"""At most this many trailing event blocks may be dropped as cut off by a crash."""

_TOML_WHERE = re.compile(r"^(.*?) \(at (?:line (\d+), column \d+|end of document)\)$", re.DOTALL)


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
    position: "Position | None" = None
    """Where :func:`load` stopped reading, for :func:`read_appended` (None: not this version's format)."""


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
            raise _ParseFail(one_line(str(e)), None) from None
        line = int(m.group(2)) if m.group(2) else text.count("\n") + 1
        raise _ParseFail(m.group(1), line) from None
    except (ValueError, RecursionError, OverflowError) as e:
        if "integer string conversion" in str(e):
            raise _ParseFail("a whole number with thousands of digits", None) from None
        raise _ParseFail(one_line(f"{type(e).__name__}: {e}")[:200], None) from None


def _read_bytes(path: Path) -> bytes:
    """The file's bytes, or a one-line :class:`StoreError` saying why not."""
    return _read_bytes_stat(path)[0]


def _read_bytes_stat(path: Path) -> tuple[bytes, os.stat_result]:
    """The file's bytes and the identity of the file they were read from (one open)."""
    try:
        with open(path, "rb") as f:
            return f.read(), os.fstat(f.fileno())
    except FileNotFoundError:
        raise StoreError(said(N_("{path}: no such session file; start one with 'polku new'"), path=str(path))) from None
    except IsADirectoryError:
        raise StoreError(said(N_("{path}: is a folder, not a session file"), path=str(path))) from None
    except OSError as e:
        raise StoreError(said(N_("could not read {path}: {reason}"), path=str(path), reason=oserror_text(e))) from None


# ---------------------------------------------------------------------------
# The torn tail


@dataclass(frozen=True, slots=True)
class Repaired:
    """The bytes of a file without the event blocks a crash cut off."""

    data: bytes
    dropped: int = 0
    """How many trailing blocks were dropped (a torn start of a block counts as one)."""
    problem: str = ""
    """What was wrong with the last block dropped for bad TOML, with its line in the file."""

    def notice(self, path: Path) -> str:
        p = str(path)
        if self.dropped == 1:
            return (said(N_("{path}: the last event was cut off by a crash and dropped ({problem})"), path=p,
                         problem=self.problem) if self.problem else
                    said(N_("{path}: the last event was cut off by a crash and dropped"), path=p))
        return (said(N_("{path}: the last {n} events were cut off by a crash and dropped ({problem})"), path=p,
                     n=self.dropped, problem=self.problem) if self.problem else
                said(N_("{path}: the last {n} events were cut off by a crash and dropped"), path=p, n=self.dropped))


def repair_tail(data: bytes) -> Repaired:
    """Drop up to :data:`MAX_TORN_EVENTS` trailing ``[[event]]`` blocks cut off by a crash.

    A block is torn when it is not valid TOML on its own (an ``[[event]]``
    block holds only its own tables, so it is valid in the file exactly when it
    is valid alone) or, in a file that starts with :data:`HEADER` (this
    version's own), when it lacks its ``# end of event N`` line: a crash at a
    line boundary leaves valid but incomplete TOML. Damage before the last
    blocks is not a torn tail; the caller's parse reports it.
    """
    strict = data.startswith(HEADER_BYTES)
    dropped = 0
    problem = ""
    if strict:
        data, torn = _cut_header_fragment(data)
        dropped += torn
    while dropped < MAX_TORN_EVENTS:
        last = _last_event_start(data)
        if last is None:
            break
        block = data[last:]
        try:
            ev = _parse(block)["event"][0]
        except _ParseFail as fail:
            if fail.line is not None:
                line = data.count(b"\n", 0, last) + fail.line
                problem = f"line {line}: {fail.problem}"
        else:
            if not strict or (isinstance(ev, dict) and _has_end_mark(block, ev.get("seq"))):
                break
        data = data[:last]
        dropped += 1
    return Repaired(data, dropped, problem)


def _event_starts(data: bytes) -> list[int]:
    return [m.start() for m in EVENT_HEADER.finditer(data)]


def _lines_from_the_end(data: bytes, start: bytes) -> Iterator[int]:
    """Offsets of the lines that begin with ``start``, the last first (no scan of the whole file)."""
    end = len(data)
    while (i := data.rfind(start, 0, end)) >= 0:
        if i == 0 or data[i - 1 : i] == b"\n":
            yield i
        end = i


def _last_event_start(data: bytes) -> int | None:
    """Offset of the last line that is exactly ``[[event]]``."""
    return next((i for i in _lines_from_the_end(data, b"[[event]]") if EVENT_HEADER.match(data, i)), None)


def _has_end_mark(block: bytes, seq: Any) -> bool:
    """Does the block end with its ``# end of event N`` line?

    A mark followed by a newline is complete whatever its number (the event's
    ``seq`` may have been edited by hand); without the newline the mark line
    itself may be torn ("# end of event 1" of "# end of event 12"), so its
    number must equal ``seq``.
    """
    tail = block.rstrip(b" \t\r\n")
    start = tail.rfind(b"\n") + 1
    m = END_MARK.match(tail[start:].decode("utf-8", "replace"))
    if not m:
        return False
    return b"\n" in block[len(tail):] or int(m.group(1)) == seq


def _end_of_last_mark(data: bytes) -> int | None:
    """Offset just after the last complete ``# end of event N`` line (with its newline)."""
    for i in _lines_from_the_end(data, b"# end of event "):
        nl = data.find(b"\n", i)
        if nl >= 0 and END_MARK.match(data[i:nl].decode("utf-8", "replace")):
            return nl + 1
    return None


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
    if not rest.strip() or EVENT_HEADER.search(rest):
        return data, False
    return data[:cut], True


# ---------------------------------------------------------------------------
# Loading


def _bad_toml(path: Path, fail: _ParseFail) -> CorruptError:
    if fail.line:
        return CorruptError(said(N_("{path}: bad TOML at line {line} ({problem}); {hint}"), path=str(path), line=fail.line,
                                 problem=fail.problem, hint=_fix_hint(path)), fail.line)
    return CorruptError(said(N_("{path}: bad TOML somewhere ({problem}); {hint}"), path=str(path), problem=fail.problem,
                             hint=_fix_hint(path)), fail.line)


def load(path: str | os.PathLike[str]) -> Loaded:
    """Read and check a session file; never writes.

    A last ``[[event]]`` block cut off by a crash (see :func:`repair_tail`) is
    dropped with a notice. A schema 1 file is migrated with a notice. Either
    way ``rewrite_needed`` is set.

    Raises:
        StoreError: the file cannot be read.
        CorruptError: not valid TOML, or not the shape of a session file.
        NewerSchemaError: written by a newer Polku.
    """
    path = Path(path)
    raw, st = _read_bytes_stat(path)
    repaired = repair_tail(raw)
    data = repaired.data
    try:
        doc = _parse(data)
    except _ParseFail as fail:
        raise _bad_toml(path, fail) from None
    notices = [repaired.notice(path)] if repaired.dropped else []

    schema = doc.get("schema")
    if "schema" not in doc:
        raise CorruptError(said(N_("{path}: key 'schema' is missing; this is not a Polku session file, or {hint}"),
                                 path=str(path), hint=_fix_hint(path)))
    if not isinstance(schema, int) or isinstance(schema, bool):
        raise CorruptError(_cut_found(said(N_("{path}: key 'schema' must be a whole number, found {found}; {hint}"),
                                            path=str(path), found=repr(schema), hint=_fix_hint(path)), 200))
    if schema > SCHEMA:
        raise NewerSchemaError(
            said(N_("{path} was written by a newer Polku (schema {schema}); this version reads schema ≤ {known}"
                    " — upgrade Polku"), path=str(path), schema=schema, known=SCHEMA),
            schema,
        )
    migrated = False
    if schema < SCHEMA:
        if schema != 1:
            raise CorruptError(said(N_("{path}: schema {schema} is unknown (this version reads 1 and {known}); {hint}"),
                                     path=str(path), schema=schema, known=SCHEMA, hint=_fix_hint(path)))
        doc = migrate_v1(doc, where=str(path))
        migrated = True
        notices.append(said(
            N_("{path}: converted from the older schema 1; it is saved as schema {schema} on the next save"
               " and the old file is kept as {backup}"), path=str(path), schema=SCHEMA, backup=str(backup_path(path))))

    _check_head(path, doc)
    _check_events(path, doc, data)
    return Loaded(doc=doc, notices=notices, rewrite_needed=bool(repaired.dropped) or migrated,
                  position=None if migrated else _position(data, st))


def load_lazy(path: str | os.PathLike[str]) -> Loaded:
    """Like :func:`load`, but the events are an :class:`EventLog` parsed on demand.

    The state table and the last blocks (torn-tail repair) are parsed now;
    other event blocks when first read. Falls back to :func:`load` for files
    that are not this version's own format (no header line, older schema).
    """
    path = Path(path)
    data = _read_bytes(path)
    if not data.startswith(HEADER_BYTES):
        return load(path)
    repaired = repair_tail(data)
    data = repaired.data
    starts = _event_starts(data)
    try:
        doc = _parse(data[: starts[0]] if starts else data)
    except _ParseFail as fail:
        raise _bad_toml(path, fail) from None
    if doc.get("schema") != SCHEMA:
        return load(path)
    if "event" in doc:  # an 'event' key in the head, which the blocks would have to extend
        raise CorruptError(said(N_("{path}: key 'event' must be [[event]] tables, found {found}; {hint}"),
                                path=str(path), found=type(doc['event']).__name__, hint=_fix_hint(path)))
    _check_head(path, doc)
    # The file's bytes once, and where each block starts: a block is sliced out
    # when it is read (a list of 10,000 copies or views would double the memory).
    doc["event"] = EventLog(Blocks(data, starts), path)
    notices = [repaired.notice(path)] if repaired.dropped else []
    return Loaded(doc=doc, notices=notices, rewrite_needed=bool(repaired.dropped))


# ---------------------------------------------------------------------------
# Reading only what was appended


CHECK_BYTES = 64
"""How many bytes at the start of the file and before a reader's position must be unchanged."""


@dataclass(frozen=True, slots=True)
class Position:
    """How far a reader has read a file, and what the file looked like there.

    The writer only appends ``[[event]]`` blocks between its full rewrites, and a
    full rewrite replaces the file (a new inode). So a file with the same
    identity, at least as long, whose first bytes and the bytes just before
    ``end`` are the ones read, holds what was read plus what was appended.
    """

    dev: int
    ino: int
    end: int
    """Bytes read: the file's events up to here are known."""
    head: bytes
    tail: bytes
    """The :data:`CHECK_BYTES` bytes at the start and just before ``end``."""


@dataclass(frozen=True, slots=True)
class Appended:
    """The event blocks appended after a :class:`Position`."""

    events: list[dict[str, Any]]
    position: Position
    """The new position (after the last complete block)."""
    torn: bool = False
    """A last block still being written was left for the next read."""


def _position(data: bytes, st: os.stat_result) -> Position | None:
    if not data.startswith(HEADER_BYTES):
        return None  # not this version's own format: no end marks to trust
    return Position(st.st_dev, st.st_ino, len(data), data[:CHECK_BYTES], data[max(0, len(data) - CHECK_BYTES):])


def read_appended(path: str | os.PathLike[str], pos: Position) -> Appended | None:
    """The complete event blocks appended to ``path`` since ``pos``; None when the
    file was replaced or rewritten (or anything else changed): read it whole then.

    A last block without its end mark is being written: it is left for the
    next read (``torn``). A block before it that is not valid TOML, or bytes
    that are no block, mean the file is not what was read plus appends.
    """
    try:
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            if (st.st_dev, st.st_ino) != (pos.dev, pos.ino) or st.st_size < pos.end:
                return None
            head = f.read(len(pos.head))
            f.seek(pos.end - len(pos.tail))
            data = f.read()
    except OSError:
        return None
    if head != pos.head or data[:len(pos.tail)] != pos.tail:
        return None
    new = data[len(pos.tail):]
    starts = _event_starts(new)
    if not starts:
        # Nothing, or the first bytes of a block whose header line is not complete yet.
        return Appended([], pos, torn=bool(new.strip()))
    if new[:starts[0]].strip():
        return None
    events: list[dict[str, Any]] = []
    consumed = 0
    bounds = starts + [len(new)]
    for k, (a, b) in enumerate(zip(bounds, bounds[1:])):
        block = new[a:b]
        last = k == len(starts) - 1
        try:
            ev = _parse(block)["event"][0]
        except (_ParseFail, KeyError, IndexError, TypeError):
            if last:
                break
            return None
        if not isinstance(ev, dict) or not _has_end_mark(block, ev.get("seq")):
            if last:
                break
            return None
        events.append(ev)
        consumed = b
    end = pos.end + consumed
    whole = data[:len(pos.tail)] + new[:consumed]
    tail = whole[max(0, len(whole) - CHECK_BYTES):] if consumed else pos.tail
    return Appended(events, Position(pos.dev, pos.ino, end, pos.head, tail), torn=consumed < len(new.rstrip()))


def _fix_hint(path: Path) -> Said:
    bak = backup_path(path)
    if bak.exists():
        return said(N_("the previous good file is {path}"), path=str(bak))
    return said(N_("fix it in a text editor"))


def _cut_found(text: Said, limit: int) -> str:
    """A "found X; hint" line whose part before the hint is cut to ``limit`` characters when X is huge (as before)."""
    hint = text.words[1]["hint"]
    head = str(text)[: len(text) - len(f"; {hint}")]
    return text if len(head) <= limit else head[:limit] + f"; {hint}"


def _check_head(path: Path, doc: dict[str, Any]) -> None:
    """``snapshot_seq`` and ``[state]``: what both loaders check before any event."""
    hint = _fix_hint(path)
    snap = doc.get("snapshot_seq")
    if "snapshot_seq" not in doc:
        raise CorruptError(said(N_("{path}: key 'snapshot_seq' is missing; {hint}"), path=str(path), hint=hint))
    if not isinstance(snap, int) or isinstance(snap, bool) or snap < 0:
        raise CorruptError(_cut_found(said(N_("{path}: key 'snapshot_seq' must be a whole number ≥ 0, found {found}; {hint}"),
                                            path=str(path), found=repr(snap), hint=hint), 200))
    if "state" not in doc:
        raise CorruptError(said(N_("{path}: table [state] is missing; {hint}"), path=str(path), hint=hint))
    if not isinstance(doc["state"], dict):
        raise CorruptError(said(N_("{path}: key 'state' must be a table, found {found}; {hint}"), path=str(path),
                                 found=type(doc['state']).__name__, hint=hint))


def _bad_event(path: Path, n: int, line: int | None, ev: object, hint: Said) -> Said:
    """What is wrong with the ``n``-th event (not a table, or without a whole-number ``seq``)."""
    p = str(path)
    if not isinstance(ev, dict):
        return (said(N_("{path}: event {n} (line {line}) must be a table; {hint}"), path=p, n=n, line=line, hint=hint)
                if line else said(N_("{path}: event {n} must be a table; {hint}"), path=p, n=n, hint=hint))
    if "seq" not in ev:
        return (said(N_("{path}: event {n} (line {line}) has no 'seq'; {hint}"), path=p, n=n, line=line, hint=hint)
                if line else said(N_("{path}: event {n} has no 'seq'; {hint}"), path=p, n=n, hint=hint))
    found = repr(ev["seq"])
    return (said(N_("{path}: event {n} (line {line}) has 'seq' = {found}, not a whole number; {hint}"), path=p, n=n,
                 line=line, found=found, hint=hint)
            if line else said(N_("{path}: event {n} has 'seq' = {found}, not a whole number; {hint}"), path=p, n=n,
                              found=found, hint=hint))


def _check_events(path: Path, doc: dict[str, Any], data: bytes) -> None:
    hint = _fix_hint(path)
    events = doc.setdefault("event", [])
    if not isinstance(events, list):
        raise CorruptError(said(N_("{path}: key 'event' must be [[event]] tables, found {found}; {hint}"),
                                 path=str(path), found=type(events).__name__, hint=hint))
    for i, ev in enumerate(events):
        if isinstance(ev, dict):
            seq = ev.get("seq")
            if isinstance(seq, int) and not isinstance(seq, bool):
                continue
        line = _event_line(data, i)
        raise CorruptError(cut(_bad_event(path, i + 1, line, ev, hint), 400), line)


def _event_line(data: bytes, index: int) -> int | None:
    starts = _event_starts(data)
    if index < len(starts):
        return data.count(b"\n", 0, starts[index]) + 1
    return None
