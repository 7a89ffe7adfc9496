"""The table's own answers, by keys at 80x24 (issue 22, "Table"): a command acts on the
character the rules say, not on whoever happens to be selected.

- S10: an extended test keeps its roller and pool, whoever is selected when it is reopened.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app_fixtures import isolated, isolated_here, make_app, pilot_test, press, screen_text, settle, typed
from polku.session import demo, files, records
from polku.session.commands import command
from polku.session.host import TrackerError
from polku.session.rolls import SRPool, SRSide
from polku.session.tracker import Tracker

SIZE = (80, 24)
pytestmark = pytest.mark.usefixtures(isolated.__name__)

ATTRS = {"body": 3, "agility": 3, "reaction": 3, "strength": 3, "charisma": 3, "intuition": 3, "logic": 3,
         "willpower": 3}


def notes(app: Any) -> list[str]:
    """Every notification the app has shown, oldest first (kept here: a toast may time out on a busy machine)."""
    seen: list[str] | None = getattr(app, "_seen_notes", None)
    if seen is None:
        seen = app._seen_notes = []
        shown = app.notify

        def notify(message: str, *args: Any, **kwargs: Any) -> None:
            seen.append(str(message))
            shown(message, *args, **kwargs)

        app.notify = notify
    return seen


def runners(tmp_path: Path) -> tuple[Tracker, files.SessionFile]:
    """Byte the hacker (Hacking 5 + Logic 6, Computer 2 listed first) and Razor the gunman (Pistols 6 + Agility 6)."""
    t = Tracker.new("shadowrun", "Table", clock=demo.fixed_clock(), seed=3)
    t.add_character("Byte", attributes={**ATTRS, "logic": 6}, skills={"Computer": 2, "Hacking": 5})
    t.add_character("Razor", attributes={**ATTRS, "agility": 6}, skills={"Pistols": 6})
    return t, files.create_session(tmp_path / "table.toml", t)


async def select(pilot: Any, pane: str, row: int) -> None:
    """Focus pane 1 (the queue) or 2 (the characters) and put the cursor on its row ``row``."""
    await press(pilot, pane, "home", *["down"] * row)


# -- case 6: S10, the extended test keeps its roller ---------------------------------------------------


@pilot_test
async def test_S10_the_next_interval_is_rolled_by_the_tests_roller_with_its_pool_not_the_selected_one(
        tmp_path: Path) -> None:
    from polku.tui.screens.roll import SRRollScreen

    tracker, sf = runners(tmp_path)
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    notes(app)  # from the start
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        # Byte begins an extended Hacking test, a free roll with a modifier: "Extended test: Byte".
        await select(pilot, "2", 0)
        await press(pilot, "r")
        roll = app.screen
        assert isinstance(roll, SRRollScreen) and roll.a.who == "byte"
        await press(pilot, "down", "enter", "down", "enter")  # Skill: Hacking (the second listed)
        assert roll.a.sr.skill == "Hacking"
        await press(pilot, "plus", *typed("noisy host -1"), "enter", "t", "t", "h", "ctrl+u", "1", "5", "enter")
        await press(pilot, "f", *typed("5,5,1,2,3,4,2,3,4,2"), "enter")
        await settle(pilot)
        chid = roll.challenge_id
        assert chid is not None and tracker.challenge(chid)["title"] == "Extended test: Byte"
        assert tracker.challenge(chid)["extended"]["accumulated"] == 2
        await press(pilot, "escape")
        # Razor is selected; the GM reopens the test from the queue.
        await select(pilot, "2", 1)
        await select(pilot, "1", 0)
        await press(pilot, "r")
        roll = app.screen
        assert isinstance(roll, SRRollScreen) and roll.test == "extended"
        assert "Byte: Hacking 5 + Logic 6 − 1 (noisy host) = 10 dice" in screen_text(app)
        assert "Razor" not in screen_text(app).split("progress")[0]
        await press(pilot, "w")
        assert notes(app)[-1].startswith("Byte rolls every interval of this extended test (S10)")
        await press(pilot, "f", *typed("5,6,1,2,3,4,2,3,4,2"), "enter")
        await settle(pilot)
        ev = tracker.events[-1]
        assert ev["roll"]["sides"][0]["who"] == ["byte"]
        assert ev["text"].startswith("Byte, extended test: interval 2: 2 hits, 4/15")
        assert tracker.challenge(chid)["extended"]["accumulated"] == 4


def test_S10_an_interval_for_another_roller_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    t, _ = runners(tmp_path)
    chid = t.add_challenge("Crack the host")["id"]
    hack = SRPool(mode="skill", skill="Hacking", attribute="logic")
    t.rolls.roll_sr_extended(t.rolls.sr_side("byte", hack), chid, threshold=8, faces=[5] + [2] * 10, pool=hack)
    before = (len(t.events), t.challenge(chid))
    razor = t.rolls.sr_side("razor", SRPool(mode="skill", skill="Pistols", attribute="agility"))
    with pytest.raises(TrackerError, match=r"^Byte rolls every interval of this extended test \(S10\)"):
        t.rolls.roll_sr_extended(razor, chid, faces=[5] * 12)
    assert (len(t.events), t.challenge(chid)) == before
    # The GM may change the pool between intervals; the roller stays (and is kept from the players).
    fewer = SRPool(mode="skill", skill="Hacking", attribute="logic", modifiers=[("noisy host", -2)])
    t.rolls.roll_sr_extended(t.rolls.sr_side("byte", fewer), chid, faces=[2] * 9, pool=fewer)
    kept = t.rolls.sr_extended_roller(chid)
    assert kept is not None and (kept.who, kept.pool) == ("byte", fewer)
    from polku.session.players.public import public_view

    assert "roller" not in public_view(t).state["challenges"][0]


def test_S10_an_older_files_test_takes_its_roller_from_its_last_interval(tmp_path: Path) -> None:
    t, _ = runners(tmp_path)
    chid = t.add_challenge("Crack the host")["id"]
    t.rolls.roll_sr_extended(SRSide("Byte", ["byte"], dice=3), chid, threshold=8, faces=[5, 1, 1])
    t.state["challenges"][0].pop("roller")  # as a file written before the roller was kept
    kept = t.rolls.sr_extended_roller(chid)
    assert kept is not None and (kept.who, kept.pool) == ("byte", None)
    with pytest.raises(TrackerError, match="Byte rolls every interval"):
        t.rolls.roll_sr_extended(SRSide("Razor", ["razor"], dice=3), chid, faces=[5, 5, 5])



# -- case 8: R11, the GM ends a spirit combat from a reopened roll screen ---------------------------------


def ghost_fight(tmp_path: Path) -> tuple[Tracker, files.SessionFile]:
    t = Tracker.new("rajapolku", "Table", clock=demo.fixed_clock(), seed=3)
    t.add_character("Alyosha", charges=5, charges_max=5)
    t.add_character("Ghost", kind="npc", charges=6, charges_max=6)
    t.add_challenge("The ghost attacks", ["alyosha"], ["ghost"])
    return t, files.create_session(tmp_path / "table.toml", t)


@pilot_test
async def test_R11_x_ends_the_spirit_combat_after_the_roll_screen_is_reopened(tmp_path: Path) -> None:
    from polku.tui.screens.roll import RajaRollScreen

    tracker, sf = ghost_fight(tmp_path)
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    notes(app)  # from the start
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await select(pilot, "1", 0)
        await press(pilot, "r", "k", "f", *typed("7 2 4 5"), "enter", *typed("1 7 9 10 9"), "enter")
        await settle(pilot)
        assert tracker.challenge("c1")["spirit"]["exchanges"] == 1
        await press(pilot, "escape")
        await select(pilot, "1", 0)
        await press(pilot, "r")
        roll = app.screen
        assert isinstance(roll, RajaRollScreen) and roll.spirit
        assert "Spirit combat (R11), exchange 2" in screen_text(app)
        await press(pilot, "x")
        await settle(pilot)
        assert tracker.challenge("c1")["spirit"]["ended"] and tracker.challenge("c1")["status"] == "resolved"
        assert tracker.events[-1]["text"] == "The ghost attacks: the GM ends the spirit combat after 1 exchange (R11)"
        assert "the GM ends the spirit combat after 1 exchange" in screen_text(app)
        await press(pilot, "x")
        assert notes(app)[-1] == "the fight is already over (R11)"


@pilot_test
async def test_R11_a_reopened_spirit_combat_rolls_its_next_exchange_not_a_plain_challenge(tmp_path: Path) -> None:
    tracker, sf = ghost_fight(tmp_path)
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    notes(app)  # from the start
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await select(pilot, "1", 0)
        await press(pilot, "r", "k", "f", *typed("7 2 4 5"), "enter", *typed("1 7 9 10 9"), "enter")
        await settle(pilot)
        await press(pilot, "escape")
        await select(pilot, "1", 0)
        await press(pilot, "r", "f", "8", "enter", *typed("1 2 3 4 5"), "enter")
        await settle(pilot)
        ev = tracker.events[-1]
        assert ev["roll"]["test"] == "spirit"
        assert ev["text"].startswith("Spirit combat Alyosha vs Ghost, exchange 2: Alyosha wins")
        assert records.raja(tracker.characters["ghost"])["charges"] == 4


def test_R11_spirit_actions_answer_for_the_challenge_without_a_roll_of_this_sitting(tmp_path: Path) -> None:
    t, _ = ghost_fight(tmp_path)
    assert [(a.name, a.allowed, a.reason) for a in t.rolls.spirit_actions("c1")][1] == (
        "end_fight", False, "no spirit combat is under way on this challenge (R11)")
    t.rolls.roll_spirit("alyosha", "ghost", challenge="c1", faces=([7, 2, 4, 5], [1, 7, 9, 10, 9]))
    assert [(a.name, a.allowed) for a in t.rolls.spirit_actions("c1")] == [("next_exchange", True),
                                                                           ("end_fight", True)]
    assert t.rolls.spirit_fighters("c1") == ("alyosha", "ghost")



# -- case 9: H9, each background once per scene, whatever its letter case ---------------------------------


def villagers(tmp_path: Path) -> tuple[Tracker, files.SessionFile]:
    t = Tracker.new("harhapolku", "Table", clock=demo.fixed_clock(), seed=3)
    t.add_character("Lena", backgrounds=[{"name": "Villager", "tier": "plain"},
                                         {"name": "Dream-walker", "tier": "special"}])
    return t, files.create_session(tmp_path / "table.toml", t)


@pilot_test
async def test_H9_a_background_typed_in_another_letter_case_is_not_rolled_again_in_the_scene(tmp_path: Path) -> None:
    from polku.tui.screens.prompts import ChoicePrompt

    tracker, sf = villagers(tmp_path)
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    notes(app)  # from the start
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        # h: the narration contest; b: Lena rolls "another background", typed as " villager ".
        await press(pilot, "h", "b", "enter", "end", "enter", *typed(" villager "), "enter")
        await settle(pilot)
        assert tracker.events[-1]["text"].startswith("Lena rolls villager: ")
        # The sheet's "Villager" is no longer offered; typing "Villager" is refused in one line.
        await press(pilot, "b", "enter")
        assert isinstance(app.screen, ChoicePrompt)
        from textual.widgets import OptionList

        from app_fixtures import option_texts

        assert option_texts(app.screen.query_one(OptionList)) == ["1. Dream-walker (d10)", "2. another background… (d8)"]
        await press(pilot, "end", "enter", *typed("Villager"), "enter")
        await settle(pilot)
        assert notes(app)[-1] == "Lena already rolled villager this scene (H9)"
        assert tracker.events[-1]["text"].startswith("Lena rolls villager: ")
        assert [d["label"] for d in tracker.state["narration"]["hands"]["Lena"]] == ["villager"]
        assert "Lena: " in screen_text(app) and "(rolled this scene: villager)" in screen_text(app)


def test_H9_one_background_whatever_its_spelling_and_the_first_spelling_is_kept() -> None:
    from polku.rules.dice import ManualSource
    from polku.rules.harhapolku import NarrationContest, RulesError, background_key

    assert background_key("  Street   Wise ") == background_key("street wise") == "street wise"
    c = NarrationContest().roll_background("Lena", "Villager", ManualSource([6])).state
    for spelling in ("villager", " VILLAGER ", "VillAger"):
        with pytest.raises(RulesError, match=r"^Lena already rolled Villager this scene \(H9\)$"):
            c.roll_background("Lena", spelling, ManualSource([3]))
    assert c.rolled_as("Lena", "villager") == "Villager" and c.rolled_as("Tuomas", "villager") is None
    c2 = c.roll_background("Tuomas", "villager", ManualSource([3])).state
    assert c2.rolled_backgrounds("Tuomas") == {"villager"}



# -- case 7: S12, a fighter who cannot act is skipped, shown as such, everywhere -------------------------


def street_fight(tmp_path: Path) -> tuple[Tracker, files.SessionFile]:
    """The demo's three, and Razor (a player character): initiative Razor 17, Kaneda 10, Nyx 8, Ganger 6."""
    from app_fixtures import demo_session

    tmp_path.mkdir(exist_ok=True)
    t, sf = demo_session(tmp_path, "varjojuoksu")
    t.add_character("Razor", kind="pc", attributes={**ATTRS, "reaction": 5, "intuition": 5})
    t.set_condition("kaneda", "physical", 0)
    t.rolls.roll_initiative([("kaneda", 1), ("nyx", 1), ("ganger", 1), ("razor", 1)],
                            faces=[5, 5, 1, 1, 1, 1, 1, 1] + [1] * 8 + [1] * 6 + [5] * 7 + [1] * 3)
    sf.save_now(t)
    return t, sf


