"""Harhapolku rules (docs/rules.md): every EX with its exact numbers, plus properties."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from polku.rules.dice import Die, DieSpec, ManualSource, RulesError, Src
from polku.rules.harhapolku import (
    H4_REMINDER,
    SUM_REFUSED,
    SUM_VERY_DEMANDING,
    NarrationContest,
    build_pool,
    build_pool_same_size,
    compare_ch23,
    compare_classic,
    difficult,
    difficult_notice,
    difficult_opposed,
    edge_reroll,
    resolve,
    resolve_sum,
    result_json,
    same_size_count,
    usurp_tier,
)
from polku.rules.system import Settings


def d8(*fs: int) -> tuple[Die, ...]:
    return tuple(Die(8, f, Src.DIE) for f in fs)


def d(size: int, *fs: int) -> tuple[Die, ...]:
    return tuple(Die(size, f, Src.DIE) for f in fs)


# --------------------------------------------------------------------- H2 / H5


def test_H2_pool_always_one_d8():
    assert build_pool().dice == (DieSpec(8, Src.ACTION, "always"),)


def test_H2_every_tier_and_gm_bonus():
    pool = build_pool("Farmer", "Smith", "Knight", "Seer", "Dragon-blooded", "spectacular leap")
    assert [s.size for s in pool.dice] == [8, 8, 8, 8, 10, 10, 10]
    assert [s.label for s in pool.dice[1:]] == [
        "Farmer", "Smith", "Knight", "Seer", "Dragon-blooded", "spectacular leap",
    ]
    assert pool.dice[-1].source == Src.GM_BONUS
    assert len(pool.explain) == 7


def test_H2_booleans_claim_without_names():
    pool = build_pool(general=True, special=True, gm_bonus=True)
    assert [(s.size, s.label) for s in pool.dice] == [
        (8, "always"), (8, "general background"), (10, "special background"), (10, "GM bonus"),
    ]
    assert build_pool(general=False, background="").dice == (DieSpec(8, Src.ACTION, "always"),)


def test_H5_same_size_pool():
    assert len(build_pool_same_size().dice) == 1
    assert len(build_pool_same_size(descriptive="Hunter").dice) == 2
    assert len(build_pool_same_size(special="Witch").dice) == 3
    pool = build_pool_same_size("Hunter", specifications=["bows", "tracking"], size=6)
    assert len(pool.dice) == 4 and {s.size for s in pool.dice} == {6}


# --------------------------------------------------------------------- H3


def test_H3_EX_D_first_side_wins_two_to_one():
    r = compare_classic(d8(7, 4, 4), d8(6, 5, 3))
    assert r.winner == "a"
    assert (r.a_positions, r.b_positions) == (2, 1)
    assert [p.side for p in r.positions] == ["a", "b", "a"]
    assert r.explain()[-1] == "A wins 2 to 1 (H3)"


def test_H3_equal_dice_count_for_nobody_and_tie_rerolls():
    r = compare_classic(d8(7, 5), d8(7, 5))
    assert r.winner == "tie" and r.tie_action == "reroll"
    assert (r.a_positions, r.b_positions) == (0, 0)


def test_H3_classic_extra_unmatched_dice():
    r = compare_classic(d8(5), d8(6, 2, 1))
    assert (r.winner, r.a_positions, r.b_positions) == ("b", 0, 3)
    r = compare_classic(d8(7), d8(6, 2, 1), classic_extra=True)
    assert (r.winner, r.a_positions, r.b_positions) == ("b", 1, 2)
    r = compare_classic(d8(7), d8(6, 2, 1), classic_extra=False)
    assert (r.winner, r.a_positions, r.b_positions) == ("a", 1, 0)


def test_H3_resolve_uses_classic_extra_setting():
    s = Settings(harha_variant="classic", harha_classic_extra=False)
    assert resolve(d8(7), d8(6, 2, 1), settings=s).winner == "a"
    assert resolve(d8(7), d8(6, 2, 1), "classic").winner == "b"


# --------------------------------------------------------------------- H4


def test_H4_EX_E_challenger_wins_by_one_die():
    r = compare_ch23(actor=d8(6, 5, 3), challenger=d8(7, 4, 4))
    assert r.winner == "b"
    assert (r.b_positions, r.a_positions) == (2, 1)
    assert r.margin == 1


def test_H4_EX_F_actor_wins():
    r = compare_ch23(actor=d8(5, 2, 2), challenger=d8(4, 3, 1, 1, 1, 1, 1, 1))
    assert r.winner == "a"
    assert [p.side for p in r.positions] == ["a", "b", "a"]
    assert len(r.positions) == 3  # only the smaller pool's count


def test_H4_EX_G_equal_positions_count_for_nobody_actor_wins():
    r = compare_ch23(actor=d8(8), challenger=d8(8, 8, 8, 3))
    assert r.winner == "a"
    assert (r.a_positions, r.b_positions) == (0, 0)
    assert r.explain()[-1].endswith("the actor wins (H4)")


def test_H4_actor_without_dice_fails_with_challengers_reason():
    r = compare_ch23(actor=(), challenger=d8(1))
    assert r.winner == "b" and r.reason == "actor_no_dice"
    assert "challenger's reason" in r.explain()[-1]


def test_H4_resolve_default_is_ch23_a_actor_b_challenger():
    assert resolve(d8(6, 5, 3), d8(7, 4, 4)).winner == "b"  # EX E
    assert resolve(d8(5, 2, 2), d8(4, 3, 1, 1, 1, 1, 1, 1)).winner == "a"  # EX F


def test_H4_reminder_text():
    assert "already shown in play" in H4_REMINDER and "senses" in H4_REMINDER


def test_H5_same_size_variant_compares_ch23_and_refuses_mixed_sizes():
    assert resolve(d8(6, 5, 3), d8(7, 4, 4), "same_size").winner == "b"
    with pytest.raises(RulesError, match="one die size"):
        resolve(d8(6), d(10, 7), "same_size")


def test_H3_H4_bad_variant():
    with pytest.raises(RulesError, match="unknown Harhapolku variant"):
        resolve(d8(1), d8(1), "poker")
    with pytest.raises(RulesError, match="give both counts"):
        resolve(d8(1), d8(1), "sum")


def test_H4_result_json():
    data = result_json(resolve(d8(6, 5, 3), d8(7, 4, 4)))
    assert (data["winner"], data["a_positions"], data["b_positions"]) == ("b", 1, 2)
    assert data["positions"][0] == {"index": 1, "a": 6, "b": 7, "side": "b"}
    json.dumps(data)


# --------------------------------------------------------------------- H6


def test_H6_EX_H_special_background_side_wins():
    actor = same_size_count(descriptive=True, specifications=2)  # 2 + 2
    challenger = same_size_count(special=True)  # 3
    assert (actor, challenger) == (4, 3)
    r = resolve_sum(actor, 2, challenger, 5)
    assert (r.a_total, r.b_total) == (6, 8)
    assert r.winner == "b"
    # the same rolls with the roles swapped: the special side still wins
    r = resolve_sum(challenger, 5, actor, 2)
    assert (r.a_total, r.b_total, r.winner) == (8, 6, "a")


def test_H6_challenger_needs_larger_total():
    assert resolve_sum(3, 4, 4, 3).winner == "a"  # 7 vs 7: actor
    assert resolve_sum(3, 4, 4, 4).winner == "b"
    assert resolve_sum(0, 6, 1, 1).winner == "b"  # actor without dice (H4)
    data = result_json(resolve_sum(4, 2, 3, 5))
    assert (data["winner"], data["a_total"], data["b_total"]) == ("b", 6, 8)
    json.dumps(data)
    with pytest.raises(RulesError):
        resolve_sum(2, 0, 1, 1)


# --------------------------------------------------------------------- H7 / H8


def test_H8_difficult_needs_one_seven_plus():
    assert difficult(d8(7, 1)).success
    assert not difficult(d8(6, 6, 6)).success
    assert difficult(d(10, 10)).success


def test_H8_very_demanding_needs_two_seven_plus():
    assert not difficult(d8(8, 3), very_demanding=True).success
    assert difficult(d8(7, 7), very_demanding=True).success
    assert "very demanding" in difficult(d8(7), True).explain()[0]


SUM = "sum"
REFUSE = Settings(harha_variant="sum", harha_sum_difficult="refuse")


def test_H8_sum_one_die_the_one_rolled_die_must_show_seven_plus():
    """harha.sum_difficult = one_die (default): the sum variant's one die needs 7+ (H6, H8)."""
    assert difficult(d8(7), variant=SUM).success
    assert not difficult(d8(6), variant=SUM).success
    assert difficult(d(10, 9), variant=SUM).success
    with pytest.raises(RulesError, match="rolls one die, not 2"):
        difficult(d8(7, 7), variant=SUM)
    # opposed: win the sum AND show 7+ on the one die
    won_high = difficult_opposed(resolve(d8(7), d8(3), settings=Settings(harha_variant="sum"), a_count=2, b_count=1))
    assert (won_high.won_comparison, won_high.high, won_high.success) == (True, 1, True)
    won_low = difficult_opposed(resolve(d8(5), d8(1), settings=Settings(harha_variant="sum"), a_count=3, b_count=1))
    assert (won_low.won_comparison, won_low.high, won_low.success) == (True, 0, False)
    lost_high = difficult_opposed(resolve(d8(7), d8(8), settings=Settings(harha_variant="sum"), a_count=1, b_count=3))
    assert (lost_high.won_comparison, lost_high.success) == (False, False)


