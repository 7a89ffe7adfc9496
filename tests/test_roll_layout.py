"""What the GM sees stay put and readable: percentages that never round to a false certainty,
long names cut with an ellipsis, the roll screen's rows where they were, and keys that change
nothing logging nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from textual.widgets import Static

from app_fixtures import demo_session, make_app, option_texts, pilot_test, press, screen_text, settle
from polku.session import demo
from polku.session.tracker import TrackerError
from polku.text import percent
from polku.tui.render import short_name
from polku.tui.screens.roll import SideList, SRRollScreen
from polku.tui.widgets.panes import CharacterPane

LONG = "Bartholomew " + "Quintessential-" * 9 + "Vanderhuysen the Unconquerable"


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POLKU_CONFIG_DIR", str(tmp_path / "config"))


# -- percentages ---------------------------------------------------------------------------------------


def test_percent_says_near_certain_and_near_impossible_chances_as_bounds() -> None:
    assert percent(0.99996) == "> 99.9%"
    assert percent(0.9994) == "99.9%"
    assert percent(1.0) == "100%"
    assert percent(0.0) == "0%"
    assert percent(0.0004) == "< 0.1%"
    assert percent(0.4234) == "42.3%"
    assert percent(0.99996, 0) == "> 99%"
    assert percent(0.9999996, 3) == "> 99.999%"
    assert percent(0.0000004, 3) == "< 0.001%"


@given(st.floats(min_value=0.0, max_value=1.0), st.integers(0, 3))
def test_percent_shows_100_and_0_only_for_certain_outcomes(p: float, digits: int) -> None:
    shown = percent(p, digits)
    assert (shown == "100%") == (p >= 1 - 1e-12)
    assert (shown == "0%") == (p <= 1e-12)
    if shown.startswith("> "):
        assert round(p * 100, digits) >= 100 and p < 1
    elif shown.startswith("< "):
        assert round(p * 100, digits) <= 0 and p > 0


@pilot_test
async def test_extended_odds_line_reads_above_99_9_not_100(tmp_path: Path) -> None:
    """Nyx's 11 dice for 9 more hits: near-certain within 40 intervals, but a critical glitch can end it."""
    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "r")
        roll = app.screen
        assert isinstance(roll, SRRollScreen) and roll.test == "extended"
        odds = str(roll.query_one("#odds", Static).content)
        assert "99.7% within 5 intervals, 99.9% within 40" in odds and "100%" not in odds


# -- names -------------------------------------------------------------------------------------------


def test_short_name_cuts_with_an_ellipsis_and_keeps_short_names() -> None:
    assert short_name("Kaneda") == "Kaneda"
    assert short_name("x" * 24) == "x" * 24
    assert short_name(LONG) == "Bartholomew Quintessent…" and len(short_name(LONG)) == 24


@pilot_test
async def test_a_177_character_name_leaves_the_pools_and_panes_on_screen(tmp_path: Path) -> None:
    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    tracker.update_character("kaneda", "name", LONG)
    sf.save_now(tracker)
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        pane = app.main_screen().query_one("#chars", CharacterPane)
        first = option_texts(pane)[0]
        assert first.startswith("Bartholomew Quintessent… (Olli)  Edge 3/3")
        await press(pilot, "1", "end", "r", "w", "1")  # Nyx acts (▶): w 1 rolls for the long name
        roll = app.screen
        assert isinstance(roll, SRRollScreen) and roll.a.label == LONG
        shown = screen_text(app)
        assert "A: Bartholomew Quintessent…" in shown
        assert "Who: Bartholomew Quintessent…" in shown
        assert "Bartholomew Quintessent…: Pistols 4 + Agility 5" in shown
        assert "success (≥2)" in shown  # the odds are still on screen
        await press(pilot, "r")
        await settle(pilot)
        ev = tracker.events[-1]
        assert ev["roll"]["sides"][0]["label"] == LONG  # the log keeps the whole name


# -- rows stay put -------------------------------------------------------------------------------------


def _row_top(roll: Any, selector: str) -> int:
    return roll.query_one(selector).region.y