async def pick(pilot: Any, name: str) -> None:
    """Focus the characters and put the cursor on ``name``."""
    from app_fixtures import option_texts
    from polku.tui.widgets.panes import CharacterPane

    texts = option_texts(pilot.app.main_screen().query_one("#chars", CharacterPane))
    await select(pilot, "2", next(i for i, t in enumerate(texts) if t.lstrip("▸ ").startswith(name)))


@pilot_test
async def test_S12_the_unconscious_and_the_dying_are_skipped_shown_and_left_out_of_the_next_initiative(
        tmp_path: Path) -> None:
    from app_fixtures import option_texts
    from polku.tui.screens.roll import InitiativeScreen
    from polku.tui.widgets.panes import TurnOrder

    tracker, sf = street_fight(tmp_path)
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    notes(app)  # from the start
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        order = app.main_screen().query_one(TurnOrder)
        assert order.lines[1].startswith("▶ 17 Razor")
        # Razor (a player character) is knocked out by stun (m), the Ganger is dying (w): physical full.
        await pick(pilot, "Razor")
        await press(pilot, *["m"] * 10)
        await pick(pilot, "Ganger")
        await press(pilot, *["w"] * 10)
        await settle(pilot)
        assert tracker.combat.down("razor") == "unconscious" and tracker.combat.down("ganger").startswith("dying")
        assert order.lines[1:] == ["✗ 14 Razor  unconscious", "· 10 Kaneda", "·  8 Nyx",
                                   "✗  3 Ganger  dying"]
        await press(pilot, "space")
        await settle(pilot)
        assert order.lines[2].startswith("▶ 10 Kaneda")
        await press(pilot, "space")
        await settle(pilot)
        assert order.lines[3].startswith("▶  8 Nyx")
        await press(pilot, "space")  # Nyx is the last who can act: the turn is over, initiative is asked for
        await settle(pilot)
        assert tracker.combat.acting() is None and not any(line.startswith("▶") for line in order.lines)
        assert isinstance(app.screen, InitiativeScreen)
        rows = option_texts(app.screen.query_one("#ini-list"))  # type: ignore[arg-type]
        chosen = {r.split("  ")[0][4:]: r.startswith("[x]") for r in rows}
        assert chosen == {"Kaneda": True, "Nyx": True, "Ganger": False, "Razor": False}


