"""Initiative as a veteran GM runs it (issue 26): surprise (no action in pass 1), Edge on the
initiative roll (S7), and physical, astral and matrix scores kept apart."""

from __future__ import annotations

import pytest

from polku.rules import shadowrun as sr
from polku.rules import turns
from polku.rules.dice import ManualSource
from polku.session import demo, model
from polku.session.players.public import public_view
from polku.session.tracker import Tracker, TrackerError

ATTRS = {"body": 3, "agility": 3, "reaction": 3, "strength": 3, "charisma": 3, "intuition": 3, "logic": 3,
         "willpower": 3}


def table() -> Tracker:
    """Ann (Edge 2), Bo (Edge 2) and Cy (Edge 0): Reaction + Intuition = 6 dice each."""
    t = Tracker.new("shadowrun", "Ambush", clock=demo.fixed_clock(), seed=5)
    t.add_character("Ann", attributes=ATTRS, edge_rating=2, edge=2)
    t.add_character("Bo", attributes=ATTRS, edge_rating=2, edge=2)
    t.add_character("Cy", attributes={**ATTRS, "intuition": 5}, edge_rating=1, edge=0)
    return t


ANN, BO, CY = [5, 5, 5, 1, 1, 1], [5, 5, 1, 1, 1, 1], [5, 1, 1, 1, 1, 1, 1, 1]  # 9, 8, 9 (Cy 8 dice)


# -- the rules core -----------------------------------------------------------------------


def test_a_surprised_fighter_acts_in_no_pass_1_and_from_pass_2_as_before():
    ann = turns.TurnEntry("ann", 10, passes=2, surprised=True)
    bo = turns.TurnEntry("bo", 8)
    assert not turns.acts_in(ann, 1) and turns.acts_in(ann, 2)
    assert turns.next_to_act([ann, bo], 1, []) == "bo"
    assert turns.first_pass([ann, bo]) == 1
    assert turns.first_pass([ann, turns.TurnEntry("bo", 8, surprised=True)]) == 2, "nobody acts in pass 1"


def test_initiative_scores_astral_intuition_twice_and_matrix_intuition_plus_response():
    assert sr.initiative_pool(4, 3) == 7 and sr.initiative_pool(4, 3, 2) == 9
    assert sr.initiative_pool(4, 5, kind="astral") == 10
    assert sr.initiative_pool(4, 5, 4, kind="matrix") == 9
    assert sr.initiative_score(4, 5, 2, kind="astral") == 12
    with pytest.raises(Exception, match="physical, astral, matrix"):
        sr.initiative_pool(4, 5, kind="dream")


def test_S7_edge_on_the_initiative_roll_adds_edge_dice_and_sixes_explode():
    # 6 dice + Edge 2: faces 6 5 1 1 1 1 | 6 2, the two sixes roll again: 5, 1 → hits 6,5,6,5 = 4
    r = sr.roll_initiative(3, 3, ManualSource([6, 5, 1, 1, 1, 1, 6, 2, 5, 1]), edge_rating=2)
    assert r.hits == 4 and len(r.dice) == 10 and r.edge_spent == 1
    assert sr.initiative_score(3, 3, r.hits) == 10


# -- the session --------------------------------------------------------------------------


def test_surprise_skips_pass_1_is_shown_logged_and_undone_with_the_roll():
    t = table()
    t.rolls.roll_initiative([("ann", 2), ("bo", 1), ("cy", 1)], faces=ANN + BO + CY, surprised=["ann"])
    assert t.state["combat"]["surprised"] == ["ann"]
    assert t.combat.acting() == "cy", "Ann (9, Edge 2 wins the tie) is surprised: Cy 9 acts first"
    rows = {r.cid: r.status for r in t.combat.rows()}
    assert rows == {"ann": "surprised", "cy": "acting", "bo": "waiting"}
    roll = next(ev for ev in reversed(t.events) if ev.get("roll"))
    assert roll["roll"]["outcome"]["surprised"] == ["ann"]
    from polku.session.table.rejudge import rejudge

    again = rejudge(roll["roll"], t.settings)  # polku verify: the faces give the same outcome and order
    assert again is not None and again.outcome == roll["roll"]["outcome"] and again.summary == roll["roll"]["summary"]
    assert "surprised, no action in pass 1: Ann (SR4)" in roll["roll"]["explain"]
    t.combat.next()
    t.combat.next()
    assert (t.state["combat"]["pass"], t.combat.acting()) == (2, "ann"), "pass 2: Ann acts (2 passes)"
    assert {r.cid: r.status for r in t.combat.rows()}["ann"] == "acting"
    t.undo()  # the marker back to Bo
    t.undo()
    t.undo()  # the roll: no fight, no surprise
    assert "combat" not in t.state


