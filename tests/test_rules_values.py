"""The rules core's values are immutable: a rolled die never changes after the
fact, equal rolls compare equal, and a changed copy is validated like a new
value (the rules and the log depend on all three)."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from polku.rules.dice import Die, FaceError, Src
from polku.rules.system import Settings


def test_equal_dice_are_equal_and_hash_alike():
    assert Die(10, 7) == Die(10, 7)
    assert Die(10, 7) != Die(10, 8)
    assert Die(10, 7, Src.ABILITY) != Die(10, 7)
    assert len({Die(10, 7), Die(10, 7), Die(8, 7)}) == 2
    assert Die(10, 7) != (10, 7, Src.ACTION, "", ())


def test_a_die_cannot_change_after_the_roll():
    die = Die(10, 7)
    with pytest.raises(dataclasses.FrozenInstanceError):
        die.face = 10  # type: ignore[misc]
    with pytest.raises((AttributeError, TypeError)):
        die.bonus = 1  # type: ignore[attr-defined]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del die.face
    assert die.face == 7


def test_a_changed_copy_is_validated_like_a_new_die():
    die = Die(10, 7, Src.BACKGROUND, "Sailor")
    assert dataclasses.replace(die, face=9) == Die(10, 9, Src.BACKGROUND, "Sailor")
    assert die.rerolled(3) == Die(10, 3, Src.BACKGROUND, "Sailor", (7,))
    assert die.face == 7
    with pytest.raises(FaceError):
        dataclasses.replace(die, face=11)
    with pytest.raises(FaceError, match="cannot show on a d10"):
        Die(10, 11)


def test_settings_survive_copy_and_pickle():
    s = Settings(raja_story_points=5)
    assert pickle.loads(pickle.dumps(s)) == s
    assert copy.deepcopy(Die(8, 3)) == Die(8, 3)
    assert copy.copy(s) == s
    assert Settings(raja_story_points=5) != Settings()


def test_a_die_reads_like_its_value():
    assert repr(Die(10, 7)) == "Die(size=10, face=7, source=<Src.ACTION: 'action'>, label='', replaced=())"
    match Die(8, 5):
        case Die(size, face):
            assert (size, face) == (8, 5)
        case _:
            pytest.fail("a die matches positionally on its fields")


def test_a_d10_face_typed_as_0_is_10_and_a_0_on_any_other_die_is_refused_in_one_line():
    """Many physical d10s print 0 for 10: typed faces read it so (only on a d10)."""
    from polku.rules.dice import parse_faces, parse_sized_faces, typed_face

    assert [(d.face, d.is_ability) for d in parse_faces("0,7,0*", 10, allow_ability=True)] == [
        (10, False), (7, False), (10, True)]
    assert [d.face for d in parse_sized_faces("d10:0,8:7")] == [10, 7]
    assert typed_face(0, 10) == 10 and typed_face(0, 8) == 0 and typed_face(7, 10) == 7
    for size in (6, 8):
        with pytest.raises(FaceError) as exc:
            parse_faces("5,0", size)
        assert str(exc.value) == f"face 0 cannot show on a d{size} (1–{size}; only a d10's 0 means 10)"
