"""A roll's explanation as facts: each line a step (its kind and values), worded in any language.

The rules core explains a result in lines (``SRRoll.explain()``…). Each line is a :class:`Line`: the English
text itself (a ``str``, as the command line prints it and the session file stores it) that also keeps the
**step** it was worded from, ``{"id": "sr.hits", "faces": [6, 5], "n": 2}``: language-neutral values (numbers,
rule ids, outcomes as values, labels as typed). The session file keeps the steps beside the lines, and
:mod:`polku.session.telling` words them again in the reader's language.

Each step kind has one sayer (:func:`says`), a function of a speaker ``t`` and the step: ``t._`` and
``t.ngettext`` are :mod:`polku.i18n`'s (the language in use) or :data:`polku.i18n.ENGLISH`'s (English always),
so one function words the line both ways and the English line is always what the reader's English is.
A value may itself be a step (a verdict inside a line), worded by its own sayer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Protocol, Required, TypedDict, cast

from ..i18n import ENGLISH


class Speaker(Protocol):
    def _(self, message: str, /, **values: object) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /, **values: object) -> str: ...


class Step(TypedDict, total=False):
    """A step's values as its sayer reads them: the step kind (``id``) and, by name, each value a kind has (one
    type per name across kinds: a count is an int, faces a list of ints, a label a str; ``object`` where a
    sayer only words the value). A step read back from a file is taken as this shape at :func:`say`; a value of
    another kind fails its sayer (KeyError, TypeError, ValueError), which the reader catches."""

    id: Required[str]
    a: list[object]
    a_charges: int
    a_die: object
    a_face: int
    a_hits: int
    a_positions: int
    a_total: int
    ability_fight: bool
    accumulated: int
    armour_now: int
    attribute: str
    b: list[object]
    b_charges: int
    b_die: object
    b_face: int
    b_hits: int
    b_positions: int
    b_total: int
    background: object
    base: list["Step"]
    base_dv: int
    beyond: str
    boxes: int
    burned: list[int]
    chains: list[list[int]]
    classic: bool
    conflict: str
    count: int
    counted: int | str
    degrees: int
    die: object
    dv: int
    edge: int
    ended_by_gm: bool
    exchanges: int
    face: int
    faces: list[int]
    gm: list[int]
    harm_die: int
    has: object
    helpers: int
    hidden: bool
    high: int
    hits: int
    holds: bool
    hurried: bool
    index: int
    intervals: int
    label: str
    letter: str
    level: str
    line: "Step"
    modifier: int
    mods: list["Step"]
    n: int
    name: object
    narrator: object
    narrow: bool
    needed: int
    net_hits: int
    new: list[int]
    no_feature: bool
    not_counted: bool
    old: list[int]
    ones: int
    other: object
    other_side: bool
    outcome: str
    over: bool
    overflow_before: int
    overflow_now: int
    owner: object
    part: object
    penalty: int
    physical_before: int
    physical_max: int
    physical_now: int
    pool_size: int
    position: int
    removed: list["Step"]
    resist_hits: int
    result: str
    roll: int
    rule: str
    side: str
    size: int
    skill: str
    source: str
    state: str
    status: str
    stun_before: int
    stun_max: int
    stun_now: int
    success: bool
    supernatural: int
    threshold: int
    tier: str
    top: int
    total: int
    track: str
    usurper_total: int
    verdict: object
    when: str
    who: object
    win: object
    winner: str


Value = object
"""A value given to :func:`line`: a number, a word, a list of them, or a :class:`Line` (kept as its step)."""

Sayer = Callable[[Speaker, Step], str]

SAYERS: dict[str, Sayer] = {}
"""The sayer of each step kind (``step["id"]``)."""


class Line(str):
    """One explanation line: its English text, and the step it was worded from (``.step``)."""

    step: Step


def says(step_id: str) -> Callable[[Sayer], Sayer]:
    def register(fn: Sayer) -> Sayer:
        SAYERS[step_id] = fn
        return fn
    return register


def _value(v: object) -> object:
    if isinstance(v, Line):
        return v.step
    if isinstance(v, (list, tuple)):
        return [_value(x) for x in v]
    return v


def line(step_id: str, **values: Value) -> Line:
    """The line of a step: its English words, keeping the step (a :class:`Line` among the values: its step)."""
    step = cast(Step, {"id": step_id, **{k: _value(v) for k, v in values.items()}})
    out = Line(say(ENGLISH, step))
    out.step = step
    return out


def say(t: Speaker, step: Mapping[str, object]) -> str:
    """A step in the words of speaker ``t`` (``polku.i18n`` or ``polku.i18n.ENGLISH``); a step read back (any
    mapping) is taken as the :class:`Step` its sayer reads."""
    return SAYERS[str(step["id"])](t, cast(Step, step))


def step_of(text: object) -> Step | None:
    """The step a line was worded from, or None (a plain line: typed, or not a step yet)."""
    return getattr(text, "step", None) if isinstance(text, Line) else None


def faces(t: Speaker, values: Iterable[object], sep: str = ",") -> str:
    """Faces as ``6,5,1``, or "none"."""
    text = sep.join(str(f) for f in values)
    return text or t._("none")


def dice(t: Speaker, n: int) -> str:
    """``1 die``, ``4 dice``."""
    return t.ngettext("{n} die", "{n} dice", int(n))


def signed(n: int) -> str:
    return f"+ {n}" if n >= 0 else f"− {-n}"


__all__ = ["Line", "SAYERS", "Speaker", "Step", "dice", "faces", "line", "say", "says", "signed", "step_of"]
