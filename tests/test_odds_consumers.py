"""Every screen, seat, verb and report gives the rules core's answer (issue 22, cases 1–5 and 11).

Each case is checked on the path a user takes: keys on a roll screen, the
``polku odds`` and ``polku export`` output, the review's statistics. The
expected figures come from the rules core or from enumerating the dice with
the rules' own resolvers, never from the consumer under test.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from app_fixtures import demo_session, isolated, make_app, pilot_test, press, settle
from polku.cli import main
from polku.rules import harhapolku as harha
from polku.rules import odds as core
from polku.rules.dice import Die
from polku.rules.system import Settings
from polku.session import demo, files, store
from polku.session.files import document
from polku.session.review.stats import compute
from polku.session.rolls import HarhaSide, RajaSide
from polku.session.tracker import Tracker
from polku.tui.screens.roll import SRRollScreen
from test_rules_path_app import to_row

SIZE = (80, 24)
pytestmark = pytest.mark.usefixtures(isolated.__name__)
ATTRS = {"body": 3, "agility": 3, "reaction": 3, "strength": 3, "charisma": 3, "intuition": 3, "logic": 3,
         "willpower": 3}


def odds_text(screen: Any) -> str:
    return str(screen.query_one("#odds", Static).content)


# -- case 1: the Rajapolku roll screen's degrees follow raja.degrees ------------------------------------


@pilot_test
async def test_case1_raja_roll_screen_degrees_follow_raja_degrees_beyond(tmp_path: Path) -> None:
    """3 dice against 2 under raja.degrees = beyond: 0:66.9% 1:25.3% 2:7.8% (shown to 0 decimals), not the
    'all' distribution (0:15% 1:52% …)."""
    tracker, sf = demo_session(tmp_path, "rajapolku")
    tracker.set_setting("raja.degrees", "beyond")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "r")
        roll = app.screen
        for background in ("Militia", "Runner"):
            await to_row(pilot, roll, f"bg:{background}")
            await press(pilot, "enter")
        await press(pilot, "minus", "d", "a", "r", "k", "enter")  # +1d10 to the other side (R4)
        text = odds_text(roll)
        assert "Alyosha: 3d10" in str(roll.query_one("#pool", Static).content)
        assert "degrees if someone wins: 0:67%  1:25%  2:8%" in text
        want = core.raja_odds(3, 0, 2, 0, Settings(raja_degrees="beyond")).degrees_given_win()
        assert [round(p * 100, 1) for p in want[:3]] == [66.9, 25.3, 7.8]


# -- case 2: the Varjojuoksu teamwork odds follow sr.teamwork_cap = skill --------------------------------


@pilot_test
async def test_case2_sr_teamwork_odds_cap_the_extra_dice_at_the_leaders_skill(tmp_path: Path) -> None:
    t = Tracker.new("shadowrun", "Teamwork", clock=demo.fixed_clock(), seed=3)
    t.add_character("Rook", attributes=ATTRS, skills={"Sneaking": 1})
    t.add_character("Nyx", attributes={**ATTRS, "agility": 5}, skills={"Sneaking": 5})
    t.set_setting("sr.teamwork_cap", "skill")
    sf = files.create_session(tmp_path / "sr.toml", t)
    app = make_app(t, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "r", "t", "t", "t")
        roll = app.screen
        assert isinstance(roll, SRRollScreen)
        assert roll.a.who == "rook" and roll.test == "teamwork"
        await press(pilot, "tab")
        await to_row(pilot, roll, "helper:nyx", "b")
        await press(pilot, "enter", "h", "ctrl+u", "4", "enter")
        text = odds_text(roll)
        # Rook: Sneaking 1 + Agility 3 = 4 dice; Nyx helps with 10; at most 1 extra die (S11)
        assert "success (≥4) 4.5%" in text
        capped = core.sr_teamwork(4, [10], Settings(sr_teamwork_cap="skill"), leader_skill=1).success(4)
        uncapped = core.sr_teamwork(4, [10], Settings()).success(4)
        assert f"success (≥4) {capped:.1%}" in text
        assert f"{uncapped:.1%}" not in text and capped < uncapped / 2


# -- case 3: the review and the export judge a roll by the settings it was made with --------------------


def _export(tmp_path: Path, t: Tracker, capsys: pytest.CaptureFixture[str]) -> list[str]:
    path = tmp_path / "campaign.toml"
    store.write_full(path, document(t.state, t.events, t.last_seq()))
    capsys.readouterr()
    assert main(["export", str(path)]) == 0
    out = capsys.readouterr().out
    return [line for line in out.splitlines() if "expected" in line]


def test_case3_export_luck_of_a_rajapolku_roll_keeps_raja_exhausted(tmp_path, capsys):
    t = Tracker.new("rajapolku", "Luck", clock=demo.fixed_clock(), seed=3)
    t.add_character("Alyosha", backgrounds=["Runner"])
    # 2 dice against 1: with raja.exhausted (the default) a 7 vs a 7 is Alyosha's win (R5)
    t.rolls.roll_raja(RajaSide("Alyosha", ["alyosha"], backgrounds=["Runner"]), RajaSide("GM: the gate"),
                      faces=([7, 3], [7]))
    before = _export(tmp_path, t, capsys)
    t.set_setting("raja.exhausted", False)
    assert _export(tmp_path, t, capsys) == before
    p = core.raja_odds(2, 0, 1, 0, Settings()).a_wins
    assert any(f"{p:.2f} expected" in line for line in before), before


def test_case3_export_luck_of_a_classic_roll_keeps_harha_classic_extra(tmp_path, capsys):
    t = demo.demo_harhapolku()
    t.set_setting("harha.variant", "classic")
    t.rolls.roll_harha(HarhaSide("Lena", ["lena"], general="Island girl", background="Thief"),
                       HarhaSide("Tuomas", ["tuomas"], general="Fisherman"), faces=([3, 2, 2], [7, 4]))
    before = _export(tmp_path, t, capsys)
    t.set_setting("harha.classic_extra", False)
    assert _export(tmp_path, t, capsys) == before


# -- case 4: H8's luck needs the win and the 7+ dice; the sum variant is judged ------------------------


def _h8_success_after_lena_rerolls(fixed: tuple[int, ...]) -> float:
    """P(Lena's fresh 3d8 beat the faces on the table *and* show a 7+), by the rules' own resolvers."""
    wins = 0
    for faces in itertools.product(range(1, 9), repeat=3):
        r = harha.resolve([Die(8, f) for f in faces], [Die(8, f) for f in fixed], "ch23", Settings())
        wins += harha.difficult_opposed(r).success
    return wins / 8**3


def _expected(t: Tracker, cid: str) -> tuple[int, float]:
    c = next(c for c in compute(t).characters if c.cid == cid)
    return c.judged, c.expected_wins


def test_case4_luck_of_an_opposed_difficult_roll_after_an_edge_reroll_needs_the_7_plus_die():
    t = demo.demo_harhapolku()
    judged, expected = _expected(t, "lena")
    r = t.rolls.roll_harha(HarhaSide("Lena", ["lena"], general="Island girl", background="Thief"),
                           HarhaSide("Tuomas", ["tuomas"], general="Fisherman", background="Brawler"),
                           demand="difficult", faces=([3, 2, 2], [3, 2, 1]))
    assert not r["event"]["roll"]["outcome"]["success"]  # won the comparison without a 7+: a failure (H8)
    t.rolls.harha_edge_reroll(r["event"], "a", "lena", "Cold head", faces=[8, 3, 1])
    p = _h8_success_after_lena_rerolls((3, 2, 1))
    judged2, expected2 = _expected(t, "lena")
    assert judged2 == judged + 1
    assert expected2 - expected == pytest.approx(p, abs=1e-9)
    plain = core.harha_reroll_odds((3, 0), (3, 0), (3, 2, 1), Settings()).a_wins
    assert (round(p * 100, 1), round(plain * 100, 1)) == (57.8, 98.0)  # the win alone is not the success


def test_case4_a_sum_variant_roll_is_judged_in_the_review():
    t = demo.demo_harhapolku()
    judged, expected = _expected(t, "lena")
    t.rolls.roll_harha(HarhaSide("Lena", ["lena"], general="Island girl", background="Thief"),
                       HarhaSide("Tuomas", ["tuomas"], general="Fisherman"), variant="sum", faces=([5], [3]))
    roll = t.events[-1]["roll"]
    a_count, b_count = roll["counts"]
    judged2, expected2 = _expected(t, "lena")
    assert judged2 == judged + 1
    # by the rules: Tuomas (the challenger) needs a larger total with his one d8
    totals = [(a_count + x, b_count + y) for x in range(1, 9) for y in range(1, 9)]
    p = sum(1 for a, b in totals if b <= a) / len(totals)
    assert expected2 - expected == pytest.approx(p, abs=1e-12)


# -- case 5: a roll made with the screen's own comparison (v) keeps that comparison ---------------------


@pilot_test
async def test_case5_a_roll_with_the_v_variant_is_logged_with_that_variant(tmp_path: Path) -> None:
    from polku.tui.screens.roll import HarhaRollScreen

    tracker, sf = demo_session(tmp_path, "harhapolku")
    assert tracker.settings.harha_variant == "ch23"
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "r", "v")
        roll = app.screen
        assert isinstance(roll, HarhaRollScreen) and roll.variant == "classic"
        await roll.app.workers.wait_for_complete()
        await press(pilot, "r")
        await settle(pilot)
        ev = tracker.events[-1]
        assert ev["roll"]["test"] == "harhapolku-classic"
        assert ev["roll"]["settings"]["harha.variant"] == "classic"
        assert any("settings: harha.variant = classic" in line for line in roll.result_lines)


# -- case 11: 'some glitch' of an extended test counts the critical glitch too --------------------------


def test_case11_extended_odds_some_glitch_includes_the_critical_glitch(capsys):
    assert main(["odds", "shadowrun", "8", "--extended", "9", "--intervals", "5"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if "some glitch" in x)
    assert re.search(r"some glitch\s+10\.899%", line), line
    ext = core.sr_extended(8, 9, Settings(), 5)
    assert ext.any_glitch == pytest.approx(0.10899, abs=5e-6) and ext.glitch == pytest.approx(0.09321, abs=5e-6)
