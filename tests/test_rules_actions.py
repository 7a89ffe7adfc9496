"""What may be done to a roll now (S3–S7, S10, S11, H7, R5, R11), asked of rules/actions.py."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from polku.rules.actions import KINDS, SR_KINDS, allowed, roll_actions
from polku.rules.dice import ManualSource, RulesError, parse_faces
from polku.rules.rajapolku import SpiritFight, resolve
from polku.rules.shadowrun import (
    ExtendedTest,
    buy_hits,
    edge_after,
    negate_glitch,
    reduce_critical,
    roll,
    roll_long_shot,
)
from polku.rules.system import Settings


def sr(*faces: int, **kw):
    return roll(len(faces), ManualSource(faces), **kw)


def why(actions, name):
    return next(a for a in actions if a.name == name).reason


@pytest.mark.parametrize("kind", [k for k in SR_KINDS if k != "sr-extended"])
def test_S7_edge_after_and_glitch_points_on_every_test(kind):
    glitch = sr(1, 1, 5, 3)
    assert allowed(roll_actions(kind, roll=glitch, edge_left=2, edge_rating=3)) == ("edge_after", "negate_glitch")
    crit = sr(1, 1, 2)
    assert allowed(roll_actions(kind, roll=crit, edge_left=1, edge_rating=3)) == ("edge_after", "reduce_critical")


def test_S7_edge_after_on_an_extended_interval_and_next_interval():
    r = sr(5, 1, 1, 3)
    test = ExtendedTest(6).add(r)
    acts = roll_actions("sr-extended", roll=r, edge_left=1, edge_rating=2, extended=test)
    assert allowed(acts) == ("edge_after", "negate_glitch", "next_interval", "spoil")
    done = ExtendedTest(1).add(sr(5, 6))
    acts = roll_actions("sr-extended", roll=done.history[-1], edge_left=1, edge_rating=2, extended=done)
    assert "next_interval" not in allowed(acts)
    assert "over: done" in why(acts, "next_interval")
    spoiled = test.spoil()
    acts = roll_actions("sr-extended", roll=r, edge_left=1, edge_rating=2, extended=spoiled)
    assert allowed(acts) == ()


def test_S7_one_edge_point_per_test_for_dice():
    before = roll(3, ManualSource([5, 3, 2, 4]), edge_before=1)
    acts = roll_actions("sr-success", roll=before, edge_left=3, edge_rating=1)
    assert "edge_after" not in allowed(acts)
    assert "one Edge point per test" in why(acts, "edge_after")
    after = edge_after(sr(5, 3), 2, ManualSource([1, 1]))
    assert allowed(roll_actions("sr-opposed", roll=after, edge_left=3, edge_rating=2)) == ("negate_glitch",)


def test_S3_S7_long_shot_takes_glitch_points_but_no_more_dice():
    shot = roll_long_shot(2, ManualSource([1, 5]))
    acts = roll_actions("sr-success", roll=shot, edge_left=1, edge_rating=2)
    assert allowed(acts) == ("negate_glitch",)
    assert "Long Shot" in why(acts, "edge_after")


def test_S3_S4_S7_before_the_roll():
    assert allowed(roll_actions("sr-success", pool=0, edge_left=1, edge_rating=3)) == ("long_shot",)
    assert allowed(roll_actions("sr-group", pool=8, edge_left=1, edge_rating=3)) == ("edge_before", "buy_hits")
    assert "2 hits" in why(roll_actions("sr-success", pool=8), "buy_hits")
    assert allowed(roll_actions("sr-success", pool=8, edge_left=0, edge_rating=3)) == ("buy_hits",)
    assert allowed(roll_actions("sr-opposed", pool=8, has_character=False)) == ("buy_hits",)


def test_S4_S5_S6_nothing_after_bought_hits_or_an_empty_pool_and_spent_points():
    assert allowed(roll_actions("sr-success", roll=buy_hits(8), edge_left=3, edge_rating=3)) == ()
    assert allowed(roll_actions("sr-success", roll=sr(), edge_left=3, edge_rating=3)) == ()
    negated = negate_glitch(sr(1, 1, 5, 3))
    acts = roll_actions("sr-success", roll=negated, edge_left=3, edge_rating=3)
    assert allowed(acts) == ("edge_after",)
    assert "already negated" in why(acts, "negate_glitch")
    reduced = reduce_critical(sr(1, 1, 2))
    acts = roll_actions("sr-success", roll=reduced, edge_left=3, edge_rating=3)
    assert allowed(acts) == ("edge_after",)
    assert "no further Edge" in why(acts, "negate_glitch")


def test_S7_S12_no_edge_left_or_no_character():
    acts = roll_actions("sr-success", roll=sr(1, 1, 5, 3), edge_left=0, edge_rating=3)
    assert allowed(acts) == () and "no Edge left" in why(acts, "edge_after")
    acts = roll_actions("sr-success", roll=sr(1, 1, 5, 3), has_character=False)
    assert allowed(acts) == () and "needs a character" in why(acts, "negate_glitch")


def test_S11_helper_roll_is_fixed_once_the_leader_has_rolled():
    h = sr(5, 1, 1)
    assert allowed(roll_actions("sr-teamwork-helper", roll=h, edge_left=1, edge_rating=2)) == (
        "edge_after", "negate_glitch")
    acts = roll_actions("sr-teamwork-helper", roll=h, edge_left=1, edge_rating=2, leader_rolled=True)
    assert allowed(acts) == () and "leader has rolled" in why(acts, "edge_after")


def test_H7_edge_reroll_on_every_harhapolku_roll():
    for kind in ("harha", "harha-difficult"):
        assert allowed(roll_actions(kind, edges_unused=1)) == ("edge_reroll",)
        assert allowed(roll_actions(kind, edges_unused=0)) == ()
    assert allowed(roll_actions("harha-narration", edges_unused=1, dice_in_hand=2)) == ("edge_reroll",)
    assert allowed(roll_actions("harha-narration", edges_unused=1, dice_in_hand=0)) == ()


def test_R5_only_a_full_tie_with_reroll_is_rerolled():
    tie = resolve(parse_faces("7,5", 10), parse_faces("7,5", 10))
    assert allowed(roll_actions("raja", raja=tie)) == ("reroll_tie",)
    assert allowed(roll_actions("raja", raja=tie, settings=Settings(raja_full_tie="defender"))) == ()
    win = resolve(parse_faces("8", 10), parse_faces("7", 10))
    assert allowed(roll_actions("raja", raja=win)) == ()


def test_R11_next_exchange_until_a_side_runs_dry():
    assert allowed(roll_actions("raja-spirit", fight=SpiritFight(3, 1))) == ("next_exchange", "end_fight")
    acts = roll_actions("raja-spirit", fight=SpiritFight(3, 0))
    assert allowed(acts) == () and "no charges left" in why(acts, "next_exchange")
    assert allowed(roll_actions("raja-spirit", fight=SpiritFight(3, 2).end())) == ()


def test_unknown_kind_is_one_line():
    with pytest.raises(RulesError, match="unknown kind of roll 'poker'"):
        roll_actions("poker")
    with pytest.raises(RulesError, match="give the roll"):
        roll_actions("sr-success")


@given(st.lists(st.integers(1, 6), max_size=8), st.sampled_from(SR_KINDS[:3]), st.integers(0, 3))
def test_every_allowed_sr_action_is_accepted_by_the_rules(fs, kind, edge_left):
    r = sr(*fs)
    for name in allowed(roll_actions(kind, roll=r, edge_left=edge_left, edge_rating=2)):
        assert edge_left >= 1
        fn = {"edge_after": lambda x: edge_after(x, 2, ManualSource([3] * 2)),
              "negate_glitch": negate_glitch, "reduce_critical": reduce_critical}[name]
        fn(r)  # never raises: what is offered can be done
    if edge_left and fs:
        # and what is refused is refused by the rules too (glitch points)
        names = allowed(roll_actions(kind, roll=r, edge_left=edge_left, edge_rating=2))
        if "negate_glitch" not in names:
            with pytest.raises(RulesError):
                negate_glitch(r)
        if "reduce_critical" not in names:
            with pytest.raises(RulesError):
                reduce_critical(r)


def test_kinds_are_listed():
    assert len(KINDS) == len(set(KINDS)) == 13
