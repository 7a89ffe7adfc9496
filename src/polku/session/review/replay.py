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
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence

from ...i18n import N_, said
from .. import model
from ..model import Event, State, StateError, clone
from ..validation import error_text

if TYPE_CHECKING:
    from ..tracker import Tracker


class ReplayError(ValueError):
    """The log cannot be stepped back past an event (a hand-edited file)."""


@dataclass(frozen=True)
class Scene:
    """One scene of the log: where it is, its events and its title.

    A scene's events are a run of the log: from the scene change that began
    it up to the next scene change that stands (see :func:`scene_sections`).
    """

    at: tuple[int, ...]
    """``(story, session, scene)``."""
    first_seq: int
    """The seq of the scene's first event."""
    title: str
    """The scene's title as it was when the scene began (may be empty)."""
    events: int
    """How many events of the log lie in this scene (undone ones included)."""
    last_seq: int = 0
    """The seq of the scene's last event."""

    @property
    def label(self) -> str:
        where = ".".join(str(x) for x in self.at)
        return f"scene {where}" + (f": {self.title}" if self.title else "")

    def holds(self, seq: int) -> bool:
        """Whether event ``seq`` lies in this scene."""
        return self.first_seq <= seq <= self.last_seq


def _starting_structure(final: Mapping[str, Any], events: Sequence[Event]) -> dict[str, Any]:
    """The story, session, scene and title before the first event, stepped back from ``final``."""
    struct = dict(final)
    for ev in reversed(events):
        for ch in reversed(list(ev.get("changes", []))):
            path = list(ch.get("path", []))
            if len(path) == 2 and path[0] == "structure" and "before" in ch:
                struct[str(path[1])] = ch["before"]
    return struct


def _title_after(ev: Event, title: str) -> str:
    """The scene title once the scene change ``ev`` stands."""
    for ch in ev.get("changes", []):
        if list(ch.get("path", [])) == ["structure", "scene_title"] and "after" in ch:
            after = ch["after"]
            return after if isinstance(after, str) else ""
    m = re.match(r"Scene \d+(?:: (.*))?$", str(ev.get("text", "")))
    if m:
        return m.group(1) or ""
    if str(ev.get("text", "")).startswith("Session "):
        return ""
    return title


def scene_sections(events: Sequence[Event], is_undone: Callable[[int], bool],
                   final_structure: Mapping[str, object]) -> list[Scene]:
    """The scenes of a log, from the scene changes (scene, session, story) that stand.

    A scene change that was undone begins no scene: it and whatever happened
    until the next change that stands belong to the scene it would have
    ended, struck through where they were undone. Events carry the ``at`` of
    the moment they happened, which for an undone scene is a scene that never
    stood, so the scenes come from the changes, not from ``at``.

    Args:
        events: the whole log, oldest first.
        is_undone: whether an event (by seq) was undone.
        final_structure: ``state["structure"]`` after the last event.
    """
    start = _starting_structure(final_structure, events)
    at: tuple[int, ...] = tuple(int(start.get(k, 1)) for k in ("story", "session", "scene"))
    title = str(start.get("scene_title", "") or "")
    out: list[Scene] = []
    first = last = 0
    count = 0
    for ev in events:
        seq = ev["seq"]
        if ev.get("kind") == "structure" and not is_undone(seq):
            if count:
                out.append(Scene(at, first, title, count, last))
            at, title, count = tuple(ev.get("at", at)), _title_after(ev, title), 0
        if not count:
            first = seq
        count += 1
        last = seq
    if count:
        out.append(Scene(at, first, title, count, last))
    return out


def _undo(state: State, ev: Event) -> None:
    try:
        model.apply_changes(state, model.invert_changes(list(ev.get("changes", []))))
    except (StateError, KeyError, IndexError, TypeError) as e:
        raise ReplayError(said(N_("event {seq}: its changes cannot be stepped back ({error})"), seq=str(ev.get('seq')),
                               error=error_text(e))) from None


class History:
    """States at each event of a log, rebuilt backwards from the final state.

    Args:
        final_state: the state after the last event (``tracker.state``).
        events: the whole log, oldest first (``tracker.events``).
        every: keep a copy of the state every this many events.
    """

    def __init__(self, final_state: State, events: Sequence[Event], *, every: int = 64) -> None:
        self.events = list(events)
        self.seqs: list[int] = [ev["seq"] for ev in self.events]
        self.every = max(1, every)
        self._checkpoints: dict[int, State] = {}
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
        self.initial: State | None = state if self.error is None else None
        """The state before the first event of the log (None if it cannot be rebuilt)."""
        self._last: tuple[int, State] | None = None

    @classmethod
    def of(cls, tracker: Tracker, *, every: int = 64) -> "History":
        """The history of a :class:`~polku.session.tracker.Tracker`."""
        return cls(tracker.state, tracker.events, every=every)

    def scenes(self, is_undone: Callable[[int], bool] = lambda seq: False) -> list[Scene]:
        """The scenes of the log (see :func:`scene_sections`)."""
        last = len(self.events) - 1
        if last >= 0:
            return scene_sections(self.events, is_undone, self._checkpoints[last]["structure"])
        return scene_sections(self.events, is_undone, self.initial["structure"] if self.initial else {})

    @property
    def earliest_seq(self) -> int:
        """The oldest seq whose state can be shown (0: before the first event)."""
        if self.earliest_index < 0:
            return 0
        return self.seqs[self.earliest_index]

    def index_of(self, seq: int) -> int:
        """Index of the last event with ``ev.seq <= seq`` (-1: before the first)."""
        return bisect.bisect_right(self.seqs, seq) - 1

    def state_at(self, seq: int) -> State:
        """The state right after event ``seq`` (``0`` or less: before the first event).

        Returns a new dict the caller may keep or change.

        Raises:
            ReplayError: the log cannot be stepped back that far.
        """
        j = self.index_of(seq)
        if j < self.earliest_index or (j < 0 and self.initial is None):
            raise ReplayError(self.error or "the log cannot be stepped back that far")
        if j < 0 and self.initial is not None:
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



def states_forward(initial: State, events: Iterable[Event]) -> Iterable[tuple[int, State]]:
    """Replay forwards from ``initial``: yield ``(seq, state after it)`` (a check for :class:`History`)."""
    state = clone(initial)
    for ev in events:
        model.apply_changes(state, list(ev.get("changes", [])))
        yield ev["seq"], clone(state)


__all__ = ["History", "ReplayError", "Scene", "scene_sections", "states_forward"]
