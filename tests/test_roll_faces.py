"""Physical dice for every roll the roll screens make, by keyboard at 80x24: the pool and
Edge-before dice with one prompt per wave of sixes (S7), Edge after the roll, teamwork (S11),
initiative (S12), a Harhapolku edge reroll (H7), and buying hits instead of rolling (S4)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from textual.pilot import Pilot

from app_fixtures import demo_session, make_app, pilot_test, press, screen_text, settle
from polku.rules import shadowrun as sr
from polku.session import demo, records
from polku.session.rolls import SRPool
from polku.tui.screens.prompts import FacesPrompt
from polku.tui.screens.roll import InitiativeScreen, SideList, SRRollScreen

SIZE = (80, 24)


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POLKU_CONFIG_DIR", str(tmp_path / "config"))


async def type_faces(pilot: Pilot, text: str) -> None:
    await press(pilot, *["space" if c == " " else c for c in text], "enter")
    await settle(pilot)


async def to_row(pilot: Pilot, screen: Any, row: str, side: str = "a") -> None:
    lst = screen.query_one(f"#side-{side}", SideList)
    for _ in range(lst.option_count + 1):
        opt = lst.highlighted_option
        if opt is not None and opt.id == row:
            return
        await press(pilot, "down")
    raise AssertionError(f"no row {row} on side {side}")


def notes(app: Any) -> list[str]:
    return [n.message for n in app._notifications]


async def kaneda_sneaks(pilot: Pilot) -> SRRollScreen:
    """The Varjojuoksu demo's "Sneak past the Lone Star patrol": Kaneda, Pistols 4 + Agility 5 − 1 = 8 dice."""
    await settle(pilot)
    await press(pilot, "1", "end", "r", "w", "1")  # r opens on the ▶ fighter (Nyx); w 1 picks Kaneda
    roll = pilot.app.screen
    assert isinstance(roll, SRRollScreen) and roll.a.who == "kaneda" and roll.test == "success"
    return roll


@pilot_test
async def test_edge_before_asks_pool_and_edge_dice_then_one_prompt_per_wave_of_sixes(tmp_path: Path) -> None:
    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        roll = await kaneda_sneaks(pilot)
        await to_row(pilot, roll, "edge")
        await press(pilot, "enter", "f")
        prompt = app.screen
        assert isinstance(prompt, FacesPrompt) and prompt.count == 11  # 8 + Edge 3
        assert "Kaneda's pool and Edge dice: 11d6" in screen_text(app)
        await type_faces(pilot, "6,6 5 1 2 3 4 2 3 4 3")
        wave = app.screen
        assert isinstance(wave, FacesPrompt) and wave is not prompt and wave.count == 2
        assert "rule of six wave 1" in screen_text(app)
        await type_faces(pilot, "6")  # one face for two dice: said inline, the prompt stays
        assert app.screen is wave and "2 dice were rolled; you entered 1 face" in screen_text(app)
        await press(pilot, "ctrl+u")
        await type_faces(pilot, "6 1")
        assert isinstance(app.screen, FacesPrompt) and app.screen.count == 1
        await type_faces(pilot, "5")
        assert app.screen is roll
        ev = tracker.events[-1]
        assert ev["roll"]["manual"]
        assert [d["face"] for d in ev["roll"]["sides"][0]["dice"]] == [6, 6, 5, 1, 2, 3, 4, 2, 3, 4, 3, 6, 1, 5]
        assert ev["roll"]["outcome"]["hits"] == 5
        assert records.sr(tracker.characters["kaneda"])["edge"] == 2


@pilot_test
async def test_escape_in_a_wave_rolls_nothing(tmp_path: Path) -> None:
    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        roll = await kaneda_sneaks(pilot)
        before = len(tracker.events)
        await to_row(pilot, roll, "edge")
        await press(pilot, "enter", "f")
        await type_faces(pilot, "6 1 1 1 1 1 1 1 1 1 1")
        assert isinstance(app.screen, FacesPrompt) and app.screen.count == 1
        await press(pilot, "escape")
        await settle(pilot)
        assert app.screen is roll and len(tracker.events) == before
        assert records.sr(tracker.characters["kaneda"])["edge"] == 3


