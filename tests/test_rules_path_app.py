"""Pilot tests, at 80x24 and by keyboard alone, of the screens where a rule
once went wrong because it was computed outside ``rules/``.

The tracker-level twins of these tests are in ``test_rules_path.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList

from app_fixtures import (
    demo_session,
    isolated,
    make_app,
    option_texts,
    panes,
    pilot_test,
    press,
    screen_text,
    settle,
    typed,
)
from polku.session import demo, files, records
from polku.session.tracker import Tracker
from polku.tui.screens.character import CharacterDetail
from polku.tui.widgets.panes import CharacterPane

SIZE = (80, 24)
pytestmark = pytest.mark.usefixtures(isolated.__name__)


def notes(app: Any) -> list[str]:
    return [n.message for n in app._notifications]


def pool_line(screen: Any) -> str:
    """The roll screen's pool text (below the sides), unwrapped."""
    from textual.widgets import Static

    return str(screen.query_one("#pool", Static).content)


def new_session(tmp_path: Path, system: str) -> tuple[Tracker, files.SessionFile]:
    t = Tracker.new(system, f"Test {system}", clock=demo.fixed_clock(), seed=3)
    return t, files.create_session(tmp_path / f"{system}.toml", t)


# -- S12 monitors on the character sheet and the pane -----------------------------------------------


@pilot_test
async def test_S12_sheet_and_pane_show_11_boxes_for_body_5(tmp_path: Path) -> None:
    tracker, sf = new_session(tmp_path, "shadowrun")
    tracker.add_character("Odd", attributes={"body": 5, "agility": 3, "reaction": 3, "strength": 3,
                                             "charisma": 3, "intuition": 3, "logic": 3, "willpower": 3})
    sf.save_now(tracker)
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "e")
        detail = app.screen
        assert isinstance(detail, CharacterDetail)
        rows = detail.query_one("#detail-rows", OptionList)
        await press(pilot, "home", *["down"] * rows.get_option_index("physical"))
        await press(pilot, "enter", "ctrl+u", "1", "1", "enter")
        await settle(pilot)
        assert records.sr(tracker.characters["odd"])["physical"] == 11
        assert "11/11" in str(rows.get_option("physical").prompt)
        assert "0/10" in str(rows.get_option("stun").prompt)
        await press(pilot, "escape")
        pane = app.main_screen().query_one("#chars", CharacterPane)
        text = "\n".join(option_texts(pane))
        assert "P " + "■" * 11 + "\n" in text + "\n"
        assert "wounds −3" in text


# -- S10: a threshold or hurrying changed between intervals ------------------------------------------


@pilot_test
async def test_S10_roll_screen_uses_the_threshold_and_hurry_changed_after_the_first_interval(tmp_path: Path) -> None:
    from polku.tui.screens.roll import SRRollScreen

    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "1", "end", "s", "r", "w", "2", "t", "t")
        roll = app.screen
        assert isinstance(roll, SRRollScreen) and roll.test == "extended" and roll.a.label == "Nyx"
        chid = roll.challenge_id
        assert chid is not None
        await press(pilot, "f", *typed("5,3,3,4,4,2,3,4,3,4,3"), "enter")
        await settle(pilot)
        assert tracker.challenge(chid)["extended"]["accumulated"] == 1
        await press(pilot, "h", "ctrl+u", "6", "enter", "tab", "down", "enter")
        assert roll.hurried and roll.threshold == 6
        await press(pilot, "f", *typed("5,2,2,2,1,3,3,4,4,2,2"), "enter")
        await settle(pilot)
        ext = tracker.challenge(chid)["extended"]
        assert (ext["accumulated"], ext["threshold"], ext["hurried"]) == (2, 6, True)
        ev = tracker.events[-1]
        assert ev["roll"]["summary"] == "interval 2: 1 hit, 2/6 — serious glitch (1 hit), GM: spoil?"
        assert "2/6 — serious glitch" in screen_text(app)  # the roll screen sizes the glitch (S5)
        assert "done" not in ev["roll"]["summary"]
        await press(pilot, "escape")  # the dice log says the glitch's size too
        assert "2/6 — serious glitch" in [line for line in panes(app)["log"] if line.strip()][-1], "\n".join(panes(app)["log"])


