"""Helpers for the whole-app tests (test_app_snapshots.py, test_app_flows.py).

Every app built here is reproducible: the demo campaigns come from their
builders (fixed clock and seed), the app gets a fixed clock and seed, the
theme is pinned and read from the repository's ``themes/`` folder, and nothing
is remembered between runs.
"""

from __future__ import annotations

import asyncio
import functools
import io
from pathlib import Path
from typing import Any, Awaitable, Callable, Coroutine

import pytest
from rich.console import Console
from textual.app import App
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Input, OptionList

from polku.session import demo, files
from polku.session.tracker import Tracker
from polku.tui.app import PolkuApp

REPO = Path(__file__).resolve().parents[1]
THEMES = REPO / "themes"
"""The shipped theme files."""

SIZES = [(80, 24), (120, 40)]
"""Every snapshot is taken at the smallest supported terminal and a roomy one."""

SIZE_IDS = [f"{w}x{h}" for w, h in SIZES]

SYSTEMS = ("rajapolku", "harhapolku", "varjojuoksu")
"""Demo names (``polku.session.demo.DEMOS`` keys), one per dice system."""

APP_CLOCK_START = "2026-11-29T18:00:00Z"


class Setup:
    """A test's setup of several tracker calls, run by ``app.run_command`` as a command is (one
    TrackerChanged, autosaved). The app's own code only runs named commands (``session.commands``);
    this stands in for one with the name "test setup"."""

    name = "test setup"

    def __init__(self, fn: Callable[[Tracker], Any]) -> None:
        self.fn = fn
        self.gm_only = False

    def run(self, tracker: Tracker) -> Any:
        return self.fn(tracker)


def demo_session(folder: Path, system: str, name: str | None = None) -> tuple[Tracker, files.SessionFile]:
    """A demo campaign written to ``folder/<name>.toml`` with create_session (the file stays locked)."""
    tracker = demo.DEMOS[system]()
    return tracker, files.create_session(Path(folder) / f"{name or system}.toml", tracker)


def make_app(tracker: Tracker | None = None, sf: files.SessionFile | None = None, *,
             sessions_dir: Path, theme: str = "polku-dark", seed: int = 5) -> PolkuApp:
    """The app as the CLI builds it, but pinned: theme, theme folder, clock, seed, no remembering."""
    return PolkuApp(tracker, sf, sessions_dir=sessions_dir, theme_dirs=[THEMES], remember=False,
                    clock=demo.fixed_clock(APP_CLOCK_START), seed=seed, theme=theme)


def tracker_of(app: PolkuApp) -> Tracker:
    """The app's tracker, with a session open (``PolkuApp.tracker`` is None before one is)."""
    assert app.tracker is not None, "the app has no session open"
    return app.tracker


