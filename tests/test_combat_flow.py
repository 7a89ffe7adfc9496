"""A whole fight run by keys at 80x24 (S12 turns, effects, holding, wounds), saved and reopened;
and a Rajapolku scene of three challenges walked with the same "next" key.

The NPCs are made one by one and hurt with the wound key (w): the fight is what this test is about.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from app_fixtures import make_app, panes, pilot_test, settle
from textual.pilot import Pilot

from polku.session import demo, files
from polku.session.tracker import Tracker
from polku.tui.screens.main import MainScreen
from polku.tui.screens.prompts import FacesPrompt, TextPrompt
from polku.tui.screens.roll import InitiativeScreen

SIZE = (80, 24)
GANGERS = [f"Ganger {i}" for i in range(1, 5)]


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POLKU_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.delenv("NO_COLOR", raising=False)


async def press(pilot: Pilot, *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        await pilot.pause()


def typed(text: str) -> list[str]:
    names = {" ": "space", ",": "comma", "-": "minus", "+": "plus"}
    return [names.get(c, c) for c in text]


def fight_campaign() -> Tracker:
    t = Tracker.new("shadowrun", "Night at the docks", clock=demo.fixed_clock(), seed=3)
    t.add_character("Kaneda", player="Olli", attributes={
        "body": 4, "agility": 5, "reaction": 4, "strength": 3, "charisma": 2, "intuition": 4, "logic": 3,
        "willpower": 3}, skills={"Pistols": 4}, edge_rating=3, edge=3)
    t.add_character("Nyx", player="Sanna", attributes={
        "body": 2, "agility": 3, "reaction": 3, "strength": 2, "charisma": 3, "intuition": 5, "logic": 6,
        "willpower": 4}, skills={"Hacking": 5}, edge_rating=4, edge=4)
    for name in GANGERS:
        t.add_character(name, kind="npc", skills={"Clubs": 3}, edge_rating=1, edge=1)
    return t


def faces(*hits_of: tuple[int, int]) -> str:
    """The faces for (dice, hits) per roll: the hits as 5s, the rest as 2s."""
    out: list[str] = []
    for dice, hits in hits_of:
        out += ["5"] * hits + ["2"] * (dice - hits)
    return " ".join(out)


def turn_lines(app: Any) -> list[str]:
    """The turn pane as drawn: the headline, then a row per fighter."""
    from polku.tui.widgets.panes import TurnOrder

    return app.main_screen().query_one("#turns", TurnOrder).lines


def order(app: Any) -> list[str]:
    """The fighters' rows of the turn pane: marker, score, name."""
    return [row[:5] + row[5:].split("  ")[0] for row in turn_lines(app)[1:]]


def combat(t: Tracker) -> tuple[int, int, str]:
    b = t.state["combat"]
    return b["turn"], b["pass"], b["acting"]


async def roll_initiative(pilot: Pilot, hits: list[int]) -> None:
    """On the initiative screen: type the faces (Kaneda 8 dice, Nyx 8, each ganger 6), roll, close."""
    app = pilot.app
    assert isinstance(app.screen, InitiativeScreen)
    await press(pilot, "f")
    assert isinstance(app.screen, FacesPrompt)
    dice = [8, 8, 6, 6, 6, 6]
    await press(pilot, *typed(faces(*zip(dice, hits))), "enter")
    await settle(pilot)
    assert isinstance(app.screen, InitiativeScreen)
    await press(pilot, "escape")
    assert isinstance(app.screen, MainScreen)


async def select_character(pilot: Pilot, name: str) -> None:
    app = pilot.app
    await press(pilot, "2")
    chars = app.main_screen().query_one("#chars")
    chars.highlighted = chars.get_option_index(app.tracker.find_character(name)["id"])
    await pilot.pause()


