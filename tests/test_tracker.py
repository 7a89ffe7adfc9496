"""The tracker: undo/redo of every command, the resets of docs/rules.md, rolls with
literal faces (the EX of docs/rules.md through the tracker), and refused commands
that change nothing."""

# mypy: disable-error-code="no-redef"
# (each command's builder is a `_b` registered by @command under its own name; the name is reused on purpose)

from __future__ import annotations

import copy
import inspect
from typing import Any, Callable

import pytest

from polku.session import demo, model
from polku.session.rolls import HarhaSide, RajaSide, Rolls, SRSide
from polku.session.table.combat import Combat
from polku.session.tracker import Tracker, TrackerError

Builder = Callable[[], tuple[Tracker, Callable[[Tracker], Any]]]
COMMANDS: dict[str, Builder] = {}


def command(name: str) -> Callable[[Builder], Builder]:
    """Register a builder: ``name`` is ``<Tracker method>`` or ``<method>:<variant>``."""

    def deco(fn: Builder) -> Builder:
        assert name not in COMMANDS, name
        COMMANDS[name] = fn
        return fn

    return deco


def raja() -> Tracker:
    return demo.demo_rajapolku()


def harha() -> Tracker:
    return demo.demo_harhapolku()


def shadowrun() -> Tracker:
    return demo.demo_varjojuoksu()


def kaneda(**kw: Any) -> SRSide:
    return SRSide("Kaneda", ["kaneda"], **kw)


# ---------------------------------------------------------------------------
# Builders: a tracker in a fitting state and the command to run on it.
# Rajapolku demo: c3 "Spirit combat with the Nurse" and c4 "Find the poison
# ledger" are waiting; Igor is Wounded with 4 charges; Alyosha has 2 story points.

@command("add_character")
def _b():
    return raja(), lambda t: t.add_character("Vera", player="Pia", backgrounds=["Nurse"])


@command("add_character:harhapolku")
def _b():
    return harha(), lambda t: t.add_character("Aili", edges=[{"name": "Sharp ears", "used": False}])


@command("update_character")
def _b():
    return raja(), lambda t: t.update_character("alyosha", "backgrounds", ["Militia", "Sniper"])


@command("remove_character")
def _b():
    return raja(), lambda t: t.remove_character("the-pickpocket")


@command("remove_character:in_initiative")
def _b():
    t = shadowrun()
    assert any(e["id"] == "ganger" for e in t.state["initiative"])
    return t, lambda t: t.remove_character("ganger")


@command("set_health")
def _b():
    return raja(), lambda t: t.set_health("alyosha", "bruised ribs")


@command("move_wound")
def _b():
    return raja(), lambda t: t.move_wound("alyosha", 2)


@command("set_wound")
def _b():
    return raja(), lambda t: t.set_wound("igor-bondarenko", "Healthy")


@command("spend_charges")
def _b():
    return raja(), lambda t: t.spend_charges("alyosha", 2, "mind shield")


@command("restore_charges")
def _b():
    return raja(), lambda t: t.restore_charges("igor-bondarenko", 1)


@command("use_ability:per_scene")
def _b():
    return raja(), lambda t: t.use_ability("alyosha", "Second sight")


@command("use_ability:per_use")
def _b():
    return raja(), lambda t: t.use_ability("igor-bondarenko", "Ape-man strength")


@command("spend_story_point")
def _b():
    return raja(), lambda t: t.spend_story_point("alyosha", "a clue in the ledger")


@command("award_story_point")
def _b():
    return raja(), lambda t: t.award_story_point("igor-bondarenko")


@command("spend_edge")
def _b():
    return shadowrun(), lambda t: t.spend_edge("kaneda", "dodge")


@command("set_condition")
def _b():
    return shadowrun(), lambda t: t.set_condition("nyx", "stun", 3)


@command("use_edge_reroll")
def _b():
    return harha(), lambda t: t.use_edge_reroll("tuomas", "Iron grip")


@command("new_scene:rajapolku")
def _b():
    t = raja()
    t.use_ability("alyosha", "Second sight")
    return t, lambda t: t.new_scene("The cellar")


@command("new_scene:harhapolku")
def _b():
    return harha(), lambda t: t.new_scene("The shore")


@command("new_session:harhapolku")
def _b():
    return harha(), lambda t: t.new_session()


@command("new_session:shadowrun")
def _b():
    t = shadowrun()
    t.spend_edge("kaneda", "dodge")
    return t, lambda t: t.new_session()


@command("new_story")
def _b():
    return raja(), lambda t: t.new_story()


@command("set_setting")
def _b():
    return raja(), lambda t: t.set_setting("raja.spirit_loss", "one")


@command("note")
def _b():
    return raja(), lambda t: t.note("The nurse hums a lullaby")


@command("add_challenge")
def _b():
    return raja(), lambda t: t.add_challenge("Escape the flood", ["alyosha"], ["ghost-of-the-nurse"])


@command("remove_challenge")
def _b():
    return raja(), lambda t: t.remove_challenge("c3")


@command("move_challenge")
def _b():
    return raja(), lambda t: t.move_challenge("c4", -1)


@command("start_challenge")
def _b():
    return raja(), lambda t: t.start_challenge("c3")


@command("resolve_challenge")
def _b():
    return raja(), lambda t: t.resolve_challenge("c4", "found behind the boiler")


@command("set_initiative")
def _b():
    return shadowrun(), lambda t: t.set_initiative([{"id": "nyx", "score": 12, "passes": 2}])


@command("roll_raja")
def _b():
    return raja(), lambda t: t.rolls.roll_raja(
        RajaSide("Igor", ["igor-bondarenko"], backgrounds=["Boxer"], abilities=["Ape-man strength"]),
        RajaSide("GM: the ledger's guard", [], backgrounds=["Big"]),
        challenge="c4", faces=([10, 4], [6, 2]))


@command("roll_raja:program_dice")
def _b():
    return raja(), lambda t: t.rolls.roll_raja(
        RajaSide("Alyosha", ["alyosha"], backgrounds=["Militia"], abilities=["Second sight"]),
        RajaSide("GM", [], backgrounds=["Dark"]), challenge="c4")


@command("roll_spirit")
def _b():
    return raja(), lambda t: t.rolls.roll_spirit("alyosha", "ghost-of-the-nurse", challenge="c3",
                                           faces=([9, 8, 2, 1], [7, 6, 5, 4, 3]))


@command("roll_spirit:second exchange")
def _b():
    t = raja()
    t.rolls.roll_spirit("alyosha", "ghost-of-the-nurse", challenge="c3", faces=([9, 8, 2, 1], [7, 6, 5, 4, 3]))
    return t, lambda t: t.rolls.roll_spirit("alyosha", "ghost-of-the-nurse", challenge="c3",
                                      faces=([1, 1, 1, 1], [9, 2, 2]))


