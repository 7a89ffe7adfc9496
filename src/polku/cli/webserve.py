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
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from polku.i18n import _, language

TOKEN_BYTES = 16
"""128 random bits per page: a token cannot be guessed."""

MAX_WIDTH, MAX_HEIGHT = 300, 100
"""The largest terminal a page may ask for, in cells (a 4K screen at a small font); a bigger
``?width=``/``?height=`` or resize is cut to it (10000×10000 grew one process past 1 GB)."""

MIN_WIDTH, MIN_HEIGHT = 20, 5

SESSIONS_PER_LINK = 2
"""App processes one link may run at once: its page, and a reload while the old one closes.
A further websocket on the same link is refused (HTTP 429) and starts nothing."""

STOP_WAIT = 3.0
"""Seconds an app process has to quit when serve stops before it is killed."""

ALL_ADDRESSES = ("0.0.0.0", "", "::")

WEB = Path(__file__).with_name("web")
"""Polku's own page (page.html) and what it needs beside textual-serve's xterm.js: a font with every
mark Polku draws (DejaVu Sans Mono, its licence beside it)."""


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
    """A shell command line running this Polku (the same interpreter) with ``args``; ``exec``, so the
    process textual-serve starts is Polku itself and ending it ends the app (no shell left between)."""
    return "exec " + shlex.join([sys.executable, "-m", "polku.cli", *args])


def size_within(width: Any, height: Any) -> tuple[int, int]:
    """A terminal size a page asked for, cut to :data:`MAX_WIDTH` × :data:`MAX_HEIGHT` (at least
    :data:`MIN_WIDTH` × :data:`MIN_HEIGHT`); anything not a number is 80×24."""
    w, h = _to_int(str(width), 80), _to_int(str(height), 24)
    return max(MIN_WIDTH, min(MAX_WIDTH, w)), max(MIN_HEIGHT, min(MAX_HEIGHT, h))


def outward_address() -> str:
    """This machine's address on its network (for links when serving on every address): the one a
    packet to the outside would leave from (a UDP connect sends nothing), else its name."""
    import socket

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed, nothing is sent
            return str(s.getsockname()[0])
    except OSError:
        return socket.gethostname()


def link_base(host: str, port: int, url: str | None = None) -> str:
    """The base of the printed links and of every URL a page uses: ``url`` (``--url``: what players
    type, e.g. a TLS proxy's https address) or this host and port; on every address, this machine's."""
    if url:
        return url.rstrip("/")
    if host in ALL_ADDRESSES:
        host = outward_address()
    return base_url(host, port)


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


def bounded_service() -> Any:
    """textual-serve's AppService (one app process) whose terminal never grows past
    :data:`MAX_WIDTH` × :data:`MAX_HEIGHT`, and which can be ended for sure (imports textual-serve)."""
    import asyncio

    from textual_serve.app_service import AppService

    class BoundedAppService(AppService):
        async def set_terminal_size(self, width: int, height: int) -> None:
            await super().set_terminal_size(*size_within(width, height))

        async def end(self) -> None:
            """Ask the app to quit; kill it when it has not within :data:`STOP_WAIT` seconds."""
            try:
                await asyncio.wait_for(asyncio.shield(self.stop()), STOP_WAIT)
            except (asyncio.TimeoutError, Exception):
                pass
            proc = self._process
            if proc is not None and proc.returncode is None:
                try:
                    proc.kill()
                    await asyncio.wait_for(proc.wait(), STOP_WAIT)
                except (ProcessLookupError, asyncio.TimeoutError):
                    pass

    return BoundedAppService


