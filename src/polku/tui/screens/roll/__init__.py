"""Running a challenge: a pool builder per system, live odds, roll or enter faces.

``base`` holds what the three screens share (the sides' rows, the result box, the
keys every roll screen has, the win/tie/loss odds line); one module per system;
``initiative`` is Varjojuoksu's initiative screen.
"""

from __future__ import annotations

from ....rules.system import System
from ....session.tracker import Tracker
from ...render import dice_text
from .base import GM, RollScreen, Side, SideList
from .harhapolku import HarhaRollScreen
from .initiative import InitiativeScreen
from .rajapolku import RajaRollScreen
from .shadowrun import SR_TESTS, SRRollScreen


def roll_screen_for(tracker: Tracker, challenge: str | None, *, actor: str | None = None) -> RollScreen:
    system = tracker.system
    if system is System.RAJAPOLKU:
        return RajaRollScreen(tracker, challenge, actor=actor)
    if system is System.HARHAPOLKU:
        return HarhaRollScreen(tracker, challenge, actor=actor)
    return SRRollScreen(tracker, challenge, actor=actor)


__all__ = ["roll_screen_for", "RollScreen", "RajaRollScreen", "HarhaRollScreen", "SRRollScreen", "InitiativeScreen",
           "Side", "SideList", "GM", "SR_TESTS", "dice_text"]