@command("end_spirit_fight")
def _b():
    t = raja()
    t.rolls.roll_spirit("alyosha", "ghost-of-the-nurse", challenge="c3", faces=([9, 8, 2, 1], [7, 6, 5, 4, 3]))
    return t, lambda t: t.rolls.end_spirit_fight("c3")


@command("roll_harha")
def _b():
    return harha(), lambda t: t.rolls.roll_harha(
        HarhaSide("Tuomas", ["tuomas"], general="Fisherman"), HarhaSide("Lena", ["lena"], background="Thief"),
        challenge="c2", faces=([6, 5], [7, 4]))


@command("harha_edge_reroll")
def _b():
    t = harha()
    r = t.rolls.roll_harha(HarhaSide("Tuomas", ["tuomas"], general="Fisherman"),
                     HarhaSide("Lena", ["lena"], background="Thief"), challenge="c2", faces=([2, 1], [7, 4]))
    return t, lambda t: t.rolls.harha_edge_reroll(r["event"], "a", "tuomas", "Iron grip", faces=[8, 8])


@command("roll_harha_difficult")
def _b():
    return harha(), lambda t: t.rolls.roll_harha_difficult(HarhaSide("Lena", ["lena"], special="Dream-walker"),
                                                     challenge="c2", faces=[3, 9])


@command("narration_roll_background")
def _b():
    return harha(), lambda t: t.rolls.narration_roll_background("Lena", "Island girl", 8, faces=[5])


@command("narration_edge_reroll")
def _b():
    t = harha()
    t.new_scene("The shore")
    t.rolls.narration_roll_background("Lena", "Thief", 8, faces=[2])
    return t, lambda t: t.rolls.narration_edge_reroll("Lena", "lena", "Cold head", faces=[7])


def test_H7_an_edge_rerolls_the_narration_contests_background_dice_in_hand_once_a_session():
    """H7: the reroll applies to the narration contest's background dice too (H9), counted per
    session as every other edge reroll; the rerolled die remembers what it replaced."""
    t = harha()
    t.new_scene("The shore")
    t.rolls.narration_roll_background("Lena", "Thief", 8, faces=[2])
    step = t.rolls.narration_edge_reroll("Lena", "lena", "Cold head", faces=[7])
    hand = t.rolls.narration().hand("Lena")
    assert [(d.face, d.replaced) for d in hand] == [(7, (2,))]
    assert step.text == "Lena rerolls with an edge: 2 → 7 (H7)"
    assert t.events[-1]["text"] == "Lena rerolls with an edge: 2 → 7 with edge 'Cold head' (H7)"
    assert [e["used"] for e in t.characters["lena"]["edges"]] == [True, True]
    with pytest.raises(TrackerError, match="already used this session"):
        t.rolls.narration_edge_reroll("Lena", "lena", "Cold head", faces=[8])
    t.undo()
    assert [d.face for d in t.rolls.narration().hand("Lena")] == [2]
    assert [e["used"] for e in t.characters["lena"]["edges"]] == [False, True]


@command("narration_open")
def _b():
    t = harha()
    t.new_scene("The shore")
    t.rolls.narration_roll_background("Lena", "Thief", 8, faces=[3])
    t.rolls.narration_roll_background("Lena", "Island girl", 8, faces=[4])
    return t, lambda t: t.rolls.narration_open("Lena", list(t.rolls.narration().hand("Lena")))


@command("narration_usurp")
def _b():
    t = harha()  # Lena narrates with 6+7 = 13; Tuomas holds 5, 4, 9
    return t, lambda t: t.rolls.narration_usurp("Tuomas", [d for d in t.rolls.narration().hand("Tuomas") if d.face in (9, 5)])


@command("narration_harm")
def _b():
    t = harha()
    t.rolls.narration_roll_background("Tuomas", "Harbour rat", 8, faces=[8])
    t.rolls.narration_usurp("Tuomas", list(t.rolls.narration().hand("Tuomas")))  # 4 dice, 26 > 13: harm roll
    return t, lambda t: t.rolls.narration_harm(faces=[6, 6, 6, 6])


@command("narration_conflict")
def _b():
    return harha(), lambda t: t.rolls.narration_conflict("armed", True)


@command("roll_sr")
def _b():
    return shadowrun(), lambda t: t.rolls.roll_sr(kaneda(skill_name="Sneaking", skill=3, attribute_name="Agility",
                                                   attribute=5, edge_before=True),
                                            threshold=2, challenge="c4", faces=[6, 2, 3, 4, 5, 1, 2, 3, 6, 6, 3, 2, 1, 2])


@command("roll_sr:buy_hits")
def _b():
    return shadowrun(), lambda t: t.rolls.roll_sr(kaneda(dice=12), threshold=2, challenge="c4", buy_hits=True)


@command("roll_sr:long_shot")
def _b():
    return shadowrun(), lambda t: t.rolls.roll_sr(kaneda(dice=0, long_shot=True), threshold=1, faces=[5, 2, 1])


def _sr_rolled(faces: list[int]) -> tuple[Tracker, model.Event]:
    t = shadowrun()
    return t, t.rolls.roll_sr(kaneda(dice=len(faces)), threshold=1, faces=faces)["event"]


@command("sr_post_roll:edge_after")
def _b():
    t, ev = _sr_rolled([2, 3, 4, 6])
    return t, lambda t: t.rolls.sr_post_roll(ev, "edge_after", faces=[5, 1, 2])


@command("sr_post_roll:edge_after on the defender of an opposed test")
def _b():
    t = shadowrun()
    ev = t.rolls.roll_sr_opposed(kaneda(dice=2), SRSide("Ganger", ["ganger"], dice=2), faces=([5, 6], [1, 2]))["event"]
    return t, lambda t: t.rolls.sr_post_roll(ev, "edge_after", role="b", faces=[5])


@command("sr_post_roll:negate_glitch")
def _b():
    t, ev = _sr_rolled([1, 1, 5, 3])
    return t, lambda t: t.rolls.sr_post_roll(ev, "negate_glitch")


@command("sr_post_roll:reduce_critical")
def _b():
    t, ev = _sr_rolled([1, 1, 2, 3])
    return t, lambda t: t.rolls.sr_post_roll(ev, "reduce_critical")


@command("roll_sr_opposed")
def _b():
    return shadowrun(), lambda t: t.rolls.roll_sr_opposed(
        kaneda(dice=3), SRSide("Ganger", ["ganger"], dice=2, edge_before=True), challenge="c2",
        faces=([5, 6, 1], [5, 2, 3]))


