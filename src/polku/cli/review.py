"""``polku review FILE``: step through a saved session, read-only (the app, no lock, no write)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from polku.cli.common import load_read_only, needs_terminal
from polku.i18n import N_

if TYPE_CHECKING:
    import argparse

    from polku.cli.common import Verbs


def add_parser(verbs: Verbs) -> None:
    rev = verbs.add_parser("review", help=N_("step through a saved session, read-only"),
                           description=N_("Open a saved session read-only: the timeline, the state at any event, "
                                       "filters and statistics. Takes no lock and never writes."))
    rev.add_argument("file", metavar="FILE", help=N_("a session file"))
    rev.add_argument("--theme", metavar="NAME", help=N_("colour theme"))
    rev.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    tracker, notices = load_read_only(args.file)
    needs_terminal("review")
    from polku.tui.review import run_review

    return int(run_review(Path(args.file), tracker, notices=notices, theme=args.theme) or 0)