def test_S12_the_players_turn_order_skips_the_same_fighters(tmp_path: Path) -> None:
    from polku.session.players.public import public_view
    from polku.tui.widgets.panes import turn_rows

    t, _ = street_fight(tmp_path)
    t.set_condition("razor", "stun", t.condition_monitor("razor", "stun"))
    players = public_view(t)
    assert [(r.name, r.status) for r in players.combat.rows()] == [(r.name, r.status) for r in t.combat.rows()] == [
        ("Razor", "down"), ("Kaneda", "waiting"), ("Nyx", "waiting"), ("Ganger", "waiting")]
    assert [x.plain for x in turn_rows(players, {})][1] == "✗ 14 Razor  unconscious"
    t.combat.next()
    assert t.combat.acting() == "kaneda" and public_view(t).combat.acting() == "kaneda"
    with pytest.raises(TrackerError, match="^Razor cannot act: unconscious$"):
        t.state["combat"]["held"] = ["razor"]
        t.combat.step_in("razor")


@pytest.mark.parametrize("boxes", [(10, 0), (0, 10), (10, 10)], ids=["dying", "unconscious", "both"])
def test_S12_one_answer_for_can_this_fighter_act(tmp_path: Path, boxes: tuple[int, int]) -> None:
    """The marker, "next", the next initiative's defaults and "remove the fallen" agree, player character or not."""
    t, _ = street_fight(tmp_path)
    for cid in ("razor", "ganger"):
        for track, n in zip(("physical", "stun"), boxes):
            if n:
                t.set_condition(cid, track, min(n, t.condition_monitor(cid, track)))
    assert t.combat.down("razor") and t.combat.down("ganger")
    defaults = t.combat.default_fighters()
    assert {cid for cid, (chosen, _) in defaults.items() if not chosen} == {"razor", "ganger"}
    acted = []
    t.state["combat"]["acting"] = ""  # as if the acting fighter had just acted
    while t.combat.block and t.combat.block["pass"]:
        t.combat.next()
        if t.combat.acting():
            acted.append(t.combat.acting())
    assert acted == ["kaneda", "nyx"]
    assert t.roster.fallen() == ["ganger"]  # player characters stay on the sheet; both sit out the fight



