"""Every private Textual API Polku relies on, in one place.

Textual is pinned exactly (constraints.txt) because its private names can
change in any release. When Textual is upgraded, this module is the one to
check: each function says what it reaches into and why Polku needs it, and
``tests/test_compat.py`` checks each against the pinned version.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from textual._xterm_parser import XTermParser
from textual.app import App
from textual.drivers import linux_driver
from textual.message import Message
from textual.message_pump import MessagePump
from textual.screen import Screen

if TYPE_CHECKING:
    from rich.terminal_theme import TerminalTheme
    from textual.binding import BindingsMap
    from textual.dom import DOMNode


class CoveringScreens(App[Any]):
    """An App whose screens may declare ``covers_screen = True``: such a screen
    paints every cell, so the screens under it are not refreshed while it is up.

    Textual counts the screen below a modal as visible even when the modal
    paints every cell; each repaint down there (a log line, the save state)
    would then repaint the modal too, and every frame would blend the two.
    Hidden screens catch up when they are shown again.

    Overrides the private ``App._background_screens`` (Textual 8.2: the screens
    to render under the top one, bottom first).
    """

    @property
    def _background_screens(self) -> list[Screen[Any]]:
        stack = self.screen_stack
        if stack and getattr(stack[-1], "covers_screen", False):
            return []
        screens: list[Screen[Any]] = super()._background_screens
        for i in range(len(screens) - 1, -1, -1):
            if getattr(screens[i], "covers_screen", False):
                return screens[i:]
        return screens


def refresh_truecolor_filter(app: App[Any], theme: TerminalTheme) -> None:
    """Point the ANSI-to-truecolour filter at ``theme`` without the theme watcher
    (private ``App._refresh_truecolor_filter``): the app sets its first theme in
    the constructor, before any CSS is parsed, and does the watcher's work by hand."""
    app._refresh_truecolor_filter(theme)


def binding_chain(screen: Screen[Any]) -> list[tuple[DOMNode, BindingsMap]]:
    """The (node, bindings) namespaces a key is looked up in, from the focused
    widget up to the app (private ``Screen._binding_chain``); the key line, help
    and palette list exactly the keys that would run."""
    chain: list[tuple[DOMNode, BindingsMap]] = screen._binding_chain
    return chain


def app_bindings(app: App[Any]) -> BindingsMap:
    """The app's own bindings (private ``App._bindings``): its priority keys still
    run above a modal screen, so they are listed there too."""
    bindings: BindingsMap = app._bindings
    return bindings


def action_state(app: App[Any], action: str, node: DOMNode) -> bool | None:
    """What ``check_action`` says of ``action`` on ``node``: True (enabled),
    None (shown disabled) or False (hidden), with Textual's own lookup of the
    namespace (private ``App._check_action_state``)."""
    state: bool | None = app._check_action_state(action, node)
    return state


def message_pumps(app: App[Any]) -> list[MessagePump]:
    """The app and every node it has registered (private ``App._registry``: every screen and
    widget that can receive messages, the screens under a dialog and a dialog being
    dismissed included): each has a message queue that a key's effects may pass through."""
    return [app, *app._registry]


def pump_at_rest(pump: MessagePump, *, current: bool = False) -> bool:
    """Has ``pump`` handled every message it was given, and is it waiting for the next one?

    Reads the private ``MessagePump._message_queue`` (Textual's own ``_queue.Queue``),
    ``_pending_message``, ``_task``, ``_closing`` and ``_closed`` (Textual 8.2), and the
    waiters of the queue's ``ready_event`` (asyncio's private ``Event._waiters``: the future of
    a ``get()`` waiting on an empty queue): a pump with an empty queue is still busy
    while its loop is inside a handler (awaiting a mount, a pop), and only a pump whose loop is
    waiting in ``get()`` is at rest. ``current``: the pump is the one asking, from inside its own
    handler; it is at rest when nothing more waits in its queue. A closing or closed pump will
    handle nothing more, so it is at rest.
    """
    if pump._closing or pump._closed:
        return True
    queue: Any = pump._message_queue
    if pump._pending_message is not None or not queue.empty():
        return False
    if current or pump._task is None:
        return True
    waiters = queue.ready_event._waiters
    return any(not waiter.done() for waiter in waiters)


def in_a_message_pump(app: App[Any]) -> bool:
    """Is the running task one of the app's message pumps (private ``MessagePump._task``), as in
    a handler, rather than a caller from outside (a test's pilot, a timer)?"""
    import asyncio

    task = asyncio.current_task()
    return task is not None and any(pump._task is task for pump in message_pumps(app))


ESCAPE_KEY = "\x1b[27u"
"""The Escape key in the kitty keyboard protocol's words, which Textual's parser reads as one key."""

_ESCAPE_THEN_KEY = re.compile(r"\x1b(?=[\t\r !-NQ-WYZ`-~\u00a0-\U0010ffff])")
"""Escape followed by a printable key, Tab or Enter: not by what starts a terminal's own sequences
(``[`` CSI, ``O`` SS3, ``]`` OSC, ``P`` DCS, ``X`` SOS, ``^`` PM, ``_`` APC, ``\\`` ST), by
Backspace (Alt+Backspace deletes a word in a field) or by another Escape."""


def escape_keys(data: str) -> str:
    """Escape read together with the key after it, as the two keys a slow typist pressed.

    Over SSH, or from ``tmux send-keys Escape u``, Escape and the next key arrive in one read.
    Textual's parser takes Escape there for the start of a sequence: ``\\x1bu`` becomes alt+u (bound
    to nothing: the dialog stays open and the undo never comes), ``\\x1b?`` and ``\\x1b\\r`` lose the
    Escape, ``\\x1b1`` becomes ``¡``, and a line of 32 keys after Escape turns it into ``^``. Polku binds
    no alt+ key (``tests/test_typeahead.py``), so Escape there is always the Escape key.
    """
    return _ESCAPE_THEN_KEY.sub(ESCAPE_KEY, data)


class EscapeKeysParser(XTermParser):
    """Textual's terminal parser, given each read with :func:`escape_keys` applied."""

    def feed(self, data: str) -> Iterable[Message]:
        return super().feed(escape_keys(data))


def read_escape_as_a_key() -> None:
    """Make the terminal driver parse with :class:`EscapeKeysParser`.

    Replaces the private module name ``textual.drivers.linux_driver.XTermParser`` (Textual 8.2: the
    driver's input thread makes its parser from it), for every app of the process: all are Polku's.
    """
    linux_driver.XTermParser = EscapeKeysParser  # type: ignore[attr-defined]


__all__ = ["ESCAPE_KEY", "EscapeKeysParser", "escape_keys", "read_escape_as_a_key", "CoveringScreens", "in_a_message_pump", "action_state", "app_bindings", "binding_chain", "message_pumps", "pump_at_rest",
           "refresh_truecolor_filter"]
