"""The private Textual APIs Polku relies on (polku/tui/compat.py) still behave as
Polku expects on the pinned Textual. When a Textual upgrade breaks one of these,
the key line, help, palette, theme colours or the roll screen's repaint break
with it; this file says which."""

from __future__ import annotations

from typing import Any

from rich.terminal_theme import MONOKAI
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.filter import ANSIToTruecolor
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Static

from app_fixtures import pilot_test
from polku.tui.compat import (
    CoveringScreens,
    EscapeKeysParser,
    action_state,
    app_bindings,
    binding_chain,
    message_pumps,
    pump_at_rest,
    refresh_truecolor_filter,
)


class Cover(ModalScreen[None]):
    covers_screen = True

    def compose(self) -> ComposeResult:
        yield Static("cover")


class Glass(ModalScreen[None]):
    """A modal that lets the screen under it show."""

    def compose(self) -> ComposeResult:
        yield Static("glass")


class Keys(Screen[None]):
    BINDINGS = [
        Binding("f5", "shown", "Shown", id="t.shown"),
        Binding("f6", "greyed", "Greyed", id="t.greyed"),
        Binding("f7", "hidden", "Hidden", id="t.hidden"),
    ]

    def compose(self) -> ComposeResult:
        yield Input(id="field")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return {"greyed": None, "hidden": False}.get(action, True)


class Probe(CoveringScreens):
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", id="t.quit", priority=True)]

    def compose(self) -> ComposeResult:
        yield Static("main")


@pilot_test
async def test_a_covering_screen_hides_the_screens_under_it():
    app = Probe()
    async with app.run_test() as pilot:
        await app.push_screen(Glass())
        await pilot.pause()
        assert app._background_screens == [app.screen_stack[0]]  # a plain modal lets the main screen show
        await app.push_screen(Cover())
        await pilot.pause()
        assert app._background_screens == []
        await app.push_screen(Glass())
        await pilot.pause()
        # the cover is the last screen under the glass that shows; nothing below it is painted
        assert app._background_screens == [app.screen_stack[2]]


@pilot_test
async def test_the_truecolor_filter_follows_the_theme():
    app = Probe()
    async with app.run_test():
        refresh_truecolor_filter(app, MONOKAI)
        filters = [f for f in app._filters if isinstance(f, ANSIToTruecolor)]
        assert len(filters) == 1
        assert filters[0]._terminal_theme is MONOKAI


@pilot_test
async def test_the_binding_chain_runs_from_the_focused_widget_to_the_app():
    app: App[Any] = Probe()
    async with app.run_test() as pilot:
        await app.push_screen(Keys())
        await pilot.pause()
        app.screen.query_one("#field", Input).focus()
        await pilot.pause()
        nodes = [node for node, _ in binding_chain(app.screen)]
        assert nodes[0] is app.screen.query_one("#field")
        assert app.screen in nodes and nodes[-1] is app
        screen_bindings = dict(binding_chain(app.screen))[app.screen]
        assert {b.action for _, b in screen_bindings} >= {"shown", "greyed", "hidden"}
        assert "ctrl+q" in {key for key, _ in app_bindings(app)}


@pilot_test
async def test_action_state_reads_check_action():
    app = Probe()
    async with app.run_test() as pilot:
        await app.push_screen(Keys())
        await pilot.pause()
        screen = app.screen
        assert action_state(app, "shown", screen) is True
        assert action_state(app, "greyed", screen) is None
        assert action_state(app, "hidden", screen) is False


@pilot_test
async def test_a_pump_is_at_rest_only_when_it_waits_for_its_next_message():
    """What the type-ahead (polku/tui/typeahead.py) waits for: every queue empty and every
    pump waiting for a message, not inside a handler."""
    import asyncio

    app = Probe()
    async with app.run_test() as pilot:
        await app.push_screen(Keys())
        await pilot.pause()
        field = app.screen.query_one("#field", Input)
        pumps = message_pumps(app)
        assert app in pumps and app.screen in pumps and field in pumps
        for _ in range(100):
            if all(pump_at_rest(p) for p in pumps):
                break
            await asyncio.sleep(0.01)
        assert all(pump_at_rest(p) for p in pumps)
        inside = asyncio.Event()
        leave = asyncio.Event()

        async def handler() -> None:
            inside.set()
            await leave.wait()

        field.call_later(handler)
        assert not pump_at_rest(field), "a message waiting in its queue"
        await inside.wait()
        assert not pump_at_rest(field), "inside a handler, its queue empty"
        assert pump_at_rest(field, current=True), "asked from inside its own handler"
        leave.set()
        for _ in range(100):
            if pump_at_rest(field):
                break
            await asyncio.sleep(0.01)
        assert pump_at_rest(field)


def _keys(parser: Any, data: str) -> list[str]:
    return [m.key for m in [*parser.feed(data), *parser.feed("")] if hasattr(m, "key")]


def test_escape_read_with_the_next_key_is_two_keys_and_the_driver_parses_so() -> None:
    """Textual's parser takes Escape and a key read together for Alt with the key (``alt+u``), drops the
    Escape before ``?`` and Enter, and makes ``^`` of it before a long line; Polku's parser gives both keys,
    and leaves the terminal's own sequences (an arrow, F1, a mouse click) and Alt+Backspace alone."""
    from textual._xterm_parser import XTermParser
    from textual.drivers import linux_driver

    from polku.tui.compat import read_escape_as_a_key

    assert _keys(XTermParser(), "\x1bu") == ["alt+u"]
    assert _keys(XTermParser(), "\x1b?") == ["question_mark"]
    assert _keys(XTermParser(), "\x1bo" + "a" * 40)[:2] == ["circumflex_accent", "o"]
    assert _keys(EscapeKeysParser(), "\x1bu") == ["escape", "u"]
    assert _keys(EscapeKeysParser(), "\x1b?\x1b\r\x1b1") == ["escape", "question_mark", "escape", "enter", "escape", "1"]
    assert _keys(EscapeKeysParser(), "\x1bo" + "a" * 40)[:3] == ["escape", "o", "a"]
    assert _keys(EscapeKeysParser(), "\x1b[A\x1bOP\x1b\x7f\x1b\x1b") == ["up", "f1", "ctrl+w", "escape", "escape"]
    read_escape_as_a_key()
    assert linux_driver.XTermParser is EscapeKeysParser  # type: ignore[attr-defined]