# -- case 10: S9 a stalemate deals no damage; S12 the true overflow; S11 who leads ---------------------------


def kaneda_shoots(app: Any, a_faces: list[int], b_faces: list[int]) -> None:
    """Kaneda shoots the Ganger (an opposed test, S9), as the roll screen would log it."""
    app.run_command(command("rolls.roll_sr_opposed", SRSide("Kaneda", ["kaneda"], dice=len(a_faces)),
                                                     SRSide("Ganger", ["ganger"], dice=len(b_faces)),
                                                     faces=(a_faces, b_faces)))


@pytest.mark.parametrize("who", ["Ganger", "Kaneda"])
@pilot_test
async def test_S9_D_after_a_stalemate_offers_no_damage_and_says_why(tmp_path: Path, who: str) -> None:
    from app_fixtures import demo_session
    from polku.tui.screens.damage import DamageScreen

    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    notes(app)  # from the start
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        kaneda_shoots(app, [5, 2, 1], [6, 3])
        await settle(pilot)
        assert tracker.events[-1]["roll"]["outcome"]["winner"] == "tie"
        await pick(pilot, who)
        before = len(tracker.events)
        await press(pilot, "D")
        assert not isinstance(app.screen, DamageScreen)
        assert notes(app)[-1] == "stalemate: no net hits, so no damage (S9)"
        assert len(tracker.events) == before
        # On the roll screen, D after an opposed stalemate rolled there says the same.
        await pick(pilot, "Kaneda")
        await press(pilot, "r", "t", "f", *typed("5,1,2,3,4,2,3,4"), "enter", *typed("6,1,2,3,4,2"), "enter")
        await settle(pilot)
        assert tracker.events[-1]["roll"]["outcome"]["winner"] == "tie"
        await press(pilot, "D")
        assert not isinstance(app.screen, DamageScreen)
        assert notes(app)[-1] == "stalemate: no net hits, so no damage (S9)"



