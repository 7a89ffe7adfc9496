"""Roll commands of the tracker, one module per system (``tracker.rolls``).

Each command builds pools with the rules core, rolls them with the program's
dice (a fresh seed per roll, recorded) or with faces the GM entered from
physical dice, resolves, and appends one ``roll`` event whose ``roll`` table
keeps every die (size, face, source, what a reroll replaced), the outcome's
numbers and the explanation (docs/rules.md, shared terms). Resources the roll spends (ability
charges, Edge, an edge reroll, spirit-combat charges) change in the same
command, so one undo reverts all of it.

``common`` is what the systems share (the dice, the event, the kept settings, :class:`RollAction`);
``rajapolku``, ``harhapolku``, ``shadowrun`` and ``shadowrun_extended`` are each system's commands, a
class over ``common.RollsBase`` that never calls another system's. :class:`Rolls` is their union, one
object on the tracker, so a caller asks ``tracker.rolls.roll_raja(...)`` without knowing which module
holds it; what may follow a roll is answered by the system of that roll through the tables each system
fills (``actions_of``, ``doers``), not by comparing test names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .common import RollAction, die_dict, die_from, settings_text
from .harhapolku import HarhaRolls, HarhaSide
from .rajapolku import RajaRolls, RajaSide
from .shadowrun import SRPool, SRSide
from .shadowrun_extended import SRExtendedRolls

if TYPE_CHECKING:
    from ..host import RollHost


class Rolls(RajaRolls, HarhaRolls, SRExtendedRolls):
    """The roll commands, a part of the tracker: ``tracker.rolls.roll_raja(...)``.

    Each command runs as one tracker command (``tracker.run``), so it is
    logged and undone like any other.
    """

    def __init__(self, tracker: RollHost) -> None:
        super().__init__(tracker)
        self.actions_of.update({**self.raja_actions(), **self.harha_actions(), **self.sr_actions()})
        self.doers.update({**self.raja_doers(), **self.harha_doers(), **self.sr_doers(), **self.sr_extended_doers()})


__all__ = ["Rolls", "RajaSide", "HarhaSide", "SRSide", "SRPool", "RollAction", "die_dict", "die_from", "settings_text"]