@pilot_test
async def test_roll_screen_rows_stay_put_when_a_roll_prints_and_modifiers_are_added(tmp_path: Path) -> None:
    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "1", "end", "r")
        roll = app.screen
        assert isinstance(roll, SRRollScreen)
        where = {s: _row_top(roll, s) for s in ("#pool", "#odds", "#result-box")}
        lst = roll.query_one("#side-a", SideList)
        rows_before = lst.size.height
        await press(pilot, "r")
        await settle(pilot)
        assert {s: _row_top(roll, s) for s in where} == where
        lst.highlighted = [o.id for o in lst.options].index("add-mod")
        for label in ("snowy road -2", "a very long modifier label that goes on and on -1"):
            # Enter on "… add a modifier": the new row goes in above it
            await press(pilot, "enter", *[{" ": "space", "-": "minus"}.get(c, c) for c in label], "enter")
        assert {s: _row_top(roll, s) for s in where} == where and lst.size.height == rows_before
        assert [o.id for o in lst.options][-3:] == ["mod:0", "mod:1", "add-mod"]
        # every row is one line at 80 columns (the long modifier and the Edge row are cut with …)
        assert lst.virtual_size.height == lst.option_count
        shown = screen_text(app)
        assert "[x] a very long modifier" in shown and "on and on -1" not in shown
        # the cursor stayed on "… add a modifier" although two rows were added above it
        assert lst.highlighted_option is not None and lst.highlighted_option.id == "add-mod"


@pytest.mark.parametrize(("size", "rows"), [((60, 20), 4), ((80, 24), 5), ((120, 40), 13)])
def test_result_box_grows_with_the_terminal_and_leaves_small_ones_to_the_pools(size: tuple[int, int],
                                                                              rows: int) -> None:
    t = demo.DEMOS["varjojuoksu"]()
    assert SRRollScreen(t).result_rows(size[1]) == rows


@pilot_test
async def test_at_120x40_the_result_box_shows_the_whole_result(tmp_path: Path) -> None:
    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await press(pilot, "1", "end", "r", "r")
        await settle(pilot)
        roll = app.screen
        assert isinstance(roll, SRRollScreen)
        box = roll.query_one("#result-box")
        assert box.size.height >= len(roll.result_lines) and box.region.height == 13
        assert roll.query_one("#side-a", SideList).size.height >= 15  # the pools are not squeezed


@pilot_test
async def test_at_80x24_a_long_result_is_read_whole_by_keyboard(tmp_path: Path) -> None:
    """A result taller than its box says so on its rule, and ] / [ page through it to the last line."""
    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "1", "end", "r", "r")
        await settle(pilot)
        roll = app.screen
        assert isinstance(roll, SRRollScreen)
        box = roll.query_one("#result-box")
        assert len(roll.result_lines) > box.size.height  # the extended test's result does not fit
        assert box.scroll_y == 0 and str(box.border_title) == "] more below"
        last = roll.result_lines[-1].strip()
        assert last not in screen_text(app)
        for _ in range(len(roll.result_lines)):
            if box.scroll_y >= box.max_scroll_y:
                break
            await press(pilot, "right_square_bracket")
        await settle(pilot)
        assert last in screen_text(app) and str(box.border_title) == "[ up"
        await press(pilot, *["left_square_bracket"] * len(roll.result_lines))
        await settle(pilot)
        assert box.scroll_y == 0 and roll.result_lines[0] in screen_text(app)


# -- keys that change nothing log nothing ------------------------------------------------------------------


def test_a_setting_set_to_its_current_value_logs_nothing() -> None:
    t = demo.DEMOS["varjojuoksu"]()
    t.set_setting("sr.teamwork_cap", "skill")
    n = len(t.events)
    with pytest.raises(TrackerError, match="sr.teamwork_cap is already skill; nothing changed"):
        t.set_setting("sr.teamwork_cap", "skill")
    assert len(t.events) == n


def test_the_same_initiative_order_again_logs_nothing() -> None:
    t = demo.DEMOS["varjojuoksu"]()
    order = [e.copy() for e in t.state["initiative"]]
    n = len(t.events)
    with pytest.raises(TrackerError, match="already"):
        t.set_initiative(order)
    assert len(t.events) == n
    t.set_initiative(list(reversed(order)))
    assert len(t.events) == n + 1


# -- keys a GM tries where they do not apply --------------------------------------------------------------


@pilot_test
async def test_who_on_side_b_of_a_threshold_test_picks_side_a_and_H_is_refused_in_an_extended_test(
        tmp_path: Path) -> None:
    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "r")
        assert isinstance(app.screen, SRRollScreen)
        roll = app.screen
        assert roll.test == "extended" and roll.a.who == "nyx"
        await press(pilot, "H")
        assert not roll.hidden and "hidden from players" not in screen_text(app)
        assert "Only a success test's threshold can be hidden" in [n.message for n in app._notifications][-1]
        await press(pilot, "w")  # the extended test under way keeps its roller (S10)
        assert app.screen is roll and roll.a.who == "nyx"
        await press(pilot, "t")  # extended → teamwork: side B is a threshold again
        await press(pilot, "tab", "w")
        assert "Who is side A?" in screen_text(app)  # side B is the threshold here, not a character
        await press(pilot, "1")
        assert roll.a.who == "kaneda" and roll.b.who == ""
