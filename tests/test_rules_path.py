"""Every number the tracker shows or uses comes from the rules core.

Tracker-level tests of the paths between the screens and ``rules/``: the S12
monitors, the wound penalties, and each result that once went wrong because a
rule was written a second time outside ``rules/``. Faces are literal, so a
test names the dice a GM would have rolled.
"""

from __future__ import annotations

import pytest

from polku.session import demo
from polku.session.tracker import Tracker, TrackerError


def sr_tracker() -> Tracker:
    t = Tracker.new("shadowrun", "S12", clock=demo.fixed_clock(), seed=3)
    t.add_character("Odd", attributes={"body": 5, "agility": 3, "reaction": 3, "strength": 3, "charisma": 3,
                                       "intuition": 3, "logic": 3, "willpower": 3})
    return t


# -- S12 condition monitors and wound modifiers ---------------------------------------------------


def test_S12_body_5_monitor_has_11_boxes_and_the_tracker_accepts_all_of_them():
    t = sr_tracker()
    assert t.condition_monitor("odd", "physical") == 11  # 8 + ceil(5/2)
    assert t.condition_monitor("odd", "stun") == 10      # 8 + ceil(3/2)
    t.set_condition("odd", "physical", 11)
    assert t.characters["odd"]["physical"] == 11
    assert t.events[-1]["text"] == "Odd: physical 0 → 11/11 boxes"
    with pytest.raises(TrackerError, match="11 boxes; 12 is out of range"):
        t.set_condition("odd", "physical", 12)
    with pytest.raises(TrackerError, match="10 boxes; 11 is out of range"):
        t.set_condition("odd", "stun", 11)


def test_S12_a_loaded_file_with_a_full_body_5_monitor_is_valid():
    from polku.session import model

    t = sr_tracker()
    t.set_condition("odd", "physical", 11)
    model.validate_state(t.state)  # 11 of 11 boxes is not out of range


def test_S12_wound_penalty_counts_each_monitor_separately():
    t = sr_tracker()
    t.set_condition("odd", "physical", 5)  # 5 // 3 = 1
    t.set_condition("odd", "stun", 5)      # 5 // 3 = 1; together 10 boxes would be 3
    assert t.wound_penalty("odd") == 2
    t.set_condition("odd", "stun", 6)
    assert t.wound_penalty("odd") == 3


# -- S10: what is in force when an interval is rolled ----------------------------------------------


def test_S10_threshold_and_hurried_changed_after_the_first_interval_are_used_by_the_next():
    from polku.session.rolls import SRSide

    t = demo.demo_varjojuoksu()
    cid = t.add_challenge("Climb the tower", ["kaneda"])["id"]
    side = SRSide("Kaneda", ["kaneda"], dice=10)
    t.roll_sr_extended(side, cid, threshold=2, faces=[5, 3, 3, 4, 4, 2, 3, 4, 3, 4])
    assert t.challenge(cid)["extended"]["accumulated"] == 1
    out = t.roll_sr_extended(side, cid, threshold=6, hurried=True, faces=[5, 2, 2, 2, 1, 3, 3, 4, 4, 2])
    roll = out["event"]["roll"]
    ext = t.challenge(cid)["extended"]
    assert (ext["accumulated"], ext["threshold"], ext["hurried"]) == (2, 6, True)
    assert roll["summary"] == "interval 2: 1 hit, 2/6 — glitch (GM: spoil?)"
    assert roll["outcome"]["glitch"] and not roll["outcome"]["done"]
    assert "threshold changed 2 → 6 (S10)" in roll["explain"]
    assert t.challenge(cid)["status"] != "resolved"
    # the change is part of the roll: one undo puts the old threshold back
    t.undo()
    assert (t.challenge(cid)["extended"]["threshold"], t.challenge(cid)["extended"]["hurried"]) == (2, False)


