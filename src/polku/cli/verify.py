"""``polku verify FILE``: recompute every program roll from its revealed dice secret (no app).

FILE is the GM's session file or the players' dice transcript (``polku export FILE
--transcript``). The checks are :mod:`polku.session.players.verify`'s; the derivation is in
docs/verifiable-dice.md. Exit status 0 when every roll it could check matches, 1 when
any does not, 2 when the file cannot be read, 3 when none mismatches but program
dice came from a fixed seed (the shipped demos, ``polku --seed``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from polku.cli.common import CliError, emit_json, load_read_only, print_notices
from polku.i18n import N_, _, told_error

if TYPE_CHECKING:
    import argparse
    from typing import Any

    from polku.cli.common import Verbs


def add_parser(verbs: Verbs) -> None:
    import argparse as _argparse
    import textwrap

    p = verbs.add_parser(
        "verify", help=N_("check every program roll against its revealed dice secret"),
        description=textwrap.fill(
            "Recompute every program roll of a session file, or of the players' dice transcript "
            "(polku export FILE --transcript), from its dice secret (HMAC-SHA256 of the secret and the "
            "roll's number seeds the dice; docs/verifiable-dice.md), check each secret against the "
            "commitment the players saw, and judge each result again from its faces. Prints which rolls it "
            "checked, which it could not check and why, one MISMATCH line per problem, the rolls entered "
            "by hand, and a summary.", 78, break_on_hyphens=False),
        epilog=N_("exit status:\n"
               "  0  every program roll it could check matches its committed secret\n"
               "  1  a roll or a secret does not match (one MISMATCH line each)\n"
               "  2  the file cannot be read\n"
               "  3  nothing mismatches, but program dice came from a fixed seed (the shipped demos,\n"
               "     polku --seed): one line says so; such dice are reproducible, so they prove nothing"),
        formatter_class=_argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", metavar="FILE", help=N_("a session file, or a players' dice transcript"))
    p.add_argument("--json", action="store_true", help=N_("print JSON instead of the lines"))
    p.set_defaults(handler=run)


def _transcript(path: str) -> Any:
    """The transcript's checked content, or None when the file is not meant as one (a session file)."""
    import os
    import stat

    from polku.session.players import transcript

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO named as the file never blocks
    except OSError:
        return None  # the session loader says why, as for any file it cannot open
    try:
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                return None
            head = f.read(64)
            if not transcript.looks_like(head):
                return None
            data = head + f.read(transcript.MAX_BYTES + 1 - len(head))
    except OSError as exc:
        # the OS's reason (strerror) as the OS gives it, in a whole sentence in the reader's language
        raise CliError(_("cannot read {path}: {problem}", path=path, problem=exc.strerror or exc)) from None
    try:
        return transcript.read(data)
    except transcript.TranscriptError as exc:
        raise CliError(_("{path}: {problem}", path=path, problem=told_error(exc))) from None


def run(args: argparse.Namespace) -> int:
    from polku.session.players.verify import verify

    doc = _transcript(args.file)
    if doc is not None:
        from polku.session.players import transcript

        rep = transcript.check(doc)
    else:
        tracker, notices = load_read_only(args.file)
        print_notices(notices)
        rep = verify(tracker.events, tracker.state, tracker.undone)
    if args.json:
        emit_json({"ok": rep.ok, "status": rep.status, "source": rep.source, "seeded": rep.seeded,
                   "checked": rep.checked, "mismatches": rep.mismatches, "by_hand": rep.hand,
                   "before_verifiable_dice": rep.before, "checked_unrevealed": rep.unrevealed,
                   "checked_numbers": {str(k): sorted(v) for k, v in sorted(rep.numbers.items())},
                   "not_checked": rep.not_checked, "notes": rep.notes})
    else:
        for line in rep.lines():
            print(line)
    return rep.status