@command("roll_sr_teamwork")
def _b():
    t = shadowrun()
    return t, lambda t: t.rolls.roll_sr_teamwork(SRSide("Nyx", ["nyx"], dice=3), [kaneda(dice=2)], threshold=2,
                                           challenge="c4", faces=[5, 6, 5, 1, 2, 3, 4])


@command("roll_sr_extended")
def _b():
    t = shadowrun()
    c = t.add_challenge("Decrypt the paydata", ["nyx"])
    return t, lambda t: t.rolls.roll_sr_extended(SRSide("Nyx", ["nyx"], dice=3), c["id"], threshold=6,
                                           faces=[5, 5, 2])


@command("sr_extended_spoil")
def _b():
    t = shadowrun()
    c = t.add_challenge("Decrypt the paydata", ["nyx"])
    t.rolls.roll_sr_extended(SRSide("Nyx", ["nyx"], dice=4), c["id"], threshold=6, faces=[1, 1, 5, 3])
    return t, lambda t: t.rolls.sr_extended_spoil(c["id"])


@command("roll_initiative")
def _b():
    return shadowrun(), lambda t: t.rolls.roll_initiative([("kaneda", 2), ("nyx", 1)])


def _fight(passes: int = 1) -> Tracker:
    """The Varjojuoksu demo in a fresh fight: Kaneda (11), Nyx (9), Ganger (8) by these faces."""
    t = shadowrun()
    t.rolls.roll_initiative([("kaneda", passes), ("nyx", 1), ("ganger", 1)],
                      faces=[5, 6, 5, 1, 1, 1, 1, 1] + [5, 1, 1, 1, 1, 1, 1, 1] + [5, 5, 1, 1, 1, 1])
    return t


@command("combat.next")
def _b():
    return _fight(), lambda t: t.combat.next()


@command("combat.next:end_of_pass")
def _b():
    t = _fight(passes=2)
    t.combat.add_effect("nyx", "Smoke", -2, "pass", 1)
    t.combat.next()
    t.combat.next()
    return t, lambda t: t.combat.next()


@command("combat.next:end_of_turn")
def _b():
    t = _fight()
    t.combat.next()
    t.combat.next()
    return t, lambda t: t.combat.next()


@command("combat.next:challenge")
def _b():
    return raja(), lambda t: t.combat.next()


@command("combat.roll_initiative")
def _b():
    return _fight(), lambda t: t.combat.roll_initiative([("kaneda", 1), ("nyx", 2)], faces=[5] * 8 + [6] * 8)


@command("combat.set_initiative")
def _b():
    return shadowrun(), lambda t: t.combat.set_initiative("kaneda", 2, 2, "wired reflexes 2")


@command("combat.remove_initiative")
def _b():
    t = shadowrun()
    t.combat.set_initiative("nyx", 0, 3, "hot-sim", kind="matrix")
    return t, lambda t: t.combat.remove_initiative("nyx", "matrix")


@command("combat.join_initiative")
def _b():
    """A player's seat rolls Nyx into a combat turn the GM began with Kaneda and the Ganger."""
    t = shadowrun()
    t.rolls.roll_initiative([("kaneda", 1), ("ganger", 1)], faces=[5, 6, 5, 1, 1, 1, 1, 1] + [5, 5, 1, 1, 1, 1])
    return t, lambda t: t.combat.join_initiative("nyx", faces=[6, 5, 5, 1, 1, 1, 1, 1])


@command("combat.delay")
def _b():
    return _fight(), lambda t: t.combat.delay()


@command("combat.step_in")
def _b():
    t = _fight()
    t.combat.delay()
    return t, lambda t: t.combat.step_in("kaneda")


@command("combat.end")
def _b():
    t = _fight()
    t.combat.add_effect("kaneda", "Stunned", -1, "turn", 2)
    return t, lambda t: t.combat.end()


@command("combat.add_effect")
def _b():
    return _fight(), lambda t: t.combat.add_effect("ganger", "Good cover", 2, "pass", 2)


@command("combat.remove_effect")
def _b():
    t = raja()
    t.combat.add_effect("igor-bondarenko", "Blessed", 1, "scene", 1)
    return t, lambda t: t.combat.remove_effect("igor-bondarenko", 0)


NO_STATE_CHANGE = {"note"}
"""Commands that only log."""

NEVER_UNDONE_COMMANDS = {"new_dice_secret"}
"""Commands whose effect the players have already seen (a dice secret revealed or committed):
their own command, never undone (tests/test_fairdice.py)."""


def _no_dice(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "dice"}

def _names_used(code: Any) -> set[str]:
    names = set(code.co_names)
    for const in code.co_consts:
        if inspect.iscode(const):
            names |= _names_used(const)
    return names


def _is_command(fn: Any) -> bool:
    """A method that changes state goes through one of the tracker's command runners."""
    return bool(_names_used(fn.__code__) & {"run", "_simple", "_narration_step"})


def test_every_command_of_the_tracker_has_an_undo_redo_case():
    # The tracker's own commands and those of its parts (tracker.rolls, tracker.combat).
    public = {n: v for cls in (Tracker, Rolls) for n, v in inspect.getmembers(cls)
              if not n.startswith("_") and inspect.isfunction(v)}
    public |= {f"combat.{n}": v for n, v in inspect.getmembers(Combat)
               if not n.startswith("_") and inspect.isfunction(v)}
    commands = {n for n, v in public.items() if _is_command(v)} - {"run"}  # the runner itself
    covered = {name.split(":")[0] for name in COMMANDS}
    missing = commands - covered - NEVER_UNDONE_COMMANDS
    assert not missing, f"commands without an undo/redo case: {sorted(missing)}"
    assert covered <= set(public)
    assert len(commands) >= 40


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_undo_restores_and_redo_repeats_every_command(name):
    t, action = COMMANDS[name]()
    before = copy.deepcopy(t.state)
    n = len(t.events)
    action(t)
    after = copy.deepcopy(t.state)
    model.validate_state(after)
    if name not in NO_STATE_CHANGE:
        assert after != before, "the builder's command changed nothing"
    # A new session also reveals the last dice secret and commits the next: that
    # step is its own command and is never undone (the players have seen it).
    new = copy.deepcopy([e for e in t.events[n:] if e["kind"] != "dice"])
    assert new, "no event logged"
    seqs = [e["seq"] for e in new]
    assert len({e["cmd"] for e in new}) == 1, "one command, one undo step"
    assert t.can_undo() and not t.can_redo()
    after_dice = copy.deepcopy(t.state.get("dice"))

    ev = t.undo()
    assert ev["kind"] == "undo" and ev["target"] == seqs[0]
    assert _no_dice(t.state) == _no_dice(before)
    assert t.state.get("dice", {}).get("key") == (after_dice or {}).get("key"), "a dice secret stays rotated"
    assert all(t.is_undone(s) for s in seqs)
    assert [e for e in t.events[n:] if e["kind"] != "dice"][:len(new)] == new, "undone events stay in the log"
    assert not t.is_undone(ev["seq"])
    assert t.can_redo()
    assert t.redo_text() == new[0]["text"]

    ev2 = t.redo()
    assert ev2["kind"] == "redo" and ev2["target"] == seqs[0]
    assert t.state == after
    assert not any(t.is_undone(s) for s in seqs)
    assert not t.can_redo()

    t.undo()
    assert _no_dice(t.state) == _no_dice(before)
    model.validate_state(t.state)


