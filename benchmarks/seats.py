"""Players' seats and the players' view: how fast a roll reaches them, and what it costs to send.

Usage::

    python benchmarks/seats.py [--rolls N] [--events N] [--json]

``--events 10000`` runs the same figures on a session grown to 10,000 events
first (the players' views must not slow down as a session grows).

Also run by ``benchmarks/run.py`` (figure ``seats``). Six figures, each in
real pseudo-terminals at 120x40 (``run.PtyApp``: it answers Textual's
synchronized-output query, so every frame ends with ``CSI ? 2026 l``):

* **GM's roll → shown** (in a seat, ``polku play FILE --as Kaneda``, and in
  ``polku watch FILE``): the GM's side saves each roll as the app's autosave
  does (``SessionFile.save_now`` after ``roll_sr``, then the players' file
  written by a ``PlayersFile``, which projects only the new events, in this
  process); the
  clock runs from just before the command to the last byte of the frames it
  causes in the viewer (read until 50 ms pass without output; the quiet
  window is not counted). The bytes are counted over the same span.
* **Seat's roll request → applied in the GM's app**: the GM's app
  (``polku FILE``) and a seat run side by side; the seat is asked for N rolls
  (N ``seat`` events in the file); ``r`` is pressed in the seat and the
  clock runs from the key to the GM's app's answer file (written in the same
  UI-thread call that applied the roll as a command). That includes the
  seat's key handling and its atomic write, and the GM's app being told
  (inotify), checking, applying and answering.
* **GM's key → shown** (end to end, both sides in pseudo-terminals): the GM's
  app (``polku FILE``) and a seat (or ``polku watch``) side by side, the
  GM's roll screen open (``1``, ``r``; the demo without its extended test, so
  every ``r`` rolls); the clock runs from the write of the GM's ``r`` to the
  last byte of the frames it causes in the viewer (read until 50 ms pass
  without output; the window not counted): the GM's app rolls, saves,
  publishes the players' file, the viewer is told, reads it and paints.
* **Seat start → first frame** against the GM's app's, alternating on the
  same session (3 runs each): the GM's app's status line names the campaign;
  the seat's shows "You: Kaneda" once it has read the players' file.
* **The GM's app's start → players' file written**: a GM's app writes the
  players' file whole when it opens a session, projecting the whole log for
  the players in a worker thread (seconds at 10,000 events). The figures above
  time a running session: each starts once that file is written (the GM's
  app's keys and a seat's requests meanwhile wait on the projection), and this
  figure says how long that takes.
* **Bytes sent to a seat per roll** (120x40): what the seat's terminal gets
  for its own roll, from the key to the last frame (the answer, the new log
  line, the next request shown), read as above.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

import run as harness  # noqa: E402  (the benchmarks' pty harness)

SHOWN_TARGET_MS = 150.0
APPLIED_TARGET_MS = 150.0
BYTES_TARGET_KB = 3.0
SEAT_START_RATIO = 1.5
FIRST_FRAME_RUNS = 3


EVENTS = 0
"""Grow the benchmark's session to this many events first (``--events``; 0: the demo as it is)."""


_GROWN: dict[tuple[int, bool], Path] = {}
"""(offers, plain) → a session file made already (growing 10,000 events takes a while; each figure gets a copy)."""


