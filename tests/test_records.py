"""The declared shapes of a character (session/records.py) and the loader's checks agree: every key a
sheet's type says is there is required at load (its absence is one line naming it), and an optional key
of the wrong kind is refused too, so code reading a typed field never meets another shape."""

from __future__ import annotations

import types
import typing
from pathlib import Path
from typing import Any

import pytest

from polku.rules.system import System
from polku.session import model, store
from polku.session.records import HarhaCharacter, RajaCharacter, RollTable, SRCharacter, sr

REPO = Path(__file__).resolve().parents[1]

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


@pytest.mark.parametrize(("ap", "words"), [
    (True, "weapons.0.ap: expected a number or '-half'"),
    ("-2", "weapons.0.ap: only '-half' is stored as text"),
])
def test_a_weapon_s_armour_penetration_of_the_wrong_kind_is_refused_in_one_line(ap, words):
    state = state_with(System.SHADOWRUN)
    nyx = sr(state["characters"]["nyx"])
    nyx["weapons"] = [{"name": "Pistol", "dv": 5, "damage": "physical", "ap": ap}]
    with pytest.raises(model.StateError) as e:
        model.validate_state(state)
    assert words in str(e.value) and "\n" not in str(e.value)


def _fits(value: object, hint: object, where: str) -> list[str]:
    """Where ``value`` is not of the declared ``hint`` (a TypedDict, list[...], dict[...], a union, a plain type)."""
    if typing.is_typeddict(hint):
        if not isinstance(value, dict):
            return [f"{where}: not a table"]
        td: Any = hint  # a TypedDict class (is_typeddict does not narrow): its __name__ and __required_keys__
        hints = typing.get_type_hints(td)
        out = [f"{where}.{k}: not declared in {td.__name__}" for k in value if k not in hints]
        missing = [k for k in td.__required_keys__ if k not in value]
        out += [f"{where}.{k}: required by {td.__name__}, missing" for k in missing]
        for k, v in value.items():
            if k in hints:
                out += _fits(v, hints[k], f"{where}.{k}")
        return out
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        tries = [_fits(value, a, where) for a in args]
        return [] if any(not t for t in tries) else tries[0]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: not a list"]
        return [p for i, v in enumerate(value) for p in _fits(v, args[0], f"{where}[{i}]")]
    if origin is dict:
        return [] if isinstance(value, dict) else [f"{where}: not a table"]
    if hint is int:
        return [] if isinstance(value, int) and not isinstance(value, bool) else [f"{where}: {value!r} is not a whole number"]
    return [] if isinstance(value, hint) else [f"{where}: {value!r} is not {hint}"]  # type: ignore[arg-type]


@pytest.mark.parametrize("demo", sorted(p.name for p in (REPO / "sessions").glob("demo-*.toml")))
def test_every_logged_roll_and_sheet_of_the_demos_has_its_declared_shape(demo):
    """Each key of the demos' roll tables, outcomes, sides, dice and sheets is declared, with the kind
    of value Polku writes there: code reading the typed fields reads what is there."""
    doc = store.load(REPO / "sessions" / demo).doc
    state = model.validate_state(doc["state"])
    sheet = SHEETS[model.system_of(state)]
    problems = [p for cid, ch in state["characters"].items() for p in _fits(ch, sheet, f"characters.{cid}")]
    tests = set()
    for ev in doc["event"]:
        if "roll" in ev:
            tests.add(ev["roll"].get("test"))
            problems += _fits(ev["roll"], RollTable, f"event {ev['seq']}.roll")
    assert problems == []
    assert tests  # the demo has rolls to check
