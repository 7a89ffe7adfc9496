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
    t.rolls.roll_sr_extended(side, cid, threshold=2, faces=[5, 3, 3, 4, 4, 2, 3, 4, 3, 4])
    assert t.challenge(cid)["extended"]["accumulated"] == 1
    out = t.rolls.roll_sr_extended(side, cid, threshold=6, hurried=True, faces=[5, 2, 2, 2, 1, 3, 3, 4, 4, 2])
    roll = out["event"]["roll"]
    ext = t.challenge(cid)["extended"]
    assert (ext["accumulated"], ext["threshold"], ext["hurried"]) == (2, 6, True)
    assert roll["summary"] == "interval 2: 1 hit, 2/6 — serious glitch (1 hit), GM: spoil?"
    assert roll["outcome"]["glitch"] and not roll["outcome"]["done"]
    assert "threshold changed 2 → 6 (S10)" in roll["explain"]
    assert t.challenge(cid)["status"] != "resolved"
    # the change is part of the roll: one undo puts the old threshold back
    t.undo()
    assert (t.challenge(cid)["extended"]["threshold"], t.challenge(cid)["extended"]["hurried"]) == (2, False)


def test_S10_the_gm_spoils_a_glitched_interval_from_the_rolls_actions():
    """What may follow a roll is carried out by the system that offers it: spoiling is the extended test's."""
    from polku.session.rolls import SRSide

    t = demo.demo_varjojuoksu()
    cid = t.add_challenge("Climb the tower", ["kaneda"])["id"]
    side = SRSide("Kaneda", ["kaneda"], dice=10)
    ev = t.rolls.roll_sr_extended(side, cid, threshold=6, hurried=True, faces=[5, 2, 2, 2, 1, 3, 3, 4, 4, 2])["event"]
    offered = {a.name: a.allowed for a in t.rolls.roll_actions(ev)}
    assert offered["spoil"] and offered["next_interval"]
    with pytest.raises(TrackerError, match="'next_interval' is done by rolling again"):
        t.rolls.do_roll_action(ev, "next_interval")
    assert t.rolls.do_roll_action(ev, "spoil") == {}
    c = t.challenge(cid)
    assert c["extended"]["spoiled"] and c["status"] == "resolved" and c["outcome"] == "spoiled by a glitch"
    assert t.events[-1]["text"] == "Climb the tower: the GM rules the glitch spoils the extended test (S10)"


def test_S10_lowering_the_threshold_to_the_progress_refuses_the_roll_and_changes_nothing():
    from polku.session.rolls import SRSide

    t = demo.demo_varjojuoksu()
    cid = t.add_challenge("Climb the tower", ["kaneda"])["id"]
    side = SRSide("Kaneda", ["kaneda"], dice=3)
    t.rolls.roll_sr_extended(side, cid, threshold=8, faces=[5, 6, 5])
    before = dict(t.challenge(cid)["extended"])
    with pytest.raises(TrackerError, match="3 hits already reach the threshold 3"):
        t.rolls.roll_sr_extended(side, cid, threshold=3, faces=[1, 1, 1])
    assert t.challenge(cid)["extended"] == before


# -- R9: an ability die the wound removes is not rolled and costs nothing ------------------------------


def test_R9_wound_removing_the_only_ability_die_costs_no_charge():
    from polku.session.rolls import RajaSide

    t = demo.demo_rajapolku()
    igor = t.characters["igor-bondarenko"]
    assert (igor["wound"], igor["charges"]) == ("Wounded", 4)
    seq = t.last_seq()
    out = t.rolls.roll_raja(RajaSide("Igor", ["igor-bondarenko"], abilities=["Ape-man strength"]),
                      RajaSide("GM", []), faces=([7], [3]))
    assert t.characters["igor-bondarenko"]["charges"] == 4
    assert [e["kind"] for e in t.events if e["seq"] > seq] == ["roll"]
    dice = out["event"]["roll"]["sides"][0]["dice"]
    assert [d["source"] for d in dice] == ["action"]


def test_R9_wound_takes_the_background_first_so_the_ability_die_is_rolled_and_paid():
    from polku.session.rolls import RajaSide

    t = demo.demo_rajapolku()
    t.rolls.roll_raja(RajaSide("Igor", ["igor-bondarenko"], backgrounds=["Boxer"], abilities=["Ape-man strength"]),
                RajaSide("GM", []), faces=([7, 9], [3]))
    assert t.characters["igor-bondarenko"]["charges"] == 3
    assert t.events[-2]["text"].startswith("Igor Bondarenko pays 1 charge for Ape-man strength (3/5 left)")


