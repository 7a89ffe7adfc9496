"""The state of a session as it was at any event of its log.

A session file keeps the state *after* its last event (a snapshot plus the
newer events replayed on load, see :meth:`Tracker.replay`) but not the state
the campaign started from. Every event records its changes with their
``before`` values, so the past is rebuilt *backwards*: from the final state,
undo the changes of the newer events, newest first
(:func:`polku.session.model.invert_changes`). Undo and redo events carry
changes too, so they step back like any other event.

:class:`History` walks the whole log backwards once and keeps a copy of the
state every ``every`` events; asking for an event starts from the nearest
copy after it, so stepping through a 10,000-event session costs at most
``every`` small inversions per step.

No textual, no rich, no I/O.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from . import model
from .model import StateError, clone


class ReplayError(ValueError):
    """The log cannot be stepped back past an event (a hand-edited file)."""


@dataclass(frozen=True)
class Scene:
    """One scene of the log: where it is, its first event and its title."""

    at: tuple[int, ...]
    """``(story, session, scene)``."""
    first_seq: int
    """The seq of the scene's first event."""
    title: str
    """The scene's title as it was when the scene began (may be empty)."""
    events: int
    """How many events of the log carry this ``at``."""

    @property
    def label(self) -> str:
        where = ".".join(str(x) for x in self.at)
        return f"scene {where}" + (f": {self.title}" if self.title else "")


def _undo(state: dict[str, Any], ev: dict[str, Any]) -> None:
    try:
        model.apply_changes(state, model.invert_changes(list(ev.get("changes", []))))
    except (StateError, KeyError, IndexError, TypeError) as e:
        raise ReplayError(f"event {ev.get('seq')}: its changes cannot be stepped back ({e})") from None


class History:
    """States at each event of a log, rebuilt backwards from the final state.

    Args:
        final_state: the state after the last event (``tracker.state``).
        events: the whole log, oldest first (``tracker.events``).
        every: keep a copy of the state every this many events.
    """

    def __init__(self, final_state: dict[str, Any], events: Sequence[dict[str, Any]], *, every: int = 64) -> None:
        self.events = list(events)
        self.seqs = [ev["seq"] for ev in self.events]
        self.every = max(1, every)
        self._checkpoints: dict[int, dict[str, Any]] = {}
        """Index into ``events`` → the state after that event."""
        self.earliest_index = -1
        """The oldest index whose state before it can be rebuilt (-1: all of them)."""
        self.error: str | None = None
        """Why the past before ``earliest_index`` cannot be rebuilt, or None."""
        state = clone(final_state)
        last = len(self.events) - 1
        for i in range(last, -1, -1):
            if i == last or i % self.every == 0:
                self._checkpoints[i] = clone(state)
            try:
                _undo(state, self.events[i])
            except ReplayError as e:
                self.earliest_index = i
                self.error = str(e)
                break
        self.initial: dict[str, Any] | None = state if self.error is None else None
        """The state before the first event of the log (None if it cannot be rebuilt)."""
        self._last: tuple[int, dict[str, Any]] | None = None

    @classmethod
    def of(cls, tracker: Any, **kw: Any) -> "History":
        """The history of a :class:`~polku.session.tracker.Tracker`."""
        return cls(tracker.state, tracker.events, **kw)

    @property
    def earliest_seq(self) -> int:
        """The oldest seq whose state can be shown (0: before the first event)."""
        if self.earliest_index < 0:
            return 0
        return self.seqs[self.earliest_index]

    def index_of(self, seq: int) -> int:
        """Index of the last event with ``ev.seq <= seq`` (-1: before the first)."""
        return bisect.bisect_right(self.seqs, seq) - 1

    def state_at(self, seq: int) -> dict[str, Any]:
        """The state right after event ``seq`` (``0`` or less: before the first event).

        Returns a new dict the caller may keep or change.

        Raises:
            ReplayError: the log cannot be stepped back that far.
        """
        j = self.index_of(seq)
        if j < self.earliest_index or (j < 0 and self.initial is None):
            raise ReplayError(self.error or "the log cannot be stepped back that far")
        if j < 0:
            return clone(self.initial)
        if self._last is not None and self._last[0] == j:
            return clone(self._last[1])
        # The nearest copy at or after j, or the cached state when it is closer.
        c = min(k for k in self._checkpoints if k >= j)
        start = self._checkpoints[c]
        if self._last is not None and j <= self._last[0] < c:
            c, start = self._last
        state = clone(start)
        for i in range(c, j, -1):
            _undo(state, self.events[i])
        self._last = (j, clone(state))
        return state

    def scenes(self) -> list[Scene]:
        """Every scene of the log in order of first appearance, with its title."""
        title = ""
        if self.initial is not None:
            title = self.initial.get("structure", {}).get("scene_title", "")
        out: dict[tuple[int, ...], list[Any]] = {}
        for ev in self.events:
            for ch in ev.get("changes", []):
                if list(ch.get("path", [])) == ["structure", "scene_title"] and "after" in ch:
                    title = ch["after"]
            at = tuple(ev.get("at", ()))
            if at not in out:
                out[at] = [ev["seq"], title, 0]
            out[at][2] += 1
        return [Scene(at, v[0], v[1], v[2]) for at, v in out.items()]


def states_forward(initial: dict[str, Any], events: Iterable[dict[str, Any]]) -> Iterable[tuple[int, dict[str, Any]]]:
    """Replay forwards from ``initial``: yield ``(seq, state after it)`` (a check for :class:`History`)."""
    state = clone(initial)
    for ev in events:
        model.apply_changes(state, list(ev.get("changes", [])))
        yield ev["seq"], clone(state)


__all__ = ["History", "ReplayError", "Scene", "states_forward"]
