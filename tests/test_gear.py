"""Gear on Varjojuoksu sheets and templates: AP as the books print it, the armour that meets a
weapon, a group sharing its template's pistol, damage from the weapon on the attacker's sheet."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from polku.rules import shadowrun as sr
from polku.rules.dice import RulesError
from polku.session import demo, model, records
from polku.session.files import create_session, load_tracker
from polku.session.rolls import SRSide
from polku.session.table.gear import Armour, Weapon, format_weapon, parse_armour, parse_weapon
from polku.session.tracker import Tracker, TrackerError


@pytest.mark.parametrize("printed,modifier,half", [
    ("-1", -1, False), ("−2", -2, False), ("–3", -3, False), ("+2", 2, False), ("+5", 5, False),
    ("-half", 0, True), ("−half", 0, True), ("–half", 0, True), ("-", 0, False), ("—", 0, False),
    ("", 0, False), ("0", 0, False), ("4", 4, False), (-4, -4, False), ("-half ", 0, True),
])
def test_ap_takes_what_the_books_print(printed, modifier, half):
    ap = sr.parse_ap(printed)
    assert (ap.modifier, ap.half) == (modifier, half)


@pytest.mark.parametrize("bad", ["half", "+half", "-1.5", "x", "--2", "-200", "AP -2", "1/2"])
def test_ap_refuses_anything_else_in_one_line(bad):
    with pytest.raises(RulesError) as e:
        sr.parse_ap(bad)
    assert "\n" not in str(e.value) and "AP must be" in str(e.value)


def test_armour_after_ap_modifier_positive_and_half():
    """Armour 6, AP −2 → 4; AP +2 → 8; −half: 6 → 3, 7 → 4 (rounded up); never below 0."""
    assert sr.effective_armour(6, sr.parse_ap("-2")) == 4
    assert sr.effective_armour(6, sr.parse_ap("+2")) == 8
    assert sr.effective_armour(6, sr.parse_ap("-half")) == 3
    assert sr.effective_armour(7, sr.parse_ap("−half")) == 4
    assert sr.effective_armour(1, sr.parse_ap("-4")) == 0
    assert sr.resistance_pool(4, 6, sr.parse_ap("-half")) == 7


@given(st.integers(0, 99), st.integers(-99, 99))
def test_ap_stored_form_reads_back(armour, mod):
    ap = sr.ArmourPenetration(mod)
    assert sr.parse_ap(ap.to_json()) == ap
    assert sr.parse_ap(ap.text if mod else "-") == ap
    assert 0 <= sr.effective_armour(armour, ap) == max(0, armour + mod)


def test_ballistic_meets_ranged_and_impact_melee_and_thrown():
    assert sr.armour_against(sr.weapon_kind("Pistols")) == "ballistic"
    assert sr.armour_against(sr.weapon_kind("Archery")) == "ballistic"
    assert sr.armour_against(sr.weapon_kind("Blades")) == "impact"
    assert sr.armour_against(sr.weapon_kind("Unarmed Combat")) == "impact"
    assert sr.armour_against(sr.weapon_kind("Throwing Weapons")) == "impact"
    assert Armour(6, 4).against("ranged") == 6 and Armour(6, 4).against("melee") == 4


def test_a_weapon_in_one_line_and_back():
    w = parse_weapon("Ares Predator IV, 5P, -1, Pistols")
    assert w == Weapon("Ares Predator IV", 5, "physical", sr.ArmourPenetration(-1), "Pistols", "ranged")
    assert parse_weapon(format_weapon(w)) == w
    k = parse_weapon("Katana, 7P, -1, Blades")
    assert k.kind == "melee" and k.armour == "impact"
    s = parse_weapon("Shock Hand, 6S, -half, Unarmed Combat")
    assert s.damage == "stun" and s.ap.half and parse_weapon(format_weapon(s)) == s
    assert parse_weapon("Knife, 3P, -, Blades, thrown").kind == "thrown"
    assert parse_armour("6/4") == Armour(6, 4) and parse_armour("5") == Armour(5, 5)


@pytest.mark.parametrize("bad,says", [
    ("Predator", "write a weapon as"), ("Predator, five", "damage is a number"),
    ("Predator, 5P, -x", "AP must be"), ("Bow, 4P, -, Archery, lobbed", "a weapon is ranged"),
])
def test_a_bad_weapon_line_is_refused_in_one_line(bad, says):
    with pytest.raises(TrackerError, match=says) as e:
        parse_weapon(bad)
    assert "\n" not in str(e.value)


def _gangers() -> Tracker:
    t = demo.demo_varjojuoksu()
    t.roster.save_template("ganger")
    t.roster.set_weapon("Ganger", None, parse_weapon("Colt America L36, 4P, -, Pistols"), template=True)
    t.roster.set_armour("Ganger", Armour(4, 2), template=True)
    t.roster.add_from_template("Ganger", 4)
    return t


def test_a_ganger_group_shares_its_templates_pistol_and_armour():
    t = _gangers()
    members = [c for c, ch in t.characters.items() if ch.get("group")]
    assert len(members) == 4
    for cid in members:
        assert [w.name for w in t.damage.weapons(cid)] == ["Colt America L36"]
        assert t.damage.armour(cid) == Armour(4, 2)
        assert "weapons" not in t.character(cid), "shared, not copied"
    # the template's pistol changes: every ganger's changes with it
    t.roster.set_weapon("Ganger", 0, parse_weapon("Ares Predator IV, 5P, -1, Pistols"), template=True)
    assert {t.damage.weapons(c)[0].name for c in members} == {"Ares Predator IV"}
    # one ganger picks up a knife: its own list, the others keep sharing
    t.roster.set_weapon(members[0], None, parse_weapon("Knife, 2P, -, Blades"))
    assert [w.name for w in t.damage.weapons(members[0])] == ["Ares Predator IV", "Knife"]
    assert [w.name for w in t.damage.weapons(members[1])] == ["Ares Predator IV"]
    # the template goes: the members keep what they carried
    t.roster.remove_template("Ganger")
    assert [w.name for w in t.damage.weapons(members[1])] == ["Ares Predator IV"]
    assert t.damage.armour(members[1]) == Armour(4, 2)


def test_damage_takes_the_sheets_weapon_its_ap_and_the_armour_of_its_kind():
    """Kaneda's katana 7P AP −1 (melee) vs the ganger's armour 6/2: impact 2 − 1 = 1;
    3 net hits → 10P; Body 4 + 1 = 5 dice, 5 5 1 1 2 → 2 hits → 8 boxes."""
    t = demo.demo_varjojuoksu()
    t.roster.set_weapon("kaneda", None, parse_weapon("Ares Predator IV, 5P, -1, Pistols"))
    t.roster.set_weapon("kaneda", None, parse_weapon("Katana, 7P, -1, Blades"))
    t.roster.set_armour("ganger", Armour(6, 2))
    ev = t.rolls.roll_sr_opposed(SRSide("Kaneda", ["kaneda"], dice=3), SRSide("Ganger", ["ganger"], dice=2),
                                 faces=([5, 6, 5], [1, 2]))["event"]
    offer = t.damage.offer(ev)
    assert offer.weapons[0].name == "Ares Predator IV" and offer.armour == 6, "ballistic against the pistol"
    katana = offer.weapons[1]
    armour, which = t.damage.armour_against("ganger", katana.kind)
    assert (armour, which) == (2, "impact")
    assert t.damage.preview("ganger", katana.dv, 3, katana.damage, katana.ap, armour, False, which).endswith(
        "Body 4 + impact armour 1 = 5 dice")
    out = t.damage.apply(ev, target="ganger", dv=katana.dv, ap=katana.ap, armour=armour, weapon=katana.name,
                         skill=katana.skill, kind=katana.kind, faces=[5, 5, 1, 1, 2])
    assert t.character("ganger")["physical"] == 8
    assert "resistance: Body 4 + impact armour 1 (2, AP −1) = 5 dice" in out["event"]["roll"]["explain"]
    # remembered per character: the next attack proposes the katana, whoever the target
    assert t.character("kaneda")["wielded"] == "Katana"
    assert [w.name for w in t.damage.weapons("kaneda")] == ["Katana", "Ares Predator IV"]
    assert t.character("ganger")["armour"] == {"ballistic": 6, "impact": 2}, "the sheet's armour is unchanged"


def test_half_ap_halves_the_armour_in_the_resistance_roll():
    """Shock hand 6S AP −half vs ganger impact 5 → 3 (rounded up); Body 4 + 3 = 7 dice."""
    t = demo.demo_varjojuoksu()
    t.roster.set_armour("ganger", Armour(8, 5))
    out = t.damage.apply(None, target="ganger", dv=6, damage="stun", ap="-half", kind="melee",
                         faces=[1, 2, 3, 4, 1, 2, 3], net_hits=0)
    assert "resistance: Body 4 + impact armour 3 (5, AP −half) = 7 dice" in out["event"]["roll"]["explain"]
    with pytest.raises(TrackerError, match="AP must be"):
        t.damage.apply(None, target="ganger", dv=6, ap="half", faces=[1] * 9)


def test_an_older_file_with_one_armour_number_and_old_weapons_loads_and_plays_as_before(tmp_path: Path):
    """No gear written by this version: one armour number serves both kinds, a weapon without skill is ranged."""
    t = demo.demo_varjojuoksu()
    records.sr(t.state["characters"]["ganger"])["armour"] = 6
    records.sr(t.state["characters"]["kaneda"])["weapons"] = [{"name": "Predator", "dv": 5, "damage": "physical", "ap": -1}]
    path = tmp_path / "old.toml"
    create_session(path, t).close()
    again, _ = load_tracker(path, read_only=True)
    assert again.damage.armour("ganger") == Armour(6, 6)
    assert again.damage.weapons("kaneda") == [Weapon("Predator", 5, "physical", sr.ArmourPenetration(-1))]
    assert again.damage.armour_against("ganger", "melee") == (6, "impact")


def test_gear_is_saved_and_read_back(tmp_path: Path):
    t = _gangers()
    path = tmp_path / "g.toml"
    create_session(path, t).close()
    again, _ = load_tracker(path, read_only=True)
    assert again.state == t.state
    model.validate_state(again.state)


def test_gear_of_a_secret_character_never_reaches_the_players():
    from polku.session.players.public import public_view

    t = demo.demo_varjojuoksu()
    t.update_character("ganger", "secret", True)
    t.roster.set_weapon("ganger", None, parse_weapon("Monofilament Whip, 8P, -4, Exotic Melee Weapon"))
    t.roster.set_armour("ganger", Armour(9, 7))
    t.roster.set_weapon("kaneda", None, parse_weapon("Ares Predator IV, 5P, -1, Pistols"))
    view = public_view(t)
    seen = repr(view.state) + repr(view.events)
    assert "Monofilament" not in seen and "ballistic 9" not in seen
    assert "Ares Predator" not in repr(view.state), "gear is the GM's: never in the players' state"