# -- settings changed mid-campaign; each roll names the settings it used ---------------------------------


def test_a_setting_changed_mid_campaign_is_logged_undoable_and_used_by_the_next_roll():
    from polku.session.rolls import RajaSide

    t = demo.demo_rajapolku()
    t.set_setting("raja.full_tie", "defender")
    assert t.events[-1]["kind"] == "setting"
    assert t.events[-1]["text"] == "Setting raja.full_tie (R5): reroll → defender"
    out = t.rolls.roll_raja(RajaSide("Alyosha", ["alyosha"]), RajaSide("GM", []), faces=([7], [7]))
    roll = out["event"]["roll"]
    assert roll["outcome"]["tie_action"] == "defender"
    assert roll["settings"]["raja.full_tie"] == "defender"
    assert roll["settings"]["raja.exhausted"] is True
    t.undo()  # the roll
    t.undo()  # the setting
    assert t.settings.raja_full_tie == "reroll"
    again = t.rolls.roll_raja(RajaSide("Alyosha", ["alyosha"]), RajaSide("GM", []), faces=([7], [7]))
    assert again["event"]["roll"]["outcome"]["tie_action"] == "reroll"
    assert again["event"]["roll"]["settings"]["raja.full_tie"] == "reroll"


def test_each_system_offers_only_its_own_settings_and_steps_through_their_values():
    t = demo.demo_varjojuoksu()
    keys = [c.key for c in t.setting_choices()]
    assert keys and all(k.startswith("sr.") for k in keys[:-1]) and "sr.glitch_rerolls" in keys
    assert keys[-1] == "seats.own_rolls", "then the settings every system shares"
    assert t.next_setting_value("seats.own_rolls") == "approve"
    assert t.next_setting_value("sr.glitch_rerolls") is False
    r = demo.demo_rajapolku()
    assert r.next_setting_value("raja.story_points") is None  # a number: asked for, not stepped
    with pytest.raises(TrackerError, match="unknown setting 'sr.glitch_rerolls' for Rajapolku"):
        r.next_setting_value("sr.glitch_rerolls")


# -- S7: Edge after the roll, negating and reducing glitches on every kind of test ------------------------


def _sr():
    return demo.demo_varjojuoksu()


def test_S7_defender_of_an_opposed_test_spends_edge_after_and_the_winner_changes():
    from polku.session.rolls import SRSide

    t = _sr()
    ev = t.rolls.roll_sr_opposed(SRSide("Kaneda", ["kaneda"], dice=2), SRSide("Ganger", ["ganger"], dice=2),
                           faces=([5, 3], [1, 2]))["event"]
    assert ev["roll"]["outcome"]["winner"] == "a"
    names = {(a.name, a.role): a.allowed for a in t.rolls.roll_actions(ev)}
    assert names[("edge_after", "b")] and names[("edge_after", "a")]
    out = t.rolls.sr_post_roll(ev, "edge_after", role="b", faces=[5])  # Ganger's Edge 1: +1 die, a 5
    roll = out["event"]["roll"]
    assert roll["outcome"]["winner"] == "tie" and t.characters["ganger"]["edge"] == 0
    assert [d["face"] for d in roll["sides"][1]["dice"]] == [1, 2, 5]
    assert roll["supersedes"] == ev["seq"]


def test_S7_a_glitch_on_a_group_roll_is_negated_by_the_npc_with_edge():
    from polku.session.rolls import SRSide

    t = _sr()
    ev = t.rolls.roll_sr_opposed(SRSide("Kaneda", ["kaneda"], dice=2), SRSide("Ganger", ["ganger"], dice=2),
                           group=[1], faces=([5, 3], [1, 1, 6]))["event"]
    assert ev["roll"]["outcome"]["b"]["glitch"]
    out = t.rolls.do_roll_action(ev, "negate_glitch", role="b")
    assert not out["event"]["roll"]["outcome"]["b"]["glitch"]
    assert t.characters["ganger"]["edge"] == 0


