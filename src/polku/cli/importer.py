"""``polku import chummer FILE.chum``: a Varjojuoksu character (or template) from a Chummer 4 file.

Without ``--into`` it prints what it read (``--json``: the character as Polku stores it).
With ``--into SESSION.toml`` it adds the character to that session as one command (undoable
in the app), taking the session's lock as the app does: a session open in the app is
refused in one line (import from the app's palette instead), and nothing is written
unless the whole character fits.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, cast

from polku.cli.common import CliError
from polku.i18n import N_, _

if TYPE_CHECKING:
    import argparse
    from pathlib import Path

    class ImportArgs(argparse.Namespace):
        """``polku import``'s arguments (typing only)."""

        source: str
        file: str
        json: bool
        into: str | None
        template: bool

    from polku.cli.common import Verbs
    from polku.session.importers import Imported


def add_parser(verbs: Verbs) -> None:
    p = verbs.add_parser("import", help=N_("a Varjojuoksu character from a Chummer 4 file"),
                         description=N_("Read a Chummer 4 character file (.chum: SR4, UTF-16 or UTF-8 XML) as a "
                                     "Varjojuoksu character: name, attributes (augmented values), Edge, skills with "
                                     "their linked attributes, condition monitors, weapons, armour, initiative "
                                     "passes. What the sheet has no place for is listed in one message. A malformed "
                                     "or hostile file (entities, a DTD, too big, another root element) is refused "
                                     "in one line and nothing is written."))
    p.add_argument("source", choices=("chummer",), metavar="chummer", help=N_("the program the file is from: chummer"))
    p.add_argument("file", metavar="FILE", help=N_("a Chummer 4 character file (.chum)"))
    p.add_argument("--json", action="store_true", help=N_("print the character as Polku stores it, as JSON"))
    p.add_argument("--into", metavar="SESSION", help=N_("add it to this Varjojuoksu session file (one command)"))
    p.add_argument("--template", action="store_true", help=N_("make an NPC template instead of a character"))
    p.set_defaults(handler=run)


def run(parsed: argparse.Namespace) -> int:
    args = cast("ImportArgs", parsed)
    import json
    from pathlib import Path

    from polku.session.importers import ImportRefused
    from polku.session.importers.chummer import read_chummer

    try:
        imported = read_chummer(args.file)
    except ImportRefused as e:
        raise CliError(str(e)) from None
    made = ""
    if args.into:
        made = _into(Path(args.into), imported, template=args.template)
    ch = imported.character
    if args.json:
        out = {"template" if args.template else "character": ch, "unmapped": imported.unmapped}
        if made:
            out["id"] = made
        sys.stdout.write(json.dumps(out, ensure_ascii=False, indent=2) + "\n")
        return 0
    attrs = ", ".join(f"{_(k).title()[:3]} {v}" for k, v in ch["attributes"].items())
    head = {"name": ch["name"], "into": args.into}
    if args.template:
        first = (_("Template {name}: added to {into}", **head) if made
                 else _("Template {name} (not written: add --into SESSION.toml)", **head))
    else:
        first = (_("Character {name}: added to {into}", **head) if made
                 else _("Character {name} (not written: add --into SESSION.toml)", **head))
    lines = [first,
             "  " + _("{attributes}, Edge {edge}", attributes=attrs, edge=ch["edge_rating"]),
             "  " + _("skills: {skills}", skills=", ".join(f"{k} {v}" for k, v in ch["skills"].items()) or _("none"))]
    if "weapons" in ch:
        from polku.session.table.gear import Weapon

        lines.append("  " + _("weapons: {weapons}", weapons="; ".join(Weapon.from_table(w).text for w in ch["weapons"])))
    if "armour" in ch:
        lines.append("  " + _("armour: ballistic {ballistic} / impact {impact}", **ch["armour"]))
    if ch.get("initiative_passes", 1) != 1:
        lines.append("  " + _("initiative passes: {n}", n=ch["initiative_passes"]))
    for kind, score in ch.get("initiative_scores", {}).items():
        kind_word = {"astral": _("astral"), "matrix": _("matrix")}.get(kind, kind)  # the stored key, in words
        lines.append("  " + _("{kind} initiative: +{bonus}, {passes} passes", kind=kind_word, bonus=score["bonus"],
                                passes=score["passes"]))
    if imported.unmapped:
        lines.append(imported.unmapped_text())
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def _into(path: Path, imported: Imported, *, template: bool) -> str:
    """Add the character to the session at ``path`` as one command and save, holding the lock."""
    from polku.session import store
    from polku.session.files import SessionOpenError, open_session
    from polku.session.host import TrackerError

    try:
        tracker, sf = open_session(path, lazy=False)
    except store.LockedError as e:
        raise CliError(_("{holder}: nothing written; import from that app's palette (Import from Chummer), "
                         "or close it", holder=e.holder_text)) from None
    except SessionOpenError as e:
        raise CliError(str(e)) from None
    try:
        try:
            made: str = tracker.roster.add_imported(imported.character, template=template, source=imported.source)
        except TrackerError as e:
            raise CliError(f"{path.name}: {e}") from None
        try:
            sf.save_now(tracker)
        except store.StoreError as e:
            raise CliError(str(e)) from None
        from polku.session.players.players_file import PlayersFile

        players = PlayersFile(sf.path)
        players.publish_now(tracker)  # as the GM's app does after each save: what the players' views read
        if players.problem:
            print(_("polku: note: {problem}", problem=players.problem), file=sys.stderr)
    finally:
        sf.close()
    return made
