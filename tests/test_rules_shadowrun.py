"""Varjojuoksu / Shadowrun 4e dice (docs/rules.md, S1–S12)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from polku.rules.dice import ManualSource, RandomSource, RulesError, Src
from polku.rules.shadowrun import (
    ExtendedTest,
    InitEntry,
    bought_hits,
    build_pool,
    buy_hits,
    condition_monitor,
    count_hits,
    edge_after,
    explain,
    group_pool,
    initiative_order,
    initiative_pool,
    initiative_score,
    leader_of,
    long_shot,
    negate_glitch,
    opposed,
    reduce_critical,
    result_json,
    roll,
    roll_long_shot,
    spend_edge,
    success_test,
    teamwork,
    wound_modifier,
)
from polku.rules.system import Settings


def faces_roll(*faces: int, **kw):
    """A roll of exactly these faces (no Edge)."""
    return roll(len(faces), ManualSource(faces), **kw)


NO_REROLLS = Settings(sr_glitch_rerolls=False)


# --- S1 pools ---------------------------------------------------------------


def test_S1_EX_I_pool_pilot_ground_craft_3_reaction_4_snowy_road_is_5_dice():
    plan = build_pool(3, 4, modifiers=[("snowy road", -2)],
                      skill_name="Pilot Ground Craft", attribute_name="Reaction")
    assert plan.size == 5
    assert plan.parts == (("Pilot Ground Craft", 3), ("Reaction", 4), ("snowy road", -2))
    assert plan.explain() == ["Pilot Ground Craft 3 + Reaction 4 − 2 (snowy road) = 5 dice"]
    assert not plan.auto_fail and not plan.defaulted


def test_S1_attribute_plus_attribute_ram_a_door():
    plan = build_pool(None, 4, 5, attribute_name="Body", second_attribute_name="Strength")
    assert plan.size == 9
    assert plan.explain()[0] == "Body 4 + Strength 5 = 9 dice"


def test_S1_modifiers_add_and_remove_dice_and_wounds_apply():
    plan = build_pool(4, 3, modifiers=[("smartlink", 2), ("cover", -3)], wound_modifier=-1)
    assert plan.size == 4 + 3 + 2 - 3 - 1
    assert ("wounds", -1) in plan.parts


def test_S1_skill_and_second_attribute_together_is_an_error():
    with pytest.raises(RulesError, match="not both"):
        build_pool(3, 4, 5)


@pytest.mark.parametrize("bad", [-1, True, 2.5])
def test_S1_bad_ratings_are_rules_errors(bad):
    with pytest.raises(RulesError):
        build_pool(bad, 4)
    with pytest.raises(RulesError):
        build_pool(3, bad)


def test_S1_positive_wound_modifier_is_an_error():
    with pytest.raises(RulesError, match="penalty"):
        build_pool(3, 4, wound_modifier=1)


# --- S2 defaulting ----------------------------------------------------------


def test_S2_defaulting_rolls_attribute_minus_one_die():
    plan = build_pool(None, 4, attribute_name="Agility")
    assert plan.size == 3
    assert plan.defaulted
    assert ("defaulting", -1) in plan.parts
    assert plan.explain()[0] == "Agility 4 − 1 (defaulting) = 3 dice"


def test_S2_skill_zero_counts_as_no_skill():
    assert build_pool(0, 4).size == 3


def test_S2_defaulting_not_allowed_is_a_rules_error():
    with pytest.raises(RulesError, match="defaulting"):
        build_pool(None, 4, defaulting_allowed=False, skill_name="Hacking")


# --- S3 empty pool, Long Shot -----------------------------------------------


def test_S3_pool_of_zero_or_less_fails_automatically():
    plan = build_pool(1, 2, modifiers=[("blind", -6)])
    assert plan.size == -3
    assert plan.auto_fail
    assert "Long Shot" in plan.explain()[-1]
    r = roll(plan.size, ManualSource([]))
    assert r.auto_failed and r.dice == () and r.hits == 0 and not r.glitch
    res = success_test(r, 1)
    assert not res.success and res.net_hits == 0


def test_S3_edge_on_an_empty_pool_must_be_a_long_shot():
    with pytest.raises(RulesError, match="Long Shot"):
        roll(0, ManualSource([6, 6, 6]), edge_before=3)
    with pytest.raises(RulesError, match="Long Shot"):
        edge_after(roll(0, ManualSource([])), 3, ManualSource([6]))


def test_S3_long_shot_rolls_edge_dice_with_rule_of_six_for_one_edge():
    plan = long_shot(3)
    assert plan.size == 3 and plan.long_shot and plan.edge_cost == 1
    assert not plan.auto_fail
    assert plan.parts == (("Edge (Long Shot)", 3),)
    r = roll_long_shot(3, ManualSource([6, 2, 5, 4]))
    assert r.faces == [6, 2, 5, 4]
    assert [d.source for d in r.dice] == [Src.EDGE] * 3 + [Src.EXPLODED]
    assert r.hits == 2
    assert r.edge_spent == 1 and r.edge_when == "long_shot" and r.rule_of_six


def test_S3_long_shot_needs_an_edge_rating():
    with pytest.raises(RulesError):
        long_shot(0)


# --- S4 hits, buying hits ---------------------------------------------------


def test_S4_hits_are_fives_and_sixes():
    r = faces_roll(6, 5, 4, 3, 2)
    assert r.hits == 2
    assert count_hits([5, 5, 6, 1, 4]) == 3
    assert "hits: 6,5 → 2" in r.explain()


def test_S4_buying_hits_13_dice_is_3_hits_and_no_glitch():
    assert bought_hits(13) == 3
    assert bought_hits(12) == 3
    assert bought_hits(3) == 0
    r = buy_hits(13)
    assert r.hits == 3 and r.dice == ()
    assert not r.glitch and not r.critical_glitch
    with pytest.raises(RulesError):
        negate_glitch(r)
    with pytest.raises(RulesError):
        edge_after(r, 3, ManualSource([6, 6, 6]))


# --- S5 glitch --------------------------------------------------------------


def test_S5_glitch_exactly_at_half_and_success_at_once():
    r = faces_roll(1, 1, 5, 6)
    assert r.hits == 2
    assert r.glitch and not r.critical_glitch
    res = success_test(r, 2)
    assert res.success and res.glitch
    assert "ones: 2 of 4 → glitch (2 hits): dramatic or amusing, never catastrophic (S5)" in r.explain()


def test_S5_no_glitch_below_half():
    r = faces_roll(1, 1, 2, 3, 5)
    assert r.ones == 2
    assert not r.glitch
    assert "ones: 2 of 5 → no glitch" in r.explain()


def test_S5_odd_pool_half_or_more_means_three_of_five():
    assert faces_roll(1, 1, 1, 5, 6).glitch
    assert "ones: 3 of 5 → glitch (2 hits): dramatic or amusing, never catastrophic (S5)" in faces_roll(
        1, 1, 1, 5, 6).explain()


def test_S5_glitch_rerolls_true_counts_exploded_dice():
    # pool 1,1,6 + Edge 1 die (4) before the roll; 6 explodes into 1.
    source = ManualSource([1, 1, 6, 4, 1])
    r = roll(3, source, edge_before=1)
    assert r.faces == [1, 1, 6, 4, 1]
    assert len(r.glitch_dice) == 5 and r.ones == 3
    assert r.glitch


def test_S5_glitch_rerolls_false_counts_the_original_pool_only():
    source = ManualSource([1, 1, 6, 4, 1])
    r = roll(3, source, edge_before=1, settings=NO_REROLLS)
    # exploded die excluded: 2 ones of 4 dice (pool + Edge dice) → still a glitch
    assert len(r.glitch_dice) == 4 and r.ones == 2
    assert r.glitch
    # where it matters: 1,6,6 + Edge 4, sixes explode to 1 and 1.
    with_all = roll(3, ManualSource([1, 6, 6, 4, 1, 1]), edge_before=1)
    pool_only = roll(3, ManualSource([1, 6, 6, 4, 1, 1]), edge_before=1, settings=NO_REROLLS)
    assert with_all.ones == 3 and len(with_all.glitch_dice) == 6 and with_all.glitch
    assert pool_only.ones == 1 and len(pool_only.glitch_dice) == 4 and not pool_only.glitch
    assert with_all.hits == pool_only.hits == 2


def test_S5_negate_glitch_costs_one_edge():
    r = faces_roll(1, 1, 5, 6)
    n = negate_glitch(r)
    assert not n.glitch and n.glitch_negated and n.edge_spent == 1
    assert r.glitch  # the original is unchanged
    assert "glitch negated with 1 Edge (S5)" in n.explain()
    with pytest.raises(RulesError, match="no glitch"):
        negate_glitch(n)
    with pytest.raises(RulesError, match="no glitch"):
        negate_glitch(faces_roll(5, 6, 1))


def test_S5_negate_glitch_on_a_success_result():
    res = success_test(faces_roll(1, 1, 5, 6), 1)
    out = negate_glitch(res)
    assert out.success and not out.glitch and out.threshold == 1


# --- S6 critical glitch -----------------------------------------------------


def test_S6_critical_glitch_1_1_2_has_zero_hits():
    r = faces_roll(1, 1, 2)
    assert r.hits == 0
    assert r.glitch and r.critical_glitch
    assert "ones: 2 of 3 → critical glitch (0 hits)" in r.explain()


def test_S6_edge_cannot_negate_a_critical_glitch():
    with pytest.raises(RulesError, match="critical"):
        negate_glitch(faces_roll(1, 1, 2))


def test_S6_reduce_critical_to_a_plain_glitch_then_no_more_edge():
    r = reduce_critical(faces_roll(1, 1, 2))
    assert r.glitch and not r.critical_glitch
    assert r.edge_spent == 1
    with pytest.raises(RulesError, match="no further Edge"):
        negate_glitch(r)
    with pytest.raises(RulesError, match="no critical glitch"):
        reduce_critical(r)
    with pytest.raises(RulesError, match="no critical glitch"):
        reduce_critical(faces_roll(1, 1, 5))


# --- S7 Edge, rule of six ---------------------------------------------------


def test_S7_edge_before_adds_edge_dice_and_sixes_chain_6_6_3():
    # pool 2 (6, 2) + Edge 1 (4); the 6 explodes into 6, which explodes into 3.
    r = roll(2, ManualSource([6, 2, 4, 6, 3]), edge_before=1)
    assert r.faces == [6, 2, 4, 6, 3]
    assert [d.source for d in r.dice] == [Src.DIE, Src.DIE, Src.EDGE, Src.EXPLODED, Src.EXPLODED]
    assert r.parents == (None, None, None, 0, 3)
    assert r.dice[3].label == "from #1" and r.dice[4].label == "from #4"
    assert r.hits == 2
    assert r.edge_spent == 1 and r.edge_dice == 1 and r.edge_when == "before"
    assert "rule of six: 6 → 6 → 3" in r.explain()


def test_S7_edge_dice_also_explode_before_the_roll_wave_by_wave():
    # pool 6,1 + Edge 6 → wave 2: 5 (from #1), 6 (from #3) → wave 3: 2 (from #5)
    r = roll(2, ManualSource([6, 1, 6, 5, 6, 2]), edge_before=1)
    assert r.parents == (None, None, None, 0, 2, 4)
    assert r.hits == 4


def test_S7_no_edge_no_rule_of_six():
    r = faces_roll(6, 6, 6)
    assert r.exploded == () and r.hits == 3 and not r.rule_of_six


def test_S7_edge_after_the_roll_table_sixes_do_not_explode():
    first = faces_roll(6, 6, 1)
    r = edge_after(first, 2, ManualSource([6, 3, 5]))
    # table 6,6,1 stay; Edge dice 6,3; only the Edge 6 explodes into 5.
    assert r.faces == [6, 6, 1, 6, 3, 5]
    assert [d.source for d in r.dice] == [Src.DIE] * 3 + [Src.EDGE] * 2 + [Src.EXPLODED]
    assert r.parents == (None, None, None, None, None, 3)
    assert r.hits == 4
    assert r.edge_spent == 1 and r.edge_when == "after" and not r.rule_of_six
    with pytest.raises(RulesError, match="already"):
        edge_after(r, 2, ManualSource([1, 1]))


def test_S7_edge_after_can_undo_a_critical_glitch_by_adding_hits():
    r = edge_after(faces_roll(1, 1, 2), 2, ManualSource([5, 3]))
    assert r.hits == 1 and not r.critical_glitch
    assert r.ones == 2 and len(r.glitch_dice) == 5 and not r.glitch


def test_S7_edge_before_on_used_edge_rejected():
    r = roll(2, ManualSource([3, 3, 3]), edge_before=1)
    with pytest.raises(RulesError, match="already"):
        edge_after(r, 1, ManualSource([5]))


def test_S7_running_out_of_manual_faces_for_explosions_is_a_rules_error():
    with pytest.raises(RulesError, match="not enough faces"):
        roll(1, ManualSource([6, 3]), edge_before=1)


# --- S8 success test --------------------------------------------------------


def test_S8_success_and_net_hits():
    r = faces_roll(6, 5, 5, 2)
    res = success_test(r, 2)
    assert res.success and res.net_hits == 1 and res.margin == 1
    assert res.explain()[-1] == "threshold 2: 3 hits → success, 1 net hit"
    fail = success_test(r, 4, hidden=True)
    assert not fail.success and fail.net_hits == 0 and fail.margin == -1
    assert fail.hidden
    assert fail.explain()[-1] == "threshold 4 (hidden): 3 hits → failure"
    exact = success_test(r, 3)
    assert exact.success and exact.net_hits == 0


def test_S8_threshold_must_be_at_least_one():
    with pytest.raises(RulesError):
        success_test(faces_roll(5), 0)


def test_S8_result_json_keys():
    res = success_test(faces_roll(1, 1, 5, 6), 1)
    data = result_json(res)
    assert {"hits": 2, "glitch": True, "critical_glitch": False,
            "success": True, "net_hits": 1}.items() <= data.items()
    json.dumps(data)
    plain = result_json(faces_roll(5, 2))
    assert plain["hits"] == 1 and plain["glitch"] is False and "success" not in plain


# --- S9 opposed test --------------------------------------------------------


def test_S9_opposed_more_hits_wins_by_net_hits():
    res = opposed(faces_roll(6, 5, 5), faces_roll(5, 2, 3))
    assert res.winner == "a" and res.net_hits == 2 and res.winner_if_needed == "a"
    res = opposed(faces_roll(2), faces_roll(5, 6))
    assert res.winner == "b" and res.net_hits == 2


def test_S9_opposed_tie_is_stalemate_defender_wins_if_needed():
    res = opposed(faces_roll(5, 2), faces_roll(6, 1))
    assert res.winner == "tie" and res.net_hits == 0
    assert res.winner_if_needed == "b"
    data = result_json(res)
    assert data["winner"] == "tie" and data["net_hits"] == 0 and data["winner_if_needed"] == "b"
    json.dumps(data)
    assert "defender" in res.explain()[-1]


def test_S9_group_pool_largest_plus_one_per_extra_member_capped_at_5():
    assert group_pool([6]) == 6
    assert group_pool([4, 6, 3]) == 8
    assert group_pool([5] * 6) == 10
    assert group_pool([5] * 10) == 10
    with pytest.raises(RulesError):
        group_pool([])


# --- S10 extended test ------------------------------------------------------


def test_S10_extended_accumulates_hits_until_threshold():
    t = ExtendedTest(4, "1 hour")
    t = t.add(faces_roll(5, 2, 3))
    assert t.accumulated == 1 and t.intervals == 1 and not t.done
    t2 = t.add(faces_roll(6, 5, 5))
    assert t.accumulated == 1  # immutable
    assert t2.accumulated == 4 and t2.done and t2.over and t2.status == "done"
    with pytest.raises(RulesError, match="over"):
        t2.add(faces_roll(5))
    assert result_json(t2)["accumulated"] == 4


def test_S10_hurried_twos_count_as_ones_for_glitches():
    r = faces_roll(2, 2, 5, 3)
    assert not r.glitch
    t = ExtendedTest(10, "1 minute", hurried=True).add(r)
    assert t.history[-1].ones == 2 and t.glitched
    assert t.accumulated == 1
    assert "ones and twos: 2 of 4 → serious glitch (1 hit): serious trouble (S5)" in (
        t.history[-1].explain())


def test_S10_glitch_may_spoil_when_the_gm_says_so():
    t = ExtendedTest(8, "1 day").add(faces_roll(1, 1, 5, 6))
    assert t.glitched and not t.over and t.accumulated == 2
    spoiled = t.spoil()
    assert spoiled.spoiled and spoiled.ended and spoiled.failed
    assert spoiled.status == "spoiled"
    # the GM may also let it go on
    go_on = t.add(faces_roll(5, 5))
    assert go_on.accumulated == 4 and not go_on.glitched
    with pytest.raises(RulesError, match="only a glitch"):
        go_on.spoil()


def test_S10_critical_glitch_ends_the_test():
    t = ExtendedTest(8, "1 day").add(faces_roll(5, 6, 3)).add(faces_roll(1, 1, 2))
    assert t.ended and t.failed and not t.done
    assert t.accumulated == 2 and t.intervals == 2
    assert t.status == "ended by a critical glitch"
    with pytest.raises(RulesError):
        t.add(faces_roll(5))


def test_S10_hurried_critical_glitch_from_twos_ends_it():
    t = ExtendedTest(8, "1 day", hurried=True).add(faces_roll(2, 2, 3))
    assert t.ended


def test_S10_restart_from_zero():
    t = ExtendedTest(6, "1 week").add(faces_roll(5, 5, 5)).restart()
    assert t.accumulated == 0 and t.intervals == 0 and t.history == () and t.restarts == 1
    assert t.threshold == 6 and t.interval_label == "1 week"


def test_S10_gm_rolls_once_and_reuses_it():
    t = ExtendedTest(7, "1 hour").reuse(faces_roll(5, 6, 2))
    assert t.done and t.intervals == 4 and t.accumulated == 8
    with pytest.raises(RulesError, match="never finish"):
        ExtendedTest(7, "1 hour").reuse(faces_roll(2, 3))


# --- S11 teamwork -----------------------------------------------------------


def test_S11_teamwork_helpers_hits_become_leader_dice():
    pools = {"Ari": 5, "Bea": 8, "Cid": 4}
    assert leader_of(pools) == "Bea"
    assert leader_of([5, 8, 4]) == 1
    helpers = [faces_roll(5, 6, 1, 2, 3), faces_roll(5, 3, 3, 4)]
    size = teamwork(8, helpers)
    assert size == 11
    lead = roll(8, RandomSource(7), helper_dice=size - 8)
    assert len(lead.dice) == 11
    assert [d.source for d in lead.dice].count(Src.HELPER) == 3
    assert teamwork(8, [2, 1]) == 11


# --- S12 monitors, wounds, initiative, Edge ---------------------------------


def test_S12_condition_monitor_body_3_is_10():
    assert condition_monitor(3) == 10
    assert condition_monitor(4) == 10
    assert condition_monitor(5) == 11
    assert condition_monitor(1) == 9


def test_S12_wound_modifier_per_3_boxes_each_monitor():
    assert wound_modifier(0, 0) == 0
    assert wound_modifier(2, 2) == 0
    assert wound_modifier(3, 2) == -1
    assert wound_modifier(6, 5) == -3
    assert build_pool(3, 4, wound_modifier=wound_modifier(3, 3)).size == 5


def test_S12_initiative_highest_first_ties_by_edge_then_name():
    assert initiative_pool(4, 3) == 7
    assert initiative_score(4, 3, 2) == 9
    order = initiative_order([
        InitEntry("Cid", 9, edge=2),
        InitEntry("Ari", 12, edge=1, passes=2),
        InitEntry("Bea", 9, edge=4),
        InitEntry("Dan", 9, edge=2),
    ])
    assert [e.name for e in order] == ["Ari", "Bea", "Cid", "Dan"]
    assert order[0].passes == 2


def test_S12_spend_edge():
    assert spend_edge(3) == 2
    with pytest.raises(RulesError, match="not enough Edge"):
        spend_edge(0)


def test_explain_dispatches_and_rejects_other_objects():
    assert explain(build_pool(3, 4))[0] == "skill 3 + attribute 4 = 7 dice"
    assert explain(faces_roll(6, 5))[-2] == "hits: 6,5 → 2"
    with pytest.raises(RulesError):
        explain(object())
    with pytest.raises(RulesError):
        result_json(object())


def test_manual_flag_records_physical_dice():
    assert faces_roll(5).manual
    assert not roll(3, RandomSource(1)).manual


# --- properties -------------------------------------------------------------

d6 = st.integers(1, 6)


@given(st.lists(d6, min_size=1, max_size=30))
def test_S4_property_hits_count_faces_five_or_more(faces):
    assert faces_roll(*faces).hits == sum(1 for f in faces if f >= 5)


@given(st.lists(d6, min_size=1, max_size=30))
def test_S5_S6_property_glitch_iff_twice_ones_at_least_dice(faces):
    r = faces_roll(*faces)
    ones = faces.count(1)
    assert r.glitch == (2 * ones >= len(faces))
    assert r.critical_glitch == (r.glitch and r.hits == 0)


@hsettings(max_examples=200)
@given(st.integers(1, 20), st.integers(1, 6), st.integers(0, 2**32 - 1), st.booleans())
def test_S7_property_exploded_dice_only_follow_sixes(pool, edge, seed, rerolls):
    r = roll(pool, RandomSource(seed), edge_before=edge,
             settings=Settings(sr_glitch_rerolls=rerolls))
    assert len(r.dice) - len(r.exploded) == pool + edge
    for i, d in enumerate(r.dice):
        children = [j for j, p in enumerate(r.parents) if p == i]
        assert len(children) == (1 if d.face == 6 else 0)
        if r.parents[i] is None:
            assert d.source != Src.EXPLODED
        else:
            assert d.source == Src.EXPLODED and r.dice[r.parents[i]].face == 6
            assert r.parents[i] < i
    counted = r.dice if rerolls else [d for d in r.dice if d.source != Src.EXPLODED]
    ones = sum(1 for d in counted if d.face == 1)
    assert r.glitch == (2 * ones >= len(counted))
    assert r.hits == sum(1 for d in r.dice if d.face >= 5)


@hsettings(max_examples=100)
@given(st.lists(d6, min_size=1, max_size=12), st.integers(1, 6), st.integers(0, 2**32 - 1))
def test_S7_property_edge_after_table_sixes_never_explode(faces, edge, seed):
    r = edge_after(faces_roll(*faces), edge, RandomSource(seed))
    assert r.faces[: len(faces)] == faces
    assert all(p is None or p >= len(faces) for p in r.parents)
    for i, d in enumerate(r.dice[len(faces):], start=len(faces)):
        children = [j for j, p in enumerate(r.parents) if p == i]
        assert len(children) == (1 if d.face == 6 else 0)


# --- S7 Edge on every test, S10 what is in force, S11 each helper's own pool ---


def test_S7_edge_after_on_either_side_of_an_opposed_test():
    res = opposed(faces_roll(5, 3, 2), faces_roll(6, 5, 1))
    assert res.winner == "b"
    # A spends Edge 2 after the roll: 6,5 → 6 explodes to 5: three more hits
    a2 = edge_after(res.a, 2, ManualSource([6, 5, 5]))
    res2 = res.with_roll("a", a2)
    assert (res2.a_hits, res2.b_hits, res2.winner, res2.net_hits) == (4, 2, "a", 2)
    # the defender may answer with its own Edge: 1 more die, a 5
    res3 = res2.with_roll("b", edge_after(res2.b, 1, ManualSource([5])))
    assert (res3.a_hits, res3.b_hits, res3.winner) == (4, 3, "a")
    with pytest.raises(RulesError, match="side must be"):
        res.with_roll("c", a2)


def test_S7_one_edge_point_per_test_for_dice_glitch_points_apart():
    before = roll(2, ManualSource([1, 1, 1]), edge_before=1)  # 1,1 + Edge die 1
    with pytest.raises(RulesError, match="already added dice"):
        edge_after(before, 1, ManualSource([5]))
    assert before.critical_glitch
    reduced = reduce_critical(before)
    assert reduced.glitch and not reduced.critical_glitch and reduced.edge_spent == 2
    with pytest.raises(RulesError, match="no further Edge"):
        negate_glitch(reduced)


def test_S7_long_shot_dice_follow_the_rule_of_six_and_take_no_more_edge_dice():
    shot = roll_long_shot(3, ManualSource([6, 1, 1, 2]))
    assert shot.faces == [6, 1, 1, 2] and shot.hits == 1 and shot.rule_of_six
    with pytest.raises(RulesError, match="already added dice"):
        edge_after(shot, 3, ManualSource([5, 5, 5]))
    # negating its glitch is a separate point: 1,1 of 4 dice is half
    assert shot.glitch and not negate_glitch(shot).glitch


def test_S10_threshold_and_hurry_changed_between_intervals_apply_to_the_next_roll():
    t = ExtendedTest(4).add(faces_roll(5, 3, 3, 4, 4, 2, 3, 4, 3, 4))  # 1 hit, no glitch
    assert (t.accumulated, t.threshold) == (1, 4)
    t = t.with_threshold(6).with_hurried(True)
    # 5,2,2,2,1,3,3,4,4,2: hurried, five 1s-or-2s of ten is a glitch
    t = t.add(faces_roll(5, 2, 2, 2, 1, 3, 3, 4, 4, 2))
    assert (t.accumulated, t.threshold, t.done) == (2, 6, False)
    assert t.glitched and t.history[-1].hurried and not t.history[0].hurried
    assert t.interval_thresholds == (4, 6)
    assert t.to_json()["interval_thresholds"] == [4, 6]


def test_S10_progress_is_judged_against_the_threshold_in_force_now():
    t = ExtendedTest(8).add(faces_roll(6, 5, 5, 1))
    assert (t.accumulated, t.done) == (3, False)
    t = t.add(faces_roll(5, 2), threshold=4)
    assert (t.accumulated, t.threshold, t.done, t.status) == (4, 4, True, "done")
    with pytest.raises(RulesError, match="already over"):
        t.with_threshold(10)
    # lowering the threshold to the progress so far finishes the test at once
    assert ExtendedTest(8).add(faces_roll(6, 5, 5, 1)).with_threshold(3).done


def test_S10_edge_on_an_interval_and_a_critical_glitch_reduced_keeps_it_going():
    t = ExtendedTest(5).add(faces_roll(5, 3))
    crit = faces_roll(1, 1, 3)
    t2 = t.add(crit)
    assert t2.ended and t2.failed and t2.accumulated == 1
    t3 = t2.amend_last(reduce_critical(crit))
    assert not t3.ended and t3.accumulated == 1 and not t3.over
    t4 = t3.add(faces_roll(2, 3, 4))
    t5 = t4.amend_last(edge_after(t4.history[-1], 3, ManualSource([6, 5, 5, 5])))
    assert (t5.accumulated, t5.done, t5.intervals) == (5, True, 3)
    with pytest.raises(RulesError, match="no interval"):
        ExtendedTest(5).amend_last(crit)


def test_S11_each_helper_rolls_their_own_pool_for_the_same_test():
    from polku.rules.shadowrun import helper_pool

    # Body 7 + Strength 7 to ram a door: the helper's own Body 3 + Strength 4
    assert helper_pool(None, 3, 4, attribute_name="body", second_attribute_name="strength").size == 7
    # Pistols 2 + Agility 5 with a wound modifier of −1
    assert helper_pool(2, 5, wound_modifier=-1).size == 6
    # no Pistols: Agility 5 alone −1 (S2); no defaulting: cannot help
    assert helper_pool(None, 5).size == 4 and helper_pool(None, 5).defaulted
    assert helper_pool(None, 5, defaulting_allowed=False).size == 0
    # the GM's override
    plan = helper_pool(2, 5, override=9)
    assert plan.size == 9 and "GM" in plan.lines[0]


def test_S11_teamwork_cap_setting():
    from polku.rules.shadowrun import teamwork_bonus

    helpers = [faces_roll(5, 6, 5, 1), faces_roll(6, 6, 2)]  # 3 + 2 hits
    assert teamwork_bonus(helpers) == 5
    assert teamwork(4, helpers) == 9
    cap = Settings(sr_teamwork_cap="skill")
    assert teamwork_bonus(helpers, leader_skill=3, settings=cap) == 3
    assert teamwork(4, helpers, 3, cap) == 7
    assert teamwork_bonus(helpers, leader_skill=None, settings=cap) == 0


def test_S1_linked_attribute_table():
    from polku.rules.shadowrun import linked_attribute

    assert linked_attribute("Pistols", "body") == "agility"
    assert linked_attribute("pilot ground craft", "body") == "reaction"
    assert linked_attribute("Basket weaving", "logic") == "logic"
    # magic is not among the sheet's attributes: the current pick stays
    assert linked_attribute("Spellcasting", "willpower") == "willpower"


@given(st.lists(st.integers(1, 6), min_size=1, max_size=8), st.integers(1, 12), st.booleans())
def test_S10_an_interval_adds_its_hits_unless_it_critically_glitches(fs, thr, hurried):
    t = ExtendedTest(thr, hurried=hurried)
    r = faces_roll(*fs)
    t2 = t.add(r)
    judged = t2.history[-1]
    assert judged.hurried == hurried
    if judged.critical_glitch:
        assert t2.ended and t2.accumulated == 0
    else:
        assert t2.accumulated == count_hits(fs) and t2.done == (count_hits(fs) >= thr)


def test_S5_a_glitch_shows_its_hits_so_the_gm_can_size_it():
    """S5 (the seed: 6 hits and a glitch is a very small setback, 1 hit and a glitch serious trouble):
    the glitch is named by its size, with its hits beside it, in the explanation (and the log line
    and CLI, tested with them)."""
    minor = faces_roll(1, 1, 1, 1, 1, 1, 5, 5, 5, 6, 6, 6)
    assert (minor.glitch, minor.hits) == (True, 6)
    assert minor.explain()[-1] == "ones: 6 of 12 → minor glitch (6 hits): a very small setback (S5)"
    serious = faces_roll(1, 1, 5)
    assert serious.explain()[-1] == "ones: 2 of 3 → serious glitch (1 hit): serious trouble (S5)"
    # negated with Edge: no guidance needed, still the size and the hits
    assert negate_glitch(serious).explain()[-2] == "ones: 2 of 3 → serious glitch (1 hit)"


@pytest.mark.parametrize("hits, critical, severity, words", [
    (0, True, "critical", "critical glitch (0 hits)"),
    (0, False, "serious", "serious glitch (0 hits)"),  # a critical glitch Edge reduced (S6)
    (1, False, "serious", "serious glitch (1 hit)"),
    (2, False, "", "glitch (2 hits)"),
    (3, False, "", "glitch (3 hits)"),
    (4, False, "minor", "minor glitch (4 hits)"),
    (6, False, "minor", "minor glitch (6 hits)"),
])
def test_S5_the_size_of_a_glitch_from_its_hits(hits, critical, severity, words):
    from polku.rules.shadowrun import glitch_severity, glitch_words

    assert glitch_severity(hits, critical) == severity
    assert glitch_words(hits, critical) == words
    assert glitch_words(hits, critical, loud=True) == words.replace(words.split(" (")[0], words.split(" (")[0].upper())
