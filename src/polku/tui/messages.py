"""App-wide domain events (past tense), posted by workers and screens."""

from __future__ import annotations

from typing import Any

from textual.message import Message


# Plain __init__s rather than @dataclass: decorating a class costs ~0.5 ms,
# paid at every start before the first frame (issue 7).


class CommandDone(Message):
    """A tracker command appended these events."""

    def __init__(self, events: list[dict[str, Any]]) -> None:
        super().__init__()
        self.events = events


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