def test_H8_sum_very_demanding_cannot_succeed_and_says_so_before_and_after():
    assert difficult_notice(SUM, 2) == SUM_VERY_DEMANDING
    assert "cannot succeed" in SUM_VERY_DEMANDING and "\n" not in SUM_VERY_DEMANDING
    assert difficult_notice(SUM, 1) is None and difficult_notice("ch23", 2) is None
    r = difficult(d8(8), very_demanding=True, variant=SUM)
    assert (r.high, r.needed, r.success) == (1, 2, False)
    assert r.explain()[-1] == SUM_VERY_DEMANDING
    opp = difficult_opposed(resolve(d8(8), d8(1), settings=Settings(harha_variant="sum"), a_count=4, b_count=1), True)
    assert opp.won_comparison and not opp.success and opp.explain()[-1] == SUM_VERY_DEMANDING
    # outside the sum variant two 7+ dice still succeed, with no notice
    assert difficult(d8(8, 7), very_demanding=True).explain()[-1] != SUM_VERY_DEMANDING


def test_H8_sum_refuse_offers_no_difficult_action_under_the_sum_variant():
    for demand in (1, 2):
        with pytest.raises(RulesError) as exc:
            difficult_notice(SUM, demand, REFUSE)
        assert str(exc.value) == SUM_REFUSED
    assert difficult_notice("ch23", 1, REFUSE) is None  # only the sum variant is affected
    assert difficult_notice(SUM, 0, REFUSE) is None  # a plain sum challenge is fine


