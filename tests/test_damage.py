"""Damage from a roll (SR4 core beyond the dice text, S12 monitors) and harm proposals
(R8/R9, H9): rules with literal faces, then the session's commands, undo, save/reopen."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from polku.rules import rajapolku as raja
from polku.rules import shadowrun as sr
from polku.rules.dice import RulesError
from polku.rules.system import RAJA_WOUND_LEVELS, Settings
from polku.session import demo, model, records
from polku.session.files import create_session, load_tracker
from polku.session.rolls import RajaSide, SRSide
from polku.session.tracker import TrackerError

MON = sr.Monitors(physical=0, stun=0, physical_max=10, stun_max=10, overflow=0, body=4)


# -- rules: literal numbers ---------------------------------------------------------

def test_modified_damage_is_weapon_dv_plus_net_hits():
    """Predator DV 5 with 2 net hits → 7."""
    assert sr.modified_damage(5, 2) == 7
    assert sr.modified_damage(5, 0) == 5


def test_armour_after_ap_never_below_zero():
    """Armour 6 vs AP −2 → 4; armour 1 vs AP −4 → 0."""
    assert sr.effective_armour(6, -2) == 4
    assert sr.effective_armour(1, -4) == 0


def test_resistance_pool_is_body_plus_armour_after_ap():
    """Body 4 + armour 6 − AP 2 → 8 dice."""
    assert sr.resistance_pool(4, 6, -2) == 8
    assert sr.resistance_pool(4, 0) == 4


def test_stun_conversion_readings_differ_at_equal_values():
    """5P vs armour 6 → stun in both readings; 6P vs armour 6: physical ("below"), stun ("not_above")."""
    assert sr.damage_kind("physical", 5, 6) == "stun"
    assert sr.damage_kind("physical", 5, 6, "not_above") == "stun"
    assert sr.damage_kind("physical", 6, 6) == "physical"
    assert sr.damage_kind("physical", 6, 6, "not_above") == "stun"
    assert sr.damage_kind("physical", 2, 6, "never") == "physical"
    assert sr.damage_kind("stun", 9, 0) == "stun"


def test_resolve_damage_worked_example():
    """Predator 5P, 2 net hits → 7P; armour 6: not under, physical; Body 4 + armour 6 = 10 dice
    roll 5,6,1,2,3,5,4,2,1,6 → 4 hits → 3 boxes physical, wound modifier −1."""
    r = sr.roll(10, _faces(5, 6, 1, 2, 3, 5, 4, 2, 1, 6))
    assert r.hits == 4
    res = sr.resolve_damage(MON, 5, 2, "physical", 6, r.hits)
    assert (res.dv, res.kind, res.boxes) == (7, "physical", 3)
    assert (res.after.physical, res.after.stun, res.after.wound_modifier) == (3, 0, -1)


def test_resistance_hits_beyond_the_dv_leave_no_damage():
    """4S resisted with 6 hits → 0 boxes, nothing changes."""
    res = sr.resolve_damage(MON, 4, 0, "stun", 0, 6)
    assert res.boxes == 0 and res.after == MON


def test_stun_overflows_into_physical_one_box_per_box():
    """8 stun filled + 5 stun → stun 10/10 and 3 physical (SR4); under "half" only 1."""
    mon = sr.Monitors(0, 8, 10, 10, 0, 4)
    assert sr.take_damage(mon, 5, "stun") == sr.Monitors(3, 10, 10, 10, 0, 4)
    assert sr.take_damage(mon, 5, "stun", "half") == sr.Monitors(1, 10, 10, 10, 0, 4)


def test_physical_overflow_past_body_is_death():
    """Body 4: 9 physical + 4 → 10/10 and overflow 3 (dying); + 2 → overflow 5 > 4: dead."""
    mon = sr.take_damage(sr.Monitors(9, 0, 10, 10, 0, 4), 4, "physical")
    assert (mon.physical, mon.overflow, mon.dying, mon.dead) == (10, 3, True, False)
    at_body = sr.take_damage(mon, 1, "physical")
    assert (at_body.overflow, at_body.dead) == (4, False), "overflow equal to Body is still alive"
    mon = sr.take_damage(mon, 2, "physical")
    assert (mon.overflow, mon.dead, mon.state_text()) == (5, True, "dead")
    assert sr.take_damage(mon, 9, "physical").overflow == 5, "overflow stops at Body + 1"


def test_full_stun_monitor_is_unconscious_not_dying():
    mon = sr.take_damage(MON, 10, "stun")
    assert mon.unconscious and not mon.dying and mon.state_text() == "unconscious"


def test_faces_needed_walks_the_rule_of_six_waves():
    """Pool 3, Edge 2: 5 dice; 6,6,1,2,3 → 2 more; then 6,4 → 1 more; then 2 → done."""
    assert sr.faces_needed(3, 2, []) == 5
    assert sr.faces_needed(3, 2, [6, 6, 1, 2, 3]) == 2
    assert sr.faces_needed(3, 2, [6, 6, 1, 2, 3, 6, 4]) == 1
    assert sr.faces_needed(3, 2, [6, 6, 1, 2, 3, 6, 4, 2]) == 0
    assert sr.faces_needed(3, None, [6, 6, 6]) == 0, "without Edge a six does not explode"


def test_bad_damage_values_are_refused_in_one_line():
    with pytest.raises(RulesError, match="physical' or 'stun"):
        sr.damage_kind("fire", 3, 0)
    with pytest.raises(RulesError, match="damage value"):
        sr.modified_damage(-1, 0)


@given(st.integers(0, 12), st.integers(0, 12), st.integers(0, 30), st.sampled_from(["physical", "stun"]),
       st.sampled_from(["box", "half"]), st.integers(1, 8))
def test_damage_never_heals_and_stays_within_the_monitors(phys, stun, boxes, kind, rule, body):
    mon = sr.Monitors(min(phys, 10), min(stun, 10), 10, 10, 0, body)
    after = sr.take_damage(mon, boxes, kind, rule)
    assert after.physical >= mon.physical and after.stun >= mon.stun and after.overflow >= mon.overflow
    assert after.physical <= 10 and after.stun <= 10 and after.overflow <= body + 1
    if kind == "physical" or rule == "box":
        gained = (after.physical - mon.physical) + (after.stun - mon.stun) + (after.overflow - mon.overflow)
        assert gained == boxes or after.overflow == body + 1, "every box lands somewhere until death"


def test_R8_harm_steps_one_level_per_degree():
    """EX C (3 degrees) from Healthy → Badly wounded; EX A (1) → Bruised; Mortally wounded + 3 → Dead."""
    track = list(RAJA_WOUND_LEVELS)
    assert raja.harm_steps(3, track, "Healthy") == (3, "Badly wounded")
    assert raja.harm_steps(1, track, "Healthy") == (1, "Bruised")
    assert raja.harm_steps(3, track, "Mortally wounded") == (2, "Dead")
    assert raja.harm_steps(0, track, "Wounded") == (0, "Wounded")


def _faces(*faces: int):
    from polku.rules.dice import ManualSource

    return ManualSource(list(faces))


# -- session: apply damage from an opposed attack --------------------------------------

def _attack(t, a_faces, b_faces, target="ganger"):
    return t.rolls.roll_sr_opposed(SRSide("Kaneda", ["kaneda"], dice=len(a_faces)),
                             SRSide(t.character(target)["name"], [target], dice=len(b_faces)),
                             faces=(a_faces, b_faces))["event"]


def test_apply_damage_from_an_opposed_attack_fills_boxes_and_remembers_weapon_and_armour():
    """Kaneda 3 hits vs Ganger 0: Ares Predator 5P + 3 = 8P; Body 4 + armour 6 = 10 dice, 4 hits → 4 boxes."""
    t = demo.demo_varjojuoksu()
    ev = _attack(t, [5, 6, 5], [1, 2])
    offer = t.damage.offer(ev)
    assert offer.allowed and offer.targets == ["ganger"] and offer.net_hits == 3
    out = t.damage.apply(ev, target="ganger", dv=5, armour=6, weapon="Ares Predator",
                         faces=[5, 6, 1, 2, 3, 5, 4, 2, 1, 6])
    g = t.character("ganger")
    assert g["physical"] == 4 and g["armour"] == {"ballistic": 6, "impact": 0}
    assert t.wound_penalty("ganger") == 1
    assert t.character("kaneda")["weapons"][0] == {"name": "Ares Predator", "dv": 5, "damage": "physical", "ap": 0,
                                                   "skill": "", "kind": "ranged"}
    assert t.character("kaneda")["wielded"] == "Ares Predator"
    assert "8P − 4 hits → 4 boxes physical" in out["event"]["text"]
    again = t.damage.offer(ev)
    assert again.weapons[0].name == "Ares Predator" and again.armour == 6, "remembered for the next hit"


def test_damage_under_the_armour_is_stun():
    """3P + 1 net hit = 4 vs armour 6 → stun; resisted by Body 4 + 6 with 1 hit → 3 stun."""
    t = demo.demo_varjojuoksu()
    ev = _attack(t, [5, 2], [1, 2])
    t.damage.apply(ev, target="ganger", dv=3, armour=6, faces=[5, 1, 1, 2, 3, 4, 4, 2, 3, 2])
    g = t.character("ganger")
    assert (g["physical"], g["stun"]) == (0, 3)


def test_edge_on_the_resistance_roll_spends_edge_and_explodes_sixes():
    """Body 4 + armour 0 + Edge 3 (Ganger's rating) = 7 dice, 6,6,1,1,2,3,4 then 5,2 → 3 hits."""
    t = demo.demo_varjojuoksu()
    ev = _attack(t, [5, 5, 5, 5], [1])
    g0 = copy.deepcopy(t.character("ganger"))
    n = sr.resistance_pool(g0["attributes"]["body"], 0) + g0["edge_rating"]
    faces = ([6, 6] + [2] * (n - 2)) + [5, 2]
    assert t.damage.faces_needed("ganger", 0, 0, True, faces[:n]) == 2
    out = t.damage.apply(ev, target="ganger", dv=6, faces=faces, edge=True)
    assert out["result"].resist_hits == 3
    assert t.character("ganger")["edge"] == g0["edge"] - 1
    assert out["result"].boxes == 6 + 4 - 3


def test_S7_edge_after_the_resistance_roll_takes_boxes_off_for_each_new_hit():
    """Kaneda 4 hits vs 1: Predator 5P + 3 = 8P; Body 4 + armour 0: 4 dice 5,1,2,3 → 1 hit → 7 boxes.
    Edge after (Ganger's rating 1): +1 die, a 6, and the six's die 5 → 2 more hits: 3 hits → 5 boxes,
    filled again from the monitors before the hit, one command that undoes to the 7 boxes."""
    t = demo.demo_varjojuoksu()
    g0 = copy.deepcopy(t.character("ganger"))
    assert (g0["attributes"]["body"], g0["edge_rating"], g0["physical"]) == (4, 1, 0)
    ev = _attack(t, [5, 5, 5, 5], [5])
    first = t.damage.apply(ev, target="ganger", dv=5, armour=0, faces=[5, 1, 2, 3])
    assert first["result"].boxes == 7 and t.character("ganger")["physical"] == 7
    acts = {a.name: a for a in t.damage.post_roll_actions(first["event"])}
    assert acts["edge_after"].allowed and acts["edge_after"].who == "ganger"
    assert not acts["negate_glitch"].allowed, "no glitch on 5,1,2,3"
    assert t.damage.post_roll_dice(first["event"], "edge_after") == 1
    out = t.damage.post_roll(first["event"], "edge_after", faces=[6, 5])
    g = t.character("ganger")
    assert out["result"].resist_hits == 3 and out["result"].boxes == 5
    assert (g["physical"], g["edge"]) == (5, g0["edge"] - 1)
    roll = out["event"]["roll"]
    assert roll["supersedes"] == first["event"]["seq"] and roll["attack"] == ev["seq"]
    assert [d["face"] for d in roll["sides"][0]["dice"]] == [5, 1, 2, 3, 6, 5]
    assert "Ganger takes DV 5P: 8P − 3 hits → 5 boxes physical" in out["event"]["text"]
    # one Edge point per test for dice (S7): no second Edge after
    again = {a.name: a for a in t.damage.post_roll_actions(out["event"])}
    assert not again["edge_after"].allowed and "one Edge point per test" in again["edge_after"].reason
    with pytest.raises(TrackerError, match="one Edge point per test"):
        t.damage.post_roll(out["event"], "edge_after", faces=[5])
    t.undo()
    assert (t.character("ganger")["physical"], t.character("ganger")["edge"]) == (7, g0["edge"])


def test_S5_S6_a_glitch_on_the_resistance_roll_can_be_negated_and_a_critical_one_reduced():
    """Body 4 + armour 0 = 4 dice. 1,1,5,2: two 1s of four → a glitch, 1 hit; negate it (S5).
    1,1,2,3: two 1s, no hit → a critical glitch; Edge cannot negate it, but reduces it (S6)."""
    t = demo.demo_varjojuoksu()
    ev = _attack(t, [5, 5, 5, 5], [5])
    out = t.damage.apply(ev, target="ganger", dv=5, armour=0, faces=[1, 1, 5, 2])
    assert out["event"]["roll"]["outcome"]["glitch"]
    acts = {a.name: a for a in t.damage.post_roll_actions(out["event"])}
    assert acts["negate_glitch"].allowed and not acts["reduce_critical"].allowed
    neg = t.damage.post_roll(out["event"], "negate_glitch")
    assert not neg["event"]["roll"]["outcome"]["glitch"], "negated"
    assert t.character("ganger")["physical"] == 7, "negating a glitch changes no hit"
    t.undo()
    t.undo()
    crit = t.damage.apply(ev, target="ganger", dv=5, armour=0, faces=[1, 1, 2, 3])
    assert crit["event"]["roll"]["outcome"]["critical_glitch"]
    acts = {a.name: a for a in t.damage.post_roll_actions(crit["event"])}
    assert not acts["negate_glitch"].allowed and acts["reduce_critical"].allowed
    red = t.damage.post_roll(crit["event"], "reduce_critical")
    assert red["event"]["roll"]["outcome"]["glitch"] and not red["event"]["roll"]["outcome"]["critical_glitch"]


def test_edge_after_the_resistance_roll_is_refused_once_the_boxes_or_the_log_moved_on():
    t = demo.demo_varjojuoksu()
    ev = _attack(t, [5, 5, 5, 5], [5])
    out = t.damage.apply(ev, target="ganger", dv=5, armour=0, faces=[5, 1, 2, 3])
    t.set_condition("ganger", "physical", 8)
    acts = {a.name: a for a in t.damage.post_roll_actions(out["event"])}
    assert not acts["edge_after"].allowed and "boxes changed" in acts["edge_after"].reason
    t.undo()
    _attack(t, [5], [1])  # a newer roll: the resistance roll is history
    acts = {a.name: a for a in t.damage.post_roll_actions(out["event"])}
    assert not acts["edge_after"].allowed and "latest" in acts["edge_after"].reason
    n = len(t.events)
    with pytest.raises(TrackerError, match="latest"):
        t.damage.post_roll(out["event"], "edge_after", faces=[5, 5, 5])
    assert len(t.events) == n, "refused: nothing logged"
    # a wrong number of faces is refused in one line and changes nothing
    fresh = t.damage.apply(_attack(t, [5, 5], [1]), target="ganger", dv=2, armour=0, faces=[2, 2, 2, 2])
    before = copy.deepcopy(t.state)
    with pytest.raises((TrackerError, RulesError)):
        t.damage.post_roll(fresh["event"], "edge_after", faces=[5, 5])
    assert t.state == before


def test_damage_refused_when_the_attack_missed_or_the_roll_is_not_an_attack():
    t = demo.demo_varjojuoksu()
    miss = _attack(t, [1, 2], [5])
    assert not t.damage.offer(miss).allowed
    with pytest.raises(TrackerError, match="missed"):
        t.damage.apply(miss, target="ganger", dv=5)
    plain = t.rolls.roll_sr(SRSide("Kaneda", ["kaneda"], dice=2), faces=[5, 5])["event"]
    assert "opposed" in t.damage.offer(plain).reason
    n = len(t.events)
    with pytest.raises(TrackerError, match="defender"):
        t.damage.apply(_attack(t, [5], [1]), target="nyx", dv=5)
    assert len(t.events) == n + 1, "the refused damage logged nothing"


def test_wrong_face_count_changes_nothing():
    t = demo.demo_varjojuoksu()
    ev = _attack(t, [5, 6], [1])
    before = copy.deepcopy(t.state)
    with pytest.raises(TrackerError, match="face"):
        t.damage.apply(ev, target="ganger", dv=5, faces=[1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6])
    assert t.state == before


def test_apply_damage_is_one_undoable_command_and_survives_reopening(tmp_path: Path):
    t = demo.demo_varjojuoksu()
    ev = _attack(t, [5, 6, 5], [1, 2])
    before = copy.deepcopy(t.state)
    t.damage.apply(ev, target="ganger", dv=9, weapon="Shotgun", faces=[1, 1, 2, 2])
    after = copy.deepcopy(t.state)
    t.undo()
    assert t.state == before
    t.redo()
    assert t.state == after
    path = tmp_path / "sr.toml"
    create_session(path, t).close()
    again, _ = load_tracker(path, read_only=True)
    assert again.state == after
    assert records.sr(again.character("ganger"))["overflow"] == 2, "9P + 3 net hits = 12 boxes: 10 and 2 overflow"


@pytest.mark.parametrize("key,value,message", [
    ("overflow", 99, "overflow: 99 is above"),
    ("armour", -1, "armour: -1 is below"),
    ("weapons", [{"name": "x", "dv": 5, "damage": "fire", "ap": 0}], "damage: 'fire'"),
    ("weapons", [{"name": "x", "dv": 5, "damage": "physical", "ap": 100}], "ap: AP must be between"),
    ("weapons", [{"name": "x", "dv": 5, "damage": "physical", "ap": "+2"}], "ap: only '-half'"),
    ("weapons", [{"name": "x", "dv": 5, "damage": "physical", "ap": 0, "kind": "lobbed"}], "kind: 'lobbed'"),
    ("armour", {"ballistic": 6}, "armour.impact: missing"),
])
def test_damaged_damage_fields_are_refused_on_load(tmp_path: Path, key, value, message):
    t = demo.demo_varjojuoksu()
    cast(dict[str, Any], t.state["characters"]["ganger"])[key] = value  # a damaged field, any key
    with pytest.raises(model.StateError, match=message):
        model.validate_state(t.state)


def test_secret_defenders_damage_stays_with_the_gm():
    from polku.session.players.public import public_events

    t = demo.demo_varjojuoksu()
    t.update_character("ganger", "secret", True)
    ev = _attack(t, [5, 6], [1])
    t.damage.apply(ev, target="ganger", dv=5, weapon="Predator", faces=[1, 1, 1, 1])
    lines = [e["text"] for e in public_events(t)]
    assert not any("Ganger" in x or "Predator" in x for x in lines)


def test_settings_change_the_damage_reading():
    """6P vs armour 6 is physical by default; after sr.stun_conversion = not_above, stun."""
    t = demo.demo_varjojuoksu()
    t.set_setting("sr.stun_conversion", "not_above")
    ev = _attack(t, [5, 2], [1])
    out = t.damage.apply(ev, target="ganger", dv=5, armour=6, faces=[1] * 10)
    assert out["result"].kind == "stun"
    assert out["event"]["roll"]["settings"]["sr.stun_conversion"] == "not_above"
    assert Settings().sr_stun_conversion == "below"


# -- session: harm proposals --------------------------------------------------------------

def test_R8_lost_challenge_proposes_a_step_per_degree_and_the_gm_may_edit_it():
    """EX C: Alyosha 10,8,7 vs the Pickpocket 6,5 → 3 degrees: Healthy → Badly wounded proposed."""
    t = demo.demo_rajapolku()
    ev = t.rolls.roll_raja(RajaSide("Alyosha", ["alyosha"], backgrounds=["Militia", "x"]),
                     RajaSide("The Pickpocket", ["the-pickpocket"], backgrounds=["y"]),
                     faces=([10, 8, 7], [6, 5]))["event"]
    offer = t.damage.harm_offer(ev)
    assert offer.allowed and offer.who == "the-pickpocket"
    assert (offer.steps, offer.level_from, offer.level_to) == (3, "Healthy", "Badly wounded")
    before = copy.deepcopy(t.state)
    t.damage.apply_harm(offer, steps=1, note="a bloody nose")
    p = t.character("the-pickpocket")
    assert (p["wound"], p["health"]) == ("Bruised", "a bloody nose")
    t.undo()
    assert t.state == before


def test_R6_narrow_win_proposes_a_health_note_not_a_step():
    t = demo.demo_rajapolku()
    ev = t.rolls.roll_raja(RajaSide("Alyosha", ["alyosha"], backgrounds=["x"]),
                     RajaSide("The Pickpocket", ["the-pickpocket"]), faces=([7, 5], [7]))["event"]
    offer = t.damage.harm_offer(ev)
    assert offer.allowed and offer.steps == 0 and "narrow" in offer.reason


def _usurp_with_four(t):
    t.rolls.narration_roll_background("Tuomas", "Harbour rat", 8, faces=[8])
    t.rolls.narration_usurp("Tuomas", list(t.rolls.narration().hand("Tuomas")))  # 5+4+9+8 = 26 > 13: harm roll


def test_H9_harm_roll_above_the_usurper_proposes_a_harm_note():
    """A firefight (d10): GM 10+10+9+1 = 30 > Tuomas's 26 → harmed; the note is the GM's to word."""
    t = demo.demo_harhapolku()
    t.rolls.narration_conflict("firefight", False)
    _usurp_with_four(t)
    t.rolls.narration_harm(faces=[10, 10, 9, 1])
    offer = t.damage.harm_offer(t.events[-1])
    # The totals are in the offer's reason; the note, which outlives the roll, tells none of them.
    assert offer.allowed and offer.who == "tuomas" and "GM 30 > 26" in offer.reason
    assert offer.note == "harmed in the narration contest"
    t.damage.apply_harm(offer, note="grazed by a bullet")
    assert t.character("tuomas")["health"] == "grazed by a bullet"


def test_H9_harm_roll_not_above_proposes_nothing():
    """A brawl (d6): GM 6+6+6+6 = 24 is not above 26 → unharmed, nothing offered."""
    t = demo.demo_harhapolku()
    _usurp_with_four(t)
    t.rolls.narration_harm(faces=[6, 6, 6, 6])
    offer = t.damage.harm_offer(t.events[-1])
    assert not offer.allowed and "unharmed" in offer.reason
    with pytest.raises(TrackerError, match="unharmed"):
        t.damage.apply_harm(offer)


def _dice(size, faces):
    from polku.rules.dice import Die, Src

    return [Die(size, f, Src.BACKGROUND, "bg") for f in faces]


def test_condition_text_names_unconscious_dying_and_dead():
    """Ganger Body 4, 10 boxes: full stun → unconscious; 10 physical + 2 → dying (overflow 2/4); + 3 more → dead."""
    t = demo.demo_varjojuoksu()
    assert t.damage.condition_text("ganger") == ""
    t.set_condition("ganger", "stun", t.condition_monitor("ganger", "stun"))
    assert t.damage.condition_text("ganger") == "unconscious"
    t.damage.apply(None, target="ganger", dv=t.condition_monitor("ganger", "physical") + 2, faces=[1, 1, 1, 1])
    assert t.damage.condition_text("ganger") == "dying (overflow 2/4)"
    t.damage.apply(None, target="ganger", dv=3, faces=[1, 1, 1, 1])
    assert t.damage.condition_text("ganger") == "dead"
    assert demo.demo_rajapolku().damage.condition_text("alyosha") == ""


def test_the_last_used_weapon_comes_first_and_a_weapon_is_kept_once():
    t = demo.demo_varjojuoksu()
    for weapon, dv in (("Predator", 5), ("Shotgun", 7), ("predator", 6)):
        ev = _attack(t, [5, 6], [1])
        t.damage.apply(ev, target="ganger", dv=dv, weapon=weapon, faces=[5, 5, 5, 5])
    names = [(w.name, w.dv) for w in t.damage.offer(_attack(t, [5], [1])).weapons]
    assert names == [("predator", 6), ("Shotgun", 7)], "re-typed Predator replaces the old one and comes first"


# -- the proposals in the GM's language --------------------------------------------------------------


def test_the_damage_and_harm_proposals_read_in_finnish_and_stay_english_in_english():
    """The damage screen's reason and preview line and the harm screen's reason, as a Finnish GM reads them
    (i18n.shown, the screens' way), and byte for byte as before in English."""
    from polku import i18n

    t = demo.demo_varjojuoksu()
    ev = _attack(t, [5, 6, 5], [1, 2])
    offer = t.damage.offer(ev)
    preview = t.damage.preview("ganger", 5, 3, "physical", 0, 6, True, "ballistic")
    assert offer.reason == "net hits 3 add to the weapon's damage value"
    assert preview == "DV 5 + 3 net = 8P · resist: Body 4 + ballistic armour 6 = 10 dice + 1 Edge, sixes explode"
    r = demo.demo_rajapolku()
    won = r.rolls.roll_raja(RajaSide("Alyosha", ["alyosha"], backgrounds=["Militia", "x"]),
                            RajaSide("The Pickpocket", ["the-pickpocket"], backgrounds=["y"]),
                            faces=([10, 8, 7], [6, 5]))["event"]
    harm = r.damage.harm_offer(won)
    assert harm.reason == "3 degrees: 3 steps down the wound track (R8, R9)"
    i18n.set_language("fi")
    assert i18n.shown(offer.reason) == "netto-osumat 3 lisätään aseen vahinkoarvoon"
    assert t.damage.preview("ganger", 5, 3, "physical", 0, 6, True, "ballistic") == (
        "DV 5 + 3 netto = 8P · sieto: keho 4 + luotipanssari 6 = 10 noppaa + 1 Edge, kutoset räjähtävät")
    assert i18n.shown(harm.reason) == "3 astetta: 3 askelta alas haavatasoilla (R8, R9)"
