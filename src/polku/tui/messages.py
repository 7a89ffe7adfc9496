"""App-wide domain events (past tense), posted by workers and screens."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual.message import Message


@dataclass
class CommandDone(Message):
    """A tracker command appended these events."""

    events: list[dict[str, Any]]


@dataclass
class SessionSaved(Message):
    """The autosave worker wrote the file."""

    events: int


@dataclass
class SaveFailed(Message):
    """The autosave worker could not write; the last good file is untouched."""

    error: str
    job: Any