@pilot_test
async def test_S12_a_killing_hit_shows_its_true_overflow_while_the_sheet_keeps_body_plus_one(tmp_path: Path) -> None:
    """Ganger (Body 4) at 9/10 physical; Kaneda's attack (3 net hits) with DV 5 → 8P, resisted with 0 hits:
    1 box fills the monitor, 7 overflow — shown as 7 (dead), kept on the sheet as 5 (Body + 1)."""
    from app_fixtures import demo_session
    from polku.tui.screens.damage import DamageScreen

    tracker, sf = demo_session(tmp_path, "varjojuoksu")
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    notes(app)  # from the start
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pick(pilot, "Ganger")
        await press(pilot, *["w"] * 9)
        await settle(pilot)
        assert records.sr(tracker.characters["ganger"])["physical"] == 9
        await press(pilot, "D")
        assert isinstance(app.screen, DamageScreen) and app.screen.net_hits == 3
        await press(pilot, "f", *typed("1,2,3,4"), "enter")
        await settle(pilot)
        ev = tracker.events[-1]
        assert ev["text"] == ("Ganger takes DV 5P: 8P − 0 hits → 8 boxes physical (10/10 physical, 0/9 stun, "
                              "overflow 7), wound −3, dead")
        assert "physical 9 → 10/10, stun 0 → 0/9, overflow 0 → 7" in ev["roll"]["explain"]
        assert "overflow 7), wound −3, dead" in screen_text(app).replace("\n", "")
        assert records.sr(tracker.characters["ganger"])["overflow"] == 5 and tracker.damage.condition_text("ganger") == "dead"


