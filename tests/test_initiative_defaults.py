"""Who the next initiative roll is for (S12), before the GM changes anything: the fighters of the
fight going on, the reinforcements that joined since its roll, never a fallen NPC."""

from __future__ import annotations

from pathlib import Path

import pytest

from app_fixtures import demo_session, make_app, pilot_test, settle
from polku.session import demo
from polku.tui.screens.roll import InitiativeScreen


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POLKU_CONFIG_DIR", str(tmp_path / "config"))


def chosen(t) -> set[str]:
    return {cid for cid, (yes, _) in t.combat.default_fighters().items() if yes}


def test_out_of_a_fight_everyone_standing_rolls():
    t = demo.demo_varjojuoksu()
    t.combat.end()
    assert chosen(t) == set(t.characters)


def test_in_a_fight_the_fighters_and_those_who_joined_since_roll_and_the_rest_stays_out():
    t = demo.demo_varjojuoksu()
    # Initiative for two of the three: the ganger stays out of this fight.
    t.rolls.roll_initiative([("kaneda", 2), ("nyx", 1)])
    assert chosen(t) == {"kaneda", "nyx"}
    assert t.combat.default_fighters()["kaneda"] == (True, 2)  # the passes carry over
    t.roster.save_template("ganger")
    made = t.roster.add_from_template("Ganger", 4)
    assert chosen(t) == {"kaneda", "nyx", *made}  # reinforcements join the next roll
    t.undo()
    assert chosen(t) == {"kaneda", "nyx"}
    t.redo()
    # A fighter leaving the fight is no new roll: the reinforcements still join the next one.
    t.remove_character("nyx")
    assert chosen(t) == {"kaneda", *made}
    t.undo()
    t.rolls.roll_initiative([("kaneda", 1), ("nyx", 1)])  # the GM left them out on purpose
    assert chosen(t) == {"kaneda", "nyx"}


def test_a_fallen_npc_is_not_offered():
    t = demo.demo_varjojuoksu()
    t.set_condition("ganger", "stun", t.condition_monitor("ganger", "stun"))  # a full stun monitor: out
    assert "ganger" in t.roster.fallen()
    assert "ganger" not in chosen(t)


@pilot_test
async def test_four_gangers_added_mid_fight_are_in_the_next_initiative_by_keys(tmp_path: Path) -> None:
    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("2", "end", "t", "enter")  # the ganger, the last character, as a template
        await settle(pilot)
        await pilot.press("plus", "enter", "enter")  # 4× Ganger, shared initiative
        await settle(pilot)
        made = [cid for cid in tracker.characters if cid.startswith("ganger-")]
        assert len(made) == 4
        await pilot.press("i")
        await settle(pilot)
        assert isinstance(app.screen, InitiativeScreen)
        await pilot.press("r")
        await settle(pilot)
        order = {e["id"] for e in tracker.state["initiative"]}
        assert set(made) <= order and {"kaneda", "nyx", "ganger"} <= order
