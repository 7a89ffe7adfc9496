"""The event log of a lazily loaded file: each old ``[[event]]`` block is parsed when first looked at."""

from __future__ import annotations

import re
import sys
import time
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import cast, overload

from ... import tomlread
from ..model import Event
from .errors import one_line

_META = {
    "seq": re.compile(rb"^seq = ([1-9]\d{0,17})[ \t]*\r?$", re.MULTILINE),
    "kind": re.compile(rb'^kind = "([A-Za-z_-]+)"[ \t]*\r?$', re.MULTILINE),
    "cmd": re.compile(rb"^cmd = ([1-9]\d{0,17})[ \t]*\r?$", re.MULTILINE),
    "target": re.compile(rb"^target = ([1-9]\d{0,17})[ \t]*\r?$", re.MULTILINE),
}


EventCheck = Callable[[Event, int], object]
"""``check(event, index)``: raises ValueError (one line) if the event is not right."""


def _whole(value: object) -> int | None:
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


class Blocks:
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

    def __iter__(self) -> Iterator[bytes]:
        for i in range(len(self)):
            yield self[i]

    def pop(self) -> bytes:
        """Drop the last block (a torn tail)."""
        last = self[-1]
        self._bounds.pop()
        return last


class EventLog(Sequence[Event]):
    """The event log as a list whose old entries are parsed on first access.

    A 10,000-event session costs seconds to parse (0.6 s even with rtoml); the app needs
    only the state, the events newer than the snapshot, and the few events on
    screen. Loaded blocks keep their raw bytes, so a full rewrite copies them
    verbatim. ``check_all`` parses everything (a background check in the app).
    """

    def __init__(self, blocks: "list[bytes] | Blocks | None" = None, path: Path | None = None) -> None:
        self._blocks: list[bytes] | Blocks = blocks if isinstance(blocks, Blocks) else list(blocks or [])
        self._parsed: dict[int, Event] = {}
        self._new: list[Event] = []
        self._meta: list[EventMeta] = []
        self.path = path
        self.problems: list[str] = []
        self.check: EventCheck | None = None
        """``check(event, index)`` raising ValueError: a block that fails it is read as unreadable."""
        for i, block in enumerate(self._blocks):
            self._meta.append(self._scan(i, block or b""))

    def set_check(self, check: EventCheck) -> None:
        """Check every block when it is parsed (and those parsed already): nothing
        unchecked is handed out."""
        self.check = check
        for i, ev in list(self._parsed.items()):
            self._parsed[i] = self._checked(i, ev)

    def _checked(self, i: int, ev: Event) -> Event:
        if self.check is None or ev.get("kind") == "unreadable":
            return ev
        try:
            self.check(ev, i)
        except ValueError as e:
            return self._unreadable(i, one_line(str(e))[:200])
        return ev

    def _unreadable(self, i: int, why: str) -> Event:
        where = f"{self.path}: " if self.path else ""
        problem = f"{where}event block {i + 1} is unreadable ({why})"
        self.problems.append(problem)
        seq = self._meta[i].seq if i < len(self._meta) else 0
        return {"seq": max(seq, 0), "kind": "unreadable", "text": problem, "t": "", "at": [], "changes": []}

    def _scan(self, i: int, block: bytes) -> EventMeta:
        sub = _SUBTABLE.search(block, 1)
        top = block[: sub.start()] if sub else block
        found: dict[str, bytes | None] = {}
        for key, rx in _META.items():
            m = rx.search(top)
            found[key] = m.group(1) if m else None
        seq_b, kind_b, cmd_b, target_b = found["seq"], found["kind"], found["cmd"], found["target"]
        if seq_b is None or kind_b is None:
            # Parsed now (and kept): a seq of -1 marks one that is not a whole number.
            ev = self._parsed[i] = self._parse_block(i)
            seq = _whole(ev.get("seq"))
            kind = ev.get("kind")
            return EventMeta(seq if seq is not None else -1, kind if isinstance(kind, str) else "unreadable",
                             _whole(ev.get("cmd")), _whole(ev.get("target")))
        return EventMeta(int(seq_b), sys.intern(kind_b.decode()), int(cmd_b) if cmd_b else None,
                         int(target_b) if target_b else None)

    def __len__(self) -> int:
        return len(self._blocks) + len(self._new)

    def _parse_block(self, i: int) -> Event:
        block = self._blocks[i] or b""
        try:
            doc = tomlread.loads(str(block, "utf-8"))
            ev: object = doc["event"][0]  # the raw TOML: checked below and by self.check
            if not isinstance(ev, dict):
                raise ValueError("not a table")
        except (tomlread.TOMLDecodeError, UnicodeDecodeError, KeyError, IndexError, ValueError, TypeError,
                RecursionError) as e:
            return self._unreadable(i, one_line(str(e))[:120])
        # The loader's check (model.validate_event) looks at its shape before it is handed out.
        return self._checked(i, cast(Event, ev))

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> list[Event]: ...

    def __getitem__(self, index: int | slice) -> Event | list[Event]:
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

    def __iter__(self) -> Iterator[Event]:
        for i in range(len(self)):
            yield self[i]

    def __bool__(self) -> bool:
        return len(self) > 0

    def append(self, ev: Event) -> None:
        self._new.append(ev)

    def extend(self, evs: Iterable[Event]) -> None:
        self._new.extend(evs)

    def meta(self, index: int) -> EventMeta:
        n = len(self._blocks)
        if index < n:
            return self._meta[index]
        ev = self._new[index - n]
        return EventMeta(ev["seq"], ev["kind"], ev.get("cmd"), ev.get("target"))

    def raw(self, index: int) -> bytes | None:
        return self._blocks[index] if index < len(self._blocks) else None

    def copy(self, drop_last: int = 0) -> "EventLog":
        """A snapshot sharing the (immutable) blocks: cheap, for a save in a thread.

        ``drop_last``: without the last events appended since the file was read (a save that ends earlier).
        """
        if not 0 <= drop_last <= len(self._new):
            raise ValueError(f"cannot leave out {drop_last} of the {len(self._new)} events appended")
        other = EventLog.__new__(EventLog)
        other._blocks = self._blocks
        other._parsed = self._parsed
        other._new = self._new[:len(self._new) - drop_last]
        other._meta = self._meta
        other.path = self.path
        other.problems = self.problems
        other.check = self.check
        return other

    def check_all(self, validate: EventCheck | None = None, *, keep: bool = True, pause: float = 0.0,
                  hurry: Callable[[], bool] | None = None) -> list[str]:
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
                    self.problems.append(f"{where}{one_line(str(e))}")
            if pause > 0 and time.perf_counter() - t_slice >= 0.002:
                if hurry is None or not hurry():
                    time.sleep(pause)
                t_slice = time.perf_counter()
        return list(self.problems)