def test_H4_the_gm_takes_away_the_always_die_and_the_empty_pool_fails():
    pool = build_pool(special="Sea-touched", always=False)
    assert [d.size for d in pool.dice] == [10] and "no 1d8 always" in pool.explain[0]
    empty = build_pool(always=False)
    assert empty.dice == () and build_pool_same_size(always=False).dice == ()
    r = resolve((), d8(1, 1))
    assert (r.winner, r.reason) == ("b", "actor_no_dice")
    assert "fails with the challenger's reason (H4)" in r.explain()[-1]


def test_H4_H8_an_actor_with_no_dice_fails_a_difficult_action():
    r = difficult((), variant="ch23")
    assert (r.high, r.success) == (0, False)
    assert "cannot roll a single die" in r.explain()[-1]


def test_H7_edge_reroll_whole_pool_remembers_replaced():
    new = edge_reroll(d8(2, 3), None, ManualSource([8, 5]))
    assert [x.face for x in new] == [8, 5]
    assert [x.replaced for x in new] == [(2,), (3,)]


def test_H7_edge_reroll_chosen_dice_and_bad_index():
    new = edge_reroll(d(10, 1, 9), [0], ManualSource([10]))
    assert [x.face for x in new] == [10, 9]
    assert new[0].replaced == (1,) and new[1].replaced == ()
    with pytest.raises(RulesError, match="no die #5"):
        edge_reroll(d8(1), [5], ManualSource([1]))


