"""The ``polku`` command: the app, and headless verbs for dice, outcomes and odds.

::

    polku [FILE] [--read-only] [--seed N]     open the app (a session file, or none)
    polku new [--seed N]                      the app, starting a new campaign
    polku resolve SYSTEM A B ...              judge faces already rolled
    polku roll SYSTEM POOL_A [POOL_B] ...     roll pools with a seed, then judge
    polku odds SYSTEM POOL_A [POOL_B] ...     exact odds
    polku review FILE                         step through a saved session (read-only)
    polku watch FILE                          the players' live view of a session
    polku play FILE --as CHARACTER            a player's seat: the view, their sheet, their rolls
    polku export FILE --format md|html        a session report for the group
    polku verify FILE                         recompute the program dice from their secrets
    polku serve FILE [--host H] [--port N]    the players' view and seats in a browser
    polku import chummer FILE.chum [--into S]  a Varjojuoksu character from a Chummer 4 file

Every headless verb prints a short human explanation, or JSON with ``--json``.
Bad input ends with exit status 2 and one line on stderr,
``polku: error: <what is wrong>``.

One module a verb: ``polku.cli.<verb>`` has ``add_parser(verbs)``, which adds
the verb's subparser and sets its ``handler`` (``args -> exit status``). Only
the module of the verb given is imported, so a verb pays for its own imports.

Layering (DESIGN.md): this package imports only the standard library at import
time. The rules modules are imported inside the verb handlers, and the app
(``polku.tui.run``, which imports textual) only when the app is started, so
headless verbs never import textual or rich.
"""

from __future__ import annotations

import argparse
import sys

from polku.cli.common import (
    ALL_SYSTEM_NAMES,
    PROG,
    SEED_MAX,
    CliError,
    Parser,
    ParserExit,
    print_error,
    run_app,
    whole_arg,
)
from polku.i18n import N_, _, told_error

__all__ = ["ALL_SYSTEM_NAMES", "VERBS", "VERB_MODULE", "CliError", "main"]

VERBS = ("new", "resolve", "roll", "odds", "review", "watch", "play", "export", "verify", "serve", "import")
"""A first argument naming one of these is a verb, run by the module ``polku.cli.<verb>``
(``import``: ``polku.cli.importer``, as ``import`` is a Python keyword); anything else is a FILE."""

VERB_MODULE = {"import": "importer"}
"""A verb whose module has another name (a Python keyword cannot name a module one imports)."""

APP_DESCRIPTION = N_("""\
A game master's session tracker for Rajapolku, Harhapolku and Varjojuoksu
(Shadowrun 4e dice).

Without a verb, polku opens the app: with FILE, that session file; without,
no file yet. A first argument that is a verb (new, resolve, roll, odds, review,
watch, play, export, verify, serve, import) is the verb; anything else is a FILE (write
./new to open a file called 'new').
""")

APP_EPILOG = N_("""\
headless verbs (never start the app; add --json for JSON):
  polku resolve rajapolku A B [--spirit]         faces '10,8*,7' (* = ability die)
  polku resolve harhapolku A B [--variant V]     faces '7,4,4' or '10:9,8'; --difficult (H8)
  polku resolve shadowrun FACES [--threshold T]  --edge-before/--edge-after E, --extended T,
                                                 --helper FACES (teamwork)
  polku resolve shadowrun-opposed A B            B is the defender
  polku roll SYSTEM POOL_A [POOL_B] [--seed N]   roll, then judge as resolve does
  polku odds SYSTEM POOL_A [POOL_B]              exact odds (--spirit, --difficult, --edge E,
                                                 --extended T, --helpers N,N, --group N,N)
  ... --set KEY=VALUE                            any rule setting (resolve, roll, odds; see
                                                 their --help; every setting in docs/rules.md)
  polku export FILE --format md|html [-o OUT]    a session report (no app)
  polku verify FILE                              recompute every program roll from its
                                                 revealed dice secret (exit 1 on a mismatch)
  polku import chummer FILE.chum [--json]        a Varjojuoksu character from a Chummer 4 file;
    [--into SESSION.toml] [--template]           --into adds it to a session (one command)
other verbs: polku new (the app on the new-campaign form),
  polku review FILE (the past, read-only), polku watch FILE (players' view),
  polku play FILE --as CHARACTER (a player's seat),
  polku serve FILE (the players' view and seats in a browser, one token a page)
systems: rajapolku (raja), harhapolku (harha), shadowrun (varjojuoksu, sr, sr4)
try 'polku resolve --help', 'polku roll --help', 'polku odds --help'
""")


