"""Bounds on what typing and pasting can make an app hold.

A terminal pastes as one bracketed ``Paste`` event, or — over SSH without
bracketed paste — as one key per character. Either way an unbounded paste
would grow a text field (and the command palette's fuzzy search over it)
without limit, so every app of Polku takes this mixin:

- a paste is cut to :data:`PASTE_MAX` characters, or to what the text field
  has room for (the user is told);
- every text field, the command palette's included, holds at most
  :data:`TEXT_MAX` characters unless it asks for fewer; the bound is set the
  first time a key or a paste reaches the field, so no screen can forget it.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.widgets import Input

from ..i18n import _

TEXT_MAX = 2000
"""Characters any text field holds (a note or a set of faces is far shorter)."""

PASTE_MAX = 4000
"""Characters one paste may bring."""


class InputLimits:
    """Mixed into an :class:`~textual.app.App` before ``App``."""

    focused: Any

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, (events.Key, events.Paste)):
            field = self.focused
            if isinstance(field, Input) and not field.max_length:
                field.max_length = TEXT_MAX
            if isinstance(event, events.Paste):
                room = PASTE_MAX
                if isinstance(field, Input):
                    room = min(room, max(0, (field.max_length or TEXT_MAX) - len(field.value)
                                         + len(field.selected_text)))
                if len(event.text) > room:
                    event.text = event.text[:room]
                    self.notify(_("The paste was cut to the {room} characters that fit", room=room),  # type: ignore[attr-defined]
                                severity="warning", timeout=4)
        await super().on_event(event)  # type: ignore[misc]


__all__ = ["InputLimits", "PASTE_MAX", "TEXT_MAX"]
