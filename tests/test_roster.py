"""NPC templates and groups ("add 4× Ganger", numbered names, shared or separate
initiative, remove the fallen), copied characters and saved pools: each a logged,
undoable command that survives save/reopen and never shows a secret to the players."""

from __future__ import annotations

import copy
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from polku.session import demo, model, records
from polku.session.copying import read_characters
from polku.session.files import create_session, load_tracker
from polku.session.importers.chummer import read_chummer
from polku.session.players.public import public_view
from polku.session.rolls import SRSide
from polku.session.table.damage import Damage, HarmOffer
from polku.session.table.gear import Armour, parse_weapon
from polku.session.table.roster import Roster, numbered_names
from polku.session.tracker import Tracker, TrackerError


def sr_with_gangers(n: int = 4) -> Tracker:
    t = demo.demo_varjojuoksu()
    t.roster.save_template("ganger")
    t.roster.add_from_template("Ganger", n)
    return t


def test_numbered_names_go_on_after_those_in_play():
    assert numbered_names("Ganger", ["Ganger", "Ganger 2", "ganger 5", "Nyx"], 3) == ["Ganger 6", "Ganger 7",
                                                                                  "Ganger 8"]
    assert numbered_names("Ganger", [], 2) == ["Ganger 1", "Ganger 2"]


def test_add_four_gangers_from_a_template_in_one_group():
    t = demo.demo_varjojuoksu()
    g = t.character("ganger")
    t.roster.save_template("ganger")
    n = len(t.events)
    ids = t.roster.add_from_template("Ganger", 4, initiative="separate")
    assert [t.character(c)["name"] for c in ids] == ["Ganger 1", "Ganger 2", "Ganger 3", "Ganger 4"]
    assert len(t.events) == n + 1, "one command, one log line"
    assert "4× Ganger join" in t.events[-1]["text"]
    for c in ids:
        ch = t.character(c)
        assert ch["attributes"] == g["attributes"] and ch["skills"] == g["skills"]
        assert ch["physical"] == 0 and ch["edge"] == ch["edge_rating"]
    (group, members), = t.roster.initiative_groups()
    assert members == ids and group["initiative"] == "separate"
    more = t.roster.add_from_template("Ganger", 2)
    assert [t.character(c)["name"] for c in more] == ["Ganger 5", "Ganger 6"]
    assert t.roster.members(group["id"]) == ids + more, "the same group takes the newcomers"
    assert t.roster.initiative_groups()[0][0]["initiative"] == "separate", "and keeps its choice"


def test_template_has_fresh_per_fight_values():
    t = demo.demo_varjojuoksu()
    t.set_condition("ganger", "physical", 5)
    tpl = t.roster.save_template("ganger")
    assert tpl["physical"] == 0 and tpl["name"] == "Ganger"


def test_adding_too_many_or_an_unknown_template_is_refused():
    t = demo.demo_varjojuoksu()
    with pytest.raises(TrackerError, match="no template"):
        t.roster.add_from_template("Troll", 2)
    t.roster.save_template("ganger")
    before = copy.deepcopy(t.state)
    for n in (0, 21):
        with pytest.raises(TrackerError, match="add 1 to 20"):
            t.roster.add_from_template("Ganger", n)
    assert t.state == before


def test_remove_the_fallen_in_one_command_and_undo_brings_them_back():
    t = sr_with_gangers()
    t.set_condition("ganger-1", "physical", t.condition_monitor("ganger-1", "physical"))
    t.set_condition("ganger-3", "stun", t.condition_monitor("ganger-3", "stun"))
    t.set_condition("nyx", "stun", t.condition_monitor("nyx", "stun"))
    assert t.roster.fallen() == ["ganger-1", "ganger-3"], "a fallen player character stays"
    before = copy.deepcopy(t.state)
    gone = t.roster.remove_fallen()
    assert gone == ["ganger-1", "ganger-3"] and "ganger-1" not in t.characters
    assert "The fallen leave: Ganger 1, Ganger 3" in t.events[-1]["text"]
    t.undo()
    assert t.state == before
    with pytest.raises(TrackerError, match="nobody has fallen"):
        demo.demo_varjojuoksu().roster.remove_fallen()


def test_the_last_of_a_group_falling_removes_the_group():
    t = sr_with_gangers(1)
    t.set_condition("ganger-1", "physical", t.condition_monitor("ganger-1", "physical"))
    t.roster.remove_fallen()
    assert t.roster.groups == {}


