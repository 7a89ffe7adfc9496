"""The fight in the session layer: the marker, passes, holding, wounds, effects, saving, the players' view."""

from __future__ import annotations

import pytest

from polku.session import demo, model
from polku.session.files import SessionOpenError, create_session, load_tracker
from polku.session.players.public import public_view
from polku.session.tracker import Tracker, TrackerError

# Reaction + Intuition = 6 dice each (every attribute 3); one hit per 5 below.
FACES = {0: [1] * 6, 1: [5] + [1] * 5, 2: [5, 5] + [1] * 4, 3: [5, 5, 5] + [1] * 3}


def fight(*specs: tuple[str, int, int], setting: str = "reroll", secret: str = "") -> Tracker:
    """A Varjojuoksu tracker in combat turn 1: (name, hits, passes) per fighter, all attributes 3."""
    t = Tracker.new("shadowrun", "Test fight", clock=demo.fixed_clock(), seed=5)
    for name, _, _ in specs:
        t.add_character(name, secret=(name == secret), edge_rating=2, edge=2)
    if setting != "reroll":
        t.set_setting("sr.initiative", setting)
    faces = [f for _, hits, _ in specs for f in FACES[hits]]
    t.rolls.roll_initiative([(model.slug(n), p) for n, _, p in specs], faces=faces)
    return t


def acting(t: Tracker) -> str:
    return t.state["combat"]["acting"]


def test_S12_next_walks_pass_1_then_pass_2_for_those_with_two_passes():
    t = fight(("Ann", 3, 2), ("Bo", 2, 1), ("Cy", 1, 3))
    seen = [(t.state["combat"]["pass"], acting(t))]
    for _ in range(5):
        t.combat.next()
        seen.append((t.state["combat"]["pass"], acting(t)))
    assert seen == [(1, "ann"), (1, "bo"), (1, "cy"), (2, "ann"), (2, "cy"), (3, "cy")]
    t.combat.next()
    assert t.state["combat"] == {"turn": 1, "pass": 0, "acting": "", "acted": [], "held": []}
    assert t.events[-1]["text"] == "Combat turn 1 is over: roll initiative for combat turn 2"
    with pytest.raises(TrackerError, match="roll initiative for combat turn 2"):
        t.combat.next()
    t.rolls.roll_initiative([("ann", 1), ("bo", 1)], faces=FACES[0] + FACES[3])
    assert (t.state["combat"]["turn"], t.state["combat"]["pass"], acting(t)) == (2, 1, "bo")


def test_keep_setting_begins_the_next_turn_with_the_same_scores():
    t = fight(("Ann", 3, 1), ("Bo", 2, 1), setting="keep")
    t.combat.next()
    t.combat.next()
    assert (t.state["combat"]["turn"], acting(t)) == (2, "ann")
    assert t.events[-1]["text"] == "Combat turn 2 begins (initiative kept): Ann acts"


def test_a_wound_mid_pass_lowers_the_score_and_the_place():
    t = fight(("Ann", 3, 1), ("Bo", 2, 1), ("Cy", 1, 1))  # 9, 8, 7
    t.set_condition("bo", "physical", 6)  # −2: 8 → 6, behind Cy's 7
    rows = t.combat.rows()
    assert [(r.cid, r.current) for r in rows] == [("ann", 9), ("cy", 7), ("bo", 6)]
    t.combat.next()
    assert acting(t) == "cy"


def test_delay_then_step_in_before_the_next_fighter():
    t = fight(("Ann", 3, 1), ("Bo", 2, 1), ("Cy", 1, 1))
    t.combat.delay()
    assert (acting(t), t.state["combat"]["held"]) == ("bo", ["ann"])
    assert [e["text"] for e in t.events[-2:]] == ["Ann holds the action", "Turn 1, pass 1: Bo acts"]
    t.combat.next()  # Bo done, Cy acts
    t.combat.step_in("ann")
    assert acting(t) == "ann" and t.state["combat"]["held"] == []
    t.combat.next()  # Ann done: Cy, interrupted, acts now
    assert acting(t) == "cy"
    with pytest.raises(TrackerError, match="not holding"):
        t.combat.step_in("bo")