def _version() -> str:
    from polku import __version__

    return __version__


def _app_parser() -> Parser:
    p = Parser(
        prog=PROG,
        description=APP_DESCRIPTION,
        epilog=APP_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", nargs="?", metavar="FILE", help=N_("a session file to open"))
    p.add_argument("--read-only", action="store_true", help=N_("open FILE without changing it"))
    p.add_argument("--seed", type=whole_arg("--seed", 0, SEED_MAX), metavar="N",
                   help=N_("seed the program's dice (reproducible rolls)"))
    p.add_argument("--version", action="version", version=f"%(prog)s {_version()}",
                   help=N_("show the version and exit"))
    return p


def _verb_parser(only: str | None = None) -> Parser:
    """The verbs' parser; with ``only``, just that verb's subparser (cheaper to build)."""
    import importlib

    p = Parser(prog=PROG, description=APP_DESCRIPTION, epilog=APP_EPILOG,
               formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"%(prog)s {_version()}",
                   help=N_("show the version and exit"))
    verbs = p.add_subparsers(dest="verb", metavar="VERB", required=True, parser_class=Parser)
    for verb in VERBS:
        if only is None or only == verb:
            importlib.import_module(f"polku.cli.{VERB_MODULE.get(verb, verb)}").add_parser(verbs)
    return p


# --------------------------------------------------------------------------- main


def _normalise(argv: list[str]) -> list[str]:
    """Lower-case the SYSTEM word of resolve/odds, and name an unknown system plainly."""
    if len(argv) >= 2 and argv[0] in ("resolve", "odds") and not argv[1].startswith("-"):
        name = argv[1].strip().lower()
        if name not in ALL_SYSTEM_NAMES:
            if name.endswith("-opposed"):
                raise CliError(_("unknown system '{name}' (use shadowrun-opposed)", name=argv[1]))
            raise CliError(_("unknown system '{name}' (use rajapolku, harhapolku, shadowrun or shadowrun-opposed)",
                             name=argv[1]))
        argv = [argv[0], name, *argv[2:]]
    return argv


def _safe_streams() -> None:
    """Never crash on a terminal that cannot show '→' or '█'."""
    for stream in (sys.stdout, sys.stderr):
        enc = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        if enc not in ("utf8", "utf16", "utf32") and hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors="replace")
            except (OSError, ValueError):  # pragma: no cover - odd streams (io.UnsupportedOperation is both)
                pass


def main(argv: list[str] | None = None) -> int:
    """Run the ``polku`` command; returns the exit status (0 ok, 2 bad input)."""
    _safe_streams()
    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        if args_list and args_list[0] in VERBS:
            try:
                args = _verb_parser(args_list[0]).parse_args(_normalise(args_list))
                return int(args.handler(args))
            except ParserExit as done:
                return done.status
            except (CliError, ValueError) as exc:  # RulesError is a ValueError
                print_error(told_error(exc))
                return 2
        try:
            args = _app_parser().parse_args(args_list)
        except ParserExit as done:
            return done.status
        except CliError as exc:
            print_error(told_error(exc))
            return 2
    except BrokenPipeError:  # pragma: no cover - `polku odds ... | head`
        return 0
    from pathlib import Path

    path = Path(args.file) if args.file else None
    return run_app(path, read_only=args.read_only, seed=args.seed)