def test_undo_walks_back_several_commands_and_a_new_command_drops_the_redo():
    t = raja()
    s0 = copy.deepcopy(t.state)
    t.spend_charges("alyosha", 1, "focus")
    s1 = copy.deepcopy(t.state)
    t.move_wound("alyosha", 1)
    t.undo()
    assert t.state == s1
    t.undo()
    assert t.state == s0
    assert t.can_redo()
    t.note("a new command")
    assert not t.can_redo()
    with pytest.raises(TrackerError, match="nothing to redo"):
        t.redo()


def test_undo_with_nothing_to_undo_is_refused():
    t = Tracker.new("rajapolku", "Empty", clock=demo.fixed_clock())
    with pytest.raises(TrackerError, match="nothing to undo"):
        t.undo()


# ---------------------------------------------------------------------------
# docs/rules.md: resets at each boundary, each a logged "reset" event.

def _new_events(t: Tracker, n: int) -> list[model.Event]:
    return t.events[n:]


def test_new_session_refreshes_shadowrun_edge_with_a_reset_event():
    t = shadowrun()
    t.spend_edge("kaneda", "dodge")
    t.spend_edge("kaneda", "dodge again")
    assert t.character("kaneda")["edge"] == 1
    assert t.character("nyx")["edge"] == 3  # the demo's Edge-before roll
    assert t.character("ganger")["edge"] == 1  # full: no reset for him
    n = len(t.events)
    t.new_session()
    assert [t.character(c)["edge"] for c in ("kaneda", "nyx", "ganger")] == [3, 4, 1]
    assert t.where == [1, 2, 1]
    resets = [e for e in _new_events(t, n) if e["kind"] == "reset" and "Edge refreshed" in e["text"]]
    assert sorted(e["who"] for e in resets) == ["kaneda", "nyx"]
    assert any(e["who"] == "kaneda" and "Edge refreshed to 3" in e["text"] for e in resets)


def test_new_session_makes_harhapolku_edges_unused_with_a_reset_event():
    t = harha()  # Lena used "Quick fingers" in the demo
    assert any(e["used"] for e in t.character("lena")["edges"])
    n = len(t.events)
    t.new_session()
    assert all(not e["used"] for ch in t.characters.values() for e in ch["edges"])
    resets = [e for e in _new_events(t, n) if e["kind"] == "reset" and "edge" in e["text"]]
    assert [e["who"] for e in resets] == ["lena"]
    # and the edge may be used again this session
    t.use_edge_reroll("lena", "Quick fingers")


def test_new_story_replaces_story_points_with_the_setting():
    t = raja()
    t.set_setting("raja.story_points", 4)
    t.award_story_point("igor-bondarenko")  # 4 unspent → vanish
    t.spend_story_point("alyosha", "a rat-filled hatch")  # 1 left
    n = len(t.events)
    t.new_story()
    assert t.character("alyosha")["story_points"] == 4
    assert t.character("igor-bondarenko")["story_points"] == 4
    assert t.character("the-pickpocket")["story_points"] == 0, "NPCs get no story points"
    assert t.where[0] == 2
    resets = [e for e in _new_events(t, n) if e["kind"] == "reset"]
    assert {e["who"] for e in resets} == {"alyosha", "igor-bondarenko"}


def test_new_scene_clears_ability_payments_background_dice_and_narration():
    t = raja()
    t.use_ability("alyosha", "Second sight")
    with pytest.raises(TrackerError, match="already paid"):
        t.use_ability("alyosha", "Second sight")
    n = len(t.events)
    t.new_scene("The cellar")
    assert t.character("alyosha")["paid_this_scene"] == []
    resets = [e for e in _new_events(t, n) if e["kind"] == "reset"]
    assert [e["who"] for e in resets] == ["alyosha"]
    t.use_ability("alyosha", "Second sight")  # payable again
    assert t.character("alyosha")["charges"] == 3


def test_new_scene_in_harhapolku_lets_every_background_roll_again():
    t = harha()
    assert t.character("lena")["rolled_this_scene"]
    assert t.state["narration"]["narrator"] == "Lena"
    before = copy.deepcopy(t.state)
    n = len(t.events)
    t.new_scene("The shore")
    assert all(ch["rolled_this_scene"] == [] for ch in t.characters.values())
    nar = t.state["narration"]
    assert nar["narrator"] == "" and nar["table"] == [] and nar["burned"] == []
    assert not nar.get("hands") and not nar.get("rolled")
    assert t.rolls.narration().hand("Tuomas") == ()
    resets = [e for e in _new_events(t, n) if e["kind"] == "reset"]
    assert len(resets) == 3  # Lena's dice, Tuomas's dice, the narration table
    # H9: once per scene — so in a new scene the same background rolls again
    t.rolls.narration_roll_background("Lena", "Thief", 8, faces=[2])
    assert t.character("lena")["rolled_this_scene"] == ["Thief"]
    with pytest.raises(TrackerError, match="already rolled Thief"):
        t.rolls.narration_roll_background("Lena", "Thief", 8, faces=[2])
    t.undo()
    t.undo()
    assert t.state == before, "undo of new_scene restores the table, the hands and the rolled backgrounds"


def test_new_scene_clears_backgrounds_rolled_without_an_open_narration():
    t = Tracker.new("harhapolku", "Quiet", clock=demo.fixed_clock())
    t.add_character("Lena", backgrounds=[{"name": "Thief", "tier": "plain"}])
    t.rolls.narration_roll_background("Lena", "Thief", 8, faces=[4])
    t.new_scene()
    t.rolls.narration_roll_background("Lena", "Thief", 8, faces=[5])
    assert [d["face"] for d in t.state["narration"]["hands"]["Lena"]] == [5]


def test_undo_of_new_scene_restores_every_reset():
    t = raja()
    t.use_ability("alyosha", "Second sight")
    before = copy.deepcopy(t.state)
    n = len(t.events)
    t.new_scene("The cellar")
    kinds = [e["kind"] for e in _new_events(t, n)]
    assert kinds == ["structure", "reset"]
    t.undo()
    assert t.state == before
    assert t.character("alyosha")["paid_this_scene"] == ["Second sight"]
    assert all(t.is_undone(e["seq"]) for e in t.events[n:n + 2])