async def to_row(pilot: Pilot, screen: Any, row: str, side: str = "a") -> None:
    """Move the cursor of a roll screen's side list to ``row`` with the arrow keys."""
    from polku.tui.screens.roll import SideList

    lst = screen.query_one(f"#side-{side}", SideList)
    for _ in range(lst.option_count + 1):
        opt = lst.highlighted_option
        if opt is not None and opt.id == row:
            return
        await press(pilot, "down")
    raise AssertionError(f"no row {row} on side {side}")


# -- R9: a wound that removes the only ability die ----------------------------------------------------


@pilot_test
async def test_R9_roll_screen_wounded_igor_pays_nothing_for_a_removed_ability_die(tmp_path: Path) -> None:
    from polku.tui.screens.roll import RajaRollScreen

    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "1", "end", "r", "w", "2")
        roll = app.screen
        assert isinstance(roll, RajaRollScreen) and roll.a.who == "igor-bondarenko"
        await to_row(pilot, roll, "ab:Ape-man strength")
        await press(pilot, "enter")
        assert "wounds remove ✦Ape-man strength (no charge, R9)" in pool_line(roll)
        await press(pilot, "f", "7", "enter", "3", "enter")
        await settle(pilot)
        assert tracker.events[-1]["kind"] == "roll"
        assert records.raja(tracker.characters["igor-bondarenko"])["charges"] == 4
        await press(pilot, "escape")
        assert "4/5" in "\n".join(option_texts(app.main_screen().query_one("#chars", CharacterPane)))


# -- settings changed mid-campaign ---------------------------------------------------------------------


@pilot_test
async def test_settings_screen_changes_a_setting_logged_undoable_and_the_roll_shows_it(tmp_path: Path) -> None:
    from polku.tui.screens.roll import RajaRollScreen
    from polku.tui.screens.settings import SettingsScreen

    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "S")
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        assert "raja.full_tie" in screen_text(app)
        rows = screen.query_one("#settings-rows", OptionList)
        assert rows.highlighted_option is not None
        while rows.highlighted_option.id != "raja.full_tie":
            await press(pilot, "down")
        await press(pilot, "enter")
        await settle(pilot)
        assert tracker.settings.raja_full_tie == "defender"
        assert tracker.events[-1]["text"] == "Setting raja.full_tie (R5): reroll → defender"
        assert "defender" in str(rows.get_option("raja.full_tie").prompt)
        await press(pilot, "u")
        assert tracker.settings.raja_full_tie == "reroll"
        assert "reroll  (default)" in str(rows.get_option("raja.full_tie").prompt)
        await press(pilot, "U", "escape")
        assert tracker.settings.raja_full_tie == "defender"
        # a tie now holds for the defender, and the result names the settings used
        await press(pilot, "1", "end", "r")
        roll = app.screen
        assert isinstance(roll, RajaRollScreen)
        await press(pilot, "f", "7", "enter", "7", "enter")
        await settle(pilot)
        assert any("raja.full_tie = defender" in line for line in roll.result_lines)
        assert "holds" in tracker.events[-1]["roll"]["summary"]


@pilot_test
async def test_palette_finds_a_setting_by_its_key(tmp_path: Path) -> None:
    from polku.tui.screens.settings import SettingsScreen

    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "ctrl+p", *typed("sr.glitch"))
        await pilot.pause(0.3)
        await press(pilot, "enter")
        assert isinstance(app.screen, SettingsScreen)
        assert app.screen.highlighted_key() == "sr.glitch_rerolls"
        await press(pilot, "enter")
        await settle(pilot)
        assert tracker.settings.sr_glitch_rerolls is False


# -- S7 on an opposed test, S11 helpers, H7 after H8, H6 sum, R11 spirit combat in the roll screens ------------