def test_S7_edge_after_on_an_extended_interval_adds_its_hits_to_the_progress():
    from polku.session.rolls import SRSide

    t = _sr()
    chid = t.add_challenge("Climb", ["kaneda"])["id"]
    ev = t.rolls.roll_sr_extended(SRSide("Kaneda", ["kaneda"], dice=3), chid, threshold=5, faces=[5, 2, 3])["event"]
    assert t.challenge(chid)["extended"]["accumulated"] == 1
    out = t.rolls.sr_post_roll(ev, "edge_after", faces=[5, 6, 2, 4])  # Edge 3: +3 dice, the 6 explodes into a 4
    assert t.challenge(chid)["extended"]["accumulated"] == 3
    assert out["event"]["roll"]["summary"].startswith("interval 1: 3 hits, 3/5")
    t.undo()
    assert t.challenge(chid)["extended"]["accumulated"] == 1


def test_S7_reducing_a_critical_glitch_keeps_the_extended_test_going():
    from polku.session.rolls import SRSide

    t = _sr()
    chid = t.add_challenge("Climb", ["kaneda"])["id"]
    ev = t.rolls.roll_sr_extended(SRSide("Kaneda", ["kaneda"], dice=2), chid, threshold=5, faces=[1, 1])["event"]
    assert t.challenge(chid)["status"] == "resolved" and t.challenge(chid)["extended"]["ended"]
    t.rolls.sr_post_roll(ev, "reduce_critical")
    ext = t.challenge(chid)["extended"]
    assert not ext["ended"] and t.challenge(chid)["status"] != "resolved"
    t.rolls.roll_sr_extended(SRSide("Kaneda", ["kaneda"], dice=2), chid, faces=[5, 5])
    assert t.challenge(chid)["extended"]["accumulated"] == 2


def test_S7_teamwork_leader_spends_edge_after_a_helper_cannot_once_the_leader_rolled():
    from polku.session.rolls import SRPool

    t = _sr()
    spec = SRPool(mode="skill", skill="Sneaking", attribute="agility")
    leader = t.rolls.sr_side("kaneda", spec)
    helper = t.rolls.sr_helper_side("nyx", spec)
    ev = t.rolls.roll_sr_teamwork(leader, [helper], threshold=2, faces=[5, 1] + [1] * 8)["event"]  # Nyx defaults: 2 dice
    acts = {(a.name, a.role): a for a in t.rolls.roll_actions(ev)}
    assert acts[("edge_after", "a")].allowed
    assert not acts[("edge_after", "helper:0")].allowed
    assert "helper's hits are already spent" in acts[("edge_after", "helper:0")].reason
    with pytest.raises(TrackerError, match="already spent"):
        t.rolls.sr_post_roll(ev, "edge_after", role="helper:0", faces=[1, 1, 1, 1])


# -- S11: each helper rolls their own pool for the same test --------------------------------------------


def test_S11_helpers_roll_their_own_attribute_plus_attribute_pool_with_their_wounds():
    from polku.session.rolls import SRPool

    t = _sr()
    t.set_condition("nyx", "physical", 3)  # −1 die (S12)
    spec = SRPool(mode="attr+attr", attribute="body", second="strength")
    helper = t.rolls.sr_helper_side("nyx", spec)  # Nyx: Body 2 + Strength 2 − 1
    assert t.rolls.sr_plan(helper).size == 3
    ganger = t.rolls.sr_helper_side("ganger", spec)  # Body 4 + Strength 4
    assert t.rolls.sr_plan(ganger).size == 8


def test_S11_helper_without_the_skill_defaults_and_the_gm_can_override_the_pool():
    from polku.session.rolls import SRPool

    t = _sr()
    spec = SRPool(mode="skill", skill="Hacking", attribute="logic")
    ganger = t.rolls.sr_helper_side("ganger", spec)  # no Hacking: Logic 2 − 1 (S2)
    assert t.rolls.sr_plan(ganger).size == 1 and t.rolls.sr_plan(ganger).defaulted
    assert t.rolls.sr_plan(t.rolls.sr_helper_side("ganger", spec, override=4)).size == 4
    kaneda = t.rolls.sr_side("kaneda", spec)
    ev = t.rolls.roll_sr_teamwork(t.rolls.sr_side("nyx", spec), [ganger, t.rolls.sr_helper_side("kaneda", spec)], threshold=2,
                            faces=[5] + [5, 1] + [1] * 12)["event"]
    assert kaneda.skill == 0 or kaneda.skill is None
    assert ev["roll"]["sides"][0]["label"] == "Ganger" and len(ev["roll"]["sides"][0]["dice"]) == 1
    assert ev["roll"]["summary"].startswith("teamwork (+2 dice from helpers)")