# --------------------------------------------------------------------- H9


def opened() -> NarrationContest:
    return NarrationContest(conflict="brawl").open("Ann", d8(4, 5)).state  # table 9


def test_H9_open_needs_exactly_two_dice():
    c = NarrationContest()
    with pytest.raises(RulesError, match="exactly two"):
        c.open("Ann", d8(4))
    step = c.open("Ann", d8(4, 5))
    assert step.state.narrator == "Ann" and step.state.table_total == 9
    assert c.narrator is None  # immutable
    with pytest.raises(RulesError, match="already narrates"):
        step.state.open("Bob", d8(1, 1))


def test_H9_burn_refused_when_sum_not_greater():
    with pytest.raises(RulesError) as e:
        opened().usurp("Bob", d8(3, 4))
    assert str(e.value) == "sum 7 does not exceed the table's 9"
    with pytest.raises(RulesError, match="sum 9 does not exceed the table's 9"):
        opened().usurp("Bob", d8(4, 5))


def test_H9_tier_one_die_negates():
    step = opened().usurp("Bob", d(10, 10))
    assert step.detail.tier == "negate"
    s = step.state
    assert s.narrator == "Bob" and [x.face for x in s.table] == [10]
    assert s.burned[0].owner == "Ann" and [x.face for x in s.burned[0].dice] == [4, 5]
    assert "negate" in step.text


@pytest.mark.parametrize("n", [2, 3])
def test_H9_tier_two_or_three_dice_parry(n):
    step = opened().usurp("Bob", d8(*([5] * n)))
    assert step.detail.tier == "parry" and step.detail.gm_dice == 0


def test_H9_tier_more_than_three_dice_harm_roll():
    step = opened().usurp("Bob", d8(3, 3, 2, 2))
    u = step.detail
    assert (u.tier, u.gm_dice, u.gm_die_size, u.total) == ("harm_roll", 4, 6, 10)
    assert [usurp_tier(n) for n in (1, 2, 3, 4, 7)] == ["negate", "parry", "parry", "harm_roll", "harm_roll"]
    assert step.state.harm_dice() == (DieSpec(6, Src.GM_BONUS, "harm"),) * 4


def test_H9_conflict_die_sizes():
    sizes = {}
    for kind in ("conversation", "brawl", "armed", "firefight"):
        c = NarrationContest(conflict=kind).open("Ann", d8(1, 1)).state
        sizes[kind] = c.usurp("Bob", d8(1, 1, 1, 1)).detail.gm_die_size
    assert sizes == {"conversation": 4, "brawl": 6, "armed": 8, "firefight": 10}
    with pytest.raises(RulesError, match="unknown conflict"):
        NarrationContest(conflict="duel")


def test_H9_harm_roll_both_ways():
    s = opened().usurp("Bob", d8(3, 3, 2, 2)).state  # usurper total 10
    hit = s.harm_roll(d(6, 6, 3, 1, 1))  # 11 > 10
    assert hit.detail.harmed and hit.detail.gm_total == 11
    miss = s.harm_roll(d(6, 6, 2, 1, 1))  # 10, not above 10
    assert not miss.detail.harmed
    with pytest.raises(RulesError, match="no harm roll is due"):
        hit.state.harm_roll(d(6, 6, 6, 6, 6))
    with pytest.raises(RulesError, match="4d6"):
        s.harm_roll(d(8, 8, 8, 8, 8))


def test_H9_ability_fight_gm_wins_automatically():
    c = NarrationContest(conflict="firefight", ability_fight=True).open("Ann", d8(1, 1)).state
    s = c.usurp("Bob", d8(8, 8, 8, 8)).state
    step = s.harm_roll()
    assert step.detail.harmed and step.detail.automatic


