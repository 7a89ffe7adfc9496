"""Textual's own commands in the GM's palette (ctrl+p): what serves a GM is there once, and works.

Textual offers "Theme", "Quit", "Keys", "Maximize" and "Screenshot" on its own.
Polku's own keys already bring the theme (ctrl+t), the help (?) and quit (q)
into the palette, so Textual's were listed twice ("Theme") or did something
else ("Keys" opened a panel that Escape did not close). Its screenshot went
to ~/Downloads and failed where that folder does not exist.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.command import CommandPalette

from app_fixtures import demo_session, isolated, make_app, pilot_test, settle  # noqa: F401 (a fixture)
from polku.tui.app import PolkuCommands
from polku.tui.screens.help import HelpScreen
from polku.tui.screens.main import MainScreen
from test_typeahead import until

pytestmark = pytest.mark.usefixtures("isolated")


async def palette_titles(app: Any) -> list[str]:
    """Every command the palette offers on the current screen, Polku's and Textual's."""
    titles = [str(hit.text) async for hit in PolkuCommands(app.screen).discover()]
    return titles + [c.title for c in app.get_system_commands(app.screen)]


@pilot_test
async def test_each_command_is_offered_once(tmp_path: Path) -> None:
    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        titles = await palette_titles(app)
        for word in ("theme", "quit", "keys"):
            found = [t for t in titles if word in t.lower().replace("key:", "")]
            assert len(found) <= 1, f"{word!r} offered more than once: {found}"
        assert [t for t in titles if "theme" in t.lower()], "the theme is offered"
        assert "Keys" not in titles, "Textual's keys panel (Escape did not close it) is not offered"


async def run_from_palette(pilot: Any, query: str) -> None:
    """ctrl+p, type the query, Enter: as a GM picks a command."""
    app = pilot.app
    await pilot.press("ctrl+p")
    await until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette open")
    await pilot.press(*query)
    palette = app.screen
    await until(pilot, lambda: palette.query_one("CommandList").option_count > 0, f"{query!r} found")
    await pilot.press("enter")
    await until(pilot, lambda: not isinstance(app.screen, CommandPalette), "the palette closed")
    await settle(pilot)


@pilot_test
async def test_maximize_from_the_palette_and_escape_restores(tmp_path: Path) -> None:
    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("3")  # the dice log
        await run_from_palette(pilot, "Maximize")
        assert isinstance(app.screen, MainScreen) and app.screen.maximized is app.screen.query_one("#log")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen.maximized is None, "the log restored")


@pilot_test
async def test_the_help_from_the_palette_closes_with_escape(tmp_path: Path) -> None:
    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await run_from_palette(pilot, "Every key of this")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MainScreen), "the help closed")
        assert not app.screen.query("HelpPanel")


@pytest.mark.parametrize("downloads", [True, False], ids=["downloads", "no-downloads"])
@pilot_test
async def test_a_screenshot_is_saved_with_or_without_a_downloads_folder(tmp_path: Path, downloads: bool,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import platformdirs

    home = tmp_path / "home"
    (home / "Downloads").mkdir(parents=True) if downloads else home.mkdir()
    monkeypatch.setattr(platformdirs, "user_downloads_path", lambda: home / "Downloads")
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    folder = home / "Downloads" if downloads else work
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await run_from_palette(pilot, "Screenshot")
        await until(pilot, lambda: list(folder.glob("*.svg")), f"a screenshot in {folder}")
        (svg,) = folder.glob("*.svg")
        assert "Challenges" in svg.read_text(encoding="utf-8"), "the main screen, not the palette"
        assert any(str(svg) in str(n.message) for n in app._notifications), "the GM is told where"
