"""What the tracker's command families see of the tracker: its error, the transaction a
command builds, and the few tracker members a family uses.

The families (:class:`~polku.session.rolls.Rolls`, …) are parts of the
:class:`~polku.session.tracker.Tracker` (composition): the tracker makes them
and hands itself in as a :class:`RollHost` or a :class:`TableHost` (both a
:class:`CommandHost`, what every family uses). Declaring the host here, below
both, keeps the import graph a tree: ``tracker`` imports ``rolls``, and
``rolls`` never imports ``tracker``.

Every member is public: a family calls what the protocol names, and a transaction is always
explicit. :meth:`CommandHost.run` makes a command of a ``build(txn)``; a member that changes
state inside a family's command takes that command's ``txn`` and ends in ``_in``
(:meth:`RollHost.resolve_challenge_in`), never an optional ``txn`` that either joins a
command or starts one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Protocol, TypedDict

from ..i18n import told_error
from ..rules.dice import DiceSource
from ..rules.system import Settings, System
from .model import Challenge, Character, Event, State


class TrackerError(ValueError):
    """A command that cannot be carried out: one line, nothing changed.

    Raised with an :func:`polku.i18n.said` line (or a message marked ``N_`` alone), it is shown in the
    language in use wherever it is read (``str(e)``: the GM's app, the command line), and a seat is sent its
    words to tell in the player's own language (``seats.reason_of``)."""

    def __str__(self) -> str:
        return told_error(self)


class Txn(Protocol):
    """One command's changes, built inside :meth:`Tracker.run` and undone as one."""

    def set(self, path: Sequence[str | int], value: object) -> None: ...

    def delete(self, path: Sequence[str | int]) -> None: ...

    def insert(self, path: Sequence[str | int], index: int, value: object) -> None: ...

    def emit(self, kind: str, text: str, **data: object) -> Event: ...


class CommandHost(Protocol):
    """What every command family uses of the tracker: the state and the log, the campaign's
    settings and characters, and :meth:`run`, which makes a command of a ``build(txn)``."""

    state: State
    @property
    def events(self) -> Sequence[Event]: ...

    recent: dict[int, object]
    """Rolls of this sitting that Edge may still change, by the seq of their event (never saved)."""

    @property
    def settings(self) -> Settings: ...

    @property
    def characters(self) -> dict[str, Character]: ...

    def character(self, cid: str) -> Character: ...

    def challenge(self, chid: str) -> Challenge: ...

    def is_undone(self, seq: int) -> bool: ...

    def run(self, build: Callable[[Txn], object]) -> list[Event]:
        """Run ``build`` as one command: all of it or, if it raises, nothing; one undo reverts it."""
        ...

    def gm_only(self, on: bool = True) -> AbstractContextManager[None]: ...


class InitiativeRolled(TypedDict):
    """What an initiative roll returns (:meth:`polku.session.table.combat.Combat.roll_initiative`): its event."""

    event: Event


class CombatView(Protocol):
    """What the roll commands use of the fight (:class:`polku.session.table.combat.Combat`)."""

    def effect_modifiers(self, cid: str) -> list[tuple[str, int]]: ...

    def roll_initiative(self, entries: Sequence[tuple[str, int]], *,
                        faces: Sequence[int] | None = None, edge: Sequence[str] = (),
                        surprised: Sequence[str] = (), kinds: Mapping[str, str] | None = None) -> InitiativeRolled: ...


class RollHost(CommandHost, Protocol):
    """The tracker as the roll commands use it."""

    @property
    def combat(self) -> CombatView:
        """The fight: the initiative roll and a pool's effect rows."""
        ...

    def challenge_index(self, chid: str) -> int: ...

    def resolve_challenge_in(self, txn: Txn, chid: str, outcome: str,
                             fact: dict[str, object] | None = None) -> None: ...

    def use_edge_reroll_in(self, txn: Txn, cid: str, edge: str) -> None: ...

    def wound_penalty(self, cid: str) -> int: ...

    def program_source(self) -> tuple[DiceSource, dict[str, object]]: ...

    def new_id(self, txn: Txn, prefix: str) -> str: ...


class TableRolls(Protocol):
    """What the damage and combat commands use of the rolls (:class:`polku.session.rolls.Rolls`): the dice
    a roll is thrown with, its event, Edge spent on it."""

    def dice_source(self, faces: Sequence[int] | None) -> tuple[DiceSource, dict[str, object]]: ...

    def check_faces_used(self, source: DiceSource) -> None: ...

    def emit_roll(self, txn: Txn, test: str, sides: list[dict[str, object]], summary: str,
                  outcome: dict[str, object], explain: list[str], origin: dict[str, object],
                  challenge: str | None, text: str, resolved_with: Settings | None = None,
                  fact: dict[str, object] | None = None, **extra: object) -> Event: ...

    def spend_edge_in(self, txn: Txn, cid: str, reason: str, why: str = "", dice: int = 0) -> None: ...

    def latest_roll_seq(self) -> int | None: ...


class FightView(Protocol):
    """What the attack defaults use of the fight: is one on, who acts."""

    @property
    def active(self) -> bool: ...

    def acting(self) -> str | None: ...


class LinkedAttributes(Protocol):
    """What the attack defaults use of the rolls: a skill's linked attribute (S1)."""

    def sr_linked_attribute(self, skill: str, current: str, who: str = "") -> str: ...


class AttackHost(CommandHost, Protocol):
    """The tracker as the attack and defence defaults use it (:mod:`polku.session.table.attack`)."""

    @property
    def combat(self) -> FightView: ...

    @property
    def rolls(self) -> LinkedAttributes: ...


class ConditionView(Protocol):
    """What the roster uses of the damage commands (:class:`polku.session.table.damage.Damage`)."""

    def condition_text(self, cid: str) -> str: ...


class TableHost(CommandHost, Protocol):
    """The tracker as the damage and roster commands use it (:mod:`polku.session.table.damage`,
    :mod:`polku.session.table.roster`)."""

    @property
    def rolls(self) -> TableRolls: ...

    @property
    def system(self) -> System: ...

    @property
    def damage(self) -> ConditionView:
        """A character's condition: can they act."""
        ...

    def condition_monitor(self, cid: str, track: str) -> int: ...

    def remove_character_in(self, txn: Txn, cid: str) -> None: ...


class CombatHost(TableHost, Protocol):
    """The tracker as the fight's commands use it (:mod:`polku.session.table.combat`): out of a fight,
    "next" starts the next challenge of the queue."""

    def start_challenge(self, chid: str) -> None: ...