def test_H9_no_harm_roll_after_parry():
    with pytest.raises(RulesError, match="no harm roll"):
        opened().usurp("Bob", d8(5, 5)).state.harm_roll(d(6, 6, 6))


def test_H9_usurp_rules():
    with pytest.raises(RulesError, match="nobody narrates"):
        NarrationContest().usurp("Bob", d8(8))
    with pytest.raises(RulesError, match="already narrates"):
        opened().usurp("Ann", d8(8, 8))
    chain = opened().usurp("Bob", d8(5, 5)).state.usurp("Cid", d(10, 10, 1)).state
    assert chain.narrator == "Cid" and [b.owner for b in chain.burned] == ["Ann", "Bob"]


def test_H9_background_once_per_scene():
    c = NarrationContest()
    step = c.roll_background("Ann", "Hunter", ManualSource([6]))
    assert step.detail.face == 6 and step.detail.label == "Hunter"
    s = step.state
    assert s.hand("Ann") == (step.detail,)
    with pytest.raises(RulesError, match="already rolled Hunter this scene"):
        s.roll_background("Ann", "Hunter", ManualSource([1]))
    s = s.roll_background("Bob", "Hunter", ManualSource([2])).state  # another participant may
    s = s.roll_background("Ann", "Witch", ManualSource([9]), size=10).state
    s = s.open("Ann", s.hand("Ann")).state
    assert s.hand("Ann") == () and s.table_total == 15
    fresh = s.new_scene().state
    assert fresh.narrator is None and fresh.rolled == frozenset() and fresh.table == ()
    assert fresh.roll_background("Ann", "Hunter", ManualSource([3])).detail.face == 3


# ----------------------------------------------------------------- properties

die_st = st.builds(lambda size, f: Die(size, min(f, size), Src.DIE), st.sampled_from([8, 10]), st.integers(1, 10))
pool_st = st.lists(die_st, min_size=1, max_size=8)
SWAP = {"a": "b", "b": "a", "tie": "tie"}


@given(pool_st, pool_st, st.booleans())
def test_H3_classic_antisymmetric(a, b, extra):
    r, s = compare_classic(a, b, extra), compare_classic(b, a, extra)
    assert s.winner == SWAP[r.winner]
    assert (s.a_positions, s.b_positions) == (r.b_positions, r.a_positions)


@given(pool_st, pool_st)
def test_H4_challenger_never_wins_without_more_positions(actor, challenger):
    r = compare_ch23(actor, challenger)
    assert r.winner in ("a", "b")
    assert len(r.positions) == min(len(actor), len(challenger))
    if r.b_positions <= r.a_positions:
        assert r.winner == "a"
    else:
        assert r.winner == "b"


@given(pool_st, pool_st, st.randoms(), st.sampled_from(["classic", "ch23"]))
def test_H3_H4_independent_of_input_order(a, b, rnd, variant):
    a2, b2 = list(a), list(b)
    rnd.shuffle(a2)
    rnd.shuffle(b2)
    assert resolve(a2, b2, variant) == resolve(a, b, variant)


# ------------------------------------------- H5 / H6 through resolve, H7 everywhere, H8 opposed


def test_H5_same_size_setting_applies_through_resolve():
    same = Settings(harha_variant="same_size")
    # EX E's faces on d8s: the challenger (B) wins by one die, chapter 23 way
    r = resolve(d8(6, 5, 3), d8(7, 4, 4), settings=same)
    assert (r.variant, r.winner) == ("same_size", "b")
    with pytest.raises(RulesError, match="one die size"):
        resolve(d8(6), d(10, 7), settings=same)