def test_S11_teamwork_cap_limits_the_leaders_extra_dice_to_the_skill():
    from polku.session.rolls import SRPool

    t = _sr()
    t.set_setting("sr.teamwork_cap", "skill")
    spec = SRPool(mode="skill", skill="Sneaking", attribute="agility")
    leader = t.rolls.sr_side("kaneda", spec)  # Sneaking 3 + Agility 5, wounds −1
    helper = t.rolls.sr_helper_side("ganger", spec, override=5)
    ev = t.rolls.roll_sr_teamwork(leader, [helper], faces=[5] * 5 + [2] * 10)["event"]
    assert ev["roll"]["summary"].startswith("teamwork (+3 dice from helpers)")
    assert ev["roll"]["settings"]["sr.teamwork_cap"] == "skill"


# -- H7 / H8: an edge reroll after a difficult or very demanding roll, opposed or not -------------------------


def test_H7_edge_reroll_after_a_very_demanding_unopposed_roll():
    from polku.session.rolls import HarhaSide

    t = demo.demo_harhapolku()
    ev = t.rolls.roll_harha_difficult(HarhaSide("Tuomas", ["tuomas"], general="Fisherman"), very_demanding=True,
                                faces=[7, 3])["event"]
    assert not ev["roll"]["outcome"]["success"]
    acts = [a for a in t.rolls.roll_actions(ev) if a.name == "edge_reroll"]
    assert [(a.allowed, a.edge) for a in acts] == [(True, "Iron grip")]
    out = t.rolls.do_roll_action(ev, "edge_reroll", role="a", edge="Iron grip", faces=[8, 7])
    assert out["event"]["roll"]["outcome"]["success"]
    assert t.characters["tuomas"]["edges"][0]["used"]
    assert [d["replaced"] for d in out["event"]["roll"]["sides"][0]["dice"]] == [[7], [3]]


def test_H8_opposed_difficult_win_without_a_seven_fails_and_an_edge_rerolls_it():
    from polku.session.rolls import HarhaSide

    t = demo.demo_harhapolku()
    ev = t.rolls.roll_harha(HarhaSide("Lena", ["lena"], general="Island girl"), HarhaSide("Tuomas", ["tuomas"]),
                      demand="difficult", faces=([6, 5], [4]))["event"]
    assert ev["roll"]["outcome"]["won_comparison"] and not ev["roll"]["outcome"]["success"]
    assert ev["roll"]["summary"] == "Lena fails (difficult: wins the comparison but shows 0 of 1 needed 7+)"
    out = t.rolls.harha_edge_reroll(ev, "a", "lena", "Cold head", faces=[8, 2])
    assert out["event"]["roll"]["outcome"]["success"]


# -- H5 / H6: the same-size and sum variants are resolved as themselves ------------------------------------


def test_H6_sum_variant_rolls_one_die_and_adds_the_die_count():
    from polku.session.rolls import HarhaSide

    t = demo.demo_harhapolku()
    t.set_setting("harha.variant", "sum")
    # EX H: descriptive background + two specifications (3 dice with the base die... as counted by H5)
    a = HarhaSide("Lena", ["lena"], general="Island girl", background="Thief", significant="Keeper's daughter")
    b = HarhaSide("Tuomas", ["tuomas"], special="Sea-touched")
    assert len(t.rolls.harha_dice(a)) == 1 and len(t.rolls.harha_pool(a).dice) == 4 and len(t.rolls.harha_pool(b).dice) == 3
    ev = t.rolls.roll_harha(a, b, faces=([2], [5]))["event"]
    out = ev["roll"]["outcome"]
    assert ev["roll"]["test"] == "harhapolku-sum"
    assert (out["a_total"], out["b_total"], out["winner"]) == (6, 8, "b")
    assert ev["roll"]["settings"] == {"harha.variant": "sum", "harha.sum_difficult": "one_die"}  # H8 reads it (H6)


