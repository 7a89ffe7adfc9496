"""A seat reads the players' file's offers and own rolls as JSON of any shape (raw edge, typed from object).

Whatever a hostile or broken file holds, a seat either gets a well-formed Offer / OwnRoll (tables where
tables belong) or one of the errors the seat app leaves the entry out for (KeyError, TypeError,
ValueError; tui/seat.py) — never an AttributeError later, never a traceback.
"""

from __future__ import annotations

import json

from hypothesis import example, given, settings
from hypothesis import strategies as st

from polku.session.players import seat_rolls, seats
from polku.session.players.players_file import PLAYERS_FORMAT, PLAYERS_VERSION, parse_players

SEAT_ERRORS = (KeyError, TypeError, ValueError)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)
fields = st.sampled_from(["seq", "cid", "test", "pool", "threshold", "hidden", "challenge", "text", "opposition",
                          "key", "label", "spec", "allowed", "reason", "edge", "words", "why"])
raw_tables = st.dictionaries(fields, json_values, max_size=10)


@settings(max_examples=300, deadline=None)
@example({"seq": float("inf")})  # int(inf) raised OverflowError, which no reader caught
@example({"seq": float("nan")})
@given(raw_tables)
def test_an_offer_read_back_is_well_formed_or_refused(d):
    try:
        offer = seats.Offer.from_public(d)
    except SEAT_ERRORS:
        return
    assert isinstance(offer.seq, int) and isinstance(offer.pool, dict) and isinstance(offer.opposition, dict)
    assert offer.threshold is None or isinstance(offer.threshold, int)
    seats.sr_pool_of(offer)  # what the seat does with it next: no AttributeError on a pool of another kind


@settings(max_examples=300, deadline=None)
@given(raw_tables)
def test_an_own_roll_read_back_is_well_formed_or_refused(d):
    try:
        own = seat_rolls.OwnRoll.from_public(d)
    except SEAT_ERRORS:
        return
    assert isinstance(own.spec, dict)
    own.told()
    own.offer("kaneda")


def test_a_pool_that_is_no_table_is_refused_not_kept():
    good = {"seq": 3, "cid": "kaneda", "test": "sr-success", "pool": {"count": 4}}
    assert seats.Offer.from_public(good).pool == {"count": 4}
    try:
        seats.Offer.from_public({**good, "pool": [4]})
    except TypeError as e:
        assert "not a table" in str(e)
    else:
        raise AssertionError("a pool that is a list was kept")


def test_offers_and_own_rolls_of_another_shape_are_left_out_of_the_view():
    head = {"format": PLAYERS_FORMAT, "version": PLAYERS_VERSION, "events": 0,
            "state": {"characters": {}},
            "offers": {"kaneda": [{"seq": 1}, 7, "x"], "nyx": 5},
            "own": {"kaneda": "roll", "nyx": [{"test": "sr-success"}, None]}}
    _tracker, offers, _known = parse_players(json.dumps(head).encode() + b"\n")
    assert offers == {"kaneda": [{"seq": 1}]}