def test_undo_of_new_session_restores_edge_and_scene():
    t = shadowrun()
    t.spend_edge("nyx", "hack")  # the demo already spent one of her 4
    before = copy.deepcopy(t.state)
    t.new_session()
    assert t.character("nyx")["edge"] == 4
    t.undo()
    assert t.state == before
    assert t.character("nyx")["edge"] == 2


# ---------------------------------------------------------------------------
# Rolls with literal faces through the tracker.

def test_ex_a_gm_wins_with_one_degree_and_every_die_keeps_its_source():
    t = raja()
    r = t.rolls.roll_raja(RajaSide("Alyosha", ["alyosha"], backgrounds=["Runner", "Street-wise"]),
                    RajaSide("GM: the pickpocket", [], backgrounds=["Young and fast", "Street-wise"]),
                    faces=([7, 7, 3], [8, 5, 3]))
    ev = t.events[-1]
    assert ev is r["event"] and ev["kind"] == "roll"
    roll = ev["roll"]
    assert roll["manual"] is True
    assert roll["outcome"]["winner"] == "b"
    assert roll["outcome"]["degrees"] == 1
    assert roll["outcome"]["degree_faces"] == [8]
    a, b = roll["sides"]
    assert [(d["size"], d["face"], d["source"]) for d in a["dice"]] == [
        (10, 7, "action"), (10, 7, "background"), (10, 3, "background")]
    assert [d.get("label") for d in a["dice"]] == ["action", "Runner", "Street-wise"]
    assert [d["face"] for d in b["dice"]] == [8, 5, 3]
    assert a["who"] == ["alyosha"] and ev["who"] == ["alyosha"]
    assert "GM: the pickpocket wins, 1 degree" in ev["text"]
    assert ev["at"] == t.where


def test_ex_c_through_the_tracker_resolves_the_challenge():
    t = raja()
    t.start_challenge("c4")
    t.rolls.roll_raja(RajaSide("Alyosha", ["alyosha"], backgrounds=["Runner", "Street-wise"]),
                RajaSide("GM", [], backgrounds=["Hidden"]), challenge="c4", faces=([10, 8, 7], [6, 5]))
    assert t.events[-1]["roll"]["outcome"]["winner"] == "a"
    assert t.events[-1]["roll"]["outcome"]["degrees"] == 3
    c = t.challenge("c4")
    assert c["status"] == "resolved" and "Alyosha wins, 3 degrees" in c["outcome"]


def test_full_tie_rerolls_and_leaves_the_challenge_open():
    t = raja()
    t.rolls.roll_raja(RajaSide("A", [], backgrounds=["x"]), RajaSide("B", [], backgrounds=["y"]), challenge="c4",
                faces=([7, 5], [7, 5]))
    assert t.events[-1]["roll"]["outcome"]["winner"] == "tie"
    assert t.challenge("c4")["status"] == "waiting"


def test_per_use_ability_die_pays_every_roll():
    t = raja()
    igor = lambda: RajaSide("Igor", ["igor-bondarenko"], backgrounds=["Boxer"], abilities=["Ape-man strength"])
    assert t.character("igor-bondarenko")["charges"] == 4
    # Igor is Wounded: −1 die removed (never the action die); ability die stays
    t.rolls.roll_raja(igor(), RajaSide("GM", []), faces=([9, 3], [4]))
    dice = t.events[-1]["roll"]["sides"][0]["dice"]
    assert "ability" in [d["source"] for d in dice]
    assert t.character("igor-bondarenko")["charges"] == 3
    pay = [e for e in t.events[-3:] if e["kind"] == "resource"]
    assert pay and pay[-1]["amount"] == -1 and pay[-1]["who"] == "igor-bondarenko"
    t.rolls.roll_raja(igor(), RajaSide("GM", []), faces=([9, 3], [4]))
    assert t.character("igor-bondarenko")["charges"] == 2


def test_per_scene_ability_die_pays_once_a_scene():
    t = raja()
    side = lambda: RajaSide("Alyosha", ["alyosha"], abilities=["Second sight"])
    t.rolls.roll_raja(side(), RajaSide("GM", []), faces=([2, 9], [5]))
    assert t.character("alyosha")["charges"] == 4
    assert t.character("alyosha")["paid_this_scene"] == ["Second sight"]
    out = t.events[-1]["roll"]["outcome"]
    assert out["winner"] == "a" and out["deciding_die_is_ability"] is True
    t.rolls.roll_raja(side(), RajaSide("GM", []), faces=([2, 9], [5]))
    assert t.character("alyosha")["charges"] == 4, "already paid this scene"
    t.new_scene("Next")
    t.rolls.roll_raja(side(), RajaSide("GM", []), faces=([2, 9], [5]))
    assert t.character("alyosha")["charges"] == 3


def test_ability_without_charges_refuses_the_roll():
    t = raja()
    t.spend_charges("igor-bondarenko", 4, "exhausted")
    before, n = copy.deepcopy(t.state), len(t.events)
    # Wounded takes the Boxer die (R9), so the ability die is rolled and must be paid
    with pytest.raises(TrackerError, match="charges"):
        t.rolls.roll_raja(RajaSide("Igor", ["igor-bondarenko"], backgrounds=["Boxer"], abilities=["Ape-man strength"]),
                    RajaSide("GM", []), faces=([5, 6], [3]))
    assert t.state == before and len(t.events) == n


def test_spirit_combat_loser_loses_charges_equal_to_degrees():
    t = raja()
    assert t.character("alyosha")["charges"] == 5 and t.character("ghost-of-the-nurse")["charges"] == 6
    r = t.rolls.roll_spirit("alyosha", "ghost-of-the-nurse", challenge="c3", faces=([9, 8, 2, 1], [7, 6, 5, 4, 3]))
    assert r["result"].winner == "a" and r["result"].degrees == 2
    assert t.character("alyosha")["charges"] == 4  # spent 1
    assert t.character("ghost-of-the-nurse")["charges"] == 3  # spent 1, lost 2
    roll = t.events[-1]["roll"]
    assert roll["outcome"]["charge_loss"] == 2
    assert all(d["source"] == "charge" for s in roll["sides"] for d in s["dice"])
    assert t.challenge("c3")["status"] != "resolved"  # the Nurse has charges left: the fight goes on (R11)


def test_spirit_combat_with_one_charge_is_refused():
    t = raja()
    t.spend_charges("alyosha", 4, "drained")
    before, n = copy.deepcopy(t.state), len(t.events)
    with pytest.raises(TrackerError, match="R11"):
        t.rolls.roll_spirit("alyosha", "ghost-of-the-nurse", faces=([], [1, 1, 1, 1, 1]))
    assert t.state == before and len(t.events) == n


