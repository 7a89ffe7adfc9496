"""What the tracker's command families see of the tracker: its error, the transaction a
command builds, and the few tracker members a family uses.

The families (:class:`~polku.session.rolls.Rolls`, …) are parts of the
:class:`~polku.session.tracker.Tracker` (composition): the tracker makes them
and hands itself in as a :class:`RollHost`. Declaring the host here, below
both, keeps the import graph a tree: ``tracker`` imports ``rolls``, and
``rolls`` never imports ``tracker``.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Protocol

from ..rules.dice import DiceSource
from ..rules.system import Settings, System
from .model import State


class TrackerError(ValueError):
    """A command that cannot be carried out: one line, nothing changed."""


class Txn(Protocol):
    """One command's changes, built inside :meth:`Tracker._run` and undone as one."""

    def set(self, path: list[Any], value: Any) -> None: ...

    def delete(self, path: list[Any]) -> None: ...

    def insert(self, path: list[Any], index: int, value: Any) -> None: ...

    def emit(self, kind: str, text: str, **data: Any) -> dict[str, Any]: ...


class RollHost(Protocol):
    """The tracker as the roll commands use it."""

    state: State
    events: Any
    _recent: dict[int, Any]
    combat: Any
    """The fight (:class:`polku.session.combat.Combat`): the initiative roll and a pool's effect rows."""

    @property
    def settings(self) -> Settings: ...

    @property
    def characters(self) -> dict[str, dict[str, Any]]: ...

    def character(self, cid: str) -> dict[str, Any]: ...

    def challenge(self, chid: str) -> dict[str, Any]: ...

    def challenge_index(self, chid: str) -> int: ...

    def resolve_challenge(self, chid: str, outcome: str, txn: Any = None) -> None: ...

    def use_edge_reroll(self, cid: str, edge: str, txn: Any = None) -> None: ...

    def wound_penalty(self, cid: str) -> int: ...

    def is_undone(self, seq: int) -> bool: ...

    def _run(self, build: Callable[[Any], Any]) -> list[dict[str, Any]]: ...

    def program_source(self) -> tuple[DiceSource, dict[str, Any]]: ...

    def gm_only(self, on: bool = True) -> AbstractContextManager[None]: ...

    def _new_id(self, txn: Any, prefix: str) -> str: ...


class TableHost(Protocol):
    """The tracker as the damage and roster commands use it (:mod:`polku.session.damage`,
    :mod:`polku.session.roster`)."""

    state: State
    events: Any
    @property
    def rolls(self) -> Any:
        """The tracker's :class:`~polku.session.rolls.Rolls` (its dice sources and roll events)."""

    @property
    def system(self) -> System: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def characters(self) -> dict[str, dict[str, Any]]: ...

    def character(self, cid: str) -> dict[str, Any]: ...

    def challenge(self, chid: str) -> dict[str, Any]: ...

    def condition_monitor(self, cid: str, track: str) -> int: ...

    def is_undone(self, seq: int) -> bool: ...

    def _run(self, build: Callable[[Any], Any]) -> list[dict[str, Any]]: ...

    def _remove_character_in(self, txn: Any, cid: str) -> None: ...
