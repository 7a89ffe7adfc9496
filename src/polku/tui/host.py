"""What the screens may ask of the app, declared below both.

The app (:class:`~polku.tui.app.PolkuApp`) builds the screens, so it imports
them; a screen that named the app's class would import it back. A screen
reaches the app through :func:`host` and sees only this protocol: run a
tracker command, the log's styles, the save state, and (the chooser) open a
session.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:
    from textual.app import App

    from ..session.files import SessionFile
    from ..session.tracker import Clock, Tracker


class AppHost(Protocol):
    clock: Clock | None
    seed: int | None
    save_state: str

    def run_command(self, command: Callable[[Tracker], Any], origin: Any = None) -> Any:
        """Run a tracker command; every screen on the stack then gets one TrackerChanged
        (``origin``, the screen asking, redraws from the result itself)."""

    def log_styles(self) -> dict[str, str]: ...

    def show_session(self, tracker: Tracker, session_file: SessionFile | None) -> None: ...


def host(app: App[Any]) -> AppHost:
    """The running app, as the screens see it."""
    return cast("AppHost", app)