def test_surprise_counts_in_its_own_combat_turn_only_even_when_initiative_is_kept():
    t = table()
    t.set_setting("sr.initiative", "keep")
    t.rolls.roll_initiative([("ann", 1), ("bo", 1)], faces=ANN + BO, surprised=["bo"])
    assert t.combat.acting() == "ann"
    t.combat.next()  # Ann done; Bo is surprised: the turn is over, the next begins with the scores kept
    assert t.state["combat"]["turn"] == 2 and "surprised" not in t.state["combat"]
    assert t.combat.acting() == "ann"
    t.combat.next()
    assert t.combat.acting() == "bo", "in turn 2 Bo acts"


def test_everyone_surprised_the_turn_begins_in_pass_2():
    t = table()
    t.rolls.roll_initiative([("ann", 2), ("bo", 1)], faces=ANN + BO, surprised=["ann", "bo"])
    assert (t.state["combat"]["pass"], t.combat.acting()) == (2, "ann")
    assert t.events[-1]["text"] == "Combat turn 1 begins, pass 2 (nobody acts in pass 1: surprised): Ann acts"


def test_S7_edge_on_the_initiative_roll_spends_a_point_and_undo_gives_it_back():
    t = table()
    # Bo: 6 dice + Edge 2, rule of six: 6 6 1 1 1 1 | 1 1, the sixes roll 5 and 1: 3 hits → 9
    t.rolls.roll_initiative([("ann", 1), ("bo", 1)], faces=ANN + [6, 6, 1, 1, 1, 1, 1, 1, 5, 1], edge=["bo"])
    assert t.character("bo")["edge"] == 1
    assert [(e["id"], e["score"]) for e in t.state["initiative"]] == [("ann", 9), ("bo", 9)]
    roll = next(ev for ev in reversed(t.events) if ev.get("roll"))
    bo = roll["roll"]["sides"][1]
    assert bo["label"] == "Bo 6+3=9" and len(bo["dice"]) == 10
    assert [d["source"] for d in bo["dice"]].count("edge") == 2
    assert "Edge before the roll: + Edge rating dice, rule of six (S7): Bo" in roll["roll"]["explain"]
    # polku verify judges it again from its faces: the same scores and order (the Edge dice and sixes count)
    from polku.session.table.rejudge import rejudge

    again = rejudge(roll["roll"], t.settings)
    assert again is not None and again.summary == roll["roll"]["summary"] == "order: Ann 9, Bo 9"
    assert any(ev["text"] == "Bo spends Edge: Edge on the initiative roll (S7) (1/2 left)" for ev in t.events)
    t.undo()
    assert t.character("bo")["edge"] == 2 and "combat" not in t.state


@pytest.mark.parametrize("who,why", [("cy", "Cy has no Edge left this session"),
                                     ("bo", "not in this initiative roll")])
def test_edge_on_initiative_is_refused_in_one_line_and_nothing_changes(who, why):
    t = table()
    before = len(t.events)
    with pytest.raises(TrackerError, match=why):
        t.rolls.roll_initiative([("ann", 1), ("cy", 1)], faces=ANN + CY, edge=[who])
    assert len(t.events) == before and t.character("cy")["edge"] == 0
    assert t.combat.edge_refusal(who) == ("Cy has no Edge left this session" if who == "cy" else "")


def test_a_shared_group_roll_takes_no_edge():
    t = table()
    t.roster.save_template("bo")
    made = t.roster.add_from_template("Bo", 2, initiative="shared")
    assert "separate" in t.combat.edge_refusal(made[0])


def test_astral_and_matrix_scores_on_the_sheet_and_the_one_acted_on_is_remembered(tmp_path):
    from polku.session import files

    t = table()
    t.combat.set_initiative("cy", 0, 3, "projecting", kind="astral")
    assert t.events[-1]["text"] == "Cy: astral initiative +0, 3 passes (projecting)"
    t.combat.set_initiative("cy", 4, 3, "hot sim, Response 4", kind="matrix")
    assert t.combat.initiative_kinds("cy") == ["physical", "astral", "matrix"]
    assert t.combat.initiative_kinds("ann") == ["physical"]
    assert t.combat.sheet_initiative("cy", "astral") == (0, 3)
    assert t.combat.initiative_dice([("ann", 1), ("cy", 3)], kinds={"cy": "astral"}) == [("Ann", 6), ("Cy", 10)]
    # Cy projects: Intuition 5 × 2 = 10 dice, 2 hits → 12, 3 passes
    t.rolls.roll_initiative([("ann", 1), ("cy", 3)], faces=ANN + [5, 5] + [1] * 8, kinds={"cy": "astral"})
    assert [(e["id"], e["score"], e.get("kind", "physical")) for e in t.state["initiative"]] == [
        ("cy", 12, "astral"), ("ann", 9, "physical")]
    assert t.combat.default_kinds() == {"ann": "physical", "bo": "physical", "cy": "astral"}
    from polku.session.table.rejudge import rejudge

    roll = next(ev for ev in reversed(t.events) if ev.get("roll"))["roll"]
    assert roll["sides"][1]["label"] == "Cy 10+2=12"
    assert rejudge(roll, t.settings).summary == roll["summary"] == "order: Cy 12, Ann 9"
    assert {r.cid: r.kind for r in t.combat.rows()} == {"cy": "astral", "ann": "physical"}
    with pytest.raises(TrackerError, match="Ann has no matrix initiative"):
        t.rolls.roll_initiative([("ann", 1)], kinds={"ann": "matrix"})
    sf = files.create_session(tmp_path / "night.toml", t)
    sf.close()
    again, sf = files.open_session(tmp_path / "night.toml")
    sf.close()
    assert again.combat.default_kinds()["cy"] == "astral", "remembered in the file"
    again.combat.remove_initiative("cy", "astral")
    assert again.combat.initiative_kinds("cy") == ["physical", "matrix"]
    again.undo()
    assert again.combat.initiative_kinds("cy") == ["physical", "astral", "matrix"]