def test_S10_lowering_the_threshold_to_the_progress_refuses_the_roll_and_changes_nothing():
    from polku.session.rolls import SRSide

    t = demo.demo_varjojuoksu()
    cid = t.add_challenge("Climb the tower", ["kaneda"])["id"]
    side = SRSide("Kaneda", ["kaneda"], dice=3)
    t.roll_sr_extended(side, cid, threshold=8, faces=[5, 6, 5])
    before = dict(t.challenge(cid)["extended"])
    with pytest.raises(TrackerError, match="3 hits already reach the threshold 3"):
        t.roll_sr_extended(side, cid, threshold=3, faces=[1, 1, 1])
    assert t.challenge(cid)["extended"] == before


# -- R9: an ability die the wound removes is not rolled and costs nothing ------------------------------


def test_R9_wound_removing_the_only_ability_die_costs_no_charge():
    from polku.session.rolls import RajaSide

    t = demo.demo_rajapolku()
    igor = t.characters["igor-bondarenko"]
    assert (igor["wound"], igor["charges"]) == ("Wounded", 4)
    seq = t.last_seq()
    out = t.roll_raja(RajaSide("Igor", ["igor-bondarenko"], abilities=["Ape-man strength"]),
                      RajaSide("GM", []), faces=([7], [3]))
    assert t.characters["igor-bondarenko"]["charges"] == 4
    assert [e["kind"] for e in t.events if e["seq"] > seq] == ["roll"]
    dice = out["event"]["roll"]["sides"][0]["dice"]
    assert [d["source"] for d in dice] == ["action"]


def test_R9_wound_takes_the_background_first_so_the_ability_die_is_rolled_and_paid():
    from polku.session.rolls import RajaSide

    t = demo.demo_rajapolku()
    t.roll_raja(RajaSide("Igor", ["igor-bondarenko"], backgrounds=["Boxer"], abilities=["Ape-man strength"]),
                RajaSide("GM", []), faces=([7, 9], [3]))
    assert t.characters["igor-bondarenko"]["charges"] == 3
    assert t.events[-2]["text"].startswith("Igor Bondarenko pays 1 charge(s) for Ape-man strength")


# -- settings changed mid-campaign; each roll names the settings it used ---------------------------------


def test_a_setting_changed_mid_campaign_is_logged_undoable_and_used_by_the_next_roll():
    from polku.session.rolls import RajaSide

    t = demo.demo_rajapolku()
    t.set_setting("raja.full_tie", "defender")
    assert t.events[-1]["kind"] == "setting"
    assert t.events[-1]["text"] == "Setting raja.full_tie (R5): reroll → defender"
    out = t.roll_raja(RajaSide("Alyosha", ["alyosha"]), RajaSide("GM", []), faces=([7], [7]))
    roll = out["event"]["roll"]
    assert roll["outcome"]["tie_action"] == "defender"
    assert roll["settings"]["raja.full_tie"] == "defender"
    assert roll["settings"]["raja.exhausted"] is True
    t.undo()  # the roll
    t.undo()  # the setting
    assert t.settings.raja_full_tie == "reroll"
    again = t.roll_raja(RajaSide("Alyosha", ["alyosha"]), RajaSide("GM", []), faces=([7], [7]))
    assert again["event"]["roll"]["outcome"]["tie_action"] == "reroll"
    assert again["event"]["roll"]["settings"]["raja.full_tie"] == "reroll"


def test_each_system_offers_only_its_own_settings_and_steps_through_their_values():
    t = demo.demo_varjojuoksu()
    keys = [c.key for c in t.setting_choices()]
    assert keys and all(k.startswith("sr.") for k in keys) and "sr.glitch_rerolls" in keys
    assert t.next_setting_value("sr.glitch_rerolls") is False
    r = demo.demo_rajapolku()
    assert r.next_setting_value("raja.story_points") is None  # a number: asked for, not stepped
    with pytest.raises(TrackerError, match="unknown setting 'sr.glitch_rerolls' for Rajapolku"):
        r.next_setting_value("sr.glitch_rerolls")