def test_rajapolku_fallen_are_out_of_play_or_dead():
    t = demo.demo_rajapolku()
    t.set_wound("the-pickpocket", "Out of play")
    t.set_wound("alyosha", "Dead")
    assert t.roster.fallen() == ["the-pickpocket"]


def test_groups_and_templates_survive_reopening_and_damage_is_refused_on_load(tmp_path: Path):
    t = sr_with_gangers()
    t.roster.save_pool("kaneda", {"name": "Pistols", "mode": "skill", "skill": "Pistols",
                                  "attribute": "agility", "second": "strength", "count": 6})
    path = tmp_path / "g.toml"
    create_session(path, t).close()
    again, _ = load_tracker(path, read_only=True)
    assert again.state == t.state
    assert [c for _, m in again.roster.initiative_groups() for c in m] == ["ganger-1", "ganger-2", "ganger-3",
                                                                           "ganger-4"]
    bad = copy.deepcopy(t.state)
    bad["characters"]["ganger-2"]["group"] = "grp-nope"
    with pytest.raises(model.StateError, match="no group 'grp-nope'"):
        model.validate_state(bad)
    bad = copy.deepcopy(t.state)
    bad["groups"]["grp-ganger"]["initiative"] = "sometimes"
    with pytest.raises(model.StateError, match="initiative: 'sometimes'"):
        model.validate_state(bad)
    bad = copy.deepcopy(t.state)
    records.sr(bad["templates"]["tpl-ganger"])["attributes"]["body"] = 40
    with pytest.raises(model.StateError, match="templates.tpl-ganger.attributes.body"):
        model.validate_state(bad)
    bad = copy.deepcopy(t.state)
    records.sr(bad["characters"]["kaneda"])["pools"][0]["attribute"] = "luck"
    with pytest.raises(model.StateError, match="pools.0.attribute"):
        model.validate_state(bad)


def test_secret_template_makes_secret_npcs_the_players_never_see():
    t = demo.demo_varjojuoksu()
    t.add_character("Assassin", kind="npc", secret=True)
    t.roster.save_template("assassin")
    t.roster.add_from_template("Assassin", 2)
    view = public_view(t)
    assert not any("Assassin" in ch["name"] for ch in view.characters.values())
    assert "templates" not in view.state and "groups" not in view.state
    assert not any("Assassin" in e["text"] for e in view.events)


def test_copy_characters_from_another_file(tmp_path: Path):
    other = demo.demo_varjojuoksu()
    other.roster.save_template("ganger")
    path = tmp_path / "other.toml"
    create_session(path, other).close()
    t = Tracker.new("shadowrun", "New run")
    t.add_character("Nyx")
    chars, tpls = read_characters(path, t.system)
    nyx = records.sr(next(c for c in chars if c["name"] == "Nyx"))
    made = t.roster.copy_characters([nyx], source="other.toml", templates=tpls)
    assert t.character(made[0])["name"] == "Nyx (2)" and records.sr(t.character(made[0]))["skills"] == nyx["skills"]
    assert "Ganger" in [x["name"] for x in t.roster.templates.values()]
    assert "Copied from other.toml: Nyx (2)" == t.events[-1]["text"]


def test_copy_refuses_another_system_and_a_broken_file(tmp_path: Path):
    raja = demo.demo_rajapolku()
    path = tmp_path / "raja.toml"
    create_session(path, raja).close()
    t = demo.demo_varjojuoksu()
    with pytest.raises(TrackerError, match="Rajapolku campaign"):
        read_characters(path, t.system)
    broken = tmp_path / "broken.toml"
    broken.write_text("schema = 2\n[state\n")
    with pytest.raises(TrackerError, match="broken.toml"):
        read_characters(broken, t.system)


def test_saved_pools_label_and_sr_pool():
    t = demo.demo_varjojuoksu()
    t.roster.save_pool("kaneda", {"name": "Ram the door", "mode": "attr+attr", "skill": "",
                                  "attribute": "body", "second": "strength", "count": 0})
    t.roster.save_pool("kaneda", {"name": "Pistols", "mode": "skill", "skill": "Pistols",
                                  "attribute": "agility", "second": "strength", "count": 0})
    labels = [Roster.pool_label(t.system, p) for p in t.roster.pools("kaneda")]
    assert labels == ["Ram the door (Body + Strength)", "Pistols (Pistols + Agility)"]
    side = t.rolls.sr_side("kaneda", t.roster.sr_pool(t.roster.pools("kaneda")[0]))
    a = t.character("kaneda")["attributes"]
    assert t.rolls.sr_plan(side).size == a["body"] + a["strength"] - t.wound_penalty("kaneda")
    with pytest.raises(TrackerError, match="mode"):
        t.roster.save_pool("kaneda", {"name": "x", "mode": "magic", "skill": "", "attribute": "body",
                                      "second": "body", "count": 0})