@pilot_test
async def test_four_combat_turns_by_keys_then_reopen_at_the_same_marker(tmp_path: Path) -> None:
    t = fight_campaign()
    sf = files.create_session(tmp_path / "docks.toml", t)
    path = sf.path
    app = make_app(t, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        # -- combat turn 1: Kaneda gets 2 passes; the faces are typed in
        await press(pilot, "i")
        assert isinstance(app.screen, InitiativeScreen)
        await press(pilot, "plus")  # the highlighted row is Kaneda's
        await roll_initiative(pilot, [3, 1, 3, 2, 1, 0])  # 11, 9, 9, 8, 7, 6
        assert combat(t) == (1, 1, "kaneda")
        # Nyx and Ganger 1 both have 9: Nyx's Edge 4 beats the ganger's 1 (S12)
        assert order(app) == ["▶ 11 Kaneda", "·  9 Nyx", "·  9 Ganger 1", "·  8 Ganger 2", "·  7 Ganger 3",
                              "·  6 Ganger 4"]
        assert turn_lines(app)[0] == "» Combat turn 1 · pass 1"

        # an effect that lasts one pass, with a dice modifier, on Nyx (f, typed in one line)
        await select_character(pilot, "Nyx")
        await press(pilot, "f")
        assert isinstance(app.screen, TextPrompt)
        await press(pilot, *typed("Smoke -2 1 pass"), "enter")
        assert t.character("nyx")["effects"] == [{"name": "Smoke", "modifier": -2, "unit": "pass", "left": 1}]
        assert any("◌ Smoke −2 · 1 pass" in row for row in panes(app)["chars"])

        await press(pilot, "space")  # Kaneda done → Nyx
        assert combat(t)[2] == "nyx"
        await press(pilot, "d")  # Nyx holds the action → Ganger 1
        assert combat(t)[2] == "ganger-1" and t.state["combat"]["held"] == ["nyx"]
        assert "‖  9 Nyx" in order(app)
        await press(pilot, "space")  # → Ganger 2
        await press(pilot, "j")  # Nyx steps in before Ganger 2 goes
        assert combat(t)[2] == "nyx" and t.state["combat"]["held"] == []

        # Ganger 3 takes 6 boxes (w six times): −2 wound modifier, 7 → 5, behind Ganger 4's 6
        await select_character(pilot, "Ganger 3")
        await press(pilot, *["w"] * 6)
        assert t.character("ganger-3")["physical"] == 6
        assert order(app)[-2:] == ["·  6 Ganger 4", "·  5 Ganger 3"]

        await press(pilot, "space")  # Nyx done → Ganger 2 (interrupted) acts
        assert combat(t)[2] == "ganger-2"
        await press(pilot, "space", "space")  # Ganger 4, then Ganger 3
        assert combat(t)[2] == "ganger-3"
        await press(pilot, "space")  # pass 1 over: the smoke clears; pass 2 is Kaneda's alone
        assert combat(t) == (1, 2, "kaneda")
        assert t.character("nyx")["effects"] == []
        assert "Smoke wears off Nyx: pass 1 is over" in [e["text"] for e in t.events]
        assert order(app)[0] == "▶ 11 Kaneda" and "✓  9 Nyx" not in order(app)

        # -- combat turns 2 and 3: the turn ends on space and the initiative screen opens by itself
        for turn, hits in ((2, [0, 2, 1, 1, 0, 2]), (3, [1, 1, 1, 1, 1, 1])):
            await press(pilot, "space")
            await roll_initiative(pilot, hits)
            assert combat(t)[:2] == (turn, 1)
            steps = 0
            while t.state["combat"]["pass"] != 0 and steps < 20:
                await press(pilot, "space")
                steps += 1
            assert steps == 7  # six fighters in pass 1, Kaneda again in pass 2
        # Ganger 3's wound still counts: 6 + 1 hit − 2 = 5, last in turn 3
        assert t.state["initiative"][-1]["id"] == "ganger-3"

        # -- combat turn 4: two actions in, then the GM quits
        await roll_initiative(pilot, [2, 0, 0, 0, 0, 0])  # Kaneda 10, Nyx 8, gangers 6, 6, 6 and 4
        assert combat(t) == (4, 1, "kaneda")
        await press(pilot, "space", "space")
        assert combat(t) == (4, 1, "ganger-1")
        await settle(pilot)
        seen = panes(app)
        seen_turns = turn_lines(app)
        await press(pilot, "q")
    assert app.return_code == 0

    reloaded, notices = files.load_tracker(path)
    assert notices == []
    assert reloaded.state["combat"] == {"turn": 4, "pass": 1, "acting": "ganger-1", "acted": ["kaneda", "nyx"],
                                        "held": []}
    assert reloaded.state == t.state

    # the reopened app shows the same turn, pass and marker
    tracker2, sf2 = files.open_session(path)
    app2 = make_app(tracker2, sf2, sessions_dir=tmp_path)
    async with app2.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert panes(app2)["queue"] == seen["queue"]
        assert turn_lines(app2) == seen_turns
        assert "▶  6 Ganger 1" in order(app2)
        await press(pilot, "space")  # and goes on from there
        assert combat(tracker2) == (4, 1, "ganger-2")
        await press(pilot, "q")


async def raja_roll(pilot: Pilot, a: str, b: str) -> None:
    """r on the active challenge, f: Alyosha's and the GM's faces typed in, then back to the GM's screen."""
    from polku.tui.screens.roll import RajaRollScreen

    await press(pilot, "r")
    assert isinstance(pilot.app.screen, RajaRollScreen)
    await press(pilot, "f", *typed(a), "enter", *typed(b), "enter")
    await settle(pilot)
    await press(pilot, "escape")
    assert isinstance(pilot.app.screen, MainScreen)


@pilot_test
async def test_a_rajapolku_scene_of_three_challenges_walked_with_next(tmp_path: Path) -> None:
    t = Tracker.new("rajapolku", "Docks", clock=demo.fixed_clock(), seed=3)
    t.add_character("Alyosha", backgrounds=["Runner"])
    titles = ["Chase the pickpocket", "Talk past the guard", "Find the ledger"]
    for title in titles:
        t.add_challenge(title, ["alyosha"])
    sf = files.create_session(tmp_path / "raja.toml", t)
    path = sf.path
    app = make_app(t, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for title, (a, b) in zip(titles[:2], (("9", "3"), ("8", "4"))):
            await press(pilot, "space")  # the queue's next challenge starts: the marker is on it
            assert t.active_challenge()["title"] == title
            assert f"▶ {title}  (Alyosha)" in panes(app)["queue"]
            await raja_roll(pilot, a, b)
            assert t.active_challenge() is None
            assert any(row.startswith(f"✓ {title} — ") for row in panes(app)["queue"])
        await press(pilot, "space")
        assert t.active_challenge()["title"] == titles[2]
        await settle(pilot)
        seen = panes(app)["queue"]
        await press(pilot, "q")

    tracker2, sf2 = files.open_session(path)
    assert tracker2.active_challenge()["title"] == titles[2]
    app2 = make_app(tracker2, sf2, sessions_dir=tmp_path)
    async with app2.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert panes(app2)["queue"] == seen
        await raja_roll(pilot, "2", "7")
        assert [c["status"] for c in tracker2.state["challenges"]] == ["resolved"] * 3
        n = len(tracker2.events)
        await press(pilot, "space")  # nothing waits: refused in one line, nothing logged
        assert len(tracker2.events) == n
        assert any("no challenge waits" in str(m.message) for m in app2._notifications)
        await press(pilot, "q")


@pilot_test
async def test_an_effect_s_dice_are_a_row_of_the_pool_on_by_default(tmp_path: Path) -> None:
    """S1: an effect's modifier is its own row in the pool builder, on by default, toggled with Enter."""
    from polku.tui.screens.roll import SideList, SRRollScreen

    t = fight_campaign()
    t.combat.add_effect("nyx", "Smoke", -2, "pass", 2)
    sf = files.create_session(tmp_path / "docks.toml", t)
    app = make_app(t, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await select_character(pilot, "Nyx")
        await press(pilot, "r")
        roll = app.screen
        assert isinstance(roll, SRRollScreen) and roll.a.who == "nyx"
        side = roll.query_one("#side-a", SideList)
        row = side.get_option_index("eff:effect: Smoke")
        assert "[x] effect: Smoke -2" in str(side.get_option_at_index(row).prompt)
        assert "− 2 (effect: Smoke)" in roll.pool_text().plain
        side.focus()
        side.highlighted = row
        await press(pilot, "enter")
        assert roll.a.sr.effects_off == ("effect: Smoke",)
        assert "effect: Smoke" not in roll.pool_text().plain
        await press(pilot, "enter")  # on again
        assert "− 2 (effect: Smoke)" in roll.pool_text().plain
        await press(pilot, "r")
        await settle(pilot)
        ev = next(e for e in reversed(t.events) if "roll" in e)
        assert "effect: Smoke" in " ".join(ev["roll"]["explain"])
        await press(pilot, "escape", "q")
