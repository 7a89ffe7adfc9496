"""Commands with names: what a screen asks the tracker to do, as a value.

A screen does not hand the app a closure; it posts a :class:`Command`: the name
of one tracker call (``"rolls.roll_raja"``, ``"combat.next"``, ``"undo"``) and its
arguments. The app runs every command through one handler (``tui/app.py``), which
calls :meth:`Command.run`. So a test (Textual's ``message_hook``), a log line or
an error report can say which command a screen asked for and with what.

A name is either a tracker method, reached by its dotted path from the tracker
(:data:`TRACKER_COMMANDS`), or one of a few session functions that take the
tracker first (:data:`FUNCTIONS`: a seat's roll request, reading another file).
A name outside both is a programming error, refused when the command is made.

In the layers of ``session/`` this module is on top (``commands``, above the players'
side and the review): it names what the front ends may ask of every part below.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypedDict, cast

if TYPE_CHECKING:
    from .importers import Imported
    from .model import Character, Event
    from .rolls import SRPool, SRSide
    from .tracker import Tracker

TRACKER_COMMANDS: frozenset[str] = frozenset({
    # the campaign and its log
    "undo", "redo", "note", "new_scene", "new_session", "new_story", "new_dice_secret", "set_setting",
    # challenges
    "add_challenge", "start_challenge", "remove_challenge", "move_challenge",
    # characters
    "add_character", "remove_character", "update_character", "set_health", "set_wound", "move_wound",
    "set_condition", "use_ability", "spend_charges", "restore_charges", "award_story_point",
    "spend_story_point", "spend_edge",
    # combat (S13-S15)
    "combat.next", "combat.delay", "combat.step_in", "combat.end", "combat.add_effect", "combat.remove_effect",
    "combat.set_initiative", "combat.remove_initiative",
    # the roster, templates, gear and saved pools
    "roster.save_template", "roster.add_from_template", "roster.remove_template", "roster.remove_fallen",
    "roster.copy_characters", "roster.add_imported", "roster.set_group_initiative", "roster.save_pool",
    "roster.remove_pool", "roster.set_armour", "roster.set_weapon", "roster.remove_weapon",
    # rolls
    "rolls.roll_raja", "rolls.roll_spirit", "rolls.end_spirit_fight", "rolls.roll_harha",
    "rolls.roll_harha_difficult", "rolls.harha_edge_reroll", "rolls.roll_sr", "rolls.roll_sr_opposed",
    "rolls.roll_sr_teamwork", "rolls.roll_sr_extended", "rolls.sr_extended_spoil", "rolls.sr_post_roll",
    "rolls.roll_initiative",
    "rolls.narration_open", "rolls.narration_usurp", "rolls.narration_roll_background",
    "rolls.narration_edge_reroll", "rolls.narration_harm", "rolls.narration_conflict",
    # damage (S12, H9)
    "damage.apply", "damage.post_roll", "damage.apply_harm",
})
"""Tracker methods a screen may ask for, by their dotted path from the tracker."""

FUNCTIONS: frozenset[str] = frozenset({
    "seats.ask_raja", "seats.ask_harha", "seats.ask_sr", "seats.answer", "seats.withdraw", "seat_rolls.answer",
    "seat_rolls.ask_defence",
    "read_characters", "read_chummer", "set_maximum", "sr_extended_interval",
})
"""Session functions a screen may ask for, each called with the tracker first: the players' seats'
(``players/seats.py``; a seat's own rolls and defences, ``players/seat_rolls.py``) and this module's own (below)."""


def function(name: str) -> Callable[..., object]:
    """The session function named ``name`` in :data:`FUNCTIONS` (the seats' module is imported when
    first asked for: starting the app does without it)."""
    if name not in FUNCTIONS:
        raise ValueError(f"no session function named {name!r}")
    if name.startswith("seats."):
        from .players import seats

        found: Callable[..., object] = getattr(seats, name.removeprefix("seats."))
        return found
    if name.startswith("seat_rolls."):
        from .players import seat_rolls

        own_roll: Callable[..., object] = getattr(seat_rolls, name.removeprefix("seat_rolls."))
        return own_roll
    own: Callable[..., object] = globals()[name]
    return own


_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 80


@dataclass(frozen=True, slots=True, eq=False)
class Command:
    """One named tracker call and its arguments; :meth:`run` makes it.

    ``gm_only``: the command runs as the GM's only (``Tracker.gm_only``): every
    event it logs is secret.
    """

    name: str
    args: tuple[object, ...] = ()
    kwargs: Mapping[str, object] = field(default_factory=dict)
    gm_only: bool = False

    def __post_init__(self) -> None:
        if self.name not in TRACKER_COMMANDS and self.name not in FUNCTIONS:
            raise ValueError(f"no command named {self.name!r}")

    def run(self, tracker: Tracker) -> object:
        """Make the call on ``tracker``; what it returns, or raises, is the call's own."""
        if self.gm_only:
            with tracker.gm_only():
                return self._call(tracker)
        return self._call(tracker)

    def _call(self, tracker: Tracker) -> object:
        if self.name in FUNCTIONS:
            return function(self.name)(tracker, *self.args, **self.kwargs)
        target: object = tracker
        for part in self.name.split("."):
            target = getattr(target, part)
        if not callable(target):
            raise TypeError(f"{self.name} is not a command")
        return target(*self.args, **self.kwargs)

    def __repr__(self) -> str:
        # reprlib: an argument as long as an event reads as its start, so a log line stays one line
        parts = [_SHORT.repr(a) for a in self.args] + [f"{k}={_SHORT.repr(v)}" for k, v in self.kwargs.items()]
        return f"{self.name}({', '.join(parts)})" + (" [GM only]" if self.gm_only else "")


def command(name: str, /, *args: object, gm_only: bool = False, **kwargs: object) -> Command:
    """``command("set_condition", cid, "stun", 3)``: the :class:`Command` calling ``tracker.set_condition(cid, "stun", 3)``."""
    return Command(name, args, kwargs, gm_only=gm_only)


# --------------------------------------------------------------------------- the functions


def read_characters(t: Tracker, path: str) -> tuple[list[Character], list[Character]]:
    """The characters and templates of another session file, for this campaign's system (nothing changes)."""
    from .copying import read_characters as read

    return read(path, t.system)


def read_chummer(t: Tracker, path: str) -> Imported:
    """A Chummer 4 file read for import (nothing changes)."""
    from .importers.chummer import read_chummer as read

    return read(path)


def set_maximum(t: Tracker, cid: str, key: str, most_key: str, n: int) -> None:
    """A new maximum (charges, Edge rating): what is left now (``key``) comes down to it if it was above."""
    if cast("dict[str, int]", t.characters[cid])[key] > n:
        t.update_character(cid, key, n)
    t.update_character(cid, most_key, n)


class ExtendedRolled(TypedDict):
    """An interval of an extended test (:func:`sr_extended_interval`): the roll's event and its challenge."""

    event: Event
    challenge: str


def sr_extended_interval(t: Tracker, side: SRSide, challenge: str | None, title: str, *, threshold: int | None = None,
                         hurried: bool | None = None, interval: str = "interval", faces: Sequence[int] | None = None,
                         pool: SRPool | None = None) -> ExtendedRolled:
    """One interval of an extended test (S10); without a ``challenge`` yet, one titled ``title`` is
    added first to keep the test's progress. The result names the challenge (``challenge``)."""
    if challenge is None:
        challenge = str(t.add_challenge(title)["id"])
    return {"event": t.rolls.roll_sr_extended(side, challenge, threshold=threshold, hurried=hurried,
                                                      interval=interval, faces=faces, pool=pool)["event"], "challenge": challenge}
