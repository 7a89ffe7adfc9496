"""``polku serve`` in a real browser: Chromium driven by Playwright.

The server runs as ``polku serve FILE`` does; a GM's roll saved to the file
must show in the browser's view within a second; a URL without a page's
token gets no page. Skips, saying why, when Chromium, Playwright or
textual-serve is missing (``.ci/run`` installs Chromium; the test extra the
Python packages).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]")

def gm_saves(sf, t) -> None:
    """The GM's app's save, headless: the session file, then the players' file (what the views read)."""
    from polku.session.players.players_file import publish

    sf.save_now(t)
    publish(sf.path, t)



def _need_serve() -> None:
    try:
        __import__("textual_serve")
    except ImportError:
        pytest.skip("textual-serve is not installed: pip install -c constraints.txt -e '.[test]'")


def _need() -> None:
    for module, why in (("textual_serve", "textual-serve"), ("playwright", "playwright")):
        try:
            __import__(module)
        except ImportError:
            pytest.skip(f"{why} is not installed: pip install -c constraints.txt -e '.[test]'")
    if CHROMIUM is None:
        pytest.skip("no chromium executable on PATH: apt-get install -y chromium (.ci/run does)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return int(r.status)
    except urllib.error.HTTPError as e:
        return int(e.code)


class Served:
    """``polku serve FILE`` in a process of its own, and the URLs it printed."""

    def __init__(self, path: Path, *extra: str) -> None:
        self.port = _free_port()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "polku.cli", "serve", str(path), "--port", str(self.port), *extra],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
            env={**os.environ, "NO_COLOR": ""})
        self.urls: dict[str, str] = {}
        self.lines: list[str] = []
        """Everything serve printed at start."""
        deadline = time.monotonic() + 20
        assert self.proc.stdout is not None
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            self.lines.append(line.strip())
            m = re.match(r"(.+?): (https?://\S+)$", line.strip())
            if m:
                self.urls[m.group(1)] = m.group(2)
            if line.startswith("Each link is its own key"):
                return
        self.stop()
        raise AssertionError(f"polku serve did not start: {self.urls}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)


class Screen:
    """What the browser's terminal was sent, as text (the terminal draws on a canvas)."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.chunks: list[tuple[float, str]] = []
        self.sent: list[str] = []
        """What the page sent the server (its terminal size, the keys)."""
        page.on("websocket", self._socket)

    def _socket(self, ws: Any) -> None:
        def got(payload: Any) -> None:
            data = payload if isinstance(payload, bytes) else str(payload).encode()
            self.chunks.append((time.monotonic(), data.decode("utf-8", "replace")))
        ws.on("framereceived", got)
        ws.on("framesent", lambda payload: self.sent.append(payload if isinstance(payload, str) else ""))

    def settle(self, quiet: float = 0.3, timeout: float = 10) -> None:
        """Wait until nothing has arrived for ``quiet`` seconds (the view finished starting)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            last = self.chunks[-1][0] if self.chunks else 0.0
            if time.monotonic() - last >= quiet:
                return
            self.page.wait_for_timeout(20)

    def text_since(self, t0: float) -> str:
        return ESCAPES.sub("", "".join(c for t, c in self.chunks if t >= t0))

    def wait_for(self, text: str, since: float, timeout: float) -> float:
        """Seconds from ``since`` until ``text`` reached the browser (events are only
        delivered while Playwright waits, so wait in its own small steps)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for t, chunk in self.chunks:
                if t >= since and text in ESCAPES.sub("", chunk):
                    return t - since
            if text in self.text_since(since):
                return next(t for t, _ in reversed(self.chunks)) - since
            self.page.wait_for_timeout(10)
        raise AssertionError(f"{text!r} did not reach the browser in {timeout} s")


@contextlib.contextmanager
def opened(url: str, ready: str) -> Iterator[tuple[Any, Screen, float]]:
    """Chromium showing ``url`` (a page of polku serve) once ``ready`` has reached it and the view
    went quiet: the page, what it was sent, and when it was opened."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            screen = Screen(page)
            start = time.monotonic()
            page.goto(url)
            screen.wait_for(ready, start, 30)
            screen.settle()
            yield page, screen, start
        finally:
            browser.close()


@pytest.fixture
def session(tmp_path: Path):
    from polku.session import demo
    from polku.session.files import open_session

    path = tmp_path / "table.toml"
    t = demo.demo_varjojuoksu(seed=None)  # verifiable dice: the view shows a commitment
    t.add_character("Shade", kind="pc", secret=True)  # never a seat
    from polku.session import store
    from polku.session.files import document

    store.write_full(path, document(t.state, t.events, t.last_seq()))
    tracker, sf = open_session(path)
    gm_saves(sf, tracker)  # the GM's app publishes the players' file on opening: all that serve reads
    yield path, tracker, sf
    sf.close()


def test_no_token_no_page(session):
    _need_serve()
    path, _, _ = session
    served = Served(path, "--no-seats")
    try:
        url = served.urls["Players' view"]
        base = url.rsplit("/", 2)[0]
        token = url.rstrip("/").rsplit("/", 1)[1]
        assert len(token) >= 20
        assert _status(url) == 200
        assert _status(base + "/") == 404
        assert _status(f"{base}/{token[:-1]}x/") == 404
        assert _status(f"{base}/{token[:-1]}x/ws") == 404
        assert _status(f"{base}/static/../webserve.py") == 404
        assert served.urls and all(u.startswith("http://127.0.0.1:") for u in served.urls.values())
    finally:
        served.stop()


def test_a_gms_roll_reaches_the_browser(session):
    """The GM's saved roll reaches the players' page (how fast: benchmarks/browser.py; a test only bounds
    the wait generously, so a loaded machine does not fail it)."""
    _need()
    from polku.session.rolls import SRSide

    path, tracker, sf = session
    served = Served(path, "--no-seats")
    commitment = tracker.state["dice"]["commitment"]
    try:
        with opened(served.urls["Players' view"], f"dice #1 {commitment[:8]}") as (_, screen, start):
            for label in ("Zyxwv", "Qwvut"):
                t0 = time.monotonic()
                tracker.rolls.roll_sr(SRSide(label, dice=4))
                gm_saves(sf, tracker)
                screen.wait_for(label, t0, 60)
            assert tracker.state["dice"]["secret"] not in screen.text_since(start)
    finally:
        served.stop()


def test_serve_refuses_bad_input_in_one_line(tmp_path, capsys):
    from polku.cli import main

    for argv, want in ((["serve", str(tmp_path / "nope.toml")], "nope.players.jsonl is missing: the GM's app writes it"),
                       (["serve", "x.toml", "--port", "70000"], "--port"),
                       (["serve", "x.toml", "--port", "http"], "--port")):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and want in err[0], err


def test_serve_offers_seats_only_for_public_characters(session):
    from polku.cli import VERBS, CliError
    from polku.cli.serve import seat_names

    _, tracker, _ = session
    if "play" not in VERBS:
        assert seat_names(tracker, None, False) == []
        with pytest.raises(CliError, match="polku play"):
            seat_names(tracker, ["Kaneda"], False)
        return
    pcs = [ch["name"] for ch in tracker.characters.values() if ch["kind"] == "pc" and not ch["secret"]]
    assert seat_names(tracker, None, False) == pcs and pcs
    assert seat_names(tracker, ["kaneda", "Kaneda"], False) == ["Kaneda"]
    secret = next(ch["name"] for ch in tracker.characters.values() if ch["secret"])
    with pytest.raises(CliError, match="no character"):
        seat_names(tracker, [secret], False)
    assert seat_names(tracker, None, True) == []


class GMApp:
    """The GM's app (``polku FILE``) in a pseudo-terminal of its own, as a GM runs it."""

    def __init__(self, path: Path) -> None:
        import fcntl
        import struct
        import termios
        import threading

        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        self.proc = subprocess.Popen([sys.executable, "-m", "polku.cli", str(path)], stdin=slave, stdout=slave,
                                     stderr=slave, start_new_session=True, close_fds=True,
                                     env={**os.environ, "TERM": "xterm-256color"})
        os.close(slave)
        self.master = master
        self.out = bytearray()

        def drain() -> None:
            while True:
                try:
                    data = os.read(master, 65536)
                except OSError:
                    return
                if not data:
                    return
                self.out += data

        threading.Thread(target=drain, daemon=True).start()

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
        os.close(self.master)


def test_a_seats_roll_in_the_browser_lands_in_the_gms_app(tmp_path):
    """The GM asks Kaneda's seat for a roll; the player presses r in the browser; the GM's app
    (its own process, the only writer of the file) applies it: the saved file has the roll."""
    _need()
    from polku.cli import VERBS

    if "play" not in VERBS:
        pytest.skip("polku play (the seats) is not in this Polku yet")
    from polku.session import demo, store
    from polku.session.files import document, load_tracker
    from polku.session.players import seats
    from polku.session.players.players_file import publish
    from polku.session.rolls import SRPool

    path = tmp_path / "table.toml"
    t = demo.demo_varjojuoksu(seed=None)
    seats.ask_sr(t, "kaneda", SRPool(mode="dice", dice=5))
    store.write_full(path, document(t.state, t.events, t.last_seq()))
    publish(path, t)  # as the GM's app does on opening (serve reads only the players' file)
    n = t.last_seq()
    gm = GMApp(path)
    served = Served(path, "--seat", "Kaneda")
    try:
        with opened(served.urls["Seat: Kaneda"], "Kaneda") as (page, _, _):
            page.click(".textual-terminal")
            page.keyboard.press("r")
            deadline = time.monotonic() + 20
            landed = None
            while landed is None and time.monotonic() < deadline:
                page.wait_for_timeout(100)
                loaded, _ = load_tracker(path, read_only=True)
                landed = next((e for e in loaded.events if e["seq"] > n and e["kind"] == "roll"
                               and e.get("seat") == "kaneda"), None)
            assert landed is not None, "the seat's roll never reached the GM's file"
            assert landed["roll"]["dice_key"] == 1, "the GM's app rolled it with the session's dice"
    finally:
        served.stop()
        gm.stop()


@pytest.mark.parametrize("ratio", [1, 2, 3])
def test_a_seat_fits_a_phone(session, ratio):
    """A player opens their seat's link on a phone (390x844 CSS pixels, a device pixel ratio of 1 to 3).
    The page is laid out at the phone's width, the terminal's canvas lies on the screen, it is drawn
    at the resolution the page scales it by (at a ratio of 2–3 it used to draw the glyphs 2–3× too
    big for its canvas: the seat's roll panel and key line were off-screen), and the app got a
    terminal of 80 columns or more, so the seat lays out its roll panel beside the view."""
    _need()
    from playwright.sync_api import sync_playwright

    path, _, _ = session
    served = Served(path)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            try:
                context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=ratio,
                                              is_mobile=True, has_touch=True)
                page = context.new_page()
                screen = Screen(page)
                start = time.monotonic()
                page.goto(served.urls["Seat: Kaneda"])
                screen.wait_for("You: Kaneda", start, 30)
                screen.settle()
                got = page.evaluate("""() => {
                    const r = document.querySelector('.xterm-screen').getBoundingClientRect();
                    const c = document.querySelector('canvas.xterm-text-layer') || document.querySelector('.xterm-screen canvas');
                    return {inner: window.innerWidth, right: r.right, bottom: r.bottom,
                            backing: c.width, css: parseFloat(c.style.width), ratio: window.devicePixelRatio,
                            font: document.getElementById('terminal').dataset.fontSize};
                }""")
                sizes = [m.group(1, 2) for m in re.finditer(r'"width":\s*(\d+),\s*"height":\s*(\d+)',
                                                             "".join(screen.sent))]
            finally:
                browser.close()
    finally:
        served.stop()
    assert got["inner"] == 390, got  # laid out at the phone's width, not a 980 px desktop page
    assert got["right"] <= 390 and got["bottom"] <= 844, got
    assert got["backing"] == round(got["css"] * got["ratio"]), got
    assert sizes and 78 <= int(sizes[-1][0]) <= 120, (sizes, got)
