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

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from ..i18n import ENGLISH


class Speaker(Protocol):
    def _(self, message: str, /, **values: object) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /, **values: object) -> str: ...


Step = Mapping[str, Any]
Sayer = Callable[[Speaker, Step], str]

SAYERS: dict[str, Sayer] = {}
"""The sayer of each step kind (``step["id"]``)."""


class Line(str):
    """One explanation line: its English text, and the step it was worded from (``.step``)."""

    step: dict[str, Any]


def says(step_id: str) -> Callable[[Sayer], Sayer]:
    def register(fn: Sayer) -> Sayer:
        SAYERS[step_id] = fn
        return fn
    return register


def _value(v: Any) -> Any:
    if isinstance(v, Line):
        return v.step
    if isinstance(v, (list, tuple)):
        return [_value(x) for x in v]
    return v


def line(step_id: str, **values: Any) -> Line:
    """The line of a step: its English words, keeping the step (a :class:`Line` among the values: its step)."""
    step = {"id": step_id, **{k: _value(v) for k, v in values.items()}}
    out = Line(say(ENGLISH, step))
    out.step = step
    return out


def say(t: Speaker, step: Step) -> str:
    """A step in the words of speaker ``t`` (``polku.i18n`` or ``polku.i18n.ENGLISH``)."""
    return SAYERS[str(step["id"])](t, step)


def step_of(text: object) -> dict[str, Any] | None:
    """The step a line was worded from, or None (a plain line: typed, or not a step yet)."""
    return getattr(text, "step", None) if isinstance(text, Line) else None


def faces(t: Speaker, values: Any, sep: str = ",") -> str:
    """Faces as ``6,5,1``, or "none"."""
    text = sep.join(str(f) for f in values)
    return text or t._("none")


def dice(t: Speaker, n: int) -> str:
    """``1 die``, ``4 dice``."""
    return t.ngettext("{n} die", "{n} dice", int(n))


def signed(n: int) -> str:
    return f"+ {n}" if n >= 0 else f"− {-n}"


__all__ = ["Line", "SAYERS", "Speaker", "Step", "dice", "faces", "line", "say", "says", "signed", "step_of"]
