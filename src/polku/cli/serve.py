"""``polku serve FILE``: the players' view and the seats in a browser (textual-serve).

Each page has its own random token in its URL (no token, no page); the server
binds 127.0.0.1 unless ``--host`` says otherwise. See :mod:`polku.cli.webserve`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from polku.cli.common import CliError, load_players, whole_arg
from polku.i18n import N_, _

if TYPE_CHECKING:
    import argparse

    from polku.cli.common import Verbs
    from polku.session.tracker import Tracker

    class ServeArgs(argparse.Namespace):
        """``polku serve``'s arguments (typing only)."""

        file: str
        host: str
        port: int
        url: str | None
        seat: list[str] | None
        no_seats: bool


def add_parser(verbs: Verbs) -> None:
    p = verbs.add_parser(
        "serve", help=N_("the players' view and seats in a browser"),
        description=N_("Serve the players' view (as polku watch shows it) and one seat per player character "
                    "(polku play FILE --as NAME) over HTTP through textual-serve. Each page has its own random "
                    "token in its URL; the URLs are printed at start. Bound to 127.0.0.1 unless --host says "
                    "otherwise: the links travel over plain HTTP, so put a TLS reverse proxy (and --url) or an "
                    "SSH tunnel in front to reach it from elsewhere (docs/remote-play.md). A link runs at most "
                    "two windows of at most 300x100 cells; every app it started ends with it."))
    p.add_argument("file", metavar="FILE", help=N_("a session file the GM's app is running"))
    p.add_argument("--host", default="127.0.0.1", metavar="ADDRESS",
                   help=N_("the address to listen on (default 127.0.0.1: this machine only)"))
    p.add_argument("--port", type=whole_arg("--port", 1, 65535), default=8000, metavar="N",
                   help=N_("the port (default 8000)"))
    p.add_argument("--url", metavar="URL", default=None,
                   help=N_("the address players type, when it is not http://HOST:PORT (a TLS reverse proxy's "
                        "https://… address); the printed links and the pages' own URLs use it"))
    p.add_argument("--seat", action="append", default=None, metavar="NAME",
                   help=N_("a seat for this character (repeatable; default: every public player character)"))
    p.add_argument("--no-seats", action="store_true", help=N_("serve the players' view only"))
    p.set_defaults(handler=run)


def seat_names(tracker: Tracker, wanted: list[str] | None, no_seats: bool) -> list[str]:
    """The seats to serve: the ones asked for (each a public character), or every public PC."""
    from polku.cli import VERBS

    if no_seats:
        return []
    public = {ch["name"].lower(): ch for ch in tracker.characters.values() if not ch.get("secret")}
    if wanted is None:
        if "play" not in VERBS:
            return []
        return [ch["name"] for ch in public.values() if ch.get("kind") == "pc"]
    if "play" not in VERBS:
        raise CliError(_("seats need 'polku play', which this Polku does not have yet; use --no-seats"))
    out = []
    for name in wanted:
        ch = public.get(name.strip().lower())
        if ch is None:
            raise CliError(_("no character '{name}' the players may see in {campaign}", name=name,
                             campaign=tracker.state["campaign"]["name"]))
        if ch["name"] not in out:
            out.append(ch["name"])
    return out


def run(parsed: argparse.Namespace) -> int:
    args = cast("ServeArgs", parsed)
    import re
    from pathlib import Path

    if args.url is not None and not re.fullmatch(r"https?://[^\s/?#@]+(:\d{1,5})?/?", args.url):
        raise CliError(_("--url is the address players type, like https://table.example.org, not {url}", url=repr(args.url)))
    tracker, _view = load_players(args.file)
    seats = seat_names(tracker, args.seat, args.no_seats)
    try:
        from polku.cli.webserve import make_server, pages_for
        server = make_server(pages_for(Path(args.file), seats), host=args.host, port=args.port, url=args.url,
                             announce=lambda line: print(line, flush=True))
    except ImportError as exc:
        raise CliError(_("polku serve needs the serve extra ({name} is missing): pip install 'polku[serve]', or in a "
                         "clone pip install -e '.[serve]'", name=exc.name)) from None
    try:
        server.serve()
    except OSError as exc:
        # the OS's reason (strerror) as the OS gives it, in a whole sentence in the reader's language
        raise CliError(_("cannot listen on {host}:{port}: {problem}", host=args.host, port=args.port,
                         problem=exc.strerror or exc)) from None
    except KeyboardInterrupt:
        pass
    return 0
