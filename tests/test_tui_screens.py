"""Pilot tests of the chooser, new-campaign, character and help screens at 80x24, keys only."""

from __future__ import annotations

import asyncio
import functools
from pathlib import Path
from typing import Any, Callable, Coroutine

import pytest
from rich.console import Console
from textual.widgets import OptionList, Static

from app_fixtures import until_quiet
from polku.session import files, records
from polku.session.tracker import Tracker
from polku.tui.app import PolkuApp
from polku.tui.screens.character import (
    CharacterDetail,
    CharacterForm,
    FieldError,
    parse_ability,
    parse_harha_backgrounds,
    parse_skills,
)
from polku.tui.screens.chooser import ChooserScreen, NewCampaignScreen, continuation_name
from polku.tui.screens.help import HelpScreen
from polku.tui.screens.main import MainScreen
from polku.tui.widgets.panes import CharacterPane

SIZE = (80, 24)


def CLOCK() -> str:
    return "2026-01-01T00:00:00Z"


def pilot_test(fn: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async Pilot test with asyncio (no pytest plugin needed)."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(fn(*args, **kwargs))

    return run


@pytest.fixture(autouse=True)
def _no_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep config and sessions away from the developer's home folder."""
    monkeypatch.setenv("POLKU_CONFIG_DIR", str(tmp_path / "config"))


def session(tmp_path: Path, system: str = "rajapolku", name: str = "x") -> tuple[Tracker, files.SessionFile]:
    tracker = Tracker.new(system, f"Test {system}", clock=CLOCK, seed=1)
    return tracker, files.create_session(tmp_path / f"{name}.toml", tracker)


def make_app(tmp_path: Path, tracker: Tracker | None = None, sf: files.SessionFile | None = None) -> PolkuApp:
    return PolkuApp(tracker, sf, sessions_dir=tmp_path, theme_dirs=[], remember=False, clock=CLOCK, seed=1)


def pane_text(app: PolkuApp) -> str:
    pane = app.screen.query_one("#chars", CharacterPane)
    return "\n".join(str(pane.get_option_at_index(i).prompt) for i in range(pane.option_count))


async def settle(app: PolkuApp, pilot) -> None:
    """Let the autosave worker finish so the file on disk is current."""
    await until_quiet(pilot)
    await app.workers.wait_for_complete()
    await until_quiet(pilot)


async def go_to_row(pilot, screen: CharacterDetail, rid: str) -> None:
    rows = screen.query_one("#detail-rows", OptionList)
    target = rows.get_option_index(rid)
    await pilot.press("home", *["down"] * target)
    await until_quiet(pilot)
    highlighted = rows.highlighted_option
    assert highlighted is not None and highlighted.id == rid


# -- the form's one-line formats ------------------------------------------------------------


def test_field_formats() -> None:
    assert parse_ability("Ape strength 1/scene") == {"name": "Ape strength", "cost": 1, "per": "scene"}
    assert parse_ability("Hex 2") == {"name": "Hex", "cost": 2, "per": "use"}
    assert parse_ability("Night sight always") == {"name": "Night sight", "cost": 0, "per": "always"}
    assert parse_harha_backgrounds("Smith, Old blood:significant special") == [
        {"name": "Smith", "tier": "plain"}, {"name": "Old blood", "tier": "significant_special"}]
    assert parse_skills("Pistols 4, Sneaking 3") == {"Pistols": 4, "Sneaking": 3}
    with pytest.raises(FieldError, match="not a tier"):
        parse_harha_backgrounds("Smith:legendary")
    with pytest.raises(FieldError, match="outside 0–12"):
        parse_skills("Pistols 14")


# -- adding a character -------------------------------------------------------------------------


@pilot_test
async def test_add_rajapolku_character_through_the_form(tmp_path: Path) -> None:
    tracker, sf = session(tmp_path)
    app = make_app(tmp_path, tracker, sf)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c")
        await until_quiet(pilot)
        assert isinstance(app.screen, CharacterForm)
        await pilot.press(*"Alyosha", "tab", *"Anna", "tab", "right", "tab")
        await pilot.press(*"Militia,Thief", "tab", "backspace", "4", "enter")
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
        ch = records.raja(tracker.characters["alyosha"])
        assert (ch["name"], ch["player"], ch["kind"]) == ("Alyosha", "Anna", "npc")
        assert ch["backgrounds"] == ["Militia", "Thief"]
        assert (ch["charges"], ch["charges_max"]) == (4, 4)
        assert "Alyosha" in pane_text(app)
    reloaded, _ = files.load_tracker(tmp_path / "x.toml")
    assert records.raja(reloaded.characters["alyosha"])["charges_max"] == 4


@pilot_test
async def test_form_shows_a_one_line_error_and_stays_open(tmp_path: Path) -> None:
    tracker, sf = session(tmp_path)
    app = make_app(tmp_path, tracker, sf)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c", "enter")
        await until_quiet(pilot)
        assert isinstance(app.screen, CharacterForm)
        assert "needs a name" in str(app.screen.query_one("#cf-error", Static).render())
        await pilot.press("escape")
        await until_quiet(pilot)
        assert isinstance(app.screen, MainScreen)
        assert tracker.characters == {}


@pilot_test
async def test_add_harhapolku_character_with_tiers_and_edges(tmp_path: Path) -> None:
    tracker, sf = session(tmp_path, "harhapolku")
    app = make_app(tmp_path, tracker, sf)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c", *"Ilmari", "tab", "tab", "tab")
        await pilot.press(*"V:general,Smith,Old:special", "tab", *"Quick,Lucky", "enter")
        await until_quiet(pilot)
        ch = records.harha(tracker.characters["ilmari"])
        assert ch["backgrounds"] == [{"name": "V", "tier": "general"}, {"name": "Smith", "tier": "plain"},
                                     {"name": "Old", "tier": "special"}]
        assert ch["edges"] == [{"name": "Quick", "used": False}, {"name": "Lucky", "used": False}]


@pilot_test
async def test_add_shadowrun_character_with_attributes_and_skills(tmp_path: Path) -> None:
    tracker, sf = session(tmp_path, "shadowrun")
    app = make_app(tmp_path, tracker, sf)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c", *"Dodger", "tab", "tab", "right", "right", "tab")
        await pilot.press("backspace", "5", "tab", "backspace", "4")  # body 5, agility 4
        await pilot.press(*["tab"] * 7, "backspace", "3", "tab", *"Pistols 4,Stealth 3", "enter")
        await until_quiet(pilot)
        ch = records.sr(tracker.characters["dodger"])
        assert ch["kind"] == "opposition"
        assert (ch["attributes"]["body"], ch["attributes"]["agility"], ch["attributes"]["willpower"]) == (5, 4, 3)
        assert (ch["edge_rating"], ch["edge"]) == (3, 3)
        assert ch["skills"] == {"Pistols": 4, "Stealth": 3}


# -- the character sheet -----------------------------------------------------------------------


@pilot_test
async def test_detail_edits_are_commands_saved_to_disk(tmp_path: Path) -> None:
    tracker, sf = session(tmp_path)
    tracker.add_character("Alyosha", player="Anna")
    sf.save_now(tracker)
    app = make_app(tmp_path, tracker, sf)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("e")
        detail = app.screen
        assert isinstance(detail, CharacterDetail)
        await go_to_row(pilot, detail, "notes")
        await pilot.press("enter", *"Owes Ivan", "enter")
        await go_to_row(pilot, detail, "wound")
        await pilot.press("enter", "3")  # the third level of the track
        await go_to_row(pilot, detail, "charges")
        await pilot.press("minus")
        await go_to_row(pilot, detail, "ability:new")
        await pilot.press("enter", *"Ape 1/scene", "enter")
        await settle(app, pilot)
        ch = records.raja(tracker.characters["alyosha"])
        assert ch["notes"] == "Owes Ivan"
        assert ch["wound"] == "Wounded"
        assert ch["charges"] == 4
        assert ch["abilities"] == [{"name": "Ape", "cost": 1, "per": "scene"}]
        rows = detail.query_one("#detail-rows", OptionList)
        assert "Owes Ivan" in str(rows.get_option("notes").prompt)
        assert "Ape" in str(rows.get_option("ability:0").prompt)
        await pilot.press("u")  # undo on the sheet: the ability goes, the view follows
        await until_quiet(pilot)
        assert records.raja(tracker.characters["alyosha"])["abilities"] == []
        assert "ability:0" not in [rows.get_option_at_index(i).id for i in range(rows.option_count)]
        await pilot.press("U", "escape")
        await until_quiet(pilot)
        assert isinstance(app.screen, MainScreen)
    reloaded, _ = files.load_tracker(tmp_path / "x.toml")
    again = records.raja(reloaded.characters["alyosha"])
    assert (again["notes"], again["wound"], again["charges"]) == ("Owes Ivan", "Wounded", 4)
    assert again["abilities"][0]["per"] == "scene"


@pilot_test
async def test_detail_rejects_a_bad_number_inside_the_prompt(tmp_path: Path) -> None:
    tracker, sf = session(tmp_path, "shadowrun")
    tracker.add_character("Dodger")
    sf.save_now(tracker)
    app = make_app(tmp_path, tracker, sf)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("e")
        assert isinstance(app.screen, CharacterDetail)
        await go_to_row(pilot, app.screen, "physical")
        await pilot.press("enter", "ctrl+u", *"99", "enter")
        await until_quiet(pilot)
        assert "outside 0–10" in str(app.screen.query_one("#prompt-error", Static).render())
        await pilot.press("ctrl+u", "6", "enter")
        await until_quiet(pilot)
        assert records.sr(tracker.characters["dodger"])["physical"] == 6


@pilot_test
async def test_detail_x_removes_after_confirming(tmp_path: Path) -> None:
    tracker, sf = session(tmp_path)
    tracker.add_character("Igor", kind="npc")
    sf.save_now(tracker)
    app = make_app(tmp_path, tracker, sf)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("e", "x", "y")
        await until_quiet(pilot)
        assert "igor" not in tracker.characters
        assert isinstance(app.screen, MainScreen)
        assert "Igor" not in pane_text(app)


# -- the chooser and new campaigns ------------------------------------------------------------------


@pilot_test
async def test_chooser_lists_a_file_and_enter_opens_it(tmp_path: Path) -> None:
    _, sf = session(tmp_path, "harhapolku", "night")
    sf.close()
    (tmp_path / "broken.toml").write_text("state = [\n", encoding="utf-8")
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, ChooserScreen)
        rows = app.screen.query_one("#sessions", OptionList)
        listed = "\n".join(str(rows.get_option_at_index(i).prompt) for i in range(rows.option_count))
        assert "Test harhapolku" in listed and "night.toml" in listed
        assert "broken.toml" in listed and "cannot be opened" in listed
        names = [p.name for p, _ in app.screen.entries]
        await pilot.press("home", *["down"] * names.index("broken.toml"), "enter")
        await until_quiet(pilot)
        assert isinstance(app.screen, ChooserScreen)  # a broken file does not open
        await pilot.press("home", *["down"] * names.index("night.toml"), "enter")
        await until_quiet(pilot)
        assert isinstance(app.screen, MainScreen)
        assert app.tracker is not None and app.tracker.state["campaign"]["name"] == "Test harhapolku"
        assert app.session_file is not None and app.session_file.path == tmp_path / "night.toml"