def test_H6_EX_H_through_resolve_with_the_sum_setting():
    from polku.rules.harhapolku import pool_count, variant_dice

    actor = build_pool_same_size(descriptive="Sailor", specifications=["knots", "storms"])
    challenger = build_pool_same_size(special="Witch")
    assert (pool_count(actor), pool_count(challenger)) == (4, 3)
    specs = variant_dice(actor, "sum")
    assert len(specs) == 1 and specs[0].size == 8  # one die thrown, the count added
    r = resolve(d8(2), d8(5), settings=Settings(harha_variant="sum"), a_count=4, b_count=3)
    assert (r.a_total, r.b_total, r.winner) == (6, 8, "b")
    assert result_json(r)["variant"] == "sum"
    # the challenger needs the larger total: equal totals keep the actor's action
    r = resolve(d8(4), d8(5), "sum", a_count=4, b_count=3)
    assert (r.a_total, r.b_total, r.winner) == (8, 8, "a")


def test_H6_sum_refuses_pools_and_missing_counts():
    with pytest.raises(RulesError, match="give both counts"):
        resolve(d8(2), d8(5), "sum", a_count=4)
    with pytest.raises(RulesError, match="rolls one die, not 2"):
        resolve(d8(2, 3), d8(5), "sum", a_count=4, b_count=3)
    from polku.rules.harhapolku import variant_dice

    with pytest.raises(RulesError, match="one die size"):
        variant_dice(build_pool(general=True, special=True), "sum")
    assert len(variant_dice(build_pool(general=True, special=True), "ch23")) == 3


def test_H8_opposed_actor_must_win_and_show_a_seven():
    from polku.rules.harhapolku import difficult_opposed

    # actor 6,5,3 vs challenger 5,4,4: the actor wins every position, but no 7+
    r = difficult_opposed(resolve(d8(6, 5, 3), d8(5, 4, 4)))
    assert r.won_comparison and r.high == 0 and not r.success and r.winner == "b"
    assert "failure (the GM narrates)" in r.explain()[-1]
    # actor 7,5,3 vs 5,4,4: wins and shows the 7
    r = difficult_opposed(resolve(d8(7, 5, 3), d8(5, 4, 4)))
    assert r.success and r.winner == "a"
    # very demanding: two 7+ needed; 8,7 vs 6,6 succeeds, 8,6 vs 5,5 fails
    assert difficult_opposed(resolve(d8(8, 7), d8(6, 6)), very_demanding=True).success
    assert not difficult_opposed(resolve(d8(8, 6), d8(5, 5)), very_demanding=True).success
    # a 7 does not help an actor who loses the comparison (EX E: challenger wins)
    assert not difficult_opposed(resolve(d8(6, 5, 7), d8(8, 8, 8))).success


def test_H8_opposed_classic_tie_is_rerolled_and_sum_counts_its_one_die():
    from polku.rules.harhapolku import difficult_opposed

    r = difficult_opposed(resolve(d8(7, 3), d8(5, 4), "classic"))
    assert r.tie and r.winner == "tie" and not r.success
    r = difficult_opposed(resolve(d8(7), d8(2), "sum", a_count=2, b_count=3))
    assert (r.high, r.success) == (1, True)
    r = difficult_opposed(resolve(d8(6), d8(1), "sum", a_count=4, b_count=3))
    assert (r.high, r.won_comparison, r.success) == (0, True, False)


def test_H7_edge_reroll_of_a_narration_hand():
    contest = NarrationContest("brawl")
    contest = contest.roll_background("Ilse", "Sailor", ManualSource([2])).state
    contest = contest.roll_background("Ilse", "Witch", ManualSource([3])).state
    step = contest.reroll_hand("Ilse", ManualSource([8, 7]))
    assert [d.face for d in step.state.hand("Ilse")] == [8, 7]
    assert [d.replaced for d in step.state.hand("Ilse")] == [(2,), (3,)]
    assert step.text == "Ilse rerolls with an edge: 2,3 → 8,7 (H7)"
    with pytest.raises(RulesError, match="no rolled dice in hand"):
        contest.reroll_hand("Kai", ManualSource([1]))


def test_H7_edge_reroll_of_a_difficult_roll_changes_the_verdict():
    dice = d8(3, 2, 5)
    assert not difficult(dice).success
    again = edge_reroll(dice, None, ManualSource([7, 1, 1]))
    assert difficult(again).success and [x.replaced for x in again] == [(3,), (2,), (5,)]
