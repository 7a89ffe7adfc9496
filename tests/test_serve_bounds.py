"""``polku serve`` bounded (cli/webserve.py): a page's terminal size is capped, one link runs at most
``SESSIONS_PER_LINK`` app processes (one more websocket is refused), every app process ends with
serve, the pages' URLs come from the configured address and never from the Host header, and serving
on every address prints usable links and says that tokens travel over plain HTTP.

Each test runs ``polku serve`` in a process of its own (as tests/test_browser.py does) and talks to it
with aiohttp's client; no browser is needed.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
from pathlib import Path

import pytest

from app_fixtures import QUIET_TIMEOUT
from polku.cli import webserve
from test_browser import Served, _need_serve


@pytest.fixture
def table(tmp_path: Path) -> Path:
    from polku.session import demo, store
    from polku.session.files import document

    path = tmp_path / "table.toml"
    from polku.session.players.players_file import publish

    t = demo.demo_varjojuoksu(seed=None)
    store.write_full(path, document(t.state, t.events, t.last_seq()))
    publish(path, t)  # as the GM's app does on opening: serve reads only the players' file
    return path


def _children(pid: int) -> dict[int, dict[str, str]]:
    """The processes whose parent is ``pid``, each with its environment."""
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            if ppid != pid:
                continue
            with open(f"/proc/{entry}/environ", "rb") as f:
                env = dict(x.decode("utf-8", "replace").split("=", 1) for x in f.read().split(b"\0") if b"=" in x)
        except (OSError, ValueError, IndexError):
            continue
        out[int(entry)] = env
    return out


async def _until(predicate, what: str, timeout: float = QUIET_TIMEOUT) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(0.05)


def _ws(url: str, **query: int) -> str:
    q = "&".join(f"{k}={v}" for k, v in query.items())
    return url.replace("http://", "ws://") + "ws" + (f"?{q}" if q else "")


def test_the_size_a_page_asks_for_is_capped():
    assert webserve.size_within("10000", "10000") == (webserve.MAX_WIDTH, webserve.MAX_HEIGHT)
    assert webserve.size_within("0", "-5") == (webserve.MIN_WIDTH, webserve.MIN_HEIGHT)
    assert webserve.size_within("x", "") == (80, 24)
    assert webserve.size_within("120", "40") == (120, 40)


def test_a_resize_past_the_bound_is_cut():
    _need_serve()
    told: list[dict] = []
    service = webserve.bounded_service()("true", write_bytes=None, write_str=None, close=None,
                                         download_manager=None, debug=False)

    async def record(meta: dict) -> bool:
        told.append(meta)
        return True

    service.send_meta = record
    asyncio.run(service.set_terminal_size(99999, 99999))
    assert told == [{"type": "resize", "width": webserve.MAX_WIDTH, "height": webserve.MAX_HEIGHT}]


def test_an_app_that_does_not_quit_is_killed():
    """What serve does with each page's app when the page closes or serve stops: ask it to quit, and
    kill it when it has not within STOP_WAIT seconds (an app still starting, or stuck, outlived serve)."""
    _need_serve()
    from textual_serve.download_manager import DownloadManager

    async def noop(*_: object) -> None:
        return None

    async def run() -> int | None:
        service = webserve.bounded_service()("exec sleep 600", write_bytes=noop, write_str=noop, close=noop,
                                             download_manager=DownloadManager(), debug=False)
        await service.start(80, 24)
        proc = service._process
        await asyncio.wait_for(service.end(), QUIET_TIMEOUT)
        return proc.returncode

    assert asyncio.run(run()) is not None, "the process is gone"


def test_a_link_runs_at_most_its_sessions_capped_in_size_and_they_end_with_serve(table):
    """?width=10000&height=10000 starts an app of at most MAX_WIDTH × MAX_HEIGHT; a third websocket on
    one link is refused with 429 and starts nothing; when serve stops, no app process outlives it."""
    _need_serve()
    import aiohttp

    served = Served(table, "--no-seats")
    url = served.urls["Players' view"]

    async def run() -> list[int]:
        async with aiohttp.ClientSession() as client:
            sockets = [await client.ws_connect(_ws(url, width=10000, height=10000))
                       for _ in range(webserve.SESSIONS_PER_LINK)]
            await _until(lambda: len(_children(served.proc.pid)) == webserve.SESSIONS_PER_LINK,
                         "an app process per websocket")
            for env in _children(served.proc.pid).values():
                assert (env["COLUMNS"], env["ROWS"]) == (str(webserve.MAX_WIDTH), str(webserve.MAX_HEIGHT))
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await client.ws_connect(_ws(url))
            assert refused.value.status == 429
            # A resize past the bound is cut too (the app is told the capped size; it keeps running).
            await sockets[0].send_json(["resize", {"width": 99999, "height": 99999}])
            await asyncio.sleep(0)
            assert len(_children(served.proc.pid)) == webserve.SESSIONS_PER_LINK, "the refused one started none"
            pids = list(_children(served.proc.pid))
            # SIGTERM to serve alone (as a service manager or kill PID sends it), not to its process group.
            served.proc.send_signal(signal.SIGTERM)
            return pids

    try:
        pids = asyncio.run(run())
    finally:
        served.stop()

    async def gone() -> None:
        await _until(lambda: not [p for p in pids if os.path.exists(f"/proc/{p}")
                                  and "zombie" not in open(f"/proc/{p}/status").read().lower()],
                     "every app process to end with serve")

    asyncio.run(gone())


def test_a_closed_page_frees_its_place_on_the_link(table):
    _need_serve()
    import aiohttp

    served = Served(table, "--no-seats")
    url = served.urls["Players' view"]

    async def run() -> None:
        async with aiohttp.ClientSession() as client:
            first = [await client.ws_connect(_ws(url)) for _ in range(webserve.SESSIONS_PER_LINK)]
            await first[0].close()
            await _until(lambda: len(_children(served.proc.pid)) == webserve.SESSIONS_PER_LINK - 1,
                         "the closed page's app to end")
            # Its place is free once its app has ended: a new page of the link connects again.
            again = None

            async def connect() -> None:
                nonlocal again
                try:
                    again = await client.ws_connect(_ws(url))
                except aiohttp.WSServerHandshakeError as e:
                    assert e.status == 429

            loop = asyncio.get_running_loop()
            deadline = loop.time() + QUIET_TIMEOUT
            while again is None and loop.time() < deadline:
                await connect()
                await asyncio.sleep(0.05)
            assert again is not None and not again.closed

    try:
        asyncio.run(run())
    finally:
        served.stop()


def test_the_pages_urls_never_come_from_the_host_header(table):
    _need_serve()
    import urllib.request

    served = Served(table, "--no-seats")
    url = served.urls["Players' view"]
    try:
        req = urllib.request.Request(url, headers={"Host": "evil.example:666"})
        with urllib.request.urlopen(req, timeout=10) as r:
            page = r.read().decode("utf-8")
            csp = r.headers["Content-Security-Policy"]
        assert "evil.example" not in page and "evil.example" not in csp
        base = url.rsplit("/", 2)[0]
        token = url.rstrip("/").rsplit("/", 1)[1]
        assert f'data-session-websocket-url="{base.replace("http://", "ws://")}/{token}/ws"' in page
    finally:
        served.stop()


def test_every_address_prints_usable_links_and_warns_of_plain_http(table):
    _need_serve()
    served = Served(table, "--no-seats", "--host", "0.0.0.0")
    try:
        links = list(served.urls.values())
        assert links and not [u for u in links if "0.0.0.0" in u or "//:" in u], links
        lines = served.lines
        assert any(line.startswith("Warning: plain HTTP.") and "TLS" in line for line in lines), lines
        assert any(line.startswith("Listening on every address") for line in lines), lines
    finally:
        served.stop()
    local = Served(table, "--no-seats")
    try:
        assert not [line for line in local.lines if line.startswith("Warning: plain HTTP")], \
            "this machine only: nothing crosses a network"
    finally:
        local.stop()


def test_url_gives_the_links_and_the_pages_their_tls_address(table):
    _need_serve()
    import urllib.request

    served = Served(table, "--no-seats", "--url", "https://table.example.org")
    try:
        (link,) = served.urls.values()
        assert re.fullmatch(r"https://table\.example\.org/[-\w]{20,}/", link), link
        assert not [line for line in served.lines if line.startswith("Warning: plain HTTP")]
        token = link.rstrip("/").rsplit("/", 1)[1]
        with urllib.request.urlopen(f"http://127.0.0.1:{served.port}/{token}/", timeout=10) as r:
            page = r.read().decode("utf-8")
        assert f'data-session-websocket-url="wss://table.example.org/{token}/ws"' in page
    finally:
        served.stop()


def test_a_bad_url_is_one_line(table, capsys):
    from polku.cli import main

    assert main(["serve", str(table), "--url", "table.example.org"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--url is the address players type" in err[0]