def test_H5_same_size_variant_uses_one_die_size_and_two_dice_for_a_special_background():
    from polku.session.rolls import HarhaSide

    t = demo.demo_harhapolku()
    t.set_setting("harha.variant", "same_size")
    b = HarhaSide("Tuomas", ["tuomas"], general="Fisherman", special="Sea-touched")
    pool = t.rolls.harha_pool(b)
    assert [d.size for d in pool.dice] == [8, 8, 8, 8]
    ev = t.rolls.roll_harha(HarhaSide("Lena", ["lena"]), b, faces=([5], [6, 1, 1, 1]))["event"]
    assert ev["roll"]["test"] == "harhapolku-same_size" and ev["roll"]["outcome"]["winner"] == "b"


# -- R11: spirit combat, the entry charge once per fight -------------------------------------------------------


def test_R11_entry_paid_once_winner_loses_nothing_and_a_third_exchange_works():
    t = demo.demo_rajapolku()
    a, b = "alyosha", "ghost-of-the-nurse"
    assert (t.characters[a]["charges"], t.characters[b]["charges"]) == (5, 6)
    first = t.rolls.roll_spirit(a, b, challenge="c3", faces=([9, 1, 1, 1], [8, 1, 1, 1, 1]))
    assert (t.characters[a]["charges"], t.characters[b]["charges"]) == (4, 4)  # entry 1 each; Nurse loses 1
    assert first["result"].winner == "a"
    t.rolls.roll_spirit(a, b, challenge="c3", faces=([9, 1, 1, 1], [8, 1, 1, 1]))
    assert (t.characters[a]["charges"], t.characters[b]["charges"]) == (4, 3)  # the winner loses nothing
    assert t.rolls.spirit_dice(a, b, "c3") == (4, 3)
    third = t.rolls.roll_spirit(a, b, challenge="c3", faces=([2, 1, 1, 1], [8, 1, 1]))
    assert (t.characters[a]["charges"], t.characters[b]["charges"]) == (3, 3)
    assert third["fight"].exchanges == 3 and t.challenge("c3")["status"] != "resolved"
    assert [e["kind"] for e in t.events[-1:]] == ["roll"]  # no entry charge after the first exchange
    t.rolls.end_spirit_fight("c3")
    assert t.challenge("c3")["status"] == "resolved"
    with pytest.raises(TrackerError, match="over"):
        t.rolls.roll_spirit(a, b, challenge="c3", faces=([1] * 3, [1] * 3))


# -- S5 the hits beside every glitch ------------------------------------------------------------


def test_S5_the_log_line_the_players_line_and_the_cli_put_the_hits_beside_the_glitch(capsys):
    from polku.cli import main
    from polku.session.players.public import public_summary
    from polku.session.rolls import SRSide

    t = sr_tracker()
    ev = t.rolls.roll_sr(SRSide("Odd", ["odd"], dice=12), threshold=2,
                         faces=[1, 1, 1, 1, 1, 1, 5, 5, 5, 6, 6, 6])["event"]
    assert ev["roll"]["summary"] == "6 hits, success, 4 net, MINOR GLITCH (6 hits)"
    assert ev["text"].endswith("MINOR GLITCH (6 hits)")
    assert public_summary(ev["roll"]) == "6 hits, threshold hidden by the GM, MINOR GLITCH (6 hits)"
    ev = t.rolls.roll_sr(SRSide("Odd", ["odd"], dice=3), faces=[1, 1, 5])["event"]
    assert ev["roll"]["summary"] == "1 hit, SERIOUS GLITCH (1 hit)"
    ev = t.rolls.roll_sr(SRSide("Odd", ["odd"], dice=3), faces=[1, 1, 2])["event"]
    assert ev["roll"]["summary"] == "0 hits, CRITICAL GLITCH (0 hits)"
    # the session report (players' and the GM's) words each glitch with its size
    from polku.session.review.export import export

    for gm in (False, True):
        report = export(t, "md", gm=gm)
        assert "MINOR GLITCH (6 hits)" in report and "SERIOUS GLITCH (1 hit)" in report, report
    assert main(["resolve", "shadowrun", "1,1,5"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "Shadowrun: 1 hit, serious glitch (1 hit)"
    assert main(["resolve", "shadowrun-opposed", "1,1,5", "6,6"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "Shadowrun opposed: B wins with 1 net hit; A serious glitch (1 hit)"
