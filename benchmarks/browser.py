"""GM's roll → shown in the browser (``polku serve``): p50 and p95.

Usage::

    python benchmarks/browser.py [--rolls N] [--json]

How it is taken: a copy of the Varjojuoksu demo campaign with verifiable dice
is opened as the GM's app opens it (``open_session``, in this process);
``polku serve FILE --no-seats`` runs as its own process on a free port; the
system's Chromium, driven by Playwright, opens the players' view's URL and
waits until the view has drawn and gone quiet (300 ms without output). Then,
N times (50 by default), 200 ms apart: a roll with a fresh label is made and
saved (``Tracker.roll_sr`` + ``SessionFile.save_now``, what the app's
autosave does), and the clock runs from just before the roll to the arrival,
in the browser, of the websocket frame whose text contains the label (the
terminal is drawn on a canvas, so the frames are what the page is given to
draw). The bytes of those frames are counted too. Target: p95 ≤ 150 ms (what a player at the table takes for at once).
Needs chromium (``apt-get install chromium``), playwright and textual-serve.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]")


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    k = max(0, min(len(s) - 1, round(p / 100 * (len(s) - 1))))
    return s[k]


def measure(rolls: int) -> dict[str, object]:
    from playwright.sync_api import sync_playwright

    from polku.session import demo, store
    from polku.session.files import document, open_session
    from polku.session.rolls import SRSide

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("no chromium on PATH: apt-get install -y chromium")
    tmp = Path(tempfile.mkdtemp(prefix="polku-browser-"))
    path = tmp / "table.toml"
    t = demo.demo_varjojuoksu(seed=None)
    store.write_full(path, document(t.state, t.events, t.last_seq()))
    tracker, sf = open_session(path)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "polku.cli", "serve", str(path), "--no-seats", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        url = ""
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("Players' view: "):
                url = line.split(": ", 1)[1].strip()
                break
        chunks: list[tuple[float, bytes]] = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1280, "height": 800})

            def on_ws(ws: object) -> None:
                ws.on("framereceived", lambda d: chunks.append(  # type: ignore[attr-defined]
                    (time.monotonic(), d if isinstance(d, bytes) else str(d).encode())))

            page.on("websocket", on_ws)
            page.goto(url)
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and not any(b"dice #" in c for _, c in chunks):
                page.wait_for_timeout(20)
            while chunks and time.monotonic() - chunks[-1][0] < 0.3:
                page.wait_for_timeout(20)
            latencies, sizes = [], []
            for i in range(rolls):
                page.wait_for_timeout(200)
                label = f"Zq{i}x"
                t0 = time.monotonic()
                tracker.rolls.roll_sr(SRSide(label, dice=4))
                sf.save_now(tracker)
                got = None
                while got is None and time.monotonic() - t0 < 5:
                    # The label may be split between two frames: look in the text so far.
                    text = b""
                    for t, c in chunks:
                        if t < t0:
                            continue
                        text += c
                        if label in ESCAPES.sub("", text.decode("utf-8", "replace")):
                            got = t
                            break
                    else:
                        page.wait_for_timeout(5)
                if got is None:
                    tail = ESCAPES.sub("", b"".join(c for t, c in chunks if t >= t0).decode("utf-8", "replace"))
                    raise SystemExit(f"roll {i} never reached the browser: {len(tail)} chars after it: {tail[-1500:]!r}")
                latencies.append((got - t0) * 1000)
                page.wait_for_timeout(150)
                sizes.append(sum(len(c) for t, c in chunks if t >= t0))
            browser.close()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(10)
        sf.close()
        shutil.rmtree(tmp, ignore_errors=True)
    return {"rolls": rolls, "p50_ms": pct(latencies, 50), "p95_ms": pct(latencies, 95),
            "max_ms": max(latencies), "bytes_median": pct([float(s) for s in sizes], 50),
            "latencies_ms": [round(x, 1) for x in latencies]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rolls", type=int, default=50)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    r = measure(args.rolls)
    ok = float(r["p95_ms"]) <= 150  # type: ignore[arg-type]
    if args.json:
        print(json.dumps({**r, "ok": ok}, indent=1))
    else:
        print("| figure | measured | target | |")
        print("|---|---|---|---|")
        print(f"| GM roll → browser view (polku serve), p50 ({args.rolls} rolls) | {r['p50_ms']:.0f} ms | — | |")
        print(f"| GM roll → browser view (polku serve), p95 | {r['p95_ms']:.0f} ms | ≤ 150 ms | "
              f"{'ok' if ok else 'MISSED'} |")
        print(f"| bytes to the browser per roll (1280x800 page), median | {float(r['bytes_median']) / 1024:.1f} KB | — | |")  # type: ignore[arg-type]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
