"""An attack at the Varjojuoksu table: the defender's pool by default (Reaction; full defence adds
Dodge; parry or block against melee; a die off per attack already defended this pass), Edge before on
any pool (S7), the ▶ fighter rolls, the test a character rolled last, the attacker's weapon skill."""

from __future__ import annotations

import pytest

from app_fixtures import isolated, make_app, option_texts, pilot_test, press, settle, typed
from polku.rules import shadowrun as sr
from polku.rules.dice import RulesError
from polku.session import demo, records
from polku.session.rolls import SRPool
from polku.session.table.gear import parse_weapon
from polku.session.tracker import Tracker

pytestmark = pytest.mark.usefixtures(isolated.__name__)
ATTRS = {"body": 3, "agility": 4, "reaction": 4, "strength": 3, "charisma": 2, "intuition": 3, "logic": 2,
         "willpower": 3}


def fight() -> Tracker:
    """Kaneda (Pistols, a Predator) and a Ganger (Reaction 4, Dodge 2, Blades 3, Clubs 4) in combat turn 1:
    Kaneda 7 + 3 hits = 10 acts first, the ganger 7 + 0."""
    t = Tracker.new("shadowrun", "Docks", clock=demo.fixed_clock(), seed=3)
    t.add_character("Kaneda", attributes={**ATTRS, "agility": 5}, skills={"Pistols": 4}, edge_rating=3, edge=3)
    t.add_character("Ganger", kind="npc", attributes=ATTRS, skills={"Dodge": 2, "Blades": 3, "Clubs": 4},
                    edge_rating=2, edge=2)
    t.roster.set_weapon("kaneda", None, parse_weapon("Ares Predator IV, 5P, -1, Pistols"))
    t.combat.roll_initiative([("kaneda", 1), ("ganger", 1)], faces=[5, 5, 6, 1, 2, 2, 3] + [1, 2, 3, 4, 2, 3, 4])
    assert t.combat.acting() == "kaneda"
    return t


def test_the_defences_the_rules_open_against_each_kind_of_attack():
    assert sr.defences_against("ranged") == ("reaction", "full")
    assert sr.defences_against("thrown") == ("reaction", "full")
    assert sr.defences_against("melee") == ("reaction", "full", "parry", "block")
    assert [sr.defence_penalty(n) for n in (0, 1, 3)] == [0, -1, -3]
    with pytest.raises(RulesError, match="ranged, melee or thrown"):
        sr.defences_against("psychic")


def test_a_defender_s_choices_come_from_their_sheet():
    t = fight()
    ranged = t.attacks.defences("ganger", "ranged")
    assert [d.label for d in ranged] == ["Reaction 4", "full defence: Reaction 4 + Dodge 2"]
    melee = t.attacks.defences("ganger", "melee")
    # parry takes the better of Blades 3 and Clubs 4; no Unarmed Combat: no block
    assert [d.label for d in melee] == ["Reaction 4", "full defence: Reaction 4 + Dodge 2", "parry: Reaction 4 + Clubs 4"]
    # Kaneda has no Dodge: Reaction alone
    assert [d.name for d in t.attacks.defences("kaneda", "melee")] == ["reaction"]


def test_the_defence_is_reaction_by_default_and_d_s_choice_is_remembered_per_character():
    t = fight()
    pool = t.attacks.defence_pool("ganger", "ranged", SRPool())
    assert t.rolls.sr_plan(t.rolls.sr_side("ganger", pool)).size == 4
    assert t.attacks.next_defence("ganger", "ranged").name == "full"
    plan = t.rolls.sr_plan(t.rolls.sr_side("ganger", t.attacks.defence_pool("ganger", "ranged", SRPool())))
    assert plan.size == 6 and plan.explain()[0].startswith("Dodge 2 + Reaction 4")
    # remembered for the ganger, not for Kaneda
    assert t.attacks.defence("ganger", "ranged").name == "full"
    assert t.attacks.defence("kaneda", "ranged").name == "reaction"
    # the last step is the GM's own pool (None), then Reaction again
    assert t.attacks.next_defence("ganger", "ranged") is None
    own = SRPool(mode="dice", dice=7)
    assert t.attacks.defence_pool("ganger", "ranged", own) == SRPool(mode="dice", dice=7, defence="own")
    assert t.attacks.next_defence("ganger", "ranged").name == "reaction"
    # a parry chosen against a knife falls back to Reaction against a gun
    t.attacks.choose_defence("ganger", "parry")
    assert t.attacks.defence("ganger", "melee").name == "parry"
    assert t.attacks.defence("ganger", "ranged").name == "reaction"