@pilot_test
async def test_edge_after_a_typed_roll_asks_for_the_edge_dice_and_their_sixes(tmp_path: Path) -> None:
    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        roll = await kaneda_sneaks(pilot)
        await press(pilot, "f")
        await type_faces(pilot, "1 2 3 4 1 2 3 4")
        first = tracker.events[-1]
        assert first["roll"]["outcome"]["hits"] == 0
        assert any("you type the Edge dice's faces" in line for line in roll.result_lines)
        await press(pilot, "e")
        assert isinstance(app.screen, FacesPrompt) and app.screen.count == 3  # Edge rating 3
        await type_faces(pilot, "6 5 2")
        assert isinstance(app.screen, FacesPrompt) and app.screen.count == 1
        await type_faces(pilot, "5")
        after = tracker.events[-1]
        assert after["roll"]["supersedes"] == first["seq"]
        assert [d["face"] for d in after["roll"]["sides"][0]["dice"]] == [1, 2, 3, 4, 1, 2, 3, 4, 6, 5, 2, 5]
        assert after["roll"]["outcome"]["hits"] == 3 and after["roll"]["outcome"]["success"]
        assert f"{after['seq']}: " in screen_text(app)


@pilot_test
async def test_edge_after_a_program_roll_rolls_the_program_dice(tmp_path: Path) -> None:
    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await kaneda_sneaks(pilot)
        await press(pilot, "r")
        await settle(pilot)
        first = tracker.events[-1]
        await press(pilot, "e")
        await settle(pilot)
        assert not isinstance(app.screen, FacesPrompt)
        assert tracker.events[-1]["roll"]["supersedes"] == first["seq"]
        assert not tracker.events[-1]["roll"]["manual"]


@pilot_test
async def test_teamwork_faces_helpers_first_then_the_leader_with_their_extra_dice(tmp_path: Path) -> None:
    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        roll = await kaneda_sneaks(pilot)
        await press(pilot, "t", "t", "t")
        assert roll.test == "teamwork"
        await press(pilot, "tab")
        await to_row(pilot, roll, "helper:nyx", "b")
        await press(pilot, "enter", "f")
        helper = app.screen
        # Nyx has no Pistols: defaulting on her Agility 3, −1 (S2, S11) = 2 dice
        assert isinstance(helper, FacesPrompt) and helper.count == 2 and "Nyx helps" in screen_text(app)
        await type_faces(pilot, "5 6")
        leader = app.screen
        assert isinstance(leader, FacesPrompt) and leader.count == 10  # 8 + Nyx's 2 hits
        await type_faces(pilot, "5 1 1 2 2 3 3 4 4 4")
        ev = tracker.events[-1]
        assert ev["roll"]["test"] == "shadowrun-teamwork"
        assert [[d["face"] for d in s["dice"]] for s in ev["roll"]["sides"]] == [[5, 6], [5, 1, 1, 2, 2, 3, 3, 4, 4, 4]]


@pilot_test
async def test_initiative_from_physical_dice_in_the_list_s_order(tmp_path: Path) -> None:
    """f asks for every chosen fighter's Reaction + Intuition dice in one prompt, in the list's order."""
    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "i")
        ini = app.screen
        assert isinstance(ini, InitiativeScreen)
        chosen = [cid for cid, on_ in ini.chosen.items() if on_]
        assert chosen == ["kaneda", "nyx", "ganger"]
        await press(pilot, "f")
        # Kaneda R4 + I4, Nyx R3 + I5, Ganger R3 + I3
        assert isinstance(app.screen, FacesPrompt) and app.screen.count == 8 + 8 + 6
        await type_faces(pilot, "5 5 5 1 1 1 1 1  1 1 1 1 1 1 1 1  6 1 1 1 1 1")
        assert app.screen is ini
        assert [(e["id"], e["score"]) for e in tracker.state["initiative"]] == [("kaneda", 11), ("nyx", 8), ("ganger", 7)]
        assert [e for e in tracker.events if "roll" in e][-1]["roll"]["manual"]


