"""Characters and templates read from another session file, to copy into this campaign.

The file is read through :func:`polku.session.files.load_tracker` (validated like
any file that is opened, never written); :meth:`polku.session.table.roster.Roster.copy_characters`
adds the copies as one command. A module of its own so that the roster (a part of
the tracker) never imports the file layer, which imports the tracker.
"""

from __future__ import annotations

from pathlib import Path

from ..i18n import N_, said
from ..rules.system import System
from .files import SessionOpenError, load_tracker
from .host import TrackerError
from .model import Character, clone


def read_characters(path: str | Path, system: System) -> tuple[list[Character], list[Character]]:
    """The characters and templates of the session file at ``path``, for a campaign of ``system``.

    Raises:
        TrackerError: one line: the file cannot be read, or it is another system's campaign.
    """
    path = Path(path).expanduser()
    try:
        other, _ = load_tracker(path, read_only=True)
    except SessionOpenError as e:
        raise TrackerError(*e.args) from None
    if other.system is not system:
        raise TrackerError(said(N_("{name} is a {display_name} campaign; this one is {display_name2}"), name=str(path.name), display_name=str(other.system.display_name), display_name2=str(system.display_name)))
    chars = [clone(ch) for ch in other.characters.values()]
    return chars, [clone(x) for x in other.state.get("templates", {}).values()]


__all__ = ["read_characters"]