@pilot_test
async def test_S7_roll_screen_defender_npc_spends_edge_after_an_opposed_roll(tmp_path: Path) -> None:
    from polku.tui.screens.prompts import ChoicePrompt
    from polku.tui.screens.roll import SRRollScreen

    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "1", "end", "s", "r", "t")
        roll = app.screen
        assert isinstance(roll, SRRollScreen) and roll.test == "opposed"
        await press(pilot, "tab", "w", "3")
        assert roll.b.who == "ganger"
        await press(pilot, "r")
        await settle(pilot)
        first = tracker.events[-1]["seq"]
        await press(pilot, "e")
        assert isinstance(app.screen, ChoicePrompt)  # both Kaneda and the Ganger have Edge: whose roll?
        await press(pilot, "2")
        await settle(pilot)
        assert records.sr(tracker.characters["ganger"])["edge"] == 0
        ev = tracker.events[-1]
        assert ev["roll"]["supersedes"] == first and ev["roll"]["test"] == "shadowrun-opposed"
        assert any(d["source"] == "edge" for d in ev["roll"]["sides"][1]["dice"])


@pilot_test
async def test_S11_roll_screen_helper_rolls_their_own_pool_and_the_gm_can_override_it(tmp_path: Path) -> None:
    from polku.tui.screens.roll import SRRollScreen

    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "1", "end", "s", "r", "w", "1", "t", "t", "t")  # Nyx acts (▶): w 1 is Kaneda
        roll = app.screen
        assert isinstance(roll, SRRollScreen) and roll.test == "teamwork"
        await press(pilot, "tab")
        await to_row(pilot, roll, "helper:nyx", "b")
        await press(pilot, "enter")
        rows = option_texts(roll.query_one("#side-b"))
        assert "[x] Nyx helps (2 dice, own pool)" in rows  # no Sneaking: Agility 3 − 1 (S2)
        await press(pilot, "o", "ctrl+u", "4", "enter")
        assert "[x] Nyx helps (4 dice, GM's pool)" in option_texts(roll.query_one("#side-b"))
        await press(pilot, "r")
        await settle(pilot)
        sides = tracker.events[-1]["roll"]["sides"]
        assert sides[0]["label"] == "Nyx" and len(sides[0]["dice"]) == 4