def test_spirit_loss_setting_one():
    t = raja()
    t.set_setting("raja.spirit_loss", "one")
    t.rolls.roll_spirit("alyosha", "ghost-of-the-nurse", faces=([10, 10, 10, 10], [1, 1, 1, 1, 1]))
    assert t.character("ghost-of-the-nurse")["charges"] == 4


def test_ex_e_challenger_wins_through_roll_harha():
    t = harha()
    r = t.rolls.roll_harha(HarhaSide("Lena (actor)", ["lena"], general="Island girl", background="Thief"),
                     HarhaSide("Tuomas (challenger)", ["tuomas"], general="Fisherman", background="Brawler"),
                     challenge="c2", faces=([6, 5, 3], [7, 4, 4]))
    out = t.events[-1]["roll"]["outcome"]
    assert out["winner"] == "b" and r["result"].winner == "b"
    assert (out["b_positions"], out["a_positions"]) == (2, 1)
    assert t.events[-1]["roll"]["variant"] == "ch23"
    assert t.challenge("c2")["status"] == "resolved"


def test_ex_f_actor_wins_through_roll_harha():
    # H2 allows at most 7 dice (4 d8 + 3 d10), so the challenger's eighth 1 of EX F
    # cannot be rolled here; ch23 compares only the actor's 3 positions anyway.
    t = harha()
    t.rolls.roll_harha(HarhaSide("Lena", ["lena"], general="Island girl", background="Thief"),
                 HarhaSide("Ferryman", ["the-ferryman"], general="x", background="y", significant="z",
                           special="s", significant_special="Old as the sea", gm_bonus=True),
                 faces=([5, 2, 2], [4, 3, 1, 1, 1, 1, 1]))
    out = t.events[-1]["roll"]["outcome"]
    assert out["winner"] == "a"
    assert [p["side"] for p in out["positions"]][:3] == ["a", "b", "a"]
    assert [d["size"] for d in t.events[-1]["roll"]["sides"][1]["dice"]] == [8, 8, 8, 8, 10, 10, 10]


def test_h7_edge_reroll_keeps_replaced_faces_and_is_once_per_session():
    t = harha()
    r = t.rolls.roll_harha(HarhaSide("Tuomas", ["tuomas"], general="Fisherman"),
                     HarhaSide("Lena", ["lena"], background="Thief"), faces=([2, 1], [7, 4]))
    assert r["result"].winner == "b"
    rr = t.rolls.harha_edge_reroll(r["event"], "a", "tuomas", "Iron grip", faces=[8, 8])
    ev = t.events[-1]
    assert ev is rr["event"] and ev["roll"]["rerolls"] == r["event"]["seq"]
    dice = ev["roll"]["sides"][0]["dice"]
    assert [d["face"] for d in dice] == [8, 8]
    assert [d["replaced"] for d in dice] == [[2], [1]]
    assert ev["roll"]["sides"][1]["dice"] == r["event"]["roll"]["sides"][1]["dice"], "the other side is kept"
    assert ev["roll"]["outcome"]["winner"] == "a"
    assert t.character("tuomas")["edges"][0]["used"] is True
    before, n = copy.deepcopy(t.state), len(t.events)
    with pytest.raises(TrackerError, match="already used this session"):
        t.rolls.harha_edge_reroll(r["event"], "a", "tuomas", "Iron grip", faces=[8, 8])
    assert t.state == before and len(t.events) == n
    t.new_session()
    t.rolls.harha_edge_reroll(r["event"], "a", "tuomas", "Iron grip", faces=[3, 3])
    assert t.character("tuomas")["edges"][0]["used"] is True


def test_h8_difficult_and_very_demanding():
    t = harha()
    t.rolls.roll_harha_difficult(HarhaSide("Lena", ["lena"], special="Dream-walker"), faces=[3, 9])
    assert t.events[-1]["roll"]["outcome"]["success"] is True
    t.rolls.roll_harha_difficult(HarhaSide("Lena", ["lena"], special="Dream-walker"), very_demanding=True,
                           faces=[3, 9])
    assert t.events[-1]["roll"]["outcome"]["success"] is False


def test_h9_usurp_burns_the_table():
    t = harha()
    hand = [d for d in t.rolls.narration().hand("Tuomas") if d.face in (9, 5)]
    t.rolls.narration_usurp("Tuomas", hand)
    nar = t.state["narration"]
    assert nar["narrator"] == "Tuomas"
    assert sorted(d["face"] for d in nar["table"]) == [5, 9]
    assert nar["burned"][-1]["owner"] == "Lena"
    assert [d["face"] for d in nar["hands"]["Tuomas"]] == [4]
    before, n = copy.deepcopy(t.state), len(t.events)
    with pytest.raises(TrackerError, match="needs at least one die"):
        t.rolls.narration_usurp("Lena", [])
    assert t.state == before and len(t.events) == n


def _sr_roll(t: Tracker, faces: list[int], **kw: Any) -> model.Event:
    return t.rolls.roll_sr(kaneda(dice=len(faces)), threshold=1, faces=faces, **kw)["event"]


def test_sr_glitch_then_negate_spends_edge():
    t = shadowrun()
    ev = _sr_roll(t, [1, 1, 5, 3])
    assert ev["roll"]["outcome"]["glitch"] is True and ev["roll"]["outcome"]["hits"] == 1
    assert "GLITCH" in ev["text"]
    t.rolls.sr_post_roll(ev, "negate_glitch")
    new = t.events[-1]
    assert new["roll"]["supersedes"] == ev["seq"]
    assert new["roll"]["outcome"]["glitch"] is False
    assert "glitch negated" in new["text"]
    assert t.character("kaneda")["edge"] == 2
    assert [d["face"] for d in new["roll"]["sides"][0]["dice"]] == [1, 1, 5, 3]


def test_sr_critical_glitch_cannot_be_negated_but_can_be_reduced():
    t = shadowrun()
    ev = _sr_roll(t, [1, 1, 2, 3])
    assert ev["roll"]["outcome"]["critical_glitch"] is True
    before, n = copy.deepcopy(t.state), len(t.events)
    with pytest.raises(TrackerError, match="cannot negate a critical glitch"):
        t.rolls.sr_post_roll(ev, "negate_glitch")
    assert t.state == before and len(t.events) == n
    t.rolls.sr_post_roll(ev, "reduce_critical")
    red = t.events[-1]
    assert red["roll"]["outcome"]["critical_glitch"] is False and red["roll"]["outcome"]["glitch"] is True
    assert t.character("kaneda")["edge"] == 2
    with pytest.raises(TrackerError, match="no further Edge"):
        t.rolls.sr_post_roll(red, "negate_glitch")
    assert t.character("kaneda")["edge"] == 2