def test_S12_the_true_overflow_beside_the_kept_one_with_literal_numbers() -> None:
    from polku.rules import shadowrun as sr

    mon = sr.Monitors(physical=9, stun=0, physical_max=10, stun_max=10, overflow=0, body=4)
    res = sr.resolve_damage(mon, 9, 3, "physical", 0, 0)
    assert (res.boxes, res.after.physical, res.after.overflow, res.overflow) == (12, 10, 5, 11)
    assert res.explain()[2] == "physical 9 → 10/10, stun 0 → 0/10, overflow 0 → 11"
    assert res.to_json()["overflow"] == 11 and res.after.state_text() == "dead"
    alive = sr.resolve_damage(mon, 4, 0, "physical", 0, 0)
    assert (alive.after.overflow, alive.overflow, alive.after.state_text()) == (3, 3, "dying (overflow 3/4)")



def hackers(tmp_path: Path, razor_hacking: int = 5) -> tuple[Tracker, files.SessionFile]:
    """Byte (Hacking 2 + Logic 6 = 8 dice) and Razor (Hacking ``razor_hacking`` + Logic 6)."""
    t = Tracker.new("shadowrun", "Table", clock=demo.fixed_clock(), seed=3)
    t.add_character("Byte", attributes={**ATTRS, "logic": 6}, skills={"Hacking": 2})
    t.add_character("Razor", attributes={**ATTRS, "logic": 6}, skills={"Hacking": razor_hacking})
    return t, files.create_session(tmp_path / "table.toml", t)


@pilot_test
async def test_S11_the_largest_pool_leads_a_teamwork_test_not_side_A(tmp_path: Path) -> None:
    tracker, sf = hackers(tmp_path)
    app = make_app(tracker, sf, sessions_dir=tmp_path)
    notes(app)  # from the start
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        # Byte (8 dice) is side A of a teamwork test; Razor (11 dice) helps.
        await select(pilot, "2", 0)
        await press(pilot, "r", "t", "t", "t", "tab", "enter")
        await settle(pilot)
        assert "⚠ Razor leads (S11): largest pool, 11 dice; Byte 8 — w: Razor as side A" in screen_text(app)
        before = len(tracker.events)
        await press(pilot, "r")
        await settle(pilot)
        assert notes(app)[-1] == "Razor leads (S11): largest pool, 11 dice; Byte 8 — w: Razor as side A"
        assert len(tracker.events) == before
        # w: Razor is side A; Byte helps with 8 dice.
        await press(pilot, "shift+tab", "w", "2")
        await press(pilot, "tab", "enter")  # Byte helps
        await settle(pilot)
        assert "Razor leads (S11): the largest pool (11 dice; Byte 8)" not in screen_text(app)
        assert "Razor leads: the largest pool (11 dice; Byte 8) (S11)" in screen_text(app)
        await press(pilot, "r")
        await settle(pilot)
        ev = tracker.events[-1]
        assert ev["text"].startswith("Razor leads: teamwork")
        assert [s["label"] for s in ev["roll"]["sides"]] == ["Byte", "Razor"]


def test_S11_a_tie_of_pools_keeps_the_gms_choice_and_says_so(tmp_path: Path) -> None:
    t, _ = hackers(tmp_path, razor_hacking=2)
    spec = SRPool(mode="skill", skill="Hacking", attribute="logic")
    byte, razor = t.rolls.sr_side("byte", spec), t.rolls.sr_helper_side("razor", spec)
    lead = t.rolls.sr_teamwork_lead(byte, [razor])
    assert (lead.allowed, lead.line) == (True, "Byte leads: tied with Razor at 8 dice, the GM's choice (S11)")
    ev = t.rolls.roll_sr_teamwork(byte, [razor], threshold=2, faces=[5] + [1] * 7 + [5, 5] + [2] * 7)["event"]
    assert ev["text"].startswith("Byte leads: teamwork (+1 dice from helpers)")
    with pytest.raises(TrackerError, match=r"^Razor leads \(S11\): largest pool, 9 dice; Byte 8 — w: Razor as side A$"):
        t.rolls.roll_sr_teamwork(byte, [t.rolls.sr_helper_side("razor", spec, override=9)], faces=[5] * 17)