def test_a_held_action_not_taken_is_lost_when_the_pass_ends():
    t = fight(("Ann", 3, 2), ("Bo", 2, 1))
    t.combat.delay()
    with pytest.raises(TrackerError, match="nobody else acts in this pass"):
        t.combat.delay()  # Bo is the last
    t.combat.next()
    assert "Ann's held action is lost: the pass is over" in [e["text"] for e in t.events[-3:]]
    assert (t.state["combat"]["pass"], acting(t)) == (2, "ann")


def test_effects_count_down_by_pass_and_expire_with_a_log_line():
    t = fight(("Ann", 3, 2), ("Bo", 2, 1))
    t.combat.add_effect("bo", "Smoke", -2, "pass", 2)
    assert t.events[-1]["text"] == "Bo: Smoke (−2 dice, 2 passes left)"
    assert t.combat.effect_modifiers("bo") == [("effect: Smoke", -2)]
    t.combat.next()
    t.combat.next()  # pass 1 over
    assert t.character("bo")["effects"][0]["left"] == 1
    t.combat.next()  # pass 2 over: the turn too
    assert t.character("bo")["effects"] == []
    assert "Smoke wears off Bo: pass 2 is over" in [e["text"] for e in t.events]
    t.undo()
    assert t.character("bo")["effects"][0]["left"] == 1 and acting(t) == "ann"


def test_scene_and_session_effects_count_scenes_and_sessions():
    t = demo.demo_rajapolku()
    t.combat.add_effect("igor-bondarenko", "Blessed", 1, "scene", 2)
    t.combat.add_effect("alyosha", "Hidden", 0, "session", 1)
    t.new_scene("Next")
    assert t.character("igor-bondarenko")["effects"][0]["left"] == 1
    assert t.character("alyosha")["effects"][0]["left"] == 1
    t.new_session()
    assert t.character("igor-bondarenko")["effects"] == [] and t.character("alyosha")["effects"] == []
    with pytest.raises(TrackerError, match="Varjojuoksu fights"):
        t.combat.add_effect("alyosha", "Stunned", -1, "pass", 1)


def test_refused_effect_commands_change_nothing():
    t = fight(("Ann", 3, 1))
    t.combat.add_effect("ann", "Stunned", -1, "turn", 1)
    n = len(t.events)
    with pytest.raises(TrackerError, match="already has 'stunned'"):
        t.combat.add_effect("ann", "stunned", -2, "turn", 1)
    with pytest.raises(TrackerError, match="1 to 99"):
        t.combat.add_effect("ann", "Smoke", -2, "pass", 0)
    with pytest.raises(TrackerError, match="no such effect"):
        t.combat.remove_effect("ann", 3)
    assert len(t.events) == n


def test_leaving_the_fight_ends_it_and_its_effects():
    t = fight(("Ann", 3, 1), ("Bo", 1, 1))
    t.combat.add_effect("ann", "Stunned", -1, "turn", 3)
    t.combat.add_effect("ann", "Blessed", 1, "scene", 1)
    t.combat.end()
    assert "combat" not in t.state and t.state["initiative"] == []
    assert [e["name"] for e in t.character("ann")["effects"]] == ["Blessed"]
    assert t.events[-2]["text"] == "The fight ends after 1 combat turn"
    with pytest.raises(TrackerError, match="no fight"):
        t.combat.end()


def test_removing_the_acting_fighter_moves_the_marker_on():
    t = fight(("Ann", 3, 1), ("Bo", 2, 1))
    t.remove_character("ann")
    assert acting(t) == "bo"
    model.validate_state(t.state)