def test_the_defence_rolled_is_kept_on_the_sheet_and_proposed_again_after_reopening(tmp_path):
    """The ganger defends with a full defence: the opposed test keeps it on his sheet (``defence``), so
    a tracker read back from the file proposes it for the next attack; undoing the roll forgets it; a
    file without the field (older) proposes Reaction; a made-up defence is refused at load."""
    from polku.session import files, model

    t = fight()
    kaneda = t.rolls.sr_side("kaneda", SRPool(mode="skill", skill="Pistols", attribute="agility"))
    assert "defence" not in t.character("ganger")
    t.attacks.choose_defence("ganger", "full")
    pool = t.attacks.defence_pool("ganger", "ranged", SRPool())
    assert pool.defence == "full"
    t.rolls.roll_sr_opposed(kaneda, t.rolls.sr_side("ganger", pool))
    assert t.character("ganger")["defence"] == "full"
    sf = files.create_session(tmp_path / "docks.toml", t)
    sf.close()
    again, sf = files.open_session(tmp_path / "docks.toml")
    sf.close()
    d = again.attacks.defence("ganger", "ranged")
    assert d is not None and d.label == "full defence: Reaction 4 + Dodge 2"
    assert again.attacks.defence("kaneda", "ranged").name == "reaction", "Kaneda never defended"
    again.undo()
    assert "defence" not in again.character("ganger")
    assert again.attacks.defence("ganger", "ranged").name == "reaction"
    # the GM's own pool is remembered as such: no defence row proposed next time
    t.attacks.choose_defence("ganger", "own")
    own = t.attacks.defence_pool("ganger", "ranged", SRPool(mode="dice", dice=5))
    t.rolls.roll_sr_opposed(kaneda, t.rolls.sr_side("ganger", own))
    fresh = Tracker.replay(t.state, t.events[-1]["seq"], [], clock=demo.fixed_clock())
    assert fresh.character("ganger")["defence"] == "own" and fresh.attacks.defence("ganger", "ranged") is None
    t.state["characters"]["ganger"]["defence"] = "dodge"
    with pytest.raises(model.StateError, match="defence: 'dodge'"):
        model.validate_state(t.state)


def test_each_attack_defended_before_in_the_same_pass_costs_a_die():
    t = fight()
    kaneda = t.rolls.sr_side("kaneda", SRPool(mode="skill", skill="Pistols", attribute="agility"))

    def defend() -> int:
        pool = t.attacks.defence_pool("ganger", "ranged", SRPool())
        return t.rolls.sr_plan(t.rolls.sr_side("ganger", pool)).size

    assert defend() == 4
    t.rolls.roll_sr_opposed(kaneda, t.rolls.sr_side("ganger", SRPool(mode="attribute", attribute="reaction")))
    assert t.attacks.defended_this_pass("ganger") == 1 and defend() == 3
    pool = t.attacks.defence_pool("ganger", "ranged", SRPool())
    assert pool.modifiers == [("defended 1 before this pass", -1)]
    ev = t.rolls.roll_sr_opposed(kaneda, t.rolls.sr_side("ganger", pool))["event"]
    assert t.attacks.defended_this_pass("ganger") == 2 and defend() == 2
    assert t.attacks.defended_this_pass("kaneda") == 0, "attacking is not defending"
    t.undo()  # the second attack undone: it was not defended
    assert t.attacks.defended_this_pass("ganger") == 1
    assert t.is_undone(ev["seq"])
    t.combat.next()  # Kaneda done → the ganger acts, still pass 1
    assert defend() == 3
    t.combat.next()  # the pass (and the turn) is over: the count starts again
    assert t.attacks.defended_this_pass("ganger") == 0 and defend() == 4


