"""Characters read from other programs' files (:mod:`polku.session.importers.chummer`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..host import TrackerError


class ImportRefused(TrackerError):
    """The file cannot be imported: one line saying why (nothing was written). A
    :class:`TrackerError`, so the app says it as it says any refused command."""


@dataclass(frozen=True, slots=True)
class Imported:
    """A character read from another program's file, as Polku stores it, and what it left out."""

    character: dict[str, Any]
    """The character's fields (no ``id``): a Varjojuoksu character of :func:`polku.session.model.new_character`."""
    unmapped: list[str] = field(default_factory=list)
    """What the file holds that Polku's sheet does not: one short phrase each."""
    source: str = ""
    """The file's name, for the log."""

    def unmapped_text(self) -> str:
        """What was not mapped, in one message ("" when everything was)."""
        return "Not mapped: " + "; ".join(self.unmapped) + "." if self.unmapped else ""


__all__ = ["ImportRefused", "Imported"]