def test_harhapolku_background_set():
    t = demo.demo_harhapolku()
    t.roster.save_pool("lena", {"name": "Shadows", "tiers": {"plain": "Thief", "general": "Island girl"}})
    assert Roster.pool_label(t.system, t.roster.pools("lena")[0]) == "Shadows (background: Thief, general: Island girl)"


# -- every command of Damage and Roster has an undo/redo case ----------------------------

Builder = Callable[[], tuple[Tracker, Callable[[Tracker], Any]]]
CASES: dict[str, Builder] = {
    "Roster.save_template": lambda: (demo.demo_varjojuoksu(), lambda t: t.roster.save_template("ganger")),
    "Roster.remove_template": lambda: (sr_with_gangers(), lambda t: t.roster.remove_template("Ganger")),
    "Roster.add_from_template": lambda: (_with_template(), lambda t: t.roster.add_from_template("Ganger", 4)),
    "Roster.set_group_initiative": lambda: (sr_with_gangers(),
                                            lambda t: t.roster.set_group_initiative("grp-ganger", "separate")),
    "Roster.remove_fallen": lambda: (_one_fallen(), lambda t: t.roster.remove_fallen()),
    "Roster.copy_characters": lambda: (demo.demo_varjojuoksu(), lambda t: t.roster.copy_characters(
        [copy.deepcopy(demo.demo_varjojuoksu().character("nyx"))], source="x.toml")),
    "Roster.save_pool": lambda: (demo.demo_varjojuoksu(), lambda t: t.roster.save_pool(
        "kaneda", {"name": "Dodge", "mode": "skill", "skill": "Dodge", "attribute": "reaction",
                   "second": "strength", "count": 0})),
    "Roster.remove_pool": lambda: (_with_pool(), lambda t: t.roster.remove_pool("kaneda", "Dodge")),
    "Roster.set_weapon": lambda: (demo.demo_varjojuoksu(), lambda t: t.roster.set_weapon(
        "kaneda", None, parse_weapon("Ares Predator IV, 5P, -1, Pistols"))),
    "Roster.remove_weapon": lambda: (_with_weapon(), lambda t: t.roster.remove_weapon("Ganger", 0, template=True)),
    "Roster.set_armour": lambda: (_with_template(), lambda t: t.roster.set_armour("Ganger", Armour(6, 4),
                                                                                  template=True)),
    "Roster.add_imported": lambda: (demo.demo_varjojuoksu(), lambda t: t.roster.add_imported(
        read_chummer(Path(__file__).parent / "data" / "chummer" / "Street Samurai.chum").character,
        template=True, source="Street Samurai.chum")),
    "Damage.apply": lambda: _attacked(),
    "Damage.post_roll": lambda: _resisted(),
    "Damage.apply_harm": lambda: _raja_lost(),
}


def _with_template() -> Tracker:
    t = demo.demo_varjojuoksu()
    t.roster.save_template("ganger")
    return t


def _with_weapon() -> Tracker:
    t = _with_template()
    t.roster.set_weapon("Ganger", None, parse_weapon("Knife, 2P, -, Blades"), template=True)
    return t


def _one_fallen() -> Tracker:
    t = sr_with_gangers(2)
    t.set_condition("ganger-2", "stun", t.condition_monitor("ganger-2", "stun"))
    return t


def _with_pool() -> Tracker:
    t = demo.demo_varjojuoksu()
    CASES["Roster.save_pool"]()[1](t)
    return t


def _attacked():
    t = demo.demo_varjojuoksu()
    ev = t.rolls.roll_sr_opposed(SRSide("Kaneda", ["kaneda"], dice=2), SRSide("Ganger", ["ganger"], dice=1),
                           faces=([5, 6], [1]))["event"]
    return t, lambda t: t.damage.apply(ev, target="ganger", dv=5, weapon="Predator", armour=2, faces=[1] * 6)


def _resisted():
    t, hit = _attacked()
    ev = hit(t)["event"]
    return t, lambda t: t.damage.post_roll(ev, "edge_after", faces=[5])


def _raja_lost():
    from polku.session.rolls import RajaSide

    t = demo.demo_rajapolku()
    ev = t.rolls.roll_raja(RajaSide("Alyosha", ["alyosha"]), RajaSide("The Pickpocket", ["the-pickpocket"]),
                     faces=([9], [3]))["event"]
    return t, lambda t: t.damage.apply_harm(t.damage.harm_offer(ev))