def test_S7_edge_before_on_a_reaction_only_defence():
    """Any pool may take Edge before: the ganger's Reaction 4 + Edge 2, rule of six; 1 Edge spent."""
    t = fight()
    kaneda = t.rolls.sr_side("kaneda", SRPool(mode="skill", skill="Pistols", attribute="agility"))
    pool = t.attacks.defence_pool("ganger", "ranged", SRPool(edge_before=True))
    side = t.rolls.sr_side("ganger", pool)
    assert t.rolls.sr_pool_dice(side) == 6 and t.rolls.sr_rule_of_six(side)
    ev = t.rolls.roll_sr_opposed(kaneda, side, faces=([5, 5, 5, 2, 2, 2, 2, 2, 2], [6, 5, 5, 2, 2, 2, 5]))["event"]
    b = ev["roll"]["sides"][1]
    assert [d["face"] for d in b["dice"]] == [6, 5, 5, 2, 2, 2, 5]
    assert ev["roll"]["outcome"]["winner"] == "b"
    assert t.character("ganger")["edge"] == 1
    assert "Reaction: 4 dice = 4 dice" in ev["roll"]["explain"]


def test_the_fighter_marked_to_act_rolls_and_opens_on_the_test_they_rolled_last():
    t = fight()
    assert t.attacks.roller("ganger") == "kaneda", "in a fight: the ▶ fighter"
    # before any roll: opposed in a fight for a character with a weapon, else success
    assert t.attacks.default_test("kaneda") == "opposed"
    assert t.attacks.default_test("ganger") == "success"
    t.rolls.roll_sr(t.rolls.sr_side("kaneda", SRPool(mode="skill", skill="Pistols", attribute="agility")))
    assert t.attacks.default_test("kaneda") == "success"
    t.undo()
    assert t.attacks.default_test("kaneda") == "opposed", "an undone roll is not the last one"
    # the weapon Kaneda attacks with gives his attack pool
    assert t.attacks.attack_pool("kaneda") == SRPool(mode="skill", skill="Pistols", attribute="agility")
    assert t.attacks.attack_pool("ganger") is None
    t.combat.end()
    assert t.attacks.roller("ganger") == "ganger", "out of a fight: the one selected"
    assert t.attacks.default_test("ganger") == "success"


def test_S12_wired_reflexes_on_the_sheet_give_the_initiative_bonus_and_a_second_pass():
    """Wired reflexes 2 on Kaneda's sheet (+2, 2 passes): Reaction 4 + Intuition 3 + 2 = 9 dice and
    9 + hits; the next initiative roll proposes his 2 passes; a bad line is refused in one line."""
    from polku.session.table.combat import parse_initiative
    from polku.session.tracker import TrackerError

    assert parse_initiative("+2 2") == (2, 2) and parse_initiative("1") == (1, 1)
    for bad in ("two", "+2 2 2", "-1 2", "+2 0", "+13 2"):
        with pytest.raises(TrackerError):
            parse_initiative(bad)
    t = Tracker.new("shadowrun", "Docks", clock=demo.fixed_clock(), seed=3)
    t.add_character("Kaneda", attributes={**ATTRS, "agility": 5}, skills={"Pistols": 4}, edge_rating=3, edge=3)
    t.add_character("Ganger", kind="npc", attributes=ATTRS)
    t.combat.set_initiative("kaneda", 2, 2, "wired reflexes 2")
    assert t.events[-1]["text"] == "Kaneda: initiative +2, 2 passes (wired reflexes 2)"
    assert t.combat.initiative_dice([("kaneda", 2), ("ganger", 1)]) == [("Kaneda", 9), ("Ganger", 7)]
    entries = [(cid, passes) for cid, (on, passes) in t.combat.default_fighters().items() if on]
    assert entries == [("kaneda", 2), ("ganger", 1)]
    t.combat.roll_initiative(entries, faces=[5, 2, 2, 2, 2, 2, 2, 2, 2] + [5, 5, 2, 2, 2, 2, 2])
    assert [(e["id"], e["score"], e["passes"]) for e in t.state["initiative"]] == [("kaneda", 10, 2), ("ganger", 9, 1)]
    assert t.combat.acting() == "kaneda"
    with pytest.raises(TrackerError, match="0 to 12"):
        t.combat.set_initiative("kaneda", 13, 2)
    assert (t.character("kaneda")["initiative_bonus"], t.character("kaneda")["initiative_passes"]) == (2, 2)


