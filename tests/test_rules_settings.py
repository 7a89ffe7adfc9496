"""The [choice] settings of docs/rules.md as typed on a command line (rules/system.py)."""

from __future__ import annotations

from dataclasses import fields

import pytest

from polku.rules.dice import RulesError
from polku.rules.system import CHOICES, Settings, campaign_choices, choices_for, parse_setting


def test_every_choice_of_rules_md_is_a_setting_with_its_default():
    keys = {c.key: c.default for c in CHOICES}
    assert keys["raja.degrees"] == "all" and keys["sr.teamwork_cap"] == "none"
    assert Settings().raja_degrees == "all" and Settings().sr_teamwork_cap == "none"
    # the two S12 damage readings where printings of the 4th-edition core book differ follow docs/rules.md's
    assert [c.key for c in choices_for("shadowrun")] == ["sr.glitch_rerolls", "sr.teamwork_cap",
                                                         "sr.stun_conversion", "sr.stun_overflow", "sr.initiative"]
    assert Settings().sr_stun_conversion == "below" and Settings().sr_stun_overflow == "box"
    assert keys["sr.initiative"] == "reroll"
    # shared by the three systems: how a seat's own roll reaches the log (after the system's own settings)
    assert keys["seats.own_rolls"] == "at_once"
    for system in ("rajapolku", "harhapolku", "shadowrun"):
        assert [c.key for c in campaign_choices(system)][-1] == "seats.own_rolls"
        assert "seats.own_rolls" not in [c.key for c in choices_for(system)]


def test_every_setting_field_can_be_set_by_its_dotted_key():
    """A field of Settings without a choice could never be changed by a GM (and a
    choice without a field would fail when set)."""
    assert {f.name for f in fields(Settings)} == {c.attr for c in CHOICES}


@pytest.mark.parametrize("text, key, value", [
    ("raja.degrees=beyond", "raja.degrees", "beyond"),
    ("raja.exhausted=false", "raja.exhausted", False),
    ("RAJA.FULL_TIE = Defender", "raja.full_tie", "defender"),
    ("harha.variant=sum", "harha.variant", "sum"),
    ("harha.classic_extra=no", "harha.classic_extra", False),
    ("sr.glitch_rerolls=0", "sr.glitch_rerolls", False),
    ("sr.teamwork_cap=skill", "sr.teamwork_cap", "skill"),
    ("raja.story_points=4", "raja.story_points", 4),
    ("sr.stun_conversion=not_above", "sr.stun_conversion", "not_above"),
    ("sr.stun_overflow=half", "sr.stun_overflow", "half"),
    ("seats.own_rolls=approve", "seats.own_rolls", "approve"),
])
def test_parse_setting(text, key, value):
    assert parse_setting(text) == (key, value)
    assert Settings().with_value(key, value).to_dotted()[key] == value


def test_parse_setting_errors_list_what_is_valid():
    with pytest.raises(RulesError) as exc:
        parse_setting("raja.degree=all")
    msg = str(exc.value)
    assert msg.startswith("unknown setting 'raja.degree' (valid settings: raja.exhausted,")
    assert "sr.teamwork_cap" in msg and "\n" not in msg
    with pytest.raises(RulesError, match=r"'raja.degrees' must be one of all, beyond, not 'most'"):
        parse_setting("raja.degrees=most")
    with pytest.raises(RulesError, match="must be one of true, false, not 'maybe'"):
        parse_setting("raja.exhausted=maybe")
    with pytest.raises(RulesError, match="between 0 and 20"):
        parse_setting("raja.story_points=99")
    with pytest.raises(RulesError, match="a whole number 0–20, not '٣'"):
        parse_setting("raja.story_points=٣")
    with pytest.raises(RulesError, match="is not KEY=VALUE"):
        parse_setting("raja.degrees")


@pytest.mark.parametrize(("key", "value", "words"), [
    ("raja.full_tie", "sometimes", "must be one of reroll, defender, not 'sometimes'"),
    ("raja.exhausted", "yes", "must be true or false, not 'yes'"),
    ("sr.glitch_rerolls", 1, "must be true or false, not 1"),
])
def test_a_setting_read_from_a_file_outside_its_choices_is_refused_naming_them(key, value, words):
    """A hand-edited file's ``[state.settings]`` is checked value by value (``Settings.from_dotted``), not only
    what a command line types (``parse_setting``)."""
    with pytest.raises(RulesError) as e:
        Settings.from_dotted({key: value})
    assert words in str(e.value)
    with pytest.raises(RulesError):
        Settings().with_value(key, value)