def test_sr_edge_after_adds_exploding_dice():
    t = shadowrun()
    ev = _sr_roll(t, [2, 3, 4, 1])
    t.rolls.sr_post_roll(ev, "edge_after", faces=[6, 2, 2, 5])  # Kaneda's Edge 3: +3 dice, the 6 explodes
    new = t.events[-1]
    assert [d["face"] for d in new["roll"]["sides"][0]["dice"]] == [2, 3, 4, 1, 6, 2, 2, 5]
    assert new["roll"]["outcome"]["hits"] == 2
    assert t.character("kaneda")["edge"] == 2


def test_sr_edge_with_none_left_is_refused():
    t = shadowrun()
    ev = _sr_roll(t, [1, 1, 5, 3])
    for _ in range(3):
        t.spend_edge("kaneda", "luck")
    before, n = copy.deepcopy(t.state), len(t.events)
    with pytest.raises(TrackerError, match="no Edge left"):
        t.rolls.sr_post_roll(ev, "negate_glitch")
    assert t.state == before and len(t.events) == n


def test_sr_opposed_more_hits_wins_by_the_difference():
    t = shadowrun()
    t.rolls.roll_sr_opposed(kaneda(dice=4), SRSide("Ganger", ["ganger"], dice=3), challenge="c2",
                      faces=([5, 6, 5, 1], [5, 2, 3]))
    out = t.events[-1]["roll"]["outcome"]
    assert out["winner"] == "a" and out["net_hits"] == 2
    assert t.challenge("c2")["status"] == "resolved"
    t.rolls.roll_sr_opposed(kaneda(dice=2), SRSide("Ganger", ["ganger"], dice=2), faces=([5, 2], [6, 1]))
    assert t.events[-1]["roll"]["outcome"]["winner"] == "tie"


def test_sr_extended_accumulates_and_a_critical_glitch_ends_it():
    t = shadowrun()
    c = t.add_challenge("Decrypt", ["nyx"])["id"]
    nyx = lambda: SRSide("Nyx", ["nyx"], dice=4)
    t.rolls.roll_sr_extended(nyx(), c, threshold=8, faces=[5, 6, 2, 3])
    t.rolls.roll_sr_extended(nyx(), c, faces=[5, 5, 5, 3])
    ext = t.challenge(c)["extended"]
    assert (ext["accumulated"], ext["intervals"], ext["ended"]) == (5, 2, False)
    assert t.events[-1]["roll"]["outcome"]["accumulated"] == 5
    t.rolls.roll_sr_extended(nyx(), c, faces=[1, 1, 2, 3])
    ext = t.challenge(c)["extended"]
    assert ext["ended"] is True and ext["accumulated"] == 5
    assert t.challenge(c)["status"] == "resolved"
    before, n = copy.deepcopy(t.state), len(t.events)
    with pytest.raises(TrackerError, match="over"):
        t.rolls.roll_sr_extended(nyx(), c, faces=[5, 5, 5, 5])
    assert t.state == before and len(t.events) == n


def test_sr_extended_reaches_its_threshold():
    t = shadowrun()
    c = t.add_challenge("Climb", ["kaneda"])["id"]
    t.rolls.roll_sr_extended(kaneda(dice=3), c, threshold=4, faces=[5, 6, 2])
    t.rolls.roll_sr_extended(kaneda(dice=3), c, faces=[5, 6, 2])
    assert t.events[-1]["roll"]["outcome"]["done"] is True
    assert t.challenge(c)["status"] == "resolved"


def test_sr_teamwork_adds_helper_hits_as_leader_dice():
    t = shadowrun()
    t.rolls.roll_sr_teamwork(SRSide("Nyx", ["nyx"], dice=3), [kaneda(dice=3), SRSide("Ganger", ["ganger"], dice=2)],
                       threshold=3, faces=[5, 6, 1, 5, 2, 1, 2, 3, 5, 4, 2])
    roll = t.events[-1]["roll"]
    helpers = [s for s in roll["sides"] if s["role"] == "helper"]
    leader = [s for s in roll["sides"] if s["role"] == "a"][0]
    assert [len(s["dice"]) for s in helpers] == [3, 2]
    assert len(leader["dice"]) == 3 + 3  # 2 + 1 helper hits
    assert "+3 dice from helpers" in t.events[-1]["text"]
    assert roll["outcome"]["hits"] == 1 and roll["outcome"]["success"] is False


def test_initiative_orders_highest_first_ties_by_edge():
    t = shadowrun()
    # Kaneda R4+I4 = 8 dice, Nyx R3+I5 = 8 dice, Ganger R3+I3 = 6 dice
    t.rolls.roll_initiative([("kaneda", 1), ("nyx", 2), ("ganger", 1)],
                      faces=[5, 1, 1, 1, 1, 1, 1, 1] + [6, 2, 2, 2, 2, 2, 2, 2] + [5, 5, 5, 5, 2, 2])
    assert t.state["initiative"] == [
        {"id": "ganger", "score": 10, "passes": 1},
        {"id": "nyx", "score": 9, "passes": 2},  # Edge 4 beats Kaneda's Edge 3
        {"id": "kaneda", "score": 9, "passes": 1},
    ]
    roll = next(e for e in reversed(t.events) if "roll" in e)
    assert roll["roll"]["test"] == "initiative"
    assert t.events[-1]["text"] == "Combat turn 2 begins: Ganger acts"  # the demo was in turn 1


# ---------------------------------------------------------------------------
# Bad commands change nothing.

