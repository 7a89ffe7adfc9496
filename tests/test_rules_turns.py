"""S12 turn order with passes, tie-breaks and wounds; effects counting down (rules/turns.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from polku.rules.dice import RulesError
from polku.rules.turns import (
    TurnEntry,
    check_effect,
    count_down,
    duration_text,
    next_challenge,
    next_to_act,
    pass_after,
    turn_order,
    wounded_score,
)


def names(order):
    return [e.cid for e in order]


def test_S12_highest_score_acts_first():
    order = turn_order([TurnEntry("a", 9), TurnEntry("b", 12), TurnEntry("c", 10)])
    assert names(order) == ["b", "c", "a"]


def test_S12_ties_by_edge_then_reaction_then_intuition():
    order = turn_order([
        TurnEntry("low-edge", 10, edge=1, reaction=6),
        TurnEntry("high-edge", 10, edge=3, reaction=2),
        TurnEntry("quick", 10, edge=1, reaction=7, intuition=1),
        TurnEntry("wary", 10, edge=1, reaction=7, intuition=4),
    ])
    assert names(order) == ["high-edge", "wary", "quick", "low-edge"]


def test_S12_a_wound_lowers_the_score_and_the_place():
    # 11 rolled, 3 physical boxes filled: −1, so 10 and behind the unwounded 10 with more Edge.
    hurt = TurnEntry("hurt", 11, edge=1, wound=-1)
    fresh = TurnEntry("fresh", 10, edge=2)
    assert hurt.current == 10
    assert names(turn_order([hurt, fresh])) == ["fresh", "hurt"]
    assert wounded_score(2, -4) == 0
    with pytest.raises(RulesError):
        wounded_score(5, 1)


def test_passes_pass_2_only_for_two_or_more():
    order = turn_order([TurnEntry("one", 12, passes=1), TurnEntry("two", 8, passes=2), TurnEntry("three", 5, 3)])
    assert next_to_act(order, 1, []) == "one"
    assert next_to_act(order, 1, ["one"]) == "two"
    assert next_to_act(order, 2, []) == "two"
    assert next_to_act(order, 2, ["two"]) == "three"
    assert next_to_act(order, 3, []) == "three"
    assert pass_after(order, 1) == 2 and pass_after(order, 2) == 3 and pass_after(order, 3) is None


def test_queue_next_challenge_after_the_active_one_then_from_the_top():
    assert next_challenge(["resolved", "active", "waiting", "waiting"]) == 2
    assert next_challenge(["waiting", "active", "resolved"]) == 0
    assert next_challenge(["waiting", "waiting"]) == 0
    assert next_challenge(["resolved", "active"]) is None


def test_effects_count_their_own_unit_and_expire_at_zero():
    assert count_down("pass", 2, "pass") == 1
    assert count_down("pass", 1, "pass") is None
    assert count_down("pass", 2, "turn") == 2
    assert count_down("scene", 1, "scene") is None
    assert count_down("removed", 0, "session") == 0
    assert duration_text("turn", 1) == "1 combat turn left" and duration_text("removed", 0) == "until removed"


@pytest.mark.parametrize("args, words", [
    (("", 0, "pass", 1), "needs a name"),
    (("Smoke", -21, "pass", 1), "dice modifier"),
    (("Smoke", -2, "round", 1), "not 'round'"),
    (("Smoke", -2, "pass", 0), "1 to 99 passes"),
])
def test_bad_effects_are_refused_in_one_line(args, words):
    with pytest.raises(RulesError, match=words):
        check_effect(*args)


def test_an_effect_until_removed_has_no_count():
    assert check_effect("  Blessed ", 1, "removed", 7) == ("Blessed", 1, "removed", 0)


entries = st.lists(st.builds(TurnEntry, st.text("abcdef", min_size=1, max_size=3), st.integers(0, 30),
                             st.integers(1, 4), st.integers(0, 6), st.integers(1, 9), st.integers(1, 9),
                             st.integers(-6, 0)), max_size=8, unique_by=lambda e: e.cid)


@given(entries)
def test_walking_a_turn_gives_each_fighter_one_action_per_pass(es):
    order = turn_order(es)
    seen, pass_no = [], 1
    while es:
        done: list[str] = []
        while (cid := next_to_act(order, pass_no, done)) is not None:
            done.append(cid)
            seen.append((pass_no, cid))
        nxt = pass_after(order, pass_no)
        if nxt is None:
            break
        pass_no = nxt
    assert sorted(seen) == sorted((p, e.cid) for e in es for p in range(1, e.passes + 1))
    # within a pass, never a lower current score before a higher one
    for p in range(1, 5):
        scores = [next(e for e in es if e.cid == c).current for q, c in seen if q == p]
        assert scores == sorted(scores, reverse=True)