@pilot_test
async def test_the_sheet_s_initiative_row_takes_wired_reflexes_by_keys(tmp_path) -> None:
    """The Varjojuoksu sheet's Initiative row (Enter): '+2 2' is wired reflexes 2; a bad line is refused in
    the prompt and changes nothing."""
    from textual.widgets import OptionList

    from polku.session import files
    from polku.tui.screens.prompts import TextPrompt

    t = Tracker.new("shadowrun", "Docks", clock=demo.fixed_clock(), seed=3)
    t.add_character("Kaneda", attributes={**ATTRS, "agility": 5}, skills={"Pistols": 4}, edge_rating=3, edge=3)
    sf = files.create_session(tmp_path / "docks.toml", t)
    app = make_app(t, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.main_screen().open_detail("kaneda")
        await settle(pilot)
        rows = app.screen.query_one("#detail-rows", OptionList)
        rows.highlighted = rows.get_option_index("initiative")
        assert "Reaction 4 + Intuition 3 · 1 pass" in str(rows.get_option("initiative").prompt)
        await press(pilot, "enter")
        assert isinstance(app.screen, TextPrompt)
        await press(pilot, "ctrl+u", *typed("+2 two"), "enter")
        assert isinstance(app.screen, TextPrompt), "refused in the prompt"
        await press(pilot, "ctrl+u", *typed("+2 2"), "enter")
        await settle(pilot)
        assert (records.sr(t.character("kaneda"))["initiative_bonus"], records.sr(t.character("kaneda"))["initiative_passes"]) == (2, 2)
        rows = app.screen.query_one("#detail-rows", OptionList)
        assert "Reaction 4 + Intuition 3 + 2 · 2 passes" in str(rows.get_option("initiative").prompt)


@pilot_test
async def test_the_defence_chosen_with_d_is_proposed_again_after_the_file_is_reopened(tmp_path) -> None:
    """By keys at 80x24: r (Kaneda ▶, opposed), Tab w 2 (the ganger defends: Reaction 4), d (full defence:
    + Dodge 2), r rolls; the file closed and opened again, the same keys without d propose the full defence."""
    from polku.session import files
    from polku.tui.screens.roll import SRRollScreen

    t = fight()
    sf = files.create_session(tmp_path / "docks.toml", t)
    app = make_app(t, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "r", "tab", "w", "2")
        roll = app.screen
        assert isinstance(roll, SRRollScreen) and roll.b.who == "ganger"
        assert "Defence: Reaction 4  (d: next)" in option_texts(roll.query_one("#side-b"))
        await press(pilot, "d")
        assert "Defence: full defence: Reaction 4 + Dodge 2  (d: next)" in option_texts(roll.query_one("#side-b"))
        await press(pilot, "r")
        await settle(pilot)
        assert roll.last_event is not None and records.sr(t.character("ganger"))["defence"] == "full"
        await press(pilot, "escape", "q")
    again, sf = files.open_session(tmp_path / "docks.toml")
    app = make_app(again, sf, sessions_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "r", "tab", "w", "2")
        roll = app.screen
        assert isinstance(roll, SRRollScreen) and roll.b.who == "ganger"
        assert "Defence: full defence: Reaction 4 + Dodge 2  (d: next)" in option_texts(roll.query_one("#side-b"))
        await press(pilot, "escape", "q")