def test_the_chooser_lists_what_a_whole_read_finds_after_more_events_than_a_snapshot(tmp_path: Path) -> None:
    """peek reads a file as the app opens it (the head and the events since the snapshot): the campaign, its
    story/session/scene, events and characters as the whole file says, also past a compaction."""
    from polku.session.files import load_tracker, peek

    tracker, sf = session(tmp_path, "rajapolku", "long")
    for i in range(620):  # past one compaction (every 500 appends), so the snapshot is not the file's start
        tracker.note(f"note {i}")
        if i % 200 == 0:
            tracker.new_scene(f"scene {i}")
        sf.save_now(tracker)
    sf.close()
    whole, _ = load_tracker(tmp_path / "long.toml", read_only=True)
    seen = peek(tmp_path / "long.toml")
    assert seen.error is None
    assert (seen.name, seen.system, list(seen.where), seen.events, seen.characters) == (
        whole.state["campaign"]["name"], "rajapolku", whole.where, len(whole.events), len(whole.state["characters"]))
    assert seen.where[2] == 1 + 4 and seen.events > 620
    (tmp_path / "bad.toml").write_text("schema = 99\n", encoding="utf-8")
    assert peek(tmp_path / "bad.toml").error is not None


@pilot_test
async def test_the_chooser_reads_a_file_again_only_when_it_changed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each resize and each return to the chooser listed every file by reading it whole: seconds per long
    campaign. A file is read again only when it changed; the list is redrawn at the new width."""
    from polku.session import files

    _, sf = session(tmp_path, "harhapolku", "night")
    sf.close()
    reads: list[str] = []
    real = files.peek

    def counted(path: Path) -> files.Peek:
        reads.append(path.name)
        return real(path)

    monkeypatch.setattr(files, "peek", counted)
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        chooser = app.screen
        assert isinstance(chooser, ChooserScreen) and reads == ["night.toml"]
        await pilot.resize_terminal(100, 30)
        await until_quiet(pilot)
        chooser.reload()  # as when the chooser is shown again
        assert reads == ["night.toml"]
        assert "Test harhapolku" in str(chooser.query_one("#sessions", OptionList).get_option_at_index(0).prompt)
        tracker, sf = files.open_session(tmp_path / "night.toml")
        tracker.note("one more")
        sf.save_now(tracker)
        sf.close()
        chooser.reload()
        assert reads == ["night.toml", "night.toml"]
        assert chooser.entries[0][1].events == len(tracker.events)


@pilot_test
async def test_chooser_lists_recent_files_from_anywhere_and_the_local_sessions_folder(tmp_path: Path) -> None:
    from polku import config

    data, local, away = tmp_path / "data", tmp_path / "here" / "sessions", tmp_path / "away"
    for folder, name, system in ((data, "kept", "rajapolku"), (local, "beside", "harhapolku"),
                                 (away, "played", "shadowrun")):
        folder.mkdir(parents=True)
        _, sf = session(folder, system, name)
        sf.close()
    assert config.remember_recent(str(away / "played.toml")) is None
    app = PolkuApp(None, None, sessions_dir=data, theme_dirs=[], remember=True, clock=CLOCK, seed=1,
                   more_sessions_dirs=[local])
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, ChooserScreen)
        names = [p.name for p, _ in app.screen.entries]
        assert names == ["played.toml", "kept.toml", "beside.toml"]  # the recent file first
        where = str(app.screen.query_one("#chooser-where", Static).content)
        assert where.startswith("Recent files") and str(data) in where and str(local) in where
        await pilot.press("enter")
        await until_quiet(pilot)
        assert app.session_file is not None and app.session_file.path == away / "played.toml"


@pilot_test
async def test_new_campaign_file_name_transliterates_the_campaign_name(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n", *"Tampereen yö", "ctrl+s")
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
    reloaded, _ = files.load_tracker(tmp_path / "tampereen-yo.toml")
    assert reloaded.state["campaign"]["name"] == "Tampereen yö"


@pilot_test
async def test_chooser_offers_read_only_when_locked(tmp_path: Path) -> None:
    _, sf = session(tmp_path)  # the lock stays held: another Polku has it open
    app = make_app(tmp_path)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("enter")
            await until_quiet(pilot)
            assert not isinstance(app.screen, MainScreen)
            await pilot.press("y")
            await until_quiet(pilot)
            assert isinstance(app.screen, MainScreen)
            assert app.tracker is not None and app.tracker.read_only
    finally:
        sf.close()


@pilot_test
async def test_new_campaign_creates_a_file_with_the_chosen_settings(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await until_quiet(pilot)
        assert isinstance(app.screen, NewCampaignScreen)
        await pilot.press(*"Kyiv Files", "tab", "tab")  # the file name follows: kyiv-files.toml
        await pilot.press("down", "enter")  # raja.exhausted: yes → no
        await pilot.press("down", "down", "down", "down", "enter", "ctrl+u", "4", "enter")  # story points 4
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
    reloaded, _ = files.load_tracker(tmp_path / "kyiv-files.toml")
    assert reloaded.state["campaign"]["name"] == "Kyiv Files"
    assert reloaded.system.value == "rajapolku"
    assert reloaded.state["settings"]["raja.exhausted"] is False
    assert reloaded.state["settings"]["raja.story_points"] == 4


@pilot_test
async def test_settings_screen_sets_a_number_by_a_typed_value_as_one_undoable_command(tmp_path: Path) -> None:
    """A number setting (R12's story points): a value the rules refuse is refused inside the prompt,
    a good one is one logged command that the settings screen shows and u undoes."""
    from polku.tui.screens.prompts import TextPrompt
    from polku.tui.screens.settings import SettingsScreen

    tracker, sf = session(tmp_path)
    try:
        app = make_app(tmp_path, tracker, sf)
        async with app.run_test(size=SIZE) as pilot:
            await until_quiet(pilot)
            app.push_screen(SettingsScreen(tracker, "raja.story_points"))
            await until_quiet(pilot)
            before = len(tracker.events)
            await pilot.press("enter", "ctrl+u", "x", "enter")
            await until_quiet(pilot)
            assert isinstance(app.screen, TextPrompt), "a bad value closed the prompt"
            assert len(tracker.events) == before
            await pilot.press("ctrl+u", "5", "enter")
            await settle(app, pilot)
            assert isinstance(app.screen, SettingsScreen)
            assert tracker.settings.raja_story_points == 5
            assert [e["kind"] for e in tracker.events[before:]] == ["setting"]
            rows = app.screen.query_one("#settings-rows", OptionList)
            assert "raja.story_points" in str(rows.get_option("raja.story_points").prompt)
            assert " 5" in str(rows.get_option("raja.story_points").prompt)
            await pilot.press("u")
            await settle(app, pilot)
            assert tracker.settings.raja_story_points == 3
            assert " 3" in str(app.screen.query_one("#settings-rows", OptionList).get_option("raja.story_points").prompt)
    finally:
        sf.close()


@pilot_test
async def test_new_campaign_system_row_switches_the_settings(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n", *"Runners", "tab", "ctrl+u", *"run1", "tab", "enter", "enter")  # → Shadowrun
        await until_quiet(pilot)
        rows = app.screen.query_one("#nc-settings", OptionList)
        ids = [rows.get_option_at_index(i).id for i in range(rows.option_count)]
        assert ids == ["system", "set:sr.glitch_rerolls", "set:sr.teamwork_cap", "set:sr.stun_conversion",
                       "set:sr.stun_overflow", "set:sr.initiative", "set:seats.own_rolls", "create"]
        await pilot.press("down", "space", "ctrl+s")
        await settle(app, pilot)
    reloaded, _ = files.load_tracker(tmp_path / "run1.toml")
    assert reloaded.system.value == "shadowrun"
    assert reloaded.state["settings"]["sr.glitch_rerolls"] is False


@pilot_test
async def test_continue_campaign_makes_the_next_session_file(tmp_path: Path) -> None:
    tracker, sf = session(tmp_path)
    tracker.add_character("Alyosha")
    sf.save_now(tracker)
    sf.close()
    assert continuation_name(tmp_path / "x.toml", 1, tmp_path) == "x-s2.toml"
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c", "enter")
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
    nxt, _ = files.load_tracker(tmp_path / "x-s2.toml")
    assert nxt.state["structure"]["session"] == 2
    assert "alyosha" in nxt.characters
    assert nxt.state["campaign"]["continues"] == "x.toml"


@pilot_test
async def test_demo_is_played_as_a_copy(tmp_path: Path) -> None:
    tracker, sf = session(tmp_path, name="demo-rajapolku")
    sf.close()
    shipped = (tmp_path / "demo-rajapolku.toml").read_bytes()
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d", "enter")
        await until_quiet(pilot)
        assert isinstance(app.screen, MainScreen)
        assert app.session_file is not None and app.session_file.path.name == "demo-rajapolku-play.toml"
        await pilot.press("c", *"Visitor", "enter")
        await settle(app, pilot)
    assert (tmp_path / "demo-rajapolku.toml").read_bytes() == shipped
    played, _ = files.load_tracker(tmp_path / "demo-rajapolku-play.toml")
    assert "visitor" in played.characters


# -- help -------------------------------------------------------------------------------------------


@pilot_test
async def test_help_lists_the_keys_of_the_screen_below(tmp_path: Path) -> None:
    tracker, sf = session(tmp_path)
    app = make_app(tmp_path, tracker, sf)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        await until_quiet(pilot)
        assert isinstance(app.screen, HelpScreen)
        console = Console(width=76, record=True, color_system=None)
        console.print(app.screen.help_renderable())
        text = console.export_text()
        assert any(line.split()[:2] == ["r", "Roll"] for line in text.splitlines() if line.strip())
        assert "u / ^z" in text  # one row per action, every key of it
        assert "How a session runs" in text
        await pilot.press("escape")
        await until_quiet(pilot)
        assert isinstance(app.screen, MainScreen)
