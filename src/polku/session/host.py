"""What the tracker's command families see of the tracker: its error, the transaction a
command builds, and the few tracker members a family uses.

The families (:class:`~polku.session.rolls.Rolls`, …) are parts of the
:class:`~polku.session.tracker.Tracker` (composition): the tracker makes them
and hands itself in as a :class:`RollHost` or a :class:`TableHost` (both a
:class:`CommandHost`, what every family uses). Declaring the host here, below
both, keeps the import graph a tree: ``tracker`` imports ``rolls``, and
``rolls`` never imports ``tracker``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from ..rules.dice import DiceSource
from ..rules.system import Settings, System
from .model import Challenge, Event, State


class TrackerError(ValueError):
    """A command that cannot be carried out: one line, nothing changed."""


class Txn(Protocol):
    """One command's changes, built inside :meth:`Tracker._run` and undone as one."""

    def set(self, path: list[Any], value: Any) -> None: ...

    def delete(self, path: list[Any]) -> None: ...

    def insert(self, path: list[Any], index: int, value: Any) -> None: ...

    def emit(self, kind: str, text: str, **data: Any) -> Event: ...


class CommandHost(Protocol):
    """What every command family uses of the tracker: the state and the log, the campaign's
    settings and characters, and :meth:`_run`, which makes a command of a ``build(txn)``."""

    state: State
    events: Sequence[Event]

    @property
    def settings(self) -> Settings: ...

    @property
    def characters(self) -> dict[str, dict[str, Any]]: ...

    def character(self, cid: str) -> dict[str, Any]: ...

    def challenge(self, chid: str) -> Challenge: ...

    def is_undone(self, seq: int) -> bool: ...

    def _run(self, build: Callable[[Any], Any]) -> list[Event]: ...


class RollHost(CommandHost, Protocol):
    """The tracker as the roll commands use it."""

    _recent: dict[int, Any]
    combat: Any
    """The fight (:class:`polku.session.table.combat.Combat`): the initiative roll and a pool's effect rows."""

    def challenge_index(self, chid: str) -> int: ...

    def resolve_challenge(self, chid: str, outcome: str, txn: Any = None) -> None: ...

    def use_edge_reroll(self, cid: str, edge: str, txn: Any = None) -> None: ...

    def wound_penalty(self, cid: str) -> int: ...

    def program_source(self) -> tuple[DiceSource, dict[str, Any]]: ...

    def gm_only(self, on: bool = True) -> AbstractContextManager[None]: ...

    def _new_id(self, txn: Any, prefix: str) -> str: ...


class TableHost(CommandHost, Protocol):
    """The tracker as the damage and roster commands use it (:mod:`polku.session.table.damage`,
    :mod:`polku.session.table.roster`)."""

    _recent: dict[int, Any]
    """Rolls of this sitting that Edge may still change (a damage resistance roll's record)."""

    @property
    def rolls(self) -> Any:
        """The tracker's :class:`~polku.session.rolls.Rolls` (its dice sources and roll events)."""

    @property
    def system(self) -> System: ...

    @property
    def damage(self) -> Any:
        """The tracker's :class:`~polku.session.table.damage.Damage` (a character's condition: can they act)."""

    def condition_monitor(self, cid: str, track: str) -> int: ...

    def _remove_character_in(self, txn: Any, cid: str) -> None: ...

    def gm_only(self, on: bool = True) -> AbstractContextManager[None]: ...
