"""``polku watch FILE``: the players' live view of a session the GM's app is saving."""

from __future__ import annotations

from typing import TYPE_CHECKING

from polku.cli.common import CliError, follow_players, needs_terminal, seconds
from polku.i18n import N_, _

if TYPE_CHECKING:
    import argparse

    from polku.cli.common import Verbs


def add_parser(verbs: Verbs) -> None:
    wat = verbs.add_parser("watch", help=N_("the players' live view of a session"),
                           description=N_("A read-only live view of a session the GM's app is saving: challenges, "
                                       "characters' public status and the dice log, without the GM's secrets. "
                                       "Remote players: ssh -t HOST polku watch FILE."))
    wat.add_argument("file", metavar="FILE", help=N_("a session file"))
    wat.add_argument("--theme", metavar="NAME", help=N_("colour theme"))
    wat.add_argument("--interval", type=seconds, default=0.3, metavar="SECONDS",
                     help=N_("where the system cannot report file changes (no inotify): how often to look (default 0.3)"))
    wat.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    needs_terminal("watch")
    if args.interval <= 0:
        raise CliError(_("--interval must be above 0 seconds"))
    follower = follow_players(args.file)
    from polku.tui.watch import run_watch

    return int(run_watch(Path(args.file), theme=args.theme, interval=args.interval,
                         follower_factory=lambda _path: follower) or 0)
