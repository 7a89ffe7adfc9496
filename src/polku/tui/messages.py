"""App-wide domain events (past tense), posted by workers and screens."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.message import Message

if TYPE_CHECKING:
    from textual.message_pump import MessagePump

    from ..session.commands import Command
    from ..session.model import Event
    from ..session.players.seats import Look


class RunCommand(Message):
    """A screen asks the app to run a tracker command (posted to the app).

    The command is a value with a name and arguments (:class:`~polku.session.commands.Command`,
    made with ``command("combat.next")``), not a closure: a test's ``message_hook``, a log
    or an error report sees which command a screen asked for.

    The app is the one place that runs commands: a ``TrackerError`` or ``RulesError``
    (a read-only session refuses every command) becomes a one-line "Not done"
    notification and changes nothing. Otherwise every screen on the stack gets one
    :class:`TrackerChanged` with the command's events, and then ``then`` is called on
    ``origin`` with what the command returned (after ``origin`` has handled its
    ``TrackerChanged``: a screen that selects or shows what it made finds it drawn).
    ``then`` is not called when the command failed.

    Issue one from a screen with
    ``self.app.post_message(RunCommand(command("undo"), origin=self, then=...))``.
    """

    bubble = False

    def __init__(self, command: Command, *, origin: MessagePump,
                 then: Callable[[Any], object] | None = None) -> None:
        super().__init__()
        self.command = command
        self.origin = origin
        """The screen asking: it hears the reply, and may skip its own TrackerChanged."""
        self.then = then


class TrackerChanged(Message):
    """A tracker command appended these events.

    The app runs every command (a screen asks with :class:`RunCommand`) and then posts
    one of these to each screen on the stack; a screen redraws from it with
    ``@on(TrackerChanged)``. It does not bubble: the app has already seen the change.
    """

    bubble = False

    def __init__(self, events: list[Event], origin: Any = None) -> None:
        super().__init__()
        self.events = events
        self.origin = origin
        """The screen that asked for the command (None: the app's own, a seat's request, the palette).

        A screen that redraws from the command's result in its ``then`` skips its own
        message, so a key press redraws it once."""


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


class SeatRequestsTaken(Message):
    """A look into the spool (a worker) took these requests; apply them."""

    def __init__(self, path: Path, look: Look) -> None:
        super().__init__()
        self.path = path
        self.look = look


class SeatRequestsAnswered(Message):
    """The answers of a look are written; ``more``: requests were left for the next look; ``lost``: seat
    folder → why its answer could not be written and what to fix (:func:`polku.session.players.seats.deliver`)."""

    def __init__(self, more: bool, lost: dict[str, str] | None = None) -> None:
        super().__init__()
        self.more = more
        self.lost = lost or {}


class LanguageChanged(Message):
    """The language in use changed (the palette, the settings): screens redraw their words.

    Posted by the app to every screen on the stack after ``i18n.set_language``; key lines,
    the help and the palette translate as they are shown, so they need nothing more.
    """
