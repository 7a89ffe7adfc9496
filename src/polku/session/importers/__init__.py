"""Characters read from other programs' files (:mod:`polku.session.importers.chummer`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NotRequired, TypedDict

from ...i18n import _, retell
from ..host import TrackerError
from ..records import SRArmour, SRInitiativeScore, SRWeapon


class ImportedSheet(TypedDict):
    """A Varjojuoksu sheet as an importer reads it: a :class:`polku.session.records.SRCharacter`'s fields
    without its id (the roster gives it one; the state's check sees it as the campaign's)."""

    name: str
    player: str
    kind: str
    health: str
    notes: str
    secret: bool
    attributes: dict[str, int]
    skills: dict[str, int]
    edge_rating: int
    edge: int
    physical: int
    stun: int
    links: NotRequired[dict[str, str]]
    monitor_extra: NotRequired[dict[str, int]]
    initiative_passes: NotRequired[int]
    initiative_scores: NotRequired[dict[str, SRInitiativeScore]]
    weapons: NotRequired[list[SRWeapon]]
    armour: NotRequired[SRArmour]


class ImportRefused(TrackerError):
    """The file cannot be imported: one line saying why (nothing was written). A
    :class:`TrackerError`, so the app says it as it says any refused command."""


@dataclass(frozen=True, slots=True)
class Imported:
    """A character read from another program's file, as Polku stores it, and what it left out."""

    character: ImportedSheet
    """The character's fields (no ``id``): a Varjojuoksu character of :func:`polku.session.model.new_character`."""
    unmapped: list[str] = field(default_factory=list)
    """What the file holds that Polku's sheet does not: one short phrase each."""
    source: str = ""
    """The file's name, for the log."""

    def unmapped_text(self) -> str:
        """What was not mapped, in one message ("" when everything was)."""
        if not self.unmapped:
            return ""
        return _("Not mapped: {items}.", items="; ".join(retell(item) for item in self.unmapped))


__all__ = ["ImportRefused", "Imported"]
