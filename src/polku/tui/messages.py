"""App-wide domain events (past tense), posted by workers and screens."""

from __future__ import annotations

from typing import Any

from textual.message import Message


class TrackerChanged(Message):
    """A tracker command appended these events.

    The app runs every command (``run_command``) and then posts one of these to
    each screen on the stack; a screen redraws from it with ``@on(TrackerChanged)``.
    It does not bubble: the app has already seen the change.
    """

    bubble = False

    def __init__(self, events: list[dict[str, Any]], origin: Any = None) -> None:
        super().__init__()
        self.events = events
        self.origin = origin
        """The screen that ran the command (it has redrawn with the command's result already)."""


class SessionSaved(Message):
    """The autosave worker wrote the file."""

    def __init__(self, events: int) -> None:
        super().__init__()
        self.events = events


class SaveFailed(Message):
    """The autosave worker could not write; the last good file is untouched."""

    def __init__(self, error: str, job: Any, exc: BaseException | None = None) -> None:
        super().__init__()
        self.error = error
        self.job = job
        self.exc = exc


class SeatRequestsArrived(Message):
    """Something landed in the players' seats' spool folder (or a polling look is due)."""
