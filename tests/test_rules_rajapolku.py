"""Rajapolku rules (docs/rules.md): every EX with its exact numbers, plus properties."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from polku.rules.dice import Die, DieSpec, ManualSource, RulesError, Src, parse_faces, roll_specs
from polku.rules.rajapolku import (
    ability_cost,
    apply_charge_loss,
    build_pool,
    final_pools,
    resolve,
    result_json,
    spend_charges,
    spirit_loss,
    spirit_pool,
)
from polku.rules.system import Settings


def dice(text: str) -> tuple[Die, ...]:
    """Faces like "10,8*,7" ('*' = ability die)."""
    return parse_faces(text, 10, allow_ability=True)


def faces(ds) -> list[int]:
    return [d.face for d in ds]


NO_EXHAUST = Settings(raja_exhausted=False)
DEFENDER = Settings(raja_full_tie="defender")
OPPOSE = Settings(raja_wound_penalty="oppose")


# ------------------------------------------------------------------ R1–R4 pools


def test_R1_action_die_always():
    plan = build_pool()
    assert plan.dice == (DieSpec(10, Src.ACTION, "action"),)
    assert plan.to_opposition == ()


def test_R2_one_d10_per_background_with_label():
    plan = build_pool(["Militia", "Medic"])
    assert [(s.size, s.source, s.label) for s in plan.dice[1:]] == [
        (10, Src.BACKGROUND, "Militia"),
        (10, Src.BACKGROUND, "Medic"),
    ]
    assert any("Militia" in line for line in plan.explain)


def test_R3_EX_villain_three_d10():
    plan = build_pool(["Young and fast", "Street-wise"])
    assert len(plan.dice) == 3
    assert [s.source for s in plan.dice] == [Src.ACTION, Src.BACKGROUND, Src.BACKGROUND]
    assert [s.label for s in plan.dice[1:]] == ["Young and fast", "Street-wise"]


def test_R4_EX_helping_condition_adds_to_own_side():
    alyosha = build_pool(helping_conditions=["running shoes and warmed-up muscles"])
    assert len(alyosha.dice) == 2
    assert alyosha.dice[1] == DieSpec(10, Src.CONDITION, "running shoes and warmed-up muscles")


def test_R4_EX_hindering_condition_adds_to_opposition():
    alyosha = build_pool(hindering_conditions=["sprained ankle"])
    villain = build_pool(["Young and fast", "Street-wise"])
    assert len(alyosha.dice) == 1  # conditions never remove dice
    a, b = final_pools(alyosha, villain)
    assert len(a) == 1
    assert len(b) == 4
    assert b[-1] == DieSpec(10, Src.CONDITION, "sprained ankle")


def test_R7_ability_die_source():
    plan = build_pool(abilities=["Ape strength"])
    assert plan.dice[1] == DieSpec(10, Src.ABILITY, "Ape strength")


def test_R2_empty_name_refused():
    with pytest.raises(RulesError):
        build_pool([" "])


# ----------------------------------------------------------------- R9 wounds


@pytest.mark.parametrize(
    ("level", "penalty"),
    [("Healthy", 0), ("Bruised", 0), ("Wounded", 1), ("Badly wounded", 2), ("Mortally wounded", 3)],
)
def test_R9_penalty_per_level_remove(level, penalty):
    plan = build_pool(["a", "b", "c", "d"], wound_level=level)
    assert plan.penalty == penalty
    assert len(plan.dice) == 5 - penalty
    assert len(plan.removed) == penalty
    assert plan.dice[0].source == Src.ACTION


@pytest.mark.parametrize(
    ("level", "penalty"), [("Wounded", 1), ("Badly wounded", 2), ("Mortally wounded", 3)]
)
def test_R9_penalty_per_level_oppose(level, penalty):
    plan = build_pool(["a"], wound_level=level, settings=OPPOSE)
    assert len(plan.dice) == 2  # nothing removed
    assert plan.removed == ()
    assert len(plan.to_opposition) == penalty
    assert all(s.size == 10 and s.label == f"wound: {level}" for s in plan.to_opposition)


def test_R9_never_removes_the_action_die():
    plan = build_pool(["Militia"], wound_level="Mortally wounded")
    assert plan.dice == (DieSpec(10, Src.ACTION, "action"),)
    assert plan.removed == (DieSpec(10, Src.BACKGROUND, "Militia"),)
    assert "action die always stays" in plan.explain[-1]
    assert build_pool(wound_level="Badly wounded").dice == (DieSpec(10, Src.ACTION, "action"),)


def test_R9_removal_order_conditions_then_backgrounds_then_abilities():
    plan = build_pool(["bg1", "bg2"], ["ab"], ["cond"], "Mortally wounded")
    assert [s.label for s in plan.removed] == ["cond", "bg2", "bg1"]
    assert [s.label for s in plan.dice] == ["action", "ab"]


def test_R9_out_of_play_and_dead_cannot_act_and_unknown_level():
    for level in ("Out of play", "Dead"):
        with pytest.raises(RulesError, match="cannot take part"):
            build_pool(wound_level=level)
    with pytest.raises(RulesError, match="unknown wound level"):
        build_pool(wound_level="Scratched")
    assert build_pool(["x"], wound_level="wounded").penalty == 1  # case-insensitive


# ----------------------------------------------------------- R5 / R6 resolution


def test_R5_EX_A_gm_wins_with_one_degree():
    r = resolve(dice("7,7,3"), dice("8,5,3"))
    assert r.winner == "b"
    assert r.degrees == 1
    assert r.deciding_position == 1
    assert faces(r.degree_dice) == [8]
    assert r.explain()[1] == "position 1: 7 < 8 → B"
    assert "degrees: 1" in r.explain()[2]


def test_R5_EX_B_alyosha_wins_narrowly():
    r = resolve(dice("7,7,3"), dice("7,5,3"))
    assert r.winner == "a"
    assert r.degrees == 0
    assert r.narrow
    assert r.deciding_position == 2
    assert r.explain()[1:3] == ["position 1: 7 = 7", "position 2: 7 > 5 → A"]


def test_R6_EX_C_three_degrees():
    r = resolve(dice("10,8,7"), dice("6,5"))
    assert r.winner == "a"
    assert r.degrees == 3
    assert faces(r.degree_dice) == [10, 8, 7]


def test_R5_exhausted_side_with_dice_left_wins():
    r = resolve(dice("7,5"), dice("7,5,2"))
    assert r.winner == "b"
    assert r.decided_by == "exhausted"
    assert r.deciding_position == 3
    assert r.degrees == 0


def test_R5_exhausted_false_is_a_tie():
    r = resolve(dice("7,5"), dice("7,5,2"), NO_EXHAUST)
    assert r.winner == "tie"
    assert r.tie_action == "reroll"


def test_R5_full_tie_reroll_by_default():
    r = resolve(dice("7,5"), dice("7,5"))
    assert r.winner == "tie"
    assert r.tie_action == "reroll"
    assert r.holds is None
    assert r.degrees == 0
    assert r.deciding_position is None
    assert "reroll" in r.explain()[-1]


def test_R5_full_tie_defender_holds():
    r = resolve(dice("7,5"), dice("7,5"), DEFENDER)
    assert r.winner == "tie"
    assert r.tie_action == "defender"
    assert r.holds == "b"


def test_R5_order_of_input_does_not_matter():
    assert resolve(dice("3,7,7"), dice("5,3,8")) == resolve(dice("7,7,3"), dice("8,5,3"))


def test_R6_empty_loser_every_die_counts():
    r = resolve(dice("3,2"), ())
    assert r.winner == "a"
    assert r.degrees == 2
    assert resolve((), ()).winner == "tie"


def test_R5_only_d10():
    with pytest.raises(RulesError, match="d10"):
        resolve((Die(8, 5),), dice("3"))


# --------------------------------------------------------------------- R7


def test_R7_ability_die_counts_double_and_is_visible():
    r = resolve(dice("9*,8,2"), dice("6,5"))
    assert r.winner == "a"
    assert faces(r.degree_dice) == [9, 8]  # 2 is not above 6
    assert r.degrees == 2 + 1  # the ability 9 counts twice
    assert r.supernatural == 1
    assert r.deciding_die_is_ability
    assert any("visibly supernatural" in line for line in r.explain())


def test_R7_ability_die_not_highest_is_not_visible():
    r = resolve(dice("9,8*,2"), dice("6,5"))
    assert r.degrees == 3
    assert r.supernatural == 1
    assert not r.deciding_die_is_ability


def test_R7_ability_die_sorts_first_among_equal_faces():
    r = resolve(dice("9,9*"), dice("6"))
    assert r.a[0].is_ability
    assert r.deciding_die_is_ability
    assert r.degrees == 3


def test_R7_losing_ability_die_adds_nothing():
    r = resolve(dice("5*"), dice("6"))
    assert r.winner == "b"
    assert r.supernatural == 0
    assert not r.deciding_die_is_ability


# --------------------------------------------------------------------- R11


def test_R11_spirit_pool_spends_one_charge():
    pool = spirit_pool(5)
    assert (pool.spent, pool.remaining) == (1, 4)
    assert pool.dice == (DieSpec(10, Src.CHARGE, "charge"),) * 4
    assert len(roll_specs(pool.dice, ManualSource([1, 2, 3, 4]))) == 4


@pytest.mark.parametrize("charges", [0, 1])
def test_R11_spirit_pool_needs_a_charge_left(charges):
    with pytest.raises(RulesError):
        spirit_pool(charges)


def test_R11_spirit_loss_degrees_at_least_one():
    assert spirit_loss(resolve(dice("10,8,7"), dice("6,5"))) == 3
    assert spirit_loss(resolve(dice("7,7,3"), dice("7,5,3"))) == 1  # narrow: still 1
    assert spirit_loss(resolve(dice("10,8,7"), dice("6,5")), Settings(raja_spirit_loss="one")) == 1
    assert spirit_loss(resolve(dice("7"), dice("7"))) == 0
    assert apply_charge_loss(2, 3) == 0


def test_R11_ability_costs():
    assert ability_cost("use") == 1
    assert ability_cost("use", 2, paid_this_scene=True) == 2
    assert ability_cost("scene") == 1
    assert ability_cost("scene", paid_this_scene=True) == 0
    assert ability_cost("always", 3) == 0
    with pytest.raises(RulesError):
        ability_cost("daily")
    assert spend_charges(5, 1) == 4
    with pytest.raises(RulesError, match="not enough charges"):
        spend_charges(0, 1)


# --------------------------------------------------------------------- JSON


def test_R5_result_json_keys_and_serialisable():
    data = result_json(resolve(dice("7,7,3"), dice("8,5,3")))
    assert (data["winner"], data["degrees"], data["supernatural"]) == ("b", 1, 0)
    assert data["a_faces"] == [7, 7, 3] and data["b_faces"] == [8, 5, 3]
    assert data["degree_faces"] == [8]
    json.dumps(data)
    tie = result_json(resolve(dice("7,5"), dice("7,5")))
    assert tie["winner"] == "tie" and tie["tie_action"] == "reroll"


# ----------------------------------------------------------------- properties

die_st = st.builds(
    lambda f, ab: Die(10, f, Src.ABILITY if ab else Src.DIE),
    st.integers(1, 10),
    st.booleans(),
)
pool_st = st.lists(die_st, min_size=1, max_size=7)
settings_st = st.builds(Settings, raja_exhausted=st.booleans())
SWAP = {"a": "b", "b": "a", "tie": "tie"}


@given(pool_st, pool_st, settings_st)
def test_R5_antisymmetric(a, b, settings):
    r, s = resolve(a, b, settings), resolve(b, a, settings)
    assert s.winner == SWAP[r.winner]
    assert s.degrees == r.degrees
    assert s.supernatural == r.supernatural


@given(pool_st, pool_st)
def test_R6_degrees_bounded_by_winner_dice(a, b):
    r = resolve(a, b)
    if r.winner == "tie":
        assert r.degrees == 0
        return
    win = r.a if r.winner == "a" else r.b
    assert r.degrees <= sum(2 if d.is_ability else 1 for d in win)
    assert r.supernatural <= sum(d.is_ability for d in win)


@given(pool_st, pool_st)
def test_R6_zero_degrees_when_tops_equal(a, b):
    r = resolve(a, b)
    if r.a[0].face == r.b[0].face:
        assert r.degrees == 0


@given(pool_st, pool_st, st.randoms())
def test_R5_independent_of_input_order(a, b, rnd):
    a2, b2 = list(a), list(b)
    rnd.shuffle(a2)
    rnd.shuffle(b2)
    assert resolve(a2, b2) == resolve(a, b)


# ------------------------------------------------ R6 raja.degrees, R7 visibly supernatural

BEYOND = Settings(raja_degrees="beyond")


def test_R6_EX_C_three_degrees_by_default_two_beyond_the_deciding_die():
    assert resolve(dice("10,8,7"), dice("6,5")).degrees == 3
    r = resolve(dice("10,8,7"), dice("6,5"), BEYOND)
    assert (r.winner, r.degrees, faces(r.degree_dice)) == ("a", 2, [8, 7])
    assert not r.narrow
    assert "beyond the deciding die" in r.explain()[-1]


def test_R6_EX_A_one_degree_by_default_none_beyond():
    assert resolve(dice("7,7,3"), dice("8,5,3")).degrees == 1
    r = resolve(dice("7,7,3"), dice("8,5,3"), BEYOND)
    assert (r.winner, r.degrees) == ("b", 0)
    # a clear win (8 > 7) with nothing beyond it is not a narrow win
    assert not r.narrow
    assert result_json(r)["degrees_rule"] == "beyond"


def test_R6_beyond_ability_dice_still_count_two_and_tie_break_wins_stay_narrow():
    r = resolve(dice("9,8*,2"), dice("5"), BEYOND)
    assert (r.degrees, r.supernatural) == (2, 1)  # the 9 decides; the 8* counts 2
    r = resolve(dice("7,7,3"), dice("7,5,3"), BEYOND)  # EX B: decided by a tie-break
    assert (r.winner, r.degrees, r.narrow) == ("a", 0, True)


def test_R6_beyond_an_ordinary_die_tied_at_the_top_decides_and_the_ability_die_counts():
    """RULES.md R6 under beyond: 9✦,9 vs 5 = 2 degrees, 1 supernatural feature."""
    r = resolve(dice("9*,9"), dice("5"), BEYOND)
    assert (r.winner, r.degrees, r.supernatural) == ("a", 2, 1)
    assert [(d.face, d.is_ability) for d in r.degree_dice] == [(9, True)]
    assert r.visibly_supernatural
    assert "beyond the deciding die 9 (raja.degrees = beyond)" in r.explain()[-3]
    # the same faces in any order, and on side B
    assert resolve(dice("9,9*"), dice("5"), BEYOND).degrees == 2
    r = resolve(dice("5"), dice("9,9*"), BEYOND)
    assert (r.winner, r.degrees, r.supernatural) == ("b", 2, 1)
    # two ability dice and an ordinary one at the top: the ordinary decides, both count
    assert resolve(dice("9*,9*,9"), dice("5"), BEYOND).degrees == 4


def test_R6_beyond_a_win_whose_only_ability_die_decides_is_visible_but_adds_no_feature():
    r = resolve(dice("9*,5"), dice("3"), BEYOND)
    assert (r.winner, r.degrees, r.supernatural) == ("a", 1, 0)
    assert r.visibly_supernatural and result_json(r)["visibly_supernatural"] is True
    assert r.explain()[-1].endswith("it is the deciding die, so it adds no feature (raja.degrees = beyond)")
    # with every die counted the same roll has its feature
    full = resolve(dice("9*,5"), dice("3"))
    assert (full.degrees, full.supernatural) == (3, 1)
    assert "adds no feature" not in full.explain()[-1]


def test_R7_tied_ability_die_is_not_visibly_supernatural():
    r = resolve(dice("8*,7"), dice("8,5"))
    assert r.winner == "a" and r.deciding_position == 2
    assert not r.deciding_die_is_ability and not r.visibly_supernatural
    assert result_json(r)["visibly_supernatural"] is False


def test_R7_ability_die_above_all_of_the_loser_is_visibly_supernatural():
    r = resolve(dice("8*,8"), dice("5"))
    assert r.visibly_supernatural
    assert result_json(r)["visibly_supernatural"] is True
    assert any("visibly supernatural" in line for line in r.explain())
    # the same faces on the losing side: the winner's highest is not an ability die
    assert not resolve(dice("9,8*"), dice("5")).visibly_supernatural


@given(st.lists(st.integers(1, 10), min_size=1, max_size=6),
       st.lists(st.integers(1, 10), min_size=1, max_size=6),
       st.lists(st.booleans(), min_size=6, max_size=6))
def test_R6_beyond_is_the_default_less_the_deciding_die(fa, fb, ab):
    a = tuple(Die(10, f, Src.ABILITY if ab[i] else Src.DIE) for i, f in enumerate(fa))
    b = tuple(Die(10, f) for f in fb)
    full, beyond = resolve(a, b), resolve(a, b, BEYOND)
    assert full.winner == beyond.winner
    if full.degree_dice:
        # the deciding die is an ordinary one whenever an ordinary die shows the top face (R6)
        top = [d for d in full.degree_dice if d.face == full.degree_dice[0].face]
        ordinary_at_top = any(not d.is_ability for d in top)
        assert beyond.degrees == full.degrees - (1 if ordinary_at_top else 2)
        assert beyond.supernatural == full.supernatural - (0 if ordinary_at_top else 1)
    else:
        assert beyond.degrees == 0
    # visibly supernatural only when the winner's top die beats every loser die
    if full.visibly_supernatural:
        win, lose = (full.a, full.b) if full.winner == "a" else (full.b, full.a)
        assert win[0].is_ability and all(win[0].face > d.face for d in lose)


# ------------------------------------------------------------ R9 which dice the wound removes


def test_R9_wound_removes_conditions_then_backgrounds_then_abilities():
    plan = build_pool(["Militia", "Street-wise"], ["Ape strength"], ["Running shoes"], "Badly wounded")
    assert [(str(s.source), s.label) for s in plan.removed] == [
        ("condition", "Running shoes"), ("background", "Street-wise")]
    assert plan.abilities == ("Ape strength",) and plan.removed_abilities == ()
    plan = build_pool(["Militia"], ["Ape strength"], [], "Mortally wounded")
    assert [s.source for s in plan.dice] == [Src.ACTION]
    assert plan.abilities == () and plan.removed_abilities == ("Ape strength",)


def test_R9_removed_ability_die_is_not_rolled_and_costs_nothing():
    plan = build_pool([], ["Ape strength"], [], "Wounded")
    assert len(plan.dice) == 1 and plan.dice[0].source == Src.ACTION
    assert plan.abilities == ()  # nothing to pay for (R11)


def test_R9_the_wounded_side_chooses_which_dice_go():
    plan = build_pool(["Militia"], ["Ape strength"], ["Running shoes"], "Wounded",
                      wound_removes=[("ability", "Ape strength")])
    assert plan.removed_abilities == ("Ape strength",)
    assert [s.label for s in plan.dice] == ["action", "Militia", "Running shoes"]
    # a choice shorter than the penalty: the default order takes the rest
    plan = build_pool(["Militia"], ["Ape strength"], ["Running shoes"], "Badly wounded",
                      wound_removes=[("ability", "Ape strength")])
    assert [s.label for s in plan.removed] == ["Ape strength", "Running shoes"]
    with pytest.raises(RulesError, match="never removes the action die"):
        build_pool(["Militia"], [], [], "Wounded", wound_removes=[("action", "action")])
    with pytest.raises(RulesError, match="no background die 'Sailor'"):
        build_pool(["Militia"], [], [], "Wounded", wound_removes=[("background", "Sailor")])
    with pytest.raises(RulesError, match="removes 1 dice"):
        build_pool(["Militia", "Sailor"], [], [], "Wounded",
                   wound_removes=[("background", "Militia"), ("background", "Sailor")])


@given(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3),
       st.sampled_from(["Healthy", "Bruised", "Wounded", "Badly wounded", "Mortally wounded"]))
def test_R9_pool_keeps_the_action_die_and_loses_at_most_the_penalty(nb, na, nc, level):
    plan = build_pool([f"b{i}" for i in range(nb)], [f"a{i}" for i in range(na)],
                      [f"c{i}" for i in range(nc)], level)
    assert plan.dice[0].source == Src.ACTION
    assert len(plan.dice) + len(plan.removed) == 1 + nb + na + nc
    assert len(plan.removed) == min(plan.penalty, nb + na + nc)
    assert set(plan.abilities) | set(plan.removed_abilities) == {f"a{i}" for i in range(na)}


# --------------------------------------------------------------------- R11 spirit combat


def test_R11_entry_charge_is_paid_once_and_the_winner_loses_nothing():
    from polku.rules.rajapolku import begin_spirit_fight

    fight = begin_spirit_fight(5, 4)
    assert (fight.a_charges, fight.b_charges) == (4, 3)
    assert len(fight.dice("a")) == 4 and all(s.source == Src.CHARGE for s in fight.dice("a"))
    # exchange 1: A 9,7,3,2 vs B 6,5,1 → A wins with 2 degrees; B loses 2, A nothing
    step = fight.exchange(resolve(dice("9,7,3,2"), dice("6,5,1")))
    assert (step.loser, step.loss) == ("b", 2)
    assert (step.fight.a_charges, step.fight.b_charges, step.fight.exchanges) == (4, 1, 1)
    # exchange 2 rolls the charges left, no new entry: 4 dice vs 1
    step2 = step.fight.exchange(resolve(dice("4,3,2,1"), dice("8")))
    assert (step2.loser, step2.loss) == ("a", 1)
    assert (step2.fight.a_charges, step2.fight.b_charges) == (3, 1)
    assert not step2.fight.over
    # a third exchange goes ahead: 3 dice vs 1, B loses its last charge
    step3 = step2.fight.exchange(resolve(dice("10,2,2"), dice("3")))
    assert (step3.fight.a_charges, step3.fight.b_charges, step3.fight.exchanges) == (3, 0, 3)
    assert step3.fight.over and step3.fight.winner == "a"
    with pytest.raises(RulesError, match="over"):
        step3.fight.exchange(resolve(dice("1,1,1"), dice("2")))


def test_R11_narrow_loss_costs_one_charge_and_a_full_tie_costs_nothing():
    from polku.rules.rajapolku import SpiritFight

    fight = SpiritFight(3, 3)
    step = fight.exchange(resolve(dice("7,7,3"), dice("7,5,3")))  # EX B faces: 0 degrees
    assert (step.loser, step.loss, step.fight.b_charges) == ("b", 1, 2)
    tie = fight.exchange(resolve(dice("7,5,2"), dice("7,5,2")), DEFENDER)
    assert (tie.loser, tie.loss, tie.fight.a_charges, tie.fight.b_charges) == (None, 0, 3, 3)
    one = fight.exchange(resolve(dice("10,9,8"), dice("3,2,1")), Settings(raja_spirit_loss="one"))
    assert one.loss == 1 and one.fight.b_charges == 2


def test_R11_the_gm_ends_the_fight_and_pools_must_be_the_charges_left():
    from polku.rules.rajapolku import SpiritFight, begin_spirit_fight

    fight = SpiritFight(2, 2)
    with pytest.raises(RulesError, match="charges left"):
        fight.exchange(resolve(dice("9,8,7"), dice("1,1")))
    ended = fight.end()
    assert ended.over and ended.winner is None
    with pytest.raises(RulesError, match="none would remain"):
        begin_spirit_fight(1, 5)


@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_R11_an_exchange_costs_only_the_loser(a, b, data):
    from polku.rules.rajapolku import SpiritFight

    fa = data.draw(st.lists(st.integers(1, 10), min_size=a, max_size=a))
    fb = data.draw(st.lists(st.integers(1, 10), min_size=b, max_size=b))
    r = resolve(tuple(Die(10, f, Src.CHARGE) for f in fa), tuple(Die(10, f, Src.CHARGE) for f in fb))
    step = SpiritFight(a, b).exchange(r)
    if r.winner == "a":
        assert step.fight.a_charges == a and step.fight.b_charges == max(0, b - max(1, r.degrees))
    elif r.winner == "b":
        assert step.fight.b_charges == b and step.fight.a_charges == max(0, a - max(1, r.degrees))
    else:
        assert (step.fight.a_charges, step.fight.b_charges) == (a, b)


# ------------------------------------------------ R11 spirit combat and R9 wounds (raja.spirit_wounds)


def test_R11_spirit_wounds_remove_dice_from_the_charges_rolled_at_least_one_stays():
    from polku.rules.rajapolku import begin_spirit_fight, spirit_dice_counts

    # default: yes, as R9 says "all actions"; Badly wounded (−2) with 5 charges left rolls 3
    assert spirit_dice_counts(5, 4, a_penalty=2) == (3, 4)
    assert spirit_dice_counts(2, 4, a_penalty=3) == (1, 4)  # at least 1 die stays
    assert spirit_dice_counts(5, 4, Settings(raja_spirit_wounds=False), a_penalty=2) == (5, 4)
    # oppose (R9's other reading): the other side rolls the wound's dice
    assert spirit_dice_counts(5, 4, OPPOSE, a_penalty=2) == (5, 6)
    fight = begin_spirit_fight(6, 5, a_penalty=2)  # Badly wounded A: 5 charges left, rolls 3
    assert (fight.a_charges, fight.b_charges) == (5, 4)
    assert [str(s.source) for s in fight.dice("a")] == ["charge"] * 3 and len(fight.dice("b")) == 4
    # the exchange: 9,2,1 vs 5,3,2,1 → A wins with 1 degree; B loses 1 charge, A's charges (hit points) stay
    step = fight.exchange(resolve(dice("9,2,1"), dice("5,3,2,1")))
    assert (step.loser, step.loss, step.fight.a_charges, step.fight.b_charges) == ("b", 1, 5, 3)
    with pytest.raises(RulesError, match=r"with the wound penalties \(R9\) \(3 and 4 dice\)"):
        fight.exchange(resolve(dice("9,2,1,1,1"), dice("5,3,2,1")))
    # under oppose the wounded side's penalty is the other side's extra dice
    opp = begin_spirit_fight(6, 5, a_penalty=2)
    assert [str(s.source) for s in opp.dice("b", OPPOSE)] == ["charge"] * 4 + ["condition"] * 2
    assert len(opp.dice("a", OPPOSE)) == 5
