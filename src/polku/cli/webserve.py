"""``polku serve``: the players' view and the seats in a browser, through textual-serve.

textual-serve's :class:`~textual_serve.server.Server` runs one command per
browser connection (a Textual app under its web driver) and relays the
terminal over a websocket. Polku serves several pages from one server, each
behind its own random token: ``/<token>/`` is the page and ``/<token>/ws``
its websocket, and the token decides which command the connection runs
(``polku watch FILE`` or ``polku play FILE --as NAME``). A request without a
known token gets 404 and starts nothing. The server binds 127.0.0.1 unless
told otherwise. Only the static assets (xterm.js, fonts) are shared.

The commands are Polku's own read-only views: the GM's app stays the only
writer of the session file, and a seat's requests go through its spool.
"""

from __future__ import annotations

import hmac
import secrets
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Callable, Iterable
from typing import Any

TOKEN_BYTES = 16
"""128 random bits per page: a token cannot be guessed."""


@dataclass(frozen=True)
class Page:
    """One served page: its token, what it is, and the command a connection to it runs."""

    token: str
    title: str
    command: str
    seat: str = ""
    """The character's name for a seat; empty for the players' view."""

    def url(self, base: str) -> str:
        return f"{base}/{self.token}/"


def polku_command(*args: str) -> str:
    """A shell command line running this Polku (the same interpreter) with ``args``."""
    return shlex.join([sys.executable, "-m", "polku.cli", *args])


def pages_for(path: Path, seats: Iterable[str] = (), *,
              token: Callable[[int], str] = secrets.token_urlsafe) -> list[Page]:
    """The players' view and one page per seat, each with a fresh token."""
    path = Path(path).resolve()
    # A short look interval: a roll should reach the browser well within a second.
    pages = [Page(token(TOKEN_BYTES), "Players' view", polku_command("watch", str(path), "--interval", "0.1"))]
    for name in seats:
        pages.append(Page(token(TOKEN_BYTES), f"Seat: {name}",
                          polku_command("play", str(path), "--as", name), seat=name))
    return pages


def base_url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def make_server(pages: list[Page], *, host: str = "127.0.0.1", port: int = 8000,
                announce: Callable[[str], None] = print) -> Any:
    """A textual-serve server for ``pages`` (imports aiohttp: only ``polku serve`` needs it)."""
    import aiohttp_jinja2
    import jinja2
    from aiohttp import web
    from textual_serve.server import Server

    class PolkuServer(Server):
        """textual-serve's server with one route pair per token instead of one app at ``/``."""

        def __init__(self) -> None:
            super().__init__(pages[0].command, host=host, port=port, title="Polku")
            self.pages = list(pages)
            # One textual-serve Server per page: its own command, the same host and assets.
            self.per_page = {p.token: Server(p.command, host=host, port=port, title=p.title) for p in pages}

        def page(self, request: web.Request) -> Page:
            given = request.match_info.get("token", "").encode()
            found = None
            for p in self.pages:
                # Every token compared in full, so timing tells nothing about a guess.
                if hmac.compare_digest(p.token.encode(), given):
                    found = p
            if found is None:
                raise web.HTTPNotFound(text="No such page. Ask the GM for your link.")
            return found

        async def _make_app(self) -> web.Application:
            app = web.Application()
            aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
            app.add_routes([
                web.get("/static/{path:.*}", self.static),
                web.get("/{token}", self.to_page),
                web.get("/{token}/", self.index),
                web.get("/{token}/ws", self.websocket),
            ])
            app.on_startup.append(self.on_startup)
            app.on_shutdown.append(self.on_shutdown)
            return app

        async def static(self, request: web.Request) -> web.StreamResponse:
            root = Path(self.statics_path).resolve()
            target = (root / request.match_info["path"]).resolve()
            if root not in target.parents or not target.is_file():
                raise web.HTTPNotFound()
            return web.FileResponse(target)

        async def to_page(self, request: web.Request) -> web.StreamResponse:
            page = self.page(request)
            raise web.HTTPFound(f"/{page.token}/")

        async def index(self, request: web.Request) -> web.StreamResponse:
            page = self.page(request)
            font_size = max(8, min(40, _to_int(request.query.get("fontsize", "16"), 16)))
            origin = f"{request.scheme}://{request.host}"
            ws = ("wss" if request.scheme == "https" else "ws") + f"://{request.host}/{page.token}/ws"
            context = {"font_size": font_size, "app_websocket_url": ws,
                       "config": {"static": {"url": f"{origin}/static/"}},
                       "application": {"name": page.title}}
            response = aiohttp_jinja2.render_template("app_index.html", request, context)
            response.headers["Cache-Control"] = "no-store"
            response.headers["Referrer-Policy"] = "no-referrer"
            # Nothing but this server: the page's web font would tell a third party who plays (and
            # its failed lookup offline holds the page's start for seconds).
            response.headers["Content-Security-Policy"] = (
                "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
                f"img-src 'self' data:; font-src 'self'; connect-src 'self' {ws.rsplit('/', 2)[0]}")
            return response

        async def websocket(self, request: web.Request) -> web.StreamResponse:
            page = self.page(request)
            response: web.StreamResponse = await self.per_page[page.token].handle_websocket(request)
            return response

        async def on_startup(self, app: web.Application) -> None:
            pass  # the URLs are printed once the socket listens (serve)

        def announce_urls(self) -> None:
            base = base_url(host, port)
            for p in self.pages:
                announce(f"{p.title}: {p.url(base)}")
            announce("Each link is its own key: give each player only theirs. Ctrl+C stops serving.")

        def serve(self, debug: bool = False) -> None:
            """Run until Ctrl+C or SIGTERM; the URLs are printed when the server accepts connections."""
            self.debug = debug
            self.initialize_logging()
            web.run_app(self._make_app(), host=host, port=port, handle_signals=True,
                        print=lambda *_: self.announce_urls())

        def initialize_logging(self) -> None:
            import logging

            logging.basicConfig(level="WARNING", format="%(message)s")

    return PolkuServer()


def _to_int(value: str, default: int) -> int:
    try:
        return int(value)
    except ValueError:
        return default


__all__ = ["Page", "base_url", "make_server", "pages_for", "polku_command"]