@pilot_test
async def test_H7_roll_screen_edge_reroll_after_an_unopposed_difficult_roll(tmp_path: Path) -> None:
    from polku.tui.screens.roll import HarhaRollScreen

    tracker, sf = demo_session(tmp_path, "harhapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "r", "d")
        roll = app.screen
        assert isinstance(roll, HarhaRollScreen) and roll.difficult and roll.a.who == "lena"
        await press(pilot, "f", "3", "enter")
        await settle(pilot)
        ev = tracker.events[-1]
        assert ev["roll"]["test"] == "harhapolku-difficult" and not ev["roll"]["outcome"]["success"]
        assert any("e: reroll" in line for line in roll.result_lines)
        await press(pilot, "e", "1")
        await settle(pilot)
        # The roll was typed from physical dice, so the reroll asks for the new face of the d8 too.
        assert "1d8" in screen_text(app)
        await press(pilot, "8", "enter")
        await settle(pilot)
        after = tracker.events[-1]
        assert after["roll"]["rerolls"] == ev["seq"] and after["roll"]["test"] == "harhapolku-difficult"
        assert [d["face"] for d in after["roll"]["sides"][0]["dice"]] == [8] and after["roll"]["manual"]
        assert after["roll"]["outcome"]["success"]
        assert [e["used"] for e in records.harha(tracker.characters["lena"])["edges"]] == [True, True]


@pilot_test
async def test_H6_roll_screen_sum_variant_rolls_one_die_and_adds_the_count(tmp_path: Path) -> None:
    from polku.tui.screens.roll import HarhaRollScreen

    tracker, sf = demo_session(tmp_path, "harhapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "r", "v", "v", "v")
        roll = app.screen
        assert isinstance(roll, HarhaRollScreen) and roll.variant == "sum"
        assert "sum (H6)" in pool_line(roll)
        await press(pilot, "f", "2", "enter", "5", "enter")
        await settle(pilot)
        out = tracker.events[-1]["roll"]
        assert out["test"] == "harhapolku-sum"
        assert (out["outcome"]["a_total"], out["outcome"]["b_total"]) == (3, 6)
        assert out["outcome"]["winner"] == "b"


@pilot_test
async def test_R11_roll_screen_spirit_combat_entry_once_and_a_third_exchange(tmp_path: Path) -> None:
    from polku.tui.screens.roll import RajaRollScreen

    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "1", "end", "up", "r", "k")
        roll = app.screen
        assert isinstance(roll, RajaRollScreen) and roll.spirit and roll.b.who == "ghost-of-the-nurse"
        await press(pilot, "f", *typed("9,1,1,1"), "enter", *typed("8,1,1,1,1"), "enter")
        await settle(pilot)
        ch = tracker.characters
        assert (records.raja(ch["alyosha"])["charges"], records.raja(ch["ghost-of-the-nurse"])["charges"]) == (4, 4)
        await press(pilot, "f", *typed("9,1,1,1"), "enter", *typed("8,1,1,1"), "enter")
        await settle(pilot)
        assert (records.raja(ch["alyosha"])["charges"], records.raja(ch["ghost-of-the-nurse"])["charges"]) == (4, 3)  # winner loses nothing
        await press(pilot, "f", *typed("2,1,1,1"), "enter", *typed("8,1,1"), "enter")
        await settle(pilot)
        assert (records.raja(ch["alyosha"])["charges"], records.raja(ch["ghost-of-the-nurse"])["charges"]) == (3, 3)
        assert tracker.events[-1]["roll"]["outcome"]["fight"]["exchanges"] == 3


@pilot_test
async def test_H8_roll_screen_opposed_odds_count_the_7_plus_dice(tmp_path: Path) -> None:
    """With H8's demand on an opposed roll, the odds shown are the actor's chance to
    win the comparison *and* show the 7+ die, not the comparison alone."""
    from polku.rules.odds import harha_difficult_opposed
    from polku.tui.screens.roll import HarhaRollScreen

    tracker, sf = demo_session(tmp_path, "harhapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "r", "8")
        roll = app.screen
        assert isinstance(roll, HarhaRollScreen) and roll.demand == "difficult"
        from textual.widgets import Static

        text = str(roll.query_one("#odds", Static).content)
        o = harha_difficult_opposed(roll._counts(roll.a), roll._counts(roll.b),
                                    tracker.settings.with_value("harha.variant", roll.variant))
        assert "wins with a 7+ die" in text and f"{o.success:.1%}" in text
        assert f"wins without {o.won_without:.1%}" in text


def odds_box(screen: Any) -> str:
    from textual.widgets import Static

    return str(screen.query_one("#odds", Static).content)


@pilot_test
async def test_H8_sum_one_die_roll_screen_rolls_one_die_and_says_very_demanding_cannot_succeed(tmp_path: Path) -> None:
    """harha.sum_difficult = one_die: under the sum variant an unopposed difficult action rolls one
    die (odds 25% for a d8, as `polku odds … --difficult --set harha.variant=sum`), and a very
    demanding one shows 0% with the notice before the roll."""
    from polku.rules.harhapolku import SUM_VERY_DEMANDING
    from polku.tui.screens.roll import HarhaRollScreen

    tracker, sf = demo_session(tmp_path, "harhapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "r", "v", "v", "v", "d")
        roll = app.screen
        assert isinstance(roll, HarhaRollScreen) and roll.variant == "sum" and roll.difficult
        assert "Odds  success 25.0%" in odds_box(roll)
        await press(pilot, "D")
        assert roll.demanding and "Odds  success 0%" in odds_box(roll)
        assert SUM_VERY_DEMANDING in odds_box(roll).replace("\n", " ")
        await press(pilot, "f", "8", "enter")
        await settle(pilot)
        out = tracker.events[-1]["roll"]
        assert out["test"] == "harhapolku-difficult" and out["variant"] == "sum"
        assert [d["face"] for d in out["sides"][0]["dice"]] == [8] and not out["outcome"]["success"]
        assert out["explain"][1] == SUM_VERY_DEMANDING


@pilot_test
async def test_H8_sum_refuse_roll_screen_does_not_offer_a_difficult_action(tmp_path: Path) -> None:
    from polku.rules.harhapolku import SUM_REFUSED
    from polku.tui.screens.roll import HarhaRollScreen

    tracker, sf = demo_session(tmp_path, "harhapolku")
    tracker.set_setting("harha.sum_difficult", "refuse")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "r", "v", "v", "v")
        roll = app.screen
        assert isinstance(roll, HarhaRollScreen) and roll.variant == "sum"
        await press(pilot, "d", "D", "8")
        assert not roll.difficult and not roll.demanding and roll.demand == ""
        assert notes(app).count(SUM_REFUSED) == 3
        # an unopposed difficult action already chosen is dropped when the variant becomes sum
        await press(pilot, "v", "d", "v", "v", "v")
        assert roll.variant == "sum" and not roll.difficult
        before = len(tracker.events)
        await press(pilot, "r")
        await settle(pilot)
        assert tracker.events[-1]["roll"]["test"] == "harhapolku-sum" and len(tracker.events) > before


@pilot_test
async def test_H4_roll_screen_the_gm_takes_away_the_always_die_and_the_actor_fails(tmp_path: Path) -> None:
    """The "1d8 always" row is a toggle (H4): with no die at all the odds are 0% and the roll fails
    with the challenger's reason, as `polku odds harhapolku 0d8 …` says."""
    from polku.tui.screens.roll import HarhaRollScreen

    tracker, sf = demo_session(tmp_path, "harhapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "r")
        roll = app.screen
        assert isinstance(roll, HarhaRollScreen)
        side_a = roll.query_one("#side-a", OptionList)
        assert "[x] 1d8 always (H2)" in option_texts(side_a)
        for i, r in enumerate(option_texts(side_a)):  # the actor claims nothing: the always die is its only one
            if r.startswith("[x] +1"):
                await press(pilot, "home", *["down"] * i, "enter")
        await press(pilot, "0")
        assert ("[ ] 1d8 always — taken away (0): with no die the action fails (H4)"
                in option_texts(side_a))
        assert "Lena: 0d8" in pool_line(roll)
        assert f"Odds  {roll.a.short} 0%   tie 0%   {roll.b.short} 100%" in odds_box(roll)
        await press(pilot, "r")
        await settle(pilot)
        out = tracker.events[-1]["roll"]
        assert out["sides"][0]["dice"] == []
        assert (out["outcome"]["winner"], out["outcome"]["reason"]) == ("b", "actor_no_dice")
        assert "the actor cannot roll a single die" in " ".join(out["explain"])
        # the unopposed difficult action: no die, 0%, a failure
        await press(pilot, "d")
        assert "Odds  success 0%" in odds_box(roll)


@pilot_test
async def test_R11_spirit_wounds_the_roll_screen_rolls_a_wounded_fighters_charges_less_the_wound(tmp_path: Path) -> None:
    """raja.spirit_wounds (default true): Alyosha, Badly wounded (−2), enters with 5 charges and rolls
    4 − 2 = 2 dice after the entry; the row says why, the faces prompt asks for 2, her charges stay."""
    from polku.tui.screens.roll import RajaRollScreen

    tracker, sf = demo_session(tmp_path, "rajapolku")
    tracker.set_wound("alyosha", "Badly wounded")
    before = records.raja(tracker.characters["alyosha"])["charges"]
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "1", "end", "up", "r", "k")
        roll = app.screen
        assert isinstance(roll, RajaRollScreen) and roll.spirit and roll.a.who == "alyosha"
        rows = option_texts(roll.query_one("#side-a", OptionList))
        left = before - 1
        assert f"charges {before}: 1 to enter, rolls {left - 2}d10" in rows
        assert "Badly wounded: −2 dice (R9, raja.spirit_wounds)" in rows
        await press(pilot, "f", *typed(",".join(["9"] * (left - 2))), "enter", *typed("8,1,1,1,1"), "enter")
        await settle(pilot)
        out = tracker.events[-1]["roll"]
        assert len(out["sides"][0]["dice"]) == left - 2 and out["settings"]["raja.spirit_wounds"] is True
        assert records.raja(tracker.characters["alyosha"])["charges"] == left  # the winner loses nothing
        # the Nurse (6, 5 after the entry) loses Alyosha's degrees: each of her 9s is above the 8
        assert records.raja(tracker.characters["ghost-of-the-nurse"])["charges"] == 5 - (left - 2)


@pilot_test
async def test_a_d10_face_typed_as_0_is_10_in_the_faces_prompt_and_a_d6_0_is_refused_there(tmp_path: Path) -> None:
    from polku.tui.screens.prompts import FacesPrompt
    from polku.tui.screens.roll import RajaRollScreen, SRRollScreen

    tracker, sf = demo_session(tmp_path, "rajapolku")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "r")
        roll = app.screen
        assert isinstance(roll, RajaRollScreen)
        (na, _), (nb, _) = roll.face_counts()
        await press(pilot, "f", *typed(",".join(["0"] + ["1"] * (na - 1))), "enter",
                    *typed(",".join(["9"] * nb)), "enter")
        await settle(pilot)
        out = tracker.events[-1]["roll"]
        assert out["sides"][0]["dice"][0]["face"] == 10 and out["outcome"]["winner"] == "a"

    tracker, sf = demo_session(tmp_path / "sr", "varjojuoksu")
    app = make_app(tracker, sf, sessions_dir=tmp_path / "sr")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "1", "end", "r")
        assert isinstance(app.screen, SRRollScreen)
        before = len(tracker.events)
        await press(pilot, "f", *typed("0"), "enter")
        assert isinstance(app.screen, FacesPrompt)  # the prompt stays open with the one-line reason
        assert "face 0 cannot show on a d6 (1–6; only a d10's 0 means 10)" in screen_text(app)
        assert len(tracker.events) == before


