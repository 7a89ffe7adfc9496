"""What the GM reads and gets without looking for it: log sentences, counts, refusals, defaults."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app_fixtures import demo_session, make_app, pilot_test, settle
from polku.session import demo, records
from polku.session.commands import command
from polku.session.tracker import TrackerError
from polku.text import plural
from polku.tui.render import change_sentences, event_details, plain_styles
from polku.tui.screens.main import MainScreen
from polku.tui.screens.prompts import TextPrompt
from polku.tui.screens.roll import RollScreen
from polku.tui.widgets.panes import CharacterPane


@pytest.fixture(autouse=True)
def _no_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POLKU_CONFIG_DIR", str(tmp_path / "config"))


def _names(t: Any) -> tuple[dict[str, str], dict[str, str]]:
    return ({cid: ch["name"] for cid, ch in t.characters.items()},
            {c["id"]: c["title"] for c in t.state["challenges"]})


def _notes(app: Any) -> list[tuple[str, str]]:
    return [(n.title or "", n.message) for n in app._notifications]


# -- the log's expanded entries read as sentences -------------------------------------------------


def test_expanded_changes_read_as_sentences_never_paths_or_dicts() -> None:
    for system in demo.DEMOS:
        t = demo.DEMOS[system]()
        names, titles = _names(t)
        for ev in t.events:
            for line in change_sentences(ev, names=names, titles=titles):
                assert "{" not in line and "'" not in line.replace("'s ", " "), line
                assert not any(p in line for p in ("characters.", "challenges.", "structure.", "_")), line
                assert "\x1f" not in line, line
    t = demo.DEMOS["rajapolku"]()
    names, titles = _names(t)
    said = [s for ev in t.events for s in change_sentences(ev, names=names, titles=titles)]
    assert "Igor Bondarenko's charges 5 → 4" in said
    assert "Alyosha's story points 3 → 2" in said
    assert "“Catch the pickpocket” outcome — → Alyosha wins, 1 degree" in said
    sr = demo.DEMOS["varjojuoksu"]()
    names, titles = _names(sr)
    said = [s for ev in sr.events for s in change_sentences(ev, names=names, titles=titles)]
    assert "Initiative order — → Nyx 11, Kaneda 10, Ganger 7" in said


def test_spirit_combat_dice_are_named_in_the_expanded_roll() -> None:
    t = demo.DEMOS["rajapolku"]()
    t.rolls.roll_spirit("alyosha", "ghost-of-the-nurse", challenge="c3", faces=([9, 1, 8, 9], [5, 2, 5, 10, 3]))
    names, titles = _names(t)
    lines = [x.plain for x in event_details(t.events[-1], plain_styles(), names=names, titles=titles)]
    dice = [x for x in lines if " on d10 " in x]
    assert len(dice) == 9
    assert all("spirit die (a charge left, R11)" in x and "charge charge" not in x for x in dice)
    assert "       “Spirit combat with the Nurse” spirit fight side B — → Ghost of the Nurse" in lines
    assert "ghost-of-the-nurse" not in " ".join(lines)


def test_counts_agree_with_their_noun() -> None:
    assert [plural(n, "event") for n in (0, 1, 2)] == ["0 events", "1 event", "2 events"]
    assert [plural(n, "die") for n in (1, 3)] == ["1 die", "3 dice"]
    assert plural(1, "entry") == "1 entry" and plural(4, "entry") == "4 entries"


# -- refusals before asking, and presses that change nothing ----------------------------------------


def test_a_key_that_changes_nothing_is_refused_and_logs_nothing() -> None:
    t = demo.DEMOS["rajapolku"]()
    t.set_health("alyosha", "bruised ribs")
    n = len(t.events)
    with pytest.raises(TrackerError, match="already bruised ribs; nothing changed"):
        t.set_health("alyosha", "bruised ribs")
    with pytest.raises(TrackerError, match="already Healthy"):
        t.set_wound("alyosha", "Healthy")
    assert len(t.events) == n
    sr = demo.DEMOS["varjojuoksu"]()
    n = len(sr.events)
    with pytest.raises(TrackerError, match="physical boxes is already 4"):
        sr.set_condition("kaneda", "physical", 4)
    assert len(sr.events) == n


@pilot_test
async def test_story_point_prompt_refuses_before_asking_when_none_are_left(tmp_path: Path) -> None:
    tracker, sf = demo_session(tmp_path, "rajapolku")
    records.raja(tracker.state["characters"]["alyosha"])["story_points"] = 0
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        n = len(tracker.events)
        await pilot.press("p")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)  # no prompt to type a wasted answer into
        assert ("Not now", "Alyosha has no story points left; a new story (T) brings new ones") in _notes(app)
        assert len(tracker.events) == n
        await pilot.press("down", "p")  # Igor still has his
        await settle(pilot)
        assert isinstance(app.screen, TextPrompt)


@pilot_test
async def test_edge_prompt_refuses_before_asking_when_none_is_left(tmp_path: Path) -> None:
    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    records.sr(tracker.state["characters"]["kaneda"])["edge"] = 0
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("E")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert any("Kaneda has no Edge left this session" in m for _t, m in _notes(app))


# -- undo names the whole command ----------------------------------------------------------------


@pilot_test
async def test_undo_toast_names_every_line_of_the_command(tmp_path: Path) -> None:
    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.run_command(command("rolls.roll_spirit", "alyosha", "ghost-of-the-nurse", challenge="c3"))
        fight = [ev["text"] for ev in tracker.events[-2:]]
        await pilot.press("u")
        await settle(pilot)
        undone = [m for t, m in _notes(app) if t == "Undone"]
        assert undone and all(line in undone[-1] for line in fight), (fight, undone)


# -- selection defaults ---------------------------------------------------------------------------


@pilot_test
async def test_the_selected_character_is_side_a_and_a_new_character_is_selected(tmp_path: Path) -> None:
    tracker, sf = demo_session(tmp_path, "rajapolku")
    last = tracker.state["challenges"][-1]
    assert last["title"] == "Find the poison ledger" and last["participants"] == ["alyosha", "igor-bondarenko"]
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("1", "end", "2")  # the ledger challenge is the one to roll
        await pilot.press("down")  # Igor Bondarenko, one of its two
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, RollScreen) and app.screen.a.who == "igor-bondarenko"
        await pilot.press("escape")
        await pilot.press("c", *"Vera", "enter")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert app.screen.query_one("#chars", CharacterPane).selected_character_id() == "vera"
        await pilot.press("r")
        await settle(pilot)
        # Vera does not take part in the ledger challenge: it keeps its own first participant...
        assert app.screen.a.who == "alyosha"
        await pilot.press("escape")
        app.run_command(command("add_challenge", "Vera's free climb"))
        await pilot.press("1", "end", "2", "r")  # ... while a challenge naming nobody takes her
        await settle(pilot)
        assert app.screen.a.who == "vera"


# -- physical dice in the narration contest ------------------------------------------------------


@pilot_test
async def test_narration_background_and_harm_dice_can_be_typed_from_physical_dice(tmp_path: Path) -> None:
    from textual.widgets import Input, Static

    from polku.tui.screens.narration import NarrationScreen
    from polku.tui.screens.prompts import FacesPrompt

    tracker, sf = demo_session(tmp_path, "harhapolku")
    tracker.rolls.narration_roll_background("Tuomas", "Sailor", 8, faces=[8])
    hand = list(tracker.rolls.narration().hand("Tuomas"))
    tracker.rolls.narration_usurp("Tuomas", hand)  # 4 dice: the GM's harm roll is due (H9)
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h", "f")
        await settle(pilot)
        assert isinstance(app.screen, NarrationScreen) and app.screen.physical
        await pilot.press("b", "1", "1")  # Lena, Island girl (d8)
        await settle(pilot)
        assert isinstance(app.screen, FacesPrompt)
        await pilot.press("9", "enter")
        await settle(pilot)
        assert isinstance(app.screen, FacesPrompt)  # stays open, says why, keeps what was typed
        assert "face 9 cannot show on a d8" in str(app.screen.query_one("#prompt-error", Static).content)
        assert app.screen.query_one(Input).value == "9"
        await pilot.press("backspace", "5", "enter")
        await settle(pilot)
        ev = tracker.events[-1]
        assert ev["roll"]["manual"] and [d["face"] for d in ev["roll"]["sides"][0]["dice"]] == [5]
        assert "Island girl" in ev["text"]
        await pilot.press("g")
        await settle(pilot)
        assert isinstance(app.screen, FacesPrompt) and app.screen.count == 4
        await pilot.press(*"1 2 3", "enter")
        await settle(pilot)
        assert "4 dice were rolled; you entered 3 faces" in str(app.screen.query_one("#prompt-error", Static).content)
        await pilot.press(*",6", "enter")
        await settle(pilot)
        harm = tracker.events[-1]
        assert isinstance(app.screen, NarrationScreen)
        assert harm["roll"]["manual"] and sorted(d["face"] for d in harm["roll"]["sides"][-1]["dice"]) == [1, 2, 3, 6]
