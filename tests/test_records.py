"""The declared shapes of a character (session/records.py) and the loader's checks agree: every key a
sheet's type says is there is required at load (its absence is one line naming it), and an optional key
of the wrong kind is refused too, so code reading a typed field never meets another shape."""

from __future__ import annotations

import pytest

from polku.rules.system import System
from polku.session import model
from polku.session.records import HarhaCharacter, RajaCharacter, SRCharacter

SHEETS = {System.RAJAPOLKU: RajaCharacter, System.HARHAPOLKU: HarhaCharacter, System.SHADOWRUN: SRCharacter}


def state_with(system: System) -> model.State:
    state = model.new_state(system, "Test", created="2026-12-02")
    state["characters"]["nyx"] = model.new_character(system, "Nyx", cid="nyx", track=state["wound_track"])
    return state


@pytest.mark.parametrize("system", list(SHEETS))
def test_a_new_sheet_has_every_key_its_type_requires_and_passes_the_loader(system):
    state = state_with(system)
    assert SHEETS[system].__required_keys__ <= set(state["characters"]["nyx"])
    model.validate_state(state)


@pytest.mark.parametrize("system", list(SHEETS))
def test_every_required_key_of_a_sheet_is_required_at_load(system):
    for key in sorted(SHEETS[system].__required_keys__):
        state = state_with(system)
        del state["characters"]["nyx"][key]  # type: ignore[misc]
        with pytest.raises(model.StateError) as e:
            model.validate_state(state)
        assert f"characters.nyx.{key}" in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize(("key", "value", "words"), [
    ("secret", "yes", "characters.nyx.secret: expected true or false"),
    ("template", 3, "characters.nyx.template: expected text"),
    ("group", ["g"], "characters.nyx.group: expected text"),
])
@pytest.mark.parametrize("system", list(SHEETS))
def test_an_optional_key_of_the_wrong_kind_is_refused_in_one_line(system, key, value, words):
    state = state_with(system)
    state["characters"]["nyx"][key] = value  # type: ignore[literal-required]
    with pytest.raises(model.StateError) as e:
        model.validate_state(state)
    assert words in str(e.value)