# -- pictures of the screen states these cases changed, at 80x24 and 120x40 ------------------------------

sizes = pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])


def run_keys(*presses: str) -> Any:
    """A run_before: settle, press each key (letting modals open), settle; Input cursors do not blink."""
    from app_fixtures import freeze_cursors

    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        await press(pilot, *presses)
        freeze_cursors(pilot.app)
        await settle(pilot)

    return run_before


class TestPictures:
    @sizes
    def test_spirit_combat_reopened(self, snap_compare: Any, size: Any, tmp_path: Path) -> None:
        """The roll screen reopened on a spirit combat under way: spirit mode, exchange 2, Alyosha's
        1 charge left against the Ghost's 5 (R11); x would end it."""
        tracker, sf = ghost_fight(tmp_path)
        tracker.rolls.roll_spirit("alyosha", "ghost", challenge="c1", faces=([7, 2, 4, 5], [1, 7, 9, 10, 9]))
        sf.save_now(tracker)
        app = make_app(tracker, sf, sessions_dir=tmp_path)
        assert snap_compare(app, run_before=run_keys("1", "home", "r"), terminal_size=size)

    @sizes
    def test_narration_background_choices_after_a_lowercase_roll(self, snap_compare: Any, size: Any,
                                                                 tmp_path: Path) -> None:
        """Lena rolled " villager " (typed): b offers only Dream-walker (d10) and "another background"; the sheet's
        Villager is the same background (H9)."""
        tracker, sf = villagers(tmp_path)
        tracker.rolls.narration_roll_background("Lena", "villager", 8, faces=[7])
        sf.save_now(tracker)
        app = make_app(tracker, sf, sessions_dir=tmp_path)
        assert snap_compare(app, run_before=run_keys("h", "b", "enter"), terminal_size=size)

    @sizes
    @pytest.mark.usefixtures(isolated_here.__name__)
    def test_turn_order_with_fighters_who_cannot_act(self, snap_compare: Any, size: Any) -> None:
        """Razor unconscious and the Ganger dying keep their places, marked ✗ with why (skipped); Kaneda acts."""
        tracker, sf = street_fight(Path("sessions"))
        tracker.set_condition("razor", "stun", tracker.condition_monitor("razor", "stun"))
        tracker.set_condition("ganger", "physical", tracker.condition_monitor("ganger", "physical"))
        tracker.combat.next()
        sf.save_now(tracker)
        app = make_app(tracker, sf, sessions_dir=Path("sessions"))
        assert snap_compare(app, run_before=run_keys(), terminal_size=size)

    @sizes
    @pytest.mark.usefixtures(isolated_here.__name__)
    def test_damage_prompt_after_a_killing_hit(self, snap_compare: Any, size: Any) -> None:
        """Ganger at 9/10 physical takes 8P with 0 hits: the prompt's title shows overflow 7 and dead (S12)."""
        from app_fixtures import demo_session

        tracker, sf = demo_session(Path("sessions"), "varjojuoksu")
        tracker.set_condition("ganger", "physical", 9)
        sf.save_now(tracker)
        app = make_app(tracker, sf, sessions_dir=Path("sessions"))
        assert snap_compare(app, run_before=run_keys("D", "f", *typed("1,2,3,4"), "enter"), terminal_size=size)

    @sizes
    def test_teamwork_with_a_helper_whose_pool_is_larger(self, snap_compare: Any, size: Any, tmp_path: Path) -> None:
        """Byte (8 dice) is side A, Razor (11) helps: "⚠ Razor leads (S11): largest pool … w: Razor as side A"."""
        tracker, sf = hackers(tmp_path)
        app = make_app(tracker, sf, sessions_dir=tmp_path)
        assert snap_compare(app, run_before=run_keys("2", "home", "r", "t", "t", "t", "tab", "enter"),
                            terminal_size=size)