def _session(folder: Path, offers: int, *, plain: bool = False) -> Path:
    """The demo (grown to ``EVENTS``), with ``offers`` requests to Kaneda's seat; ``plain``: without its
    extended test, so the GM's roll screen opens on a test ``r`` can roll again and again."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "night.toml"
    if (offers, plain) not in _GROWN:
        _GROWN[offers, plain] = _make_session(folder, offers, plain)
    from polku.session.players.players_file import players_path

    made = _GROWN[offers, plain]
    shutil.copyfile(made, path)
    shutil.copyfile(players_path(made), players_path(path))  # what the views read, as the GM's app published it
    return path


def _make_session(folder: Path, offers: int, plain: bool) -> Path:
    import random

    from polku.session import demo, store
    from polku.session.files import document
    from polku.session.players import seats
    from polku.session.players.players_file import publish
    from polku.session.rolls import SRPool

    t = demo.demo_varjojuoksu()
    for c in list(t.state["challenges"]) if plain else []:
        if c.get("extended"):
            t.remove_challenge(c["id"])
    if EVENTS:
        import make_session

        make_session.grow(t, EVENTS, random.Random(1))
    for _ in range(offers):
        seats.ask_sr(t, "kaneda", SRPool(skill="Pistols", attribute="agility"), threshold=2)
    kept = folder.parent / f"made-{offers}-{int(plain)}" / "night.toml"
    kept.parent.mkdir(parents=True, exist_ok=True)
    store.write_full(kept, document(t.state, t.events, t.last_seq()))
    publish(kept, t)
    return kept


def _viewer_latency(root: Path, argv: list[str], rolls: int, ready: bytes) -> tuple[list[float], list[int]]:
    from polku.session.files import open_session
    from polku.session.players.players_file import PlayersFile
    from polku.session.rolls import SRPool

    path = _session(root, 0)
    app = harness.PtyApp(argv + [str(path)] if "{}" not in argv else [a.replace("{}", str(path)) for a in argv],
                         _env(root), root)
    lat: list[float] = []
    sizes: list[int] = []
    try:
        app.wait_for(ready)
        app.settle(0.5)
        t, sf = open_session(path, seed=7)
        players = PlayersFile(path)
        try:
            # As the GM's app at the open: the players' file written whole (the whole log projected), before
            # the clock runs; each roll after it appends (the figure's subject). The viewer reads it again.
            snap = players.snapshot(t)
            if snap is not None:
                players.write(snap)
            from polku.tui.heap import settle_heap

            settle_heap()  # as the GM's app after it (``_after_saved``): else a full collection hits a timed roll
            app.settle(0.5, first=5.0)
            for _ in range(rolls):
                start = time.perf_counter()
                t.rolls.roll_sr(t.rolls.sr_side("nyx", SRPool(skill="Hacking", attribute="logic")), threshold=3)
                sf.save_now(t)
                snap = players.snapshot(t)  # the players' file, after the save, as the GM's app writes it
                if snap is not None:
                    players.write(snap)
                last, n, _ = app.settle(first=5.0)
                if last is not None:
                    lat.append((last - start) * 1000)
                    sizes.append(n)
        finally:
            sf.close()
    finally:
        app.kill()
    return lat, sizes


def _viewer_quiet(viewer: harness.PtyApp, gm: harness.PtyApp, start: float, first: float = 10.0) -> float | None:
    """Read the viewer (and drain the GM's terminal) until the viewer has been quiet for the settle
    window after its first byte: the time of its last byte, or None when nothing came within ``first`` s."""
    last = None
    while True:
        gm.read(0)
        got = viewer.read(0.002)
        now = time.perf_counter()
        if got is not None:
            last = got[0]
        elif last is None and now - start > first:
            return None
        elif last is not None and now - last > harness.SETTLE_S:
            return last


def _gm_key_latency(root: Path, viewer_argv: list[str], rolls: int, ready: bytes) -> list[float]:
    """The GM's key in the GM's app (a pty) → the last byte of the frames it causes in the viewer (a pty):
    the roll screen open (``1``, ``r``), ``r`` pressed; the GM's app rolls, saves and publishes the
    players' file, the viewer is told (inotify), reads it and paints."""
    path = _session(root, 0, plain=True)
    cmd = harness.polku_cmd()
    before = harness.file_ident(harness.players_file(path))
    gm = harness.PtyApp(cmd + [str(path)], _env(root), root)
    gm.session = path
    viewer = None
    lat: list[float] = []
    try:
        gm.wait_for(b"Neo-Helsinki", timeout=120)
        gm.wait_published(before)
        gm.settle(0.5)
        viewer = harness.PtyApp([a.replace("{}", str(path)) for a in viewer_argv], _env(root), root)
        viewer.wait_for(ready, timeout=120)
        viewer.settle(0.5)
        for k in (b"1", b"r"):
            gm.key(k)
            gm.settle(first=5.0)
        viewer.settle(0.3)
        for _ in range(rolls):
            start = gm.key(b"r")
            last = _viewer_quiet(viewer, gm, start)
            if last is not None:
                lat.append((last - start) * 1000)
            gm.settle(0.05)
            viewer.settle(0.05)
    finally:
        if viewer is not None:
            viewer.kill()
        gm.kill()
    return lat


def _first_frames(root: Path, runs: int) -> tuple[list[float], list[float], list[float]]:
    """Start → first frame of the GM's app and of a seat, alternating, on the same session: the GM's
    app's status line names the campaign; the seat's shows "You: Kaneda" once it has read the players'
    file (which the GM's app published at its start: the seat starts once it is written, and the ms from
    the GM's app's start to it are the third list)."""
    path = _session(root, 0)
    cmd = harness.polku_cmd()
    gm_ms: list[float] = []
    seat_ms: list[float] = []
    published_ms: list[float] = []
    for _ in range(runs):
        before = harness.file_ident(harness.players_file(path))
        gm = harness.PtyApp(cmd + [str(path)], _env(root), root)
        gm.session = path
        try:
            gm_ms.append((gm.wait_for(b"Neo-Helsinki", timeout=120) - gm.t_spawn) * 1000)
            published_ms.append((gm.wait_published(before) - gm.t_spawn) * 1000)
            gm.settle(0.5)
            seat = harness.PtyApp(cmd + ["play", str(path), "--as", "Kaneda"], _env(root), root)
            try:
                seat_ms.append((seat.wait_for(b"You: Kaneda", timeout=120) - seat.t_spawn) * 1000)
            finally:
                seat.kill()
        finally:
            gm.kill()
            lock = path.with_name(path.name + ".lock")
            if lock.exists():
                lock.unlink()
    return gm_ms, seat_ms, published_ms


def _env(root: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTUAL", "POLKU"))}
    env.update(TERM="xterm-256color", COLORTERM="truecolor", LANG=env.get("LANG", "C.UTF-8"),
               POLKU_CONFIG_DIR=str(root / "config"), XDG_CONFIG_HOME=str(root / "config"),
               POLKU_STATE_DIR=str(root / "state"), XDG_STATE_HOME=str(root / "state"),
               XDG_DATA_HOME=str(root / "data"), COLUMNS=str(harness.COLS), LINES=str(harness.ROWS))
    env.pop("NO_COLOR", None)
    return env


def _seat_requests(root: Path, rolls: int) -> tuple[list[float], list[int]]:
    from polku.session.players import seats

    path = _session(root, rolls)
    cmd = harness.polku_cmd()
    before = harness.file_ident(harness.players_file(path))
    gm = harness.PtyApp(cmd + [str(path)], _env(root), root)
    gm.session = path
    seat = None
    applied: list[float] = []
    sizes: list[int] = []
    try:
        gm.wait_for(b"Neo-Helsinki")
        gm.wait_published(before)
        gm.settle(0.5)
        seat = harness.PtyApp(cmd + ["play", str(path), "--as", "Kaneda"], _env(root), root)
        seat.wait_for(b"The GM asks you to roll")
        seat.settle(0.5)
        folder = seats.seat_dir(path, "kaneda")
        for _ in range(rolls):
            before = set(os.listdir(folder))
            sent_before = len(seat.buf)
            start = seat.key(b"r")
            deadline = start + 10
            got = None
            while got is None and time.perf_counter() < deadline:
                new = [n for n in os.listdir(folder) if n.startswith("ans-") and n not in before]
                if new:
                    got = time.perf_counter()
                    break
                gm.read(0)  # keep the GM's terminal drained
                seat.read(0)
                time.sleep(0.0005)
            if got is None:
                raise RuntimeError("no answer from the GM's app within 10 s")
            applied.append((got - start) * 1000)
            # The seat's frames for this roll: read until it has been quiet (what it was sent so far included).
            seat.settle(first=2.0)
            sizes.append(len(seat.buf) - sent_before)
            gm.settle(0.05)
    finally:
        if seat is not None:
            seat.kill()
        gm.kill()
    return applied, sizes


def bench_seats(root: Path, rolls: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The rows for benchmarks/run.py (and this script's table)."""
    root.mkdir(parents=True, exist_ok=True)
    cmd = harness.polku_cmd()
    seat_lat, seat_bytes = _viewer_latency(root / "seat", cmd + ["play", "{}", "--as", "Kaneda"], rolls, b"You: Kaneda")
    watch_lat, watch_bytes = _viewer_latency(root / "watch", cmd + ["watch", "{}"], rolls, b"Dice log")
    applied, own_bytes = _seat_requests(root / "request", rolls)
    key_seat = _gm_key_latency(root / "key-seat", cmd + ["play", "{}", "--as", "Kaneda"], rolls, b"You: Kaneda")
    key_watch = _gm_key_latency(root / "key-watch", cmd + ["watch", "{}"], rolls, b"Dice log")
    gm_start, seat_start, published = _first_frames(root / "start", FIRST_FRAME_RUNS)
    p95 = harness.pct
    start_ratio = statistics.median(seat_start) / statistics.median(gm_start)
    rows = [
        harness.row(f"GM's key (pty) → shown in a seat (pty), p95 ({len(key_seat)} rolls)", p95(key_seat, 95), None,
                    "ms", "≤ 150 ms", p95(key_seat, 95) <= SHOWN_TARGET_MS and len(key_seat) == rolls,
                    p50_ms=statistics.median(key_seat)),
        harness.row(f"GM's key (pty) → shown in polku watch (pty), p95 ({len(key_watch)} rolls)", p95(key_watch, 95),
                    None, "ms", "≤ 150 ms", p95(key_watch, 95) <= SHOWN_TARGET_MS and len(key_watch) == rolls,
                    p50_ms=statistics.median(key_watch)),
        harness.row(f"seat start → first frame, median of {len(seat_start)} (GM's app: baseline)",
                    statistics.median(seat_start), statistics.median(gm_start), "ms", "≤ 1.5× the GM's app",
                    start_ratio <= SEAT_START_RATIO),
        harness.row(f"GM's roll → shown in a seat, p95 ({len(seat_lat)} rolls)", p95(seat_lat, 95), None, "ms",
                    "≤ 150 ms", p95(seat_lat, 95) <= SHOWN_TARGET_MS and len(seat_lat) == rolls,
                    p50_ms=statistics.median(seat_lat)),
        harness.row(f"GM's roll → shown in polku watch, p95 ({len(watch_lat)} rolls)", p95(watch_lat, 95), None,
                    "ms", "≤ 150 ms", p95(watch_lat, 95) <= SHOWN_TARGET_MS and len(watch_lat) == rolls,
                    p50_ms=statistics.median(watch_lat)),
        harness.row(f"seat's roll request → applied in the GM's app, p95 ({len(applied)} rolls)", p95(applied, 95),
                    None, "ms", "≤ 150 ms", p95(applied, 95) <= APPLIED_TARGET_MS and len(applied) == rolls,
                    p50_ms=statistics.median(applied)),
        harness.row("bytes to a seat per GM's roll (120x40), median", statistics.median(seat_bytes) / 1024, None,
                    "KB", "≤ 3 KB", statistics.median(seat_bytes) / 1024 <= BYTES_TARGET_KB,
                    max_kb=max(seat_bytes) / 1024),
        harness.row("  its own roll: key → answer → next request shown, median", statistics.median(own_bytes) / 1024,
                    None, "KB", "info", True),
        harness.row(f"GM's app: start → players' file written whole, median of {len(published)}",
                    statistics.median(published), None, "ms", "info", True),
    ]
    return rows, {"seat_shown_ms": seat_lat, "watch_shown_ms": watch_lat, "applied_ms": applied,
                  "gm_key_seat_ms": key_seat, "gm_key_watch_ms": key_watch, "gm_start_ms": gm_start,
                  "seat_start_ms": seat_start, "players_file_written_ms": published,
                  "seat_bytes": seat_bytes, "watch_bytes": watch_bytes, "own_roll_bytes": own_bytes}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rolls", type=int, default=40)
    ap.add_argument("--events", type=int, default=0,
                    help="grow the session to this many events first (make_session.py's mix), e.g. 10000")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    global EVENTS
    EVENTS = args.events
    root = Path(tempfile.mkdtemp(prefix="polku-seats-"))
    try:
        rows, samples = bench_seats(root, args.rolls)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    if args.json:
        print(json.dumps({"rows": rows, "samples": samples}, indent=1))
    else:
        print(harness.table(rows))
        for r in rows:
            if "own_kb" in r:
                print(f"  (its own roll: {r['own_kb']:.2f} KB)")
            if "p50_ms" in r:
                print(f"  {r['figure']}: p50 {r['p50_ms']:.1f} ms")
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
