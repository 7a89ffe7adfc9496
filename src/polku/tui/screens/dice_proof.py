"""The dice commitment and the revealed secrets in full (``H``, in the GM's app, the seats and watch).

The status line's ``dice #2 129998e7`` is a label; a player checking the dice needs all 64 hex
digits of the commitment, noted before the rolls, and each revealed secret. The lines come from
the session layer (:func:`polku.session.players.public.dice_proof`), from the players' side of
the dice: the GM's dialog shows no more than the players'.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ...i18n import N_, _
from ...session.model import DiceKey
from ...session.players.public import dice_proof
from ..widgets.keyline import KeyLine


class DiceProof(ModalScreen[None]):
    """The full commitment and revealed secrets; Escape, q or H closes it."""

    BINDINGS = [
        Binding("escape,q,H", "close", N_("Close"), id="dice_proof.close", tooltip=N_("Close the dice proof")),
    ]

    DEFAULT_CSS = """
    DiceProof { align: center middle; }
    DiceProof > VerticalScroll { width: 78; max-width: 100%; height: auto; max-height: 100%;
                                 border: round $primary; background: $surface; padding: 0 1; }
    DiceProof #dice-proof { text-wrap: nowrap; }
    """

    def __init__(self, dice: DiceKey | None) -> None:
        super().__init__()
        self.lines = dice_proof(dice)

    def compose(self) -> ComposeResult:
        with VerticalScroll() as box:
            box.border_title = _("Dice proof")
            yield Static("\n".join(self.lines), id="dice-proof", markup=False)
        yield KeyLine()

    def action_close(self) -> None:
        self.dismiss(None)


__all__ = ["DiceProof"]
