"""What the screens may ask of the app, declared below both.

The app (:class:`~polku.tui.app.PolkuApp`) builds the screens, so it imports
them; a screen that named the app's class would import it back. A screen
reaches the app through :func:`host` and sees only this protocol: the log's
styles, the save state, and (the chooser) open a session. A tracker command
does not go through it: a screen posts a ``RunCommand`` message to the app
(``tui/messages.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:
    from textual.app import App

    from ..session.files import SessionFile
    from ..session.tracker import Clock, Tracker


class AppHost(Protocol):
    clock: Clock | None
    seed: int | None
    save_state: str

    def log_styles(self) -> dict[str, str]: ...

    def show_session(self, tracker: Tracker, session_file: SessionFile | None) -> None: ...

    def switch_language(self, lang: str) -> None: ...


def host(app: App[Any]) -> AppHost:
    """The running app, as the screens see it."""
    return cast("AppHost", app)