@pilot_test
async def test_R9_sheet_and_wound_prompt_say_badly_wounded_worsens_and_mortally_wounded_dies_without_care(
        tmp_path: Path) -> None:
    tracker, sf = demo_session(tmp_path, "rajapolku")
    tracker.set_wound("alyosha", "Badly wounded")
    assert tracker.events[-1]["text"] == "Alyosha: Healthy → Badly wounded (worsens without hospital care)"
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "1", "home", "e")
        detail = app.screen
        assert isinstance(detail, CharacterDetail) and detail.cid == "alyosha"
        rows = detail.query_one("#detail-rows", OptionList)
        assert "Badly wounded  −2 dice, worsens without hospital care" in str(rows.get_option("wound").prompt)
        await press(pilot, "home", *["down"] * rows.get_option_index("wound"), "enter")
        prompt = screen_text(app)
        assert "Badly wounded — −2 dice, worsens without hospital care" in prompt
        assert "Mortally wounded — −3 dice, dies without hospital care" in prompt
    tracker.move_wound("alyosha", 1)
    assert tracker.events[-1]["text"] == "Alyosha: Badly wounded → Mortally wounded (worse; dies without hospital care)"


@pilot_test
async def test_H7_the_narration_screen_offers_an_edge_reroll_of_the_dice_in_hand(tmp_path: Path) -> None:
    tracker, sf = demo_session(tmp_path, "harhapolku")
    before = [d.face for d in tracker.rolls.narration().hand("Tuomas")]
    assert before and not records.harha(tracker.characters["tuomas"])["edges"][0]["used"]
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "h", "e")
        assert "Tuomas: edge 'Iron grip' — reroll 3 dice in hand" in screen_text(app)
        await press(pilot, "enter")
        await settle(pilot)
    assert records.harha(tracker.characters["tuomas"])["edges"][0]["used"]
    after = tracker.rolls.narration().hand("Tuomas")
    assert [d.replaced for d in after] == [(f,) for f in before]
    assert tracker.events[-1]["text"].endswith("with edge 'Iron grip' (H7)")
