"""``polku play FILE --as CHARACTER``: a player's seat (the players' view, their sheet, their rolls)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from polku.cli.common import CliError, follow_players, needs_terminal
from polku.i18n import N_, said

if TYPE_CHECKING:
    import argparse

    from polku.cli.common import Verbs
    from polku.session.tracker import Tracker


def add_parser(verbs: Verbs) -> None:
    play = verbs.add_parser(
        "play", help=N_("a player's seat: the players' view, your character and your rolls"),
        description=N_("The players' live view of a session plus one character's sheet and a roll panel: roll what "
                    "the GM asks for, with the program's dice or your own. The seat never writes the session: "
                    "its requests go to a folder beside it, which the GM's app applies. Remote players: a key "
                    "whose forced command is 'polku play FILE --as NAME' (docs/remote-play.md)."))
    play.add_argument("file", metavar="FILE", help=N_("a session file"))
    play.add_argument("--as", dest="character", metavar="CHARACTER", required=True,
                      help=N_("the character you play (its name or id)"))
    play.add_argument("--theme", metavar="NAME", help=N_("colour theme"))
    play.set_defaults(handler=run)


def character_id(tracker: Tracker, wanted: str) -> str:
    """The id of the public character named (or with the id) ``wanted``; a secret one is not found."""
    low = " ".join(wanted.split()).lower()
    for cid, ch in tracker.characters.items():
        if ch.get("secret"):
            continue
        if cid == wanted or str(ch.get("name", "")).lower() == low:
            return str(cid)
    names = ", ".join(sorted(str(ch["name"]) for ch in tracker.characters.values() if not ch.get("secret")))
    campaign = str(tracker.state["campaign"].get("name", ""))
    if names:
        raise CliError(said(N_("no character '{name}' in {campaign} (players' characters: {names})"),
                            name=wanted, campaign=campaign, names=names))
    raise CliError(said(N_("no character '{name}' in {campaign}"), name=wanted, campaign=campaign))


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    follower = follow_players(args.file)
    assert follower.view is not None
    cid = character_id(follower.view.tracker, args.character)
    needs_terminal("play")
    from polku.tui.seat import run_seat

    return int(run_seat(Path(args.file), cid, theme=args.theme, follower=follower) or 0)