@pilot_test
async def test_buy_hits_settles_the_test_without_dice_and_is_refused_where_it_cannot(tmp_path: Path) -> None:
    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        roll = await kaneda_sneaks(pilot)
        before = len(tracker.events)
        await press(pilot, "t", "B")  # opposed: refused, nothing logged
        await settle(pilot)
        assert len(tracker.events) == before and "Hits are bought in a success test" in notes(app)[-1]
        await press(pilot, "t", "t", "t")
        assert roll.test == "success"
        await press(pilot, "B")
        await settle(pilot)
        ev = tracker.events[-1]
        assert ev["roll"]["outcome"]["hits"] == 2 and ev["roll"]["sides"][0]["dice"] == []  # 8 dice // 4
        assert ev["roll"]["outcome"]["success"] and not ev["roll"]["outcome"]["glitch"]
        assert records.sr(tracker.characters["kaneda"])["edge"] == 3


# -- the session's counts that the prompts follow ----------------------------------------------------



def test_six_wave_counts_the_sixes_only() -> None:
    assert sr.six_wave([6, 5, 6, 1]) == 2
    assert sr.six_wave([5, 5, 4]) == 0
    assert sr.six_wave([]) == 0


@hsettings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=80, max_size=80), st.booleans())
def test_the_prompt_chain_asks_exactly_the_faces_the_roll_uses(stream: list[int], edge: bool) -> None:
    """Typing faces prompt by prompt (pool + Edge, then one wave per sixes) gives the roll every face it
    takes and no more: the roll is accepted, and every typed face is a die of the logged roll."""
    t = demo.DEMOS["varjojuoksu"]()
    side = t.rolls.sr_side("kaneda", SRPool(skill="Pistols", attribute="agility", edge_before=edge), "Kaneda")
    n = t.rolls.sr_pool_dice(side)
    typed: list[int] = []
    wave, pos = n, 0
    while wave:
        faces = stream[pos:pos + wave]
        if len(faces) < wave:
            return  # a stream this long with this many sixes is too rare to matter
        typed += faces
        pos += wave
        wave = t.rolls.sr_six_wave(faces) if t.rolls.sr_rule_of_six(side) else 0
    ev = t.rolls.roll_sr(side, threshold=2, faces=typed)["event"]
    assert [d["face"] for d in ev["roll"]["sides"][0]["dice"]] == typed


def test_teamwork_leader_dice_follow_the_helpers_hits_and_the_cap() -> None:
    t = demo.DEMOS["varjojuoksu"]()
    leader = t.rolls.sr_side("kaneda", SRPool(skill="Pistols", attribute="agility"), "Kaneda")
    nyx = t.rolls.sr_helper_side("nyx", SRPool(skill="Pistols", attribute="agility"), None)
    assert t.rolls.sr_teamwork_leader_dice(leader, [nyx], [[5, 6]]) == 10
    assert t.rolls.sr_teamwork_leader_dice(leader, [nyx], [[1, 2]]) == 8
    big = t.rolls.sr_helper_side("nyx", SRPool(skill="Pistols", attribute="agility"), 6)
    t.set_setting("sr.teamwork_cap", "skill")
    assert t.rolls.sr_teamwork_leader_dice(leader, [big], [[5, 5, 5, 5, 5, 6]]) == 12  # at most Pistols 4 extra


def test_group_dice_include_the_edge_before_dice_the_roll_throws() -> None:
    t = demo.DEMOS["varjojuoksu"]()
    plain = t.rolls.sr_side("ganger", SRPool(mode="dice", dice=6), "Ganger")
    edged = t.rolls.sr_side("ganger", SRPool(mode="dice", dice=6, edge_before=True), "Ganger")
    assert t.rolls.sr_group_dice(plain, [4, 4]) == 8
    assert t.rolls.sr_group_dice(edged, [4, 4]) == 9  # Ganger's Edge 1