def pilot_test(fn: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async Pilot test with asyncio (no pytest plugin needed)."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(fn(*args, **kwargs))

    return run


@pytest.fixture
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Config in tmp_path; colour unless a test asks for NO_COLOR (a module uses it with
    ``pytestmark = pytest.mark.usefixtures("isolated")`` after importing it)."""
    monkeypatch.setenv("POLKU_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.delenv("NO_COLOR", raising=False)


@pytest.fixture
def isolated_here(isolated: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``isolated``, and tmp_path the working folder: the pictures show the same relative
    session paths on every machine (``pytestmark = pytest.mark.usefixtures("isolated_here")``)."""
    monkeypatch.chdir(tmp_path)


QUIET_TIMEOUT = 60.0
"""Seconds an app may take to handle what a key caused before a test says it hung (a loaded machine)."""


async def until_quiet(pilot: Pilot, timeout: float = QUIET_TIMEOUT) -> None:
    """Until the app has handled every message a key caused, however slow the machine.

    ``pilot.pause()`` waits for the messages queued when it is called and then
    for the process to look idle, judged by wall-clock against CPU time: on a
    loaded machine a descheduled process looks idle, and a screen that a key
    pushes (whose mounting is queued later) is not waited for. This waits for
    the queues of the screen on top, again and again, until two rounds in a row
    find the same screen stack and the same focus, then lets the screen apply
    its pending layout and paint (what a picture shows).
    """
    app = pilot.app
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    stable = 0
    while stable < 2:
        before = (tuple(app.screen_stack), app.focused)
        await pilot._wait_for_screen(timeout)
        await app.animator.wait_until_complete()
        await asyncio.sleep(0)
        stable = stable + 1 if (tuple(app.screen_stack), app.focused) == before else 0
        assert loop.time() < deadline, f"the app was still busy after {timeout:.0f} s (screen {app.screen!r})"
    await pilot.pause()


async def press(pilot: Pilot, *keys: str) -> None:
    """Press keys one at a time, letting each modal open or close before the next key."""
    for key in keys:
        await pilot.press(key)
        await until_quiet(pilot)


_KEY_NAMES = {" ": "space", ",": "comma", "-": "minus", "+": "plus", "'": "apostrophe", "/": "slash"}


def typed(text: str) -> list[str]:
    """The keys that type ``text`` into a field."""
    return [_KEY_NAMES.get(c, c) for c in text]


async def settle(pilot: Pilot) -> None:
    """Let the autosave (and any other) workers finish, so the screen and the file are current."""
    await until_quiet(pilot)
    await pilot.app.workers.wait_for_complete()
    await until_quiet(pilot)
    await pilot.wait_for_scheduled_animations()


async def until(pilot: Pilot, predicate: Callable[[], object], what: str, timeout: float = QUIET_TIMEOUT) -> None:
    """Until ``predicate()`` holds (the state a test checks or pictures); a generous timeout names what hung."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        assert loop.time() < deadline, f"timed out after {timeout:.0f} s waiting for {what}"
        await pilot.pause(0.02)


def freeze_cursors(app: App[Any]) -> None:
    """Turn off the blinking of every Input on the screen stack (a blink would make snapshots flaky)."""
    for screen in app.screen_stack:
        for inp in screen.query(Input):
            inp.cursor_blink = False


def snapshot_keys(*presses: str, before: Callable[[PolkuApp], object] | None = None,
                  then: Callable[[Pilot], Awaitable[None] | None] | None = None) -> Callable[[Pilot], Awaitable[None]]:
    """A snapshot's ``run_before``: settle, run ``before(app)`` (set the scene), press each key one at a
    time letting each dialog open, run ``then(pilot)``, freeze the cursors and settle."""

    async def run_before(pilot: Pilot) -> None:
        app = pilot.app
        assert isinstance(app, PolkuApp)
        await settle(pilot)
        if before is not None:
            before(app)
            await settle(pilot)
        for key in presses:
            await pilot.press(key)
            await until_quiet(pilot)
        if then is not None:
            result = then(pilot)
            if result is not None:
                await result
        freeze_cursors(app)
        await settle(pilot)

    return run_before


def screen_text(app: App[Any]) -> str:
    """The current screen as plain text, exactly as the terminal would show it."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True, color_system=None,
                      legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


def option_texts(option_list: Widget) -> list[str]:
    """The plain text of every option of a list (what the pane shows, unclipped)."""
    assert isinstance(option_list, OptionList), f"{option_list!r} is no option list"
    out = []
    for i in range(option_list.option_count):
        prompt = option_list.get_option_at_index(i).prompt
        out.append(getattr(prompt, "plain", str(prompt)))
    return out


def log_lines(app: PolkuApp) -> list[str]:
    """The dice log lines visible on the main screen, as drawn (clipped to the pane)."""
    from polku.tui.widgets.dice_log import DiceLog

    log = app.main_screen().query_one(DiceLog)
    return [log.render_line(y).text.rstrip() for y in range(log.scrollable_content_region.height)]


def panes(app: PolkuApp) -> dict[str, Any]:
    """What the main screen shows: status line, challenge queue, characters, visible log lines."""
    from polku.tui.screens.main import StatusLine
    from polku.tui.widgets.panes import ChallengeQueue, CharacterPane

    screen = app.main_screen()
    return {
        "status": str(screen.query_one(StatusLine).content),
        "queue": option_texts(screen.query_one("#queue", ChallengeQueue)),
        "chars": option_texts(screen.query_one("#chars", CharacterPane)),
        "log": log_lines(app),
    }
