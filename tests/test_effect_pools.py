"""An effect's dice modifier is its own row of the pool builder in all three systems: on by default,
turned off like any row. Rajapolku (R4) and Harhapolku read it as a circumstance that never removes
dice: +n dice for its bearer, −n dice for the other side. Literal faces throughout."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app_fixtures import make_app, pilot_test, settle
from polku.rules import harhapolku as harha
from polku.rules.dice import RulesError
from polku.session import demo, files
from polku.session.rolls import HarhaSide, RajaSide
from polku.session.tracker import Tracker, TrackerError


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POLKU_CONFIG_DIR", str(tmp_path / "config"))


def raja_table() -> Tracker:
    t = Tracker.new("rajapolku", "Docks", clock=demo.fixed_clock(), seed=3)
    t.add_character("Alyosha")
    t.add_character("Igor", kind="npc")
    return t


def harha_table() -> Tracker:
    t = Tracker.new("harhapolku", "Island", clock=demo.fixed_clock(), seed=3)
    t.add_character("Lena")
    t.add_character("Tuomas")
    return t


# -- Rajapolku: an effect is a condition (R4) ---------------------------------------------------

def test_R4_an_effect_that_gives_a_die_is_a_helping_condition_and_decides_the_challenge():
    """Alyosha 7 vs Igor 8 → Igor wins (R5). Blessed +1: Alyosha rolls 7,9 vs 8 → Alyosha, 1 degree (R6)."""
    t = raja_table()
    a, b = RajaSide("Alyosha", ["alyosha"]), RajaSide("Igor", ["igor"])
    assert t.rolls.roll_raja(a, b, faces=([7], [8]))["result"].winner == "b"
    t.combat.add_effect("alyosha", "Blessed", 1, "scene", 1)
    specs_a, specs_b = t.rolls.raja_pools(a, b)
    assert (len(specs_a), len(specs_b)) == (2, 1)
    assert "+1d10 condition: effect: Blessed (R4)" in t.rolls.raja_plan(a).explain
    res = t.rolls.roll_raja(a, b, faces=([7, 9], [8]))["result"]
    assert (res.winner, res.degrees) == ("a", 1)
    with pytest.raises(TrackerError, match="not enough faces"):  # the effect's die is thrown too
        t.rolls.roll_raja(a, b, faces=([7], [8]))


def test_R4_an_effect_that_takes_dice_gives_them_to_the_other_side_and_can_be_turned_off():
    """Smoke −2 on Alyosha: Igor rolls 3 dice (1 + 2, circumstances never remove dice); 9 vs 8,2,1 → Alyosha;
    9 vs 8,2,10 → Igor. Turned off for the roll: 1 die each again."""
    t = raja_table()
    t.combat.add_effect("alyosha", "Smoke", -2, "scene", 1)
    a, b = RajaSide("Alyosha", ["alyosha"]), RajaSide("Igor", ["igor"])
    specs_a, specs_b = t.rolls.raja_pools(a, b)
    assert (len(specs_a), len(specs_b)) == (1, 3)
    assert t.rolls.roll_raja(a, b, faces=([9], [8, 2, 1]))["result"].winner == "a"
    assert t.rolls.roll_raja(a, b, faces=([9], [8, 2, 10]))["result"].winner == "b"
    off = RajaSide("Alyosha", ["alyosha"], effects_off=("effect: Smoke",))
    assert [len(p) for p in t.rolls.raja_pools(off, b)] == [1, 1]


# -- Harhapolku ---------------------------------------------------------------------------------

def test_an_effect_adds_plain_dice_of_the_pool_size_or_gives_them_to_the_other_pool():
    pool = harha.build_pool(general="Island girl")
    out = harha.with_effects(pool, [("effect: Blessed", 1)], [("effect: Smoke", 2)])
    assert [d.size for d in out.dice] == [8, 8, 8, 8, 8]
    assert out.explain[-2:] == ("+1d8 effect: Blessed (a circumstance never removes dice, R4)",
                                "+2d8 the other side's effect: Smoke (a circumstance never removes dice, R4)")
    same = harha.with_effects(harha.build_pool_same_size("Thief", size=10), [("effect: Blessed", 1)])
    assert [d.size for d in same.dice] == [10, 10, 10]
    with pytest.raises(RulesError):
        harha.with_effects(pool, [("effect: Odd", 0)])


def test_H4_an_effect_s_die_changes_who_wins_and_the_other_side_s_penalty_helps_the_actor():
    """ch23: Lena (actor) 5 vs Tuomas (challenger) 6 → Tuomas (6 > 5). Blessed +1 on Lena: 5,7 vs 6 →
    one position compared, 7 > 6 → Lena. Smoke −1 on Tuomas instead: Lena rolls 5,7 too."""
    t = harha_table()
    a, b = HarhaSide("Lena", ["lena"]), HarhaSide("Tuomas", ["tuomas"])
    assert t.rolls.roll_harha(a, b, faces=([5], [6]))["result"].winner == "b"
    t.combat.add_effect("lena", "Blessed", 1, "scene", 1)
    assert len(t.rolls.harha_pool(a, opposing=b).dice) == 2
    assert t.rolls.roll_harha(a, b, faces=([5, 7], [6]))["result"].winner == "a"
    t.combat.remove_effect("lena", 0)
    t.combat.add_effect("tuomas", "Smoke", -1, "scene", 1)
    assert [len(t.rolls.harha_pool(s, opposing=o).dice) for s, o in ((a, b), (b, a))] == [2, 1]
    assert t.rolls.roll_harha(a, b, faces=([5, 7], [6]))["result"].winner == "a"
    # unopposed (H8): the penalty has no pool to go to
    assert len(t.rolls.harha_pool(a).dice) == 1


# -- the roll screens show the rows (the session builds them) ------------------------------------

def a_dice(screen: Any) -> int:
    """The dice side A would throw, as the screen asks the session."""
    if hasattr(screen, "_counts"):
        return sum(screen._counts(screen.a))
    return int(screen.face_counts()[0][0])


@pilot_test
async def test_the_rajapolku_and_harhapolku_roll_screens_show_an_effect_row_on_by_default(tmp_path: Path):
    from polku.tui.screens.roll import HarhaRollScreen, RajaRollScreen, SideList

    for t, cls, cid, other in ((raja_table(), RajaRollScreen, "alyosha", "igor"),
                               (harha_table(), HarhaRollScreen, "lena", "tuomas")):
        t.combat.add_effect(cid, "Blessed", 1, "scene", 1)
        sf = files.create_session(tmp_path / f"{t.system.value}.toml", t)
        app = make_app(t, sf, sessions_dir=tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            screen = cls(t, None, actor=cid)
            app.push_screen(screen)
            await settle(pilot)
            screen.set_who(screen.b, other)
            screen.refresh_view()
            side = screen.query_one("#side-a", SideList)
            row = side.get_option_index("eff:effect: Blessed")
            assert "[x] effect: Blessed +1" in str(side.get_option_at_index(row).prompt)
            assert "effect: Blessed" in screen.pool_text().plain
            n_on = a_dice(screen)
            side.focus()
            side.highlighted = row
            await pilot.press("enter")
            await settle(pilot)
            assert screen.a.effects_off == {"effect: Blessed"}
            assert "[ ] effect: Blessed +1" in str(side.get_option_at_index(row).prompt)
            assert a_dice(screen) == n_on - 1, "turned off: one die fewer to type"
            await pilot.press("enter")
            await pilot.press("r")
            await settle(pilot)
            ev = t.events[-1]
            assert "effect: Blessed" in " ".join(ev["roll"]["explain"])
            await pilot.press("escape")
        sf.close()


@pilot_test
async def test_unopposed_the_harhapolku_screen_says_a_penalty_effect_has_no_side_to_go_to(tmp_path: Path):
    from polku.tui.screens.roll import HarhaRollScreen, SideList

    t = harha_table()
    t.combat.add_effect("lena", "Soaked", -1, "scene", 1)
    sf = files.create_session(tmp_path / "h.toml", t)
    app = make_app(t, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = HarhaRollScreen(t, None, actor="lena")
        app.push_screen(screen)
        await settle(pilot)
        screen.set_who(screen.b, "tuomas")
        screen.refresh_view()
        assert "d8 effect: Soaked" in screen.pool_text().plain.split("\n")[1], "Tuomas gets Lena's penalty die"
        await pilot.press("d")  # unopposed difficult action (H8)
        side = screen.query_one("#side-a", SideList)
        texts = [str(side.get_option_at_index(i).prompt) for i in range(side.option_count)]
        assert any("effect: Soaked: no other side to give its dice to" in x for x in texts), texts
        assert "Soaked" not in screen.pool_text().plain
        sf.close()
