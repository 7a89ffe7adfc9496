"""``polku export FILE``: a session report for the group, Markdown or HTML (no app)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, cast

from polku.cli.common import CliError, load_read_only, print_notices
from polku.i18n import N_, _

if TYPE_CHECKING:
    import argparse

    from polku.cli.common import Verbs

    class ExportArgs(argparse.Namespace):
        """``polku export``'s arguments (typing only)."""

        file: str
        format: str | None
        output: str | None
        gm: bool
        lang: str | None
        transcript: bool


def add_parser(verbs: Verbs) -> None:
    exp = verbs.add_parser("export", help=N_("a session report, Markdown or HTML"),
                           description=N_("Write a session report a GM can post for the group: scenes, challenges, "
                                       "rolls, resources and statistics. The GM's secrets are left out unless --gm."))
    exp.add_argument("file", metavar="FILE", help=N_("a session file"))
    exp.add_argument("--format", "-f", choices=("md", "html"), default=None, help=N_("md (default) or html"))
    exp.add_argument("-o", "--output", metavar="OUT", help=N_("write to OUT instead of standard output"))
    exp.add_argument("--gm", action="store_true", help=N_("include the GM's secrets (notes, hidden thresholds)"))
    exp.add_argument("--lang", choices=("en", "fi"), default=None,
                     help=N_("the report's language: en or fi (default: yours, from POLKU_LANG or the locale)"))
    exp.add_argument("--transcript", action="store_true",
                     help=N_("write the players' dice transcript instead (JSON): every public program roll's "
                          "number, faces and draws, the commitments and the revealed secrets, nothing "
                          "secret; check it with 'polku verify TRANSCRIPT' (docs/verifiable-dice.md)"))
    exp.set_defaults(handler=run)


def run(parsed: argparse.Namespace) -> int:
    args = cast("ExportArgs", parsed)
    from pathlib import Path

    from polku.session.review.export import export

    if args.transcript and (args.gm or args.format):
        raise CliError(_("--transcript writes the players' dice transcript (JSON, never the GM's secrets); "
                         "drop {flag}", flag="--gm" if args.gm else "--format"))
    if args.lang:
        from polku import i18n

        i18n.set_language(args.lang)
    tracker, notices = load_read_only(args.file)
    print_notices(notices)
    if args.transcript:
        from polku.session.players import transcript

        text = transcript.text(tracker)
    else:
        text = export(tracker, args.format or "md", gm=args.gm)
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            # the OS's reason (strerror) as the OS gives it, in a whole sentence in the reader's language
            raise CliError(_("could not write {path}: {problem}", path=args.output,
                             problem=exc.strerror or exc)) from None
    else:
        sys.stdout.write(text)
    return 0
