"""``polku new``: the app, starting a new campaign."""

from __future__ import annotations

from typing import TYPE_CHECKING

from polku.cli.common import SEED_MAX, whole_arg
from polku.i18n import N_

if TYPE_CHECKING:
    import argparse

    from polku.cli.common import Verbs


def add_parser(verbs: Verbs) -> None:
    new = verbs.add_parser("new", help=N_("start the app on a new campaign"),
                           description=N_("Start the app on its new-campaign form: name, system and rule "
                                       "settings; Escape leads to the session chooser."))
    new.add_argument("--seed", type=whole_arg("--seed", 0, SEED_MAX), metavar="N", help=N_("seed the program's dice"))
    new.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from polku.cli.common import run_app

    return run_app(None, read_only=False, seed=args.seed, new=True)