def test_a_shared_group_rolls_once():
    t = Tracker.new("shadowrun", "Groups", clock=demo.fixed_clock(), seed=5)
    for n in ("Ganger 1", "Ganger 2", "Ann"):
        t.add_character(n)
    t.state["groups"] = {"g1": {"id": "g1", "name": "Ganger", "initiative": "shared", "template": ""}}
    for cid in ("ganger-1", "ganger-2"):
        t.state["characters"][cid]["group"] = "g1"
    entries = [("ganger-1", 1), ("ganger-2", 1), ("ann", 1)]
    assert t.combat.initiative_dice(entries) == [("Ganger 1", 6), ("Ann", 6)]
    t.rolls.roll_initiative(entries, faces=FACES[2] + FACES[0])
    scores = {e["id"]: e["score"] for e in t.state["initiative"]}
    assert scores == {"ganger-1": 8, "ganger-2": 8, "ann": 6}


def test_queue_next_starts_the_next_challenge():
    t = demo.demo_rajapolku()
    waiting = [c["id"] for c in t.state["challenges"] if c["status"] == "waiting"]
    t.combat.next()
    assert t.active_challenge()["id"] == waiting[0]
    t.combat.next()
    assert t.active_challenge()["id"] == waiting[1]


def test_the_fight_reopens_at_the_same_turn_pass_and_marker(tmp_path):
    t = fight(("Ann", 3, 2), ("Bo", 2, 1))
    t.combat.add_effect("bo", "Smoke", -2, "pass", 2)
    t.combat.next()
    path = tmp_path / "fight.toml"
    sf = create_session(path, t)
    t.combat.next()  # appended after the full save
    sf.save_now(t)
    sf.close()
    loaded, notices = load_tracker(path)
    assert notices == []
    assert loaded.state["combat"] == t.state["combat"] == {"turn": 1, "pass": 2, "acting": "ann", "acted": [],
                                                           "held": []}
    assert loaded.character("bo")["effects"] == [{"name": "Smoke", "modifier": -2, "unit": "pass", "left": 1}]
    loaded.undo()
    assert loaded.state["combat"]["acting"] == "bo"


@pytest.mark.parametrize("path, value, words", [
    (["combat", "pass"], 7, "combat.pass"),
    (["combat", "acting"], "nobody", "not in the initiative order"),
    (["combat", "held"], ["ghost"], "not in the initiative order"),
    (["combat", "turn"], "one", "combat.turn"),
    (["characters", "bo", "effects"], [{"name": "X", "modifier": 0, "unit": "round", "left": 1}], "unit"),
    (["characters", "bo", "effects"], [{"name": "X", "modifier": 0, "unit": "pass", "left": 0}], "left"),
    (["characters", "bo", "effects"], "smoke", "effects"),
])
def test_a_damaged_fight_in_a_file_is_refused_in_one_line(tmp_path, path, value, words):
    from polku.session import store

    t = fight(("Ann", 3, 2), ("Bo", 2, 1))
    t.combat.add_effect("bo", "Smoke", -2, "pass", 2)
    p = tmp_path / "f.toml"
    create_session(p, t).close()
    doc = store.load(p).doc
    node = doc["state"]
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    store.write_full(p, doc)
    before = p.read_bytes()
    with pytest.raises(SessionOpenError, match=words) as e:
        load_tracker(p)
    assert "\n" not in str(e.value)
    assert p.read_bytes() == before


def test_players_see_the_gm_s_turn_not_the_secret_fighter():
    t = fight(("Ann", 1, 1), ("Shadow", 3, 1), secret="Shadow")
    view = public_view(t)
    assert view.state["combat"]["acting"] == "" and view.state["combat"]["gm_turn"] is True
    assert [e["id"] for e in view.state["initiative"]] == ["ann"]
    texts = " ".join(e["text"] for e in view.events)
    assert "Shadow" not in texts and "'shadow'" not in str(view.state)
    t.combat.delay()  # Shadow holds: Ann acts
    view = public_view(t)
    assert view.state["combat"] == {"turn": 1, "pass": 1, "acting": "ann", "acted": [], "held": []}
    assert "Turn 1, pass 1: Ann acts" in [e["text"] for e in view.events]
    assert "Shadow" not in " ".join(e["text"] for e in view.events)