def make_server(pages: list[Page], *, host: str = "127.0.0.1", port: int = 8000, url: str | None = None,
                announce: Callable[[str], None] = print) -> Any:
    """A textual-serve server for ``pages`` (imports aiohttp: only ``polku serve`` needs it)."""
    import asyncio
    import logging

    import aiohttp_jinja2
    import jinja2
    from aiohttp import web
    from textual_serve.server import Server

    BoundedAppService = bounded_service()
    base = link_base(host, port, url)
    ws_base = ("wss" + base[5:]) if base.startswith("https:") else ("ws" + base[4:])

    class PolkuServer(Server):
        """textual-serve's server with one route pair per token instead of one app at ``/``."""

        def __init__(self) -> None:
            super().__init__(pages[0].command, host=host, port=port, title="Polku")
            self.pages = list(pages)
            self.running: dict[str, set[Any]] = {p.token: set() for p in pages}
            """token → the app processes its websockets run now."""

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
            aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(str(WEB)), autoescape=True)
            app.add_routes([
                web.get("/static/{path:.*}", self.static),
                web.get("/polku-static/{path:.*}", self.polku_static),
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

        async def polku_static(self, request: web.Request) -> web.StreamResponse:
            target = WEB / request.match_info["path"]
            if target.name not in {"DejaVuSansMono.ttf", "DejaVuSansMono-LICENSE.txt"} or target.parent != WEB:
                raise web.HTTPNotFound()
            return web.FileResponse(target)

        async def to_page(self, request: web.Request) -> web.StreamResponse:
            page = self.page(request)
            raise web.HTTPFound(f"/{page.token}/")

        async def index(self, request: web.Request) -> web.StreamResponse:
            page = self.page(request)
            given = request.query.get("fontsize")
            font_size = max(8, min(40, _to_int(given or "16", 16)))
            # Every URL from the configured address (--host/--port or --url), never the request's Host
            # header: a forged Host could point the page's scripts and socket elsewhere.
            origin = base
            ws = f"{ws_base}/{page.token}/ws"
            context = {"font_size": font_size, "font_size_given": "true" if given else "false",
                       "websocket_url": ws, "static": f"{origin}/static/", "polku_static": f"{origin}/polku-static/",
                       "title": page.title, "lang": language(), "ended": _("The session ended."),
                       "reload": _("Open it again")}
            response = aiohttp_jinja2.render_template("page.html", request, context)
            response.headers["Cache-Control"] = "no-store"
            response.headers["Referrer-Policy"] = "no-referrer"
            # Nothing but this server: the page's web font would tell a third party who plays (and
            # its failed lookup offline holds the page's start for seconds).
            response.headers["Content-Security-Policy"] = (
                "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
                f"img-src 'self' data:; font-src 'self'; connect-src 'self' {ws.rsplit('/', 2)[0]}")
            return response

        async def websocket(self, request: web.Request) -> web.StreamResponse:
            """textual-serve's websocket handler, bounded: the size cut, the processes per link
            counted (one more is refused before it starts), every process ended with it."""
            page = self.page(request)
            running = self.running[page.token]
            if len(running) >= SESSIONS_PER_LINK:
                raise web.HTTPTooManyRequests(
                    text=f"This link is open in {len(running)} windows already; close one, then reload.")
            websocket = web.WebSocketResponse(heartbeat=15)
            width, height = size_within(request.query.get("width", "80"), request.query.get("height", "24"))
            service = BoundedAppService(page.command, write_bytes=websocket.send_bytes,
                                        write_str=websocket.send_str, close=websocket.close,
                                        download_manager=self.download_manager, debug=self.debug)
            running.add(service)
            try:
                await websocket.prepare(request)
                await service.start(width, height)
                await self._process_messages(websocket, service)
            except asyncio.CancelledError:
                await websocket.close()
            except Exception as error:  # textual-serve's handler logs and ends the page the same way
                logging.getLogger("polku.serve").warning("a page's connection ended: %s", error)
            finally:
                await service.end()
                running.discard(service)
            return websocket

        async def on_startup(self, app: web.Application) -> None:
            pass  # the URLs are printed once the socket listens (serve)

        def announce_urls(self) -> None:
            for p in self.pages:
                announce(f"{p.title}: {p.url(base)}")
            if host in ALL_ADDRESSES:
                announce(f"Listening on every address of this machine; the links use {base.split('//', 1)[1]} "
                         "(--url sets the address players type).")
            if not base.startswith("https:") and host not in ("127.0.0.1", "localhost", "::1"):
                announce("Warning: plain HTTP. The links' tokens travel unencrypted: anyone on the network "
                         "between a player and this machine can read them and open that seat. Put TLS in "
                         "front (a reverse proxy; docs/remote-play.md) or use an SSH tunnel.")
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


__all__ = ["MAX_HEIGHT", "MAX_WIDTH", "SESSIONS_PER_LINK", "Page", "base_url", "link_base", "make_server",
           "pages_for", "polku_command", "size_within"]