@pytest.mark.parametrize("where,value,message", [
    (("characters", "cy", "initiative_scores"), {"dream": {"bonus": 0, "passes": 3}}, "astral or matrix, not 'dream'"),
    (("characters", "cy", "initiative_scores"), {"astral": {"bonus": 0, "passes": 5}}, "passes: 5 is above"),
    (("initiative", 0, "kind"), "dream", "kind: 'dream'"),
    (("combat", "surprised"), ["nobody"], "'nobody' is not in the initiative order"),
])
def test_bad_initiative_fields_are_refused_at_load(where, value, message):
    t = table()
    t.rolls.roll_initiative([("ann", 1), ("cy", 1)], faces=ANN + CY, surprised=["cy"])
    state = t.state
    node = state
    for k in where[:-1]:
        node = node[k]
    node[where[-1]] = value
    with pytest.raises(model.StateError, match=message):
        model.validate_state(state)


def test_the_players_see_who_is_surprised_but_not_a_secret_fighter():
    t = table()
    t.update_character("bo", "secret", True)
    t.rolls.roll_initiative([("ann", 1), ("bo", 1), ("cy", 1)], faces=ANN + BO + CY, surprised=["ann", "bo"])
    view = public_view(t)
    assert view.state["combat"]["surprised"] == ["ann"]


def test_the_new_lines_are_told_in_english_as_written_and_in_finnish():
    """The sheet's score lines, the order with who is surprised, a turn begun in pass 2, Edge spent on
    the roll: each told from its fact says what the tracker wrote, and in Finnish the rule texts' words."""
    from polku import i18n
    from polku.session import telling

    t = table()
    t.combat.set_initiative("ann", 2, 2, "wired reflexes 2")
    t.combat.set_initiative("cy", 0, 3, kind="astral")
    t.combat.remove_initiative("cy", "astral")
    # Ann 8 dice now (wired reflexes +2), 3 hits: 11; Bo 6 + Edge 2, the sixes roll 5 and 1: 3 hits, 9
    t.rolls.roll_initiative([("ann", 2), ("bo", 1)], faces=ANN + [1, 1] + [6, 6, 1, 1, 1, 1, 1, 1, 5, 1], edge=["bo"],
                            surprised=["ann", "bo"])
    events = [ev for ev in t.events if ev.get("kind") in ("character", "resource", "roll", "combat")][-6:]
    i18n.set_language("en")
    try:
        assert [telling.event_text(ev) for ev in events] == [ev["text"] for ev in events]
        i18n.set_language("fi")
        assert [telling.event_text(ev) for ev in events] == [
            "Ann: initiatiivi +2, 2 toimintavuoroa (wired reflexes 2)",
            "Cy: astraali-initiatiivi +0, 3 toimintavuoroa",
            "Cy: ei astraali-initiatiivia",
            "Bo käyttää Edgeä: Edge initiatiiviheittoon (S7) (1/2 jäljellä)",
            "Initiatiivi: Ann 11, Bo 9; yllätetty: Ann, Bo",
            "Taistelukierros 1 alkaa toimintavuorosta 2 (1. toimintavuorossa kukaan ei toimi: yllätetty): Ann toimii",
        ]
    finally:
        i18n.set_language("en")


def test_the_review_expects_an_edged_initiative_roll_s_hits_by_the_rule_of_six():
    """Bo's 6 dice + Edge 2 with the rule of six expect 8 × 1/3 ÷ 5/6 = 3.2 hits (his two sixes' extra dice
    are no pool of their own); Ann's 6 plain dice 2."""
    from polku.session.review.stats import judge_roll

    t = table()
    t.rolls.roll_initiative([("ann", 1), ("bo", 1)], faces=ANN + [6, 6, 1, 1, 1, 1, 1, 1, 5, 1], edge=["bo"])
    roll = next(ev for ev in reversed(t.events) if ev.get("roll"))["roll"]
    ann, bo = judge_roll(roll, t.settings)
    assert (ann.hits, bo.hits) == (3, 3)
    assert ann.expected_hits == pytest.approx(2.0) and bo.expected_hits == pytest.approx(3.2)
