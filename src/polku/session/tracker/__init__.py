"""The tracker: the one place where campaign state changes.

A command goes in; the state changes; one or more events come out and are
appended to the log. Every event carries its *changes* (``path``, ``before``,
``after``), so:

- undo is a new ``undo`` event whose changes are the inverse of the undone
  command's (the undone events stay in the log, marked undone);
- redo is a ``redo`` event repeating the changes;
- loading a file replays the changes of the events newer than its snapshot.

The tracker never touches a file: it keeps the events not yet saved, and
:mod:`polku.session.files` writes them.

The tracker is a package: :mod:`.base` (the state, the log, ``run``, undo, redo, the program's
dice), :mod:`.sheets` (the commands on characters) and :mod:`.structure` (scenes, sessions,
settings, challenges, initiative); :class:`Tracker` joins the two parts of commands and makes the
command families (composition: each sees the tracker through :mod:`polku.session.host`).
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Iterable, cast

from ...rules.system import Settings, System
from .. import fairdice, model
from ..host import TrackerError as TrackerError  # re-exported: callers import it from here
from ..model import Event, State
from ..store import EventLog
from ..table.attack import Attacks
from ..table.combat import Combat
from ..table.damage import Damage
from ..table.roster import Roster
from .base import NEVER_UNDONE as NEVER_UNDONE
from .base import UNDOABLE_EXCLUDED as UNDOABLE_EXCLUDED
from .base import Clock as Clock
from .base import _dice_key
from .base import utc_now as utc_now
from .sheets import SheetCommands
from .structure import StructureCommands

if TYPE_CHECKING:
    from ..rolls import Rolls


class Tracker(SheetCommands, StructureCommands):
    """Campaign state plus its event log, changed only by commands.

    Args:
        state: the campaign state (see :mod:`polku.session.model`).
        events: the log so far (already reflected in ``state``).
        clock: returns the ISO time for new events (injected for tests).
        seed: reproducible program dice for tests and ``--seed``: while the state
            holds no dice secret, each roll's seed is the next 32 bits of
            ``random.Random(seed)`` (not verifiable, and guessable). Otherwise
            every program roll's seed is derived from the game session's dice
            secret and the roll's number (:mod:`polku.session.fairdice`), so seen
            seeds never predict the next roll; a file's secret wins over ``seed``.
        read_only: refuse every command (review, a second process).
    """


    def __init__(self, state: State, events: Iterable[Event] = (), *,
                 clock: Clock | None = None, seed: int | None = None, read_only: bool = False) -> None:
        super().__init__(state, events, clock=clock, seed=seed, read_only=read_only)
        self.damage = Damage(self)
        """Damage from a roll and harm proposals (:mod:`polku.session.table.damage`)."""
        self.roster = Roster(self)
        """NPC templates, groups, copied characters, saved pools (:mod:`polku.session.table.roster`)."""
        self.combat = Combat(self)
        """The fight: turn order, the marker, effects (:mod:`polku.session.table.combat`)."""
        self.attacks = Attacks(self)
        """Who attacks with what, and the defender's pool (:mod:`polku.session.table.attack`)."""

    # -- construction ----------------------------------------------------

    @classmethod
    def new(cls, system: System | str, name: str, *, settings: Settings | None = None,
            wound_track: Iterable[str] | None = None, clock: Clock | None = None,
            seed: int | None = None) -> "Tracker":
        clock = clock or utc_now
        state = model.new_state(system, name, created=clock(), settings=settings, wound_track=wound_track)
        if seed is None:
            # The first session's dice secret is part of the new campaign, so its
            # commitment is in the file before anything else happens.
            state["dice"] = _dice_key(fairdice.new_secret(), 1, 1, {})
        t = cls(state, clock=clock, seed=seed)
        t.needs_full_save = True
        return t

    @classmethod
    def replay(cls, snapshot: object, snapshot_seq: int, events: list[object] | EventLog, *,
               clock: Clock | None = None, seed: int | None = None, read_only: bool = False) -> "Tracker":
        """Rebuild from a saved snapshot plus the events newer than it (every block,
        the numbering and each replayed change checked: :mod:`polku.session.integrity`)."""
        from ..integrity import replay_state

        state = replay_state(snapshot, snapshot_seq, events)
        # replay_state has checked every block of a list (an EventLog checks each when it is read).
        return cls(state, events if isinstance(events, EventLog) else cast("list[Event]", events),
                   clock=clock, seed=seed, read_only=read_only)

    @classmethod
    def snapshot_of(cls, state: State, events: list[Event] | EventLog, undone: Iterable[int]) -> "Tracker":
        """A read-only tracker over a copy of a state and of a log, for a reader in another thread
        (the players' file): which events are undone is given, not worked out from the log again."""
        t = cls(state, [], read_only=True)
        t.events = events
        t.undone = set(undone)
        return t

    @cached_property
    def rolls(self) -> Rolls:
        """The roll commands (:class:`~polku.session.rolls.Rolls`), made on first use.

        Imported here, not at the top: the roll commands and the three rules
        modules they use cost ~15 ms to import (their frozen dataclasses), about
        7% of the app's first frame, which needs none of them.
        """
        from ..rolls import Rolls

        return Rolls(self)

