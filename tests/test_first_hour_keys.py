"""What a new GM meets at the keyboard in the first hour (issue 23): the new-campaign form's
Enter, the key lines at 80 columns, and the chooser's rows and its ``c``."""

from __future__ import annotations

from pathlib import Path

import pytest

from app_fixtures import SYSTEMS, demo_session, isolated, make_app, option_texts, pilot_test, screen_text, settle  # noqa: F401
from polku.session import files
from polku.tui.screens.chooser import ChooserScreen, NewCampaignScreen
from polku.tui.screens.main import MainScreen
from test_typeahead import ESC, burst, slowly, until

pytestmark = pytest.mark.usefixtures("isolated")


def key_line(app) -> str:
    return screen_text(app).splitlines()[-1]


# -- the new-campaign form ----------------------------------------------------------------


@pytest.mark.parametrize("how", [slowly, burst], ids=["slowly", "burst"])
@pilot_test
async def test_enter_enter_enter_creates_the_campaign_without_changing_its_system(tmp_path: Path, how) -> None:
    """Enter in the name goes to the file name, Enter there creates it; the third Enter reaches the new
    session, not the system row (it used to turn Rajapolku into Harhapolku without a word)."""
    app = make_app(sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await slowly(pilot, "n")
        assert isinstance(app.screen, NewCampaignScreen)
        await how(pilot, "Kyiv Files\r\r\r")
        await until(pilot, lambda: isinstance(app.screen, MainScreen), "the new campaign open")
    made, _ = files.load_tracker(tmp_path / "kyiv-files.toml")
    assert made.system.value == "rajapolku"
    assert made.state["campaign"]["name"] == "Kyiv Files"


@pilot_test
async def test_tab_still_reaches_the_settings_and_enter_changes_one_there(tmp_path: Path) -> None:
    app = make_app(sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await slowly(pilot, "n", "Runners\t\t\r")  # name, Tab, Tab to the system row, Enter: Harhapolku
        assert isinstance(app.screen, NewCampaignScreen)
        await slowly(pilot, "\x13")  # ctrl+s
        await until(pilot, lambda: isinstance(app.screen, MainScreen), "the new campaign open")
    made, _ = files.load_tracker(tmp_path / "runners.toml")
    assert made.system.value == "harhapolku"


# -- key lines at 80 columns --------------------------------------------------------------


@pytest.mark.parametrize("system", SYSTEMS)
@pilot_test
async def test_the_main_key_line_shows_undo_and_quit_at_80_columns(tmp_path: Path, system: str) -> None:
    tracker, sf = demo_session(tmp_path, system)
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        line = key_line(app)
        assert " u Undo " in line and " q Quit " in line, line
        assert " r Roll " in line and "? Keys" in line, line


@pytest.mark.parametrize("system", SYSTEMS)
@pilot_test
async def test_roll_screens_show_the_way_out_and_quit_and_q_quits(tmp_path: Path, system: str) -> None:
    tracker, sf = demo_session(tmp_path, system)
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        openers = ["r"] + (["i"] if system == "varjojuoksu" else [])
        for opener in openers:
            await slowly(pilot, opener)
            assert not isinstance(app.screen, MainScreen)
            line = key_line(app)
            assert " esc Close " in line and " q Quit " in line, line
            await slowly(pilot, ESC)
            await until(pilot, lambda: isinstance(app.screen, MainScreen), "the roll screen closed")
        await slowly(pilot, "r")
        await pilot.press("q")
        await until(pilot, lambda: not app.is_running, "q quit from the roll screen")
    assert files.load_tracker(sf.path)[0].events[-1]["text"] == tracker.events[-1]["text"]


# -- the chooser ----------------------------------------------------------------------------


@pilot_test
async def test_the_chooser_says_what_c_does_and_tells_files_of_one_campaign_apart(tmp_path: Path) -> None:
    for name in ("helsinki", "helsinki-copy"):
        _, sf = demo_session(tmp_path, "rajapolku", name)
        sf.close()
    app = make_app(sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ChooserScreen)
        text = screen_text(app)
        assert "c: the next session, in a new file" in text
        assert " c Next session " in key_line(app)
        titles = [t.splitlines()[0] for t in option_texts(app.screen.query_one("#sessions"))[:2]]
        assert len(set(titles)) == 2, titles
        assert any("helsinki-copy.toml" in t for t in titles) and any("helsinki.toml" in t for t in titles)