BAD: dict[str, tuple[Callable[[], Tracker], Callable[[Tracker], Any], str]] = {
    "more charges than held": (raja, lambda t: t.spend_charges("alyosha", 6, "too much"), "charges"),
    "zero charges": (raja, lambda t: t.spend_charges("alyosha", 0, "nothing"), "at least 1"),
    "restore when full": (raja, lambda t: t.restore_charges("alyosha", 1), "already has all"),
    "story point with none left": (
        lambda: _drained_story(), lambda t: t.spend_story_point("alyosha", "a hatch"), "no story points"),
    "story point buying nothing": (raja, lambda t: t.spend_story_point("alyosha", "  "), "bought"),
    "edge with none": (lambda: _drained_edge(), lambda t: t.spend_edge("kaneda", "luck"), "no Edge left"),
    "edge before the roll with none": (
        lambda: _drained_edge(), lambda t: t.rolls.roll_sr(kaneda(dice=3, edge_before=True), faces=[1, 2, 3]),
        "no Edge left"),
    "face out of range": (raja, lambda t: t.rolls.roll_raja(RajaSide("A", ["alyosha"]), RajaSide("B", []),
                                                      faces=([11], [3])), "11"),
    "face zero": (raja, lambda t: t.rolls.roll_raja(RajaSide("A", ["alyosha"]), RajaSide("B", []),
                                              faces=([0], [3])), "0"),
    "too many faces": (raja, lambda t: t.rolls.roll_raja(RajaSide("A", ["alyosha"]), RajaSide("B", []),
                                                   faces=([3, 4], [3])), "more than the pool"),
    "too few faces": (raja, lambda t: t.rolls.roll_raja(RajaSide("A", ["alyosha"], backgrounds=["Militia"]),
                                                  RajaSide("B", []), faces=([3], [3])), "not enough faces"),
    "too many faces after paying an ability": (
        raja, lambda t: t.rolls.roll_raja(RajaSide("Igor", ["igor-bondarenko"], abilities=["Ape-man strength"]),
                                    RajaSide("B", []), faces=([3, 4, 5], [3])), "more than the pool"),
    "too many faces after Edge before the roll": (
        shadowrun, lambda t: t.rolls.roll_sr(kaneda(dice=1, edge_before=True), faces=[1, 2, 3, 4, 5]),
        "more than the pool"),
    "d8 face 9 in harhapolku": (harha, lambda t: t.rolls.roll_harha(HarhaSide("A", ["lena"]), HarhaSide("B", []),
                                                              faces=([9], [1])), "9"),
    "spirit faces too many": (raja, lambda t: t.rolls.roll_spirit("alyosha", "ghost-of-the-nurse",
                                                            faces=([1, 1, 1, 1, 1], [1, 1, 1, 1, 1])),
                              "more than the pool"),
    "teamwork too many faces": (shadowrun, lambda t: t.rolls.roll_sr_teamwork(
        SRSide("Nyx", ["nyx"], dice=1, edge_before=True), [kaneda(dice=1)], faces=[2] * 9), "more than the pool"),
    "unknown wound level": (raja, lambda t: t.set_wound("alyosha", "Scratched"), "Scratched"),
    "wound already at the top": (raja, lambda t: t.move_wound("alyosha", -1), "already Healthy"),
    "condition beyond the monitor": (shadowrun, lambda t: t.set_condition("kaneda", "physical", 11), "boxes"),
    "unknown setting": (raja, lambda t: t.set_setting("raja.nonsense", 1), "nonsense"),
    "bad setting value": (raja, lambda t: t.set_setting("raja.spirit_loss", "all"), "spirit_loss"),
    "edit charges above max": (raja, lambda t: t.update_character("alyosha", "charges", 9), "charges"),
    "edit unknown field": (raja, lambda t: t.update_character("alyosha", "hp", 9), "hp"),
    "unknown character": (raja, lambda t: t.spend_charges("nobody", 1, "x"), "nobody"),
    "unknown ability": (raja, lambda t: t.use_ability("alyosha", "Flight"), "Flight"),
    "ability costlier than charges": (lambda: _drained_igor(), lambda t: t.use_ability(
        "igor-bondarenko", "Ape-man strength"), "costs"),
    "start a resolved challenge": (raja, lambda t: t.start_challenge("c1"), "already resolved"),
    "empty challenge title": (raja, lambda t: t.add_challenge("  "), "title"),
    "empty note": (raja, lambda t: t.note(""), "empty"),
    "unused edge name": (harha, lambda t: t.use_edge_reroll("lena", "Wings"), "Wings"),
    "spoil without a glitch": (lambda: _extended_clean(), lambda t: t.rolls.sr_extended_spoil("c5"), "glitch"),
    "extended test without threshold": (shadowrun, lambda t: t.rolls.roll_sr_extended(kaneda(dice=2), "c4",
                                                                                 faces=[1, 2]), "threshold"),
    "edge reroll of a narration roll": (harha, lambda t: t.rolls.harha_edge_reroll(
        t.events[-2], "a", "tuomas", "Iron grip", faces=[1]), "only a Harhapolku"),
    "edge reroll of a missing side": (lambda: _harha_rolled(), lambda t: t.rolls.harha_edge_reroll(
        t.events[-1], "helper", "tuomas", "Iron grip", faces=[1]), "no side 'helper'"),
    "post-roll Edge on a non-roll event": (shadowrun, lambda t: t.rolls.sr_post_roll(t.events[0], "negate_glitch"),
                                           "this sitting only"),
    "post-roll Edge for a GM pool": (lambda: _sr_gm_rolled(), lambda t: t.rolls.sr_post_roll(
        t.events[-1], "edge_after", faces=[1, 1, 1]), "needs a character"),
    "initiative for a stranger": (shadowrun, lambda t: t.set_initiative([{"id": "x", "score": 1, "passes": 1}]),
                                  "'x'"),
}


def _harha_rolled() -> Tracker:
    t = harha()
    t.rolls.roll_harha(HarhaSide("A", ["tuomas"]), HarhaSide("B", []), faces=([1], [2]))
    return t


def _sr_gm_rolled() -> Tracker:
    t = shadowrun()
    t.rolls.roll_sr(SRSide("GM", [], dice=2), faces=[1, 2])
    return t


def _drained_story() -> Tracker:
    t = raja()
    t.spend_story_point("alyosha", "one")
    t.spend_story_point("alyosha", "two")
    return t


def _drained_edge() -> Tracker:
    t = shadowrun()
    for _ in range(3):
        t.spend_edge("kaneda", "luck")
    return t


def _drained_igor() -> Tracker:
    t = raja()
    t.spend_charges("igor-bondarenko", 4, "exhausted")
    return t


def _extended_clean() -> Tracker:
    t = shadowrun()
    c = t.add_challenge("Climb", ["kaneda"])
    assert c["id"] == "c5"
    t.rolls.roll_sr_extended(kaneda(dice=2), "c5", threshold=6, faces=[5, 2])
    return t


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_command_raises_one_line_and_changes_nothing(case):
    build, action, needle = BAD[case]
    t = build()
    before = copy.deepcopy(t.state)
    events = copy.deepcopy(t.events)
    undo_text = t.undo_text()
    with pytest.raises(TrackerError) as err:
        action(t)
    msg = str(err.value)
    assert msg and "\n" not in msg
    assert needle in msg
    assert t.state == before
    assert t.events == events
    assert t.undo_text() == undo_text
    assert not t.unsaved or t.unsaved[-1] is t.events[-1]


def test_read_only_tracker_refuses_every_kind_of_change():
    t = raja()
    ro = Tracker(copy.deepcopy(t.state), copy.deepcopy(t.events), read_only=True)
    before = copy.deepcopy(ro.state)
    for action in (lambda: ro.note("x"), lambda: ro.spend_charges("alyosha", 1, "x"), ro.undo, ro.redo,
                   ro.new_scene, lambda: ro.rolls.roll_raja(RajaSide("A", []), RajaSide("B", []), faces=([1], [2]))):
        with pytest.raises(TrackerError, match="read-only"):
            action()
    assert ro.state == before and len(ro.events) == len(t.events)
    assert not ro.can_undo()