def test_every_command_of_damage_and_roster_has_an_undo_redo_case():
    def commands(cls: type) -> set[str]:
        return {f"{cls.__name__}.{n}" for n, v in inspect.getmembers(cls, inspect.isfunction)
                if not n.startswith("_") and "run" in v.__code__.co_names}

    assert commands(Damage) | commands(Roster) == set(CASES)
    assert HarmOffer(False, "").allowed is False


@pytest.mark.parametrize("name", sorted(CASES))
def test_undo_restores_and_redo_repeats(name):
    t, action = CASES[name]()
    before = copy.deepcopy(t.state)
    n = len(t.events)
    action(t)
    after = copy.deepcopy(t.state)
    model.validate_state(after)
    assert after != before
    assert len({e["cmd"] for e in t.events[n:]}) == 1, "one command, one undo step"
    t.undo()
    assert t.state == before
    t.redo()
    assert t.state == after


def test_the_fallen_leave_the_initiative_and_open_challenges_too():
    t = sr_with_gangers(2)
    # The demo is in a fight with Nyx acting, so she stays in the order.
    t.set_initiative([{"id": "kaneda", "score": 10, "passes": 1}, {"id": "nyx", "score": 9, "passes": 1},
                      {"id": "ganger-1", "score": 8, "passes": 1}])
    c = t.add_challenge("Hold the bridge", ["kaneda"], ["ganger-1", "ganger-2"])
    t.set_condition("ganger-1", "physical", t.condition_monitor("ganger-1", "physical"))
    t.roster.remove_fallen()
    assert [e["id"] for e in t.state["initiative"]] == ["kaneda", "nyx"]
    assert t.challenge(c["id"])["opposition"] == ["ganger-2"]


def test_no_secret_template_npc_or_damage_reaches_watch_or_the_players_report():
    """A secret NPC as a template, a group from it, damage to one of them (with Edge after the
    resistance roll), the fallen removed, undo and redo: the marker never shows in the public view or the players' Markdown and HTML."""
    from polku.session.review import export

    mark = "ZQMARK"
    t = demo.demo_varjojuoksu()
    t.add_character(f"{mark} Sniper", kind="npc", secret=True)
    t.roster.save_template(model.slug(f"{mark} Sniper"), f"{mark} Sniper")
    ids = t.roster.add_from_template(f"{mark} Sniper", 2)
    ev = t.rolls.roll_sr_opposed(SRSide("Kaneda", ["kaneda"], dice=2), SRSide("x", [ids[0]], dice=1),
                           faces=([5, 6], [1]))["event"]
    hit = t.damage.apply(ev, target=ids[0], dv=12, weapon=f"{mark} rifle", faces=[1, 1, 1])
    n = t.damage.post_roll_dice(hit["event"], "edge_after")
    t.damage.post_roll(hit["event"], "edge_after", faces=[2] * n)  # the sniper's Edge after the roll, too
    t.roster.remove_fallen()
    t.undo()
    t.redo()
    view = public_view(t)
    shown = "\n".join([repr(view.state), repr(view.events), export.export(t, "md"), export.export(t, "html")])
    assert mark not in shown
    assert mark in export.export(t, "md", gm=True), "the GM's own report keeps them"


@pytest.mark.parametrize("where,value,message", [
    (["groups", "grp-ganger", "initiative"], "sometimes", "initiative: 'sometimes' is not one of shared, separate"),
    (["templates", "tpl-ganger", "edge"], 9, "templates.tpl-ganger.edge: 9 is above"),
    (["characters", "ganger-1", "group"], "grp-gone", "no group 'grp-gone'"),
    (["characters", "kaneda", "weapons"], [{"name": "Predator", "dv": "five", "damage": "physical", "ap": 0}],
     "weapons.0.dv: expected a whole number"),
])
def test_a_hand_edited_file_with_a_broken_block_is_refused_in_one_line_and_left_alone(tmp_path: Path, where,
                                                                                         value, message):
    from polku.session import store
    from polku.session.files import SessionOpenError

    t = sr_with_gangers(1)
    path = tmp_path / "edited.toml"
    create_session(path, t).close()
    doc = store.load(path).doc
    doc["event"] = list(doc["event"])
    doc["snapshot_seq"] = doc["event"][-1]["seq"]
    node = doc["state"]
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    path.write_bytes(store.render(doc))
    before = path.read_bytes()
    with pytest.raises(SessionOpenError, match=message) as err:
        load_tracker(path, read_only=True)
    assert "\n" not in str(err.value)
    assert path.read_bytes() == before
