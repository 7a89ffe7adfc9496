"""``@record``, the rules core's immutable value classes (polku.rules.record).

The rules depend on these behaving like frozen dataclasses: a rolled die can
never change after the fact, equal rolls compare equal, and a changed copy is
validated like a new value."""

from __future__ import annotations

import copy
import pickle

import pytest

from polku.rules.dice import Die, FaceError, Src
from polku.rules.record import FrozenRecordError, factory, fields, record, replace
from polku.rules.system import Settings


@record
class Point:
    x: int
    y: int = 0
    tags: tuple[str, ...] = ()


@record
class Bag:
    items: list = factory(list)


@record
class Point3(Point):
    z: int = 0


def test_fields_in_order_with_defaults():
    p = Point(1)
    assert (p.x, p.y, p.tags) == (1, 0, ())
    assert fields(Point) == ("x", "y", "tags")
    assert fields(p) == ("x", "y", "tags")
    assert Point(1, 2) == Point(x=1, y=2)


def test_value_equality_and_hash():
    assert Point(1, 2) == Point(1, 2)
    assert Point(1, 2) != Point(2, 1)
    assert hash(Point(1, 2)) == hash(Point(1, 2))
    assert len({Point(1, 2), Point(1, 2), Point(1, 3)}) == 2
    # a different record type with the same values is not equal
    assert Point3(1, 2) != Point(1, 2)
    assert Point(1) != (1, 0, ())


def test_a_die_cannot_change_after_the_roll():
    die = Die(10, 7)
    with pytest.raises(FrozenRecordError, match="face"):
        die.face = 10
    with pytest.raises(AttributeError):
        die.bonus = 1  # no new attributes either (slots)
    with pytest.raises(FrozenRecordError):
        del die.face
    assert die.face == 7


def test_replace_validates_like_a_new_value():
    die = Die(10, 7, Src.BACKGROUND, "Sailor")
    assert replace(die, face=9) == Die(10, 9, Src.BACKGROUND, "Sailor")
    assert die.face == 7
    with pytest.raises(FaceError):
        replace(die, face=11)  # __post_init__ runs again
    with pytest.raises(TypeError, match="no field 'colour'"):
        replace(die, colour="red")
    with pytest.raises(TypeError):
        fields(object())


def test_post_init_rejects_a_bad_face_at_construction():
    with pytest.raises(FaceError, match="cannot show on a d10"):
        Die(10, 11)


def test_missing_and_unknown_arguments_are_type_errors():
    with pytest.raises(TypeError):
        Point()
    with pytest.raises(TypeError):
        Point(1, w=2)


def test_factory_default_is_fresh_per_instance():
    a, b = Bag(), Bag()
    assert a.items == [] and a.items is not b.items
    given = [1]
    assert Bag(given).items is given


def test_inherited_fields_come_first():
    p = Point3(1, 2, ("a",), 3)
    assert fields(Point3) == ("x", "y", "tags", "z")
    assert (p.x, p.y, p.tags, p.z) == (1, 2, ("a",), 3)
    assert repr(p) == "Point3(x=1, y=2, tags=('a',), z=3)"


def test_a_field_without_default_after_one_with_is_refused():
    with pytest.raises(TypeError, match="without a default"):
        @record
        class Bad:
            a: int = 1
            b: int


def test_copy_pickle_and_match():
    s = Settings(raja_story_points=5)
    assert pickle.loads(pickle.dumps(s)) == s
    assert copy.deepcopy(Die(8, 3)) == Die(8, 3)
    assert copy.copy(s) == s
    match Point(4, 5):
        case Point(x, y):
            assert (x, y) == (4, 5)
        case _:
            pytest.fail("a record matches positionally on its fields")
