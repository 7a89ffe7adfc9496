"""``polku export FILE``: a session report for the group, Markdown or HTML (no app)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from polku.cli.common import CliError, load_read_only, print_notices

if TYPE_CHECKING:
    import argparse
    from typing import Any


def add_parser(verbs: Any) -> None:
    exp = verbs.add_parser("export", help="a session report, Markdown or HTML",
                           description="Write a session report a GM can post for the group: scenes, challenges, "
                                       "rolls, resources and statistics. The GM's secrets are left out unless --gm.")
    exp.add_argument("file", metavar="FILE", help="a session file")
    exp.add_argument("--format", "-f", choices=("md", "html"), default="md", help="md (default) or html")
    exp.add_argument("-o", "--output", metavar="OUT", help="write to OUT instead of standard output")
    exp.add_argument("--gm", action="store_true", help="include the GM's secrets (notes, hidden thresholds)")
    exp.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from polku.session.review.export import export

    tracker, notices = load_read_only(args.file)
    print_notices(notices)
    text = export(tracker, args.format, gm=args.gm)
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise CliError(f"could not write {args.output}: {exc.strerror or exc}") from None
    else:
        sys.stdout.write(text)
    return 0
